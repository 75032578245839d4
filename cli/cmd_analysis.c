/*
 * cli/cmd_analysis.c — `hyeongse analysis`: KataGo's analysis-engine
 * protocol on stdin/stdout (worker/analysis.h). Only the options and the
 * evaluator are made here: the net over an hs_nn_evaluator with --net, else
 * rollouts. What can fail at start (the net file, the backend) fails before
 * the first line is read, with exit status 1, as `gtp` does.
 *
 * KataGo's own command line is taken too (`-model FILE -config FILE
 * [-override-config K=V,...] [-quit-without-waiting]`), so that a script that
 * starts `katago analysis` starts us by changing only the program's path. Of
 * the config file the keys that mean something here are read (the table in
 * docs/ANALYSIS_PROTOCOL.md); the rest (log files, caches, GPU settings) are
 * skipped. Our own options, given explicitly, win over the file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "worker/analysis.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"

const char hs_cmd_analysis_summary[] = "KataGo's JSON analysis protocol on stdin/stdout";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse analysis [--net FILE] [--backend B] [--threads N] [--visits N]\n"
            "                         [--seed S] [--report-as black|white|side] [--batch N]\n"
            "                         [--max-active N] [--eval-threads N]\n\n"
            "Reads KataGo analysis queries (JSON, one a line) on stdin and writes the\n"
            "replies on stdout (docs/ANALYSIS_PROTOCOL.md). Open queries are searched\n"
            "together over one evaluator; at EOF they are finished, then it exits.\n\n"
            "  --net FILE        a KataGo net (.bin.gz); without it, rollouts\n"
            "  --backend B       ref, cpu or cuda (with --net; default as `gtp`)\n"
            "  --threads N       leaves in flight per search (numSearchThreads; 1)\n"
            "  --visits N        maxVisits of a query that gives none (200)\n"
            "  --seed S          the searches' and evaluator's seed (0)\n"
            "  --report-as P     win rates, scores and ownership as black (default, as\n"
            "                    KataGo's analysis_example.cfg), white, or side to move\n"
            "  --batch N         the evaluator's largest batch (net: 16; rollouts: 16\n"
            "                    per evaluator thread)\n"
            "  --max-active N    searches stepped together (default: batch / threads)\n"
            "  --eval-threads N  rollout threads, or the cpu backend's (0 = every core)\n\n"
            "KataGo's command line also works: -model FILE (= --net), -config FILE (its\n"
            "analysis .cfg: maxVisits, numSearchThreads[PerAnalysisThread], nnMaxBatchSize, nnRandomize,\n"
            "reportAnalysisWinratesAs, warnUnusedFields, maxPlayouts, maxTime,\n"
            "cpuctExploration, cpuctExplorationLog, cpuctExplorationBase,\n"
            "fpuReductionMax, rootFpuReductionMax,\n"
            "staticScoreUtilityFactor, dynamicScoreUtilityFactor, dynamicScoreCenterScale,\n"
            "cpuctUtilityStdevScale, valueWeightExponent, useNoisePruning,\n"
            "noisePruneUtilityScale, ignorePreRootHistory, useLcbForSelection, lcbStdevs,\n"
            "minVisitPropForLCB, subtreeValueBiasFactor, subtreeValueBiasWeightExponent,\n"
            "subtreeValueBiasFreeProp, wideRootNoise, rootNumSymmetriesToSample, useGraphSearch,\n"
            "rootSymmetryPruning, rootPolicyTemperature, winLossUtilityFactor, confirmStdevs\n"
            "(ours) are read),\n"
            "-override-config K=V,K=V, -quit-without-waiting, -analysis-threads N (read\n"
            "and skipped, as the config's numAnalysisThreads). An option with a value\n"
            "is also taken as one word, -opt=VALUE or --opt=VALUE.\n");
}

typedef struct s_opts {
    const char *net, *backend, *report_as, *config, *overrides;
    int threads, visits, batch, max_active, eval_threads;   /* 0 = not given */
    long seed;
    bool quit_without_waiting;
} s_opts_t;

static int s_number(const char *a, const char *v, s_opts_t *o)
{
    static const char cmd[] = "analysis";
    if (!strcmp(a, "--threads"))
        return hs__cli_int(cmd, a, v, 1, 1024, &o->threads);
    if (!strcmp(a, "--visits"))
        return hs__cli_int(cmd, a, v, 1, 1 << 30, &o->visits);
    if (!strcmp(a, "--batch"))
        return hs__cli_int(cmd, a, v, 1, 4096, &o->batch);
    if (!strcmp(a, "--max-active"))
        return hs__cli_int(cmd, a, v, 1, 100000, &o->max_active);
    if (!strcmp(a, "--eval-threads"))
        return hs__cli_int(cmd, a, v, 0, 1024, &o->eval_threads);
    if (!strcmp(a, "--seed"))
        return hs__cli_long(cmd, a, v, 0, 0x7fffffffffffffffL, &o->seed);
    /* KataGo's -analysis-threads (KaTrain passes it): checked, then skipped
     * like the config's numAnalysisThreads (--max-active is ours). */
    if (!strcmp(a, "-analysis-threads")) {
        int skipped;
        return hs__cli_int(cmd, a, v, 1, 1 << 20, &skipped);
    }
    return 1;
}

