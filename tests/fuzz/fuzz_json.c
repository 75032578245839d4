/*
 * tests/fuzz/fuzz_json.c — libFuzzer target for the strict JSON reader
 * (core/json_read.h), which reads every line the analysis protocol gets.
 *
 * Properties checked: a parse either succeeds with a root or fails with a
 * message and no document; a parsed document written out reads back, and
 * writing that again gives the same bytes (the writer's output is a fixed
 * point), so what the protocol echoes back (query_version, terminate) is
 * always valid JSON. Then the same bytes go through the analysis protocol's
 * line handler (worker/analysis.h's reader side: the query and action
 * parser, no search) and its answer to a line too long to read (the id
 * scanner), whose every output line must itself parse as a JSON object. Seeds in tests/fuzz/corpus/json/ (queries among them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "worker/analysis_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* v written to a fresh buffer (abort on failure: a fuzz harness). */
static char *s_write(const hs_json_t *v, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    hs_json_write(f, v);
    fclose(f);
    return buf;
}

/* A dummy evaluator: the line handler only reads max_batch. */
static int s_no_eval(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out,
                     hs_error_t *err)
{
    (void)ctx, (void)pos, (void)n, (void)out;
    return hs_error_set(err, HS_EINVAL, "fuzz: no evaluation");
}

/* Every line the protocol writes for data is a JSON object. */
static void s_protocol(const uint8_t *data, size_t size)
{
    hs_mcts_evaluator_t ev = { .eval = s_no_eval, .max_batch = 4, .name = "none" };
    hs_analysis_config_t cfg;
    hs_analysis_config_default(&cfg);
    cfg.eval = &ev;
    char *buf = NULL;
    size_t len = 0;
    hs__aout_t o = { .f = open_memstream(&buf, &len) };
    if (!o.f)
        abort();
    pthread_mutex_init(&o.mu, NULL);
    hs__aitem_t *it = NULL;
    if (hs__analysis_line(&cfg, &o, (const char *)data, size, 0, &it) && it)
        abort();
    for (int i = 0; it && i < it->n_turns; i++) {
        hs_gtp_game_t g;   /* each turn's position must replay */
        if (hs__aturn_game(it->turns[i], &g, NULL))
            abort();
        hs_gtp_game_fini(&g);
    }
    hs__aitem_free(it);
    /* The same bytes as the kept head of a line too long to read: the id
     * found in it must come out as valid JSON too. */
    hs__analysis_too_long(&o, (const char *)data, size, "too long");
    fclose(o.f);
    pthread_mutex_destroy(&o.mu);
    for (char *line = buf, *end; line < buf + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(buf + len - line));
        if (!end)
            abort();   /* every line ends */
        hs_json_doc_t *d = NULL;
        if (hs_json_parse(line, (size_t)(end - line), NULL, &d, NULL)
            || hs_json_root(d)->type != HS_JSON_OBJECT)
            abort();
        hs_json_free(&d);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size <= (1 << 16))
        s_protocol(data, size);
    hs_json_limits_t lim;
    hs_json_limits_default(&lim);
    lim.max_bytes = 1 << 16;
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    int rc = hs_json_parse((const char *)data, size, &lim, &d, &err);
    if (rc) {
        if (d || !err.msg[0])
            abort();
        return 0;
    }
    if (!hs_json_root(d))
        abort();
    size_t n1 = 0, n2 = 0;
    char *t1 = s_write(hs_json_root(d), &n1);
    hs_json_doc_t *d2 = NULL;
    lim.max_bytes = n1 + 1;
    if (hs_json_parse(t1, n1, &lim, &d2, &err))
        abort();
    char *t2 = s_write(hs_json_root(d2), &n2);
    if (n1 != n2 || memcmp(t1, t2, n1))
        abort();
    free(t1);
    free(t2);
    hs_json_free(&d2);
    hs_json_free(&d);
    return 0;
}
