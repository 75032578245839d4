/*
 * worker/mcts_eval_playout.c — one leaf of the rollout evaluator
 * (worker/mcts_eval.h): its cheap prior and its playouts.
 *
 * The playout policy, per move, in this order:
 *   1. capture the biggest opponent string in atari (not at the ko point);
 *   2. extend the biggest own string in atari when the extension leaves it
 *      three liberties, or two and the fast ladder reader (hs_ladder_captures)
 *      cannot catch it;
 *   3. with shapes (pat3): one of the last move's 8 empty neighbours whose
 *      3x3 neighbourhood fits a shape (worker/mcts_pat3.c), at random among
 *      those that step 4 would also accept;
 *   4. a random legal move that is not suicide, not the mover's own eye
 *      (hs_board_is_eye's test) and not a self-atari of a string of more than
 *      self_atari_max stones;
 *   5. pass when nothing is left.
 * Steps 1 and 2 see every string in atari on the board, not only the last
 * move's neighbours: a string left in atari earlier stays a target until it
 * is taken. A list kept move by move (s_atari_t) gives them without a scan.
 *
 * Speed: the board's play is the hot path. The ladder read is the dear
 * part (hs_ladder_captures allocates its ~1 MB of boards per call); it runs
 * only for escapes that leave exactly two liberties, which bench_rollout's
 * 9x9 and 19x19 playouts met about 3.6 times a playout.
 */
#include <math.h>
#include <string.h>

#include "core/rng.h"
#include "core/score.h"
#include "worker/mcts_eval_internal.h"
#include "worker/nn/eval.h"
#include "worker/tactics.h"

/* Ladder nodes per escape check (about two per ply of a plain ladder); a
 * longer read is unproven and counts as an escape, an error playouts can
 * afford for their speed. */
#define S_LADDER_NODES 200
/* Prior weights: a legal move 1, pass S_PRIOR_PASS (a rollout search should
 * not spend its first visits on passing, but must be able to find that
 * passing ends a won game), captures and escapes S_PRIOR_TACTIC plus the
 * stones at stake (capped), the third and fourth lines times S_PRIOR_LINE. */
#define S_PRIOR_PASS 0.1f
#define S_PRIOR_TACTIC 4.0f
#define S_PRIOR_STAKE_MAX 8
#define S_PRIOR_LINE 1.5f

typedef struct s_leaf {
    hs_rng_t rng;
    int self_atari_max;
    const hs__mcts_pat3_t *pat3;   /* NULL: no shapes */
    hs_board_t scratch;      /* the board after an escape, for the ladder read */
} s_leaf_t;

static inline void s_add_unique(hs_point_t *set, int *n, hs_point_t p)
{
    for (int i = 0; i < *n; i++)
        if (set[i] == p)
            return;
    set[(*n)++] = p;
}

/* The liberties (counted up to 3) of me's string after playing p, its size
 * in *size, and whether the move captures (*captures). A capture's freed
 * points next to p count as liberties; others it frees are not counted, so
 * the figure may be low after a capture (callers do not reject captures). */
static int s_libs_after(const hs_board_t *b, hs_point_t p, uint8_t me, int *size, bool *captures)
{
    const int stride = b->stride;
    const hs_point_t q4[4] = { (hs_point_t)(p - stride), (hs_point_t)(p - 1), (hs_point_t)(p + 1),
                               (hs_point_t)(p + stride) };
    hs_point_t libs[8], heads[4];
    int nl = 0, nh = 0, sz = 1;
    bool cap = false;
    for (int i = 0; i < 4; i++) {
        hs_point_t q = q4[i];
        uint8_t c = b->color[q];
        if (c == HS_EMPTY) {
            libs[nl++] = q;
        } else if (c == me) {
            hs_point_t h = b->head[q];
            int before = nh;
            s_add_unique(heads, &nh, h);
            if (nh > before)
                sz += b->stones[h];
        } else if (c != HS_OFFBOARD && b->libs[b->head[q]] == 1) {
            cap = true;
            libs[nl++] = q;
        }
    }
    *size = sz;
    *captures = cap;
    for (int i = 0; i < nh && nl < 3; i++) {
        if (b->libs[heads[i]] >= 4)
            return 3;    /* loses at most p */
        hs_point_t hl[3];
        int k = hs_board_string_liberties(b, heads[i], hl, 3);
        for (int j = 0; j < k; j++)
            if (hl[j] != p)
                s_add_unique(libs, &nl, hl[j]);
    }
    return nl < 3 ? nl : 3;
}

