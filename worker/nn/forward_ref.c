/*
 * worker/nn/forward_ref.c — the plain-C FP32 reference forward pass over
 * hs_nn_model_t (layouts and block semantics in model.h). Straightforward
 * loops on an n x n grid, NCHW; correctness first: the fast backends are
 * checked against these numbers, and these against KataGo's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worker/nn/eval.h"

static float s_act(float x, hs_nn_act_t k)
{
    switch (k) {
    case HS_NN_ACT_RELU: return x > 0 ? x : 0;
    case HS_NN_ACT_MISH: return x * tanhf(x > 20 ? x : log1pf(expf(x)));
    case HS_NN_ACT_SILU: return x / (1.0f + expf(-x));
    default: return x;
    }
}

static void s_act_all(float *x, size_t count, hs_nn_act_t k)
{
    if (k == HS_NN_ACT_IDENTITY)
        return;
    for (size_t i = 0; i < count; i++)
        x[i] = s_act(x[i], k);
}

/* out = conv(in) + b, "same" zero padding; the activation only when asked
 * (a global-pooling block adds its pooled bias first). */
static void s_conv(const hs_nn_conv_t *c, int n, const float *in, float *out, int with_act)
{
    size_t a = (size_t)n * (size_t)n;
    double dst[HS_NN_MAX_AREA];
    for (int o = 0; o < c->out_c; o++) {
        float b0 = c->b ? c->b[o] : 0.0f;
        for (size_t k = 0; k < a; k++)
            dst[k] = b0;
        for (int i = 0; i < c->in_c; i++) {
            const float *src = in + (size_t)i * a;
            const float *w = c->w + ((size_t)o * (size_t)c->in_c + (size_t)i) * (size_t)(c->ky * c->kx);
            for (int ky = 0; ky < c->ky; ky++) {
                int dy = (ky - c->ky / 2) * c->dil_y;
                for (int kx = 0; kx < c->kx; kx++) {
                    int dx = (kx - c->kx / 2) * c->dil_x;
                    float wv = w[ky * c->kx + kx];
                    int x0 = dx < 0 ? -dx : 0, x1 = dx > 0 ? n - dx : n;
                    for (int y = 0; y < n; y++) {
                        int sy = y + dy;
                        if (sy < 0 || sy >= n)
                            continue;
                        const float *s = src + sy * n + dx;
                        double *d = dst + y * n;
                        for (int x = x0; x < x1; x++)
                            d[x] += (double)wv * s[x];
                    }
                }
            }
        }
        for (size_t k = 0; k < a; k++)
            out[(size_t)o * a + k] = (float)dst[k];
    }
    if (with_act)
        s_act_all(out, (size_t)c->out_c * a, c->act);
}

static void s_norm(const hs_nn_norm_t *nm, size_t a, const float *in, float *out)
{
    for (int c = 0; c < nm->channels; c++)
        for (size_t k = 0; k < a; k++) {
            size_t i = (size_t)c * a + k;
            out[i] = s_act(in[i] * nm->scale[c] + nm->bias[c], nm->act);
        }
}

static void s_dense(const hs_nn_dense_t *d, const float *in, float *out)
{
    for (int o = 0; o < d->out_c; o++) {
        double acc = d->b ? d->b[o] : 0.0;
        for (int i = 0; i < d->in_c; i++)
            acc += (double)in[i] * d->w[(size_t)i * (size_t)d->out_c + (size_t)o];
        out[o] = (float)acc;
    }
    s_act_all(out, (size_t)d->out_c, d->act);
}

/* KataGo's pooling: per channel the mean, the mean scaled by board width
 * ((sqrt(area) - 14) / 10), and the max (trunk and policy) or the mean scaled
 * by ((sqrt(area) - 14)^2 / 100 - 0.1) (value head). */
