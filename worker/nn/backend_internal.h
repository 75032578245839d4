/*
 * worker/nn/backend_internal.h — what a backend implementation gives
 * backend.c: a const table of three operations. backend.c owns dispatch,
 * argument checks and messages common to all; an implementation only
 * computes.
 */
#ifndef HS_WORKER_NN_BACKEND_INTERNAL_H
#define HS_WORKER_NN_BACKEND_INTERNAL_H

#include "worker/nn/backend.h"

typedef struct hs__nn_backend_ops {
    hs_nn_backend_kind_t kind;
    /* cfg is checked (max_batch >= 1, V7 inputs); state is private. */
    int (*create)(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg, void **state,
                  hs_error_t *err);
    void (*destroy)(void *state);
    /* batch in 1..max_batch, n in 2..19: checked by backend.c */
    int (*run)(void *state, int batch, int n, const float *spatial, const float *global,
               hs_nn_raw_t *raw, hs_error_t *err);
    /* CPU seconds its own threads (not the caller's) spent so far; NULL when
     * it starts none. */
    double (*helper_cpu)(void *state);
} hs__nn_backend_ops_t;

#ifdef HS_HAVE_DNNL
extern const hs__nn_backend_ops_t hs__nn_backend_dnnl;   /* dnnl/backend_dnnl.c */
#endif
#ifdef HS_HAVE_CUDNN
extern const hs__nn_backend_ops_t hs__nn_backend_cuda;   /* cuda/backend_cuda.c */
/* Number of CUDA devices present (0 when none or the driver is missing);
 * why none, into err. */
int hs__nn_cuda_devices(hs_error_t *err);
#endif

#endif
