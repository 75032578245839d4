/*
 * core/board.c — the Go board of board.h: incremental strings with exact
 * liberty counts, captures, simple ko, Zobrist hashing, the empty-point list,
 * setup stones, the from-scratch self-check, eyes (diagrams and GTP vertices:
 * board_text.c).
 *
 * Hot path (hs_board_play, used millions of times per second by playouts):
 *   1. put the stone, take it out of the empty list, hash it;
 *   2. take one liberty from each distinct neighbouring string;
 *   3. merge the friendly neighbour strings into the largest one, counting the
 *      liberties the smaller ones (and the new stone) add that the largest did
 *      not already have — exact, without a rebuild;
 *   4. remove enemy strings left without liberties, giving one liberty to each
 *      distinct friendly string next to each freed point;
 *   5. suicide (only when allowed) removes the mover's own string.
 * Legality is checked before anything changes, so a refused move leaves the
 * board untouched. Per-point neighbour colour counts (field nbr) are kept with
 * every stone placed or removed, so "has an empty neighbour" and "touches a
 * stone at all" are one load; the neighbour scan in s_play is branch-free,
 * because in random play mispredicted branches cost more than instructions.
 *
 * Zobrist keys are not a mutable global table: s_zkey() mixes (point, colour)
 * with the splitmix64 finaliser, which is a bijection on 64-bit words, so keys of
 * distinct (point, colour) pairs are distinct and well spread.
 */
#include "core/board.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static inline uint64_t s_mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Key of a stone of colour c (1 or 2) at point p. */
static inline uint64_t s_zkey(hs_point_t p, int c)
{
    return s_mix64(((uint64_t)p << 2) | (uint64_t)c);
}

/* Extra keys for hs_board_key: side to move and the ko point (colour code 3
 * cannot collide with a stone key). */
static inline uint64_t s_ko_key(hs_point_t p) { return s_mix64(((uint64_t)p << 2) | 3u); }
#define S_WHITE_TO_MOVE_KEY 0xD6E8FEB86659FD93ull

static inline void s_empty_remove(hs_board_t *b, hs_point_t p)
{
    int i = b->empty_pos[p];
    hs_point_t last = b->empty[--b->num_empty];
    b->empty[i] = last;
    b->empty_pos[last] = (uint16_t)i;
}

static inline void s_empty_add(hs_board_t *b, hs_point_t p)
{
    b->empty_pos[p] = (uint16_t)b->num_empty;
    b->empty[b->num_empty++] = p;
}

/* Neighbour counts of index p from the colours (board.h, field nbr); indices
 * outside 0..np-1 count as off board. */
static inline uint16_t s_nbr_at(const uint8_t *col, int p, int s, int np)
{
    const int q4[4] = { p - s, p - 1, p + 1, p + s };
    uint16_t v = 0;
    for (int i = 0; i < 4; i++) {
        int q = q4[i];
        int c = (q < 0 || q >= np) ? HS_OFFBOARD : col[q];
        v = (uint16_t)(v + (1u << (4 * c)));
    }
    return v;
}

/* Neighbour counts of every index from the colours (board.h, field nbr).
 * Only the first and last `stride` indices can have a neighbour outside the
 * array; the middle range needs no bounds test, so it is a straight loop the
 * compiler vectorises (this runs for every board rebuilt from scratch). */
static void s_compute_nbr(const hs_board_t *b, uint16_t *nbr)
{
    const int np = hs_board_num_points(b);
    const int s = b->stride;
    const uint8_t *col = b->color;
    static const uint16_t one[4] = { 1u, 1u << 4, 1u << 8, 1u << 12 };
    for (int p = 0; p < np; p++) {
        if (p == s) {
            for (; p < np - s; p++)
                nbr[p] = (uint16_t)(one[col[p - s]] + one[col[p - 1]] + one[col[p + 1]]
                                    + one[col[p + s]]);
            if (p >= np)
                break;
        }
        nbr[p] = s_nbr_at(col, p, s, np);
    }
}

/* A stone of colour c appears at p (delta +1) or leaves it (delta -1). */
static inline void s_nbr_update(hs_board_t *b, hs_point_t p, int c, int add)
{
    const int stride = b->stride;
    /* Empty -> c when adding, c -> empty when removing. */
    const uint16_t delta = (uint16_t)(add ? (1u << (4 * c)) - 1u : 1u - (1u << (4 * c)));
    b->nbr[p - stride] = (uint16_t)(b->nbr[p - stride] + delta);
    b->nbr[p - 1] = (uint16_t)(b->nbr[p - 1] + delta);
    b->nbr[p + 1] = (uint16_t)(b->nbr[p + 1] + delta);
    b->nbr[p + stride] = (uint16_t)(b->nbr[p + stride] + delta);
}

