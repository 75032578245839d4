/*
 * tests/test_mcts_filter.c — the search's move filter (hs_mcts_set_filter,
 * KataGo's avoidMoveUntilByLoc behind avoidMoves / allowMoves and GTP's
 * avoid / allow), with the toy evaluator of tests/mcts_toy.h: an empty
 * filter changes nothing; a move avoided at the root gets no visit there
 * but may be searched deeper than its depth; allowing two moves searches
 * those two only; no visited edge anywhere breaks the filter at its depth
 * and colour; a node below the root whose every move is filtered is
 * visited again without children; a root with every move filtered ends at
 * its first visit with no move; a changed filter clears the tree, and a
 * filtered search keeps no tree across a move; root symmetry pruning keeps
 * a copy of an avoided move instead.
 */
#include "tests/mcts_toy.h"

static hs_mcts_result_t res, res2;

/* A move of the 5x5 board by name. */
static int s_v(const char *name)
{
    hs_board_t b;
    hs_board_init(&b, 5);
    hs_point_t p;
    HS_CHECK_INT(hs_board_parse_point(&b, name, &p), 0);
    return p == HS_PASS ? 25 : hs_board_y(&b, p) * 5 + hs_board_x(&b, p);
}

/* Edges with visits that f forbids, below n (n at depth d, c to move); and
 * how many visited edges play `move` by `mover` at depths >= from. */
static int s_broken, s_found;
static void s_walk(const hs__mcts_node_t *n, const hs_mcts_filter_t *f, int d, hs_color_t c,
                   int move, hs_color_t mover, int from)
{
    for (int i = 0; n->expanded && i < n->num_edges; i++) {
        const hs__mcts_edge_t *e = &n->edges[i];
        if (!e->child || e->visits <= 0)
            continue;
        s_broken += !hs_mcts_filter_allows(f, c, e->move, d);
        s_found += e->move == move && c == mover && d >= from;
        s_walk(e->child, f, d + 1, hs_color_other(c), move, mover, from);
    }
}

static void s_tree_check(const hs_mcts_t *m, const hs_mcts_filter_t *f, int move,
                         hs_color_t mover, int from)
{
    s_broken = s_found = 0;
    s_walk(m->root, f, 0, m->root_nn.to_move, move, mover, from);
}

static bool s_listed(const hs_mcts_result_t *r, int move)
{
    for (int i = 0; i < r->num_moves; i++)
        if (r->moves[i].move == move)
            return true;
    return false;
}

/* No filter and an empty one: the same search. */
static void test_empty_filter(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *a = toy_search(300, 2, 4), *b = toy_search(300, 2, 4);
    hs_mcts_filter_t f;
    hs_mcts_filter_clear(&f);
    HS_CHECK(hs_mcts_filter_empty(&f));
    HS_CHECK_INT(hs_mcts_set_filter(b, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(a, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(b, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(a, &ev, &err), 0);
    HS_CHECK_INT(hs_mcts_search(b, &ev, &err), 0);
    hs_mcts_get_result(a, &res);
    hs_mcts_get_result(b, &res2);
    toy_check_same(&res, &res2);
    HS_CHECK_INT(res2.best_move, res.best_move);
    hs_mcts_free(&a);
    hs_mcts_free(&b);
}

/* avoid: the root's most visited move at untilDepth 1, then 3. */
static void test_avoid(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(400, 1, 6);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    int top = res.best_move;
    HS_CHECK(top >= 0 && top < 25);

    hs_mcts_filter_t f;
    hs_mcts_filter_clear(&f);
    f.until[0][top] = 1;
    HS_CHECK(!hs_mcts_filter_allows(&f, HS_BLACK, top, 0));
    HS_CHECK(hs_mcts_filter_allows(&f, HS_BLACK, top, 1));
    HS_CHECK(hs_mcts_filter_allows(&f, HS_WHITE, top, 0));
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 0);        /* a new filter: a new tree */
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.visits, 400);
    HS_CHECK(res.num_moves > 1 && !s_listed(&res, top));
    HS_CHECK(res.best_move != top && hs_mcts_choose_move(m) != top);
    s_tree_check(m, &f, top, HS_WHITE, 1);
    HS_CHECK_INT(s_broken, 0);
    HS_CHECK(s_found > 0);                           /* White may play it at once */

    /* untilDepth 3: not Black's at depth 2 either, still White's */
    f.until[0][top] = 3;
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    s_tree_check(m, &f, top, HS_BLACK, 0);
    HS_CHECK_INT(s_broken, 0);
    HS_CHECK_INT(s_found, 0);
    s_tree_check(m, &f, top, HS_WHITE, 1);
    HS_CHECK(s_found > 0);

    /* the same filter on the same position keeps the tree; off clears it */
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 400);
    HS_CHECK_INT(hs_mcts_set_filter(m, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 0);
    f.until[1][3] = -1;
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), HS_EINVAL);
    hs_mcts_free(&m);
}

