/*
 * reports/report_index.c — index.html: the selection's tables (the same
 * numbers as csv/ and report.json, from reports/stats.h), the histograms, the
 * board explorer's answer when one was asked, and the list of games: all of
 * it in a small report, else its first rows there and every row on the pages
 * of list/ (a browser handles neither a page nor a sort of a million rows).
 * What the numbers are of is said beside them: a job's positions, the games
 * left out of the final agreement.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/game_report.h"
#include "reports/html_internal.h"
#include "reports/stats.h"

static double s_pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : (double)NAN;
}

/* Why games are left out of the final agreement, when some are. */
static void s_final_note(FILE *out, const hs_report_stats_t *st)
{
    if (st->final_partial == 0 && st->final_komi_unknown == 0)
        return;
    fputs("<p class=\"note final-scope\">The final agreement counts only games judged at "
          "their last position, with a komi that can give their result.", out);
    if (st->final_partial)
        fputs(" A game judged at an earlier position (an interrupted analysis, "
              "<code>--moves every:N</code>: the games table names the move) says little "
              "of its result.", out);
    if (st->final_komi_unknown)
        fputs(" A recorded result that the recorded komi cannot give (W+5.5 under KM[0]: "
              "Fox writes KM[0] where it does not record the komi) says that the engines "
              "counted with another komi than the one played; a result by resignation "
              "gives no such sign, so such a game won by resignation is still compared "
              "under the recorded komi.", out);
    fputs("</p>\n", out);
}

static void s_summary(FILE *out, const hs_report_stats_t *st)
{
    fputs("<h2>Summary</h2>\n<table id=\"summary\"><tbody>\n", out);
    fprintf(out, "<tr><td>Games</td><td>%lld</td></tr>\n", (long long)st->games);
    fprintf(out, "<tr><td>Games analysed</td><td>%lld</td></tr>\n", (long long)st->analysed);
    fprintf(out, "<tr><td>Games failed</td><td>%lld</td></tr>\n", (long long)st->failed);
    fprintf(out, "<tr><td>Final judgment agrees with the recorded result</td><td>");
    hs__html_num(out, s_pct(st->final_agree, st->final_known), 1);
    fprintf(out, "%% of %lld</td></tr>\n", (long long)st->final_known);
    fprintf(out, "<tr><td>Judged before their last position (not counted above)</td>"
            "<td>%lld</td></tr>\n", (long long)st->final_partial);
    fprintf(out, "<tr><td>Recorded result contradicts the komi (not counted above)</td>"
            "<td>%lld</td></tr>\n</tbody></table>\n", (long long)st->final_komi_unknown);
    s_final_note(out, st);
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
                           int64_t accurate, int64_t judge_moves)
{
    fprintf(out, "<td>%lld</td><td>%lld</td><td>", (long long)games, (long long)moves);
    hs__html_num(out, moves ? loss_sum / (double)moves : (double)NAN, 2);
    fputs("</td><td>", out);
    hs__html_num(out, s_pct(accurate, moves), 1);
    fputs("</td><td>", out);
    hs__html_num(out, s_pct(judge_moves, moves), 0);
    fputs("</td></tr>\n", out);
}

static const char s_player_head[] = "<th>Games</th><th>Moves judged</th>"
                                    "<th>Mean loss (points)</th><th>Accuracy %</th>"
                                    "<th>By the judge alone %</th>";

/* The players' note: what accuracy is, and, when the static judge alone
 * measured some of the moves, why those make it near 100% whoever played. */
static void s_players_note(FILE *out, const hs_report_stats_t *st)
{
    int64_t moves = 0, judge = 0;
    for (int i = 0; i < st->num_players; i++) {
        moves += st->players[i].moves;
        judge += st->players[i].judge_moves;
    }
    fputs("<p class=\"note\">Accuracy: the share of moves that lost at most one point. "
          "Click a column to sort.</p>\n", out);
    if (moves == 0 && st->analysed > 0)
        fputs("<p class=\"note no-losses\">No move's loss was measured: a loss needs the "
              "positions before and after the move, and no two consecutive positions were "
              "analysed (<code>--moves every:N</code> or <code>last</code>); analyse with "
              "<code>--moves all</code> for losses and accuracy.</p>\n", out);
    if (judge == 0)
        return;
    fprintf(out, "<p class=\"note judge-accuracy\">%.0f%% of these moves were measured by "
            "the static judge's count alone (the last column). Placing a stone adds a point "
            "to its player's count, so the judge rarely sees a loss, and its accuracy is near "
            "100%% whoever played: it is no measure of the play. Analyse with the net or "
            "MCTS (<code>--engines net</code>, <code>mcts:visits=N</code>) for one.</p>\n",
            s_pct(judge, moves));
}

