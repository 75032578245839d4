/*
 * tests/test_mcts_root.c — what worker/mcts.h does at the root and across
 * the tree's shape, with the toy evaluator of tests/mcts_toy.h: the root
 * evaluated at several symmetries (root_symmetries), root symmetry pruning
 * on symmetric boards and the copies the results list, and graph search
 * (transpositions shared, visits adding up, a kept root freeing what it
 * cannot reach), the move played when no root child got a visit, the
 * per-move ownership (fresh, in a kept tree, of symmetric copies) and the
 * root policy temperature. The rest of the search is tests/test_mcts.c's.
 */
#include "core/symmetry.h"
#include "tests/mcts_toy.h"

/* root_symmetries: a fresh root is evaluated through eval_avg (once, not in
 * the batch, and it is the root's first visit), a kept root gets its priors
 * anew from it at the first step of the next search, 1 leaves it alone, and
 * the count is checked. */
static void test_root_symmetries(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    ev.eval_avg = toy_eval_avg;
    hs_mcts_t *m = toy_search(60, 2, 3);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(t.avg_calls, 0);                 /* 1: off */
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.root_symmetries = 8;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    hs_mcts_clear(m);
    int leaves = t.leaves;
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(t.avg_calls, 1);
    HS_CHECK_INT(t.avg_syms, 8);
    HS_CHECK_INT(t.leaves - leaves + 1, 60);      /* the root was a visit, not a batch leaf */
    HS_CHECK_INT(m->root->edges[0].move, toy_favourite(&p.nn));
    HS_CHECK(fabs(m->root->edges[0].prior - 0.9) < 1e-6);
    HS_CHECK(m->root->sym_avg);
    /* Again on the same root: it is averaged already. */
    cfg.max_visits = 80;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(t.avg_calls, 1);

    /* A kept root: expanded as a leaf, at one symmetry (toy_eval's uniform
     * prior), then averaged at the first step. */
    int best = -1;
    for (int i = 0; i < m->root->num_edges; i++)
        if (m->root->edges[i].child && m->root->edges[i].child->expanded &&
            m->root->edges[i].move != 25)
            best = m->root->edges[i].move;
    HS_CHECK(best >= 0);
    hs_board_t next;
    hs_nn_pos_t nn = toy_play(&p.nn, &next, best);
    HS_CHECK_INT(hs_mcts_set_root(m, &nn, NULL, &err), 0);
    int kept = hs_mcts_root_visits(m);
    HS_CHECK(kept > 0 && !m->root->sym_avg);
    cfg.max_visits = kept + 10;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    leaves = t.leaves;
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(t.avg_calls, 2);
    HS_CHECK_INT(t.leaves - leaves, 10);          /* the root's priors cost no visit */
    HS_CHECK_INT(m->root->edges[0].move, toy_favourite(&nn));
    HS_CHECK(fabs(m->root->edges[0].prior - 0.9) < 1e-6);
    for (int i = 1; i < m->root->num_edges; i++)
        HS_CHECK(m->root->edges[i - 1].prior >= m->root->edges[i].prior);
    HS_CHECK_INT(hs_mcts_root_visits(m), kept + 10);

    cfg.root_symmetries = 0;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), HS_EINVAL);
    cfg.root_symmetries = 9;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), HS_EINVAL);
    hs_mcts_free(&m);
}

/* The tree's shape from the node table: how many nodes more than one edge
 * leads to, and whether the visits add up (on a fresh tree): an expanded
 * node's are its own first evaluation and its edges' visits; no edge has
 * more than the node it leads to; a node of one edge in has exactly that
 * edge's (an edge into a shared node may lag it, or be caught up to it:
 * mcts_graph.c); *caught_up: how many nodes the edges into them give more
 * visits than the node has (an edge caught up while another led there). */
