/*
 * tests/test_tactics.c — the tactical reader against the diagrams in
 * the .t files of tests/data/tactics (format in tests/data/tactics/README.md), and the
 * lecture-note properties of the generic search:
 *   - alpha-beta returns the plain minimax value at the same depth, on seeded
 *     random game trees and on seeded random 4x4 Go positions;
 *   - alpha-beta visits no more nodes than minimax, and ordering cuts more;
 *   - the reader's proven answers do not change with ordering or the table off.
 * The node-count ratios are printed (they are measurements, not assertions,
 * except the subset property of alpha-beta).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/rng.h"
#include "diagram.h"
#include "test.h"
#include "worker/solve.h"
#include "worker/stability.h"
#include "worker/tactics.h"

/* ---- .t case files (parsed by diagram.h) ---- */

typedef struct tctx {
    hs_reader_t *r, *plain;
    int case_index;   /* the case `budget` belongs to */
    long budget;      /* the case's `budget` line, 0 = default */
} tctx_t;

static const char *s_result_name(hs_tactic_result_t r)
{
    return r == HS_TACTIC_CAPTURED ? "captured" : r == HS_TACTIC_SAVED ? "saved" : "unknown";
}

static long s_total_nodes[2];  /* reader nodes over all queries: [0] ordered, [1] not */
static int s_queries;

/* Runs one query line against the case; returns false on a malformed line. */
static bool s_query(const char *file, const hs_diagram_t *c, char *line, void *vctx)
{
    tctx_t *ctx = vctx;
    hs_reader_t *r = ctx->r, *plain = ctx->plain;
    if (ctx->case_index != c->index) {
        ctx->case_index = c->index;
        ctx->budget = 0;
    }
    char *tok[8];
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t && n < 8; t = strtok(NULL, " \t\r\n"))
        tok[n++] = t;
    if (n == 0)
        return true;
    if (!strcmp(tok[0], "budget") && n == 2) {
        ctx->budget = atol(tok[1]);
        return true;
    }
    hs_board_t b;
    if (n < 3 || !hs_diagram_board(c, &b))
        return false;
    hs_point_t target;
    if (hs_board_parse_point(&b, tok[1], &target) != 0 || !hs_board_on_board(&b, target) ||
        b.color[target] == HS_EMPTY) {
        fprintf(stderr, "%s: %s: %s is not a stone\n", file, c->name, tok[1]);
        return false;
    }
    char buf[8];
    if (!strcmp(tok[0], "ladder")) {
        bool expect = !strcmp(tok[2], "yes");
        bool got = hs_ladder_captures(&b, target, hs_board_libs(&b, target) != 1, NULL, 100000);
        if (got != expect)
            fprintf(stderr, "%s: %s: ladder %s: got %s\n", file, c->name, tok[1], got ? "yes" : "no");
        HS_CHECK(got == expect);
        return true;
    }
    bool attack = !strcmp(tok[0], "attack");
    if (!attack && strcmp(tok[0], "defend"))
        return false;
    hs_tactic_result_t expect = !strcmp(tok[2], "captured") ? HS_TACTIC_CAPTURED
                              : !strcmp(tok[2], "saved") ? HS_TACTIC_SAVED : HS_TACTIC_UNKNOWN;
    long old = hs_reader_set_node_budget(r, ctx->budget > 0 ? ctx->budget : 200000);
    hs_tactic_t t;
    int rc = attack ? hs_reader_attack(r, &b, target, &t, NULL) : hs_reader_defend(r, &b, target, &t, NULL);
    hs_reader_set_node_budget(r, old);
    HS_CHECK_INT(rc, 0);
    bool ok = t.result == expect;
    if (ok && n >= 4) {
        /* Accepted moves, "|"-separated. */
        ok = false;
        hs_board_point_name(&b, t.move, buf);
        char alts[256];
        snprintf(alts, sizeof alts, "%s", tok[3]);
        for (char *save = NULL, *a = strtok_r(alts, "|", &save); a; a = strtok_r(NULL, "|", &save))
            if (!strcasecmp(a, buf))
                ok = true;
    }
    hs_board_point_name(&b, t.move, buf);
    printf("  %-58.58s %s %s: %s %s (%ld nodes, depth %d)\n", c->name, tok[0], tok[1],
           s_result_name(t.result), t.move == HS_NO_POINT ? "-" : buf, t.nodes, t.depth);
    if (!ok)
        fprintf(stderr, "%s: %s: %s %s: expected %s %s, got %s %s\n", file, c->name, tok[0], tok[1],
                tok[2], n >= 4 ? tok[3] : "", s_result_name(t.result), buf);
    HS_CHECK(ok);

    /* The same query without ordering / table: same proven answer. */
    hs_reader_clear(plain);
    hs_tactic_t u;
    old = hs_reader_set_node_budget(plain, 2000000);
    attack ? hs_reader_attack(plain, &b, target, &u, NULL) : hs_reader_defend(plain, &b, target, &u, NULL);
    hs_reader_set_node_budget(plain, old);
    if (t.result != HS_TACTIC_UNKNOWN && u.result != HS_TACTIC_UNKNOWN)
        HS_CHECK_INT(u.result, t.result);
    /* Fresh-table node counts for the ratio. */
    hs_reader_clear(r);
    old = hs_reader_set_node_budget(r, 2000000);
    attack ? hs_reader_attack(r, &b, target, &t, NULL) : hs_reader_defend(r, &b, target, &t, NULL);
    hs_reader_set_node_budget(r, old);
    s_total_nodes[0] += t.nodes;
    s_total_nodes[1] += u.nodes;
    s_queries++;
    return true;
}

