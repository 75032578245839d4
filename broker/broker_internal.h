/*
 * broker/broker_internal.h — the broker's in-memory state, shared by broker.c
 * (sockets, messages), broker_tasks.c (tasks, the state machine), broker_jobs.c
 * (jobs, the journal load), broker_joblist.c (the index of every job, STATUS
 * pages) and broker_clients.c (QUERY, WATCH).
 * hs__ names are internal to broker/.
 *
 * Memory: one hs__btask_t (~400 bytes) per unfinished task; one hs__bjob_t
 * (~3 KB: the job record and its engine specs) per running job, dropped once
 * the commit that journals its end is done; and for every job of the journal,
 * ended ones included, a 32-byte hs__jobref_t (id, owner, state, its token's
 * hash), by which STATUS pages, WATCH and a resumed upload filter, count and
 * find jobs. What a reply shows of an ended job is read from the store's
 * `jobs` table when it is asked for. Games are not kept in memory: a TASK is
 * built from the store when it is dispatched. Finished tasks are dropped from
 * memory (the journal keeps them). A leased task also holds its positions' keys
 * (16 bytes each, at most 64 a task by default) until its RESULT.
 */
#ifndef HS_BROKER_INTERNAL_H
#define HS_BROKER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/broker.h"
#include <zmq.h>

#include "core/log.h"
#include "core/wire.h"
#include "store/store.h"

/* A --verbose event line of broker b, timestamped (core/log.h; one definition
 * for every broker file, so the prefix and the verbosity test cannot drift
 * apart). The format has no newline. For each task's events: a busy broker
 * has thousands a second. */
#define HS__LOG(b, ...) \
    do { if ((b)->cfg->verbose) hs_log_event("broker", __VA_ARGS__); } while (0)
/* An operator's event line (cfg->log_events, or --verbose): what the log of a
 * broker that ran for days must say without --verbose (a worker ready or lost,
 * a job created, done or canceled, the stop), a few lines a job. */
#define HS__EVENT(b, ...) \
    do { if ((b)->cfg->verbose || (b)->cfg->log_events) hs_log_event("broker", __VA_ARGS__); } \
    while (0)

/* A kind of refusal logged at most HS__RATELOG_LINES times a minute, whatever
 * --verbose says: an operator must see a key that is refused, and a flood of
 * them is counted instead of printed (broker_zap.c, hs__ratelog_allow). */
#define HS__RATELOG_LINES 10
typedef struct hs__ratelog {
    int64_t window_ms;              /* start of the rate window */
    int logged;                     /* lines logged in that window */
    uint64_t quiet;                 /* refusals not logged in that window */
} hs__ratelog_t;

struct hs__bworker;
struct hs__bjob;

/* A game split into several tasks (chunks) while some of them are unfinished:
 * counts the chunks still in memory (queued or leased), so the job counts the game
 * once, when the last one ends. Rebuilt from the task records on load. */
typedef struct hs__bgame {
    int left;                       /* chunks in memory; freed at 0 */
} hs__bgame_t;

typedef struct hs__btask {
    hs_store_task_t rec;            /* the record (state, attempts, moves) */
    hs_task_state_t jstate;         /* state the journal holds (leases are not journaled) */
    int64_t deadline;               /* lease expiry (ms, monotonic) while LEASED */
    struct hs__bworker *worker;     /* holder of the lease, or NULL */
    int lease_slot;                 /* its index in worker->leases while LEASED: a
                                     * RESULT drops its lease in O(1), not by a scan
                                     * of up to credit x 64 leases */
    struct hs__bjob *job;
    hs__bgame_t *game;              /* shared by the chunks of one game, or NULL */
    uint8_t (*keys)[16];            /* while LEASED: the position key of each position of
                                     * the task, from the broker's own replay of the game
                                     * (hs__task_build), which a RESULT's evals must carry;
                                     * NULL when not leased or the game does not replay */
    int size;                       /* the game's board size, which they must carry too */
    uint8_t *reused;                /* while LEASED: per position, 1 = left out of the
                                     * TASK, its evals in the store already
                                     * (broker_reuse.c); NULL when none is */
    int num_reused;
    bool no_reuse;                  /* a reused eval was missing: send every position */
    struct hs__btask *qprev, *qnext;  /* job queue links while QUEUED */
    struct hs__btask *hnext;        /* hash chain */
} hs__btask_t;

