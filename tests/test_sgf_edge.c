/*
 * tests/test_sgf_edge.c — every file of shared/data/sgf-edge: parse (recovering
 * per tree), read each tree as a game, replay it; compare with a table of the
 * EXPECTED outcome per file and tree.
 *
 * The table was built by reading each file, sgf-edge/SOURCES.md and
 * littlego/littlego-sgf-README.txt. Every expected failure is a genuinely broken
 * or illegal record (or one outside what we support, e.g. GM != 1, a 200x200 or
 * rectangular board), with the reason noted. Outcomes are written
 *   "ok"                              tree parses, reads and replays
 *   "parse HS_EPARSE|substring"       the tree is syntactically broken
 *   "game HS_EUNSUPPORTED|substring"  hs_game_from_sgf refuses it
 *   "replay HS_EILLEGAL|substring"    an illegal move or setup
 *   "file HS_EPARSE|substring"        no game tree at all
 * one per tree, separated by ';'. Also checks decoded text for the encoding
 * files (and, with their CA[] removed, that the guess reads them the same)
 * and the superko files under rules that forbid the repetition.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/charset.h"
#include "core/game.h"
#include "core/sgf.h"
#include "sgf_compare.h"
#include "test.h"

typedef struct {
    const char *file;
    const char *expect;
} s_case_t;

static const s_case_t s_cases[] = {
    { "katago/cornermoves.sgf", "ok" },
    { "katago/foxlike.sgf", "ok" },           /* Fox AB in the 2nd node: setup */
    { "katago/humanslbigdiff.sgf", "ok" },
    { "katago/messy.sgf", "ok" },
    { "katago/sampletest7x7.sgf", "ok" },
    { "katago/sampletest9x9.sgf", "ok" },
    { "katrain/LS vs AG - G4 - English.sgf", "ok" },
    { "katrain/fox sgf error.sgf", "ok" },
    { "katrain/fox sgf works.sgf", "ok" },
    { "katrain/ogs.sgf", "ok" },              /* deep nesting */
    { "katrain/panda1.sgf", "ok" },
    { "katrain/xmgt97.sgf", "ok" },           /* FF[1] long names: SiZe -> SZ */
    /* Tree 2 is declared GM[19] (not Go) on purpose by the file's author. */
    { "libsgfcplusplus/compressed-point-list.sgf", "ok;game HS_EUNSUPPORTED|not a game of Go" },
    { "libsgfcplusplus/deep-game-tree.sgf", "ok;ok;ok;ok;ok" },
    { "libsgfcplusplus/encoding-chinese-gb18030.sgf", "ok" },
    { "libsgfcplusplus/encoding-chinese-gbk.sgf", "ok" },
    { "libsgfcplusplus/encoding-cyrillic-windows.sgf", "ok" },
    { "libsgfcplusplus/encoding-japanese-iso2022jp.sgf", "ok" },
    { "libsgfcplusplus/encoding-japanese-macos.sgf", "ok" },
    { "libsgfcplusplus/encoding-japanese-shiftjis.sgf", "ok" },
    { "libsgfcplusplus/encoding-korean-macos.sgf", "ok" },
    { "libsgfcplusplus/encoding-simplifiedchinese-gb2312.sgf", "ok" },
    { "libsgfcplusplus/encoding-simplifiedchinese-macos.sgf", "ok" },
    { "libsgfcplusplus/encoding-traditionalchinese-big5.sgf", "ok" },
    { "libsgfcplusplus/encoding-traditionalchinese-macos.sgf", "ok" },
    { "libsgfcplusplus/encoding-utf16-nobom.sgf", "ok" },
    { "libsgfcplusplus/encoding-utf16-withbom.sgf", "ok" },
    { "libsgfcplusplus/encoding-utf8-nobom.sgf", "ok" },
    { "libsgfcplusplus/encoding-utf8-withbom.sgf", "ok" },
    { "libsgfcplusplus/encoding-western-isolatin1.sgf", "ok" },
    { "libsgfcplusplus/encoding-western-isolatin9.sgf", "ok" },
    { "libsgfcplusplus/encoding-western-macosroman.sgf", "ok" },
    { "libsgfcplusplus/encoding-western-windowslatin1.sgf", "ok" },
    /* GM[19] on purpose ("not Go, so that SGFC does not interpret moves"). */
    { "libsgfcplusplus/escaping.sgf", "game HS_EUNSUPPORTED|GM[19] is not a game of Go" },
    { "libsgfcplusplus/gameinfo.sgf", "ok" },
    /* Unbalanced '(' (SOURCES.md lint): the file ends inside the tree. */
    { "littlego/19x19/Fuego vs. Fuego.sgf", "parse HS_EPARSE|truncated" },
    { "littlego/19x19/handicap-7-komi-0-with-pass-moves.sgf", "ok" },
    { "littlego/19x19/markup.sgf", "ok" },
    { "littlego/19x19/maximum-number-of-moves.sgf", "ok" },
    { "littlego/19x19/pu2-gokifu-20110910-Melkisheva_Anastasia-Shikshina_Svetlana.sgf", "ok" },
    { "littlego/25x25/25x25_single_black_move.sgf", "ok" },
    { "littlego/7x7/play-b-b7-for-superko.sgf", "ok" },
    { "littlego/7x7/seki-9b.sgf", "ok" },
    { "littlego/9x9/2-passes.sgf", "ok" },
    { "littlego/9x9/3-passes.sgf", "ok" },
    { "littlego/9x9/4-passes.sgf", "ok" },
    { "littlego/9x9/5-passes.sgf", "ok" },
    { "littlego/9x9/Anonymous vs. Fuego 1.sgf", "ok" },
    { "littlego/9x9/annotations.sgf", "ok" },
    { "littlego/9x9/gameinfo.sgf", "ok" },
    { "littlego/9x9/illegal-board-setup-test.sgf", "ok" },
    { "littlego/9x9/node-tree-view.sgf", "ok" },
    { "littlego/9x9/non-alternating-play.sgf", "ok" },
    { "littlego/9x9/seki-9b.sgf", "ok" },
    { "littlego/9x9/setup-variations.sgf", "ok" },
    { "littlego/Famous-games/Blood-vomiting game.sgf", "ok" },
    { "littlego/Famous-games/Ear-reddening game.sgf", "ok" },
    { "littlego/Famous-games/Lee's Broken Ladder Game.sgf", "ok" },
    /* "(CA[UTF-8])": a root without its ';' (implied, as the Nihon Ki-in
     * writes it), a game of no moves; the second tree is fine. */
    { "littlego/Illegal-games/encoding-detection-fails.sgf", "ok;ok" },
    /* Two trees with different CA: we read the first CA (both are ASCII). */
    { "littlego/Illegal-games/encoding-multiple.sgf", "ok;ok" },
    /* CA[foo] falls back to UTF-8; the file also lacks its closing ')'. */
    { "littlego/Illegal-games/encoding-unsupported.sgf", "parse HS_EPARSE|truncated" },
    { "littlego/Illegal-games/illegal-move.sgf", "replay HS_EILLEGAL|move 16 (W H6): the point is occupied" },
    /* AB[aa][ab] surrounded by AW[ac][ba][bb]: a string without liberties. */
    { "littlego/Illegal-games/illegal-setup.sgf", "replay HS_EILLEGAL|black string at A19 has no liberty" },
    { "littlego/Illegal-games/not-an-sgf-file.sgf", "file HS_EPARSE|no SGF game tree" },
    /* HA[3] with no stones: accepted as recorded (free placement may follow). */
    { "littlego/Illegal-games/not-enough-handicap-stones.sgf", "ok" },
    /* No RU: japanese rules (simple ko) allow the repetition; see s_superko(). */
    { "littlego/Illegal-games/positional-superko.sgf", "ok" },
    { "littlego/Illegal-games/setup-after-first-move.sgf",
      "game HS_EUNSUPPORTED|setup stones (AB) after move 1" },
    /* Both setup nodes come before the first move: legal setup for us. */
    { "littlego/Illegal-games/setup-before-handicap-setup.sgf", "ok" },
    /* PL after a move places no stone: ignored. */
    { "littlego/Illegal-games/setup-player-after-first-move.sgf", "ok" },
    { "littlego/Illegal-games/situational-superko.sgf", "ok" },
    { "littlego/Illegal-games/suicide.sgf", "replay HS_EILLEGAL|move 4 (W A19): suicide" },
    /* 1395 moves: Fuego's limit, not ours (HS_GAME_MAX_MOVES = 100,000). */
    { "littlego/Illegal-games/too-many-moves.sgf", "ok" },
    { "littlego/sgfc/ff4_ex-rewritten-by-sgfc.sgf", "ok;ok" },
    { "littlego/sgfc/ff4_ex.sgf", "ok;ok" },
    { "littlego/sgfc/test-reorder.sgf", "ok;ok" },
    /* Strict FF[4], but trees 9-11 edit the position (AB/AE) after moves. */
    { "littlego/sgfc/test-strict.sgf",
      "ok;ok;ok;ok;ok;ok;ok;ok;game HS_EUNSUPPORTED|setup stones (AB) after move 3;"
      "game HS_EUNSUPPORTED|setup stones (AE) after move 2;"
      "game HS_EUNSUPPORTED|setup stones (AE) after move 4" },
    /* SGFC's "evil" file: one failure per tree, as its comments announce. */
    { "littlego/sgfc/test.sgf",
      "parse HS_EPARSE|'illegal' has no upper-case letter;"
      "game HS_EUNSUPPORTED|GM[game of go];"
      "game HS_EUNSUPPORTED|GM[12];"
      "parse HS_EPARSE|property AB has no value;"
      "game HS_EUNSUPPORTED|setup stones (AB) after move 2;"
      "game HS_EPARSE|node 1 (line 37, column 1): both B and W in one node;"
      "ok;ok;"
      "game HS_EUNSUPPORTED|board size 200;"
      "game HS_EUNSUPPORTED|rectangular;"
      "parse HS_EPARSE|unexpected character '['" },
    { "sabaki-sgf/chinese.sgf", "ok" },
    { "sabaki-sgf/complex.sgf", "ok" },
    /* The root node has no ';' after '(' ("property outside node" in the
     * lint): implied. Shift_JIS without CA[]: guessed (core/charset.h). */
    { "sabaki-sgf/encoding-nihon-kiin.sgf", "ok" },
    { "sabaki-sgf/japanese.sgf", "ok" },
    { "sabaki-sgf/japanese_bad.sgf", "ok" },
    { "sabaki-sgf/korean.sgf", "ok" },
    { "sabaki-sgf/no-ca.sgf", "ok" },
    { "sabaki-sgf/utf16le.sgf", "ok" },
    { "sabaki-sgf/utf8bom.sgf", "ok" },
};

