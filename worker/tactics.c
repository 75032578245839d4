/*
 * worker/tactics.c — the tactical reader (capture / escape of one string) and a
 * generic minimax / alpha-beta over hs_search_game_t.
 *
 * Design
 * ------
 * Values are from the attacker's point of view: +1 captured, 0 unknown (depth
 * horizon), -1 saved. Alpha-beta is fail-soft over these three values; a
 * result of +1 or -1 is a proof within the candidate-move model (it never
 * depends on the horizon), so it ends iterative deepening at once and may be
 * reused from the transposition table at any depth. A 0 is only reused for
 * searches no deeper than the one that produced it.
 *
 * Child boards live in the reader (one per ply) rather than on the C stack: a
 * board is ~9 KB and worker threads may have small stacks.
 */
#include "worker/tactics.h"

#include <stdlib.h>
#include <string.h>

#define S_MAX_PLY 64
#define S_MAX_CAND 48
#define S_LADDER_NODES 4000
#define S_LADDER_DEPTH 120   /* plies of one ladder line */
/* Most escape room (s_escape_room) of a 4-liberty target still read on. */
#ifndef S_LOOSE_ROOM
#define S_LOOSE_ROOM 3
#endif
/* Most loose-ladder steps (4-liberty attacker nodes) on one reading line. */
#ifndef S_LOOSE_STEPS
#define S_LOOSE_STEPS 2
#endif

enum { S_TT_EXACT = 0, S_TT_LOWER = 1, S_TT_UPPER = 2 };

typedef struct s_tt_entry {
    uint64_t key;
    int8_t value;
    uint8_t depth;
    uint8_t flag;
    hs_point_t move;
} s_tt_entry_t;

struct hs_reader {
    hs_reader_config_t cfg;
    s_tt_entry_t *tt;
    size_t tt_mask;
    hs_board_t *boards;                 /* [S_MAX_PLY + 1] child boards, one per ply */
    hs_board_t *ladder;                 /* [S_LADDER_DEPTH] boards of a ladder line */
    hs_board_t scratch;                 /* for scoring candidates */
    hs_point_t killers[S_MAX_PLY][2];
    /* Per-query state. */
    hs_point_t target;
    hs_color_t defender, attacker;
    uint64_t target_mix;
    long nodes, budget;
    bool loose_on;                      /* this pass reads loose ladders */
    int loose_steps;                    /* 4-liberty attacker nodes on the current line */
    bool stop;
};

void hs_reader_config_default(hs_reader_config_t *cfg)
{
    cfg->node_budget = 20000;
    cfg->max_depth = 24;
    cfg->tt_bits = 16;
    cfg->use_ladder = true;
    cfg->use_ordering = true;
    cfg->use_tt = true;
    cfg->use_loose = true;
}

hs_reader_t *hs_reader_new(const hs_reader_config_t *cfg)
{
    hs_reader_t *r = calloc(1, sizeof *r);
    if (!r)
        goto fail;
    if (cfg)
        r->cfg = *cfg;
    else
        hs_reader_config_default(&r->cfg);
    if (r->cfg.tt_bits < 10) r->cfg.tt_bits = 10;
    if (r->cfg.tt_bits > 24) r->cfg.tt_bits = 24;
    if (r->cfg.max_depth < 1) r->cfg.max_depth = 1;
    if (r->cfg.max_depth > S_MAX_PLY - 2) r->cfg.max_depth = S_MAX_PLY - 2;
    if (r->cfg.node_budget < 1) r->cfg.node_budget = 1;
    r->tt_mask = ((size_t)1 << r->cfg.tt_bits) - 1;
    r->tt = calloc(r->tt_mask + 1, sizeof *r->tt);
    r->boards = malloc((S_MAX_PLY + 1) * sizeof *r->boards);
    r->ladder = malloc(S_LADDER_DEPTH * sizeof *r->ladder);
    if (!r->tt || !r->boards || !r->ladder)
        goto fail;
    return r;
fail:
    hs_reader_destroy(&r);
    return NULL;
}

void hs_reader_destroy(hs_reader_t **r_p)
{
    if (!r_p || !*r_p)
        return;
    free((*r_p)->tt);
    free((*r_p)->boards);
    free((*r_p)->ladder);
    free(*r_p);
    *r_p = NULL;
}

