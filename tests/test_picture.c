/*
 * tests/test_picture.c — reports/picture.h: boards and graphs as SVG and PNG.
 *
 *  1. Bad arguments are HS_EINVAL with a message and no output.
 *  2. SVG: starts with <svg, ends with </svg>, balanced groups and texts, one
 *     element of class "stone b" / "stone w" per stone, the last move ring,
 *     labels, the caption, XML specials escaped, no external references.
 *  3. Ownership: one square per owned empty point (|ownership| >= 5, not
 *     seki), at the right points; dead stones (class letters or ownership
 *     against the stone beyond -50) crossed; dame and seki crossed in grey.
 *  4. Influence: the influence points of a two-stone 9x9 position worked out
 *     by hand from Park's stone powers; lumps, cores and areas of a hand-made
 *     SI map; and on random positions the dots, cores and areas equal
 *     worker/influence.h's own derivation.
 *  5. PNG (decoded by cairo): its size, many colours, dark at a black stone's
 *     centre and light at a white stone's.
 *  6. Graphs: gaps at NAN and a new run where the source changes (polylines
 *     counted), marks only at valid moves, the legend of the sources used;
 *     histograms: one bar per non-empty bin; both also as PNG.
 */
#include <cairo.h>
#include <math.h>

#include "core/board.h"
#include "core/rng.h"
#include "reports/picture.h"
#include "test.h"
#include "worker/influence.h"

#define N9 9

/* Occurrences of needle in hay. */
static int s_count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* A 9x9 position from 9 rows of X (black), O (white), . (empty). */
static void s_stones(const char *rows, uint8_t *st)
{
    for (int i = 0; i < N9 * N9; i++)
        st[i] = rows[i] == 'X' ? HS_BLACK : rows[i] == 'O' ? HS_WHITE : HS_EMPTY;
}

/* The board point (x, y) of each element of class cls in a board SVG of width
 * w and size n (its cx/cy or x/y: the element's centre), set in mark[]. */
static int s_points_of(const char *svg, const char *cls, int w, int n, uint8_t *mark)
{
    double c = w / (n + 2.0), x0 = 1.5 * c;
    char needle[64];
    snprintf(needle, sizeof needle, "class=\"%s\"", cls);
    int k = 0;
    memset(mark, 0, (size_t)n * n);
    for (const char *p = svg; (p = strstr(p, needle)); p += strlen(needle)) {
        const char *start = p;
        while (start > svg && *start != '<')
            start--;
        double cx, cy, ww = 0, hh = 0;
        if (!strncmp(start, "<circle", 7)) {
            if (sscanf(strstr(start, "cx=\""), "cx=\"%lf\" cy=\"%lf\"", &cx, &cy) != 2)
                return -1;
        } else if (!strncmp(start, "<rect", 5)) {
            if (sscanf(strstr(start, "x=\""), "x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\"",
                       &cx, &cy, &ww, &hh) != 4)
                return -1;
            cx += ww / 2, cy += hh / 2;
        } else {
            return -1;
        }
        int x = (int)lround((cx - x0) / c), y = (int)lround((cy - x0) / c);
        if (x < 0 || x >= n || y < 0 || y >= n || fabs(x0 + x * c - cx) > 0.2 ||
            fabs(x0 + y * c - cy) > 0.2)
            return -1;
        mark[y * n + x] = 1;
        k++;
    }
    return k;
}

