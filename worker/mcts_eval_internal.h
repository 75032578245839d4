/*
 * worker/mcts_eval_internal.h — what the leaf evaluators' files share
 * (worker/mcts_eval*.c), not part of the API in worker/mcts_eval.h: the seed
 * mixer both use to derive per-leaf choices, and the rollout evaluator's
 * per-leaf work (mcts_eval_playout.c), which its thread pool
 * (mcts_eval_rollout.c) runs.
 */
#ifndef HS_WORKER_MCTS_EVAL_INTERNAL_H
#define HS_WORKER_MCTS_EVAL_INTERNAL_H

#include <stdbool.h>
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

/* The 3x3 shapes of the rollout policy (mcts_pat3.c): one bit for each of the
 * 4^8 neighbourhoods of a point (hs__mcts_pat3_code), set where a shape fits. */
typedef struct hs__mcts_pat3 {
    uint8_t bits[(1u << 16) / 8];
} hs__mcts_pat3_t;

void hs__mcts_pat3_init(hs__mcts_pat3_t *tab);

/* The neighbourhood of p: its 8 neighbours' colours (hs_color_t, off-board
 * included), 2 bits each, NW N NE W E SW S SE from the low bits. */
static inline unsigned hs__mcts_pat3_code(const hs_board_t *b, hs_point_t p)
{
    const int s = b->stride;
    const uint8_t *c = b->color;
    return (unsigned)c[p - s - 1] | (unsigned)c[p - s] << 2 | (unsigned)c[p - s + 1] << 4
           | (unsigned)c[p - 1] << 6 | (unsigned)c[p + 1] << 8 | (unsigned)c[p + s - 1] << 10
           | (unsigned)c[p + s] << 12 | (unsigned)c[p + s + 1] << 14;
}

static inline bool hs__mcts_pat3_match(const hs__mcts_pat3_t *tab, const hs_board_t *b,
                                       hs_point_t p)
{
    unsigned code = hs__mcts_pat3_code(b, p);
    return (tab->bits[code >> 3] >> (code & 7)) & 1;
}

/* One leaf of the rollout evaluator: the prior and `playouts` playouts from
 * pos, into *out (side to move's view). Deterministic in (seed, pos).
 * self_atari_max as in hs_mcts_rollout_config_t; pat3 the shapes the
 * playouts answer the last move with, or NULL for none. */
void hs__mcts_rollout_leaf(const hs_nn_pos_t *pos, int playouts, int self_atari_max,
                           const hs__mcts_pat3_t *pat3, uint64_t seed, hs_mcts_eval_t *out);

#endif
