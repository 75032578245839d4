/*
 * worker/stability.c — groups, Benson's pass-alive test and the stability
 * formula documented in stability.h.
 *
 * Data layout: everything is indexed by board point; strings are named by their
 * head (b->head[p]); empty regions and Benson's enclosed regions get small
 * integer labels from a flood fill. A union-find over string heads joins the
 * strings that share eye space into groups. No allocation: the work arrays live
 * in one struct on the stack frame of hs_stability_compute (~45 KB).
 */
#include "worker/stability.h"

#include <stdlib.h>
#include <string.h>

#define S_NPTS HS_BOARD_MAX_POINTS
#define S_MAXREG (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)

void hs_stability_config_default(hs_stability_config_t *cfg)
{
    cfg->reader_node_budget = 1000;
    cfg->use_reader = true;
}

static inline int s_nb(const hs_board_t *b, int i)
{
    return i == 0 ? -b->stride : i == 1 ? -1 : i == 2 ? 1 : b->stride;
}

static inline bool s_is_stone(const hs_board_t *b, hs_point_t p)
{
    return b->color[p] == HS_BLACK || b->color[p] == HS_WHITE;
}

/* Flood-fills the 4-connected set of points through `start` for which
 * in_set(color) holds, labelling them `label` in lab[]; writes the points to
 * pts (capacity S_MAXREG) and returns their number. */
static int s_fill(const hs_board_t *b, hs_point_t start, unsigned set_mask, int16_t *lab, int16_t label,
                  hs_point_t *pts)
{
    int n = 0, head = 0;
    lab[start] = label;
    pts[n++] = start;
    while (head < n) {
        hs_point_t p = pts[head++];
        for (int i = 0; i < 4; i++) {
            hs_point_t q = (hs_point_t)(p + s_nb(b, i));
            if (lab[q] < 0 && ((1u << b->color[q]) & set_mask)) {
                lab[q] = label;
                pts[n++] = q;
            }
        }
    }
    return n;
}

/* ---- Benson ---- */

typedef struct s_pair {
    hs_point_t head;     /* a string of the colour next to the region */
    int16_t libs_in_r;   /* empty points of the region that are its liberties */
} s_pair_t;

typedef struct s_benson {
    int16_t lab[S_NPTS];
    hs_point_t pts[S_MAXREG];
    int reg_start[S_MAXREG + 1];    /* points of region r: rpts[reg_start[r] .. reg_start[r+1]) */
    hs_point_t rpts[S_MAXREG];
    int reg_empty[S_MAXREG];
    int pair_start[S_MAXREG + 1];
    s_pair_t pairs[4 * S_MAXREG];
    bool reg_alive[S_MAXREG];
    bool str_alive[S_NPTS];         /* by head */
    /* The regions each string is vital to (all its empty points are the string's
     * liberties), by head: vital[vstart[h] .. vstart[h] + vcount[h]). */
    int vstart[S_NPTS];
    int16_t vcount[S_NPTS];
    int16_t vital[4 * S_MAXREG];
    /* While region r is built: pair_at[h] is string h's pair in it when
     * pair_reg[h] == r (a lookup, not a scan of the region's pairs). */
    int pair_at[S_NPTS];
    int16_t pair_reg[S_NPTS];
} s_benson_t;

/* Region q's point's neighbours of colour c into region nreg's pairs (one a
 * string, np the pairs so far); empty: q is one of the region's liberties. */
static void s_benson_pairs(const hs_board_t *b, hs_color_t c, hs_point_t q, bool empty,
                           int nreg, int *np, s_benson_t *w)
{
    hs_point_t seen[4];
    int ns = 0;
    for (int d = 0; d < 4; d++) {
        hs_point_t s = (hs_point_t)(q + s_nb(b, d));
        if (b->color[s] != c)
            continue;
        hs_point_t h = b->head[s];
        bool dup = false;
        for (int k = 0; k < ns; k++) dup |= seen[k] == h;
        if (dup)
            continue;
        seen[ns++] = h;
        int k;
        if (w->pair_reg[h] == nreg) {
            k = w->pair_at[h];
        } else {
            k = (*np)++;
            w->pairs[k].head = h;
            w->pairs[k].libs_in_r = 0;
            w->pair_reg[h] = (int16_t)nreg;
            w->pair_at[h] = k;
        }
        if (empty)
            w->pairs[k].libs_in_r++;
    }
}

