/*
 * worker/nn/dnnl/dnnl_internal.h — the oneDNN cpu backend's private pieces,
 * shared by its three files: backend_dnnl.c (create, run, the plan cache),
 * dnnl_plan.c (one execution plan per batch size and board side: the
 * primitives and buffers of the whole forward pass) and dnnl_own.c (the
 * loops oneDNN has no primitive for: global pooling and the heads' small
 * dense layers, on plain NCHW data).
 *
 * Formats: oneDNN picks the activation format (format_tag any on the trunk's
 * 3x3 convolution); every trunk tensor of a plan then uses that one format,
 * so no reorders run between layers. Weights are reordered into whatever
 * format a convolution asks for once, when a plan first needs that format
 * (the first plan is built at create), and shared by all later plans.
 */
#ifndef HS_WORKER_NN_DNNL_INTERNAL_H
#define HS_WORKER_NN_DNNL_INTERNAL_H

#include <dnnl.h>
#include <dnnl_debug.h>
#include <stdint.h>

#include "worker/nn/backend_internal.h"

#define HS__DNNL_PLANS 8        /* cached (batch, n) plans */
#define HS__DNNL_MAX_ARGS 6        /* a binary with post-op + scratchpad: 5 */

/* Checks one oneDNN call; on failure returns the HS_E* with a message that
 * names the call. Used only in functions that return int status. */
#define HS__DNNL_TRY(call, err)                                                \
    do {                                                                       \
        dnnl_status_t hs_st_ = (call);                                         \
        if (hs_st_ != dnnl_success)                                            \
            return hs__dnnl_fail(hs_st_, #call, err);                          \
    } while (0)

int hs__dnnl_fail(dnnl_status_t st, const char *call, hs_error_t *err);

/* A convolution's weights reordered into one format (one per format asked). */
typedef struct hs__dnnl_wcache {
    const hs_nn_conv_t *conv;
    dnnl_memory_desc_t md;
    dnnl_memory_t mem;
} hs__dnnl_wcache_t;

typedef enum hs__dnnl_own {
    HS__OWN_NONE = 0,
    HS__OWN_GLOBAL,    /* input_global dense into the (batch, C) bias */
    HS__OWN_GPOOL,     /* a gpool block: pool g, gmul into t's bias */
    HS__OWN_HEADS      /* policy and value heads from the plain head conv */
} hs__dnnl_own_t;

typedef struct hs__dnnl_step {
    dnnl_primitive_t prim;           /* NULL for an own step */
    dnnl_memory_t scratch;           /* its scratchpad, or NULL */
    int nargs;
    dnnl_exec_arg_t args[HS__DNNL_MAX_ARGS];
    hs__dnnl_own_t own;
    const hs_nn_block_t *blk;        /* HS__OWN_GPOOL */
    float *in, *out;                 /* own steps' buffers */
    int stride;                      /* out's floats per board (padded C) */
} hs__dnnl_step_t;

/* A buffer of a plan, shared between the layers that play the same role. */
typedef struct hs__dnnl_buf {
    int role;
    dnnl_memory_desc_t md;
    dnnl_memory_t mem;
} hs__dnnl_buf_t;

typedef struct hs__dnnl_plan {
    int batch, n;                    /* 0 = empty slot */
    uint64_t used;                   /* LRU clock */
    dnnl_format_tag_t act_tag;       /* the activation format oneDNN chose */
    int winograd;                    /* 3x3 convolutions use Winograd */
    int n_steps, cap_steps;
    hs__dnnl_step_t *steps;
    int n_bufs, cap_bufs;
    hs__dnnl_buf_t *bufs;
    int n_mems, cap_mems;            /* other memories to free (parameters) */
    dnnl_memory_t *mems;
    dnnl_memory_t user_in;           /* the caller's spatial input, set per run */
    size_t scratch_size;             /* the largest step's scratchpad */
    void *scratch;
    /* per run: the caller's global inputs and outputs, for own steps */
    const float *run_global;
    hs_nn_raw_t *run_raw;
} hs__dnnl_plan_t;

#define HS__DNNL_TEAM_MAX 256   /* OpenMP threads whose CPU is counted */

typedef struct hs__dnnl_ctx {
    const hs_nn_model_t *m;
    int threads;
    dnnl_engine_t eng;
    int engine_made;
    dnnl_stream_t stream;
    int n_w, cap_w;
    hs__dnnl_wcache_t *w;
    hs_nn_conv_t heads;              /* p1conv | g1conv | v1conv as one 1x1 conv */
    int force_winograd;              /* HS_DNNL_WINOGRAD: -1 measure, 0 never, 1 always */
    uint64_t clock;
    hs__dnnl_plan_t plans[HS__DNNL_PLANS];
    /* CPU of the OpenMP team's other threads: the last reading of each
     * thread's clock, and their sum of increases since creation */
    double team_seen[HS__DNNL_TEAM_MAX];
    double team_cpu;
    /* A run of a batch size without a plan of its own pads up to the next
     * power of two (capped at max_batch) through these max_batch-board
     * buffers: building and timing a plan costs far more than the padding. */
    int max_batch;
    float *pad_spatial, *pad_global;
    hs_nn_raw_t *pad_raw;
} hs__dnnl_ctx_t;

/* Builds the plan for (batch, n) into p (an empty slot). On error p is left
 * for hs__dnnl_plan_free. */
int hs__dnnl_plan_build(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int batch, int n,
                        hs_error_t *err);
void hs__dnnl_plan_free(hs__dnnl_plan_t *p);

/* Executes every step of p. */
int hs__dnnl_plan_exec(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, hs_error_t *err);

/* Own steps (dnnl_own.c), on plain NCHW buffers. */
/* gb and tb: board b's channel c at b * stride + c (the blocked format's
 * padded channel count; the padding is left as it is, zero). */
void hs__dnnl_own_global(const hs_nn_model_t *m, int batch, const float *global, float *gb,
                         int stride);
void hs__dnnl_own_gpool(const hs_nn_block_t *b, int batch, int n, const float *g, float *tb,
                        int stride);
void hs__dnnl_own_heads(const hs_nn_model_t *m, int batch, int n, float *h,
                        hs_nn_raw_t *raw);

#endif
