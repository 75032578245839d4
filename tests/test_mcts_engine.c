/*
 * tests/test_mcts_engine.c — the `mcts` engine (worker/engine_mcts.c) with
 * rollouts on a small 9x9 game, few visits (no ../shared needed):
 *   - specs: the list splitter (a spec's options have commas), canonical
 *     specs (defaults left out, options in the table's order), binding a bare
 *     or an option-only spec to loaded nets;
 *   - results filled (win rate, lead, ownership, result, visits, best move,
 *     PV, root moves), the same from a fresh instance on the same batch;
 *   - lanes reuse trees: a batch of consecutive moves evaluates fewer leaves
 *     than n * visits, and fewer than the same positions one call each;
 *   - over the tiny hand-made net (ref backend), with 8 and 40 visits;
 *   - a task through the worker's path: the search's fields in the RESULT;
 *   - the record: the search's fields round-trip through the wire (field 14)
 *     and the store (extension bit 0x04, a bit a reader from before refuses);
 *     unknown extension bits and malformed search bytes are refused.
 */
#include <lmdb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/replay.h"
#include "core/sgf.h"
#include "core/wire.h"
#include "store/store_internal.h"
#include "test.h"
#include "worker/engine.h"
#include "worker/net_specs.h"
#include "worker/nn/backend.h"
#include "worker/nn/model.h"
#include "worker/worker_internal.h"

static const char s_sgf[] =
    "(;GM[1]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gc];W[cg];B[gg];W[ce];B[dc];W[db]"
    ";B[eb];W[cb];B[fe];W[ge];B[hd];W[gf];B[hf];W[fg];B[fh];W[eg])";

#define S_N 16          /* positions 0..15 of the game */
#define S_VISITS 64

static int s_game_of(const char *text, size_t len, hs_game_t *g, hs_error_t *err)
{
    hs_sgf_collection_t *c = hs_sgf_parse(text, len, NULL, err);
    if (!c)
        return err->code ? err->code : HS_EPARSE;
    hs_game_init(g, 19);
    int rc = hs_game_from_sgf(hs_sgf_root(c, 0), g, err);
    hs_sgf_destroy(&c);
    return rc;
}

/* ------------------------------------------------------------ specs */

static void s_canon(const char *list, const char *want)
{
    char out[512];
    hs_error_t err = { 0 };
    int rc = hs_engine_canonical_list(list, 8, HS_ENGINE_THIS_BUILD, out, sizeof out, &err);
    HS_CHECK_INT(rc, 0);
    if (rc == 0)
        HS_CHECK_STR(out, want);
    else
        fprintf(stderr, "  %s: %s\n", list, err.msg);
}

