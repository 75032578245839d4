/*
 * worker/engine_mcts.c — the "mcts" engine: the PUCT tree search
 * (worker/mcts.h) behind the batch interface of engine.h, over the net
 * (spec net=<hash>) or, without a net, over rollouts (worker/mcts_eval.h).
 *
 * Spec: "mcts[:visits=V][,playouts=P][,net=<hash>]". visits (root visits, the
 * reused ones included) defaults to 200 and playouts (rollouts per leaf,
 * only without a net) to 1; a default is left out of the canonical spec
 * (engine.h, hs_engine_vtable_t.defaults), so "mcts:visits=200" and
 * "mcts" are one configuration with one engine id.
 *
 * Lanes. One evaluate(pos, n) runs many searches at once and reuses trees
 * between consecutive moves of a game. The batch (the worker's: tasks of
 * consecutive moves of one game, in order) is cut into L contiguous slices,
 * the lanes; a lane searches its positions in order with one tree
 * (hs_mcts_set_root keeps the subtree when the next position follows by one
 * or two moves), and every lane's leaves go into the same evaluator calls
 * (hs_mcts_step_many). L is the number of runs of consecutive moves in the
 * batch, a long run cut into lanes of S_MIN_RUN positions or more (for
 * reuse), at most the evaluator's batch; with a net and fewer
 * lanes than its batch, each search keeps several leaves in flight (virtual
 * loss), at most one per 16 visits and S_LEAVES_MAX. Trees
 * outlive the call: a lane whose first position follows the last position
 * of a tree of the previous call gets that tree.
 *
 * So a position's result depends on the tree it inherited, that is on how
 * the worker batched the game (as KataGo's analysis of a game depends on
 * whether it reuses the tree). Given the same batch, a fresh instance gives
 * the same results every time: the seeds are fixed and both evaluators are
 * deterministic.
 *
 * Results: Black's win rate, score lead and its spread, the ownership
 * averaged over the tree (int8), a result string from the lead, and the
 * search's own fields (HS_ENGINE_HAS_SEARCH): visits, best move, principal
 * variation, the most visited root moves with their visits, win rate, lead
 * and prior. A record's position after two passes is searched as KataGo
 * searches it (the game goes on from there; revision 7: before, it got the
 * scored count without the search's fields). Boards above HS_NN_MAX_SIZE
 * get no result (flags 0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/engine.h"
#include "worker/engine_plugins.h"
#include "worker/mcts.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"

#define S_LANES_MAX 256   /* the worker's largest batch (HS__BATCH_MAX) */
#define S_MIN_RUN 4       /* positions a lane keeps for reuse, where n allows */
#define S_LEAVES_MAX 8    /* leaves in flight per search with a net */
#define S_ROLLOUT_SEED 0x6d637473u

/* One tree, and the last position it searched (for reuse across calls). */
typedef struct s_tree {
    hs_mcts_t *m;
    uint64_t game[2];
    int move;                   /* -1: none */
    int lane;                   /* the lane using it in this call, -1 = free */
} s_tree_t;

/* One slice of the batch: positions [at, end), searched in order. */
typedef struct s_lane {
    int at, end;
    s_tree_t *tree;
    bool searching;             /* at's search has begun */
} s_lane_t;

typedef struct s_mcts {
    hs_mcts_config_t mc;
    hs_mcts_evaluator_t ev;
    hs_nn_evaluator_t *nn;      /* with a net; ev borrows it */
    s_tree_t trees[S_LANES_MAX];
    int n_trees;
    s_lane_t lanes[S_LANES_MAX];
    hs_mcts_t *active[S_LANES_MAX];
    int active_lane[S_LANES_MAX];
    hs_mcts_result_t res;       /* scratch: large */
} s_mcts_t;

static void s_destroy(void *state)
{
    s_mcts_t *s = state;
    if (!s)
        return;
    for (int i = 0; i < s->n_trees; i++)
        hs_mcts_free(&s->trees[i].m);
    hs_mcts_evaluator_free(&s->ev);   /* before the net it borrows */
    hs_nn_evaluator_free(&s->nn);
    free(s);
}

