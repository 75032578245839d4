/*
 * reports/stats_write.c — the tables of reports/stats.h as CSV and JSON.
 *
 * Each table is described once (its columns and a function filling one row's
 * cells) and both writers walk that description, so the CSV and the JSON of a
 * table always hold the same columns and the same numbers. Real numbers are
 * written with 3 decimals in both; a missing number (a mean over no moves, an
 * open bin edge) is an empty CSV field and a JSON null, which pandas reads as
 * NaN either way. CSV follows RFC 4180: CRLF line ends, a field quoted when it
 * holds a comma, a quote, CR or LF, quotes doubled inside.
 *
 * The games table is the exception to "described once per table": its rows are
 * the games themselves, which the report does not keep, so it is written a row
 * at a time as each game is read (the same cells for CSV and JSON).
 */
#include "reports/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/json.h"

typedef enum { S_INT, S_REAL, S_TEXT } s_type_t;

/* One cell: an integer, a real (NAN = missing) or a string (NULL = missing). */
typedef struct {
    s_type_t type;
    int64_t i;
    double d;
    const char *s;
} s_cell_t;

#define S_MAX_COLUMNS 16

typedef struct {
    const char *name;
    const char *columns[S_MAX_COLUMNS];
    int num_columns;
    bool single;                 /* one row, an object in JSON (the summary) */
    int (*rows)(const hs_report_stats_t *st);
    void (*row)(const hs_report_stats_t *st, int r, s_cell_t *cells);
} s_table_t;

static s_cell_t s_int(int64_t i) { return (s_cell_t){ .type = S_INT, .i = i }; }
static s_cell_t s_real(double d) { return (s_cell_t){ .type = S_REAL, .d = d }; }
static s_cell_t s_text(const char *s) { return (s_cell_t){ .type = S_TEXT, .s = s }; }

/* a / b, NAN when b is 0 (a share or a mean over nothing is unknown, not 0). */
static double s_ratio(double a, int64_t b)
{
    return b ? a / (double)b : NAN;
}

/* ---- the tables ---- */

static int s_one(const hs_report_stats_t *st) { (void)st; return 1; }

static void s_summary_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    (void)r;
    c[0] = s_int(st->games);
    c[1] = s_int(st->analysed);
    c[2] = s_int(st->failed);
    c[3] = s_int(st->final_known);
    c[4] = s_int(st->final_agree);
    c[5] = s_real(s_ratio((double)st->final_agree, st->final_known));
    c[6] = s_int(st->num_players);
    /* Appended after the first seven, which readers may take by position. */
    c[7] = s_int(st->final_partial);
    c[8] = s_int(st->final_komi_unknown);
    c[9] = s_text(st->positions[0] ? st->positions : "all");
    /* At those positions every stored evaluation is read, whatever job
     * stored it and whatever its engine (a job's own engines are not
     * singled out): said here so a reader of the tables knows it. */
    c[10] = s_text("any");
}

static int s_buckets(const hs_report_stats_t *st) { (void)st; return HS_STATS_BUCKETS; }

static void s_prediction_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    c[0] = s_int(r);
    c[1] = s_int((int64_t)r * HS_STATS_MOVE_BUCKET);
    c[2] = r + 1 < HS_STATS_BUCKETS ? s_int((int64_t)(r + 1) * HS_STATS_MOVE_BUCKET - 1)
                                    : s_real(NAN);
    c[3] = s_int(st->predict_total[r]);
    c[4] = s_int(st->predict_right[r]);
    c[5] = s_real(s_ratio((double)st->predict_right[r], st->predict_total[r]));
}

static int s_players(const hs_report_stats_t *st) { return st->num_players; }

/* games, moves, accurate, mean_loss, accuracy, judge_moves from c[0]. */
static void s_sums(s_cell_t *c, int64_t games, int64_t moves, int64_t accurate, double loss,
                   int64_t judge_moves)
{
    c[0] = s_int(games);
    c[1] = s_int(moves);
    c[2] = s_int(accurate);
    c[3] = s_real(s_ratio(loss, moves));
    c[4] = s_real(s_ratio((double)accurate, moves));
    c[5] = s_int(judge_moves);
}

static void s_player_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    const hs_stats_player_t *p = &st->players[r];
    c[0] = s_text(p->name);
    s_sums(c + 1, p->games, p->moves, p->accurate, p->loss_sum, p->judge_moves);
}

static void s_split_row(const hs_stats_split_t *p, s_cell_t *c)
{
    c[0] = s_text(p->player);
    c[1] = s_text(p->key);
    s_sums(c + 2, p->games, p->moves, p->accurate, p->loss_sum, p->judge_moves);
}

static int s_years(const hs_report_stats_t *st) { return st->num_by_year; }
static void s_year_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    s_split_row(&st->by_year[r], c);
}

static int s_opponents(const hs_report_stats_t *st) { return st->num_by_opponent; }
static void s_opponent_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    s_split_row(&st->by_opponent[r], c);
}

