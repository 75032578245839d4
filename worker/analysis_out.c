/*
 * worker/analysis_out.c — the analysis protocol's output: whole lines under
 * one lock (the reader thread answers errors and actions while the search
 * thread writes replies), flushed at once because a script waits for each;
 * and numbers written as KataGo's JSON writes them.
 */
#include <math.h>
#include <stdlib.h>

#include "core/json.h"
#include "worker/analysis_internal.h"

void hs__aout_lock(hs__aout_t *o)
{
    pthread_mutex_lock(&o->mu);
}

void hs__aout_unlock(hs__aout_t *o)
{
    fputc('\n', o->f);
    fflush(o->f);
    pthread_mutex_unlock(&o->mu);
}

void hs__aout_error(hs__aout_t *o, const char *id, const char *field, const char *msg,
                    bool is_warning)
{
    hs__aout_lock(o);
    fputs(is_warning ? "{\"warning\":" : "{\"error\":", o->f);
    hs_json_string(o->f, msg);
    if (field) {
        fputs(",\"field\":", o->f);
        hs_json_string(o->f, field);
    }
    if (id) {
        fputs(",\"id\":", o->f);
        hs_json_string(o->f, id);
    }
    fputc('}', o->f);
    hs__aout_unlock(o);
}

void hs__aout_error_value_id(hs__aout_t *o, const hs_json_t *id, const char *msg)
{
    hs__aout_lock(o);
    fputs("{\"error\":", o->f);
    hs_json_string(o->f, msg);
    if (id) {
        fputs(",\"id\":", o->f);
        hs_json_write(o->f, id);   /* a string escaped again, a number as written */
    }
    fputc('}', o->f);
    hs__aout_unlock(o);
}

/* KataGo's Global::roundDynamic(x, 8): x rounded at 10^(floor(log10 |x|) - 8),
 * i.e. to 9 significant digits (whole numbers from 10^8 on). */
static double s_round_dynamic(double x)
{
    double ax = fabs(x);
    if (ax <= 1e-60)
        return x;
    int mag = (int)floor(log10(ax)) - 8;
    if (mag >= 0)
        return round(x);
    double scale = pow(10.0, -mag);
    return round(x * scale) / scale;
}

/* The fewest significant digits (1..17) whose %e form reads back as x. */
static int s_shortest(double x, char *e, size_t cap)
{
    for (int p = 1; p < 17; p++) {
        snprintf(e, cap, "%.*e", p - 1, x);
        if (strtod(e, NULL) == x)
            return p;
    }
    snprintf(e, cap, "%.16e", x);
    return 17;
}

const char *hs_analysis_json_double(double x, char *buf, size_t cap)
{
    if (!isfinite(x)) {
        snprintf(buf, cap, "null");   /* nlohmann's dump writes NaN and infinities so */
        return buf;
    }
    if (x == 0) {
        snprintf(buf, cap, "%s", signbit(x) ? "-0.0" : "0.0");
        return buf;
    }
    char e[40], digits[20];
    s_shortest(x, e, sizeof e);
    /* e is [-]d[.ddd]e(+|-)XX: x = 0.DIGITS x 10^n */
    const char *t = e + (e[0] == '-');
    int k = 0;
    for (; *t && *t != 'e'; t++)
        if (*t >= '0' && *t <= '9')
            digits[k++] = *t;
    digits[k] = '\0';
    int n = atoi(t + 1) + 1;
    const char *sign = x < 0 ? "-" : "";
    /* nlohmann::detail::dtoa_impl::format_buffer, min_exp -4, max_exp 15 */
    static const char zeros[] = "000000000000000";
    if (k <= n && n <= 15)
        snprintf(buf, cap, "%s%s%.*s.0", sign, digits, n - k, zeros);
    else if (n > 0 && n <= 15)
        snprintf(buf, cap, "%s%.*s.%s", sign, n, digits, digits + n);
    else if (n > -4 && n <= 0)
        snprintf(buf, cap, "%s0.%.*s%s", sign, -n, zeros, digits);
    else
        snprintf(buf, cap, "%s%c%s%se%c%02d", sign, digits[0], k > 1 ? "." : "", digits + 1,
                 n - 1 < 0 ? '-' : '+', abs(n - 1));
    return buf;
}

void hs__aout_num(FILE *f, double x)
{
    if (!isfinite(x))
        x = 0;
    x = s_round_dynamic(x);
    if (x == 0)
        x = 0;   /* no "-0.0" */
    char buf[40];
    fputs(hs_analysis_json_double(x, buf, sizeof buf), f);
}

void hs__aout_num6(FILE *f, double x)
{
    if (!isfinite(x))
        x = 0;
    x = round(x * 1e6) / 1e6;
    if (x == 0)
        x = 0;
    char buf[40];
    fputs(hs_analysis_json_double(x, buf, sizeof buf), f);
}
