/*
 * reports/report_game.c — one game's page: the evaluation graphs, each player's
 * mistakes, the maps at the chosen moves, the annotated SGF, and the game's row
 * in the index. Everything comes from the loaded hs_report_game_t and, for the
 * maps, one hs_report_maps_load per move shown.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/game_report.h"
#include "reports/html_internal.h"

static const char *const s_source_names[HS_SOURCE_COUNT] = { "none", "judge", "net", "MCTS" };

static int s_draw_graph(const void *what, hs_pic_format_t fmt, char **out, size_t *len,
                        hs_error_t *err)
{
    return hs_graph_draw(what, fmt, out, len, err);
}

typedef struct s_board {
    hs_board_pic_t pic;
    hs_board_overlay_t overlay;
} s_board_t;

static int s_draw_board(const void *what, hs_pic_format_t fmt, char **out, size_t *len,
                        hs_error_t *err)
{
    const s_board_t *b = what;
    return hs_board_pic_draw(&b->pic, b->overlay, fmt, out, len, err);
}

static void s_players(FILE *out, const hs_game_t *g)
{
    hs__html_text(out, g->black ? g->black : "Black");
    if (g->black_rank) {
        fputs(" (", out);
        hs__html_text(out, g->black_rank);
        fputs(")", out);
    }
    fputs(" &ndash; ", out);
    hs__html_text(out, g->white ? g->white : "White");
    if (g->white_rank) {
        fputs(" (", out);
        hs__html_text(out, g->white_rank);
        fputs(")", out);
    }
}

static void s_meta_row(FILE *out, const char *name, const char *value)
{
    if (!value || !*value)
        return;
    fprintf(out, "<tr><th>%s</th><td>", name);
    hs__html_text(out, value);
    fputs("</td></tr>\n", out);
}

static void s_meta(FILE *out, const hs_report_game_t *g, const char *hex)
{
    char buf[64];
    fputs("<table class=\"meta\" id=\"game-meta\">\n", out);
    s_meta_row(out, "Date", g->game.date);
    s_meta_row(out, "Event", g->game.event);
    s_meta_row(out, "Round", g->game.round);
    s_meta_row(out, "Result", g->game.result_raw);
    snprintf(buf, sizeof buf, "%g", g->game.komi);
    s_meta_row(out, "Komi", buf);
    if (g->game.handicap > 0) {   /* the curve's start means little without it */
        snprintf(buf, sizeof buf, "%d", g->game.handicap);
        s_meta_row(out, "Handicap", buf);
    }
    s_meta_row(out, "Rules", g->game.rules_raw);
    snprintf(buf, sizeof buf, "%d (%d positions analysed)", g->game.num_moves, g->analysed);
    s_meta_row(out, "Moves", buf);
    s_meta_row(out, "Source", g->source);
    s_meta_row(out, "Game id", hex);
    fputs("</table>\n", out);
}

/* The win-rate or the score-lead curve (which = 0 / 1); a note when no
 * position has that measure (the judge gives no win rate). */
