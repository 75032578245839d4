/*
 * tests/test_store_growth.c — the store's write path under pressure: the derived
 * eval index (bulk flushes, a crash and the rebuild, random key order, a flush
 * that fills the map, a big flush in parts that leaves few free pages) and map growth from tiny maps on every write path (evals,
 * journal updates, deletes). Records, queries and the journal are
 * tests/test_store.c; the shared helpers are tests/store_fixture.h.
 */
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"
#include "store/store_internal.h"
#include "store_fixture.h"
#include "test.h"

static void test_map_growth(void)
{
    const char *dir = s_newdir("grow");
    hs_store_t *s = NULL;
    hs_error_t err;
    /* 256 KiB: the first batches overflow it at a put and at commit time. */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 256 << 10, &err), 0);
    if (!s)
        return;
    size_t before = hs_store_map_size(s);
    uint64_t gid[2] = { 42, 42 };
    s_write_evals(s, gid, 0, 6000, 700, &err);
    size_t after = hs_store_map_size(s);
    printf("map grew from %zu to %zu bytes\n", before, after);
    HS_CHECK(after >= 4 * before);
    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
    HS_CHECK_INT(st.evals, 6000);
    HS_CHECK_INT(st.positions, 6000);
    /* every record reads back intact */
    s_evs_t ev = { 0 };
    HS_CHECK_INT(hs_store_game_evals(s, gid, 0, -1, 0, s_collect_evals, &ev, &err), 0);
    HS_CHECK_INT(ev.n, 4000);   /* 4000 moves per game in s_write_evals */
    uint64_t gid2[2] = { gid[0] + 1, gid[1] };
    s_evs_t ev2 = { 0 };
    HS_CHECK_INT(hs_store_game_evals(s, gid2, 0, -1, 0, s_collect_evals, &ev2, &err), 0);
    HS_CHECK_INT(ev2.n, 2000);
    int ok = 1;
    for (int i = 0; i < 64 && i < ev.n; i++)
        ok &= ev.score[i] == (float)i;
    HS_CHECK(ok);
    hs_store_close(&s);
    s_rm_dir(dir);
}
/* The derived index: flushed in bulk, seen by readers after a flush, rebuilt after a
 * crash (a child writes and _exits without closing), so nothing is stored twice. */
static void test_index_flush_and_crash(void)
{
    const char *dir = s_newdir("crash");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    hs_error_t err;
    uint64_t gid[2] = { 9, 9 };
    pid_t pid = fork();
    if (pid == 0) {
        hs_store_t *w = NULL;
        if (hs_store_open(&w, dirbuf, 0, 0, NULL))
            _exit(2);
        hs_store_set_index_flush(w, 300);
        s_write_evals(w, gid, 0, 1000, 64, NULL);
        _exit(hs_test_failed ? 3 : 0);   /* crash: no close, no final flush */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    HS_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* A reader sees every record through the game, and the flushed part of the index. */
    hs_store_t *r = NULL;
    HS_CHECK_INT(hs_store_open(&r, dirbuf, HS_STORE_RDONLY, 0, &err), 0);
    if (!r)
        return;
    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(r, &st, &err), 0);
    HS_CHECK_INT(st.evals, 1000);
    hs_eval_t e;
    s_eval(&e, 0, 0x5000000ull, 0, "judge");   /* the first record written */
    HS_CHECK_INT(hs_store_eval_get(r, e.engine_id, e.pos_key, NULL, &err), 0);
    s_eval(&e, 999, 0x5000000ull + 999, 0, "judge");   /* after the last flush */
    HS_CHECK_INT(hs_store_eval_get(r, e.engine_id, e.pos_key, NULL, &err), HS_ENOTFOUND);
    s_evs_t ev = { 0 };
    HS_CHECK_INT(hs_store_game_evals(r, gid, 0, -1, 0, s_collect_evals, &ev, &err), 0);
    HS_CHECK_INT(ev.n, 1000);
    hs_store_close(&r);
    /* The writer reopens: the unflushed tail is rebuilt, so replaying every result
     * stores nothing new. */
    hs_store_t *w = NULL;
    HS_CHECK_INT(hs_store_open(&w, dirbuf, 0, 0, &err), 0);
    if (!w)
        return;
    HS_CHECK_INT(hs_store_eval_get(w, e.engine_id, e.pos_key, NULL, &err), 0);
    s_write_evals(w, gid, 0, 1000, 100, &err);
    HS_CHECK_INT(hs_store_stats(w, &st, &err), 0);
    HS_CHECK_INT(st.evals, 1000);
    HS_CHECK_INT(st.positions, 1000);
    HS_CHECK_INT(st.result_dups, 1000);
    hs_store_close(&w);   /* flushes the index */
    HS_CHECK_INT(hs_store_open(&r, dirbuf, HS_STORE_RDONLY, 0, &err), 0);
    if (r) {
        HS_CHECK_INT(hs_store_eval_get(r, e.engine_id, e.pos_key, NULL, &err), 0);
        hs_store_close(&r);
    }
    s_rm_dir(dirbuf);
}