/* dst[i] = first + i * step for i < n, four entries per 64-bit store (gcc -O2
 * does not vectorise such short loops, and this runs for every board set up). */
static inline void s_fill16(uint16_t *dst, int n, uint16_t first, int step)
{
    const uint64_t st = (uint64_t)step;
    uint64_t v = (uint64_t)first * 0x0001000100010001ull + (st << 16) + (2 * st << 32)
               + (3 * st << 48);
    const uint64_t inc = 4 * st * 0x0001000100010001ull;
    int i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + 4 <= n; i += 4, v += inc)
        memcpy(dst + i, &v, sizeof v);  /* lane 0 is the low 16 bits */
#else
    (void)v;
    (void)inc;
#endif
    for (; i < n; i++)
        dst[i] = (uint16_t)(first + i * step);
}

/* dst[i] = dst[i - back] + add for back <= i < n: each row of a board's
 * lists is the row before it plus a constant. Four entries per 64-bit step
 * when back >= 4 (the entries read are then already final; no lane carries, as
 * every entry stays below 65536). */
static inline void s_step16(uint16_t *dst, int back, int n, uint16_t add)
{
    int i = back;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (back >= 4) {
        const uint64_t inc = (uint64_t)add * 0x0001000100010001ull;
        for (; i + 4 <= n; i += 4) {
            uint64_t v;
            memcpy(&v, dst + i - back, sizeof v);
            v += inc;
            memcpy(dst + i, &v, sizeof v);
        }
    }
#endif
    for (; i < n; i++)
        dst[i] = (uint16_t)(dst[i - back] + add);
}

/* Repeats the first `block` bytes of base over base[block .. total), in
 * doubling copies (a few memcpy calls instead of one per row). */
static void s_repeat(void *base, size_t block, size_t total)
{
    uint8_t *p = base;
    for (size_t done = block; done < total;) {
        const size_t m = done < total - done ? done : total - done;
        memcpy(p + done, p, m);
        done += m;
    }
}

/* Neighbour counts of row y of an empty board: its left sentinel and its N
 * points (hs_board_init). */
static void s_nbr_empty_row(hs_board_t *b, int y)
{
    const uint16_t E = 1u, O = 1u << (4 * HS_OFFBOARD);
    const int size = b->size, row = (y + 1) * b->stride + 1;
    const int ey = (y == 0) + (y == size - 1);
    b->nbr[row - 1] = (uint16_t)(y == 0 ? 3 * O + E : 2 * O + 2 * E);
    s_fill16(b->nbr + row, size, (uint16_t)((4 - ey) * E + ey * O), 0);
    b->nbr[row] = (uint16_t)(b->nbr[row] + O - E);
    b->nbr[row + size - 1] = (uint16_t)(b->nbr[row + size - 1] + O - E);
}

