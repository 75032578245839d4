/*
 * tests/test_report_explorer.c — the report's position explorer (`report
 * --board FILE --move N`, reports/report_board.c) on a store of 9x9 games:
 *   g1 (alice-bob, 2020)  B E5, W C7, B G3, W C3 ...
 *   h1 (carol-dave, 2021) B E5, W C7, B G3, W pass, B C3 ...
 *   h2 (erin-frank, 2022) as h1, then another reply
 *   101 more (2000-2015) that open elsewhere.
 * After move 3 the board index (which does not key the side to move) has C3
 * played next by Black in h1 and h2 and by White in g1; the board is
 * symmetric about its A9-J1 diagonal, so C3 comes back as its image G7.
 *  a. One label per point: C3's two moves share one label "A/B" (each letter
 *     drawn alone put the less played one on top of the other); the table
 *     keeps both moves.
 *  b. The games list: one row per game with its id (32 hex, as `query` and
 *     board.json print it), players, date and result, newest first; at the
 *     empty board (104 games) the first 100, and a note that board.json
 *     (linked) holds all of them.
 *  c. With a selection (hs__report_board_sel, the selection's ids) only its
 *     games are listed, each linked to its page.
 *  d. The caption is the file's name, not its path; a caption too long for
 *     the picture is shrunk, then cut in the middle: no ink at the PNG's edges.
 */
#include <cairo.h>

#include "core/buf.h"
#include "core/board.h"
#include "reports/html_internal.h"
#include "reports/picture.h"
#include "store/store.h"
#include "test.h"

/* reports/report_board.c: the explorer with the selection's ids (sorted). */
int hs__report_board_sel(hs__report_ctx_t *c, FILE *page, const uint64_t (*sel)[2],
                         int64_t num_sel);

static char s_tmp[256];

static int s_count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = hay; hay && (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

static void s_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* The whole file as a string (malloc'd), or NULL. */
static char *s_read(const char *path)
{
    char *p = NULL;
    size_t n;
    return hs_buf_read_file(path, 0, &p, &n, NULL) == 0 ? p : NULL;
}

/* The part of text from the first start to the end mark after it (a copy). */
static char *s_cut(const char *text, const char *start, const char *end)
{
    const char *a = text ? strstr(text, start) : NULL;
    const char *b = a ? strstr(a, end) : NULL;
    if (!b)
        return strdup("");
    return strndup(a, (size_t)(b - a) + strlen(end));
}

/* The three games of the opening, 101 others, in s_tmp/games/deep/path. */
static void s_games(void)
{
    static const char *const games[3][2] = {
        {"g1", "(;GM[1]FF[4]SZ[9]KM[7]PB[alice]PW[bob]DT[2020-01-01]RE[B+R];B[ee];W[cc];B[gg]"
               ";W[cg];B[gc])\n"},
        {"h1", "(;GM[1]FF[4]SZ[9]KM[7]PB[carol]PW[dave]DT[2021-01-01]RE[W+R];B[ee];W[cc];"
               "B[gg];W[];B[cg];W[gc])\n"},
        {"h2", "(;GM[1]FF[4]SZ[9]KM[7]PB[erin]PW[frank]DT[2022-01-01]RE[W+R];B[ee];W[cc];"
               "B[gg];W[];B[cg];W[ge])\n"},
    };
    char path[512], text[512];
    snprintf(path, sizeof path, "mkdir -p %s/games/deep/path/to/the/records/of/some/club", s_tmp);
    HS_CHECK_INT(system(path), 0);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/games/deep/path/to/the/records/of/some/club/%s.sgf",
                 s_tmp, games[i][0]);
        s_write(path, games[i][1]);
    }
    const char *pts = "abcfghi";   /* rows and columns off D6 (dd) */
    for (int i = 0; i < 101; i++) {
        int x = i % 49, y = (i / 49 + i + 1) % 49;
        snprintf(path, sizeof path, "%s/games/f%03d.sgf", s_tmp, i);
        snprintf(text, sizeof text, "(;GM[1]FF[4]SZ[9]KM[7]PB[p%03d]PW[q%03d]DT[%d-01-01]"
                 "RE[B+R];B[dd];W[%c%c];B[%c%c])\n", i, i, 2000 + i % 16, pts[x % 7],
                 pts[x / 7], pts[y % 7], pts[y / 7]);
        s_write(path, text);
    }
}

