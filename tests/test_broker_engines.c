/*
 * tests/test_broker_engines.c — a task runs only the engines its game still
 * needs (broker/broker_jobs.c, s_game_needs): the store's side of it.
 *   1. hs_store_task_covered_engines: per engine, in one pass, whether every
 *      position a task asks for has an eval of that engine, agreeing with
 *      hs_store_task_covered_engines asked about each engine alone;
 *   2. the task record keeps the engine mask (field 10), so a restarted broker
 *      runs the same engines; a record of the older 10-field layout reads as
 *      every engine (mask 0), and a mask past HS_WIRE_MAX_ENGINES is corrupt.
 * The whole path (a second job adding an engine evaluates only it, a third is
 * done at once, a restart keeps the mask) is tests/test_analyze.sh, part E.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "store/store_internal.h"
#include "test.h"

static void s_eval(hs_eval_t *e, int mn, const char *engine)
{
    memset(e, 0, sizeof *e);
    e->move_number = mn;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(mn * 31 + i);
    e->engine_id = hs_engine_config_id(engine);
    e->size = 9;
    e->score_lead = (float)mn;
    e->timing_us = 1;
}

/* Stores evals of engine for moves first..last of game gid, but skip. */
static void s_put(hs_store_t *s, const uint64_t gid[2], const char *engine, int first, int last,
                  int skip)
{
    for (int mn = first; mn <= last; mn++) {
        if (mn == skip)
            continue;
        hs_eval_t e;
        s_eval(&e, mn, engine);
        HS_CHECK_INT(hs_store_result_put(s, gid, &e, engine, NULL, NULL), 0);
    }
}

/* The mask of hs_store_task_covered_engines asked about each engine alone. */
static uint32_t s_covered_one_by_one(hs_store_t *s, const hs_store_task_t *t,
                                     const uint32_t *ids, int n)
{
    uint32_t m = 0;
    for (int k = 0; k < n; k++) {
        uint32_t c = 0;
        HS_CHECK_INT(hs_store_task_covered_engines(s, t, &ids[k], 1, &c, NULL), 0);
        m |= (c & 1u) << k;
    }
    return m;
}

static void s_test_covered(void)
{
    char dir[] = "/tmp/hs-test-bengines-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    hs_store_t *s = NULL;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, NULL), 0);
    const uint64_t gid[2] = { 0x1234, 0x5678 }, other[2] = { 0x1234, 0x5679 };
    const char *specs[4] = { "influence@2", "judge", "area", "noop" };
    uint32_t ids[4];
    for (int k = 0; k < 4; k++)
        ids[k] = hs_engine_config_id(specs[k]);
    HS_CHECK_INT(hs_store_begin(s, NULL), 0);
    s_put(s, gid, "influence@2", 0, 9, -1);   /* every move */
    s_put(s, gid, "judge", 0, 9, 4);          /* all but move 4 */
    s_put(s, gid, "area", 0, 4, -1);          /* moves 0..4 */
    s_put(s, other, "noop", 0, 9, -1);        /* another game's */
    /* Seen inside the batch, as the broker asks (before its commit). */
    hs_store_task_t t = { .game_id = { gid[0], gid[1] }, .move_first = 0, .move_last = 9,
                          .move_step = 1 };
    uint32_t m = 99;
    HS_CHECK_INT(hs_store_task_covered_engines(s, &t, ids, 4, &m, NULL), 0);
    HS_CHECK_INT(m, 0x1);
    HS_CHECK_INT(m, s_covered_one_by_one(s, &t, ids, 4));
    HS_CHECK_INT(hs_store_commit(s, NULL), 0);
    static const struct { int first, last, step; uint32_t want; } cases[] = {
        { 0, 9, 1, 0x1 },   /* judge lacks move 4, area moves 5..9 */
        { 0, 3, 1, 0x7 },   /* before move 4: all three */
        { 0, 4, 1, 0x5 },   /* move 4: judge lacks it */
        { 5, 9, 1, 0x3 },   /* after it: area lacks them */
        { 0, 8, 2, 0x1 },   /* every:2 asks for move 4 */
        { 1, 9, 2, 0x3 },   /* odd moves only: judge covers them */
        { 9, 9, 1, 0x3 },   /* `last` */
        { 0, 10, 1, 0x0 },  /* move 10 has no eval at all */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t.move_first = cases[i].first;
        t.move_last = cases[i].last;
        t.move_step = cases[i].step;
        HS_CHECK_INT(hs_store_task_covered_engines(s, &t, ids, 4, &m, NULL), 0);
        if (m != cases[i].want)
            fprintf(stderr, "case %zu\n", i);
        HS_CHECK_INT(m, cases[i].want);
        HS_CHECK_INT(m, s_covered_one_by_one(s, &t, ids, 4));
    }
    /* One engine, and the engines in another order: bits follow the list. */
    const uint32_t rev[2] = { ids[1], ids[0] };
    t.move_first = 5;
    t.move_last = 9;
    t.move_step = 1;
    HS_CHECK_INT(hs_store_task_covered_engines(s, &t, rev, 2, &m, NULL), 0);
    HS_CHECK_INT(m, 0x3);
    HS_CHECK_INT(hs_store_task_covered_engines(s, &t, &ids[2], 1, &m, NULL), 0);
    HS_CHECK_INT(m, 0);
    /* A game without evals. */
    const uint64_t none[2] = { 7, 7 };
    hs_store_task_t u = { .game_id = { none[0], none[1] }, .move_first = 0, .move_last = 3,
                          .move_step = 1 };
    HS_CHECK_INT(hs_store_task_covered_engines(s, &u, ids, 4, &m, NULL), 0);
    HS_CHECK_INT(m, 0);
    hs_store_close(&s);
    hs_test_rm_store(dir);
}

