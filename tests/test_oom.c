/*
 * tests/test_oom.c — allocation failures injected, as SQLite's tests do, into
 * the SGF reader, the wire decoder and the store writer (docs/ARCHITECTURE.md,
 * "Out of memory").
 *
 * The test is linked with -Wl,--wrap=malloc,calloc,realloc,strdup,strndup
 * (tests/CMakeLists.txt), so every call to them from this file and from our
 * static libraries lands in __wrap_*; calls inside shared libraries (LMDB,
 * msgpack-c, libc itself) are not counted. For N = 1, 2, ... the N-th counted
 * allocation of a run returns NULL, until a run completes without reaching N;
 * then again with every allocation from the N-th on failing (SQLite's
 * "persistent" mode: the error paths must not need memory either).
 * Each run must either give exactly the result of a run without failures, or
 * fail with HS_ENOMEM, and must not crash or leak (the ASan build checks
 * leaks). The store run also reopens the store and checks that it holds
 * exactly the batches whose commit returned 0. The report's tables
 * (reports/stats.h) must count a game whole or not at all: the tables of an
 * armed run equal those of a clean run over the games whose add returned 0.
 * The report's pictures (reports/picture.h) are run the same way, as SVG and as PNG (cairo's own
 * allocations are inside its shared library and not counted; ours are).
 */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/sgf.h"
#include "core/wire.h"
#include "core/poskey.h"
#include "reports/stats.h"
#include "reports/picture.h"
#include "store/store.h"
#include "test.h"

/* ---- the countdown ---- */

/* File-scope because __wrap_malloc gets no context; the test has one thread. */
static long s_fail_at;   /* 0: off; else the s_fail_at-th allocation fails */
static long s_count;     /* allocations counted since s_arm */
static bool s_fired;     /* the run reached s_fail_at */
static bool s_persist;   /* every allocation from s_fail_at on fails, not only that one */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static bool s_fail(void)
{
    if (s_fail_at <= 0)
        return false;
    ++s_count;
    if (s_count != s_fail_at && !(s_persist && s_count > s_fail_at))
        return false;
    s_fired = true;
    return true;
}

void *__wrap_malloc(size_t n) { return s_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return s_fail() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return s_fail() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return s_fail() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return s_fail() ? NULL : __real_strndup(s, n); }

static void s_arm(long n)
{
    s_fail_at = n;
    s_count = 0;
    s_fired = false;
}

static void s_disarm(void)
{
    s_fail_at = 0;
}

/* Runs over N = 1, 2, ... stop when a run did not reach N, or at this many. */
#define S_MAX_RUNS 200000

/* ---- inputs ---- */

typedef struct blob {
    char name[256];
    uint8_t *data;
    size_t len;
} blob_t;

static bool s_slurp(const char *path, blob_t *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b->data = malloc(n > 0 ? (size_t)n : 1);
    b->len = n > 0 ? (size_t)n : 0;
    bool ok = b->data && fread(b->data, 1, b->len, f) == b->len;
    fclose(f);
    return ok;
}

/* Every regular file of tests/fuzz/corpus/NAME (the fuzz seeds: real inputs). */
static int s_corpus(const char *name, blob_t *out, int max)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/../fuzz/corpus/%s", hs_test_own_data_dir(), name);
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort), k = 0;
    HS_CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
        if (ents[i]->d_name[0] != '.' && k < max && s_slurp(path, &out[k])) {
            if (snprintf(out[k].name, sizeof out[k].name, "%s/%s", name, ents[i]->d_name) < 0)
                out[k].name[0] = '\0';
            k++;
        }
        free(ents[i]);
    }
    free(ents);
    HS_CHECK(k > 0);
    return k;
}

/* ---- SGF: parse (recovering), write back, game records ---- */

typedef struct sgf_run {
    bool parsed;
    int code;            /* parse error code when !parsed */
    int num_trees, num_failed;
    int write_rc;
    char *text;          /* the writer's output (write_rc == 0) */
    size_t text_len;
    int game_rc[8];      /* hs_game_from_sgf of the first trees */
} sgf_run_t;

