/*
 * core/wire.c — encode and decode the messages of core/wire.h.
 *
 * Encoding uses msgpack-c's packer writing into an hs_wire_buf_t. Decoding uses
 * the bounds-checked reader of core/wire_read.c and validates every field against
 * the limits and the board; docs/PROTOCOL.md lists the positional layout of every
 * body, which the s_enc_* / s_dec_* pairs below follow field by field. The
 * messages' memory (init, fini, copies) is wire_msg.c's.
 */
#include "core/wire.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "core/charset.h"

static const char *const s_type_names[HS_WIRE_TYPE_COUNT] = {
    "NONE", "READY", "HEARTBEAT", "RESULT", "DISCONNECT", "TASK", "SUBMIT",
    "SUBMIT_REPLY", "STATUS", "STATUS_REPLY", "CANCEL", "CANCEL_REPLY", "WATCH",
    "QUERY", "QUERY_REPLY", "ERROR",
};

const char *hs_wire_type_name(int type)
{
    return type >= 0 && type < HS_WIRE_TYPE_COUNT ? s_type_names[type] : "?";
}

const char *hs_wire_magic_for(hs_wire_type_t type)
{
    switch (type) {
    case HS_WIRE_READY: case HS_WIRE_RESULT: case HS_WIRE_TASK:
        return HS_WIRE_MAGIC_WORKER;
    case HS_WIRE_HEARTBEAT: case HS_WIRE_DISCONNECT: case HS_WIRE_ERROR:
        /* Shared by both kinds of peer: the sender uses its own magic; a worker
         * library that asks gets the worker one, the broker replies with the magic
         * it received. This default is the worker's. */
        return HS_WIRE_MAGIC_WORKER;
    default:
        return HS_WIRE_MAGIC_CLIENT;
    }
}

int hs_wire_check_magic(const void *frame, size_t len, bool *is_worker, hs_error_t *err)
{
    if (len == HS_WIRE_MAGIC_LEN && frame) {
        if (!memcmp(frame, HS_WIRE_MAGIC_WORKER, HS_WIRE_MAGIC_LEN)) {
            if (is_worker) *is_worker = true;
            return 0;
        }
        if (!memcmp(frame, HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN)) {
            if (is_worker) *is_worker = false;
            return 0;
        }
    }
    return hs_error_set(err, HS_EPROTO, "header frame is not HSW1/HSC1 (%zu bytes)", len);
}

/* ------------------------------------------------------------------------ */
/* Encoding                                                                  */

typedef struct {
    msgpack_packer pk;
    hs_wire_buf_t *out;
    hs_error_t *err;
    int rc;           /* first error; later writes are ignored */
} s_enc_t;

static int s_buf_write(void *data, const char *buf, size_t len)
{
    s_enc_t *e = data;
    if (e->rc)
        return -1;
    hs_wire_buf_t *b = e->out;
    if (len > HS_WIRE_MAX_BODY || b->len + len > HS_WIRE_MAX_BODY) {
        e->rc = hs_error_set(e->err, HS_EINVAL, "message body exceeds %u bytes",
                             HS_WIRE_MAX_BODY);
        return -1;
    }
    if (hs_wire_buf_append(b, buf, len) < 0) {
        e->rc = hs_error_set(e->err, HS_ENOMEM, "out of memory encoding a message");
        return -1;
    }
    return 0;
}

static int s_bad(s_enc_t *e, const char *what)
{
    if (!e->rc)
        e->rc = hs_error_set(e->err, HS_EINVAL, "cannot encode: %s", what);
    return e->rc;
}

static void s_str(s_enc_t *e, const char *s, size_t max)
{
    if (!s) {
        msgpack_pack_nil(&e->pk);
        return;
    }
    size_t n = strlen(s);
    if (n > max) {
        s_bad(e, "string too long");
        return;
    }
    if (!hs_wire_utf8_valid(s, n)) {   /* the decoder would refuse the message */
        s_bad(e, "string is not valid UTF-8");
        return;
    }
    msgpack_pack_str(&e->pk, n);
    msgpack_pack_str_body(&e->pk, s, n);
}

