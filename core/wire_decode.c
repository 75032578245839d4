/*
 * core/wire_decode.c — hs_wire_decode(): body bytes to an hs_wire_msg_t,
 * validating every field (core/wire.h, docs/PROTOCOL.md).
 *
 * Each s_dec_* reads one part of the positional layout that core/wire.c writes.
 * Every array is allocated only after its header passed the limit check and the
 * "count <= bytes left" check of the reader, so memory stays proportional to the
 * message actually received. On any error the partially built message is freed.
 */
#include "core/wire.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRY(expr) do { int rc_ = (expr); if (rc_) return rc_; } while (0)

static int s_fail(hs_wire_reader_t *r, const char *what)
{
    return hs_error_set(r->err, HS_EPROTO, "%s: %s", r->ctx, what);
}

static int s_nomem(hs_wire_reader_t *r)
{
    return hs_error_set(r->err, HS_ENOMEM, "%s: out of memory", r->ctx);
}

/* An unsigned integer in [lo, hi]. */
static int s_uint_in(hs_wire_reader_t *r, const char *ctx, uint64_t lo, uint64_t hi, uint64_t *v)
{
    r->ctx = ctx;
    TRY(hs_wire_read_uint(r, v));
    if (*v < lo || *v > hi)
        return s_fail(r, "out of range");
    return 0;
}

static int s_int_in(hs_wire_reader_t *r, const char *ctx, int lo, int hi, int *out)
{
    r->ctx = ctx;
    int64_t v;
    TRY(hs_wire_read_int(r, &v));
    if (v < lo || v > hi)
        return s_fail(r, "out of range");
    *out = (int)v;
    return 0;
}

static int s_str(hs_wire_reader_t *r, const char *ctx, char **out, uint32_t max)
{
    r->ctx = ctx;
    return hs_wire_read_strdup(r, out, max);
}

static int s_id128(hs_wire_reader_t *r, const char *ctx, uint64_t id[2])
{
    const uint8_t *p;
    uint32_t n;
    r->ctx = ctx;
    TRY(hs_wire_read_bin(r, &p, &n, 16));
    if (n != 16)
        return s_fail(r, "expected 16 bytes");
    id[0] = id[1] = 0;
    for (int k = 0; k < 8; k++) {
        id[0] = id[0] << 8 | p[k];
        id[1] = id[1] << 8 | p[8 + k];
    }
    return 0;
}

/* An array header of at most max entries under ctx, and room for them (one
 * element for an empty array, so that *out is never NULL): 0, or an error
 * with nothing allocated. */
static int s_array_alloc(hs_wire_reader_t *r, const char *ctx, uint32_t max, size_t elem,
                         void **out, uint32_t *n)
{
    r->ctx = ctx;
    TRY(hs_wire_read_array(r, n));
    if (*n > max)
        return s_fail(r, "too many entries");
    if (!(*out = calloc(*n ? *n : 1, elem)))
        return s_nomem(r);
    return 0;
}

static int s_strv(hs_wire_reader_t *r, const char *ctx, char ***out, int *num, int max_n,
                  uint32_t max_len)
{
    uint32_t n;
    void *v;
    TRY(s_array_alloc(r, ctx, (uint32_t)max_n, sizeof **out, &v, &n));
    *out = v;
    *num = 0;
    for (uint32_t i = 0; i < n; i++) {
        r->ctx = ctx;
        if (hs_wire_read_nil(r))
            return s_fail(r, "nil in a string list");
        TRY(hs_wire_read_strdup(r, &(*out)[i], max_len));
        (*num)++;
        if ((*out)[i][0] == '\0')
            return s_fail(r, "empty string in a list");
    }
    return 0;
}

/* Reads a field count of at least `need` elements (extra trailing ones are ignored
 * by the caller via s_skip_rest). */
static int s_fields(hs_wire_reader_t *r, const char *ctx, uint32_t need, uint32_t *n)
{
    r->ctx = ctx;
    TRY(hs_wire_read_array(r, n));
    if (*n < need)
        return s_fail(r, "too few fields");
    return 0;
}

static int s_skip_rest(hs_wire_reader_t *r, uint32_t have, uint32_t used)
{
    for (uint32_t i = used; i < have; i++)
        TRY(hs_wire_skip(r));
    return 0;
}

