/*
 * ingest/ingest.c — the ingest pipeline: one reader (the calling thread walks the
 * inputs), N parser threads, in-order commit. See ingest.h for the contract.
 *
 * Hand-off between the stages uses a ring of `window` slots indexed by sequence
 * number: the reader fills slot seq % window and bumps read_next; parsers take the
 * lowest untaken sequence number (take_next); whichever parser finishes the slot
 * at commit_next commits it, and keeps committing while the next slots are done.
 * One lock guards the counters; the work itself (parsing, committing) runs
 * outside it, and only one thread commits at a time (the `committing` flag), which
 * keeps the report, the duplicate set and on_game() single-threaded and in order.
 */
#include "ingest/ingest.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/sgf.h"
#include "core/wire.h"
#include "ingest/archive.h"

static const char *const s_reason_names[HS_INGEST_FAIL_COUNT] = {
    [HS_INGEST_FAIL_READ] = "read",
    [HS_INGEST_FAIL_TOO_LARGE] = "too-large",
    [HS_INGEST_FAIL_SYNTAX] = "syntax",
    [HS_INGEST_FAIL_TRUNCATED] = "truncated",
    [HS_INGEST_FAIL_EMPTY] = "empty",
    [HS_INGEST_FAIL_RECORD] = "record",
    [HS_INGEST_FAIL_UNSUPPORTED] = "unsupported",
    [HS_INGEST_FAIL_ILLEGAL] = "illegal-move",
    [HS_INGEST_FAIL_LIMIT] = "limit",
    [HS_INGEST_FAIL_LINK] = "link",
};

const char *hs_ingest_reason_name(hs_ingest_reason_t r)
{
    return (unsigned)r < HS_INGEST_FAIL_COUNT ? s_reason_names[r] : "?";
}

/* ---- one file ------------------------------------------------------------ */

static int s_file_fail(hs_ingest_file_t *f, int game, hs_ingest_reason_t reason, int code,
                       const char *msg)
{
    hs_ingest_failure_t *nf = realloc(f->failures, (size_t)(f->num_failures + 1) * sizeof *nf);
    if (!nf)
        return HS_ENOMEM;
    f->failures = nf;
    hs_ingest_failure_t *x = &nf[f->num_failures];
    x->source = NULL;
    x->game = game;
    x->reason = reason;
    x->code = code;
    x->message = strdup(msg ? msg : "");
    if (!x->message)
        return HS_ENOMEM;
    f->num_failures++;
    return 0;
}

/* The SGF reader says "truncated ..." for input that ends inside a tree. */
static hs_ingest_reason_t s_parse_reason(int code, const char *msg)
{
    if (code == HS_ELIMIT)
        return HS_INGEST_FAIL_LIMIT;
    if (msg && strstr(msg, "truncated"))
        return HS_INGEST_FAIL_TRUNCATED;
    if (msg && (strstr(msg, "no game tree") || strstr(msg, "game tree found")))
        return HS_INGEST_FAIL_EMPTY;
    return HS_INGEST_FAIL_SYNTAX;
}

static hs_ingest_reason_t s_record_reason(int code)
{
    switch (code) {
    case HS_EUNSUPPORTED: return HS_INGEST_FAIL_UNSUPPORTED;
    case HS_ELIMIT: return HS_INGEST_FAIL_LIMIT;
    case HS_EILLEGAL: return HS_INGEST_FAIL_ILLEGAL;
    default: return HS_INGEST_FAIL_RECORD;
    }
}

/* A game that reads and replays may still be one the cluster cannot analyse: a
 * TASK carries the whole game, within the wire's limits (core/wire.h). Checked
 * here, so that the dry run's count of good games is what analyze and submit
 * store, and the reason is the same. 0 or HS_ELIMIT. */
