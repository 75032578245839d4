/*
 * tests/fuzz/fuzz_nnmodel.c — libFuzzer target for the model readers
 * (worker/nn/model.h: KataGo's files and our own .hsn): a model file is untrusted input (users download them).
 *
 * Properties checked on every input (gzip'd or raw bytes):
 *  - hs_nn_model_parse returns 0 with a model, or one of the documented codes
 *    with no model and a non-empty message; never crashes or leaks (ASan);
 *  - an accepted model has consistent shapes: every block's first convolution
 *    reads the trunk and its last one writes it.
 *  - an accepted model reads one of the two input sets;
 *  - an .hsn input is parsed a second time with its CRC made right, so that
 *    mutations reach the structural checks behind the checksum.
 * Seeds in tests/fuzz/corpus/nnmodel/: tiny KataGo models from
 * worker/nn/make_tiny_model.py, and tiny .hsn files (tiny-hsn-*.hsn) from
 * tests/make_hsn (`make_hsn OUT B C K P G V H SEED`, tests/hsn_write.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "worker/nn/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(const uint8_t *data, size_t size)
{
    hs_error_t err;
    hs_nn_model_t *m = NULL;
    hs_error_clear(&err);
    int rc = hs_nn_model_parse(data, size, &m, &err);
    if (rc == 0) {
        if (!m || hs_nn_model_params(m) == 0 || (m->input_set != 0 && m->input_set != 1))
            abort();
        for (int i = 0; i < m->n_blocks; i++)
            if (m->blocks[i].conv1.in_c != m->trunk_c || m->blocks[i].conv2.out_c != m->trunk_c)
                abort();
        hs_nn_model_free(&m);
        return;
    }
    if (m || !err.msg[0])
        abort();
    if (rc != HS_EPARSE && rc != HS_EUNSUPPORTED && rc != HS_ELIMIT && rc != HS_ECORRUPT
        && rc != HS_ENOMEM)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    s_check(data, size);
    if (size >= 12 && !memcmp(data, HS_NN_HSN_MAGIC, 8)) {
        uint8_t *fixed = malloc(size);
        if (!fixed)
            return 0;
        memcpy(fixed, data, size);
        uint32_t crc = (uint32_t)crc32(0L, fixed, (uInt)(size - 4));
        for (int i = 0; i < 4; i++)
            fixed[size - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
        s_check(fixed, size);
        free(fixed);
    }
    return 0;
}