/* a, b (the list) and d (the caption) through `hyeongse report`. */
static void test_explorer_cli(void)
{
    char cmd[4096], path[512];
    snprintf(cmd, sizeof cmd, "%s report --db %s/db --board "
             "%s/games/deep/path/to/the/records/of/some/club/g1.sgf --move 3 --out %s/r3 "
             "--format html,svg,json --quiet >> %s/report.out 2>&1", getenv("HS_BIN"), s_tmp,
             s_tmp, s_tmp, s_tmp);
    HS_CHECK_INT(system(cmd), 0);
    snprintf(path, sizeof path, "%s/r3/svg/board-query.svg", s_tmp);
    char *svg = s_read(path);
    HS_CHECK(svg != NULL);
    /* a: one label, both letters, the more played first */
    HS_CHECK_INT(s_count(svg, "class=\"label\""), 1);
    HS_CHECK(strstr(svg, ">A/B</text>") != NULL);
    /* d: the caption names the file, not the folders above it */
    HS_CHECK(strstr(svg, ">g1.sgf after move 3</text>") != NULL);
    HS_CHECK(strstr(svg, "club/g1.sgf") == NULL);
    free(svg);
    snprintf(path, sizeof path, "%s/r3/index.html", s_tmp);
    char *html = s_read(path);
    char *next = s_cut(html, "id=\"board-next\"", "</table>");
    HS_CHECK(strstr(next, "<tr><td>A</td><td>G7</td><td>B</td><td>2</td>") != NULL);
    HS_CHECK(strstr(next, "<tr><td>B</td><td>G7</td><td>W</td><td>1</td>") != NULL);
    HS_CHECK(strstr(next, "<tr><td></td><td>pass</td><td>W</td><td>2</td>") != NULL);
    /* b: one row per game (h1 and h2 stood there after moves 3 and 4), newest
     * first, with players, date, result and id */
    char *list = s_cut(html, "id=\"board-games\"", "</table>");
    HS_CHECK_INT(s_count(list, "<tr><td>"), 3);
    const char *e = strstr(list, "erin &ndash; frank"), *c = strstr(list, "carol &ndash; dave"),
               *a = strstr(list, "alice &ndash; bob");
    HS_CHECK(e && c && a && e < c && c < a);
    HS_CHECK(strstr(list, "<td>2022-01-01</td><td>W+R</td><td>3, 4</td><td><code>") != NULL);
    HS_CHECK(strstr(list, "<td>2020-01-01</td><td>B+R</td><td>3</td><td><code>") != NULL);
    HS_CHECK(strstr(list, "<a href") == NULL);     /* no selection: no game pages written */
    HS_CHECK(strstr(html, "reached in 3 stored games (any orientation; 5 times in all)") != NULL);
    /* each id as board.json (query --board --json) prints it */
    snprintf(path, sizeof path, "%s/r3/board.json", s_tmp);
    char *json = s_read(path);
    int ids = 0;
    for (const char *p = list; (p = strstr(p, "<code>")); p += 6) {
        char want[48];
        snprintf(want, sizeof want, "\"game\":\"%.32s\"", p + 6);
        HS_CHECK(strstr(json, want) != NULL);
        HS_CHECK(strspn(p + 6, "0123456789abcdef") == 32 && p[38] == '<');
        ids++;
    }
    HS_CHECK_INT(ids, 3);
    free(json);
    free(list);
    free(next);
    free(html);
}

