/*
 * bench/bench_judge_net.c — the net judge (worker/judge_net.h) against the
 * recorded results, beside the judge with playouts, on the same games: final
 * positions (the measure of bench_judge_final.c) or middle-game positions.
 * Run through bench/judge_final.sh (with HS_NET, adds GNU Go on a sample) and
 * bench/judge_middle.sh.
 *
 * usage: bench_judge_net --net FILE [--backend ref|cpu|cuda] [--batch N]
 *                        [--every K [--offset R]] [--dead T] [--shut T]
 *                        [--grid-dead T,T,..] [--grid-shut T,T,..]
 *                        [--mix W] [--grid-mix W,W,..]
 *                        [--sample-dir DIR [--sample N]] [--dump FILE]
 *                        [--middle [--moves M,M,..]] ARCHIVE...
 *
 * Games: exactly bench_judge_final.c's filter (counted RE "B+n"/"W+n", n > 0;
 * no Fox record, no sgf-edge; replayable; RU missing and KM 7.5 read as
 * Chinese); --with-fox keeps the Fox records too whose KM is one of Fox's
 * komi codes (as core/game.c reads them; not KM[0], see SOURCES.md).
 * --every K keeps the games whose id (hs_game_t.id[0] >> 1) is a multiple
 * of K (with --offset R: is R modulo K; another sample, disjoint): a
 * deterministic sample for the slow ref backend.
 *
 * Split: a game's half is id[0] & 1. The thresholds are tuned on half 0
 * ("tune") and checked on half 1 ("test"); every figure is printed for both
 * halves and the whole (docs/JUDGE.md "The net judge").
 *
 * Final mode (default): the last position of each game, judged by the net
 * judge at --dead/--shut (default HS_JUDGE_NET_*) and by the judge with 256
 * playouts (hs_judge_config_final); then the grid of thresholds (the net is
 * run once, each pair re-judges). --mix W (default HS_JUDGE_NET_MC_WEIGHT),
 * --grid-mix: the net's ownership mixed with the playouts' at weight W
 * (hs_judge_net_compute_mixed). --sample-dir writes the first N eligible
 * kgs/kgs-counted/9x9 games by game id as DIR/NNN.sgf plus DIR/list.tsv
 * (file part rules recorded judge net), for GNU Go in judge_final.sh.
 *
 * Middle mode: positions after moves 100, 150, 200 (--moves) of every game
 * that long: the static judge (hs_judge_config_default, no relaxed kill: the
 * "judge" engine mid-game, without the stability map), the net judge's count
 * (hs_judge_net_config_midgame) and the net's score lead, each against the
 * recorded margin: mean absolute error and how often the winner's side is
 * right (an estimate of exactly 0 counts as wrong).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "game_sgf.h"
#include "ingest/ingest.h"
#include "worker/judge.h"
#include "worker/judge_net.h"
#include "worker/nn/eval.h"

#define MAX_GRID 16
#define MAX_MOVES 8

typedef struct item {
    hs_nn_game_pos_t jp;
    hs_rules_t rules;
    double komi, recorded, static_score;
    float mc[HS_BOARD_MAX_POINTS];   /* the playouts' ownership (final mode, --grid-mix) */
    int handicap, half, slot;        /* slot: index in --moves (middle mode) */
    char part[32];
    uint64_t id0;
    char *sgf;                       /* final mode, sample parts only */
} item_t;

typedef struct tally { int n, exact, within1, winner; double abs_err; } tally_t;

typedef struct sample { uint64_t id0; char part[32]; bool area; double rec, judged, net; char *sgf; } sample_t;

