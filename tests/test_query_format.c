/*
 * tests/test_query_format.c — what `hyeongse query` writes, field by field
 * (docs/QUERY.md, "Rows"), on a store built here with known floats:
 *   - JSON and CSV give every stored float exactly (it reads back as the same
 *     float32): a lead of 1.004 is 1.004, not 1.00; never -0, nan or inf;
 *   - a JSON row has every field of its row type, null where the eval has no
 *     value (error, score_stdev, policy, visits, best, pv, moves);
 *   - a CSV row has as many columns as its header (position rows too);
 *   - game rows carry the record's komi, RE as written and komi_fits (false
 *     for W+5.5 under komi 0);
 *   - --position --json lines say their kind;
 *   - an --engine the store does not hold is HS_ENOTFOUND quoting the spec and
 *     listing the stored ones; a bare name stands for the one spec "NAME:...";
 *   - stats honours --format csv; --ownership is JSON only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "core/poskey.h"
#include "store/query.h"
#include "store/store.h"
#include "test.h"

#define S_NET "net:net=0123456789abcdef0123456789abcdef"

static char s_dir[64];
static hs_game_move_t s_moves[4];
static uint64_t s_gid[2] = { 0x51, 0x7777 };
/* The leads of moves 0..3 (judge): the swing of move 1 is 1.004 (a loss the
 * report counts as over 1 and a 2-decimal export showed as 1.00); move 3 is -0. */
static const float s_lead[4] = { 0.0f, 1.004f, 1.0f / 3.0f, -0.0f };
static const float s_wr[4] = { NAN, 0.123456789f, 1.0f, 0.5f };

static void s_key(uint8_t key[16], int move, int engine)
{
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)(0x40 + move * 3 + engine + i);
}

static void s_put(hs_store_t *s, const hs_eval_t *e, const char *spec, hs_error_t *err)
{
    HS_CHECK_INT(hs_store_result_put(s, s_gid, e, spec, NULL, err), 0);
}

/* One game (komi 0, RE W+5.5: a Fox record), judge evals of moves 0..3 and
 * one net eval (spread, policy, a search's fields) at move 2. */
static hs_store_t *s_build(hs_error_t *err)
{
    snprintf(s_dir, sizeof s_dir, "/tmp/hs-test-qfmt-XXXXXX");
    if (!mkdtemp(s_dir))
        return NULL;
    hs_store_t *s = NULL;
    HS_CHECK_INT(hs_store_open(&s, s_dir, 0, 1u << 24, err), 0);
    if (!s)
        return NULL;
    hs_game_t g;
    memset(&g, 0, sizeof g);
    g.size = 9;
    g.komi = 0.0;
    g.rules = hs_rules_get(HS_RULES_CHINESE);
    for (int i = 0; i < 4; i++)
        s_moves[i] = (hs_game_move_t){ (uint16_t)(10 + i * 9),
                                       (uint8_t)(i % 2 ? HS_WHITE : HS_BLACK) };
    g.moves = s_moves;
    g.num_moves = 4;
    g.black = "Kim";
    g.result_raw = "W+5.5";
    g.id[0] = s_gid[0];
    g.id[1] = s_gid[1];
    HS_CHECK_INT(hs_store_begin(s, err), 0);
    HS_CHECK_INT(hs_store_game_put(s, &g, "fox.sgf", 1, NULL, err), 0);
    for (int m = 0; m < 4; m++) {
        hs_eval_t e;
        memset(&e, 0, sizeof e);
        e.move_number = m;
        e.size = 9;
        s_key(e.pos_key, m, 0);
        e.engine_id = hs_engine_config_id("judge");
        e.score_lead = s_lead[m];
        e.win_rate = s_wr[m];
        e.timing_us = 7;
        e.result = m == 2 ? "B+0.5" : NULL;
        s_put(s, &e, "judge", err);
    }
    hs_eval_t n;
    memset(&n, 0, sizeof n);
    n.move_number = 2;
    n.size = 9;
    s_key(n.pos_key, 2, 0);
    n.engine_id = hs_engine_config_id(S_NET);
    n.score_lead = -2.7182817f;
    n.win_rate = 0.41421354f;
    n.score_stdev = 3.1415927f;
    n.num_policy = 2;
    n.policy[0] = (hs_eval_move_t){ .vertex = 40, .prob = 5845 };
    n.policy[1] = (hs_eval_move_t){ .vertex = HS_GAME_PASS, .prob = 3 };
    n.visits = 12;
    n.pv_len = 2;
    n.pv[0] = 40;
    n.pv[1] = 30;
    n.num_moves = 1;
    n.moves[0] = (hs_eval_search_move_t){ .vertex = 40, .visits = 11, .win_rate = 27000,
                                          .lead = -27, .prior = 5845 };
    s_put(s, &n, S_NET, err);
    HS_CHECK_INT(hs_store_commit(s, err), 0);
    return s;
}

