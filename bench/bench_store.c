/*
 * bench/bench_store.c — store write throughput and one-game query latency.
 *
 *   bench_store [--records N] [--batch B] [--moves M] [--nosync] [--no-query] [--dir DIR]
 *
 * 1. Ours: N eval records (19x19: ownership int8[361], score, win rate, result)
 *    of N/M games × M moves, through hs_store_result_put in batches of B per
 *    transaction (each put = moves entry + hash-keyed index entry + appended record).
 * 2. Peer, same run, same machine: raw LMDB, N puts of values of exactly our
 *    record's size under sequential big-endian keys with MDB_APPEND, B per
 *    transaction, same sync setting — the fastest LMDB can write those bytes.
 * 3. One-game query latency: a read-only handle (as `hyeongse query` opens it)
 *    fetches every eval of a random game (hs_store_game_evals, decoded), 2,000
 *    times; p50 / p99 / max of wall time and of the thread's CPU time (on a
 *    shared machine the wall p99 is mostly time spent descheduled). Twice: first
 *    as the games come, then after every game was read once (pages mapped).
 *    Also the full query path to JSON lines (/dev/null).
 *
 * Prints one line per figure and the ratio ours / raw. Figures move between runs on
 * shared machines; the ratio is what to read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lmdb.h>

#include "core/rules.h"
#include "store/query.h"
#include "store/store.h"

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void s_rmdb(const char *dir)
{
    char p[600];
    snprintf(p, sizeof p, "%s/data.mdb", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/lock.mdb", dir);
    unlink(p);
    rmdir(dir);
}

/* CPU time of this thread: separates our cost from time spent descheduled on a
 * shared, overloaded machine (wall-clock p99 there is mostly the scheduler). */