static int s_graph(hs__report_ctx_t *c, FILE *page, const hs_report_game_t *g,
                   const char *hex, int which)
{
    int n = g->game.num_moves + 1, have = 0, leads = 0;
    float *v = malloc((size_t)n * sizeof *v);
    uint8_t *src = malloc((size_t)n);
    if (!v || !src) {
        free(v);
        free(src);
        return hs_error_set(c->err, HS_ENOMEM, "out of memory (graph)");
    }
    for (int m = 0; m < n; m++) {
        float x = which == 0 ? g->pos[m].win_rate * 100.0f : g->pos[m].lead;
        v[m] = x;
        src[m] = (uint8_t)g->pos[m].source;
        have += !isnan(x);
        leads += !isnan(g->pos[m].lead);
    }
    int rc = 0;
    if (have == 0) {
        /* Leads without win rates: the judge's. Neither: only engines that give
         * no score (noop) ran. */
        fprintf(page, "<p class=\"note\">No %s: %s.</p>\n", which == 0 ? "win rate" : "score lead",
                leads ? "the judge gives a score lead only; run mcts or net for win rates"
                      : "no engine evaluated this game's positions");
    } else {
        hs_graph_t gr = {
            .title = which == 0 ? "Win rate (Black)" : "Score lead (Black)",
            .unit = which == 0 ? "%" : "points",
            .values = v, .n = n, .source = src, .source_names = s_source_names,
            .num_sources = HS_SOURCE_COUNT, .y_min = which == 0 ? 0 : 0,
            .y_max = which == 0 ? 100 : 0, .y_mid = which == 0 ? 50 : 0,
            .marks = g->swings, .num_marks = g->num_swings, .width_px = 720, .height_px = 240,
        };
        char name[96];
        snprintf(name, sizeof name, "%s-%s", hex, which == 0 ? "winrate" : "lead");
        rc = hs__report_picture(c, page, "graph", which == 0 ? "winrate" : "lead", name, NULL,
                                s_draw_graph, &gr);
    }
    free(v);
    free(src);
    return rc;
}

/* Whether every listed loss of side was measured by the static judge (the
 * kind both positions share: the lesser of their sources). */
static bool s_judge_losses(const hs_report_game_t *g, int side)
{
    for (int i = 0; i < g->num_mistakes[side]; i++)
        if (!hs_report_loss_by_judge(g, g->mistakes[side][i].move_number))
            return false;
    return g->num_mistakes[side] > 0;
}

/* Whether some move of side (0 Black, 1 White) has a measured loss, zero or
 * more: then an empty list of mistakes means it lost nothing. */
static bool s_side_measured(const hs_report_game_t *g, int side)
{
    for (int m = 1; m <= g->game.num_moves; m++) {
        const hs_report_pos_t *p = &g->pos[m];
        if ((g->game.moves[m - 1].color == HS_WHITE) == (side == 1) &&
            (isfinite(p->loss_points) || isfinite(p->loss_win_rate)))
            return true;
    }
    return false;
}

/* Whether two consecutive positions of g have an evaluation: a move's loss
 * needs both, which a job of --moves every:N (N > 1) never gives. */
static bool s_consecutive(const hs_report_game_t *g)
{
    for (int m = 1; m <= g->game.num_moves; m++)
        if (g->pos[m - 1].source != HS_SOURCE_NONE && g->pos[m].source != HS_SOURCE_NONE)
            return true;
    return false;
}

static void s_mistakes(FILE *out, const hs_report_game_t *g, int side)
{
    static const char *const ids[2] = { "mistakes-black", "mistakes-white" };
    const hs_game_t *gm = &g->game;
    fprintf(out, "<h3>%s: ", side == 0 ? "Black" : "White");
    hs__html_text(out, side == 0 ? (gm->black ? gm->black : "Black")
                                 : (gm->white ? gm->white : "White"));
    fputs("</h3>\n", out);
    if (g->num_mistakes[side] == 0) {
        fputs(s_side_measured(g, side) ? "<p class=\"note\">No move of this side lost points "
                                         "or win rate.</p>\n"
              : g->analysed > 1 && !s_consecutive(g)
              ? "<p class=\"note\">No measured loss: a move's loss needs the positions "
                "before and after it, and no two consecutive positions of this game were "
                "analysed (<code>--moves every:N</code>); analyse with <code>--moves "
                "all</code> for mistakes.</p>\n"
              : "<p class=\"note\">No measured loss (too few analysed moves).</p>\n", out);
        return;
    }
    fprintf(out, "<table class=\"sortable mistakes\" id=\"%s\"><thead><tr><th>Move</th>"
            "<th>Played</th><th>Loss (points)</th><th>Loss (win %%)</th><th>Preferred</th>"
            "</tr></thead><tbody>\n", ids[side]);
    for (int i = 0; i < g->num_mistakes[side]; i++) {
        const hs_report_mistake_t *k = &g->mistakes[side][i];
        char a[8], b[8];
        fprintf(out, "<tr><td>%d</td><td>%s</td><td>", k->move_number,
                hs__html_vertex(gm->size, k->played, a));
        hs__html_num(out, k->loss_points, 1);
        fputs("</td><td>", out);
        hs__html_num(out, k->loss_win_rate * 100.0, 1);
        fprintf(out, "</td><td>%s</td></tr>\n", hs__html_vertex(gm->size, k->preferred, b));
    }
    fputs("</tbody></table>\n", out);
    if (s_judge_losses(g, side))   /* 100-point "mistakes" otherwise read as play */
        fputs("<p class=\"note judge-losses\">Measured by the static judge's count alone: a "
              "large loss here is mostly a group the judge read as dead and then alive (or "
              "the reverse), not a measure of the move; analyse with the net or MCTS "
              "(<code>--engines net</code>, <code>mcts:visits=N</code>) for mistakes.</p>\n",
              out);
}

