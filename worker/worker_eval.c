/*
 * worker/worker_eval.c — turns one TASK into one RESULT body: replays the game
 * once, gathers the requested positions into batches, runs every engine of the
 * task on each batch, and encodes the evaluations.
 *
 * Replay is incremental (one pass over the moves) so a task costs O(moves), not
 * O(moves²). Several tasks with the same engines share a batch
 * (hs__worker_eval_tasks): positions of short tasks fill one engine call, and
 * the engine clocks (a system call each on some virtual machines) are read once
 * per call. Boards are copied into the batch (hs_board_copy: the used part of
 * a board), so a batch of B positions holds B boards: B is bounded by
 * hs__worker_batch_max.
 */
#include "worker/worker_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/clock.h"
#include "worker/stability.h"

void hs__engine_cache_fini(hs__engine_cache_t *c)
{
    for (int i = 0; i < HS__ENGINE_CACHE; i++) {
        hs_engine_fini(&c->eng[i]);
        c->spec[i][0] = '\0';
    }
    hs_stability_memo_destroy(&c->memo);
}

void hs__eval_ctx_fini(hs__eval_ctx_t *x)
{
    hs__engine_cache_fini(&x->cache);
    free(x->prev);
    x->prev = NULL;
    for (int i = 0; i < HS__BATCH_MAX; i++) {
        free(x->refused[i]);
        x->refused[i] = NULL;
    }
}

/* The slot for a new instance: a free one, else the least recently used one
 * that the engine set being taken (tick) does not hold, its instance ended.
 * There is always one: a set holds at most HS_WIRE_MAX_ENGINES - 1 slots while
 * it takes its last spec. */
static int s_engine_slot(hs__engine_cache_t *c, uint64_t tick)
{
    int victim = -1;
    for (int i = 0; i < HS__ENGINE_CACHE; i++) {
        if (!c->spec[i][0])
            return i;
        if (c->used[i] < tick && (victim < 0 || c->used[i] < c->used[victim]))
            victim = i;
    }
    if (victim >= 0) {
        hs_engine_fini(&c->eng[victim]);
        c->spec[victim][0] = '\0';
    }
    return victim;
}

/* The instance for spec "name[:options]", created on first use; tick is the
 * engine set it is taken for (its instance stays until a later set evicts it). */
static int s_engine_get(hs__engine_cache_t *c, const hs_engine_config_t *base,
                        const char *spec, uint64_t tick, hs_engine_t **out, hs_error_t *err)
{
    for (int i = 0; i < HS__ENGINE_CACHE; i++)
        if (c->spec[i][0] && !strcmp(c->spec[i], spec)) {
            c->used[i] = tick;
            *out = &c->eng[i];
            return 0;
        }
    if (strlen(spec) >= sizeof c->spec[0])
        return hs_error_set(err, HS_ELIMIT, "engine spec too long for a worker: %.40s...", spec);
    char name[HS_ENGINE_NAME_MAX];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name)
        return hs_error_set(err, HS_EINVAL, "engine name too long in '%s'", spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    if (!c->memo && !(c->memo = hs_stability_memo_new()))
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int slot = s_engine_slot(c, tick);
    if (slot < 0)   /* a task of more specs than the cache holds: never from the wire */
        return hs_error_set(err, HS_ELIMIT, "too many engine specs in one task");
    hs_engine_config_t cfg = *base;
    cfg.gpu = cfg.nets ? cfg.gpu : -1;
    cfg.options = colon ? colon + 1 : NULL;
    cfg.stability_memo = c->memo;
    int rc = hs_engine_init(&c->eng[slot], name, &cfg, err);
    if (rc < 0)
        return rc;   /* the slot stays free */
    strcpy(c->spec[slot], spec);
    c->used[slot] = tick;
    *out = &c->eng[slot];
    return 0;
}

/*
 * Whether an error code means the task can never succeed, on any worker: the
 * game cannot be replayed (HS_EILLEGAL: an illegal move; HS_EINVAL: a move or
 * setup stone off the board, a bad size, an engine option the engine refuses;
 * HS_EPARSE, HS_EUNSUPPORTED: a size or spec the engine does not take). The
 * broker then fails the task at once instead of sending it again and again.
 * Anything else (out of memory, a limit of this worker, an unknown engine that
 * another build may know) is worth a retry elsewhere.
 */
static bool s_permanent(int rc)
{
    return rc == HS_EILLEGAL || rc == HS_EINVAL || rc == HS_EPARSE || rc == HS_EUNSUPPORTED;
}

