/*
 * core/score.c — ownership, area, territory and Tromp-Taylor counts (score.h).
 *
 * Everything is one flood fill over empty regions (dead stones removed first)
 * recording which live colours each region reaches; the counts then read the
 * ownership map. The Tromp-Taylor count used after every playout has its own
 * loop that skips the fill for points whose neighbours already decide them.
 */
#include "core/score.h"

#include <string.h>

int hs_score_ownership(const hs_board_t *b, const uint8_t *dead, uint8_t *owner)
{
    const int np = hs_board_num_points(b);
    const int stride = b->stride;
    uint8_t eff[HS_BOARD_MAX_POINTS];
    hs_point_t stack[HS_BOARD_MAX_POINTS], region[HS_BOARD_MAX_POINTS];
    for (int p = 0; p < np; p++) {
        uint8_t c = b->color[p];
        if ((c == HS_BLACK || c == HS_WHITE) && dead && dead[p])
            c = HS_EMPTY;
        eff[p] = c;
        owner[p] = c == HS_EMPTY ? 0xFF : c;  /* 0xFF: not yet decided */
    }
    for (int p = 0; p < np; p++) {
        if (owner[p] != 0xFF)
            continue;
        int sp = 0, nr = 0, reach = 0;
        stack[sp++] = (hs_point_t)p;
        owner[p] = HS_EMPTY;  /* visited; final value written below */
        while (sp > 0) {
            hs_point_t s = stack[--sp];
            region[nr++] = s;
            const hs_point_t q4[4] = { (hs_point_t)(s - stride), (hs_point_t)(s - 1),
                                       (hs_point_t)(s + 1), (hs_point_t)(s + stride) };
            for (int i = 0; i < 4; i++) {
                hs_point_t q = q4[i];
                uint8_t c = eff[q];
                if (c == HS_EMPTY) {
                    if (owner[q] == 0xFF) {
                        owner[q] = HS_EMPTY;
                        stack[sp++] = q;
                    }
                } else if (c != HS_OFFBOARD) {
                    reach |= c;
                }
            }
        }
        uint8_t o = reach == HS_BLACK ? HS_BLACK : reach == HS_WHITE ? HS_WHITE : HS_EMPTY;
        for (int i = 0; i < nr; i++)
            owner[region[i]] = o;
    }
    return 0;
}

/* Fills the colour-independent counts of *out from the ownership map. */
static void s_count(const hs_board_t *b, const uint8_t *dead, double komi, hs_score_t *out)
{
    const int np = hs_board_num_points(b);
    uint8_t owner[HS_BOARD_MAX_POINTS];
    hs_score_ownership(b, dead, owner);
    memset(out, 0, sizeof *out);
    out->komi = komi;
    for (int p = 0; p < np; p++) {
        uint8_t c = b->color[p];
        if (c == HS_OFFBOARD)
            continue;
        bool is_dead = (c == HS_BLACK || c == HS_WHITE) && dead && dead[p];
        if (c != HS_EMPTY && !is_dead) {
            out->stones[c]++;
            continue;
        }
        if (is_dead)
            out->dead[c]++;
        if (owner[p] == HS_EMPTY)
            out->dame++;
        else
            out->territory[owner[p]]++;
    }
}

int hs_score_area(const hs_board_t *b, const uint8_t *dead, double komi, int handicap,
                  const hs_rules_t *r, hs_score_t *out)
{
    if (handicap < 0)
        return HS_EINVAL;
    s_count(b, dead, komi, out);
    if (r && r->handicap_bonus_offset >= 0 && handicap >= 2 && handicap > r->handicap_bonus_offset)
        out->compensation = handicap - r->handicap_bonus_offset;
    out->black = out->stones[HS_BLACK] + out->territory[HS_BLACK];
    out->white = out->stones[HS_WHITE] + out->territory[HS_WHITE] + komi + out->compensation;
    out->margin = out->black - out->white;
    return 0;
}

int hs_score_territory(const hs_board_t *b, const uint8_t *dead, double komi, hs_score_t *out)
{
    s_count(b, dead, komi, out);
    out->prisoners[HS_BLACK] = b->captures[HS_BLACK] + out->dead[HS_WHITE];
    out->prisoners[HS_WHITE] = b->captures[HS_WHITE] + out->dead[HS_BLACK];
    out->black = out->territory[HS_BLACK] + out->prisoners[HS_BLACK];
    out->white = out->territory[HS_WHITE] + out->prisoners[HS_WHITE] + komi;
    out->margin = out->black - out->white;
    return 0;
}

int hs_score_by_rules(const hs_board_t *b, const uint8_t *dead, double komi, int handicap,
                      const hs_rules_t *r, hs_score_t *out)
{
    if (!r)
        return HS_EINVAL;
    if (r->scoring == HS_SCORING_AREA)
        return hs_score_area(b, dead, komi, handicap, r, out);
    return hs_score_territory(b, dead, komi, out);
}

double hs_score_tromp_taylor(const hs_board_t *b, double komi)
{
    const int stride = b->stride;
    const uint8_t *color = b->color;
    /* Stones first: every on-board point not in the empty list is a stone. */
    int score = 0, stones_black = 0;
    const int on_board = b->size * b->size;
    int pending = 0;
    for (int i = 0; i < b->num_empty; i++) {
        hs_point_t p = b->empty[i];
        int reach = 0;
        reach |= 1 << color[p - stride];
        reach |= 1 << color[p - 1];
        reach |= 1 << color[p + 1];
        reach |= 1 << color[p + stride];
        reach &= (1 << HS_BLACK) | (1 << HS_WHITE) | (1 << HS_EMPTY);
        if (reach == (1 << HS_BLACK))
            score++;
        else if (reach == (1 << HS_WHITE))
            score--;
        else if (reach & (1 << HS_EMPTY))
            pending++;  /* touches another empty point: needs the region fill */
    }
    if (pending) {
        /* Some regions are bigger than one point: count exactly by ownership. */
        uint8_t owner[HS_BOARD_MAX_POINTS];
        hs_score_ownership(b, NULL, owner);
        score = 0;
        for (int i = 0; i < b->num_empty; i++) {
            uint8_t o = owner[b->empty[i]];
            score += (o == HS_BLACK) - (o == HS_WHITE);
        }
    }
    /* Stones: count black among on-board stones by scanning rows. */
    for (int y = 0; y < b->size; y++) {
        const uint8_t *row = color + (y + 1) * stride + 1;
        for (int x = 0; x < b->size; x++)
            stones_black += row[x] == HS_BLACK;
    }
    int stones_white = on_board - b->num_empty - stones_black;
    return (double)(score + stones_black - stones_white) - komi;
}