/* b: past the cap, the note and board.json hold the rest. */
static void test_cap(void)
{
    char cmd[4096], path[512];
    snprintf(cmd, sizeof cmd, "%s report --db %s/db --board %s/games/f000.sgf --move 0 "
             "--out %s/r0 --format html,json --quiet >> %s/report.out 2>&1", getenv("HS_BIN"),
             s_tmp, s_tmp, s_tmp, s_tmp);
    HS_CHECK_INT(system(cmd), 0);
    snprintf(path, sizeof path, "%s/r0/index.html", s_tmp);
    char *html = s_read(path);
    char *list = s_cut(html, "id=\"board-games\"", "</table>");
    HS_CHECK_INT(s_count(list, "<tr><td>"), 100);
    HS_CHECK_INT(s_count(list, "<code>"), 100);
    HS_CHECK(strstr(list, "erin &ndash; frank") < strstr(list, "carol &ndash; dave"));
    HS_CHECK(strstr(list, "p015 &ndash; q015") != NULL);   /* 2015, the newest filler */
    HS_CHECK(strstr(html, "The first 100 of 104 games (newest first) are listed.") != NULL);
    HS_CHECK(strstr(html, "All 104 stored games that reached this board") != NULL);
    HS_CHECK(strstr(html, "<a href=\"board.json\">board.json</a>") != NULL);
    HS_CHECK(strstr(html, " more games.") == NULL);
    snprintf(path, sizeof path, "%s/r0/board.json", s_tmp);
    char *json = s_read(path);
    HS_CHECK_INT(s_count(json, "\"game\":\""), 104);
    free(json);
    free(list);
    free(html);
}

static int s_add_id(void *ctx, const uint64_t id[2])
{
    uint64_t *out = ctx;
    out[0] = id[0], out[1] = id[1];
    return 0;
}

/* c: with a selection, only its games, linked to their pages. */
static void test_selection(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/db", s_tmp);
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (!s)
        return;
    uint64_t sel[1][2] = { { 0, 0 } };
    HS_CHECK_INT(hs_store_games_by_player(s, "alice", s_add_id, sel[0], &err), 0);
    static hs_board_t b;
    hs_board_init(&b, 9);
    const int moves[3][3] = { { HS_BLACK, 4, 4 }, { HS_WHITE, 2, 2 }, { HS_BLACK, 6, 6 } };
    for (int i = 0; i < 3; i++)
        HS_CHECK_INT(hs_board_play(&b, moves[i][0], hs_board_point(&b, moves[i][1], moves[i][2]),
                                   0, NULL), 0);
    snprintf(dir, sizeof dir, "%s/rsel", s_tmp);
    hs_report_opts_t o = { .out_dir = dir, .board = &b, .board_name = "club/g1.sgf after move 3" };
    hs_report_summary_t sum = { 0 };
    hs__report_ctx_t c = { .store = s, .o = &o, .formats = HS_REPORT_HTML, .board_px = 300,
                           .sum = &sum, .err = &err };
    FILE *page = tmpfile();
    HS_CHECK_INT(hs__report_board_sel(&c, page, sel, 1), 0);
    long n = ftell(page);
    rewind(page);
    char *html = calloc(1, (size_t)n + 1);
    HS_CHECK_INT(fread(html, 1, (size_t)n, page), n);
    fclose(page);
    char *list = s_cut(html, "id=\"board-games\"", "</table>");
    HS_CHECK_INT(s_count(list, "<tr><td>"), 1);
    char want[128];
    snprintf(want, sizeof want, "<a href=\"games/%016llx%016llx.html\">alice &ndash; bob</a>",
             (unsigned long long)sel[0][0], (unsigned long long)sel[0][1]);
    HS_CHECK(strstr(list, want) != NULL);
    HS_CHECK(strstr(html, "this report&rsquo;s: 1 of those 3") != NULL);
    /* the moves played next still count every stored game */
    HS_CHECK(strstr(html, "<tr><td>A</td><td>G7</td><td>B</td><td>2</td>") != NULL);
    free(list);
    free(html);
    /* a selection with none of these games: an empty list */
    page = tmpfile();
    HS_CHECK_INT(hs__report_board_sel(&c, page, NULL, 0), 0);
    n = ftell(page);
    rewind(page);
    html = calloc(1, (size_t)n + 1);
    HS_CHECK_INT(fread(html, 1, (size_t)n, page), n);
    fclose(page);
    list = s_cut(html, "id=\"board-games\"", "</table>");
    HS_CHECK_INT(s_count(list, "<tr><td>"), 0);
    HS_CHECK(strstr(html, "this report&rsquo;s: 0 of those 3") != NULL);
    free(list);
    free(html);
    hs_store_close(&s);
}

