/*
 * core/poskey.c — engine config ids, engine spec syntax and 128-bit position keys
 * (core/poskey.h).
 *
 * The position is serialised into a small byte string (size, colours, side to
 * move, ko, komi, rules, recent moves) and hashed with two independent 64-bit
 * lanes. No Zobrist table: the key must be the same in every process and every
 * build, since the store compares keys written by earlier runs.
 */
#include "core/poskey.h"

#include <math.h>
#include <string.h>

#include "core/error.h"

uint32_t hs_engine_config_id(const char *spec)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)(spec ? spec : ""); *p; p++) {
        h ^= *p;
        h *= 16777619u;
    }
    return h ? h : 1u;  /* 0 is reserved for "any engine" */
}

int hs_engine_spec_split(const char *s, size_t len, hs_engine_spec_t *out)
{
    memset(out, 0, sizeof *out);
    size_t n = 0;
    while (n < len && s[n] != '@' && s[n] != ':')
        n++;
    out->name_len = n;
    if (n == 0)
        return HS_EINVAL;
    const char *p = s + n, *end = s + len;
    out->revision_canonical = true;
    if (p < end && *p == '@') {
        const char *digits = ++p;
        int r = 0;
        while (p < end && *p >= '0' && *p <= '9' && r <= HS_ENGINE_MAX_REVISION)
            r = r * 10 + (*p++ - '0');
        if (p == digits || r < 1 || r > HS_ENGINE_MAX_REVISION || (p < end && *p != ':'))
            return HS_EINVAL;
        out->revision = r;
        out->revision_canonical = r >= 2 && *digits != '0';
    }
    if (p < end && *p == ':') {
        out->options = p + 1;
        out->options_len = (size_t)(end - out->options);
    }
    return 0;
}

size_t hs_engine_list_entry(const char *s)
{
    size_t n = strcspn(s, ",");
    if (!memchr(s, ':', n))
        return n;   /* no options: a following "k=v" is no part of it */
    while (s[n] == ',') {
        const char *q = s + n + 1;
        size_t m = strcspn(q, ","), k = strcspn(q, "=:@");
        if (k == 0 || k >= m || q[k] != '=')
            break;
        n += 1 + m;
    }
    return n;
}

static bool s_key_byte(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (!first && ((c >= '0' && c <= '9') || c == '_'));
}

static bool s_value_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '+' || c == '-';
}

/* Checks one "key=value" entry e[0..n); *klen gets the key's length. */
static int s_option_entry(const char *e, size_t n, size_t *klen, hs_error_t *err)
{
    const char *eq = memchr(e, '=', n);
    size_t k = eq ? (size_t)(eq - e) : n;
    *klen = k;
    if (!eq)
        return hs_error_set(err, HS_EINVAL, "engine option '%.*s' is not key=value", (int)n, e);
    bool ok = k >= 1 && k <= HS_ENGINE_OPTION_MAX;
    for (size_t i = 0; ok && i < k; i++)
        ok = s_key_byte(e[i], i == 0);
    if (!ok)
        return hs_error_set(err, HS_EINVAL, "engine option '%.*s': a key is a-z, 0-9 and _ "
                            "(at most %d bytes, a letter first)", (int)n, e, HS_ENGINE_OPTION_MAX);
    size_t v = n - k - 1;
    ok = v >= 1 && v <= HS_ENGINE_OPTION_MAX;
    for (size_t i = 0; ok && i < v; i++)
        ok = s_value_byte(eq[1 + i]);
    if (!ok)
        return hs_error_set(err, HS_EINVAL, "engine option '%.*s': a value is 1 to %d bytes "
                            "of A-Z, a-z, 0-9 and . _ + -", (int)n, e, HS_ENGINE_OPTION_MAX);
    return 0;
}

int hs_engine_options_syntax(const char *opts, size_t len, hs_error_t *err)
{
    if (!opts || len == 0)
        return hs_error_set(err, HS_EINVAL, "empty engine options after ':'");
    const char *p = opts, *end = opts + len;
    for (;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p), klen;
        int rc = s_option_entry(p, n, &klen, err);
        if (rc)
            return rc;
        /* The same key twice would give two ids for one configuration. */
        for (const char *q = opts; q < p;) {
            const char *qc = memchr(q, ',', (size_t)(p - q));
            if (!strncmp(q, p, klen) && q[klen] == '=')
                return hs_error_set(err, HS_EINVAL, "engine option '%.*s' given twice",
                                    (int)klen, p);
            q = qc + 1;
        }
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* The murmur3 / splitmix finaliser: every input bit affects every output bit. */
static uint64_t s_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* The 8 bytes at p as a little-endian word: one load where the machine is
 * little-endian (the same value as the byte loop, which big-endian keeps). */
static inline uint64_t s_load64le(const uint8_t *p)
{
    uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, p, sizeof w);
#else
    for (int k = 0; k < 8; k++)
        w |= (uint64_t)p[k] << (8 * k);
#endif
    return w;
}