static void test_specs(void)
{
    HS_CHECK_INT((int)hs_engine_list_entry("mcts:visits=9,net=ab,judge"), 20);
    HS_CHECK_INT((int)hs_engine_list_entry("judge,area"), 5);
    HS_CHECK_INT((int)hs_engine_list_entry("judge:reader=1,area"), 14);
    HS_CHECK_INT((int)hs_engine_list_entry("noop,delay_us=3"), 4);   /* no options: a name */
    /* revision 2: the search's KataGo terms with the net (worker/mcts.h) */
    s_canon("mcts", "mcts@7");
    s_canon("mcts:visits=200", "mcts@7");
    s_canon("mcts:playouts=1,visits=0100", "mcts@7:visits=100");
    s_canon("judge,mcts:playouts=2,visits=50,area", "judge,mcts@7:visits=50,playouts=2,area");
    s_canon("mcts:net=0123456789abcdef0123456789abcdef,visits=64",
            "mcts@7:visits=64,net=0123456789abcdef0123456789abcdef");
    s_canon("judge:reader=1", "judge:reader=1");   /* no defaults: kept as written */
    char out[512];
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_engine_canonical_list("mcts:visits=0", 8, 0, out, sizeof out, &err),
                 HS_EINVAL);
    HS_CHECK_INT(hs_engine_canonical_list("mcts:visits=100001", 8, 0, out, sizeof out, &err),
                 HS_EINVAL);
    HS_CHECK_INT(hs_engine_canonical_list("mcts:visits=200,mcts", 8, 0, out, sizeof out, &err),
                 HS_EINVAL);   /* one configuration twice */
    /* Bound to loaded nets like `net`; left alone (rollouts) without any. */
    const char *h[1] = { "00112233445566778899aabbccddeeff" };
    HS_CHECK_INT(hs_net_specs("mcts:visits=50,judge", h, 1, out, sizeof out, NULL, &err), 0);
    HS_CHECK_STR(out, "mcts:visits=50,net=00112233445566778899aabbccddeeff,judge");
    HS_CHECK_INT(hs_net_specs("mcts", h, 1, out, sizeof out, NULL, &err), 0);
    HS_CHECK_STR(out, "mcts:net=00112233445566778899aabbccddeeff");
    bool used = true;
    HS_CHECK_INT(hs_net_specs("mcts:visits=50", h, 0, out, sizeof out, &used, &err), 0);
    HS_CHECK_STR(out, "mcts:visits=50");
    HS_CHECK(!used);
    HS_CHECK_INT(hs_net_specs("mcts:net=nothash", h, 1, out, sizeof out, NULL, &err),
                 HS_EINVAL);
    /* net=FILE: a file that does not load is an error naming it; a value that
     * is no file passes, to be refused as not a hash. */
    hs_net_set_t set = { 0 };
    char junk[] = "/tmp/hs-test-mcts-junk-XXXXXX", list[128];
    int fd = mkstemp(junk);
    HS_CHECK(fd >= 0 && write(fd, "not a model", 11) == 11);
    if (fd >= 0)
        close(fd);
    snprintf(list, sizeof list, "mcts:visits=9,net=%s", junk);
    HS_CHECK(hs_net_specs_files(&set, list, out, sizeof out, &err) < 0);
    HS_CHECK(strstr(err.msg, junk) != NULL);
    unlink(junk);
    HS_CHECK_INT(hs_net_specs_files(&set, "mcts:net=0123", out, sizeof out, &err), 0);
    HS_CHECK_STR(out, "mcts:net=0123");
    HS_CHECK_INT(hs_net_specs(out, h, 1, list, sizeof list, NULL, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "net=<32 lowercase hex digits>") != NULL);
    HS_CHECK_INT(hs_net_specs_files(&set, "mcts:visits=9,judge", out, sizeof out, &err), 0);
    HS_CHECK_STR(out, "mcts:visits=9,judge");
    hs_net_set_free(&set);
}

/* ------------------------------------------------------------ the engine */

/* Positions 0..S_N-1 of g with the two boards before each. */
typedef struct s_batch {
    hs_board_t board[S_N], prev[S_N][2];
    hs_engine_pos_t pos[S_N];
} s_batch_t;

static int s_batch(const hs_game_t *g, s_batch_t *b, hs_error_t *err)
{
    hs_replay_t r;
    int rc = hs_replay_start(&r, g, err);
    for (int m = 0; rc == 0 && m < S_N; m++) {
        if (m > 0)
            rc = hs_replay_to(&r, m, err);
        hs_board_copy(&b->board[m], &r.board);
        b->pos[m] = (hs_engine_pos_t){ .game = g, .board = &b->board[m], .move_number = m };
        if (m >= 1)
            b->pos[m].prev1 = &b->board[m - 1];
        if (m >= 2)
            b->pos[m].prev2 = &b->board[m - 2];
    }
    hs_replay_fini(&r);
    return rc;
}

/* Evaluates pos[0..n) with a fresh instance of spec options opts; the leaves
 * its evaluator took. */
static long s_run(const char *opts, const hs_engine_pos_t *pos, int n, hs_engine_result_t *out)
{
    hs_engine_config_t cfg = { .threads = 1, .gpu = -1, .options = opts };
    hs_engine_t eng;
    hs_error_t err = { 0 };
    long calls = 0, leaves = 0;
    HS_CHECK_INT(hs_engine_init(&eng, "mcts", &cfg, &err), 0);
    if (!eng.vt)
        return 0;
    for (int i = 0; i < n; i++)
        out[i].flags = 0;
    HS_CHECK_INT(hs_engine_evaluate(&eng, pos, n, out, &err), 0);
    hs_engine_eval_counts(&eng, &calls, &leaves);
    HS_CHECK(calls > 0 && leaves >= calls);
    hs_engine_fini(&eng);
    return leaves;
}