static int s_stones(hs_wire_reader_t *r, const char *ctx, int size, bool setup, int max,
                    void **out, int *num)
{
    const uint8_t *p;
    uint32_t n;
    r->ctx = ctx;
    TRY(hs_wire_read_bin(r, &p, &n, (uint32_t)max * 3));
    if (n % 3)
        return s_fail(r, "length is not a multiple of 3");
    int count = (int)(n / 3);
    size_t elem = setup ? sizeof(hs_game_setup_t) : sizeof(hs_game_move_t);
    *out = calloc(count ? (size_t)count : 1, elem);
    if (!*out)
        return s_nomem(r);
    *num = count;
    int nn = size * size;
    for (int i = 0; i < count; i++) {
        uint16_t v = (uint16_t)(p[3 * i] << 8 | p[3 * i + 1]);
        uint8_t c = p[3 * i + 2];
        if (setup) {
            if (v >= nn)
                return s_fail(r, "setup vertex off the board");
            if (c > HS_WHITE)
                return s_fail(r, "bad setup colour");
            ((hs_game_setup_t *)*out)[i] = (hs_game_setup_t){ v, c };
        } else {
            if (v != HS_GAME_PASS && v >= nn)
                return s_fail(r, "move vertex off the board");
            if (c != HS_BLACK && c != HS_WHITE)
                return s_fail(r, "bad move colour");
            ((hs_game_move_t *)*out)[i] = (hs_game_move_t){ v, c };
        }
    }
    return 0;
}

static int s_dec_game(hs_wire_reader_t *r, hs_wire_game_t *w, bool allow_error)
{
    uint32_t nf;
    TRY(s_fields(r, "game", 10, &nf));
    hs_game_t *g = &w->game;
    TRY(s_id128(r, "game.id", g->id));
    uint64_t size;
    TRY(s_uint_in(r, "game.size", 0, HS_BOARD_MAX_SIZE, &size));
    g->size = (int)size;
    double komi;
    r->ctx = "game.komi";
    TRY(hs_wire_read_double(r, &komi));
    if (!isfinite(komi) || fabs(komi) > HS_WIRE_MAX_KOMI)
        return s_fail(r, "out of range");
    g->komi = komi;
    g->komi_source = HS_KOMI_PLAIN;
    int rules = 0;
    TRY(s_int_in(r, "game.rules", 0, HS_RULES_COUNT - 1, &rules));
    g->rules = hs_rules_get((hs_rules_id_t)rules);
    TRY(s_int_in(r, "game.handicap", 0, HS_WIRE_MAX_SETUP, &g->handicap));
    void *arr = NULL;
    int n = 0;
    int sz = g->size < HS_BOARD_MIN_SIZE ? 0 : g->size;
    int rc = s_stones(r, "game.setup", sz, true, HS_WIRE_MAX_SETUP, &arr, &n);
    g->setup = arr;
    g->num_setup = n;
    if (rc)
        return rc;
    arr = NULL;
    n = 0;
    rc = s_stones(r, "game.moves", sz, false, HS_WIRE_MAX_MOVES, &arr, &n);
    g->moves = arr;
    g->num_moves = n;
    if (rc)
        return rc;
    r->ctx = "game.meta";
    if (!hs_wire_read_nil(r)) {
        uint32_t nm;
        TRY(s_fields(r, "game.meta", 10, &nm));
        char **f[10] = { &g->black, &g->white, &g->black_rank, &g->white_rank, &g->date,
                         &g->event, &g->round, &g->result_raw, &g->komi_raw, &g->rules_raw };
        for (int i = 0; i < 10; i++)
            TRY(s_str(r, "game.meta", f[i], HS_WIRE_MAX_STR));
        TRY(s_skip_rest(r, nm, 10));
    }
    TRY(s_str(r, "game.source", &w->source, HS_WIRE_MAX_STR));
    TRY(s_str(r, "game.error", &w->error, HS_WIRE_MAX_STR));
    if (w->error && !allow_error)
        return s_fail(r, "a failed game is only allowed in SUBMIT");
    if (!w->error && g->size < HS_BOARD_MIN_SIZE)
        return s_fail(r, "board size out of range");
    return s_skip_rest(r, nf, 10);
}

static int s_float_or_nil(hs_wire_reader_t *r, const char *ctx, float *out)
{
    r->ctx = ctx;
    if (hs_wire_read_nil(r)) {
        *out = NAN;
        return 0;
    }
    double d;
    TRY(hs_wire_read_double(r, &d));
    if (!isfinite(d) || fabs(d) > 1e6)
        return s_fail(r, "not a finite number");
    *out = (float)d;
    return 0;
}

