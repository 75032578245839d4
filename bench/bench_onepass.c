/*
 * bench/bench_onepass.c — what a one-pass embedded analyze would spend beside
 * the engines: an experiment for issue 11's goal (< 10% of the CPU outside the
 * engines in the README's first command), not a path of the program.
 *
 *   bench_onepass ARCHIVE... --db DIR [--threads N] [--engines LIST]
 *                 [--store full|games|none] [--maps LIST] [--shared-index]
 *
 * docs/PERF.md found that the cluster's path (broker thread, wire, per-position
 * B-tree entries) costs about twice what the goal allows, and estimated from
 * parts measured alone what a path of another shape could reach. This program
 * is that path, so the estimate becomes a measurement:
 *   - the archive is read and parsed (ingest, all games kept in memory);
 *   - N engine threads take whole games: one replay, every position keyed and
 *     evaluated by every engine in batches, each eval encoded as the store
 *     encodes it (store/store_codec.c: the default maps, changes against the
 *     same engine's record at the move before, chains of at most 16) into one
 *     value a game;
 *   - one writer thread stores each game as analyze does (hs_store_game_put:
 *     the game record, its player, source and board index entries) and its
 *     evals as that one value, appended under a growing number (MDB_APPEND);
 *   - at the end the position index (engine id + position key -> game number,
 *     move) is written in key order in one pass, with MDB_APPEND.
 * The evals go to an LMDB environment of their own in DIR/onepass (no reader
 * of the program reads it). `--store games` stores the games but not the evals
 * or the index; `--store none` stores nothing (the engines and the encoding
 * still run): the floor of the threads' own work. `--maps LIST` keeps these
 * maps in the records (as analyze --maps; default ownership,classes);
 * `--shared-index` writes one index entry a position (its evals by every
 * engine are in the same value) instead of one per engine and position.
 *
 * Prints the CPU inside the engine calls (thread CPU time around them, as
 * analyze counts it) against the process's, and where the rest went: the
 * ingest (main thread), the engine threads outside the calls, the writer, the
 * index pass.
 */
#include <inttypes.h>
#include <lmdb.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/replay.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "worker/engine.h"
#include "worker/stability.h"

#define S_BATCH 64
#define S_ENGINES 4
#define S_GAMES_PER_COMMIT 64
#define S_QUEUE 64

enum { S_STORE_FULL, S_STORE_GAMES, S_STORE_NONE };

typedef struct {
    uint8_t key[20];   /* engine id (big-endian) + position key */
    uint64_t game;     /* the game's number in `gameevals` */
    uint16_t move;
} s_index_t;

/* One analysed game on its way to the writer. */
typedef struct {
    int game;                 /* index into the run's games */
    hs_buf_t blob;            /* the game's eval records */
    s_index_t *index;         /* its position index entries (game number unset) */
    int num_index;
} s_done_t;

typedef struct {
    /* the archive */
    hs_game_t *games;
    char **sources;
    int num_games, cap_games;
    /* the run */
    const char *db;
    int threads, store, num_engines;
    unsigned maps;          /* HS_STORE_MAP_* bits the records keep */
    bool shared_index;      /* one index entry a position, not one per engine */
    char specs[S_ENGINES][64];
    uint32_t engine_ids[S_ENGINES];
    atomic_int next_game;
    /* engine threads -> writer */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    s_done_t *queue[S_QUEUE];
    int q_head, q_len, producers;
    /* the writer's */
    s_index_t *index;
    size_t num_index, cap_index;
    uint64_t positions, blob_bytes;
    /* figures */
    double engine_cpu, engine_threads_cpu, writer_cpu, index_cpu, index_sort_cpu;
    int failed;
    hs_error_t err;
} s_run_t;

/* ---- the archive ---- */

