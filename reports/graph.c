/*
 * reports/graph.c — hs_graph_draw and hs_histogram_draw (reports/picture.h):
 * a curve over the moves and a histogram, drawn through reports/canvas.h.
 *
 * Both share one frame: a title at the top, y ticks at a "nice" step (1, 2,
 * 2.5 or 5 times a power of ten) with light grid lines, and the plot area's
 * axes. Text widths are estimated (0.6 em per character) rather than measured,
 * so the SVG and the PNG lay out the same without asking cairo.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/canvas.h"
#include "reports/picture.h"

/* Colours of the sources, in order (MCTS, net, judge as the report orders
 * them): distinct for the colour-blind too (blue, orange, green, purple). */
static const hs_rgba_t s_palette[] = {
    HS_RGB(0x1f6fb5), HS_RGB(0xe07b00), HS_RGB(0x2e8b57), HS_RGB(0x7b4fb0), HS_RGB(0x8c6d1f),
};
#define S_PALETTE_N ((int)(sizeof s_palette / sizeof s_palette[0]))

typedef struct s_frame {
    double left, right, top, bottom;  /* the plot area */
    double lo, hi;                    /* its y range */
    double fs;                        /* label font size */
} s_frame_t;

static double s_y(const s_frame_t *f, double v)
{
    v = fmin(f->hi, fmax(f->lo, v));
    return f->bottom - (v - f->lo) * (f->bottom - f->top) / (f->hi - f->lo);
}

/* The smallest of 1, 2, 2.5, 5 x 10^k that is >= raw. */
static double s_nice(double raw)
{
    if (!(raw > 0))
        return 1;
    double p = pow(10, floor(log10(raw))), m = raw / p;
    return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
}

/* A count as "86", "1.5k", "200k", "1.5M" (3 significant digits at most): it
 * fits the axis' margin where "%g" wrote "1.5e+06". */
static void s_count_label(char *t, size_t cap, double v)
{
    static const char units[] = "kMGTPE";
    int u = -1;
    while (u + 1 < (int)strlen(units) && fabs(v) >= 999.5) {
        v /= 1000;
        u++;
    }
    if (u < 0)
        snprintf(t, cap, "%.0f", v);
    else
        snprintf(t, cap, "%.3g%c", v, units[u]);
}

/* A tick label in the unit: "50%", "+10" for points (a lead has a sign), a
 * count as s_count_label writes it. */
static void s_tick_label(char *t, size_t cap, double v, const char *unit)
{
    if (fabs(v) < 1e-9)
        v = 0;
    if (unit && !strcmp(unit, "count"))
        s_count_label(t, cap, v);
    else if (unit && !strcmp(unit, "%"))
        snprintf(t, cap, "%g%%", v);
    else if (unit && !strcmp(unit, "points") && v != 0)
        snprintf(t, cap, "%+g", v);
    else
        snprintf(t, cap, "%g", v);
}

static void s_title(hs_canvas_t *cv, double fs, const char *title)
{
    hs_font_t f = {.size = fs * 1.2, .bold = true, .color = HS_RGB(0x222222), .cls = "title"};
    hs_canvas_text(cv, fs * 0.8, fs * 1.5, &f, title);
}

/* The y ticks of a frame: values in the frame's units, their labels. */
#define S_MAX_TICKS 24
typedef struct s_ticks {
    double v[S_MAX_TICKS];
    char t[S_MAX_TICKS][24];
    int n;
} s_ticks_t;

/* Ticks at a nice step over f's range, labelled in the unit. */
static void s_linear_ticks(const s_frame_t *f, const char *unit, bool integers, s_ticks_t *k)
{
    double step = s_nice((f->hi - f->lo) / 5);
    if (integers && step < 1)
        step = 1;
    k->n = 0;
    for (double v = ceil(f->lo / step - 1e-9) * step;
         v <= f->hi + 1e-9 * step && k->n < S_MAX_TICKS; v += step) {
        k->v[k->n] = v;
        s_tick_label(k->t[k->n], sizeof k->t[0], v, unit);
        k->n++;
    }
}

