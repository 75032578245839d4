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
 */
#include "core/rules.h"

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
    [HS_RULES_NEW_ZEALAND] = { HS_RULES_NEW_ZEALAND, "new-zealand", HS_KO_SITUATIONAL, true,
                               HS_SCORING_AREA, 0, 7.0 },
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

int hs_rules_play(hs_board_t *b, const hs_rules_t *r, hs_history_t *h,
                  hs_color_t color, hs_point_t p, hs_illegal_t *reason)
{
    unsigned flags = hs_rules_play_flags(r);
    if (r->ko == HS_KO_SIMPLE || p == HS_PASS) {
        /* Passes never break superko: they leave the stones as they are. */
        int rc = hs_board_play(b, color, p, flags, reason);
        if (rc == 0 && h)
            rc = hs_history_push(h, b, r);
        return rc;
    }
    hs_board_t next = *b;
    int rc = hs_board_play(&next, color, p, flags, reason);
    if (rc != 0)
        return rc;
    if (h && s_seen(h, s_key(&next, r))) {
        if (reason)
            *reason = HS_ILLEGAL_SUPERKO;
        return HS_EILLEGAL;
    }
    if (h && (rc = hs_history_push(h, &next, r)) != 0)
        return rc;
    *b = next;
    return 0;
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
    for (int i = 0; i < corners_and_sides; i++)
        hs_board_set_stone(b, hs_board_point(b, pts[i][0], pts[i][1]), HS_BLACK);
    if (centre)
        hs_board_set_stone(b, hs_board_point(b, mid, mid), HS_BLACK);
    b->to_move = HS_WHITE;
    return 0;
}
