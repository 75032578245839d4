/*
 * worker/label.h — training labels by the patent's method (docs/LABELS.md):
 * for one finished game,
 *   1. yose: the final position is played out with the tree search
 *      (worker/mcts.h; the net where one is given, rollouts where not) until
 *      every boundary is closed: no empty point touches living stones of both
 *      colours, except dame and seki (or both sides pass);
 *   2. dead stones are removed with the judge (worker/judge.h, or the net
 *      judge worker/judge_net.h when a net evaluator is given), and so are
 *      one's own stones standing inside one's own territory;
 *   3. every point is marked: Black's territory +1, White's -1, every stone,
 *      dame and seki point 0 (Black's view here; a sample flips it to the
 *      side to move's view).
 * The labelled count (area or territory, by the game's rules, with komi) is
 * checked against the record's RE: a counted game must reproduce its margin,
 * a game won by resignation (or time) its winner. A game that misses is
 * HS_LABEL_MISS with the reason; one that cannot be labelled (no result,
 * void, board over 19, illegal record) HS_LABEL_SKIP.
 *
 * Threads: a call borrows cfg's evaluators for its duration (one thread at a
 * time per evaluator); different threads need different evaluators.
 */
#ifndef HS_WORKER_LABEL_H
#define HS_WORKER_LABEL_H

#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "worker/mcts.h"
#include "worker/nn/eval.h"
#include "worker/nn/features.h"

typedef struct hs_label_config {
    hs_mcts_evaluator_t *evaluator;  /* borrowed: the yose search's leaves (net or rollouts) */
    hs_nn_evaluator_t *nn;           /* borrowed or NULL: dead stones from the net judge;
                                        NULL: the static judge for finished positions */
    int visits;                      /* search visits a yose move (default 16) */
    int max_yose_moves;              /* 0: 2 * N * N */
    uint64_t seed;                   /* the search's seed (default 1) */
} hs_label_config_t;

void hs_label_config_default(hs_label_config_t *cfg);

typedef enum hs_label_status {
    HS_LABEL_OK = 0,     /* labelled, and the count agrees with the record */
    HS_LABEL_MISS,       /* labelled, but the count disagrees with RE: not for training */
    HS_LABEL_SKIP        /* not labelled (no usable result, too big, illegal record) */
} hs_label_status_t;

#define HS_LABEL_MAX_AREA (HS_NN_MAX_SIZE * HS_NN_MAX_SIZE)

typedef struct hs_label {
    int size;
    /* the final map from Black's view, y * size + x: +1 Black's territory,
     * -1 White's, 0 stones, dame and seki */
    signed char owner[HS_LABEL_MAX_AREA];
    double black_margin;     /* the labelled result: Black minus White, komi in, by the rules */
    int yose_moves;          /* moves the playout added */
    hs_label_status_t status;
    char reason[160];        /* for MISS and SKIP: why, in words */
} hs_label_t;

/* The rules a record is counted by: g->rules, except that a record without
 * RU whose komi is 7.5 is counted by Chinese (area) rules, the convention of
 * those records (AlphaGo's games, Tom); bench/bench_judge_final.c reads
 * them the same way. (Added by the "label" task: index.json's "rules" and
 * the samples' features should use it too.) */
hs_rules_id_t hs_label_rules(const hs_game_t *g);

/* Labels game g (its moves, rules, komi and result). 0 with out->status
 * saying OK, MISS or SKIP; a negative code only for a failure of the
 * machinery itself (HS_ENOMEM, an evaluator's error), with err. */
int hs_label_game(const hs_label_config_t *cfg, const hs_game_t *g, hs_label_t *out,
                  hs_error_t *err);

/* Steps 2 and 3 alone on a position that is already closed: b is the final
 * board, g gives the rules, komi, prisoners' context and result (for the
 * check). Fills out as hs_label_game does (yose_moves 0). For tests on
 * hand-made final positions and for hs_label_game itself. */
int hs_label_final(const hs_label_config_t *cfg, const hs_game_t *g, const hs_board_t *b,
                   hs_label_t *out, hs_error_t *err);

#endif