/* One map picture of m (ownership from own or net, influence or none). */
static int s_map(hs__report_ctx_t *c, FILE *page, const char *hex, const hs_report_maps_t *m,
                 const char *kind, const int8_t *own, const char *classes,
                 hs_board_overlay_t overlay, const char *caption)
{
    s_board_t b = {
        .pic = { .size = m->size, .stones = m->stones, .last_x = m->last_x,
                 .last_y = m->last_y, .ownership = own, .classes = classes,
                 .influence = m->influence, .width_px = c->board_px },
        .overlay = overlay,
    };
    char name[128], cls[64];
    snprintf(name, sizeof name, "%s-m%03d-%s", hex, m->move_number, kind);
    snprintf(cls, sizeof cls, "map %s", kind);
    return hs__report_picture(c, page, cls, NULL, name, caption, s_draw_board, &b);
}

/* The maps of the position after move (what the store holds for it). */
static int s_maps_at(hs__report_ctx_t *c, FILE *page, const hs_report_game_t *g,
                     const char *hex, const hs_report_maps_t *m)
{
    char cap[128];
    int rc = 0, drawn = 0;
    if (m->ownership) {
        snprintf(cap, sizeof cap, "Move %d: ownership (judge)", m->move_number);
        rc = s_map(c, page, hex, m, "ownership", m->ownership, m->classes,
                   HS_OVERLAY_OWNERSHIP, cap);
        drawn++;
    }
    if (rc == 0 && m->influence) {
        snprintf(cap, sizeof cap, "Move %d: Park's influence", m->move_number);
        rc = s_map(c, page, hex, m, "influence", NULL, NULL, HS_OVERLAY_INFLUENCE, cap);
        drawn++;
    }
    if (rc == 0 && m->net_ownership) {
        snprintf(cap, sizeof cap, "Move %d: ownership (%s)", m->move_number,
                 hs_report_source_name(m->net_source));
        rc = s_map(c, page, hex, m, "net", m->net_ownership, NULL, HS_OVERLAY_OWNERSHIP, cap);
        drawn++;
    }
    if (rc == 0 && drawn == 0 && !hs_report_moves_has(&g->only, m->move_number,
                                                      g->game.num_moves) && c->job) {
        snprintf(cap, sizeof cap, "Move %d: not one of job %llu's positions (%s)",
                 m->move_number, (unsigned long long)c->job->id, c->job_moves);
        rc = s_map(c, page, hex, m, "position", NULL, NULL, HS_OVERLAY_NONE, cap);
    } else if (rc == 0 && drawn == 0) {
        snprintf(cap, sizeof cap, "Move %d (no map stored)", m->move_number);
        rc = s_map(c, page, hex, m, "position", NULL, NULL, HS_OVERLAY_NONE, cap);
    }
    return rc;
}

/* The moves to show: the asked ones that exist, in order, the end as num_moves,
 * each once. */
