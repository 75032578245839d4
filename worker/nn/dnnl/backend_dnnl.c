/*
 * worker/nn/dnnl/backend_dnnl.c — the cpu backend (backend.h): oneDNN's C
 * API, FP32. Creates the engine and stream, joins the heads' three 1x1
 * convolutions into one, keeps a small LRU table of execution plans (one per
 * batch size and board side, dnnl_plan.c) and runs them.
 *
 * Winograd: the first time a shape is seen, the plan is built with direct
 * 3x3 convolutions and, where this oneDNN implements Winograd for the CPU,
 * with Winograd too; both are timed on the same input and the faster is kept
 * (docs/NET.md, "Backends"). The environment variable HS_DNNL_WINOGRAD
 * (read at create) overrides the measurement: 1 = always where available,
 * 0 = never; for tests and measurements.
 *
 * Threads: Debian's oneDNN uses OpenMP; a run sets the calling thread's
 * OpenMP team size (cfg->threads, 0 = every core the process may use)
 * before it executes, which touches only that thread's OpenMP state.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "worker/nn/dnnl/dnnl_internal.h"

int hs__dnnl_fail(dnnl_status_t st, const char *call, hs_error_t *err)
{
    int code = st == dnnl_out_of_memory ? HS_ENOMEM
             : st == dnnl_unimplemented ? HS_EUNSUPPORTED
             : st == dnnl_invalid_arguments ? HS_EINVAL : HS_EBADSTATE;
    int len = (int)strcspn(call, "(");   /* the function's name, not its arguments */
    return hs_error_set(err, code, "cpu backend: oneDNN %.*s failed: %s",
                        len, call, dnnl_status2str(st));
}

static void s_destroy(void *state)
{
    hs__dnnl_ctx_t *c = state;
    if (!c)
        return;
    for (int i = 0; i < HS__DNNL_PLANS; i++)
        hs__dnnl_plan_free(&c->plans[i]);
    for (int i = 0; i < c->n_w; i++)
        dnnl_memory_destroy(c->w[i].mem);
    free(c->w);
    free(c->heads.w);
    free(c->heads.b);
    free(c->pad_spatial);
    free(c->pad_global);
    free(c->pad_raw);
    if (c->stream)
        dnnl_stream_destroy(c->stream);
    if (c->engine_made)
        dnnl_engine_destroy(c->eng);
    free(c);
}

static int s_head_ok(const hs_nn_conv_t *cv, int in_c, const char *name, hs_error_t *err)
{
    if (cv->ky == 1 && cv->kx == 1 && cv->in_c == in_c)
        return 0;
    return hs_error_set(err, HS_EUNSUPPORTED, "cpu backend: head convolution %s is %dx%d "
                        "over %d channels; only 1x1 over the trunk's are built", name,
                        cv->ky, cv->kx, cv->in_c);
}

/* p1conv | g1conv | v1conv as one 1x1 convolution: one pass over the trunk. */
static int s_join_heads(hs__dnnl_ctx_t *c, hs_error_t *err)
{
    const hs_nn_model_t *m = c->m;
    const hs_nn_conv_t *parts[3] = {&m->p1conv, &m->g1conv, &m->v1conv};
    int C = m->trunk_c, out = 0;
    int rc = s_head_ok(&m->p1conv, C, "p1", err);
    if (!rc) rc = s_head_ok(&m->g1conv, C, "g1", err);
    if (!rc) rc = s_head_ok(&m->v1conv, C, "v1", err);
    if (!rc) rc = s_head_ok(&m->p2conv, m->p1conv.out_c, "p2", err);
    if (!rc) rc = s_head_ok(&m->own_conv, m->v1conv.out_c, "ownership", err);
    if (rc)
        return rc;
    for (int i = 0; i < 3; i++)
        out += parts[i]->out_c;
    hs_nn_conv_t *h = &c->heads;
    *h = (hs_nn_conv_t){1, 1, C, out, 1, 1, NULL, NULL, HS_NN_ACT_IDENTITY};
    h->w = malloc((size_t)out * (size_t)C * sizeof *h->w);
    h->b = calloc((size_t)out, sizeof *h->b);
    if (!h->w || !h->b)
        return hs_error_set(err, HS_ENOMEM, "cpu backend: out of memory");
    for (int i = 0, o = 0; i < 3; o += parts[i]->out_c, i++) {
        memcpy(h->w + (size_t)o * (size_t)C, parts[i]->w,
               (size_t)parts[i]->out_c * (size_t)C * sizeof *h->w);
        if (parts[i]->b)
            memcpy(h->b + o, parts[i]->b, (size_t)parts[i]->out_c * sizeof *h->b);
    }
    return 0;
}

