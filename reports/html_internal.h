/*
 * reports/html_internal.h — the pieces every page of the report is made of:
 * escaped text, the page's head (style and the table-sorting script inline, so
 * a page opens offline), tables, figures, and the paths under OUT. Internal to
 * reports/ (hs__ names).
 */
#ifndef HS_REPORTS_HTML_INTERNAL_H
#define HS_REPORTS_HTML_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "reports/picture.h"
#include "reports/report.h"

/* Writes s with &, <, >, " and ' escaped. NULL writes nothing. */
void hs__html_text(FILE *out, const char *s);

/* The page up to <body> inclusive: title escaped, style and script inline.
 * `root` is the relative path back to OUT ("" or "../") for links. */
void hs__html_head(FILE *out, const char *title, const char *root);
/* Closes the body and the page. */
void hs__html_foot(FILE *out);

/* GTP name of vertex v (y*size+x) ("D4", "pass"), or "&ndash;" for none (-1);
 * buf >= 8 bytes. */
const char *hs__html_vertex(int size, int v, char *buf);

/* A number with `decimals` or "–" for NAN. */
void hs__html_num(FILE *out, double v, int decimals);

/* The state one report run shares with its pages. */
typedef struct hs__report_ctx {
    hs_store_t *store;
    const hs_report_opts_t *o;
    unsigned formats;
    int board_px;
    hs_report_summary_t *sum;
    hs_error_t *err;
    /* The selection's game ids, sorted by (id[0], id[1]), whose pages this
     * report writes: the explorer lists only those. num_sel < 0: no selection
     * (`--board` alone). */
    const uint64_t (*sel)[2];
    int64_t num_sel;
    /* --job: the job's record and its moves spec without the journal's token;
     * only the positions `only` names are read of its games. NULL otherwise. */
    const hs_store_job_t *job;
    const char *job_moves;
    const struct hs_report_moves *only;
} hs__report_ctx_t;

/*
 * Writes a picture for a page: inline SVG in page (when not NULL) inside a
 * <figure class="CLASS" id="ID"> with the caption, and the SVG / PNG files
 * OUT/svg/NAME.svg, OUT/png/NAME.png when those formats are asked. draw is
 * called once per format needed. 0 or the drawing's / writing's error.
 */
typedef int (*hs__draw_fn)(const void *what, hs_pic_format_t fmt, char **out, size_t *len,
                           hs_error_t *err);
int hs__report_picture(hs__report_ctx_t *c, FILE *page, const char *cls, const char *id,
                       const char *name, const char *caption, hs__draw_fn draw,
                       const void *what);

/* Opens OUT/rel for writing ("games/ID.html"), making its folder; counts it.
 * NULL with HS_EIO in c->err naming the path. */
FILE *hs__report_open(hs__report_ctx_t *c, const char *rel);
/* Closes f, reporting a write error on it as HS_EIO naming rel. */
int hs__report_close(hs__report_ctx_t *c, FILE *f, const char *rel);

/* One game (reports/report_game.c): writes OUT/games/ID.html and, when asked,
 * OUT/games/ID.sgf and the pictures' files; appends the game's row of the
 * index's games table to rows. 0 or an error (c->err). */
struct hs_report_game;
int hs__report_game(hs__report_ctx_t *c, const struct hs_report_game *g, FILE *rows);

/* The header row of that table. */
void hs__report_game_rows_head(FILE *out);

/* index.html (reports/report_index.c): title, the tables and histograms of st,
 * the board section when o->board is set, then the games table from the rows
 * file (rewound and copied): a row per game of c->sum->games up to 500; past
 * that the first 500 and links to OUT/list/games-NNNN.html, every row 1,000 a
 * page, written here too. 0 or an error. */
struct hs_report_stats;
int hs__report_index(hs__report_ctx_t *c, const char *title, const struct hs_report_stats *st,
                     FILE *rows);

/* The board explorer (reports/report_board.c): the asked board with its next
 * moves lettered, their table and the games that reached it, as a section of
 * page (NULL: no HTML) and as the files of the other formats asked. */
int hs__report_board(hs__report_ctx_t *c, FILE *page);

/* The histograms of st (reports/report_index.c): figures in page (NULL: only
 * the SVG and PNG files asked). */
int hs__report_histograms(hs__report_ctx_t *c, FILE *page, const struct hs_report_stats *st);

#endif
