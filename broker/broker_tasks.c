/*
 * broker/broker_tasks.c — tasks and the task state machine, journaled in the
 * store: the task table, the job queues, leases, requeue, failure, done, and the
 * TASK message. Jobs (creation, a game's tasks, cancel, counters) and the load of
 * the journal on restart are in broker_jobs.c; both follow the rules below.
 *
 *                 hs__job_add_game
 *                        │
 *                        ▼            hs__task_lease
 *                   ┌─────────┐ ─────────────────────► ┌────────┐
 *        ┌────────► │ QUEUED  │                        │ LEASED │
 *        │          └─────────┘ ◄───────────────────── └────────┘
 *        │            │   ▲  hs__task_unlease (send failed, no attempt used)
 *        │            │   └── hs__task_requeue (worker expired, lease timed out,
 *        │            │       worker reported a transient error, or its RESULT
 *        │            │       missed positions: hs__result_check) while attempts < max
 *        │            │                                  │       │
 *        │            │ hs__job_cancel                   │       │ hs__task_done
 *        │            ▼                                  │       ▼ (RESULT stored)
 *        │       ┌──────────┐      hs__task_requeue with │   ┌──────┐
 *        │       │ CANCELED │      attempts >= max ──────┘   │ DONE │
 *        │       └──────────┘               ▼               └──────┘
 *        │                             ┌────────┐
 *        └─ restart: LEASED → QUEUED   │ FAILED │ (game recorded failed with reason)
 *           (hs__broker_load)          └────────┘
 *
 * A RESULT whose error the worker marks permanent (the game cannot be replayed:
 * an illegal move, a bad coordinate, a size the engine refuses) goes from LEASED
 * to FAILED at once, whatever the attempts: retrying it would fail the same way.
 *
 * A RESULT counts only from the worker that holds the task's lease (broker.c,
 * s_on_result), and a good one only when hs__result_check finds exactly the
 * task's positions with the keys the broker replayed for them (hs__task_build,
 * kept in t->keys while LEASED): a RESULT for a QUEUED task (requeued, or the
 * broker restarted), from another worker or from a peer that never said READY is
 * ignored, and so is one for a task no longer in memory (DONE, FAILED, CANCELED),
 * so a replayed RESULT changes nothing. Task ids stay consecutive (chunks below):
 * guessing one gains nothing without its lease.
 *
 * Every transition but lease/unlease writes the task record (hs_store_task_move,
 * from the state the journal holds, t->jstate) into the broker's open store batch
 * (a lease lives in memory only: a restart queues leased tasks again anyway); the loop in broker.c commits once per round, together with
 * the results, so the journal and the results can never disagree after a crash.
 * Job counters are written when dirty (hs__jobs_flush) in the same batch.
 *
 * Chunks. A game whose positions outnumber the chunk size (cfg->chunk, default
 * HS_BROKER_DEFAULT_CHUNK) becomes several tasks, one per run of consecutive
 * positions (the moves spec's step kept), created together so their ids are
 * consecutive; each record says which chunk it is of how many, so the siblings of
 * a task are found by id (hs_store_task_t.chunk/chunks). The job counts games:
 *
 *   chunk DONE    positions_done += its positions; games_done += 1 only when it
 *                 was the game's last unfinished chunk (hs__bgame_t.left)
 *   chunk FAILED  (retry limit) games_failed += 1 and the game recorded failed
 *                 with the reason, once; its unfinished siblings go to CANCELED
 *                 in the same batch, so no later chunk can count it again
 *   job canceled  every chunk of every game goes to CANCELED
 *
 * hs__bgame_t lives only in memory: on load the unfinished chunks of a game are
 * grouped by (job, first id) and `left` is their number. That is all the state a
 * game needs, because a failed chunk cancels its siblings in the batch that
 * journals the failure, and the job counters are journaled in the same batch as
 * every task transition: after kill -9 nothing is counted twice or lost.
 */
#include "broker/broker_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"

int hs__fatal(hs__broker_t *b, int rc)
{
    /* Not printed here: hs_broker_run returns it, and its caller says it
     * (the disk-full message came twice). */
    if (rc < 0 && !b->fatal)
        b->fatal = rc;
    return rc;
}

