/*
 * tests/test_mcts_lcb.c — the bound each move reports (worker/mcts.h,
 * hs_mcts_move_info_t.lcb, which lz-analyze and the analysis protocol's
 * "lcb" print): KataGo's, the radius of its utility bound
 * (Search::getSelfUtilityLCBAndRadius) taken off the win rate
 * (PlayUtils::getHackedLCBForWinrate), checked against a transcription of
 * KataGo's code on a hand-made root; and the squared weights (weight_sq)
 * whose effective sample size the radius reads, as the node values keep
 * them (KataGo's weightSqSum); the utility's bound, the weights and the
 * move choice's values reported beside it.
 */
#include "tests/mcts_toy.h"

/* KataGo's "lcb" of a move, the mover's view, line by line as its code
 * computes it: utility average and mean square, the child's weight and
 * squared weight as the edge sees them, lcbStdevs, and the three utility
 * factors (winLoss, staticScore, dynamicScore). */
static double katago_radius(double utility_avg, double utility_sq_avg, double weight_sum,
                            double weight_sq_sum, double lcb_stdevs, double wl, double stat,
                            double dyn)
{
    double utility_range_radius = wl + stat + dyn;
    double ess = weight_sum * weight_sum / weight_sq_sum;
    double prior_weight = weight_sum / (ess * ess * ess);
    utility_sq_avg = fmax(utility_sq_avg, utility_avg * utility_avg + 1e-8);
    double widest = utility_range_radius * utility_range_radius;
    utility_sq_avg = (utility_sq_avg * weight_sum + (utility_sq_avg + widest) * prior_weight) /
                     (weight_sum + prior_weight);
    weight_sum += prior_weight;
    weight_sq_sum += prior_weight * prior_weight;
    ess = weight_sum * weight_sum / weight_sq_sum;
    double utility_variance = utility_sq_avg - utility_avg * utility_avg;
    return sqrt(utility_variance / ess) * lcb_stdevs;
}

static double katago_lcb(double winrate, double utility_avg, double utility_sq_avg,
                         double weight_sum, double weight_sq_sum, double lcb_stdevs, double wl,
                         double stat, double dyn)
{
    double radius = katago_radius(utility_avg, utility_sq_avg, weight_sum, weight_sq_sum,
                                  lcb_stdevs, wl, stat, dyn);
    double hack = wl / (wl + stat + dyn + 1.0e-20) * 0.5;
    return winrate - radius * hack;
}

/* A root of two children: A, 100 visits of weight 90 (noise pruning took
 * some) whose squares sum to 55 (value weighting spread them), win rate 0.6
 * for the mover; B, shared by graph search, 40 visits of which 20 came
 * through this edge. m's root (take it back with m->root = NULL). */
typedef struct lcb_tree {
    hs__mcts_node_t a, b, root;
    hs__mcts_edge_t edges[2];
    float own[2 * HS_MCTS_MAX_AREA];   /* the root's ownership sums (none) */
} lcb_tree_t;

static void s_tree(lcb_tree_t *t, hs_mcts_t *m)
{
    memset(t, 0, sizeof *t);
    t->a = (hs__mcts_node_t){ .visits = 100, .weight = 90, .weight_sq = 55, .util_sum = 30,
                              .util_sq_sum = 13, .value_sum = 20 };
    t->b = (hs__mcts_node_t){ .visits = 40, .weight = 40, .weight_sq = 30, .util_sum = 16,
                              .util_sq_sum = 6.8, .value_sum = -4 };
    t->edges[0] = (hs__mcts_edge_t){ .move = 0, .prior = 0.6f, .child = &t->a, .visits = 100 };
    t->edges[1] = (hs__mcts_edge_t){ .move = 1, .prior = 0.4f, .child = &t->b, .visits = 20 };
    t->root = (hs__mcts_node_t){ .visits = 121, .weight = 111, .num_edges = 2, .expanded = 1,
                                 .edges = t->edges, .own = t->own };
    m->root = &t->root;
    m->size = 9;
    m->area = 81;
    m->root_nn.to_move = HS_WHITE;
}

static const hs_mcts_move_info_t *s_info(const hs_mcts_result_t *res, int move)
{
    for (int k = 0; k < res->num_moves; k++)
        if (res->moves[k].move == move)
            return &res->moves[k];
    return NULL;
}

/* The reported bound is KataGo's, from the statistics KataGo reads: the
 * net's utility terms or the rollouts' own, lcbStdevs 5 unless the config
 * sets one, the edge's share of a shared child. */
static void test_reported_lcb(void)
{
    static hs_mcts_result_t res;
    hs_mcts_t *m = toy_search(10, 1, 1);
    lcb_tree_t t;
    s_tree(&t, m);
    for (int k = 0; k < 3; k++) {
        m->estimates = k != 1;   /* 1: rollouts, no dynamic score term */
        m->cfg.lcb_stdevs = k == 2 ? 3 : 0;
        double stdevs = k == 2 ? 3 : 5, dyn = k != 1 ? 0.3 : 0;
        hs_mcts_get_result(m, &res);
        const hs_mcts_move_info_t *a = s_info(&res, 0), *b = s_info(&res, 1);
        HS_CHECK(a != NULL && b != NULL);
        if (!a || !b)
            break;
        double want_a = katago_lcb(0.6, 0.3, 0.13, 90, 55, stdevs, 1, 0.1, dyn);
        double want_b = katago_lcb(0.45, 0.4, 0.17, 20, 15, stdevs, 1, 0.1, dyn);
        HS_CHECK(fabs(a->lcb - want_a) < 1e-6);
        HS_CHECK(fabs(b->lcb - want_b) < 1e-6);
        HS_CHECK(a->winrate < 0.5f);   /* White moves: the win rate is Black's, the bound White's */
    }
    m->root = NULL;
    hs_mcts_free(&m);
}

