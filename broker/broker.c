/*
 * broker/broker.c — the broker's socket loop: one ROUTER, workers and clients
 * told apart by the magic frame, heartbeats, worker expiry, lease timeouts,
 * credit-based dispatch, and one store commit per round.
 *
 * One round of the loop (in hs_broker_run):
 *   1. poll the ROUTER (at most 100 ms);
 *   2. drain up to S_MAX_READ ready bodies (a batched message holds several);
 *      each may write to the ONE store batch of the round (results, task
 *      journal, games) and queue a reply;
 *   3. expire silent workers and timed-out leases (requeue), send heartbeats;
 *   4. write dirty job records and commit the batch: one LMDB transaction per
 *      round, however many messages it applied;
 *   5. send the queued replies, then the WATCH pushes (STATUS_REPLYs of jobs
 *      whose counts changed), then run up to 4 waiting QUERYs (no write
 *      transaction is open now) and send their QUERY_REPLYs (both in
 *      broker_clients.c);
 *   6. dispatch (broker_dispatch.c): every worker with free credit gets tasks
 *      (lease → TASK), small tasks many per credit; a worker whose READY said
 *      batch K gets its TASKs K per message (PROTOCOL.md, "Batched messages"),
 *      and a worker may send several RESULTs per message (step 2 reads them
 *      body by body).
 *
 * Durability guarantee (also in docs/PROTOCOL.md): every reply to a client
 * (SUBMIT_REPLY "accepted", STATUS_REPLY counts and job states, CANCEL_REPLY) is
 * sent only after the commit that records everything it reports, so a task, game
 * or job is reported done or accepted to anyone only once it is on disk (fsync'd
 * unless the store was opened with HS_STORE_NOSYNC). A RESULT is durable at the
 * end of the round that read it; if the broker dies before that commit, the task
 * is still queued in the journal after the restart, is evaluated again, and the
 * idempotent store keeps one copy. Workers get no acknowledgement of results.
 * TASKs are sent only after the commit too, so every task id a worker holds is
 * durable. If a commit fails the broker stops without sending the round's replies.
 *
 * Sending uses ZMQ_ROUTER_MANDATORY: a message to a peer that is gone fails with
 * EHOSTUNREACH instead of vanishing, and a full pipe fails with EAGAIN, so a
 * TASK is never silently dropped (the lease is undone and the task stays queued).
 */
#include "broker/broker.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "core/clock.h"
#include "broker/broker_internal.h"

#define S_MAX_READ 2000
/* Frames of a message: identity, "", magic, then 1..HS_WIRE_MAX_BATCH bodies. */
#define S_MAX_FRAMES (3 + HS_WIRE_MAX_BATCH)


/* --------------------------------------------------------------- workers */

/* The worker registered under routing id `id` by the peer holding key (a
 * worker's lease is bound to both), or NULL. */
static hs__bworker_t *s_worker_find(hs__broker_t *b, const uint8_t *id, size_t len,
                                    const char *key)
{
    for (int i = 0; i < b->num_workers; i++)
        if (b->workers[i]->id_len == len && !memcmp(b->workers[i]->id, id, len))
            return strcmp(b->workers[i]->key, key) == 0 ? b->workers[i] : NULL;
    return NULL;
}

void hs__worker_remove(hs__broker_t *b, int i, const char *why)
{
    hs__bworker_t *w = b->workers[i];
    HS__EVENT(b, "worker %s removed (%s), %d tasks requeued", w->name, why, w->num_leases);
    while (w->num_leases > 0)
        hs__task_requeue(b, w->leases[w->num_leases - 1], why);
    free(w->leases);
    free(w);
    b->workers[i] = b->workers[--b->num_workers];
}

