/*
 * reports/report_board.c — the position explorer in the report (`report
 * --board FILE.sgf --move N`): the asked board with the moves played next
 * lettered A, B, C... (most played first, as Kombilo and joseki explorers show
 * them), the table of those moves, and the stored games that reached it. The
 * answer comes from the board index (store/query.h, hs_query_board): no scan.
 * Each asked format gets it: the section of index.html, the picture's SVG and
 * PNG files, csv/board-next.csv (the next moves) and board.json (the object of
 * `query --board --json`), so a report without html still answers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "reports/html_internal.h"
#include "store/query.h"

#define S_LABELS 26      /* letters A..Z on the board; the table lists every move */
#define S_GAMES_SHOWN 100

static int s_draw(const void *what, hs_pic_format_t fmt, char **out, size_t *len,
                  hs_error_t *err)
{
    return hs_board_pic_draw(what, HS_OVERLAY_NONE, fmt, out, len, err);
}

static void s_stones(const hs_board_t *b, uint8_t *stones)
{
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            stones[y * b->size + x] = b->color[hs_board_point(b, x, y)];
}

static int s_picture(hs__report_ctx_t *c, FILE *page, const hs_board_answer_t *a)
{
    const hs_board_t *b = c->o->board;
    uint8_t stones[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    hs_board_label_t labels[S_LABELS];
    int n = 0;
    s_stones(b, stones);
    for (int i = 0; i < a->num_next && n < S_LABELS; i++) {
        if (a->next[i].x < 0)
            continue;   /* a pass has no point to letter */
        labels[n] = (hs_board_label_t){ .x = a->next[i].x, .y = a->next[i].y };
        snprintf(labels[n].text, sizeof labels[n].text, "%c", 'A' + n);
        n++;
    }
    int lx = -1, ly = -1;
    if (b->last_move != HS_NO_POINT && b->last_move != HS_PASS) {
        lx = hs_board_x(b, b->last_move);
        ly = hs_board_y(b, b->last_move);
    }
    hs_board_pic_t pic = { .size = b->size, .stones = stones, .last_x = lx, .last_y = ly,
                           .labels = labels, .num_labels = n, .caption = c->o->board_name,
                           .width_px = c->board_px > 360 ? c->board_px : 360 };
    return hs__report_picture(c, page, "map board-query", "board-query", "board-query",
                              NULL, s_draw, &pic);
}

static void s_next_table(FILE *page, const hs_board_answer_t *a)
{
    fputs("<table class=\"sortable\" id=\"board-next\"><thead><tr><th>Label</th><th>Move</th>"
          "<th>Colour</th><th>Games</th><th>Won by its player %</th><th>Win rate after (B) %"
          "</th><th>Lead after (B)</th><th>Engine</th></tr></thead><tbody>\n", page);
    int letter = 0;
    for (int i = 0; i < a->num_next; i++) {
        const hs_board_next_t *m = &a->next[i];
        char v[8];
        int vertex = m->x < 0 ? HS_GAME_PASS : m->y * a->size + m->x;
        fputs("<tr><td>", page);
        if (m->x >= 0 && letter < S_LABELS)
            fprintf(page, "%c", 'A' + letter++);
        fprintf(page, "</td><td>%s</td><td>%s</td><td>%d</td><td>",
                hs__html_vertex(a->size, vertex, v), m->color == HS_BLACK ? "B" : "W",
                m->count);
        hs__html_num(page, m->decided ? 100.0 * m->wins / m->decided : (double)NAN, 1);
        fputs("</td><td>", page);
        hs__html_num(page, m->eval_win_rate * 100.0, 1);
        fputs("</td><td>", page);
        hs__html_num(page, m->eval_lead, 1);
        fputs("</td><td>", page);
        hs__html_text(page, m->eval_engine);
        fputs("</td></tr>\n", page);
    }
    fputs("</tbody></table>\n", page);
}

static void s_games(hs__report_ctx_t *c, FILE *page, const hs_board_answer_t *a)
{
    fputs("<table id=\"board-games\"><thead><tr><th>Game</th><th>Date</th><th>Move</th>"
          "</tr></thead><tbody>\n", page);
    for (int i = 0; i < a->num_hits && i < S_GAMES_SHOWN; i++) {
        hs_game_t g;
        hs_error_t why = { 0 };
        fputs("<tr><td>", page);
        if (hs_store_game_get(c->store, a->hits[i].game_id, &g, NULL, NULL, &why) == 0) {
            hs__html_text(page, g.black ? g.black : "?");
            fputs(" &ndash; ", page);
            hs__html_text(page, g.white ? g.white : "?");
            fputs("</td><td>", page);
            hs__html_text(page, g.date);
            hs_game_fini(&g);
        } else {
            fputs("?</td><td>", page);
        }
        fprintf(page, "</td><td>%d</td></tr>\n", a->hits[i].move_number);
    }
    fputs("</tbody></table>\n", page);
    if (a->num_hits > S_GAMES_SHOWN)
        fprintf(page, "<p class=\"note\">%d more games.</p>\n", a->num_hits - S_GAMES_SHOWN);
}

/* csv/board-next.csv: the next moves, as the page's table lists them. */
static int s_csv(hs__report_ctx_t *c, const hs_board_answer_t *a)
{
    static const char rel[] = "csv/board-next.csv";
    FILE *f = hs__report_open(c, rel);
    if (!f)
        return HS_EIO;
    fputs("move,color,games,decided,wins,win_rate,lead,engine\r\n", f);
    for (int i = 0; i < a->num_next; i++) {
        const hs_board_next_t *m = &a->next[i];
        char v[8];
        int vertex = m->x < 0 ? HS_GAME_PASS : m->y * a->size + m->x;
        fprintf(f, "%s,%c,%d,%d,%d,", hs__html_vertex(a->size, vertex, v),
                m->color == HS_BLACK ? 'B' : 'W', m->count, m->decided, m->wins);
        if (!isnan(m->eval_win_rate))
            fprintf(f, "%.4f", (double)m->eval_win_rate);
        fputc(',', f);
        if (!isnan(m->eval_lead))
            fprintf(f, "%.2f", (double)m->eval_lead);
        fputc(',', f);
        hs_csv_string(f, m->eval_engine);
        fputs("\r\n", f);
    }
    return hs__report_close(c, f, rel);
}

static int s_json(hs__report_ctx_t *c, const hs_board_answer_t *a)
{
    FILE *f = hs__report_open(c, "board.json");
    if (!f)
        return HS_EIO;
    int rc = hs_board_answer_print(c->store, a, true, f, c->err);
    int rc2 = hs__report_close(c, f, "board.json");
    return rc ? rc : rc2;
}

static void s_section(hs__report_ctx_t *c, FILE *page, const hs_board_answer_t *a)
{
    fputs("<h2>Position explorer</h2>\n<section id=\"board\">\n<p>", page);
    hs__html_text(page, c->o->board_name);
    fprintf(page, ": reached in %d stored game%s (any orientation); %d different move%s "
            "played next, shown in this orientation.</p>\n", a->num_hits,
            a->num_hits == 1 ? "" : "s", a->num_next, a->num_next == 1 ? "" : "s");
}

int hs__report_board(hs__report_ctx_t *c, FILE *page)
{
    hs_board_answer_t a;
    int rc = hs_query_board(c->store, c->o->board, &a, c->err);
    if (rc < 0)
        return rc;
    if (page)
        s_section(c, page, &a);
    rc = s_picture(c, page, &a);
    if (rc == 0 && page) {
        s_next_table(page, &a);
        s_games(c, page, &a);
    }
    if (page)
        fputs("</section>\n", page);
    if (rc == 0 && (c->formats & HS_REPORT_CSV))
        rc = s_csv(c, &a);
    if (rc == 0 && (c->formats & HS_REPORT_JSON))
        rc = s_json(c, &a);
    hs_board_answer_fini(&a);
    return rc;
}
