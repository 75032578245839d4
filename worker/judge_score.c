/*
 * worker/judge_score.c — counting a judged position: the must-fill points of
 * territory rules (judge.h step 6, docs/JUDGE.md step 7) and the territory
 * and area scores. worker/judge.c decides what is alive and dead and whose
 * each region is; this file turns those classes into points.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "worker/judge.h"
#include "worker/judge_internal.h"

#define MAXP HS_BOARD_MAX_POINTS

static inline bool s_is_stone(int c) { return c == HS_BLACK || c == HS_WHITE; }

/* What the must-fill pass reads of the judgment (see hs__judge_must_fill). */
typedef struct s_fill {
    const hs_board_t *b;
    const uint8_t *live, *dead, *seki;
    int np, dirs[4];
} s_fill_t;

/* Is class k a point of colour c's territory (empty, or a dead opponent stone)? */
static inline bool s_own_point(int k, int c)
{
    return c == HS_BLACK ? (k == HS_JC_BLACK_TERRITORY || k == HS_JC_WHITE_DEAD)
                         : (k == HS_JC_WHITE_TERRITORY || k == HS_JC_BLACK_DEAD);
}

/* String hs has a liberty in its colour's territory other than t. */
static bool s_has_own_lib(const s_fill_t *x, const hs_judge_t *out, hs_point_t hs, hs_point_t t)
{
    const hs_board_t *b = x->b;
    int c = b->color[hs];
    for (hs_point_t q = hs;;) {
        for (int d = 0; d < 4; d++) {
            hs_point_t r = (hs_point_t)(q + x->dirs[d]);
            if (r != t && (b->color[r] == HS_EMPTY || x->dead[r]) && s_own_point(out->cls[r], c))
                return true;
        }
        q = b->next[q];
        if (q == hs) return false;
    }
}

/* Step 7: points a side must fill at the end (see must_fill in judge.h). A
 * live string whose liberties are exactly one point of its own territory plus
 * dame that touch a live opponent stone will be in atari once the opponent
 * fills those dame, and must then connect on its territory point. Only when
 * connecting there helps (the point touches something other than the string):
 * otherwise the string is simply short of liberties and the players left it. */
void hs__judge_must_fill(const hs_board_t *b, const uint8_t *live, const uint8_t *dead,
                         const uint8_t *seki, hs_judge_t *out)
{
    s_fill_t fx = {b, live, dead, seki, hs_board_num_points(b), {-b->stride, -1, 1, b->stride}};
    const s_fill_t *x = &fx;
    uint8_t marked[MAXP];
    memset(marked, 0, (size_t)x->np);
    hs_point_t libs[MAXP];
    for (int h = 0; h < x->np; h++) {
        int c = b->color[h];
        if (!s_is_stone(c) || b->head[h] != h || x->dead[h] || x->seki[h])
            continue;
        /* Cheap filter first: the rule needs exactly one point of its own
         * territory (an empty liberty or a dead opponent stone) next to the
         * string; most strings have none or several. */
        hs_point_t first = HS_NO_POINT;
        bool several = false;
        for (hs_point_t q = (hs_point_t)h;;) {
            for (int d = 0; d < 4 && !several; d++) {
                hs_point_t r = (hs_point_t)(q + x->dirs[d]);
                if (x->live[r] != HS_EMPTY || !s_own_point(out->cls[r], c)) continue;
                if (first == HS_NO_POINT) first = r;
                else if (r != first) several = true;
            }
            q = b->next[q];
            if (q == h || several) break;
        }
        if (first == HS_NO_POINT || several)
            continue;
        int o = hs_color_other((hs_color_t)c);
        int n = hs_board_string_liberties(b, (hs_point_t)h, libs, MAXP);
        int own = 0, dame = 0;
        hs_point_t t = HS_NO_POINT;
        for (int i = 0; i < n; i++) {
            int k = out->cls[libs[i]];
            if (s_own_point(k, c)) { own++; t = libs[i]; }
            else if (k == HS_JC_DAME) {
                for (int d = 0; d < 4; d++)
                    if (x->live[libs[i] + x->dirs[d]] == o) { dame++; break; }
            }
        }
        /* Dead stones on the string's border are liberties once removed. */
        for (int q = h;;) {
            for (int d = 0; d < 4; d++) {
                hs_point_t r = (hs_point_t)(q + x->dirs[d]);
                if (b->color[r] == o && x->dead[r] && s_own_point(out->cls[r], c)) {
                    if (own == 0 || t != r) { own++; t = r; }
                }
            }
            q = b->next[q];
            if (q == h) break;
        }
        /* Already in atari on its own territory point (the opponent has filled
         * the dame, or a stone was left to be captured): the same. */
        bool in_atari = n == 1 && own == 1 && t == libs[0];
        if (own != 1 || (dame == 0 && !in_atari) || marked[t])
            continue;
        bool helps = false;
        for (int d = 0; d < 4; d++) {
            hs_point_t r = (hs_point_t)(t + x->dirs[d]);
            int rc = b->color[r];
            if (rc == HS_OFFBOARD) continue;
            if (rc == c && !x->dead[r] && b->head[r] == h) continue;
            helps = true;
        }
        if (!helps) continue;
        /* The owner need not fill t when it can instead take one of the dame
         * itself and so join a string with another territory liberty (or
         * reach one): filling dame costs nothing. */
        bool rescued = false;
        for (int i = 0; i < n && !rescued; i++) {
            hs_point_t dp = libs[i];
            if (out->cls[dp] != HS_JC_DAME) continue;
            for (int d = 0; d < 4 && !rescued; d++) {
                hs_point_t r = (hs_point_t)(dp + x->dirs[d]);
                if (r == t) continue;
                if (b->color[r] == HS_EMPTY && s_own_point(out->cls[r], c)) rescued = true;
                else if (x->live[r] == c && b->head[r] != h)
                    rescued = s_has_own_lib(x, out, b->head[r], t);
            }
        }
        if (rescued) continue;
        marked[t] = 1;
        out->must_fill[c]++;
        out->must_fill_at[t] = (uint8_t)c;
    }
}

