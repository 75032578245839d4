/*
 * tests/wall_game.h — generated games for the cluster's tests: legal records
 * of any length in which nothing is ever captured, so that every position a
 * test expects is known without a rules engine in the test. Black fills the
 * columns left of the middle one, White the mirror images of Black's points on
 * the right, each row by row from a starting point that differs per game; the
 * middle column stays empty, so no stone ever loses its last liberty.
 */
#ifndef HS_TESTS_WALL_GAME_H
#define HS_TESTS_WALL_GAME_H

#include <stdlib.h>

#include "core/game.h"

/*
 * Game of n moves on size x size (odd size; n at most (size - 1) / 2 * size * 2:
 * 72 on 9x9, 342 on 19x19), each side starting rot points into its columns, with
 * komi; its id computed. Games that differ in rot (modulo a side's points), n or
 * komi have ids of their own. The caller frees it with hs_game_fini.
 */
static inline void hs_test_wall_game(hs_game_t *g, int size, int n, int rot, double komi)
{
    int cols = (size - 1) / 2, points = cols * size;
    hs_game_init(g, size);
    g->komi = komi;
    g->moves = calloc((size_t)(n > 0 ? n : 1), sizeof *g->moves);
    g->num_moves = n;
    for (int k = 0; k < n; k++) {
        int idx = (k / 2 + rot) % points, x = idx % cols, y = idx / cols;
        g->moves[k].color = k % 2 == 0 ? HS_BLACK : HS_WHITE;
        g->moves[k].vertex = (uint16_t)(y * size + (k % 2 == 0 ? x : size - 1 - x));
    }
    hs_game_compute_id(g);
}

#endif