typedef struct ctx {
    hs_nn_evaluator_t *ev;
    int batch, every, offset;
    bool middle, with_fox;
    float dead, shut, mix;
    float grid_dead[MAX_GRID], grid_shut[MAX_GRID], grid_mix[MAX_GRID];
    int n_dead, n_shut, n_mix;
    int moves[MAX_MOVES], n_moves;
    item_t *items;
    int n_items;
    hs_nn_pos_t *pos;
    hs_nn_output_t *out;
    hs_judge_t judge;
    tally_t net[3], stat[3];                     /* final: by half, [2] all */
    tally_t grid[MAX_GRID][MAX_GRID][MAX_GRID][3];   /* [mix][dead][shut][half] */
    tally_t mid[MAX_MOVES][3];                   /* middle: static, net count, net lead */
    int seen, eligible;
    double t_net, t_judge, t_static;
    FILE *dump;
    sample_t *sample;
    int n_sample, cap_sample;
    bool want_sample;
    int failed;
} ctx_t;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "amateur19/kgs-counted/..." -> "kgs-counted"; "9x9/..." -> "9x9" (as bench_judge_final.c). */
static void s_part(const char *source, char *out, size_t n)
{
    const char *s = strstr(source, ".tar.gz:");
    s = s ? s + 8 : source;
    if (!strncmp(s, "9x9/", 4)) { snprintf(out, n, "9x9"); return; }
    const char *slash = strchr(s, '/');
    if (!slash) { snprintf(out, n, "other"); return; }
    const char *start = slash + 1, *end = strchr(start, '/');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    if (len >= n) len = n - 1;
    memcpy(out, start, len);
    out[len] = 0;
}

static void s_tally1(tally_t *t, double est, double rec)
{
    double e = est - rec;
    t->n++;
    t->exact += fabs(e) < 1e-6;
    t->within1 += fabs(e) <= 1.0 + 1e-6;
    t->abs_err += fabs(e);
    t->winner += (est > 0 && rec > 0) || (est < 0 && rec < 0);
}

/* t[half] and t[2], the whole. */
static void s_tally(tally_t *t, int half, double est, double rec)
{
    s_tally1(&t[half], est, rec);
    s_tally1(&t[2], est, rec);
}

static double s_pct(int a, int n) { return 100.0 * a / (n ? n : 1); }

static void s_keep_sample(ctx_t *c, const item_t *it, double net)
{
    if (c->n_sample == c->cap_sample) {
        int nc = c->cap_sample ? 2 * c->cap_sample : 256;
        sample_t *ns = realloc(c->sample, sizeof *ns * (size_t)nc);
        if (!ns) return;
        c->sample = ns;
        c->cap_sample = nc;
    }
    sample_t *s = &c->sample[c->n_sample++];
    *s = (sample_t){ .id0 = it->id0, .area = it->rules.scoring == HS_SCORING_AREA,
                     .rec = it->recorded, .judged = it->static_score, .net = net, .sgf = it->sgf };
    snprintf(s->part, sizeof s->part, "%s", it->part);
}

/* Final mode: one evaluated game into the tallies (and the grid). */
static void s_final_one(ctx_t *c, item_t *it, const hs_nn_output_t *o)
{
    const hs_board_t *b = &it->jp.board;
    hs_judge_config_t cfg;
    hs_judge_net_config_final(&cfg);
    double t0 = s_now();
    cfg.mc_dead = c->dead;
    cfg.mc_shut_max = c->shut;
    hs_judge_net_compute_mixed(b, o, it->mc, c->mix, &cfg, &c->judge, NULL);
    double net = hs_judge_score(&c->judge, b, &it->rules, it->komi, it->handicap);
    c->t_judge += s_now() - t0;
    s_tally(c->net, it->half, net, it->recorded);
    s_tally(c->stat, it->half, it->static_score, it->recorded);
    for (int w = 0; w < c->n_mix; w++)
        for (int i = 0; i < c->n_dead; i++)
            for (int k = 0; k < c->n_shut; k++) {
                cfg.mc_dead = c->grid_dead[i];
                cfg.mc_shut_max = c->grid_shut[k];
                hs_judge_net_compute_mixed(b, o, it->mc, c->grid_mix[w], &cfg, &c->judge, NULL);
                double s = hs_judge_score(&c->judge, b, &it->rules, it->komi, it->handicap);
                s_tally(c->grid[w][i][k], it->half, s, it->recorded);
            }
    if (c->dump)
        fprintf(c->dump, "%s\t%016llx\t%d\t%s\t%g\t%g\t%g\t%g\n", it->part, (unsigned long long)it->id0,
                it->half, it->rules.name, it->recorded, it->static_score, net, hs_judge_net_lead(o));
    if (it->sgf) { s_keep_sample(c, it, net); it->sgf = NULL; }
}

