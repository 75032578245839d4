/*
 * worker/selfplay.h — self-play games with the tree search (worker/mcts.h):
 * the game loop of `hyeongse selfplay` and the SGF record of a game.
 *
 * Each move is one search of cfg.visits root visits (the tree is kept from
 * move to move: hs_mcts_set_root reuses the subtree of the move played).
 * Variety comes only from self-play's two sources, both seeded:
 *   - Dirichlet noise on the root's priors at every move (alpha
 *     0.03 * 361 / area, weight 0.25, as AlphaZero scales it to the board);
 *   - a temperature for the first moves: moves drawn in proportion to
 *     visits^(1/T), T falling linearly from cfg.temperature at move 0 to 0
 *     at move cfg.temperature_moves (default area / 12), the most visited
 *     move after that.
 * A pass is played only when it is the most visited move (a drawn pass is
 * replaced by the most visited move): a game never ends by a lucky draw.
 *
 * The game ends on two passes in a row, a resignation or the move cap. A
 * side resigns when the search gives it a win rate below
 * cfg.resign_threshold on cfg.resign_moves of its moves in a row; in a share
 * cfg.no_resign_share of the games (drawn from the game's seed) nobody
 * resigns, so that the records also hold games played out to the end.
 *
 * The final count: under tromp-taylor rules the Tromp-Taylor count of the
 * final board (nothing is dead: self-play under those rules captures before
 * it passes); under the other rules the judge (worker/judge.h,
 * hs_judge_config_final: dead stones by its playouts) scores the final board
 * by the rules' method. At the move cap the position is counted the same way.
 *
 * Determinism: the same config, seed and evaluator (the evaluators are
 * deterministic given theirs) give the same game.
 *
 * Ownership: hs_selfplay_play fills a game the caller frees with
 * hs_selfplay_game_fini. One thread at a time per evaluator.
 */
#ifndef HS_WORKER_SELFPLAY_H
#define HS_WORKER_SELFPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/rules.h"
#include "worker/gtp_game.h"
#include "worker/mcts.h"

typedef struct hs_selfplay_config {
    int size;                  /* 2..HS_NN_MAX_SIZE */
    hs_rules_id_t rules;
    double komi;
    int visits;                /* root visits per move (>= 1) */
    int threads;               /* the search's leaves in flight (>= 1) */
    double noise_alpha;        /* 0: 0.03 * 361 / area */
    double noise_weight;       /* 0.25 */
    double temperature;        /* at move 0 (0.8); 0: always the most visited move */
    int temperature_moves;     /* the move where it reaches 0; 0: area / 12 */
    double resign_threshold;   /* the mover's win rate (0.02) */
    int resign_moves;          /* own moves in a row under it (3) */
    double no_resign_share;    /* games without resignation (0.2) */
    int max_moves;             /* the move cap; 0: 2 * area */
} hs_selfplay_config_t;

/* The defaults above for a size x size board under rules (komi: the rules'
 * default), visits 100, threads 1. */
void hs_selfplay_config_default(hs_selfplay_config_t *cfg, int size, hs_rules_id_t rules);

typedef struct hs_selfplay_game {
    int size;
    hs_rules_id_t rules;
    double komi;
    uint64_t seed;
    hs_gtp_move_t *moves;      /* every move, Black first (HS_PASS for a pass) */
    int num_moves;
    double score;              /* Black's final margin, komi included (not set on resignation) */
    hs_color_t resigned;       /* the side that resigned, or HS_EMPTY */
    bool resign_allowed;
    bool capped;               /* ended at the move cap */
    long visits;               /* root visits of all searches */
    double seconds;            /* wall time of the searches */
} hs_selfplay_game_t;

/* Plays one game from the empty board with evaluator ev and seed into *out
 * (zeroed first). HS_EINVAL for a bad config, HS_ENOMEM, or the evaluator's
 * error; out then holds the moves so far (free it either way). */
int hs_selfplay_play(const hs_selfplay_config_t *cfg, hs_mcts_evaluator_t *ev, uint64_t seed,
                     hs_selfplay_game_t *out, hs_error_t *err);

/* Frees the move list and zeroes g. NULL-safe. */
void hs_selfplay_game_fini(hs_selfplay_game_t *g);

/* The game's result in SGF RE form: "B+R", "W+3.5", "0" (buf: 16 bytes). */
const char *hs_selfplay_result(const hs_selfplay_game_t *g, char *buf);

/* The game as one SGF game tree (FF GM CA AP SZ KM RU PB PW DT RE GN, then
 * every move) into *out (malloc'd, NUL-terminated; the caller frees):
 * player names PB and PW, date DT ("YYYY-MM-DD"), name GN. HS_ENOMEM. */
int hs_selfplay_sgf(const hs_selfplay_game_t *g, const char *player, const char *date,
                    const char *name, char **out, size_t *len, hs_error_t *err);

#endif
