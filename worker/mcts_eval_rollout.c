/*
 * worker/mcts_eval_rollout.c — the rollout evaluator's thread pool
 * (worker/mcts_eval.h); the per-leaf work is in mcts_eval_playout.c.
 *
 * A call's leaves are shared out through one atomic counter: each thread
 * takes the next unevaluated leaf until none is left. The calling thread
 * works too (it would only wait otherwise), so the pool starts threads - 1
 * helpers and threads = 1 runs with no thread and no hand-over at all.
 * Each leaf's result depends only on the seed and the leaf (its own
 * generator, seeded from its board key), never on which thread took it or
 * in what order, so results do not depend on the number of threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "worker/mcts_eval.h"
#include "worker/mcts_eval_internal.h"

/* Leaves per call when the config gives none, per thread: enough that every
 * thread stays busy while the leaves' costs differ. */
#define S_BATCH_PER_THREAD 16

typedef struct s_pool {
    hs_mcts_rollout_config_t cfg;
    int helpers;                 /* threads started besides the caller */
    pthread_t *tids;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long job;           /* bumped for every call the helpers join */
    int busy;                    /* helpers still on the current call */
    bool quit;
    /* The current call. */
    const hs_nn_pos_t *pos;
    hs_mcts_eval_t *out;
    int n;
    atomic_int next;
    hs__mcts_pat3_t pat3;        /* the playouts' shapes, built once at create */
} s_pool_t;

/* Evaluates leaves until the call has none left. */
static void s_work(s_pool_t *p)
{
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            return;
        hs__mcts_rollout_leaf(&p->pos[i], p->cfg.playouts, p->cfg.self_atari_max,
                              p->cfg.patterns ? &p->pat3 : NULL, p->cfg.seed, &p->out[i]);
    }
}

static void *s_helper(void *arg)
{
    s_pool_t *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->job == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->job;
        pthread_mutex_unlock(&p->mu);
        s_work(p);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static int s_eval(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out, hs_error_t *err)
{
    s_pool_t *p = ctx;
    if (n < 0 || n > p->cfg.max_batch)
        return hs_error_set(err, HS_EINVAL, "rollout evaluator: %d leaves (at most %d a call)", n,
                            p->cfg.max_batch);
    for (int i = 0; i < n; i++) {
        int size = pos[i].board->size;
        if (size < HS_BOARD_MIN_SIZE || size > HS_NN_MAX_SIZE
            || (pos[i].to_move != HS_BLACK && pos[i].to_move != HS_WHITE))
            return hs_error_set(err, HS_EINVAL, "rollout evaluator: leaf %d: board %d, colour %d",
                                i, size, (int)pos[i].to_move);
    }
    p->pos = pos;
    p->out = out;
    p->n = n;
    atomic_store(&p->next, 0);
    /* Wake the helpers only when there is more than one leaf to share. */
    bool share = p->helpers > 0 && n > 1;
    if (share) {
        pthread_mutex_lock(&p->mu);
        p->job++;
        p->busy = p->helpers;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    s_work(p);
    if (share) {
        pthread_mutex_lock(&p->mu);
        while (p->busy > 0)
            pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
    return 0;
}

/* Stops and joins the `started` helpers, frees everything. */
static void s_destroy(void *ctx)
{
    s_pool_t *p = ctx;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->helpers; i++)
        pthread_join(p->tids[i], NULL);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->tids);
    free(p);
}

static double s_helper_cpu(void *ctx)
{
    s_pool_t *p = ctx;
    double sum = 0.0;
    for (int i = 0; i < p->helpers; i++) {
        clockid_t cid;
        struct timespec ts;
        if (pthread_getcpuclockid(p->tids[i], &cid) == 0 && clock_gettime(cid, &ts) == 0)
            sum += (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    return sum;
}

void hs_mcts_rollout_config_default(hs_mcts_rollout_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->playouts = 1;
    cfg->threads = 0;
    cfg->max_batch = 0;
    cfg->self_atari_max = 2;
    cfg->patterns = 1;
    cfg->seed = 0;
}

/* Fills the config's zeros (threads, max_batch) in; HS_EINVAL for bad values. */
static int s_resolve(const hs_mcts_rollout_config_t *in, hs_mcts_rollout_config_t *cfg,
                     hs_error_t *err)
{
    *cfg = *in;
    if (cfg->playouts < 1 || cfg->threads < 0 || cfg->max_batch < 0 || cfg->self_atari_max < 0)
        return hs_error_set(err, HS_EINVAL,
                            "rollout evaluator: playouts %d (>= 1), threads %d, max_batch %d, "
                            "self_atari_max %d (>= 0)", cfg->playouts, cfg->threads,
                            cfg->max_batch, cfg->self_atari_max);
    if (cfg->threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        cfg->threads = cores > 0 ? (int)(cores < 1024 ? cores : 1024) : 1;
    }
    if (cfg->max_batch == 0)
        cfg->max_batch = S_BATCH_PER_THREAD * cfg->threads;
    return 0;
}

int hs_mcts_rollout_evaluator_create(const hs_mcts_rollout_config_t *cfg,
                                     hs_mcts_evaluator_t *out, hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    s_pool_t *p = calloc(1, sizeof *p);
    if (!p)
        return hs_error_set(err, HS_ENOMEM, "rollout evaluator: out of memory");
    int rc = s_resolve(cfg, &p->cfg, err);
    if (rc) {
        free(p);
        return rc;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    hs__mcts_pat3_init(&p->pat3);
    int want = p->cfg.threads - 1;
    p->tids = malloc((size_t)(want > 0 ? want : 1) * sizeof *p->tids);
    if (!p->tids) {
        s_destroy(p);
        return hs_error_set(err, HS_ENOMEM, "rollout evaluator: out of memory");
    }
    for (; p->helpers < want; p->helpers++) {
        int e = pthread_create(&p->tids[p->helpers], NULL, s_helper, p);
        if (e) {
            int which = p->helpers + 2;
            s_destroy(p);    /* joins the ones started */
            return hs_error_set(err, HS_EIO, "rollout evaluator: thread %d of %d: %s", which,
                                want + 1, strerror(e));
        }
    }
    out->eval = s_eval;
    out->ctx = p;
    out->max_batch = p->cfg.max_batch;
    out->name = "rollout";
    out->destroy = s_destroy;
    out->helper_cpu = s_helper_cpu;
    return 0;
}
