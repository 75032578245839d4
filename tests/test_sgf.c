/*
 * tests/test_sgf.c — the SGF reader, writer, character sets and game records.
 *
 * Parser: escaping, soft line breaks, compressed point lists, passes, FF[3]
 * names, collections with broken trees (recovery), variations and the main
 * line, 100,000-deep nesting, limits, error positions. Writer: round trip of
 * every file in tests/data/sgf and (when present) the shared sgf-edge folder.
 * Charsets: GB2312, Shift_JIS, Big5, Latin-1, UTF-16LE BOM, UTF-8 BOM, invalid
 * UTF-8, the guess without CA[] (EUC-KR, Big5, GB2312, Shift_JIS) and its
 * frequency tables. Games: result and komi tables, Fox conventions, setup rules, errors,
 * replay, game ids.
 */
#include <dirent.h>
#include <iconv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/charset.h"
#include "core/charset_freq.h"
#include "core/game.h"
#include "core/sgf.h"
#include "sgf_compare.h"
#include "test.h"

static hs_sgf_collection_t *s_parse_str(const char *s, unsigned flags, hs_error_t *err)
{
    return hs_sgf_parse_ex(s, strlen(s), NULL, flags, err);
}

static hs_sgf_collection_t *s_parse_file(const char *name, unsigned flags, hs_error_t *err)
{
    char path[4096];
    (void)!snprintf(path, sizeof path, "%s/sgf/%s", hs_test_own_data_dir(), name);
    size_t len;
    char *data = hs_test_slurp(path, &len);
    if (!data) {
        fprintf(stderr, "cannot read %s\n", path);
        return NULL;
    }
    hs_sgf_collection_t *c = hs_sgf_parse_ex(data, len, NULL, flags, err);
    free(data);
    return c;
}

/* A root without its ';' ("(GM[1]..." as the Nihon Ki-in writes) is
 * implied; a property after ')' or between nodes' trees is still refused. */
static void test_implied_root(void)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_str("(\r\nGM[1]SZ[9]PB[a];B[ee];W[cc])", 0, &err);
    HS_CHECK(c != NULL && c->num_trees == 1);
    if (c) {
        const hs_sgf_node_t *r = hs_sgf_root(c, 0);
        HS_CHECK_STR(hs_sgf_node_value(r, "PB"), "a");
        HS_CHECK_STR(hs_sgf_node_value(r->first_child, "B"), "ee");
    }
    hs_sgf_destroy(&c);
    c = s_parse_str("(;GM[1](;B[ee])PB[x])", 0, &err);
    HS_CHECK(c == NULL || c->num_trees == 0 || c->trees[0].status != 0);
    hs_sgf_destroy(&c);
}

static void test_escaping(void)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file("escape.sgf", 0, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return;
    const hs_sgf_node_t *r = hs_sgf_root(c, 0);
    HS_CHECK_STR(hs_sgf_node_value(r, "C"), "a ] b \\ c x d softbreak");
    HS_CHECK_STR(hs_sgf_node_value(r, "GN"), "line1\nline2");
    HS_CHECK_STR(hs_sgf_node_value(r->first_child, "C"), "only \\");
    HS_CHECK_INT(r->first_child->line, 3);
    /* CRLF soft break and \n\r. */
    hs_sgf_collection_t *c2 = s_parse_str("(;C[x\\\r\ny\\\n\rz\\\rw]GN[p\\:q])", 0, &err);
    HS_CHECK(c2 != NULL);
    if (c2) {
        HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c2, 0), "C"), "xyzw");
        HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c2, 0), "GN"), "p:q");
    }
    hs_sgf_destroy(&c2);
    hs_sgf_destroy(&c);
    HS_CHECK(c == NULL);
    hs_sgf_destroy(&c); /* idempotent */
}

static void test_variations(void)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file("variations.sgf", 0, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return;
    HS_CHECK_INT(c->num_trees, 1);
    const hs_sgf_node_t *r = hs_sgf_root(c, 0);
    HS_CHECK_INT(r->num_children, 1);
    const hs_sgf_node_t *n1 = r->first_child;
    HS_CHECK_STR(hs_sgf_node_value(n1, "B"), "ee");
    HS_CHECK_INT(n1->num_children, 3);
    HS_CHECK_STR(hs_sgf_node_value(hs_sgf_node_child(n1, 0), "W"), "cc");
    HS_CHECK_STR(hs_sgf_node_value(hs_sgf_node_child(n1, 1), "W"), "gg");
    HS_CHECK_STR(hs_sgf_node_value(hs_sgf_node_child(n1, 2), "W"), "");
    HS_CHECK(hs_sgf_node_child(n1, 3) == NULL);
    HS_CHECK(hs_sgf_node_child(n1, 1)->parent == n1);

    hs_game_t g;
    HS_CHECK_INT(hs_game_from_sgf(r, &g, &err), 0);
    HS_CHECK_INT(g.size, 9);
    HS_CHECK_INT(g.num_moves, 4); /* ee cc gg gc: first child everywhere */
    if (g.num_moves == 4) {
        HS_CHECK_INT(g.moves[0].vertex, 4 * 9 + 4);
        HS_CHECK_INT(g.moves[3].vertex, 2 * 9 + 6); /* gc: x=6, y=2 */
        HS_CHECK_INT(g.moves[3].color, HS_WHITE);
    }
    HS_CHECK_STR(g.black, "Black");
    hs_game_fini(&g);
    hs_sgf_destroy(&c);
}

