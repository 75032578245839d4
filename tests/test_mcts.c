/*
 * tests/test_mcts.c — the tree search of worker/mcts.h on its own, with a
 * toy evaluator (uniform prior over legal moves, value and score from the
 * Tromp-Taylor area of the leaf), so that everything here is about the
 * search: budgets, signs of values for both colours, captures found,
 * determinism, batching across searches with virtual loss, tree reuse (and
 * the rescoring of a kept tree), superko at the root, noise, temperature,
 * KataGo's utility and node values, the move choice, and an evaluator that
 * fails. What happens at the root and to the tree's shape (root
 * symmetries, symmetry pruning, graph search) is in test_mcts_root.c, the
 * end of the game (two passes) in test_mcts_passes.c, the bound a move
 * reports in test_mcts_lcb.c; the toy evaluator they use is
 * tests/mcts_toy.h. The
 * real evaluators have tests of their own (test_mcts_eval,
 * test_mcts_tactics).
 */
#include "tests/mcts_toy.h"

/* Black captures the three white stones in atari; the result's signs are
 * Black's view whoever moves. */
static void test_capture_and_signs(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(300, 1, 1);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.visits, 300);
    HS_CHECK_INT(res.best_move, 14);              /* the last liberty, (4, 2) */
    HS_CHECK(res.winrate > 0.9f);
    HS_CHECK(res.score_lead > 5);
    HS_CHECK(res.num_moves > 1 && res.moves[0].move == res.best_move && res.pv[0] == res.best_move);
    int sum = 0;
    for (int i = 0; i < res.num_moves; i++)
        sum += res.moves[i].visits;
    HS_CHECK_INT(sum, res.visits - 1);            /* the root's own first visit */
    hs_mcts_free(&m);

    /* The same diagram with colours swapped and White to move: the same move,
     * and Black's view is the mirror. */
    static const char *const rows[] = { ".....", ".OOO.", "OXXX.", ".OOO.", "....." };
    toy_setup(&p, rows, 5, HS_WHITE, -0.5);
    m = toy_search(300, 1, 1);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.best_move, 14);
    HS_CHECK(res.winrate < 0.1f);
    HS_CHECK(res.score_lead < -5);
    HS_CHECK_INT(hs_mcts_choose_move(m), 14);
    hs_mcts_free(&m);
}

/* One visit: the tree's ownership is the root's evaluation, in Black's view
 * whoever is to move. */
static void test_ownership_view(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    for (int c = HS_BLACK; c <= HS_WHITE; c++) {
        toy_setup(&p, toy_capture_rows, 5, (hs_color_t)c, 0.5);
        toy_t t;
        hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
        hs_mcts_t *m = toy_search(1, 1, 1);
        HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
        hs_mcts_get_result(m, &res);
        HS_CHECK(res.ownership[12] == -1.0f);   /* a white stone */
        HS_CHECK(res.ownership[6] == 1.0f);     /* a black stone */
        HS_CHECK(res.ownership[0] == 0.0f);     /* the outer ring touches both */
        HS_CHECK(res.ownership_stdev[0] == 0.0f);
        HS_CHECK(fabsf(res.score_lead - (float)(7 - 3 - 0.5)) < 1e-4f);
        HS_CHECK(res.raw_winrate == res.winrate);
        hs_mcts_free(&m);
    }
}

/* Same seed, same config: the same tree; threads change the tree but a
 * repeat is still identical. */
static void test_determinism(void)
{
    static hs_mcts_result_t a, b;
    hs_error_t err;
    toy_pos_t p;
    static const char *const rows[] = { ".......", "..X....", "...O...", ".......",
                                        "....X..", ".......", "......." };
    for (int threads = 1; threads <= 4; threads += 3) {
        toy_setup(&p, rows, 7, HS_WHITE, 0.5);
        toy_t t;
        hs_mcts_evaluator_t ev = toy_evaluator(&t, 16);
        hs_mcts_t *m1 = toy_search(150, threads, 7), *m2 = toy_search(150, threads, 7);
        HS_CHECK_INT(hs_mcts_set_root(m1, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m2, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m1, &ev, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m2, &ev, &err), 0);
        hs_mcts_get_result(m1, &a);
        hs_mcts_get_result(m2, &b);
        HS_CHECK_INT(a.num_moves, b.num_moves);
        for (int i = 0; i < a.num_moves && i < b.num_moves; i++) {
            HS_CHECK_INT(a.moves[i].move, b.moves[i].move);
            HS_CHECK_INT(a.moves[i].visits, b.moves[i].visits);
        }
        HS_CHECK(a.winrate == b.winrate && a.score_lead == b.score_lead);
        HS_CHECK_INT(a.visits, 150);
        hs_mcts_free(&m1);
        hs_mcts_free(&m2);
    }
}

