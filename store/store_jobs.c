/*
 * store/store_jobs.c — the broker's journal: jobs and tasks (store/store.h).
 *
 * Jobs and tasks are keyed by growing ids (big-endian u64, allocated as last key
 * + 1 inside the batch, so a replayed batch allocates the same ids). `taskstate`
 * indexes tasks by state: key = state byte + task id, which makes "every queued
 * task" one cursor range; hs_store_task_put moves the index entry when the state
 * changes, in the same transaction as the record.
 */
#include "store/store_internal.h"

#include <limits.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *hs_job_state_name(hs_job_state_t st)
{
    switch (st) {
    case HS_JOB_RUNNING: return "running";
    case HS_JOB_DONE: return "done";
    case HS_JOB_CANCELED: return "canceled";
    case HS_JOB_FAILED: return "failed";
    }
    return "?";
}

const char *hs_task_state_name(hs_task_state_t st)
{
    static const char *const names[HS_TASK_STATE_COUNT] = { "queued", "leased", "done",
                                                            "failed", "canceled" };
    return (unsigned)st < HS_TASK_STATE_COUNT ? names[st] : "?";
}

int hs_store_task_positions(const hs_store_task_t *t)
{
    if (t->move_step <= 0 || t->move_last < t->move_first)
        return 0;
    return (t->move_last - t->move_first) / t->move_step + 1;
}

/* ---- record encoding (msgpack-c packer into s->rec) ---- */

static int s_rec_write(void *data, const char *buf, size_t len)
{
    hs_wire_buf_t *b = data;
    if (hs_wire_buf_append(b, buf, len) < 0) {
        /* Marks the record as failed: the encoder checks cap == 0 at the end. */
        hs_wire_buf_free(b);
        return -1;
    }
    return 0;
}

/* Starts s->rec as a record of the current schema, pk packing into it. */
static int s_rec_begin(hs_store_t *s, msgpack_packer *pk)
{
    s->rec.len = 0;
    uint8_t schema = HS_STORE_REC_V2;
    if (s_rec_write(&s->rec, (const char *)&schema, 1))
        return HS_ENOMEM;
    msgpack_packer_init(pk, &s->rec, s_rec_write);
    return 0;
}

