/*
 * worker/gtp_analyze.c — live analysis over GTP as Leela Zero and KataGo
 * give it (their GTP extensions, which Sabaki, Lizzie and KaTrain speak):
 * lz-analyze and kata-analyze search the position until the controller sends
 * its next line (or the input ends), printing one report line every
 * `interval` centiseconds (the answer line at once; once the search reached
 * its visits, the last report again every interval, as KataGo's reports
 * keep coming until the next line); lz-genmove_analyze and kata-genmove_analyze search
 * with genmove's budget, printing reports, then play and answer `play MOVE`.
 *
 * Arguments, as KataGo parses them: [player] [interval] then key/value pairs
 * interval, minmoves, maxmoves and, for the kata- forms, ownership,
 * ownershipStdev, movesOwnership, movesOwnershipStdev, pvVisits,
 * pvEdgeVisits, rootInfo (true/false); and `avoid PLAYER MOVES DEPTH` /
 * `allow PLAYER MOVES DEPTH` (MOVES comma-separated), the search's move
 * filter (hs_mcts_filter_t): a player may have several avoids or one allow,
 * not both.
 *
 * `analyze` and `genmove_analyze` are KataGo's forms for Sabaki: the kata-
 * ones with every float written with a decimal point.
 *
 * A report is one line: "info move ... " per move (kata-: ending with
 * "movesOwnership ..." and "movesOwnershipStdev ..." when asked), then
 * (kata-) "rootInfo ...", "ownership ..." and "ownershipStdev ...". Values are the side to
 * move's (the search gives Black's: flipped here); lz- prints win rates and
 * priors as integers 0..10000, kata- as floats 0..1 and score leads in
 * points. Before stopping, an analysis always reaches S_MIN_VISITS visits and
 * prints a last report, so that even an analysis interrupted at once says
 * something (and a test can count on one report whatever the timing).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "worker/gtp_search.h"

/* Root visits an analysis reaches before it looks at the input: the root's
 * own and one for a move, so the last report names at least one move. */
#define S_MIN_VISITS 2
/* KataGo's bound for user-given times (centiseconds here). */
#define S_MAX_INTERVAL 1e9

typedef struct s_args {
    hs_color_t color;
    double interval;      /* seconds between reports; 0: only the last one */
    int minmoves, maxmoves;
    bool ownership, ownership_stdev, pv_visits, pv_edge_visits, root_info;
    bool moves_own, moves_own_stdev;
    hs_mcts_filter_t filter;   /* avoid / allow */
    bool got_avoid[2], got_allow[2];   /* by colour: Black 0, White 1 */
} s_args_t;

static int s_number(const char *s, double *out)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int s_count(const char *s, int *out)
{
    double v;
    if (s_number(s, &v) || v < 0 || v >= 1e9 || v != floor(v))
        return -1;
    *out = (int)v;
    return 0;
}

static int s_bool(const char *s, bool *out)
{
    if (!strcasecmp(s, "true") || !strcmp(s, "1"))
        *out = true;
    else if (!strcasecmp(s, "false") || !strcmp(s, "0"))
        *out = false;
    else
        return -1;
    return 0;
}

/* One key/value pair into a; -1 for an unknown key or a bad value. */
static int s_pair(const char *key, const char *value, int kata, s_args_t *a)
{
    double cs;
    if (!strcmp(key, "interval")) {
        if (s_number(value, &cs) || cs < 0 || cs >= S_MAX_INTERVAL)
            return -1;
        a->interval = cs / 100;
        return 0;
    }
    if (!strcmp(key, "minmoves"))
        return s_count(value, &a->minmoves);
    if (!strcmp(key, "maxmoves"))
        return s_count(value, &a->maxmoves);
    bool *flag = !kata ? NULL
               : !strcmp(key, "ownership") ? &a->ownership
               : !strcmp(key, "ownershipStdev") ? &a->ownership_stdev
               : !strcmp(key, "movesOwnership") ? &a->moves_own
               : !strcmp(key, "movesOwnershipStdev") ? &a->moves_own_stdev
               : !strcmp(key, "pvVisits") ? &a->pv_visits
               : !strcmp(key, "pvEdgeVisits") ? &a->pv_edge_visits
               : !strcmp(key, "rootInfo") ? &a->root_info : NULL;
    return flag ? s_bool(value, flag) : -1;
}