typedef struct hs__bjob {
    hs_store_job_t rec;
    hs__btask_t *qhead, *qtail;     /* queued tasks, FIFO */
    int64_t queued, leased;
    int num_engines;
    char *engines[HS_WIRE_MAX_ENGINES];  /* the specs, into engine_text: what every
                                     * TASK lends (hs__task_build: those its task
                                     * runs); the struct is never copied */
    char engine_text[sizeof ((hs_store_job_t *)0)->engines];  /* rec.engines, each
                                     * spec ended by a NUL (a job's memory: 16
                                     * specs of 256 bytes each was 4 KB a job) */
    uint32_t engine_ids[HS_WIRE_MAX_ENGINES];
    bool dirty;                     /* rec changed since last journal write */
    int step;                       /* rec.moves_spec parsed once per job */
    bool last_only;                 /* (hs_wire_moves_spec_parse's results) */
    int64_t last_input;             /* ms of the last SUBMIT (upload lease) */
    double rate;                    /* positions/s, smoothed */
    int64_t rate_ms, rate_done;     /* last rate sample */
    int granted;                    /* games the last SUBMIT_REPLY let the client send
                                     * (its credit): a SUBMIT may add that many new
                                     * games (broker_limits.c) */
    bool granted_known;             /* false until the first reply (and after a restart) */
    int64_t last_lease;             /* ms of its last lease (or its start) */
    int64_t idle_checked;           /* ms of the last look for a worker that can run it */
    char *waiting;                  /* NULL, or why no live worker runs its queued tasks
                                     * (broker.c, s_job_idle): the admin's text, naming
                                     * the workers (host names), a NUL, then a client's,
                                     * which counts them; logged once, shown by STATUS as
                                     * its reason until a lease (hs__job_waiting).
                                     * malloc'd: only a job that waits pays for it */
    struct hs__bjob *ended_next;    /* in b->ended: it ended, and is freed once the
                                     * commit that journals its end is done */
} hs__bjob_t;

/* A job owner (a client key, "" = anonymous), interned: few, the keys of the
 * allow lists. */
typedef struct hs__owner {
    char key[HS_CURVE_KEY_LEN + 1];
    int64_t jobs;                   /* its jobs in the index: a WATCH of every job of
                                     * its owner sees a new one, even one that ended
                                     * in the round that made it (s_watch_sig) */
} hs__owner_t;

/*
 * What the broker keeps of every job of its journal, in id order (b->jobs):
 * enough to find, filter, count and page jobs (STATUS, WATCH, a SUBMIT's token)
 * without reading their records. The job itself (hs__bjob_t) is in memory only
 * while it runs; once it ended, a reply reads its record from the store
 * (broker_joblist.c). A service that submits a job per game has a million of
 * them: 32 MB here, not the 3.6 GB their hs__bjob_t took (docs/SCALING.md).
 */
typedef struct hs__jobref {
    uint64_t id;
    uint64_t token;                 /* hash of (owner, client token); 0 = no token */
    hs__bjob_t *live;               /* the job while it is in memory, else NULL */
    uint32_t owner;                 /* its owner's index in b->owners */
    uint8_t state;                  /* hs_job_state_t once live is NULL (while live:
                                     * live->rec.state, which changes) */
} hs__jobref_t;
_Static_assert(sizeof(hs__jobref_t) <= 32, "a job the broker ended costs it 32 bytes");

/* The reason STATUS shows for j while it waits for a worker (NULL: it does not
 * wait): worker names for an admin only (docs/SECURITY.md: names are hosts). */
static inline const char *hs__job_waiting(const hs__bjob_t *j, bool admin)
{
    return !j->waiting ? NULL : admin ? j->waiting : j->waiting + strlen(j->waiting) + 1;
}

/* j is served again (a lease), or gone: its waiting text is dropped. */
static inline void hs__job_waiting_clear(hs__bjob_t *j)
{
    free(j->waiting);
    j->waiting = NULL;
}

/* A task's engines are a mask over its job's (hs_store_task_t.engines). */
_Static_assert(HS_WIRE_MAX_ENGINES <= 32, "a task's engine mask is a uint32_t");

