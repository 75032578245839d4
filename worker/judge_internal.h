/*
 * worker/judge_internal.h — what judge.c, judge_mc.c and judge_score.c share
 * (not a public API).
 */
#ifndef HS_WORKER_JUDGE_INTERNAL_H
#define HS_WORKER_JUDGE_INTERNAL_H

#include <stdint.h>

#include "core/board.h"
#include "worker/judge.h"

/*
 * Mean final ownership of every point of b over n seeded playouts of the
 * judge's tactical playout policy: +1 Black, -1 White, in own[p] for every
 * board index p. Deterministic for a given seed. Half the playouts start with
 * each colour; a board that already ended with two passes is played on.
 */
void hs__judge_mc_ownership(const hs_board_t *b, int n, uint64_t seed, float *own);

/*
 * hs_judge_compute with the ownership map of step 4 given: own[p] (board
 * index, Black +1 .. White -1) decides life and death as the playouts' map
 * does (cfg->mc_dead, cfg->mc_shut_max; cfg->playouts is not read), or NULL:
 * the static rules. cfg must not be NULL. What the net judge (judge_net.c)
 * runs with the net's ownership.
 */
int hs__judge_compute_own(const hs_board_t *b, const hs_stability_t *stability,
                          const hs_judge_config_t *cfg, const float *own, hs_judge_t *out,
                          hs_error_t *err);

/*
 * Step 7 of docs/JUDGE.md (judge_score.c): counts the must-fill points of a
 * judged position into out->must_fill and out->must_fill_at. out->cls must be
 * final; live[p] is the colour of a live stone at p (HS_EMPTY for empty points
 * and dead stones), dead[p] marks dead stones, seki[p] stones in seki.
 */
void hs__judge_must_fill(const hs_board_t *b, const uint8_t *live, const uint8_t *dead,
                         const uint8_t *seki, hs_judge_t *out);

#endif