int hs_board_init(hs_board_t *b, int size)
{
    if (size < HS_BOARD_MIN_SIZE || size > HS_BOARD_MAX_SIZE)
        return HS_EINVAL;
    /* Only the scalars and the used part of each point array are written: the
     * unused tails are never read (as after hs_board_copy), and clearing the
     * whole 12 KB struct was most of the cost of starting each replayed game. */
    memset(b, 0, offsetof(hs_board_t, empty));
    b->size = size;
    b->stride = size + 1;
    b->to_move = HS_BLACK;
    b->ko = HS_NO_POINT;
    b->last_move = HS_NO_POINT;
    const int np = hs_board_num_points(b);
    const int s = b->stride;
    const size_t n16 = (size_t)np * sizeof(uint16_t);
    memset(b->color, HS_OFFBOARD, (size_t)np);
    memset(b->empty_pos, 0, n16);
    memset(b->head, 0, n16);
    memset(b->next, 0, n16);
    memset(b->libs, 0, n16);
    memset(b->stones, 0, n16);
    /* Neighbour counts of the empty board, written directly (s_compute_nbr
     * gives the same, see hs_board_check): an on-board point has one off-board
     * neighbour per edge it lies on, empty ones otherwise; a sentinel has one
     * empty neighbour (the on-board point beside it), except the two corners of
     * the array (none) and the left sentinels of rows 2..N (two: the ends of
     * two rows). Every middle row (its left sentinel and its N points: stride
     * entries) is the same, so row 1 is written once and copied, in doubling
     * blocks, over the rows up to the last. */
    const uint16_t E = 1u, O = 1u << (4 * HS_OFFBOARD);
    b->nbr[0] = (uint16_t)(4 * O);
    s_fill16(b->nbr + 1, s - 1, (uint16_t)(3 * O + E), 0);
    s_nbr_empty_row(b, 0);
    if (size > 2) {   /* rows 1 .. size-2, from their left sentinels: row 1 again */
        s_nbr_empty_row(b, 1);
        s_repeat(b->nbr + 2 * s, (size_t)s * sizeof b->nbr[0],
                 (size_t)(size - 2) * (size_t)s * sizeof b->nbr[0]);
    }
    s_nbr_empty_row(b, size - 1);
    /* The colours: every row is N empty points and the next row's sentinel. */
    memset(b->color + s + 1, HS_EMPTY, (size_t)size);
    s_repeat(b->color + s + 1, (size_t)s, (size_t)((size - 1) * s + size));
    /* The empty list in row order (each row the one before plus the stride),
     * and each point's index in it (each row the one before plus N; the
     * sentinels between rows stay 0). */
    s_fill16(b->empty, size, (uint16_t)(s + 1), 1);
    s_step16(b->empty, size, size * size, (uint16_t)s);
    b->num_empty = size * size;
    s_fill16(b->empty_pos + s + 1, size, 0, 1);
    s_step16(b->empty_pos + s + 1, s, (size - 1) * s + size, (uint16_t)size);
    for (int y = 1; y < size; y++)
        b->empty_pos[(y + 1) * s] = 0;
    s_fill16(b->nbr + (size + 1) * s, np - 1 - (size + 1) * s, (uint16_t)(3 * O + E), 0);
    b->nbr[np - 1] = (uint16_t)(4 * O);
    return 0;
}

void hs_board_copy(hs_board_t *dst, const hs_board_t *src)
{
    const size_t np = (size_t)hs_board_num_points(src);
    memcpy(dst, src, offsetof(hs_board_t, empty));
    memcpy(dst->empty, src->empty, (size_t)src->num_empty * sizeof src->empty[0]);
    memcpy(dst->empty_pos, src->empty_pos, np * sizeof src->empty_pos[0]);
    memcpy(dst->color, src->color, np * sizeof src->color[0]);
    memcpy(dst->head, src->head, np * sizeof src->head[0]);
    memcpy(dst->next, src->next, np * sizeof src->next[0]);
    memcpy(dst->libs, src->libs, np * sizeof src->libs[0]);
    memcpy(dst->stones, src->stones, np * sizeof src->stones[0]);
    memcpy(dst->nbr, src->nbr, np * sizeof src->nbr[0]);
}

uint64_t hs_board_key(const hs_board_t *b)
{
    uint64_t k = b->stones_hash;
    if (b->to_move == HS_WHITE)
        k ^= S_WHITE_TO_MOVE_KEY;
    if (b->ko != HS_NO_POINT)
        k ^= s_ko_key(b->ko);
    return k;
}

static inline bool s_valid_point(const hs_board_t *b, hs_point_t p)
{
    return p != HS_NO_POINT && p < hs_board_num_points(b) && b->color[p] != HS_OFFBOARD;
}

/* hs_board_legal's body, inlined into hs_board_play so that a replayed move
 * pays for one call, not two. */
static inline hs_illegal_t s_legal(const hs_board_t *b, hs_color_t color, hs_point_t p,
                                   unsigned flags)
{
    if (p == HS_PASS)
        return HS_LEGAL;
    if (!s_valid_point(b, p))
        return HS_ILLEGAL_OFFBOARD;
    if (b->color[p] != HS_EMPTY)
        return HS_ILLEGAL_OCCUPIED;
    if (p == b->ko && color == b->to_move)
        return HS_ILLEGAL_KO;
    if ((flags & HS_PLAY_SUICIDE_OK) || (b->nbr[p] & 15))
        return HS_LEGAL;
    const int nb[4] = { -b->stride, -1, 1, b->stride };
    for (int i = 0; i < 4; i++) {
        hs_point_t q = (hs_point_t)(p + nb[i]);
        int c = b->color[q];
        if (c == HS_EMPTY)
            return HS_LEGAL;
        if (c == HS_OFFBOARD)
            continue;
        int libs = b->libs[b->head[q]];
        if (c == (int)color ? libs > 1 : libs == 1)
            return HS_LEGAL;
    }
    return HS_ILLEGAL_SUICIDE;
}

