/*
 * tests/fuzz/fuzz_json.c — libFuzzer target for the strict JSON reader
 * (core/json_read.h), which reads every line the analysis protocol gets.
 *
 * Properties checked: a parse either succeeds with a root or fails with a
 * message and no document; a parsed document written out reads back, and
 * writing that again gives the same bytes (the writer's output is a fixed
 * point), so what the protocol echoes back (query_version, terminate) is
 * always valid JSON. Seeds in tests/fuzz/corpus/json/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* v written to a fresh buffer (abort on failure: a fuzz harness). */
static char *s_write(const hs_json_t *v, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    hs_json_write(f, v);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_json_limits_t lim;
    hs_json_limits_default(&lim);
    lim.max_bytes = 1 << 16;
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    int rc = hs_json_parse((const char *)data, size, &lim, &d, &err);
    if (rc) {
        if (d || !err.msg[0])
            abort();
        return 0;
    }
    if (!hs_json_root(d))
        abort();
    size_t n1 = 0, n2 = 0;
    char *t1 = s_write(hs_json_root(d), &n1);
    hs_json_doc_t *d2 = NULL;
    lim.max_bytes = n1 + 1;
    if (hs_json_parse(t1, n1, &lim, &d2, &err))
        abort();
    char *t2 = s_write(hs_json_root(d2), &n2);
    if (n1 != n2 || memcmp(t1, t2, n1))
        abort();
    free(t1);
    free(t2);
    hs_json_free(&d2);
    hs_json_free(&d);
    return 0;
}