/* Fails one RESULT: drops its evals, keeps the first reason (and whether it is
 * permanent, s_permanent(rc)). The reason travels as wire text: a message cut
 * inside a UTF-8 character is escaped rather than refused by the encoder. */
static void s_fail(hs_wire_result_t *res, const char *why, int rc)
{
    for (int i = 0; i < res->num_evals; i++)
        hs_eval_fini(&res->evals[i]);
    res->num_evals = 0;
    if (!res->error) {
        why = why && *why ? why : "evaluation failed";
        res->error = hs_wire_utf8_escape(why, strlen(why), NULL);
        if (!res->error)   /* out of memory: a shorter copy, and never a success */
            res->error = strdup("out of memory");
        /* Should both copies fail, the RESULT still carries no evals, which the
         * broker takes as a failed task (hs__result_check), never as done. */
        res->permanent = res->error && s_permanent(rc);
    }
}

/* An engine's top moves into the eval: probabilities as 16-bit fixed point
 * (the wire's and the store's form), moves off the board dropped. */
static void s_policy(const hs_engine_result_t *r, int nv, hs_eval_t *ev)
{
    int k = 0;
    for (int i = 0; i < r->num_policy && i < HS_EVAL_POLICY_MAX; i++) {
        const hs_engine_move_t *m = &r->policy[i];
        if (m->vertex != HS_GAME_PASS && m->vertex >= nv)
            continue;
        float p = m->prob < 0 ? 0 : m->prob > 1 ? 1 : m->prob;
        ev->policy[k].vertex = m->vertex;
        ev->policy[k++].prob = (uint16_t)lroundf(p * 65535.0f);
    }
    ev->num_policy = k;
}

/* 0..1 as x / 65535. */
static uint16_t s_fix16(float p)
{
    return (uint16_t)lroundf((p < 0 ? 0 : p > 1 ? 1 : p) * 65535.0f);
}

static bool s_on_board(uint16_t v, int nv)
{
    return v == HS_GAME_PASS || v < nv;
}

/* A tree search's fields into the eval in the wire's and the store's forms:
 * win rates and priors x 65535, leads in tenths of a point (clamped). A PV
 * is cut at a move off the board; without a valid best move there are none. */
static void s_search(const hs_engine_result_t *r, int nv, hs_eval_t *ev)
{
    int k = 0;
    for (int i = 0; i < r->pv_len && i < HS_EVAL_PV_MAX && s_on_board(r->pv[i], nv); i++)
        ev->pv[k++] = r->pv[i];
    if (k == 0)
        return;
    ev->pv_len = k;
    ev->visits = (uint32_t)r->visits;
    k = 0;
    for (int i = 0; i < r->num_moves && i < HS_EVAL_MOVES_MAX; i++) {
        const hs_engine_search_move_t *m = &r->moves[i];
        if (!s_on_board(m->vertex, nv) || m->visits < 0)
            continue;
        float lead = isnan(m->score) ? 0.0f : m->score * 10.0f;
        lead = lead > 32767 ? 32767 : lead < -32767 ? -32767 : lead;
        ev->moves[k++] = (hs_eval_search_move_t){
            .vertex = m->vertex, .visits = (uint32_t)m->visits, .win_rate = s_fix16(m->winrate),
            .lead = (int16_t)lroundf(lead), .prior = s_fix16(m->prior),
        };
    }
    ev->num_moves = k;
}

/*
 * One call of engine e on the batch's positions first..first+n: clocks and
 * counters kept, *dt its wall time. The engine's status.
 */
static int s_engine_call(hs__eval_ctx_t *x, int e, int first, int n, double *dt,
                         hs_error_t *err)
{
    for (int i = first; i < first + n; i++) {   /* the header fields only: arrays are big */
        x->results[i].flags = 0;
        x->results[i].num_vertices = 0;
        x->results[i].classes[0] = x->results[i].result[0] = '\0';
    }
    double t0 = hs_clock_now(), c0 = hs_clock_thread_cpu();
    double h0 = hs_engine_helper_cpu(x->engs[e]);
    long calls0, leaves0, calls1, leaves1;
    hs_engine_eval_counts(x->engs[e], &calls0, &leaves0);
    int rc = hs_engine_evaluate(x->engs[e], x->pos + first, n, x->results + first, err);
    x->engine_cpu_seconds += hs_clock_thread_cpu() - c0
                           + hs_engine_helper_cpu(x->engs[e]) - h0;
    hs_engine_eval_counts(x->engs[e], &calls1, &leaves1);
    x->eval_calls += (uint64_t)(calls1 - calls0);
    x->eval_leaves += (uint64_t)(leaves1 - leaves0);
    *dt = hs_clock_now() - t0;
    x->engine_seconds += *dt;
    return rc;
}