static int s_wire_fits(const hs_game_t *g, hs_error_t *err)
{
    if (g->num_moves > HS_WIRE_MAX_MOVES)
        return hs_error_set(err, HS_ELIMIT, "too many moves: %d, more than the %d a game "
                            "may have to be analysed", g->num_moves, HS_WIRE_MAX_MOVES);
    if (!isfinite(g->komi) || fabs(g->komi) > HS_WIRE_MAX_KOMI)
        return hs_error_set(err, HS_ELIMIT, "komi out of range: %g (at most %g either way)",
                            g->komi, HS_WIRE_MAX_KOMI);
    return 0;
}

int hs_ingest_parse_buffer(const uint8_t *data, size_t len, hs_ingest_file_t *out)
{
    memset(out, 0, sizeof *out);
    hs_error_t e;
    hs_error_clear(&e);
    hs_sgf_collection_t *c = hs_sgf_parse_ex((const char *)data, len, NULL, HS_SGF_RECOVER, &e);
    if (!c) {
        if (e.code == HS_ENOMEM)
            return HS_ENOMEM;
        return s_file_fail(out, -1, s_parse_reason(e.code, e.msg), e.code ? e.code : HS_EPARSE,
                           e.msg);
    }
    int rc = 0;
    out->num_trees = c->num_trees;
    if (c->num_trees > 0) {
        out->games = calloc((size_t)c->num_trees, sizeof *out->games);
        out->index = calloc((size_t)c->num_trees, sizeof *out->index);
        if (!out->games || !out->index) {
            hs_sgf_destroy(&c);
            return HS_ENOMEM;
        }
    }
    hs_board_t board;
    for (int k = 0; k < c->num_trees && rc == 0; k++) {
        const hs_sgf_tree_t *t = &c->trees[k];
        if (t->status != 0 || !t->root) {
            int code = t->status ? t->status : HS_EPARSE;
            rc = s_file_fail(out, k, s_parse_reason(code, t->message), code,
                             t->message && *t->message ? t->message : "empty game tree");
            continue;
        }
        hs_game_t *g = &out->games[out->num_games];
        hs_error_clear(&e);
        int grc = hs_game_from_sgf(t->root, g, &e);
        if (grc == 0) {
            hs_error_clear(&e);
            grc = hs_game_replay(g, -1, &board, &e);
        }
        if (grc == 0)
            grc = s_wire_fits(g, &e);
        if (grc == HS_ENOMEM) {
            hs_game_fini(g);
            rc = HS_ENOMEM;
            break;
        }
        if (grc != 0) {
            hs_game_fini(g);
            rc = s_file_fail(out, k, s_record_reason(grc), grc, e.msg);
            continue;
        }
        /* g->id was set by hs_game_from_sgf; replay does not change the record. */
        out->index[out->num_games++] = k;
    }
    hs_sgf_destroy(&c);
    return rc;
}

void hs_ingest_file_fini(hs_ingest_file_t *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->num_games; i++)
        hs_game_fini(&f->games[i]);
    for (int i = 0; i < f->num_failures; i++) {
        free(f->failures[i].source);
        free(f->failures[i].message);
    }
    free(f->games);
    free(f->index);
    free(f->failures);
    memset(f, 0, sizeof *f);
}

/* ---- report pieces ------------------------------------------------------- */

void hs_ingest_options_init(hs_ingest_options_t *o)
{
    memset(o, 0, sizeof *o);
}

static int s_dist_add(hs_ingest_dist_t *d, const char *key)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->items[i].key, key)) {
            d->items[i].count++;
            return 0;
        }
    if (d->n == d->cap) {
        size_t ncap = d->cap ? d->cap * 2 : 16;
        hs_ingest_count_t *ni = realloc(d->items, ncap * sizeof *ni);
        if (!ni)
            return HS_ENOMEM;
        d->items = ni;
        d->cap = ncap;
    }
    d->items[d->n].key = strdup(key);
    if (!d->items[d->n].key)
        return HS_ENOMEM;
    d->items[d->n++].count = 1;
    return 0;
}