/* Runs `query ARGS...` (the CLI's and the broker's runner) into a string. */
static int s_run(hs_store_t *s, const char *const *args, int n, char **text, char **note,
                 hs_error_t *err)
{
    hs_query_args_t a;
    int rc = hs_query_args_parse(n, (char *const *)args, &a, err);
    if (rc)
        return rc;
    size_t len = 0, nlen = 0;
    FILE *out = open_memstream(text, &len), *nf = open_memstream(note, &nlen);
    rc = hs_query_args_run(s, &a, out, nf, NULL, err);
    fclose(out);
    fclose(nf);
    return rc;
}

/* The number text of member key of v: it must read back as the float want. */
static void s_check_float(const hs_json_t *v, const char *key, float want)
{
    const hs_json_t *m = hs_json_get(v, key);
    if (isnan(want)) {
        HS_CHECK(m && m->type == HS_JSON_NULL);
        return;
    }
    HS_CHECK(m && m->type == HS_JSON_NUMBER);
    if (!m || m->type != HS_JSON_NUMBER)
        return;
    bool negzero = m->str[0] == '-' && strtof(m->str, NULL) == 0;
    if (strtof(m->str, NULL) != want || strchr(m->str, 'e') || negzero || !strchr(m->str, '.'))
        fprintf(stderr, "  %s: %s does not read back as %.9g\n", key, m->str, (double)want);
    HS_CHECK(strtof(m->str, NULL) == want);
    HS_CHECK(!negzero);
    HS_CHECK(strchr(m->str, 'e') == NULL);
}

/* Whether member key of v is there and null. */
static bool s_null(const hs_json_t *v, const char *key)
{
    const hs_json_t *m = hs_json_get(v, key);
    return m && m->type == HS_JSON_NULL;
}

static const char *const s_eval_keys[] = {
    "game", "move", "engine", "score_lead", "win_rate", "swing", "result", "black", "white",
    "source", "komi", "re", "komi_fits", "error", "timing_us", "score_stdev", "policy",
    "visits", "best", "pv", "moves",
};

