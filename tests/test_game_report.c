/*
 * tests/test_game_report.c — one game's report (reports/game_report.h) over a
 * store built by hand: a 9x9 game of 8 moves with evals whose numbers are
 * chosen so that every rule of the header shows (the source per position, the
 * pick among engines of one kind, the loss from the common source, mistakes,
 * swings, the final agreement), the maps at chosen moves, and the annotated
 * SGF parsed back with our parser.
 *
 * With HS_REPORT_SGF_OUT=FILE it also writes the annotated SGF there, for
 * tests/test_report_sgf_sabaki.sh (the peer parser @sabaki/sgf).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/poskey.h"
#include "core/replay.h"
#include "core/sgf.h"
#include "reports/game_report.h"
#include "store_fixture.h"
#include "test.h"

#define NET "0123456789abcdef0123456789abcdef"
static const char *const S_MCTS10 = "mcts:visits=10,net=" NET;
static const char *const S_MCTS50 = "mcts:visits=50,net=" NET;
static const char *const S_NET = "net:net=" NET;
static const char *const S_JNET = "judge-net:net=" NET;

/* Moves: 1 B ee (E5, vertex 40), 2 W cc (C7, 20), 3 B gc (G7, 24), 4 W cg (C3, 56),
 * 5 B gg (G3, 60), 6 W ce (C5, 38), 7 B dc (D7, 21), 8 W pass. */
static const char S_SGF[] =
    "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Kim \\] Black]PW[Lee White]BR[3d]WR[2d]"
    "DT[2024-01-02]EV[Test Cup]RE[B+3.5]"
    ";B[ee];W[cc];B[gc];W[cg];B[gg];W[ce];B[dc];W[])";

#define CLOSE(a, b) (fabsf((float)(a) - (float)(b)) < 1e-4f)

static void s_parse_game(const char *text, hs_game_t *g)
{
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse(text, strlen(text), NULL, &err);
    HS_CHECK(c != NULL);
    if (!c)
        exit(1);
    HS_CHECK_INT(hs_game_from_sgf(hs_sgf_root(c, 0), g, &err), 0);
    hs_game_compute_id(g);
    hs_sgf_destroy(&c);
}

/* An eval of position mn of g (its real position key) by spec. */
static void s_ev(hs_eval_t *e, const hs_game_t *g, int mn, const char *spec, float lead,
                 float wr)
{
    memset(e, 0, sizeof *e);
    hs_replay_t r;
    hs_error_t err;
    HS_CHECK_INT(hs_replay_start(&r, g, &err), 0);
    HS_CHECK_INT(hs_replay_to(&r, mn, &err), 0);
    hs_replay_key(&r, e->pos_key);
    hs_replay_fini(&r);
    e->move_number = mn;
    e->engine_id = hs_engine_config_id(spec);
    e->size = 9;
    e->score_lead = lead;
    e->win_rate = wr;
}

static void s_put(hs_store_t *s, const hs_game_t *g, const hs_eval_t *e, const char *spec)
{
    hs_error_t err;
    HS_CHECK_INT(hs_store_result_put(s, g->id, e, spec, NULL, &err), 0);
}

static int8_t s_own_judge[81], s_own_mcts[81], s_own_net[81];
static int16_t s_infl[81];
static char s_classes4[82], s_classes8[82];

/* The evals, Black's view throughout (lead in points, win rate 0..1):
 *
 *   pos  mcts v10 (lead wr best)   mcts v50          net (lead wr)   judge   area
 *   0     0.0 .50  E5 (40)                            0.5 .51         1.0
 *   1    -1.0 .45  G7 (24)                           -0.5 .47         0.0
 *   2     5.0 .80  B8 (10)        1.0 .55 D6 (30)     2.0 .56         2.0
 *   3     3.0 .62  G3 (60)                            2.5 .64         3.0
 *   4     3.5 .67  C5 (38)                            4.0 .72         3.0
 *   5                                                 1.0 .60         0.0
 *   6                                                 9.0 .90         2.0
 *                                      judge-net at 6: 2.0 .63
 *   7                                                                 0.0   -4.0
 *   8                                                                 1.5   (judge@2 -9, noop +50)
 *
 * At 2 MCTS v50 wins by visits (v10's id is the lower one: a pick by id would
 * take v10). At 6 judge-net, a net kind too, wins by the lower engine id. At 7
 * the judge wins over area although area's id is lower (area is a bare count);
 * at 8 judge over judge@2 by id. noop is no known kind. At 8 area's classes
 * (all dame) lose to the judge's for the maps. */
