/*
 * worker/nn/cuda/cuda_plan.c — a lane's resources (stream, cuDNN and cuBLAS
 * handles, pinned host and device buffers) and its plans: for each (batch,
 * board side) the tensor descriptors and the convolution algorithm of every
 * layer, chosen once (IMPLICIT_PRECOMP_GEMM, else cuDNN's heuristics) and
 * cached; a workspace grown to the largest choice. Also the one error
 * path every CUDA, cuDNN and cuBLAS call goes through (HS__CK).
 */
#include <stdlib.h>
#include <string.h>

#include "worker/nn/cuda/cuda_internal.h"

const char *hs__cu_str_rt(cudaError_t st)
{
    return st == cudaSuccess ? NULL : cudaGetErrorString(st);
}

const char *hs__cu_str_dnn(cudnnStatus_t st)
{
    return st == CUDNN_STATUS_SUCCESS ? NULL : cudnnGetErrorString(st);
}

int hs__cu_fail(hs_error_t *err, const char *call, const char *msg)
{
    size_t len = strcspn(call, "(");   /* the function's name, not its arguments */
    /* a call through the cuBLAS table: the field's name is the function's */
    for (size_t i = len; i > 0; i--)
        if (call[i - 1] == '.' || call[i - 1] == '>') {
            call += i;
            len -= i;
            break;
        }
    int oom = strstr(msg, "memory") || strstr(msg, "MEMORY") || strstr(msg, "ALLOC") ||
              strstr(msg, "alloc");
    return hs_error_set(err, oom ? HS_ENOMEM : HS_EIO, "backend cuda: %.*s: %s", (int)len, call,
                        msg);
}

/* FP16 NHWC activations of cap boards, up to 19 x 19, ch channels. Zeroed:
 * cuDNN's fused call is given the output as its (alpha2 = 0) residual input
 * where there is none, and 0 * a stale NaN pattern would not be 0. */
static int s_act_buf(void **p, int cap, int ch, hs_error_t *err)
{
    size_t bytes = (size_t)cap * HS_NN_MAX_AREA * (size_t)ch * 2;
    HS__CK(err, cudaMalloc(p, bytes));
    HS__CK(err, cudaMemset(*p, 0, bytes));
    return 0;
}

static int s_buffers(hs__cu_t *cu, hs__cu_lane_t *l, hs_error_t *err)
{
    size_t in_bytes = (size_t)l->cap * (size_t)hs__cu_in_floats(HS_NN_MAX_SIZE) * sizeof(float);
    size_t out_bytes = (size_t)l->cap * (size_t)hs__cu_out_stride(HS_NN_MAX_SIZE) * sizeof(float);
    size_t vec_bytes = (size_t)l->cap * (size_t)cu->vec * sizeof(float);
    HS__CK(err, cudaHostAlloc((void **)&l->in_h, in_bytes, cudaHostAllocDefault));
    HS__CK(err, cudaHostAlloc((void **)&l->out_h, out_bytes, cudaHostAllocDefault));
    HS__CK(err, cudaMalloc((void **)&l->in_d, in_bytes));
    HS__CK(err, cudaMalloc((void **)&l->out_d, out_bytes));
    HS__CK(err, cudaMalloc((void **)&l->pool, vec_bytes));
    HS__CK(err, cudaMalloc((void **)&l->va, vec_bytes));
    HS__CK(err, cudaMalloc((void **)&l->vb, vec_bytes));
    int rc = s_act_buf(&l->x_in, l->cap, cu->cpad, err);
    if (!rc) rc = s_act_buf(&l->x, l->cap, cu->m->trunk_c, err);
    if (!rc) rc = s_act_buf(&l->t, l->cap, cu->m->trunk_c, err);
    if (!rc) rc = s_act_buf(&l->ha, l->cap, cu->cmax, err);
    if (!rc) rc = s_act_buf(&l->hb, l->cap, cu->cmax, err);
    for (int d = 0; !rc && d < cu->depth; d++) {
        rc = s_act_buf(&l->pre[d], l->cap, cu->cmax, err);
        if (!rc) rc = s_act_buf(&l->mid[d], l->cap, cu->cmax, err);
    }
    return rc;
}

