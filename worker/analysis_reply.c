/*
 * worker/analysis_reply.c — a turn's reply in KataGo's layout: moveInfos
 * (with their ownership where asked), rootInfo, ownership, ownershipStdev
 * and policy, from one search result.
 *
 * worker/mcts.h reports Black's view (and each move's utility and lcb from
 * the mover's, i.e. the side to move at the root); here everything is turned
 * to the query's perspective. Boards are square, so KataGo's row-major order
 * "from the top-left (A19) to the bottom-right (T1)" is exactly our vertex
 * order v = y * size + x with y counted from the top.
 */
#include <inttypes.h>

#include "core/json.h"
#include "core/symmetry.h"
#include "worker/analysis_internal.h"

typedef struct s_view {
    double sign;      /* Black's value times sign = the reported one */
    double mover;     /* the side to move's value times mover = Black's */
} s_view_t;

static s_view_t s_view_of(const hs__aquery_t *q, hs_color_t to_move)
{
    s_view_t v = { 1, to_move == HS_BLACK ? 1 : -1 };
    if (q->report_as == HS_ANALYSIS_WHITE
        || (q->report_as == HS_ANALYSIS_SIDE && to_move == HS_WHITE))
        v.sign = -1;
    return v;
}

/* A Black win rate (or one in [0,1] of the same kind) in the reported view. */
static double s_wr(s_view_t v, double black)
{
    return v.sign > 0 ? black : 1.0 - black;
}

static void s_key_num(FILE *f, const char *key, double x)
{
    fprintf(f, ",\"%s\":", key);
    hs__aout_num(f, x);
}

static void s_move_name(FILE *f, const hs_board_t *b, int v)
{
    int n = b->size;
    char name[8];
    hs_point_t p = v >= n * n ? HS_PASS : hs_board_point(b, v % n, v / n);
    hs_json_string(f, hs_board_point_name(b, p, name));
}

static void s_pv(FILE *f, const hs_board_t *b, const char *key, const int *xs, int len,
                 bool names)
{
    fprintf(f, ",\"%s\":[", key);
    for (int i = 0; i < len; i++) {
        if (i)
            fputc(',', f);
        if (names)
            s_move_name(f, b, xs[i]);
        else
            fprintf(f, "%d", xs[i]);
    }
    fputc(']', f);
}

static void s_array(FILE *f, const char *key, const float *xs, int n, double mul);

/* includeMovesOwnership(Stdev): the ownership after the move, as the root's
 * (the report's perspective, KataGo's 6 decimals). A move whose ownership
 * is not known (no evaluation behind it: hs_mcts_move_ownership) gets
 * neither key rather than an average of nothing. */
static void s_move_own(FILE *f, const hs__aturn_t *t, s_view_t v, const hs_mcts_move_info_t *mi)
{
    const hs__aquery_t *q = t->q;
    float own[HS_MCTS_MAX_AREA], sd[HS_MCTS_MAX_AREA];
    if ((!q->moves_own && !q->moves_own_stdev) || hs_mcts_move_ownership(t->m, mi, own, sd) <= 0)
        return;
    int area = q->size * q->size;
    if (q->moves_own)
        s_array(f, "ownership", own, area, v.sign);
    if (q->moves_own_stdev)
        s_array(f, "ownershipStdev", sd, area, 1);
}

static void s_move_info(FILE *f, const hs__aturn_t *t, const hs_board_t *b, s_view_t v,
                        const hs_mcts_move_info_t *mi)
{
    const hs__aquery_t *q = t->q;
    double lead = mi->score_lead * v.sign;
    double black_lcb = v.mover > 0 ? mi->lcb : 1.0 - mi->lcb;
    fputs("{\"move\":", f);
    s_move_name(f, b, mi->move);
    fprintf(f, ",\"visits\":%d,\"edgeVisits\":%d", mi->child_visits, mi->visits);
    s_key_num(f, "winrate", s_wr(v, mi->winrate));
    s_key_num(f, "scoreMean", lead);
    s_key_num(f, "scoreLead", lead);
    s_key_num(f, "scoreSelfplay", mi->score_selfplay * v.sign);
    s_key_num(f, "scoreStdev", mi->score_stdev);
    s_key_num(f, "prior", mi->prior);
    s_key_num(f, "utility", mi->utility * v.mover * v.sign);
    s_key_num(f, "lcb", s_wr(v, black_lcb));
    s_key_num(f, "utilityLcb", mi->utility_lcb * v.mover * v.sign);
    s_key_num(f, "weight", mi->weight);
    s_key_num(f, "edgeWeight", mi->edge_weight);
    s_key_num(f, "playSelectionValue", mi->play_selection);
    if (q->no_result)
        s_key_num(f, "noResultValue", 0);
    fprintf(f, ",\"order\":%d", mi->order);
    if (mi->sym_of >= 0) {
        fputs(",\"isSymmetryOf\":", f);
        s_move_name(f, b, mi->sym_of);
    }
    int len = mi->pv_len < 1 + q->pv_len ? mi->pv_len : 1 + q->pv_len;
    s_pv(f, b, "pv", mi->pv, len, true);
    if (q->pv_visits) {
        s_pv(f, b, "pvVisits", mi->pv_visits, len, false);
        s_pv(f, b, "pvEdgeVisits", mi->pv_edge_visits, len, false);
    }
    s_move_own(f, t, v, mi);
    fputc('}', f);
}