static void test_collections_and_recovery(void)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file("multi-broken.sgf", 0, &err);
    HS_CHECK(c == NULL); /* strict: the broken tree fails the parse */
    HS_CHECK_INT(err.code, HS_EPARSE);
    HS_CHECK(strstr(err.msg, "game 2, line 3") != NULL);
    HS_CHECK(strstr(err.msg, "unexpected character '@'") != NULL);

    c = s_parse_file("multi-broken.sgf", HS_SGF_RECOVER, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return;
    HS_CHECK_INT(c->num_trees, 4);
    HS_CHECK_INT(c->num_failed, 2);
    HS_CHECK_INT(err.code, HS_EPARSE); /* first failure, for information */
    HS_CHECK_INT(c->trees[0].status, 0);
    HS_CHECK_INT(c->trees[1].status, HS_EPARSE);
    HS_CHECK_INT(c->trees[2].status, 0);
    HS_CHECK_INT(c->trees[3].status, HS_EPARSE);
    HS_CHECK(strstr(c->trees[3].message, "truncated") != NULL);
    HS_CHECK(strstr(c->trees[3].message, "game 4") != NULL);
    HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c, 0), "GN"), "first");
    HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c, 2), "GN"), "third");
    HS_CHECK_INT(c->trees[2].line, 4);
    HS_CHECK_INT(c->trees[1].column, 1);
    hs_sgf_destroy(&c);

    /* A truncated game followed by a complete one: the second still parses. */
    c = s_parse_str("(;GM[1]GN[a];B[aa];W[bb]\n(;GM[1]GN[b];B[cc])\n", HS_SGF_RECOVER, &err);
    HS_CHECK(c != NULL);
    if (c) {
        HS_CHECK_INT(c->num_trees, 2);
        HS_CHECK_INT(c->trees[0].status, HS_EPARSE);
        HS_CHECK(strstr(c->trees[0].message, "truncated") != NULL);
        HS_CHECK_INT(c->trees[1].status, 0);
        HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c, 1), "GN"), "b");
    }
    hs_sgf_destroy(&c);

    /* Truncated inside a value. */
    c = s_parse_str("(;GM[1]C[never closed", HS_SGF_RECOVER, &err);
    HS_CHECK(c != NULL);
    if (c) {
        HS_CHECK_INT(c->trees[0].status, HS_EPARSE);
        HS_CHECK(strstr(c->trees[0].message, "inside a property value") != NULL);
    }
    hs_sgf_destroy(&c);

    /* Missing leading '(' is read but marked failed. */
    c = s_parse_str(";GM[1]SZ[9];B[aa])", HS_SGF_RECOVER, &err);
    HS_CHECK(c != NULL);
    if (c) {
        HS_CHECK_INT(c->num_trees, 1);
        HS_CHECK_INT(c->trees[0].status, HS_EPARSE);
        HS_CHECK(strstr(c->trees[0].message, "missing '('") != NULL);
    }
    hs_sgf_destroy(&c);

    /* No tree at all. */
    c = s_parse_str("this is not an sgf file (really)", HS_SGF_RECOVER, &err);
    HS_CHECK(c == NULL);
    HS_CHECK_INT(err.code, HS_EPARSE);
    c = s_parse_str("", 0, &err);
    HS_CHECK(c == NULL);

    /* Property without value, lower-case-only identifier. */
    c = s_parse_str("(;GM[1]\n  XY ;B[aa])", 0, &err);
    HS_CHECK(c == NULL);
    HS_CHECK(strstr(err.msg, "line 2, column 3") != NULL);
    HS_CHECK(strstr(err.msg, "property XY has no value") != NULL);
    c = s_parse_str("(;abc[1])", 0, &err);
    HS_CHECK(c == NULL);
    HS_CHECK(strstr(err.msg, "no upper-case") != NULL);
}

static void test_ff3_and_points(void)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file("ff3-names.sgf", 0, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return;
    const hs_sgf_node_t *r = hs_sgf_root(c, 0);
    HS_CHECK_STR(hs_sgf_node_value(r, "FF"), "3");
    HS_CHECK_STR(hs_sgf_node_value(r, "SZ"), "9");
    HS_CHECK_STR(hs_sgf_node_value(r, "PB"), "Old Style");
    hs_game_t g;
    HS_CHECK_INT(hs_game_from_sgf(r, &g, &err), 0);
    HS_CHECK_INT(g.size, 9);
    HS_CHECK_INT(g.num_moves, 2);
    HS_CHECK(fabs(g.komi + 1.5) < 1e-9);
    HS_CHECK_INT(g.komi_source, HS_KOMI_PLAIN);
    hs_game_fini(&g);
    hs_sgf_destroy(&c);

    c = s_parse_file("compressed.sgf", 0, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return;
    r = hs_sgf_root(c, 0);
    uint16_t pts[400];
    int n = 0;
    HS_CHECK_INT(hs_sgf_expand_points(hs_sgf_node_prop(r, "AB"), 9, pts, 400, &n, &err), 0);
    HS_CHECK_INT(n, 10); /* aa:cc = 9 points, plus ee */
    HS_CHECK_INT(pts[0], 0);
    HS_CHECK_INT(pts[8], 2 * 9 + 2);
    HS_CHECK_INT(pts[9], 4 * 9 + 4);
    HS_CHECK_INT(hs_sgf_expand_points(hs_sgf_node_prop(r, "AB"), 9, pts, 5, &n, &err), HS_ELIMIT);
    HS_CHECK_INT(hs_game_from_sgf(r, &g, &err), 0);
    hs_board_t b;
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), 0);
    HS_CHECK_INT(b.color[hs_board_point(&b, 1, 1)], HS_EMPTY); /* AE[bb] */
    HS_CHECK_INT(b.color[hs_board_point(&b, 2, 2)], HS_BLACK);
    HS_CHECK_INT(b.color[hs_board_point(&b, 8, 8)], HS_WHITE);
    HS_CHECK_INT(b.color[hs_board_point(&b, 5, 5)], HS_BLACK);
    hs_game_fini(&g);
    hs_sgf_destroy(&c);

    int x, y;
    bool pass;
    HS_CHECK_INT(hs_sgf_parse_point("", 0, 19, &x, &y, &pass, &err), 0);
    HS_CHECK(pass);
    HS_CHECK_INT(hs_sgf_parse_point("tt", 2, 19, &x, &y, &pass, &err), 0);
    HS_CHECK(pass);
    HS_CHECK_INT(hs_sgf_parse_point("tt", 2, 25, &x, &y, &pass, &err), 0);
    HS_CHECK(!pass);
    HS_CHECK_INT(x, 19);
    HS_CHECK_INT(hs_sgf_parse_point("tt", 2, 13, &x, &y, &pass, &err), 0);
    HS_CHECK(pass);
    HS_CHECK_INT(hs_sgf_parse_point("sa", 2, 19, &x, &y, &pass, &err), 0);
    HS_CHECK_INT(x, 18);
    HS_CHECK_INT(y, 0);
    HS_CHECK_INT(hs_sgf_parse_point("ja", 2, 9, &x, &y, &pass, &err), HS_EPARSE);
    HS_CHECK(strstr(err.msg, "outside the 9x9") != NULL);
    HS_CHECK_INT(hs_sgf_parse_point("a", 1, 9, &x, &y, &pass, &err), HS_EPARSE);

    int size = 0;
    HS_CHECK_INT(hs_sgf_parse_size("19", &size, &err), 0);
    HS_CHECK_INT(size, 19);
    HS_CHECK_INT(hs_sgf_parse_size("13:13", &size, &err), 0);
    HS_CHECK_INT(size, 13);
    HS_CHECK_INT(hs_sgf_parse_size("9:13", &size, &err), HS_EUNSUPPORTED);
    HS_CHECK_INT(hs_sgf_parse_size("x", &size, &err), HS_EPARSE);
}