/* y grid, the tick labels of k and the axes of frame f. */
static void s_axes(hs_canvas_t *cv, const s_frame_t *f, const s_ticks_t *k)
{
    hs_font_t lab = {.size = f->fs, .anchor = HS_ANCHOR_END, .color = HS_RGB(0x444444)};
    hs_canvas_group(cv, "axes");
    for (int i = 0; i < k->n; i++) {
        double y = s_y(f, k->v[i]);
        hs_canvas_line(cv, f->left, y, f->right, y, HS_RGB(0xe4e4e4), 1, NULL);
        hs_canvas_text(cv, f->left - f->fs * 0.4, y + f->fs * 0.35, &lab, k->t[i]);
    }
    hs_canvas_line(cv, f->left, f->top, f->left, f->bottom, HS_RGB(0x555555), 1, NULL);
    hs_canvas_line(cv, f->left, f->bottom, f->right, f->bottom, HS_RGB(0x555555), 1, NULL);
    hs_canvas_group_end(cv);
}

static void s_graph_range(const hs_graph_t *g, s_frame_t *f)
{
    if (g->y_min < g->y_max) {
        f->lo = g->y_min, f->hi = g->y_max;
        return;
    }
    double a = 0;
    for (int m = 0; m < g->n; m++)
        if (isfinite(g->values[m]))
            a = fmax(a, fabs(g->values[m]));
    a = s_nice(a > 0 ? a : 1);
    f->lo = -a, f->hi = a;
}

static double s_gx(const s_frame_t *f, const hs_graph_t *g, int m)
{
    return f->left + (f->right - f->left) * (g->n > 1 ? (double)m / (g->n - 1) : 0.5);
}

static void s_x_ticks(hs_canvas_t *cv, const s_frame_t *f, const hs_graph_t *g)
{
    /* About 3 to 10 ticks: a 6-move game gets 0, 1, ... 6, not a lone 0. */
    int step = g->n > 100 ? 50 : g->n > 30 ? 10 : g->n > 12 ? 5 : 1;
    hs_font_t lab = {.size = f->fs, .anchor = HS_ANCHOR_MIDDLE, .color = HS_RGB(0x444444)};
    char t[16];
    for (int m = 0; m < g->n; m += step) {
        double x = s_gx(f, g, m);
        hs_canvas_line(cv, x, f->bottom, x, f->bottom + f->fs * 0.3, HS_RGB(0x555555), 1, NULL);
        snprintf(t, sizeof t, "%d", m);
        hs_canvas_text(cv, x, f->bottom + f->fs * 1.35, &lab, t);
    }
}

static int s_src(const hs_graph_t *g, int m)
{
    return g->source ? g->source[m] : 0;
}

static hs_rgba_t s_src_color(int s)
{
    return s_palette[s % S_PALETTE_N];
}

/* The curve: one polyline per run of values of one source; a run that
 * follows another starts at the other's last point, so the curve stays
 * joined where the source changes. NAN ends a run: a gap. */
static void s_curve(hs_canvas_t *cv, const s_frame_t *f, const hs_graph_t *g, double *xy)
{
    double lw = fmax(1.5, f->fs * 0.17);
    hs_canvas_group(cv, "curve");
    int k = 0, src = -1;
    for (int m = 0; m <= g->n; m++) {
        bool ok = m < g->n && isfinite(g->values[m]);
        int s = ok ? s_src(g, m) : -1;
        if (k && (!ok || s != src)) {
            hs_paint_t pen = {.stroke = s_src_color(src), .width = lw, .fill = s_src_color(src)};
            if (k == 1)   /* a lone value between gaps: a dot, or it would not show */
                hs_canvas_circle(cv, xy[0], xy[1], lw, &pen);
            else
                hs_canvas_poly(cv, xy, k, false, &pen);
            bool joined = ok;
            if (joined) {
                xy[0] = xy[2 * k - 2], xy[1] = xy[2 * k - 1];
                k = 1;
            } else {
                k = 0;
            }
        }
        if (ok) {
            xy[2 * k] = s_gx(f, g, m), xy[2 * k + 1] = s_y(f, g->values[m]);
            k++;
            src = s;
        }
    }
    hs_canvas_group_end(cv);
}

