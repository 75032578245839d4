/*
 * tests/test_poskey.c — pins position keys and hs_hash128 to known values.
 *
 * The store compares keys written by earlier runs, so hs_position_key and
 * hs_hash128 must give the same bytes in every build: any speed-up of either
 * (word loads, row copies) has to keep these exact values. The expected hex
 * strings below were printed by the implementation of commit e48988f. The games
 * are generated from a fixed LCG (no data files): random legal play with
 * captures, kos and passes on 2x2 .. 25x25, a handicap game with setup stones,
 * and the edge cases of the key's inputs (no game, move number past the end,
 * odd komi, ko point).
 *
 * Also checks the engine spec syntax declared beside the config ids, and what a
 * key depends on (recent moves, komi, rules, side to move) and its text form.
 *
 * Run with HS_POSKEY_PRINT=1 to print the computed values instead of checking.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/poskey.h"
#include "core/replay.h"
#include "core/rules.h"
#include "tests/test.h"

static bool s_print;

static uint32_t s_lcg(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*st >> 33);
}

/* A game of `moves` random moves legal under the rules (about 1 in 12 a pass) on size x size,
 * with the given rules, komi and setup stones. The caller frees g->moves. */
static void s_random_game(hs_game_t *g, int size, int moves, uint64_t seed, int rules,
                          double komi, hs_game_setup_t *setup, int num_setup)
{
    memset(g, 0, sizeof *g);
    g->size = size;
    g->komi = komi;
    g->rules = hs_rules_get((hs_rules_id_t)rules);
    g->setup = setup;
    g->num_setup = num_setup;
    g->moves = calloc((size_t)moves + 1, sizeof *g->moves);
    hs_board_t b;
    hs_board_init(&b, size);
    for (int i = 0; i < num_setup; i++)
        hs_board_set_stone(&b, hs_game_board_point(&b, setup[i].vertex),
                           (hs_color_t)setup[i].color);
    hs_history_t h;
    hs_history_init(&h);
    hs_history_push(&h, &b, &g->rules);
    hs_color_t c = HS_BLACK;
    uint64_t st = seed;
    int n = 0;
    for (int tries = 0; n < moves && tries < 50 * moves; tries++) {
        uint16_t v = HS_GAME_PASS;
        if (s_lcg(&st) % 12 != 0)
            v = (uint16_t)(s_lcg(&st) % (uint32_t)(size * size));
        if (hs_rules_play(&b, &g->rules, &h, c, hs_game_board_point(&b, v), NULL) < 0)
            continue;
        g->moves[n].vertex = v;
        g->moves[n].color = (uint8_t)c;
        n++;
        c = hs_color_other(c);
    }
    g->num_moves = n;
    hs_history_fini(&h);
}

static void s_hex_check(const uint8_t key[16], const char *want, const char *what)
{
    char hex[33];
    hs_key_hex(key, hex);
    if (s_print) {
        printf("    \"%s\", /* %s */\n", hex, what);
        return;
    }
    if (!want || strcmp(hex, want)) {
        fprintf(stderr, "key of %s: %s, pinned %s\n", what, hex, want ? want : "(none)");
        HS_CHECK(false);
    } else {
        HS_CHECK(true);
    }
}

/* hs_hash128 of every length 0..40 (all tail lengths, one to five words) and of
 * one long buffer, folded into one digest; plus two single values. */
static void test_hash128_pinned(void)
{
    uint8_t data[1000], keys[41][16], out[16];
    for (int i = 0; i < (int)sizeof data; i++)
        data[i] = (uint8_t)(i * 37 + (i >> 3) + 11);
    for (int len = 0; len <= 40; len++)
        hs_hash128(data, (size_t)len, keys[len]);
    s_hex_check(keys[0], "144ea5d8aa1b2bd494a2a468b5327104", "hash128 len 0");
    s_hex_check(keys[13], "4f5198cb24a2e5bc200b6ebf2d61c889", "hash128 len 13");
    hs_hash128(keys, sizeof keys, out);
    s_hex_check(out, "4f169a98e6b465716ac3ec33284183bd", "hash128 lengths 0..40");
    hs_hash128(data + 3, sizeof data - 3, out);   /* unaligned start */
    s_hex_check(out, "337717e9c215c818d2652220363de4ad", "hash128 997 bytes");
}