static void s_bin(s_enc_t *e, const void *p, size_t n)
{
    msgpack_pack_bin(&e->pk, n);
    msgpack_pack_bin_body(&e->pk, p, n);
}

static void s_id128(s_enc_t *e, const uint64_t id[2])
{
    uint8_t b[16];
    for (int k = 0; k < 8; k++) {
        b[k] = (uint8_t)(id[0] >> (56 - 8 * k));
        b[8 + k] = (uint8_t)(id[1] >> (56 - 8 * k));
    }
    s_bin(e, b, 16);
}

static void s_strv(s_enc_t *e, char *const *v, int n, int max_n, size_t max_len)
{
    if (n < 0 || n > max_n || (n && !v)) {
        s_bad(e, "bad string list");
        return;
    }
    msgpack_pack_array(&e->pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        if (!v[i]) {
            s_bad(e, "NULL in a string list");
            return;
        }
        s_str(e, v[i], max_len);
    }
}

static void s_float_or_nil(s_enc_t *e, float f)
{
    if (isnan(f))
        msgpack_pack_nil(&e->pk);
    else
        msgpack_pack_float(&e->pk, f);
}

/* Moves and setup stones as 3 bytes each: vertex (big-endian u16), colour. */
static void s_enc_stones(s_enc_t *e, const void *arr, int n, bool setup)
{
    uint8_t *b = malloc((size_t)n * 3 + 1);
    if (!b) {
        e->rc = hs_error_set(e->err, HS_ENOMEM, "out of memory encoding a message");
        return;
    }
    for (int i = 0; i < n; i++) {
        uint16_t v;
        uint8_t c;
        if (setup) {
            v = ((const hs_game_setup_t *)arr)[i].vertex;
            c = ((const hs_game_setup_t *)arr)[i].color;
        } else {
            v = ((const hs_game_move_t *)arr)[i].vertex;
            c = ((const hs_game_move_t *)arr)[i].color;
        }
        b[3 * i] = (uint8_t)(v >> 8);
        b[3 * i + 1] = (uint8_t)v;
        b[3 * i + 2] = c;
    }
    s_bin(e, b, (size_t)n * 3);
    free(b);
}

static void s_enc_game(s_enc_t *e, const hs_wire_game_t *w)
{
    const hs_game_t *g = &w->game;
    if (!w->error) {
        if (g->size < HS_BOARD_MIN_SIZE || g->size > HS_BOARD_MAX_SIZE)
            { s_bad(e, "board size out of range"); return; }
        if (g->num_moves < 0 || g->num_moves > HS_WIRE_MAX_MOVES || (g->num_moves && !g->moves))
            { s_bad(e, "too many moves"); return; }
        if (g->num_setup < 0 || g->num_setup > HS_WIRE_MAX_SETUP || (g->num_setup && !g->setup))
            { s_bad(e, "too many setup stones"); return; }
        /* The decoder refuses it, and a refused SUBMIT would drop its whole batch. */
        if (!isfinite(g->komi) || fabs(g->komi) > HS_WIRE_MAX_KOMI)
            { s_bad(e, "komi out of range"); return; }
    }
    bool empty = w->error != NULL && (g->size < HS_BOARD_MIN_SIZE || g->size > HS_BOARD_MAX_SIZE);
    msgpack_pack_array(&e->pk, 10);
    s_id128(e, g->id);
    msgpack_pack_int(&e->pk, empty ? 0 : g->size);
    msgpack_pack_double(&e->pk, isfinite(g->komi) && fabs(g->komi) <= HS_WIRE_MAX_KOMI ? g->komi
                                                                                    : 0.0);
    msgpack_pack_int(&e->pk, (int)g->rules.id);
    msgpack_pack_int(&e->pk, g->handicap < 0 ? 0 : g->handicap);
    s_enc_stones(e, g->setup, empty ? 0 : g->num_setup, true);
    s_enc_stones(e, g->moves, empty ? 0 : g->num_moves, false);
    if (g->black || g->white || g->black_rank || g->white_rank || g->date || g->event
        || g->round || g->result_raw || g->komi_raw || g->rules_raw) {
        msgpack_pack_array(&e->pk, 10);
        const char *f[10] = { g->black, g->white, g->black_rank, g->white_rank, g->date,
                              g->event, g->round, g->result_raw, g->komi_raw, g->rules_raw };
        for (int i = 0; i < 10; i++)
            s_str(e, f[i], HS_WIRE_MAX_STR);
    } else {
        msgpack_pack_nil(&e->pk);
    }
    s_str(e, w->source, HS_WIRE_MAX_STR);
    s_str(e, w->error, HS_WIRE_MAX_STR);
}

