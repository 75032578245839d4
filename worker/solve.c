/*
 * worker/solve.c — exact solver for tiny boards (see solve.h for the method).
 *
 * Transposition entries come in two kinds. A history-independent entry is keyed
 * by hs_board_key mixed with the pass count and T; it is stored when no
 * superko prune in the explored subtree referred to a position above the node,
 * together with the subtree's core (the stones every explored position has).
 * On another path the same moves are pruned unless a path position equals one
 * of the subtree, and such a position would contain the core: so the entry is
 * used only when no position on the current path (other than the node's own)
 * contains the core. Results that did depend on the history are keyed with a
 * set hash of the path positions as well (under positional superko the future
 * of a node depends only on its position and that set); a hit on one counts as
 * depending on the whole history. A symmetry skip also makes a result
 * history-dependent (it relies on the path being symmetric).
 */
#include "worker/solve.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { S_TT_EXACT = 0, S_TT_LOWER = 1, S_TT_UPPER = 2 };
enum { S_SYM_PLIES = 12 };  /* plies at which the symmetry skip is tried */

/* Bitboard geometry of an N x N board (N <= 5): bit y*N + x per point. */
typedef struct s_geom {
    int n;
    uint32_t full;       /* all N*N bits */
    uint32_t not_first;  /* all bits but column x = 0 */
    uint32_t not_last;   /* all bits but column x = N-1 */
} s_geom_t;

typedef struct s_entry {
    uint64_t key;
    uint32_t core[2];  /* independent entries: stones common to the explored subtree */
    uint8_t indep;     /* keyed without the path set (see s_search) */
    int8_t value;
    uint8_t depth;
    uint8_t flag;
    hs_point_t move;
} s_entry_t;

typedef struct s_solver {
    hs_solve_config_t cfg;
    s_entry_t *tt;
    size_t mask;
    hs_board_t *boards;       /* one per ply */
    uint64_t *path;           /* stones hash of the position at each ply */
    hs_point_t (*killers)[2];
    hs_point_t order[32];     /* board points, centre first */
    int norder;
    s_geom_t geom;
    uint8_t pbit[HS_BOARD_MAX_POINTS]; /* board point -> bit y*N + x */
    uint32_t history[3][32];  /* [colour][bit]: history-heuristic scores */
    uint8_t sym_bit[8][32];   /* bit index under each of the 8 board symmetries */
    uint32_t (*pmask)[2];     /* black/white masks of the position at each ply */
    long bound_cuts;          /* nodes decided by the safe-area bounds */
    int T;
    long nodes;
    bool stop;
    int stop_code;
    struct timespec start;
    int lo, hi;               /* the bounds proven so far: lo <= V < hi */
    double reported;          /* seconds at the last progress call */
} s_solver_t;

void hs_solve_config_default(hs_solve_config_t *cfg)
{
    cfg->size = 3;
    cfg->max_depth = 80;
    cfg->max_nodes = 0;
    cfg->time_limit_s = 0;
    cfg->tt_bits = 22;
    cfg->use_bounds = true;
    cfg->use_history = true;
    cfg->use_indep = true;
    cfg->progress = NULL;
    cfg->progress_ctx = NULL;
}

static double s_elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static inline uint64_t s_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void s_geom_init(s_geom_t *g, int n)
{
    g->n = n;
    g->full = n * n >= 32 ? 0xffffffffu : (1u << (n * n)) - 1u;
    g->not_first = g->not_last = g->full;
    for (int y = 0; y < n; y++) {
        g->not_first &= ~(1u << (y * n));
        g->not_last &= ~(1u << (y * n + n - 1));
    }
}

static inline uint32_t s_nbrs(const s_geom_t *g, uint32_t m)
{
    return (((m & g->not_last) << 1) | ((m & g->not_first) >> 1) | (m << g->n) | (m >> g->n)) & g->full;
}

/* The connected part of `within` that contains `seed`. */
static inline uint32_t s_fill(const s_geom_t *g, uint32_t seed, uint32_t within)
{
    uint32_t m = seed, prev;
    do {
        prev = m;
        m |= s_nbrs(g, m) & within;
    } while (m != prev);
    return m;
}

