/*
 * worker/nn/cuda/cuda_forward.c — one forward pass enqueued on one lane's
 * stream, mirroring forward_ref.c layer by layer (model.h has the block
 * semantics) in FP16 NHWC: cuDNN's fused convolution + bias + ReLU (+ the
 * residual as its z input) wherever the model allows it, our kernels for
 * the rest (cuda_kernels.h), cuBLAS SGEMM for the dense layers. Nothing here
 * waits: the caller synchronises the stream.
 */
#include "worker/nn/cuda/cuda_internal.h"
#include "worker/nn/cuda/cuda_kernels.h"

typedef struct s_ctx {
    hs__cu_t *cu;
    hs__cu_lane_t *l;
    const hs__cu_plan_t *p;
    int batch, n, area;
    hs_error_t *err;
} s_ctx_t;

/* The unfused route: y = conv(x) (+ y itself as the residual, through
 * cuDNN's beta), then bias and activation by our kernel. */
static int s_conv_unfused(const s_ctx_t *c, int id, const void *x, void *y, int residual,
                          int act)
{
    const hs__cu_conv_t *cv = &c->cu->convs[id];
    const hs__cu_plan_t *p = c->p;
    hs__cu_lane_t *l = c->l;
    const float one = 1.0f, zero = 0.0f;
    HS__CK(c->err, cudnnConvolutionForward(l->dnn, &one, p->xd[id], x, cv->wdesc, cv->w,
                                           cv->cdesc, p->algo[id], l->ws, l->ws_size,
                                           residual ? &one : &zero, p->yd[id], y));
    if (cv->bf || act)
        HS__CK(c->err, hs__cuk_bias_act(l->stream, y, cv->bf, NULL, act, c->batch, c->area,
                                        cv->out_c));
    return 0;
}

/* y = conv id (x), with its mode's bias and activation; with residual, y's
 * old contents are added before the activation (conv2: y is the trunk).
 * PLAIN convs leave bias and activation to the caller. */
static int s_conv(const s_ctx_t *c, int id, const void *x, void *y, int residual)
{
    const hs__cu_conv_t *cv = &c->cu->convs[id];
    const hs__cu_plan_t *p = c->p;
    hs__cu_lane_t *l = c->l;
    const float one = 1.0f, zero = 0.0f;
    int act = cv->mode == HS__CU_RELU ? 1 : cv->post_act;
    if (cv->mode == HS__CU_PLAIN) {
        HS__CK(c->err, cudnnConvolutionForward(l->dnn, &one, p->xd[id], x, cv->wdesc, cv->w,
                                               cv->cdesc, p->algo[id], l->ws, l->ws_size, &zero,
                                               p->yd[id], y));
        return 0;
    }
    if (p->unfused[id])
        return s_conv_unfused(c, id, x, y, residual, act);
    /* z aliases y: the residual in place, or (alpha2 = 0) not used */
    cudnnStatus_t st = cudnnConvolutionBiasActivationForward(
        l->dnn, &one, p->xd[id], x, cv->wdesc, cv->w, cv->cdesc, p->algo[id], l->ws, l->ws_size,
        residual ? &one : &zero, p->yd[id], y, cv->bdesc, cv->bh,
        cv->mode == HS__CU_RELU ? c->cu->relu : c->cu->ident, p->yd[id], y);
    if (hs__cu_refused(st)) {
        /* cuDNN will not fuse this shape: remember, and run it unfused
         * (nothing was enqueued by the refused call) */
        p->unfused[id] = 1;
        return s_conv_unfused(c, id, x, y, residual, act);
    }
    if (st != CUDNN_STATUS_SUCCESS)
        return hs__cu_fail(c->err, "cudnnConvolutionBiasActivationForward",
                           cudnnGetErrorString(st));
    if (cv->post_act)
        HS__CK(c->err, hs__cuk_bias_act(l->stream, y, NULL, NULL, cv->post_act, c->batch, c->area,
                                        cv->out_c));
    return 0;
}