static void s_on_ready(hs__broker_t *b, const uint8_t *id, size_t len, const char *key,
                       const hs_wire_ready_t *r)
{
    for (int i = 0; i < b->num_workers; i++)
        if (b->workers[i]->id_len == len && !memcmp(b->workers[i]->id, id, len)) {
            hs__worker_remove(b, i, "sent READY again");
            break;
        }
    if (b->num_workers == b->cap_workers) {
        int n = b->cap_workers ? b->cap_workers * 2 : 16;
        hs__bworker_t **nw = realloc(b->workers, sizeof *nw * (size_t)n);
        if (!nw)
            return;
        b->workers = nw;
        b->cap_workers = n;
    }
    hs__bworker_t *w = calloc(1, sizeof *w);
    if (!w)
        return;
    memcpy(w->id, id, len);
    w->id_len = len;
    snprintf(w->key, sizeof w->key, "%s", key);
    snprintf(w->name, sizeof w->name, "%s", r->name ? r->name : "?");
    for (int i = 0; i < r->num_engines && w->num_engines < HS_WIRE_MAX_ENGINES; i++)
        if (r->engines[i] && strlen(r->engines[i]) < sizeof w->engines[0])
            strcpy(w->engines[w->num_engines++], r->engines[i]);
    w->credit = r->credit > 0 ? (r->credit > 1024 ? 1024 : r->credit) : 1;
    /* Several TASKs per message only for a worker that said it reads them. */
    w->batch = r->batch > 1 ? r->batch : 1;
    /* The decoder checked each hash's form (and the count): a spec's net=<hash>
     * option is matched against these bytes exactly. */
    for (int i = 0; i < r->num_nets && w->num_nets < HS_WIRE_MAX_NETS; i++)
        snprintf(w->nets[w->num_nets++], sizeof w->nets[0], "%s", r->nets[i]);
    snprintf(w->backend, sizeof w->backend, "%s", r->backend ? r->backend : "");
    w->expiry = b->now + hs__peer_silence_ms(b);
    w->rate_ms = b->now;   /* status --cluster: its rate counts from READY */
    w->last_answer = b->now;
    w->last_sent = b->now;
    b->workers[b->num_workers++] = w;
    char list[512];   /* which engines: what an operator asks of a job that waits */
    size_t used = 0;
    for (int i = 0; i < w->num_engines && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "," : "",
                                 w->engines[i]);
    /* Which key, with CURVE: the name in READY is the worker's own word. */
    char name[80], as[96] = "";
    if (b->cfg->curve)
        snprintf(as, sizeof as, " as %s", hs__key_name(b, key, name, sizeof name));
    HS__EVENT(b, "worker %s ready%s (engines %s, %d threads, credit %d, batch %d, %d nets%s%s)",
              w->name, as, w->num_engines ? list : "none", r->threads, w->credit, w->batch,
              w->num_nets, *w->backend ? ", backend " : "", w->backend);
}

static void s_on_result(hs__broker_t *b, hs__bworker_t *w, const hs_wire_result_t *r)
{
    hs__btask_t *t = hs__task_find(b, r->task_id);
    if (!t || t->rec.job_id != r->job_id)
        return;   /* done, failed or canceled already: a late duplicate (or a replay) */
    /* Only the lease holder's answer counts, good or not (docs/SECURITY.md,
     * "Result integrity"): anyone else — a peer that never said READY, another
     * worker, a worker whose lease ended — could store anything under a task id
     * it guessed. The late copy of an ended lease is lost: the task runs again. */
    if (!w || t->rec.state != HS_TASK_LEASED || t->worker != w) {
        HS__LOG(b, "task %llu: result refused: not from the lease holder",
                (unsigned long long)t->rec.id);
        return;
    }
    /* A "good" result that misses positions (a worker's bug, another build's
     * engines) or carries other position keys is a failure report: the task must
     * not count done with holes, nor store evals under keys of other positions. */
    char why[160];
    if (!r->error && hs__result_check(t, r, why, sizeof why) < 0) {
        HS__LOG(b, "task %llu: %s", (unsigned long long)t->rec.id, why);
        hs__task_requeue(b, t, why);
        return;
    }
    hs__task_done(b, t, r);
}

/* ------------------------------------------------------------- clients */

static void s_on_status(hs__broker_t *b, hs__outbox_t *o, const uint8_t *id, size_t len,
                        const hs_wire_status_t *q, const hs__peer_t *p)
{
    hs_wire_msg_t m;
    hs_error_t err = { 0 };
    /* Every failure is answered, a store that cannot be read included: the
     * client is told why instead of timing out. */
    int rc = hs__status_page(b, q, p->admin ? NULL : p->key, &m, &err);
    if (rc < 0) {
        hs__outbox_error(o, id, len, rc, err.msg[0] ? err.msg : hs_strerror(rc));
        return;
    }
    /* The worker list names hosts, and the queue counts every key's jobs: for
     * admins only. Without the list (no memory) the reply still goes. */
    if (p->admin)
        hs__worker_list(b, &m.status_reply);
    else
        hs__cluster_withheld(&m.status_reply);
    hs__outbox_add(o, id, len, false, &m);
    free(m.status_reply.jobs);
    free(m.status_reply.worker_list);
}

