/*
 * tests/test_nn_hsn.c — hyeongse's own net files (.hsn, worker/nn/model.h,
 * docs/NET.md "Our own net format"), written by tests/hsn_write.h from the
 * spec: a small random net loads (by its magic, whatever the file name, also
 * gzip'ed), runs on the ref backend and on cpu/cuda where this build and
 * machine have them, with finite outputs and the backends within 1e-4 of
 * ref; a hand-weighted net whose outputs are computed here by hand checks
 * the mapping onto the model (ownership = tanh of a known value, the value
 * head's win rate = (1 + tanh u) / 2, score and lead with multiplier 1, the
 * side-to-move planes); and every corruption the loader must refuse gives
 * its documented error. Needs no shared data.
 */
#include <math.h>

#include "hsn_write.h"
#include "test.h"
#include "worker/nn/eval.h"

#define CFG 2, 8, 5, 4, 4, 4, 8    /* B, C, K, P, G, V, H */

static hs_nn_model_t *s_parse(const unsigned char *buf, size_t len, int want_rc,
                              const char *want_msg)
{
    hs_error_t err;
    hs_error_clear(&err);
    hs_nn_model_t *m = NULL;
    int rc = hs_nn_model_parse(buf, len, &m, &err);
    HS_CHECK_INT(rc, want_rc);
    if (want_msg && !strstr(err.msg, want_msg)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err.msg, want_msg);
        HS_CHECK(0);
    }
    HS_CHECK(rc ? m == NULL && err.msg[0] : m != NULL);
    if (rc || want_rc)
        hs_nn_model_free(&m);
    return m;
}

/* A 19x19 (or n x n) position with a few stones, `to_move` to play. */
static void s_position(hs_board_t *b, int n, hs_color_t to_move, hs_nn_pos_t *p)
{
    hs_board_init(b, n);
    const int st[][3] = {{3, 3, HS_BLACK}, {4, 3, HS_WHITE}, {2, 5, HS_BLACK}, {5, 5, HS_WHITE},
                         {1, 1, HS_BLACK}, {0, 1, HS_WHITE}};
    for (size_t i = 0; i < sizeof st / sizeof *st; i++)
        hs_board_set_stone(b, hs_board_point(b, st[i][0], st[i][1]), (hs_color_t)st[i][2]);
    *p = (hs_nn_pos_t){.board = b, .to_move = to_move, .rules = HS_RULES_JAPANESE, .komi = 6.5};
}

