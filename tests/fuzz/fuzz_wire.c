/*
 * tests/fuzz/fuzz_wire.c — libFuzzer target for the wire decoder (core/wire.h).
 *
 * Properties checked on every input:
 *  - hs_wire_decode never crashes, leaks or reads out of bounds (ASan/UBSan);
 *  - it returns 0, HS_EPROTO or HS_ENOMEM, nothing else;
 *  - whatever it accepts re-encodes, and the re-encoding decodes to a message
 *    that encodes to the same bytes (decode ∘ encode is stable).
 *  - the view decoder (HS_WIRE_DECODE_EVAL_VIEW) accepts exactly what the full
 *    one accepts, and each eval's raw bytes decode alone to exactly raw_len bytes
 *    (the broker stores those bytes as the record).
 * Also feeds the bytes to hs_wire_check_magic.
 *
 * Build: CC=clang cmake -S . -B /tmp/hs-fuzz-wire -DHS_FUZZ=ON && cmake --build
 * /tmp/hs-fuzz-wire --target fuzz_wire; run: /tmp/hs-fuzz-wire/tests/fuzz/fuzz_wire
 * -max_total_time=60 tests/fuzz/corpus/wire (seed corpus: written by test_wire
 * when HS_WIRE_CORPUS is set).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool w;
    (void)hs_wire_check_magic(data, size, &w, NULL);
    hs_wire_msg_t m;
    hs_error_t err;
    int rc = hs_wire_decode(data, size, &m, &err);
    if (rc != 0 && rc != HS_EPROTO && rc != HS_ENOMEM)
        abort();
    hs_wire_msg_t v;
    int vrc = hs_wire_decode_ex(data, size, HS_WIRE_DECODE_EVAL_VIEW, &v, &err);
    if ((vrc == 0) != (rc == 0) && vrc != HS_ENOMEM && rc != HS_ENOMEM)
        abort();   /* the two modes disagree on what is valid */
    if (vrc == 0 && v.type == HS_WIRE_RESULT)
        for (int i = 0; i < v.result.num_evals; i++) {
            const hs_eval_t *e = &v.result.evals[i];
            hs_wire_reader_t r;
            hs_eval_t one = { 0 };
            hs_wire_reader_init(&r, e->raw, e->raw_len, &err);
            if (!e->raw || hs_wire_read_eval(&r, &one) != 0 || r.p != r.end)
                abort();   /* raw is not exactly one valid eval */
            hs_eval_fini(&one);
        }
    if (vrc == 0)
        hs_wire_msg_fini(&v);
    if (rc != 0)
        return 0;
    hs_wire_buf_t a = { 0 }, b = { 0 };
    if (hs_wire_encode(&m, &a, &err) != 0)
        abort();   /* the decoder accepted what the encoder refuses */
    hs_wire_msg_t m2;
    if (hs_wire_decode(a.data, a.len, &m2, &err) != 0)
        abort();   /* our own encoding does not decode */
    if (hs_wire_encode(&m2, &b, &err) != 0 || a.len != b.len || memcmp(a.data, b.data, a.len))
        abort();   /* not stable */
    hs_wire_msg_fini(&m2);
    hs_wire_msg_fini(&m);
    hs_wire_buf_free(&a);
    hs_wire_buf_free(&b);
    return 0;
}