static void s_players(FILE *out, const hs_report_stats_t *st)
{
    fputs("<h2>Players</h2>\n", out);
    s_players_note(out, st);
    fprintf(out, "<table class=\"sortable\" id=\"players\"><thead><tr><th>Player</th>%s"
            "</tr></thead><tbody>\n", s_player_head);
    for (int i = 0; i < st->num_players; i++) {
        const hs_stats_player_t *p = &st->players[i];
        fputs("<tr><td>", out);
        hs__html_text(out, p->name);
        fputs("</td>", out);
        s_player_cells(out, p->games, p->moves, p->loss_sum, p->accurate, p->judge_moves);
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
        s_player_cells(out, rows[i].games, rows[i].moves, rows[i].loss_sum, rows[i].accurate,
                       rows[i].judge_moves);
    }
    fputs("</tbody></table>\n", out);
}

/* How many games' rows index.html shows, and how many a page under list/
 * holds: one page of every game neither loads nor sorts in a browser once an
 * archive has thousands of them. */
enum { S_INDEX_ROWS = 500, S_PAGE_ROWS = 1000 };

/* n with its thousands separated ("8,334"), as the lines around the table read. */
static void s_count(FILE *out, int64_t n)
{
    if (n >= 1000) {
        s_count(out, n / 1000);
        fprintf(out, ",%03d", (int)(n % 1000));
    } else {
        fprintf(out, "%d", (int)n);
    }
}

/* One row of the rows file, grown as long as the longest row (never the file). */
typedef struct s_row {
    char *buf;
    size_t len, cap;
} s_row_t;

/* The next row into r: it ends at "</tr>\n", not at a newline alone (a player's
 * name may hold one; escaped text never holds "<"). 1 a row, 0 at the end,
 * HS_ENOMEM. */
static int s_read_row(FILE *rows, s_row_t *r)
{
    r->len = 0;
    for (int ch; (ch = getc(rows)) != EOF;) {
        if (r->len + 2 > r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 512;
            char *p = realloc(r->buf, cap);
            if (!p)
                return HS_ENOMEM;
            r->buf = p;
            r->cap = cap;
        }
        r->buf[r->len++] = (char)ch;
        if (ch == '\n' && r->len >= 6 && !memcmp(r->buf + r->len - 6, "</tr>\n", 6))
            break;
    }
    if (r->len)
        r->buf[r->len] = '\0';
    return r->len > 0;
}

/* A row with its links made relative to root ("../" from list/): the rows
 * link "games/ID.html" from OUT. Escaped text never holds a quote, so every
 * href=" is the row's own markup. */
static void s_put_row(FILE *out, const char *row, const char *root)
{
    static const char href[] = "href=\"";
    for (const char *p; *root && (p = strstr(row, href));) {
        p += sizeof href - 1;
        fwrite(row, 1, (size_t)(p - row), out);
        fputs(root, out);
        row = p;
    }
    fputs(row, out);
}

/* Up to max rows from where rows stands into out. 0 or an error (c->err). */
static int s_copy_rows(hs__report_ctx_t *c, FILE *out, FILE *rows, s_row_t *r, int64_t max,
                       const char *root)
{
    int got = 1;
    for (int64_t i = 0; i < max && (got = s_read_row(rows, r)) == 1; i++)
        s_put_row(out, r->buf, root);
    if (got < 0)
        return hs_error_set(c->err, got, "out of memory reading back the games list");
    if (ferror(rows))
        return hs_error_set(c->err, HS_EIO, "reading back the games list failed");
    return 0;
}

static int64_t s_num_pages(int64_t games)
{
    return games > S_INDEX_ROWS ? (games + S_PAGE_ROWS - 1) / S_PAGE_ROWS : 0;
}

/* A list page's name under list/ ("games-0001.html"). */
static void s_page_name(char *buf, size_t size, int64_t page)
{
    snprintf(buf, size, "games-%04lld.html", (long long)page);
}

/* Under the index's table when it shows only the first rows: where all are. */
static void s_pages_line(FILE *out, int64_t games)
{
    fprintf(out, "<p id=\"games-pages\">The first %d of ", S_INDEX_ROWS);
    s_count(out, games);
    fputs(" games; all of them, ", out);
    s_count(out, S_PAGE_ROWS);
    fputs(" a page: games list page", out);
    int64_t pages = s_num_pages(games);
    for (int64_t p = 1; p <= pages; p++) {
        char name[40];
        s_page_name(name, sizeof name, p);
        fprintf(out, "%s <a href=\"list/%s\">%lld</a>", p > 1 ? "," : "", name, (long long)p);
    }
    fputs(".</p>\n", out);
}

/* The games table: the first rows of those written as the games were read,
 * all of them in a small report, the rest on the list pages. */
