/*
 * core/rules.c — the rule-set table of rules.h, rule-name parsing, and play
 * with superko against a history of position hashes.
 *
 * Superko keys: positional superko compares the stones only (whole-board
 * position, whoever is to move); situational superko compares the stones
 * together with the side to move. hs_history_push stores the key the rules
 * need, so one history serves one rule set. The history is a plain array
 * searched linearly: a game has a few hundred positions, so one play costs
 * well under a microsecond of compares and no hashing structure is worth it.
 * A superko move is tried without copying the board: s_hash_after predicts
 * the stones hash the move would leave (captures and suicide included), and
 * only a move that passes is played.
 */
#include "core/rules.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const hs_rules_t s_rules[HS_RULES_COUNT] = {
    [HS_RULES_KOREAN] = { HS_RULES_KOREAN, "korean", HS_KO_SIMPLE, false,
                          HS_SCORING_TERRITORY, -1, 6.5 },
    [HS_RULES_JAPANESE] = { HS_RULES_JAPANESE, "japanese", HS_KO_SIMPLE, false,
                            HS_SCORING_TERRITORY, -1, 6.5 },
    [HS_RULES_CHINESE] = { HS_RULES_CHINESE, "chinese", HS_KO_POSITIONAL, false,
                           HS_SCORING_AREA, 0, 7.5 },
    [HS_RULES_AGA] = { HS_RULES_AGA, "aga", HS_KO_SITUATIONAL, false, HS_SCORING_AREA, 1, 7.5 },
    /* NZ: "In a handicap game, white passes the first n - 1 moves ... There is no
     * komi" and nothing else: no compensation (KGS counts its NZ games so too). */
    [HS_RULES_NEW_ZEALAND] = { HS_RULES_NEW_ZEALAND, "new-zealand", HS_KO_SITUATIONAL, true,
                               HS_SCORING_AREA, -1, 7.0 },
    [HS_RULES_TROMP_TAYLOR] = { HS_RULES_TROMP_TAYLOR, "tromp-taylor", HS_KO_POSITIONAL, true,
                                HS_SCORING_AREA, -1, 7.5 },
};

hs_rules_t hs_rules_get(hs_rules_id_t id)
{
    if ((int)id < 0 || id >= HS_RULES_COUNT)
        id = HS_RULES_JAPANESE;
    return s_rules[id];
}

/* Names as archives write them, lower-cased with spaces/underscores as '-'. */
static const struct {
    const char *name;
    hs_rules_id_t id;
} s_names[] = {
    { "korean", HS_RULES_KOREAN },       { "korea", HS_RULES_KOREAN },
    { "japanese", HS_RULES_JAPANESE },   { "japan", HS_RULES_JAPANESE },
    { "jp", HS_RULES_JAPANESE },         { "chinese", HS_RULES_CHINESE },
    { "china", HS_RULES_CHINESE },       { "cn", HS_RULES_CHINESE },
    { "aga", HS_RULES_AGA },             { "american", HS_RULES_AGA },
    { "new-zealand", HS_RULES_NEW_ZEALAND }, { "newzealand", HS_RULES_NEW_ZEALAND },
    { "nz", HS_RULES_NEW_ZEALAND },      { "goe", HS_RULES_NEW_ZEALAND },
    { "ing", HS_RULES_NEW_ZEALAND },     { "tromp-taylor", HS_RULES_TROMP_TAYLOR },
    { "tromptaylor", HS_RULES_TROMP_TAYLOR }, { "tt", HS_RULES_TROMP_TAYLOR },
};

int hs_rules_from_name(const char *name, hs_rules_t *out)
{
    if (!name)
        return HS_ENOTFOUND;
    while (isspace((unsigned char)*name))
        name++;
    char low[32];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof low; n++) {
        unsigned char ch = (unsigned char)name[n];
        low[n] = (char)(ch == ' ' || ch == '_' ? '-' : tolower(ch));
    }
    if (name[n])
        return HS_ENOTFOUND;  /* longer than any rule name */
    while (n > 0 && (low[n - 1] == '-' || isspace((unsigned char)low[n - 1])))
        n--;
    low[n] = '\0';
    for (size_t i = 0; i < sizeof s_names / sizeof s_names[0]; i++)
        if (!strcmp(low, s_names[i].name)) {
            *out = s_rules[s_names[i].id];
            return 0;
        }
    return HS_ENOTFOUND;
}

