/*
 * worker/judge.c — position judgment (classes, ownership, territory and area
 * score). The method is described step by step in judge.h and docs/JUDGE.md.
 *
 * Data layout: everything is per board point (core/board.h indices). Strings are
 * identified by their head (b->head[p]); groups by a union-find root over heads.
 * For each colour C the board is partitioned into "C-regions": maximal
 * 4-connected sets of points that hold no LIVE C stone. A C-region holding no
 * live opponent stone is "pure": C's eye space or territory (dead stones of
 * either colour inside count as empty). The opponent's C-region that contains a
 * weak group is that group's enclosure.
 *
 * Life and death is decided by Monte-Carlo ownership from playouts of a small
 * tactical policy (judge_mc.c: answer ataris, no self-atari of strings, no
 * filling of true eyes), which keeps the sekis and oddly shaped living groups
 * of finished games alive where uniform random playouts kill them; the static
 * enclosure rules remain as the fallback for cfg->playouts = 0.
 */
#include "worker/judge.h"

#include <string.h>

#include "worker/judge_internal.h"

const char hs_judge_class_letters[HS_JC_COUNT + 1] = " .bwXOxos";

#define MAXP HS_BOARD_MAX_POINTS
#define MAXR (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)

void hs_judge_config_default(hs_judge_config_t *cfg)
{
    cfg->big_eye = 5;
    cfg->strong_stability = 0.9f;
    cfg->dead_stability = 0.2f;
    cfg->max_rounds = 16;
    cfg->playouts = 0;
    cfg->mc_dead = 0.0f;
    cfg->mc_shut_max = 0.4f;
    cfg->seed = 0x6a75646765ULL;
    cfg->max_territory = 0.25f;
    cfg->territory_per_stone = 8;
    cfg->relaxed_kill = true;
}

void hs_judge_config_final(hs_judge_config_t *cfg)
{
    hs_judge_config_default(cfg);
    cfg->playouts = 256;
    /* A group its owner keeps in barely half of the playouts is an open
     * fight that the players of a finished game settled: most were agreed
     * dead (0.08-0.12 score the same; 0, the plain majority, 0.6 point
     * worse exact and within 1, docs/JUDGE.md). */
    cfg->mc_dead = 0.1f;
    /* Finished positions: every one-colour region is settled territory. */
    cfg->max_territory = 0.0f;
    cfg->territory_per_stone = 0;
}

typedef struct s_regions {
    int n;                      /* regions */
    int16_t id[MAXP];           /* region of a point; < 0 for live stones of the colour
                                 * and sentinels (-2 there, so the region fill tests
                                 * one value: -1 is "free, not yet in a region") */
    int start[MAXR + 1];        /* points of region r: pts[start[r] .. start[r+1]) */
    hs_point_t pts[MAXP];
    uint8_t pure[MAXR];         /* no live opponent stone inside */
    uint8_t has_strong[MAXR];   /* holds a live stone of the OTHER colour in a strong group */
    uint8_t walls_strong[MAXR]; /* every live stone of the colour bordering it is strong */
} s_regions_t;

typedef struct s_ctx {
    const hs_board_t *b;
    const hs_stability_t *stab;
    hs_judge_config_t cfg;
    int np, dirs[4];
    uint8_t dead[MAXP];
    /* Colour of a LIVE stone at p (HS_EMPTY for empty points and dead stones,
     * HS_OFFBOARD at sentinels): one load instead of colour + dead in the
     * region and group loops, which are most of the judgment's time. */
    uint8_t live[MAXP];
    /* Group root of every live stone, valid once s_groups has run for both
     * colours in a round (no union happens after that). */
    hs_point_t grp[MAXP];
    uint8_t seki[MAXP];         /* stone of a string found in seki */
    hs_point_t parent[MAXP];    /* union-find over string heads */
    uint8_t eyes[MAXP];         /* at a root: distinct pure regions touched */
    int16_t max_eye[MAXP];      /* at a root: largest pure region touched */
    float max_stab[MAXP];       /* at a root: largest stability of its stones */
    uint8_t strong[MAXP];       /* at a root */
    const float *mc;            /* Monte-Carlo ownership (black +1), or NULL */
    int16_t stamp[MAXP];
    s_regions_t reg[3];         /* indexed by colour */
    /* reg[c]'s partition is current: no c stone died since it was built (the
     * partition depends on live c stones only; purity is redone each round). */
    uint8_t reg_valid[3];
    /* The live stones in point order: the per-round loops visit these
     * instead of every point (a stone list is ~1/4 of the points). */
    int nst;
    hs_point_t st[MAXR];
} s_ctx_t;