/* 100,000 nested variations: HS_ELIMIT by default, a full parse with a higher limit. */
static void test_deep_nesting(void)
{
    const int depth = 100000;
    size_t cap = (size_t)depth * 16 + 16;
    char *s = malloc(cap);
    size_t n = 0;
    for (int i = 0; i < depth; i++) {
        memcpy(s + n, i % 2 ? "(;W[bb]" : "(;B[aa]", 7);
        n += 7;
    }
    memset(s + n, ')', (size_t)depth);
    n += (size_t)depth;
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse(s, n, NULL, &err);
    HS_CHECK(c == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    HS_CHECK(strstr(err.msg, "nested deeper") != NULL);

    hs_sgf_limits_t lim;
    hs_sgf_limits_default(&lim);
    lim.max_depth = depth + 1;
    c = hs_sgf_parse(s, n, &lim, &err);
    HS_CHECK(c != NULL);
    if (c) {
        HS_CHECK_INT(c->trees[0].num_nodes, depth);
        char *out = NULL;
        size_t olen = 0;
        HS_CHECK_INT(hs_sgf_write(c, &out, &olen, &err), 0);
        hs_sgf_collection_t *c2 = hs_sgf_parse(out, olen, &lim, &err);
        HS_CHECK(c2 != NULL);
        if (c2)
            HS_CHECK(hs_test_tree_equal(hs_sgf_root(c, 0), hs_sgf_root(c2, 0)));
        hs_game_t g;
        HS_CHECK_INT(hs_game_from_sgf(hs_sgf_root(c, 0), &g, &err), 0);
        HS_CHECK_INT(g.num_moves, depth);
        hs_game_fini(&g);
        hs_sgf_destroy(&c2);
        free(out);
    }
    hs_sgf_destroy(&c);

    /* Deep AND branching: every level has two variations (writer's stack). */
    n = 0;
    const int d2 = 20000;
    for (int i = 0; i < d2; i++) {
        memcpy(s + n, "(;C[x](;C[y])", 13);
        n += 13;
    }
    memset(s + n, ')', (size_t)d2);
    n += (size_t)d2;
    lim.max_depth = d2 + 10;
    c = hs_sgf_parse(s, n, &lim, &err);
    HS_CHECK(c != NULL);
    if (c) {
        HS_CHECK_INT(c->trees[0].num_nodes, 2 * d2);
        char *out = NULL;
        size_t olen = 0;
        HS_CHECK_INT(hs_sgf_write(c, &out, &olen, &err), 0);
        hs_sgf_collection_t *c2 = hs_sgf_parse(out, olen, &lim, &err);
        HS_CHECK(c2 && hs_test_tree_equal(hs_sgf_root(c, 0), hs_sgf_root(c2, 0)));
        hs_sgf_destroy(&c2);
        free(out);
    }
    hs_sgf_destroy(&c);
    free(s);
}

static void test_limits(void)
{
    hs_sgf_limits_t lim;
    hs_error_t err;
    const char *g = "(;GM[1]C[0123456789];B[aa];W[bb];B[cc])";
    hs_sgf_limits_default(&lim);
    lim.max_value_len = 5;
    HS_CHECK(hs_sgf_parse(g, strlen(g), &lim, &err) == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    HS_CHECK(strstr(err.msg, "exceeds the limit") != NULL);
    hs_sgf_limits_default(&lim);
    lim.max_nodes = 3;
    HS_CHECK(hs_sgf_parse(g, strlen(g), &lim, &err) == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    hs_sgf_limits_default(&lim);
    lim.max_file_size = 10;
    HS_CHECK(hs_sgf_parse(g, strlen(g), &lim, &err) == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    hs_sgf_limits_default(&lim);
    lim.max_props_per_node = 1;
    HS_CHECK(hs_sgf_parse(g, strlen(g), &lim, &err) == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    hs_sgf_limits_default(&lim);
    lim.max_values_per_node = 2;
    const char *g2 = "(;AB[aa][bb][cc])";
    HS_CHECK(hs_sgf_parse(g2, strlen(g2), &lim, &err) == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    /* Limits fail the tree, not the rest of the file, in recover mode. */
    const char *g3 = "(;C[0123456789])(;C[ok])";
    lim.max_value_len = 5;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(g3, strlen(g3), &lim, HS_SGF_RECOVER, &err);
    HS_CHECK(c && c->num_trees == 2 && c->trees[0].status == HS_ELIMIT && c->trees[1].status == 0);
    hs_sgf_destroy(&c);
}

/* ---- round trip ----------------------------------------------------------- */

static int s_roundtrips, s_roundtrip_files;

static void s_roundtrip_data(const char *path, const char *data, size_t len)
{
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(data, len, NULL, HS_SGF_RECOVER, &err);
    if (!c)
        return; /* nothing parseable: nothing to round-trip */
    s_roundtrip_files++;
    char *out = NULL;
    size_t olen = 0;
    HS_CHECK_INT(hs_sgf_write(c, &out, &olen, &err), 0);
    hs_sgf_collection_t *c2 = hs_sgf_parse_ex(out, olen, NULL, HS_SGF_RECOVER, &err);
    int good = c->num_trees - c->num_failed;
    if (good == 0) {
        HS_CHECK(c2 == NULL);
    } else {
        HS_CHECK(c2 != NULL);
        if (c2) {
            HS_CHECK_INT(c2->num_trees, good);
            HS_CHECK_INT(c2->num_failed, 0);
            HS_CHECK_INT(c2->num_replaced, 0);
            int k2 = 0;
            for (int k = 0; k < c->num_trees && k2 < c2->num_trees; k++) {
                if (c->trees[k].status)
                    continue;
                int eq = hs_test_tree_equal(hs_sgf_root(c, k), hs_sgf_root(c2, k2));
                if (!eq)
                    fprintf(stderr, "round trip differs: %s tree %d\n", path, k);
                HS_CHECK(eq);
                s_roundtrips++;
                k2++;
            }
        }
    }
    hs_sgf_destroy(&c2);
    free(out);
    hs_sgf_destroy(&c);
}

static void s_roundtrip_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        (void)!snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            s_roundtrip_dir(path);
            continue;
        }
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".sgf"))
            continue;
        size_t len;
        char *data = hs_test_slurp(path, &len);
        if (data)
            s_roundtrip_data(path, data, len);
        free(data);
    }
    closedir(d);
}

static void test_roundtrip(void)
{
    char dir[4096];
    (void)!snprintf(dir, sizeof dir, "%s/sgf", hs_test_own_data_dir());
    s_roundtrip_dir(dir);
    HS_CHECK(s_roundtrip_files >= 10);
    /* The fuzz seed corpus holds every input the fuzzer ever failed on
     * (regress-*.sgf): each is replayed here as a plain test. */
    (void)!snprintf(dir, sizeof dir, "%s/../fuzz/corpus/sgf", hs_test_own_data_dir());
    s_roundtrip_dir(dir);
    const char *shared = getenv("HS_DATA_DIR");
    if (shared) {
        (void)!snprintf(dir, sizeof dir, "%s/sgf-edge", shared);
        int before = s_roundtrip_files;
        s_roundtrip_dir(dir);
        printf("round trip: %d files, %d trees (%d shared sgf-edge files)\n", s_roundtrip_files,
               s_roundtrips, s_roundtrip_files - before);
    }
}

/* ---- charsets ------------------------------------------------------------- */

static void s_check_names(const char *file, const char *pb, const char *pw, const char *cs)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file(file, 0, &err);
    HS_CHECK(c != NULL);
    if (!c) {
        fprintf(stderr, "%s: %s\n", file, err.msg);
        return;
    }
    const hs_sgf_node_t *r = hs_sgf_root(c, 0);
    if (pb)
        HS_CHECK_STR(hs_sgf_node_value(r, "PB"), pb);
    if (pw)
        HS_CHECK_STR(hs_sgf_node_value(r, "PW"), pw);
    HS_CHECK_STR(c->charset, cs);
    HS_CHECK_INT(c->num_replaced, 0);
    HS_CHECK(hs_sgf_node_value(r->first_child, "B") != NULL);
    hs_sgf_destroy(&c);
}

