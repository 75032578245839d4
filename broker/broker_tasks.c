/*
 * broker/broker_tasks.c — jobs, tasks and the task state machine, journaled in
 * the store.
 *
 *                 hs__job_add_game
 *                        │
 *                        ▼            hs__task_lease
 *                   ┌─────────┐ ─────────────────────► ┌────────┐
 *        ┌────────► │ QUEUED  │                        │ LEASED │
 *        │          └─────────┘ ◄───────────────────── └────────┘
 *        │            │   ▲  hs__task_unlease (send failed, no attempt used)
 *        │            │   └── hs__task_requeue (worker expired, lease timed out,
 *        │            │       worker reported an error) while attempts < max
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
 * A RESULT for a task that is QUEUED (it was requeued, or the broker restarted)
 * is accepted too: hs__task_done takes it out of the queue. A RESULT for a task
 * no longer in memory (DONE, FAILED, CANCELED) is ignored.
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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S_LOG(b, ...) do { if ((b)->cfg->verbose) fprintf(stderr, "hyeongse broker: " __VA_ARGS__); } while (0)

static int s_fatal(hs__broker_t *b, int rc)
{
    if (rc < 0 && !b->fatal) {
        b->fatal = rc;
        fprintf(stderr, "hyeongse broker: store error: %s\n", b->err.msg);
    }
    return rc;
}

int hs__batch(hs__broker_t *b)
{
    if (b->fatal)
        return b->fatal;
    if (hs_store_in_batch(b->store))
        return 0;
    return s_fatal(b, hs_store_begin(b->store, &b->err));
}

static int s_put(hs__broker_t *b, hs__btask_t *t)
{
    int rc = hs__batch(b);
    if (rc < 0)
        return rc;
    rc = s_fatal(b, hs_store_task_move(b->store, &t->rec, t->jstate, &b->err));
    if (rc == 0)
        t->jstate = t->rec.state;
    return rc;
}

/* ------------------------------------------------------------- task table */

static size_t s_hash(uint64_t id, size_t n)
{
    return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 17) & (n - 1);
}

static int s_table_add(hs__broker_t *b, hs__btask_t *t)
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
    free(t);
}

/* Removes t from the table and frees it (it must be neither queued nor leased). */
static void s_table_remove(hs__broker_t *b, hs__btask_t *t)
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

static void s_queue_push(hs__bjob_t *j, hs__btask_t *t)
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

static void s_worker_drop_lease(hs__bworker_t *w, hs__btask_t *t)
{
    for (int i = 0; i < w->num_leases; i++)
        if (w->leases[i] == t) {
            w->leased_positions -= hs_store_task_positions(&t->rec);
            w->leases[i] = w->leases[--w->num_leases];
            return;
        }
}

/* Takes t out of QUEUED or LEASED bookkeeping (not the journal). */
static void s_detach(hs__broker_t *b, hs__btask_t *t)
{
    hs__bjob_t *j = t->job;
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
}

/* Positions of a task: first, first+step, ... <= last. */
static int s_positions(const hs_store_task_t *t)
{
    if (t->move_last < t->move_first || t->move_step <= 0)
        return 0;
    return (t->move_last - t->move_first) / t->move_step + 1;
}

/* ------------------------------------------------------------------- jobs */

int hs__moves_parse(const char *spec_in, int *step, bool *last_only)
{
    /* The journal keeps "SPEC;TOKEN": only SPEC is the moves spec. */
    char spec[64];
    snprintf(spec, sizeof spec, "%s", spec_in ? spec_in : "");
    spec[strcspn(spec, ";")] = '\0';
    *step = 1;
    *last_only = false;
    if (!*spec || !strcmp(spec, "all"))
        return 0;
    if (!strcmp(spec, "last")) {
        *last_only = true;
        return 0;
    }
    if (!strncmp(spec, "every:", 6)) {
        char *end;
        long n = strtol(spec + 6, &end, 10);
        if (*end == '\0' && n >= 1 && n <= 10000) {
            *step = (int)n;
            return 0;
        }
    }
    return HS_EINVAL;
}