/* "D4,pass,..." (blanks around each, empty pieces skipped) marked in listed
 * by vertex; -1 for a vertex that b has not. */
static int s_filter_moves(const hs_board_t *b, const char *text, bool *listed)
{
    char piece[16];
    for (const char *next = text; *next;) {
        size_t len = strcspn(next, ",");
        const char *s = next, *end = next + len;
        next = end + (*end == ',');
        while (s < end && (*s == ' ' || *s == '\t'))
            s++;
        while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        if (end > s) {
            hs_point_t p;
            if ((size_t)(end - s) >= sizeof piece)
                return -1;
            memcpy(piece, s, (size_t)(end - s));
            piece[end - s] = '\0';
            if (hs_board_parse_point(b, piece, &p))
                return -1;
            listed[p == HS_PASS ? b->size * b->size
                                : hs_board_y(b, p) * b->size + hs_board_x(b, p)] = true;
        }
    }
    return 0;
}

/* kv = "avoid"/"allow" PLAYER MOVES DEPTH into a's filter, checked as
 * KataGo checks it; -1 when it is not one. */
static int s_filter(const hs_board_t *b, char **kv, s_args_t *a)
{
    bool allow = !strcmp(kv[0], "allow");
    char *end = NULL;
    long depth = strtol(kv[3], &end, 10);
    hs_color_t c;
    bool listed[HS_MCTS_MAX_MOVES] = { false };
    if (end == kv[3] || *end || depth < 1 || depth > INT32_MAX ||
        hs__gtp_parse_color(kv[1], &c) || s_filter_moves(b, kv[2], listed))
        return -1;
    int k = c == HS_WHITE;
    if (a->got_allow[k] || (allow && a->got_avoid[k]))
        return -1;
    (allow ? a->got_allow : a->got_avoid)[k] = true;
    for (int v = 0; v < HS_MCTS_MAX_MOVES; v++)
        if (allow || listed[v])
            a->filter.until[k][v] = allow && listed[v] ? 0 : (int32_t)depth;
    return 0;
}

static int s_parse(hs_gtp_t *g, int kata, int argc, char **argv, s_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->color = hs_gtp_game(g)->board.to_move;
    int i = 0;
    if (i < argc && !hs__gtp_parse_color(argv[i], &a->color))
        i++;
    double cs;
    if (i < argc && !s_number(argv[i], &cs) && cs >= 0 && cs < S_MAX_INTERVAL) {
        a->interval = cs / 100;
        i++;
    }
    for (; i < argc; i += 2) {
        bool filter = !strcmp(argv[i], "avoid") || !strcmp(argv[i], "allow");
        if (filter && (i + 3 >= argc || s_filter(&hs_gtp_game(g)->board, argv + i, a)))
            return -1;
        if (filter)
            i += 2;
        else if (i + 1 >= argc || s_pair(argv[i], argv[i + 1], kata, a))
            return -1;
    }
    return 0;
}

/* Win rate and score from Black's view to the mover's. */
static double s_wr(const hs_mcts_result_t *res, double black)
{
    return res->to_move == HS_BLACK ? black : 1 - black;
}
static double s_lead(const hs_mcts_result_t *res, double black)
{
    return (res->to_move == HS_BLACK ? black : -black) + 0.0;   /* + 0.0: no "-0" */
}

/* Styles of the reports: lz- (integers), kata- (floats as %g prints them),
 * Sabaki's `analyze` (kata- with every float written with a decimal point,
 * as KataGo's `analyze` does for Sabaki's parser). */
enum { S_LZ = 0, S_KATA = 1, S_SABAKI = 2 };

/* "KEY V " (or "V " without a key): V as %.6g, with ".0" added in Sabaki's
 * style where %g wrote an integer. */
static void s_real(hs_buf_t *out, const char *key, double v, int style)
{
    char num[32];
    snprintf(num, sizeof num, "%.6g", v + 0.0);   /* + 0.0: no "-0" */
    int integral = !strpbrk(num, ".eni");
    hs_gtp_printf(out, "%s%s%s%s ", key ? key : "", key ? " " : "", num,
                  style == S_SABAKI && integral ? ".0" : "");
}

/* Win rates and priors as lz- prints them: integers 0..10000. */
static int s_lz(double p) { return (int)lround(p * 10000); }