/* The regions of points not of colour c, each with its points and the strings
 * of c next to it (pairs): the count of regions. */
static int s_benson_regions(const hs_board_t *b, hs_color_t c, int npts, s_benson_t *w)
{
    for (int p = 0; p < npts; p++) {
        w->lab[p] = -1;
        w->pair_reg[p] = -1;
    }
    unsigned mask = (1u << HS_EMPTY) | (1u << hs_color_other(c));
    int nreg = 0, nr = 0, np = 0;
    for (int p = 0; p < npts; p++) {
        if (w->lab[p] >= 0 || !((1u << b->color[p]) & mask))
            continue;
        int n = s_fill(b, (hs_point_t)p, mask, w->lab, (int16_t)nreg, w->pts);
        w->reg_start[nreg] = nr;
        w->pair_start[nreg] = np;
        int empties = 0;
        for (int i = 0; i < n; i++) {
            hs_point_t q = w->pts[i];
            w->rpts[nr++] = q;
            bool empty = b->color[q] == HS_EMPTY;
            empties += empty;
            s_benson_pairs(b, c, q, empty, nreg, &np, w);
        }
        w->reg_empty[nreg] = empties;
        w->reg_alive[nreg] = true;
        nreg++;
    }
    w->reg_start[nreg] = nr;
    w->pair_start[nreg] = np;
    return nreg;
}

/* Each string's vital regions, listed once (the pairs are by region), so that
 * every round of the removal costs O(pairs), not strings x regions. */
static void s_benson_vital(const hs_board_t *b, hs_color_t c, int npts, int nreg,
                           s_benson_t *w)
{
    for (int p = 0; p < npts; p++) {
        w->str_alive[p] = b->color[p] == c && b->head[p] == p;
        w->vcount[p] = 0;
    }
    for (int r = 0; r < nreg; r++)
        for (int k = w->pair_start[r]; k < w->pair_start[r + 1]; k++)
            if (w->reg_empty[r] > 0 && w->pairs[k].libs_in_r == w->reg_empty[r])
                w->vcount[w->pairs[k].head]++;
    int nv = 0;
    for (int p = 0; p < npts; p++) {
        w->vstart[p] = nv;
        nv += w->vcount[p];
        w->vcount[p] = 0;
    }
    for (int r = 0; r < nreg; r++)
        for (int k = w->pair_start[r]; k < w->pair_start[r + 1]; k++)
            if (w->reg_empty[r] > 0 && w->pairs[k].libs_in_r == w->reg_empty[r]) {
                hs_point_t h = w->pairs[k].head;
                w->vital[w->vstart[h] + w->vcount[h]++] = (int16_t)r;
            }
}

/* Benson's removal: strings with fewer than two vital regions die, regions
 * next to a dead string stop counting, until nothing changes. */
static void s_benson_remove(int npts, int nreg, s_benson_t *w)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (int h = 0; h < npts; h++) {
            if (!w->str_alive[h])
                continue;
            int vital = 0;
            for (int i = 0; i < w->vcount[h] && vital < 2; i++)
                vital += w->reg_alive[w->vital[w->vstart[h] + i]];
            if (vital < 2) {
                w->str_alive[h] = false;
                changed = true;
            }
        }
        for (int r = 0; r < nreg; r++) {
            if (!w->reg_alive[r])
                continue;
            for (int k = w->pair_start[r]; k < w->pair_start[r + 1]; k++)
                if (!w->str_alive[w->pairs[k].head]) {
                    w->reg_alive[r] = false;
                    changed = true;
                    break;
                }
        }
    }
}

