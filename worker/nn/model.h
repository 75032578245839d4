/*
 * worker/nn/model.h — the one in-memory description of a residual Go network
 * that every backend (the plain-C reference, oneDNN, cuDNN) reads, and the
 * reader of KataGo's `.bin.gz` model files into it.
 *
 * KataGo's file: gzip around a whitespace-separated text header (name,
 * version, input channel counts, then every layer: name, sizes, and its floats
 * as "@BIN@" followed by little-endian float32). Versions 8 to 16 are read:
 * those whose trunk is only convolutional residual blocks (ordinary,
 * global-pooling and nested-bottleneck). Version 17 brought transformer blocks
 * and is refused, as are versions < 8 (older input features), an SGF-metadata
 * encoder, an RMS-norm trunk, dilated blocks and any unknown block kind; the
 * error names what was found.
 *
 * Folding: every batch norm (or fixup's scale/bias, which KataGo stores as a
 * batch norm too) that directly follows a linear layer is folded into that
 * layer's weights and bias at load time (for a global-pooling block also into
 * the matmul whose output is added before the norm). Norms that follow a
 * residual sum cannot be folded (the zero padding of the next convolution sits
 * after the activation), so they stay as a per-channel scale + bias +
 * activation (hs_nn_norm_t). Backends therefore never see a batch norm.
 *
 * Layouts: convolution weights [out][in][ky][kx]; dense (matmul) weights
 * [in][out]; a NULL bias means zero.
 *
 * Hostile input: every count is bounded (HS_NN_MAX_*) and every float block's
 * claimed size is checked against the bytes actually present before anything
 * is allocated; non-finite weights are refused. Errors are HS_EPARSE (malformed
 * or truncated), HS_EUNSUPPORTED (a well-formed model of a kind not read),
 * HS_ELIMIT (a bound exceeded), HS_ECORRUPT (gzip damage), HS_EIO, HS_ENOMEM.
 *
 * Threads: a loaded model is immutable; any number of threads may read it.
 */
#ifndef HS_WORKER_NN_MODEL_H
#define HS_WORKER_NN_MODEL_H

#include <stddef.h>

#include "core/error.h"

#define HS_NN_MIN_VERSION 8
#define HS_NN_MAX_VERSION 16
#define HS_NN_MAX_CHANNELS 4096      /* any layer's channel count */
#define HS_NN_MAX_KERNEL 9           /* convolution kernel side */
#define HS_NN_MAX_DILATION 4
#define HS_NN_MAX_BLOCKS 256         /* blocks in one stack */
#define HS_NN_MAX_NESTING 4          /* nested-bottleneck depth */
#define HS_NN_MAX_FILE (1ull << 31)  /* decompressed bytes */

typedef enum hs_nn_act {
    HS_NN_ACT_IDENTITY = 0,
    HS_NN_ACT_RELU,
    HS_NN_ACT_MISH,
    HS_NN_ACT_SILU
} hs_nn_act_t;

/* y[c] = act(x[c] * scale[c] + bias[c]) */
typedef struct hs_nn_norm {
    int channels;
    float *scale, *bias;
    hs_nn_act_t act;
} hs_nn_norm_t;

/* y[o] = act(sum w[o][i][ky][kx] x[i] + b[o]), "same" zero padding. */
typedef struct hs_nn_conv {
    int ky, kx, in_c, out_c, dil_y, dil_x;
    float *w;          /* [out_c][in_c][ky][kx] */
    float *b;          /* [out_c] or NULL */
    hs_nn_act_t act;
} hs_nn_conv_t;

/* y[o] = act(sum_i x[i] w[i][o] + b[o]) */
typedef struct hs_nn_dense {
    int in_c, out_c;
    float *w;          /* [in_c][out_c] */
    float *b;          /* [out_c] or NULL */
    hs_nn_act_t act;
} hs_nn_dense_t;

typedef enum hs_nn_block_kind {
    HS_NN_BLOCK_REGULAR = 0,
    HS_NN_BLOCK_GPOOL,
    HS_NN_BLOCK_NESTED
} hs_nn_block_kind_t;

typedef struct hs_nn_block hs_nn_block_t;

/*
 * x += block(x). All kinds start with pre = act(norm(x)).
 *  REGULAR: t = conv1(pre) [bias + act folded]; x += conv2(t).
 *  GPOOL:   g = gconv(pre) [bias + act]; p = pool(g) (mean, mean*(sqrt(area)-14)/10,
 *           max: 3*gc values); t = act1(conv1_linear(pre) + conv1.b + gmul(p));
 *           x += conv2(t). conv1.act is that act1, applied after the pooled bias.
 *  NESTED:  t = conv1(pre) [no bias, identity]; t runs through `inner` blocks;
 *           x += conv2(act(post(t))).
 */
