/*
 * worker/nn/model.c — KataGo model files into hs_nn_model_t: inflate, the
 * header, the trunk's block stack, the two heads, with every batch norm folded
 * into the layer before it where that is exact (see model.h). Our own .hsn
 * files are told by their magic and read by model_hsn.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/poskey.h"
#include "worker/nn/features.h"
#include "worker/nn/model_internal.h"

/* ---- folding ---------------------------------------------------------- */

/* conv followed by y = x*s + t: scale the output rows, bias becomes b*s + t. */
static void s_fold_conv(hs_nn_conv_t *c, const float *s, float *t)
{
    size_t per = (size_t)c->in_c * (size_t)c->ky * (size_t)c->kx;
    for (int o = 0; o < c->out_c; o++) {
        for (size_t k = 0; k < per; k++)
            c->w[(size_t)o * per + k] *= s[o];
        if (c->b)
            t[o] += c->b[o] * s[o];
    }
    free(c->b);
    c->b = t;
}

/* dense whose output is added before that same norm: scale its columns. */
static void s_fold_dense_cols(hs_nn_dense_t *d, const float *s)
{
    for (int i = 0; i < d->in_c; i++)
        for (int o = 0; o < d->out_c; o++)
            d->w[(size_t)i * (size_t)d->out_c + (size_t)o] *= s[o];
}

/* ---- checks ------------------------------------------------------------ */

static int s_shape(hs__nn_rd_t *rd, const char *what, int got, int want)
{
    if (got == want)
        return 0;
    return hs_error_set(rd->err, HS_EPARSE, "%s: %s is %d, expected %d", rd->layer, what,
                        got, want);
}

/* conv then norm (+act) folded: reads the conv, the norm and the activation. */
static int s_conv_bn_act(hs__nn_rd_t *rd, hs_nn_conv_t *c, int in_c, const char *what)
{
    float *s, *t;
    int rc = hs__nn_read_conv(rd, c);
    if (!rc) rc = s_shape(rd, what, c->in_c, in_c);
    if (!rc) rc = hs__nn_read_bn(rd, c->out_c, &s, &t);
    if (rc)
        return rc;
    s_fold_conv(c, s, t);
    free(s);
    return hs__nn_read_act(rd, &c->act);
}

static int s_norm_act(hs__nn_rd_t *rd, hs_nn_norm_t *n, int channels)
{
    n->channels = channels;
    int rc = hs__nn_read_bn(rd, channels, &n->scale, &n->bias);
    return rc ? rc : hs__nn_read_act(rd, &n->act);
}

/* ---- blocks ------------------------------------------------------------ */

static int s_stack(hs__nn_rd_t *rd, int n, int trunk_c, int depth, hs_nn_block_t **out);

static int s_block_regular(hs__nn_rd_t *rd, hs_nn_block_t *b, int trunk_c)
{
    int rc = s_norm_act(rd, &b->pre, trunk_c);
    if (!rc) rc = s_conv_bn_act(rd, &b->conv1, trunk_c, "regular conv in channels");
    if (!rc) rc = hs__nn_read_conv(rd, &b->conv2);
    if (!rc) rc = s_shape(rd, "final conv in channels", b->conv2.in_c, b->conv1.out_c);
    if (!rc) rc = s_shape(rd, "final conv out channels", b->conv2.out_c, trunk_c);
    return rc;
}

static int s_block_gpool(hs__nn_rd_t *rd, hs_nn_block_t *b, int trunk_c)
{
    float *s, *t;
    int rc = s_norm_act(rd, &b->pre, trunk_c);
    if (!rc) rc = hs__nn_read_conv(rd, &b->conv1);
    if (!rc) rc = s_shape(rd, "regular conv in channels", b->conv1.in_c, trunk_c);
    if (!rc) rc = s_conv_bn_act(rd, &b->gconv, trunk_c, "gpool conv in channels");
    if (!rc) rc = hs__nn_read_dense(rd, &b->gmul);
    if (!rc) rc = s_shape(rd, "gpool matmul in channels", b->gmul.in_c, 3 * b->gconv.out_c);
    if (!rc) rc = s_shape(rd, "gpool matmul out channels", b->gmul.out_c, b->conv1.out_c);
    if (!rc) rc = hs__nn_read_bn(rd, b->conv1.out_c, &s, &t);
    if (rc)
        return rc;
    s_fold_dense_cols(&b->gmul, s);
    s_fold_conv(&b->conv1, s, t);
    free(s);
    rc = hs__nn_read_act(rd, &b->conv1.act);
    if (!rc) rc = hs__nn_read_conv(rd, &b->conv2);
    if (!rc) rc = s_shape(rd, "final conv in channels", b->conv2.in_c, b->conv1.out_c);
    if (!rc) rc = s_shape(rd, "final conv out channels", b->conv2.out_c, trunk_c);
    return rc;
}

