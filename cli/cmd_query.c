/*
 * cli/cmd_query.c — `hyeongse query`: read stored evaluations from a store
 * directory (read-only; works while a broker writes to it), or through a
 * broker (--broker ADDR: a QUERY message). The arguments are parsed and run by
 * store/query.h (hs_query_args_*), the same code the broker runs for a QUERY;
 * this file adds --position and --board (a local SGF file) and the remote
 * request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "broker/client.h"
#include "fault_guard.h"
#include "keys.h"
#include "sgf_file.h"
#include "store/query.h"
#include "store/store.h"
#include "worker/engine.h"

const char hs_cmd_query_summary[] = "query stored evaluations (by game, player, move, swing, position, board; stats)";

static void s_usage(FILE *out)
{
    fprintf(out,
        "usage: hyeongse query (--db DIR | --broker ADDR)\n"
        "                      [stats | failed | players [PREFIX]]\n"
        "                      [game ID | --path SOURCE | --player NAME]\n"
        "                      [--move N] [--swing POINTS] [--engine SPEC] [--ownership]\n"
        "                      [--limit N] [--format table|jsonl|csv] [--json]\n"
        "       hyeongse query --db DIR --position FILE.sgf --move N [--game K]\n"
        "                      [--engine SPEC] [--no-games] [--ownership] [--format F]\n"
        "       hyeongse query --db DIR --board FILE.sgf --move N [--game K] [--json]\n"
        "\n"
        "Reads the store in DIR read-only (safe while a broker writes to it).\n"
        "\n"
        "  stats            one summary: games, failed_games (each broken source once),\n"
        "                   positions, evals, the broker's eval lookups for queries\n"
        "                   through it (eval_hits of eval_lookups; 0 of 0 in a store\n"
        "                   only `analyze` wrote), results stored and those that were\n"
        "                   repeats (result_dups of result_puts), map size, engines\n"
        "                   (--json: ONE JSON object; --format csv: a header, one row)\n"
        "  failed           the games that could not be read or analysed, with the\n"
        "                   reason, once for each job that met them\n"
        "  players [PREFIX] the players whose names begin with PREFIX (all without\n"
        "                   it), each with the number of its games, in byte order\n"
        "  game ID          one game by its 32-hex-digit id (also --game ID), as the\n"
        "                   table's first column prints it\n"
        "  --path SOURCE    one game by its source path (\"archive.tar.gz:dir/x.sgf\")\n"
        "  --player NAME    every game where NAME played Black or White (the exact\n"
        "                   name; with no game, the names that begin with NAME are\n"
        "                   shown on stderr)\n"
        "  (none of these)  every game in the store\n"
        "                   (one of stats, failed, players, game ID, --path and\n"
        "                   --player at a time)\n"
        "  --move N         only position N (after N moves; 0 = the start)\n"
        "  --swing POINTS   only moves where the score estimate changed by more than\n"
        "                   POINTS since the previous evaluated move\n"
        "  --engine SPEC    only this engine configuration (\"judge\", \"influence\"): the\n"
        "                   revision this build computes; \"judge@1\" reads revision 1;\n"
        "                   \"net\" the store's one net:net=HASH. A SPEC the store holds\n"
        "                   no evals of is an error (exit status 3) that lists those\n"
        "                   it holds\n"
        "  --ownership      add the ownership map to each row (JSON only: with --json)\n"
        "  --limit N        stop after N rows\n"
        "  --format F       table (default), jsonl, or csv; --json = --format jsonl.\n"
        "                   JSON and CSV give the stored numbers whole, and the game's\n"
        "                   komi, RE and komi_fits; every field: docs/QUERY.md \"Rows\"\n"
        "\n"
        "By position:\n"
        "  --position FILE  read game K (default 1: the first) of this SGF file, replay\n"
        "                   it to --move N and print the stored evals of that position\n"
        "                   (key as the worker computes it: board, side to move, ko,\n"
        "                   komi, rules and the last 8 moves; when the store holds the\n"
        "                   game, its stored record is used), then every stored game\n"
        "                   that reached it and at which move (a scan of all stored\n"
        "                   positions; --no-games skips it). Exit status 3 when the\n"
        "                   position has no stored eval. JSON lines of both kinds\n"
        "                   share the stream: each begins with \"kind\":\"eval\"|\"game\".\n"
        "\n"
        "By board (the board index; no scan):\n"
        "  --board FILE     read game K (default 1: the first) of this SGF file, replay\n"
        "                   it to --move N and list every stored game that reached\n"
        "                   the same stones in any of the 8 orientations (not the side\n"
        "                   to move, ko, komi or rules), at which move, then the moves\n"
        "                   played next in this file's orientation: count, win %% of\n"
        "                   the players who chose them (recorded results), and the\n"
        "                   mean stored win rate and lead after them (mcts, else net,\n"
        "                   else judge). --json: one JSON object. Exit status 3 when\n"
        "                   no stored game reached the board. A store written before\n"
        "                   the index needs `hyeongse index --db DIR` first.\n"
        "\n"
        "Through a broker:\n"
        "  --broker ADDR    instead of --db DIR: the broker runs the same query on its\n"
        "                   store and sends the output back (byte for byte what --db\n"
        "                   prints). Not with --position or --board (they read a\n"
        "                   local file). The broker caps a reply at 8 MiB, 200,000\n"
        "                   rows and half its heartbeat interval (it runs on the\n"
        "                   broker's thread); a cut reply says \"truncated\" on\n"
        "                   stderr. Prefer --db on the broker's host for big exports.\n"
        "  --timeout MS     wait this long per try for the broker (default 30000; 3 tries)\n"
        "  --key FILE       this client's key pair (PREFIX.key or PREFIX; made by\n"
        "                   `hyeongse keygen`): talk CURVE to the broker\n"
        "  --server-key K   the broker's public key: its .pub or .key file, or the\n"
        "                   40-character key itself (needed with --key)\n"
        "\n"
        "  --config FILE    options from a file (\"option value\" lines)\n");
}

/*
 * --position: game `index` of the SGF file, replayed to q->move, looked up. The
 * game the store holds under the same id (same size, setup, moves and komi) is
 * preferred: that record is exactly what the worker replayed.
 */