/* Every engine of j as a task's mask: bit k = j's k-th engine. */
static inline uint32_t hs__job_engines_all(const hs__bjob_t *j)
{
    return j->num_engines >= 32 ? UINT32_MAX : (1u << j->num_engines) - 1u;
}

/* The engines of its job that task t runs (a mask, never 0): its record's mask,
 * or every engine when the record says 0 (a new game, an older record) or
 * names none the job has (a damaged one: running more is safe). */
static inline uint32_t hs__task_engines(const hs__btask_t *t)
{
    uint32_t all = hs__job_engines_all(t->job), m = t->rec.engines & all;
    return m ? m : all;
}

typedef struct hs__bworker {
    uint8_t id[256];
    size_t id_len;
    char key[HS_CURVE_KEY_LEN + 1]; /* the CURVE key its READY came with ("" = plaintext):
                                     * a routing id is the connection's, so a later peer
                                     * that takes the same id with another key is not
                                     * this worker and cannot return its leases */
    char name[HS_WIRE_MAX_NAME];
    int num_engines;
    char engines[HS_WIRE_MAX_ENGINES][64];
    int credit;                     /* most tasks in flight */
    int batch;                      /* most TASK bodies per message (READY's batch, >= 1) */
    int num_nets;                   /* READY's nets: a spec option net=<hash> is */
    char nets[HS_WIRE_MAX_NETS][HS_WIRE_NET_HASH_LEN + 1];   /* leased only to a holder */
    char backend[HS_WIRE_MAX_BACKEND + 1];   /* READY's backend, "" = not said */
    hs__btask_t **leases;           /* tasks leased to it */
    int num_leases, cap_leases;
    int64_t leased_positions;       /* positions of those tasks */
    int64_t expiry;                 /* silent past this (ms) = dead */
    int64_t last_answer;            /* ms of its last RESULT (or its READY): its leases
                                     * time out only while it sends none (s_timers) */
    int64_t last_sent;
    bool blocked;                   /* its pipe is full, or nothing queued is
                                     * for it, this round */
    /* status --cluster (hs__worker_account): counts since its READY */
    int64_t positions_done, tasks_done, errors, requeued;
    double rate;                    /* positions/s, smoothed */
    int64_t rate_ms, rate_done;     /* last rate sample */
} hs__bworker_t;

/* A lease past its deadline whose holder still sends results is kept, up to this
 * many times lease_ms in all (broker.c, s_timers). */
#define HS__LEASE_STRETCH 6

/* What ended one of a worker's leases (hs__worker_account). */
typedef enum hs__wend {
    HS__WEND_DONE,                  /* its result stored: the task's positions done */
    HS__WEND_ERROR,                 /* it reported a failure */
    HS__WEND_REQUEUED,              /* the lease went back to the queue (any reason) */
} hs__wend_t;

