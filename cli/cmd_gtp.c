/*
 * cli/cmd_gtp.c — `hyeongse gtp`: loads a net, creates its evaluator on the
 * chosen backend and speaks GTP on stdin/stdout (worker/gtp.h). Everything
 * that can fail at start (the net file, the backend) fails here, before the
 * first command, with a message and exit status 1, so a controller that
 * starts us sees a dead engine and a reason on stderr instead of answers
 * from no net.
 */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"
#include "worker/gtp.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"

const char hs_cmd_gtp_summary[] = "speak GTP with a KataGo net (kata-raw-nn, loadsgf, play, ...)";

/* Positions per backend run: `kata-raw-nn all` is 8 symmetries of one position. */
#define S_BATCH 8

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse gtp --net FILE [--rules R] [--backend ref|cpu|cuda]\n\n"
            "Speaks GTP (version 2) on stdin/stdout with a KataGo net (.bin.gz).\n"
            "Commands: protocol_version, name, version, known_command, list_commands,\n"
            "quit, boardsize, clear_board, komi, play, loadsgf FILE [MOVE],\n"
            "kata-set-rules, kata-get-rules, showboard, kata-raw-nn SYMMETRY|all|mean.\n\n"
            "  --net FILE      the net (required)\n"
            "  --rules R       rules at start: japanese (default), korean, chinese, aga,\n"
            "                  new-zealand, tromp-taylor; komi starts as their default\n"
            "  --backend B     ref, cpu or cuda (default: cuda with a GPU, else cpu where\n"
            "                  built, else ref)\n");
}

typedef struct s_opts {
    const char *net, *rules, *backend;
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
                          : !strcmp(a, "--backend") ? &o->backend : NULL;
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
    if (!o->net) {
        fprintf(stderr, "hyeongse gtp: --net FILE is required\n");
        return -1;
    }
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
    if ((rc = s_choices(&o, &cfg, &kind)))
        return rc;
    hs_error_t err;
    hs_error_clear(&err);
    hs_nn_model_t *m = NULL;
    hs_nn_evaluator_t *e = NULL;
    hs_gtp_t *g = NULL;
    hs_nn_backend_config_t bc = { .kind = kind, .max_batch = S_BATCH };
    if (hs_nn_model_load(o.net, &m, &err) || hs_nn_evaluator_create(m, &bc, &e, &err)) {
        fprintf(stderr, "hyeongse gtp: %s\n", err.msg);
        hs_nn_model_free(&m);
        return 1;
    }
    cfg.model = m;
    cfg.eval = e;
    rc = hs_gtp_create(&cfg, &g, &err);
    if (!rc) {
        fprintf(stderr, "hyeongse gtp: net %s (version %d), backend %s, rules %s: ready\n",
                m->name, m->version, hs_nn_backend_kind_name(kind), hs_rules_get(cfg.rules).name);
        rc = hs_gtp_run(g, stdin, stdout, &err);
    }
    if (rc)
        fprintf(stderr, "hyeongse gtp: %s\n", err.msg);
    hs_gtp_free(&g);
    hs_nn_evaluator_free(&e);
    hs_nn_model_free(&m);
    return rc ? 1 : 0;
}
