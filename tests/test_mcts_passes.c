/*
 * tests/test_mcts_passes.c — the end of the game in worker/mcts.h: a
 * position that two passes end is scored where the tree reaches it, never
 * evaluated; but the root is always searched, whatever its history (KataGo
 * forces its root non-terminal: a history that ended in two passes is a
 * position to play on), and a node that the tree scored does not become a
 * root by tree reuse (it has no evaluation to start from). The toy
 * evaluator is tests/mcts_toy.h's.
 */
#include "tests/mcts_toy.h"

/* Black's three columns (15 points) against White's two: Black + 4.5 at komi
 * 0.5, 15 empty points. */
static const char *const s_rows[] = { "..XO.", "..XO.", "..XO.", "..XO.", "..XO." };

/* The position after from's side to move passes, on *next. */
static hs_nn_pos_t s_pass(const hs_nn_pos_t *from, hs_board_t *next)
{
    return toy_play_point(from, next, HS_PASS);
}

/* The child through the root's pass edge, or NULL. */
static const hs__mcts_node_t *s_pass_child(const hs_mcts_t *m)
{
    for (int i = 0; i < m->root->num_edges; i++)
        if (m->root->edges[i].move == m->area)
            return m->root->edges[i].child;
    return NULL;
}

/* Both sides passed: the search goes on from there (the root evaluated, its
 * raw values the evaluator's, its moves searched), and a pass from it ends
 * the game again, scored as the board stands. */
static void test_root_after_passes(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    hs_board_t b1, b2;
    toy_setup(&p, s_rows, 5, HS_BLACK, 0.5);
    hs_nn_pos_t one = s_pass(&p.nn, &b1);
    hs_nn_pos_t two = s_pass(&one, &b2);
    HS_CHECK_INT(two.board->passes, 2);
    HS_CHECK_INT(two.to_move, HS_BLACK);
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(60, 1, 1);
    HS_CHECK_INT(hs_mcts_set_root(m, &two, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.visits, 60);
    HS_CHECK(t.leaves > 1);
    HS_CHECK(res.num_moves > 1);
    /* the toy's evaluation of the root, not a count */
    HS_CHECK(fabs(res.raw_winrate - (1 + tanh(4.5 / 4)) / 2) < 1e-5);
    HS_CHECK(fabsf(res.raw_score - 4.5f) < 1e-4f);
    const hs__mcts_node_t *pc = s_pass_child(m);
    HS_CHECK(pc != NULL && pc->visits > 0 && pc->terminal && !pc->expanded);
    for (int k = 0; k < res.num_moves; k++)
        if (res.moves[k].move == 25)
            HS_CHECK(res.moves[k].winrate == 1.0f && fabsf(res.moves[k].score_lead - 4.5f) < 1e-4f);
    hs_mcts_free(&m);
}

/* One pass at the root: the other side's pass ends the game inside the
 * tree (scored); when that pass is then played, the scored node is not kept
 * as the root, which is searched afresh. */
static void test_reuse_after_passes(void)
{
    static hs_mcts_result_t res;
    hs_error_t err;
    toy_pos_t p;
    hs_board_t b1, b2;
    toy_setup(&p, s_rows, 5, HS_BLACK, 0.5);
    hs_nn_pos_t one = s_pass(&p.nn, &b1);   /* White to move */
    toy_t t;
    hs_mcts_evaluator_t ev = toy_evaluator(&t, 8);
    hs_mcts_t *m = toy_search(200, 1, 2);
    HS_CHECK_INT(hs_mcts_set_root(m, &one, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    const hs__mcts_node_t *pc = s_pass_child(m);
    HS_CHECK(pc != NULL && pc->visits > 0 && pc->terminal);

    hs_nn_pos_t two = s_pass(&one, &b2);
    HS_CHECK_INT(hs_mcts_set_root(m, &two, NULL, &err), 0);
    HS_CHECK_INT(hs_mcts_root_visits(m), 0);
    hs_mcts_config_t cfg = *hs_mcts_get_config(m);
    cfg.max_visits = 30;
    HS_CHECK_INT(hs_mcts_set_config(m, &cfg, &err), 0);
    int before = t.leaves;
    HS_CHECK_INT(hs_mcts_search(m, &ev, &err), 0);
    hs_mcts_get_result(m, &res);
    HS_CHECK_INT(res.visits, 30);
    HS_CHECK(t.leaves > before);
    HS_CHECK(res.num_moves > 1);
    hs_mcts_free(&m);
}

int main(void)
{
    test_root_after_passes();
    test_reuse_after_passes();
    return hs_test_finish();
}