static void s_sgf_run(const blob_t *b, sgf_run_t *r)
{
    memset(r, 0, sizeof *r);
    hs_error_t err = { 0 };
    hs_sgf_collection_t *c =
        hs_sgf_parse_ex((const char *)b->data, b->len, NULL, HS_SGF_RECOVER, &err);
    if (!c) {
        r->code = err.code;
        return;
    }
    r->parsed = true;
    r->num_trees = c->num_trees;
    r->num_failed = c->num_failed;
    r->write_rc = hs_sgf_write(c, &r->text, &r->text_len, &err);
    for (int k = 0; k < c->num_trees && k < 8; k++) {
        hs_game_t g;
        r->game_rc[k] = c->trees[k].status ? c->trees[k].status
                                           : hs_game_from_sgf(hs_sgf_root(c, k), &g, &err);
        if (!c->trees[k].status && r->game_rc[k] == 0)
            hs_game_fini(&g);
    }
    hs_sgf_destroy(&c);
}

/* A run with a failure injected against the reference run: the same, or ENOMEM. */
static void s_sgf_compare(const sgf_run_t *ref, const sgf_run_t *r, bool fired)
{
    if (!r->parsed) {
        HS_CHECK(fired);
        HS_CHECK_INT(r->code, ref->parsed ? HS_ENOMEM : ref->code);
        return;
    }
    HS_CHECK(ref->parsed);
    HS_CHECK_INT(r->num_trees, ref->num_trees);
    HS_CHECK_INT(r->num_failed, ref->num_failed);
    if (r->write_rc == 0) {
        HS_CHECK_INT(r->text_len, ref->text_len);
        HS_CHECK(r->text_len == ref->text_len && !memcmp(r->text, ref->text, r->text_len));
    } else {
        HS_CHECK_INT(r->write_rc, HS_ENOMEM);
    }
    for (int k = 0; k < 8; k++)
        if (r->game_rc[k] != ref->game_rc[k])
            HS_CHECK_INT(r->game_rc[k], HS_ENOMEM);
}

static void s_test_sgf(void)
{
    blob_t files[32];
    int n = s_corpus("sgf", files, 32);
    long runs = 0;
    for (int i = 0; i < n; i++) {
        sgf_run_t ref, r;
        s_sgf_run(&files[i], &ref);
        int failed = hs_test_failed;
        for (long at = 1; at < S_MAX_RUNS && hs_test_failed == failed; at++, runs++) {
            s_arm(at);
            s_sgf_run(&files[i], &r);
            s_disarm();
            s_sgf_compare(&ref, &r, s_fired);
            free(r.text);
            if (!s_fired)
                break;
        }
        if (hs_test_failed != failed)
            fprintf(stderr, "  sgf: %s\n", files[i].name);
        free(ref.text);
        free(files[i].data);
    }
    printf("sgf: %d inputs, %ld runs%s\n", n, runs, s_persist ? " (persistent)" : "");
}

/* ---- wire: decode (full and eval-view) ---- */

/* Decodes and re-encodes: 0 with the encoding in *out, or the decoder's code. */
static int s_wire_run(const blob_t *b, unsigned flags, hs_wire_buf_t *out)
{
    hs_wire_msg_t m;
    hs_error_t err = { 0 };
    int rc = flags ? hs_wire_decode_ex(b->data, b->len, flags, &m, &err)
                   : hs_wire_decode(b->data, b->len, &m, &err);
    if (rc)
        return rc;
    bool armed = s_fail_at != 0;
    s_disarm();   /* the encoder is not under test: only the decoder's result */
    HS_CHECK_INT(hs_wire_encode(&m, out, &err), 0);
    if (armed)
        s_fail_at = -1;   /* keep s_fired; nothing more is failed */
    hs_wire_msg_fini(&m);
    return 0;
}

static void s_test_wire(void)
{
    blob_t files[32];
    int n = s_corpus("wire", files, 32);
    long runs = 0;
    for (int i = 0; i < n; i++)
        for (unsigned flags = 0; flags <= HS_WIRE_DECODE_EVAL_VIEW;
             flags += HS_WIRE_DECODE_EVAL_VIEW) {
            hs_wire_buf_t ref = { 0 };
            HS_CHECK_INT(s_wire_run(&files[i], flags, &ref), 0);
            int failed = hs_test_failed;
            for (long at = 1; at < S_MAX_RUNS && hs_test_failed == failed; at++, runs++) {
                hs_wire_buf_t got = { 0 };
                s_arm(at);
                int rc = s_wire_run(&files[i], flags, &got);
                s_disarm();
                if (rc == 0)
                    HS_CHECK(got.len == ref.len && !memcmp(got.data, ref.data, ref.len));
                else
                    HS_CHECK_INT(rc, HS_ENOMEM);
                hs_wire_buf_free(&got);
                if (!s_fired)
                    break;
            }
            if (hs_test_failed != failed)
                fprintf(stderr, "  wire: %s (flags %u)\n", files[i].name, flags);
            hs_wire_buf_free(&ref);
        }
    for (int i = 0; i < n; i++)
        free(files[i].data);
    printf("wire: %d inputs, %ld runs%s\n", n, runs, s_persist ? " (persistent)" : "");
}

