/*
 * store/query.h — the query layer behind `hyeongse query`: select games (by id,
 * source path, player, or all), positions (one move or all), filter (score swing,
 * engine), and print rows as a table, JSON lines or CSV; and the stats object.
 *
 * Rows: one per (game, move number, engine) with the stored evaluation and the
 * game's record: game (32 hex), move, engine (spec), score_lead, win_rate,
 * swing, result, black, white, source, komi, re, komi_fits, error, then the
 * net's score_stdev and policy and a search's visits, best, pv and moves; with
 * `ownership` (JSON lines only) also the ownership map. docs/QUERY.md ("Rows")
 * gives every field of every row type: its type, unit, which engines fill it
 * and how a missing value is written. In short: all values are Black's view;
 * a JSON row has every field of its type, null where there is no value; CSV
 * leaves the cell empty; JSON and CSV write every stored float exactly
 * (hs_query_number), the table rounds.
 * "swing" is the change of score_lead from the previous evaluated move of the same
 * game and engine (empty for the first); the --swing N filter keeps rows whose
 * |swing| > N.
 *
 * Reads only (works on a store opened HS_STORE_RDONLY while the writer runs).
 */
#ifndef HS_STORE_QUERY_H
#define HS_STORE_QUERY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/json.h"
#include "store/store.h"

typedef enum hs_query_format {
    HS_QUERY_TABLE = 0,
    HS_QUERY_JSONL,
    HS_QUERY_CSV,
} hs_query_format_t;

/* "table", "jsonl" / "json", "csv" -> format: 0 or HS_EINVAL. */
int hs_query_format_parse(const char *name, hs_query_format_t *out);

typedef struct hs_query {
    const char *game;        /* game id as 32 hex digits, or NULL */
    const char *source;      /* game by source path, or NULL */
    const char *player;      /* games where this name is Black or White, or NULL */
    int move;                /* one move number, or -1 for all */
    double swing;            /* > 0: only rows whose |swing| exceeds it */
    uint32_t engine_id;      /* 0 = every engine */
    hs_query_format_t format;
    bool ownership;          /* add the ownership map (JSON lines) */
    int64_t limit;           /* stop after this many rows (0 = no limit) */
    int64_t deadline_ms;     /* hs_clock_ms() past which the run stops, checked per
                              * game (0 = none): the broker runs queries on its own
                              * thread and must get back to its heartbeats */
} hs_query_t;

/* A query with every field at its default (all games, all moves, table). */
void hs_query_init(hs_query_t *q);

/*
 * How JSON and CSV write a number the store holds: the shortest plain decimal
 * (never an exponent) that reads back as exactly v — as a float32 when single
 * (the evals' fields: strtof gives v back), as a double otherwise (komi) —
 * with at least min_decimals decimals, and "0" for -0 (a -0.00 lead is no
 * lead). So a stored lead of 1.004 is "1.004" where "%.2f" said 1.00, and
 * 12 is "12.00" with min_decimals 2. Writes into buf (HS_QUERY_NUMBER_MAX
 * bytes) and returns it; NULL (nothing written) when v is NaN or infinite,
 * which JSON writes as null and CSV as an empty cell.
 */
#define HS_QUERY_NUMBER_MAX 64
const char *hs_query_number(double v, bool single, int min_decimals, char *buf);

/*
 * Runs q against s and writes the rows to out; *rows (may be NULL) gets the number
 * of rows written. Returns 0, HS_EINVAL (bad game id), HS_ENOTFOUND (no such game
 * id / source), HS_ETIMEOUT (q->deadline_ms passed: the rows written until then,
 * whole games, are in out and *rows), or a store error.
 */
int hs_query_run(hs_store_t *s, const hs_query_t *q, FILE *out, int64_t *rows,
                 hs_error_t *err);

/* ---- by position ---- */

/*
 * Position key of game g after move_number moves, computed by the replay cursor
 * the worker uses (core/replay.h): setup stones placed one by one, the side to
 * move taken from the first move when there are setup stones, the moves played
 * under g's rules with a superko history, then hs_position_key(board, g,
 * move_number) — so komi, rules and the last HS_POSKEY_HISTORY moves count. Use
 * the game as the store holds it (hs_store_game_get) when it is there: it is what
 * the worker was given. Returns 0, HS_EINVAL (move_number outside 0..num_moves),
 * HS_EILLEGAL (a move cannot be played; the message names it), HS_ENOMEM.
 */
int hs_query_position_key(const hs_game_t *g, int move_number, uint8_t key[16],
                          hs_error_t *err);

/*
 * Prints the stored evals of position pos_key: one row per engine (q->engine_id,
 * or every engine of the store), and with `games` also one row per stored (game,
 * move number) that reached the position (a scan of every stored position, see
 * hs_store_position_games). q->format and q->ownership apply; the other fields
 * of q are ignored (the caller resolves an --engine: hs_query_args_engine).
 * The two kinds of row share one stream: a JSON line starts with "kind"
 * ("eval" or "game"), a CSV row with the column kind (docs/QUERY.md).
 * *evals and *reached (may be NULL) get the row counts. A position with no
 * evals is not an error. Returns 0 or a store error.
 */