static void s_marks(hs_canvas_t *cv, const s_frame_t *f, const hs_graph_t *g)
{
    hs_paint_t ring = {.fill = HS_RGB(0xffffff), .stroke = HS_RGB(0xc0392b),
                       .width = fmax(1.5, f->fs * 0.15), .cls = "mark"};
    hs_font_t lab = {.size = f->fs * 0.95, .bold = true, .anchor = HS_ANCHOR_MIDDLE,
                     .color = HS_RGB(0xc0392b), .cls = "mark-label"};
    char t[16];
    for (int i = 0; i < g->num_marks; i++) {
        int m = g->marks[i];
        if (m < 0 || m >= g->n || !isfinite(g->values[m]))
            continue;
        double x = s_gx(f, g, m), y = s_y(f, g->values[m]), r = fmax(3.5, f->fs * 0.38);
        hs_canvas_circle(cv, x, y, r, &ring);
        snprintf(t, sizeof t, "%d", m);
        /* above the point, or below it when the point is near the top */
        double ty = y - r - f->fs * 0.35 < f->top + f->fs ? y + r + f->fs : y - r - f->fs * 0.35;
        /* a pale backing so the number reads where it crosses the curve */
        double tw = 0.62 * lab.size * (double)strlen(t) + 2;
        hs_canvas_rect(cv, x - tw / 2, ty - 0.85 * lab.size, tw, lab.size,
                       &(hs_paint_t){.fill = HS_RGBA(0xffffff, 0xc8)});
        hs_canvas_text(cv, x, ty, &lab, t);
    }
}

static bool s_used(const hs_graph_t *g, int s)
{
    if (!g->source)
        return s == 0;
    for (int m = 0; m < g->n; m++)
        if (g->source[m] == s && isfinite(g->values[m]))
            return true;
    return false;
}

/* The legend's width in px (0 without one): the sources that occur. */
static double s_legend_width(const hs_graph_t *g, double fs)
{
    double w = 0;
    for (int s = 0; g->source_names && s < g->num_sources; s++)
        if (g->source_names[s] && s_used(g, s))
            w += 0.6 * fs * (double)strlen(g->source_names[s]) + fs * 2.8;
    return w;
}

/* The legend, right-aligned at baseline y. */
static void s_legend(hs_canvas_t *cv, const s_frame_t *f, const hs_graph_t *g, int w, double y)
{
    hs_font_t lab = {.size = f->fs, .color = HS_RGB(0x333333), .cls = "legend"};
    double x = w - f->fs * 0.8;
    for (int s = g->num_sources - 1; g->source_names && s >= 0; s--) {
        const char *name = g->source_names[s];
        if (!name || !s_used(g, s))
            continue;
        x -= 0.6 * f->fs * (double)strlen(name);
        hs_canvas_text(cv, x, y, &lab, name);
        x -= f->fs * 0.4;
        hs_canvas_line(cv, x - f->fs * 1.4, y - f->fs * 0.35, x, y - f->fs * 0.35,
                       s_src_color(s), fmax(2, f->fs * 0.2), NULL);
        x -= f->fs * 2.4;
    }
}

static int s_check_size(const char *what, int w, int h, hs_error_t *err)
{
    if (w < 100 || w > HS_CANVAS_MAX_PX || h < 50 || h > HS_CANVAS_MAX_PX)
        return hs_error_set(err, HS_EINVAL, "%s: %dx%d px (width 100..%d, height 50..%d)", what,
                            w, h, HS_CANVAS_MAX_PX, HS_CANVAS_MAX_PX);
    return 0;
}

static int s_graph_check(const hs_graph_t *g, hs_error_t *err)
{
    if (!g || !g->values || g->n < 1)
        return hs_error_set(err, HS_EINVAL, "graph: no values (n %d)", g ? g->n : 0);
    int rc = s_check_size("graph", g->width_px, g->height_px, err);
    if (rc)
        return rc;
    if (g->num_marks < 0 || (g->num_marks > 0 && !g->marks))
        return hs_error_set(err, HS_EINVAL, "graph: %d marks without an array", g->num_marks);
    if (g->y_min > g->y_max || !isfinite(g->y_min) || !isfinite(g->y_max))
        return hs_error_set(err, HS_EINVAL, "graph: y range %g..%g", g->y_min, g->y_max);
    for (int m = 0; g->source && g->source_names && m < g->n; m++)
        if (g->source[m] >= g->num_sources)
            return hs_error_set(err, HS_EINVAL, "graph: move %d's source %d of %d sources", m,
                                g->source[m], g->num_sources);
    return 0;
}

