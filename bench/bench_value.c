/*
 * bench/bench_value.c — value quality in the middle game: on counted pro
 * games, each method's view of the position after moves 100, 150 and 200,
 * for bench/value_quality.sh to set against the recorded winner (with GNU
 * Go's estimate_score, which the script asks for, and the table).
 *
 * usage: bench_value --net FILE [--backend B] [--visits V] [--threads T]
 *                    [--games N] [--moves M,M,..] [--with-fox] [--sgf-dir DIR]
 *                    ARCHIVE...
 *
 * Games: bench_judge_net.c's filter (counted RE "B+n"/"W+n", n > 0; no
 * sgf-edge; replayable; RU missing and KM 7.5 read as Chinese), Fox records
 * only with --with-fox and then only those whose KM is a Fox komi code
 * (KM[0] is not trusted, shared/data/SOURCES.md). The first N such games in
 * archive order (ingest calls back in file order, so the same N every run).
 *
 * Methods, per position (each game's positions after the --moves it reaches):
 *   mcts   the tree search (worker/mcts.h) with the net evaluator, V root
 *          visits (default 100), T leaves per step; a game's positions are
 *          searched together (hs_mcts_search_many), analysis defaults;
 *   net    the raw net at symmetry 0: Black's win probability
 *          white_loss + no_result / 2, and Black's lead;
 *   judge  the static judge as the `judge` engine runs it (worker/engine.h:
 *          stability from the reader, then the mid-game configuration), its
 *          score: Black's lead with komi.
 * Output (stdout): a header line, then one tab-separated row per position:
 *   sgf  half  move  area  recorded  judge  net_p  net_lead  mcts_p  mcts_lead
 * sgf: the game written to --sgf-dir as NNNN.sgf (for GNU Go's loadsgf), half
 * = game id bit 0 (the script fits score scales on one half and tests on the
 * other), area = 1 under area scoring, recorded = Black's recorded margin.
 * Timings go to stderr.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/game.h"
#include "game_sgf.h"
#include "ingest/ingest.h"
#include "worker/engine.h"
#include "worker/mcts.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"

#define MAX_MOVES 8

typedef struct ctx {
    hs_nn_evaluator_t *nn;
    hs_mcts_evaluator_t ev;
    hs_mcts_t *search[MAX_MOVES];
    hs_mcts_result_t *res;
    hs_engine_t judge;
    hs_engine_result_t *jres;
    int visits, threads, games, moves[MAX_MOVES], n_moves;
    bool with_fox;
    const char *sgf_dir;
    int taken, rows, failed;
    double t_mcts, t_net, t_judge;
    hs_error_t err;
} ctx_t;

/* The game as plain SGF for GNU Go: size, komi, handicap, rules, setup, moves. */
static int s_write_sgf(const char *path, const hs_game_t *g)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = hs_bench_write_game_sgf(f, g);
    return fclose(f) || rc ? -1 : 0;
}

static bool s_eligible(const ctx_t *c, const char *source, const hs_game_t *g)
{
    if (g->result.kind != HS_RESULT_POINTS || g->result.margin <= 0 ||
        (g->result.winner != HS_WINNER_BLACK && g->result.winner != HS_WINNER_WHITE))
        return false;
    if (strstr(source, "sgf-edge"))
        return false;
    if (strstr(source, "fox-") && (!c->with_fox || (g->komi_source != HS_KOMI_FOX_POINTS &&
                                                    g->komi_source != HS_KOMI_FOX_ZI)))
        return false;
    hs_board_t b;
    return hs_game_replay(g, -1, &b, NULL) == 0;
}

/* The static judge's and the raw net's view of the position after move. */
static int s_static_and_net(ctx_t *c, const hs_nn_game_pos_t *jp, int move, const hs_game_t *g,
                            double *judge, double *net_p, double *net_lead)
{
    double t0 = hs_clock_now();
    hs_engine_pos_t ep = { .game = g, .board = &jp->board, .move_number = move };
    hs_engine_result_t *r = c->jres;
    r->flags = 0;
    r->num_vertices = 0;
    r->classes[0] = r->result[0] = 0;
    int rc = hs_engine_evaluate(&c->judge, &ep, 1, r, &c->err);
    if (rc)
        return rc;
    if (!(r->flags & HS_ENGINE_HAS_SCORE))
        return hs_error_set(&c->err, HS_EINVAL, "the judge gave no score");
    *judge = r->score;
    double t1 = hs_clock_now();
    hs_nn_output_t out;
    rc = hs_nn_evaluate(c->nn, &jp->nn, 1, 0, &out, &c->err);
    c->t_judge += t1 - t0;
    c->t_net += hs_clock_now() - t1;
    *net_p = out.white_loss + 0.5 * out.no_result;
    *net_lead = -out.white_lead;
    return rc;
}

