/*
 * worker/mcts_value.c — a node's averages as KataGo computes them, for
 * evaluators that give estimates (worker/mcts.h, hs_mcts_config_t:
 * noise_prune_utility, value_weight_exponent).
 *
 * A running sum of the leaves below a node values a move by how often the
 * search looked at each reply, bad replies included. Recomputing the node
 * from its children's averages after every backup lets two adjustments
 * shift the weight towards the replies that are best for the side to move:
 * noise pruning takes weight from a child that holds far more than its
 * prior's share while being worse than the children before it, and value
 * weighting scales each child by how likely it is, given its visits, to be
 * better than the mean. The node's own evaluation counts with weight 1.
 * The weights are KataGo's (its searchupdatehelpers.cpp); the code is ours.
 *
 * Visits still count every leaf and the move played goes by visits; the
 * net's selection (mcts.c, KataGo's PUCT) reads the weights kept here.
 */
#include <math.h>

#include "worker/mcts_internal.h"

typedef struct {
    const hs__mcts_node_t *node;
    double util;    /* the child's average, its mover's (= the chooser's) view */
    double weight;
    double prior;
} s_child_t;

/* Student's t with 3 degrees of freedom, in closed form. */
static double s_t3_cdf(double z)
{
    double t = z / sqrt(3.0);
    return 0.5 + (atan(t) + t / (1.0 + t * t)) / M_PI;
}

/* Noise pruning over the children in prior order; returns the weights' sum. */
static double s_prune_noise(double scale, s_child_t *ch, int k)
{
    double usum = 0, wsum = 0, psum = 0;
    for (int i = 0; i < k; i++) {
        if (scale > 0 && wsum > 0 && psum > 0) {
            double gap = usum / wsum - ch[i].util;
            double lenient = 2.0 * wsum * ch[i].prior / psum;
            if (gap > 0 && ch[i].weight > lenient)
                ch[i].weight -= (ch[i].weight - lenient) * (1.0 - exp(-gap / scale));
        }
        usum += ch[i].util * ch[i].weight;
        wsum += ch[i].weight;
        psum += ch[i].prior;
    }
    return wsum;
}

/* Value weighting; the weights keep their sum total. */
static void s_weight_by_value(double exponent, s_child_t *ch, int k, double total)
{
    if (!(exponent > 0) || !(total > 0))
        return;
    double mean = 0;
    for (int i = 0; i < k; i++)
        mean += ch[i].util * ch[i].weight;
    mean /= total;
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (ch[i].weight > 0) {
            double stdev = sqrt(1e-8 + 1.0 / (1.5 * sqrt(ch[i].weight)));
            ch[i].weight *= pow(s_t3_cdf((ch[i].util - mean) / stdev) + 1e-4, exponent);
        }
        sum += ch[i].weight;
    }
    for (int i = 0; sum > 0 && i < k; i++)
        ch[i].weight *= total / sum;
}

bool hs__mcts_recomputes(const hs_mcts_t *m)
{
    return m->estimates && (m->cfg.noise_prune_utility > 0 || m->cfg.value_weight_exponent > 0 ||
                            m->cfg.subtree_bias > 0);
}

/* n's own utility as its average counts it: the evaluator's, shifted by the
 * subtree value bias, which first records what n's children (ch[0..k),
 * weighing total after pruning and orig before) say of it. */
static double s_own_util(hs_mcts_t *m, hs__mcts_node_t *n, const s_child_t *ch, int k,
                         double total, double orig)
{
    if (!n->svb_key || !hs__mcts_svb_on(m))
        return n->raw_util;
    double children = 0;
    for (int i = 0; i < k; i++)
        children -= ch[i].weight * ch[i].util;   /* to n's mover's view */
    if (!(total > 1e-10))
        return n->raw_util + hs__mcts_svb_bias(m, n);
    return n->raw_util + hs__mcts_svb_update(m, n, children / total, orig);
}