static int s_map_moves(const hs__report_ctx_t *c, const hs_game_t *g, int *out)
{
    static const int defaults[] = { 50, 100, 150, HS_REPORT_MOVE_END };
    const int *ask = c->o->num_moves ? c->o->moves : defaults;
    int n_ask = c->o->num_moves ? c->o->num_moves : 4, n = 0;
    for (int i = 0; i < n_ask; i++) {
        int m = ask[i] == HS_REPORT_MOVE_END ? g->num_moves : ask[i];
        bool dup = m < 0 || m > g->num_moves;
        for (int j = 0; j < n && !dup; j++)
            dup = out[j] == m;
        if (!dup)
            out[n++] = m;
    }
    return n;
}

static int s_maps(hs__report_ctx_t *c, FILE *page, const hs_report_game_t *g,
                  const char *hex)
{
    int moves[HS_REPORT_MAX_MOVES + 4];
    int n = s_map_moves(c, &g->game, moves), rc = 0;
    fputs("<h2>Maps</h2>\n<section id=\"maps\">\n", page);
    for (int i = 0; i < n && rc == 0; i++) {
        hs_report_maps_t m;
        hs_error_t why = { 0 };
        rc = hs_report_maps_load(c->store, g, moves[i], &m, &why);
        if (rc == HS_EILLEGAL || rc == HS_EINVAL) {
            fprintf(page, "<p class=\"note\">Move %d: ", moves[i]);
            hs__html_text(page, why.msg);
            fputs("</p>\n", page);
            rc = 0;
            continue;
        }
        if (rc < 0)
            return hs_error_set(c->err, rc, "%s", why.msg);
        rc = s_maps_at(c, page, g, hex, &m);
        hs_report_maps_fini(&m);
    }
    /* A move asked for past the game's end is said, not dropped unseen. */
    for (int i = 0; i < c->o->num_moves; i++)
        if (c->o->moves[i] > g->game.num_moves)
            fprintf(page, "<p class=\"note\">No map at move %d: the game has %d moves.</p>\n",
                    c->o->moves[i], g->game.num_moves);
    fputs("</section>\n", page);
    return rc;
}

/* OUT/games/ID.sgf: the annotated SGF with the end position's territory. */
static int s_sgf(hs__report_ctx_t *c, const hs_report_game_t *g, const char *hex)
{
    hs_report_maps_t end;
    hs_error_t why = { 0 };
    bool have_end = hs_report_maps_load(c->store, g, HS_REPORT_MOVE_END, &end, &why) == 0;
    char *text = NULL;
    size_t len = 0;
    int rc = hs_report_game_sgf(g, have_end ? &end : NULL, &text, &len, c->err);
    if (have_end)
        hs_report_maps_fini(&end);
    if (rc < 0)
        return rc;
    char rel[96];
    snprintf(rel, sizeof rel, "games/%s.sgf", hex);
    FILE *f = hs__report_open(c, rel);
    if (f) {
        fwrite(text, 1, len, f);
        rc = hs__report_close(c, f, rel);
    } else {
        rc = HS_EIO;
    }
    free(text);
    return rc;
}

void hs__report_game_rows_head(FILE *out)
{
    fputs("<table class=\"sortable\" id=\"games\"><thead><tr><th>Game</th><th>Date</th>"
          "<th>Result</th><th>Moves</th><th>Analysed</th><th>Final judgment</th>"
          "<th>Largest loss B</th><th>Largest loss W</th></tr></thead><tbody>\n", out);
}

/* "KM[0] cannot give W+5.5": the komi as written where the record has one. */
static void s_komi_why(FILE *out, const hs_game_t *g)
{
    char res[16];
    if (g->komi_raw) {
        fputs("KM[", out);
        hs__html_text(out, g->komi_raw);
        fputs("]", out);
    } else {
        fprintf(out, "komi %g", g->komi);
    }
    fputs(" cannot give ", out);
    hs__html_text(out, hs_result_format(&g->result, res));
}

/* The games table's final judgment: agrees / differs, the move it is of when
 * not the last, "komi unknown" with why (hs_report_final). */
