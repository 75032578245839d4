/*
 * worker/mcts_result.c — what a search tells its callers: the result of
 * worker/mcts.h (root averages, per-move statistics, principal variations,
 * ownership, per move where asked), the move to play (most visits,
 * KataGo's lower confidence bound where asked, or by temperature), and what
 * changes the root's priors: KataGo's rootPolicyTemperature and the
 * Dirichlet noise of self-play.
 *
 * Node sums are kept from each node's mover's view (mcts_internal.h); here
 * they turn into Black's view, as the API promises.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/symmetry.h"
#include "worker/mcts_internal.h"

/* Black's view of a value from the view of the player `mover`. */
static double s_black(hs_color_t mover, double v) { return mover == HS_BLACK ? v : -v; }

static double s_spread(double sq_sum, double mean, int visits)
{
    double var = visits > 0 ? sq_sum / visits - mean * mean : 0;
    return var > 0 ? sqrt(var) : 0;
}

static float s_raw_prior(const hs_mcts_t *m, int i)
{
    return m->noised ? m->root_raw_prior[i] : m->root->edges[i].prior;
}

/* Root edge i's prior as the search reads it, less the noise: what a move's
 * reported prior is (the temperature's, as KataGo's moveInfos report it). */
static float s_search_prior(const hs_mcts_t *m, int i)
{
    return m->noised ? m->root_temp_prior[i] : m->root->edges[i].prior;
}

/* Child i of n when its edge has visits and it may be played: at the root
 * (banned given), a move the superko forbids may still hold visits from a
 * kept tree, whose deeper levels checked simple ko only. A move's visits
 * are its edge's: with graph search its child may have more, from the
 * other paths to it, and its averages are over all of them. */
static const hs__mcts_node_t *s_visited(const hs__mcts_node_t *n, int i,
                                        const unsigned char *banned)
{
    const hs__mcts_node_t *c = n->edges[i].child;
    if (!c || c->visits <= 0 || n->edges[i].visits <= 0 || (banned && banned[n->edges[i].move]))
        return NULL;
    return c;
}

/* The most visited child of n (ties: higher utility), or -1; banned: the
 * root's superko bans, NULL below it. */
static int s_most_visited(const hs__mcts_node_t *n, const unsigned char *banned)
{
    int best = -1;
    for (int i = 0; i < n->num_edges; i++) {
        const hs__mcts_node_t *c = s_visited(n, i, banned);
        if (!c)
            continue;
        const hs__mcts_node_t *b = best >= 0 ? n->edges[best].child : NULL;
        int cv = n->edges[i].visits, bv = b ? n->edges[best].visits : 0;
        if (!b || cv > bv || (cv == bv && hs__mcts_q(c) > hs__mcts_q(b)))
            best = i;
    }
    return best;
}

/* KataGo's lcbStdevs where the config leaves the bound out of the move
 * choice (lcb_stdevs 0): the reported bound is there all the same. */
#define S_REPORT_STDEVS 5.0

/* The widest a utility can be from its mean (KataGo's utilityRangeRadius). */
static double s_utility_range(const hs_mcts_t *m)
{
    const hs_mcts_config_t *cf = &m->cfg;
    return cf->win_loss_utility + cf->score_utility + (m->estimates ? cf->dyn_score_utility : 0);
}

/* KataGo's radius of child c's utility bound (getSelfUtilityLCBAndRadius):
 * stdevs standard errors of its utility average, over evaluations that
 * weigh ws in all and wsq in squares (the effective sample size ws^2 / wsq),
 * with a prior of weight ws / ess^3 that the spread is the widest the
 * utility allows, so that a child of few visits is not trusted. */
static double s_radius(const hs_mcts_t *m, const hs__mcts_node_t *c, double ws, double wsq,
                       double stdevs)
{
    double range = s_utility_range(m);
    if (c->visits <= 0 || !(ws > 0) || !(wsq > 0))
        return 2.0 * range * stdevs;
    double u = c->util_sum / c->visits, sq = c->util_sq_sum / c->visits;
    double ess = ws * ws / wsq;
    double prior = ws / (ess * ess * ess);
    if (sq < u * u + 1e-8)
        sq = u * u + 1e-8;
    sq = (sq * ws + (sq + range * range) * prior) / (ws + prior);
    ws += prior;
    wsq += prior * prior;
    ess = ws * ws / wsq;
    return stdevs * sqrt((sq - u * u) / ess);
}

