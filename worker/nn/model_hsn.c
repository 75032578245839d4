/*
 * worker/nn/model_hsn.c — hyeongse's own net files (.hsn, version 1; layout in
 * docs/NET.md "Our own net format") into hs_nn_model_t, so every backend runs
 * them unchanged: a plain residual tower (regular blocks only) with the
 * heads KataGo's models have, batch norms already folded by the exporter.
 *
 * The file is untrusted: the CRC is checked before anything else is believed
 * (a truncated file is told apart from a damaged one and names a tensor it
 * cuts), every count and dimension is bounded, every tensor's shape
 * is compared with what the header's config implies and its bytes are
 * checked to lie in the data section before any tensor is allocated (before
 * that only the block array, bounded by HS_NN_MAX_BLOCKS), so no allocation
 * is larger than the file. Non-finite weights are refused.
 * A gzip'ed .hsn is not read (the exporter does not write one).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "worker/nn/features.h"
#include "worker/nn/model_internal.h"

#define S_MAGIC_LEN 8
#define S_NAME_LEN 64
#define S_HEADER (S_MAGIC_LEN + 4 + 4 + S_NAME_LEN + 8 * 4 + 4)   /* 116 */
#define S_ENTRY 84
#define S_TNAME 48
#define S_FIXED 20          /* tensors besides the 6 of each block */

/* One tensor the config asks for: its name, shape and where it goes. */
typedef struct s_want {
    char name[S_TNAME];
    uint32_t ndim, dims[4];
    float **dst;
    int seen;
} s_want_t;

static uint32_t s_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t s_u64(const unsigned char *p)
{
    return (uint64_t)s_u32(p) | (uint64_t)s_u32(p + 4) << 32;
}

static uint32_t s_crc(const unsigned char *p, size_t len)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (len) {
        uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = crc32(crc, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)crc;
}

/* ---- the tensors a config implies -------------------------------------- */

static void s_add(s_want_t *w, int *n, float **dst, uint32_t ndim, const uint32_t *dims,
                  const char *fmt, int idx)
{
    s_want_t *t = &w[(*n)++];
    snprintf(t->name, sizeof t->name, fmt, idx);
    t->ndim = ndim;
    memcpy(t->dims, dims, ndim * sizeof *dims);
    t->dst = dst;
}

#define S_T(dst, name, idx, ...)                                                  \
    do {                                                                          \
        const uint32_t d_[] = {__VA_ARGS__};                                      \
        s_add(w, &n, dst, (uint32_t)(sizeof d_ / sizeof *d_), d_, name, idx);     \
    } while (0)

/* Fills w (S_FIXED + 6 * blocks entries) from m's shapes; returns the count. */
static int s_wanted(hs_nn_model_t *m, int k, s_want_t *w)
{
    int n = 0;
    uint32_t c = (uint32_t)m->trunk_c, kk = (uint32_t)k, p = (uint32_t)m->p1conv.out_c;
    uint32_t g = (uint32_t)m->g1conv.out_c, v = (uint32_t)m->v1conv.out_c;
    uint32_t h = (uint32_t)m->v2.out_c;
    S_T(&m->input_conv.w, "input.w", 0, c, HS_NN_SPATIAL, kk, kk);
    S_T(&m->input_conv.b, "input.b", 0, c);
    for (int i = 0; i < m->n_blocks; i++) {
        hs_nn_block_t *b = &m->blocks[i];
        S_T(&b->pre.scale, "block.%d.pre.scale", i, c);
        S_T(&b->pre.bias, "block.%d.pre.bias", i, c);
        S_T(&b->conv1.w, "block.%d.conv1.w", i, c, c, 3, 3);
        S_T(&b->conv1.b, "block.%d.conv1.b", i, c);
        S_T(&b->conv2.w, "block.%d.conv2.w", i, c, c, 3, 3);
        S_T(&b->conv2.b, "block.%d.conv2.b", i, c);
    }
    S_T(&m->tip.scale, "tip.scale", 0, c);
    S_T(&m->tip.bias, "tip.bias", 0, c);
    S_T(&m->p1conv.w, "policy.p1.w", 0, p, c, 1, 1);
    S_T(&m->p1conv.b, "policy.p1.b", 0, p);
    S_T(&m->g1conv.w, "policy.g1.w", 0, g, c, 1, 1);
    S_T(&m->g1conv.b, "policy.g1.b", 0, g);
    S_T(&m->p_gmul.w, "policy.gmul.w", 0, 3 * g, p);
    S_T(&m->p2conv.w, "policy.p2.w", 0, 1, p, 1, 1);
    S_T(&m->pass1.w, "policy.pass.w", 0, 3 * g, 1);
    S_T(&m->v1conv.w, "value.v1.w", 0, v, c, 1, 1);
    S_T(&m->v1conv.b, "value.v1.b", 0, v);
    S_T(&m->v2.w, "value.v2.w", 0, 3 * v, h);
    S_T(&m->v2.b, "value.v2.b", 0, h);
    S_T(&m->v3.w, "value.v3.w", 0, h, 3);
    S_T(&m->v3.b, "value.v3.b", 0, 3);
    S_T(&m->sv3.w, "value.score.w", 0, h, 4);
    S_T(&m->sv3.b, "value.score.b", 0, 4);
    S_T(&m->own_conv.w, "value.own.w", 0, 1, v, 1, 1);
    return n;
}

