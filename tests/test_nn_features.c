/*
 * tests/test_nn_features.c — the V7 inputs (worker/nn/features.h) for every
 * rule set on small boards, the ladder planes on a textbook ladder, and the
 * reference pass's symmetries (worker/nn/forward.h) on the tiny hand-made
 * models of the fuzz corpus (every block kind): evaluating a position at
 * symmetry s must equal evaluating the transformed position at symmetry 0,
 * and HS_NN_SYM_ALL is the mean of the eight. Needs no shared data.
 */
#include <math.h>

#include "test.h"
#include "worker/nn/forward.h"

#define N 9

static float s_at(const float *sp, int plane, int x, int y)
{
    return sp[plane * N * N + y * N + x];
}

static void s_stone(hs_board_t *b, int x, int y, hs_color_t c)
{
    HS_CHECK_INT(hs_board_set_stone(b, hs_board_point(b, x, y), c), 0);
}

/* Rule encodings (docs/NET.md's table), komi, chill and handicap bonus. */
static void s_check_rules(void)
{
    hs_board_t b;
    hs_board_init(&b, N);
    s_stone(&b, 2, 2, HS_BLACK);
    s_stone(&b, 6, 6, HS_WHITE);
    s_stone(&b, 2, 6, HS_BLACK);
    static float sp[HS_NN_SPATIAL * N * N];
    float g[HS_NN_GLOBAL];
    const struct { hs_rules_id_t id; float g5, g6, g7, g8, g9, g10; int area; } want[] = {
        /* White to move, komi 6.5, handicap 2; 2 black and 1 white stones */
        {HS_RULES_JAPANESE, 7.5f / 20, 0, 0, 0, 1, 1, 0},
        {HS_RULES_KOREAN, 7.5f / 20, 0, 0, 0, 1, 1, 0},
        {HS_RULES_CHINESE, 8.5f / 20, 0, 0, 0, 0, 0, 1},
        {HS_RULES_AGA, 7.5f / 20, 1, -0.5f, 0, 0, 0, 1},
        {HS_RULES_NEW_ZEALAND, 6.5f / 20, 1, -0.5f, 1, 0, 0, 1},
        {HS_RULES_TROMP_TAYLOR, 6.5f / 20, 1, 0.5f, 1, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        hs_nn_pos_t p = {.board = &b, .to_move = HS_WHITE, .rules = want[i].id, .komi = 6.5,
                         .handicap = 2, .stones_black = 2, .stones_white = 1};
        HS_CHECK_INT(hs_nn_features(&p, sp, g, NULL), 0);
        HS_CHECK(fabsf(g[5] - want[i].g5) < 1e-6f);
        HS_CHECK(g[6] == want[i].g6 && g[7] == want[i].g7 && g[8] == want[i].g8);
        HS_CHECK(g[9] == want[i].g9 && g[10] == want[i].g10);
        HS_CHECK(s_at(sp, 0, 8, 8) == 1.0f);
        HS_CHECK(s_at(sp, 1, 6, 6) == 1.0f && s_at(sp, 2, 2, 2) == 1.0f);  /* pla = White */
        HS_CHECK(s_at(sp, 5, 2, 2) == 0.0f && s_at(sp, 3, 2, 2) == 0.0f);  /* 4 liberties */
        /* area planes under area scoring only: stones count as their colour's */
        HS_CHECK(s_at(sp, 18, 6, 6) == (float)want[i].area);
        HS_CHECK(s_at(sp, 19, 2, 2) == (float)want[i].area);
        /* the parity wave is 0 exactly when komi + bonus is a half-integer
         * two away from a drawable komi... just check its range and absence */
        HS_CHECK(want[i].area ? fabsf(g[18]) <= 1.0f : g[18] == 0.0f);
        /* Black's view negates the komi */
        p.to_move = HS_BLACK;
        HS_CHECK_INT(hs_nn_features(&p, sp, g, NULL), 0);
        HS_CHECK(fabsf(g[5] + want[i].g5) < 1e-6f);
    }
    hs_nn_pos_t big = {.board = &b, .to_move = HS_EMPTY};
    hs_error_t err;
    HS_CHECK_INT(hs_nn_features(&big, sp, g, &err), HS_EINVAL);
}

/* A white stone with two liberties in a textbook ladder toward the open board:
 * captured with Black (the attacker) first, at either liberty. */
static void s_check_ladder(void)
{
    hs_board_t b;
    hs_board_init(&b, N);
    s_stone(&b, 2, 2, HS_WHITE);
    s_stone(&b, 2, 1, HS_BLACK);
    s_stone(&b, 1, 2, HS_BLACK);
    s_stone(&b, 3, 3, HS_BLACK);
    static float sp[HS_NN_SPATIAL * N * N];
    float g[HS_NN_GLOBAL];
    hs_nn_pos_t p = {.board = &b, .to_move = HS_BLACK, .rules = HS_RULES_JAPANESE};
    HS_CHECK_INT(hs_nn_features(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(sp, 4, 2, 2) == 1.0f);       /* two liberties */
    HS_CHECK(s_at(sp, 14, 2, 2) == 1.0f);      /* laddered */
    HS_CHECK(s_at(sp, 15, 2, 2) == 1.0f);      /* no history: same board */
    HS_CHECK(s_at(sp, 17, 3, 2) == 1.0f && s_at(sp, 17, 2, 3) == 1.0f);
    HS_CHECK(s_at(sp, 14, 2, 1) == 0.0f);
    /* a stone in atari that escapes into open space by extending is no ladder */
    hs_board_init(&b, N);
    s_stone(&b, 4, 4, HS_WHITE);
    s_stone(&b, 4, 3, HS_BLACK);
    s_stone(&b, 3, 4, HS_BLACK);
    s_stone(&b, 5, 4, HS_BLACK);
    HS_CHECK_INT(hs_nn_features(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(sp, 3, 4, 4) == 1.0f);
    HS_CHECK(s_at(sp, 14, 4, 4) == 0.0f);
    /* on the first line with the attacker beside it, it runs along the edge
     * to its death */
    hs_board_init(&b, N);
    s_stone(&b, 0, 0, HS_WHITE);
    s_stone(&b, 1, 0, HS_BLACK);
    HS_CHECK_INT(hs_nn_features(&p, sp, g, NULL), 0);
    HS_CHECK(s_at(sp, 3, 0, 0) == 1.0f);
    HS_CHECK(s_at(sp, 14, 0, 0) == 1.0f);
}

static int s_sym(int x, int y, int sym)
{
    if (sym & 2) x = N - 1 - x;
    if (sym & 1) y = N - 1 - y;
    if (sym & 4) { int t = x; x = y; y = t; }
    return y * N + x;
}

static const int stones[][3] = {{2, 2, HS_BLACK}, {3, 2, HS_WHITE}, {6, 3, HS_BLACK},
                                {5, 7, HS_WHITE}, {1, 6, HS_BLACK}, {7, 1, HS_WHITE},
                                {4, 4, HS_BLACK}};

static void s_board(hs_board_t *b, int sym)
{
    hs_board_init(b, N);
    for (size_t i = 0; i < sizeof stones / sizeof *stones; i++) {
        int k = s_sym(stones[i][0], stones[i][1], sym);
        s_stone(b, k % N, k / N, (hs_color_t)stones[i][2]);
    }
}

static void s_check_symmetries(const hs_nn_model_t *m, const char *name)
{
    static float sp[HS_NN_SPATIAL * N * N], sp2[HS_NN_SPATIAL * N * N];
    float g[HS_NN_GLOBAL], g2[HS_NN_GLOBAL];
    static hs_nn_raw_t r, r2;
    hs_board_t b, b2;
    s_board(&b, 0);
    hs_nn_pos_t p = {.board = &b, .to_move = HS_WHITE, .rules = HS_RULES_CHINESE, .komi = 7.5};
    HS_CHECK_INT(hs_nn_features(&p, sp, g, NULL), 0);
    double worst = 0;
    for (int s = 0; s < 8; s++) {
        HS_CHECK_INT(hs_nn_forward_ref(m, N, sp, g, s, &r, NULL), 0);
        s_board(&b2, s);
        hs_nn_pos_t p2 = p;
        p2.board = &b2;
        HS_CHECK_INT(hs_nn_features(&p2, sp2, g2, NULL), 0);
        HS_CHECK_INT(hs_nn_forward_ref(m, N, sp2, g2, 0, &r2, NULL), 0);
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                int k = s_sym(x, y, s);
                worst = fmax(worst, fabs(r.policy[y * N + x] - r2.policy[k]));
                worst = fmax(worst, fabs(r.ownership[y * N + x] - r2.ownership[k]));
            }
        for (int i = 0; i < 3; i++)
            worst = fmax(worst, fabs(r.value[i] - r2.value[i]));
        worst = fmax(worst, fabs(r.policy[N * N] - r2.policy[N * N]));
        for (int i = 0; i < (m->version >= 9 ? 6 : 4); i++)
            worst = fmax(worst, fabs(r.score[i] - r2.score[i]));
    }
    if (worst > 1e-4)
        fprintf(stderr, "%s: symmetry mismatch %g\n", name, worst);
    HS_CHECK(worst <= 1e-4);

    /* the average of the eight */
    static hs_nn_output_t all, one;
    HS_CHECK_INT(hs_nn_eval_ref(m, &p, HS_NN_SYM_ALL, &all, NULL), 0);
    double win = 0, own = 0, pol = 0;
    for (int s = 0; s < 8; s++) {
        HS_CHECK_INT(hs_nn_eval_ref(m, &p, s, &one, NULL), 0);
        win += one.white_win / 8;
        own += one.ownership[10] / 8;
        pol += one.policy[11] / 8;
    }
    HS_CHECK(fabs(all.white_win - win) < 1e-5 && fabs(all.ownership[10] - own) < 1e-5);
    HS_CHECK(fabs(all.policy[11] - pol) < 1e-5);
    HS_CHECK(all.policy[s_sym(2, 2, 0)] == -1.0f);   /* occupied: illegal */
    double sum = 0;
    for (int i = 0; i <= N * N; i++)
        sum += all.policy[i] > 0 ? all.policy[i] : 0;
    HS_CHECK(fabs(sum - 1.0) < 1e-4);
    HS_CHECK(all.no_result == 0.0f || m->version < 8 || p.rules == HS_RULES_CHINESE);
}

int main(void)
{
    s_check_rules();
    s_check_ladder();
    const char *own = getenv("HS_TEST_DATA");
    HS_CHECK(own != NULL);
    const char *names[] = {"v8", "v11", "v15", "v16"};
    for (int i = 0; own && i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/../fuzz/corpus/nnmodel/tiny-%s.bin", own, names[i]);
        hs_nn_model_t *m = NULL;
        hs_error_t err;
        int rc = hs_nn_model_load(path, &m, &err);
        HS_CHECK_INT(rc, 0);
        if (m)
            s_check_symmetries(m, names[i]);
        hs_nn_model_free(&m);
    }
    return hs_test_finish();
}