/*
 * Position i refused by engine e (why, status rc). In a task of several engines
 * a lasting refusal (a board size the net has no room for) is that engine's
 * eval of the position, with the reason as its error, so that the other
 * engines' evals of the game are kept; otherwise it fails the RESULT.
 */
static void s_refuse(hs__eval_ctx_t *x, int i, const char *why, int rc)
{
    why = why && *why ? why : hs_strerror(rc);
    if (x->batch_task->num_engines > 1 && s_permanent(rc)) {
        free(x->refused[i]);
        x->refused[i] = hs_wire_utf8_escape(why, strlen(why), NULL);
        if (x->refused[i])
            return;
    }
    s_fail(x->owner[i], why, rc);
}

/*
 * Engine e on the whole batch. Should the engine refuse it, each position is
 * tried alone, so that what it refuses (a board size the net has no room for)
 * fails only the RESULT that position came from, with the engine's reason,
 * and not the other games that happened to share the batch (s_refuse). *dt
 * is the wall time a position.
 */
static void s_engine_batch(hs__eval_ctx_t *x, int e, int n, double *dt)
{
    hs_error_t err = { 0 };
    int rc = s_engine_call(x, e, 0, n, dt, &err);
    if (rc >= 0 || n == 1) {
        if (rc < 0)
            s_refuse(x, 0, err.msg, rc);
        *dt /= n;
        return;
    }
    double sum = 0, one;
    for (int i = 0; i < n; i++) {
        if (x->owner[i]->error)
            continue;   /* failed already: by an earlier position of its task */
        hs_error_t e1 = { 0 };
        if ((rc = s_engine_call(x, e, i, 1, &one, &e1)) < 0)
            s_refuse(x, i, e1.msg, rc);
        sum += one;
    }
    *dt = sum / n;
}

/* Whether the worker stops (now: leaves at once, HS_WORKER_STOP_NOW). */
static bool s_stopped(const hs__eval_ctx_t *x, bool now)
{
    int v = x->stop ? atomic_load(x->stop) : 0;
    return now ? (v & HS_WORKER_STOP_NOW) != 0 : v != 0;
}

/*
 * Evaluates the batch with every engine of x->batch_task and appends each
 * position's evals to the RESULT it came from (x->owner). The clocks are read
 * once per engine call. A position an engine fails fails its RESULT (the
 * reason says why), and only its; the batch is emptied either way.
 */
static void s_flush(hs__eval_ctx_t *x)
{
    int n = x->batch_n;
    x->batch_n = 0;
    if (n == 0 || s_stopped(x, true))
        return;   /* leaving at once: these RESULTs are dropped unsent */
    const hs_wire_task_t *t = x->batch_task;
    for (int e = 0; e < t->num_engines; e++) {
        double dt;
        s_engine_batch(x, e, n, &dt);
        for (int i = 0; i < n; i++) {
            const hs_engine_result_t *r = &x->results[i];
            hs_wire_result_t *res = x->owner[i];
            char *refused = x->refused[i];   /* this engine's only (s_refuse) */
            x->refused[i] = NULL;
            if (res->error) {
                free(refused);
                continue;
            }
            int size = x->pos[i].game->size, nv = size * size;
            hs_eval_t *ev = &res->evals[res->num_evals++];
            memset(ev, 0, sizeof *ev);
            ev->move_number = x->pos[i].move_number;
            memcpy(ev->pos_key, x->keys[i], 16);
            ev->engine_id = x->eids[e];
            ev->size = size;
            ev->score_lead = (r->flags & HS_ENGINE_HAS_SCORE) ? r->score : NAN;
            ev->win_rate = (r->flags & HS_ENGINE_HAS_WINRATE) ? r->winrate : NAN;
            ev->timing_us = (uint32_t)(dt * 1e6);
            if (refused) {   /* the engine's reason is its eval (s_refuse) */
                ev->error = refused;
                continue;
            }
            bool oom = false;
            if ((r->flags & HS_ENGINE_HAS_OWNERSHIP) && r->num_vertices == nv) {
                if ((ev->ownership = malloc((size_t)nv)))
                    memcpy(ev->ownership, r->ownership, (size_t)nv);
                oom |= !ev->ownership;
            }
            if ((r->flags & HS_ENGINE_HAS_CLASSES) && r->num_vertices == nv &&
                strlen(r->classes) == (size_t)nv)
                oom |= !(ev->classes = strdup(r->classes));
            if ((r->flags & HS_ENGINE_HAS_RESULT) && r->result[0])
                oom |= !(ev->result = strdup(r->result));
            if ((r->flags & HS_ENGINE_HAS_INFLUENCE) && r->num_vertices == nv) {
                if ((ev->influence = malloc(sizeof(int16_t) * (size_t)nv)))
                    memcpy(ev->influence, r->influence, sizeof(int16_t) * (size_t)nv);
                oom |= !ev->influence;
            }
            if (r->flags & HS_ENGINE_HAS_SPREAD)
                ev->score_stdev = r->score_stdev;
            if (r->flags & HS_ENGINE_HAS_POLICY)
                s_policy(r, nv, ev);
            if ((r->flags & HS_ENGINE_HAS_SEARCH) && r->visits > 0 && r->pv_len > 0)
                s_search(r, nv, ev);
            if (oom)
                s_fail(res, "out of memory", HS_ENOMEM);
        }
    }
}

