/*
 * worker/analysis_out.c — the analysis protocol's output: whole lines under
 * one lock (the reader thread answers errors and actions while the search
 * thread writes replies), flushed at once because a script waits for each.
 */
#include <math.h>

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

void hs__aout_num(FILE *f, double x)
{
    if (!isfinite(x))
        x = 0;
    if (x == 0)
        x = 0;   /* no "-0" */
    fprintf(f, "%.8g", x);
}
