/*
 * tests/test_mcts_eval.c — the search's two leaf evaluators
 * (worker/mcts_eval.h).
 *
 * Rollouts (always run): a 9x9 position Black has won gives value ~1 and
 * the right ownership from both sides to move; a string in atari is taken by
 * the playouts (capture first); results are identical with 1 and 2 threads
 * for the same seed and independent of how the leaves are batched; the prior
 * boosts a capture and a working escape over a plain point, not a laddered
 * escape, and is -1 exactly on illegal moves; every board size from 2 to 19
 * gives a well-formed evaluation, and 21x21 is refused.
 *
 * Net (with ../shared/nets; the part is skipped with a message without it):
 * each leaf equals hs_nn_evaluate at one of the eight symmetries plus the
 * documented conversion from White's view to the side to move's, whatever
 * the batch; the same seed picks the same symmetries; a won position reads
 * as won from both sides to move.
 */
#include <math.h>
#include <stdbool.h>

#include "test.h"
#include "core/board.h"
#include "core/rng.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"
#include "worker/tactics.h"

#define NET "/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz"

/* Black's side (columns A-F) is split into corridors no White group can live
 * in; White's (H-J) has two eyes; G is dame. Black: 54 points and part of G
 * against 18 and komi 7. */
static const char *s_won[9] = {
    ". X . X . X . O .",
    ". X . X . X . O .",
    ". X . X . X . O .",
    ". X . X . X . O .",
    ". X X X X X . O O",
    ". X . X . X . O .",
    ". X . X . X . O .",
    ". X . X . X . O .",
    ". X . X . X . O .",
};

/* White's six stones on C-E 6-7 are in atari (liberty F6). Black to move
 * takes them; White to move extends at F6 to two liberties, and Black's
 * ladder fails on White's G3 (the test checks that with hs_ladder_captures). */
static const char *s_atari[9] = {
    ". . . . . . . . .",
    ". . X X X . . . .",
    ". X O O O X . . .",
    ". X O O O . . . .",
    ". . X X X . . . .",
    ". . . . . . . . .",
    ". . . . . . O . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
};

/* Black to move: the white stone at C7 is in atari, taken at C6; A1 is
 * Black's eye, J9 White's (suicide for Black). */
static const char *s_prior_board[9] = {
    ". . . . . . . O .",
    ". . X . . . . . O",
    ". X O X . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X . . . . . . . .",
    ". X . . . . . . .",
};

/* Black to move: the black stone at E5 is in atari (liberty E4). Left, E4
 * gives three liberties (a working escape); right, White's F4 leaves it two,
 * and White ladders it towards the lower left (the test checks that with
 * hs_ladder_captures). */
static const char *s_escape_open[9] = {
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . O . . . .",
    ". . . O X O . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
};
static const char *s_escape_ladder[9] = {
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . O . . . .",
    ". . . O X O . . .",
    ". . . . . O . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
};

static void s_board(hs_board_t *b, const char *const *rows, int n, hs_color_t to_move)
{
    hs_board_init(b, n);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            char c = rows[y][2 * x];
            if (c != '.')
                hs_board_set_stone(b, hs_board_point(b, x, y), c == 'X' ? HS_BLACK : HS_WHITE);
        }
    b->to_move = to_move;
}

static hs_nn_pos_t s_pos(const hs_board_t *b, hs_color_t to_move)
{
    hs_nn_pos_t p = { .board = b, .to_move = to_move, .rules = HS_RULES_CHINESE, .komi = 7.0 };
    return p;
}

static int s_rollout(int threads, int playouts, uint64_t seed, hs_mcts_evaluator_t *ev)
{
    hs_mcts_rollout_config_t cfg;
    hs_mcts_rollout_config_default(&cfg);
    cfg.threads = threads;
    cfg.playouts = playouts;
    cfg.seed = seed;
    hs_error_t err = {0};
    int rc = hs_mcts_rollout_evaluator_create(&cfg, ev, &err);
    if (rc)
        fprintf(stderr, "rollout evaluator: %s\n", err.msg);
    return rc;
}

