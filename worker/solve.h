/*
 * worker/solve.h — solves tiny boards (3x3, 4x4) exactly: area scoring (stones
 * plus empty regions that reach one colour only), komi 0, no suicide,
 * positional superko, the game ends after two consecutive passes.
 *
 * Method
 * ------
 * The value V (Black's area minus White's under perfect play) is found by a
 * binary search over thresholds T; each step answers "can Black make at least
 * T?" with a three-valued alpha-beta (win / loss / unknown at the depth
 * horizon), iterative deepening on the depth, a transposition table and move
 * ordering (TT move, then the game-ending pass when it wins, centre-first
 * points, pass last). A win or a loss never depends on the horizon, so each is
 * a proof; "unknown" only means "search deeper".
 *
 * Static bounds (MIGOS-style, van der Werf 2003): at every node Benson's
 * unconditionally safe areas bound the final margin, Black's at least
 * 2*safe(Black) - N*N and at most N*N - 2*safe(White), which decides many
 * nodes against T at once, also at the depth horizon. Move ordering adds the
 * history heuristic; while the position and every position on the path are
 * symmetric, only one move of each symmetric pair is searched.
 *
 * Superko makes a position's value depend on the path that reached it: under
 * positional superko, on the *set* of positions seen before. A result whose
 * explored subtree never hit a superko prune against a position above the node
 * is stored without the path (with the stones common to all positions of that
 * subtree, its "core"), and is reused on any path none of whose positions
 * contains the core; other results are keyed with a set hash of the path
 * positions (see solve.c). Known results: 3x3 Black wins by 9 (plays the
 * centre), 4x4 Black by 2.
 */
#ifndef HS_WORKER_SOLVE_H
#define HS_WORKER_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"

/* Progress of a solve: lower <= V <= upper proven so far, after nodes and
 * seconds. Called on the solving thread. */
typedef void (*hs_solve_progress_fn)(void *ctx, int lower, int upper, long nodes,
                                     double seconds);

typedef struct hs_solve_config {
    int size;            /* 2..5 (default 3) */
    int max_depth;       /* deepest iteration, plies (default 80) */
    long max_nodes;      /* over the whole solve; 0 = no limit (default 0) */
    double time_limit_s; /* wall-clock limit; 0 = none (default 0) */
    int tt_bits;         /* log2 transposition-table entries (default 22) */
    bool use_bounds;     /* safe-area score bounds at every node (default true) */
    bool use_history;    /* history-heuristic move ordering (default true) */
    bool use_indep;      /* history-independent table entries (default true) */
    /* Called each time a bound is proven and about once a second between
     * (default NULL: none). */
    hs_solve_progress_fn progress;
    void *progress_ctx;
} hs_solve_config_t;

void hs_solve_config_default(hs_solve_config_t *cfg);

typedef struct hs_solve_result {
    bool solved;         /* lower == upper */
    int lower, upper;    /* proven bounds on V (lower <= V <= upper) */
    int value;           /* V when solved */
    hs_point_t best;     /* a first Black move achieving `lower` (HS_PASS, or HS_NO_POINT if none proven) */
    long nodes;          /* nodes searched over all steps */
    double seconds;      /* wall-clock time of the solve */
    int depth;           /* deepest iteration reached */
    long bound_cuts;     /* nodes decided by the safe-area bounds */
} hs_solve_result_t;

/*
 * Solves the empty board of cfg->size (cfg NULL = defaults). *out gets the
 * proven bounds even when a limit stops the search (then solved is false and
 * the call returns HS_ETIMEOUT, or HS_ELIMIT for the node limit).
 * Returns 0, HS_EINVAL (size outside 2..5), HS_ENOMEM, HS_ETIMEOUT or HS_ELIMIT.
 */
int hs_solve(const hs_solve_config_t *cfg, hs_solve_result_t *out, hs_error_t *err);

/*
 * Benson's unconditionally safe area of `color` on b (size <= 5): its
 * pass-alive chains plus the regions they enclose in which every empty point is
 * a liberty of one of them. Sets safe[p] = 1 on those points and 0 on the other
 * board points when safe is not NULL (HS_BOARD_MAX_POINTS entries; off-board
 * entries untouched). Returns the number of points, or HS_EINVAL for size > 5.
 * The solver bounds Black's final margin by 2*safe(Black) - N*N from below and
 * N*N - 2*safe(White) from above at every node.
 */
int hs_solve_safe_area(const hs_board_t *b, hs_color_t color, uint8_t *safe);

/*
 * Tromp-Taylor area score of b: Black's stones and the empty regions that reach
 * only Black, minus the same for White (komi not included).
 */
int hs_solve_area_score(const hs_board_t *b);

#endif