int hs__cu_lane_init(hs__cu_t *cu, hs__cu_lane_t *l, int cap, hs_error_t *err)
{
    l->cap = cap;
    HS__CK(err, cudaStreamCreateWithFlags(&l->stream, cudaStreamNonBlocking));
    HS__CK(err, cudnnCreate(&l->dnn));
    HS__CK(err, cudnnSetStream(l->dnn, l->stream));
    HS__CK(err, cu->blas_lib.cublasCreate(&l->blas));
    HS__CK(err, cu->blas_lib.cublasSetStream(l->blas, l->stream));
    /* the heads' small GEMMs stay FP32: no TF32, they are a sliver of the time */
    HS__CK(err, cu->blas_lib.cublasSetMathMode(l->blas, CUBLAS_PEDANTIC_MATH));
    int rc = s_buffers(cu, l, err);
    if (rc)
        return rc;
    /* the zeroing ran on the legacy stream, which our non-blocking ones do
     * not wait for */
    HS__CK(err, cudaDeviceSynchronize());
    return 0;
}

static void s_plan_free(hs__cu_t *cu, hs__cu_plan_t *p)
{
    for (int i = 0; i < cu->n_convs; i++) {
        if (p->xd && p->xd[i]) cudnnDestroyTensorDescriptor(p->xd[i]);
        if (p->yd && p->yd[i]) cudnnDestroyTensorDescriptor(p->yd[i]);
    }
    free(p->xd);
    free(p->yd);
    free(p->algo);
    free(p->unfused);
    memset(p, 0, sizeof *p);
}

void hs__cu_lane_fini(hs__cu_t *cu, hs__cu_lane_t *l)
{
    if (l->stream)
        cudaStreamSynchronize(l->stream);   /* nothing of ours may still run */
    for (int i = 0; i < HS__CU_PLANS; i++)
        s_plan_free(cu, &l->plans[i]);
    for (int d = 0; d <= HS_NN_MAX_NESTING; d++) {
        cudaFree(l->pre[d]);
        cudaFree(l->mid[d]);
    }
    cudaFree(l->x_in); cudaFree(l->x); cudaFree(l->t); cudaFree(l->ha); cudaFree(l->hb);
    cudaFree(l->pool); cudaFree(l->va); cudaFree(l->vb);
    cudaFree(l->in_d); cudaFree(l->out_d); cudaFree(l->ws);
    cudaFreeHost(l->in_h);
    cudaFreeHost(l->out_h);
    if (l->blas) cu->blas_lib.cublasDestroy(l->blas);
    if (l->dnn) cudnnDestroy(l->dnn);
    if (l->stream) cudaStreamDestroy(l->stream);
    memset(l, 0, sizeof *l);
}

static int s_tensor(cudnnTensorDescriptor_t *d, int batch, int c, int n, hs_error_t *err)
{
    HS__CK(err, cudnnCreateTensorDescriptor(d));
    HS__CK(err, cudnnSetTensor4dDescriptor(*d, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, batch, c, n, n));
    return 0;
}

/* conv i's workspace for algorithm algo into *ws; 1 if cuDNN runs it for
 * these shapes within our workspace limit, 0 if it refuses, <0 an error */
static int s_fits(hs__cu_lane_t *l, const hs__cu_conv_t *c, const hs__cu_plan_t *p, int i,
                  cudnnConvolutionFwdAlgo_t algo, size_t *ws, hs_error_t *err)
{
    cudnnStatus_t st = cudnnGetConvolutionForwardWorkspaceSize(l->dnn, p->xd[i], c->wdesc,
                                                               c->cdesc, p->yd[i], algo, ws);
    if (st == CUDNN_STATUS_SUCCESS)
        return *ws <= HS__CU_WS_MAX;
    if (hs__cu_refused(st))
        return 0;
    return hs__cu_fail(err, "cudnnGetConvolutionForwardWorkspaceSize", cudnnGetErrorString(st));
}

