/*
 * tests/test_picture_compact.c — a board's SVG stays small (reports/canvas_svg.c):
 * a report inlines a few maps per game and thousands of games, and before the
 * compact writer an ownership map of a pro game was ~95 KB, 58% of it the
 * light-grey crosses of dame points, each two <polyline>s repeating their style.
 *
 *  1. A 19x19 ownership map where every empty point is dame: under 30 KB (it
 *     was 72 KB), its dame crosses a constant number of elements whatever the
 *     board size, each point's two strokes still in them (one "M" each), and
 *     the SVG is well-formed XML (python3's xml.etree, when python3 is here).
 *  2. Runs of one style share it: the stones are bare circles inside a <g>
 *     that carries their fill and stroke, each circle keeping its class.
 *  3. hs_canvas_segments draws on the PNG exactly what as many
 *     hs_canvas_line calls draw (the same bytes), translucent colour included.
 */
#include <math.h>

#include "core/board.h"
#include "reports/canvas.h"
#include "reports/picture.h"
#include "test.h"

/* Occurrences of needle in hay. */
static int s_count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* A board of size n: a few stones in the corners, every empty point dame
 * (class '.', ownership under 5), so each gets a grey cross. Returns the
 * number of dame points. */
static int s_dame_board(int n, uint8_t *st, int8_t *own, char *cls)
{
    int dame = 0;
    for (int i = 0; i < n * n; i++) {
        int x = i % n, y = i / n;
        bool corner = (x < 3 || x >= n - 3) && (y < 3 || y >= n - 3) && (x + y) % 2 == 0;
        st[i] = !corner ? HS_EMPTY : x < n / 2 ? HS_BLACK : HS_WHITE;
        own[i] = (int8_t)(!corner ? (i % 9) - 4 : st[i] == HS_BLACK ? 90 : -90);
        cls[i] = !corner ? '.' : st[i] == HS_BLACK ? 'b' : 'w';
        dame += !corner;
    }
    return dame;
}

/* SVGs kept for one python3 run at the end (its start is slow on a loaded
 * machine). */
static char s_xml_paths[4][32];
static int s_xml_n;

static void s_xml_keep(const char *svg, size_t len)
{
    char *path = s_xml_paths[s_xml_n];
    snprintf(path, sizeof s_xml_paths[0], "/tmp/hs_test_svg_XXXXXX");
    int fd = mkstemp(path);
    HS_CHECK(fd >= 0);
    if (fd < 0)
        return;
    HS_CHECK(write(fd, svg, len) == (ssize_t)len);
    close(fd);
    s_xml_n++;
}

/* Every kept SVG is well-formed XML to python3's parser (when python3 is
 * here: it is the check the tester ran). */
static void s_xml_check(void)
{
    char cmd[512] = "python3 -c 'import sys, xml.etree.ElementTree as E\n"
                    "for p in sys.argv[1:]: E.parse(p)'";
    for (int i = 0; i < s_xml_n; i++) {
        strcat(cmd, " ");
        strcat(cmd, s_xml_paths[i]);
    }
    if (system("python3 -c pass 2>/dev/null") != 0)
        printf("no python3: the XML check is skipped\n");
    else
        HS_CHECK_INT(system(cmd), 0);
    for (int i = 0; i < s_xml_n; i++)
        unlink(s_xml_paths[i]);
}

static void test_dame_map(void)
{
    enum { N = 19 };
    static uint8_t st[N * N];
    static int8_t own[N * N];
    static char cls[N * N];
    int dame = s_dame_board(N, st, own, cls);
    hs_board_pic_t p = {.size = N, .stones = st, .last_x = -1, .last_y = -1, .ownership = own,
                        .classes = cls, .width_px = 300, .caption = "Move 50: ownership"};
    char *svg;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_OWNERSHIP, HS_PIC_SVG, &svg, &len, &err), 0);
    printf("19x19 map with %d dame points: %zu bytes of SVG\n", dame, len);
    HS_CHECK(dame > 300);
    HS_CHECK(len < 30 * 1024);
    /* O(1) elements for the crosses: one path per stroke direction */
    int dame_elems = s_count(svg, "class=\"dame\"");
    HS_CHECK(dame_elems >= 1 && dame_elems <= 2);
    HS_CHECK_INT(s_count(svg, "<polyline"), 0);
    HS_CHECK_INT(s_count(svg, "<line"), 19);           /* the wood's grain only */
    /* each dame point's two strokes are in the paths: one moveto each */
    int moves = 0;
    for (const char *q = svg; (q = strstr(q, "<path d=\"")); q++) {
        const char *end = strchr(q + 9, '"');
        const char *tag_end = strchr(q, '>');
        bool is_dame = tag_end && strstr(q, "class=\"dame\"") &&
                       strstr(q, "class=\"dame\"") < tag_end;
        for (const char *c = q + 9; is_dame && c < end; c++)
            moves += *c == 'M';
    }
    HS_CHECK_INT(moves, 2 * dame);
    HS_CHECK_INT(s_count(svg, "<g"), s_count(svg, "</g>"));
    s_xml_keep(svg, len);
    free(svg);

    /* the same on 9x9: as many elements for its fewer crosses */
    static uint8_t st9[81];
    static int8_t own9[81];
    static char cls9[81];
    s_dame_board(9, st9, own9, cls9);
    p.size = 9, p.stones = st9, p.ownership = own9, p.classes = cls9;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_OWNERSHIP, HS_PIC_SVG, &svg, &len, &err), 0);
    HS_CHECK_INT(s_count(svg, "class=\"dame\""), dame_elems);
    s_xml_keep(svg, len);
    free(svg);
}

