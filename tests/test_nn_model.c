/*
 * tests/test_nn_model.c — the KataGo model reader (worker/nn/model.h) on the
 * shared b6c96 net: the layer shapes its info file states, and damaged copies
 * made here (truncated, bit-flipped gzip, hostile sizes, unsupported versions
 * and block kinds, a NaN weight) refused with errors that say what was wrong.
 */
#include <math.h>
#include <zlib.h>

#include "test.h"
#include "worker/nn/model.h"

#define NET_DIR "/../nets/katago-g170-b6c96/"
#define NET_FILE "g170-b6c96-s175395328-d26788732"

/* Reads the info file's integer "key": value; -1 when absent. */
static int s_info_int(const char *info, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(info, pat);
    return p ? atoi(p + strlen(pat)) : -1;
}

static char *s_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap + 1);
    while (buf && (n += fread(buf + n, 1, cap - n, f)) == cap) {
        cap *= 2;
        buf = realloc(buf, cap + 1);
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    *len = n;
    return buf;
}

/* The inflated model, via zlib's own gz reader (independent of ours). */
static char *s_inflate_file(const char *path, size_t *len)
{
    gzFile g = gzopen(path, "rb");
    size_t cap = 1 << 22, n = 0;
    char *buf = malloc(cap);
    int got;
    while ((got = gzread(g, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    gzclose(g);
    *len = n;
    return buf;
}

static void s_check_shapes(const hs_nn_model_t *m, const char *info)
{
    HS_CHECK_INT(m->version, s_info_int(info, "version"));
    HS_CHECK_STR(m->name, NET_FILE);
    HS_CHECK_INT(m->in_spatial, 22);
    HS_CHECK_INT(m->in_global, 19);
    HS_CHECK_INT(m->trunk_c, s_info_int(info, "trunk_num_channels"));
    HS_CHECK_INT(m->input_conv.ky, 5);
    HS_CHECK_INT(m->input_conv.out_c, m->trunk_c);
    HS_CHECK_INT(m->n_blocks, 6);
    const char *kinds = strstr(info, "\"block_kind\"");
    HS_CHECK(kinds != NULL);
    for (int i = 0; i < m->n_blocks && kinds; i++) {
        const hs_nn_block_t *b = &m->blocks[i];
        char want[64];
        snprintf(want, sizeof want, "[\"rconv%d\", \"%s\"]", i + 1,
                 b->kind == HS_NN_BLOCK_GPOOL ? "gpool" : "regular");
        HS_CHECK(strstr(kinds, want) != NULL);
        HS_CHECK(b->pre.scale && b->pre.bias);
        HS_CHECK_INT(b->conv1.in_c, m->trunk_c);
        HS_CHECK_INT(b->conv2.out_c, m->trunk_c);
        HS_CHECK(b->conv1.b != NULL);               /* mid norm folded in */
        HS_CHECK_INT(b->conv1.act, HS_NN_ACT_RELU);
        if (b->kind == HS_NN_BLOCK_GPOOL) {
            HS_CHECK_INT(b->conv1.out_c, s_info_int(info, "regular_num_channels"));
            HS_CHECK_INT(b->gconv.out_c, s_info_int(info, "gpool_num_channels"));
            HS_CHECK_INT(b->gmul.in_c, 3 * b->gconv.out_c);
        } else {
            HS_CHECK_INT(b->conv1.out_c, s_info_int(info, "mid_num_channels"));
        }
    }
    HS_CHECK_INT(m->p1conv.out_c, s_info_int(info, "p1_num_channels"));
    HS_CHECK_INT(m->g1conv.out_c, s_info_int(info, "g1_num_channels"));
    HS_CHECK_INT(m->policy_c, 1);
    HS_CHECK_INT(m->pass1.out_c, 1);
    HS_CHECK_INT(m->pass2.in_c, 0);
    HS_CHECK_INT(m->v1conv.out_c, s_info_int(info, "v1_num_channels"));
    HS_CHECK_INT(m->v2.out_c, s_info_int(info, "v2_size"));
    HS_CHECK_INT(m->v3.out_c, 3);
    HS_CHECK_INT(m->sv3.out_c, 4);
    HS_CHECK_INT(m->own_conv.out_c, 1);
    HS_CHECK(m->lead_mul == 20.0f);
    /* b6c96 has about a million parameters */
    size_t params = hs_nn_model_params(m);
    HS_CHECK(params > 900000 && params < 1200000);
}

/* Parses buf with [at, at+cut) replaced by `with`; returns the code, err filled. */
static int s_parse_edited(const char *raw, size_t len, size_t at, size_t cut,
                          const char *with, hs_error_t *err)
{
    size_t wl = strlen(with);
    char *b = malloc(len - cut + wl);
    memcpy(b, raw, at);
    memcpy(b + at, with, wl);
    memcpy(b + at + wl, raw + at + cut, len - at - cut);
    hs_nn_model_t *m = (hs_nn_model_t *)1;
    hs_error_clear(err);
    int rc = hs_nn_model_parse(b, len - cut + wl, &m, err);
    HS_CHECK(rc == 0 ? m != NULL : m == NULL);
    hs_nn_model_free(&m);
    free(b);
    return rc;
}

static void s_expect(int rc, int code, const hs_error_t *err, const char *needle)
{
    HS_CHECK_INT(rc, code);
    if (!strstr(err->msg, needle))
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err->msg, needle);
    HS_CHECK(strstr(err->msg, needle) != NULL);
}

static size_t s_find(const char *raw, size_t len, const char *needle)
{
    size_t nl = strlen(needle);
    for (size_t i = 0; i + nl <= len; i++)
        if (!memcmp(raw + i, needle, nl))
            return i;
    return (size_t)-1;
}

static void s_check_damage(const char *gz_path)
{
    hs_error_t err;
    size_t len, zlen;
    char *raw = s_inflate_file(gz_path, &len);
    char *gz = s_slurp(gz_path, &zlen);
    HS_CHECK(raw && gz && len > zlen);

    /* the inflated bytes parse as an uncompressed model too */
    HS_CHECK_INT(s_parse_edited(raw, len, 0, 0, "", &err), 0);

    /* truncated: in the header, inside a float block, just before the end */
    size_t cuts[] = {20, 300, len / 2, len - 3};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++)
        s_expect(s_parse_edited(raw, cuts[i], 0, 0, "", &err), HS_EPARSE, &err, "truncated");

    /* truncated gzip, and a flipped byte in the compressed stream */
    hs_nn_model_t *m = NULL;
    int rc = hs_nn_model_parse(gz, zlen / 2, &m, &err);
    s_expect(rc, HS_ECORRUPT, &err, "truncated");
    HS_CHECK(m == NULL);
    gz[zlen / 3] ^= 0x55;
    rc = hs_nn_model_parse(gz, zlen, &m, &err);
    HS_CHECK(rc == HS_ECORRUPT || rc == HS_EPARSE);
    HS_CHECK(m == NULL);

    /* versions: 17 (transformers) and 7 (V6 inputs) are named and refused */
    size_t v = s_find(raw, len, "\n8\n22\n");
    HS_CHECK(v != (size_t)-1);
    s_expect(s_parse_edited(raw, len, v, 3, "\n17\n", &err), HS_EUNSUPPORTED, &err,
             "version 17");
    s_expect(s_parse_edited(raw, len, v, 3, "\n7\n", &err), HS_EUNSUPPORTED, &err,
             "version 7");

    /* an unknown block kind is named */
    size_t k = s_find(raw, len, "ordinary_block");
    HS_CHECK(k != (size_t)-1);
    s_expect(s_parse_edited(raw, len, k, 14, "dilated_block", &err), HS_EUNSUPPORTED, &err,
             "dilated_block");

    /* a hostile channel count: refused by its bound, nothing allocated for it */
    size_t c = s_find(raw, len, "conv1\n5\n5\n22\n96\n");
    HS_CHECK(c != (size_t)-1);
    s_expect(s_parse_edited(raw, len, c, 16, "conv1\n5\n5\n22\n2000000000\n", &err),
             HS_ELIMIT, &err, "conv out channels");
    /* a plausible but wrong one: the float block is then too short */
    s_expect(s_parse_edited(raw, len, c, 16, "conv1\n5\n5\n22\n4000\n", &err),
             HS_EPARSE, &err, "truncated");

    /* a NaN weight (first float of conv1) */
    size_t w = s_find(raw, len, "@BIN@");
    s_expect(s_parse_edited(raw, len, w + 5, 4, "\xff\xff\xff\x7f", &err), HS_EPARSE, &err,
             "NaN");
    free(raw);
    free(gz);
}

/* The hand-made seeds of the fuzz corpus: every version and block kind read. */
static void s_check_tiny(void)
{
    const char *own = getenv("HS_TEST_DATA");
    const char *names[] = {"v8", "v11", "v15", "v16"};
    const int versions[] = {8, 11, 15, 16}, policy_c[] = {1, 1, 2, 4};
    HS_CHECK(own != NULL);
    for (int i = 0; own && i < 4; i++) {
        for (int gz = 0; gz < 2; gz++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/../fuzz/corpus/nnmodel/tiny-%s.bin%s", own,
                     names[i], gz ? ".gz" : "");
            hs_error_t err;
            hs_nn_model_t *m = NULL;
            int rc = hs_nn_model_load(path, &m, &err);
            if (rc)
                fprintf(stderr, "%s\n", err.msg);
            HS_CHECK_INT(rc, 0);
            if (!m)
                continue;
            HS_CHECK_INT(m->version, versions[i]);
            HS_CHECK_INT(m->policy_c, policy_c[i]);
            HS_CHECK_INT(m->pass2.in_c, versions[i] >= 15 ? 2 : 0);
            if (versions[i] == 15) {
                HS_CHECK_INT(m->blocks[0].kind, HS_NN_BLOCK_NESTED);
                HS_CHECK_INT(m->blocks[0].n_inner, 2);
                HS_CHECK_INT(m->blocks[0].inner[1].kind, HS_NN_BLOCK_GPOOL);
            }
            if (versions[i] == 11)
                HS_CHECK_INT(m->tip.act, HS_NN_ACT_MISH);
            hs_nn_model_free(&m);
        }
    }
}