/* The optional fields 12-13 of an eval: the score's spread (nil or > 0) and
 * the top policy moves (nil or 1..8 x 4 bytes: uint16 LE vertex, probability). */
static int s_dec_eval_net(hs_wire_reader_t *r, hs_eval_t *e, uint32_t nn)
{
    float sd;
    TRY(s_float_or_nil(r, "eval.score_stdev", &sd));
    if (!isnan(sd) && !(sd > 0.0f))
        return s_fail(r, "must be positive");
    e->score_stdev = isnan(sd) ? 0.0f : sd;
    r->ctx = "eval.policy";
    if (hs_wire_read_nil(r))
        return 0;
    const uint8_t *p;
    uint32_t n;
    TRY(hs_wire_read_bin(r, &p, &n, 4 * HS_EVAL_POLICY_MAX));
    if (n == 0 || n % 4)
        return s_fail(r, "expected 1 to 8 moves of 4 bytes");
    e->num_policy = (int)(n / 4);
    for (int i = 0; i < e->num_policy; i++) {
        e->policy[i].vertex = (uint16_t)(p[4 * i] | p[4 * i + 1] << 8);
        e->policy[i].prob = (uint16_t)(p[4 * i + 2] | p[4 * i + 3] << 8);
        if (e->policy[i].vertex != HS_GAME_PASS && e->policy[i].vertex >= nn)
            return s_fail(r, "move off the board");
    }
    return 0;
}

/* The optional field 14 of an eval: a tree search's fields (nil, or the bytes
 * of hs_eval_search_put, used exactly). */
static int s_dec_eval_search(hs_wire_reader_t *r, hs_eval_t *e)
{
    r->ctx = "eval.search";
    if (hs_wire_read_nil(r))
        return 0;
    const uint8_t *p;
    uint32_t n;
    TRY(hs_wire_read_bin(r, &p, &n, HS_EVAL_SEARCH_BYTES_MAX));
    if (hs_eval_search_get(p, p + n, e->size, e) != n)
        return s_fail(r, "malformed search fields");
    return 0;
}

static int s_dec_eval(hs_wire_reader_t *r, hs_eval_t *e)
{
    const uint8_t *start = r->p;
    bool view = r->flags & HS_WIRE_DECODE_EVAL_VIEW;
    uint32_t nf;
    TRY(s_fields(r, "eval", 12, &nf));
    TRY(s_int_in(r, "eval.move_number", 0, HS_WIRE_MAX_MOVES, &e->move_number));
    const uint8_t *p;
    uint32_t n;
    r->ctx = "eval.pos_key";
    TRY(hs_wire_read_bin(r, &p, &n, 16));
    if (n != 16)
        return s_fail(r, "expected 16 bytes");
    memcpy(e->pos_key, p, 16);
    uint64_t u;
    TRY(s_uint_in(r, "eval.engine_id", 1, UINT32_MAX, &u));
    e->engine_id = (uint32_t)u;
    TRY(s_int_in(r, "eval.size", HS_BOARD_MIN_SIZE, HS_BOARD_MAX_SIZE, &e->size));
    uint32_t nn = (uint32_t)(e->size * e->size);
    TRY(s_float_or_nil(r, "eval.score_lead", &e->score_lead));
    TRY(s_float_or_nil(r, "eval.win_rate", &e->win_rate));
    if (!isnan(e->win_rate) && (e->win_rate < 0.0f || e->win_rate > 1.0f))
        return s_fail(r, "out of 0..1");
    r->ctx = "eval.ownership";
    if (!hs_wire_read_nil(r)) {
        TRY(hs_wire_read_bin(r, &p, &n, nn));
        if (n != nn)
            return s_fail(r, "expected size*size bytes");
        for (uint32_t i = 0; i < nn; i++) {
            int8_t v = (int8_t)p[i];
            if (v < -HS_WIRE_OWNERSHIP_SCALE || v > HS_WIRE_OWNERSHIP_SCALE)
                return s_fail(r, "value out of -100..100");
        }
        if (!view) {
            if (!(e->ownership = malloc(nn)))
                return s_nomem(r);
            memcpy(e->ownership, p, nn);
        }
    }
    r->ctx = "eval.influence";
    if (!hs_wire_read_nil(r)) {
        TRY(hs_wire_read_bin(r, &p, &n, 2 * nn));
        if (n != 2 * nn)
            return s_fail(r, "expected 2*size*size bytes");
        if (!view) {
            if (!(e->influence = malloc(2 * (size_t)nn)))
                return s_nomem(r);
            for (uint32_t i = 0; i < nn; i++)
                e->influence[i] = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
        }
    }
    r->ctx = "eval.classes";
    if (!hs_wire_read_nil(r)) {
        const char *cp;
        TRY(hs_wire_read_str(r, &cp, &n, nn));
        if (n != nn || memchr(cp, '\0', n))
            return s_fail(r, "expected size*size characters");
        if (!view) {
            if (!(e->classes = malloc((size_t)nn + 1)))
                return s_nomem(r);
            memcpy(e->classes, cp, nn);
            e->classes[nn] = '\0';
        }
    }
    TRY(s_str(r, "eval.result", &e->result, HS_WIRE_MAX_NAME));
    TRY(s_uint_in(r, "eval.timing_us", 0, UINT32_MAX, &u));
    e->timing_us = (uint32_t)u;
    TRY(s_str(r, "eval.error", &e->error, HS_WIRE_MAX_STR));
    if (nf >= 14)
        TRY(s_dec_eval_net(r, e, nn));
    if (nf >= 15)
        TRY(s_dec_eval_search(r, e));
    TRY(s_skip_rest(r, nf, nf >= 15 ? 15 : nf >= 14 ? 14 : 12));
    e->raw = start;
    e->raw_len = (uint32_t)(r->p - start);
    return 0;
}