static int s_query_position(hs_store_t *s, const char *path, int index, const hs_query_t *q,
                            bool games, int64_t *evals, hs_error_t *err)
{
    hs_game_t g;
    int rc = hs__cli_sgf_game(path, index, &g, err);
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

/*
 * --board: game `index` of the SGF file replayed to `move` (with the game's
 * rules), then looked up in the board index. *hits gets the games found.
 */
static int s_query_board(hs_store_t *s, const hs_query_args_t *a, int64_t *hits,
                         hs_error_t *err)
{
    hs_board_t b;
    int rc = hs__cli_sgf_board(a->board, a->game_index, a->q.move, &b, err);
    if (rc)
        return rc;
    hs_board_answer_t ans;
    rc = hs_query_board(s, &b, &ans, err);
    if (rc == HS_EUNSUPPORTED)
        return hs_error_set(err, rc, "the board index of %s is incomplete (the store was "
                            "written before it): run `hyeongse index --db %s`", a->db, a->db);
    if (rc == 0)
        rc = hs_board_answer_print(s, &ans, a->json, stdout, err);
    if (rc == 0 && !a->json)
        fprintf(stderr, "%d stored game positions, %d next moves\n", ans.num_hits,
                ans.num_next);
    *hits = ans.num_hits;
    hs_board_answer_fini(&ans);
    return rc;
}

/*
 * Takes --key FILE and --server-key K out of args (they are this command's,
 * not the query's that the broker parses) into *keys. Returns the new count,
 * or -1 when one lacks its value.
 */
static int s_take_keys(int argc, char **args, hs_cli_keys_t *keys)
{
    int n = 0;
    for (int i = 0; i < argc; i++) {
        bool k = !strcmp(args[i], "--key"), sk = !strcmp(args[i], "--server-key");
        if (!k && !sk) {
            args[n++] = args[i];
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "hyeongse query: %s needs a value\n", args[i]);
            return -1;
        }
        *(k ? &keys->key : &keys->server_key) = args[++i];
    }
    args[n] = NULL;
    return n;
}

/* `query --broker ADDR`: sends the other arguments as one QUERY; prints the reply. */
static int s_query_remote(const hs_query_args_t *a, const hs_cli_keys_t *keys, int argc,
                          char **argv)
{
    /* Every argument but --broker ADDR and --timeout MS goes to the broker, which
     * parses them again with the same hs_query_args_parse. */
    char **send = calloc((size_t)argc + 1, sizeof *send);
    int n = 0;
    if (!send) {
        fprintf(stderr, "hyeongse query: out of memory\n");
        return 1;
    }
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--broker") || !strcmp(argv[i], "--timeout"))
            i++;
        else
            send[n++] = argv[i];
    }
    hs_error_t err = { 0 };
    char *text = NULL;
    int rc = hs_query_args_join(n, send, &text, &err);
    free(send);
    if (rc < 0) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg);
        return 2;
    }
    hs_client_t *cl = NULL;
    rc = hs__cli_client_new("query", keys, NULL, a->broker,
                            a->timeout_ms > 0 ? a->timeout_ms : 30000, 2, &cl, &err);
    hs_wire_msg_t m, r;
    hs_wire_msg_init(&m, HS_WIRE_QUERY);
    m.text = text;
    if (rc == 0)
        rc = hs_client_request(cl, &m, &r, &err);
    free(text);
    hs_client_destroy(&cl);
    if (rc < 0) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
        return rc == HS_ENOTFOUND ? 3 : 1;
    }
    if (r.type != HS_WIRE_QUERY_REPLY || !r.text) {
        hs_wire_msg_fini(&r);
        fprintf(stderr, "hyeongse query: unexpected reply from the broker\n");
        return 1;
    }
    /* The reply: the notes for stderr, one RS byte, then the output byte for byte. */
    const char *out = strchr(r.text, HS_QUERY_REPLY_SEP);
    if (out) {
        fwrite(r.text, 1, (size_t)(out - r.text), stderr);
        out++;
    } else {
        out = r.text;
    }
    fwrite(out, 1, strlen(out), stdout);
    fflush(stdout);
    hs_wire_msg_fini(&r);
    return 0;
}

