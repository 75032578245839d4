/*
 * bench/bench_ownership.c — ownership sign agreement with the labels (issue 16,
 * "Checks"): on the validation samples of a labels folder (`hyeongse label`),
 * at moves 50, 100, 150, 200 and the final position, for every net given, the
 * static judge and Park's influence areas. bench/own_model.sh runs it.
 *
 * usage: bench_ownership --labels DIR [--net NAME=FILE]... [--backend ref|cpu|cuda]
 *                        [--batch B] [--threads T] [--max-games N]
 *                        [--no-judge] [--no-influence] [--json]
 *
 * Samples: those of DIR/index.json's "val" shards whose move is 50, 100, 150
 * or 200, or that are the record's final position (policy -1; a final
 * position at move 150 counts in both columns). --max-games N: only the first
 * N validation games of index.json. Each position is rebuilt from the sample
 * alone (worker/shard_pos.h), under its game's rules and komi.
 *
 * Methods, each as the project runs it:
 *   nets       hs_nn_evaluate at symmetry 0 (the evaluator picks the model's
 *              own input set); the ownership is White's, turned to the side
 *              to move's as the labels are
 *   judge      the static judge as the "judge" engine runs it: the stability
 *              map and no relaxed kill mid-game; at the final position the
 *              relaxed kill and no map (no playouts: the static rules)
 *   influence  the "influence" engine's ownership map: on an empty point
 *              Park's territory, else his influence area (IA); on a stone its
 *              colour when its group's stability is above 0
 * Agreement = points with a label != 0 where the prediction has the label's
 * sign (a prediction of 0 is a miss) / points with a label != 0, over every
 * sample of the column (pooled points, not a mean of per-sample figures).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/json_read.h"
#include "worker/influence.h"
#include "worker/judge.h"
#include "worker/nn/eval.h"
#include "worker/shard_pos.h"
#include "worker/stability.h"

#define MAX_NETS 8
#define MAX_METHODS (MAX_NETS + 2)
#define N_COLS 5
static const int k_moves[N_COLS - 1] = {50, 100, 150, 200};
static const char *const k_cols[N_COLS] = {"move 50", "move 100", "move 150", "move 200", "final"};

typedef struct game_info {
    int size, handicap;
    hs_rules_id_t rules;
    double komi;
    bool use;          /* a validation game kept (--max-games) */
} game_info_t;

typedef struct item {
    hs_shard_sample_t s;
    hs_nn_game_pos_t gp;
    int cols[2], n_cols;
} item_t;

typedef struct method {
    char name[64];
    hs_nn_model_t *model;          /* nets only */
    hs_nn_evaluator_t *ev;
    long agreed[N_COLS], points[N_COLS];
    double seconds;
} method_t;

typedef struct ctx {
    const char *labels, *backend;
    int batch, threads, max_games;
    bool judge, influence, json;
    int n_nets;
    const char *net_spec[MAX_NETS];
    method_t m[MAX_METHODS];
    int n_methods, judge_at, influence_at;   /* method index or -1 */
    game_info_t *games;
    int n_games, n_val_games;
    long samples[N_COLS];
    item_t *items;
    hs_nn_pos_t *pos;
    hs_nn_output_t *out;
    int n_items;
    hs_stability_t stab;
    hs_judge_t jd;
    hs_influence_t inf;
} ctx_t;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int s_usage(void)
{
    fprintf(stderr, "usage: bench_ownership --labels DIR [--net NAME=FILE]... "
                    "[--backend ref|cpu|cuda] [--batch B] [--threads T] [--max-games N] "
                    "[--no-judge] [--no-influence] [--json]\n");
    return 2;
}

static int s_args(int argc, char **argv, ctx_t *c)
{
    c->judge = c->influence = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--no-judge")) { c->judge = false; continue; }
        if (!strcmp(a, "--no-influence")) { c->influence = false; continue; }
        if (!strcmp(a, "--json")) { c->json = true; continue; }
        if (i + 1 >= argc)
            return s_usage();
        const char *v = argv[++i];
        if (!strcmp(a, "--labels")) c->labels = v;
        else if (!strcmp(a, "--backend")) c->backend = v;
        else if (!strcmp(a, "--batch")) c->batch = atoi(v);
        else if (!strcmp(a, "--threads")) c->threads = atoi(v);
        else if (!strcmp(a, "--max-games")) c->max_games = atoi(v);
        else if (!strcmp(a, "--net") && c->n_nets < MAX_NETS && strchr(v, '=') && v[0] != '=')
            c->net_spec[c->n_nets++] = v;
        else return s_usage();
    }
    return c->labels ? 0 : s_usage();
}