static void test_bad_arguments(void)
{
    uint8_t st[N9 * N9] = {0};
    int8_t own[N9 * N9] = {0};
    hs_board_pic_t p = {.size = N9, .stones = st, .last_x = -1, .last_y = -1, .width_px = 300};
    char *out = (char *)"x";
    size_t len = 7;
    hs_error_t err;
    struct { hs_board_pic_t p; hs_board_overlay_t o; } bad[9];
    for (int i = 0; i < 9; i++)
        bad[i].p = p, bad[i].o = HS_OVERLAY_NONE;
    bad[0].p.size = 1;
    bad[1].p.size = 26;
    bad[2].p.width_px = 99;
    bad[3].p.stones = NULL;
    bad[4].o = HS_OVERLAY_OWNERSHIP;                      /* no ownership */
    bad[5].o = HS_OVERLAY_INFLUENCE;                      /* no influence */
    bad[6].p.last_x = 9, bad[6].p.last_y = 0;
    bad[7].p.num_labels = 2;                              /* labels NULL */
    bad[8].p.ownership = own, bad[8].p.tau = -1, bad[8].o = HS_OVERLAY_OWNERSHIP;
    for (int i = 0; i < 9; i++) {
        for (int f = 0; f < 2; f++) {
            hs_error_clear(&err);
            HS_CHECK_INT(hs_board_pic_draw(&bad[i].p, bad[i].o, f, &out, &len, &err), HS_EINVAL);
            HS_CHECK_INT(err.code, HS_EINVAL);
            HS_CHECK(err.msg[0] != 0);
            HS_CHECK(out == NULL && len == 0);
        }
    }
    HS_CHECK_INT(hs_board_pic_draw(NULL, HS_OVERLAY_NONE, HS_PIC_SVG, &out, &len, &err), HS_EINVAL);
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, (hs_pic_format_t)7, &out, &len, &err),
                 HS_EINVAL);
    HS_CHECK(out == NULL);

    float v[3] = {1, 2, 3};
    hs_graph_t g = {.values = v, .n = 3, .width_px = 300, .height_px = 150};
    g.n = 0;
    HS_CHECK_INT(hs_graph_draw(&g, HS_PIC_SVG, &out, &len, &err), HS_EINVAL);
    HS_CHECK(err.msg[0] != 0 && out == NULL);
    g.n = 3, g.width_px = 99;
    HS_CHECK_INT(hs_graph_draw(&g, HS_PIC_PNG, &out, &len, &err), HS_EINVAL);
    g.width_px = 300, g.values = NULL;
    HS_CHECK_INT(hs_graph_draw(&g, HS_PIC_SVG, &out, &len, &err), HS_EINVAL);
    int64_t counts[2] = {1, 2};
    HS_CHECK_INT(hs_histogram_draw("t", "x", counts, 0, 0, 1, 300, 150, HS_PIC_SVG, &out, &len,
                                   &err), HS_EINVAL);
    HS_CHECK_INT(hs_histogram_draw("t", "x", counts, 2, 1, 1, 300, 150, HS_PIC_SVG, &out, &len,
                                   &err), HS_EINVAL);
    HS_CHECK_INT(hs_histogram_draw("t", "x", counts, 2, 0, 1, 99, 150, HS_PIC_PNG, &out, &len,
                                   &err), HS_EINVAL);
    HS_CHECK(out == NULL);
}

static const char s_pos[] =
    "........."
    "..X...O.."
    "..XO..O.."
    "...O....."
    "....X...."
    "........."
    "..X...O.."
    "..X......"
    ".........";

