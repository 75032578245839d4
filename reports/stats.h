/*
 * reports/stats.h — the report's tables over many games: per archive, per job,
 * per player. Built one game at a time (hs_report_stats_add with a loaded
 * hs_report_game_t), so a report streams over the store and never holds more
 * than one game and the running sums.
 *
 * What is counted:
 *  - games analysed (with at least one evaluation) and games failed (the
 *    store's failed table, hs_report_stats_add_failed);
 *  - how often the final evaluation's winner agrees with the recorded result,
 *    over the games judged at their last position whose recorded komi can give
 *    their result; those judged earlier and those whose komi cannot are
 *    counted apart (hs_report_final);
 *  - how well the result is predicted by move number: for buckets of 50 moves,
 *    the share of positions whose evaluation's winner (win rate, else the sign
 *    of the lead) is the recorded winner;
 *  - per player: moves judged, the mean point loss per move and the accuracy
 *    (the share of moves that lost at most 1 point), overall, by year (from the
 *    game's date) and by opponent, and how many of those moves the static
 *    judge alone measured (it rarely sees a loss: such an accuracy is near
 *    100% whoever played);
 *  - histograms: point loss per move (0..10 points in 20 bins, the last bin
 *    holding everything above), and the final lead (-50..50 in 20 bins).
 * The writers give every table as CSV (a header row, RFC 4180 quoting) and as
 * JSON (one object of arrays), ready for pandas and spreadsheets. The games
 * table (one row a game) is not kept here: the report writes its rows as it
 * reads the games (hs_report_games_*).
 */
#ifndef HS_REPORTS_STATS_H
#define HS_REPORTS_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "reports/game_report.h"

#define HS_STATS_MOVE_BUCKET 50      /* moves per prediction bucket */
#define HS_STATS_BUCKETS 8           /* 0-49, ..., 350+ */
#define HS_STATS_LOSS_BINS 20
#define HS_STATS_LEAD_BINS 20

typedef struct hs_stats_player {
    char *name;                  /* malloc'd */
    int64_t games, moves;        /* moves with a measured loss */
    double loss_sum;             /* points */
    int64_t accurate;            /* moves that lost <= 1 point */
    int64_t judge_moves;         /* of moves: measured by the static judge alone
                                  * (hs_report_loss_by_judge) */
} hs_stats_player_t;

/* One row of a per-player breakdown: player + key (a year "2019" or an opponent). */
typedef struct hs_stats_split {
    char *player, *key;          /* malloc'd */
    int64_t games, moves, accurate, judge_moves;
    double loss_sum;
} hs_stats_split_t;

typedef struct hs_report_stats {
    int64_t games, analysed, failed;
    int64_t final_known, final_agree;   /* HS_REPORT_FINAL_END games only */
    int64_t final_partial;       /* HS_REPORT_FINAL_PARTIAL: judged before their end */
    int64_t final_komi_unknown;  /* HS_REPORT_FINAL_KOMI: result and komi disagree */
    char positions[24];          /* which positions of each game were read: a job's
                                  * moves spec ("every:10"); "" = all (the summary's
                                  * `positions`). Set by the caller. */
    int64_t predict_total[HS_STATS_BUCKETS], predict_right[HS_STATS_BUCKETS];
    int64_t loss_hist[HS_STATS_LOSS_BINS];
    int64_t lead_hist[HS_STATS_LEAD_BINS];
    hs_stats_player_t *players;  /* sorted by name after hs_report_stats_finish */
    int num_players;
    hs_stats_split_t *by_year, *by_opponent;
    int num_by_year, num_by_opponent;
    void *index;                 /* internal lookup tables */
} hs_report_stats_t;

void hs_report_stats_init(hs_report_stats_t *st);
/* Counts one loaded game. 0 or HS_ENOMEM. */
int hs_report_stats_add(hs_report_stats_t *st, const hs_report_game_t *g, hs_error_t *err);
/* Counts n games the store could not read (its failed table). */
void hs_report_stats_add_failed(hs_report_stats_t *st, int64_t n);
/* Sorts the tables (players by name, splits by player then key). */
void hs_report_stats_finish(hs_report_stats_t *st);
void hs_report_stats_fini(hs_report_stats_t *st);

/* The tables by name: "summary", "prediction", "players", "by_year",
 * "by_opponent", "loss_histogram", "lead_histogram". */
extern const char *const hs_report_stats_tables[];
extern const int hs_report_stats_num_tables;

/* Writes table `name` as CSV to out. 0, HS_EINVAL (unknown table), HS_EIO. */
int hs_report_stats_csv(const hs_report_stats_t *st, const char *name, FILE *out,
                        hs_error_t *err);
/* Writes every table as ONE JSON object {"summary":{...},"players":[...],...}. */
int hs_report_stats_json(const hs_report_stats_t *st, FILE *out, hs_error_t *err);
/* The same object with "games":[...] last: the objects of games (rewound and
 * read), JSON Lines as hs_report_games_json_row writes them; NULL: no "games"
 * (as hs_report_stats_json). 0 or HS_EIO. */
int hs_report_stats_json_games(const hs_report_stats_t *st, FILE *games, FILE *out,
                               hs_error_t *err);

/* The games table, a row per game as index.html's games table shows it:
 * game_id, black, white, date, result, moves, analysed, final_judgment
 * ("agrees", "differs", "komi unknown" or missing), largest_loss_black,
 * largest_loss_white (points, 3 decimals), source, final_move (the position
 * the judgment is of) and komi; a missing value is an empty field in CSV,
 * null in JSON. The CSV header line, a game's CSV line, and a game's JSON
 * object on a line of its own. Write errors show on out (ferror). */
void hs_report_games_csv_head(FILE *out);
void hs_report_games_csv_row(const hs_report_game_t *g, FILE *out);
void hs_report_games_json_row(const hs_report_game_t *g, FILE *out);

#endif
