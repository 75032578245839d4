/*
 * tests/test_label.c — worker/label.h: the patent's labels on hand-made 9x9
 * final positions (setup stones and a few moves as SGF strings, with RE),
 * SKIP, closedness and the counting rules, and a short yose with the
 * rollout evaluator (closed at the end, deterministic, the label equal to
 * steps 2 and 3 on its last board, a count within the closing moves' range).
 *
 * Each board is drawn as 9 rows of 'X' (Black), 'O' (White), '.'; row 0 is
 * the top (SGF's "a"). The expected marks are drawn the same way: '+' Black's
 * (+1), '-' White's (-1), '0' nothing.
 */
#include <math.h>

#include "core/game.h"
#include "core/sgf.h"
#include "test.h"
#include "worker/judge.h"
#include "worker/label.h"
#include "worker/label_internal.h"
#include "worker/mcts_eval.h"

#define N 9

/* An SGF game from a diagram: rows of X O . as setup stones, props (KM, RU,
 * RE ...) and moves (";B[..]...") appended. */
static void s_game(const char *const rows[N], const char *props, const char *moves, hs_game_t *g)
{
    char sgf[4096], ab[1024] = "", aw[1024] = "";
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            char pt[8];
            snprintf(pt, sizeof pt, "[%c%c]", 'a' + x, 'a' + y);
            if (rows[y][x] == 'X') strcat(ab, pt);
            if (rows[y][x] == 'O') strcat(aw, pt);
        }
    snprintf(sgf, sizeof sgf, "(;GM[1]FF[4]SZ[%d]%s%s%s%s%s%s)", N, props, *ab ? "AB" : "", ab,
             *aw ? "AW" : "", aw, moves ? moves : "");
    hs_error_t err = {0};
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, strlen(sgf), NULL, &err);
    if (!c || hs_game_from_sgf(hs_sgf_root(c, 0), g, &err)) {
        fprintf(stderr, "bad test SGF: %s\n%s\n", err.msg, sgf);
        exit(1);
    }
    hs_sgf_destroy(&c);
}

/* hs_label_final on the record's last position (the replay counts its captures). */
static void s_final(const char *const rows[N], const char *props, const char *moves,
                    hs_label_t *out)
{
    hs_game_t g;
    s_game(rows, props, moves, &g);
    hs_board_t b;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), 0);
    hs_label_config_t cfg;
    hs_label_config_default(&cfg);
    HS_CHECK_INT(hs_label_final(&cfg, &g, &b, out, &err), 0);
    HS_CHECK_INT(out->size, N);
    hs_game_fini(&g);
}

static void s_check_marks(const hs_label_t *l, const char *const want[N], const char *what)
{
    int bad = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            char c = want[y][x];
            int w = c == '+' ? 1 : c == '-' ? -1 : 0;
            if (l->owner[y * N + x] != w) {
                if (!bad) fprintf(stderr, "%s: marks differ at", what);
                fprintf(stderr, " (%d,%d)=%d want %d", x, y, l->owner[y * N + x], w);
                bad++;
            }
        }
    if (bad) fprintf(stderr, "\n");
    HS_CHECK_INT(bad, 0);
}

static void s_check_ok(const hs_label_t *l, double margin)
{
    HS_CHECK_INT(l->status, HS_LABEL_OK);
    HS_CHECK(fabs(l->black_margin - margin) < 1e-9);
    if (l->status != HS_LABEL_OK || fabs(l->black_margin - margin) >= 1e-9)
        fprintf(stderr, "  status %d margin %g (want %g): %s\n", l->status, l->black_margin,
                margin, l->reason);
}

/* tests/data/judge/seki.t: the seki points and stones are 0, B+13. */
static void test_seki(void)
{
    static const char *const rows[N] = {
        ".OX.OX...", ".OX.OX...", ".OXXOX...", ".OOOXX...", "...OX....",
        "...OX....", "...OX....", "...OX....", "...OX....",
    };
    static const char *const marks[N] = {
        "-00000+++", "-00000+++", "-00000+++", "-00000+++", "---00++++",
        "---00++++", "---00++++", "---00++++", "---00++++",
    };
    hs_label_t l;
    s_final(rows, "KM[0]RU[Japanese]RE[B+13]", NULL, &l);
    s_check_ok(&l, 13);
    s_check_marks(&l, marks, "seki");
    s_final(rows, "KM[0]RU[Chinese]RE[B+13]", NULL, &l);
    s_check_ok(&l, 13);
}