typedef struct { int n; uint64_t id0; int move; } s_pos_hits_t;
static int s_pos_hit(void *ctx, const uint64_t id[2], int move_number)
{
    s_pos_hits_t *h = ctx;
    h->n++;
    h->id0 = id[0];
    h->move = move_number;
    return 0;
}

typedef struct { int n; char spec[64]; } s_engines_t;
static int s_engine_seen(void *ctx, uint32_t id, const char *spec)
{
    s_engines_t *c = ctx;
    c->n++;
    snprintf(c->spec, sizeof c->spec, "%s", spec);
    return id == hs_engine_config_id(spec) ? 0 : -1;
}

/*
 * The pending index under load: keys in random order, many flushes into an index
 * that already holds keys (the flush appends what sorts after the last key and
 * inserts the rest), a tiny map that must grow in the middle of flushes, an
 * aborted batch whose entries must vanish from the pending table, and duplicates
 * found in the pending table and in the flushed index. Afterwards a reader finds
 * every record through the index with its own data.
 */
static void test_index_flush_random(void)
{
    const char *dir = s_newdir("flushrnd");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    hs_error_t err;
    hs_store_t *w = NULL;
    HS_CHECK_INT(hs_store_open(&w, dirbuf, HS_STORE_NOSYNC, 64u << 10, &err), 0);
    if (!w)
        return;
    hs_store_set_index_flush(w, 97);
    enum { N = 2000, B = 50 };
    const uint64_t mix = 0x9e3779b97f4a7c15ull;
    uint64_t gid[2] = { 7, 7 }, gabort[2] = { 8, 8 };
    int dups = 0, bad = 0;
    hs_eval_t e;
    for (int b = 0; b < N / B; b++) {
        HS_CHECK_INT(hs_store_begin(w, &err), 0);
        for (int i = 0; i < B; i++) {
            int n = b * B + i;
            s_eval(&e, n, (uint64_t)(n + 1) * mix, (float)(n % 41 - 20), "judge");
            bool dup = true;
            bad += hs_store_result_put(w, gid, &e, "judge", &dup, &err) != 0 || dup;
        }
        if (b == 13) {
            /* A batch that is aborted: its keys must not be found afterwards. */
            HS_CHECK_INT(hs_store_commit(w, &err), 0);
            HS_CHECK_INT(hs_store_begin(w, &err), 0);
            for (int i = 0; i < B; i++) {
                s_eval(&e, i, (uint64_t)(100000 + i) * mix, 1.0f, "judge");
                bad += hs_store_result_put(w, gabort, &e, "judge", NULL, &err) != 0;
            }
            hs_store_abort(w);
            HS_CHECK_INT(hs_store_begin(w, &err), 0);
        }
        if (b % 7 == 6) {
            /* Replays of earlier results (some pending, some flushed): stored once. */
            for (int i = 0; i < 20; i++) {
                int n = (b * B + i * 37) % (b * B + B);
                s_eval(&e, n, (uint64_t)(n + 1) * mix, (float)(n % 41 - 20), "judge");
                bool dup = false;
                bad += hs_store_result_put(w, gid, &e, "judge", &dup, &err) != 0;
                dups += dup;
            }
        }
        HS_CHECK_INT(hs_store_commit(w, &err), 0);
    }
    HS_CHECK_INT(bad, 0);
    HS_CHECK_INT(dups, 20 * (N / B / 7));
    HS_CHECK(hs_store_map_size(w) > (64u << 10));
    /* The aborted keys are gone from the writer's view too. */
    s_eval(&e, 3, (uint64_t)(100000 + 3) * mix, 1.0f, "judge");
    HS_CHECK_INT(hs_store_eval_get(w, e.engine_id, e.pos_key, NULL, &err), HS_ENOTFOUND);
    hs_store_close(&w);   /* flushes the rest */

    hs_store_t *r = NULL;
    HS_CHECK_INT(hs_store_open(&r, dirbuf, HS_STORE_RDONLY, 0, &err), 0);
    if (!r)
        return;
    int missing = 0, wrong = 0;
    for (int n = 0; n < N; n++) {
        s_eval(&e, n, (uint64_t)(n + 1) * mix, 0, "judge");
        hs_eval_t got;
        if (hs_store_eval_get(r, e.engine_id, e.pos_key, &got, &err) != 0) {
            missing++;
            continue;
        }
        wrong += got.move_number != n || got.score_lead != (float)(n % 41 - 20)
                 || memcmp(got.pos_key, e.pos_key, 16) != 0 || !got.ownership
                 || got.ownership[5] != (int8_t)((5 + n) % 201 - 100);
        hs_eval_fini(&got);
    }
    HS_CHECK_INT(missing, 0);
    HS_CHECK_INT(wrong, 0);
    for (int i = 0; i < B; i += 7) {
        s_eval(&e, i, (uint64_t)(100000 + i) * mix, 1.0f, "judge");
        HS_CHECK_INT(hs_store_eval_get(r, e.engine_id, e.pos_key, NULL, &err), HS_ENOTFOUND);
    }
    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(r, &st, &err), 0);
    HS_CHECK_INT(st.evals, N);
    HS_CHECK_INT(st.positions, N);
    /* Every game evals come back in move order, decoded from the records. */
    s_evs_t ev = { 0 };
    HS_CHECK_INT(hs_store_game_evals(r, gid, 0, 63, 0, s_collect_evals, &ev, &err), 0);
    HS_CHECK_INT(ev.n, 64);
    int order = 0;
    for (int i = 0; i < 64; i++)
        order += ev.mn[i] == i && ev.score[i] == (float)(i % 41 - 20);
    HS_CHECK_INT(order, 64);
    /* Position -> games (a scan) and the engines table. */
    s_pos_hits_t h = { 0 };
    s_eval(&e, 1234, (uint64_t)(1234 + 1) * mix, 0, "judge");
    HS_CHECK_INT(hs_store_position_games(r, e.pos_key, s_pos_hit, &h, &err), 0);
    HS_CHECK_INT(h.n, 1);
    HS_CHECK_INT(h.move, 1234);
    HS_CHECK(h.id0 == 7);
    s_eval(&e, 3, (uint64_t)(100000 + 3) * mix, 0, "judge");
    h.n = 0;
    HS_CHECK_INT(hs_store_position_games(r, e.pos_key, s_pos_hit, &h, &err), 0);
    HS_CHECK_INT(h.n, 0);
    s_engines_t en = { 0 };
    HS_CHECK_INT(hs_store_engines_each(r, s_engine_seen, &en, &err), 0);
    HS_CHECK_INT(en.n, 1);
    HS_CHECK_STR(en.spec, "judge");
    hs_store_close(&r);
    s_rm_dir(dirbuf);
}

