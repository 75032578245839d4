/*
 * cli/cmd_ingest.c — `hyeongse ingest`: read archives, validate every game, and
 * print the archive report (a table, or one JSON object with --json).
 *
 * Only --dry-run exists: analysis jobs are started by `hyeongse analyze` (one
 * machine) or `hyeongse submit` (a cluster), which read archives the same way.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "core/json.h"
#include "ingest/archive.h"
#include "ingest/ingest.h"

const char hs_cmd_ingest_summary[] = "read game archives, validate and count every game";

/* A file name or message for the terminal: a control byte in it (a newline, an
 * escape sequence in a member's name) shows as '?'; --json escapes them instead. */
static void s_plain(FILE *out, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse ingest PATH... --dry-run [--json] [--threads N] [--[no-]progress]\n"
            "                       [--max-failures N] [--max-member BYTES] [--follow-symlinks]\n\n"
            "Reads every SGF game in PATH (.sgf files, folders, .tar, .tar.gz/.tgz,\n"
            ".tar.xz, .tar.bz2, .zip), parses, replays with legality checks, removes\n"
            "duplicates and prints the archive report. Broken games are listed with\n"
            "the reason; they never stop the run.\n\n"
            "  --dry-run          only read and count (to analyze: `hyeongse analyze` or `submit`)\n"
            "  --json             print one JSON object instead of a table\n"
            "  --threads N        parser threads, 1..1024 (default: one per CPU)\n"
            "  --progress         progress on stderr (default: only when stderr is a terminal;\n"
            "                     --no-progress: never)\n"
            "  --max-failures N   failures listed in full (all are counted; default 100000)\n"
            "  --max-member BYTES largest SGF file accepted (default 64 MiB)\n"
            "  --follow-symlinks  follow symbolic links inside folders that lead outside them\n"
            "                     (default: not followed; reported as \"link\" failures, as\n"
            "                     are symlink and hardlink members of archives)\n\n"
            "Report: files and bytes read, games (distinct good games), positions\n"
            "(moves + 1 per good game), failed (one per failed game tree or unreadable\n"
            "file), duplicates, and the distributions of board sizes, results, rules and komi.\n");
}

static void s_json_dist(FILE *out, const hs_ingest_dist_t *d)
{
    fputc('{', out);
    for (size_t i = 0; i < d->n; i++) {
        if (i)
            fputs(", ", out);
        hs_json_string(out, d->items[i].key);
        fprintf(out, ": %llu", (unsigned long long)d->items[i].count);
    }
    fputc('}', out);
}

static const char *const s_result_names[HS_INGEST_RESULT_COUNT] = {
    "counted", "resign", "time", "other",
};
static const char *const s_winner_names[5] = { "unknown", "black", "white", "draw", "void" };

