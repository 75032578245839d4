/*
 * tests/fuzz/fuzz_query.c — libFuzzer target for the QUERY text a broker takes
 * from the network (store/query.h): hs_query_args_split, then
 * hs_query_args_parse on what it split.
 *
 * Properties checked on every input (NUL-terminated copy of the bytes):
 *  - neither function crashes, leaks or reads out of bounds (ASan/UBSan);
 *  - split returns 0, HS_EINVAL or HS_ENOMEM; parse returns 0 or HS_EINVAL;
 *  - what split accepts joins back to exactly the same text.
 * No store is opened: running a parsed query is the store's part (test_query).
 *
 * Build and run like fuzz_wire (tests/fuzz/CMakeLists.txt); seeds in
 * tests/fuzz/corpus/query/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    int argc = 0;
    char **argv = NULL;
    hs_error_t err = { 0 };
    int rc = hs_query_args_split(text, &argc, &argv, &err);
    if (rc != 0 && rc != HS_EINVAL && rc != HS_ENOMEM)
        abort();
    if (rc == 0) {
        char *joined = NULL;
        if (hs_query_args_join(argc, argv, &joined, &err) != 0 || strcmp(joined, text) != 0)
            abort();   /* split and join disagree */
        free(joined);
        hs_query_args_t a;
        int prc = hs_query_args_parse(argc, argv, &a, &err);
        if (prc != 0 && prc != HS_EINVAL)
            abort();
        free(argv);
    }
    free(text);
    return 0;
}
