/*
 * bench/bench_alphabeta.c — the lecture-note claims measured: node counts of
 * plain minimax vs alpha-beta vs alpha-beta with move ordering (seeded random
 * trees, deeper than the test's), the reader's nodes with and without ordering
 * and table on a set of ladders, and the wall-clock time to solve 3x3 (and 4x4
 * within a time limit).
 *
 * usage: bench_alphabeta [--4x4-seconds S]   (default 60; 0 skips 4x4)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/board.h"
#include "core/rng.h"
#include "worker/solve.h"
#include "worker/stability.h"
#include "worker/tactics.h"

static double s_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t s_hash(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

typedef struct rtree {
    int branching, ply;
    uint64_t path[32];
    int value[32];
} rtree_t;

static int rt_gen(void *s, int *moves)
{
    rtree_t *t = s;
    for (int i = 0; i < t->branching; i++) moves[i] = i;
    return t->branching;
}
static void rt_play(void *s, int m)
{
    rtree_t *t = s;
    uint64_t h = s_hash(t->path[t->ply] * 31 + (uint64_t)m + 1);
    t->value[t->ply + 1] = t->value[t->ply] + (int)(h % 41) - 20;
    t->path[t->ply + 1] = h;
    t->ply++;
}
static void rt_undo(void *s, int m) { ((rtree_t *)s)->ply--; }
static int rt_eval(void *s) { rtree_t *t = s; return t->value[t->ply]; }
static bool rt_max(void *s) { return ((rtree_t *)s)->ply % 2 == 0; }

static void s_trees(int branching, int depth, int count)
{
    long nm = 0, nab = 0, nord = 0;
    double tm = 0, tab = 0, tord = 0;
    int mismatches = 0;
    for (int seed = 1; seed <= count; seed++) {
        rtree_t t = { .branching = branching };
        t.path[0] = s_hash((uint64_t)seed);
        hs_search_game_t g = { &t, rt_gen, rt_play, rt_undo, rt_eval, rt_max };
        double t0 = s_now();
        int a = hs_minimax(&g, depth, &nm);
        double t1 = s_now();
        int b = hs_alphabeta(&g, depth, -HS_SEARCH_INF, HS_SEARCH_INF, false, &nab);
        double t2 = s_now();
        int c = hs_alphabeta(&g, depth, -HS_SEARCH_INF, HS_SEARCH_INF, true, &nord);
        double t3 = s_now();
        mismatches += a != b || a != c;
        tm += t1 - t0; tab += t2 - t1; tord += t3 - t2;
    }
    printf("random trees b=%d d=%d (%d seeds): minimax %ld nodes %.3fs | alpha-beta %ld nodes %.3fs "
           "(%.1fx fewer nodes) | +ordering %ld nodes %.3fs (%.1fx fewer than unordered, %.1fx than "
           "minimax); b^(d/2) = %.0f per tree; value mismatches %d\n",
           branching, depth, count, nm, tm, nab, tab, (double)nm / (double)nab, nord, tord,
           (double)nab / (double)nord, (double)nm / (double)nord,
           __builtin_pow((double)branching, depth / 2.0), mismatches);
}

/* Ladder shapes (each: size, rows top first, target). */
static const struct { int size; const char *rows; const char *target; } s_ladders[] = {
    { 9, "........."
         "........."
         "........."
         "........."
         "........."
         "..O......"
         ".OX......"
         "..OO....."
         ".........", "C3" },
    { 9, "........."
         "........."
         "........."
         "........."
         "....X...."
         "..O......"
         ".OX......"
         "..OO....."
         ".........", "C3" },
    { 7, "......."
         "......."
         "......."
         "..O...."
         ".OX..X."
         "..OO.O."
         ".......", "C3" },
    { 13, "............."
          "............."
          "............."
          "............."
          "............."
          "............."
          "............."
          "............."
          "............."
          "...O........."
          "..OX........."
          "...OO........"
          ".............", "D3" },
};

static void s_reader(void)
{
    hs_reader_config_t cfg;
    hs_reader_config_default(&cfg);
    cfg.node_budget = 5000000;
    hs_reader_t *on = hs_reader_new(&cfg);
    cfg.use_ordering = false;
    cfg.use_tt = false;
    hs_reader_t *off = hs_reader_new(&cfg);
    cfg.use_ordering = true;
    cfg.use_tt = true;
    cfg.use_ladder = false;
    hs_reader_t *noladder = hs_reader_new(&cfg);
    if (!on || !off || !noladder) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    long n_on = 0, n_off = 0, n_nl = 0;
    double t_on = 0, t_off = 0, t_nl = 0;
    for (size_t i = 0; i < sizeof s_ladders / sizeof s_ladders[0]; i++) {
        hs_board_t b;
        hs_board_init(&b, s_ladders[i].size);
        for (int y = 0; y < b.size; y++)
            for (int x = 0; x < b.size; x++) {
                char c = s_ladders[i].rows[y * b.size + x];
                if (c != '.')
                    hs_board_set_stone(&b, hs_board_point(&b, x, y), c == 'X' ? HS_BLACK : HS_WHITE);
            }
        hs_point_t t;
        hs_board_parse_point(&b, s_ladders[i].target, &t);
        hs_tactic_t r1, r2, r3;
        hs_reader_clear(on);
        double t0 = s_now();
        hs_reader_defend(on, &b, t, &r1, NULL);
        double t1 = s_now();
        hs_reader_defend(off, &b, t, &r2, NULL);
        double t2 = s_now();
        hs_reader_clear(noladder);
        hs_reader_defend(noladder, &b, t, &r3, NULL);
        double t3 = s_now();
        printf("  ladder %zu (%dx%d): result %d/%d/%d, nodes ordered+TT %ld, plain %ld, no ladder path %ld\n",
               i, b.size, b.size, r1.result, r2.result, r3.result, r1.nodes, r2.nodes, r3.nodes);
        n_on += r1.nodes; n_off += r2.nodes; n_nl += r3.nodes;
        t_on += t1 - t0; t_off += t2 - t1; t_nl += t3 - t2;
    }
    printf("reader on ladders: ordering+TT+killers %ld nodes %.4fs | plain %ld nodes %.4fs (%.1fx nodes) "
           "| without the ladder path %ld nodes %.4fs (%.1fx nodes)\n",
           n_on, t_on, n_off, t_off, (double)n_off / (double)n_on, n_nl, t_nl,
           (double)n_nl / (double)n_on);
    hs_reader_destroy(&on);
    hs_reader_destroy(&off);
    hs_reader_destroy(&noladder);
}