static void s_fill(hs_store_t *s, const hs_game_t *g)
{
    hs_error_t err;
    hs_eval_t e;
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    static const float ml[5] = { 0.0f, -1.0f, 5.0f, 3.0f, 3.5f };
    static const float mw[5] = { 0.50f, 0.45f, 0.80f, 0.62f, 0.67f };
    static const uint16_t mb[5] = { 40, 24, 10, 60, 38 };
    for (int i = 0; i < 81; i++) {
        s_own_mcts[i] = 40;
        s_own_net[i] = -30;
        s_own_judge[i] = (int8_t)(i % 2 ? 100 : -100);
        s_infl[i] = (int16_t)(i * 10);
    }
    for (int m = 0; m < 5; m++) {
        s_ev(&e, g, m, S_MCTS10, ml[m], mw[m]);
        e.visits = 10;
        e.pv_len = 1;
        e.pv[0] = mb[m];
        e.ownership = m == 4 ? s_own_mcts : NULL;
        s_put(s, g, &e, S_MCTS10);
    }
    s_ev(&e, g, 2, S_MCTS50, 1.0f, 0.55f);
    e.visits = 50;
    e.pv_len = 2;
    e.pv[0] = 30;
    e.pv[1] = 31;
    s_put(s, g, &e, S_MCTS50);
    static const float nl[7] = { 0.5f, -0.5f, 2.0f, 2.5f, 4.0f, 1.0f, 9.0f };
    static const float nw[7] = { 0.51f, 0.47f, 0.56f, 0.64f, 0.72f, 0.60f, 0.90f };
    for (int m = 0; m < 7; m++) {
        s_ev(&e, g, m, S_NET, nl[m], nw[m]);
        e.ownership = m >= 4 ? s_own_net : NULL;
        s_put(s, g, &e, S_NET);
    }
    s_ev(&e, g, 6, S_JNET, 2.0f, 0.63f);
    s_put(s, g, &e, S_JNET);
    static const float jl[9] = { 1, 0, 2, 3, 3, 0, 2, 0, 1.5f };
    memset(s_classes4, '.', 81);
    memset(s_classes8, '.', 81);
    /* The end, in the judge's letters (worker/judge.h: b/w territory, X/O alive,
     * x/o dead) mixed with PROTOCOL.md's (B/W territory, b/w alive, x/y dead):
     * Black territory aa (B) ba ca (b, empty points), White territory gi (W) hi
     * ii (w); dead white cc (20, 'o') and ce (38, 'y'), dead black ee (40, 'x'),
     * their points the other side's territory; gc (24) is a black stone marked
     * 'b' (alive, PROTOCOL.md), gg (60) 'X' alive, dd (30) 's' seki: no markup. */
    s_classes8[0] = 'B';
    s_classes8[1] = s_classes8[2] = 'b';
    s_classes8[78] = 'W';
    s_classes8[79] = s_classes8[80] = 'w';
    s_classes8[20] = 'o';
    s_classes8[38] = 'y';
    s_classes8[40] = 'x';
    s_classes8[24] = 'b';
    s_classes8[60] = 'X';
    s_classes8[30] = 's';
    for (int m = 0; m < 9; m++) {
        s_ev(&e, g, m, "judge", jl[m], NAN);
        if (m == 4) {
            e.ownership = s_own_judge;
            e.classes = s_classes4;
            e.influence = s_infl;
        }
        if (m == 8) {
            e.ownership = s_own_judge;
            e.classes = s_classes8;
        }
        s_put(s, g, &e, "judge");
    }
    s_ev(&e, g, 7, "area", -4.0f, NAN);
    s_put(s, g, &e, "area");
    static char dame[82];
    memset(dame, '.', 81);
    s_ev(&e, g, 8, "area", -20.0f, NAN);
    e.classes = dame;
    e.ownership = s_own_net;
    s_put(s, g, &e, "area");
    s_ev(&e, g, 8, "judge@2", -9.0f, NAN);
    s_put(s, g, &e, "judge@2");
    s_ev(&e, g, 8, "noop", 50.0f, 0.99f);
    s_put(s, g, &e, "noop");
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
}