static int s_keep_game(void *ctx, const char *source, int index, hs_game_t *g)
{
    (void)index;
    s_run_t *r = ctx;
    if (r->num_games == r->cap_games) {
        int cap = r->cap_games ? 2 * r->cap_games : 1024;
        hs_game_t *gs = realloc(r->games, (size_t)cap * sizeof *gs);
        char **ss = gs ? realloc(r->sources, (size_t)cap * sizeof *ss) : NULL;
        if (!ss) {
            if (gs)
                r->games = gs;
            return 1;
        }
        r->games = gs;
        r->sources = ss;
        r->cap_games = cap;
    }
    r->sources[r->num_games] = strdup(source ? source : "");
    r->games[r->num_games++] = *g;   /* moved: the pipeline's copy is reset */
    hs_game_init(g, 19);
    return 0;
}

/* ---- an engine thread ---- */

typedef struct {
    s_run_t *run;
    hs_engine_t eng[S_ENGINES];
    hs_stability_memo_t *memo;
    hs_board_t boards[S_BATCH];
    hs_engine_pos_t pos[S_BATCH];
    uint8_t keys[S_BATCH][16];
    hs_engine_result_t *results;          /* S_BATCH per engine */
    /* each engine's record at the move before, the base of the next one */
    hs_eval_t prev[S_ENGINES];
    int8_t prev_own[S_ENGINES][HS_ENGINE_MAX_VERTICES];
    int16_t prev_infl[S_ENGINES][HS_ENGINE_MAX_VERTICES];
    char prev_cls[S_ENGINES][HS_ENGINE_MAX_VERTICES + 1];
    int prev_depth[S_ENGINES], prev_move[S_ENGINES];
    uint8_t rec[HS_STORE_EVAL_MAX];
    double engine_cpu;
} s_thread_t;

