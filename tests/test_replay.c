/*
 * tests/test_replay.c — who moves first where a record starts (core/game.h
 * hs_game_first_player, which core/replay.h's cursor and hs_game_replay
 * start with): the first move's colour; in a record without moves, White
 * after Black's setup stones alone (a handicap, as KataGo's loadsgf reads
 * it), else Black. PL is read into the game (first_player) but not by the
 * replay, whose keys must agree with stored games, which do not keep it.
 */
#include <string.h>

#include "core/game.h"
#include "core/replay.h"
#include "core/sgf.h"
#include "tests/test.h"

static int s_game_from(const char *sgf, hs_game_t *g)
{
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, strlen(sgf), NULL, &err);
    if (!c) {
        hs_game_init(g, 19);
        return err.code;
    }
    int rc = hs_game_from_sgf(hs_sgf_root(c, 0), g, &err);
    hs_sgf_destroy(&c);
    return rc;
}

/* The side to move at the start of sgf, by the cursor and by hs_game_replay
 * (which must agree), and the record's PL. */
static void s_check(const char *sgf, hs_color_t want, int want_pl)
{
    hs_game_t g;
    hs_error_t err;
    HS_CHECK_INT(s_game_from(sgf, &g), 0);
    HS_CHECK_INT(hs_game_first_player(&g), want);
    HS_CHECK_INT(g.first_player, want_pl);
    hs_replay_t r;
    HS_CHECK_INT(hs_replay_start(&r, &g, &err), 0);
    HS_CHECK_INT(r.board.to_move, want);
    hs_replay_fini(&r);
    hs_board_t b;
    HS_CHECK_INT(hs_game_replay(&g, 0, &b, &err), 0);
    HS_CHECK_INT(b.to_move, want);
    hs_game_fini(&g);
}

static void test_first_player(void)
{
    /* the QA's record: a handicap, no moves */
    s_check("(;GM[1]FF[4]SZ[9]KM[7]HA[2]RU[Chinese]AB[cg][gc])", HS_WHITE, HS_EMPTY);
    s_check("(;GM[1]SZ[9]AB[cg][gc][ee])", HS_WHITE, HS_EMPTY);    /* no HA: the stones say */
    s_check("(;GM[1]SZ[9];AB[cg][gc])", HS_WHITE, HS_EMPTY);       /* Fox: in the 2nd node */
    s_check("(;GM[1]SZ[9]AB[cg]AW[gc])", HS_BLACK, HS_EMPTY);      /* a problem */
    s_check("(;GM[1]SZ[9]AB[cg][gc]AE[cg])", HS_BLACK, HS_EMPTY);  /* AE counts, as KataGo's */
    s_check("(;GM[1]SZ[9])", HS_BLACK, HS_EMPTY);
    /* moves decide; PL before them is kept, after them ignored */
    s_check("(;GM[1]SZ[9]HA[2]AB[cg][gc];B[ee])", HS_BLACK, HS_EMPTY);
    s_check("(;GM[1]SZ[9]AB[cg]AW[gc];W[ee])", HS_WHITE, HS_EMPTY);
    s_check("(;GM[1]SZ[9]AB[cg][gc]PL[B])", HS_WHITE, HS_BLACK);   /* the replay leaves PL out */
    s_check("(;GM[1]SZ[9]AB[cg];PL[white])", HS_WHITE, HS_WHITE);
    s_check("(;GM[1]SZ[9]AB[cg];B[ee];PL[W])", HS_BLACK, HS_EMPTY);
    s_check("(;GM[1]SZ[9]PL[x])", HS_BLACK, HS_EMPTY);
}

/* After the start, the moves: a record without setup is unchanged. */
static void test_moves(void)
{
    hs_game_t g;
    hs_error_t err;
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[9]HA[2]AB[cg][gc];W[ee];B[dd])", &g), 0);
    hs_replay_t r;
    HS_CHECK_INT(hs_replay_start(&r, &g, &err), 0);
    HS_CHECK_INT(r.board.to_move, HS_WHITE);
    HS_CHECK_INT(hs_replay_to(&r, 2, &err), 0);
    HS_CHECK_INT(r.board.to_move, HS_WHITE);
    hs_replay_fini(&r);
    hs_game_fini(&g);
}

int main(void)
{
    test_first_player();
    test_moves();
    return hs_test_finish();
}
