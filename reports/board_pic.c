/*
 * reports/board_pic.c — hs_board_pic_draw (reports/picture.h): a Go board with
 * its stones and, on top, the ownership or influence overlay, drawn once
 * through reports/canvas.h for both SVG and PNG.
 *
 * Layout: the grid's cell is c = width / (N + 2); the outer 1.5 cells hold the
 * coordinates on all four sides (A..T without I, N..1 from the top), so the
 * picture reads like a printed diagram. Sizes of lines, fonts and marks follow
 * c with floors, so a 19x19 board stays legible at 300 px (c ~ 14 px).
 * Park's influence derivation from the stored SI is in board_influence.c.
 *
 * Shapes of one kind are drawn together (every shadow, then the black stones,
 * then the white; each kind of ownership cross as two hs_canvas_segments), so
 * the SVG says their style once and a map of a pro game stays ~25 KB.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "reports/board_pic_internal.h"

/* Empty points whose |ownership| is under this get no square: a square
 * narrower than 5% of a cell is a speck, not information. */
#define S_OWN_MIN 5

/* The smallest a caption is shrunk to fit before its middle is cut: still
 * read at a glance. */
#define S_CAPTION_MIN_PX 10

static const char s_letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";   /* no I, as on boards */

static double s_max(double a, double b) { return a > b ? a : b; }

static double s_px(const hs__board_geom_t *g, int x) { return g->x0 + x * g->c; }
static double s_py(const hs__board_geom_t *g, int y) { return g->y0 + y * g->c; }

/* Star points: the corner stars (on the 4-4 from 12x12 up, the 3-3 from 7x7
 * up), the side stars on odd boards from 15x15 up, and the centre of odd
 * boards: 9x9 and 13x13 get 5, 19x19 gets 9. */
static int s_star_points(int n, int *xs, int *ys)
{
    int k = 0, e = n >= 12 ? 3 : n >= 7 ? 2 : -1, f = n - 1 - e, m = n / 2;
    if (e >= 0) {
        const int c[4][2] = {{e, e}, {f, e}, {e, f}, {f, f}};
        for (int i = 0; i < 4; i++)
            xs[k] = c[i][0], ys[k++] = c[i][1];
    }
    if (n >= 15 && n % 2) {
        const int c[4][2] = {{m, e}, {e, m}, {f, m}, {m, f}};
        for (int i = 0; i < 4; i++)
            xs[k] = c[i][0], ys[k++] = c[i][1];
    }
    if (n % 2 && n >= 5)
        xs[k] = m, ys[k++] = m;
    return k;
}

static void s_wood(hs_canvas_t *cv, const hs__board_geom_t *g)
{
    hs_paint_t bg = {.fill = HS_RGB(0xdcb35c), .cls = "wood"};
    hs_canvas_rect(cv, 0, 0, g->w, g->w, &bg);
    /* A faint grain: long, slightly slanted bands from a fixed small LCG, so
     * the same board always gets the same wood. */
    uint32_t r = 12345u;
    int bands = 10 + g->n / 2;
    for (int i = 0; i < bands; i++) {
        double lw = s_max(1.5, g->c * (0.2 + 0.15 * (i % 4)));
        /* both ends stay on the board (not in the caption's band below) */
        double m = g->w / 20.0 + lw, span = g->w - 2 * m;
        r = r * 1103515245u + 12345u;
        double y = m + span * ((r >> 8) % 1000) / 1000.0;
        r = r * 1103515245u + 12345u;
        double dy = g->w * (((double)((r >> 8) % 200) - 100.0) / 2000.0);
        dy = y + dy < m || y + dy > g->w - m ? -dy : dy;
        hs_rgba_t col = (i % 3) ? HS_RGBA(0xa06a20, 0x22) : HS_RGBA(0xf2d68a, 0x38);
        hs_canvas_line(cv, 0, y, g->w, y + dy, col, lw, NULL);
    }
}

