/*
 * tests/fuzz/fuzz_maps.c — libFuzzer target for the map coder of eval records
 * (store/store_maps.c, store/store_maps_ctx.c; docs/STORE.md "Maps").
 *
 * Input: byte 0 picks the value range (ownership, its difference from the
 * classes', class codes, influence), byte 1 the board size (2..25), byte 2 the
 * form (1..4; with its top bit set, 5: changes against a base map, store_chain.c,
 * the base made up from the board size); the rest is the payload. Properties
 * checked on every input:
 *  - no form's decoder crashes or reads out of bounds (ASan/UBSan);
 *  - what a decoder accepts holds only values in the range;
 *  - accepted values re-encode (the writer's choice of form, or the changes
 *    against the same base) and that decodes to the same values: the coder
 *    round-trips whatever a decoder can yield.
 *
 * Build and run as the other targets (tests/fuzz/CMakeLists.txt); the seed
 * corpus in tests/fuzz/corpus/maps/ holds maps of each form written by the
 * coder from synthetic boards.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int32_t s_lo[4] = { -100, -200, 0, -32768 };
static const int32_t s_hi[4] = { 100, 200, 12, 32767 };

/* Form 5: the payload's changes applied to a base map; they must code back. */
static int s_changes(const uint8_t *p, const uint8_t *end, int kind, uint32_t n)
{
    int width = kind == 3 ? 2 : 1;
    int16_t base[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE], cur[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE],
        back[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    uint8_t *b8 = (uint8_t *)base;
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = s_lo[kind] + (int32_t)((i * 2654435761u) % (uint32_t)(s_hi[kind] - s_lo[kind] + 1));
        if (width == 2)
            base[i] = (int16_t)x;
        else
            b8[i] = (uint8_t)x;
    }
    uint64_t dist;
    if (hs__store_chain_dist(&p, end, &dist))
        return 0;
    memcpy(cur, base, sizeof cur);
    if (hs__store_chain_apply(p, end, cur, n, width, s_lo[kind], s_hi[kind]))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = width == 2 ? cur[i] : s_lo[kind] < 0 ? (int8_t)((uint8_t *)cur)[i]
                                                         : ((uint8_t *)cur)[i];
        if (x < s_lo[kind] || x > s_hi[kind])
            abort();
    }
    static uint8_t out[10 + 5 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    size_t len = hs__store_chain_put(out, cur, base, n, width, dist, n);
    const uint8_t *q = out + 1, *qe = out + len;
    uint32_t pl;
    uint64_t d2;
    memcpy(back, base, sizeof back);
    if (len < 3 || out[0] != HS_STORE_MAP_CHAIN || hs_wire_get_varint(&q, qe, &pl) || q + pl != qe
        || hs__store_chain_dist(&q, qe, &d2) || d2 != dist
        || hs__store_chain_apply(q, qe, back, n, width, s_lo[kind], s_hi[kind])
        || memcmp(back, cur, (size_t)n * (size_t)width))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    if (data[2] & 0x80) {
        uint32_t side = 2 + data[1] % (HS_BOARD_MAX_SIZE - 1);
        return s_changes(data + 3, data + size, data[0] & 3, side * side);
    }
    int kind = data[0] & 3;
    uint32_t side = 2 + data[1] % (HS_BOARD_MAX_SIZE - 1), n = side * side;
    uint8_t enc = (uint8_t)(1 + data[2] % 4);
    int32_t v[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE], w[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    if (hs__store_map_decode(enc, data + 3, data + size, s_lo[kind], s_hi[kind], v, n))
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (v[i] < s_lo[kind] || v[i] > s_hi[kind])
            abort();
    static uint8_t out[3 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE + 80];
    uint8_t e2;
    size_t len = hs__store_map_encode(v, n, s_lo[kind], s_hi[kind], out, &e2);
    if (len > sizeof out
        || hs__store_map_decode(e2, out, out + len, s_lo[kind], s_hi[kind], w, n)
        || memcmp(v, w, n * sizeof v[0]))
        abort();
    return 0;
}
