/*
 * worker/worker.c — the worker's I/O loop and engine threads (see worker.h).
 *
 * Connection states (Paranoid Pirate):
 *
 *    ┌──────────┐ s_connect: socket+READY ┌───────────┐
 *    │ OFFLINE  │ ───────────────────────► │ CONNECTED │ ◄── any message from broker
 *    └──────────┘                          └───────────┘     (liveness reset)
 *        ▲   backoff 1 s → 32 s (s_backoff)      │ liveness × interval silent,
 *        └────────────────────────────────────────┘ or DISCONNECT from broker
 *                                                  (s_disconnect)
 *    CONNECTED ── stop flag: queued tasks dropped, started ones done ──►
 *                 send DISCONNECT, return (s_leave; at once on HS_WORKER_STOP_NOW)
 *
 * Stopping (worker.h): the broker refills the credit with every RESULT, so a
 * worker that waited for its queue to empty ran for as long as the job had
 * work. A stopping worker drops the tasks no thread has started (s_drain) and
 * the TASKs that still arrive, and an engine thread starts no further task of
 * its share (hs__worker_eval_tasks): only the tasks under way finish. Their
 * leases go back to the broker with the DISCONNECT.
 *
 * Silence (cfg->on_silence): a worker whose broker never answers (a wrong
 * address, a broker down) retries for ever; s_silence says so after 10 s and
 * then at growing intervals, and once more when the broker answers.
 *
 * Only the I/O thread touches the DEALER socket. Engine threads take decoded
 * tasks from a mutex/condvar queue and hand encoded RESULT bodies back through an
 * inproc PUSH → PULL pair, which the I/O thread polls beside the DEALER.
 *
 * Batching (docs/PROTOCOL.md, "Batched messages"): READY says the worker reads up
 * to HS_WIRE_MAX_BATCH TASK bodies per message. The RESULTs waiting on the PULL
 * socket go out several per message too, but only on a connection where the
 * broker has sent a multi-body TASK message: that proves it reads them (an older
 * broker drops a message with more than one body).
 */
#include "worker/worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/wire_curve.h"
#include "worker/nn/backend.h"
#include "worker/nn/model.h"
#include "worker/worker_internal.h"

typedef struct s_task {
    hs_wire_msg_t msg;
    struct s_task *next;
} s_task_t;

typedef struct s_worker {
    const hs_worker_config_t *cfg;
    void *ctx;
    char pull_ep[96];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    s_task_t *head, *tail;
    int queued;
    bool quit;
    bool thread_failed;   /* an engine thread could not start: the worker does not */
    int threads_up;       /* engine threads past their start, failed or not */
    int skipped;          /* tasks threads took but did not start (a stop): no RESULT */
    int batch;
    int threads;
    /* The engines READY offers, a canonical list ("influence@2" from revision 2
     * on), fixed for the worker's life; READY names them without options. */
    char offer[1024];
    /* stats, under mu */
    hs_worker_stats_t st;
} s_worker_t;

/* ------------------------------------------------------------ engine threads */

/* One engine thread's group of tasks (the scratch of s_engine_thread). */
typedef struct s_group {
    int n;
    s_task_t *task[HS__GROUP_MAX];
    const hs_wire_task_t *wire[HS__GROUP_MAX];
    hs_wire_buf_t bufs[HS__GROUP_MAX];
    uint64_t positions[HS__GROUP_MAX];
    int failed[HS__GROUP_MAX];
} s_group_t;

/* Waits for tasks and takes a fair share of the queue (the other threads get
 * the rest), up to one engine batch of positions. false once told to quit. */
static bool s_take_share(s_worker_t *w, s_group_t *g)
{
    pthread_mutex_lock(&w->mu);
    while (!w->head && !w->quit)
        pthread_cond_wait(&w->cv, &w->mu);
    if (!w->head) {
        pthread_mutex_unlock(&w->mu);
        return false;
    }
    int share = w->queued / w->threads, npos = 0;
    g->n = 0;
    do {
        s_task_t *t = w->head;
        w->head = t->next;
        if (!w->head)
            w->tail = NULL;
        w->queued--;
        npos += t->msg.task.num_move_numbers;
        g->task[g->n] = t;
        g->wire[g->n++] = &t->msg.task;
    } while (w->head && g->n < HS__GROUP_MAX && g->n < share && npos < w->batch);
    pthread_mutex_unlock(&w->mu);
    return true;
}

