/*
 * cli/cmd_gtp.c — `hyeongse gtp`: speaks GTP on stdin/stdout
 * (worker/gtp.h) and plays and analyses with the tree search
 * (worker/mcts.h): with --net over the net (KataGo's .bin.gz on the chosen
 * backend, which kata-raw-nn uses too), without it over rollouts.
 * Everything that can fail at start (the options, the net file, the backend,
 * the evaluator's threads) fails here, before the first command, with a
 * message and exit status 1 (2 for a usage error), so a controller that
 * starts us sees a dead engine and a reason on stderr instead of answers
 * from a half-made one.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "core/rules.h"
#include "worker/analysis.h"
#include "worker/gtp.h"
#include "worker/mcts.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"

const char hs_cmd_gtp_summary[] = "play and analyse over GTP (genmove, kata-analyze, ...), "
                                  "with a KataGo net or rollouts";

/* Positions per backend run at least: `kata-raw-nn all` is 8 symmetries of one position. */
#define S_BATCH 8

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse gtp [--net FILE] [--visits N] [--threads N] [--time SECONDS]\n"
            "                    [--backend ref|cpu|cuda] [--rules R] [--seed S]\n"
            "                    [--resign-threshold P] [--analysis-visits N] [--lcb K]\n"
            "                    [--confirm K]\n"
            "                    [--set KEY=VALUE[,KEY=VALUE...]]\n\n"
            "Speaks GTP (version 2) on stdin/stdout and searches with PUCT tree search:\n"
            "over a net with --net (KataGo's .bin.gz or our own .hsn), else over rollouts.\n"
            "docs/GTP.md has the details and how to add it to Sabaki, Lizzie or KaTrain.\n"
            "Commands: protocol_version, name, version, known_command, list_commands,\n"
            "quit, boardsize, clear_board, komi, play, undo, genmove, loadsgf FILE [MOVE],\n"
            "kata-set-rules, kata-get-rules, showboard, time_settings, kgs-time_settings,\n"
            "time_left, final_score, final_status_list, lz-analyze, kata-analyze,\n"
            "lz-genmove_analyze, kata-genmove_analyze, analyze, genmove_analyze,\n"
            "get_komi, clear_cache, stop, kata-list-params, kata-get-param,\n"
            "kata-set-param, kata-raw-nn (with --net).\n\n"
            "  --net FILE        the net (default: none, the search uses rollouts)\n"
            "  --visits N        visits per genmove (default 200)\n"
            "  --threads N       leaves per search step, and rollout threads (default 1)\n"
            "  --time SECONDS    the most a genmove may take (default: only the clock\n"
            "                    that time_settings set limits it)\n"
            "  --backend B       ref, cpu or cuda (default: cuda with a GPU, else cpu where\n"
            "                    built, else ref)\n"
            "  --rules R         rules at start: japanese (default), korean, chinese, aga,\n"
            "                    new-zealand, tromp-taylor; komi starts as their default\n"
            "  --seed S          the search's seed (default 0; with --threads 1 a search\n"
            "                    repeats exactly)\n"
            "  --resign-threshold P  genmove resigns when the mover's win rate is below P\n"
            "                    late in the game (default 0.05; 0 never resigns)\n"
            "  --analysis-visits N  analysis stops searching there (default 1000000)\n"
            "  --lcb K           play the move with the best lower confidence bound, K\n"
            "                    standard errors below its value (KataGo plays with 5),\n"
            "                    not the most visited (default 0: the most visited)\n"
            "  --confirm K       confirmation visits: while the move of the best bound at\n"
            "                    K standard errors is not the most visited and the visits\n"
            "                    left can make it so, the root searches it (docs/MCTS.md;\n"
            "                    default 5 with --net, else 0: off)\n"
            "  --set K=V,...     KataGo's search settings by its names, as in its config\n"
            "                    (e.g. subtreeValueBiasFactor=0,useLcbForSelection=true);\n"
            "                    the analysis engine's list (docs/ANALYSIS_PROTOCOL.md)\n"
            "                    less the budget and threads, which have options here\n");
}

typedef struct s_opts {
    const char *net, *rules, *backend;
    const char *visits, *threads, *time, *seed, *resign, *analysis, *lcb, *confirm, *set;
} s_opts_t;

