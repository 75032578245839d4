/*
 * worker/nn/cuda/cuda_kernels.h — the cuda backend's own kernels
 * (cuda_kernels.cu): what cuDNN and cuBLAS do not do for us. Callable from C:
 * FP16 tensors are passed as void * (NHWC, channel fastest), FP32 as float *.
 * Each launcher enqueues on the given stream and returns cudaGetLastError()
 * (launch errors only; faults inside a kernel surface at the next sync).
 *
 * Activations take hs_nn_act_t's values (0 identity, 1 ReLU, 2 Mish, 3 SiLU),
 * computed in FP32 exactly as forward_ref.c does.
 */
#ifndef HS_WORKER_NN_CUDA_KERNELS_H
#define HS_WORKER_NN_CUDA_KERNELS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FP32 NCHW [batch][planes][area] -> FP16 NHWC [batch][area][cpad]; channels
 * planes..cpad-1 are zero (padding to a multiple of 8 for the tensor cores). */
cudaError_t hs__cuk_input(cudaStream_t s, const float *in, void *out, int batch, int planes,
                          int cpad, int area);

/* y = act(x * scale[c] + bias[c]) over rows x c FP16 values (y may be x). */
cudaError_t hs__cuk_norm(cudaStream_t s, const void *x, void *y, const float *scale,
                         const float *bias, int act, long rows, int c);

/* x = act(x + bias[c] + bbias[b][c]) in place over [batch][area][c] FP16;
 * bias and bbias (a per-position bias, [batch][c] FP32) may be NULL. */
cudaError_t hs__cuk_bias_act(cudaStream_t s, void *x, const float *bias, const float *bbias,
                             int act, int batch, int area, int c);

/* KataGo's global pooling of FP16 [batch][area][c] into FP32 [batch][3c]:
 * mean, mean * (n - 14) / 10, then max (value_head 0) or
 * mean * ((n - 14)^2 / 100 - 0.1) (value_head 1). */
cudaError_t hs__cuk_pool(cudaStream_t s, const void *x, float *out, int batch, int n, int c,
                         int value_head);

/* x = act(x + bias[c]) in place over [rows][c] FP32; bias may be NULL. */
cudaError_t hs__cuk_bias_act_f(cudaStream_t s, float *x, const float *bias, int act,
                               int rows, int c);

/* Channel 0 of FP16 [batch][area][c] into FP32 dst[b * ld + p]. */
cudaError_t hs__cuk_channel0(cudaStream_t s, const void *x, float *dst, int batch, int area,
                             int c, long ld);

/* count FP32 values to FP16 (weights at create). */
cudaError_t hs__cuk_f2h(cudaStream_t s, const float *in, void *out, long count);

#ifdef __cplusplus
}
#endif

#endif