static int s_dec_job(hs_wire_reader_t *r, hs_wire_job_status_t *j)
{
    uint32_t nf;
    TRY(s_fields(r, "job", 10, &nf));
    TRY(s_uint_in(r, "job.id", 0, UINT64_MAX, &j->id));
    TRY(s_str(r, "job.name", &j->name, HS_WIRE_MAX_NAME));
    TRY(s_str(r, "job.state", &j->state, HS_WIRE_MAX_NAME));
    int64_t *f[5] = { &j->games_total, &j->games_done, &j->games_failed,
                      &j->positions_total, &j->positions_done };
    for (int i = 0; i < 5; i++) {
        r->ctx = "job.counts";
        TRY(hs_wire_read_int(r, f[i]));
        if (*f[i] < 0)
            return s_fail(r, "negative count");
    }
    r->ctx = "job.rate";
    TRY(hs_wire_read_double(r, &j->rate));
    if (!isfinite(j->rate) || j->rate < 0)
        return s_fail(r, "out of range");
    r->ctx = "job.input_complete";
    TRY(hs_wire_read_bool(r, &j->input_complete));
    if (nf > 10) {
        TRY(s_str(r, "job.reason", &j->reason, HS_WIRE_MAX_STR));
        return s_skip_rest(r, nf, 11);
    }
    return s_skip_rest(r, nf, 10);
}

/* READY's optional nets (field 8) and backend (field 9, when nf > 9; nil = not
 * said): checked here as the broker matches them, so a hash it stores is one a
 * spec's `net` option can name. */
static int s_dec_ready_nets(hs_wire_reader_t *r, uint32_t nf, hs_wire_ready_t *x)
{
    TRY(s_strv(r, "ready.nets", &x->nets, &x->num_nets, HS_WIRE_MAX_NETS,
               HS_WIRE_NET_HASH_LEN));
    for (int i = 0; i < x->num_nets; i++)
        if (!hs_wire_net_hash_valid(x->nets[i], strlen(x->nets[i])))
            return s_fail(r, "not a net hash (32 lowercase hex digits)");
    if (nf > 9) {
        TRY(s_str(r, "ready.backend", &x->backend, HS_WIRE_MAX_BACKEND));
        if (x->backend && !hs_wire_backend_valid(x->backend, strlen(x->backend)))
            return s_fail(r, "not a backend name ([a-z0-9_-])");
    }
    return 0;
}

/* A non-negative int64 count of the cluster view. */
static int s_count(hs_wire_reader_t *r, const char *ctx, int64_t *out)
{
    r->ctx = ctx;
    TRY(hs_wire_read_int(r, out));
    return *out < 0 ? s_fail(r, "negative") : 0;
}

