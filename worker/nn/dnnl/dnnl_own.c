/*
 * worker/nn/dnnl/dnnl_own.c — the cpu backend's own loops: the parts of the
 * net that are not convolutions and cost little (global pooling, the small
 * dense layers, the heads' one-channel 1x1 outputs). They read plain NCHW
 * copies that a oneDNN reorder made, so they never depend on the blocked
 * format oneDNN chose. Semantics as forward_ref.c (model.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worker/nn/dnnl/dnnl_internal.h"

static float s_act(float x, hs_nn_act_t k)
{
    switch (k) {
    case HS_NN_ACT_RELU: return x > 0 ? x : 0;
    case HS_NN_ACT_MISH: return x * tanhf(x > 20 ? x : log1pf(expf(x)));
    case HS_NN_ACT_SILU: return x / (1.0f + expf(-x));
    default: return x;
    }
}

static void s_dense(const hs_nn_dense_t *d, const float *in, float *out)
{
    for (int o = 0; o < d->out_c; o++) {
        double acc = d->b ? d->b[o] : 0.0;
        for (int i = 0; i < d->in_c; i++)
            acc += (double)in[i] * d->w[(size_t)i * (size_t)d->out_c + (size_t)o];
        out[o] = s_act((float)acc, d->act);
    }
}

static void s_act_plane(float *x, size_t count, hs_nn_act_t k)
{
    if (k != HS_NN_ACT_IDENTITY)
        for (size_t i = 0; i < count; i++)
            x[i] = s_act(x[i], k);
}

/* out[k] = b + sum_c w[c] in[c][k]: channel 0 of a 1x1 convolution. */
static void s_conv1x1_ch0(const hs_nn_conv_t *cv, const float *in, size_t a, float *out)
{
    float b0 = cv->b ? cv->b[0] : 0.0f;
    for (size_t k = 0; k < a; k++)
        out[k] = b0;
    for (int c = 0; c < cv->in_c; c++) {
        float w = cv->w[c];   /* [0][c][0][0] */
        const float *s = in + (size_t)c * a;
        for (size_t k = 0; k < a; k++)
            out[k] += w * s[k];
    }
}

void hs__dnnl_own_global(const hs_nn_model_t *m, int batch, const float *global, float *gb,
                         int stride)
{
    for (int b = 0; b < batch; b++)
        s_dense(&m->input_global, global + (size_t)b * HS_NN_GLOBAL,
                gb + (size_t)b * (size_t)stride);
}

void hs__dnnl_own_gpool(const hs_nn_block_t *blk, int batch, int n, const float *g, float *tb,
                        int stride)
{
    int gc = blk->gconv.out_c;
    size_t a = (size_t)n * (size_t)n;
    float pooled[3 * HS_NN_MAX_CHANNELS];
    for (int b = 0; b < batch; b++) {
        hs_nn_pool(g + (size_t)b * (size_t)gc * a, gc, n, 0, pooled);
        s_dense(&blk->gmul, pooled, tb + (size_t)b * (size_t)stride);
    }
}

static void s_policy(const hs_nn_model_t *m, int n, float *p1, float *g1, hs_nn_raw_t *raw)
{
    size_t a = (size_t)n * (size_t)n;
    int pc = m->p1conv.out_c, gc = m->g1conv.out_c;
    float pooled[3 * HS_NN_MAX_CHANNELS], bias[HS_NN_MAX_CHANNELS], pass[HS_NN_MAX_CHANNELS];
    s_act_plane(g1, (size_t)gc * a, m->g1conv.act);
    hs_nn_pool(g1, gc, n, 0, pooled);
    s_dense(&m->p_gmul, pooled, bias);
    for (int c = 0; c < pc; c++)
        for (size_t k = 0; k < a; k++)
            p1[(size_t)c * a + k] = s_act(p1[(size_t)c * a + k] + bias[c], m->p1conv.act);
    s_conv1x1_ch0(&m->p2conv, p1, a, raw->policy);
    s_dense(&m->pass1, pooled, pass);
    if (m->pass2.in_c) {
        float p2[HS_NN_MAX_CHANNELS];
        s_dense(&m->pass2, pass, p2);
        pass[0] = p2[0];
    }
    raw->policy[a] = pass[0];
}

static void s_value(const hs_nn_model_t *m, int n, float *v1, hs_nn_raw_t *raw)
{
    size_t a = (size_t)n * (size_t)n;
    int vc = m->v1conv.out_c;
    float pooled[3 * HS_NN_MAX_CHANNELS], v2[HS_NN_MAX_CHANNELS];
    s_act_plane(v1, (size_t)vc * a, m->v1conv.act);
    hs_nn_pool(v1, vc, n, 1, pooled);
    s_dense(&m->v2, pooled, v2);
    s_dense(&m->v3, v2, raw->value);
    s_dense(&m->sv3, v2, raw->score);
    s_conv1x1_ch0(&m->own_conv, v1, a, raw->ownership);
}

void hs__dnnl_own_heads(const hs_nn_model_t *m, int batch, int n, float *h,
                        hs_nn_raw_t *raw)
{
    size_t a = (size_t)n * (size_t)n;
    int pc = m->p1conv.out_c, gc = m->g1conv.out_c, vc = m->v1conv.out_c;
    size_t per = (size_t)(pc + gc + vc) * a;
    for (int b = 0; b < batch; b++) {
        /* the head conv's output is the plan's own scratch: edited in place */
        float *x = h + (size_t)b * per;
        memset(&raw[b], 0, sizeof raw[b]);
        raw[b].n = n;
        s_policy(m, n, x, x + (size_t)pc * a, &raw[b]);
        s_value(m, n, x + (size_t)(pc + gc) * a, &raw[b]);
    }
}