static long s_opt_long(const char *opts, const char *key, long def)
{
    char v[HS_ENGINE_OPTION_MAX + 1];
    return hs__engine_opt_str(opts, key, v, sizeof v) ? strtol(v, NULL, 10) : def;
}

/* The evaluator: the net named by net= on cfg's backend, else rollouts on
 * cfg->threads threads (one by default: a worker runs an engine per core). */
static int s_evaluator(s_mcts_t *s, const hs_engine_config_t *cfg, hs_error_t *err)
{
    char hash[HS_ENGINE_OPTION_MAX + 1];
    if (!hs__engine_opt_str(cfg->options, "net", hash, sizeof hash)) {
        hs_mcts_rollout_config_t rc;
        hs_mcts_rollout_config_default(&rc);
        rc.playouts = (int)s_opt_long(cfg->options, "playouts", 1);
        rc.threads = cfg->threads > 0 ? cfg->threads : 1;
        rc.max_batch = 16 * rc.threads;
        rc.seed = S_ROLLOUT_SEED;
        return hs_mcts_rollout_evaluator_create(&rc, &s->ev, err);
    }
    if (hs__engine_opt_str(cfg->options, "playouts", hash, sizeof hash))
        return hs_error_set(err, HS_EINVAL, "mcts: playouts= is for rollouts, not with net=");
    const hs_nn_model_t *m = NULL;
    int rc = hs_engine_find_net(cfg, cfg->options, &m, err);
    if (rc < 0)
        return rc;
    hs_nn_backend_config_t bc;
    hs__engine_backend_config(cfg, &bc);
    if ((rc = hs_nn_evaluator_create(m, &bc, &s->nn, err)) < 0)
        return rc;
    return hs_mcts_net_evaluator_create(s->nn, 0, &s->ev, err);
}

static int s_create(const hs_engine_config_t *cfg, void **state, hs_error_t *err)
{
    s_mcts_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    hs_mcts_config_default(&s->mc);
    s->mc.max_visits = (int)s_opt_long(cfg->options, "visits", 200);
    s->mc.seed = 0;
    int rc = s_evaluator(s, cfg, err);
    if (rc < 0) {
        s_destroy(s);
        return rc;
    }
    *state = s;
    return 0;
}

/* ------------------------------------------------------------ the lanes */

/* Whether position p follows the last one tree t searched (same game, one or
 * two moves on): set_root will then keep its subtree. */
static bool s_follows(const s_tree_t *t, const hs_engine_pos_t *p)
{
    return t->move >= 0 && t->game[0] == p->game->id[0] && t->game[1] == p->game->id[1] &&
           p->move_number > t->move && p->move_number <= t->move + 2;
}

/* Gives lane l a tree: with follow, only the one that searched the move
 * before the lane's first position (none: the lane waits for the second
 * pass); without, a free one, created when none is. */
static int s_tree_for(s_mcts_t *s, int l, const hs_engine_pos_t *p, bool follow,
                      hs_error_t *err)
{
    s_tree_t *pick = NULL;
    for (int i = 0; i < s->n_trees && !pick; i++)
        if (s->trees[i].lane < 0 && (!follow || s_follows(&s->trees[i], p)))
            pick = &s->trees[i];
    if (!pick && follow)
        return 0;
    if (!pick) {
        pick = &s->trees[s->n_trees];
        int rc = hs_mcts_create(&s->mc, &pick->m, err);
        if (rc < 0)
            return rc;
        pick->move = -1;
        s->n_trees++;
    }
    pick->lane = l;
    s->lanes[l].tree = pick;
    return 0;
}

/* Cuts pos[0..n) into lanes and gives each a tree; the searches' leaves in
 * flight so that a step fills about one evaluator call. */
