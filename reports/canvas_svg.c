/*
 * reports/canvas_svg.c — the canvas as SVG text. Compact on purpose: a report
 * page inlines dozens of boards, so numbers carry at most one decimal, colours
 * are #rrggbb with a separate opacity only where needed, and there is nothing
 * but shapes (no external references, no CSS, no scripts). Gradient ids are
 * made from the gradient's own values, so two SVGs inlined in one HTML page
 * that define the same id define the same gradient.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "reports/canvas_internal.h"

#define S_MAX_GRADIENTS 8

typedef struct s_svg {
    hs_canvas_t base;
    hs_buf_t buf;
    int depth;                                   /* open <g> */
    char gid[S_MAX_GRADIENTS][40];               /* id of gradient i+1 */
} s_svg_t;

static void s_puts(hs_buf_t *b, const char *s)
{
    hs_buf_put(b, s, strlen(s));
}

/* x with at most one decimal and no trailing ".0" (and never "-0"). */
static void s_num(hs_buf_t *b, double x)
{
    char t[40];
    long tenths = lround(x * 10.0);
    if (tenths % 10 == 0)
        snprintf(t, sizeof t, "%ld", tenths / 10);
    else
        snprintf(t, sizeof t, "%s%ld.%ld", tenths < 0 ? "-" : "", labs(tenths) / 10,
                 labs(tenths) % 10);
    s_puts(b, t);
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

static void s_paint(s_svg_t *s, const hs_paint_t *p)
{
    hs_buf_t *b = &s->buf;
    s_class(b, p->cls);
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
    /* FNV-1a of the gradient's values: the id is short (every stone repeats
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
    s_puts(&s->buf, "<rect");
    s_attr_num(&s->buf, "x", x);
    s_attr_num(&s->buf, "y", y);
    s_attr_num(&s->buf, "width", w);
    s_attr_num(&s->buf, "height", h);
    s_paint(s, p);
    s_puts(&s->buf, "/>\n");
}

static void s_line(hs_canvas_t *c, double x1, double y1, double x2, double y2, hs_rgba_t color,
                   double width, const char *cls)
{
    s_svg_t *s = (s_svg_t *)c;
    s_puts(&s->buf, "<line");
    s_attr_num(&s->buf, "x1", x1);
    s_attr_num(&s->buf, "y1", y1);
    s_attr_num(&s->buf, "x2", x2);
    s_attr_num(&s->buf, "y2", y2);
    s_class(&s->buf, cls);
    s_color(&s->buf, "stroke", color);
    s_attr_num(&s->buf, "stroke-width", width);
    s_puts(&s->buf, "/>\n");
}

static void s_circle(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p)
{
    s_svg_t *s = (s_svg_t *)c;
    s_puts(&s->buf, "<circle");
    s_attr_num(&s->buf, "cx", cx);
    s_attr_num(&s->buf, "cy", cy);
    s_attr_num(&s->buf, "r", r);
    s_paint(s, p);
    s_puts(&s->buf, "/>\n");
}

static void s_poly(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p)
{
    s_svg_t *s = (s_svg_t *)c;
    s_puts(&s->buf, closed ? "<polygon points=\"" : "<polyline points=\"");
    for (int i = 0; i < n; i++) {
        if (i)
            hs_buf_putc(&s->buf, ' ');
        s_num(&s->buf, xy[2 * i]);
        hs_buf_putc(&s->buf, ',');
        s_num(&s->buf, xy[2 * i + 1]);
    }
    hs_buf_putc(&s->buf, '"');
    hs_paint_t q = *p;
    if (!closed)
        q.fill = HS_NONE, q.gradient = 0;   /* a polyline is a stroke, never an area */
    s_paint(s, &q);
    if (!closed && n > 2)
        s_puts(&s->buf, " stroke-linejoin=\"round\"");
    s_puts(&s->buf, "/>\n");
}

static void s_text(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    s_svg_t *s = (s_svg_t *)c;
    s_puts(&s->buf, "<text");
    s_attr_num(&s->buf, "x", x);
    s_attr_num(&s->buf, "y", y);
    s_attr_num(&s->buf, "font-size", f->size);
    if (f->bold)
        s_puts(&s->buf, " font-weight=\"bold\"");
    if (f->anchor != HS_ANCHOR_START) {
        s_puts(&s->buf, " text-anchor=\"");
        s_puts(&s->buf, anchors[f->anchor == HS_ANCHOR_END ? 2 : 1]);
        hs_buf_putc(&s->buf, '"');
    }
    s_class(&s->buf, f->cls);
    s_color(&s->buf, "fill", f->color);
    hs_buf_putc(&s->buf, '>');
    s_escaped(&s->buf, text);
    s_puts(&s->buf, "</text>\n");
}

static void s_group(hs_canvas_t *c, const char *cls)
{
    s_svg_t *s = (s_svg_t *)c;
    s_puts(&s->buf, "<g");
    s_class(&s->buf, cls);
    s_puts(&s->buf, ">\n");
    s->depth++;
}

static void s_group_end(hs_canvas_t *c)
{
    s_svg_t *s = (s_svg_t *)c;
    if (s->depth > 0) {
        s_puts(&s->buf, "</g>\n");
        s->depth--;
    }
}

static void s_free(hs_canvas_t *c)
{
    s_svg_t *s = (s_svg_t *)c;
    hs_buf_fini(&s->buf);
    free(s);
}

static int s_finish(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err)
{
    s_svg_t *s = (s_svg_t *)c;
    while (s->depth > 0)
        s_group_end(c);
    s_puts(&s->buf, "</svg>\n");
    int rc = hs_buf_take(&s->buf, out, len);
    s_free(c);
    return rc ? hs_error_set(err, rc, "svg: %s", hs_strerror(rc)) : 0;
}

static const struct hs__canvas_ops s_ops = {
    s_gradient, s_rect, s_line, s_circle, s_poly, s_text, s_group, s_group_end, s_finish, s_free,
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
