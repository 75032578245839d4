/*
 * worker/nn/dnnl/dnnl_plan.c — one execution plan of the cpu backend: the
 * oneDNN primitives, buffers and own steps of a whole forward pass for one
 * (batch size, board side), built once and replayed on every run.
 *
 * Per block (model.h's semantics):
 *   pre = act(x * scale + bias)        binary mul + post-ops (binary add, eltwise)
 *   REGULAR: t = act(conv1(pre) + b)   convolution + eltwise post-op
 *   GPOOL:   t = conv1(pre) + b; g = act(gconv(pre) + b), reordered to plain
 *            NCHW; own loop pools g and applies gmul; t = act(t + bias[batch][c])
 *            (binary add with a per-board broadcast + eltwise post-op)
 *   NESTED:  t = conv1(pre); inner blocks on t; t = act(t * s + b)
 *   x = conv2(t) + b + x               convolution + sum post-op (in place)
 * The tip norm is one more binary; the heads' three 1x1 convolutions run as
 * one oneDNN convolution whose plain copy the own loops finish.
 */
#include <stdlib.h>
#include <string.h>

#include "worker/nn/dnnl/dnnl_internal.h"

enum { R_X = 1, R_PRE, R_T, R_G, R_GPLAIN, R_TBIAS, R_IN, R_GB, R_HEAD, R_HEADPLAIN };
#define ROLE(r, depth) ((r) + 16 * (depth))

static int s_md(dnnl_memory_desc_t *md, int d0, int d1, int d2, int d3, dnnl_format_tag_t tag,
                hs_error_t *err)
{
    dnnl_dims_t dims = {d0, d1, d2, d3};
    HS__DNNL_TRY(dnnl_memory_desc_init_by_tag(md, 4, dims, dnnl_f32, tag), err);
    return 0;
}

static int s_grow(void **arr, int *cap, int need, size_t elem, hs_error_t *err)
{
    if (need <= *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 16;
    void *na = realloc(*arr, (size_t)nc * elem);
    if (!na)
        return hs_error_set(err, HS_ENOMEM, "cpu backend: out of memory building a plan");
    *arr = na;
    *cap = nc;
    return 0;
}

static int s_keep_mem(hs__dnnl_plan_t *p, dnnl_memory_t mem, hs_error_t *err)
{
    int rc = s_grow((void **)&p->mems, &p->cap_mems, p->n_mems + 1, sizeof *p->mems, err);
    if (rc) {
        dnnl_memory_destroy(mem);
        return rc;
    }
    p->mems[p->n_mems++] = mem;
    return 0;
}

/* A memory over caller-owned floats (model parameters, read only). */
static int s_wrap(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, const dnnl_memory_desc_t *md,
                  const float *data, dnnl_memory_t *out, hs_error_t *err)
{
    HS__DNNL_TRY(dnnl_memory_create(out, md, c->eng, (void *)data), err);
    return s_keep_mem(p, *out, err);
}

/* The plan's buffer for role with md: shared when one exists, else made. */
static int s_buf(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int role, const dnnl_memory_desc_t *md,
                 dnnl_memory_t *out, hs_error_t *err)
{
    for (int i = 0; i < p->n_bufs; i++)
        if (p->bufs[i].role == role && dnnl_memory_desc_equal(&p->bufs[i].md, md)) {
            *out = p->bufs[i].mem;
            return 0;
        }
    int rc = s_grow((void **)&p->bufs, &p->cap_bufs, p->n_bufs + 1, sizeof *p->bufs, err);
    if (rc)
        return rc;
    HS__DNNL_TRY(dnnl_memory_create(out, md, c->eng, DNNL_MEMORY_ALLOCATE), err);
    p->bufs[p->n_bufs++] = (hs__dnnl_buf_t){role, *md, *out};
    return 0;
}

static float *s_ptr(dnnl_memory_t mem)
{
    void *h = NULL;
    dnnl_memory_get_data_handle(mem, &h);
    return h;
}

static const dnnl_memory_desc_t *s_mem_md(dnnl_memory_t mem)
{
    const dnnl_memory_desc_t *md = NULL;
    dnnl_memory_get_memory_desc(mem, &md);
    return md;
}

static int s_push(hs__dnnl_plan_t *p, const hs__dnnl_step_t *st, hs_error_t *err)
{
    int rc = s_grow((void **)&p->steps, &p->cap_steps, p->n_steps + 1, sizeof *p->steps, err);
    if (rc) {
        if (st->prim)
            dnnl_primitive_destroy(st->prim);
        if (st->scratch)
            dnnl_memory_destroy(st->scratch);
        return rc;
    }
    p->steps[p->n_steps++] = *st;
    return 0;
}

/* A primitive from pd (pd is destroyed here) as a step with args, and its
 * scratchpad (user mode) over the plan's shared scratch buffer, which
 * s_scratch allocates once the plan is complete: steps run one at a time. */
static int s_prim_step(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, dnnl_primitive_desc_t pd, int nargs,
                       const dnnl_exec_arg_t *args, hs_error_t *err)
{
    hs__dnnl_step_t st = {0};
    const dnnl_memory_desc_t *smd = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    size_t need = smd ? dnnl_memory_desc_get_size(smd) : 0;
    dnnl_status_t s = dnnl_success;
    if (need) {
        s = dnnl_memory_create(&st.scratch, smd, c->eng, DNNL_MEMORY_NONE);
        p->scratch_size = need > p->scratch_size ? need : p->scratch_size;
    }
    if (s == dnnl_success)
        s = dnnl_primitive_create(&st.prim, pd);
    dnnl_primitive_desc_destroy(pd);
    if (s != dnnl_success) {
        if (st.scratch)
            dnnl_memory_destroy(st.scratch);
        return hs__dnnl_fail(s, "dnnl_primitive_create", err);
    }
    memcpy(st.args, args, (size_t)nargs * sizeof *args);
    if (st.scratch)
        st.args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, st.scratch};
    st.nargs = nargs;
    return s_push(p, &st, err);
}