/* Stone masks of b (bit y*N + x). */
static void s_masks(const hs_board_t *b, uint32_t *black, uint32_t *white)
{
    uint32_t bl = 0, wh = 0;
    int n = b->size;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            uint8_t c = b->color[hs_board_point(b, x, y)];
            if (c == HS_BLACK) bl |= 1u << (y * n + x);
            else if (c == HS_WHITE) wh |= 1u << (y * n + x);
        }
    *black = bl;
    *white = wh;
}

static uint32_t s_sym_mask(const uint8_t *sym, uint32_t m)
{
    uint32_t r = 0;
    for (; m; m &= m - 1)
        r |= 1u << sym[__builtin_ctz(m)];
    return r;
}

/*
 * Unconditionally safe area of the player with stones `own` (Benson 1976):
 * chains are removed while they have fewer than two healthy regions (all
 * empty points of the region are liberties of the chain) among the regions
 * not bordering a removed chain. What is returned, the surviving chains plus
 * the surviving regions that are healthy for one of them, belongs to `own`
 * at the end of every game: the chains can't be captured even if their owner
 * always passes, and the opponent can't make an eye in those regions (every
 * empty point touches the owner's chain), so whatever it plays there can be
 * captured without risk. Superko only removes moves, so this holds whatever
 * the history.
 */
static uint32_t s_safe(const s_geom_t *g, uint32_t own, uint32_t empty)
{
    uint32_t chain[25], libs[25], reg[25], healthy[25], border[25];
    int nc = 0, nr = 0;
    for (uint32_t rest = own; rest; ) {
        uint32_t c = s_fill(g, rest & (~rest + 1u), own);
        chain[nc] = c;
        libs[nc++] = s_nbrs(g, c) & empty;
        rest &= ~c;
    }
    if (nc == 0)
        return 0;
    uint32_t other = g->full & ~own;
    for (uint32_t rest = other; rest; ) {
        uint32_t r = s_fill(g, rest & (~rest + 1u), other);
        uint32_t rn = s_nbrs(g, r), re = r & empty;
        healthy[nr] = border[nr] = 0;
        for (int c = 0; c < nc; c++) {
            if (!(rn & chain[c]))
                continue;
            border[nr] |= 1u << c;
            if ((re & ~libs[c]) == 0)
                healthy[nr] |= 1u << c;
        }
        reg[nr++] = r;
        rest &= ~r;
    }
    uint32_t alive = (nc >= 32 ? 0u : (1u << nc)) - 1u, valid = (1u << nr) - 1u;
    for (bool changed = true; changed; ) {
        changed = false;
        for (int c = 0; c < nc; c++) {
            if (!(alive & (1u << c)))
                continue;
            int h = 0;
            for (int r = 0; r < nr && h < 2; r++)
                if ((valid & (1u << r)) && (healthy[r] & (1u << c)))
                    h++;
            if (h < 2) {
                alive &= ~(1u << c);
                changed = true;
            }
        }
        for (int r = 0; r < nr; r++)
            if ((valid & (1u << r)) && (border[r] & ~alive)) {
                valid &= ~(1u << r);
                changed = true;
            }
    }
    uint32_t safe = 0;
    for (int c = 0; c < nc; c++)
        if (alive & (1u << c))
            safe |= chain[c];
    for (int r = 0; r < nr; r++)
        if ((valid & (1u << r)) && (healthy[r] & alive))
            safe |= reg[r];
    return safe;
}

int hs_solve_safe_area(const hs_board_t *b, hs_color_t color, uint8_t *safe)
{
    if (b->size > 5)
        return HS_EINVAL;
    s_geom_t g;
    s_geom_init(&g, b->size);
    uint32_t bl, wh;
    s_masks(b, &bl, &wh);
    uint32_t m = s_safe(&g, color == HS_BLACK ? bl : wh, g.full & ~(bl | wh));
    int count = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            bool in = (m >> (y * b->size + x)) & 1u;
            count += in;
            if (safe)
                safe[hs_board_point(b, x, y)] = in;
        }
    return count;
}