hs_illegal_t hs_board_legal(const hs_board_t *b, hs_color_t color, hs_point_t p, unsigned flags)
{
    return s_legal(b, color, p, flags);
}

/* Removes the string with head h from the board; returns its stone count. Each
 * freed point gives one liberty to every distinct string next to it — only
 * opponent strings can be there, since every same-coloured neighbour belongs to
 * the dying string itself, so one pass suffices. */
static int s_remove_string(hs_board_t *b, hs_point_t h)
{
    const int stride = b->stride;
    const int c = b->color[h];
    const uint8_t opp = (uint8_t)(3 - c);
    int n = 0;
    hs_point_t s = h;
    do {
        b->color[s] = HS_EMPTY;
        b->stones_hash ^= s_zkey(s, c);
        s_empty_add(b, s);
        s_nbr_update(b, s, c, 0);
        n++;
        /* Credit each distinct opponent string next to s once (branch-free, as
         * in s_play; head[] of other points is a valid index, +0 is harmless). */
        const hs_point_t q4[4] = { (hs_point_t)(s - stride), (hs_point_t)(s - 1),
                                   (hs_point_t)(s + 1), (hs_point_t)(s + stride) };
        const hs_point_t nh[4] = { b->head[q4[0]], b->head[q4[1]], b->head[q4[2]], b->head[q4[3]] };
        int st[4];
        for (int i = 0; i < 4; i++)
            st[i] = b->color[q4[i]] == opp;
        const int u1 = st[1] & !(st[0] & (nh[1] == nh[0]));
        const int u2 = st[2] & !(st[0] & (nh[2] == nh[0])) & !(st[1] & (nh[2] == nh[1]));
        const int u3 = st[3] & !(st[0] & (nh[3] == nh[0])) & !(st[1] & (nh[3] == nh[1]))
                     & !(st[2] & (nh[3] == nh[2]));
        b->libs[nh[0]] = (uint16_t)(b->libs[nh[0]] + st[0]);
        b->libs[nh[1]] = (uint16_t)(b->libs[nh[1]] + u1);
        b->libs[nh[2]] = (uint16_t)(b->libs[nh[2]] + u2);
        b->libs[nh[3]] = (uint16_t)(b->libs[nh[3]] + u3);
        s = b->next[s];
    } while (s != h);
    return n;
}

/* True when empty point l touches a stone of the string with head h (colour c).
 * head[] of an empty point is stale, so the colour is checked too. */
static inline int s_touches(const hs_board_t *b, hs_point_t l, hs_point_t h, uint8_t c)
{
    const int stride = b->stride;
    /* Bitwise, not short-circuit: the outcome is unpredictable in random play. */
    return ((b->color[l - stride] == c) & (b->head[l - stride] == h))
         | ((b->color[l - 1] == c) & (b->head[l - 1] == h))
         | ((b->color[l + 1] == c) & (b->head[l + 1] == h))
         | ((b->color[l + stride] == c) & (b->head[l + stride] == h));
}

/*
 * Merges the strings with heads others[0..n) and the lone stone p into the
 * string with head h (all of colour c). libs[h] must already exclude p. Counts
 * the liberties of the merged pieces that h does not already have, in one pass
 * that relabels each stone right after looking at it: a liberty next to an
 * already relabelled stone was seen (and settled) when that stone was visited,
 * so the "touches h" test only ever meets stones that were h's before.
 */