/* The scratch buffer every step's scratchpad points into. */
static int s_scratch(hs__dnnl_plan_t *p, hs_error_t *err)
{
    if (!p->scratch_size)
        return 0;
    p->scratch = aligned_alloc(64, (p->scratch_size + 63) / 64 * 64);
    if (!p->scratch)
        return hs_error_set(err, HS_ENOMEM, "cpu backend: out of memory for scratch");
    for (int i = 0; i < p->n_steps; i++)
        if (p->steps[i].scratch)
            HS__DNNL_TRY(dnnl_memory_set_data_handle(p->steps[i].scratch, p->scratch), err);
    return 0;
}

static void s_act_alg(hs_nn_act_t act, dnnl_alg_kind_t *alg, float *alpha)
{
    *alpha = 0.0f;
    switch (act) {
    case HS_NN_ACT_MISH: *alg = dnnl_eltwise_mish; break;
    case HS_NN_ACT_SILU: *alg = dnnl_eltwise_swish; *alpha = 1.0f; break;
    default: *alg = dnnl_eltwise_relu; break;
    }
}

/* Post-ops: [sum] [binary add of add_md] [eltwise act]; into a new attr. */
static int s_attr(int sum, const dnnl_memory_desc_t *add_md, hs_nn_act_t act,
                  dnnl_primitive_attr_t *attr, hs_error_t *err)
{
    dnnl_post_ops_t po;
    HS__DNNL_TRY(dnnl_post_ops_create(&po), err);
    dnnl_status_t s = dnnl_success;
    if (sum)
        s = dnnl_post_ops_append_sum(po, 1.0f);
    if (s == dnnl_success && add_md)
        s = dnnl_post_ops_append_binary(po, dnnl_binary_add, add_md);
    if (s == dnnl_success && act != HS_NN_ACT_IDENTITY) {
        dnnl_alg_kind_t alg;
        float alpha;
        s_act_alg(act, &alg, &alpha);
        s = dnnl_post_ops_append_eltwise(po, 1.0f, alg, alpha, 0.0f);
    }
    if (s == dnnl_success)
        s = dnnl_primitive_attr_create(attr);
    if (s == dnnl_success) {
        s = dnnl_primitive_attr_set_post_ops(*attr, po);
        /* the plan's one scratch buffer, not an allocation on every run */
        if (s == dnnl_success)
            s = dnnl_primitive_attr_set_scratchpad_mode(*attr, dnnl_scratchpad_mode_user);
        if (s != dnnl_success)
            dnnl_primitive_attr_destroy(*attr);
    }
    dnnl_post_ops_destroy(po);
    return s == dnnl_success ? 0 : hs__dnnl_fail(s, "dnnl_post_ops_append_*", err);
}

