/*
 * tests/test_mcts_tactics.c — the tree search (worker/mcts.h) with its real
 * evaluators (worker/mcts_eval.h) must find the one winning move of capture
 * and life-and-death problems: the diagrams of tests/data/mcts/NAME.t (format
 * in tests/data/mcts/README.md, parsed by tests/diagram.h like the reader's
 * cases). Each problem is searched with rollouts (always) and with the
 * b6c96 net where ../shared/nets has it (that part prints a SKIP line
 * without it); the most visited move must be one of the accepted ones.
 *
 * Searches are deterministic (one leaf in flight for rollouts, a seed), so
 * a problem passes or fails the same way every run. The net runs on the cpu
 * backend where built (one thread: the machine is shared), else on ref.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/board.h"
#include "diagram.h"
#include "test.h"
#include "worker/mcts.h"
#include "worker/mcts_eval.h"
#include "worker/nn/eval.h"
#include "worker/nn/model.h"

#define NET "/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz"
#define S_ROLLOUT_VISITS 1000
#define S_NET_VISITS 200
#define S_ROLLOUT_PLAYOUTS 2

typedef struct tctx {
    hs_mcts_evaluator_t rollout, net;   /* net.eval NULL: no net */
    hs_mcts_t *search;
    hs_mcts_result_t *res;
    int case_index;                     /* the case the settings below belong to */
    double komi;
    int visits[2];                      /* rollout, net */
    int problems, solved[2], tried[2];
} tctx_t;

/* Searches d with side to move and checks the best move against the
 * "|"-separated list. which: 0 rollout, 1 net. */
static void s_solve(tctx_t *t, const char *file, const hs_diagram_t *d, hs_color_t side,
                    const char *accept, int which)
{
    hs_mcts_evaluator_t *ev = which ? &t->net : &t->rollout;
    hs_board_t b;
    if (!hs_diagram_board(d, &b)) {
        HS_CHECK(0);
        return;
    }
    b.to_move = side;
    hs_nn_pos_t pos = { .board = &b, .to_move = side, .rules = HS_RULES_CHINESE, .komi = t->komi };
    hs_mcts_config_t cfg;
    hs_mcts_config_default(&cfg);
    cfg.max_visits = t->visits[which];
    cfg.threads = which ? 8 : 1;     /* the net: batches of 8 leaves */
    cfg.seed = 1;
    hs_error_t err = {0};
    hs_mcts_clear(t->search);
    int rc = hs_mcts_set_config(t->search, &cfg, &err);
    if (!rc)
        rc = hs_mcts_set_root(t->search, &pos, NULL, &err);
    if (!rc)
        rc = hs_mcts_search(t->search, ev, &err);
    if (rc)
        fprintf(stderr, "%s: %s: search: %s\n", file, d->name, err.msg);
    HS_CHECK_INT(rc, 0);
    hs_mcts_get_result(t->search, t->res);
    const hs_mcts_result_t *r = t->res;
    int n = b.size;
    char got[8] = "-";
    if (r->best_move == HS_MCTS_PASS(n))
        snprintf(got, sizeof got, "pass");
    else if (r->best_move >= 0)
        hs_board_point_name(&b, hs_board_point(&b, r->best_move % n, r->best_move / n), got);
    bool ok = false;
    char alts[128];
    snprintf(alts, sizeof alts, "%s", accept);
    for (char *save = NULL, *a = strtok_r(alts, "|", &save); a; a = strtok_r(NULL, "|", &save))
        ok |= !strcasecmp(a, got);
    float wr = side == HS_BLACK ? r->winrate : 1.0f - r->winrate;
    int best_visits = r->num_moves ? r->moves[0].visits : 0;
    printf("  %-44.44s %-7s %s to move: %-5s (want %s) %d/%d visits, win rate %.2f\n", d->name,
           which ? "net" : "rollout", side == HS_BLACK ? "black" : "white", got, accept,
           best_visits, r->visits, wr);
    if (!ok)
        fprintf(stderr, "%s: %s: %s, %s to move: got %s, want %s\n", file, d->name,
                which ? "net" : "rollout", side == HS_BLACK ? "black" : "white", got, accept);
    HS_CHECK(ok);
    t->tried[which]++;
    t->solved[which] += ok;
}

