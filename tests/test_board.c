/*
 * tests/test_board.c — core/board.h: unit tests for captures, merges, ko,
 * suicide, hashing, setup, eyes, names and diagrams, then a long random-game
 * self-check on sizes 2..25 that runs hs_board_check() after every move and
 * compares every position with a naive flood-fill reference implementation
 * (so wrong captures are caught, not only inconsistent bookkeeping).
 */
#include "core/board.h"
#include "core/playout.h"
#include "core/rng.h"
#include "core/rules.h"
#include "core/score.h"
#include "test.h"

/* Plays a GTP vertex; returns hs_board_play's status. */
static int s_play(hs_board_t *b, hs_color_t c, const char *v, unsigned flags, hs_illegal_t *why)
{
    hs_point_t p;
    if (hs_board_parse_point(b, v, &p) != 0) {
        fprintf(stderr, "bad vertex %s\n", v);
        return HS_EPARSE;
    }
    return hs_board_play(b, c, p, flags, why);
}

static hs_point_t s_pt(const hs_board_t *b, const char *v)
{
    hs_point_t p = HS_NO_POINT;
    HS_CHECK_INT(hs_board_parse_point(b, v, &p), 0);
    return p;
}

static void s_check_ok(const hs_board_t *b)
{
    hs_error_t err = { 0 };
    int rc = hs_board_check(b, &err);
    HS_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  check: %s\n", err.msg);
}

static void test_init_and_names(void)
{
    hs_board_t b;
    HS_CHECK_INT(hs_board_init(&b, 1), HS_EINVAL);
    HS_CHECK_INT(hs_board_init(&b, 26), HS_EINVAL);
    HS_CHECK_INT(hs_board_init(&b, 19), 0);
    HS_CHECK_INT(b.num_empty, 361);
    HS_CHECK_INT(b.to_move, HS_BLACK);
    HS_CHECK_INT(b.ko, HS_NO_POINT);
    HS_CHECK_INT(b.last_move, HS_NO_POINT);
    s_check_ok(&b);
    char buf[8];
    HS_CHECK_STR(hs_board_point_name(&b, hs_board_point(&b, 0, 0), buf), "A19");
    HS_CHECK_STR(hs_board_point_name(&b, hs_board_point(&b, 8, 18), buf), "J1");
    HS_CHECK_STR(hs_board_point_name(&b, hs_board_point(&b, 3, 15), buf), "D4");
    HS_CHECK_STR(hs_board_point_name(&b, HS_PASS, buf), "pass");
    hs_point_t p;
    HS_CHECK_INT(hs_board_parse_point(&b, "d4", &p), 0);
    HS_CHECK_INT(p, hs_board_point(&b, 3, 15));
    HS_CHECK_INT(hs_board_parse_point(&b, "PASS", &p), 0);
    HS_CHECK_INT(p, HS_PASS);
    HS_CHECK_INT(hs_board_parse_point(&b, "I5", &p), HS_EPARSE);
    HS_CHECK_INT(hs_board_parse_point(&b, "U5", &p), HS_EPARSE);
    HS_CHECK_INT(hs_board_parse_point(&b, "A20", &p), HS_EPARSE);
    HS_CHECK_INT(hs_board_parse_point(&b, "A0", &p), HS_EPARSE);
    HS_CHECK_INT(hs_board_parse_point(&b, "", &p), HS_EPARSE);
    HS_CHECK_INT(hs_board_parse_point(&b, "T19x", &p), HS_EPARSE);
    HS_CHECK_INT(hs_board_parse_point(&b, "T19", &p), 0);
    HS_CHECK_INT(p, hs_board_point(&b, 18, 0));
    /* 25x25 continues past T with U..Z. */
    HS_CHECK_INT(hs_board_init(&b, 25), 0);
    HS_CHECK_STR(hs_board_point_name(&b, hs_board_point(&b, 24, 0), buf), "Z25");
    HS_CHECK_INT(hs_board_parse_point(&b, "z25", &p), 0);
    HS_CHECK_INT(p, hs_board_point(&b, 24, 0));
    HS_CHECK_INT(hs_board_num_points(&b), HS_BOARD_MAX_POINTS);
    /* Every point round-trips through its name, and the geometry helpers agree. */
    for (int size = 2; size <= 25; size++) {
        hs_board_init(&b, size);
        int bad = 0;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                hs_point_t q = hs_board_point(&b, x, y), r = 0;
                bad += hs_board_x(&b, q) != x || hs_board_y(&b, q) != y || !hs_board_on_board(&b, q);
                bad += hs_board_parse_point(&b, hs_board_point_name(&b, q, buf), &r) != 0 || r != q;
            }
        HS_CHECK_INT(bad, 0);
        HS_CHECK(!hs_board_on_board(&b, HS_PASS));
    }
}