/* Outcome of tree k as "ok" or "stage CODE|message". */
static void s_outcome(const hs_sgf_collection_t *c, int k, char *buf, size_t size)
{
    if (c->trees[k].status) {
        snprintf(buf, size, "parse %s|%s", hs_err_name(c->trees[k].status), c->trees[k].message);
        return;
    }
    hs_game_t g;
    hs_error_t err;
    int rc = hs_game_from_sgf(hs_sgf_root(c, k), &g, &err);
    if (rc) {
        snprintf(buf, size, "game %s|%s", hs_err_name(rc), err.msg);
        return;
    }
    hs_board_t b;
    rc = hs_game_replay(&g, -1, &b, &err);
    if (rc)
        snprintf(buf, size, "replay %s|%s", hs_err_name(rc), err.msg);
    else
        snprintf(buf, size, "ok");
    hs_game_fini(&g);
}

/* Does actual ("stage CODE|message") match expected ("stage CODE|substring")? */
static int s_match(const char *actual, const char *expected, size_t elen)
{
    if (elen == 2 && !strncmp(expected, "ok", 2))
        return !strcmp(actual, "ok");
    const char *bar = memchr(expected, '|', elen);
    if (!bar)
        return 0;
    size_t head = (size_t)(bar - expected) + 1;
    if (strncmp(actual, expected, head))
        return 0;
    char sub[256];
    snprintf(sub, sizeof sub, "%.*s", (int)(elen - head), bar + 1);
    return strstr(actual + head, sub) != NULL;
}

