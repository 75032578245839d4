/* core/error.c — the error table of error.h and the error record helpers. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *hs_strerror(int code)
{
    switch (code) {
#define HS_ERROR_DESC(name, value, desc) case value: return desc;
        HS_ERROR_MAP(HS_ERROR_DESC)
#undef HS_ERROR_DESC
    }
    return "unknown error";
}

const char *hs_err_name(int code)
{
    switch (code) {
#define HS_ERROR_NAME(name, value, desc) case value: return #name;
        HS_ERROR_MAP(HS_ERROR_NAME)
#undef HS_ERROR_NAME
    }
    return "HS_E?";
}

void hs_error_clear(hs_error_t *err)
{
    if (err) {
        err->code = 0;
        err->msg[0] = '\0';
    }
}

int hs_error_set(hs_error_t *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int hs_error_prefix(hs_error_t *err, const char *fmt, ...)
{
    if (!err)
        return HS_EINVAL;
    char head[HS_ERROR_MSG_MAX], old[HS_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    /* Concatenate by hand: the result is cut at HS_ERROR_MSG_MAX on purpose. */
    size_t hl = strnlen(head, sizeof head - 1);
    size_t ol = strnlen(old, sizeof old - 1);
    if (ol > sizeof err->msg - 1 - hl)
        ol = sizeof err->msg - 1 - hl;
    memcpy(err->msg, head, hl);
    memcpy(err->msg + hl, old, ol);
    err->msg[hl + ol] = '\0';
    return err->code;
}
