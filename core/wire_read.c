/*
 * core/wire_read.c — the bounds-checked MessagePack reader of core/wire.h.
 *
 * Why not msgpack_unpack(): msgpack-c allocates an array of a declared element
 * count before reading the elements, so a 5-byte body claiming 2^32 elements asks
 * for 100 GB. This reader never allocates and checks every length against the
 * bytes actually left, so the decoder can reject such input in O(1).
 */
#include "core/wire.h"

#include "core/charset.h"

#include <stdlib.h>
#include <string.h>

void hs_wire_reader_init(hs_wire_reader_t *r, const void *data, size_t len, hs_error_t *err)
{
    r->p = data;
    r->end = r->p + (data ? len : 0);
    r->err = err;
    r->ctx = "body";
    r->flags = 0;
}

static int s_fail(hs_wire_reader_t *r, const char *what)
{
    return hs_error_set(r->err, HS_EPROTO, "%s: %s", r->ctx ? r->ctx : "body", what);
}

static size_t s_left(const hs_wire_reader_t *r) { return (size_t)(r->end - r->p); }

/* Big-endian unsigned of n bytes at p (n <= 8); caller checked bounds. */
static uint64_t s_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* Reads a length of n bytes following the type byte. */
static int s_len(hs_wire_reader_t *r, int n, uint32_t *len)
{
    if (s_left(r) < (size_t)n)
        return s_fail(r, "truncated");
    *len = (uint32_t)s_be(r->p, n);
    r->p += n;
    return 0;
}

static int s_container(hs_wire_reader_t *r, uint32_t *count, bool map)
{
    if (r->p >= r->end)
        return s_fail(r, "truncated");
    uint8_t t = *r->p;
    int rc;
    if (!map && (t & 0xF0) == 0x90) {
        *count = t & 0x0F;
        r->p++;
    } else if (map && (t & 0xF0) == 0x80) {
        *count = t & 0x0F;
        r->p++;
    } else if (t == (map ? 0xDE : 0xDC)) {
        r->p++;
        if ((rc = s_len(r, 2, count)))
            return rc;
    } else if (t == (map ? 0xDF : 0xDD)) {
        r->p++;
        if ((rc = s_len(r, 4, count)))
            return rc;
    } else {
        return s_fail(r, map ? "expected a map" : "expected an array");
    }
    /* Every element takes at least one byte: a count beyond the bytes left is a lie. */
    uint64_t min = (uint64_t)*count * (map ? 2u : 1u);
    if (min > s_left(r))
        return s_fail(r, "element count exceeds the message");
    return 0;
}

int hs_wire_read_array(hs_wire_reader_t *r, uint32_t *count) { return s_container(r, count, false); }
int hs_wire_read_map(hs_wire_reader_t *r, uint32_t *count) { return s_container(r, count, true); }

/* Reads any integer as sign + magnitude. */
static int s_integer(hs_wire_reader_t *r, bool *neg, uint64_t *mag)
{
    if (r->p >= r->end)
        return s_fail(r, "truncated");
    uint8_t t = *r->p;
    *neg = false;
    if (t <= 0x7F) { *mag = t; r->p++; return 0; }
    if (t >= 0xE0) { *neg = true; *mag = (uint64_t)(-(int64_t)(int8_t)t); r->p++; return 0; }
    int n;
    bool sgn;
    switch (t) {
    case 0xCC: n = 1; sgn = false; break;
    case 0xCD: n = 2; sgn = false; break;
    case 0xCE: n = 4; sgn = false; break;
    case 0xCF: n = 8; sgn = false; break;
    case 0xD0: n = 1; sgn = true; break;
    case 0xD1: n = 2; sgn = true; break;
    case 0xD2: n = 4; sgn = true; break;
    case 0xD3: n = 8; sgn = true; break;
    default: return s_fail(r, "expected an integer");
    }
    if (s_left(r) < (size_t)n + 1)
        return s_fail(r, "truncated");
    uint64_t u = s_be(r->p + 1, n);
    r->p += n + 1;
    if (sgn) {
        int64_t v;
        switch (n) {
        case 1: v = (int8_t)u; break;
        case 2: v = (int16_t)u; break;
        case 4: v = (int32_t)u; break;
        default: v = (int64_t)u; break;
        }
        if (v < 0) {
            *neg = true;
            *mag = v == INT64_MIN ? (uint64_t)1 << 63 : (uint64_t)(-v);
            return 0;
        }
        u = (uint64_t)v;
    }
    *mag = u;
    return 0;
}

