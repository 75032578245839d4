/*
 * core/buf.c — the growable byte buffer of core/buf.h.
 */
#include "core/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_buf_reserve(hs_buf_t *b, size_t extra)
{
    if (b->err)
        return b->err;
    if (b->max && (extra > b->max || b->len > b->max - extra))
        return b->err = HS_ELIMIT;
    if (extra < b->cap && b->len + 1 <= b->cap - extra)
        return 0;
    if (extra > ((size_t)-1 >> 2) - b->len)
        return b->err = HS_ENOMEM;  /* no doubling could reach it */
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *np = realloc(b->p, cap);
    if (!np)
        return b->err = HS_ENOMEM;
    b->p = np;
    b->cap = cap;
    return 0;
}

void hs_buf_put(hs_buf_t *b, const void *s, size_t n)
{
    if (hs_buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
}

int hs_buf_take(hs_buf_t *b, char **out, size_t *len)
{
    int rc = hs_buf_reserve(b, 0);  /* room for the NUL, and a buffer when empty */
    if (rc) {
        hs_buf_fini(b);
        *out = NULL;
        *len = 0;
        return rc;
    }
    b->p[b->len] = '\0';
    *out = b->p;
    *len = b->len;
    memset(b, 0, sizeof *b);
    return 0;
}

void hs_buf_fini(hs_buf_t *b)
{
    if (!b)
        return;
    free(b->p);
    memset(b, 0, sizeof *b);
}

int hs_buf_read_file(const char *path, size_t max, char **out, size_t *len, hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return hs_error_set(err, HS_EIO, "%s: cannot open: %s", path, strerror(errno));
    hs_buf_t b = { .max = max };
    char chunk[16384];
    size_t got;
    while (!b.err && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        hs_buf_put(&b, chunk, got);
    if (!b.err && ferror(f))
        b.err = HS_EIO;
    fclose(f);
    int rc = hs_buf_take(&b, out, len);
    if (rc == HS_ELIMIT)
        return hs_error_set(err, rc, "%s: larger than the limit of %zu bytes", path, max);
    if (rc)
        return hs_error_set(err, rc, "%s: %s", path, rc == HS_EIO ? "read error"
                                                                  : "out of memory");
    return 0;
}