/* Evaluates the group and adds what it took to the worker's counters. */
static void s_eval_group(s_worker_t *w, hs__eval_ctx_t *x, s_group_t *g)
{
    double before = x->engine_seconds, cpu_before = x->engine_cpu_seconds;
    hs__worker_eval_tasks(x, g->wire, g->n, g->bufs, g->positions, g->failed);
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < g->n; i++) {
        if (g->failed[i] == HS__TASK_SKIPPED) {
            w->skipped++;   /* the I/O thread counts it out of flight (s_drain) */
            continue;
        }
        w->st.tasks++;
        w->st.positions += g->positions[i];
        w->st.evals += g->positions[i] * (uint64_t)g->wire[i]->num_engines;
        w->st.task_errors += (uint64_t)g->failed[i];
    }
    w->st.engine_seconds += x->engine_seconds - before;
    w->st.engine_cpu_seconds += x->engine_cpu_seconds - cpu_before;
    w->st.eval_calls += x->eval_calls;
    w->st.eval_leaves += x->eval_leaves;
    x->eval_calls = x->eval_leaves = 0;
    pthread_mutex_unlock(&w->mu);
}

/* Hands the group's RESULT bodies to the I/O thread and frees its tasks. */
static void s_push_results(void *push, s_group_t *g)
{
    for (int i = 0; i < g->n; i++) {
        int rc = g->failed[i] == HS__TASK_SKIPPED ? -1 : 0;   /* no RESULT: given back */
        if (rc == 0 && g->bufs[i].len == 0) {
            /* Cannot encode: report the task failed so the broker gives the credit back. */
            hs_wire_msg_t m;
            hs_wire_msg_init(&m, HS_WIRE_RESULT);
            m.result.task_id = g->wire[i]->task_id;
            m.result.job_id = g->wire[i]->job_id;
            m.result.error = "result could not be encoded";
            rc = hs_wire_encode(&m, &g->bufs[i], NULL);
        }
        if (rc == 0)
            zmq_send(push, g->bufs[i].data, g->bufs[i].len, 0);
        hs_wire_msg_fini(&g->task[i]->msg);
        free(g->task[i]);
    }
}

static void *s_engine_thread(void *arg)
{
    s_worker_t *w = arg;
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    s_group_t *g = calloc(1, sizeof *g);
    void *push = zmq_socket(w->ctx, ZMQ_PUSH);
    bool failed = !x || !g || !push || zmq_connect(push, w->pull_ep) != 0;
    /* s_start waits for every thread to get here: a worker with fewer threads
     * than asked does not start (a few would finish a small job, and the
     * failure would pass unseen). */
    pthread_mutex_lock(&w->mu);
    w->thread_failed |= failed;
    w->threads_up++;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (!failed) {
        x->batch_max = w->batch;
        x->stop = w->cfg->stop;
        x->base = (hs_engine_config_t){ .gpu = -1, .nets = w->cfg->nets,
                                        .n_nets = w->cfg->n_nets,
                                        .net_backend = w->cfg->net_backend,
                                        .net_batch = w->cfg->net_batch,
                                        .threads = w->cfg->net_threads };
        while (s_take_share(w, g)) {
            s_eval_group(w, x, g);
            s_push_results(push, g);
        }
    }
    if (push)
        zmq_close(push);
    if (x)
        hs__eval_ctx_fini(x);
    double cpu = hs_clock_thread_cpu();   /* after the last result is out */
    pthread_mutex_lock(&w->mu);
    w->st.thread_cpu_seconds += cpu;
    pthread_mutex_unlock(&w->mu);
    free(x);
    for (int i = 0; g && i < HS__GROUP_MAX; i++)
        hs_wire_buf_free(&g->bufs[i]);
    free(g);
    return NULL;
}

/* Frees a list of tasks; returns how many there were. */
static int s_free_tasks(s_task_t *t)
{
    int n = 0;
    for (s_task_t *next; t; t = next, n++) {
        next = t->next;
        hs_wire_msg_fini(&t->msg);
        free(t);
    }
    return n;
}

