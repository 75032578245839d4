/*
 * tests/test_nn_features_hs.c — hyeongse's own input set (worker/nn/features.h,
 * HS_NN_INPUT_HS_V1) on hand-made sequences: the 8 history boards of each
 * side (a capture inside the history, the rule that captured stones are not
 * put back, the game's start), prev1/prev2 used where given, the side to
 * move, the liberty planes, zero globals, and hs_nn_features_for's dispatch
 * (KataGo's set is exactly hs_nn_features). Needs no shared data.
 */
#include "test.h"
#include "worker/nn/features.h"

#define N 9
#define A (N * N)

static float sp[HS_NN_SPATIAL * A];
static float g[HS_NN_GLOBAL];

static float s_at(int plane, int x, int y)
{
    return sp[plane * A + y * N + x];
}

/* Stones (value 1) on a plane, the rest 0. */
static int s_plane_count(int plane)
{
    int n = 0;
    for (int i = 0; i < A; i++)
        n += sp[plane * A + i] == 1.0f ? 1 : sp[plane * A + i] == 0.0f ? 0 : 1000;
    return n;
}

static const int seq[][3] = {
    {1, 0, HS_BLACK}, {0, 0, HS_WHITE}, {0, 1, HS_BLACK},   /* 3 captures (0,0) */
    {4, 4, HS_WHITE}, {5, 5, HS_BLACK}, {6, 6, HS_WHITE},
    {2, 2, HS_BLACK}, {3, 3, HS_WHITE}, {7, 7, HS_BLACK},
};
#define SEQ_LEN ((int)(sizeof seq / sizeof *seq))

/* Plays the first `upto` moves of seq; boards[k] = after k moves. Fills *p
 * for the position after `upto` moves as the callers do (features.h). */
static void s_play(int upto, hs_board_t *boards, hs_nn_pos_t *p)
{
    hs_board_init(&boards[0], N);
    for (int k = 1; k <= upto; k++) {
        hs_board_copy(&boards[k], &boards[k - 1]);
        hs_point_t q = hs_board_point(&boards[k], seq[k - 1][0], seq[k - 1][1]);
        HS_CHECK_INT(hs_board_play(&boards[k], (hs_color_t)seq[k - 1][2], q, 0, NULL), 0);
    }
    *p = (hs_nn_pos_t){.board = &boards[upto], .to_move = boards[upto].to_move,
                       .rules = HS_RULES_JAPANESE, .komi = 6.5};
    for (int k = upto > HS_NN_HISTORY ? upto - HS_NN_HISTORY : 0; k < upto; k++) {
        p->hist_color[p->n_hist] = (hs_color_t)seq[k][2];
        p->hist_move[p->n_hist++] = hs_board_point(&boards[0], seq[k][0], seq[k][1]);
    }
    p->prev1 = upto >= 1 ? &boards[upto - 1] : NULL;
    p->prev2 = upto >= 2 ? &boards[upto - 2] : NULL;
}

