/*
 * broker/broker_clients.c — what the broker does for clients beyond jobs:
 * QUERY (run `hyeongse query` on the broker's store, reply capped), WATCH
 * (push STATUS_REPLYs to subscribers after each commit; the pages of jobs they
 * carry are broker_joblist.c's), and the worker list with its counters (status
 * --cluster). The socket loop in
 * broker.c decodes the messages and calls in here; replies go out through
 * hs__send_msg, after the round's commit like every other reply.
 */
#include "broker/broker_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/query.h"

/*
 * QUERY runs `hyeongse query` on the broker's store with the same code as
 * `query --db` (store/query.h), after the round's commit and before dispatch:
 * LMDB allows one transaction per thread, and the round's write transaction is
 * closed then. A query runs on the broker's thread, so the reply is capped (bytes
 * and rows) and so is its time (s_query_budget_ms, checked between games) to bound
 * how long it holds the loop: a cut reply says so in its notes.
 */
#define S_QUERY_MAX_BYTES ((size_t)8 << 20)
#define S_QUERY_MAX_ROWS 200000
#define S_QUERY_MAX_TEXT 65536      /* bytes of a QUERY's argument text */
#define S_QUERY_QUEUE 64            /* QUERYs waiting; more are refused (busy) */
#define S_QUERY_PER_ROUND 4
#define S_WATCH_MAX 256             /* WATCH subscriptions */
#define S_WATCH_PUSH_MS 250         /* at most one push per watcher this often */

typedef struct hs__bquery {
    uint8_t id[256];
    size_t id_len;
    char *text;
} hs__bquery_t;

typedef struct hs__bwatch {
    uint8_t id[256];
    size_t id_len;
    uint64_t job_id;                /* 0 = every job (of owner) */
    bool all_owners;                /* an admin's watch: every owner's jobs */
    char owner[HS_CURVE_KEY_LEN + 1];  /* else only this owner's */
    int64_t expiry;                 /* silent past this (ms): dropped */
    int64_t last_push;
    uint64_t sig;                   /* signature of the counts last pushed */
    bool force;                     /* push at once (the answer to WATCH) */
} hs__bwatch_t;

int hs__query_add(hs__broker_t *b, const uint8_t *id, size_t len, const char *text,
                  const char **why)
{
    *why = "out of memory";
    if (strlen(text) > S_QUERY_MAX_TEXT) {
        *why = "query text too long";
        return HS_ELIMIT;
    }
    if (b->num_queries >= S_QUERY_QUEUE) {
        *why = "the broker has too many queries waiting; try again";
        return HS_EAGAIN;
    }
    if (b->num_queries == b->cap_queries) {
        int n = b->cap_queries ? b->cap_queries * 2 : 4;
        hs__bquery_t *nq = realloc(b->queries, sizeof *nq * (size_t)n);
        if (!nq)
            return HS_ENOMEM;
        b->queries = nq;
        b->cap_queries = n;
    }
    hs__bquery_t *q = &b->queries[b->num_queries];
    if (!(q->text = strdup(text)))
        return HS_ENOMEM;
    memcpy(q->id, id, len);
    q->id_len = len;
    b->num_queries++;
    return 0;
}

/* The query's output stream: keeps the first S_QUERY_MAX_BYTES, drops the rest. */
typedef struct s_capbuf {
    char *data;
    size_t len, cap;
    bool cut;
} s_capbuf_t;

static ssize_t s_capbuf_write(void *ctx, const char *data, size_t n)
{
    s_capbuf_t *c = ctx;
    size_t take = n;
    if (c->len + take > S_QUERY_MAX_BYTES) {
        take = S_QUERY_MAX_BYTES - c->len;
        c->cut = true;
    }
    if (c->len + take > c->cap) {
        size_t cap = c->cap ? c->cap : 65536;
        while (cap < c->len + take)
            cap *= 2;
        char *nd = realloc(c->data, cap + 1);
        if (!nd) {
            c->cut = true;
            return (ssize_t)n;
        }
        c->data = nd;
        c->cap = cap;
    }
    memcpy(c->data + c->len, data, take);
    c->len += take;
    return (ssize_t)n;   /* the rest is dropped on purpose: never an error */
}