static inline bool s_is_stone(int c) { return c == HS_BLACK || c == HS_WHITE; }

static inline bool s_live(const s_ctx_t *x, hs_point_t p, int c)
{
    return x->live[p] == c;
}

static hs_point_t s_find(s_ctx_t *x, hs_point_t p)
{
    while (x->parent[p] != p) {
        x->parent[p] = x->parent[x->parent[p]];
        p = x->parent[p];
    }
    return p;
}

static void s_union(s_ctx_t *x, hs_point_t a, hs_point_t b)
{
    a = s_find(x, a);
    b = s_find(x, b);
    if (a != b)
        x->parent[b] = a;
}

/* Root of the group of stone p. */
static inline hs_point_t s_group(s_ctx_t *x, hs_point_t p) { return s_find(x, x->b->head[p]); }

/* The same from the cache (live stone p, after both colours' s_groups). */
static inline hs_point_t s_grp(const s_ctx_t *x, hs_point_t p) { return x->grp[p]; }

/* Partitions the board into regions free of live `c` stones. */
static void s_regions(s_ctx_t *x, int c)
{
    s_regions_t *r = &x->reg[c];
    int o = hs_color_other((hs_color_t)c);
    int npts = 0;
    r->n = 0;
    const uint8_t *live = x->live;
    for (int p = 0; p < x->np; p++)
        r->id[p] = (int16_t)(live[p] == HS_OFFBOARD || live[p] == c ? -2 : -1);
    for (int p = 0; p < x->np; p++) {
        if (r->id[p] != -1)
            continue;
        int rid = r->n++;
        r->start[rid] = npts;
        r->pure[rid] = 1;
        r->pts[npts++] = (hs_point_t)p;
        r->id[p] = (int16_t)rid;
        for (int i = r->start[rid]; i < npts; i++) {   /* BFS over the list itself */
            hs_point_t q = r->pts[i];
            if (live[q] == o)
                r->pure[rid] = 0;
            for (int d = 0; d < 4; d++) {
                hs_point_t n = (hs_point_t)(q + x->dirs[d]);
                if (r->id[n] != -1)
                    continue;
                r->id[n] = (int16_t)rid;
                r->pts[npts++] = n;
            }
        }
    }
    r->start[r->n] = npts;
}

/* Recomputes only the purity of c's regions (live opponent stones may have
 * died since s_regions built the partition, which is otherwise unchanged). */
static void s_regions_pure(s_ctx_t *x, int c)
{
    s_regions_t *r = &x->reg[c];
    const int o = hs_color_other((hs_color_t)c);
    for (int rid = 0; rid < r->n; rid++) {
        uint8_t pure = 1;
        for (int i = r->start[rid]; i < r->start[rid + 1]; i++)
            if (x->live[r->pts[i]] == o) { pure = 0; break; }
        r->pure[rid] = pure;
    }
}

static inline int s_reg_size(const s_regions_t *r, int rid) { return r->start[rid + 1] - r->start[rid]; }

/* A one-point pure region that is a false eye (too many opponent diagonals). */
static bool s_false_eye(s_ctx_t *x, hs_point_t p, int c)
{
    const hs_board_t *b = x->b;
    const int s = b->stride;
    const int diag[4] = {-s - 1, -s + 1, s - 1, s + 1};
    int bad = 0, off = 0;
    for (int d = 0; d < 4; d++) {
        hs_point_t q = (hs_point_t)(p + diag[d]);
        if (b->color[q] == HS_OFFBOARD) off++;
        else if (s_live(x, q, hs_color_other((hs_color_t)c))) bad++;
    }
    return off ? bad >= 1 : bad >= 2;
}

/* Region rid of r is four points in a 2x2 square. */
static bool s_square_four(const s_ctx_t *x, const s_regions_t *r, int rid)
{
    int minp = 1 << 30, maxp = 0;
    for (int i = r->start[rid]; i < r->start[rid + 1]; i++) {
        if (r->pts[i] < minp) minp = r->pts[i];
        if (r->pts[i] > maxp) maxp = r->pts[i];
    }
    return maxp - minp == x->b->stride + 1;
}