static void s_check_file(const char *dir, const s_case_t *tc)
{
    char path[4096];
    (void)!snprintf(path, sizeof path, "%s/%s", dir, tc->file);
    size_t len;
    char *data = hs_test_slurp(path, &len);
    HS_CHECK(data != NULL);
    if (!data) {
        fprintf(stderr, "missing %s\n", path);
        return;
    }
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(data, len, NULL, HS_SGF_RECOVER, &err);
    char actual[1024];
    const char *e = tc->expect;
    int k = 0;
    while (*e) {
        const char *semi = strchr(e, ';');
        size_t elen = semi ? (size_t)(semi - e) : strlen(e);
        if (!c)
            snprintf(actual, sizeof actual, "file %s|%s", hs_err_name(err.code), err.msg);
        else if (k < c->num_trees)
            s_outcome(c, k, actual, sizeof actual);
        else
            snprintf(actual, sizeof actual, "(no tree %d)", k + 1);
        int ok = s_match(actual, e, elen);
        if (!ok)
            fprintf(stderr, "%s tree %d: expected \"%.*s\", got \"%s\"\n", tc->file, k + 1,
                    (int)elen, e, actual);
        HS_CHECK(ok);
        k++;
        e += elen + (semi ? 1 : 0);
    }
    if (c) {
        if (c->num_trees != k)
            fprintf(stderr, "%s: %d trees, expected %d\n", tc->file, c->num_trees, k);
        HS_CHECK_INT(c->num_trees, k);
    }
    hs_sgf_destroy(&c);
    free(data);
}