int hs_solve_area_score(const hs_board_t *b)
{
    int score = 0;
    uint8_t seen[HS_BOARD_MAX_POINTS];
    hs_point_t stack[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    int npts = hs_board_num_points(b);
    memset(seen, 0, (size_t)npts);
    const int nb[4] = { -b->stride, -1, 1, b->stride };
    for (int p = 0; p < npts; p++) {
        if (b->color[p] == HS_BLACK) score++;
        else if (b->color[p] == HS_WHITE) score--;
        if (b->color[p] != HS_EMPTY || seen[p])
            continue;
        int n = 0, size = 0;
        unsigned reach = 0;
        stack[n++] = (hs_point_t)p;
        seen[p] = 1;
        while (n) {
            hs_point_t q = stack[--n];
            size++;
            for (int i = 0; i < 4; i++) {
                hs_point_t r = (hs_point_t)(q + nb[i]);
                if (b->color[r] == HS_EMPTY && !seen[r]) {
                    seen[r] = 1;
                    stack[n++] = r;
                } else if (b->color[r] == HS_BLACK || b->color[r] == HS_WHITE) {
                    reach |= 1u << b->color[r];
                }
            }
        }
        if (reach == (1u << HS_BLACK)) score += size;
        else if (reach == (1u << HS_WHITE)) score -= size;
    }
    return score;
}

/* One node of the search: its position, its place in the path, and its table
 * keys and slots (s_tt_probe fills those). */
typedef struct s_node {
    const hs_board_t *b;
    int passes, depth, ply;
    uint64_t set_hash;        /* set hash of the path positions above the node */
    uint32_t bl, wh;          /* the position's black / white masks */
    uint64_t key_ind, key_dep;
    s_entry_t *ei, *ed;       /* slots of the independent and the path-keyed entry */
    hs_point_t tt_move;
} s_node_t;

/* Values known without search: the game is over (two passes), or a side's
 * safe area alone decides the test. true with *v set when one applies. */
static bool s_static_value(s_solver_t *S, const s_node_t *nd, int *v)
{
    if (nd->passes >= 2) {
        *v = hs_solve_area_score(nd->b) >= S->T ? 1 : -1;
        return true;
    }
    if (!S->cfg.use_bounds)
        return false;
    /* Safe areas end as their owner's whatever is played: a static proof,
     * also at the depth horizon. */
    uint32_t empty = S->geom.full & ~(nd->bl | nd->wh);
    int np = S->geom.n * S->geom.n;
    int sb = __builtin_popcount(s_safe(&S->geom, nd->bl, empty));
    if (2 * sb - np >= S->T) {
        S->bound_cuts++;
        *v = 1;
        return true;
    }
    int sw = __builtin_popcount(s_safe(&S->geom, nd->wh, empty));
    if (np - 2 * sw < S->T) {
        S->bound_cuts++;
        *v = -1;
        return true;
    }
    return false;
}

/* Tells the caller the bounds proven and the nodes searched so far. */
static void s_progress(s_solver_t *S, double now)
{
    S->reported = now;
    if (S->cfg.progress)
        S->cfg.progress(S->cfg.progress_ctx, S->lo, S->hi - 1, S->nodes, now);
}

/* Sets S->stop on the node limit (exact) or the time limit (read every 4096
 * nodes, when the progress is reported too, about once a second). */
static void s_check_limits(s_solver_t *S)
{
    if (S->cfg.max_nodes > 0 && S->nodes >= S->cfg.max_nodes) {
        S->stop = true;
        S->stop_code = HS_ELIMIT;
        return;
    }
    if ((S->nodes & 4095) != 0 || (S->cfg.time_limit_s <= 0 && !S->cfg.progress))
        return;
    double now = s_elapsed(&S->start);
    if (S->cfg.time_limit_s > 0 && now > S->cfg.time_limit_s) {
        S->stop = true;
        S->stop_code = HS_ETIMEOUT;
    } else if (now - S->reported >= 1.0) {
        s_progress(S, now);
    }
}

/* Whether independent entry e may be used at this node: no position on the
 * path (other than the node's own) contains its core. */
static bool s_indep_usable(const s_solver_t *S, const s_node_t *nd, const s_entry_t *e)
{
    for (int j = 0; j < nd->ply; j++) {
        uint32_t pb = S->pmask[j][0], pw = S->pmask[j][1];
        if (pb == nd->bl && pw == nd->wh)
            continue;  /* this very position: always on the path */
        if ((pb & e->core[0]) == e->core[0] && (pw & e->core[1]) == e->core[1])
            return false;
    }
    return true;
}

/*
 * Looks the node up. Two kinds of entries. A history-independent one (key
 * without the path set) holds a result whose explored subtree never met a
 * position from above this node; it is valid on another path as long as no
 * position on that path contains the entry's core (then none can equal a
 * position of the subtree, so superko prunes the same moves). Other results
 * are keyed with the set hash of the path positions. Fills nd's keys, slots and
 * tt_move; true with *v, *best, *dep and core[] set when the entry decides.
 */
static bool s_tt_probe(s_solver_t *S, s_node_t *nd, int alpha, int beta, int *v,
                       hs_point_t *best, int *dep, uint32_t core[2])
{
    nd->key_ind = hs_board_key(nd->b) ^
                  s_mix((uint64_t)nd->passes * 7919u + (uint64_t)(S->T + 1000));
    nd->key_dep = nd->key_ind ^ nd->set_hash ^ 0x9e3779b97f4a7c15ull;
    nd->ei = &S->tt[nd->key_ind & S->mask];
    nd->ed = &S->tt[nd->key_dep & S->mask];
    nd->tt_move = HS_NO_POINT;
    s_entry_t *hit = NULL;
    if (nd->ei->key == nd->key_ind && nd->ei->indep) {
        nd->tt_move = nd->ei->move;
        if (s_indep_usable(S, nd, nd->ei))
            hit = nd->ei;
    }
    if (!hit && nd->ed->key == nd->key_dep && !nd->ed->indep) {
        hit = nd->ed;
        nd->tt_move = hit->move;
    }
    if (!hit || (hit->value == 0 && hit->depth < nd->depth))
        return false;
    bool exact = hit->flag == S_TT_EXACT || (hit->flag == S_TT_LOWER && hit->value == 1) ||
                 (hit->flag == S_TT_UPPER && hit->value == -1);
    if (!exact && !(hit->flag == S_TT_LOWER && hit->value >= beta) &&
        !(hit->flag == S_TT_UPPER && hit->value <= alpha))
        return false;
    *best = hit->move;
    if (hit->indep) {
        core[0] = hit->core[0];
        core[1] = hit->core[1];
    } else {
        *dep = 0;
    }
    *v = hit->value;
    return true;
}

/* Symmetries that fix this position, its ko point and every position on the
 * path: under them the subtrees of m and sym(m) are the same game, so only one
 * of each such pair of moves is searched. Only early in the game (later a
 * symmetric history is rare and the check isn't free). Returns how many. */
static int s_symmetries(const s_solver_t *S, const s_node_t *nd, uint8_t syms[8])
{
    const hs_board_t *b = nd->b;
    int nsyms = 0;
    if (nd->ply >= S_SYM_PLIES)
        return 0;
    for (int k = 1; k < 8; k++) {
        const uint8_t *sy = S->sym_bit[k];
        bool fixed = true;
        for (int j = 0; j <= nd->ply && fixed; j++)
            fixed = s_sym_mask(sy, S->pmask[j][0]) == S->pmask[j][0] &&
                    s_sym_mask(sy, S->pmask[j][1]) == S->pmask[j][1];
        if (fixed && b->ko != HS_NO_POINT) {
            int kb = hs_board_y(b, b->ko) * S->geom.n + hs_board_x(b, b->ko);
            fixed = sy[kb] == kb;
        }
        if (fixed)
            syms[nsyms++] = (uint8_t)k;
    }
    return nsyms;
}

/* Candidate order: TT move, a pass that ends the game in the mover's favour,
 * killers, points by history score (centre first on ties), other passes
 * last. Returns the number of candidates written to cand[40]. */
static int s_order_moves(const s_solver_t *S, const s_node_t *nd, bool maximize, hs_point_t *cand)
{
    const hs_board_t *b = nd->b;
    const hs_point_t tt_move = nd->tt_move, *killers = S->killers[nd->ply];
    const hs_color_t side = b->to_move;
    int n = 0;
    bool pass_wins = nd->passes == 1 && ((hs_solve_area_score(b) >= S->T) == maximize);
    if (tt_move != HS_NO_POINT) cand[n++] = tt_move;
    if (pass_wins && tt_move != HS_PASS) cand[n++] = HS_PASS;
    for (int k = 0; k < 2; k++) {
        hs_point_t m = killers[k];
        if (m != HS_NO_POINT && m != HS_PASS && m != tt_move && b->color[m] == HS_EMPTY)
            cand[n++] = m;
    }
    int first_point = n;
    for (int i = 0; i < S->norder; i++) {
        hs_point_t m = S->order[i];
        if (b->color[m] != HS_EMPTY || m == tt_move || m == killers[0] || m == killers[1])
            continue;
        int j = n++;
        if (S->cfg.use_history) {
            uint32_t h = S->history[side][S->pbit[m]];
            for (; j > first_point && S->history[side][S->pbit[cand[j - 1]]] < h; j--)
                cand[j] = cand[j - 1];
        }
        cand[j] = m;
    }
    if (!pass_wins && tt_move != HS_PASS) cand[n++] = HS_PASS;
    return n;
}

/* Whether point m is the mirror image of a point already tried (*tried: their
 * bits) under one of the node's symmetries; else adds it to *tried. */
static bool s_symmetric_dup(const s_solver_t *S, hs_point_t m, const uint8_t *syms, int nsyms,
                            uint32_t *tried)
{
    int mb = S->pbit[m];
    for (int k = 0; k < nsyms; k++)
        if ((*tried >> S->sym_bit[syms[k]][mb]) & 1u)
            return true;
    *tried |= 1u << mb;
    return false;
}

/* Plays m from the node into child. false when m is illegal or repeats a path
 * position (positional superko: *dep then notes the ply it repeats). Sets the
 * child's pass count and path set hash, and its path entry. */
static bool s_play_child(s_solver_t *S, const s_node_t *nd, hs_point_t m, hs_board_t *child,
                         int *child_passes, uint64_t *child_set, int *dep)
{
    const hs_board_t *b = nd->b;
    *child_passes = 0;
    *child_set = nd->set_hash;
    *child = *b;
    if (m == HS_PASS) {
        hs_board_play(child, b->to_move, HS_PASS, 0, NULL);
        *child_passes = nd->passes + 1;
    } else {
        if (hs_board_legal(b, b->to_move, m, 0) != HS_LEGAL)
            return false;
        hs_board_play(child, b->to_move, m, 0, NULL);
        int rep = -1;
        for (int j = nd->ply; j >= 0 && rep < 0; j--)
            if (S->path[j] == child->stones_hash)
                rep = j;
        if (rep >= 0) {
            if (rep < *dep) *dep = rep;
            return false;
        }
        /* The node's own position joins the history seen by the child. */
        *child_set ^= s_mix(b->stones_hash);
    }
    S->path[nd->ply + 1] = child->stones_hash;
    return true;
}

/* A cutoff by point m: its history score and the ply's killers learn it. */
static void s_note_cutoff(s_solver_t *S, const s_node_t *nd, hs_point_t m)
{
    if (m == HS_PASS)
        return;
    S->history[nd->b->to_move][S->pbit[m]] += (uint32_t)(nd->depth * nd->depth);
    hs_point_t *killers = S->killers[nd->ply];
    if (killers[0] != m) {
        killers[1] = killers[0];
        killers[0] = m;
    }
}

/* Stores the node's result: independent when nothing in the explored subtree
 * referred to a position above the node (dep >= ply). */
static void s_tt_store(s_solver_t *S, const s_node_t *nd, int dep, const uint32_t core[2],
                       int value, hs_point_t best, int a0, int b0)
{
    bool indep = S->cfg.use_indep && dep >= nd->ply;
    s_entry_t *e = indep ? nd->ei : nd->ed;
    e->key = indep ? nd->key_ind : nd->key_dep;
    e->indep = indep;
    e->core[0] = core[0];
    e->core[1] = core[1];
    e->value = (int8_t)value;
    e->depth = (uint8_t)(nd->depth > 255 ? 255 : nd->depth);
    e->move = best;
    e->flag = value <= a0 ? S_TT_UPPER : value >= b0 ? S_TT_LOWER : S_TT_EXACT;
}

/*
 * Searches b (at `ply`, `depth` plies left). Besides the value it reports
 * what the value depends on, for the history-independent table entries:
 * *dep is the lowest ply of a path position that a superko prune in the
 * explored subtree referred to (INT_MAX if none; 0 when unknown), and core[]
 * the black/white stones common to every position of the explored subtree.
 */
static int s_search(s_solver_t *S, const hs_board_t *b, int passes, uint64_t set_hash, int depth,
                    int ply, int alpha, int beta, hs_point_t *best, int *dep, uint32_t core[2])
{
    s_node_t nd = { .b = b, .passes = passes, .depth = depth, .ply = ply, .set_hash = set_hash };
    S->nodes++;
    *best = HS_NO_POINT;
    *dep = INT_MAX;
    s_masks(b, &nd.bl, &nd.wh);
    core[0] = S->pmask[ply][0] = nd.bl;
    core[1] = S->pmask[ply][1] = nd.wh;
    int v;
    if (s_static_value(S, &nd, &v))
        return v;
    if (depth <= 0 || ply >= S->cfg.max_depth)
        return 0;
    s_check_limits(S);
    if (S->stop)
        return 0;
    if (s_tt_probe(S, &nd, alpha, beta, &v, best, dep, core))
        return v;

    bool maximize = b->to_move == HS_BLACK;
    uint8_t syms[8];
    int nsyms = s_symmetries(S, &nd, syms);
    hs_point_t cand[40];
    int n = s_order_moves(S, &nd, maximize, cand);
    int best_v = maximize ? -2 : 2;
    int a0 = alpha, b0 = beta;
    hs_board_t *child = &S->boards[ply + 1];
    uint32_t tried = 0;  /* bits of the points searched, for the symmetry skip */
    for (int i = 0; i < n; i++) {
        hs_point_t m = cand[i];
        if (m != HS_PASS && nsyms && s_symmetric_dup(S, m, syms, nsyms, &tried)) {
            *dep = 0;  /* the skip is valid only under this (symmetric) history */
            continue;
        }
        int child_passes, cdep;
        uint64_t child_set;
        if (!s_play_child(S, &nd, m, child, &child_passes, &child_set, dep))
            continue;
        hs_point_t dummy;
        uint32_t ccore[2];
        v = s_search(S, child, child_passes, child_set, depth - 1, ply + 1, alpha, beta, &dummy,
                     &cdep, ccore);
        if (S->stop)
            return 0;
        if (cdep < *dep) *dep = cdep;
        core[0] &= ccore[0];
        core[1] &= ccore[1];
        if (maximize ? v > best_v : v < best_v) {
            best_v = v;
            *best = m;
        }
        if (maximize) { if (v > alpha) alpha = v; }
        else if (v < beta) beta = v;
        if (alpha >= beta) {
            s_note_cutoff(S, &nd, m);
            break;
        }
    }
    /* A pass is always legal, so at least one move was searched. */
    s_tt_store(S, &nd, *dep, core, best_v, *best, a0, b0);
    return best_v;
}

/* Proves or refutes "Black gets at least T": +1, -1, or 0 when stopped. */
static int s_test(s_solver_t *S, const hs_board_t *root, int T, hs_point_t *best, int *depth_out)
{
    S->T = T;
    for (int d = 1; d <= S->cfg.max_depth; d++) {
        S->path[0] = root->stones_hash;
        int dep;
        uint32_t core[2];
        int v = s_search(S, root, 0, 0, d, 0, -2, 2, best, &dep, core);
        if (S->stop)
            return 0;
        if (d > *depth_out)
            *depth_out = d;
        if (v != 0)
            return v;
    }
    return 0;
}

int hs_solve(const hs_solve_config_t *cfg, hs_solve_result_t *out, hs_error_t *err)
{
    hs_solve_config_t c;
    if (cfg) c = *cfg;
    else hs_solve_config_default(&c);
    memset(out, 0, sizeof *out);
    out->best = HS_NO_POINT;
    if (c.size < 2 || c.size > 5)
        return hs_error_set(err, HS_EINVAL, "solve: size %d is outside 2..5", c.size);
    if (c.max_depth < 1) c.max_depth = 1;
    if (c.max_depth > 250) c.max_depth = 250;
    if (c.tt_bits < 10) c.tt_bits = 10;
    if (c.tt_bits > 26) c.tt_bits = 26;

    int rc = 0;
    s_solver_t S;
    memset(&S, 0, sizeof S);
    S.cfg = c;
    S.mask = ((size_t)1 << c.tt_bits) - 1;
    S.tt = calloc(S.mask + 1, sizeof *S.tt);
    S.boards = malloc((size_t)(c.max_depth + 2) * sizeof *S.boards);
    S.path = malloc((size_t)(c.max_depth + 2) * sizeof *S.path);
    S.killers = malloc((size_t)(c.max_depth + 2) * sizeof *S.killers);
    S.pmask = malloc((size_t)(c.max_depth + 2) * sizeof *S.pmask);
    if (!S.tt || !S.boards || !S.path || !S.killers || !S.pmask) {
        rc = hs_error_set(err, HS_ENOMEM, "solve: out of memory for a 2^%d table", c.tt_bits);
        goto done;
    }
    for (int i = 0; i < c.max_depth + 2; i++)
        S.killers[i][0] = S.killers[i][1] = HS_NO_POINT;
    clock_gettime(CLOCK_MONOTONIC, &S.start);

    hs_board_t root;
    hs_board_init(&root, c.size);
    s_geom_init(&S.geom, c.size);
    for (int y = 0; y < c.size; y++)
        for (int x = 0; x < c.size; x++) {
            S.pbit[hs_board_point(&root, x, y)] = (uint8_t)(y * c.size + x);
            for (int k = 0; k < 8; k++) {
                int sx = k & 1 ? c.size - 1 - x : x, sy = k & 2 ? c.size - 1 - y : y;
                if (k & 4) { int t = sx; sx = sy; sy = t; }
                S.sym_bit[k][y * c.size + x] = (uint8_t)(sy * c.size + sx);
            }
        }
    /* Points ordered by distance from the centre (ties in board order). */
    int n = c.size;
    for (int ring = 0; ring <= 2 * n; ring++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int d = abs(2 * x - (n - 1)) + abs(2 * y - (n - 1));
                if (d == ring)
                    S.order[S.norder++] = hs_board_point(&root, x, y);
            }

    /* Binary search: lo is proven (V >= lo), hi is refuted (V < hi). */
    int lo = -n * n, hi = n * n + 1;
    hs_point_t lo_move = HS_NO_POINT;
    S.lo = lo;
    S.hi = hi;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        hs_point_t m = HS_NO_POINT;
        int v = s_test(&S, &root, mid, &m, &out->depth);
        if (v > 0) {
            S.lo = lo = mid;
            lo_move = m;
            s_progress(&S, s_elapsed(&S.start));
        } else if (v < 0) {
            S.hi = hi = mid;
            s_progress(&S, s_elapsed(&S.start));
        } else {
            rc = S.stop ? S.stop_code : HS_ELIMIT;
            hs_error_set(err, rc, "solve: %s before the %dx%d value was proven",
                         S.stop_code == HS_ETIMEOUT ? "time limit" : "node or depth limit",
                         n, n);
            break;
        }
    }
    out->lower = lo;
    out->upper = hi - 1;
    out->solved = lo == hi - 1;
    out->value = out->solved ? lo : 0;
    out->best = lo_move;
done:
    out->nodes = S.nodes;
    out->bound_cuts = S.bound_cuts;
    out->seconds = S.start.tv_sec ? s_elapsed(&S.start) : 0;
    free(S.tt);
    free(S.boards);
    free(S.path);
    free(S.killers);
    free(S.pmask);
    return rc;
}