static int s_shared_nodes(hs_mcts_t *m, bool *visits_add_up, int *caught_up)
{
    long n = 0;
    for (size_t i = 0; i < m->table_cap; i++)
        n += m->table[i] != NULL;
    HS_CHECK_INT((int)n, (int)m->nodes);
    int *in_edges = calloc((size_t)n, sizeof *in_edges), shared = 0;
    long *in_visits = calloc((size_t)n, sizeof *in_visits);
    hs__mcts_node_t **all = calloc((size_t)n, sizeof *all);
    long k = 0;
    for (size_t i = 0; i < m->table_cap; i++)
        if (m->table[i])
            all[k++] = m->table[i];
    for (long i = 0; i < n; i++)
        for (int j = 0; j < all[i]->num_edges; j++)
            for (long x = 0; all[i]->edges[j].child && x < n; x++)
                if (all[x] == all[i]->edges[j].child) {
                    in_edges[x]++;
                    in_visits[x] += all[i]->edges[j].visits;
                }
    *visits_add_up = true;
    *caught_up = 0;
    for (long x = 0; x < n; x++) {
        const hs__mcts_node_t *c = all[x];
        shared += in_edges[x] > 1;
        *caught_up += in_visits[x] > c->visits;
        long out = 1;
        for (int j = 0; j < c->num_edges; j++) {
            out += c->edges[j].visits;
            if (c->edges[j].child && c->edges[j].visits > c->edges[j].child->visits)
                *visits_add_up = false;
        }
        bool ok = (!c->expanded || c->terminal || c->visits == out) &&
                  (in_edges[x] != 1 || c->visits == in_visits[x]);
        if (!ok && *visits_add_up)
            printf("node %p: %d visits, %ld through its %d edges in, %ld out%s\n", (void *)c,
                   c->visits, in_visits[x], in_edges[x], out - 1, c == m->root ? " (root)" : "");
        *visits_add_up = *visits_add_up && ok;
    }
    free(in_edges);
    free(in_visits);
    free(all);
    return shared;
}

/* Graph search: on an open 5x5 board with a flat prior, lines that play the
 * same moves in another order meet in one node, and edges that lag a shared
 * node are caught up to it; the visits add up (s_shared_nodes), with and
 * without it; one thread and a seed repeat exactly; a kept root frees what
 * it cannot reach; rollouts (no estimates) keep a tree. */
static void test_graph_search(void)
{
    static hs_mcts_result_t a, b;
    static const char *const rows[] = { ".....", ".....", "..X..", ".....", "....." };
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, rows, 5, HS_WHITE, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 16);
    ev.estimates = true;
    int shared[2] = { 0, 0 };
    for (int graph = 0; graph <= 1; graph++) {
        hs_mcts_t *m1 = toy_search(400, 1, 5), *m2 = toy_search(400, 1, 5);
        hs_mcts_config_t cfg = *hs_mcts_get_config(m1);
        cfg.graph_search = graph;
        HS_CHECK_INT(hs_mcts_set_config(m1, &cfg, &err), 0);
        HS_CHECK_INT(hs_mcts_set_config(m2, &cfg, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m1, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m2, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m1, &ev, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m2, &ev, &err), 0);
        hs_mcts_get_result(m1, &a);
        hs_mcts_get_result(m2, &b);
        toy_check_same(&a, &b);
        HS_CHECK_INT(a.visits, 400);
        /* a position's visits (KataGo's visits, pvVisits) count every path
         * to it, a move's (edgeVisits, pvEdgeVisits) its own: the same in a
         * tree, never more for the move in a graph */
        int more = 0;
        for (int k = 0; k < a.num_moves; k++) {
            const hs_mcts_move_info_t *mi = &a.moves[k];
            HS_CHECK(mi->child_visits >= mi->visits && mi->pv_visits[0] == mi->child_visits &&
                     mi->pv_edge_visits[0] == mi->visits);
            for (int j = 0; j < mi->pv_len; j++) {
                HS_CHECK(mi->pv_edge_visits[j] <= mi->pv_visits[j]);
                more += mi->pv_edge_visits[j] < mi->pv_visits[j];
            }
        }
        if (!graph)
            HS_CHECK_INT(more, 0);
        bool add_up;
        int caught;
        shared[graph] = s_shared_nodes(m1, &add_up, &caught);
        HS_CHECK(graph ? caught > 0 : caught == 0);
        HS_CHECK(add_up);
        printf("graph search %s: %ld nodes, %d of them shared, %d caught up\n",
               graph ? "on" : "off", m1->nodes, shared[graph], caught);

        /* the most visited move, then the reply most visited below it: the
         * new root keeps exactly the nodes it reaches */
        hs_board_t b1, b2;
        int mv = a.moves[0].move, reply = a.moves[0].pv_len > 1 ? a.moves[0].pv[1] : -1;
        HS_CHECK(reply >= 0 && reply < 25);
        hs_nn_pos_t nn1 = toy_play(&p.nn, &b1, mv), nn = toy_play(&nn1, &b2, reply);
        long before = m1->nodes;
        HS_CHECK_INT(hs_mcts_set_root(m1, &nn, NULL, &err), 0);
        HS_CHECK(hs_mcts_root_visits(m1) > 0 && m1->nodes < before);
        long reached = 0;
        uint32_t mark = hs__mcts_next_mark(m1);
        hs__mcts_node_t *stack[4096];
        int top = 0;
        stack[top++] = m1->root;
        m1->root->mark = mark;
        while (top) {
            hs__mcts_node_t *x = stack[--top];
            reached++;
            for (int j = 0; j < x->num_edges; j++) {
                hs__mcts_node_t *c = x->edges[j].child;
                if (c && c->mark != mark && top < 4096) {
                    c->mark = mark;
                    stack[top++] = c;
                }
            }
        }
        HS_CHECK_INT((int)reached, (int)m1->nodes);
        cfg.max_visits = hs_mcts_root_visits(m1) + 50;
        HS_CHECK_INT(hs_mcts_set_config(m1, &cfg, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m1, &ev, &err), 0);   /* searches on from the kept nodes */
        HS_CHECK_INT(hs_mcts_root_visits(m1), cfg.max_visits);
        hs_mcts_free(&m1);
        hs_mcts_free(&m2);
    }
    HS_CHECK_INT(shared[0], 0);   /* a tree: one edge into each node */
    HS_CHECK(shared[1] > 0);
    /* without estimates (rollouts' running means): a tree, graph search or not */
    ev.estimates = false;
    hs_mcts_t *m = toy_search(400, 1, 5);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.graph_search = true;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    bool add_up;
    int caught;
    HS_CHECK_INT(s_shared_nodes(m, &add_up, &caught), 0);
    HS_CHECK_INT(caught, 0);
    HS_CHECK(add_up);
    hs_mcts_free(&m);
}

