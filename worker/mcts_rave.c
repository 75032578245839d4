/*
 * worker/mcts_rave.c — RAVE ("rapid action value estimation", Gelly and
 * Silver 2007) for searches whose evaluator plays rollouts: every move a
 * side played first anywhere later in a simulation (in the tree below a
 * node or in the playout) counts as a sample of that move at the node. With
 * a few thousand rollouts on 9x9 a child's own mean is too noisy to choose
 * among 80 moves; the AMAF mean is available after the first few visits
 * and steers the search until the child's own visits take over.
 *
 * The net gives no AMAF statistics (its value is not a playout), so these
 * paths never run with it.
 */
#include <string.h>

#include "worker/mcts_internal.h"

double hs__mcts_rave_q(const hs_mcts_t *m, const hs__mcts_edge_t *e, int visits, double q,
                       bool *used)
{
    *used = e->amaf_n > 0;
    if (!*used)
        return q;
    double an = e->amaf_n, n = visits;
    double beta = an / (an + n + n * an / m->cfg.rave_equiv);
    return (1 - beta) * q + beta * (e->amaf_w / an);
}

/* Adds the AMAF samples first[c][v] to node n's edges for the mover c. */
static void s_credit(hs__mcts_node_t *n, const float *cnt, const float *val, int area)
{
    for (int i = 0; i < n->num_edges; i++) {
        hs__mcts_edge_t *e = &n->edges[i];
        if (e->move < area && cnt[e->move] > 0) {
            e->amaf_n += cnt[e->move];
            e->amaf_w += val[e->move];
        }
    }
    n->has_amaf = 1;
}

void hs__mcts_rave_backup(hs_mcts_t *m, const hs__mcts_leaf_t *L, const hs_mcts_eval_t *ev)
{
    const int area = m->area;
    float cnt[2][HS_MCTS_MAX_AREA], val[2][HS_MCTS_MAX_AREA];
    for (int c = 0; c < 2; c++) {
        memcpy(cnt[c], ev->amaf_n[c], (size_t)area * sizeof cnt[c][0]);
        memcpy(val[c], ev->amaf_value[c], (size_t)area * sizeof val[c][0]);
    }
    const float plays = ev->amaf_playouts > 0 ? ev->amaf_playouts : 1;
    const hs_color_t leaf_mover = L->nn.to_move, root_mover = m->root_nn.to_move;
    /* From the leaf up: a tree move is earlier than everything below it, so it
     * becomes the point's first play, for every playout of the leaf. */
    for (int d = L->depth; d >= 0; d--) {
        hs__mcts_node_t *n = L->path[d];
        hs_color_t c = (d & 1) ? hs_color_other(root_mover) : root_mover;
        int ci = c - 1;
        if (d < L->depth && L->moves[d] < area) {
            int v = L->moves[d];
            float value = c == leaf_mover ? ev->value : -ev->value;
            cnt[ci][v] = plays;
            val[ci][v] = plays * value;
            cnt[1 - ci][v] = val[1 - ci][v] = 0;
        }
        if (n->expanded)
            s_credit(n, cnt[ci], val[ci], area);
    }
}
