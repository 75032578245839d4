/*
 * tests/test_worker_engines.c — the engine instances one worker thread keeps
 * (hs__engine_cache_t, worker/worker_eval.c), through the eval context as an
 * engine thread calls it:
 *   - one task naming 12 specs (a job may name up to HS_WIRE_MAX_ENGINES = 16),
 *     and one naming 16: every position evaluated by each spec;
 *   - a long-lived thread seeing 24 distinct specs, one job after another, then
 *     the first ones again: every task succeeds (the cache used to hold 8
 *     specs for the thread's life and fail every task of a 9th);
 *   - two 16-spec tasks of disjoint specs in one call, then the first set
 *     again: the second set evicts the first only after its batch is
 *     evaluated, and a spec already taken for a task is never evicted while
 *     the task takes the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/wire.h"
#include "test.h"
#include "wall_game.h"
#include "worker/engine.h"
#include "worker/worker_internal.h"

/* A task of game g at every third move, run by specs[0..n). */
typedef struct s_task {
    hs_wire_task_t t;
    int nums[32];
    char *engines[HS_WIRE_MAX_ENGINES];
    char names[HS_WIRE_MAX_ENGINES][48];
} s_task_t;

static void s_task(s_task_t *k, const hs_game_t *g, uint64_t id, const char *const *specs,
                   int n)
{
    memset(k, 0, sizeof *k);
    k->t.task_id = id;
    k->t.job_id = id;
    k->t.game.game = *g;
    for (int m = 0; m <= g->num_moves && k->t.num_move_numbers < 32; m += 3)
        k->nums[k->t.num_move_numbers++] = m;
    k->t.move_numbers = k->nums;
    for (int e = 0; e < n; e++) {
        snprintf(k->names[e], sizeof k->names[e], "%s", specs[e]);
        k->engines[e] = k->names[e];
    }
    k->t.engines = k->engines;
    k->t.num_engines = n;
}

/* The RESULT in buf is good: one eval per (position, engine) of k, each by
 * the engine id of its spec. */
static void s_check_result(const s_task_t *k, const hs_wire_buf_t *buf, int failed,
                           const char *label)
{
    hs_wire_msg_t m;
    HS_CHECK_INT(failed, 0);
    HS_CHECK_INT(hs_wire_decode(buf->data, buf->len, &m, NULL), 0);
    if (m.result.error)
        fprintf(stderr, "%s: task %llu failed: %s\n", label,
                (unsigned long long)k->t.task_id, m.result.error);
    HS_CHECK(m.result.error == NULL);
    HS_CHECK_INT(m.result.task_id, k->t.task_id);
    HS_CHECK_INT(m.result.num_evals, k->t.num_move_numbers * k->t.num_engines);
    for (int e = 0; e < k->t.num_engines; e++) {
        uint32_t id = hs_engine_config_id(k->t.engines[e]);
        int seen = 0;
        for (int i = 0; i < m.result.num_evals; i++)
            seen += m.result.evals[i].engine_id == id;
        HS_CHECK_INT(seen, k->t.num_move_numbers);
    }
    hs_wire_msg_fini(&m);
}

/* Runs the n tasks in one call (as an engine thread runs its share) and
 * checks each result. */
static void s_run(hs__eval_ctx_t *x, s_task_t *k, int n, const char *label)
{
    const hs_wire_task_t *tp[4];
    hs_wire_buf_t outs[4] = { { 0 } };
    uint64_t positions[4];
    int failed[4];
    for (int i = 0; i < n; i++)
        tp[i] = &k[i].t;
    HS_CHECK_INT(hs__worker_eval_tasks(x, tp, n, outs, positions, failed), 0);
    for (int i = 0; i < n; i++) {
        s_check_result(&k[i], &outs[i], failed[i], label);
        HS_CHECK_INT(positions[i], k[i].t.num_move_numbers);
        hs_wire_buf_free(&outs[i]);
    }
}

/* Writes 16 distinct specs into buf/specs: "influence:tau=<base + i>". */
static void s_specs(char buf[][48], const char **specs, int n, int base)
{
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "influence:tau=%d", base + i);
        specs[i] = buf[i];
    }
}

/* A job of 12 specs, and one of 16 (the wire's most). */
static void s_test_many_specs(hs__eval_ctx_t *x, const hs_game_t *g)
{
    static const char *const twelve[] = {
        "influence:tau=1", "influence:tau=2", "influence:tau=3", "influence:tau=4",
        "influence:tau=5", "influence:tau=6", "influence:tau=7", "influence:tau=8",
        "influence:tau=9", "influence:tau=10", "judge", "area",
    };
    s_task_t *k = calloc(1, sizeof *k);
    s_task(k, g, 1, twelve, 12);
    s_run(x, k, 1, "12 specs");
    char buf[HS_WIRE_MAX_ENGINES][48];
    const char *specs[HS_WIRE_MAX_ENGINES];
    s_specs(buf, specs, HS_WIRE_MAX_ENGINES, 100);
    s_task(k, g, 2, specs, HS_WIRE_MAX_ENGINES);
    s_run(x, k, 1, "16 specs");
    free(k);
}

/* 24 jobs of a spec each, one after another, then the first ones again. */
static void s_test_long_lived(hs__eval_ctx_t *x, const hs_game_t *g)
{
    s_task_t *k = calloc(1, sizeof *k);
    for (int j = 0; j < 30; j++) {
        char spec[48];
        snprintf(spec, sizeof spec, "noop:delay_us=%d", 1 + j % 24);
        const char *one[1] = { spec };
        s_task(k, g, (uint64_t)(10 + j), one, 1);
        s_run(x, k, 1, "long-lived");
    }
    free(k);
}

/* Disjoint full sets in one call (the second evicts the first after its
 * batch is done), then the first set again in the next call. */
static void s_test_evict_in_call(hs__eval_ctx_t *x, const hs_game_t *g)
{
    char a[HS_WIRE_MAX_ENGINES][48], b[HS_WIRE_MAX_ENGINES][48];
    const char *sa[HS_WIRE_MAX_ENGINES], *sb[HS_WIRE_MAX_ENGINES];
    s_specs(a, sa, HS_WIRE_MAX_ENGINES, 200);
    s_specs(b, sb, HS_WIRE_MAX_ENGINES, 300);
    s_task_t *k = calloc(3, sizeof *k);
    s_task(&k[0], g, 50, sa, HS_WIRE_MAX_ENGINES);
    s_task(&k[1], g, 51, sb, HS_WIRE_MAX_ENGINES);
    s_task(&k[2], g, 52, sa, HS_WIRE_MAX_ENGINES);
    s_run(x, k, 3, "a, b, a in one call");
    /* Half of a's specs with half of b's, in the other order: the instances
     * still cached are reused, the others evict the least recently used. */
    const char *mix[HS_WIRE_MAX_ENGINES];
    for (int i = 0; i < HS_WIRE_MAX_ENGINES; i++)
        mix[i] = i % 2 ? sa[i] : sb[i];
    s_task(&k[0], g, 53, mix, HS_WIRE_MAX_ENGINES);
    s_run(x, k, 1, "mixed");
    free(k);
}

int main(void)
{
    hs_game_t g;
    hs_test_wall_game(&g, 9, 20, 3, 7.0);
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    x->batch_max = 4;   /* several flushes per task */
    s_test_many_specs(x, &g);
    s_test_long_lived(x, &g);
    s_test_evict_in_call(x, &g);
    hs__eval_ctx_fini(x);
    free(x);
    hs_game_fini(&g);
    return hs_test_finish();
}
