/*
 * cli/label_run.c — `hyeongse label`'s run (cli/label_run.h): the games in,
 * N labelling threads, the samples out in game order.
 *
 * Shape: hs__label_read collects every game first (ingest is quick beside
 * labelling, and the total is what progress and the ETA need); then worker
 * threads take games in order from a counter, label them and build their
 * samples into a buffer of the game's own, while this thread writes the
 * buffers in game order. Workers stay at most a window of games ahead of
 * the writer, so memory is bounded by the window, not the archive.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "ingest/ingest.h"
#include "label_run.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"

/* ------------------------------------------------------------ reading */

static int s_on_game(void *ctx, const char *source, int index, hs_game_t *game)
{
    hs__label_run_t *run = ctx;
    const hs__label_opts_t *o = run->o;
    if (o->size && game->size != o->size) {
        run->other_sizes++;
        return 0;
    }
    if (o->max_games && run->n >= o->max_games)
        return 1;   /* enough: stops the ingest (HS_ECANCELED, expected) */
    if (run->n == run->cap) {
        int cap = run->cap ? 2 * run->cap : 256;
        hs__label_game_t *g = realloc(run->games, (size_t)cap * sizeof *g);
        if (!g)
            return -1;
        run->games = g;
        run->cap = cap;
    }
    hs__label_game_t *lg = &run->games[run->n];
    memset(lg, 0, sizeof *lg);
    lg->source = strdup(source ? source : "");
    if (!lg->source)
        return -1;
    lg->game = *game;          /* a move: the pipeline frees an empty game */
    hs_game_init(game, 19);
    lg->index = index;
    /* id[0] is already a hash of the game's content (hs_game_compute_id): the
     * same game lands in the same split whatever archive it comes from. */
    lg->val = (int)(lg->game.id[0] % 100) < o->val_percent;
    run->n++;
    return 0;
}

int hs__label_read(hs__label_run_t *run, hs_error_t *err)
{
    hs_ingest_options_t io;
    hs_ingest_options_init(&io);
    io.threads = run->o->threads;
    io.on_game = s_on_game;
    io.ctx = run;
    hs_ingest_report_t rep;
    int rc = hs_ingest_run(run->o->paths, run->o->npaths, &io, &rep, err);
    bool full = run->o->max_games && run->n >= run->o->max_games;
    if (rc == HS_ECANCELED && full) {
        rc = 0;
        hs_error_clear(err);
    } else if (rc == HS_ECANCELED) {
        rc = hs_error_set(err, HS_ENOMEM, "out of memory collecting the games");
    }
    if (!rc && rep.failed)
        fprintf(stderr, "hyeongse label: %llu game trees or files could not be read "
                        "(`hyeongse ingest --dry-run` lists them)\n",
                (unsigned long long)rep.failed);
    hs_ingest_report_fini(&rep);
    return rc;
}

/* ------------------------------------------------------------ samples */

/* One labelling thread's own tools. */
typedef struct s_worker {
    struct s_pool *pool;
    hs_mcts_evaluator_t ev;
    hs_nn_evaluator_t *nn;
    hs_nn_game_pos_t *gp;
    float spatial[HS_NN_SPATIAL * HS_NN_MAX_SIZE * HS_NN_MAX_SIZE];
    float global[HS_NN_GLOBAL];
    pthread_t tid;
    bool started;
} s_worker_t;

typedef struct s_pool {
    hs__label_run_t *run;
    pthread_mutex_t mu;
    pthread_cond_t cv_done, cv_space;
    int next, written, window;
    bool stop;
    int rc;
    hs_error_t err;
} s_pool_t;

static uint64_t s_mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* +1 when the side to move won the record's game, -1 lost, 0 otherwise. */
static int8_t s_value(const hs_game_t *g, hs_color_t to_move)
{
    hs_winner_t w = g->result.winner;
    if (w != HS_WINNER_BLACK && w != HS_WINNER_WHITE)
        return 0;
    return (w == HS_WINNER_BLACK) == (to_move == HS_BLACK) ? 1 : -1;
}

/* Sample of the position after move m of game i (m == num_moves: the final
 * position, policy -1). */