/* ---- index.json ---------------------------------------------------------- */

static int s_read_json(const char *dir, hs_json_doc_t **doc, hs_error_t *err)
{
    char path[4096], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/index.json", dir);
    int rc = hs_buf_read_file(path, 0, &text, &len, err);
    if (rc)
        return rc;
    hs_json_limits_t lim;
    hs_json_limits_default(&lim);
    lim.max_bytes = len + 1;             /* a folder of many games: its own size */
    lim.max_nodes = 64L * 1000 * 1000;
    rc = hs_json_parse(text, len, &lim, doc, err);
    free(text);
    return rc ? hs_error_prefix(err, "%s: ", path) : 0;
}

/* One entry of "games" into *g; false when a field is missing or wrong. */
static bool s_game(const hs_json_t *e, game_info_t *g, bool *val)
{
    int64_t size = 0, hc = 0;
    const char *split = NULL, *rules = NULL, *status = "ok";
    hs_rules_t r;
    if (!hs_json_int(hs_json_get(e, "size"), 2, HS_NN_MAX_SIZE, &size)
        || !hs_json_str(hs_json_get(e, "split"), &split)
        || !hs_json_str(hs_json_get(e, "rules"), &rules) || hs_rules_from_name(rules, &r)
        || !hs_json_double(hs_json_get(e, "komi"), -1000, 1000, &g->komi))
        return false;
    hs_json_str(hs_json_get(e, "status"), &status);
    hs_json_int(hs_json_get(e, "handicap"), 0, 400, &hc);   /* optional */
    g->size = (int)size;
    g->handicap = (int)hc;
    g->rules = r.id;
    *val = !strcmp(split, "val") && !strcmp(status, "ok");
    return true;
}

static int s_games(ctx_t *c, const hs_json_t *root, hs_error_t *err)
{
    const hs_json_t *games = hs_json_get(root, "games");
    if (!games || games->type != HS_JSON_ARRAY)
        return hs_error_set(err, HS_EPARSE, "index.json: no \"games\" array");
    c->n_games = games->count;
    c->games = calloc((size_t)c->n_games + 1, sizeof *c->games);
    if (!c->games)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int i = 0;
    for (const hs_json_t *e = games->child; e; e = e->next, i++) {
        bool val = false;
        if (!s_game(e, &c->games[i], &val))
            return hs_error_set(err, HS_EPARSE, "index.json: games[%d]: a field is missing", i);
        if (val && (c->max_games <= 0 || c->n_val_games < c->max_games)) {
            c->games[i].use = true;
            c->n_val_games++;
        }
    }
    return 0;
}

/* ---- methods ------------------------------------------------------------- */

static int s_nets(ctx_t *c, hs_error_t *err)
{
    hs_nn_backend_config_t bc = {.kind = hs_nn_backend_default(), .threads = c->threads};
    if (c->backend && hs_nn_backend_parse(c->backend, &bc.kind, err))
        return err->code;
    if (c->batch <= 0)
        c->batch = hs_nn_backend_default_batch(bc.kind);
    bc.max_batch = c->batch;
    for (int k = 0; k < c->n_nets; k++) {
        method_t *m = &c->m[c->n_methods++];
        const char *eq = strchr(c->net_spec[k], '=');
        snprintf(m->name, sizeof m->name, "%.*s", (int)(eq - c->net_spec[k]), c->net_spec[k]);
        if (hs_nn_model_load(eq + 1, &m->model, err)
            || hs_nn_evaluator_create(m->model, &bc, &m->ev, err))
            return hs_error_prefix(err, "%s: ", eq + 1);
        if (!c->json)
            printf("net %s: %s (%.8s, input set %d), backend %s, batch %d\n", m->name, eq + 1,
                   m->model->hash, m->model->input_set, hs_nn_backend_kind_name(bc.kind), c->batch);
    }
    return 0;
}