/* Drops tasks nobody started (after a reconnect the broker requeues them). */
static int s_drop_queued(s_worker_t *w)
{
    pthread_mutex_lock(&w->mu);
    s_task_t *head = w->head;
    w->head = w->tail = NULL;
    w->queued = 0;
    pthread_mutex_unlock(&w->mu);
    return s_free_tasks(head);
}

/* --------------------------------------------------------------- I/O thread */

/*
 * The n bodies of one message from the broker: TASKs go to the engine queue (one
 * lock and one wake-up for the lot), or are dropped when drop is set (a stopping
 * worker starts no new task); a lone DISCONNECT sets *reconnect. A message
 * of several bodies may hold only TASKs: anything else in it is dropped, as is a
 * body that does not decode. Returns the number of TASKs queued (or dropped).
 */
static int s_take_bodies(s_worker_t *w, zmq_msg_t *bodies, int n, bool drop, bool *reconnect)
{
    s_task_t *head = NULL, *tail = NULL;
    int queued = 0;
    for (int k = 0; k < n; k++) {
        /* malloc, not calloc: glibc can serve it from the per-thread cache, and
         * hs_wire_decode initialises the whole message anyway. */
        s_task_t *t = malloc(sizeof *t);
        hs_error_t derr = { 0 };
        if (!t)
            break;
        t->next = NULL;
        if (hs_wire_decode(zmq_msg_data(&bodies[k]), zmq_msg_size(&bodies[k]), &t->msg,
                           &derr) == 0) {
            if (t->msg.type == HS_WIRE_TASK) {
                if (tail)
                    tail->next = t;
                else
                    head = t;
                tail = t;
                queued++;
                continue;
            }
            if (t->msg.type == HS_WIRE_DISCONNECT && n == 1)
                *reconnect = true;
        } else if (w->cfg->verbose) {
            hs_log_event("worker", "dropped a bad message: %s", derr.msg);
        }
        hs_wire_msg_fini(&t->msg);
        free(t);
    }
    if (queued == 0 || drop)
        return s_free_tasks(head);
    pthread_mutex_lock(&w->mu);
    if (w->tail)
        w->tail->next = head;
    else
        w->head = head;
    w->tail = tail;
    w->queued += queued;
    if (queued > 1)
        pthread_cond_broadcast(&w->cv);
    else
        pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return queued;
}

/* Sends [""][magic][body1]...[bodyN] with the magic of type; the bodies are
 * handed to ZeroMQ (each zmq_msg_t is emptied). HS_EIO when the socket refuses. */
static int s_send_bodies(void *sock, hs_wire_type_t type, zmq_msg_t *bodies, int n)
{
    if (zmq_send(sock, "", 0, ZMQ_SNDMORE) < 0)
        return HS_EIO;
    if (zmq_send(sock, hs_wire_magic_for(type), HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE) < 0)
        return HS_EIO;
    int rc = 0;
    for (int k = 0; k < n; k++)
        if (zmq_msg_send(&bodies[k], sock, k + 1 < n ? ZMQ_SNDMORE : 0) < 0)
            rc = HS_EIO;
    return rc;
}

static int s_send(void *sock, hs_wire_type_t type, const void *body, size_t len)
{
    if (zmq_send(sock, "", 0, ZMQ_SNDMORE) < 0)
        return HS_EIO;
    if (zmq_send(sock, hs_wire_magic_for(type), HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE) < 0)
        return HS_EIO;
    return zmq_send(sock, body, len, 0) < 0 ? HS_EIO : 0;
}

static int s_send_msg(void *sock, const hs_wire_msg_t *m, hs_wire_buf_t *buf)
{
    buf->len = 0;
    if (hs_wire_encode(m, buf, NULL) < 0)
        return HS_EINVAL;
    return s_send(sock, m->type, buf->data, buf->len);
}