/* A query runs on the broker's thread, so it gets at most half a heartbeat
 * interval (at least 100 ms): the workers must keep hearing from the broker. */
static int s_query_budget_ms(const hs__broker_t *b)
{
    return b->hb_ms / 2 > 100 ? b->hb_ms / 2 : 100;
}

/* Runs one QUERY, stopping at deadline (hs_clock_ms); the reply text is the
 * notes, RS (0x1E), then the output. */
static void s_query_run(hs__broker_t *b, const hs__bquery_t *q, int64_t deadline)
{
    hs_error_t err = { 0 };
    hs_wire_msg_t m;
    int argc = 0;
    char **argv = NULL;
    hs_query_args_t a;
    int rc = hs_query_args_split(q->text, &argc, &argv, &err);
    if (rc == 0)
        rc = hs_query_args_parse(argc, argv, &a, &err);
    if (rc == 0 && (a.db || a.broker || a.help || a.position))
        rc = hs_error_set(&err, HS_EUNSUPPORTED, "%s is not for a query through the broker",
                          a.db ? "--db" : a.broker ? "--broker" : a.help ? "--help" : "--position");
    s_capbuf_t out = { 0 };
    char *notes = NULL;
    size_t notes_len = 0;
    FILE *fo = NULL, *fn = NULL;
    if (rc == 0) {
        /* The row cap: the user's --limit when smaller. */
        bool capped = a.q.limit <= 0 || a.q.limit > S_QUERY_MAX_ROWS;
        if (capped)
            a.q.limit = S_QUERY_MAX_ROWS;
        cookie_io_functions_t io = { .write = s_capbuf_write };
        fo = fopencookie(&out, "w", io);
        fn = open_memstream(&notes, &notes_len);
        if (!fo || !fn) {
            rc = hs_error_set(&err, HS_ENOMEM, "out of memory");
        } else {
            int64_t rows = 0;
            a.q.deadline_ms = deadline;
            rc = hs_query_args_run(b->store, &a, fo, fn, &rows, &err);
            fflush(fo);
            if (rc == HS_ETIMEOUT) {
                fprintf(fn, "hyeongse query: truncated: the broker answers a query in at "
                            "most %d ms (it runs on the broker's thread), and %lld rows "
                            "were found by then; use --limit, a narrower query, or --db "
                            "DIR on the broker's host\n",
                        s_query_budget_ms(b), (long long)rows);
                rc = 0;
            } else if (rc == 0 && out.cut)
                fprintf(fn, "hyeongse query: truncated: a reply through the broker holds at most "
                            "%zu MiB; use --limit, or --db DIR on the broker's host\n",
                        S_QUERY_MAX_BYTES >> 20);
            else if (rc == 0 && capped && rows >= S_QUERY_MAX_ROWS)
                fprintf(fn, "hyeongse query: truncated: a reply through the broker holds at most "
                            "%d rows; use --limit, or --db DIR on the broker's host\n",
                        S_QUERY_MAX_ROWS);
            fputc(HS_QUERY_REPLY_SEP, fn);
            fflush(fn);
        }
    }
    if (fo)
        fclose(fo);
    if (fn)
        fclose(fn);
    if (rc < 0) {
        hs_wire_msg_init(&m, HS_WIRE_ERROR);
        m.error.code = rc;
        m.error.reason = err.msg[0] ? err.msg : (char *)hs_strerror(rc);
    } else {
        if (out.cut)   /* whole lines only */
            while (out.len > 0 && out.data[out.len - 1] != '\n')
                out.len--;
        char *text = malloc(notes_len + out.len + 1);
        if (text) {
            memcpy(text, notes, notes_len);
            if (out.len)
                memcpy(text + notes_len, out.data, out.len);
            text[notes_len + out.len] = '\0';
        }
        size_t len = notes_len + out.len;
        if (text && !hs_wire_utf8_valid(text, len)) {
            /* A store written before sources were checked may hold a file name
             * of raw bytes: escaped (\xNN), the reply stays decodable text. */
            char *esc = hs_wire_utf8_escape(text, len, NULL);
            free(text);
            text = esc;
        }
        hs_wire_msg_init(&m, text ? HS_WIRE_QUERY_REPLY : HS_WIRE_ERROR);
        if (text) {
            m.text = text;
        } else {
            m.error.code = HS_ENOMEM;
            m.error.reason = "out of memory";
        }
    }
    hs__send_msg(b, q->id, q->id_len, false, &m);
    if (m.type == HS_WIRE_QUERY_REPLY)
        free(m.text);
    free(out.data);
    free(notes);
    free(argv);
}

