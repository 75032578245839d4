/*
 * broker/broker_internal.h — the broker's in-memory state, shared by broker.c
 * (sockets, messages) and broker_tasks.c (jobs, tasks, the state machine).
 * hs__ names are internal to broker/.
 *
 * Memory: one hs__btask_t (~400 bytes) per unfinished task, one hs__bjob_t per
 * job. Games are not kept in memory: a TASK is built from the store when it is
 * dispatched. Finished tasks are dropped from memory (the journal keeps them).
 */
#ifndef HS_BROKER_INTERNAL_H
#define HS_BROKER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "broker/broker.h"
#include "core/wire.h"
#include "store/store.h"

struct hs__bworker;
struct hs__bjob;

typedef struct hs__btask {
    hs_store_task_t rec;            /* the record (state, attempts, moves) */
    hs_task_state_t jstate;         /* state the journal holds (leases are not journaled) */
    int64_t deadline;               /* lease expiry (ms, monotonic) while LEASED */
    struct hs__bworker *worker;     /* holder of the lease, or NULL */
    struct hs__bjob *job;
    struct hs__btask *qprev, *qnext;  /* job queue links while QUEUED */
    struct hs__btask *hnext;        /* hash chain */
} hs__btask_t;

typedef struct hs__bjob {
    hs_store_job_t rec;
    hs__btask_t *qhead, *qtail;     /* queued tasks, FIFO */
    int64_t queued, leased;
    int num_engines;
    char engines[HS_WIRE_MAX_ENGINES][HS_WIRE_MAX_NAME];  /* specs */
    uint32_t engine_ids[HS_WIRE_MAX_ENGINES];
    bool dirty;                     /* rec changed since last journal write */
    char token[HS_WIRE_MAX_TOKEN + 1];  /* client's job token ("" = none), journaled
                                     * in rec.moves_spec after a ';' */
    int64_t last_input;             /* ms of the last SUBMIT (upload lease) */
    double rate;                    /* positions/s, smoothed */
    int64_t rate_ms, rate_done;     /* last rate sample */
} hs__bjob_t;

typedef struct hs__bworker {
    uint8_t id[256];
    size_t id_len;
    char name[HS_WIRE_MAX_NAME];
    int num_engines;
    char engines[HS_WIRE_MAX_ENGINES][64];
    int credit;                     /* most tasks in flight */
    hs__btask_t **leases;           /* tasks leased to it */
    int num_leases, cap_leases;
    int64_t leased_positions;       /* positions of those tasks */
    int64_t expiry;                 /* silent past this (ms) = dead */
    int64_t last_sent;
    bool blocked;                   /* its pipe is full this round */
} hs__bworker_t;

typedef struct hs__broker {
    const hs_broker_config_t *cfg;
    int hb_ms, liveness, lease_ms, max_attempts, queue_max, upload_ms;
    hs_store_t *store;
    void *sock;
    hs__bjob_t **jobs;
    int num_jobs, cap_jobs;
    int rr;                         /* round-robin position over jobs */
    hs__btask_t **buckets;          /* task hash by id */
    size_t num_buckets, num_tasks;
    hs__bworker_t **workers;
    int num_workers, cap_workers;
    int64_t pending;                /* queued + leased, all jobs */
    int64_t now;                    /* ms, monotonic, updated each loop */
    int fatal;                      /* sticky store error (HS_E*), 0 = fine */
    hs_error_t err;
    uint64_t dropped;               /* malformed messages dropped */
    uint64_t rounds, messages, commits;  /* loop statistics (logged at stop) */
} hs__broker_t;

/* ---- tasks and jobs: broker_tasks.c ---- */
int hs__batch(hs__broker_t *b);     /* opens a store batch if none is open */
hs__bjob_t *hs__job_find(hs__broker_t *b, uint64_t id);
int hs__job_new(hs__broker_t *b, const hs_wire_submit_t *s, hs__bjob_t **out, hs_error_t *err);
int hs__job_add_game(hs__broker_t *b, hs__bjob_t *j, const hs_wire_game_t *g, bool *accepted);
int hs__job_cancel(hs__broker_t *b, hs__bjob_t *j);
hs__bjob_t *hs__job_by_token(hs__broker_t *b, const char *token);
void hs__job_abandon(hs__broker_t *b, hs__bjob_t *j);
bool hs__job_abandoned(const hs__bjob_t *j);
void hs__job_check_done(hs__broker_t *b, hs__bjob_t *j);
int hs__jobs_flush(hs__broker_t *b);
hs__btask_t *hs__task_find(hs__broker_t *b, uint64_t id);
hs__btask_t *hs__task_next(hs__broker_t *b, const hs__bworker_t *w);
int hs__task_lease(hs__broker_t *b, hs__btask_t *t, hs__bworker_t *w);
int hs__task_done(hs__broker_t *b, hs__btask_t *t, const hs_wire_result_t *r);
int hs__task_requeue(hs__broker_t *b, hs__btask_t *t, const char *reason);
int hs__task_unlease(hs__broker_t *b, hs__btask_t *t);
int hs__task_build(hs__broker_t *b, const hs__btask_t *t, hs_wire_msg_t *m, hs_error_t *err);
int hs__broker_load(hs__broker_t *b, hs_error_t *err);
void hs__broker_free_state(hs__broker_t *b);
int hs__moves_parse(const char *spec, int *step, bool *last_only);

#endif