static void s_varint(hs_buf_t *b, uint64_t v)
{
    uint8_t out[10];
    int n = 0;
    do {
        out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    hs_buf_put(b, out, (size_t)n);
}

/* The eval of result r for position i, its arrays borrowed from r. */
static void s_eval_of(const s_thread_t *t, int i, int e, const hs_engine_result_t *r,
                      hs_eval_t *ev)
{
    int size = t->pos[i].game->size, nv = size * size;
    memset(ev, 0, sizeof *ev);
    ev->move_number = t->pos[i].move_number;
    memcpy(ev->pos_key, t->keys[i], 16);
    ev->engine_id = t->run->engine_ids[e];
    ev->size = size;
    ev->score_lead = (r->flags & HS_ENGINE_HAS_SCORE) ? r->score : NAN;
    ev->win_rate = (r->flags & HS_ENGINE_HAS_WINRATE) ? r->winrate : NAN;
    if ((r->flags & HS_ENGINE_HAS_OWNERSHIP) && r->num_vertices == nv)
        ev->ownership = (int8_t *)r->ownership;
    if ((r->flags & HS_ENGINE_HAS_CLASSES) && r->num_vertices == nv)
        ev->classes = (char *)r->classes;
    if ((r->flags & HS_ENGINE_HAS_INFLUENCE) && r->num_vertices == nv)
        ev->influence = (int16_t *)r->influence;
    if ((r->flags & HS_ENGINE_HAS_RESULT) && r->result[0])
        ev->result = (char *)r->result;
    if (r->flags & HS_ENGINE_HAS_SPREAD)
        ev->score_stdev = r->score_stdev;
}

/* Keeps ev's maps as engine e's base for the next record. */
static void s_keep_prev(s_thread_t *t, int e, const hs_eval_t *ev, int depth)
{
    size_t nv = (size_t)ev->size * (size_t)ev->size;
    hs_eval_t *p = &t->prev[e];
    *p = *ev;
    p->result = NULL;
    p->ownership = ev->ownership ? memcpy(t->prev_own[e], ev->ownership, nv) : NULL;
    p->influence = ev->influence ? memcpy(t->prev_infl[e], ev->influence, 2 * nv) : NULL;
    p->classes = ev->classes ? memcpy(t->prev_cls[e], ev->classes, nv + 1) : NULL;
    t->prev_depth[e] = depth;
    t->prev_move[e] = ev->move_number;
}

/* Engine e's record of position i into the game's blob. */
static int s_encode(s_thread_t *t, int i, int e, s_done_t *d, hs_error_t *err)
{
    hs_eval_t ev;
    s_eval_of(t, i, e, &t->results[e * S_BATCH + i], &ev);
    bool linked = t->prev_move[e] == ev.move_number - 1 &&
                  t->prev_depth[e] < HS__STORE_CHAIN_MAX - 1 && t->prev[e].size == ev.size;
    hs__store_base_t base = { .seq = (uint64_t)ev.move_number - 1,
                              .depth = t->prev_depth[e], .e = &t->prev[e] };
    size_t len = 0;
    bool chained = false;
    int rc = hs__store_eval_encode_on(&ev, t->run->maps, linked ? &base : NULL,
                                      (uint64_t)ev.move_number, t->rec, &len, &chained, err);
    if (rc < 0)
        return rc;
    s_varint(&d->blob, len);
    hs_buf_put(&d->blob, t->rec, len);
    s_keep_prev(t, e, &ev, chained ? t->prev_depth[e] + 1 : 0);
    if (e > 0 && t->run->shared_index)
        return 0;
    s_index_t *x = &d->index[d->num_index++];
    uint32_t id = t->run->shared_index ? 0 : t->run->engine_ids[e];
    x->key[0] = (uint8_t)(id >> 24);
    x->key[1] = (uint8_t)(id >> 16);
    x->key[2] = (uint8_t)(id >> 8);
    x->key[3] = (uint8_t)id;
    memcpy(x->key + 4, t->keys[i], 16);
    x->move = (uint16_t)ev.move_number;
    return 0;
}

/* Every engine on the batch's n positions, then their records. */
static int s_flush(s_thread_t *t, int n, s_done_t *d, hs_error_t *err)
{
    for (int e = 0; e < t->run->num_engines; e++) {
        hs_engine_result_t *res = &t->results[e * S_BATCH];
        for (int i = 0; i < n; i++) {
            res[i].flags = 0;
            res[i].num_vertices = 0;
            res[i].classes[0] = res[i].result[0] = '\0';
        }
        double c0 = hs_clock_thread_cpu();
        int rc = hs_engine_evaluate(&t->eng[e], t->pos, n, res, err);
        t->engine_cpu += hs_clock_thread_cpu() - c0;
        if (rc < 0)
            return rc;
    }
    for (int i = 0; i < n; i++)
        for (int e = 0; e < t->run->num_engines; e++) {
            int rc = s_encode(t, i, e, d, err);
            if (rc < 0)
                return rc;
        }
    return 0;
}

static int s_game(s_thread_t *t, int k, s_done_t *d, hs_error_t *err)
{
    const hs_game_t *g = &t->run->games[k];
    d->game = k;
    d->index = malloc(((size_t)g->num_moves + 1) * (size_t)t->run->num_engines *
                      sizeof *d->index);
    if (!d->index)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    for (int e = 0; e < t->run->num_engines; e++)
        t->prev_move[e] = -2;
    hs_replay_t r;
    int rc = hs_replay_start(&r, g, err), n = 0;
    for (int m = 0; rc == 0 && m <= g->num_moves; m++) {
        if ((rc = hs_replay_to(&r, m, err)) < 0)
            break;
        hs_board_copy(&t->boards[n], &r.board);
        t->pos[n] = (hs_engine_pos_t){ .game = g, .board = &t->boards[n], .move_number = m };
        hs_replay_key(&r, t->keys[n]);
        if (++n == S_BATCH || m == g->num_moves) {
            rc = s_flush(t, n, d, err);
            n = 0;
        }
    }
    hs_replay_fini(&r);
    return rc;
}

static void s_push(s_run_t *run, s_done_t *d)
{
    pthread_mutex_lock(&run->mu);
    while (run->q_len == S_QUEUE)
        pthread_cond_wait(&run->cv, &run->mu);
    run->queue[(run->q_head + run->q_len++) % S_QUEUE] = d;
    pthread_cond_broadcast(&run->cv);
    pthread_mutex_unlock(&run->mu);
}

static void *s_engine_thread(void *arg)
{
    s_thread_t *t = arg;
    s_run_t *run = t->run;
    hs_error_t err = { 0 };
    int k;
    while ((k = atomic_fetch_add(&run->next_game, 1)) < run->num_games) {
        s_done_t *d = calloc(1, sizeof *d);
        if (!d || s_game(t, k, d, &err) < 0) {
            fprintf(stderr, "bench_onepass: game %d (%s): %s\n", k, run->sources[k],
                    d ? err.msg : "out of memory");
            if (d) {
                hs_buf_fini(&d->blob);
                free(d->index);
                free(d);
            }
            pthread_mutex_lock(&run->mu);
            run->failed++;
            pthread_mutex_unlock(&run->mu);
            err = (hs_error_t){ 0 };
            continue;
        }
        s_push(run, d);
    }
    pthread_mutex_lock(&run->mu);
    run->producers--;
    run->engine_cpu += t->engine_cpu;
    run->engine_threads_cpu += hs_clock_thread_cpu();
    pthread_cond_broadcast(&run->cv);
    pthread_mutex_unlock(&run->mu);
    return NULL;
}

/* ---- the writer ---- */

typedef struct {
    s_run_t *run;
    hs_store_t *st;
    MDB_env *env;
    MDB_dbi evals, index;
    MDB_txn *txn;
    uint64_t next;   /* the next game number */
    int pending;     /* games in the open batch */
} s_writer_t;

static int s_mdb(hs_error_t *err, int rc, const char *what)
{
    return rc ? hs_error_set(err, HS_ESTORE, "%s: %s", what, mdb_strerror(rc)) : 0;
}

static int s_writer_open(s_writer_t *w, hs_error_t *err)
{
    s_run_t *r = w->run;
    if (r->store == S_STORE_NONE)
        return 0;
    int rc = hs_store_open(&w->st, r->db, HS_STORE_NOSYNC, 0, err);
    if (rc < 0 || r->store != S_STORE_FULL)
        return rc;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/onepass", r->db);
    mkdir(dir, 0755);
    MDB_txn *txn;
    if ((rc = s_mdb(err, mdb_env_create(&w->env), "mdb_env_create")) ||
        (rc = s_mdb(err, mdb_env_set_maxdbs(w->env, 4), "mdb_env_set_maxdbs")) ||
        (rc = s_mdb(err, mdb_env_set_mapsize(w->env, (size_t)64 << 30), "mapsize")) ||
        (rc = s_mdb(err, mdb_env_open(w->env, dir, MDB_WRITEMAP | MDB_NOSYNC, 0644),
                    "mdb_env_open")) ||
        (rc = s_mdb(err, mdb_txn_begin(w->env, NULL, 0, &txn), "mdb_txn_begin")))
        return rc;
    if ((rc = s_mdb(err, mdb_dbi_open(txn, "gameevals", MDB_CREATE, &w->evals), "dbi")) ||
        (rc = s_mdb(err, mdb_dbi_open(txn, "posindex", MDB_CREATE, &w->index), "dbi"))) {
        mdb_txn_abort(txn);
        return rc;
    }
    return s_mdb(err, mdb_txn_commit(txn), "mdb_txn_commit");
}

static int s_writer_begin(s_writer_t *w, hs_error_t *err)
{
    int rc = hs_store_begin(w->st, err);
    if (rc == 0 && w->env && (rc = s_mdb(err, mdb_txn_begin(w->env, NULL, 0, &w->txn),
                                         "mdb_txn_begin")) < 0)
        hs_store_abort(w->st);
    return rc;
}

static int s_writer_commit(s_writer_t *w, hs_error_t *err)
{
    int rc = hs_store_commit(w->st, err);
    if (w->txn) {
        int m = mdb_txn_commit(w->txn);
        w->txn = NULL;
        rc = rc ? rc : s_mdb(err, m, "mdb_txn_commit");
    }
    w->pending = 0;
    return rc;
}

static int s_keep_index(s_run_t *r, s_done_t *d, uint64_t game)
{
    if (r->num_index + (size_t)d->num_index > r->cap_index) {
        size_t cap = r->cap_index ? 2 * r->cap_index : (size_t)1 << 20;
        while (cap < r->num_index + (size_t)d->num_index)
            cap *= 2;
        s_index_t *x = realloc(r->index, cap * sizeof *x);
        if (!x)
            return HS_ENOMEM;
        r->index = x;
        r->cap_index = cap;
    }
    for (int i = 0; i < d->num_index; i++) {
        d->index[i].game = game;
        r->index[r->num_index++] = d->index[i];
    }
    return 0;
}

static int s_write_game(s_writer_t *w, s_done_t *d, hs_error_t *err)
{
    s_run_t *r = w->run;
    r->positions += (uint64_t)r->games[d->game].num_moves + 1;
    r->blob_bytes += d->blob.len;
    if (r->store == S_STORE_NONE)
        return 0;
    int rc = w->pending == 0 ? s_writer_begin(w, err) : 0;
    if (rc < 0)
        return rc;
    bool existed = false;
    if ((rc = hs_store_game_put(w->st, &r->games[d->game], r->sources[d->game], 0, &existed,
                                err)) < 0)
        return rc;
    if (w->env) {
        uint8_t key[8];
        uint64_t n = w->next++;
        for (int i = 0; i < 8; i++)
            key[i] = (uint8_t)(n >> (56 - 8 * i));
        MDB_val k = { 8, key }, v = { d->blob.len, d->blob.p };
        if ((rc = s_mdb(err, mdb_put(w->txn, w->evals, &k, &v, MDB_APPEND), "put")) < 0)
            return rc;
        if (s_keep_index(r, d, n) < 0)
            return hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    return ++w->pending == S_GAMES_PER_COMMIT ? s_writer_commit(w, err) : 0;
}

static s_done_t *s_pop(s_run_t *run)
{
    pthread_mutex_lock(&run->mu);
    while (run->q_len == 0 && run->producers > 0)
        pthread_cond_wait(&run->cv, &run->mu);
    s_done_t *d = NULL;
    if (run->q_len > 0) {
        d = run->queue[run->q_head];
        run->q_head = (run->q_head + 1) % S_QUEUE;
        run->q_len--;
        pthread_cond_broadcast(&run->cv);
    }
    pthread_mutex_unlock(&run->mu);
    return d;
}

static int s_index_cmp(const void *a, const void *b)
{
    const s_index_t *x = a, *y = b;
    int c = memcmp(x->key, y->key, 20);
    return c ? c : x->game < y->game ? -1 : x->game > y->game;
}

static uint64_t s_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* Sorts x[0..n) by key as the index wants it: LSD radix over the key's first
 * 8 bytes (engine id, the first half of the position key), 8 bits a pass,
 * stable, then the rare runs equal there by the whole key: the index's keys
 * are hashes, where qsort's compares were most of the pass. */
static int s_index_sort(s_index_t *x, size_t n)
{
    s_index_t *tmp = malloc(n * sizeof *tmp);
    uint64_t *k = malloc(n * sizeof *k), *ktmp = malloc(n * sizeof *ktmp);
    if (!tmp || !k || !ktmp) {
        free(tmp);
        free(k);
        free(ktmp);
        return HS_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = s_be64(x[i].key);
    for (int shift = 0; shift < 64; shift += 8) {
        size_t count[257] = { 0 };
        for (size_t i = 0; i < n; i++)
            count[(k[i] >> shift & 0xff) + 1]++;
        if (count[(k[0] >> shift & 0xff) + 1] == n)
            continue;   /* every key has this byte (engine id bytes) */
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++) {
            size_t j = count[k[i] >> shift & 0xff]++;
            tmp[j] = x[i];
            ktmp[j] = k[i];
        }
        memcpy(x, tmp, n * sizeof *x);
        memcpy(k, ktmp, n * sizeof *k);
    }
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && k[j] == k[i]; j++)
            ;
        if (j - i > 1)
            qsort(x + i, j - i, sizeof *x, s_index_cmp);
    }
    free(tmp);
    free(k);
    free(ktmp);
    return 0;
}

