/*
 * worker/mcts_filter.c — the search's move filter (hs_mcts_filter_t,
 * KataGo's avoidMoveUntilByLoc): per colour and move, the depth until which
 * the move is not searched, for the analysis protocol's avoidMoves and
 * allowMoves and GTP's avoid and allow.
 *
 * At the root the filter's moves join the superko's and the symmetries' in
 * hs_mcts.banned, so that everything that respects those (selection, the
 * move chosen, the policy's move after one visit, noise) respects it too;
 * below the root selection asks hs__mcts_filtered (mcts.c). A changed
 * filter clears the tree, as KataGo's does: a tree grown under another
 * filter holds moves this one forbids.
 *
 * Root symmetry pruning (mcts_root.c) takes only the symmetries that map
 * the filter onto itself: a move and its copy under a symmetry are the same
 * move only where the filter treats their lines alike. KataGo prunes by the
 * stones alone (skipping avoided moves when it picks the move searched, and
 * when it lists the copies), so the copies it lists carry PVs mapped from
 * the move searched, which may hold moves the filter forbids.
 */
#include <string.h>

#include "core/symmetry.h"
#include "worker/mcts_internal.h"

void hs_mcts_filter_clear(hs_mcts_filter_t *f)
{
    memset(f, 0, sizeof *f);
}

bool hs_mcts_filter_empty(const hs_mcts_filter_t *f)
{
    for (int c = 0; c < 2; c++)
        for (int v = 0; v < HS_MCTS_MAX_MOVES; v++)
            if (f->until[c][v] > 0)
                return false;
    return true;
}

bool hs_mcts_filter_allows(const hs_mcts_filter_t *f, hs_color_t c, int v, int depth)
{
    if (!f || v < 0 || v >= HS_MCTS_MAX_MOVES || (c != HS_BLACK && c != HS_WHITE))
        return true;
    return depth >= f->until[c == HS_WHITE][v];
}

bool hs__mcts_filtered(const hs_mcts_t *m, hs_color_t c, int v, int depth)
{
    return m->has_filter && !hs_mcts_filter_allows(&m->filter, c, v, depth);
}

void hs__mcts_filter_mark_root(hs_mcts_t *m)
{
    if (!m->have_root)
        return;
    for (int v = 0; v <= m->area; v++) {
        if (m->banned[v] == HS__MCTS_BAN_FILTER)
            m->banned[v] = 0;
        if (m->banned[v] != HS__MCTS_BAN_SUPERKO && hs__mcts_filtered(m, m->root_nn.to_move, v, 0))
            m->banned[v] = HS__MCTS_BAN_FILTER;
    }
}

/* Whether symmetry s of the root's board maps the filter onto itself. */
static bool s_sym_keeps(const hs_mcts_t *m, int s)
{
    for (int v = 0; v < m->area; v++) {
        int x, y;
        hs_sym_apply(m->size, s, v % m->size, v / m->size, &x, &y);
        for (int c = 0; c < 2; c++)
            if (m->filter.until[c][v] != m->filter.until[c][y * m->size + x])
                return false;
    }
    return true;
}

unsigned hs__mcts_filter_syms(const hs_mcts_t *m)
{
    unsigned syms = 1;
    for (int s = 1; s < HS_SYM_COUNT; s++)
        if (!m->has_filter || s_sym_keeps(m, s))
            syms |= 1u << s;
    return syms;
}

static bool s_valid(const hs_mcts_filter_t *f)
{
    for (int c = 0; c < 2; c++)
        for (int v = 0; v < HS_MCTS_MAX_MOVES; v++)
            if (f->until[c][v] < 0)
                return false;
    return true;
}

int hs_mcts_set_filter(hs_mcts_t *m, const hs_mcts_filter_t *f, hs_error_t *err)
{
    if (f && !s_valid(f))
        return hs_error_set(err, HS_EINVAL, "mcts: a negative depth in the move filter");
    bool has = f && !hs_mcts_filter_empty(f);
    if (has == m->has_filter && (!has || !memcmp(&m->filter, f, sizeof *f)))
        return 0;
    if (has)
        m->filter = *f;
    else
        hs_mcts_filter_clear(&m->filter);
    m->has_filter = has;
    if (m->have_root)
        hs_mcts_clear(m);
    hs__mcts_filter_mark_root(m);
    return 0;
}