/* The root's moves that pruning bans (HS__MCTS_BAN_SYMMETRY), as a count. */
static int s_sym_banned(const hs_mcts_t *m)
{
    int n = 0;
    for (int v = 0; v < m->area; v++)
        n += m->banned[v] == HS__MCTS_BAN_SYMMETRY;
    return n;
}

/* One search of `visits` on diagram rows (5x5), pruning on or off. */
static hs_mcts_t *s_pruned_search(const char *const *rows, hs_color_t to_move, bool prune,
                                  int visits, hs_mcts_result_t *res)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, rows, 5, to_move, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    ev.estimates = true;
    hs_mcts_t *m = toy_search(visits, 1, 11);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.root_symmetry_pruning = prune;   /* after set_root: begin reads it */
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, res);
    return m;
}

/* A copy's per-move ownership is its original's mapped by the copy's
 * symmetry (which maps the original's move onto the copy): the point
 * sym(v) of the copy holds what v holds in the original. */
static void s_check_copy_ownership(const hs_mcts_t *m, const hs_mcts_move_info_t *src,
                                   const hs_mcts_move_info_t *mi)
{
    float a[HS_MCTS_MAX_AREA], b[HS_MCTS_MAX_AREA], sa[HS_MCTS_MAX_AREA], sb[HS_MCTS_MAX_AREA];
    int n = m->size, x, y;
    HS_CHECK(mi->sym > 0 && mi->sym < HS_SYM_COUNT);
    if (src->move < n * n) {
        hs_sym_apply(n, mi->sym, src->move % n, src->move / n, &x, &y);
        HS_CHECK_INT(y * n + x, mi->move);
    }
    HS_CHECK_INT(mi->own_count, src->own_count);
    HS_CHECK(src->own_count > 0);
    HS_CHECK_INT(hs_mcts_move_ownership(m, src, a, sa), src->own_count);
    HS_CHECK_INT(hs_mcts_move_ownership(m, mi, b, sb), src->own_count);
    for (int v = 0; v < n * n; v++) {
        hs_sym_apply(n, mi->sym, v % n, v / n, &x, &y);
        HS_CHECK(b[y * n + x] == a[v] && sb[y * n + x] == sa[v]);
    }
}

/* The result as KataGo lists it: each move searched, then its copies, each
 * with the visits and the mapped PV of the one it copies; every move once;
 * the copies' visits not counted twice. */
