/*
 * worker/nn/cuda/backend_cuda.c — the cuda backend's ops table
 * (backend_internal.h): device discovery, create/destroy, and run(), which
 * splits a batch over two lanes (streams) so that one half's copy in and
 * out overlaps the other half's compute:
 *
 *   host:     fill pinned 0 | enqueue 0 | fill pinned 1 | enqueue 1 | sync 0, unpack 0 | sync 1, unpack 1
 *   stream 0: H2D 0 -> forward 0 -> D2H 0
 *   stream 1:             H2D 1 (during forward 0) -> forward 1 -> D2H 1
 *
 * Batches under HS__CU_SPLIT boards run on lane 0 alone (halves that small
 * would leave the GPU idle more than the copies cost).
 */
#include <stdlib.h>
#include <string.h>

#include "worker/nn/cuda/cuda_internal.h"

int hs__nn_cuda_devices(hs_error_t *err)
{
    int count = 0;
    cudaError_t st = cudaGetDeviceCount(&count);
    if (st != cudaSuccess) {
        hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: no GPU (cudaGetDeviceCount: %s)",
                     cudaGetErrorString(st));
        return 0;
    }
    if (count <= 0)
        hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: no GPU (no CUDA device is present)");
    return count > 0 ? count : 0;
}

static void s_destroy(void *state)
{
    hs__cu_t *cu = state;
    if (!cu)
        return;
    cudaSetDevice(cu->device);
    for (int k = 0; k < HS__CU_LANES; k++)
        hs__cu_lane_fini(cu, &cu->lane[k]);
    hs__cu_weights_free(cu);
    hs__cu_blas_unload(&cu->blas_lib);
    free(cu);
}

static int s_setup(hs__cu_t *cu, int max_batch, hs_error_t *err)
{
    HS__CK(err, cudaSetDevice(cu->device));
    int rc = hs__cu_weights_upload(cu, err);
    if (rc)
        return rc;
    /* lane 0 takes whole batches below the split and the larger half above */
    int cap0 = max_batch;
    cu->n_lanes = 1;
    if (max_batch >= HS__CU_SPLIT) {
        cu->n_lanes = 2;
        cap0 = (max_batch + 1) / 2 > HS__CU_SPLIT - 1 ? (max_batch + 1) / 2 : HS__CU_SPLIT - 1;
    }
    rc = hs__cu_lane_init(cu, &cu->lane[0], cap0, err);
    if (!rc && cu->n_lanes > 1)
        rc = hs__cu_lane_init(cu, &cu->lane[1], max_batch / 2, err);
    return rc;
}

static int s_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg, void **state,
                    hs_error_t *err)
{
    *state = NULL;
    int count = hs__nn_cuda_devices(err);
    if (count <= 0)
        return HS_EUNSUPPORTED;
    if (cfg->gpu < 0 || cfg->gpu >= count)
        return hs_error_set(err, HS_EINVAL, "backend cuda: GPU %d asked for, %d present",
                            cfg->gpu, count);
    hs__cu_t *cu = calloc(1, sizeof *cu);
    if (!cu)
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
    cu->m = m;
    cu->device = cfg->gpu;
    int rc = hs__cu_blas_load(&cu->blas_lib, err);
    if (!rc)
        rc = s_setup(cu, cfg->max_batch, err);
    if (rc) {
        s_destroy(cu);
        return rc;
    }
    *state = cu;
    return 0;
}

/* Copies boards [first, first + count) into l's pinned buffer and enqueues
 * copy in, the pass and copy out on l's stream. */
static int s_launch(hs__cu_t *cu, hs__cu_lane_t *l, int first, int count, int n,
                    const float *spatial, const float *global, hs_error_t *err)
{
    const hs__cu_plan_t *p = NULL;
    int rc = hs__cu_plan_get(cu, l, count, n, &p, err);
    if (rc)
        return rc;
    size_t sp = (size_t)HS_NN_SPATIAL * (size_t)n * (size_t)n;
    memcpy(l->in_h, spatial + (size_t)first * sp, (size_t)count * sp * sizeof(float));
    memcpy(l->in_h + (size_t)count * sp, global + (size_t)first * HS_NN_GLOBAL,
           (size_t)count * HS_NN_GLOBAL * sizeof(float));
    HS__CK(err, cudaMemcpyAsync(l->in_d, l->in_h, (size_t)count * (size_t)hs__cu_in_floats(n) *
                                sizeof(float), cudaMemcpyHostToDevice, l->stream));
    rc = hs__cu_forward(cu, l, p, count, n, err);
    if (rc)
        return rc;
    HS__CK(err, cudaMemcpyAsync(l->out_h, l->out_d, (size_t)count * (size_t)hs__cu_out_stride(n) *
                                sizeof(float), cudaMemcpyDeviceToHost, l->stream));
    return 0;
}

/* Waits for lane l; with unpack, its boards' packed outputs into raw. */
static int s_finish(hs__cu_t *cu, hs__cu_lane_t *l, int count, int n, int unpack,
                    hs_nn_raw_t *raw, hs_error_t *err)
{
    cudaError_t st = cudaStreamSynchronize(l->stream);
    if (!unpack)
        return 0;
    if (st != cudaSuccess)
        return hs__cu_fail(err, "cudaStreamSynchronize", cudaGetErrorString(st));
    int a = n * n, ns = cu->m->sv3.out_c;
    long stride = hs__cu_out_stride(n);
    for (int i = 0; i < count; i++) {
        const float *o = l->out_h + (long)i * stride;
        hs_nn_raw_t *r = &raw[i];
        memset(r, 0, sizeof *r);
        r->n = n;
        memcpy(r->policy, o, (size_t)(a + 1) * sizeof(float));        /* pass last */
        memcpy(r->value, o + a + 1, 3 * sizeof(float));
        memcpy(r->score, o + a + 4, (size_t)ns * sizeof(float));
        memcpy(r->ownership, o + a + HS__CU_OUT_EXTRA, (size_t)a * sizeof(float));
    }
    return 0;
}

static int s_run(void *state, int batch, int n, const float *spatial, const float *global,
                 hs_nn_raw_t *raw, hs_error_t *err)
{
    hs__cu_t *cu = state;
    HS__CK(err, cudaSetDevice(cu->device));
    int split = cu->n_lanes > 1 && batch >= HS__CU_SPLIT;
    int count[HS__CU_LANES] = { split ? (batch + 1) / 2 : batch, split ? batch / 2 : 0 };
    int first[HS__CU_LANES] = { 0, count[0] };
    int rc = 0, started = 0;
    for (int k = 0; k < HS__CU_LANES && !rc && count[k]; k++) {
        started = k + 1;
        rc = s_launch(cu, &cu->lane[k], first[k], count[k], n, spatial, global, err);
    }
    /* every started lane is waited for, also after an error, so that the
     * next run finds the buffers idle */
    for (int k = 0; k < started; k++) {
        int rs = s_finish(cu, &cu->lane[k], count[k], n, !rc, raw + first[k], err);
        rc = rc ? rc : rs;
    }
    return rc;
}

const hs__nn_backend_ops_t hs__nn_backend_cuda = {
    HS_NN_BACKEND_CUDA, s_create, s_destroy, s_run, NULL
};