static void s_merge(hs_board_t *b, hs_point_t h, hs_point_t p, const hs_point_t *others, int n)
{
    const int stride = b->stride;
    const uint8_t c = b->color[h];
    /* Empty points looked at so far, as a bitmap over points (cheap to clear). */
    uint64_t seen[(HS_BOARD_MAX_POINTS + 63) / 64] = { 0 };
    int nfound = 0;
    for (int piece = -1; piece < n; piece++) {
        const hs_point_t start = piece < 0 ? p : others[piece];
        hs_point_t s = start;
        int cnt = 0;
        do {
            if (b->nbr[s] & 15) {
                const hs_point_t q4[4] = { (hs_point_t)(s - stride), (hs_point_t)(s - 1),
                                           (hs_point_t)(s + 1), (hs_point_t)(s + stride) };
                for (int i = 0; i < 4; i++) {
                    /* Branch-free: count l once, if empty, unseen and not h's. */
                    const hs_point_t l = q4[i];
                    const uint64_t empty = b->color[l] == HS_EMPTY;
                    const uint64_t bit = 1ull << (l & 63);
                    const int unseen = !(seen[l >> 6] & bit);
                    seen[l >> 6] |= bit & (0 - empty);
                    /* l may be a sentinel whose own neighbours are outside the
                     * array: test s instead then (the result is masked anyway). */
                    const hs_point_t lt = empty ? l : s;
                    nfound += (int)empty & unseen & !s_touches(b, lt, h, c);
                }
            }
            b->head[s] = h;
            cnt++;
            s = b->next[s];
        } while (s != start);
        /* Splice the piece's circular list into h's. */
        hs_point_t t = b->next[h];
        b->next[h] = b->next[start];
        b->next[start] = t;
        b->stones[h] = (uint16_t)(b->stones[h] + cnt);
    }
    b->libs[h] = (uint16_t)(b->libs[h] + nfound);
}

/* The move itself; p is an empty point legal for `color` (suicide only when the
 * caller allows it). */
static inline __attribute__((always_inline)) void s_play(hs_board_t *b, hs_color_t color,
                                                         hs_point_t p)
{
    const int stride = b->stride;
    const int other = hs_color_other(color);
    const hs_point_t q4[4] = { (hs_point_t)(p - stride), (hs_point_t)(p - 1),
                               (hs_point_t)(p + 1), (hs_point_t)(p + stride) };

    /* 1. Put the stone. */
    b->color[p] = (uint8_t)color;
    s_empty_remove(b, p);
    s_nbr_update(b, p, color, 1);
    b->stones_hash ^= s_zkey(p, color);
    b->head[p] = p;
    b->next[p] = p;
    b->stones[p] = 1;
    if (!(b->nbr[p] & 0x0FF0)) {
        /* No stone next to it (common in the opening): nothing to merge or capture. */
        b->libs[p] = (uint16_t)(b->nbr[p] & 15);
        b->ko = HS_NO_POINT;
        b->last_move = p;
        b->passes = 0;
        b->move_number++;
        b->to_move = (hs_color_t)other;
        return;
    }
    /* 2. Distinct neighbouring strings each lose liberty p. Written without
     * data-dependent branches: in random play the neighbour colours are
     * unpredictable, and mispredictions, not instructions, cost most here.
     * head[] of an empty or off-board point is stale but a valid index, so
     * the unconditional `libs[h] -= 0` writes are harmless. */
    const uint8_t nc[4] = { b->color[q4[0]], b->color[q4[1]], b->color[q4[2]], b->color[q4[3]] };
    const hs_point_t nh[4] = { b->head[q4[0]], b->head[q4[1]], b->head[q4[2]], b->head[q4[3]] };
    int stone[4], uniq[4];
    for (int i = 0; i < 4; i++)
        stone[i] = (unsigned)(nc[i] - 1) < 2u;
    uniq[0] = stone[0];
    uniq[1] = stone[1] & !(stone[0] & (nh[1] == nh[0]));
    uniq[2] = stone[2] & !(stone[0] & (nh[2] == nh[0])) & !(stone[1] & (nh[2] == nh[1]));
    uniq[3] = stone[3] & !(stone[0] & (nh[3] == nh[0])) & !(stone[1] & (nh[3] == nh[1]))
            & !(stone[2] & (nh[3] == nh[2]));
    hs_point_t friends[4], enemies[4];
    int nf = 0, ne = 0;
    for (int i = 0; i < 4; i++) {
        b->libs[nh[i]] = (uint16_t)(b->libs[nh[i]] - uniq[i]);
        int mine = nc[i] == (uint8_t)color;
        friends[nf] = nh[i];
        nf += uniq[i] & mine;
        enemies[ne] = nh[i];
        ne += uniq[i] & !mine;
    }
    b->libs[p] = (uint16_t)(b->nbr[p] & 15);

    /* 3. Merge into the largest friendly string. */
    hs_point_t h = p;
    if (nf == 1) {
        /* The common case: the stone extends one string. Its new liberties are
         * its empty neighbours that the string does not already touch. */
        h = friends[0];
        const uint8_t c = (uint8_t)color;
        int add = 0;
        for (int i = 0; i < 4; i++) {
            const int empty = b->color[q4[i]] == HS_EMPTY;
            const hs_point_t lt = empty ? q4[i] : p;  /* never a sentinel's neighbours */
            add += empty & !s_touches(b, lt, h, c);
        }
        b->libs[h] = (uint16_t)(b->libs[h] + add);
        b->head[p] = h;
        b->next[p] = b->next[h];
        b->next[h] = p;
        b->stones[h]++;
    } else if (nf > 1) {
        int big = 0;
        for (int i = 1; i < nf; i++)
            if (b->stones[friends[i]] > b->stones[friends[big]])
                big = i;
        h = friends[big];
        friends[big] = friends[--nf];
        s_merge(b, h, p, friends, nf);
    }

    /* 4. Captures. */
    int captured = 0;
    hs_point_t last_captured = HS_NO_POINT;
    for (int i = 0; i < ne; i++) {
        if (b->libs[enemies[i]] == 0) {
            last_captured = enemies[i];
            captured += s_remove_string(b, enemies[i]);
        }
    }
    b->captures[color] += captured;

    /* 5. Suicide (reached only when the caller allows it). */
    if (b->libs[h] == 0) {
        int n = s_remove_string(b, h);
        b->captures[other] += n;
    }

    b->ko = HS_NO_POINT;
    if (captured == 1 && b->color[p] == (uint8_t)color && b->stones[h] == 1 && b->libs[h] == 1)
        b->ko = last_captured;
    b->last_move = p;
    b->passes = 0;
    b->move_number++;
    b->to_move = (hs_color_t)other;
}

