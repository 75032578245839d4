/*
 * cli/cmd_playout.c — `hyeongse playout`: writes random-playout games as SGF
 * files, a small example archive for users who have none (and test input).
 *
 * Each game is a light random playout (core/playout.h) from the empty board to
 * two passes (or 3 * N * N moves), recorded move by move and scored with the
 * Tromp-Taylor count and the given komi under Chinese-style area rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "core/board.h"
#include "core/playout.h"
#include "core/rng.h"
#include "core/score.h"

const char hs_cmd_playout_summary[] = "write random-playout games as SGF files (example archives)";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse playout --size N --games K --seed S --out DIR [--komi K]\n\n"
            "Plays K light random playouts (uniform legal moves that never fill their own\n"
            "eye) on an N x N board and writes them to DIR/playout-NNNNNN.sgf with\n"
            "RU[chinese] and RE from the Tromp-Taylor count with komi. The same seed\n"
            "gives the same games.\n\n"
            "  --size N    board size, 2..25 (default 9)\n"
            "  --games K   number of games, >= 1 (default 10)\n"
            "  --seed S    random seed, unsigned 64-bit (default 1)\n"
            "  --out DIR   output folder, created if missing (required)\n"
            "  --komi K    komi, -1000..1000 (default 7.5)\n"
            "  --help      this text\n");
}

/* Writes one game; moves[] as board points (HS_PASS for passes), Black first. */
static int s_write_sgf(const char *path, const hs_board_t *b, const hs_point_t *moves, int n,
                       double komi, double margin, uint64_t seed, long index)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    char re[32];
    if (margin > 0)
        snprintf(re, sizeof re, "B+%g", margin);
    else if (margin < 0)
        snprintf(re, sizeof re, "W+%g", -margin);
    else
        snprintf(re, sizeof re, "0");
    fprintf(f,
            "(;FF[4]GM[1]CA[UTF-8]SZ[%d]KM[%g]RU[chinese]PB[hyeongse random playout]"
            "PW[hyeongse random playout]AP[hyeongse:0.1]RE[%s]GN[random playout %ld seed %llu]\n",
            b->size, komi, re, index, (unsigned long long)seed);
    for (int i = 0; i < n; i++) {
        char c = (i % 2 == 0) ? 'B' : 'W';
        if (moves[i] == HS_PASS)
            fprintf(f, ";%c[]", c);
        else
            fprintf(f, ";%c[%c%c]", c, 'a' + hs_board_x(b, moves[i]), 'a' + hs_board_y(b, moves[i]));
        if (i % 12 == 11)
            fputc('\n', f);
    }
    fputs(")\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

typedef struct s_opts {
    long size, games;
    uint64_t seed;
    double komi;
    const char *out;
} s_opts_t;

/* The command line into *o: 0; 1 after --help; 2 with the error said. */
static int s_args(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){ .size = 9, .games = 10, .seed = 1, .komi = 7.5 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            s_usage(stdout);
            return 1;
        }
        if (!v) {
            fprintf(stderr, "hyeongse playout: %s needs a value (or unknown option)\n", a);
            s_usage(stderr);
            return 2;
        }
        i++;
        int rc = 0;
        if (!strcmp(a, "--size"))
            rc = hs__cli_long("playout", a, v, HS_BOARD_MIN_SIZE, HS_BOARD_MAX_SIZE, &o->size);
        else if (!strcmp(a, "--games"))
            rc = hs__cli_long("playout", a, v, 1, 100000000, &o->games);
        else if (!strcmp(a, "--seed"))
            rc = hs__cli_u64("playout", a, v, &o->seed);
        else if (!strcmp(a, "--komi"))
            rc = hs__cli_komi("playout", v, &o->komi);
        else if (!strcmp(a, "--out"))
            o->out = v;
        else {
            fprintf(stderr, "hyeongse playout: unknown option %s\n", a);
            s_usage(stderr);
            return 2;
        }
        if (rc)
            return 2;
    }
    if (!o->out) {
        fprintf(stderr, "hyeongse playout: --out DIR is required\n");
        s_usage(stderr);
        return 2;
    }
    return 0;
}

int hs_cmd_playout(int argc, char **argv)
{
    s_opts_t o;
    int arc = s_args(argc, argv, &o);
    if (arc)
        return arc == 1 ? 0 : 2;
    long size = o.size, games = o.games;
    uint64_t seed = o.seed;
    double komi = o.komi;
    const char *out = o.out;
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "hyeongse playout: cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    int max_moves = 3 * (int)size * (int)size;
    hs_point_t *moves = malloc((size_t)(max_moves + 2) * sizeof *moves);
    if (!moves) {
        fprintf(stderr, "hyeongse playout: out of memory\n");
        return 1;
    }
    hs_rng_t rng;
    hs_rng_seed(&rng, seed);
    int rc = 0;
    double sum = 0;
    long black_wins = 0;
    for (long g = 0; g < games; g++) {
        hs_board_t b;
        hs_board_init(&b, (int)size);
        int n = 0;
        while (n < max_moves && b.passes < 2) {
            hs_point_t p = hs_playout_pick(&b, &rng);
            hs_board_play(&b, b.to_move, p, 0, NULL);
            moves[n++] = p;
        }
        double margin = hs_score_tromp_taylor(&b, komi);
        sum += margin;
        black_wins += margin > 0;
        char path[4096];
        snprintf(path, sizeof path, "%s/playout-%06ld.sgf", out, g + 1);
        if (s_write_sgf(path, &b, moves, n, komi, margin, seed, g + 1) != 0) {
            fprintf(stderr, "hyeongse playout: cannot write %s: %s\n", path, strerror(errno));
            rc = 1;
            break;
        }
    }
    free(moves);
    if (rc == 0)
        printf("wrote %ld games (%ldx%ld, komi %g) to %s; black won %ld, mean margin %+.2f\n", games,
               size, size, komi, out, black_wins, sum / (double)games);
    return rc;
}
