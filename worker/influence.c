/*
 * worker/influence.c — Park's stone influence, influence points, lumps, cores
 * and influence areas (the definitions and their rounding are in influence.h).
 *
 * Speed: SI is a sum of one 11x11 kernel per stone. It is accumulated into a
 * scratch grid with a 5-point margin on every side, so the inner loop has no
 * bounds checks and runs over contiguous rows; the result is then copied into
 * board indexing. Lumps and territory are plain flood fills with an explicit
 * stack (no recursion: 625 points deep on 25x25 would be fine, but stacks on
 * worker threads are small).
 */
#include "worker/influence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define K HS_INFLUENCE_RADIUS
#define KW (2 * K + 1)

/* Fixed point: SP x100 is held as an integer multiple of 1 / S_FX. S_FX is
 * 6 * 2^32 so that the rational stone powers (100, 50, 100/3, 20, 12.5) are
 * exact, and integer sums are exact and independent of the order of the stones:
 * a stone and an opposing stone at the mirrored offset cancel to exactly 0. */
#define S_FX ((int64_t)6 << 32)
/* 100 / sqrt(2) / 120 in fixed point, rounded: the diagonal powers 100 / sqrt(2),
 * / sqrt(8), / sqrt(18), / sqrt(50), / sqrt(128) are its multiples 120, 60, 40,
 * 24 and 15, so sums of them that cancel exactly in reals cancel here too. */
#define S_SQRT2_UNIT ((int64_t)15185002500)

/* SP x100 times S_FX at offset (|dx|, |dy|), indexed [|dy|][|dx|]. The other
 * off-line values are 100 * S_FX / sqrt(d(a)^2 + d(b)^2) rounded to the nearest
 * integer (error below 1e-10 of a unit x100); tests/test_influence.c re-derives
 * every entry from the formula. */
static const int64_t s_sp_fx[K + 1][K + 1] = {
    { 100 * S_FX, 100 * S_FX, 50 * S_FX, 100 * S_FX / 3, 20 * S_FX, 25 * S_FX / 2 },
    { 100 * S_FX, 120 * S_SQRT2_UNIT, 1152460660199, 814912747878, 505387431982, 319635077177 },
    { 50 * S_FX, 1152460660199, 60 * S_SQRT2_UNIT, 714725760562, 478533242694, 312504773294 },
    { 100 * S_FX / 3, 814912747878, 714725760562, 40 * S_SQRT2_UNIT, 441948488698, 301612739696 },
    { 20 * S_FX, 505387431982, 478533242694, 441948488698, 24 * S_SQRT2_UNIT, 273159373707 },
    { 25 * S_FX / 2, 319635077177, 312504773294, 301612739696, 273159373707, 15 * S_SQRT2_UNIT },
};

#define GRID_W (HS_BOARD_MAX_SIZE + 2 * K + 6)   /* room for the 16-wide rows */

int hs_influence_stone_power(int dx, int dy)
{
    if (dx < -K || dx > K || dy < -K || dy > K)
        return 0;
    return (int)((s_sp_fx[abs(dy)][abs(dx)] + S_FX / 2) / S_FX);   /* half up */
}

double hs_influence_stone_power_exact(int dx, int dy)
{
    if (dx < -K || dx > K || dy < -K || dy > K)
        return 0.0;
    return (double)s_sp_fx[abs(dy)][abs(dx)] / (double)S_FX;
}

/* The 11x11 kernel as rows padded to 16 entries (zeros), so that the inner loop
 * of the sum is a fixed-length run of vector adds. */
static void s_kernel_rows(int64_t k[KW][16])
{
    for (int r = 0; r < KW; r++)
        for (int q = 0; q < 16; q++)
            k[r][q] = q < KW ? s_sp_fx[abs(r - K)][abs(q - K)] : 0;
}

/* The kernel times w (0 < w < 1, so every product is positive and below 2^42:
 * the cast after + 0.5 rounds to nearest, and compiles to vector code where
 * llround would be a call per entry). A weight of exactly 1 never comes here,
 * so pure mode and stability mode with every weight 1 add the same integers. */
static void s_kernel_scaled(const int64_t k[KW][16], float w, int64_t out[KW][16])
{
    const double wd = w;
    for (int r = 0; r < KW; r++)
        for (int q = 0; q < 16; q++)
            out[r][q] = (int64_t)(wd * (double)k[r][q] + 0.5);
}