static int s_reorder(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, dnnl_memory_t from, dnnl_memory_t to,
                     hs_error_t *err)
{
    dnnl_primitive_desc_t pd;
    dnnl_primitive_attr_t attr;
    int rc = s_attr(0, NULL, HS_NN_ACT_IDENTITY, &attr, err);
    if (rc)
        return rc;
    dnnl_status_t s = dnnl_reorder_primitive_desc_create(&pd, s_mem_md(from), c->eng,
                                                         s_mem_md(to), c->eng, attr);
    dnnl_primitive_attr_destroy(attr);
    if (s != dnnl_success)
        return hs__dnnl_fail(s, "dnnl_reorder_primitive_desc_create", err);
    dnnl_exec_arg_t a[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    return s_prim_step(c, p, pd, 2, a, err);
}

/* The convolution's primitive descriptor: src and dst md as given (may be
 * format any), weights any, "same" padding as forward_ref.c pads. */
static int s_conv_pd(hs__dnnl_ctx_t *c, const hs_nn_conv_t *cv, const dnnl_memory_desc_t *src,
                     const dnnl_memory_desc_t *dst, hs_nn_act_t act, int sum, int wino,
                     dnnl_primitive_desc_t *pd, hs_error_t *err)
{
    dnnl_memory_desc_t wmd, bmd;
    int rc = s_md(&wmd, cv->out_c, cv->in_c, cv->ky, cv->kx, dnnl_format_tag_any, err);
    dnnl_dims_t bd = {cv->out_c};
    if (!rc && cv->b)
        HS__DNNL_TRY(dnnl_memory_desc_init_by_tag(&bmd, 1, bd, dnnl_f32, dnnl_x), err);
    dnnl_dims_t strides = {1, 1}, dil = {cv->dil_y - 1, cv->dil_x - 1};
    dnnl_dims_t pl = {(cv->ky / 2) * cv->dil_y, (cv->kx / 2) * cv->dil_x};
    dnnl_dims_t pr = {(cv->ky - 1 - cv->ky / 2) * cv->dil_y, (cv->kx - 1 - cv->kx / 2) * cv->dil_x};
    dnnl_convolution_desc_t cd;
    dnnl_alg_kind_t alg = wino ? dnnl_convolution_winograd : dnnl_convolution_direct;
    if (!rc)
        HS__DNNL_TRY(dnnl_dilated_convolution_forward_desc_init(
                         &cd, dnnl_forward_inference, alg, src, &wmd, cv->b ? &bmd : NULL,
                         dst, strides, dil, pl, pr), err);
    dnnl_primitive_attr_t attr = NULL;
    if (!rc)
        rc = s_attr(sum, NULL, act, &attr, err);
    if (rc)
        return rc;
    dnnl_status_t s = dnnl_primitive_desc_create(pd, &cd, attr, c->eng, NULL);
    dnnl_primitive_attr_destroy(attr);
    return s == dnnl_success ? 0 : hs__dnnl_fail(s, "dnnl_primitive_desc_create for a convolution", err);
}

/* cv's weights in the format md, reordered once per (conv, format) and kept
 * for every later plan. */
static int s_weights(hs__dnnl_ctx_t *c, const hs_nn_conv_t *cv, const dnnl_memory_desc_t *md,
                     dnnl_memory_t *out, hs_error_t *err)
{
    for (int i = 0; i < c->n_w; i++)
        if (c->w[i].conv == cv && dnnl_memory_desc_equal(&c->w[i].md, md)) {
            *out = c->w[i].mem;
            return 0;
        }
    int rc = s_grow((void **)&c->w, &c->cap_w, c->n_w + 1, sizeof *c->w, err);
    dnnl_memory_desc_t umd;
    if (!rc)
        rc = s_md(&umd, cv->out_c, cv->in_c, cv->ky, cv->kx, dnnl_oihw, err);
    if (rc)
        return rc;
    dnnl_memory_t user = NULL, mem = NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_status_t s = dnnl_memory_create(&user, &umd, c->eng, cv->w);
    if (s == dnnl_success)
        s = dnnl_memory_create(&mem, md, c->eng, DNNL_MEMORY_ALLOCATE);
    if (s == dnnl_success)
        s = dnnl_reorder_primitive_desc_create(&pd, &umd, c->eng, md, c->eng, NULL);
    if (s == dnnl_success)
        s = dnnl_primitive_create(&prim, pd);
    dnnl_exec_arg_t a[2] = {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, mem}};
    if (s == dnnl_success)
        s = dnnl_primitive_execute(prim, c->stream, 2, a);
    if (s == dnnl_success)
        s = dnnl_stream_wait(c->stream);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_destroy(user);
    if (s != dnnl_success) {
        dnnl_memory_destroy(mem);
        return hs__dnnl_fail(s, "reordering convolution weights", err);
    }
    c->w[c->n_w++] = (hs__dnnl_wcache_t){cv, *md, mem};
    *out = mem;
    return 0;
}