/* The bound of child c's utility (its mover's view, the side choosing at
 * the root), stdevs standard errors below its mean, for the move choice:
 * each visit weighs 1 here (the choice's measures were made so). */
static double s_lcb(const hs_mcts_t *m, const hs__mcts_node_t *c, double stdevs)
{
    return c->util_sum / c->visits - s_radius(m, c, c->visits, c->visits, stdevs);
}

/* The radius of the bound a move reports: its utility's through edge e
 * (its weights as the edge sees them). In win-rate units, as KataGo reports
 * "lcb" (PlayUtils::getHackedLCBForWinrate), the mover's win rate less it,
 * scaled by the win rate's share of the utility and by 1/2 for the win
 * rate's range of 1 against the value's 2: it may lie outside [0, 1]. */
static double s_report_radius(const hs_mcts_t *m, const hs__mcts_edge_t *e)
{
    const hs__mcts_node_t *c = e->child;
    double share = (double)e->visits / c->visits;
    double stdevs = m->cfg.lcb_stdevs > 0 ? m->cfg.lcb_stdevs : S_REPORT_STDEVS;
    return s_radius(m, c, hs__mcts_edge_weight(e), c->weight_sq * share, stdevs);
}

/* Among the root children with at least lcb_min_visit_prop of the most
 * visited one's visits (edge `top`), the one of the best bound at stdevs. */
static int s_lcb_best(const hs_mcts_t *m, int top, double stdevs)
{
    const hs__mcts_node_t *r = m->root;
    double least = m->cfg.lcb_min_visit_prop * r->edges[top].visits;
    double best_lcb = s_lcb(m, r->edges[top].child, stdevs);
    int best = top;
    for (int i = 0; i < r->num_edges; i++) {
        const hs__mcts_node_t *c = s_visited(r, i, m->banned);
        if (!c || r->edges[i].visits < least)
            continue;
        double lcb = s_lcb(m, c, stdevs);
        if (lcb > best_lcb) {
            best_lcb = lcb;
            best = i;
        }
    }
    return best;
}

/* The root edge to play when no child has a visit (a budget of one visit,
 * the root's own, as KataGo's policy-only maxVisits 1; a search cut short by
 * time): the highest prior before noise among the moves the root may search
 * (not the superko's bans nor a symmetry's copies), as KataGo then plays the
 * policy net's move rather than pass; -1 when there is none (a root never
 * expanded, or nothing legal: pass is an edge where it is allowed). */
static int s_top_prior(const hs_mcts_t *m)
{
    const hs__mcts_node_t *r = m->root;
    int best = -1;
    for (int i = 0; r && i < r->num_edges; i++)
        if (!m->banned[r->edges[i].move] && (best < 0 || s_raw_prior(m, i) > s_raw_prior(m, best)))
            best = i;
    return best;
}

/* The root child to play without temperature: the most visited, or with
 * lcb_stdevs > 0 the best bound among those with enough visits; or -1. */
static int s_best_child(const hs_mcts_t *m)
{
    int top = s_most_visited(m->root, m->banned);
    if (top < 0 || !(m->cfg.lcb_stdevs > 0))
        return top;
    return s_lcb_best(m, top, m->cfg.lcb_stdevs);
}

int hs__mcts_confirm_pick(const hs_mcts_t *m)
{
    if (!(m->cfg.confirm_stdevs > 0) || !m->root->expanded)
        return -1;
    int top = s_most_visited(m->root, m->banned);
    int left = top >= 0 ? hs__mcts_visits_left(m) : 0;
    if (left <= 0 || left == INT_MAX)
        return -1;
    int best = s_lcb_best(m, top, m->cfg.confirm_stdevs);
    const hs__mcts_edge_t *b = &m->root->edges[best];
    if (best == top || b->visits + b->child->vloss + left <= m->root->edges[top].visits)
        return -1;
    return best;
}