/* One batch of n evals from a 64 KiB map, then close (the index flush). Returns
 * whether the flush grew the map; checks every eval is found through the index. */
static bool s_flush_attempt(int n)
{
    const char *dir = s_newdir("flushfull");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    hs_error_t err;
    hs_store_t *w = NULL;
    HS_CHECK_INT(hs_store_open(&w, dirbuf, HS_STORE_NOSYNC, 64u << 10, &err), 0);
    if (!w)
        return false;
    hs_store_set_index_flush(w, 1u << 20);
    const uint64_t mix = 0xc2b2ae3d27d4eb4full;
    uint64_t gid[2] = { 3, 3 };
    hs_eval_t e;
    int bad = 0;
    HS_CHECK_INT(hs_store_begin(w, &err), 0);
    for (int k = 0; k < n; k++) {
        s_eval(&e, k, (uint64_t)(k + 1) * mix, (float)(k % 17), "judge");
        bad += hs_store_result_put(w, gid, &e, "judge", NULL, &err) != 0;
    }
    HS_CHECK_INT(hs_store_commit(w, &err), 0);
    HS_CHECK_INT(bad, 0);
    size_t before = hs_store_map_size(w);
    hs_store_close(&w);   /* the flush */
    hs_store_t *r = NULL;
    HS_CHECK_INT(hs_store_open(&r, dirbuf, HS_STORE_RDONLY, 0, &err), 0);
    if (!r)
        return false;
    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(r, &st, &err), 0);
    HS_CHECK_INT(st.evals, n);
    int missing = 0;
    for (int k = 0; k < n; k++) {
        s_eval(&e, k, (uint64_t)(k + 1) * mix, 0, "judge");
        missing += hs_store_eval_get(r, e.engine_id, e.pos_key, NULL, &err) != 0;
    }
    HS_CHECK_INT(missing, 0);
    bool grew = st.map_size > before;
    hs_store_close(&r);
    s_rm_dir(dirbuf);
    return grew;
}