/* ---- Generic search on seeded random trees ---- */

typedef struct rtree {
    uint64_t seed;
    int branching;
    int ply;
    uint64_t path[16];
    int value[16];
} rtree_t;

static uint64_t s_hash(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static int rt_gen(void *s, int *moves)
{
    rtree_t *t = s;
    int n = t->branching - (int)(s_hash(t->path[t->ply] ^ 77) % 2);
    for (int i = 0; i < n; i++) moves[i] = i;
    return n;
}
static void rt_play(void *s, int m)
{
    rtree_t *t = s;
    uint64_t h = s_hash(t->path[t->ply] * 31 + (uint64_t)m + 1);
    /* Incremental random tree: a node's value is its parent's plus a random
     * step, so shallow values predict deep ones (what makes ordering pay). */
    t->value[t->ply + 1] = t->value[t->ply] + (int)(h % 41) - 20;
    t->path[t->ply + 1] = h;
    t->ply++;
}
static void rt_undo(void *s, int m) { ((rtree_t *)s)->ply--; }
static int rt_eval(void *s) { rtree_t *t = s; return t->value[t->ply]; }
static bool rt_max(void *s) { return ((rtree_t *)s)->ply % 2 == 0; }

static void s_random_trees(void)
{
    long nm = 0, nab = 0, nord = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        rtree_t t = { .seed = seed, .branching = 3 + (int)(seed % 4) };
        t.path[0] = s_hash(seed);
        hs_search_game_t g = { &t, rt_gen, rt_play, rt_undo, rt_eval, rt_max };
        int depth = 2 + (int)(seed % 5);
        long a = 0, b = 0, c = 0;
        int vm = hs_minimax(&g, depth, &a);
        int vab = hs_alphabeta(&g, depth, -HS_SEARCH_INF, HS_SEARCH_INF, false, &b);
        int vo = hs_alphabeta(&g, depth, -HS_SEARCH_INF, HS_SEARCH_INF, true, &c);
        if (vm != vab || vm != vo)
            fprintf(stderr, "random tree seed %llu depth %d: minimax %d, alpha-beta %d, ordered %d\n",
                    (unsigned long long)seed, depth, vm, vab, vo);
        HS_CHECK(vm == vab && vm == vo);
        HS_CHECK(b <= a && c <= a);
        nm += a; nab += b; nord += c;
    }
    printf("random trees (200, seeds 1..200): nodes minimax %ld, alpha-beta %ld (%.2fx fewer), "
           "alpha-beta+ordering %ld (%.2fx fewer than unordered)\n",
           nm, nab, (double)nm / (double)nab, nord, (double)nab / (double)nord);
    HS_CHECK(nab < nm);
}

/* ---- Generic search on seeded random 4x4 Go positions ---- */

typedef struct gostate {
    hs_board_t stack[8];
    int ply;
    hs_color_t max_color;
} gostate_t;

static int go_gen(void *s, int *moves)
{
    gostate_t *g = s;
    const hs_board_t *b = &g->stack[g->ply];
    int n = 0;
    if (b->passes >= 2)
        return 0;
    for (int i = 0; i < b->num_empty && n < HS_SEARCH_MAX_MOVES - 1; i++)
        if (hs_board_legal(b, b->to_move, b->empty[i], 0) == HS_LEGAL)
            moves[n++] = b->empty[i];
    moves[n++] = HS_PASS;
    return n;
}
static void go_play(void *s, int m)
{
    gostate_t *g = s;
    g->stack[g->ply + 1] = g->stack[g->ply];
    hs_board_t *b = &g->stack[g->ply + 1];
    hs_board_play(b, b->to_move, (hs_point_t)m, 0, NULL);
    g->ply++;
}
static void go_undo(void *s, int m) { ((gostate_t *)s)->ply--; }
static int go_eval(void *s)
{
    gostate_t *g = s;
    int v = hs_solve_area_score(&g->stack[g->ply]);
    return g->max_color == HS_BLACK ? v : -v;
}
static bool go_max(void *s) { gostate_t *g = s; return g->stack[g->ply].to_move == g->max_color; }

