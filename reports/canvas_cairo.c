/*
 * reports/canvas_cairo.c — the canvas on a cairo RGB image surface, written
 * out as PNG by cairo_surface_write_to_png_stream (the issue asks for no PNG
 * encoder of our own). Text goes through cairo's toy font API with the generic
 * "sans-serif" family, which fontconfig resolves (DejaVu Sans on Debian,
 * fonts-dejavu-core). cairo's errors are sticky on the context too: the first
 * one is read once, at finish.
 */
#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "reports/canvas_internal.h"

#define S_MAX_GRADIENTS 8

typedef struct s_grad {
    hs_rgba_t inner, outer;
    double fx, fy;
} s_grad_t;

typedef struct s_cairo {
    hs_canvas_t base;
    cairo_surface_t *surface;
    cairo_t *cr;
    s_grad_t grad[S_MAX_GRADIENTS];
} s_cairo_t;

static void s_source(cairo_t *cr, hs_rgba_t c)
{
    cairo_set_source_rgba(cr, hs__rgba_r(c) / 255.0, hs__rgba_g(c) / 255.0,
                          hs__rgba_b(c) / 255.0, hs__rgba_a(c) / 255.0);
}

static void s_stop(cairo_pattern_t *pat, double off, hs_rgba_t c)
{
    cairo_pattern_add_color_stop_rgba(pat, off, hs__rgba_r(c) / 255.0, hs__rgba_g(c) / 255.0,
                                      hs__rgba_b(c) / 255.0, hs__rgba_a(c) / 255.0);
}

/* Fills (the gradient as SVG's objectBoundingBox would place it over the box
 * bx, by, bw, bh) and strokes the current path. */
static void s_fill_stroke(s_cairo_t *s, const hs_paint_t *p, double bx, double by, double bw,
                          double bh)
{
    cairo_t *cr = s->cr;
    if (p->gradient > 0 && p->gradient <= s->base.num_gradients) {
        const s_grad_t *g = &s->grad[p->gradient - 1];
        double r = 0.5 * (bw > bh ? bw : bh);
        cairo_pattern_t *pat = cairo_pattern_create_radial(bx + g->fx * bw, by + g->fy * bh, 0,
                                                           bx + 0.5 * bw, by + 0.5 * bh, r);
        s_stop(pat, 0, g->inner);
        s_stop(pat, 1, g->outer);
        cairo_set_source(cr, pat);
        cairo_pattern_destroy(pat);
        cairo_fill_preserve(cr);
    } else if (p->fill) {
        s_source(cr, p->fill);
        cairo_fill_preserve(cr);
    }
    if (p->stroke && p->width > 0) {
        s_source(cr, p->stroke);
        cairo_set_line_width(cr, p->width);
        cairo_stroke_preserve(cr);
    }
    cairo_new_path(cr);
}

static int s_gradient(hs_canvas_t *c, hs_rgba_t inner, hs_rgba_t outer, double fx, double fy)
{
    s_cairo_t *s = (s_cairo_t *)c;
    if (c->num_gradients >= S_MAX_GRADIENTS || cairo_status(s->cr))
        return 0;
    s->grad[c->num_gradients] = (s_grad_t){inner, outer, fx, fy};
    return ++c->num_gradients;
}

static void s_rect(hs_canvas_t *c, double x, double y, double w, double h, const hs_paint_t *p)
{
    s_cairo_t *s = (s_cairo_t *)c;
    cairo_rectangle(s->cr, x, y, w, h);
    s_fill_stroke(s, p, x, y, w, h);
}

static void s_line(hs_canvas_t *c, double x1, double y1, double x2, double y2, hs_rgba_t color,
                   double width, const char *cls)
{
    s_cairo_t *s = (s_cairo_t *)c;
    cairo_move_to(s->cr, x1, y1);
    cairo_line_to(s->cr, x2, y2);
    s_source(s->cr, color);
    cairo_set_line_width(s->cr, width);
    cairo_stroke(s->cr);
}

/* Each stroked alone, as so many hs_canvas_line: the PNG of a board drawn
 * with segments is the PNG it was with lines. */
static void s_segments(hs_canvas_t *c, const double *xy, int n, hs_rgba_t color, double width,
                       const char *cls)
{
    for (int i = 0; i < n; i++)
        s_line(c, xy[4 * i], xy[4 * i + 1], xy[4 * i + 2], xy[4 * i + 3], color, width, cls);
}

static void s_circle(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p)
{
    s_cairo_t *s = (s_cairo_t *)c;
    cairo_new_sub_path(s->cr);
    cairo_arc(s->cr, cx, cy, r, 0, 2 * M_PI);
    s_fill_stroke(s, p, cx - r, cy - r, 2 * r, 2 * r);
}