int hs__batch(hs__broker_t *b)
{
    if (b->fatal)
        return b->fatal;
    if (hs_store_in_batch(b->store))
        return 0;
    return hs__fatal(b, hs_store_begin(b->store, &b->err));
}

int hs__task_put(hs__broker_t *b, hs__btask_t *t)
{
    int rc = hs__batch(b);
    if (rc < 0)
        return rc;
    rc = hs__fatal(b, hs_store_task_move(b->store, &t->rec, t->jstate, &b->err));
    if (rc == 0)
        t->jstate = t->rec.state;
    return rc;
}

/* ------------------------------------------------------------- task table */

static size_t s_hash(uint64_t id, size_t n)
{
    return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 17) & (n - 1);
}

int hs__task_add(hs__broker_t *b, hs__btask_t *t)
{
    if (b->num_tasks + 1 > b->num_buckets) {
        size_t n = b->num_buckets ? b->num_buckets * 2 : 1024;
        hs__btask_t **nb = calloc(n, sizeof *nb);
        if (!nb)
            return HS_ENOMEM;
        for (size_t i = 0; i < b->num_buckets; i++)
            for (hs__btask_t *x = b->buckets[i], *nx; x; x = nx) {
                nx = x->hnext;
                size_t h = s_hash(x->rec.id, n);
                x->hnext = nb[h];
                nb[h] = x;
            }
        free(b->buckets);
        b->buckets = nb;
        b->num_buckets = n;
    }
    size_t h = s_hash(t->rec.id, b->num_buckets);
    t->hnext = b->buckets[h];
    b->buckets[h] = t;
    b->num_tasks++;
    return 0;
}

hs__btask_t *hs__task_find(hs__broker_t *b, uint64_t id)
{
    if (!b->num_buckets)
        return NULL;
    for (hs__btask_t *x = b->buckets[s_hash(id, b->num_buckets)]; x; x = x->hnext)
        if (x->rec.id == id)
            return x;
    return NULL;
}

/* Frees t, and its game's bookkeeping with its last chunk. */
static void s_task_free(hs__btask_t *t)
{
    if (t->game && --t->game->left == 0)
        free(t->game);
    free(t->keys);
    free(t->reused);
    free(t);
}

/* Removes t from the table and frees it (it must be neither queued nor leased). */
void hs__task_remove(hs__broker_t *b, hs__btask_t *t)
{
    hs__btask_t **pp = &b->buckets[s_hash(t->rec.id, b->num_buckets)];
    while (*pp && *pp != t)
        pp = &(*pp)->hnext;
    if (*pp) {
        *pp = t->hnext;
        b->num_tasks--;
    }
    s_task_free(t);
}

void hs__task_enqueue(hs__bjob_t *j, hs__btask_t *t)
{
    t->qnext = NULL;
    t->qprev = j->qtail;
    if (j->qtail)
        j->qtail->qnext = t;
    else
        j->qhead = t;
    j->qtail = t;
    j->queued++;
}

static void s_queue_remove(hs__bjob_t *j, hs__btask_t *t)
{
    if (t->qprev)
        t->qprev->qnext = t->qnext;
    else
        j->qhead = t->qnext;
    if (t->qnext)
        t->qnext->qprev = t->qprev;
    else
        j->qtail = t->qprev;
    t->qprev = t->qnext = NULL;
    j->queued--;
}

/* Swap-removes t from w->leases through its slot (the last lease moves into it). */
static void s_worker_drop_lease(hs__bworker_t *w, hs__btask_t *t)
{
    int i = t->lease_slot;
    if (i < 0 || i >= w->num_leases || w->leases[i] != t)
        return;   /* not held by w: nothing to drop */
    w->leased_positions -= hs__task_sent_positions(t);
    w->leases[i] = w->leases[--w->num_leases];
    w->leases[i]->lease_slot = i;
    t->lease_slot = -1;
}

/* Takes t out of QUEUED or LEASED bookkeeping (not the journal). Every way out
 * of LEASED (done, requeue, unlease, fail, cancel) passes here: the lease's
 * expected keys go with it, and the next lease replays them again. */