static void s_print_json(FILE *out, const hs_ingest_report_t *r)
{
#define U(x) ((unsigned long long)(x))
    fprintf(out, "{\"files\": %llu, \"games\": %llu, \"positions\": %llu, \"moves\": %llu, "
            "\"bytes\": %llu, \"failed\": %llu, \"duplicates\": %llu,\n",
            U(r->files), U(r->games), U(r->positions), U(r->moves), U(r->bytes),
            U(r->failed), U(r->duplicates));
    fprintf(out, " \"failed_games\": %llu, \"failed_files\": %llu, \"trees\": %llu, "
            "\"skipped\": %llu, \"archives\": %llu, \"handicap_games\": %llu,\n",
            U(r->failed_games), U(r->failed_files), U(r->trees), U(r->skipped),
            U(r->archives), U(r->handicap_games));
    fputs(" \"failure_reasons\": {", out);
    for (int i = 0; i < HS_INGEST_FAIL_COUNT; i++)
        fprintf(out, "%s\"%s\": %llu", i ? ", " : "", hs_ingest_reason_name(i),
                U(r->by_reason[i]));
    fputs("},\n \"board_sizes\": {", out);
    int first = 1;
    for (int s = 0; s <= HS_BOARD_MAX_SIZE; s++)
        if (r->sizes[s]) {
            fprintf(out, "%s\"%d\": %llu", first ? "" : ", ", s, U(r->sizes[s]));
            first = 0;
        }
    fputs("},\n \"results\": {", out);
    for (int i = 0; i < HS_INGEST_RESULT_COUNT; i++)
        fprintf(out, "%s\"%s\": %llu", i ? ", " : "", s_result_names[i], U(r->results[i]));
    fputs("},\n \"winners\": {", out);
    for (int i = 0; i < 5; i++)
        fprintf(out, "%s\"%s\": %llu", i ? ", " : "", s_winner_names[i], U(r->winners[i]));
    fputs("},\n \"rules\": ", out);
    s_json_dist(out, &r->rules);
    fputs(",\n \"komi\": ", out);
    s_json_dist(out, &r->komi);
    fprintf(out, ",\n \"komi_contradicted\": %llu", U(r->komi_contradicted));
    double mb = (double)r->bytes / 1e6;
    fprintf(out, ",\n \"seconds\": %.3f, \"threads\": %d, \"games_per_second\": %.1f, "
            "\"mb_per_second\": %.2f,\n",
            r->seconds, r->threads, r->seconds > 0 ? (double)r->games / r->seconds : 0.0,
            r->seconds > 0 ? mb / r->seconds : 0.0);
    fprintf(out, " \"failures_listed\": %llu, \"failures\": [", U(r->num_failures));
    for (size_t i = 0; i < r->num_failures; i++) {
        const hs_ingest_failure_t *f = &r->failures[i];
        fputs(i ? ",\n  {\"file\": " : "\n  {\"file\": ", out);
        hs_json_string(out, f->source);
        if (f->game >= 0)   /* 1 = the file's first game; null: the whole file */
            fprintf(out, ", \"game\": %d", f->game + 1);
        else
            fputs(", \"game\": null", out);
        fprintf(out, ", \"reason\": \"%s\", \"message\": ", hs_ingest_reason_name(f->reason));
        hs_json_string(out, f->message);
        fputc('}', out);
    }
    fputs(r->num_failures ? "\n ],\n" : "],\n", out);
    fputs(" \"duplicate_games\": [", out);
    for (size_t i = 0; i < r->num_dups; i++) {
        fputs(i ? ",\n  {\"file\": " : "\n  {\"file\": ", out);
        hs_json_string(out, r->dups[i].source);
        fprintf(out, ", \"game\": %d}", r->dups[i].game + 1);
    }
    fputs(r->num_dups ? "\n ]}\n" : "]}\n", out);
#undef U
}

static void s_print_table(FILE *out, const hs_ingest_report_t *r)
{
#define U(x) ((unsigned long long)(x))
    fprintf(out, "files read       %12llu  (%llu archives, %llu other files skipped)\n",
            U(r->files), U(r->archives), U(r->skipped));
    fprintf(out, "bytes            %12llu  (%.2f MB)\n", U(r->bytes), (double)r->bytes / 1e6);
    fprintf(out, "game trees       %12llu\n", U(r->trees));
    fprintf(out, "games (good)     %12llu\n", U(r->games));
    fprintf(out, "positions        %12llu  (moves + 1 per game)\n", U(r->positions));
    fprintf(out, "duplicates       %12llu\n", U(r->duplicates));
    fprintf(out, "failed           %12llu  (%llu games, %llu files)\n", U(r->failed),
            U(r->failed_games), U(r->failed_files));
    for (int i = 0; i < HS_INGEST_FAIL_COUNT; i++)
        if (r->by_reason[i])
            fprintf(out, "  %-14s %12llu\n", hs_ingest_reason_name(i), U(r->by_reason[i]));
    fputs("board sizes     ", out);
    for (int s = 0; s <= HS_BOARD_MAX_SIZE; s++)
        if (r->sizes[s])
            fprintf(out, " %dx%d: %llu", s, s, U(r->sizes[s]));
    fputs("\nresults         ", out);
    for (int i = 0; i < HS_INGEST_RESULT_COUNT; i++)
        fprintf(out, " %s: %llu", s_result_names[i], U(r->results[i]));
    fputs("\nwinners         ", out);
    for (int i = 0; i < 5; i++)
        fprintf(out, " %s: %llu", s_winner_names[i], U(r->winners[i]));
    fprintf(out, "\nhandicap games   %12llu\nrules           ", U(r->handicap_games));
    for (size_t i = 0; i < r->rules.n; i++)
        fprintf(out, " %s: %llu", r->rules.items[i].key, U(r->rules.items[i].count));
    fputs("\nkomi            ", out);
    for (size_t i = 0; i < r->komi.n; i++)
        fprintf(out, " %s: %llu", r->komi.items[i].key, U(r->komi.items[i].count));
    if (r->komi_contradicted)
        fprintf(out, "\nkomi unknown     %12llu  (a counted result the recorded komi cannot give, "
                "as W+5.5 under Fox's KM[0]: their scores use the recorded komi)",
                U(r->komi_contradicted));
    fprintf(out, "\ntime             %12.3f s  (%d threads, %.0f games/s, %.1f MB/s)\n",
            r->seconds, r->threads, r->seconds > 0 ? (double)r->games / r->seconds : 0.0,
            r->seconds > 0 ? (double)r->bytes / 1e6 / r->seconds : 0.0);
    if (r->num_failures) {
        fputs("\nfailures:\n", out);
        for (size_t i = 0; i < r->num_failures; i++) {
            const hs_ingest_failure_t *f = &r->failures[i];
            fputs("  ", out);
            s_plain(out, f->source);
            if (f->game >= 0)
                fprintf(out, " game %d", f->game + 1);
            fprintf(out, ": %s: ", hs_ingest_reason_name(f->reason));
            s_plain(out, f->message);
            fputc('\n', out);
        }
        if (r->num_failures < r->failed)
            fprintf(out, "  ... and %llu more\n", U(r->failed - r->num_failures));
    }
#undef U
}