/* Games a client may send next. The queue bound counts tasks, and a long game
 * is several (chunks): the free room is divided by the mean tasks per game seen
 * so far, so a batch of long games does not overshoot the bound by its chunk
 * count. An empty queue always takes one game, however long (a queue bound
 * below one game's chunks must not stall the upload). */
static int s_submit_credit(hs__broker_t *b)
{
    int64_t room = b->queue_max - b->pending, c = room < 0 ? 0 : room;
    if (b->games_added > 0 && b->tasks_added > b->games_added)
        c = c * b->games_added / b->tasks_added;
    if (c == 0 && b->pending == 0)
        c = 1;
    return c > HS_WIRE_MAX_GAMES ? HS_WIRE_MAX_GAMES : (int)c;
}

/* A SUBMIT refused (rc, why) by a limit: the client is told why, and the log
 * says which key, whatever --verbose says, rate-limited as refused keys are (a
 * client that ignores its credit would fill it). */
static void s_submit_refused(hs__broker_t *b, hs__outbox_t *o, const uint8_t *id, size_t len,
                             int rc, const char *why, const hs__peer_t *p)
{
    char name[80];
    if (rc == HS_ELIMIT && hs__ratelog_allow(b, &b->limit_log, "SUBMITs refused by a limit"))
        hs_log_event("broker", "SUBMIT of %s refused: %s", hs__key_name(b, p->key, name,
                                                                        sizeof name), why);
    hs__outbox_error(o, id, len, rc, why);
}

/* s arrived in a body of bytes bytes from peer p (docs/SECURITY.md: a client
 * reaches only its own jobs, within its limits). */
static void s_on_submit(hs__broker_t *b, hs__outbox_t *o, const uint8_t *id, size_t len,
                        const hs_wire_submit_t *s, const hs__peer_t *p, size_t bytes)
{
    hs__bjob_t *j = NULL;
    hs__bjob_t ended;   /* the record of a job that ended, read from the store */
    hs_error_t err = { 0 };
    char why[400];
    int rc;
    if ((rc = hs__limit_upload(b, p, bytes, s->num_games, why, sizeof why)) < 0) {
        s_submit_refused(b, o, id, len, rc, why, p);
        return;
    }
    if ((s->job_id == 0 && hs__job_by_token(b, s->token, p->key, &ended, &j, &err) < 0) ||
        (s->job_id != 0 &&
         hs__job_lookup(b, s->job_id, p->admin ? NULL : p->key, &ended, &j, &err) < 0)) {
        hs__outbox_error(o, id, len, err.code, err.msg);
        return;
    }
    if (s->job_id == 0 && j) {
        /* A retry of the SUBMIT that created this job (its reply was lost): the
         * same job, and its games are skipped as duplicates. */
        HS__LOG(b, "SUBMIT with the token of job %llu: same job", (unsigned long long)j->rec.id);
    } else if (s->job_id == 0) {
        if ((rc = hs__limit_jobs(b, p, why, sizeof why)) < 0) {
            s_submit_refused(b, o, id, len, rc, why, p);
            return;
        }
        if (hs__job_new(b, s, p->key, &j, &err) < 0) {
            hs__outbox_error(o, id, len, err.code, err.msg);
            return;
        }
    } else if (!j || !hs__job_visible(j, p)) {
        hs__outbox_error(o, id, len, HS_ENOTFOUND, "no such job");
        return;
    }
    if (hs__job_abandoned(j) && s->num_games > 0) {
        snprintf(why, sizeof why, "job %llu is closed: %s", (unsigned long long)j->rec.id,
                 j->rec.reason);
        hs__outbox_error(o, id, len, HS_EBADSTATE, why);
        return;
    }
    if (j->rec.state != HS_JOB_RUNNING && s->num_games == 0 && !s->last) {
        /* A client asking for credit (a resumed upload, or one waiting while
         * its job was canceled): a job that ended never gives any, and the
         * answer "credit 0" would keep it waiting for good. */
        snprintf(why, sizeof why, "job %llu is %s: it takes no more games (a submit "
                 "without --token, or with another token, starts a new job)",
                 (unsigned long long)j->rec.id, hs_job_state_name(j->rec.state));
        hs__outbox_error(o, id, len, HS_EBADSTATE, why);
        return;
    }
    j->last_input = b->now;
    int accepted = 0;
    bool cut = false;
    if (j->rec.state == HS_JOB_RUNNING) {
        int allowance = hs__limit_allowance(b, j, s_submit_credit(b), s->job_id == 0);
        accepted = hs__limit_add_games(b, j, s, allowance, &cut);
        if (cut) {
            /* The grant is spent; the next SUBMIT (empty, to ask) gets a new one. */
            j->granted = 0;
            j->granted_known = true;
            hs__limit_why(b, j, p, allowance, why, sizeof why);
            s_submit_refused(b, o, id, len, HS_ELIMIT, why, p);
        } else if (s->last && !j->rec.input_complete) {
            j->rec.input_complete = true;
            j->dirty = true;
        }
        hs__job_check_done(b, j);
    }
    if (cut)
        return;
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT_REPLY);
    m.submit_reply.job_id = j->rec.id;
    m.submit_reply.credit =
        j->rec.state == HS_JOB_RUNNING ? hs__limit_credit(b, j, p, s_submit_credit(b)) : 0;
    m.submit_reply.accepted = accepted;
    hs__outbox_add(o, id, len, false, &m);
}

