/*
 * tests/test_store_chain.c — maps kept as their changes since the game's move
 * before (map encoding 5, docs/STORE.md "Change-coded maps"): the change coder
 * round-trips and refuses malformed changes; a game's records read back exactly
 * whichever way they are read (in order, one alone, in the batch, after
 * reopening) while most of them are a few bytes; chains end at 16 records, at
 * a repeated position and at a lost batch; a missing base or a forged chain of
 * more than 16 is HS_ECORRUPT, and `check` names it.
 */
#include <lmdb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "store/store_internal.h"
#include "store_fixture.h"
#include "test.h"

#define NN_MAX (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)
#define MOVES 40

static uint64_t s_rng = 0x243F6A8885A308D3ull;
static uint32_t s_rand(void)
{
    s_rng = s_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s_rng >> 33);
}

typedef struct {
    hs_eval_t e;
    int8_t own[NN_MAX];
    int16_t inf[NN_MAX];
    char cls[NN_MAX + 1];
} s_pos_t;

/* Move mn of a game: the position before it with `changes` points changed
 * (all three maps), a fresh map at mn 0. */
static void s_step(s_pos_t *p, const s_pos_t *prev, int size, int mn, uint32_t engine,
                   int changes)
{
    int nn = size * size;
    if (prev)
        *p = *prev;
    else
        for (int i = 0; i < nn; i++) {
            p->own[i] = (int8_t)((int)(s_rand() % 201) - 100);
            p->inf[i] = (int16_t)(s_rand() & 0xFFFF);
            p->cls[i] = " .bwXOxos?BWy"[s_rand() % 13];
        }
    for (int c = 0; prev && c < changes; c++) {
        int i = (int)(s_rand() % (unsigned)nn);
        p->own[i] = (int8_t)((int)(s_rand() % 201) - 100);
        p->inf[i] = (int16_t)(s_rand() & 0xFFFF);
        p->cls[i] = "bwXO"[s_rand() % 4];
    }
    p->cls[nn] = 0;
    hs_eval_t *e = &p->e;
    memset(e, 0, sizeof *e);
    e->move_number = mn;
    e->size = size;
    e->engine_id = engine;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(mn * 7 + i);   /* both engines: one position */
    e->score_lead = (float)mn;
    e->win_rate = NAN;
    e->ownership = p->own;
    e->influence = p->inf;
    e->classes = p->cls;
    e->timing_us = (uint32_t)mn;
}

static int s_same_maps(const hs_eval_t *a, const hs_eval_t *b)
{
    size_t nn = (size_t)a->size * (size_t)a->size;
    return b->size == a->size && b->engine_id == a->engine_id && b->ownership && b->influence
        && b->classes && !memcmp(a->ownership, b->ownership, nn)
        && !memcmp(a->influence, b->influence, 2 * nn) && !strcmp(a->classes, b->classes)
        && b->score_lead == a->score_lead;
}

/* A fresh store in a new folder (tag) keeping every map: NULL on failure. */
static hs_store_t *s_open_all(const char *tag, const char **dir)
{
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    *dir = s_newdir(tag);
    HS_CHECK_INT(hs_store_open(&s, *dir, HS_STORE_NOSYNC | HS_STORE_MAPS(HS_STORE_MAP_ALL), 0,
                               &err), 0);
    return s;
}