const hs_reader_config_t *hs_reader_config(const hs_reader_t *r) { return &r->cfg; }

long hs_reader_set_node_budget(hs_reader_t *r, long budget)
{
    long old = r->cfg.node_budget;
    r->cfg.node_budget = budget < 1 ? 1 : budget;
    return old;
}

bool hs_reader_set_loose(hs_reader_t *r, bool on)
{
    bool old = r->cfg.use_loose;
    r->cfg.use_loose = on;
    return old;
}

void hs_reader_clear(hs_reader_t *r)
{
    memset(r->tt, 0, (r->tt_mask + 1) * sizeof *r->tt);
}

/* ---- Small board helpers ---- */

static const int s_dirs_count = 4;

static inline int s_nb(const hs_board_t *b, int i)
{
    switch (i) {
    case 0: return -b->stride;
    case 1: return -1;
    case 2: return 1;
    default: return b->stride;
    }
}

static bool s_add_unique(hs_point_t *list, int *n, int max, hs_point_t p)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == p)
            return false;
    if (*n >= max)
        return false;
    list[(*n)++] = p;
    return true;
}

/* Heads of the distinct strings of colour c next to the string through p. */
static int s_adjacent_strings(const hs_board_t *b, hs_point_t p, hs_color_t c, hs_point_t *heads,
                              int max)
{
    int n = 0;
    hs_point_t s = p;
    do {
        for (int i = 0; i < s_dirs_count; i++) {
            hs_point_t q = (hs_point_t)(s + s_nb(b, i));
            if (b->color[q] == c)
                s_add_unique(heads, &n, max, b->head[q]);
        }
        s = b->next[s];
    } while (s != p);
    return n;
}

static bool s_play(hs_board_t *b, hs_color_t c, hs_point_t p)
{
    if (hs_board_legal(b, c, p, 0) != HS_LEGAL)
        return false;
    return hs_board_play(b, c, p, 0, NULL) == 0;
}

/* A copy of src with `side` to move (a pass by the other side when needed). */
static void s_copy_to_move(hs_board_t *dst, const hs_board_t *src, hs_color_t side)
{
    *dst = *src;
    if (dst->to_move != side)
        hs_board_play(dst, hs_color_other(side), HS_PASS, 0, NULL);
}

/* ---- The ladder ----
 * Boards of the ladder line live in a caller-provided stack (one per ply, at
 * most S_LADDER_DEPTH) rather than on the C stack: a 19x19 ladder is ~80 plies
 * and a board is ~9 KB. A line deeper than the stack is "not proven". */

typedef struct s_ladder {
    hs_board_t *stack;   /* S_LADDER_DEPTH boards */
    long nodes, max;
} s_ladder_t;

static bool s_ladder_defender(s_ladder_t *L, int d, const hs_board_t *b, hs_point_t target);

/* Attacker to move, target with 2 liberties: is there an atari that works? */
static bool s_ladder_attacker(s_ladder_t *L, int d, const hs_board_t *b, hs_point_t target,
                              hs_point_t *move)
{
    hs_color_t def = (hs_color_t)b->color[target];
    hs_color_t att = hs_color_other(def);
    hs_point_t libs[2];
    if (d >= S_LADDER_DEPTH || hs_board_string_liberties(b, target, libs, 2) != 2 ||
        hs_board_libs(b, target) != 2)
        return false;
    hs_board_t *nb = &L->stack[d];
    for (int i = 0; i < 2; i++) {
        if (++L->nodes > L->max)
            return false;
        *nb = *b;
        if (!s_play(nb, att, libs[i]) || hs_board_libs(nb, target) != 1)
            continue;
        /* An atari stone that is itself in atari is simply captured in a ladder
         * unless capturing it fails; the defender node reads that. */
        if (s_ladder_defender(L, d + 1, nb, target)) {
            if (move)
                *move = libs[i];
            return true;
        }
    }
    return false;
}

/* Defender (colour of target) to move, target in atari. True when every
 * defence (extend at the liberty, capture an adjacent attacker string in
 * atari) is answered by an atari that keeps the ladder going to capture. */