/* The living strings' stones, and the points of the regions vital to one of
 * them, into pass_alive (1; opponent stones inside such a region 2). */
static void s_benson_mark(const hs_board_t *b, hs_color_t c, int npts, int nreg,
                          const s_benson_t *w, uint8_t *pass_alive)
{
    for (int p = 0; p < npts; p++)
        if (b->color[p] == c && w->str_alive[b->head[p]])
            pass_alive[p] = 1;
    for (int r = 0; r < nreg; r++) {
        if (!w->reg_alive[r] || w->reg_empty[r] == 0)
            continue;
        bool vital_to_alive = false;
        for (int k = w->pair_start[r]; k < w->pair_start[r + 1]; k++)
            if (w->str_alive[w->pairs[k].head] && w->pairs[k].libs_in_r == w->reg_empty[r])
                vital_to_alive = true;
        if (!vital_to_alive)
            continue;
        /* The region is the alive side's: mark its empty points; opponent
         * stones inside it are unconditionally dead (marked 2 internally). */
        for (int i = w->reg_start[r]; i < w->reg_start[r + 1]; i++) {
            hs_point_t q = w->rpts[i];
            pass_alive[q] = b->color[q] == HS_EMPTY ? 1 : 2;
        }
    }
}

static void s_benson(const hs_board_t *b, hs_color_t c, uint8_t *pass_alive, s_benson_t *w)
{
    int npts = hs_board_num_points(b);
    memset(pass_alive, 0, S_NPTS);
    int nreg = s_benson_regions(b, c, npts, w);
    s_benson_vital(b, c, npts, nreg, w);
    s_benson_remove(npts, nreg, w);
    s_benson_mark(b, c, npts, nreg, w, pass_alive);
}

void hs_stability_benson(const hs_board_t *b, hs_color_t color, uint8_t *pass_alive)
{
    _Static_assert(sizeof(s_benson_t) < 200000, "benson work area");
    s_benson_t w;
    s_benson(b, color, pass_alive, &w);
    for (int p = 0; p < S_NPTS; p++)
        if (pass_alive[p] == 2)
            pass_alive[p] = 0;
}

/* ---- Groups and stability ---- */

static hs_point_t s_find(hs_point_t *parent, hs_point_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void s_union(hs_point_t *parent, hs_point_t a, hs_point_t b)
{
    a = s_find(parent, a);
    b = s_find(parent, b);
    if (a != b)
        parent[a < b ? b : a] = a < b ? a : b;
}

typedef struct s_work {
    s_benson_t benson;
    uint8_t alive[3][S_NPTS];       /* Benson marks per colour (2 = dead stone inside) */
    int16_t lab[S_NPTS];
    hs_point_t pts[S_MAXREG];
    hs_point_t parent[S_NPTS];
    float eyes[S_NPTS];             /* by group root */
    int libs[S_NPTS];               /* by group root */
    int lib_stamp[S_NPTS];
    hs_point_t weakest[S_NPTS];     /* by group root: head of the string with fewest libs */
    bool dead_inside[S_NPTS];       /* by group root: a stone inside an opponent's vital region */
    bool benson_alive[S_NPTS];      /* by group root */
} s_work_t;

static float s_eye_value(const hs_board_t *b, const hs_point_t *pts, int n, hs_color_t c)
{
    if (n == 1)
        return hs_board_is_eye(b, pts[0], c) ? 1.0f : 0.0f;
    if (n <= 3)
        return 1.0f;
    if (n <= 6)
        return 1.5f;
    return 2.0f;
}

/* The strings of colour c around region pts[0..n) (a small region's strings
 * joined into one group first, at first): each credited the region's eye value
 * once, on the group for a small region, on each string for a large one. */
static void s_credit_eyes(const hs_board_t *b, s_work_t *w, int n, hs_color_t c,
                          hs_point_t first)
{
    if (n <= HS_STABILITY_EYE_SPACE_MAX)
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 4; d++) {
                hs_point_t q = (hs_point_t)(w->pts[i] + s_nb(b, d));
                if (b->color[q] == c)
                    s_union(w->parent, first, b->head[q]);
            }
    /* Eye value goes to the group(s) around: after the union there is one
     * group for a small region; a large region credits each neighbour. */
    float ev = n <= HS_STABILITY_EYE_SPACE_MAX ? s_eye_value(b, w->pts, n, c) : 2.0f;
    hs_point_t credited[64];
    int nc = 0;
    for (int i = 0; i < n; i++)
        for (int d = 0; d < 4; d++) {
            hs_point_t q = (hs_point_t)(w->pts[i] + s_nb(b, d));
            if (b->color[q] != c)
                continue;
            hs_point_t h = b->head[q];
            bool dup = false;
            for (int k = 0; k < nc; k++) dup |= credited[k] == h;
            if (dup || nc >= 64)
                continue;
            credited[nc++] = h;
        }
    /* Eye values are added to string heads now and summed per group later
     * (a small region's strings are all in one group: count it once). */
    if (n <= HS_STABILITY_EYE_SPACE_MAX)
        w->eyes[first] += ev;
    else
        for (int k = 0; k < nc; k++)
            w->eyes[credited[k]] += ev;
}