static int s_eval(hs_mcts_evaluator_t *ev, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out)
{
    hs_error_t err = {0};
    int rc = ev->eval(ev->ctx, pos, n, out, &err);
    if (rc)
        fprintf(stderr, "%s evaluator: %s\n", ev->name, err.msg);
    return rc;
}

static int s_v(int n, int x, int y) { return y * n + x; }

/* Sum of the policy over legal moves, and whether -1 marks exactly the
 * illegal ones. */
static void s_check_policy(const hs_mcts_eval_t *e, const hs_nn_pos_t *pos)
{
    unsigned char legal[HS_MCTS_MAX_MOVES];
    hs_nn_legal_moves(pos, legal);
    int n = pos->board->size;
    double sum = 0;
    int bad = 0;
    for (int v = 0; v <= n * n; v++) {
        if (legal[v]) {
            bad += e->policy[v] < 0.0f;
            sum += e->policy[v];
        } else {
            bad += e->policy[v] >= 0.0f;
        }
    }
    HS_CHECK_INT(bad, 0);
    HS_CHECK(fabs(sum - 1.0) < 1e-4);
}

static void test_rollout_won(void)
{
    hs_board_t b;
    s_board(&b, s_won, 9, HS_BLACK);
    hs_nn_pos_t pos[2] = { s_pos(&b, HS_BLACK), s_pos(&b, HS_WHITE) };
    hs_mcts_evaluator_t ev;
    HS_CHECK_INT(s_rollout(1, 64, 5, &ev), 0);
    HS_CHECK_STR(ev.name, "rollout");
    hs_mcts_eval_t *out = malloc(2 * sizeof *out);
    HS_CHECK_INT(s_eval(&ev, pos, 2, out), 0);
    printf("won 9x9: Black to move value %+.3f score %+.2f (stdev %.2f), own A1 %+.2f J5 %+.2f; "
           "White to move value %+.3f score %+.2f\n", out[0].value, out[0].score,
           out[0].score_stdev, out[0].ownership[s_v(9, 0, 8)], out[0].ownership[s_v(9, 8, 4)],
           out[1].value, out[1].score);
    /* From Black's side: won, Black's corridors +1, White's eyes -1. */
    HS_CHECK(out[0].value > 0.9f);
    HS_CHECK(out[0].score > 15.0f);
    HS_CHECK(out[0].ownership[s_v(9, 0, 8)] > 0.9f);      /* A1 */
    HS_CHECK(out[0].ownership[s_v(9, 2, 0)] > 0.9f);      /* C9 */
    HS_CHECK(out[0].ownership[s_v(9, 8, 0)] < -0.9f);     /* J9 */
    /* White to move: the same game, every sign flipped. */
    HS_CHECK(out[1].value < -0.9f);
    HS_CHECK(out[1].score < -15.0f);
    HS_CHECK(out[1].ownership[s_v(9, 0, 8)] < -0.9f);
    HS_CHECK(out[1].ownership[s_v(9, 8, 0)] > 0.9f);
    HS_CHECK(out[0].score_stdev >= 0.0f);
    s_check_policy(&out[0], &pos[0]);
    s_check_policy(&out[1], &pos[1]);
    free(out);
    hs_mcts_evaluator_free(&ev);
    HS_CHECK(ev.eval == NULL && ev.ctx == NULL);
    hs_mcts_evaluator_free(&ev);   /* safe on a zeroed evaluator */
}

/* Capture first: with Black to move every playout starts by taking the six
 * stones, so D7 is Black's in all of them; with White to move the escape
 * rule saves them first, and D7 is Black's less often. */
