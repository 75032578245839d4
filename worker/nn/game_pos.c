/*
 * worker/nn/game_pos.c — a position of a game record made ready for the net
 * (features.h, hs_nn_game_pos_at): the replay to a move, the two boards
 * before it, the last moves and the stones each side put down. Shared by the
 * net judge, its engine, `judge --engine net`, the benches and the tests.
 */
#include <string.h>

#include "core/replay.h"
#include "worker/nn/features.h"

/* Counts, sets the history of the last HS_NN_HISTORY moves and the stones
 * each side has put down (territory rules shift the komi the net sees). */
static void s_fill_pos(const hs_game_t *g, int upto, hs_nn_game_pos_t *out)
{
    hs_nn_pos_t *p = &out->nn;
    for (int k = 0; k < g->num_setup; k++)
        *(g->setup[k].color == HS_BLACK ? &p->stones_black : &p->stones_white) += 1;
    for (int k = 0; k < upto; k++)
        if (g->moves[k].vertex != HS_GAME_PASS)
            *(g->moves[k].color == HS_BLACK ? &p->stones_black : &p->stones_white) += 1;
    for (int k = upto > HS_NN_HISTORY ? upto - HS_NN_HISTORY : 0; k < upto; k++) {
        const hs_game_move_t *mv = &g->moves[k];
        p->hist_color[p->n_hist] = (hs_color_t)mv->color;
        p->hist_move[p->n_hist] = mv->vertex == HS_GAME_PASS
                                      ? HS_PASS : hs_game_board_point(&out->board, mv->vertex);
        p->n_hist++;
    }
}

int hs_nn_game_pos_at(const hs_game_t *g, int move, hs_rules_id_t rules, double komi,
                        int handicap, hs_nn_game_pos_t *out, hs_error_t *err)
{
    int upto = move < 0 || move > g->num_moves ? g->num_moves : move;
    hs_replay_t r;
    int rc = hs_replay_start(&r, g, err);
    for (int k = 1; !rc && k <= upto; k++) {
        /* prev[0]: before the last move; prev[1]: before the one before. */
        if (k >= upto - 1)
            hs_board_copy(&out->prev[upto - k], &r.board);
        rc = hs_replay_to(&r, k, err);
    }
    if (!rc)
        hs_board_copy(&out->board, &r.board);
    hs_replay_fini(&r);
    if (rc)
        return rc;
    memset(&out->nn, 0, sizeof out->nn);
    hs_nn_pos_t *p = &out->nn;
    p->board = &out->board;
    p->to_move = out->board.to_move;
    p->rules = rules;
    p->komi = komi;
    p->handicap = handicap;
    p->prev1 = upto >= 1 ? &out->prev[0] : NULL;
    p->prev2 = upto >= 2 ? &out->prev[1] : NULL;
    s_fill_pos(g, upto, out);
    return 0;
}
