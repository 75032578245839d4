/*
 * cli/status_cluster.c — the table and the JSON of `status --cluster`
 * (cli/status_cluster.h). One line a worker, columns sized to the longest
 * name and engine list, so a terminal of workers lines up.
 */
#include "status_cluster.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/json.h"

/* A count or null (the broker did not say). */
static void s_json_count(FILE *out, const char *key, bool have, int64_t v)
{
    if (have)
        fprintf(out, ",\"%s\":%" PRId64, key, v);
    else
        fprintf(out, ",\"%s\":null", key);
}

static void s_json_worker(FILE *out, const hs_wire_worker_info_t *w)
{
    fputs("{\"name\":", out);
    hs_json_string(out, w->name);
    fputs(",\"engines\":", out);
    if (w->has_stats) {
        fputc('[', out);
        for (int k = 0; k < w->num_engines; k++) {
            fputs(k ? "," : "", out);
            hs_json_string(out, w->engines[k]);
        }
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    fputs(",\"nets\":[", out);
    for (int k = 0; k < w->num_nets; k++)
        fprintf(out, "%s\"%s\"", k ? "," : "", w->nets[k]);   /* hex: no escaping */
    fputs("],\"backend\":", out);
    if (w->backend)
        hs_json_string(out, w->backend);
    else
        fputs("null", out);
    fprintf(out, ",\"tasks\":%d", w->tasks);
    if (w->has_stats && isfinite(w->rate))
        fprintf(out, ",\"rate\":%.1f", w->rate);
    else
        fputs(",\"rate\":null", out);
    s_json_count(out, "positions_done", w->has_stats, w->positions_done);
    s_json_count(out, "tasks_done", w->has_stats, w->tasks_done);
    s_json_count(out, "leased_positions", w->has_stats, w->leased_positions);
    s_json_count(out, "errors", w->has_stats, w->errors);
    s_json_count(out, "requeued", w->has_stats, w->requeued);
    fputc('}', out);
}

static void s_json(FILE *out, const hs_wire_status_reply_t *r)
{
    const hs_wire_cluster_info_t *c = &r->cluster;
    bool h = r->has_cluster;
    fprintf(out, "{\"workers\":%d", r->workers);
    if (h)
        fprintf(out, ",\"uptime_s\":%.1f", (double)c->uptime_ms / 1000.0);
    else
        fputs(",\"uptime_s\":null", out);
    s_json_count(out, "jobs_running", h, c->jobs_running);
    s_json_count(out, "queued_tasks", h, c->queued_tasks);
    s_json_count(out, "leased_tasks", h, c->leased_tasks);
    s_json_count(out, "positions_pending", h, c->positions_pending);
    fputs(",\"worker_list\":[", out);
    for (int i = 0; i < r->num_worker_list; i++) {
        fputs(i ? "," : "", out);
        s_json_worker(out, &r->worker_list[i]);
    }
    fputs("]}\n", out);
}

/* The worker's engines joined by ',' (then its nets' first 8 hex digits) into
 * buf: the column that differs most between GPU and CPU workers. */
static void s_engines_text(const hs_wire_worker_info_t *w, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < w->num_engines && n + 1 < size; k++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? "," : "", w->engines[k]);
    for (int k = 0; k < w->num_nets && n + 1 < size; k++)
        n += (size_t)snprintf(buf + n, size - n, "%s%.8s", k ? "," : " net ", w->nets[k]);
    if (!w->has_stats && n == 0)
        snprintf(buf, size, "-");
}

/* A count column: the number, or "-" when the broker did not say. */
static void s_col(FILE *out, int width, bool have, int64_t v)
{
    if (have)
        fprintf(out, " %*" PRId64, width, v);
    else
        fprintf(out, " %*s", width, "-");
}

static void s_header(FILE *out, const hs_wire_status_reply_t *r)
{
    const hs_wire_cluster_info_t *c = &r->cluster;
    if (!r->has_cluster) {
        fprintf(out, "broker: %d live workers (queue and uptime not reported: an older "
                     "broker)\n", r->workers);
        return;
    }
    int64_t s = c->uptime_ms / 1000;
    fprintf(out, "broker: up %" PRId64 "h%02" PRId64 "m%02" PRId64 "s, %d live workers, %"
                 PRId64 " jobs running, %" PRId64 " tasks queued, %" PRId64 " leased, %"
                 PRId64 " positions pending\n",
            s / 3600, s / 60 % 60, s % 60, r->workers, c->jobs_running, c->queued_tasks,
            c->leased_tasks, c->positions_pending);
}

static void s_table(FILE *out, const hs_wire_status_reply_t *r)
{
    s_header(out, r);
    if (r->num_worker_list == 0) {
        fputs("no live workers\n", out);
        return;
    }
    char eng[512];
    int wn = 6, we = 7;   /* "WORKER", "ENGINES" */
    for (int i = 0; i < r->num_worker_list; i++) {
        const hs_wire_worker_info_t *w = &r->worker_list[i];
        int n = hs_term_width(w->name ? w->name : "?");
        wn = n > wn ? n : wn;
        s_engines_text(w, eng, sizeof eng);
        we = (int)strlen(eng) > we ? (int)strlen(eng) : we;
    }
    fprintf(out, "%-*s  %-*s  %-7s %6s %9s %10s %12s %7s %8s\n", wn, "WORKER", we, "ENGINES",
            "BACKEND", "TASKS", "LEASED", "POS/S", "POS DONE", "ERRORS", "REQUEUED");
    for (int i = 0; i < r->num_worker_list; i++) {
        const hs_wire_worker_info_t *w = &r->worker_list[i];
        bool h = w->has_stats;
        s_engines_text(w, eng, sizeof eng);
        /* A worker's name is its own text (its host's): no control character
         * reaches the admin's terminal. */
        for (int n = hs_term_string(out, w->name ? w->name : "?"); n < wn; n++)
            fputc(' ', out);
        fprintf(out, "  %-*s  %-7s %6d", we, eng, w->backend ? w->backend : "-", w->tasks);
        s_col(out, 9, h, w->leased_positions);
        if (h && isfinite(w->rate))
            fprintf(out, " %10.1f", w->rate);
        else
            fprintf(out, " %10s", "-");
        s_col(out, 12, h, w->positions_done);
        s_col(out, 7, h, w->errors);
        s_col(out, 8, h, w->requeued);
        fputc('\n', out);
    }
}

int hs__cli_print_cluster(FILE *out, const hs_wire_status_reply_t *r, bool json)
{
    /* The broker's mark for a key that is not an admin's: the cluster field
     * with uptime 0 (an admin's is at least 1 ms) and every count 0. An older
     * broker sends no field: that is not this case, its workers are shown. */
    if (r->has_cluster && r->cluster.uptime_ms == 0) {
        fprintf(stderr, "hyeongse status: --cluster needs an admin key: this key is not an "
                        "admin key (the broker's --admins), and the broker shows its workers "
                        "and queue to admins only\n");
        return 1;
    }
    if (json)
        s_json(out, r);
    else
        s_table(out, r);
    return 0;
}