static void test_svg_board(void)
{
    uint8_t st[N9 * N9];
    s_stones(s_pos, st);
    hs_board_label_t labels[2] = {{0, 0, "12"}, {4, 4, "A"}};
    hs_board_pic_t p = {.size = N9, .stones = st, .last_x = 4, .last_y = 4, .labels = labels,
                        .num_labels = 2, .caption = "Move 5 <B & W>", .width_px = 330};
    char *svg;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK(!strncmp(svg, "<svg", 4));
    HS_CHECK_INT(strlen(svg), len);
    const char *end = svg + len;
    while (end > svg && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    HS_CHECK(end - svg > 6 && !strncmp(end - 6, "</svg>", 6));
    HS_CHECK_INT(s_count(svg, "<svg"), 1);
    HS_CHECK_INT(s_count(svg, "<g"), s_count(svg, "</g>"));
    HS_CHECK_INT(s_count(svg, "<text"), s_count(svg, "</text>"));
    HS_CHECK_INT(s_count(svg, "class=\"stone b\""), 5);
    HS_CHECK_INT(s_count(svg, "class=\"stone w\""), 5);
    HS_CHECK_INT(s_count(svg, "class=\"last\""), 1);
    HS_CHECK_INT(s_count(svg, "class=\"label\""), 2);
    HS_CHECK_INT(s_count(svg, "class=\"star\""), 5);            /* 9x9: 5 star points */
    HS_CHECK(strstr(svg, "Move 5 &lt;B &amp; W&gt;") != NULL);
    HS_CHECK(strstr(svg, "href") == NULL && strstr(svg, "@import") == NULL);
    HS_CHECK(strstr(svg, "sans-serif") != NULL);
    /* coordinates: no I, 9..1 */
    HS_CHECK(strstr(svg, ">J</text>") != NULL && strstr(svg, ">I</text>") == NULL);
    uint8_t mark[N9 * N9];
    HS_CHECK_INT(s_points_of(svg, "stone b", 330, N9, mark), 5);
    for (int i = 0; i < N9 * N9; i++)
        HS_CHECK_INT(mark[i], st[i] == HS_BLACK);
    free(svg);

    /* a caption that is not UTF-8 (a bad byte, a control) is cleaned, not fatal */
    p.caption = "Lee \xff\xc3 Sedol\x01!";
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK(strstr(svg, ">Lee ?? Sedol !</text>") != NULL);
    free(svg);
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_PNG, &svg, &len, &err), 0);
    free(svg);
    p.caption = "\xec\x9d\xb4\xec\x84\xb8\xeb\x8f\x8c";   /* 이세돌 passes through */
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK(strstr(svg, ">\xec\x9d\xb4\xec\x84\xb8\xeb\x8f\x8c</text>") != NULL);
    free(svg);

    /* star points by size: 13x13 and 19x19 */
    static uint8_t big[19 * 19];
    p = (hs_board_pic_t){.size = 19, .stones = big, .last_x = -1, .last_y = -1, .width_px = 300};
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"star\""), 9);
    HS_CHECK(strstr(svg, ">T</text>") && strstr(svg, ">19</text>"));
    free(svg);
    p.size = 13;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"star\""), 5);
    free(svg);
}

static void test_ownership(void)
{
    uint8_t st[N9 * N9];
    s_stones(s_pos, st);
    int8_t own[N9 * N9];
    char cls[N9 * N9];
    /* Left half Black's, right half White's, the centre column open; the
     * black stone at (4,4) stands in White's area (ownership -80): dead. */
    for (int y = 0; y < N9; y++)
        for (int x = 0; x < N9; x++) {
            int i = y * N9 + x;
            own[i] = (int8_t)(x < 4 ? 90 - 10 * x : x > 4 ? -(20 + 10 * (x - 5)) : (y % 2) * 4);
            cls[i] = st[i] == HS_BLACK ? 'b' : st[i] == HS_WHITE ? 'w' : x < 4 ? 'B' : x > 4 ? 'W' : '.';
        }
    for (int i = 0; i < N9 * N9; i++)      /* stones: their own side's */
        if (st[i])
            own[i] = (int8_t)(st[i] == HS_BLACK ? 90 : -90);
    own[4 * N9 + 4] = -80;                 /* the black stone at (4,4): dead by ownership */
    cls[3 * N9 + 3] = 'y';                 /* the white stone at (3,3): dead by class */
    cls[8 * N9 + 0] = 's';                 /* a seki point, though owned */
    hs_board_pic_t p = {.size = N9, .stones = st, .last_x = -1, .last_y = -1, .ownership = own,
                        .classes = cls, .width_px = 330};
    char *svg;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_OWNERSHIP, HS_PIC_SVG, &svg, &len, &err), 0);
    uint8_t mark[N9 * N9];
    int owned_b = 0, owned_w = 0;
    for (int i = 0; i < N9 * N9; i++)
        if (st[i] == HS_EMPTY && cls[i] != 's' && abs(own[i]) >= 5)
            own[i] > 0 ? owned_b++ : owned_w++;
    HS_CHECK_INT(owned_b, 4 * 9 - 6 - 1);   /* columns 0..3 less 6 stones, less the seki point */
    HS_CHECK_INT(s_points_of(svg, "own b", 330, N9, mark), owned_b);
    for (int i = 0; i < N9 * N9; i++)
        HS_CHECK_INT(mark[i], st[i] == HS_EMPTY && cls[i] != 's' && own[i] >= 5);
    HS_CHECK_INT(s_points_of(svg, "own w", 330, N9, mark), owned_w);
    for (int i = 0; i < N9 * N9; i++)
        HS_CHECK_INT(mark[i], st[i] == HS_EMPTY && own[i] <= -5);
    /* each kind of cross is two paths (one per stroke direction), one moveto
     * per stroke; a dead stone's cross is in its owner's colour: two kinds */
    HS_CHECK_INT(s_count(svg, "class=\"dead\""), 2 * 2);
    HS_CHECK_INT(s_count(svg, "class=\"seki\""), 2);
    HS_CHECK_INT(s_count(svg, "class=\"dame\""), 2);
    HS_CHECK_INT(s_count(svg, "<path d=\"M"), 2 * 4 + 3);   /* and the grid's three */
    int strokes = 0;
    for (const char *q = svg; (q = strstr(q, "<path d=\"")); q++)
        for (const char *c = q + 9; *c != '"'; c++)
            strokes += *c == 'M';
    /* 2 dead + 1 seki + 8 dame crosses (centre column, 9 less the stone), the
     * grid's 9 + 9 lines */
    HS_CHECK_INT(strokes, 2 * (2 + 1 + 8) + 2 * 9);
    free(svg);

    /* without classes: ownership alone decides, and dead is beyond -50 */
    p.classes = NULL;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_OWNERSHIP, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"dead\""), 2 * 1);
    HS_CHECK_INT(s_count(svg, "class=\"own b\""), owned_b + 1);   /* the seki point is owned now */
    free(svg);
}

