/*
 * worker/nn/features_hs.c — hyeongse's own input set (HS_NN_INPUT_HS_V1,
 * features.h and docs/NET.md "Our own input planes"): the patent's 18 planes
 * (8 boards of each side's stones, who is to move) plus 4 liberty planes,
 * and the dispatch on a model's input set.
 *
 * The positions 1..7 moves ago are rebuilt from what hs_nn_pos_t carries
 * (the current board, prev1/prev2, the last moves): every caller fills those
 * already for KataGo's inputs, so no caller needs to keep 7 boards. Taking a
 * move's stone off cannot put back what that move captured; the planes are
 * defined that way (features.h), so training labels and the engine agree.
 */
#include <string.h>

#include "worker/nn/features.h"

#define S_BOARDS 8   /* now and 1..7 moves ago */

/* The colours of one history board on the n x n grid, row-major. */
typedef struct s_grid {
    uint8_t c[HS_NN_MAX_SIZE * HS_NN_MAX_SIZE];
} s_grid_t;

static void s_grid_of(const hs_board_t *b, int n, s_grid_t *g)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            g->c[y * n + x] = b->color[hs_board_point(b, x, y)];
}

/* Fills grids[0..returned-1]: the boards now and k moves ago while the game
 * is that long (k <= n_hist). prev1/prev2 are the true boards; any other one
 * (or a missing prev) is the newer board without the stone of the move that
 * led from it to the newer one. */
static int s_history_grids(const hs_nn_pos_t *p, int n, s_grid_t *grids)
{
    const hs_board_t *b = p->board;
    s_grid_of(b, n, &grids[0]);
    int have = 1;
    for (int k = 1; k < S_BOARDS && k <= p->n_hist; k++, have++) {
        const hs_board_t *real = k == 1 ? p->prev1 : k == 2 ? p->prev2 : NULL;
        if (real && real->size == n) {
            s_grid_of(real, n, &grids[k]);
            continue;
        }
        grids[k] = grids[k - 1];
        hs_point_t m = p->hist_move[p->n_hist - k];   /* the move k moves ago */
        if (m != HS_PASS && m != HS_NO_POINT && hs_board_on_board(b, m))
            grids[k].c[hs_board_y(b, m) * n + hs_board_x(b, m)] = HS_EMPTY;
    }
    return have;
}

int hs_nn_features_hs(const hs_nn_pos_t *p, float *sp, float *g, hs_error_t *err)
{
    const hs_board_t *b = p->board;
    int n = b->size;
    int rc = hs__nn_features_check(p, err);
    if (rc)
        return rc;
    if (p->n_hist < 0 || p->n_hist > HS_NN_HISTORY)
        return hs_error_set(err, HS_EINVAL, "net inputs: %d moves of history (at most %d)",
                            p->n_hist, HS_NN_HISTORY);
    hs_color_t pla = p->to_move, opp = hs_color_other(pla);
    size_t a = (size_t)n * (size_t)n;
    memset(sp, 0, (size_t)HS_NN_SPATIAL * a * sizeof *sp);
    memset(g, 0, HS_NN_GLOBAL * sizeof *g);

    s_grid_t grids[S_BOARDS];
    int have = s_history_grids(p, n, grids);
    for (int k = 0; k < have; k++)
        for (size_t i = 0; i < a; i++) {
            if (grids[k].c[i] == pla)
                sp[(size_t)k * a + i] = 1.0f;
            else if (grids[k].c[i] == opp)
                sp[(size_t)(8 + k) * a + i] = 1.0f;
        }
    for (size_t i = 0; i < a; i++)
        sp[(size_t)(pla == HS_BLACK ? 16 : 17) * a + i] = 1.0f;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            hs_point_t q = hs_board_point(b, x, y);
            int c = b->color[q];
            if (c != HS_BLACK && c != HS_WHITE)
                continue;
            int libs = hs_board_libs(b, q);
            if (libs == 1 || libs == 2)
                sp[(size_t)((c == (int)pla ? 18 : 20) + libs - 1) * a + (size_t)(y * n + x)] = 1.0f;
        }
    return 0;
}

int hs_nn_features_for(int input_set, const hs_nn_pos_t *p, float *spatial, float *global,
                       hs_error_t *err)
{
    switch (input_set) {
    case HS_NN_INPUT_KATAGO_V7: return hs_nn_features(p, spatial, global, err);
    case HS_NN_INPUT_HS_V1: return hs_nn_features_hs(p, spatial, global, err);
    default:
        return hs_error_set(err, HS_EINVAL, "net inputs: unknown input set %d", input_set);
    }
}
