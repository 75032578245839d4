/*
 * bench/bench_influence_tau.c — Park's threshold experiment on our data: for
 * tau = 0, 10, ..., 200, the error of the influence-based score against a
 * reference, as mean, mean deviation and standard deviation (the paper's Table 1).
 *
 * usage: bench_influence_tau PRO19_ARCHIVE [MAX_GAMES]
 *
 * Games: pro19 games with a counted result (RE B+n/W+n, n > 0) and a komi we can
 * trust: KM written in Fox's points/zi codes (650, 750, 375, 325) or plainly and
 * non-zero (AlphaGo games). Fox KM[0] is skipped (SOURCES.md: not the real komi).
 *
 * Two experiments, both with Park's pure SI (every stone weighs 1):
 *  1. "corner openings" (the paper's joseki analogue): positions after moves 20,
 *     30 and 40; the score is counted inside the four 7x7 corners only and the
 *     reference is 0 (a joseki leaves both sides even: the paper counts komi 0).
 *  2. "whole board": positions at moves 100, 150 and 200; the reference is the
 *     final result plus komi (Black minus White on the board), the score is over
 *     the whole board.
 * For each, two scores as in the paper: territory + IP points, and territory +
 * IA points (influence.h defines territory). Error e = |score - reference|;
 * reported: mean of e, mean deviation of e (mean |e - mean|), standard deviation of e.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/game.h"
#include "ingest/ingest.h"
#include "worker/influence.h"

#define NTAU 21
#define MAXPOS 200000

typedef struct acc {
    double *e[NTAU];
    int n;
} acc_t;

typedef struct ctx {
    int max_games, games;
    acc_t corner_ip, corner_ia, whole_ip, whole_ia;
    hs_influence_t inf;
} ctx_t;

static void s_push(acc_t *a, int t, double e)
{
    if (a->n < MAXPOS) a->e[t][a->n] = e;
}

/* Park score difference (Black - White) counting territory + IP (use_ia 0) or
 * territory + IA (use_ia 1), over the whole board or only the 7x7 corners. */
static double s_score(const hs_board_t *b, const hs_influence_t *inf, bool use_ia, bool corners)
{
    int n = b->size, d = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            if (corners && !((x < 7 || x >= n - 7) && (y < 7 || y >= n - 7))) continue;
            hs_point_t p = hs_board_point(b, x, y);
            int s = inf->territory[p] ? inf->territory[p] : use_ia ? inf->ia[p] : inf->ip[p];
            d += s;
        }
    return d;
}

static int s_on_game(void *vctx, const char *source, int index, hs_game_t *g)
{
    ctx_t *c = vctx;
    if (g->size != 19 || g->result.kind != HS_RESULT_POINTS || g->result.margin <= 0) return 0;
    if (g->result.winner != HS_WINNER_BLACK && g->result.winner != HS_WINNER_WHITE) return 0;
    if (g->komi_source == HS_KOMI_DEFAULT || g->komi == 0.0) return 0;
    if (c->games >= c->max_games) return 1;
    c->games++;
    double final = (g->result.winner == HS_WINNER_BLACK ? g->result.margin : -g->result.margin) + g->komi;
    static const int moves[6] = {20, 30, 40, 100, 150, 200};
    for (int k = 0; k < 6; k++) {
        if (moves[k] > g->num_moves) break;
        hs_board_t b;
        if (hs_game_replay(g, moves[k], &b, NULL)) break;
        bool corner = k < 3;
        acc_t *aip = corner ? &c->corner_ip : &c->whole_ip, *aia = corner ? &c->corner_ia : &c->whole_ia;
        double ref = corner ? 0.0 : final;
        for (int t = 0; t < NTAU; t++) {
            hs_influence_compute(&b, NULL, t * 10, &c->inf, NULL);
            s_push(aip, t, fabs(s_score(&b, &c->inf, false, corner) - ref));
            s_push(aia, t, fabs(s_score(&b, &c->inf, true, corner) - ref));
        }
        if (aip->n < MAXPOS) { aip->n++; aia->n++; }
    }
    return 0;
}

static void s_stats(const double *e, int n, double *mean, double *md, double *sd)
{
    double s = 0, m = 0, v = 0;
    for (int i = 0; i < n; i++) s += e[i];
    m = n ? s / n : 0;
    double dev = 0;
    for (int i = 0; i < n; i++) { dev += fabs(e[i] - m); v += (e[i] - m) * (e[i] - m); }
    *mean = m;
    *md = n ? dev / n : 0;
    *sd = n > 1 ? sqrt(v / (n - 1)) : 0;
}

static void s_table(const char *title, const acc_t *ip, const acc_t *ia)
{
    printf("\n%s: %d positions\n", title, ip->n);
    printf("  tau | IP error: mean    md    sd | IA error: mean    md    sd\n");
    int best_ip = 0, best_ia = 0;
    double bip = 1e30, bia = 1e30;
    for (int t = 0; t < NTAU; t++) {
        double m1, d1, s1, m2, d2, s2;
        s_stats(ip->e[t], ip->n, &m1, &d1, &s1);
        s_stats(ia->e[t], ia->n, &m2, &d2, &s2);
        printf("  %3d |          %5.1f %5.1f %5.1f |          %5.1f %5.1f %5.1f\n", t * 10, m1, d1, s1, m2, d2, s2);
        if (m1 < bip) { bip = m1; best_ip = t * 10; }
        if (m2 < bia) { bia = m2; best_ia = t * 10; }
    }
    printf("  lowest mean error: IP at tau %d (%.1f), IA at tau %d (%.1f); paper (83 joseki): tau 140,"
           " IP 5.0/5.0/5.9, IA 11/8/10.5\n", best_ip, bip, best_ia, bia);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_influence_tau PRO19_ARCHIVE [MAX_GAMES]\n");
        return 2;
    }
    ctx_t *c = calloc(1, sizeof *c);
    if (!c) return 1;
    c->max_games = argc > 2 ? atoi(argv[2]) : 1000;
    acc_t *all[4] = {&c->corner_ip, &c->corner_ia, &c->whole_ip, &c->whole_ia};
    for (int a = 0; a < 4; a++)
        for (int t = 0; t < NTAU; t++)
            if (!(all[a]->e[t] = malloc(sizeof(double) * 3 * (size_t)c->max_games + 8))) return 1;
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.on_game = s_on_game;
    o.ctx = c;
    hs_ingest_report_t rep;
    const char *paths[1] = {argv[1]};
    hs_ingest_run(paths, 1, &o, &rep, NULL);
    hs_ingest_report_fini(&rep);
    printf("influence_tau: %d pro19 games with a counted result and a trusted komi (Park's pure SI,"
           " every stone weighs 1)\n", c->games);
    s_table("corner openings (moves 20/30/40, four 7x7 corners, reference 0)", &c->corner_ip, &c->corner_ia);
    s_table("whole board (moves 100/150/200, reference = final result + komi)", &c->whole_ip, &c->whole_ia);
    for (int a = 0; a < 4; a++)
        for (int t = 0; t < NTAU; t++) free(all[a]->e[t]);
    free(c);
    return 0;
}