/* Middle mode: static judge, the net judge's count and the net's lead. */
static void s_middle_one(ctx_t *c, item_t *it, const hs_nn_output_t *o)
{
    const hs_board_t *b = &it->jp.board;
    hs_judge_config_t cfg;
    hs_judge_net_config_midgame(&cfg);
    hs_judge_net_compute(b, o, &cfg, &c->judge, NULL);
    double net = hs_judge_score(&c->judge, b, &it->rules, it->komi, it->handicap);
    double lead = hs_judge_net_lead(o);
    s_tally1(&c->mid[it->slot][0], it->static_score, it->recorded);
    s_tally1(&c->mid[it->slot][1], net, it->recorded);
    s_tally1(&c->mid[it->slot][2], lead, it->recorded);
    if (c->dump)
        fprintf(c->dump, "%s\t%016llx\t%d\t%s\t%g\t%g\t%g\t%g\n", it->part, (unsigned long long)it->id0,
                c->moves[it->slot], it->rules.name, it->recorded, it->static_score, net, lead);
}

/* Runs the net on the pending items and judges them. */
static int s_flush(ctx_t *c)
{
    if (!c->n_items) return 0;
    for (int i = 0; i < c->n_items; i++) c->pos[i] = c->items[i].jp.nn;
    hs_error_t err = {0};
    double t0 = s_now();
    int rc = hs_nn_evaluate(c->ev, c->pos, c->n_items, 0, c->out, &err);
    c->t_net += s_now() - t0;
    if (rc) { fprintf(stderr, "bench_judge_net: %s\n", err.msg); c->failed = 1; return rc; }
    for (int i = 0; i < c->n_items; i++) {
        if (c->middle) s_middle_one(c, &c->items[i], &c->out[i]);
        else s_final_one(c, &c->items[i], &c->out[i]);
    }
    c->n_items = 0;
    return 0;
}

/* Queues the position after `move` moves of g (-1: the last) for the net. */
static int s_enqueue(ctx_t *c, const char *part, hs_game_t *g, const hs_rules_t *rules, int move, int slot)
{
    item_t *it = &c->items[c->n_items];
    if (hs_nn_game_pos_at(g, move, rules->id, g->komi, g->handicap, &it->jp, NULL))
        return 0;
    it->rules = *rules;
    it->komi = g->komi;
    it->handicap = g->handicap;
    it->recorded = g->result.winner == HS_WINNER_BLACK ? g->result.margin : -g->result.margin;
    it->half = (int)(g->id[0] & 1);
    it->slot = slot;
    it->id0 = g->id[0];
    it->sgf = NULL;
    snprintf(it->part, sizeof it->part, "%s", part);
    hs_judge_config_t cfg;
    if (c->middle) { hs_judge_config_default(&cfg); cfg.relaxed_kill = false; }
    else hs_judge_config_final(&cfg);
    double t0 = s_now();
    bool mixing = c->mix > 0.0f || c->n_mix > 1 || (c->n_mix == 1 && c->grid_mix[0] > 0.0f);
    if (!c->middle && mixing)
        hs_judge_mc_ownership(&it->jp.board, cfg.playouts, cfg.seed, it->mc);
    hs_judge_compute(&it->jp.board, NULL, &cfg, &c->judge, NULL);
    it->static_score = hs_judge_score(&c->judge, &it->jp.board, rules, g->komi, g->handicap);
    c->t_static += s_now() - t0;
    if (c->want_sample && !c->middle &&
        (!strcmp(part, "kgs") || !strcmp(part, "kgs-counted") || !strcmp(part, "9x9")))
        it->sgf = hs_bench_game_sgf(g);
    if (++c->n_items == c->batch)
        return s_flush(c);
    return 0;
}

