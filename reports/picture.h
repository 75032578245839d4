/*
 * reports/picture.h — the report's pictures: Go boards (with the ownership,
 * influence or next-move overlays) and graphs over the moves, as SVG text or as
 * PNG bytes through cairo. One drawing code path feeds both formats
 * (reports/canvas.h: an SVG writer and a cairo surface behind one interface), so
 * the SVG in the HTML and the PNG a user saves show the same picture.
 *
 * Boards look like Go boards: a wood (or plain) background, the grid, star
 * points, coordinates (A..T without I, 19..1 from the top), stones with a subtle
 * edge, the last move marked with a ring. They stay readable at 300 px wide.
 *
 * Ownership is drawn as the patent displays it: on empty points a square whose
 * side grows with |ownership| in its owner's colour; dead stones (classes 'x'
 * and 'o', or ownership against the stone beyond -50) marked with a cross in
 * the owner's colour; dame ('.') and seki ('s') points crossed in grey.
 * Influence is Park's map from the stored SI (×100): the influence points
 * (|SI| >= tau on empty points) as dots, their 4-connected lumps, the cores
 * (2×2 squares of one lump) and the influence areas (lumps with a core) shaded,
 * coloured by side.
 *
 * Errors: HS_EINVAL (a size outside 2..25, a width under 100 px, a NULL stones
 * array; also a side over HS_CANVAS_MAX_PX = 10000 px, a graph or histogram
 * under 50 px high, tau < 0, a last move or label off the board: the full list
 * is in docs/REPORTS.md), HS_ENOMEM, HS_EIO (cairo failed: its status string in
 * the message). Text that is not UTF-8 is drawn cleaned ('?'), not refused.
 * Outputs are malloc'd; the caller frees them. No state; thread-safe.
 */
#ifndef HS_REPORTS_PICTURE_H
#define HS_REPORTS_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

typedef enum hs_pic_format {
    HS_PIC_SVG = 0,          /* UTF-8 SVG text, no external references */
    HS_PIC_PNG = 1,          /* PNG bytes (cairo_surface_write_to_png_stream) */
} hs_pic_format_t;

typedef enum hs_board_overlay {
    HS_OVERLAY_NONE = 0,     /* just the position */
    HS_OVERLAY_OWNERSHIP,    /* ownership + classes, the patent's display */
    HS_OVERLAY_INFLUENCE,    /* Park's influence points, lumps, cores, areas */
} hs_board_overlay_t;

/* A short text on a point (a next move's count, a move number), in a colour
 * that reads on whatever is under it. */
typedef struct hs_board_label {
    int x, y;                /* 0-based, y = 0 the top row */
    char text[8];
} hs_board_label_t;

typedef struct hs_board_pic {
    int size;                        /* N, 2..25 */
    const uint8_t *stones;           /* N*N, y*N+x: HS_EMPTY / HS_BLACK / HS_WHITE */
    int last_x, last_y;              /* the last move's point, -1 -1 = none (or a pass) */
    const int8_t *ownership;         /* N*N -100..100 (+ = Black), or NULL */
    const char *classes;             /* N*N class letters (docs/PROTOCOL.md), or NULL */
    const int16_t *influence;        /* N*N SI ×100 (+ = Black), or NULL */
    int tau;                         /* influence-point threshold; 0 = 140 */
    const hs_board_label_t *labels;  /* drawn last, on top; may be NULL */
    int num_labels;
    const char *caption;             /* a line under the board, or NULL; shrunk,
                                      * then cut in the middle ("…"), to fit */
    int width_px;                    /* picture width; height follows (caption adds) */
    bool plain;                      /* plain background instead of wood */
} hs_board_pic_t;

/*
 * Draws board p with overlay into *out (*len bytes; SVG text is also
 * NUL-terminated). An overlay whose data p lacks (ownership NULL for
 * HS_OVERLAY_OWNERSHIP, influence NULL for HS_OVERLAY_INFLUENCE) is HS_EINVAL.
 */
int hs_board_pic_draw(const hs_board_pic_t *p, hs_board_overlay_t overlay,
                      hs_pic_format_t fmt, char **out, size_t *len, hs_error_t *err);

/* One curve of a graph over the moves: values[m] for move numbers 0..n-1
 * (NAN = no value: a gap), each drawn in the colour of its source. */
typedef struct hs_graph {
    const char *title;               /* "Win rate (Black)", drawn at the top */
    const char *unit;                /* "%" or "points": axis labels */
    const float *values;             /* n values; for "%", 0..100 */
    int n;
    const uint8_t *source;           /* n source indexes into source_names, or NULL */
    const char *const *source_names; /* legend: "MCTS", "net", "judge" */
    int num_sources;
    float y_min, y_max;              /* y range; y_min == y_max = from the data,
                                      * symmetric around 0 */
    float y_mid;                     /* the line drawn across (50 or 0) */
    const int *marks;                /* move numbers to mark (the biggest swings) */
    int num_marks;
    int width_px, height_px;
} hs_graph_t;

/* Draws graph g into *out as for hs_board_pic_draw. n < 1 or width < 100 px is
 * HS_EINVAL. */
int hs_graph_draw(const hs_graph_t *g, hs_pic_format_t fmt, char **out, size_t *len,
                  hs_error_t *err);

/* Histogram of counts[0..n) over bins [lo + i*(hi-lo)/n, ...), as for hs_graph_draw. */
int hs_histogram_draw(const char *title, const char *x_label, const int64_t *counts, int n,
                      double lo, double hi, int width_px, int height_px, hs_pic_format_t fmt,
                      char **out, size_t *len, hs_error_t *err);

#endif