/* Joins strings through small one-colour empty regions, crediting eyes. */
static void s_join_regions(const hs_board_t *b, int npts, s_work_t *w)
{
    int nreg = 0;
    for (int p = 0; p < npts; p++) {
        if (b->color[p] != HS_EMPTY || w->lab[p] >= 0)
            continue;
        int n = s_fill(b, (hs_point_t)p, 1u << HS_EMPTY, w->lab, (int16_t)nreg++, w->pts);
        unsigned border = 0;
        hs_point_t first = HS_NO_POINT;
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 4; d++) {
                hs_point_t q = (hs_point_t)(w->pts[i] + s_nb(b, d));
                if (s_is_stone(b, q)) {
                    border |= 1u << b->color[q];
                    if (first == HS_NO_POINT)
                        first = b->head[q];
                }
            }
        if (border != (1u << HS_BLACK) && border != (1u << HS_WHITE))
            continue;
        s_credit_eyes(b, w, n, border == (1u << HS_BLACK) ? HS_BLACK : HS_WHITE, first);
    }
}

/* Per group (by root): eyes into group_eyes, the weakest string, liberties,
 * and Benson's verdicts on its stones. */
static void s_sum_groups(const hs_board_t *b, int npts, s_work_t *w, float *group_eyes)
{
    for (int p = 0; p < npts; p++)
        group_eyes[p] = 0;
    for (int p = 0; p < npts; p++) {
        if (!s_is_stone(b, p) || b->head[p] != p)
            continue;
        hs_point_t g = s_find(w->parent, (hs_point_t)p);
        group_eyes[g] += w->eyes[p];
        if (w->weakest[g] == HS_NO_POINT || b->libs[p] < b->libs[w->weakest[g]])
            w->weakest[g] = (hs_point_t)p;
    }
    for (int p = 0; p < npts; p++) {
        if (!s_is_stone(b, p))
            continue;
        hs_color_t c = (hs_color_t)b->color[p];
        hs_point_t g = s_find(w->parent, b->head[p]);
        if (w->alive[c][p] == 1)
            w->benson_alive[g] = true;
        if (w->alive[hs_color_other(c)][p] == 2)
            w->dead_inside[g] = true;
        for (int d = 0; d < 4; d++) {
            hs_point_t q = (hs_point_t)(p + s_nb(b, d));
            if (b->color[q] == HS_EMPTY && w->lib_stamp[q] != g) {
                w->lib_stamp[q] = g;
                w->libs[g]++;
            }
        }
    }
}

/* Group g's stability from its eyes (capped at 2), liberties, Benson, and the
 * reader (NULL: none) on its weakest string. */