static int s_on_game(void *vctx, const char *source, int index, hs_game_t *g)
{
    (void)index;
    ctx_t *c = vctx;
    c->seen++;
    if (g->result.kind != HS_RESULT_POINTS || g->result.margin <= 0 ||
        (g->result.winner != HS_WINNER_BLACK && g->result.winner != HS_WINNER_WHITE))
        return 0;
    if (strstr(source, "sgf-edge")) return 0;
    /* Fox: only with --with-fox, and only records whose KM is one of Fox's
     * komi codes (KM[0] is written for games whose komi was not 0). */
    if (strstr(source, "fox-") && (!c->with_fox || (g->komi_source != HS_KOMI_FOX_POINTS &&
                                                    g->komi_source != HS_KOMI_FOX_ZI)))
        return 0;
    if (c->every > 1 && (g->id[0] >> 1) % (uint64_t)c->every != (uint64_t)c->offset) return 0;
    hs_board_t b;
    if (hs_game_replay(g, -1, &b, NULL)) return 0;
    c->eligible++;
    hs_rules_t rules = g->rules;
    if (!g->rules_raw && fabs(g->komi - 7.5) < 1e-9)
        rules = hs_rules_get(HS_RULES_CHINESE);
    char part[32];
    s_part(source, part, sizeof part);
    if (!c->middle)
        return s_enqueue(c, part, g, &rules, -1, 0);
    for (int k = 0; k < c->n_moves; k++)
        if (g->num_moves >= c->moves[k] && s_enqueue(c, part, g, &rules, c->moves[k], k))
            return -1;
    return 0;
}

static int s_list(const char *s, float *f, int *n_out, int max)
{
    int n = 0;
    for (char *end; *s && n < max; s = *end ? end + 1 : end) {
        f[n++] = strtof(s, &end);
        if (end == s) return -1;
    }
    *n_out = n;
    return 0;
}

static void s_line(const char *what, const tally_t *t)
{
    printf("%-34s %5d games  exact %5.1f%%  within 1 %5.1f%%\n", what, t->n, s_pct(t->exact, t->n),
           s_pct(t->within1, t->n));
}

static int s_cmp_sample(const void *a, const void *b)
{
    uint64_t x = ((const sample_t *)a)->id0, y = ((const sample_t *)b)->id0;
    return x < y ? -1 : x > y;
}

static int s_write_sample(ctx_t *c, const char *dir, int want)
{
    qsort(c->sample, (size_t)c->n_sample, sizeof *c->sample, s_cmp_sample);
    int n = c->n_sample < want ? c->n_sample : want;
    char path[4096];
    snprintf(path, sizeof path, "%s/list.tsv", dir);
    FILE *list = fopen(path, "w");
    if (!list) { fprintf(stderr, "cannot write %s\n", path); return 1; }
    for (int i = 0; i < n; i++) {
        sample_t *s = &c->sample[i];
        snprintf(path, sizeof path, "%s/%03d.sgf", dir, i);
        FILE *f = fopen(path, "w");
        if (!f || !s->sgf) { fprintf(stderr, "cannot write %s\n", path); if (f) fclose(f); fclose(list); return 1; }
        fputs(s->sgf, f);
        fclose(f);
        fprintf(list, "%03d.sgf\t%s\t%s\t%g\t%g\t%g\n", i, s->part, s->area ? "area" : "territory",
                s->rec, s->judged, s->net);
    }
    fclose(list);
    printf("sample: %d of %d eligible kgs/kgs-counted/9x9 games (lowest game ids) written to %s\n",
           n, c->n_sample, dir);
    return 0;
}