void hs_board_play_legal(hs_board_t *b, hs_color_t color, hs_point_t p)
{
    assert(p != HS_PASS && hs_board_legal(b, color, p, HS_PLAY_SUICIDE_OK) == HS_LEGAL);
    s_play(b, color, p);
}

int hs_board_play(hs_board_t *b, hs_color_t color, hs_point_t p, unsigned flags,
                  hs_illegal_t *reason)
{
    assert(color == HS_BLACK || color == HS_WHITE);
    if (p == HS_PASS) {
        b->passes++;
        b->ko = HS_NO_POINT;
        b->last_move = HS_PASS;
        b->move_number++;
        b->to_move = hs_color_other(color);
        if (reason)
            *reason = HS_LEGAL;
        return 0;
    }
    hs_illegal_t why = s_legal(b, color, p, flags);
    if (reason)
        *reason = why;
    if (why != HS_LEGAL)
        return HS_EILLEGAL;
    s_play(b, color, p);
    return 0;
}

/* Recomputes strings, liberties, empty list and hash from the colours, and
 * the neighbour counts when with_nbr (callers that keep those up to date
 * themselves skip the scan). The empty list comes out in index order. */
static void s_rebuild(hs_board_t *b, bool with_nbr)
{
    const int np = hs_board_num_points(b);
    const int stride = b->stride;
    uint8_t seen[HS_BOARD_MAX_POINTS];
    uint16_t libmark[HS_BOARD_MAX_POINTS];
    hs_point_t stack[HS_BOARD_MAX_POINTS];
    memset(seen, 0, sizeof seen);
    memset(libmark, 0, sizeof libmark);
    b->num_empty = 0;
    b->stones_hash = 0;
    if (with_nbr)
        s_compute_nbr(b, b->nbr);
    for (int p = 0; p < np; p++) {
        int c = b->color[p];
        if (c == HS_EMPTY)
            s_empty_add(b, (hs_point_t)p);
        else if (c == HS_BLACK || c == HS_WHITE)
            b->stones_hash ^= s_zkey((hs_point_t)p, c);
    }
    uint16_t stamp = 0;
    for (int p = 0; p < np; p++) {
        int c = b->color[p];
        if ((c != HS_BLACK && c != HS_WHITE) || seen[p])
            continue;
        /* Flood fill the string from p; p becomes its head. */
        stamp++;
        int sp = 0, stones = 0, libs = 0;
        hs_point_t prev = (hs_point_t)p;
        stack[sp++] = (hs_point_t)p;
        seen[p] = 1;
        while (sp > 0) {
            hs_point_t s = stack[--sp];
            b->head[s] = (hs_point_t)p;
            if (stones > 0)
                b->next[prev] = s;
            prev = s;
            stones++;
            const hs_point_t q4[4] = { (hs_point_t)(s - stride), (hs_point_t)(s - 1),
                                       (hs_point_t)(s + 1), (hs_point_t)(s + stride) };
            for (int i = 0; i < 4; i++) {
                hs_point_t q = q4[i];
                if (b->color[q] == HS_EMPTY && libmark[q] != stamp) {
                    libmark[q] = stamp;
                    libs++;
                } else if (b->color[q] == c && !seen[q]) {
                    seen[q] = 1;
                    stack[sp++] = q;
                }
            }
        }
        b->next[prev] = (hs_point_t)p;
        b->stones[p] = (uint16_t)stones;
        b->libs[p] = (uint16_t)libs;
    }
}