static void s_enc_eval(s_enc_t *e, const hs_eval_t *v)
{
    if (v->size < HS_BOARD_MIN_SIZE || v->size > HS_BOARD_MAX_SIZE)
        { s_bad(e, "eval board size out of range"); return; }
    if (v->move_number < 0 || v->move_number > HS_WIRE_MAX_MOVES)
        { s_bad(e, "eval move number out of range"); return; }
    size_t nn = (size_t)v->size * (size_t)v->size;
    if (v->num_policy < 0 || v->num_policy > HS_EVAL_POLICY_MAX ||
        !(v->score_stdev >= 0 && v->score_stdev <= 1e6f))
        { s_bad(e, "eval policy count or spread out of range"); return; }
    for (int i = 0; i < v->num_policy; i++)
        if (v->policy[i].vertex != HS_GAME_PASS && v->policy[i].vertex >= nn)
            { s_bad(e, "eval policy move off the board"); return; }
    /* The net's fields are a later addition: sent only when there are some,
     * so every other eval encodes exactly as before (and as the store's
     * format-1 records hold them). */
    bool search = v->visits > 0;
    if (search && !hs_eval_search_valid(v))
        { s_bad(e, "eval search fields out of range"); return; }
    bool ext = search || v->score_stdev > 0 || v->num_policy > 0;
    /* Field 14, the search's, came after 12-13: 15 fields only with it. */
    msgpack_pack_array(&e->pk, search ? 15 : ext ? 14 : 12);
    msgpack_pack_int(&e->pk, v->move_number);
    s_bin(e, v->pos_key, 16);
    msgpack_pack_uint32(&e->pk, v->engine_id);
    msgpack_pack_int(&e->pk, v->size);
    s_float_or_nil(e, v->score_lead);
    s_float_or_nil(e, v->win_rate);
    if (v->ownership) {
        for (size_t i = 0; i < nn; i++)
            if (v->ownership[i] < -HS_WIRE_OWNERSHIP_SCALE || v->ownership[i] > HS_WIRE_OWNERSHIP_SCALE)
                { s_bad(e, "ownership out of -100..100"); return; }
        s_bin(e, v->ownership, nn);
    } else {
        msgpack_pack_nil(&e->pk);
    }
    if (v->influence) {
        uint8_t b[2 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
        for (size_t i = 0; i < nn; i++) {   /* little-endian int16 */
            uint16_t u = (uint16_t)v->influence[i];
            b[2 * i] = (uint8_t)u;
            b[2 * i + 1] = (uint8_t)(u >> 8);
        }
        s_bin(e, b, 2 * nn);
    } else {
        msgpack_pack_nil(&e->pk);
    }
    if (v->classes && strlen(v->classes) != nn)
        { s_bad(e, "classes must have size*size characters"); return; }
    s_str(e, v->classes, nn);
    s_str(e, v->result, HS_WIRE_MAX_NAME);
    msgpack_pack_uint32(&e->pk, v->timing_us);
    s_str(e, v->error, HS_WIRE_MAX_STR);
    if (ext) {
        if (v->score_stdev > 0)
            msgpack_pack_float(&e->pk, v->score_stdev);
        else
            msgpack_pack_nil(&e->pk);
        uint8_t b[4 * HS_EVAL_POLICY_MAX];
        for (int i = 0; i < v->num_policy; i++) {   /* uint16 LE vertex, prob */
            b[4 * i] = (uint8_t)v->policy[i].vertex;
            b[4 * i + 1] = (uint8_t)(v->policy[i].vertex >> 8);
            b[4 * i + 2] = (uint8_t)v->policy[i].prob;
            b[4 * i + 3] = (uint8_t)(v->policy[i].prob >> 8);
        }
        if (v->num_policy)
            s_bin(e, b, 4 * (size_t)v->num_policy);
        else
            msgpack_pack_nil(&e->pk);
    }
    if (search) {
        uint8_t b[HS_EVAL_SEARCH_BYTES_MAX];
        s_bin(e, b, hs_eval_search_put(v, b));
    }
}

static void s_enc_job(s_enc_t *e, const hs_wire_job_status_t *j)
{
    /* The reason is a later addition: sent only when there is one, so a job
     * without one encodes exactly as before. */
    msgpack_pack_array(&e->pk, j->reason ? 11 : 10);
    msgpack_pack_uint64(&e->pk, j->id);
    s_str(e, j->name, HS_WIRE_MAX_NAME);
    s_str(e, j->state, HS_WIRE_MAX_NAME);
    msgpack_pack_int64(&e->pk, j->games_total);
    msgpack_pack_int64(&e->pk, j->games_done);
    msgpack_pack_int64(&e->pk, j->games_failed);
    msgpack_pack_int64(&e->pk, j->positions_total);
    msgpack_pack_int64(&e->pk, j->positions_done);
    msgpack_pack_double(&e->pk, isfinite(j->rate) ? j->rate : 0.0);
    if (j->input_complete) msgpack_pack_true(&e->pk); else msgpack_pack_false(&e->pk);
    if (j->reason)
        s_str(e, j->reason, HS_WIRE_MAX_STR);
}

/* STATUS: [version, type, job_id] and, only when set, before, limit and state
 * (fields 3..5): a plain STATUS is the 3-field message older brokers read. */
static void s_enc_status(s_enc_t *e, const hs_wire_status_t *st)
{
    int n = st->state ? 6 : st->limit ? 5 : st->before ? 4 : 3;
    if (st->limit < 0 || st->limit > HS_WIRE_MAX_JOBS)
        s_bad(e, "STATUS limit out of range");
    if (st->state && !*st->state)
        s_bad(e, "empty STATUS state");
    msgpack_pack_array(&e->pk, (size_t)n);
    msgpack_pack_int(&e->pk, HS_WIRE_VERSION);
    msgpack_pack_int(&e->pk, HS_WIRE_STATUS);
    msgpack_pack_uint64(&e->pk, st->job_id);
    if (n > 3)
        msgpack_pack_uint64(&e->pk, st->before);
    if (n > 4)
        msgpack_pack_int(&e->pk, st->limit);
    if (n > 5)
        s_str(e, st->state, HS_WIRE_MAX_NAME);
}

int hs_wire_moves_spec_parse(const char *spec_in, int *step, bool *last_only)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%s", spec_in ? spec_in : "");
    spec[strcspn(spec, ";")] = '\0';
    *step = 1;
    *last_only = false;
    if (!*spec || !strcmp(spec, "all"))
        return 0;
    if (!strcmp(spec, "last")) {
        *last_only = true;
        return 0;
    }
    if (!strncmp(spec, "every:", 6)) {
        char *end;
        long n = strtol(spec + 6, &end, 10);
        if (*end == '\0' && n >= 1 && n <= 10000) {
            *step = (int)n;
            return 0;
        }
    }
    return HS_EINVAL;
}

