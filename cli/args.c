/*
 * cli/args.c — the strict number reader of cli/args.h.
 */
#include "args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

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