static void s_pv(const hs__mcts_edge_t *e, hs_mcts_move_info_t *mi)
{
    const hs__mcts_node_t *n = e->child;
    mi->pv_len = 0;
    for (;;) {
        mi->pv[mi->pv_len] = e->move;
        mi->pv_visits[mi->pv_len] = n->visits;
        mi->pv_edge_visits[mi->pv_len++] = e->visits;
        int i = mi->pv_len < HS_MCTS_PV_MAX && n->expanded ? s_most_visited(n, NULL) : -1;
        if (i < 0)
            break;
        e = &n->edges[i];
        n = e->child;
    }
}

static void s_move_info(const hs_mcts_t *m, int i, hs_mcts_move_info_t *mi)
{
    const hs__mcts_edge_t *e = &m->root->edges[i];
    const hs__mcts_node_t *c = e->child;
    hs_color_t mover = m->root_nn.to_move;
    double v = c->value_sum / c->visits, score = c->score_sum / c->visits;
    double final = c->score_mean_sum / c->visits;
    double w = (1 + v) / 2;
    mi->move = e->move;
    mi->visits = e->visits;
    mi->child_visits = c->visits;
    mi->winrate = (float)((1 + s_black(mover, v)) / 2);
    mi->score_lead = (float)s_black(mover, score);
    mi->score_selfplay = (float)s_black(mover, final);
    mi->score_stdev = (float)s_spread(c->score_sq_sum, final, c->visits);
    mi->prior = s_search_prior(m, i);
    mi->utility = (float)hs__mcts_q(c);
    double radius = s_report_radius(m, e);
    /* KataGo's radiusScaleHackFactor: the win rate's share of the range */
    mi->lcb = (float)(w - 0.5 * radius * m->cfg.win_loss_utility / (s_utility_range(m) + 1e-20));
    mi->utility_lcb = (float)(mi->utility - radius);
    mi->weight = c->weight;
    mi->edge_weight = hs__mcts_edge_weight(e);
    mi->play_selection = e->visits;
    mi->sym_of = -1;
    mi->sym = 0;
    mi->own_count = c->own ? c->own_count : 0;
    s_pv(e, mi);
}

static int s_cmp_info(const void *a, const void *b)
{
    const hs_mcts_move_info_t *x = a, *y = b;
    if (x->visits != y->visits)
        return x->visits > y->visits ? -1 : 1;
    if (x->utility != y->utility)
        return x->utility > y->utility ? -1 : 1;
    return x->move - y->move;
}

static void s_root_stats(const hs_mcts_t *m, hs_mcts_result_t *out)
{
    const hs__mcts_node_t *r = m->root;
    hs_color_t mover = hs_color_other(m->root_nn.to_move);
    out->visits = r->visits;
    if (r->visits > 0) {
        double v = r->value_sum / r->visits, score = r->score_sum / r->visits;
        double final = r->score_mean_sum / r->visits;
        out->winrate = (float)((1 + s_black(mover, v)) / 2);
        out->score_lead = (float)s_black(mover, score);
        out->score_selfplay = (float)s_black(mover, final);
        out->score_stdev = (float)s_spread(r->score_sq_sum, final, r->visits);
        out->utility = (float)-hs__mcts_q(r);
        out->raw_winrate = (float)((1 + s_black(mover, r->raw_value)) / 2);
        out->raw_score = (float)s_black(mover, r->raw_score);
        out->raw_score_selfplay = (float)s_black(mover, r->raw_score_mean);
        double var = r->raw_score_sq - (double)r->raw_score_mean * r->raw_score_mean;
        out->raw_score_selfplay_stdev = (float)(var > 0 ? sqrt(var) : 0);
        out->weight = r->weight;
    }
    for (int v = 0; v < m->area; v++) {
        double mean = r->own_count ? r->own[v] / r->own_count : 0;
        out->ownership[v] = (float)mean;
        out->ownership_stdev[v] =
            (float)s_spread(r->own[HS_MCTS_MAX_AREA + v], mean, r->own_count);
    }
}