/* out[batch][out_c] = act(in[batch][in_c] . w + b), FP32. cuBLAS is column
 * major: our row-major [in][out] weights are its out x in matrix. */
static int s_dense(const s_ctx_t *c, int id, const float *in, float *out)
{
    const hs__cu_dense_t *d = &c->cu->dens[id];
    const float one = 1.0f, zero = 0.0f;
    HS__CK(c->err, c->cu->blas_lib.cublasSgemm(c->l->blas, CUBLAS_OP_N, CUBLAS_OP_N, d->out_c,
                                               c->batch, d->in_c, &one, d->w, d->out_c, in,
                                               d->in_c, &zero, out, d->out_c));
    if (d->b || d->act)
        HS__CK(c->err, hs__cuk_bias_act_f(c->l->stream, out, d->b, d->act, c->batch, d->out_c));
    return 0;
}

static int s_norm(const s_ctx_t *c, int id, const void *x, void *y)
{
    const hs__cu_norm_t *nm = &c->cu->norms[id];
    HS__CK(c->err, hs__cuk_norm(c->l->stream, x, y, nm->scale, nm->bias, nm->act,
                                (long)c->batch * c->area, nm->c));
    return 0;
}

/* t = act1(conv1_linear(pre) + conv1.b + gmul(pool(gconv(pre)))) */
static int s_gpool_mid(const s_ctx_t *c, const hs__cu_block_t *b, const void *pre, void *t)
{
    hs__cu_lane_t *l = c->l;
    const hs__cu_conv_t *g = &c->cu->convs[b->gconv], *c1 = &c->cu->convs[b->conv1];
    int rc = s_conv(c, b->gconv, pre, l->ha, 0);
    if (!rc) {
        HS__CK(c->err, hs__cuk_pool(l->stream, l->ha, l->pool, c->batch, c->n, g->out_c, 0));
        rc = s_dense(c, b->gmul, l->pool, l->va);
    }
    if (!rc)
        HS__CK(c->err, hs__cuk_bias_act(l->stream, t, c1->bf, l->va, c1->act, c->batch, c->area,
                                        c1->out_c));
    return rc;
}

/* x += block(x); x has ch channels; d: nesting depth (buffers pre[d], mid[d]) */
static int s_block(const s_ctx_t *c, const hs__cu_block_t *b, void *x, int d)
{
    hs__cu_lane_t *l = c->l;
    void *pre = l->pre[d], *t = l->mid[d];
    int rc = s_norm(c, b->pre, x, pre);
    if (!rc) rc = s_conv(c, b->conv1, pre, t, 0);
    if (!rc && b->kind == HS_NN_BLOCK_GPOOL)
        rc = s_gpool_mid(c, b, pre, t);
    for (int i = 0; !rc && b->kind == HS_NN_BLOCK_NESTED && i < b->n_inner; i++)
        rc = s_block(c, &b->inner[i], t, d + 1);
    if (!rc && b->kind == HS_NN_BLOCK_NESTED)
        rc = s_norm(c, b->post, t, t);
    return rc ? rc : s_conv(c, b->conv2, t, x, 1);
}

static int s_trunk(const s_ctx_t *c)
{
    hs__cu_t *cu = c->cu;
    hs__cu_lane_t *l = c->l;
    const float *global = l->in_d + (long)c->batch * HS_NN_SPATIAL * c->area;
    HS__CK(c->err, hs__cuk_input(l->stream, l->in_d, l->x_in, c->batch, HS_NN_SPATIAL, cu->cpad,
                                 c->area));
    int rc = s_dense(c, cu->input_global, global, l->va);
    if (!rc) rc = s_conv(c, cu->input_conv, l->x_in, l->x, 0);
    if (!rc)
        HS__CK(c->err, hs__cuk_bias_act(l->stream, l->x, cu->convs[cu->input_conv].bf, l->va, 0,
                                        c->batch, c->area, cu->m->trunk_c));
    for (int i = 0; !rc && i < cu->m->n_blocks; i++)
        rc = s_block(c, &cu->blocks[i], l->x, 0);
    return rc ? rc : s_norm(c, cu->tip, l->x, l->t);
}