static void test_coder(void)
{
    int8_t a[361], b[361];
    int16_t x[361], y[361];
    uint8_t out[10 + 5 * 361];
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 361; i++) {
            a[i] = b[i] = (int8_t)((int)(s_rand() % 201) - 100);
            x[i] = y[i] = (int16_t)(s_rand() & 0xFFFF);
        }
        int changes = (int)(s_rand() % 40);
        for (int c = 0; c < changes; c++) {
            int i = (int)(s_rand() % 361);
            a[i] = (int8_t)((int)(s_rand() % 201) - 100);
            x[i] = (int16_t)(s_rand() & 0xFFFF);
        }
        for (int w = 1; w <= 2; w++) {
            const void *cur = w == 1 ? (const void *)a : (const void *)x;
            const void *base = w == 1 ? (const void *)b : (const void *)y;
            size_t n = hs__store_chain_put(out, cur, base, 361, w, 3 + (uint64_t)round, 361);
            HS_CHECK(n >= 3 && out[0] == HS_STORE_MAP_CHAIN);
            const uint8_t *p = out + 1, *end = out + n;
            uint32_t len = 0;
            uint64_t dist;
            HS_CHECK_INT(hs_wire_get_varint(&p, end, &len), 0);
            HS_CHECK(p + len == end);
            HS_CHECK_INT(hs__store_chain_dist(&p, end, &dist), 0);
            HS_CHECK(dist == 3 + (uint64_t)round);
            int8_t ga[361];
            int16_t gx[361];
            memcpy(ga, b, sizeof ga);
            memcpy(gx, y, sizeof gx);
            void *got = w == 1 ? (void *)ga : (void *)gx;
            HS_CHECK_INT(hs__store_chain_apply(p, end, got, 361, w, w == 1 ? -100 : INT16_MIN,
                                               w == 1 ? 100 : INT16_MAX), 0);
            HS_CHECK(!memcmp(got, cur, (size_t)w * 361));
        }
    }
    /* Too many changes: the map is coded whole. */
    memset(a, 1, sizeof a);
    memset(b, 2, sizeof b);
    HS_CHECK_INT((int)hs__store_chain_put(out, a, b, 361, 1, 1, 45), 0);
    /* Malformed: a change past the end, a value out of range, a cut varint. */
    int8_t m[9] = { 0 };
    static const uint8_t past[] = { 9, 1 }, range[] = { 0, 120 }, cut[] = { 0x80 };
    HS_CHECK_INT(hs__store_chain_apply(past, past + 2, m, 9, 1, -100, 100), -1);
    HS_CHECK_INT(hs__store_chain_apply(range, range + 2, m, 9, 1, -100, 100), -1);
    HS_CHECK_INT(hs__store_chain_apply(cut, cut + 1, m, 9, 1, -100, 100), -1);
    static const uint8_t zero[] = { 0 };
    const uint8_t *zp = zero;
    uint64_t d;
    HS_CHECK_INT(hs__store_chain_dist(&zp, zero + 1, &d), -1);   /* a record is not its base */
}

typedef struct { s_pos_t *want; int n, bad, seen; } s_read_t;

static int s_read_cb(void *ctx, const hs_eval_t *e)
{
    s_read_t *r = ctx;
    r->seen++;
    int k = e->move_number * 2 + (e->engine_id == r->want[1].e.engine_id);
    if (k >= r->n || !s_same_maps(&r->want[k].e, e))
        r->bad++;
    return 0;
}

/* Every record of the game, in order and each alone: how many differ. */
static int s_read_all(hs_store_t *s, const uint64_t gid[2], s_pos_t *want, int n)
{
    hs_error_t err = { 0 };
    s_read_t r = { want, n, 0, 0 };
    if (hs_store_game_evals(s, gid, 0, -1, 0, s_read_cb, &r, &err) || r.seen != n)
        return n;
    for (int i = n - 1; i >= 0; i--) {   /* backwards: every chain walked from scratch */
        hs_eval_t got;
        if (hs_store_eval_get(s, want[i].e.engine_id, want[i].e.pos_key, &got, &err)) {
            r.bad++;
            continue;
        }
        r.bad += !s_same_maps(&want[i].e, &got);
        hs_eval_fini(&got);
    }
    return r.bad;
}