static int s_setup(ctx_t *c, hs_error_t *err)
{
    int rc = s_nets(c, err);
    if (rc)
        return rc;
    c->judge_at = c->influence_at = -1;
    if (c->judge) {
        c->judge_at = c->n_methods;
        snprintf(c->m[c->n_methods++].name, sizeof c->m[0].name, "judge");
    }
    if (c->influence) {
        c->influence_at = c->n_methods;
        snprintf(c->m[c->n_methods++].name, sizeof c->m[0].name, "influence");
    }
    if (c->batch <= 0)
        c->batch = 32;                   /* no net: the batch only bounds memory */
    c->items = calloc((size_t)c->batch, sizeof *c->items);
    c->pos = calloc((size_t)c->batch, sizeof *c->pos);
    c->out = calloc((size_t)c->batch, sizeof *c->out);
    if (!c->items || !c->pos || !c->out)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    return 0;
}

/* Tallies one prediction (the side to move's view) against the labels. */
static void s_tally(method_t *m, const item_t *it, const float *stm_pred, int n)
{
    long agreed = 0, points = 0;
    for (int i = 0; i < n * n; i++) {
        int lab = it->s.owner[i];
        if (!lab)
            continue;
        points++;
        agreed += (lab > 0 && stm_pred[i] > 0) || (lab < 0 && stm_pred[i] < 0);
    }
    for (int k = 0; k < it->n_cols; k++) {
        m->agreed[it->cols[k]] += agreed;
        m->points[it->cols[k]] += points;
    }
}

static int s_eval_nets(ctx_t *c, hs_error_t *err)
{
    for (int k = 0; k < c->n_methods; k++) {
        method_t *m = &c->m[k];
        if (!m->ev)
            continue;
        double t0 = s_now();
        int rc = hs_nn_evaluate(m->ev, c->pos, c->n_items, 0, c->out, err);
        if (rc)
            return hs_error_prefix(err, "%s: ", m->name);
        for (int j = 0; j < c->n_items; j++) {
            const item_t *it = &c->items[j];
            int n = it->gp.board.size;
            float pred[HS_NN_MAX_AREA];
            float sign = it->s.to_move == HS_WHITE ? 1.0f : -1.0f;   /* White's -> stm */
            for (int i = 0; i < n * n; i++)
                pred[i] = sign * c->out[j].ownership[i];
            s_tally(m, it, pred, n);
        }
        m->seconds += s_now() - t0;
    }
    return 0;
}

/* The judge engine's configuration (worker/engine_adapters.c, s_judge_eval)
 * without playouts: the static judge. */
static int s_eval_judge(ctx_t *c, const item_t *it, float *pred, hs_error_t *err)
{
    const hs_board_t *b = &it->gp.board;
    bool last = it->s.policy == -1;
    hs_judge_config_t cfg;
    hs_judge_config_default(&cfg);
    cfg.relaxed_kill = last;
    hs_stability_config_t sc;
    hs_stability_config_default(&sc);
    int rc = last ? 0 : hs_stability_compute(b, &sc, NULL, &c->stab, err);
    if (!rc)
        rc = hs_judge_compute(b, last ? NULL : &c->stab, &cfg, &c->jd, err);
    if (rc)
        return rc;
    float sign = it->s.to_move == HS_BLACK ? 1.0f : -1.0f;     /* Black's -> stm */
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            pred[y * b->size + x] = sign * c->jd.ownership[hs_board_point(b, x, y)];
    return 0;
}

/* The influence engine's ownership map (engine_adapters.c, s_influence_eval). */
static int s_eval_influence(ctx_t *c, const item_t *it, float *pred, hs_error_t *err)
{
    const hs_board_t *b = &it->gp.board;
    hs_stability_config_t sc;
    hs_stability_config_default(&sc);
    int rc = hs_stability_compute(b, &sc, NULL, &c->stab, err);
    if (!rc)
        rc = hs_influence_compute(b, c->stab.point, HS_INFLUENCE_TAU_DEFAULT, &c->inf, err);
    if (rc)
        return rc;
    float sign = it->s.to_move == HS_BLACK ? 1.0f : -1.0f;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            float own;
            if (b->color[p] == HS_BLACK || b->color[p] == HS_WHITE)
                own = (b->color[p] == HS_BLACK ? 1.0f : -1.0f) * c->stab.point[p];
            else
                own = (float)(c->inf.territory[p] ? c->inf.territory[p] : c->inf.ia[p]);
            pred[y * b->size + x] = sign * own;
        }
    return 0;
}