static int s_block_nested(hs__nn_rd_t *rd, hs_nn_block_t *b, int trunk_c, int depth)
{
    int rc = hs__nn_int(rd, &b->n_inner, 1, HS_NN_MAX_BLOCKS, "nested block count");
    if (!rc) rc = s_norm_act(rd, &b->pre, trunk_c);
    if (!rc) rc = hs__nn_read_conv(rd, &b->conv1);
    if (!rc) rc = s_shape(rd, "pre conv in channels", b->conv1.in_c, trunk_c);
    if (!rc) rc = s_stack(rd, b->n_inner, b->conv1.out_c, depth + 1, &b->inner);
    if (!rc) rc = s_norm_act(rd, &b->post, b->conv1.out_c);
    if (!rc) rc = hs__nn_read_conv(rd, &b->conv2);
    if (!rc) rc = s_shape(rd, "post conv in channels", b->conv2.in_c, b->conv1.out_c);
    if (!rc) rc = s_shape(rd, "post conv out channels", b->conv2.out_c, trunk_c);
    return rc;
}

static int s_block(hs__nn_rd_t *rd, hs_nn_block_t *b, int trunk_c, int depth)
{
    char kind[48];
    int rc = hs__nn_token(rd, kind, sizeof kind, "block kind");
    if (rc)
        return rc;
    if (!strcmp(kind, "ordinary_block"))
        b->kind = HS_NN_BLOCK_REGULAR;
    else if (!strcmp(kind, "gpool_block"))
        b->kind = HS_NN_BLOCK_GPOOL;
    else if (!strcmp(kind, "nested_bottleneck_block"))
        b->kind = HS_NN_BLOCK_NESTED;
    else
        return hs_error_set(rd->err, HS_EUNSUPPORTED,
                            "block kind \"%s\" is not supported (only ordinary_block, "
                            "gpool_block and nested_bottleneck_block)", kind);
    if ((rc = hs__nn_token(rd, rd->layer, sizeof rd->layer, "block name")))
        return rc;
    if (b->kind == HS_NN_BLOCK_REGULAR)
        return s_block_regular(rd, b, trunk_c);
    if (b->kind == HS_NN_BLOCK_GPOOL)
        return s_block_gpool(rd, b, trunk_c);
    return s_block_nested(rd, b, trunk_c, depth);
}