/* tests/data/judge/dame.t without its prisoners: the dame column is 0. */
static const char *const s_dame_rows[N] = {
    "...X.O...", "...X.O...", "...X.O...", "...X.O...", "...X.O...",
    "...X.O...", "...X.O...", "...X.O...", "...X.O...",
};

static void test_dame(void)
{
    static const char *const marks[N] = {
        "+++000---", "+++000---", "+++000---", "+++000---", "+++000---",
        "+++000---", "+++000---", "+++000---", "+++000---",
    };
    hs_label_t l;
    s_final(s_dame_rows, "KM[0.5]RU[Japanese]RE[W+0.5]", NULL, &l);
    s_check_ok(&l, -0.5);
    s_check_marks(&l, marks, "dame");
    /* a draw: RE[0] with the area count 36 - 36 */
    s_final(s_dame_rows, "KM[0]RU[Chinese]RE[0]", NULL, &l);
    s_check_ok(&l, 0);
    s_final(s_dame_rows, "KM[0]RU[Chinese]RE[B+1]", NULL, &l);
    HS_CHECK_INT(l.status, HS_LABEL_MISS);
    HS_CHECK_STR(l.reason, "count: labelled 0, record B+1");
}

/* tests/data/judge/dead_stones.t: a dead stone on each side, taken off; its
 * point is the territory around it. W+15.5 under territory rules (the dead
 * stones are prisoners). */
static const char *const s_dead_rows[N] = {
    "...XO....", ".O.XO....", "...XO..X.", "...XO....", "...XO....",
    "...XO....", "...XO....", "...XO....", "...XO....",
};

static void test_dead(void)
{
    static const char *const marks[N] = {
        "+++00----", "+++00----", "+++00----", "+++00----", "+++00----",
        "+++00----", "+++00----", "+++00----", "+++00----",
    };
    hs_label_t l;
    s_final(s_dead_rows, "KM[6.5]RU[Japanese]RE[W+15.5]", NULL, &l);
    s_check_ok(&l, -15.5);
    s_check_marks(&l, marks, "dead stones");
    /* a wrong RE misses, with both results in the reason */
    s_final(s_dead_rows, "KM[6.5]RU[Japanese]RE[W+14.5]", NULL, &l);
    HS_CHECK_INT(l.status, HS_LABEL_MISS);
    HS_CHECK_STR(l.reason, "count: labelled W+15.5, record W+14.5");
    HS_CHECK(fabs(l.black_margin + 15.5) < 1e-9);
    /* resignation: the winner is checked */
    s_final(s_dead_rows, "KM[6.5]RU[Japanese]RE[W+R]", NULL, &l);
    s_check_ok(&l, -15.5);
    s_final(s_dead_rows, "KM[6.5]RU[Japanese]RE[B+Resign]", NULL, &l);
    HS_CHECK_INT(l.status, HS_LABEL_MISS);
    HS_CHECK_STR(l.reason, "winner: labelled W+15.5, record B+R");
    s_final(s_dead_rows, "KM[6.5]RU[Japanese]RE[W+T]", NULL, &l);
    s_check_ok(&l, -15.5);
}

/* One's own stones inside one's own territory: a black stone at B5 and a
 * white one at H5 decide nothing; their points are marked as territory. The
 * count is the rules' (a stone standing in one's territory is no territory
 * point under territory rules): B 26, W 35. */
static void test_own_stones(void)
{
    static const char *const rows[N] = {
        "...XO....", "...XO....", "...XO....", "...XO....", ".X.XO..O.",
        "...XO....", "...XO....", "...XO....", "...XO....",
    };
    static const char *const marks[N] = {
        "+++00----", "+++00----", "+++00----", "+++00----", "+++00----",
        "+++00----", "+++00----", "+++00----", "+++00----",
    };
    hs_label_t l;
    s_final(rows, "KM[0]RU[Japanese]RE[W+9]", NULL, &l);
    s_check_ok(&l, -9);
    s_check_marks(&l, marks, "own stones");
    s_final(rows, "KM[0]RU[Chinese]RE[W+9]", NULL, &l);
    s_check_ok(&l, -9);
}

/* Prisoners through the replay: White's stone at B2 is captured by B[bc]
 * (captures[Black] = 1); the four black stones around its point then stand
 * inside Black's territory and are marked +1. Territory: B 23 + 1 prisoner,
 * W 27 + 0.5 komi = W+3.5; area: B 13 + 23, W 9 + 27 + 0.5 = W+0.5. */
static const char *const s_prisoner_rows[N] = {
    ".X.X.O...", "XOXX.O...", "...X.O...", "...X.O...", "...X.O...",
    "...X.O...", "...X.O...", "...X.O...", "...X.O...",
};

