/*
 * cli/cmd_solve.c — `hyeongse solve`: proves the value of a tiny empty board
 * (area scoring, komi 0, positional superko) with worker/solve.h and prints
 * the value, the first move, nodes and time.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "worker/solve.h"

const char hs_cmd_solve_summary[] = "prove the value of a tiny board (3x3, 4x4) by alpha-beta";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse solve [--size N] [--time-limit SECONDS] [--max-nodes N]\n"
            "                      [--max-depth PLIES] [--tt-bits B]\n"
            "  (--max-depth 1..250, default 80; --tt-bits 10..26, default 22: a table\n"
            "  of 2^B entries; --time-limit and --max-nodes 0 = none, the default)\n\n"
            "Solves the empty NxN board (N = 2..5, default 3) exactly: area scoring,\n"
            "komi 0, no suicide, positional superko, two passes end the game.\n"
            "Alpha-beta with a transposition table, iterative deepening and static\n"
            "bounds from Benson's unconditionally safe areas proves bounds on Black's\n"
            "margin V; on a limit it prints the bounds proven so far\n"
            "and exits 3. Known: 3x3 V = 9 (B+9), 4x4 V = 2 (B+2).\n");
}

/* Option a with value v into cfg: 0; -1 for a bad value (said); -2 for an
 * unknown option (said; the caller adds the usage). */
/* One line on a terminal, rewritten in place. */
static void s_progress(void *ctx, int lower, int upper, long nodes, double seconds)
{
    fprintf((FILE *)ctx, "\rsolve: %d <= V <= %d proven, %ld nodes, %.0f s\033[K", lower,
            upper, nodes, seconds);
    fflush((FILE *)ctx);
}

static int s_option(const char *a, const char *v, hs_solve_config_t *cfg)
{
    if (!strcmp(a, "--size"))
        return hs__cli_int("solve", a, v, 2, 5, &cfg->size);
    if (!strcmp(a, "--time-limit"))
        return hs__cli_double("solve", a, v, 0, 1e9, &cfg->time_limit_s);
    if (!strcmp(a, "--max-nodes"))
        return hs__cli_long("solve", a, v, 0, LONG_MAX, &cfg->max_nodes);
    if (!strcmp(a, "--max-depth"))
        return hs__cli_int("solve", a, v, 1, 250, &cfg->max_depth);
    if (!strcmp(a, "--tt-bits"))
        return hs__cli_int("solve", a, v, 10, 26, &cfg->tt_bits);
    fprintf(stderr, "hyeongse solve: unknown option %s\n", a);
    return -2;
}

int hs_cmd_solve(int argc, char **argv)
{
    hs_solve_config_t cfg;
    hs_solve_config_default(&cfg);
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            s_usage(stdout);
            return 0;
        }
        if (!v) {
            fprintf(stderr, "hyeongse solve: %s needs a value (or is unknown)\n", a);
            s_usage(stderr);
            return 2;
        }
        int rc = s_option(a, v, &cfg);
        if (rc == -2)
            s_usage(stderr);
        if (rc < 0)
            return 2;
    }
    hs_solve_result_t r;
    hs_error_t err;
    hs_error_clear(&err);
    bool tty = isatty(fileno(stderr));
    if (tty) {   /* a 4x4 solve takes minutes: show that it works */
        cfg.progress = s_progress;
        cfg.progress_ctx = stderr;
    }
    int rc = hs_solve(&cfg, &r, &err);
    if (tty)
        fputs("\r\033[K", stderr);
    if (rc == HS_EINVAL || rc == HS_ENOMEM) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    char mv[8] = "none";
    if (r.best != HS_NO_POINT) {
        hs_board_t b;
        hs_board_init(&b, cfg.size);
        hs_board_point_name(&b, r.best, mv);
    }
    if (r.solved)
        printf("size %d: Black %s %d (area, komi 0, positional superko); first move %s\n",
               cfg.size, r.value >= 0 ? "wins by" : "loses by", abs(r.value), mv);
    else
        printf("size %d: unsolved (%s); proven %d <= V <= %d\n", cfg.size, err.msg, r.lower, r.upper);
    printf("nodes %ld (%ld decided by safe-area bounds)  time %.3f s  depth %d\n", r.nodes,
           r.bound_cuts, r.seconds, r.depth);
    return r.solved ? 0 : 3;
}