/*
 * The index flush runs in a transaction of its own and must survive MDB_MAP_FULL
 * too (grow, redo from the pending table). Whether a given flush overflows
 * depends on the slack the batch left, so try batch sizes until one does (LMDB's
 * allocation is deterministic: the same sizes overflow on every run).
 */
static void test_index_flush_map_full(void)
{
    int grew = 0;
    for (int n = 400; n <= 8000 && !grew; n += 200)
        grew += s_flush_attempt(n);
    HS_CHECK_INT(grew, 1);
}

/* Free pages and evalidx pages of a closed store, read with LMDB directly (the
 * free list is table 0: each value a count of page numbers, then the numbers). */
static void s_free_pages(const char *dir, size_t *free_pages, size_t *index_pages)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_cursor *c;
    MDB_dbi dbi;
    MDB_stat st;
    MDB_val k, v;
    *free_pages = *index_pages = 0;
    mdb_env_create(&env);
    mdb_env_set_maxdbs(env, 32);
    if (mdb_env_open(env, dir, MDB_RDONLY, 0664) == 0
        && mdb_txn_begin(env, NULL, MDB_RDONLY, &txn) == 0) {
        if (mdb_cursor_open(txn, 0, &c) == 0) {
            while (mdb_cursor_get(c, &k, &v, MDB_NEXT) == 0)
                *free_pages += *(const size_t *)v.mv_data;
            mdb_cursor_close(c);
        }
        if (mdb_dbi_open(txn, "evalidx", 0, &dbi) == 0 && mdb_stat(txn, dbi, &st) == 0)
            *index_pages = st.ms_branch_pages + st.ms_leaf_pages;
        mdb_txn_abort(txn);
    }
    mdb_env_close(env);
}

/* A flush of many entries goes in parts of consecutive keys, so the last one
 * leaves only a part's worth of the index behind as free pages (one transaction
 * left nearly the whole index: 97 bytes a position on the pro archive). */