/* Whether extending me's string in atari at its liberty p saves it for the
 * playout: three liberties, or two and no ladder. */
static bool s_escape_ok(s_leaf_t *L, const hs_board_t *b, hs_point_t p, uint8_t me)
{
    if (p == b->ko && me == b->to_move)
        return false;
    int size;
    bool cap;
    int libs = s_libs_after(b, p, me, &size, &cap);
    if (libs >= 3)
        return true;
    if (libs <= 1)
        return false;
    hs_board_copy(&L->scratch, b);
    hs_board_play_legal(&L->scratch, (hs_color_t)me, p);
    return !hs_ladder_captures(&L->scratch, p, true, NULL, S_LADDER_NODES);
}

/* Strings in atari: one stone of each (any stone; its head is looked up
 * when read). A string gets into atari only through a move next to it or
 * into it, so the playout adds the mover's string and the strings next to
 * the move after every move (s_note) and drops entries that left atari or
 * the board when it reads them (s_tactical): the list always holds every
 * string in atari, without a scan of the board per move. */
#define S_ATARI_MAX 64

typedef struct s_atari {
    int n;
    hs_point_t stone[S_ATARI_MAX];
} s_atari_t;

static inline bool s_in_atari(const hs_board_t *b, hs_point_t p)
{
    uint8_t c = b->color[p];
    return (c == HS_BLACK || c == HS_WHITE) && b->libs[b->head[p]] == 1;
}

static inline void s_atari_add(s_atari_t *A, const hs_board_t *b, hs_point_t p)
{
    hs_point_t h = b->head[p];
    for (int i = 0; i < A->n; i++)
        if (b->head[A->stone[i]] == h && b->color[A->stone[i]] == b->color[p])
            return;
    if (A->n < S_ATARI_MAX)
        A->stone[A->n++] = p;
}

/* After a move at p: the strings it may have put in atari. */
static void s_note(s_atari_t *A, const hs_board_t *b, hs_point_t p)
{
    if (s_in_atari(b, p))
        s_atari_add(A, b, p);
    const int stride = b->stride;
    const hs_point_t q4[4] = { (hs_point_t)(p - stride), (hs_point_t)(p - 1), (hs_point_t)(p + 1),
                               (hs_point_t)(p + stride) };
    for (int k = 0; k < 4; k++)
        if (s_in_atari(b, q4[k]))
            s_atari_add(A, b, q4[k]);
}

/* Every string in atari on b (a playout's first list). */
static void s_atari_scan(s_atari_t *A, const hs_board_t *b)
{
    A->n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            if (s_in_atari(b, p))
                s_atari_add(A, b, p);
        }
}

/* Steps 1 and 2 of the policy: the capture or escape to play, or HS_NO_POINT.
 * Compacts the list to the strings still in atari on the way. */
