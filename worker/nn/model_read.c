/*
 * worker/nn/model_read.c — the bounded reader under the model loader: tokens,
 * "@BIN@" float blocks and KataGo's raw layers (convolution, matmul, bias,
 * batch norm, activation). Every size is range-checked and every float block
 * is checked against the bytes present before it is allocated, so a hostile
 * header cannot make us allocate what the file does not hold.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/nn/model_internal.h"

static int s_isspace(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

static int s_fail(hs__nn_rd_t *rd, int code, const char *what, const char *why)
{
    return hs_error_set(rd->err, code, "%s%s%s: %s (at byte %zu)", rd->layer,
                        rd->layer[0] ? ": " : "", what, why, rd->pos);
}

int hs__nn_token(hs__nn_rd_t *rd, char *buf, size_t cap, const char *what)
{
    while (rd->pos < rd->len && s_isspace(rd->p[rd->pos]))
        rd->pos++;
    size_t n = 0;
    while (rd->pos < rd->len && !s_isspace(rd->p[rd->pos])) {
        if (n + 1 >= cap)
            return s_fail(rd, HS_EPARSE, what, "token too long");
        buf[n++] = (char)rd->p[rd->pos++];
    }
    buf[n] = '\0';
    if (n == 0)
        return s_fail(rd, HS_EPARSE, what, "file ends early (truncated?)");
    return 0;
}

int hs__nn_int(hs__nn_rd_t *rd, int *v, long lo, long hi, const char *what)
{
    char tok[32], *end;
    int rc = hs__nn_token(rd, tok, sizeof tok, what);
    if (rc)
        return rc;
    long x = strtol(tok, &end, 10);
    if (*end)
        return s_fail(rd, HS_EPARSE, what, "not an integer");
    if (x < lo || x > hi) {
        char why[96];
        snprintf(why, sizeof why, "%ld is outside [%ld, %ld]", x, lo, hi);
        return s_fail(rd, HS_ELIMIT, what, why);
    }
    *v = (int)x;
    return 0;
}

int hs__nn_real(hs__nn_rd_t *rd, float *v, const char *what)
{
    char tok[64], *end;
    int rc = hs__nn_token(rd, tok, sizeof tok, what);
    if (rc)
        return rc;
    float x = strtof(tok, &end);
    if (*end || !isfinite(x))
        return s_fail(rd, HS_EPARSE, what, "not a finite number");
    *v = x;
    return 0;
}

int hs__nn_floats(hs__nn_rd_t *rd, size_t n, float **out)
{
    *out = NULL;
    /* KataGo writes a newline before the marker; tolerate a little whitespace
     * but no other text (a .txt model lands here). */
    size_t skipped = 0;
    while (rd->pos < rd->len && rd->p[rd->pos] != '@') {
        if (!s_isspace(rd->p[rd->pos]) || ++skipped > 100)
            return s_fail(rd, HS_EPARSE, "weights", "no @BIN@ block (a text model?)");
        rd->pos++;
    }
    if (rd->len - rd->pos < 5 || memcmp(rd->p + rd->pos, "@BIN@", 5) != 0)
        return s_fail(rd, HS_EPARSE, "weights", "no @BIN@ block (truncated?)");
    rd->pos += 5;
    if (n > (rd->len - rd->pos) / 4)
        return s_fail(rd, HS_EPARSE, "weights", "fewer float bytes than the layer needs (truncated)");
    float *f = malloc(n ? n * sizeof *f : 1);
    if (!f)
        return hs_error_set(rd->err, HS_ENOMEM, "%s: out of memory for %zu weights", rd->layer, n);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *b = rd->p + rd->pos + 4 * i;
        uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        memcpy(&f[i], &u, sizeof u);
        if (!isfinite(f[i])) {
            free(f);
            return s_fail(rd, HS_EPARSE, "weights", "a weight is NaN or infinite");
        }
    }
    rd->pos += 4 * n;
    *out = f;
    return 0;
}

static int s_name(hs__nn_rd_t *rd)
{
    return hs__nn_token(rd, rd->layer, sizeof rd->layer, "layer name");
}

int hs__nn_read_conv(hs__nn_rd_t *rd, hs_nn_conv_t *c)
{
    int rc = s_name(rd);
    if (!rc) rc = hs__nn_int(rd, &c->ky, 1, HS_NN_MAX_KERNEL, "conv kernel height");
    if (!rc) rc = hs__nn_int(rd, &c->kx, 1, HS_NN_MAX_KERNEL, "conv kernel width");
    if (!rc) rc = hs__nn_int(rd, &c->in_c, 1, HS_NN_MAX_CHANNELS, "conv in channels");
    if (!rc) rc = hs__nn_int(rd, &c->out_c, 1, HS_NN_MAX_CHANNELS, "conv out channels");
    if (!rc) rc = hs__nn_int(rd, &c->dil_y, 1, HS_NN_MAX_DILATION, "conv dilation y");
    if (!rc) rc = hs__nn_int(rd, &c->dil_x, 1, HS_NN_MAX_DILATION, "conv dilation x");
    if (rc)
        return rc;
    if (c->ky % 2 == 0 || c->kx % 2 == 0)
        return s_fail(rd, HS_EPARSE, "conv", "even kernel sizes are not valid");
    size_t ky = (size_t)c->ky, kx = (size_t)c->kx, ic = (size_t)c->in_c, oc = (size_t)c->out_c;
    float *raw;
    if ((rc = hs__nn_floats(rd, ky * kx * ic * oc, &raw)))
        return rc;
    c->w = malloc(ky * kx * ic * oc * sizeof *c->w);
    if (!c->w) {
        free(raw);
        return hs_error_set(rd->err, HS_ENOMEM, "%s: out of memory", rd->layer);
    }
    /* file order y, x, in, out -> ours out, in, y, x */
    size_t idx = 0;
    for (size_t y = 0; y < ky; y++)
        for (size_t x = 0; x < kx; x++)
            for (size_t i = 0; i < ic; i++)
                for (size_t o = 0; o < oc; o++)
                    c->w[((o * ic + i) * ky + y) * kx + x] = raw[idx++];
    free(raw);
    c->b = NULL;
    c->act = HS_NN_ACT_IDENTITY;
    return 0;
}

