/*
 * worker/label.c — steps 2 and 3 of the patent's labels on a closed position
 * (dead stones out with the judge, one's own stones inside one's own
 * territory out, the +1/-1/0 marks) and the check of the count against the
 * record's RE. docs/LABELS.md says exactly what counts; the yose (step 1)
 * is worker/label_yose.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/judge_net.h"
#include "worker/label_internal.h"
#include "worker/nn/eval.h"

void hs_label_config_default(hs_label_config_t *cfg)
{
    *cfg = (hs_label_config_t){ .visits = 16, .seed = 1 };
}

void hs__label_skip(hs_label_t *out, const char *fmt, ...)
{
    out->status = HS_LABEL_SKIP;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->reason, sizeof out->reason, fmt, ap);
    va_end(ap);
}

hs_rules_id_t hs_label_rules(const hs_game_t *g)
{
    if (!g->rules_raw && fabs(g->komi - 7.5) < 1e-9)
        return HS_RULES_CHINESE;
    return g->rules.id;
}

bool hs__label_result_usable(const hs_game_t *g, hs_label_t *out)
{
    const hs_result_t *r = &g->result;
    const char *raw = g->result_raw ? g->result_raw : "";
    if (!g->result_raw) {
        hs__label_skip(out, "no result: no RE");
        return false;
    }
    if (r->winner == HS_WINNER_UNKNOWN || r->winner == HS_WINNER_VOID) {
        hs__label_skip(out, "no result: RE[%.100s]", raw);
        return false;
    }
    /* Fox writes "W+0.0" for games that ended without a count (a
     * disconnection, a timeout): a winner by no points is no count. */
    if (r->kind == HS_RESULT_POINTS && r->winner != HS_WINNER_DRAW && r->margin == 0) {
        hs__label_skip(out, "no result: RE[%.100s] gives a winner by 0 points", raw);
        return false;
    }
    /* A forfeit says nothing about the board. */
    if (r->kind == HS_RESULT_FORFEIT) {
        hs__label_skip(out, "forfeit: RE[%.100s]", raw);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Step 2: the judgment                                                */

/* Counts stones of colour c on b (for the net's komi under territory rules
 * when no history is given: stones put down = stones standing + stones
 * the opponent captured). */
static int s_stones(const hs_board_t *b, hs_color_t c)
{
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            n += b->color[hs_board_point(b, x, y)] == c;
    return n;
}

/* The net judge: one evaluation of the position, then its judgment. */
static int s_judge_net(hs_nn_evaluator_t *nn, const hs_game_t *g, const hs_board_t *b,
                       const hs_nn_pos_t *pos, hs_judge_t *j, hs_error_t *err)
{
    hs_nn_pos_t own;
    if (!pos) {
        own = (hs_nn_pos_t){
            .board = b, .to_move = b->to_move == HS_WHITE ? HS_WHITE : HS_BLACK,
            .rules = hs_label_rules(g), .komi = g->komi, .handicap = g->handicap,
            .stones_black = s_stones(b, HS_BLACK) + b->captures[HS_WHITE],
            .stones_white = s_stones(b, HS_WHITE) + b->captures[HS_BLACK],
        };
        pos = &own;
    }
    hs_nn_output_t *o = malloc(sizeof *o);
    if (!o)
        return hs_error_set(err, HS_ENOMEM, "label: out of memory");
    int rc = hs_nn_evaluate(nn, pos, 1, 0, o, err);
    if (!rc)
        rc = hs_judge_net_compute(b, o, NULL, j, err);
    free(o);
    return rc;
}

static int s_judge(const hs_label_config_t *cfg, const hs_game_t *g, const hs_board_t *b,
                   const hs_nn_pos_t *pos, hs_judge_t *j, hs_error_t *err)
{
    if (cfg && cfg->nn)
        return s_judge_net(cfg->nn, g, b, pos, j, err);
    hs_judge_config_t jc;
    hs_judge_config_final(&jc);
    return hs_judge_compute(b, NULL, &jc, j, err);
}

/* ------------------------------------------------------------------ */
/* Step 3: the marks                                                   */

/* The mark of one point from the judge's class alone (Black's view): a
 * territory point its owner's sign, a dead stone the sign of the region it
 * falls into, every live stone, dame, seki point and must-fill point 0
 * (a must-fill point will hold its owner's stone once the dame are filled). */
static signed char s_point_mark(const hs_judge_t *j, hs_point_t p)
{
    if (j->must_fill_at[p] != HS_EMPTY)
        return 0;
    switch (j->cls[p]) {
    case HS_JC_BLACK_TERRITORY: return 1;
    case HS_JC_WHITE_TERRITORY: return -1;
    case HS_JC_BLACK_DEAD:
    case HS_JC_WHITE_DEAD:
        return j->ownership[p] > 0.5f ? 1 : j->ownership[p] < -0.5f ? -1 : 0;
    default: return 0;
    }
}

/* A live string of colour c decides nothing when every point next to it
 * that is not its own stone is marked c's (its territory, or a dead
 * opponent stone in it): it touches no living opponent stone, no dame, no
 * seki point and no must-fill point. Its stones then take c's mark. */
static void s_own_stones(const hs_board_t *b, const hs_judge_t *j, signed char *mark)
{
    const int dirs[4] = { -b->stride, -1, 1, b->stride };
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t h = hs_board_point(b, x, y);
            int c = b->color[h];
            if (b->head[h] != h || (j->cls[h] != HS_JC_BLACK_ALIVE && j->cls[h] != HS_JC_WHITE_ALIVE))
                continue;
            if (c != HS_BLACK && c != HS_WHITE)
                continue;
            signed char s = c == HS_BLACK ? 1 : -1;
            bool inside = true;
            for (hs_point_t q = h; inside;) {
                for (int d = 0; d < 4; d++) {
                    hs_point_t r = (hs_point_t)(q + dirs[d]);
                    if (b->color[r] == HS_OFFBOARD || b->color[r] == c)
                        continue;
                    if (s_point_mark(j, r) != s)
                        inside = false;
                }
                q = b->next[q];
                if (q == h)
                    break;
            }
            if (!inside)
                continue;
            for (hs_point_t q = h;;) {
                mark[q] = s;
                q = b->next[q];
                if (q == h)
                    break;
            }
        }
}