void hs__queries_run(hs__broker_t *b)
{
    int n = b->num_queries < S_QUERY_PER_ROUND ? b->num_queries : S_QUERY_PER_ROUND;
    if (n == 0)
        return;
    /* One budget for the round's queries together. */
    int64_t deadline = hs_clock_ms() + s_query_budget_ms(b);
    for (int i = 0; i < n; i++) {
        s_query_run(b, &b->queries[i], deadline);
        free(b->queries[i].text);
    }
    memmove(b->queries, b->queries + n, sizeof *b->queries * (size_t)(b->num_queries - n));
    b->num_queries -= n;
}

static int s_watch_find(const hs__broker_t *b, const uint8_t *id, size_t len)
{
    for (int i = 0; i < b->num_watchers; i++)
        if (b->watchers[i].id_len == len && !memcmp(b->watchers[i].id, id, len))
            return i;
    return -1;
}

int hs__watch_touch(hs__broker_t *b, const uint8_t *id, size_t len)
{
    int i = s_watch_find(b, id, len);
    if (i >= 0)
        b->watchers[i].expiry = b->now + hs__peer_silence_ms(b);
    return i;
}

void hs__watch_remove(hs__broker_t *b, int i)
{
    b->watchers[i] = b->watchers[--b->num_watchers];
}

int hs__watch_add(hs__broker_t *b, const uint8_t *id, size_t len, uint64_t job_id,
                  const char *owner, char *why, size_t why_size)
{
    snprintf(why, why_size, "out of memory");
    /* The index knows every job's owner: one that ended is not read. */
    const hs__jobref_t *r = job_id ? hs__job_ref(b, job_id) : NULL;
    if (job_id != 0 && (!r || (owner && (int)r->owner != hs__owner_find(b, owner)))) {
        snprintf(why, why_size, "no such job");
        return HS_ENOTFOUND;
    }
    int i = s_watch_find(b, id, len);
    if (i < 0) {
        if (b->num_watchers >= S_WATCH_MAX) {
            snprintf(why, why_size, "the broker has %d watchers, its most; ask with STATUS "
                                    "instead, or try again later", S_WATCH_MAX);
            return HS_EFULL;
        }
        if (b->num_watchers == b->cap_watchers) {
            int n = b->cap_watchers ? b->cap_watchers * 2 : 8;
            hs__bwatch_t *nw = realloc(b->watchers, sizeof *nw * (size_t)n);
            if (!nw)
                return HS_ENOMEM;
            b->watchers = nw;
            b->cap_watchers = n;
        }
        i = b->num_watchers++;
    }
    hs__bwatch_t *w = &b->watchers[i];
    memset(w, 0, sizeof *w);
    memcpy(w->id, id, len);
    w->id_len = len;
    w->job_id = job_id;
    w->all_owners = owner == NULL;
    snprintf(w->owner, sizeof w->owner, "%s", owner ? owner : "");
    w->expiry = b->now + hs__peer_silence_ms(b);
    w->force = true;   /* answered with the first push, after the commit */
    return 0;
}

/* FNV-1a over what a STATUS_REPLY to w shows; *running: a watched job still
 * runs. Of the jobs that ended only their number is looked at: they change no
 * more, and the one that just ended changes the signature by leaving the running
 * ones (b->run; the push follows the commit, so it holds no ended job). The
 * number of jobs (w's owner's) tells a new one, also one that ended in the round
 * that made it. */