/* With the bound on, the move it picks goes first; the rest keep their order. */
static void s_lcb_first(const hs_mcts_t *m, hs_mcts_result_t *out)
{
    int best = m->cfg.lcb_stdevs > 0 ? s_best_child(m) : -1;
    if (best < 0)
        return;
    int move = m->root->edges[best].move;
    for (int k = 1; k < out->num_moves; k++)
        if (out->moves[k].move == move) {
            hs_mcts_move_info_t first = out->moves[k];
            memmove(&out->moves[1], &out->moves[0], (size_t)k * sizeof out->moves[0]);
            out->moves[0] = first;
            break;
        }
}

/* KataGo's playSelectionValue (Search::getPlaySelectionValues) as our move
 * choice has it: each move's visits; with the bound on, its pick raised so
 * that it outranks every move whose bound it beats, by KataGo's factor
 * ((radius + margin) / (radius + margin / 5))^2 on that move's visits; then
 * values under 1 (or under 1/64 of the largest) are 0, and the largest is
 * scaled up to 1 where it is less. KataGo also cuts the visits a move got
 * only by exploration before this; our choice counts visits as they are. */
static void s_play_selection(const hs_mcts_t *m, hs_mcts_result_t *out)
{
    const hs__mcts_node_t *r = m->root;
    int best = m->cfg.lcb_stdevs > 0 ? s_best_child(m) : -1;
    if (best >= 0 && best != s_most_visited(r, m->banned)) {
        double stdevs = m->cfg.lcb_stdevs;
        double best_lcb = s_lcb(m, r->edges[best].child, stdevs);
        double raised = r->edges[best].visits;
        for (int i = 0; i < r->num_edges; i++) {
            const hs__mcts_node_t *c = s_visited(r, i, m->banned);
            double margin = c && i != best ? best_lcb - s_lcb(m, c, stdevs) : -1;
            if (margin < 0)
                continue;
            double radius = s_radius(m, c, c->visits, c->visits, stdevs);
            double f = (radius + margin) / (radius + 0.2 * margin);
            if (f * f * r->edges[i].visits > raised)
                raised = f * f * r->edges[i].visits;
        }
        for (int k = 0; k < out->num_moves; k++)
            if (out->moves[k].move == r->edges[best].move)
                out->moves[k].play_selection = raised;
    }
    double top = 0;
    for (int k = 0; k < out->num_moves; k++)
        top = fmax(top, out->moves[k].play_selection);
    if (!(top > 0))
        return;
    double prune = fmin(1.0, top / 64);
    for (int k = 0; k < out->num_moves; k++) {
        double *ps = &out->moves[k].play_selection;
        *ps = *ps < prune ? 0 : top < 1 ? *ps / top : *ps;
    }
}

/* A move (vertex or pass) under symmetry s of an n x n board. */
static int s_sym_move(int n, int s, int move)
{
    if (move >= n * n)
        return move;
    int x, y;
    hs_sym_apply(n, s, move % n, move / n, &x, &y);
    return y * n + x;
}

/* The copies of info k under the root's symmetries, k's own first, into
 * dst[0..) (each move once: done marks the moves listed; none that the move
 * filter forbids, as KataGo's); their count. */
static int s_sym_copies(const hs_mcts_t *m, const hs_mcts_move_info_t *k,
                        hs_mcts_move_info_t *dst, unsigned char *done)
{
    int count = 0;
    for (int s = 0; s < HS_SYM_COUNT; s++) {
        if (!(m->root_syms >> s & 1))
            continue;
        int move = s_sym_move(m->size, s, k->move);
        if (done[move] || hs__mcts_filtered(m, m->root_nn.to_move, move, 0))
            continue;
        done[move] = 1;
        hs_mcts_move_info_t *c = &dst[count++];
        *c = *k;
        c->move = move;
        c->sym_of = s ? k->move : -1;
        c->sym = s;
        for (int j = 0; j < c->pv_len; j++)
            c->pv[j] = s_sym_move(m->size, s, k->pv[j]);
    }
    return count;
}

/* With root symmetry pruning on a symmetric root, each move searched is
 * followed by the moves it stands for, as KataGo lists them. The list only
 * grows, so it is rebuilt from its end: copies of entry k land at or after k. */