static void test_curve(const hs_report_game_t *r)
{
    /* Sources: MCTS where it ran (0..4), then the net (5, 6), then the judge. */
    static const hs_report_source_t src[9] = {
        HS_SOURCE_MCTS, HS_SOURCE_MCTS, HS_SOURCE_MCTS, HS_SOURCE_MCTS, HS_SOURCE_MCTS,
        HS_SOURCE_NET, HS_SOURCE_NET, HS_SOURCE_JUDGE, HS_SOURCE_JUDGE,
    };
    HS_CHECK_INT(r->game.num_moves, 8);
    HS_CHECK_INT(r->analysed, 9);
    for (int m = 0; m < 9; m++)
        HS_CHECK_INT(r->pos[m].source, src[m]);
    HS_CHECK_STR(hs_report_source_name(r->pos[0].source), "MCTS");
    HS_CHECK_STR(hs_report_source_name(r->pos[5].source), "net");
    HS_CHECK_STR(hs_report_source_name(r->pos[8].source), "judge");
    /* Position 2: v50 (more visits) over v10. */
    HS_CHECK(CLOSE(r->pos[2].lead, 1.0f) && CLOSE(r->pos[2].win_rate, 0.55f));
    HS_CHECK_INT(r->pos[2].best, 30);
    HS_CHECK_INT(r->pos[4].best, 38);
    HS_CHECK_INT(r->pos[5].best, -1);
    HS_CHECK(CLOSE(r->pos[5].lead, 1.0f) && CLOSE(r->pos[5].win_rate, 0.60f));
    /* Position 6: judge-net (lower engine id) over net. */
    HS_CHECK(hs_engine_config_id(S_JNET) < hs_engine_config_id(S_NET));
    HS_CHECK(CLOSE(r->pos[6].lead, 2.0f) && CLOSE(r->pos[6].win_rate, 0.63f));
    /* Position 7: the judge over area (whose id is lower); no win rate. */
    HS_CHECK(hs_engine_config_id("area") < hs_engine_config_id("judge"));
    HS_CHECK(hs_engine_config_id("judge") < hs_engine_config_id("judge@2"));
    HS_CHECK(CLOSE(r->pos[7].lead, 0.0f) && isnan(r->pos[7].win_rate));
    /* Position 8: judge@2's -9 and noop's +50 are not taken. */
    HS_CHECK(CLOSE(r->pos[8].lead, 1.5f));

    /* Losses, from the most preferred source both sides have (mover's view):
     *   1 B  MCTS  0.0 -> -1.0, .50 -> .45     1.0 pts  .05
     *   2 W  MCTS -1.0 ->  1.0, .45 -> .55     2.0      .10
     *   3 B  MCTS  1.0 ->  3.0, .55 -> .62     0 (gain) 0
     *   4 W  MCTS  3.0 ->  3.5, .62 -> .67     0.5      .05
     *   5 B  net   4.0 ->  1.0, .72 -> .60     3.0      .12  (no MCTS at 5)
     *   6 W  net   1.0 ->  2.0, .60 -> .63     1.0      .03
     *   7 B  judge 2.0 ->  0.0                 2.0      none (no net at 7)
     *   8 W  judge 0.0 ->  1.5                 none: the judge counts the record's
     *                                          last position by other rules, so
     *                                          the change into it is no loss */
    static const float lp[9] = { NAN, 1.0f, 2.0f, 0, 0.5f, 3.0f, 1.0f, 2.0f, NAN };
    static const float lw[9] = { NAN, .05f, .10f, 0, .05f, .12f, .03f, NAN, NAN };
    for (int m = 0; m < 9; m++) {
        bool ok = (isnan(lp[m]) ? isnan(r->pos[m].loss_points)
                                : CLOSE(r->pos[m].loss_points, lp[m]))
                  && (isnan(lw[m]) ? isnan(r->pos[m].loss_win_rate)
                                   : CLOSE(r->pos[m].loss_win_rate, lw[m]));
        HS_CHECK(ok);
        if (!ok)
            fprintf(stderr, "  move %d: loss %g points, %g win rate\n", m,
                    r->pos[m].loss_points, r->pos[m].loss_win_rate);
    }
}

