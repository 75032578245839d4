/*
 * worker/mcts.c — the PUCT search of worker/mcts.h: the tree's nodes, the
 * root, selection with virtual loss and first-play urgency, the leaves of a
 * step and their evaluation across many searches.
 *
 * A step of one search selects up to cfg.threads leaves, each with a virtual
 * loss on its path so that the next selection goes elsewhere; positions after
 * two passes are scored on the spot (Tromp-Taylor area against the komi the
 * net sees) instead of evaluated, but for the root, which is always
 * searched. hs_mcts_step_many runs the leaves of every search through the
 * evaluator in calls of up to its max_batch, then backs each up
 * (mcts_backup.c). Results, noise and temperature are in
 * mcts_result.c, tree reuse in mcts_reuse.c.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "worker/mcts_internal.h"

void hs_mcts_config_default(hs_mcts_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_visits = 200;
    cfg->threads = 1;
    cfg->cpuct = 1.1;
    cfg->net_cpuct = 1.0;
    cfg->net_cpuct_log = 0.45;
    cfg->net_cpuct_base = 500.0;
    cfg->fpu_reduction = 0.2;
    cfg->win_loss_utility = 1.0;
    cfg->score_utility = 0.1;
    cfg->score_scale = 20.0;
    cfg->dyn_score_utility = 0.3;
    cfg->dyn_score_scale = 0.75;
    cfg->cpuct_stdev_scale = 0.85;
    cfg->root_fpu_reduction = 0.1;
    cfg->noise_prune_utility = 0.15;
    cfg->value_weight_exponent = 0.25;
    cfg->subtree_bias = 0.45;
    cfg->subtree_bias_exponent = 0.85;
    cfg->subtree_bias_free = 0.8;
    cfg->rave_equiv = 1000.0;
    cfg->lcb_min_visit_prop = 0.15;
    cfg->root_symmetries = 1;
    cfg->root_policy_temperature = 1.0;
    cfg->allow_pass = true;
}

static int s_check_config(const hs_mcts_config_t *c, hs_error_t *err)
{
    if (c->threads < 1 || c->threads > 4096)
        return hs_error_set(err, HS_EINVAL, "mcts: threads %d outside 1..4096", c->threads);
    if (c->max_visits < 0 || c->max_playouts < 0 || !(c->max_time >= 0))
        return hs_error_set(err, HS_EINVAL, "mcts: a negative budget");
    if (c->root_symmetries < 1 || c->root_symmetries > 8)
        return hs_error_set(err, HS_EINVAL, "mcts: root symmetries %d outside 1..8",
                            c->root_symmetries);
    if (!(c->cpuct > 0) || !(c->net_cpuct > 0) || !(c->net_cpuct_log >= 0) ||
        !(c->net_cpuct_base > 0) || !(c->fpu_reduction >= 0) || !(c->score_utility >= 0) ||
        !(c->win_loss_utility >= 0) || !(c->win_loss_utility <= 100) ||
        !(c->score_scale > 0) || !(c->dyn_score_utility >= 0) || !(c->dyn_score_scale > 0) ||
        !(c->cpuct_stdev_scale >= 0) || !(c->root_fpu_reduction >= 0) ||
        !(c->noise_prune_utility >= 0) || !(c->value_weight_exponent >= 0) ||
        !(c->subtree_bias >= 0) || !(c->subtree_bias <= 1) || !(c->subtree_bias_exponent >= 0) ||
        !(c->subtree_bias_exponent <= 1) || !(c->subtree_bias_free >= 0) ||
        !(c->subtree_bias_free <= 1) ||
        !(c->rave_equiv >= 0) || !(c->noise_alpha >= 0) || !(c->noise_weight >= 0) ||
        !(c->noise_weight <= 1) || !(c->temperature >= 0) || !(c->lcb_stdevs >= 0) ||
        !(c->confirm_stdevs >= 0) || !(c->lcb_min_visit_prop >= 0) || !(c->lcb_min_visit_prop <= 1) ||
        !(c->wide_root_noise >= 0) || !(c->wide_root_noise <= 5) ||
        !(c->root_policy_temperature >= 0.01) || !(c->root_policy_temperature <= 100))
        return hs_error_set(err, HS_EINVAL, "mcts: a search constant out of range");
    return 0;
}

static void s_fix_budget(hs_mcts_config_t *c)
{
    if (!c->max_visits && !c->max_playouts && !(c->max_time > 0))
        c->max_visits = 1;
}

int hs_mcts_create(const hs_mcts_config_t *cfg, hs_mcts_t **out, hs_error_t *err)
{
    *out = NULL;
    int rc = s_check_config(cfg, err);
    if (rc)
        return rc;
    hs_mcts_t *m = calloc(1, sizeof *m);
    if (!m)
        return hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    m->cfg = *cfg;
    s_fix_budget(&m->cfg);
    hs_rng_seed(&m->rng, cfg->seed);
    *out = m;
    return 0;
}

static void s_free_leaves(hs_mcts_t *m)
{
    for (int i = 0; i < m->cap_leaves; i++) {
        free(m->leaves[i].path);
        free(m->leaves[i].moves);
        free(m->leaves[i].edge);
    }
    free(m->leaves);
    m->leaves = NULL;
    m->cap_leaves = 0;
}

void hs_mcts_free(hs_mcts_t **mp)
{
    if (!mp || !*mp)
        return;
    hs_mcts_t *m = *mp;
    hs__mcts_table_free(m);
    hs__mcts_svb_free(m);
    s_free_leaves(m);
    free(m);
    *mp = NULL;
}

int hs_mcts_set_config(hs_mcts_t *m, const hs_mcts_config_t *cfg, hs_error_t *err)
{
    int rc = s_check_config(cfg, err);
    if (rc)
        return rc;
    if (cfg->seed != m->cfg.seed)
        hs_rng_seed(&m->rng, cfg->seed);
    m->cfg = *cfg;
    s_fix_budget(&m->cfg);
    return 0;
}

const hs_mcts_config_t *hs_mcts_get_config(const hs_mcts_t *m) { return &m->cfg; }

/* ------------------------------------------------------------------ */
/* Nodes                                                               */

