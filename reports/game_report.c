/*
 * reports/game_report.c — one game's evaluation curve read from the store
 * (reports/game_report.h): per position the eval of the preferred source
 * (MCTS, else the net, else the judge), the loss of every move, each player's
 * mistakes, the biggest swings and whether the final evaluation agrees with the
 * recorded result (and whether that comparison means anything: of the last
 * position, with a komi the result can come from). A report of a job reads
 * only the positions of the job's moves spec (hs_report_moves_t).
 *
 * All of it comes from ONE hs_store_game_evals pass over the game's moves
 * entries: each eval is sorted into a per-(position, kind) slot, keeping the
 * best one of its kind; everything else is computed from those slots.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/wire.h"
#include "reports/game_report.h"
#include "reports/game_report_internal.h"

/* The eval chosen for one (position, kind). */
typedef struct s_pick {
    float win_rate, lead;       /* NAN = not given */
    int best;                   /* MCTS's best move, -1 */
    uint32_t visits, engine;
    int rank;                   /* hs__report_spec_kind's */
    bool have;
} s_pick_t;

/* What the eval pass fills. */
typedef struct s_load {
    hs_store_t *s;
    hs__engine_kinds_t kinds;
    s_pick_t *picks;            /* [position * HS_SOURCE_COUNT + kind] */
    int num_pos;
    const hs_report_moves_t *only;   /* the positions read, NULL: all */
    hs_error_t *err;
} s_load_t;

int hs_report_moves_parse(const char *spec, hs_report_moves_t *m)
{
    *m = (hs_report_moves_t){ 1, false };
    return hs_wire_moves_spec_parse(spec, &m->step, &m->last_only);
}

bool hs_report_moves_has(const hs_report_moves_t *m, int move, int num_moves)
{
    if (!m)
        return true;
    if (m->last_only)
        return move == num_moves;
    return m->step <= 1 || move % m->step == 0;
}

const char *hs_report_source_name(hs_report_source_t s)
{
    switch (s) {
    case HS_SOURCE_JUDGE: return "judge";
    case HS_SOURCE_NET: return "net";
    case HS_SOURCE_MCTS: return "MCTS";
    default: return "none";
    }
}

hs_report_source_t hs__report_spec_kind(const char *spec, int *rank)
{
    static const struct { const char *name; hs_report_source_t kind; int rank; } names[] = {
        { "mcts", HS_SOURCE_MCTS, 0 },   { "net", HS_SOURCE_NET, 0 },
        { "judge-net", HS_SOURCE_NET, 0 }, { "judge", HS_SOURCE_JUDGE, 0 },
        { "area", HS_SOURCE_JUDGE, 1 },  { "influence", HS_SOURCE_JUDGE, 1 },
    };
    size_t n = strcspn(spec, "@:");
    if (rank)
        *rank = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == n && !memcmp(spec, names[i].name, n)) {
            if (rank)
                *rank = names[i].rank;
            return names[i].kind;
        }
    return HS_SOURCE_NONE;
}

int hs__report_engine_kind(hs_store_t *s, hs__engine_kinds_t *c, uint32_t engine_id,
                           hs_report_source_t *kind, int *rank, hs_error_t *err)
{
    int r = 0;
    for (int i = 0; i < c->n; i++)
        if (c->id[i] == engine_id) {
            *kind = (hs_report_source_t)c->kind[i];
            if (rank)
                *rank = c->rank[i];
            return 0;
        }
    char spec[HS_WIRE_MAX_NAME + 1];
    hs_error_t e2;
    int rc = hs_store_engine_spec(s, engine_id, spec, sizeof spec, &e2);
    if (rc && rc != HS_ENOTFOUND)
        return hs_error_set(err, rc, "engine %u: %s", (unsigned)engine_id, e2.msg);
    *kind = rc ? HS_SOURCE_NONE : hs__report_spec_kind(spec, &r);
    if (rank)
        *rank = r;
    if (c->n < HS__ENGINE_KINDS_MAX) {
        c->id[c->n] = engine_id;
        c->rank[c->n] = (uint8_t)r;
        c->kind[c->n++] = (uint8_t)*kind;
    }
    return 0;
}