void hs__task_detach(hs__broker_t *b, hs__btask_t *t)
{
    hs__bjob_t *j = t->job;
    free(t->keys);
    t->keys = NULL;
    if (t->rec.state == HS_TASK_QUEUED) {
        s_queue_remove(j, t);
        b->pending--;
    } else if (t->rec.state == HS_TASK_LEASED) {
        if (t->worker)
            s_worker_drop_lease(t->worker, t);
        t->worker = NULL;
        j->leased--;
        b->pending--;
    }
    hs__task_reuse_forget(t);   /* after the lease's positions are given back */
}

/* ------------------------------------------------------------------ tasks */

/* Whether w holds the net value[0..len) names (its READY listed that hash). */
static bool s_worker_holds(const hs__bworker_t *w, const char *value, size_t len)
{
    for (int k = 0; k < w->num_nets; k++)
        if (len == HS_WIRE_NET_HASH_LEN && !memcmp(w->nets[k], value, len))
            return true;
    return false;
}

/* Whether w holds every net spec's options name. Any option called `net` names
 * a net, whatever the engine ("net:net=<hash>", "judge-net:net=<hash>"): the
 * broker does not know the engines, and a worker without that net would fail
 * every task of the job (docs/PROTOCOL.md, "Nets"). */
static bool s_worker_has_nets(const hs__bworker_t *w, const char *spec)
{
    for (const char *o = strchr(spec, ':'); o; ) {
        o++;
        size_t len = strcspn(o, ",");
        if (len > 4 && !strncmp(o, "net=", 4) && !s_worker_holds(w, o + 4, len - 4))
            return false;
        o = o[len] == ',' ? o + len : NULL;
    }
    return true;
}

/* broker_internal.h */
int hs__task_engine_idx(const hs__btask_t *t, int idx[HS_WIRE_MAX_ENGINES])
{
    uint32_t m = hs__task_engines(t);
    int n = 0;
    for (int k = 0; k < t->job->num_engines; k++)
        if (m >> k & 1u)
            idx[n++] = k;
    return n;
}

/* Whether w runs every engine task t runs (not every engine of its job: a game
 * an earlier job stored may need only some). */
static bool s_worker_can(const hs__bworker_t *w, const hs__btask_t *t)
{
    int idx[HS_WIRE_MAX_ENGINES], ne = hs__task_engine_idx(t, idx);
    for (int e = 0; e < ne; e++) {
        const char *spec = t->job->engines[idx[e]];
        size_t len = strcspn(spec, ":");
        bool ok = false;
        for (int k = 0; k < w->num_engines && !ok; k++)
            ok = strlen(w->engines[k]) == len && !strncmp(w->engines[k], spec, len);
        if (!ok || !s_worker_has_nets(w, spec))
            return false;
    }
    return true;
}

/* Queued tasks of one job that hs__task_next looks through for one a worker can
 * run: the tasks of a job differ only in their engine masks (a game an earlier
 * job stored with some engines needs only the others), so a worker without
 * the head task's engines (no net, say) may still run the tasks behind it. */
#define S_QUEUE_LOOK 256

/* The first of j's first S_QUEUE_LOOK queued tasks that w can run, or NULL. */
static hs__btask_t *s_job_next(const hs__bjob_t *j, const hs__bworker_t *w)
{
    uint32_t refused[4];   /* masks w was found unable to run: few differ */
    int nref = 0, looked = 0;
    for (hs__btask_t *t = j->qhead; t && looked < S_QUEUE_LOOK; t = t->qnext, looked++) {
        uint32_t mask = hs__task_engines(t);
        bool known = false;
        for (int r = 0; r < nref && !known; r++)
            known = refused[r] == mask;
        if (known)
            continue;
        if (s_worker_can(w, t))
            return t;
        if (nref < 4)
            refused[nref++] = mask;
    }
    return NULL;
}