/* -------------------------------------------------------------- messages */

/* A worker's message m (its body decoded): READY, RESULT, HEARTBEAT, DISCONNECT. */
static void s_worker_body(hs__broker_t *b, hs__outbox_t *o, const uint8_t *id, size_t id_len,
                          const hs_wire_msg_t *m, bool *told, const hs__peer_t *p)
{
    hs__bworker_t *w = s_worker_find(b, id, id_len, p->key);
    if (w)
        w->expiry = b->now + hs__peer_silence_ms(b);
    switch (m->type) {
    case HS_WIRE_READY:
        s_on_ready(b, id, id_len, p->key, &m->ready);
        break;
    case HS_WIRE_RESULT:
        s_on_result(b, w, &m->result);
        break;
    case HS_WIRE_HEARTBEAT:
        /* Answered, as a client's is: a worker whose interval is shorter than
         * ours hears us in time (an unknown one gets DISCONNECT below). */
        if (w) {
            hs_wire_msg_t r;
            hs_wire_msg_init(&r, HS_WIRE_HEARTBEAT);
            hs__outbox_add(o, id, id_len, true, &r);
        }
        break;
    case HS_WIRE_DISCONNECT:
        for (int i = 0; i < b->num_workers; i++)
            if (b->workers[i] == w) {
                /* A worker that says it leaves (SIGTERM) gives back what it did
                 * not finish: no fault of those tasks, so no attempt of theirs
                 * is used (a lost or expired worker's are). */
                char why[96];
                snprintf(why, sizeof why, "disconnected; %d unfinished tasks given back",
                         w->num_leases);
                while (w->num_leases > 0)
                    hs__task_unlease(b, w->leases[w->num_leases - 1]);
                hs__worker_remove(b, i, why);
                break;
            }
        return;   /* gone: nothing to tell it */
    default:
        break;
    }
    if (!w && m->type != HS_WIRE_READY && !*told) {
        /* Unknown worker (we restarted, or expired it): make it say READY again. */
        hs_wire_msg_t d;
        hs_wire_msg_init(&d, HS_WIRE_DISCONNECT);
        hs__outbox_add(o, id, id_len, true, &d);
        *told = true;
    }
}

/* A client's message m of `len` bytes: SUBMIT, STATUS, WATCH, CANCEL, HEARTBEAT,
 * QUERY, DISCONNECT (of a watcher). */