bool hs_wire_backend_valid(const char *s, size_t n)
{
    if (!s || n == 0 || n > HS_WIRE_MAX_BACKEND)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'
              || s[i] == '-'))
            return false;
    return true;
}

/* A worker entry's optional fields 5-11 (has_stats): engines, rate, then the
 * counts [positions_done, tasks_done, leased_positions, errors, requeued]. */
static void s_enc_worker_stats(s_enc_t *e, const hs_wire_worker_info_t *w)
{
    s_strv(e, w->engines, w->num_engines, HS_WIRE_MAX_ENGINES, HS_WIRE_MAX_NAME);
    if (!isfinite(w->rate) || w->rate < 0)
        s_bad(e, "worker rate is not a finite number >= 0");
    msgpack_pack_double(&e->pk, w->rate);
    const int64_t c[] = { w->positions_done, w->tasks_done, w->leased_positions, w->errors,
                          w->requeued };
    for (int k = 0; k < 5; k++) {
        if (c[k] < 0)
            s_bad(e, "negative worker count");
        msgpack_pack_int64(&e->pk, c[k]);
    }
}

/* STATUS_REPLY's worker list (field 6): [name, nets, backend, tasks] each, with
 * READY's own rules for the nets and the backend, and the optional stats. */
static void s_enc_workers(s_enc_t *e, const hs_wire_worker_info_t *v, int n)
{
    if (n < 0 || n > HS_WIRE_MAX_WORKERS || (n && !v)) {
        s_bad(e, "too many workers");
        return;
    }
    msgpack_pack_array(&e->pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_array(&e->pk, v[i].has_stats ? 11 : 4);
        s_str(e, v[i].name ? v[i].name : "", HS_WIRE_MAX_NAME);
        for (int k = 0; k < v[i].num_nets && v[i].nets && k < HS_WIRE_MAX_NETS; k++)
            if (!v[i].nets[k] || !hs_wire_net_hash_valid(v[i].nets[k], strlen(v[i].nets[k])))
                s_bad(e, "worker net is not a net hash");
        s_strv(e, v[i].nets, v[i].num_nets, HS_WIRE_MAX_NETS, HS_WIRE_NET_HASH_LEN);
        if (v[i].backend && !hs_wire_backend_valid(v[i].backend, strlen(v[i].backend)))
            s_bad(e, "worker backend is not a backend name");
        s_str(e, v[i].backend, HS_WIRE_MAX_BACKEND);
        if (v[i].tasks < 0)
            s_bad(e, "negative task count");
        msgpack_pack_int(&e->pk, v[i].tasks);
        if (v[i].has_stats)
            s_enc_worker_stats(e, &v[i]);
    }
}