static void test_index_flush_parts(void)
{
    const char *dir = s_newdir("flushparts");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    hs_error_t err;
    hs_store_t *w = NULL;
    HS_CHECK_INT(hs_store_open(&w, dirbuf, HS_STORE_NOSYNC, 0, &err), 0);
    if (!w)
        return;
    enum { BATCH = 40000, BATCHES = 4 };
    hs_store_set_index_flush(w, BATCH);
    const uint64_t mix = 0x9E3779B97F4A7C15ull;
    uint64_t gid[2] = { 5, 5 };
    hs_eval_t e;
    int bad = 0;
    for (int b = 0; b < BATCHES; b++) {
        HS_CHECK_INT(hs_store_begin(w, &err), 0);
        for (int k = b * BATCH; k < (b + 1) * BATCH; k++) {
            s_eval(&e, k % 400, (uint64_t)(k + 1) * mix, 0, "judge");
            bad += hs_store_result_put(w, gid, &e, "judge", NULL, &err) != 0;
        }
        HS_CHECK_INT(hs_store_commit(w, &err), 0);   /* and the flush after it */
    }
    HS_CHECK_INT(bad, 0);
    hs_store_close(&w);
    size_t free_pages, index_pages;
    s_free_pages(dirbuf, &free_pages, &index_pages);
    printf("after %d flushes: %zu free pages, %zu index pages\n", BATCHES, free_pages,
           index_pages);
    HS_CHECK(index_pages > 0 && free_pages * 2 < index_pages);
    hs_store_t *r = NULL;
    HS_CHECK_INT(hs_store_open(&r, dirbuf, HS_STORE_RDONLY, 0, &err), 0);
    if (r) {
        int missing = 0;
        for (int k = 0; k < BATCH * BATCHES; k++) {
            s_eval(&e, k % 400, (uint64_t)(k + 1) * mix, 0, "judge");
            missing += hs_store_eval_get(r, e.engine_id, e.pos_key, NULL, &err) != 0;
        }
        HS_CHECK_INT(missing, 0);
        hs_store_close(&r);
    }
    s_rm_dir(dirbuf);
}

/* Deletes and journal updates (taskstate index moves: a delete then a put) fill a
 * tiny map too: every write path must grow it and replay, never report
 * MDB_MAP_FULL (a full-archive analyze once died with "taskstate: MDB_MAP_FULL"). */
static void test_map_growth_journal(void)
{
    const char *dir = s_newdir("growj");
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 64 << 10, &err), 0);
    if (!s)
        return;
    size_t before = hs_store_map_size(s);
    hs_store_job_t j;
    memset(&j, 0, sizeof j);
    snprintf(j.engines, sizeof j.engines, "noop");
    HS_CHECK_INT(hs_store_job_create(s, &j, &err), 0);
    enum { N = 4000 };
    /* Tasks created a few at a time (small batches): the map grows only a little. */
    for (int i = 0; i < N; i += 200) {
        HS_CHECK_INT(hs_store_begin(s, &err), 0);
        for (int k = i; k < i + 200; k++) {
            hs_store_task_t t = { .job_id = j.id, .game_id = { (uint64_t)k, 7 },
                                  .state = HS_TASK_QUEUED, .move_first = 0,
                                  .move_last = k % 300, .move_step = 1 };
            snprintf(t.reason, sizeof t.reason, "%0*d", 40 + k % 80, k);
            HS_CHECK_INT(hs_store_task_create(s, &t, &err), 0);
        }
        HS_CHECK_INT(hs_store_commit(s, &err), 0);
    }
    size_t mid = hs_store_map_size(s);
    /* Then whole-journal transitions in single batches: every task's state index
     * entry is deleted and re-put, and its record rewritten (copy-on-write of
     * every page), then a batch of deletes only (job records rewritten). */
    const hs_task_state_t steps[] = { HS_TASK_LEASED, HS_TASK_QUEUED, HS_TASK_LEASED,
                                      HS_TASK_DONE };
    int failures = 0;
    for (size_t st = 0; st < sizeof steps / sizeof steps[0]; st++) {
        HS_CHECK_INT(hs_store_begin(s, &err), 0);
        for (uint64_t id = 1; id <= N; id++) {
            hs_store_task_t t;
            if (hs_store_task_get(s, id, &t, &err) != 0) {
                failures++;
                continue;
            }
            t.state = steps[st];
            t.attempts++;
            if (hs_store_task_put(s, &t, &err) != 0) {
                if (failures++ == 0)
                    printf("task_put failed: %s\n", err.msg);
            }
        }
        HS_CHECK_INT(hs_store_commit(s, &err), 0);
    }
    HS_CHECK_INT(failures, 0);
    size_t after = hs_store_map_size(s);
    printf("journal map grew from %zu to %zu, then %zu bytes\n", before, mid, after);
    HS_CHECK(after > mid);
    int64_t n = -1;
    HS_CHECK_INT(hs_store_task_count(s, HS_TASK_DONE, &n, &err), 0);
    HS_CHECK_INT(n, N);
    HS_CHECK_INT(hs_store_task_count(s, HS_TASK_QUEUED, &n, &err), 0);
    HS_CHECK_INT(n, 0);
    HS_CHECK_INT(hs_store_task_count(s, HS_TASK_LEASED, &n, &err), 0);
    HS_CHECK_INT(n, 0);
    hs_store_task_t t;
    HS_CHECK_INT(hs_store_task_get(s, N, &t, &err), 0);
    HS_CHECK_INT(t.attempts, 4);
    HS_CHECK_INT(t.move_last, (N - 1) % 300);
    hs_store_close(&s);
    s_rm_dir(dir);
}