/* Line i of the grid as two segments (its vertical, then its horizontal). */
static void s_grid_line(const hs__board_geom_t *g, int i, double *xy)
{
    const double lo = g->x0, hi = s_px(g, g->n - 1), at = s_px(g, i);
    const double v[8] = {at, lo, at, hi, lo, at, hi, at};
    memcpy(xy, v, sizeof v);
}

static void s_grid(hs_canvas_t *cv, const hs__board_geom_t *g, bool plain)
{
    const int n = g->n;
    double lw = fmin(1.6, s_max(0.7, g->c * 0.055));
    hs_rgba_t ink = plain ? HS_RGB(0x303030) : HS_RGB(0x2b1d0a);
    /* Three paths (the first edge, the inner lines, the last edge, heavier):
     * the lines in the order they were drawn one by one, so the PNG's
     * crossings have the same pixels. */
    double xy[4 * 2 * HS_BOARD_MAX_SIZE];
    hs_canvas_group(cv, "grid");
    s_grid_line(g, 0, xy);
    hs_canvas_segments(cv, xy, 2, ink, lw * 1.8, NULL);
    for (int i = 1; i < n - 1; i++)
        s_grid_line(g, i, xy + 8 * (i - 1));
    hs_canvas_segments(cv, xy, 2 * (n - 2), ink, lw, NULL);
    s_grid_line(g, n - 1, xy);
    hs_canvas_segments(cv, xy, 2, ink, lw * 1.8, NULL);
    int xs[16], ys[16], k = s_star_points(n, xs, ys);
    hs_paint_t star = {.fill = ink, .cls = "star"};
    for (int i = 0; i < k; i++)
        hs_canvas_circle(cv, s_px(g, xs[i]), s_py(g, ys[i]), s_max(1.6, g->c * 0.12), &star);
    hs_canvas_group_end(cv);
}

static void s_coords(hs_canvas_t *cv, const hs__board_geom_t *g, bool plain)
{
    const int n = g->n;
    double fs = fmin(16, s_max(7, g->c * 0.48)), off = g->c * 1.0;
    hs_font_t f = {.size = fs, .anchor = HS_ANCHOR_MIDDLE,
                   .color = plain ? HS_RGB(0x404040) : HS_RGB(0x3d2b10)};
    hs_canvas_group(cv, "coords");
    for (int i = 0; i < n; i++) {
        char t[12] = {s_letters[i], 0};
        double x = s_px(g, i), far = s_py(g, n - 1);
        hs_canvas_text(cv, x, g->y0 - off + 0.35 * fs, &f, t);
        hs_canvas_text(cv, x, far + off + 0.35 * fs, &f, t);
        snprintf(t, sizeof t, "%d", n - i);
        double y = s_py(g, i) + 0.35 * fs;
        hs_canvas_text(cv, g->x0 - off, y, &f, t);
        hs_canvas_text(cv, s_px(g, n - 1) + off, y, &f, t);
    }
    hs_canvas_group_end(cv);
}

