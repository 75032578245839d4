/*
 * worker/worker.h — the worker: connects to a broker, takes TASKs, evaluates
 * their positions in batches on N engine threads and sends RESULTs back.
 *
 *              ┌────────────── I/O thread (hs_worker_run) ──────────────┐
 *   broker ◄──►│ DEALER  ── READY / HEARTBEAT / RESULT / DISCONNECT ──►  │
 *              │         ◄─ TASK / HEARTBEAT / DISCONNECT ──            │
 *              │ task queue (mutex+cond) ─► engine thread 1..N           │
 *              │ PULL inproc ◄─ encoded RESULT bodies ─ engine threads   │
 *              └─────────────────────────────────────────────────────────┘
 *
 * Flow control is by credit: READY announces `credit` tasks the broker may send
 * before hearing back; every RESULT gives one credit back. So the worker never
 * holds more than `credit` tasks and the broker never overruns its pipe.
 *
 * Liveness (Paranoid Pirate): the worker sends HEARTBEAT when it has sent nothing
 * for one interval; when nothing has come from the broker for `liveness`
 * intervals it drops the connection, waits (1 s, doubling up to 32 s; reset by any
 * message from the broker) and reconnects with a fresh READY. Tasks still queued
 * and not started are dropped at a reconnect: the broker's lease expires and it
 * requeues them. Tasks being computed finish and their RESULTs are sent on the
 * new connection (the broker accepts a result for a task it still has leased or
 * requeued and ignores one it has already stored).
 *
 * Stopping: when *cfg->stop becomes non-zero (the CLI sets it from SIGTERM,
 * SIGINT or SIGHUP) the worker starts no new task: the tasks its engine threads are
 * evaluating finish and their results are sent; the tasks it holds that no
 * thread has started, and the TASKs that still arrive (the broker refills the
 * credit with every RESULT), are dropped unevaluated. Then it sends DISCONNECT,
 * on which the broker requeues every lease it still holds, and returns 0.
 * Waiting for the whole queue instead kept a busy worker going for as long as
 * its job had work. With HS_WORKER_STOP_NOW set in *cfg->stop (a second
 * signal) it sends DISCONNECT at once, results and all left to the broker, and
 * returns as soon as the engine calls under way return. Stopped while offline
 * (waiting to reconnect), it returns at once: nobody could take those results.
 * The count of tasks given back is in hs_worker_stats_t.given_back. A ZeroMQ
 * context shut down under it (zmq_ctx_shutdown, as `analyze` does when its
 * broker fails) makes it return HS_EIO instead of retrying for ever. Signal handling is the caller's
 * business; this module never installs handlers.
 */
#ifndef HS_WORKER_WORKER_H
#define HS_WORKER_WORKER_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/error.h"

/* Set in *hs_worker_config_t.stop besides the first signal's number: leave at
 * once (DISCONNECT, without waiting for the tasks being evaluated). */
#define HS_WORKER_STOP_NOW 0x10000

/* The most positions one engine call takes (their boards are copied into the
 * batch): the bound of the worker's and analyze's --batch. */
#define HS_WORKER_BATCH_MAX 256

