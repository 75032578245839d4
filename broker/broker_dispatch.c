/*
 * broker/broker_dispatch.c — step 6 of the broker's round (broker.c): hand queued
 * tasks to workers with free credit. Each leased task becomes a TASK, packed per
 * worker and sent w->batch to a message; a send that fails gives exactly that
 * message's tasks back to the queue. It runs after the round's commit, so every
 * task id a worker receives is durable (docs/PROTOCOL.md, "Durability").
 * Also the other side of it: a job that no live worker can serve, and why
 * (hs__job_idle).
 */
#include "broker/broker_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/charset.h"

/*
 * Credit: a worker announces how many tasks it may hold; a credit stands for up to
 * S_CREDIT_POSITIONS positions, so small tasks (a few moves, `--moves last`) are
 * leased many per credit and the pipe stays full: a worker holds tasks while it has
 * fewer than `credit` of them, or fewer than credit x S_CREDIT_POSITIONS positions
 * in at most credit x S_CREDIT_TASKS tasks.
 */
#define S_CREDIT_POSITIONS HS_BROKER_CREDIT_POSITIONS
#define S_CREDIT_TASKS 64

static bool s_worker_full(const hs__bworker_t *w)
{
    if (w->num_leases < w->credit)
        return false;
    return w->leased_positions >= (int64_t)w->credit * S_CREDIT_POSITIONS ||
           w->num_leases >= w->credit * S_CREDIT_TASKS;
}

/*
 * The TASKs packed for one worker slot during s_dispatch, sent as one message
 * when there are w->batch of them or when the dispatch ends. Empty between
 * dispatches; the encode buffers are kept (reused) across rounds.
 */
struct hs__bpack {
    hs__btask_t *tasks[HS_WIRE_MAX_BATCH];
    hs_wire_buf_t bufs[HS_WIRE_MAX_BATCH];
    int n;
};

/* Room for a pack per worker slot. 0 or HS_ENOMEM. */
static int s_packs_reserve(hs__broker_t *b)
{
    if (b->num_workers <= b->cap_packs)
        return 0;
    int n = b->num_workers < 16 ? 16 : b->num_workers * 2;
    struct hs__bpack *np = realloc(b->packs, sizeof *np * (size_t)n);
    if (!np)
        return HS_ENOMEM;
    memset(np + b->cap_packs, 0, sizeof *np * (size_t)(n - b->cap_packs));
    b->packs = np;
    b->cap_packs = n;
    return 0;
}

void hs__packs_free(hs__broker_t *b)
{
    for (int i = 0; i < b->cap_packs; i++)
        for (int k = 0; k < HS_WIRE_MAX_BATCH; k++)
            hs_wire_buf_free(&b->packs[i].bufs[k]);
    free(b->packs);
    b->packs = NULL;
    b->cap_packs = 0;
}

/*
 * Sends the pack of worker slot i as one message. If the send fails, exactly
 * the tasks of that message are unleased (no attempt used), last first, so each
 * goes back to the head of its job's queue in the order it was taken, and the
 * worker is blocked for the rest of the round; a worker that is gone is removed
 * (its other leases requeued) and another worker moves into slot i: returns 1
 * then, so the caller looks at slot i again; else 0.
 */
static int s_pack_flush(hs__broker_t *b, int i)
{
    hs__bworker_t *w = b->workers[i];
    struct hs__bpack *p = &b->packs[i];
    if (p->n == 0)
        return 0;
    const void *data[HS_WIRE_MAX_BATCH];
    size_t len[HS_WIRE_MAX_BATCH];
    for (int k = 0; k < p->n; k++) {
        data[k] = p->bufs[k].data;
        len[k] = p->bufs[k].len;
    }
    int rc = hs__send_frames(b, w->id, w->id_len, true, data, len, p->n);
    if (rc < 0) {
        for (int k = p->n; k-- > 0;)
            hs__task_unlease(b, p->tasks[k]);
        w->blocked = true;
    } else {
        w->last_sent = b->now;
        b->sent_msgs++;
        b->sent_tasks += (uint64_t)p->n;
    }
    for (int k = 0; k < p->n; k++)
        if (p->bufs[k].cap > (64u << 10))
            hs_wire_buf_free(&p->bufs[k]);   /* keep only small buffers for reuse */
    p->n = 0;
    if (rc == HS_ENOTFOUND) {
        hs__worker_remove(b, i, "unreachable");
        /* The last worker moved into slot i: its (empty) pack moves with it. */
        struct hs__bpack tmp = b->packs[i];
        b->packs[i] = b->packs[b->num_workers];
        b->packs[b->num_workers] = tmp;
        return 1;
    }
    return 0;
}

