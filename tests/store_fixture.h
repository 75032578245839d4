/*
 * tests/store_fixture.h — what the store's two tests share (tests/test_store.c:
 * records, queries, readers, the journal; tests/test_store_growth.c: the eval
 * index and map growth): a fresh store folder, a synthetic eval, the eval
 * collector and a bulk eval writer. Static, with the s_ names the single test
 * file used, so the two tests read as before.
 */
#ifndef HS_TESTS_STORE_FIXTURE_H
#define HS_TESTS_STORE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "test.h"

static char s_dir[256];

static inline void s_rm_dir(const char *dir)
{
    hs_test_rm_store(dir);
}

static inline const char *s_newdir(const char *tag)
{
    snprintf(s_dir, sizeof s_dir, "/tmp/hs-test-store-%s-XXXXXX", tag);
    if (!mkdtemp(s_dir)) {
        perror("mkdtemp");
        exit(1);
    }
    return s_dir;
}

static int8_t s_own[81];

static inline void s_eval(hs_eval_t *e, int mn, uint64_t keyseed, float score, const char *engine)
{
    memset(e, 0, sizeof *e);
    e->move_number = mn;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(keyseed >> (i % 8 * 8)) ^ (uint8_t)i;
    e->engine_id = hs_engine_config_id(engine);
    e->size = 9;
    e->score_lead = score;
    e->win_rate = 0.5f;
    for (int i = 0; i < 81; i++)
        s_own[i] = (int8_t)((i + mn) % 201 - 100);
    e->ownership = s_own;
    e->result = score > 0 ? "B+1.0" : "W+1.0";
    e->timing_us = 10;
}

typedef struct { int n; int mn[64]; float score[64]; } s_evs_t;
static inline int s_collect_evals(void *ctx, const hs_eval_t *e)
{
    s_evs_t *c = ctx;
    if (c->n < 64) {
        c->mn[c->n] = e->move_number;
        c->score[c->n] = e->score_lead;
    }
    c->n++;
    return 0;
}

/* Writes n evals (batches of per_batch) of game g with distinct keys. */
static inline void s_write_evals(hs_store_t *s, const uint64_t gid[2], int first, int n,
                          int per_batch, hs_error_t *err)
{
    for (int i = 0; i < n; i += per_batch) {
        HS_CHECK_INT(hs_store_begin(s, err), 0);
        for (int j = i; j < i + per_batch && j < n; j++) {
            hs_eval_t e;
            s_eval(&e, (first + j) % 4000, 0x5000000ull + (uint64_t)(first + j), (float)j, "judge");
            int16_t infl[81];
            for (int k = 0; k < 81; k++)
                infl[k] = (int16_t)(k * j);
            e.influence = infl;
            uint64_t g2[2] = { gid[0] + (uint64_t)((first + j) / 4000), gid[1] };
            HS_CHECK_INT(hs_store_result_put(s, g2, &e, "judge", NULL, err), 0);
        }
        HS_CHECK_INT(hs_store_commit(s, err), 0);
    }
}

#endif