static int s_stack(hs__nn_rd_t *rd, int n, int trunk_c, int depth, hs_nn_block_t **out)
{
    if (depth > HS_NN_MAX_NESTING)
        return hs_error_set(rd->err, HS_ELIMIT, "%s: nested blocks deeper than %d",
                            rd->layer, HS_NN_MAX_NESTING);
    /* n is bounded by HS_NN_MAX_BLOCKS; blocks are small structs */
    *out = calloc((size_t)n, sizeof **out);
    if (!*out)
        return hs_error_set(rd->err, HS_ENOMEM, "out of memory for %d blocks", n);
    for (int i = 0; i < n; i++) {
        int rc = s_block(rd, &(*out)[i], trunk_c, depth);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- header, trunk, heads --------------------------------------------- */

static int s_header(hs__nn_rd_t *rd, hs_nn_model_t *m)
{
    int rc = hs__nn_token(rd, m->name, sizeof m->name, "model name");
    if (!rc) rc = hs__nn_int(rd, &m->version, 0, 1000000, "model version");
    if (rc)
        return rc;
    if (m->version < HS_NN_MIN_VERSION || m->version > HS_NN_MAX_VERSION)
        return hs_error_set(rd->err, HS_EUNSUPPORTED,
                            "model version %d is not supported (versions %d to %d: V7 "
                            "inputs, convolutional residual blocks only)%s",
                            m->version, HS_NN_MIN_VERSION, HS_NN_MAX_VERSION,
                            m->version >= 17 ? "; version 17 and later use transformer blocks" : "");
    rd->version = m->version;
    rc = hs__nn_int(rd, &m->in_spatial, 22, 22, "input planes (V7 has 22)");
    if (!rc) rc = hs__nn_int(rd, &m->in_global, 19, 19, "global inputs (V7 has 19)");
    m->td_score_mul = m->score_mean_mul = m->score_stdev_mul = m->lead_mul = 20.0f;
    m->variance_time_mul = 40.0f;
    m->st_value_error_mul = 0.25f;
    m->st_score_error_mul = 30.0f;
    if (!rc && m->version >= 13) {
        float *v[] = {&m->td_score_mul, &m->score_mean_mul, &m->score_stdev_mul, &m->lead_mul,
                      &m->variance_time_mul, &m->st_value_error_mul, &m->st_score_error_mul};
        for (size_t i = 0; !rc && i < sizeof v / sizeof *v; i++)
            if (!(rc = hs__nn_real(rd, v[i], "post-processing multiplier")) && !(*v[i] > 0))
                rc = hs_error_set(rd->err, HS_EPARSE, "a post-processing multiplier is not positive");
    }
    if (!rc && m->version >= 15) {
        int meta, opt;
        rc = hs__nn_int(rd, &meta, 0, 1000000, "metadata encoder version");
        if (!rc && meta != 0)
            return hs_error_set(rd->err, HS_EUNSUPPORTED,
                                "the model has an SGF-metadata encoder (version %d): not supported", meta);
        for (int i = 0; !rc && i < 7; i++) {
            /* preferPassAliveUnderSuicideRules (0/1), then six reserved zeros */
            rc = hs__nn_int(rd, &opt, 0, i == 0 ? 1 : 0, "model option");
        }
    }
    return rc;
}

static int s_trunk(hs__nn_rd_t *rd, hs_nn_model_t *m)
{
    int mid, regular, dilated, gpool;
    char name[64];
    int rc = hs__nn_token(rd, name, sizeof name, "trunk name");
    if (!rc) rc = hs__nn_int(rd, &m->n_blocks, 1, HS_NN_MAX_BLOCKS, "trunk block count");
    if (!rc) rc = hs__nn_int(rd, &m->trunk_c, 1, HS_NN_MAX_CHANNELS, "trunk channels");
    if (!rc) rc = hs__nn_int(rd, &mid, 1, HS_NN_MAX_CHANNELS, "mid channels");
    if (!rc) rc = hs__nn_int(rd, &regular, 1, HS_NN_MAX_CHANNELS, "regular channels");
    if (!rc) rc = hs__nn_int(rd, &dilated, 0, HS_NN_MAX_CHANNELS, "dilated channels");
    if (!rc) rc = hs__nn_int(rd, &gpool, 1, HS_NN_MAX_CHANNELS, "gpool channels");
    if (!rc && m->version >= 15) {
        int kind, opt;
        rc = hs__nn_int(rd, &kind, 0, 1000, "trunk norm kind");
        if (!rc && kind != 0)
            return hs_error_set(rd->err, HS_EUNSUPPORTED,
                                "trunk norm kind %d (RMS norm) is not supported", kind);
        for (int i = 0; !rc && i < 5; i++)
            rc = hs__nn_int(rd, &opt, 0, 0, "reserved trunk option");
    }
    if (!rc) rc = hs__nn_read_conv(rd, &m->input_conv);
    if (!rc) rc = s_shape(rd, "in channels", m->input_conv.in_c, m->in_spatial);
    if (!rc) rc = s_shape(rd, "out channels", m->input_conv.out_c, m->trunk_c);
    if (!rc) rc = hs__nn_read_dense(rd, &m->input_global);
    if (!rc) rc = s_shape(rd, "in channels", m->input_global.in_c, m->in_global);
    if (!rc) rc = s_shape(rd, "out channels", m->input_global.out_c, m->trunk_c);
    if (!rc) rc = s_stack(rd, m->n_blocks, m->trunk_c, 1, &m->blocks);
    if (!rc) rc = s_norm_act(rd, &m->tip, m->trunk_c);
    return rc;
}

static int s_policy(hs__nn_rd_t *rd, hs_nn_model_t *m)
{
    char name[64];
    float *s, *t;
    m->policy_c = m->version >= 16 ? 4 : m->version >= 12 ? 2 : 1;
    int rc = hs__nn_token(rd, name, sizeof name, "policy head name");
    if (!rc) rc = hs__nn_read_conv(rd, &m->p1conv);
    if (!rc) rc = s_shape(rd, "in channels", m->p1conv.in_c, m->trunk_c);
    if (!rc) rc = s_conv_bn_act(rd, &m->g1conv, m->trunk_c, "in channels");
    if (!rc) rc = hs__nn_read_dense(rd, &m->p_gmul);
    if (!rc) rc = s_shape(rd, "in channels", m->p_gmul.in_c, 3 * m->g1conv.out_c);
    if (!rc) rc = s_shape(rd, "out channels", m->p_gmul.out_c, m->p1conv.out_c);
    if (!rc) rc = hs__nn_read_bn(rd, m->p1conv.out_c, &s, &t);
    if (rc)
        return rc;
    s_fold_dense_cols(&m->p_gmul, s);
    s_fold_conv(&m->p1conv, s, t);
    free(s);
    rc = hs__nn_read_act(rd, &m->p1conv.act);
    if (!rc) rc = hs__nn_read_conv(rd, &m->p2conv);
    if (!rc) rc = s_shape(rd, "in channels", m->p2conv.in_c, m->p1conv.out_c);
    if (!rc) rc = s_shape(rd, "out channels", m->p2conv.out_c, m->policy_c);
    if (!rc) rc = hs__nn_read_dense(rd, &m->pass1);
    if (!rc) rc = s_shape(rd, "in channels", m->pass1.in_c, 3 * m->g1conv.out_c);
    if (rc || m->version < 15)
        return rc ? rc : s_shape(rd, "out channels", m->pass1.out_c, m->policy_c);
    rc = hs__nn_read_bias(rd, m->pass1.out_c, &m->pass1.b);
    if (!rc) rc = hs__nn_read_act(rd, &m->pass1.act);
    if (!rc) rc = hs__nn_read_dense(rd, &m->pass2);
    if (!rc) rc = s_shape(rd, "in channels", m->pass2.in_c, m->pass1.out_c);
    if (!rc) rc = s_shape(rd, "out channels", m->pass2.out_c, m->policy_c);
    return rc;
}

static int s_value(hs__nn_rd_t *rd, hs_nn_model_t *m)
{
    char name[64];
    int rc = hs__nn_token(rd, name, sizeof name, "value head name");
    if (!rc) rc = s_conv_bn_act(rd, &m->v1conv, m->trunk_c, "in channels");
    if (!rc) rc = hs__nn_read_dense(rd, &m->v2);
    if (!rc) rc = s_shape(rd, "in channels", m->v2.in_c, 3 * m->v1conv.out_c);
    if (!rc) rc = hs__nn_read_bias(rd, m->v2.out_c, &m->v2.b);
    if (!rc) rc = hs__nn_read_act(rd, &m->v2.act);
    if (!rc) rc = hs__nn_read_dense(rd, &m->v3);
    if (!rc) rc = s_shape(rd, "in channels", m->v3.in_c, m->v2.out_c);
    if (!rc) rc = s_shape(rd, "out channels", m->v3.out_c, 3);
    if (!rc) rc = hs__nn_read_bias(rd, 3, &m->v3.b);
    if (!rc) rc = hs__nn_read_dense(rd, &m->sv3);
    if (!rc) rc = s_shape(rd, "in channels", m->sv3.in_c, m->v2.out_c);
    if (!rc) rc = s_shape(rd, "out channels", m->sv3.out_c, m->version >= 9 ? 6 : 4);
    if (!rc) rc = hs__nn_read_bias(rd, m->sv3.out_c, &m->sv3.b);
    if (!rc) rc = hs__nn_read_conv(rd, &m->own_conv);
    if (!rc) rc = s_shape(rd, "in channels", m->own_conv.in_c, m->v1conv.out_c);
    if (!rc) rc = s_shape(rd, "out channels", m->own_conv.out_c, 1);
    return rc;
}

/* ---- entry points ------------------------------------------------------ */

static int s_inflate(const unsigned char *data, size_t len, unsigned char **out,
                     size_t *out_len, hs_error_t *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return hs_error_set(err, HS_ENOMEM, "zlib: cannot start inflating");
    size_t cap = len * 4 + 4096, n = 0;
    unsigned char *buf = malloc(cap);
    int zrc = Z_OK, rc = 0;
    z.next_in = (unsigned char *)data;
    while (!rc && zrc != Z_STREAM_END) {
        if (n == cap) {
            if (cap >= HS_NN_MAX_FILE) {
                rc = hs_error_set(err, HS_ELIMIT, "model inflates to more than %llu bytes",
                                  (unsigned long long)HS_NN_MAX_FILE);
                break;
            }
            cap = cap * 2 > HS_NN_MAX_FILE ? HS_NN_MAX_FILE : cap * 2;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) { rc = hs_error_set(err, HS_ENOMEM, "out of memory inflating the model"); break; }
            buf = nb;
        }
        if (!buf) { rc = hs_error_set(err, HS_ENOMEM, "out of memory inflating the model"); break; }
        size_t in_left = len - (size_t)(z.next_in - data);
        z.avail_in = in_left > 1u << 30 ? 1u << 30 : (uInt)in_left;
        z.next_out = buf + n;
        z.avail_out = cap - n > 1u << 30 ? 1u << 30 : (uInt)(cap - n);
        uInt before = z.avail_out;
        zrc = inflate(&z, Z_NO_FLUSH);
        n += before - z.avail_out;
        if (zrc == Z_BUF_ERROR && z.avail_in == 0 && n < cap)
            rc = hs_error_set(err, HS_ECORRUPT, "gzip stream ends early (truncated file)");
        else if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR)
            rc = hs_error_set(err, HS_ECORRUPT, "gzip: %s", z.msg ? z.msg : "corrupt data");
    }
    inflateEnd(&z);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_len = n;
    return 0;
}

