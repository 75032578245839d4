/*
 * bench/bench_board.c — board queries from the board index against the scan
 * they replace, and the index's size.
 *
 *   bench_board --db DIR [--queries N] [--peer-queries P] [--seed S]
 *
 * 1. Ours: N times, a random stored game and a random move number of it (0 to
 *    its last move), the board replayed (not timed), then hs_query_board timed
 *    (wall and the thread's CPU): the index look-up, every game found read, the
 *    evals after each next move. p50 / p99 / max.
 * 2. Peer, same run, the first P of the same positions: the old way to find the
 *    games that reached a position, hs_query_position_key + hs_store_position_games
 *    (a scan of every stored position by the engines' position key, which also
 *    holds komi, rules and the last moves, so it finds fewer games). p50 / p99,
 *    and the ratio of the medians peer / ours.
 *    Then the worst case once: the empty board, which every game reached.
 * 3. The index's bytes (hs_store_boards_bytes) against the store's bytes in
 *    use (LMDB's last page) and data.mdb's length.
 * Reads only (a read-only handle, as `hyeongse query` opens the store).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/rng.h"
#include "store/query.h"
#include "store/store.h"

typedef struct {
    uint64_t (*ids)[2];
    int n, cap;
} s_ids_t;

static int s_add_id(void *ctx, const uint64_t id[2])
{
    s_ids_t *v = ctx;
    if (v->n == v->cap) {
        int cap = v->cap ? 2 * v->cap : 1024;
        uint64_t (*p)[2] = realloc(v->ids, sizeof *p * (size_t)cap);
        if (!p)
            return HS_ENOMEM;
        v->ids = p;
        v->cap = cap;
    }
    v->ids[v->n][0] = id[0];
    v->ids[v->n][1] = id[1];
    v->n++;
    return 0;
}

static int s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v and prints "name: p50 A ms, p99 B ms, max C ms"; returns p50. */
static double s_report(const char *name, double *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, s_cmp_double);
    double p50 = v[n / 2], p99 = v[(int)((n - 1) * 0.99)];
    printf("%-34s p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms  (%d queries)\n", name, p50 * 1e3,
           p99 * 1e3, v[n - 1] * 1e3, n);
    return p50;
}

static int s_count_pos(void *ctx, const uint64_t id[2], int move)
{
    (void)id;
    (void)move;
    (*(int64_t *)ctx)++;
    return 0;
}

typedef struct {
    hs_game_t g;
    int move;
    hs_board_t b;
} s_pick_t;

/* A random stored game and move, the board after it. 0 or an error. */
static int s_pick(hs_store_t *s, const s_ids_t *ids, hs_rng_t *rng, s_pick_t *p,
                  hs_error_t *err)
{
    for (int tries = 0; tries < 100; tries++) {
        const uint64_t *id = ids->ids[hs_rng_below(rng, (uint32_t)ids->n)];
        int rc = hs_store_game_get(s, id, &p->g, NULL, NULL, err);
        if (rc)
            return rc;
        p->move = (int)hs_rng_below(rng, (uint32_t)p->g.num_moves + 1);
        if (hs_game_replay(&p->g, p->move, &p->b, NULL) == 0)
            return 0;
        hs_wire_game_t w = { .game = p->g };
        hs_wire_game_fini(&w);   /* an illegal move before it: pick again */
    }
    return hs_error_set(err, HS_EINVAL, "no replayable position found");
}

