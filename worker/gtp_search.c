/*
 * worker/gtp_search.c — the state the GTP search commands share
 * (worker/gtp_search.h): the tree kept across commands, the root set from the
 * session's game, the time manager, and genmove's final decision (play,
 * pass or resign), which lz-/kata-genmove_analyze make too. Also KataGo's
 * commands that change that state at run time: clear_cache,
 * kata-list-params, kata-get-param(s) and kata-set-param(s).
 */
#include "worker/gtp_search.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/json_read.h"
#include "worker/analysis.h"

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

/* ------------------------------------------------------------------ */
/* Run-time settings (KataGo's kata-list-params, kata-get-param,       */
/* kata-set-param) and clear_cache                                     */

/* How a setting is held: a field of the search's configuration (an int, a
 * double, a bool; S_ON: KataGo's switch of a strength of ours, on when it
 * is > 0), or one of the special ones. */
enum { S_INT, S_DBL, S_BOOL, S_ON, S_CPUCT, S_TIME };

typedef struct s_param {
    const char *name;
    int kind;
    size_t off;   /* in hs_mcts_config_t */
} s_param_t;

#define S_P(name, kind, field) { name, kind, offsetof(hs_mcts_config_t, field) }

/* KataGo's names of the settings genmove and the analysis commands read
 * (those `--set` takes, hs_analysis_setting's, plus the budget and the
 * threads), in KataGo's order (its JSON's: by bytes). maxVisits and
 * maxPlayouts are genmove's budget (the analysis commands stop at
 * --analysis-visits), maxTime is --time. */
static const s_param_t s_params[] = {
    S_P("confirmStdevs", S_DBL, confirm_stdevs),
    { "cpuctExploration", S_CPUCT, 0 },
    S_P("cpuctExplorationBase", S_DBL, net_cpuct_base),
    S_P("cpuctExplorationLog", S_DBL, net_cpuct_log),
    S_P("cpuctUtilityStdevScale", S_DBL, cpuct_stdev_scale),
    S_P("dynamicScoreCenterScale", S_DBL, dyn_score_scale),
    S_P("dynamicScoreUtilityFactor", S_DBL, dyn_score_utility),
    S_P("fpuReductionMax", S_DBL, fpu_reduction),
    S_P("lcbStdevs", S_DBL, lcb_stdevs),
    S_P("maxPlayouts", S_INT, max_playouts),
    { "maxTime", S_TIME, 0 },
    S_P("maxVisits", S_INT, max_visits),
    S_P("minVisitPropForLCB", S_DBL, lcb_min_visit_prop),
    S_P("noisePruneUtilityScale", S_DBL, noise_prune_utility),
    S_P("numSearchThreads", S_INT, threads),
    S_P("rootFpuReductionMax", S_DBL, root_fpu_reduction),
    S_P("rootNumSymmetriesToSample", S_INT, root_symmetries),
    S_P("rootPolicyTemperature", S_DBL, root_policy_temperature),
    S_P("rootSymmetryPruning", S_BOOL, root_symmetry_pruning),
    S_P("staticScoreUtilityFactor", S_DBL, score_utility),
    S_P("subtreeValueBiasFactor", S_DBL, subtree_bias),
    S_P("subtreeValueBiasFreeProp", S_DBL, subtree_bias_free),
    S_P("subtreeValueBiasWeightExponent", S_DBL, subtree_bias_exponent),
    S_P("useGraphSearch", S_BOOL, graph_search),
    S_P("useLcbForSelection", S_ON, lcb_stdevs),
    S_P("useNoisePruning", S_ON, noise_prune_utility),
    S_P("valueWeightExponent", S_DBL, value_weight_exponent),
    S_P("wideRootNoise", S_DBL, wide_root_noise),
    S_P("winLossUtilityFactor", S_DBL, win_loss_utility),
};
#define S_NUM_PARAMS (sizeof s_params / sizeof s_params[0])

static const s_param_t *s_param(const char *name)
{
    for (size_t i = 0; i < S_NUM_PARAMS; i++)
        if (!strcmp(s_params[i].name, name))
            return &s_params[i];
    return NULL;
}

/* The setting's value as KataGo's kata-get-param prints it (its JSON):
 * a limit of ours that is off (0) as KataGo's default, which is none. */
