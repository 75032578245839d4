/*
 * core/replay.h — walking a game forward as the cluster evaluates it: the board
 * after the setup stones, then move by move under the game's rules with a superko
 * history, and the position key of where it stands.
 *
 * The worker (worker/worker_eval.c) keys every position it evaluates this way and
 * the query layer (store/query.c, `query --position`) looks positions up the same
 * way: a replay that differs in any detail (the side to move after setup stones,
 * the ko point) would give another key, and the lookup would silently miss. So
 * both use this one cursor. (core/game.h's hs_game_replay is the ingest's check of
 * a whole record, with its own fast path for simple ko; it keeps no history.)
 *
 *   hs_replay_t r;
 *   if (hs_replay_start(&r, g, err) == 0 && hs_replay_to(&r, 40, err) == 0)
 *       hs_replay_key(&r, key);      // position after 40 moves
 *   hs_replay_fini(&r);
 *
 * Ownership: the cursor points at g (keep g alive and unchanged while it is used)
 * and owns its history (hs_replay_fini frees it; safe after a failed start).
 */
#ifndef HS_CORE_REPLAY_H
#define HS_CORE_REPLAY_H

#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/rules.h"

typedef struct hs_replay {
    const hs_game_t *game;
    hs_board_t board;        /* the position after `played` moves */
    hs_history_t hist;       /* every position so far (superko) */
    int played;              /* moves played (0 = after the setup) */
} hs_replay_t;

/*
 * Starts at move 0: an empty board of g's size, the setup stones placed one by
 * one, and when there are setup stones the side to move hs_game_first_player
 * says (the first move's colour; without moves, White after Black's stones
 * alone, as KataGo reads a handicap record; PL is not read, since stored
 * games do not keep it and the keys must agree).
 * Returns 0, HS_EINVAL (bad size or setup stone; the message says which) or
 * HS_ENOMEM.
 */
int hs_replay_start(hs_replay_t *r, const hs_game_t *g, hs_error_t *err);

/*
 * Plays the game's moves until `move_number` moves are played (it must be
 * between r->played and the game's move count). Returns 0, HS_EINVAL (out of
 * range, or backwards), or HS_EILLEGAL naming the move ("move 12 (B D4): illegal
 * (reason 3)"); the cursor then stands before that move.
 */
int hs_replay_to(hs_replay_t *r, int move_number, hs_error_t *err);

/* The position key (core/poskey.h) of the position after r->played moves. */
void hs_replay_key(const hs_replay_t *r, uint8_t key[16]);

/* Frees the history. NULL-safe and idempotent. */
void hs_replay_fini(hs_replay_t *r);

#endif