static void s_stones(hs_canvas_t *cv, const hs__board_geom_t *g, const hs_board_pic_t *p)
{
    const int n = g->n;
    double r = g->c * 0.48;
    /* Light from the upper left: the focus of each stone's gradient and the
     * shadow toward the lower right give the "subtle edge" of real stones. */
    int gb = hs_canvas_gradient(cv, HS_RGB(0x5c5c5c), HS_RGB(0x0b0b0b), 0.35, 0.3);
    int gw = hs_canvas_gradient(cv, HS_RGB(0xffffff), HS_RGB(0xcfccc4), 0.35, 0.3);
    hs_paint_t shadow = {.fill = HS_RGBA(0x000000, 0x38)};
    hs_paint_t black = {.fill = HS_RGB(0x111111), .stroke = HS_RGB(0x000000),
                        .width = s_max(0.5, g->c * 0.03), .gradient = gb, .cls = "stone b"};
    hs_paint_t white = {.fill = HS_RGB(0xf4f4f0), .stroke = HS_RGB(0x6e6e6e),
                        .width = s_max(0.6, g->c * 0.04), .gradient = gw, .cls = "stone w"};
    hs_canvas_group(cv, "stones");
    /* Every shadow, then the black stones, then the white: runs of one style,
     * which the SVG writes once. A shadow reaches only its right and lower
     * neighbours, which were drawn after it before too. */
    for (int i = 0; i < n * n; i++)
        if (p->stones[i] == HS_BLACK || p->stones[i] == HS_WHITE)
            hs_canvas_circle(cv, s_px(g, i % n) + g->c * 0.05, s_py(g, i / n) + g->c * 0.06, r,
                             &shadow);
    for (int side = HS_BLACK; side <= HS_WHITE; side++)
        for (int i = 0; i < n * n; i++)
            if (p->stones[i] == side)
                hs_canvas_circle(cv, s_px(g, i % n), s_py(g, i / n), r,
                                 side == HS_BLACK ? &black : &white);
    if (p->last_x >= 0) {
        uint8_t s = p->stones[p->last_y * n + p->last_x];
        hs_paint_t ring = {.stroke = s == HS_BLACK ? HS_RGB(0xffffff)
                                   : s == HS_WHITE ? HS_RGB(0x111111) : HS_RGB(0xd02020),
                           .width = s_max(1.2, g->c * 0.08), .cls = "last"};
        hs_canvas_circle(cv, s_px(g, p->last_x), s_py(g, p->last_y), g->c * 0.26, &ring);
    }
    hs_canvas_group_end(cv);
}

/* The crosses of the ownership overlay, by kind: each kind one colour, size
 * and width, drawn as two paths (one per stroke direction). */
typedef enum s_cross_kind {
    S_CROSS_NONE = 0,
    S_CROSS_DEAD_B,      /* a dead black stone: a white cross */
    S_CROSS_DEAD_W,      /* a dead white stone: a black cross */
    S_CROSS_SEKI,
    S_CROSS_DAME,
    S_CROSS_KINDS
} s_cross_kind_t;

/* Whether the stone at i is dead: its class says so (the judge's letters,
 * worker/judge.h: 'x' a dead black stone, 'o' a dead white one; 'y', which an
 * older text of docs/PROTOCOL.md gave for the white one, is read too), or the
 * owner is the other side by more than half. */
static bool s_dead(const hs_board_pic_t *p, int i)
{
    uint8_t s = p->stones[i];
    char k = p->classes ? p->classes[i] : 0;
    int o = p->ownership[i];
    if (s == HS_BLACK)
        return k == 'x' || o < -50;
    return k == 'o' || k == 'y' || o > 50;
}

static bool s_owned(int o)
{
    return o >= S_OWN_MIN || o <= -S_OWN_MIN;
}

static s_cross_kind_t s_cross_at(const hs_board_pic_t *p, int i)
{
    uint8_t s = p->stones[i];
    char k = p->classes ? p->classes[i] : 0;
    bool stone = s == HS_BLACK || s == HS_WHITE;
    if (stone && s_dead(p, i))
        return s == HS_BLACK ? S_CROSS_DEAD_B : S_CROSS_DEAD_W;
    if (k == 's')
        return S_CROSS_SEKI;
    return k == '.' && !s_owned(p->ownership[i]) ? S_CROSS_DAME : S_CROSS_NONE;
}

/* Every cross of one kind: the strokes down to the right, then those up. A
 * path paints what overlaps in it once, so the two strokes of one light
 * cross, which overlap at its centre, go to two paths: the centre is painted
 * twice, as by two lines, and the SVG matches the PNG. */