/* A string option's slot, or NULL. */
static const char **s_slot(const char *a, s_opts_t *o)
{
    return !strcmp(a, "--net") || !strcmp(a, "-model") ? &o->net
         : !strcmp(a, "--backend") ? &o->backend
         : !strcmp(a, "--report-as") ? &o->report_as
         : !strcmp(a, "-config") ? &o->config
         : !strcmp(a, "-override-config") ? &o->overrides : NULL;
}

/* "-opt=value": the option's name copied into name (size bytes) and the value
 * returned; NULL when a holds no '=' or its name does not fit (then it is an
 * unknown option). KataGo's own parser (TCLAP, its delimiter ' ') takes only
 * "-opt value"; the '=' form is taken as well because some clients write it
 * (-analysis-threads=N), as getopt_long takes it for our --options. Only the
 * name is split off: the value may hold '=' (-override-config=maxVisits=10). */
static const char *s_split(const char *a, char *name, size_t size)
{
    const char *eq = strchr(a, '=');
    if (a[0] != '-' || !eq || (size_t)(eq - a) >= size)
        return NULL;
    memcpy(name, a, (size_t)(eq - a));
    name[eq - a] = '\0';
    return eq + 1;
}

/* 0, 1 for --help, -1 for a usage error (printed). */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    char name[32];   /* the longest option, -override-config, is 16 */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (!strcmp(a, "-quit-without-waiting")) {
            o->quit_without_waiting = true;
            continue;
        }
        const char *v = s_split(a, name, sizeof name);
        if (v) {
            a = name;
        } else if (i + 1 >= argc) {
            fprintf(stderr, "hyeongse analysis: %s needs a value\n", a);
            return -1;
        } else {
            v = argv[++i];
        }
        const char **slot = s_slot(a, o);
        if (slot) {
            *slot = v;
            continue;
        }
        int rc = s_number(a, v, o);
        if (rc > 0)
            fprintf(stderr, "hyeongse analysis: unknown option %s\n", a);
        if (rc)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* KataGo's config file and -override-config                           */

/* What the file says about the evaluator rather than the searches. */
typedef struct s_file {
    int batch;             /* nnMaxBatchSize, 0 = not given */
    bool fixed_symmetry;   /* nnRandomize = false */
} s_file_t;

static bool s_int_value(const char *v, int lo, int hi, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < lo || x > hi)
        return false;
    *out = (int)x;
    return true;
}

/* One key = value; false when a key we read has a value we cannot use. */
static bool s_setting(const char *k, const char *v, hs_analysis_config_t *cfg, s_file_t *f)
{
    int rc = hs_analysis_setting(k, v, &cfg->search, &cfg->ignore_pre_root_history);
    if (rc)
        return rc > 0;
    if (!strcmp(k, "nnMaxBatchSize"))
        return s_int_value(v, 1, 4096, &f->batch);
    if (!strcmp(k, "nnRandomize")) {   /* false: every evaluation at symmetry 0 */
        f->fixed_symmetry = !strcasecmp(v, "false");
        return !strcasecmp(v, "true") || !strcasecmp(v, "false");
    }
    if (!strcmp(k, "warnUnusedFields")) {
        cfg->warn_unused_fields = !strcasecmp(v, "true");
        return !strcasecmp(v, "true") || !strcasecmp(v, "false");
    }
    if (!strcmp(k, "reportAnalysisWinratesAs")) {
        cfg->report_as = !strcasecmp(v, "WHITE") ? HS_ANALYSIS_WHITE
                       : !strcasecmp(v, "SIDETOMOVE") ? HS_ANALYSIS_SIDE : HS_ANALYSIS_BLACK;
        return !strcasecmp(v, "WHITE") || !strcasecmp(v, "SIDETOMOVE") || !strcasecmp(v, "BLACK");
    }
    return true;   /* logs, caches, GPU settings: nothing here */
}

/* Trims s in place (leading and trailing white space). */
static char *s_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* "key = value" (a "# comment" already cut); where names the source. */
static int s_pair(char *line, const char *where, hs_analysis_config_t *cfg, s_file_t *f)
{
    char *eq = strchr(line, '=');
    if (!eq) {
        if (*s_trim(line))
            fprintf(stderr, "hyeongse analysis: %s: expected key = value\n", where);
        return *s_trim(line) ? -1 : 0;
    }
    *eq = '\0';
    char *k = s_trim(line), *v = s_trim(eq + 1);
    if (!s_setting(k, v, cfg, f)) {
        fprintf(stderr, "hyeongse analysis: %s: bad value '%s' for %s\n", where, v, k);
        return -1;
    }
    return 0;
}

