/*
 * tests/test_store_maps.c — the map coder of eval records (store/store_maps.c,
 * store/store_maps_ctx.c; docs/STORE.md "Maps"): every form round-trips every
 * board size and the extremes of every value range; the context-coded form is
 * the one chosen for maps with two-dimensional regions and beats the run forms
 * there; its decoder reads exactly its payload and refuses truncated,
 * lengthened and out-of-range payloads; flipped bytes never crash it and never
 * give a value out of range.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "test.h"

#define NN_MAX (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)

static uint64_t s_rng = 0x243F6A8885A308D3ull;
static uint32_t s_rand(void)
{
    s_rng = s_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s_rng >> 33);
}

/* Map kinds: 0 constant, 1 noise over [lo, hi], 2 regions (left/right/
 * middle bands) with strings of shared values sprinkled in, 3 the extremes
 * lo and hi alternating, 4 a few scattered values on a constant field. */
static void s_map(int32_t *v, int side, int kind, int32_t lo, int32_t hi)
{
    int64_t span = (int64_t)hi - lo + 1;
    int32_t mid = (int32_t)(lo + span / 2);
    for (int i = 0; i < side * side; i++) {
        int x = i % side;
        switch (kind) {
        case 0: v[i] = mid; break;
        case 1: v[i] = (int32_t)(lo + (int64_t)(s_rand() % (uint32_t)span)); break;
        case 2:
            v[i] = x < side / 3 ? hi : x >= 2 * side / 3 ? lo : mid;
            if (s_rand() % 5 == 0)
                v[i] = (int32_t)(lo + (int64_t)(s_rand() % 7) * (span / 8));
            break;
        case 3: v[i] = (i + x) % 2 ? lo : hi; break;
        default: v[i] = s_rand() % 23 == 0 ? lo + (int32_t)(s_rand() % 3) : mid; break;
        }
    }
}

static const int32_t s_lo[] = { -100, -200, 0, -32768 };
static const int32_t s_hi[] = { 100, 200, 12, 32767 };

/* Every form the writer picks decodes to the same values, on every size. */
static void test_roundtrip(void)
{
    int bad = 0, forms[5] = { 0 };
    static int32_t v[NN_MAX], w[NN_MAX];
    static uint8_t out[3 * NN_MAX + 80];
    for (int side = 2; side <= HS_BOARD_MAX_SIZE; side++)
        for (int r = 0; r < 4; r++)
            for (int kind = 0; kind < 5; kind++) {
                uint32_t n = (uint32_t)(side * side);
                s_map(v, side, kind, s_lo[r], s_hi[r]);
                uint8_t enc = 0;
                size_t len = hs__store_map_encode(v, n, s_lo[r], s_hi[r], out, &enc);
                HS_CHECK(enc >= 1 && enc <= 4);
                if (enc < 1 || enc > 4)
                    continue;
                forms[enc]++;
                memset(w, 0x55, sizeof w);
                if (hs__store_map_decode(enc, out, out + len, s_lo[r], s_hi[r], w, n)
                    || memcmp(v, w, n * sizeof v[0]))
                    bad++;
            }
    HS_CHECK_INT(bad, 0);
    /* Each form wins somewhere; the context coder on most of these maps. */
    for (int f = 1; f <= 4; f++) {
        printf("form %d chosen %d times\n", f, forms[f]);
        HS_CHECK(forms[f] > 0);
    }
}

/* A judge-like classes map and an influence-like ownership map of 19x19 (the
 * maps the default store keeps): the context form is chosen and is shorter
 * than the best run form by a good margin. */