/* Many searches share the evaluator's calls; virtual loss sends a search's
 * leaves of one step to different nodes. */
static void test_batching(void)
{
    hs_error_t err;
    toy_pos_t p[3];
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 64);
    hs_mcts_t *s[3];
    for (int i = 0; i < 3; i++) {
        toy_setup(&p[i], toy_capture_rows, 5, i == 1 ? HS_WHITE : HS_BLACK, 0.5);
        s[i] = toy_search(100, 8, (uint64_t)i);
        HS_CHECK_INT(hs_mcts_set_root(s[i], &p[i].nn, NULL, &err), 0);
        hs_mcts_begin(s[i]);
    }
    /* First step: each fresh root is one leaf (a leaf in flight is not taken twice). */
    HS_CHECK_INT(hs_mcts_step_many(s, 3, &ev, &err), 3);
    HS_CHECK_INT(ev.calls, 1);
    HS_CHECK_INT(ev.leaves, 3);
    /* Second step: 8 distinct children of each root, in one call of 24. */
    HS_CHECK_INT(hs_mcts_step_many(s, 3, &ev, &err), 3);
    HS_CHECK_INT(ev.calls, 2);
    HS_CHECK_INT(ev.leaves, 27);
    HS_CHECK_INT(t.max_seen, 24);
    HS_CHECK_INT(hs_mcts_root_visits(s[0]), 9);
    int rc;
    while ((rc = hs_mcts_step_many(s, 3, &ev, &err)) > 0)
        ;
    HS_CHECK_INT(rc, 0);
    for (int i = 0; i < 3; i++) {
        HS_CHECK_INT(hs_mcts_root_visits(s[i]), 100);
        hs_mcts_free(&s[i]);
    }
    HS_CHECK(ev.leaves <= 300);
}

/* After Black's move, the position with that move keeps its subtree. */
static void test_reuse(void)
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
    int move = res.best_move, kept = res.moves[0].visits;
    HS_CHECK(kept > 20);

    hs_board_t next;
    hs_nn_pos_t nn = toy_play(&p.nn, &next, move);
    HS_CHECK_INT(hs_mcts_set_root(m, &nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), kept);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.max_visits = kept + 10;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    int before = t.leaves;
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(t.leaves - before, 10);          /* only the top-up was evaluated */
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.to_move, HS_WHITE);
    HS_CHECK(res.winrate > 0.9f);                 /* still Black's view */

    /* A position that does not follow: a fresh tree. */
    toy_setup(&p, toy_capture_rows, 5, HS_WHITE, 0.5);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 0);
    hs_mcts_free(&m);
}

/* The capture diagram, Black to move, and the toy evaluator giving estimates
 * (KataGo's terms on). */
static hs_mcts_evaluator_t s_capture_estimates(toy_pos_t *p, toy_t *t)
{
    toy_setup(p, toy_capture_rows, 5, HS_BLACK, 0.5);
    hs_mcts_evaluator_t ev = toy_evaluator(t, 8);
    ev.estimates = true;
    return ev;
}

/* Every visited node's utility sum, depth first; the count. */
static int s_util_sums(const hs__mcts_node_t *n, double *u, int k, int cap)
{
    if (k < cap)
        u[k] = n->util_sum;
    k++;
    for (int i = 0; i < n->num_edges; i++)
        if (n->edges[i].child && n->edges[i].child->visits > 0)
            k = s_util_sums(n->edges[i].child, u, k, cap);
    return k;
}

static double s_max_diff(const double *a, const double *b, int n, int *changed)
{
    double worst = 0;
    *changed = 0;
    for (int i = 0; i < n; i++) {
        double d = fabs(a[i] - b[i]);
        worst = d > worst ? d : worst;
        *changed += d > 1e-4;
    }
    return worst;
}

/* A kept tree is valued anew with the dynamic score centre of the search that
 * begins on it: with the centre its search used nothing moves (so the side
 * to move is right at every depth, or the dynamic term would change), with
 * another the values move and come back, and the next search's first step
 * does it. */