static void s_add_symmetric(const hs_mcts_t *m, hs_mcts_result_t *out)
{
    if (m->root_syms <= 1 || out->num_moves == 0)
        return;
    unsigned char done[HS_MCTS_MAX_MOVES] = { 0 };
    int total = 0, count[HS_MCTS_MAX_MOVES];
    hs_mcts_move_info_t scratch[HS_SYM_COUNT];
    for (int k = 0; k < out->num_moves; k++)
        total += count[k] = s_sym_copies(m, &out->moves[k], scratch, done);
    memset(done, 0, sizeof done);
    int end = total;
    for (int k = out->num_moves - 1; k >= 0; k--) {
        hs_mcts_move_info_t self = out->moves[k];
        end -= count[k];
        s_sym_copies(m, &self, &out->moves[end], done);
    }
    out->num_moves = total;
}

void hs_mcts_get_result(const hs_mcts_t *m, hs_mcts_result_t *out)
{
    out->size = m->size;
    out->to_move = m->root_nn.to_move;
    out->visits = out->playouts = out->pv_len = out->num_moves = 0;
    out->winrate = 0.5f;
    out->score_lead = out->score_selfplay = out->score_stdev = out->utility = out->raw_score = 0;
    out->raw_score_selfplay = out->raw_score_selfplay_stdev = 0;
    out->weight = 0;
    out->raw_winrate = 0.5f;
    out->best_move = -1;
    out->seconds = m->began ? hs_clock_now() - m->t_begin : 0;
    out->playouts = m->playouts;
    for (int v = 0; v <= m->area; v++)
        out->policy[v] = -1;
    if (!m->root)
        return;
    s_root_stats(m, out);
    const hs__mcts_node_t *r = m->root;
    for (int i = 0; i < r->num_edges; i++) {
        out->policy[r->edges[i].move] = s_raw_prior(m, i);
        if (s_visited(r, i, m->banned))
            s_move_info(m, i, &out->moves[out->num_moves++]);
    }
    qsort(out->moves, (size_t)out->num_moves, sizeof out->moves[0], s_cmp_info);
    s_lcb_first(m, out);
    s_play_selection(m, out);
    s_add_symmetric(m, out);
    for (int k = 0; k < out->num_moves; k++)
        out->moves[k].order = k;
    if (out->num_moves > 0) {
        out->best_move = out->moves[0].move;
        out->pv_len = out->moves[0].pv_len;
        memcpy(out->pv, out->moves[0].pv, sizeof out->pv);
    } else if (s_top_prior(m) >= 0) {
        /* the move hs_mcts_choose_move plays, so that the engines that read
         * the best move from here (analyze, self-play) agree with genmove */
        out->best_move = out->pv[0] = r->edges[s_top_prior(m)].move;
        out->pv_len = 1;
    }
}

/* The root child that move info mi stands for (its own, or the one it
 * copies), or NULL. */
static const hs__mcts_node_t *s_info_node(const hs_mcts_t *m, const hs_mcts_move_info_t *mi)
{
    int move = mi->sym_of >= 0 ? mi->sym_of : mi->move;
    const hs__mcts_node_t *r = m->root;
    for (int i = 0; r && i < r->num_edges; i++)
        if (r->edges[i].move == move)
            return r->edges[i].child;
    return NULL;
}

int hs_mcts_move_ownership(const hs_mcts_t *m, const hs_mcts_move_info_t *mi, float *own,
                           float *own_stdev)
{
    const hs__mcts_node_t *c = mi->own_count > 0 ? s_info_node(m, mi) : NULL;
    if (!c || !c->own || c->own_count <= 0)
        return 0;
    /* a copy's point sym(v) holds what the move searched holds at v */
    for (int v = 0; v < m->area; v++) {
        int to = s_sym_move(m->size, mi->sym, v);
        double mean = c->own[v] / c->own_count;
        if (own)
            own[to] = (float)mean;
        if (own_stdev)
            own_stdev[to] = (float)s_spread(c->own[HS_MCTS_MAX_AREA + v], mean, c->own_count);
    }
    return c->own_count;
}