static void s_crosses(hs_canvas_t *cv, const hs__board_geom_t *g, const hs_board_pic_t *p,
                      s_cross_kind_t kind)
{
    static const char *const cls[S_CROSS_KINDS] = {NULL, "dead", "dead", "seki", "dame"};
    const int n = g->n;
    double xy[4 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    hs_rgba_t col = kind == S_CROSS_DEAD_B ? HS_RGB(0xffffff)
                  : kind == S_CROSS_DEAD_W ? HS_RGB(0x000000) : HS_RGBA(0x707070, 0xb0);
    /* small and light: mid-game most of the board is dame */
    double w = kind <= S_CROSS_DEAD_W ? s_max(1.2, g->c * 0.1) : s_max(0.8, g->c * 0.05);
    for (int dir = 1; dir >= -1; dir -= 2) {
        int k = 0;
        for (int i = 0; i < n * n; i++) {
            if (s_cross_at(p, i) != kind)
                continue;
            bool stone = p->stones[i] == HS_BLACK || p->stones[i] == HS_WHITE;
            double half = g->c * (kind <= S_CROSS_DEAD_W ? 0.24 : stone ? 0.14 : 0.12);
            double cx = s_px(g, i % n), cy = s_py(g, i / n);
            const double seg[4] = {cx - half, cy - dir * half, cx + half, cy + dir * half};
            memcpy(xy + 4 * k++, seg, sizeof seg);
        }
        hs_canvas_segments(cv, xy, k, col, w, cls[kind]);
    }
}

static void s_ownership(hs_canvas_t *cv, const hs__board_geom_t *g, const hs_board_pic_t *p)
{
    const int n = g->n;
    hs_paint_t sq_b = {.fill = HS_RGBA(0x000000, 0xd8), .cls = "own b"};
    hs_paint_t sq_w = {.fill = HS_RGB(0xffffff), .stroke = HS_RGB(0x505050),
                       .width = s_max(0.5, g->c * 0.035), .cls = "own w"};
    hs_canvas_group(cv, "ownership");
    for (int i = 0; i < n * n; i++) {
        int o = p->ownership[i];
        bool stone = p->stones[i] == HS_BLACK || p->stones[i] == HS_WHITE;
        if (stone || !s_owned(o) || s_cross_at(p, i) != S_CROSS_NONE)
            continue;
        double side = g->c * 0.8 * (o < 0 ? -o : o) / 100.0;
        hs_canvas_rect(cv, s_px(g, i % n) - side / 2, s_py(g, i / n) - side / 2, side, side,
                       o > 0 ? &sq_b : &sq_w);
    }
    /* After the squares: no cross touches a square (they are on other points,
     * a cell apart), so the order between them changes nothing. */
    for (int kind = S_CROSS_DEAD_B; kind < S_CROSS_KINDS; kind++)
        s_crosses(cv, g, p, (s_cross_kind_t)kind);
    hs_canvas_group_end(cv);
}

static void s_labels(hs_canvas_t *cv, const hs__board_geom_t *g, const hs_board_pic_t *p,
                     hs_rgba_t bg)
{
    hs_canvas_group(cv, "labels");
    for (int i = 0; i < p->num_labels; i++) {
        const hs_board_label_t *l = &p->labels[i];
        size_t len = strnlen(l->text, sizeof l->text);
        char t[sizeof l->text + 1];
        memcpy(t, l->text, len);
        t[len] = 0;
        double cx = s_px(g, l->x), cy = s_py(g, l->y);
        double fs = g->c * (len <= 2 ? 0.55 : len == 3 ? 0.44 : 0.34);
        uint8_t s = p->stones[l->y * g->n + l->x];
        hs_rgba_t col = s == HS_BLACK ? HS_RGB(0xffffff) : HS_RGB(0x000000);
        if (s != HS_BLACK && s != HS_WHITE) {   /* hide the grid under the text */
            hs_paint_t disc = {.fill = bg};
            hs_canvas_circle(cv, cx, cy, g->c * 0.4, &disc);
        }
        hs_font_t f = {.size = s_max(6, fs), .bold = true, .anchor = HS_ANCHOR_MIDDLE,
                       .color = col, .cls = "label"};
        hs_canvas_text(cv, cx, cy + 0.36 * f.size, &f, t);
    }
    hs_canvas_group_end(cv);
}

/* A character's advance in em, a little over DejaVu Sans' (what cairo and
 * browsers give "sans-serif" here) so the estimate errs wide: the SVG cannot
 * measure its text, and the PNG must draw what the SVG draws. */
static double s_char_em(unsigned char ch)
{
    if (ch >= 0x80)
        return 1.0;                       /* a lead byte: CJK and the like, full width */
    if (strchr(" .,:;'|!()[]/-_iljtfr", ch))
        return 0.42;
    if (strchr("mwMW@%", ch))
        return 1.0;
    return ch >= 'A' && ch <= 'Z' ? 0.8 : 0.66;
}

/* Width in em of n bytes of UTF-8 (continuation bytes add nothing). */
static double s_text_em(const char *s, size_t n)
{
    double em = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            em += s_char_em((unsigned char)s[i]);
    return em;
}

/* Length of the UTF-8 character that ends at s[end - 1] (1 when broken). */
static size_t s_last_char(const char *s, size_t end)
{
    size_t k = 1;
    while (k < end && k < 4 && ((unsigned char)s[end - k] & 0xc0) == 0x80)
        k++;
    return ((unsigned char)s[end - k] & 0xc0) == 0x80 ? 1 : k;
}

/* Length of the UTF-8 character at s[at] (1 when broken). */
static size_t s_next_char(const char *s, size_t at)
{
    size_t k = 1;
    while (k < 4 && ((unsigned char)s[at + k] & 0xc0) == 0x80)
        k++;
    return k;
}

/* text with its middle cut to "…" so that it is at most max_em wide: as much
 * of its start and end as fit, taken in turn (a caption's start names the
 * file, its end the move). Returns the malloc'd text, or NULL (no memory). */
static char *s_elide(const char *text, double max_em)
{
    static const char dots[] = "\xe2\x80\xa6";   /* U+2026, about 1 em */
    size_t len = strlen(text), head = 0, tail = 0;
    double em = 1.0;
    for (bool front = true, grew = true; grew && head + tail < len; front = !front) {
        size_t k = front ? s_next_char(text, head) : s_last_char(text, len - tail);
        double w = front ? s_text_em(text + head, k) : s_text_em(text + len - tail - k, k);
        grew = head + tail + k <= len && em + w <= max_em;
        if (grew) {
            em += w;
            *(front ? &head : &tail) += k;
        }
    }
    char *out = malloc(head + sizeof dots + tail);
    if (out) {
        memcpy(out, text, head);
        memcpy(out + head, dots, sizeof dots - 1);
        memcpy(out + head + sizeof dots - 1, text + len - tail, tail);
        out[head + sizeof dots - 1 + tail] = 0;
    }
    return out;
}

/* The caption under the board, within the picture's width: its font shrunk
 * down to S_CAPTION_MIN_PX, and past that its middle cut (a long path was
 * clipped on both sides). 0 or HS_ENOMEM. */
static int s_caption(hs_canvas_t *cv, const hs__board_geom_t *g, const char *caption,
                     double fs, hs_error_t *err)
{
    double avail = g->w * 0.94, em = s_text_em(caption, strlen(caption));
    hs_font_t f = {.size = fs, .anchor = HS_ANCHOR_MIDDLE, .color = HS_RGB(0x222222),
                   .cls = "caption"};
    if (em * fs > avail)
        f.size = s_max(S_CAPTION_MIN_PX, avail / em);
    if (em * f.size <= avail) {
        hs_canvas_text(cv, g->w / 2.0, g->w + fs * 1.25, &f, caption);
        return 0;
    }
    char *cut = s_elide(caption, avail / f.size);
    if (!cut)
        return hs_error_set(err, HS_ENOMEM, "board picture: out of memory");
    hs_canvas_text(cv, g->w / 2.0, g->w + fs * 1.25, &f, cut);
    free(cut);
    return 0;
}

static int s_check(const hs_board_pic_t *p, hs_board_overlay_t overlay, hs_error_t *err)
{
    if (!p || !p->stones)
        return hs_error_set(err, HS_EINVAL, "board picture: no %s", p ? "stones" : "board");
    const int n = p->size;
    if (n < HS_BOARD_MIN_SIZE || n > HS_BOARD_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "board picture: size %d outside %d..%d", n,
                            HS_BOARD_MIN_SIZE, HS_BOARD_MAX_SIZE);
    if (p->width_px < 100 || p->width_px > HS_CANVAS_MAX_PX)
        return hs_error_set(err, HS_EINVAL, "board picture: width %d px outside 100..%d",
                            p->width_px, HS_CANVAS_MAX_PX);
    if (overlay == HS_OVERLAY_OWNERSHIP && !p->ownership)
        return hs_error_set(err, HS_EINVAL, "board picture: ownership overlay without ownership");
    if (overlay == HS_OVERLAY_INFLUENCE && !p->influence)
        return hs_error_set(err, HS_EINVAL, "board picture: influence overlay without influence");
    if (overlay < HS_OVERLAY_NONE || overlay > HS_OVERLAY_INFLUENCE)
        return hs_error_set(err, HS_EINVAL, "board picture: unknown overlay %d", (int)overlay);
    if (p->tau < 0)
        return hs_error_set(err, HS_EINVAL, "board picture: tau %d < 0", p->tau);
    bool none = p->last_x == -1 && p->last_y == -1;
    if (!none && (p->last_x < 0 || p->last_x >= n || p->last_y < 0 || p->last_y >= n))
        return hs_error_set(err, HS_EINVAL, "board picture: last move (%d, %d) off the board",
                            p->last_x, p->last_y);
    if (p->num_labels < 0 || (p->num_labels > 0 && !p->labels))
        return hs_error_set(err, HS_EINVAL, "board picture: %d labels", p->num_labels);
    for (int i = 0; i < p->num_labels; i++)
        if (p->labels[i].x < 0 || p->labels[i].x >= n || p->labels[i].y < 0 ||
            p->labels[i].y >= n)
            return hs_error_set(err, HS_EINVAL, "board picture: label %d at (%d, %d) off the board",
                                i, p->labels[i].x, p->labels[i].y);
    return 0;
}

int hs_board_pic_draw(const hs_board_pic_t *p, hs_board_overlay_t overlay,
                      hs_pic_format_t fmt, char **out, size_t *len, hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    int rc = s_check(p, overlay, err);
    if (rc)
        return rc;
    hs__board_geom_t g = {.n = p->size, .w = p->width_px};
    g.c = g.w / (g.n + 2.0);
    g.x0 = g.y0 = 1.5 * g.c;
    double cap_fs = fmin(18, s_max(11, g.w * 0.04));
    int h = g.w + (p->caption && *p->caption ? (int)ceil(cap_fs * 1.9) : 0);
    hs_canvas_t *cv;
    if ((rc = hs_canvas_open(&cv, fmt, g.w, h, err)))
        return rc;
    hs_rgba_t bg = p->plain ? HS_RGB(0xf6f5f0) : HS_RGB(0xdcb35c);
    hs_canvas_rect(cv, 0, 0, g.w, h, &(hs_paint_t){.fill = HS_RGB(0xffffff)});
    if (p->plain)
        hs_canvas_rect(cv, 0, 0, g.w, g.w, &(hs_paint_t){.fill = bg, .cls = "plain"});
    else
        s_wood(cv, &g);
    s_grid(cv, &g, p->plain);
    s_coords(cv, &g, p->plain);
    if (overlay == HS_OVERLAY_INFLUENCE &&
        (rc = hs__board_influence(cv, &g, p, p->tau ? p->tau : 140, err))) {
        hs_canvas_free(cv);
        return rc;
    }
    s_stones(cv, &g, p);
    if (overlay == HS_OVERLAY_OWNERSHIP)
        s_ownership(cv, &g, p);
    s_labels(cv, &g, p, bg);
    if (p->caption && *p->caption && (rc = s_caption(cv, &g, p->caption, cap_fs, err))) {
        hs_canvas_free(cv);
        return rc;
    }
    return hs_canvas_finish(cv, out, len, err);
}