static hs_point_t s_tactical(s_leaf_t *L, s_atari_t *A, const hs_board_t *b, uint8_t me)
{
    hs_point_t cap_p = HS_NO_POINT, esc_p[S_ATARI_MAX];
    int cap_size = 0, esc_size[S_ATARI_MAX], nesc = 0, kept = 0;
    for (int i = 0; i < A->n; i++) {
        hs_point_t s = A->stone[i];
        if (!s_in_atari(b, s))
            continue;
        A->stone[kept++] = s;
        hs_point_t lib;
        hs_board_string_liberties(b, s, &lib, 1);
        int size = b->stones[b->head[s]];
        if (b->color[s] != me) {
            if (size > cap_size && lib != b->ko) {
                cap_size = size;
                cap_p = lib;
            }
        } else {
            esc_p[nesc] = lib;
            esc_size[nesc++] = size;
        }
    }
    A->n = kept;
    if (cap_p != HS_NO_POINT)
        return cap_p;
    /* Biggest string first: pick the largest untried one each round. */
    for (int round = 0; round < nesc; round++) {
        int best = 0;
        for (int k = 1; k < nesc; k++)
            if (esc_size[k] > esc_size[best])
                best = k;
        if (esc_size[best] < 0)
            break;
        if (s_escape_ok(L, b, esc_p[best], me))
            return esc_p[best];
        esc_size[best] = -1;
    }
    return HS_NO_POINT;
}

/* Legal for me (no suicide, simple ko) and not me's own eye. */
static inline bool s_candidate(const hs_board_t *b, hs_point_t p, uint8_t me)
{
    if (b->nbr[p] & 15)
        return true;      /* an empty neighbour: not an eye, not suicide, not ko */
    if (p == b->ko)
        return false;
    if (hs_board_is_eye(b, p, (hs_color_t)me))
        return false;
    return hs_board_legal(b, (hs_color_t)me, p, 0) == HS_LEGAL;
}

/* A self-atari the policy refuses: one liberty left, no capture, and more
 * than self_atari_max stones in atari (small throw-ins stay allowed). */
static inline bool s_bad_self_atari(const s_leaf_t *L, const hs_board_t *b, hs_point_t p, uint8_t me)
{
    if (hs_board_nbr_count(b, p, HS_EMPTY) >= 2)
        return false;
    int size;
    bool cap;
    int libs = s_libs_after(b, p, me, &size, &cap);
    return !cap && libs <= 1 && size > L->self_atari_max;
}

/* Step 3: a shape answering the last move, or HS_NO_POINT. */
static hs_point_t s_shape(s_leaf_t *L, const hs_board_t *b, uint8_t me)
{
    hs_point_t last = b->last_move;
    if (!L->pat3 || last == HS_PASS || last == HS_NO_POINT)
        return HS_NO_POINT;
    const int s = b->stride;
    const hs_point_t around[8] = { (hs_point_t)(last - s - 1), (hs_point_t)(last - s),
                                   (hs_point_t)(last - s + 1), (hs_point_t)(last - 1),
                                   (hs_point_t)(last + 1),     (hs_point_t)(last + s - 1),
                                   (hs_point_t)(last + s),     (hs_point_t)(last + s + 1) };
    hs_point_t fit[8];
    int n = 0;
    for (int k = 0; k < 8; k++) {
        hs_point_t q = around[k];
        if (b->color[q] == HS_EMPTY && hs__mcts_pat3_match(L->pat3, b, q)
            && s_candidate(b, q, me) && !s_bad_self_atari(L, b, q, me))
            fit[n++] = q;
    }
    return n ? fit[hs_rng_below(&L->rng, (uint32_t)n)] : HS_NO_POINT;
}

/* Step 4: a random acceptable move from a random start in the empty list. */
static hs_point_t s_random(s_leaf_t *L, const hs_board_t *b, uint8_t me)
{
    const int n = b->num_empty;
    if (n == 0)
        return HS_PASS;
    int i = (int)hs_rng_below(&L->rng, (uint32_t)n);
    for (int k = 0; k < n; k++) {
        hs_point_t p = b->empty[i];
        if (s_candidate(b, p, me) && !s_bad_self_atari(L, b, p, me))
            return p;
        if (++i == n)
            i = 0;
    }
    return HS_PASS;
}

/* Plays the policy on b to two passes or 3 * size * size moves; A holds
 * b's strings in atari. */