static void test_charsets(void)
{
    s_check_names("gb2312.sgf", "柯洁", "围棋", "GB18030");
    s_check_names("shiftjis.sgf", "本因坊", "表示", "CP932");
    s_check_names("big5.sgf", "許功蓋", "圍棋", "BIG5");
    s_check_names("latin1.sgf", "Müller", "Åsa", "ISO-8859-1");
    s_check_names("utf16le-bom.sgf", "이세돌", "Lee", "UTF-16LE");
    s_check_names("utf8-bom.sgf", "박정환", NULL, "UTF-8");
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file("shiftjis.sgf", 0, &err);
    if (c) /* "ソ能表" ends in 0x5C bytes: only convert-first reads it */
        HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c, 0), "C"), "ソ能表");
    hs_sgf_destroy(&c);
    c = s_parse_file("invalid-utf8.sgf", 0, &err);
    HS_CHECK(c != NULL);
    if (c) {
        HS_CHECK_STR(hs_sgf_node_value(hs_sgf_root(c, 0), "PB"), "bad\xEF\xBF\xBD\xEF\xBF\xBD" "byte");
        HS_CHECK_INT(c->num_replaced, 2);
    }
    hs_sgf_destroy(&c);

    /* Direct API. */
    char *out = NULL;
    size_t olen = 0, rep = 0;
    HS_CHECK_INT(hs_charset_convert("gb2312", "\xce\xa7\xc6\xe5", 4, &out, &olen, &rep, &err), 0);
    HS_CHECK_STR(out, "围棋");
    free(out);
    HS_CHECK_INT(hs_charset_convert("no-such-charset-x", "a", 1, &out, &olen, &rep, &err),
                 HS_ENOTFOUND);
    HS_CHECK_INT(hs_utf8_valid_prefix("ab\xc3\xa9" "c\xff", 6), 5);
    HS_CHECK_INT(hs_utf8_valid_prefix("\xed\xa0\x80", 3), 0); /* surrogate */
    HS_CHECK_INT(hs_utf8_valid_prefix("\xc0\xaf", 2), 0);     /* overlong */
    char buf[64];
    HS_CHECK_STR(hs_charset_canonical(" ms_kanji ", 10, buf), "CP932");
    /* Already-valid UTF-8: no copy. */
    const char *u = "(;PB[김])";
    HS_CHECK_INT(hs_charset_sgf_to_utf8(u, strlen(u), 0, &out, &olen, NULL, NULL, &err), 0);
    HS_CHECK(out == NULL);
    /* Unknown CA: UTF-8 with repair. */
    const char *f = "(;CA[foo]PB[a\xff])";
    const char *used = NULL;
    HS_CHECK_INT(hs_charset_sgf_to_utf8(f, strlen(f), 0, &out, &olen, &used, &rep, &err), 0);
    HS_CHECK_STR(used, "UTF-8");
    HS_CHECK_INT(rep, 1);
    free(out);

    /* No CA[] and not UTF-8 (MultiGo's GB2312, the Nihon Ki-in's Shift_JIS):
     * guessed from the bytes, where every such byte used to become U+FFFD.
     * Kanji alone ("井山裕太 九段") read as Japanese, GB2312's hanzi as
     * Chinese; Fox's UTF-8 that lost bytes to '?' stays UTF-8. */
    static const struct { const char *in, *name, *used; size_t rep; } g[] = {
        { "(;PB[\xbf\xc2\xbd\xe0]PW[\xce\xa7\xc6\xe5])", "柯洁", "GB18030 (no CA[]: guessed)", 0 },
        { "(;PB[\x88\xe4\x8e\x52\x97\x54\x91\xbe]BR[\x8b\xe3\x92\x69])", "井山裕太",
          "CP932 (no CA[]: guessed)", 0 },
        { "(;PB[\x82\xc8\x82\xaa\x82\xa2])", "ながい", "CP932 (no CA[]: guessed)", 0 },
        { "(;PB[\xe9\xa3\x8e\xe6?\xbd\xe6\x9c\x88])", "风\xef\xbf\xbd月", "UTF-8", 1 },
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        out = NULL;
        used = NULL;
        HS_CHECK_INT(hs_charset_sgf_to_utf8(g[i].in, strlen(g[i].in), 0, &out, &olen, &used,
                                            &rep, &err), 0);
        HS_CHECK(out && strstr(out, g[i].name));
        HS_CHECK_STR(used, g[i].used);
        HS_CHECK_INT(rep, g[i].rep);
        free(out);
    }
}