hs__mcts_node_t *hs__mcts_node_new(hs_mcts_t *m, bool with_own, uint64_t key)
{
    hs__mcts_node_t *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->key = key;
    if ((with_own && hs__mcts_give_own(n)) || hs__mcts_table_add(m, n)) {
        free(n->own);
        free(n);
        return NULL;
    }
    m->nodes++;
    return n;
}

void hs_mcts_clear(hs_mcts_t *m)
{
    hs__mcts_table_free(m);
    m->root = NULL;
    m->root_ply = 0;
    m->noised = false;
    m->have_center = false;
    if (m->have_root)
        /* NULL on ENOMEM: set_root/step report it */
        m->root = hs__mcts_node_new(m, true, hs__mcts_graph_key(&m->root_board, 0));
}

/* ------------------------------------------------------------------ */
/* The root                                                            */

static int s_check_pos(const hs_nn_pos_t *pos, hs_error_t *err)
{
    if (!pos || !pos->board)
        return hs_error_set(err, HS_EINVAL, "mcts: no position");
    if (pos->board->size < 2 || pos->board->size > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "mcts: board size %d outside 2..%d",
                            pos->board->size, HS_NN_MAX_SIZE);
    if (pos->to_move != HS_BLACK && pos->to_move != HS_WHITE)
        return hs_error_set(err, HS_EINVAL, "mcts: no side to move");
    if (pos->n_hist < 0 || pos->n_hist > HS_NN_HISTORY || (unsigned)pos->rules >= HS_RULES_COUNT)
        return hs_error_set(err, HS_EINVAL, "mcts: bad history or rules");
    return 0;
}

