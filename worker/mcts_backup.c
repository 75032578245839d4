/*
 * worker/mcts_backup.c — what a leaf's evaluation does to the tree of
 * worker/mcts.h: the leaf expanded (its moves, by prior), its value, score
 * and ownership added along the path (KataGo's recomputed node values where
 * the evaluator gives estimates, running sums where not), and the virtual
 * losses taken back; and the count of a finished game, which stands in for
 * an evaluation. mcts.c selects the leaves and calls these once the
 * evaluator has run.
 */
#include <stdlib.h>

#include "core/score.h"
#include "worker/mcts_internal.h"

/* The Tromp-Taylor count of a finished leaf, as an evaluation. */
void hs__mcts_score_terminal(const hs_mcts_t *m, const hs_nn_pos_t *nn, hs_mcts_eval_t *out)
{
    double margin = hs_score_tromp_taylor(nn->board, hs_nn_white_komi(nn));
    double s = nn->to_move == HS_BLACK ? 1 : -1;
    out->value = (float)(margin > 0 ? s : margin < 0 ? -s : 0);
    out->score = out->score_mean = (float)(s * margin);
    out->score_stdev = 0;
    out->has_amaf = 0;
    uint8_t owner[HS_BOARD_MAX_POINTS];
    hs_score_ownership(nn->board, NULL, owner);
    hs_color_t me = nn->to_move;
    for (int v = 0; v < m->area; v++) {
        uint8_t o = owner[hs_board_point(nn->board, v % m->size, v / m->size)];
        out->ownership[v] = o == me ? 1.0f : o == hs_color_other(me) ? -1.0f : 0.0f;
    }
}

static int s_expand(hs_mcts_t *m, hs__mcts_node_t *n, const hs_mcts_eval_t *ev)
{
    int count = 0;
    double sum = 0;
    for (int v = 0; v <= m->area; v++)
        if (ev->policy[v] >= 0 && (v < m->area || m->cfg.allow_pass)) {
            count++;
            sum += ev->policy[v];
        }
    if (count == 0) {
        n->terminal = 1;   /* nothing to play: scored from now on */
        return 0;
    }
    hs__mcts_edge_t *e = malloc((size_t)count * sizeof *e);
    if (!e)
        return HS_ENOMEM;
    int k = 0;
    for (int v = 0; v <= m->area; v++)
        if (ev->policy[v] >= 0 && (v < m->area || m->cfg.allow_pass)) {
            e[k].move = (uint16_t)v;
            e[k].prior = sum > 0 ? (float)(ev->policy[v] / sum) : 1.0f / (float)count;
            e[k].amaf_n = e[k].amaf_w = 0;
            e[k].visits = 0;
            e[k++].child = NULL;
        }
    n->edges = e;
    n->num_edges = count;
    hs__mcts_sort_edges(n);
    n->expanded = 1;
    return 0;
}

static void s_add_ownership(hs__mcts_node_t *n, const hs_mcts_eval_t *ev, double to_black, int area)
{
    float *sum = n->own, *sq = n->own + HS_MCTS_MAX_AREA;
    for (int v = 0; v < area; v++) {
        float o = (float)to_black * ev->ownership[v];
        sum[v] += o;
        sq[v] += o * o;
    }
    n->own_count++;
}

int hs__mcts_backup(hs_mcts_t *m, hs__mcts_leaf_t *L, const hs_mcts_eval_t *ev)
{
    hs__mcts_node_t *leaf = L->path[L->depth];
    double to_black = L->nn.to_move == HS_BLACK ? 1 : -1;
    if (L->depth == 0 && !m->have_center)
        hs__mcts_set_center(m, ev);
    double u = hs__mcts_utility(m, ev, to_black);
    /* the final score's second moment, around its mean (KataGo's scoreStdev) */
    double sq = (double)ev->score_mean * ev->score_mean +
                (double)ev->score_stdev * ev->score_stdev;
    if (!leaf->expanded && !leaf->terminal) {
        int rc = s_expand(m, leaf, ev);
        if (rc)
            return rc;
        leaf->raw_value = -ev->value;
        leaf->raw_score = -ev->score;
        leaf->raw_util = (float)-u;
        leaf->raw_score_sq = (float)sq;
        leaf->raw_score_mean = -ev->score_mean;
        if (L->depth == 0 && m->began && hs__mcts_adjusts_root(m))
            hs__mcts_adjust_root_priors(m);
        if (leaf->svb_key && hs__mcts_svb_on(m))
            u -= hs__mcts_svb_bias(m, leaf);   /* the bias is the leaf mover's: u is the other side's */
    }
    bool recompute = hs__mcts_recomputes(m);
    double sign = -1;   /* the leaf's mover is the other side */
    for (int d = L->depth; d >= 0; d--, sign = -sign) {
        hs__mcts_node_t *n = L->path[d];
        n->visits++;
        n->vloss--;
        n->weight += 1;
        n->weight_sq += 1;
        n->util_sum += sign * u;
        n->util_sq_sum += u * u;
        n->value_sum += sign * ev->value;
        n->score_sum += sign * ev->score;
        n->score_sq_sum += sq;
        n->score_mean_sum += sign * ev->score_mean;
        if (d < L->depth)
            n->edges[L->edge[d]].visits++;
        if (recompute && n->expanded && !n->terminal && d < L->depth)
            hs__mcts_recompute(m, n);
        if (n->own)
            s_add_ownership(n, ev, to_black, m->area);
    }
    if (ev->has_amaf && m->cfg.rave_equiv > 0)
        hs__mcts_rave_backup(m, L, ev);
    return 0;
}

void hs__mcts_undo_vloss(hs__mcts_leaf_t *L)
{
    for (int d = L->depth; d >= 0; d--)
        L->path[d]->vloss--;
}