static int s_sample(s_worker_t *w, int i, const hs_label_t *lab, int m, hs_shard_sample_t *s,
                    hs_error_t *err)
{
    const hs_game_t *g = &w->pool->run->games[i].game;
    int n = g->size;
    /* the rules the label counted by: the planes carry no rules today, but a
     * later input set may, and it must see what the label saw */
    int rc = hs_nn_game_pos_at(g, m, hs_label_rules(g), g->komi, g->handicap, w->gp, err);
    if (rc)
        return rc;
    /* The player of the record's next move is the one whose move the policy
     * target is, even where a record lets one colour play twice. */
    if (m < g->num_moves)
        w->gp->nn.to_move = (hs_color_t)g->moves[m].color;
    hs_color_t me = w->gp->nn.to_move;
    rc = hs_nn_features_hs(&w->gp->nn, w->spatial, w->global, err);
    if (rc)
        return rc;
    s->game = (uint32_t)i;
    s->move = (uint16_t)m;
    s->to_move = (uint8_t)me;
    if (m == g->num_moves)
        s->policy = -1;
    else if (g->moves[m].vertex == HS_GAME_PASS)
        s->policy = (int16_t)(n * n);
    else
        s->policy = (int16_t)g->moves[m].vertex;   /* y * N + x already */
    s->value = s_value(g, me);
    int sign = me == HS_BLACK ? 1 : -1;
    s->score = (float)(sign * lab->black_margin);
    hs_shard_set_planes(s, w->spatial, n);
    for (int p = 0; p < n * n; p++)
        s->owner[p] = (int8_t)(sign * lab->owner[p]);
    return 0;
}

/* The samples of an "ok" game into its buffer: after every K-th move, and
 * the final position. A position the features cannot be made of turns the
 * game into a skip (it has no samples). */
static int s_samples(s_worker_t *w, int i, const hs_label_t *lab, hs_error_t *err)
{
    hs__label_game_t *lg = &w->pool->run->games[i];
    int k = w->pool->run->o->every, moves = lg->game.num_moves;
    int count = (moves > 0 ? (moves - 1) / k : 0) + 1;
    lg->buf = calloc((size_t)count, sizeof *lg->buf);
    if (!lg->buf)
        return hs_error_set(err, HS_ENOMEM, "out of memory for %d samples", count);
    int at = 0, rc = 0;
    for (int m = k; !rc && m < moves; m += k)
        rc = s_sample(w, i, lab, m, &lg->buf[at++], err);
    if (!rc)
        rc = s_sample(w, i, lab, moves, &lg->buf[at++], err);
    if (rc == HS_ENOMEM)
        return rc;
    if (rc) {
        free(lg->buf);
        lg->buf = NULL;
        lg->status = HS_LABEL_SKIP;
        snprintf(lg->reason, sizeof lg->reason, "features: %.140s", err->msg);
        hs_error_clear(err);
        return 0;
    }
    lg->nbuf = lg->samples = at;
    return 0;
}

/* Labels game i and builds its samples. 0 (the game's status says how it
 * went) or a failure of the machinery. */
static int s_label_one(s_worker_t *w, int i, hs_error_t *err)
{
    const hs__label_opts_t *o = w->pool->run->o;
    hs__label_game_t *lg = &w->pool->run->games[i];
    const hs_game_t *g = &lg->game;
    if (g->size > HS_NN_MAX_SIZE) {
        lg->status = HS_LABEL_SKIP;
        snprintf(lg->reason, sizeof lg->reason,
                 "board size: %dx%d is over 19x19", g->size, g->size);
        return 0;
    }
    if (g->num_moves > UINT16_MAX) {
        lg->status = HS_LABEL_SKIP;
        snprintf(lg->reason, sizeof lg->reason,
                 "length: %d moves, a sample's move field holds up to 65535", g->num_moves);
        return 0;
    }
    hs_label_config_t cfg;
    hs_label_config_default(&cfg);
    cfg.evaluator = &w->ev;
    cfg.nn = w->nn;
    cfg.visits = o->visits;
    cfg.seed = s_mix(o->seed ^ s_mix(g->id[0] ^ g->id[1]));
    hs_label_t lab;
    int rc = hs_label_game(&cfg, g, &lab, err);
    if (rc)
        return hs_error_prefix(err, "%s game %d: ", lg->source, lg->index + 1);
    lg->status = lab.status;
    snprintf(lg->reason, sizeof lg->reason, "%s", lab.status == HS_LABEL_OK ? "" : lab.reason);
    lg->labelled = lab.status != HS_LABEL_SKIP;
    lg->black_margin = lab.black_margin;
    lg->yose_moves = lab.yose_moves;
    return lab.status == HS_LABEL_OK ? s_samples(w, i, &lab, err) : 0;
}