/* The token journaled after ';' in moves_spec, into j->token. */
static void s_job_token_load(hs__bjob_t *j)
{
    const char *semi = strchr(j->rec.moves_spec, ';');
    snprintf(j->token, sizeof j->token, "%s", semi ? semi + 1 : "");
}

hs__bjob_t *hs__job_by_token(hs__broker_t *b, const char *token)
{
    if (!token || !*token)
        return NULL;
    for (int i = 0; i < b->num_jobs; i++)
        if (!strcmp(b->jobs[i]->token, token))
            return b->jobs[i];
    return NULL;
}

#define S_ABANDONED "upload abandoned"

bool hs__job_abandoned(const hs__bjob_t *j)
{
    return !strncmp(j->rec.reason, S_ABANDONED, strlen(S_ABANDONED));
}

/* Upload lease expired: no more input; accepted games finish, then the job
 * ends failed with the reason (hs__job_check_done). */
void hs__job_abandon(hs__broker_t *b, hs__bjob_t *j)
{
    if (j->rec.state != HS_JOB_RUNNING || j->rec.input_complete)
        return;
    j->rec.input_complete = true;
    snprintf(j->rec.reason, sizeof j->rec.reason,
             S_ABANDONED ": no SUBMIT for %d s after %lld games; the client may have died",
             b->upload_ms / 1000, (long long)j->rec.games_total);
    j->dirty = true;
    S_LOG(b, "job %llu: %s\n", (unsigned long long)j->rec.id, j->rec.reason);
    hs__job_check_done(b, j);
}

hs__bjob_t *hs__job_find(hs__broker_t *b, uint64_t id)
{
    for (int i = 0; i < b->num_jobs; i++)
        if (b->jobs[i]->rec.id == id)
            return b->jobs[i];
    return NULL;
}

static int s_job_engines(hs__bjob_t *j, hs_error_t *err)
{
    char list[sizeof j->rec.engines];
    snprintf(list, sizeof list, "%s", j->rec.engines);
    j->num_engines = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (j->num_engines >= HS_WIRE_MAX_ENGINES || strlen(tok) >= HS_WIRE_MAX_NAME)
            return hs_error_set(err, HS_EINVAL, "too many or too long engine specs");
        strcpy(j->engines[j->num_engines], tok);
        j->engine_ids[j->num_engines] = hs_engine_config_id(tok);
        j->num_engines++;
    }
    if (j->num_engines == 0)
        return hs_error_set(err, HS_EINVAL, "a job needs at least one engine");
    return 0;
}

static int s_job_add(hs__broker_t *b, hs__bjob_t *j)
{
    if (b->num_jobs == b->cap_jobs) {
        int n = b->cap_jobs ? b->cap_jobs * 2 : 16;
        hs__bjob_t **nj = realloc(b->jobs, sizeof *nj * (size_t)n);
        if (!nj)
            return HS_ENOMEM;
        b->jobs = nj;
        b->cap_jobs = n;
    }
    b->jobs[b->num_jobs++] = j;
    return 0;
}

