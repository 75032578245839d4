/*
 * worker/nn/features.c — V7 input planes (see features.h and docs/NET.md for
 * what each plane means). Written from KataGo's description of its inputs;
 * where our board or readers differ (ladder search, Benson) the comments say.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worker/nn/features.h"
#include "worker/stability.h"

typedef struct s_rules_enc {
    int ko;            /* 0 simple, 1 positional, 2 situational */
    int suicide, territory, tax_seki, handicap_offset;   /* offset -1: no bonus */
} s_rules_enc_t;

/* KataGo's rule sets of the same names. */
static s_rules_enc_t s_rules(hs_rules_id_t id)
{
    switch (id) {
    case HS_RULES_CHINESE: return (s_rules_enc_t){0, 0, 0, 0, 0};
    case HS_RULES_AGA: return (s_rules_enc_t){2, 0, 0, 0, 1};
    case HS_RULES_NEW_ZEALAND: return (s_rules_enc_t){2, 1, 0, 0, -1};
    case HS_RULES_TROMP_TAYLOR: return (s_rules_enc_t){1, 1, 0, 0, -1};
    default: return (s_rules_enc_t){0, 0, 1, 1, -1};   /* japanese, korean */
    }
}

double hs_nn_white_komi(const hs_nn_pos_t *p)
{
    s_rules_enc_t r = s_rules(p->rules);
    double bonus = 0;
    if (r.handicap_offset >= 0 && p->handicap > r.handicap_offset)
        bonus = p->handicap - r.handicap_offset;
    /* territory rules: KataGo "chills" one point per stone played, so that
     * area-like board counts plus this bonus give the territory score */
    if (r.territory)
        bonus += p->stones_black - p->stones_white;
    return p->komi + bonus;
}

static void s_set(float *sp, int n, int plane, const hs_board_t *b, hs_point_t q)
{
    sp[(size_t)plane * (size_t)(n * n) + (size_t)(hs_board_y(b, q) * n + hs_board_x(b, q))] = 1.0f;
}

/* ---- ladders, as KataGo's inputs define them ------------------------------
 * Our tactical reader (worker/tactics.h) answers a stricter question (it
 * treats kos and loose ladders its own way), and the net was trained on
 * KataGo's exact answers, so the planes use this search with KataGo's rules:
 * the defender may extend at its liberty or capture an adjacent string in
 * atari; the attacker plays either liberty; a ko point left by the attacker
 * counts as an escape; the root's ko ban is lifted for the defender; a search
 * deeper than 1.5 x area plies is a capture, one over 25000 nodes is not. */

#define S_LADDER_BUDGET 25000

static bool s_ko_banned(const hs_board_t *b, hs_point_t p)
{
    return b->ko != HS_NO_POINT && p == b->ko;
}

/* 1 captured, 0 escapes, -1 out of budget, -2 out of memory. */
static int s_ladder(const hs_board_t *b, hs_point_t target, bool def_turn, int depth,
                    long *nodes)
{
    if (*nodes >= S_LADDER_BUDGET)
        return -1;
    if (depth >= b->size * b->size * 3 / 2)
        return 1;
    int libs = hs_board_libs(b, target);
    hs_color_t def = (hs_color_t)b->color[target], att = hs_color_other(def);
    if (!def_turn && libs <= 1) return 1;
    if (!def_turn && libs >= 3) return 0;
    if (def_turn && libs >= 2) return 0;
    if (def_turn && b->ko != HS_NO_POINT) return 0;
    hs_point_t moves[HS_BOARD_MAX_POINTS];
    int nm = 0;
    if (def_turn) {
        const int d[4] = {1, -1, b->stride, -b->stride};
        hs_point_t s = target;
        do {
            for (int k = 0; k < 4; k++) {
                hs_point_t q = (hs_point_t)(s + d[k]);
                if (b->color[q] == att && hs_board_libs(b, q) == 1) {
                    hs_point_t lib;
                    hs_board_string_liberties(b, q, &lib, 1);
                    bool dup = false;
                    for (int i = 0; i < nm; i++)
                        dup |= moves[i] == lib;
                    if (!dup)
                        moves[nm++] = lib;
                }
            }
            s = b->next[s];
        } while (s != target);
        nm += hs_board_string_liberties(b, target, moves + nm, 1);
    } else {
        nm = hs_board_string_liberties(b, target, moves, 2);
    }
    hs_board_t *c = malloc(sizeof *c);
    if (!c)
        return -2;
    int result = def_turn ? 1 : 0;
    for (int i = 0; i < nm; i++) {
        hs_color_t who = def_turn ? def : att;
        if (s_ko_banned(b, moves[i]) || hs_board_legal(b, who, moves[i], 0) != HS_LEGAL)
            continue;
        hs_board_copy(c, b);
        hs_board_play_legal(c, who, moves[i]);
        (*nodes)++;
        int r = s_ladder(c, target, !def_turn, depth + 1, nodes);
        if (r < 0 || (def_turn && r == 0) || (!def_turn && r == 1)) {
            result = r;
            break;
        }
    }
    free(c);
    return result;
}