/* The position index in key order, one pass; a repeated key keeps its first. */
static int s_write_index(s_writer_t *w, hs_error_t *err)
{
    s_run_t *r = w->run;
    double c0 = hs_clock_thread_cpu();
    if (r->num_index && s_index_sort(r->index, r->num_index) < 0)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    double c1 = hs_clock_thread_cpu();
    MDB_txn *txn;
    int rc = s_mdb(err, mdb_txn_begin(w->env, NULL, 0, &txn), "mdb_txn_begin");
    for (size_t i = 0; rc == 0 && i < r->num_index; i++) {
        if (i > 0 && !memcmp(r->index[i].key, r->index[i - 1].key, 20))
            continue;
        uint8_t val[10];
        memcpy(val, &r->index[i].game, 8);
        memcpy(val + 8, &r->index[i].move, 2);
        MDB_val k = { 20, r->index[i].key }, v = { 10, val };
        rc = s_mdb(err, mdb_put(txn, w->index, &k, &v, MDB_APPEND), "put index");
    }
    rc = rc ? (mdb_txn_abort(txn), rc) : s_mdb(err, mdb_txn_commit(txn), "mdb_txn_commit");
    r->index_cpu = hs_clock_thread_cpu() - c0;
    r->index_sort_cpu = c1 - c0;
    return rc;
}