/* The I/O thread's connection state (only hs_worker_run's thread touches it). */
typedef struct s_io {
    void *sock;                 /* DEALER to the broker; NULL while OFFLINE */
    void *pull;                 /* RESULT bodies from the engine threads */
    hs_wire_buf_t buf;          /* scratch for encoding */
    int credit, hb, liveness, backoff, backoff_max;
    int in_flight;              /* tasks received and not yet answered */
    int connections;            /* connections the broker has answered on */
    bool peer_batch;            /* the broker reads multi-body RESULTs (this connection) */
    bool answered;              /* the broker has sent something on this connection */
    bool stopping;
    int64_t last_recv, last_send;
    int64_t last_probe;         /* the last HEARTBEAT sent because we heard nothing */
    /* s_silence: the last message from the broker (or the start), kept across
     * reconnects, and when the next "no answer" call is due, in ms after it. */
    int64_t heard;
    int next_notice, notice_gap;
    uint64_t given_back;        /* hs_worker_stats_t.given_back */
} s_io_t;

/* The name READY gives: cfg->name, or host:pid. */
static void s_worker_name(const hs_worker_config_t *c, char *out, size_t size)
{
    char host[128] = "host";
    if (c->name) {
        snprintf(out, size, "%s", c->name);
        return;
    }
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    snprintf(out, size, "%s:%ld", host, (long)getpid());
}

/* s_connect: OFFLINE → CONNECTED. NULL when the socket cannot be made (errno
 * tells why: ETERM once the ZeroMQ context is shut down). */
static void *s_connect(s_worker_t *w, int credit, hs_wire_buf_t *buf)
{
    const hs_worker_config_t *c = w->cfg;
    void *sock = zmq_socket(w->ctx, ZMQ_DEALER);
    if (!sock)
        return NULL;
    int zero = 0;
    zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero);
    /* A broker that refuses the handshake (CURVE: an unknown key, or a
     * plaintext worker) leaves the socket without a peer, and a send would then
     * block for good: no heartbeat, no reconnect, no SIGTERM. A send that waits
     * a heartbeat interval fails instead; the liveness check then reconnects. */
    int sndtimeo = c->heartbeat_ms > 0 ? c->heartbeat_ms : 1000;
    zmq_setsockopt(sock, ZMQ_SNDTIMEO, &sndtimeo, sizeof sndtimeo);
    /* Every reconnect opens a fresh socket: each one must be a CURVE client. */
    if ((c->curve && hs_curve_setup_client(sock, c->curve, NULL) < 0) ||
        zmq_connect(sock, c->endpoint) != 0) {
        zmq_close(sock);
        return NULL;
    }
    char name[HS_WIRE_MAX_NAME];
    s_worker_name(c, name, sizeof name);
    char list[sizeof w->offer], *names[HS_WIRE_MAX_ENGINES];
    int n = 0;
    memcpy(list, w->offer, sizeof list);
    for (char *tok = list, *next; *tok && n < HS_WIRE_MAX_ENGINES; tok = next) {
        size_t len = hs_engine_list_entry(tok);   /* options have commas too */
        next = tok + len + (tok[len] == ',');
        tok[len] = '\0';
        tok[strcspn(tok, ":")] = '\0';   /* options are the job's business */
        names[n++] = tok;
    }
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_READY);
    m.ready.name = name;
    m.ready.engines = names;
    m.ready.num_engines = n;
    m.ready.threads = w->threads;
    m.ready.gpus = 0;
    m.ready.credit = credit;
    m.ready.batch = HS_WIRE_MAX_BATCH;
    /* The nets it holds, by the hash a spec's net= option names: the broker
     * sends such a spec only to a worker that lists it. */
    char *nets[HS_WIRE_MAX_NETS];
    for (int i = 0; i < c->n_nets && i < HS_WIRE_MAX_NETS; i++)
        nets[i] = (char *)c->nets[i]->hash;
    m.ready.nets = nets;
    m.ready.num_nets = c->n_nets;
    m.ready.backend = c->n_nets > 0
                          ? (char *)hs_nn_backend_kind_name((hs_nn_backend_kind_t)c->net_backend)
                          : NULL;
    if (s_send_msg(sock, &m, buf) < 0) {
        zmq_close(sock);
        return NULL;
    }
    return sock;
}

/* The first "no answer" call comes after this long without a message. */
#define S_SILENCE_FIRST_MS 10000
/* The gaps between later ones double up to this. */
#define S_SILENCE_GAP_MAX_MS 60000

/* Tells cfg->on_silence when the broker has said nothing for a while: at 10 s
 * without a message, then after gaps of 20, 40 and 60 s, and every minute. */