static void s_report_final(const ctx_t *c)
{
    char what[96];
    snprintf(what, sizeof what, "net judge (dead < %g, shut-in < %g%s)", c->dead, c->shut, c->mix > 0 ? ", mix" : "");
    s_line(what, &c->net[2]);
    s_line("  tune half (id even)", &c->net[0]);
    s_line("  test half (id odd)", &c->net[1]);
    s_line("judge, 256 playouts", &c->stat[2]);
    s_line("  tune half (id even)", &c->stat[0]);
    s_line("  test half (id odd)", &c->stat[1]);
    int n = c->net[2].n ? c->net[2].n : 1;
    printf("time per game: net %.1f ms, net judge %.3f ms, judge with playouts %.3f ms\n",
           1000 * c->t_net / n, 1000 * c->t_judge / n, 1000 * c->t_static / n);
    if (!c->n_dead || !c->n_shut) return;
    if (c->mix > 0) printf("(mix %g: the net's ownership weighs %g, the playouts' %g)\n", c->mix, 1 - c->mix, c->mix);
    printf("grid (exact / within 1, %%):  mix  dead  shut   tune half        test half        all\n");
    for (int w = 0; w < c->n_mix; w++)
        for (int i = 0; i < c->n_dead; i++)
            for (int k = 0; k < c->n_shut; k++) {
                const tally_t *t = c->grid[w][i][k];
                printf("  %5.2f %5.2f %5.2f   %5.1f / %5.1f    %5.1f / %5.1f    %5.1f / %5.1f\n",
                       c->grid_mix[w], c->grid_dead[i], c->grid_shut[k], s_pct(t[0].exact, t[0].n),
                       s_pct(t[0].within1, t[0].n), s_pct(t[1].exact, t[1].n), s_pct(t[1].within1, t[1].n),
                       s_pct(t[2].exact, t[2].n), s_pct(t[2].within1, t[2].n));
            }
}

static void s_report_middle(const ctx_t *c)
{
    static const char *names[3] = {"static judge", "net judge (count)", "net (score lead)"};
    printf("move  estimate             positions  mean |error|  winner predicted\n");
    for (int m = 0; m < c->n_moves; m++)
        for (int k = 0; k < 3; k++) {
            const tally_t *t = &c->mid[m][k];
            printf("%4d  %-20s %9d  %12.2f  %15.1f%%\n", c->moves[m], names[k], t->n,
                   t->abs_err / (t->n ? t->n : 1), s_pct(t->winner, t->n));
        }
}

/* One option at argv[*i]: 0, or -1 for an unknown one or a bad value. */
static int s_option(ctx_t *c, int argc, char **argv, int *i, const char **net, const char **backend,
                    const char **sample_dir, int *sample_n, const char **dump)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--middle")) { c->middle = true; return 0; }
    if (!strcmp(a, "--with-fox")) { c->with_fox = true; return 0; }
    if (*i + 1 >= argc) return -1;
    const char *v = argv[++*i];
    if (!strcmp(a, "--net")) *net = v;
    else if (!strcmp(a, "--backend")) *backend = v;
    else if (!strcmp(a, "--batch")) c->batch = atoi(v);
    else if (!strcmp(a, "--every")) c->every = atoi(v);
    else if (!strcmp(a, "--offset")) c->offset = atoi(v);
    else if (!strcmp(a, "--dead")) c->dead = strtof(v, NULL);
    else if (!strcmp(a, "--shut")) c->shut = strtof(v, NULL);
    else if (!strcmp(a, "--grid-dead")) return s_list(v, c->grid_dead, &c->n_dead, MAX_GRID);
    else if (!strcmp(a, "--grid-shut")) return s_list(v, c->grid_shut, &c->n_shut, MAX_GRID);
    else if (!strcmp(a, "--grid-mix")) return s_list(v, c->grid_mix, &c->n_mix, MAX_GRID);
    else if (!strcmp(a, "--mix")) c->mix = strtof(v, NULL);
    else if (!strcmp(a, "--sample-dir")) *sample_dir = v;
    else if (!strcmp(a, "--sample")) *sample_n = atoi(v);
    else if (!strcmp(a, "--dump")) *dump = v;
    else if (!strcmp(a, "--moves")) {
        float f[MAX_MOVES];
        if (s_list(v, f, &c->n_moves, MAX_MOVES)) return -1;
        for (int k = 0; k < c->n_moves; k++) c->moves[k] = (int)f[k];
    } else return -1;
    return 0;
}