static int s_parse_raw(const unsigned char *p, size_t len, hs_nn_model_t **out, hs_error_t *err)
{
    hs_nn_model_t *m = calloc(1, sizeof *m);
    if (!m)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    /* KataGo's files always read KataGo's V7 inputs */
    m->input_set = HS_NN_INPUT_KATAGO_V7;
    hs__nn_rd_t rd = {.p = p, .len = len, .err = err};
    int rc = s_header(&rd, m);
    if (!rc) rc = s_trunk(&rd, m);
    if (!rc) rc = s_policy(&rd, m);
    if (!rc) rc = s_value(&rd, m);
    if (rc) {
        hs_nn_model_free(&m);
        return rc;
    }
    *out = m;
    return 0;
}

/* The content hash is of the uncompressed bytes, so the same net gzipped
 * twice (another level, another timestamp) is still the same net. */
static void s_hash(hs_nn_model_t *m, const unsigned char *bytes, size_t len)
{
    uint8_t h[16];
    hs_hash128(bytes, len, h);
    for (int i = 0; i < 16; i++)
        snprintf(m->hash + 2 * i, 3, "%02x", h[i]);
}

/* Our own format, recognised by its magic whatever the file is called. */
static int s_parse_hsn(const unsigned char *p, size_t len, hs_nn_model_t **out, hs_error_t *err)
{
    hs_nn_model_t *m = calloc(1, sizeof *m);
    if (!m)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int rc = hs__nn_hsn_parse(p, len, m, err);
    if (rc) {
        hs_nn_model_free(&m);
        return rc;
    }
    s_hash(m, p, len);
    *out = m;
    return 0;
}