static void s_playout(s_leaf_t *L, s_atari_t *A, hs_board_t *b, uint8_t *first)
{
    const int max_moves = 3 * b->size * b->size;
    for (int m = 0; m < max_moves && b->passes < 2; m++) {
        const uint8_t me = (uint8_t)b->to_move;
        hs_point_t p = A->n ? s_tactical(L, A, b, me) : HS_NO_POINT;
        if (p == HS_NO_POINT)
            p = s_shape(L, b, me);
        if (p == HS_NO_POINT)
            p = s_random(L, b, me);
        if (p == HS_PASS) {
            hs_board_play(b, (hs_color_t)me, HS_PASS, 0, NULL);
        } else {
            int v = hs_board_y(b, p) * b->size + hs_board_x(b, p);
            if (!first[v])
                first[v] = me;   /* AMAF: who played here first */
            hs_board_play_legal(b, (hs_color_t)me, p);
            s_note(A, b, p);
        }
    }
}

/* AMAF: every point's first player in this playout gets its result. */
static void s_amaf_add(hs_mcts_eval_t *out, const uint8_t *first, int area, double black_result)
{
    for (int v = 0; v < area; v++) {
        if (!first[v])
            continue;
        int c = first[v] - 1;
        out->amaf_n[c][v] += 1.0f;
        out->amaf_value[c][v] += (float)(c == 0 ? black_result : -black_result);
    }
}

/* The Tromp-Taylor owner of every point (+1 Black, -1 White, 0 neither)
 * added into own[y * n + x]; returns Black's area minus White's. Points whose
 * neighbours decide them are counted directly; a region bigger than one point
 * (rare after a playout) sends the whole board through hs_score_ownership. */
static int s_count(const hs_board_t *b, int *own)
{
    const int n = b->size;
    int8_t o[HS_MCTS_MAX_AREA];
    bool regions = false;
    for (int y = 0; y < n && !regions; y++)
        for (int x = 0; x < n; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            uint8_t c = b->color[p];
            if (c != HS_EMPTY) {
                o[y * n + x] = c == HS_BLACK ? 1 : -1;
            } else if (hs_board_nbr_count(b, p, HS_EMPTY)) {
                regions = true;
                break;
            } else {
                int nb = hs_board_nbr_count(b, p, HS_BLACK), nw = hs_board_nbr_count(b, p, HS_WHITE);
                o[y * n + x] = (int8_t)((nb && !nw) - (nw && !nb));
            }
        }
    if (regions) {
        uint8_t owner[HS_BOARD_MAX_POINTS];
        hs_score_ownership(b, NULL, owner);
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                uint8_t c = owner[hs_board_point(b, x, y)];
                o[y * n + x] = (int8_t)((c == HS_BLACK) - (c == HS_WHITE));
            }
    }
    int area = 0;
    for (int i = 0; i < n * n; i++) {
        own[i] += o[i];
        area += o[i];
    }
    return area;
}

/* The prior (see worker/mcts_eval.h): uniform over the legal moves, own eyes
 * and suicides 0 (no player looks there), pass small, captures and working
 * escapes boosted by the stones at stake, the third and fourth lines a
 * little. Illegal moves -1. */