static void test_style_runs(void)
{
    enum { N = 19 };
    static uint8_t st[N * N];
    int stones = 0;
    for (int i = 0; i < N * N; i++) {
        st[i] = (i * 7) % 5 == 0 ? HS_BLACK : (i * 7) % 5 == 1 ? HS_WHITE : HS_EMPTY;
        stones += st[i] != HS_EMPTY;
    }
    hs_board_pic_t p = {.size = N, .stones = st, .last_x = 3, .last_y = 3, .width_px = 300};
    char *svg;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &svg, &len, &err), 0);
    printf("19x19 board with %d stones: %zu bytes of SVG\n", stones, len);
    /* a stone's style is said once per run, not once per stone */
    HS_CHECK(s_count(svg, "<circle") > 2 * stones);           /* shadows, stones, stars */
    HS_CHECK(s_count(svg, "stroke=\"#6e6e6e\"") <= 2);
    HS_CHECK(s_count(svg, "url(#") <= 4);
    HS_CHECK(len < 400 + 120 * (size_t)stones + 6000);
    /* each stone still one circle with its class, its centre on its point */
    HS_CHECK_INT(s_count(svg, "class=\"stone b\"") + s_count(svg, "class=\"stone w\""), stones);
    const char *q = strstr(svg, "class=\"stone w\"");
    HS_CHECK(q != NULL);
    while (q && q > svg && *q != '<')
        q--;
    HS_CHECK(q && !strncmp(q, "<circle cx=\"", 12));
    HS_CHECK_INT(s_count(svg, "<g"), s_count(svg, "</g>"));
    s_xml_keep(svg, len);
    free(svg);
}

/* The same strokes drawn as lines or as segments on the PNG. */
static void s_draw_strokes(bool segments, char **png, size_t *len)
{
    hs_canvas_t *c;
    hs_error_t err;
    HS_CHECK_INT(hs_canvas_open(&c, HS_PIC_PNG, 120, 80, &err), 0);
    hs_canvas_rect(c, 0, 0, 120, 80, &(hs_paint_t){.fill = HS_RGB(0xdcb35c)});
    double xy[4 * 12];
    for (int i = 0; i < 12; i++) {
        double cx = 10 + 9.3 * i, cy = 20 + 3.7 * (i % 5), h = 2.7;
        int dir = i % 2 ? 1 : -1;
        const double seg[4] = {cx - h, cy - dir * h, cx + h, cy + dir * h};
        memcpy(xy + 4 * i, seg, sizeof seg);
    }
    hs_rgba_t grey = HS_RGBA(0x707070, 0xb0);
    if (segments)
        hs_canvas_segments(c, xy, 12, grey, 1.1, "dame");
    for (int i = 0; i < 12 && !segments; i++)
        hs_canvas_line(c, xy[4 * i], xy[4 * i + 1], xy[4 * i + 2], xy[4 * i + 3], grey, 1.1,
                       "dame");
    HS_CHECK_INT(hs_canvas_finish(c, png, len, &err), 0);
}

static void test_segments_png(void)
{
    char *a, *b;
    size_t la, lb;
    s_draw_strokes(false, &a, &la);
    s_draw_strokes(true, &b, &lb);
    HS_CHECK(la > 0 && la == lb && !memcmp(a, b, la));
    free(a);
    free(b);
}

int main(void)
{
    test_dame_map();
    test_style_runs();
    test_segments_png();
    s_xml_check();
    return hs_test_finish();
}