/* d: a caption too long for the picture: shrunk and cut, never past its edges. */
static void test_long_caption(void)
{
    static uint8_t st[19 * 19];
    char cap[200];
    memset(cap, 'x', sizeof cap - 1);
    memcpy(cap, "pro19/fox-pro/9p/", 17);
    memcpy(cap + sizeof cap - 20, "sgf after move 123", 19);
    hs_board_pic_t p = { .size = 19, .stones = st, .last_x = -1, .last_y = -1,
                         .caption = cap, .width_px = 360 };
    char *out;
    size_t len;
    hs_error_t err;
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &out, &len, &err), 0);
    HS_CHECK(strstr(out, "pro19/fox") != NULL);            /* its start, */
    HS_CHECK(strstr(out, "\xe2\x80\xa6") != NULL);         /* a cut, */
    HS_CHECK(strstr(out, "after move 123</text>") != NULL);  /* and its end */
    free(out);
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_PNG, &out, &len, &err), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/caption.png", s_tmp);
    FILE *f = fopen(path, "wb");
    fwrite(out, 1, len, f);
    fclose(f);
    free(out);
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    HS_CHECK_INT(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img), ink = 0, edge = 0;
    const unsigned char *px = cairo_image_surface_get_data(img);
    for (int y = 360; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t v = *(const uint32_t *)(px + y * stride + 4 * x) & 0xffffffu;
            ink += v != 0xffffff;
            edge += v != 0xffffff && (x < 3 || x >= w - 3);
        }
    HS_CHECK(ink > 100);       /* the caption is drawn */
    HS_CHECK_INT(edge, 0);     /* and stays inside */
    cairo_surface_destroy(img);

    /* a caption that fits is drawn as it is */
    p.caption = "g1.sgf after move 3";
    HS_CHECK_INT(hs_board_pic_draw(&p, HS_OVERLAY_NONE, HS_PIC_SVG, &out, &len, &err), 0);
    HS_CHECK(strstr(out, ">g1.sgf after move 3</text>") != NULL);
    HS_CHECK(strstr(out, "font-size=\"14.4\"") != NULL);
    free(out);
}

int main(void)
{
    if (!getenv("HS_BIN")) {
        printf("SKIP: HS_BIN (the hyeongse program) is not set\n");
        return 77;
    }
    snprintf(s_tmp, sizeof s_tmp, "/tmp/hs-test-explorer-XXXXXX");
    if (!mkdtemp(s_tmp)) {
        perror("mkdtemp");
        return 1;
    }
    s_games();
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s analyze %s/games --db %s/db --engines judge --threads 1 "
             "--quiet > %s/analyze.out 2>&1", getenv("HS_BIN"), s_tmp, s_tmp, s_tmp);
    HS_CHECK_INT(system(cmd), 0);
    test_explorer_cli();
    test_cap();
    test_selection();
    test_long_caption();
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_tmp);
    if (hs_test_failed == 0 && system(cmd) != 0)
        printf("could not remove %s\n", s_tmp);
    return hs_test_finish();
}