/* 0, 1 for --help, -1 for a usage error (printed). */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        const char **slot = !strcmp(a, "--net") ? &o->net
                          : !strcmp(a, "--rules") ? &o->rules
                          : !strcmp(a, "--backend") ? &o->backend
                          : !strcmp(a, "--visits") ? &o->visits
                          : !strcmp(a, "--threads") ? &o->threads
                          : !strcmp(a, "--time") ? &o->time
                          : !strcmp(a, "--seed") ? &o->seed
                          : !strcmp(a, "--resign-threshold") ? &o->resign
                          : !strcmp(a, "--analysis-visits") ? &o->analysis
                          : !strcmp(a, "--lcb") ? &o->lcb
                          : !strcmp(a, "--confirm") ? &o->confirm
                          : !strcmp(a, "--set") ? &o->set : NULL;
        if (!slot) {
            fprintf(stderr, "hyeongse gtp: unknown option %s\n", a);
            return -1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "hyeongse gtp: %s needs a value\n", a);
            return -1;
        }
        *slot = argv[++i];
    }
    return 0;
}

/* --set's KEY=VALUE pairs (KataGo's names, hs_analysis_setting) into
 * search; -1 (printed) on a bad pair. The budget, the threads and the
 * analysis engine's history switch are not taken: options or GTP say those. */
static int s_settings(const char *text, hs_mcts_config_t *search)
{
    static const char *const refused[] = { "maxVisits", "maxPlayouts", "maxTime",
                                           "numSearchThreads", "numSearchThreadsPerAnalysisThread",
                                           "ignorePreRootHistory", NULL };
    char *copy = strdup(text), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *p = copy ? strtok_r(copy, ",", &save) : NULL; p && !rc; p = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(p, '=');
        if (eq)
            *eq = '\0';
        bool known = false, ignored;
        for (int i = 0; refused[i]; i++)
            known |= !strcmp(p, refused[i]);
        if (known) {
            fprintf(stderr, "hyeongse gtp: --set %s: use --visits, --time or --threads\n", p);
            rc = -1;
        } else if (!eq) {
            fprintf(stderr, "hyeongse gtp: --set: expected KEY=VALUE, not '%s'\n", p);
            rc = -1;
        } else if ((rc = hs_analysis_setting(p, eq + 1, search, &ignored)) != 1) {
            if (rc)
                fprintf(stderr, "hyeongse gtp: --set: bad value '%s' for %s\n", eq + 1, p);
            else
                fprintf(stderr, "hyeongse gtp: --set: no search setting named %s\n", p);
            rc = -1;
        } else {
            rc = 0;
        }
    }
    free(copy);
    return rc;
}

/* The numeric options into cfg and *threads; -1 (printed) on a bad one. */
static int s_numbers(const s_opts_t *o, hs_gtp_config_t *cfg, int *threads)
{
    hs_mcts_config_default(&cfg->search);
    /* genmove plays the most visited move; confirmation visits make that
     * the move the search's bound prefers wherever the budget allows
     * (docs/MCTS.md, "Confirmation visits"): on for play over the net, as
     * measured against KataGo; the rollout search's measure (against GNU
     * Go) was without them */
    cfg->search.confirm_stdevs = o->net ? 5 : 0;
    cfg->search.graph_search = true;   /* KataGo's GTP default; the net's searches only */
    /* KataGo's GTP default too; over the net only, since the rollout
     * search's measure (against GNU Go, from the empty board) was without */
    cfg->search.root_symmetry_pruning = o->net != NULL;
    cfg->resign_threshold = 0.05;
    int visits = 200;
    long seed = 0;
    *threads = 1;
    if ((o->visits && hs__cli_int("gtp", "--visits", o->visits, 1, 100000000, &visits)) ||
        (o->threads && hs__cli_int("gtp", "--threads", o->threads, 1, 256, threads)) ||
        (o->seed && hs__cli_long("gtp", "--seed", o->seed, 0, LONG_MAX, &seed)) ||
        (o->analysis && hs__cli_int("gtp", "--analysis-visits", o->analysis, 1, 100000000,
                                    &cfg->analysis_visits)) ||
        (o->time && hs__cli_double("gtp", "--time", o->time, 0, 1e6, &cfg->move_time)) ||
        (o->resign && hs__cli_double("gtp", "--resign-threshold", o->resign, 0, 1,
                                     &cfg->resign_threshold)) ||
        (o->lcb && hs__cli_double("gtp", "--lcb", o->lcb, 0, 100, &cfg->search.lcb_stdevs)) ||
        (o->confirm && hs__cli_double("gtp", "--confirm", o->confirm, 0, 100,
                                      &cfg->search.confirm_stdevs)) ||
        (o->set && s_settings(o->set, &cfg->search)))
        return -1;
    cfg->search.max_visits = visits;
    cfg->search.threads = *threads;
    cfg->search.seed = (uint64_t)seed;
    return 0;
}