/* ---- store: open, three batches, close; then reopen and compare ---- */

#define S_BATCHES 3
#define S_EVALS 4
/* A map this small fills in the first batches, so the commits also take the
 * grow-and-replay path (store/store_internal.h) with its allocations. */
#define S_MAP (32u << 10)

static void s_eval(hs_eval_t *e, int mn, int batch, int8_t *own, int16_t *infl)
{
    memset(e, 0, sizeof *e);
    e->move_number = mn;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(batch * 31 + mn * 7 + i);
    e->engine_id = hs_engine_config_id(batch == 1 ? "judge" : "area");
    e->size = 9;
    e->score_lead = (float)mn - 2.5f;
    e->win_rate = 0.5f;
    for (int i = 0; i < 81; i++) {
        own[i] = (int8_t)((i + mn) % 201 - 100);
        infl[i] = (int16_t)(i * mn);
    }
    e->ownership = own;
    e->influence = infl;
    e->result = "B+1.5";
    e->timing_us = 10;
}

/* One batch: a game and S_EVALS evals of it. */
static int s_store_batch(hs_store_t *s, const hs_game_t *g, int batch, hs_error_t *err)
{
    int rc = hs_store_begin(s, err);
    if (rc == 0)
        rc = hs_store_game_put(s, g, "oom/game.sgf", 0, NULL, err);
    for (int i = 0; i < S_EVALS && rc == 0; i++) {
        hs_eval_t e;
        int8_t own[81];
        int16_t infl[81];
        s_eval(&e, i, batch, own, infl);
        rc = hs_store_result_put(s, g->id, &e, batch == 1 ? "judge" : "area", NULL, err);
    }
    if (rc == 0)
        return hs_store_commit(s, err);
    hs_store_abort(s);
    return rc;
}

static int s_count_evals(void *ctx, const hs_eval_t *e)
{
    (void)e;
    (*(int *)ctx)++;
    return 0;
}

/* Reopens dir as a rerun would (a writer, no failures): it holds exactly the
 * batches in committed[]. */
static void s_store_verify(const char *dir, const hs_game_t *games, const bool *committed)
{
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s) {
        fprintf(stderr, "  reopen: %s\n", err.msg);
        return;
    }
    for (int b = 0; b < S_BATCHES; b++) {
        hs_game_t g;
        int rc = hs_store_game_get(s, games[b].id, &g, NULL, NULL, &err);
        HS_CHECK_INT(rc, committed[b] ? 0 : HS_ENOTFOUND);
        if (rc == 0) {
            HS_CHECK_INT(g.num_moves, games[b].num_moves);
            hs_game_fini(&g);
        }
        int evals = 0;
        HS_CHECK_INT(hs_store_game_evals(s, games[b].id, 0, -1, 0, s_count_evals, &evals, &err), 0);
        HS_CHECK_INT(evals, committed[b] ? S_EVALS : 0);
    }
    hs_store_close(&s);
}

/* One armed run; false when it did not reach the failure point. */
static bool s_store_run(long at, const hs_game_t *games)
{
    char dir[] = "/tmp/hs-test-oom-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    bool committed[S_BATCHES] = { false }, grown = false;
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    s_arm(at);
    int rc = hs_store_open(&s, dir, HS_STORE_NOSYNC, S_MAP, &err);
    if (rc == 0) {
        hs_store_set_index_flush(s, 2);   /* the index flush runs in the commits too */
        for (int b = 0; b < S_BATCHES; b++) {
            int brc = s_store_batch(s, &games[b], b, &err);
            committed[b] = brc == 0;
            if (brc)   /* a failed batch leaves a usable store: the next one goes on */
                HS_CHECK_INT(brc, HS_ENOMEM);
        }
        grown = hs_store_map_size(s) > S_MAP;
        hs_store_close(&s);
    } else {
        HS_CHECK_INT(rc, HS_ENOMEM);
    }
    s_disarm();
    bool fired = s_fired;
    if (!fired) {
        for (int b = 0; b < S_BATCHES; b++)
            HS_CHECK(committed[b]);
        HS_CHECK(grown);   /* the runs did take the grow-and-replay path */
    }
    s_store_verify(dir, games, committed);
    hs_test_rm_store(dir);
    return fired;
}