static int s_setup(ctx_t *c, const char *net, const char *backend, hs_nn_model_t **model)
{
    hs_error_t err = {0};
    hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default() };
    if (backend && hs_nn_backend_parse(backend, &bc.kind, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    if (c->batch <= 0) c->batch = hs_nn_backend_default_batch(bc.kind);
    bc.max_batch = c->batch;
    if (hs_nn_model_load(net, model, &err) || hs_nn_evaluator_create(*model, &bc, &c->ev, &err)) {
        fprintf(stderr, "bench_judge_net: %s\n", err.msg);
        return 1;
    }
    c->items = calloc((size_t)c->batch, sizeof *c->items);
    c->pos = calloc((size_t)c->batch, sizeof *c->pos);
    c->out = calloc((size_t)c->batch, sizeof *c->out);
    if (!c->items || !c->pos || !c->out) { fprintf(stderr, "bench_judge_net: out of memory\n"); return 1; }
    printf("net %s (%.8s), backend %s, batch %d%s\n", net, (*model)->hash, hs_nn_backend_kind_name(bc.kind),
           c->batch, c->every > 1 ? "" : ", every eligible game");
    if (c->every > 1) printf("sample: games whose id/2 is %d modulo %d\n", c->offset, c->every);
    return 0;
}

int main(int argc, char **argv)
{
    ctx_t *c = calloc(1, sizeof *c);
    if (!c) return 1;
    const char *net = NULL, *backend = NULL, *sample_dir = NULL, *dump = NULL, *paths[64];
    int npaths = 0, sample_n = 150;
    c->dead = HS_JUDGE_NET_DEAD;
    c->shut = HS_JUDGE_NET_SHUT_MAX;
    c->every = 1;
    c->mix = HS_JUDGE_NET_MC_WEIGHT;
    c->grid_mix[0] = 0.0f;
    c->n_mix = 1;
    c->moves[0] = 100; c->moves[1] = 150; c->moves[2] = 200; c->n_moves = 3;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-') { if (npaths < 64) paths[npaths++] = argv[i]; continue; }
        if (s_option(c, argc, argv, &i, &net, &backend, &sample_dir, &sample_n, &dump)) {
            fprintf(stderr, "bench_judge_net: bad option %s (see the comment at the top of the source)\n", argv[i]);
            return 2;
        }
    }
    if (!net || !npaths) {
        fprintf(stderr, "usage: bench_judge_net --net FILE [--backend B] [--every K] [--middle] ARCHIVE...\n");
        return 2;
    }
    hs_nn_model_t *model = NULL;
    if (s_setup(c, net, backend, &model)) return 1;
    c->want_sample = sample_dir != NULL;
    if (dump && !(c->dump = fopen(dump, "w"))) { fprintf(stderr, "cannot write %s\n", dump); return 1; }
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.on_game = s_on_game;
    o.ctx = c;
    hs_ingest_report_t rep;
    hs_error_t err = {0};
    int rc = hs_ingest_run(paths, npaths, &o, &rep, &err);
    hs_ingest_report_fini(&rep);
    if (!rc && !c->failed) rc = s_flush(c);
    if (rc || c->failed) { fprintf(stderr, "bench_judge_net: %s\n", err.msg[0] ? err.msg : "net failed"); return 1; }
    printf("%d games read, %d eligible (counted, %sreplayable)\n", c->seen, c->eligible,
           c->with_fox ? "Fox included, " : "not Fox, ");
    if (c->middle) s_report_middle(c);
    else s_report_final(c);
    if (sample_dir && s_write_sample(c, sample_dir, sample_n)) return 1;
    for (int i = 0; i < c->n_sample; i++) free(c->sample[i].sgf);
    free(c->sample);
    if (c->dump) fclose(c->dump);
    hs_nn_evaluator_free(&c->ev);
    hs_nn_model_free(&model);
    free(c->items); free(c->pos); free(c->out); free(c);
    return 0;
}
