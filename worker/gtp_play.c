/*
 * worker/gtp_play.c — the GTP commands that play a game against a
 * controller: genmove, undo, time_settings, kgs-time_settings, time_left,
 * final_score and final_status_list. Messages follow KataGo's where it has
 * the command.
 *
 * final_score and final_status_list judge the board as it stands with the
 * static judge (worker/judge.h, its configuration for finished positions),
 * with or without a net: the same answer whatever the evaluator, and the
 * judge is what the project scores finished records with.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "worker/gtp_search.h"
#include "worker/judge.h"

/* GTP's times are whole seconds; KataGo takes up to about 2^31. */
#define S_MAX_TIME 2147483647.0


/* A finite number of seconds in lo..S_MAX_TIME. */
static int s_seconds(const char *s, double lo, double *out)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < lo || v > S_MAX_TIME)
        return -1;
    *out = v;
    return 0;
}

static int s_genmove(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    hs__gtp_search_t *s = ctx;
    hs_color_t color;
    if (argc != 1)
        return hs__gtp_fail(r, "Expected one argument for genmove");
    if (hs__gtp_parse_color(argv[0], &color)) {
        hs_gtp_printf(r, "Could not parse color: '%s'", argv[0]);
        return 1;
    }
    double t0;
    if (hs__gtp_genmove_root(g, s, color, &t0, r))
        return 1;
    hs_error_t err;
    if (hs_mcts_search(s->mcts, s->ev, &err))
        return hs__gtp_fail(r, err.msg);
    char name[8];
    int rc = hs__gtp_play_chosen(g, s, color, name, r);
    hs__gtp_clock_spend(s, color, hs_clock_now() - t0);
    if (!rc)
        hs_gtp_printf(r, "%s", name);
    return rc;
}

static int s_undo(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_error_t err;
    int rc = hs_gtp_game_undo(hs_gtp_game(g), &err);
    if (rc)
        return hs__gtp_fail(r, err.msg);
    return 0;
}

/* Sets both clocks to a fresh start of the time system in k. */
static void s_clock_start(hs__gtp_clock_t *k)
{
    for (int c = HS_BLACK; c <= HS_WHITE; c++) {
        k->left[c] = k->main_time;
        k->stones[c] = 0;
        if (k->main_time <= 0 && k->kind == HS__GTP_TIME_CANADIAN) {
            k->left[c] = k->byo_time;
            k->stones[c] = k->byo_stones;
        } else if (k->main_time <= 0 && k->kind == HS__GTP_TIME_BYOYOMI) {
            k->left[c] = k->byo_time;
            k->stones[c] = k->byo_periods;
        }
    }
}

/* time_settings MAIN BYO STONES (GTP: canadian; byo > 0 with 0 stones means
 * no limit, byo 0 and 0 stones absolute time). */
static int s_time_settings(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g;
    hs__gtp_search_t *s = ctx;
    double main_time, byo;
    int stones;
    if (argc != 3 || s_seconds(argv[0], 0, &main_time) || s_seconds(argv[1], 0, &byo) ||
        hs__gtp_int(argv[2], 0, 1000000, &stones))
        return hs__gtp_fail(r, "Expected main time, byo-yomi time and byo-yomi stones "
                         "(non-negative numbers) for time_settings");
    hs__gtp_clock_t k = { .main_time = main_time, .byo_time = byo, .byo_stones = stones };
    k.kind = stones == 0 && byo > 0 ? HS__GTP_TIME_NONE
           : stones == 0 ? HS__GTP_TIME_ABSOLUTE : HS__GTP_TIME_CANADIAN;
    s_clock_start(&k);
    s->clock = k;
    return 0;
}

/* kgs-time_settings none | absolute MAIN | byoyomi MAIN BYO PERIODS |
 * canadian MAIN BYO STONES, read as KataGo reads them: words after those
 * are ignored; canadian with 0 stones is time_settings' reading (overtime
 * time: no limit, none: absolute time), byoyomi with 0 periods absolute
 * time. */
static int s_kgs_time_settings(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g;
    hs__gtp_search_t *s = ctx;
    hs__gtp_clock_t k = { 0 };
    const char *what = argc >= 1 ? argv[0] : "";
    int want = !strcasecmp(what, "none") ? 1 : !strcasecmp(what, "absolute") ? 2
             : !strcasecmp(what, "byoyomi") || !strcasecmp(what, "canadian") ? 4 : 0;
    if (!want)
        return hs__gtp_fail(r, "Expected 'none', 'absolute', 'byoyomi', or 'canadian' as first "
                         "argument for kgs-time_settings");
    if (argc < want || (want >= 2 && s_seconds(argv[1], 0, &k.main_time)) ||
        (want == 4 && (s_seconds(argv[2], 0, &k.byo_time) || hs__gtp_int(argv[3], 0, 1000000, &k.byo_stones))))
        return hs__gtp_fail(r, "Expected non-negative times and a count from 0 to 1000000 for "
                               "kgs-time_settings");
    k.kind = want == 1 ? HS__GTP_TIME_NONE : want == 2 ? HS__GTP_TIME_ABSOLUTE
           : !strcasecmp(what, "byoyomi") ? HS__GTP_TIME_BYOYOMI : HS__GTP_TIME_CANADIAN;
    if (want == 4 && k.byo_stones == 0)
        k.kind = k.kind == HS__GTP_TIME_CANADIAN && k.byo_time > 0 ? HS__GTP_TIME_NONE
                                                                   : HS__GTP_TIME_ABSOLUTE;
    if (k.kind == HS__GTP_TIME_BYOYOMI) {
        k.byo_periods = k.byo_stones;   /* its third number counts periods */
        k.byo_stones = 1;
    }
    s_clock_start(&k);
    s->clock = k;
    return 0;
}