static void s_test_store(void)
{
    static const char *const names[S_BATCHES] = { "basic.sgf", "fox.sgf", "ff3.sgf" };
    hs_game_t games[S_BATCHES];
    for (int b = 0; b < S_BATCHES; b++) {
        char path[4096];
        blob_t f;
        hs_error_t err = { 0 };
        snprintf(path, sizeof path, "%s/../fuzz/corpus/sgf/%s", hs_test_own_data_dir(), names[b]);
        HS_CHECK(s_slurp(path, &f));
        hs_sgf_collection_t *c = hs_sgf_parse((const char *)f.data, f.len, NULL, &err);
        HS_CHECK(c != NULL);
        if (!c)
            exit(hs_test_finish());
        HS_CHECK_INT(hs_game_from_sgf(hs_sgf_root(c, 0), &games[b], &err), 0);
        hs_game_compute_id(&games[b]);
        hs_sgf_destroy(&c);
        free(f.data);
    }
    long at = 1;
    int failed = hs_test_failed;
    while (at < S_MAX_RUNS && hs_test_failed == failed && s_store_run(at, games))
        at++;
    if (hs_test_failed != failed)
        fprintf(stderr, "  store: the run failing allocation %ld\n", at);
    printf("store: %ld runs%s\n", at, s_persist ? " (persistent)" : "");
    for (int b = 0; b < S_BATCHES; b++)
        hs_game_fini(&games[b]);
}

/* ---- the report's tables ---- */

#define S_STATS_GAMES 6

/* Hand-built games: new and known players, a self-play, a nameless side. */
static void s_stats_games(hs_report_game_t *g)
{
    static const char *const who[S_STATS_GAMES][3] = {
        { "A", "B", "2019" }, { "B", "C", "2019" }, { "A", "B", "2020" },
        { "C", "C", "2018" }, { "D", NULL, "?" }, { "E", "A", "2021" },
    };
    for (int i = 0; i < S_STATS_GAMES; i++) {
        memset(&g[i], 0, sizeof g[i]);
        hs_game_init(&g[i].game, 19);
        g[i].game.black = strdup(who[i][0]);
        g[i].game.white = who[i][1] ? strdup(who[i][1]) : NULL;
        g[i].game.date = strdup(who[i][2]);
        g[i].game.result.winner = HS_WINNER_BLACK;
        g[i].game.num_moves = 4;
        g[i].game.moves = calloc(4, sizeof *g[i].game.moves);
        g[i].pos = calloc(5, sizeof *g[i].pos);
        for (int m = 0; m <= 4; m++) {
            if (m < 4)
                g[i].game.moves[m].color = m % 2 ? HS_WHITE : HS_BLACK;
            g[i].pos[m] = (hs_report_pos_t){ HS_SOURCE_JUDGE, 0.6f, (float)i, -1,
                                             m ? (float)(m + i) * 0.5f : NAN, NAN };
        }
        g[i].analysed = 5;
    }
}

/* The JSON of st (finished) into a string: libc's own allocations are not counted. */
static char *s_stats_json(hs_report_stats_t *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hs_report_stats_finish(st);
    HS_CHECK_INT(hs_report_stats_json(st, f, NULL), 0);
    fclose(f);
    return text;
}