/* A node's squared weights, recomputed from its children's: its own
 * evaluation's 1, and each child's scaled as its weight was (by the edge's
 * share of a shared child, then by the adjustments). */
static void test_weight_sq(void)
{
    hs_mcts_t *m = toy_search(10, 1, 1);
    m->cfg.noise_prune_utility = 0;
    m->cfg.value_weight_exponent = 0;
    m->estimates = true;
    hs__mcts_node_t c1 = { .visits = 6, .weight = 6, .weight_sq = 6.5, .util_sum = 3 };
    hs__mcts_node_t c2 = { .visits = 8, .weight = 8, .weight_sq = 9, .util_sum = -2 };
    hs__mcts_edge_t edges[2] = { { .move = 0, .prior = 0.5f, .child = &c1, .visits = 6 },
                                 { .move = 1, .prior = 0.5f, .child = &c2, .visits = 4 } };
    hs__mcts_node_t n = { .visits = 11, .weight = 11, .num_edges = 2, .expanded = 1,
                          .edges = edges };
    hs__mcts_recompute(m, &n);
    HS_CHECK(fabs(n.weight - 11) < 1e-9);
    HS_CHECK(fabs(n.weight_sq - (1 + 6.5 + 0.25 * 9)) < 1e-9);
    m->cfg.value_weight_exponent = 0.25;   /* the weights move, their squares with them */
    hs__mcts_recompute(m, &n);
    HS_CHECK(fabs(n.weight - 11) < 1e-9);   /* the children's total stays */
    HS_CHECK(fabs(n.weight_sq - 9.75) > 1e-3 && n.weight_sq > 1);
    hs_mcts_free(&m);
}

/* In a search with KataGo's node values, every visited node's effective
 * sample size weight^2 / weight_sq is at most its visits, and a leaf's
 * squared weight is its visits. */
static int s_check_ess(const hs__mcts_node_t *n)
{
    int bad = 0;
    if (n->visits > 0) {
        bad += !(n->weight_sq > 0);
        bad += !(n->weight * n->weight / n->weight_sq <= n->visits + 1e-9);
        if (n->num_edges == 0 || !n->expanded)
            bad += fabs(n->weight_sq - n->visits) > 1e-9;
    }
    for (int i = 0; i < n->num_edges; i++)
        if (n->edges[i].child)
            bad += s_check_ess(n->edges[i].child);
    return bad;
}

static void test_search_weights(void)
{
    hs_error_t err;
    toy_pos_t p;
    toy_setup(&p, toy_capture_rows, 5, HS_BLACK, 0.5);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    ev.estimates = true;
    hs_mcts_t *m = toy_search(300, 2, 7);
    HS_CHECK_INT(hs_mcts_set_root(m, &p.nn, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    HS_CHECK_INT(s_check_ess(m->root), 0);
    hs_mcts_free(&m);
}

/* The other numbers a move reports beside its bound: utilityLcb (the
 * utility less the same radius), the child's weight and the edge's share of
 * it, and playSelectionValue: the visits, or with the bound on, its pick
 * raised by KataGo's factor over the move it beats (getPlaySelectionValues:
 * ((radius + margin) / (radius + margin / 5))^2 times that move's visits),
 * the bounds here taken with a weight of 1 a visit as the move choice's. */
static void test_move_numbers(void)
{
    static hs_mcts_result_t res;
    hs_mcts_t *m = toy_search(10, 1, 1);
    lcb_tree_t t;
    s_tree(&t, m);
    m->estimates = true;
    for (int k = 0; k < 2; k++) {
        m->cfg.lcb_stdevs = k ? 3 : 0;
        hs_mcts_get_result(m, &res);
        const hs_mcts_move_info_t *a = s_info(&res, 0), *b = s_info(&res, 1);
        HS_CHECK(a != NULL && b != NULL);
        if (!a || !b)
            break;
        double stdevs = k ? 3 : 5;
        double ra = katago_radius(0.3, 0.13, 90, 55, stdevs, 1, 0.1, 0.3);
        double rb = katago_radius(0.4, 0.17, 20, 15, stdevs, 1, 0.1, 0.3);
        HS_CHECK(fabs(a->utility_lcb - (0.3 - ra)) < 1e-6);
        HS_CHECK(fabs(b->utility_lcb - (0.4 - rb)) < 1e-6);
        HS_CHECK(a->weight == 90 && a->edge_weight == 90);
        HS_CHECK(b->weight == 40 && b->edge_weight == 20);   /* half its visits came this way */
        HS_CHECK(a->play_selection == 100);
        if (!k) {
            HS_CHECK(b->play_selection == 20);
            HS_CHECK_INT(res.moves[0].move, 0);
            continue;
        }
        double va = katago_radius(0.3, 0.13, 100, 100, 3, 1, 0.1, 0.3);
        double vb = katago_radius(0.4, 0.17, 40, 40, 3, 1, 0.1, 0.3);
        double margin = (0.4 - vb) - (0.3 - va);
        double f = (va + margin) / (va + 0.2 * margin);
        HS_CHECK(margin > 0 && f * f * 100 > 100);
        HS_CHECK(fabs(b->play_selection - f * f * 100) < 1e-6 * f * f * 100);
        HS_CHECK_INT(res.moves[0].move, 1);   /* the bound's pick goes first */
    }
    m->root = NULL;
    hs_mcts_free(&m);
}

int main(void)
{
    test_reported_lcb();
    test_move_numbers();
    test_weight_sq();
    test_search_weights();
    return hs_test_finish();
}