/* Counts of one class letter group in an influence SVG. */
static void s_check_influence(const char *svg, const hs_influence_t *inf, const uint8_t *st,
                              int n, int w)
{
    uint8_t mark[25 * 25];
    HS_CHECK_INT(s_points_of(svg, "ip b", w, n, mark), inf->ip_count[HS_BLACK]);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            HS_CHECK_INT(mark[y * n + x], inf->ip[(x + 1) + (y + 1) * (n + 1)] > 0);
    HS_CHECK_INT(s_points_of(svg, "ip w", w, n, mark), inf->ip_count[HS_WHITE]);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            HS_CHECK_INT(mark[y * n + x], inf->ip[(x + 1) + (y + 1) * (n + 1)] < 0);
    HS_CHECK_INT(s_count(svg, "class=\"core b\""), inf->core_count[HS_BLACK]);
    HS_CHECK_INT(s_count(svg, "class=\"core w\""), inf->core_count[HS_WHITE]);
    HS_CHECK_INT(s_points_of(svg, "ia b", w, n, mark), inf->ia_count[HS_BLACK]);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            HS_CHECK_INT(mark[y * n + x], inf->ia[(x + 1) + (y + 1) * (n + 1)] > 0);
    HS_CHECK_INT(s_count(svg, "class=\"ia w\""), inf->ia_count[HS_WHITE]);
    (void)st;
}

