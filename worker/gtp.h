/*
 * worker/gtp.h — a GTP (Go Text Protocol, version 2) engine front end over
 * the net evaluator: `hyeongse gtp` is this module reading stdin and writing
 * stdout. It lives in worker/ and not in cli/ because it needs only core/ and
 * worker/nn/ (no broker, no store), and because genmove and analysis (the
 * MCTS issue) are worker code that registers more commands on the same front
 * end.
 *
 * Commands are a table: name -> handler. The built-in ones (protocol_version,
 * name, version, known_command, list_commands, quit, boardsize, clear_board,
 * komi, play, loadsgf, kata-set-rules, kata-get-rules, showboard,
 * get_komi, stop, kata-raw-nn; and the search's: genmove, undo,
 * time_settings, time_left, kgs-time_settings, final_score,
 * final_status_list, clear_cache, kata-list-params, kata-get-param,
 * kata-set-param, lz-analyze, kata-analyze, lz-genmove_analyze,
 * kata-genmove_analyze, analyze, genmove_analyze) are registered by
 * hs_gtp_create; hs_gtp_register adds (or replaces) one. A handler sees the
 * words after the command name and writes its response text without the
 * framing; a handler that answers while it works (analysis) takes the output
 * stream with hs_gtp_stream instead.
 *
 * Input. hs_gtp_run reads stdin on a thread of its own into a queue, so that
 * a handler can ask hs_gtp_input_pending whether the controller has sent
 * another line (the analysis commands stop at the next line, as Leela Zero's
 * and KataGo's do); the commands themselves run one at a time on the calling
 * thread. hs_gtp_line handles one line synchronously (tests, the fuzz
 * target): there a following line is always taken as pending.
 *
 * Framing (as GTP 2 and KataGo do it): input lines lose control characters
 * other than tab (NUL bytes too, in hs_gtp_run's lines), everything from
 * '#', and surrounding blanks; tabs become spaces; empty lines are ignored.
 * A leading whole number, a word of its own, is the command's id ("1.5
 * name" has none: "1.5" is its command word); a line over 64 KiB is
 * answered "? line too long", with its id when it starts with one.
 * Success prints "=ID response\n\n" ("= response" without an id), failure
 * "?ID message\n\n". A response never contains an empty line (it would end
 * the response early): handlers' blank lines are dropped.
 *
 * Ownership: the front end borrows the evaluators (and the model), which must
 * outlive it, and owns its game (worker/gtp_game.h) and its search tree. One
 * thread calls it (hs_gtp_run's reader thread is internal).
 */
#ifndef HS_WORKER_GTP_H
#define HS_WORKER_GTP_H

#include <stdio.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/rules.h"
#include "worker/gtp_game.h"
#include "worker/mcts.h"
#include "worker/nn/eval.h"

typedef struct hs_gtp hs_gtp_t;

/* A command: argv[0..argc) are the words after its name. Returns 0 with the
 * response in resp, or nonzero with the error message in resp. */
typedef int (*hs_gtp_handler_t)(hs_gtp_t *gtp, void *ctx, int argc, char **argv,
                                hs_buf_t *resp);

typedef struct hs_gtp_config {
    const hs_nn_model_t *model;   /* borrowed: the net eval runs */
    hs_nn_evaluator_t *eval;      /* borrowed; NULL: kata-raw-nn fails */
    hs_rules_id_t rules;          /* at start (the komi starts as their default) */
    const char *name;             /* `name` answers this ("hyeongse" if NULL) */
    const char *version;          /* `version` answers this ("" if NULL) */
    /* The search behind genmove and analysis. search_eval NULL: those
     * commands answer "? no search evaluator". */
    hs_mcts_evaluator_t *search_eval;   /* borrowed: rollouts or the net */
    hs_mcts_config_t search;      /* with search_eval (hs_mcts_config_default, then the
                                   * options): max_visits is genmove's budget */
    double move_time;             /* genmove's cap in seconds (0: none but the clock's) */
    double resign_threshold;      /* genmove resigns below this win rate (0: never) */
    int analysis_visits;          /* analysis stops here (0: 1,000,000) */
    int final_playouts;           /* final_score, final_status_list: the judge's
                                   * playouts (0: hs_judge_config_final's 256);
                                   * the GTP fuzz target lowers it for speed */
} hs_gtp_config_t;

/* A front end on an empty 19x19 board. HS_ENOMEM. Free with hs_gtp_free. */
int hs_gtp_create(const hs_gtp_config_t *cfg, hs_gtp_t **out, hs_error_t *err);

/* Frees and sets *g to NULL; NULL-safe. */
void hs_gtp_free(hs_gtp_t **g);

/* Adds a command, or replaces the handler of one of that name (list_commands
 * keeps the order of first registration). name is copied. HS_ENOMEM. */
int hs_gtp_register(hs_gtp_t *g, const char *name, hs_gtp_handler_t fn, void *ctx,
                    hs_error_t *err);

/* Handles one input line (without its newline), writing the framed response
 * to out (nothing for an empty line). Returns 1 once `quit` was answered,
 * else 0. */
int hs_gtp_line(hs_gtp_t *g, const char *line, FILE *out);

/* Handles lines from in until `quit` or end of input, flushing out after each
 * response. 0, or HS_EIO when out cannot be written (message in *err). */
int hs_gtp_run(hs_gtp_t *g, FILE *in, FILE *out, hs_error_t *err);

/* For handlers: whether another input line (or the end of input) is waiting.
 * Always 1 outside hs_gtp_run. */
int hs_gtp_input_pending(hs_gtp_t *g);

/* Waits up to `seconds` for input to be pending (returns at once outside
 * hs_gtp_run); for a handler whose work is done but whose answer runs until
 * the next line (an analysis that reached its visit limit). */
void hs_gtp_wait_input(hs_gtp_t *g, double seconds);

/* For handlers that answer while they work: writes the success header ("=ID"
 * and a newline) once, flushed, and returns the output stream, to be written a line at
 * a time (never an empty line). After the handler returns, what it left in
 * its response buffer follows and an empty line ends the response (a failure
 * status is ignored once the header is out). */
FILE *hs_gtp_stream(hs_gtp_t *g);

/* For handlers: the session's game, the configuration it was created with,
 * and ending the session after the current response. */
hs_gtp_game_t *hs_gtp_game(hs_gtp_t *g);
const hs_gtp_config_t *hs_gtp_config(const hs_gtp_t *g);
void hs_gtp_request_quit(hs_gtp_t *g);

/* Whether a command of this name is registered. */
int hs_gtp_known(const hs_gtp_t *g, const char *name);

/* Calls fn(ctx, name) for every command in registration order. */
void hs_gtp_each_command(const hs_gtp_t *g, void (*fn)(void *ctx, const char *name), void *ctx);

/* printf into a response buffer (errors stick in resp->err as hs_buf's do). */
void hs_gtp_printf(hs_buf_t *resp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