/* Every position of one game: judge and net one by one, the searches together. */
static int s_game(ctx_t *c, const hs_game_t *g, const hs_rules_t *rules, const char *sgf)
{
    hs_nn_game_pos_t *jp = calloc(MAX_MOVES, sizeof *jp);   /* they point into themselves: not copied */
    double judge[MAX_MOVES], net_p[MAX_MOVES], net_lead[MAX_MOVES];
    int at[MAX_MOVES], n = 0, rc = jp ? 0 : HS_ENOMEM;
    for (int k = 0; !rc && k < c->n_moves; k++) {
        if (g->num_moves < c->moves[k] ||
            hs_nn_game_pos_at(g, c->moves[k], rules->id, g->komi, g->handicap, &jp[n], NULL))
            continue;
        rc = s_static_and_net(c, &jp[n], c->moves[k], g, &judge[n], &net_p[n], &net_lead[n]);
        if (!rc) rc = hs_mcts_set_root(c->search[n], &jp[n].nn, NULL, &c->err);
        at[n++] = c->moves[k];
    }
    double t0 = hs_clock_now();
    if (!rc && n) rc = hs_mcts_search_many(c->search, n, &c->ev, &c->err);
    c->t_mcts += hs_clock_now() - t0;
    double rec = g->result.winner == HS_WINNER_BLACK ? g->result.margin : -g->result.margin;
    for (int i = 0; !rc && i < n; i++) {
        hs_mcts_get_result(c->search[i], c->res);
        printf("%s\t%d\t%d\t%d\t%g\t%.2f\t%.4f\t%.2f\t%.4f\t%.2f\n", sgf, (int)(g->id[0] & 1), at[i],
               rules->scoring == HS_SCORING_AREA, rec, judge[i], net_p[i], net_lead[i], c->res->winrate,
               c->res->score_lead);
        c->rows++;
    }
    free(jp);
    return rc;
}

static int s_on_game(void *vctx, const char *source, int index, hs_game_t *g)
{
    (void)index;
    ctx_t *c = vctx;
    if (c->taken >= c->games)
        return -1;                       /* enough: stop the ingest */
    if (!s_eligible(c, source, g))
        return 0;
    hs_rules_t rules = g->rules;
    if (!g->rules_raw && fabs(g->komi - 7.5) < 1e-9)
        rules = hs_rules_get(HS_RULES_CHINESE);
    char name[32], path[4096];
    snprintf(name, sizeof name, "%04d.sgf", c->taken + 1);
    snprintf(path, sizeof path, "%s/%s", c->sgf_dir, name);
    if (s_write_sgf(path, g)) {
        hs_error_set(&c->err, HS_EIO, "cannot write %s", path);
        c->failed = 1;
        return -1;
    }
    c->taken++;
    if (s_game(c, g, &rules, name)) {
        c->failed = 1;
        return -1;
    }
    fprintf(stderr, "bench_value: game %d/%d (%s)\n", c->taken, c->games, source);
    return 0;
}

static int s_parse_moves(ctx_t *c, const char *s)
{
    c->n_moves = 0;
    for (char *end; *s && c->n_moves < MAX_MOVES; s = *end ? end + 1 : end) {
        long v = strtol(s, &end, 10);
        if (end == s || v < 1) return -1;
        c->moves[c->n_moves++] = (int)v;
    }
    return c->n_moves ? 0 : -1;
}

static int s_options(ctx_t *c, int argc, char **argv, const char **net, const char **backend,
                     const char **paths, int *npaths)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') { if (*npaths < 64) paths[(*npaths)++] = a; continue; }
        if (!strcmp(a, "--with-fox")) { c->with_fox = true; continue; }
        if (i + 1 >= argc) return -1;
        const char *v = argv[++i];
        if (!strcmp(a, "--net")) *net = v;
        else if (!strcmp(a, "--backend")) *backend = v;
        else if (!strcmp(a, "--visits")) c->visits = atoi(v);
        else if (!strcmp(a, "--threads")) c->threads = atoi(v);
        else if (!strcmp(a, "--games")) c->games = atoi(v);
        else if (!strcmp(a, "--sgf-dir")) c->sgf_dir = v;
        else if (!strcmp(a, "--moves")) { if (s_parse_moves(c, v)) return -1; }
        else return -1;
    }
    return *net && *npaths && c->visits > 0 && c->threads > 0 && c->games > 0 ? 0 : -1;
}