static void test_influence_by_hand(void)
{
    /* Two black stones one point apart on row 4: by Park's powers (own 100, a
     * line step 100/1, 100/2, 100/3; a diagonal (1,1) 100/sqrt(2) = 70.7, a
     * knight (2,1) 100/sqrt(5) = 44.7):
     *   (4,4) between them: 100 + 100            = 200  IP
     *   (4,3), (4,5): 70.7 + 70.7                = 141  IP (tau 140)
     *   (3,3), (5,3), (3,5), (5,5): 100 + 44.7   = 145  IP
     *   (2,4), (6,4): 100 + 33.3                 = 133  no
     *   (4,2): 44.7 + 44.7                       =  89  no
     * Seven IPs in one lump with no 2x2 core: no influence area. */
    static const char rows[] =
        "........."
        "........."
        "........."
        "........."
        "...X.X..."
        "........."
        "........."
        "........."
        ".........";
    uint8_t st[N9 * N9];
    s_stones(rows, st);
    static hs_board_t b;
    hs_board_init(&b, N9);
    for (int i = 0; i < N9 * N9; i++)
        if (st[i])
            hs_board_set_stone(&b, hs_board_point(&b, i % N9, i / N9), st[i]);
    int16_t si_b[HS_BOARD_MAX_POINTS], si[N9 * N9];
    hs_influence_si(&b, NULL, si_b);
    for (int i = 0; i < N9 * N9; i++)
        si[i] = si_b[hs_board_point(&b, i % N9, i / N9)];
    HS_CHECK_INT(si[4 * N9 + 4], 200);
    HS_CHECK_INT(si[3 * N9 + 4], 141);
    hs_board_pic_t p = {.size = N9, .stones = st, .last_x = -1, .last_y = -1, .influence = si,
                        .width_px = 330};
    char *svg;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_INFLUENCE, HS_PIC_SVG, &svg, &len, &err), 0);
    uint8_t mark[N9 * N9], want[N9 * N9] = {0};
    const int ips[7][2] = {{4, 4}, {4, 3}, {4, 5}, {3, 3}, {5, 3}, {3, 5}, {5, 5}};
    for (int k = 0; k < 7; k++)
        want[ips[k][1] * N9 + ips[k][0]] = 1;
    HS_CHECK_INT(s_points_of(svg, "ip b", 330, N9, mark), 7);
    for (int i = 0; i < N9 * N9; i++)
        HS_CHECK_INT(mark[i], want[i]);
    HS_CHECK_INT(s_count(svg, "class=\"ip w\""), 0);
    HS_CHECK_INT(s_count(svg, "class=\"core b\""), 0);
    HS_CHECK_INT(s_count(svg, "class=\"ia b\""), 0);
    HS_CHECK_INT(s_count(svg, "class=\"lump\""), 6);   /* the links of the lump's 7 points */
    free(svg);
    /* tau 142: (4,3) and (4,5) at 141 drop out, and the lump splits */
    p.tau = 142;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_INFLUENCE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"ip b\""), 5);
    HS_CHECK_INT(s_count(svg, "class=\"lump\""), 0);
    free(svg);

    /* A hand-made SI map: a black 2x2 block with a tail (one lump with a core:
     * all 6 of its points are area), a black line of 3 (a lump, no core, no
     * area), a white 3x2 block (2 cores, 6 area points), a point at exactly
     * -tau (an IP), one at tau - 1 (none), and a stone under SI 300 (never). */
    int16_t map[N9 * N9] = {0};
    const int8_t pts[][3] = {
        {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {3, 1, 1},
        {6, 0, 1}, {7, 0, 1}, {8, 0, 1},
        {0, 6, -1}, {1, 6, -1}, {2, 6, -1}, {0, 7, -1}, {1, 7, -1}, {2, 7, -1},
        {8, 8, -1},
    };
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++)
        map[pts[k][1] * N9 + pts[k][0]] = (int16_t)(pts[k][2] * 140);
    map[5 * N9 + 8] = 139;
    memset(st, 0, sizeof st);
    st[4 * N9 + 4] = HS_WHITE;
    map[4 * N9 + 4] = 300;
    p = (hs_board_pic_t){.size = N9, .stones = st, .last_x = -1, .last_y = -1, .influence = map,
                         .width_px = 330};
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_INFLUENCE, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"ip b\""), 9);
    HS_CHECK_INT(s_count(svg, "class=\"ip w\""), 7);
    HS_CHECK_INT(s_count(svg, "class=\"core b\""), 1);
    HS_CHECK_INT(s_count(svg, "class=\"core w\""), 2);
    HS_CHECK_INT(s_points_of(svg, "ia b", 330, N9, mark), 6);
    for (int i = 0; i < N9 * N9; i++)
        HS_CHECK_INT(mark[i], i < 2 || (i >= N9 && i < N9 + 4));
    HS_CHECK_INT(s_count(svg, "class=\"ia w\""), 6);
    free(svg);
}

/* Random positions: the overlay's dots, cores and areas are those of
 * worker/influence.h's derivation from the same board. */