static void test_capture_and_merge(void)
{
    hs_board_t b;
    hs_board_init(&b, 9);
    /* Black stone at A9 corner: 2 liberties. */
    HS_CHECK_INT(s_play(&b, HS_BLACK, "A9", 0, NULL), 0);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "A9")), 2);
    HS_CHECK_INT(b.to_move, HS_WHITE);
    HS_CHECK_INT(s_play(&b, HS_WHITE, "B9", 0, NULL), 0);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "A9")), 1);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "B9")), 2);
    HS_CHECK_INT(s_play(&b, HS_BLACK, "E5", 0, NULL), 0);
    HS_CHECK_INT(s_play(&b, HS_WHITE, "A8", 0, NULL), 0);
    HS_CHECK_INT(b.color[s_pt(&b, "A9")], HS_EMPTY);
    HS_CHECK_INT(b.captures[HS_WHITE], 1);
    HS_CHECK_INT(b.captures[HS_BLACK], 0);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "B9")), 3);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "A8")), 3);
    /* A single corner capture leaves no ko (A9 would be suicide... not a ko shape). */
    HS_CHECK_INT(b.ko, HS_NO_POINT);
    s_check_ok(&b);

    /* Merge: black E5, E4 (already E5), D5 ... a bent string; liberties exact. */
    HS_CHECK_INT(s_play(&b, HS_BLACK, "E4", 0, NULL), 0);
    HS_CHECK_INT(hs_board_string_size(&b, s_pt(&b, "E5")), 2);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "E4")), 6);
    HS_CHECK_INT(s_play(&b, HS_BLACK, "F4", 0, NULL), 0);
    HS_CHECK_INT(s_play(&b, HS_BLACK, "F5", 0, NULL), 0);  /* closes a 2x2 block */
    HS_CHECK_INT(hs_board_string_size(&b, s_pt(&b, "F5")), 4);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "E5")), 8);
    hs_point_t libs[16];
    HS_CHECK_INT(hs_board_string_liberties(&b, s_pt(&b, "E4"), libs, 16), 8);
    HS_CHECK_INT(hs_board_string_liberties(&b, s_pt(&b, "E4"), libs, 3), 3);
    s_check_ok(&b);
    /* Joining two separate strings through a shared liberty. */
    HS_CHECK_INT(s_play(&b, HS_BLACK, "C5", 0, NULL), 0);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "C5")), 4);
    HS_CHECK_INT(s_play(&b, HS_BLACK, "D5", 0, NULL), 0);
    HS_CHECK_INT(hs_board_string_size(&b, s_pt(&b, "C5")), 6);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "C5")), 11);
    s_check_ok(&b);

    /* Capturing a multi-stone string gives liberties back to every neighbour. */
    hs_board_init(&b, 5);
    const char *w[] = { "B5", "C5", NULL };
    const char *bl[] = { "A5", "B4", "C4", "D5", NULL };
    for (int i = 0; w[i]; i++)
        HS_CHECK_INT(s_play(&b, HS_WHITE, w[i], 0, NULL), 0);
    for (int i = 0; bl[i]; i++)
        HS_CHECK_INT(s_play(&b, HS_BLACK, bl[i], 0, NULL), 0);
    HS_CHECK_INT(b.color[s_pt(&b, "B5")], HS_EMPTY);
    HS_CHECK_INT(b.color[s_pt(&b, "C5")], HS_EMPTY);
    HS_CHECK_INT(b.captures[HS_BLACK], 2);
    HS_CHECK_INT(b.ko, HS_NO_POINT);
    HS_CHECK_INT(hs_board_libs(&b, s_pt(&b, "A5")), 2);
    s_check_ok(&b);
    /* Occupied and off-board. */
    hs_illegal_t why = HS_LEGAL;
    HS_CHECK_INT(s_play(&b, HS_WHITE, "A5", 0, &why), HS_EILLEGAL);
    HS_CHECK_INT(why, HS_ILLEGAL_OCCUPIED);
    HS_CHECK_INT(hs_board_play(&b, HS_WHITE, (hs_point_t)(b.stride * 2), 0, &why), HS_EILLEGAL);
    HS_CHECK_INT(why, HS_ILLEGAL_OFFBOARD);
    HS_CHECK_INT(hs_board_play(&b, HS_WHITE, HS_NO_POINT, 0, &why), HS_EILLEGAL);
    HS_CHECK_INT(why, HS_ILLEGAL_OFFBOARD);
}