double hs_judge_score_territory(const hs_judge_t *j, const hs_board_t *b, double komi)
{
    /* A dead stone counts twice for the side whose territory holds it: once as a
     * prisoner and once for the point it leaves empty (ownership says whose
     * region it lies in; in a dame region it is a prisoner only). */
    double black = j->count[HS_JC_BLACK_TERRITORY] + j->count[HS_JC_WHITE_DEAD] + b->captures[HS_BLACK];
    double white = j->count[HS_JC_WHITE_TERRITORY] + j->count[HS_JC_BLACK_DEAD] + b->captures[HS_WHITE];
    black -= j->must_fill[HS_BLACK];
    white -= j->must_fill[HS_WHITE];
    int n = (j->size + 2) * (j->size + 1) + 1;
    for (int p = 0; p < n; p++) {
        if (j->cls[p] != HS_JC_BLACK_DEAD && j->cls[p] != HS_JC_WHITE_DEAD) continue;
        if (j->ownership[p] > 0.5f) black += 1;
        else if (j->ownership[p] < -0.5f) white += 1;
    }
    return black - white - komi;
}

double hs_judge_score_area(const hs_judge_t *j, double komi, int handicap_bonus)
{
    /* Dead stones count for the owner of the region around them (via ownership);
     * count area from ownership so a dead stone in a dame region counts for nobody. */
    double black = j->seki_eye[HS_BLACK], white = j->seki_eye[HS_WHITE];
    int n = (j->size + 2) * (j->size + 1) + 1;
    for (int p = 0; p < n; p++) {
        if (j->ownership[p] > 0.5f) black += 1;
        else if (j->ownership[p] < -0.5f) white += 1;
    }
    return black - white - komi - handicap_bonus;
}

int hs_judge_handicap_bonus(const hs_rules_t *r, int handicap)
{
    /* One free stone (a lone AB before the first move, OGS style) is compensated
     * like any handicap stone; game.h never reports HA[1] as handicap 1. */
    if (r->scoring != HS_SCORING_AREA || r->handicap_bonus_offset < 0 || handicap < 1)
        return 0;
    int bonus = handicap - r->handicap_bonus_offset;
    return bonus > 0 ? bonus : 0;
}

double hs_judge_score(const hs_judge_t *j, const hs_board_t *b, const hs_rules_t *r,
                      double komi, int handicap)
{
    if (r->scoring == HS_SCORING_AREA)
        return hs_judge_score_area(j, komi, hs_judge_handicap_bonus(r, handicap));
    return hs_judge_score_territory(j, b, komi);
}

const char *hs_judge_result_string(double score, char *buf)
{
    double a = fabs(score);
    if (a < 1e-9) {
        snprintf(buf, 16, "0");
        return buf;
    }
    /* %g drops a trailing ".0" (B+3, B+3.5, W+0.25), as records write it. */
    snprintf(buf, 16, "%c+%g", score > 0 ? 'B' : 'W', a);
    return buf;
}