static void test_mistakes(const hs_report_game_t *r)
{
    /* Black by points: 5 (3.0, preferred pos 4's best C5 = 38), 7 (2.0, no MCTS
     * at 6), 1 (1.0, pos 0's best 40); 3 lost nothing. White: 2 (2.0, pos 1's
     * best 24), 6 (1.0), 4 (0.5, pos 3's best 60); 8 (the pass into the record's
     * last position) none, the judge's change of method. */
    static const int bm[3] = { 5, 7, 1 }, bpref[3] = { 38, -1, 40 };
    static const float bl[3] = { 3.0f, 2.0f, 1.0f };
    static const int wm[3] = { 2, 6, 4 }, wpref[3] = { 24, -1, 60 };
    static const float wl[3] = { 2.0f, 1.0f, 0.5f };
    HS_CHECK_INT(r->num_mistakes[0], 3);
    HS_CHECK_INT(r->num_mistakes[1], 3);
    for (int i = 0; i < 3 && i < r->num_mistakes[0]; i++) {
        const hs_report_mistake_t *k = &r->mistakes[0][i];
        HS_CHECK_INT(k->move_number, bm[i]);
        HS_CHECK_INT(k->color, HS_BLACK);
        HS_CHECK_INT(k->preferred, bpref[i]);
        HS_CHECK(CLOSE(k->loss_points, bl[i]));
    }
    HS_CHECK_INT(r->mistakes[0][0].played, 60);
    HS_CHECK(CLOSE(r->mistakes[0][0].loss_win_rate, 0.12f));
    HS_CHECK(isnan(r->mistakes[0][1].loss_win_rate));
    for (int i = 0; i < 3 && i < r->num_mistakes[1]; i++) {
        const hs_report_mistake_t *k = &r->mistakes[1][i];
        HS_CHECK_INT(k->move_number, wm[i]);
        HS_CHECK_INT(k->color, HS_WHITE);
        HS_CHECK_INT(k->preferred, wpref[i]);
        HS_CHECK(CLOSE(k->loss_points, wl[i]));
    }
    HS_CHECK_INT(r->mistakes[1][1].played, 38);

    /* Swings, in win rate (the game has win rates): |change| 1 .05, 2 .10,
     * 3 .07, 4 .05, 5 .12, 6 .03 (7, 8: the judge, none) -> 5, 2, 3. */
    HS_CHECK_INT(r->num_swings, 3);
    HS_CHECK_INT(r->swings[0], 5);
    HS_CHECK_INT(r->swings[1], 2);
    HS_CHECK_INT(r->swings[2], 3);

    /* The end: the judge's B+1.5 and the record's B+3.5 agree. */
    HS_CHECK(r->final_known);
    HS_CHECK(r->final_agrees);
}