/* A worker entry's optional fields 5-11 (core/wire.h: has_stats). */
static int s_dec_worker_stats(hs_wire_reader_t *r, hs_wire_worker_info_t *w)
{
    TRY(s_strv(r, "worker.engines", &w->engines, &w->num_engines, HS_WIRE_MAX_ENGINES,
               HS_WIRE_MAX_NAME));
    r->ctx = "worker.rate";
    TRY(hs_wire_read_double(r, &w->rate));
    if (!isfinite(w->rate) || w->rate < 0)
        return s_fail(r, "not a finite number >= 0");
    TRY(s_count(r, "worker.positions_done", &w->positions_done));
    TRY(s_count(r, "worker.tasks_done", &w->tasks_done));
    TRY(s_count(r, "worker.leased_positions", &w->leased_positions));
    TRY(s_count(r, "worker.errors", &w->errors));
    TRY(s_count(r, "worker.requeued", &w->requeued));
    w->has_stats = true;
    return 0;
}

/* STATUS_REPLY's field 7: [queued, leased, positions pending, jobs running, uptime]. */
static int s_dec_cluster(hs_wire_reader_t *r, hs_wire_status_reply_t *s)
{
    uint32_t nf;
    TRY(s_fields(r, "status_reply.cluster", 5, &nf));
    hs_wire_cluster_info_t *c = &s->cluster;
    TRY(s_count(r, "cluster.queued_tasks", &c->queued_tasks));
    TRY(s_count(r, "cluster.leased_tasks", &c->leased_tasks));
    TRY(s_count(r, "cluster.positions_pending", &c->positions_pending));
    TRY(s_count(r, "cluster.jobs_running", &c->jobs_running));
    TRY(s_count(r, "cluster.uptime_ms", &c->uptime_ms));
    s->has_cluster = true;
    return s_skip_rest(r, nf, 5);
}

/* STATUS_REPLY's worker list (field 6): [name, nets, backend, tasks] each, then
 * the optional stats (fields 5-11); extra trailing fields of an entry skipped (a
 * later minor addition). */
static int s_dec_workers(hs_wire_reader_t *r, hs_wire_status_reply_t *s)
{
    uint32_t n;
    void *v;
    TRY(s_array_alloc(r, "status_reply.worker_list", HS_WIRE_MAX_WORKERS,
                      sizeof *s->worker_list, &v, &n));
    s->worker_list = v;
    for (uint32_t i = 0; i < n; i++) {
        hs_wire_worker_info_t *w = &s->worker_list[s->num_worker_list++];
        uint32_t nf;
        TRY(s_fields(r, "worker", 4, &nf));
        TRY(s_str(r, "worker.name", &w->name, HS_WIRE_MAX_NAME));
        if (!w->name)
            return s_fail(r, "missing");
        TRY(s_strv(r, "worker.nets", &w->nets, &w->num_nets, HS_WIRE_MAX_NETS,
                   HS_WIRE_NET_HASH_LEN));
        for (int k = 0; k < w->num_nets; k++)
            if (!hs_wire_net_hash_valid(w->nets[k], strlen(w->nets[k])))
                return s_fail(r, "not a net hash (32 lowercase hex digits)");
        TRY(s_str(r, "worker.backend", &w->backend, HS_WIRE_MAX_BACKEND));
        if (w->backend && !hs_wire_backend_valid(w->backend, strlen(w->backend)))
            return s_fail(r, "not a backend name ([a-z0-9_-])");
        TRY(s_int_in(r, "worker.tasks", 0, INT32_MAX, &w->tasks));
        if (nf >= 11)
            TRY(s_dec_worker_stats(r, w));
        TRY(s_skip_rest(r, nf, nf >= 11 ? 11 : 4));
    }
    return 0;
}

/* STATUS after [version, type]: job_id, then the optional before, limit and
 * state (nf: the body's field count). */
static int s_dec_status(hs_wire_reader_t *r, uint32_t nf, hs_wire_status_t *st)
{
    TRY(s_uint_in(r, "status.job_id", 0, UINT64_MAX, &st->job_id));
    if (nf > 3)
        TRY(s_uint_in(r, "status.before", 0, UINT64_MAX, &st->before));
    if (nf > 4)
        TRY(s_int_in(r, "status.limit", 0, HS_WIRE_MAX_JOBS, &st->limit));
    if (nf > 5) {
        TRY(s_str(r, "status.state", &st->state, HS_WIRE_MAX_NAME));
        if (st->state && !*st->state)
            return s_fail(r, "empty state");
    }
    return 0;
}