static void test_ko_and_pass(void)
{
    hs_board_t b;
    hs_board_init(&b, 5);
    /*  . X O . .
     *  X . X O .   black takes at... set up a ko around B4/C4. */
    const char *black[] = { "B5", "A4", "B3", NULL };
    const char *white[] = { "C5", "D4", "C3", NULL };
    for (int i = 0; black[i]; i++) {
        HS_CHECK_INT(s_play(&b, HS_BLACK, black[i], 0, NULL), 0);
        HS_CHECK_INT(s_play(&b, HS_WHITE, white[i], 0, NULL), 0);
    }
    HS_CHECK_INT(s_play(&b, HS_BLACK, "C4", 0, NULL), 0);
    HS_CHECK_INT(s_play(&b, HS_WHITE, "B4", 0, NULL), 0);  /* captures C4 */
    HS_CHECK_INT(b.color[s_pt(&b, "C4")], HS_EMPTY);
    HS_CHECK_INT(b.ko, s_pt(&b, "C4"));
    HS_CHECK_INT(b.captures[HS_WHITE], 1);
    hs_illegal_t why;
    HS_CHECK_INT(hs_board_legal(&b, HS_BLACK, s_pt(&b, "C4"), 0), HS_ILLEGAL_KO);
    hs_board_t before = b;
    HS_CHECK_INT(s_play(&b, HS_BLACK, "C4", 0, &why), HS_EILLEGAL);
    HS_CHECK_INT(why, HS_ILLEGAL_KO);
    HS_CHECK(!memcmp(&before, &b, sizeof b));
    /* The key includes the ko point. */
    hs_board_t noko = b;
    noko.ko = HS_NO_POINT;
    HS_CHECK(hs_board_key(&noko) != hs_board_key(&b));
    /* A ko threat elsewhere lifts the ban. */
    HS_CHECK_INT(s_play(&b, HS_BLACK, "E1", 0, NULL), 0);
    HS_CHECK_INT(b.ko, HS_NO_POINT);
    HS_CHECK_INT(s_play(&b, HS_WHITE, "E2", 0, NULL), 0);
    HS_CHECK_INT(s_play(&b, HS_BLACK, "C4", 0, NULL), 0);  /* retakes */
    HS_CHECK_INT(b.color[s_pt(&b, "B4")], HS_EMPTY);
    HS_CHECK_INT(b.ko, s_pt(&b, "B4"));
    s_check_ok(&b);
    /* A pass clears the ko and counts. */
    HS_CHECK_INT(hs_board_play(&b, HS_WHITE, HS_PASS, 0, NULL), 0);
    HS_CHECK_INT(b.ko, HS_NO_POINT);
    HS_CHECK_INT(b.passes, 1);
    HS_CHECK_INT(b.last_move, HS_PASS);
    HS_CHECK_INT(hs_board_play(&b, HS_BLACK, HS_PASS, 0, NULL), 0);
    HS_CHECK_INT(b.passes, 2);
    HS_CHECK_INT(b.move_number, 13);  /* the refused retake does not count */

    /* Capturing two stones with one is not a ko. */
    hs_board_init(&b, 5);
    const char *bb[] = { "A4", "B3", "C4", NULL };
    for (int i = 0; bb[i]; i++)
        hs_board_play(&b, HS_BLACK, s_pt(&b, bb[i]), 0, NULL);
    hs_board_play(&b, HS_WHITE, s_pt(&b, "A5"), 0, NULL);
    hs_board_play(&b, HS_WHITE, s_pt(&b, "C5"), 0, NULL);
    hs_board_play(&b, HS_WHITE, s_pt(&b, "B4"), 0, NULL);
    HS_CHECK_INT(s_play(&b, HS_BLACK, "B5", 0, NULL), 0);  /* takes A5 and C5 */
    HS_CHECK_INT(b.captures[HS_BLACK], 2);
    HS_CHECK_INT(b.ko, HS_NO_POINT);
    s_check_ok(&b);
}