/* Groups of colour c: strings joined through c's pure regions; eyes and strength. */
static void s_groups(s_ctx_t *x, int c)
{
    const hs_board_t *b = x->b;
    s_regions_t *r = &x->reg[c];
    for (int rid = 0; rid < r->n; rid++) {
        if (!r->pure[rid])
            continue;
        hs_point_t first = HS_NO_POINT;
        for (int i = r->start[rid]; i < r->start[rid + 1]; i++) {
            hs_point_t q = r->pts[i];
            for (int d = 0; d < 4; d++) {
                hs_point_t n = (hs_point_t)(q + x->dirs[d]);
                if (!s_live(x, n, c))
                    continue;
                if (first == HS_NO_POINT) first = b->head[n];
                else s_union(x, first, b->head[n]);
            }
        }
    }
    for (int rid = 0; rid < r->n; rid++) {
        if (!r->pure[rid])
            continue;
        int size = s_reg_size(r, rid);
        bool eye = !(size == 1 && s_false_eye(x, r->pts[r->start[rid]], c));
        /* Eye space that makes two eyes on its own: big_eye points or more, and
         * four points unless they form the dead "squared four". */
        int worth = size >= x->cfg.big_eye || (size == 4 && !s_square_four(x, r, rid)) ? x->cfg.big_eye : size;
        for (int i = r->start[rid]; i < r->start[rid + 1]; i++) {
            hs_point_t q = r->pts[i];
            for (int d = 0; d < 4; d++) {
                hs_point_t n = (hs_point_t)(q + x->dirs[d]);
                if (!s_live(x, n, c))
                    continue;
                hs_point_t g = s_group(x, n);
                if (x->stamp[g] == rid)
                    continue;
                x->stamp[g] = (int16_t)rid;
                if (eye && x->eyes[g] < 255) x->eyes[g]++;
                if (worth > x->max_eye[g]) x->max_eye[g] = (int16_t)worth;
            }
        }
    }
}

/* Every liberty of string hx is shared with string hy or is a one-point eye of hx's colour. */
static bool s_seki_side(s_ctx_t *x, hs_point_t hx, hs_point_t hy, int *shared)
{
    const hs_board_t *b = x->b;
    hs_point_t libs[4];
    int n = hs_board_string_liberties(b, hx, libs, 4);
    int c = b->color[hx];
    *shared = 0;
    for (int i = 0; i < n; i++) {
        bool by_y = false, own_eye = true;
        for (int d = 0; d < 4; d++) {
            hs_point_t q = (hs_point_t)(libs[i] + x->dirs[d]);
            int qc = b->color[q];
            if (s_is_stone(qc) && b->head[q] == hy) by_y = true;
            if (qc == c && b->head[q] != hx)
                return false;   /* filling it joins another own string: no self-atari */
            if (qc != c && qc != HS_OFFBOARD) own_eye = false;
        }
        if (by_y) (*shared)++;
        else if (!own_eye) return false;
    }
    return true;
}

/* Marks seki between weak strings with exactly two liberties each. */
static void s_seki(s_ctx_t *x)
{
    const hs_board_t *b = x->b;
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        int c = b->color[p];
        if (!s_is_stone(c) || b->head[p] != p || x->dead[p] || x->seki[p] || b->libs[p] != 2)
            continue;
        if (x->strong[s_grp(x, (hs_point_t)p)])
            continue;
        hs_point_t libs[2];
        hs_board_string_liberties(b, (hs_point_t)p, libs, 2);
        for (int i = 0; i < 2; i++) {
            for (int d = 0; d < 4; d++) {
                hs_point_t q = (hs_point_t)(libs[i] + x->dirs[d]);
                if (b->color[q] != hs_color_other((hs_color_t)c) || x->dead[q])
                    continue;
                hs_point_t hy = b->head[q];
                if (b->libs[hy] != 2 || x->strong[s_grp(x, hy)])
                    continue;
                int sx, sy;
                if (s_seki_side(x, (hs_point_t)p, hy, &sx) && s_seki_side(x, hy, (hs_point_t)p, &sy)
                    && sx > 0 && sy > 0) {
                    for (int s = 0; s < x->np; s++)
                        if (s_is_stone(b->color[s]) && (b->head[s] == p || b->head[s] == hy))
                            x->seki[s] = 1;
                }
            }
        }
    }
}