/* Whether e (of rank `rank`) should replace the pick p of kind k: MCTS by the
 * most visits, the judge kind by rank ("judge" before "area"), every kind then
 * by the lowest engine id (so the choice does not depend on the order the
 * evals were stored in). */
static bool s_better(hs_report_source_t k, const hs_eval_t *e, int rank, const s_pick_t *p)
{
    if (!p->have)
        return true;
    if (k == HS_SOURCE_MCTS && e->visits != p->visits)
        return e->visits > p->visits;
    if (rank != p->rank)
        return rank < p->rank;
    return e->engine_id < p->engine;
}

static int s_on_eval(void *ctx, const hs_eval_t *e)
{
    s_load_t *l = ctx;
    if (e->error || e->move_number < 0 || e->move_number >= l->num_pos
        || !hs_report_moves_has(l->only, e->move_number, l->num_pos - 1))
        return 0;
    if (!isfinite(e->win_rate) && !isfinite(e->score_lead))
        return 0;   /* an engine that gives neither (influence alone) draws no curve */
    hs_report_source_t k;
    int rank;
    int rc = hs__report_engine_kind(l->s, &l->kinds, e->engine_id, &k, &rank, l->err);
    if (rc || k == HS_SOURCE_NONE)
        return rc;
    s_pick_t *p = &l->picks[e->move_number * HS_SOURCE_COUNT + k];
    if (!s_better(k, e, rank, p))
        return 0;
    int best = -1;
    if (k == HS_SOURCE_MCTS && e->visits > 0)
        best = e->pv_len > 0 ? e->pv[0] : e->num_moves > 0 ? e->moves[0].vertex : -1;
    *p = (s_pick_t){ .win_rate = isfinite(e->win_rate) ? e->win_rate : NAN,
                     .lead = isfinite(e->score_lead) ? e->score_lead : NAN,
                     .best = best, .visits = e->visits, .engine = e->engine_id,
                     .rank = rank, .have = true };
    return 0;
}

/* pos[m] from the preferred kind that evaluated position m. */
static void s_fill_pos(hs_report_game_t *g, const s_pick_t *picks, int num_pos)
{
    for (int m = 0; m < num_pos; m++) {
        hs_report_pos_t *p = &g->pos[m];
        *p = (hs_report_pos_t){ HS_SOURCE_NONE, NAN, NAN, -1, NAN, NAN };
        for (int k = HS_SOURCE_COUNT - 1; k > HS_SOURCE_NONE; k--) {
            const s_pick_t *q = &picks[m * HS_SOURCE_COUNT + k];
            if (!q->have)
                continue;
            p->source = (hs_report_source_t)k;
            p->win_rate = q->win_rate;
            p->lead = q->lead;
            p->best = q->best;
            g->analysed++;
            break;
        }
    }
}

/* The loss of move m (positions m-1 -> m) from the most preferred kind both
 * positions have (a curve that switches source between them, MCTS every tenth
 * move and the net elsewhere, would otherwise count the engines' disagreement
 * as a loss); also the signed change of the curve in *dwr, *dlead. */
static void s_loss(hs_report_game_t *g, const s_pick_t *picks, int m, float *dwr,
                   float *dlead)
{
    const s_pick_t *a = NULL, *b = NULL;
    int k = HS_SOURCE_COUNT - 1;
    for (; k > HS_SOURCE_NONE; k--) {
        a = &picks[(m - 1) * HS_SOURCE_COUNT + k];
        b = &picks[m * HS_SOURCE_COUNT + k];
        if (a->have && b->have)
            break;
        a = NULL;
    }
    hs_report_pos_t *p = &g->pos[m];
    *dwr = *dlead = NAN;
    /* The judge counts a record's last position as a finished game, with other
     * rules than the positions before it (worker/engine_adapters.c): the change
     * into it is the change of method, no move's loss or swing (it was 10 points
     * or more in 40% of resigned amateur games, the game's largest in a third). */
    if (!a || (k == HS_SOURCE_JUDGE && m == g->game.num_moves))
        return;
    /* Numbers are Black's: the mover's drop is -change for Black, +change for White. */
    float sign = g->game.moves[m - 1].color == HS_WHITE ? -1.f : 1.f;
    if (isfinite(a->lead) && isfinite(b->lead)) {
        *dlead = b->lead - a->lead;
        float drop = -sign * *dlead;
        p->loss_points = drop > 0 ? drop : 0.f;
    }
    if (isfinite(a->win_rate) && isfinite(b->win_rate)) {
        *dwr = b->win_rate - a->win_rate;
        float drop = -sign * *dwr;
        p->loss_win_rate = drop > 0 ? drop : 0.f;
    }
}