/* ---- the structure the tensors go into ---------------------------------- */

static hs_nn_conv_t s_conv(int k, int in_c, int out_c, hs_nn_act_t act)
{
    return (hs_nn_conv_t){.ky = k, .kx = k, .in_c = in_c, .out_c = out_c,
                          .dil_y = 1, .dil_x = 1, .act = act};
}

static hs_nn_dense_t s_dense(int in_c, int out_c, hs_nn_act_t act)
{
    return (hs_nn_dense_t){.in_c = in_c, .out_c = out_c, .act = act};
}

/* config: B, C, K, P, G, V, H, 0. The maths is forward_ref.c's. */
static int s_layout(hs_nn_model_t *m, const int32_t *cfg, hs_error_t *err)
{
    static const char *what[] = {"blocks", "channels", "input kernel", "policy channels",
                                 "policy pooling channels", "value channels", "value hidden"};
    for (int i = 0; i < 7; i++) {
        long hi = i == 0 ? HS_NN_MAX_BLOCKS : i == 2 ? HS_NN_MAX_KERNEL : HS_NN_MAX_CHANNELS;
        if (cfg[i] < 1)
            return hs_error_set(err, HS_EPARSE, "config: %s is %d", what[i], (int)cfg[i]);
        if (cfg[i] > hi)
            return hs_error_set(err, HS_ELIMIT, "config: %s is %d (at most %ld)", what[i],
                                (int)cfg[i], hi);
    }
    if (cfg[2] != 3 && cfg[2] != 5)
        return hs_error_set(err, HS_EPARSE, "config: input kernel is %d (3 or 5)", (int)cfg[2]);
    if (cfg[7] != 0)
        return hs_error_set(err, HS_EPARSE, "config: the reserved 8th value is %d, not 0",
                            (int)cfg[7]);
    int c = cfg[1], p = cfg[3], g = cfg[4], v = cfg[5], h = cfg[6];
    m->version = 8;   /* postprocess: 4 score outputs, fixed multipliers below */
    m->input_set = HS_NN_INPUT_HS_V1;
    m->in_spatial = HS_NN_SPATIAL;
    m->in_global = HS_NN_GLOBAL;
    m->td_score_mul = m->score_mean_mul = m->score_stdev_mul = m->lead_mul = 1.0f;
    m->variance_time_mul = m->st_value_error_mul = m->st_score_error_mul = 1.0f;
    m->trunk_c = c;
    m->input_conv = s_conv(cfg[2], HS_NN_SPATIAL, c, HS_NN_ACT_IDENTITY);
    m->input_global = s_dense(HS_NN_GLOBAL, c, HS_NN_ACT_IDENTITY);
    /* B <= HS_NN_MAX_BLOCKS small structs: the tensors' places need them */
    m->blocks = calloc((size_t)cfg[0], sizeof *m->blocks);
    if (!m->blocks)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    m->n_blocks = cfg[0];
    for (int i = 0; i < m->n_blocks; i++) {
        hs_nn_block_t *b = &m->blocks[i];
        b->kind = HS_NN_BLOCK_REGULAR;
        b->pre = (hs_nn_norm_t){.channels = c, .act = HS_NN_ACT_RELU};
        b->conv1 = s_conv(3, c, c, HS_NN_ACT_RELU);
        b->conv2 = s_conv(3, c, c, HS_NN_ACT_IDENTITY);
    }
    m->tip = (hs_nn_norm_t){.channels = c, .act = HS_NN_ACT_RELU};
    m->policy_c = 1;
    m->p1conv = s_conv(1, c, p, HS_NN_ACT_RELU);
    m->g1conv = s_conv(1, c, g, HS_NN_ACT_RELU);
    m->p_gmul = s_dense(3 * g, p, HS_NN_ACT_IDENTITY);
    m->p2conv = s_conv(1, p, 1, HS_NN_ACT_IDENTITY);
    m->pass1 = s_dense(3 * g, 1, HS_NN_ACT_IDENTITY);
    m->v1conv = s_conv(1, c, v, HS_NN_ACT_RELU);
    m->v2 = s_dense(3 * v, h, HS_NN_ACT_RELU);
    m->v3 = s_dense(h, 3, HS_NN_ACT_IDENTITY);
    m->sv3 = s_dense(h, 4, HS_NN_ACT_IDENTITY);
    m->own_conv = s_conv(1, v, 1, HS_NN_ACT_IDENTITY);
    return 0;
}

