/*
 * core/symmetry.h — the 8 symmetries of a square board, and the whole-board key
 * that is the same in every orientation (the board index, store/store_boards.c,
 * and `query --board`).
 *
 * A symmetry s (0..7) maps a vertex (x, y) of an N×N board: bit 0 mirrors x
 * (x -> N-1-x), bit 1 mirrors y, bit 2 swaps x and y, applied in that order.
 * s = 0 is the identity. Every s is its own inverse except 5 and 6, which are
 * each other's (hs_sym_inverse).
 *
 * The board key is a 64-bit hash of the board size and the colour of every
 * point (stones only: not the side to move, the ko point or captures), taken
 * in the orientation that gives the smallest hash; the symmetry that reaches
 * it is returned too, so a move in the board's own orientation can be carried
 * into the canonical one and back. Two boards that differ only by a symmetry
 * have the same key; different boards collide with probability ~2^-64 per pair.
 *
 * Pure functions; no state.
 */
#ifndef HS_CORE_SYMMETRY_H
#define HS_CORE_SYMMETRY_H

#include <stdint.h>

#include "core/board.h"

#define HS_SYM_COUNT 8

/* (x, y) on an N×N board under symmetry s into (*ox, *oy). */
void hs_sym_apply(int size, int sym, int x, int y, int *ox, int *oy);

/* The symmetry that undoes s. */
int hs_sym_inverse(int sym);

/* The symmetry "first a, then b" (hs_sym_apply(b, hs_sym_apply(a, v))). */
int hs_sym_compose(int a, int b);

/*
 * The canonical whole-board key of b and the symmetry that maps b onto the
 * canonical orientation (*sym, may be NULL). When several symmetries give the
 * smallest hash (a symmetric board), the lowest-numbered one is returned.
 * *stabilizer (may be NULL) gets a bit mask of the symmetries that leave b's
 * stones unchanged (bit 0 always set): a move and its images under these are the
 * same move on this board.
 */
uint64_t hs_board_canonical_key(const hs_board_t *b, int *sym, unsigned *stabilizer);

/*
 * The same key kept move by move (the board index's replay, store/store_boards.c):
 * the hashes of the 8 orientations, set from a board, then changed one stone at
 * a time (a stone placed or removed toggles it), so a move without captures costs
 * 8 hash updates instead of a walk of the board. hs_sym_hashes_key gives what
 * hs_board_canonical_key gives for the same stones (its *sym may be NULL).
 * (Added for the write path; not in the original interface.)
 */
typedef struct hs_sym_hashes {
    int size;
    uint64_t h[HS_SYM_COUNT];
} hs_sym_hashes_t;

void hs_sym_hashes_init(hs_sym_hashes_t *z, const hs_board_t *b);
void hs_sym_hashes_toggle(hs_sym_hashes_t *z, hs_color_t color, int x, int y);
uint64_t hs_sym_hashes_key(const hs_sym_hashes_t *z, int *sym);

#endif