static void s_check_copies(const hs_mcts_t *m, const hs_mcts_result_t *r, int *copies)
{
    unsigned char seen[HS_MCTS_MAX_MOVES] = { 0 };
    int searched = 0, last = -1;
    *copies = 0;
    for (int k = 0; k < r->num_moves; k++) {
        const hs_mcts_move_info_t *mi = &r->moves[k];
        HS_CHECK_INT(mi->order, k);
        HS_CHECK(!seen[mi->move]);
        seen[mi->move] = 1;
        HS_CHECK_INT(mi->pv[0], mi->move);
        if (mi->sym_of < 0) {
            HS_CHECK_INT(m->banned[mi->move], 0);
            searched += mi->visits;
            last = k;
            continue;
        }
        ++*copies;
        HS_CHECK(last >= 0 && r->moves[last].move == mi->sym_of);
        if (last >= 0)
            s_check_copy_ownership(m, &r->moves[last], mi);
        HS_CHECK_INT(m->banned[mi->move], HS__MCTS_BAN_SYMMETRY);
        if (last >= 0) {
            HS_CHECK_INT(mi->visits, r->moves[last].visits);
            HS_CHECK_INT(mi->pv_len, r->moves[last].pv_len);
        }
    }
    HS_CHECK_INT(searched, r->visits - 1);   /* the root's own first visit */
}

/* Root symmetry pruning: on the empty 5x5 board (eight symmetries) only one
 * move of each of the six sets of equivalent points (and pass) is searched,
 * Black's top right, White's bottom left, and the results list the others
 * as copies; one stone in a corner leaves the diagonal's symmetry, a ko
 * point none; with pruning off nothing is banned or copied. */
static void test_root_symmetry_pruning(void)
{
    static hs_mcts_result_t res;
    static const char *const empty[] = { ".....", ".....", ".....", ".....", "....." };
    static const char *const corner[] = { "X....", ".....", ".....", ".....", "....." };
    int copies;
    hs_mcts_t *m = s_pruned_search(empty, HS_BLACK, true, 200, &res);
    HS_CHECK_INT(m->root_syms, 0xff);
    HS_CHECK_INT(s_sym_banned(m), 25 - 6);
    HS_CHECK_INT(m->banned[4], 0);                      /* top right kept */
    HS_CHECK_INT(m->banned[0], HS__MCTS_BAN_SYMMETRY);  /* top left a copy */
    HS_CHECK_INT(m->banned[20], HS__MCTS_BAN_SYMMETRY);
    HS_CHECK_INT(m->banned[12], 0);                     /* the centre is its own */
    for (int i = 0; i < m->root->num_edges; i++)
        if (m->banned[m->root->edges[i].move])
            HS_CHECK_INT(m->root->edges[i].visits, 0);
    s_check_copies(m, &res, &copies);
    HS_CHECK(copies > 0);
    HS_CHECK_INT(res.moves[0].sym_of, -1);
    HS_CHECK_INT(m->banned[hs_mcts_choose_move(m)], 0);
    hs_mcts_free(&m);

    m = s_pruned_search(empty, HS_WHITE, true, 50, &res);
    HS_CHECK_INT(m->banned[20], 0);                     /* bottom left kept */
    HS_CHECK_INT(m->banned[4], HS__MCTS_BAN_SYMMETRY);
    s_check_copies(m, &res, &copies);
    hs_mcts_free(&m);

    /* a stone on A5 (the top left): only the swap of x and y (symmetry 4) */
    m = s_pruned_search(corner, HS_BLACK, true, 50, &res);
    HS_CHECK_INT(m->root_syms, 0x11);
    HS_CHECK_INT(s_sym_banned(m), 10);                  /* (25 - 5 on the diagonal) / 2 */
    HS_CHECK_INT(m->banned[1], 0);                      /* B5 before A4 for Black */
    HS_CHECK_INT(m->banned[5], HS__MCTS_BAN_SYMMETRY);
    s_check_copies(m, &res, &copies);
    hs_mcts_free(&m);

    m = s_pruned_search(empty, HS_BLACK, false, 50, &res);
    HS_CHECK_INT(m->root_syms, 1);
    HS_CHECK_INT(s_sym_banned(m), 0);
    s_check_copies(m, &res, &copies);
    HS_CHECK_INT(copies, 0);
    /* turned on for the next search of the same tree: banned from then on */
    hs_error_t err;
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.root_symmetry_pruning = true;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    hs_mcts_begin(m);
    HS_CHECK_INT(s_sym_banned(m), 25 - 6);
    hs_mcts_free(&m);

    /* a ko point: the moves are not equivalent (KataGo: no symmetry) */
    toy_pos_t p;
    toy_setup(&p, empty, 5, HS_BLACK, 0.5);
    p.board.ko = hs_board_point(&p.board, 2, 2);
    m = toy_search(10, 1, 1);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    cfg = *hs_mcts_get_config(m);
    cfg.root_symmetry_pruning = true;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    hs_mcts_begin(m);
    HS_CHECK_INT(m->root_syms, 1);
    HS_CHECK_INT(s_sym_banned(m), 0);
    hs_mcts_free(&m);
}

