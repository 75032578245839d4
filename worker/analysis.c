/*
 * worker/analysis.c — the analysis protocol's engine (worker/analysis.h):
 * the reader thread, the queue between it and the searching thread, and the
 * scheduler that keeps up to max_active searches stepping together over the
 * one evaluator.
 *
 * Why one searching thread: hs_mcts_step_many puts the leaves of every
 * search it is given into the same evaluator calls, so one thread driving
 * all open searches fills the batches that many analysis threads would
 * each fill only partly; the evaluator has its own parallelism inside.
 */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "worker/analysis_internal.h"

typedef struct s_engine {
    const hs_analysis_config_t *cfg;
    hs__aout_t out;
    FILE *in;
    /* the queue, under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    hs__aitem_t *head, *tail;
    bool eof;
    int read_rc;                  /* the reader's failure (HS_EIO, HS_ENOMEM) */
    hs_error_t read_err;
    /* the searching thread's own */
    hs__aturn_t **pending, **active;
    hs_mcts_t **ms;               /* the searches of one step */
    int n_pending, cap_pending, n_active, max_active;
    hs_mcts_result_t *result;     /* scratch for replies */
} s_engine_t;

static void s_push(s_engine_t *e, hs__aitem_t *it)
{
    pthread_mutex_lock(&e->mu);
    if (e->tail)
        e->tail->next = it;
    else
        e->head = it;
    e->tail = it;
    pthread_cond_signal(&e->cv);
    pthread_mutex_unlock(&e->mu);
}

/* The longest line taken (a 19x19 query with every move is ~5 KB): a longer
 * one is read to its end and refused, so no input makes the reader hold more. */
#define S_MAX_LINE ((size_t)4 << 20)

/* One line into *buf (without the newline): its length, or -1 at EOF with
 * nothing read. *too_long when it was cut at S_MAX_LINE. */
static ssize_t s_read_line(FILE *in, char **buf, size_t *cap, bool *too_long)
{
    size_t n = 0;
    int ch;
    *too_long = false;
    while ((ch = getc(in)) != EOF && ch != '\n') {
        if (n >= S_MAX_LINE) {
            *too_long = true;
            continue;
        }
        if (n + 1 >= *cap) {
            size_t c = *cap ? 2 * *cap : 4096;
            char *b = realloc(*buf, c);
            if (!b) {
                *too_long = true;   /* the line cannot be held: refused like a long one */
                continue;
            }
            *buf = b;
            *cap = c;
        }
        (*buf)[n++] = (char)ch;
    }
    if (ch == EOF && n == 0 && !*too_long)
        return -1;
    return (ssize_t)n;
}