/* One query line: `komi K`, `visits ROLLOUT NET`, or `black|white MOVES`. */
static bool s_query(const char *file, const hs_diagram_t *d, char *line, void *vctx)
{
    tctx_t *t = vctx;
    if (t->case_index != d->index) {
        t->case_index = d->index;
        t->komi = 7.0;
        t->visits[0] = S_ROLLOUT_VISITS;
        t->visits[1] = S_NET_VISITS;
    }
    char *tok[4];
    int n = 0;
    for (char *s = strtok(line, " \t\r\n"); s && n < 4; s = strtok(NULL, " \t\r\n"))
        tok[n++] = s;
    if (n == 0)
        return true;
    if (!strcmp(tok[0], "komi") && n == 2) {
        t->komi = atof(tok[1]);
        return true;
    }
    if (!strcmp(tok[0], "visits") && n == 3) {
        t->visits[0] = atoi(tok[1]);
        t->visits[1] = atoi(tok[2]);
        return t->visits[0] > 0 && t->visits[1] > 0;
    }
    bool black = !strcmp(tok[0], "black");
    if ((!black && strcmp(tok[0], "white")) || n != 2)
        return false;
    t->problems++;
    s_solve(t, file, d, black ? HS_BLACK : HS_WHITE, tok[1], 0);
    if (t->net.eval)
        s_solve(t, file, d, black ? HS_BLACK : HS_WHITE, tok[1], 1);
    return true;
}

/* The net's evaluator, or none (with a SKIP line) where ../shared lacks it. */
static void s_open_net(tctx_t *t, hs_nn_model_t **m, hs_nn_evaluator_t **nn)
{
    const char *data = getenv("HS_DATA_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s" NET, data ? data : "../shared/data");
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("SKIP (net part): no net at %s; the net searches need ../shared/nets\n", path);
        return;
    }
    fclose(f);
    hs_error_t err = {0};
    HS_CHECK_INT(hs_nn_model_load(path, m, &err), 0);
    if (!*m)
        return;
    hs_nn_backend_config_t bc = { .kind = HS_NN_BACKEND_REF, .max_batch = 8, .threads = 1 };
    if (hs_nn_backend_available(HS_NN_BACKEND_CPU, NULL))
        bc.kind = HS_NN_BACKEND_CPU;
    HS_CHECK_INT(hs_nn_evaluator_create(*m, &bc, nn, &err), 0);
    if (*nn)
        HS_CHECK_INT(hs_mcts_net_evaluator_create(*nn, 1, &t->net, &err), 0);
    printf("net on the %s backend\n", hs_nn_backend_kind_name(bc.kind));
}

int main(void)
{
    static tctx_t t;
    t.res = malloc(sizeof *t.res);
    hs_mcts_rollout_config_t rc;
    hs_mcts_rollout_config_default(&rc);
    rc.threads = 1;
    rc.playouts = S_ROLLOUT_PLAYOUTS;
    rc.seed = 1;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_mcts_rollout_evaluator_create(&rc, &t.rollout, &err), 0);
    hs_mcts_config_t cfg;
    hs_mcts_config_default(&cfg);
    HS_CHECK_INT(hs_mcts_create(&cfg, &t.search, &err), 0);
    hs_nn_model_t *m = NULL;
    hs_nn_evaluator_t *nn = NULL;
    s_open_net(&t, &m, &nn);

    char dir[2048];
    snprintf(dir, sizeof dir, "%s/mcts", hs_test_own_data_dir());
    HS_CHECK(hs_diagram_run_dir(dir, s_query, &t) > 0);
    HS_CHECK(t.problems >= 6);
    printf("%d problems: rollouts solved %d/%d, net %d/%d\n", t.problems, t.solved[0], t.tried[0],
           t.solved[1], t.tried[1]);

    hs_mcts_free(&t.search);
    hs_mcts_evaluator_free(&t.rollout);
    hs_mcts_evaluator_free(&t.net);
    hs_nn_evaluator_free(&nn);
    hs_nn_model_free(&m);
    free(t.res);
    return hs_test_finish();
}