static void test_prisoners(void)
{
    const char *const *rows = s_prisoner_rows;
    hs_label_t l;
    s_final(rows, "KM[0.5]RU[Japanese]RE[W+3.5]", ";B[bc]", &l);
    s_check_ok(&l, -3.5);
    s_check_marks(&l, (const char *const[N]){
        "+++000---", "++0000---", "+++000---", "+++000---", "+++000---",
        "+++000---", "+++000---", "+++000---", "+++000---" }, "prisoners");
    s_final(rows, "KM[0.5]RU[Chinese]RE[W+0.5]", ";B[bc]", &l);
    s_check_ok(&l, -0.5);
}

static void s_rollouts(hs_mcts_evaluator_t *ev, uint64_t seed)
{
    hs_mcts_rollout_config_t rc;
    hs_mcts_rollout_config_default(&rc);
    rc.threads = 1;
    rc.seed = seed;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_mcts_rollout_evaluator_create(&rc, ev, &err), 0);
}

static void s_game_label(const char *const rows[N], const char *props, const char *moves,
                         hs_mcts_evaluator_t *ev, hs_label_t *out)
{
    hs_game_t g;
    s_game(rows, props, moves, &g);
    hs_label_config_t cfg;
    hs_label_config_default(&cfg);
    cfg.evaluator = ev;
    cfg.visits = 16;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_label_game(&cfg, &g, out, &err), 0);
    hs_game_fini(&g);
}

/* SKIP: no usable result, an illegal record. */
static void test_skip(void)
{
    hs_mcts_evaluator_t ev;
    s_rollouts(&ev, 1);
    hs_label_t l;
    s_game_label(s_dame_rows, "KM[0.5]RE[Void]", NULL, &ev, &l);
    HS_CHECK_INT(l.status, HS_LABEL_SKIP);
    HS_CHECK_STR(l.reason, "no result: RE[Void]");
    s_game_label(s_dame_rows, "KM[0.5]", NULL, &ev, &l);
    HS_CHECK_INT(l.status, HS_LABEL_SKIP);
    HS_CHECK_STR(l.reason, "no result: no RE");
    s_game_label(s_dame_rows, "KM[0.5]RE[?]", NULL, &ev, &l);
    HS_CHECK_INT(l.status, HS_LABEL_SKIP);
    s_game_label(s_dame_rows, "KM[0.5]RE[B+F]", NULL, &ev, &l);
    HS_CHECK_STR(l.reason, "forfeit: RE[B+F]");
    s_game_label(s_dame_rows, "KM[0]RE[W+0.0]", NULL, &ev, &l);
    HS_CHECK_INT(l.status, HS_LABEL_SKIP);
    HS_CHECK_STR(l.reason, "no result: RE[W+0.0] gives a winner by 0 points");
    /* move 2 plays on a stone */
    s_game_label(s_dame_rows, "KM[0.5]RE[W+0.5]", ";B[ee];W[ee]", &ev, &l);
    HS_CHECK_INT(l.status, HS_LABEL_SKIP);
    HS_CHECK(strncmp(l.reason, "illegal move: ", 14) == 0 && strstr(l.reason, "move 2"));
    fprintf(stderr, "illegal: %s\n", l.reason);
    /* hs_label_final skips too */
    hs_game_t g;
    s_game(s_dame_rows, "KM[0.5]RE[Void]", NULL, &g);
    hs_board_t b;
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, NULL), 0);
    hs_label_config_t cfg;
    hs_label_config_default(&cfg);
    HS_CHECK_INT(hs_label_final(&cfg, &g, &b, &l, NULL), 0);
    HS_CHECK_INT(l.status, HS_LABEL_SKIP);
    hs_game_fini(&g);
    hs_mcts_evaluator_free(&ev);
}

/* The yose, under territory rules: Black's wall (column D) has a gap at D5
 * where its 27 points open onto the dame column E (every other point of E
 * touches both walls). Black to move closes it: at D5 (27 - 27, W+0.5 with
 * komi 0.5), one step out at E5 (D5 then counts: B+0.5) or, a point worse,
 * at C5 (W+1.5); if Black plays elsewhere, White cuts in at D5 and the count
 * moves by far more. */
static const char *const s_yose_rows[N] = {
    "...X.O...", "...X.O...", "...X.O...", "...X.O...", ".....O...",
    "...X.O...", "...X.O...", "...X.O...", "...X.O...",
};

