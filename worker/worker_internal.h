/*
 * worker/worker_internal.h — what worker.c and worker_eval.c share (hs__ names:
 * internal to worker/, not an API).
 */
#ifndef HS_WORKER_INTERNAL_H
#define HS_WORKER_INTERNAL_H

#include <stdint.h>

#include "core/board.h"
#include "core/game.h"
#include "core/rules.h"
#include "core/replay.h"
#include "core/wire.h"
#include "worker/engine.h"
#include "worker/worker.h"

/* Engine instances one thread keeps: a task names at most HS_WIRE_MAX_ENGINES
 * specs, and each must be in the cache while its batch runs. */
#define HS__ENGINE_CACHE HS_WIRE_MAX_ENGINES
#define HS__BATCH_MAX HS_WORKER_BATCH_MAX
/* Most tasks one hs__worker_eval_tasks call takes without an allocation (an
 * engine thread's group). */
#define HS__GROUP_MAX 64
/* hs__worker_eval_tasks' failed[i] of a task it did not start (a stop). */
#define HS__TASK_SKIPPED (-1)

/* Engine instances of one thread, by spec string, and the stability memo they
 * share (created with the first instance). A slot is free while its spec is "".
 * A long-lived worker meets any number of specs, so a full cache evicts the
 * least recently used instance; never one of the task whose engines are being
 * taken (x->engs[] point into the slots, so instances never move either).
 * tick counts the engine sets taken (s_use_engines); used[i] is the tick of the
 * last set that took slot i. */
typedef struct hs__engine_cache {
    struct hs_stability_memo *memo;
    uint64_t tick;
    uint64_t used[HS__ENGINE_CACHE];
    char spec[HS__ENGINE_CACHE][HS_WIRE_MAX_NAME];
    hs_engine_t eng[HS__ENGINE_CACHE];
} hs__engine_cache_t;

/* Per-thread scratch for evaluating tasks (large: heap-allocate it). */
typedef struct hs__eval_ctx {
    hs__engine_cache_t cache;
    /* The worker's stop flag (hs_worker_config_t.stop), or NULL: once it is
     * set, hs__worker_eval_tasks starts no further task of its call, and with
     * HS_WORKER_STOP_NOW no further engine call either (worker.h, "Stopping"). */
    const atomic_int *stop;
    /* What every engine instance of this thread is created with (threads,
     * the process's nets, their backend and batch); options come per spec. */
    hs_engine_config_t base;
    int batch_max;                               /* <= HS__BATCH_MAX */
    int batch_n;
    hs_replay_t replay;                          /* the task's game, walked forward */
    hs_board_t boards[HS__BATCH_MAX];
    hs_engine_pos_t pos[HS__BATCH_MAX];
    uint8_t keys[HS__BATCH_MAX][16];
    hs_engine_result_t results[HS__BATCH_MAX];
    hs_wire_result_t *owner[HS__BATCH_MAX];      /* the RESULT each position feeds */
    char *refused[HS__BATCH_MAX];                /* why the current engine refused the
                                                  * position, in a task of several
                                                  * engines (malloc'd; s_flush) */
    /* For engines that read history (vtable history > 0): the boards after
     * the last three moves replayed (ring[m % 3] holds move ring_move[m % 3]),
     * and each batch position's two previous boards (allocated on first use). */
    int history;                                 /* the batch's engines' largest */
    hs_board_t ring[3];
    int ring_move[3];
    hs_board_t (*prev)[2];                       /* [HS__BATCH_MAX][2] or NULL */
    /* The engines of the positions in the batch (tasks of one batch share them). */
    const hs_wire_task_t *batch_task;
    hs_engine_t *engs[HS_WIRE_MAX_ENGINES];
    uint32_t eids[HS_WIRE_MAX_ENGINES];
    int batch_limit;
    double engine_seconds;                       /* wall time in evaluate() */
    double engine_cpu_seconds;                   /* this thread's CPU time in it */
    uint64_t eval_calls, eval_leaves;            /* the engines' leaf evaluator calls */
    hs_wire_msg_t msgs[HS__GROUP_MAX];           /* the RESULTs of one call (scratch) */
} hs__eval_ctx_t;

void hs__engine_cache_fini(hs__engine_cache_t *c);

/* Releases what a context holds (its engines, the history boards); not x itself. */
void hs__eval_ctx_fini(hs__eval_ctx_t *x);

/*
 * Evaluates task t and encodes the RESULT body into *out (reused buffer).
 * *positions gets the positions evaluated, *failed whether the task failed (the
 * RESULT then carries the reason). Returns 0 or the encoder's error.
 */
int hs__worker_eval_task(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_wire_buf_t *out,
                         uint64_t *positions, int *failed);

/*
 * The same for n tasks at once: positions of consecutive tasks that name the same
 * engines share engine calls (a 1-position task alone would make a batch of 1), and
 * the clocks are read once per engine call, not per task. outs[i], positions[i]
 * and failed[i] are task i's. Returns 0 or the first encoder error (that task's
 * out then holds nothing: the caller reports it failed). failed[i] is
 * HS__TASK_SKIPPED for a task not evaluated because x->stop was set: it has no
 * RESULT (outs[i] empty) and goes back to the broker unanswered.
 */
int hs__worker_eval_tasks(hs__eval_ctx_t *x, const hs_wire_task_t *const *t, int n,
                          hs_wire_buf_t *outs, uint64_t *positions, int *failed);

#endif
