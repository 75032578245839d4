/*
 * reports/canvas_internal.h — what canvas.c shares with its two back ends
 * (canvas_svg.c, canvas_cairo.c): the table of drawing operations each fills
 * in. Not for use outside reports/canvas*.c.
 */
#ifndef HS_REPORTS_CANVAS_INTERNAL_H
#define HS_REPORTS_CANVAS_INTERNAL_H

#include "reports/canvas.h"

/* Each back end's canvas struct starts with this header. */
struct hs_canvas {
    const struct hs__canvas_ops *ops;
    int width, height;
    int num_gradients;
    int err;            /* a failure of the front (canvas.c) itself: HS_ENOMEM */
};

struct hs__canvas_ops {
    int (*gradient)(hs_canvas_t *c, hs_rgba_t inner, hs_rgba_t outer, double fx, double fy);
    void (*rect)(hs_canvas_t *c, double x, double y, double w, double h, const hs_paint_t *p);
    void (*line)(hs_canvas_t *c, double x1, double y1, double x2, double y2, hs_rgba_t color,
                 double width, const char *cls);
    void (*segments)(hs_canvas_t *c, const double *xy, int n, hs_rgba_t color, double width,
                     const char *cls);
    void (*circle)(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p);
    void (*poly)(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p);
    void (*text)(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text);
    void (*group)(hs_canvas_t *c, const char *cls);
    void (*group_end)(hs_canvas_t *c);
    int (*finish)(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err);
    void (*free)(hs_canvas_t *c);
};

int hs__canvas_svg_open(hs_canvas_t **out, int w, int h, hs_error_t *err);
int hs__canvas_cairo_open(hs_canvas_t **out, int w, int h, hs_error_t *err);

/* The colour's channels as 0..1 doubles (cairo) or bytes. */
static inline unsigned hs__rgba_r(hs_rgba_t c) { return (c >> 24) & 0xffu; }
static inline unsigned hs__rgba_g(hs_rgba_t c) { return (c >> 16) & 0xffu; }
static inline unsigned hs__rgba_b(hs_rgba_t c) { return (c >> 8) & 0xffu; }
static inline unsigned hs__rgba_a(hs_rgba_t c) { return c & 0xffu; }

#endif
