/*
 * core/rng.h — a small, fast, seeded pseudo-random generator (xoshiro256**,
 * Blackman & Vigna 2018) for playouts and tests. No global state: every user
 * owns an hs_rng_t, so threads and runs are reproducible from their seeds.
 *
 * Not for cryptography. Header-only: everything is static inline, because
 * playouts draw a number per move and a call across translation units would
 * cost more than the generator.
 */
#ifndef HS_CORE_RNG_H
#define HS_CORE_RNG_H

#include <stdint.h>

typedef struct hs_rng {
    uint64_t s[4];
} hs_rng_t;

/* Seeds rng from any 64-bit value (0 included) by running splitmix64, which
 * never yields the all-zero state xoshiro must avoid (in practice). */
static inline void hs_rng_seed(hs_rng_t *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        rng->s[i] = z ^ (z >> 31);
    }
    if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
        rng->s[0] = 1;
}

static inline uint64_t hs_rng__rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next 64 uniformly distributed bits. */
static inline uint64_t hs_rng_next(hs_rng_t *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = hs_rng__rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = hs_rng__rotl(s[3], 45);
    return result;
}

/*
 * A number in 0..n-1 (n >= 1) by Lemire's multiply-shift on the top 32 bits.
 * The bias is below n / 2^32, irrelevant for board-sized n, and it needs no
 * division, which matters per playout move.
 */
static inline uint32_t hs_rng_below(hs_rng_t *rng, uint32_t n)
{
    return (uint32_t)(((hs_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

/* A double uniformly in [0, 1). */
static inline double hs_rng_double(hs_rng_t *rng)
{
    return (double)(hs_rng_next(rng) >> 11) * 0x1.0p-53;
}

#endif
