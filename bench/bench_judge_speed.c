/*
 * bench/bench_judge_speed.c — positions per second, single thread, for Park's
 * influence and the position judgment on 19x19 positions from the pro archive.
 *
 * usage: bench_judge_speed PRO19_ARCHIVE [MAX_POSITIONS [MODES]]
 *   MODES: digits of the configurations to run (default "01234"; "2" runs
 *   judge + influence only, e.g. for a profiler). "c" instead prints one
 *   checksum line per position (judge classes, ownership, weights, counts,
 *   must-fill; influence SI, IPs, lumps, cores, IA, territory, scores; the
 *   final-position config with playouts on every 10th position) and nothing
 *   else: diff two builds' output to check an optimisation changed nothing.
 *
 * Positions: moves 50, 100, 150, 200 of the archive's 19x19 games in read
 * order, up to MAX_POSITIONS (default 4000), replayed once into memory first.
 * Then each configuration runs over all of them, repeated until >= 1 s:
 *   influence only        hs_influence_compute, every stone weighs 1
 *   judge + influence     hs_judge_compute (eye analysis) + influence with the
 *                         judge's weights — the "without deep reading" figure
 *   + stability           hs_stability_compute without a reader first
 *   + stability, reader   the same with the tactical reader (first 500 positions)
 * Peer in the same run: a plain copy of every board (memcpy), to show the cost
 * of touching the data at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/board.h"
#include "core/game.h"
#include "ingest/ingest.h"
#include "worker/influence.h"
#include "worker/judge.h"
#include "worker/stability.h"
#include "worker/tactics.h"

typedef struct ctx {
    hs_board_t *boards;
    int n, cap;
} ctx_t;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);   /* per CPU-second: the machine is shared */
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int s_on_game(void *vctx, const char *source, int index, hs_game_t *g)
{
    ctx_t *c = vctx;
    if (g->size != 19) return 0;
    for (int m = 50; m <= 200 && m <= g->num_moves; m += 50) {
        if (c->n == c->cap) return 1;   /* enough: stop the ingest */
        if (hs_game_replay(g, m, &c->boards[c->n], NULL) == 0) c->n++;
    }
    return 0;
}

static volatile int s_sink;