/* board b's d floats of src ([batch][width]) to out_d[b * stride + off] */
static int s_pack(const s_ctx_t *c, long off, const float *src, int width, int count)
{
    long stride = hs__cu_out_stride(c->n);
    HS__CK(c->err, cudaMemcpy2DAsync(c->l->out_d + off, (size_t)stride * sizeof(float), src,
                                     (size_t)width * sizeof(float), (size_t)count * sizeof(float),
                                     (size_t)c->batch, cudaMemcpyDeviceToDevice, c->l->stream));
    return 0;
}

static int s_policy(const s_ctx_t *c)
{
    hs__cu_t *cu = c->cu;
    hs__cu_lane_t *l = c->l;
    const hs__cu_conv_t *p1 = &cu->convs[cu->p1];
    int rc = s_conv(c, cu->p1, l->t, l->ha, 0);
    if (!rc) rc = s_conv(c, cu->g1, l->t, l->hb, 0);
    if (!rc)
        HS__CK(c->err, hs__cuk_pool(l->stream, l->hb, l->pool, c->batch, c->n,
                                    cu->convs[cu->g1].out_c, 0));
    if (!rc) rc = s_dense(c, cu->p_gmul, l->pool, l->va);
    if (!rc)
        HS__CK(c->err, hs__cuk_bias_act(l->stream, l->ha, p1->bf, l->va, p1->act, c->batch,
                                        c->area, p1->out_c));
    if (!rc) rc = s_conv(c, cu->p2, l->ha, l->hb, 0);
    if (!rc)
        HS__CK(c->err, hs__cuk_channel0(l->stream, l->hb, l->out_d, c->batch, c->area,
                                        cu->convs[cu->p2].out_c, hs__cu_out_stride(c->n)));
    if (!rc) rc = s_dense(c, cu->pass1, l->pool, l->va);
    if (!rc && cu->pass2 >= 0) {
        rc = s_dense(c, cu->pass2, l->va, l->vb);
        return rc ? rc : s_pack(c, c->area, l->vb, cu->dens[cu->pass2].out_c, 1);
    }
    return rc ? rc : s_pack(c, c->area, l->va, cu->dens[cu->pass1].out_c, 1);
}

static int s_value(const s_ctx_t *c)
{
    hs__cu_t *cu = c->cu;
    hs__cu_lane_t *l = c->l;
    int rc = s_conv(c, cu->v1, l->t, l->ha, 0);
    if (!rc)
        HS__CK(c->err, hs__cuk_pool(l->stream, l->ha, l->pool, c->batch, c->n,
                                    cu->convs[cu->v1].out_c, 1));
    if (!rc) rc = s_dense(c, cu->v2, l->pool, l->va);
    if (!rc) rc = s_dense(c, cu->v3, l->va, l->vb);
    if (!rc) rc = s_pack(c, c->area + 1, l->vb, 3, 3);
    if (!rc) rc = s_dense(c, cu->sv3, l->va, l->vb);
    int ns = cu->dens[cu->sv3].out_c;
    if (!rc) rc = s_pack(c, c->area + 4, l->vb, ns, ns);
    if (!rc) rc = s_conv(c, cu->own, l->ha, l->hb, 0);
    if (!rc)
        HS__CK(c->err, hs__cuk_channel0(l->stream, l->hb, l->out_d + c->area + HS__CU_OUT_EXTRA,
                                        c->batch, c->area, cu->convs[cu->own].out_c,
                                        hs__cu_out_stride(c->n)));
    return rc;
}

int hs__cu_forward(hs__cu_t *cu, hs__cu_lane_t *l, const hs__cu_plan_t *p, int batch, int n,
                   hs_error_t *err)
{
    s_ctx_t c = { cu, l, p, batch, n, n * n, err };
    int rc = s_trunk(&c);
    if (!rc) rc = s_policy(&c);
    return rc ? rc : s_value(&c);
}