static int s_config_file(const char *path, hs_analysis_config_t *cfg, s_file_t *file)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "hyeongse analysis: cannot read the config %s\n", path);
        return -1;
    }
    char line[4096], where[4200];
    int rc = 0;
    for (int no = 1; !rc && fgets(line, sizeof line, f); no++) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        snprintf(where, sizeof where, "%s:%d", path, no);
        rc = s_pair(line, where, cfg, file);
    }
    fclose(f);
    return rc;
}

static int s_overrides(const char *text, hs_analysis_config_t *cfg, s_file_t *f)
{
    char *copy = strdup(text), *save = NULL;
    if (!copy)
        return -1;
    int rc = 0;
    for (char *p = strtok_r(copy, ",", &save); p && !rc; p = strtok_r(NULL, ",", &save))
        rc = s_pair(p, "-override-config", cfg, f);
    free(copy);
    return rc;
}

static int s_report_as(const char *s, hs_analysis_perspective_t *out)
{
    if (!s)
        return 0;
    if (!strcmp(s, "black"))
        *out = HS_ANALYSIS_BLACK;
    else if (!strcmp(s, "white"))
        *out = HS_ANALYSIS_WHITE;
    else if (!strcmp(s, "side"))
        *out = HS_ANALYSIS_SIDE;
    else {
        fprintf(stderr, "hyeongse analysis: --report-as takes black, white or side, not '%s'\n", s);
        return -1;
    }
    return 0;
}

typedef struct s_eval {
    hs_nn_model_t *model;
    hs_nn_evaluator_t *nn;
    hs_mcts_evaluator_t ev;
} s_eval_t;

static int s_make_eval(const s_opts_t *o, s_eval_t *x, hs_error_t *err)
{
    if (!o->net) {
        hs_mcts_rollout_config_t rc;
        hs_mcts_rollout_config_default(&rc);
        rc.threads = o->eval_threads;
        rc.seed = (uint64_t)o->seed;
        if (o->batch)
            rc.max_batch = o->batch;
        return hs_mcts_rollout_evaluator_create(&rc, &x->ev, err);
    }
    hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default(),
                                  .max_batch = o->batch ? o->batch : 16,
                                  .threads = o->eval_threads };
    int rc = 0;
    if (o->backend)
        rc = hs_nn_backend_parse(o->backend, &bc.kind, err);
    if (!rc)
        rc = hs_nn_model_load(o->net, &x->model, err);
    if (!rc)
        rc = hs_nn_evaluator_create(x->model, &bc, &x->nn, err);
    if (!rc)
        rc = hs_mcts_net_evaluator_create(x->nn, (uint64_t)o->seed, &x->ev, err);
    return rc;
}

static void s_free_eval(s_eval_t *x)
{
    hs_mcts_evaluator_free(&x->ev);
    hs_nn_evaluator_free(&x->nn);
    hs_nn_model_free(&x->model);
}

int hs_cmd_analysis(int argc, char **argv)
{
    s_opts_t o = { 0 };
    int rc = s_parse(argc, argv, &o);
    if (rc) {
        s_usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : 2;
    }
    hs_analysis_config_t cfg;
    hs_analysis_config_default(&cfg);
    s_file_t file = { 0 };
    if ((o.config && s_config_file(o.config, &cfg, &file))
        || (o.overrides && s_overrides(o.overrides, &cfg, &file))
        || s_report_as(o.report_as, &cfg.report_as))
        return 2;
    if (o.threads)
        cfg.search.threads = o.threads;
    if (o.visits)
        cfg.search.max_visits = o.visits;
    if (!o.batch)
        o.batch = file.batch;
    cfg.search.seed = (uint64_t)o.seed;
    cfg.max_active = o.max_active;
    cfg.quit_without_waiting = o.quit_without_waiting;
    hs_error_t err;
    hs_error_clear(&err);
    s_eval_t x = { 0 };
    if (s_make_eval(&o, &x, &err) ||
        (file.fixed_symmetry && x.nn && hs_mcts_net_evaluator_fix_symmetry(&x.ev, 0, &err))) {
        fprintf(stderr, "hyeongse analysis: %s\n", err.msg);
        s_free_eval(&x);
        return 1;
    }
    cfg.eval = &x.ev;
    if (x.model) {
        const char *slash = strrchr(o.net, '/');
        cfg.model_file = slash ? slash + 1 : o.net;
        cfg.model_name = x.model->name;
        cfg.model_version = x.model->version;
    }
    fprintf(stderr, "hyeongse analysis: evaluator %s (batch %d), %d visits: "
                    "Started, ready to begin handling requests\n",
            x.ev.name ? x.ev.name : "?", x.ev.max_batch, cfg.search.max_visits);
    rc = hs_analysis_run(&cfg, stdin, stdout, &err);
    if (rc)
        fprintf(stderr, "hyeongse analysis: %s\n", err.msg);
    /* Whether the searches shared the batches: the mean is what to look at. */
    fprintf(stderr, "hyeongse analysis: %ld evaluator calls, %ld leaves (mean batch %.1f)\n",
            x.ev.calls, x.ev.leaves, x.ev.calls ? (double)x.ev.leaves / (double)x.ev.calls : 0.0);
    s_free_eval(&x);
    return rc ? 1 : 0;
}
