/*
 * cli/cmd_check.c — `hyeongse check --db DIR`: verifies a store. The file
 * against its meta pages, then every table walked and every record decoded
 * (store/store.h, hs_store_check), under the fault guard so that a store whose
 * pages make LMDB fault is reported as damaged, not crashed on.
 * Exit status: 0 no problem, 1 problems found (each listed), 2 usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fault_guard.h"
#include "store/store.h"

const char hs_cmd_check_summary[] = "verify a store: file size, every table, record and index";

/* Problems printed before the rest are only counted (a wrecked store can have
 * millions; the count is exact either way). */
#define S_LIST_MAX 1000

typedef struct {
    bool json;
    int64_t listed;
    hs_store_check_report_t rep;
    hs_store_file_info_t file;
    const char *dir;
} s_run_t;

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse check --db DIR [--json]\n\n"
            "Verifies the store in DIR (read-only; safe beside a running writer, which it\n"
            "sees as of one snapshot): the file size against LMDB's meta pages, every\n"
            "table walked in key order with its entry count, every game, eval, job and\n"
            "task record decoded, and the indexes (sources, players, moves, evalidx,\n"
            "taskstate, boards, jobgames) pointing at records that exist and agree.\n"
            "Prints a summary and each problem found (the first %d; all are counted).\n\n"
            "  --json   one JSON object: counts, \"problems\" and \"list\"\n\n"
            "Exit status: 0 no problem, 1 problems found, 2 usage.\n", S_LIST_MAX);
}

/* A JSON string: escapes, and bytes >= 0x80 as \u00XX so the output stays valid
 * whatever a damaged record held. */
static void s_json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20 || *p >= 0x80)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void s_on_problem(void *ctx, const char *table, const char *what)
{
    s_run_t *r = ctx;
    if (r->listed++ >= S_LIST_MAX)
        return;
    if (r->json) {
        printf("%s{\"table\":", r->listed > 1 ? "," : "");
        s_json_str(table);
        printf(",\"what\":");
        s_json_str(what);
        putchar('}');
    } else {
        printf("problem: %s: %s\n", table, what);
    }
}

/* On a terminal: the table being walked and how far (a big store takes a
 * while: 17 s for the pro archive's), on one line that the summary replaces. */
static void s_progress(void *ctx, const char *table, int64_t done, int64_t total)
{
    (void)ctx;
    fprintf(stderr, "\rcheck: %-10s %lld of %lld entries\033[K", table, (long long)done,
            (long long)total);
}

static int s_check(void *ctx, hs_error_t *err)
{
    s_run_t *r = ctx;
    hs_store_t *s = NULL;
    int rc = hs_store_open(&s, r->dir, HS_STORE_RDONLY, 0, err);
    bool tty = isatty(fileno(stderr));
    if (rc == 0)
        rc = hs_store_check_progress(s, &r->rep, s_on_problem, r, tty ? s_progress : NULL,
                                     NULL, err);
    if (tty)
        fputs("\r\033[K", stderr);
    hs_store_close(&s);
    return rc;
}

static void s_summary(const s_run_t *r, int rc, const hs_error_t *err)
{
    const hs_store_check_report_t *p = &r->rep;
    int64_t problems = p->problems + (rc ? 1 : 0);
    if (r->json) {
        if (rc)
            printf("%s{\"table\":\"store\",\"what\":", r->listed ? "," : ""), s_json_str(err->msg),
                putchar('}');
        printf("],\"problems\":%lld,\"file_bytes\":%llu,\"need_bytes\":%llu,\"games\":%lld,"
               "\"failed\":%lld,\"sources\":%lld,\"players\":%lld,\"positions\":%lld,"
               "\"evals\":%lld,\"index_entries\":%lld,\"engines\":%lld,\"jobs\":%lld,"
               "\"tasks\":%lld,\"boards\":%lld}\n", (long long)problems,
               (unsigned long long)r->file.file_size, (unsigned long long)r->file.need_bytes,
               (long long)p->games, (long long)p->failed, (long long)p->sources,
               (long long)p->players, (long long)p->positions, (long long)p->evals,
               (long long)p->index_entries, (long long)p->engines, (long long)p->jobs,
               (long long)p->tasks, (long long)p->boards);
        return;
    }
    if (rc)
        printf("problem: store: %s\n", err->msg);
    if (r->listed > S_LIST_MAX)
        printf("(%lld more problems not listed)\n", (long long)(r->listed - S_LIST_MAX));
    printf("file      %s/data.mdb: %llu bytes, %llu in use\n", r->dir,
           (unsigned long long)r->file.file_size, (unsigned long long)r->file.need_bytes);
    printf("walked    %lld games, %lld failed, %lld sources, %lld players, %lld positions,\n"
           "          %lld evals, %lld index entries, %lld engines, %lld jobs, %lld tasks,\n"
           "          %lld boards\n",
           (long long)p->games, (long long)p->failed, (long long)p->sources,
           (long long)p->players, (long long)p->positions, (long long)p->evals,
           (long long)p->index_entries, (long long)p->engines, (long long)p->jobs,
           (long long)p->tasks, (long long)p->boards);
    printf("%s\n", problems ? "problems found" : "ok: no problem found");
    if (problems)
        printf("%lld problem%s\n", (long long)problems, problems == 1 ? "" : "s");
}

int hs_cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    s_run_t r = { 0 };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd': r.dir = optarg; break;
        case 'j': r.json = true; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (!r.dir || optind < argc) {
        fprintf(stderr, "hyeongse check: give --db DIR (and nothing else; see --help)\n");
        return 2;
    }
    hs_error_t err;
    hs_error_clear(&err);
    if (r.json)
        printf("{\"list\":[");
    /* The file first, on its own: its size and meta pages are in the summary even
     * when the store cannot be opened. */
    int rc = hs_store_file_check(r.dir, &r.file, &err);
    if (rc == 0)
        rc = hs_cli_guarded(s_check, &r, r.dir, false, &err);
    if (rc == HS_ECORRUPT && r.rep.walking)   /* the guard caught a fault: say where */
        hs_error_set(&err, rc, "%s: reading table '%s' made LMDB fault: the store is "
                     "damaged there (LMDB keeps no checksums of its pages); the counts "
                     "below are of the tables walked before it", r.dir, r.rep.walking);
    s_summary(&r, rc, &err);
    return rc || r.rep.problems ? 1 : 0;
}