static void *s_worker_main(void *arg)
{
    s_worker_t *w = arg;
    s_pool_t *p = w->pool;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->next < p->run->n && p->next >= p->written + p->window)
            pthread_cond_wait(&p->cv_space, &p->mu);
        if (p->stop || p->next >= p->run->n)
            break;
        int i = p->next++;
        pthread_mutex_unlock(&p->mu);
        hs_error_t err;
        hs_error_clear(&err);
        int rc = s_label_one(w, i, &err);
        pthread_mutex_lock(&p->mu);
        if (rc && !p->rc) {
            p->rc = rc;
            p->err = err;
        }
        if (rc)
            p->stop = true;
        p->run->games[i].done = true;
        pthread_cond_broadcast(&p->cv_done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ------------------------------------------------------------ evaluators */

static int s_worker_open(s_worker_t *w, const hs__label_run_t *run, int nthreads, hs_error_t *err)
{
    const hs__label_opts_t *o = run->o;
    w->gp = malloc(sizeof *w->gp);
    if (!w->gp)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    if (!run->model) {
        hs_mcts_rollout_config_t rc;
        hs_mcts_rollout_config_default(&rc);
        rc.threads = 1;   /* the parallelism is one game per thread */
        rc.seed = o->seed;
        return hs_mcts_rollout_evaluator_create(&rc, &w->ev, err);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    hs_nn_backend_config_t bc = {
        .kind = hs_nn_backend_default(), .max_batch = 8,
        .threads = cores > nthreads ? (int)(cores / nthreads) : 1,
    };
    int rc = o->backend ? hs_nn_backend_parse(o->backend, &bc.kind, err) : 0;
    if (!rc)
        rc = hs_nn_evaluator_create(run->model, &bc, &w->nn, err);
    if (!rc)
        rc = hs_mcts_net_evaluator_create(w->nn, o->seed, &w->ev, err);
    return rc;
}

static void s_worker_close(s_worker_t *w)
{
    hs_mcts_evaluator_free(&w->ev);
    hs_nn_evaluator_free(&w->nn);
    free(w->gp);
    w->gp = NULL;
}

/* ------------------------------------------------------------ shards */

/* The open shard of each split and size, and how many of each were opened. */
typedef struct s_shards {
    hs_shard_writer_t *w[2][HS_NN_MAX_SIZE + 1];
    int next[2][HS_NN_MAX_SIZE + 1];
    char name[2][HS_NN_MAX_SIZE + 1][64];
} s_shards_t;

static int s_shard_close(hs__label_run_t *run, s_shards_t *sh, int val, int size, hs_error_t *err)
{
    if (run->nshards == run->capshards) {
        int cap = run->capshards ? 2 * run->capshards : 16;
        hs__label_shard_t *s = realloc(run->shards, (size_t)cap * sizeof *s);
        if (!s)
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        run->shards = s;
        run->capshards = cap;
    }
    hs__label_shard_t *s = &run->shards[run->nshards];
    snprintf(s->file, sizeof s->file, "%s", sh->name[val][size]);
    s->val = val;
    s->size = size;
    s->samples = hs_shard_writer_count(sh->w[val][size]);
    int rc = hs_shard_writer_close(&sh->w[val][size], err);
    if (!rc)
        run->nshards++;
    return rc;
}

static int s_shard_put(hs__label_run_t *run, s_shards_t *sh, int val, int size,
                       const hs_shard_sample_t *s, hs_error_t *err)
{
    if (!sh->w[val][size]) {
        char path[4096];
        snprintf(sh->name[val][size], sizeof sh->name[val][size], "%s-%dx%d-%04d.hss",
                 val ? "val" : "train", size, size, sh->next[val][size]++);
        snprintf(path, sizeof path, "%s/%s", run->o->out, sh->name[val][size]);
        int rc = hs_shard_writer_open(path, size, &sh->w[val][size], err);
        if (rc)
            return rc;
    }
    int rc = hs_shard_write(sh->w[val][size], s, err);
    if (!rc && hs_shard_writer_count(sh->w[val][size]) >= (uint64_t)run->o->shard_samples)
        rc = s_shard_close(run, sh, val, size, err);
    return rc;
}

/* Game i's samples into the shards; its buffer freed; the totals counted. */
static int s_emit(hs__label_run_t *run, s_shards_t *sh, int i, hs_error_t *err)
{
    hs__label_game_t *lg = &run->games[i];
    int rc = 0;
    for (int k = 0; !rc && k < lg->nbuf; k++)
        rc = s_shard_put(run, sh, lg->val, lg->game.size, &lg->buf[k], err);
    free(lg->buf);
    lg->buf = NULL;
    *(lg->val ? &run->samples_val : &run->samples_train) += (uint64_t)lg->nbuf;
    lg->nbuf = 0;
    run->ok += lg->status == HS_LABEL_OK;
    run->miss += lg->status == HS_LABEL_MISS;
    run->skip += lg->status == HS_LABEL_SKIP;
    return rc;
}

static int s_shards_finish(hs__label_run_t *run, s_shards_t *sh, bool keep, hs_error_t *err)
{
    int rc = 0;
    for (int v = 0; v < 2; v++)
        for (int n = 0; n <= HS_NN_MAX_SIZE; n++) {
            if (!sh->w[v][n])
                continue;
            if (keep && !rc)
                rc = s_shard_close(run, sh, v, n, err);
            else
                hs_shard_writer_abort(&sh->w[v][n]);
        }
    return rc;
}

/* ------------------------------------------------------------ progress */

static void s_progress(const hs__label_run_t *run, int done, FILE *out)
{
    double t = hs_clock_now() - run->t0;
    double rate = t > 0 ? done / t : 0;
    double eta = rate > 0 ? (run->n - done) / rate : 0;
    fprintf(out, "label: %d/%d games (ok %d, miss %d, skip %d), %llu samples, %.2f games/s, "
                 "ETA %.0f s\n", done, run->n, run->ok, run->miss, run->skip,
            (unsigned long long)(run->samples_train + run->samples_val), rate, eta);
    fflush(out);
}

/* ------------------------------------------------------------ the run */

/* Writes games in order as they are done. 0 or the first error. */
static int s_write_in_order(s_pool_t *p, s_shards_t *sh, FILE *progress, hs_error_t *err)
{
    hs__label_run_t *run = p->run;
    double every = progress && isatty(fileno(progress)) ? 1.0 : 10.0, last = hs_clock_now();
    int rc = 0;
    for (int i = 0; i < run->n && !rc; i++) {
        pthread_mutex_lock(&p->mu);
        while (!run->games[i].done && !p->stop)
            pthread_cond_wait(&p->cv_done, &p->mu);
        bool stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            break;
        rc = s_emit(run, sh, i, err);
        pthread_mutex_lock(&p->mu);
        p->written = i + 1;
        p->stop = p->stop || rc;
        pthread_cond_broadcast(&p->cv_space);
        pthread_mutex_unlock(&p->mu);
        if (progress && hs_clock_now() - last >= every) {
            s_progress(run, i + 1, progress);
            last = hs_clock_now();
        }
    }
    return rc;
}

int hs__label_all(hs__label_run_t *run, FILE *progress, hs_error_t *err)
{
    int nthreads = run->o->threads < run->n ? run->o->threads : run->n;
    nthreads = nthreads > 0 ? nthreads : 1;
    s_pool_t p = { .run = run, .window = 4 * nthreads + 4 };
    s_worker_t *ws = calloc((size_t)nthreads, sizeof *ws);
    s_shards_t *sh = calloc(1, sizeof *sh);
    if (!ws || !sh) {
        free(ws);
        free(sh);
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv_done, NULL);
    pthread_cond_init(&p.cv_space, NULL);
    int rc = 0;
    for (int t = 0; t < nthreads && !rc; t++) {
        ws[t].pool = &p;
        rc = s_worker_open(&ws[t], run, nthreads, err);
    }
    for (int t = 0; t < nthreads && !rc; t++) {
        ws[t].started = pthread_create(&ws[t].tid, NULL, s_worker_main, &ws[t]) == 0;
        if (!ws[t].started)
            rc = hs_error_set(err, HS_EIO, "cannot start labelling thread %d", t + 1);
    }
    if (!rc)
        rc = s_write_in_order(&p, sh, progress, err);
    pthread_mutex_lock(&p.mu);
    p.stop = true;
    pthread_cond_broadcast(&p.cv_space);
    pthread_mutex_unlock(&p.mu);
    for (int t = 0; t < nthreads; t++)
        if (ws[t].started)
            pthread_join(ws[t].tid, NULL);
    if (!rc && p.rc) {
        rc = p.rc;
        *err = p.err;
    }
    int frc = s_shards_finish(run, sh, rc == 0, err);
    rc = rc ? rc : frc;
    if (!rc && progress)
        s_progress(run, run->n, progress);
    for (int t = 0; t < nthreads; t++)
        s_worker_close(&ws[t]);
    pthread_cond_destroy(&p.cv_space);
    pthread_cond_destroy(&p.cv_done);
    pthread_mutex_destroy(&p.mu);
    free(ws);
    free(sh);
    return rc;
}

void hs__label_run_fini(hs__label_run_t *run)
{
    for (int i = 0; i < run->n; i++) {
        hs_game_fini(&run->games[i].game);
        free(run->games[i].source);
        free(run->games[i].buf);
    }
    free(run->games);
    free(run->shards);
    run->games = NULL;
    run->shards = NULL;
    run->n = run->cap = run->nshards = run->capshards = 0;
}