static void s_pv(hs_buf_t *out, const hs_board_t *b, const hs_mcts_move_info_t *m, const s_args_t *a)
{
    char name[8];
    hs_gtp_printf(out, " pv");
    for (int k = 0; k < m->pv_len; k++)
        hs_gtp_printf(out, " %s", hs__gtp_vertex(b, m->pv[k], name));
    if (a->pv_visits) {
        hs_gtp_printf(out, " pvVisits");
        for (int k = 0; k < m->pv_len; k++)
            hs_gtp_printf(out, " %d", m->pv_visits[k]);
    }
    if (a->pv_edge_visits) {
        hs_gtp_printf(out, " pvEdgeVisits");
        for (int k = 0; k < m->pv_len; k++)
            hs_gtp_printf(out, " %d", m->pv_edge_visits[k]);
    }
}

static void s_info(hs_buf_t *out, const hs_board_t *b, const hs_mcts_result_t *res,
                   const hs_mcts_move_info_t *m, int kata, const s_args_t *a)
{
    char name[8];
    double wr = s_wr(res, m->winrate);
    /* visits of the position the move leads to, as KataGo's; with graph
     * search those through the move itself may be fewer (edgeVisits) */
    hs_gtp_printf(out, " info move %s visits %d ", hs__gtp_vertex(b, m->move, name),
                  m->child_visits);
    if (kata) {
        hs_gtp_printf(out, "edgeVisits %d ", m->visits);
        double lead = s_lead(res, m->score_lead);
        const char *keys[] = { "utility", "winrate", "scoreMean", "scoreStdev", "scoreLead",
                               "scoreSelfplay", "prior", "lcb", "utilityLcb", "weight" };
        double vals[] = { m->utility, wr, lead, m->score_stdev, lead,
                          s_lead(res, m->score_selfplay), m->prior, m->lcb, m->utility_lcb,
                          m->edge_weight };
        for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++)
            s_real(out, keys[k], vals[k], kata);
        if (m->sym_of >= 0)   /* where KataGo puts it, before the order */
            hs_gtp_printf(out, "isSymmetryOf %s ", hs__gtp_vertex(b, m->sym_of, name));
        hs_gtp_printf(out, "order %d", m->order);
    } else {
        hs_gtp_printf(out, "winrate %d prior %d lcb %d order %d", s_lz(wr), s_lz(m->prior),
                s_lz(m->lcb), m->order);
    }
    s_pv(out, b, m, a);
}

/* minmoves: the most likely unsearched moves by prior, shown with no visits
 * and the root's values, until n moves are listed (not those the filter
 * forbids at the root; KataGo's list may show them). */
static int s_unsearched(hs_buf_t *out, const hs_board_t *b, const hs_mcts_result_t *res, int listed,
                         int n, int kata, const s_args_t *a)
{
    int area = res->size * res->size;
    bool *used = calloc((size_t)area + 1, sizeof *used);
    if (!used)
        return listed;
    for (int i = 0; i < res->num_moves; i++)
        used[res->moves[i].move] = true;
    for (; listed < n; listed++) {
        int best = -1;
        for (int v = 0; v <= area; v++)
            if (!used[v] && res->policy[v] >= 0 &&
                hs_mcts_filter_allows(&a->filter, res->to_move, v, 0) &&
                (best < 0 || res->policy[v] > res->policy[best]))
                best = v;
        if (best < 0)
            break;
        used[best] = true;
        hs_mcts_move_info_t m = { .move = best, .winrate = res->winrate, .score_lead =
                                  res->score_lead, .score_selfplay = res->score_selfplay, .prior = res->policy[best], .order = listed,
                                  .sym_of = -1, .pv_len = 1, .pv = { best } };
        s_info(out, b, res, &m, kata, a);
    }
    free(used);
    return listed;
}

static void s_grid(hs_buf_t *out, const char *key, const float *v, int area, double sign,
                   int style)
{
    hs_gtp_printf(out, " %s ", key);
    for (int i = 0; i < area; i++)
        s_real(out, NULL, sign * v[i], style);
    out->len -= out->len > 0 && out->p[out->len - 1] == ' ';
}

/* movesOwnership / movesOwnershipStdev after a move's pv, where KataGo
 * prints them (the side to move's view, as ownership). A move whose
 * ownership is not known (hs_mcts_move_ownership: a move of a kept tree not
 * evaluated since) gets neither rather than an average of nothing. */