static void s_bin_row(s_cell_t *c, int r, double lo, double width, int64_t count)
{
    c[0] = s_int(r);
    c[1] = s_real(lo + r * width);
    c[2] = s_real(lo + (r + 1) * width);
    c[3] = s_int(count);
}

static int s_loss_bins(const hs_report_stats_t *st) { (void)st; return HS_STATS_LOSS_BINS; }
static void s_loss_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    s_bin_row(c, r, 0.0, 10.0 / HS_STATS_LOSS_BINS, st->loss_hist[r]);
}

static int s_lead_bins(const hs_report_stats_t *st) { (void)st; return HS_STATS_LEAD_BINS; }
static void s_lead_row(const hs_report_stats_t *st, int r, s_cell_t *c)
{
    s_bin_row(c, r, -50.0, 100.0 / HS_STATS_LEAD_BINS, st->lead_hist[r]);
}

#define S_SUMS "games", "moves", "accurate", "mean_loss", "accuracy", "judge_moves"

static const s_table_t s_tables[] = {
    { "summary", { "games", "analysed", "failed", "final_known", "final_agree",
                   "final_agree_rate", "players", "final_partial", "final_komi_unknown",
                   "positions", "engines" }, 11, true, s_one, s_summary_row },
    { "prediction", { "bucket", "first_move", "last_move", "positions", "right", "rate" },
      6, false, s_buckets, s_prediction_row },
    { "players", { "player", S_SUMS }, 7, false, s_players, s_player_row },
    { "by_year", { "player", "year", S_SUMS }, 8, false, s_years, s_year_row },
    { "by_opponent", { "player", "opponent", S_SUMS }, 8, false, s_opponents, s_opponent_row },
    { "loss_histogram", { "bin", "from", "to", "count" }, 4, false, s_loss_bins, s_loss_row },
    { "lead_histogram", { "bin", "from", "to", "count" }, 4, false, s_lead_bins, s_lead_row },
};

#define S_NUM_TABLES ((int)(sizeof s_tables / sizeof s_tables[0]))

const char *const hs_report_stats_tables[] = {
    "summary", "prediction", "players", "by_year", "by_opponent",
    "loss_histogram", "lead_histogram",
};
const int hs_report_stats_num_tables = S_NUM_TABLES;

_Static_assert(sizeof hs_report_stats_tables / sizeof hs_report_stats_tables[0]
               == sizeof s_tables / sizeof s_tables[0], "one name per table");

/* ---- writing ---- */

/* A real with 3 decimals; "-0.000" becomes "0.000" so a tiny negative
 * rounding never shows as a sign. Returns false for NAN / infinities. */
static bool s_format_real(double d, char buf[64])
{
    if (!isfinite(d))
        return false;
    snprintf(buf, 64, "%.3f", d);
    if (!strcmp(buf, "-0.000"))
        strcpy(buf, "0.000");
    return true;
}

static void s_csv_cell(FILE *out, const s_cell_t *c)
{
    char buf[64];
    if (c->type == S_INT)
        fprintf(out, "%" PRId64, c->i);
    else if (c->type == S_TEXT)
        hs_csv_string(out, c->s);   /* NULL: an empty field */
    else if (s_format_real(c->d, buf))
        fputs(buf, out);
}

static void s_json_cell(FILE *out, const s_cell_t *c)
{
    char buf[64];
    if (c->type == S_INT)
        fprintf(out, "%" PRId64, c->i);
    else if (c->type == S_TEXT && c->s)
        hs_json_string(out, c->s);
    else if (c->type == S_TEXT)
        fputs("null", out);
    else
        fputs(s_format_real(c->d, buf) ? buf : "null", out);
}

static const s_table_t *s_table(const char *name)
{
    for (int i = 0; i < S_NUM_TABLES; i++)
        if (name && !strcmp(s_tables[i].name, name))
            return &s_tables[i];
    return NULL;
}

/* Flushes out and reports a failed write (a full disk, a closed pipe). */
static int s_done(FILE *out, const char *what, hs_error_t *err)
{
    if (fflush(out) || ferror(out))
        return hs_error_set(err, HS_EIO, "report stats: writing %s failed", what);
    return 0;
}

/* One CSV line: the names (a header) or the cells. */
static void s_csv_line(FILE *out, const char *const *names, const s_cell_t *cells, int n)
{
    for (int c = 0; c < n; c++) {
        if (c)
            fputc(',', out);
        if (names)
            fputs(names[c], out);
        else
            s_csv_cell(out, &cells[c]);
    }
    fputs("\r\n", out);
}

int hs_report_stats_csv(const hs_report_stats_t *st, const char *name, FILE *out,
                        hs_error_t *err)
{
    const s_table_t *t = s_table(name);
    if (!t)
        return hs_error_set(err, HS_EINVAL, "report stats: no table named '%s'",
                            name ? name : "(null)");
    s_csv_line(out, t->columns, NULL, t->num_columns);
    int rows = t->rows(st);
    for (int r = 0; r < rows; r++) {
        s_cell_t cells[S_MAX_COLUMNS];
        t->row(st, r, cells);
        s_csv_line(out, NULL, cells, t->num_columns);
    }
    return s_done(out, t->name, err);
}

