/*
 * worker/mcts_reuse.c — finding a new root in the old tree, so that
 * consecutive moves of a game (bulk annotation, genmove then the opponent's
 * reply) keep the visits already spent below the move that was played.
 *
 * The new position names the moves that led to it (its history); if
 * replaying the last one or two of them from the old root gives exactly the
 * new board (same key: stones, side to move, ko point), under the same rules
 * and komi, the node those moves lead to becomes the root, unless the tree
 * scored it as a finished game (two passes). The same position again keeps
 * the whole tree. Ownership sums (mcts_internal.h) follow the root down:
 * its new children get theirs then.
 */
#include <stdlib.h>
#include <string.h>

#include "worker/mcts_internal.h"

static int s_find_edge(const hs__mcts_node_t *n, int move)
{
    for (int i = 0; i < n->num_edges; i++)
        if (n->edges[i].move == move)
            return i;
    return -1;
}

/* Follows pos's last k moves from the old root; the edge reached, or NULL. */
static hs__mcts_edge_t *s_follow(hs_mcts_t *m, const hs_nn_pos_t *pos, int k)
{
    hs_board_t b;
    hs_board_copy(&b, &m->root_board);
    hs__mcts_node_t *n = m->root;
    hs__mcts_edge_t *e = NULL;
    for (int j = pos->n_hist - k; j < pos->n_hist; j++) {
        hs_point_t p = pos->hist_move[j];
        if (!n || !n->expanded || pos->hist_color[j] != b.to_move ||
            hs_board_play(&b, pos->hist_color[j], p, m->play_flags, NULL))
            return NULL;
        int v = p == HS_PASS ? m->area : hs_board_y(&b, p) * m->size + hs_board_x(&b, p);
        int i = s_find_edge(n, v);
        if (i < 0)
            return NULL;
        e = &n->edges[i];
        n = e->child;
    }
    if (!e || !e->child || hs_board_key(&b) != hs_board_key(pos->board))
        return NULL;
    return e;
}

hs__mcts_node_t *hs__mcts_find_reuse(hs_mcts_t *m, const hs_nn_pos_t *pos, int *plies)
{
    *plies = 0;
    const hs_nn_pos_t *old = &m->root_nn;
    if (!m->root || pos->board->size != m->size || pos->rules != old->rules ||
        pos->komi != old->komi || pos->handicap != old->handicap)
        return NULL;
    if (hs_board_key(pos->board) == hs_board_key(&m->root_board) &&
        pos->to_move == old->to_move && pos->n_hist == old->n_hist &&
        (pos->n_hist == 0 || pos->hist_move[pos->n_hist - 1] == old->hist_move[old->n_hist - 1]))
        return m->root;
    for (int k = 1; k <= 2 && k <= pos->n_hist; k++) {
        hs__mcts_edge_t *e = s_follow(m, pos, k);
        /* a finished game below the old root was scored, never evaluated: as
         * a root it is searched, so it starts afresh (KataGo keeps no child
         * without a net evaluation either) */
        if (e && e->child->terminal)
            return NULL;
        if (e) {
            *plies = k;
            return e->child;
        }
    }
    return NULL;
}

int hs__mcts_give_own(hs__mcts_node_t *n)
{
    if (n->own)
        return 0;
    n->own = calloc(2 * (size_t)HS_MCTS_MAX_AREA, sizeof *n->own);
    n->own_count = 0;
    return n->own ? 0 : HS_ENOMEM;
}

/* The root's children were deeper and have no sums: they get them now, so
 * that their per-move ownership averages the evaluations from here on
 * (without memory for them, a move's ownership is just not known). A root
 * whose own sums began that way starts them afresh, as one that had none:
 * the root's average stays over the evaluations since it became the root. */
void hs__mcts_own_reroot(hs_mcts_t *m)
{
    hs__mcts_node_t *r = m->root;
    if (r->own && r->own_late) {
        memset(r->own, 0, 2 * (size_t)HS_MCTS_MAX_AREA * sizeof *r->own);
        r->own_count = 0;
        r->own_late = 0;
    }
    for (int i = 0; i < r->num_edges; i++) {
        hs__mcts_node_t *c = r->edges[i].child;
        if (c && !c->own && hs__mcts_give_own(c) == 0)
            c->own_late = 1;
    }
}
