/*
 * broker/broker_reuse.c — positions a TASK leaves out because the store already
 * holds their evals. The same opening is reached in many games of an archive
 * (6% of the pro archive's positions, nearly all before move 30), and every
 * engine of a task would compute again what the store then throws away (it keeps
 * the first eval of a position). hs__task_build marks such positions while it
 * has their keys (hs__task_reuse_mark), the TASK carries the others, and the
 * RESULT's hs__task_done points the game's entries at the stored evals
 * (hs__task_reuse_link) in the same batch as the RESULT's own evals.
 *
 * Only positions before HS__REUSE_BEFORE_MOVE are looked up: one lookup per
 * engine costs the broker about a third of a microsecond, against an influence
 * or judge evaluation of some 35 µs; later positions repeat too rarely to pay
 * for their lookups with cheap engines. A task keeps at least one position, so
 * every task still goes to a worker and ends by its RESULT.
 */
#include "broker/broker_internal.h"

#include <stdlib.h>
#include <string.h>

#define HS__REUSE_BEFORE_MOVE 30

/* The engine ids task t runs, into ids; returns how many. */
static int s_task_engine_ids(const hs__btask_t *t, uint32_t ids[HS_WIRE_MAX_ENGINES])
{
    int idx[HS_WIRE_MAX_ENGINES], n = hs__task_engine_idx(t, idx);
    for (int k = 0; k < n; k++)
        ids[k] = t->job->engine_ids[idx[k]];
    return n;
}

int hs__task_reuse_mark(hs__broker_t *b, hs__btask_t *t, const int *moves, int n,
                        hs_error_t *err)
{
    hs__task_reuse_forget(t);
    if (!t->keys || t->no_reuse || n < 2 || moves[0] >= HS__REUSE_BEFORE_MOVE)
        return 0;
    uint32_t ids[HS_WIRE_MAX_ENGINES];
    int ne = s_task_engine_ids(t, ids);
    for (int i = 0; i < n - 1 && moves[i] < HS__REUSE_BEFORE_MOVE; i++) {
        bool covered;
        int rc = hs_store_evals_cover(b->store, t->keys[i], ids, ne, &covered, err);
        if (rc < 0)
            return rc;
        if (!covered)
            continue;
        if (!t->reused && !(t->reused = calloc((size_t)n, 1)))
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        t->reused[i] = 1;
        t->num_reused++;
    }
    return 0;
}

int hs__task_reuse_link(hs__broker_t *b, hs__btask_t *t)
{
    if (!t->num_reused)
        return 0;
    uint32_t ids[HS_WIRE_MAX_ENGINES];
    int ne = s_task_engine_ids(t, ids), n = hs_store_task_positions(&t->rec);
    for (int i = 0; i < n; i++) {
        if (!t->reused[i])
            continue;
        int move = t->rec.move_first + i * t->rec.move_step;
        for (int k = 0; k < ne; k++) {
            int rc = hs_store_result_link(b->store, t->rec.game_id, move, t->keys[i], ids[k],
                                          &b->err);
            if (rc == HS_ENOTFOUND)
                return 1;
            if (rc < 0)
                return hs__fatal(b, rc);
        }
    }
    return 0;
}

void hs__task_reuse_forget(hs__btask_t *t)
{
    free(t->reused);
    t->reused = NULL;
    t->num_reused = 0;
}