int main(void)
{
    s_check_tiny();
    /* An empty file is said to be one, not "truncated" (it never held a net). */
    hs_error_t e0;
    hs_nn_model_t *m0 = NULL;
    HS_CHECK_INT(hs_nn_model_parse("", 0, &m0, &e0), HS_EPARSE);
    HS_CHECK(strstr(e0.msg, "empty file") != NULL && m0 == NULL);
    const char *data = hs_test_data_dir();
    char path[4096], info_path[4096];
    snprintf(path, sizeof path, "%s" NET_DIR NET_FILE ".bin.gz", data);
    snprintf(info_path, sizeof info_path, "%s" NET_DIR NET_FILE "-info.txt", data);
    size_t info_len;
    char *info = s_slurp(info_path, &info_len);
    if (!info) {
        printf("SKIP: %s is not here; this test needs ../shared/nets\n", info_path);
        return 77;
    }
    hs_error_t err;
    hs_nn_model_t *m = NULL;
    int rc = hs_nn_model_load(path, &m, &err);
    if (rc)
        fprintf(stderr, "load: %s\n", err.msg);
    HS_CHECK_INT(rc, 0);
    if (m)
        s_check_shapes(m, info);
    hs_nn_model_free(&m);
    HS_CHECK(m == NULL);

    rc = hs_nn_model_load("/nonexistent/model.bin.gz", &m, &err);
    HS_CHECK_INT(rc, HS_EIO);
    s_check_damage(path);
    free(info);
    return hs_test_finish();
}
