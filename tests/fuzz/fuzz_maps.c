/*
 * tests/fuzz/fuzz_maps.c — libFuzzer target for the map coder of eval records
 * (store/store_maps.c, store/store_maps_ctx.c; docs/STORE.md "Maps").
 *
 * Input: byte 0 picks the value range (ownership, its difference from the
 * classes', class codes, influence), byte 1 the board size (2..25), byte 2 the
 * form (1..4); the rest is the payload. Properties checked on every input:
 *  - no form's decoder crashes or reads out of bounds (ASan/UBSan);
 *  - what a decoder accepts holds only values in the range;
 *  - accepted values re-encode (the writer's choice of form) and that decodes
 *    to the same values: the coder round-trips whatever a decoder can yield.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
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