static void s_pack_str(msgpack_packer *pk, const char *s)
{
    size_t n = strnlen(s, HS_WIRE_MAX_STR);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

/* Copies a string field into a fixed buffer (cut to fit). */
static int s_read_fixed(hs_wire_reader_t *r, char *dst, size_t size)
{
    const char *p;
    uint32_t n;
    int rc = hs_wire_read_str(r, &p, &n, HS_WIRE_MAX_STR);
    if (rc)
        return rc;
    if (n >= size)
        n = (uint32_t)size - 1;
    memcpy(dst, p, n);
    dst[n] = 0;
    return 0;
}

/* Opens record v of `table` (key k: an 8-byte id) for reading: checksum and
 * header checked, *id the key's id, *r at the MessagePack body. 0 or
 * HS_ECORRUPT. */
static int s_rec_open(const MDB_val *k, const MDB_val *v, const char *table, const char *ctx,
                      hs_wire_reader_t *r, uint64_t *id, hs_error_t *err)
{
    size_t len;
    int rc = hs__store_rec_check(v, table, k, &len, err);
    if (rc)
        return rc;
    if (k->mv_size != 8 || len < 2)
        return hs__store_corrupt(err, table, k, "bad key or header");
    *id = hs__rd64(k->mv_data);
    hs_wire_reader_init(r, (const uint8_t *)v->mv_data + 1, len - 1, err);
    r->ctx = ctx;
    return 0;
}

static int s_encode_job(hs_store_t *s, const hs_store_job_t *j)
{
    msgpack_packer pk;
    if (s_rec_begin(s, &pk))
        return HS_ENOMEM;
    /* Field 13 (owner) was appended with issue 15: a record of 13 fields reads
     * as owner "" (anonymous), and an older reader ignores the 14th. */
    msgpack_pack_array(&pk, 14);
    s_pack_str(&pk, j->name);
    msgpack_pack_int(&pk, (int)j->state);
    s_pack_str(&pk, j->engines);
    s_pack_str(&pk, j->moves_spec);
    if (j->input_complete) msgpack_pack_true(&pk); else msgpack_pack_false(&pk);
    msgpack_pack_int64(&pk, j->games_total);
    msgpack_pack_int64(&pk, j->games_done);
    msgpack_pack_int64(&pk, j->games_failed);
    msgpack_pack_int64(&pk, j->positions_total);
    msgpack_pack_int64(&pk, j->positions_done);
    msgpack_pack_int64(&pk, j->created_unix);
    msgpack_pack_int64(&pk, j->updated_unix);
    s_pack_str(&pk, j->reason);
    s_pack_str(&pk, j->owner);
    return s->rec.cap == 0 || hs__store_rec_finish(s, NULL) ? HS_ENOMEM : 0;
}

int hs__store_decode_job(const MDB_val *k, const MDB_val *v, hs_store_job_t *j, hs_error_t *err)
{
    memset(j, 0, sizeof *j);
    hs_wire_reader_t r;
    int rc = s_rec_open(k, v, "jobs", "job record", &r, &j->id, err);
    if (rc)
        return rc;
    uint32_t n;
    int64_t st;
    bool ok = hs_wire_read_array(&r, &n) == 0 && n >= 13
        && s_read_fixed(&r, j->name, sizeof j->name) == 0
        && hs_wire_read_int(&r, &st) == 0
        && s_read_fixed(&r, j->engines, sizeof j->engines) == 0
        && s_read_fixed(&r, j->moves_spec, sizeof j->moves_spec) == 0
        && hs_wire_read_bool(&r, &j->input_complete) == 0
        && hs_wire_read_int(&r, &j->games_total) == 0
        && hs_wire_read_int(&r, &j->games_done) == 0
        && hs_wire_read_int(&r, &j->games_failed) == 0
        && hs_wire_read_int(&r, &j->positions_total) == 0
        && hs_wire_read_int(&r, &j->positions_done) == 0
        && hs_wire_read_int(&r, &j->created_unix) == 0
        && hs_wire_read_int(&r, &j->updated_unix) == 0
        && s_read_fixed(&r, j->reason, sizeof j->reason) == 0
        && (n < 14 || s_read_fixed(&r, j->owner, sizeof j->owner) == 0);
    /* An unknown state would reach the broker's switches unhandled. */
    if (!ok || st < HS_JOB_RUNNING || st > HS_JOB_FAILED)
        return hs__store_corrupt(err, "jobs", k, "unreadable job record");
    j->state = (hs_job_state_t)st;
    return 0;
}

static int s_encode_task(hs_store_t *s, const hs_store_task_t *t)
{
    msgpack_packer pk;
    if (s_rec_begin(s, &pk))
        return HS_ENOMEM;
    /* Fields 8 and 9 (chunk, chunks) were appended later, then field 10 (the
     * engine mask): a reader of an earlier layout ignores what follows it, and
     * this decoder reads 8-field records as one chunk and records of fewer than
     * 11 fields as every engine of the job (mask 0). */
    msgpack_pack_array(&pk, 11);
    msgpack_pack_uint64(&pk, t->job_id);
    uint8_t id[16];
    hs__id_key(id, t->game_id);
    msgpack_pack_bin(&pk, 16);
    msgpack_pack_bin_body(&pk, id, 16);
    msgpack_pack_int(&pk, (int)t->state);
    msgpack_pack_int(&pk, t->attempts);
    msgpack_pack_int(&pk, t->move_first);
    msgpack_pack_int(&pk, t->move_last);
    msgpack_pack_int(&pk, t->move_step);
    s_pack_str(&pk, t->reason);
    msgpack_pack_int(&pk, t->chunk);
    msgpack_pack_int(&pk, t->chunks);
    msgpack_pack_uint32(&pk, t->engines);
    return s->rec.cap == 0 || hs__store_rec_finish(s, NULL) ? HS_ENOMEM : 0;
}

int hs__store_decode_task(const MDB_val *k, const MDB_val *v, hs_store_task_t *t,
                          hs_error_t *err)
{
    memset(t, 0, sizeof *t);
    hs_wire_reader_t r;
    int rc = s_rec_open(k, v, "tasks", "task record", &r, &t->id, err);
    if (rc)
        return rc;
    uint32_t n, bl;
    const uint8_t *bin;
    int64_t st, at, f, l, sp;
    bool ok = hs_wire_read_array(&r, &n) == 0 && n >= 8
        && hs_wire_read_uint(&r, &t->job_id) == 0
        && hs_wire_read_bin(&r, &bin, &bl, 16) == 0 && bl == 16
        && hs_wire_read_int(&r, &st) == 0 && hs_wire_read_int(&r, &at) == 0
        && hs_wire_read_int(&r, &f) == 0 && hs_wire_read_int(&r, &l) == 0
        && hs_wire_read_int(&r, &sp) == 0
        && s_read_fixed(&r, t->reason, sizeof t->reason) == 0;
    int64_t ck = 0, cks = 0;
    /* chunk < chunks, and 0 when chunks is 0 (a game alone): an unbounded chunk
     * would wrap to a negative int below. */
    if (ok && n >= 10)
        ok = hs_wire_read_int(&r, &ck) == 0 && hs_wire_read_int(&r, &cks) == 0 && ck >= 0 &&
             cks >= 0 && cks <= HS_WIRE_MAX_MOVES + 1 && ck < (cks ? cks : 1);
    /* A job has at most HS_WIRE_MAX_ENGINES engines: a bit past them is damage. */
    uint64_t mask = 0;
    if (ok && n >= 11)
        ok = hs_wire_read_uint(&r, &mask) == 0 && mask >> HS_WIRE_MAX_ENGINES == 0;
    /* Move numbers are those of a stored game (at most HS_WIRE_MAX_MOVES) and
     * the broker divides by the step: out of range, the arithmetic on them in
     * hs_store_task_positions and the broker overflows or divides by zero. */
    ok = ok && at >= 0 && at <= INT_MAX && f >= 0 && f <= HS_WIRE_MAX_MOVES && l >= 0 &&
         l <= HS_WIRE_MAX_MOVES && sp >= 1 && sp <= INT_MAX;
    if (!ok || st < 0 || st >= HS_TASK_STATE_COUNT)
        return hs__store_corrupt(err, "tasks", k, "unreadable task record");
    t->game_id[0] = hs__rd64(bin);
    t->game_id[1] = hs__rd64(bin + 8);
    t->state = (hs_task_state_t)st;
    t->attempts = (int)at;
    t->move_first = (int)f;
    t->move_last = (int)l;
    t->move_step = (int)sp;
    t->chunk = (int)ck;
    t->chunks = (int)cks;
    t->engines = (uint32_t)mask;
    return 0;
}

/* Next id of a db keyed by growing u64 ids (last key + 1; 1 when empty). */
static int s_next_id(hs_store_t *s, int db, uint64_t *id, hs_error_t *err)
{
    MDB_cursor *c;
    int rc = mdb_cursor_open(s->txn, s->dbi[db], &c);
    if (rc)
        return hs__store_mdb_error(err, rc, "cursor");
    MDB_val k, v;
    *id = 1;
    rc = mdb_cursor_get(c, &k, &v, MDB_LAST);
    if (rc == 0 && k.mv_size == 8)
        *id = hs__rd64(k.mv_data) + 1;
    mdb_cursor_close(c);
    return rc && rc != MDB_NOTFOUND ? hs__store_mdb_error(err, rc, "cursor") : 0;
}

/* ---- jobs ---- */

int hs_store_job_create(hs_store_t *s, hs_store_job_t *job, hs_error_t *err)
{
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    if ((rc = s_next_id(s, HS_DB_JOBS, &job->id, err)) == 0) {
        if (!job->created_unix)
            job->created_unix = (int64_t)time(NULL);
        job->updated_unix = job->created_unix;
        uint8_t key[8];
        hs__be64(key, job->id);
        rc = s_encode_job(s, job) ? hs_error_set(err, HS_ENOMEM, "out of memory")
             : hs__store_put(s, HS_DB_JOBS, key, 8, s->rec.data, s->rec.len, MDB_APPEND, err);
    }
    return hs__store_wend(s, ab, rc, err);
}

int hs_store_job_put(hs_store_t *s, const hs_store_job_t *job, hs_error_t *err)
{
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t key[8];
    hs__be64(key, job->id);
    MDB_val k = { 8, key }, d;
    rc = mdb_get(s->txn, s->dbi[HS_DB_JOBS], &k, &d);
    if (rc == MDB_NOTFOUND)
        rc = hs_error_set(err, HS_ENOTFOUND, "no job %llu", (unsigned long long)job->id);
    else if (rc)
        rc = hs__store_mdb_error(err, rc, "jobs");
    else {
        hs_store_job_t j = *job;
        j.updated_unix = (int64_t)time(NULL);
        rc = s_encode_job(s, &j) ? hs_error_set(err, HS_ENOMEM, "out of memory")
             : hs__store_put(s, HS_DB_JOBS, key, 8, s->rec.data, s->rec.len, 0, err);
    }
    return hs__store_wend(s, ab, rc, err);
}

/* Adapters so jobs and tasks share one lookup by 64-bit id. */
static int s_decode_job_any(void *out, const MDB_val *k, const MDB_val *v, hs_error_t *err)
{
    return hs__store_decode_job(k, v, out, err);
}

static int s_decode_task_any(void *out, const MDB_val *k, const MDB_val *v, hs_error_t *err)
{
    return hs__store_decode_task(k, v, out, err);
}

/* Reads record `id` of db (big-endian 64-bit key) and decodes it into out;
 * HS_ENOTFOUND "no WHAT ID" when absent. */
static int s_get_by_id(hs_store_t *s, int db, const char *what, uint64_t id,
                       hs__store_found_fn decode, void *out, hs_error_t *err)
{
    uint8_t key[8];
    hs__be64(key, id);
    int rc = hs__store_lookup(s, db, key, 8, decode, out, err);
    if (rc == HS_ENOTFOUND)
        return hs_error_set(err, HS_ENOTFOUND, "no %s %llu", what, (unsigned long long)id);
    return rc;
}

int hs_store_job_get(hs_store_t *s, uint64_t id, hs_store_job_t *out, hs_error_t *err)
{
    return s_get_by_id(s, HS_DB_JOBS, "job", id, s_decode_job_any, out, err);
}

typedef struct {
    hs_store_job_cb cb;
    void *ctx;
    hs_error_t *err;
} s_job_iter_t;

static int s_job_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_job_iter_t *it = ctx;
    hs_store_job_t j;
    int rc = hs__store_decode_job(k, v, &j, it->err);
    return rc ? rc : it->cb(it->ctx, &j);
}