static void test_influence_random(void)
{
    hs_rng_t rng;
    hs_rng_seed(&rng, 14);
    static hs_board_t b;
    static hs_influence_t inf;
    const int sizes[3] = {9, 13, 19};
    for (int round = 0; round < 12; round++) {
        int n = sizes[round % 3];
        hs_board_init(&b, n);
        uint8_t st[25 * 25] = {0};
        int16_t si[25 * 25];
        for (int i = 0; i < n * n; i++) {
            uint32_t r = hs_rng_below(&rng, 100);
            st[i] = r < 12 ? HS_BLACK : r < 22 ? HS_WHITE : HS_EMPTY;
            if (st[i])
                hs_board_set_stone(&b, hs_board_point(&b, i % n, i / n), st[i]);
        }
        int tau = round < 6 ? 140 : 100;
        hs_error_t err;
        HS_CHECK_INT(hs_influence_compute(&b, NULL, tau, &inf, &err), 0);
        for (int i = 0; i < n * n; i++)
            si[i] = inf.si[hs_board_point(&b, i % n, i / n)];
        hs_board_pic_t p = {.size = n, .stones = st, .last_x = -1, .last_y = -1, .influence = si,
                            .tau = tau, .width_px = 400};
        char *svg;
        size_t len;
        HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_INFLUENCE, HS_PIC_SVG, &svg, &len, &err), 0);
        s_check_influence(svg, &inf, st, n, 400);
        free(svg);
    }
}

typedef struct s_reader { const unsigned char *p; size_t len, at; } s_reader_t;

static cairo_status_t s_read(void *closure, unsigned char *data, unsigned int length)
{
    s_reader_t *r = closure;
    if (r->len - r->at < length)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->p + r->at, length);
    r->at += length;
    return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *s_decode(const char *png, size_t len)
{
    s_reader_t r = {(const unsigned char *)png, len, 0};
    return cairo_image_surface_create_from_png_stream(s_read, &r);
}

static uint32_t s_pixel(cairo_surface_t *s, int x, int y)
{
    const unsigned char *d = cairo_image_surface_get_data(s);
    return *(const uint32_t *)(d + (size_t)y * cairo_image_surface_get_stride(s) + 4 * (size_t)x);
}

static int s_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int s_distinct_colours(cairo_surface_t *s)
{
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s), k = 0;
    uint32_t *px = malloc(sizeof *px * (size_t)w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            px[y * w + x] = s_pixel(s, x, y);
    qsort(px, (size_t)w * h, sizeof *px, s_cmp_u32);
    for (int i = 0; i < w * h; i++)
        k += !i || px[i] != px[i - 1];
    free(px);
    return k;
}

/* Luma of a pixel (cairo's ARGB32 is premultiplied, opaque here). */
static int s_luma(uint32_t px)
{
    return (int)((((px >> 16) & 0xff) * 299 + ((px >> 8) & 0xff) * 587 + (px & 0xff) * 114) / 1000);
}

static void test_png_board(void)
{
    uint8_t st[N9 * N9];
    s_stones(s_pos, st);
    for (int plain = 0; plain < 2; plain++) {
        hs_board_pic_t p = {.size = N9, .stones = st, .last_x = 6, .last_y = 2,
                            .caption = plain ? "plain" : NULL, .width_px = 300, .plain = plain};
        char *png;
        size_t len;
        hs_error_t err;
        HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_PNG, &png, &len, &err), 0);
        HS_CHECK(len > 8 && !memcmp(png, "\x89PNG\r\n\x1a\n", 8));
        cairo_surface_t *s = s_decode(png, len);
        HS_CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
        HS_CHECK_INT(cairo_image_surface_get_width(s), 300);
        if (plain)
            HS_CHECK(cairo_image_surface_get_height(s) > 300);
        else
            HS_CHECK_INT(cairo_image_surface_get_height(s), 300);
        HS_CHECK(s_distinct_colours(s) > 50);
        double c = 300 / 11.0, x0 = 1.5 * c;
        for (int i = 0; i < N9 * N9; i++) {
            if (!st[i] || i == 2 * N9 + 6)
                continue;
            int luma = s_luma(s_pixel(s, (int)(x0 + (i % N9) * c), (int)(x0 + (i / N9) * c)));
            if (st[i] == HS_BLACK)
                HS_CHECK(luma < 90);
            else
                HS_CHECK(luma > 200);
        }
        /* an empty point away from lines and stones shows the board */
        int board = s_luma(s_pixel(s, (int)(x0 + 7.5 * c), (int)(x0 + 7.5 * c)));
        HS_CHECK(board > 120 && board < 245);
        cairo_surface_destroy(s);
        free(png);
    }
    /* a PNG of each overlay decodes too */
    int8_t own[N9 * N9];
    int16_t si[N9 * N9];
    for (int i = 0; i < N9 * N9; i++)
        own[i] = (int8_t)(i % N9 < 4 ? 80 : -80), si[i] = (int16_t)(i % N9 < 4 ? 200 : -200);
    hs_board_pic_t p = {.size = N9, .stones = st, .last_x = -1, .last_y = -1, .ownership = own,
                        .influence = si, .width_px = 120};
    for (int o = HS_OVERLAY_OWNERSHIP; o <= HS_OVERLAY_INFLUENCE; o++) {
        char *png;
        size_t len;
        hs_error_t err;
        HS_CHECK_INT(hs_board_pic_draw(&p, (hs_board_overlay_t)o, HS_PIC_PNG, &png, &len, &err), 0);
        cairo_surface_t *s = s_decode(png, len);
        HS_CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
        HS_CHECK_INT(cairo_image_surface_get_width(s), 120);
        cairo_surface_destroy(s);
        free(png);
    }
}