int hs_nn_model_parse(const void *data, size_t len, hs_nn_model_t **out, hs_error_t *err)
{
    *out = NULL;
    const unsigned char *p = data;
    if (len == 0)   /* not "truncated": there was never a net in it */
        return hs_error_set(err, HS_EPARSE, "empty file, not a net (KataGo's .bin.gz or "
                            "our own .hsn)");
    if (len >= 8 && !memcmp(p, HS_NN_HSN_MAGIC, 8))
        return s_parse_hsn(p, len, out, err);
    if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
        unsigned char *raw = NULL;
        size_t n = 0;
        int rc = s_inflate(p, len, &raw, &n, err);
        if (rc)
            return rc;
        if (n >= 8 && !memcmp(raw, HS_NN_HSN_MAGIC, 8)) {
            rc = s_parse_hsn(raw, n, out, err);
        } else if (!(rc = s_parse_raw(raw, n, out, err))) {
            s_hash(*out, raw, n);
        }
        free(raw);
        return rc;
    }
    int rc = s_parse_raw(p, len, out, err);
    if (!rc)
        s_hash(*out, p, len);
    return rc;
}

int hs_nn_model_load(const char *path, hs_nn_model_t **out, hs_error_t *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return hs_error_set(err, HS_EIO, "%s: cannot open", path);
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap >= HS_NN_MAX_FILE) { rc = hs_error_set(err, HS_ELIMIT, "%s: file too large", path); break; }
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    if (!rc && !buf) rc = hs_error_set(err, HS_ENOMEM, "%s: out of memory", path);
    if (!rc && ferror(f)) rc = hs_error_set(err, HS_EIO, "%s: read error", path);
    fclose(f);
    if (!rc) {
        rc = hs_nn_model_parse(buf, n, out, err);
        if (rc)
            hs_error_prefix(err, "%s: ", path);
    }
    free(buf);
    return rc;
}

