/*
 * worker/nn/cuda/cuda_weights.c — the model's layers onto the GPU, once, at
 * create: convolution weights to FP16 in cuDNN's NHWC filter layout (KRSC,
 * input channels fastest), their biases in FP16 (for cuDNN's fused call) and
 * FP32 (for our kernels), dense layers and norms in FP32 (the heads' GEMMs
 * and the element-wise kernels compute in FP32). Also the mirror of the
 * block tree that cuda_forward.c walks.
 */
#include <stdlib.h>
#include <string.h>

#include "worker/nn/cuda/cuda_internal.h"
#include "worker/nn/cuda/cuda_kernels.h"

/* Grows *arr (elements of size sz) to hold one more; index of the new one
 * (zeroed) or -1. */
static int s_push(void **arr, int *count, int *cap, size_t sz)
{
    if (*count == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        void *na = realloc(*arr, (size_t)nc * sz);
        if (!na)
            return -1;
        *arr = na;
        *cap = nc;
    }
    memset((char *)*arr + (size_t)*count * sz, 0, sz);
    return (*count)++;
}

static int s_upload(void **dst, const void *src, size_t bytes, hs_error_t *err)
{
    HS__CK(err, cudaMalloc(dst, bytes ? bytes : 1));
    HS__CK(err, cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice));
    return 0;
}

/* FP32 host array -> FP32 device array; NULL stays NULL. */
static int s_upload_f(float **dst, const float *src, int count, hs_error_t *err)
{
    *dst = NULL;
    return src ? s_upload((void **)dst, src, (size_t)count * sizeof *src, err) : 0;
}

/* FP32 host values -> FP16 device array *dst (converted on the device, so
 * the rounding is CUDA's own round-to-nearest). */
static int s_upload_h(void **dst, const float *src, size_t count, hs_error_t *err)
{
    float *tmp = NULL;
    int rc = s_upload((void **)&tmp, src, count * sizeof *src, err);
    if (!rc) {
        const char *m = hs__cu_str(cudaMalloc(dst, count * 2 + 2));
        if (!m) m = hs__cu_str(hs__cuk_f2h(0, tmp, *dst, (long)count));
        if (!m) m = hs__cu_str(cudaDeviceSynchronize());
        rc = m ? hs__cu_fail(err, "cudaMalloc/f2h", m) : 0;
    }
    cudaFree(tmp);
    return rc;
}

static int s_conv_weights(hs__cu_conv_t *c, const hs_nn_conv_t *mc, hs_error_t *err)
{
    size_t taps = (size_t)mc->ky * (size_t)mc->kx;
    size_t nw = (size_t)mc->out_c * taps * (size_t)c->in_c;
    float *w = calloc(nw, sizeof *w);
    float *b = calloc((size_t)mc->out_c, sizeof *b);
    if (!w || !b) {
        free(w); free(b);
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory converting weights");
    }
    /* [out][in][ky][kx] -> [out][ky][kx][in_padded]; padding stays zero */
    for (int o = 0; o < mc->out_c; o++)
        for (int i = 0; i < mc->in_c; i++)
            for (size_t k = 0; k < taps; k++)
                w[((size_t)o * taps + k) * (size_t)c->in_c + (size_t)i] =
                    mc->w[((size_t)o * (size_t)mc->in_c + (size_t)i) * taps + k];
    for (int o = 0; mc->b && o < mc->out_c; o++)
        b[o] = mc->b[o];
    int rc = s_upload_h(&c->w, w, nw, err);
    if (!rc) rc = s_upload_h(&c->bh, b, (size_t)mc->out_c, err);
    if (!rc) rc = s_upload_f(&c->bf, mc->b, mc->out_c, err);
    free(w);
    free(b);
    return rc;
}

static int s_conv_desc(hs__cu_conv_t *c, const hs_nn_conv_t *mc, hs_error_t *err)
{
    HS__CK(err, cudnnCreateFilterDescriptor(&c->wdesc));
    HS__CK(err, cudnnSetFilter4dDescriptor(c->wdesc, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC,
                                           c->out_c, c->in_c, c->ky, c->kx));
    HS__CK(err, cudnnCreateConvolutionDescriptor(&c->cdesc));
    /* "same" padding as forward_ref.c: tap k reads offset (k - kside/2) * dil */
    HS__CK(err, cudnnSetConvolution2dDescriptor(c->cdesc, (mc->ky / 2) * mc->dil_y,
                                                (mc->kx / 2) * mc->dil_x, 1, 1, mc->dil_y,
                                                mc->dil_x, CUDNN_CROSS_CORRELATION,
                                                CUDNN_DATA_FLOAT));
    HS__CK(err, cudnnSetConvolutionMathType(c->cdesc, CUDNN_TENSOR_OP_MATH));
    HS__CK(err, cudnnCreateTensorDescriptor(&c->bdesc));
    HS__CK(err, cudnnSetTensor4dDescriptor(c->bdesc, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1,
                                           c->out_c, 1, 1));
    return 0;
}

