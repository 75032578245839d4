/*
 * tests/test_gtp_game.c — the game a GTP session and an analysis query
 * stand on (worker/gtp_game.h): the handicap as KataGo counts it (its
 * assumeMultipleStartingBlackMovesAreHandicap: Black's stones played before
 * White's first count as handicap stones, as Sabaki sends a handicap as
 * `play B` moves; a move out of turn starts the count afresh from the board
 * as it stands, as KataGo clears its history there), which the net's komi
 * and final_score read; and who moves first after loadsgf of a record
 * without moves (PL, else White after Black's stones alone).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/sgf.h"
#include "tests/test.h"
#include "worker/gtp_game.h"

/* A GTP vertex ("C3") on g's board. */
static hs_point_t s_pt(const hs_gtp_game_t *g, const char *v)
{
    int x = v[0] - 'A' - (v[0] > 'I');
    int y = g->board.size - atoi(v + 1);
    return hs_board_point(&g->board, x, y);
}

/* Plays "B C3 W pass ..." on g, each as `play` does; 0 or the first error. */
static int s_play(hs_gtp_game_t *g, const char *moves)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", moves);
    hs_error_t err;
    for (char *c = strtok_r(buf, " ", &save); c; c = strtok_r(NULL, " ", &save)) {
        char *v = strtok_r(NULL, " ", &save);
        hs_point_t p = !strcmp(v, "pass") ? HS_PASS : s_pt(g, v);
        int rc = hs_gtp_game_play(g, c[0] == 'B' ? HS_BLACK : HS_WHITE, p, NULL, &err);
        if (rc)
            return rc;
    }
    return 0;
}

/* The handicap after `moves` from an empty 9x9 board under rules; and the
 * komi the net then sees. */
static int s_handicap(hs_rules_id_t rules, const char *moves, double *net_komi)
{
    hs_gtp_game_t g;
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_game_init(&g, 9, rules, 7, &err), 0);
    HS_CHECK_INT(s_play(&g, moves), 0);
    hs_nn_pos_t pos;
    hs_gtp_game_pos(&g, &pos);
    if (net_komi)
        *net_komi = hs_nn_white_komi(&pos);
    int h = g.handicap;
    hs_gtp_game_fini(&g);
    return h;
}

/* The same stones as setup (an analysis query's initialStones, White to
 * move): the komi the net sees. */
static double s_setup_komi(const char *const *vertices, int n)
{
    hs_gtp_game_t g;
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_game_init(&g, 9, HS_RULES_CHINESE, 7, &err), 0);
    for (int i = 0; i < n; i++)
        hs_board_set_stone(&g.start, s_pt(&g, vertices[i]), HS_BLACK);
    hs_gtp_game_count_setup(&g);
    g.start.to_move = HS_WHITE;
    HS_CHECK_INT(hs_gtp_game_set_rules(&g, HS_RULES_CHINESE, &err), 0);
    hs_nn_pos_t pos;
    hs_gtp_game_pos(&g, &pos);
    double k = hs_nn_white_komi(&pos);
    HS_CHECK_INT(g.handicap, n);
    hs_gtp_game_fini(&g);
    return k;
}

static void test_handicap_as_moves(void)
{
    static const char *const stones[] = { "C3", "G7", "E5" };
    double k, setup = s_setup_komi(stones, 2);
    HS_CHECK(setup == 9.0);   /* komi 7 and White's 2 points of area rules */
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 B G7", &k), 2);
    HS_CHECK(k == setup);
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 B G7 B E5", &k), 3);
    HS_CHECK(k == s_setup_komi(stones, 3));
    HS_CHECK_INT(s_handicap(HS_RULES_AGA, "B C3 B G7 B E5", &k), 3);
    HS_CHECK(k == 9.0);       /* AGA: N - 1 */
    HS_CHECK_INT(s_handicap(HS_RULES_JAPANESE, "B C3 B G7", &k), 2);
    HS_CHECK(k == 7.0 + 2);   /* territory: the stone difference, no bonus */
    /* the game goes on: the count stands after White's first stone */
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 B G7 W E5 B D4 W F6", NULL), 2);
    /* White passing in between (KataGo lets single passes through) */
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 W pass B G7", NULL), 2);
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 W pass W pass B G7", NULL), 2);
    /* no handicap: an even game, one stone, White first, Black's passes */
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 W G7 B E5", &k), 0);
    HS_CHECK(k == 7.0);
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3", NULL), 0);
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "W C3 B G7 B E5", NULL), 0);
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B pass B C3", NULL), 0);
    /* a move out of turn later, White's stones on the board: KataGo's count
     * starts afresh there, and finds none */
    HS_CHECK_INT(s_handicap(HS_RULES_CHINESE, "B C3 B G7 W E5 W D4", NULL), 0);
}