/* After all 9 moves (White to move): own = White on planes 0-7. */
static void s_check_long_history(void)
{
    static hs_board_t boards[SEQ_LEN + 1];
    hs_nn_pos_t p;
    s_play(SEQ_LEN, boards, &p);
    HS_CHECK_INT(p.to_move, HS_WHITE);
    HS_CHECK_INT(p.n_hist, 8);
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    /* now: White (4,4) (6,6) (3,3); Black (1,0) (0,1) (5,5) (2,2) (7,7) */
    HS_CHECK_INT(s_plane_count(0), 3);
    HS_CHECK_INT(s_plane_count(8), 5);
    HS_CHECK(s_at(0, 3, 3) == 1 && s_at(0, 0, 0) == 0 && s_at(8, 7, 7) == 1);
    /* k moves ago: the stone of each later move is gone */
    HS_CHECK(s_at(1, 3, 3) == 1 && s_at(9, 7, 7) == 0);            /* after move 8 */
    HS_CHECK(s_at(2, 3, 3) == 0 && s_at(10, 2, 2) == 1);           /* after 7 */
    HS_CHECK(s_at(3, 6, 6) == 1 && s_at(11, 2, 2) == 0);           /* after 6 */
    HS_CHECK(s_at(4, 6, 6) == 0 && s_at(12, 5, 5) == 1);           /* after 5 */
    HS_CHECK(s_at(5, 4, 4) == 1 && s_at(13, 5, 5) == 0);           /* after 4 */
    HS_CHECK(s_at(6, 4, 4) == 0 && s_at(14, 0, 1) == 1);           /* after 3 */
    /* after 2: (0,1) is taken off, but the white stone move 3 captured is
     * not put back (features.h's rule) */
    HS_CHECK(s_at(15, 0, 1) == 0 && s_at(15, 1, 0) == 1);
    HS_CHECK(s_at(7, 0, 0) == 0);
    HS_CHECK_INT(s_plane_count(7), 0);
    HS_CHECK_INT(s_plane_count(15), 1);
    /* White to move */
    HS_CHECK_INT(s_plane_count(16), 0);
    HS_CHECK_INT(s_plane_count(17), A);
    for (int i = 0; i < HS_NN_GLOBAL; i++)
        HS_CHECK(g[i] == 0.0f);
}

/* The capture is the last move / the one before it: the true boards
 * prev1/prev2 still hold the captured stone, the rebuilt ones cannot. */
static void s_check_prev_used(void)
{
    static hs_board_t boards[SEQ_LEN + 1];
    hs_nn_pos_t p;
    s_play(3, boards, &p);                    /* White to move, (0,0) just captured */
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(0, 0, 0) == 0);
    HS_CHECK(s_at(1, 0, 0) == 1);             /* prev1: the white stone */
    HS_CHECK(s_at(9, 0, 1) == 0 && s_at(9, 1, 0) == 1);
    p.prev1 = NULL;
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(1, 0, 0) == 0);             /* rebuilt: not put back */
    HS_CHECK(s_at(9, 0, 1) == 0 && s_at(9, 1, 0) == 1);

    s_play(4, boards, &p);                    /* Black to move; own = Black */
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(8 + 2, 0, 0) == 1);         /* prev2: White's (0,0) */
    HS_CHECK(s_at(2, 0, 1) == 0 && s_at(2, 1, 0) == 1);
    HS_CHECK(s_at(1, 0, 1) == 1 && s_at(9, 0, 0) == 0);
    p.prev2 = NULL;                           /* rebuilt from prev1 */
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(8 + 2, 0, 0) == 0);
    HS_CHECK(s_at(2, 0, 1) == 0 && s_at(2, 1, 0) == 1);
    HS_CHECK_INT(s_plane_count(16), A);       /* Black to move */
    HS_CHECK_INT(s_plane_count(17), 0);
}

/* Fewer than 8 positions: boards before the first one are zero, even with
 * setup stones on the board. */
static void s_check_game_start(void)
{
    hs_board_t b0, b1;
    hs_board_init(&b0, N);
    HS_CHECK_INT(hs_board_set_stone(&b0, hs_board_point(&b0, 2, 2), HS_BLACK), 0);
    HS_CHECK_INT(hs_board_set_stone(&b0, hs_board_point(&b0, 6, 6), HS_BLACK), 0);
    hs_board_copy(&b1, &b0);
    hs_point_t w = hs_board_point(&b1, 4, 4);
    HS_CHECK_INT(hs_board_play(&b1, HS_WHITE, w, 0, NULL), 0);
    hs_nn_pos_t p = {.board = &b1, .to_move = HS_BLACK, .rules = HS_RULES_JAPANESE,
                     .n_hist = 1, .hist_color = {HS_WHITE}, .hist_move = {w}, .prev1 = &b0};
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK_INT(s_plane_count(0), 2);
    HS_CHECK_INT(s_plane_count(8), 1);
    HS_CHECK_INT(s_plane_count(1), 2);
    HS_CHECK_INT(s_plane_count(9), 0);
    for (int k = 2; k < 8; k++) {
        HS_CHECK_INT(s_plane_count(k), 0);
        HS_CHECK_INT(s_plane_count(8 + k), 0);
    }
    /* no history at all: only "now" */
    p.n_hist = 0;
    p.prev1 = NULL;
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK_INT(s_plane_count(0), 2);
    HS_CHECK_INT(s_plane_count(1), 0);
    /* a pass in the history changes nothing on the board */
    p.n_hist = 1;
    p.hist_move[0] = HS_PASS;
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK_INT(s_plane_count(1), 2);
    HS_CHECK_INT(s_plane_count(9), 1);
}