/* No CA[] and not UTF-8, in the encodings whose double bytes overlap
 * (EUC-KR, GB2312, Big5) and Shift_JIS: whole records with a comment, and
 * the hard case of two short names and nothing else. The bytes are the text
 * in each comment, encoded with Python's codecs (euc_kr, big5, gb2312,
 * cp932); a \xNN escape followed by a letter ends the literal ("\xa1" "C"). */
static void test_charset_guess(void)
{
    static const struct { const char *in, *pb, *pw, *c, *used; } g[] = {
        /* (;GM[1]FF[4]SZ[19]PB[이세돌]PW[박정환]KM[6.5]RE[B+R]
         *  C[흑 불계승. 백의 대마가 잡혔다.];B[pd];W[dp]) in EUC-KR */
        { "(;GM[1]FF[4]SZ[19]PB[\xc0\xcc\xbc\xbc\xb5\xb9]PW[\xb9\xda\xc1\xa4\xc8\xaf]KM[6.5]"
          "RE[B+R]C[\xc8\xe6 \xba\xd2\xb0\xe8\xbd\xc2. \xb9\xe9\xc0\xc7 \xb4\xeb\xb8\xb6\xb0\xa1 "
          "\xc0\xe2\xc7\xfb\xb4\xd9.];B[pd];W[dp])",
          "이세돌", "박정환", "흑 불계승. 백의 대마가 잡혔다.", "CP949 (no CA[]: guessed)" },
        /* PB[周俊勳]PW[王立誠] C[黑中盤勝。這盤棋很精彩。] in Big5 */
        { "(;GM[1]FF[4]SZ[19]PB[\xa9P\xabT\xbe\xb1]PW[\xa4\xfd\xa5\xdf\xb8\xdb]RE[B+R]"
          "C[\xb6\xc2\xa4\xa4\xbdL\xb3\xd3\xa1" "C\xb3o\xbdL\xb4\xd1\xab\xdc\xba\xeb\xb1m\xa1" "C];"
          "B[pd];W[dp])",
          "周俊勳", "王立誠", "黑中盤勝。這盤棋很精彩。", "BIG5 (no CA[]: guessed)" },
        /* PB[柯洁]PW[古力] C[白中盘胜。这盘棋很精彩。] in GB2312 */
        { "(;GM[1]FF[4]SZ[19]PB[\xbf\xc2\xbd\xe0]PW[\xb9\xc5\xc1\xa6]RE[W+R]C[\xb0\xd7\xd6\xd0"
          "\xc5\xcc\xca\xa4\xa1\xa3\xd5\xe2\xc5\xcc\xc6\xe5\xba\xdc\xbe\xab\xb2\xca\xa1\xa3];"
          "B[pd];W[dp])",
          "柯洁", "古力", "白中盘胜。这盘棋很精彩。", "GB18030 (no CA[]: guessed)" },
        /* PB[井山裕太]PW[張栩] C[黒中押し勝ち。] in Shift_JIS */
        { "(;GM[1]FF[4]SZ[19]PB[\x88\xe4\x8eR\x97T\x91\xbe]PW[\x92\xa3\x9ez]RE[B+R]"
          "C[\x8d\x95\x92\x86\x89\x9f\x82\xb5\x8f\x9f\x82\xbf\x81" "B];B[pd];W[dp])",
          "井山裕太", "張栩", "黒中押し勝ち。", "CP932 (no CA[]: guessed)" },
        /* Names alone: 신진서 박정환, 김민수 이지은 (EUC-KR); 聂卫平 马晓春,
         * 王磊 张伟 (GB2312); 周俊勳 林海峰 (Big5). */
        { "(;PB[\xbd\xc5\xc1\xf8\xbc\xad]PW[\xb9\xda\xc1\xa4\xc8\xaf])", "신진서", "박정환", NULL,
          "CP949 (no CA[]: guessed)" },
        { "(;PB[\xb1\xe8\xb9\xce\xbc\xf6]PW[\xc0\xcc\xc1\xf6\xc0\xba])", "김민수", "이지은", NULL,
          "CP949 (no CA[]: guessed)" },
        { "(;PB[\xc4\xf4\xce\xc0\xc6\xbd]PW[\xc2\xed\xcf\xfe\xb4\xba])", "聂卫平", "马晓春", NULL,
          "GB18030 (no CA[]: guessed)" },
        { "(;PB[\xcd\xf5\xc0\xda]PW[\xd5\xc5\xce\xb0])", "王磊", "张伟", NULL,
          "GB18030 (no CA[]: guessed)" },
        { "(;PB[\xa9P\xabT\xbe\xb1]PW[\xaaL\xae\xfc\xaep])", "周俊勳", "林海峰", NULL,
          "BIG5 (no CA[]: guessed)" },
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        hs_error_t err;
        hs_sgf_collection_t *c = s_parse_str(g[i].in, 0, &err);
        HS_CHECK(c != NULL);
        if (!c)
            continue;
        const hs_sgf_node_t *r = hs_sgf_root(c, 0);
        HS_CHECK_STR(c->charset, g[i].used);
        HS_CHECK_INT(c->num_replaced, 0);
        HS_CHECK_STR(hs_sgf_node_value(r, "PB"), g[i].pb);
        HS_CHECK_STR(hs_sgf_node_value(r, "PW"), g[i].pw);
        if (g[i].c)
            HS_CHECK_STR(hs_sgf_node_value(r, "C"), g[i].c);
        hs_sgf_destroy(&c);
    }
}

