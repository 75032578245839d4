/*
 * worker/gtp_search.c — the state the GTP search commands share
 * (worker/gtp_search.h): the tree kept across commands, the root set from the
 * session's game, the time manager, and genmove's final decision (play,
 * pass or resign), which lz-/kata-genmove_analyze make too.
 */
#include "worker/gtp_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"

/* Seconds kept back from every move's share of the clock: the controller's
 * and the pipe's lag, so that a move sent at the end of the share still
 * arrives in time. */
#define S_LAG 0.3
/* The least a move is given when the clock is nearly out. */
#define S_MIN_MOVE_TIME 0.05
/* The least a search is given once setting its root has used up the move's
 * share. */
#define S_MIN_SEARCH_TIME 0.001
/* Resigning needs a search of at least this many visits (or the whole
 * budget when that is smaller): a win rate from a handful of visits is noise. */
#define S_RESIGN_VISITS 50

int hs__gtp_register_search(hs_gtp_t *g, hs__gtp_search_t **out, hs_error_t *err)
{
    hs__gtp_search_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    *out = s;
    const hs_gtp_config_t *cfg = hs_gtp_config(g);
    s->ev = cfg->search_eval;
    s->cfg = cfg->search;
    s->move_time = cfg->move_time > 0 ? cfg->move_time : 0;
    s->resign_threshold = cfg->resign_threshold > 0 ? cfg->resign_threshold : 0;
    s->analysis_visits = cfg->analysis_visits > 0 ? cfg->analysis_visits : 1000000;
    int rc = hs__gtp_register_play(g, s, err);
    return rc ? rc : hs__gtp_register_analyze(g, s, err);
}

void hs__gtp_search_free(hs__gtp_search_t **sp)
{
    hs__gtp_search_t *s = sp ? *sp : NULL;
    if (!s)
        return;
    hs_mcts_free(&s->mcts);
    free(s->res);
    free(s);
    *sp = NULL;
}

int hs__gtp_parse_color(const char *s, hs_color_t *c)
{
    if (!strcasecmp(s, "b") || !strcasecmp(s, "black"))
        *c = HS_BLACK;
    else if (!strcasecmp(s, "w") || !strcasecmp(s, "white"))
        *c = HS_WHITE;
    else
        return -1;
    return 0;
}

hs_point_t hs__gtp_point(const hs_board_t *b, int v)
{
    int n = b->size;
    if (v < 0 || v >= n * n)
        return HS_PASS;
    return hs_board_point(b, v % n, v / n);
}

const char *hs__gtp_vertex(const hs_board_t *b, int v, char *buf)
{
    return hs_board_point_name(b, hs__gtp_point(b, v), buf);
}

/* The tree and the result buffer, made at the first search. */
static int s_ensure(hs__gtp_search_t *s, hs_buf_t *r)
{
    hs_error_t err;
    if (!s->res && !(s->res = malloc(sizeof *s->res))) {
        hs_gtp_printf(r, "out of memory");
        return 1;
    }
    if (!s->mcts && hs_mcts_create(&s->cfg, &s->mcts, &err)) {
        hs_gtp_printf(r, "%s", err.msg);
        return 1;
    }
    return 0;
}

int hs__gtp_search_root(hs_gtp_t *g, hs__gtp_search_t *s, hs_color_t color,
                        const hs_mcts_config_t *cfg, hs_buf_t *r)
{
    if (!s->ev) {
        hs_gtp_printf(r, "no search evaluator");
        return 1;
    }
    if (s_ensure(s, r))
        return 1;
    hs_gtp_game_t *game = hs_gtp_game(g);
    hs_nn_pos_t pos;
    hs_gtp_game_pos(game, &pos);
    /* GTP lets the controller ask either colour for a move: the searched
     * board has that colour to move (and no ko for it: a simple ko binds only
     * the player who would retake at once). */
    hs_board_copy(&s->root_board, &game->board);
    if (s->root_board.to_move != color) {
        s->root_board.to_move = color;
        s->root_board.ko = HS_NO_POINT;
    }
    pos.board = &s->root_board;
    pos.to_move = color;
    hs_error_t err;
    if (hs_mcts_set_config(s->mcts, cfg, &err) || hs_mcts_set_root(s->mcts, &pos, &game->hist, &err)) {
        hs_gtp_printf(r, "%s", err.msg);
        return 1;
    }
    return 0;
}

/* The moves color still has to make, roughly: a game lasts about 0.45 n^2
 * moves, and never fewer than n^2 / 20 are assumed left (a game that runs
 * long must not eat the clock at the end). */
static double s_moves_left(const hs_gtp_game_t *game)
{
    double area = (double)game->board.size * game->board.size;
    double left = area * 0.45 / 2 - game->num_moves / 2.0;
    return fmax(left, fmax(area / 20, 1));
}