/* Every eval row's JSON: all fields, the floats exact, the game's komi and RE. */
static void test_json_rows(hs_store_t *s)
{
    hs_error_t err = { 0 };
    char *text = NULL, *note = NULL;
    const char *args[] = { "--json" };
    HS_CHECK_INT(s_run(s, args, 1, &text, &note, &err), 0);
    HS_CHECK(text && strstr(text, "nan") == NULL && strstr(text, "inf") == NULL);
    HS_CHECK(text && strstr(text, ":-0.00,") == NULL && strstr(text, ":-0,") == NULL);
    int rows = 0, judge = 0;
    for (char *line = text, *end; line && *line; line = end + 1) {
        end = strchr(line, '\n');
        if (!end)
            break;
        hs_json_doc_t *doc = NULL;
        HS_CHECK_INT(hs_json_parse(line, (size_t)(end - line), NULL, &doc, &err), 0);
        const hs_json_t *v = hs_json_root(doc);
        rows++;
        for (size_t k = 0; k < sizeof s_eval_keys / sizeof *s_eval_keys; k++) {
            if (!hs_json_get(v, s_eval_keys[k]))
                fprintf(stderr, "  row %d has no \"%s\"\n", rows, s_eval_keys[k]);
            HS_CHECK(hs_json_get(v, s_eval_keys[k]) != NULL);
        }
        HS_CHECK(hs_json_get(v, "ownership") == NULL);   /* only with --ownership */
        const char *eng = NULL, *re = NULL;
        int64_t move = -1;
        double komi = -1;
        bool fits = true;
        hs_json_str(hs_json_get(v, "engine"), &eng);
        hs_json_int(hs_json_get(v, "move"), 0, 100, &move);
        HS_CHECK(hs_json_double(hs_json_get(v, "komi"), -1, 1, &komi) && komi == 0.0);
        HS_CHECK(hs_json_str(hs_json_get(v, "re"), &re) && !strcmp(re, "W+5.5"));
        HS_CHECK(hs_json_bool(hs_json_get(v, "komi_fits"), &fits) && !fits);
        HS_CHECK(s_null(v, "white"));   /* no PW */
        if (eng && !strcmp(eng, "judge") && move >= 0 && move < 4) {
            judge++;
            s_check_float(v, "score_lead", s_lead[move]);
            s_check_float(v, "win_rate", s_wr[move]);
            s_check_float(v, "swing", move ? s_lead[move] - s_lead[move - 1] : NAN);
            HS_CHECK(s_null(v, "score_stdev"));
            HS_CHECK(s_null(v, "policy"));
            HS_CHECK(s_null(v, "visits"));
            HS_CHECK(s_null(v, "error"));
        } else if (eng && !strcmp(eng, S_NET)) {
            s_check_float(v, "score_lead", -2.7182817f);
            s_check_float(v, "score_stdev", 3.1415927f);
            const hs_json_t *p = hs_json_at(hs_json_get(v, "policy"), 0);
            const char *mv = NULL;
            HS_CHECK(hs_json_str(hs_json_get(p, "move"), &mv) && !strcmp(mv, "E5"));
            /* 5845/65535 = 0.089189..: 4 decimals (0.0892) read back as 5846 */
            double prob = 0;
            HS_CHECK(hs_json_double(hs_json_get(p, "prob"), 0, 1, &prob) &&
                     lround(prob * 65535) == 5845);
        }
        hs_json_free(&doc);
    }
    HS_CHECK_INT(rows, 5);
    HS_CHECK_INT(judge, 4);
    HS_CHECK(text && strstr(text, "\"score_lead\":1.004,") != NULL);
    free(text);
    free(note);
}

/* Fields of one CSV line (no quoted commas in this test's data). */
static int s_csv_fields(const char *line)
{
    int n = 1;
    for (; *line && *line != '\n'; line++)
        n += *line == ',';
    return n;
}

static void test_csv_rows(hs_store_t *s)
{
    hs_error_t err = { 0 };
    char *text = NULL, *note = NULL;
    const char *args[] = { "--format", "csv", "--engine", "judge" };
    HS_CHECK_INT(s_run(s, args, 4, &text, &note, &err), 0);
    const char *header = "game,move,engine,score_lead,win_rate,swing,result,black,white,source,"
                         "komi,re,komi_fits,error,score_stdev,policy,visits,best,pv,moves\n";
    HS_CHECK(text && !strncmp(text, header, strlen(header)));
    int cols = s_csv_fields(header), bad = 0, lines = 0;
    for (char *l = text ? strchr(text, '\n') : NULL; l && l[1]; l = strchr(l + 1, '\n')) {
        lines++;
        bad += s_csv_fields(l + 1) != cols;
    }
    HS_CHECK_INT(lines, 4);
    HS_CHECK_INT(bad, 0);
    /* move 1: lead 1.004, win rate 0.123456789 as a float32, swing 1.004, komi 0, RE, fits */
    HS_CHECK(text && strstr(text, ",1,judge,1.004,0.12345679,1.004,,Kim,,fox.sgf,0.0,W+5.5,false,")
             != NULL);
    /* move 3's lead is -0: written 0.00 (a "-0.00" lead reads as White's) */
    HS_CHECK(text && strstr(text, ",3,judge,0.00,0.50,-0.33333334,") != NULL);
    free(text);
    free(note);
}

