/*
 * reports/canvas_svg.c — the canvas as SVG text. Compact on purpose: a report
 * page inlines dozens of boards, so
 *   - numbers carry at most one decimal, colours are #rrggbb (#rgb where that
 *     says the same) with a separate opacity only where needed;
 *   - consecutive shapes of one style share it: a run of two or more is written
 *     as <g STYLE> around bare shapes (each keeps its class, which tests and
 *     stylesheets read), so a board's stones, squares and coordinates do not
 *     each repeat their fill, stroke and font;
 *   - hs_canvas_segments is one <path> ("M x y l dx dy" per segment), so the
 *     hundreds of small crosses of an ownership map are a few elements;
 *   - there is nothing but shapes (no external references, no CSS, no scripts).
 * To know whether a shape starts a run, each shape is held back until the next
 * one (or a group, a gradient, the end) arrives. Gradient ids are made from the
 * gradient's own values, so two SVGs inlined in one HTML page that define the
 * same id define the same gradient.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "reports/canvas_internal.h"

#define S_MAX_GRADIENTS 8

/* One shape as text, its style apart: a run's <g> carries the style instead. */
typedef struct s_elem {
    hs_buf_t text;      /* the shape without its style */
    size_t split;       /* where the style goes in text (after the class) */
    hs_buf_t style;     /* its presentation attributes (' fill="#000"...'), or "" */
} s_elem_t;

typedef struct s_svg {
    hs_canvas_t base;
    hs_buf_t buf;
    int depth;                                   /* open <g> of hs_canvas_group */
    char gid[S_MAX_GRADIENTS][40];               /* id of gradient i+1 */
    s_elem_t el[2];                              /* el[cur] being made, el[!cur] held */
    int cur;
    bool held;                                   /* el[!cur] waits to be written */
    hs_buf_t run;                                /* the open run's style */
    bool run_open;
} s_svg_t;

static void s_puts(hs_buf_t *b, const char *s)
{
    hs_buf_put(b, s, strlen(s));
}

/* A number given in tenths: no trailing ".0" (and never "-0"). */
static void s_tenths(hs_buf_t *b, long tenths)
{
    char t[40];
    if (tenths % 10 == 0)
        snprintf(t, sizeof t, "%ld", tenths / 10);
    else
        snprintf(t, sizeof t, "%s%ld.%ld", tenths < 0 ? "-" : "", labs(tenths) / 10,
                 labs(tenths) % 10);
    s_puts(b, t);
}

/* x with at most one decimal. */
static void s_num(hs_buf_t *b, double x)
{
    s_tenths(b, lround(x * 10.0));
}

/* ' name="x"' */
static void s_attr_num(hs_buf_t *b, const char *name, double x)
{
    hs_buf_putc(b, ' ');
    s_puts(b, name);
    s_puts(b, "=\"");
    s_num(b, x);
    hs_buf_putc(b, '"');
}

/* Text and attribute values: the five XML specials escaped. */
static void s_escaped(hs_buf_t *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': s_puts(b, "&amp;"); break;
        case '<': s_puts(b, "&lt;"); break;
        case '>': s_puts(b, "&gt;"); break;
        case '"': s_puts(b, "&quot;"); break;
        case '\'': s_puts(b, "&#39;"); break;
        default: hs_buf_putc(b, *s);
        }
    }
}

/* ' name="#rrggbb"' plus ' name-opacity="a"' when not opaque. */
static void s_color(hs_buf_t *b, const char *name, hs_rgba_t c)
{
    char t[64];
    unsigned r = hs__rgba_r(c), g = hs__rgba_g(c), bl = hs__rgba_b(c);
    if (r % 17 == 0 && g % 17 == 0 && bl % 17 == 0)   /* #rgb where it says the same */
        snprintf(t, sizeof t, " %s=\"#%x%x%x\"", name, r / 17, g / 17, bl / 17);
    else
        snprintf(t, sizeof t, " %s=\"#%02x%02x%02x\"", name, r, g, bl);
    s_puts(b, t);
    if (hs__rgba_a(c) < 255) {
        snprintf(t, sizeof t, " %s-opacity=\"%.2g\"", name, hs__rgba_a(c) / 255.0);
        s_puts(b, t);
    }
}