static void s_random_go(void)
{
    static gostate_t st;
    long nm = 0, nab = 0, nord = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        hs_rng_t rng;
        hs_rng_seed(&rng, seed);
        hs_board_t *b = &st.stack[0];
        hs_board_init(b, 4);
        int stones = 3 + (int)hs_rng_below(&rng, 6);
        for (int i = 0; i < stones && b->num_empty > 0; i++) {
            hs_point_t p = b->empty[hs_rng_below(&rng, (uint32_t)b->num_empty)];
            if (hs_board_legal(b, b->to_move, p, 0) == HS_LEGAL)
                hs_board_play(b, b->to_move, p, 0, NULL);
        }
        st.ply = 0;
        st.max_color = b->to_move;
        hs_search_game_t g = { &st, go_gen, go_play, go_undo, go_eval, go_max };
        long a = 0, c = 0, d = 0;
        int vm = hs_minimax(&g, 3, &a);
        int vab = hs_alphabeta(&g, 3, -HS_SEARCH_INF, HS_SEARCH_INF, false, &c);
        int vo = hs_alphabeta(&g, 3, -HS_SEARCH_INF, HS_SEARCH_INF, true, &d);
        if (vm != vab || vm != vo)
            fprintf(stderr, "4x4 position seed %llu: minimax %d, alpha-beta %d, ordered %d\n",
                    (unsigned long long)seed, vm, vab, vo);
        HS_CHECK(vm == vab && vm == vo);
        HS_CHECK(c <= a && d <= a);
        nm += a; nab += c; nord += d;
    }
    printf("random 4x4 positions (40, seeds 1..40, depth 3): nodes minimax %ld, alpha-beta %ld "
           "(%.2fx fewer), alpha-beta+ordering %ld (%.2fx fewer than unordered)\n",
           nm, nab, (double)nm / (double)nab, nord, (double)nab / (double)nord);
}

/* What the solver's progress calls said: the last bounds, and whether any
 * call widened them. */
typedef struct s_solve_seen {
    int calls, lower, upper;
    bool widened;
} s_solve_seen_t;

static void s_solve_progress(void *ctx, int lower, int upper, long nodes, double seconds)
{
    s_solve_seen_t *s = ctx;
    (void)nodes;
    (void)seconds;
    s->widened |= s->calls > 0 && (lower < s->lower || upper > s->upper);
    s->calls++;
    s->lower = lower;
    s->upper = upper;
}

/* The small-board solver: area scores and the known 3x3 result (B+9, centre). */
static void s_solver(void)
{
    hs_board_t b;
    hs_board_init(&b, 3);
    HS_CHECK_INT(hs_solve_area_score(&b), 0);
    hs_board_play(&b, HS_BLACK, hs_board_point(&b, 1, 1), 0, NULL);
    HS_CHECK_INT(hs_solve_area_score(&b), 9);
    hs_board_play(&b, HS_WHITE, hs_board_point(&b, 0, 0), 0, NULL);
    HS_CHECK_INT(hs_solve_area_score(&b), 0);  /* 1 - 1, the 7 empty points touch both */

    hs_solve_config_t cfg;
    hs_solve_config_default(&cfg);
    hs_solve_result_t r;
    cfg.size = 7;
    HS_CHECK_INT(hs_solve(&cfg, &r, NULL), HS_EINVAL);
    cfg.size = 3;
    cfg.max_nodes = 1000;  /* far too few: bounds only, reported as a limit */
    HS_CHECK_INT(hs_solve(&cfg, &r, NULL), HS_ELIMIT);
    HS_CHECK(!r.solved && r.lower <= 9 && r.upper >= 9);
    HS_CHECK_INT(r.nodes, 1000);   /* the node limit is exact */
    cfg.max_nodes = 0;
    s_solve_seen_t seen = { .lower = -99, .upper = 99 };
    cfg.progress = s_solve_progress;
    cfg.progress_ctx = &seen;
    HS_CHECK_INT(hs_solve(&cfg, &r, NULL), 0);
    HS_CHECK(r.solved);
    HS_CHECK_INT(r.value, 9);
    /* a call a bound proven: the last one is the value */
    HS_CHECK(seen.calls >= 2 && !seen.widened);
    HS_CHECK_INT(seen.lower, 9);
    HS_CHECK_INT(seen.upper, 9);
    HS_CHECK_INT(r.best, hs_board_point(&b, 1, 1));
    printf("3x3 solved: V = %+d, %ld nodes, %.2f s, depth %d\n", r.value, r.nodes, r.seconds, r.depth);
}

