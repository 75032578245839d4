/*
 * worker/nn/backend.c — the backend registry and dispatch (backend.h), and
 * the ref backend: the reference forward pass, one position after another.
 * Which kinds exist is decided by the build (HS_HAVE_DNNL, HS_HAVE_CUDNN);
 * asking for one that is not built is a clear error, never a silent fallback.
 */
#include <stdlib.h>
#include <string.h>

#include "worker/nn/backend_internal.h"

struct hs_nn_backend {
    const hs__nn_backend_ops_t *ops;
    void *state;
    int max_batch;
};

static int s_ref_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg,
                        void **state, hs_error_t *err)
{
    (void)cfg; (void)err;
    *state = (void *)m;
    return 0;
}

static void s_ref_destroy(void *state)
{
    (void)state;
}

static int s_ref_run(void *state, int batch, int n, const float *spatial,
                     const float *global, hs_nn_raw_t *raw, hs_error_t *err)
{
    const hs_nn_model_t *m = state;
    size_t plane = (size_t)HS_NN_SPATIAL * (size_t)n * (size_t)n;
    for (int i = 0; i < batch; i++) {
        int rc = hs_nn_forward_ref(m, n, spatial + (size_t)i * plane,
                                   global + (size_t)i * HS_NN_GLOBAL, 0, &raw[i], err);
        if (rc)
            return rc;
    }
    return 0;
}

static const hs__nn_backend_ops_t s_ref_ops = {
    HS_NN_BACKEND_REF, s_ref_create, s_ref_destroy, s_ref_run, NULL
};

static const char *const s_names[] = { "ref", "cpu", "cuda" };

int hs_nn_backend_parse(const char *word, hs_nn_backend_kind_t *kind, hs_error_t *err)
{
    for (int k = 0; k < 3; k++)
        if (word && !strcmp(word, s_names[k])) {
            *kind = (hs_nn_backend_kind_t)k;
            return 0;
        }
    return hs_error_set(err, HS_EINVAL, "backend '%s': expected cpu, cuda or ref",
                        word ? word : "");
}

const char *hs_nn_backend_kind_name(hs_nn_backend_kind_t kind)
{
    return kind >= HS_NN_BACKEND_REF && kind <= HS_NN_BACKEND_CUDA ? s_names[kind] : "?";
}

static const hs__nn_backend_ops_t *s_ops(hs_nn_backend_kind_t kind, hs_error_t *err)
{
    switch (kind) {
    case HS_NN_BACKEND_REF:
        return &s_ref_ops;
    case HS_NN_BACKEND_CPU:
#ifdef HS_HAVE_DNNL
        return &hs__nn_backend_dnnl;
#else
        hs_error_set(err, HS_EUNSUPPORTED, "backend cpu: this build has no oneDNN "
                     "(install libdnnl-dev and rebuild; --backend ref is the slow fallback)");
        return NULL;
#endif
    case HS_NN_BACKEND_CUDA:
#ifdef HS_HAVE_CUDNN
        if (hs__nn_cuda_devices(err) > 0)
            return &hs__nn_backend_cuda;
        return NULL;
#else
        hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: this build has no cuDNN backend "
                     "(build where CUDA 13 and cuDNN 9 are installed, HS_CUDNN=ON)");
        return NULL;
#endif
    }
    hs_error_set(err, HS_EINVAL, "backend: unknown kind %d", (int)kind);
    return NULL;
}

bool hs_nn_backend_available(hs_nn_backend_kind_t kind, hs_error_t *err)
{
    return s_ops(kind, err) != NULL;
}

hs_nn_backend_kind_t hs_nn_backend_default(void)
{
    if (hs_nn_backend_available(HS_NN_BACKEND_CUDA, NULL))
        return HS_NN_BACKEND_CUDA;
    if (hs_nn_backend_available(HS_NN_BACKEND_CPU, NULL))
        return HS_NN_BACKEND_CPU;
    return HS_NN_BACKEND_REF;
}

int hs_nn_backend_default_batch(hs_nn_backend_kind_t kind)
{
    /* a GPU wants thousands in flight; oneDNN's convolutions stop gaining
     * past a few dozen boards on a CPU's caches */
    return kind == HS_NN_BACKEND_CUDA ? 512 : kind == HS_NN_BACKEND_CPU ? 32 : 8;
}

int hs_nn_backend_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg,
                         hs_nn_backend_t **out, hs_error_t *err)
{
    *out = NULL;
    if (cfg->max_batch < 1 || cfg->max_batch > 65536 || cfg->threads < 0)
        return hs_error_set(err, HS_EINVAL, "backend: batch %d or threads %d out of range",
                            cfg->max_batch, cfg->threads);
    if (m->in_spatial != HS_NN_SPATIAL || m->in_global != HS_NN_GLOBAL)
        return hs_error_set(err, HS_EINVAL, "net: the model takes %d/%d inputs, not V7's %d/%d",
                            m->in_spatial, m->in_global, HS_NN_SPATIAL, HS_NN_GLOBAL);
    const hs__nn_backend_ops_t *ops = s_ops(cfg->kind, err);
    if (!ops)
        return err ? err->code : HS_EUNSUPPORTED;
    hs_nn_backend_t *b = calloc(1, sizeof *b);
    if (!b)
        return hs_error_set(err, HS_ENOMEM, "backend: out of memory");
    b->ops = ops;
    b->max_batch = cfg->max_batch;
    int rc = ops->create(m, cfg, &b->state, err);
    if (rc) {
        free(b);
        return rc;
    }
    *out = b;
    return 0;
}

void hs_nn_backend_free(hs_nn_backend_t **b)
{
    if (!b || !*b)
        return;
    (*b)->ops->destroy((*b)->state);
    free(*b);
    *b = NULL;
}

int hs_nn_backend_run(hs_nn_backend_t *b, int batch, int n, const float *spatial,
                      const float *global, hs_nn_raw_t *raw, hs_error_t *err)
{
    if (batch < 1 || batch > b->max_batch || n < 2 || n > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "backend: batch %d (max %d) or board %d out of range",
                            batch, b->max_batch, n);
    return b->ops->run(b->state, batch, n, spatial, global, raw, err);
}

double hs_nn_backend_helper_cpu(const hs_nn_backend_t *b)
{
    return b->ops->helper_cpu ? b->ops->helper_cpu(b->state) : 0.0;
}

hs_nn_backend_kind_t hs_nn_backend_kind(const hs_nn_backend_t *b)
{
    return b->ops->kind;
}

int hs_nn_backend_max_batch(const hs_nn_backend_t *b)
{
    return b->max_batch;
}