static void s_marks(const hs_board_t *b, const hs_judge_t *j, hs_label_t *out)
{
    signed char mark[HS_BOARD_MAX_POINTS];
    memset(mark, 0, sizeof mark);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            mark[p] = s_point_mark(j, p);
        }
    s_own_stones(b, j, mark);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            out->owner[y * b->size + x] = mark[hs_board_point(b, x, y)];
}

/* ------------------------------------------------------------------ */
/* The check against the record                                        */

static void s_check(const hs_game_t *g, hs_label_t *out)
{
    const hs_result_t *r = &g->result;
    char lab[16], rec[16];
    hs_judge_result_string(out->black_margin, lab);
    hs_result_format(r, rec);
    out->status = HS_LABEL_OK;
    out->reason[0] = '\0';
    if (r->kind == HS_RESULT_POINTS) {
        double want = r->winner == HS_WINNER_BLACK ? r->margin
                    : r->winner == HS_WINNER_WHITE ? -r->margin : 0.0;
        if (fabs(out->black_margin - want) > 1e-6) {
            out->status = HS_LABEL_MISS;
            snprintf(out->reason, sizeof out->reason, "count: labelled %s, record %s", lab, rec);
        }
        return;
    }
    /* Resignation, time, or a winner without a margin (RE[B+]): the winner. */
    hs_winner_t got = out->black_margin > 0 ? HS_WINNER_BLACK
                    : out->black_margin < 0 ? HS_WINNER_WHITE : HS_WINNER_DRAW;
    if (got != r->winner) {
        out->status = HS_LABEL_MISS;
        snprintf(out->reason, sizeof out->reason, "winner: labelled %s, record %s", lab, rec);
    }
}

int hs__label_final_pos(const hs_label_config_t *cfg, const hs_game_t *g, const hs_board_t *b,
                        const hs_nn_pos_t *pos, hs_label_t *out, hs_error_t *err)
{
    int yose = out->yose_moves;
    memset(out, 0, sizeof *out);
    out->size = b->size;
    out->yose_moves = yose;
    if (b->size > HS_NN_MAX_SIZE) {
        hs__label_skip(out, "board size: %dx%d is over %dx%d", b->size, b->size,
                       HS_NN_MAX_SIZE, HS_NN_MAX_SIZE);
        return 0;
    }
    if (!hs__label_result_usable(g, out))
        return 0;
    hs_judge_t *j = malloc(sizeof *j);
    if (!j)
        return hs_error_set(err, HS_ENOMEM, "label: out of memory");
    int rc = s_judge(cfg, g, b, pos, j, err);
    if (!rc) {
        s_marks(b, j, out);
        hs_rules_t rules = hs_rules_get(hs_label_rules(g));
        out->black_margin = hs_judge_score(j, b, &rules, g->komi, g->handicap);
        s_check(g, out);
    }
    free(j);
    return rc;
}

int hs_label_final(const hs_label_config_t *cfg, const hs_game_t *g, const hs_board_t *b,
                   hs_label_t *out, hs_error_t *err)
{
    out->yose_moves = 0;
    return hs__label_final_pos(cfg, g, b, NULL, out, err);
}

/* ------------------------------------------------------------------ */
/* Closedness (step 1's end)                                           */

void hs__label_closed_config(hs_judge_config_t *cfg)
{
    hs_judge_config_final(cfg);
    cfg->playouts = 0;
}

bool hs__label_closed(const hs_board_t *b, const hs_judge_t *j, bool area)
{
    const int dirs[4] = { -b->stride, -1, 1, b->stride };
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            int k = j->cls[p];
            /* a dead stone in no one's territory: nobody has taken it yet */
            if ((k == HS_JC_BLACK_DEAD || k == HS_JC_WHITE_DEAD) && fabsf(j->ownership[p]) < 0.5f)
                return false;
            if (k != HS_JC_DAME)
                continue;
            /* by area every dame point is a point for whoever fills it */
            if (area)
                return false;
            bool black = false, white = false;
            for (int d = 0; d < 4; d++) {
                int n = j->cls[p + dirs[d]];
                black |= n == HS_JC_BLACK_ALIVE;
                white |= n == HS_JC_WHITE_ALIVE;
            }
            if (!black || !white)
                return false;
        }
    return true;
}