struct hs_nn_block {
    hs_nn_block_kind_t kind;
    hs_nn_norm_t pre;
    hs_nn_conv_t conv1, conv2;
    hs_nn_conv_t gconv;        /* GPOOL */
    hs_nn_dense_t gmul;        /* GPOOL: 3*gconv.out_c -> conv1.out_c, no bias */
    hs_nn_norm_t post;         /* NESTED */
    int n_inner;               /* NESTED */
    hs_nn_block_t *inner;      /* NESTED: n_inner blocks */
};

#define HS_NN_HASH_LEN 32   /* hex digits of a model's content hash */

typedef struct hs_nn_model {
    char name[128];
    /* 128-bit hash (core/poskey.h hs_hash128) of the uncompressed file, in
     * lowercase hex: what names the net in engine specs ("net:net=<hash>") */
    char hash[HS_NN_HASH_LEN + 1];
    int version;
    /* which inputs it reads (worker/nn/features.h hs_nn_input_set_t):
     * KataGo's files HS_NN_INPUT_KATAGO_V7, our own .hsn files what they say */
    int input_set;
    int in_spatial, in_global;        /* input planes and global features */
    /* post-processing multipliers (version >= 13 reads them from the file;
     * earlier versions use KataGo's fixed values) */
    float td_score_mul, score_mean_mul, score_stdev_mul, lead_mul,
          variance_time_mul, st_value_error_mul, st_score_error_mul;

    /* trunk: x = conv(in) + dense(global) broadcast; blocks; tip */
    int trunk_c;
    hs_nn_conv_t input_conv;
    hs_nn_dense_t input_global;
    int n_blocks;
    hs_nn_block_t *blocks;
    hs_nn_norm_t tip;

    /* policy head: p1 = act(p1conv(t) + gmul(pool(g1conv(t)))) ; policy = p2conv(p1);
     * pass = passmul(pool) (version >= 15: passmul2(act(passmul(pool) + b)) ) */
    int policy_c;                      /* 1, 2 or 4 output channels */
    hs_nn_conv_t p1conv, g1conv, p2conv;
    hs_nn_dense_t p_gmul, pass1, pass2; /* pass2.in_c == 0 before version 15 */

    /* value head: v1 = v1conv(t) ; pooled 3*v1c (value-head pooling);
     * v2 = dense; value = v3 (3), scorevalue = sv3 (4 or 6); ownership = oconv(v1) */
    hs_nn_conv_t v1conv, own_conv;
    hs_nn_dense_t v2, v3, sv3;
} hs_nn_model_t;

/* Reads a KataGo .bin.gz file (or an uncompressed .bin) into *out (owned by the
 * caller: hs_nn_model_free). On error *out is NULL and err says why. */
int hs_nn_model_load(const char *path, hs_nn_model_t **out, hs_error_t *err);

/* The same from bytes in memory: gzip (1f 8b) is inflated first, anything else
 * is read as an uncompressed model. For tests and the fuzz target. */
int hs_nn_model_parse(const void *data, size_t len, hs_nn_model_t **out,
                      hs_error_t *err);

/* hyeongse's own net files (docs/NET.md, "Our own net format"): they start
 * with these 8 bytes; hs_nn_model_load and hs_nn_model_parse read them too
 * (by the magic, whatever the file's name; gzip'ed as well), into the same
 * description (worker/nn/model_hsn.c). Errors: HS_ECORRUPT for a checksum
 * mismatch or a truncated file, HS_EUNSUPPORTED for another version or input
 * set, HS_ELIMIT for a config past HS_NN_MAX_*, HS_EPARSE for a missing,
 * unknown, duplicate or misshapen tensor or a non-finite weight (each named). */
#define HS_NN_HSN_MAGIC "HSNET\0\r\n"
#define HS_NN_HSN_VERSION 1

/* The shipped default model's file name (models/ in the source tree). */
#define HS_NN_DEFAULT_MODEL "hyeongse-default.hsn"

/* The path of the default model, for `--engines net` and `judge --engine net`
 * without --net: $HYEONGSE_MODELS/HS_NN_DEFAULT_MODEL if that variable is set,
 * else the models/ folder of the source tree this program was built from,
 * else <install prefix>/share/hyeongse/models; the first that exists.
 * HS_ENOTFOUND naming the places looked at; HS_ELIMIT if cap is too small. */
int hs_nn_default_model_path(char *buf, size_t cap, hs_error_t *err);

/* Frees a model and sets *m to NULL; NULL-safe. */
void hs_nn_model_free(hs_nn_model_t **m);

/* Total learned floats (weights + biases after folding), for logs and tests. */
size_t hs_nn_model_params(const hs_nn_model_t *m);

#endif