/* The algorithm for conv i: IMPLICIT_PRECOMP_GEMM wherever cuDNN runs it.
 * On an H200, cuDNN's own timing (cudnnFindConvolutionForwardAlgorithmEx)
 * chose it, or the plain IMPLICIT_GEMM, for every conv of b6c96 at batch 64
 * to 2048, and the net ran slower on the heuristics' choices
 * (cudnnGetConvolutionForwardAlgorithm_v7; docs/NET.md, "On an H200"); it is
 * also the only one the fused call with the identity activation accepts.
 * Where cuDNN refuses it, an IDENT conv runs unfused and any conv takes the
 * heuristics' best guess within the workspace limit. *ws: its workspace. */
static int s_algo(hs__cu_lane_t *l, const hs__cu_conv_t *c, hs__cu_plan_t *p, int i, size_t *ws,
                  hs_error_t *err)
{
    p->algo[i] = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
    int fits = s_fits(l, c, p, i, p->algo[i], ws, err);
    if (fits != 0)
        return fits < 0 ? fits : 0;
    if (c->mode == HS__CU_IDENT)
        p->unfused[i] = 1;
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0, pick = -1;
    HS__CK(err, cudnnGetConvolutionForwardAlgorithm_v7(l->dnn, p->xd[i], c->wdesc, c->cdesc,
                                                       p->yd[i], CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                       &got, perf));
    for (int k = 0; k < got && pick < 0; k++)
        if (perf[k].status == CUDNN_STATUS_SUCCESS && perf[k].memory <= HS__CU_WS_MAX)
            pick = k;
    if (pick < 0)
        return hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: cuDNN offers no algorithm "
                            "for a %dx%d convolution %d -> %d channels", c->ky, c->kx,
                            c->in_c, c->out_c);
    p->algo[i] = perf[pick].algo;
    HS__CK(err, cudnnGetConvolutionForwardWorkspaceSize(l->dnn, p->xd[i], c->wdesc, c->cdesc,
                                                        p->yd[i], p->algo[i], ws));
    return 0;
}

static int s_plan_build(hs__cu_t *cu, hs__cu_lane_t *l, hs__cu_plan_t *p, int batch, int n,
                        hs_error_t *err)
{
    p->xd = calloc((size_t)cu->n_convs, sizeof *p->xd);
    p->yd = calloc((size_t)cu->n_convs, sizeof *p->yd);
    p->algo = calloc((size_t)cu->n_convs, sizeof *p->algo);
    p->unfused = calloc((size_t)cu->n_convs, sizeof *p->unfused);
    if (!p->xd || !p->yd || !p->algo || !p->unfused)
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
    size_t need = 0;
    for (int i = 0; i < cu->n_convs; i++) {
        const hs__cu_conv_t *c = &cu->convs[i];
        size_t ws = 0;
        int rc = s_tensor(&p->xd[i], batch, c->in_c, n, err);
        if (!rc) rc = s_tensor(&p->yd[i], batch, c->out_c, n, err);
        if (!rc) rc = s_algo(l, c, p, i, &ws, err);
        if (rc)
            return rc;
        need = ws > need ? ws : need;
    }
    if (need > l->ws_size) {
        /* lanes are idle between runs, so the old workspace is free to go */
        cudaFree(l->ws);
        l->ws = NULL;
        l->ws_size = 0;
        HS__CK(err, cudaMalloc(&l->ws, need));
        l->ws_size = need;
    }
    p->batch = batch;
    p->n = n;
    return 0;
}

int hs__cu_plan_get(hs__cu_t *cu, hs__cu_lane_t *l, int batch, int n, const hs__cu_plan_t **out,
                    hs_error_t *err)
{
    for (int i = 0; i < HS__CU_PLANS; i++)
        if (l->plans[i].batch == batch && l->plans[i].n == n) {
            *out = &l->plans[i];
            return 0;
        }
    int slot = -1;
    for (int i = 0; i < HS__CU_PLANS && slot < 0; i++)
        if (!l->plans[i].batch)
            slot = i;
    if (slot < 0) {   /* full: replace the plans in turn, oldest first */
        slot = l->next_evict;
        l->next_evict = (l->next_evict + 1) % HS__CU_PLANS;
    }
    hs__cu_plan_t *p = &l->plans[slot];
    s_plan_free(cu, p);
    int rc = s_plan_build(cu, l, p, batch, n, err);
    if (rc) {
        s_plan_free(cu, p);
        return rc;
    }
    *out = p;
    return 0;
}
