/*
 * worker/shard_pos.c — a shard sample's planes back into a position for the
 * net, the judge and influence (shard_pos.h). The history planes older than
 * two moves are only the newer board less the move's stone (features.h), so
 * only differences are read from them: the moves, never whole boards.
 */
#include <stdbool.h>
#include <string.h>

#include "worker/shard_pos.h"

/* History board k (0 = now) of the sample: who stands on point i. */
static hs_color_t s_at(const hs_shard_sample_t *s, int k, int i, hs_color_t pla)
{
    if (s->planes[k][i])
        return pla;
    if (s->planes[8 + k][i])
        return hs_color_other(pla);
    return HS_EMPTY;
}

/* Board k of the history into *b; HS_EINVAL for a point of both colours. */
static int s_board(const hs_shard_sample_t *s, int k, int n, hs_color_t pla, hs_board_t *b,
                   hs_error_t *err)
{
    hs_point_t pts[HS_SHARD_MAX_AREA];
    uint8_t cols[HS_SHARD_MAX_AREA];
    int m = 0;
    hs_board_init(b, n);
    for (int i = 0; i < n * n; i++) {
        if (s->planes[k][i] && s->planes[8 + k][i])
            return hs_error_set(err, HS_EINVAL, "sample: point %d of board -%d holds both colours",
                                i, k);
        hs_color_t c = s_at(s, k, i, pla);
        if (c == HS_EMPTY)
            continue;
        pts[m] = hs_board_point(b, i % n, i / n);
        cols[m++] = (uint8_t)c;
    }
    return hs_board_set_stones(b, pts, cols, m) ? hs_error_set(err, HS_EINVAL, "sample: bad stones")
                                                : 0;
}

/* The move between history boards k+1 and k by `mover`: the point where its
 * stone appears; when none does, HS_PASS if both boards are exact (k < 2),
 * else HS_NO_POINT (a pass, or a move whose stone a later move captured: the
 * older planes cannot tell); -1 when more than one appears (no single move:
 * the history stops there). */
static int s_move(const hs_shard_sample_t *s, int k, int n, hs_color_t pla, hs_color_t mover,
                  const hs_board_t *frame, hs_point_t *move)
{
    *move = k < 2 ? HS_PASS : HS_NO_POINT;
    bool found = false;
    for (int i = 0; i < n * n; i++) {
        if (s_at(s, k, i, pla) != mover || s_at(s, k + 1, i, pla) == mover)
            continue;
        if (found)
            return -1;
        found = true;
        *move = hs_board_point(frame, i % n, i / n);
    }
    return 0;
}

/* The last moves, oldest first, into p->hist_*. */
static void s_history(const hs_shard_sample_t *s, int n, hs_color_t pla, hs_nn_game_pos_t *out)
{
    hs_nn_pos_t *p = &out->nn;
    hs_color_t col[HS_NN_HISTORY];
    hs_point_t mv[HS_NN_HISTORY];
    int avail = s->move < HS_NN_HISTORY - 1 ? s->move : HS_NN_HISTORY - 1, got = 0;
    for (int k = 0; k < avail; k++) {
        hs_color_t mover = k % 2 == 0 ? hs_color_other(pla) : pla;
        if (s_move(s, k, n, pla, mover, &out->board, &mv[got]))
            break;
        col[got++] = mover;
    }
    p->n_hist = got;
    for (int j = 0; j < got; j++) {          /* newest first -> oldest first */
        p->hist_color[j] = col[got - 1 - j];
        p->hist_move[j] = mv[got - 1 - j];
    }
}

/* The ko point: replay the last move on prev1; keep the result only when it
 * is exactly the sample's board (else the board stays without a ko). */
static void s_ko(hs_nn_game_pos_t *out)
{
    const hs_nn_pos_t *p = &out->nn;
    if (!p->prev1 || p->n_hist < 1)
        return;
    hs_point_t m = p->hist_move[p->n_hist - 1];
    if (m == HS_PASS)
        return;
    hs_board_t b;
    hs_board_copy(&b, &out->prev[0]);
    if (hs_board_play(&b, p->hist_color[p->n_hist - 1], m, HS_PLAY_SUICIDE_OK, NULL) != 0)
        return;
    int n = b.size;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            hs_point_t q = hs_board_point(&b, x, y);
            if (b.color[q] != out->board.color[q])
                return;
        }
    out->board.ko = b.ko;
}

/* Stones put down by each side (shard_pos.h: guessed from the parity, less
 * the passes the exact history boards show). */
static void s_stones(const hs_shard_sample_t *s, int handicap, hs_nn_pos_t *p)
{
    int m = s->move;
    /* Black first: after m moves Black is to move iff m is even */
    int black_first = (m % 2 == 0) == (s->to_move == HS_BLACK);
    int first = (m + 1) / 2, second = m / 2;
    p->stones_black = black_first ? first : second + handicap;
    p->stones_white = black_first ? second : first;
    for (int k = 0; k < 2 && k < p->n_hist; k++) {
        int i = p->n_hist - 1 - k;
        if (p->hist_move[i] == HS_PASS)
            *(p->hist_color[i] == HS_BLACK ? &p->stones_black : &p->stones_white) -= 1;
    }
}

int hs_shard_sample_pos(const hs_shard_sample_t *s, int n, hs_rules_id_t rules, double komi,
                        int handicap, hs_nn_game_pos_t *out, hs_error_t *err)
{
    if (n < 2 || n > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "sample: board size %d", n);
    if (s->to_move != HS_BLACK && s->to_move != HS_WHITE)
        return hs_error_set(err, HS_EINVAL, "sample: no colour to move");
    hs_color_t pla = (hs_color_t)s->to_move;
    int rc = s_board(s, 0, n, pla, &out->board, err);
    if (!rc && s->move >= 1)
        rc = s_board(s, 1, n, pla, &out->prev[0], err);
    if (!rc && s->move >= 2)
        rc = s_board(s, 2, n, pla, &out->prev[1], err);
    if (rc)
        return rc;
    out->board.to_move = pla;
    out->board.move_number = s->move;
    memset(&out->nn, 0, sizeof out->nn);
    hs_nn_pos_t *p = &out->nn;
    p->board = &out->board;
    p->to_move = pla;
    p->rules = rules;
    p->komi = komi;
    p->handicap = handicap;
    p->prev1 = s->move >= 1 ? &out->prev[0] : NULL;
    p->prev2 = s->move >= 2 ? &out->prev[1] : NULL;
    out->prev[0].to_move = hs_color_other(pla);
    out->prev[1].to_move = pla;
    s_history(s, n, pla, out);
    if (p->n_hist > 0)
        out->board.last_move = p->hist_move[p->n_hist - 1];
    s_ko(out);
    s_stones(s, handicap, p);
    return 0;
}