typedef struct hs__broker {
    const hs_broker_config_t *cfg;
    int hb_ms, liveness, lease_ms, max_attempts, queue_max, upload_ms;
    hs_store_t *store;
    void *sock;
    hs__jobref_t *jobs;             /* every job of the journal, in id order */
    int num_jobs, cap_jobs;
    struct hs__owner *owners;       /* every job owner, interned (hs__jobref_t.owner) */
    uint32_t *owner_order;          /* their indexes sorted by key: a binary search */
    int num_owners, cap_owners;
    hs__bjob_t **run;               /* the running jobs (a job never runs again once
                                     * it ends): what each lease and each round
                                     * looks through, so that the jobs a long-lived
                                     * broker has finished cost it nothing
                                     * (hs__run_prune moves the ended to b->ended) */
    int num_run, cap_run;
    hs__bjob_t *ended;              /* jobs that ended, in memory until the commit
                                     * that journals their end (hs__jobs_release) */
    int rr;                         /* round-robin position over run */
    hs__btask_t **buckets;          /* task hash by id */
    size_t num_buckets, num_tasks;
    hs__bworker_t **workers;
    int num_workers, cap_workers;
    int64_t pending;                /* queued + leased, all jobs */
    int64_t games_added, tasks_added;  /* since start: tasks per game, for SUBMIT credit */
    int64_t now;                    /* ms, monotonic, updated each loop */
    int64_t started;                /* ms, monotonic: when the broker started (uptime) */
    int fatal;                      /* sticky store error (HS_E*), 0 = fine */
    hs_error_t err;
    uint64_t dropped;               /* malformed messages dropped */
    uint64_t rounds, messages, commits;  /* loop statistics (logged at stop) */
    uint64_t bodies;                /* bodies read (a batched message holds several) */
    uint64_t sent_msgs, sent_tasks; /* TASK messages and TASK bodies sent */
    struct hs__bpack *packs;        /* per worker slot: TASKs packed this dispatch (broker_dispatch.c) */
    int cap_packs;
    struct hs__bquery *queries;     /* QUERYs waiting for the round's commit (broker_clients.c) */
    int num_queries, cap_queries;
    struct hs__bwatch *watchers;    /* WATCH subscriptions (broker_clients.c) */
    int num_watchers, cap_watchers;
    /* ---- security (broker_zap.c, broker_limits.c; docs/SECURITY.md) ---- */
    void *zap;                      /* the ZAP handler's REP socket (CURVE only), or NULL */
    bool inproc_bound;              /* a bind is inproc://: a peer without a User-Id is
                                     * in this process (no CURVE handshake there) */
    uint64_t refused;               /* messages dropped for the peer's role */
    uint64_t zap_denied;            /* handshakes refused by the ZAP handler */
    hs__ratelog_t zap_log;          /* their lines (keys in no list) */
    hs__ratelog_t role_log;         /* messages refused for the key's role */
    hs__ratelog_t limit_log;        /* SUBMITs refused by a limit */
    int limit_jobs, limit_games;    /* per client key (defaults applied) */
    int64_t limit_upload;           /* SUBMIT bytes a minute per client key */
    struct hs__bclient *clients;    /* per-client-key upload windows (broker_limits.c) */
    int num_clients, cap_clients;
} hs__broker_t;

/* How long a worker or a watcher may be silent before it is taken for lost:
 * liveness intervals of at least 1 s, so a peer heartbeating every second (the
 * default) outlives a broker run with a shorter --heartbeat. */
static inline int64_t hs__peer_silence_ms(const hs__broker_t *b)
{
    return (int64_t)b->liveness * (b->hb_ms > 1000 ? b->hb_ms : 1000);
}

/* ---- peers and their rights: broker_zap.c ---- */
/* What the peer of a message may do (docs/SECURITY.md, "Roles"). */
typedef struct hs__peer {
    bool worker;                    /* may READY, lease and return RESULTs */
    bool client;                    /* may SUBMIT, and read and cancel its own jobs */
    bool admin;                     /* a client with every job's rights, QUERY, worker list */
    char key[HS_CURVE_KEY_LEN + 1]; /* its CURVE public key; "" = anonymous (plaintext) */
} hs__peer_t;

/* Fails (HS_EINVAL, with the reason) when a bind of cfg is not an endpoint
 * hs_client_endpoint_check takes (a tcp port out of range, an unknown
 * transport), or binds a non-loopback tcp address without CURVE and without
 * cfg->insecure; warns on stderr when insecure allows it. Checked before
 * anything is opened. */
int hs__bind_check(const hs_broker_config_t *cfg, hs_error_t *err);
/* With cfg->curve: binds the ZAP handler (inproc://zeromq.zap.01 in ctx) into
 * b->zap and makes sock a CURVE server. Call before sock binds anything, or
 * libzmq would let the first peers in unasked. 0 or HS_EIO/HS_EUNSUPPORTED. */
int hs__zap_open(hs__broker_t *b, void *ctx, void *sock, hs_error_t *err);
/* Answers the ZAP requests waiting on b->zap (the broker's poll saw it ready). */
void hs__zap_serve(hs__broker_t *b);
void hs__zap_close(hs__broker_t *b);
/* The rights of the peer that sent frame (any frame but the identity: the ZAP
 * handler's User-Id rides on those). */
void hs__peer_of(const hs__broker_t *b, zmq_msg_t *frame, hs__peer_t *p);
/* hs__peer_of, then whether the peer's role allows a message of its kind
 * (is_worker: HSW1); a refusal is counted and logged with the key's name
 * (whatever --verbose says, rate-limited: b->role_log). */