/*
 * `--engine judge` means the revision this build computes, as `--engines` of
 * analyze and submit do (worker/engine.h, "Revisions"); "judge@1" reads the
 * evals of revision 1. The spec is the one the parser took (the last --engine,
 * an option value like any other) and is checked as --engines is: a known
 * engine with a bad revision or options is refused, while a name this build does
 * not know is looked up as given (another build may have stored it). The
 * canonical text also replaces the argument, so that `--broker` sends it.
 */
static int s_canonical_engine(hs_query_args_t *a, char **args, char *canon, size_t size,
                              hs_error_t *err)
{
    int rc = hs_engine_canonical_list(a->engine, 1, 0, canon, size, err);
    if (rc == HS_ENOTFOUND) {
        hs_error_clear(err);
        return 0;
    }
    if (rc < 0)
        return rc;
    a->engine = canon;
    a->q.engine_id = hs_engine_config_id(canon);
    args[a->engine_arg] = canon;
    return 0;
}

/* `query --db DIR`: the store opened, queried and closed (run under the guard). */
typedef struct {
    const hs_query_args_t *a;
    bool opened, position, board;
    bool no_engine;          /* --engine names no stored engine: exit 3, "not found" */
    int64_t evals, hits;
} s_local_t;

/* --position: the --engine resolved against the store as the row query does
 * (a bare "net" is the store's one net spec; an unknown one is not found). */
static int s_local_position(hs_store_t *s, s_local_t *l, hs_error_t *err)
{
    hs_query_t q = l->a->q;
    int rc = hs_query_args_engine(s, l->a, stderr, &q.engine_id, err);
    l->no_engine = rc == HS_ENOTFOUND;
    if (rc == 0)
        rc = s_query_position(s, l->a->position, l->a->game_index, &q, l->a->games, &l->evals,
                              err);
    return rc;
}

static int s_query_local(void *ctx, hs_error_t *err)
{
    s_local_t *l = ctx;
    hs_store_t *s = NULL;
    int rc = hs_store_open(&s, l->a->db, HS_STORE_RDONLY, 0, err);
    if (rc)
        return rc;
    l->opened = true;
    l->position = l->a->position != NULL;
    l->board = l->a->board != NULL;
    if (l->board)
        rc = s_query_board(s, l->a, &l->hits, err);
    else if (l->position)
        rc = s_local_position(s, l, err);
    else
        rc = hs_query_args_run(s, l->a, stdout, stderr, NULL, err);
    hs_store_close(&s);
    return rc;
}

int hs_cmd_query(int argc, char **argv)
{
    hs_query_args_t a;
    hs_error_t err;
    hs_error_clear(&err);
    hs_cli_keys_t keys = { 0 };
    argc = s_take_keys(argc, argv, &keys);
    if (argc < 0)
        return 2;
    if (hs_query_args_parse(argc - 1, argv + 1, &a, &err) < 0) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg);
        return 2;
    }
    char canon[HS_ENGINE_NAME_MAX + 256];
    if (a.engine && s_canonical_engine(&a, argv + 1, canon, sizeof canon, &err) < 0) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg);
        return 2;
    }
    if (a.help) {
        s_usage(stdout);
        return 0;
    }
    if (!a.db == !a.broker) {
        fprintf(stderr, "hyeongse query: give one of --db DIR or --broker ADDR (see --help)\n");
        return 2;
    }
    if (a.broker) {
        if (a.position || a.board) {
            fprintf(stderr, "hyeongse query: %s reads a local SGF file; "
                            "query the store with --db DIR\n",
                    a.position ? "--position" : "--board");
            return 2;
        }
        if (hs__cli_keys_check("query", &keys))
            return 2;
        return s_query_remote(&a, &keys, argc - 1, argv + 1);
    }
    if (keys.key || keys.server_key) {
        fprintf(stderr, "hyeongse query: --key and --server-key are for --broker ADDR\n");
        return 2;
    }
    /* Under the fault guard (cli/fault_guard.h): a damaged store is an error. */
    s_local_t l = { .a = &a };
    int rc = hs_cli_guarded(s_query_local, &l, a.db, true, &err);
    if (rc) {
        fprintf(stderr, "hyeongse query: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
        if (l.position || l.board)
            return l.no_engine ? 3 : 1;
        return rc == HS_ENOTFOUND && l.opened ? 3 : 1;
    }
    if (l.board)
        return l.hits ? 0 : 3;
    return l.position && !l.evals ? 3 : 0;
}