int hs__job_new(hs__broker_t *b, const hs_wire_submit_t *s, hs__bjob_t **out, hs_error_t *err)
{
    int step, rc;
    bool last_only;
    if (hs__moves_parse(s->moves_spec, &step, &last_only) < 0)
        return hs_error_set(err, HS_EINVAL, "bad moves spec '%s' (all, every:N, last)",
                            s->moves_spec);
    hs__bjob_t *j = calloc(1, sizeof *j);
    if (!j)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    snprintf(j->rec.name, sizeof j->rec.name, "%s", s->job_name ? s->job_name : "");
    const char *spec = s->moves_spec && *s->moves_spec ? s->moves_spec : "all";
    if (strchr(spec, ';') || strlen(spec) > 16 ||
        (s->token && (strchr(s->token, ';') || strlen(s->token) > HS_WIRE_MAX_TOKEN))) {
        free(j);
        return hs_error_set(err, HS_EINVAL, "bad moves spec or job token");
    }
    if (s->token && *s->token)
        snprintf(j->rec.moves_spec, sizeof j->rec.moves_spec, "%s;%s", spec, s->token);
    else
        snprintf(j->rec.moves_spec, sizeof j->rec.moves_spec, "%s", spec);
    s_job_token_load(j);
    size_t len = 0;
    for (int i = 0; i < s->num_engines; i++)
        len += (size_t)snprintf(j->rec.engines + len, sizeof j->rec.engines - len, "%s%s",
                                i ? "," : "", s->engines[i]);
    if (len >= sizeof j->rec.engines || (rc = s_job_engines(j, err)) < 0) {
        free(j);
        return hs_error_set(err, HS_EINVAL, "bad engine list");
    }
    j->rec.state = HS_JOB_RUNNING;
    j->rec.created_unix = j->rec.updated_unix = (int64_t)time(NULL);
    if ((rc = hs__batch(b)) < 0 ||
        (rc = s_fatal(b, hs_store_job_create(b->store, &j->rec, &b->err))) < 0 ||
        (rc = s_job_add(b, j)) < 0) {
        free(j);
        return hs_error_set(err, rc, "cannot create the job");
    }
    j->rate_ms = b->now;
    j->last_input = b->now;
    S_LOG(b, "job %llu created (engines %s, moves %s)\n", (unsigned long long)j->rec.id,
          j->rec.engines, j->rec.moves_spec);
    *out = j;
    return 0;
}

/* Positions per task for job j: the configured chunk, capped so that a RESULT
 * (positions x engines evals) stays within the wire limit. */
static int s_chunk_size(const hs__broker_t *b, const hs__bjob_t *j)
{
    int c = b->cfg->chunk > 0 ? b->cfg->chunk : HS_BROKER_DEFAULT_CHUNK;
    int cap = HS_WIRE_MAX_EVALS / (j->num_engines > 0 ? j->num_engines : 1);
    return c < cap ? c : cap;
}

/* Creates the QUEUED task(s) of a game already in the store: one per chunk of
 * consecutive positions, with consecutive ids. */
static int s_task_create(hs__broker_t *b, hs__bjob_t *j, const uint64_t gid[2], int num_moves)
{
    int step;
    bool last_only;
    hs__moves_parse(j->rec.moves_spec, &step, &last_only);
    hs_store_task_t whole = { .job_id = j->rec.id, .game_id = { gid[0], gid[1] },
                              .state = HS_TASK_QUEUED, .move_first = last_only ? num_moves : 0,
                              .move_last = num_moves, .move_step = step };
    int n = s_positions(&whole), per = s_chunk_size(b, j);
    int chunks = n > per ? (n + per - 1) / per : 1;
    hs__bgame_t *game = NULL;
    if (chunks > 1 && !(game = calloc(1, sizeof *game)))
        return HS_ENOMEM;
    int rc = hs__batch(b);
    uint64_t first_id = 0;
    for (int k = 0; k < chunks && rc == 0; k++) {
        hs__btask_t *t = calloc(1, sizeof *t);
        if (!t) {
            rc = HS_ENOMEM;
            break;
        }
        t->rec = whole;
        t->rec.move_first = whole.move_first + k * per * step;
        if (k < chunks - 1)
            t->rec.move_last = whole.move_first + ((k + 1) * per - 1) * step;
        t->rec.chunk = k;
        t->rec.chunks = chunks;
        t->jstate = HS_TASK_QUEUED;
        if ((rc = s_fatal(b, hs_store_task_create(b->store, &t->rec, &b->err))) < 0 ||
            (rc = s_table_add(b, t)) < 0) {
            free(t);
            break;
        }
        /* Siblings are found by id: ids are allocated last + 1 in the batch, and
         * nothing else creates tasks in between. */
        if (k == 0)
            first_id = t->rec.id;
        if (t->rec.id != first_id + (uint64_t)k) {
            rc = hs_error_set(&b->err, HS_ESTORE, "task ids of a game are not consecutive");
            s_fatal(b, rc);
        }
        t->job = j;
        if (game) {
            t->game = game;
            game->left++;
        }
        s_queue_push(j, t);
        b->pending++;
    }
    if (game && game->left == 0)
        free(game);
    if (rc < 0)
        return rc;   /* a store error: the broker stops, the batch is dropped */
    j->rec.games_total++;
    j->rec.positions_total += n;
    j->dirty = true;
    b->games_added++;
    b->tasks_added += chunks;
    return 0;
}