/* A search that gave no root child a visit (a budget of one visit, the
 * root's own; a search cut short by time) plays the move of the highest
 * prior, as KataGo plays the policy's move, and the result names it as its
 * best; a move the root may not search is skipped, and pass comes only when
 * no other move is left. */
static void test_no_visited_child(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    ev.eval_avg = toy_eval_avg;   /* 0.9 of the root's prior on toy_favourite */
    hs_mcts_t *m = toy_search(1, 1, 3);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.root_symmetries = 8;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 1);
    int fav = toy_favourite(&p.nn), pass = HS_MCTS_PASS(5);
    HS_CHECK(fav >= 0 && m->root->num_edges > 2);
    HS_CHECK_INT(hs_mcts_choose_move(m), fav);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.num_moves, 0);
    HS_CHECK_INT(res.best_move, fav);
    HS_CHECK_INT(res.pv_len, 1);
    HS_CHECK_INT(res.pv[0], fav);
    /* the favourite banned (as superko would): the next by prior (edge 1) */
    m->banned[fav] = HS__MCTS_BAN_SUPERKO;
    HS_CHECK(m->root->edges[1].move != fav);
    HS_CHECK_INT(hs_mcts_choose_move(m), m->root->edges[1].move);
    /* every move but pass banned: pass */
    for (int i = 0; i < m->root->num_edges; i++)
        if (m->root->edges[i].move != pass)
            m->banned[m->root->edges[i].move] = HS__MCTS_BAN_SUPERKO;
    HS_CHECK_INT(hs_mcts_choose_move(m), pass);
    hs_mcts_free(&m);
}

/* Each move's ownership sums: its mean in [-1, 1], the evaluations behind
 * it; their count over the listed moves. */
static int s_moves_own(const hs_mcts_t *m, const hs_mcts_result_t *r, bool want_all, int *strong)
{
    float own[HS_MCTS_MAX_AREA], sd[HS_MCTS_MAX_AREA];
    int total = 0;
    for (int k = 0; k < r->num_moves; k++) {
        const hs_mcts_move_info_t *mi = &r->moves[k];
        for (int v = 0; v < HS_MCTS_MAX_AREA; v++)
            own[v] = 7;   /* a sentinel: nothing written for an unknown one */
        int n = hs_mcts_move_ownership(m, mi, own, sd);
        HS_CHECK_INT(n, mi->own_count);
        HS_CHECK(n <= mi->child_visits);
        if (want_all)
            HS_CHECK_INT(n, mi->child_visits);
        for (int v = 0; v < m->area; v++)
            HS_CHECK(n > 0 ? fabsf(own[v]) <= 1 && sd[v] >= 0 && sd[v] <= 1 : own[v] == 7);
        /* the mover's stone where it played: the mover's (the toy counts
         * area; Black's view) */
        if (n >= 5 && mi->move < m->area)
            HS_CHECK((r->to_move == HS_BLACK ? own[mi->move] : -own[mi->move]) > 0.5f);
        *strong += n >= 5 && mi->move < m->area;
        total += mi->sym_of < 0 ? n : 0;
    }
    return total;
}

/* Per-move ownership: every evaluation below a move of a fresh tree; the
 * root's average is its own evaluation's and its children's together. A
 * kept tree: the moves below the new root have none until searched again,
 * then only the new ones; the root's own average stays the search's from
 * when it became the root (a node given sums late starts afresh there). */
