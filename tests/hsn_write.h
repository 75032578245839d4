/*
 * tests/hsn_write.h — writes .hsn net files (docs/NET.md "Our own net
 * format") for the tests, the default-model test and the fuzz seeds: a list
 * of tensors the config implies, filled with seeded random weights, that a
 * test may edit (drop, rename, reshape, poison) before serialising, so each
 * corruption the loader must refuse is made from a well-formed file.
 * Independent of the loader: it follows the spec, not model_hsn.c.
 */
#ifndef HS_TESTS_HSN_WRITE_H
#define HS_TESTS_HSN_WRITE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define HS_TEST_HSN_MAX_TENSORS 64

typedef struct hs_test_hsn_tensor {
    char name[48];
    uint32_t ndim, dims[4];
    size_t count;
    float *data;
} hs_test_hsn_tensor_t;

typedef struct hs_test_hsn {
    uint32_t version, input_set;
    char name[64];
    int32_t config[8];      /* B, C, K, P, G, V, H, 0 */
    int n;
    hs_test_hsn_tensor_t t[HS_TEST_HSN_MAX_TENSORS];
} hs_test_hsn_t;

/* xorshift: the same weights on every machine */
static inline float hs_test_hsn_rand(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (float)((double)(*s >> 11) / 9007199254740992.0) * 2.0f - 1.0f;
}