static void test_suicide(void)
{
    hs_board_t b;
    hs_board_init(&b, 5);
    hs_board_play(&b, HS_BLACK, s_pt(&b, "B5"), 0, NULL);
    hs_board_play(&b, HS_BLACK, s_pt(&b, "A4"), 0, NULL);
    hs_illegal_t why;
    HS_CHECK_INT(hs_board_legal(&b, HS_WHITE, s_pt(&b, "A5"), 0), HS_ILLEGAL_SUICIDE);
    HS_CHECK_INT(s_play(&b, HS_WHITE, "A5", 0, &why), HS_EILLEGAL);
    HS_CHECK_INT(why, HS_ILLEGAL_SUICIDE);
    /* Allowed: the stone is placed and removed, Black gets the prisoner. */
    HS_CHECK_INT(s_play(&b, HS_WHITE, "A5", HS_PLAY_SUICIDE_OK, &why), 0);
    HS_CHECK_INT(why, HS_LEGAL);
    HS_CHECK_INT(b.color[s_pt(&b, "A5")], HS_EMPTY);
    HS_CHECK_INT(b.captures[HS_BLACK], 1);
    HS_CHECK_INT(b.to_move, HS_BLACK);
    s_check_ok(&b);
    /* Multi-stone suicide. */
    hs_board_init(&b, 4);
    /* Black wall on column B, white A4 A3; A2 filled by White would kill all. */
    const char *bl[] = { "B4", "B3", "B2", "A1", "B1", NULL };
    for (int i = 0; bl[i]; i++)
        hs_board_play(&b, HS_BLACK, s_pt(&b, bl[i]), 0, NULL);
    hs_board_play(&b, HS_WHITE, s_pt(&b, "A4"), 0, NULL);
    hs_board_play(&b, HS_WHITE, s_pt(&b, "A3"), 0, NULL);
    HS_CHECK_INT(hs_board_legal(&b, HS_WHITE, s_pt(&b, "A2"), 0), HS_ILLEGAL_SUICIDE);
    /* A1-B1-B2-B3-B4 is one black string with 5 liberties, so A2 captures nothing:
     * with suicide allowed the three white stones die. */
    hs_board_t c = b;
    HS_CHECK_INT(hs_board_libs(&c, s_pt(&c, "A1")), 5);
    HS_CHECK_INT(s_play(&c, HS_WHITE, "A2", HS_PLAY_SUICIDE_OK, NULL), 0);
    HS_CHECK_INT(c.color[s_pt(&c, "A4")], HS_EMPTY);
    HS_CHECK_INT(c.color[s_pt(&c, "A3")], HS_EMPTY);
    HS_CHECK_INT(c.color[s_pt(&c, "A2")], HS_EMPTY);
    HS_CHECK_INT(c.captures[HS_BLACK], 3);
    s_check_ok(&c);
}

static void test_hash_and_setup(void)
{
    hs_board_t a, b;
    hs_board_init(&a, 9);
    hs_board_init(&b, 9);
    const char *m[] = { "C3", "G7", "C7", "G3", "E5" };
    for (int i = 0; i < 5; i++)
        s_play(&a, (i % 2) ? HS_WHITE : HS_BLACK, m[i], 0, NULL);
    const int order[] = { 4, 3, 0, 1, 2 };  /* same stones, other order (black first) */
    for (int i = 0; i < 5; i++)
        s_play(&b, (order[i] % 2) ? HS_WHITE : HS_BLACK, m[order[i]], 0, NULL);
    HS_CHECK(a.stones_hash == b.stones_hash);
    HS_CHECK(hs_board_key(&a) == hs_board_key(&b));
    HS_CHECK(a.stones_hash != 0);
    /* Side to move changes the key, not the stones hash. */
    b.to_move = HS_BLACK;
    HS_CHECK(hs_board_key(&a) != hs_board_key(&b));
    /* Setup stones give the same hash as played ones. */
    hs_board_t s;
    hs_board_init(&s, 9);
    for (int i = 0; i < 5; i++)
        HS_CHECK_INT(hs_board_set_stone(&s, s_pt(&s, m[i]), (i % 2) ? HS_WHITE : HS_BLACK), 0);
    HS_CHECK(s.stones_hash == a.stones_hash);
    s_check_ok(&s);
    HS_CHECK_INT(s.num_empty, 76);
    HS_CHECK_INT(hs_board_set_stone(&s, s_pt(&s, "E5"), HS_EMPTY), 0);
    HS_CHECK_INT(s.num_empty, 77);
    HS_CHECK_INT(hs_board_set_stone(&s, HS_PASS, HS_BLACK), HS_EINVAL);
    HS_CHECK_INT(hs_board_set_stone(&s, HS_NO_POINT, HS_BLACK), HS_EINVAL);
    s_check_ok(&s);
    /* A setup string without liberties is kept as given. */
    hs_board_init(&s, 3);
    hs_board_set_stone(&s, s_pt(&s, "A3"), HS_WHITE);
    hs_board_set_stone(&s, s_pt(&s, "B3"), HS_BLACK);
    hs_board_set_stone(&s, s_pt(&s, "A2"), HS_BLACK);
    HS_CHECK_INT(s.color[s_pt(&s, "A3")], HS_WHITE);
    HS_CHECK_INT(hs_board_libs(&s, s_pt(&s, "A3")), 0);
    s_check_ok(&s);
    /* The self-check catches corruption. */
    hs_board_init(&s, 9);
    s_play(&s, HS_BLACK, "E5", 0, NULL);
    hs_board_t bad = s;
    bad.libs[bad.head[s_pt(&s, "E5")]] = 3;
    hs_error_t err;
    HS_CHECK_INT(hs_board_check(&bad, &err), HS_EBADSTATE);
    bad = s;
    bad.stones_hash ^= 1;
    HS_CHECK_INT(hs_board_check(&bad, &err), HS_EBADSTATE);
    bad = s;
    bad.num_empty--;
    HS_CHECK_INT(hs_board_check(&bad, NULL), HS_EBADSTATE);
}

