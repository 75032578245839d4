/*
 * core/playout.c — the light random playout policy and loop (playout.h).
 *
 * The hot loop is pick + play. Pick scans the empty list from a random offset
 * and applies the cheap tests first (eye, then liberties of the neighbours);
 * play is hs_board_play with the legality already known.
 */
#include "core/playout.h"

#include "core/score.h"

/* Legal for the side to move, not suicide, not an own eye. Inlined copy of the
 * board's tests, cheapest first: a point with an empty neighbour is always a
 * candidate (it cannot be an eye, suicide, or the ko point, whose neighbours are
 * all occupied). */
static inline bool s_candidate(const hs_board_t *b, hs_point_t p, uint8_t me)
{
    const unsigned nbr = b->nbr[p];
    if (nbr & 15)
        return true;  /* an empty neighbour */
    if (p == b->ko)
        return false;
    const int stride = b->stride;
    const uint8_t *c = b->color;
    const int own = (nbr >> (4 * me)) & 15, edge = nbr >> 12;
    if (own + edge == 4) {
        /* Own true eye (hs_board_is_eye, inlined): diagonals hold at most one
         * opponent stone, none on the edge. */
        const uint8_t opp = (uint8_t)(3 - me);
        const int bad = (c[p - stride - 1] == opp) + (c[p - stride + 1] == opp)
                + (c[p + stride - 1] == opp) + (c[p + stride + 1] == opp);
        if (bad + (edge > 0) < 2)
            return false;
        /* A false eye: filling it is fine unless it is suicide (below). */
    }
    /* No empty neighbour: legal iff it captures or joins a string with another
     * liberty. Branch-free over the four neighbours (head[] of an off-board
     * point is a valid index; its colour test masks the value). */
    const uint8_t opp = (uint8_t)(3 - me);
    const hs_point_t q4[4] = { (hs_point_t)(p - stride), (hs_point_t)(p - 1), (hs_point_t)(p + 1),
                               (hs_point_t)(p + stride) };
    int ok = 0;
    for (int i = 0; i < 4; i++) {
        const uint8_t qc = c[q4[i]];
        const int libs = b->libs[b->head[q4[i]]];
        ok |= ((qc == me) & (libs > 1)) | ((qc == opp) & (libs == 1));
    }
    return ok;
}

hs_point_t hs_playout_pick(const hs_board_t *b, hs_rng_t *rng)
{
    const int n = b->num_empty;
    if (n == 0)
        return HS_PASS;
    const uint8_t me = (uint8_t)b->to_move;
    int i = (int)hs_rng_below(rng, (uint32_t)n);
    for (int k = 0; k < n; k++) {
        hs_point_t p = b->empty[i];
        if (s_candidate(b, p, me))
            return p;
        if (++i == n)
            i = 0;
    }
    return HS_PASS;
}

double hs_playout_run(hs_board_t *b, hs_rng_t *rng, double komi, int max_moves)
{
    if (max_moves <= 0)
        max_moves = 3 * b->size * b->size;
    for (int m = 0; m < max_moves && b->passes < 2; m++) {
        hs_point_t p = hs_playout_pick(b, rng);
        if (p == HS_PASS)
            hs_board_play(b, b->to_move, HS_PASS, 0, NULL);
        else
            hs_board_play_legal(b, b->to_move, p);  /* pick returns only legal moves */
    }
    return hs_score_tromp_taylor(b, komi);
}