/* Strings with 1 and 2 liberties of each side (now). */
static void s_check_liberties(void)
{
    hs_board_t b;
    hs_board_init(&b, N);
    const int st[][3] = {{0, 0, HS_BLACK}, {1, 0, HS_WHITE},     /* B 1 lib, W 2 libs */
                         {8, 8, HS_WHITE}, {7, 8, HS_BLACK},     /* W 1 lib, B 2 libs */
                         {4, 4, HS_BLACK}, {4, 5, HS_BLACK}};    /* 6 libs: none */
    for (size_t i = 0; i < sizeof st / sizeof *st; i++)
        HS_CHECK_INT(hs_board_set_stone(&b, hs_board_point(&b, st[i][0], st[i][1]),
                                        (hs_color_t)st[i][2]), 0);
    hs_nn_pos_t p = {.board = &b, .to_move = HS_BLACK, .rules = HS_RULES_CHINESE};
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(18, 0, 0) == 1 && s_plane_count(18) == 1);
    HS_CHECK(s_at(19, 7, 8) == 1 && s_plane_count(19) == 1);
    HS_CHECK(s_at(20, 8, 8) == 1 && s_plane_count(20) == 1);
    HS_CHECK(s_at(21, 1, 0) == 1 && s_plane_count(21) == 1);
    p.to_move = HS_WHITE;                     /* the same strings, sides swapped */
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(18, 8, 8) == 1 && s_at(19, 1, 0) == 1);
    HS_CHECK(s_at(20, 0, 0) == 1 && s_at(21, 7, 8) == 1);
    HS_CHECK_INT(s_plane_count(0), 2);
    HS_CHECK_INT(s_plane_count(8), 4);
}

/* hs_nn_features_for: set 0 is exactly KataGo's features, 1 ours, others refused. */
static void s_check_dispatch(void)
{
    static hs_board_t boards[SEQ_LEN + 1];
    static float sp2[HS_NN_SPATIAL * A];
    float g2[HS_NN_GLOBAL];
    hs_nn_pos_t p;
    s_play(SEQ_LEN, boards, &p);
    HS_CHECK_INT(hs_nn_features_for(HS_NN_INPUT_KATAGO_V7, &p, sp, g, NULL), 0);
    HS_CHECK_INT(hs_nn_features(&p, sp2, g2, NULL), 0);
    HS_CHECK(!memcmp(sp, sp2, sizeof sp) && !memcmp(g, g2, sizeof g));
    HS_CHECK_INT(hs_nn_features_for(HS_NN_INPUT_HS_V1, &p, sp, g, NULL), 0);
    HS_CHECK_INT(hs_nn_features_hs(&p, sp2, g2, NULL), 0);
    HS_CHECK(!memcmp(sp, sp2, sizeof sp) && !memcmp(g, g2, sizeof g));
    hs_error_t err;
    HS_CHECK_INT(hs_nn_features_for(2, &p, sp, g, &err), HS_EINVAL);
    HS_CHECK_INT(hs_nn_features_for(-1, &p, sp, g, &err), HS_EINVAL);
    p.to_move = HS_EMPTY;
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, &err), HS_EINVAL);
    p.to_move = HS_WHITE;
    p.n_hist = HS_NN_HISTORY + 1;
    HS_CHECK_INT(hs_nn_features_hs(&p, sp, g, &err), HS_EINVAL);
}

int main(void)
{
    s_check_long_history();
    s_check_prev_used();
    s_check_game_start();
    s_check_liberties();
    s_check_dispatch();
    return hs_test_finish();
}
