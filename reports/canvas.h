/*
 * reports/canvas.h — the pictures' drawing layer: a handful of shapes (rect,
 * line, circle, polygon/polyline, text with an anchor, a radial gradient for
 * stones, groups) drawn the same way on two back ends:
 *   - HS_PIC_SVG: SVG text (canvas_svg.c), compact (numbers with at most one
 *     decimal; consecutive shapes of one style share it in a <g>; segments
 *     as one <path>), no external references, font-family sans-serif;
 *   - HS_PIC_PNG: a cairo image surface (canvas_cairo.c) written out with
 *     cairo_surface_write_to_png_stream (cairo encodes the PNG, not us).
 * So reports/picture.h has one drawing path and its SVG and PNG match.
 *
 * Coordinates are pixels, y down. Colours are 0xRRGGBBAA (alpha 0 = none).
 * Errors are sticky: a failed drawing call is remembered and reported by
 * hs_canvas_finish, so drawing code needs no check per shape. A canvas has one
 * owner; different canvases may be used from different threads.
 */
#ifndef HS_REPORTS_CANVAS_H
#define HS_REPORTS_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "reports/picture.h"

typedef uint32_t hs_rgba_t;                    /* 0xRRGGBBAA */
#define HS_RGB(hex) ((hs_rgba_t)(((uint32_t)(hex) << 8) | 0xffu))
#define HS_RGBA(hex, a) ((hs_rgba_t)(((uint32_t)(hex) << 8) | ((uint32_t)(a) & 0xffu)))
#define HS_NONE ((hs_rgba_t)0)

/* The canvas' largest side: beyond it cairo's surfaces fail and SVGs bloat. */
#define HS_CANVAS_MAX_PX 10000

typedef struct hs_canvas hs_canvas_t;

/* How a shape is filled and stroked. */
typedef struct hs_paint {
    hs_rgba_t fill;          /* HS_NONE = no fill */
    hs_rgba_t stroke;        /* HS_NONE = no outline */
    double width;            /* outline width in px */
    int gradient;            /* > 0: fill with this hs_canvas_gradient instead */
    const char *cls;         /* SVG class attribute (tests count shapes by it), or NULL */
} hs_paint_t;

typedef enum hs_anchor {
    HS_ANCHOR_START = 0,     /* x is the text's left end */
    HS_ANCHOR_MIDDLE,        /* x is its centre */
    HS_ANCHOR_END,           /* x is its right end */
} hs_anchor_t;

typedef struct hs_font {
    double size;             /* px */
    bool bold;
    hs_anchor_t anchor;
    hs_rgba_t color;
    const char *cls;         /* SVG class, or NULL */
} hs_font_t;

/* A canvas of w x h px for fmt. Returns 0, HS_EINVAL (a side outside
 * 1..HS_CANVAS_MAX_PX, an unknown format), HS_ENOMEM or HS_EIO (cairo). */
int hs_canvas_open(hs_canvas_t **out, hs_pic_format_t fmt, int w, int h, hs_error_t *err);

/*
 * A radial gradient for filling circles: inner colour at the focus (fx, fy, as
 * fractions of the shape's bounding box, 0.5 0.5 = its centre) fading to outer
 * at the rim. Returns its id (> 0) for hs_paint_t.gradient, or 0 when the
 * canvas has failed (drawing with 0 then fills with the paint's fill).
 */
int hs_canvas_gradient(hs_canvas_t *c, hs_rgba_t inner, hs_rgba_t outer, double fx, double fy);

void hs_canvas_rect(hs_canvas_t *c, double x, double y, double w, double h, const hs_paint_t *p);
void hs_canvas_line(hs_canvas_t *c, double x1, double y1, double x2, double y2,
                    hs_rgba_t color, double width, const char *cls);
/*
 * n straight segments, xy[4i..4i+3] = x1 y1 x2 y2, each stroked as
 * hs_canvas_line strokes one: in the SVG they are ONE <path> (a board's
 * hundreds of small crosses are then one element, not hundreds), in the PNG
 * each is stroked alone. In one path what overlaps is painted once, so with a
 * translucent colour give segments that cross each other to separate calls
 * (a cross's two strokes: one call per direction), or the SVG shows the
 * crossing lighter than the PNG.
 */
void hs_canvas_segments(hs_canvas_t *c, const double *xy, int n, hs_rgba_t color,
                        double width, const char *cls);
void hs_canvas_circle(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p);
/* n points xy[2i], xy[2i+1]; closed: a polygon (filled), else a polyline (stroke only). */
void hs_canvas_poly(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p);
/* Text whose baseline is at y; its x anchored as f->anchor says. UTF-8. */
void hs_canvas_text(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text);

/* Groups what follows until hs_canvas_group_end (an SVG <g class>; nothing in
 * the PNG). Groups nest. */
void hs_canvas_group(hs_canvas_t *c, const char *cls);
void hs_canvas_group_end(hs_canvas_t *c);

/*
 * Ends the picture: *out (malloc'd, caller frees; SVG text NUL-terminated) and
 * *len. Frees c in every case. Returns 0, or the first error of any drawing
 * call (HS_ENOMEM; HS_EIO with cairo's status string).
 */
int hs_canvas_finish(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err);

/* Frees a canvas without output (after an error). NULL-safe. */
void hs_canvas_free(hs_canvas_t *c);

#endif