bool hs__peer_allowed(hs__broker_t *b, zmq_msg_t *frame, bool is_worker, hs__peer_t *p);
/* Whether peer p may see and act on job j: an admin, or its owner. */
bool hs__job_visible(const hs__bjob_t *j, const hs__peer_t *p);
/* How the log names a key (a job's owner, a peer): the name its allow-list line
 * gives (or the .pub file's: "alice"), else "key " and its first 8 characters
 * and "..." (as a limit's refusal names it);
 * "anonymous" for "" (a plaintext or inproc peer). Into buf; returns buf. */
const char *hs__key_name(const hs__broker_t *b, const char *key, char *buf, size_t size);
/* Whether a line of kind r may be logged now: true for the first
 * HS__RATELOG_LINES of a minute; after that the refusal is counted, and the
 * count is logged ("N more WHAT in the last minute") when the next minute's
 * first one comes. */
bool hs__ratelog_allow(hs__broker_t *b, hs__ratelog_t *r, const char *what);

/* ---- per-client limits: broker_limits.c ---- */
/* Before a SUBMIT of bytes carrying games games: HS_ELIMIT (why filled) when it
 * would pass the client's upload a minute; counts the bytes either way. */
int hs__limit_upload(hs__broker_t *b, const hs__peer_t *p, size_t bytes, int games, char *why,
                     size_t size);
/* Before a SUBMIT creates a job: HS_ELIMIT (why filled) at limit_jobs running jobs. */
int hs__limit_jobs(hs__broker_t *b, const hs__peer_t *p, char *why, size_t size);
/* New games a SUBMIT to j may add: what j was granted (its first SUBMIT: one, or
 * more when the credit now allows). global: the queue's credit now; first: the
 * SUBMIT said job id 0 (it created j, or its token found j: a client that holds
 * no grant, such as one resuming its upload). */
int hs__limit_allowance(hs__broker_t *b, const hs__bjob_t *j, int global, bool first);
/* Adds the games of SUBMIT s to running job j, at most allowance new unfinished
 * ones (duplicates and failed games are free): the games accepted (duplicates
 * included). *cut: games past it were left out. */
int hs__limit_add_games(hs__broker_t *b, hs__bjob_t *j, const hs_wire_submit_t *s,
                        int allowance, bool *cut);
/* Why a SUBMIT to j that carried more new games than hs__limit_allowance was cut. */
void hs__limit_why(hs__broker_t *b, const hs__bjob_t *j, const hs__peer_t *p, int allowance,
                   char *why, size_t size);
/* The credit of j's SUBMIT_REPLY: global capped by its owner's room (games and
 * upload); records it as j's grant. */
int hs__limit_credit(hs__broker_t *b, hs__bjob_t *j, const hs__peer_t *p, int global);
void hs__limits_free(hs__broker_t *b);

/* ---- replies and sending: broker_send.c ---- */
/* Encodes m and sends it to peer id at once (with the worker or client magic).
 * 0, HS_EAGAIN (the peer's pipe is full), HS_ENOTFOUND (gone), or an encode error. */
int hs__send_msg(hs__broker_t *b, const uint8_t *id, size_t id_len, bool to_worker,
                 const hs_wire_msg_t *m);
/* Sends [id][""][magic][body1]...[bodyK] (n >= 1 bodies). 0, HS_EAGAIN (pipe
 * full) or HS_ENOTFOUND (peer gone). */
int hs__send_frames(hs__broker_t *b, const uint8_t *id, size_t id_len, bool to_worker,
                    const void *const *body, const size_t *len, int n);

/* A round's replies, held until its commit: each already encoded. */
typedef struct hs__reply {
    uint8_t id[256];
    size_t id_len;
    hs_wire_buf_t body;
    bool to_worker;         /* the magic the peer used (HSW1) */
} hs__reply_t;

typedef struct hs__outbox {
    hs__reply_t *v;
    int n, cap;
} hs__outbox_t;

/* Queues m, encoded, for peer id; to_worker = the magic the peer used, so shared
 * types (HEARTBEAT, ERROR, DISCONNECT) are answered in the peer's own magic. A
 * reply the encoder refuses is queued as an ERROR saying why; one that finds
 * no memory is dropped (the peer's request times out and is retried). */
void hs__outbox_add(hs__outbox_t *o, const uint8_t *id, size_t id_len, bool to_worker,
                    const hs_wire_msg_t *m);
