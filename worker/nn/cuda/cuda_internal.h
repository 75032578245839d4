/*
 * worker/nn/cuda/cuda_internal.h — the cuda backend's private state, shared
 * by its files: backend_cuda.c (the ops table, lanes, run), cuda_weights.c
 * (the model's weights in FP16 on the device, once), cuda_plan.c (per
 * (batch, board) algorithm choices, buffers) and cuda_forward.c (one forward
 * pass enqueued on one lane). docs/NET.md "cuda backend" is the overview.
 *
 * Lanes: a run() is split over up to two lanes, each with its own stream,
 * cuDNN and cuBLAS handles, workspace, pinned host buffers and activations,
 * so that one half's copies overlap the other half's compute. Weights are
 * shared by both lanes (read only).
 *
 * Every CUDA, cuDNN and cuBLAS call goes through HS__CK, which returns from
 * the calling function with HS_EIO (HS_ENOMEM for an allocation) and the
 * message "backend cuda: cudnnXxx: <library's error string>".
 *
 * cuBLAS is not linked: its calls go through the table cuda_blas.c fills
 * when a backend is made (cu->blas_lib), which keeps its 0.3 s of load time
 * out of every process that never runs the cuda backend.
 */
#ifndef HS_WORKER_NN_CUDA_INTERNAL_H
#define HS_WORKER_NN_CUDA_INTERNAL_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "worker/nn/backend_internal.h"

#define HS__CU_LANES 2
#define HS__CU_PLANS 32              /* (batch, n) plans cached per lane */
#define HS__CU_SPLIT 16              /* batches this big are split over both lanes */
#define HS__CU_WS_MAX (256u << 20)   /* largest cuDNN workspace we accept per conv */
#define HS__CU_OUT_EXTRA 10          /* pass 1 + value 3 + score 6, between policy and ownership */

/* A status into a message, NULL for success: one per library, picked by type. */
const char *hs__cu_str_rt(cudaError_t st);
const char *hs__cu_str_dnn(cudnnStatus_t st);
const char *hs__cu_str_blas(cublasStatus_t st);
#define hs__cu_str(st) _Generic((st), cudaError_t: hs__cu_str_rt, \
                                cudnnStatus_t: hs__cu_str_dnn,    \
                                cublasStatus_t: hs__cu_str_blas)(st)
/* The cuBLAS calls the backend makes, from the library loaded at create
 * (cuda_blas.c). The fields carry the functions' names, after cublas_v2.h's
 * renames (cublasCreate is the field cublasCreate_v2), so that a call reads
 * cu->blas_lib.cublasSgemm(...) and HS__CK names it. */
typedef struct hs__cu_blas {
    void *handle;   /* dlopen's */
    __typeof__(cublasCreate) *cublasCreate;
    __typeof__(cublasDestroy) *cublasDestroy;
    __typeof__(cublasSetStream) *cublasSetStream;
    __typeof__(cublasSetMathMode) *cublasSetMathMode;
    __typeof__(cublasSgemm) *cublasSgemm;
} hs__cu_blas_t;

/* Loads cuBLAS into b: HS_EUNSUPPORTED with the loader's message when the
 * library or one of its functions is missing. hs__cu_blas_unload releases
 * it (also a b that failed or was never loaded, if zeroed). */
int hs__cu_blas_load(hs__cu_blas_t *b, hs_error_t *err);
void hs__cu_blas_unload(hs__cu_blas_t *b);

/* err <- "backend cuda: <name of the call>: msg"; HS_ENOMEM when msg says
 * memory, else HS_EIO. Returns the code. */
