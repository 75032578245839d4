/*
 * tests/test_mcts_pat3.c — the rollout policy's 3x3 shapes
 * (worker/mcts_pat3.c): a hane is answered in each of its orientations and
 * for either colour, an edge shape fits only at the edge, and an empty or
 * shapeless neighbourhood fits nothing.
 */
#include "test.h"
#include "core/board.h"
#include "worker/mcts_eval_internal.h"

static hs__mcts_pat3_t s_tab;

/* A 9x9 board with the stones of rows[] (y from the top; X black, O white). */
static void s_board(hs_board_t *b, const char *const rows[9])
{
    hs_board_init(b, 9);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            char c = rows[y][2 * x];
            if (c == 'X' || c == 'O')
                hs_board_set_stone(b, hs_board_point(b, x, y), c == 'X' ? HS_BLACK : HS_WHITE);
        }
}

static bool s_fits(const hs_board_t *b, int x, int y)
{
    return hs__mcts_pat3_match(&s_tab, b, hs_board_point(b, x, y));
}

static void test_hane(void)
{
    /* Enclosing hane above E5 (x 4, y 4); the same shape turned a quarter to
     * the left of C3... and in White's colours at the right of G7. */
    static const char *const rows[9] = {
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . O .",
        ". . . X O X . X .",
        ". . . . . . . O .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    };
    hs_board_t b;
    s_board(&b, rows);
    HS_CHECK(s_fits(&b, 4, 4));       /* below the O of X O X */
    HS_CHECK(s_fits(&b, 6, 3));       /* left of O X O turned upright, White's shape */
    HS_CHECK(!s_fits(&b, 1, 7));      /* nothing around */
    HS_CHECK(!s_fits(&b, 4, 6));      /* two rows away */
}

static void test_edge(void)
{
    /* "X.?" "O.?" "##?": the chase along the first line, at B1 (x 1, y 8). */
    static const char *const rows[9] = {
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . O . . . .",
        "X . . . . . . . .",
        "O . . . . . . . .",
    };
    hs_board_t b;
    s_board(&b, rows);
    HS_CHECK(s_fits(&b, 1, 8));
    /* Next to one stone alone (above E4): no shape has a single stone. */
    HS_CHECK(!s_fits(&b, 4, 4));
}

static void test_empty(void)
{
    static const char *const rows[9] = {
        ". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .",
        ". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .",
        ". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .",
    };
    hs_board_t b;
    s_board(&b, rows);
    int fits = 0;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            fits += s_fits(&b, x, y);
    HS_CHECK_INT(fits, 0);
    /* The table: some neighbourhoods fit, most do not. */
    int set = 0;
    for (unsigned i = 0; i < sizeof s_tab.bits; i++)
        set += __builtin_popcount(s_tab.bits[i]);
    printf("%d of 65536 neighbourhoods fit a shape\n", set);
    HS_CHECK(set > 100 && set < 65536 / 2);
}

int main(void)
{
    hs__mcts_pat3_init(&s_tab);
    test_hane();
    test_edge();
    test_empty();
    return hs_test_finish();
}