static const char *s_param_text(const hs__gtp_search_t *s, const s_param_t *p, char *buf,
                                size_t cap)
{
    const char *field = (const char *)&s->cfg + p->off;
    double x;
    int v;
    switch (p->kind) {
    case S_INT:
        memcpy(&v, field, sizeof v);
        snprintf(buf, cap, "%lld", v > 0 ? (long long)v : 1LL << 50);
        return buf;
    case S_BOOL:
        return strcpy(buf, *(const bool *)field ? "true" : "false");
    case S_ON:
        memcpy(&x, field, sizeof x);
        return strcpy(buf, x > 0 ? "true" : "false");
    case S_CPUCT:
        x = s->ev && s->ev->estimates ? s->cfg.net_cpuct : s->cfg.cpuct;
        break;
    case S_TIME:
        x = s->move_time > 0 ? s->move_time : 1e20;
        break;
    default:
        memcpy(&x, field, sizeof x);
    }
    return hs_analysis_json_double(x, buf, cap);
}

static void s_words(hs_buf_t *r, int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        hs_gtp_printf(r, "%s%s", i ? " " : "", argv[i]);
}

static int s_list_params(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g, (void)ctx, (void)argc, (void)argv;
    for (size_t i = 0; i < S_NUM_PARAMS; i++)
        hs_gtp_printf(r, "%s%s", i ? " " : "", s_params[i].name);
    return 0;
}

static int s_get_param(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g;
    const s_param_t *p = argc == 1 ? s_param(argv[0]) : NULL;
    char buf[40];
    if (argc != 1) {
        hs_gtp_printf(r, "Expected one arguments for kata-get-param but got '");
        s_words(r, argc, argv);
        hs_gtp_printf(r, "'");
        return 1;
    }
    if (!p) {
        hs_gtp_printf(r, "Invalid parameter: %s", argv[0]);
        return 1;
    }
    hs_gtp_printf(r, "%s", s_param_text(ctx, p, buf, sizeof buf));
    return 0;
}

/* p back to the value the session started with (KataGo: the key dropped
 * from its config), into c and *move_time. */
static void s_param_reset(hs_gtp_t *g, const s_param_t *p, hs_mcts_config_t *c,
                          double *move_time)
{
    const hs_gtp_config_t *cfg = hs_gtp_config(g);
    size_t size = p->kind == S_INT ? sizeof(int) : p->kind == S_BOOL ? sizeof(bool) : sizeof(double);
    if (p->kind == S_TIME) {
        *move_time = cfg->move_time > 0 ? cfg->move_time : 0;
    } else if (p->kind == S_CPUCT) {
        c->cpuct = cfg->search.cpuct;
        c->net_cpuct = cfg->search.net_cpuct;
    } else {
        memcpy((char *)c + p->off, (const char *)&cfg->search + p->off, size);
    }
}

/* One setting into c and *move_time (copies of the session's): value as
 * `--set` reads it (hs_analysis_setting), NULL or "" for the value at start
 * (KataGo drops the key from its config). 0, or 1 with KataGo's message in
 * r. */
static int s_apply(hs_gtp_t *g, const hs__gtp_search_t *s, const char *name, const char *value,
                   hs_mcts_config_t *c, double *move_time, hs_buf_t *r)
{
    const s_param_t *p = s_param(name);
    bool ignored;
    if (!p) {
        hs_gtp_printf(r, "Could not set params: Unrecognized or non-overridable parameter in "
                         "kata-set-params: %s", name);
        return 1;
    }
    if (!value || !*value) {
        s_param_reset(g, p, c, move_time);
        return 0;
    }
    c->max_time = *move_time;   /* KataGo's maxTime: genmove's cap, --time */
    int rc = hs_analysis_setting(p->name, value, c, &ignored);
    *move_time = c->max_time;
    c->max_time = s->cfg.max_time;
    if (rc != 1) {
        hs_gtp_printf(r, "Could not set params: Could not parse '%s' for key '%s'", value, name);
        return 1;
    }
    return 0;
}

/* Makes c and move_time the session's. A change clears the tree, as
 * KataGo's does (the next search starts afresh with them). */
static void s_commit(hs__gtp_search_t *s, const hs_mcts_config_t *c, double move_time)
{
    if (memcmp(c, &s->cfg, sizeof *c) || move_time != s->move_time)
        hs_mcts_free(&s->mcts);   /* made again with s->cfg at the next search */
    memcpy(&s->cfg, c, sizeof *c);
    s->move_time = move_time;
}