static uint64_t s_watch_sig(const hs__broker_t *b, const hs__bwatch_t *w, bool *running)
{
    uint64_t h = 1469598103934665603ull;
    *running = false;
    if (w->job_id == 0) {
        int who = w->all_owners ? -1 : hs__owner_find(b, w->owner);
        int64_t jobs = w->all_owners ? b->num_jobs : who >= 0 ? b->owners[who].jobs : 0;
        for (size_t k = 0; k < sizeof jobs; k++)
            h = (h ^ ((uint64_t)jobs >> (8 * k) & 0xff)) * 1099511628211ull;
    }
    for (int i = 0; i < b->num_run; i++) {
        const hs__bjob_t *j = b->run[i];
        if ((w->job_id != 0 && j->rec.id != w->job_id) ||
            (!w->all_owners && strcmp(j->rec.owner, w->owner)))
            continue;
        int64_t v[8] = { (int64_t)j->rec.id, j->rec.state, j->rec.games_total,
                         j->rec.games_done, j->rec.games_failed, j->rec.positions_total,
                         j->rec.positions_done, j->rec.input_complete };
        const uint8_t *p = (const uint8_t *)v;
        for (size_t k = 0; k < sizeof v; k++)
            h = (h ^ p[k]) * 1099511628211ull;
        *running |= j->rec.state == HS_JOB_RUNNING;
    }
    return h;
}

/* After the commit: pushes a STATUS_REPLY to each watcher whose job changed (at
 * most every S_WATCH_PUSH_MS; at once when it ends, then the watch ends). */
void hs__watch_push(hs__broker_t *b)
{
    for (int i = 0; i < b->num_watchers; i++) {
        hs__bwatch_t *w = &b->watchers[i];
        if (b->now > w->expiry) {
            HS__LOG(b, "watcher of job %llu dropped: silent", (unsigned long long)w->job_id);
            hs__watch_remove(b, i--);
            continue;
        }
        bool running;
        uint64_t sig = s_watch_sig(b, w, &running);
        if (!w->force && (sig == w->sig || (running && b->now - w->last_push < S_WATCH_PUSH_MS)))
            continue;
        hs_wire_msg_t m;
        hs_error_t err = { 0 };
        int src = hs__status_msg(b, w->job_id, w->all_owners ? NULL : w->owner, &m, &err);
        if (src < 0) {
            /* Told why (a store that cannot be read), not left to time out. */
            hs_wire_msg_init(&m, HS_WIRE_ERROR);
            m.error.code = src;
            m.error.reason = err.msg;
            hs__send_msg(b, w->id, w->id_len, false, &m);
            hs__watch_remove(b, i--);
            continue;
        }
        int rc = hs__send_msg(b, w->id, w->id_len, false, &m);
        free(m.status_reply.jobs);
        if (rc == HS_EAGAIN)
            continue;   /* its pipe is full: try again next round */
        if (rc < 0 || !running) {
            hs__watch_remove(b, i--);   /* gone, or its job ended: the last push is sent */
            continue;
        }
        w->sig = sig;
        w->last_push = b->now;
        w->force = false;
    }
}

void hs__clients_free(hs__broker_t *b)
{
    for (int i = 0; i < b->num_queries; i++)
        free(b->queries[i].text);
    free(b->queries);
    free(b->watchers);
    b->queries = NULL;
    b->watchers = NULL;
    b->num_queries = b->num_watchers = 0;
}

/* ------------------------------------------------------- worker list */

/* The rate over the last >= 1 s, blended into the smoothed one (the job's rate
 * in broker.c is smoothed the same way), so it follows a worker that slows. The
 * first positions are sampled at once, however short the time: a worker that did
 * work never shows 0 for its first second. */
static void s_rate_sample(hs__broker_t *b, hs__bworker_t *w)
{
    int64_t dt = b->now - w->rate_ms;
    bool first = w->rate == 0 && w->positions_done > w->rate_done;
    if (dt < 1000 && !(first && dt > 0))
        return;
    double r = (double)(w->positions_done - w->rate_done) * 1000.0 / (double)dt;
    w->rate = w->rate == 0 ? r : 0.5 * w->rate + 0.5 * r;
    w->rate_ms = b->now;
    w->rate_done = w->positions_done;
}