static inline hs_test_hsn_tensor_t *hs_test_hsn_add(hs_test_hsn_t *h, const char *name,
                                                    uint32_t ndim, uint32_t d0, uint32_t d1,
                                                    uint32_t d2, uint32_t d3)
{
    hs_test_hsn_tensor_t *t = &h->t[h->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    uint32_t d[4] = {d0, d1, d2, d3};
    t->ndim = ndim;
    t->count = 1;
    for (uint32_t k = 0; k < ndim; k++) {
        t->dims[k] = d[k];
        t->count *= d[k];
    }
    t->data = calloc(t->count, sizeof *t->data);
    return t;
}

static inline hs_test_hsn_tensor_t *hs_test_hsn_find(hs_test_hsn_t *h, const char *name)
{
    for (int i = 0; i < h->n; i++)
        if (!strcmp(h->t[i].name, name))
            return &h->t[i];
    return NULL;
}

/* Every tensor of config B..H (B <= 7), all zero. */
static inline void hs_test_hsn_init(hs_test_hsn_t *h, int b, int c, int k, int p, int g, int v,
                                    int hid)
{
    memset(h, 0, sizeof *h);
    h->version = 1;
    h->input_set = 1;
    snprintf(h->name, sizeof h->name, "test-b%dc%d", b, c);
    int32_t cfg[8] = {b, c, k, p, g, v, hid, 0};
    memcpy(h->config, cfg, sizeof cfg);
    uint32_t C = (uint32_t)c, K = (uint32_t)k, P = (uint32_t)p, G = (uint32_t)g;
    uint32_t V = (uint32_t)v, H = (uint32_t)hid;
    hs_test_hsn_add(h, "input.w", 4, C, 22, K, K);
    hs_test_hsn_add(h, "input.b", 1, C, 0, 0, 0);
    for (int i = 0; i < b; i++) {
        char nm[48];
        const char *part[] = {"pre.scale", "pre.bias", "conv1.w", "conv1.b", "conv2.w", "conv2.b"};
        for (int j = 0; j < 6; j++) {
            snprintf(nm, sizeof nm, "block.%d.%s", i, part[j]);
            if (j == 2 || j == 4)
                hs_test_hsn_add(h, nm, 4, C, C, 3, 3);
            else
                hs_test_hsn_add(h, nm, 1, C, 0, 0, 0);
        }
    }
    hs_test_hsn_add(h, "tip.scale", 1, C, 0, 0, 0);
    hs_test_hsn_add(h, "tip.bias", 1, C, 0, 0, 0);
    hs_test_hsn_add(h, "policy.p1.w", 4, P, C, 1, 1);
    hs_test_hsn_add(h, "policy.p1.b", 1, P, 0, 0, 0);
    hs_test_hsn_add(h, "policy.g1.w", 4, G, C, 1, 1);
    hs_test_hsn_add(h, "policy.g1.b", 1, G, 0, 0, 0);
    hs_test_hsn_add(h, "policy.gmul.w", 2, 3 * G, P, 0, 0);
    hs_test_hsn_add(h, "policy.p2.w", 4, 1, P, 1, 1);
    hs_test_hsn_add(h, "policy.pass.w", 2, 3 * G, 1, 0, 0);
    hs_test_hsn_add(h, "value.v1.w", 4, V, C, 1, 1);
    hs_test_hsn_add(h, "value.v1.b", 1, V, 0, 0, 0);
    hs_test_hsn_add(h, "value.v2.w", 2, 3 * V, H, 0, 0);
    hs_test_hsn_add(h, "value.v2.b", 1, H, 0, 0, 0);
    hs_test_hsn_add(h, "value.v3.w", 2, H, 3, 0, 0);
    hs_test_hsn_add(h, "value.v3.b", 1, 3, 0, 0, 0);
    hs_test_hsn_add(h, "value.score.w", 2, H, 4, 0, 0);
    hs_test_hsn_add(h, "value.score.b", 1, 4, 0, 0, 0);
    hs_test_hsn_add(h, "value.own.w", 4, 1, V, 1, 1);
}

/* Random weights scaled by 1/sqrt(fan in) (so activations stay O(1)); norm
 * scales near 1. */
static inline void hs_test_hsn_randomize(hs_test_hsn_t *h, uint64_t seed)
{
    uint64_t s = seed * 2654435761u + 88172645463325252ull;
    for (int i = 0; i < h->n; i++) {
        hs_test_hsn_tensor_t *t = &h->t[i];
        size_t fan = t->ndim == 1 ? 1 : t->count / t->dims[0];
        if (t->ndim == 2)
            fan = t->dims[0];
        float k = 1.0f / sqrtf((float)fan);
        int is_scale = strstr(t->name, ".scale") != NULL;
        for (size_t j = 0; j < t->count; j++)
            t->data[j] = is_scale ? 1.0f + 0.3f * hs_test_hsn_rand(&s) : k * hs_test_hsn_rand(&s);
    }
}

static inline void hs_test_hsn_free(hs_test_hsn_t *h)
{
    for (int i = 0; i < h->n; i++)
        free(h->t[i].data);
    h->n = 0;
}

static inline void hs_test_hsn_put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline void hs_test_hsn_put64(unsigned char *p, uint64_t v)
{
    hs_test_hsn_put32(p, (uint32_t)v);
    hs_test_hsn_put32(p + 4, (uint32_t)(v >> 32));
}

/* Rewrites the last 4 bytes: the CRC-32 of everything before them. */
static inline void hs_test_hsn_fix_crc(unsigned char *buf, size_t len)
{
    hs_test_hsn_put32(buf + len - 4, (uint32_t)crc32(0L, buf, (uInt)(len - 4)));
}

/* The file's bytes (malloc'd) into *out. The data section holds the tensors
 * in reverse table order (any order is allowed). Header at byte 0: magic 8,
 * version 8, input set 12, name 16, config 80, n_tensors 112, table 116. */
static inline size_t hs_test_hsn_write(const hs_test_hsn_t *h, unsigned char **out)
{
    size_t data = 0;
    for (int i = 0; i < h->n; i++)
        data += h->t[i].count * 4;
    size_t table = 116, start = table + 84 * (size_t)h->n, len = start + data + 4;
    unsigned char *b = calloc(len, 1);
    memcpy(b, "HSNET\0\r\n", 8);
    hs_test_hsn_put32(b + 8, h->version);
    hs_test_hsn_put32(b + 12, h->input_set);
    memcpy(b + 16, h->name, 64);
    for (int i = 0; i < 8; i++)
        hs_test_hsn_put32(b + 80 + 4 * i, (uint32_t)h->config[i]);
    hs_test_hsn_put32(b + 112, (uint32_t)h->n);
    size_t off = 0;
    for (int i = h->n - 1; i >= 0; i--) {
        const hs_test_hsn_tensor_t *t = &h->t[i];
        unsigned char *e = b + table + 84 * (size_t)i;
        memcpy(e, t->name, 48);
        hs_test_hsn_put32(e + 48, t->ndim);
        for (int k = 0; k < 4; k++)
            hs_test_hsn_put32(e + 52 + 4 * k, t->dims[k]);
        hs_test_hsn_put64(e + 68, off);
        hs_test_hsn_put64(e + 76, t->count);
        for (size_t j = 0; j < t->count; j++) {
            uint32_t u;
            memcpy(&u, &t->data[j], 4);
            hs_test_hsn_put32(b + start + off + 4 * j, u);
        }
        off += t->count * 4;
    }
    hs_test_hsn_fix_crc(b, len);
    *out = b;
    return len;
}

#endif