/* Gives p colour `color` and moves its neighbours' counts from the old colour
 * to the new one (the counts depend on the colours alone: no recount). */
static inline void s_set_color(hs_board_t *b, hs_point_t p, int color)
{
    const uint16_t delta = (uint16_t)((1u << (4 * color)) - (1u << (4 * b->color[p])));
    const int stride = b->stride;
    b->nbr[p - stride] = (uint16_t)(b->nbr[p - stride] + delta);
    b->nbr[p - 1] = (uint16_t)(b->nbr[p - 1] + delta);
    b->nbr[p + 1] = (uint16_t)(b->nbr[p + 1] + delta);
    b->nbr[p + stride] = (uint16_t)(b->nbr[p + stride] + delta);
    b->color[p] = (uint8_t)color;
}

int hs_board_set_stone(hs_board_t *b, hs_point_t p, hs_color_t color)
{
    if (!s_valid_point(b, p) || (color != HS_EMPTY && color != HS_BLACK && color != HS_WHITE))
        return HS_EINVAL;
    s_set_color(b, p, color);
    /* A setup changes the position, so an old ko ban no longer applies. */
    b->ko = HS_NO_POINT;
    s_rebuild(b, false);
    return 0;
}

int hs_board_set_stones(hs_board_t *b, const hs_point_t *points, const uint8_t *colors, int n)
{
    for (int i = 0; i < n; i++)
        if (!s_valid_point(b, points[i]) || colors[i] > HS_WHITE)
            return HS_EINVAL;
    if (n <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        s_set_color(b, points[i], colors[i]);
    b->ko = HS_NO_POINT;
    s_rebuild(b, false);
    return 0;
}

int hs_board_check(const hs_board_t *b, hs_error_t *err)
{
    if (b->size < HS_BOARD_MIN_SIZE || b->size > HS_BOARD_MAX_SIZE || b->stride != b->size + 1)
        return hs_error_set(err, HS_EBADSTATE, "board: bad size %d / stride %d", b->size, b->stride);
    const int np = hs_board_num_points(b);
    /* Sentinels. */
    for (int p = 0; p < np; p++) {
        int x = p % b->stride - 1, y = p / b->stride - 1;
        bool on = x >= 0 && y >= 0 && y < b->size;
        int c = b->color[p];
        if (on != (c != HS_OFFBOARD) || c > HS_OFFBOARD)
            return hs_error_set(err, HS_EBADSTATE, "board: point %d has colour %d", p, c);
    }
    hs_board_t *r = &(hs_board_t){ 0 };
    memcpy(r, b, sizeof *r);
    s_rebuild(r, true);
    if (r->stones_hash != b->stones_hash)
        return hs_error_set(err, HS_EBADSTATE, "board: stones hash %016llx, recomputed %016llx",
                            (unsigned long long)b->stones_hash, (unsigned long long)r->stones_hash);
    if (r->num_empty != b->num_empty)
        return hs_error_set(err, HS_EBADSTATE, "board: %d empty points listed, %d on the board",
                            b->num_empty, r->num_empty);
    for (int i = 0; i < b->num_empty; i++) {
        hs_point_t e = b->empty[i];
        if (e >= np || b->color[e] != HS_EMPTY || b->empty_pos[e] != i)
            return hs_error_set(err, HS_EBADSTATE, "board: empty list entry %d (point %d) is wrong",
                                i, e);
    }
    for (int p = 0; p < np; p++)
        if (b->nbr[p] != r->nbr[p])
            return hs_error_set(err, HS_EBADSTATE, "board: neighbour counts of point %d are %04x, "
                                "really %04x", p, b->nbr[p], r->nbr[p]);
    int total = 0, heads_total = 0;
    char name[8];
    for (int p = 0; p < np; p++) {
        int c = b->color[p];
        if (c != HS_BLACK && c != HS_WHITE)
            continue;
        total++;
        hs_point_t h = b->head[p];
        if (h >= np || b->color[h] != c || b->head[h] != h || r->head[h] != r->head[p])
            return hs_error_set(err, HS_EBADSTATE, "board: stone %s has a wrong head",
                                hs_board_point_name(b, (hs_point_t)p, name));
        if (b->libs[h] != r->libs[r->head[p]])
            return hs_error_set(err, HS_EBADSTATE, "board: string at %s has %d liberties, really %d",
                                hs_board_point_name(b, (hs_point_t)p, name), b->libs[h],
                                r->libs[r->head[p]]);
        if (b->stones[h] != r->stones[r->head[p]])
            return hs_error_set(err, HS_EBADSTATE, "board: string at %s has %d stones, really %d",
                                hs_board_point_name(b, (hs_point_t)p, name), b->stones[h],
                                r->stones[r->head[p]]);
        if (h == p) {
            /* Walk the circular list: exactly `stones` members, all with this head. */
            hs_point_t s = p;
            int n = 0;
            do {
                if (s >= np || b->color[s] != c || b->head[s] != h || n > b->stones[h])
                    return hs_error_set(err, HS_EBADSTATE, "board: string list at %s is broken",
                                        hs_board_point_name(b, (hs_point_t)p, name));
                n++;
                s = b->next[s];
            } while (s != p);
            if (n != b->stones[h])
                return hs_error_set(err, HS_EBADSTATE, "board: string list at %s has %d stones, not %d",
                                    hs_board_point_name(b, (hs_point_t)p, name), n, b->stones[h]);
            heads_total += n;
        }
    }
    if (heads_total != total)
        return hs_error_set(err, HS_EBADSTATE, "board: string lists hold %d stones, board %d",
                            heads_total, total);
    if (b->ko != HS_NO_POINT && (!s_valid_point(b, b->ko) || b->color[b->ko] != HS_EMPTY))
        return hs_error_set(err, HS_EBADSTATE, "board: ko point %d is not an empty point", b->ko);
    if (b->to_move != HS_BLACK && b->to_move != HS_WHITE)
        return hs_error_set(err, HS_EBADSTATE, "board: side to move %d", b->to_move);
    return 0;
}

bool hs_board_is_eye(const hs_board_t *b, hs_point_t p, hs_color_t color)
{
    if (b->color[p] != HS_EMPTY)
        return false;
    const int stride = b->stride;
    const uint8_t *c = b->color;
    const uint8_t mine = (uint8_t)color;
    if ((c[p - stride] != mine && c[p - stride] != HS_OFFBOARD)
        || (c[p - 1] != mine && c[p - 1] != HS_OFFBOARD)
        || (c[p + 1] != mine && c[p + 1] != HS_OFFBOARD)
        || (c[p + stride] != mine && c[p + stride] != HS_OFFBOARD))
        return false;
    const uint8_t opp = (uint8_t)hs_color_other(color);
    const int d[4] = { -stride - 1, -stride + 1, stride - 1, stride + 1 };
    int bad = 0, edge = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t x = c[p + d[i]];
        bad += x == opp;
        edge |= x == HS_OFFBOARD;
    }
    return bad + edge < 2;
}

int hs_board_string_liberties(const hs_board_t *b, hs_point_t p, hs_point_t *libs, int max)
{
    if (b->color[p] != HS_BLACK && b->color[p] != HS_WHITE)
        return 0;
    const int stride = b->stride;
    uint8_t mark[HS_BOARD_MAX_POINTS];
    memset(mark, 0, sizeof mark);
    int n = 0;
    hs_point_t s = p;
    do {
        const hs_point_t q4[4] = { (hs_point_t)(s - stride), (hs_point_t)(s - 1),
                                   (hs_point_t)(s + 1), (hs_point_t)(s + stride) };
        for (int i = 0; i < 4 && n < max; i++) {
            hs_point_t q = q4[i];
            if (b->color[q] == HS_EMPTY && !mark[q]) {
                mark[q] = 1;
                libs[n++] = q;
            }
        }
        s = b->next[s];
    } while (s != p && n < max);
    return n;
}