int hs_mcts_choose_move(hs_mcts_t *m)
{
    const hs__mcts_node_t *r = m->root;
    int best = r ? s_most_visited(r, m->banned) : -1;
    if (best < 0) {
        int top = s_top_prior(m);
        return top >= 0 ? r->edges[top].move : HS_MCTS_PASS(m->size);
    }
    if (!(m->cfg.temperature > 0))
        return r->edges[s_best_child(m)].move;
    double total = 0, inv_t = 1.0 / m->cfg.temperature;
    double max_v = r->edges[best].visits;
    for (int i = 0; i < r->num_edges; i++)
        if (s_visited(r, i, m->banned))
            total += pow(r->edges[i].visits / max_v, inv_t);
    double x = hs_rng_double(&m->rng) * total;
    for (int i = 0; i < r->num_edges; i++) {
        if (!s_visited(r, i, m->banned))
            continue;
        x -= pow(r->edges[i].visits / max_v, inv_t);
        if (x < 0)
            return r->edges[i].move;
    }
    return r->edges[best].move;
}

/* ------------------------------------------------------------------ */
/* Dirichlet noise                                                     */

double hs__mcts_normal(hs_rng_t *rng)
{
    double u1 = 1.0 - hs_rng_double(rng), u2 = hs_rng_double(rng);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Marsaglia and Tsang's gamma variate; alpha < 1 by boosting to alpha + 1. */
static double s_gamma(hs_rng_t *rng, double alpha)
{
    if (alpha < 1) {
        double u = hs_rng_double(rng);
        return s_gamma(rng, alpha + 1) * pow(u > 0 ? u : 1e-300, 1.0 / alpha);
    }
    double d = alpha - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = hs__mcts_normal(rng), v = 1 + c * x;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = hs_rng_double(rng);
        if (u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)))
            return d * v;
    }
}

/* KataGo's rootPolicyTemperature: each positive prior p to p^(1/T),
 * computed from the largest down (exp((ln p - ln max) / T), so that no power
 * underflows at a small T), then renormalised. A monotone map: the edges
 * stay in prior order. */
static void s_temper(hs__mcts_node_t *r, double temperature)
{
    double top = 0, sum = 0, inv = 1.0 / temperature;
    for (int i = 0; i < r->num_edges; i++)
        top = fmax(top, r->edges[i].prior);
    if (!(top > 0))
        return;
    double log_top = log(top);
    for (int i = 0; i < r->num_edges; i++) {
        float *p = &r->edges[i].prior;
        if (*p > 0) {
            *p = (float)exp((log(*p) - log_top) * inv);
            sum += *p;
        }
    }
    for (int i = 0; i < r->num_edges; i++)
        r->edges[i].prior = (float)(r->edges[i].prior / sum);
}

static void s_noise(hs_mcts_t *m)
{
    hs__mcts_node_t *r = m->root;
    double g[HS_MCTS_MAX_MOVES], sum = 0;
    for (int i = 0; i < r->num_edges; i++) {
        g[i] = m->banned[r->edges[i].move] ? 0 : s_gamma(&m->rng, m->cfg.noise_alpha);
        sum += g[i];
    }
    double w = m->cfg.noise_weight;
    for (int i = 0; i < r->num_edges && sum > 0; i++)
        r->edges[i].prior = (float)((1 - w) * r->edges[i].prior + w * g[i] / sum);
}

void hs__mcts_adjust_root_priors(hs_mcts_t *m)
{
    hs__mcts_node_t *r = m->root;
    if (m->noised || !r->expanded || r->num_edges == 0)
        return;
    for (int i = 0; i < r->num_edges; i++)
        m->root_raw_prior[i] = r->edges[i].prior;
    if (m->cfg.root_policy_temperature != 1.0)
        s_temper(r, m->cfg.root_policy_temperature);
    for (int i = 0; i < r->num_edges; i++)
        m->root_temp_prior[i] = r->edges[i].prior;
    if (m->cfg.noise_alpha > 0 && m->cfg.noise_weight > 0)
        s_noise(m);
    m->noised = true;
}

void hs__mcts_restore_priors(hs_mcts_t *m)
{
    hs__mcts_node_t *r = m->root;
    for (int i = 0; r && i < r->num_edges; i++)
        r->edges[i].prior = m->root_raw_prior[i];
    m->noised = false;
}
