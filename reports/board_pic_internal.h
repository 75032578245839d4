/*
 * reports/board_pic_internal.h — what board_pic.c shares with
 * board_influence.c: the board's geometry and the influence overlay. Not for
 * use outside reports/board_*.c.
 */
#ifndef HS_REPORTS_BOARD_PIC_INTERNAL_H
#define HS_REPORTS_BOARD_PIC_INTERNAL_H

#include "reports/canvas.h"
#include "reports/picture.h"

typedef struct hs__board_geom {
    int n;              /* board size */
    int w;              /* picture width (and the board square's side) */
    double c;           /* cell: the distance between two lines */
    double x0, y0;      /* the top-left point (A19 on 19x19) */
} hs__board_geom_t;

/* Park's influence overlay of p (p->influence is SI x100) at threshold tau:
 * influence areas shaded, cores outlined, lumps linked, influence points as
 * dots. Returns 0 or HS_ENOMEM. */
int hs__board_influence(hs_canvas_t *cv, const hs__board_geom_t *g, const hs_board_pic_t *p,
                        int tau, hs_error_t *err);

#endif