/* The frequency tables the guess reads: 3-byte UTF-8 characters in strictly
 * increasing order (the binary search needs it; an edit by hand may break
 * it), each readable in its encoding; and the count on a sample. */
static void test_charset_freq(void)
{
    static const struct { hs_freq_lang_t lang; const char *cs; size_t min; } t[] = {
        { HS_FREQ_KO, "EUC-KR", 300 },
        { HS_FREQ_HANS, "GB2312", 300 },
        { HS_FREQ_HANT, "BIG5", 300 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        size_t n = 0;
        const char *s = hs_freq_table(t[i].lang, &n);
        HS_CHECK(n >= t[i].min);
        HS_CHECK_INT(strlen(s), 3 * n);
        HS_CHECK_INT(hs_utf8_valid_prefix(s, 3 * n), 3 * n);
        for (size_t k = 0; k < n; k++) {
            HS_CHECK((s[3 * k] & 0xF0) == 0xE0);
            if (k && memcmp(s + 3 * (k - 1), s + 3 * k, 3) >= 0) {
                fprintf(stderr, "freq table %zu: '%.3s' before '%.3s'\n", i, s + 3 * (k - 1),
                        s + 3 * k);
                HS_CHECK(0);
            }
        }
        /* Every entry round-trips through its encoding (iconv): a character
         * the encoding lacks could never be read from it. */
        char *back = NULL;
        size_t blen = 0, rep = 0;
        hs_error_t err;
        iconv_t cd = iconv_open(t[i].cs, "UTF-8");
        HS_CHECK(cd != (iconv_t)-1);
        if (cd != (iconv_t)-1) {
            char enc[4096], *in = (char *)s, *out = enc;
            size_t inleft = 3 * n, outleft = sizeof enc;
            HS_CHECK(iconv(cd, &in, &inleft, &out, &outleft) != (size_t)-1);
            iconv_close(cd);
            HS_CHECK_INT(hs_charset_convert(t[i].cs, enc, (size_t)(out - enc), &back, &blen, &rep,
                                            &err), 0);
            HS_CHECK_STR(back, s);
            free(back);
        }
    }
    const char *ko = "흑 불계승 (이세돌) 龍";
    HS_CHECK_INT(hs_freq_count(HS_FREQ_KO, ko, strlen(ko)), 7);
    HS_CHECK_INT(hs_freq_count(HS_FREQ_HANS, ko, strlen(ko)), 0);
    const char *zh = "黑中盘胜 围棋";
    HS_CHECK_INT(hs_freq_count(HS_FREQ_HANS, zh, strlen(zh)), 6);
    /* a character cut off at the end counts for nothing */
    HS_CHECK_INT(hs_freq_count(HS_FREQ_HANS, zh, 5), 1);
}

/* ---- games ---------------------------------------------------------------- */

static void test_results(void)
{
    struct { const char *re; hs_winner_t w; hs_result_kind_t k; double m; const char *fmt; } t[] = {
        { "B+3.5", HS_WINNER_BLACK, HS_RESULT_POINTS, 3.5, "B+3.5" },
        { "W+12.50", HS_WINNER_WHITE, HS_RESULT_POINTS, 12.5, "W+12.5" },
        { "W+R", HS_WINNER_WHITE, HS_RESULT_RESIGN, 0, "W+R" },
        { "B+Resign", HS_WINNER_BLACK, HS_RESULT_RESIGN, 0, "B+R" },
        { "W+T", HS_WINNER_WHITE, HS_RESULT_TIME, 0, "W+T" },
        { "B+Time", HS_WINNER_BLACK, HS_RESULT_TIME, 0, "B+T" },
        { "B+F", HS_WINNER_BLACK, HS_RESULT_FORFEIT, 0, "B+F" },
        { "0", HS_WINNER_DRAW, HS_RESULT_POINTS, 0, "0" },
        { "Draw", HS_WINNER_DRAW, HS_RESULT_POINTS, 0, "0" },
        { "Jigo", HS_WINNER_DRAW, HS_RESULT_POINTS, 0, "0" },
        { "Void", HS_WINNER_VOID, HS_RESULT_NONE, 0, "Void" },
        { "?", HS_WINNER_UNKNOWN, HS_RESULT_NONE, 0, "?" },
        { "", HS_WINNER_UNKNOWN, HS_RESULT_NONE, 0, "?" },
        { "W+0.0", HS_WINNER_WHITE, HS_RESULT_POINTS, 0, "W+0" },
        { "B+", HS_WINNER_BLACK, HS_RESULT_NONE, 0, "B+" },
        { "黑中盘胜", HS_WINNER_UNKNOWN, HS_RESULT_NONE, 0, "?" },
        { "W+0.25", HS_WINNER_WHITE, HS_RESULT_POINTS, 0.25, "W+0.25" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        hs_result_t r;
        hs_result_parse(t[i].re, &r);
        HS_CHECK_INT(r.winner, t[i].w);
        HS_CHECK_INT(r.kind, t[i].k);
        HS_CHECK(fabs(r.margin - t[i].m) < 1e-9);
        char buf[16];
        HS_CHECK_STR(hs_result_format(&r, buf), t[i].fmt);
    }
    hs_result_t r;
    hs_result_parse(NULL, &r);
    HS_CHECK_INT(r.winner, HS_WINNER_UNKNOWN);
    /* a counted margin's fraction is the komi's: W+5.5 under KM[0] is not
     * the game's komi; results that say nothing of the komi fit any */
    struct { const char *re; double komi; bool fits; } k[] = {
        { "W+5.5", 0, false }, { "W+5.5", 6.5, true }, { "B+2", 7.5, false },
        { "B+2", 0, true }, { "B+2", -3, true }, { "W+0.5", -0.5, true },
        { "W+R", 0, true }, { "W+0.0", 0.5, true }, { "0", 6.5, true },
        { "W+0.25", 0, true }, { "B+3.5", 3.75, true }, { "?", 0, true },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        hs_result_parse(k[i].re, &r);
        HS_CHECK_INT(hs_result_fits_komi(&r, k[i].komi), k[i].fits);
    }
}

static int s_game_from(const char *sgf, hs_game_t *g, hs_error_t *err)
{
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, strlen(sgf), NULL, err);
    if (!c) {
        hs_game_init(g, 19);
        return err->code;
    }
    int rc = hs_game_from_sgf(hs_sgf_root(c, 0), g, err);
    hs_sgf_destroy(&c);
    return rc;
}

static void test_komi(void)
{
    struct { const char *km; double komi; hs_komi_source_t src; } t[] = {
        { "6.5", 6.5, HS_KOMI_PLAIN },      { "7.50", 7.5, HS_KOMI_PLAIN },
        { "650", 6.5, HS_KOMI_FOX_POINTS }, { "750", 7.5, HS_KOMI_FOX_POINTS },
        { "375", 7.5, HS_KOMI_FOX_ZI },     { "325", 6.5, HS_KOMI_FOX_ZI },
        { "0", 0, HS_KOMI_PLAIN },          { "-1.5", -1.5, HS_KOMI_PLAIN },
        { "3.75", 7.5, HS_KOMI_FOX_ZI },    { "7", 7, HS_KOMI_PLAIN },
        { "0.5", 0.5, HS_KOMI_PLAIN },      { "abc", 6.5, HS_KOMI_DEFAULT },
        { "7,5", 7.5, HS_KOMI_PLAIN },      { "0,5", 0.5, HS_KOMI_PLAIN },
        { "6,5,5", 6.5, HS_KOMI_DEFAULT },  { ",5", 6.5, HS_KOMI_DEFAULT },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char sgf[128];
        (void)!snprintf(sgf, sizeof sgf, "(;GM[1]KM[%s];B[aa])", t[i].km);
        hs_game_t g;
        hs_error_t err;
        HS_CHECK_INT(s_game_from(sgf, &g, &err), 0);
        if (fabs(g.komi - t[i].komi) > 1e-9)
            fprintf(stderr, "KM[%s] -> %g\n", t[i].km, g.komi);
        HS_CHECK(fabs(g.komi - t[i].komi) < 1e-9);
        HS_CHECK_INT(g.komi_source, t[i].src);
        HS_CHECK_STR(g.komi_raw, t[i].km);
        hs_game_fini(&g);
    }
    hs_game_t g;
    hs_error_t err;
    HS_CHECK_INT(s_game_from("(;GM[1]RU[Chinese])", &g, &err), 0);
    HS_CHECK_INT(g.komi_source, HS_KOMI_DEFAULT);
    HS_CHECK(fabs(g.komi - 7.5) < 1e-9);
    HS_CHECK_INT(g.rules.id, HS_RULES_CHINESE);
    hs_game_fini(&g);
    HS_CHECK_INT(s_game_from("(;GM[1]RU[Martian])", &g, &err), 0);
    HS_CHECK_INT(g.rules.id, HS_RULES_JAPANESE);
    HS_CHECK_STR(g.rules_raw, "Martian");
    hs_game_fini(&g);
}

static void test_fox_like(void)
{
    hs_error_t err;
    hs_sgf_collection_t *c = s_parse_file("fox-like.sgf", 0, &err);
    HS_CHECK(c != NULL);
    if (!c)
        return;
    hs_game_t g;
    HS_CHECK_INT(hs_game_from_sgf(hs_sgf_root(c, 0), &g, &err), 0);
    HS_CHECK_INT(g.handicap, 2);
    HS_CHECK_INT(g.num_setup, 2);
    HS_CHECK_INT(g.num_moves, 4);
    HS_CHECK(fabs(g.komi - 7.5) < 1e-9);
    HS_CHECK_INT(g.komi_source, HS_KOMI_FOX_ZI);
    HS_CHECK_INT(g.rules.id, HS_RULES_CHINESE);
    HS_CHECK_STR(g.black_rank, "P7段");
    HS_CHECK_STR(g.result_raw, "W+0.25");
    HS_CHECK_INT(g.result.winner, HS_WINNER_WHITE);
    if (g.num_moves == 4) {
        HS_CHECK_INT(g.moves[2].vertex, HS_GAME_PASS); /* W[tt] */
        HS_CHECK_INT(g.moves[3].vertex, HS_GAME_PASS); /* B[] */
    }
    hs_board_t b;
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), 0);
    HS_CHECK_INT(b.color[hs_board_point(&b, 3, 15)], HS_BLACK); /* AB[dp] */
    HS_CHECK_INT(b.color[hs_board_point(&b, 3, 3)], HS_WHITE);  /* W[dd] */
    HS_CHECK_INT(b.move_number, 4);
    char hex[33];
    HS_CHECK_INT(strlen(hs_game_id_hex(&g, hex)), 32);
    hs_game_fini(&g);
    hs_sgf_destroy(&c);

    /* Repeated root property: first non-empty wins. */
    HS_CHECK_INT(s_game_from("(;GM[1]PB[]PB[second]PW[w1]PW[w2])", &g, &err), 0);
    HS_CHECK_STR(g.black, "second");
    HS_CHECK_STR(g.white, "w1");
    hs_game_fini(&g);

    /* Names and ranks lose the white space around them (one player, not two,
     * in the store's index); a name of spaces only is no name. */
    HS_CHECK_INT(s_game_from("(;GM[1]PB[ Student Ann\t]PW[  ]BR[ 5k ]WR[Ann Lee])", &g, &err), 0);
    HS_CHECK_STR(g.black, "Student Ann");
    HS_CHECK(g.white == NULL);
    HS_CHECK_STR(g.black_rank, "5k");
    HS_CHECK_STR(g.white_rank, "Ann Lee");
    hs_game_fini(&g);
}