static void test_rescore(void)
{
    enum { CAP = 8192 };
    static double before[CAP], now[CAP];
    hs_error_t err;
    toy_pos_t p;
    toy_t t;
    hs_mcts_evaluator_t ev = s_capture_estimates(&p, &t);
    hs_mcts_t *m = toy_search(400, 1, 5);
    m->cfg.subtree_bias = 0;   /* a leaf's bias would go: KataGo's recompute drops it too */
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    int n = s_util_sums(m->root, before, 0, CAP), changed;
    HS_CHECK(n > 100 && n <= CAP);
    HS_CHECK(!m->rescore);   /* a fresh tree: nothing to rescore */
    hs__mcts_rescore_tree(m);
    HS_CHECK_INT(s_util_sums(m->root, now, 0, CAP), n);
    HS_CHECK(s_max_diff(before, now, n, &changed) < 1e-4);
    double c = m->score_center;
    m->score_center = c + 3;
    hs__mcts_rescore_tree(m);
    s_util_sums(m->root, now, 0, CAP);
    s_max_diff(before, now, n, &changed);
    HS_CHECK(changed > n / 2);
    m->score_center = c;
    hs__mcts_rescore_tree(m);
    s_util_sums(m->root, now, 0, CAP);
    HS_CHECK(s_max_diff(before, now, n, &changed) < 1e-4);

    hs_mcts_begin(m);   /* the centre now comes from the tree */
    HS_CHECK(m->rescore && fabs(m->score_center - c) > 1e-6);
    HS_CHECK_INT(hs_mcts_step_many(&m, 1, &ev, &err), 0);   /* the budget is spent: */
    HS_CHECK(!m->rescore);                                   /* only the rescore ran */
    s_util_sums(m->root, now, 0, CAP);
    s_max_diff(before, now, n, &changed);
    HS_CHECK(changed > 0);
    hs_mcts_free(&m);
}

/* A root move that superko forbids is never searched. */
static void test_superko_root(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    hs_rules_t r = hs_rules_get(HS_RULES_TROMP_TAYLOR);
    hs_history_t h;
    hs_history_init(&h);
    hs_board_t after = p.board;
    HS_CHECK_INT(hs_board_play(&after, HS_BLACK, hs_board_point(&after, 4, 2), 0, NULL), 0);
    hs_history_push(&h, &after, &r);   /* pretend the capture's result was seen before */
    hs_history_push(&h, &p.board, &r);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(100, 1, 1);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, &h, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    for (int i = 0; i < res.num_moves; i++)
        HS_CHECK(res.moves[i].move != 14);
    HS_CHECK(res.num_moves > 0 && res.best_move != 14);
    HS_CHECK(res.policy[14] >= 0);     /* legal by simple ko, so the prior stays */
    hs_history_fini(&h);
    hs_mcts_free(&m);
}

/* Noise changes the search, not the reported priors; temperature samples. */
static void test_noise_and_temperature(void)
{
    static hs_mcts_result_t a, b;
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *plain = toy_search(60, 1, 5), *noisy = toy_search(60, 1, 5);
    hs_mcts_config_t cfg = *hs_mcts_get_config(noisy);
    cfg.noise_alpha = 0.3;
    cfg.noise_weight = 0.25;
    cfg.temperature = 1.0;
    HS_CHECK_INT(hs_mcts_set_config(noisy, &cfg, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(plain, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_set_root(noisy, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(plain, &ev, &err), 0);
    HS_CHECK_INT(hs_mcts_search(noisy, &ev, &err), 0);
    hs_mcts_get_result(plain, &a);
    hs_mcts_get_result(noisy, &b);
    for (int v = 0; v <= 25; v++)
        HS_CHECK(a.policy[v] == b.policy[v]);
    int differ = a.num_moves != b.num_moves;
    for (int i = 0; !differ && i < a.num_moves; i++)
        differ = a.moves[i].visits != b.moves[i].visits;
    HS_CHECK(differ);
    int seen_other = 0;
    for (int i = 0; i < 40; i++)
        seen_other += hs_mcts_choose_move(noisy) != b.best_move;
    HS_CHECK(seen_other > 0);
    hs_mcts_free(&plain);
    hs_mcts_free(&noisy);
}

/* An evaluator error fails the step and leaves a tree that searches on. */
static void test_failing_evaluator(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 4);
    t.fail_after = 5;
    hs_mcts_t *m = toy_search(100, 4, 1);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), HS_EIO);
    HS_CHECK(strstr(err.msg, "asked to fail") != NULL);
    int visits = hs_mcts_root_visits(m);
    HS_CHECK(visits > 0 && visits < 100);
    t.fail_after = 0;
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 100);
    hs_mcts_free(&m);

    hs_mcts_config_t cfg;
    hs_mcts_config_default(&cfg);
    cfg.threads = 0;
    HS_CHECK_INT(hs_mcts_create(&cfg, &m, &err), HS_EINVAL);
    HS_CHECK(m == NULL);
}