static void s_copy_root(hs_mcts_t *m, const hs_nn_pos_t *pos)
{
    hs_board_copy(&m->root_board, pos->board);
    m->root_nn = *pos;
    m->root_nn.board = &m->root_board;
    m->root_nn.prev1 = m->root_nn.prev2 = NULL;
    if (pos->prev1) {
        hs_board_copy(&m->root_prev[0], pos->prev1);
        m->root_nn.prev1 = &m->root_prev[0];
    }
    if (pos->prev2) {
        hs_board_copy(&m->root_prev[1], pos->prev2);
        m->root_nn.prev2 = &m->root_prev[1];
    }
    m->size = pos->board->size;
    m->area = m->size * m->size;
    m->rules = hs_rules_get(pos->rules);
    m->play_flags = hs_rules_play_flags(&m->rules);
    m->have_root = true;
}

/* Root moves that repeat an earlier position under the rules' superko. */
static void s_mark_banned(hs_mcts_t *m, const hs_history_t *hist)
{
    memset(m->banned, 0, sizeof m->banned);
    m->root_syms = 1;
    if (!hist || m->rules.ko == HS_KO_SIMPLE)
        return;
    hs_board_t b;
    const hs_board_t *root = &m->root_board;
    for (int i = 0; i < root->num_empty; i++) {
        hs_point_t p = root->empty[i];
        hs_board_copy(&b, root);
        if (hs_board_play(&b, m->root_nn.to_move, p, m->play_flags, NULL))
            continue;
        if (hs_history_repeats(hist, &b, &m->rules))
            m->banned[hs_board_y(root, p) * m->size + hs_board_x(root, p)] = HS__MCTS_BAN_SUPERKO;
    }
}

int hs_mcts_set_root(hs_mcts_t *m, const hs_nn_pos_t *pos, const hs_history_t *hist,
                     hs_error_t *err)
{
    int rc = s_check_pos(pos, err);
    if (rc)
        return rc;
    if (m->noised)
        hs__mcts_restore_priors(m);
    int plies = 0;
    hs__mcts_node_t *keep = m->have_root ? hs__mcts_find_reuse(m, pos, &plies) : NULL;
    if (plies > 0 && m->has_filter)
        keep = NULL;   /* its depths were the old root's: the filter's would move */
    /* the same root again reaches every node: nothing to walk or free */
    if (keep != m->root && hs__mcts_table_keep(m, keep))
        keep = NULL;   /* no memory to walk it: a fresh tree */
    bool moved = keep && keep != m->root;
    m->root = keep;
    m->root_ply = keep ? m->root_ply + plies : 0;
    if (moved)
        hs__mcts_own_reroot(m);
    s_copy_root(m, pos);
    if (!m->root)
        m->root = hs__mcts_node_new(m, true, hs__mcts_graph_key(&m->root_board, 0));
    if (!m->root || hs__mcts_give_own(m->root))
        return hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    s_mark_banned(m, hist);
    hs__mcts_filter_mark_root(m);
    m->began = false;
    hs__mcts_set_center(m, NULL);
    return 0;
}

const hs_board_t *hs_mcts_root_board(const hs_mcts_t *m) { return &m->root_board; }
int hs_mcts_root_visits(const hs_mcts_t *m) { return m->root ? m->root->visits : 0; }
long hs_mcts_tree_nodes(const hs_mcts_t *m) { return m->nodes; }

/* ------------------------------------------------------------------ */
/* Budget                                                              */

static bool s_root_selectable(const hs_mcts_t *m)
{
    const hs__mcts_node_t *r = m->root;
    if (!r->expanded)
        return !r->terminal || r->visits == 0;
    if (r->terminal)
        return false;
    for (int i = 0; i < r->num_edges; i++)
        if (!m->banned[r->edges[i].move])
            return true;
    return false;
}

int hs__mcts_visits_left(const hs_mcts_t *m)
{
    const hs_mcts_config_t *c = &m->cfg;
    int left = INT_MAX;
    if (c->max_visits) {
        int v = c->max_visits - (m->root->visits + m->root->vloss);
        left = v < left ? v : left;
    }
    if (c->max_playouts) {
        int p = c->max_playouts - m->playouts;
        left = p < left ? p : left;
    }
    return left > 0 ? left : 0;
}