void hs_nn_pool(const float *in, int ch, int n, int value_head, float *out)
{
    size_t a = (size_t)n * (size_t)n;
    float w = (float)n - 14.0f;
    for (int c = 0; c < ch; c++) {
        const float *s = in + (size_t)c * a;
        double sum = 0;
        float mx = s[0];
        for (size_t k = 0; k < a; k++) {
            sum += s[k];
            mx = s[k] > mx ? s[k] : mx;
        }
        float mean = (float)(sum / (double)a);
        out[c] = mean;
        out[ch + c] = mean * w / 10.0f;
        out[2 * ch + c] = value_head ? mean * (w * w / 100.0f - 0.1f) : mx;
    }
}

static int s_block(const hs_nn_block_t *b, int n, float *x, int ch);

/* t (conv1's output, bias included) gets the pooled bias, then conv1's act. */
static int s_gpool_mid(const hs_nn_block_t *b, int n, const float *pre, float *t)
{
    size_t a = (size_t)n * (size_t)n;
    float *g = malloc((size_t)b->gconv.out_c * a * sizeof *g);
    float *p = malloc(3 * (size_t)b->gconv.out_c * sizeof *p);
    float *bias = malloc((size_t)b->gmul.out_c * sizeof *bias);
    if (!g || !p || !bias) {
        free(g); free(p); free(bias);
        return HS_ENOMEM;
    }
    s_conv(&b->gconv, n, pre, g, 1);
    hs_nn_pool(g, b->gconv.out_c, n, 0, p);
    s_dense(&b->gmul, p, bias);
    for (int c = 0; c < b->conv1.out_c; c++)
        for (size_t k = 0; k < a; k++)
            t[(size_t)c * a + k] = s_act(t[(size_t)c * a + k] + bias[c], b->conv1.act);
    free(g); free(p); free(bias);
    return 0;
}

static int s_block(const hs_nn_block_t *b, int n, float *x, int ch)
{
    size_t a = (size_t)n * (size_t)n;
    float *pre = malloc((size_t)ch * a * sizeof *pre);
    float *t = malloc((size_t)b->conv1.out_c * a * sizeof *t);
    float *o = malloc((size_t)ch * a * sizeof *o);
    int rc = pre && t && o ? 0 : HS_ENOMEM;
    if (!rc) {
        s_norm(&b->pre, a, x, pre);
        s_conv(&b->conv1, n, pre, t, b->kind == HS_NN_BLOCK_REGULAR);
        if (b->kind == HS_NN_BLOCK_GPOOL)
            rc = s_gpool_mid(b, n, pre, t);
        for (int i = 0; !rc && b->kind == HS_NN_BLOCK_NESTED && i < b->n_inner; i++)
            rc = s_block(&b->inner[i], n, t, b->conv1.out_c);
        if (!rc && b->kind == HS_NN_BLOCK_NESTED)
            s_norm(&b->post, a, t, t);
    }
    if (!rc) {
        s_conv(&b->conv2, n, t, o, 0);
        for (size_t k = 0; k < (size_t)ch * a; k++)
            x[k] += o[k];
    }
    free(pre); free(t); free(o);
    return rc;
}

static int s_trunk(const hs_nn_model_t *m, int n, const float *sp, const float *gl, float *x)
{
    size_t a = (size_t)n * (size_t)n;
    float gb[HS_NN_MAX_CHANNELS];
    s_conv(&m->input_conv, n, sp, x, 0);
    s_dense(&m->input_global, gl, gb);
    for (int c = 0; c < m->trunk_c; c++)
        for (size_t k = 0; k < a; k++)
            x[(size_t)c * a + k] += gb[c];
    for (int i = 0; i < m->n_blocks; i++) {
        int rc = s_block(&m->blocks[i], n, x, m->trunk_c);
        if (rc)
            return rc;
    }
    s_norm(&m->tip, a, x, x);
    return 0;
}