static void s_moves_own(hs_buf_t *out, const hs__gtp_search_t *s, const hs_mcts_result_t *res,
                        const hs_mcts_move_info_t *m, int kata, const s_args_t *a)
{
    float own[HS_MCTS_MAX_AREA], sd[HS_MCTS_MAX_AREA];
    if (!kata || (!a->moves_own && !a->moves_own_stdev) ||
        hs_mcts_move_ownership(s->mcts, m, own, sd) <= 0)
        return;
    int area = res->size * res->size;
    if (a->moves_own)
        s_grid(out, "movesOwnership", own, area, res->to_move == HS_BLACK ? 1 : -1, kata);
    if (a->moves_own_stdev)
        s_grid(out, "movesOwnershipStdev", sd, area, 1, kata);
}

/* One report line of the search's state now into line (starting with a
 * blank); the number of moves it lists. */
static int s_report_line(hs_buf_t *out, hs__gtp_search_t *s, int kata, const s_args_t *a)
{
    hs_mcts_result_t *res = s->res;
    hs_mcts_get_result(s->mcts, res);
    const hs_board_t *b = &s->root_board;
    int n = res->num_moves;
    if (a->maxmoves > 0 && n > a->maxmoves)
        n = a->maxmoves;
    for (int i = 0; i < n; i++) {
        s_info(out, b, res, &res->moves[i], kata, a);
        s_moves_own(out, s, res, &res->moves[i], kata, a);
    }
    int want = a->maxmoves > 0 && a->minmoves > a->maxmoves ? a->maxmoves : a->minmoves;
    if (want > n)
        n = s_unsearched(out, b, res, n, want, kata, a);
    if (kata && a->root_info) {
        hs_gtp_printf(out, " rootInfo visits %d ", res->visits);
        const char *keys[] = { "utility", "winrate", "scoreMean", "scoreStdev", "scoreLead",
                               "scoreSelfplay", "weight" };
        double vals[] = { res->utility, s_wr(res, res->winrate), s_lead(res, res->score_lead),
                          res->score_stdev, s_lead(res, res->score_lead),
                          s_lead(res, res->score_selfplay), res->weight };
        for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++)
            s_real(out, keys[k], vals[k], kata);
        out->len -= out->len > 0 && out->p[out->len - 1] == ' ';
    }
    double sign = res->to_move == HS_BLACK ? 1 : -1;
    int area = res->size * res->size;
    if (kata && a->ownership)
        s_grid(out, "ownership", res->ownership, area, sign, kata);
    if (kata && a->ownership_stdev)
        s_grid(out, "ownershipStdev", res->ownership_stdev, area, 1, kata);
    return n;
}

/* Writes one report line, whole (a controller reading a half line would
 * parse a half report). */
static void s_report(FILE *out, hs__gtp_search_t *s, int kata, const s_args_t *a)
{
    hs_buf_t line = { 0 };
    /* A report without a move (before the first child has a visit) would be
     * a line that no client expects: none. */
    int moves = s_report_line(&line, s, kata, a);
    if (!line.err && moves > 0) {
        fwrite(line.p + 1, 1, line.len - 1, out);
        fputc('\n', out);
        fflush(out);
    }
    hs_buf_fini(&line);
}

/* Searches with reports until done, or (stop_on_input) until a line comes. */
static int s_run(hs_gtp_t *g, hs__gtp_search_t *s, int kata, const s_args_t *a, int stop_on_input)
{
    FILE *out = hs_gtp_stream(g);
    hs_mcts_begin(s->mcts);
    double last = hs_clock_now();
    hs_error_t err;
    for (;;) {
        int done = hs_mcts_done(s->mcts);
        if (!done && hs_mcts_step_many(&s->mcts, 1, s->ev, &err) < 0) {
            fprintf(stderr, "hyeongse gtp: analysis: %s\n", err.msg);
            return 1;
        }
        done = hs_mcts_done(s->mcts);
        int settled = done || hs_mcts_root_visits(s->mcts) >= S_MIN_VISITS;
        if (stop_on_input && settled && hs_gtp_input_pending(g))
            break;
        if (done && !stop_on_input)
            break;
        /* Reports every interval, also once the search is done: KataGo's
         * go on until the next line (its analysis has no visit limit), and
         * a controller may count on them (the last one is then repeated). */
        if (a->interval > 0 && hs_clock_now() - last >= a->interval) {
            s_report(out, s, kata, a);
            last = hs_clock_now();
        }
        if (done)   /* the visit limit: wait for the next line or the next report */
            hs_gtp_wait_input(g, a->interval > 0 ? fmax(last + a->interval - hs_clock_now(), 0.001)
                                                 : 1.0);
    }
    s_report(out, s, kata, a);
    return 0;
}