/* The stored record of eval sequence number seq: its length (0: none). */
static size_t s_rec_len(const char *dir, uint64_t seq)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    size_t len = 0;
    uint8_t k[8];
    hs__be64(k, seq);
    MDB_val key = { 8, k }, val;
    if (mdb_env_create(&env))
        return 0;
    mdb_env_set_maxdbs(env, 32);
    if (!mdb_env_open(env, dir, MDB_RDONLY, 0644) && !mdb_txn_begin(env, NULL, MDB_RDONLY, &txn)) {
        if (!mdb_dbi_open(txn, "evaldata", 0, &dbi) && !mdb_get(txn, dbi, &key, &val))
            len = val.mv_size;
        mdb_txn_abort(txn);
    }
    mdb_env_close(env);
    return len;
}


/* Counts check's problems with the eval records: [0] all, [1] those of
 * change-coded maps. */
static void s_count_problem(void *ctx, const char *table, const char *what)
{
    int *n = ctx;
    n[0] += !strcmp(table, "evaldata");
    n[1] += !strcmp(table, "evaldata") && strstr(what, "change-coded");
}

static void test_game(void)
{
    static s_pos_t want[2 * MOVES];
    const char *dir;
    hs_store_t *s = s_open_all("chain", &dir);
    hs_error_t err = { 0 };
    uint32_t judge = hs_engine_config_id("judge"), infl = hs_engine_config_id("influence");
    if (!s)
        return;
    uint64_t gid[2] = { 0xC4A1, 7 };
    /* Two engines interleaved, as the broker stores a task's results; move 25
     * changes a third of the board (a record of its own). One batch. */
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int mn = 0; mn < MOVES; mn++)
        for (int k = 0; k < 2; k++) {
            s_pos_t *p = &want[2 * mn + k];
            s_step(p, mn ? &want[2 * (mn - 1) + k] : NULL, 19, mn, k ? infl : judge,
                   mn == 25 ? 120 : 3);
            HS_CHECK_INT(hs_store_result_put(s, gid, &p->e, k ? "influence" : "judge", NULL,
                                             &err), 0);
        }
    HS_CHECK_INT(s_read_all(s, gid, want, 2 * MOVES), 0);   /* inside the batch */
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    HS_CHECK_INT(s_read_all(s, gid, want, 2 * MOVES), 0);
    hs_store_close(&s);
    /* Sequence numbers 1..80 in put order: whole records at moves 0, 16 (the
     * chain is full) and 25 (the big change), for each engine; the others a
     * few dozen bytes. */
    int whole = 0, small = 0;
    for (uint64_t seq = 1; seq <= 2 * MOVES; seq++) {
        size_t n = s_rec_len(dir, seq);
        whole += n > 500;
        small += n > 0 && n < 120;
    }
    HS_CHECK_INT(whole, 2 * 3);
    HS_CHECK_INT(small, 2 * (MOVES - 3));
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (s) {
        HS_CHECK_INT(s_read_all(s, gid, want, 2 * MOVES), 0);
        /* (The games themselves were not stored: only the records count here.) */
        hs_store_check_report_t rep;
        int problems[2] = { 0, 0 };
        HS_CHECK_INT(hs_store_check(s, &rep, s_count_problem, problems, &err), 0);
        HS_CHECK_INT(problems[0], 0);
        hs_store_close(&s);
    }
    s_rm_dir(dir);
}

/* Game gid's moves from..to-1 (both engines) into want[], salted keys; move
 * `repeat` takes the key and maps of other[] instead (a position already stored). */
static void s_game(s_pos_t *want, int from, int to, uint8_t salt, int repeat,
                   const s_pos_t *other)
{
    uint32_t ids[2] = { hs_engine_config_id("judge"), hs_engine_config_id("influence") };
    for (int mn = from; mn < to; mn++)
        for (int k = 0; k < 2; k++) {
            s_pos_t *p = &want[2 * mn + k];
            if (mn == repeat) {
                *p = other[2 * mn + k];
                p->e.ownership = p->own;
                p->e.influence = p->inf;
                p->e.classes = p->cls;
                continue;
            }
            s_step(p, mn ? &want[2 * (mn - 1) + k] : NULL, 19, mn, ids[k], 3);
            p->e.pos_key[15] ^= salt;
        }
}