/* One armed run; false when it did not reach the failure point. */
static bool s_stats_run(long at, const hs_report_game_t *g)
{
    hs_report_stats_t st, ref;
    bool added[S_STATS_GAMES];
    hs_report_stats_init(&st);
    s_arm(at);
    for (int i = 0; i < S_STATS_GAMES; i++) {
        int rc = hs_report_stats_add(&st, &g[i], NULL);
        added[i] = rc == 0;
        if (rc)
            HS_CHECK_INT(rc, HS_ENOMEM);
    }
    s_disarm();
    hs_report_stats_init(&ref);
    for (int i = 0; i < S_STATS_GAMES; i++)
        if (added[i])
            HS_CHECK_INT(hs_report_stats_add(&ref, &g[i], NULL), 0);
    char *a = s_stats_json(&st), *b = s_stats_json(&ref);
    HS_CHECK(a && b && !strcmp(a, b));
    free(a);
    free(b);
    hs_report_stats_fini(&st);
    hs_report_stats_fini(&ref);
    return s_fired;
}

static void s_test_stats(void)
{
    hs_report_game_t g[S_STATS_GAMES];
    s_stats_games(g);
    long at = 1;
    int failed = hs_test_failed;
    while (at < S_MAX_RUNS && hs_test_failed == failed && s_stats_run(at, g))
        at++;
    if (hs_test_failed != failed)
        fprintf(stderr, "  stats: the run failing allocation %ld\n", at);
    printf("stats: %ld runs%s\n", at, s_persist ? " (persistent)" : "");
    for (int i = 0; i < S_STATS_GAMES; i++) {
        hs_game_fini(&g[i].game);
        free(g[i].pos);
    }
}

/* ---- the report's pictures: a board with each overlay, a graph ---- */

static int s_picture_run(int what, hs_pic_format_t fmt, char **out, size_t *len)
{
    enum { N = 9 };
    uint8_t st[N * N] = {0};
    int8_t own[N * N];
    int16_t si[N * N];
    for (int i = 0; i < N * N; i++) {
        st[i] = (uint8_t)(i % 7 == 0 ? HS_BLACK : i % 5 == 0 ? HS_WHITE : HS_EMPTY);
        own[i] = (int8_t)(i % N < 4 ? 70 : -60);
        si[i] = (int16_t)(i % N < 4 ? 180 : -150);
    }
    hs_board_label_t label = {2, 2, "7"};
    /* the caption's bad byte takes the text cleaning's allocation too */
    hs_board_pic_t p = {.size = N, .stones = st, .last_x = 0, .last_y = 0, .ownership = own,
                        .influence = si, .labels = &label, .num_labels = 1,
                        .caption = "Move 9 \xff", .width_px = 120};
    float v[12] = {50, 55, 60, NAN, 40, 45, 50, 70, 80, 75, 60, 65};
    int marks[2] = {2, 8};
    hs_graph_t g = {.title = "Win rate", .unit = "%", .values = v, .n = 12, .y_min = 0,
                    .y_max = 100, .y_mid = 50, .marks = marks, .num_marks = 2,
                    .width_px = 200, .height_px = 100};
    hs_error_t err;
    if (what < 3)
        return hs_board_pic_draw(&p, (hs_board_overlay_t)what, fmt, out, len, &err);
    return hs_graph_draw(&g, fmt, out, len, &err);
}

static void s_test_pictures(void)
{
    long runs = 0;
    for (int what = 0; what < 4; what++)
        for (int fmt = HS_PIC_SVG; fmt <= HS_PIC_PNG; fmt++) {
            char *ref, *got;
            size_t ref_len, got_len;
            HS_CHECK_INT(s_picture_run(what, (hs_pic_format_t)fmt, &ref, &ref_len), 0);
            int failed = hs_test_failed;
            for (long at = 1; at < S_MAX_RUNS && hs_test_failed == failed; at++, runs++) {
                s_arm(at);
                int rc = s_picture_run(what, (hs_pic_format_t)fmt, &got, &got_len);
                s_disarm();
                if (rc == 0)
                    HS_CHECK(got_len == ref_len && !memcmp(got, ref, ref_len));
                else
                    HS_CHECK_INT(rc, HS_ENOMEM);
                HS_CHECK(rc == 0 || got == NULL);
                free(got);
                if (!s_fired)
                    break;
            }
            if (hs_test_failed != failed)
                fprintf(stderr, "  pictures: %d (format %d)\n", what, fmt);
            free(ref);
        }
    printf("pictures: %ld runs%s\n", runs, s_persist ? " (persistent)" : "");
}

int main(void)
{
    for (int persist = 0; persist <= 1; persist++) {
        s_persist = persist;
        s_test_sgf();
        s_test_wire();
        s_test_store();
        s_test_stats();
        s_test_pictures();
    }
    return hs_test_finish();
}