static int s_flush(ctx_t *c, hs_error_t *err)
{
    int rc = s_eval_nets(c, err);
    for (int j = 0; !rc && j < c->n_items; j++) {
        const item_t *it = &c->items[j];
        float pred[HS_NN_MAX_AREA];
        if (c->judge_at >= 0) {
            double t0 = s_now();
            rc = s_eval_judge(c, it, pred, err);
            if (!rc)
                s_tally(&c->m[c->judge_at], it, pred, it->gp.board.size);
            c->m[c->judge_at].seconds += s_now() - t0;
        }
        if (!rc && c->influence_at >= 0) {
            double t0 = s_now();
            rc = s_eval_influence(c, it, pred, err);
            if (!rc)
                s_tally(&c->m[c->influence_at], it, pred, it->gp.board.size);
            c->m[c->influence_at].seconds += s_now() - t0;
        }
    }
    c->n_items = 0;
    return rc;
}

/* ---- samples ------------------------------------------------------------- */

/* The columns sample s counts in (none: not a checked move). */
static int s_columns(const hs_shard_sample_t *s, int *cols)
{
    int n = 0;
    for (int k = 0; k < N_COLS - 1; k++)
        if (s->move == k_moves[k])
            cols[n++] = k;
    if (s->policy == -1)
        cols[n++] = N_COLS - 1;
    return n;
}

static int s_sample(ctx_t *c, int n, hs_error_t *err)
{
    item_t *it = &c->items[c->n_items];
    if (it->s.game >= (uint32_t)c->n_games)
        return hs_error_set(err, HS_ECORRUPT, "sample of game %u: not in index.json", it->s.game);
    const game_info_t *g = &c->games[it->s.game];
    if (!g->use)
        return 0;
    if (g->size != n)
        return hs_error_set(err, HS_ECORRUPT, "game %u: size %d in index.json, %d in its shard",
                            it->s.game, g->size, n);
    it->n_cols = s_columns(&it->s, it->cols);
    if (!it->n_cols)
        return 0;
    int rc = hs_shard_sample_pos(&it->s, n, g->rules, g->komi, g->handicap, &it->gp, err);
    if (rc)
        return hs_error_prefix(err, "game %u move %u: ", it->s.game, (unsigned)it->s.move);
    for (int k = 0; k < it->n_cols; k++)
        c->samples[it->cols[k]]++;
    c->pos[c->n_items] = it->gp.nn;     /* its pointers stay in the item's boards */
    c->n_items++;
    return c->n_items == c->batch ? s_flush(c, err) : 0;
}

static int s_shard(ctx_t *c, const char *file, hs_error_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->labels, file);
    hs_shard_reader_t *r = NULL;
    int rc = hs_shard_open(path, &r, err);
    if (rc)
        return rc;
    int n = hs_shard_size(r);
    uint64_t count = hs_shard_count(r);
    for (uint64_t i = 0; !rc && i < count; i++) {
        rc = hs_shard_read(r, i, &c->items[c->n_items].s, err);
        if (!rc)
            rc = s_sample(c, n, err);
    }
    if (!rc)
        rc = s_flush(c, err);      /* batches hold one board size: one shard's */
    hs_shard_close(&r);
    return rc ? hs_error_prefix(err, "%s: ", path) : 0;
}