/* One rounding, x100 and half away from zero: a position and its colour-swapped
 * twin get exactly opposite SI (12.5 -> 13, -12.5 -> -13, as the paper's table). */
static int16_t s_round_fx(int64_t v)
{
    int64_t a = v < 0 ? -v : v, q = (a + S_FX / 2) / S_FX;
    if (q > INT16_MAX)
        q = INT16_MAX;
    return (int16_t)(v < 0 ? -q : q);
}

void hs_influence_si(const hs_board_t *b, const float *weight, int16_t *si)
{
    const int n = b->size, stride = b->stride;
    int64_t grid[GRID_W * GRID_W], kern[KW][16], scaled[KW][16];
    float scaled_w = -1.0f;   /* the weight scaled[] holds; none yet */
    memset(si, 0, sizeof(int16_t) * HS_BOARD_MAX_POINTS);
    memset(grid, 0, sizeof grid);
    s_kernel_rows(kern);
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            int p = (x + 1) + (y + 1) * stride, c = b->color[p];
            if (c != HS_BLACK && c != HS_WHITE)
                continue;
            float w = weight ? weight[p] : 1.0f;
            if (!(w > 0.0f))   /* 0 (and out-of-range NaN or negatives): projects nothing */
                continue;
            const int64_t (*k)[16] = kern;
            if (w != 1.0f) {
                /* A group's stones share one weight: rescale only when it changes. */
                if (w != scaled_w) {
                    s_kernel_scaled(kern, w, scaled);
                    scaled_w = w;
                }
                k = scaled;
            }
            int64_t *g = grid + y * GRID_W + x;   /* top-left of the window */
            if (c == HS_BLACK) {
                for (int r = 0; r < KW; r++, g += GRID_W)
                    for (int q = 0; q < 16; q++) g[q] += k[r][q];
            } else {
                for (int r = 0; r < KW; r++, g += GRID_W)
                    for (int q = 0; q < 16; q++) g[q] -= k[r][q];
            }
        }
    }
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            si[(x + 1) + (y + 1) * stride] = s_round_fx(grid[(y + K) * GRID_W + x + K]);
}

/* Flood-fills the lump of IP p (colour sign s) with id; returns its size. */
static int s_fill_lump(const hs_board_t *b, hs_influence_t *o, hs_point_t p, int8_t s,
                       int16_t id, hs_point_t *stack)
{
    const int dirs[4] = {-b->stride, -1, 1, b->stride};
    int top = 0, count = 0;
    stack[top++] = p;
    o->lump[p] = id;
    while (top) {
        hs_point_t q = stack[--top];
        count++;
        for (int d = 0; d < 4; d++) {
            hs_point_t r = (hs_point_t)(q + dirs[d]);
            if (o->ip[r] == s && o->lump[r] < 0) {
                o->lump[r] = id;
                stack[top++] = r;
            }
        }
    }
    return count;
}

/* Territory: empty regions (weight-0 stones count as empty) bordered by one colour. */
static void s_territory(const hs_board_t *b, const float *weight, hs_influence_t *o,
                        hs_point_t *stack, hs_point_t *region)
{
    const int np = hs_board_num_points(b);
    const int dirs[4] = {-b->stride, -1, 1, b->stride};
    const int max_size = (int)(HS_INFLUENCE_TERRITORY_MAX_FRAC * b->size * b->size);
    /* open: 1 for an empty point or a weightless stone not yet in a region,
     * 2 once it is in one, 0 for a live stone or a sentinel. */
    uint8_t open[HS_BOARD_MAX_POINTS];
    if (weight) {
        for (int p = 0; p < np; p++) {
            int c = b->color[p];
            open[p] = (uint8_t)(c == HS_EMPTY || ((c == HS_BLACK || c == HS_WHITE) && weight[p] == 0.0f));
        }
    } else {
        for (int p = 0; p < np; p++) open[p] = b->color[p] == HS_EMPTY;
    }
    for (int p = 0; p < np; p++) {
        if (open[p] != 1)
            continue;
        int top = 0, n = 0, border = 0;
        stack[top++] = (hs_point_t)p;
        open[p] = 2;
        while (top) {
            hs_point_t q = stack[--top];
            region[n++] = q;
            for (int d = 0; d < 4; d++) {
                hs_point_t r = (hs_point_t)(q + dirs[d]);
                if (open[r] == 1) {
                    open[r] = 2;
                    stack[top++] = r;
                } else if (!open[r]) {
                    /* a live stone or a sentinel (bit 3, masked off) */
                    border |= (1 << b->color[r]) & 6;
                }
            }
        }
        int8_t owner = border == (1 << HS_BLACK) ? 1 : border == (1 << HS_WHITE) ? -1 : 0;
        if (!owner || n > max_size)
            continue;
        for (int i = 0; i < n; i++)
            o->territory[region[i]] = owner;
        o->territory_count[owner > 0 ? HS_BLACK : HS_WHITE] += n;
    }
}