int hs__job_add_game(hs__broker_t *b, hs__bjob_t *j, const hs_wire_game_t *g, bool *accepted)
{
    bool existed = false;
    int rc = hs__batch(b);
    *accepted = false;
    if (rc < 0)
        return rc;
    if (g->error) {
        char src[64];
        const char *source = g->source;
        if (!source) {
            snprintf(src, sizeof src, "(job %llu, unnamed game)", (unsigned long long)j->rec.id);
            source = src;
        }
        rc = s_fatal(b, hs_store_game_failed(b->store, source, g->error, j->rec.id, &existed,
                                             &b->err));
        if (rc < 0)
            return rc;
        if (!existed) {
            j->rec.games_total++;
            j->rec.games_failed++;
            j->dirty = true;
        }
        *accepted = true;
        return 0;
    }
    hs_game_t copy = g->game;
    if (copy.id[0] == 0 && copy.id[1] == 0)
        hs_game_compute_id(&copy);
    rc = s_fatal(b, hs_store_game_put(b->store, &copy, g->source, j->rec.id, &existed, &b->err));
    if (rc < 0)
        return rc;
    if (existed) {
        /* Resent batch (client retry after a broker restart) or a game seen in an
         * earlier job: only a game first stored by another job gets a new task. */
        hs_game_t old;
        uint64_t old_job = 0;
        hs_error_t e2 = { 0 };
        if (hs_store_game_get(b->store, copy.id, &old, NULL, &old_job, &e2) == 0)
            hs_game_fini(&old);
        if (old_job == j->rec.id) {
            *accepted = true;
            return 0;
        }
    }
    rc = s_task_create(b, j, copy.id, copy.num_moves);
    *accepted = rc == 0;
    return rc;
}

int hs__job_cancel(hs__broker_t *b, hs__bjob_t *j)
{
    if (j->rec.state != HS_JOB_RUNNING)
        return 0;
    /* Every queued or leased task of the job goes to CANCELED. */
    for (size_t i = 0; i < b->num_buckets; i++)
        for (hs__btask_t *t = b->buckets[i], *nx; t; t = nx) {
            nx = t->hnext;
            if (t->job != j)
                continue;
            s_detach(b, t);
            t->rec.state = HS_TASK_CANCELED;
            int rc = s_put(b, t);
            s_table_remove(b, t);
            if (rc < 0)
                return rc;
        }
    j->rec.state = HS_JOB_CANCELED;
    snprintf(j->rec.reason, sizeof j->rec.reason, "canceled by a client");
    j->dirty = true;
    S_LOG(b, "job %llu canceled\n", (unsigned long long)j->rec.id);
    return 0;
}

void hs__job_check_done(hs__broker_t *b, hs__bjob_t *j)
{
    if (j->rec.state == HS_JOB_RUNNING && j->rec.input_complete && j->queued == 0 &&
        j->leased == 0) {
        j->rec.state = hs__job_abandoned(j) ? HS_JOB_FAILED : HS_JOB_DONE;
        j->dirty = true;
        S_LOG(b, "job %llu done: %lld games, %lld failed, %lld positions\n",
              (unsigned long long)j->rec.id, (long long)j->rec.games_total,
              (long long)j->rec.games_failed, (long long)j->rec.positions_done);
    }
}