/* {"name":cell,...} */
static void s_json_cells(FILE *out, const char *const *names, const s_cell_t *cells, int n)
{
    fputc('{', out);
    for (int c = 0; c < n; c++) {
        fprintf(out, "%s\"%s\":", c ? "," : "", names[c]);
        s_json_cell(out, &cells[c]);
    }
    fputc('}', out);
}

static void s_json_object(FILE *out, const s_table_t *t, const hs_report_stats_t *st, int r)
{
    s_cell_t cells[S_MAX_COLUMNS];
    t->row(st, r, cells);
    s_json_cells(out, t->columns, cells, t->num_columns);
}

/* The array "games" of report.json from the JSON Lines of games: one object a
 * line, as hs_report_games_json_row wrote them. */
static int s_json_games(FILE *games, FILE *out, hs_error_t *err)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool first = true;
    fputs(",\n\"games\":[", out);
    rewind(games);
    while ((n = getline(&line, &cap, games)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        if (n == 0)
            continue;
        fputs(first ? "\n" : ",\n", out);
        fputs(line, out);
        first = false;
    }
    free(line);
    fputc(']', out);
    if (ferror(games))
        return hs_error_set(err, HS_EIO, "report stats: reading back the games failed");
    return 0;
}

int hs_report_stats_json_games(const hs_report_stats_t *st, FILE *games, FILE *out,
                               hs_error_t *err)
{
    fputc('{', out);
    for (int i = 0; i < S_NUM_TABLES; i++) {
        const s_table_t *t = &s_tables[i];
        fprintf(out, "%s\n\"%s\":", i ? "," : "", t->name);
        if (t->single) {
            s_json_object(out, t, st, 0);
            continue;
        }
        fputc('[', out);
        int rows = t->rows(st);
        for (int r = 0; r < rows; r++) {
            fputs(r ? ",\n" : "\n", out);
            s_json_object(out, t, st, r);
        }
        fputc(']', out);
    }
    int rc = games ? s_json_games(games, out, err) : 0;
    fputs("\n}\n", out);
    return rc ? rc : s_done(out, "JSON", err);
}

int hs_report_stats_json(const hs_report_stats_t *st, FILE *out, hs_error_t *err)
{
    return hs_report_stats_json_games(st, NULL, out, err);
}

/* ---- the games table ---- */

static const char *const s_game_columns[] = {
    "game_id", "black", "white", "date", "result", "moves", "analysed", "final_judgment",
    "largest_loss_black", "largest_loss_white", "source", "final_move", "komi",
};
#define S_GAME_COLUMNS ((int)(sizeof s_game_columns / sizeof s_game_columns[0]))
_Static_assert(sizeof s_game_columns / sizeof s_game_columns[0] <= S_MAX_COLUMNS,
               "the games table fits a row of cells");

/* A game's cells, as its row of index.html's games table shows them; hex
 * holds the id the "game_id" cell points to. */
static void s_game_row(const hs_report_game_t *g, char hex[33], s_cell_t *c)
{
    c[0] = s_text(hs_game_id_hex(&g->game, hex));
    c[1] = s_text(g->game.black);
    c[2] = s_text(g->game.white);
    c[3] = s_text(g->game.date);
    c[4] = s_text(g->game.result_raw);
    c[5] = s_int(g->game.num_moves);
    c[6] = s_int(g->analysed);
    hs_report_final_t fin = hs_report_final(g);
    c[7] = s_text(fin == HS_REPORT_FINAL_NONE ? NULL : fin == HS_REPORT_FINAL_KOMI
                  ? "komi unknown" : g->final_agrees ? "agrees" : "differs");
    for (int side = 0; side < 2; side++)
        c[8 + side] = s_real(g->num_mistakes[side] ? g->mistakes[side][0].loss_points : NAN);
    c[10] = s_text(g->source);
    /* Appended (readers may take the columns by position): the position the
     * judgment is of, below moves for a partly analysed game; the komi the
     * engines were given, which the result may contradict. */
    c[11] = g->final_move >= 0 ? s_int(g->final_move) : s_real(NAN);
    c[12] = s_real(g->game.komi);
}

void hs_report_games_csv_head(FILE *out)
{
    s_csv_line(out, s_game_columns, NULL, S_GAME_COLUMNS);
}

void hs_report_games_csv_row(const hs_report_game_t *g, FILE *out)
{
    char hex[33];
    s_cell_t cells[S_MAX_COLUMNS];
    s_game_row(g, hex, cells);
    s_csv_line(out, NULL, cells, S_GAME_COLUMNS);
}

void hs_report_games_json_row(const hs_report_game_t *g, FILE *out)
{
    char hex[33];
    s_cell_t cells[S_MAX_COLUMNS];
    s_game_row(g, hex, cells);
    s_json_cells(out, s_game_columns, cells, S_GAME_COLUMNS);
    fputc('\n', out);
}