static void test_rollout_capture(void)
{
    hs_board_t b;
    s_board(&b, s_atari, 9, HS_BLACK);
    hs_point_t d7 = hs_board_point(&b, 3, 2), f6 = hs_board_point(&b, 5, 3);
    HS_CHECK_INT(hs_board_libs(&b, d7), 1);
    hs_board_t after = b;
    HS_CHECK_INT(hs_board_play(&after, HS_WHITE, f6, 0, NULL), 0);
    HS_CHECK_INT(hs_board_libs(&after, d7), 2);
    HS_CHECK(!hs_ladder_captures(&after, d7, true, NULL, 100000));
    hs_nn_pos_t pos[2] = { s_pos(&b, HS_BLACK), s_pos(&b, HS_WHITE) };
    hs_mcts_evaluator_t ev;
    HS_CHECK_INT(s_rollout(1, 64, 11, &ev), 0);
    hs_mcts_eval_t *out = malloc(2 * sizeof *out);
    HS_CHECK_INT(s_eval(&ev, pos, 2, out), 0);
    /* Both from Black's view (White's eval flipped). */
    float bk = out[0].ownership[s_v(9, 3, 2)], wh = -out[1].ownership[s_v(9, 3, 2)];
    printf("atari: D7 Black's %+.2f with Black to move, %+.2f with White to move\n", bk, wh);
    HS_CHECK(bk > 0.95f);
    HS_CHECK(wh < bk - 0.2f);
    free(out);
    hs_mcts_evaluator_free(&ev);
}

/* A few positions from short seeded random games (different leaves). */
static int s_random_positions(hs_board_t *boards, hs_nn_pos_t *pos, int count, int size)
{
    hs_rng_t rng;
    hs_rng_seed(&rng, 99);
    for (int i = 0; i < count; i++) {
        hs_board_init(&boards[i], size);
        int moves = 4 + 6 * i;
        for (int m = 0; m < moves; m++) {
            hs_point_t p = boards[i].empty[hs_rng_below(&rng, (uint32_t)boards[i].num_empty)];
            hs_board_play(&boards[i], boards[i].to_move, p, 0, NULL);   /* illegal: skipped */
        }
        pos[i] = s_pos(&boards[i], boards[i].to_move);
    }
    return count;
}

static void test_rollout_threads(void)
{
    enum { N = 12 };
    hs_board_t *boards = malloc(N * sizeof *boards);
    hs_nn_pos_t pos[N];
    s_random_positions(boards, pos, N, 9);
    hs_mcts_eval_t *one = malloc(N * sizeof *one), *two = malloc(N * sizeof *two);
    hs_mcts_eval_t *single = malloc(sizeof *single);
    memset(one, 0, N * sizeof *one);
    memset(two, 0xAB, N * sizeof *two);
    hs_mcts_evaluator_t e1, e2, e3;
    HS_CHECK_INT(s_rollout(1, 16, 3, &e1), 0);
    HS_CHECK_INT(s_rollout(2, 16, 3, &e2), 0);
    HS_CHECK_INT(s_eval(&e1, pos, N, one), 0);
    HS_CHECK_INT(s_eval(&e2, pos, N, two), 0);
    HS_CHECK(memcmp(one, two, N * sizeof *one) == 0);
    /* Batching does not matter: one leaf alone gives what it gave in the batch. */
    HS_CHECK_INT(s_eval(&e2, &pos[7], 1, single), 0);
    HS_CHECK(memcmp(single, &one[7], sizeof *single) == 0);
    /* Another seed, other playouts. */
    HS_CHECK_INT(s_rollout(2, 16, 4, &e3), 0);
    HS_CHECK_INT(s_eval(&e3, pos, N, two), 0);
    HS_CHECK(memcmp(one, two, N * sizeof *one) != 0);
    for (int i = 0; i < N; i++) {
        s_check_policy(&one[i], &pos[i]);
        HS_CHECK(one[i].value >= -1.0f && one[i].value <= 1.0f);
    }
    /* A call over max_batch is refused. */
    hs_error_t err = {0};
    HS_CHECK_INT(e1.eval(e1.ctx, pos, e1.max_batch + 1, one, &err), HS_EINVAL);
    HS_CHECK(hs_mcts_evaluator_helper_cpu(&e1) == 0.0);   /* threads 1: no helper */
    HS_CHECK(hs_mcts_evaluator_helper_cpu(&e2) >= 0.0);
    hs_mcts_evaluator_free(&e1);
    hs_mcts_evaluator_free(&e2);
    hs_mcts_evaluator_free(&e3);
    free(single);
    free(one);
    free(two);
    free(boards);
}