/* Whether another leaf may start now (in-flight leaves count as spent); a
 * root with nothing backed up into it yet (no ownership average) gets a
 * leaf whatever the budget. */
static bool s_budget_left(const hs_mcts_t *m)
{
    return hs__mcts_visits_left(m) > 0 || m->root->own_count == 0;
}

void hs_mcts_begin(hs_mcts_t *m)
{
    if (m->noised)
        hs__mcts_restore_priors(m);
    m->playouts = 0;
    m->t_begin = hs_clock_now();
    m->began = true;
    hs__mcts_svb_sweep(m);
    hs__mcts_set_center(m, NULL);
    m->rescore = m->root && m->root->visits > 0 &&
                 (m->cfg.dyn_score_utility > 0 || m->cfg.subtree_bias > 0);
    m->reaverage = m->root && m->root->expanded && m->cfg.root_symmetries > 1;
    hs__mcts_filter_mark_root(m);
    hs__mcts_root_mark_symmetric(m);
    if (m->root && m->root->expanded && hs__mcts_adjusts_root(m))
        hs__mcts_adjust_root_priors(m);
}

bool hs_mcts_done(const hs_mcts_t *m)
{
    if (!m->have_root || !m->root)
        return true;
    const hs__mcts_node_t *r = m->root;
    if (r->visits == 0 || r->own_count == 0)
        return !s_root_selectable(m) && r->visits > 0;
    if (!s_root_selectable(m) || !s_budget_left(m))
        return true;
    return m->cfg.max_time > 0 && hs_clock_now() - m->t_begin >= m->cfg.max_time;
}

/* ------------------------------------------------------------------ */
/* Selection                                                           */

/* The parent's value that first-play urgency starts from (its mover's view):
 * with estimates, KataGo's blend of the node's own evaluation and its
 * average, the average's weight the square of the visited children's prior
 * mass, since the average says little while it covers few of them. */
static double s_fpu_parent(const hs_mcts_t *m, const hs__mcts_node_t *n, double visited_prior)
{
    if (!m->estimates)
        return hs__mcts_q(n);
    double w = visited_prior * visited_prior;
    w = w < 1 ? w : 1;
    return w * hs__mcts_q(n) + (1 - w) * n->raw_util;
}

static double s_fpu_reduction(const hs_mcts_t *m, bool at_root)
{
    if (!at_root || !m->estimates)
        return m->cfg.fpu_reduction;
    bool noise = m->cfg.noise_alpha > 0 && m->cfg.noise_weight > 0;
    return noise ? 0 : m->cfg.root_fpu_reduction;
}

/* PUCT's scale at n, whose visited children weigh w (visits for rollouts). */
static double s_explore_scale(const hs_mcts_t *m, const hs__mcts_node_t *n, double w)
{
    const hs_mcts_config_t *c = &m->cfg;
    if (!m->estimates) {
        double parent_n = n->visits + n->vloss;
        return c->cpuct * sqrt(parent_n > 1 ? parent_n : 1);
    }
    double cpuct = c->net_cpuct + c->net_cpuct_log * log((w + c->net_cpuct_base) / c->net_cpuct_base);
    return cpuct * hs__mcts_explore_factor(m, n) * sqrt(w + 0.01);
}

/* A child's value and weight as selection sees them through edge e, its
 * leaves in flight included; an unvisited child (e->child may be NULL) is
 * worth fpu. Its value is its own average, its weight the edge's share. */
static void s_child_stats(const hs_mcts_t *m, const hs__mcts_edge_t *e, double fpu, double *q,
                          double *w)
{
    const hs__mcts_node_t *c = e->child;
    if (!m->estimates) {
        int cn = c ? c->visits + c->vloss : 0;   /* a virtual loss counts as a loss */
        *q = cn > 0 ? (c->util_sum - (double)c->vloss) / cn : fpu;
        *w = c ? e->visits + c->vloss : 0;
        return;
    }
    bool seen = c && c->visits > 0;
    *q = seen ? c->util_sum / c->visits : fpu;
    *w = hs__mcts_edge_weight(e);
    if (c && c->vloss > 0) {
        /* KataGo: towards the worst utility there is, the weight of a visit each */
        const hs_mcts_config_t *cf = &m->cfg;
        double worst = -(cf->win_loss_utility + cf->score_utility + cf->dyn_score_utility);
        *q += (worst - *q) * c->vloss / (c->vloss + (*w > 0.25 ? *w : 0.25));
        *w += c->vloss;
    }
}