static void test_maps(hs_store_t *s, const hs_report_game_t *r)
{
    hs_report_maps_t m;
    hs_error_t err;
    /* After 4 moves: B ee, W cc, B gc, W cg (last, x 2 y 6); the judge's maps and
     * SI, and MCTS's ownership preferred over the net's. */
    HS_CHECK_INT(hs_report_maps_load(s, r, 4, &m, &err), 0);
    HS_CHECK_INT(m.size, 9);
    HS_CHECK_INT(m.move_number, 4);
    HS_CHECK_INT(m.stones[40], HS_BLACK);
    HS_CHECK_INT(m.stones[20], HS_WHITE);
    HS_CHECK_INT(m.stones[24], HS_BLACK);
    HS_CHECK_INT(m.stones[56], HS_WHITE);
    HS_CHECK_INT(m.stones[60], HS_EMPTY);
    int stones = 0;
    for (int i = 0; i < 81; i++)
        stones += m.stones[i] != HS_EMPTY;
    HS_CHECK_INT(stones, 4);
    HS_CHECK_INT(m.last_x, 2);
    HS_CHECK_INT(m.last_y, 6);
    HS_CHECK(m.ownership && m.ownership[1] == 100 && m.ownership[0] == -100);
    HS_CHECK(m.classes && !memcmp(m.classes, s_classes4, 81));
    HS_CHECK(m.influence && m.influence[80] == 800);
    HS_CHECK(m.net_ownership && m.net_ownership[0] == 40);
    HS_CHECK_INT(m.net_source, HS_SOURCE_MCTS);
    hs_report_maps_fini(&m);

    /* After 5: only the net's ownership; the judge kept no maps there. */
    HS_CHECK_INT(hs_report_maps_load(s, r, 5, &m, &err), 0);
    HS_CHECK(m.net_ownership && m.net_ownership[0] == -30);
    HS_CHECK_INT(m.net_source, HS_SOURCE_NET);
    HS_CHECK(!m.ownership && !m.classes && !m.influence);
    HS_CHECK_INT(m.last_x, 6);
    HS_CHECK_INT(m.last_y, 6);
    hs_report_maps_fini(&m);

    /* Out of range. */
    HS_CHECK_INT(hs_report_maps_load(s, r, 9, &m, &err), HS_EINVAL);
    hs_report_maps_fini(&m);
}

/* The vertices of property id at node n, as a bit set of 81. */
static void s_prop_set(const hs_sgf_node_t *n, const char *id, char set[81])
{
    memset(set, 0, 81);
    const hs_sgf_prop_t *p = n ? hs_sgf_node_prop(n, id) : NULL;
    if (!p)
        return;
    uint16_t v[81];
    int count = 0;
    hs_error_t err;
    HS_CHECK_INT(hs_sgf_expand_points(p, 9, v, 81, &count, &err), 0);
    for (int i = 0; i < count; i++)
        set[v[i]] = 1;
}

static void s_check_set(const char set[81], const int *want, int n)
{
    char w[81] = { 0 };
    for (int i = 0; i < n; i++)
        w[want[i]] = 1;
    HS_CHECK(!memcmp(set, w, 81));
}

/* Node m of the main line (0 = the root). */
static const hs_sgf_node_t *s_node(const hs_sgf_node_t *root, int m)
{
    while (root && m-- > 0)
        root = root->first_child;
    return root;
}

static void s_check_comment(const hs_sgf_node_t *root, int m, const char *want)
{
    const char *c = hs_sgf_node_value(s_node(root, m), "C");
    HS_CHECK_STR(c, want);
}