static void test_rollout_prior(void)
{
    hs_board_t b;
    s_board(&b, s_prior_board, 9, HS_BLACK);
    hs_nn_pos_t pos = s_pos(&b, HS_BLACK);
    hs_mcts_evaluator_t ev;
    HS_CHECK_INT(s_rollout(1, 1, 1, &ev), 0);
    hs_mcts_eval_t *out = malloc(sizeof *out);
    HS_CHECK_INT(s_eval(&ev, &pos, 1, out), 0);
    float cap = out->policy[s_v(9, 2, 3)];      /* C6 takes C7 */
    float third = out->policy[s_v(9, 6, 2)];    /* G7: third line, nothing there */
    float plain = out->policy[s_v(9, 7, 7)];    /* H2: second line, nothing there */
    printf("prior: capture %.4f, G7 %.4f, H2 %.4f, pass %.4f\n", cap, third, plain,
           out->policy[81]);
    HS_CHECK(cap > 3.0f * third);
    HS_CHECK(third > plain);                    /* the third line's boost */
    HS_CHECK(out->policy[81] > 0.0f && out->policy[81] < plain);
    HS_CHECK(out->policy[s_v(9, 0, 8)] == 0.0f);    /* own eye: legal, no prior */
    HS_CHECK(out->policy[s_v(9, 8, 0)] < 0.0f);     /* suicide: illegal */
    HS_CHECK(out->policy[s_v(9, 2, 2)] < 0.0f);     /* occupied */
    s_check_policy(out, &pos);
    free(out);
    hs_mcts_evaluator_free(&ev);
}

/* The escape boost goes to an extension that works, not to one the ladder
 * reader catches: the same point (E4) on both boards, so only the tactics
 * differ. */
static void test_rollout_escape_prior(void)
{
    hs_board_t open, ladder;
    s_board(&open, s_escape_open, 9, HS_BLACK);
    s_board(&ladder, s_escape_ladder, 9, HS_BLACK);
    hs_point_t e5 = hs_board_point(&open, 4, 4), e4 = hs_board_point(&open, 4, 5);
    /* The premise: after E4 the right-hand stones are caught in a ladder. */
    hs_board_t after = ladder;
    HS_CHECK_INT(hs_board_play(&after, HS_BLACK, e4, 0, NULL), 0);
    HS_CHECK_INT(hs_board_libs(&after, e5), 2);
    HS_CHECK(hs_ladder_captures(&after, e5, true, NULL, 100000));
    hs_nn_pos_t pos[2] = { s_pos(&open, HS_BLACK), s_pos(&ladder, HS_BLACK) };
    hs_mcts_evaluator_t ev;
    HS_CHECK_INT(s_rollout(1, 1, 1, &ev), 0);
    hs_mcts_eval_t *out = malloc(2 * sizeof *out);
    HS_CHECK_INT(s_eval(&ev, pos, 2, out), 0);
    int v = s_v(9, 4, 5), plain = s_v(9, 1, 1);   /* E4; B8, second line */
    printf("prior: escape E4 %.4f (B8 %.4f); laddered E4 %.4f (B8 %.4f)\n", out[0].policy[v],
           out[0].policy[plain], out[1].policy[v], out[1].policy[plain]);
    HS_CHECK(out[0].policy[v] > 3.0f * out[0].policy[plain]);
    HS_CHECK(out[1].policy[v] < 2.0f * out[1].policy[plain]);
    free(out);
    hs_mcts_evaluator_free(&ev);
}