static bool s_ladder_defender(s_ladder_t *L, int d, const hs_board_t *b, hs_point_t target)
{
    if (d >= S_LADDER_DEPTH)
        return false;
    hs_color_t def = (hs_color_t)b->color[target];
    hs_color_t att = hs_color_other(def);
    hs_point_t cand[16];
    int n = 0;
    hs_point_t heads[16];
    int nh = s_adjacent_strings(b, target, att, heads, 16);
    for (int i = 0; i < nh; i++)
        if (b->libs[heads[i]] == 1) {
            hs_point_t lib;
            hs_board_string_liberties(b, heads[i], &lib, 1);
            s_add_unique(cand, &n, 16, lib);
        }
    hs_point_t lib;
    hs_board_string_liberties(b, target, &lib, 1);
    s_add_unique(cand, &n, 16, lib);
    hs_board_t *nb = &L->stack[d];
    for (int i = 0; i < n; i++) {
        if (++L->nodes > L->max)
            return false;
        *nb = *b;
        if (!s_play(nb, def, cand[i]))
            continue;
        int libs = hs_board_libs(nb, target);
        if (libs >= 3)
            return false;           /* escaped */
        if (libs == 1) {
            /* Still in atari: captured, unless ko forbids the capture. */
            hs_point_t last;
            hs_board_string_liberties(nb, target, &last, 1);
            if (hs_board_legal(nb, att, last, 0) != HS_LEGAL)
                return false;
            continue;
        }
        if (!s_ladder_attacker(L, d + 1, nb, target, NULL))
            return false;           /* no atari keeps the ladder going */
    }
    return true;
}

bool hs_ladder_captures(const hs_board_t *b, hs_point_t target, bool attacker_first,
                        hs_point_t *move, long max_nodes)
{
    if (!hs_board_on_board(b, target) || (b->color[target] != HS_BLACK && b->color[target] != HS_WHITE))
        return false;
    hs_color_t def = (hs_color_t)b->color[target];
    hs_color_t att = hs_color_other(def);
    s_ladder_t L = { .stack = malloc((S_LADDER_DEPTH + 1) * sizeof(hs_board_t)), .max = max_nodes };
    if (!L.stack)
        return false;
    hs_board_t *root = &L.stack[S_LADDER_DEPTH];
    bool caught = false;
    if (attacker_first) {
        s_copy_to_move(root, b, att);
        if (hs_board_libs(b, target) == 1) {
            hs_point_t lib;
            hs_board_string_liberties(b, target, &lib, 1);
            caught = s_play(root, att, lib);
            if (caught && move)
                *move = lib;
        } else {
            caught = s_ladder_attacker(&L, 0, root, target, move);
        }
    } else if (hs_board_libs(b, target) == 1) {
        s_copy_to_move(root, b, def);
        caught = s_ladder_defender(&L, 0, root, target);
        if (caught && move)
            *move = HS_PASS;
    }
    free(L.stack);
    return caught;
}

/* ---- The reader's search ---- */

static uint64_t s_key(const hs_reader_t *r, const hs_board_t *b)
{
    return hs_board_key(b) ^ r->target_mix;
}