/* Drops the seki mark of a live string that no longer shares a liberty with
 * a live seki string of the other colour: its partner died (the playouts
 * may kill a seki partner, which the eye analysis had kept alive). Left
 * marked, the survivor's own territory around the dead partner read as
 * seki points, 3 points short on a one-stone throw-in. */
static void s_seki_prune(s_ctx_t *x)
{
    const hs_board_t *b = x->b;
    for (int k = 0; k < x->nst; k++) {
        hs_point_t h = x->st[k];
        if (!x->seki[h] || b->head[h] != h)
            continue;
        int o = hs_color_other((hs_color_t)b->color[h]);
        hs_point_t libs[8];
        int n = hs_board_string_liberties(b, h, libs, 8);
        bool partner = false;
        for (int i = 0; i < n && !partner; i++)
            for (int d = 0; d < 4; d++) {
                hs_point_t q = (hs_point_t)(libs[i] + x->dirs[d]);
                if (x->live[q] == o && x->seki[q]) { partner = true; break; }
            }
        if (partner)
            continue;
        for (hs_point_t q = h;;) {
            x->seki[q] = 0;
            q = b->next[q];
            if (q == h) break;
        }
    }
}

/* Mean Monte-Carlo ownership of every group's stones, from its colour's
 * side, into own[root] (one pass; each group's sum runs in point order). */
static void s_mc_own(const s_ctx_t *x, float *own)
{
    int cnt[MAXP];
    for (int p = 0; p < x->np; p++) {
        own[p] = 0.0f;
        cnt[p] = 0;
    }
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        int c = x->live[p];
        if (!s_is_stone(c)) continue;
        hs_point_t g = s_grp(x, (hs_point_t)p);
        own[g] += c == HS_BLACK ? x->mc[p] : -x->mc[p];
        cnt[g]++;
    }
    for (int p = 0; p < x->np; p++)
        if (cnt[p]) own[p] = own[p] / (float)cnt[p];
}

/* Steps 1-3 of a round: the regions, the groups, and which groups are strong
 * (two eyes, a big eye, high stability, seki). */
static void s_strength(s_ctx_t *x)
{
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        x->parent[p] = (hs_point_t)p;
        x->eyes[p] = 0;
        x->max_eye[p] = 0;
        x->max_stab[p] = 0.0f;
        x->strong[p] = 0;
        x->stamp[p] = -1;
    }
    for (int c = HS_BLACK; c <= HS_WHITE; c++) {
        if (x->reg_valid[c]) {
            s_regions_pure(x, c);
        } else {
            s_regions(x, c);
            x->reg_valid[c] = 1;
        }
    }
    s_groups(x, HS_BLACK);
    s_groups(x, HS_WHITE);
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        if (s_is_stone(x->live[p])) x->grp[p] = s_group(x, (hs_point_t)p);
    }
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        if (!s_is_stone(x->live[p]))
            continue;
        hs_point_t g = s_grp(x, (hs_point_t)p);
        if (x->stab && x->stab->point[p] > x->max_stab[g]) x->max_stab[g] = x->stab->point[p];
        if (x->seki[p]) x->strong[g] = 1;
    }
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        if (!s_is_stone(x->live[p]) || s_grp(x, (hs_point_t)p) != p)
            continue;
        if (x->eyes[p] >= 2 || x->max_eye[p] >= x->cfg.big_eye
            || (x->stab && x->max_stab[p] >= x->cfg.strong_stability))
            x->strong[p] = 1;
    }
    s_seki(x);
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        if (x->seki[p] && !x->dead[p]) x->strong[s_grp(x, (hs_point_t)p)] = 1;
    }
}

/* Region facts: for c's regions, strong stones of the other colour inside
 * and whether every live c stone on the border is strong.
 * Done from the stones' side in one pass: a live stone lies in a region of
 * the other colour (has_strong there when its group is strong), and a weak
 * one spoils walls_strong of each own-colour region it touches. */
static void s_region_facts(s_ctx_t *x)
{
    for (int c = HS_BLACK; c <= HS_WHITE; c++) {
        s_regions_t *r = &x->reg[c];
        memset(r->has_strong, 0, (size_t)r->n);
        memset(r->walls_strong, 1, (size_t)r->n);
    }
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        int c = x->live[p];
        if (!s_is_stone(c))
            continue;
        if (x->strong[s_grp(x, (hs_point_t)p)]) {
            s_regions_t *ro = &x->reg[hs_color_other((hs_color_t)c)];
            ro->has_strong[ro->id[p]] = 1;
        } else {
            s_regions_t *r = &x->reg[c];
            for (int d = 0; d < 4; d++) {
                int rid = r->id[p + x->dirs[d]];
                if (rid >= 0) r->walls_strong[rid] = 0;
            }
        }
    }
}