void hs__worker_account(hs__broker_t *b, hs__bworker_t *w, int64_t positions, hs__wend_t end)
{
    if (!w)
        return;
    if (end != HS__WEND_REQUEUED)
        w->last_answer = b->now;   /* it answered: its other leases stay (s_timers) */
    if (end == HS__WEND_DONE) {
        w->positions_done += positions;
        w->tasks_done++;
        s_rate_sample(b, w);
    } else if (end == HS__WEND_ERROR) {
        w->errors++;
    } else {
        w->requeued++;
    }
}

static void s_cluster_info(hs__broker_t *b, hs_wire_status_reply_t *r)
{
    hs_wire_cluster_info_t *c = &r->cluster;
    memset(c, 0, sizeof *c);
    for (int i = 0; i < b->num_run; i++) {   /* an ended job has no task */
        const hs__bjob_t *j = b->run[i];
        c->queued_tasks += j->queued;
        c->leased_tasks += j->leased;
        if (j->rec.state != HS_JOB_RUNNING)
            continue;
        c->jobs_running++;
        int64_t left = j->rec.positions_total - j->rec.positions_done;
        c->positions_pending += left > 0 ? left : 0;
    }
    /* At least 1 ms: uptime 0 is the mark of a reply that withholds the field
     * (hs__cluster_withheld). */
    c->uptime_ms = b->now > b->started ? b->now - b->started : 1;
    r->has_cluster = true;
}

void hs__cluster_withheld(hs_wire_status_reply_t *r)
{
    r->worker_list = NULL;
    r->num_worker_list = 0;
    memset(&r->cluster, 0, sizeof r->cluster);
    r->has_cluster = true;
}

/* A worker's counts into v (engines: room for HS_WIRE_MAX_ENGINES borrowed
 * names). A rate not sampled for a while (no result since) is sampled now, so
 * an idle worker's rate falls instead of staying at its last value. */
static void s_worker_stats(hs__broker_t *b, hs__bworker_t *w, hs_wire_worker_info_t *v,
                           char **engines)
{
    s_rate_sample(b, w);
    v->has_stats = true;
    v->engines = engines;
    for (int k = 0; k < w->num_engines; k++)
        engines[k] = w->engines[k];
    v->num_engines = w->num_engines;
    v->rate = w->rate;
    v->positions_done = w->positions_done;
    v->tasks_done = w->tasks_done;
    v->leased_positions = w->leased_positions;
    v->errors = w->errors;
    v->requeued = w->requeued;
}

/* One block per reply: the entries, then each worker's nets and engines as pointers into
 * the workers themselves (borrowed until the reply is encoded). */
int hs__worker_list(hs__broker_t *b, hs_wire_status_reply_t *r)
{
    int n = b->num_workers < HS_WIRE_MAX_WORKERS ? b->num_workers : HS_WIRE_MAX_WORKERS;
    r->worker_list = NULL;
    r->num_worker_list = 0;
    s_cluster_info(b, r);
    if (n == 0)
        return 0;
    size_t head = sizeof(hs_wire_worker_info_t) * (size_t)n;
    size_t per = HS_WIRE_MAX_NETS + HS_WIRE_MAX_ENGINES;   /* borrowed names per worker */
    char *block = calloc(1, head + sizeof(char *) * (size_t)n * per);
    if (!block)
        return HS_ENOMEM;
    hs_wire_worker_info_t *v = (hs_wire_worker_info_t *)(void *)block;
    char **nets = (char **)(void *)(block + head);
    char **engines = nets + (size_t)n * HS_WIRE_MAX_NETS;
    for (int i = 0; i < n; i++) {
        hs__bworker_t *w = b->workers[i];
        v[i].name = w->name;
        v[i].nets = nets + (size_t)i * HS_WIRE_MAX_NETS;
        for (int k = 0; k < w->num_nets; k++)
            v[i].nets[k] = w->nets[k];
        v[i].num_nets = w->num_nets;
        v[i].backend = w->backend[0] ? w->backend : NULL;
        v[i].tasks = w->num_leases;
        s_worker_stats(b, w, &v[i], engines + (size_t)i * HS_WIRE_MAX_ENGINES);
    }
    r->worker_list = v;
    r->num_worker_list = n;
    return 0;
}