typedef struct hs_worker_config {
    const char *endpoint;      /* "tcp://host:port" or "inproc://name" */
    void *zmq_ctx;             /* ZeroMQ context to use (required for inproc://), or NULL */
    int threads;               /* engine threads (<= 0: 1) */
    int credit;                /* tasks in flight (<= 0: 4 * threads + 8) */
    int batch;                 /* positions per engine call (<= 0: the engine's max_batch;
                                * at most HS_WORKER_BATCH_MAX) */
    int heartbeat_ms;          /* heartbeat interval (<= 0: 1000) */
    int liveness;              /* missed intervals before reconnect (<= 0: 3) */
    int backoff_max_ms;        /* longest wait between reconnects (<= 0: 32000) */
    const char *name;          /* worker name sent in READY (NULL: host:pid) */
    const char *engines;       /* comma list of engines offered (NULL: all registered) */
    atomic_int *stop;          /* set non-zero to make hs_worker_run finish and return;
                                * | HS_WORKER_STOP_NOW to leave at once (see above) */
    int verbose;               /* log connection events to stderr */
    /* If not NULL: called on the worker's I/O thread when the broker first
     * answers on a connection (its first message after READY), with the name
     * READY gave and the count of such connections so far (1 = the first; more
     * after reconnects). So a caller can say "connected" only once it is true. */
    void (*on_connected)(void *arg, const char *name, int connections);
    void *on_connected_arg;
    /* If not NULL: called on the I/O thread when the broker has not answered
     * for `seconds` (answered 0): a first time after 10 s without a message from
     * it (none yet, or none since it went away; the worker keeps trying), then
     * after gaps of 20 s, 40 s and 60 s, and every minute from then on; and
     * once with answered 1 when it answers after such a call (seconds: how long
     * it was silent). A worker with a wrong address otherwise retried in silence
     * for ever. name as for on_connected. */
    void (*on_silence)(void *arg, const char *name, int seconds, int answered);
    void *on_silence_arg;
    /* The nets this worker holds (`worker --net FILE`), loaded by the caller and
     * borrowed until hs_worker_run returns: every engine instance gets them
     * (hs_engine_config_t.nets), and READY lists their hashes with the backend
     * (docs/PROTOCOL.md, "Nets") so that the broker sends a spec naming a net
     * only here. At most HS_WIRE_MAX_NETS; 0 = none (no nets field in READY). */
    const struct hs_nn_model *const *nets;
    int n_nets;
    int net_backend;           /* hs_nn_backend_kind_t the net engines run on */
    int net_batch;             /* positions per net batch (0: the backend's default) */
    int net_threads;           /* threads each net instance may use (0: the backend's
                                * default, every core for cpu) */
    /* CURVE keys for a tcp:// broker that requires them (docs/SECURITY.md);
     * NULL = plaintext. Borrowed until hs_worker_run returns. */
    const struct hs_curve_client *curve;
} hs_worker_config_t;

/* Counters filled by hs_worker_run (may be read after it returns). */
typedef struct hs_worker_stats {
    uint64_t tasks, positions, evals, task_errors, reconnects;
    /* Tasks received and never answered, left to the broker to requeue:
     * dropped unstarted at a stop or a reconnect, arrived while stopping, or
     * unfinished when the worker left (a second signal, stopped offline). */
    uint64_t given_back;
    double engine_seconds;     /* wall time inside engine evaluate() calls, all threads */
    double engine_cpu_seconds; /* CPU time of the calling threads inside those calls
                                * (CLOCK_THREAD_CPUTIME_ID): unlike engine_seconds, it
                                * does not count time the thread waited for a CPU */
    double thread_cpu_seconds; /* the engine threads' whole CPU time, inside engine
                                * calls and out (replays, the results' encoding):
                                * added as each thread ends */
    /* A tree search's leaf evaluator (hs_engine_eval_counts): calls made and
     * leaves they carried, all threads; the mean batch is leaves / calls. */
    uint64_t eval_calls, eval_leaves;
} hs_worker_stats_t;

/*
 * Raises ZeroMQ's socket limit of ctx (1023 by default) to what `threads`
 * engine threads and an embedded broker need. Call it on a new context,
 * before its first socket; hs_worker_run does so for a context of its own.
 */
void hs_worker_ctx_sockets(void *ctx, int threads);

/*
 * Runs the worker until *cfg->stop is set. Blocks. Returns 0 after a clean
 * shutdown, or HS_EINVAL (bad config, unknown engine, too many nets), HS_ENOMEM, HS_EIO (socket
 * setup failed, or the ZeroMQ context was shut down) with *err. stats may be NULL.
 */
int hs_worker_run(const hs_worker_config_t *cfg, hs_worker_stats_t *stats, hs_error_t *err);

#endif
