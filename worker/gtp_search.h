/*
 * worker/gtp_search.h — what the GTP front end's search commands share
 * (gtp_play.c: genmove, undo, the clock, final_score; gtp_analyze.c: the
 * lz-/kata- analysis commands): one search tree kept across commands, so
 * that consecutive genmoves reuse it (hs_mcts_set_root keeps the subtree when
 * the position follows the old root by one or two moves), the evaluator it
 * borrows from the front end's configuration, and the time manager's clock.
 *
 * Internal to worker/gtp*.c.
 */
#ifndef HS_WORKER_GTP_SEARCH_H
#define HS_WORKER_GTP_SEARCH_H

#include "worker/gtp_internal.h"
#include "worker/mcts.h"

/* Time systems of time_settings / kgs-time_settings. */
typedef enum hs__gtp_time_kind {
    HS__GTP_TIME_NONE = 0,     /* no limit: the visit budget (and --time) only */
    HS__GTP_TIME_ABSOLUTE,     /* main time, then nothing */
    HS__GTP_TIME_BYOYOMI,      /* main time, then periods of byo_time each */
    HS__GTP_TIME_CANADIAN,     /* main time, then byo_time for every byo_stones stones */
} hs__gtp_time_kind_t;

typedef struct hs__gtp_clock {
    hs__gtp_time_kind_t kind;
    double main_time, byo_time;
    int byo_stones, byo_periods;
    /* Per colour (indexed by hs_color_t): seconds left, of the main time when
     * stones is 0, else of the current period; stones: left in the
     * canadian period, or byo-yomi periods left (as KGS sends time_left). */
    double left[3];
    int stones[3];
} hs__gtp_clock_t;

struct hs__gtp_search {
    hs_mcts_evaluator_t *ev;   /* borrowed from the config; NULL: no search */
    hs_mcts_config_t cfg;      /* genmove's */
    hs_mcts_t *mcts;           /* created at the first search */
    hs_mcts_result_t *res;     /* reused for every report */
    hs_board_t root_board;     /* the board searched (to_move set for genmove COLOR) */
    hs__gtp_clock_t clock;
    double move_time;
    double resign_threshold;
    int analysis_visits;
    /* the move filter of the next hs__gtp_search_root (the analysis
     * commands' avoid / allow, set around the call); NULL: none */
    const hs_mcts_filter_t *filter;
};

/* Sets the tree's root to the game's position with color to move, with cfg
 * as its configuration and s->filter as its move filter (the tree is
 * cleared when that changes). 0, or nonzero with the message in r. */
int hs__gtp_search_root(hs_gtp_t *g, hs__gtp_search_t *s, hs_color_t color,
                        const hs_mcts_config_t *cfg, hs_buf_t *r);

/* Seconds genmove may spend for color now (0: no limit from the clock). */
double hs__gtp_clock_budget(const hs__gtp_search_t *s, const hs_gtp_game_t *game,
                            hs_color_t color);

/* genmove's configuration for color now: the visit budget, and a time cap
 * from the clock and --time (the smaller where both). */
void hs__gtp_genmove_config(hs_gtp_t *g, const hs__gtp_search_t *s, hs_color_t color,
                            hs_mcts_config_t *cfg);

/* genmove's root for color (genmove, lz-/kata-genmove_analyze): *t0 is set
 * to the move's start, before the root is set (freeing the tree the last
 * search left belongs to the move's time), and the search is given what is
 * left of the move's share (hs__gtp_genmove_config). The caller charges
 * hs_clock_now() - *t0 to the clock once the move is chosen. 0, or nonzero
 * with the message in r. */
int hs__gtp_genmove_root(hs_gtp_t *g, hs__gtp_search_t *s, hs_color_t color, double *t0,
                         hs_buf_t *r);

/* Takes seconds off color's clock after its move. */
void hs__gtp_clock_spend(hs__gtp_search_t *s, hs_color_t color, double seconds);

/* Formats a search vertex (y * size + x, size * size = pass) as GTP does
 * into buf (>= 8 bytes); returns buf. */
const char *hs__gtp_vertex(const hs_board_t *b, int v, char *buf);

/* The board point of a search vertex (HS_PASS for pass). */
hs_point_t hs__gtp_point(const hs_board_t *b, int v);

/* "b"/"black"/"w"/"white" (any case) into *c; -1 otherwise. */
int hs__gtp_parse_color(const char *s, hs_color_t *c);

/* genmove's decision once the search is done (s->res filled): plays the
 * chosen move for color into the game (resigns, passes) and writes its name
 * ("resign", "pass", a vertex) into name (>= 8 bytes). 0, or nonzero with
 * the message in r. */
int hs__gtp_play_chosen(hs_gtp_t *g, hs__gtp_search_t *s, hs_color_t color, char *name,
                        hs_buf_t *r);

/* The analysis commands (gtp_analyze.c); the play commands (gtp_play.c). */
int hs__gtp_register_analyze(hs_gtp_t *g, hs__gtp_search_t *s, hs_error_t *err);
int hs__gtp_register_play(hs_gtp_t *g, hs__gtp_search_t *s, hs_error_t *err);

#endif
