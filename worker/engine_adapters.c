/*
 * worker/engine_adapters.c — the "influence" and "judge" engines: adapters from
 * worker/influence.h and worker/judge.h to the batch interface of engine.h.
 *
 * Both first compute group stability (worker/stability.h). By default without
 * the tactical reader, which is the expensive part; the option "reader=1"
 * (engine spec "judge:reader=1") turns it on. Stability weights the stones for
 * Park's influence and tells the judge which groups are settled. The worker
 * gives the engines of one thread a shared memo (hs_engine_config_t), so a batch
 * run through both computes each position's stability once.
 *
 * The judge treats a record's last position apart (s_judge_eval): it is the
 * finished position whose score the players counted, so it gets the rules made
 * for finished positions; with playouts when the record ends in two passes.
 *
 * Revisions (engine.h): influence 2 sums Park's exact stone powers and rounds
 * SI once (revision 1 summed powers rounded one by one: other SI maps, IPs and
 * scores). The judge's results never depended on SI, so it stays at 1 and its
 * stored evals stay valid.
 *
 * Conversions: point arrays of those modules are board-indexed; results are
 * vertex-indexed (v = y * size + x). Ownership ×100 into int8.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worker/engine.h"
#include "worker/engine_plugins.h"
#include "worker/influence.h"
#include "worker/judge.h"
#include "worker/stability.h"
#include "worker/tactics.h"

typedef struct s_state {
    hs_reader_t *reader;          /* NULL = no reading */
    int tau;
    hs_stability_memo_t *memo;    /* the thread's, or NULL (borrowed) */
    int final_mc;                 /* judge, a record's last position: 1 playouts, 0 static
                                   * rules, -1 (default) playouts when it ends in two passes */
    hs_stability_t stab;          /* computed here when there is no memo */
    hs_influence_t inf;
    hs_judge_t judge;
} s_state_t;

/* Reads "key=value" from a "k=v,k=v" option string; def when absent. */
static int s_opt_int(const char *opts, const char *key, int def)
{
    if (!opts)
        return def;
    size_t klen = strlen(key);
    for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, key, klen) && p[klen] == '=')
            return atoi(p + klen + 1);
    return def;
}

static int s_create(const hs_engine_config_t *cfg, void **state, hs_error_t *err)
{
    s_state_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    s->tau = s_opt_int(cfg->options, "tau", HS_INFLUENCE_TAU_DEFAULT);
    s->memo = cfg->stability_memo;
    s->final_mc = s_opt_int(cfg->options, "final_mc", -1);
    if (s_opt_int(cfg->options, "reader", 0)) {
        hs_reader_config_t rc;
        hs_reader_config_default(&rc);
        s->reader = hs_reader_new(&rc);
        if (!s->reader) {
            free(s);
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        }
    }
    *state = s;
    return 0;
}

static void s_destroy(void *state)
{
    s_state_t *s = state;
    if (!s)
        return;
    hs_reader_destroy(&s->reader);
    free(s);
}

/* The stability of b's groups: from the thread's memo when another engine has
 * just judged the same position, else computed. *out is valid until the next call. */
static int s_stability(s_state_t *s, const hs_board_t *b, const hs_stability_t **out,
                       hs_error_t *err)
{
    hs_stability_config_t sc;
    hs_stability_config_default(&sc);
    sc.use_reader = s->reader != NULL;
    return hs_stability_memo_compute(s->memo, b, &sc, s->reader, &s->stab, out, err);
}

static int s_influence_eval(void *state, const hs_engine_pos_t *pos, int n,
                            hs_engine_result_t *out, hs_error_t *err)
{
    s_state_t *s = state;
    for (int i = 0; i < n; i++) {
        const hs_board_t *b = pos[i].board;
        hs_engine_result_t *r = &out[i];
        const hs_stability_t *st = NULL;
        int rc = s_stability(s, b, &st, err);
        if (rc == 0)
            rc = hs_influence_compute(b, st->point, s->tau, &s->inf, err);
        if (rc < 0)
            return rc;
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                hs_point_t p = hs_board_point(b, x, y);
                int v = y * b->size + x;
                int own;
                if (b->color[p] == HS_BLACK)
                    own = (int)lroundf(100.0f * st->point[p]);
                else if (b->color[p] == HS_WHITE)
                    own = -(int)lroundf(100.0f * st->point[p]);
                else
                    own = 100 * (s->inf.territory[p] ? s->inf.territory[p] : s->inf.ia[p]);
                r->ownership[v] = (int8_t)own;
                r->influence[v] = s->inf.si[p];
            }
        r->black_points = (float)s->inf.score[HS_BLACK];
        r->white_points = (float)s->inf.score[HS_WHITE];
        r->score = (float)hs_influence_score_diff(&s->inf) - (float)pos[i].game->komi;
        r->num_vertices = b->size * b->size;
        r->flags = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_OWNERSHIP | HS_ENGINE_HAS_INFLUENCE;
    }
    return 0;
}