/* Every position of random games on several sizes, keyed through the replay
 * cursor (the worker's and the query layer's path), folded into one digest per
 * game; plus a few single keys. */
static void test_position_keys_pinned(void)
{
    static const struct { int size, moves, rules; double komi; uint64_t seed; } games[] = {
        { 2, 12, HS_RULES_JAPANESE, 0.0, 1 },
        { 5, 60, HS_RULES_CHINESE, 7.5, 2 },
        { 9, 120, HS_RULES_CHINESE, 7.0, 3 },
        { 13, 200, HS_RULES_AGA, 7.5, 4 },
        { 19, 300, HS_RULES_JAPANESE, 6.5, 5 },
        { 19, 260, HS_RULES_KOREAN, -3.5, 6 },
        { 25, 400, HS_RULES_NEW_ZEALAND, 7.0, 7 },
    };
    static const char *const want[] = {
        "3628369c6f0395deb6689d09c6e2db8a", /* 2x2 */
        "072a88c1124d21751e390f816d6486e2", /* 5x5 */
        "59de54dbbcfee6c3099a729115dbec8f", /* 9x9 */
        "8b4d3f8047d48d3c471cf40ed0a897a6", /* 13x13 */
        "2143dc9e4e458e20313fb7f84ab6cbe9", /* 19x19 japanese */
        "797c7272f29cd5f4bf5569ed485e4c51", /* 19x19 korean */
        "a884591b5b957ca4da1a3a5cdfbfb19f", /* 25x25 */
    };
    static const char *const want_last[] = {
        "a2071c94c303cbc0d31cff2b0559a806", /* 2x2 */
        "36c51fd226791d7c0009b098f5c801f3", /* 5x5 */
        "2118c61b9162fbf979a9261bdd6d9fd2", /* 9x9 */
        "99e08730e5b5aaa7769df5f6179cd456", /* 13x13 */
        "367ba62361564f353d9cc7654edab6d3", /* 19x19 japanese */
        "73a2ef6c3d887371e0a6673d4bcebaf8", /* 19x19 korean */
        "b86a6efcc795ecaa0eb9a6f77edcca9d", /* 25x25 */
    };
    for (int i = 0; i < (int)(sizeof games / sizeof games[0]); i++) {
        hs_game_t g;
        s_random_game(&g, games[i].size, games[i].moves, games[i].seed, games[i].rules,
                      games[i].komi, NULL, 0);
        HS_CHECK(g.num_moves > games[i].moves / 2);
        uint8_t(*keys)[16] = calloc((size_t)g.num_moves + 1, 16);
        hs_replay_t r;
        hs_error_t err = { 0 };
        int rc = hs_replay_start(&r, &g, &err);
        HS_CHECK_INT(rc, 0);
        for (int m = 0; rc == 0 && m <= g.num_moves; m++) {
            rc = hs_replay_to(&r, m, &err);
            HS_CHECK_INT(rc, 0);
            hs_replay_key(&r, keys[m]);
        }
        hs_replay_fini(&r);
        uint8_t digest[16];
        hs_hash128(keys, 16 * ((size_t)g.num_moves + 1), digest);
        char what[64];
        snprintf(what, sizeof what, "%dx%d game %d, every position", games[i].size,
                 games[i].size, i);
        s_hex_check(digest, want[i], what);
        snprintf(what, sizeof what, "%dx%d game %d, last position", games[i].size,
                 games[i].size, i);
        s_hex_check(keys[g.num_moves], want_last[i], what);
        free(keys);
        free(g.moves);
    }
}

/* Setup stones (the side to move comes from the first move), no game, a move
 * number past the end, an odd komi, and a ko point. */