int hs_query_position(hs_store_t *s, const uint8_t pos_key[16], const hs_query_t *q,
                      bool games, FILE *out, int64_t *evals, int64_t *reached,
                      hs_error_t *err);

/* ---- by board (the board index; store/query_board.c) ---- */

/* One move played from the asked board, in the asked board's orientation. */
typedef struct hs_board_next {
    int x, y;                /* 0-based, y = 0 the top row; x = y = -1: a pass */
    int color;               /* HS_BLACK or HS_WHITE, who played it */
    int count;               /* games that played it here */
    int decided;             /* of those, games with a recorded winner */
    int wins;                /* of those, games the player of this move won */
    float eval_win_rate;     /* mean stored win rate after it (Black's view), NAN = none */
    float eval_lead;         /* mean stored score lead after it (Black's view), NAN = none */
    char eval_engine[64];    /* the engine those evals are from (mcts, net, judge), "" */
} hs_board_next_t;

/* One game that reached the asked board. */
typedef struct hs_board_hit {
    uint64_t game_id[2];
    int move_number;         /* the board stood after this many moves */
    int sym;                 /* symmetry from that game's orientation to the asked one */
} hs_board_hit_t;

typedef struct hs_board_answer {
    int size;
    hs_board_hit_t *hits;    /* game id / move order */
    int num_hits;
    /* Moves merged when the asked board's own symmetries map one onto another
     * (on an empty board the 4-4 points are one move), each shown at the image
     * with the smallest y*size+x; most played first, then by that vertex. */
    hs_board_next_t *next;
    int num_next;
} hs_board_answer_t;

/*
 * Answers "which stored games reached board b (in any orientation), and what was
 * played next" from the board index: no scan. The games' recorded results give
 * `wins`; the stored evals of the position after the next move give eval_*
 * (MCTS first, then net, then judge). *out is owned by the caller
 * (hs_board_answer_fini). 0, HS_EUNSUPPORTED (the store's index is incomplete:
 * "run hyeongse index --db DIR"), HS_ENOMEM or a store error.
 */
int hs_query_board(hs_store_t *s, const hs_board_t *b, hs_board_answer_t *out,
                   hs_error_t *err);

/* Frees what hs_query_board allocated and zeroes a. NULL-safe. */
void hs_board_answer_fini(hs_board_answer_t *a);

/*
 * Prints an answer: as a table (the games, then the next moves with count,
 * win % of their players and the stored evaluation) or with json as ONE JSON
 * object {"size":N,"games":[{"game":hex,"move":M},...],"next":[{"move":"Q16",
 * "color":"B","count":C,"decided":D,"wins":W,"win_rate":..,"lead":..,"engine":..}]}.
 */
int hs_board_answer_print(hs_store_t *s, const hs_board_answer_t *a, bool json, FILE *out,
                          hs_error_t *err);

/*
 * Writes the store's statistics: games, failed_games, positions, evals,
 * players, jobs, tasks, eval_lookups, eval_hits, eval_hit_rate, result_puts,
 * result_dups, dedupe_rate, games_refreshed, map_size, map_used, boards_bytes
 * (the board index's pages), boards_complete (true/false: whether the index
 * covers every game, see hs_store_boards_complete), and engines (the engine
 * specs with stored evals, in engine-id order). HS_QUERY_JSONL: ONE JSON
 * object (one line); HS_QUERY_CSV: a header of those names and one row (the
 * engines as one cell, "judge;influence@2"); table: aligned "name value"
 * lines. hs_query_stats is the same with json choosing JSONL or table.
 */
int hs_query_stats_as(hs_store_t *s, FILE *out, hs_query_format_t format, hs_error_t *err);
int hs_query_stats(hs_store_t *s, FILE *out, bool json, hs_error_t *err);

/*
 * Lists the games that could not be read or analysed: source and reason (and
 * the job), one row each (a game two jobs met is listed once for each), in
 * `format`, at most limit rows (0: all). *rows (may be NULL) gets the count.
 * Returns 0 or a store error.
 */
int hs_query_failed(hs_store_t *s, FILE *out, hs_query_format_t format, int64_t limit,
                    int64_t *rows, hs_error_t *err);

/*
 * Lists the players whose names begin with prefix ("" for all) with the number
 * of their games, in byte order of the names, in `format` (table: count and
 * name; jsonl: {"player":..,"games":N}; csv: player,games), at most limit rows
 * (0: all). *rows (may be NULL) gets the count. Returns 0 or a store error.
 */
int hs_query_players(hs_store_t *s, const char *prefix, FILE *out, hs_query_format_t format,
                     int64_t limit, int64_t *rows, hs_error_t *err);

/*
 * No game of player `name`: writes to out the hint both `query --player` and
 * `report --player` give, "no stored game of a player named exactly 'NAME';
 * names that begin with it: A (3 games), B (1 game) (`hyeongse query players
 * PREFIX` lists names)" and a newline. 0 or a store error.
 */
