/*
 * reports/game_maps.c — the maps of one position for the report's pictures
 * (hs_report_maps_load, reports/game_report.h): the stones and the last move
 * from a replay with core/replay.h (the cursor the worker keyed the position
 * with, so the picture is the position the engines saw), and the per-point
 * maps the store kept for that position: the judge's ownership and classes,
 * Park's influence, the net's (or MCTS's) ownership.
 *
 * Which eval gives each map, when several engines evaluated the position: the
 * lowest engine id of the kind, MCTS by the most visits, as for the curve.
 * A position the game's report does not read (g->only) has no maps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "reports/game_report.h"
#include "reports/game_report_internal.h"

/* The eval each map comes from so far. */
typedef struct s_maps_ctx {
    hs_store_t *s;
    hs__engine_kinds_t kinds;
    hs_report_maps_t *m;
    uint32_t judge_engine, infl_engine, net_engine;
    int judge_rank;
    uint32_t net_visits;
    hs_error_t *err;
} s_maps_ctx_t;

/* Replaces *dst with a copy of n bytes of src and a NUL (so classes can also be
 * read as a string); dst keeps its old map on failure. */
static int s_copy(void **dst, const void *src, size_t n, hs_error_t *err)
{
    char *p = malloc(n + 1);
    if (!p)
        return hs_error_set(err, HS_ENOMEM, "out of memory (maps)");
    memcpy(p, src, n);
    p[n] = 0;
    free(*dst);
    *dst = p;
    return 0;
}

/* The judge's ownership and classes come together from one eval ("judge"
 * before "area" and "influence", then the lowest engine id). */
static int s_take_judge(s_maps_ctx_t *c, const hs_eval_t *e, int rank, size_t nn)
{
    if (!e->ownership && !e->classes)
        return 0;
    if (c->m->ownership || c->m->classes) {
        if (rank != c->judge_rank ? rank > c->judge_rank : e->engine_id >= c->judge_engine)
            return 0;
        free(c->m->ownership);
        free(c->m->classes);
        c->m->ownership = NULL;
        c->m->classes = NULL;
    }
    c->judge_engine = e->engine_id;
    c->judge_rank = rank;
    int rc = 0;
    if (e->ownership)
        rc = s_copy((void **)&c->m->ownership, e->ownership, nn, c->err);
    if (!rc && e->classes)
        rc = s_copy((void **)&c->m->classes, e->classes, nn, c->err);
    return rc;
}

static int s_take_net(s_maps_ctx_t *c, const hs_eval_t *e, hs_report_source_t k, size_t nn)
{
    hs_report_maps_t *m = c->m;
    if (!e->ownership)
        return 0;
    if (m->net_ownership) {
        if (k < m->net_source)
            return 0;
        if (k == m->net_source) {
            bool more = k == HS_SOURCE_MCTS && e->visits != c->net_visits;
            if (more ? e->visits < c->net_visits : e->engine_id >= c->net_engine)
                return 0;
        }
    }
    int rc = s_copy((void **)&m->net_ownership, e->ownership, nn, c->err);
    if (!rc) {
        m->net_source = k;
        c->net_engine = e->engine_id;
        c->net_visits = e->visits;
    }
    return rc;
}

static int s_on_eval(void *ctx, const hs_eval_t *e)
{
    s_maps_ctx_t *c = ctx;
    hs_report_maps_t *m = c->m;
    if (e->error || e->move_number != m->move_number || e->size != m->size)
        return 0;
    size_t nn = (size_t)m->size * (size_t)m->size;
    int rc;
    /* Park's SI from whichever engine kept it, whatever its kind. */
    if (e->influence && (!m->influence || e->engine_id < c->infl_engine)) {
        if ((rc = s_copy((void **)&m->influence, e->influence, nn * sizeof(int16_t), c->err)))
            return rc;
        c->infl_engine = e->engine_id;
    }
    hs_report_source_t k;
    int rank;
    rc = hs__report_engine_kind(c->s, &c->kinds, e->engine_id, &k, &rank, c->err);
    if (rc || k == HS_SOURCE_NONE)
        return rc;
    if (k == HS_SOURCE_JUDGE)
        return s_take_judge(c, e, rank, nn);
    return s_take_net(c, e, k, nn);
}

/* Stones after move_number moves and the last move. */
static int s_replay(const hs_game_t *g, hs_report_maps_t *m, hs_error_t *err)
{
    hs_replay_t r;
    int rc = hs_replay_start(&r, g, err);
    if (!rc)
        rc = hs_replay_to(&r, m->move_number, err);
    if (!rc) {
        for (int y = 0; y < m->size; y++)
            for (int x = 0; x < m->size; x++)
                m->stones[y * m->size + x] = r.board.color[hs_board_point(&r.board, x, y)];
    }
    hs_replay_fini(&r);
    if (rc == HS_EINVAL) {   /* a setup stone the board refuses: not replayable */
        rc = HS_EILLEGAL;
        if (err)
            err->code = rc;
    }
    if (rc)
        return rc;
    m->last_x = m->last_y = -1;
    if (m->move_number > 0) {
        uint16_t v = g->moves[m->move_number - 1].vertex;
        if (v != HS_GAME_PASS) {
            m->last_x = v % m->size;
            m->last_y = v / m->size;
        }
    }
    return 0;
}

int hs_report_maps_load(hs_store_t *s, const hs_report_game_t *g, int move_number,
                        hs_report_maps_t *out, hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->last_x = out->last_y = -1;
    const hs_game_t *game = &g->game;
    if (move_number < 0)
        move_number = game->num_moves;
    if (move_number > game->num_moves)
        return hs_error_set(err, HS_EINVAL, "move %d: the game has %d moves", move_number,
                            game->num_moves);
    if (game->size < HS_BOARD_MIN_SIZE || game->size > HS_BOARD_MAX_SIZE)
        return hs_error_set(err, HS_EILLEGAL, "board size %d cannot be replayed", game->size);
    out->size = game->size;
    out->move_number = move_number;
    int rc = s_replay(game, out, err);
    /* A report of a job shows no map of a position the job did not ask for. */
    if (!rc && hs_report_moves_has(&g->only, move_number, game->num_moves)) {
        s_maps_ctx_t c = { .s = s, .m = out, .err = err };
        rc = hs_store_game_evals(s, game->id, move_number, move_number, 0, s_on_eval, &c, err);
    }
    if (rc)
        hs_report_maps_fini(out);
    return rc;
}

void hs_report_maps_fini(hs_report_maps_t *m)
{
    if (!m)
        return;
    free(m->ownership);
    free(m->classes);
    free(m->influence);
    free(m->net_ownership);
    memset(m, 0, sizeof *m);
    m->last_x = m->last_y = -1;
}