/* Queues an ERROR (code, reason) for client id; a reason cut inside a UTF-8
 * character is escaped, so the ERROR still encodes. */
void hs__outbox_error(hs__outbox_t *o, const uint8_t *id, size_t id_len, int code,
                      const char *reason);
/* Sends every queued reply (a peer that is gone or full loses its reply) and
 * empties the outbox, keeping its room. */
void hs__outbox_flush(hs__broker_t *b, hs__outbox_t *o);
/* Frees the outbox and anything still queued; *o is empty after. */
void hs__outbox_free(hs__outbox_t *o);

/* ---- QUERY and WATCH: broker_clients.c ---- */
/* Queues a QUERY for after the round's commit. 0, or an error code with *why
 * (static text) for the ERROR reply: HS_ELIMIT, HS_EAGAIN (queue full), HS_ENOMEM. */
int hs__query_add(hs__broker_t *b, const uint8_t *id, size_t len, const char *text,
                  const char **why);
/* Runs up to a few queued QUERYs and sends their replies (no batch may be open). */
void hs__queries_run(hs__broker_t *b);
/* Subscribes peer id to job_id (0 = every job of owner; owner NULL = an admin,
 * every job); the first push answers it. 0, or an error code with why filled:
 * HS_ENOTFOUND (also another owner's job), HS_EFULL, HS_ENOMEM. */
int hs__watch_add(hs__broker_t *b, const uint8_t *id, size_t len, uint64_t job_id,
                  const char *owner, char *why, size_t why_size);
/* A message from peer id: if it watches, its silence timer restarts. Its index or -1. */
int hs__watch_touch(hs__broker_t *b, const uint8_t *id, size_t len);
void hs__watch_remove(hs__broker_t *b, int i);
/* After the commit: pushes STATUS_REPLYs to watchers whose job changed. */
void hs__watch_push(hs__broker_t *b);
/* Frees the query queue and the watchers (at shutdown). */
void hs__clients_free(hs__broker_t *b);
/* The live workers into r->worker_list (STATUS's answer: what each READY said of
 * its engines and nets, its leases, and its counts and rate for `status
 * --cluster`, sampling the rate), and the queue and uptime into r->cluster.
 * Borrows the workers' strings: encode the reply before the loop changes them,
 * then free(r->worker_list) (one block). 0 or HS_ENOMEM (then no list). */
int hs__worker_list(hs__broker_t *b, hs_wire_status_reply_t *r);
/* The answer to a STATUS from a key that is not an admin's: the cluster field
 * with every count 0 and uptime 0 (an admin's uptime is at least 1 ms), and no
 * worker list. So `status --cluster` can tell "this key is not an admin key"
 * from an older broker, which sends no cluster field at all. */
void hs__cluster_withheld(hs_wire_status_reply_t *r);
/* Counts how one of worker w's leases ended (w NULL: no lease holder, nothing
 * counted): positions are the task's, for HS__WEND_DONE. The one place the
 * per-worker counts and rate of `status --cluster` change. */
void hs__worker_account(hs__broker_t *b, hs__bworker_t *w, int64_t positions, hs__wend_t end);

/* ---- the socket loop: broker.c ---- */
/* Removes worker i: its leases go back to the queue (an attempt is used); the
 * last worker moves into slot i. */
void hs__worker_remove(hs__broker_t *b, int i, const char *why);

/* ---- dispatch: broker_dispatch.c ---- */
/* Leases queued tasks to workers with free credit and sends them (after the commit). */
void hs__dispatch(hs__broker_t *b);
/* Frees the per-worker TASK packs (at shutdown). */
void hs__packs_free(hs__broker_t *b);
/* Job j has queued tasks and no lease for a while: if no live worker can run
 * them, sets why as its waiting text (hs__job_waiting: worker names for an
 * admin, counts for a client) and logs it once (whatever --verbose says: such
 * a job would wait without a word); else drops the text. */
void hs__job_idle(hs__broker_t *b, hs__bjob_t *j);

/* ---- tasks and the state machine: broker_tasks.c ---- */
int hs__batch(hs__broker_t *b);     /* opens a store batch if none is open */
hs__btask_t *hs__task_find(hs__broker_t *b, uint64_t id);
/* Whether some live worker can run one of j's first queued tasks. */
bool hs__job_servable(const hs__broker_t *b, const hs__bjob_t *j);
/* Moves the jobs that ended from b->run to b->ended (once a round, before the
 * flush and commit that journal their end). */