/* Deletes alone fill a map too (each one copies its leaf page): reopen a store
 * with its map cut to the pages in use, then delete every other index entry in
 * one batch. Uses the store's internal write calls (store_internal.h), which
 * every public write goes through. */
static void test_map_growth_deletes(void)
{
    const char *dir = s_newdir("growd");
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 64 << 10, &err), 0);
    if (!s)
        return;
    enum { N = 20000 };
    uint8_t k[9];
    for (int i = 0; i < N; i += 500) {
        HS_CHECK_INT(hs_store_begin(s, &err), 0);
        for (int n = i; n < i + 500; n++) {
            k[0] = 9;
            hs__be64(k + 1, (uint64_t)n);
            HS_CHECK_INT(hs__store_put(s, HS_DB_TASKSTATE, k, 9, "", 0, 0, &err), 0);
        }
        HS_CHECK_INT(hs_store_commit(s, &err), 0);
    }
    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
    hs_store_close(&s);
    /* LMDB accepts a map as small as the pages in use: no room left at all. */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 4096, &err), 0);
    if (!s)
        return;
    size_t before = hs_store_map_size(s);
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    int failures = 0;
    for (int n = 0; n < N; n += 2) {
        k[0] = 9;
        hs__be64(k + 1, (uint64_t)n);
        if (hs__store_del(s, HS_DB_TASKSTATE, k, 9, &err) != 0 && failures++ == 0)
            printf("delete failed: %s\n", err.msg);
    }
    HS_CHECK_INT(failures, 0);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    printf("deletes: map %zu bytes used of %zu, grew from %zu to %zu\n", st.map_used,
           st.map_size, before, hs_store_map_size(s));
    HS_CHECK(hs_store_map_size(s) > before);
    /* exactly the odd keys are left */
    MDB_txn *txn;
    bool own;
    HS_CHECK_INT(hs__store_rtxn(s, &txn, &own, &err), 0);
    MDB_stat ms;
    mdb_stat(txn, s->dbi[HS_DB_TASKSTATE], &ms);
    HS_CHECK_INT((int)ms.ms_entries, N / 2);
    k[0] = 9;
    hs__be64(k + 1, 1);
    MDB_val kv = { 9, k }, dv;
    HS_CHECK_INT(mdb_get(txn, s->dbi[HS_DB_TASKSTATE], &kv, &dv), 0);
    hs__be64(k + 1, 2);
    HS_CHECK_INT(mdb_get(txn, s->dbi[HS_DB_TASKSTATE], &kv, &dv), MDB_NOTFOUND);
    hs__store_rdone(txn, own);
    hs_store_close(&s);
    s_rm_dir(dir);
}

int main(void)
{
    test_index_flush_and_crash();
    test_index_flush_random();
    test_index_flush_map_full();
    test_index_flush_parts();
    test_map_growth();
    test_map_growth_journal();
    test_map_growth_deletes();
    return hs_test_finish();
}