/* ---- the table ----------------------------------------------------------- */

typedef struct s_file {
    const unsigned char *p;
    size_t len;
    size_t data;        /* start of the data section */
    size_t data_len;    /* its length (up to the CRC) */
    uint32_t n_tensors;
} s_file_t;

static void s_shape_str(char *buf, size_t cap, uint32_t ndim, const uint32_t *dims)
{
    size_t o = (size_t)snprintf(buf, cap, "[");
    for (uint32_t i = 0; i < ndim && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, i ? ", %u" : "%u", dims[i]);
    if (o < cap)
        snprintf(buf + o, cap - o, "]");
}

/* An entry's name, NUL-terminated within its 48 bytes. */
static int s_entry_name(const unsigned char *e, uint32_t i, char *name, hs_error_t *err)
{
    if (!memchr(e, 0, S_TNAME))
        return hs_error_set(err, HS_EPARSE, "table entry %u: name has no NUL in %d bytes", i,
                            S_TNAME);
    memcpy(name, e, S_TNAME);
    return 0;
}

/* Checks entry i against its wanted tensor (shape, count, place). */
static int s_check_entry(const s_file_t *f, const unsigned char *e, const s_want_t *t,
                         hs_error_t *err)
{
    uint32_t ndim = s_u32(e + S_TNAME), dims[4];
    for (int k = 0; k < 4; k++)
        dims[k] = s_u32(e + S_TNAME + 4 + 4 * k);
    uint64_t off = s_u64(e + S_TNAME + 20), count = s_u64(e + S_TNAME + 28);
    char got[64], want[64];
    if (ndim < 1 || ndim > 4)
        return hs_error_set(err, HS_EPARSE, "tensor \"%s\": %u dimensions (1 to 4)", t->name, ndim);
    s_shape_str(got, sizeof got, ndim, dims);
    s_shape_str(want, sizeof want, t->ndim, t->dims);
    for (uint32_t k = ndim; k < 4; k++)
        if (dims[k])
            return hs_error_set(err, HS_EPARSE, "tensor \"%s\": unused dimension %u is %u, "
                                "not 0", t->name, k, dims[k]);
    int same = ndim == t->ndim;
    for (uint32_t k = 0; same && k < ndim; k++)
        same = dims[k] == t->dims[k];
    if (!same)
        return hs_error_set(err, HS_EPARSE, "tensor \"%s\": shape %s, expected %s", t->name,
                            got, want);
    uint64_t prod = 1;
    for (uint32_t k = 0; k < ndim; k++)
        prod *= dims[k];   /* each <= 3 * HS_NN_MAX_CHANNELS: no overflow in 4 */
    if (count != prod)
        return hs_error_set(err, HS_EPARSE, "tensor \"%s\": count %llu, its shape %s has %llu",
                            t->name, (unsigned long long)count, got, (unsigned long long)prod);
    if (off % 4)
        return hs_error_set(err, HS_EPARSE, "tensor \"%s\": offset %llu is not a multiple of 4",
                            t->name, (unsigned long long)off);
    if (off > f->data_len || count > (f->data_len - off) / 4)
        return hs_error_set(err, HS_EPARSE, "tensor \"%s\": bytes %llu + %llu * 4 lie outside "
                            "the data section (%zu bytes)", t->name, (unsigned long long)off,
                            (unsigned long long)count, f->data_len);
    return 0;
}

