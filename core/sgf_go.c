/*
 * core/sgf_go.c — the Go helpers of the SGF reader (core/sgf.h, "Go helpers"):
 * SGF points ("dd", passes), compressed point lists ("aa:cc") and SZ values.
 * Kept apart from core/sgf.c, which knows nothing about Go.
 */
#include "core/sgf.h"

#include <stdlib.h>
#include <string.h>

static int s_coord(char c)
{
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 26;
    return -1;
}

int hs_sgf_parse_point(const char *text, size_t len, int size, int *x, int *y, bool *pass,
                       hs_error_t *err)
{
    *x = *y = -1;
    *pass = false;
    if (len == 0 || (len == 2 && size <= 19 && text[0] == 't' && text[1] == 't')) {
        *pass = true;
        return 0;
    }
    int cx = len == 2 ? s_coord(text[0]) : -1, cy = len == 2 ? s_coord(text[1]) : -1;
    if (cx < 0 || cy < 0)
        return hs_error_set(err, HS_EPARSE, "'%.*s' is not an SGF point", (int)(len > 20 ? 20 : len),
                            text);
    if (cx >= size || cy >= size)
        return hs_error_set(err, HS_EPARSE, "point '%.2s' is outside the %dx%d board", text, size,
                            size);
    *x = cx;
    *y = cy;
    return 0;
}

int hs_sgf_expand_points(const hs_sgf_prop_t *p, int size, uint16_t *out, int max, int *count,
                         hs_error_t *err)
{
    int n = 0;
    *count = 0;
    for (int i = 0; i < p->num_values; i++) {
        const char *v = p->values[i].text;
        size_t len = p->values[i].len;
        if (len == 0)
            continue;
        const char *colon = memchr(v, ':', len);
        int x0, y0, x1, y1;
        bool pass0, pass1;
        int rc = hs_sgf_parse_point(v, colon ? (size_t)(colon - v) : len, size, &x0, &y0, &pass0, err);
        if (rc)
            return rc;
        if (colon) {
            rc = hs_sgf_parse_point(colon + 1, len - (size_t)(colon + 1 - v), size, &x1, &y1, &pass1,
                                    err);
            if (rc)
                return rc;
        } else {
            x1 = x0;
            y1 = y0;
            pass1 = pass0;
        }
        if (pass0 || pass1)
            return hs_error_set(err, HS_EPARSE, "%s[%.*s]: a pass is not a point", p->id,
                                (int)(len > 20 ? 20 : len), v);
        if (x0 > x1) {
            int tmp = x0; x0 = x1; x1 = tmp;
        }
        if (y0 > y1) {
            int tmp = y0; y0 = y1; y1 = tmp;
        }
        for (int yy = y0; yy <= y1; yy++)
            for (int xx = x0; xx <= x1; xx++) {
                if (n >= max)
                    return hs_error_set(err, HS_ELIMIT, "%s: more than %d points", p->id, max);
                out[n++] = (uint16_t)(yy * size + xx);
            }
    }
    *count = n;
    return 0;
}

int hs_sgf_parse_size(const char *text, int *size, hs_error_t *err)
{
    const char *s = text;
    while (*s == ' ')
        s++;
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || a <= 0 || a > 1000)
        return hs_error_set(err, HS_EPARSE, "SZ[%.20s] is not a board size", text);
    while (*end == ' ')
        end++;
    if (*end == ':') {
        const char *s2 = end + 1;
        long b = strtol(s2, &end, 10);
        if (end == s2 || b <= 0)
            return hs_error_set(err, HS_EPARSE, "SZ[%.20s] is not a board size", text);
        while (*end == ' ')
            end++;
        if (*end)
            return hs_error_set(err, HS_EPARSE, "SZ[%.20s] is not a board size", text);
        if (a != b)
            return hs_error_set(err, HS_EUNSUPPORTED, "SZ[%.20s]: rectangular boards are not supported",
                                text);
    } else if (*end) {
        return hs_error_set(err, HS_EPARSE, "SZ[%.20s] is not a board size", text);
    }
    *size = (int)a;
    return 0;
}
