/*
 * core/rules.h — rule sets: ko and superko, suicide, scoring method, handicap and
 * komi conventions, and the history check that superko needs.
 *
 *   name          ko                  suicide  scoring    handicap komp.  komi
 *   korean        simple              no       territory  none            6.5
 *   japanese      simple              no       territory  none            6.5
 *   chinese       positional superko  no       area       +1 per stone    7.5
 *   aga           situational superko no       area       +1 per stone -1 7.5
 *   new-zealand   situational superko yes      area       +1 per stone    7.0
 *   tromp-taylor  positional superko  yes      area       none            7.5
 *
 * "handicap komp." is what White receives in area counting for Black's handicap
 * stones (Chinese rules: one point per stone; AGA: one per stone after the first).
 * Under territory scoring the stones count for nothing extra.
 */
#ifndef HS_CORE_RULES_H
#define HS_CORE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"

typedef enum hs_ko_rule {
    HS_KO_SIMPLE = 0,
    HS_KO_POSITIONAL,      /* no whole-board position may repeat */
    HS_KO_SITUATIONAL,     /* no position may repeat with the same side to move */
} hs_ko_rule_t;

typedef enum hs_scoring {
    HS_SCORING_TERRITORY = 0,  /* territory + prisoners + dead stones */
    HS_SCORING_AREA,           /* stones + territory */
} hs_scoring_t;

typedef enum hs_rules_id {
    HS_RULES_KOREAN = 0,
    HS_RULES_JAPANESE,
    HS_RULES_CHINESE,
    HS_RULES_AGA,
    HS_RULES_NEW_ZEALAND,
    HS_RULES_TROMP_TAYLOR,
    HS_RULES_COUNT
} hs_rules_id_t;

typedef struct hs_rules {
    hs_rules_id_t id;
    const char *name;          /* "korean", ... (static storage) */
    hs_ko_rule_t ko;
    bool suicide_legal;
    hs_scoring_t scoring;
    int handicap_bonus_offset; /* area scoring: White gets (handicap - offset) points; -1 = none */
    double default_komi;       /* even game */
} hs_rules_t;

/* The rule set with this id. */
hs_rules_t hs_rules_get(hs_rules_id_t id);

/*
 * Reads a rule-set name as users and SGF RU values write it: "korean",
 * "japanese", "chinese", "aga", "new-zealand"/"nz", "tromp-taylor"/"tt",
 * case-insensitive, also "Japanese", "Chinese", "AGA", "NZ", "Korean",
 * "GOE"/"ing" (read as new-zealand-like). Returns 0, or HS_ENOTFOUND.
 */
int hs_rules_from_name(const char *name, hs_rules_t *out);

/* Flags for hs_board_play() under these rules (HS_PLAY_SUICIDE_OK or 0). */
static inline unsigned hs_rules_play_flags(const hs_rules_t *r)
{
    return r->suicide_legal ? HS_PLAY_SUICIDE_OK : 0u;
}

/*
 * Superko history: the hashes of positions seen so far. Owned by its creator:
 * hs_history_init / hs_history_fini; hs_history_push after each move.
 */
typedef struct hs_history {
    uint64_t *keys;
    int count, capacity;
} hs_history_t;

void hs_history_init(hs_history_t *h);
void hs_history_fini(hs_history_t *h);
/* Records the position now on b (call once at the start and after every move). 0 or HS_ENOMEM. */
int hs_history_push(hs_history_t *h, const hs_board_t *b, const hs_rules_t *r);

/*
 * Whether the position `after` (a move already played on a copy) repeats one
 * of h under r's superko (always false under simple ko, which the board
 * itself enforces). For searches that test moves without pushing them.
 */
bool hs_history_repeats(const hs_history_t *h, const hs_board_t *after, const hs_rules_t *r);

/*
 * Plays `color` at p on b under rules r: suicide per r, simple ko, and superko
 * against h (positional or situational per r), then records the new position in
 * h. Returns 0, or HS_EILLEGAL with *reason (may be NULL) and b unchanged.
 */
int hs_rules_play(hs_board_t *b, const hs_rules_t *r, hs_history_t *h,
                  hs_color_t color, hs_point_t p, hs_illegal_t *reason);

/*
 * Puts n fixed handicap stones on b as setup stones (hs_board_set_stone), at
 * the GTP "fixed_handicap" points: the 4-4 points on sizes >= 13, the 3-3
 * points on sizes 7..12, in the GTP order (2: D4 Q16; 3: +D16; 4: +Q4; 5: +centre;
 * 6: D4 Q16 D16 Q4 D10 Q10; 7: +centre; 8: +K4 K16; 9: +centre), then sets White
 * to move. Returns 0, or HS_EINVAL when n is not 2..max (max 9 on odd sizes >= 9,
 * 4 on size 7 and on even sizes; none below 7); b is then unchanged.
 */
int hs_rules_place_handicap(hs_board_t *b, int n);

#endif