static int s_policy(const hs_nn_model_t *m, int n, const float *x, hs_nn_raw_t *raw)
{
    size_t a = (size_t)n * (size_t)n;
    int gc = m->g1conv.out_c, pc = m->p1conv.out_c;
    float *p1 = malloc((size_t)pc * a * sizeof *p1), *g1 = malloc((size_t)gc * a * sizeof *g1);
    float *pol = malloc((size_t)m->policy_c * a * sizeof *pol);
    float *pooled = malloc(3 * (size_t)gc * sizeof *pooled);
    float *bias = malloc((size_t)pc * sizeof *bias), *pass = malloc((size_t)pc * sizeof *pass);
    int rc = p1 && g1 && pol && pooled && bias && pass ? 0 : HS_ENOMEM;
    if (!rc) {
        s_conv(&m->p1conv, n, x, p1, 0);
        s_conv(&m->g1conv, n, x, g1, 1);
        hs_nn_pool(g1, gc, n, 0, pooled);
        s_dense(&m->p_gmul, pooled, bias);
        for (int c = 0; c < pc; c++)
            for (size_t k = 0; k < a; k++)
                p1[(size_t)c * a + k] = s_act(p1[(size_t)c * a + k] + bias[c], m->p1conv.act);
        s_conv(&m->p2conv, n, p1, pol, 0);
        memcpy(raw->policy, pol, a * sizeof *pol);   /* channel 0: the policy */
        s_dense(&m->pass1, pooled, pass);
        if (m->pass2.in_c) {
            float p2[4];
            s_dense(&m->pass2, pass, p2);
            pass[0] = p2[0];
        }
        raw->policy[a] = pass[0];
    }
    free(p1); free(g1); free(pol); free(pooled); free(bias); free(pass);
    return rc;
}

static int s_value(const hs_nn_model_t *m, int n, const float *x, hs_nn_raw_t *raw)
{
    size_t a = (size_t)n * (size_t)n;
    int vc = m->v1conv.out_c;
    float *v1 = malloc((size_t)vc * a * sizeof *v1), *pooled = malloc(3 * (size_t)vc * sizeof *pooled);
    float *v2 = malloc((size_t)m->v2.out_c * sizeof *v2);
    int rc = v1 && pooled && v2 ? 0 : HS_ENOMEM;
    if (!rc) {
        s_conv(&m->v1conv, n, x, v1, 1);
        hs_nn_pool(v1, vc, n, 1, pooled);
        s_dense(&m->v2, pooled, v2);
        s_dense(&m->v3, v2, raw->value);
        s_dense(&m->sv3, v2, raw->score);
        s_conv(&m->own_conv, n, v1, raw->ownership, 0);
    }
    free(v1); free(pooled); free(v2);
    return rc;
}

int hs_nn_forward_ref(const hs_nn_model_t *m, int n, const float *spatial,
                      const float *global, int sym, hs_nn_raw_t *raw, hs_error_t *err)
{
    if (n < 2 || n > HS_NN_MAX_SIZE || sym < 0 || sym > 7)
        return hs_error_set(err, HS_EINVAL, "net: board size %d or symmetry %d out of range", n, sym);
    if (m->in_spatial != HS_NN_SPATIAL || m->in_global != HS_NN_GLOBAL)
        return hs_error_set(err, HS_EINVAL, "net: the model takes %d/%d inputs, not V7's",
                            m->in_spatial, m->in_global);
    size_t a = (size_t)n * (size_t)n;
    float *in = malloc((size_t)HS_NN_SPATIAL * a * sizeof *in);
    float *x = malloc((size_t)m->trunk_c * a * sizeof *x);
    int rc = in && x ? 0 : HS_ENOMEM;
    if (!rc) {
        hs_nn_sym_planes(spatial, in, HS_NN_SPATIAL, n, sym);
        memset(raw, 0, sizeof *raw);
        raw->n = n;
        rc = s_trunk(m, n, in, global, x);
    }
    if (!rc) rc = s_policy(m, n, x, raw);
    if (!rc) rc = s_value(m, n, x, raw);
    if (!rc) hs_nn_unsym_raw(raw, n, sym);
    free(in);
    free(x);
    return rc ? hs_error_set(err, rc, "net: out of memory in the forward pass") : 0;
}