static void s_enc_cluster(s_enc_t *e, const hs_wire_cluster_info_t *c)
{
    const int64_t v[] = { c->queued_tasks, c->leased_tasks, c->positions_pending,
                          c->jobs_running, c->uptime_ms };
    msgpack_pack_array(&e->pk, 5);
    for (int k = 0; k < 5; k++) {
        if (v[k] < 0)
            s_bad(e, "negative cluster count");
        msgpack_pack_int64(&e->pk, v[k]);
    }
}

/* READY: 7 fields, then the optional ones only up to the last that is set (batch
 * field 7, nets 8, backend 9), so a worker without nets sends what older
 * brokers read, and a READY with nets but no batch carries batch 0. */
static void s_enc_ready(s_enc_t *e, const hs_wire_ready_t *r)
{
    int n = r->backend ? 10 : r->num_nets > 0 ? 9 : r->batch > 0 ? 8 : 7;
    msgpack_pack_array(&e->pk, (size_t)n);
    msgpack_pack_int(&e->pk, HS_WIRE_VERSION);
    msgpack_pack_int(&e->pk, HS_WIRE_READY);
    s_str(e, r->name, HS_WIRE_MAX_NAME);
    s_strv(e, r->engines, r->num_engines, HS_WIRE_MAX_ENGINES, HS_WIRE_MAX_NAME);
    if (r->threads < 0 || r->threads > HS_WIRE_MAX_THREADS || r->gpus < 0
        || r->gpus > HS_WIRE_MAX_THREADS || r->credit < 0 || r->credit > HS_WIRE_MAX_THREADS * 16)
        s_bad(e, "READY threads/gpus/credit out of range");
    msgpack_pack_int(&e->pk, r->threads);
    msgpack_pack_int(&e->pk, r->gpus);
    msgpack_pack_int(&e->pk, r->credit);
    if (r->batch < 0 || r->batch > HS_WIRE_MAX_BATCH)
        s_bad(e, "READY batch out of range");
    if (n > 7)
        msgpack_pack_int(&e->pk, r->batch);
    if (n > 8) {
        for (int i = 0; i < r->num_nets && r->nets && i < HS_WIRE_MAX_NETS; i++)
            if (!r->nets[i] || !hs_wire_net_hash_valid(r->nets[i], strlen(r->nets[i])))
                s_bad(e, "READY net is not a net hash (32 lowercase hex digits)");
        s_strv(e, r->nets, r->num_nets, HS_WIRE_MAX_NETS, HS_WIRE_NET_HASH_LEN);
    }
    if (n > 9) {
        if (!hs_wire_backend_valid(r->backend, strlen(r->backend)))
            s_bad(e, "READY backend is not a name of [a-z0-9_-], 1..16 bytes");
        s_str(e, r->backend, HS_WIRE_MAX_BACKEND);
    }
}