/* Step 4, Monte-Carlo decision (the default): a group dies when the opponent
 * owns its stones at the end of most playouts, whatever its eye shape
 * (players agree that groups with eye space are dead when the wall
 * would win the fight). Also dead: a weak group shut in by strong
 * walls alone, when the playouts call it a near coin toss (own below
 * mc_shut_max: a straight three lives in the playouts where its owner
 * happens to move first, ~0.28). Not when the playouts clearly keep
 * it alive: the eye analysis calls large invasions weak that own a
 * region spoilt by one live opponent stone, and killing those cost
 * 100+ points in a few games. */
static void s_kill_mc(s_ctx_t *x, uint8_t *kill, int max_encl)
{
    float own[MAXP];
    s_mc_own(x, own);
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        int c = x->live[p];
        if (!s_is_stone(c) || s_grp(x, (hs_point_t)p) != p)
            continue;
        const s_regions_t *ro = &x->reg[hs_color_other((hs_color_t)c)];
        int rid = ro->id[p];
        bool shut = !x->strong[p] && !ro->has_strong[rid] && ro->walls_strong[rid]
                    && s_reg_size(ro, rid) <= max_encl && own[p] < x->cfg.mc_shut_max;
        if (shut || own[p] < x->cfg.mc_dead)
            kill[p] = 1;
    }
}

/* Step 4 without playouts: a weak group shut in by strong walls, or with low
 * stability in an enclosure, dies. Returns how many groups. */
static int s_kill_strict(s_ctx_t *x, uint8_t *kill, int max_encl)
{
    int strict = 0;
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        int c = x->live[p];
        if (!s_is_stone(c) || s_grp(x, (hs_point_t)p) != p || x->strong[p])
            continue;
        const s_regions_t *ro = &x->reg[hs_color_other((hs_color_t)c)];
        int rid = ro->id[p];
        if (ro->has_strong[rid])
            continue;
        if (ro->walls_strong[rid] && s_reg_size(ro, rid) <= max_encl) {
            kill[p] = 1; strict++;
        } else if (x->stab && x->max_stab[p] < x->cfg.dead_stability &&
                   s_reg_size(ro, rid) <= max_encl) {
            kill[p] = 1; strict++;
        }
    }
    return strict;
}

/* Step 4, relaxed (when s_kill_strict killed nothing): the wall is weak too
 * (its eye space holds these stones); of two weak neighbours the group with
 * the smaller enclosure dies first.
 * (Tried on the archives and worse: fewest stones first, 23% exact;
 * smaller enclosure unless it outweighs the wall, 71%; see JUDGE.md.) */
static void s_kill_relaxed(s_ctx_t *x, uint8_t *kill, int max_encl)
{
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        int c = x->live[p];
        if (!s_is_stone(c) || s_grp(x, (hs_point_t)p) != p || x->strong[p])
            continue;
        int o = hs_color_other((hs_color_t)c);
        const s_regions_t *ro = &x->reg[o];
        int rid = ro->id[p];
        int my = s_reg_size(ro, rid);
        if (ro->has_strong[rid] || my > max_encl)
            continue;
        bool smallest = true, any = false;
        for (int i = ro->start[rid]; i < ro->start[rid + 1] && smallest; i++) {
            hs_point_t q = ro->pts[i];
            for (int d = 0; d < 4; d++) {
                hs_point_t n = (hs_point_t)(q + x->dirs[d]);
                if (!s_live(x, n, o) || x->strong[s_grp(x, n)])
                    continue;
                const s_regions_t *rc = &x->reg[c];
                any = true;
                if (s_reg_size(rc, rc->id[n]) <= my) { smallest = false; break; }
            }
        }
        if (smallest && any)
            kill[p] = 1;
    }
}