/* The string at q (1 liberty), its owner to move first, ko ban lifted:
 * 1 captured, 0 not, HS_ENOMEM. */
static int s_ladder_captured(const hs_board_t *b, hs_point_t q, hs_board_t *scratch)
{
    long nodes = 0;
    hs_board_copy(scratch, b);
    scratch->ko = HS_NO_POINT;
    int r = s_ladder(scratch, q, true, 0, &nodes);
    return r == -2 ? HS_ENOMEM : r == 1;
}

/* Ladder planes of one board (KataGo's definition): every stone of a string
 * with 1 liberty that cannot escape with its owner to move, or with 2
 * liberties that the attacker captures by ladder moving first, gets `plane`;
 * with `working_plane` >= 0, the attacker's working first moves against the
 * opponent's (of `opp`) 2-liberty strings get that plane. */
static int s_ladders(const hs_board_t *b, float *sp, int n, int plane, int working_plane,
                     hs_color_t opp)
{
    static const int unsolved = -1;
    int solved[HS_BOARD_MAX_POINTS];   /* per string head: -1, 0 or 1 */
    for (int i = 0; i < HS_BOARD_MAX_POINTS; i++)
        solved[i] = unsolved;
    hs_board_t *copy = malloc(2 * sizeof *copy);
    if (!copy)
        return HS_ENOMEM;
    int rc = 0;
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            hs_point_t q = hs_board_point(b, x, y);
            hs_color_t c = (hs_color_t)b->color[q];
            if (c != HS_BLACK && c != HS_WHITE)
                continue;
            int libs = hs_board_libs(b, q);
            if (libs != 1 && libs != 2)
                continue;
            hs_point_t h = b->head[q];
            if (solved[h] == unsolved) {
                int captured = 0;
                if (libs == 1) {
                    captured = s_ladder_captured(b, q, copy);
                } else {
                    hs_point_t lib[2];
                    hs_board_string_liberties(b, q, lib, 2);
                    for (int k = 0; k < 2; k++) {
                        hs_color_t att = hs_color_other(c);
                        if (s_ko_banned(b, lib[k]) || hs_board_legal(b, att, lib[k], 0) != HS_LEGAL)
                            continue;
                        hs_board_copy(&copy[1], b);
                        hs_board_play_legal(&copy[1], att, lib[k]);
                        int r = s_ladder_captured(&copy[1], q, copy);
                        if (r < 0)
                            captured = r;
                        if (r != 1)
                            continue;
                        captured = captured < 0 ? captured : 1;
                        if (working_plane >= 0 && c == opp)
                            s_set(sp, n, working_plane, b, lib[k]);
                    }
                }
                if (captured < 0)
                    rc = captured;
                solved[h] = captured > 0;
            }
            if (solved[h] > 0)
                s_set(sp, n, plane, b, q);
        }
    }
    free(copy);
    return rc;
}