/* Candidate moves of `side` in generation order. */
static int s_candidates(const hs_reader_t *r, const hs_board_t *b, hs_color_t side, hs_point_t *out)
{
    int n = 0;
    hs_point_t t = r->target;
    hs_point_t libs[8];
    int nl = hs_board_string_liberties(b, t, libs, 8);
    hs_point_t heads[32];
    int nh = s_adjacent_strings(b, t, r->attacker, heads, 32);
    if (side == r->attacker) {
        for (int i = 0; i < nl; i++)
            s_add_unique(out, &n, S_MAX_CAND, libs[i]);
        if (nl == 2) {
            for (int i = 0; i < nl; i++)
                for (int d = 0; d < 4; d++) {
                    hs_point_t q = (hs_point_t)(libs[i] + s_nb(b, d));
                    if (b->color[q] == HS_EMPTY)
                        s_add_unique(out, &n, S_MAX_CAND, q);
                }
        } else if (nl == 3) {
            /* Net points of a 3-liberty string: empty points next to two or
             * more of its liberties. One stone there covers two escape
             * routes at once (a geta or loose ladder); every other non-liberty
             * covers at most one and is left to the 2-liberty rule above. */
            for (int i = 0; i < nl; i++)
                for (int d = 0; d < 4; d++) {
                    hs_point_t q = (hs_point_t)(libs[i] + s_nb(b, d));
                    if (b->color[q] != HS_EMPTY)
                        continue;
                    int touch = 0;
                    for (int e = 0; e < 4; e++) {
                        hs_point_t w = (hs_point_t)(q + s_nb(b, e));
                        touch += w == libs[0] || w == libs[1] || w == libs[2];
                    }
                    if (touch >= 2)
                        s_add_unique(out, &n, S_MAX_CAND, q);
                }
        }
        /* Strengthen the attacker's own weak strings around the target
         * (a cutting stone in atari or with two liberties). */
        for (int i = 0; i < nh; i++)
            if (b->libs[heads[i]] <= 2) {
                hs_point_t l2[2];
                int k = hs_board_string_liberties(b, heads[i], l2, 2);
                for (int j = 0; j < k; j++)
                    s_add_unique(out, &n, S_MAX_CAND, l2[j]);
            }
    } else {
        for (int i = 0; i < nh; i++)
            if (b->libs[heads[i]] == 1) {
                hs_point_t lib;
                hs_board_string_liberties(b, heads[i], &lib, 1);
                s_add_unique(out, &n, S_MAX_CAND, lib);
            }
        for (int i = 0; i < nl; i++)
            s_add_unique(out, &n, S_MAX_CAND, libs[i]);
        if (nl == 2)  /* second-order liberties: run towards open space */
            for (int i = 0; i < nl; i++)
                for (int d = 0; d < 4; d++) {
                    hs_point_t q = (hs_point_t)(libs[i] + s_nb(b, d));
                    if (b->color[q] == HS_EMPTY)
                        s_add_unique(out, &n, S_MAX_CAND, q);
                }
        if (nl <= 3)
            for (int i = 0; i < nh; i++)
                if (b->libs[heads[i]] == 2) {
                    hs_point_t l2[2];
                    int k = hs_board_string_liberties(b, heads[i], l2, 2);
                    for (int j = 0; j < k; j++)
                        s_add_unique(out, &n, S_MAX_CAND, l2[j]);
                }
        s_add_unique(out, &n, S_MAX_CAND, HS_PASS);
    }
    return n;
}

/* Ordering score of `side` playing p (already known legal) from b. */
static int s_score_move(hs_reader_t *r, const hs_board_t *b, hs_color_t side, hs_point_t p, int ply)
{
    if (p == HS_PASS)
        return -100000;
    hs_board_t *sb = &r->scratch;
    *sb = *b;
    int before = sb->captures[side];
    if (hs_board_play(sb, side, p, 0, NULL) != 0)
        return -200000;
    int caught = sb->captures[side] - before;
    int own = hs_board_libs(sb, p);
    int score;
    if (side == r->attacker) {
        if (sb->color[r->target] != r->defender)
            return 50000;
        score = 100 * (4 - hs_board_libs(sb, r->target)) + 20 * caught + 10 * (own < 3 ? own : 3);
    } else {
        score = 100 * hs_board_libs(sb, r->target) + 30 * caught + 5 * (own < 3 ? own : 3);
    }
    if (ply < S_MAX_PLY && (r->killers[ply][0] == p || r->killers[ply][1] == p))
        score += 50;
    return score;
}

/*
 * Escape room of a string: the empty points next to its liberties that are not
 * liberties themselves (its second-order liberties). A 4-liberty string in
 * the open has 6 or more; one chased along an edge or a wall has few, and
 * only then is reading on at 4 liberties worth its cost.
 */
static int s_escape_room(const hs_board_t *b, hs_point_t target)
{
    hs_point_t libs[HS_READER_SAFE_LIBS + 1], room[4 * (HS_READER_SAFE_LIBS + 1)];
    int nl = hs_board_string_liberties(b, target, libs, HS_READER_SAFE_LIBS + 1), n = 0;
    for (int i = 0; i < nl; i++)
        for (int d = 0; d < s_dirs_count; d++) {
            hs_point_t q = (hs_point_t)(libs[i] + s_nb(b, d));
            bool is_lib = false;
            for (int j = 0; j < nl; j++)
                is_lib |= libs[j] == q;
            if (b->color[q] == HS_EMPTY && !is_lib)
                s_add_unique(room, &n, 4 * (HS_READER_SAFE_LIBS + 1), q);
        }
    return n;
}