void hs_history_init(hs_history_t *h)
{
    h->keys = NULL;
    h->count = 0;
    h->capacity = 0;
}

void hs_history_fini(hs_history_t *h)
{
    free(h->keys);
    hs_history_init(h);
}

/* Side-to-move key for situational superko (any fixed odd constant). */
#define S_SITUATIONAL_WHITE 0x8CB92BA72F3D8DD7ull

static uint64_t s_key(const hs_board_t *b, const hs_rules_t *r)
{
    switch (r->ko) {
    case HS_KO_POSITIONAL:
        return b->stones_hash;
    case HS_KO_SITUATIONAL:
        return b->stones_hash ^ (b->to_move == HS_WHITE ? S_SITUATIONAL_WHITE : 0);
    case HS_KO_SIMPLE:
    default:
        return hs_board_key(b);
    }
}

int hs_history_push(hs_history_t *h, const hs_board_t *b, const hs_rules_t *r)
{
    if (h->count == h->capacity) {
        int cap = h->capacity ? h->capacity * 2 : 256;
        uint64_t *k = realloc(h->keys, (size_t)cap * sizeof *k);
        if (!k)
            return HS_ENOMEM;
        h->keys = k;
        h->capacity = cap;
    }
    h->keys[h->count++] = s_key(b, r);
    return 0;
}

static bool s_seen(const hs_history_t *h, uint64_t key)
{
    for (int i = h->count - 1; i >= 0; i--)
        if (h->keys[i] == key)
            return true;
    return false;
}

bool hs_history_repeats(const hs_history_t *h, const hs_board_t *after, const hs_rules_t *r)
{
    return r->ko != HS_KO_SIMPLE && s_seen(h, s_key(after, r));
}

/* The Zobrist key board.c gives a stone of colour c at p (its s_zkey: the
 * splitmix64 finaliser of (p << 2 | c)). Duplicated so that the superko test
 * can predict a move's hash without playing it; hs_rules_play asserts after
 * every superko-checked move that the prediction matched the board. */