/* Removes the stones of the killed groups; returns how many stones. */
static int s_kill_apply(s_ctx_t *x, const uint8_t *kill)
{
    int killed = 0;
    int kept = 0;
    for (int k = 0; k < x->nst; k++) {
        int p = x->st[k];
        if (kill[s_grp(x, (hs_point_t)p)]) {
            x->reg_valid[x->live[p]] = 0;
            x->dead[p] = 1;
            x->live[p] = HS_EMPTY;
            killed++;
        } else {
            x->st[kept++] = (hs_point_t)p;
        }
    }
    x->nst = kept;
    if (killed)
        s_seki_prune(x);
    return killed;
}

/* One round of steps 1-4; returns the number of stones newly marked dead. */
static int s_round(s_ctx_t *x)
{
    s_strength(x);
    s_region_facts(x);
    /* Step 4: decide the weak groups. kill[] is at group roots. An enclosure
     * of half the board or more is open play, not someone's area (an opening
     * stone's "enclosure" is nearly the whole board). */
    uint8_t kill[MAXP];
    memset(kill, 0, sizeof kill);
    const int max_encl = x->b->size * x->b->size / 2;
    if (x->mc)
        s_kill_mc(x, kill, max_encl);
    else if (!s_kill_strict(x, kill, max_encl) && x->cfg.relaxed_kill)
        s_kill_relaxed(x, kill, max_encl);
    return s_kill_apply(x, kill);
}

int hs_judge_compute(const hs_board_t *b, const hs_stability_t *stability,
                     const hs_judge_config_t *cfg, hs_judge_t *out, hs_error_t *err)
{
    if (b->size < HS_BOARD_MIN_SIZE || b->size > HS_BOARD_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "judge: board size %d", b->size);
    hs_judge_config_t c;
    if (cfg) c = *cfg;
    else hs_judge_config_default(&c);
    float mc[MAXP];
    if (c.playouts <= 0)
        return hs__judge_compute_own(b, stability, &c, NULL, out, err);
    hs__judge_mc_ownership(b, c.playouts, c.seed, mc);
    return hs__judge_compute_own(b, stability, &c, mc, out, err);
}

void hs_judge_mc_ownership(const hs_board_t *b, int playouts, uint64_t seed, float *own)
{
    hs__judge_mc_ownership(b, playouts, seed, own);
}

/* The live stones around one of step 5's regions. */
typedef struct s_border {
    int colors;          /* bits 1 << colour */
    bool seki, plain;    /* some of them are in seki / some are not */
    int stones;          /* how many (counted only for the open-region cap) */
} s_border_t;

/* Step 5's region through empty point p (empty points and dead stones, flooded
 * up to the live stones around it) into pts: its size, and its border into
 * *bd. border_mark (NULL: stones not counted) == serial marks a live stone
 * counted already for this region. */
static int s_region(const s_ctx_t *x, hs_point_t p, uint8_t *seen, hs_point_t *pts,
                    int *border_mark, int serial, s_border_t *bd)
{
    int n = 0;
    pts[n++] = p;
    seen[p] = 1;
    for (int i = 0; i < n; i++) {
        hs_point_t q = pts[i];
        for (int d = 0; d < 4; d++) {
            hs_point_t r = (hs_point_t)(q + x->dirs[d]);
            int rc = x->live[r];
            if (rc == HS_OFFBOARD) continue;
            if (s_is_stone(rc)) {
                bd->colors |= 1 << rc;
                if (x->seki[r]) bd->seki = true;
                else bd->plain = true;
                if (border_mark && border_mark[r] != serial) {
                    border_mark[r] = serial;
                    bd->stones++;
                }
            } else if (!seen[r]) {
                seen[r] = 1;
                pts[n++] = r;
            }
        }
    }
    return n;
}

/* Classes and ownership of region pts[0..n), owned by owner (0: nobody);
 * seki_border: live stones in seki are around it. */
static void s_mark_region(const hs_board_t *b, const hs_point_t *pts, int n, int owner,
                          bool seki_eye, bool seki_border, hs_judge_t *out)
{
    for (int i = 0; i < n; i++) {
        hs_point_t q = pts[i];
        int qc = b->color[q];
        if (s_is_stone(qc)) {
            out->cls[q] = qc == HS_BLACK ? HS_JC_BLACK_DEAD : HS_JC_WHITE_DEAD;
        } else if (seki_eye || (!owner && seki_border)) {
            out->cls[q] = HS_JC_SEKI;
            if (seki_eye) out->seki_eye[owner]++;
        } else {
            out->cls[q] = owner == HS_BLACK ? HS_JC_BLACK_TERRITORY
                        : owner == HS_WHITE ? HS_JC_WHITE_TERRITORY : HS_JC_DAME;
        }
        if (!seki_eye)
            out->ownership[q] = owner == HS_BLACK ? 1.0f : owner == HS_WHITE ? -1.0f : 0.0f;
    }
}