/* --position: each JSON line says its kind; CSV rows have the header's columns. */
static void test_position(hs_store_t *s)
{
    hs_error_t err = { 0 };
    uint8_t key[16];
    s_key(key, 2, 0);
    hs_query_t q;
    hs_query_init(&q);
    q.format = HS_QUERY_JSONL;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int64_t evals = 0, reached = 0;
    HS_CHECK_INT(hs_query_position(s, key, &q, true, out, &evals, &reached, &err), 0);
    fclose(out);
    HS_CHECK_INT(evals, 2);
    HS_CHECK_INT(reached, 1);
    HS_CHECK(text && strstr(text, "{\"kind\":\"eval\",\"position\":") == text);
    HS_CHECK(text && strstr(text, "{\"kind\":\"game\",\"position\":") != NULL);
    HS_CHECK(text && strstr(text, ",\"komi\":0.0,\"re\":\"W+5.5\",\"komi_fits\":false}") != NULL);
    HS_CHECK(text && strstr(text, "\"score_lead\":0.33333334,") != NULL);
    free(text);
    text = NULL;
    q.format = HS_QUERY_CSV;
    out = open_memstream(&text, &len);
    HS_CHECK_INT(hs_query_position(s, key, &q, true, out, &evals, &reached, &err), 0);
    fclose(out);
    int cols = text ? s_csv_fields(text) : 0, bad = 0, lines = 0;
    for (char *l = text ? strchr(text, '\n') : NULL; l && l[1]; l = strchr(l + 1, '\n')) {
        lines++;
        bad += s_csv_fields(l + 1) != cols;
    }
    HS_CHECK_INT(lines, 3);
    HS_CHECK_INT(bad, 0);
    HS_CHECK(text && strstr(text, ",fox.sgf,Kim,,0.0,W+5.5,false,") != NULL);
    free(text);
}

/* --engine: a spec the store does not hold is "not found", named as typed. */
static void test_engines(hs_store_t *s)
{
    hs_error_t err = { 0 };
    char *text = NULL, *note = NULL;
    const char *typo[] = { "--engine", "jugde", "--json" };
    HS_CHECK_INT(s_run(s, typo, 3, &text, &note, &err), HS_ENOTFOUND);
    HS_CHECK(strstr(err.msg, "jugde") != NULL);
    HS_CHECK(strstr(err.msg, "its engines: ") && strstr(err.msg, "judge") &&
             strstr(err.msg, S_NET));
    HS_CHECK(text && *text == '\0');
    free(text);
    free(note);
    text = note = NULL;
    const char *rev[] = { "--engine", "judge@2" };
    HS_CHECK_INT(s_run(s, rev, 2, &text, &note, &err), HS_ENOTFOUND);
    HS_CHECK(strstr(err.msg, "judge@2") != NULL);
    free(text);
    free(note);
    text = note = NULL;
    /* --position runs through hs_query_args_engine too. */
    hs_query_args_t a;
    const char *pos[] = { "--position", "x.sgf", "--move", "1", "--engine", "jugde" };
    HS_CHECK_INT(hs_query_args_parse(6, (char *const *)pos, &a, &err), 0);
    uint32_t id = 0;
    HS_CHECK_INT(hs_query_args_engine(s, &a, NULL, &id, &err), HS_ENOTFOUND);
    /* A bare name: the store's one spec of that name, said on the notes in
     * every format (it is not what was typed). */
    const char *bare[] = { "--engine", "net", "--json" };
    HS_CHECK_INT(s_run(s, bare, 3, &text, &note, &err), 0);
    HS_CHECK(text && strstr(text, "\"engine\":\"" S_NET "\"") != NULL);
    HS_CHECK(note && strstr(note, "--engine net: reading " S_NET) != NULL);
    free(text);
    free(note);
}