/* KataGo's wide root noise: a root child's prior flattened and, half of the
 * time, a bonus of wide x |N(0, 1)| to its value, so that analysis spreads
 * its visits over more moves. */
static void s_wide_noise(hs_mcts_t *m, double wide, double *q, double *prior)
{
    *prior = pow(*prior, 1.0 / (4.0 * wide + 1.0));
    if (hs_rng_next(&m->rng) & 1)
        *q += wide * fabs(hs__mcts_normal(&m->rng));
}

/* Whether edge e of the leaf's current node (at L->depth) may not be
 * selected: at the root, banned (superko, symmetry, the filter); below it,
 * the move filter. */
static bool s_skip(const hs_mcts_t *m, const hs__mcts_leaf_t *L, const hs__mcts_edge_t *e)
{
    if (L->depth == 0)
        return m->banned[e->move] != 0;
    return m->has_filter && hs__mcts_filtered(m, L->nn.to_move, e->move, L->depth);
}

/* The edge PUCT picks at n, the leaf's current node (whose side to move is
 * the children's mover), or -1 when none may be picked. Edges are sorted by
 * prior, so among unvisited ones only the first can win (they share the FPU
 * value) unless RAVE gives them values of their own; KataGo also weighs only
 * the unvisited move of the highest prior, wide root noise or not. */