static void s_silence(s_worker_t *w, s_io_t *io, int64_t now)
{
    if (now - io->heard < io->next_notice)
        return;
    if (w->cfg->on_silence) {
        char name[HS_WIRE_MAX_NAME];
        s_worker_name(w->cfg, name, sizeof name);
        w->cfg->on_silence(w->cfg->on_silence_arg, name, (int)((now - io->heard) / 1000), 0);
    }
    io->notice_gap = io->notice_gap * 2 > S_SILENCE_GAP_MAX_MS ? S_SILENCE_GAP_MAX_MS
                                                               : io->notice_gap * 2;
    io->next_notice += io->notice_gap;
}

/* A message came at now: after a "no answer" call, one to say it is over. */
static void s_heard(s_worker_t *w, s_io_t *io, int64_t now)
{
    if (io->next_notice > S_SILENCE_FIRST_MS && w->cfg->on_silence) {
        char name[HS_WIRE_MAX_NAME];
        s_worker_name(w->cfg, name, sizeof name);
        w->cfg->on_silence(w->cfg->on_silence_arg, name, (int)((now - io->heard) / 1000), 1);
    }
    io->heard = now;
    io->next_notice = io->notice_gap = S_SILENCE_FIRST_MS;
}

/* Sleeps up to ms, waking early when stop is set; the silence is told meanwhile
 * (a back-off lasts up to 32 s). */
static void s_backoff(s_worker_t *w, s_io_t *io, int ms)
{
    int64_t now = hs_clock_ms(), end = now + ms;
    for (; now < end && !atomic_load(w->cfg->stop); now = hs_clock_ms()) {
        s_silence(w, io, now);
        usleep(20000);
    }
}

/*
 * OFFLINE → CONNECTED, waiting between tries (first_wait: before the first one,
 * after a lost connection). Returns 0, 1 when stop was set while offline (the
 * worker leaves: nobody takes the results of tasks still computing, and the
 * broker requeues them when their leases end), or HS_EIO when the ZeroMQ context
 * is shut down (the embedding process is tearing it down: retrying cannot help).
 */
static int s_connect_loop(s_worker_t *w, s_io_t *io, bool first_wait, hs_error_t *err)
{
    const hs_worker_config_t *cfg = w->cfg;
    for (bool wait = first_wait; !io->sock; wait = true) {
        if (wait) {
            if (cfg->verbose)
                hs_log_event("worker", "cannot reach %s; retrying in %d ms", cfg->endpoint,
                             io->backoff);
            s_backoff(w, io, io->backoff);
            io->backoff = io->backoff * 2 > io->backoff_max ? io->backoff_max : io->backoff * 2;
        }
        if (atomic_load(cfg->stop))
            return 1;
        io->sock = s_connect(w, io->credit, &io->buf);
        if (!io->sock && errno == ETERM)
            return hs_error_set(err, HS_EIO, "worker: the messaging context was shut down");
    }
    io->peer_batch = false;   /* maybe another broker now */
    io->answered = false;
    io->last_recv = io->last_send = io->last_probe = hs_clock_ms();
    return 0;
}

/* s_disconnect: CONNECTED → OFFLINE; unstarted tasks are the broker's again. */
static void s_disconnect(s_worker_t *w, s_io_t *io)
{
    int dropped = s_drop_queued(w);
    io->in_flight -= dropped;
    io->given_back += (uint64_t)dropped;
    zmq_close(io->sock);
    io->sock = NULL;
    pthread_mutex_lock(&w->mu);
    w->st.reconnects++;
    pthread_mutex_unlock(&w->mu);
    if (w->cfg->verbose)
        hs_log_event("worker", "broker silent; reconnecting in %d ms", io->backoff);
}

/* Sends the RESULTs the engine threads have finished: as many per message as one
 * may carry (one per message until the broker has shown it reads more). Returns
 * whether anything went out. */
