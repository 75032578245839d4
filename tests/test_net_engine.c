/*
 * tests/test_net_engine.c — the `net` engine (worker/engine_net.c) on the tiny
 * hand-made model (tests/fuzz/corpus/nnmodel/tiny-v8.bin: no ../shared needed):
 *   - a task through the worker's own path (hs__worker_eval_tasks: replay, the
 *     history boards, batching, the RESULT's evals) gives, for every position,
 *     exactly what hs_nn_evaluate gives on a position built here independently
 *     (replay, history, komi as the golden test builds them), turned to Black's
 *     view: win rate, lead, spread, ownership, the top 8 moves;
 *   - the spec checks: net=<32 lowercase hex>, hs_engine_bind_nets, and the
 *     errors of a spec naming a net this process does not hold.
 * With arguments "direct MODEL SGF MOVE" it prints the win rate and lead that
 * hs_nn_evaluate gives for that position (ref backend, symmetry 0) in the
 * format of `query --json`, for tests/test_net_engine.sh to compare with what
 * `analyze` stored.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/replay.h"
#include "core/sgf.h"
#include "core/wire.h"
#include "store/query.h"
#include "test.h"
#include "worker/engine.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"
#include "worker/worker_internal.h"

/* Black's C7 is a ladder-capturable string after moves 6-8 (the net's plane
 * 14); move 9 (F4) breaks the ladder. So at moves 9 and 10 the ladder-history
 * planes (15, 16: the same test on the two previous boards) differ from the
 * current one: a worker that lost the previous boards would show here. Move
 * 10 is a pass. */
static const char s_sgf[] =
    "(;GM[1]SZ[9]KM[7]RU[Chinese];B[cc];W[bc];B[ha];W[cb];B[ia];W[bd];B[ga];W[dc];B[ff]"
    ";W[];B[gg])";

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

/* The net's position after `played` moves of g, built independently of the
 * engine: a replay of its own, the boards before the last two moves, the last
 * five moves, the stones each side has put down. prev holds 2 boards. */
static int s_position(const hs_game_t *g, int played, hs_replay_t *r, hs_board_t *prev,
                      hs_nn_pos_t *pos, hs_error_t *err)
{
    int rc = hs_replay_start(r, g, err);
    for (int k = 1; !rc && k <= played; k++) {
        if (k >= played - 1)
            hs_board_copy(&prev[played - k], &r->board);
        rc = hs_replay_to(r, k, err);
    }
    if (rc)
        return rc;
    memset(pos, 0, sizeof *pos);
    pos->board = &r->board;
    pos->to_move = r->board.to_move;
    pos->rules = g->rules.id;
    pos->komi = g->komi;
    pos->handicap = g->handicap;
    for (int k = 0; k < g->num_setup; k++)
        *(g->setup[k].color == HS_BLACK ? &pos->stones_black : &pos->stones_white) += 1;
    for (int k = 0; k < played; k++)
        if (g->moves[k].vertex != HS_GAME_PASS)
            *(g->moves[k].color == HS_BLACK ? &pos->stones_black : &pos->stones_white) += 1;
    for (int k = played < HS_NN_HISTORY ? 0 : played - HS_NN_HISTORY; k < played; k++) {
        const hs_game_move_t *mv = &g->moves[k];
        pos->hist_color[pos->n_hist] = (hs_color_t)mv->color;
        pos->hist_move[pos->n_hist++] = mv->vertex == HS_GAME_PASS
                                            ? HS_PASS : hs_game_board_point(&r->board, mv->vertex);
    }
    pos->prev1 = played >= 1 ? &prev[0] : NULL;
    pos->prev2 = played >= 2 ? &prev[1] : NULL;
    return 0;
}

/* hs_nn_evaluate of g after `played` moves, ref backend, symmetry 0. */
static int s_direct(const hs_nn_model_t *m, const hs_game_t *g, int played, hs_nn_output_t *o,
                    hs_error_t *err)
{
    static hs_replay_t r;
    static hs_board_t prev[2];
    hs_nn_pos_t pos;
    hs_nn_evaluator_t *ev = NULL;
    hs_nn_backend_config_t bc = { .kind = HS_NN_BACKEND_REF, .max_batch = 1 };
    int rc = s_position(g, played, &r, prev, &pos, err);
    if (!rc)
        rc = hs_nn_evaluator_create(m, &bc, &ev, err);
    if (!rc)
        rc = hs_nn_evaluate(ev, &pos, 1, 0, o, err);
    hs_nn_evaluator_free(&ev);
    hs_replay_fini(&r);
    return rc;
}