/*
 * The attacker's moves against a target at HS_READER_SAFE_LIBS liberties (the
 * loose-ladder step): a liberty of the target that leaves it exactly one
 * liberty fewer (no liberties gained through the new contact) and is not a
 * self-atari. Anything weaker lets the target out, so the model calls it safe.
 */
static bool s_loose_ok(hs_reader_t *r, const hs_board_t *b, hs_point_t p)
{
    if (p == HS_PASS)
        return false;
    bool is_lib = false;
    for (int d = 0; d < s_dirs_count; d++) {
        hs_point_t q = (hs_point_t)(p + s_nb(b, d));
        is_lib |= b->color[q] == r->defender && b->head[q] == b->head[r->target];
    }
    if (!is_lib)
        return false;
    hs_board_t *sb = &r->scratch;
    *sb = *b;
    if (hs_board_play(sb, r->attacker, p, 0, NULL) != 0 || sb->color[r->target] != r->defender)
        return false;
    return hs_board_libs(sb, r->target) == HS_READER_SAFE_LIBS - 1 && hs_board_libs(sb, p) >= 2 &&
           s_escape_room(sb, r->target) <= S_LOOSE_ROOM - 1;
}

static int s_search(hs_reader_t *r, const hs_board_t *b, hs_color_t side, int depth, int ply,
                    int alpha, int beta, hs_point_t *best)
{
    r->nodes++;
    *best = HS_NO_POINT;
    if (b->color[r->target] != r->defender)
        return 1;
    int libs = hs_board_libs(b, r->target);
    /* Loose ladders: a target with exactly HS_READER_SAFE_LIBS liberties is
     * safe only when its owner is to move; with the attacker to move it is
     * read on, the attacker limited to liberty moves that take it straight
     * back to 3 (see s_loose_ok). More liberties are always safe. */
    bool loose = false;
    if (libs >= HS_READER_SAFE_LIBS) {
        if (libs > HS_READER_SAFE_LIBS || side != r->attacker || !r->loose_on ||
            r->loose_steps >= S_LOOSE_STEPS || s_escape_room(b, r->target) > S_LOOSE_ROOM)
            return -1;
        loose = true;
    }
    if (side == r->attacker && libs == 1) {
        hs_point_t lib;
        hs_board_string_liberties(b, r->target, &lib, 1);
        if (hs_board_legal(b, side, lib, 0) == HS_LEGAL) {
            *best = lib;
            return 1;
        }
    }
    if (side == r->defender && libs == 1 && r->cfg.use_ladder) {
        s_ladder_t L = { .stack = r->ladder, .max = S_LADDER_NODES };
        bool caught = s_ladder_defender(&L, 0, b, r->target);
        r->nodes += L.nodes;
        if (caught)
            return 1;
    }
    if (depth <= 0 || ply >= S_MAX_PLY - 1)
        return 0;
    if (r->nodes >= r->budget) {
        r->stop = true;
        return 0;
    }

    uint64_t key = s_key(r, b);
    s_tt_entry_t *e = r->cfg.use_tt ? &r->tt[key & r->tt_mask] : NULL;
    hs_point_t tt_move = HS_NO_POINT;
    if (e && e->key == key) {
        tt_move = e->move;
        bool proven = e->value != 0;
        if (proven || e->depth >= depth) {
            /* +1 is the largest value and -1 the smallest: such bounds are exact. */
            bool exact = e->flag == S_TT_EXACT || (e->flag == S_TT_LOWER && e->value == 1) ||
                         (e->flag == S_TT_UPPER && e->value == -1);
            if (exact) { *best = e->move; return e->value; }
            if (e->flag == S_TT_LOWER && e->value >= beta) { *best = e->move; return e->value; }
            if (e->flag == S_TT_UPPER && e->value <= alpha) { *best = e->move; return e->value; }
        }
    }

    hs_point_t cand[S_MAX_CAND];
    int score[S_MAX_CAND];
    int n = s_candidates(r, b, side, cand);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (hs_board_legal(b, side, cand[i], 0) != HS_LEGAL)
            continue;
        if (loose && !s_loose_ok(r, b, cand[i]))
            continue;
        cand[m] = cand[i];
        if (r->cfg.use_ordering) {
            score[m] = s_score_move(r, b, side, cand[m], ply);
            if (cand[m] == tt_move)
                score[m] += 1000000;
        } else {
            score[m] = -m;
        }
        m++;
    }
    if (m == 0)
        return side == r->attacker ? -1 : 1;
    /* Insertion sort, best first (m is small). */
    for (int i = 1; i < m; i++) {
        hs_point_t pc = cand[i];
        int sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) {
            cand[j + 1] = cand[j];
            score[j + 1] = score[j];
            j--;
        }
        cand[j + 1] = pc;
        score[j + 1] = sc;
    }

    bool maximize = side == r->attacker;
    int best_v = maximize ? -2 : 2;
    int a0 = alpha, b0 = beta;
    hs_board_t *child = &r->boards[ply + 1];
    for (int i = 0; i < m; i++) {
        *child = *b;
        if (hs_board_play(child, side, cand[i], 0, NULL) != 0)
            continue;
        hs_point_t dummy;
        r->loose_steps += loose;
        int v = s_search(r, child, hs_color_other(side), depth - 1, ply + 1, alpha, beta, &dummy);
        r->loose_steps -= loose;
        if (r->stop)
            return 0;
        if (maximize ? v > best_v : v < best_v) {
            best_v = v;
            *best = cand[i];
        }
        if (maximize) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
        if (alpha >= beta) {
            if (r->cfg.use_ordering && ply < S_MAX_PLY && r->killers[ply][0] != cand[i]) {
                r->killers[ply][1] = r->killers[ply][0];
                r->killers[ply][0] = cand[i];
            }
            break;
        }
    }
    if (best_v == 2 || best_v == -2)  /* every move failed to play (cannot happen) */
        best_v = 0;
    if (e) {
        e->key = key;
        e->value = (int8_t)best_v;
        e->depth = (uint8_t)depth;
        e->move = *best;
        e->flag = best_v <= a0 ? S_TT_UPPER : best_v >= b0 ? S_TT_LOWER : S_TT_EXACT;
    }
    return best_v;
}