/* Every board size the search takes (2..19): a well-formed evaluation. */
static void test_rollout_sizes(void)
{
    static const int sizes[] = { 2, 3, 5, 13, 19 };
    hs_mcts_evaluator_t ev;
    HS_CHECK_INT(s_rollout(2, 4, 8, &ev), 0);
    hs_board_t *boards = malloc(3 * sizeof *boards);
    hs_mcts_eval_t *out = malloc(3 * sizeof *out);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        hs_nn_pos_t pos[3];
        s_random_positions(boards, pos, 3, sizes[k]);
        HS_CHECK_INT(s_eval(&ev, pos, 3, out), 0);
        for (int i = 0; i < 3; i++) {
            s_check_policy(&out[i], &pos[i]);
            HS_CHECK(out[i].value >= -1.0f && out[i].value <= 1.0f);
            int a = sizes[k] * sizes[k], bad = 0;
            for (int v = 0; v < a; v++)
                bad += out[i].ownership[v] < -1.0f || out[i].ownership[v] > 1.0f;
            HS_CHECK_INT(bad, 0);
        }
    }
    /* A board the search does not take. */
    hs_board_init(&boards[0], 21);
    hs_nn_pos_t big = s_pos(&boards[0], HS_BLACK);
    hs_error_t err = {0};
    HS_CHECK_INT(ev.eval(ev.ctx, &big, 1, out, &err), HS_EINVAL);
    free(out);
    free(boards);
    hs_mcts_evaluator_free(&ev);
}

static void test_rollout_config(void)
{
    hs_mcts_rollout_config_t cfg;
    hs_mcts_rollout_config_default(&cfg);
    HS_CHECK_INT(cfg.playouts, 1);
    HS_CHECK_INT(cfg.self_atari_max, 2);
    hs_mcts_evaluator_t ev;
    HS_CHECK_INT(hs_mcts_rollout_evaluator_create(&cfg, &ev, NULL), 0);
    HS_CHECK(ev.max_batch >= 16);      /* 16 per thread, threads = every core */
    hs_error_t err = {0};                /* playouts have no symmetry to fix */
    HS_CHECK_INT(hs_mcts_net_evaluator_fix_symmetry(&ev, 0, &err), HS_EINVAL);
    hs_mcts_evaluator_free(&ev);
    cfg.playouts = 0;
    HS_CHECK_INT(hs_mcts_rollout_evaluator_create(&cfg, &ev, NULL), HS_EINVAL);
    cfg.playouts = 1;
    cfg.threads = -1;
    HS_CHECK_INT(hs_mcts_rollout_evaluator_create(&cfg, &ev, NULL), HS_EINVAL);
}

/* ---- The net evaluator ---- */

/* The documented conversion of one hs_nn_evaluate output. */
static void s_expect(const hs_nn_output_t *o, hs_color_t to_move, hs_mcts_eval_t *e)
{
    int a = o->n * o->n;
    float s = to_move == HS_BLACK ? -1.0f : 1.0f;
    e->value = s * (o->white_win - o->white_loss);
    e->score = s * o->white_lead;
    e->score_mean = s * o->white_score_selfplay;   /* the final score, not the lead */
    float var = o->white_score_selfplay_sq - o->white_score_selfplay * o->white_score_selfplay;
    e->score_stdev = sqrtf(var > 0.0f ? var : 0.0f);
    for (int v = 0; v <= a; v++)
        e->policy[v] = o->policy[v];
    for (int v = 0; v < a; v++)
        e->ownership[v] = s * o->ownership[v];
}

static bool s_same(const hs_mcts_eval_t *x, const hs_mcts_eval_t *y, int n)
{
    if (x->value != y->value || x->score != y->score || x->score_mean != y->score_mean ||
        x->score_stdev != y->score_stdev)
        return false;
    return !memcmp(x->policy, y->policy, (size_t)(n * n + 1) * sizeof(float))
        && !memcmp(x->ownership, y->ownership, (size_t)(n * n) * sizeof(float));
}