static void s_enc_task(s_enc_t *e, const hs_wire_task_t *t)
{
    msgpack_packer *pk = &e->pk;
    msgpack_pack_array(pk, 7);
    msgpack_pack_int(pk, HS_WIRE_VERSION);
    msgpack_pack_int(pk, HS_WIRE_TASK);
    msgpack_pack_uint64(pk, t->task_id);
    msgpack_pack_uint64(pk, t->job_id);
    if (t->game.error)
        s_bad(e, "a TASK game cannot carry an error");
    s_enc_game(e, &t->game);
    if (t->num_move_numbers < 0 || t->num_move_numbers > HS_WIRE_MAX_EVALS
        || (t->num_move_numbers && !t->move_numbers))
        s_bad(e, "too many move numbers");
    else {
        msgpack_pack_array(pk, (size_t)t->num_move_numbers);
        for (int i = 0; i < t->num_move_numbers; i++) {
            int mn = t->move_numbers[i];
            if (mn < 0 || mn > t->game.game.num_moves
                || (i && mn <= t->move_numbers[i - 1]))
                s_bad(e, "move numbers must increase within 0..num_moves");
            msgpack_pack_int(pk, mn);
        }
    }
    s_strv(e, t->engines, t->num_engines, HS_WIRE_MAX_ENGINES, HS_WIRE_MAX_NAME);
}

static void s_enc_result(s_enc_t *e, const hs_wire_result_t *r)
{
    msgpack_packer *pk = &e->pk;
    /* permanent is field 7, sent only with an error that is permanent: a
     * RESULT without it reads as before (transient) to any broker. */
    bool permanent = r->error && r->permanent;
    msgpack_pack_array(pk, permanent ? 8 : 7);
    msgpack_pack_int(pk, HS_WIRE_VERSION);
    msgpack_pack_int(pk, HS_WIRE_RESULT);
    msgpack_pack_uint64(pk, r->task_id);
    msgpack_pack_uint64(pk, r->job_id);
    s_id128(e, r->game_id);
    if (r->num_evals < 0 || r->num_evals > HS_WIRE_MAX_EVALS || (r->num_evals && !r->evals))
        s_bad(e, "too many evals");
    else {
        msgpack_pack_array(pk, (size_t)r->num_evals);
        for (int i = 0; i < r->num_evals && !e->rc; i++)
            s_enc_eval(e, &r->evals[i]);
    }
    s_str(e, r->error, HS_WIRE_MAX_STR);
    if (permanent)
        msgpack_pack_true(pk);
}