/* Iterative deepening of one pass; fills out->result, move and depth. */
static void s_deepen(hs_reader_t *r, const hs_board_t *root, bool attacker_first, hs_tactic_t *out)
{
    hs_color_t first = attacker_first ? r->attacker : r->defender;
    for (int d = 1; d <= r->cfg.max_depth; d++) {
        hs_point_t best;
        int v = s_search(r, root, first, d, 0, -2, 2, &best);
        if (r->stop)
            break;
        out->depth = d;
        if (v != 0) {
            bool captured = v > 0;
            out->result = captured ? HS_TACTIC_CAPTURED : HS_TACTIC_SAVED;
            /* The winner's first move: the attacker's when captured with the
             * attacker first; the defender's when saved with the defender
             * first. A safe string needs no move (HS_PASS). */
            out->move = attacker_first == captured ? (best == HS_NO_POINT ? HS_PASS : best)
                                                   : HS_NO_POINT;
            break;
        }
        if (r->nodes >= r->budget)
            break;
    }
}

static int s_read(hs_reader_t *r, const hs_board_t *b, hs_point_t target, bool attacker_first,
                  hs_tactic_t *out, hs_error_t *err)
{
    out->result = HS_TACTIC_UNKNOWN;
    out->move = HS_NO_POINT;
    out->nodes = 0;
    out->depth = 0;
    if (!r || !b || !hs_board_on_board(b, target) ||
        (b->color[target] != HS_BLACK && b->color[target] != HS_WHITE))
        return hs_error_set(err, HS_EINVAL, "reader: target is not a stone on the board");
    r->target = target;
    r->defender = (hs_color_t)b->color[target];
    r->attacker = hs_color_other(r->defender);
    /* Mix the target (its first stone) into the key so queries on different
     * strings of one position never share entries. */
    r->target_mix = (uint64_t)(target + 1) * 0x9E3779B97F4A7C15ull;
    r->nodes = 0;
    r->budget = r->cfg.node_budget;
    r->stop = false;
    r->loose_steps = 0;
    memset(r->killers, 0, sizeof r->killers);

    hs_color_t first = attacker_first ? r->attacker : r->defender;
    hs_board_t *root = &r->boards[0];
    s_copy_to_move(root, b, first);
    r->loose_on = false;
    s_deepen(r, root, attacker_first, out);
    /* Second pass, loose ladders on, only where the plain model did not
     * prove a capture: its own table entries (another key mix) and at most
     * half the budget, within what is left of the query's budget. Only a
     * capture proven here replaces the first answer: the loose model gives
     * the attacker more moves, so its captures are proofs too, and a
     * first-pass "saved" stays when the loose pass finds no capture. */
    if (r->cfg.use_loose && out->result != HS_TACTIC_CAPTURED && r->nodes < r->cfg.node_budget) {
        long left = r->cfg.node_budget - r->nodes, half = r->cfg.node_budget / 2;
        r->budget = r->nodes + (left < half ? left : half);
        r->stop = false;
        r->loose_on = true;
        r->target_mix ^= 0xD1B54A32D192ED03ull;
        memset(r->killers, 0, sizeof r->killers);
        hs_tactic_t loose = *out;
        s_deepen(r, root, attacker_first, &loose);
        if (loose.result == HS_TACTIC_CAPTURED) {
            out->result = loose.result;
            out->move = loose.move;
            out->depth = loose.depth;
        }
        r->loose_on = false;
    }
    out->nodes = r->nodes;
    return 0;
}