static void test_game_errors(void)
{
    hs_game_t g;
    hs_error_t err;
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[9];B[aa];AB[bb])", &g, &err), HS_EUNSUPPORTED);
    HS_CHECK(strstr(err.msg, "setup stones (AB) after move 1") != NULL);
    HS_CHECK(g.num_moves == 0 && g.moves == NULL);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[9];B[aa]W[bb])", &g, &err), HS_EPARSE);
    HS_CHECK(strstr(err.msg, "both B and W") != NULL);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[9]\n;B[aa]\n;W[zz])", &g, &err), HS_EPARSE);
    HS_CHECK(strstr(err.msg, "move 2 (node 2, line 3, column 2)") != NULL);
    HS_CHECK(strstr(err.msg, "outside the 9x9 board") != NULL);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[9:13])", &g, &err), HS_EUNSUPPORTED);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19:19];B[ss])", &g, &err), 0);
    HS_CHECK_INT(g.size, 19);
    hs_game_fini(&g);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[52])", &g, &err), HS_EUNSUPPORTED);
    HS_CHECK_INT(s_game_from("(;GM[2])", &g, &err), HS_EUNSUPPORTED);
    HS_CHECK_INT(s_game_from("(;GM[1];B[aa][bb])", &g, &err), HS_EPARSE);
    HS_CHECK_INT(s_game_from("(;GM[1]AB[aa:zz])", &g, &err), HS_EPARSE);
    /* Setup in move-less nodes before the first move is fine; PL anywhere is ignored. */
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[9]AB[aa];C[x];AW[bb];B[cc];PL[B];W[dd])", &g, &err), 0);
    HS_CHECK_INT(g.num_setup, 2);
    HS_CHECK_INT(g.num_moves, 2);
    hs_game_fini(&g);
    /* HA with no black stone and White first (Fox): Black's stones are somewhere
     * the record does not say, so no position of it is the game's. */
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]HA[4];W[qq];B[dd])", &g, &err), HS_EUNSUPPORTED);
    HS_CHECK(strstr(err.msg, "HA[4] but the record has no handicap stones and White moves "
                             "first") != NULL);
    HS_CHECK(g.num_moves == 0 && g.moves == NULL);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]HA[2]AW[pd];W[qq])", &g, &err), HS_EUNSUPPORTED);
    /* With the stones, with Black first (stones placed as moves), or with no
     * move at all: read as recorded. */
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]HA[2]AB[dd][pp];W[qq])", &g, &err), 0);
    HS_CHECK_INT(g.handicap, 2);
    hs_game_fini(&g);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]HA[2];B[dd];B[pp];W[qq])", &g, &err), 0);
    HS_CHECK_INT(g.num_moves, 3);
    hs_game_fini(&g);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]HA[3])", &g, &err), 0);
    hs_game_fini(&g);
}