int hs__cu_fail(hs_error_t *err, const char *call, const char *msg);
#define HS__CK(err, call)                                           \
    do {                                                            \
        const char *hs_ck_msg_ = hs__cu_str(call);                  \
        if (hs_ck_msg_)                                             \
            return hs__cu_fail((err), #call, hs_ck_msg_);           \
    } while (0)

/* Whether st says cuDNN will not do this call for these shapes, types or
 * layouts (cuDNN 9's NOT_SUPPORTED_* and BAD_PARAM_* sub-codes included),
 * as against a failure of the device: the caller can take another route. */
static inline int hs__cu_refused(cudnnStatus_t st)
{
    int category = CUDNN_STATUS_CATEGORY((int)st);
    return category == CUDNN_STATUS_NOT_SUPPORTED || category == CUDNN_STATUS_BAD_PARAM;
}

/* How a convolution's bias and activation are applied. */
typedef enum hs__cu_mode {
    HS__CU_PLAIN = 0,   /* cudnnConvolutionForward; the caller adds bias (+ a per-board bias) */
    HS__CU_RELU,        /* fused: conv + bias + ReLU (+ residual) */
    HS__CU_IDENT        /* fused: conv + bias (+ residual), identity; then post_act by a kernel */
} hs__cu_mode_t;

typedef struct hs__cu_conv {
    int in_c, out_c, ky, kx;        /* in_c padded for the input conv */
    hs__cu_mode_t mode;
    int post_act;                   /* IDENT: activation our kernel applies after (0: none) */
    int act;                        /* PLAIN: the model's activation, for the caller */
    cudnnFilterDescriptor_t wdesc;  /* FP16, NHWC (KRSC) */
    cudnnConvolutionDescriptor_t cdesc;
    cudnnTensorDescriptor_t bdesc;  /* 1 x out_c x 1 x 1 FP16 */
    void *w;                        /* FP16 [out][ky][kx][in] */
    void *bh;                       /* FP16 bias, zeros where the model has none */
    float *bf;                      /* FP32 bias or NULL (PLAIN convs) */
} hs__cu_conv_t;

typedef struct hs__cu_dense {
    int in_c, out_c, act;
    float *w;                       /* FP32 [in][out] as in the model */
    float *b;                       /* FP32 [out] or NULL */
} hs__cu_dense_t;

typedef struct hs__cu_norm {
    int c, act;
    float *scale, *bias;
} hs__cu_norm_t;

/* The model's block tree with our indices (into convs, dens, norms). */
typedef struct hs__cu_block {
    hs_nn_block_kind_t kind;
    int pre, post;                  /* norms (post: NESTED) */
    int conv1, conv2, gconv;        /* gconv: GPOOL */
    int gmul;                       /* dense, GPOOL */
    int n_inner;
    struct hs__cu_block *inner;
} hs__cu_block_t;

/* Choices for one (batch, n): tensor descriptors and algorithms per conv. */
typedef struct hs__cu_plan {
    int batch, n;                   /* 0: unused slot */
    cudnnTensorDescriptor_t *xd, *yd;        /* [n_convs] */
    cudnnConvolutionFwdAlgo_t *algo;         /* [n_convs] */
    /* [n_convs]: 1 where cuDNN refused the fused call for this shape (at plan
     * time or at its first run): plain conv + our bias/act kernel instead */
    unsigned char *unfused;
} hs__cu_plan_t;

typedef struct hs__cu_lane {
    int cap;                        /* most boards this lane runs at once */
    cudaStream_t stream;
    cudnnHandle_t dnn;
    cublasHandle_t blas;
    void *ws;
    size_t ws_size;
    float *in_h, *out_h;            /* pinned: inputs, packed outputs */
    float *in_d, *out_d;            /* device copies */
    void *x_in, *x, *t;             /* FP16: padded input, trunk, trunk tip */
    void *pre[HS_NN_MAX_NESTING + 1], *mid[HS_NN_MAX_NESTING + 1];
    void *ha, *hb;                  /* FP16 scratch: gpool conv, heads */
    float *pool, *va, *vb;          /* FP32 [cap][vec]: pooled, dense outputs */
    hs__cu_plan_t plans[HS__CU_PLANS];
    int next_evict;
} hs__cu_lane_t;

typedef struct hs__cu {
    const hs_nn_model_t *m;
    int device;
    int cpad;                       /* input planes padded to a multiple of 8 */
    int cmax;                       /* widest FP16 tensor (channels) */
    int vec;                        /* widest FP32 vector per board */
    int depth;                      /* nesting depth of the block tree (1: flat) */
    hs__cu_conv_t *convs;
    int n_convs, cap_convs;
    hs__cu_dense_t *dens;
    int n_dens, cap_dens;
    hs__cu_norm_t *norms;
    int n_norms, cap_norms;
    hs__cu_block_t *blocks;         /* [m->n_blocks] */
    int input_conv, p1, g1, p2, v1, own;              /* convs */
    int input_global, p_gmul, pass1, pass2, v2, v3, sv3;   /* dens (pass2 -1: none) */
    int tip;                        /* norm */
    cudnnActivationDescriptor_t relu, ident;
    hs__cu_blas_t blas_lib;
    hs__cu_lane_t lane[HS__CU_LANES];
    int n_lanes;
} hs__cu_t;

/* cuda_weights.c: every layer of cu->m onto the device (cu->device current),
 * the block mirror, cpad/cmax/vec/depth. hs__cu_weights_free undoes it (also
 * after a partial upload). */
int hs__cu_weights_upload(hs__cu_t *cu, hs_error_t *err);
void hs__cu_weights_free(hs__cu_t *cu);

/* cuda_plan.c: a lane's stream, handles and buffers for cap boards; its
 * release (NULL-safe parts, also after a partial init). */
int hs__cu_lane_init(hs__cu_t *cu, hs__cu_lane_t *l, int cap, hs_error_t *err);
void hs__cu_lane_fini(hs__cu_t *cu, hs__cu_lane_t *l);
/* The plan for (batch, n) on lane l: cached, or built now (descriptors, the
 * algorithm of every conv, the workspace grown to fit). */
int hs__cu_plan_get(hs__cu_t *cu, hs__cu_lane_t *l, int batch, int n, const hs__cu_plan_t **out,
                    hs_error_t *err);

/* cuda_forward.c: enqueues on l's stream the pass over l->in_d (batch boards
 * of side n: spatial FP32 NCHW then global) into l->out_d (per board:
 * policy[n*n], pass, value[3], score[6], ownership[n*n]). */
int hs__cu_forward(hs__cu_t *cu, hs__cu_lane_t *l, const hs__cu_plan_t *p, int batch, int n,
                   hs_error_t *err);

/* floats per board in the packed output for side n */
static inline long hs__cu_out_stride(int n)
{
    return 2L * n * n + HS__CU_OUT_EXTRA;
}

/* floats per board in the packed input (spatial, then the globals after all boards) */
static inline long hs__cu_in_floats(int n)
{
    return (long)HS_NN_SPATIAL * n * n + HS_NN_GLOBAL;
}

#endif