/* dst = conv(src) [+ dst] [act] as a step; dst must exist (its md is used). */
static int s_conv(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, const hs_nn_conv_t *cv,
                  dnnl_memory_t src, dnnl_memory_t dst, hs_nn_act_t act, int sum, hs_error_t *err)
{
    int wino = p->winograd && cv->ky == 3 && cv->kx == 3 && cv->dil_y == 1 && cv->dil_x == 1;
    dnnl_primitive_desc_t pd;
    int rc = s_conv_pd(c, cv, s_mem_md(src), s_mem_md(dst), act, sum, wino, &pd, err);
    if (rc)
        return rc;
    dnnl_memory_t w = NULL, b = NULL;
    rc = s_weights(c, cv, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), &w, err);
    if (!rc && cv->b) {
        dnnl_memory_desc_t bmd;
        dnnl_dims_t bd = {cv->out_c};
        dnnl_memory_desc_init_by_tag(&bmd, 1, bd, dnnl_f32, dnnl_x);
        rc = s_wrap(c, p, &bmd, cv->b, &b, err);
    }
    if (rc) {
        dnnl_primitive_desc_destroy(pd);
        return rc;
    }
    dnnl_exec_arg_t a[4] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, dst},
                            {DNNL_ARG_BIAS, b}};
    return s_prim_step(c, p, pd, cv->b ? 4 : 3, a, err);
}

/* dst = act(src op src1 [+ add]) with src1 and add broadcast from plain
 * (d0, C, 1, 1) vectors. */
static int s_binary(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, dnnl_alg_kind_t op, dnnl_memory_t src,
                    dnnl_memory_t src1, dnnl_memory_t add, dnnl_memory_t dst, hs_nn_act_t act,
                    hs_error_t *err)
{
    dnnl_binary_desc_t bd;
    HS__DNNL_TRY(dnnl_binary_desc_init(&bd, op, s_mem_md(src), s_mem_md(src1), s_mem_md(dst)), err);
    dnnl_primitive_attr_t attr;
    int rc = s_attr(0, add ? s_mem_md(add) : NULL, act, &attr, err);
    if (rc)
        return rc;
    dnnl_primitive_desc_t pd;
    dnnl_status_t s = dnnl_primitive_desc_create(&pd, &bd, attr, c->eng, NULL);
    dnnl_primitive_attr_destroy(attr);
    if (s != dnnl_success)
        return hs__dnnl_fail(s, "dnnl_primitive_desc_create for a binary", err);
    dnnl_exec_arg_t a[4] = {{DNNL_ARG_SRC_0, src}, {DNNL_ARG_SRC_1, src1}, {DNNL_ARG_DST, dst},
                            {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, add}};
    return s_prim_step(c, p, pd, add ? 4 : 3, a, err);
}

/* An activation tensor of the plan: (batch, ch, n, n) in the plan's format. */
static int s_act_buf(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int role, int ch, dnnl_format_tag_t tag,
                     dnnl_memory_t *out, hs_error_t *err)
{
    dnnl_memory_desc_t md;
    int rc = s_md(&md, p->batch, ch, p->n, p->n, tag, err);
    return rc ? rc : s_buf(c, p, role, &md, out, err);
}

/* A (1, C, 1, 1) parameter vector in the plan's activation format: a plain
 * vector would send oneDNN's binary to its slow reference code for blocked
 * tensors. In every format this file names, channel c of board 0 sits at
 * offset c; the padding stays zero. */
static int s_param_vec(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, const float *data, int ch,
                       dnnl_memory_t *out, hs_error_t *err)
{
    dnnl_memory_desc_t md;
    int rc = s_md(&md, 1, ch, 1, 1, p->act_tag, err);
    if (rc)
        return rc;
    HS__DNNL_TRY(dnnl_memory_create(out, &md, c->eng, DNNL_MEMORY_ALLOCATE), err);
    rc = s_keep_mem(p, *out, err);
    if (rc)
        return rc;
    float *v = s_ptr(*out);
    memset(v, 0, dnnl_memory_desc_get_size(&md));
    memcpy(v, data, (size_t)ch * sizeof *v);
    return 0;
}