static void s_threads(const hs__dnnl_ctx_t *c)
{
#ifdef _OPENMP
    omp_set_num_threads(c->threads > 0 ? c->threads : omp_get_num_procs());
#else
    (void)c;
#endif
}

/*
 * Reads the CPU clock of every thread of the calling thread's OpenMP team
 * but itself (the caller measures its own); with add, adds what each spent
 * since the reading before: the CPU the net's convolutions took on other
 * cores, spinning at barriers included, which a caller timing its own thread
 * would otherwise count as "outside the net". Read before and after each run
 * (two empty parallel regions), so that two backends on one thread (a
 * judge-net and a tree search's net) do not both count the team's CPU of
 * each other's runs.
 */
static void s_team_cpu(hs__dnnl_ctx_t *c, bool add)
{
#ifdef _OPENMP
    double now[HS__DNNL_TEAM_MAX] = { 0 };
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        struct timespec ts;
        if (t > 0 && t < HS__DNNL_TEAM_MAX && !clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
            now[t] = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    for (int t = 1; t < HS__DNNL_TEAM_MAX; t++) {
        if (add && now[t] > c->team_seen[t])
            c->team_cpu += now[t] - c->team_seen[t];
        c->team_seen[t] = now[t];   /* lower: the runtime started a new thread */
    }
#else
    (void)c;
    (void)add;
#endif
}

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds for one run of p (the fastest of two, after a warm-up), on
 * inputs of an empty board. */
/* Runs p `reps` times on a plain input and lowers *secs to its fastest run
 * (the first run of a plan, which faults its buffers in, is not counted). */
static int s_time_plan(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int reps, double *secs,
                       hs_error_t *err)
{
    size_t a = (size_t)p->n * (size_t)p->n;
    float *sp = calloc((size_t)p->batch * HS_NN_SPATIAL * a, sizeof *sp);
    float *gl = calloc((size_t)p->batch * HS_NN_GLOBAL, sizeof *gl);
    hs_nn_raw_t *raw = malloc((size_t)p->batch * sizeof *raw);
    int rc = sp && gl && raw ? 0 : hs_error_set(err, HS_ENOMEM, "cpu backend: out of memory");
    for (int b = 0; !rc && b < p->batch; b++)
        for (size_t k = 0; k < a; k++)
            sp[(size_t)b * HS_NN_SPATIAL * a + k] = 1.0f;   /* plane 0: on the board */
    for (int i = 0; !rc && i < reps; i++) {
        double t0 = s_now();
        dnnl_memory_set_data_handle(p->user_in, sp);
        p->run_global = gl;
        p->run_raw = raw;
        rc = hs__dnnl_plan_exec(c, p, err);
        double t = s_now() - t0;
        if (*secs >= 0 && t < *secs)
            *secs = t;
        if (*secs < 0)
            *secs = 1e30;   /* the warm-up run: not counted */
    }
    free(sp); free(gl); free(raw);
    return rc;
}

/* Builds the plan for (batch, n) into slot p, with Winograd where it is
 * available and (unless forced) measured faster. A Winograd plan that cannot
 * be built (oneDNN: unimplemented, on AVX2-only CPUs or for some shape) means
 * direct for that shape; trying again costs one failed primitive descriptor. */
static int s_build(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int batch, int n, hs_error_t *err)
{
    hs__dnnl_plan_t w = {0};
    w.winograd = 1;
    hs_error_t werr;
    if (c->force_winograd == 0 || hs__dnnl_plan_build(c, &w, batch, n, &werr)) {
        hs__dnnl_plan_free(&w);
        return hs__dnnl_plan_build(c, p, batch, n, err);
    }
    if (c->force_winograd == 1) {
        *p = w;
        return 0;
    }
    /* alternating rounds, so that a burst of other work on the machine
     * slows both kinds alike (one round each chose direct at batch 32 here,
     * where Winograd ran 1.4x faster in every longer run) */
    double td = -1, tw = -1;
    int rc = hs__dnnl_plan_build(c, p, batch, n, err);
    for (int round = 0; !rc && round < 4; round++) {
        rc = s_time_plan(c, p, round ? 1 : 2, &td, err);
        if (!rc) rc = s_time_plan(c, &w, round ? 1 : 2, &tw, err);
    }
    if (!rc && tw < td) {
        hs__dnnl_plan_free(p);
        *p = w;
    } else {
        hs__dnnl_plan_free(&w);
    }
    return rc;
}

/* The plan for (batch, n): cached, else built into the least recently used
 * slot. */
static int s_plan(hs__dnnl_ctx_t *c, int batch, int n, hs__dnnl_plan_t **out, hs_error_t *err)
{
    hs__dnnl_plan_t *lru = &c->plans[0];
    for (int i = 0; i < HS__DNNL_PLANS; i++) {
        hs__dnnl_plan_t *p = &c->plans[i];
        if (p->batch == batch && p->n == n) {
            p->used = ++c->clock;
            *out = p;
            return 0;
        }
        if (p->used < lru->used)
            lru = p;
    }
    hs__dnnl_plan_free(lru);
    int rc = s_build(c, lru, batch, n, err);
    if (rc) {
        hs__dnnl_plan_free(lru);
        return rc;
    }
    lru->used = ++c->clock;
    *out = lru;
    return 0;
}

static int s_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg, void **state,
                    hs_error_t *err)
{
    hs__dnnl_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return hs_error_set(err, HS_ENOMEM, "cpu backend: out of memory");
    c->m = m;
    c->threads = cfg->threads;
    c->max_batch = cfg->max_batch;
    c->pad_spatial = calloc((size_t)cfg->max_batch * HS_NN_SPATIAL * HS_NN_MAX_AREA,
                            sizeof *c->pad_spatial);
    c->pad_global = calloc((size_t)cfg->max_batch * HS_NN_GLOBAL, sizeof *c->pad_global);
    c->pad_raw = calloc((size_t)cfg->max_batch, sizeof *c->pad_raw);
    if (!c->pad_spatial || !c->pad_global || !c->pad_raw) {
        s_destroy(c);
        return hs_error_set(err, HS_ENOMEM, "cpu backend: out of memory");
    }
    const char *force = getenv("HS_DNNL_WINOGRAD");
    c->force_winograd = force && (*force == '0' || *force == '1') ? *force - '0' : -1;
    dnnl_status_t s = dnnl_engine_create(&c->eng, dnnl_cpu, 0);
    int rc = s == dnnl_success ? 0 : hs__dnnl_fail(s, "dnnl_engine_create", err);
    c->engine_made = !rc;
    if (!rc) {
        s = dnnl_stream_create(&c->stream, c->eng, dnnl_stream_default_flags);
        rc = s == dnnl_success ? 0 : hs__dnnl_fail(s, "dnnl_stream_create", err);
    }
    if (!rc) rc = s_join_heads(c, err);
    /* the full-size plan now: weights are reordered here, not on a run */
    hs__dnnl_plan_t *p;
    s_threads(c);
    if (!rc) rc = s_plan(c, cfg->max_batch, HS_NN_MAX_SIZE, &p, err);
    if (rc) {
        s_destroy(c);
        return rc;
    }
    *state = c;
    return 0;
}