int hs__jobs_flush(hs__broker_t *b)
{
    for (int i = 0; i < b->num_jobs; i++) {
        hs__bjob_t *j = b->jobs[i];
        if (!j->dirty)
            continue;
        int rc = hs__batch(b);
        j->rec.updated_unix = (int64_t)time(NULL);
        if (rc < 0 || (rc = s_fatal(b, hs_store_job_put(b->store, &j->rec, &b->err))) < 0)
            return rc;
        j->dirty = false;
    }
    return 0;
}

/* ------------------------------------------------------------------ tasks */

static bool s_worker_can(const hs__bworker_t *w, const hs__bjob_t *j)
{
    for (int e = 0; e < j->num_engines; e++) {
        const char *spec = j->engines[e];
        size_t len = strcspn(spec, ":");
        bool ok = false;
        for (int k = 0; k < w->num_engines && !ok; k++)
            ok = strlen(w->engines[k]) == len && !strncmp(w->engines[k], spec, len);
        if (!ok)
            return false;
    }
    return true;
}

hs__btask_t *hs__task_next(hs__broker_t *b, const hs__bworker_t *w)
{
    /* Fair scheduling: round robin over jobs that have queued work this worker
     * can do, one task per turn. */
    for (int k = 0; k < b->num_jobs; k++) {
        int i = (b->rr + k) % b->num_jobs;
        hs__bjob_t *j = b->jobs[i];
        if (j->rec.state != HS_JOB_RUNNING || !j->qhead || !s_worker_can(w, j))
            continue;
        b->rr = (i + 1) % b->num_jobs;
        return j->qhead;
    }
    return NULL;
}

int hs__task_lease(hs__broker_t *b, hs__btask_t *t, hs__bworker_t *w)
{
    s_queue_remove(t->job, t);
    t->job->leased++;
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
    w->leases[w->num_leases++] = t;
    w->leased_positions += hs_store_task_positions(&t->rec);
    /* Not journaled: after a crash every leased task is queued again anyway, and
     * the next journaled transition (done, requeue, fail, cancel) writes the
     * attempts. Only the attempt of a lease cut short by a broker crash is not
     * counted. This halves the journal writes per task. */
    return 0;
}

int hs__task_unlease(hs__broker_t *b, hs__btask_t *t)
{
    s_detach(b, t);
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
        s_detach(b, s);
        s->rec.state = HS_TASK_CANCELED;
        snprintf(s->rec.reason, sizeof s->rec.reason, "game failed in chunk %d of %d",
                 t->rec.chunk + 1, t->rec.chunks);
        int rc = s_put(b, s);
        s_table_remove(b, s);
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
    s_detach(b, t);
    t->rec.state = HS_TASK_FAILED;
    snprintf(t->rec.reason, sizeof t->rec.reason, "%s", reason ? reason : "unknown");
    int rc = s_put(b, t);
    if (rc == 0) {
        char *source = NULL, fallback[64];
        hs_game_t g;
        hs_error_t e2 = { 0 };
        if (hs_store_game_get(b->store, t->rec.game_id, &g, &source, NULL, &e2) == 0)
            hs_game_fini(&g);
        if (!source) {
            snprintf(fallback, sizeof fallback, "game %016llx%016llx",
                     (unsigned long long)t->rec.game_id[0], (unsigned long long)t->rec.game_id[1]);
        }
        rc = s_fatal(b, hs_store_game_failed(b->store, source ? source : fallback,
                                             t->rec.reason, j->rec.id, NULL, &b->err));
        free(source);
    }
    if (rc == 0)
        rc = s_cancel_siblings(b, t);
    S_LOG(b, "task %llu failed: %s\n", (unsigned long long)t->rec.id, t->rec.reason);
    j->rec.games_failed++;
    j->dirty = true;
    s_table_remove(b, t);
    hs__job_check_done(b, j);
    return rc;
}