static void s_enc_submit(s_enc_t *e, const hs_wire_submit_t *s)
{
    msgpack_packer *pk = &e->pk;
    msgpack_pack_array(pk, s->token ? 9 : 8);   /* token: field 8, when set */
    msgpack_pack_int(pk, HS_WIRE_VERSION);
    msgpack_pack_int(pk, HS_WIRE_SUBMIT);
    msgpack_pack_uint64(pk, s->job_id);
    s_str(e, s->job_name, HS_WIRE_MAX_NAME);
    s_strv(e, s->engines, s->num_engines, HS_WIRE_MAX_ENGINES, HS_WIRE_MAX_NAME);
    s_str(e, s->moves_spec, HS_WIRE_MAX_NAME);
    if (s->num_games < 0 || s->num_games > HS_WIRE_MAX_GAMES || (s->num_games && !s->games))
        s_bad(e, "too many games");
    else {
        msgpack_pack_array(pk, (size_t)s->num_games);
        for (int i = 0; i < s->num_games && !e->rc; i++)
            s_enc_game(e, &s->games[i]);
    }
    if (s->last) msgpack_pack_true(pk); else msgpack_pack_false(pk);
    if (s->token) {
        if (!*s->token)
            s_bad(e, "empty job token");
        s_str(e, s->token, HS_WIRE_MAX_TOKEN);
    }
}

static void s_enc_status_reply(s_enc_t *e, const hs_wire_status_reply_t *s)
{
    msgpack_packer *pk = &e->pk;
    /* total and more are fields 4 and 5 (a minor addition): an older client
     * ignores them. A total below the page's count is raised to it. */
    msgpack_pack_array(pk, s->has_cluster ? 8 : s->num_worker_list > 0 ? 7 : 6);
    msgpack_pack_int(pk, HS_WIRE_VERSION);
    msgpack_pack_int(pk, HS_WIRE_STATUS_REPLY);
    if (s->num_jobs < 0 || s->num_jobs > HS_WIRE_MAX_JOBS || (s->num_jobs && !s->jobs))
        s_bad(e, "too many jobs");
    else {
        msgpack_pack_array(pk, (size_t)s->num_jobs);
        for (int i = 0; i < s->num_jobs; i++)
            s_enc_job(e, &s->jobs[i]);
    }
    msgpack_pack_int(pk, s->workers < 0 ? 0 : s->workers);
    msgpack_pack_int64(pk, s->total < s->num_jobs ? s->num_jobs : s->total);
    if (s->more) msgpack_pack_true(pk); else msgpack_pack_false(pk);
    if (s->num_worker_list > 0 || s->has_cluster)
        s_enc_workers(e, s->worker_list, s->num_worker_list);
    if (s->has_cluster)   /* field 7: [queued, leased, pending, running, uptime] */
        s_enc_cluster(e, &s->cluster);
}