int hs__nn_read_dense(hs__nn_rd_t *rd, hs_nn_dense_t *d)
{
    int rc = s_name(rd);
    if (!rc) rc = hs__nn_int(rd, &d->in_c, 1, 3 * HS_NN_MAX_CHANNELS, "matmul in channels");
    if (!rc) rc = hs__nn_int(rd, &d->out_c, 1, HS_NN_MAX_CHANNELS, "matmul out channels");
    if (!rc) rc = hs__nn_floats(rd, (size_t)d->in_c * (size_t)d->out_c, &d->w);
    d->b = NULL;
    d->act = HS_NN_ACT_IDENTITY;
    return rc;
}

int hs__nn_read_bias(hs__nn_rd_t *rd, int channels, float **b)
{
    int n, rc = s_name(rd);
    if (!rc) rc = hs__nn_int(rd, &n, 1, HS_NN_MAX_CHANNELS, "bias channels");
    if (rc)
        return rc;
    if (n != channels) {
        char why[96];
        snprintf(why, sizeof why, "%d channels where the layer before has %d", n, channels);
        return s_fail(rd, HS_EPARSE, "bias", why);
    }
    return hs__nn_floats(rd, (size_t)n, b);
}

int hs__nn_read_act(hs__nn_rd_t *rd, hs_nn_act_t *act)
{
    int rc = s_name(rd);
    *act = HS_NN_ACT_RELU;
    if (rc || rd->version < 11)
        return rc;   /* before version 11 every activation is ReLU */
    char kind[48];
    if ((rc = hs__nn_token(rd, kind, sizeof kind, "activation kind")))
        return rc;
    if (!strcmp(kind, "ACTIVATION_IDENTITY")) *act = HS_NN_ACT_IDENTITY;
    else if (!strcmp(kind, "ACTIVATION_RELU")) *act = HS_NN_ACT_RELU;
    else if (!strcmp(kind, "ACTIVATION_MISH")) *act = HS_NN_ACT_MISH;
    else if (!strcmp(kind, "ACTIVATION_SILU")) *act = HS_NN_ACT_SILU;
    else
        return hs_error_set(rd->err, HS_EUNSUPPORTED, "%s: unknown activation \"%s\"",
                            rd->layer, kind);
    return 0;
}

int hs__nn_read_bn(hs__nn_rd_t *rd, int channels, float **scale, float **bias)
{
    int n, has_scale, has_bias, rc = s_name(rd);
    float eps;
    float *mean = NULL, *var = NULL, *gamma = NULL, *beta = NULL;
    *scale = *bias = NULL;
    if (!rc) rc = hs__nn_int(rd, &n, 1, HS_NN_MAX_CHANNELS, "batch norm channels");
    if (!rc) rc = hs__nn_real(rd, &eps, "batch norm epsilon");
    if (!rc) rc = hs__nn_int(rd, &has_scale, 0, 1, "batch norm has-scale flag");
    if (!rc) rc = hs__nn_int(rd, &has_bias, 0, 1, "batch norm has-bias flag");
    if (rc)
        return rc;
    if (n != channels) {
        char why[96];
        snprintf(why, sizeof why, "%d channels where the layer before has %d", n, channels);
        return s_fail(rd, HS_EPARSE, "batch norm", why);
    }
    if (!(eps > 0))
        return s_fail(rd, HS_EPARSE, "batch norm", "epsilon is not positive");
    rc = hs__nn_floats(rd, (size_t)n, &mean);
    if (!rc) rc = hs__nn_floats(rd, (size_t)n, &var);
    if (!rc && has_scale) rc = hs__nn_floats(rd, (size_t)n, &gamma);
    if (!rc && has_bias) rc = hs__nn_floats(rd, (size_t)n, &beta);
    if (!rc) {
        *scale = malloc((size_t)n * sizeof **scale);
        *bias = malloc((size_t)n * sizeof **bias);
        if (!*scale || !*bias)
            rc = hs_error_set(rd->err, HS_ENOMEM, "%s: out of memory", rd->layer);
    }
    for (int c = 0; !rc && c < n; c++) {
        if (!(var[c] + eps > 0)) {
            rc = s_fail(rd, HS_EPARSE, "batch norm", "variance + epsilon is not positive");
            break;
        }
        float s = (gamma ? gamma[c] : 1.0f) / sqrtf(var[c] + eps);
        (*scale)[c] = s;
        (*bias)[c] = (beta ? beta[c] : 0.0f) - s * mean[c];
    }
    free(mean); free(var); free(gamma); free(beta);
    if (rc) {
        free(*scale); free(*bias);
        *scale = *bias = NULL;
    }
    return rc;
}