/* Inserts move m with value v into list[0..*n) (at most cap, largest first,
 * an earlier move first among equals). */
static void s_top_insert(int *list, float *vals, int *n, int cap, int m, float v)
{
    int i = *n;
    while (i > 0 && vals[i - 1] < v)
        i--;
    if (i >= cap)
        return;
    int last = *n < cap ? *n : cap - 1;
    for (int j = last; j > i; j--) {
        list[j] = list[j - 1];
        vals[j] = vals[j - 1];
    }
    list[i] = m;
    vals[i] = v;
    if (*n < cap)
        (*n)++;
}

static bool s_any_finite(const float *v, int from, int to)
{
    for (int i = from; i < to; i++)
        if (isfinite(v[i]))
            return true;
    return false;
}

/* Each player's largest losses: in points where the game has any point loss,
 * else in win rate (a source without a lead). */
static void s_mistakes(hs_report_game_t *g, const float *loss_pts, const float *loss_wr)
{
    int n = g->game.num_moves;
    bool by_points = s_any_finite(loss_pts, 1, n + 1);
    const float *loss = by_points ? loss_pts : loss_wr;
    int list[2][HS_REPORT_MISTAKES];
    float vals[2][HS_REPORT_MISTAKES];
    for (int m = 1; m <= n; m++) {
        int c = g->game.moves[m - 1].color == HS_WHITE;
        if (isfinite(loss[m]) && loss[m] > 0)
            s_top_insert(list[c], vals[c], &g->num_mistakes[c], HS_REPORT_MISTAKES, m, loss[m]);
    }
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < g->num_mistakes[c]; i++) {
            int m = list[c][i];
            g->mistakes[c][i] = (hs_report_mistake_t){
                .move_number = m, .color = c ? HS_WHITE : HS_BLACK,
                .played = g->game.moves[m - 1].vertex, .preferred = g->pos[m - 1].best,
                .loss_points = g->pos[m].loss_points, .loss_win_rate = g->pos[m].loss_win_rate,
            };
        }
}

/* The largest |change| of the curve: in win rate where the game has any
 * change in win rate, else in points. */
static void s_swings(hs_report_game_t *g, const float *dwr, const float *dlead)
{
    int n = g->game.num_moves;
    const float *d = s_any_finite(dwr, 1, n + 1) ? dwr : dlead;
    float vals[HS_REPORT_SWINGS];
    for (int m = 1; m <= n; m++)
        if (isfinite(d[m]) && d[m] != 0)
            s_top_insert(g->swings, vals, &g->num_swings, HS_REPORT_SWINGS, m, fabsf(d[m]));
}

hs_winner_t hs_report_pos_winner(const hs_report_pos_t *p)
{
    if (isfinite(p->win_rate) && p->win_rate != 0.5f)
        return p->win_rate > 0.5f ? HS_WINNER_BLACK : HS_WINNER_WHITE;
    if (isfinite(p->lead))
        return p->lead > 0 ? HS_WINNER_BLACK : p->lead < 0 ? HS_WINNER_WHITE : HS_WINNER_DRAW;
    return HS_WINNER_UNKNOWN;
}

bool hs_report_loss_by_judge(const hs_report_game_t *g, int m)
{
    hs_report_source_t a = g->pos[m - 1].source, b = g->pos[m].source;
    return (a < b ? a : b) == HS_SOURCE_JUDGE;
}

