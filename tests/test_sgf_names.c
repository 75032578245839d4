/*
 * tests/test_sgf_names.c — player names (every metadata string) reach
 * hs_game_t as valid UTF-8 (issue 11). Fox writes UTF-8 without CA[] and some
 * characters of its names lost a byte to '?'; such a character becomes ONE
 * U+FFFD (core/charset.h), other invalid bytes one U+FFFD each, and even a tree
 * parsed with HS_SGF_NO_CHARSET (raw bytes) gives valid strings. With
 * ../shared, a real Fox record from the pro archive is read the same way.
 */
#include "core/charset.h"
#include "core/game.h"
#include "core/sgf.h"
#include "ingest/archive.h"
#include "test.h"

#define FFFD "\xef\xbf\xbd"

/* The game of the first tree of text, parsed with flags; names into pb, pw. */
static int s_names(const char *text, size_t len, unsigned flags, char *pb, char *pw, size_t cap)
{
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(text, len, NULL, flags, &err);
    if (!c)
        return err.code;
    hs_game_t g;
    int rc = hs_game_from_sgf(c->trees[0].root, &g, &err);
    hs_sgf_destroy(&c);
    if (rc)
        return rc;
    snprintf(pb, cap, "%s", g.black ? g.black : "(null)");
    snprintf(pw, cap, "%s", g.white ? g.white : "(null)");
    int valid = hs_utf8_valid_prefix(g.event ? g.event : "", strlen(g.event ? g.event : "")) ==
                strlen(g.event ? g.event : "");
    hs_game_fini(&g);
    return valid ? 0 : -100;
}

static void test_synthetic(void)
{
    /* PB: 风 + 潘 (lost its middle byte) + 月; PW: a 4-byte character that lost
     * its last byte, then Latin-1 "é?" (no continuation byte: two characters). */
    static const char sgf[] = "(;GM[1]FF[4]SZ[19]EV[caf\xe9]"
                              "PB[\xe9\xa3\x8e\xe6?\xbd\xe6\x9c\x88]"
                              "PW[\xf0\x9f\x98?x\xe9?]RE[B+R];B[pd])";
    char pb[256], pw[256];
    for (int raw = 0; raw <= 1; raw++) {
        HS_CHECK_INT(s_names(sgf, sizeof sgf - 1, raw ? HS_SGF_NO_CHARSET : 0, pb, pw,
                             sizeof pb), 0);
        HS_CHECK_STR(pb, "\xe9\xa3\x8e" FFFD "\xe6\x9c\x88");
        HS_CHECK_STR(pw, FFFD "x" FFFD "?");
    }
    /* A lone '?' in valid text, and a stray continuation byte, are no Fox character. */
    static const char sgf2[] = "(;GM[1]PB[a?b\xbf?]PW[\xe6\x9c\x88?];B[pd])";
    HS_CHECK_INT(s_names(sgf2, sizeof sgf2 - 1, HS_SGF_NO_CHARSET, pb, pw, sizeof pb), 0);
    HS_CHECK_STR(pb, "a?b" FFFD "?");
    HS_CHECK_STR(pw, "\xe6\x9c\x88?");
}

/* ---- a real Fox record (../shared/data/pro19) ---- */

typedef struct s_pick {
    const char *want;
    char pb[256], pw[256];
    int found, rc;
} s_pick_t;

static int s_member(void *ctx, const char *source, uint8_t *data, size_t len)
{
    s_pick_t *p = ctx;
    const char *colon = strrchr(source, ':');
    if (colon && !strcmp(colon + 1, p->want)) {
        p->found = 1;
        p->rc = s_names((const char *)data, len, 0, p->pb, p->pw, sizeof p->pb);
    }
    free(data);
    return p->found;   /* stop once read */
}

static void test_real_fox(void)
{
    /* Not hs_test_data_dir(): without ../shared only this case is skipped. */
    const char *dir = getenv("HS_DATA_DIR");
    char path[2048];
    snprintf(path, sizeof path, "%s/pro19/pro19-archive.tar.gz", dir ? dir : "(unset)");
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("skipped the real Fox record: no %s (../shared absent)\n", path);
        return;
    }
    fclose(f);
    /* PW there is "\xe6\x9c\xb1\xe9\xaa?\xe5\xaf\xb0": 朱, a character that lost
     * its last byte to '?', 寰 (PB is valid UTF-8). */
    s_pick_t p = { .want = "pro19/fox-pro/1p/1378473498019999334.sgf" };
    const char *paths[] = { path };
    hs_archive_visitor_t v = { .member = s_member, .ctx = &p };
    hs_archive_walk(paths, 1, 0, &v, NULL, NULL);
    HS_CHECK(p.found);
    HS_CHECK_INT(p.rc, 0);
    HS_CHECK_STR(p.pw, "\xe6\x9c\xb1" FFFD "\xe5\xaf\xb0");
    HS_CHECK(hs_utf8_valid_prefix(p.pb, strlen(p.pb)) == strlen(p.pb));
}

int main(void)
{
    test_synthetic();
    test_real_fox();
    return hs_test_finish();
}