static void *s_reader(void *arg)
{
    s_engine_t *e = arg;
    char *line = NULL;
    size_t cap = 0;
    long seq = 0;
    ssize_t n;
    bool too_long;
    while ((n = s_read_line(e->in, &line, &cap, &too_long)) >= 0) {
        hs__aitem_t *it = NULL;
        if (too_long)   /* with its id when the part kept shows one */
            hs__analysis_too_long(&e->out, line ? line : "", (size_t)n,
                                  "request line too long (over 4 MiB), ignored");
        else
            hs__analysis_line(e->cfg, &e->out, line ? line : "", (size_t)n, seq++, &it);
        if (it)
            s_push(e, it);
    }
    int failed = ferror(e->in);
    free(line);
    pthread_mutex_lock(&e->mu);
    if (failed)
        e->read_rc = hs_error_set(&e->read_err, HS_EIO, "reading the queries failed");
    e->eof = true;
    pthread_cond_signal(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Pending turns                                                       */

static int s_add_pending(s_engine_t *e, hs__aturn_t *t)
{
    if (e->n_pending == e->cap_pending) {
        int cap = e->cap_pending ? 2 * e->cap_pending : 64;
        hs__aturn_t **p = realloc(e->pending, (size_t)cap * sizeof *p);
        if (!p)
            return HS_ENOMEM;
        e->pending = p;
        e->cap_pending = cap;
    }
    e->pending[e->n_pending++] = t;
    return 0;
}

/* a goes before b: higher priority, then the earlier query, then turn. */
static bool s_before(const hs__aturn_t *a, const hs__aturn_t *b)
{
    if (a->priority != b->priority)
        return a->priority > b->priority;
    if (a->q->seq != b->q->seq)
        return a->q->seq < b->q->seq;
    return a->turn < b->turn;
}

/* Takes the first pending turn (NULL when none). */
static hs__aturn_t *s_pop_pending(s_engine_t *e)
{
    if (!e->n_pending)
        return NULL;
    int best = 0;
    for (int i = 1; i < e->n_pending; i++)
        if (s_before(e->pending[i], e->pending[best]))
            best = i;
    hs__aturn_t *t = e->pending[best];
    memmove(&e->pending[best], &e->pending[best + 1],
            (size_t)(e->n_pending - best - 1) * sizeof *e->pending);
    e->n_pending--;
    return t;
}

static void s_turn_free(hs__aturn_t *t)
{
    hs_mcts_free(&t->m);
    hs__aquery_unref(t->q);
    free(t);
}

static bool s_matches(const hs__aitem_t *it, const hs__aturn_t *t)
{
    if (it->terminate_id && strcmp(it->terminate_id, t->q->id))
        return false;
    if (!it->turn_numbers)
        return true;
    for (int i = 0; i < it->n_turn_numbers; i++)
        if (it->turn_numbers[i] == t->turn)
            return true;
    return false;
}

/* A terminate: queued turns answer noResults now; searches stop at the next
 * step (s_finish writes what they have). */
static void s_terminate(s_engine_t *e, const hs__aitem_t *it)
{
    int k = 0;
    for (int i = 0; i < e->n_pending; i++) {
        hs__aturn_t *t = e->pending[i];
        if (s_matches(it, t)) {
            hs__areply_none(&e->out, t);
            s_turn_free(t);
        } else {
            e->pending[k++] = t;
        }
    }
    e->n_pending = k;
    for (int i = 0; i < e->n_active; i++)
        if (s_matches(it, e->active[i]))
            e->active[i]->terminated = true;
}

/* KataGo's -quit-without-waiting at EOF: its output queue is closed and its
 * searches are killed, so what is still open ends without a reply. */
static void s_drop_all(s_engine_t *e)
{
    for (int i = 0; i < e->n_pending; i++)
        s_turn_free(e->pending[i]);
    for (int i = 0; i < e->n_active; i++)
        s_turn_free(e->active[i]);
    e->n_pending = e->n_active = 0;
}

/* Takes what the reader queued; false when the session is over. */
static bool s_take(s_engine_t *e)
{
    pthread_mutex_lock(&e->mu);
    while (!e->head && !e->eof && !e->n_active && !e->n_pending)
        pthread_cond_wait(&e->cv, &e->mu);
    hs__aitem_t *items = e->head;
    e->head = e->tail = NULL;
    bool eof = e->eof;
    pthread_mutex_unlock(&e->mu);
    while (items) {
        hs__aitem_t *it = items;
        items = it->next;
        if (it->kind == HS__AITEM_TERMINATE)
            s_terminate(e, it);
        for (int i = 0; i < it->n_turns; i++) {
            if (s_add_pending(e, it->turns[i])) {
                hs__aout_error(&e->out, it->turns[i]->q->id, NULL, "out of memory", false);
                s_turn_free(it->turns[i]);
            }
        }
        it->n_turns = 0;   /* the turns are pending's now */
        hs__aitem_free(it);
    }
    /* (the lines before EOF were answered as KataGo's reader answers them:
     * a terminate's noResults for queued turns is out already) */
    if (eof && e->cfg->quit_without_waiting)
        s_drop_all(e);
    return !(eof && !e->n_active && !e->n_pending);
}

/* ------------------------------------------------------------------ */
/* Searches                                                            */

/* Starts t's search: its position, its tree. An error is the turn's reply. */
static int s_start(s_engine_t *e, hs__aturn_t *t)
{
    hs_gtp_game_t g;
    hs_error_t err;
    hs_nn_pos_t pos;
    int rc = hs__aturn_game(t, &g, &err);
    if (!rc)
        rc = hs_mcts_create(&t->q->cfg, &t->m, &err);
    if (!rc) {
        hs_gtp_game_pos(&g, &pos);
        if (t->q->ignore_pre_root_history) {
            /* the net's history features; superko still sees every move */
            pos.n_hist = 0;
            pos.prev1 = pos.prev2 = NULL;
        }
        rc = hs_mcts_set_filter(t->m, t->q->filter, &err);
    }
    if (!rc)
        rc = hs_mcts_set_root(t->m, &pos, &g.hist, &err);
    hs_gtp_game_fini(&g);
    if (rc) {
        hs__aout_error(&e->out, t->q->id, NULL, err.msg, false);
        return rc;
    }
    hs_mcts_begin(t->m);
    t->started = hs_clock_now();
    t->next_report = t->q->report_every > 0 ? t->started + t->q->first_report : 0;
    return 0;
}

static void s_fill(s_engine_t *e)
{
    while (e->n_active < e->max_active) {
        hs__aturn_t *t = s_pop_pending(e);
        if (!t)
            return;
        if (s_start(e, t))
            s_turn_free(t);
        else
            e->active[e->n_active++] = t;
    }
}

/* Whether t's root has a move with a visit (its result is then in r). */
static bool s_has_move(const hs__aturn_t *t, hs_mcts_result_t *r)
{
    if (hs_mcts_root_visits(t->m) < 1)
        return false;
    hs_mcts_get_result(t->m, r);
    return r->num_moves > 0;
}

/* The final reply of active search i, which is then dropped. A turn
 * terminated before any move had a visit answers noResults (the root's own
 * evaluation alone says nothing of the moves); one that ran its budget out
 * is answered whatever it has (maxVisits 1: the root's, as KataGo's). */
static void s_finish(s_engine_t *e, int i)
{
    hs__aturn_t *t = e->active[i];
    if (t->terminated ? s_has_move(t, e->result) : hs_mcts_root_visits(t->m) > 0)
        hs__areply(&e->out, t, false, e->result);
    else
        hs__areply_none(&e->out, t);
    s_turn_free(t);
    e->active[i] = e->active[--e->n_active];
}

/* One step of every active search, then the replies it makes due. */
static void s_step(s_engine_t *e)
{
    hs_mcts_t **ms = e->ms;
    int n = 0;
    for (int i = 0; i < e->n_active; i++)
        if (!e->active[i]->terminated && !hs_mcts_done(e->active[i]->m))
            ms[n++] = e->active[i]->m;
    hs_error_t err;
    if (n && hs_mcts_step_many(ms, n, e->cfg->eval, &err) < 0) {
        /* The evaluator failed: every search of the step gets the error. */
        for (int i = 0; i < e->n_active; i++)
            if (!e->active[i]->terminated && !hs_mcts_done(e->active[i]->m)) {
                hs__aout_error(&e->out, e->active[i]->q->id, NULL, err.msg, false);
                s_turn_free(e->active[i]);
                e->active[i--] = e->active[--e->n_active];
            }
    }
    double now = hs_clock_now();
    for (int i = 0; i < e->n_active; i++) {
        hs__aturn_t *t = e->active[i];
        if (t->terminated || hs_mcts_done(t->m)) {
            s_finish(e, i--);
        } else if (t->next_report > 0 && now >= t->next_report
                   && hs_mcts_root_visits(t->m) > 1) {
            /* (after a child has a visit: a report without moves helps no one) */
            hs__areply(&e->out, t, true, e->result);
            t->next_report = now + t->q->report_every;
        }
    }
}

/* ------------------------------------------------------------------ */

static int s_init(s_engine_t *e, const hs_analysis_config_t *cfg, FILE *in, FILE *out,
                  hs_error_t *err)
{
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->in = in;
    e->out.f = out;
    if (!cfg->eval || !cfg->eval->eval || cfg->eval->max_batch < 1)
        return hs_error_set(err, HS_EINVAL, "analysis: no evaluator");
    if (cfg->search.threads < 1)
        return hs_error_set(err, HS_EINVAL, "analysis: threads must be >= 1");
    e->max_active = cfg->max_active > 0 ? cfg->max_active : cfg->eval->max_batch / cfg->search.threads;
    if (e->max_active < 1)
        e->max_active = 1;
    e->active = calloc((size_t)e->max_active, sizeof *e->active);
    e->ms = calloc((size_t)e->max_active, sizeof *e->ms);
    e->result = malloc(sizeof *e->result);
    if (!e->active || !e->ms || !e->result) {
        free(e->active);
        free(e->ms);
        free(e->result);
        return hs_error_set(err, HS_ENOMEM, "analysis: out of memory");
    }
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    pthread_mutex_init(&e->out.mu, NULL);
    return 0;
}

static void s_fini(s_engine_t *e)
{
    while (e->head) {
        hs__aitem_t *it = e->head;
        e->head = it->next;
        hs__aitem_free(it);
    }
    for (int i = 0; i < e->n_pending; i++)
        s_turn_free(e->pending[i]);
    for (int i = 0; i < e->n_active; i++)
        s_turn_free(e->active[i]);
    free(e->pending);
    free(e->active);
    free(e->ms);
    free(e->result);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->out.mu);
}

void hs_analysis_config_default(hs_analysis_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    hs_mcts_config_default(&cfg->search);
    cfg->report_as = HS_ANALYSIS_BLACK;
    cfg->ignore_pre_root_history = true;
    cfg->search.wide_root_noise = 0.04;   /* KataGo's analysis engine's default */
    cfg->search.graph_search = true;      /* likewise (the net's searches only) */
    cfg->search.root_symmetry_pruning = true;   /* likewise */
    cfg->warn_unused_fields = true;
}

int hs_analysis_run(const hs_analysis_config_t *cfg, FILE *in, FILE *out, hs_error_t *err)
{
    s_engine_t e;
    int rc = s_init(&e, cfg, in, out, err);
    if (rc)
        return rc;
    pthread_t reader;
    if (pthread_create(&reader, NULL, s_reader, &e)) {
        s_fini(&e);
        return hs_error_set(err, HS_EIO, "analysis: cannot start the reader thread");
    }
    while (s_take(&e)) {
        s_fill(&e);
        if (e.n_active)
            s_step(&e);
    }
    pthread_join(reader, NULL);
    rc = e.read_rc;
    if (rc && err)
        *err = e.read_err;
    s_fini(&e);
    return rc;
}
