/*
 * worker/mcts_svb.c — KataGo's subtree value bias, for evaluators that give
 * estimates (worker/mcts.h, hs_mcts_config_t: subtree_bias).
 *
 * A net misjudges the same local fight the same way wherever the tree meets
 * it: after a given reply to a given move, with the same stones around it,
 * the search below usually corrects the net's value by about the same
 * amount. Each node made by such a reply records that correction (its
 * children's average utility minus its own evaluation, weighted by its
 * children's weight^exponent) in a table entry shared by every node of the
 * same key, and every node of the key shifts its own evaluation by
 * subtree_bias x the entry's mean correction. A node seen once thus starts
 * from what deeper searches of the same shape found.
 *
 * The key: the move before (the parent's move), the move, the side that
 * plays it, the simple-ko point, and the 5x5 window around the move on the
 * board before it (colour of each point, whether its string is in atari;
 * points off the board leave their cell out, so the window knows the edge).
 * Passes make no key, nor does a move with no move before it.
 *
 * The table lives with the search (hs_mcts_t) and across its searches, as
 * the tree does: entries keep their sums while some node refers to them; a
 * node freed takes back free_prop of what it added; entries no node refers
 * to are dropped when a search begins. The weights and the key's shape are
 * KataGo's (its subtreevaluebiastable.cpp, searchupdatehelpers.cpp); the
 * code is ours. Open addressing, linear probing, keys never 0.
 */
#include <math.h>
#include <stdlib.h>

#include "worker/mcts_eval_internal.h"
#include "worker/mcts_internal.h"

struct hs__mcts_svb_entry {
    uint64_t key;       /* 0 = empty slot */
    double delta;       /* sum of the nodes' corrections x weights */
    double weight;      /* sum of their weights */
    int32_t refs;       /* nodes that hold the key */
};

/* Salts of the key's parts, so that equal numbers in two parts differ. */
enum { S_CELL = 1, S_PREV, S_MOVE, S_KO, S_MOVER };

bool hs__mcts_svb_on(const hs_mcts_t *m)
{
    return m->estimates && m->cfg.subtree_bias > 0;
}

uint64_t hs__mcts_svb_key(const hs_board_t *before, hs_color_t mover, hs_point_t move)
{
    if (move == HS_PASS || before->last_move == HS_NO_POINT)
        return 0;
    int size = before->size, x = hs_board_x(before, move), y = hs_board_y(before, move);
    uint64_t k = hs__mcts_mix(S_PREV, before->last_move) ^ hs__mcts_mix(S_MOVE, move) ^
                 hs__mcts_mix(S_MOVER, (uint64_t)mover);
    if (before->ko != HS_NO_POINT)
        k ^= hs__mcts_mix(S_KO, before->ko);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            if (x + dx < 0 || x + dx >= size || y + dy < 0 || y + dy >= size)
                continue;
            hs_point_t p = hs_board_point(before, x + dx, y + dy);
            unsigned c = before->color[p];
            unsigned atari = c != HS_EMPTY && hs_board_libs(before, p) == 1;
            unsigned cell = (unsigned)((dy + 2) * 5 + dx + 2);
            k ^= hs__mcts_mix(S_CELL, cell * 8 + c * 2 + atari);
        }
    return k ? k : 1;
}

static size_t s_slot(const hs__mcts_svb_entry_t *t, size_t cap, uint64_t key)
{
    size_t i = (size_t)(key ^ (key >> 29)) & (cap - 1);
    while (t[i].key && t[i].key != key)
        i = (i + 1) & (cap - 1);
    return i;
}

/* Moves the entries that keep_all or a reference asks to keep into a table
 * of cap slots (a power of two above twice their number). */
static int s_rehash(hs_mcts_t *m, size_t cap, bool keep_all)
{
    hs__mcts_svb_entry_t *t = calloc(cap, sizeof *t);
    if (!t)
        return HS_ENOMEM;
    size_t used = 0;
    for (size_t i = 0; i < m->svb_cap; i++) {
        const hs__mcts_svb_entry_t *e = &m->svb[i];
        if (e->key && (keep_all || e->refs > 0)) {
            t[s_slot(t, cap, e->key)] = *e;
            used++;
        }
    }
    free(m->svb);
    m->svb = t;
    m->svb_cap = cap;
    m->svb_used = used;
    return 0;
}

static hs__mcts_svb_entry_t *s_find(const hs_mcts_t *m, uint64_t key)
{
    if (!key || !m->svb_cap)
        return NULL;
    hs__mcts_svb_entry_t *e = &m->svb[s_slot(m->svb, m->svb_cap, key)];
    return e->key == key ? e : NULL;
}

int hs__mcts_svb_attach(hs_mcts_t *m, hs__mcts_node_t *n, uint64_t key)
{
    if (!key)
        return 0;
    if (2 * (m->svb_used + 1) > m->svb_cap) {
        int rc = s_rehash(m, m->svb_cap ? 2 * m->svb_cap : 1024, true);
        if (rc)
            return rc;
    }
    hs__mcts_svb_entry_t *e = &m->svb[s_slot(m->svb, m->svb_cap, key)];
    if (!e->key) {
        e->key = key;
        m->svb_used++;
    }
    e->refs++;
    n->svb_key = key;
    n->svb_delta = n->svb_weight = 0;
    return 0;
}

double hs__mcts_svb_bias(const hs_mcts_t *m, const hs__mcts_node_t *n)
{
    const hs__mcts_svb_entry_t *e = s_find(m, n->svb_key);
    return e && e->weight > 0.001 ? m->cfg.subtree_bias * e->delta / e->weight : 0.0;
}

double hs__mcts_svb_update(hs_mcts_t *m, hs__mcts_node_t *n, double children_util,
                           double children_weight)
{
    hs__mcts_svb_entry_t *e = s_find(m, n->svb_key);
    if (!e)
        return 0.0;
    double w = pow(children_weight, m->cfg.subtree_bias_exponent);
    double d = (children_util - n->raw_util) * w;
    e->delta += d - n->svb_delta;
    e->weight += w - n->svb_weight;
    n->svb_delta = d;
    n->svb_weight = w;
    return e->weight > 0.001 ? m->cfg.subtree_bias * e->delta / e->weight : 0.0;
}

void hs__mcts_svb_release(hs_mcts_t *m, hs__mcts_node_t *n)
{
    hs__mcts_svb_entry_t *e = s_find(m, n->svb_key);
    if (!e)
        return;
    e->delta -= n->svb_delta * m->cfg.subtree_bias_free;
    e->weight -= n->svb_weight * m->cfg.subtree_bias_free;
    e->refs--;
    n->svb_key = 0;
}

void hs__mcts_svb_sweep(hs_mcts_t *m)
{
    if (m->svb_cap == 0)
        return;
    size_t live = 0;
    for (size_t i = 0; i < m->svb_cap; i++)
        live += m->svb[i].key && m->svb[i].refs > 0;
    if (live == m->svb_used)
        return;
    size_t cap = 1024;
    while (cap < 4 * live)
        cap *= 2;
    if (s_rehash(m, cap, false))
        return;   /* no memory for a smaller table: keep the old one, stale entries and all */
}

void hs__mcts_svb_free(hs_mcts_t *m)
{
    free(m->svb);
    m->svb = NULL;
    m->svb_cap = m->svb_used = 0;
}