/* Empty regions bordered by stones of one colour only (or 0 for none/both). */
static hs_color_t s_region_owner(const hs_board_t *b, hs_point_t start, uint8_t *seen,
                                 hs_point_t *stack, hs_point_t *region, int *n_region)
{
    int top = 0, border = 0;
    stack[top++] = start;
    seen[start] = 1;
    *n_region = 0;
    const int d[4] = {1, -1, b->stride, -b->stride};
    while (top) {
        hs_point_t q = stack[--top];
        region[(*n_region)++] = q;
        for (int k = 0; k < 4; k++) {
            hs_point_t r = (hs_point_t)(q + d[k]);
            int c = b->color[r];
            if (c == HS_EMPTY && !seen[r]) {
                seen[r] = 1;
                stack[top++] = r;
            } else if (c == HS_BLACK || c == HS_WHITE) {
                border |= c;
            }
        }
    }
    return border == HS_BLACK || border == HS_WHITE ? (hs_color_t)border : HS_EMPTY;
}

/* KataGo's area under area scoring without tax: pass-alive stones and
 * territory (Benson), then empty regions bordered by one colour only, then
 * every other stone as its colour's. */
static void s_area(const hs_board_t *b, uint8_t *area)
{
    uint8_t pa[HS_BOARD_MAX_POINTS], seen[HS_BOARD_MAX_POINTS];
    static_assert(HS_BOARD_MAX_POINTS < 65536, "points fit hs_point_t");
    hs_point_t stack[HS_BOARD_MAX_POINTS], region[HS_BOARD_MAX_POINTS];
    memset(area, 0, HS_BOARD_MAX_POINTS);
    memset(seen, 0, sizeof seen);
    for (int c = HS_BLACK; c <= HS_WHITE; c++) {
        hs_stability_benson(b, (hs_color_t)c, pa);
        for (int i = 0; i < HS_BOARD_MAX_POINTS; i++)
            if (pa[i] && !area[i])
                area[i] = (uint8_t)c;
    }
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t q = hs_board_point(b, x, y);
            if (b->color[q] != HS_EMPTY || seen[q])
                continue;
            int nr;
            hs_color_t owner = s_region_owner(b, q, seen, stack, region, &nr);
            for (int i = 0; owner && i < nr; i++)
                if (!area[region[i]])
                    area[region[i]] = (uint8_t)owner;
        }
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t q = hs_board_point(b, x, y);
            if (!area[q])
                area[q] = b->color[q];
        }
}

static void s_stones(const hs_nn_pos_t *p, float *sp, int n, hs_color_t pla)
{
    const hs_board_t *b = p->board;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            hs_point_t q = hs_board_point(b, x, y);
            sp[y * n + x] = 1.0f;                       /* 0: on board */
            int c = b->color[q];
            if (c != HS_BLACK && c != HS_WHITE)
                continue;
            s_set(sp, n, c == (int)pla ? 1 : 2, b, q);   /* 1, 2: stones */
            int libs = hs_board_libs(b, q);
            if (libs >= 1 && libs <= 3)
                s_set(sp, n, 2 + libs, b, q);           /* 3, 4, 5: 1-3 liberties */
        }
    if (b->ko != HS_NO_POINT && b->ko != HS_PASS && hs_board_on_board(b, b->ko))
        s_set(sp, n, 6, b, b->ko);                      /* 6: ko ban */
}

/* Planes 9-13 and globals 0-4: the last five moves, most recent first, while
 * they alternate back from the opponent's move. Returns how many were used. */
static int s_history(const hs_nn_pos_t *p, float *sp, float *g, int n, hs_color_t pla)
{
    int used = 0;
    for (int k = 0; k < p->n_hist && k < HS_NN_KATAGO_HISTORY; k++) {
        int i = p->n_hist - 1 - k;
        hs_color_t want = k % 2 == 0 ? hs_color_other(pla) : pla;
        if (p->hist_color[i] != want)
            break;
        used = k + 1;
        hs_point_t m = p->hist_move[i];
        if (m == HS_PASS)
            g[k] = 1.0f;
        else if (m != HS_NO_POINT)
            s_set(sp, n, 9 + k, p->board, m);
    }
    return used;
}