static void s_class(hs_buf_t *b, const char *cls)
{
    if (!cls)
        return;
    s_puts(b, " class=\"");
    s_escaped(b, cls);
    hs_buf_putc(b, '"');
}

static bool s_same(const hs_buf_t *a, const hs_buf_t *b)
{
    return a->len == b->len && (a->len == 0 || !memcmp(a->p, b->p, a->len));
}

static void s_run_close(s_svg_t *s)
{
    if (s->run_open) {
        s_puts(&s->buf, "</g>\n");
        s->run_open = false;
    }
}

static void s_run_open(s_svg_t *s, const hs_buf_t *style)
{
    s->run.len = 0;
    hs_buf_put(&s->run, style->p, style->len);
    s_puts(&s->buf, "<g");
    hs_buf_put(&s->buf, style->p, style->len);
    s_puts(&s->buf, ">\n");
    s->run_open = true;
}

/* The held shape into the output: bare in the open run when it has the run's
 * style, else bare in a new run when the shape to follow (next) has its
 * style too, else with its style inline. */
static void s_write_held(s_svg_t *s, const hs_buf_t *next)
{
    const s_elem_t *e = &s->el[!s->cur];
    if (e->text.err || e->style.err)
        return;   /* lost to HS_ENOMEM, which s_finish reports */
    bool bare = s->run_open && s_same(&e->style, &s->run);
    if (!bare) {
        s_run_close(s);
        bare = e->style.len > 0 && next && s_same(&e->style, next);
        if (bare)
            s_run_open(s, &e->style);
    }
    hs_buf_put(&s->buf, e->text.p, e->split);
    if (!bare && e->style.len)
        hs_buf_put(&s->buf, e->style.p, e->style.len);
    hs_buf_put(&s->buf, e->text.p + e->split, e->text.len - e->split);
}

/* Writes the held shape, if any, then closes a run that next does not
 * continue. next is NULL before a group, a gradient or the end. */
static void s_release(s_svg_t *s, const hs_buf_t *next)
{
    if (s->held)
        s_write_held(s, next);
    s->held = false;
    if (s->run_open && !(next && s_same(next, &s->run)))
        s_run_close(s);
}

/* A new shape in el[cur]. Its writer puts the head (tag, geometry, class)
 * in e->text, marks the place of the style (s_split), puts the style in
 * e->style and the rest in e->text, then calls s_hold. */
static s_elem_t *s_begin(s_svg_t *s)
{
    s_elem_t *e = &s->el[s->cur];
    e->text.len = 0;
    e->style.len = 0;
    return e;
}

/* Where the style goes: what follows in e->text comes after it. */
static void s_split(s_elem_t *e)
{
    e->split = e->text.len;
}

/* Done: the shape before it is written, this one held. */
static void s_hold(s_svg_t *s)
{
    s_release(s, &s->el[s->cur].style);
    s->cur = !s->cur;
    s->held = true;
}

static void s_paint(s_svg_t *s, hs_buf_t *b, const hs_paint_t *p)
{
    if (p->gradient > 0 && p->gradient <= s->base.num_gradients) {
        s_puts(b, " fill=\"url(#");
        s_puts(b, s->gid[p->gradient - 1]);
        s_puts(b, ")\"");
    } else if (p->fill) {
        s_color(b, "fill", p->fill);
    } else {
        s_puts(b, " fill=\"none\"");
    }
    if (p->stroke) {
        s_color(b, "stroke", p->stroke);
        s_attr_num(b, "stroke-width", p->width);
    }
}

static int s_gradient(hs_canvas_t *c, hs_rgba_t inner, hs_rgba_t outer, double fx, double fy)
{
    s_svg_t *s = (s_svg_t *)c;
    if (s->buf.err || c->num_gradients >= S_MAX_GRADIENTS)
        return 0;
    s_release(s, NULL);
    /* FNV-1a of the gradient's values: the id is short (every stone run repeats
     * it) and equal ids mean equal gradients. */
    uint32_t hv = 2166136261u;
    const uint32_t parts[4] = {inner, outer, (uint32_t)lround(fx * 1000), (uint32_t)lround(fy * 1000)};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            hv = (hv ^ ((parts[i] >> (8 * k)) & 0xffu)) * 16777619u;
    char *id = s->gid[c->num_gradients];
    snprintf(id, sizeof s->gid[0], "hs%08x", (unsigned)hv);
    char t[200];
    /* The focus (fx, fy) is where the light falls; the circle stays centred so
     * the rim is the outer colour all around, as on a real stone. */
    snprintf(t, sizeof t, "<defs><radialGradient id=\"%s\" cx=\"0.5\" cy=\"0.5\" r=\"0.5\" "
             "fx=\"%.2f\" fy=\"%.2f\"><stop offset=\"0\"", id, fx, fy);
    s_puts(&s->buf, t);
    s_color(&s->buf, "stop-color", inner);
    s_puts(&s->buf, "/><stop offset=\"1\"");
    s_color(&s->buf, "stop-color", outer);
    s_puts(&s->buf, "/></radialGradient></defs>\n");
    return ++c->num_gradients;
}