static int s_run(void *state, int batch, int n, const float *spatial, const float *global,
                 hs_nn_raw_t *raw, hs_error_t *err)
{
    hs__dnnl_ctx_t *c = state;
    hs__dnnl_plan_t *p;
    s_threads(c);
    int bucket = 1;
    while (bucket < batch)
        bucket *= 2;
    if (bucket > c->max_batch)
        bucket = c->max_batch;
    int rc = s_plan(c, bucket, n, &p, err);
    if (rc)
        return rc;
    hs_nn_raw_t *dst = raw;
    if (bucket > batch) {   /* the padding boards hold whatever ran last: finite, unread */
        size_t a = (size_t)n * (size_t)n;
        memcpy(c->pad_spatial, spatial, (size_t)batch * HS_NN_SPATIAL * a * sizeof *spatial);
        memcpy(c->pad_global, global, (size_t)batch * HS_NN_GLOBAL * sizeof *global);
        spatial = c->pad_spatial;
        global = c->pad_global;
        raw = c->pad_raw;
    }
    /* the input is only read (by a reorder or the first convolution) */
    HS__DNNL_TRY(dnnl_memory_set_data_handle(p->user_in, (void *)spatial), err);
    p->run_global = global;
    p->run_raw = raw;
    s_team_cpu(c, false);
    rc = hs__dnnl_plan_exec(c, p, err);
    s_team_cpu(c, true);
    if (!rc && raw != dst)
        memcpy(dst, raw, (size_t)batch * sizeof *raw);
    return rc;
}

static double s_helper_cpu(void *state)
{
    return ((const hs__dnnl_ctx_t *)state)->team_cpu;
}

const hs__nn_backend_ops_t hs__nn_backend_dnnl = {
    HS_NN_BACKEND_CPU, s_create, s_destroy, s_run, s_helper_cpu
};
