/*
 * cli/args.c — the strict number reader and the input-path check of cli/args.h.
 */
#include "args.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/wire.h"

int hs__cli_long(const char *cmd, const char *opt, const char *text, long lo, long hi,
                 long *out)
{
    char *end = NULL;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (text && !errno && end != text && !*end && v >= lo && v <= hi) {
        *out = v;
        return 0;
    }
    if (hi == LONG_MAX || hi == INT_MAX)
        fprintf(stderr, "hyeongse %s: %s needs a whole number >= %ld, not '%s'\n", cmd, opt, lo,
                text ? text : "");
    else
        fprintf(stderr, "hyeongse %s: %s needs a whole number %ld..%ld, not '%s'\n", cmd, opt,
                lo, hi, text ? text : "");
    return -1;
}

int hs__cli_int(const char *cmd, const char *opt, const char *text, int lo, int hi, int *out)
{
    long v;
    if (hs__cli_long(cmd, opt, text, lo, hi, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

int hs__cli_u64(const char *cmd, const char *opt, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    /* strtoull takes "-1" as ULLONG_MAX: only digits are a seed. */
    unsigned long long v = text && *text >= '0' && *text <= '9' ? strtoull(text, &end, 10) : 0;
    if (end && !errno && !*end) {
        *out = (uint64_t)v;
        return 0;
    }
    fprintf(stderr, "hyeongse %s: %s needs a whole number >= 0, not '%s'\n", cmd, opt,
            text ? text : "");
    return -1;
}

int hs__cli_job_id(const char *cmd, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = text && *text >= '0' && *text <= '9' ? strtoull(text, &end, 10) : 0;
    if (end && !errno && !*end && v > 0) {
        *out = (uint64_t)v;
        return 0;
    }
    fprintf(stderr, "hyeongse %s: bad job id '%s' (a whole number >= 1, as `hyeongse status` "
            "lists them)\n", cmd, text ? text : "");
    return -1;
}

int hs__cli_double(const char *cmd, const char *opt, const char *text, double lo, double hi,
                   double *out)
{
    char *end = NULL;
    double v = text ? strtod(text, &end) : 0;
    if (text && end != text && !*end && isfinite(v) && v >= lo && v <= hi) {
        *out = v;
        return 0;
    }
    fprintf(stderr, "hyeongse %s: %s needs a number %.15g..%.15g, not '%s'\n", cmd, opt, lo, hi,
            text ? text : "");
    return -1;
}

int hs__cli_komi(const char *cmd, const char *text, double *out)
{
    return hs__cli_double(cmd, "--komi", text, -HS_WIRE_MAX_KOMI, HS_WIRE_MAX_KOMI, out);
}

int hs__cli_check_paths(const char *cmd, char *const *paths, int npaths)
{
    int bad = 0;
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            fprintf(stderr, "hyeongse %s: %s: %s\n", cmd, paths[i], strerror(errno));
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}