static bool s_forward_results(s_io_t *io)
{
    bool sent = false;
    for (;;) {
        zmq_msg_t bodies[HS_WIRE_MAX_BATCH];
        int n = 0, max = io->peer_batch ? HS_WIRE_MAX_BATCH : 1;
        while (n < max) {
            zmq_msg_init(&bodies[n]);
            if (zmq_msg_recv(&bodies[n], io->pull, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&bodies[n]);
                break;
            }
            n++;
        }
        if (n == 0)
            return sent;
        s_send_bodies(io->sock, HS_WIRE_RESULT, bodies, n);
        for (int k = 0; k < n; k++)
            zmq_msg_close(&bodies[k]);
        sent = true;
        io->in_flight = io->in_flight > n ? io->in_flight - n : 0;
    }
}

/* Reads every waiting message from the broker: [""][magic][body1..bodyK], K <=
 * HS_WIRE_MAX_BATCH, else dropped whole. Returns whether any came; a DISCONNECT
 * sets *reconnect. */
static bool s_read_broker(s_worker_t *w, s_io_t *io, bool *reconnect)
{
    bool got = false;
    for (;;) {
        zmq_msg_t fr[2 + HS_WIRE_MAX_BATCH];
        int nf = 0, more = 1;
        bool extra = false;
        while (more) {
            zmq_msg_t part;
            zmq_msg_init(&part);
            if (zmq_msg_recv(&part, io->sock, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&part);
                break;
            }
            more = zmq_msg_more(&part);
            if (nf < 2 + HS_WIRE_MAX_BATCH)
                fr[nf++] = part;
            else {
                zmq_msg_close(&part);
                extra = true;
            }
        }
        if (nf == 0)
            return got;
        got = true;
        io->backoff = 1000;
        bool is_worker = false;
        if (!extra && nf >= 3 && zmq_msg_size(&fr[0]) == 0 &&
            hs_wire_check_magic(zmq_msg_data(&fr[1]), zmq_msg_size(&fr[1]), &is_worker,
                                NULL) == 0 && is_worker) {
            int queued = s_take_bodies(w, fr + 2, nf - 2, io->stopping, reconnect);
            if (io->stopping)
                io->given_back += (uint64_t)queued;   /* dropped: never in flight */
            else
                io->in_flight += queued;
            if (nf > 3 && queued > 0)
                io->peer_batch = true;   /* this broker packs TASKs: it reads packed RESULTs */
        }
        for (int i = 0; i < nf; i++)
            zmq_msg_close(&fr[i]);
    }
}

/* The broker answered on this connection for the first time: tell the caller. */
static void s_answered(s_worker_t *w, s_io_t *io)
{
    io->answered = true;
    io->connections++;
    if (w->cfg->verbose)
        hs_log_event("worker", "connected to %s (%d threads, credit %d)", w->cfg->endpoint,
                     w->threads, io->credit);
    if (w->cfg->on_connected) {
        char name[HS_WIRE_MAX_NAME];
        s_worker_name(w->cfg, name, sizeof name);
        w->cfg->on_connected(w->cfg->on_connected_arg, name, io->connections);
    }
}

/*
 * Stopping: the tasks no thread has started go back to the broker unevaluated
 * (the DISCONNECT that ends the stop requeues their leases), and so do those an
 * engine thread took but skipped; neither will have a RESULT.
 */
static void s_drain(s_worker_t *w, s_io_t *io)
{
    int n = s_drop_queued(w);
    pthread_mutex_lock(&w->mu);
    n += w->skipped;
    w->skipped = 0;
    pthread_mutex_unlock(&w->mu);
    io->in_flight -= n;
    io->given_back += (uint64_t)n;
}

/* Whether a stopping worker leaves now: its started tasks are answered, or a
 * second signal said not to wait for them. */
static bool s_stop_done(s_worker_t *w, s_io_t *io)
{
    int stop = atomic_load(w->cfg->stop);
    if (!io->stopping && stop)
        io->stopping = true;
    if (!io->stopping)
        return false;
    s_drain(w, io);
    return io->in_flight <= 0 || (stop & HS_WORKER_STOP_NOW);
}

/*
 * One wake-up of the CONNECTED state: poll, forward results, take tasks, then
 * liveness and heartbeat. Returns 0 to go on, 1 after s_leave (stopped: the
 * tasks under way answered, or a second signal), 2 when the connection must be
 * dropped, or HS_EIO.
 */