/* hs_label_game through its internal entry, keeping the yose's last board. */
static void s_yose_label(uint64_t seed, hs_label_t *out, hs_board_t *final)
{
    hs_mcts_evaluator_t ev;
    s_rollouts(&ev, seed);
    hs_game_t g;
    s_game(s_yose_rows, "KM[0.5]RU[Japanese]RE[W+0.5]", NULL, &g);
    hs_label_config_t cfg;
    hs_label_config_default(&cfg);
    cfg.evaluator = &ev;
    cfg.visits = 128;
    cfg.seed = seed;
    hs_error_t err = {0};
    HS_CHECK_INT(hs__label_game_board(&cfg, &g, out, final, &err), 0);
    /* the label is steps 2 and 3 on that board */
    hs_label_t again;
    HS_CHECK_INT(hs_label_final(&cfg, &g, final, &again, &err), 0);
    HS_CHECK(again.black_margin == out->black_margin);
    HS_CHECK(memcmp(again.owner, out->owner, sizeof again.owner) == 0);
    hs_game_fini(&g);
    hs_mcts_evaluator_free(&ev);
}

static void test_yose(void)
{
    hs_label_t a, b;
    hs_board_t fa, fb;
    /* the position before: open */
    hs_game_t g;
    s_game(s_yose_rows, "KM[0.5]RU[Japanese]RE[W+0.5]", NULL, &g);
    HS_CHECK_INT(hs_game_replay(&g, -1, &fa, NULL), 0);
    hs_game_fini(&g);
    hs_judge_config_t jc;
    hs__label_closed_config(&jc);
    hs_judge_t *j = malloc(sizeof *j);
    HS_CHECK_INT(hs_judge_compute(&fa, NULL, &jc, j, NULL), 0);
    HS_CHECK(!hs__label_closed(&fa, j, false));

    s_yose_label(2, &a, &fa);
    fprintf(stderr, "yose: %d moves, status %d, margin %g, %s\n", a.yose_moves, a.status,
            a.black_margin, a.reason);
    HS_CHECK(a.yose_moves >= 1);
    HS_CHECK(a.status != HS_LABEL_SKIP);
    /* closed at the end, by the same test the yose stops on */
    HS_CHECK_INT(hs_judge_compute(&fa, NULL, &jc, j, NULL), 0);
    HS_CHECK(hs__label_closed(&fa, j, false));
    /* a sensible close: within the range of the closing moves above */
    HS_CHECK(a.black_margin >= -1.5 && a.black_margin <= 0.5);
    /* deterministic: the same again with a fresh evaluator of the same seed */
    s_yose_label(2, &b, &fb);
    HS_CHECK_INT(a.yose_moves, b.yose_moves);
    HS_CHECK(a.black_margin == b.black_margin);
    HS_CHECK(memcmp(a.owner, b.owner, sizeof a.owner) == 0);
    HS_CHECK(hs_board_key(&fa) == hs_board_key(&fb));
    free(j);
}

/* Closedness: dame touching both walls close a territory count, not an
 * area count (each is still a point); the rules a record counts by. */
static void test_closed_rules(void)
{
    hs_game_t g;
    s_game(s_dame_rows, "KM[0.5]RE[W+0.5]", NULL, &g);
    hs_board_t b;
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, NULL), 0);
    hs_judge_config_t jc;
    hs__label_closed_config(&jc);
    hs_judge_t *j = malloc(sizeof *j);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &jc, j, NULL), 0);
    HS_CHECK(hs__label_closed(&b, j, false));
    HS_CHECK(!hs__label_closed(&b, j, true));
    free(j);
    HS_CHECK_INT(hs_label_rules(&g), HS_RULES_JAPANESE);
    hs_game_fini(&g);
    /* no RU at komi 7.5: Chinese; an RU always wins */
    s_game(s_dame_rows, "KM[7.5]RE[W+0.5]", NULL, &g);
    HS_CHECK_INT(hs_label_rules(&g), HS_RULES_CHINESE);
    hs_game_fini(&g);
    s_game(s_dame_rows, "KM[7.5]RU[Japanese]RE[W+0.5]", NULL, &g);
    HS_CHECK_INT(hs_label_rules(&g), HS_RULES_JAPANESE);
    hs_game_fini(&g);
    /* so test_prisoners' game at komi 7.5 without RU counts by area,
     * 36 - 36 - 7.5, not by territory (24 - 27 - 7.5) */
    hs_label_t l;
    s_final(s_prisoner_rows, "KM[7.5]RE[W+7.5]", ";B[bc]", &l);
    s_check_ok(&l, -7.5);
}

int main(void)
{
    test_seki();
    test_dame();
    test_dead();
    test_own_stones();
    test_prisoners();
    test_skip();
    test_closed_rules();
    test_yose();
    return hs_test_finish();
}