/* An evaluator whose playouts say that whoever plays vertex 12 first wins,
 * with a value of 0 everywhere: only RAVE can see that 12 is the move. */
static int amaf_eval(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out, hs_error_t *err)
{
    int rc = toy_eval(ctx, pos, n, out, err);
    for (int i = 0; !rc && i < n; i++) {
        out[i].value = out[i].score = out[i].score_mean = 0;
        out[i].has_amaf = 1;
        out[i].amaf_playouts = 1;
        memset(out[i].amaf_n, 0, sizeof out[i].amaf_n);
        memset(out[i].amaf_value, 0, sizeof out[i].amaf_value);
        if (pos[i].board->color[hs_board_point(pos[i].board, 2, 2)] == HS_EMPTY) {
            int c = pos[i].to_move - 1;
            out[i].amaf_n[c][12] = 1;
            out[i].amaf_value[c][12] = 1;
        }
    }
    return rc;
}

static void test_rave(void)
{
    static hs_mcts_result_t res;
    static const char *const rows[] = { ".....", ".....", ".....", ".....", "....." };
    hs_error_t err;
    for (int on = 0; on <= 1; on++) {
        toy_pos_t p;
        toy_setup(&p, rows, 5, HS_BLACK, 0.5);
        toy_t t;
        hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
        ev.eval = amaf_eval;
        hs_mcts_t *m = toy_search(60, 1, 1);
        hs_mcts_config_t cfg = *hs_mcts_get_config(m);
        cfg.rave_equiv = on ? 1000 : 0;
        cfg.score_utility = 0;
        HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
        hs_mcts_get_result(m, &res);
        if (on)   /* the tree's own zeros dilute it, but 12 stays far ahead */
            HS_CHECK(res.best_move == 12 && res.moves[0].visits >= 3 * res.moves[1].visits);
        else      /* no reason to prefer any move */
            HS_CHECK(res.moves[0].visits <= 2 * res.moves[1].visits);
        hs_mcts_free(&m);
    }
}

/* E[(2/pi) atan((mean + stdev Z - center) / scale)] by a fine sum. */
static double brute_score_value(double mean, double stdev, double center, double scale)
{
    double sum = 0, wsum = 0;
    for (int i = -40000; i <= 40000; i++) {
        double t = i * 8.0 / 40000, w = exp(-t * t / 2);
        wsum += w;
        sum += w * atan((mean + stdev * t - center) / scale);
    }
    return (2 / M_PI) * sum / wsum;
}