static int s_games(hs__report_ctx_t *c, FILE *out, FILE *rows, int64_t games)
{
    fputs("<h2>Games</h2>\n", out);
    hs__report_game_rows_head(out);
    int rc = 0;
    if (rows) {
        s_row_t r = { 0 };
        rewind(rows);
        rc = s_copy_rows(c, out, rows, &r, S_INDEX_ROWS, "");
        free(r.buf);
    }
    fputs("</tbody></table>\n", out);
    if (games > S_INDEX_ROWS)
        s_pages_line(out, games);
    return rc;
}

/* previous · index · next, on a list page (a plain word where there is none). */
static void s_list_nav(FILE *out, int64_t page, int64_t pages)
{
    char name[40];
    fputs("<p class=\"pages\">", out);
    if (page > 1) {
        s_page_name(name, sizeof name, page - 1);
        fprintf(out, "<a href=\"%s\">previous</a>", name);
    } else {
        fputs("previous", out);
    }
    fprintf(out, " &middot; <a href=\"../index.html\">index</a> &middot; page %lld of %lld "
            "&middot; ", (long long)page, (long long)pages);
    if (page < pages) {
        s_page_name(name, sizeof name, page + 1);
        fprintf(out, "<a href=\"%s\">next</a>", name);
    } else {
        fputs("next", out);
    }
    fputs("</p>\n", out);
}

/* OUT/list/games-NNNN.html: the next S_PAGE_ROWS rows, the index's table markup. */
static int s_list_page(hs__report_ctx_t *c, const char *title, FILE *rows, s_row_t *r,
                       int64_t page, int64_t games)
{
    char name[40], rel[48], head[400];
    s_page_name(name, sizeof name, page);
    snprintf(rel, sizeof rel, "list/%s", name);
    FILE *out = hs__report_open(c, rel);
    if (!out)
        return HS_EIO;
    int64_t pages = s_num_pages(games), first = (page - 1) * S_PAGE_ROWS + 1;
    int64_t last = page * S_PAGE_ROWS < games ? page * S_PAGE_ROWS : games;
    snprintf(head, sizeof head, "%s: games list page %lld of %lld", title, (long long)page,
             (long long)pages);
    hs__html_head(out, head, "../");
    fputs("<h1>", out);
    hs__html_text(out, title);
    fputs(": games ", out);
    s_count(out, first);
    fputs("&ndash;", out);
    s_count(out, last);
    fputs(" of ", out);
    s_count(out, games);
    fputs("</h1>\n", out);
    s_list_nav(out, page, pages);
    hs__report_game_rows_head(out);
    int rc = s_copy_rows(c, out, rows, r, S_PAGE_ROWS, "../");
    fputs("</tbody></table>\n", out);
    s_list_nav(out, page, pages);
    hs__html_foot(out);
    int rc2 = hs__report_close(c, out, rel);
    return rc ? rc : rc2;
}

/* Every game's row, S_PAGE_ROWS a page, when the index shows only the first. */
static int s_list_pages(hs__report_ctx_t *c, const char *title, FILE *rows, int64_t games)
{
    int64_t pages = rows ? s_num_pages(games) : 0;
    if (pages == 0)
        return 0;
    s_row_t r = { 0 };
    rewind(rows);
    int rc = 0;
    for (int64_t p = 1; rc == 0 && p <= pages; p++)
        rc = s_list_page(c, title, rows, &r, p, games);
    free(r.buf);
    return rc;
}

/* With --job: what the report of a job reads (report.c, s_job_scope). */
static void s_job_note(hs__report_ctx_t *c, FILE *out, int64_t games)
{
    const hs_report_moves_t *m = c->only;
    fprintf(out, "<p class=\"note job-scope\">Job %llu (moves ",
            (unsigned long long)c->job->id);
    hs__html_text(out, c->job_moves);
    fputs(", engines ", out);
    hs__html_text(out, c->job->engines);
    fprintf(out, "): its %lld games, ", (long long)games);
    if (m->last_only || m->step > 1) {
        fputs("and of each game only the positions ", out);
        hs__html_text(out, c->job_moves);
        if (m->last_only)
            fputs(" names (its last)", out);
        else
            fprintf(out, " names (0, %d, %d, &hellip;: no two in a row, so no move&rsquo;s "
                    "loss is measured)", m->step, 2 * m->step);
        fputs(", even where other jobs stored more. At those positions", out);
    } else {
        fputs("every position. At each", out);
    }
    fputs(" the report uses every evaluation the store holds, whichever job stored it and "
          "whatever its engine, not only this job&rsquo;s (the store keeps one evaluation "
          "per position and engine, the first stored).</p>\n", out);
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
    if (c->job && st)
        s_job_note(c, out, c->sum ? c->sum->games : 0);
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
    /* Every game reported has its row (report.c). */
    int64_t games = c->sum ? c->sum->games : 0;
    if (rc == 0 && st)
        rc = s_games(c, out, rows, games);
    hs__html_foot(out);
    int rc2 = hs__report_close(c, out, "index.html");
    if (rc == 0 && st)
        rc = s_list_pages(c, title, rows, games);
    return rc ? rc : rc2;
}
