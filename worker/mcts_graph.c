/*
 * worker/mcts_graph.c — the search's node table: every node of the tree by
 * the key of its position and ply, for graph search (hs_mcts_config_t
 * .graph_search) and for freeing.
 *
 * With graph search, a move whose resulting position already has a node at
 * that ply (a transposition: the same stones, side to move, ko point and
 * passes by another order of moves) gets that node as its child, so that
 * what the search learnt below it counts on every path to it (KataGo's
 * useGraphSearch). The ply in the key keeps the graph acyclic: a line that
 * comes back to a position (a ko fight) meets a node of a later ply, never
 * one of its own ancestors. KataGo keeps repetitions apart by hashing in
 * the history instead; transpositions of different lengths, which need
 * passes, are not shared here.
 *
 * An edge into a shared node may lag the node: its visits are only those
 * that came through it, while the node's value stands on all of them. So,
 * as KataGo's maybeCatchUpEdgeVisits does, when selection takes such an
 * edge it gives it one visit more and stops there, without an evaluation:
 * the parent then weighs the child by more of what is already known of it,
 * and the visit goes to reading elsewhere, not to searching the same node
 * again by another path. Such a visit counts in the budget, as KataGo's.
 *
 * A node may then have several parents, so the tree cannot be freed by
 * walking it from the root: the table lists every node, and a new root
 * frees what it does not reach (mark, then sweep). Without graph search the
 * table is kept the same way, only never searched.
 *
 * Open addressing with linear probing; nothing is deleted but by the sweep,
 * which builds the table anew.
 */
#include <stdlib.h>
#include <string.h>

#include "worker/mcts_internal.h"

static uint64_t s_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

uint64_t hs__mcts_graph_key(const hs_board_t *board, int ply)
{
    uint64_t k = hs_board_key(board) ^ s_mix((uint64_t)board->passes + 0x9e3779b97f4a7c15ull);
    return s_mix(k + (uint64_t)(uint32_t)ply * 0x632be59bd9b4e019ull);
}

uint32_t hs__mcts_next_mark(hs_mcts_t *m)
{
    if (++m->epoch == 0) {   /* wrapped: no node may keep an old mark that matches */
        for (size_t i = 0; i < m->table_cap; i++)
            if (m->table[i])
                m->table[i]->mark = 0;
        m->epoch = 1;
    }
    return m->epoch;
}

static void s_put(hs__mcts_node_t **t, size_t cap, hs__mcts_node_t *n)
{
    size_t i = (size_t)n->key & (cap - 1);
    while (t[i])
        i = (i + 1) & (cap - 1);
    t[i] = n;
}

/* A table of cap slots (a power of two) holding the old one's nodes: 0 or
 * HS_ENOMEM (the old one is kept). */
static int s_rebuild(hs_mcts_t *m, size_t cap)
{
    hs__mcts_node_t **t = calloc(cap, sizeof *t);
    if (!t)
        return HS_ENOMEM;
    size_t used = 0;
    for (size_t i = 0; i < m->table_cap; i++) {
        hs__mcts_node_t *n = m->table[i];
        if (n) {
            s_put(t, cap, n);
            used++;
        }
    }
    free(m->table);
    m->table = t;
    m->table_cap = cap;
    m->table_used = used;
    return 0;
}

int hs__mcts_table_add(hs_mcts_t *m, hs__mcts_node_t *n)
{
    if (2 * (m->table_used + 1) > m->table_cap &&
        s_rebuild(m, m->table_cap ? 2 * m->table_cap : 256))
        return HS_ENOMEM;
    s_put(m->table, m->table_cap, n);
    m->table_used++;
    return 0;
}

hs__mcts_node_t *hs__mcts_table_find(const hs_mcts_t *m, uint64_t key)
{
    if (!m->table_cap)
        return NULL;
    for (size_t i = (size_t)key & (m->table_cap - 1); m->table[i]; i = (i + 1) & (m->table_cap - 1))
        if (m->table[i]->key == key)
            return m->table[i];
    return NULL;
}

static void s_free_node(hs_mcts_t *m, hs__mcts_node_t *n)
{
    hs__mcts_svb_release(m, n);
    free(n->edges);
    free(n->own);
    free(n);
    m->nodes--;
}

/* Marks everything n reaches. Depth first with an explicit stack: a line
 * can be hundreds of moves deep. */
static int s_mark(hs_mcts_t *m, hs__mcts_node_t *n, uint32_t mark)
{
    size_t cap = 256, top = 0;
    hs__mcts_node_t **stack = malloc(cap * sizeof *stack);
    if (!stack)
        return HS_ENOMEM;
    n->mark = mark;
    stack[top++] = n;
    while (top) {
        hs__mcts_node_t *x = stack[--top];
        for (int i = 0; i < x->num_edges; i++) {
            hs__mcts_node_t *c = x->edges[i].child;
            if (!c || c->mark == mark)
                continue;
            c->mark = mark;
            if (top == cap) {
                hs__mcts_node_t **s = realloc(stack, 2 * cap * sizeof *s);
                if (!s) {
                    free(stack);
                    return HS_ENOMEM;
                }
                stack = s;
                cap *= 2;
            }
            stack[top++] = c;
        }
    }
    free(stack);
    return 0;
}

int hs__mcts_table_keep(hs_mcts_t *m, hs__mcts_node_t *keep)
{
    uint32_t mark = hs__mcts_next_mark(m);
    if (!keep || s_mark(m, keep, mark)) {
        hs__mcts_table_free(m);
        return keep ? HS_ENOMEM : 0;
    }
    for (size_t i = 0; i < m->table_cap; i++) {
        hs__mcts_node_t *n = m->table[i];
        if (n && n->mark != mark) {
            s_free_node(m, n);
            m->table[i] = NULL;
            m->table_used--;
        }
    }
    /* The freed slots cut probe chains: the table is built anew, smaller
     * when it emptied. Without the memory for that, a lookup may miss a
     * node, which costs only a transposition. */
    size_t cap = m->table_cap;
    while (cap > 256 && 8 * m->table_used < cap)
        cap /= 2;
    (void)s_rebuild(m, cap);
    return 0;
}

void hs__mcts_table_free(hs_mcts_t *m)
{
    for (size_t i = 0; i < m->table_cap; i++)
        if (m->table[i])
            s_free_node(m, m->table[i]);
    free(m->table);
    m->table = NULL;
    m->table_cap = m->table_used = 0;
}

bool hs__mcts_catches_up(const hs_mcts_t *m, const hs__mcts_edge_t *e)
{
    return m->cfg.graph_search && m->estimates && hs__mcts_recomputes(m) && e->child &&
           e->visits < e->child->visits;
}

void hs__mcts_catch_up(hs_mcts_t *m, const hs__mcts_leaf_t *L)
{
    for (int d = L->depth; d >= 0; d--) {
        hs__mcts_node_t *n = L->path[d];
        n->visits++;
        n->edges[L->edge[d]].visits++;
        hs__mcts_recompute(m, n);
    }
}
