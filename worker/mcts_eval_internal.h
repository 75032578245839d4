/*
 * worker/mcts_eval_internal.h — what the leaf evaluators' files share
 * (worker/mcts_eval*.c), not part of the API in worker/mcts_eval.h: the seed
 * mixer both use to derive per-leaf choices, and the rollout evaluator's
 * per-leaf work (mcts_eval_playout.c), which its thread pool
 * (mcts_eval_rollout.c) runs.
 */
#ifndef HS_WORKER_MCTS_EVAL_INTERNAL_H
#define HS_WORKER_MCTS_EVAL_INTERNAL_H

#include <stdint.h>

#include "worker/mcts.h"
#include "worker/nn/features.h"

/* splitmix64's finaliser over a ^ (b * odd constant): a well-mixed 64-bit
 * value from two, so that nearby keys and seeds give unrelated choices. */
static inline uint64_t hs__mcts_mix(uint64_t a, uint64_t b)
{
    uint64_t z = a ^ (b * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* What identifies a leaf for its seed: the board's key (stones, the board's
 * side to move and ko point) plus the side the position says is to move and
 * the passes just played (which end a playout), so that every input that
 * changes the evaluation changes the seed. */
static inline uint64_t hs__mcts_leaf_key(const hs_nn_pos_t *pos)
{
    uint64_t k = hs_board_key(pos->board);
    k = hs__mcts_mix(k, (uint64_t)pos->to_move);
    return hs__mcts_mix(k, (uint64_t)pos->board->passes);
}

/* One leaf of the rollout evaluator: the prior and `playouts` playouts from
 * pos, into *out (side to move's view). Deterministic in (seed, pos).
 * self_atari_max as in hs_mcts_rollout_config_t. */
void hs__mcts_rollout_leaf(const hs_nn_pos_t *pos, int playouts, int self_atari_max,
                           uint64_t seed, hs_mcts_eval_t *out);

#endif