int hs_store_job_each(hs_store_t *s, hs_store_job_cb cb, void *ctx, hs_error_t *err)
{
    s_job_iter_t it = { cb, ctx, err };
    return hs__store_prefix_each(s, HS_DB_JOBS, NULL, 0, s_job_fn, &it, err);
}

typedef struct {
    hs_store_job_t *v;
    int n, cap;
    hs_error_t *err;
} s_job_array_t;

static int s_job_collect(void *ctx, const hs_store_job_t *j)
{
    s_job_array_t *a = ctx;
    if (a->n == a->cap) {
        int cap = a->cap ? a->cap * 2 : 16;
        hs_store_job_t *nv = realloc(a->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return hs_error_set(a->err, HS_ENOMEM, "out of memory");
        a->v = nv;
        a->cap = cap;
    }
    a->v[a->n++] = *j;
    return 0;
}

int hs_store_job_list(hs_store_t *s, hs_store_job_t **jobs, int *count, hs_error_t *err)
{
    s_job_array_t a = { .err = err };
    int rc = hs_store_job_each(s, s_job_collect, &a, err);
    if (rc) {
        free(a.v);
        a.v = NULL;
        a.n = 0;
    }
    *jobs = a.v;
    *count = a.n;
    return rc;
}

/* ---- the games of a job ---- */

static void s_jobgame_key(uint8_t k[24], uint64_t job_id, const uint64_t game_id[2])
{
    hs__be64(k, job_id);
    hs__id_key(k + 8, game_id);
}

int hs_store_job_game_add(hs_store_t *s, uint64_t job_id, const uint64_t game_id[2],
                          bool *existed, hs_error_t *err)
{
    if (existed)
        *existed = false;
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t k[24];
    s_jobgame_key(k, job_id, game_id);
    rc = hs__store_put(s, HS_DB_JOBGAMES, k, sizeof k, "", 0, MDB_NOOVERWRITE, err);
    if (rc == HS_EEXIST) {
        hs_error_clear(err);
        if (existed)
            *existed = true;
        rc = 0;
    }
    return hs__store_wend(s, ab, rc, err);
}

static int s_found(void *ctx, const MDB_val *k, const MDB_val *v, hs_error_t *err)
{
    (void)k, (void)v, (void)err;
    *(bool *)ctx = true;
    return 0;
}

int hs_store_job_has_game(hs_store_t *s, uint64_t job_id, const uint64_t game_id[2],
                          bool *has, hs_error_t *err)
{
    *has = false;
    if (!s->jobgames_absent) {
        uint8_t k[24];
        s_jobgame_key(k, job_id, game_id);
        int rc = hs__store_lookup(s, HS_DB_JOBGAMES, k, sizeof k, s_found, has, err);
        if (rc != HS_ENOTFOUND)
            return rc;
    }
    uint64_t first = 0;
    int rc = hs_store_game_get(s, game_id, NULL, NULL, &first, err);
    *has = rc == 0 && first == job_id;
    return rc;
}

/* ---- tasks ---- */

static void s_state_key(uint8_t key[9], hs_task_state_t st, uint64_t id)
{
    key[0] = (uint8_t)st;
    hs__be64(key + 1, id);
}

int hs_store_task_create(hs_store_t *s, hs_store_task_t *t, hs_error_t *err)
{
    if ((unsigned)t->state >= HS_TASK_STATE_COUNT)
        return hs_error_set(err, HS_EINVAL, "bad task state %d", (int)t->state);
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    /* The next id is last key + 1 (s_next_id), remembered for the rest of the
     * batch (a game's chunks, a SUBMIT's games): one cursor seek per batch, not
     * per task. Forgotten at begin and when the batch is lost. */
    if (s->next_task_id)
        t->id = s->next_task_id;
    else
        rc = s_next_id(s, HS_DB_TASKS, &t->id, err);
    if (rc == 0) {
        uint8_t key[8], sk[9];
        hs__be64(key, t->id);
        s_state_key(sk, t->state, t->id);
        rc = s_encode_task(s, t) ? hs_error_set(err, HS_ENOMEM, "out of memory")
             : hs__store_put(s, HS_DB_TASKS, key, 8, s->rec.data, s->rec.len, MDB_APPEND, err);
        if (rc == 0)
            rc = hs__store_put(s, HS_DB_TASKSTATE, sk, 9, "", 0, 0, err);
        s->next_task_id = rc == 0 ? t->id + 1 : 0;
    }
    return hs__store_wend(s, ab, rc, err);
}

int hs_store_task_put(hs_store_t *s, const hs_store_task_t *t, hs_error_t *err)
{
    if ((unsigned)t->state >= HS_TASK_STATE_COUNT)
        return hs_error_set(err, HS_EINVAL, "bad task state %d", (int)t->state);
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t key[8];
    hs__be64(key, t->id);
    MDB_val k = { 8, key }, d;
    hs_store_task_t old;
    rc = mdb_get(s->txn, s->dbi[HS_DB_TASKS], &k, &d);
    if (rc == MDB_NOTFOUND)
        rc = hs_error_set(err, HS_ENOTFOUND, "no task %llu", (unsigned long long)t->id);
    else if (rc)
        rc = hs__store_mdb_error(err, rc, "tasks");
    else if ((rc = hs__store_decode_task(&k, &d, &old, err)) == 0) {
        if (old.state != t->state) {
            uint8_t sk[9];
            s_state_key(sk, old.state, t->id);
            if ((rc = hs__store_del(s, HS_DB_TASKSTATE, sk, 9, err)) == 0) {
                s_state_key(sk, t->state, t->id);
                rc = hs__store_put(s, HS_DB_TASKSTATE, sk, 9, "", 0, 0, err);
            }
        }
        if (rc == 0)
            rc = s_encode_task(s, t) ? hs_error_set(err, HS_ENOMEM, "out of memory")
                 : hs__store_put(s, HS_DB_TASKS, key, 8, s->rec.data, s->rec.len, 0, err);
    }
    return hs__store_wend(s, ab, rc, err);
}

int hs_store_task_move(hs_store_t *s, const hs_store_task_t *t, hs_task_state_t old_state,
                       hs_error_t *err)
{
    if ((unsigned)t->state >= HS_TASK_STATE_COUNT || (unsigned)old_state >= HS_TASK_STATE_COUNT)
        return hs_error_set(err, HS_EINVAL, "bad task state %d", (int)t->state);
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t key[8], sk[9];
    hs__be64(key, t->id);
    if (old_state != t->state) {
        s_state_key(sk, old_state, t->id);
        if ((rc = hs__store_del(s, HS_DB_TASKSTATE, sk, 9, err)) == 0) {
            s_state_key(sk, t->state, t->id);
            rc = hs__store_put(s, HS_DB_TASKSTATE, sk, 9, "", 0, 0, err);
        }
    }
    if (rc == 0)
        rc = s_encode_task(s, t) ? hs_error_set(err, HS_ENOMEM, "out of memory")
             : hs__store_put(s, HS_DB_TASKS, key, 8, s->rec.data, s->rec.len, 0, err);
    return hs__store_wend(s, ab, rc, err);
}

int hs_store_task_get(hs_store_t *s, uint64_t id, hs_store_task_t *out, hs_error_t *err)
{
    return s_get_by_id(s, HS_DB_TASKS, "task", id, s_decode_task_any, out, err);
}

int hs_store_task_each(hs_store_t *s, hs_task_state_t state, hs_store_task_cb cb,
                       void *ctx, hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    MDB_cursor *c;
    int rc = hs__store_rcursor(s, HS_DB_TASKSTATE, "cursor", &txn, &own, &c, err);
    if (rc)
        return rc;
    uint8_t start[1] = { (uint8_t)state };
    MDB_val k = { 1, start }, v;
    int ret = 0;
    for (rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE); rc == 0 && ret == 0;
         rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
        const uint8_t *kp = k.mv_data;
        if (k.mv_size != 9 || kp[0] != (uint8_t)state)
            break;
        uint8_t tk[8];
        memcpy(tk, kp + 1, 8);
        MDB_val tkv = { 8, tk }, tv;
        hs_store_task_t t;
        if (mdb_get(txn, s->dbi[HS_DB_TASKS], &tkv, &tv) != 0)
            continue;   /* index without record: cannot happen within one txn */
        if ((ret = hs__store_decode_task(&tkv, &tv, &t, err)) != 0)
            break;
        ret = cb(ctx, &t);
    }
    mdb_cursor_close(c);
    hs__store_rdone(txn, own);
    if (ret)
        return ret;
    return rc && rc != MDB_NOTFOUND ? hs__store_mdb_error(err, rc, "taskstate") : 0;
}

static int s_count_cb(void *ctx, const hs_store_task_t *t)
{
    (void)t;
    (*(int64_t *)ctx)++;
    return 0;
}

int hs_store_task_count(hs_store_t *s, hs_task_state_t state, int64_t *count,
                        hs_error_t *err)
{
    *count = 0;
    return hs_store_task_each(s, state, s_count_cb, count, err);
}