static void test_replay(void)
{
    hs_game_t g;
    hs_error_t err;
    hs_board_t b;
    /* Black captures the white stone at aa (corner). */
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[5];B[ba];W[aa];B[ab])", &g, &err), 0);
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), 0);
    HS_CHECK_INT(b.color[hs_board_point(&b, 0, 0)], HS_EMPTY);
    HS_CHECK_INT(b.captures[HS_BLACK], 1);
    HS_CHECK_INT(hs_game_replay(&g, 2, &b, &err), 0);
    HS_CHECK_INT(b.color[hs_board_point(&b, 0, 0)], HS_WHITE);
    hs_game_fini(&g);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[5];B[cc];W[dd];B[cc])", &g, &err), 0);
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), HS_EILLEGAL);
    HS_CHECK(strstr(err.msg, "move 3 (B C3)") != NULL);
    HS_CHECK(strstr(err.msg, "occupied") != NULL);
    HS_CHECK_INT(b.move_number, 2);
    hs_game_fini(&g);
    /* Suicide under japanese rules. */
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[5];B[ab];W[];B[ba];W[aa])", &g, &err), 0);
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), HS_EILLEGAL);
    HS_CHECK(strstr(err.msg, "suicide") != NULL);
    hs_game_fini(&g);
    /* A setup string without liberties. */
    HS_CHECK_INT(s_game_from("(;GM[1]AB[aa][ab]AW[ac][ba][bb])", &g, &err), 0);
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), HS_EILLEGAL);
    HS_CHECK(strstr(err.msg, "setup") != NULL);
    hs_game_fini(&g);
}

static void test_game_id(void)
{
    hs_game_t a, b, c2, d, e;
    hs_error_t err;
    HS_CHECK_INT(s_game_from("(;GM[1]FF[4]SZ[19]KM[6.5]PB[x]AB[dd][pp];W[qd];B[dq])", &a, &err), 0);
    HS_CHECK_INT(s_game_from("(;FF[3]GM[1]\n SZ[19] KM[650] PB[other] RE[B+R]\n;AB[pp][dd]\n"
                             "(;W[qd];B[dq])(;W[aa]))", &b, &err), 0);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]KM[6.5]AB[dd][pp];W[qd];B[dr])", &c2, &err), 0);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]KM[7.5]AB[dd][pp];W[qd];B[dq])", &d, &err), 0);
    HS_CHECK_INT(s_game_from("(;GM[1]SZ[19]KM[6.5]AB[dd][pp];W[qd])", &e, &err), 0);
    HS_CHECK(a.id[0] == b.id[0] && a.id[1] == b.id[1]);
    HS_CHECK(a.id[0] != c2.id[0] && a.id[1] != c2.id[1]);
    HS_CHECK(a.id[0] != d.id[0]);
    HS_CHECK(a.id[0] != e.id[0]);
    char h1[33], h2[33];
    HS_CHECK_STR(hs_game_id_hex(&a, h1), hs_game_id_hex(&b, h2));
    hs_game_fini(&a);
    hs_game_fini(&b);
    hs_game_fini(&c2);
    hs_game_fini(&d);
    hs_game_fini(&e);
}

int main(void)
{
    test_implied_root();
    test_escaping();
    test_variations();
    test_collections_and_recovery();
    test_ff3_and_points();
    test_deep_nesting();
    test_limits();
    test_roundtrip();
    test_charsets();
    test_charset_guess();
    test_charset_freq();
    test_results();
    test_komi();
    test_fox_like();
    test_game_errors();
    test_replay();
    test_game_id();
    return hs_test_finish();
}