void hs__mcts_recompute(hs_mcts_t *m, hs__mcts_node_t *n)
{
    s_child_t ch[HS_MCTS_MAX_MOVES];
    int k = 0;
    for (int i = 0; i < n->num_edges; i++) {
        const hs__mcts_node_t *c = n->edges[i].child;
        double w = hs__mcts_edge_weight(&n->edges[i]);   /* 0 when unvisited */
        if (!(w > 0))
            continue;
        double prior = n->edges[i].prior;
        ch[k++] = (s_child_t){ c, c->util_sum / c->visits, w, prior > 1e-30 ? prior : 1e-30 };
    }
    if (k == 0)
        return;   /* its own evaluation only: the running sums are exact */
    double orig = 0;
    for (int i = 0; i < k; i++)
        orig += ch[i].weight;
    double total = s_prune_noise(m->cfg.noise_prune_utility, ch, k);
    s_weight_by_value(m->cfg.value_weight_exponent, ch, k, total);
    /* the children's averages turn to n's mover's view: value, score and
     * utility change sign, the squares do not */
    double u = s_own_util(m, n, ch, k, total, orig), u_sq = u * u;
    double v = n->raw_value, s = n->raw_score, s_sq = n->raw_score_sq, w = 1.0;
    double s_mean = n->raw_score_mean, w_sq = 1.0;
    for (int i = 0; i < k; i++) {
        const hs__mcts_node_t *c = ch[i].node;
        double f = ch[i].weight / c->visits;
        /* KataGo's weightSqSum: the child's, scaled as its weight was */
        double scaled = c->weight > 0 ? ch[i].weight / c->weight : 0;
        w_sq += scaled * scaled * c->weight_sq;
        u -= ch[i].weight * ch[i].util;
        u_sq += f * c->util_sq_sum;
        v -= f * c->value_sum;
        s -= f * c->score_sum;
        s_sq += f * c->score_sq_sum;
        s_mean -= f * c->score_mean_sum;
        w += ch[i].weight;
    }
    double scale = n->visits / w;
    n->util_sum = u * scale;
    n->util_sq_sum = u_sq * scale;
    n->value_sum = v * scale;
    n->score_sum = s * scale;
    n->score_sq_sum = s_sq * scale;
    n->score_mean_sum = s_mean * scale;
    n->weight = w;
    n->weight_sq = w_sq;
}

/* The utility of an evaluation kept as mover's-view parts (value, expected
 * final score, its second moment), for the node's side to move to_black,
 * returned in the mover's view again. */
static double s_mover_util(const hs_mcts_t *m, double value, double score_mean, double score_sq,
                           double to_black)
{
    double var = score_sq - score_mean * score_mean;
    return -hs__mcts_estimate_utility(m, -value, -score_mean, var > 0 ? sqrt(var) : 0, to_black);
}

/* n and its subtree; to_black is +1 when Black is to move at n. A node
 * that several parents share (graph search) is done once: mark. */
static void s_rescore(hs_mcts_t *m, hs__mcts_node_t *n, double to_black, uint32_t mark)
{
    if (n->mark == mark)
        return;
    n->mark = mark;
    int visited = 0;
    double child_visits = 0, child_util = 0, child_util_sq = 0;
    for (int i = 0; i < n->num_edges; i++) {
        hs__mcts_node_t *c = n->edges[i].child;
        if (!c || c->visits <= 0)
            continue;
        s_rescore(m, c, -to_black, mark);
        visited++;
        child_visits += c->visits;
        child_util += c->util_sum;
        child_util_sq += c->util_sq_sum;
    }
    if (n->visits <= 0)
        return;
    if (!visited) {
        /* a leaf or a finished game: its averages are its evaluations (KataGo
         * drops the subtree value bias here too) */
        double u = s_mover_util(m, n->value_sum / n->visits, n->score_mean_sum / n->visits,
                                n->score_sq_sum / n->visits, to_black);
        if (n->expanded)
            n->raw_util = (float)u;
        n->util_sum = u * n->visits;
        n->util_sq_sum = u * u * n->visits;
        return;
    }
    double u = s_mover_util(m, n->raw_value, n->raw_score_mean, n->raw_score_sq, to_black);
    n->raw_util = (float)u;
    if (hs__mcts_recomputes(m)) {
        hs__mcts_recompute(m, n);
        return;
    }
    /* running sums: its own evaluation and its children's, which are the
     * other side's */
    double scale = n->visits / (1.0 + child_visits);
    n->util_sum = (u - child_util) * scale;
    n->util_sq_sum = (u * u + child_util_sq) * scale;
}

void hs__mcts_rescore_tree(hs_mcts_t *m)
{
    if (m->root && m->estimates && m->have_center)
        s_rescore(m, m->root, m->root_nn.to_move == HS_BLACK ? 1 : -1, hs__mcts_next_mark(m));
}