static int s_count_cmp(const void *x, const void *y)
{
    const hs_ingest_count_t *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->key, b->key);
}

static void s_dist_fini(hs_ingest_dist_t *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->items[i].key);
    free(d->items);
    memset(d, 0, sizeof *d);
}

static void s_failures_free(hs_ingest_failure_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i].source);
        free(f[i].message);
    }
    free(f);
}

void hs_ingest_report_fini(hs_ingest_report_t *rep)
{
    if (!rep)
        return;
    s_dist_fini(&rep->rules);
    s_dist_fini(&rep->komi);
    s_failures_free(rep->failures, rep->num_failures);
    s_failures_free(rep->dups, rep->num_dups);
    memset(rep, 0, sizeof *rep);
}

/* Appends a record to a bounded list (source and message copied). */
static int s_list_add(hs_ingest_failure_t **list, size_t *n, size_t *cap, size_t max,
                      const char *source, int game, hs_ingest_reason_t reason, int code,
                      const char *message)
{
    if (*n >= max)
        return 0;
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        hs_ingest_failure_t *nl = realloc(*list, ncap * sizeof *nl);
        if (!nl)
            return HS_ENOMEM;
        *list = nl;
        *cap = ncap;
    }
    hs_ingest_failure_t *x = &(*list)[*n];
    x->source = strdup(source ? source : "");
    x->message = strdup(message ? message : "");
    x->game = game;
    x->reason = reason;
    x->code = code;
    if (!x->source || !x->message) {
        free(x->source);
        free(x->message);
        return HS_ENOMEM;
    }
    (*n)++;
    return 0;
}

/* ---- duplicate set: open addressing on 128-bit ids ------------------------ */

typedef struct s_idset {
    uint64_t *keys;        /* 2 words per slot; {0,0} = empty */
    size_t cap, n;         /* cap a power of two */
    bool has_zero;         /* the id {0,0} itself (cannot live in the table) */
} s_idset_t;

/* Adds id; returns 1 when it was new, 0 when already there, HS_ENOMEM. */
static int s_idset_add(s_idset_t *s, const uint64_t id[2])
{
    if (id[0] == 0 && id[1] == 0) {
        int was = s->has_zero;
        s->has_zero = true;
        return !was;
    }
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 1024;
        uint64_t *nk = calloc(ncap * 2, sizeof *nk);
        if (!nk)
            return HS_ENOMEM;
        for (size_t i = 0; i < s->cap; i++) {
            uint64_t a = s->keys[2 * i], b = s->keys[2 * i + 1];
            if (!a && !b)
                continue;
            size_t j = (size_t)(a ^ (b * 0x9E3779B97F4A7C15ull)) & (ncap - 1);
            while (nk[2 * j] || nk[2 * j + 1])
                j = (j + 1) & (ncap - 1);
            nk[2 * j] = a;
            nk[2 * j + 1] = b;
        }
        free(s->keys);
        s->keys = nk;
        s->cap = ncap;
    }
    size_t j = (size_t)(id[0] ^ (id[1] * 0x9E3779B97F4A7C15ull)) & (s->cap - 1);
    while (s->keys[2 * j] || s->keys[2 * j + 1]) {
        if (s->keys[2 * j] == id[0] && s->keys[2 * j + 1] == id[1])
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->keys[2 * j] = id[0];
    s->keys[2 * j + 1] = id[1];
    s->n++;
    return 1;
}

/* ---- the pipeline -------------------------------------------------------- */

enum { S_EMPTY = 0, S_QUEUED, S_DONE };

typedef struct s_slot {
    int state;
    char *source;
    uint8_t *data;            /* NULL for a read failure */
    size_t len;
    int read_code;            /* read failure: HS_E* and message */
    char *read_msg;
    hs_ingest_file_t result;
    int result_rc;            /* hs_ingest_parse_buffer's status */
} s_slot_t;