/* One model conv into cu->convs. with_act: whether the model applies the
 * conv's activation right after it (else the caller or nothing does);
 * plain: the caller adds bias and activation itself (a per-board bias comes
 * between). *id gets the index. */
static int s_conv(hs__cu_t *cu, const hs_nn_conv_t *mc, int in_pad, int with_act, int plain,
                  int *id, hs_error_t *err)
{
    if (mc->ky % 2 == 0 || mc->kx % 2 == 0)
        return hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: even convolution kernel %dx%d",
                            mc->ky, mc->kx);
    int i = s_push((void **)&cu->convs, &cu->n_convs, &cu->cap_convs, sizeof *cu->convs);
    if (i < 0)
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
    *id = i;
    hs__cu_conv_t *c = &cu->convs[i];
    c->in_c = in_pad ? in_pad : mc->in_c;
    c->out_c = mc->out_c;
    c->ky = mc->ky;
    c->kx = mc->kx;
    c->act = (int)mc->act;
    if (plain)
        c->mode = HS__CU_PLAIN;
    else if (with_act && mc->act == HS_NN_ACT_RELU)
        c->mode = HS__CU_RELU;
    else {
        c->mode = HS__CU_IDENT;   /* cuDNN fuses only ReLU; Mish/SiLU come after */
        c->post_act = with_act ? (int)mc->act : 0;
    }
    cu->cmax = c->in_c > cu->cmax ? c->in_c : cu->cmax;
    cu->cmax = c->out_c > cu->cmax ? c->out_c : cu->cmax;
    cu->vec = 3 * c->out_c > cu->vec ? 3 * c->out_c : cu->vec;
    int rc = s_conv_desc(c, mc, err);
    return rc ? rc : s_conv_weights(c, mc, err);
}

static int s_dense(hs__cu_t *cu, const hs_nn_dense_t *md, int *id, hs_error_t *err)
{
    int i = s_push((void **)&cu->dens, &cu->n_dens, &cu->cap_dens, sizeof *cu->dens);
    if (i < 0)
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
    *id = i;
    hs__cu_dense_t *d = &cu->dens[i];
    d->in_c = md->in_c;
    d->out_c = md->out_c;
    d->act = (int)md->act;
    cu->vec = md->in_c > cu->vec ? md->in_c : cu->vec;
    cu->vec = md->out_c > cu->vec ? md->out_c : cu->vec;
    int rc = s_upload_f(&d->w, md->w, md->in_c * md->out_c, err);
    return rc ? rc : s_upload_f(&d->b, md->b, md->out_c, err);
}

static int s_norm(hs__cu_t *cu, const hs_nn_norm_t *mn, int *id, hs_error_t *err)
{
    int i = s_push((void **)&cu->norms, &cu->n_norms, &cu->cap_norms, sizeof *cu->norms);
    if (i < 0)
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
    *id = i;
    hs__cu_norm_t *nm = &cu->norms[i];
    nm->c = mn->channels;
    nm->act = (int)mn->act;
    int rc = s_upload_f(&nm->scale, mn->scale, mn->channels, err);
    return rc ? rc : s_upload_f(&nm->bias, mn->bias, mn->channels, err);
}