static void s_pick_fini(s_pick_t *p)
{
    hs_wire_game_t w = { .game = p->g };
    hs_wire_game_fini(&w);
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    int nq = 1000, np = 100;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--db") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--queries") && i + 1 < argc)
            nq = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--peer-queries") && i + 1 < argc)
            np = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_board --db DIR [--queries N] [--peer-queries P] "
                            "[--seed S]\n");
            return 2;
        }
    }
    if (!dir || nq < 1 || np < 0) {
        fprintf(stderr, "bench_board: give --db DIR (and N >= 1, P >= 0)\n");
        return 2;
    }
    if (np > nq)
        np = nq;
    hs_error_t err = { 0 };
    hs_store_t *s = NULL;
    s_ids_t ids = { 0 };
    if (hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err) ||
        hs_store_games_each(s, s_add_id, &ids, &err)) {
        fprintf(stderr, "bench_board: %s\n", err.msg);
        return 1;
    }
    if (ids.n == 0 || !hs_store_boards_complete(s)) {
        fprintf(stderr, "bench_board: %s\n", ids.n ? "the board index is incomplete: run "
                        "hyeongse index --db DIR" : "no games in the store");
        return 1;
    }
    double *wall = calloc((size_t)nq, sizeof *wall), *cpu = calloc((size_t)nq, sizeof *cpu);
    double *pwall = calloc((size_t)np + 1, sizeof *pwall);
    s_pick_t *pick = malloc(sizeof *pick);
    if (!wall || !cpu || !pwall || !pick)
        return 1;
    hs_rng_t rng, rng0;
    hs_rng_seed(&rng, seed);
    rng0 = rng;
    int64_t hits = 0, nexts = 0;
    for (int i = 0; i < nq; i++) {
        if (s_pick(s, &ids, &rng, pick, &err)) {
            fprintf(stderr, "bench_board: %s\n", err.msg);
            return 1;
        }
        hs_board_answer_t a;
        double t0 = hs_clock_now(), c0 = hs_clock_thread_cpu();
        int rc = hs_query_board(s, &pick->b, &a, &err);
        wall[i] = hs_clock_now() - t0;
        cpu[i] = hs_clock_thread_cpu() - c0;
        if (rc) {
            fprintf(stderr, "bench_board: %s\n", err.msg);
            return 1;
        }
        hits += a.num_hits;
        nexts += a.num_next;
        hs_board_answer_fini(&a);
        s_pick_fini(pick);
    }
    int64_t reached = 0;
    rng = rng0;   /* the same positions, in the same order */
    for (int i = 0; i < np; i++) {
        s_pick(s, &ids, &rng, pick, &err);
        uint8_t key[16];
        hs_query_position_key(&pick->g, pick->move, key, NULL);
        double t0 = hs_clock_now();
        hs_store_position_games(s, key, s_count_pos, &reached, &err);
        pwall[i] = hs_clock_now() - t0;
        s_pick_fini(pick);
    }
    printf("store %s: %d games\n", dir, ids.n);
    double ours = s_report("board index (hs_query_board), wall", wall, nq);
    s_report("board index, thread CPU", cpu, nq);
    printf("  mean %.1f games found, %.1f next moves a query\n", (double)hits / nq,
           (double)nexts / nq);
    double peer = s_report("scan by position key, wall", pwall, np);
    if (np)
        printf("  mean %.1f games found a scan; median peer / ours: %.1fx\n",
               (double)reached / np, ours > 0 ? peer / ours : 0.0);
    /* The worst case: the empty board, reached by every game at move 0. */
    hs_board_t *empty = malloc(sizeof *empty);
    hs_board_answer_t a;
    if (empty && s_pick(s, &ids, &rng, pick, &err) == 0) {
        hs_board_init(empty, pick->g.size);
        s_pick_fini(pick);
        double t0 = hs_clock_now();
        if (hs_query_board(s, empty, &a, &err) == 0) {
            printf("empty %dx%d board (every game's move 0): %.3f ms, %d games found, "
                   "%d next moves\n", empty->size, empty->size, (hs_clock_now() - t0) * 1e3,
                   a.num_hits, a.num_next);
            hs_board_answer_fini(&a);
        }
    }
    free(empty);
    uint64_t bytes = 0;
    hs_store_stats_t st;
    hs_store_file_info_t fi;
    if (hs_store_boards_bytes(s, &bytes, &err) == 0 && hs_store_stats(s, &st, &err) == 0 &&
        hs_store_file_check(dir, &fi, &err) == 0)
        printf("index %llu bytes: %.1f%% of the %llu bytes in use (data.mdb %llu bytes), "
               "%.1f bytes a position\n", (unsigned long long)bytes,
               100.0 * (double)bytes / (double)fi.need_bytes, (unsigned long long)fi.need_bytes,
               (unsigned long long)fi.file_size,
               st.positions ? (double)bytes / (double)st.positions : 0.0);
    free(wall);
    free(cpu);
    free(pwall);
    free(pick);
    free(ids.ids);
    hs_store_close(&s);
    return 0;
}
