/*
 * broker/broker.h — the broker: one ZeroMQ ROUTER endpoint that serves workers
 * and clients, hands out tasks under leases, collects results into the store and
 * journals every job, game and task state in the same LMDB environment.
 *
 *   clients (DEALER, "HSC1") ──SUBMIT/STATUS/CANCEL──►┐
 *                                                     ROUTER ──► store (LMDB)
 *   workers (DEALER, "HSW1") ◄──TASK/HEARTBEAT───────►┘          games, tasks,
 *                            ──READY/RESULT/HEARTBEAT─►          jobs, evals
 *
 * Peers are told apart by the magic frame after the empty delimiter (Majordomo
 * style), so workers and clients connect to the same address.
 *
 * Guarantees (see the state machine at the top of broker_tasks.c):
 *  - a task is leased to at most one worker at a time, for lease_ms, kept longer
 *    (up to 6 x lease_ms) while that worker keeps sending results; a worker that
 *    stays silent for liveness × heartbeat_ms is expired and its leases requeued;
 *  - a game holding more than cfg->chunk positions is split into several tasks
 *    (chunks) of consecutive move ranges; the job counts games, not tasks: a game
 *    is done when its last chunk is, and failed once if any chunk fails;
 *  - a task that failed or was requeued max_attempts times is marked failed with
 *    its reason, its game recorded as failed in the store, and the game's other
 *    chunks canceled;
 *  - the journal is updated in the same LMDB transaction as the results it
 *    describes, so `kill -9` at any moment followed by a restart resumes every
 *    job: leased tasks are queued again, and the store's idempotent puts make a
 *    result that arrives twice count once;
 *  - memory is bounded: a SUBMIT_REPLY tells the client how many more games it may
 *    send; the broker grants none while queue_max tasks are pending. Only running
 *    jobs are held whole: one that ended keeps a 32-byte index entry, and what
 *    STATUS shows of it is read from the journal.
 *
 * Threads: hs_broker_run owns its sockets and store handle and runs on the
 * calling thread until *cfg->stop is set.
 */
#ifndef HS_BROKER_BROKER_H
#define HS_BROKER_BROKER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/wire_curve.h"

/*
 * Default positions per task. A task is the unit of leasing, retrying and
 * failing: a slow engine (MCTS at 200 ms a position) would hold a whole 300-move
 * game for a minute under one lease, so a lost worker costs that much work again,
 * one game cannot use more than one worker, and one bad position retries the lot.
 * Each task also costs a TASK message (the whole game up to its last move), a
 * replay of that game on the worker, a journal record and a RESULT, so very small
 * chunks pay that overhead many times per game. 64 is the worker credit's unit
 * (a credit stands for up to 64 positions, docs/PROTOCOL.md), so a chunk is one
 * credit, and a 250-move game is 4 tasks. Measured with the no-op engine (no
 * engine work at all: bench/broker.sh BUILD 2000 250 1,2), an extra chunk costs
 * about 55 us of CPU (broker + worker, mostly the worker's replay from move 0),
 * about 25% more CPU per game than one task per game; any real engine spends
 * far more than that on 64 positions, so there the cost is under 1%.
 */
#define HS_BROKER_DEFAULT_CHUNK 64

/* Positions one credit of a worker's READY stands for (docs/PROTOCOL.md, "Flow
 * control"): a worker holds up to credit x this many positions. */
#define HS_BROKER_CREDIT_POSITIONS 64

typedef struct hs_broker_config {
    const char *bind;          /* "tcp://0.0.0.0:5555" or "inproc://name"; several separated by
                                * commas. A tcp port of "*" takes a free port the kernel
                                * picks: on_serving tells which (no probe-then-bind race) */
    void *zmq_ctx;             /* context to use (required for inproc), or NULL */
    const char *db_dir;        /* store directory (opened read-write) */
    unsigned store_flags;      /* HS_STORE_* flags for hs_store_open */
    size_t map_size;           /* initial LMDB map size, 0 = store default */
    int heartbeat_ms;          /* heartbeat interval (<= 0: 1000) */
    int liveness;              /* missed heartbeats before a worker expires (<= 0: 3) */
    int lease_ms;              /* task lease (<= 0: 600000) */
    int max_attempts;          /* leases before a task fails (<= 0: 5) */
    int queue_max;             /* pending tasks before SUBMIT credit stops (<= 0: 20000) */
    int upload_ms;             /* upload lease: a running job whose input is not complete
                                * and that gets no SUBMIT for this long is closed, its
                                * accepted games finish and it ends "failed" with the
                                * reason (<= 0: 600000) */
    int chunk;                 /* most positions per task: a game with more is split
                                * into tasks of consecutive move ranges (<= 0:
                                * HS_BROKER_DEFAULT_CHUNK; capped so that a RESULT
                                * fits HS_WIRE_MAX_EVALS: 4096 / engines) */
    atomic_int *stop;          /* set non-zero to return */
    atomic_int *ready;         /* if not NULL: set to 1 once serving, -1 when startup failed */
    /* If not NULL: called once, on the broker's thread, after every address is
     * bound and before *ready is set, with the endpoints actually bound (comma-
     * separated, a "*" port resolved, e.g. "tcp://127.0.0.1:40123"). The string is
     * the broker's: copy it to keep it. */
    void (*on_serving)(void *arg, const char *endpoints);
    void *on_serving_arg;
    int verbose;               /* log every event to stderr, each task's too */
    int log_events;            /* log the operator's events to stderr even without
                                * verbose: serving, a worker ready or lost, a job
                                * created, done or canceled (by which key), a key or
                                * limit refused, the stop. `hyeongse broker` sets it;
                                * a broker inside another program (analyze) leaves
                                * its stderr to that program */

    /* ---- security (docs/SECURITY.md) ----
     * With curve NULL the broker speaks plaintext and every peer has every
     * right (one anonymous admin): allowed on inproc://, ipc:// and loopback
     * tcp binds, and on any other bind only with insecure set (the broker
     * then warns); otherwise hs_broker_run fails at once with HS_EINVAL. With
     * curve set, every tcp/ipc bind is a CURVE server and a ZAP handler (on
     * the broker's thread) admits only the keys of these lists: a worker key
     * may lease tasks and return results; a client key may submit jobs and
     * read, query and cancel its own; an admin key is a client with every
     * job's rights. A key may be in several lists. Lists are borrowed until
     * hs_broker_run returns. */
    const hs_curve_pair_t *curve;          /* the broker's key pair, or NULL */
    const hs_curve_list_t *worker_keys;    /* may be NULL = none */
    const hs_curve_list_t *client_keys;
    const hs_curve_list_t *admin_keys;
    int insecure;                          /* plaintext on a non-loopback bind */

    /* ---- limits per client key (the anonymous client counts as one) ----
     * Past a limit a SUBMIT gets an ERROR (HS_ELIMIT) saying which; the
     * broker and other clients go on. */
    int limit_jobs;            /* running jobs (<= 0: 64) */
    int limit_games;           /* games queued and unfinished (<= 0: queue_max) */
    int64_t limit_upload;      /* SUBMIT bytes a minute (<= 0: 512 MiB) */
} hs_broker_config_t;

/*
 * Opens the store, loads unfinished jobs from the journal (leased tasks are queued
 * again), binds, and serves until *cfg->stop is set. Returns 0 after a clean stop,
 * or HS_EINVAL / HS_EIO (cannot bind) / HS_ESTORE with *err.
 */
int hs_broker_run(const hs_broker_config_t *cfg, hs_error_t *err);

#endif