static uint64_t s_fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* One checksum line per position: see "c" in the usage above. */
static void s_checksums(const ctx_t *c, hs_judge_t *j, hs_influence_t *inf)
{
    hs_judge_config_t fin;
    hs_judge_config_final(&fin);
    for (int i = 0; i < c->n; i++) {
        const hs_board_t *b = &c->boards[i];
        const size_t np = (size_t)hs_board_num_points(b);
        for (int k = 0; k < 2; k++) {
            if (k == 1 && i % 10) break;
            hs_judge_compute(b, NULL, k ? &fin : NULL, j, NULL);
            hs_influence_compute(b, j->weight, HS_INFLUENCE_TAU_DEFAULT, inf, NULL);
            uint64_t h = 0xcbf29ce484222325ULL;
            h = s_fnv(h, j->cls, np);
            h = s_fnv(h, j->ownership, np * sizeof(float));
            h = s_fnv(h, j->weight, np * sizeof(float));
            h = s_fnv(h, j->count, sizeof j->count);
            h = s_fnv(h, j->seki_eye, sizeof j->seki_eye);
            h = s_fnv(h, j->must_fill, sizeof j->must_fill);
            h = s_fnv(h, &j->rounds, sizeof j->rounds);
            h = s_fnv(h, inf->si, np * sizeof(int16_t));
            h = s_fnv(h, inf->ip, np);
            h = s_fnv(h, inf->lump, np * sizeof(int16_t));
            h = s_fnv(h, inf->core, np);
            h = s_fnv(h, inf->ia, np);
            h = s_fnv(h, inf->territory, np);
            h = s_fnv(h, &inf->num_lumps, sizeof inf->num_lumps);
            h = s_fnv(h, inf->ip_count, sizeof inf->ip_count * 6);   /* the six count arrays */
            if (k == 0) {   /* and Park's pure SI: every stone weighs 1 */
                hs_influence_compute(b, NULL, HS_INFLUENCE_TAU_DEFAULT, inf, NULL);
                h = s_fnv(h, inf->si, np * sizeof(int16_t));
                h = s_fnv(h, inf->ia, np);
                h = s_fnv(h, inf->territory, np);
                h = s_fnv(h, inf->ip_count, sizeof inf->ip_count * 6);
            }
            printf("%d %d %016llx %.1f %.1f\n", i, k, (unsigned long long)h,
                   hs_judge_score_territory(j, b, 0), hs_judge_score_area(j, 0, 0));
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_judge_speed PRO19_ARCHIVE [MAX_POSITIONS [MODES]]\n");
        return 2;
    }
    ctx_t c = {0};
    c.cap = argc > 2 ? atoi(argv[2]) : 4000;
    c.boards = malloc(sizeof *c.boards * (size_t)c.cap);
    hs_influence_t *inf = malloc(sizeof *inf);
    hs_judge_t *j = malloc(sizeof *j);
    hs_stability_t *st = malloc(sizeof *st);
    hs_board_t *copy = malloc(sizeof *copy);
    if (!c.boards || !inf || !j || !st || !copy) return 1;
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.on_game = s_on_game;
    o.ctx = &c;
    hs_ingest_report_t rep;
    const char *paths[1] = {argv[1]};
    hs_ingest_run(paths, 1, &o, &rep, NULL);
    hs_ingest_report_fini(&rep);
    if (!c.n) { fprintf(stderr, "no 19x19 positions read from %s\n", argv[1]); return 1; }
    printf("judge_speed: %d positions (moves 50/100/150/200 of 19x19 pro games), one thread\n", c.n);

    hs_reader_t *reader = hs_reader_new(NULL);
    hs_stability_config_t scfg;
    hs_stability_config_default(&scfg);
    const char *names[5] = {"board copy (peer: touching the data)", "influence only (tau 140, weights 1)",
                            "judge + influence (no deep reading)", "stability + judge + influence (no reader)",
                            "stability (reader on) + judge + influence"};
    double rate[5] = {0};
    const char *modes = argc > 3 ? argv[3] : "01234";
    if (strchr(modes, 'c')) {
        s_checksums(&c, j, inf);
        modes = "";
    }
    for (int mode = 0; mode < 5; mode++) {
        if (!strchr(modes, '0' + mode))
            continue;
        int npos = mode == 4 ? (c.n < 500 ? c.n : 500) : c.n;
        long done = 0;
        double t0 = s_now(), t;
        do {
            for (int i = 0; i < npos; i++) {
                const hs_board_t *b = &c.boards[i];
                switch (mode) {
                case 0:
                    memcpy(copy, b, sizeof *copy);
                    s_sink += copy->num_empty;
                    break;
                case 1:
                    hs_influence_compute(b, NULL, HS_INFLUENCE_TAU_DEFAULT, inf, NULL);
                    s_sink += inf->score[HS_BLACK];
                    break;
                case 2:
                    hs_judge_compute(b, NULL, NULL, j, NULL);
                    hs_influence_compute(b, j->weight, HS_INFLUENCE_TAU_DEFAULT, inf, NULL);
                    s_sink += inf->score[HS_BLACK];
                    break;
                case 3:
                case 4:
                    hs_stability_compute(b, &scfg, mode == 4 ? reader : NULL, st, NULL);
                    hs_judge_compute(b, NULL, NULL, j, NULL);
                    for (int p = 0; p < HS_BOARD_MAX_POINTS; p++)
                        if (j->weight[p] != 0.0f) j->weight[p] = st->point[p];
                    hs_influence_compute(b, j->weight, HS_INFLUENCE_TAU_DEFAULT, inf, NULL);
                    s_sink += inf->score[HS_BLACK];
                    break;
                }
            }
            done += npos;
            t = s_now() - t0;
        } while (t < 1.0);
        rate[mode] = done / t;
        printf("  %-44s %10.0f positions/s  (%.1f us each)\n", names[mode], rate[mode], 1e6 / rate[mode]);
    }
    if (rate[2] > 0)
        printf("goal: judge + influence >= 20000 positions/s: %s\n", rate[2] >= 20000 ? "met" : "NOT met");
    hs_reader_destroy(&reader);
    free(c.boards);
    free(inf);
    free(j);
    free(st);
    free(copy);
    return 0;
}