/* The arithmetic of the KataGo terms (worker/mcts_utility.c). */
static void test_utility_terms(void)
{
    HS_CHECK(fabs(hs__mcts_score_value(10, 0, 2, 14.25) - (2 / M_PI) * atan(8 / 14.25)) < 1e-12);
    static const double cases[][4] = {
        { 5, 12, 0, 14.25 }, { 1, 40, 0, 14.25 }, { -20, 3, 4, 5 }, { 30, 60, -10, 14.25 },
    };
    for (int i = 0; i < 4; i++) {
        const double *c = cases[i];
        HS_CHECK(fabs(hs__mcts_score_value(c[0], c[1], c[2], c[3]) -
                      brute_score_value(c[0], c[1], c[2], c[3])) < 1e-4);
    }
    /* odd around the centre, rising with the mean, flatter with a wider spread */
    HS_CHECK(fabs(hs__mcts_score_value(10, 9, 3, 10) + hs__mcts_score_value(-4, 9, 3, 10)) < 1e-12);
    HS_CHECK(hs__mcts_score_value(5, 9, 0, 10) > hs__mcts_score_value(4, 9, 0, 10));
    HS_CHECK(hs__mcts_score_value(5, 30, 0, 10) < hs__mcts_score_value(5, 3, 0, 10));

    hs_mcts_t *m = toy_search(10, 1, 1);
    hs__mcts_node_t n = { .visits = 10, .util_sum = 0, .util_sq_sum = 10 };   /* +-1: unsettled */
    HS_CHECK(hs__mcts_explore_factor(m, &n) == 1.0);   /* playouts: off */
    m->estimates = true;
    /* stdev sqrt(((0 + 0.16) * 2 + 10) / 11) = 0.9686; 1 + 0.85 (0.9686 / 0.4 - 1) */
    HS_CHECK(fabs(hs__mcts_explore_factor(m, &n) - 2.20827) < 1e-4);
    n.util_sum = 5;
    n.util_sq_sum = 2.5;   /* 0.5 every time: settled */
    HS_CHECK(fabs(hs__mcts_explore_factor(m, &n) - 0.63373) < 1e-4);
    n.visits = 1;          /* one visit: the prior alone */
    HS_CHECK(fabs(hs__mcts_explore_factor(m, &n) - 1.0) < 1e-12);

    /* The score terms read the expected final score (score_mean) with its
     * spread, not the lead; the static one at 2 x the side, centre 0. */
    static hs_mcts_eval_t ev;
    ev.value = 0.25f, ev.score = 10, ev.score_mean = 2, ev.score_stdev = 5;
    m->size = 9;
    m->root_nn.to_move = HS_WHITE;
    m->have_center = false;
    double stat = 0.1 * brute_score_value(2, 5, 0, 18);
    HS_CHECK(fabs(hs__mcts_utility(m, &ev, -1) - (0.25 + stat)) < 1e-4);
    hs__mcts_set_center(m, &ev);   /* White to move, 2 ahead: Black's -2, 0.8 of it */
    HS_CHECK(m->have_center && fabs(m->score_center + 1.6) < 1e-6);
    double dyn = 0.3 * -brute_score_value(-2, 5, -1.6, 0.75 * 9);
    HS_CHECK(fabs(hs__mcts_utility(m, &ev, -1) - (0.25 + stat + dyn)) < 1e-4);
    ev.score_mean = 100;           /* far ahead: the centre stays within 6.75 of -100 */
    hs__mcts_set_center(m, &ev);
    HS_CHECK(fabs(m->score_center + 93.25) < 1e-6);
    m->estimates = false;          /* rollouts: the plain atan of the lead at 20 x 9/19 */
    HS_CHECK(fabs(hs__mcts_utility(m, &ev, -1) -
                  (0.25 + 0.1 * (2 / M_PI) * atan(10 / (20.0 * 9 / 19)))) < 1e-6);
    hs_mcts_free(&m);
}

/* KataGo's node values (worker/mcts_value.c) on a hand-built node: a good
 * reply first by prior (utility +0.5 for the side choosing, 10 visits) and
 * a bad one that took 30 visits (-0.5). The running mean credits the bad
 * reply's visits; noise pruning takes most of its weight away, value
 * weighting shifts the rest to the good one. Expected figures from the
 * formulas in worker/mcts.h, worked out separately. */
static void test_node_values(void)
{
    static const double want[4][2] = {   /* mover's utility, weight */
        { 0.24878049, 41.0 }, { -0.27691444, 13.25757316 },
        { 0.18832648, 41.0 }, { -0.32105246, 13.25757316 },
    };
    hs_mcts_t *m = toy_search(10, 1, 1);
    for (int k = 0; k < 4; k++) {
        hs__mcts_node_t good = { .visits = 10, .weight = 10, .util_sum = 5, .value_sum = 3 };
        hs__mcts_node_t bad = { .visits = 30, .weight = 30, .util_sum = -15, .value_sum = -6 };
        hs__mcts_edge_t edges[2] = { { .move = 0, .prior = 0.9f, .child = &good, .visits = 10 },
                                     { .move = 1, .prior = 0.1f, .child = &bad, .visits = 30 } };
        hs__mcts_node_t n = { .visits = 41, .weight = 41, .num_edges = 2, .expanded = 1,
                              .raw_util = 0.2f, .raw_value = 0.2f, .edges = edges };
        m->cfg.noise_prune_utility = k & 1 ? 0.15 : 0;
        m->cfg.value_weight_exponent = k & 2 ? 0.25 : 0;
        m->cfg.subtree_bias = 0;   /* test_subtree_bias: the nodes here have no key anyway */
        m->estimates = false;
        HS_CHECK(hs__mcts_recomputes(m) == false);
        m->estimates = true;
        HS_CHECK(hs__mcts_recomputes(m) == (k != 0));
        hs__mcts_recompute(m, &n);
        HS_CHECK(fabs(hs__mcts_q(&n) - want[k][0]) < 1e-6);
        HS_CHECK(fabs(n.weight - want[k][1]) < 1e-6);
        HS_CHECK_INT(n.visits, 41);   /* visits still count every leaf */
        if (k == 0)   /* no adjustment: the plain mean, value as utility */
            HS_CHECK(fabs(n.value_sum - (0.2 - 3 + 6)) < 1e-6);
    }
    hs_mcts_free(&m);
}

