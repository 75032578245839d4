/*
 * worker/gtp_game.h — the game a GTP session stands on: board size, rules,
 * komi, the position before the first move (setup and handicap stones) and
 * every move since, plus what the net needs of that history (the last moves,
 * the two boards before the last two moves, the stones each side has put
 * down). The GTP front end (worker/gtp.h) holds one; genmove and analysis
 * (the MCTS issue) read the same state, which is why it is a module of its
 * own and not part of the command loop.
 *
 * Moves are kept from the start position on, so that a change of rules
 * (kata-set-rules) can rebuild the superko history the new rules need, and so
 * that a later `undo` can replay to any earlier move.
 *
 * Legality of `play`: simple ko, suicide per the rules and superko per the
 * rules (positional or situational), as core/rules.h judges them. Loading a
 * record is tolerant as KataGo's loadsgf is: a move that only superko forbids
 * is played anyway (records of other rule sets contain them). Replaying
 * (hs_gtp_game_replay: an analysis query's `moves`; and the rebuild of the
 * moves already taken, after a change of rules or an undo) is tolerant as
 * KataGo's makeBoardMoveTolerant: a simple-ko recapture and a suicide of
 * more than one stone are played too, whatever the rules.
 *
 * Ownership: hs_gtp_game_init / hs_gtp_game_fini; plain data otherwise. One
 * thread at a time.
 */
#ifndef HS_WORKER_GTP_GAME_H
#define HS_WORKER_GTP_GAME_H

#include <stdbool.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/rules.h"
#include "worker/nn/features.h"

typedef struct hs_gtp_move {
    hs_color_t color;
    hs_point_t point;          /* HS_PASS for a pass */
} hs_gtp_move_t;

/* The history KataGo counts a handicap from: its first board, the start's
 * or the one before the last move played out of turn (KataGo clears its
 * history there; a controller such as Sabaki sends a handicap as `play B`
 * moves, each after the first out of turn), and Black's stones played on
 * it before White's first. Its handicap: black + blacks when the board
 * holds no white stone and that is 2 or more, else none. */
typedef struct hs_gtp_opening {
    int black, white;          /* stones on its first board */
    int blacks;                /* Black's stones played before White's first */
    bool white_moved;          /* White has played a stone (a pass is none) */
} hs_gtp_opening_t;

typedef struct hs_gtp_game {
    hs_rules_t rules;
    double komi;               /* White's komi as the controller set it */
    /* Black's handicap stones, as the net's komi and final_score count them:
     * the larger of handicap_start and KataGo's count (its
     * assumeMultipleStartingBlackMovesAreHandicap, on by default; see
     * opening), kept by every change of the game. */
    int handicap;
    int handicap_start;        /* the start's, as given: loadsgf's HA (0 after clear_board) */
    hs_board_t start;          /* before the first move: empty, or the record's setup */
    int setup_black, setup_white;   /* stones of each colour on start */
    hs_gtp_move_t *moves;      /* every move since start */
    int num_moves, cap_moves;
    hs_board_t board;          /* the position now */
    hs_board_t prev[2];        /* before the last move [0] and the one before [1] */
    hs_history_t hist;         /* superko keys under `rules` */
    int stones_black, stones_white;  /* setup plus non-pass moves */
    hs_gtp_opening_t opening;  /* what `handicap` is counted from */
} hs_gtp_game_t;

/* An empty size x size board (2..HS_NN_MAX_SIZE) under rules and komi.
 * HS_EINVAL for a bad size, HS_ENOMEM; free with hs_gtp_game_fini either way. */
int hs_gtp_game_init(hs_gtp_game_t *g, int size, hs_rules_id_t rules, double komi,
                     hs_error_t *err);

/* Counts g->start's stones into setup_black and setup_white: after the start
 * board was set up (a record's setup, an analysis query's initial stones). */
void hs_gtp_game_count_setup(hs_gtp_game_t *g);

/* Frees the move list and history. NULL-safe; g may be init'ed again. */
void hs_gtp_game_fini(hs_gtp_game_t *g);

/* Clears the board (rules and komi stay); a new size when size > 0.
 * HS_EINVAL for a size outside 2..HS_NN_MAX_SIZE (the game is then unchanged). */
int hs_gtp_game_clear(hs_gtp_game_t *g, int size, hs_error_t *err);

/* New rules (komi stays); the superko history is rebuilt for them. */
int hs_gtp_game_set_rules(hs_gtp_game_t *g, hs_rules_id_t rules, hs_error_t *err);

/* Plays color at p (HS_PASS passes). HS_EILLEGAL (*reason says why; reason
 * may be NULL) leaves the game unchanged; HS_ENOMEM. */
int hs_gtp_game_play(hs_gtp_game_t *g, hs_color_t color, hs_point_t p, hs_illegal_t *reason,
                     hs_error_t *err);

/* Plays color at p as KataGo replays a query's moves
 * (makeBoardMoveTolerant): as hs_gtp_game_play, but a move that superko or
 * simple ko forbids, or the rules' ban on suicide when the move takes a
 * string of its own with it, is played anyway; a single stone's suicide, an
 * occupied point and one off the board are still HS_EILLEGAL. */
int hs_gtp_game_replay(hs_gtp_game_t *g, hs_color_t color, hs_point_t p, hs_illegal_t *reason,
                       hs_error_t *err);

/* Takes back the last move: the game is replayed from the start to the move
 * before it (so the superko history and the boards before are exact).
 * HS_EINVAL when no move was played since the start (the game is then
 * unchanged), HS_ENOMEM. */
int hs_gtp_game_undo(hs_gtp_game_t *g, hs_error_t *err);

/* Loads the position of record r before move `before` (1-based as GTP's
 * loadsgf counts; 1 = the start, past the end = after the last move): its
 * size, setup, handicap, who moves first (the first move's colour; in a
 * record without moves, PL, else White after Black's setup stones alone, as
 * KataGo's loadsgf), rules when RU names a rule set as
 * hs_analysis_parse_rules reads it (kata-set-rules' reading; else the
 * current rules stay) and komi when KM is given (else the current komi
 * stays). HS_EINVAL (size over 19, bad setup), HS_EILLEGAL naming a move no
 * rule set allows, HS_ENOMEM; the game is unchanged on error. */
int hs_gtp_game_load(hs_gtp_game_t *g, const hs_game_t *r, int before, hs_error_t *err);

/* The position now as the net reads it; pos points into g (valid until g
 * changes). */
void hs_gtp_game_pos(const hs_gtp_game_t *g, hs_nn_pos_t *pos);

#endif