static void test_moves_ownership(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(200, 1, 3);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    int strong = 0;
    HS_CHECK_INT(s_moves_own(m, &res, true, &strong), res.visits - 1);
    HS_CHECK(strong > 0);
    double own[HS_MCTS_MAX_AREA];
    float one[HS_MCTS_MAX_AREA];
    for (int v = 0; v < 25; v++)
        own[v] = res.ownership[v] * res.visits;
    for (int k = 0; k < res.num_moves; k++) {
        hs_mcts_move_ownership(m, &res.moves[k], one, NULL);
        for (int v = 0; v < 25; v++)
            own[v] -= (double)one[v] * res.moves[k].own_count;
    }
    hs_mcts_eval_t *root = malloc(sizeof *root);
    HS_CHECK(root != NULL);
    toy_eval(&t, &p.nn, 1, root, &err);
    for (int v = 0; v < 25; v++)   /* what is left is the root's own evaluation */
        HS_CHECK(fabs(own[v] - root->ownership[v]) < 1e-3);
    free(root);

    int move = res.best_move, kept = res.moves[0].visits;
    hs_board_t next, next2;
    hs_nn_pos_t nn = toy_play(&p.nn, &next, move);
    HS_CHECK_INT(hs_mcts_set_root(m, &nn, NULL, &err), 0);
    HS_CHECK_INT(m->root->own_count, kept);        /* a root child's sums: kept */
    hs_mcts_get_result(m, &res);
    HS_CHECK(res.num_moves > 0);
    HS_CHECK_INT(s_moves_own(m, &res, false, &strong), 0);  /* none known yet */
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.max_visits = kept + 200;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    strong = 0;
    HS_CHECK_INT(s_moves_own(m, &res, false, &strong), 200); /* the new visits, each once */
    HS_CHECK(strong > 0);

    /* one more move down: the new root's sums began late, so they restart */
    int reply = res.best_move;
    hs_nn_pos_t nn2 = toy_play(&nn, &next2, reply);
    HS_CHECK_INT(hs_mcts_set_root(m, &nn2, NULL, &err), 0);
    HS_CHECK(hs_mcts_root_visits(m) > 0);
    HS_CHECK_INT(m->root->own_count, 0);
    HS_CHECK(!m->root->own_late);
    hs_mcts_free(&m);
}

/* rootPolicyTemperature: the root's priors to p^(1/T), renormalised; what a
 * move reports as its prior is that, the policy stays the evaluator's; T 1
 * leaves the priors alone; out of KataGo's range, refused. */
static void test_root_policy_temperature(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    ev.eval_avg = toy_eval_avg;   /* 0.9 on the favourite: priors to temper */
    hs_mcts_t *m = toy_search(40, 1, 3);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.root_symmetries = 8;
    cfg.root_policy_temperature = 2;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    int fav = toy_favourite(&p.nn), count = m->root->num_edges;
    double top = sqrt(0.9), rest = sqrt(0.1 / (count - 1));
    double want = top / (top + (count - 1) * rest), sum = 0;
    HS_CHECK_INT(m->root->edges[0].move, fav);
    HS_CHECK(fabs(m->root->edges[0].prior - want) < 1e-5);
    for (int i = 0; i < count; i++)
        sum += m->root->edges[i].prior;
    HS_CHECK(fabs(sum - 1) < 1e-5);
    HS_CHECK(fabs(res.policy[fav] - 0.9) < 1e-6);  /* the evaluator's */
    HS_CHECK(res.num_moves > 1 && res.moves[0].move == fav);
    HS_CHECK(fabs(res.moves[0].prior - want) < 1e-5);
    HS_CHECK(fabs(res.moves[1].prior - rest / (top + (count - 1) * rest)) < 1e-5);

    /* T 1: the evaluator's priors, untouched */
    cfg.root_policy_temperature = 1;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    hs_mcts_clear(m);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK(!m->noised);
    HS_CHECK(fabs(m->root->edges[0].prior - 0.9) < 1e-6);

    double bad[] = { 0, 0.009, 100.5, NAN };
    for (int i = 0; i < 4; i++) {
        cfg.root_policy_temperature = bad[i];
        HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), HS_EINVAL);
    }
    cfg.root_policy_temperature = 0.01;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    hs_mcts_free(&m);
}

int main(void)
{
    test_no_visited_child();
    test_root_symmetries();
    test_root_symmetry_pruning();
    test_graph_search();
    test_moves_ownership();
    test_root_policy_temperature();
    return hs_test_finish();
}