/* KataGo's subtree value bias (worker/mcts_svb.c): what the key sees, a
 * node's correction recorded and shared with another node of its key, and
 * what a freed node takes back. */
static void test_subtree_bias(void)
{
    static const char *const rows[] = {
        ".........", ".........", "..X......", "..O......", ".........",
        ".........", ".........", ".........", ".........",
    };
    toy_pos_t p;
    toy_setup(&p, rows, 9, HS_BLACK, 7.5);
    hs_board_t *b = &p.board;
    hs_point_t mv = hs_board_point(b, 3, 3);
    HS_CHECK(hs__mcts_svb_key(b, HS_BLACK, mv) == 0);   /* no move before */
    b->last_move = hs_board_point(b, 2, 3);
    uint64_t k0 = hs__mcts_svb_key(b, HS_BLACK, mv);
    HS_CHECK(k0 != 0 && hs__mcts_svb_key(b, HS_BLACK, HS_PASS) == 0);
    HS_CHECK(hs__mcts_svb_key(b, HS_WHITE, mv) != k0);
    hs_board_set_stone(b, hs_board_point(b, 8, 8), HS_WHITE);   /* outside the 5x5 window */
    HS_CHECK(hs__mcts_svb_key(b, HS_BLACK, mv) == k0);
    hs_board_set_stone(b, hs_board_point(b, 4, 2), HS_WHITE);   /* inside it */
    uint64_t k1 = hs__mcts_svb_key(b, HS_BLACK, mv);
    HS_CHECK(k1 != k0);
    hs_board_set_stone(b, hs_board_point(b, 5, 5), HS_BLACK);   /* the window's corner */
    hs_board_set_stone(b, hs_board_point(b, 4, 5), HS_WHITE);
    hs_board_set_stone(b, hs_board_point(b, 5, 4), HS_WHITE);
    uint64_t k2 = hs__mcts_svb_key(b, HS_BLACK, mv);
    hs_board_set_stone(b, hs_board_point(b, 6, 5), HS_WHITE);   /* outside, but puts it in atari */
    HS_CHECK(hs_board_libs(b, hs_board_point(b, 5, 5)) == 1);
    HS_CHECK(hs__mcts_svb_key(b, HS_BLACK, mv) != k2);

    /* node a: own utility 0.1, one child (utility -0.5 for its mover) of 8
     * visits, so the children say +0.5: correction 0.4, weight 8^0.85 */
    hs_mcts_t *m = toy_search(10, 1, 1);
    m->cfg.noise_prune_utility = 0;
    m->cfg.value_weight_exponent = 0;
    m->estimates = true;
    HS_CHECK(hs__mcts_svb_on(m));
    hs__mcts_node_t *a = hs__mcts_node_new(m, false, 1), *c = hs__mcts_node_new(m, false, 2);
    hs__mcts_node_t *a2 = hs__mcts_node_new(m, false, 3);
    HS_CHECK(a && c && a2);
    c->visits = 8, c->weight = 8, c->util_sum = -4;
    a->visits = 9, a->weight = 9, a->raw_util = 0.1f, a->num_edges = 1, a->expanded = 1;
    a->edges = calloc(1, sizeof *a->edges);
    a->edges[0] = (hs__mcts_edge_t){ .move = 0, .prior = 1.0f, .child = c, .visits = 8 };
    HS_CHECK_INT(hs__mcts_svb_attach(m, a, k2), 0);
    HS_CHECK_INT(hs__mcts_svb_attach(m, a2, k2), 0);
    HS_CHECK(hs__mcts_svb_bias(m, a2) == 0);   /* nothing recorded yet */
    hs__mcts_recompute(m, a);
    double own = 0.1f + 0.45 * (0.5 - 0.1f);
    HS_CHECK(fabs(hs__mcts_q(a) - (own + 8 * 0.5) / 9) < 1e-6);
    HS_CHECK(fabs(a->svb_weight - pow(8, 0.85)) < 1e-9);
    HS_CHECK(fabs(hs__mcts_svb_bias(m, a2) - 0.45 * (0.5 - 0.1f)) < 1e-6);
    m->cfg.subtree_bias = 0;
    HS_CHECK(!hs__mcts_svb_on(m));
    hs__mcts_recompute(m, a);   /* off: the plain mean */
    HS_CHECK(fabs(hs__mcts_q(a) - (0.1f + 4.0) / 9) < 1e-6);
    m->cfg.subtree_bias = 0.45;
    HS_CHECK_INT(hs__mcts_table_keep(m, a2), 0);   /* a freed: it takes back 80% of its share */
    HS_CHECK(fabs(hs__mcts_svb_bias(m, a2) - 0.45 * (0.5 - 0.1f)) < 1e-6);
    HS_CHECK_INT((int)m->svb_used, 1);
    hs__mcts_svb_sweep(m);   /* a2 still holds the entry */
    HS_CHECK_INT((int)m->svb_used, 1);
    HS_CHECK_INT(hs__mcts_table_keep(m, NULL), 0);
    hs__mcts_svb_sweep(m);
    HS_CHECK_INT((int)m->svb_used, 0);
    hs_mcts_free(&m);
}