static bool s_same_engines(const hs_wire_task_t *a, const hs_wire_task_t *b)
{
    if (a->num_engines != b->num_engines)
        return false;
    for (int e = 0; e < a->num_engines; e++)
        if (strcmp(a->engines[e], b->engines[e]))
            return false;
    return true;
}

/* Makes t's engines the batch's (flushing a batch of other engines first). */
static int s_use_engines(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_error_t *err)
{
    if (t->num_engines <= 0 || t->num_engines > HS_WIRE_MAX_ENGINES)
        return hs_error_set(err, HS_EINVAL, "task names no engine");
    if (x->batch_task && s_same_engines(x->batch_task, t)) {
        x->batch_task = t;   /* same engines: the batch goes on */
        return 0;
    }
    s_flush(x);
    x->batch_task = NULL;
    int limit = x->batch_max, rc, history = 0;
    /* The batch of the previous engines is flushed: only this set's instances
     * must stay, and s_engine_get evicts none of them while it takes the rest. */
    uint64_t tick = ++x->cache.tick;
    for (int e = 0; e < t->num_engines; e++) {
        if ((rc = s_engine_get(&x->cache, &x->base, t->engines[e], tick, &x->engs[e],
                               err)) < 0)
            return rc;
        x->eids[e] = hs_engine_config_id(t->engines[e]);
        if (x->engs[e]->vt->max_batch < limit)
            limit = x->engs[e]->vt->max_batch;
        if (x->engs[e]->vt->history > history)
            history = x->engs[e]->vt->history;
    }
    if (history > 0 && !x->prev && !(x->prev = malloc(sizeof *x->prev * HS__BATCH_MAX)))
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    x->history = history;
    x->batch_limit = limit < 1 ? 1 : limit;
    x->batch_task = t;
    return 0;
}

/* Keeps the replay's current board in the ring of the last three. */
static void s_ring_keep(hs__eval_ctx_t *x)
{
    int m = x->replay.played;
    hs_board_copy(&x->ring[m % 3], &x->replay.board);
    x->ring_move[m % 3] = m;
}

/* Replays to target through the two moves before it, keeping their boards
 * (and target's, the next position's history when positions are consecutive). */
static int s_replay_history(hs__eval_ctx_t *x, int target, hs_error_t *err)
{
    hs_replay_t *r = &x->replay;
    for (int m = target - 2 > r->played + 1 ? target - 2 : r->played + 1; m <= target; m++) {
        int rc = hs_replay_to(r, m, err);
        if (rc < 0)
            return rc;
        s_ring_keep(x);
    }
    return 0;
}

/* Replays the task's game and adds its positions to the batch (evaluated by
 * s_flush when the batch fills, or later: res->evals is sized for all of them). */
