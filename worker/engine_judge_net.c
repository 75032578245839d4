/*
 * worker/engine_judge_net.c — the "judge-net" engine: the net judge
 * (worker/judge_net.h) behind the batch interface of engine.h. Spec
 * "judge-net:net=<32 hex>", the content hash of one of the nets the process
 * holds (hs_engine_config_t.nets, found by hs_engine_find_net), so that
 * judgments of different nets never share a name.
 *
 * Per batch: every position's net input (with its history) from the record,
 * one hs_nn_evaluate call over the batch, then the judge per position. A
 * record's last position is judged as finished (hs_judge_net_config_final),
 * earlier ones mid-game (hs_judge_net_config_midgame). Reports the judge's
 * classes and ownership, the net's win rate, and as the score the count by
 * the rules at the last position, the net's own score lead before it (the
 * better mid-game estimate, docs/JUDGE.md).
 *
 * Options: net=<hash> only (HS_ENGINE_OPT_HASH).
 */
#include <stdlib.h>
#include <string.h>

#include "worker/engine.h"
#include "worker/engine_plugins.h"
#include "worker/judge_net.h"
#include "worker/nn/eval.h"

#define S_BATCH 64

typedef struct s_jn {
    hs_nn_evaluator_t *ev;
    hs_nn_game_pos_t *jp;       /* S_BATCH positions (self-referential: not moved) */
    hs_nn_pos_t pos[S_BATCH];
    hs_nn_output_t *out;          /* S_BATCH outputs */
    hs_judge_t judge;
} s_jn_t;

static void s_destroy(void *state)
{
    s_jn_t *s = state;
    if (!s) return;
    hs_nn_evaluator_free(&s->ev);
    free(s->jp);
    free(s->out);
    free(s);
}

static int s_create(const hs_engine_config_t *cfg, void **state, hs_error_t *err)
{
    const hs_nn_model_t *m;
    int rc = hs_engine_find_net(cfg, cfg->options, &m, err);
    if (rc) return rc;
    s_jn_t *s = calloc(1, sizeof *s);
    if (s) {
        s->jp = calloc(S_BATCH, sizeof *s->jp);
        s->out = calloc(S_BATCH, sizeof *s->out);
    }
    if (!s || !s->jp || !s->out) {
        s_destroy(s);
        return hs_error_set(err, HS_ENOMEM, "judge-net: out of memory");
    }
    /* threads as the net engine: the caller (analyze, worker) decides how
     * many engine threads share the cores; 0 = every core */
    hs_nn_backend_config_t bc = { .kind = (hs_nn_backend_kind_t)cfg->net_backend,
                                  .threads = cfg->threads > 0 ? cfg->threads : 0,
                                  .gpu = cfg->gpu < 0 ? 0 : cfg->gpu };
    bc.max_batch = cfg->net_batch > 0 ? cfg->net_batch : hs_nn_backend_default_batch(bc.kind);
    rc = hs_nn_evaluator_create(m, &bc, &s->ev, err);
    if (rc) { s_destroy(s); return rc; }
    *state = s;
    return 0;
}

/* One judged position into its result. */
static int s_fill(s_jn_t *s, const hs_engine_pos_t *p, const hs_nn_output_t *o,
                  hs_engine_result_t *r, hs_error_t *err)
{
    const hs_board_t *b = p->board;
    const hs_game_t *g = p->game;
    hs_judge_config_t cfg;
    const bool last = p->move_number >= g->num_moves;
    if (last) hs_judge_net_config_final(&cfg);
    else hs_judge_net_config_midgame(&cfg);
    int rc = hs_judge_net_compute(b, o, &cfg, &s->judge, err);
    if (rc) return rc;
    hs__engine_judge_maps(&s->judge, b, r);
    /* Mid-game the net's own lead is the better estimate of the result
     * (docs/JUDGE.md: on pro games at moves 100-200 its error is half the
     * count's); at the last position the count by the rules. */
    double score = last ? hs_judge_score(&s->judge, b, &g->rules, g->komi, g->handicap)
                        : hs_judge_net_lead(o);
    r->score = (float)score;
    r->winrate = o->white_loss;     /* Black's win: White's loss */
    hs_judge_result_string(score, r->result);
    r->num_vertices = b->size * b->size;
    r->flags = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_WINRATE | HS_ENGINE_HAS_OWNERSHIP |
               HS_ENGINE_HAS_CLASSES | HS_ENGINE_HAS_RESULT;
    return 0;
}

static int s_eval(void *state, const hs_engine_pos_t *pos, int n, hs_engine_result_t *out,
                  hs_error_t *err)
{
    s_jn_t *s = state;
    for (int at = 0; at < n; at += S_BATCH) {
        int k = n - at < S_BATCH ? n - at : S_BATCH;
        for (int i = 0; i < k; i++) {
            const hs_game_t *g = pos[at + i].game;
            int rc = hs_nn_game_pos_at(g, pos[at + i].move_number, g->rules.id, g->komi,
                                         g->handicap, &s->jp[i], err);
            if (rc) return rc;
            s->pos[i] = s->jp[i].nn;
        }
        int rc = hs_nn_evaluate(s->ev, s->pos, k, 0, s->out, err);
        for (int i = 0; !rc && i < k; i++)
            rc = s_fill(s, &pos[at + i], &s->out[i], &out[at + i], err);
        if (rc) return rc;
    }
    return 0;
}

static double s_helper_cpu(void *state)
{
    return hs_nn_evaluator_helper_cpu(((const s_jn_t *)state)->ev);
}

static const hs_engine_option_t s_options[] = {
    { "net", 0, 0, HS_ENGINE_OPT_HASH },
    { NULL, 0, 0, HS_ENGINE_OPT_INT },
};

const hs_engine_vtable_t hs__engine_judge_net_vt = {
    .name = "judge-net", .revision = 1, .max_batch = S_BATCH, .options = s_options,
    .create = s_create, .destroy = s_destroy, .evaluate = s_eval,
    .helper_cpu = s_helper_cpu,
};