/* A record whose last two moves are passes was played out: its last position is
 * a finished one, however the players then counted it. */
static bool s_ends_in_passes(const hs_game_t *g)
{
    return g->num_moves >= 2 && g->moves[g->num_moves - 1].vertex == HS_GAME_PASS &&
           g->moves[g->num_moves - 2].vertex == HS_GAME_PASS;
}

void hs__engine_judge_maps(const struct hs_judge *j, const hs_board_t *b,
                           hs_engine_result_t *r)
{
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            int v = y * b->size + x;
            r->ownership[v] = (int8_t)lroundf(100.0f * j->ownership[p]);
            uint8_t cls = j->cls[p];
            r->classes[v] = cls < HS_JC_COUNT ? hs_judge_class_letters[cls] : '?';
        }
    r->classes[b->size * b->size] = '\0';
}

static int s_judge_eval(void *state, const hs_engine_pos_t *pos, int n,
                        hs_engine_result_t *out, hs_error_t *err)
{
    s_state_t *s = state;
    for (int i = 0; i < n; i++) {
        const hs_board_t *b = pos[i].board;
        const hs_game_t *g = pos[i].game;
        hs_engine_result_t *r = &out[i];
        /* A record's last position is finished: the judge's own eye analysis
         * with the relaxed kill, as `hyeongse judge` (with the stability map its
         * static rules scored 44.1% exact on the archives' final positions,
         * without it 84.0%: bench_judge_final --playouts 0 [--stability]).
         * Earlier positions: the stability map, and no relaxed kill (judge.h: two
         * weak groups in a running fight are unsettled, not one of them dead);
         * their sign agreed with the game's final judgment 30 moves before the end in
         * 64.7% of the pro games, 58.0% without the map (docs/JUDGE.md).
         * A record that ends in two passes gets, at its last position, the
         * Monte-Carlo dead-stone test of `hyeongse judge --final` instead (KGS
         * counted games: 92.6% exact against 83.5%), at 8-15 ms a game: as much as
         * the static rules on ~250 positions. Records that end otherwise (resigned,
         * or cut) keep the static rules: their last position is no finished one.
         * "final_mc=1" forces the test on every record, "final_mc=0" never. */
        bool last = pos[i].move_number >= g->num_moves;
        bool mc = last && (s->final_mc > 0 || (s->final_mc < 0 && s_ends_in_passes(g)));
        hs_judge_config_t cfg;
        if (mc) {
            hs_judge_config_final(&cfg);
        } else {
            hs_judge_config_default(&cfg);
            cfg.relaxed_kill = last;
        }
        int rc = 0;
        const hs_stability_t *stab = NULL;
        if (!last)
            rc = s_stability(s, b, &stab, err);
        if (rc == 0)
            rc = hs_judge_compute(b, stab, &cfg, &s->judge, err);
        if (rc < 0)
            return rc;
        hs__engine_judge_maps(&s->judge, b, r);
        double score = hs_judge_score(&s->judge, b, &g->rules, g->komi, g->handicap);
        r->score = (float)score;
        hs_judge_result_string(score, r->result);
        r->num_vertices = b->size * b->size;
        r->flags = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_OWNERSHIP | HS_ENGINE_HAS_CLASSES |
                   HS_ENGINE_HAS_RESULT;
    }
    return 0;
}

/* The options s_create reads that change each engine's results (the spec's
 * text names its evals, so an option an engine ignores is refused). */
static const hs_engine_option_t s_influence_options[] = {
    { "tau", 0, 10000, HS_ENGINE_OPT_INT },    /* SI x100 threshold of an influence point */
    { "reader", 0, 1, HS_ENGINE_OPT_INT },     /* tactical reading in group stability */
    { NULL, 0, 0, HS_ENGINE_OPT_INT },
};

static const hs_engine_option_t s_judge_options[] = {
    { "reader", 0, 1, HS_ENGINE_OPT_INT },
    /* the MC dead-stone test: 1 always, 0 never, -1 by the record */
    { "final_mc", -1, 1, HS_ENGINE_OPT_INT },
    { NULL, 0, 0, HS_ENGINE_OPT_INT },
};

const hs_engine_vtable_t hs__engine_influence_vt = {
    .name = "influence", .revision = 2, .max_batch = 64, .options = s_influence_options,
    .create = s_create, .destroy = s_destroy, .evaluate = s_influence_eval,
};

const hs_engine_vtable_t hs__engine_judge_vt = {
    .name = "judge", .revision = 1, .max_batch = 64, .options = s_judge_options,
    .create = s_create, .destroy = s_destroy, .evaluate = s_judge_eval,
};