int hs_cmd_ingest(int argc, char **argv)
{
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    int json = 0, dry = 0, progress = -1;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0;
    if (!paths)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            s_usage(stdout);
            free(paths);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) {
            dry = 1;
        } else if (!strcmp(a, "--follow-symlinks")) {
            o.follow_symlinks = true;
        } else if (!strcmp(a, "--progress")) {
            progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            progress = 0;
        } else if (!strcmp(a, "--threads") || !strcmp(a, "-j")) {
            if (hs__cli_int("ingest", a, i + 1 < argc ? argv[++i] : NULL, 1, 1024, &o.threads))
                goto usage;
        } else if (!strcmp(a, "--max-failures")) {
            if (hs__cli_long("ingest", a, i + 1 < argc ? argv[++i] : NULL, 1, LONG_MAX, &v))
                goto usage;
            o.max_failures = (size_t)v;
        } else if (!strcmp(a, "--max-member")) {
            if (hs__cli_long("ingest", a, i + 1 < argc ? argv[++i] : NULL, 1, LONG_MAX, &v))
                goto usage;
            o.max_member = (size_t)v;
        } else if (!strcmp(a, "--")) {
            for (i++; i < argc; i++)
                paths[npaths++] = argv[i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "hyeongse ingest: unknown option '%s'\n", a);
            goto usage;
        } else {
            paths[npaths++] = a;
        }
    }
    if (npaths == 0) {
        fprintf(stderr, "hyeongse ingest: no PATH given\n");
        goto usage;
    }
    if (hs__cli_check_paths("ingest", (char *const *)paths, npaths)) {
        free(paths);
        return 2;
    }
    if (!dry) {
        fprintf(stderr, "hyeongse ingest: only --dry-run is an ingest of its own; to analyze\n"
                        "the games use `hyeongse analyze PATH` (this machine) or\n"
                        "`hyeongse submit PATH --broker ADDR` (a cluster).\n");
        free(paths);
        return 2;
    }
    if (progress == 1 || (progress < 0 && isatty(fileno(stderr))))
        o.progress = stderr;

    hs_ingest_report_t rep;
    hs_error_t err;
    hs_error_clear(&err);
    int rc = hs_ingest_run(paths, npaths, &o, &rep, &err);
    free(paths);
    if (rc) {
        fprintf(stderr, "hyeongse ingest: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
        hs_ingest_report_fini(&rep);
        return 1;
    }
    if (json)
        s_print_json(stdout, &rep);
    else
        s_print_table(stdout, &rep);
    hs_ingest_report_fini(&rep);
    return fflush(stdout) == 0 ? 0 : 1;

usage:
    s_usage(stderr);
    free(paths);
    return 2;
}