static void s_prior(s_leaf_t *L, const hs_nn_pos_t *pos, const hs_board_t *b, float *policy)
{
    const int n = b->size;
    const uint8_t me = (uint8_t)pos->to_move, opp = (uint8_t)(3 - me);
    unsigned char legal[HS_MCTS_MAX_MOVES];
    hs_nn_legal_moves(pos, legal);
    float sum = 0.0f;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int v = y * n + x;
            hs_point_t p = hs_board_point(b, x, y);
            if (!legal[v]) {
                policy[v] = -1.0f;
                continue;
            }
            float w = 1.0f;
            if (hs_board_is_eye(b, p, (hs_color_t)me) || hs_board_legal(b, (hs_color_t)me, p, 0) != HS_LEGAL)
                w = 0.0f;
            int stake = 0;
            const hs_point_t q4[4] = { (hs_point_t)(p - b->stride), (hs_point_t)(p - 1),
                                       (hs_point_t)(p + 1), (hs_point_t)(p + b->stride) };
            for (int k = 0; k < 4; k++) {
                uint8_t c = b->color[q4[k]];
                if ((c == me || c == opp) && b->libs[b->head[q4[k]]] == 1
                    && (c == opp || s_escape_ok(L, b, p, me)))
                    stake += b->stones[b->head[q4[k]]];
            }
            if (stake && w > 0.0f)
                w = S_PRIOR_TACTIC + (float)(stake < S_PRIOR_STAKE_MAX ? stake : S_PRIOR_STAKE_MAX);
            int d = x < y ? x : y;
            d = d < n - 1 - x ? d : n - 1 - x;
            d = d < n - 1 - y ? d : n - 1 - y;
            if (d == 2 || d == 3)
                w *= S_PRIOR_LINE;
            policy[v] = w;
            sum += w;
        }
    policy[n * n] = S_PRIOR_PASS;
    sum += S_PRIOR_PASS;
    for (int v = 0; v <= n * n; v++)
        if (policy[v] > 0.0f)
            policy[v] /= sum;
    for (int v = n * n + 1; v < HS_MCTS_MAX_MOVES; v++)
        policy[v] = -1.0f;
}

void hs__mcts_rollout_leaf(const hs_nn_pos_t *pos, int playouts, int self_atari_max,
                           const hs__mcts_pat3_t *pat3, uint64_t seed, hs_mcts_eval_t *out)
{
    /* Static-free and reentrant: each pool thread calls this on its own
     * leaves; the boards (~30 KB) live on that thread's stack. */
    s_leaf_t L;
    hs_board_t start, work;
    hs_rng_seed(&L.rng, hs__mcts_mix(seed, hs__mcts_leaf_key(pos)));
    L.self_atari_max = self_atari_max;
    L.pat3 = pat3;
    hs_board_copy(&start, pos->board);
    if (start.to_move != pos->to_move) {
        /* The position names another mover than the board: the board's ko
         * point was the other side's ban, so none applies. */
        start.to_move = pos->to_move;
        start.ko = HS_NO_POINT;
    }
    s_prior(&L, pos, &start, out->policy);

    const int n = start.size, area = n * n;
    const double komi = hs_nn_white_komi(pos);
    const double sign = pos->to_move == HS_BLACK ? 1.0 : -1.0;
    int own[HS_MCTS_MAX_AREA] = {0};
    s_atari_t first, atari;
    s_atari_scan(&first, &start);
    double value = 0.0, sum = 0.0, sum_sq = 0.0;
    uint8_t played[HS_MCTS_MAX_AREA];
    memset(out->amaf_n, 0, sizeof out->amaf_n);
    memset(out->amaf_value, 0, sizeof out->amaf_value);
    for (int k = 0; k < playouts; k++) {
        hs_board_copy(&work, &start);
        atari = first;
        memset(played, 0, (size_t)area);
        s_playout(&L, &atari, &work, played);
        double margin = sign * ((double)s_count(&work, own) - komi);
        double result = (margin > 0.0) - (margin < 0.0);
        value += result;
        sum += margin;
        sum_sq += margin * margin;
        s_amaf_add(out, played, area, sign * result);
    }
    out->has_amaf = 1;
    out->amaf_playouts = (float)playouts;
    const double inv = playouts > 0 ? 1.0 / playouts : 0.0;
    out->value = (float)(value * inv);
    out->score = out->score_mean = (float)(sum * inv);
    double var = sum_sq * inv - (sum * inv) * (sum * inv);
    out->score_stdev = var > 0.0 ? (float)sqrt(var) : 0.0f;
    for (int i = 0; i < area; i++)
        out->ownership[i] = (float)(sign * own[i] * inv);
    for (int i = area; i < HS_MCTS_MAX_AREA; i++)
        out->ownership[i] = 0.0f;
}
