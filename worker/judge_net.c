/*
 * worker/judge_net.c — the net judge (judge_net.h): the net's ownership in
 * place of the playouts' in the judge's dead-stone test, and the net's input
 * position from a game record.
 */
#include "worker/judge_net.h"

#include <string.h>

#include "core/replay.h"
#include "worker/judge_internal.h"

void hs_judge_net_config_final(hs_judge_config_t *cfg)
{
    hs_judge_config_final(cfg);
    /* The playouts are what the net replaces; 0 keeps them from being run
     * should a caller hand this config to hs_judge_compute. */
    cfg->playouts = 0;
    cfg->mc_dead = HS_JUDGE_NET_DEAD;
    cfg->mc_shut_max = HS_JUDGE_NET_SHUT_MAX;
}

void hs_judge_net_config_midgame(hs_judge_config_t *cfg)
{
    hs_judge_config_default(cfg);
    /* Unsettled fights stay unsettled mid-game (judge.h relaxed_kill). */
    cfg->relaxed_kill = false;
    cfg->mc_dead = HS_JUDGE_NET_DEAD;
    cfg->mc_shut_max = HS_JUDGE_NET_SHUT_MAX;
}

int hs_judge_net_compute(const hs_board_t *b, const hs_nn_output_t *net,
                         const hs_judge_config_t *cfg, hs_judge_t *out, hs_error_t *err)
{
    return hs_judge_net_compute_mixed(b, net, NULL, 0.0f, cfg, out, err);
}

int hs_judge_net_compute_mixed(const hs_board_t *b, const hs_nn_output_t *net, const float *mc,
                               float mc_weight, const hs_judge_config_t *cfg, hs_judge_t *out,
                               hs_error_t *err)
{
    if (net->n != b->size)
        return hs_error_set(err, HS_EINVAL, "judge-net: the net's output is for %dx%d, the board %dx%d",
                            net->n, net->n, b->size, b->size);
    hs_judge_config_t c;
    if (cfg) c = *cfg;
    else hs_judge_net_config_final(&c);
    /* The net's ownership is White's on an n x n grid; the judge wants
     * Black's per board index. */
    float own[HS_BOARD_MAX_POINTS];
    memset(own, 0, sizeof own);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            own[hs_board_point(b, x, y)] = -net->ownership[y * b->size + x];
    if (mc && mc_weight > 0.0f)
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                hs_point_t p = hs_board_point(b, x, y);
                own[p] = (1.0f - mc_weight) * own[p] + mc_weight * mc[p];
            }
    return hs__judge_compute_own(b, NULL, &c, own, out, err);
}

double hs_judge_net_lead(const hs_nn_output_t *net)
{
    return -(double)net->white_lead;
}

/* Counts, sets the history of the last HS_NN_HISTORY moves and the stones
 * each side has put down (territory rules shift the komi the net sees). */
static void s_fill_pos(const hs_game_t *g, int upto, hs_judge_net_pos_t *out)
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

int hs_judge_net_pos_at(const hs_game_t *g, int move, hs_rules_id_t rules, double komi,
                        int handicap, hs_judge_net_pos_t *out, hs_error_t *err)
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