/* A root of three children for the move-choice tests, set as m's root
 * (take it back with m->root = NULL before freeing m). A: 100 visits at
 * 0.30 (spread 0.2); B: 40 at 0.40 (spread 0.1); C: 10 at 0.90, under 15%
 * of A's visits. */
typedef struct bound_tree {
    hs__mcts_node_t a, b, c, root;
    hs__mcts_edge_t edges[3];
} bound_tree_t;

static void s_bound_tree(bound_tree_t *t, hs_mcts_t *m)
{
    memset(t, 0, sizeof *t);
    t->a = (hs__mcts_node_t){ .visits = 100, .weight = 100, .util_sum = 30, .util_sq_sum = 13 };
    t->b = (hs__mcts_node_t){ .visits = 40, .weight = 40, .util_sum = 16, .util_sq_sum = 6.8 };
    t->c = (hs__mcts_node_t){ .visits = 10, .weight = 10, .util_sum = 9, .util_sq_sum = 8.2 };
    hs__mcts_node_t *kids[3] = { &t->a, &t->b, &t->c };
    const float priors[3] = { 0.5f, 0.3f, 0.2f };
    for (int i = 0; i < 3; i++)
        t->edges[i] = (hs__mcts_edge_t){ .move = (uint16_t)i, .prior = priors[i], .child = kids[i],
                                         .visits = kids[i]->visits };
    t->root = (hs__mcts_node_t){ .visits = 151, .weight = 151, .num_edges = 3, .expanded = 1,
                                 .edges = t->edges };
    m->root = &t->root;
    m->size = 9;
    m->area = 81;
}

/* KataGo's lower confidence bound, when asked for: a well-explored better
 * move beats the most visited one, a barely visited one does not count. */
static void test_lcb_choice(void)
{
    hs_mcts_t *m = toy_search(10, 1, 1);
    bound_tree_t t;
    s_bound_tree(&t, m);
    HS_CHECK_INT(hs_mcts_choose_move(m), 0);   /* off: the most visited */
    m->cfg.lcb_stdevs = 5;
    HS_CHECK_INT(hs_mcts_choose_move(m), 1);   /* 0.40 - 5 x 0.016 > 0.30 - 5 x 0.02 */
    m->cfg.lcb_min_visit_prop = 0.05;          /* C counts now, and its 10 visits at 0.9 win */
    HS_CHECK_INT(hs_mcts_choose_move(m), 2);
    m->cfg.lcb_stdevs = 40;                    /* so wide that the surest estimate wins */
    HS_CHECK_INT(hs_mcts_choose_move(m), 1);
    m->root = NULL;
    hs_mcts_free(&m);
}

/* Confirmation visits: the root's selection goes to the child of the better
 * bound while the visits left can still make it the most visited, and
 * back to PUCT once they cannot, or when it is off; neither it nor the
 * move chosen is ever a move the superko forbids. */