static int s_put(hs_store_t *s, const uint64_t gid[2], s_pos_t *want, int from, int to)
{
    hs_error_t err = { 0 };
    int rc = 0;
    for (int i = 2 * from; i < 2 * to && !rc; i++)
        rc = hs_store_result_put(s, gid, &want[i].e, i % 2 ? "influence" : "judge", NULL, &err);
    return rc;
}

typedef struct { s_pos_t *want; int from, bad, seen; } s_range_t;
static int s_range_cb(void *ctx, const hs_eval_t *e)
{
    s_range_t *r = ctx;
    r->seen++;
    int k = e->move_number * 2 + (e->engine_id == hs_engine_config_id("influence"));
    r->bad += e->move_number < r->from || !s_same_maps(&r->want[k].e, e);
    return 0;
}

/* A chain ends at a repeated position (not written: the next is whole) and at
 * a lost batch (its records never were). */
static void test_ends(void)
{
    static s_pos_t a[20], b[20], c[20];
    const char *dir;
    hs_store_t *s = s_open_all("chain-ends", &dir);
    hs_error_t err = { 0 };
    if (!s)
        return;
    uint64_t ga[2] = { 1, 1 }, gb[2] = { 2, 2 }, gc[2] = { 3, 3 };
    s_game(a, 0, 10, 0x11, -1, NULL);
    s_game(b, 0, 10, 0x22, 5, a);
    s_game(c, 0, 10, 0x33, -1, NULL);
    HS_CHECK_INT(s_put(s, ga, a, 0, 10), 0);   /* seq 1..20 */
    HS_CHECK_INT(s_put(s, gb, b, 0, 10), 0);   /* 21..30, move 5 repeated, 31..38 */
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    HS_CHECK_INT(s_put(s, gc, c, 0, 5), 0);
    hs_store_abort(s);
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    HS_CHECK_INT(s_put(s, gc, c, 5, 10), 0);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    s_range_t rb = { b, 0, 0, 0 }, rc = { c, 5, 0, 0 };
    HS_CHECK_INT(hs_store_game_evals(s, gb, 0, -1, 0, s_range_cb, &rb, &err), 0);
    HS_CHECK(rb.seen == 20 && rb.bad == 0);
    HS_CHECK_INT(hs_store_game_evals(s, gc, 0, -1, 0, s_range_cb, &rc, &err), 0);
    HS_CHECK(rc.seen == 10 && rc.bad == 0);
    hs_store_close(&s);
    /* Game b: whole at moves 0 and 6 (after the repeat). Game c's first record
     * after the lost batch is whole, whatever sequence number it got. */
    HS_CHECK(s_rec_len(dir, 21) > 500 && s_rec_len(dir, 22) > 500);
    HS_CHECK(s_rec_len(dir, 23) < 120);
    HS_CHECK(s_rec_len(dir, 31) > 500 && s_rec_len(dir, 32) > 500);
    HS_CHECK(s_rec_len(dir, 33) < 120);
    int whole_c = 0;
    for (uint64_t seq = 39; seq < 39 + 20; seq++)
        whole_c += s_rec_len(dir, seq) > 500;
    HS_CHECK_INT(whole_c, 2);
    s_rm_dir(dir);
}

/* Raw LMDB: deletes evaldata seq, or puts n forged records after it. */
static int s_raw(const char *dir, uint64_t seq, const uint8_t (*recs)[HS_STORE_EVAL_MAX],
                 const size_t *lens, int n)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    int rc = mdb_env_create(&env);
    if (rc)
        return rc;
    mdb_env_set_maxdbs(env, 32);
    if (!(rc = mdb_env_open(env, dir, 0, 0644)) && !(rc = mdb_txn_begin(env, NULL, 0, &txn))) {
        rc = mdb_dbi_open(txn, "evaldata", 0, &dbi);
        uint8_t k[8];
        for (int i = 0; !rc && i < (recs ? n : 1); i++) {
            hs__be64(k, seq + (uint64_t)i);
            MDB_val key = { 8, k }, val = { recs ? lens[i] : 0, (void *)(recs ? recs[i] : NULL) };
            rc = recs ? mdb_put(txn, dbi, &key, &val, 0) : mdb_del(txn, dbi, &key, NULL);
        }
        rc = rc ? (mdb_txn_abort(txn), rc) : mdb_txn_commit(txn);
    }
    mdb_env_close(env);
    return rc;
}

