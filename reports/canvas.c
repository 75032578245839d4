/*
 * reports/canvas.c — canvas.h's front: checks the arguments and hands each
 * call to the back end chosen at open (SVG text or a cairo surface).
 */
#include "reports/canvas_internal.h"


int hs_canvas_open(hs_canvas_t **out, hs_pic_format_t fmt, int w, int h, hs_error_t *err)
{
    *out = NULL;
    if (w < 1 || h < 1 || w > HS_CANVAS_MAX_PX || h > HS_CANVAS_MAX_PX)
        return hs_error_set(err, HS_EINVAL, "canvas: size %dx%d outside 1..%d px", w, h,
                            HS_CANVAS_MAX_PX);
    switch (fmt) {
    case HS_PIC_SVG: return hs__canvas_svg_open(out, w, h, err);
    case HS_PIC_PNG: return hs__canvas_cairo_open(out, w, h, err);
    }
    return hs_error_set(err, HS_EINVAL, "canvas: unknown picture format %d", (int)fmt);
}

int hs_canvas_gradient(hs_canvas_t *c, hs_rgba_t inner, hs_rgba_t outer, double fx, double fy)
{
    return c->ops->gradient(c, inner, outer, fx, fy);
}

void hs_canvas_rect(hs_canvas_t *c, double x, double y, double w, double h, const hs_paint_t *p)
{
    c->ops->rect(c, x, y, w, h, p);
}

void hs_canvas_line(hs_canvas_t *c, double x1, double y1, double x2, double y2,
                    hs_rgba_t color, double width, const char *cls)
{
    c->ops->line(c, x1, y1, x2, y2, color, width, cls);
}

void hs_canvas_circle(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p)
{
    c->ops->circle(c, cx, cy, r, p);
}

void hs_canvas_poly(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p)
{
    if (n >= 2)
        c->ops->poly(c, xy, n, closed, p);
}

void hs_canvas_text(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text)
{
    if (text && *text)
        c->ops->text(c, x, y, f, text);
}

void hs_canvas_group(hs_canvas_t *c, const char *cls)
{
    c->ops->group(c, cls);
}

void hs_canvas_group_end(hs_canvas_t *c)
{
    c->ops->group_end(c);
}

int hs_canvas_finish(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    return c->ops->finish(c, out, len, err);
}

void hs_canvas_free(hs_canvas_t *c)
{
    if (c)
        c->ops->free(c);
}
