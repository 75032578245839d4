/*
 * worker/nn/cuda/cuda_blas.c — cuBLAS, loaded when a cuda backend is made
 * rather than when the program starts.
 *
 * Why: libcublas pulls in libcublasLt, whose static constructors cost about
 * 0.3 s of CPU and 200 MB of mapped pages in every process that links it,
 * and `hyeongse` re-executes itself once at start (cli/main.c, libgomp's
 * spin count), so every command, `--version` included, paid that twice.
 * The backend uses five cuBLAS calls (the heads' small GEMMs); they are
 * looked up here with dlopen/dlsym into a table the backend holds. cuDNN
 * and the CUDA runtime stay linked: they load in milliseconds.
 *
 * Status strings are our own table, so that an error can be named also
 * where the library never loaded.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "worker/nn/cuda/cuda_internal.h"

/* The library the build found (CMake: HS_CUBLAS_LIB), tried after the
 * soname through the loader's search path (LD_LIBRARY_PATH, the program's
 * RUNPATH). */
#ifndef HS_CUBLAS_PATH
#define HS_CUBLAS_PATH "libcublas.so"
#endif
#define S_CUBLAS_SONAME "libcublas.so." S_STR(CUBLAS_VER_MAJOR)

/* Two levels, so that cublas_v2.h's renames (cublasCreate ->
 * cublasCreate_v2) are applied before the name becomes a string. */
#define S_STR_(x) #x
#define S_STR(x) S_STR_(x)

const char *hs__cu_str_blas(cublasStatus_t st)
{
    switch (st) {
    case CUBLAS_STATUS_SUCCESS: return NULL;
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "unknown cuBLAS status";
}

/* RTLD_NODELETE: once loaded, cuBLAS stays until the process ends. A
 * backend made again (a new net, a GTP reload) then finds it at once, and
 * what its own static runtime allocates stays reachable (unloaded, that
 * memory would be leaked as far as a leak checker can tell). */
#define S_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)

/* *slot <- the address of name in h. ISO C has no conversion from the void
 * pointer dlsym returns to a function pointer; POSIX guarantees the
 * representation, so the bytes are copied. */
static int s_sym(void *h, const char *name, void *slot, size_t size, hs_error_t *err)
{
    void *p = dlsym(h, name);
    if (!p)
        return hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: cuBLAS has no %s (%s)", name,
                            dlerror());
    memcpy(slot, &p, size);
    return 0;
}

#define S_LOAD(b, f, err) s_sym((b)->handle, S_STR(f), &(b)->f, sizeof (b)->f, (err))

int hs__cu_blas_load(hs__cu_blas_t *b, hs_error_t *err)
{
    memset(b, 0, sizeof *b);
    b->handle = dlopen(S_CUBLAS_SONAME, S_DLOPEN_FLAGS);
    if (!b->handle) {
        char first[256];
        snprintf(first, sizeof first, "%s", dlerror());
        b->handle = dlopen(HS_CUBLAS_PATH, S_DLOPEN_FLAGS);
        if (!b->handle)
            return hs_error_set(err, HS_EUNSUPPORTED,
                                "backend cuda: cuBLAS could not be loaded (%s; %s)", first,
                                dlerror());
    }
    int rc = S_LOAD(b, cublasCreate, err);
    if (!rc) rc = S_LOAD(b, cublasDestroy, err);
    if (!rc) rc = S_LOAD(b, cublasSetStream, err);
    if (!rc) rc = S_LOAD(b, cublasSetMathMode, err);
    if (!rc) rc = S_LOAD(b, cublasSgemm, err);
    if (rc)
        hs__cu_blas_unload(b);
    return rc;
}

void hs__cu_blas_unload(hs__cu_blas_t *b)
{
    if (b->handle)
        dlclose(b->handle);
    memset(b, 0, sizeof *b);
}
