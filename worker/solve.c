/*
 * worker/solve.c — exact solver for tiny boards (see solve.h for the method).
 *
 * Transposition key: hs_board_key (stones, side to move, ko point) mixed with
 * the pass count, the threshold T and a set hash of the positions already on
 * the path (XOR of a mix of each distinct stones hash). Under positional
 * superko the future of a node depends only on its position and the *set* of
 * positions seen before, so equal keys have equal values: the table is sound.
 * The price is that move-order transpositions (which pass through different
 * intermediate positions) do not share entries; iterative deepening still
 * reuses every entry of the previous iteration on the same path, which is
 * where most of the gain is on 3x3. A whole path is at most max_depth plies.
 */
#include "worker/solve.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { S_TT_EXACT = 0, S_TT_LOWER = 1, S_TT_UPPER = 2 };

typedef struct s_entry {
    uint64_t key;
    int8_t value;
    uint8_t depth;
    uint8_t flag;
    hs_point_t move;
} s_entry_t;

typedef struct s_solver {
    hs_solve_config_t cfg;
    s_entry_t *tt;
    size_t mask;
    hs_board_t *boards;       /* one per ply */
    uint64_t *path;           /* stones hash of the position at each ply */
    hs_point_t (*killers)[2];
    hs_point_t order[32];     /* board points, centre first */
    int norder;
    int T;
    long nodes;
    bool stop;
    int stop_code;
    struct timespec start;
} s_solver_t;

void hs_solve_config_default(hs_solve_config_t *cfg)
{
    cfg->size = 3;
    cfg->max_depth = 80;
    cfg->max_nodes = 0;
    cfg->time_limit_s = 0;
    cfg->tt_bits = 22;
}