/* splitmix64's finaliser: every bit of x moves about half of the result's. */
static uint64_t s_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* thisHash: one value per position as KataGo's names one (its stones, the
 * board's size, the player to move, the ko point). hs_board_key covers the
 * stones, the board's side to move and its ko point, but not the size (the
 * empty board with Black to move is 0 on every size), and the player is the
 * search's: both go in through the mixer, which also keeps an empty board
 * from reading 0. */
static uint64_t s_this_hash(const hs_board_t *b, hs_color_t to_move)
{
    uint64_t extra = (uint64_t)b->size << 8 | (uint64_t)to_move;
    return s_mix(hs_board_key(b) ^ s_mix(extra + 0x9E3779B97F4A7C15ull));
}

/* symHash: thisHash of the board's orientation whose stones hash least
 * (core/symmetry.h), so that positions equal under a symmetry share it, as
 * KataGo's; the ko point goes in as seen in that orientation. */
static uint64_t s_sym_hash(const hs_board_t *b, hs_color_t to_move)
{
    int sym = 0, n = b->size;
    uint64_t stones = hs_board_canonical_key(b, &sym, NULL);
    uint64_t ko = 0;
    if (b->ko != HS_NO_POINT && hs_board_on_board(b, b->ko)) {
        int x, y;
        hs_sym_apply(n, sym, hs_board_x(b, b->ko), hs_board_y(b, b->ko), &x, &y);
        ko = (uint64_t)(y * n + x + 1) << 16;
    }
    uint64_t extra = ko | (uint64_t)n << 8 | (uint64_t)to_move;
    return s_mix(stones ^ s_mix(extra + 0x9E3779B97F4A7C15ull));
}

static void s_root_info(FILE *f, const hs_mcts_result_t *r, const hs_board_t *b, s_view_t v)
{
    fprintf(f, ",\"rootInfo\":{\"visits\":%d", r->visits);
    s_key_num(f, "winrate", s_wr(v, r->winrate));
    s_key_num(f, "scoreLead", r->score_lead * v.sign);
    s_key_num(f, "scoreSelfplay", r->score_selfplay * v.sign);
    s_key_num(f, "scoreStdev", r->score_stdev);
    s_key_num(f, "utility", r->utility * v.mover * v.sign);
    s_key_num(f, "rawWinrate", s_wr(v, r->raw_winrate));
    s_key_num(f, "rawLead", r->raw_score * v.sign);
    s_key_num(f, "rawScoreSelfplay", r->raw_score_selfplay * v.sign);
    s_key_num(f, "rawScoreSelfplayStdev", r->raw_score_selfplay_stdev);
    s_key_num(f, "weight", r->weight);
    fprintf(f, ",\"thisHash\":\"%016" PRIX64 "\",\"symHash\":\"%016" PRIX64 "\"",
            s_this_hash(b, r->to_move), s_sym_hash(b, r->to_move));
    fprintf(f, ",\"currentPlayer\":\"%c\"}", r->to_move == HS_BLACK ? 'B' : 'W');
}

static void s_array(FILE *f, const char *key, const float *xs, int n, double mul)
{
    fprintf(f, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        hs__aout_num6(f, xs[i] * mul);   /* ownership: KataGo's 6 decimals */
    }
    fputc(']', f);
}

static void s_policy(FILE *f, const hs_mcts_result_t *r)
{
    int n = r->size * r->size + 1;
    fputs(",\"policy\":[", f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        if (r->policy[i] < 0)
            fputs("-1", f);   /* illegal, as KataGo marks it */
        else
            hs__aout_num(f, r->policy[i]);
    }
    fputc(']', f);
}

void hs__areply(hs__aout_t *o, const hs__aturn_t *t, bool during, hs_mcts_result_t *r)
{
    hs_mcts_get_result(t->m, r);
    const hs_board_t *b = hs_mcts_root_board(t->m);
    s_view_t v = s_view_of(t->q, r->to_move);
    FILE *f = o->f;
    hs__aout_lock(o);
    fputs("{\"id\":", f);
    hs_json_string(f, t->q->id);
    fprintf(f, ",\"turnNumber\":%d,\"isDuringSearch\":%s,\"moveInfos\":[", t->turn,
            during ? "true" : "false");
    for (int i = 0; i < r->num_moves; i++) {
        if (i)
            fputc(',', f);
        s_move_info(f, t, b, v, &r->moves[i]);
    }
    fputc(']', f);
    s_root_info(f, r, b, v);
    int area = r->size * r->size;
    if (t->q->own)
        s_array(f, "ownership", r->ownership, area, v.sign);
    if (t->q->own_stdev)
        s_array(f, "ownershipStdev", r->ownership_stdev, area, 1);
    if (t->q->policy)
        s_policy(f, r);
    fputc('}', f);
    hs__aout_unlock(o);
}

void hs__areply_none(hs__aout_t *o, const hs__aturn_t *t)
{
    hs__aout_lock(o);
    fputs("{\"id\":", o->f);
    hs_json_string(o->f, t->q->id);
    fprintf(o->f, ",\"turnNumber\":%d,\"isDuringSearch\":false,\"noResults\":true}", t->turn);
    hs__aout_unlock(o);
}