int hs__task_requeue(hs__broker_t *b, hs__btask_t *t, const char *reason)
{
    if (t->rec.attempts >= b->max_attempts) {
        char why[256];
        snprintf(why, sizeof why, "%s (after %d attempts)", reason, t->rec.attempts);
        return s_task_fail(b, t, why);
    }
    s_detach(b, t);
    t->rec.state = HS_TASK_QUEUED;
    snprintf(t->rec.reason, sizeof t->rec.reason, "%s", reason);
    s_queue_push(t->job, t);
    b->pending++;
    return s_put(b, t);
}

int hs__task_done(hs__broker_t *b, hs__btask_t *t, const hs_wire_result_t *r)
{
    hs__bjob_t *j = t->job;
    if (r->error)
        return hs__task_requeue(b, t, r->error);
    int rc = hs__batch(b);
    if (rc < 0)
        return rc;
    for (int i = 0; i < r->num_evals; i++) {
        const hs_eval_t *e = &r->evals[i];
        const char *spec = NULL;
        for (int k = 0; k < j->num_engines; k++)
            if (j->engine_ids[k] == e->engine_id)
                spec = j->engines[k];
        if (!spec)
            continue;   /* not an engine of this job: ignore rather than trust it */
        rc = s_fatal(b, hs_store_result_put(b->store, t->rec.game_id, e, spec, NULL, &b->err));
        if (rc < 0)
            return rc;
    }
    s_detach(b, t);
    t->rec.state = HS_TASK_DONE;
    t->rec.reason[0] = '\0';
    if ((rc = s_put(b, t)) < 0)
        return rc;
    if (!t->game || t->game->left == 1)
        j->rec.games_done++;   /* the game's last unfinished chunk */
    j->rec.positions_done += s_positions(&t->rec);
    j->dirty = true;
    s_table_remove(b, t);
    hs__job_check_done(b, j);
    return 0;
}

int hs__task_build(hs__broker_t *b, const hs__btask_t *t, hs_wire_msg_t *m, hs_error_t *err)
{
    hs_wire_msg_init(m, HS_WIRE_TASK);
    hs_wire_task_t *task = &m->task;
    task->task_id = t->rec.id;
    task->job_id = t->rec.job_id;
    int rc = hs_store_game_get(b->store, t->rec.game_id, &task->game.game, &task->game.source,
                               NULL, err);
    if (rc < 0)
        return rc;
    int n = s_positions(&t->rec);
    if (t->rec.move_last > task->game.game.num_moves || n <= 0 || n > HS_WIRE_MAX_EVALS)
        return hs_error_set(err, HS_EINVAL, "task moves %d..%d do not fit the game (%d moves)",
                            t->rec.move_first, t->rec.move_last, task->game.game.num_moves);
    /* Every chunk carries the whole record (worker/engine.h: engines are given the
     * whole game; the judge treats a record's last position as finished). */
    task->move_numbers = malloc(sizeof(int) * (size_t)n);
    task->engines = calloc((size_t)t->job->num_engines, sizeof(char *));
    if (!task->move_numbers || !task->engines)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        task->move_numbers[i] = t->rec.move_first + i * t->rec.move_step;
    task->num_move_numbers = n;
    for (int e = 0; e < t->job->num_engines; e++) {
        task->engines[e] = strdup(t->job->engines[e]);
        if (!task->engines[e])
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        task->num_engines++;
    }
    return 0;
}

/* ------------------------------------------------------------ restart */

typedef struct {
    hs_store_task_t *v;
    size_t n, cap;
} s_tasklist_t;

static int s_collect(void *ctx, const hs_store_task_t *t)
{
    s_tasklist_t *l = ctx;
    if (l->n == l->cap) {
        size_t n = l->cap ? l->cap * 2 : 256;
        hs_store_task_t *nv = realloc(l->v, sizeof *nv * n);
        if (!nv)
            return HS_ENOMEM;
        l->v = nv;
        l->cap = n;
    }
    l->v[l->n++] = *t;
    return 0;
}