static int s_io_step(s_worker_t *w, s_io_t *io, hs_error_t *err)
{
    if (s_stop_done(w, io)) {
        hs_wire_msg_t m;
        hs_wire_msg_init(&m, HS_WIRE_DISCONNECT);
        s_send_msg(io->sock, &m, &io->buf);   /* s_leave: CONNECTED → gone */
        return 1;
    }
    zmq_pollitem_t items[2] = { { io->sock, 0, ZMQ_POLLIN, 0 }, { io->pull, 0, ZMQ_POLLIN, 0 } };
    int64_t heard = io->last_recv > io->last_probe ? io->last_recv : io->last_probe;
    int64_t due = io->last_send < heard ? io->last_send : heard;
    long wait = (long)(due + io->hb - hs_clock_ms());
    wait = wait < 0 ? 0 : io->stopping && wait > 50 ? 50 : wait;
    if (zmq_poll(items, 2, wait) < 0 && errno != EINTR)
        return hs_error_set(err, HS_EIO, "worker: poll failed: %s", zmq_strerror(errno));
    /* The clock is read once per wake-up, not per message (clock_gettime is a
     * system call on some VMs). */
    bool sent = (items[1].revents & ZMQ_POLLIN) && s_forward_results(io);
    bool reconnect = false;
    bool got = (items[0].revents & ZMQ_POLLIN) && s_read_broker(w, io, &reconnect);
    int64_t now = hs_clock_ms();
    if (sent)
        io->last_send = now;
    if (got) {
        io->last_recv = now;
        s_heard(w, io, now);
        if (!io->answered)
            s_answered(w, io);
    }
    s_silence(w, io, now);
    if (reconnect || now - io->last_recv > (int64_t)io->hb * io->liveness)
        return 2;
    /* A HEARTBEAT when we sent nothing for an interval, and also when we heard
     * nothing for one, even while results go out (at most one an interval): the
     * broker answers a worker's HEARTBEAT, so a worker whose interval is shorter
     * than the broker's does not take a quiet broker for a lost one. */
    bool probe = now - io->last_recv >= io->hb && now - io->last_probe >= io->hb;
    if (now - io->last_send >= io->hb || probe) {
        hs_wire_msg_t m;
        hs_wire_msg_init(&m, HS_WIRE_HEARTBEAT);
        s_send_msg(io->sock, &m, &io->buf);
        io->last_send = now;
        if (probe)
            io->last_probe = now;
    }
    return 0;
}

/* HS_EIO when an engine thread could not start, else 0. */
static int s_threads_check(s_worker_t *w, hs_error_t *err)
{
    pthread_mutex_lock(&w->mu);
    bool failed = w->thread_failed;
    pthread_mutex_unlock(&w->mu);
    if (failed)
        return hs_error_set(err, HS_EIO, "worker: an engine thread could not start (out of "
                            "memory, sockets or file descriptors: fewer --threads, or a "
                            "higher `ulimit -n`)");
    return 0;
}

/* Binds the results socket, starts the engine threads (*started of them) and
 * waits until each has set itself up: HS_EIO when one could not. */
static int s_start(s_worker_t *w, s_io_t *io, pthread_t *tids, int *started, hs_error_t *err)
{
    snprintf(w->pull_ep, sizeof w->pull_ep, "inproc://hs-worker-results-%p", (void *)w);
    io->pull = w->ctx ? zmq_socket(w->ctx, ZMQ_PULL) : NULL;
    if (!io->pull || !tids || zmq_bind(io->pull, w->pull_ep) != 0)
        return hs_error_set(err, HS_EIO, "worker: cannot set up sockets: %s", zmq_strerror(errno));
    for (; *started < w->threads; (*started)++)
        if (pthread_create(&tids[*started], NULL, s_engine_thread, w) != 0)
            return hs_error_set(err, HS_EIO, "worker: cannot start engine threads");
    pthread_mutex_lock(&w->mu);
    while (w->threads_up < *started)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    return s_threads_check(w, err);
}

/* Stops and joins the engine threads, closes the sockets. */
static void s_finish(s_worker_t *w, s_io_t *io, pthread_t *tids, int started)
{
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    s_drop_queued(w);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    if (io->sock)
        zmq_close(io->sock);
    if (io->pull)
        zmq_close(io->pull);
    hs_wire_buf_free(&io->buf);
}