/* The net, its evaluator for the search, and one search per move number. */
static int s_setup(ctx_t *c, const char *net, const char *backend, hs_nn_model_t **model)
{
    hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default(), .max_batch = c->threads * c->n_moves };
    int rc = backend ? hs_nn_backend_parse(backend, &bc.kind, &c->err) : 0;
    if (!rc) rc = hs_nn_model_load(net, model, &c->err);
    if (!rc) rc = hs_nn_evaluator_create(*model, &bc, &c->nn, &c->err);
    if (!rc) rc = hs_mcts_net_evaluator_create(c->nn, 1, &c->ev, &c->err);
    hs_mcts_config_t mc;
    hs_mcts_config_default(&mc);
    mc.max_visits = c->visits;
    mc.threads = c->threads;
    for (int k = 0; !rc && k < c->n_moves; k++)
        rc = hs_mcts_create(&mc, &c->search[k], &c->err);
    c->res = malloc(sizeof *c->res);
    c->jres = malloc(sizeof *c->jres);
    if (!rc && (!c->res || !c->jres)) rc = hs_error_set(&c->err, HS_ENOMEM, "out of memory");
    hs_engine_config_t ec = { .gpu = -1 };
    if (!rc) rc = hs_engine_init(&c->judge, "judge", &ec, &c->err);
    if (!rc)
        fprintf(stderr, "bench_value: net %.8s, backend %s, mcts %d visits, %d leaves per step\n",
                (*model)->hash, hs_nn_backend_kind_name(bc.kind), c->visits, c->threads);
    return rc;
}

static void s_teardown(ctx_t *c, hs_nn_model_t **model)
{
    for (int k = 0; k < MAX_MOVES; k++)
        hs_mcts_free(&c->search[k]);
    hs_mcts_evaluator_free(&c->ev);
    hs_nn_evaluator_free(&c->nn);
    hs_nn_model_free(model);
    hs_engine_fini(&c->judge);
    free(c->res);
    free(c->jres);
}

int main(int argc, char **argv)
{
    ctx_t *c = calloc(1, sizeof *c);
    if (!c) return 1;
    *c = (ctx_t){ .visits = 100, .threads = 8, .games = 1000000, .moves = {100, 150, 200},
                  .n_moves = 3, .sgf_dir = "." };
    const char *net = NULL, *backend = NULL, *paths[64];
    int npaths = 0;
    if (s_options(c, argc, argv, &net, &backend, paths, &npaths)) {
        fprintf(stderr, "usage: bench_value --net FILE [--backend B] [--visits V] [--threads T] "
                        "[--games N] [--moves M,M,..] [--with-fox] [--sgf-dir DIR] ARCHIVE...\n");
        free(c);
        return 2;
    }
    hs_nn_model_t *model = NULL;
    int rc = s_setup(c, net, backend, &model);
    if (!rc) {
        printf("sgf\thalf\tmove\tarea\trecorded\tjudge\tnet_p\tnet_lead\tmcts_p\tmcts_lead\n");
        hs_ingest_options_t o;
        hs_ingest_options_init(&o);
        o.on_game = s_on_game;
        o.ctx = c;
        hs_ingest_report_t rep;
        rc = hs_ingest_run(paths, npaths, &o, &rep, &c->err);
        hs_ingest_report_fini(&rep);
        if (rc == HS_ECANCELED && !c->failed) rc = 0;     /* stopped at --games */
        if (c->failed && !rc) rc = -1;
    }
    if (rc)
        fprintf(stderr, "bench_value: %s\n", c->err.msg[0] ? c->err.msg : "failed");
    else
        fprintf(stderr, "bench_value: %d games, %d positions; per position mcts %.3f s, net %.4f s, "
                        "judge %.4f s\n", c->taken, c->rows, c->t_mcts / (c->rows ? c->rows : 1),
                c->t_net / (c->rows ? c->rows : 1), c->t_judge / (c->rows ? c->rows : 1));
    s_teardown(c, &model);
    free(c);
    return rc ? 1 : 0;
}