static int s_plan(s_mcts_t *s, const hs_engine_pos_t *pos, int n, int *n_lanes,
                  hs_error_t *err)
{
    /* Runs of positions that follow each other (a tree can be kept): as many
     * lanes as runs, long runs cut into pieces of S_MIN_RUN or more, and no
     * more lanes than one evaluator call takes. */
    int runs = 1;
    for (int i = 1; i < n; i++)
        runs += pos[i].game->id[0] != pos[i - 1].game->id[0] ||
                pos[i].game->id[1] != pos[i - 1].game->id[1] ||
                pos[i].move_number <= pos[i - 1].move_number ||
                pos[i].move_number > pos[i - 1].move_number + 2;
    int cap = s->ev.max_batch > 0 ? s->ev.max_batch : 1;
    int lanes = n / S_MIN_RUN > runs ? n / S_MIN_RUN : runs;
    lanes = lanes > cap ? cap : lanes > S_LANES_MAX ? S_LANES_MAX : lanes;
    int leaves = 1;
    if (s->nn) {   /* a net wants full batches; rollouts gain nothing from it */
        /* Virtual loss spreads a search's leaves: at most one in flight per
         * 16 visits, so a small budget is not spent all at the first ply. */
        int most = s->mc.max_visits / 16 < S_LEAVES_MAX ? s->mc.max_visits / 16 : S_LEAVES_MAX;
        leaves = (cap + lanes - 1) / lanes;
        leaves = leaves > most ? most : leaves;
        leaves = leaves < 1 ? 1 : leaves;
    }
    hs_mcts_config_t mc = s->mc;
    mc.threads = leaves;
    for (int i = 0; i < s->n_trees; i++)
        s->trees[i].lane = -1;
    for (int l = 0, at = 0; l < lanes; l++) {
        int len = n / lanes + (l < n % lanes ? 1 : 0);
        s->lanes[l] = (s_lane_t){ .at = at, .end = at + len };
        at += len;
    }
    /* Trees that searched a lane's previous move first, then the rest. */
    for (int pass = 0; pass < 2; pass++)
        for (int l = 0; l < lanes; l++) {
            int rc = s->lanes[l].tree ? 0
                   : s_tree_for(s, l, &pos[s->lanes[l].at], pass == 0, err);
            if (rc < 0)
                return rc;
        }
    for (int l = 0; l < lanes; l++) {
        int rc = hs_mcts_set_config(s->lanes[l].tree->m, &mc, err);
        if (rc < 0)
            return rc;
    }
    *n_lanes = lanes;
    return 0;
}

/* ------------------------------------------------------------ results */

static uint16_t s_vertex(int move, int size)
{
    return move == HS_MCTS_PASS(size) || move < 0 ? HS_GAME_PASS : (uint16_t)move;
}

static void s_result(const hs_mcts_result_t *res, hs_engine_result_t *r)
{
    int size = res->size, nn = size * size;
    r->winrate = res->winrate < 0 ? 0 : res->winrate > 1 ? 1 : res->winrate;
    r->score = res->score_lead;
    r->score_stdev = res->score_stdev;
    for (int v = 0; v < nn; v++) {
        long own = lroundf(100.0f * res->ownership[v]);
        r->ownership[v] = (int8_t)(own < -100 ? -100 : own > 100 ? 100 : own);
    }
    r->num_vertices = nn;
    float lead = res->score_lead;
    if (fabsf(lead) < 0.05f)
        snprintf(r->result, sizeof r->result, "0");
    else
        snprintf(r->result, sizeof r->result, "%c+%.1f", lead > 0 ? 'B' : 'W',
                 (double)fabsf(lead));
    r->flags = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_WINRATE | HS_ENGINE_HAS_OWNERSHIP |
               HS_ENGINE_HAS_RESULT | (r->score_stdev > 0 ? HS_ENGINE_HAS_SPREAD : 0);
    if (res->best_move < 0 || res->visits <= 0)
        return;
    r->visits = res->visits;
    r->best = s_vertex(res->best_move, size);
    r->pv_len = res->pv_len < HS_ENGINE_PV_MAX ? res->pv_len : HS_ENGINE_PV_MAX;
    for (int i = 0; i < r->pv_len; i++)
        r->pv[i] = s_vertex(res->pv[i], size);
    if (r->pv_len < 1) {   /* the PV starts with the best move, always */
        r->pv[0] = r->best;
        r->pv_len = 1;
    }
    r->num_moves = res->num_moves < HS_ENGINE_SEARCH_MOVES ? res->num_moves
                                                          : HS_ENGINE_SEARCH_MOVES;
    for (int i = 0; i < r->num_moves; i++) {
        const hs_mcts_move_info_t *mi = &res->moves[i];
        r->moves[i] = (hs_engine_search_move_t){
            .vertex = s_vertex(mi->move, size), .visits = mi->visits,
            .winrate = mi->winrate, .score = mi->score_lead,
            .prior = mi->prior < 0 ? 0 : mi->prior > 1 ? 1 : mi->prior,
        };
    }
    r->flags |= HS_ENGINE_HAS_SEARCH;
}