hs__btask_t *hs__task_next(hs__broker_t *b, const hs__bworker_t *w)
{
    /* Fair scheduling: round robin over jobs that have queued work this worker
     * can do, one task per turn; within a job the first it can run of the
     * first S_QUEUE_LOOK queued (FIFO otherwise). */
    for (int k = 0; k < b->num_run; k++) {
        int i = (b->rr + k) % b->num_run;
        hs__bjob_t *j = b->run[i];
        hs__btask_t *t = j->rec.state == HS_JOB_RUNNING ? s_job_next(j, w) : NULL;
        if (!t)
            continue;
        b->rr = (i + 1) % b->num_run;
        return t;
    }
    return NULL;
}

bool hs__job_servable(const hs__broker_t *b, const hs__bjob_t *j)
{
    for (int i = 0; i < b->num_workers; i++)
        if (s_job_next(j, b->workers[i]))
            return true;
    return false;
}

void hs__run_prune(hs__broker_t *b)
{
    for (int i = 0; i < b->num_run; i++)
        if (b->run[i]->rec.state != HS_JOB_RUNNING) {
            hs__bjob_t *j = b->run[i];
            j->rate = 0;   /* it computes nothing more */
            hs__job_waiting_clear(j);   /* STATUS shows its end's reason */
            j->ended_next = b->ended;   /* freed once its end is committed */
            b->ended = j;
            b->run[i--] = b->run[--b->num_run];
        }
    if (b->rr >= b->num_run)
        b->rr = 0;
}

int hs__task_lease(hs__broker_t *b, hs__btask_t *t, hs__bworker_t *w)
{
    s_queue_remove(t->job, t);
    t->job->leased++;
    t->job->last_lease = b->now;
    hs__job_waiting_clear(t->job);
    t->rec.state = HS_TASK_LEASED;
    t->rec.attempts++;
    t->deadline = b->now + b->lease_ms;
    t->worker = w;
    if (w->num_leases == w->cap_leases) {
        int n = w->cap_leases ? w->cap_leases * 2 : 16;
        hs__btask_t **nl = realloc(w->leases, sizeof *nl * (size_t)n);
        if (!nl)
            return HS_ENOMEM;
        w->leases = nl;
        w->cap_leases = n;
    }
    t->lease_slot = w->num_leases;
    w->leases[w->num_leases++] = t;
    w->leased_positions += hs__task_sent_positions(t);
    /* Not journaled: after a crash every leased task is queued again anyway, and
     * the next journaled transition (done, requeue, fail, cancel) writes the
     * attempts. Only the attempt of a lease cut short by a broker crash is not
     * counted. This halves the journal writes per task. */
    return 0;
}

int hs__task_unlease(hs__broker_t *b, hs__btask_t *t)
{
    hs__task_detach(b, t);
    b->pending++;
    t->rec.attempts--;
    t->rec.state = HS_TASK_QUEUED;
    /* Back at the head: it was next in line. */
    hs__bjob_t *j = t->job;
    t->qprev = NULL;
    t->qnext = j->qhead;
    if (j->qhead)
        j->qhead->qprev = t;
    else
        j->qtail = t;
    j->qhead = t;
    j->queued++;
    return 0;   /* the journal still says QUEUED (leases are not journaled) */
}

/* The unfinished siblings of a failed chunk t go to CANCELED (journaled): the
 * game is failed already, and must not be counted again. */
