/*
 * worker/label_yose.c — hs_label_game: the record's replay and step 1 of
 * the patent's labels, the yose played out with the tree search until every
 * boundary is closed, then steps 2 and 3 (worker/label.c) on the result.
 * docs/LABELS.md, "The three steps", says when a position is closed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/gtp_game.h"
#include "worker/label_internal.h"

typedef struct s_yose {
    const hs_label_config_t *cfg;
    hs_gtp_game_t g;
    hs_mcts_t *m;
    hs_mcts_result_t *res;
    hs_judge_t *j;
    hs_judge_config_t jc;
    int passes;          /* passes in a row during the yose */
} s_yose_t;

/* The move the search picks, as a board point: the most visited, and never
 * a pass that is not also the search's best (as self-play picks). */
static hs_point_t s_choose(s_yose_t *y)
{
    int size = y->g.board.size, pass = HS_MCTS_PASS(size);
    int v = hs_mcts_choose_move(y->m);
    hs_mcts_get_result(y->m, y->res);
    if (v == pass && y->res->best_move >= 0 && y->res->best_move != pass)
        v = y->res->best_move;
    if (v < 0 || v >= pass)
        return HS_PASS;
    return hs_board_point(&y->g.board, v % size, v / size);
}

/* Whether the position now is closed by the fast judge. */
static int s_closed(s_yose_t *y, bool *closed, hs_error_t *err)
{
    int rc = hs_judge_compute(&y->g.board, NULL, &y->jc, y->j, err);
    *closed = !rc && hs__label_closed(&y->g.board, y->j, y->g.rules.scoring == HS_SCORING_AREA);
    return rc;
}

/* One yose move: search from the position now (the tree of the last move
 * kept), play the choice. */
static int s_move(s_yose_t *y, hs_error_t *err)
{
    hs_nn_pos_t pos;
    hs_gtp_game_pos(&y->g, &pos);
    int rc = hs_mcts_set_root(y->m, &pos, &y->g.hist, err);
    if (!rc)
        rc = hs_mcts_search(y->m, y->cfg->evaluator, err);
    if (rc)
        return rc;
    hs_point_t p = s_choose(y);
    hs_illegal_t why;
    rc = hs_gtp_game_play(&y->g, y->g.board.to_move, p, &why, err);
    if (rc)
        return hs_error_prefix(err, "label: the yose search chose an illegal move %d", (int)p);
    y->passes = p == HS_PASS ? y->passes + 1 : 0;
    return 0;
}

/* Step 1 on y->g: moves until closed, two passes in a row, or the cap. */
static int s_yose(s_yose_t *y, int *moves, hs_error_t *err)
{
    int size = y->g.board.size;
    int cap = y->cfg->max_yose_moves > 0 ? y->cfg->max_yose_moves : 2 * size * size;
    hs_mcts_config_t mc;
    hs_mcts_config_default(&mc);
    mc.max_visits = y->cfg->visits > 0 ? y->cfg->visits : 16;
    mc.seed = y->cfg->seed;
    hs__label_closed_config(&y->jc);
    int rc = hs_mcts_create(&mc, &y->m, err);
    for (*moves = 0; !rc && *moves < cap && y->passes < 2; ++*moves) {
        bool closed;
        rc = s_closed(y, &closed, err);
        if (rc || closed)
            break;
        rc = s_move(y, err);
    }
    return rc;
}

/* The record's moves without its final passes: the yose goes on from its
 * last stone (a root after two passes would be over for the search). */
static int s_last_stone(const hs_game_t *g)
{
    int k = g->num_moves;
    while (k > 0 && g->moves[k - 1].vertex == HS_GAME_PASS)
        k--;
    return k;
}

/* Replays g (SKIP for an illegal move) and loads it for the yose. 1 when
 * out is already decided (SKIP). */
static int s_load(s_yose_t *y, const hs_game_t *g, hs_label_t *out, hs_error_t *err)
{
    hs_board_t *b = malloc(sizeof *b);
    if (!b)
        return hs_error_set(err, HS_ENOMEM, "label: out of memory");
    hs_error_t e = {0};
    int rc = hs_game_replay(g, -1, b, &e);
    free(b);
    if (rc == HS_EILLEGAL) {
        hs__label_skip(out, "illegal move: %.140s", e.msg);
        return 1;
    }
    if (rc)
        return hs_error_set(err, rc, "label: %s", e.msg);
    rc = hs_gtp_game_init(&y->g, g->size, hs_label_rules(g), g->komi, err);
    if (!rc)
        rc = hs_gtp_game_load(&y->g, g, s_last_stone(g) + 1, err);
    return rc;
}

int hs__label_game_board(const hs_label_config_t *cfg, const hs_game_t *g, hs_label_t *out,
                         hs_board_t *final, hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->size = g->size;
    if (!cfg || !cfg->evaluator)
        return hs_error_set(err, HS_EINVAL, "label: no evaluator for the yose search");
    if (g->size > HS_NN_MAX_SIZE) {
        hs__label_skip(out, "board size: %dx%d is over %dx%d", g->size, g->size,
                       HS_NN_MAX_SIZE, HS_NN_MAX_SIZE);
        return 0;
    }
    if (!hs__label_result_usable(g, out))
        return 0;
    s_yose_t y = { .cfg = cfg };
    y.res = malloc(sizeof *y.res);
    y.j = malloc(sizeof *y.j);
    int rc = y.res && y.j ? 0 : hs_error_set(err, HS_ENOMEM, "label: out of memory");
    if (!rc)
        rc = s_load(&y, g, out, err);
    int moves = 0;
    if (!rc)
        rc = s_yose(&y, &moves, err);
    if (!rc) {
        hs_nn_pos_t pos;
        hs_gtp_game_pos(&y.g, &pos);
        out->yose_moves = moves;
        rc = hs__label_final_pos(cfg, g, &y.g.board, &pos, out, err);
        if (final)
            hs_board_copy(final, &y.g.board);
    }
    hs_mcts_free(&y.m);
    hs_gtp_game_fini(&y.g);
    free(y.res);
    free(y.j);
    return rc == 1 ? 0 : rc;
}

int hs_label_game(const hs_label_config_t *cfg, const hs_game_t *g, hs_label_t *out,
                  hs_error_t *err)
{
    return hs__label_game_board(cfg, g, out, NULL, err);
}
