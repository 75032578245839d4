/*
 * worker/nn/cuda/cuda_kernels.cu — the cuda backend's own kernels
 * (cuda_kernels.h): input layout change, the blocks' pre-norm, bias and
 * activation after the convolutions cuDNN cannot fuse them into, global
 * pooling and the heads' output conversion. All are memory-bound one-pass
 * kernels; arithmetic is FP32 even where the tensors are FP16, so their
 * rounding is one FP16 store per value.
 */
#include <cuda_fp16.h>

#include "worker/nn/cuda/cuda_kernels.h"

#define HS__THREADS 256

static unsigned s_blocks(long count)
{
    return (unsigned)((count + HS__THREADS - 1) / HS__THREADS);
}

/* the activations as forward_ref.c's s_act computes them */
static __device__ float s_act(float x, int act)
{
    switch (act) {
    case 1: return x > 0.0f ? x : 0.0f;
    case 2: return x * tanhf(x > 20.0f ? x : log1pf(expf(x)));
    case 3: return x / (1.0f + expf(-x));
    default: return x;
    }
}

static __global__ void k_input(const float *in, __half *out, int planes, int cpad, int area,
                               long total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    int c = (int)(i % cpad);
    long bp = i / cpad;                 /* b * area + p */
    int p = (int)(bp % area);
    long b = bp / area;
    float v = c < planes ? in[(b * planes + c) * area + p] : 0.0f;
    out[i] = __float2half(v);
}

extern "C" cudaError_t hs__cuk_input(cudaStream_t s, const float *in, void *out, int batch,
                                     int planes, int cpad, int area)
{
    long total = (long)batch * area * cpad;
    k_input<<<s_blocks(total), HS__THREADS, 0, s>>>(in, (__half *)out, planes, cpad, area, total);
    return cudaGetLastError();
}

static __global__ void k_norm(const __half *x, __half *y, const float *scale, const float *bias,
                              int act, int c, long total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    int ch = (int)(i % c);
    y[i] = __float2half(s_act(__half2float(x[i]) * scale[ch] + bias[ch], act));
}

extern "C" cudaError_t hs__cuk_norm(cudaStream_t s, const void *x, void *y, const float *scale,
                                    const float *bias, int act, long rows, int c)
{
    long total = rows * c;
    k_norm<<<s_blocks(total), HS__THREADS, 0, s>>>((const __half *)x, (__half *)y, scale, bias,
                                                   act, c, total);
    return cudaGetLastError();
}

static __global__ void k_bias_act(__half *x, const float *bias, const float *bbias, int act,
                                  int area, int c, long total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    int ch = (int)(i % c);
    long b = i / ((long)area * c);
    float v = __half2float(x[i]);
    if (bias)
        v += bias[ch];
    if (bbias)
        v += bbias[b * c + ch];
    x[i] = __float2half(s_act(v, act));
}

extern "C" cudaError_t hs__cuk_bias_act(cudaStream_t s, void *x, const float *bias,
                                        const float *bbias, int act, int batch, int area, int c)
{
    long total = (long)batch * area * c;
    k_bias_act<<<s_blocks(total), HS__THREADS, 0, s>>>((__half *)x, bias, bbias, act, area, c,
                                                       total);
    return cudaGetLastError();
}

/* one thread per (board, channel): neighbouring threads read neighbouring
 * channels of the same point, so the loads coalesce in NHWC */
static __global__ void k_pool(const __half *x, float *out, int batch, int n, int c,
                              int value_head)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)batch * c)
        return;
    int ch = (int)(i % c);
    long b = i / c;
    int area = n * n;
    const __half *src = x + b * area * c + ch;
    float sum = 0.0f, mx = __half2float(src[0]);
    for (int p = 0; p < area; p++) {
        float v = __half2float(src[(long)p * c]);
        sum += v;
        mx = fmaxf(mx, v);
    }
    float mean = sum / (float)area, w = (float)n - 14.0f;
    float *o = out + b * 3 * c;
    o[ch] = mean;
    o[c + ch] = mean * w / 10.0f;
    o[2 * c + ch] = value_head ? mean * (w * w / 100.0f - 0.1f) : mx;
}

extern "C" cudaError_t hs__cuk_pool(cudaStream_t s, const void *x, float *out, int batch, int n,
                                    int c, int value_head)
{
    k_pool<<<s_blocks((long)batch * c), HS__THREADS, 0, s>>>((const __half *)x, out, batch, n, c,
                                                             value_head);
    return cudaGetLastError();
}

static __global__ void k_bias_act_f(float *x, const float *bias, int act, int c, long total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    float v = x[i] + (bias ? bias[i % c] : 0.0f);
    x[i] = s_act(v, act);
}

extern "C" cudaError_t hs__cuk_bias_act_f(cudaStream_t s, float *x, const float *bias, int act,
                                          int rows, int c)
{
    long total = (long)rows * c;
    k_bias_act_f<<<s_blocks(total), HS__THREADS, 0, s>>>(x, bias, act, c, total);
    return cudaGetLastError();
}

static __global__ void k_channel0(const __half *x, float *dst, int area, int c, long ld,
                                  long total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    long b = i / area;
    long p = i % area;
    dst[b * ld + p] = __half2float(x[i * c]);
}

extern "C" cudaError_t hs__cuk_channel0(cudaStream_t s, const void *x, float *dst, int batch,
                                        int area, int c, long ld)
{
    long total = (long)batch * area;
    k_channel0<<<s_blocks(total), HS__THREADS, 0, s>>>((const __half *)x, dst, area, c, ld, total);
    return cudaGetLastError();
}

static __global__ void k_f2h(const float *in, __half *out, long total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total)
        out[i] = __float2half(in[i]);
}

extern "C" cudaError_t hs__cuk_f2h(cudaStream_t s, const float *in, void *out, long count)
{
    if (count > 0)
        k_f2h<<<s_blocks(count), HS__THREADS, 0, s>>>(in, (__half *)out, count);
    return cudaGetLastError();
}
