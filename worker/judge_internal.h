/*
 * worker/judge_internal.h — what judge.c and judge_mc.c share (not a public API).
 */
#ifndef HS_WORKER_JUDGE_INTERNAL_H
#define HS_WORKER_JUDGE_INTERNAL_H

#include <stdint.h>

#include "core/board.h"

/*
 * Mean final ownership of every point of b over n seeded playouts of the
 * judge's tactical playout policy: +1 Black, -1 White, in own[p] for every
 * board index p. Deterministic for a given seed. Half the playouts start with
 * each colour; a board that already ended with two passes is played on.
 */
void hs__judge_mc_ownership(const hs_board_t *b, int n, uint64_t seed, float *own);

#endif