static float s_group_stability(const hs_board_t *b, const s_work_t *w, hs_point_t g,
                               float eyes, hs_reader_t *reader)
{
    if (w->benson_alive[g] || eyes >= 2.0f)
        return 1.0f;
    if (w->dead_inside[g])
        return 0.0f;
    hs_point_t weak = w->weakest[g];
    bool safe = b->libs[weak] >= HS_READER_SAFE_LIBS, urgent = false;
    if (reader && !safe) {
        hs_tactic_t t;
        if (hs_reader_defend(reader, b, weak, &t, NULL) == 0 && t.result == HS_TACTIC_CAPTURED)
            return 0.0f;
        if (hs_reader_attack(reader, b, weak, &t, NULL) == 0) {
            safe = t.result == HS_TACTIC_SAVED;
            urgent = t.result == HS_TACTIC_CAPTURED;
        }
    }
    int l = w->libs[g] < 10 ? w->libs[g] : 10;
    float s = 0.10f + 0.30f * eyes + 0.02f * (float)l + (safe ? 0.15f : 0.0f);
    if (urgent && s > 0.30f)
        s = 0.30f;
    if (s < 0.05f) s = 0.05f;
    if (s > 0.90f) s = 0.90f;
    return s;
}

/* Every group's stability into out (groups numbered by their root's order),
 * index_of[root] its number. */
static void s_rate_groups(const hs_board_t *b, int npts, s_work_t *w,
                          const float *group_eyes, hs_reader_t *reader, int16_t *index_of,
                          hs_stability_t *out)
{
    for (int p = 0; p < npts; p++) {
        index_of[p] = -1;
        if (!s_is_stone(b, p) || b->head[p] != p || s_find(w->parent, (hs_point_t)p) != p)
            continue;
        hs_point_t g = (hs_point_t)p;
        int gi = out->num_groups++;
        index_of[g] = (int16_t)gi;
        out->group_color[gi] = b->color[g];
        float eyes = group_eyes[g] > 2.0f ? 2.0f : group_eyes[g];
        out->group_stability[gi] = s_group_stability(b, w, g, eyes, reader);
    }
}

