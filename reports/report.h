/*
 * reports/report.h — `hyeongse report`: from a store to a folder a person opens.
 *
 *   OUT/index.html           the selection's tables (summary, prediction by move,
 *                            players — sortable —, by year, by opponent), the
 *                            histograms, the list of games; the board explorer's
 *                            answer when a board was asked
 *   OUT/list/games-NNNN.html every game's row of that list, 1,000 a page, when
 *                            the selection holds more than the index's 500
 *   OUT/games/ID.html        one game: win-rate and score-lead graphs (source
 *                            labelled, biggest swings marked), each player's
 *                            mistakes, the maps at the chosen moves
 *   OUT/games/ID.sgf         the annotated SGF                       (format sgf)
 *   OUT/csv/TABLE.csv        every table, games.csv a row per game   (format csv)
 *   OUT/report.json          every table in one object, "games" too  (format json)
 *   OUT/svg/..., OUT/png/... every picture as a file          (formats svg, png)
 *
 * The HTML is static and self-contained: pictures are inline SVG, the style is
 * in the page, a few lines of plain JavaScript sort the tables; nothing is
 * fetched, so it opens offline and from a copied folder.
 *
 * Streaming: games are read one at a time (the selection's game ids are the only
 * list kept: 16 bytes a game), each game's page and SGF are written as it is
 * read, the running tables grow with the players, and the games list of
 * index.html and report.json's games go through temporary files until the end
 * (csv/games.csv is written as the games are read). Memory does not grow with
 * the archive beyond the ids.
 *
 * An earlier report in OUT is neither cleared nor mixed in silently: the files
 * it has of other games stay, and the summary counts them (stale_*).
 *
 * Reads only: the store may be opened HS_STORE_RDONLY while a writer works.
 */
#ifndef HS_REPORTS_REPORT_H
#define HS_REPORTS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "store/store.h"

/* Output formats (--format html,svg,png,csv,json,sgf). */
#define HS_REPORT_HTML 0x01u
#define HS_REPORT_SVG  0x02u
#define HS_REPORT_PNG  0x04u
#define HS_REPORT_CSV  0x08u
#define HS_REPORT_JSON 0x10u
#define HS_REPORT_SGF  0x20u
#define HS_REPORT_DEFAULT (HS_REPORT_HTML | HS_REPORT_CSV | HS_REPORT_JSON | HS_REPORT_SGF)

/* "html,png" (also "all") into HS_REPORT_* bits: 0 or HS_EINVAL naming the word. */
int hs_report_formats_parse(const char *list, unsigned *formats, hs_error_t *err);

#define HS_REPORT_MAX_MOVES 16
#define HS_REPORT_MOVE_END (-1)

/* Which games: exactly one of game_hex, player, job, all. */
typedef struct hs_report_select {
    const char *game_hex;        /* one game by its 32 hex digits */
    const char *player;          /* every game NAME played (Black or White) */
    uint64_t job;                /* every game of this job (0 = not this), read at
                                  * the positions of its moves spec only */
    bool all;                    /* every game in the store */
} hs_report_select_t;

/* Progress: games done of total, after every game (the CLI draws a bar). */
typedef void (*hs_report_progress_cb)(void *ctx, int64_t done, int64_t total);

typedef struct hs_report_opts {
    const char *out_dir;         /* created when missing */
    unsigned formats;            /* HS_REPORT_* (0 = HS_REPORT_DEFAULT) */
    int moves[HS_REPORT_MAX_MOVES];   /* map moves (HS_REPORT_MOVE_END = the end) */
    int num_moves;               /* 0 = 50, 100, 150 and the end */
    int board_px;                /* a map's width (0 = 300) */
    const hs_board_t *board;     /* --board: the position to look up, or NULL */
    const char *board_name;      /* how to name it ("joseki.sgf move 12") */
    hs_report_progress_cb progress;
    void *progress_ctx;
} hs_report_opts_t;

/* What a run did. */
typedef struct hs_report_summary {
    int64_t games, failed;       /* games reported, failed games counted */
    int64_t pictures;            /* pictures drawn (each once, in however many forms) */
    int64_t files;               /* files written */
    int64_t board_games;         /* --board: the stored games that reached it (-1: none asked) */
    /* Files of an earlier report left in out_dir: games/ID.*, svg/ID-*, png/ID-*
     * of games this run did not report (index.html does not list them), and
     * how many games they are. Never deleted: the folder may hold anything. */
    int64_t stale_games, stale_files;
} hs_report_summary_t;

/*
 * Writes the report of the selected games into o->out_dir. A game that cannot
 * be drawn (replay fails at a map's move) gets a note on its page, not an error.
 * *sum (may be NULL) is filled. Returns 0, HS_EINVAL (bad selection or game id;
 * an out_dir that is a file), HS_ENOTFOUND (no such game; a player or job with
 * no games is an empty report, not an error), HS_EIO (a file cannot be
 * written: its path in the message), HS_ENOMEM or a store error.
 */
int hs_report_run(hs_store_t *s, const hs_report_select_t *sel, const hs_report_opts_t *o,
                  hs_report_summary_t *sum, hs_error_t *err);

#endif