static double s_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (user + system: LMDB's writes and fsyncs count). */
static double s_pcpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double s_loadavg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

static uint64_t s_rng = 88172645463325252ull;
static uint64_t s_rand(void)
{
    s_rng ^= s_rng << 13;
    s_rng ^= s_rng >> 7;
    s_rng ^= s_rng << 17;
    return s_rng;
}

static int s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int s_noop(void *ctx, const hs_eval_t *e)
{
    (*(long *)ctx) += e->move_number;
    return 0;
}

int main(int argc, char **argv)
{
    long n = 300000, batch = 10000, moves = 250;
    bool nosync = false, query = true;
    char base[512] = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--records") && i + 1 < argc) n = atol(argv[++i]);
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc) batch = atol(argv[++i]);
        else if (!strcmp(argv[i], "--moves") && i + 1 < argc) moves = atol(argv[++i]);
        else if (!strcmp(argv[i], "--nosync")) nosync = true;
        else if (!strcmp(argv[i], "--no-query")) query = false;
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) snprintf(base, sizeof base, "%s", argv[++i]);
        else {
            fprintf(stderr, "usage: bench_store [--records N] [--batch B] [--moves M] [--nosync] [--no-query] [--dir DIR]\n");
            return 2;
        }
    }
    if (!base[0]) {
        snprintf(base, sizeof base, "/tmp/hs-bench-store-XXXXXX");
        if (!mkdtemp(base)) { perror("mkdtemp"); return 1; }
    }
    mkdir(base, 0777);
    char ours[600], raw[600];
    snprintf(ours, sizeof ours, "%s/ours", base);
    snprintf(raw, sizeof raw, "%s/raw", base);
    s_rmdb(ours);
    s_rmdb(raw);
    long games = (n + moves - 1) / moves;
    printf("store bench: %ld eval records (%ld games x %ld moves, 19x19), %ld per transaction, %s commits; load average %.1f on %ld CPUs\n",
           n, games, moves, batch, nosync ? "unsynced" : "synced", s_loadavg(),
           sysconf(_SC_NPROCESSORS_ONLN));

    /* ---- ours ---- */
    hs_store_t *s = NULL;
    hs_error_t err;
    if (hs_store_open(&s, ours, nosync ? HS_STORE_NOSYNC : 0, 1u << 30, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    int8_t own[361];
    hs_eval_t e;
    memset(&e, 0, sizeof e);
    e.size = 19;
    e.engine_id = hs_engine_config_id("judge");
    e.ownership = own;
    e.result = "B+3.5";
    uint64_t *gids = malloc(sizeof *gids * 2 * (size_t)games);
    for (long g = 0; g < games; g++) {
        gids[2 * g] = s_rand();
        gids[2 * g + 1] = s_rand();
    }
    /* Game records (not timed): the query path reads them for players and source. */
    hs_game_move_t *mv = malloc(sizeof *mv * (size_t)moves);
    for (long i = 0; i < moves; i++)
        mv[i] = (hs_game_move_t){ (uint16_t)(s_rand() % 361), (uint8_t)(i % 2 ? HS_WHITE : HS_BLACK) };
    hs_store_begin(s, &err);
    for (long g = 0; g < games; g++) {
        hs_game_t gm;
        memset(&gm, 0, sizeof gm);
        gm.size = 19;
        gm.komi = 6.5;
        gm.rules = hs_rules_get(HS_RULES_JAPANESE);
        gm.moves = mv;
        gm.num_moves = (int)moves;
        gm.black = "Black Player";
        gm.white = "White Player";
        gm.id[0] = gids[2 * g];
        gm.id[1] = gids[2 * g + 1];
        char src[64];
        snprintf(src, sizeof src, "bench.tar.gz:game%ld.sgf", g);
        if (hs_store_game_put(s, &gm, src, 1, NULL, &err)) {
            fprintf(stderr, "game put: %s\n", err.msg);
            return 1;
        }
    }
    if (hs_store_commit(s, &err)) {
        fprintf(stderr, "commit: %s\n", err.msg);
        return 1;
    }
    free(mv);
    /* record size for the raw peer: encode one as the store does (schema byte + eval) */
    for (int i = 0; i < 361; i++)
        own[i] = (int8_t)(s_rand() % 201 - 100);
    e.score_lead = 1.5f;
    e.win_rate = 0.5f;
    hs_wire_buf_t one = { 0 };
    hs_wire_encode_eval(&e, &one, NULL);
    size_t recsize = one.len + 1;
    hs_wire_buf_free(&one);

    double t0 = s_now(), c0 = s_pcpu();
    long done = 0;
    int rc = 0;
    while (done < n && rc == 0) {
        rc = hs_store_begin(s, &err);
        for (long i = 0; i < batch && done < n && rc == 0; i++, done++) {
            long g = done / moves;
            e.move_number = (int)(done % moves);
            for (int k = 0; k < 16; k++)
                e.pos_key[k] = (uint8_t)s_rand();
            own[done % 361] = (int8_t)(done % 201 - 100);
            e.score_lead = (float)(done % 41) - 20.0f;
            e.win_rate = (float)(done % 101) / 100.0f;
            e.timing_us = (uint32_t)(done % 1000);
            rc = hs_store_result_put(s, &gids[2 * g], &e, "judge", NULL, &err);
        }
        if (rc == 0)
            rc = hs_store_commit(s, &err);
    }
    double t_ours = s_now() - t0, c_ours = s_pcpu() - c0;
    if (rc) {
        fprintf(stderr, "write: %s\n", err.msg);
        return 1;
    }
    hs_store_stats_t st;
    hs_store_stats(s, &st, &err);
    hs_store_close(&s);

    /* ---- raw LMDB MDB_APPEND of records of the same size ---- */
    mkdir(raw, 0777);
    MDB_env *env;
    MDB_dbi dbi;
    MDB_txn *txn;
    mdb_env_create(&env);
    mdb_env_set_mapsize(env, (size_t)1 << 32);
    /* The same flags as the store's writer (store/store.c). */
    if (mdb_env_open(env, raw, nosync ? MDB_NOSYNC | MDB_WRITEMAP : 0, 0664)) {
        fprintf(stderr, "raw open failed\n");
        return 1;
    }
    uint8_t *val = malloc(recsize);
    memset(val, 0x5a, recsize);
    t0 = s_now();
    c0 = s_pcpu();
    done = 0;
    mdb_txn_begin(env, NULL, 0, &txn);
    mdb_dbi_open(txn, NULL, 0, &dbi);
    mdb_txn_commit(txn);
    while (done < n) {
        mdb_txn_begin(env, NULL, 0, &txn);
        for (long i = 0; i < batch && done < n; i++, done++) {
            uint8_t key[8];
            for (int k = 0; k < 8; k++)
                key[k] = (uint8_t)((uint64_t)done >> (56 - 8 * k));
            val[done % recsize] = (uint8_t)done;
            MDB_val kv = { 8, key }, dv = { recsize, val };
            if (mdb_put(txn, dbi, &kv, &dv, MDB_APPEND)) {
                fprintf(stderr, "raw put failed\n");
                return 1;
            }
        }
        mdb_txn_commit(txn);
    }
    double t_raw = s_now() - t0, c_raw = s_pcpu() - c0;
    mdb_env_close(env);
    free(val);

    double r_ours = n / t_ours, r_raw = n / t_raw;
    printf("write  ours: %10.0f eval records/s  (%.2f s, CPU %.2f s; record %zu bytes; map used %.1f MB)\n",
           r_ours, t_ours, c_ours, recsize, st.map_used / 1e6);
    printf("write  raw LMDB MDB_APPEND, same size: %10.0f puts/s  (%.2f s, CPU %.2f s)\n", r_raw,
           t_raw, c_raw);
    printf("write  ratio ours/raw: %.2f   goal >= 200000 records/s: %s\n", r_ours / r_raw,
           r_ours >= 200000 ? "met" : "NOT met");

    if (!query) {
        free(gids);
        s_rmdb(ours);
        s_rmdb(raw);
        rmdir(base);
        return 0;
    }
    /* ---- one-game query latency (read-only handle) ---- */
    if (hs_store_open(&s, ours, HS_STORE_RDONLY, 0, &err)) {
        fprintf(stderr, "reopen: %s\n", err.msg);
        return 1;
    }
    enum { Q = 2000 };
    double *lat = malloc(sizeof *lat * Q), *cpu = malloc(sizeof *cpu * Q);
    long sink = 0;
    /* Pass 1: random games as they come (the first query of a game in this process
     * also maps its pages: minor faults). Pass 2: the same, after every game was
     * read once (a long-lived reader: pages mapped, page cache warm). */
    for (int pass = 1; pass <= 2; pass++) {
        if (pass == 2)
            for (long g = 0; g < games; g++)
                hs_store_game_evals(s, &gids[2 * g], 0, -1, 0, s_noop, &sink, &err);
        for (int i = 0; i < Q; i++) {
            long g = (long)(s_rand() % (uint64_t)games);
            double a = s_now(), c = s_cpu();
            if (hs_store_game_evals(s, &gids[2 * g], 0, -1, 0, s_noop, &sink, &err)) {
                fprintf(stderr, "game evals: %s\n", err.msg);
                return 1;
            }
            lat[i] = (s_now() - a) * 1e6;
            cpu[i] = (s_cpu() - c) * 1e6;
        }
        qsort(lat, Q, sizeof *lat, s_cmp_double);
        qsort(cpu, Q, sizeof *cpu, s_cmp_double);
        const char *what = pass == 1 ? "first touch" : "mapped";
        printf("query  one game, all %ld evals decoded (%s): wall p50 %.0f us  p99 %.0f us  max %.0f us   goal p99 < 1000 us: %s\n",
               moves, what, lat[Q / 2], lat[Q * 99 / 100], lat[Q - 1],
               lat[Q * 99 / 100] < 1000 ? "met" : "NOT met");
        printf("query  same (%s), CPU time of the querying thread: p50 %.0f us  p99 %.0f us  max %.0f us\n",
               what, cpu[Q / 2], cpu[Q * 99 / 100], cpu[Q - 1]);
    }
    free(cpu);
    FILE *devnull = fopen("/dev/null", "w");
    for (int i = 0; i < Q; i++) {
        long g = (long)(s_rand() % (uint64_t)games);
        hs_query_t q;
        hs_query_init(&q);
        char hex[33];
        uint8_t k[16];
        for (int b = 0; b < 8; b++) {
            k[b] = (uint8_t)(gids[2 * g] >> (56 - 8 * b));
            k[8 + b] = (uint8_t)(gids[2 * g + 1] >> (56 - 8 * b));
        }
        q.game = hs_key_hex(k, hex);
        q.format = HS_QUERY_JSONL;
        double a = s_now();
        int qrc = hs_query_run(s, &q, devnull, NULL, &err);
        lat[i] = (s_now() - a) * 1e6;
        if (qrc) {
            fprintf(stderr, "query: %s\n", err.msg);
            return 1;
        }
    }
    fclose(devnull);
    qsort(lat, Q, sizeof *lat, s_cmp_double);
    printf("query  one game as JSON lines (hs_query_run, game record + %ld rows): p50 %.0f us  p99 %.0f us  max %.0f us\n",
           moves, lat[Q / 2], lat[Q * 99 / 100], lat[Q - 1]);
    hs_store_close(&s);
    free(lat);
    free(gids);
    s_rmdb(ours);
    s_rmdb(raw);
    rmdir(base);
    return sink == -1;
}