static int s_pick(hs_mcts_t *m, const hs__mcts_node_t *n, const hs__mcts_leaf_t *L)
{
    const bool at_root = L->depth == 0;
    double visited_prior = 0, child_w = 0;
    for (int i = 0; i < n->num_edges; i++) {
        const hs__mcts_node_t *c = n->edges[i].child;
        if (c && c->visits > 0) {
            visited_prior += n->edges[i].prior;
            child_w += hs__mcts_edge_weight(&n->edges[i]);
        }
    }
    double explore = s_explore_scale(m, n, child_w);
    double fpu = -s_fpu_parent(m, n, visited_prior) -
                 s_fpu_reduction(m, at_root) * sqrt(visited_prior);
    int best = -1;
    double best_v = -1e300;
    bool unvisited_seen = false;
    const bool rave = n->has_amaf && m->cfg.rave_equiv > 0;
    const double wide = at_root ? m->cfg.wide_root_noise : 0;
    for (int i = 0; i < n->num_edges; i++) {
        const hs__mcts_edge_t *e = &n->edges[i];
        if (s_skip(m, L, e))
            continue;
        double q, w;
        bool amaf = false;
        s_child_stats(m, e, fpu, &q, &w);
        if (w == 0 && unvisited_seen && !rave)
            continue;
        if (rave)
            q = hs__mcts_rave_q(m, e, (int)w, q, &amaf);
        if (w == 0 && !amaf) {
            if (unvisited_seen)
                continue;
            unvisited_seen = true;
        }
        double prior = e->prior;
        if (wide > 0)
            s_wide_noise(m, wide, &q, &prior);
        double v = q + explore * prior / (1 + w);
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
    return best;
}

static int s_leaf_push(hs__mcts_leaf_t *L, hs__mcts_node_t *n)
{
    if (L->depth + 1 >= L->cap) {
        int cap = L->cap ? 2 * L->cap : 64;
        hs__mcts_node_t **p = realloc(L->path, (size_t)cap * sizeof *p);
        if (p)
            L->path = p;
        uint16_t *mv = realloc(L->moves, (size_t)cap * sizeof *mv);
        if (mv)
            L->moves = mv;
        int16_t *ed = realloc(L->edge, (size_t)cap * sizeof *ed);
        if (ed)
            L->edge = ed;
        if (!p || !mv || !ed)
            return HS_ENOMEM;
        L->cap = cap;
    }
    L->path[++L->depth] = n;
    return 0;
}

/* A ring board that is neither cur nor p1 (one of three always is). */
static hs_board_t *s_ring_free(hs__mcts_leaf_t *L, const hs_board_t *cur, const hs_board_t *p1)
{
    for (int k = 0; k < 3; k++)
        if (&L->ring[k] != cur && &L->ring[k] != p1)
            return &L->ring[k];
    return &L->ring[0];
}

static void s_hist_append(hs_nn_pos_t *nn, hs_color_t c, hs_point_t p)
{
    if (nn->n_hist == HS_NN_HISTORY) {
        memmove(nn->hist_color, nn->hist_color + 1, (HS_NN_HISTORY - 1) * sizeof nn->hist_color[0]);
        memmove(nn->hist_move, nn->hist_move + 1, (HS_NN_HISTORY - 1) * sizeof nn->hist_move[0]);
        nn->n_hist--;
    }
    nn->hist_color[nn->n_hist] = c;
    nn->hist_move[nn->n_hist++] = p;
}

/* Plays edge e's move from the leaf's current board into a free ring board. */
static int s_leaf_play(hs_mcts_t *m, hs__mcts_leaf_t *L, const hs__mcts_edge_t *e)
{
    const hs_board_t *cur = L->nn.board;
    hs_board_t *next = s_ring_free(L, cur, L->nn.prev1);
    hs_board_copy(next, cur);
    hs_color_t c = cur->to_move;
    hs_point_t p = e->move == m->area ? HS_PASS
                                      : hs_board_point(cur, e->move % m->size, e->move / m->size);
    if (hs_board_play(next, c, p, m->play_flags, NULL))
        return HS_EBADSTATE;   /* the evaluator called an illegal move legal */
    L->nn.prev2 = L->nn.prev1;
    L->nn.prev1 = cur;
    L->nn.board = next;
    L->nn.to_move = next->to_move;
    s_hist_append(&L->nn, c, p);
    if (p != HS_PASS) {
        if (c == HS_BLACK)
            L->nn.stones_black++;
        else
            L->nn.stones_white++;
    }
    return 0;
}

/* Gives edge e, just played into the leaf's board, its child: with graph
 * search the node the position already has at that ply, else a new one
 * (with its subtree value bias entry when that is on). */
static int s_new_child(hs_mcts_t *m, const hs__mcts_leaf_t *L, hs__mcts_edge_t *e)
{
    uint64_t key = hs__mcts_graph_key(L->nn.board, m->root_ply + L->depth + 1);
    if (m->cfg.graph_search && m->estimates && (e->child = hs__mcts_table_find(m, key)) != NULL)
        return 0;
    if (!(e->child = hs__mcts_node_new(m, L->depth == 0, key)))
        return HS_ENOMEM;
    if (!hs__mcts_svb_on(m) || e->move == m->area)
        return 0;
    const hs_board_t *b = L->nn.prev1;   /* the board before the move */
    hs_point_t p = hs_board_point(b, e->move % m->size, e->move / m->size);
    return hs__mcts_svb_attach(m, e->child, hs__mcts_svb_key(b, b->to_move, p));
}

/* Walks from the root to a leaf. 1 = a leaf to evaluate or score, 2 = an
 * edge to catch up (hs__mcts_catches_up: path[depth] its parent, edge[depth]
 * its index), 0 = none this time (the leaf is already in flight), < 0 =
 * error. */
static int s_descend(hs_mcts_t *m, hs__mcts_leaf_t *L)
{
    L->depth = -1;
    L->nn = m->root_nn;
    int rc = s_leaf_push(L, m->root);
    hs__mcts_node_t *n = m->root;
    while (!rc && n->expanded && !n->terminal) {
        int i = L->depth == 0 ? hs__mcts_confirm_pick(m) : -1;
        if (i < 0)
            i = s_pick(m, n, L);
        /* Nothing to pick: at the root, every move banned (hs_mcts_done
         * ends the search); below it, every move filtered, and the node is
         * the leaf, evaluated again without expanding, as KataGo's. */
        if (i < 0)
            return L->depth > 0 ? 1 : 0;
        hs__mcts_edge_t *e = &n->edges[i];
        if ((rc = s_leaf_play(m, L, e)) != 0 || (!e->child && (rc = s_new_child(m, L, e)) != 0))
            return rc;
        if (hs__mcts_catches_up(m, e)) {
            L->edge[L->depth] = (int16_t)i;
            return 2;
        }
        if ((rc = s_leaf_push(L, e->child)) == 0) {
            L->moves[L->depth - 1] = e->move;
            L->edge[L->depth - 1] = (int16_t)i;
        }
        n = e->child;
    }
    if (rc)
        return rc;
    if (!n->expanded && !n->terminal && n->vloss > 0)
        return 0;
    /* Passes end the game below the root only: a root whose history ends in
     * two passes is searched on, as KataGo forces its root non-terminal (a
     * position is searched to be played on; a pass from it ends the game). */
    if (L->depth > 0 && L->nn.board->passes >= 2)
        n->terminal = 1;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Steps                                                               */

static int s_reserve_leaves(hs_mcts_t *m, int n)
{
    if (n <= m->cap_leaves)
        return 0;
    hs__mcts_leaf_t *l = realloc(m->leaves, (size_t)n * sizeof *l);
    if (!l)
        return HS_ENOMEM;
    memset(l + m->cap_leaves, 0, (size_t)(n - m->cap_leaves) * sizeof *l);
    m->leaves = l;
    m->cap_leaves = n;
    return 0;
}

/* Selects this step's leaves of m; finished positions are scored and backed
 * up at once, the rest wait in m->leaves[0..n_leaves) with virtual losses. */
static int s_gather(hs_mcts_t *m, hs_mcts_eval_t *scratch)
{
    m->n_leaves = 0;
    if (!m->root)
        return HS_ENOMEM;
    int rc = s_reserve_leaves(m, m->cfg.threads);
    for (int k = 0; !rc && k < m->cfg.threads && s_budget_left(m); k++) {
        hs__mcts_leaf_t *L = &m->leaves[m->n_leaves];
        L->owner = m;
        rc = s_descend(m, L);
        if (rc <= 0)
            break;
        m->playouts++;
        if (rc == 2) {   /* a visit without an evaluation: the slot stays free */
            hs__mcts_catch_up(m, L);
            rc = 0;
            k--;
            continue;
        }
        rc = 0;
        for (int d = 0; d <= L->depth; d++)
            L->path[d]->vloss++;
        if (L->path[L->depth]->terminal) {
            hs__mcts_score_terminal(m, &L->nn, scratch);
            rc = hs__mcts_backup(m, L, scratch);
        } else {
            m->n_leaves++;
        }
    }
    return rc;
}

/* Takes back the virtual losses and playouts of leaves[from..n), which will
 * not be backed up. */
static void s_abandon(hs__mcts_leaf_t **leaves, int from, int n)
{
    for (int j = from; j < n; j++) {
        hs__mcts_undo_vloss(leaves[j]);
        leaves[j]->owner->playouts--;
    }
}

/* Runs leaves[0..total) through ev, max_batch at a time, backing each up. */
static int s_evaluate(hs__mcts_leaf_t **leaves, int total, hs_mcts_evaluator_t *ev,
                      hs_error_t *err)
{
    int batch = ev->max_batch > 0 && ev->max_batch < total ? ev->max_batch : total;
    hs_mcts_eval_t *out = malloc((size_t)batch * sizeof *out);
    hs_nn_pos_t *pos = malloc((size_t)batch * sizeof *pos);
    int rc = out && pos ? 0 : hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    int done = 0;
    while (!rc && done < total) {
        int cnt = total - done < batch ? total - done : batch;
        for (int j = 0; j < cnt; j++) {
            pos[j] = leaves[done + j]->nn;
            out[j].has_amaf = 0;
        }
        rc = ev->eval(ev->ctx, pos, cnt, out, err);
        ev->calls++;
        ev->leaves += cnt;
        for (int j = 0; !rc && j < cnt; j++, done++)
            if (hs__mcts_backup(leaves[done]->owner, leaves[done], &out[j]))
                rc = hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    }
    if (rc)
        s_abandon(leaves, done, total);
    free(out);
    free(pos);
    return rc;
}

/* Root leaves of searches that average the root's symmetries go through
 * eval_avg one at a time (mcts_root.c); the rest stay in leaves[0..*total)
 * for the batch. On an error, every leaf not backed up is abandoned. */
static int s_evaluate_roots(hs__mcts_leaf_t **leaves, int *total, hs_mcts_evaluator_t *ev,
                            hs_error_t *err)
{
    int kept = 0, rc = 0;
    hs_mcts_eval_t *out = NULL;
    for (int j = 0; j < *total; j++) {
        hs__mcts_leaf_t *L = leaves[j];
        if (rc || L->depth > 0 || !hs__mcts_root_wants_avg(L->owner, ev)) {
            leaves[kept++] = L;
            continue;
        }
        if (!out && !(out = malloc(sizeof *out)))
            rc = hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
        if (!rc) {
            out->has_amaf = 0;
            rc = ev->eval_avg(ev->ctx, &L->nn, L->owner->cfg.root_symmetries, out, err);
            ev->calls++;
            ev->leaves++;
        }
        if (!rc && hs__mcts_backup(L->owner, L, out))   /* fails before it takes a visit */
            rc = hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
        if (rc)
            leaves[kept++] = L;
        else
            L->path[0]->sym_avg = 1;
    }
    free(out);
    *total = kept;
    if (rc)
        s_abandon(leaves, 0, kept);
    return rc;
}

int hs_mcts_step_many(hs_mcts_t *const *s, int n, hs_mcts_evaluator_t *ev, hs_error_t *err)
{
    hs_mcts_eval_t *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    int rc = 0, total = 0;
    for (int i = 0; i < n; i++) {
        s[i]->estimates = ev->estimates;
        s[i]->n_leaves = 0;
        if (s[i]->rescore) {
            s[i]->rescore = false;
            hs__mcts_rescore_tree(s[i]);
        }
        if (s[i]->reaverage && !rc) {
            s[i]->reaverage = false;
            rc = hs__mcts_root_reaverage(s[i], ev, err);
        }
        if (rc || hs_mcts_done(s[i]))
            continue;
        rc = s_gather(s[i], scratch);
        total += s[i]->n_leaves;
    }
    free(scratch);
    hs__mcts_leaf_t **leaves = total ? malloc((size_t)total * sizeof *leaves) : NULL;
    if (total && !leaves && !rc)
        rc = HS_ENOMEM;
    for (int i = 0, k = 0; leaves && i < n; i++)
        for (int j = 0; j < s[i]->n_leaves; j++)
            leaves[k++] = &s[i]->leaves[j];
    if (rc) {
        if (leaves)
            s_abandon(leaves, 0, total);
        free(leaves);
        return rc == HS_ENOMEM ? hs_error_set(err, rc, "mcts: out of memory") : rc;
    }
    if (total && ev->eval_avg)
        rc = s_evaluate_roots(leaves, &total, ev, err);
    if (total && !rc)
        rc = s_evaluate(leaves, total, ev, err);
    free(leaves);
    if (rc)
        return rc;
    int running = 0;
    for (int i = 0; i < n; i++)
        running += !hs_mcts_done(s[i]);
    return running;
}

int hs_mcts_search_many(hs_mcts_t *const *s, int n, hs_mcts_evaluator_t *ev, hs_error_t *err)
{
    for (int i = 0; i < n; i++)
        hs_mcts_begin(s[i]);
    int rc;
    while ((rc = hs_mcts_step_many(s, n, ev, err)) > 0)
        ;
    return rc < 0 ? rc : 0;
}

int hs_mcts_search(hs_mcts_t *m, hs_mcts_evaluator_t *ev, hs_error_t *err)
{
    return hs_mcts_search_many(&m, 1, ev, err);
}
