/*
 * worker/influence.h — Park's stone influence, influence points and influence
 * areas (H.-S. Park, "Stone Influence, Influence Point and Influence Area in
 * Computer Go"; see docs/INFLUENCE.md and the brief's "Influence-area scoring").
 *
 * Values are x100, as in the paper, which multiplies by 100 for display only:
 * SI is summed from the exact stone powers and rounded once.
 *
 *  Stone power SP(dx, dy) of a stone at an offset (dx, dy), with the
 *  Fibonacci-like distance d(1..5) = 1, 2, 3, 5, 8:
 *      own point                       100
 *      on a line (dx == 0 or dy == 0)  100 / d(k)          100 50 33.3 20 12.5
 *      off the line                    100 / sqrt(d(|dx|)^2 + d(|dy|)^2)
 *      |dx| > 5 or |dy| > 5            0
 *  SP is held in fixed point (integer multiples of 1/(6 * 2^32)): the rational
 *  values exactly, the irrational ones to within 1e-10.
 *
 *  Stone influence SI(v) = sum over stones s of sign(s) * SP(s, v) * w(s)
 *  (black +, white -), w(s) = weight[s] in [0, 1] (the stability of the group
 *  of s), or 1 for every stone when weight is NULL (Park's pure definition).
 *  The sum is of unrounded powers, in both modes, and is rounded once to an
 *  integer x100, half away from zero (12.5 -> 13, -12.5 -> -13). Weights of
 *  exactly 1 give the same SI as weight NULL, bit for bit; the sum does not
 *  depend on the order of the stones. SI is computed on every point, stones
 *  included (a stone's own point gets its 100).
 *
 *  Influence point (IP): an EMPTY point whose (rounded) SI >= tau is a black
 *  IP, SI <= -tau a white IP (tau = 140 by default, the paper's best threshold).
 *  Lump (LI): a 4-connected set of same-colour IPs.
 *  Core (CLI): a 2x2 square whose four points are IPs of one lump.
 *  Influence area (IA): every IP of a lump with at least one core.
 *
 *  Territory (for Park's score "territory + influence area"): the points of an
 *  empty region (4-connected empty points) whose bordering stones — ignoring
 *  stones of weight 0, which project nothing and count as empty — are all of one
 *  colour, and which holds at most HS_INFLUENCE_TERRITORY_MAX_FRAC of the board
 *  (so one stone on an empty board owns no territory). Points under weight-0
 *  stones inside such a region count as territory too.
 *  Score per side = |territory ∪ IA| (a point counted once).
 *
 * Point arrays are indexed by core/board.h point indices (p = (x+1)+(y+1)*(N+1));
 * entries at sentinels are 0 (or -1 for lump ids).
 *
 * Threads: every function is pure over its arguments; no global mutable state.
 */
#ifndef HS_WORKER_INFLUENCE_H
#define HS_WORKER_INFLUENCE_H

#include <stdint.h>

#include "core/board.h"
#include "core/error.h"

#define HS_INFLUENCE_TAU_DEFAULT 140
#define HS_INFLUENCE_RADIUS 5
/* Territory regions larger than this fraction of the board are not territory. */
#define HS_INFLUENCE_TERRITORY_MAX_FRAC 0.25

typedef struct hs_influence {
    int size;                               /* N of the board judged */
    int tau;                                /* threshold used */
    int16_t si[HS_BOARD_MAX_POINTS];        /* SI x100 on every on-board point */
    int8_t ip[HS_BOARD_MAX_POINTS];         /* +1 black IP, -1 white IP, 0 none */
    int16_t lump[HS_BOARD_MAX_POINTS];      /* lump index of an IP, -1 otherwise */
    uint8_t core[HS_BOARD_MAX_POINTS];      /* 1 when the point lies in some core */
    int8_t ia[HS_BOARD_MAX_POINTS];         /* +1 black IA, -1 white IA, 0 none */
    int8_t territory[HS_BOARD_MAX_POINTS];  /* +1 black, -1 white, 0 none */
    int num_lumps;
    /* Counts indexed by hs_color_t (HS_BLACK, HS_WHITE); index 0 unused. */
    int ip_count[3];
    int lump_count[3];
    int core_count[3];                      /* 2x2 cores (squares), not points */
    int ia_count[3];
    int territory_count[3];
    int score[3];                           /* |territory ∪ IA| */
} hs_influence_t;

/*
 * Stone power x100 at offset (dx, dy), rounded half up for display (12.5 -> 13,
 * 70.7 -> 71, 35.36 -> 35; 0 beyond 5 steps on either axis). SI never sums
 * these rounded values. Any integers are accepted.
 */
int hs_influence_stone_power(int dx, int dy);

/* The unrounded stone power x100 that SI sums (the fixed-point value). */
double hs_influence_stone_power_exact(int dx, int dy);

/*
 * Writes SI x100 for every point of b into si[] (HS_BOARD_MAX_POINTS entries;
 * sentinels get 0). weight: per-point stone weights in [0, 1] indexed like the
 * board (read only at stones; a weight that is not > 0 counts as 0), or NULL for
 * 1 everywhere.
 */
void hs_influence_si(const hs_board_t *b, const float *weight, int16_t *si);

/*
 * Computes SI, IPs at threshold tau, lumps, cores, influence areas, territory,
 * counts and scores of b into *out. tau must be >= 0.
 * Returns 0, or HS_EINVAL (tau < 0, or b of an unsupported size) with a message.
 */
int hs_influence_compute(const hs_board_t *b, const float *weight, int tau,
                         hs_influence_t *out, hs_error_t *err);

/*
 * Park's score of a computed influence, Black minus White, without komi:
 * score[BLACK] - score[WHITE].
 */
static inline int hs_influence_score_diff(const hs_influence_t *inf)
{
    return inf->score[HS_BLACK] - inf->score[HS_WHITE];
}

#endif