int hs_wire_encode(const hs_wire_msg_t *m, hs_wire_buf_t *out, hs_error_t *err)
{
    s_enc_t e = { .out = out, .err = err, .rc = 0 };
    out->len = 0;
    msgpack_packer_init(&e.pk, &e, s_buf_write);
    msgpack_packer *pk = &e.pk;
    switch (m->type) {
    case HS_WIRE_READY:
        s_enc_ready(&e, &m->ready);
        break;
    case HS_WIRE_HEARTBEAT:
    case HS_WIRE_DISCONNECT:
        msgpack_pack_array(pk, 2);
        msgpack_pack_int(pk, HS_WIRE_VERSION);
        msgpack_pack_int(pk, m->type);
        break;
    case HS_WIRE_TASK:
        s_enc_task(&e, &m->task);
        break;
    case HS_WIRE_RESULT:
        s_enc_result(&e, &m->result);
        break;
    case HS_WIRE_SUBMIT:
        s_enc_submit(&e, &m->submit);
        break;
    case HS_WIRE_SUBMIT_REPLY:
        msgpack_pack_array(pk, 5);
        msgpack_pack_int(pk, HS_WIRE_VERSION);
        msgpack_pack_int(pk, m->type);
        msgpack_pack_uint64(pk, m->submit_reply.job_id);
        if (m->submit_reply.credit < 0 || m->submit_reply.accepted < 0)
            s_bad(&e, "negative credit");
        msgpack_pack_int(pk, m->submit_reply.credit);
        msgpack_pack_int(pk, m->submit_reply.accepted);
        break;
    case HS_WIRE_STATUS:
        s_enc_status(&e, &m->status);
        break;
    case HS_WIRE_CANCEL:
    case HS_WIRE_WATCH:
        msgpack_pack_array(pk, 3);
        msgpack_pack_int(pk, HS_WIRE_VERSION);
        msgpack_pack_int(pk, m->type);
        msgpack_pack_uint64(pk, m->job_id);
        break;
    case HS_WIRE_STATUS_REPLY:
        s_enc_status_reply(&e, &m->status_reply);
        break;
    case HS_WIRE_CANCEL_REPLY:
        msgpack_pack_array(pk, 4);
        msgpack_pack_int(pk, HS_WIRE_VERSION);
        msgpack_pack_int(pk, m->type);
        msgpack_pack_uint64(pk, m->cancel_reply.job_id);
        if (m->cancel_reply.canceled) msgpack_pack_true(pk); else msgpack_pack_false(pk);
        break;
    case HS_WIRE_QUERY:
    case HS_WIRE_QUERY_REPLY:
        msgpack_pack_array(pk, 3);
        msgpack_pack_int(pk, HS_WIRE_VERSION);
        msgpack_pack_int(pk, m->type);
        s_str(&e, m->text, HS_WIRE_MAX_BODY - 64);
        break;
    case HS_WIRE_ERROR:
        msgpack_pack_array(pk, 4);
        msgpack_pack_int(pk, HS_WIRE_VERSION);
        msgpack_pack_int(pk, m->type);
        msgpack_pack_int(pk, m->error.code);
        s_str(&e, m->error.reason, HS_WIRE_MAX_STR);
        break;
    default:
        return hs_error_set(err, HS_EINVAL, "cannot encode message type %d", (int)m->type);
    }
    return e.rc;
}

int hs_wire_encode_game(const hs_wire_game_t *g, hs_wire_buf_t *out, hs_error_t *err)
{
    s_enc_t e = { .out = out, .err = err, .rc = 0 };
    msgpack_packer_init(&e.pk, &e, s_buf_write);
    s_enc_game(&e, g);
    return e.rc;
}

int hs_wire_encode_eval(const hs_eval_t *v, hs_wire_buf_t *out, hs_error_t *err)
{
    s_enc_t e = { .out = out, .err = err, .rc = 0 };
    msgpack_packer_init(&e.pk, &e, s_buf_write);
    s_enc_eval(&e, v);
    return e.rc;
}

/* ------------------------------------------------------------------------ */
/* UTF-8                                                                     */

bool hs_wire_net_hash_valid(const char *s, size_t len)
{
    if (!s || len != HS_WIRE_NET_HASH_LEN)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

bool hs_wire_utf8_valid(const char *s, size_t len)
{
    return hs_utf8_valid_prefix(s, len) == len;
}

char *hs_wire_utf8_escape(const char *s, size_t len, bool *changed)
{
    if (changed)
        *changed = false;
    size_t bad = 0;
    for (size_t i = 0; i < len; i++) {
        size_t ok = hs_utf8_valid_prefix(s + i, len - i);
        if ((i += ok) < len)
            bad++;
    }
    char *out = malloc(len + 3 * bad + 1), *o = out;
    if (!out)
        return NULL;
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len;) {
        size_t ok = hs_utf8_valid_prefix(s + i, len - i);
        memcpy(o, s + i, ok);
        o += ok;
        if ((i += ok) < len) {
            unsigned char c = (unsigned char)s[i++];
            *o++ = '\\';
            *o++ = 'x';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        }
    }
    *o = '\0';
    if (changed)
        *changed = bad > 0;
    return out;
}

/* Decoding lives in core/wire_decode.c. */