static void s_check_result(const hs_engine_result_t *r, int visits)
{
    unsigned want = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_WINRATE | HS_ENGINE_HAS_OWNERSHIP |
                    HS_ENGINE_HAS_RESULT | HS_ENGINE_HAS_SEARCH;
    HS_CHECK((r->flags & want) == want);
    HS_CHECK(r->winrate >= 0 && r->winrate <= 1 && isfinite(r->score));
    HS_CHECK_INT(r->num_vertices, 81);
    int own_bad = 0;
    for (int v = 0; v < 81; v++)
        own_bad += r->ownership[v] < -100 || r->ownership[v] > 100;
    HS_CHECK_INT(own_bad, 0);
    HS_CHECK(r->result[0] == 'B' || r->result[0] == 'W' || r->result[0] == '0');
    HS_CHECK_INT(r->visits, visits);
    HS_CHECK(r->pv_len >= 1 && r->pv_len <= HS_ENGINE_PV_MAX);
    HS_CHECK(r->num_moves >= 1 && r->num_moves <= HS_ENGINE_SEARCH_MOVES);
    HS_CHECK_INT(r->pv[0], r->best);
    HS_CHECK_INT(r->moves[0].vertex, r->best);
    int sum = 0;
    for (int i = 0; i < r->num_moves; i++) {
        const hs_engine_search_move_t *m = &r->moves[i];
        HS_CHECK(m->vertex == HS_GAME_PASS || m->vertex < 81);
        HS_CHECK(i == 0 || m->visits <= r->moves[i - 1].visits);
        HS_CHECK(m->winrate >= 0 && m->winrate <= 1 && m->prior >= 0 && m->prior <= 1);
        sum += m->visits;
    }
    HS_CHECK(sum >= 1 && sum < r->visits);   /* the root's own visit is not a move's */
}

static bool s_same(const hs_engine_result_t *a, const hs_engine_result_t *b)
{
    return a->flags == b->flags && a->winrate == b->winrate && a->score == b->score &&
           !memcmp(a->ownership, b->ownership, 81) && a->visits == b->visits &&
           a->pv_len == b->pv_len && !memcmp(a->pv, b->pv, sizeof a->pv[0] * (size_t)a->pv_len)
           && a->num_moves == b->num_moves &&
           !memcmp(a->moves, b->moves, sizeof a->moves[0] * (size_t)a->num_moves);
}

static void test_engine(const hs_game_t *g)
{
    s_batch_t *b = calloc(1, sizeof *b);
    hs_engine_result_t *r1 = calloc(S_N, sizeof *r1), *r2 = calloc(S_N, sizeof *r2);
    hs_error_t err = { 0 };
    if (!b || !r1 || !r2 || s_batch(g, b, &err)) {
        HS_CHECK(!"setup");
        goto done;
    }
    char opts[32];
    snprintf(opts, sizeof opts, "visits=%d", S_VISITS);
    long reused = s_run(opts, b->pos, S_N, r1);
    for (int i = 0; i < S_N; i++)
        s_check_result(&r1[i], S_VISITS);
    /* The same batch on a fresh instance: the same results. */
    long again = s_run(opts, b->pos, S_N, r2);
    HS_CHECK_INT((int)again, (int)reused);
    int differ = 0;
    for (int i = 0; i < S_N; i++)
        differ += !s_same(&r1[i], &r2[i]);
    HS_CHECK_INT(differ, 0);
    /* Each position alone: no tree to inherit. */
    long alone = 0;
    for (int i = 0; i < S_N; i++)
        alone += s_run(opts, &b->pos[i], 1, &r2[i]);
    printf("leaves: %ld with lanes of consecutive moves, %ld one position a call, "
           "%d positions x %d visits = %d\n", reused, alone, S_N, S_VISITS, S_N * S_VISITS);
    HS_CHECK(reused < (long)S_N * S_VISITS);
    HS_CHECK(reused < alone);
done:
    free(b);
    free(r1);
    free(r2);
}

/* Over a net (the tiny hand-made model, ref backend): a search of fewer than
 * 16 visits (one leaf in flight) and one of 40 (several), results filled. */