/* The count follows the game's changes: undo, new rules, White's setup. */
static void test_handicap_changes(void)
{
    hs_gtp_game_t g;
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_game_init(&g, 9, HS_RULES_CHINESE, 7, &err), 0);
    HS_CHECK_INT(s_play(&g, "B C3 B G7"), 0);
    HS_CHECK_INT(g.handicap, 2);
    HS_CHECK_INT(hs_gtp_game_set_rules(&g, HS_RULES_AGA, &err), 0);
    HS_CHECK_INT(g.handicap, 2);
    HS_CHECK_INT(hs_gtp_game_undo(&g, &err), 0);
    HS_CHECK_INT(g.handicap, 0);
    HS_CHECK_INT(hs_gtp_game_clear(&g, 0, &err), 0);
    hs_board_set_stone(&g.start, s_pt(&g, "E5"), HS_WHITE);
    hs_gtp_game_count_setup(&g);
    HS_CHECK_INT(hs_gtp_game_set_rules(&g, HS_RULES_CHINESE, &err), 0);
    HS_CHECK_INT(s_play(&g, "B C3 B G7"), 0);
    HS_CHECK_INT(g.handicap, 0);   /* a problem's setup, not a handicap */
    hs_gtp_game_fini(&g);
}

static int s_load(hs_gtp_game_t *g, const char *sgf)
{
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, strlen(sgf), NULL, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return err.code;
    hs_game_t r;
    int rc = hs_game_from_sgf(hs_sgf_root(c, 0), &r, &err);
    if (!rc)
        rc = hs_gtp_game_load(g, &r, 1000, &err);
    hs_game_fini(&r);
    hs_sgf_destroy(&c);
    return rc;
}

/* loadsgf: White moves first after a handicap without moves, unless PL
 * says otherwise; HA counts as before, and Black's moves add to it. */
static void test_load(void)
{
    hs_gtp_game_t g;
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_game_init(&g, 19, HS_RULES_JAPANESE, 6.5, &err), 0);
    HS_CHECK_INT(s_load(&g, "(;GM[1]FF[4]SZ[9]KM[7]HA[2]RU[Chinese]AB[cg][gc])"), 0);
    HS_CHECK_INT(g.board.to_move, HS_WHITE);
    HS_CHECK_INT(g.handicap, 2);
    HS_CHECK_INT(s_load(&g, "(;GM[1]FF[4]SZ[9]KM[7]HA[2]RU[Chinese]PL[B]AB[cg][gc])"), 0);
    HS_CHECK_INT(g.board.to_move, HS_BLACK);
    HS_CHECK_INT(s_load(&g, "(;GM[1]SZ[9]PL[W])"), 0);
    HS_CHECK_INT(g.board.to_move, HS_WHITE);
    HS_CHECK_INT(s_load(&g, "(;GM[1]SZ[9]AB[cg]AW[gc])"), 0);
    HS_CHECK_INT(g.board.to_move, HS_BLACK);
    HS_CHECK_INT(s_load(&g, "(;GM[1]SZ[9]HA[2]AB[cg][gc];W[ee])"), 0);
    HS_CHECK_INT(g.board.to_move, HS_BLACK);
    HS_CHECK_INT(s_load(&g, "(;GM[1]SZ[9]AB[cg][gc]PL[W];B[ee])"), 0);   /* the move decides */
    HS_CHECK_INT(g.board.to_move, HS_WHITE);
    HS_CHECK_INT(g.handicap, 3);
    hs_gtp_game_fini(&g);
}

int main(void)
{
    test_handicap_as_moves();
    test_handicap_changes();
    test_load();
    return hs_test_finish();
}