/* The solver's bitboard safe area against worker/stability.c's Benson on seeded
 * random 3x3..5x5 positions: the same own stones and the same empty points
 * (the solver also counts opponent stones inside a safe region: not compared). */
static void s_safe_area(void)
{
    hs_rng_t rng;
    hs_rng_seed(&rng, 11);
    int positions = 0, nonzero = 0, differ = 0;
    for (int it = 0; it < 6000; it++) {
        int n = 3 + it % 3;
        hs_board_t b;
        hs_board_init(&b, n);
        int moves = (int)hs_rng_below(&rng, (uint32_t)(3 * n * n));
        for (int k = 0; k < moves; k++) {
            hs_point_t p = hs_board_point(&b, (int)hs_rng_below(&rng, (uint32_t)n),
                                          (int)hs_rng_below(&rng, (uint32_t)n));
            if (hs_board_legal(&b, b.to_move, p, 0) != HS_LEGAL)
                p = HS_PASS;
            hs_board_play(&b, b.to_move, p, 0, NULL);
        }
        for (int col = HS_BLACK; col <= HS_WHITE; col++) {
            uint8_t a[HS_BOARD_MAX_POINTS] = { 0 }, safe[HS_BOARD_MAX_POINTS] = { 0 };
            hs_stability_benson(&b, (hs_color_t)col, a);
            nonzero += hs_solve_safe_area(&b, (hs_color_t)col, safe) > 0;
            positions++;
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    hs_point_t p = hs_board_point(&b, x, y);
                    if ((b.color[p] == col || b.color[p] == HS_EMPTY) && (a[p] != 0) != (safe[p] != 0))
                        differ++;
                }
        }
    }
    HS_CHECK(nonzero > 100);   /* the comparison saw safe areas, not only empty ones */
    HS_CHECK_INT(differ, 0);
    hs_board_t big;
    hs_board_init(&big, 9);
    HS_CHECK_INT(hs_solve_safe_area(&big, HS_BLACK, NULL), HS_EINVAL);
    printf("safe area vs Benson: %d colour-positions (%d with a safe area), %d points differ\n",
           positions, nonzero, differ);
}

/* Every combination of the solver's pruning methods finds 3x3 = +9 and 2x2 = +1. */
static void s_solver_methods(void)
{
    for (int m = 0; m < 8; m++) {
        hs_solve_config_t cfg;
        hs_solve_config_default(&cfg);
        cfg.use_bounds = m & 1;
        cfg.use_indep = (m >> 1) & 1;
        cfg.use_history = (m >> 2) & 1;
        hs_solve_result_t r;
        for (int size = 2; size <= 3; size++) {
            cfg.size = size;
            HS_CHECK_INT(hs_solve(&cfg, &r, NULL), 0);
            HS_CHECK(r.solved);
            HS_CHECK_INT(r.value, size == 3 ? 9 : 1);
        }
    }
}

int main(void)
{
    hs_reader_config_t cfg;
    hs_reader_config_default(&cfg);
    hs_reader_t *r = hs_reader_new(&cfg);
    cfg.use_ordering = false;
    cfg.use_tt = false;
    hs_reader_t *plain = hs_reader_new(&cfg);
    HS_CHECK(r && plain);
    if (!r || !plain)
        return hs_test_finish();

    /* Bad targets are errors, not crashes. */
    hs_board_t b;
    hs_board_init(&b, 5);
    hs_tactic_t t;
    HS_CHECK_INT(hs_reader_attack(r, &b, hs_board_point(&b, 2, 2), &t, NULL), HS_EINVAL);
    HS_CHECK_INT(hs_reader_defend(r, &b, HS_PASS, &t, NULL), HS_EINVAL);

    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tactics", hs_test_own_data_dir());
    tctx_t ctx = { .r = r, .plain = plain };
    int files = hs_diagram_run_dir(dir, s_query, &ctx);
    HS_CHECK(files > 0);
    if (s_queries)
        printf("reader over %d queries (fresh tables): %ld nodes with ordering+TT+killers, "
               "%ld without (%.2fx)\n", s_queries, s_total_nodes[0], s_total_nodes[1],
               (double)s_total_nodes[1] / (double)(s_total_nodes[0] ? s_total_nodes[0] : 1));

    s_random_trees();
    s_random_go();
    s_solver();
    s_safe_area();
    s_solver_methods();
    hs_reader_destroy(&r);
    hs_reader_destroy(&plain);
    HS_CHECK(r == NULL);
    hs_reader_destroy(&r);  /* idempotent */
    return hs_test_finish();
}
