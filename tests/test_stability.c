/*
 * tests/test_stability.c — group stability and Benson's pass-alive test against
 * the diagrams in the .t files of tests/data/stability (format in its
 * README.md), plus invariants on seeded random positions: every stone has a
 * group, stabilities are in [0, 1], strings never straddle groups, pass-alive
 * stones have stability 1, and the result does not depend on the reader's
 * transposition-table state.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/rng.h"
#include "diagram.h"
#include "test.h"
#include "worker/stability.h"
#include "worker/tactics.h"

/* Per-case state on top of the parsed diagram (diagram.h). */
typedef struct scase {
    hs_diagram_t diagram;
    int index;          /* diagram.index this state belongs to */
    bool noreader;
    bool computed;
    hs_board_t board;
    hs_stability_t st;
} scase_t;

static void s_compute(scase_t *c, hs_reader_t *r)
{
    if (c->computed)
        return;
    hs_diagram_board(&c->diagram, &c->board);
    hs_stability_config_t cfg;
    hs_stability_config_default(&cfg);
    HS_CHECK_INT(hs_stability_compute(&c->board, &cfg, c->noreader ? NULL : r, &c->st, NULL), 0);
    c->computed = true;
}

static bool s_point(const scase_t *c, const char *v, hs_point_t *p)
{
    return hs_board_parse_point(&c->board, v, p) == 0 && hs_board_on_board(&c->board, *p);
}

static bool s_query(const char *file, const hs_diagram_t *d, char *line, void *ctx)
{
    hs_reader_t *r = ctx;
    static scase_t sc;  /* ~100 KB of stability maps: not on the stack */
    scase_t *c = &sc;
    if (c->index != d->index) {
        memset(c, 0, sizeof *c);
        c->index = d->index;
    }
    c->diagram = *d;
    char *tok[6];
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t && n < 6; t = strtok(NULL, " \t\r\n"))
        tok[n++] = t;
    if (n == 0)
        return true;
    if (!strcmp(tok[0], "noreader")) {
        c->noreader = true;
        c->computed = false;
        return true;
    }
    if (d->nrows < 2 || d->nrows != d->ncols)
        return false;
    s_compute(c, r);
    hs_point_t p, q;
    if (n < 3 || !s_point(c, tok[1], &p))
        return false;
    if (!strcmp(tok[0], "stability") && n == 4) {
        float lo = strtof(tok[2], NULL), hi = strtof(tok[3], NULL), v = c->st.point[p];
        bool ok = c->st.group[p] >= 0 && v >= lo - 1e-6f && v <= hi + 1e-6f;
        printf("  %-60.60s %s%s stability %.3f\n", d->name, tok[1], c->noreader ? " (no reader)" : "", v);
        if (!ok)
            fprintf(stderr, "%s: %s: stability %s = %.3f, expected [%s, %s]\n", file, d->name,
                    tok[1], v, tok[2], tok[3]);
        HS_CHECK(ok);
        return true;
    }
    if (!strcmp(tok[0], "passalive") && n == 3) {
        bool expect = !strcmp(tok[2], "yes"), got = c->st.pass_alive[p] != 0;
        if (got != expect)
            fprintf(stderr, "%s: %s: passalive %s = %d\n", file, d->name, tok[1], got);
        HS_CHECK(got == expect);
        return true;
    }
    if (!strcmp(tok[0], "samegroup") && n == 4 && s_point(c, tok[2], &q)) {
        bool expect = !strcmp(tok[3], "yes");
        bool got = c->st.group[p] >= 0 && c->st.group[p] == c->st.group[q];
        if (got != expect)
            fprintf(stderr, "%s: %s: samegroup %s %s = %d\n", file, d->name, tok[1], tok[2], got);
        HS_CHECK(got == expect);
        return true;
    }
    return false;
}

/* Invariants on seeded random positions (random legal play on 9x9). */
static void s_random_invariants(hs_reader_t *r)
{
    static hs_stability_t a, b;
    int bad = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        hs_rng_t rng;
        hs_rng_seed(&rng, seed);
        hs_board_t bd;
        hs_board_init(&bd, 9);
        int moves = 20 + (int)hs_rng_below(&rng, 60);
        for (int i = 0; i < moves && bd.num_empty > 0; i++) {
            hs_point_t p = bd.empty[hs_rng_below(&rng, (uint32_t)bd.num_empty)];
            if (hs_board_legal(&bd, bd.to_move, p, 0) == HS_LEGAL && !hs_board_is_eye(&bd, p, bd.to_move))
                hs_board_play(&bd, bd.to_move, p, 0, NULL);
            else
                hs_board_play(&bd, bd.to_move, HS_PASS, 0, NULL);
        }
        hs_stability_config_t cfg;
        hs_stability_config_default(&cfg);
        HS_CHECK_INT(hs_stability_compute(&bd, &cfg, r, &a, NULL), 0);
        hs_reader_clear(r);
        HS_CHECK_INT(hs_stability_compute(&bd, &cfg, r, &b, NULL), 0);
        bool ok = a.num_groups == b.num_groups;
        for (int p = 0; p < hs_board_num_points(&bd); p++) {
            bool stone = bd.color[p] == HS_BLACK || bd.color[p] == HS_WHITE;
            if (stone) {
                int g = a.group[p];
                ok &= g >= 0 && g < a.num_groups && a.group_color[g] == bd.color[p];
                ok &= a.group[bd.head[p]] == g;  /* strings never straddle groups */
                ok &= a.point[p] >= 0.0f && a.point[p] <= 1.0f && a.point[p] == a.group_stability[g];
                ok &= !a.pass_alive[p] || a.point[p] == 1.0f;
                ok &= fabsf(a.point[p] - b.point[p]) < 1e-6f;
            } else {
                ok &= a.group[p] == -1 && a.point[p] == 0.0f;
            }
        }
        if (!ok) {
            fprintf(stderr, "stability invariants failed on random position seed %llu\n",
                    (unsigned long long)seed);
            bad++;
        }
        HS_CHECK(ok);
    }
    printf("random 9x9 positions (30, seeds 1..30): %d violated an invariant\n", bad);
}