/* The eval the engine stored against the direct output, from Black's view. */
static void s_compare(const hs_eval_t *e, const hs_nn_output_t *o)
{
    int nn = o->n * o->n;
    HS_CHECK(fabsf(e->win_rate - 0.5f * (1.0f + o->white_loss - o->white_win)) < 1e-6f);
    HS_CHECK(fabsf(e->score_lead + o->white_lead) < 1e-5f);
    double var = (double)o->white_score_selfplay_sq -
                 (double)o->white_score_selfplay * o->white_score_selfplay;
    HS_CHECK(fabs(e->score_stdev - sqrt(var > 0 ? var : 0)) < 1e-4);
    int bad = 0;
    for (int v = 0; e->ownership && v < nn; v++)
        bad += e->ownership[v] != (int8_t)lroundf(-100.0f * o->ownership[v]);
    HS_CHECK(e->ownership != NULL);
    HS_CHECK_INT(bad, 0);
    /* The top moves: the most probable first, each as likely as the direct
     * policy says (16-bit fixed point), none more likely left out. */
    HS_CHECK_INT(e->num_policy, 8);
    float least = 2.0f;
    for (int k = 0; k < e->num_policy; k++) {
        int v = e->policy[k].vertex == HS_GAME_PASS ? nn : e->policy[k].vertex;
        HS_CHECK(fabsf(e->policy[k].prob / 65535.0f - o->policy[v]) <= 1.0f / 65535);
        HS_CHECK(k == 0 || e->policy[k].prob <= e->policy[k - 1].prob);
        least = o->policy[v] < least ? o->policy[v] : least;
    }
    int above = 0;
    for (int v = 0; v <= nn; v++)
        above += o->policy[v] > least;
    HS_CHECK(above <= 7);
}

/* A task of g through the worker's path: its RESULT's evals vs s_direct. */
static void test_worker_path(const hs_nn_model_t *m, hs_game_t *g)
{
    char spec[64];
    snprintf(spec, sizeof spec, "net:net=%s", m->hash);
    char *engines[1] = { spec };
    int moves[] = { 0, 1, 2, 5, 8, 9, 10, 11 };   /* consecutive and apart */
    hs_wire_task_t t = { .task_id = 1, .job_id = 1, .move_numbers = moves,
                         .num_move_numbers = 8, .engines = engines, .num_engines = 1 };
    t.game.game = *g;
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    if (!x)
        return;
    const hs_nn_model_t *nets[1] = { m };
    x->batch_max = 3;   /* several engine calls, one across the task's positions */
    x->base = (hs_engine_config_t){ .gpu = -1, .nets = nets, .n_nets = 1,
                                    .net_backend = HS_NN_BACKEND_REF, .net_batch = 2 };
    const hs_wire_task_t *tp = &t;
    hs_wire_buf_t out = { 0 };
    uint64_t positions = 0;
    int failed = -1;
    HS_CHECK_INT(hs__worker_eval_tasks(x, &tp, 1, &out, &positions, &failed), 0);
    HS_CHECK_INT(failed, 0);
    hs_wire_msg_t d;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_wire_decode(out.data, out.len, &d, &err), 0);
    HS_CHECK_INT(d.result.num_evals, 8);
    for (int i = 0; i < d.result.num_evals; i++) {
        hs_nn_output_t *o = malloc(sizeof *o);
        const hs_eval_t *e = &d.result.evals[i];
        HS_CHECK_INT(e->move_number, moves[i]);
        HS_CHECK_INT(e->engine_id, hs_engine_config_id(spec));
        if (o && s_direct(m, g, e->move_number, o, &err) == 0)
            s_compare(e, o);
        free(o);
    }
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&out);
    hs__eval_ctx_fini(x);
    free(x);
}

/* Specs: the hash option's syntax, binding to the loaded nets, and a spec
 * naming a net the process does not hold. */