int hs_stability_compute(const hs_board_t *b, const hs_stability_config_t *cfg,
                         hs_reader_t *reader, hs_stability_t *out, hs_error_t *err)
{
    if (!b || !out)
        return hs_error_set(err, HS_EINVAL, "stability: NULL board or output");
    hs_stability_config_t defaults;
    if (!cfg) {
        hs_stability_config_default(&defaults);
        cfg = &defaults;
    }
    /* The work area (~45 KB) lives on the stack: no allocation, no shared state. */
    _Static_assert(sizeof(s_work_t) < 300000, "stability work area");
    s_work_t w;
    int npts = hs_board_num_points(b);
    memset(out, 0, sizeof *out);
    for (int p = 0; p < S_NPTS; p++)
        out->group[p] = -1;

    s_benson(b, HS_BLACK, w.alive[HS_BLACK], &w.benson);
    s_benson(b, HS_WHITE, w.alive[HS_WHITE], &w.benson);

    for (int p = 0; p < npts; p++) {
        w.parent[p] = (hs_point_t)p;
        w.eyes[p] = 0;
        w.libs[p] = 0;
        w.lib_stamp[p] = -1;
        w.weakest[p] = HS_NO_POINT;
        w.dead_inside[p] = false;
        w.benson_alive[p] = false;
        w.lab[p] = -1;
    }
    s_join_regions(b, npts, &w);
    float group_eyes[S_NPTS];
    s_sum_groups(b, npts, &w, group_eyes);

    bool use_reader = reader && cfg->use_reader;
    long old_budget = use_reader ? hs_reader_set_node_budget(reader, cfg->reader_node_budget) : 0;
    /* A loose ladder takes tens of thousands of nodes to prove: with this budget
     * its pass could only spend the nodes (it halved the rate with the reader on). */
    bool old_loose = use_reader ? hs_reader_set_loose(reader, false) : false;
    int16_t index_of[S_NPTS];
    s_rate_groups(b, npts, &w, group_eyes, use_reader ? reader : NULL, index_of, out);
    if (use_reader) {
        hs_reader_set_node_budget(reader, old_budget);
        hs_reader_set_loose(reader, old_loose);
    }

    for (int p = 0; p < npts; p++) {
        if (s_is_stone(b, p)) {
            int gi = index_of[s_find(w.parent, b->head[p])];
            out->group[p] = (int16_t)gi;
            out->point[p] = out->group_stability[gi];
        }
        if (w.alive[HS_BLACK][p] == 1 || w.alive[HS_WHITE][p] == 1)
            out->pass_alive[p] = 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ memo */

typedef struct s_memo_key {
    uint64_t stones_hash;
    int size, budget;
    hs_color_t to_move;
    hs_point_t ko;
    bool reader;
} s_memo_key_t;

struct hs_stability_memo {
    int next;                                   /* ring position of the next insert */
    uint64_t hits, misses;
    s_memo_key_t key[HS_STABILITY_MEMO_SLOTS];
    bool used[HS_STABILITY_MEMO_SLOTS];
    uint8_t color[HS_STABILITY_MEMO_SLOTS][S_NPTS];   /* verifies a hash match */
    hs_stability_t value[HS_STABILITY_MEMO_SLOTS];
};

hs_stability_memo_t *hs_stability_memo_new(void)
{
    return calloc(1, sizeof(hs_stability_memo_t));
}

void hs_stability_memo_destroy(hs_stability_memo_t **m)
{
    if (m) {
        free(*m);
        *m = NULL;
    }
}

void hs_stability_memo_stats(const hs_stability_memo_t *m, uint64_t *hits, uint64_t *misses)
{
    *hits = m ? m->hits : 0;
    *misses = m ? m->misses : 0;
}

static bool s_key_equal(const s_memo_key_t *a, const s_memo_key_t *b)
{
    return a->stones_hash == b->stones_hash && a->size == b->size && a->budget == b->budget &&
           a->to_move == b->to_move && a->ko == b->ko && a->reader == b->reader;
}

int hs_stability_memo_compute(hs_stability_memo_t *m, const hs_board_t *b,
                              const hs_stability_config_t *cfg, hs_reader_t *reader,
                              hs_stability_t *scratch, const hs_stability_t **out,
                              hs_error_t *err)
{
    *out = NULL;
    if (!m) {
        int rc = hs_stability_compute(b, cfg, reader, scratch, err);
        if (rc == 0)
            *out = scratch;
        return rc;
    }
    if (!b)
        return hs_error_set(err, HS_EINVAL, "stability: NULL board");
    hs_stability_config_t defaults;
    if (!cfg) {
        hs_stability_config_default(&defaults);
        cfg = &defaults;
    }
    s_memo_key_t k = { .stones_hash = b->stones_hash, .size = b->size,
                       .budget = cfg->reader_node_budget, .to_move = b->to_move,
                       .ko = b->ko, .reader = cfg->use_reader && reader };
    size_t npts = (size_t)hs_board_num_points(b);
    /* Newest first: the engines of a batch ask in the same order, so the match is
     * usually a batch length back. */
    for (int n = 1; n <= HS_STABILITY_MEMO_SLOTS; n++) {
        int i = (m->next - n + HS_STABILITY_MEMO_SLOTS) % HS_STABILITY_MEMO_SLOTS;
        if (m->used[i] && s_key_equal(&m->key[i], &k) &&
            !memcmp(m->color[i], b->color, npts)) {
            m->hits++;
            *out = &m->value[i];
            return 0;
        }
    }
    int i = m->next;
    m->used[i] = false;
    int rc = hs_stability_compute(b, cfg, reader, &m->value[i], err);
    if (rc < 0)
        return rc;
    m->key[i] = k;
    memcpy(m->color[i], b->color, npts);
    m->used[i] = true;
    m->next = (i + 1) % HS_STABILITY_MEMO_SLOTS;
    m->misses++;
    *out = &m->value[i];
    return 0;
}
