/*
 * cli/cmd_label.c — `hyeongse label ARCHIVE... --out DIR`: training samples
 * by the patent's labels (worker/label.h) from the finished games of
 * archives, written as shards (worker/shard.h) with an index.json
 * (docs/LABELS.md). Options, checks and the net; the run itself is
 * cli/label_run.c, the index and summary cli/label_index.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "cluster.h"
#include "core/clock.h"
#include "label_run.h"
#include "worker/nn/eval.h"

const char hs_cmd_label_summary[] = "label finished games by the patent's method: shards for training";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse label ARCHIVE... --out DIR [--net FILE] [--backend B] [--visits V]\n"
            "                      [--every K] [--threads N] [--val-percent P] [--max-games N]\n"
            "                      [--size N] [--shard-samples N] [--seed S]\n\n"
            "Labels every finished game of the archives (SGF files, folders, .tar, .tar.gz,\n"
            ".zip) by the patent's three steps (docs/LABELS.md): the yose played out by the\n"
            "tree search, dead stones removed by the judge, every point marked. A game whose\n"
            "labelled count does not reproduce its RE is a miss, one that cannot be labelled\n"
            "a skip; both are listed in DIR/index.json with their reasons and give no\n"
            "samples. The samples of the other games (the position after every K-th move\n"
            "and the final one: 22 input planes, the ownership label, the move played, the\n"
            "winner and the labelled margin) go into DIR/<train|val>-<N>x<N>-<k>.hss,\n"
            "split by game. The same options give the same bytes for any --threads.\n\n"
            "  --out DIR           the folder for the shards and index.json (created)\n"
            "  --net FILE          a net (.bin.gz or .hsn) for the yose search and the dead\n"
            "                      stones (default: rollouts and the static judge)\n"
            "  --backend B         the net's backend: ref, cpu or cuda (default: the fastest)\n"
            "  --visits V          search visits per yose move (default 16)\n"
            "  --every K           a sample after every K-th move (default 5)\n"
            "  --threads N         games labelled at once (default: every core)\n"
            "  --val-percent P     the share of games, by game id, in the val split (default 10)\n"
            "  --max-games N       label the first N games only (default: all)\n"
            "  --size N            only games on N x N boards (default: every size up to 19)\n"
            "  --shard-samples N   samples per shard before the next one starts (default 20000)\n"
            "  --seed S            the searches' seed, unsigned 64-bit (default 1)\n");
}

static int s_option(hs__label_opts_t *o, const char *a, const char *v)
{
    const char *c = "label";
    if (!strcmp(a, "--out")) { o->out = v; return 0; }
    if (!strcmp(a, "--net")) { o->net = v; return 0; }
    if (!strcmp(a, "--backend")) { o->backend = v; return 0; }
    if (!strcmp(a, "--visits")) return hs__cli_int(c, a, v, 1, 1000000, &o->visits);
    if (!strcmp(a, "--every")) return hs__cli_int(c, a, v, 1, 10000, &o->every);
    if (!strcmp(a, "--threads")) return hs__cli_int(c, a, v, 1, 1024, &o->threads);
    if (!strcmp(a, "--val-percent")) return hs__cli_int(c, a, v, 0, 100, &o->val_percent);
    if (!strcmp(a, "--max-games")) return hs__cli_int(c, a, v, 1, INT_MAX, &o->max_games);
    if (!strcmp(a, "--size")) return hs__cli_int(c, a, v, 2, HS_NN_MAX_SIZE, &o->size);
    if (!strcmp(a, "--shard-samples"))
        return hs__cli_int(c, a, v, 1, INT_MAX, &o->shard_samples);
    if (!strcmp(a, "--seed")) return hs__cli_u64(c, a, v, &o->seed);
    fprintf(stderr, "hyeongse label: unknown option %s\n", a);
    return -1;
}

/* 0 to go on, 1 after --help, -1 after a usage error (printed). */
static int s_parse(int argc, char **argv, hs__label_opts_t *o, const char **paths)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (a[0] != '-' || !a[1]) {
            paths[o->npaths++] = a;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "hyeongse label: %s needs a value (or is unknown)\n", a);
            return -1;
        }
        if (s_option(o, a, argv[++i]))
            return -1;
    }
    if (!o->npaths) {
        fprintf(stderr, "hyeongse label: name at least one ARCHIVE\n");
        return -1;
    }
    if (!o->out) {
        fprintf(stderr, "hyeongse label: --out DIR is required\n");
        return -1;
    }
    if (o->backend && !o->net) {
        fprintf(stderr, "hyeongse label: --backend is for a net: give --net FILE too\n");
        return -1;
    }
    hs_nn_backend_kind_t kind;
    hs_error_t err;
    if (o->backend && hs_nn_backend_parse(o->backend, &kind, &err)) {
        fprintf(stderr, "hyeongse label: --backend: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Creates DIR (*made: whether this call did) and checks that files can be
 * made in it. 0 or 1 (printed). */
static int s_out_dir(const char *dir, bool *made)
{
    *made = mkdir(dir, 0777) == 0;
    if (!*made && errno != EEXIST) {
        fprintf(stderr, "hyeongse label: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "hyeongse label: %s is not a folder this user can write in\n", dir);
        return 1;
    }
    return 0;
}

/* Loads the net and checks that the backend can run it (one evaluator made
 * and freed here, so that a bad net or backend fails before any labelling). */
static int s_load_net(const hs__label_opts_t *o, hs_nn_model_t **model, hs_error_t *err)
{
    int rc = hs_nn_model_load(o->net, model, err);
    hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default(), .max_batch = 1, .threads = 1 };
    if (!rc && o->backend)
        rc = hs_nn_backend_parse(o->backend, &bc.kind, err);
    hs_nn_evaluator_t *ev = NULL;
    if (!rc)
        rc = hs_nn_evaluator_create(*model, &bc, &ev, err);
    hs_nn_evaluator_free(&ev);
    return rc;
}

static int s_run(const hs__label_opts_t *o)
{
    hs__label_run_t run = { .o = o, .t0 = hs_clock_now() };
    hs_nn_model_t *model = NULL;
    hs_error_t err;
    hs_error_clear(&err);
    int rc = o->net ? s_load_net(o, &model, &err) : 0;
    if (rc)
        fprintf(stderr, "hyeongse label: net %s: %s\n", o->net, err.msg);
    run.model = model;
    if (!rc && (rc = hs__label_read(&run, &err)) != 0)
        fprintf(stderr, "hyeongse label: %s\n", err.msg);
    if (!rc) {
        fprintf(stderr, "label: %d games to label (%.1f s to read), %d threads, %s, %d visits\n",
                run.n, hs_clock_now() - run.t0, o->threads, o->net ? o->net : "rollouts",
                o->visits);
        rc = hs__label_all(&run, stderr, &err);
        if (rc)
            fprintf(stderr, "hyeongse label: %s\n", err.msg);
    }
    run.seconds = hs_clock_now() - run.t0;
    if (!rc && (rc = hs__label_write_index(&run, &err)) != 0)
        fprintf(stderr, "hyeongse label: %s\n", err.msg);
    if (!rc)
        hs__label_print_summary(&run, stdout);
    hs__label_run_fini(&run);
    hs_nn_model_free(&model);   /* after every evaluator that borrowed it */
    return rc ? 1 : 0;
}

int hs_cmd_label(int argc, char **argv)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    hs__label_opts_t o = {
        .visits = 16, .every = 5, .threads = cores > 0 ? (int)(cores < 1024 ? cores : 1024) : 1,
        .val_percent = 10, .shard_samples = 20000, .seed = 1,
    };
    const char **paths = calloc((size_t)(argc > 0 ? argc : 1), sizeof *paths);
    if (!paths) {
        fprintf(stderr, "hyeongse label: out of memory\n");
        return 1;
    }
    o.paths = paths;
    int rc = s_parse(argc, argv, &o, paths);
    if (rc) {
        s_usage(rc > 0 ? stdout : stderr);
        free(paths);
        return rc > 0 ? 0 : 2;
    }
    /* A path that is not there is a mistyped command line, as for analyze:
     * refused before the output folder is made. */
    if (hs__cli_check_paths("label", (char *const *)paths, o.npaths)) {
        free(paths);
        return 2;
    }
    bool made = false;
    rc = s_out_dir(o.out, &made) ? 1 : s_run(&o);
    /* A run that failed before it wrote anything (a net that does not load)
     * leaves no empty folder behind: rmdir removes only an empty one. */
    if (rc && made)
        rmdir(o.out);
    free(paths);
    return rc;
}