static void test_ctx_wins(void)
{
    static int32_t v[361];
    static uint8_t out[3 * NN_MAX + 80];
    /* Territories in blocks of rows and columns, stones in strings. */
    for (int i = 0; i < 361; i++) {
        int x = i % 19, y = i / 19;
        v[i] = x < 7 && y < 12 ? 1 : x > 11 ? 2 : (x + y) % 9 == 0 ? 3 : 0;
        if (y == 9 && x > 2 && x < 15)
            v[i] = 4 + x / 6;
    }
    uint8_t enc = 0;
    size_t len = hs__store_map_encode(v, 361, 0, 12, out, &enc);
    HS_CHECK_INT(enc, HS_STORE_MAP_CTX);
    /* Capped by the best run form: so every run form was longer. */
    size_t runs = hs__store_map_ctx_encode(v, 361, 0, 12, out, 3 * NN_MAX);
    HS_CHECK_INT(runs, len);
    printf("banded 19x19 classes: %zu bytes context-coded\n", len);
    HS_CHECK(len < 60);
}

/* The decoder's guards: a payload one byte short or long, or a raw literal
 * above hi, is refused; a flipped byte decodes to values in range or fails. */
static void test_ctx_malformed(void)
{
    static int32_t v[361], w[361];
    static uint8_t out[3 * NN_MAX + 80], buf[3 * NN_MAX + 81];
    s_map(v, 19, 2, -100, 100);
    size_t len = hs__store_map_ctx_encode(v, 361, -100, 100, out, sizeof out);
    HS_CHECK(len != SIZE_MAX && len > 8);
    if (len == SIZE_MAX)
        return;
    HS_CHECK_INT(hs__store_map_ctx_decode(out, out + len, -100, 100, w, 361), 0);
    HS_CHECK(!memcmp(v, w, sizeof v));
    HS_CHECK_INT(hs__store_map_ctx_decode(out, out + len - 1, -100, 100, w, 361), -1);
    memcpy(buf, out, len);
    buf[len] = 0;
    HS_CHECK_INT(hs__store_map_ctx_decode(buf, buf + len + 1, -100, 100, w, 361), -1);
    HS_CHECK_INT(hs__store_map_ctx_decode(out, out, -100, 100, w, 361), -1);
    /* Not a board's number of points. */
    HS_CHECK_INT(hs__store_map_ctx_decode(out, out + len, -100, 100, w, 360), -1);
    HS_CHECK_INT(hs__store_map_ctx_encode(v, 360, -100, 100, out, sizeof out), SIZE_MAX);
    /* The cap: a payload longer than cap is not written past it. */
    memset(buf, 0xEE, sizeof buf);
    HS_CHECK_INT(hs__store_map_ctx_encode(v, 361, -100, 100, buf, 4), SIZE_MAX);
    HS_CHECK_INT(buf[4], 0xEE);
    /* Literals are read as raw bits of hi - lo + 1 values rounded up to a
     * power of two: a map coded for a wider range may hold values above hi. */
    static int32_t wide[361];
    static uint8_t wbuf[3 * NN_MAX + 80];
    for (int i = 0; i < 361; i++)
        wide[i] = (int32_t)(s_rand() % 255);
    size_t wl = hs__store_map_ctx_encode(wide, 361, 0, 254, wbuf, sizeof wbuf);
    HS_CHECK(wl != SIZE_MAX);
    if (wl != SIZE_MAX)
        HS_CHECK_INT(hs__store_map_ctx_decode(wbuf, wbuf + wl, 0, 200, w, 361), -1);
    /* Flipped bytes: never a crash (ASan's job), never a value out of range. */
    int out_of_range = 0, accepted = 0;
    for (int t = 0; t < 4000; t++) {
        memcpy(buf, out, len);
        buf[s_rand() % len] ^= (uint8_t)(1u << (s_rand() % 8));
        if (hs__store_map_ctx_decode(buf, buf + len, -100, 100, w, 361) == 0) {
            accepted++;
            for (int i = 0; i < 361; i++)
                out_of_range += w[i] < -100 || w[i] > 100;
        }
    }
    printf("flipped payloads that still decoded: %d of 4000\n", accepted);
    HS_CHECK_INT(out_of_range, 0);
}

int main(void)
{
    test_roundtrip();
    test_ctx_wins();
    test_ctx_malformed();
    return hs_test_finish();
}