double hs__gtp_clock_budget(const hs__gtp_search_t *s, const hs_gtp_game_t *game,
                            hs_color_t color)
{
    const hs__gtp_clock_t *k = &s->clock;
    double left = k->left[color], t;
    if (k->kind == HS__GTP_TIME_NONE)
        return 0;
    if (k->stones[color] == 0) {
        /* Main time: a share of it, plus what each move may take of the
         * overtime that follows. */
        t = fmax(left, 0) / s_moves_left(game);
        if (k->kind == HS__GTP_TIME_BYOYOMI)
            t += 0.8 * k->byo_time;
        else if (k->kind == HS__GTP_TIME_CANADIAN && k->byo_stones > 0)
            t += 0.8 * k->byo_time / k->byo_stones;
    } else if (k->kind == HS__GTP_TIME_BYOYOMI) {
        t = 0.8 * fmin(left, k->byo_time);
    } else {
        t = 0.9 * fmax(left, 0) / k->stones[color];
    }
    return fmax(t - S_LAG, S_MIN_MOVE_TIME);
}

void hs__gtp_genmove_config(hs_gtp_t *g, const hs__gtp_search_t *s, hs_color_t color,
                            hs_mcts_config_t *cfg)
{
    *cfg = s->cfg;
    double t = hs__gtp_clock_budget(s, hs_gtp_game(g), color);
    if (s->move_time > 0 && (t <= 0 || s->move_time < t))
        t = s->move_time;
    cfg->max_time = t;
}

int hs__gtp_genmove_root(hs_gtp_t *g, hs__gtp_search_t *s, hs_color_t color, double *t0,
                         hs_buf_t *r)
{
    /* The move's time starts here: setting the root frees what the last
     * search left outside the kept subtree (much after a search of a
     * million visits), and the controller's clock runs meanwhile. */
    *t0 = hs_clock_now();
    hs_mcts_config_t cfg;
    hs__gtp_genmove_config(g, s, color, &cfg);
    if (hs__gtp_search_root(g, s, color, &cfg, r))
        return 1;
    if (!(cfg.max_time > 0))
        return 0;
    /* What is left of the share; never 0, which would mean no limit (the
     * root's first visit is made whatever the time). */
    cfg.max_time = fmax(cfg.max_time - (hs_clock_now() - *t0), S_MIN_SEARCH_TIME);
    hs_error_t err;
    if (hs_mcts_set_config(s->mcts, &cfg, &err)) {
        hs_gtp_printf(r, "%s", err.msg);
        return 1;
    }
    return 0;
}

void hs__gtp_clock_spend(hs__gtp_search_t *s, hs_color_t color, double seconds)
{
    hs__gtp_clock_t *k = &s->clock;
    if (k->kind == HS__GTP_TIME_NONE)
        return;
    if (k->stones[color] == 0) {
        k->left[color] -= seconds;
        if (k->left[color] > 0 || k->kind == HS__GTP_TIME_ABSOLUTE)
            return;
        /* Into overtime: what the main time could not pay comes off the period. */
        seconds = -k->left[color];
        k->stones[color] = k->kind == HS__GTP_TIME_BYOYOMI ? k->byo_periods : k->byo_stones;
        k->left[color] = k->byo_time;
    }
    if (k->kind == HS__GTP_TIME_BYOYOMI) {
        if (seconds > k->left[color] && k->stones[color] > 1)
            k->stones[color]--;   /* a period used up */
        k->left[color] = k->byo_time;
    } else {
        k->left[color] -= seconds;
        if (--k->stones[color] <= 0) {
            k->stones[color] = k->byo_stones;
            k->left[color] = k->byo_time;
        }
    }
}

/* Whether genmove gives up: the mover's win rate under the threshold after a
 * search worth trusting, late enough in the game (an opening position is
 * never lost to a search of this size). */
static int s_resigns(const hs__gtp_search_t *s, const hs_gtp_game_t *game, hs_color_t color)
{
    if (s->resign_threshold <= 0)
        return 0;
    const hs_mcts_result_t *res = s->res;
    int need = s->cfg.max_visits > 0 && s->cfg.max_visits < S_RESIGN_VISITS ? s->cfg.max_visits
                                                                            : S_RESIGN_VISITS;
    int size = game->board.size;
    double wr = color == HS_BLACK ? res->winrate : 1 - res->winrate;
    return res->visits >= need && game->num_moves >= size * size / 4 && wr < s->resign_threshold;
}

/* Plays the search vertex v for color; 0 when legal. */
static int s_try(hs_gtp_game_t *game, hs_color_t color, int v, char *name)
{
    hs_point_t p = hs__gtp_point(&game->board, v);
    hs_error_t err;
    hs_board_point_name(&game->board, p, name);
    return hs_gtp_game_play(game, color, p, NULL, &err);
}

int hs__gtp_play_chosen(hs_gtp_t *g, hs__gtp_search_t *s, hs_color_t color, char *name,
                        hs_buf_t *r)
{
    hs_gtp_game_t *game = hs_gtp_game(g);
    hs_mcts_get_result(s->mcts, s->res);
    if (s_resigns(s, game, color)) {
        strcpy(name, "resign");
        return 0;
    }
    int pass = HS_MCTS_PASS(game->board.size);
    int v = hs_mcts_choose_move(s->mcts);
    if (!s_try(game, color, v, name))
        return 0;
    /* The tree checks superko at the root only under the game's rules; a
     * move it still picks that the game refuses gives way to the next best. */
    for (int i = 0; i < s->res->num_moves; i++)
        if (s->res->moves[i].move != v && !s_try(game, color, s->res->moves[i].move, name))
            return 0;
    if (!s_try(game, color, pass, name))
        return 0;
    hs_gtp_printf(r, "no legal move");
    return 1;
}