static void test_position_key_edges_pinned(void)
{
    hs_game_setup_t setup[4] = { { 3 * 19 + 3, HS_BLACK }, { 15 * 19 + 15, HS_BLACK },
                                 { 3 * 19 + 15, HS_BLACK }, { 15 * 19 + 3, HS_WHITE } };
    hs_game_t g;
    s_random_game(&g, 19, 40, 11, HS_RULES_JAPANESE, 0.5, setup, 4);
    g.moves[0].color = HS_WHITE;   /* White first: the setup's side-to-move rule */
    for (int i = 1; i < g.num_moves; i++)
        g.moves[i].color = (uint8_t)(i % 2 ? HS_BLACK : HS_WHITE);
    g.num_moves = 1;               /* colours changed: keep only the first move */
    hs_replay_t r;
    hs_error_t err = { 0 };
    uint8_t key[16];
    HS_CHECK_INT(hs_replay_start(&r, &g, &err), 0);
    hs_replay_key(&r, key);
    s_hex_check(key, "547f1b6afa6e4b006788532ce5a5e823", "handicap setup, move 0");
    HS_CHECK_INT(hs_replay_to(&r, 1, &err), 0);
    hs_replay_key(&r, key);
    s_hex_check(key, "0db356cd1e4efc1fbe9e340d325f138a", "handicap setup, move 1");
    hs_position_key(&r.board, NULL, 1, key);
    s_hex_check(key, "2718ff89497e900b523fcb6e2107cb92", "no game");
    hs_position_key(&r.board, &g, 30, key);
    s_hex_check(key, "b7de485e9996ffe3f57a9255ddfb3ff3", "move number past the end");
    g.komi = 3.75;
    hs_position_key(&r.board, &g, 1, key);
    s_hex_check(key, "669a5401638f632be27fb76563d837d3", "komi 3.75");
    g.komi = NAN;
    hs_position_key(&r.board, &g, 1, key);
    s_hex_check(key, "91a56b8682b657c53aa21a540c20d636", "komi NaN");
    hs_replay_fini(&r);
    free(g.moves);

    /* A simple ko on 5x5: Black takes the White stone at (1,1) by playing (2,1),
     * and White may not retake at once. */
    hs_board_t b;
    hs_board_init(&b, 5);
    static const int stones[][3] = { { 1, 0, HS_BLACK }, { 0, 1, HS_BLACK }, { 1, 2, HS_BLACK },
                                     { 1, 1, HS_WHITE }, { 2, 0, HS_WHITE }, { 3, 1, HS_WHITE },
                                     { 2, 2, HS_WHITE } };
    for (int i = 0; i < 7; i++)
        hs_board_set_stone(&b, hs_board_point(&b, stones[i][0], stones[i][1]),
                           (hs_color_t)stones[i][2]);
    HS_CHECK_INT(hs_board_play(&b, HS_BLACK, hs_board_point(&b, 2, 1), 0, NULL), 0);
    HS_CHECK(b.ko == hs_board_point(&b, 1, 1));
    hs_game_t g5;
    memset(&g5, 0, sizeof g5);
    g5.size = 5;
    g5.komi = 0.0;
    g5.rules = hs_rules_get(HS_RULES_JAPANESE);
    hs_position_key(&b, &g5, 0, key);
    s_hex_check(key, "0e31aa909904bd6197c51683496db58c", "5x5 ko point");
}