static void s_rect(hs_canvas_t *c, double x, double y, double w, double h, const hs_paint_t *p)
{
    s_svg_t *s = (s_svg_t *)c;
    s_elem_t *e = s_begin(s);
    s_puts(&e->text, "<rect");
    s_attr_num(&e->text, "x", x);
    s_attr_num(&e->text, "y", y);
    s_attr_num(&e->text, "width", w);
    s_attr_num(&e->text, "height", h);
    s_class(&e->text, p->cls);
    s_split(e);
    s_paint(s, &e->style, p);
    s_puts(&e->text, "/>\n");
    s_hold(s);
}

static void s_line(hs_canvas_t *c, double x1, double y1, double x2, double y2, hs_rgba_t color,
                   double width, const char *cls)
{
    s_svg_t *s = (s_svg_t *)c;
    s_elem_t *e = s_begin(s);
    s_puts(&e->text, "<line");
    s_attr_num(&e->text, "x1", x1);
    s_attr_num(&e->text, "y1", y1);
    s_attr_num(&e->text, "x2", x2);
    s_attr_num(&e->text, "y2", y2);
    s_class(&e->text, cls);
    s_split(e);
    s_color(&e->style, "stroke", color);
    s_attr_num(&e->style, "stroke-width", width);
    s_puts(&e->text, "/>\n");
    s_hold(s);
}

/* One number of a path's data: a space before it unless a '-' separates. */
static void s_path_num(hs_buf_t *b, long tenths)
{
    if (tenths >= 0)
        hs_buf_putc(b, ' ');
    s_tenths(b, tenths);
}

static void s_segments(hs_canvas_t *c, const double *xy, int n, hs_rgba_t color, double width,
                       const char *cls)
{
    s_svg_t *s = (s_svg_t *)c;
    s_elem_t *e = s_begin(s);
    s_puts(&e->text, "<path d=\"");
    for (int i = 0; i < n; i++) {
        const double *q = xy + 4 * i;
        /* the end relative to the start, both rounded first: the same points
         * as absolute numbers, in fewer bytes */
        long x1 = lround(q[0] * 10.0), y1 = lround(q[1] * 10.0);
        long x2 = lround(q[2] * 10.0), y2 = lround(q[3] * 10.0);
        hs_buf_putc(&e->text, 'M');
        s_tenths(&e->text, x1);
        s_path_num(&e->text, y1);
        hs_buf_putc(&e->text, 'l');
        s_tenths(&e->text, x2 - x1);
        s_path_num(&e->text, y2 - y1);
    }
    hs_buf_putc(&e->text, '"');
    s_class(&e->text, cls);
    s_split(e);
    s_puts(&e->style, " fill=\"none\"");
    s_color(&e->style, "stroke", color);
    s_attr_num(&e->style, "stroke-width", width);
    s_puts(&e->text, "/>\n");
    s_hold(s);
}

static void s_circle(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p)
{
    s_svg_t *s = (s_svg_t *)c;
    s_elem_t *e = s_begin(s);
    s_puts(&e->text, "<circle");
    s_attr_num(&e->text, "cx", cx);
    s_attr_num(&e->text, "cy", cy);
    s_attr_num(&e->text, "r", r);
    s_class(&e->text, p->cls);
    s_split(e);
    s_paint(s, &e->style, p);
    s_puts(&e->text, "/>\n");
    s_hold(s);
}