static int s_evaluate(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_wire_result_t *res,
                      hs_error_t *err)
{
    const hs_game_t *g = &t->game.game;
    int rc;
    if ((rc = s_use_engines(x, t, err)) < 0)
        return rc;
    /* Not zeroed: s_flush writes each eval whole before counting it, and only
     * counted ones are ever read or freed (malloc, unlike calloc, can be served
     * from glibc's per-thread cache). */
    res->evals = malloc(((size_t)t->num_move_numbers * (size_t)t->num_engines + 1) *
                        sizeof *res->evals);
    if (!res->evals)
        return hs_error_set(err, HS_ENOMEM, "out of memory");

    /* The one replay the query layer uses too (core/replay.h): same keys. */
    hs_replay_t *r = &x->replay;
    if ((rc = hs_replay_start(r, g, err)) < 0)
        goto done;
    for (int i = 0; i < 3; i++)
        x->ring_move[i] = -1;
    if (x->history > 0)
        s_ring_keep(x);
    for (int k = 0; k < t->num_move_numbers; k++) {
        int target = t->move_numbers[k];
        if ((rc = x->history > 0 ? s_replay_history(x, target, err)
                                 : hs_replay_to(r, target, err)) < 0)
            goto done;
        int b = x->batch_n++;
        x->pos[b].prev1 = x->pos[b].prev2 = NULL;
        for (int h = 1; h <= x->history && h <= 2; h++) {
            int m = target - h;
            if (m >= 0 && x->ring_move[m % 3] == m) {
                hs_board_copy(&x->prev[b][h - 1], &x->ring[m % 3]);
                *(h == 1 ? &x->pos[b].prev1 : &x->pos[b].prev2) = &x->prev[b][h - 1];
            }
        }
        /* Only the used part of the board (board.h): a 19x19 copy is half the
         * 12 KB struct, and this copy was the worker's largest cost per position. */
        hs_board_copy(&x->boards[b], &r->board);
        x->pos[b].game = g;
        x->pos[b].board = &x->boards[b];
        x->pos[b].move_number = target;
        x->owner[b] = res;
        hs_replay_key(r, x->keys[b]);
        if (x->batch_n >= x->batch_limit)
            s_flush(x);
    }
    rc = 0;
done:
    hs_replay_fini(r);
    return rc;
}

/* Starts the tasks (their positions into batches, RESULTs into m) until the
 * worker stops: a stopping worker starts no new task, and those left go back
 * to the broker. Returns how many were started. */
static int s_start_tasks(hs__eval_ctx_t *x, const hs_wire_task_t *const *t, int n,
                         hs_wire_msg_t *m)
{
    for (int i = 0; i < n; i++) {
        if (s_stopped(x, false))
            return i;
        hs_wire_msg_init(&m[i], HS_WIRE_RESULT);
        hs_wire_result_t *res = &m[i].result;
        res->task_id = t[i]->task_id;
        res->job_id = t[i]->job_id;
        res->game_id[0] = t[i]->game.game.id[0];
        res->game_id[1] = t[i]->game.game.id[1];
        hs_error_t err = { 0 };
        int rc = s_evaluate(x, t[i], res, &err);
        if (rc < 0)
            s_fail(res, err.msg[0] ? err.msg : hs_strerror(rc), rc);
    }
    return n;
}

int hs__worker_eval_tasks(hs__eval_ctx_t *x, const hs_wire_task_t *const *t, int n,
                          hs_wire_buf_t *outs, uint64_t *positions, int *failed)
{
    /* The RESULTs live in the context's scratch (each is initialised below). */
    hs_wire_msg_t *m = n <= HS__GROUP_MAX ? x->msgs : malloc((size_t)n * sizeof *m);
    if (!m)
        return HS_ENOMEM;
    x->batch_n = 0;
    x->batch_task = NULL;
    int started = s_start_tasks(x, t, n, m);
    s_flush(x);
    x->batch_task = NULL;
    /* Leaving at once: s_flush skipped the engines, and nobody sends RESULTs. */
    bool drop = s_stopped(x, true);
    int first = 0;
    for (int i = 0; i < n; i++) {
        outs[i].len = 0;
        positions[i] = 0;
        failed[i] = HS__TASK_SKIPPED;
        if (i >= started)
            continue;
        if (!drop) {
            failed[i] = m[i].result.error != NULL;
            positions[i] = failed[i] ? 0 : (uint64_t)t[i]->num_move_numbers;
            hs_error_t eerr = { 0 };
            int rc = hs_wire_encode(&m[i], &outs[i], &eerr);
            if (rc < 0) {
                outs[i].len = 0;
                if (!first)
                    first = rc;
            }
        }
        hs_wire_msg_fini(&m[i]);
    }
    if (m != x->msgs)
        free(m);
    return first;
}

int hs__worker_eval_task(hs__eval_ctx_t *x, const hs_wire_task_t *t, hs_wire_buf_t *out,
                         uint64_t *positions, int *failed)
{
    return hs__worker_eval_tasks(x, &t, 1, out, positions, failed);
}