/* READY: the worker's name, engines, threads, GPUs, credit; optionally its
 * batch, nets and backend. Each s_dec_<type> sets *used to the fields read. */
static int s_dec_ready(hs_wire_reader_t *r, uint32_t nf, hs_wire_ready_t *x, uint32_t *used)
{
    if (nf < 7) return s_fail(r, "READY: too few fields");
    TRY(s_str(r, "ready.name", &x->name, HS_WIRE_MAX_NAME));
    TRY(s_strv(r, "ready.engines", &x->engines, &x->num_engines, HS_WIRE_MAX_ENGINES,
               HS_WIRE_MAX_NAME));
    TRY(s_int_in(r, "ready.threads", 0, HS_WIRE_MAX_THREADS, &x->threads));
    TRY(s_int_in(r, "ready.gpus", 0, HS_WIRE_MAX_THREADS, &x->gpus));
    TRY(s_int_in(r, "ready.credit", 0, HS_WIRE_MAX_THREADS * 16, &x->credit));
    *used = 7;
    if (nf > 7) {   /* optional: TASK bodies per message it accepts */
        TRY(s_int_in(r, "ready.batch", 0, HS_WIRE_MAX_BATCH, &x->batch));
        *used = 8;
    }
    if (nf > 8) {   /* optional: the nets it holds, then its backend */
        TRY(s_dec_ready_nets(r, nf, x));
        *used = nf > 9 ? 10 : 9;
    }
    return 0;
}

/* TASK: ids, the game, the increasing move numbers to evaluate, the engines. */
static int s_dec_task(hs_wire_reader_t *r, uint32_t nf, hs_wire_task_t *t, uint32_t *used)
{
    if (nf < 7) return s_fail(r, "TASK: too few fields");
    TRY(s_uint_in(r, "task.task_id", 0, UINT64_MAX, &t->task_id));
    TRY(s_uint_in(r, "task.job_id", 0, UINT64_MAX, &t->job_id));
    TRY(s_dec_game(r, &t->game, false));
    uint32_t n;
    void *v;
    TRY(s_array_alloc(r, "task.move_numbers", HS_WIRE_MAX_EVALS, sizeof(int), &v, &n));
    t->move_numbers = v;
    for (uint32_t i = 0; i < n; i++) {
        int mn = 0;
        TRY(s_int_in(r, "task.move_numbers", 0, t->game.game.num_moves, &mn));
        if (i && mn <= t->move_numbers[i - 1])
            return s_fail(r, "not increasing");
        t->move_numbers[i] = mn;
        t->num_move_numbers++;
    }
    TRY(s_strv(r, "task.engines", &t->engines, &t->num_engines, HS_WIRE_MAX_ENGINES,
               HS_WIRE_MAX_NAME));
    *used = 7;
    return 0;
}

/* RESULT: ids, the game's id, the evals, an error; optionally whether the
 * error is permanent. */
static int s_dec_result(hs_wire_reader_t *r, uint32_t nf, hs_wire_result_t *x, uint32_t *used)
{
    if (nf < 7) return s_fail(r, "RESULT: too few fields");
    TRY(s_uint_in(r, "result.task_id", 0, UINT64_MAX, &x->task_id));
    TRY(s_uint_in(r, "result.job_id", 0, UINT64_MAX, &x->job_id));
    TRY(s_id128(r, "result.game_id", x->game_id));
    uint32_t n;
    void *v;
    TRY(s_array_alloc(r, "result.evals", HS_WIRE_MAX_EVALS, sizeof *x->evals, &v, &n));
    x->evals = v;
    for (uint32_t i = 0; i < n; i++) {
        x->num_evals++;   /* counted first so a half-read eval is freed too */
        TRY(s_dec_eval(r, &x->evals[i]));
    }
    TRY(s_str(r, "result.error", &x->error, HS_WIRE_MAX_STR));
    *used = 7;
    if (nf > 7) {   /* optional: the error is permanent */
        r->ctx = "result.permanent";
        TRY(hs_wire_read_bool(r, &x->permanent));
        *used = 8;
    }
    return 0;
}

