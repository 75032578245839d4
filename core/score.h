/*
 * core/score.h — counting a finished (or judged) position: area scoring,
 * territory scoring, the Tromp-Taylor count, and the per-point ownership they
 * are built on, so the judge and the reports count exactly the same way.
 *
 * Dead stones are given as a mask `dead` over board points (indexed like
 * b->color, hs_board_num_points(b) entries, non-zero = dead; entries at empty
 * points and sentinels are ignored; NULL = nothing dead). Dead stones are taken
 * off the board before counting.
 *
 * Ownership (hs_score_ownership): a live stone is owned by its colour. Every
 * maximal region of empty points (dead stones removed) is owned by Black when
 * it borders only live Black stones, by White when it borders only live White
 * stones, and is neutral (dame) when it borders both colours or none. This is
 * the Tromp-Taylor notion of "reaching"; it makes shared liberties in seki
 * neutral. Limitation: the eyes of groups in seki count as territory for the
 * surrounding colour (Japanese rules would not count them).
 *
 * All scores are Black minus White ("margin"), komi included; a positive
 * margin means Black wins.
 *
 *   area      black = live black stones + black-owned empty points
 *             white = live white stones + white-owned empty points + komi
 *                     + handicap compensation (area rules only:
 *                       max(0, handicap - r->handicap_bonus_offset) when the
 *                       offset is >= 0 and handicap >= 2; see core/rules.h)
 *   territory black = black-owned empty points (dead white stones' points
 *                     included) + prisoners: stones Black captured during the
 *                     game (b->captures[HS_BLACK]) + dead white stones
 *             white = the same for White + komi
 *   Tromp-Taylor: area with nothing dead and no handicap compensation.
 *
 * Threads: pure functions of their inputs; no state.
 */
#ifndef HS_CORE_SCORE_H
#define HS_CORE_SCORE_H

#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/rules.h"

typedef struct hs_score {
    double black, white;    /* each side's points; white includes komi and compensation */
    double margin;          /* black - white */
    int stones[3];          /* live stones per colour (indexed by hs_color_t) */
    int territory[3];       /* owned empty points per colour (dead-stone points included) */
    int dead[3];            /* dead stones per colour (the colour of the dead stones) */
    int prisoners[3];       /* territory scoring: captures + opponent dead stones, per taker */
    int dame;               /* neutral empty points */
    double komi;            /* as given */
    int compensation;       /* handicap points given to White (area scoring) */
} hs_score_t;

/*
 * Writes the owner of every point into owner[0..hs_board_num_points(b)):
 * HS_BLACK, HS_WHITE, HS_EMPTY for neutral, HS_OFFBOARD for sentinels. A dead
 * stone's point is owned like the empty region it falls into. owner is the
 * caller's array. Returns 0.
 */
int hs_score_ownership(const hs_board_t *b, const uint8_t *dead, uint8_t *owner);

/*
 * Area score (see the table above) into *out. handicap: number of handicap
 * stones (0 or 1 = none). Returns 0, or HS_EINVAL when handicap < 0.
 */
int hs_score_area(const hs_board_t *b, const uint8_t *dead, double komi, int handicap,
                  const hs_rules_t *r, hs_score_t *out);

/* Territory score (see the table above) into *out. Returns 0. */
int hs_score_territory(const hs_board_t *b, const uint8_t *dead, double komi, hs_score_t *out);

/* Scores by r->scoring (area with compensation, or territory). Returns 0 or HS_EINVAL. */
int hs_score_by_rules(const hs_board_t *b, const uint8_t *dead, double komi, int handicap,
                      const hs_rules_t *r, hs_score_t *out);

/*
 * Tromp-Taylor count of b as it stands (nothing dead, no compensation):
 * returns black - white - komi. Fast path for playouts.
 */
double hs_score_tromp_taylor(const hs_board_t *b, double komi);

#endif