static int s_shards(ctx_t *c, const hs_json_t *root, hs_error_t *err)
{
    const hs_json_t *shards = hs_json_get(root, "shards");
    if (!shards || shards->type != HS_JSON_ARRAY)
        return hs_error_set(err, HS_EPARSE, "index.json: no \"shards\" array");
    for (const hs_json_t *e = shards->child; e; e = e->next) {
        const char *file = NULL, *split = NULL;
        if (!hs_json_str(hs_json_get(e, "file"), &file)
            || !hs_json_str(hs_json_get(e, "split"), &split) || strchr(file, '/'))
            return hs_error_set(err, HS_EPARSE, "index.json: a shard without file or split");
        int rc = strcmp(split, "val") ? 0 : s_shard(c, file, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- output -------------------------------------------------------------- */

static void s_print_table(const ctx_t *c, double seconds)
{
    printf("ownership sign agreement with the labels: %s, %d validation games, %.1f s\n",
           c->labels, c->n_val_games, seconds);
    printf("%-14s", "");
    for (int k = 0; k < N_COLS; k++)
        printf(" %9s", k_cols[k]);
    printf(" %9s\n%-14s", "seconds", "samples");
    for (int k = 0; k < N_COLS; k++)
        printf(" %9ld", c->samples[k]);
    printf("\n%-14s", "points");
    for (int k = 0; k < N_COLS; k++)
        printf(" %9ld", c->m[0].points[k]);
    printf("\n");
    for (int i = 0; i < c->n_methods; i++) {
        const method_t *m = &c->m[i];
        printf("%-14.14s", m->name);
        for (int k = 0; k < N_COLS; k++) {
            if (m->points[k])
                printf(" %8.1f%%", 100.0 * (double)m->agreed[k] / (double)m->points[k]);
            else
                printf(" %9s", "-");
        }
        printf(" %9.2f\n", m->seconds);
    }
}

static void s_print_json(const ctx_t *c, double seconds)
{
    printf("{\"labels\":");
    hs_json_string(stdout, c->labels);
    printf(",\"games\":%d,\"seconds\":%.3f,\"columns\":[", c->n_val_games, seconds);
    for (int k = 0; k < N_COLS; k++)
        printf("%s\"%s\"", k ? "," : "", k < N_COLS - 1 ? k_cols[k] + 5 : "final");
    printf("],\"samples\":[");
    for (int k = 0; k < N_COLS; k++)
        printf("%s%ld", k ? "," : "", c->samples[k]);
    printf("],\"methods\":[");
    for (int i = 0; i < c->n_methods; i++) {
        const method_t *m = &c->m[i];
        printf("%s{\"name\":", i ? "," : "");
        hs_json_string(stdout, m->name);
        printf(",\"seconds\":%.3f,\"points\":[", m->seconds);
        for (int k = 0; k < N_COLS; k++)
            printf("%s%ld", k ? "," : "", m->points[k]);
        printf("],\"agreed\":[");
        for (int k = 0; k < N_COLS; k++)
            printf("%s%ld", k ? "," : "", m->agreed[k]);
        printf("],\"agreement\":[");
        for (int k = 0; k < N_COLS; k++) {
            if (m->points[k])
                printf("%s%.6f", k ? "," : "", (double)m->agreed[k] / (double)m->points[k]);
            else
                printf("%snull", k ? "," : "");
        }
        printf("]}");
    }
    printf("]}\n");
}

static void s_free(ctx_t *c)
{
    for (int i = 0; i < c->n_methods; i++) {
        hs_nn_evaluator_free(&c->m[i].ev);
        hs_nn_model_free(&c->m[i].model);
    }
    free(c->games);
    free(c->items);
    free(c->pos);
    free(c->out);
}

/* Reads, measures and prints; 0 or the first error. */
static int s_run(ctx_t *c, hs_error_t *err)
{
    hs_json_doc_t *doc = NULL;
    double t0 = s_now();
    int rc = s_read_json(c->labels, &doc, err);
    if (!rc)
        rc = s_games(c, hs_json_root(doc), err);
    if (!rc)
        rc = s_setup(c, err);
    if (!rc && c->n_methods == 0)
        rc = hs_error_set(err, HS_EINVAL, "nothing to measure: give --net or leave the judge on");
    if (!rc)
        rc = s_shards(c, hs_json_root(doc), err);
    if (!rc && c->json)
        s_print_json(c, s_now() - t0);
    else if (!rc)
        s_print_table(c, s_now() - t0);
    hs_json_free(&doc);
    return rc;
}

int main(int argc, char **argv)
{
    ctx_t *c = calloc(1, sizeof *c);     /* large (the judge's and influence's maps) */
    if (!c) {
        fprintf(stderr, "bench_ownership: out of memory\n");
        return 1;
    }
    int rc = s_args(argc, argv, c);
    hs_error_t err = {0};
    if (!rc && s_run(c, &err)) {
        fprintf(stderr, "bench_ownership: %s\n", err.msg);
        rc = 1;
    }
    s_free(c);
    free(c);
    return rc;
}