static int s_cancel_siblings(hs__broker_t *b, const hs__btask_t *t)
{
    if (t->rec.chunks <= 1)
        return 0;
    uint64_t first = t->rec.id - (uint64_t)t->rec.chunk;
    for (int k = 0; k < t->rec.chunks; k++) {
        hs__btask_t *s = hs__task_find(b, first + (uint64_t)k);
        if (!s || s == t || s->job != t->job || s->rec.game_id[0] != t->rec.game_id[0] ||
            s->rec.game_id[1] != t->rec.game_id[1])
            continue;
        hs__task_detach(b, s);
        s->rec.state = HS_TASK_CANCELED;
        snprintf(s->rec.reason, sizeof s->rec.reason, "game failed in chunk %d of %d",
                 t->rec.chunk + 1, t->rec.chunks);
        int rc = hs__task_put(b, s);
        hs__task_remove(b, s);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Marks t FAILED with reason, records its game as failed and cancels the game's
 * other chunks. Frees t. */
static int s_task_fail(hs__broker_t *b, hs__btask_t *t, const char *reason)
{
    hs__bjob_t *j = t->job;
    hs__task_detach(b, t);
    t->rec.state = HS_TASK_FAILED;
    snprintf(t->rec.reason, sizeof t->rec.reason, "%s", reason ? reason : "unknown");
    int rc = hs__task_put(b, t);
    if (rc == 0) {
        char *source = NULL, fallback[64];
        hs_error_t e2 = { 0 };
        /* Only the source, not the whole game (g NULL: the moves are skipped). */
        hs_store_game_get(b->store, t->rec.game_id, NULL, &source, NULL, &e2);
        if (!source) {
            snprintf(fallback, sizeof fallback, "game %016llx%016llx",
                     (unsigned long long)t->rec.game_id[0], (unsigned long long)t->rec.game_id[1]);
        }
        rc = hs__fatal(b, hs_store_game_failed(b->store, source ? source : fallback,
                                             t->rec.reason, j->rec.id, NULL, &b->err));
        free(source);
    }
    if (rc == 0)
        rc = s_cancel_siblings(b, t);
    HS__LOG(b, "task %llu failed: %s", (unsigned long long)t->rec.id, t->rec.reason);
    j->rec.games_failed++;
    j->dirty = true;
    hs__task_remove(b, t);
    hs__job_check_done(b, j);
    return rc;
}

int hs__task_requeue(hs__broker_t *b, hs__btask_t *t, const char *reason)
{
    hs__worker_account(b, t->worker, 0, HS__WEND_REQUEUED);   /* NULL when not leased */
    if (t->rec.attempts >= b->max_attempts) {
        char why[256];
        snprintf(why, sizeof why, "%s (after %d attempts)", reason, t->rec.attempts);
        return s_task_fail(b, t, why);
    }
    hs__task_detach(b, t);
    t->rec.state = HS_TASK_QUEUED;
    snprintf(t->rec.reason, sizeof t->rec.reason, "%s", reason);
    hs__task_enqueue(t->job, t);
    b->pending++;
    return hs__task_put(b, t);
}

int hs__result_check(const hs__btask_t *t, const hs_wire_result_t *r, char *why, size_t size)
{
    const hs__bjob_t *j = t->job;
    int idx[HS_WIRE_MAX_ENGINES];
    int n = hs_store_task_positions(&t->rec), ne = hs__task_engine_idx(t, idx);
    int sent = n - t->num_reused;   /* the positions the TASK carried */
    if (sent <= 0 || ne <= 0 || r->num_evals != sent * ne) {
        snprintf(why, size, "incomplete result: %d evaluations for %d positions x %d engines",
                 r->num_evals, sent, ne);
        return -1;
    }
    /* One flag per (position, engine): on the stack for the usual task (a chunk
     * of <= 64 positions x a few engines), so a RESULT costs no allocation. */
    uint8_t small[1024];
    size_t cells = (size_t)n * (size_t)ne;
    uint8_t *seen = cells <= sizeof small ? small : malloc(cells);
    if (seen)
        memset(seen, 0, cells);
    if (!seen) {
        snprintf(why, size, "out of memory checking a result");
        return -1;
    }
    int bad = 0;
    for (int i = 0; i < r->num_evals && !bad; i++) {
        const hs_eval_t *e = &r->evals[i];
        int k = 0;
        while (k < ne && j->engine_ids[idx[k]] != e->engine_id)
            k++;
        int d = e->move_number - t->rec.move_first, p = d / t->rec.move_step;
        if (k == ne) {
            /* Also one of the job's engines the task does not run: its evals of
             * these positions are stored already. */
            bad = snprintf(why, size, "result: an evaluation by an engine the task does not run");
        } else if (d < 0 || d % t->rec.move_step || p >= n || (t->reused && t->reused[p])) {
            bad = snprintf(why, size, "result: move %d is not a position of the task",
                           e->move_number);
        } else if (!t->keys || memcmp(e->pos_key, t->keys[p], 16) || e->size != t->size) {
            /* Evals are shared by position key (the store's reuse): one stored under
             * a key its position does not have would answer for every later game
             * that reaches that position. No keys: the broker could not replay the
             * game, so no good RESULT can be right (the worker reports the error). */
            bad = snprintf(why, size, "result: move %d is not the position the broker "
                           "expects (position key or board size)", e->move_number);
        } else if (seen[p * ne + k]++) {
            bad = snprintf(why, size, "result: move %d evaluated twice by one engine",
                           e->move_number);
        }
    }
    if (seen != small)
        free(seen);
    return bad ? -1 : 0;
}

int hs__task_done(hs__broker_t *b, hs__btask_t *t, const hs_wire_result_t *r)
{
    hs__bjob_t *j = t->job;
    if (r->error)
        hs__worker_account(b, t->worker, 0, HS__WEND_ERROR);
    if (r->error && r->permanent) {
        /* The worker says no attempt can succeed (an illegal move in the game,
         * a size the engine refuses): failed now, not after max_attempts sends. */
        char why[256];
        snprintf(why, sizeof why, "%s (permanent: not retried)", r->error);
        return s_task_fail(b, t, why);
    }
    if (r->error)
        return hs__task_requeue(b, t, r->error);
    int rc = hs__batch(b);
    if (rc < 0)
        return rc;
    int idx[HS_WIRE_MAX_ENGINES], ne = hs__task_engine_idx(t, idx);
    for (int i = 0; i < r->num_evals; i++) {
        const hs_eval_t *e = &r->evals[i];
        const char *spec = NULL;
        for (int k = 0; k < ne; k++)
            if (j->engine_ids[idx[k]] == e->engine_id)
                spec = j->engines[idx[k]];
        if (!spec)
            continue;   /* hs__result_check let none through: a guard, not a path */
        rc = hs__fatal(b, hs_store_result_put(b->store, t->rec.game_id, e, spec, NULL, &b->err));
        if (rc < 0)
            return rc;
    }
    if ((rc = hs__task_reuse_link(b, t)) != 0) {
        if (rc < 0)
            return rc;
        t->no_reuse = true;   /* the evals stored above stay: a repeat keeps them */
        return hs__task_requeue(b, t, "an evaluation it was to reuse is not in the store");
    }
    /* The worker's count is of what it evaluated (status --cluster's rates). */
    hs__worker_account(b, t->worker, hs__task_sent_positions(t), HS__WEND_DONE);
    hs__task_detach(b, t);
    t->rec.state = HS_TASK_DONE;
    t->rec.reason[0] = '\0';
    if ((rc = hs__task_put(b, t)) < 0)
        return rc;
    if (!t->game || t->game->left == 1)
        j->rec.games_done++;   /* the game's last unfinished chunk */
    j->rec.positions_done += hs_store_task_positions(&t->rec);
    j->dirty = true;
    hs__task_remove(b, t);
    hs__job_check_done(b, j);
    return 0;
}

/* The position keys of t's n positions (moves[]), from the replay the worker
 * does too (core/replay.h), into t->keys, with the board size: what
 * hs__result_check holds a RESULT's evals to. A game that does not replay (an
 * illegal move: the worker reports it as a permanent error) leaves t->keys NULL.
 * 0 or HS_ENOMEM. */
static int s_task_keys(hs__btask_t *t, const hs_game_t *g, const int *moves, int n,
                       hs_error_t *err)
{
    free(t->keys);
    t->keys = NULL;
    t->size = g->size;
    uint8_t (*keys)[16] = malloc(16 * (size_t)n);
    if (!keys)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    hs_replay_t r;
    hs_error_t why = { 0 };
    int rc = hs_replay_start(&r, g, &why);
    for (int i = 0; i < n && rc == 0; i++)
        if ((rc = hs_replay_to(&r, moves[i], &why)) == 0)
            hs_replay_key(&r, keys[i]);
    hs_replay_fini(&r);
    if (rc < 0) {
        free(keys);
        return rc == HS_ENOMEM ? hs_error_set(err, HS_ENOMEM, "out of memory") : 0;
    }
    t->keys = keys;
    return 0;
}

int hs__task_build(hs__broker_t *b, hs__btask_t *t, hs_wire_msg_t *m, hs_error_t *err)
{
    hs_wire_msg_init(m, HS_WIRE_TASK);
    hs_wire_task_t *task = &m->task;
    task->task_id = t->rec.id;
    task->job_id = t->rec.job_id;
    int rc = hs_store_game_get(b->store, t->rec.game_id, &task->game.game, &task->game.source,
                               NULL, err);
    if (rc < 0)
        return rc;
    char *src = task->game.source;
    if (src && !hs_wire_utf8_valid(src, strlen(src))) {
        /* Stored before sources were checked: escaped, or the TASK would not
         * encode (the worker only shows it in messages). */
        task->game.source = hs_wire_utf8_escape(src, strlen(src), NULL);
        free(src);
    }
    int n = hs_store_task_positions(&t->rec);
    if (t->rec.move_last > task->game.game.num_moves || n <= 0 || n > HS_WIRE_MAX_EVALS)
        return hs_error_set(err, HS_EINVAL, "task moves %d..%d do not fit the game (%d moves)",
                            t->rec.move_first, t->rec.move_last, task->game.game.num_moves);
    /* Every chunk carries the whole record (worker/engine.h: engines are given the
     * whole game; the judge treats a record's last position as finished). */
    task->move_numbers = malloc(sizeof(int) * (size_t)n);
    if (!task->move_numbers)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        task->move_numbers[i] = t->rec.move_first + i * t->rec.move_step;
    task->num_move_numbers = n;
    /* Replayed here, where the game is decoded anyway, rather than at RESULT time
     * (a second read and decode); docs/SECURITY.md, "Result integrity", has the cost. */
    if ((rc = s_task_keys(t, &task->game.game, task->move_numbers, n, err)) < 0 ||
        (rc = hs__task_reuse_mark(b, t, task->move_numbers, n, err)) < 0)
        return rc;
    if (t->reused) {   /* the TASK carries the others, in order */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (!t->reused[i])
                task->move_numbers[k++] = task->move_numbers[i];
        task->num_move_numbers = k;
    }
    /* The task's engines (a game an earlier job stored may need only some of
     * the job's): the specs are the job's own strings, lent (no copy per TASK),
     * in an array of the message's own; hs__task_msg_fini frees the array and
     * takes the strings back before freeing the rest. */
    int idx[HS_WIRE_MAX_ENGINES], ne = hs__task_engine_idx(t, idx);
    task->engines = malloc(sizeof *task->engines * (size_t)ne);
    if (!task->engines)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    for (int k = 0; k < ne; k++)
        task->engines[k] = t->job->engines[idx[k]];
    task->num_engines = ne;
    return 0;
}

void hs__task_msg_fini(hs_wire_msg_t *m)
{
    free(m->task.engines);    /* the array only: its specs are the job's */
    m->task.engines = NULL;
    m->task.num_engines = 0;
    hs_wire_msg_fini(m);
}

void hs__broker_free_state(hs__broker_t *b)
{
    for (size_t i = 0; i < b->num_buckets; i++)
        for (hs__btask_t *t = b->buckets[i], *nx; t; t = nx) {
            nx = t->hnext;
            s_task_free(t);
        }
    free(b->buckets);
    b->buckets = NULL;
    b->num_buckets = b->num_tasks = 0;
    for (int i = 0; i < b->num_jobs; i++)   /* the running and the ended in memory */
        if (b->jobs[i].live) {
            hs__job_waiting_clear(b->jobs[i].live);
            free(b->jobs[i].live);
        }
    free(b->jobs);
    b->jobs = NULL;
    b->num_jobs = b->cap_jobs = 0;
    free(b->owners);
    free(b->owner_order);
    b->owners = NULL;
    b->owner_order = NULL;
    b->num_owners = b->cap_owners = 0;
    free(b->run);
    b->run = NULL;
    b->num_run = b->cap_run = 0;
    b->ended = NULL;
    for (int i = 0; i < b->num_workers; i++) {
        free(b->workers[i]->leases);
        free(b->workers[i]);
    }
    free(b->workers);
    b->workers = NULL;
    b->num_workers = 0;
}