static void test_specs(const hs_nn_model_t *m)
{
    hs_error_t err = { 0 };
    char list[256], good[64], other[64];
    snprintf(good, sizeof good, "net:net=%s", m->hash);
    snprintf(other, sizeof other, "net:net=%s", "0123456789abcdef0123456789abcdef");
    HS_CHECK_INT(hs_engine_check_list(good, 4, &err), 0);
    HS_CHECK_INT(hs_engine_check_list("net:net=0123", 4, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "32 lowercase hex") != NULL);
    HS_CHECK_INT(hs_engine_check_list("net:net=0123456789ABCDEF0123456789abcdef", 4, &err),
                 HS_EINVAL);
    HS_CHECK_INT(hs_engine_check_list("net:sym=9", 4, &err), HS_EINVAL);

    const hs_nn_model_t *nets[1] = { m };
    HS_CHECK_INT(hs_engine_bind_nets("judge,net", nets, 1, 1, "tiny", list, sizeof list, &err), 0);
    char want[128];
    snprintf(want, sizeof want, "judge,%s", good);
    HS_CHECK_STR(list, want);
    HS_CHECK_INT(hs_engine_bind_nets(good, nets, 1, 1, "tiny", list, sizeof list, &err), 0);
    HS_CHECK_STR(list, good);
    HS_CHECK_INT(hs_engine_bind_nets(other, nets, 1, 1, "tiny", list, sizeof list, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "spec names net 0123456789abcdef") && strstr(err.msg, m->hash));
    HS_CHECK_INT(hs_engine_bind_nets("net", NULL, 0, 0, NULL, list, sizeof list, &err), HS_EINVAL);
    /* A net held but not among those bare specs bind to (a spec's net=FILE):
     * a bare net engine beside it does not run it. */
    HS_CHECK_INT(hs_engine_bind_nets("net", nets, 1, 0, NULL, list, sizeof list, &err), HS_EINVAL);
    snprintf(want, sizeof want, "mcts:visits=3,%s", good);
    HS_CHECK_INT(hs_engine_bind_nets(want, nets, 1, 0, NULL, list, sizeof list, &err), 0);
    HS_CHECK_STR(list, want);   /* the bare mcts stays the rollout search */
    HS_CHECK(strstr(err.msg, "--net") != NULL);
    HS_CHECK_INT(hs_engine_bind_nets("net:sym=8", nets, 1, 1, "t", list, sizeof list, &err),
                 HS_EINVAL);
    /* With no net loaded, a spec naming one is refused too: no worker of the
     * process could take its tasks (analyze waited for one for good). */
    HS_CHECK_INT(hs_engine_bind_nets(other, NULL, 0, 0, NULL, list, sizeof list, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "no net is loaded") != NULL);

    /* At create: the spec's net must be one this process holds. */
    hs_engine_t eng;
    hs_engine_config_t cfg = { .gpu = -1, .options = other + 4, .nets = nets, .n_nets = 1 };
    HS_CHECK_INT(hs_engine_init(&eng, "net", &cfg, &err), HS_ENOTFOUND);
    HS_CHECK(strstr(err.msg, "spec names net 0123456789abcdef") && strstr(err.msg, m->hash));
    cfg.n_nets = 0;
    HS_CHECK_INT(hs_engine_init(&eng, "net", &cfg, &err), HS_ENOTFOUND);
    HS_CHECK(strstr(err.msg, "holds no net") && strstr(err.msg, "--net"));
    cfg.options = "sym=1";
    HS_CHECK_INT(hs_engine_init(&eng, "net", &cfg, &err), HS_EINVAL);
    cfg.options = good + 4;
    cfg.n_nets = 1;
    HS_CHECK_INT(hs_engine_init(&eng, "net", &cfg, &err), 0);
    hs_engine_fini(&eng);
}

/* "direct MODEL SGF MOVE": the stored fields' reference, as query --json prints them. */
static int s_direct_main(const char *model, const char *sgf, int move)
{
    hs_error_t err = { 0 };
    hs_nn_model_t *m = NULL;
    hs_game_t g;
    size_t len = 0;
    char *text = NULL;
    hs_nn_output_t *o = malloc(sizeof *o);
    int rc = o ? hs_buf_read_file(sgf, 1 << 24, &text, &len, &err) : HS_ENOMEM;
    hs_game_init(&g, 19);
    if (!rc)
        rc = s_game_of(text, len, &g, &err);
    free(text);
    if (!rc && !(rc = hs_nn_model_load(model, &m, &err)) && !(rc = s_direct(m, &g, move, o, &err))) {
        /* as query prints what the store keeps (store/query.h) */
        char lead[HS_QUERY_NUMBER_MAX], wr[HS_QUERY_NUMBER_MAX];
        printf("\"score_lead\":%s,\"win_rate\":%s\n",
               hs_query_number(-o->white_lead, true, 2, lead),
               hs_query_number(0.5f * (1.0f + o->white_loss - o->white_win), true, 2, wr));
    }
    if (rc)
        fprintf(stderr, "test_net_engine direct: %s\n", err.msg);
    hs_game_fini(&g);
    hs_nn_model_free(&m);
    free(o);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "direct"))
        return s_direct_main(argv[2], argv[3], atoi(argv[4]));
    const char *data = getenv("HS_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/../fuzz/corpus/nnmodel/tiny-v8.bin",
             data ? data : "tests/data");
    hs_error_t err = { 0 };
    hs_nn_model_t *m = NULL;
    HS_CHECK_INT(hs_nn_model_load(path, &m, &err), 0);
    hs_game_t g;
    HS_CHECK_INT(s_game_of(s_sgf, sizeof s_sgf - 1, &g, &err), 0);
    if (m) {
        test_specs(m);
        test_worker_path(m, &g);
    }
    hs_game_fini(&g);
    hs_nn_model_free(&m);
    return hs_test_finish();
}
