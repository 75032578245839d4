/*
 * reports/report_index.c — index.html: the selection's tables (the same
 * numbers as csv/ and report.json, from reports/stats.h), the histograms, the
 * board explorer's answer when one was asked, and the list of games.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/html_internal.h"
#include "reports/stats.h"

static double s_pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : (double)NAN;
}

static void s_summary(FILE *out, const hs_report_stats_t *st)
{
    fputs("<h2>Summary</h2>\n<table id=\"summary\"><tbody>\n", out);
    fprintf(out, "<tr><td>Games</td><td>%lld</td></tr>\n", (long long)st->games);
    fprintf(out, "<tr><td>Games analysed</td><td>%lld</td></tr>\n", (long long)st->analysed);
    fprintf(out, "<tr><td>Games failed</td><td>%lld</td></tr>\n", (long long)st->failed);
    fprintf(out, "<tr><td>Final judgment agrees with the recorded result</td><td>");
    hs__html_num(out, s_pct(st->final_agree, st->final_known), 1);
    fprintf(out, "%% of %lld</td></tr>\n</tbody></table>\n", (long long)st->final_known);
}

static void s_prediction(FILE *out, const hs_report_stats_t *st)
{
    fputs("<h2>The result predicted, by move number</h2>\n<table id=\"prediction\">"
          "<thead><tr><th>Moves</th><th>Positions</th><th>Winner right</th></tr></thead>"
          "<tbody>\n", out);
    for (int b = 0; b < HS_STATS_BUCKETS; b++) {
        if (st->predict_total[b] == 0)
            continue;
        int lo = b * HS_STATS_MOVE_BUCKET;
        if (b + 1 < HS_STATS_BUCKETS)
            fprintf(out, "<tr><td>%d&ndash;%d</td>", lo, lo + HS_STATS_MOVE_BUCKET - 1);
        else
            fprintf(out, "<tr><td>%d+</td>", lo);
        fprintf(out, "<td>%lld</td><td>", (long long)st->predict_total[b]);
        hs__html_num(out, s_pct(st->predict_right[b], st->predict_total[b]), 1);
        fputs("%</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

typedef struct s_hist {
    const char *title, *x_label;
    const int64_t *counts;
    int n;
    double lo, hi;
} s_hist_t;

static int s_draw_hist(const void *what, hs_pic_format_t fmt, char **out, size_t *len,
                       hs_error_t *err)
{
    const s_hist_t *h = what;
    return hs_histogram_draw(h->title, h->x_label, h->counts, h->n, h->lo, h->hi, 420, 200,
                             fmt, out, len, err);
}

int hs__report_histograms(hs__report_ctx_t *c, FILE *out, const hs_report_stats_t *st)
{
    s_hist_t loss = { "Point loss per move", "points", st->loss_hist, HS_STATS_LOSS_BINS,
                      0, 10 };
    s_hist_t lead = { "Final score lead (Black)", "points", st->lead_hist, HS_STATS_LEAD_BINS,
                      -50, 50 };
    if (out)
        fputs("<h2>Distributions</h2>\n<section id=\"histograms\">\n", out);
    int rc = hs__report_picture(c, out, "histogram", "loss-histogram", "loss-histogram",
                                NULL, s_draw_hist, &loss);
    if (rc == 0)
        rc = hs__report_picture(c, out, "histogram", "lead-histogram", "lead-histogram",
                                NULL, s_draw_hist, &lead);
    if (out)
        fputs("</section>\n", out);
    return rc;
}

static void s_player_cells(FILE *out, int64_t games, int64_t moves, double loss_sum,
                           int64_t accurate)
{
    fprintf(out, "<td>%lld</td><td>%lld</td><td>", (long long)games, (long long)moves);
    hs__html_num(out, moves ? loss_sum / (double)moves : (double)NAN, 2);
    fputs("</td><td>", out);
    hs__html_num(out, s_pct(accurate, moves), 1);
    fputs("</td></tr>\n", out);
}

static const char s_player_head[] = "<th>Games</th><th>Moves judged</th>"
                                    "<th>Mean loss (points)</th><th>Accuracy %</th>";

static void s_players(FILE *out, const hs_report_stats_t *st)
{
    fprintf(out, "<h2>Players</h2>\n<p class=\"note\">Accuracy: the share of moves that "
            "lost at most one point. Click a column to sort.</p>\n<table class=\"sortable\" "
            "id=\"players\"><thead><tr><th>Player</th>%s</tr></thead><tbody>\n", s_player_head);
    for (int i = 0; i < st->num_players; i++) {
        const hs_stats_player_t *p = &st->players[i];
        fputs("<tr><td>", out);
        hs__html_text(out, p->name);
        fputs("</td>", out);
        s_player_cells(out, p->games, p->moves, p->loss_sum, p->accurate);
    }
    fputs("</tbody></table>\n", out);
}

static void s_splits(FILE *out, const char *id, const char *title, const char *key,
                     const hs_stats_split_t *rows, int n)
{
    if (n == 0)
        return;
    fprintf(out, "<h2>%s</h2>\n<table class=\"sortable\" id=\"%s\"><thead><tr><th>Player</th>"
            "<th>%s</th>%s</tr></thead><tbody>\n", title, id, key, s_player_head);
    for (int i = 0; i < n; i++) {
        fputs("<tr><td>", out);
        hs__html_text(out, rows[i].player);
        fputs("</td><td>", out);
        hs__html_text(out, rows[i].key);
        fputs("</td>", out);
        s_player_cells(out, rows[i].games, rows[i].moves, rows[i].loss_sum, rows[i].accurate);
    }
    fputs("</tbody></table>\n", out);
}

/* The games table: its rows were written to a file as the games were read. */
static int s_games(hs__report_ctx_t *c, FILE *out, FILE *rows)
{
    fputs("<h2>Games</h2>\n", out);
    hs__report_game_rows_head(out);
    if (rows) {
        char buf[1 << 14];
        size_t n;
        rewind(rows);
        while ((n = fread(buf, 1, sizeof buf, rows)) > 0)
            fwrite(buf, 1, n, out);
        if (ferror(rows))
            return hs_error_set(c->err, HS_EIO, "reading back the games list failed");
    }
    fputs("</tbody></table>\n", out);
    return 0;
}

int hs__report_index(hs__report_ctx_t *c, const char *title, const hs_report_stats_t *st,
                     FILE *rows)
{
    FILE *out = hs__report_open(c, "index.html");
    if (!out)
        return HS_EIO;
    hs__html_head(out, title, "");
    fputs("<h1>", out);
    hs__html_text(out, title);
    fputs("</h1>\n", out);
    int rc = 0;
    if (c->o->board)
        rc = hs__report_board(c, out);
    if (rc == 0 && st) {
        s_summary(out, st);
        s_prediction(out, st);
        rc = hs__report_histograms(c, out, st);
        s_players(out, st);
        s_splits(out, "by-year", "Players by year", "Year", st->by_year, st->num_by_year);
        s_splits(out, "by-opponent", "Players by opponent", "Opponent", st->by_opponent,
                 st->num_by_opponent);
        if (c->formats & HS_REPORT_CSV)
            fputs("<p>Every table as CSV in <a href=\"csv/\">csv/</a>; all of them in "
                  "<a href=\"report.json\">report.json</a>.</p>\n", out);
    }
    if (rc == 0 && st)
        rc = s_games(c, out, rows);
    hs__html_foot(out);
    int rc2 = hs__report_close(c, out, "index.html");
    return rc ? rc : rc2;
}