static void test_stats_and_ownership(hs_store_t *s)
{
    hs_error_t err = { 0 };
    char *text = NULL, *note = NULL;
    const char *csv[] = { "stats", "--format", "csv" };
    HS_CHECK_INT(s_run(s, csv, 3, &text, &note, &err), 0);
    HS_CHECK(text && !strncmp(text, "games,failed_games,positions,evals,", 35));
    HS_CHECK(text && strstr(text, ",boards_complete,engines\n1,0,") != NULL);
    HS_CHECK(text && (strstr(text, ",judge;" S_NET "\n") || strstr(text, "," S_NET ";judge\n")));
    free(text);
    free(note);
    text = note = NULL;
    const char *jsonl[] = { "stats", "--format", "jsonl" };
    HS_CHECK_INT(s_run(s, jsonl, 3, &text, &note, &err), 0);
    HS_CHECK(text && !strncmp(text, "{\"games\":1,", 11));
    free(text);
    free(note);
    hs_query_args_t a;
    const char *own_csv[] = { "--ownership", "--format", "csv" };
    HS_CHECK_INT(hs_query_args_parse(3, (char *const *)own_csv, &a, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "JSON") != NULL);
    const char *own_table[] = { "--ownership" };
    HS_CHECK_INT(hs_query_args_parse(1, (char *const *)own_table, &a, &err), HS_EINVAL);
    const char *own_json[] = { "--ownership", "--json" };
    HS_CHECK_INT(hs_query_args_parse(2, (char *const *)own_json, &a, &err), 0);
}

/* The number text itself: shortest, plain, two decimals at least, no -0. */
static void test_number_text(void)
{
    char buf[HS_QUERY_NUMBER_MAX];
    HS_CHECK_STR(hs_query_number(1.004f, true, 2, buf), "1.004");
    HS_CHECK_STR(hs_query_number(12.0f, true, 2, buf), "12.00");
    HS_CHECK_STR(hs_query_number(-0.0f, true, 2, buf), "0.00");
    HS_CHECK_STR(hs_query_number(1e-7f, true, 2, buf), "0.0000001");
    HS_CHECK_STR(hs_query_number(6.5, false, 1, buf), "6.5");
    HS_CHECK(hs_query_number(NAN, true, 2, buf) == NULL);
    HS_CHECK(hs_query_number(INFINITY, true, 2, buf) == NULL);
    int bad = 0;
    for (uint32_t i = 0; i < 200000; i++) {
        uint32_t bits = i * 2654435761u;
        float f;
        memcpy(&f, &bits, sizeof f);
        if (!isfinite(f))
            continue;
        const char *t = hs_query_number(f, true, 2, buf);
        bad += !t || strtof(t, NULL) != f || strchr(t, 'e') != NULL;
    }
    HS_CHECK_INT(bad, 0);
}

int main(void)
{
    hs_error_t err = { 0 };
    test_number_text();
    hs_store_t *s = s_build(&err);
    HS_CHECK(s != NULL);
    if (s) {
        test_json_rows(s);
        test_csv_rows(s);
        test_position(s);
        test_engines(s);
        test_stats_and_ownership(s);
        hs_store_close(&s);
    }
    hs_test_rm_store(s_dir);
    return hs_test_finish();
}