int hs_query_player_hint(hs_store_t *s, const char *name, FILE *out, hs_error_t *err);

/* hs_json_string (a JSON string literal) is core/json.h's, included above. */

/* ---- the arguments of `hyeongse query`, shared by the CLI and the broker ---- */

/*
 * The parsed arguments of `hyeongse query`. The CLI (`query --db`) and the broker
 * (a QUERY from `query --broker`) parse the same words with hs_query_args_parse and
 * run them with hs_query_args_run, so both print the same bytes. String fields
 * point into the argv given to the parser (keep it alive while a is used).
 */
typedef struct hs_query_args {
    hs_query_t q;            /* selection, filters and format (q.engine_id set from engine) */
    bool help;               /* --help / -h */
    bool stats, failed;      /* the "stats" and "failed" subcommands */
    bool players;            /* the "players [PREFIX]" subcommand */
    const char *players_prefix;  /* its PREFIX, or NULL for every player */
    bool json;               /* --json (stats: one JSON object; rows: jsonl) */
    bool games;              /* --position: list the games that reached it (not --no-games) */
    const char *db;          /* --db DIR, or NULL */
    const char *broker;      /* --broker ADDR, or NULL */
    const char *position;    /* --position FILE.sgf, or NULL */
    const char *board;       /* --board FILE.sgf, or NULL (the board index) */
    const char *engine;      /* --engine SPEC, or NULL (the CLI puts its canonical
                              * form here: "influence@1" is "influence") */
    const char *engine_typed;  /* that SPEC as typed, for messages (the parser sets
                                * it with engine; the canonical form leaves it) */
    int engine_arg;          /* argv index of that SPEC (the last --engine), -1 if none:
                              * the CLI puts its canonical form there */
    int game_index;          /* with --position or --board: --game K less 1 (0 = the
                              * first game, the default) */
    int timeout_ms;          /* --timeout MS: per try of a --broker request (0 = default) */
} hs_query_args_t;

/*
 * Parses the arguments after the command name (argv[0] is the first argument,
 * not "query"). Checks what goes together (--position needs --move, and so on)
 * but not --db / --broker, which the caller decides. Returns 0 or HS_EINVAL with
 * a message for the user ("--move needs a number 0..65535").
 */
int hs_query_args_parse(int argc, char *const *argv, hs_query_args_t *a, hs_error_t *err);

/*
 * The engine id a->engine reads in store s (0 without --engine): the stored
 * spec equal to it; else, for a spec without options ("net", "net@1"), the
 * store's one spec "NAME[@R]:options" of that name and revision (a net's spec
 * names the net's hash, which nobody types), said on note (NULL = none) in
 * every format, since it is not the spec typed. Returns 0; HS_ENOTFOUND when
 * the store holds no evals of that engine ("--engine 'jugde': the store holds
 * no evals of that engine; its engines: influence@2, judge"), so that a typo or
 * a revision never stored is an error, not an empty answer; HS_EINVAL when a
 * name stands for several specs (they are listed); or a store error.
 */
int hs_query_args_engine(hs_store_t *s, const hs_query_args_t *a, FILE *note,
                         uint32_t *engine_id, hs_error_t *err);

/*
 * Runs parsed arguments against s: stats, failed, or the row query, the output
 * to out and the notes a terminal user sees on stderr ("12 rows", "3 failed
 * games", for the table format only) to note (NULL = none). --position is not
 * run here, nor --board (they read a local SGF file: the CLI does it):
 * HS_EUNSUPPORTED.
 * *rows (may be NULL) gets the rows written (0 for stats).
 * Returns 0, HS_EINVAL (bad game id), HS_ENOTFOUND (no such game id / source,
 * no such engine: hs_query_args_engine), or a store error.
 */
int hs_query_args_run(hs_store_t *s, const hs_query_args_t *a, FILE *out, FILE *note,
                      int64_t *rows, hs_error_t *err);

/*
 * QUERY text on the wire (docs/PROTOCOL.md): every argument followed by one unit
 * separator byte (0x1F), so "" is no argument and an empty argument survives.
 * hs_query_args_join: *text malloc'd (caller frees); HS_EINVAL when an argument
 * holds 0x1F, HS_ENOMEM. hs_query_args_split: *argv is ONE malloc'd block (the
 * pointers, then the strings; caller frees *argv only), *argc its count;
 * HS_EINVAL when text does not end with 0x1F or has more than 256 arguments.
 */
#define HS_QUERY_ARG_SEP '\x1f'
/* QUERY_REPLY text: the notes (stderr of `query --db`), this byte (0x1E), then
 * the output byte for byte (the stdout of `query --db`). */
#define HS_QUERY_REPLY_SEP '\x1e'
int hs_query_args_join(int argc, char *const *argv, char **text, hs_error_t *err);
int hs_query_args_split(const char *text, int *argc, char ***argv, hs_error_t *err);

#endif