static void s_client_body(hs__broker_t *b, hs__outbox_t *o, const uint8_t *id, size_t id_len,
                          const hs_wire_msg_t *m, size_t len, const hs__peer_t *p)
{
    /* Any message from a watcher is a sign of life. */
    int wi = hs__watch_touch(b, id, id_len);
    switch (m->type) {
    case HS_WIRE_SUBMIT:
        s_on_submit(b, o, id, id_len, &m->submit, p, len);
        break;
    case HS_WIRE_STATUS:
        s_on_status(b, o, id, id_len, &m->status, p);
        break;
    case HS_WIRE_WATCH: {
        char why[160];
        int rc = hs__watch_add(b, id, id_len, m->job_id, p->admin ? NULL : p->key, why,
                               sizeof why);
        if (rc < 0)
            hs__outbox_error(o, id, id_len, rc, why);
        break;
    }
    case HS_WIRE_DISCONNECT:   /* a watcher stops watching */
        if (wi >= 0)
            hs__watch_remove(b, wi);
        break;
    case HS_WIRE_CANCEL: {
        hs__bjob_t *j = hs__job_find(b, m->job_id);
        if (j && !hs__job_visible(j, p))
            j = NULL;   /* another's job: answered as an unknown one */
        hs_wire_msg_t r;
        hs_wire_msg_init(&r, HS_WIRE_CANCEL_REPLY);
        r.cancel_reply.job_id = m->job_id;
        r.cancel_reply.canceled = j && j->rec.state == HS_JOB_RUNNING;
        if (j)
            hs__job_cancel(b, j, p);
        hs__outbox_add(o, id, id_len, false, &r);
        break;
    }
    case HS_WIRE_HEARTBEAT: {
        hs_wire_msg_t r;
        hs_wire_msg_init(&r, HS_WIRE_HEARTBEAT);
        hs__outbox_add(o, id, id_len, false, &r);
        break;
    }
    case HS_WIRE_QUERY: {
        /* A query reads the whole store (any game, player, position), and a
         * game's row cannot be told apart by job owner (a game is stored once,
         * for the first job that sent it): admins only. */
        const char *why = "QUERY reads the whole store: this key is not an admin key "
                          "(--admins)";
        int rc = p->admin ? hs__query_add(b, id, id_len, m->text, &why) : HS_EPERM;
        if (rc < 0)
            hs__outbox_error(o, id, id_len, rc, why);
        break;
    }
    default:
        break;
    }
}

/*
 * One body of a message from peer id. multi: the message carries several bodies
 * (a worker's batched RESULTs): only RESULT bodies are taken from it, anything
 * else in it is dropped and counted, body by body. *told: a DISCONNECT already
 * went to this peer for this message (one per message, not one per body).
 * p: the peer's rights (s_message checked its role for the magic).
 */
static void s_body(hs__broker_t *b, hs__outbox_t *o, const uint8_t *id, size_t id_len,
                   bool is_worker, const void *magic, const void *data, size_t len, bool multi,
                   bool *told, const hs__peer_t *p)
{
    hs_error_t err = { 0 };
    hs_wire_msg_t m;
    b->bodies++;
    /* Evals are stored as the bytes the worker sent (eval.raw): no copy of their maps. */
    int drc = hs_wire_decode_ex(data, len, HS_WIRE_DECODE_EVAL_VIEW, &m, &err);
    if (drc < 0) {
        if (b->dropped++ < 10)
            HS__LOG(b, "dropped a malformed message: %s", err.msg);
        /* A client waits for an answer: tell it why (a job name that is not
         * UTF-8, a field out of range) instead of letting it time out. The
         * reason names the field, never echoes the bad bytes. Workers' bodies
         * are only logged (nothing waits on a reply to them). */
        if (!is_worker && !multi)
            hs__outbox_error(o, id, id_len, drc, err.msg);
        return;
    }
    if ((memcmp(hs_wire_magic_for(m.type), magic, HS_WIRE_MAGIC_LEN) != 0 &&
         m.type != HS_WIRE_HEARTBEAT && m.type != HS_WIRE_DISCONNECT && m.type != HS_WIRE_ERROR) ||
        (multi && m.type != HS_WIRE_RESULT)) {
        b->dropped++;
        hs_wire_msg_fini(&m);
        return;
    }
    if (is_worker)
        s_worker_body(b, o, id, id_len, &m, told, p);
    else
        s_client_body(b, o, id, id_len, &m, len, p);
    hs_wire_msg_fini(&m);
}

/*
 * A received message: fr[0] the peer's identity, then "", magic and nf - 3
 * bodies (1..HS_WIRE_MAX_BATCH; the read loop drops longer messages). A worker
 * may batch RESULTs; a client sends one body per message, so a client message
 * with several is dropped as a whole.
 */
static void s_message(hs__broker_t *b, hs__outbox_t *o, zmq_msg_t *fr, int nf)
{
    const uint8_t *id = zmq_msg_data(&fr[0]);
    size_t id_len = zmq_msg_size(&fr[0]);
    bool is_worker = false, told = false;
    if (nf < 4 || id_len == 0 || id_len > 255 || zmq_msg_size(&fr[1]) != 0 ||
        hs_wire_check_magic(zmq_msg_data(&fr[2]), zmq_msg_size(&fr[2]), &is_worker, NULL) < 0 ||
        (nf > 4 && !is_worker)) {
        b->dropped++;
        return;
    }
    /* A worker message from a key that is no worker's is dropped unanswered; a
     * client waits for a reply, so it is told. */
    hs__peer_t peer;
    if (!hs__peer_allowed(b, &fr[2], is_worker, &peer)) {
        if (!is_worker)
            hs__outbox_error(o, id, id_len, HS_EPERM, "this key may not submit or read jobs: "
                         "it is in no client or admin allow-list (--clients, --admins)");
        return;
    }
    for (int k = 3; k < nf; k++)
        s_body(b, o, id, id_len, is_worker, zmq_msg_data(&fr[2]), zmq_msg_data(&fr[k]),
               zmq_msg_size(&fr[k]), nf > 4, &told, &peer);
}