int hs_graph_draw(const hs_graph_t *g, hs_pic_format_t fmt, char **out, size_t *len,
                  hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    int rc = s_graph_check(g, err);
    if (rc)
        return rc;
    const int w = g->width_px, h = g->height_px;
    s_frame_t f = {.fs = fmin(14, fmax(9, h * 0.045))};
    s_graph_range(g, &f);
    f.left = f.fs * 3.8, f.right = w - f.fs * 1.2;
    f.top = f.fs * 2.8, f.bottom = h - f.fs * 2.2;
    /* The legend shares the title's line when both fit (bold text is ~0.65
     * em a character), else it gets a line of its own under the title. */
    double legend_w = s_legend_width(g, f.fs), legend_y = f.fs * 1.5;
    double title_w = g->title ? 0.65 * 1.2 * f.fs * (double)strlen(g->title) : 0;
    if (legend_w > 0 && f.fs * 5 + title_w + legend_w > w) {
        legend_y = f.fs * 2.9;
        f.top += f.fs * 1.4;
    }
    double *xy = malloc(sizeof *xy * 2 * ((size_t)g->n + 1));
    if (!xy)
        return hs_error_set(err, HS_ENOMEM, "graph: out of memory");
    hs_canvas_t *cv;
    if ((rc = hs_canvas_open(&cv, fmt, w, h, err))) {
        free(xy);
        return rc;
    }
    hs_canvas_rect(cv, 0, 0, w, h, &(hs_paint_t){.fill = HS_RGB(0xffffff)});
    s_title(cv, f.fs, g->title);
    s_ticks_t ticks;
    s_linear_ticks(&f, g->unit, false, &ticks);
    s_axes(cv, &f, &ticks);
    if (g->unit && strcmp(g->unit, "%")) {
        hs_font_t u = {.size = f.fs * 0.9, .color = HS_RGB(0x666666), .cls = "unit"};
        hs_canvas_text(cv, f.left + f.fs * 0.3, f.top - f.fs * 0.4, &u, g->unit);
    }
    if (g->y_mid > f.lo && g->y_mid < f.hi)
        hs_canvas_line(cv, f.left, s_y(&f, g->y_mid), f.right, s_y(&f, g->y_mid),
                       HS_RGB(0x888888), 1.2, "mid");
    s_x_ticks(cv, &f, g);
    s_curve(cv, &f, g, xy);
    s_marks(cv, &f, g);
    s_legend(cv, &f, g, w, legend_y);
    free(xy);
    return hs_canvas_finish(cv, out, len, err);
}

/* A histogram's count axis is linear from 0 unless the largest bin is more
 * than this many times the smallest non-empty one: the small bins would be
 * slivers or nothing beside it (a big archive's loss histogram: 1.6M moves lost
 * under half a point, 86 lost 10). */
#define S_LOG_RATIO 50.0

/* The count axis of counts into f (lo, hi; on a log axis their log10): linear,
 * from 0 to a nice step above the largest; or log, from half the smallest
 * bin's power of ten (so that bin still has a bar) to a nice value above the
 * largest. Returns whether it is a log axis. */
static bool s_count_range(const int64_t *counts, int n, s_frame_t *f)
{
    double top = 0, least = 0;
    for (int i = 0; i < n; i++) {
        double v = (double)counts[i];
        top = fmax(top, v);
        if (v > 0 && (least == 0 || v < least))
            least = v;
    }
    if (least == 0 || top <= S_LOG_RATIO * least) {
        top = fmax(top, 1);
        double step = s_nice(top / 5);
        f->lo = 0;
        f->hi = step * ceil(top / step - 1e-9);
        return false;
    }
    f->lo = log10(pow(10, floor(log10(least))) / 2);
    f->hi = log10(s_nice(top));
    return true;
}

/* Ticks at the powers of ten of a log axis, every k-th decade so that at most
 * about six are labelled. */
static void s_log_ticks(const s_frame_t *f, s_ticks_t *k)
{
    int first = (int)ceil(f->lo - 1e-9), last = (int)floor(f->hi + 1e-9);
    int every = (last - first) / 6 + 1;
    k->n = 0;
    for (int e = first; e <= last && k->n < S_MAX_TICKS; e += every) {
        k->v[k->n] = e;
        s_count_label(k->t[k->n], sizeof k->t[0], pow(10, e));
        k->n++;
    }
}

/* The left margin that holds the widest tick label (0.6 em a character) and
 * the gap before the axis. */
static double s_label_margin(const s_ticks_t *k, double fs)
{
    size_t widest = 0;
    for (int i = 0; i < k->n; i++)
        widest = strlen(k->t[i]) > widest ? strlen(k->t[i]) : widest;
    return fmax(fs * 3, 0.6 * fs * (double)widest + fs * 1.2);
}