/* A (batch, C, 1, 1) per-board vector in the plan's format, which own loops
 * fill: board b's channel c at b * padded C + c (hs__dnnl_step_t.stride).
 * Plain where C is not a multiple of a blocked format's block: oneDNN 2.6's
 * jit binary then adds wrong values (nChw16c, C = 2, an eltwise post-op;
 * test_nn_backend_tiny's v8 model under Winograd); its reference code is
 * right, and real nets' channel counts are multiples of 16. */
static int s_board_vec(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int role, int ch, dnnl_memory_t *out,
                       int *stride, hs_error_t *err)
{
    dnnl_memory_desc_t md;
    int block = p->act_tag == dnnl_nChw16c ? 16 : p->act_tag == dnnl_nChw8c ? 8 : 1;
    int rc = s_md(&md, p->batch, ch, 1, 1, ch % block ? dnnl_nchw : p->act_tag, err);
    if (!rc) rc = s_buf(c, p, role, &md, out, err);
    if (!rc) {
        *stride = (int)md.padded_dims[1];
        memset(s_ptr(*out), 0, dnnl_memory_desc_get_size(&md));
    }
    return rc;
}

/* dst = act(src * scale + bias), per channel. */
static int s_norm(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, const hs_nn_norm_t *nm,
                  dnnl_memory_t src, dnnl_memory_t dst, hs_error_t *err)
{
    dnnl_memory_t sc, bi;
    int rc = s_param_vec(c, p, nm->scale, nm->channels, &sc, err);
    if (!rc) rc = s_param_vec(c, p, nm->bias, nm->channels, &bi, err);
    return rc ? rc : s_binary(c, p, dnnl_binary_mul, src, sc, bi, dst, nm->act, err);
}

static int s_own(hs__dnnl_plan_t *p, hs__dnnl_own_t kind, const hs_nn_block_t *b, float *in,
                 float *out, int stride, hs_error_t *err)
{
    hs__dnnl_step_t st = {0};
    st.own = kind;
    st.stride = stride;
    st.blk = b;
    st.in = in;
    st.out = out;
    return s_push(p, &st, err);
}

/* GPOOL's middle: t = act(t + gmul(pool(act(gconv(pre))))). */
static int s_gpool(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, const hs_nn_block_t *b, dnnl_memory_t pre,
                   dnnl_memory_t t, hs_error_t *err)
{
    dnnl_memory_t g, gp, tb;
    int stride = 0;
    int rc = s_act_buf(c, p, R_G, b->gconv.out_c, p->act_tag, &g, err);
    if (!rc) rc = s_act_buf(c, p, R_GPLAIN, b->gconv.out_c, dnnl_nchw, &gp, err);
    if (!rc) rc = s_board_vec(c, p, R_TBIAS, b->gmul.out_c, &tb, &stride, err);
    if (!rc) rc = s_conv(c, p, &b->gconv, pre, g, b->gconv.act, 0, err);
    if (!rc && g != gp) rc = s_reorder(c, p, g, gp, err);
    if (!rc) rc = s_own(p, HS__OWN_GPOOL, b, s_ptr(gp), s_ptr(tb), stride, err);
    if (!rc) rc = s_binary(c, p, dnnl_binary_add, t, tb, NULL, t, b->conv1.act, err);
    return rc;
}

/* x += block(x), x holding ch channels at nesting depth. */
static int s_block(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, const hs_nn_block_t *b, dnnl_memory_t x,
                   int ch, int depth, hs_error_t *err)
{
    dnnl_memory_t pre, t;
    int rc = s_act_buf(c, p, ROLE(R_PRE, depth), ch, p->act_tag, &pre, err);
    if (!rc) rc = s_act_buf(c, p, ROLE(R_T, depth), b->conv1.out_c, p->act_tag, &t, err);
    if (!rc) rc = s_norm(c, p, &b->pre, x, pre, err);
    if (rc)
        return rc;
    hs_nn_act_t act1 = b->kind == HS_NN_BLOCK_REGULAR ? b->conv1.act : HS_NN_ACT_IDENTITY;
    rc = s_conv(c, p, &b->conv1, pre, t, act1, 0, err);
    if (!rc && b->kind == HS_NN_BLOCK_GPOOL)
        rc = s_gpool(c, p, b, pre, t, err);
    for (int i = 0; !rc && b->kind == HS_NN_BLOCK_NESTED && i < b->n_inner; i++)
        rc = s_block(c, p, &b->inner[i], t, b->conv1.out_c, depth + 1, err);
    if (!rc && b->kind == HS_NN_BLOCK_NESTED)
        rc = s_norm(c, p, &b->post, t, t, err);
    return rc ? rc : s_conv(c, p, &b->conv2, t, x, HS_NN_ACT_IDENTITY, 1, err);
}