/* Which symmetry's output leaf i equals (-1: none). */
static int s_which_sym(hs_nn_evaluator_t *nn, const hs_nn_pos_t *pos, const hs_mcts_eval_t *got)
{
    hs_nn_output_t *o = malloc(sizeof *o);
    hs_mcts_eval_t *e = malloc(sizeof *e);
    int found = -1;
    for (int sym = 0; sym < 8 && found < 0; sym++) {
        if (hs_nn_evaluate(nn, pos, 1, sym, o, NULL))
            break;
        s_expect(o, pos->to_move, e);
        if (s_same(e, got, pos->board->size))
            found = sym;
    }
    free(o);
    free(e);
    return found;
}

/* The root at several symmetries (eval_avg): all eight is the net's own
 * average over them (another order of the sums), one is one of them, the
 * same position gets the same draw, and a count outside 1..8 is refused. */
static void s_check_avg(hs_nn_evaluator_t *nn, hs_mcts_evaluator_t *ev, const hs_nn_pos_t *pos)
{
    hs_nn_output_t *o = malloc(sizeof *o);
    hs_mcts_eval_t *want = malloc(sizeof *want), *got = malloc(sizeof *got),
                   *again = malloc(sizeof *again);
    hs_error_t err = {0};
    int a = pos->board->size * pos->board->size;
    HS_CHECK(ev->eval_avg != NULL);
    HS_CHECK_INT(hs_nn_evaluate(nn, pos, 1, HS_NN_SYM_ALL, o, &err), 0);
    s_expect(o, pos->to_move, want);
    HS_CHECK_INT(ev->eval_avg(ev->ctx, pos, 8, got, &err), 0);
    double worst = fabs(got->value - want->value) + fabs(got->score - want->score);
    for (int v = 0; v <= a; v++)
        worst = fmax(worst, fabs(got->policy[v] - want->policy[v]));
    for (int v = 0; v < a; v++)
        worst = fmax(worst, fabs(got->ownership[v] - want->ownership[v]));
    printf("net root at 8 symmetries: %.2g from the net's own average\n", worst);
    HS_CHECK(worst < 1e-4);
    HS_CHECK_INT(ev->eval_avg(ev->ctx, pos, 1, got, &err), 0);
    HS_CHECK(s_which_sym(nn, pos, got) >= 0);
    HS_CHECK_INT(ev->eval_avg(ev->ctx, pos, 3, got, &err), 0);
    HS_CHECK_INT(ev->eval_avg(ev->ctx, pos, 3, again, &err), 0);
    HS_CHECK(s_same(got, again, pos->board->size));
    HS_CHECK(s_which_sym(nn, pos, got) < 0);   /* an average, not one of them */
    HS_CHECK_INT(ev->eval_avg(ev->ctx, pos, 0, got, &err), HS_EINVAL);
    HS_CHECK_INT(ev->eval_avg(ev->ctx, pos, 9, got, &err), HS_EINVAL);
    free(o);
    free(want);
    free(got);
    free(again);
}

