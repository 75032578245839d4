/*
 * tests/test_nn_cuda_errors.c — what the cuda backend does that can be
 * checked without a GPU: its one error path (HS__CK turns a failed CUDA,
 * cuDNN or cuBLAS status into HS_EIO or HS_ENOMEM and "backend cuda:
 * <call>: <the library's string>"), and, where no GPU is present, that
 * asking for the backend gives HS_EUNSUPPORTED saying "no GPU" rather than
 * "not built". Also that cuBLAS is loaded only when asked for (the
 * program's start does not pay for libcublasLt) and that the table of its
 * calls resolves. Skips (77) in a build without the cuDNN backend.
 */
#include "test.h"
#include "worker/nn/backend.h"

#ifndef HS_HAVE_CUDNN
int main(void)
{
    printf("SKIP: no GPU: this build has no cuDNN backend (HS_CUDNN)\n");
    return 77;
}
#else
#include "worker/nn/cuda/cuda_internal.h"

/* stand-ins for library calls, returning the status they are given */
static cudnnStatus_t cudnnFake(cudnnStatus_t st) { return st; }
static cudaError_t cudaFake(cudaError_t st) { return st; }
static cublasStatus_t cublasFake(cublasStatus_t st) { return st; }

static int s_dnn(cudnnStatus_t st, hs_error_t *err)
{
    HS__CK(err, cudnnFake(st));
    return 0;
}

static int s_rt(cudaError_t st, hs_error_t *err)
{
    HS__CK(err, cudaFake(st));
    return 0;
}

static int s_blas(cublasStatus_t st, hs_error_t *err)
{
    HS__CK(err, cublasFake(st));
    return 0;
}

static void s_check_errors(void)
{
    hs_error_t err;
    char want[HS_ERROR_MSG_MAX];
    hs_error_clear(&err);
    HS_CHECK_INT(s_dnn(CUDNN_STATUS_SUCCESS, &err), 0);
    HS_CHECK_INT(s_rt(cudaSuccess, &err), 0);
    HS_CHECK_INT(s_blas(CUBLAS_STATUS_SUCCESS, &err), 0);
    HS_CHECK_INT(err.code, 0);

    HS_CHECK_INT(s_dnn(CUDNN_STATUS_NOT_SUPPORTED, &err), HS_EIO);
    snprintf(want, sizeof want, "backend cuda: cudnnFake: %s",
             cudnnGetErrorString(CUDNN_STATUS_NOT_SUPPORTED));
    HS_CHECK_STR(err.msg, want);
    HS_CHECK_INT(s_dnn(CUDNN_STATUS_ALLOC_FAILED, &err), HS_ENOMEM);

    HS_CHECK_INT(s_rt(cudaErrorMemoryAllocation, &err), HS_ENOMEM);
    snprintf(want, sizeof want, "backend cuda: cudaFake: %s",
             cudaGetErrorString(cudaErrorMemoryAllocation));
    HS_CHECK_STR(err.msg, want);
    HS_CHECK_INT(s_rt(cudaErrorLaunchFailure, &err), HS_EIO);

    HS_CHECK_INT(s_blas(CUBLAS_STATUS_EXECUTION_FAILED, &err), HS_EIO);
    HS_CHECK_STR(err.msg, "backend cuda: cublasFake: CUBLAS_STATUS_EXECUTION_FAILED");
    HS_CHECK_INT(s_blas(CUBLAS_STATUS_ALLOC_FAILED, &err), HS_ENOMEM);
    HS_CHECK_INT(s_blas(CUBLAS_STATUS_EXECUTION_FAILED, NULL), HS_EIO);   /* err optional */
}

/* Whether a library whose file name holds name is mapped into this process. */
static bool s_mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, name) != NULL;
    if (f)
        fclose(f);
    return found;
}

/* A call through the loaded table is named by its field, as a linked call
 * would be by its function. */
static int s_blas_table(hs__cu_blas_t *b, hs_error_t *err)
{
    cublasHandle_t h = NULL;
    HS__CK(err, b->cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
    return 0;
}

static void s_check_blas_loading(void)
{
    hs_error_t err;
    hs_error_clear(&err);
    HS_CHECK(!s_mapped("libcublas"));   /* not at start: only a backend loads it */
    hs__cu_blas_t b;
    HS_CHECK_INT(hs__cu_blas_load(&b, &err), 0);
    HS_CHECK(s_mapped("libcublas"));
    HS_CHECK(b.cublasCreate && b.cublasDestroy && b.cublasSetStream && b.cublasSetMathMode &&
             b.cublasSgemm);
    HS_CHECK_INT(s_blas_table(&b, &err), HS_EIO);   /* no handle: refused, not a crash */
    HS_CHECK(strncmp(err.msg, "backend cuda: cublasSetMathMode: CUBLAS_STATUS_", 46) == 0);
    hs__cu_blas_unload(&b);
    HS_CHECK(b.handle == NULL && b.cublasSgemm == NULL);
    hs__cu_blas_unload(&b);   /* twice: harmless */
    HS_CHECK(s_mapped("libcublas"));   /* kept loaded (RTLD_NODELETE) */
    HS_CHECK_INT(hs__cu_blas_load(&b, &err), 0);   /* again, found at once */
    hs__cu_blas_unload(&b);
}

/* No GPU: the backend is built, so the refusal must name the GPU. */
static void s_check_no_gpu(void)
{
    hs_error_t err;
    hs_error_clear(&err);
    HS_CHECK(!hs_nn_backend_available(HS_NN_BACKEND_CUDA, &err));
    HS_CHECK_INT(err.code, HS_EUNSUPPORTED);
    HS_CHECK(strstr(err.msg, "backend cuda: no GPU") == err.msg);
    HS_CHECK(hs_nn_backend_default() != HS_NN_BACKEND_CUDA);
    hs_nn_model_t m;
    memset(&m, 0, sizeof m);
    m.in_spatial = HS_NN_SPATIAL;
    m.in_global = HS_NN_GLOBAL;
    hs_nn_backend_config_t cfg = { HS_NN_BACKEND_CUDA, 8, 0, 0 };
    hs_nn_backend_t *b = (hs_nn_backend_t *)&cfg;   /* must be reset to NULL */
    HS_CHECK_INT(hs_nn_backend_create(&m, &cfg, &b, &err), HS_EUNSUPPORTED);
    HS_CHECK(b == NULL);
    HS_CHECK(strstr(err.msg, "no GPU") != NULL);
}

int main(void)
{
    s_check_errors();
    s_check_blas_loading();
    if (hs_nn_backend_available(HS_NN_BACKEND_CUDA, NULL))
        printf("a GPU is present: the no-GPU checks are left out\n");
    else
        s_check_no_gpu();
    return hs_test_finish();
}
#endif