static void s_poly(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p)
{
    s_svg_t *s = (s_svg_t *)c;
    s_elem_t *e = s_begin(s);
    s_puts(&e->text, closed ? "<polygon points=\"" : "<polyline points=\"");
    for (int i = 0; i < n; i++) {
        if (i)
            hs_buf_putc(&e->text, ' ');
        s_num(&e->text, xy[2 * i]);
        hs_buf_putc(&e->text, ',');
        s_num(&e->text, xy[2 * i + 1]);
    }
    hs_buf_putc(&e->text, '"');
    s_class(&e->text, p->cls);
    s_split(e);
    hs_paint_t q = *p;
    if (!closed)
        q.fill = HS_NONE, q.gradient = 0;   /* a polyline is a stroke, never an area */
    s_paint(s, &e->style, &q);
    if (!closed && n > 2)
        s_puts(&e->style, " stroke-linejoin=\"round\"");
    s_puts(&e->text, "/>\n");
    s_hold(s);
}

static void s_text(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    s_svg_t *s = (s_svg_t *)c;
    s_elem_t *e = s_begin(s);
    s_puts(&e->text, "<text");
    s_attr_num(&e->text, "x", x);
    s_attr_num(&e->text, "y", y);
    s_class(&e->text, f->cls);
    s_split(e);
    s_attr_num(&e->style, "font-size", f->size);
    if (f->bold)
        s_puts(&e->style, " font-weight=\"bold\"");
    if (f->anchor != HS_ANCHOR_START) {
        s_puts(&e->style, " text-anchor=\"");
        s_puts(&e->style, anchors[f->anchor == HS_ANCHOR_END ? 2 : 1]);
        hs_buf_putc(&e->style, '"');
    }
    s_color(&e->style, "fill", f->color);
    hs_buf_putc(&e->text, '>');
    s_escaped(&e->text, text);
    s_puts(&e->text, "</text>\n");
    s_hold(s);
}

static void s_group(hs_canvas_t *c, const char *cls)
{
    s_svg_t *s = (s_svg_t *)c;
    s_release(s, NULL);
    s_puts(&s->buf, "<g");
    s_class(&s->buf, cls);
    s_puts(&s->buf, ">\n");
    s->depth++;
}

static void s_group_end(hs_canvas_t *c)
{
    s_svg_t *s = (s_svg_t *)c;
    s_release(s, NULL);
    if (s->depth > 0) {
        s_puts(&s->buf, "</g>\n");
        s->depth--;
    }
}

static void s_free(hs_canvas_t *c)
{
    s_svg_t *s = (s_svg_t *)c;
    hs_buf_fini(&s->buf);
    for (int i = 0; i < 2; i++) {
        hs_buf_fini(&s->el[i].text);
        hs_buf_fini(&s->el[i].style);
    }
    hs_buf_fini(&s->run);
    free(s);
}

/* The first error of the buffers beside the output (HS_ENOMEM). */
static int s_side_err(const s_svg_t *s)
{
    for (int i = 0; i < 2; i++)
        if (s->el[i].text.err || s->el[i].style.err)
            return s->el[i].text.err ? s->el[i].text.err : s->el[i].style.err;
    return s->run.err;
}

static int s_finish(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err)
{
    s_svg_t *s = (s_svg_t *)c;
    s_release(s, NULL);
    while (s->depth > 0)
        s_group_end(c);
    s_puts(&s->buf, "</svg>\n");
    int rc = s_side_err(s);
    if (!rc)
        rc = hs_buf_take(&s->buf, out, len);
    s_free(c);
    return rc ? hs_error_set(err, rc, "svg: %s", hs_strerror(rc)) : 0;
}

static const struct hs__canvas_ops s_ops = {
    s_gradient, s_rect, s_line, s_segments, s_circle, s_poly, s_text, s_group, s_group_end,
    s_finish, s_free,
};

int hs__canvas_svg_open(hs_canvas_t **out, int w, int h, hs_error_t *err)
{
    s_svg_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "svg: out of memory");
    s->base.ops = &s_ops;
    s->base.width = w;
    s->base.height = h;
    char t[200];
    snprintf(t, sizeof t, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", w, h, w, h);
    s_puts(&s->buf, t);
    if (s->buf.err) {
        s_free(&s->base);
        return hs_error_set(err, HS_ENOMEM, "svg: out of memory");
    }
    *out = &s->base;
    return 0;
}