/* The memo returns exactly what hs_stability_compute does, misses on any change
 * of stones, side to move or config, and counts its hits. Positions are the
 * random ones above, asked for twice in a row (as the worker's engines do). */
static void s_memo(void)
{
    static hs_stability_t want, scratch;
    static hs_board_t boards[120];
    hs_stability_memo_t *m = hs_stability_memo_new();
    HS_CHECK(m != NULL);
    if (!m)
        return;
    hs_rng_t rng;
    hs_rng_seed(&rng, 7);
    hs_board_init(&boards[0], 13);
    /* 120 distinct consecutive positions of one random game (a position that
     * comes back, e.g. after two passes, would rightly be a hit). */
    int n = 1;
    for (int tries = 0; n < 120 && tries < 10000; tries++) {
        boards[n] = boards[n - 1];
        hs_board_t *bd = &boards[n];
        hs_point_t p = bd->num_empty ? bd->empty[hs_rng_below(&rng, (uint32_t)bd->num_empty)] : HS_PASS;
        if (p == HS_PASS || hs_board_legal(bd, bd->to_move, p, 0) != HS_LEGAL ||
            hs_board_is_eye(bd, p, bd->to_move))
            p = HS_PASS;
        hs_board_play(bd, bd->to_move, p, 0, NULL);
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen |= boards[j].to_move == bd->to_move && boards[j].ko == bd->ko &&
                    !memcmp(boards[j].color, bd->color, (size_t)hs_board_num_points(bd));
        n += !seen;
    }
    HS_CHECK_INT(n, 120);
    if (n < 120) {
        hs_stability_memo_destroy(&m);
        return;
    }
    hs_stability_config_t cfg;
    hs_stability_config_default(&cfg);
    cfg.use_reader = false;
    int mismatches = 0;
    for (int round = 0; round < 2; round++)    /* one batch of 60, two engines, twice */
        for (int pass = 0; pass < 2; pass++)
            for (int i = round * 60; i < round * 60 + 60; i++) {
                const hs_stability_t *got = NULL;
                HS_CHECK_INT(hs_stability_memo_compute(m, &boards[i], &cfg, NULL, &scratch,
                                                       &got, NULL), 0);
                HS_CHECK_INT(hs_stability_compute(&boards[i], &cfg, NULL, &want, NULL), 0);
                if (!got || memcmp(got, &want, sizeof want))
                    mismatches++;
            }
    HS_CHECK_INT(mismatches, 0);
    uint64_t hits, misses;
    hs_stability_memo_stats(m, &hits, &misses);
    /* A pass leaves the stones as they were but changes the side to move: a miss. */
    HS_CHECK_INT((int)misses, 120);
    HS_CHECK_INT((int)hits, 120);
    uint64_t first_hits = hits;

    /* Same stones, other config: a miss; then a hit. */
    const hs_stability_t *got = NULL;
    cfg.reader_node_budget = 17;
    HS_CHECK_INT(hs_stability_memo_compute(m, &boards[119], &cfg, NULL, &scratch, &got, NULL), 0);
    hs_stability_memo_stats(m, &hits, &misses);
    HS_CHECK_INT((int)misses, 121);
    /* One stone more: a miss even if the hash were to collide (the colours differ). */
    hs_board_t other = boards[119];
    hs_point_t p = other.num_empty ? other.empty[0] : HS_PASS;
    if (p != HS_PASS && hs_board_legal(&other, other.to_move, p, 0) == HS_LEGAL) {
        hs_board_play(&other, other.to_move, p, 0, NULL);
        HS_CHECK_INT(hs_stability_memo_compute(m, &other, &cfg, NULL, &scratch, &got, NULL), 0);
        hs_stability_memo_stats(m, &hits, &misses);
        HS_CHECK_INT((int)misses, 122);
    }
    /* No memo: computed into the scratch. */
    HS_CHECK_INT(hs_stability_memo_compute(NULL, &boards[50], &cfg, NULL, &scratch, &got, NULL), 0);
    HS_CHECK(got == &scratch);
    HS_CHECK_INT(hs_stability_memo_compute(m, NULL, &cfg, NULL, &scratch, &got, NULL), HS_EINVAL);
    HS_CHECK(got == NULL);
    printf("stability memo: 240 lookups of 120 positions, %llu hits, %d differed from a "
           "fresh compute\n", (unsigned long long)first_hits, mismatches);
    hs_stability_memo_destroy(&m);
    HS_CHECK(m == NULL);
}

int main(void)
{
    hs_reader_t *r = hs_reader_new(NULL);
    HS_CHECK(r != NULL);
    if (!r)
        return hs_test_finish();
    hs_stability_t st;
    HS_CHECK_INT(hs_stability_compute(NULL, NULL, r, &st, NULL), HS_EINVAL);

    /* Empty board: no groups, nothing pass-alive. */
    hs_board_t b;
    hs_board_init(&b, 9);
    HS_CHECK_INT(hs_stability_compute(&b, NULL, r, &st, NULL), 0);
    HS_CHECK_INT(st.num_groups, 0);

    char dir[1024];
    snprintf(dir, sizeof dir, "%s/stability", hs_test_own_data_dir());
    int files = hs_diagram_run_dir(dir, s_query, r);
    HS_CHECK(files > 0);
    s_random_invariants(r);
    s_memo();
    hs_reader_destroy(&r);
    return hs_test_finish();
}