/*
 * hs_board_set_stones (the batched setup replay uses) must leave exactly the
 * board that the same stones one by one leave, and a fresh board of every size
 * must pass the self-check (init writes only the part of the arrays it uses).
 */
static void test_batched_setup(void)
{
    for (int size = HS_BOARD_MIN_SIZE; size <= HS_BOARD_MAX_SIZE; size++) {
        hs_board_t b;
        HS_CHECK_INT(hs_board_init(&b, size), 0);
        s_check_ok(&b);
    }
    hs_rng_t rng;
    hs_rng_seed(&rng, 20261129);
    for (int trial = 0; trial < 300; trial++) {
        int size = 2 + (int)hs_rng_below(&rng, 24);
        hs_board_t one, many;
        hs_board_init(&one, size);
        hs_board_init(&many, size);
        int n = (int)hs_rng_below(&rng, (uint32_t)(size * size)) + 1;
        hs_point_t pts[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
        uint8_t cols[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
        for (int i = 0; i < n; i++) {
            pts[i] = hs_board_point(&one, (int)hs_rng_below(&rng, (uint32_t)size),
                                    (int)hs_rng_below(&rng, (uint32_t)size));
            cols[i] = (uint8_t)hs_rng_below(&rng, 3);  /* empty, black or white */
            HS_CHECK_INT(hs_board_set_stone(&one, pts[i], (hs_color_t)cols[i]), 0);
        }
        HS_CHECK_INT(hs_board_set_stones(&many, pts, cols, n), 0);
        s_check_ok(&many);
        HS_CHECK(one.stones_hash == many.stones_hash);
        HS_CHECK_INT(one.num_empty, many.num_empty);
        int same = 1;
        for (int p = 0; p < hs_board_num_points(&one); p++)
            if (one.color[p] != many.color[p])
                same = 0;
            else if ((one.color[p] == HS_BLACK || one.color[p] == HS_WHITE) &&
                     (hs_board_libs(&one, (hs_point_t)p) != hs_board_libs(&many, (hs_point_t)p) ||
                      hs_board_string_size(&one, (hs_point_t)p) !=
                          hs_board_string_size(&many, (hs_point_t)p)))
                same = 0;
        HS_CHECK(same);
    }
    /* A bad entry leaves the board unchanged. */
    hs_board_t b, before;
    hs_board_init(&b, 9);
    before = b;
    hs_point_t pts[2] = { hs_board_point(&b, 0, 0), HS_PASS };
    uint8_t cols[2] = { HS_BLACK, HS_BLACK };
    HS_CHECK_INT(hs_board_set_stones(&b, pts, cols, 2), HS_EINVAL);
    HS_CHECK(b.stones_hash == before.stones_hash && b.num_empty == before.num_empty);
}

static void test_eye_and_ascii(void)
{
    hs_board_t b;
    hs_board_init(&b, 5);
    const char *bl[] = { "B5", "A4", "B3", "C4", NULL };
    for (int i = 0; bl[i]; i++)
        hs_board_set_stone(&b, s_pt(&b, bl[i]), HS_BLACK);
    /* B4 is surrounded by black with an empty diagonal set: an eye. */
    HS_CHECK(hs_board_is_eye(&b, s_pt(&b, "B4"), HS_BLACK));
    HS_CHECK(!hs_board_is_eye(&b, s_pt(&b, "B4"), HS_WHITE));
    /* One white diagonal in the centre is fine, two are not. */
    hs_board_set_stone(&b, s_pt(&b, "A3"), HS_WHITE);
    HS_CHECK(hs_board_is_eye(&b, s_pt(&b, "B4"), HS_BLACK));
    hs_board_set_stone(&b, s_pt(&b, "C5"), HS_WHITE);
    HS_CHECK(!hs_board_is_eye(&b, s_pt(&b, "B4"), HS_BLACK));
    /* On the edge, no opponent diagonal is allowed. */
    HS_CHECK(hs_board_is_eye(&b, s_pt(&b, "A5"), HS_BLACK));
    hs_board_set_stone(&b, s_pt(&b, "A5"), HS_BLACK);
    HS_CHECK(!hs_board_is_eye(&b, s_pt(&b, "A5"), HS_BLACK));  /* occupied */
    char buf[256];
    hs_board_init(&b, 3);
    hs_board_set_stone(&b, s_pt(&b, "A3"), HS_BLACK);
    hs_board_set_stone(&b, s_pt(&b, "C1"), HS_WHITE);
    int n = hs_board_to_ascii(&b, buf, sizeof buf);
    HS_CHECK_STR(buf, "   A B C\n 3 X . .\n 2 . . .\n 1 . . O\n");
    HS_CHECK_INT(n, (int)strlen(buf));
    char small[5];
    HS_CHECK_INT(hs_board_to_ascii(&b, small, sizeof small), n);
    HS_CHECK_STR(small, "   A");
}

static void test_copy(void)
{
    /* A copy into a board that held a bigger position is a full, independent board. */
    hs_board_t big, small, dst;
    hs_rng_t rng;
    hs_rng_seed(&rng, 99);
    hs_board_init(&big, 19);
    for (int i = 0; i < 200 && big.num_empty; i++) {
        hs_point_t p = big.empty[hs_rng_below(&rng, (uint32_t)big.num_empty)];
        hs_board_play(&big, big.to_move, p, 0, NULL);
    }
    hs_board_init(&small, 9);
    for (int i = 0; i < 30; i++) {
        hs_point_t p = small.empty[hs_rng_below(&rng, (uint32_t)small.num_empty)];
        hs_board_play(&small, small.to_move, p, 0, NULL);
    }
    dst = big;
    hs_board_copy(&dst, &small);
    s_check_ok(&dst);
    HS_CHECK(hs_board_key(&dst) == hs_board_key(&small));
    HS_CHECK(!memcmp(dst.color, small.color, (size_t)hs_board_num_points(&small)));
    HS_CHECK_INT(dst.size, 9);
    HS_CHECK_INT(dst.num_empty, small.num_empty);
    /* Playing on the copy leaves the original alone and follows the same rules. */
    hs_board_t twin = small;
    for (int i = 0; i < 20; i++) {
        hs_point_t p = dst.empty[hs_rng_below(&rng, (uint32_t)dst.num_empty)];
        int a = hs_board_play(&dst, dst.to_move, p, 0, NULL);
        int b = hs_board_play(&twin, twin.to_move, p, 0, NULL);
        HS_CHECK_INT(a, b);
    }
    HS_CHECK(hs_board_key(&dst) == hs_board_key(&twin));
    HS_CHECK(!memcmp(dst.color, twin.color, (size_t)hs_board_num_points(&twin)));
    s_check_ok(&dst);
    hs_board_t again;
    hs_board_init(&again, 9);
    /* Neighbour counts. */
    HS_CHECK_INT(hs_board_nbr_count(&again, hs_board_point(&again, 0, 0), HS_OFFBOARD), 2);
    HS_CHECK_INT(hs_board_nbr_count(&again, hs_board_point(&again, 0, 0), HS_EMPTY), 2);
    HS_CHECK_INT(hs_board_nbr_count(&again, hs_board_point(&again, 4, 4), HS_EMPTY), 4);
    hs_board_play(&again, HS_BLACK, hs_board_point(&again, 4, 3), 0, NULL);
    HS_CHECK_INT(hs_board_nbr_count(&again, hs_board_point(&again, 4, 4), HS_BLACK), 1);
    HS_CHECK_INT(hs_board_nbr_count(&again, hs_board_point(&again, 4, 4), HS_EMPTY), 3);
}

/* ---- random games against a naive reference ---------------------------- */

typedef struct {
    int size, stride;
    uint8_t c[HS_BOARD_MAX_POINTS];
} s_ref_t;

static int s_ref_flood(const s_ref_t *r, int p, uint8_t *seen, int *stones, int n_stones_max)
{
    /* Returns liberties (with duplicates removed) of the string through p. */
    int stack[HS_BOARD_MAX_POINTS], sp = 0, libs = 0, ns = 0;
    uint8_t lib_seen[HS_BOARD_MAX_POINTS] = { 0 };
    int col = r->c[p];
    stack[sp++] = p;
    seen[p] = 1;
    while (sp) {
        int s = stack[--sp];
        if (ns < n_stones_max)
            stones[ns] = s;
        ns++;
        const int nb[4] = { s - r->stride, s - 1, s + 1, s + r->stride };
        for (int i = 0; i < 4; i++) {
            int q = nb[i];
            if (r->c[q] == HS_EMPTY && !lib_seen[q]) {
                lib_seen[q] = 1;
                libs++;
            } else if (r->c[q] == col && !seen[q]) {
                seen[q] = 1;
                stack[sp++] = q;
            }
        }
    }
    stones[n_stones_max - 1] = ns;  /* count in the last slot */
    return libs;
}

static void s_ref_remove_if_dead(s_ref_t *r, int p)
{
    uint8_t seen[HS_BOARD_MAX_POINTS] = { 0 };
    int stones[HS_BOARD_MAX_POINTS + 1];
    if (r->c[p] != HS_BLACK && r->c[p] != HS_WHITE)
        return;
    int libs = s_ref_flood(r, p, seen, stones, HS_BOARD_MAX_POINTS + 1);
    if (libs == 0)
        for (int i = 0; i < stones[HS_BOARD_MAX_POINTS]; i++)
            r->c[stones[i]] = HS_EMPTY;
}

static void s_ref_play(s_ref_t *r, int color, int p)
{
    r->c[p] = (uint8_t)color;
    const int nb[4] = { p - r->stride, p - 1, p + 1, p + r->stride };
    for (int i = 0; i < 4; i++)
        if (r->c[nb[i]] == 3 - color)
            s_ref_remove_if_dead(r, nb[i]);
    s_ref_remove_if_dead(r, p);
}

static void test_random_games(void)
{
    static const struct { int size, games; } plan[] = {
        { 2, 1500 }, { 3, 1500 }, { 5, 800 }, { 9, 300 }, { 13, 80 }, { 19, 40 }, { 25, 15 },
    };
    hs_rng_t rng;
    hs_rng_seed(&rng, 20261129);
    long moves = 0, checks_failed = 0, ref_mismatch = 0, legal_mismatch = 0, kos = 0;
    long zero_libs = 0, suicides = 0, caps = 0;
    for (size_t k = 0; k < sizeof plan / sizeof plan[0]; k++) {
        for (int g = 0; g < plan[k].games; g++) {
            hs_board_t b;
            hs_board_init(&b, plan[k].size);
            unsigned flags = (g % 3 == 2) ? HS_PLAY_SUICIDE_OK : 0;
            s_ref_t ref = { .size = b.size, .stride = b.stride };
            memcpy(ref.c, b.color, sizeof ref.c);
            int limit = 3 * b.size * b.size + 10;
            while (b.passes < 2 && b.move_number < limit) {
                hs_color_t c = b.to_move;
                hs_point_t mv = HS_PASS;
                /* Try random empty points; probe legality against play. */
                int n = b.num_empty;
                int start = n ? (int)hs_rng_below(&rng, (uint32_t)n) : 0;
                for (int i = 0; i < n; i++) {
                    hs_point_t p = b.empty[(start + i) % n];
                    if (hs_board_is_eye(&b, p, c) && hs_rng_below(&rng, 8) != 0)
                        continue;
                    hs_illegal_t why = hs_board_legal(&b, c, p, flags);
                    if (why != HS_LEGAL) {
                        hs_board_t copy = b;
                        hs_illegal_t why2;
                        if (hs_board_play(&copy, c, p, flags, &why2) != HS_EILLEGAL || why2 != why
                            || memcmp(&copy, &b, sizeof b))
                            legal_mismatch++;
                        continue;
                    }
                    mv = p;
                    break;
                }
                if (mv != HS_PASS && hs_rng_below(&rng, 50) == 0)
                    mv = HS_PASS;
                int before_caps = b.captures[1] + b.captures[2];
                if (hs_board_play(&b, c, mv, flags, NULL) != 0) {
                    legal_mismatch++;
                    break;
                }
                caps += b.captures[1] + b.captures[2] - before_caps;
                if (b.ko != HS_NO_POINT)
                    kos++;
                if (mv != HS_PASS) {
                    s_ref_play(&ref, c, mv);
                    if (b.color[mv] == HS_EMPTY)
                        suicides++;
                }
                moves++;
                hs_error_t err;
                if (hs_board_check(&b, &err) != 0) {
                    if (checks_failed++ == 0)
                        fprintf(stderr, "size %d game %d move %d: %s\n", b.size, g, b.move_number,
                                err.msg);
                }
                if (memcmp(ref.c, b.color, (size_t)hs_board_num_points(&b))) {
                    if (ref_mismatch++ == 0)
                        fprintf(stderr, "size %d game %d move %d: differs from reference\n", b.size,
                                g, b.move_number);
                }
                for (int i = 0; i < hs_board_num_points(&b); i++)
                    if ((b.color[i] == HS_BLACK || b.color[i] == HS_WHITE) && hs_board_libs(&b, (hs_point_t)i) == 0)
                        zero_libs++;
                /* Occasionally exercise setup stones mid-game (then resync the reference). */
                if (hs_rng_below(&rng, 200) == 0 && b.num_empty > 0) {
                    hs_point_t p = b.empty[hs_rng_below(&rng, (uint32_t)b.num_empty)];
                    hs_board_set_stone(&b, p, c);
                    ref.c[p] = (uint8_t)c;
                    if (hs_board_check(&b, &err) != 0 && checks_failed++ == 0)
                        fprintf(stderr, "after setup: %s\n", err.msg);
                    /* A setup may leave a string without liberties; clear it like a capture
                     * would not, so play on from a normal position. */
                    for (int i = 0; i < hs_board_num_points(&b); i++)
                        if ((b.color[i] == HS_BLACK || b.color[i] == HS_WHITE)
                            && hs_board_libs(&b, (hs_point_t)i) == 0) {
                            hs_board_set_stone(&b, (hs_point_t)i, HS_EMPTY);
                            ref.c[i] = HS_EMPTY;
                        }
                }
            }
        }
    }
    printf("random games: %ld moves, %ld captured stones, %ld ko positions, %ld suicides\n",
           moves, caps, kos, suicides);
    HS_CHECK_INT(checks_failed, 0);
    HS_CHECK_INT(ref_mismatch, 0);
    HS_CHECK_INT(legal_mismatch, 0);
    HS_CHECK_INT(zero_libs, 0);
    /* The games must actually exercise captures, ko and suicide. */
    HS_CHECK(moves > 100000);
    HS_CHECK(caps > 1000);
    HS_CHECK(kos > 100);
    HS_CHECK(suicides > 10);
}

/* Playouts: the policy only returns legal, non-eye-filling moves (pass only when
 * none exists), games end in two passes, the fast Tromp-Taylor count equals the
 * general area count, and a seed reproduces a playout. */
static void test_playouts(void)
{
    static const int sizes[] = { 2, 3, 5, 7, 9, 13, 19, 25 };
    hs_rules_t tt = hs_rules_get(HS_RULES_TROMP_TAYLOR);
    long bad_pick = 0, missed = 0, bad_count = 0, unfinished = 0, checks = 0, games = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int reps = sizes[k] <= 9 ? 60 : 6;
        for (int g = 0; g < reps; g++) {
            hs_rng_t rng;
            hs_rng_seed(&rng, (uint64_t)(1000 * sizes[k] + g));
            hs_board_t b;
            hs_board_init(&b, sizes[k]);
            /* Step by step, checking each pick against the definitions. */
            int limit = 3 * b.size * b.size;
            while (b.passes < 2 && b.move_number < limit) {
                hs_color_t me = b.to_move;
                hs_point_t p = hs_playout_pick(&b, &rng);
                if (p == HS_PASS) {
                    for (int i = 0; i < b.num_empty; i++) {
                        hs_point_t q = b.empty[i];
                        if (hs_board_legal(&b, me, q, 0) == HS_LEGAL && !hs_board_is_eye(&b, q, me))
                            missed++;
                    }
                    hs_board_play(&b, me, HS_PASS, 0, NULL);
                } else {
                    if (hs_board_legal(&b, me, p, 0) != HS_LEGAL || hs_board_is_eye(&b, p, me))
                        bad_pick++;
                    hs_board_play_legal(&b, me, p);
                }
                if (hs_board_check(&b, NULL) != 0)
                    checks++;
            }
            /* On 2x2 and 3x3 boards ko cycles often run into the move cap
             * (playouts do not check superko); on real sizes games end. */
            if (sizes[k] >= 5)
                unfinished += b.passes < 2;
            hs_score_t s;
            hs_score_area(&b, NULL, 7.5, 0, &tt, &s);
            if (s.margin != hs_score_tromp_taylor(&b, 7.5))
                bad_count++;
            games++;
            /* hs_playout_run from the same seed reaches the same final position. */
            hs_rng_t rng2;
            hs_rng_seed(&rng2, (uint64_t)(1000 * sizes[k] + g));
            hs_board_t c;
            hs_board_init(&c, sizes[k]);
            double m = hs_playout_run(&c, &rng2, 7.5, limit);
            if (m != s.margin || hs_board_key(&c) != hs_board_key(&b))
                bad_count++;
        }
    }
    printf("playouts: %ld games checked move by move\n", games);
    HS_CHECK_INT(bad_pick, 0);
    HS_CHECK_INT(missed, 0);
    HS_CHECK_INT(checks, 0);
    HS_CHECK_INT(bad_count, 0);
    HS_CHECK(unfinished <= games / 50);
    /* Mid-game positions: the fast count agrees with the region fill too. */
    hs_rng_t rng;
    hs_rng_seed(&rng, 5);
    int differ = 0;
    for (int g = 0; g < 200; g++) {
        hs_board_t b;
        hs_board_init(&b, 9);
        int stop = (int)hs_rng_below(&rng, 120);
        for (int i = 0; i < stop && b.passes < 2; i++) {
            hs_point_t p = hs_playout_pick(&b, &rng);
            hs_board_play(&b, b.to_move, p, 0, NULL);
        }
        hs_score_t s;
        hs_score_area(&b, NULL, 0.5, 0, &tt, &s);
        differ += s.margin != hs_score_tromp_taylor(&b, 0.5);
    }
    HS_CHECK_INT(differ, 0);
}

int main(void)
{
    test_init_and_names();
    test_capture_and_merge();
    test_ko_and_pass();
    test_suicide();
    test_hash_and_setup();
    test_batched_setup();
    test_eye_and_ascii();
    test_copy();
    test_random_games();
    test_playouts();
    return hs_test_finish();
}