static s_want_t *s_find(s_want_t *w, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(w[i].name, name))
            return &w[i];
    return NULL;
}

/* Copies one checked tensor's floats out, refusing NaN and infinities. */
static int s_copy(const s_file_t *f, const unsigned char *e, s_want_t *t, hs_error_t *err)
{
    uint64_t off = s_u64(e + S_TNAME + 20), count = s_u64(e + S_TNAME + 28);
    float *dst = malloc((size_t)count * sizeof *dst);
    if (!dst)
        return hs_error_set(err, HS_ENOMEM, "tensor \"%s\": out of memory for %llu floats",
                            t->name, (unsigned long long)count);
    const unsigned char *src = f->p + f->data + off;
    for (size_t i = 0; i < count; i++) {
        uint32_t u = s_u32(src + 4 * i);
        memcpy(&dst[i], &u, sizeof u);
        if (!isfinite(dst[i])) {
            free(dst);
            return hs_error_set(err, HS_EPARSE, "tensor \"%s\": value %zu is not finite",
                                t->name, i);
        }
    }
    *t->dst = dst;
    return 0;
}

/* Every table entry: named, wanted once, the right shape, inside the data;
 * then every wanted tensor present; only then the copies. */
static int s_tensors(const s_file_t *f, s_want_t *w, int nw, hs_error_t *err)
{
    char name[S_TNAME];
    const unsigned char *table = f->p + S_HEADER;
    for (uint32_t i = 0; i < f->n_tensors; i++) {
        const unsigned char *e = table + (size_t)i * S_ENTRY;
        int rc = s_entry_name(e, i, name, err);
        if (rc)
            return rc;
        s_want_t *t = s_find(w, nw, name);
        if (!t)
            return hs_error_set(err, HS_EPARSE, "unknown tensor \"%s\" (table entry %u)", name, i);
        if (t->seen)
            return hs_error_set(err, HS_EPARSE, "duplicate tensor \"%s\" (table entry %u)", name,
                                i);
        t->seen = 1 + (int)i;
        if ((rc = s_check_entry(f, e, t, err)))
            return rc;
    }
    for (int i = 0; i < nw; i++)
        if (!w[i].seen)
            return hs_error_set(err, HS_EPARSE, "missing tensor \"%s\"", w[i].name);
    for (int i = 0; i < nw; i++) {
        int rc = s_copy(f, table + (size_t)(w[i].seen - 1) * S_ENTRY, &w[i], err);
        if (rc)
            return rc;
    }
    return 0;
}

static int s_read_tensors(const s_file_t *f, hs_nn_model_t *m, int k, hs_error_t *err)
{
    s_want_t *w = calloc(S_FIXED + 6 * (size_t)m->n_blocks, sizeof *w);
    if (!w)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int rc = s_tensors(f, w, s_wanted(m, k, w), err);
    free(w);
    return rc;
}

/* ---- checksum, truncation and the header -------------------------------- */

/* The file failed its CRC: if its own table says it is longer than it is,
 * say so and name the tensor that runs furthest past the end (of a cut
 * file, the last one written); else it is damaged. */
