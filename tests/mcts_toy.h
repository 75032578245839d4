/*
 * tests/mcts_toy.h — what the tests of worker/mcts.h share: a toy evaluator
 * (uniform prior over legal moves, value and score from the Tromp-Taylor
 * area of the leaf; toy_eval_avg for a root "at several symmetries"), positions
 * from diagrams, a move played on one, a search with a budget and a seed,
 * and the check that two searches went alike. Header-only, like the other
 * helpers here; tests/test_mcts.c and tests/test_mcts_root.c use it.
 */
#ifndef HS_TESTS_MCTS_TOY_H
#define HS_TESTS_MCTS_TOY_H

#include <math.h>

#include "core/board.h"
#include "core/rules.h"
#include "core/score.h"
#include "tests/test.h"
#include "worker/mcts.h"
#include "worker/mcts_internal.h"
#include "worker/nn/eval.h"

typedef struct toy {
    int calls, leaves, max_seen;
    int avg_calls, avg_syms;   /* toy_eval_avg's */
    int fail_after;       /* > 0: the call after this many fails */
} toy_t;

static inline int toy_eval(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out, hs_error_t *err)
{
    toy_t *t = ctx;
    if (t->fail_after > 0 && t->calls >= t->fail_after)
        return hs_error_set(err, HS_EIO, "toy: asked to fail");
    t->calls++;
    t->leaves += n;
    if (n > t->max_seen)
        t->max_seen = n;
    for (int i = 0; i < n; i++) {
        const hs_board_t *b = pos[i].board;
        int size = b->size, area = size * size;
        unsigned char legal[HS_MCTS_MAX_MOVES];
        hs_nn_legal_moves(&pos[i], legal);
        int count = 0;
        for (int v = 0; v <= area; v++)
            count += legal[v];
        for (int v = 0; v <= area; v++)
            out[i].policy[v] = legal[v] ? 1.0f / (float)count : -1.0f;
        double margin = hs_score_tromp_taylor(b, pos[i].komi);
        double s = pos[i].to_move == HS_BLACK ? 1 : -1;
        out[i].value = (float)tanh(s * margin / 4.0);
        out[i].score = out[i].score_mean = (float)(s * margin);
        out[i].score_stdev = 1.0f;
        uint8_t owner[HS_BOARD_MAX_POINTS];
        hs_score_ownership(b, NULL, owner);
        for (int v = 0; v < area; v++) {
            uint8_t o = owner[hs_board_point(b, v % size, v / size)];
            out[i].ownership[v] = o == pos[i].to_move ? 1.0f : o == HS_EMPTY ? 0.0f : -1.0f;
        }
    }
    return 0;
}

/* The last legal point of pos (not pass): what toy_eval_avg favours. */
static inline int toy_favourite(const hs_nn_pos_t *pos)
{
    unsigned char legal[HS_MCTS_MAX_MOVES];
    hs_nn_legal_moves(pos, legal);
    int area = pos->board->size * pos->board->size, fav = -1;
    for (int v = 0; v < area; v++)
        fav = legal[v] ? v : fav;
    return fav;
}

/* A root evaluation "at several symmetries": toy_eval's, with 0.9 of the
 * policy on toy_favourite, so that a test sees which one a root got. */
static inline int toy_eval_avg(void *ctx, const hs_nn_pos_t *pos, int syms, hs_mcts_eval_t *out,
                        hs_error_t *err)
{
    toy_t *t = ctx;
    int calls = t->calls, leaves = t->leaves;
    int rc = toy_eval(ctx, pos, 1, out, err);
    t->calls = calls;
    t->leaves = leaves;
    t->avg_calls++;
    t->avg_syms = syms;
    int fav = toy_favourite(pos), count = 0, area = pos->board->size * pos->board->size;
    for (int v = 0; v <= area; v++)
        count += out->policy[v] >= 0;
    for (int v = 0; v <= area && count > 1; v++)
        if (out->policy[v] >= 0)
            out->policy[v] = v == fav ? 0.9f : 0.1f / (float)(count - 1);
    return rc;
}

static inline hs_mcts_evaluator_t toy_evaluator(toy_t *t, int max_batch)
{
    memset(t, 0, sizeof *t);
    hs_mcts_evaluator_t ev = { .eval = toy_eval, .ctx = t, .max_batch = max_batch, .name = "toy" };
    return ev;
}

/* A position from a diagram (rows top first: X black, O white, . empty). */
typedef struct toy_pos {
    hs_board_t board;
    hs_nn_pos_t nn;
} toy_pos_t;

static inline void toy_setup(toy_pos_t *p, const char *const *rows, int size, hs_color_t to_move, double komi)
{
    hs_board_init(&p->board, size);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            char c = rows[y][x];
            if (c == 'X' || c == 'O')
                hs_board_set_stone(&p->board, hs_board_point(&p->board, x, y),
                                   c == 'X' ? HS_BLACK : HS_WHITE);
        }
    p->board.to_move = to_move;
    memset(&p->nn, 0, sizeof p->nn);
    p->nn.board = &p->board;
    p->nn.to_move = to_move;
    p->nn.rules = HS_RULES_TROMP_TAYLOR;
    p->nn.komi = komi;
}

/* The position after point pt (HS_PASS: a pass) by from's side to move, on
 * *next: the one before it as prev1, the move in its history. */
static inline hs_nn_pos_t toy_play_point(const hs_nn_pos_t *from, hs_board_t *next,
                                         hs_point_t pt)
{
    *next = *from->board;
    HS_CHECK_INT(hs_board_play(next, from->to_move, pt, 0, NULL), 0);
    hs_nn_pos_t nn = *from;
    nn.board = next;
    nn.to_move = hs_color_other(from->to_move);
    nn.prev2 = from->prev1;
    nn.prev1 = from->board;
    nn.hist_color[nn.n_hist] = from->to_move;
    nn.hist_move[nn.n_hist++] = pt;
    if (pt == HS_PASS)
        return nn;
    if (from->to_move == HS_BLACK)
        nn.stones_black++;
    else
        nn.stones_white++;
    return nn;
}

/* The same for `move` (y * size + x). */
static inline hs_nn_pos_t toy_play(const hs_nn_pos_t *from, hs_board_t *next, int move)
{
    int size = from->board->size;
    return toy_play_point(from, next, hs_board_point(from->board, move % size, move / size));
}

static const char *const toy_capture_rows[] = {
    ".....",
    ".XXX.",
    "XOOO.",
    ".XXX.",
    ".....",
};

static inline hs_mcts_t *toy_search(int visits, int threads, uint64_t seed)
{
    hs_mcts_config_t cfg;
    hs_mcts_config_default(&cfg);
    cfg.max_visits = visits;
    cfg.threads = threads;
    cfg.seed = seed;
    hs_mcts_t *m = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_mcts_create(&cfg, &m, &err), 0);
    return m;
}

/* Two searches that must have gone alike: the same moves, the same visits. */
static inline void toy_check_same(const hs_mcts_result_t *a, const hs_mcts_result_t *b)
{
    HS_CHECK_INT(b->num_moves, a->num_moves);
    for (int i = 0; i < a->num_moves; i++)
        HS_CHECK(b->moves[i].move == a->moves[i].move && b->moves[i].visits == a->moves[i].visits);
}

#endif