/* The activation format oneDNN prefers for the trunk's first 3x3 layer at
 * this shape, as one of the tags this file can name for any channel count. */
static int s_pick_tag(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, hs_error_t *err)
{
    const hs_nn_model_t *m = c->m;
    const hs_nn_conv_t *cv = m->n_blocks ? &m->blocks[0].conv1 : &m->input_conv;
    dnnl_memory_desc_t any_s, any_d;
    dnnl_primitive_desc_t pd;
    int rc = s_md(&any_s, p->batch, cv->in_c, p->n, p->n, dnnl_format_tag_any, err);
    if (!rc) rc = s_md(&any_d, p->batch, cv->out_c, p->n, p->n, dnnl_format_tag_any, err);
    if (!rc) rc = s_conv_pd(c, cv, &any_s, &any_d, HS_NN_ACT_IDENTITY, 0, p->winograd, &pd, err);
    if (rc)
        return rc;
    const dnnl_memory_desc_t *chosen = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    static const dnnl_format_tag_t tags[] = {dnnl_nChw16c, dnnl_nChw8c, dnnl_nhwc, dnnl_nchw};
    p->act_tag = dnnl_format_tag_undef;
    for (size_t i = 0; i < sizeof tags / sizeof *tags && p->act_tag == dnnl_format_tag_undef; i++) {
        dnnl_memory_desc_t md;
        s_md(&md, p->batch, cv->out_c, p->n, p->n, tags[i], NULL);
        if (dnnl_memory_desc_equal(&md, chosen))
            p->act_tag = tags[i];
    }
    dnnl_primitive_desc_destroy(pd);
    if (p->act_tag == dnnl_format_tag_undef)   /* a format we cannot name: plain is safe */
        p->act_tag = dnnl_nchw;
    return 0;
}

/* x = input_conv(spatial) + input_global(global), broadcast over the board. */
static int s_input(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, dnnl_memory_t x, hs_error_t *err)
{
    const hs_nn_model_t *m = c->m;
    dnnl_memory_desc_t umd, any;
    int rc = s_md(&umd, p->batch, HS_NN_SPATIAL, p->n, p->n, dnnl_nchw, err);
    if (!rc) rc = s_md(&any, p->batch, HS_NN_SPATIAL, p->n, p->n, dnnl_format_tag_any, err);
    if (rc)
        return rc;
    HS__DNNL_TRY(dnnl_memory_create(&p->user_in, &umd, c->eng, DNNL_MEMORY_NONE), err);
    dnnl_primitive_desc_t pd;
    rc = s_conv_pd(c, &m->input_conv, &any, s_mem_md(x), HS_NN_ACT_IDENTITY, 0, 0, &pd, err);
    if (rc)
        return rc;
    dnnl_memory_desc_t want = *dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_t in = p->user_in, gb;
    if (!dnnl_memory_desc_equal(&want, &umd)) {
        rc = s_buf(c, p, R_IN, &want, &in, err);
        if (!rc) rc = s_reorder(c, p, p->user_in, in, err);
    }
    if (!rc) rc = s_conv(c, p, &m->input_conv, in, x, HS_NN_ACT_IDENTITY, 0, err);
    int stride = 0;
    if (!rc) rc = s_board_vec(c, p, R_GB, m->trunk_c, &gb, &stride, err);
    if (!rc) rc = s_own(p, HS__OWN_GLOBAL, NULL, NULL, s_ptr(gb), stride, err);
    if (!rc) rc = s_binary(c, p, dnnl_binary_add, x, gb, NULL, x, HS_NN_ACT_IDENTITY, err);
    return rc;
}

