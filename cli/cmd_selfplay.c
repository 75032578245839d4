/*
 * cli/cmd_selfplay.c — `hyeongse selfplay`: games of the tree search against
 * itself, written as SGF (the example archives in examples/, test input).
 * Option parsing, the evaluator (rollouts, or a net with --net) and the
 * files; the game loop is worker/selfplay.h.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "args.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"
#include "worker/selfplay.h"

const char hs_cmd_selfplay_summary[] = "play games of the tree search against itself, as SGF";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse selfplay --size S --visits V --games N --out FILE|DIR [--net FILE]\n"
            "                         [--backend B] [--seed S] [--komi K] [--rules R] [--threads N]\n\n"
            "Plays N games of the PUCT search against itself, V root visits a move, with\n"
            "Dirichlet noise and a temperature for the opening moves (worker/selfplay.h).\n"
            "Leaves are evaluated by rollouts, or by the KataGo net given with --net.\n"
            "A game ends on two passes, a resignation (never in a fifth of the games) or\n"
            "2 * S * S moves; RE is the resignation (B+R, W+R) or the final count\n"
            "(Tromp-Taylor under tromp-taylor rules, else the judge's). Progress per\n"
            "game on stderr. The same seed gives the\n"
            "same games.\n\n"
            "  --size S      board size, 2..19 (default 9)\n"
            "  --visits V    root visits per move (default 100)\n"
            "  --games N     number of games (default 1)\n"
            "  --out PATH    a file ending in .sgf (all games in one collection) or a\n"
            "                folder (created; one selfplay-NNNNNN.sgf per game); required\n"
            "  --net FILE    a net as the evaluator, KataGo's .bin.gz or our own .hsn\n"
            "                (default: rollouts)\n"
            "  --backend B   the net's backend: ref, cpu or cuda (default: the fastest built)\n"
            "  --seed S      random seed, unsigned 64-bit (default 1)\n"
            "  --komi K      komi, -1000..1000 (default: the rules' komi)\n"
            "  --rules R     chinese (default), japanese, korean, aga, new-zealand, tromp-taylor\n"
            "  --threads N   leaves evaluated together per search step, and the rollout\n"
            "                threads (default 1)\n");
}

typedef struct s_opts {
    int size, visits, games, threads;
    uint64_t seed;
    double komi;
    bool has_komi;
    const char *out, *net, *backend, *rules;
} s_opts_t;

static int s_parse_value(s_opts_t *o, const char *a, const char *v)
{
    const char *cmd = "selfplay";
    if (!strcmp(a, "--size")) return hs__cli_int(cmd, a, v, 2, HS_NN_MAX_SIZE, &o->size);
    if (!strcmp(a, "--visits")) return hs__cli_int(cmd, a, v, 1, 10000000, &o->visits);
    if (!strcmp(a, "--games")) return hs__cli_int(cmd, a, v, 1, 100000000, &o->games);
    if (!strcmp(a, "--threads")) return hs__cli_int(cmd, a, v, 1, 1024, &o->threads);
    if (!strcmp(a, "--out")) { o->out = v; return 0; }
    if (!strcmp(a, "--net")) { o->net = v; return 0; }
    if (!strcmp(a, "--backend")) { o->backend = v; return 0; }
    if (!strcmp(a, "--rules")) { o->rules = v; return 0; }
    if (!strcmp(a, "--seed")) return hs__cli_u64(cmd, a, v, &o->seed);
    if (!strcmp(a, "--komi")) {
        o->has_komi = true;
        return hs__cli_komi(cmd, v, &o->komi);
    }
    fprintf(stderr, "hyeongse selfplay: unknown option %s\n", a);
    return -1;
}

/* 0, 1 for --help, -1 for a usage error (printed). */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (i + 1 >= argc) {
            fprintf(stderr, "hyeongse selfplay: %s needs a value (or is unknown)\n", a);
            return -1;
        }
        if (s_parse_value(o, a, argv[++i]))
            return -1;
    }
    if (!o->out) {
        fprintf(stderr, "hyeongse selfplay: --out FILE|DIR is required\n");
        return -1;
    }
    return 0;
}

/* The evaluator the options ask for, and the player name it gives PB/PW. */
typedef struct s_engine {
    hs_nn_model_t *model;
    hs_nn_evaluator_t *nn;
    hs_mcts_evaluator_t ev;
    char player[128];
} s_engine_t;

static int s_engine_open(const s_opts_t *o, s_engine_t *e, hs_error_t *err)
{
    if (!o->net) {
        hs_mcts_rollout_config_t rc;
        hs_mcts_rollout_config_default(&rc);
        rc.threads = o->threads;
        rc.seed = o->seed;
        snprintf(e->player, sizeof e->player, "hyeongse selfplay (rollouts) %d visits", o->visits);
        return hs_mcts_rollout_evaluator_create(&rc, &e->ev, err);
    }
    hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default(), .max_batch = o->threads };
    int rc = o->backend ? hs_nn_backend_parse(o->backend, &bc.kind, err) : 0;
    if (!rc) rc = hs_nn_model_load(o->net, &e->model, err);
    if (!rc) rc = hs_nn_evaluator_create(e->model, &bc, &e->nn, err);
    if (!rc) rc = hs_mcts_net_evaluator_create(e->nn, o->seed, &e->ev, err);
    if (!rc)
        snprintf(e->player, sizeof e->player, "hyeongse selfplay (net %.8s) %d visits",
                 e->model->hash, o->visits);
    return rc;
}

