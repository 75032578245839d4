/*
 * tests/test.h — the tiny test harness every tests/test_*.c uses.
 *
 * Checks stay on under NDEBUG, print both values and the location, and count
 * failures; main() ends with `return hs_test_finish();`, which prints
 * "N passed, M failed" and returns the exit status CTest reads (77 = skipped).
 */
#ifndef HS_TESTS_TEST_H
#define HS_TESTS_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hs_test_passed, hs_test_failed;

#define HS_CHECK(cond)                                                          \
    do {                                                                        \
        if (cond) hs_test_passed++;                                             \
        else { hs_test_failed++;                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } \
    } while (0)

#define HS_CHECK_INT(a, b)                                                      \
    do {                                                                        \
        long long hs_a_ = (long long)(a), hs_b_ = (long long)(b);               \
        if (hs_a_ == hs_b_) hs_test_passed++;                                   \
        else { hs_test_failed++;                                                \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",           \
                    __FILE__, __LINE__, #a, #b, hs_a_, hs_b_); }                \
    } while (0)

#define HS_CHECK_STR(a, b)                                                      \
    do {                                                                        \
        const char *hs_a_ = (a), *hs_b_ = (b);                                  \
        if (hs_a_ && hs_b_ && !strcmp(hs_a_, hs_b_)) hs_test_passed++;          \
        else { hs_test_failed++;                                                \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n",       \
                    __FILE__, __LINE__, #a, #b, hs_a_ ? hs_a_ : "(null)",       \
                    hs_b_ ? hs_b_ : "(null)"); }                                \
    } while (0)

/* Folder of ../shared/data, or exits 77 (skipped) with a clear message. */
static inline const char *hs_test_data_dir(void)
{
    const char *d = getenv("HS_DATA_DIR");
    char probe[4096];
    if (d) {
        snprintf(probe, sizeof probe, "%s/SOURCES.md", d);
        FILE *f = fopen(probe, "r");
        if (f) { fclose(f); return d; }
    }
    printf("SKIP: the shared game archives (HS_DATA_DIR=%s) are not here; "
           "this test needs ../shared/data\n", d ? d : "(unset)");
    exit(77);
}

/* Folder of tests/data (the project's own test data). */
static inline const char *hs_test_own_data_dir(void)
{
    const char *d = getenv("HS_TEST_DATA");
    return d ? d : "tests/data";
}

/* Removes a store directory a test made (data.mdb, lock.mdb, the folder). */
static inline void hs_test_rm_store(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/data.mdb", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/lock.mdb", dir);
    unlink(p);
    rmdir(dir);
}

static inline int hs_test_finish(void)
{
    printf("%d passed, %d failed\n", hs_test_passed, hs_test_failed);
    return hs_test_failed ? 1 : 0;
}

#endif