static inline uint64_t s_zkey(hs_point_t p, int c)
{
    uint64_t z = (((uint64_t)p << 2) | (uint64_t)c) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* XORs into *h the keys of every stone of the string through stone s (colour c). */
static void s_xor_string(const hs_board_t *b, hs_point_t s, int c, uint64_t *h)
{
    const hs_point_t start = s;
    do {
        *h ^= s_zkey(s, c);
        s = b->next[s];
    } while (s != start);
}

/* XORs out of *h each string of colour c among the four neighbours q4 (with
 * in_atari, only those whose last liberty is the move's point), once per string:
 * done[0..*nd) holds the string heads already taken out. */
static inline void s_xor_neighbours(const hs_board_t *b, const hs_point_t q4[4], uint8_t c,
                                    bool in_atari, hs_point_t done[4], int *nd, uint64_t *h)
{
    for (int i = 0; i < 4; i++) {
        const hs_point_t q = q4[i];
        if (b->color[q] != c || (in_atari && hs_board_libs(b, q) != 1))
            continue;
        const hs_point_t hd = b->head[q];
        bool dup = false;
        for (int k = 0; k < *nd; k++)
            dup |= done[k] == hd;
        if (dup)
            continue;
        done[(*nd)++] = hd;
        s_xor_string(b, hd, c, h);
    }
}

/*
 * The stones hash b would have after `color` plays the move p (legal under
 * simple ko and the suicide rule), computed from the board without changing
 * it: the new stone, minus the opponent strings whose last liberty is p, or,
 * when nothing is captured and the new string has no liberty (suicide, only
 * reachable where it is legal), minus that whole string. Copying the board to
 * try the move cost ~10 KB of copying per move; this reads a few points.
 */
static uint64_t s_hash_after(const hs_board_t *b, hs_color_t color, hs_point_t p)
{
    const int stride = b->stride;
    const hs_point_t q4[4] = { (hs_point_t)(p - stride), (hs_point_t)(p - 1),
                               (hs_point_t)(p + 1), (hs_point_t)(p + stride) };
    const uint8_t opp = (uint8_t)hs_color_other(color);
    uint64_t h = b->stones_hash ^ s_zkey(p, color);
    hs_point_t done[4];
    int nd = 0;
    s_xor_neighbours(b, q4, opp, true, done, &nd, &h);
    if (nd > 0 || (b->nbr[p] & 15))
        return h;
    /* No capture and no empty neighbour: suicide unless a friendly string
     * keeps a liberty other than p. */
    for (int i = 0; i < 4; i++)
        if (b->color[q4[i]] == (uint8_t)color && hs_board_libs(b, q4[i]) > 1)
            return h;
    h ^= s_zkey(p, color);
    s_xor_neighbours(b, q4, (uint8_t)color, false, done, &nd, &h);
    return h;
}

/* hs_rules_play under positional or situational superko, for a stone (not a
 * pass). Out of line so that the simple-ko path stays a short call. */
static __attribute__((noinline)) int s_play_superko(hs_board_t *b, const hs_rules_t *r,
                                                    hs_history_t *h, hs_color_t color,
                                                    hs_point_t p, hs_illegal_t *reason)
{
    unsigned flags = hs_rules_play_flags(r);
    hs_illegal_t why = hs_board_legal(b, color, p, flags);
    if (reason)
        *reason = why;
    if (why != HS_LEGAL)
        return HS_EILLEGAL;
    uint64_t key = 0;
    if (h) {
        const uint64_t stones = s_hash_after(b, color, p);
        /* The side to move after the move is the opponent of `color`. */
        key = r->ko == HS_KO_SITUATIONAL && hs_color_other(color) == HS_WHITE
                  ? stones ^ S_SITUATIONAL_WHITE
                  : stones;
        if (s_seen(h, key)) {
            if (reason)
                *reason = HS_ILLEGAL_SUPERKO;
            return HS_EILLEGAL;
        }
        /* Make room first, so that running out of memory leaves b unchanged. */
        if (h->count == h->capacity) {
            int rc = hs_history_push(h, b, r);
            if (rc)
                return rc;
            h->count--;
        }
    }
    hs_board_play_legal(b, color, p);
    if (h) {
        assert(s_key(b, r) == key);
        h->keys[h->count++] = key;
    }
    return 0;
}

int hs_rules_play(hs_board_t *b, const hs_rules_t *r, hs_history_t *h,
                  hs_color_t color, hs_point_t p, hs_illegal_t *reason)
{
    if (r->ko != HS_KO_SIMPLE && p != HS_PASS)
        return s_play_superko(b, r, h, color, p, reason);
    /* Passes never break superko: they leave the stones as they are. */
    int rc = hs_board_play(b, color, p, hs_rules_play_flags(r), reason);
    if (rc == 0 && h)
        rc = hs_history_push(h, b, r);
    return rc;
}

int hs_rules_place_handicap(hs_board_t *b, int n)
{
    const int size = b->size;
    if (size < 7 || n < 2)
        return HS_EINVAL;
    int max = (size % 2 == 1 && size >= 9) ? 9 : 4;
    if (n > max)
        return HS_EINVAL;
    const int e = size >= 13 ? 3 : 2;   /* distance of the star points from the edge */
    const int lo = e, hi = size - 1 - e, mid = size / 2;
    /* (x, y) with y from the top: D4 = (lo, hi), Q16 = (hi, lo), D16 = (lo, lo),
     * Q4 = (hi, hi), D10 = (lo, mid), Q10 = (hi, mid), K4 = (mid, hi), K16 = (mid, lo). */
    const int pts[8][2] = { { lo, hi }, { hi, lo }, { lo, lo }, { hi, hi },
                            { lo, mid }, { hi, mid }, { mid, hi }, { mid, lo } };
    int corners_and_sides = n;
    bool centre = false;
    if (n >= 5 && n % 2 == 1) {
        centre = true;
        corners_and_sides = n - 1;
    }
    /* One batch: one string rebuild instead of one per stone. */
    hs_point_t stones[9];
    uint8_t colors[9];
    int k = 0;
    for (int i = 0; i < corners_and_sides; i++)
        stones[k++] = hs_board_point(b, pts[i][0], pts[i][1]);
    if (centre)
        stones[k++] = hs_board_point(b, mid, mid);
    memset(colors, HS_BLACK, sizeof colors);
    hs_board_set_stones(b, stones, colors, k);
    b->to_move = HS_WHITE;
    return 0;
}