typedef struct s_pipe {
    const hs_ingest_options_t *o;
    hs_ingest_report_t *rep;
    s_slot_t *slots;
    uint64_t window;
    size_t max_failures;
    pthread_mutex_t mu;
    pthread_cond_t work, space;
    uint64_t read_next, take_next, commit_next;
    bool reader_done, committing;
    int cancel;               /* HS_ECANCELED or HS_ENOMEM once the run must stop */
    s_idset_t ids;
    struct timespec start, last_progress;
} s_pipe_t;

static double s_since(const struct timespec *a)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - a->tv_sec) + (double)(now.tv_nsec - a->tv_nsec) * 1e-9;
}

static void s_progress(s_pipe_t *p, bool final)
{
    if (!p->o->progress)
        return;
    if (!final && s_since(&p->last_progress) < 0.5)
        return;
    clock_gettime(CLOCK_MONOTONIC, &p->last_progress);
    const hs_ingest_report_t *r = p->rep;
    double t = s_since(&p->start);
    fprintf(p->o->progress, "\ringest: %llu files, %llu games, %llu failed, %llu duplicates, "
            "%.1f MB, %.0f games/s%s",
            (unsigned long long)r->files, (unsigned long long)r->games,
            (unsigned long long)r->failed, (unsigned long long)r->duplicates,
            (double)r->bytes / 1e6, t > 0 ? (double)r->games / t : 0.0, final ? "\n" : "");
    fflush(p->o->progress);
}

static int s_report_failure(s_pipe_t *p, const char *source, int game, hs_ingest_reason_t reason,
                            int code, const char *msg)
{
    hs_ingest_report_t *r = p->rep;
    r->failed++;
    if (game < 0)
        r->failed_files++;
    else
        r->failed_games++;
    r->by_reason[reason]++;
    return s_list_add(&r->failures, &r->num_failures, &r->cap_failures, p->max_failures,
                      source, game, reason, code, msg);
}

static int s_commit_game(s_pipe_t *p, const char *source, int index, hs_game_t *g)
{
    hs_ingest_report_t *r = p->rep;
    r->trees++;
    int fresh = s_idset_add(&p->ids, g->id);
    if (fresh < 0)
        return fresh;
    if (!fresh) {
        r->duplicates++;
        return s_list_add(&r->dups, &r->num_dups, &r->cap_dups, p->max_failures, source,
                          index, HS_INGEST_FAIL_COUNT, 0, "duplicate game");
    }
    r->games++;
    r->moves += (uint64_t)g->num_moves;
    r->positions += (uint64_t)g->num_moves + 1;
    if (g->size >= 0 && g->size <= HS_BOARD_MAX_SIZE)
        r->sizes[g->size]++;
    switch (g->result.kind) {
    case HS_RESULT_POINTS: r->results[HS_INGEST_RESULT_COUNTED]++; break;
    case HS_RESULT_RESIGN: r->results[HS_INGEST_RESULT_RESIGN]++; break;
    case HS_RESULT_TIME: r->results[HS_INGEST_RESULT_TIME]++; break;
    default: r->results[HS_INGEST_RESULT_OTHER]++; break;
    }
    if ((unsigned)g->result.winner < 5)
        r->winners[g->result.winner]++;
    if (g->handicap >= 2 || g->num_setup > 0)
        r->handicap_games++;
    r->komi_contradicted += !hs_result_fits_komi(&g->result, g->komi);
    char key[64];
    snprintf(key, sizeof key, "%g", g->komi);
    int rc = s_dist_add(&r->komi, key);
    if (!rc)
        rc = s_dist_add(&r->rules, g->rules.name ? g->rules.name : "?");
    if (rc)
        return rc;
    if (p->o->on_game && p->o->on_game(p->o->ctx, source, index, g))
        return HS_ECANCELED;
    return 0;
}