static int s_cmp_task_id(const void *a, const void *b)
{
    uint64_t x = ((const hs_store_task_t *)a)->id, y = ((const hs_store_task_t *)b)->id;
    return x < y ? -1 : x > y;
}

int hs__broker_load(hs__broker_t *b, hs_error_t *err)
{
    hs_store_job_t *jobs = NULL;
    int count = 0, rc;
    if ((rc = hs_store_job_list(b->store, &jobs, &count, err)) < 0)
        return rc;
    for (int i = 0; i < count && rc == 0; i++) {
        hs__bjob_t *j = calloc(1, sizeof *j);
        if (!j) {
            rc = hs_error_set(err, HS_ENOMEM, "out of memory");
            break;
        }
        j->rec = jobs[i];
        j->rate_ms = b->now;
        j->last_input = b->now;   /* the upload lease starts again */
        s_job_token_load(j);
        j->rate_done = j->rec.positions_done;
        if (s_job_engines(j, err) < 0 && j->rec.state == HS_JOB_RUNNING) {
            j->rec.state = HS_JOB_FAILED;
            snprintf(j->rec.reason, sizeof j->rec.reason, "bad engine list in the journal");
            j->dirty = true;
        }
        if ((rc = s_job_add(b, j)) < 0)
            free(j);
    }
    free(jobs);
    if (rc < 0)
        return rc;
    /* Queued and leased tasks come back as queued, in id order. */
    s_tasklist_t l = { 0 };
    if ((rc = hs_store_task_each(b->store, HS_TASK_QUEUED, s_collect, &l, err)) < 0 ||
        (rc = hs_store_task_each(b->store, HS_TASK_LEASED, s_collect, &l, err)) < 0) {
        free(l.v);
        return rc;
    }
    /* Id order: the queue keeps its order, and the chunks of a game come together. */
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, s_cmp_task_id);
    int requeued = 0;
    hs__btask_t *prev = NULL;
    for (size_t i = 0; i < l.n; i++) {
        hs__bjob_t *j = hs__job_find(b, l.v[i].job_id);
        if (!j || j->rec.state != HS_JOB_RUNNING)
            continue;
        hs__btask_t *t = calloc(1, sizeof *t);
        if (!t) {
            rc = hs_error_set(err, HS_ENOMEM, "out of memory");
            break;
        }
        t->rec = l.v[i];
        t->jstate = t->rec.state;
        t->job = j;
        if ((rc = s_table_add(b, t)) < 0) {
            free(t);
            break;
        }
        /* Unfinished chunks of one game (same job, same first id) share one
         * counter again: the game is done when the last of them is. */
        if (t->rec.chunks > 1) {
            if (prev && prev->game && prev->job == j &&
                prev->rec.id - (uint64_t)prev->rec.chunk == t->rec.id - (uint64_t)t->rec.chunk) {
                t->game = prev->game;
            } else if (!(t->game = calloc(1, sizeof *t->game))) {
                rc = hs_error_set(err, HS_ENOMEM, "out of memory");
                break;
            }
            t->game->left++;
        }
        prev = t;
        if (t->rec.state == HS_TASK_LEASED) {
            t->rec.state = HS_TASK_QUEUED;
            if ((rc = s_put(b, t)) < 0)
                break;
            requeued++;
        }
        s_queue_push(j, t);
        b->pending++;
    }
    free(l.v);
    for (int i = 0; i < b->num_jobs; i++)
        hs__job_check_done(b, b->jobs[i]);
    if (b->num_jobs)
        S_LOG(b, "journal: %d jobs, %lld tasks pending (%d were leased)\n", b->num_jobs,
              (long long)b->pending, requeued);
    return rc;
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
    for (int i = 0; i < b->num_jobs; i++)
        free(b->jobs[i]);
    free(b->jobs);
    b->jobs = NULL;
    b->num_jobs = 0;
    for (int i = 0; i < b->num_workers; i++) {
        free(b->workers[i]->leases);
        free(b->workers[i]);
    }
    free(b->workers);
    b->workers = NULL;
    b->num_workers = 0;
}
