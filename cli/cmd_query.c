/*
 * cli/cmd_query.c — `hyeongse query`: read stored evaluations from a store
 * directory (read-only; works while a broker writes to it). The selection,
 * filters and output formats live in store/query.h; this file only parses
 * arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/sgf.h"
#include "store/query.h"
#include "store/store.h"

const char hs_cmd_query_summary[] = "query stored evaluations (by game, player, move, swing, position; stats)";

static void s_usage(FILE *out)
{
    fprintf(out,
        "usage: hyeongse query --db DIR [stats | failed] [game ID | --path SOURCE | --player NAME]\n"
        "                      [--move N] [--swing POINTS] [--engine SPEC] [--ownership]\n"
        "                      [--limit N] [--format table|jsonl|csv] [--json]\n"
        "       hyeongse query --db DIR --position FILE.sgf --move N [--game K]\n"
        "                      [--engine SPEC] [--no-games] [--ownership] [--format F]\n"
        "\n"
        "Reads the store in DIR read-only (safe while a broker writes to it).\n"
        "\n"
        "  stats            one summary: games, failed_games, positions, evals, eval hit\n"
        "                   rate, dedupe rate, map size (with --json: ONE JSON object)\n"
        "  failed           the games that could not be read or analysed, with the reason\n"
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
        "By position:\n"
        "  --position FILE  read game K (default 0: the first) of this SGF file, replay\n"
        "                   it to --move N and print the stored evals of that position\n"
        "                   (key as the worker computes it: board, side to move, ko,\n"
        "                   komi, rules and the last 8 moves; when the store holds the\n"
        "                   game, its stored record is used), then every stored game\n"
        "                   that reached it and at which move (a scan of all stored\n"
        "                   positions; --no-games skips it). Exit status 3 when the\n"
        "                   position has no stored eval.\n"
        "\n"
        "Not yet: querying through a broker address (--broker); query the store\n"
        "directory instead (read-only access is safe while the broker runs).\n");
}

/* Reads the whole file: malloc'd buffer in *out (caller frees), 0 or HS_EIO/HS_ENOMEM. */
static int s_slurp(const char *path, char **out, size_t *len, hs_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hs_error_set(err, HS_EIO, "%s: cannot open", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *b = cap > ((size_t)64 << 20) ? NULL : realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf)
        return hs_error_set(err, HS_ENOMEM, "%s: too big or out of memory", path);
    if (bad) {
        free(buf);
        return hs_error_set(err, HS_EIO, "%s: read error", path);
    }
    *out = buf;
    *len = n;
    return 0;
}

/*
 * --position: game `index` of the SGF file, replayed to q->move, looked up. The
 * game the store holds under the same id (same size, setup, moves and komi) is
 * preferred: that record is exactly what the worker replayed.
 */
static int s_query_position(hs_store_t *s, const char *path, int index, const hs_query_t *q,
                            bool games, int64_t *evals, hs_error_t *err)
{
    char *data = NULL;
    size_t len = 0;
    int rc = s_slurp(path, &data, &len, err);
    if (rc)
        return rc;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(data, len, NULL, HS_SGF_RECOVER, err);
    free(data);
    if (!c)
        return err->code ? err->code : HS_EPARSE;
    hs_error_clear(err);
    if (index >= c->num_trees) {
        rc = hs_error_set(err, HS_EINVAL, "%s has %d game(s); no game %d", path, c->num_trees,
                          index);
        hs_sgf_destroy(&c);
        return rc;
    }
    const hs_sgf_tree_t *t = &c->trees[index];
    if (t->status || !t->root) {
        rc = hs_error_set(err, HS_EPARSE, "%s game %d: %s", path, index,
                          t->message && *t->message ? t->message : "empty game tree");
        hs_sgf_destroy(&c);
        return rc;
    }
    hs_game_t g;
    rc = hs_game_from_sgf(t->root, &g, err);
    hs_sgf_destroy(&c);
    if (rc)
        return rc;
    hs_game_t stored;
    bool have = hs_store_game_get(s, g.id, &stored, NULL, NULL, NULL) == 0;
    uint8_t key[16];
    rc = hs_query_position_key(have ? &stored : &g, q->move, key, err);
    if (have) {
        hs_wire_game_t w = { .game = stored };
        hs_wire_game_fini(&w);
    }
    hs_game_fini(&g);
    if (rc)
        return rc;
    int64_t reached = 0;
    rc = hs_query_position(s, key, q, games, stdout, evals, &reached, err);
    if (rc == 0 && q->format == HS_QUERY_TABLE)
        fprintf(stderr, "%lld evals, %lld stored game positions%s\n", (long long)*evals,
                (long long)reached, games ? "" : " (not searched)");
    return rc;
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
    bool stats = false, json = false, failed = false;
    const char *engine = NULL, *position = NULL, *game_arg = NULL;
    bool games = true;
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
        } else if (!strcmp(a, "failed")) {
            failed = true;
        } else if (!strcmp(a, "game") || !strcmp(a, "--game")) {
            if (!s_need(argc, argv, i)) return 2;
            game_arg = argv[++i];   /* a game id, or with --position an index */
        } else if (!strcmp(a, "--position")) {
            if (!s_need(argc, argv, i)) return 2;
            position = argv[++i];
        } else if (!strcmp(a, "--no-games")) {
            games = false;
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
    int game_index = 0;
    if (position) {
        if (q.move < 0) {
            fprintf(stderr, "hyeongse query: --position needs --move N\n");
            return 2;
        }
        if (stats || q.source || q.player || q.swing > 0) {
            fprintf(stderr, "hyeongse query: --position goes with --move, --game K, --engine, "
                            "--no-games, --ownership and --format only\n");
            return 2;
        }
        if (game_arg) {
            char *end;
            long k = strtol(game_arg, &end, 10);
            if (*end || k < 0 || k > 1000000) {
                fprintf(stderr, "hyeongse query: with --position, --game K is the game's index "
                                "in the file (0 = the first)\n");
                return 2;
            }
            game_index = (int)k;
        }
    } else {
        q.game = game_arg;
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
    } else if (failed) {
        int64_t rows = 0;
        rc = hs_query_failed(s, stdout, q.format, &rows, &err);
        if (rc == 0 && q.format == HS_QUERY_TABLE)
            fprintf(stderr, "%lld failed games\n", (long long)rows);
    } else if (position) {
        int64_t evals = 0;
        rc = s_query_position(s, position, game_index, &q, games, &evals, &err);
        hs_store_close(&s);
        if (rc) {
            fprintf(stderr, "hyeongse query: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
            return 1;
        }
        return evals ? 0 : 3;
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