static void test_net(const hs_game_t *g)
{
    const char *data = getenv("HS_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/../fuzz/corpus/nnmodel/tiny-v8.bin",
             data ? data : "tests/data");
    hs_error_t err = { 0 };
    hs_nn_model_t *m = NULL;
    s_batch_t *b = calloc(1, sizeof *b);
    hs_engine_result_t *r = calloc(S_N, sizeof *r);
    HS_CHECK_INT(hs_nn_model_load(path, &m, &err), 0);
    if (!m || !b || !r || s_batch(g, b, &err))
        goto done;
    const hs_nn_model_t *nets[1] = { m };
    static const int visits[2] = { 8, 40 };
    for (int k = 0; k < 2; k++) {
        char opts[96];
        snprintf(opts, sizeof opts, "visits=%d,net=%s", visits[k], m->hash);
        hs_engine_config_t cfg = { .gpu = -1, .options = opts, .nets = nets, .n_nets = 1,
                                   .net_backend = HS_NN_BACKEND_REF, .net_batch = 8 };
        hs_engine_t eng;
        HS_CHECK_INT(hs_engine_init(&eng, "mcts", &cfg, &err), 0);
        if (!eng.vt)
            continue;
        for (int i = 0; i < 6; i++)
            r[i].flags = 0;
        HS_CHECK_INT(hs_engine_evaluate(&eng, b->pos, 6, r, &err), 0);
        for (int i = 0; i < 6; i++)
            s_check_result(&r[i], visits[k]);
        hs_engine_fini(&eng);
    }
done:
    hs_nn_model_free(&m);
    free(b);
    free(r);
}

/* A task through the worker's path: replay, history, batching, the RESULT. */
static void test_worker_path(hs_game_t *g)
{
    char spec[] = "mcts:visits=16";
    char *engines[1] = { spec };
    int moves[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13 };
    hs_wire_task_t t = { .task_id = 1, .job_id = 1, .move_numbers = moves,
                         .num_move_numbers = 12, .engines = engines, .num_engines = 1 };
    t.game.game = *g;
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    if (!x)
        return;
    x->batch_max = 256;
    x->base = (hs_engine_config_t){ .gpu = -1 };
    const hs_wire_task_t *tp = &t;
    hs_wire_buf_t out = { 0 };
    uint64_t positions = 0;
    int failed = -1;
    HS_CHECK_INT(hs__worker_eval_tasks(x, &tp, 1, &out, &positions, &failed), 0);
    HS_CHECK_INT(failed, 0);
    HS_CHECK(x->eval_calls > 0 && x->eval_leaves > x->eval_calls);
    hs_wire_msg_t d;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_wire_decode(out.data, out.len, &d, &err), 0);
    HS_CHECK_INT(d.result.num_evals, 12);
    for (int i = 0; i < d.result.num_evals; i++) {
        const hs_eval_t *e = &d.result.evals[i];
        HS_CHECK_INT(e->move_number, moves[i]);
        HS_CHECK_INT((int)e->visits, 16);
        HS_CHECK(e->pv_len >= 1 && e->num_moves >= 1 && e->pv[0] == e->moves[0].vertex);
        HS_CHECK(e->ownership != NULL && !isnan(e->win_rate) && e->result != NULL);
    }
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&out);
    hs__eval_ctx_fini(x);
    free(x);
}

/* ------------------------------------------------------------ the record */

static void s_search_eval(hs_eval_t *e, int8_t *own)
{
    memset(e, 0, sizeof *e);
    e->move_number = 3;
    e->pos_key[0] = 0x42;
    e->engine_id = hs_engine_config_id("mcts");
    e->size = 9;
    e->score_lead = -2.5f;
    e->win_rate = 0.25f;
    for (int v = 0; v < 81; v++)
        own[v] = (int8_t)((v * 7) % 201 - 100);
    e->ownership = own;
    e->timing_us = 5;
    e->score_stdev = 11.5f;
    e->visits = 300;
    e->pv_len = 10;
    for (int i = 0; i < 10; i++)
        e->pv[i] = i == 9 ? HS_GAME_PASS : (uint16_t)(i * 8);
    e->num_moves = 8;
    for (int i = 0; i < 8; i++)
        e->moves[i] = (hs_eval_search_move_t){
            .vertex = i == 7 ? HS_GAME_PASS : (uint16_t)(80 - i), .visits = 200u >> i,
            .win_rate = (uint16_t)(65535 - 999 * i), .lead = (int16_t)(-32767 + 1111 * i),
            .prior = (uint16_t)(3000 * i),
        };
    e->pv[0] = e->moves[0].vertex;
}

static bool s_same_search(const hs_eval_t *a, const hs_eval_t *b)
{
    return a->visits == b->visits && a->pv_len == b->pv_len &&
           !memcmp(a->pv, b->pv, sizeof a->pv[0] * (size_t)a->pv_len) &&
           a->num_moves == b->num_moves &&
           !memcmp(a->moves, b->moves, sizeof a->moves[0] * (size_t)a->num_moves);
}