/* SUBMIT: a job's name, engines, moves spec and games; optionally its token. */
static int s_dec_submit(hs_wire_reader_t *r, uint32_t nf, hs_wire_submit_t *s, uint32_t *used)
{
    if (nf < 8) return s_fail(r, "SUBMIT: too few fields");
    TRY(s_uint_in(r, "submit.job_id", 0, UINT64_MAX, &s->job_id));
    TRY(s_str(r, "submit.job_name", &s->job_name, HS_WIRE_MAX_NAME));
    TRY(s_strv(r, "submit.engines", &s->engines, &s->num_engines, HS_WIRE_MAX_ENGINES,
               HS_WIRE_MAX_NAME));
    TRY(s_str(r, "submit.moves_spec", &s->moves_spec, HS_WIRE_MAX_NAME));
    uint32_t n;
    void *v;
    TRY(s_array_alloc(r, "submit.games", HS_WIRE_MAX_GAMES, sizeof *s->games, &v, &n));
    s->games = v;
    for (uint32_t i = 0; i < n; i++) {
        s->num_games++;
        TRY(s_dec_game(r, &s->games[i], true));
    }
    r->ctx = "submit.last";
    TRY(hs_wire_read_bool(r, &s->last));
    *used = 8;
    if (nf > 8) {
        TRY(s_str(r, "submit.token", &s->token, HS_WIRE_MAX_TOKEN));
        if (s->token && !*s->token)
            return s_fail(r, "empty token");
        *used = 9;
    }
    return 0;
}

/* STATUS_REPLY: the jobs, the worker count; optionally the total, the live
 * workers, the queue. */
static int s_dec_status_reply(hs_wire_reader_t *r, uint32_t nf, hs_wire_status_reply_t *s,
                              uint32_t *used)
{
    if (nf < 4) return s_fail(r, "STATUS_REPLY: too few fields");
    uint32_t n;
    void *v;
    TRY(s_array_alloc(r, "status_reply.jobs", HS_WIRE_MAX_JOBS, sizeof *s->jobs, &v, &n));
    s->jobs = v;
    for (uint32_t i = 0; i < n; i++) {
        s->num_jobs++;
        TRY(s_dec_job(r, &s->jobs[i]));
    }
    TRY(s_int_in(r, "status_reply.workers", 0, INT32_MAX, &s->workers));
    *used = 4;
    s->total = -1;   /* an older broker does not say */
    if (nf > 5) {    /* optional: jobs matching, and whether more follow */
        r->ctx = "status_reply.total";
        TRY(hs_wire_read_int(r, &s->total));
        if (s->total < s->num_jobs)
            return s_fail(r, "fewer than the jobs in the reply");
        r->ctx = "status_reply.more";
        TRY(hs_wire_read_bool(r, &s->more));
        *used = 6;
    }
    if (nf > 6) {    /* optional: the live workers */
        TRY(s_dec_workers(r, s));
        *used = 7;
    }
    if (nf > 7) {    /* optional: the queue and uptime (status --cluster) */
        TRY(s_dec_cluster(r, s));
        *used = 8;
    }
    return 0;
}