static int s_bad_crc(const unsigned char *p, size_t len, hs_error_t *err)
{
    uint32_t n = s_u32(p + S_HEADER - 4);
    uint64_t table_end = S_HEADER + (uint64_t)n * S_ENTRY;
    if (table_end + 4 > len)
        return hs_error_set(err, HS_ECORRUPT, "file truncated: %zu bytes, its table of %u "
                            "tensors needs %llu (checksum mismatch)", len, n,
                            (unsigned long long)(table_end + 4));
    const char *cut = NULL;
    uint64_t worst = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *e = p + S_HEADER + (size_t)i * S_ENTRY;
        uint64_t off = s_u64(e + S_TNAME + 20), count = s_u64(e + S_TNAME + 28);
        if (off > UINT64_MAX / 4 || count > UINT64_MAX / 16)
            continue;   /* nonsense (and the sum below could wrap): not a truncation */
        uint64_t end = table_end + off + 4 * count + 4;
        if (end > len && end > worst && memchr(e, 0, S_TNAME)) {
            worst = end;
            cut = (const char *)e;
        }
    }
    if (cut)
        return hs_error_set(err, HS_ECORRUPT, "file truncated: %zu bytes, tensor \"%s\" "
                            "ends at byte %llu (checksum mismatch)", len, cut,
                            (unsigned long long)worst);
    return hs_error_set(err, HS_ECORRUPT, "checksum mismatch (the file is damaged)");
}

static int s_header(const unsigned char *p, size_t len, hs_nn_model_t *m, s_file_t *f,
                    int32_t *cfg, hs_error_t *err)
{
    uint32_t version = s_u32(p + S_MAGIC_LEN), set = s_u32(p + S_MAGIC_LEN + 4);
    if (version != HS_NN_HSN_VERSION)
        return hs_error_set(err, HS_EUNSUPPORTED, ".hsn version %u is not supported (this "
                            "build reads version %d)", version, HS_NN_HSN_VERSION);
    if (set != HS_NN_INPUT_HS_V1)
        return hs_error_set(err, HS_EUNSUPPORTED, "input set %u is not supported (.hsn "
                            "version 1 has input set %d)", set, HS_NN_INPUT_HS_V1);
    const unsigned char *name = p + S_MAGIC_LEN + 8;
    if (!memchr(name, 0, S_NAME_LEN))
        return hs_error_set(err, HS_EPARSE, "name has no NUL in %d bytes", S_NAME_LEN);
    snprintf(m->name, sizeof m->name, "%s", (const char *)name);
    for (int i = 0; i < 8; i++)
        cfg[i] = (int32_t)s_u32(name + S_NAME_LEN + 4 * i);
    f->p = p;
    f->len = len;
    f->n_tensors = s_u32(p + S_HEADER - 4);
    uint64_t table_end = S_HEADER + (uint64_t)f->n_tensors * S_ENTRY;
    if (f->n_tensors > S_FIXED + 6 * HS_NN_MAX_BLOCKS)
        return hs_error_set(err, HS_ELIMIT, "%u tensors (at most %d)", f->n_tensors,
                            S_FIXED + 6 * HS_NN_MAX_BLOCKS);
    if (table_end + 4 > len)
        return hs_error_set(err, HS_EPARSE, "the table of %u tensors runs past the end "
                            "(%zu bytes)", f->n_tensors, len);
    f->data = (size_t)table_end;
    f->data_len = len - 4 - f->data;
    return 0;
}

int hs__nn_hsn_parse(const unsigned char *p, size_t len, hs_nn_model_t *m, hs_error_t *err)
{
    if (len < S_HEADER + 4)
        return hs_error_set(err, HS_EPARSE, ".hsn: file truncated: %zu bytes, the header "
                            "needs %d", len, S_HEADER + 4);
    if (s_crc(p, len - 4) != s_u32(p + len - 4)) {
        int rc = s_bad_crc(p, len, err);
        hs_error_prefix(err, ".hsn: ");
        return rc;
    }
    s_file_t f = {0};
    int32_t cfg[8] = {0};
    int rc = s_header(p, len, m, &f, cfg, err);
    if (!rc) rc = s_layout(m, cfg, err);
    if (!rc) rc = s_read_tensors(&f, m, cfg[2], err);
    /* our nets have no global inputs: a zero matrix, made once all is checked */
    if (!rc && !(m->input_global.w = calloc((size_t)HS_NN_GLOBAL * (size_t)m->trunk_c,
                                            sizeof *m->input_global.w)))
        rc = hs_error_set(err, HS_ENOMEM, "out of memory");
    if (rc)
        hs_error_prefix(err, ".hsn: ");
    return rc;
}