/* A job whose queued tasks no live worker can run (an engine or net no worker
 * offers, a revision of another build) used to wait without a word: after
 * S_IDLE_BEATS heartbeat intervals (10 s by default) without a lease the broker
 * looks (once per as long: hs__job_idle, broker_dispatch.c), says so once on
 * stderr, and STATUS shows why as the job's reason until a lease. */
#define S_IDLE_BEATS 10

static void s_timers(hs__broker_t *b)
{
    for (int i = 0; i < b->num_workers; i++) {
        hs__bworker_t *w = b->workers[i];
        if (b->now > w->expiry) {
            hs__worker_remove(b, i, "heartbeat expired");
            i--;
            continue;
        }
        /* A worker holds up to its credit in tasks and works through them in
         * turn, so with a slow engine (a tree search of many visits) its last
         * tasks wait longer than lease_ms before they start. Timing those out
         * would send them again while the first copy is still coming, and fail
         * the game after max_attempts. So a lease past its deadline times out
         * only while its holder answers nothing for lease_ms (stuck or lost),
         * and in any case at HS__LEASE_STRETCH x lease_ms (one task stuck while
         * the holder's other threads go on). */
        bool silent = b->now - w->last_answer > b->lease_ms;
        int64_t stretch = (int64_t)(HS__LEASE_STRETCH - 1) * b->lease_ms;
        for (int k = 0; k < w->num_leases; k++) {
            const hs__btask_t *t = w->leases[k];
            if (b->now > t->deadline && (silent || b->now > t->deadline + stretch)) {
                hs__task_requeue(b, w->leases[k], "lease timed out");
                k--;
            }
        }
        if (b->now - w->last_sent >= b->hb_ms) {
            hs_wire_msg_t m;
            hs_wire_msg_init(&m, HS_WIRE_HEARTBEAT);
            if (hs__send_msg(b, w->id, w->id_len, true, &m) == HS_ENOTFOUND) {
                hs__worker_remove(b, i, "unreachable");
                i--;
                continue;
            }
            w->last_sent = b->now;
        }
    }
    hs__run_prune(b);
    for (int i = 0; i < b->num_run; i++) {
        hs__bjob_t *j = b->run[i];
        if (j->rec.state == HS_JOB_RUNNING && !j->rec.input_complete &&
            b->now - j->last_input > b->upload_ms)
            hs__job_abandon(b, j);
        int64_t dt = b->now - j->rate_ms;
        if (dt >= 1000) {
            double r = (double)(j->rec.positions_done - j->rate_done) * 1000.0 / (double)dt;
            j->rate = j->rate == 0 ? r : 0.5 * j->rate + 0.5 * r;
            j->rate_ms = b->now;
            j->rate_done = j->rec.positions_done;
        }
        int64_t idle = (int64_t)S_IDLE_BEATS * b->hb_ms;
        if (j->queued > 0 && j->leased == 0 && b->now - j->last_lease >= idle &&
            b->now - j->idle_checked >= idle)
            hs__job_idle(b, j);
    }
}

/* Binds every address of the comma-separated list and writes the endpoints
 * actually bound (ZMQ_LAST_ENDPOINT: a "*" port resolved) into bound. */
static int s_bind(hs__broker_t *b, const char *binds, char *bound, size_t size, hs_error_t *err)
{
    char list[1024];
    if (snprintf(list, sizeof list, "%s", binds) >= (int)sizeof list)
        return hs_error_set(err, HS_EINVAL, "broker: the --bind list is longer than %zu bytes",
                            sizeof list - 1);
    size_t used = 0;
    bound[0] = '\0';
    for (char *save = NULL, *ep = strtok_r(list, ",", &save); ep; ep = strtok_r(NULL, ",", &save)) {
        if (zmq_bind(b->sock, ep) != 0)
            return hs_error_set(err, HS_EIO, "cannot bind %s: %s", ep, zmq_strerror(errno));
        char last[256];
        size_t len = sizeof last;
        if (zmq_getsockopt(b->sock, ZMQ_LAST_ENDPOINT, last, &len) != 0)
            snprintf(last, sizeof last, "%s", ep);
        int n = snprintf(bound + used, size - used, "%s%s", used ? "," : "", last);
        if (n > 0 && (size_t)n < size - used)
            used += (size_t)n;
    }
    return 0;
}