static void s_poly(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p)
{
    s_cairo_t *s = (s_cairo_t *)c;
    double x0 = xy[0], y0 = xy[1], x1 = xy[0], y1 = xy[1];
    cairo_move_to(s->cr, xy[0], xy[1]);
    for (int i = 1; i < n; i++) {
        cairo_line_to(s->cr, xy[2 * i], xy[2 * i + 1]);
        x0 = fmin(x0, xy[2 * i]), x1 = fmax(x1, xy[2 * i]);
        y0 = fmin(y0, xy[2 * i + 1]), y1 = fmax(y1, xy[2 * i + 1]);
    }
    hs_paint_t q = *p;
    if (closed) {
        cairo_close_path(s->cr);
    } else {
        q.fill = HS_NONE, q.gradient = 0;   /* as in SVG: a polyline is only a stroke */
        cairo_set_line_join(s->cr, CAIRO_LINE_JOIN_ROUND);
    }
    s_fill_stroke(s, &q, x0, y0, x1 - x0, y1 - y0);
    cairo_set_line_join(s->cr, CAIRO_LINE_JOIN_MITER);
}

static void s_text(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text)
{
    s_cairo_t *s = (s_cairo_t *)c;
    cairo_select_font_face(s->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           f->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(s->cr, f->size);
    double dx = 0;
    if (f->anchor != HS_ANCHOR_START) {
        cairo_text_extents_t e;
        cairo_text_extents(s->cr, text, &e);
        /* SVG's text-anchor measures the advance, not the ink: do the same. */
        dx = f->anchor == HS_ANCHOR_END ? -e.x_advance : -0.5 * e.x_advance;
    }
    s_source(s->cr, f->color);
    cairo_move_to(s->cr, x + dx, y);
    cairo_show_text(s->cr, text);
    cairo_new_path(s->cr);
}

static void s_group(hs_canvas_t *c, const char *cls)
{
}

static void s_group_end(hs_canvas_t *c)
{
}

static void s_free(hs_canvas_t *c)
{
    s_cairo_t *s = (s_cairo_t *)c;
    if (s->cr)
        cairo_destroy(s->cr);
    if (s->surface)
        cairo_surface_destroy(s->surface);
    free(s);
}

static cairo_status_t s_write(void *closure, const unsigned char *data, unsigned int length)
{
    hs_buf_t *b = closure;
    hs_buf_put(b, data, length);
    return b->err ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

static int s_status(cairo_status_t st, hs_error_t *err)
{
    return hs_error_set(err, st == CAIRO_STATUS_NO_MEMORY ? HS_ENOMEM : HS_EIO, "cairo: %s",
                        cairo_status_to_string(st));
}

static int s_finish(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err)
{
    s_cairo_t *s = (s_cairo_t *)c;
    cairo_status_t st = cairo_status(s->cr);
    hs_buf_t b = {0};
    if (st == CAIRO_STATUS_SUCCESS) {
        cairo_surface_flush(s->surface);
        st = cairo_surface_write_to_png_stream(s->surface, s_write, &b);
    }
    s_free(c);
    if (st != CAIRO_STATUS_SUCCESS) {
        hs_buf_fini(&b);
        return s_status(st, err);
    }
    int rc = hs_buf_take(&b, out, len);
    return rc ? hs_error_set(err, rc, "png: %s", hs_strerror(rc)) : 0;
}

static const struct hs__canvas_ops s_ops = {
    s_gradient, s_rect, s_line, s_segments, s_circle, s_poly, s_text, s_group, s_group_end,
    s_finish, s_free,
};

int hs__canvas_cairo_open(hs_canvas_t **out, int w, int h, hs_error_t *err)
{
    s_cairo_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "png: out of memory");
    s->base.ops = &s_ops;
    s->base.width = w;
    s->base.height = h;
    /* Opaque: every picture paints its whole background, and a PNG without an
     * alpha channel is smaller and quicker to encode. */
    s->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_status_t st = cairo_surface_status(s->surface);
    if (st == CAIRO_STATUS_SUCCESS) {
        s->cr = cairo_create(s->surface);
        st = cairo_status(s->cr);
    }
    if (st != CAIRO_STATUS_SUCCESS) {
        s_free(&s->base);
        return s_status(st, err);
    }
    /* Text hinting off: glyph metrics then scale like SVG's, so the PNG's
     * labels sit where the SVG's do. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(s->cr, fo);
    cairo_font_options_destroy(fo);
    *out = &s->base;
    return 0;
}