/* Commits one finished slot (called by the single committer, without the lock). */
static int s_commit(s_pipe_t *p, s_slot_t *s)
{
    hs_ingest_report_t *r = p->rep;
    int rc = 0;
    if (!s->data && s->read_msg) {
        /* The walker says HS_EUNSUPPORTED only for a link it did not follow. */
        hs_ingest_reason_t why = s->read_code == HS_ELIMIT ? HS_INGEST_FAIL_TOO_LARGE
                                 : s->read_code == HS_EUNSUPPORTED ? HS_INGEST_FAIL_LINK
                                                                   : HS_INGEST_FAIL_READ;
        rc = s_report_failure(p, s->source, -1, why, s->read_code, s->read_msg);
    } else if (s->result_rc) {
        rc = s->result_rc;
    } else {
        r->files++;
        r->bytes += s->len;
        hs_ingest_file_t *f = &s->result;
        /* Games and failures interleave in tree order in the report. */
        int gi = 0, fi = 0;
        while (rc == 0 && (gi < f->num_games || fi < f->num_failures)) {
            bool take_fail = fi < f->num_failures &&
                             (gi >= f->num_games || f->failures[fi].game < f->index[gi]);
            if (take_fail) {
                hs_ingest_failure_t *x = &f->failures[fi++];
                if (x->game >= 0)
                    r->trees++;
                rc = s_report_failure(p, s->source, x->game, x->reason, x->code, x->message);
            } else {
                rc = p->cancel ? 0 : s_commit_game(p, s->source, f->index[gi], &f->games[gi]);
                gi++;
            }
        }
    }
    hs_ingest_file_fini(&s->result);
    free(s->data);
    free(s->source);
    free(s->read_msg);
    s->data = NULL;
    s->source = NULL;
    s->read_msg = NULL;
    s_progress(p, false);
    return rc;
}

/* Marks slot seq done and, unless someone else is committing, commits in order. */
static void s_finish(s_pipe_t *p, uint64_t seq)
{
    pthread_mutex_lock(&p->mu);
    p->slots[seq % p->window].state = S_DONE;
    if (!p->committing) {
        p->committing = true;
        while (p->commit_next < p->read_next &&
               p->slots[p->commit_next % p->window].state == S_DONE) {
            s_slot_t *s = &p->slots[p->commit_next % p->window];
            pthread_mutex_unlock(&p->mu);
            int rc = s_commit(p, s);
            pthread_mutex_lock(&p->mu);
            if (rc && !p->cancel)
                p->cancel = rc;
            s->state = S_EMPTY;
            p->commit_next++;
            pthread_cond_broadcast(&p->space);
        }
        p->committing = false;
    }
    pthread_mutex_unlock(&p->mu);
}

static void *s_parser(void *arg)
{
    s_pipe_t *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->take_next == p->read_next && !p->reader_done)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->take_next == p->read_next) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        uint64_t seq = p->take_next++;
        bool skip = p->cancel != 0;
        pthread_mutex_unlock(&p->mu);
        s_slot_t *s = &p->slots[seq % p->window];
        if (s->data && !skip)
            s->result_rc = hs_ingest_parse_buffer(s->data, s->len, &s->result);
        s_finish(p, seq);
    }
}