int hs_wire_read_uint(hs_wire_reader_t *r, uint64_t *v)
{
    bool neg;
    int rc = s_integer(r, &neg, v);
    if (rc)
        return rc;
    if (neg)
        return s_fail(r, "negative value");
    return 0;
}

int hs_wire_read_int(hs_wire_reader_t *r, int64_t *v)
{
    bool neg;
    uint64_t mag;
    int rc = s_integer(r, &neg, &mag);
    if (rc)
        return rc;
    if (!neg && mag > (uint64_t)INT64_MAX)
        return s_fail(r, "integer out of range");
    *v = neg ? (mag == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    return 0;
}

int hs_wire_read_double(hs_wire_reader_t *r, double *v)
{
    if (r->p >= r->end)
        return s_fail(r, "truncated");
    uint8_t t = *r->p;
    if (t == 0xCA || t == 0xCB) {
        int n = t == 0xCA ? 4 : 8;
        if (s_left(r) < (size_t)n + 1)
            return s_fail(r, "truncated");
        uint64_t u = s_be(r->p + 1, n);
        r->p += n + 1;
        if (n == 4) {
            uint32_t u32 = (uint32_t)u;
            float f;
            memcpy(&f, &u32, 4);
            *v = f;
        } else {
            memcpy(v, &u, 8);
        }
        return 0;
    }
    int64_t i;
    int rc = hs_wire_read_int(r, &i);
    if (rc)
        return s_fail(r, "expected a number");
    *v = (double)i;
    return 0;
}

int hs_wire_read_bool(hs_wire_reader_t *r, bool *v)
{
    if (r->p >= r->end)
        return s_fail(r, "truncated");
    if (*r->p != 0xC2 && *r->p != 0xC3)
        return s_fail(r, "expected a boolean");
    *v = *r->p == 0xC3;
    r->p++;
    return 0;
}

bool hs_wire_read_nil(hs_wire_reader_t *r)
{
    if (r->p < r->end && *r->p == 0xC0) {
        r->p++;
        return true;
    }
    return false;
}

static int s_bytes(hs_wire_reader_t *r, const uint8_t **ptr, uint32_t *len, uint32_t max,
                   bool str)
{
    if (r->p >= r->end)
        return s_fail(r, "truncated");
    uint8_t t = *r->p;
    int rc = 0;
    if (str && (t & 0xE0) == 0xA0) {
        *len = t & 0x1F;
        r->p++;
    } else if (t == (str ? 0xD9 : 0xC4)) {
        r->p++;
        rc = s_len(r, 1, len);
    } else if (t == (str ? 0xDA : 0xC5)) {
        r->p++;
        rc = s_len(r, 2, len);
    } else if (t == (str ? 0xDB : 0xC6)) {
        r->p++;
        rc = s_len(r, 4, len);
    } else {
        return s_fail(r, str ? "expected a string" : "expected binary data");
    }
    if (rc)
        return rc;
    if (*len > max)
        return s_fail(r, "too long");
    if (*len > s_left(r))
        return s_fail(r, "truncated");
    *ptr = r->p;
    r->p += *len;
    return 0;
}

int hs_wire_read_str(hs_wire_reader_t *r, const char **ptr, uint32_t *len, uint32_t max)
{
    int rc = s_bytes(r, (const uint8_t **)ptr, len, max, true);
    if (rc == 0 && (r->flags & HS_WIRE_READ_UTF8)) {
        size_t ok = hs_utf8_valid_prefix(*ptr, *len);
        if (ok < *len)
            return hs_error_set(r->err, HS_EPROTO, "%s: not valid UTF-8 (byte %zu of %u)",
                                r->ctx ? r->ctx : "body", ok + 1, *len);
    }
    return rc;
}

int hs_wire_read_bin(hs_wire_reader_t *r, const uint8_t **ptr, uint32_t *len, uint32_t max)
{
    return s_bytes(r, ptr, len, max, false);
}

int hs_wire_read_strdup(hs_wire_reader_t *r, char **out, uint32_t max)
{
    *out = NULL;
    if (hs_wire_read_nil(r))
        return 0;
    const char *p;
    uint32_t len;
    int rc = hs_wire_read_str(r, &p, &len, max);
    if (rc)
        return rc;
    if (memchr(p, '\0', len))
        return s_fail(r, "NUL byte inside a string");
    char *s = malloc((size_t)len + 1);
    if (!s)
        return hs_error_set(r->err, HS_ENOMEM, "%s: out of memory", r->ctx);
    memcpy(s, p, len);
    s[len] = '\0';
    *out = s;
    return 0;
}

static int s_skip(hs_wire_reader_t *r, int depth)
{
    if (depth > 32)
        return s_fail(r, "nested too deeply");
    if (r->p >= r->end)
        return s_fail(r, "truncated");
    uint8_t t = *r->p;
    uint32_t n = 0;
    int rc;
    const uint8_t *ptr;
    if ((t & 0xF0) == 0x90 || t == 0xDC || t == 0xDD || (t & 0xF0) == 0x80 || t == 0xDE
        || t == 0xDF) {
        bool map = (t & 0xF0) == 0x80 || t == 0xDE || t == 0xDF;
        if ((rc = s_container(r, &n, map)))
            return rc;
        uint64_t items = (uint64_t)n * (map ? 2 : 1);
        for (uint64_t i = 0; i < items; i++)
            if ((rc = s_skip(r, depth + 1)))
                return rc;
        return 0;
    }
    if ((t & 0xE0) == 0xA0 || t == 0xD9 || t == 0xDA || t == 0xDB)
        return s_bytes(r, &ptr, &n, UINT32_MAX, true);
    if (t == 0xC4 || t == 0xC5 || t == 0xC6)
        return s_bytes(r, &ptr, &n, UINT32_MAX, false);
    size_t extra;
    if (t <= 0x7F || t >= 0xE0 || t == 0xC0 || t == 0xC2 || t == 0xC3)
        extra = 0;
    else if (t == 0xCC || t == 0xD0) extra = 1;
    else if (t == 0xCD || t == 0xD1) extra = 2;
    else if (t == 0xCE || t == 0xD2 || t == 0xCA) extra = 4;
    else if (t == 0xCF || t == 0xD3 || t == 0xCB) extra = 8;
    else if (t == 0xD4) extra = 2;   /* fixext 1 */
    else if (t == 0xD5) extra = 3;
    else if (t == 0xD6) extra = 5;
    else if (t == 0xD7) extra = 9;
    else if (t == 0xD8) extra = 17;
    else if (t == 0xC7 || t == 0xC8 || t == 0xC9) {
        int ln = t == 0xC7 ? 1 : t == 0xC8 ? 2 : 4;
        r->p++;
        if ((rc = s_len(r, ln, &n)))
            return rc;
        if (s_left(r) < (size_t)n + 1)
            return s_fail(r, "truncated");
        r->p += (size_t)n + 1;
        return 0;
    } else
        return s_fail(r, "invalid type byte");
    if (s_left(r) < extra + 1)
        return s_fail(r, "truncated");
    r->p += extra + 1;
    return 0;
}

int hs_wire_skip(hs_wire_reader_t *r) { return s_skip(r, 0); }