static int s_decode(uint8_t *rec, size_t len, hs_eval_t *e)
{
    static hs__store_eval_scratch_t sc;
    uint8_t k[8] = { 0 };
    MDB_val key = { 8, k }, val = { len, rec };
    hs_error_t err = { 0 };
    return hs__store_eval_decode(&key, &val, e, &sc, NULL, &err);
}

static void test_record(void)
{
    int8_t own[81];
    hs_eval_t e, got;
    s_search_eval(&e, own);
    uint8_t rec[HS_STORE_EVAL_MAX];
    size_t len = 0;
    hs_error_t err = { 0 };
    /* The store: flag 0x80 and an extension byte with the search's bit 0x04,
     * which a reader from before (bits 0x01 | 0x02 only) refuses as corrupt. */
    HS_CHECK_INT(hs__store_eval_encode(&e, HS_STORE_MAP_DEFAULT, rec, &len, &err), 0);
    const size_t ext = 25;   /* 23 fixed bytes, move 3 and time 5 one byte each */
    HS_CHECK((rec[1] & 0x80) && rec[ext] == (0x01 | 0x04));
    HS_CHECK((rec[ext] & ~0x03) != 0);
    printf("search eval record (9x9, 10-move PV, 8 moves): %zu bytes\n", len);
    HS_CHECK_INT(s_decode(rec, len, &got), 0);
    HS_CHECK(s_same_search(&e, &got) && got.score_stdev == 11.5f && got.win_rate == 0.25f);
    /* An unknown extension bit (a later writer's) is refused, not skipped. */
    rec[ext] |= 0x08;
    HS_CHECK_INT(hs__store_rec_seal(rec, len - 4) > 0, 1);
    HS_CHECK_INT(s_decode(rec, len, &got), HS_ECORRUPT);
    /* Malformed search bytes: a PV of 11 moves. */
    HS_CHECK_INT(hs__store_eval_encode(&e, HS_STORE_MAP_DEFAULT, rec, &len, &err), 0);
    size_t pv_at = ext + 1 + 4 + 2;   /* ext byte, spread, varint 300 (2 bytes) */
    HS_CHECK_INT(rec[pv_at], 10);
    rec[pv_at] = 11;
    hs__store_rec_seal(rec, len - 4);
    HS_CHECK_INT(s_decode(rec, len, &got), HS_ECORRUPT);
    /* Without search fields nor net fields: no extension, as before. */
    hs_eval_t plain = e;
    plain.visits = 0;
    plain.score_stdev = 0;
    HS_CHECK_INT(hs__store_eval_encode(&plain, HS_STORE_MAP_DEFAULT, rec, &len, &err), 0);
    HS_CHECK(!(rec[1] & 0x80));
    /* Out of range: refused by the encoder. */
    hs_eval_t bad = e;
    bad.pv[3] = 81;
    HS_CHECK_INT(hs__store_eval_encode(&bad, HS_STORE_MAP_DEFAULT, rec, &len, &err), HS_EINVAL);

    /* The wire: field 14, 15 fields, read back exactly; nothing else changes. */
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode_eval(&e, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x9f);   /* fixarray of 15 */
    buf.len = 0;
    HS_CHECK_INT(hs_wire_encode_eval(&plain, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x9c);   /* 12, as before */
    hs_wire_msg_t m, d;
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    m.result.task_id = 9;
    m.result.evals = &e;
    m.result.num_evals = 1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.result.num_evals == 1 && s_same_search(&e, &d.result.evals[0]));
    hs_wire_msg_fini(&d);
    m.result.evals = &bad;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    /* A decoder meets a PV move off the board: patch vertex 8 (pv[1]) to 81. */
    m.result.evals = &e;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    size_t at = 0;
    for (size_t i = 0; i + 4 <= buf.len && !at; i++)
        if (!memcmp(buf.data + i, "\x50\x00\x08\x00", 4))   /* pv[0] = 80, pv[1] = 8 */
            at = i + 2;
    HS_CHECK(at > 0);
    buf.data[at] = 81;
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    HS_CHECK(strstr(err.msg, "search") != NULL);
    hs_wire_buf_free(&buf);
}

int main(void)
{
    hs_error_t err = { 0 };
    hs_game_t g;
    HS_CHECK_INT(s_game_of(s_sgf, sizeof s_sgf - 1, &g, &err), 0);
    test_specs();
    test_record();
    if (g.num_moves >= S_N) {
        test_engine(&g);
        test_net(&g);
        test_worker_path(&g);
    }
    hs_game_fini(&g);
    return hs_test_finish();
}
