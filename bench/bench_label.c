/*
 * bench/bench_label.c — what the patent's labels (worker/label.h) cost and
 * how often they agree with the record, on the first games of archives.
 *
 * usage: bench_label [--net FILE [--backend ref|cpu|cuda] [--threads T]]
 *                    [--net-judge] [--visits V] [--games N] [--seed S]
 *                    [--verbose] ARCHIVE...
 *
 * The yose search uses the net (KataGo .bin.gz or .hsn) when --net is given,
 * rollouts (one thread) when not; --net-judge also takes the dead stones
 * from the net judge (hs_label_config_t.nn) instead of the judge with
 * playouts. The first N games of the archives in ingest's order (default
 * 20) are labelled one after the other on this thread; the figures are the
 * wall time and the process CPU time of hs_label_game per game (the CPU
 * time is what counts on a loaded machine; with --threads 1 the net runs on
 * this thread), split by the kind of the record's result (counted, resigned
 * or on time, other), with the OK / MISS / SKIP counts and the mean yose
 * length. --verbose prints one line a game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/game.h"
#include "ingest/ingest.h"
#include "worker/judge.h"
#include "worker/label.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"

enum { K_COUNTED, K_RESIGNED, K_OTHER, K_N };
static const char *const s_kind_name[K_N] = { "counted", "resigned/time", "other" };

typedef struct bench {
    hs_label_config_t cfg;
    int max_games, games, verbose;
    int n[K_N], status[K_N][3];
    double seconds[K_N], cpu[K_N];
    long yose[K_N];
    int failed;
} bench_t;

static int s_kind(const hs_game_t *g)
{
    if (g->result.kind == HS_RESULT_POINTS)
        return K_COUNTED;
    if (g->result.kind == HS_RESULT_RESIGN || g->result.kind == HS_RESULT_TIME)
        return K_RESIGNED;
    return K_OTHER;
}

static double s_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int s_on_game(void *ctx, const char *source, int index, hs_game_t *g)
{
    bench_t *b = ctx;
    if (b->games >= b->max_games)
        return 1;
    b->games++;
    hs_label_t *l = malloc(sizeof *l);
    hs_error_t err = {0};
    double t0 = hs_clock_now(), c0 = s_cpu();
    int rc = l ? hs_label_game(&b->cfg, g, l, &err) : HS_ENOMEM;
    double dt = hs_clock_now() - t0, dc = s_cpu() - c0;
    if (rc) {
        fprintf(stderr, "bench_label: %s #%d: %s\n", source, index, err.msg);
        b->failed = 1;
        free(l);
        return 1;
    }
    int k = s_kind(g);
    b->n[k]++;
    b->status[k][l->status]++;
    b->seconds[k] += dt;
    b->cpu[k] += dc;
    b->yose[k] += l->yose_moves;
    if (b->verbose) {
        char lab[16];
        printf("%s #%d: %d moves, RE %s, %s, yose %d, labelled %s, %.0f ms (%.0f ms CPU)%s%s\n", source, index,
               g->num_moves, g->result_raw ? g->result_raw : "-",
               l->status == HS_LABEL_OK ? "ok" : l->status == HS_LABEL_MISS ? "miss" : "skip",
               l->yose_moves, hs_judge_result_string(l->black_margin, lab), dt * 1e3, dc * 1e3,
               l->reason[0] ? ": " : "", l->reason);
        fflush(stdout);
    }
    free(l);
    return 0;
}

static void s_report(const bench_t *b)
{
    printf("%-14s %5s %5s %5s %5s %10s %10s %10s\n", "result", "games", "ok", "miss", "skip",
           "ms/game", "cpu ms", "yose/game");
    for (int k = 0; k < K_N; k++) {
        if (!b->n[k])
            continue;
        printf("%-14s %5d %5d %5d %5d %10.0f %10.0f %10.1f\n", s_kind_name[k], b->n[k],
               b->status[k][HS_LABEL_OK], b->status[k][HS_LABEL_MISS],
               b->status[k][HS_LABEL_SKIP], b->seconds[k] * 1e3 / b->n[k],
               b->cpu[k] * 1e3 / b->n[k],
               (double)b->yose[k] / b->n[k]);
    }
}

int main(int argc, char **argv)
{
    bench_t b = { .max_games = 20 };
    hs_label_config_default(&b.cfg);
    const char *net = NULL, *backend = NULL;
    int threads = 1, net_judge = 0;
    const char *paths[64];
    int npaths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--net") && v) { net = v; i++; }
        else if (!strcmp(a, "--backend") && v) { backend = v; i++; }
        else if (!strcmp(a, "--threads") && v) { threads = atoi(v); i++; }
        else if (!strcmp(a, "--visits") && v) { b.cfg.visits = atoi(v); i++; }
        else if (!strcmp(a, "--games") && v) { b.max_games = atoi(v); i++; }
        else if (!strcmp(a, "--seed") && v) { b.cfg.seed = strtoull(v, NULL, 10); i++; }
        else if (!strcmp(a, "--net-judge")) net_judge = 1;
        else if (!strcmp(a, "--verbose")) b.verbose = 1;
        else if (a[0] != '-' && npaths < 64) paths[npaths++] = a;
        else { fprintf(stderr, "bench_label: bad argument %s\n", a); return 2; }
    }
    if (!npaths) { fprintf(stderr, "usage: see bench/bench_label.c\n"); return 2; }
    hs_error_t err = {0};
    hs_nn_model_t *model = NULL;
    hs_nn_evaluator_t *nn = NULL;
    hs_mcts_evaluator_t ev = {0};
    int rc = 0;
    if (net) {
        hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default(), .max_batch = 1,
                                      .threads = threads };
        if (backend) rc = hs_nn_backend_parse(backend, &bc.kind, &err);
        if (!rc) rc = hs_nn_model_load(net, &model, &err);
        if (!rc) rc = hs_nn_evaluator_create(model, &bc, &nn, &err);
        if (!rc) rc = hs_mcts_net_evaluator_create(nn, b.cfg.seed, &ev, &err);
        if (!rc && net_judge) b.cfg.nn = nn;
    } else {
        hs_mcts_rollout_config_t rcfg;
        hs_mcts_rollout_config_default(&rcfg);
        rcfg.threads = 1;
        rcfg.seed = b.cfg.seed;
        rc = hs_mcts_rollout_evaluator_create(&rcfg, &ev, &err);
    }
    if (rc) { fprintf(stderr, "bench_label: %s\n", err.msg); return 1; }
    b.cfg.evaluator = &ev;
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.threads = 1;
    o.on_game = s_on_game;
    o.ctx = &b;
    hs_ingest_report_t rep;
    rc = hs_ingest_run(paths, npaths, &o, &rep, &err);
    hs_ingest_report_fini(&rep);
    if ((rc && rc != HS_ECANCELED) || b.failed) {
        fprintf(stderr, "bench_label: %s\n", err.msg);
        return 1;
    }
    printf("%d games, yose by %s at %d visits a move, dead stones by %s\n", b.games,
           net ? "the net" : "rollouts", b.cfg.visits, b.cfg.nn ? "the net judge" : "the judge");
    s_report(&b);
    hs_mcts_evaluator_free(&ev);
    hs_nn_evaluator_free(&nn);
    hs_nn_model_free(&model);
    return 0;
}
