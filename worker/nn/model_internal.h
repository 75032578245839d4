/*
 * worker/nn/model_internal.h — what model.c (structure, folding) and
 * model_read.c (the bounded tokenizer and raw layer readers) share, and the
 * entry point of model_hsn.c (our own .hsn files).
 */
#ifndef HS_WORKER_NN_MODEL_INTERNAL_H
#define HS_WORKER_NN_MODEL_INTERNAL_H

#include <stddef.h>

#include "worker/nn/model.h"

typedef struct hs__nn_rd {
    const unsigned char *p;
    size_t len, pos;
    int version;
    char layer[64];      /* name of the layer being read, for messages */
    hs_error_t *err;
} hs__nn_rd_t;

/* Next whitespace-separated token into buf (NUL-terminated, at most cap-1). */
int hs__nn_token(hs__nn_rd_t *rd, char *buf, size_t cap, const char *what);
/* An integer token in [lo, hi]. */
int hs__nn_int(hs__nn_rd_t *rd, int *v, long lo, long hi, const char *what);
/* A finite float token. */
int hs__nn_real(hs__nn_rd_t *rd, float *v, const char *what);
/* A "@BIN@" block of exactly n float32, checked present and finite before the
 * allocation; *out is malloc'd. */
int hs__nn_floats(hs__nn_rd_t *rd, size_t n, float **out);

/* Raw layers as the file stores them (nothing folded yet). */
int hs__nn_read_conv(hs__nn_rd_t *rd, hs_nn_conv_t *c);
int hs__nn_read_dense(hs__nn_rd_t *rd, hs_nn_dense_t *d);
int hs__nn_read_bias(hs__nn_rd_t *rd, int channels, float **b);
int hs__nn_read_act(hs__nn_rd_t *rd, hs_nn_act_t *act);
/* A batch norm as merged scale and bias: y = x*scale + bias. */
int hs__nn_read_bn(hs__nn_rd_t *rd, int channels, float **scale, float **bias);

/* hyeongse's own .hsn file (model_hsn.c): p starts with HS_NN_HSN_MAGIC;
 * fills the calloc'd *m (freed by the caller on error too). */
int hs__nn_hsn_parse(const unsigned char *p, size_t len, hs_nn_model_t *m, hs_error_t *err);

#endif