static int s_dec_body(hs_wire_reader_t *r, hs_wire_msg_t *m)
{
    uint32_t nf;
    TRY(s_fields(r, "body", 2, &nf));
    uint64_t ver, type;
    r->ctx = "version";
    TRY(hs_wire_read_uint(r, &ver));
    if (ver != HS_WIRE_VERSION)
        return hs_error_set(r->err, HS_EPROTO, "protocol version %llu, expected %d",
                            (unsigned long long)ver, HS_WIRE_VERSION);
    TRY(s_uint_in(r, "type", 1, HS_WIRE_TYPE_COUNT - 1, &type));
    m->type = (hs_wire_type_t)type;
    uint32_t used = 2;
    uint64_t u;
    switch (m->type) {
    case HS_WIRE_READY:
        TRY(s_dec_ready(r, nf, &m->ready, &used));
        break;
    case HS_WIRE_HEARTBEAT:
    case HS_WIRE_DISCONNECT:
        break;
    case HS_WIRE_TASK:
        TRY(s_dec_task(r, nf, &m->task, &used));
        break;
    case HS_WIRE_RESULT:
        TRY(s_dec_result(r, nf, &m->result, &used));
        break;
    case HS_WIRE_SUBMIT:
        TRY(s_dec_submit(r, nf, &m->submit, &used));
        break;
    case HS_WIRE_SUBMIT_REPLY:
        if (nf < 5) return s_fail(r, "SUBMIT_REPLY: too few fields");
        TRY(s_uint_in(r, "submit_reply.job_id", 0, UINT64_MAX, &m->submit_reply.job_id));
        TRY(s_int_in(r, "submit_reply.credit", 0, INT32_MAX, &m->submit_reply.credit));
        TRY(s_int_in(r, "submit_reply.accepted", 0, INT32_MAX, &m->submit_reply.accepted));
        used = 5;
        break;
    case HS_WIRE_STATUS:
        if (nf < 3) return s_fail(r, "too few fields");
        TRY(s_dec_status(r, nf, &m->status));
        used = nf < 6 ? nf : 6;
        break;
    case HS_WIRE_CANCEL:
    case HS_WIRE_WATCH:
        if (nf < 3) return s_fail(r, "too few fields");
        TRY(s_uint_in(r, "job_id", 0, UINT64_MAX, &u));
        m->job_id = u;
        used = 3;
        break;
    case HS_WIRE_STATUS_REPLY:
        TRY(s_dec_status_reply(r, nf, &m->status_reply, &used));
        break;
    case HS_WIRE_CANCEL_REPLY:
        if (nf < 4) return s_fail(r, "CANCEL_REPLY: too few fields");
        TRY(s_uint_in(r, "cancel_reply.job_id", 0, UINT64_MAX, &m->cancel_reply.job_id));
        r->ctx = "cancel_reply.canceled";
        TRY(hs_wire_read_bool(r, &m->cancel_reply.canceled));
        used = 4;
        break;
    case HS_WIRE_QUERY:
    case HS_WIRE_QUERY_REPLY:
        if (nf < 3) return s_fail(r, "too few fields");
        TRY(s_str(r, "text", &m->text, HS_WIRE_MAX_BODY));
        if (!m->text)
            return s_fail(r, "missing");
        used = 3;
        break;
    case HS_WIRE_ERROR:
        if (nf < 4) return s_fail(r, "ERROR: too few fields");
        TRY(s_int_in(r, "error.code", -1000, 0, &m->error.code));
        TRY(s_str(r, "error.reason", &m->error.reason, HS_WIRE_MAX_STR));
        used = 4;
        break;
    default:
        return s_fail(r, "unknown message type");
    }
    TRY(s_skip_rest(r, nf, used));
    if (r->p != r->end) {
        r->ctx = "body";
        return s_fail(r, "trailing bytes after the message");
    }
    return 0;
}

int hs_wire_read_game(hs_wire_reader_t *r, hs_wire_game_t *g, bool allow_error)
{
    return s_dec_game(r, g, allow_error);
}

int hs_wire_read_game_source(hs_wire_reader_t *r, char **source)
{
    uint32_t nf;
    *source = NULL;
    TRY(s_fields(r, "game", 10, &nf));
    for (int i = 0; i < 8; i++)   /* id, size, komi, rules, handicap, setup, moves, meta */
        TRY(hs_wire_skip(r));
    return s_str(r, "game.source", source, HS_WIRE_MAX_STR);
}

int hs_wire_read_eval(hs_wire_reader_t *r, hs_eval_t *e)
{
    return s_dec_eval(r, e);
}

int hs_wire_decode_ex(const void *data, size_t len, unsigned flags, hs_wire_msg_t *m,
                      hs_error_t *err)
{
    hs_wire_msg_init(m, HS_WIRE_NONE);
    if (!data || len == 0)
        return hs_error_set(err, HS_EPROTO, "empty body");
    if (len > HS_WIRE_MAX_BODY)
        return hs_error_set(err, HS_EPROTO, "body of %zu bytes exceeds the limit", len);
    hs_wire_reader_t r;
    hs_wire_reader_init(&r, data, len, err);
    r.flags = flags | HS_WIRE_READ_UTF8;   /* every message's text is UTF-8 */
    int rc = s_dec_body(&r, m);
    if (rc) {
        if (rc != HS_EPROTO && rc != HS_ENOMEM)
            rc = hs_error_set(err, HS_EPROTO, "malformed message");
        hs_wire_msg_fini(m);
    }
    return rc;
}

int hs_wire_decode(const void *data, size_t len, hs_wire_msg_t *m, hs_error_t *err)
{
    return hs_wire_decode_ex(data, len, 0, m, err);
}