static void s_final(hs_report_game_t *g)
{
    int last = g->game.num_moves;
    while (last >= 0 && g->pos[last].source == HS_SOURCE_NONE)
        last--;
    hs_result_t rec = g->game.result;
    hs_winner_t ev = last >= 0 ? hs_report_pos_winner(&g->pos[last]) : HS_WINNER_UNKNOWN;
    bool rec_known = rec.winner == HS_WINNER_BLACK || rec.winner == HS_WINNER_WHITE
                     || rec.winner == HS_WINNER_DRAW;
    g->final_known = rec_known && ev != HS_WINNER_UNKNOWN;
    g->final_agrees = g->final_known && ev == rec.winner;
    g->final_move = last;
}

hs_report_final_t hs_report_final(const hs_report_game_t *g)
{
    if (!g->final_known)
        return HS_REPORT_FINAL_NONE;
    /* The engines evaluated with the recorded komi: a result it cannot give
     * says that komi is not the one played, whoever the evaluations favour. */
    if (!hs_result_fits_komi(&g->game.result, g->game.komi))
        return HS_REPORT_FINAL_KOMI;
    return g->final_move < g->game.num_moves ? HS_REPORT_FINAL_PARTIAL : HS_REPORT_FINAL_END;
}

/* Everything computed from the picks once the pass is done. */
static int s_derive(hs_report_game_t *g, const s_pick_t *picks, int num_pos, hs_error_t *err)
{
    float *tmp = malloc(4 * (size_t)num_pos * sizeof *tmp);
    if (!tmp)
        return hs_error_set(err, HS_ENOMEM, "out of memory (game report)");
    float *dwr = tmp, *dlead = tmp + num_pos, *lpts = tmp + 2 * num_pos,
          *lwr = tmp + 3 * num_pos;
    s_fill_pos(g, picks, num_pos);
    dwr[0] = dlead[0] = lpts[0] = lwr[0] = NAN;
    for (int m = 1; m < num_pos; m++) {
        s_loss(g, picks, m, &dwr[m], &dlead[m]);
        lpts[m] = g->pos[m].loss_points;
        lwr[m] = g->pos[m].loss_win_rate;
    }
    s_mistakes(g, lpts, lwr);
    s_swings(g, dwr, dlead);
    s_final(g);
    free(tmp);
    return 0;
}

int hs_report_game_load(hs_store_t *s, const uint64_t id[2], hs_report_game_t *out,
                        hs_error_t *err)
{
    return hs_report_game_load_moves(s, id, NULL, out, err);
}

int hs_report_game_load_moves(hs_store_t *s, const uint64_t id[2],
                              const hs_report_moves_t *only, hs_report_game_t *out,
                              hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    int rc = hs_store_game_get(s, id, &out->game, &out->source, &out->job_id, err);
    if (rc) {
        hs_report_game_fini(out);
        return rc;
    }
    /* The store keeps RE as written; every reader of the report wants it read. */
    if (out->game.result.winner == HS_WINNER_UNKNOWN && out->game.result_raw)
        hs_result_parse(out->game.result_raw, &out->game.result);
    int num_pos = out->game.num_moves + 1;
    if (only)
        out->only = *only;
    s_load_t l = { .s = s, .num_pos = num_pos, .only = &out->only, .err = err };
    out->pos = malloc((size_t)num_pos * sizeof *out->pos);
    l.picks = calloc((size_t)num_pos * HS_SOURCE_COUNT, sizeof *l.picks);
    if (!out->pos || !l.picks)
        rc = hs_error_set(err, HS_ENOMEM, "out of memory (game report)");
    if (!rc)
        rc = hs_store_game_evals(s, id, 0, -1, 0, s_on_eval, &l, err);
    if (!rc)
        rc = s_derive(out, l.picks, num_pos, err);
    free(l.picks);
    if (rc)
        hs_report_game_fini(out);
    return rc;
}

void hs_report_game_fini(hs_report_game_t *g)
{
    if (!g)
        return;
    hs_game_fini(&g->game);
    free(g->source);
    free(g->pos);
    memset(g, 0, sizeof *g);
}