void hs__run_prune(hs__broker_t *b);
/* The next queued task for w (round robin over the running jobs; in a job the
 * first w can run among the first few queued), or NULL. */
hs__btask_t *hs__task_next(hs__broker_t *b, const hs__bworker_t *w);
int hs__task_lease(hs__broker_t *b, hs__btask_t *t, hs__bworker_t *w);
int hs__task_done(hs__broker_t *b, hs__btask_t *t, const hs_wire_result_t *r);
int hs__task_requeue(hs__broker_t *b, hs__btask_t *t, const char *reason);
/* Whether good RESULT r covers task t exactly: one eval per (position of the
 * task, engine of the task: hs__task_engines), nothing else, each with the
 * position key and board size the broker expects (t->keys, t->size). 0, or -1
 * with the reason in why. */
int hs__result_check(const hs__btask_t *t, const hs_wire_result_t *r, char *why, size_t size);
int hs__task_unlease(hs__broker_t *b, hs__btask_t *t);
/* The TASK message of t into *m (also on failure: release it with hs__task_msg_fini,
 * never hs_wire_msg_fini alone: the specs m->task.engines points at are lent by
 * the job). Its engines are the task's (hs__task_engines). Also sets t->keys and
 * t->size for the lease that follows (freed when t leaves LEASED). */
int hs__task_build(hs__broker_t *b, hs__btask_t *t, hs_wire_msg_t *m, hs_error_t *err);
void hs__task_msg_fini(hs_wire_msg_t *m);

/* ---- positions whose evals the store holds already: broker_reuse.c ---- */
/* Marks in t->reused the positions among t's n (move numbers moves[], keys
 * t->keys) that the store has an eval of for every engine of t, before move 30,
 * all but the last: the TASK leaves them out. 0 or the store's error. */
int hs__task_reuse_mark(hs__broker_t *b, hs__btask_t *t, const int *moves, int n,
                        hs_error_t *err);
/* Points the game's entries of t's reused positions at their stored evals, in
 * the open batch. 0; 1 when one is missing (send t again with every position:
 * t->no_reuse); or a store error made fatal (hs__fatal). */
int hs__task_reuse_link(hs__broker_t *b, hs__btask_t *t);
/* broker_tasks.c: the job's indexes of the engines t runs (hs__task_engines),
 * in the job's order, into idx: their number (>= 1). */
int hs__task_engine_idx(const hs__btask_t *t, int idx[HS_WIRE_MAX_ENGINES]);
/* Drops t->reused (t leaves LEASED). */
void hs__task_reuse_forget(hs__btask_t *t);
/* The positions t's TASK carried: a worker's lease and its done count. */
static inline int hs__task_sent_positions(const hs__btask_t *t)
{
    return hs_store_task_positions(&t->rec) - t->num_reused;
}
void hs__broker_free_state(hs__broker_t *b);
/* What broker_jobs.c needs of the task bookkeeping: */
/* A store error rc (< 0) becomes the broker's sticky b->fatal, logged once; returns rc. */
int hs__fatal(hs__broker_t *b, int rc);
/* Journals t->rec (a move from t->jstate) in the batch, opening one if none is
 * open; on success t->jstate = t->rec.state. 0 or the store error. */
int hs__task_put(hs__broker_t *b, hs__btask_t *t);
/* Adds t to the task table (by id). 0 or HS_ENOMEM. */
int hs__task_add(hs__broker_t *b, hs__btask_t *t);
/* Removes t from the table and frees it (neither queued nor leased any more). */
void hs__task_remove(hs__broker_t *b, hs__btask_t *t);
/* Appends t to job j's queue (the caller counts it in b->pending). */
void hs__task_enqueue(hs__bjob_t *j, hs__btask_t *t);
/* Takes t out of the QUEUED or LEASED bookkeeping (not the journal). */
void hs__task_detach(hs__broker_t *b, hs__btask_t *t);

/* ---- the index of every job, and STATUS pages: broker_joblist.c ---- */
/* The index entry of job id, or NULL (a binary search: ids grow). */
hs__jobref_t *hs__job_ref(const hs__broker_t *b, uint64_t id);
/* Job id while it is in memory (it runs, or its end is not committed yet), or
 * NULL: unknown, or ended (hs__job_lookup reads those). */