/* The configuration's defaults for what it leaves at 0. */
static void s_defaults(hs__broker_t *b, const hs_broker_config_t *cfg)
{
    b->cfg = cfg;
    b->hb_ms = cfg->heartbeat_ms > 0 ? cfg->heartbeat_ms : 1000;
    b->liveness = cfg->liveness > 0 ? cfg->liveness : 3;
    b->lease_ms = cfg->lease_ms > 0 ? cfg->lease_ms : 600000;
    b->max_attempts = cfg->max_attempts > 0 ? cfg->max_attempts : 5;
    b->queue_max = cfg->queue_max > 0 ? cfg->queue_max : 20000;
    b->upload_ms = cfg->upload_ms > 0 ? cfg->upload_ms : 600000;
    b->limit_jobs = cfg->limit_jobs > 0 ? cfg->limit_jobs : 64;
    b->limit_games = cfg->limit_games > 0 ? cfg->limit_games : b->queue_max;
    b->limit_upload = cfg->limit_upload > 0 ? cfg->limit_upload : (int64_t)512 << 20;
    b->now = hs_clock_ms();
    b->started = b->now;
}

/* The ROUTER socket, its options, the ZAP handler and the bind. */
static int s_socket(hs__broker_t *b, void *ctx, hs_error_t *err)
{
    b->sock = zmq_socket(ctx, ZMQ_ROUTER);
    if (!b->sock)
        return hs_error_set(err, HS_EIO, "broker: cannot create a socket: %s", zmq_strerror(errno));
    int one = 1, zero = 0, hwm = 100000;
    zmq_setsockopt(b->sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(b->sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(b->sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(b->sock, ZMQ_RCVHWM, &hwm, sizeof hwm);
    /* A peer that is not even ZeroMQ may declare a frame of 2^63 bytes: libzmq
     * would try to allocate it (and abort). Refuse frames above the wire limit. */
    int64_t maxmsg = (int64_t)HS_WIRE_MAX_BODY;
    zmq_setsockopt(b->sock, ZMQ_MAXMSGSIZE, &maxmsg, sizeof maxmsg);
    char bound[1024];
    /* The ZAP handler first: a CURVE socket bound before it would let its first
     * peers in unasked. */
    int rc = hs__zap_open(b, ctx, b->sock, err);
    if (rc == 0)
        rc = s_bind(b, b->cfg->bind, bound, sizeof bound, err);
    if (rc < 0)
        return rc;
    HS__EVENT(b, "serving on %s, store %s", bound, b->cfg->db_dir);
    if (b->cfg->on_serving)
        b->cfg->on_serving(b->cfg->on_serving_arg, bound);
    return 0;
}

/* Reads what is waiting: S_MAX_READ bodies (not messages) per round, so a
 * round's store batch stays about as large whether workers batch their
 * RESULTs or not. */
static void s_read(hs__broker_t *b, hs__outbox_t *out)
{
    for (int n = 0; n < S_MAX_READ;) {
        zmq_msg_t fr[S_MAX_FRAMES];
        int nf = 0, more = 1, got = 0;
        bool extra = false;
        while (more) {
            zmq_msg_t part;
            zmq_msg_init(&part);
            if (zmq_msg_recv(&part, b->sock, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&part);
                break;
            }
            got = 1;
            more = zmq_msg_more(&part);
            if (nf < S_MAX_FRAMES) {
                fr[nf++] = part;
            } else {
                zmq_msg_close(&part);
                extra = true;   /* too many frames: malformed, dropped whole */
            }
        }
        if (!got)
            break;
        b->messages++;
        n += nf > 4 ? nf - 3 : 1;
        if (extra)
            b->dropped++;
        else
            s_message(b, out, fr, nf);
        for (int i = 0; i < nf; i++)
            zmq_msg_close(&fr[i]);
    }
}

/* The end of a round: timers, one commit for everything the round read and
 * changed, then what may only follow a commit. False when the broker must
 * stop (b->fatal). */
static bool s_round_end(hs__broker_t *b, hs__outbox_t *out)
{
    b->rounds++;
    s_timers(b);
    if (!b->fatal)
        hs__jobs_flush(b);
    if (!b->fatal && hs_store_in_batch(b->store)) {
        b->commits++;
        if (hs_store_commit(b->store, &b->err) < 0)
            b->fatal = b->err.code ? b->err.code : HS_ESTORE;
    }
    if (b->fatal)
        return false;   /* nothing of an uncommitted round may be reported */
    hs__jobs_release(b);   /* their end is on disk: read from the store from now on */
    hs__outbox_flush(b, out);
    /* Also after the commit, before dispatch can open the next batch: pushes
     * report only committed counts, and a query needs no write transaction open. */
    hs__watch_push(b);
    if (!hs_store_in_batch(b->store))
        hs__queries_run(b);
    /* After the commit: every TASK sent names a task (and job, and game) that
     * is durable, so a restarted broker never reuses an id a worker holds.
     * Leases are not journaled; what dispatch does write (a task that cannot
     * be built fails) goes into the next round's batch. */
    hs__dispatch(b);
    return true;
}

static void s_log_stop(hs__broker_t *b)
{
    HS__EVENT(b, "stopping: %llu rounds, %llu messages (%llu bodies), %llu commits, "
              "%llu TASKs in %llu messages, %llu malformed dropped, %llu refused for their "
              "role, %llu handshakes refused",
          (unsigned long long)b->rounds, (unsigned long long)b->messages,
          (unsigned long long)b->bodies, (unsigned long long)b->commits,
          (unsigned long long)b->sent_tasks, (unsigned long long)b->sent_msgs,
          (unsigned long long)b->dropped, (unsigned long long)b->refused,
          (unsigned long long)b->zap_denied);
}

/* Everything hs_broker_run opened, also after a partial start. */
static void s_teardown(hs__broker_t *b, hs__outbox_t *out)
{
    hs__outbox_free(out);
    hs__packs_free(b);
    if (b->sock)
        zmq_close(b->sock);
    hs__zap_close(b);
    hs__limits_free(b);
    if (b->store) {
        hs_store_abort(b->store);
        hs_store_close(&b->store);
    }
    hs__clients_free(b);
    hs__broker_free_state(b);
}

int hs_broker_run(const hs_broker_config_t *cfg, hs_error_t *err)
{
    if (!cfg || !cfg->bind || !cfg->db_dir || !cfg->stop)
        return hs_error_set(err, HS_EINVAL, "broker: bind, db_dir and stop are required");
    int rc = hs__bind_check(cfg, err);   /* before anything is opened: fail at once */
    if (rc < 0) {
        if (cfg->ready)
            atomic_store(cfg->ready, -1);
        return rc;
    }
    hs__broker_t b = { 0 };
    s_defaults(&b, cfg);
    bool own_ctx = cfg->zmq_ctx == NULL;
    void *ctx = own_ctx ? zmq_ctx_new() : cfg->zmq_ctx;
    hs__outbox_t out = { 0 };
    rc = hs_store_open(&b.store, cfg->db_dir, cfg->store_flags, cfg->map_size, err);
    if (rc >= 0)
        rc = hs__broker_load(&b, err);
    if (rc >= 0 && hs_store_in_batch(b.store))
        rc = hs_store_commit(b.store, err);
    if (rc >= 0)
        rc = s_socket(&b, ctx, err);
    if (rc < 0)
        goto done;
    if (cfg->ready)
        atomic_store(cfg->ready, 1);
    while (!atomic_load(cfg->stop) && !b.fatal) {
        zmq_pollitem_t items[2] = { { b.sock, 0, ZMQ_POLLIN, 0 }, { b.zap, 0, ZMQ_POLLIN, 0 } };
        if (zmq_poll(items, b.zap ? 2 : 1, 100) < 0 && errno != EINTR && errno != ETERM)
            break;
        b.now = hs_clock_ms();
        hs__zap_serve(&b);   /* handshakes wait on it: answered every round */
        s_read(&b, &out);
        if (!s_round_end(&b, &out))
            break;
    }
    if (b.fatal) {
        rc = b.fatal;
        if (err)
            *err = b.err;
    }
    s_log_stop(&b);
done:
    if (cfg->ready && rc < 0 && atomic_load(cfg->ready) == 0)
        atomic_store(cfg->ready, -1);
    s_teardown(&b, &out);
    if (own_ctx)
        zmq_ctx_term(ctx);
    return rc;
}