/* The engine spec syntax the worker and the broker share (hs_engine_spec_split). */
static void test_engine_spec_split(void)
{
    static const struct {
        const char *spec;
        int rc;
        size_t name_len;
        int revision;
        bool canonical;
        const char *options;   /* NULL = none */
    } cases[] = {
        { "judge", 0, 5, 0, true, NULL },
        { "judge@2", 0, 5, 2, true, NULL },
        { "judge@2:final_mc=0", 0, 5, 2, true, "final_mc=0" },
        { "influence:tau=120", 0, 9, 0, true, "tau=120" },
        { "judge@1", 0, 5, 1, false, NULL },
        { "judge@02", 0, 5, 2, false, NULL },
        { "judge@9999", 0, 5, 9999, true, NULL },
        { "judge:", 0, 5, 0, true, "" },
        { "judge@", HS_EINVAL, 5, 0, false, NULL },
        { "judge@0", HS_EINVAL, 5, 0, false, NULL },
        { "judge@10000", HS_EINVAL, 5, 0, false, NULL },
        { "judge@2x", HS_EINVAL, 5, 0, false, NULL },
        { "@2", HS_EINVAL, 0, 0, false, NULL },
        { ":x", HS_EINVAL, 0, 0, false, NULL },
        { "", HS_EINVAL, 0, 0, false, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hs_engine_spec_t sp;
        const char *s = cases[i].spec;
        HS_CHECK_INT(hs_engine_spec_split(s, strlen(s), &sp), cases[i].rc);
        HS_CHECK_INT((int)sp.name_len, (int)cases[i].name_len);
        if (cases[i].rc != 0)
            continue;
        HS_CHECK_INT(sp.revision, cases[i].revision);
        HS_CHECK_INT(sp.revision_canonical, cases[i].canonical);
        HS_CHECK(!cases[i].options == !sp.options);
        if (cases[i].options && sp.options)
            HS_CHECK(sp.options_len == strlen(cases[i].options) &&
                     !memcmp(sp.options, cases[i].options, sp.options_len));
    }
    /* One entry of a list: only s[0..len) counts. */
    hs_engine_spec_t sp;
    HS_CHECK_INT(hs_engine_spec_split("judge@3,noop", 7, &sp), 0);
    HS_CHECK_INT(sp.revision, 3);
}

/* What the key depends on (recent moves, komi, rules, side to move) and what it
 * does not (another record of the same game); its text form; engine ids. */
static void test_position_key_properties(void)
{
    hs_game_t g;
    memset(&g, 0, sizeof g);
    g.size = 9;
    g.komi = 7.5;
    g.rules = hs_rules_get(HS_RULES_CHINESE);
    hs_game_move_t mv[4] = { { 20, HS_BLACK }, { 60, HS_WHITE }, { 24, HS_BLACK }, { 56, HS_WHITE } };
    g.moves = mv;
    g.num_moves = 4;
    hs_board_t b;
    hs_board_init(&b, 9);
    uint8_t k0[16], k0b[16], k4[16], k4x[16], kk[16];
    hs_position_key(&b, &g, 0, k0);
    hs_position_key(&b, &g, 0, k0b);
    HS_CHECK(!memcmp(k0, k0b, 16));   /* deterministic */
    for (int i = 0; i < 4; i++)
        hs_board_play(&b, mv[i].color, hs_game_board_point(&b, mv[i].vertex), 0, NULL);
    hs_position_key(&b, &g, 4, k4);
    HS_CHECK(memcmp(k0, k4, 16) != 0);
    /* Same stones reached in another order: different recent moves, different key. */
    hs_game_move_t mv2[4] = { { 24, HS_BLACK }, { 56, HS_WHITE }, { 20, HS_BLACK }, { 60, HS_WHITE } };
    hs_game_t g2 = g;
    g2.moves = mv2;
    hs_board_t b2;
    hs_board_init(&b2, 9);
    for (int i = 0; i < 4; i++)
        hs_board_play(&b2, mv2[i].color, hs_game_board_point(&b2, mv2[i].vertex), 0, NULL);
    hs_position_key(&b2, &g2, 4, k4x);
    HS_CHECK(memcmp(k4, k4x, 16) != 0);
    /* Same game again (another record of it): same key. */
    hs_game_t g3 = g;
    hs_position_key(&b, &g3, 4, kk);
    HS_CHECK(!memcmp(k4, kk, 16));
    /* Komi, rules and side to move all change the key. */
    g3.komi = 6.5;
    hs_position_key(&b, &g3, 4, kk);
    HS_CHECK(memcmp(k4, kk, 16) != 0);
    g3 = g;
    g3.rules = hs_rules_get(HS_RULES_JAPANESE);
    hs_position_key(&b, &g3, 4, kk);
    HS_CHECK(memcmp(k4, kk, 16) != 0);
    hs_board_t b3 = b;
    b3.to_move = HS_WHITE;
    hs_position_key(&b3, &g, 4, kk);
    HS_CHECK(memcmp(k4, kk, 16) != 0);
    /* Key text round trip. */
    char hex[33];
    uint8_t back[16];
    hs_key_hex(k4, hex);
    HS_CHECK_INT(strlen(hex), 32);
    HS_CHECK_INT(hs_key_parse(hex, back), 0);
    HS_CHECK(!memcmp(back, k4, 16));
    HS_CHECK_INT(hs_key_parse("zz", back), HS_EPARSE);
    /* Engine ids. */
    HS_CHECK(hs_engine_config_id("judge") != hs_engine_config_id("influence"));
    HS_CHECK(hs_engine_config_id("judge") == hs_engine_config_id("judge"));
    HS_CHECK(hs_engine_config_id("") != 0);
}

int main(void)
{
    s_print = getenv("HS_POSKEY_PRINT") != NULL;
    test_hash128_pinned();
    test_position_keys_pinned();
    test_position_key_edges_pinned();
    test_engine_spec_split();
    test_position_key_properties();
    return hs_test_finish();
}