static float s_komi_wave(float self_komi, int n)
{
    bool even = (n * n) % 2 == 0;
    float floor_k = even ? floorf(self_komi / 2.0f) * 2.0f
                         : floorf((self_komi - 1.0f) / 2.0f) * 2.0f + 1.0f;
    float d = self_komi - floor_k;
    d = d < 0 ? 0 : d > 2 ? 2 : d;
    return d < 0.5f ? d : d < 1.5f ? 1.0f - d : d - 2.0f;
}

int hs__nn_features_check(const hs_nn_pos_t *p, hs_error_t *err)
{
    int n = p->board->size;
    if (n > HS_NN_MAX_SIZE || n < 2)
        return hs_error_set(err, HS_EINVAL, "net inputs: board size %d (at most %d)", n,
                            HS_NN_MAX_SIZE);
    if (p->to_move != HS_BLACK && p->to_move != HS_WHITE)
        return hs_error_set(err, HS_EINVAL, "net inputs: no colour to move");
    return 0;
}

int hs_nn_features(const hs_nn_pos_t *p, float *sp, float *g, hs_error_t *err)
{
    const hs_board_t *b = p->board;
    int n = b->size;
    int rc = hs__nn_features_check(p, err);
    if (rc)
        return rc;
    hs_color_t pla = p->to_move, opp = hs_color_other(pla);
    s_rules_enc_t r = s_rules(p->rules);
    memset(sp, 0, (size_t)HS_NN_SPATIAL * (size_t)(n * n) * sizeof *sp);
    memset(g, 0, HS_NN_GLOBAL * sizeof *g);

    s_stones(p, sp, n, pla);
    int used = s_history(p, sp, g, n, pla);

    const hs_board_t *b1 = used >= 1 && p->prev1 ? p->prev1 : b;
    const hs_board_t *b2 = used >= 2 && p->prev2 ? p->prev2 : b1;
    if (s_ladders(b, sp, n, 14, 17, opp) || s_ladders(b1, sp, n, 15, -1, opp)
        || s_ladders(b2, sp, n, 16, -1, opp))
        return hs_error_set(err, HS_ENOMEM, "net inputs: out of memory reading ladders");

    float wk = (float)hs_nn_white_komi(p);
    float self_komi = pla == HS_WHITE ? wk : -wk;
    float area = (float)(n * n);
    if (self_komi > area + 20) self_komi = area + 20;      /* KataGo's clip radius */
    if (self_komi < -area - 20) self_komi = -area - 20;

    if (!r.territory) {                                      /* 18, 19: area */
        uint8_t a[HS_BOARD_MAX_POINTS];
        s_area(b, a);
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                hs_point_t q = hs_board_point(b, x, y);
                if (a[q] == pla) s_set(sp, n, 18, b, q);
                else if (a[q] == opp) s_set(sp, n, 19, b, q);
            }
    }

    g[5] = self_komi / 20.0f;
    if (r.ko == 1) { g[6] = 1.0f; g[7] = 0.5f; }
    if (r.ko == 2) { g[6] = 1.0f; g[7] = -0.5f; }
    g[8] = r.suicide ? 1.0f : 0.0f;
    g[9] = r.territory ? 1.0f : 0.0f;
    g[10] = r.tax_seki ? 1.0f : 0.0f;
    /* 14: a pass now ends the phase (the opponent just passed) */
    g[14] = p->n_hist > 0 && p->hist_move[p->n_hist - 1] == HS_PASS
            && p->hist_color[p->n_hist - 1] == opp ? 1.0f : 0.0f;
    if (!r.territory)
        g[18] = s_komi_wave(self_komi, n);
    return 0;
}
