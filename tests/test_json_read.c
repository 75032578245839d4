/*
 * tests/test_json_read.c — the strict JSON reader (core/json_read.h): the
 * tree and getters on valid text, the error (code and offset) on every kind
 * of malformed text, the limits, and the writer's round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "test.h"

static hs_json_doc_t *s_parse_ok(const char *text)
{
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    int rc = hs_json_parse(text, strlen(text), NULL, &d, &err);
    if (rc)
        fprintf(stderr, "unexpected error on %s: %s\n", text, err.msg);
    HS_CHECK_INT(rc, 0);
    return d;
}

/* Parses text expecting code; returns the message (static). */
static const char *s_parse_bad(const char *text, size_t len, int code)
{
    static hs_error_t err;
    hs_json_doc_t *d = (hs_json_doc_t *)&err;   /* must come back NULL */
    int rc = hs_json_parse(text, len, NULL, &d, &err);
    if (rc != code)
        fprintf(stderr, "on '%.*s': got %d (%s)\n", (int)len, text, rc, rc ? err.msg : "ok");
    HS_CHECK_INT(rc, code);
    HS_CHECK(d == NULL);
    hs_json_free(&d);
    return err.msg;
}

static void test_query_shape(void)
{
    hs_json_doc_t *d = s_parse_ok(
        " {\"id\":\"q1\",\"moves\":[[\"B\",\"D4\"],[\"w\",\"pass\"]],\"komi\":7.5,"
        "\"maxVisits\":50,\"includeOwnership\":true,\"x\":null,\"neg\":-3,\"e\":1e2} \r\n");
    const hs_json_t *r = hs_json_root(d);
    HS_CHECK_INT(r->type, HS_JSON_OBJECT);
    HS_CHECK_INT(r->count, 8);
    const char *s = NULL;
    HS_CHECK(hs_json_str(hs_json_get(r, "id"), &s));
    HS_CHECK_STR(s, "q1");
    const hs_json_t *mv = hs_json_get(r, "moves");
    HS_CHECK_INT(mv->count, 2);
    HS_CHECK(hs_json_str(hs_json_at(hs_json_at(mv, 1), 1), &s));
    HS_CHECK_STR(s, "pass");
    HS_CHECK(hs_json_at(mv, 2) == NULL);
    HS_CHECK(hs_json_at(mv, -1) == NULL);
    double k = 0;
    HS_CHECK(hs_json_double(hs_json_get(r, "komi"), -400, 400, &k));
    HS_CHECK(k == 7.5);
    int64_t i = 0;
    HS_CHECK(!hs_json_int(hs_json_get(r, "komi"), 0, 100, &i));   /* not integer-written */
    HS_CHECK(hs_json_int(hs_json_get(r, "maxVisits"), 1, 100, &i));
    HS_CHECK_INT(i, 50);
    HS_CHECK(!hs_json_int(hs_json_get(r, "maxVisits"), 51, 100, &i));   /* out of range */
    HS_CHECK(hs_json_int(hs_json_get(r, "neg"), -5, 5, &i));
    HS_CHECK_INT(i, -3);
    HS_CHECK(!hs_json_int(hs_json_get(r, "e"), 0, 1000, &i));   /* 1e2 is not an integer */
    HS_CHECK(hs_json_double(hs_json_get(r, "e"), 0, 1000, &k) && k == 100.0);
    bool b = false;
    HS_CHECK(hs_json_bool(hs_json_get(r, "includeOwnership"), &b) && b);
    HS_CHECK(!hs_json_bool(hs_json_get(r, "id"), &b));
    HS_CHECK_INT(hs_json_get(r, "x")->type, HS_JSON_NULL);
    HS_CHECK(hs_json_get(r, "nope") == NULL);
    HS_CHECK(hs_json_get(mv, "id") == NULL);   /* not an object */
    HS_CHECK(!hs_json_str(NULL, &s));
    hs_json_free(&d);
    HS_CHECK(d == NULL);
}

static void test_strings(void)
{
    hs_json_doc_t *d = s_parse_ok("[\"a\\\"b\\\\c\\/\\n\\t\", \"\\u00e9\\u4e2d\\ud83d\\ude00\", \"\xc3\xa9\"]");
    const hs_json_t *r = hs_json_root(d);
    HS_CHECK_STR(hs_json_at(r, 0)->str, "a\"b\\c/\n\t");
    HS_CHECK_STR(hs_json_at(r, 1)->str, "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80");
    HS_CHECK_INT(hs_json_at(r, 1)->len, 9);
    HS_CHECK_STR(hs_json_at(r, 2)->str, "\xc3\xa9");
    hs_json_free(&d);
    /* Duplicate keys: the last one wins, as in nlohmann::json. */
    d = s_parse_ok("{\"a\":1,\"a\":2}");
    int64_t i = 0;
    HS_CHECK(hs_json_int(hs_json_get(hs_json_root(d), "a"), 0, 9, &i));
    HS_CHECK_INT(i, 2);
    hs_json_free(&d);
}