/* allow: two moves for Black, the rest forbidden at the root only. */
static void test_allow(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(200, 2, 7);
    hs_mcts_filter_t f;
    hs_mcts_filter_clear(&f);
    for (int v = 0; v <= 25; v++)
        f.until[0][v] = 1;
    int a = s_v("A1"), b = s_v("B5");
    f.until[0][a] = f.until[0][b] = 0;
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.num_moves, 2);
    HS_CHECK(s_listed(&res, a) && s_listed(&res, b));
    HS_CHECK(res.best_move == a || res.best_move == b);
    s_tree_check(m, &f, -1, HS_BLACK, 0);
    HS_CHECK_INT(s_broken, 0);
    s_tree_check(m, &f, s_v("C5"), HS_BLACK, 2);
    HS_CHECK(s_found > 0);                           /* deeper, Black plays elsewhere */

    /* A search of one visit (the policy's move): one of the two. */
    hs_mcts_t *one = toy_search(1, 1, 7);
    HS_CHECK_INT(hs_mcts_set_filter(one, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(one, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(one, &ev, &err), 0);
    hs_mcts_get_result(one, &res);
    HS_CHECK_INT(res.num_moves, 0);
    HS_CHECK(res.best_move == a || res.best_move == b);
    int chosen = hs_mcts_choose_move(one);
    HS_CHECK(chosen == a || chosen == b);
    hs_mcts_free(&one);

    /* Nothing allowed: the root's visit only, no move; choose_move passes. */
    for (int v = 0; v <= 25; v++)
        f.until[0][v] = 1;
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.visits, 1);
    HS_CHECK_INT(res.num_moves, 0);
    HS_CHECK_INT(res.best_move, -1);
    HS_CHECK_INT(hs_mcts_choose_move(m), 25);
    hs_mcts_free(&m);
}

/* allow A1 for Black until depth 3: at depth 2 A1 is Black's own stone, so
 * every Black move there is filtered; those nodes are visited again without
 * children and the search spends its budget. With the net's terms too
 * (estimates, graph search). */
static void test_stuck(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    for (int est = 0; est < 2; est++) {
        ev.estimates = est;
        hs_mcts_t *m = toy_search(300, 2, 8);
        hs_mcts_config_t cfg = *hs_mcts_get_config(m);
        cfg.graph_search = est;
        HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
        hs_mcts_filter_t f;
        hs_mcts_filter_clear(&f);
        for (int v = 0; v <= 25; v++)
            f.until[0][v] = 3;
        int a = s_v("A1");
        f.until[0][a] = 0;
        HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
        hs_mcts_get_result(m, &res);
        HS_CHECK_INT(res.visits, 300);
        HS_CHECK_INT(res.num_moves, 1);
        HS_CHECK_INT(res.best_move, a);
        HS_CHECK(res.moves[0].pv_len <= 2);          /* no Black move at depth 2 */
        s_tree_check(m, &f, -1, HS_BLACK, 0);
        HS_CHECK_INT(s_broken, 0);
        HS_CHECK(isfinite(res.winrate) && isfinite(res.moves[0].utility));
        hs_mcts_free(&m);
    }
}

/* A filtered search keeps no tree across a move (its depths would shift). */
static void test_no_reuse(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    for (int filtered = 0; filtered < 2; filtered++) {
        hs_mcts_t *m = toy_search(200, 1, 9);
        hs_mcts_filter_t f;
        hs_mcts_filter_clear(&f);
        f.until[1][s_v("E5")] = 1;
        HS_CHECK_INT(hs_mcts_set_filter(m, filtered ? &f : NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
        int best = hs_mcts_choose_move(m);
        hs_board_t next;
        hs_nn_pos_t nn = toy_play(&p.nn, &next, best);
        HS_CHECK_INT(hs_mcts_set_root(m, &nn, NULL, &err), 0);
        if (filtered)
            HS_CHECK_INT(hs_mcts_root_visits(m), 0);
        else
            HS_CHECK(hs_mcts_root_visits(m) > 0);
        hs_mcts_free(&m);
    }
}

/* Root symmetry pruning on the empty board: Black's kept corner move (E5)
 * avoided, and A5: pruning keeps the one symmetry that maps the filter onto
 * itself (the mirror between them), E1 is searched instead of E5 and A1
 * listed as its copy; no avoided move listed. */
static void test_symmetry(void)
{
    static const char *const empty[] = { ".....", ".....", ".....", ".....", "....." };
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, empty, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(300, 1, 10);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.root_symmetry_pruning = true;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    hs_mcts_begin(m);
    int kept = s_v("E5");                 /* the top right: KataGo's for Black */
    HS_CHECK_INT(m->banned[kept], 0);
    HS_CHECK_INT(m->banned[s_v("A1")], HS__MCTS_BAN_SYMMETRY);
    hs_mcts_filter_t f;
    hs_mcts_filter_clear(&f);
    f.until[0][kept] = 1;
    f.until[0][s_v("A5")] = 1;
    HS_CHECK_INT(hs_mcts_set_filter(m, &f, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK(m->banned[kept] != 0);
    HS_CHECK_INT(__builtin_popcount(m->root_syms), 2);
    hs_mcts_get_result(m, &res);
    HS_CHECK(!s_listed(&res, kept) && !s_listed(&res, s_v("A5")));
    HS_CHECK(s_listed(&res, s_v("A1")) && s_listed(&res, s_v("E1")));
    int corners = 0;
    for (int i = 0; i < res.num_moves; i++)
        corners += res.moves[i].move == s_v("A1") || res.moves[i].move == s_v("E1");
    HS_CHECK_INT(corners, 2);
    hs_mcts_free(&m);
}

int main(void)
{
    test_empty_filter();
    test_avoid();
    test_allow();
    test_stuck();
    test_no_reuse();
    test_symmetry();
    return hs_test_finish();
}