void hs__dispatch(hs__broker_t *b)
{
    if (s_packs_reserve(b) < 0)
        return;   /* out of memory: nothing leased; the next round tries again */
    for (int i = 0; i < b->num_workers; i++)
        b->workers[i]->blocked = false;
    /* Every TASK reads its game: one read snapshot for the whole dispatch instead
     * of a read transaction per game (it follows the round's commit, so it holds
     * every task dispatch can lease). If it cannot be had, reads begin their own. */
    hs_store_read_hold(b->store, NULL);
    bool any = true;
    /* One task per worker per pass, so workers share the queue evenly; a worker's
     * tasks are packed and go out w->batch per message (1 for an older worker:
     * each at once). */
    while (any && !b->fatal) {
        any = false;
        for (int i = 0; i < b->num_workers; i++) {
            hs__bworker_t *w = b->workers[i];
            if (w->blocked || s_worker_full(w))
                continue;
            hs__btask_t *t = hs__task_next(b, w);
            if (!t) {
                w->blocked = true;   /* nothing for it until the next round */
                continue;
            }
            struct hs__bpack *p = &b->packs[i];
            hs_wire_buf_t *buf = &p->bufs[p->n];
            hs_wire_msg_t m;
            hs_error_t err = { 0 };
            int rc = hs__task_build(b, t, &m, &err);
            if (rc == 0)
                rc = hs_wire_encode(&m, buf, &err);
            hs__task_msg_fini(&m);
            any = true;
            if (rc < 0) {
                /* The task cannot be sent at all: lease it (one attempt) and fail it. */
                hs__task_lease(b, t, w);
                t->rec.attempts = b->max_attempts;
                hs__task_requeue(b, t, err.msg[0] ? err.msg : "cannot build the task");
                continue;
            }
            hs__task_lease(b, t, w);
            p->tasks[p->n++] = t;
            if (p->n >= w->batch && s_pack_flush(b, i))
                i--;
        }
    }
    for (int i = 0; i < b->num_workers; i++)
        if (s_pack_flush(b, i))
            i--;
    hs_store_read_release(b->store);
}

/* ------------------------------------------- a job no worker can serve */

#define S_WAITING_MAX 320       /* bytes of each waiting text (a longer one is cut) */

/* Appends w's engines (" a,b") at *n of out (size bytes); *n stays below size. */
static void s_put_engines(const hs__bworker_t *w, char *out, size_t size, int *n)
{
    for (int k = 0; k < w->num_engines && *n < (int)size - 1; k++)
        *n += snprintf(out + *n, size - (size_t)*n, "%s%s", k ? "," : " ", w->engines[k]);
    if (*n >= (int)size)
        *n = (int)size - 1;
}

static bool s_same_engines(const hs__bworker_t *a, const hs__bworker_t *c)
{
    if (a->num_engines != c->num_engines)
        return false;
    for (int k = 0; k < a->num_engines; k++)
        if (strcmp(a->engines[k], c->engines[k]))
            return false;
    return true;
}

/* What the live workers offer, after the text's first n bytes: by name for an
 * admin ("w1 offers a,b; w2 offers c"); for a client counted, workers with the
 * same engines together ("2 workers offer a,b; 1 worker offers c"), since
 * worker names are host names (docs/SECURITY.md, "Roles"). */
static void s_put_offers(const hs__broker_t *b, bool names, char *out, size_t size, int n)
{
    if (b->num_workers == 0)
        snprintf(out + n, size - (size_t)n, "no worker is connected");
    for (int i = 0, groups = 0; i < b->num_workers && n < (int)size - 1; i++) {
        const hs__bworker_t *w = b->workers[i];
        int count = 1;
        if (!names) {
            bool seen = false;
            for (int k = 0; k < i && !seen; k++)
                seen = s_same_engines(b->workers[k], w);
            if (seen)
                continue;
            for (int k = i + 1; k < b->num_workers; k++)
                count += s_same_engines(b->workers[k], w);
        }
        if (names)
            n += snprintf(out + n, size - (size_t)n, "%s%s offers", groups++ ? "; " : "", w->name);
        else
            n += snprintf(out + n, size - (size_t)n, "%s%d worker%s offer%s", groups++ ? "; " : "",
                          count, count == 1 ? "" : "s", count == 1 ? "s" : "");
        if (n < (int)size - 1)
            s_put_engines(w, out, size, &n);
    }
    /* A cut may split a character (of a worker name): STATUS sends only UTF-8. */
    out[hs_utf8_valid_prefix(out, strlen(out))] = '\0';
}

void hs__job_idle(hs__broker_t *b, hs__bjob_t *j)
{
    j->idle_checked = b->now;
    if (hs__job_servable(b, j)) {
        hs__job_waiting_clear(j);
        return;
    }
    bool told = j->waiting != NULL;
    char admin[S_WAITING_MAX], client[S_WAITING_MAX];
    int n = snprintf(admin, sizeof admin, "waiting: no live worker runs the engines (and nets) "
                     "of its queued tasks, %s; ", j->rec.engines);
    n = n < (int)sizeof admin ? n : (int)sizeof admin - 1;
    memcpy(client, admin, (size_t)n + 1);
    s_put_offers(b, true, admin, sizeof admin, n);
    s_put_offers(b, false, client, sizeof client, n);
    size_t la = strlen(admin), lc = strlen(client);
    char *both = malloc(la + lc + 2);
    if (both) {   /* without memory, STATUS shows no reason: the log line still goes */
        memcpy(both, admin, la + 1);
        memcpy(both + la + 1, client, lc + 1);
    }
    hs__job_waiting_clear(j);
    j->waiting = both;
    if (!told)
        hs_log_event("broker", "job %llu %s", (unsigned long long)j->rec.id, admin);
}