static void test_sgf(hs_store_t *s, const hs_report_game_t *r)
{
    hs_report_maps_t end;
    hs_error_t err;
    HS_CHECK_INT(hs_report_maps_load(s, r, -1, &end, &err), 0);
    HS_CHECK_INT(end.move_number, 8);
    HS_CHECK(end.ownership && end.ownership[1] == 100);   /* the judge's, not area's */
    HS_CHECK_INT(end.last_x, -1);   /* the last move is a pass */
    char *text = NULL;
    size_t len = 0;
    HS_CHECK_INT(hs_report_game_sgf(r, &end, &text, &len, &err), 0);
    hs_report_maps_fini(&end);
    if (!text)
        return;
    HS_CHECK_INT(strlen(text), len);
    const char *out = getenv("HS_REPORT_SGF_OUT");
    if (out) {
        FILE *f = fopen(out, "w");
        HS_CHECK(f != NULL);
        if (f) {
            fwrite(text, 1, len, f);
            fclose(f);
        }
    }

    hs_sgf_collection_t *c = hs_sgf_parse(text, len, NULL, &err);
    HS_CHECK(c != NULL);
    if (!c) {
        fprintf(stderr, "%s\n%s\n", err.msg, text);
        free(text);
        return;
    }
    const hs_sgf_node_t *root = hs_sgf_root(c, 0);
    hs_game_t g;
    HS_CHECK_INT(hs_game_from_sgf(root, &g, &err), 0);
    hs_game_compute_id(&g);
    HS_CHECK_INT(g.size, 9);
    HS_CHECK(g.komi == 7.0);
    HS_CHECK_INT(g.num_moves, 8);
    for (int i = 0; i < 8 && i < g.num_moves; i++) {
        HS_CHECK_INT(g.moves[i].vertex, r->game.moves[i].vertex);
        HS_CHECK_INT(g.moves[i].color, r->game.moves[i].color);
    }
    HS_CHECK(g.id[0] == r->game.id[0] && g.id[1] == r->game.id[1]);
    HS_CHECK_STR(g.black, "Kim ] Black");
    HS_CHECK_STR(g.white, "Lee White");
    HS_CHECK_STR(g.black_rank, "3d");
    HS_CHECK_STR(g.event, "Test Cup");
    HS_CHECK_STR(g.result_raw, "B+3.5");
    HS_CHECK_STR(g.rules_raw, "Chinese");
    HS_CHECK_INT(g.rules.id, r->game.rules.id);
    HS_CHECK_STR(hs_sgf_node_value(root, "AP"), "hyeongse:" HS_VERSION);
    hs_game_fini(&g);

    /* Comments at analysed positions (the root is position 0). */
    s_check_comment(root, 0, "Black win rate 50.0% (MCTS), lead even, best E5");
    s_check_comment(root, 2, "Black win rate 55.0% (MCTS), lead B+1.0, best D6\n"
                             "Loss: 2.0 points, 10.0% win rate");
    s_check_comment(root, 3, "Black win rate 62.0% (MCTS), lead B+3.0, best G3");
    s_check_comment(root, 5, "Black win rate 60.0% (net), lead B+1.0\n"
                             "Loss: 3.0 points, 12.0% win rate");
    s_check_comment(root, 7, "Lead even (judge)\nLoss: 2.0 points");
    s_check_comment(root, 8, "Lead B+1.5 (judge)");   /* no loss into the last position */
    for (int m = 1; m <= 8; m++) {
        bool mistake = m != 3 && m != 8;   /* the moves that lost something: all listed */
        HS_CHECK(hs_sgf_node_has(s_node(root, m), "BM") == mistake);
    }

    /* TB/TW/MA at the last node, from the judge's classes there; none before. */
    const hs_sgf_node_t *last = s_node(root, 8);
    HS_CHECK(last && !last->first_child);
    char set[81];
    s_prop_set(last, "TB", set);
    s_check_set(set, (const int[]){ 0, 1, 2, 20, 38 }, 5);
    s_prop_set(last, "TW", set);
    s_check_set(set, (const int[]){ 78, 79, 80, 40 }, 4);
    s_prop_set(last, "MA", set);
    s_check_set(set, (const int[]){ 20, 38, 40 }, 3);
    HS_CHECK(!hs_sgf_node_has(s_node(root, 7), "TB"));
    HS_CHECK_STR(hs_sgf_node_value(last, "W"), "");
    hs_sgf_destroy(&c);

    /* Without maps: no markup. */
    free(text);
    HS_CHECK_INT(hs_report_game_sgf(r, NULL, &text, &len, &err), 0);
    HS_CHECK(text && !strstr(text, "TB[") && !strstr(text, "MA["));
    free(text);
}