/* Moves lane l on: the result of each finished search is written, the next
 * position set as the root (its tree kept where it follows) and begun.
 * Returns whether the lane has a search in progress, or a negative HS_E*. */
static int s_lane_advance(s_mcts_t *s, s_lane_t *ln, const hs_engine_pos_t *pos,
                          hs_engine_result_t *out, hs_error_t *err)
{
    s_tree_t *t = ln->tree;
    for (; ln->at < ln->end; ln->at++, ln->searching = false) {
        const hs_engine_pos_t *p = &pos[ln->at];
        if (!ln->searching) {
            if (p->board->size > HS_NN_MAX_SIZE)
                continue;   /* no result: flags stay 0 */
            hs_nn_pos_t np;
            hs__engine_nn_pos(p, &np);
            int rc = hs_mcts_set_root(t->m, &np, NULL, err);
            if (rc < 0)
                return rc;
            t->game[0] = p->game->id[0];
            t->game[1] = p->game->id[1];
            t->move = p->move_number;
            hs_mcts_begin(t->m);
            ln->searching = true;
        }
        if (!hs_mcts_done(t->m))
            return 1;
        hs_mcts_get_result(t->m, &s->res);
        s_result(&s->res, &out[ln->at]);
    }
    return 0;
}

static int s_evaluate(void *state, const hs_engine_pos_t *pos, int n,
                      hs_engine_result_t *out, hs_error_t *err)
{
    s_mcts_t *s = state;
    int lanes = 0, rc = s_plan(s, pos, n, &lanes, err);
    for (;;) {
        int k = 0;
        for (int l = 0; l < lanes && rc >= 0; l++) {
            rc = s_lane_advance(s, &s->lanes[l], pos, out, err);
            if (rc > 0)
                s->active[k++] = s->lanes[l].tree->m;
        }
        if (rc < 0 || k == 0)
            break;
        rc = hs_mcts_step_many(s->active, k, &s->ev, err);
    }
    return rc < 0 ? rc : 0;
}

/* The options that change results. */
static const hs_engine_option_t s_mcts_options[] = {
    { "visits", 1, 100000, HS_ENGINE_OPT_INT },
    { "playouts", 1, 64, HS_ENGINE_OPT_INT },
    { "net", 0, 0, HS_ENGINE_OPT_HASH },
    { NULL, 0, 0, HS_ENGINE_OPT_INT },
};

/* What a spec without the option means; left out of the canonical spec. */
static const hs_engine_option_default_t s_mcts_defaults[] = {
    { "visits", 200 },
    { "playouts", 1 },
    { NULL, 0 },
};

static double s_helper_cpu(void *state)
{
    return hs_mcts_evaluator_helper_cpu(&((const s_mcts_t *)state)->ev);
}

static void s_eval_counts(void *state, long *calls, long *leaves)
{
    const s_mcts_t *s = state;
    *calls = s->ev.calls;
    *leaves = s->ev.leaves;
}

const hs_engine_vtable_t hs__engine_mcts_vt = {
    .name = "mcts", .revision = 7, .max_batch = S_LANES_MAX, .history = 2,
    .options = s_mcts_options, .defaults = s_mcts_defaults, .create = s_create, .destroy = s_destroy,
    .evaluate = s_evaluate, .helper_cpu = s_helper_cpu, .eval_counts = s_eval_counts,
};
