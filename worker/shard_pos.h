/*
 * worker/shard_pos.h — a net position rebuilt from a shard sample (worker/shard.h)
 * alone, so that bench/ can evaluate every method on exactly the positions the
 * labels were made for, without the archives the samples came from.
 *
 * The sample's planes are hyeongse's own input set (features.h, HS_V1):
 *   board   planes 0 (side to move's stones) and 8 (the opponent's), to_move
 *   prev1   planes 1 and 9, prev2 planes 2 and 10 (exact history boards)
 *   moves   the last min(move, 7) moves from the differences of consecutive
 *           history boards: the stone of the colour that moved present at t-k
 *           and absent at t-k-1 (colours alternate back from the opponent's
 *           move). Where no stone appears: a pass between the exact boards
 *           (now, prev1, prev2); further back HS_NO_POINT, unknown (a pass,
 *           or a move whose stone was captured later: older planes lose
 *           captured stones, so KataGo's history plane of such a move stays 0).
 * The ko point comes from replaying the last move on prev1 (when that gives
 * back the board exactly); otherwise there is none.
 * Not in a sample, so guessed: the stones each side has put down (territory
 * rules shift the komi KataGo's inputs see by their difference): alternating
 * moves, Black first unless the parity of move and to_move says White moved
 * first (then `handicap` Black stones were set up), less the passes of the
 * last two moves; an older pass is not seen. Captures are 0.
 *
 * Threads: pure; *out points into itself (see hs_nn_game_pos_t).
 */
#ifndef HS_WORKER_SHARD_POS_H
#define HS_WORKER_SHARD_POS_H

#include "core/error.h"
#include "core/rules.h"
#include "worker/nn/features.h"
#include "worker/shard.h"

/* Rebuilds sample s of an n x n shard into *out under rules and komi (the
 * game's, from the labels folder's index.json), with `handicap` Black setup
 * stones (0 when unknown). HS_EINVAL for a bad size or colour to move, or a
 * point that is a stone of both colours. */
int hs_shard_sample_pos(const hs_shard_sample_t *s, int n, hs_rules_id_t rules, double komi,
                        int handicap, hs_nn_game_pos_t *out, hs_error_t *err);

#endif