static void test_numbers(void)
{
    hs_json_doc_t *d = s_parse_ok("[0,-0,9223372036854775807,9223372036854775808,1.5e-3,1E+2,1e999]");
    const hs_json_t *r = hs_json_root(d);
    int64_t i = -1;
    HS_CHECK(hs_json_int(hs_json_at(r, 0), 0, 0, &i) && i == 0);
    HS_CHECK(hs_json_int(hs_json_at(r, 2), 0, INT64_MAX, &i) && i == INT64_MAX);
    HS_CHECK(!hs_json_at(r, 3)->is_int);   /* beyond int64: a double only */
    double x = 0;
    HS_CHECK(hs_json_double(hs_json_at(r, 4), 0, 1, &x) && x == 1.5e-3);
    HS_CHECK(!hs_json_double(hs_json_at(r, 6), -1e308, 1e308, &x));   /* infinite */
    HS_CHECK_STR(hs_json_at(r, 5)->str, "1E+2");
    hs_json_free(&d);
}

static void test_errors(void)
{
    const struct { const char *text; const char *offset; } bad[] = {
        { "", "offset 0" },
        { "   ", "offset 3" },
        { "{", "offset 1" },
        { "{\"a\" 1}", "offset 5" },
        { "{\"a\":1,}", "offset 7" },
        { "[1,]", "offset 3" },
        { "[1 2]", "offset 3" },
        { "{a:1}", "offset 1" },
        { "[01]", "offset 2" },
        { "[1.]", "offset 3" },
        { "[.5]", "offset 1" },
        { "[-]", "offset 2" },
        { "[1e]", "offset 3" },
        { "[NaN]", "offset 1" },
        { "[Infinity]", "offset 1" },
        { "[tru]", "offset 1" },
        { "\"abc", "end of text" },
        { "\"a\\x\"", "offset 3" },
        { "\"\\u12g4\"", "offset 5" },
        { "\"\\ud800\"", "offset 7" },
        { "\"\\udc00\"", "offset 7" },
        { "\"\\u0000\"", "offset 7" },
        { "\"a\tb\"", "offset 2" },
        { "\"\xff\"", "offset 1" },
        { "\"\xc3\"", "offset 1" },
        { "{} x", "offset 3" },
        { "[1] [2]", "offset 4" },
        { "// c\n{}", "offset 0" },
        { "{\"a\":1}garbage", "offset 7" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const char *msg = s_parse_bad(bad[k].text, strlen(bad[k].text), HS_EPARSE);
        if (!strstr(msg, bad[k].offset))
            fprintf(stderr, "'%s': message '%s' lacks '%s'\n", bad[k].text, msg, bad[k].offset);
        HS_CHECK(strstr(msg, bad[k].offset) != NULL);
    }
    /* A NUL inside the text is an error, not the end of it. */
    s_parse_bad("{}\0{}", 5, HS_EPARSE);
    s_parse_bad("\"a\0b\"", 5, HS_EPARSE);
}

static void test_limits(void)
{
    char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    s_parse_bad(deep, 200, HS_ELIMIT);
    hs_json_limits_t lim;
    hs_json_limits_default(&lim);
    lim.max_depth = 100;
    hs_json_doc_t *d = NULL;
    HS_CHECK_INT(hs_json_parse(deep, 200, &lim, &d, NULL), 0);
    hs_json_free(&d);
    lim.max_nodes = 3;
    HS_CHECK_INT(hs_json_parse("[1,2]", 5, &lim, &d, NULL), 0);
    hs_json_free(&d);
    HS_CHECK_INT(hs_json_parse("[1,2,3]", 7, &lim, &d, NULL), HS_ELIMIT);
    lim.max_bytes = 4;
    HS_CHECK_INT(hs_json_parse("[1,2]", 5, &lim, &d, NULL), HS_ELIMIT);
    HS_CHECK(d == NULL);
}

static void test_write(void)
{
    const char *text = "{ \"id\" : \"a\\u00e9\\\"\", \"n\":[1.50, -2, true, false, null, {}], \"o\":{\"k\":[]}}";
    hs_json_doc_t *d = s_parse_ok(text);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    hs_json_write(f, hs_json_root(d));
    fclose(f);
    HS_CHECK_STR(buf, "{\"id\":\"a\xc3\xa9\\\"\",\"n\":[1.50,-2,true,false,null,{}],\"o\":{\"k\":[]}}");
    /* and the written text reads back the same */
    hs_json_doc_t *d2 = s_parse_ok(buf);
    HS_CHECK_STR(hs_json_get(hs_json_root(d2), "id")->str, "a\xc3\xa9\"");
    hs_json_free(&d2);
    hs_json_free(&d);
    free(buf);
}

int main(void)
{
    test_query_shape();
    test_strings();
    test_numbers();
    test_errors();
    test_limits();
    test_write();
    return hs_test_finish();
}