/* Reader side: waits for a free slot and queues it. Takes ownership of data. */
static int s_enqueue(s_pipe_t *p, const char *source, uint8_t *data, size_t len, int code,
                     const char *msg)
{
    pthread_mutex_lock(&p->mu);
    while (p->read_next - p->commit_next >= p->window && !p->cancel)
        pthread_cond_wait(&p->space, &p->mu);
    int cancel = p->cancel;
    pthread_mutex_unlock(&p->mu);
    if (cancel) {
        free(data);
        return cancel;
    }
    /* The slot is ours alone until read_next moves past it. */
    s_slot_t *s = &p->slots[p->read_next % p->window];
    memset(s, 0, sizeof *s);
    s->source = strdup(source);
    s->data = data;
    s->len = len;
    if (!data) {
        s->read_code = code;
        s->read_msg = strdup(msg ? msg : "");
    }
    if (!s->source || (!data && !s->read_msg)) {
        free(s->source);
        free(s->read_msg);
        free(data);
        memset(s, 0, sizeof *s);
        return HS_ENOMEM;
    }
    pthread_mutex_lock(&p->mu);
    s->state = S_QUEUED;
    p->read_next++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

static int s_on_member(void *ctx, const char *source, uint8_t *data, size_t len)
{
    return s_enqueue(ctx, source, data, len, 0, NULL);
}

static void s_on_failure(void *ctx, const char *source, int code, const char *message)
{
    s_pipe_t *p = ctx;
    int rc = s_enqueue(p, source, NULL, 0, code, message);
    if (rc) {
        pthread_mutex_lock(&p->mu);
        if (!p->cancel)
            p->cancel = rc;
        pthread_mutex_unlock(&p->mu);
    }
}

int hs_ingest_run(const char *const *paths, int npaths, const hs_ingest_options_t *o,
                  hs_ingest_report_t *rep, hs_error_t *err)
{
    hs_ingest_options_t defaults;
    if (!o) {
        hs_ingest_options_init(&defaults);
        o = &defaults;
    }
    if (!rep)
        return hs_error_set(err, HS_EINVAL, "ingest: no report");
    memset(rep, 0, sizeof *rep);
    if (npaths < 0 || (npaths > 0 && !paths))
        return hs_error_set(err, HS_EINVAL, "ingest: bad paths");
    int threads = o->threads;
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > 256)
        threads = 256;
    rep->threads = threads;

    s_pipe_t p;
    memset(&p, 0, sizeof p);
    p.o = o;
    p.rep = rep;
    p.window = o->window > 0 ? (uint64_t)o->window : (uint64_t)threads * 64;
    p.max_failures = o->max_failures ? o->max_failures : 100000;
    p.slots = calloc(p.window, sizeof *p.slots);
    if (!p.slots)
        return hs_error_set(err, HS_ENOMEM, "ingest: out of memory");
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.space, NULL);
    clock_gettime(CLOCK_MONOTONIC, &p.start);
    p.last_progress = p.start;

    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    int started = 0;
    for (int i = 0; tids && i < threads; i++) {
        if (pthread_create(&tids[i], NULL, s_parser, &p) != 0)
            break;
        started++;
    }
    int rc = 0;
    if (started == 0) {
        rc = hs_error_set(err, HS_EINVAL, "ingest: could not start a parser thread");
    } else {
        hs_archive_visitor_t v = { .member = s_on_member, .failure = s_on_failure, .ctx = &p };
        hs_archive_stats_t st;
        hs_archive_walk_ex(paths, npaths, o->max_member,
                           o->follow_symlinks ? HS_ARCHIVE_FOLLOW_SYMLINKS : 0u, &v, &st, NULL);
        rep->skipped = st.skipped;
        rep->archives = st.archives;
    }
    pthread_mutex_lock(&p.mu);
    p.reader_done = true;
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.mu);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);

    /* Every slot was taken and committed by the parsers; nothing is left over. */
    if (rc == 0 && p.cancel) {
        rc = p.cancel == HS_ECANCELED
                 ? hs_error_set(err, HS_ECANCELED, "ingest: stopped by the game consumer")
                 : hs_error_set(err, p.cancel, "ingest: %s", hs_strerror(p.cancel));
    }
    rep->seconds = s_since(&p.start);
    if (rep->rules.n)
        qsort(rep->rules.items, rep->rules.n, sizeof *rep->rules.items, s_count_cmp);
    if (rep->komi.n)
        qsort(rep->komi.items, rep->komi.n, sizeof *rep->komi.items, s_count_cmp);
    s_progress(&p, true);
    free(p.ids.keys);
    free(p.slots);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.space);
    return rc;
}