/* Every .sgf under dir must be in the table (so a new file is not silently untested). */
static int s_count_sgf(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        (void)!snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".sgf"))
            n++;
        else if (!strchr(e->d_name, '.'))
            n += s_count_sgf(path);
    }
    closedir(d);
    return n;
}

/* Decoded text: the fourth node's comment (the sample sentence) per encoding. */
static void s_check_text(const char *dir)
{
    static const struct { const char *file, *prefix; } t[] = {
        { "encoding-chinese-gb18030.sgf", "围棋是一种古老" },
        { "encoding-chinese-gbk.sgf", "围棋是一种古老" },
        { "encoding-simplifiedchinese-gb2312.sgf", "围棋是一种古老" },
        { "encoding-simplifiedchinese-macos.sgf", "围棋是一种古老" },
        { "encoding-traditionalchinese-big5.sgf", "圍棋是一種古老" },
        { "encoding-traditionalchinese-macos.sgf", "圍棋是一種古老" },
        { "encoding-cyrillic-windows.sgf", "Го - древняя" },
        { "encoding-japanese-iso2022jp.sgf", "Goは古代のゲーム" },
        { "encoding-japanese-macos.sgf", "Goは古代のゲーム" },
        { "encoding-japanese-shiftjis.sgf", "Goは古代のゲーム" },
        { "encoding-korean-macos.sgf", "바둑은 중국에" },
        { "encoding-utf16-nobom.sgf", "Go is an ancient game" },
        { "encoding-utf16-withbom.sgf", "Go is an ancient game" },
        { "encoding-utf8-nobom.sgf", "Go is an ancient game" },
        { "encoding-utf8-withbom.sgf", "Go is an ancient game" },
        { "encoding-western-isolatin1.sgf", "Ää Àà Ââ Åå" },
        { "encoding-western-isolatin9.sgf", "Ää Àà Ââ Åå" },
        { "encoding-western-macosroman.sgf", "Ää Àà Ââ Åå" },
        { "encoding-western-windowslatin1.sgf", "Ää Àà Ââ Åå" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char path[4096];
        (void)!snprintf(path, sizeof path, "%s/libsgfcplusplus/%s", dir, t[i].file);
        size_t len;
        char *data = hs_test_slurp(path, &len);
        hs_error_t err;
        hs_sgf_collection_t *c = data ? hs_sgf_parse(data, len, NULL, &err) : NULL;
        HS_CHECK(c != NULL);
        if (c) {
            const hs_sgf_node_t *n = hs_sgf_root(c, 0);
            for (int k = 0; k < 3 && n; k++)
                n = n->first_child;
            const char *cm = n ? hs_sgf_node_value(n, "C") : NULL;
            int ok = cm && !strncmp(cm, t[i].prefix, strlen(t[i].prefix));
            if (!ok)
                fprintf(stderr, "%s: comment \"%.40s\"\n", t[i].file, cm ? cm : "(none)");
            HS_CHECK(ok);
            HS_CHECK_INT(c->num_replaced, 0);
        }
        hs_sgf_destroy(&c);
        free(data);
    }
    static const struct { const char *file, *pb; } p[] = {
        { "sabaki-sgf/chinese.sgf", "古力" },
        { "sabaki-sgf/korean.sgf", "이세돌" },
        { "sabaki-sgf/japanese.sgf", "井山 裕太" },
        { "sabaki-sgf/utf16le.sgf", "Kitani Minoru" },
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        char path[4096];
        (void)!snprintf(path, sizeof path, "%s/%s", dir, p[i].file);
        size_t len;
        char *data = hs_test_slurp(path, &len);
        hs_error_t err;
        hs_sgf_collection_t *c = data ? hs_sgf_parse(data, len, NULL, &err) : NULL;
        HS_CHECK(c != NULL);
        if (c)
            HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c, 0), "PB"), p[i].pb);
        hs_sgf_destroy(&c);
        free(data);
    }
}

/* data[0..*len) without its first "CA[...]" (in place). */
static void s_drop_ca(char *data, size_t *len)
{
    char *ca = strstr(data, "CA[");
    char *end = ca ? strchr(ca, ']') : NULL;
    if (!end)
        return;
    size_t cut = (size_t)(end + 1 - ca);
    memmove(ca, end + 1, *len - (size_t)(end + 1 - data) + 1);
    *len -= cut;
}

/* The encoding files without their CA[]: the guess (core/charset.h, 4.) must
 * read them as their CA[] says, to the same UTF-8. */