/* Two lanes with different seeds and multipliers over 8-byte words; the tail is
 * padded with its length so "ab" and "ab\0" differ. */
void hs_hash128(const void *vdata, size_t len, uint8_t out[16])
{
    const uint8_t *data = vdata;
    uint64_t h1 = 0x243f6a8885a308d3ull ^ len, h2 = 0x13198a2e03707344ull ^ (len << 1);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w = s_load64le(data + i);
        h1 = s_mix(h1 ^ w) + 0x9e3779b97f4a7c15ull;
        h2 = s_mix(h2 + (w * 0xff51afd7ed558ccdull)) ^ 0xc4ceb9fe1a85ec53ull;
    }
    uint64_t w = (uint64_t)(len - i) << 56;
    for (size_t k = 0; i + k < len; k++)
        w |= (uint64_t)data[i + k] << (8 * k);
    h1 = s_mix(h1 ^ w);
    h2 = s_mix(h2 + (w * 0xff51afd7ed558ccdull));
    h1 = s_mix(h1 ^ (h2 >> 17));
    h2 = s_mix(h2 ^ (h1 << 7));
    for (int k = 0; k < 8; k++) {
        out[k] = (uint8_t)(h1 >> (56 - 8 * k));
        out[8 + k] = (uint8_t)(h2 >> (56 - 8 * k));
    }
}

void hs_position_key(const hs_board_t *b, const hs_game_t *g, int move_number,
                     uint8_t key[16])
{
    /* size, N*N colours, side, ko (2), komi (2), rules, history count, 3 per move */
    uint8_t buf[1 + HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE + 1 + 2 + 2 + 1 + 1
                + 3 * HS_POSKEY_HISTORY];
    size_t n = 0;
    int size = b->size;
    buf[n++] = (uint8_t)size;
    /* The colours row by row: a row's points are consecutive indices
     * (board.h), so each row is one copy. */
    for (int y = 0; y < size; y++, n += (size_t)size)
        memcpy(buf + n, b->color + hs_board_point(b, 0, y), (size_t)size);
    buf[n++] = (uint8_t)b->to_move;
    /* Ko as a board-independent vertex so the encoding does not depend on stride. */
    uint16_t ko = 0xFFFF;
    if (b->ko != HS_NO_POINT && b->ko != HS_PASS && hs_board_on_board(b, b->ko))
        ko = (uint16_t)(hs_board_y(b, b->ko) * size + hs_board_x(b, b->ko));
    buf[n++] = (uint8_t)(ko >> 8);
    buf[n++] = (uint8_t)ko;
    /* Komi in half points: every real komi is a multiple of 0.5 (Fox 3.75 zi = 7.5). */
    double k2 = g ? g->komi * 2.0 : 0.0;
    long komi2 = isfinite(k2) ? lround(k2) : 0;
    buf[n++] = (uint8_t)((uint16_t)komi2 >> 8);
    buf[n++] = (uint8_t)komi2;
    buf[n++] = (uint8_t)(g ? g->rules.id : 0);
    int first = move_number - HS_POSKEY_HISTORY;
    if (first < 0)
        first = 0;
    int last = g ? move_number : 0;
    if (g && last > g->num_moves)
        last = g->num_moves;
    if (first > last)
        first = last;
    buf[n++] = (uint8_t)(last - first);
    for (int i = first; i < last; i++) {
        buf[n++] = (uint8_t)(g->moves[i].vertex >> 8);
        buf[n++] = (uint8_t)g->moves[i].vertex;
        buf[n++] = g->moves[i].color;
    }
    hs_hash128(buf, n, key);
}

const char *hs_key_hex(const uint8_t key[16], char *buf)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        buf[2 * i] = digits[key[i] >> 4];
        buf[2 * i + 1] = digits[key[i] & 15];
    }
    buf[32] = '\0';
    return buf;
}

static int s_hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int hs_key_parse(const char *hex, uint8_t key[16])
{
    if (!hex || strlen(hex) != 32)
        return HS_EPARSE;
    for (int i = 0; i < 16; i++) {
        int hi = s_hexval(hex[2 * i]), lo = s_hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return HS_EPARSE;
        key[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}