/* tip norm, the heads' joint 1x1 convolution, its plain copy, own heads. */
static int s_heads(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, dnnl_memory_t x, hs_error_t *err)
{
    const hs_nn_model_t *m = c->m;
    dnnl_memory_t tip, head, plain;
    dnnl_memory_desc_t any;
    dnnl_primitive_desc_t pd;
    int rc = s_act_buf(c, p, R_PRE, m->trunk_c, p->act_tag, &tip, err);
    if (!rc) rc = s_norm(c, p, &m->tip, x, tip, err);
    if (!rc) rc = s_md(&any, p->batch, c->heads.out_c, p->n, p->n, dnnl_format_tag_any, err);
    if (!rc) rc = s_conv_pd(c, &c->heads, s_mem_md(tip), &any, HS_NN_ACT_IDENTITY, 0, 0, &pd, err);
    if (rc)
        return rc;
    dnnl_memory_desc_t chosen = *dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    dnnl_primitive_desc_destroy(pd);
    rc = s_buf(c, p, R_HEAD, &chosen, &head, err);
    if (!rc) rc = s_act_buf(c, p, R_HEADPLAIN, c->heads.out_c, dnnl_nchw, &plain, err);
    if (!rc) rc = s_conv(c, p, &c->heads, tip, head, HS_NN_ACT_IDENTITY, 0, err);
    if (!rc && !dnnl_memory_desc_equal(&chosen, s_mem_md(plain)))
        rc = s_reorder(c, p, head, plain, err);
    else if (!rc)
        plain = head;
    if (!rc) rc = s_own(p, HS__OWN_HEADS, NULL, s_ptr(plain), NULL, 0, err);
    return rc;
}

int hs__dnnl_plan_build(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, int batch, int n, hs_error_t *err)
{
    p->batch = batch;
    p->n = n;
    dnnl_memory_t x;
    int rc = s_pick_tag(c, p, err);
    if (!rc) rc = s_act_buf(c, p, R_X, c->m->trunk_c, p->act_tag, &x, err);
    if (!rc) rc = s_input(c, p, x, err);
    for (int i = 0; !rc && i < c->m->n_blocks; i++)
        rc = s_block(c, p, &c->m->blocks[i], x, c->m->trunk_c, 0, err);
    if (!rc) rc = s_heads(c, p, x, err);
    if (!rc) rc = s_scratch(p, err);
    return rc;
}

void hs__dnnl_plan_free(hs__dnnl_plan_t *p)
{
    for (int i = 0; i < p->n_steps; i++) {
        if (p->steps[i].prim)
            dnnl_primitive_destroy(p->steps[i].prim);
        if (p->steps[i].scratch)
            dnnl_memory_destroy(p->steps[i].scratch);
    }
    for (int i = 0; i < p->n_bufs; i++)
        dnnl_memory_destroy(p->bufs[i].mem);
    for (int i = 0; i < p->n_mems; i++)
        dnnl_memory_destroy(p->mems[i]);
    if (p->user_in)
        dnnl_memory_destroy(p->user_in);
    free(p->steps);
    free(p->scratch);
    free(p->bufs);
    free(p->mems);
    memset(p, 0, sizeof *p);
}

static void s_own_run(const hs__dnnl_ctx_t *c, const hs__dnnl_plan_t *p, const hs__dnnl_step_t *st)
{
    switch (st->own) {
    case HS__OWN_GLOBAL:
        hs__dnnl_own_global(c->m, p->batch, p->run_global, st->out, st->stride);
        break;
    case HS__OWN_GPOOL:
        hs__dnnl_own_gpool(st->blk, p->batch, p->n, st->in, st->out, st->stride);
        break;
    case HS__OWN_HEADS:
        hs__dnnl_own_heads(c->m, p->batch, p->n, st->in, p->run_raw);
        break;
    default:
        break;
    }
}

int hs__dnnl_plan_exec(hs__dnnl_ctx_t *c, hs__dnnl_plan_t *p, hs_error_t *err)
{
    for (int i = 0; i < p->n_steps; i++) {
        const hs__dnnl_step_t *st = &p->steps[i];
        if (st->prim) {
            HS__DNNL_TRY(dnnl_primitive_execute(st->prim, c->stream, st->nargs, st->args), err);
            continue;
        }
        /* own loops read what the primitives before them wrote */
        HS__DNNL_TRY(dnnl_stream_wait(c->stream), err);
        s_own_run(c, p, st);
    }
    HS__DNNL_TRY(dnnl_stream_wait(c->stream), err);
    return 0;
}