static void test_confirm_pick(void)
{
    hs_mcts_t *m = toy_search(200, 1, 1);
    bound_tree_t t;
    s_bound_tree(&t, m);
    HS_CHECK_INT(hs__mcts_confirm_pick(m), -1);          /* off */
    m->cfg.confirm_stdevs = 5;
    HS_CHECK_INT(hs__mcts_confirm_pick(m), -1);          /* 49 left: 40 + 49 < 100 */
    m->cfg.max_visits = 220;                             /* 69 left: 40 + 69 > 100 */
    HS_CHECK_INT(hs__mcts_confirm_pick(m), 1);
    HS_CHECK_INT(hs_mcts_choose_move(m), 0);             /* still played by visits */
    t.b.vloss = t.root.vloss = 10;                       /* in flight: 50 + 59 */
    HS_CHECK_INT(hs__mcts_confirm_pick(m), 1);
    m->cfg.max_visits = 210;                             /* 50 + 49 < 100 */
    HS_CHECK_INT(hs__mcts_confirm_pick(m), -1);
    t.b.vloss = t.root.vloss = 0;
    m->cfg.max_visits = 0;                               /* time alone: no count of what is left */
    m->cfg.max_time = 1;
    HS_CHECK_INT(hs__mcts_confirm_pick(m), -1);
    m->cfg.max_playouts = 100;                           /* new visits: 100 left */
    HS_CHECK_INT(hs__mcts_confirm_pick(m), 1);
    m->banned[1] = 1;          /* superko forbids B: visits from a kept tree do not count */
    HS_CHECK_INT(hs__mcts_confirm_pick(m), -1);
    m->cfg.lcb_stdevs = 5;
    HS_CHECK_INT(hs_mcts_choose_move(m), 0);
    m->banned[0] = 1;          /* A too: C, the only one left */
    HS_CHECK_INT(hs_mcts_choose_move(m), 2);
    m->cfg.lcb_stdevs = 0;
    m->banned[0] = m->banned[1] = 0;
    t.b.util_sum = 8;                                    /* B refuted: 0.2, below A */
    HS_CHECK_INT(hs__mcts_confirm_pick(m), -1);
    m->root = NULL;
    hs_mcts_free(&m);
}

/* A search with confirmation visits still finds the capture, plays its
 * most visited move and repeats itself with a seed. (Whether they act
 * shows on real positions: tests/test_gtp_search_net.sh; on this toy PUCT
 * alone finds the capture.) */
static void test_confirm_search(void)
{
    static hs_mcts_result_t res[2];
    hs_error_t err;
    toy_pos_t p;
    toy_t t;
    hs_mcts_evaluator_t ev = s_capture_estimates(&p, &t);
    for (int k = 0; k < 2; k++) {
        hs_mcts_t *m = toy_search(300, 1, 5);
        hs_mcts_config_t cfg = m->cfg;
        cfg.confirm_stdevs = 5;
        HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
        HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
        HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
        hs_mcts_get_result(m, &res[k]);
        HS_CHECK_INT(res[k].visits, 300);
        HS_CHECK_INT(hs_mcts_choose_move(m), 14);
        hs_mcts_free(&m);
    }
    HS_CHECK_INT(res[0].best_move, 14);
    for (int i = 1; i < res[0].num_moves; i++)
        HS_CHECK(res[0].moves[0].visits >= res[0].moves[i].visits);
    toy_check_same(&res[0], &res[1]);
}

/* A search whose evaluator gives estimates: the dynamic score's centre comes
 * from the root's first evaluation, then from the tree when a search begins;
 * the capture is still found, and the same seed gives the same search. */
static void test_estimates(void)
{
    static hs_mcts_result_t res, again;
    hs_error_t err;
    toy_pos_t p;
    toy_t t;
    hs_mcts_evaluator_t ev = s_capture_estimates(&p, &t);
    for (int k = 0; k < 2; k++) {
        hs_mcts_t *m = toy_search(300, 2, 7);
        HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
        HS_CHECK(!m->have_center);
        HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
        HS_CHECK(m->have_center);
        HS_CHECK(fabs(m->score_center - 0.8 * hs_score_tromp_taylor(&p.board, 0.5)) < 1e-9);
        hs_mcts_get_result(m, k ? &again : &res);
        hs_mcts_begin(m);
        HS_CHECK(fabs(m->score_center - 0.8 * res.score_lead) < 1e-3);
        hs_mcts_free(&m);
    }
    HS_CHECK_INT(res.best_move, 14);
    HS_CHECK(res.winrate > 0.9f);
    toy_check_same(&res, &again);
}

int main(void)
{
    test_utility_terms();
    test_estimates();
    test_node_values();
    test_subtree_bias();
    test_lcb_choice();
    test_confirm_pick();
    test_confirm_search();
    test_capture_and_signs();
    test_ownership_view();
    test_determinism();
    test_batching();
    test_reuse();
    test_rescore();
    test_superko_root();
    test_noise_and_temperature();
    test_failing_evaluator();
    test_rave();
    return hs_test_finish();
}