/* The rules and backend the options name into cfg and *kind; 2 on a bad word. */
static int s_choices(const s_opts_t *o, hs_gtp_config_t *cfg, hs_nn_backend_kind_t *kind)
{
    hs_rules_t rules = hs_rules_get(HS_RULES_JAPANESE);
    if (o->rules && hs_rules_from_name(o->rules, &rules)) {
        fprintf(stderr, "hyeongse gtp: unknown rules '%s'\n", o->rules);
        return 2;
    }
    cfg->rules = rules.id;
    *kind = hs_nn_backend_default();
    hs_error_t err;
    if (o->backend && hs_nn_backend_parse(o->backend, kind, &err)) {
        fprintf(stderr, "hyeongse gtp: %s\n", err.msg);
        return 2;
    }
    return 0;
}

/* What the session searches with, and what it must free. */
typedef struct s_engine {
    hs_nn_model_t *model;
    hs_nn_evaluator_t *nn;
    hs_mcts_evaluator_t ev;
} s_engine_t;

static void s_engine_free(s_engine_t *e)
{
    hs_mcts_evaluator_free(&e->ev);
    hs_nn_evaluator_free(&e->nn);
    hs_nn_model_free(&e->model);
}

/* The net and its evaluators, or the rollout evaluator without --net. */
static int s_engine_make(const s_opts_t *o, hs_nn_backend_kind_t kind, int threads,
                         uint64_t seed, s_engine_t *e, hs_error_t *err)
{
    if (!o->net) {
        hs_mcts_rollout_config_t rc;
        hs_mcts_rollout_config_default(&rc);
        rc.threads = threads;
        rc.seed = seed;
        return hs_mcts_rollout_evaluator_create(&rc, &e->ev, err);
    }
    hs_nn_backend_config_t bc = { .kind = kind, .max_batch = threads > S_BATCH ? threads : S_BATCH };
    int rc = hs_nn_model_load(o->net, &e->model, err);
    if (!rc)
        rc = hs_nn_evaluator_create(e->model, &bc, &e->nn, err);
    if (!rc)
        rc = hs_mcts_net_evaluator_create(e->nn, seed, &e->ev, err);
    return rc;
}

int hs_cmd_gtp(int argc, char **argv)
{
    s_opts_t o = { 0 };
    int rc = s_parse(argc, argv, &o);
    if (rc) {
        s_usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : 2;
    }
    hs_gtp_config_t cfg = { .name = "hyeongse", .version = HS_VERSION };
    hs_nn_backend_kind_t kind;
    int threads;
    if (s_numbers(&o, &cfg, &threads))
        return 2;
    if ((rc = s_choices(&o, &cfg, &kind)))
        return rc;
    hs_error_t err;
    hs_error_clear(&err);
    s_engine_t e = { 0 };
    hs_gtp_t *g = NULL;
    if (s_engine_make(&o, kind, threads, cfg.search.seed, &e, &err)) {
        fprintf(stderr, "hyeongse gtp: %s\n", err.msg);
        s_engine_free(&e);
        return 1;
    }
    cfg.model = e.model;
    cfg.eval = e.nn;
    cfg.search_eval = &e.ev;
    rc = hs_gtp_create(&cfg, &g, &err);
    if (!rc) {
        if (e.model)
            fprintf(stderr, "hyeongse gtp: net %s (version %d), backend %s, ", e.model->name,
                    e.model->version, hs_nn_backend_kind_name(kind));
        else
            fprintf(stderr, "hyeongse gtp: rollouts, ");
        fprintf(stderr, "%d visits, %d threads, rules %s: ready\n", cfg.search.max_visits,
                threads, hs_rules_get(cfg.rules).name);
        rc = hs_gtp_run(g, stdin, stdout, &err);
    }
    if (rc)
        fprintf(stderr, "hyeongse gtp: %s\n", err.msg);
    hs_gtp_free(&g);
    s_engine_free(&e);
    return rc ? 1 : 0;
}
