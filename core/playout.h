/*
 * core/playout.h — light random playouts: the move policy (a uniformly random
 * legal move that does not fill the mover's own true eye) and a whole playout
 * to two passes, scored by the Tromp-Taylor count. The judge's Monte-Carlo
 * ownership and the `hyeongse playout` example generator use these.
 *
 * The policy never plays suicide (even where the rules allow it: in a random
 * playout it only wastes moves) and respects simple ko only; positional
 * superko is not checked, since repetition cycles in light playouts are rare
 * and bounded by max_moves.
 *
 * Threads: a playout touches only the board and rng it is given.
 */
#ifndef HS_CORE_PLAYOUT_H
#define HS_CORE_PLAYOUT_H

#include "core/board.h"
#include "core/rng.h"

/*
 * A uniformly random move for b->to_move among the empty points that are legal
 * (no suicide, simple ko) and are not the mover's own eye (hs_board_is_eye);
 * HS_PASS when there is none. Picks a random start in b->empty and scans on,
 * so every candidate point is chosen with equal probability (up to the scan
 * order's bias towards points after rejected ones). Does not change b.
 */
hs_point_t hs_playout_pick(const hs_board_t *b, hs_rng_t *rng);

/*
 * Plays hs_playout_pick moves on b, alternating from b->to_move, until two
 * consecutive passes or until max_moves moves (passes included) have been
 * played in this call (max_moves <= 0 means 3 * size * size). Returns the
 * Tromp-Taylor count of the final position, Black minus White minus komi
 * (hs_score_tromp_taylor). b holds the final position.
 */
double hs_playout_run(hs_board_t *b, hs_rng_t *rng, double komi, int max_moves);

#endif