static void s_final(FILE *out, const hs_report_game_t *g)
{
    hs_report_final_t fin = hs_report_final(g);
    if (fin == HS_REPORT_FINAL_NONE) {
        fputs("&ndash;", out);
        return;
    }
    if (fin == HS_REPORT_FINAL_KOMI) {
        fputs("komi unknown (", out);
        s_komi_why(out, &g->game);
        fputs(")", out);
        return;
    }
    fputs(g->final_agrees ? "agrees" : "differs", out);
    if (fin == HS_REPORT_FINAL_PARTIAL)   /* an interrupted job, --moves every:N */
        fprintf(out, " (at move %d)", g->final_move);
}

static void s_row(FILE *rows, const hs_report_game_t *g, const char *hex, bool page)
{
    fputs("<tr><td>", rows);
    if (page)
        fprintf(rows, "<a href=\"games/%s.html\">", hex);
    s_players(rows, &g->game);
    fprintf(rows, "%s</td><td>", page ? "</a>" : "");
    hs__html_text(rows, g->game.date);
    fputs("</td><td>", rows);
    hs__html_text(rows, g->game.result_raw);
    fprintf(rows, "</td><td>%d</td><td>%d</td><td>", g->game.num_moves, g->analysed);
    s_final(rows, g);
    fputs("</td>", rows);
    for (int side = 0; side < 2; side++) {
        fputs("<td>", rows);
        hs__html_num(rows, g->num_mistakes[side] ? g->mistakes[side][0].loss_points : NAN, 1);
        fputs("</td>", rows);
    }
    fputs("</tr>\n", rows);
}

static int s_page(hs__report_ctx_t *c, FILE *page, const hs_report_game_t *g,
                  const char *hex)
{
    char title[512];
    snprintf(title, sizeof title, "%s vs %s", g->game.black ? g->game.black : "Black",
             g->game.white ? g->game.white : "White");
    hs__html_head(page, title, "../");
    fputs("<h1>", page);
    s_players(page, &g->game);
    fputs("</h1>\n", page);
    s_meta(page, g, hex);
    if (c->formats & HS_REPORT_SGF)
        fprintf(page, "<p><a href=\"%s.sgf\" download>Annotated SGF</a> (opens in Sabaki "
                "and CGoban)</p>\n", hex);
    fputs("<h2>Evaluation</h2>\n<section id=\"graphs\">\n", page);
    int rc = s_graph(c, page, g, hex, 0);
    if (rc == 0)
        rc = s_graph(c, page, g, hex, 1);
    fputs("</section>\n<h2>Mistakes</h2>\n<section id=\"mistakes\">\n", page);
    for (int side = 0; side < 2 && rc == 0; side++)
        s_mistakes(page, g, side);
    fputs("</section>\n", page);
    if (rc == 0)
        rc = s_maps(c, page, g, hex);
    hs__html_foot(page);
    return rc;
}

int hs__report_game(hs__report_ctx_t *c, const hs_report_game_t *g, FILE *rows)
{
    char hex[33], rel[96];
    hs_game_id_hex(&g->game, hex);
    bool html = c->formats & HS_REPORT_HTML;
    int rc = 0;
    if (html || (c->formats & (HS_REPORT_SVG | HS_REPORT_PNG))) {
        snprintf(rel, sizeof rel, "games/%s.html", hex);
        FILE *page = html ? hs__report_open(c, rel) : NULL;
        if (html && !page)
            return HS_EIO;
        /* Without html the pictures are still drawn (as files): a NULL-page run
         * through a scratch stream keeps one code path. */
        FILE *sink = page ? page : fopen("/dev/null", "w");
        if (!sink)
            return hs_error_set(c->err, HS_EIO, "cannot open /dev/null");
        rc = s_page(c, sink, g, hex);
        int rc2 = page ? hs__report_close(c, page, rel) : (fclose(sink), 0);
        if (rc == 0)
            rc = rc2;
    }
    if (rc == 0 && (c->formats & HS_REPORT_SGF))
        rc = s_sgf(c, g, hex);
    if (rc == 0 && rows)
        s_row(rows, g, hex, html);
    return rc;
}