/* hs_stability_compute on seeded random 19x19 positions (200 random moves),
 * with the reader at two budgets and without it. */
static void s_stability(void)
{
    static hs_stability_t st;
    hs_reader_t *r = hs_reader_new(NULL);
    if (!r) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    const int budgets[3] = { 3000, 1000, 0 };
    double ms[3];
    for (int k = 0; k < 3; k++) {
        double tot = 0;
        for (int seed = 1; seed <= 20; seed++) {
            hs_rng_t rng;
            hs_rng_seed(&rng, (uint64_t)seed);
            hs_board_t b;
            hs_board_init(&b, 19);
            for (int i = 0; i < 200; i++) {
                hs_point_t p = b.empty[hs_rng_below(&rng, (uint32_t)b.num_empty)];
                if (hs_board_legal(&b, b.to_move, p, 0) == HS_LEGAL && !hs_board_is_eye(&b, p, b.to_move))
                    hs_board_play(&b, b.to_move, p, 0, NULL);
                else
                    hs_board_play(&b, b.to_move, HS_PASS, 0, NULL);
            }
            hs_stability_config_t cfg;
            hs_stability_config_default(&cfg);
            cfg.reader_node_budget = budgets[k] ? budgets[k] : 1;
            hs_reader_clear(r);
            double t0 = s_now();
            hs_stability_compute(&b, &cfg, budgets[k] ? r : NULL, &st, NULL);
            tot += s_now() - t0;
        }
        ms[k] = tot / 20 * 1000;
    }
    printf("stability on 19x19 random positions (20 seeds): reader budget 3000 %.2f ms/position, "
           "1000 (default) %.2f ms, no reader %.3f ms (%.0fx faster than default)\n",
           ms[0], ms[1], ms[2], ms[1] / ms[2]);
    hs_reader_destroy(&r);
}

/* One solve; `plain` switches off the safe-area bounds, the history-independent
 * table entries, the history heuristic (the solver as it was before them). */
static long s_solve_run(int size, double limit, bool plain, int tt_bits)
{
    hs_solve_config_t cfg;
    hs_solve_config_default(&cfg);
    cfg.size = size;
    cfg.time_limit_s = limit;
    if (tt_bits) cfg.tt_bits = tt_bits;
    if (plain) cfg.use_bounds = cfg.use_indep = cfg.use_history = false;
    hs_solve_result_t r;
    hs_error_t err;
    hs_error_clear(&err);
    int rc = hs_solve(&cfg, &r, &err);
    if (r.solved)
        printf("solve %dx%d%s: V = %+d, %ld nodes (%ld cut by safe-area bounds), %.3f s, depth %d\n",
               size, size, plain ? " (plain)" : "", r.value, r.nodes, r.bound_cuts, r.seconds, r.depth);
    else
        printf("solve %dx%d%s: not solved in %.0f s (%s): %d <= V <= %d, %ld nodes, depth %d\n", size,
               size, plain ? " (plain)" : "", limit, rc ? err.msg : "", r.lower, r.upper, r.nodes, r.depth);
    return r.nodes;
}

static void s_solve(int size, double limit)
{
    if (size == 3) {
        /* The 3x3 solve with and without the small-board methods, same run. */
        long plain = s_solve_run(3, 0, true, 0);
        long full = s_solve_run(3, 0, false, 0);
        printf("solve 3x3: plain / bounds+independent entries+history: %ld / %ld nodes (%.1fx fewer)\n",
               plain, full, (double)plain / (double)(full ? full : 1));
        return;
    }
    s_solve_run(size, limit, false, 24);
}

int main(int argc, char **argv)
{
    double limit4 = 60;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--4x4-seconds") && i + 1 < argc)
            limit4 = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--4x4-seconds S]\n", argv[0]);
            return 2;
        }
    }
    s_trees(4, 8, 20);
    s_trees(8, 6, 10);
    s_reader();
    s_stability();
    s_solve(3, 0);
    if (limit4 > 0)
        s_solve(4, limit4);
    return 0;
}