hs__bjob_t *hs__job_find(hs__broker_t *b, uint64_t id);
/* The index of owner key in b->owners, or -1 when no job has that owner. */
int hs__owner_find(const hs__broker_t *b, const char *key);
/* Appends rec's job to the index (live: the job in memory, or NULL for one that
 * ended). Ids must grow. 0, HS_ENOMEM or HS_ESTORE (an id out of order). */
int hs__job_index(hs__broker_t *b, const hs_store_job_t *rec, hs__bjob_t *live,
                  hs_error_t *err);
/* The client token journaled after ';' in rec->moves_spec ("" = none). */
const char *hs__job_token(const hs_store_job_t *rec);
/* Makes rec's name and reason valid UTF-8 (a journal written before the wire
 * checked it may hold raw bytes, which no STATUS_REPLY could carry). */
void hs__job_text_repair(hs_store_job_t *rec);
/* Job id as a client of owner (NULL: an admin) sees it: *out = the job in
 * memory, or for one that ended tmp with its record read from the store (only
 * tmp->rec is set: an ended job is read, never changed), or NULL (no such job,
 * or another owner's: not read). 0, or the store's error (in err) when the
 * record cannot be read. */
int hs__job_lookup(hs__broker_t *b, uint64_t id, const char *owner, hs__bjob_t *tmp,
                   hs__bjob_t **out, hs_error_t *err);
/* hs__job_lookup of the job of owner whose client token is token (NULL: none):
 * tokens are per owner, so one client's token never reaches another's job. */
int hs__job_by_token(hs__broker_t *b, const char *token, const char *owner, hs__bjob_t *tmp,
                     hs__bjob_t **out, hs_error_t *err);
/* After a commit: frees the jobs of b->ended, whose end is journaled now; what
 * a reply shows of them is read from the store from here on. */
void hs__jobs_release(hs__broker_t *b);
/* STATUS_REPLY of job_id (0 = every job) of owner (NULL = any owner) into *m;
 * m->status_reply.jobs is one malloc'd block (free it). Errors as hs__status_page. */
int hs__status_msg(hs__broker_t *b, uint64_t job_id, const char *owner, hs_wire_msg_t *m,
                   hs_error_t *err);
/* One page of STATUS q (core/wire.h: job, jobs below q->before, at most
 * q->limit, in q->state), newest first, with the total that match and whether
 * more follow; only jobs of owner unless it is NULL (an admin). Ended jobs are
 * read from the store. m->status_reply.jobs is one malloc'd block, their texts
 * in it (free it). HS_ENOTFOUND (an unknown job, or another owner's),
 * HS_EINVAL (an unknown state), HS_ENOMEM, or the store's error when a record
 * cannot be read; err says which in words a client may read. */
int hs__status_page(hs__broker_t *b, const hs_wire_status_t *q, const char *owner,
                    hs_wire_msg_t *m, hs_error_t *err);

/* ---- jobs and the journal load: broker_jobs.c ---- */
/* A new job of s, owned by owner (a client key, "" = anonymous). */
int hs__job_new(hs__broker_t *b, const hs_wire_submit_t *s, const char *owner, hs__bjob_t **out,
                hs_error_t *err);
int hs__job_add_game(hs__broker_t *b, hs__bjob_t *j, const hs_wire_game_t *g, bool *accepted);
/* Cancels running job j at the request of peer p (its owner or an admin: the
 * reason the owner reads says which; the log names the key). */
int hs__job_cancel(hs__broker_t *b, hs__bjob_t *j, const hs__peer_t *p);
void hs__job_abandon(hs__broker_t *b, hs__bjob_t *j);
bool hs__job_abandoned(const hs__bjob_t *j);
void hs__job_check_done(hs__broker_t *b, hs__bjob_t *j);
/* Journals the dirty jobs (running, and those of b->ended) in the open batch. */
int hs__jobs_flush(hs__broker_t *b);
/* Indexes every job of the journal; only the running ones come into memory,
 * with their unfinished tasks (leased ones queued again). */
int hs__broker_load(hs__broker_t *b, hs_error_t *err);

#endif
