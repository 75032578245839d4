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

/* A net trained on the patent's labels says 0 on a standing stone and the
 * opponent's sign on a dead one, where KataGo's says the owner's sign on
 * both a standing stone and the territory around it. The judge's thresholds
 * (HS_JUDGE_NET_DEAD ...) are on KataGo's scale, so a stone's value v from
 * its own side becomes 2v + 1 (0 -> +1 standing, -1 -> -1 dead), capped. */
static void s_stones_to_owner_scale(const hs_board_t *b, float *own)
{
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            hs_color_t c = (hs_color_t)b->color[p];
            if (c != HS_BLACK && c != HS_WHITE)
                continue;
            float side = c == HS_BLACK ? 1.0f : -1.0f;
            float v = 2.0f * own[p] * side + 1.0f;
            own[p] = side * (v > 1.0f ? 1.0f : v);
        }
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
    if (net->stones_zero)
        s_stones_to_owner_scale(b, own);
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