static double s_elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static inline uint64_t s_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int hs_solve_area_score(const hs_board_t *b)
{
    int score = 0;
    uint8_t seen[HS_BOARD_MAX_POINTS];
    hs_point_t stack[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    int npts = hs_board_num_points(b);
    memset(seen, 0, (size_t)npts);
    const int nb[4] = { -b->stride, -1, 1, b->stride };
    for (int p = 0; p < npts; p++) {
        if (b->color[p] == HS_BLACK) score++;
        else if (b->color[p] == HS_WHITE) score--;
        if (b->color[p] != HS_EMPTY || seen[p])
            continue;
        int n = 0, size = 0;
        unsigned reach = 0;
        stack[n++] = (hs_point_t)p;
        seen[p] = 1;
        while (n) {
            hs_point_t q = stack[--n];
            size++;
            for (int i = 0; i < 4; i++) {
                hs_point_t r = (hs_point_t)(q + nb[i]);
                if (b->color[r] == HS_EMPTY && !seen[r]) {
                    seen[r] = 1;
                    stack[n++] = r;
                } else if (b->color[r] == HS_BLACK || b->color[r] == HS_WHITE) {
                    reach |= 1u << b->color[r];
                }
            }
        }
        if (reach == (1u << HS_BLACK)) score += size;
        else if (reach == (1u << HS_WHITE)) score -= size;
    }
    return score;
}

static int s_search(s_solver_t *S, const hs_board_t *b, int passes, uint64_t set_hash, int depth,
                    int ply, int alpha, int beta, hs_point_t *best)
{
    S->nodes++;
    *best = HS_NO_POINT;
    if (passes >= 2)
        return hs_solve_area_score(b) >= S->T ? 1 : -1;
    if (depth <= 0 || ply >= S->cfg.max_depth)
        return 0;
    if ((S->nodes & 4095) == 0) {
        if (S->cfg.max_nodes > 0 && S->nodes >= S->cfg.max_nodes) {
            S->stop = true;
            S->stop_code = HS_ELIMIT;
        } else if (S->cfg.time_limit_s > 0 && s_elapsed(&S->start) > S->cfg.time_limit_s) {
            S->stop = true;
            S->stop_code = HS_ETIMEOUT;
        }
    }
    if (S->stop)
        return 0;

    uint64_t key = hs_board_key(b) ^ set_hash ^ s_mix((uint64_t)passes * 7919u + (uint64_t)(S->T + 1000));
    s_entry_t *e = &S->tt[key & S->mask];
    hs_point_t tt_move = HS_NO_POINT;
    if (e->key == key) {
        tt_move = e->move;
        if (e->value != 0 || e->depth >= depth) {
            bool exact = e->flag == S_TT_EXACT || (e->flag == S_TT_LOWER && e->value == 1) ||
                         (e->flag == S_TT_UPPER && e->value == -1);
            if (exact || (e->flag == S_TT_LOWER && e->value >= beta) ||
                (e->flag == S_TT_UPPER && e->value <= alpha)) {
                *best = e->move;
                return e->value;
            }
        }
    }

    hs_color_t side = b->to_move;
    bool maximize = side == HS_BLACK;
    /* Candidate order: TT move, a pass that ends the game in the mover's
     * favour, killers, points centre first, other passes last. */
    hs_point_t cand[40];
    int n = 0;
    bool pass_wins = passes == 1 && ((hs_solve_area_score(b) >= S->T) == maximize);
    if (tt_move != HS_NO_POINT) cand[n++] = tt_move;
    if (pass_wins && tt_move != HS_PASS) cand[n++] = HS_PASS;
    for (int k = 0; k < 2; k++) {
        hs_point_t m = S->killers[ply][k];
        if (m != HS_NO_POINT && m != HS_PASS && m != tt_move && b->color[m] == HS_EMPTY)
            cand[n++] = m;
    }
    for (int i = 0; i < S->norder; i++) {
        hs_point_t m = S->order[i];
        if (b->color[m] != HS_EMPTY || m == tt_move || m == S->killers[ply][0] || m == S->killers[ply][1])
            continue;
        cand[n++] = m;
    }
    if (!pass_wins && tt_move != HS_PASS) cand[n++] = HS_PASS;

    int best_v = maximize ? -2 : 2;
    int a0 = alpha, b0 = beta;
    hs_board_t *child = &S->boards[ply + 1];
    for (int i = 0; i < n; i++) {
        hs_point_t m = cand[i];
        int child_passes = 0;
        uint64_t child_set = set_hash;
        *child = *b;
        if (m == HS_PASS) {
            hs_board_play(child, side, HS_PASS, 0, NULL);
            child_passes = passes + 1;
        } else {
            if (hs_board_legal(b, side, m, 0) != HS_LEGAL)
                continue;
            hs_board_play(child, side, m, 0, NULL);
            bool repeat = false;
            for (int j = 0; j <= ply && !repeat; j++)
                repeat = S->path[j] == child->stones_hash;
            if (repeat)
                continue;  /* positional superko */
            /* The node's own position joins the history seen by the child. */
            child_set ^= s_mix(b->stones_hash);
        }
        S->path[ply + 1] = child->stones_hash;
        hs_point_t dummy;
        int v = s_search(S, child, child_passes, child_set, depth - 1, ply + 1, alpha, beta, &dummy);
        if (S->stop)
            return 0;
        if (maximize ? v > best_v : v < best_v) {
            best_v = v;
            *best = m;
        }
        if (maximize) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
        if (alpha >= beta) {
            if (m != HS_PASS && S->killers[ply][0] != m) {
                S->killers[ply][1] = S->killers[ply][0];
                S->killers[ply][0] = m;
            }
            break;
        }
    }
    /* A pass is always legal, so at least one move was searched. */
    e->key = key;
    e->value = (int8_t)best_v;
    e->depth = (uint8_t)(depth > 255 ? 255 : depth);
    e->move = *best;
    e->flag = best_v <= a0 ? S_TT_UPPER : best_v >= b0 ? S_TT_LOWER : S_TT_EXACT;
    return best_v;
}

/* Proves or refutes "Black gets at least T": +1, -1, or 0 when stopped. */
static int s_test(s_solver_t *S, const hs_board_t *root, int T, hs_point_t *best, int *depth_out)
{
    S->T = T;
    for (int d = 1; d <= S->cfg.max_depth; d++) {
        S->path[0] = root->stones_hash;
        int v = s_search(S, root, 0, 0, d, 0, -2, 2, best);
        if (S->stop)
            return 0;
        if (d > *depth_out)
            *depth_out = d;
        if (v != 0)
            return v;
    }
    return 0;
}

int hs_solve(const hs_solve_config_t *cfg, hs_solve_result_t *out, hs_error_t *err)
{
    hs_solve_config_t c;
    if (cfg) c = *cfg;
    else hs_solve_config_default(&c);
    memset(out, 0, sizeof *out);
    out->best = HS_NO_POINT;
    if (c.size < 2 || c.size > 5)
        return hs_error_set(err, HS_EINVAL, "solve: size %d is outside 2..5", c.size);
    if (c.max_depth < 1) c.max_depth = 1;
    if (c.max_depth > 250) c.max_depth = 250;
    if (c.tt_bits < 10) c.tt_bits = 10;
    if (c.tt_bits > 26) c.tt_bits = 26;

    int rc = 0;
    s_solver_t S;
    memset(&S, 0, sizeof S);
    S.cfg = c;
    S.mask = ((size_t)1 << c.tt_bits) - 1;
    S.tt = calloc(S.mask + 1, sizeof *S.tt);
    S.boards = malloc((size_t)(c.max_depth + 2) * sizeof *S.boards);
    S.path = malloc((size_t)(c.max_depth + 2) * sizeof *S.path);
    S.killers = malloc((size_t)(c.max_depth + 2) * sizeof *S.killers);
    if (!S.tt || !S.boards || !S.path || !S.killers) {
        rc = hs_error_set(err, HS_ENOMEM, "solve: out of memory for a 2^%d table", c.tt_bits);
        goto done;
    }
    for (int i = 0; i < c.max_depth + 2; i++)
        S.killers[i][0] = S.killers[i][1] = HS_NO_POINT;
    clock_gettime(CLOCK_MONOTONIC, &S.start);

    hs_board_t root;
    hs_board_init(&root, c.size);
    /* Points ordered by distance from the centre (ties in board order). */
    int n = c.size;
    for (int ring = 0; ring <= 2 * n; ring++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int d = abs(2 * x - (n - 1)) + abs(2 * y - (n - 1));
                if (d == ring)
                    S.order[S.norder++] = hs_board_point(&root, x, y);
            }

    /* Binary search: lo is proven (V >= lo), hi is refuted (V < hi). */
    int lo = -n * n, hi = n * n + 1;
    hs_point_t lo_move = HS_NO_POINT;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        hs_point_t m = HS_NO_POINT;
        int v = s_test(&S, &root, mid, &m, &out->depth);
        if (v > 0) {
            lo = mid;
            lo_move = m;
        } else if (v < 0) {
            hi = mid;
        } else {
            rc = S.stop ? S.stop_code : HS_ELIMIT;
            hs_error_set(err, rc, "solve: %s before the %dx%d value was proven",
                         S.stop_code == HS_ETIMEOUT ? "time limit" : "node or depth limit",
                         n, n);
            break;
        }
    }
    out->lower = lo;
    out->upper = hi - 1;
    out->solved = lo == hi - 1;
    out->value = out->solved ? lo : 0;
    out->best = lo_move;
done:
    out->nodes = S.nodes;
    out->seconds = S.start.tv_sec ? s_elapsed(&S.start) : 0;
    free(S.tt);
    free(S.boards);
    free(S.path);
    free(S.killers);
    return rc;
}