/* The eval record seq decoded through a resolver of s: 0 or its error. */
static int s_decode(hs_store_t *s, uint64_t seq, hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    int rc = hs__store_rtxn(s, &txn, &own, err);
    if (rc)
        return rc;
    uint8_t k[8];
    hs__be64(k, seq);
    MDB_val key = { 8, k }, val;
    hs__store_resolver_t *r = hs__store_resolver_new(s, txn);
    hs__store_eval_scratch_t *sc = malloc(sizeof *sc);
    hs_eval_t e;
    if (!r || !sc)
        rc = HS_ENOMEM;
    else if ((rc = mdb_get(txn, s->dbi[HS_DB_EVALDATA], &key, &val)) == 0)
        rc = hs__store_eval_decode(&key, &val, &e, sc, r, err);
    free(sc);
    hs__store_resolver_free(r);
    hs__store_rdone(txn, own);
    return rc;
}


/* A missing base and a chain past 16 records are corrupt, never misread. */
static void test_corrupt(void)
{
    static s_pos_t g[2 * 20];
    static uint8_t recs[20][HS_STORE_EVAL_MAX];
    size_t lens[20];
    const char *dir;
    hs_store_t *s = s_open_all("chain-bad", &dir);
    hs_error_t err = { 0 };
    if (!s)
        return;
    uint64_t gid[2] = { 9, 9 };
    s_game(g, 0, 20, 0x44, -1, NULL);
    HS_CHECK_INT(s_put(s, gid, g, 0, 4), 0);   /* seq 1..8 */
    hs_store_close(&s);
    /* Forged: 17 records of one engine, each the change of the one before. */
    for (int i = 0; i < 17; i++) {
        hs__store_base_t base = { 101 + (uint64_t)i - 1, i - 1, i ? &g[2 * (i - 1)].e : NULL };
        bool chained;
        HS_CHECK_INT(hs__store_eval_encode_on(&g[2 * i].e, HS_STORE_MAP_ALL, i ? &base : NULL,
                                              101 + (uint64_t)i, recs[i], &lens[i], &chained,
                                              &err), 0);
        HS_CHECK(chained == (i > 0));
    }
    HS_CHECK_INT(s_raw(dir, 101, recs, lens, 17), 0);
    HS_CHECK_INT(s_raw(dir, 1, NULL, NULL, 0), 0);   /* game's move 0, judge */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (!s)
        return;
    hs_eval_t got;
    HS_CHECK_INT(hs_store_eval_get(s, g[6].e.engine_id, g[6].e.pos_key, &got, &err),
                 HS_ECORRUPT);
    HS_CHECK(strstr(err.msg, "base record") != NULL);
    HS_CHECK_INT(hs_store_eval_get(s, g[7].e.engine_id, g[7].e.pos_key, &got, &err), 0);
    hs_eval_fini(&got);
    HS_CHECK_INT(s_decode(s, 101 + 15, &err), 0);   /* 16 records: read */
    HS_CHECK_INT(s_decode(s, 101 + 16, &err), HS_ECORRUPT);
    HS_CHECK(strstr(err.msg, "longer than 16") != NULL);
    int problems[2] = { 0, 0 };
    hs_store_check_report_t rep;
    HS_CHECK_INT(hs_store_check(s, &rep, s_count_problem, problems, &err), 0);
    HS_CHECK_INT(problems[1], 4);   /* the 3 after the missing base, the forged 17th */
    hs_store_close(&s);
    s_rm_dir(dir);
}

int main(void)
{
    test_coder();
    test_game();
    test_ends();
    test_corrupt();
    return hs_test_finish();
}
