/*
 * core/symmetry.c — the 8 symmetries of a square board and the canonical
 * whole-board key of core/symmetry.h.
 *
 * The key is Zobrist-like: the XOR over the stones of a 64-bit value per
 * (size, colour, point), mixed with a value of the size. The per-point values
 * are not a table but splitmix64's finaliser applied to (seed, size, colour,
 * point): the same numbers in every process and build, no state to set up, and
 * about as cheap as a table look-up beside the 8 orientations walked per stone.
 */
#include "core/symmetry.h"

/* Fixed seed: changing it changes every stored board key (docs/STORE.md). */
#define S_SEED 0x6879656f6e677365ull   /* "hyeongse" */

static uint64_t s_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The value of colour c (1 or 2) at vertex v = y * size + x. */
static uint64_t s_zobrist(int size, int c, int v)
{
    return s_mix(S_SEED ^ ((uint64_t)size << 24 | (uint64_t)c << 16 | (uint64_t)v));
}

void hs_sym_apply(int size, int sym, int x, int y, int *ox, int *oy)
{
    if (sym & 1)
        x = size - 1 - x;
    if (sym & 2)
        y = size - 1 - y;
    if (sym & 4) {
        int t = x;
        x = y;
        y = t;
    }
    *ox = x;
    *oy = y;
}

/* A symmetry is known by where it sends (0, 1) on a 5×5 board: that point's 8
 * images are distinct, so composing and inverting need no case table. */
static int s_identify(int x, int y)
{
    for (int s = 0; s < HS_SYM_COUNT; s++) {
        int ox, oy;
        hs_sym_apply(5, s, 0, 1, &ox, &oy);
        if (ox == x && oy == y)
            return s;
    }
    return 0;   /* unreachable for images of (0, 1) */
}

int hs_sym_compose(int a, int b)
{
    int x, y;
    hs_sym_apply(5, a & 7, 0, 1, &x, &y);
    hs_sym_apply(5, b & 7, x, y, &x, &y);
    return s_identify(x, y);
}

int hs_sym_inverse(int sym)
{
    for (int s = 0; s < HS_SYM_COUNT; s++)
        if (hs_sym_compose(sym & 7, s) == 0)
            return s;
    return 0;
}

/* Whether b's stones are unchanged by sym (exact, not by hash). */
static bool s_fixed_by(const hs_board_t *b, int sym)
{
    int n = b->size;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int sx, sy;
            hs_sym_apply(n, sym, x, y, &sx, &sy);
            if (b->color[hs_board_point(b, x, y)] != b->color[hs_board_point(b, sx, sy)])
                return false;
        }
    return true;
}

void hs_sym_hashes_init(hs_sym_hashes_t *z, const hs_board_t *b)
{
    int n = b->size;
    z->size = n;
    for (int s = 0; s < HS_SYM_COUNT; s++)
        z->h[s] = s_mix(S_SEED + (uint64_t)n);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int c = b->color[hs_board_point(b, x, y)];
            if (c == HS_BLACK || c == HS_WHITE)
                hs_sym_hashes_toggle(z, (hs_color_t)c, x, y);
        }
}

void hs_sym_hashes_toggle(hs_sym_hashes_t *z, hs_color_t color, int x, int y)
{
    int n = z->size;
    for (int s = 0; s < HS_SYM_COUNT; s++) {
        int sx, sy;
        hs_sym_apply(n, s, x, y, &sx, &sy);
        z->h[s] ^= s_zobrist(n, (int)color, sy * n + sx);
    }
}

uint64_t hs_sym_hashes_key(const hs_sym_hashes_t *z, int *sym)
{
    int best = 0;
    for (int s = 1; s < HS_SYM_COUNT; s++)
        if (z->h[s] < z->h[best])
            best = s;
    if (sym)
        *sym = best;
    return z->h[best];
}

uint64_t hs_board_canonical_key(const hs_board_t *b, int *sym, unsigned *stabilizer)
{
    hs_sym_hashes_t z;
    hs_sym_hashes_init(&z, b);
    if (stabilizer) {
        /* Equal hashes are the candidates; the stones themselves decide. */
        unsigned m = 1;
        for (int s = 1; s < HS_SYM_COUNT; s++)
            if (z.h[s] == z.h[0] && s_fixed_by(b, s))
                m |= 1u << s;
        *stabilizer = m;
    }
    return hs_sym_hashes_key(&z, sym);
}
