/*
 * reports/board_influence.c — Park's influence overlay of a board picture,
 * derived here from the stored SI (reports/ may not include worker/). The
 * definitions are worker/influence.h's, restated:
 *   influence point (IP): an EMPTY point with SI >= tau (black) or SI <= -tau
 *     (white), SI the stored value x100, already rounded;
 *   lump: a 4-connected set of same-colour IPs;
 *   core: a 2x2 square whose four points are IPs of one lump (four 4-connected
 *     same-colour IPs always are);
 *   influence area (IA): every IP of a lump that has at least one core.
 * tests/test_picture.c checks the IPs, cores and areas drawn against a small
 * position worked out by hand.
 */
#include <string.h>

#include "core/board.h"
#include "reports/board_pic_internal.h"

#define S_MAXP (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)

typedef struct s_park {
    int8_t ip[S_MAXP];        /* +1 black IP, -1 white IP, 0 none */
    int16_t lump[S_MAXP];     /* lump id of an IP, -1 otherwise */
    uint8_t has_core[S_MAXP]; /* per lump id */
    int8_t ia[S_MAXP];        /* +1 / -1 where the point is in an influence area */
} s_park_t;

static void s_fill_lump(s_park_t *k, int n, int start, int16_t id)
{
    int16_t stack[S_MAXP];
    int top = 0;
    k->lump[start] = id;
    stack[top++] = (int16_t)start;
    while (top) {
        int i = stack[--top], x = i % n, y = i / n;
        const int nb[4] = {x > 0 ? i - 1 : -1, x + 1 < n ? i + 1 : -1, y > 0 ? i - n : -1,
                           y + 1 < n ? i + n : -1};
        for (int d = 0; d < 4; d++)
            if (nb[d] >= 0 && k->ip[nb[d]] == k->ip[i] && k->lump[nb[d]] < 0) {
                k->lump[nb[d]] = id;
                stack[top++] = (int16_t)nb[d];
            }
    }
}

static void s_derive(s_park_t *k, const hs_board_pic_t *p, int tau)
{
    const int n = p->size;
    memset(k, 0, sizeof *k);
    for (int i = 0; i < n * n; i++) {
        int v = p->influence[i];
        bool empty = p->stones[i] != HS_BLACK && p->stones[i] != HS_WHITE;
        /* SI == 0 favours nobody, even at tau 0 (as worker/influence.c). */
        k->ip[i] = (int8_t)(!empty ? 0 : (v >= tau && v > 0) ? 1 : (v <= -tau && v < 0) ? -1 : 0);
        k->lump[i] = -1;
    }
    int16_t lumps = 0;
    for (int i = 0; i < n * n; i++)
        if (k->ip[i] && k->lump[i] < 0)
            s_fill_lump(k, n, i, lumps++);
    for (int y = 0; y + 1 < n; y++)
        for (int x = 0; x + 1 < n; x++) {
            int i = y * n + x, s = k->ip[i];
            if (s && k->ip[i + 1] == s && k->ip[i + n] == s && k->ip[i + n + 1] == s)
                k->has_core[k->lump[i]] = 1;
        }
    for (int i = 0; i < n * n; i++)
        if (k->lump[i] >= 0 && k->has_core[k->lump[i]])
            k->ia[i] = k->ip[i];
}

static hs_rgba_t s_side(int s, unsigned alpha)
{
    return s > 0 ? HS_RGBA(0x000000, alpha) : HS_RGBA(0xffffff, alpha);
}

/* Areas as cell-sized shaded squares (adjacent ones merge into one region),
 * then each core as a stronger square between its four points. */
static void s_areas(hs_canvas_t *cv, const hs__board_geom_t *g, const s_park_t *k)
{
    const int n = g->n;
    double c = g->c;
    for (int i = 0; i < n * n; i++) {
        if (!k->ia[i])
            continue;
        hs_paint_t sh = {.fill = s_side(k->ia[i], k->ia[i] > 0 ? 0x48 : 0x88),
                         .cls = k->ia[i] > 0 ? "ia b" : "ia w"};
        hs_canvas_rect(cv, g->x0 + (i % n - 0.5) * c, g->y0 + (i / n - 0.5) * c, c, c, &sh);
    }
    for (int y = 0; y + 1 < n; y++)
        for (int x = 0; x + 1 < n; x++) {
            int i = y * n + x, s = k->ip[i];
            if (!s || k->ip[i + 1] != s || k->ip[i + n] != s || k->ip[i + n + 1] != s)
                continue;
            /* a core is the area's shading made stronger: an outline on top of
             * the lump's links and dots only cluttered the picture */
            hs_paint_t pen = {.fill = s_side(s, s > 0 ? 0x38 : 0x70),
                              .cls = s > 0 ? "core b" : "core w"};
            hs_canvas_rect(cv, g->x0 + x * c, g->y0 + y * c, c, c, &pen);
        }
}

/* Lumps as links between 4-adjacent IPs of one colour, and the IPs as dots. */
static void s_points(hs_canvas_t *cv, const hs__board_geom_t *g, const s_park_t *k)
{
    const int n = g->n;
    double c = g->c, lw = c * 0.07 > 1 ? c * 0.07 : 1;
    for (int i = 0; i < n * n; i++) {
        int s = k->ip[i], x = i % n, y = i / n;
        double px = g->x0 + x * c, py = g->y0 + y * c;
        if (s && x + 1 < n && k->ip[i + 1] == s)
            hs_canvas_line(cv, px, py, px + c, py, s_side(s, 0xa0), lw, "lump");
        if (s && y + 1 < n && k->ip[i + n] == s)
            hs_canvas_line(cv, px, py, px, py + c, s_side(s, 0xa0), lw, "lump");
    }
    hs_paint_t dot_b = {.fill = HS_RGB(0x000000), .cls = "ip b"};
    hs_paint_t dot_w = {.fill = HS_RGB(0xffffff), .stroke = HS_RGB(0x404040),
                        .width = c * 0.03 > 0.5 ? c * 0.03 : 0.5, .cls = "ip w"};
    double r = c * 0.13 > 1.5 ? c * 0.13 : 1.5;
    for (int i = 0; i < n * n; i++)
        if (k->ip[i])
            hs_canvas_circle(cv, g->x0 + (i % n) * c, g->y0 + (i / n) * c, r,
                             k->ip[i] > 0 ? &dot_b : &dot_w);
}

int hs__board_influence(hs_canvas_t *cv, const hs__board_geom_t *g, const hs_board_pic_t *p,
                        int tau, hs_error_t *err)
{
    s_park_t k;    /* ~3 KB: on the stack, so the overlay allocates nothing */
    s_derive(&k, p, tau);
    hs_canvas_group(cv, "influence");
    s_areas(cv, g, &k);
    s_points(cv, g, &k);
    hs_canvas_group_end(cv);
    return 0;
}