static int s_eval(const hs_nn_model_t *m, hs_nn_backend_kind_t kind, const hs_nn_pos_t *p,
                  int sym, hs_nn_output_t *out)
{
    hs_nn_backend_config_t cfg = {.kind = kind, .max_batch = 8};
    hs_nn_evaluator_t *e = NULL;
    hs_error_t err;
    int rc = hs_nn_evaluator_create(m, &cfg, &e, &err);
    if (!rc)
        rc = hs_nn_evaluate(e, p, 1, sym, out, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", hs_nn_backend_kind_name(kind), err.msg);
    hs_nn_evaluator_free(&e);
    return rc;
}

static double s_diff(const hs_nn_output_t *a, const hs_nn_output_t *b)
{
    double w = 0;
    int area = a->n * a->n;
    for (int i = 0; i <= area; i++)
        w = fmax(w, fabs(a->policy[i] - b->policy[i]));
    for (int i = 0; i < area; i++)
        w = fmax(w, fabs(a->ownership[i] - b->ownership[i]));
    const float va[] = {a->white_win, a->white_loss, a->no_result, a->white_lead,
                        a->white_score_selfplay}, vb[] = {b->white_win, b->white_loss,
                        b->no_result, b->white_lead, b->white_score_selfplay};
    for (int i = 0; i < 5; i++)
        w = fmax(w, fabs(va[i] - vb[i]) / fmax(1.0, fabs(va[i])));
    return w;
}

static int s_finite(const hs_nn_output_t *o)
{
    int ok = isfinite(o->white_win) && isfinite(o->white_lead) && isfinite(o->no_result)
             && isfinite(o->white_score_selfplay);
    for (int i = 0; i <= o->n * o->n; i++)
        ok &= isfinite(o->policy[i]);
    for (int i = 0; i < o->n * o->n; i++)
        ok &= isfinite(o->ownership[i]) && fabsf(o->ownership[i]) <= 1.0f;
    return ok;
}

/* A random net: loads, has our input set, and every backend agrees with ref. */
static void s_check_random(void)
{
    hs_test_hsn_t h;
    hs_test_hsn_init(&h, CFG);
    hs_test_hsn_randomize(&h, 7);
    unsigned char *buf;
    size_t len = hs_test_hsn_write(&h, &buf);
    hs_nn_model_t *m = s_parse(buf, len, 0, NULL);
    if (!m)
        goto out;
    size_t floats = 0;
    for (int i = 0; i < h.n; i++)
        floats += h.t[i].count;
    HS_CHECK_INT(m->input_set, HS_NN_INPUT_HS_V1);
    HS_CHECK_INT(m->version, 8);
    HS_CHECK_INT(m->n_blocks, 2);
    HS_CHECK_INT(m->input_conv.ky, 5);
    HS_CHECK_STR(m->name, "test-b2c8");
    HS_CHECK_INT(strlen(m->hash), HS_NN_HASH_LEN);
    HS_CHECK_INT(hs_nn_model_params(m), floats + HS_NN_GLOBAL * 8);   /* + the zero globals */
    static hs_board_t b;
    hs_nn_pos_t p;
    for (int n = 19; n >= 9; n -= 10) {
        s_position(&b, n, HS_WHITE, &p);
        static hs_nn_output_t ref, other;
        HS_CHECK_INT(s_eval(m, HS_NN_BACKEND_REF, &p, HS_NN_SYM_ALL, &ref), 0);
        HS_CHECK(s_finite(&ref));
        HS_CHECK(ref.white_win > 0 && ref.white_win < 1);
        for (int k = HS_NN_BACKEND_CPU; k <= HS_NN_BACKEND_CUDA; k++) {
            if (!hs_nn_backend_available((hs_nn_backend_kind_t)k, NULL)) {
                printf("%dx%d: no %s backend here: not compared\n", n, n,
                       hs_nn_backend_kind_name((hs_nn_backend_kind_t)k));
                continue;
            }
            HS_CHECK_INT(s_eval(m, (hs_nn_backend_kind_t)k, &p, HS_NN_SYM_ALL, &other), 0);
            double d = s_diff(&ref, &other);
            printf("%dx%d: %s vs ref: worst difference %.3g\n", n, n,
                   hs_nn_backend_kind_name((hs_nn_backend_kind_t)k), d);
            HS_CHECK(s_finite(&other) && d < 1e-4);
        }
    }
    hs_nn_model_free(&m);
out:
    free(buf);
    hs_test_hsn_free(&h);
}

static void s_set(hs_test_hsn_t *h, const char *name, size_t i, float v)
{
    hs_test_hsn_tensor_t *t = hs_test_hsn_find(h, name);
    HS_CHECK(t && i < t->count);
    if (t && i < t->count)
        t->data[i] = v;
}

/* Channel 0 carries "Black to move" (plane 16, the 5x5 kernel's centre) +
 * 0.25 (block 1's conv2 bias) through the tip (2x - 0.5, relu) into value
 * channel 0 (x + 0.5): Black to move gives v1 = 2.5, White to move 0.5
 * everywhere. Ownership = tanh(0.4 v1); the value logit u = 0.2 mean(v1)
 * (v2 = relu(mean)), exported as [u, -u, -30]; score and lead = 2 v2. */
static void s_check_by_hand(void)
{
    hs_test_hsn_t h;
    hs_test_hsn_init(&h, CFG);
    s_set(&h, "input.w", ((size_t)0 * 22 + 16) * 25 + 2 * 5 + 2, 1.0f);
    s_set(&h, "block.1.conv2.b", 0, 0.25f);
    s_set(&h, "tip.scale", 0, 2.0f);
    s_set(&h, "tip.bias", 0, -0.5f);
    s_set(&h, "value.v1.w", 0, 1.0f);
    s_set(&h, "value.v1.b", 0, 0.5f);
    s_set(&h, "value.own.w", 0, 0.4f);
    s_set(&h, "value.v2.w", 0, 1.0f);            /* [in 0 = mean of channel 0][out 0] */
    s_set(&h, "value.v3.w", 0, 0.2f);
    s_set(&h, "value.v3.w", 1, -0.2f);
    s_set(&h, "value.v3.b", 2, -30.0f);
    s_set(&h, "value.score.w", 0, 2.0f);
    s_set(&h, "value.score.w", 2, 2.0f);
    unsigned char *buf;
    size_t len = hs_test_hsn_write(&h, &buf);
    hs_nn_model_t *m = s_parse(buf, len, 0, NULL);
    static hs_board_t b;
    hs_nn_pos_t p;
    static hs_nn_output_t o;
    for (int who = HS_BLACK; m && who <= HS_WHITE; who++) {
        s_position(&b, 9, (hs_color_t)who, &p);
        HS_CHECK_INT(s_eval(m, HS_NN_BACKEND_REF, &p, 3, &o), 0);
        double v1 = who == HS_BLACK ? 2.5 : 0.5, u = 0.2 * v1;
        double own = tanh(0.4 * v1), sign = who == HS_WHITE ? 1 : -1;
        double nr = exp(-30.0) / (exp(u) + exp(-u) + exp(-30.0));
        for (int i = 0; i < 81; i++)
            HS_CHECK(fabs(o.ownership[i] - sign * own) < 1e-6);
        double win = (1 + tanh(u)) / 2;               /* for the side to move */
        HS_CHECK(fabs(o.white_win - (who == HS_WHITE ? win : 1 - win)) < 1e-6);
        HS_CHECK(o.no_result < 1e-12);
        HS_CHECK(fabs(o.white_lead - sign * 2 * v1 * (1 - nr)) < 1e-5);
        HS_CHECK(fabs(o.white_score_selfplay - sign * 2 * v1 * (1 - nr)) < 1e-5);
        HS_CHECK(o.st_winloss_error == -1.0f);      /* version 8: not given */
    }
    hs_nn_model_free(&m);
    free(buf);
    hs_test_hsn_free(&h);
}

/* The header fields, one at a time, with a correct CRC over the change. */
static void s_check_header(const unsigned char *good, size_t len)
{
    unsigned char *b = malloc(len);
    struct { size_t at; uint32_t v; int rc; const char *msg; } cases[] = {
        {8, 2, HS_EUNSUPPORTED, "version 2"}, {8, 0, HS_EUNSUPPORTED, "version 0"},
        {12, 0, HS_EUNSUPPORTED, "input set 0"}, {12, 7, HS_EUNSUPPORTED, "input set 7"},
        {80, 0, HS_EPARSE, "blocks is 0"}, {80, 100000, HS_ELIMIT, "blocks"},
        {80, 3, HS_EPARSE, "missing tensor \"block.2.pre.scale\""},
        {80, 1, HS_EPARSE, "unknown tensor \"block.1."},
        {84, 0, HS_EPARSE, "channels is 0"}, {84, 0x80000000u, HS_EPARSE, "channels"},
        {84, 9999, HS_ELIMIT, "channels"}, {84, 16, HS_EPARSE, "tensor \"input.w\": shape"},
        {88, 4, HS_EPARSE, "input kernel is 4"},
        {88, 3, HS_EPARSE, "\"input.w\": shape [8, 22, 5, 5], expected [8, 22, 3, 3]"},
        {92, 0, HS_EPARSE, "policy channels"}, {96, 5, HS_EPARSE, "\"policy.g1.w\": shape"},
        {100, 9999, HS_ELIMIT, "value channels"}, {104, 3, HS_EPARSE, "\"value.v2.w\": shape"},
        {108, 1, HS_EPARSE, "reserved"},
        {112, 0, HS_EPARSE, "missing tensor \"input.w\""},
        {112, 0xFFFFFFFFu, HS_ELIMIT, "tensors"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(b, good, len);
        hs_test_hsn_put32(b + cases[i].at, cases[i].v);
        hs_test_hsn_fix_crc(b, len);
        s_parse(b, len, cases[i].rc, cases[i].msg);
        /* the same change without a new CRC: damage */
        hs_test_hsn_put32(b + len - 4, ~(uint32_t)crc32(0L, b, (uInt)(len - 4)));
        s_parse(b, len, HS_ECORRUPT, "checksum mismatch");
    }
    /* a name with no NUL in its 64 bytes */
    memcpy(b, good, len);
    memset(b + 16, 'a', 64);
    hs_test_hsn_fix_crc(b, len);
    s_parse(b, len, HS_EPARSE, "name has no NUL");
    /* one more table entry than there is: the data's bytes read as an entry */
    memcpy(b, good, len);
    hs_test_hsn_put32(b + 112, 33);
    hs_test_hsn_fix_crc(b, len);
    s_parse(b, len, HS_EPARSE, NULL);
    /* a flipped magic byte: not ours, read as a KataGo file and refused */
    memcpy(b, good, len);
    b[3] ^= 1;
    s_parse(b, len, HS_EPARSE, NULL);
    free(b);
}

/* Table entries: each field made wrong, CRC correct. Entry 0 is input.w. */
static void s_check_table(const unsigned char *good, size_t len)
{
    unsigned char *b = malloc(len);
    size_t e = 116;
    struct { size_t at; int wide; uint64_t v; const char *msg; } cases[] = {
        {48, 0, 0, "0 dimensions"}, {48, 0, 5, "5 dimensions"},
        {48, 0, 3, "unused dimension 3 is 5"}, {52, 0, 9, "shape [9, 22, 5, 5]"},
        {64, 0, 1, "shape [8, 22, 5, 1], expected [8, 22, 5, 5]"},
        {68, 1, 2, "not a multiple of 4"}, {68, 1, 1ull << 40, "outside the data section"},
        {68, 1, UINT64_MAX - 3, "outside the data section"},
        {76, 1, 17, "count 17"}, {76, 1, UINT64_MAX, "count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(b, good, len);
        if (cases[i].wide)
            hs_test_hsn_put64(b + e + cases[i].at, cases[i].v);
        else
            hs_test_hsn_put32(b + e + cases[i].at, (uint32_t)cases[i].v);
        hs_test_hsn_fix_crc(b, len);
        s_parse(b, len, HS_EPARSE, cases[i].msg);
    }
    memcpy(b, good, len);                 /* input.b is 1-D: its dims[1] must be 0 */
    hs_test_hsn_put32(b + e + 84 + 56, 3);
    hs_test_hsn_fix_crc(b, len);
    s_parse(b, len, HS_EPARSE, "tensor \"input.b\": unused dimension 1 is 3");
    memcpy(b, good, len);
    memset(b + e, 'x', 48);
    hs_test_hsn_fix_crc(b, len);
    s_parse(b, len, HS_EPARSE, "table entry 0: name has no NUL");
    free(b);
}

/* Tensors dropped, renamed, doubled, reshaped, poisoned: a file otherwise well-formed. */
static void s_check_tensors(void)
{
    const char *nan_at[] = {"input.w", "block.1.conv2.b", "value.own.w", "policy.pass.w"};
    for (int k = 0; k < 8; k++) {
        hs_test_hsn_t h;
        hs_test_hsn_init(&h, CFG);
        hs_test_hsn_randomize(&h, 3);
        const char *msg = NULL;
        if (k == 0) {                     /* the last tensor missing */
            free(h.t[--h.n].data);
            msg = "missing tensor \"value.own.w\"";
        } else if (k == 1) {
            snprintf(h.t[5].name, sizeof h.t[5].name, "block.0.conv3.w");
            msg = "unknown tensor \"block.0.conv3.w\"";
        } else if (k == 2) {
            hs_test_hsn_tensor_t *t = hs_test_hsn_add(&h, "tip.bias", 1, 8, 0, 0, 0);
            (void)t;
            msg = "duplicate tensor \"tip.bias\"";
        } else if (k == 3) {
            hs_test_hsn_tensor_t *t = hs_test_hsn_find(&h, "policy.gmul.w");
            uint32_t d = t->dims[0];
            t->dims[0] = t->dims[1];
            t->dims[1] = d;
            msg = "tensor \"policy.gmul.w\": shape [4, 12], expected [12, 4]";
        } else {
            s_set(&h, nan_at[k - 4], 1, k % 2 ? NAN : -INFINITY);
            msg = "not finite";
        }
        unsigned char *buf;
        size_t len = hs_test_hsn_write(&h, &buf);
        s_parse(buf, len, HS_EPARSE, msg);
        if (k >= 4)
            s_parse(buf, len, HS_EPARSE, nan_at[k - 4]);
        free(buf);
        hs_test_hsn_free(&h);
    }
}

/* Every cut of the file is refused with a clear error; a cut in the data
 * names the tensor it cuts. */
static void s_check_truncation(const unsigned char *good, size_t len)
{
    for (size_t cut = 0; cut < len; cut += cut < 200 ? 1 : 37) {
        hs_error_t err;
        hs_nn_model_t *m = NULL;
        int rc = hs_nn_model_parse(good, cut, &m, &err);
        HS_CHECK(m == NULL && (rc == HS_EPARSE || rc == HS_ECORRUPT));
        if (cut >= 8 && cut < 120)
            HS_CHECK(strstr(err.msg, "truncated") != NULL);
        if (cut > 116 + 84 * 32 + 4)
            HS_CHECK(strstr(err.msg, "truncated") && strstr(err.msg, "tensor \""));
    }
    s_parse(good, len - 1, HS_ECORRUPT, "truncated");
    /* the data section ends with the first table entry's tensor (written
     * in reverse order): input.w */
    s_parse(good, len - 8, HS_ECORRUPT, "tensor \"input.w\"");
    /* a damaged byte in the data */
    unsigned char *b = malloc(len);
    memcpy(b, good, len);
    b[len / 2] ^= 0x40;
    s_parse(b, len, HS_ECORRUPT, "checksum mismatch");
    free(b);
}

/* By the magic, whatever the name; gzip'ed too (same hash as plain). */
static void s_check_files(const unsigned char *good, size_t len)
{
    char path[] = "/tmp/hs_hsn_XXXXXX";
    int fd = mkstemp(path);
    HS_CHECK(fd >= 0);
    if (fd < 0)
        return;
    HS_CHECK_INT(write(fd, good, len), (long long)len);
    close(fd);
    hs_nn_model_t *m = NULL, *plain = s_parse(good, len, 0, NULL);
    hs_error_t err;
    HS_CHECK_INT(hs_nn_model_load(path, &m, &err), 0);
    HS_CHECK(m && plain && !strcmp(m->hash, plain->hash));
    hs_nn_model_free(&m);
    gzFile gz = gzopen(path, "wb");
    HS_CHECK(gz != NULL);
    if (gz) {
        HS_CHECK_INT(gzwrite(gz, good, (unsigned)len), (long long)len);
        gzclose(gz);
        HS_CHECK_INT(hs_nn_model_load(path, &m, &err), 0);
        HS_CHECK(m && plain && !strcmp(m->hash, plain->hash));
        hs_nn_model_free(&m);
    }
    unlink(path);
    hs_nn_model_free(&plain);
}

int main(void)
{
    s_check_random();
    s_check_by_hand();
    hs_test_hsn_t h;
    hs_test_hsn_init(&h, CFG);
    hs_test_hsn_randomize(&h, 11);
    unsigned char *good;
    size_t len = hs_test_hsn_write(&h, &good);
    s_check_header(good, len);
    s_check_table(good, len);
    s_check_tensors();
    s_check_truncation(good, len);
    s_check_files(good, len);
    free(good);
    hs_test_hsn_free(&h);
    return hs_test_finish();
}
