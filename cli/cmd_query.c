/*
 * cli/cmd_query.c — `hyeongse query`: read stored evaluations from a store
 * directory (read-only; works while a broker writes to it). The selection,
 * filters and output formats live in store/query.h; this file only parses
 * arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/query.h"
#include "store/store.h"

const char hs_cmd_query_summary[] = "query stored evaluations (by game, player, move, swing; stats)";

static void s_usage(FILE *out)
{
    fprintf(out,
        "usage: hyeongse query --db DIR [stats] [game ID | --path SOURCE | --player NAME]\n"
        "                      [--move N] [--swing POINTS] [--engine SPEC] [--ownership]\n"
        "                      [--limit N] [--format table|jsonl|csv] [--json]\n"
        "\n"
        "Reads the store in DIR read-only (safe while a broker writes to it).\n"
        "\n"
        "  stats            one summary: games, failed_games, positions, evals, eval hit\n"
        "                   rate, dedupe rate, map size (with --json: ONE JSON object)\n"
        "  game ID          one game by its 32-hex-digit id (also --game ID)\n"
        "  --path SOURCE    one game by its source path (\"archive.tar.gz:dir/x.sgf\")\n"
        "  --player NAME    every game where NAME played Black or White (exact name)\n"
        "  (none of these)  every game in the store\n"
        "  --move N         only position N (after N moves; 0 = the start)\n"
        "  --swing POINTS   only moves where the score estimate changed by more than\n"
        "                   POINTS since the previous evaluated move\n"
        "  --engine SPEC    only this engine configuration (\"judge\", \"influence\")\n"
        "  --ownership      add the ownership map to each row (jsonl)\n"
        "  --limit N        stop after N rows\n"
        "  --format F       table (default), jsonl, or csv; --json = --format jsonl\n"
        "\n"
        "Not yet: querying through a broker address (--broker), and by position\n"
        "(an SGF + move number); query a db directory instead.\n");
}

static int s_need(int argc, char **argv, int i)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "hyeongse query: %s needs a value\n", argv[i]);
        return 0;
    }
    return 1;
}

int hs_cmd_query(int argc, char **argv)
{
    const char *db = NULL;
    bool stats = false, json = false;
    const char *engine = NULL;
    hs_query_t q;
    hs_query_init(&q);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            s_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--db")) {
            if (!s_need(argc, argv, i)) return 2;
            db = argv[++i];
        } else if (!strcmp(a, "stats")) {
            stats = true;
        } else if (!strcmp(a, "game") || !strcmp(a, "--game")) {
            if (!s_need(argc, argv, i)) return 2;
            q.game = argv[++i];
        } else if (!strcmp(a, "--path")) {
            if (!s_need(argc, argv, i)) return 2;
            q.source = argv[++i];
        } else if (!strcmp(a, "--player")) {
            if (!s_need(argc, argv, i)) return 2;
            q.player = argv[++i];
        } else if (!strcmp(a, "--move")) {
            if (!s_need(argc, argv, i)) return 2;
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 65535) {
                fprintf(stderr, "hyeongse query: --move needs a number 0..65535\n");
                return 2;
            }
            q.move = (int)v;
        } else if (!strcmp(a, "--swing")) {
            if (!s_need(argc, argv, i)) return 2;
            char *end;
            q.swing = strtod(argv[++i], &end);
            if (*end || !(q.swing > 0)) {
                fprintf(stderr, "hyeongse query: --swing needs a positive number\n");
                return 2;
            }
        } else if (!strcmp(a, "--engine")) {
            if (!s_need(argc, argv, i)) return 2;
            engine = argv[++i];
        } else if (!strcmp(a, "--ownership")) {
            q.ownership = true;
        } else if (!strcmp(a, "--limit")) {
            if (!s_need(argc, argv, i)) return 2;
            q.limit = strtoll(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--format")) {
            if (!s_need(argc, argv, i)) return 2;
            if (hs_query_format_parse(argv[++i], &q.format)) {
                fprintf(stderr, "hyeongse query: unknown format '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--broker")) {
            fprintf(stderr, "hyeongse query: --broker is not supported yet; use --db DIR\n");
            return 2;
        } else {
            fprintf(stderr, "hyeongse query: unknown argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    if (!db) {
        fprintf(stderr, "hyeongse query: --db DIR is required (see --help)\n");
        return 2;
    }
    if (json)
        q.format = HS_QUERY_JSONL;
    if (engine)
        q.engine_id = hs_engine_config_id(engine);
    hs_store_t *s = NULL;
    hs_error_t err;
    hs_error_clear(&err);
    int rc = hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err);
    if (rc) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg);
        return 1;
    }
    if (stats) {
        rc = hs_query_stats(s, stdout, json, &err);
    } else {
        int64_t rows = 0;
        rc = hs_query_run(s, &q, stdout, &rows, &err);
        if (rc == 0 && q.format == HS_QUERY_TABLE)
            fprintf(stderr, "%lld rows\n", (long long)rows);
    }
    hs_store_close(&s);
    if (rc) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
        return rc == HS_ENOTFOUND ? 3 : 1;
    }
    return 0;
}
