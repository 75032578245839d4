/*
 * worker/mcts_root.c — the root's evaluation at several symmetries
 * (hs_mcts_config_t.root_symmetries, KataGo's rootNumSymmetriesToSample), and
 * the order of a node's edges, which both expansion and this re-evaluation
 * keep.
 *
 * A fresh root is a leaf like any other, except that mcts.c sends it through
 * the evaluator's eval_avg instead of the batch. A root kept from the search
 * before was expanded as a leaf, at one symmetry; its priors are replaced by
 * the average at the first step of the new search, as KataGo recomputes a
 * kept root's net output. Only the priors change: its own value counts for
 * one of the root's visits, and KataGo leaves the stats alone too.
 *
 * Root symmetry pruning lives here too: on a root whose stones some of the
 * board's symmetries leave unchanged, equivalent moves would each get a
 * share of the visits that one of them could use, so all but one of each
 * set are banned from the root's selection, as KataGo's
 * markDuplicateMoveLocs does; the results (mcts_result.c) list the copies.
 * With a move filter, only the symmetries that map it onto itself count
 * (mcts_filter.c).
 */
#include <stdlib.h>

#include "core/symmetry.h"
#include "worker/mcts_internal.h"

static int s_cmp_edge(const void *a, const void *b)
{
    const hs__mcts_edge_t *x = a, *y = b;
    if (x->prior != y->prior)
        return x->prior > y->prior ? -1 : 1;
    return (int)x->move - (int)y->move;
}

void hs__mcts_sort_edges(hs__mcts_node_t *n)
{
    qsort(n->edges, (size_t)n->num_edges, sizeof *n->edges, s_cmp_edge);
}

bool hs__mcts_root_wants_avg(const hs_mcts_t *m, const hs_mcts_evaluator_t *ev)
{
    return m->cfg.root_symmetries > 1 && ev->eval_avg;
}

int hs__mcts_root_reaverage(hs_mcts_t *m, hs_mcts_evaluator_t *ev, hs_error_t *err)
{
    hs__mcts_node_t *r = m->root;
    if (!r || !r->expanded || r->terminal || r->sym_avg || !hs__mcts_root_wants_avg(m, ev))
        return 0;
    hs_mcts_eval_t *out = malloc(sizeof *out);
    if (!out)
        return hs_error_set(err, HS_ENOMEM, "mcts: out of memory");
    out->has_amaf = 0;
    int rc = ev->eval_avg(ev->ctx, &m->root_nn, m->cfg.root_symmetries, out, err);
    ev->calls++;
    ev->leaves++;
    if (!rc) {
        bool noised = m->noised;
        if (noised)
            hs__mcts_restore_priors(m);
        double sum = 0;
        for (int i = 0; i < r->num_edges; i++) {
            float p = out->policy[r->edges[i].move];
            sum += p > 0 ? p : 0;
        }
        for (int i = 0; i < r->num_edges; i++) {
            float p = out->policy[r->edges[i].move];
            r->edges[i].prior = sum > 0 ? (float)((p > 0 ? p : 0) / sum)
                                        : 1.0f / (float)r->num_edges;
        }
        hs__mcts_sort_edges(r);
        r->sym_avg = 1;
        if (noised)
            hs__mcts_adjust_root_priors(m);
    }
    free(out);
    return rc;
}

/* The ko point or a superko ban makes equivalent moves unequal; KataGo then
 * treats the board as having no symmetry. */
static bool s_root_may_prune(const hs_mcts_t *m)
{
    if (!m->cfg.root_symmetry_pruning || m->root_board.ko != HS_NO_POINT)
        return false;
    for (int v = 0; v < m->area; v++)
        if (m->banned[v] == HS__MCTS_BAN_SUPERKO)
            return false;
    return true;
}

void hs__mcts_root_mark_symmetric(hs_mcts_t *m)
{
    for (int v = 0; v < m->area; v++)
        if (m->banned[v] == HS__MCTS_BAN_SYMMETRY)
            m->banned[v] = 0;
    m->root_syms = 1;
    unsigned stab = 1;
    if (!m->have_root || !s_root_may_prune(m))
        return;
    hs_board_canonical_key(&m->root_board, NULL, &stab);
    stab &= hs__mcts_filter_syms(m);   /* a copy must be one for the move filter too */
    m->root_syms = stab;
    if (stab == 1)
        return;
    /* KataGo's order, which keeps Black's move nearest the top right and
     * White's nearest the bottom left: Black's columns from the right, each
     * from the top; White's from the left, each from the bottom */
    const int n = m->size;
    const bool black = m->root_nn.to_move == HS_BLACK;
    for (int i = 0; i < m->area; i++) {
        int x = black ? n - 1 - i / n : i / n, y = black ? i % n : n - 1 - i % n;
        if (m->banned[y * n + x])
            continue;
        for (int s = 1; s < HS_SYM_COUNT; s++) {
            int sx, sy;
            if (!(stab >> s & 1))
                continue;
            hs_sym_apply(n, s, x, y, &sx, &sy);
            if (sy * n + sx != y * n + x)
                m->banned[sy * n + sx] = HS__MCTS_BAN_SYMMETRY;
        }
    }
}