int hs_influence_compute(const hs_board_t *b, const float *weight, int tau,
                         hs_influence_t *out, hs_error_t *err)
{
    if (tau < 0)
        return hs_error_set(err, HS_EINVAL, "influence: tau %d < 0", tau);
    if (b->size < HS_BOARD_MIN_SIZE || b->size > HS_BOARD_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "influence: board size %d", b->size);
    const int n = b->size, stride = b->stride, np = hs_board_num_points(b);
    hs_influence_t *o = out;
    o->size = n;
    o->tau = tau;
    o->num_lumps = 0;
    /* Only the used part of each point array is written below; the tails are
     * cleared too (the struct is documented as fully defined), but cheaply. */
    memset(o->ip, 0, sizeof o->ip);
    memset(o->core, 0, sizeof o->core);
    memset(o->ia, 0, sizeof o->ia);
    memset(o->territory, 0, sizeof o->territory);
    memset(o->lump, 0xff, sizeof o->lump);   /* -1 in every int16 */
    for (int c = 0; c < 3; c++)
        o->ip_count[c] = o->lump_count[c] = o->core_count[c] = o->ia_count[c] =
            o->territory_count[c] = o->score[c] = 0;

    hs_influence_si(b, weight, o->si);
    int nbip = 0, nwip = 0;
    for (int p = 0; p < np; p++) {   /* branch-free: SI signs are unpredictable */
        int v = o->si[p], e = b->color[p] == HS_EMPTY;
        int bl = e & (v >= tau) & (v > 0), wh = e & (v <= -tau) & (v < 0);
        o->ip[p] = (int8_t)(bl - wh);
        nbip += bl;
        nwip += wh;
    }
    o->ip_count[HS_BLACK] = nbip;
    o->ip_count[HS_WHITE] = nwip;
    /* tau == 0 makes every empty point with SI != 0 an IP; SI == 0 stays neutral
     * (it favours nobody). */

    hs_point_t stack[HS_BOARD_MAX_POINTS], region[HS_BOARD_MAX_POINTS];
    uint8_t lump_has_core[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    for (int p = 0; p < np; p++) {
        if (!o->ip[p] || o->lump[p] >= 0)
            continue;
        int16_t id = (int16_t)o->num_lumps++;
        lump_has_core[id] = 0;
        s_fill_lump(b, o, (hs_point_t)p, o->ip[p], id, stack);
        o->lump_count[o->ip[p] > 0 ? HS_BLACK : HS_WHITE]++;
    }
    /* Cores: (x, y) is the top-left of a 2x2 square of same-colour IPs. Four
     * 4-connected same-colour IPs always lie in one lump. */
    for (int y = 0; y + 1 < n; y++) {
        for (int x = 0; x + 1 < n; x++) {
            int p = (x + 1) + (y + 1) * stride;
            int8_t s = o->ip[p];
            if (!s || o->ip[p + 1] != s || o->ip[p + stride] != s || o->ip[p + stride + 1] != s)
                continue;
            o->core[p] = o->core[p + 1] = o->core[p + stride] = o->core[p + stride + 1] = 1;
            lump_has_core[o->lump[p]] = 1;
            o->core_count[s > 0 ? HS_BLACK : HS_WHITE]++;
        }
    }
    for (int p = 0; p < np; p++) {
        if (o->lump[p] >= 0 && lump_has_core[o->lump[p]]) {
            o->ia[p] = o->ip[p];
            o->ia_count[o->ip[p] > 0 ? HS_BLACK : HS_WHITE]++;
        }
    }

    s_territory(b, weight, o, stack, region);
    for (int p = 0; p < np; p++) {
        int8_t s = o->territory[p] ? o->territory[p] : o->ia[p];
        if (s)
            o->score[s > 0 ? HS_BLACK : HS_WHITE]++;
    }
    return 0;
}