/* ---- free and count ---------------------------------------------------- */

static void s_free_conv(hs_nn_conv_t *c) { free(c->w); free(c->b); }
static void s_free_dense(hs_nn_dense_t *d) { free(d->w); free(d->b); }
static void s_free_norm(hs_nn_norm_t *n) { free(n->scale); free(n->bias); }

static void s_free_blocks(hs_nn_block_t *b, int n)
{
    for (int i = 0; b && i < n; i++) {
        s_free_norm(&b[i].pre);
        s_free_conv(&b[i].conv1);
        s_free_conv(&b[i].conv2);
        s_free_conv(&b[i].gconv);
        s_free_dense(&b[i].gmul);
        s_free_norm(&b[i].post);
        s_free_blocks(b[i].inner, b[i].n_inner);
    }
    free(b);
}

void hs_nn_model_free(hs_nn_model_t **mp)
{
    hs_nn_model_t *m = mp ? *mp : NULL;
    if (!m)
        return;
    s_free_conv(&m->input_conv);
    s_free_dense(&m->input_global);
    s_free_blocks(m->blocks, m->n_blocks);
    s_free_norm(&m->tip);
    s_free_conv(&m->p1conv); s_free_conv(&m->g1conv); s_free_conv(&m->p2conv);
    s_free_dense(&m->p_gmul); s_free_dense(&m->pass1); s_free_dense(&m->pass2);
    s_free_conv(&m->v1conv); s_free_conv(&m->own_conv);
    s_free_dense(&m->v2); s_free_dense(&m->v3); s_free_dense(&m->sv3);
    free(m);
    *mp = NULL;
}

static size_t s_conv_n(const hs_nn_conv_t *c)
{
    return (size_t)c->out_c * c->in_c * c->ky * c->kx + (c->b ? (size_t)c->out_c : 0);
}
static size_t s_dense_n(const hs_nn_dense_t *d)
{
    return (size_t)d->in_c * d->out_c + (d->b ? (size_t)d->out_c : 0);
}

static size_t s_blocks_n(const hs_nn_block_t *b, int n)
{
    size_t t = 0;
    for (int i = 0; i < n; i++)
        t += 2 * (size_t)b[i].pre.channels + s_conv_n(&b[i].conv1) + s_conv_n(&b[i].conv2)
             + s_conv_n(&b[i].gconv) + s_dense_n(&b[i].gmul) + 2 * (size_t)b[i].post.channels
             + s_blocks_n(b[i].inner, b[i].n_inner);
    return t;
}

size_t hs_nn_model_params(const hs_nn_model_t *m)
{
    return s_conv_n(&m->input_conv) + s_dense_n(&m->input_global)
           + s_blocks_n(m->blocks, m->n_blocks) + 2 * (size_t)m->tip.channels
           + s_conv_n(&m->p1conv) + s_conv_n(&m->g1conv) + s_conv_n(&m->p2conv)
           + s_dense_n(&m->p_gmul) + s_dense_n(&m->pass1) + s_dense_n(&m->pass2)
           + s_conv_n(&m->v1conv) + s_conv_n(&m->own_conv)
           + s_dense_n(&m->v2) + s_dense_n(&m->v3) + s_dense_n(&m->sv3);
}