/* time_left COLOR SECONDS STONES: stones 0 = still in main time. */
static int s_time_left(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g;
    hs__gtp_search_t *s = ctx;
    hs_color_t c;
    double t;
    int stones;
    /* KataGo is slightly tolerant of a negative time left: a clock a little
     * over is still a clock. */
    if (argc != 3 || hs__gtp_parse_color(argv[0], &c) || s_seconds(argv[1], -10, &t) ||
        hs__gtp_int(argv[2], 0, 100000, &stones))
        return hs__gtp_fail(r, "Expected player and float time and int stones for time_left");
    hs__gtp_clock_t *k = &s->clock;
    if (stones > 0 && k->kind != HS__GTP_TIME_BYOYOMI && k->kind != HS__GTP_TIME_CANADIAN)
        return hs__gtp_fail(r, "stones left in period is > 0 but the time control used does not "
                         "have any overtime periods");
    k->left[c] = t;
    k->stones[c] = stones;
    return 0;
}

/* The static judge's verdict on the board now; NULL with the message in r. */
static hs_judge_t *s_judge(hs_gtp_t *g, hs_buf_t *r)
{
    hs_judge_t *j = malloc(sizeof *j);
    if (!j) {
        hs__gtp_fail(r, "out of memory");
        return NULL;
    }
    hs_judge_config_t cfg;
    hs_judge_config_final(&cfg);
    if (hs_gtp_config(g)->final_playouts > 0)
        cfg.playouts = hs_gtp_config(g)->final_playouts;
    hs_error_t err;
    if (hs_judge_compute(&hs_gtp_game(g)->board, NULL, &cfg, j, &err)) {
        hs__gtp_fail(r, err.msg);
        free(j);
        return NULL;
    }
    return j;
}

static int s_final_score(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_judge_t *j = s_judge(g, r);
    if (!j)
        return 1;
    const hs_gtp_game_t *game = hs_gtp_game(g);
    double score = hs_judge_score(j, &game->board, &game->rules, game->komi, game->handicap);
    char buf[16];
    hs_gtp_printf(r, "%s", hs_judge_result_string(score, buf));
    free(j);
    return 0;
}

/* Marks seki[head] for every string with a seki point (a shared liberty or
 * a seki eye) next to one of its stones. */
static void s_seki_strings(const hs_board_t *b, const hs_judge_t *j, uint8_t *seki)
{
    const int d[4] = { 1, -1, b->stride, -b->stride };
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            if (b->color[p] != HS_BLACK && b->color[p] != HS_WHITE)
                continue;
            for (int k = 0; k < 4; k++)
                if (j->cls[p + d[k]] == HS_JC_SEKI)
                    seki[b->head[p]] = 1;
        }
}

/* Whether the stone at p is in the list `want` (0 alive, 1 dead, 2 seki). */
static int s_status_is(const hs_board_t *b, const hs_judge_t *j, const uint8_t *seki,
                       hs_point_t p, int want)
{
    int cls = j->cls[p];
    if (cls == HS_JC_BLACK_DEAD || cls == HS_JC_WHITE_DEAD)
        return want == 1;
    if (b->color[p] != HS_BLACK && b->color[p] != HS_WHITE)
        return 0;
    return seki[b->head[p]] ? want == 2 : want == 0;
}

static int s_final_status_list(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    static const char *const names[] = { "alive", "dead", "seki" };
    int want = -1;
    for (int i = 0; argc == 1 && i < 3; i++)
        if (!strcasecmp(argv[0], names[i]))
            want = i;
    if (argc != 1)
        return hs__gtp_fail(r, "Expected one argument for final_status_list");
    if (want < 0)
        return hs__gtp_fail(r, "Argument to final_status_list must be 'alive' or 'seki' or 'dead'");
    hs_judge_t *j = s_judge(g, r);
    uint8_t *seki = calloc(HS_BOARD_MAX_POINTS, 1);
    if (!j || !seki) {
        free(j);
        free(seki);
        return j ? hs__gtp_fail(r, "out of memory") : 1;
    }
    const hs_board_t *b = &hs_gtp_game(g)->board;
    s_seki_strings(b, j, seki);
    int first = 1;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            char name[8];
            if (s_status_is(b, j, seki, p, want)) {
                hs_gtp_printf(r, "%s%s", first ? "" : " ", hs_board_point_name(b, p, name));
                first = 0;
            }
        }
    free(seki);
    free(j);
    return 0;
}

int hs__gtp_register_play(hs_gtp_t *g, hs__gtp_search_t *s, hs_error_t *err)
{
    static const struct { const char *name; hs_gtp_handler_t fn; } table[] = {
        { "genmove", s_genmove }, { "undo", s_undo }, { "time_settings", s_time_settings },
        { "kgs-time_settings", s_kgs_time_settings }, { "time_left", s_time_left },
        { "final_score", s_final_score }, { "final_status_list", s_final_status_list },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int rc = hs_gtp_register(g, table[i].name, table[i].fn, s, err);
        if (rc)
            return rc;
    }
    return 0;
}