static int s_analyze(hs_gtp_t *g, hs__gtp_search_t *s, int kata, int argc, char **argv,
                     hs_buf_t *r)
{
    s_args_t a;
    if (s_parse(g, kata, argc, argv, &a)) {
        hs_gtp_printf(r, "Could not parse analyze arguments or arguments out of range: '");
        for (int i = 0; i < argc; i++)
            hs_gtp_printf(r, "%s%s", i ? " " : "", argv[i]);
        hs_gtp_printf(r, "'");
        return 1;
    }
    hs_mcts_config_t cfg = s->cfg;
    cfg.max_visits = s->analysis_visits;
    cfg.max_playouts = 0;
    cfg.max_time = 0;
    /* an open-ended analysis shows PUCT's visits, as KataGo's does: with a
     * budget this large confirmation visits would steer it all along */
    cfg.confirm_stdevs = 0;
    s->filter = &a.filter;
    int rc = hs__gtp_search_root(g, s, a.color, &cfg, r);
    s->filter = NULL;
    if (rc)
        return 1;
    s_run(g, s, kata, &a, 1);
    return 0;
}

static int s_genmove_analyze(hs_gtp_t *g, hs__gtp_search_t *s, int kata, int argc, char **argv,
                             hs_buf_t *r)
{
    s_args_t a;
    if (s_parse(g, kata, argc, argv, &a)) {
        hs_gtp_printf(r, "Could not parse genmove_analyze arguments or arguments out of range: '");
        for (int i = 0; i < argc; i++)
            hs_gtp_printf(r, "%s%s", i ? " " : "", argv[i]);
        hs_gtp_printf(r, "'");
        return 1;
    }
    double t0;
    s->filter = &a.filter;
    int rc = hs__gtp_genmove_root(g, s, a.color, &t0, r);
    s->filter = NULL;
    if (rc || s_run(g, s, kata, &a, 0))
        return 1;
    hs_mcts_get_result(s->mcts, s->res);
    if (!hs_mcts_filter_empty(&a.filter) && s->res->best_move < 0) {
        /* the filter left the root no move: KataGo's error, which after the
         * answer line it writes to stderr, ending the response empty */
        fprintf(stderr, "hyeongse gtp: genmove returned null location or illegal move\n");
        return 1;
    }
    char name[8];
    rc = hs__gtp_play_chosen(g, s, a.color, name, r);
    hs__gtp_clock_spend(s, a.color, hs_clock_now() - t0);
    if (!rc)
        hs_gtp_printf(r, "play %s", name);
    return rc;
}

static int s_lz_analyze(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    return s_analyze(g, ctx, S_LZ, argc, argv, r);
}
static int s_kata_analyze(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    return s_analyze(g, ctx, S_KATA, argc, argv, r);
}
static int s_sabaki_analyze(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    return s_analyze(g, ctx, S_SABAKI, argc, argv, r);
}
static int s_sabaki_genmove_analyze(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    return s_genmove_analyze(g, ctx, S_SABAKI, argc, argv, r);
}
static int s_lz_genmove_analyze(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    return s_genmove_analyze(g, ctx, S_LZ, argc, argv, r);
}
static int s_kata_genmove_analyze(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    return s_genmove_analyze(g, ctx, S_KATA, argc, argv, r);
}

int hs__gtp_register_analyze(hs_gtp_t *g, hs__gtp_search_t *s, hs_error_t *err)
{
    static const struct { const char *name; hs_gtp_handler_t fn; } table[] = {
        { "lz-analyze", s_lz_analyze }, { "kata-analyze", s_kata_analyze },
        { "lz-genmove_analyze", s_lz_genmove_analyze },
        { "kata-genmove_analyze", s_kata_genmove_analyze },
        { "analyze", s_sabaki_analyze }, { "genmove_analyze", s_sabaki_genmove_analyze },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int rc = hs_gtp_register(g, table[i].name, table[i].fn, s, err);
        if (rc)
            return rc;
    }
    return 0;
}