/* The bars: a non-empty bin is at least 1 px tall, so it never vanishes. */
static void s_bars(hs_canvas_t *cv, const s_frame_t *f, const int64_t *counts, int n,
                   bool log_axis)
{
    double bw = (f->right - f->left) / n;
    hs_paint_t bar = {.fill = s_palette[0], .stroke = HS_RGB(0xffffff),
                      .width = bw > 6 ? 1 : 0, .cls = "bar"};
    for (int i = 0; i < n; i++) {
        if (counts[i] <= 0)
            continue;
        double v = log_axis ? log10((double)counts[i]) : (double)counts[i];
        double y = fmin(s_y(f, v), f->bottom - 1);
        hs_canvas_rect(cv, f->left + i * bw, y, bw, f->bottom - y, &bar);
    }
    /* the bars' white edges would cut the axis: draw it again on top */
    hs_canvas_line(cv, f->left, f->bottom, f->right, f->bottom, HS_RGB(0x555555), 1, NULL);
}

/* The x ticks over lo..hi and the x label under them. */
static void s_bins_axis(hs_canvas_t *cv, const s_frame_t *f, double lo, double hi,
                        const char *x_label, int height_px)
{
    hs_font_t lab = {.size = f->fs, .anchor = HS_ANCHOR_MIDDLE, .color = HS_RGB(0x444444)};
    double step = s_nice((hi - lo) / 5);
    char t[32];
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step) {
        double x = f->left + (v - lo) / (hi - lo) * (f->right - f->left);
        hs_canvas_line(cv, x, f->bottom, x, f->bottom + f->fs * 0.3, HS_RGB(0x555555), 1, NULL);
        snprintf(t, sizeof t, "%g", fabs(v) < 1e-9 * step ? 0.0 : v);
        hs_canvas_text(cv, x, f->bottom + f->fs * 1.35, &lab, t);
    }
    if (x_label) {
        lab.color = HS_RGB(0x222222);
        hs_canvas_text(cv, (f->left + f->right) / 2, height_px - f->fs * 0.5, &lab, x_label);
    }
}

static int s_histogram_check(const int64_t *counts, int n, double lo, double hi, int w, int h,
                             hs_error_t *err)
{
    if (!counts || n < 1)
        return hs_error_set(err, HS_EINVAL, "histogram: no bins (n %d)", n);
    if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return hs_error_set(err, HS_EINVAL, "histogram: range %g..%g", lo, hi);
    int rc = s_check_size("histogram", w, h, err);
    for (int i = 0; rc == 0 && i < n; i++)
        if (counts[i] < 0)
            rc = hs_error_set(err, HS_EINVAL, "histogram: bin %d has count %lld", i,
                              (long long)counts[i]);
    return rc;
}

int hs_histogram_draw(const char *title, const char *x_label, const int64_t *counts, int n,
                      double lo, double hi, int width_px, int height_px, hs_pic_format_t fmt,
                      char **out, size_t *len, hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    int rc = s_histogram_check(counts, n, lo, hi, width_px, height_px, err);
    if (rc)
        return rc;
    s_frame_t f = {.fs = fmin(14, fmax(9, height_px * 0.045))};
    bool log_axis = s_count_range(counts, n, &f);
    s_ticks_t ticks;
    if (log_axis)
        s_log_ticks(&f, &ticks);
    else
        s_linear_ticks(&f, "count", true, &ticks);
    f.left = s_label_margin(&ticks, f.fs), f.right = width_px - f.fs * 1.2;
    f.top = f.fs * 2.8, f.bottom = height_px - f.fs * (x_label ? 3.4 : 2.2);
    hs_canvas_t *cv;
    if ((rc = hs_canvas_open(&cv, fmt, width_px, height_px, err)))
        return rc;
    hs_canvas_rect(cv, 0, 0, width_px, height_px, &(hs_paint_t){.fill = HS_RGB(0xffffff)});
    s_title(cv, f.fs, title);
    s_axes(cv, &f, &ticks);
    /* say what the y axis counts, and when it is not linear */
    hs_font_t u = {.size = f.fs * 0.9, .color = HS_RGB(0x666666), .cls = "unit"};
    hs_canvas_text(cv, f.left + f.fs * 0.3, f.top - f.fs * 0.4, &u,
                   log_axis ? "count, log scale" : "count");
    s_bars(cv, &f, counts, n, log_axis);
    s_bins_axis(cv, &f, lo, hi, x_label, height_px);
    return hs_canvas_finish(cv, out, len, err);
}