int hs_reader_attack(hs_reader_t *r, const hs_board_t *b, hs_point_t target, hs_tactic_t *out,
                     hs_error_t *err)
{
    return s_read(r, b, target, true, out, err);
}

int hs_reader_defend(hs_reader_t *r, const hs_board_t *b, hs_point_t target, hs_tactic_t *out,
                     hs_error_t *err)
{
    return s_read(r, b, target, false, out, err);
}

/* ---- Generic minimax / alpha-beta ---- */

int hs_minimax(const hs_search_game_t *g, int depth, long *nodes)
{
    ++*nodes;
    int moves[HS_SEARCH_MAX_MOVES];
    int n = depth > 0 ? g->gen(g->state, moves) : 0;
    if (n == 0)
        return g->eval(g->state);
    bool maximize = g->max_to_move(g->state);
    int best = maximize ? -HS_SEARCH_INF : HS_SEARCH_INF;
    for (int i = 0; i < n; i++) {
        g->play(g->state, moves[i]);
        int v = hs_minimax(g, depth - 1, nodes);
        g->undo(g->state, moves[i]);
        if (maximize ? v > best : v < best)
            best = v;
    }
    return best;
}

int hs_alphabeta(const hs_search_game_t *g, int depth, int alpha, int beta, bool order, long *nodes)
{
    ++*nodes;
    int moves[HS_SEARCH_MAX_MOVES];
    int n = depth > 0 ? g->gen(g->state, moves) : 0;
    if (n == 0)
        return g->eval(g->state);
    bool maximize = g->max_to_move(g->state);
    if (order && n > 1) {
        /* Static one-ply ordering: best child for the mover first. */
        int key[HS_SEARCH_MAX_MOVES];
        for (int i = 0; i < n; i++) {
            g->play(g->state, moves[i]);
            key[i] = g->eval(g->state);
            g->undo(g->state, moves[i]);
            if (!maximize)
                key[i] = -key[i];
        }
        for (int i = 1; i < n; i++) {
            int mv = moves[i], k = key[i], j = i - 1;
            while (j >= 0 && key[j] < k) {
                moves[j + 1] = moves[j];
                key[j + 1] = key[j];
                j--;
            }
            moves[j + 1] = mv;
            key[j + 1] = k;
        }
    }
    int best = maximize ? -HS_SEARCH_INF : HS_SEARCH_INF;
    for (int i = 0; i < n; i++) {
        g->play(g->state, moves[i]);
        int v = hs_alphabeta(g, depth - 1, alpha, beta, order, nodes);
        g->undo(g->state, moves[i]);
        if (maximize) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta)
            break;
    }
    return best;
}
