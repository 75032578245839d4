/*
 * reports/report_board.c — the position explorer in the report (`report
 * --board FILE.sgf --move N`): the asked board with the moves played next
 * lettered A, B, C... (most played first, as Kombilo and joseki explorers show
 * them; a point played next by both colours gets one label, "A/D"), the table
 * of those moves, and the stored games that reached it: one row per game with
 * its id, players, date and result, newest first, the first S_GAMES_SHOWN of
 * them (board.json holds every one), only the selection's when the report has
 * one. The answer comes from the board index (store/query.h, hs_query_board):
 * no scan; the list reads each listed game's record (every one, to sort them by
 * date, up to S_GAMES_DATED games; past that the first in id order only).
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

/* One game of the list under the board, read from the store. */
typedef struct s_row {
    uint64_t id[2];
    int move;                        /* the first move after which the board stood */
    char moves[32];                  /* every such move, "12" or "12, 40" */
    char *black, *white, *date, *result;   /* malloc'd; NULL when not recorded */
} s_row_t;

typedef struct s_rows {
    s_row_t *row;
    int n;
    bool by_id;   /* too many to read every game for its date: id order */
} s_rows_t;

/* Past this many games, the list is not sorted by date: that reads every
 * game's record (the empty board of a big archive is millions of them), so
 * the first S_GAMES_SHOWN in id order are read and listed instead. */
#define S_GAMES_DATED 20000

/* The games a report is about, for the list: ids sorted as s_cmp_id; n < 0
 * when there is no selection (`--board` alone: every game is listed). */
typedef struct s_sel {
    const uint64_t (*id)[2];
    int64_t n;
} s_sel_t;

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

/* The letter of each next move, in a->next's order (most played first), 0 for
 * none: a pass, or past Z. The picture and the table both read it. */
static void s_letters(const hs_board_answer_t *a, char *letter)
{
    int k = 0;
    for (int i = 0; i < a->num_next; i++)
        letter[i] = a->next[i].x >= 0 && k < S_LABELS ? (char)('A' + k++) : 0;
}

/*
 * One label per point: the board index does not key the side to move, so one
 * point can be played next by Black in some games and by White in others (two
 * moves of the table). Drawn one over the other the later letter hid the more
 * played one; their letters share one label instead, most played first ("A/D").
 */
static int s_labels(const hs_board_answer_t *a, const char *letter, hs_board_label_t *labels)
{
    int n = 0;
    for (int i = 0; i < a->num_next; i++) {
        if (!letter[i])
            continue;
        int k = 0;
        while (k < n && (labels[k].x != a->next[i].x || labels[k].y != a->next[i].y))
            k++;
        size_t len = k < n ? strlen(labels[k].text) : 0;
        if (k == n)
            labels[n++] = (hs_board_label_t){ .x = a->next[i].x, .y = a->next[i].y };
        if (len + (len ? 2 : 1) < sizeof labels[k].text)
            snprintf(labels[k].text + len, sizeof labels[k].text - len, "%s%c", len ? "/" : "",
                     letter[i]);
    }
    return n;
}

/* The caption under the board: the file's name and the move, without the
 * folders of its path, which the picture's width cannot hold (the page's text
 * above names the whole path). */
static const char *s_caption(const char *board_name)
{
    const char *slash = board_name ? strrchr(board_name, '/') : NULL;
    return slash && slash[1] ? slash + 1 : board_name;
}

