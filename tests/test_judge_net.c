/*
 * tests/test_judge_net.c — the net judge (worker/judge_net.h) with the real
 * b6c96 net (../shared/nets; skipped without it) on hand-made 9x9 positions:
 * a white string left in Black's corner is dead and the walls live; the count
 * follows the rules (Japanese counts the two dead stones as prisoners, Chinese
 * as area), and the net's input position is built from a record's history.
 */
#include <math.h>

#include "test.h"
#include "core/board.h"
#include "core/game.h"
#include "core/sgf.h"
#include "worker/engine.h"
#include "worker/judge_net.h"
#include "worker/nn/eval.h"

#define NET "/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz"

/* A finished 9x9 game: Black's wall on column E, White's on F; two white
 * stones (B2, C2) thrown into Black's side and left there. */
static const char *s_dead_corner[9] = {
    ". . . . X O . . .",
    ". . . . X O . . .",
    ". . . . X O . . .",
    ". . . . X O . . .",
    ". . . . X O . . .",
    ". . . . X O . . .",
    ". . . . X O . . .",
    ". O O . X O . . .",
    ". . . . X O . . .",
};

static void s_board(hs_board_t *b, const char *const *rows, int n)
{
    hs_board_init(b, n);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            char c = rows[y][2 * x];
            if (c != '.')
                hs_board_set_stone(b, hs_board_point(b, x, y), c == 'X' ? HS_BLACK : HS_WHITE);
        }
    b->to_move = HS_BLACK;
}

static int s_eval(hs_nn_evaluator_t *ev, const hs_board_t *b, hs_rules_id_t rules,
                  hs_nn_output_t *out)
{
    hs_nn_pos_t pos = { .board = b, .to_move = HS_BLACK, .rules = rules, .komi = 6.5,
                        .stones_black = 9, .stones_white = 11 };
    hs_error_t err = {0};
    int rc = hs_nn_evaluate(ev, &pos, 1, 0, out, &err);
    if (rc) fprintf(stderr, "evaluate: %s\n", err.msg);
    return rc;
}

static int s_class_at(const hs_judge_t *j, const hs_board_t *b, int x, int y)
{
    return j->cls[hs_board_point(b, x, y)];
}

static void test_dead_corner(hs_nn_evaluator_t *ev)
{
    hs_board_t b;
    s_board(&b, s_dead_corner, 9);
    hs_nn_output_t *o = malloc(sizeof *o);
    hs_judge_t *j = malloc(sizeof *j);
    HS_CHECK_INT(s_eval(ev, &b, HS_RULES_JAPANESE, o), 0);
    HS_CHECK_INT(hs_judge_net_compute(&b, o, NULL, j, NULL), 0);
    HS_CHECK_INT(s_class_at(j, &b, 1, 7), HS_JC_WHITE_DEAD);
    HS_CHECK_INT(s_class_at(j, &b, 2, 7), HS_JC_WHITE_DEAD);
    HS_CHECK_INT(s_class_at(j, &b, 4, 0), HS_JC_BLACK_ALIVE);
    HS_CHECK_INT(s_class_at(j, &b, 5, 8), HS_JC_WHITE_ALIVE);
    HS_CHECK_INT(j->count[HS_JC_WHITE_DEAD], 2);
    HS_CHECK_INT(j->count[HS_JC_BLACK_DEAD], 0);
    HS_CHECK_INT(j->count[HS_JC_BLACK_TERRITORY], 34);
    HS_CHECK_INT(j->count[HS_JC_WHITE_TERRITORY], 27);
    /* Japanese: 34 territory + 2 x 2 for the dead stones (prisoners and their
     * points) - 27 - 6.5 = B+4.5. Chinese: 9 stones + 36 area - (9 + 27)
     * - 6.5 = B+2.5. */
    hs_rules_t jp = hs_rules_get(HS_RULES_JAPANESE), cn = hs_rules_get(HS_RULES_CHINESE);
    HS_CHECK(fabs(hs_judge_score(j, &b, &jp, 6.5, 0) - 4.5) < 1e-9);
    HS_CHECK(fabs(hs_judge_score(j, &b, &cn, 6.5, 0) - 2.5) < 1e-9);
    /* The same board seen under Chinese rules by the net: same verdict. */
    HS_CHECK_INT(s_eval(ev, &b, HS_RULES_CHINESE, o), 0);
    HS_CHECK_INT(hs_judge_net_compute(&b, o, NULL, j, NULL), 0);
    HS_CHECK_INT(j->count[HS_JC_WHITE_DEAD], 2);
    HS_CHECK(fabs(hs_judge_score(j, &b, &cn, 6.5, 0) - 2.5) < 1e-9);
    /* The threshold decides: nothing dies when no ownership is low enough. */
    hs_judge_config_t cfg;
    hs_judge_net_config_final(&cfg);
    cfg.mc_dead = cfg.mc_shut_max = -1.5f;
    HS_CHECK_INT(hs_judge_net_compute(&b, o, &cfg, j, NULL), 0);
    HS_CHECK_INT(j->count[HS_JC_WHITE_DEAD], 0);
    /* All weight on the playouts' ownership: exactly the judge with playouts. */
    hs_judge_config_t fin;
    hs_judge_config_final(&fin);
    float *mc = malloc(sizeof(float) * HS_BOARD_MAX_POINTS);
    hs_judge_t *pj = malloc(sizeof *pj);
    hs_judge_mc_ownership(&b, fin.playouts, fin.seed, mc);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &fin, pj, NULL), 0);
    HS_CHECK_INT(hs_judge_net_compute_mixed(&b, o, mc, 1.0f, &fin, j, NULL), 0);
    HS_CHECK(memcmp(pj->cls, j->cls, sizeof j->cls) == 0);
    free(mc);
    free(pj);
    /* An output of another size is refused. */
    o->n = 19;
    HS_CHECK_INT(hs_judge_net_compute(&b, o, NULL, j, NULL), HS_EINVAL);
    free(o);
    free(j);
}

