/*
 * bench/bench_net.c — raw backend speed, no evaluator: random but valid
 * inputs (plane 0, "on the board", all ones; the other planes and the global
 * values random 0/1), one warm-up run, then hs_nn_backend_run repeatedly for
 * S seconds. Prints exactly one line:
 *   bench_net backend=cpu batch=B threads=T evals=N seconds=S evals_per_s=X
 * (evals = boards evaluated). bench/net.sh runs it beside its peers.
 *
 *   bench_net MODEL --backend cpu|ref|cuda --batch B [--seconds S]
 *             [--threads T] [--board N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "worker/nn/backend.h"

typedef struct opts {
    const char *model;
    hs_nn_backend_kind_t kind;
    int batch, threads, board;
    double seconds;
} opts_t;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int s_usage(void)
{
    fprintf(stderr, "usage: bench_net MODEL --backend cpu|ref|cuda --batch B [--seconds S] "
                    "[--threads T] [--board N]\n");
    return 2;
}

static int s_args(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){NULL, HS_NN_BACKEND_CPU, 0, 0, HS_NN_MAX_SIZE, 5.0};
    hs_error_t err;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-' && !o->model) { o->model = a; continue; }
        if (!v)
            return s_usage();
        i++;
        if (!strcmp(a, "--backend")) {
            if (hs_nn_backend_parse(v, &o->kind, &err)) {
                fprintf(stderr, "bench_net: %s\n", err.msg);
                return 2;
            }
        } else if (!strcmp(a, "--batch")) o->batch = atoi(v);
        else if (!strcmp(a, "--seconds")) o->seconds = atof(v);
        else if (!strcmp(a, "--threads")) o->threads = atoi(v);
        else if (!strcmp(a, "--board")) o->board = atoi(v);
        else return s_usage();
    }
    if (!o->model || o->batch < 1 || o->seconds <= 0 || o->board < 2 || o->board > HS_NN_MAX_SIZE)
        return s_usage();
    return 0;
}

static void s_inputs(int batch, int n, float *sp, float *gl)
{
    hs_rng_t rng;
    hs_rng_seed(&rng, 12);
    size_t a = (size_t)n * (size_t)n;
    for (int b = 0; b < batch; b++) {
        float *s = sp + (size_t)b * HS_NN_SPATIAL * a;
        for (size_t k = 0; k < HS_NN_SPATIAL * a; k++)
            s[k] = k < a ? 1.0f : (float)(hs_rng_next(&rng) % 8 == 0);
        for (int k = 0; k < HS_NN_GLOBAL; k++)
            gl[(size_t)b * HS_NN_GLOBAL + (size_t)k] = (float)(hs_rng_next(&rng) % 2);
    }
}

int main(int argc, char **argv)
{
    opts_t o;
    if (s_args(argc, argv, &o))
        return 2;
    hs_error_t err;
    hs_nn_model_t *m = NULL;
    hs_nn_backend_t *be = NULL;
    hs_nn_backend_config_t cfg = {o.kind, o.batch, o.threads, 0};
    if (hs_nn_model_load(o.model, &m, &err) || hs_nn_backend_create(m, &cfg, &be, &err)) {
        fprintf(stderr, "bench_net: %s\n", err.msg);
        hs_nn_model_free(&m);
        return 1;
    }
    size_t a = (size_t)o.board * (size_t)o.board;
    float *sp = malloc((size_t)o.batch * HS_NN_SPATIAL * a * sizeof *sp);
    float *gl = malloc((size_t)o.batch * HS_NN_GLOBAL * sizeof *gl);
    hs_nn_raw_t *raw = malloc((size_t)o.batch * sizeof *raw);
    int rc = sp && gl && raw ? 0 : 1;
    if (!rc)
        s_inputs(o.batch, o.board, sp, gl);
    if (!rc && hs_nn_backend_run(be, o.batch, o.board, sp, gl, raw, &err))   /* warm-up */
        rc = 1;
    long evals = 0;
    double t0 = s_now(), t = 0;
    while (!rc && t < o.seconds) {
        if (hs_nn_backend_run(be, o.batch, o.board, sp, gl, raw, &err))
            rc = 1;
        evals += o.batch;
        t = s_now() - t0;
    }
    if (rc)
        fprintf(stderr, "bench_net: %s\n", err.msg);
    else
        printf("bench_net backend=%s batch=%d threads=%d evals=%ld seconds=%.2f evals_per_s=%.1f\n",
               hs_nn_backend_kind_name(o.kind), o.batch, o.threads, evals, t, (double)evals / t);
    free(sp); free(gl); free(raw);
    hs_nn_backend_free(&be);
    hs_nn_model_free(&m);
    return rc;
}