/* The connection state machine (drawn at the top of this file) until the worker
 * leaves: 0, or HS_EIO. */
static int s_run_io(s_worker_t *w, s_io_t *io, hs_error_t *err)
{
    int rc = s_connect_loop(w, io, false, err);
    while (rc == 0) {
        rc = s_io_step(w, io, err);
        if (rc == 2) {
            s_disconnect(w, io);
            rc = s_connect_loop(w, io, true, err);
        }
    }
    return rc < 0 ? rc : 0;
}

void hs_worker_ctx_sockets(void *ctx, int threads)
{
    /* A socket an engine thread (its PUSH), a few for the I/O thread and an
     * embedded broker; ZeroMQ's default cap of 1023 is below --threads 1024. */
    int need = threads + 64, cap = zmq_ctx_get(ctx, ZMQ_MAX_SOCKETS);
    if (cap >= 0 && cap < need)
        zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, need);
}

int hs_worker_run(const hs_worker_config_t *cfg, hs_worker_stats_t *stats, hs_error_t *err)
{
    if (!cfg || !cfg->endpoint || !cfg->stop)
        return hs_error_set(err, HS_EINVAL, "worker: endpoint and stop flag are required");
    if (cfg->curve && (!hs_curve_key_valid(cfg->curve->pair.public_key) ||
                       !hs_curve_key_valid(cfg->curve->pair.secret_key) ||
                       !hs_curve_key_valid(cfg->curve->server_key)))
        return hs_error_set(err, HS_EINVAL, "worker: a CURVE key is not 40 Z85 characters");
    if (cfg->curve && !hs_curve_available())
        return hs_error_set(err, HS_EUNSUPPORTED, "worker: this libzmq has no CURVE (built "
                            "without libsodium)");
    if (cfg->n_nets < 0 || cfg->n_nets > HS_WIRE_MAX_NETS || (cfg->n_nets && !cfg->nets))
        return hs_error_set(err, HS_EINVAL, "worker: at most %d nets", HS_WIRE_MAX_NETS);
    s_worker_t w = { .cfg = cfg, .threads = cfg->threads > 0 ? cfg->threads : 1 };
    s_io_t io = { .hb = cfg->heartbeat_ms > 0 ? cfg->heartbeat_ms : 1000,
                  .liveness = cfg->liveness > 0 ? cfg->liveness : 3, .backoff = 1000,
                  .backoff_max = cfg->backoff_max_ms > 0 ? cfg->backoff_max_ms : 32000,
                  .heard = hs_clock_ms(), .next_notice = S_SILENCE_FIRST_MS,
                  .notice_gap = S_SILENCE_FIRST_MS };
    io.credit = cfg->credit > 0 ? cfg->credit : 4 * w.threads + 8;
    /* Engines are offered by canonical name: the broker matches a job's engine
     * names exactly, so a job of another revision never comes here (engine.h,
     * "Revisions"). */
    char plain[1024];
    int rc = hs_engine_canonical_list(cfg->engines ? cfg->engines
                                                   : hs_engine_list(plain, sizeof plain),
                                      HS_WIRE_MAX_ENGINES, HS_ENGINE_THIS_BUILD, w.offer,
                                      sizeof w.offer, err);
    if (rc < 0)
        return rc;
    w.batch = cfg->batch > 0 && cfg->batch < HS__BATCH_MAX ? cfg->batch : HS__BATCH_MAX;
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    bool own_ctx = cfg->zmq_ctx == NULL;
    w.ctx = own_ctx ? zmq_ctx_new() : cfg->zmq_ctx;
    if (own_ctx && w.ctx)
        hs_worker_ctx_sockets(w.ctx, w.threads);
    pthread_t *tids = calloc((size_t)w.threads, sizeof *tids);
    int started = 0;
    rc = s_start(&w, &io, tids, &started, err);
    if (rc == 0)
        rc = s_run_io(&w, &io, err);
    s_finish(&w, &io, tids, started);
    /* What was received and never answered is the broker's to requeue. */
    w.st.given_back = io.given_back + (uint64_t)(io.in_flight > 0 ? io.in_flight : 0);
    free(tids);
    if (own_ctx && w.ctx)
        zmq_ctx_term(w.ctx);
    if (stats)
        *stats = w.st;
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
    return rc;
}