static void test_graph(void)
{
    enum { N = 20 };
    float v[N];
    uint8_t src[N];
    for (int m = 0; m < N; m++)
        v[m] = 50 + 2.0f * m, src[m] = m < 15 ? 0 : 1;
    v[5] = v[12] = NAN;
    /* runs: 0-4, 6-11, 13-14 (source 0), 14-19 (source 1, joined at 14) */
    const char *names[3] = {"MCTS", "net", "judge"};
    int marks[4] = {3, 5, 17, 40};   /* 5 is a gap and 40 is past the end: not drawn */
    hs_graph_t g = {.title = "Win rate <Black>", .unit = "%", .values = v, .n = N, .source = src,
                    .source_names = names, .num_sources = 3, .y_min = 0, .y_max = 100,
                    .y_mid = 50, .marks = marks, .num_marks = 4, .width_px = 400,
                    .height_px = 200};
    char *svg;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_graph_draw(&g, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK(!strncmp(svg, "<svg", 4) && strstr(svg, "</svg>"));
    HS_CHECK_INT(s_count(svg, "<polyline"), 4);
    HS_CHECK_INT(s_count(svg, "class=\"mark\""), 2);
    HS_CHECK(strstr(svg, ">17</text>") != NULL);
    HS_CHECK(strstr(svg, ">MCTS</text>") && strstr(svg, ">net</text>"));
    HS_CHECK(strstr(svg, ">judge</text>") == NULL);       /* no value came from it */
    HS_CHECK(strstr(svg, "Win rate &lt;Black&gt;") != NULL);
    HS_CHECK(strstr(svg, ">0%</text>") && strstr(svg, ">40%</text>") && strstr(svg, ">100%</text>"));
    HS_CHECK_INT(s_count(svg, "class=\"mid\""), 1);
    HS_CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
    free(svg);

    /* points, range from the data (symmetric), a lone value between gaps */
    for (int m = 0; m < N; m++)
        v[m] = (m == 8) ? -7.0f : (m == 7 || m == 9) ? NAN : (float)m - 10;
    g.unit = "points", g.y_min = g.y_max = 0, g.y_mid = 0, g.source = NULL;
    HS_CHECK_INT(hs_graph_draw(&g, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "<polyline"), 2);
    HS_CHECK(strstr(svg, ">+10</text>") && strstr(svg, ">-10</text>"));
    free(svg);

    HS_CHECK_INT(hs_graph_draw(&g, HS_PIC_PNG, &svg, &len, &err), 0);
    cairo_surface_t *s = s_decode(svg, len);
    HS_CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    HS_CHECK_INT(cairo_image_surface_get_width(s), 400);
    HS_CHECK_INT(cairo_image_surface_get_height(s), 200);
    HS_CHECK(s_distinct_colours(s) > 20);
    cairo_surface_destroy(s);
    free(svg);

    int64_t counts[6] = {3, 0, 10, 7, 0, 1};
    HS_CHECK_INT(hs_histogram_draw("Loss", "points", counts, 6, 0, 3, 300, 150, HS_PIC_SVG, &svg,
                                   &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"bar\""), 4);
    HS_CHECK(strstr(svg, ">Loss</text>") && strstr(svg, ">points</text>"));
    free(svg);
    HS_CHECK_INT(hs_histogram_draw("Loss", NULL, counts, 6, 0, 3, 300, 150, HS_PIC_PNG, &svg,
                                   &len, &err), 0);
    s = s_decode(svg, len);
    HS_CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(s);
    free(svg);
}

/* Every <text>'s extent (0.6 em a character, as graph.c estimates it, from
 * its anchor) lies within 0..w; texts counted in *n. */
static bool s_texts_fit(const char *svg, double w, int *n)
{
    *n = 0;
    for (const char *p = svg; (p = strstr(p, "<text ")); p++) {
        double x = 0, fs = 0;
        const char *a = strstr(p, " x=\""), *s = strstr(p, "font-size=\"");
        const char *gt = strchr(p, '>'), *end = strstr(p, "</text>");
        if (!a || !s || !gt || !end)
            return false;
        x = atof(a + 4), fs = atof(s + 11);
        double tw = 0.6 * fs * (double)(end - gt - 1);
        const char *anchor = strstr(p, "text-anchor=\"");
        double left = x;
        if (anchor && anchor < gt)
            left = !strncmp(anchor + 13, "end", 3) ? x - tw : x - tw / 2;
        if (left < 0 || left + tw > w)
            return false;
        (*n)++;
    }
    return true;
}

/* A loss histogram of a big archive (bin 0 ~40x the next, the last bins
 * under 100): counts labelled "1.5M", "200k", never "1.5e+06", every label
 * inside the picture, every bin a visible bar (a log count axis, said). */
static void test_histogram_scale(void)
{
    int64_t counts[20] = { 1600000, 38567, 21000, 12000, 9000, 6000, 4000, 3000, 2000, 1500,
                           1000, 800, 600, 400, 300, 200, 150, 120, 100, 86 };
    char *svg = NULL;
    size_t len = 0;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_histogram_draw("Point loss per move", "points", counts, 20, 0, 10, 420,
                                   200, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK(svg && !strstr(svg, "e+"));            /* 1.5M, 200k: no e-notation */
    int n = 0;
    HS_CHECK(svg && s_texts_fit(svg, 420, &n));     /* no label cut at an edge */
    HS_CHECK(n > 8);
    HS_CHECK(svg && strstr(svg, "log scale"));      /* the axis says it is one */
    HS_CHECK_INT(svg ? s_count(svg, "class=\"bar\"") : 0, 20);
    /* every bin shows: its bar at least 1 px tall */
    for (const char *p = svg; p && (p = strstr(p, "class=\"bar\"")); p++) {
        const char *h = p;
        while (h > svg && strncmp(h, "<rect", 5))
            h--;
        h = strstr(h, " height=\"");
        HS_CHECK(h && atof(h + 9) >= 1);
    }
    free(svg);

    /* A linear count axis labels big counts as "1.5M", not "1.5e+06". */
    int64_t flat[3] = { 1500000, 1200000, 900000 };
    HS_CHECK_INT(hs_histogram_draw("t", NULL, flat, 3, 0, 3, 300, 150, HS_PIC_SVG, &svg, &len,
                                   &err), 0);
    HS_CHECK(svg && !strstr(svg, "e+") && !strstr(svg, "log scale"));
    HS_CHECK(svg && (strstr(svg, ">1.5M</text>") || strstr(svg, ">1M</text>")));
    HS_CHECK(svg && s_texts_fit(svg, 300, &n));
    free(svg);
}

int main(void)
{
    test_bad_arguments();
    test_svg_board();
    test_ownership();
    test_influence_by_hand();
    test_influence_random();
    test_png_board();
    test_graph();
    test_histogram_scale();
    return hs_test_finish();
}