/* hs_nn_game_pos_at: the history, stone counts and earlier boards. */
static void test_pos_at(void)
{
    static const char sgf[] = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[cc];W[gg];B[];W[cg];B[gc])";
    hs_error_t err = {0};
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, sizeof sgf - 1, NULL, &err);
    HS_CHECK(c != NULL);
    if (!c) return;
    hs_game_t g;
    hs_game_init(&g, 19);
    HS_CHECK_INT(hs_game_from_sgf(hs_sgf_root(c, 0), &g, &err), 0);
    hs_nn_game_pos_t *p = malloc(sizeof *p);
    HS_CHECK_INT(hs_nn_game_pos_at(&g, 4, HS_RULES_JAPANESE, 6.5, 0, p, &err), 0);
    HS_CHECK(p->nn.board == &p->board);
    HS_CHECK_INT(p->nn.to_move, HS_BLACK);
    HS_CHECK_INT(p->nn.n_hist, 4);
    HS_CHECK_INT(p->nn.hist_move[2], HS_PASS);
    HS_CHECK_INT(p->nn.hist_move[3], hs_board_point(&p->board, 2, 6));
    HS_CHECK_INT(p->nn.stones_black, 1);
    HS_CHECK_INT(p->nn.stones_white, 2);
    HS_CHECK(p->nn.prev1 == &p->prev[0]);
    /* prev1: before W C3 (3 moves played), prev2: before the pass. */
    HS_CHECK_INT(p->prev[0].color[hs_board_point(&p->board, 2, 6)], HS_EMPTY);
    HS_CHECK_INT(p->prev[0].color[hs_board_point(&p->board, 6, 6)], HS_WHITE);
    HS_CHECK_INT(p->prev[1].move_number, 2);
    /* -1: the last position, all five moves. */
    HS_CHECK_INT(hs_nn_game_pos_at(&g, -1, HS_RULES_JAPANESE, 6.5, 0, p, &err), 0);
    HS_CHECK_INT(p->board.move_number, 5);
    HS_CHECK_INT(p->nn.n_hist, 5);
    free(p);
    hs_game_fini(&g);
    hs_sgf_destroy(&c);
}

/* The "judge-net" engine on the same position, as a record of setup stones
 * (its last position: judged as finished). */