static void test_net(hs_nn_evaluator_t *nn)
{
    enum { N = 4 };
    hs_board_t *boards = malloc((N + 1) * sizeof *boards);
    hs_nn_pos_t pos[N + 2];
    s_random_positions(boards, pos, N, 9);
    s_board(&boards[N], s_won, 9, HS_BLACK);
    pos[N] = s_pos(&boards[N], HS_BLACK);
    pos[N + 1] = s_pos(&boards[N], HS_WHITE);
    hs_mcts_evaluator_t ev, again;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_mcts_net_evaluator_create(nn, 17, &ev, &err), 0);
    HS_CHECK_INT(hs_mcts_net_evaluator_create(nn, 17, &again, &err), 0);
    HS_CHECK_STR(ev.name, "net");
    HS_CHECK_INT(ev.max_batch, hs_nn_backend_max_batch(hs_nn_evaluator_backend(nn)));
    hs_mcts_eval_t *out = malloc((N + 2) * sizeof *out), *one = malloc(sizeof *one);
    HS_CHECK_INT(s_eval(&ev, pos, N + 2, out), 0);
    int syms = 0;
    for (int i = 0; i < N + 2; i++) {
        int sym = s_which_sym(nn, &pos[i], &out[i]);
        printf("net leaf %d (%s to move): symmetry %d, value %+.3f, score %+.2f\n", i,
               pos[i].to_move == HS_BLACK ? "Black" : "White", sym, out[i].value, out[i].score);
        HS_CHECK(sym >= 0);
        if (sym >= 0)
            syms |= 1 << sym;
        s_check_policy(&out[i], &pos[i]);
        /* Alone through another evaluator with the same seed: the same. */
        HS_CHECK_INT(s_eval(&again, &pos[i], 1, one), 0);
        HS_CHECK(s_same(one, &out[i], 9));
    }
    /* The leaves do not all share one symmetry (six leaves, eight choices). */
    HS_CHECK(__builtin_popcount((unsigned)syms) >= 2);
    /* Fixed (KataGo's nnRandomize = false is 0): every leaf at that one. */
    HS_CHECK_INT(hs_mcts_net_evaluator_fix_symmetry(&again, 3, &err), 0);
    HS_CHECK_INT(s_eval(&again, pos, N + 2, out), 0);
    for (int i = 0; i < N + 2; i++)
        HS_CHECK_INT(s_which_sym(nn, &pos[i], &out[i]), 3);
    HS_CHECK_INT(hs_mcts_net_evaluator_fix_symmetry(&again, 8, &err), HS_EINVAL);
    HS_CHECK_INT(hs_mcts_net_evaluator_fix_symmetry(&again, -1, &err), 0);   /* drawn again */
    HS_CHECK_INT(s_eval(&ev, pos, N + 2, out), 0);
    /* Won for Black: from both sides. */
    int a1 = s_v(9, 0, 8), j9 = s_v(9, 8, 0);
    HS_CHECK(out[N].value > 0.8f && out[N + 1].value < -0.8f);
    HS_CHECK(out[N].score > 10.0f && out[N + 1].score < -10.0f);
    HS_CHECK(out[N].ownership[a1] > 0.5f && out[N + 1].ownership[a1] < -0.5f);
    HS_CHECK(out[N].ownership[j9] < -0.5f && out[N + 1].ownership[j9] > 0.5f);
    HS_CHECK(hs_mcts_evaluator_helper_cpu(&ev) >= 0.0);
    s_check_avg(nn, &ev, &pos[0]);
    free(one);
    free(out);
    free(boards);
    hs_mcts_evaluator_free(&ev);
    hs_mcts_evaluator_free(&again);
}

static void s_net_tests(void)
{
    const char *data = getenv("HS_DATA_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s" NET, data ? data : "../shared/data");
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("SKIP (net part): no net at %s; the net evaluator needs ../shared/nets\n", path);
        return;
    }
    fclose(f);
    hs_error_t err = {0};
    hs_nn_model_t *m = NULL;
    HS_CHECK_INT(hs_nn_model_load(path, &m, &err), 0);
    if (!m)
        return;
    /* The plain-C backend: exact and deterministic whatever the batch. */
    hs_nn_backend_config_t bc = { .kind = HS_NN_BACKEND_REF, .max_batch = 8 };
    hs_nn_evaluator_t *nn = NULL;
    HS_CHECK_INT(hs_nn_evaluator_create(m, &bc, &nn, &err), 0);
    if (nn)
        test_net(nn);
    hs_nn_evaluator_free(&nn);
    hs_nn_model_free(&m);
}

int main(void)
{
    test_rollout_config();
    test_rollout_won();
    test_rollout_capture();
    test_rollout_threads();
    test_rollout_prior();
    test_rollout_escape_prior();
    test_rollout_sizes();
    s_net_tests();
    return hs_test_finish();
}
