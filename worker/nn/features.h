/*
 * worker/nn/features.h — KataGo's V7 network inputs (model versions 8-16):
 * 22 spatial planes and 19 global values for one position, from the side to
 * move's point of view. Every plane and value is documented in docs/NET.md.
 *
 * Layout: spatial[plane * N * N + y * N + x] for an N x N board (N <= 19); the
 * network runs on an N x N grid, so there is no padding and plane 0 is all
 * ones. Ladders come from the fast ladder reader (worker/tactics.h),
 * pass-alive areas from Benson's algorithm (worker/stability.h). Rules are
 * encoded as KataGo encodes the rule sets of the same names (so "chinese" is
 * simple ko with area scoring, "korean" equals "japanese").
 *
 * Not (yet) encoded: superko-banned points (plane 6 marks only the simple-ko
 * point), the encore of territory rules (planes 7, 8, 20, 21 and globals
 * 12-13 stay 0), playout-doubling advantage (15-16) and the button (17).
 *
 * Threads: pure functions of their arguments.
 */
#ifndef HS_WORKER_NN_FEATURES_H
#define HS_WORKER_NN_FEATURES_H

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/rules.h"

#define HS_NN_SPATIAL 22
#define HS_NN_GLOBAL 19
/* moves of history a position carries: KataGo's inputs read the last 5
 * (HS_NN_KATAGO_HISTORY), our own input set's 8 board planes need 7 */
#define HS_NN_HISTORY 8
#define HS_NN_KATAGO_HISTORY 5
#define HS_NN_MAX_SIZE 19

/* Which inputs a model reads (hs_nn_model_t.input_set). Both have
 * HS_NN_SPATIAL planes and HS_NN_GLOBAL values, so every backend runs either.
 *  KATAGO_V7: KataGo's V7 features (below), for KataGo's .bin.gz models.
 *  HS_V1:     hyeongse's own nets (docs/NET.md, "Our own input planes"): the
 *             patent's 18 planes plus 4 liberty planes; globals all zero:
 *   0-7   the side to move's stones now and 1..7 moves ago
 *   8-15  the opponent's stones now and 1..7 moves ago
 *   16    all ones when Black is to move;  17  all ones when White is to move
 *   18-19 the side to move's strings with 1, with 2 liberties (now)
 *   20-21 the opponent's strings with 1, with 2 liberties (now)
 *   History boards: 1 move ago is prev1 and 2 moves ago prev2 where given;
 *   older boards (and missing prev1/prev2) are the next newer board with the
 *   stone of the move between them taken off (stones that move captured are
 *   not put back). Before the game's first position the planes are zero. */
typedef enum hs_nn_input_set {
    HS_NN_INPUT_KATAGO_V7 = 0,
    HS_NN_INPUT_HS_V1 = 1
} hs_nn_input_set_t;

typedef struct hs_nn_pos {
    const hs_board_t *board;     /* the position to evaluate */
    hs_color_t to_move;          /* HS_BLACK or HS_WHITE */
    hs_rules_id_t rules;
    double komi;                 /* White's komi */
    int handicap;                /* Black's handicap stones (area rules' bonus) */
    /* stones each side has put on the board so far: setup stones plus
     * non-pass moves (territory rules count their difference into the komi
     * the net sees, as KataGo does) */
    int stones_black, stones_white;
    /* the last n_hist moves of the game (at most HS_NN_HISTORY), oldest first;
     * HS_PASS for a pass */
    int n_hist;
    hs_color_t hist_color[HS_NN_HISTORY];
    hs_point_t hist_move[HS_NN_HISTORY];
    /* the boards before the last move and before the one before it, for the
     * ladder history planes; NULL where the game is not that long */
    const hs_board_t *prev1, *prev2;
} hs_nn_pos_t;

/* A game position made ready for the net: the board, the two boards before
 * it (ladder history planes) and the hs_nn_pos_t that points at them. It
 * points into itself: fill it where it stays (hs_nn_game_pos_at), do not
 * copy it. */
typedef struct hs_nn_game_pos {
    hs_nn_pos_t nn;
    hs_board_t board, prev[2];
} hs_nn_game_pos_t;

/* Replays g to move `move` (the position after that many moves; -1 or past
 * the end: its last position) into *out, for the net to see under rules and
 * komi (the rules the position is counted by; handicap = Black's free stones,
 * hs_game_t.handicap). 0, or the replay's error (HS_EILLEGAL naming the
 * move, HS_EINVAL, HS_ENOMEM). */
int hs_nn_game_pos_at(const hs_game_t *g, int move, hs_rules_id_t rules, double komi,
                      int handicap, hs_nn_game_pos_t *out, hs_error_t *err);

/* Fills spatial (HS_NN_SPATIAL * N * N floats) and global (HS_NN_GLOBAL)
 * with KataGo's V7 features.
 * HS_EINVAL for a board larger than 19 or a bad colour to move, HS_ENOMEM. */
int hs_nn_features(const hs_nn_pos_t *p, float *spatial, float *global, hs_error_t *err);

/* The same for hyeongse's own input set (HS_NN_INPUT_HS_V1 above); global
 * is zeroed. Same errors. */
int hs_nn_features_hs(const hs_nn_pos_t *p, float *spatial, float *global, hs_error_t *err);

/* Module-internal (features.c, features_hs.c): the checks both input sets
 * make first, the board size (2..HS_NN_MAX_SIZE) and the colour to move;
 * 0 or HS_EINVAL. */
int hs__nn_features_check(const hs_nn_pos_t *p, hs_error_t *err);

/* Dispatches on the input set (hs_nn_input_set_t); HS_EINVAL for an unknown one. */
int hs_nn_features_for(int input_set, const hs_nn_pos_t *p, float *spatial, float *global,
                       hs_error_t *err);

/* The komi White receives in the net's eyes: komi plus the handicap bonus of
 * the rules (chinese: N stones, aga: N-1, others none), plus, under territory
 * rules, stones_black - stones_white. */
double hs_nn_white_komi(const hs_nn_pos_t *p);

#endif
