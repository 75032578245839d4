/*
 * worker/mcts_eval_net.c — the net as the search's leaf evaluator
 * (worker/mcts_eval.h): each leaf at the symmetry its board key and the seed
 * pick, then hs_nn_output_t (White's view) turned into hs_mcts_eval_t (the
 * side to move's view).
 *
 * Batching: the whole call goes through one hs_nn_evaluate_syms, each leaf
 * at its own symmetry, so a call of n leaves is one backend batch of n (it
 * was up to eight smaller ones when each symmetry needed a call of its own).
 * A root may instead be averaged over several symmetries (s_eval_avg, the
 * search's root_symmetries).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "worker/mcts_eval.h"
#include "worker/mcts_eval_internal.h"

typedef struct s_net {
    hs_nn_evaluator_t *nn;       /* borrowed */
    uint64_t seed;
    int fixed_sym;               /* 0..7, or -1: drawn per leaf */
    int max_batch;
    unsigned char *sym;          /* [max_batch] each leaf's symmetry */
    hs_nn_output_t *out;         /* [max_batch] the net's outputs */
} s_net_t;

static void s_destroy(void *ctx)
{
    s_net_t *s = ctx;
    free(s->sym);
    free(s->out);
    free(s);
}

static double s_helper_cpu(void *ctx)
{
    return hs_nn_evaluator_helper_cpu(((s_net_t *)ctx)->nn);
}

/* The net's output (White's view) as the search wants it (to_move's view). */
static void s_convert(const hs_nn_output_t *o, hs_color_t to_move, hs_mcts_eval_t *e)
{
    const int n = o->n, area = n * n;
    const float sign = to_move == HS_WHITE ? 1.0f : -1.0f;
    /* no_result is neither a win nor a loss: it counts 0, as in KataGo. */
    e->value = sign * (o->white_win - o->white_loss);
    e->score = sign * o->white_lead;
    e->score_mean = sign * o->white_score_selfplay;
    /* The variance is the same from both sides; clamp the rounding below 0. */
    float var = o->white_score_selfplay_sq - o->white_score_selfplay * o->white_score_selfplay;
    e->score_stdev = var > 0.0f ? sqrtf(var) : 0.0f;
    memcpy(e->policy, o->policy, (size_t)(area + 1) * sizeof *e->policy);
    for (int i = area + 1; i < HS_MCTS_MAX_MOVES; i++)
        e->policy[i] = -1.0f;
    for (int i = 0; i < area; i++)
        e->ownership[i] = sign * o->ownership[i];
    for (int i = area; i < HS_MCTS_MAX_AREA; i++)
        e->ownership[i] = 0.0f;
}

static int s_eval(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out, hs_error_t *err)
{
    s_net_t *s = ctx;
    if (n < 0 || n > s->max_batch)
        return hs_error_set(err, HS_EINVAL, "net evaluator: %d leaves (at most %d a call)", n,
                            s->max_batch);
    for (int i = 0; i < n; i++)
        s->sym[i] = s->fixed_sym >= 0
                        ? (unsigned char)s->fixed_sym
                        : (unsigned char)(hs__mcts_mix(s->seed, hs__mcts_leaf_key(&pos[i])) & 7);
    int rc = hs_nn_evaluate_syms(s->nn, pos, n, s->sym, s->out, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++)
        s_convert(&s->out[i], pos[i].to_move, &out[i]);
    return 0;
}

/* The root at syms symmetries: the first syms of a shuffle of the eight that
 * the seed and the position draw (KataGo samples without replacement), so
 * that the same root is averaged the same way again. */
static int s_eval_avg(void *ctx, const hs_nn_pos_t *pos, int syms, hs_mcts_eval_t *out,
                      hs_error_t *err)
{
    s_net_t *s = ctx;
    if (syms < 1 || syms > 8)
        return hs_error_set(err, HS_EINVAL, "net evaluator: %d root symmetries (1-8)", syms);
    unsigned char order[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    hs_rng_t rng;
    hs_rng_seed(&rng, hs__mcts_mix(s->seed ^ 0x726f6f74u, hs__mcts_leaf_key(pos)));
    for (int i = 7; i > 0; i--) {
        int j = (int)hs_rng_below(&rng, (uint32_t)i + 1);
        unsigned char t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    int rc = hs_nn_evaluate_avg(s->nn, pos, order, syms, &s->out[0], err);
    if (!rc)
        s_convert(&s->out[0], pos->to_move, out);
    return rc;
}

int hs_mcts_net_evaluator_create(hs_nn_evaluator_t *nn, uint64_t seed, hs_mcts_evaluator_t *out,
                                 hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (!nn)
        return hs_error_set(err, HS_EINVAL, "net evaluator: no net");
    int mb = hs_nn_backend_max_batch(hs_nn_evaluator_backend(nn));
    s_net_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "net evaluator: out of memory");
    s->nn = nn;
    s->seed = seed;
    s->fixed_sym = -1;
    s->max_batch = mb > 0 ? mb : 1;
    s->sym = malloc((size_t)s->max_batch);
    s->out = malloc((size_t)s->max_batch * sizeof *s->out);
    if (!s->sym || !s->out) {
        s_destroy(s);
        return hs_error_set(err, HS_ENOMEM, "net evaluator: out of memory for a batch of %d",
                            mb > 0 ? mb : 1);
    }
    out->eval = s_eval;
    out->ctx = s;
    out->max_batch = s->max_batch;
    out->name = "net";
    out->estimates = true;
    out->eval_avg = s_eval_avg;
    out->destroy = s_destroy;
    out->helper_cpu = s_helper_cpu;
    return 0;
}

int hs_mcts_net_evaluator_fix_symmetry(hs_mcts_evaluator_t *ev, int sym, hs_error_t *err)
{
    if (!ev || ev->eval != s_eval)
        return hs_error_set(err, HS_EINVAL, "fixing the symmetry: not a net evaluator");
    if (sym < -1 || sym > 7)
        return hs_error_set(err, HS_EINVAL, "fixing the symmetry: %d is not -1..7", sym);
    ((s_net_t *)ev->ctx)->fixed_sym = sym;
    return 0;
}