static void s_check_guess(const char *dir)
{
    static const struct { const char *file, *ca, *used; } t[] = {
        { "sabaki-sgf/korean.sgf", "EUC-KR", "CP949 (no CA[]: guessed)" },
        { "libsgfcplusplus/encoding-korean-macos.sgf", "EUC-KR", "CP949 (no CA[]: guessed)" },
        { "libsgfcplusplus/encoding-traditionalchinese-big5.sgf", "BIG5",
          "BIG5 (no CA[]: guessed)" },
        { "libsgfcplusplus/encoding-traditionalchinese-macos.sgf", "BIG5",
          "BIG5 (no CA[]: guessed)" },
        { "libsgfcplusplus/encoding-simplifiedchinese-gb2312.sgf", "GB2312",
          "GB18030 (no CA[]: guessed)" },
        { "libsgfcplusplus/encoding-chinese-gbk.sgf", "GBK", "GB18030 (no CA[]: guessed)" },
        { "sabaki-sgf/chinese.sgf", "GB2312", "GB18030 (no CA[]: guessed)" },
        { "sabaki-sgf/japanese.sgf", "SHIFT_JIS", "CP932 (no CA[]: guessed)" },
        { "libsgfcplusplus/encoding-japanese-shiftjis.sgf", "SHIFT_JIS",
          "CP932 (no CA[]: guessed)" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char path[4096];
        (void)!snprintf(path, sizeof path, "%s/%s", dir, t[i].file);
        size_t len;
        char *data = hs_test_slurp(path, &len);
        HS_CHECK(data != NULL);
        if (!data)
            continue;
        s_drop_ca(data, &len);
        HS_CHECK(strstr(data, "CA[") == NULL);
        char *want = NULL, *got = NULL;
        size_t wlen = 0, glen = 0, wrep = 0, grep = 0;
        const char *used = NULL;
        hs_error_t err;
        HS_CHECK_INT(hs_charset_convert(t[i].ca, data, len, &want, &wlen, &wrep, &err), 0);
        HS_CHECK_INT(hs_charset_sgf_to_utf8(data, len, 0, &got, &glen, &used, &grep, &err), 0);
        if (!used || strcmp(used, t[i].used))
            fprintf(stderr, "%s without CA[]: read as %s\n", t[i].file, used ? used : "(null)");
        HS_CHECK_STR(used, t[i].used);
        HS_CHECK_STR(got, want);
        HS_CHECK_INT(grep, wrep);
        free(want);
        free(got);
        free(data);
    }
}

/* The superko files are illegal exactly under the rules that forbid the repetition. */
static void s_superko(const char *dir, const char *file, hs_rules_id_t forbids, int move)
{
    char path[4096];
    (void)!snprintf(path, sizeof path, "%s/littlego/Illegal-games/%s", dir, file);
    size_t len;
    char *data = hs_test_slurp(path, &len);
    hs_error_t err;
    hs_sgf_collection_t *c = data ? hs_sgf_parse(data, len, NULL, &err) : NULL;
    HS_CHECK(c != NULL);
    hs_game_t g;
    if (c && hs_game_from_sgf(hs_sgf_root(c, 0), &g, &err) == 0) {
        hs_board_t b;
        g.rules = hs_rules_get(forbids);
        HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), HS_EILLEGAL);
        char want[32];
        (void)!snprintf(want, sizeof want, "move %d ", move);
        HS_CHECK(strstr(err.msg, want) != NULL);
        HS_CHECK(strstr(err.msg, "superko") != NULL);
        g.rules = hs_rules_get(HS_RULES_JAPANESE);
        HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), 0);
        hs_game_fini(&g);
    } else {
        HS_CHECK(0);
    }
    hs_sgf_destroy(&c);
    free(data);
}

int main(void)
{
    char dir[2048];
    (void)!snprintf(dir, sizeof dir, "%s/sgf-edge", hs_test_data_dir());
    size_t n = sizeof s_cases / sizeof s_cases[0];
    for (size_t i = 0; i < n; i++)
        s_check_file(dir, &s_cases[i]);
    HS_CHECK_INT(s_count_sgf(dir), (int)n);
    s_check_text(dir);
    s_check_guess(dir);
    /* positional: the last move B[eg] recreates an earlier whole-board position. */
    s_superko(dir, "positional-superko.sgf", HS_RULES_CHINESE, 23);
    /* situational: W[ba] repeats a position with the same player to move. */
    s_superko(dir, "situational-superko.sgf", HS_RULES_AGA, 24);
    return hs_test_finish();
}