static int s_picture(hs__report_ctx_t *c, FILE *page, const hs_board_answer_t *a,
                     const char *letter)
{
    const hs_board_t *b = c->o->board;
    uint8_t stones[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    hs_board_label_t labels[S_LABELS];
    s_stones(b, stones);
    int n = s_labels(a, letter, labels);
    int lx = -1, ly = -1;
    if (b->last_move != HS_NO_POINT && b->last_move != HS_PASS) {
        lx = hs_board_x(b, b->last_move);
        ly = hs_board_y(b, b->last_move);
    }
    hs_board_pic_t pic = { .size = b->size, .stones = stones, .last_x = lx, .last_y = ly,
                           .labels = labels, .num_labels = n,
                           .caption = s_caption(c->o->board_name),
                           .width_px = c->board_px > 360 ? c->board_px : 360 };
    return hs__report_picture(c, page, "map board-query", "board-query", "board-query",
                              NULL, s_draw, &pic);
}

static void s_next_table(FILE *page, const hs_board_answer_t *a, const char *letter)
{
    fputs("<table class=\"sortable\" id=\"board-next\"><thead><tr><th>Label</th><th>Move</th>"
          "<th>Colour</th><th>Games</th><th>Won by its player %</th><th>Win rate after (B) %"
          "</th><th>Lead after (B)</th><th>Engine</th></tr></thead><tbody>\n", page);
    for (int i = 0; i < a->num_next; i++) {
        const hs_board_next_t *m = &a->next[i];
        char v[8];
        int vertex = m->x < 0 ? HS_GAME_PASS : m->y * a->size + m->x;
        fputs("<tr><td>", page);
        if (letter[i])
            fputc(letter[i], page);
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

static int s_cmp_id(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Whether the list keeps game id: every game without a selection, else the
 * selection's. */
static bool s_keeps(const s_sel_t *sel, const uint64_t id[2])
{
    return sel->n < 0 || (sel->n > 0 && bsearch(id, sel->id, (size_t)sel->n, sizeof *sel->id,
                                                s_cmp_id));
}

/* A name or date the record lacks (NULL) compares as "". */
static int s_cmp_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

/* Newest first (DT is ISO, "2016-03-09"; undated last), then by the players,
 * then by id and move: one order whatever order the index gave. */
static int s_cmp_row(const void *pa, const void *pb)
{
    const s_row_t *a = pa, *b = pb;
    bool da = a->date && *a->date, db = b->date && *b->date;
    int r = da != db ? (da ? -1 : 1) : -s_cmp_text(a->date, b->date);
    if (!r)
        r = s_cmp_text(a->black, b->black);
    if (!r)
        r = s_cmp_text(a->white, b->white);
    if (!r)
        r = s_cmp_id(a->id, b->id);
    return r ? r : (a->move > b->move) - (a->move < b->move);
}

static char *s_dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void s_rows_fini(s_rows_t *r)
{
    for (int i = 0; i < r->n; i++) {
        free(r->row[i].black);
        free(r->row[i].white);
        free(r->row[i].date);
        free(r->row[i].result);
    }
    free(r->row);
    memset(r, 0, sizeof *r);
}

/* Order by game, then move: a game's hits side by side. */
static int s_cmp_hit(const void *pa, const void *pb)
{
    const s_row_t *a = pa, *b = pb;
    int r = s_cmp_id(a->id, b->id);
    return r ? r : (a->move > b->move) - (a->move < b->move);
}

/* Appends ", move" to moves, or ", …" once when the next would not leave
 * room for it (a game back on one board many times: a long ko). */
static void s_add_move(char *moves, size_t size, int move)
{
    static const char more[] = ", \xe2\x80\xa6";
    char part[16];
    size_t len = strlen(moves);
    int n = snprintf(part, sizeof part, ", %d", move);
    if (len >= sizeof more - 1 && !strcmp(moves + len - (sizeof more - 1), more))
        return;
    if (len + (size_t)n + sizeof more <= size)
        memcpy(moves + len, part, (size_t)n + 1);
    else if (len + sizeof more <= size)
        memcpy(moves + len, more, sizeof more);
}

/* The hits to list (the selection's, when there is one), one row per game
 * with every move it stood there after (a game can come back to a board: a
 * pass, a ko). */
static void s_hit_rows(const hs_board_answer_t *a, const s_sel_t *sel, s_rows_t *out)
{
    int n = 0;
    for (int i = 0; i < a->num_hits; i++) {
        const hs_board_hit_t *h = &a->hits[i];
        if (!s_keeps(sel, h->game_id))
            continue;
        memcpy(out->row[n].id, h->game_id, sizeof out->row[n].id);
        out->row[n++].move = h->move_number;
    }
    qsort(out->row, (size_t)n, sizeof *out->row, s_cmp_hit);
    out->n = 0;
    for (int i = 0; i < n; i++) {
        s_row_t *last = out->n ? &out->row[out->n - 1] : NULL;
        if (last && !s_cmp_id(last->id, out->row[i].id)) {
            s_add_move(last->moves, sizeof last->moves, out->row[i].move);
            continue;
        }
        s_row_t *r = &out->row[out->n++];
        *r = out->row[i];
        snprintf(r->moves, sizeof r->moves, "%d", r->move);
    }
}

/* Players, date and result of each row's game. A game the store cannot read
 * is listed with its id alone. 0 or HS_ENOMEM. */
static int s_row_games(hs__report_ctx_t *c, s_rows_t *rows, int upto)
{
    for (int i = 0; i < upto; i++) {
        s_row_t *r = &rows->row[i];
        hs_game_t g;
        hs_error_t why = { 0 };
        if (hs_store_game_get(c->store, r->id, &g, NULL, NULL, &why) != 0)
            continue;
        r->black = s_dup(g.black);
        r->white = s_dup(g.white);
        r->date = s_dup(g.date);
        r->result = s_dup(g.result_raw);
        bool lost = (g.black && !r->black) || (g.white && !r->white) ||
                    (g.date && !r->date) || (g.result_raw && !r->result);
        hs_game_fini(&g);
        if (lost)
            return hs_error_set(c->err, HS_ENOMEM, "out of memory (the explorer's games)");
    }
    return 0;
}

/* The rows of the list, sorted (s_cmp_row). */
static int s_rows(hs__report_ctx_t *c, const hs_board_answer_t *a, const s_sel_t *sel,
                  s_rows_t *out)
{
    memset(out, 0, sizeof *out);
    if (a->num_hits == 0)
        return 0;
    out->row = calloc((size_t)a->num_hits, sizeof *out->row);
    if (!out->row)
        return hs_error_set(c->err, HS_ENOMEM, "out of memory (the explorer's games)");
    s_hit_rows(a, sel, out);
    out->by_id = out->n > S_GAMES_DATED;
    int rc = s_row_games(c, out, out->by_id ? S_GAMES_SHOWN : out->n);
    if (rc) {
        s_rows_fini(out);
        return rc;
    }
    if (out->n > 1 && !out->by_id)
        qsort(out->row, (size_t)out->n, sizeof *out->row, s_cmp_row);
    return 0;
}

/* One game: its players (a link to its page when this report wrote one), date,
 * result, the move the board stood after, and its id as `query` prints it. */
static void s_game_row(FILE *page, const s_row_t *r, bool linked)
{
    char hex[33];
    snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)r->id[0],
             (unsigned long long)r->id[1]);
    fputs("<tr><td>", page);
    if (linked)
        fprintf(page, "<a href=\"games/%s.html\">", hex);
    hs__html_text(page, r->black ? r->black : "?");
    fputs(" &ndash; ", page);
    hs__html_text(page, r->white ? r->white : "?");
    fputs(linked ? "</a></td><td>" : "</td><td>", page);
    hs__html_text(page, r->date);
    fputs("</td><td>", page);
    hs__html_text(page, r->result);
    fprintf(page, "</td><td>%s</td><td><code>%s</code></td></tr>\n", r->moves, hex);
}

/* Where the games past the list's cap are: board.json when this report wrote
 * it (every stored game that reached the board), else `query --board`. */
static void s_games_note(hs__report_ctx_t *c, FILE *page, int shown, const s_rows_t *rows,
                         const hs_board_answer_t *a)
{
    if (rows->n <= shown)
        return;
    fprintf(page, "<p class=\"note\" id=\"board-games-more\">The first %d of %d games "
            "(%s) are listed. ", shown, rows->n,
            rows->by_id ? "by id: too many to sort by date" : "newest first");
    if (c->formats & HS_REPORT_JSON)
        fprintf(page, "All %d stored games that reached this board, with their ids and "
                "moves, are in <a href=\"board.json\">board.json</a>.</p>\n", a->num_hits);
    else
        fprintf(page, "<code>hyeongse query --db DB --board FILE --move N</code> lists all "
                "%d stored games that reached it (or add json to --format: board.json).</p>\n",
                a->num_hits);
}

static int s_games(hs__report_ctx_t *c, FILE *page, const hs_board_answer_t *a,
                   const s_sel_t *sel)
{
    s_rows_t rows;
    int rc = s_rows(c, a, sel, &rows);
    if (rc)
        return rc;
    /* A selection's games each got their page, when html is written (it is:
     * this is index.html's section). */
    bool pages = sel->n >= 0 && (c->formats & HS_REPORT_HTML);
    fputs("<table class=\"sortable\" id=\"board-games\"><thead><tr><th>Game</th><th>Date</th>"
          "<th>Result</th><th>After move</th><th>Id</th></tr></thead><tbody>\n", page);
    int shown = rows.n < S_GAMES_SHOWN ? rows.n : S_GAMES_SHOWN;
    for (int i = 0; i < shown; i++)
        s_game_row(page, &rows.row[i], pages);
    fputs("</tbody></table>\n", page);
    s_games_note(c, page, shown, &rows, a);
    s_rows_fini(&rows);
    return 0;
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

/* Games (not positions: a game can stand on the board twice) among the
 * hits that sel keeps. The hits come in game id order. */
static int s_count_games(const hs_board_answer_t *a, const s_sel_t *sel)
{
    int n = 0;
    for (int i = 0; i < a->num_hits; i++) {
        const uint64_t *id = a->hits[i].game_id;
        bool same = i > 0 && !s_cmp_id(a->hits[i - 1].game_id, id);
        n += !same && s_keeps(sel, id);
    }
    return n;
}

static void s_section(hs__report_ctx_t *c, FILE *page, const hs_board_answer_t *a,
                      const s_sel_t *sel)
{
    const s_sel_t all = { NULL, -1 };
    int games = s_count_games(a, &all);
    fputs("<h2>Position explorer</h2>\n<section id=\"board\">\n<p>", page);
    hs__html_text(page, c->o->board_name);
    fprintf(page, ": reached in %d stored game%s (any orientation", games, games == 1 ? "" : "s");
    if (a->num_hits != games)
        fprintf(page, "; %d times in all", a->num_hits);
    fprintf(page, "); %d different move%s played next, shown in this orientation.</p>\n",
            a->num_next, a->num_next == 1 ? "" : "s");
    if (sel->n >= 0)
        fprintf(page, "<p>The games listed are this report&rsquo;s: %d of those %d. The moves "
                "played next count every stored game.</p>\n", s_count_games(a, sel), games);
}

/*
 * The explorer (hs__report_board) with the report's selection: sel[0..num_sel)
 * its game ids sorted by (id[0], id[1]), whose pages this report wrote; the
 * list under the board then holds only those games, each linked to its page.
 * num_sel < 0: no selection (`--board` alone), every game listed, no links.
 */
int hs__report_board_sel(hs__report_ctx_t *c, FILE *page, const uint64_t (*sel)[2],
                         int64_t num_sel)
{
    const s_sel_t s = { sel, num_sel };
    hs_board_answer_t a;
    int rc = hs_query_board(c->store, c->o->board, &a, c->err);
    if (rc < 0)
        return rc;
    char *letter = malloc((size_t)a.num_next + 1);
    if (!letter) {
        hs_board_answer_fini(&a);
        return hs_error_set(c->err, HS_ENOMEM, "out of memory (the explorer)");
    }
    s_letters(&a, letter);
    c->sum->board_games = s_count_games(&a, &(s_sel_t){ NULL, -1 });
    if (page)
        s_section(c, page, &a, &s);
    rc = s_picture(c, page, &a, letter);
    if (rc == 0 && page) {
        s_next_table(page, &a, letter);
        rc = s_games(c, page, &a, &s);
    }
    if (page)
        fputs("</section>\n", page);
    if (rc == 0 && (c->formats & HS_REPORT_CSV))
        rc = s_csv(c, &a);
    if (rc == 0 && (c->formats & HS_REPORT_JSON))
        rc = s_json(c, &a);
    free(letter);
    hs_board_answer_fini(&a);
    return rc;
}

int hs__report_board(hs__report_ctx_t *c, FILE *page)
{
    return hs__report_board_sel(c, page, c->sel, c->num_sel);
}