static void *s_writer_thread(void *arg)
{
    s_writer_t *w = arg;
    s_run_t *r = w->run;
    int rc = s_writer_open(w, &r->err);
    s_done_t *d;
    while ((d = s_pop(r))) {
        if (rc == 0)
            rc = s_write_game(w, d, &r->err);
        hs_buf_fini(&d->blob);
        free(d->index);
        free(d);
    }
    if (rc == 0 && w->pending > 0)
        rc = s_writer_commit(w, &r->err);
    double c = hs_clock_thread_cpu();
    if (rc == 0 && w->env)
        rc = s_write_index(w, &r->err);
    r->writer_cpu = c;
    if (w->env)
        mdb_env_close(w->env);
    hs_store_close(&w->st);
    if (rc < 0)
        r->failed = -1;
    return NULL;
}

/* ---- the run ---- */

static int s_engines_init(s_thread_t *t, hs_error_t *err)
{
    s_run_t *r = t->run;
    if (!(t->memo = hs_stability_memo_new()) ||
        !(t->results = malloc(sizeof *t->results * S_BATCH * (size_t)r->num_engines)))
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    for (int e = 0; e < r->num_engines; e++) {
        hs_engine_config_t cfg = { .gpu = -1, .stability_memo = t->memo };
        char name[64];
        snprintf(name, sizeof name, "%s", r->specs[e]);
        char *colon = strchr(name, ':');
        if (colon) {
            *colon = '\0';
            cfg.options = colon + 1;
        }
        int rc = hs_engine_init(&t->eng[e], name, &cfg, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int s_parse_engines(s_run_t *r, const char *list, hs_error_t *err)
{
    char canon[1024];
    int rc = hs_engine_canonical_list(list, S_ENGINES, HS_ENGINE_THIS_BUILD, canon,
                                      sizeof canon, err);
    if (rc < 0)
        return rc;
    for (char *p = strtok(canon, ","); p; p = strtok(NULL, ",")) {
        snprintf(r->specs[r->num_engines], sizeof r->specs[0], "%s", p);
        r->engine_ids[r->num_engines++] = hs_engine_config_id(p);
    }
    return 0;
}

static int s_usage(void)
{
    fprintf(stderr, "usage: bench_onepass ARCHIVE... --db DIR [--threads N] "
                    "[--engines LIST] [--store full|games|none] [--maps LIST] "
                    "[--shared-index]\n");
    return 2;
}

static void s_report(const s_run_t *r, double wall, double cpu, double ingest_cpu)
{
    double outside = cpu - r->engine_cpu;
    printf("onepass: %d games (%d failed), %" PRIu64 " positions in %.1f s, engines %s",
           r->num_games, r->failed, r->positions, wall, r->specs[0]);
    for (int e = 1; e < r->num_engines; e++)
        printf(",%s", r->specs[e]);
    printf(", store %s\n", r->store == S_STORE_FULL ? "full" : r->store == S_STORE_GAMES
                           ? "games" : "none");
    printf("  cpu        %.1f%% inside engines, %.1f%% outside (%.2f s engine CPU of %.2f s "
           "process CPU)\n", 100.0 * r->engine_cpu / cpu, 100.0 * outside / cpu,
           r->engine_cpu, cpu);
    printf("  outside    %.2f s ingest (main thread), %.2f s engine threads outside engine "
           "calls, %.2f s writer (games, eval values), %.2f s index pass (%.2f s of it the "
           "sort)\n", ingest_cpu, r->engine_threads_cpu - r->engine_cpu, r->writer_cpu,
           r->index_cpu, r->index_sort_cpu);
    if (r->positions)
        printf("  evals      %.1f bytes a position in the game values, %zu index entries\n",
               (double)r->blob_bytes / (double)r->positions, r->num_index);
}

int main(int argc, char **argv)
{
    s_run_t r = { .threads = 2, .store = S_STORE_FULL, .maps = HS_STORE_MAP_DEFAULT };
    const char *engines = "influence,judge";
    const char *paths[64];
    int npaths = 0;
    hs_error_t err = { 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--db") && i + 1 < argc)
            r.db = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            r.threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--engines") && i + 1 < argc)
            engines = argv[++i];
        else if (!strcmp(argv[i], "--store") && i + 1 < argc) {
            const char *s = argv[++i];
            r.store = !strcmp(s, "full") ? S_STORE_FULL : !strcmp(s, "games") ? S_STORE_GAMES
                    : !strcmp(s, "none") ? S_STORE_NONE : -1;
        } else if (!strcmp(argv[i], "--maps") && i + 1 < argc) {
            if (hs_store_maps_parse(argv[++i], &r.maps, &err) < 0)
                return s_usage();
        } else if (!strcmp(argv[i], "--shared-index"))
            r.shared_index = true;
        else if (argv[i][0] == '-' || npaths == 64)
            return s_usage();
        else
            paths[npaths++] = argv[i];
    }
    if (!npaths || !r.db || r.threads < 1 || r.threads > 64 || r.store < 0)
        return s_usage();
    if (s_parse_engines(&r, engines, &err) < 0) {
        fprintf(stderr, "bench_onepass: %s\n", err.msg);
        return 2;
    }
    double t0 = hs_clock_now(), cpu0 = hs_clock_process_cpu();

    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.threads = 1;
    o.on_game = s_keep_game;
    o.ctx = &r;
    hs_ingest_report_t rep;
    int rc = hs_ingest_run(paths, npaths, &o, &rep, &err);
    hs_ingest_report_fini(&rep);
    if (rc < 0) {
        fprintf(stderr, "bench_onepass: %s\n", rc == HS_ECANCELED ? "out of memory" : err.msg);
        return 1;
    }
    double ingest_cpu = hs_clock_thread_cpu();

    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    r.producers = r.threads;
    s_thread_t *ts = calloc((size_t)r.threads, sizeof *ts);
    pthread_t *tid = calloc((size_t)r.threads, sizeof *tid);
    s_writer_t w = { .run = &r };
    pthread_t wid;
    if (!ts || !tid)
        return 1;
    for (int i = 0; i < r.threads; i++) {
        ts[i].run = &r;
        if (s_engines_init(&ts[i], &err) < 0) {
            fprintf(stderr, "bench_onepass: %s\n", err.msg);
            return 1;
        }
    }
    pthread_create(&wid, NULL, s_writer_thread, &w);
    for (int i = 0; i < r.threads; i++)
        pthread_create(&tid[i], NULL, s_engine_thread, &ts[i]);
    for (int i = 0; i < r.threads; i++)
        pthread_join(tid[i], NULL);
    pthread_join(wid, NULL);
    if (r.failed < 0) {
        fprintf(stderr, "bench_onepass: writer: %s\n", r.err.msg);
        return 1;
    }
    s_report(&r, hs_clock_now() - t0, hs_clock_process_cpu() - cpu0, ingest_cpu);

    for (int i = 0; i < r.threads; i++) {
        for (int e = 0; e < r.num_engines; e++)
            hs_engine_fini(&ts[i].eng[e]);
        hs_stability_memo_destroy(&ts[i].memo);
        free(ts[i].results);
    }
    for (int k = 0; k < r.num_games; k++) {
        hs_game_fini(&r.games[k]);
        free(r.sources[k]);
    }
    free(r.games);
    free(r.sources);
    free(r.index);
    free(ts);
    free(tid);
    return 0;
}