/* Step 5: every point's class and ownership from the live stones that the
 * rounds left, region by region. */
static void s_classify(const s_ctx_t *x, hs_judge_t *out)
{
    const hs_board_t *b = x->b;
    uint8_t seen[MAXP];
    hs_point_t pts[MAXP];
    memset(seen, 0, (size_t)x->np);
    /* Open-region cap (config): a one-colour region larger than both limits is
     * open board, not territory. border_mark[s] == region serial marks live
     * stone s as already counted on the current region's border. */
    const bool cap = x->cfg.max_territory > 0.0f && x->cfg.territory_per_stone > 0;
    const int cap_points = (int)(x->cfg.max_territory * (float)(b->size * b->size));
    int border_mark[MAXP];
    int serial = 0;
    if (cap)
        memset(border_mark, 0, sizeof(int) * (size_t)x->np);
    for (int p = 0; p < x->np; p++) {
        int c = b->color[p];
        if (c == HS_OFFBOARD) { out->cls[p] = HS_JC_OFFBOARD; continue; }
        if (s_is_stone(x->live[p])) {
            out->cls[p] = c == HS_BLACK ? HS_JC_BLACK_ALIVE : HS_JC_WHITE_ALIVE;
            out->ownership[p] = c == HS_BLACK ? 1.0f : -1.0f;
            out->weight[p] = 1.0f;
            continue;
        }
        if (seen[p])
            continue;
        s_border_t bd = { 0 };
        int n = s_region(x, (hs_point_t)p, seen, pts, cap ? border_mark : NULL, ++serial, &bd);
        int owner = bd.colors == (1 << HS_BLACK) ? HS_BLACK
                  : bd.colors == (1 << HS_WHITE) ? HS_WHITE : 0;
        /* Too open to be anyone's (a lone stone on an empty board, a moyo):
         * dame, so per-move scores of an opening stay near komi. */
        if (owner && cap && n > cap_points
            && (long)n > (long)x->cfg.territory_per_stone * bd.stones)
            owner = 0;
        bool seki_eye = owner && bd.seki && !bd.plain;
        s_mark_region(b, pts, n, owner, seki_eye, bd.seki, out);
    }
}

int hs__judge_compute_own(const hs_board_t *b, const hs_stability_t *stability,
                          const hs_judge_config_t *cfg, const float *own, hs_judge_t *out,
                          hs_error_t *err)
{
    if (b->size < HS_BOARD_MIN_SIZE || b->size > HS_BOARD_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "judge: board size %d", b->size);
    /* The context is large (regions for both colours): keep it off small thread stacks? It is
     * ~60 KB; worker threads get the default 8 MB stack, so the stack is fine. */
    s_ctx_t x;
    x.b = b;
    x.stab = stability;
    x.cfg = *cfg;
    x.np = hs_board_num_points(b);
    x.dirs[0] = -b->stride; x.dirs[1] = -1; x.dirs[2] = 1; x.dirs[3] = b->stride;
    memset(x.dead, 0, (size_t)x.np);
    memset(x.seki, 0, (size_t)x.np);
    memcpy(x.live, b->color, (size_t)x.np);
    x.reg_valid[HS_BLACK] = x.reg_valid[HS_WHITE] = 0;
    x.nst = 0;
    for (int p = 0; p < x.np; p++)
        if (s_is_stone(b->color[p])) x.st[x.nst++] = (hs_point_t)p;
    /* The playouts' ownership or another source's (the net, judge_net.c):
     * step 4 decides from it the same way either way. */
    x.mc = own;
    int rounds = 0;
    while (rounds < x.cfg.max_rounds) {
        rounds++;
        if (!s_round(&x))
            break;
    }

    /* Step 5: regions of empty points and dead stones bordered by live stones. */
    memset(out, 0, sizeof *out);
    out->size = b->size;
    out->rounds = rounds;
    s_classify(&x, out);
    for (int p = 0; p < x.np; p++)
        out->count[out->cls[p]]++;
    hs__judge_must_fill(b, x.live, x.dead, x.seki, out);
    return 0;
}
