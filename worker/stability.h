/*
 * worker/stability.h — group stability in [0, 1]: how surely a group of stones
 * lives. Park's stone influence weights every stone by the stability of its
 * group (a dead group projects nothing, a settled living group projects fully).
 *
 * Groups
 * ------
 * A group is a set of same-colour strings joined through shared eye space: an
 * empty region (4-connected) that touches stones of one colour only and has at
 * most HS_STABILITY_EYE_SPACE_MAX points joins every string of that colour
 * around it. Strings without such a region are groups of their own.
 *
 * Stability formula (per group, first rule that applies)
 * -------------------------------------------------------
 *  1. 1.0 when a string of the group is pass-alive (Benson's algorithm:
 *     unconditional life; strings with two vital enclosed regions after the
 *     iterative removal), or the group has two clear eyes (eyes >= 2 below).
 *  2. 0.0 when a stone of the group lies inside a vital region of the
 *     opponent's pass-alive strings (unconditionally dead), or when the
 *     reader (if any) shows the group's weakest string (fewest liberties,
 *     < HS_READER_SAFE_LIBS) is captured even when its owner moves first.
 *  3. Otherwise, unsettled:
 *        s = 0.10 + 0.30 * eyes + 0.02 * min(libs, 10)
 *            + 0.15 when the reader shows no attack works (or was not needed:
 *                   the weakest string has >= HS_READER_SAFE_LIBS liberties),
 *        then capped at 0.30 when the reader shows the attacker captures when
 *        moving first (urgent: whoever moves first decides), and clamped to
 *        [0.05, 0.90]. So a tactically safe string with no eye space sits
 *        near 0.3 (seki strings too), one clear eye lifts it to 0.5-0.75.
 *     eyes is the eye count: each enclosed eye region of the group counts
 *     1 point: 1 if a true eye (hs_board_is_eye), else 0 (false eye);
 *     2-3 points: 1; 4-6 points: 1.5; 7 or more: 2; summed, capped at 2.
 *     libs is the number of distinct liberties of the whole group.
 * With reader NULL (or cfg->use_reader false) the reader parts of rules 2 and
 * 3 are skipped (Benson still applies).
 */
#ifndef HS_WORKER_STABILITY_H
#define HS_WORKER_STABILITY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "worker/tactics.h"

/* Largest one-colour empty region that counts as eye space (joins strings). */
#define HS_STABILITY_EYE_SPACE_MAX 12

typedef struct hs_stability_config {
    int reader_node_budget;   /* nodes per reader query (default 1000) */
    bool use_reader;          /* consult the reader when one is given (default true) */
} hs_stability_config_t;

/* Fills *cfg with the defaults. */
void hs_stability_config_default(hs_stability_config_t *cfg);

typedef struct hs_stability {
    float point[HS_BOARD_MAX_POINTS];   /* stability of the group of the stone at p; 0 on empty/offboard */
    int16_t group[HS_BOARD_MAX_POINTS]; /* group index of the stone at p, -1 for empty */
    int num_groups;
    float group_stability[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    uint8_t group_color[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    uint8_t pass_alive[HS_BOARD_MAX_POINTS]; /* 1 where Benson says pass-alive (stones, and their vital regions) */
} hs_stability_t;

/*
 * Computes groups, pass-alive points and the stability of every group of b.
 * cfg NULL = defaults. reader may be NULL (then no reading; eye/liberty
 * analysis only); when given, its node budget is temporarily limited to
 * cfg->reader_node_budget per query. *out is fully overwritten.
 * Returns 0 (it cannot fail on a valid board), or HS_EINVAL for NULL b/out.
 */
int hs_stability_compute(const hs_board_t *b, const hs_stability_config_t *cfg,
                         hs_reader_t *reader, hs_stability_t *out, hs_error_t *err);

/*
 * Benson's algorithm alone: sets pass_alive[p] = 1 on the stones of `color`
 * that are unconditionally alive and on the points of their vital regions, 0
 * elsewhere (pass_alive has HS_BOARD_MAX_POINTS entries).
 */
void hs_stability_benson(const hs_board_t *b, hs_color_t color, uint8_t *pass_alive);

/*
 * A memo of recent stability results, so that several engines judging the same
 * positions (the worker runs "influence" and then "judge" on one batch) compute
 * each position's stability once: it was over half of their combined time.
 *
 * It holds the last HS_STABILITY_MEMO_SLOTS results (a ring; more than a batch of
 * positions) keyed by the stones, side to move, ko point, board size and the
 * config (reader budget, and whether a reader is used). A hit is verified on the
 * whole colour array, never on the hash alone, so a hit returns exactly what
 * hs_stability_compute would (without a reader: it is a pure function of the
 * stones; with one, a reader's answer within its budget is as good as another's).
 * One memo per thread: it is not locked. About 1 MB.
 */
#define HS_STABILITY_MEMO_SLOTS 96

typedef struct hs_stability_memo hs_stability_memo_t;

/* A new empty memo, or NULL when out of memory. Free with hs_stability_memo_destroy. */
hs_stability_memo_t *hs_stability_memo_new(void);

/* Frees *m (NULL-safe) and sets *m to NULL. */
void hs_stability_memo_destroy(hs_stability_memo_t **m);

/*
 * hs_stability_compute through the memo: *out points at the result for b, inside
 * the memo (owned by it; valid until the next call on m). m NULL is allowed and
 * then *out points at `scratch`, which is computed into. Returns what
 * hs_stability_compute returns; *out is NULL on error.
 */
int hs_stability_memo_compute(hs_stability_memo_t *m, const hs_board_t *b,
                              const hs_stability_config_t *cfg, hs_reader_t *reader,
                              hs_stability_t *scratch, const hs_stability_t **out,
                              hs_error_t *err);

/* Lookups answered from the memo and lookups computed, since it was created. */
void hs_stability_memo_stats(const hs_stability_memo_t *m, uint64_t *hits, uint64_t *misses);

#endif