static void test_engine(const hs_nn_model_t *m)
{
    static const char sgf[] = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PL[B]"
        "AB[ea][eb][ec][ed][ee][ef][eg][eh][ei]AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][bh][ch])";
    hs_error_t err = {0};
    hs_engine_t eng = {0};
    hs_engine_config_t cfg = { .gpu = -1, .net_backend = HS_NN_BACKEND_REF };
    char opts[64];
    snprintf(opts, sizeof opts, "net=%s", m->hash);
    cfg.options = opts;
    HS_CHECK_INT(hs_engine_init(&eng, "judge-net", &cfg, &err), HS_ENOTFOUND);   /* no net */
    HS_CHECK(strstr(err.msg, "holds no net") != NULL);
    const hs_nn_model_t *nets[1] = { m };
    cfg.nets = nets;
    cfg.n_nets = 1;
    HS_CHECK_INT(hs_engine_init(&eng, "judge-net", &cfg, &err), 0);
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, sizeof sgf - 1, NULL, &err);
    hs_game_t g;
    hs_game_init(&g, 19);
    HS_CHECK(c && hs_game_from_sgf(hs_sgf_root(c, 0), &g, &err) == 0);
    hs_board_t b;
    HS_CHECK_INT(hs_game_replay(&g, -1, &b, &err), 0);
    hs_engine_pos_t pos = { .game = &g, .board = &b, .move_number = 0 };
    hs_engine_result_t *r = calloc(1, sizeof *r);
    HS_CHECK_INT(hs_engine_evaluate(&eng, &pos, 1, r, &err), 0);
    HS_CHECK((r->flags & HS_ENGINE_HAS_WINRATE) && (r->flags & HS_ENGINE_HAS_CLASSES));
    HS_CHECK_INT(r->classes[7 * 9 + 1], 'o');
    HS_CHECK_INT(r->classes[7 * 9 + 2], 'o');
    HS_CHECK_INT(r->classes[4], 'X');
    HS_CHECK_STR(r->result, "B+4.5");
    free(r);
    hs_engine_fini(&eng);
    cfg.options = "net=00000000000000000000000000000000";
    HS_CHECK_INT(hs_engine_init(&eng, "judge-net", &cfg, &err), HS_ENOTFOUND);
    hs_game_fini(&g);
    hs_sgf_destroy(&c);
}

/* A net trained on the patent's labels (stones_zero) marks standing stones
 * 0, dead ones with the opponent's sign, territory +-1: the same board
 * judges the same as KataGo's convention would; read on KataGo's scale
 * (without stones_zero) every stone at 0 would be dead. */
static void test_stones_zero(void)
{
    hs_board_t b;
    s_board(&b, s_dead_corner, 9);
    hs_nn_output_t *o = calloc(1, sizeof *o);
    hs_judge_t *j = malloc(sizeof *j);
    o->n = 9;
    o->stones_zero = 1;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            hs_point_t p = hs_board_point(&b, x, y);
            float white = x < 4 ? -1.0f : x > 5 ? 1.0f : 0.0f;   /* White's view */
            o->ownership[y * 9 + x] = b.color[p] == HS_EMPTY ? white : 0.0f;
        }
    o->ownership[7 * 9 + 1] = o->ownership[7 * 9 + 2] = -1.0f;   /* B2, C2: Black's */
    HS_CHECK_INT(hs_judge_net_compute(&b, o, NULL, j, NULL), 0);
    HS_CHECK_INT(j->count[HS_JC_WHITE_DEAD], 2);
    HS_CHECK_INT(j->count[HS_JC_BLACK_DEAD], 0);
    HS_CHECK_INT(s_class_at(j, &b, 4, 0), HS_JC_BLACK_ALIVE);
    HS_CHECK_INT(s_class_at(j, &b, 5, 8), HS_JC_WHITE_ALIVE);
    o->stones_zero = 0;
    HS_CHECK_INT(hs_judge_net_compute(&b, o, NULL, j, NULL), 0);
    HS_CHECK(j->count[HS_JC_BLACK_DEAD] > 0);
    free(o);
    free(j);
}

int main(void)
{
    test_pos_at();
    test_stones_zero();
    const char *data = hs_test_data_dir();
    char path[4096];
    snprintf(path, sizeof path, "%s" NET, data);
    hs_error_t err = {0};
    hs_nn_model_t *m = NULL;
    if (hs_nn_model_load(path, &m, &err)) {
        printf("SKIP: the shared net is not here (%s: %s)\n", path, err.msg);
        return 77;
    }
    hs_nn_backend_config_t bc = { .kind = HS_NN_BACKEND_REF, .max_batch = 1 };
    hs_nn_evaluator_t *ev = NULL;
    HS_CHECK_INT(hs_nn_evaluator_create(m, &bc, &ev, &err), 0);
    if (ev) test_dead_corner(ev);
    test_engine(m);
    hs_nn_evaluator_free(&ev);
    hs_nn_model_free(&m);
    return hs_test_finish();
}