/* Decodes the record bytes rec[0..len) as task 3. */
static int s_decode(const uint8_t *rec, size_t len, hs_store_task_t *t)
{
    uint8_t key[8] = { 0, 0, 0, 0, 0, 0, 0, 3 };
    MDB_val kv = { sizeof key, key }, vv = { len, (void *)rec };
    return hs__store_decode_task(&kv, &vv, t, NULL);
}

static void s_test_record(void)
{
    char dir[] = "/tmp/hs-test-bengines-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    hs_store_t *s = NULL;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, NULL), 0);
    HS_CHECK_INT(hs_store_begin(s, NULL), 0);
    hs_store_task_t a = { .job_id = 2, .game_id = { 5, 6 }, .state = HS_TASK_QUEUED,
                          .move_first = 0, .move_last = 63, .move_step = 1, .chunk = 1,
                          .chunks = 3, .engines = 0x5 };
    hs_store_task_t all = a;
    all.engines = 0;
    hs_store_task_t top = a;
    top.engines = 1u << (HS_WIRE_MAX_ENGINES - 1);
    HS_CHECK_INT(hs_store_task_create(s, &a, NULL), 0);
    HS_CHECK_INT(hs_store_task_create(s, &all, NULL), 0);
    HS_CHECK_INT(hs_store_task_create(s, &top, NULL), 0);
    HS_CHECK_INT(hs_store_commit(s, NULL), 0);
    hs_store_task_t back;
    HS_CHECK_INT(hs_store_task_get(s, a.id, &back, NULL), 0);
    HS_CHECK_INT(back.engines, 0x5);
    HS_CHECK_INT(back.chunk, 1);
    HS_CHECK_INT(back.chunks, 3);
    HS_CHECK_INT(hs_store_task_get(s, all.id, &back, NULL), 0);
    HS_CHECK_INT(back.engines, 0);
    HS_CHECK_INT(hs_store_task_get(s, top.id, &back, NULL), 0);
    HS_CHECK_INT(back.engines, 1u << (HS_WIRE_MAX_ENGINES - 1));
    /* A move keeps it too (the broker's journal writes go through it). */
    a.state = HS_TASK_LEASED;
    HS_CHECK_INT(hs_store_task_move(s, &a, HS_TASK_QUEUED, NULL), 0);
    HS_CHECK_INT(hs_store_task_get(s, a.id, &back, NULL), 0);
    HS_CHECK_INT(back.engines, 0x5);
    HS_CHECK_INT(back.state, HS_TASK_LEASED);
    hs_store_close(&s);
    hs_test_rm_store(dir);

    /* Format byte 1 (no checksum): [job 2, game id, QUEUED, 0 attempts, moves
     * 0..5 step 1, reason "", chunk 0 of 1], the layout before the mask. */
    uint8_t old[64] = { 1, 0x9a, 0x02, 0xc4, 0x10 };
    size_t n = 5;
    for (int i = 0; i < 16; i++)
        old[n++] = (uint8_t)i;
    static const uint8_t tail[] = { 0x00, 0x00, 0x00, 0x05, 0x01, 0xa0, 0x00, 0x01 };
    memcpy(old + n, tail, sizeof tail);
    n += sizeof tail;
    hs_store_task_t t;
    memset(&t, 0x55, sizeof t);
    HS_CHECK_INT(s_decode(old, n, &t), 0);
    HS_CHECK_INT(t.id, 3);
    HS_CHECK_INT(t.job_id, 2);
    HS_CHECK_INT(t.move_last, 5);
    HS_CHECK_INT(t.chunks, 1);
    HS_CHECK_INT(t.engines, 0);   /* every engine of the job */
    /* The same with field 10: a mask, then one past the engines a job may have. */
    old[1] = 0x9b;
    old[n] = 0x06;
    HS_CHECK_INT(s_decode(old, n + 1, &t), 0);
    HS_CHECK_INT(t.engines, 6);
    old[n] = 0xce;   /* uint32 */
    uint32_t bad = 1u << HS_WIRE_MAX_ENGINES;
    for (int i = 0; i < 4; i++)
        old[n + 1 + (size_t)i] = (uint8_t)(bad >> (24 - 8 * i));
    HS_CHECK_INT(s_decode(old, n + 5, &t), HS_ECORRUPT);
    old[n] = 0xff;   /* negative */
    HS_CHECK_INT(s_decode(old, n + 1, &t), HS_ECORRUPT);
}

int main(void)
{
    s_test_covered();
    s_test_record();
    return hs_test_finish();
}