static void s_engine_close(s_engine_t *e)
{
    hs_mcts_evaluator_free(&e->ev);
    hs_nn_evaluator_free(&e->nn);
    hs_nn_model_free(&e->model);
}

static bool s_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* Writes text to path (mode "w" or "a"). 0 or -1 with errno. */
static int s_write(const char *path, const char *mode, const char *text, size_t len)
{
    FILE *f = fopen(path, mode);
    if (!f)
        return -1;
    int bad = fwrite(text, 1, len, f) != len;
    if (fclose(f) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

/* Game g (0-based) as SGF into the folder or the collection file. */
static int s_save(const s_opts_t *o, const hs_selfplay_game_t *game, const char *player,
                  const char *date, int g)
{
    char name[64], path[4096];
    snprintf(name, sizeof name, "selfplay %d seed %llu", g + 1, (unsigned long long)o->seed);
    char *text = NULL;
    size_t len = 0;
    hs_error_t err;
    hs_error_clear(&err);
    if (hs_selfplay_sgf(game, player, date, name, &text, &len, &err)) {
        fprintf(stderr, "hyeongse selfplay: %s\n", err.msg);
        return -1;
    }
    bool file = s_ends_with(o->out, ".sgf");
    if (file)
        snprintf(path, sizeof path, "%s", o->out);
    else
        snprintf(path, sizeof path, "%s/selfplay-%06d.sgf", o->out, g + 1);
    int rc = s_write(path, file && g > 0 ? "a" : "w", text, len);
    if (rc)
        fprintf(stderr, "hyeongse selfplay: cannot write %s: %s\n", path, strerror(errno));
    free(text);
    return rc;
}

static void s_progress(const s_opts_t *o, int g, const hs_selfplay_game_t *game)
{
    char re[16];
    fprintf(stderr, "hyeongse selfplay: game %d/%d: %d moves, %s%s%s, %.1f s, %.0f visits/s\n", g + 1,
            o->games, game->num_moves, hs_selfplay_result(game, re), game->capped ? " (move cap)" : "",
            game->resign_allowed ? "" : " (no resignation)", game->seconds,
            game->seconds > 0 ? (double)game->visits / game->seconds : 0.0);
}

/* The games, one after the other. 0 or 1 (reported). */
static int s_play_all(const s_opts_t *o, const hs_selfplay_config_t *cfg, s_engine_t *e)
{
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%d", gmtime_r(&now, &tm));
    int black = 0, white = 0;
    for (int g = 0; g < o->games; g++) {
        hs_selfplay_game_t game;
        hs_error_t err;
        hs_error_clear(&err);
        /* Each game its own seed stream, so game k is the same whatever --games says. */
        uint64_t seed = (uint64_t)o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)g;
        int rc = hs_selfplay_play(cfg, &e->ev, seed, &game, &err);
        if (!rc) {
            s_progress(o, g, &game);
            rc = s_save(o, &game, e->player, date, g);
            black += game.resigned == HS_WHITE || (game.resigned == HS_EMPTY && game.score > 0);
            white += game.resigned == HS_BLACK || (game.resigned == HS_EMPTY && game.score < 0);
        } else {
            fprintf(stderr, "hyeongse selfplay: game %d: %s\n", g + 1, err.msg);
        }
        hs_selfplay_game_fini(&game);
        if (rc)
            return 1;
    }
    printf("wrote %d games (%dx%d, komi %g, %s, %s) to %s; black won %d, white %d\n", o->games,
           cfg->size, cfg->size, cfg->komi, hs_rules_get(cfg->rules).name, e->player, o->out, black,
           white);
    return 0;
}

int hs_cmd_selfplay(int argc, char **argv)
{
    s_opts_t o = { .size = 9, .visits = 100, .games = 1, .threads = 1, .seed = 1 };
    int rc = s_parse(argc, argv, &o);
    if (rc) {
        s_usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : 2;
    }
    hs_rules_t rules = hs_rules_get(HS_RULES_CHINESE);
    if (o.rules && hs_rules_from_name(o.rules, &rules)) {
        fprintf(stderr, "hyeongse selfplay: unknown rules '%s'\n", o.rules);
        return 2;
    }
    hs_selfplay_config_t cfg;
    hs_selfplay_config_default(&cfg, o.size, rules.id);
    cfg.visits = o.visits;
    cfg.threads = o.threads;
    if (o.has_komi)
        cfg.komi = o.komi;
    if (!s_ends_with(o.out, ".sgf") && mkdir(o.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "hyeongse selfplay: cannot create %s: %s\n", o.out, strerror(errno));
        return 1;
    }
    s_engine_t e = { 0 };
    hs_error_t err;
    hs_error_clear(&err);
    if (s_engine_open(&o, &e, &err)) {
        fprintf(stderr, "hyeongse selfplay: %s\n", err.msg);
        s_engine_close(&e);
        return 1;
    }
    rc = s_play_all(&o, &cfg, &e);
    s_engine_close(&e);
    return rc;
}