/* A game with no evals: nothing analysed, nothing known at the end. */
static void test_bare(hs_store_t *s)
{
    hs_game_t g;
    s_parse_game("(;SZ[9]KM[6.5]AB[cc][gg]AW[ee]RE[W+R];W[dd];B[ff])", &g);
    hs_error_t err;
    HS_CHECK_INT(hs_store_game_put(s, &g, "bare.sgf", 0, NULL, &err), 0);
    hs_report_game_t r;
    HS_CHECK_INT(hs_report_game_load(s, g.id, &r, &err), 0);
    HS_CHECK_INT(r.analysed, 0);
    HS_CHECK_INT(r.num_mistakes[0] + r.num_mistakes[1], 0);
    HS_CHECK_INT(r.num_swings, 0);
    HS_CHECK(!r.final_known && !r.final_agrees);
    HS_CHECK_STR(r.source, "bare.sgf");
    HS_CHECK(r.pos && r.pos[2].source == HS_SOURCE_NONE && r.pos[2].best == -1);
    hs_report_maps_t m;
    HS_CHECK_INT(hs_report_maps_load(s, &r, 0, &m, &err), 0);
    HS_CHECK_INT(m.stones[2 * 9 + 2], HS_BLACK);
    HS_CHECK_INT(m.stones[4 * 9 + 4], HS_WHITE);
    HS_CHECK(!m.ownership && !m.net_ownership && m.last_x == -1);
    hs_report_maps_fini(&m);
    char *text = NULL;
    size_t len;
    HS_CHECK_INT(hs_report_game_sgf(&r, NULL, &text, &len, &err), 0);
    HS_CHECK(text && strstr(text, "AB[cc][gg]") && strstr(text, "AW[ee]")
          && !strstr(text, "]C["));
    free(text);
    hs_report_game_fini(&r);
    hs_game_fini(&g);

    /* A record whose second move is on the first one's point: maps up to the
     * position before it, HS_EILLEGAL at it. */
    s_parse_game("(;SZ[9];B[ee];W[ee])", &g);
    HS_CHECK_INT(hs_store_game_put(s, &g, "illegal.sgf", 0, NULL, &err), 0);
    HS_CHECK_INT(hs_report_game_load(s, g.id, &r, &err), 0);
    HS_CHECK_INT(hs_report_maps_load(s, &r, 1, &m, &err), 0);
    HS_CHECK_INT(m.stones[40], HS_BLACK);
    hs_report_maps_fini(&m);
    HS_CHECK_INT(hs_report_maps_load(s, &r, 2, &m, &err), HS_EILLEGAL);
    HS_CHECK_INT(err.code, HS_EILLEGAL);
    hs_report_maps_fini(&m);
    hs_report_game_fini(&r);
    hs_game_fini(&g);

    uint64_t none[2] = { 1, 2 };
    HS_CHECK_INT(hs_report_game_load(s, none, &r, &err), HS_ENOTFOUND);
}

int main(void)
{
    const char *dir = s_newdir("game-report");
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC | HS_STORE_MAPS(HS_STORE_MAP_ALL), 0,
                               &err), 0);
    if (!s)
        return hs_test_finish();
    hs_game_t g;
    s_parse_game(S_SGF, &g);
    HS_CHECK_INT(hs_store_game_put(s, &g, "test.sgf", 7, NULL, &err), 0);
    s_fill(s, &g);

    hs_report_game_t r;
    HS_CHECK_INT(hs_report_game_load(s, g.id, &r, &err), 0);
    if (r.pos) {
        HS_CHECK_INT(r.job_id, 7);
        test_curve(&r);
        test_mistakes(&r);
        test_maps(s, &r);
        test_sgf(s, &r);
    }
    hs_report_game_fini(&r);
    hs_game_fini(&g);
    test_bare(s);
    hs_store_close(&s);
    s_rm_dir(dir);
    return hs_test_finish();
}