static int s_blocks(hs__cu_t *cu, const hs_nn_block_t *mb, int count, hs__cu_block_t *out,
                    int depth, hs_error_t *err)
{
    cu->depth = depth > cu->depth ? depth : cu->depth;
    for (int k = 0; k < count; k++) {
        const hs_nn_block_t *b = &mb[k];
        hs__cu_block_t *o = &out[k];
        o->kind = b->kind;
        o->gconv = o->gmul = o->post = -1;
        int rc = s_norm(cu, &b->pre, &o->pre, err);
        /* conv1: ReLU'd by cuDNN in a regular block; before the pooled bias in
         * a gpool block; linear in a nested one (forward_ref.c's s_block) */
        if (!rc) rc = s_conv(cu, &b->conv1, 0, b->kind == HS_NN_BLOCK_REGULAR,
                             b->kind == HS_NN_BLOCK_GPOOL, &o->conv1, err);
        if (!rc) rc = s_conv(cu, &b->conv2, 0, 0, 0, &o->conv2, err);
        if (!rc && b->kind == HS_NN_BLOCK_GPOOL) {
            rc = s_conv(cu, &b->gconv, 0, 1, 0, &o->gconv, err);
            if (!rc) rc = s_dense(cu, &b->gmul, &o->gmul, err);
        }
        if (!rc && b->kind == HS_NN_BLOCK_NESTED) {
            rc = s_norm(cu, &b->post, &o->post, err);
            o->inner = rc ? NULL : calloc((size_t)b->n_inner, sizeof *o->inner);
            if (!rc && !o->inner && b->n_inner > 0)
                rc = hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
            o->n_inner = o->inner ? b->n_inner : 0;
            if (!rc) rc = s_blocks(cu, b->inner, b->n_inner, o->inner, depth + 1, err);
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int s_heads(hs__cu_t *cu, const hs_nn_model_t *m, hs_error_t *err)
{
    cu->pass2 = -1;
    int rc = s_norm(cu, &m->tip, &cu->tip, err);
    if (!rc) rc = s_conv(cu, &m->p1conv, 0, 0, 1, &cu->p1, err);
    if (!rc) rc = s_conv(cu, &m->g1conv, 0, 1, 0, &cu->g1, err);
    if (!rc) rc = s_conv(cu, &m->p2conv, 0, 0, 0, &cu->p2, err);
    if (!rc) rc = s_dense(cu, &m->p_gmul, &cu->p_gmul, err);
    if (!rc) rc = s_dense(cu, &m->pass1, &cu->pass1, err);
    if (!rc && m->pass2.in_c) rc = s_dense(cu, &m->pass2, &cu->pass2, err);
    if (!rc) rc = s_conv(cu, &m->v1conv, 0, 1, 0, &cu->v1, err);
    if (!rc) rc = s_conv(cu, &m->own_conv, 0, 0, 0, &cu->own, err);
    if (!rc) rc = s_dense(cu, &m->v2, &cu->v2, err);
    if (!rc) rc = s_dense(cu, &m->v3, &cu->v3, err);
    if (!rc) rc = s_dense(cu, &m->sv3, &cu->sv3, err);
    if (!rc && (m->v3.out_c != 3 || m->sv3.out_c > 6))
        rc = hs_error_set(err, HS_EUNSUPPORTED, "backend cuda: value head gives %d/%d outputs, "
                          "not 3 and at most 6", m->v3.out_c, m->sv3.out_c);
    return rc;
}

int hs__cu_weights_upload(hs__cu_t *cu, hs_error_t *err)
{
    const hs_nn_model_t *m = cu->m;
    cu->cpad = (m->in_spatial + 7) / 8 * 8;
    cu->depth = 1;
    cu->vec = m->in_global;
    cu->blocks = calloc((size_t)(m->n_blocks > 0 ? m->n_blocks : 1), sizeof *cu->blocks);
    if (!cu->blocks)
        return hs_error_set(err, HS_ENOMEM, "backend cuda: out of memory");
    HS__CK(err, cudnnCreateActivationDescriptor(&cu->relu));
    HS__CK(err, cudnnSetActivationDescriptor(cu->relu, CUDNN_ACTIVATION_RELU,
                                             CUDNN_NOT_PROPAGATE_NAN, 0.0));
    HS__CK(err, cudnnCreateActivationDescriptor(&cu->ident));
    HS__CK(err, cudnnSetActivationDescriptor(cu->ident, CUDNN_ACTIVATION_IDENTITY,
                                             CUDNN_NOT_PROPAGATE_NAN, 0.0));
    int rc = s_conv(cu, &m->input_conv, cu->cpad, 0, 1, &cu->input_conv, err);
    if (!rc) rc = s_dense(cu, &m->input_global, &cu->input_global, err);
    if (!rc) rc = s_blocks(cu, m->blocks, m->n_blocks, cu->blocks, 1, err);
    if (!rc) rc = s_heads(cu, m, err);
    return rc;
}

static void s_free_blocks(hs__cu_block_t *b, int count)
{
    for (int k = 0; b && k < count; k++) {
        s_free_blocks(b[k].inner, b[k].n_inner);
        free(b[k].inner);
    }
}

void hs__cu_weights_free(hs__cu_t *cu)
{
    for (int i = 0; i < cu->n_convs; i++) {
        hs__cu_conv_t *c = &cu->convs[i];
        cudaFree(c->w); cudaFree(c->bh); cudaFree(c->bf);
        if (c->wdesc) cudnnDestroyFilterDescriptor(c->wdesc);
        if (c->cdesc) cudnnDestroyConvolutionDescriptor(c->cdesc);
        if (c->bdesc) cudnnDestroyTensorDescriptor(c->bdesc);
    }
    for (int i = 0; i < cu->n_dens; i++) {
        cudaFree(cu->dens[i].w); cudaFree(cu->dens[i].b);
    }
    for (int i = 0; i < cu->n_norms; i++) {
        cudaFree(cu->norms[i].scale); cudaFree(cu->norms[i].bias);
    }
    if (cu->relu) cudnnDestroyActivationDescriptor(cu->relu);
    if (cu->ident) cudnnDestroyActivationDescriptor(cu->ident);
    s_free_blocks(cu->blocks, cu->m->n_blocks);
    free(cu->blocks);
    free(cu->convs);
    free(cu->dens);
    free(cu->norms);
    cu->convs = NULL; cu->dens = NULL; cu->norms = NULL; cu->blocks = NULL;
    cu->n_convs = cu->n_dens = cu->n_norms = 0;
}
