/*
 * core/buf.h — the growable byte buffer: a string built piece by piece (the
 * charset conversion's output, the SGF writer's text) and a whole file read
 * into memory (the CLI commands that take one SGF file).
 *
 * Errors are sticky: once an append fails (HS_ENOMEM, or HS_ELIMIT past max)
 * later appends do nothing and the caller checks b->err once, at the end, so
 * writers need no test per piece. The buffer always keeps room for a NUL after
 * len bytes. Not thread-safe (one owner); no global state.
 */
#ifndef HS_CORE_BUF_H
#define HS_CORE_BUF_H

#include <stddef.h>

#include "core/error.h"

typedef struct hs_buf {
    char *p;            /* the bytes (malloc'd; NULL until the first append) */
    size_t len, cap;    /* bytes written, bytes allocated */
    size_t max;         /* most bytes len may reach (0 = no bound) */
    int err;            /* 0, or the first error (sticky) */
} hs_buf_t;

/* Room for extra more bytes and the NUL (capacity doubles, from 256). Returns
 * 0 or b->err: HS_ELIMIT when len + extra would pass max, HS_ENOMEM. */
int hs_buf_reserve(hs_buf_t *b, size_t extra);

/* Appends n bytes of s (nothing once b->err is set). */
void hs_buf_put(hs_buf_t *b, const void *s, size_t n);

/* Appends one byte. */
static inline void hs_buf_putc(hs_buf_t *b, char c)
{
    hs_buf_put(b, &c, 1);
}

/*
 * Hands the bytes over: *out the NUL-terminated malloc'd buffer (never NULL on
 * success, "" when nothing was written; caller frees), *len its length, and b
 * emptied. On b->err the buffer is freed, *out = NULL, and the error returned.
 */
int hs_buf_take(hs_buf_t *b, char **out, size_t *len);

/* Frees the bytes and zeroes b (keeps nothing). NULL-safe. */
void hs_buf_fini(hs_buf_t *b);

/*
 * Reads the whole file at path (at most max bytes; 0 = no bound) into *out
 * (NUL-terminated, malloc'd; caller frees) and *len. Returns 0, HS_EIO (cannot
 * open, read error), HS_ELIMIT (bigger than max) or HS_ENOMEM, with a message
 * naming the path in *err.
 */
int hs_buf_read_file(const char *path, size_t max, char **out, size_t *len, hs_error_t *err);

#endif
