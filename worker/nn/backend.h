/*
 * worker/nn/backend.h — the one interface every net backend implements: take
 * a batch of positions' inputs, return their raw outputs. Chosen at run time
 * (`--backend ref|cpu|cuda`).
 *
 *   ref   the plain-C FP32 reference (forward_ref.c): slow, always built; the
 *         yardstick the others are tested against.
 *   cpu   oneDNN (dnnl/backend_dnnl.c), where the build found libdnnl; FP32.
 *   cuda  cuDNN 9 + cuBLAS, FP16 on tensor cores (worker/nn/cuda/), where
 *         the build found CUDA and cuDNN (HS_CUDNN) and a GPU is present.
 *
 * A backend knows nothing of Go: inputs are V7 features as hs_nn_features
 * lays them out (already transformed by the symmetry the caller chose), one
 * board side n for the whole batch; outputs are hs_nn_raw_t in the same
 * (symmetric) frame. Symmetry, legality and post-processing live in the
 * evaluator (worker/nn/eval.h), shared by every backend.
 *
 * Ownership: a backend borrows its model, which must outlive it (the fast
 * backends copy the weights into their own layouts at creation, once; the
 * ref backend reads the model on every run).
 *
 * Threads: one instance is used by one thread at a time; it may use many
 * threads (cpu) or streams (cuda) inside a call.
 */
#ifndef HS_WORKER_NN_BACKEND_H
#define HS_WORKER_NN_BACKEND_H

#include <stdbool.h>

#include "core/error.h"
#include "worker/nn/forward.h"

typedef enum hs_nn_backend_kind {
    HS_NN_BACKEND_REF = 0,
    HS_NN_BACKEND_CPU,
    HS_NN_BACKEND_CUDA
} hs_nn_backend_kind_t;

typedef struct hs_nn_backend_config {
    hs_nn_backend_kind_t kind;
    int max_batch;      /* the largest batch run() will be given (>= 1) */
    int threads;        /* cpu: threads to use, 0 = every core */
    int gpu;            /* cuda: device ordinal */
} hs_nn_backend_config_t;

typedef struct hs_nn_backend hs_nn_backend_t;

/* "ref", "cpu" or "cuda" into *kind; HS_EINVAL naming the word otherwise. */
int hs_nn_backend_parse(const char *word, hs_nn_backend_kind_t *kind, hs_error_t *err);

/* The kind's name ("cpu"). Static storage. */
const char *hs_nn_backend_kind_name(hs_nn_backend_kind_t kind);

/* Whether this build has the kind and, for cuda, a GPU is present. When not,
 * false and *err (may be NULL) says why ("this build has no oneDNN: ..."). */
bool hs_nn_backend_available(hs_nn_backend_kind_t kind, hs_error_t *err);

/* cuda where available, else cpu where built, else ref. */
hs_nn_backend_kind_t hs_nn_backend_default(void);

/* The batch size that suits the kind when the user gives none. */
int hs_nn_backend_default_batch(hs_nn_backend_kind_t kind);

/* Creates a backend for model m into *out (free with hs_nn_backend_free).
 * HS_EUNSUPPORTED when the kind is not built or no GPU is present, HS_EINVAL
 * for a model with other than V7 inputs or a bad config, HS_ENOMEM, or the
 * library's error (message names the failing call). */
int hs_nn_backend_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg,
                         hs_nn_backend_t **out, hs_error_t *err);

/* Frees and sets *b to NULL; NULL-safe. */
void hs_nn_backend_free(hs_nn_backend_t **b);

/* Runs batch (1..max_batch) positions on an n x n grid (2 <= n <= 19):
 * spatial is [batch][HS_NN_SPATIAL][n][n], global [batch][HS_NN_GLOBAL];
 * fills raw[0..batch). 0 or a negative HS_E* with *err; on error raw is
 * undefined but the backend stays usable. */
int hs_nn_backend_run(hs_nn_backend_t *b, int batch, int n, const float *spatial,
                      const float *global, hs_nn_raw_t *raw, hs_error_t *err);

/* CPU seconds the backend's own threads (oneDNN's OpenMP team, not the
 * calling thread) have spent since creation, so that callers who measure the
 * CPU inside the net on their own thread can add it; 0 for a backend that
 * starts no threads. */
double hs_nn_backend_helper_cpu(const hs_nn_backend_t *b);

/* The kind this backend runs, and its max_batch. */
hs_nn_backend_kind_t hs_nn_backend_kind(const hs_nn_backend_t *b);
int hs_nn_backend_max_batch(const hs_nn_backend_t *b);

#endif