/* kata-set-param NAME [VALUE]. */
static int s_set_param(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    hs__gtp_search_t *s = ctx;
    if (argc != 1 && argc != 2) {
        hs_gtp_printf(r, "Expected one or two arguments for kata-set-param but got '");
        s_words(r, argc, argv);
        hs_gtp_printf(r, "'");
        return 1;
    }
    hs_mcts_config_t c;
    memcpy(&c, &s->cfg, sizeof c);   /* (padding too: s_commit compares bytes) */
    double move_time = s->move_time;
    if (s_apply(g, s, argv[0], argc == 2 ? argv[1] : NULL, &c, &move_time, r))
        return 1;
    s_commit(s, &c, move_time);
    return 0;
}

/* kata-get-params: every setting, one JSON object (KataGo's, with its
 * values as kata-get-param prints them). */
static int s_get_params(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g, (void)argc, (void)argv;
    char buf[40];
    for (size_t i = 0; i < S_NUM_PARAMS; i++)
        hs_gtp_printf(r, "%c\"%s\":%s", i ? ',' : '{', s_params[i].name,
                      s_param_text(ctx, &s_params[i], buf, sizeof buf));
    hs_gtp_printf(r, "}");
    return 0;
}

/* kata-set-params {"NAME":VALUE,...}: the words joined again (as KataGo
 * joins them) as one JSON object; a value is a string's text or the JSON
 * of a number or flag. Every setting or none: the first bad one fails the
 * command and nothing changes. */
static int s_set_params(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    hs__gtp_search_t *s = ctx;
    hs_buf_t text = { 0 };
    for (int i = 0; i < argc; i++) {
        hs_buf_put(&text, " ", i > 0);
        hs_buf_put(&text, argv[i], strlen(argv[i]));
    }
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    int rc = argc < 1 ? -1 : text.err ? HS_ENOMEM : hs_json_parse(text.p, text.len, NULL, &d, &err);
    hs_buf_fini(&text);
    const hs_json_t *o = rc ? NULL : hs_json_root(d);
    if (argc < 1)
        hs_gtp_printf(r, "Expected argument for kata-set-params but got ''");
    else if (rc)
        hs_gtp_printf(r, "Could not set params: %s", rc == HS_ENOMEM ? "out of memory" : err.msg);
    else if (o->type != HS_JSON_OBJECT)
        hs_gtp_printf(r, "Could not set params: Argument to kata-set-params must be a json object");
    hs_mcts_config_t c;
    memcpy(&c, &s->cfg, sizeof c);
    double move_time = s->move_time;
    int failed = !o || o->type != HS_JSON_OBJECT;
    for (const hs_json_t *m = failed ? NULL : o->child; m && !failed; m = m->next) {
        bool flag;
        const char *value = m->type == HS_JSON_STRING || m->type == HS_JSON_NUMBER ? m->str
                          : hs_json_bool(m, &flag) ? (flag ? "true" : "false") : "?";
        failed = s_apply(g, s, m->key, value, &c, &move_time, r);
    }
    hs_json_free(&d);
    if (!failed)
        s_commit(s, &c, move_time);
    return failed;
}

/* clear_cache: KataGo's clears its evaluation cache and its tree; ours
 * keeps no cache, so the tree (and with it what the subtree value bias
 * learnt) goes. */
static int s_clear_cache(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g, (void)argc, (void)argv, (void)r;
    hs__gtp_search_t *s = ctx;
    hs_mcts_free(&s->mcts);
    return 0;
}

static int s_register_params(hs_gtp_t *g, hs__gtp_search_t *s, hs_error_t *err)
{
    static const struct { const char *name; hs_gtp_handler_t fn; } table[] = {
        { "clear_cache", s_clear_cache }, { "kata-list-params", s_list_params },
        { "kata-get-param", s_get_param }, { "kata-set-param", s_set_param },
        { "kata-get-params", s_get_params }, { "kata-set-params", s_set_params },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int rc = hs_gtp_register(g, table[i].name, table[i].fn, s, err);
        if (rc)
            return rc;
    }
    return 0;
}

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
    /* (the analysis commands last: list_commands keeps this order, and
     * Sabaki's choice among them reads it) */
    int rc = hs__gtp_register_play(g, s, err);
    if (!rc)
        rc = s_register_params(g, s, err);
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
    if (hs_mcts_set_config(s->mcts, cfg, &err) || hs_mcts_set_filter(s->mcts, s->filter, &err) ||
        hs_mcts_set_root(s->mcts, &pos, &game->hist, &err)) {
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
