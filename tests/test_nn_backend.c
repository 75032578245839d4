/*
 * tests/test_nn_backend.c — the cpu backend (oneDNN) against the ref backend
 * on the real b6c96 net: random legal positions (playouts through core/) on
 * 19x19, 9x9 and 13x13 boards, in batches of 1, 3 and 32 through one backend
 * instance (so its plan cache switches shapes back and forth). Every raw
 * output must agree within 1e-4 of its scale (the largest magnitude of that
 * output kind in the ref's batch, at least 1). Twice: with direct 3x3
 * convolutions and with Winograd (HS_DNNL_WINOGRAD=0 and 1; where this
 * oneDNN has no CPU Winograd the second is direct again). Skips (77) where
 * ../shared or oneDNN is absent.
 */
#include <math.h>

#include "core/playout.h"
#include "test.h"
#include "worker/nn/backend.h"

#define NET "/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz"
#define TOL 1e-4
#define DISTINCT 8    /* distinct positions per board size (ref is slow) */

typedef struct game {
    hs_board_t board, prev[2];
    hs_nn_pos_t pos;
} game_t;

/* A position after a random number of random legal moves, with its history. */
static void s_game(game_t *g, int n, uint64_t seed)
{
    hs_rng_t rng;
    hs_rng_seed(&rng, seed);
    hs_board_init(&g->board, n);
    memset(&g->pos, 0, sizeof g->pos);
    int moves = (int)(hs_rng_next(&rng) % (uint64_t)(n * n));
    for (int k = 0; k < moves; k++) {
        hs_color_t c = g->board.to_move;
        hs_point_t p = hs_playout_pick(&g->board, &rng);
        g->prev[1] = g->prev[0];
        hs_board_copy(&g->prev[0], &g->board);
        if (p == HS_PASS)
            hs_board_play(&g->board, c, HS_PASS, 0, NULL);
        else
            hs_board_play_legal(&g->board, c, p);
        if (g->pos.n_hist == HS_NN_HISTORY) {
            memmove(g->pos.hist_color, g->pos.hist_color + 1, (HS_NN_HISTORY - 1) * sizeof(hs_color_t));
            memmove(g->pos.hist_move, g->pos.hist_move + 1, (HS_NN_HISTORY - 1) * sizeof(hs_point_t));
            g->pos.n_hist--;
        }
        g->pos.hist_color[g->pos.n_hist] = c;
        g->pos.hist_move[g->pos.n_hist++] = p;
        *(c == HS_BLACK ? &g->pos.stones_black : &g->pos.stones_white) += p != HS_PASS;
    }
    g->pos.board = &g->board;
    g->pos.to_move = g->board.to_move;
    g->pos.rules = seed % 2 ? HS_RULES_CHINESE : HS_RULES_JAPANESE;
    g->pos.komi = 7.5;
    g->pos.prev1 = moves >= 1 ? &g->prev[0] : NULL;
    g->pos.prev2 = moves >= 2 ? &g->prev[1] : NULL;
}

static double s_scale(const hs_nn_raw_t *r, int batch, int kind, int count)
{
    double s = 1.0;
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < count; i++) {
            const float *v = kind == 0 ? r[b].policy : kind == 1 ? r[b].value
                           : kind == 2 ? r[b].score : r[b].ownership;
            s = fmax(s, fabs(v[i]));
        }
    return s;
}

/* Compares every raw output of got against want; returns the worst diff
 * relative to its kind's scale. */
static double s_compare(const hs_nn_raw_t *want, const hs_nn_raw_t *got, int batch, int n,
                        int scores, const char *label)
{
    int a = n * n, counts[4] = {a + 1, 3, scores, a};
    const char *names[4] = {"policy", "value", "score", "ownership"};
    double worst = 0;
    for (int kind = 0; kind < 4; kind++) {
        double scale = s_scale(want, batch, kind, counts[kind]);
        for (int b = 0; b < batch; b++) {
            HS_CHECK_INT(got[b].n, n);
            for (int i = 0; i < counts[kind]; i++) {
                const float *w = kind == 0 ? want[b].policy : kind == 1 ? want[b].value
                               : kind == 2 ? want[b].score : want[b].ownership;
                const float *g = kind == 0 ? got[b].policy : kind == 1 ? got[b].value
                               : kind == 2 ? got[b].score : got[b].ownership;
                double d = fabs((double)w[i] - g[i]) / scale;
                if (!(d <= TOL))
                    fprintf(stderr, "%s board %d %s[%d]: ref %.6f cpu %.6f (scale %.2f)\n",
                            label, b, names[kind], i, w[i], g[i], scale);
                HS_CHECK(d <= TOL);
                worst = d > worst || d != d ? d : worst;
            }
        }
    }
    return worst;
}

/* Inputs of the boards idx[0..batch) into sp/gl. */
static void s_inputs(game_t *games, const int *idx, int batch, int n, float *sp, float *gl)
{
    size_t plane = (size_t)HS_NN_SPATIAL * (size_t)n * (size_t)n;
    hs_error_t err;
    for (int b = 0; b < batch; b++)
        HS_CHECK_INT(hs_nn_features(&games[idx[b]].pos, sp + (size_t)b * plane,
                                    gl + (size_t)b * HS_NN_GLOBAL, &err), 0);
}

static void s_size(hs_nn_backend_t *ref, hs_nn_backend_t *const *cpus, int n, int scores)
{
    static const int batches[] = {1, 3, 32};
    game_t *games = malloc(DISTINCT * sizeof *games);
    float *sp = malloc(32 * (size_t)HS_NN_SPATIAL * HS_NN_MAX_AREA * sizeof *sp);
    float *gl = malloc(32 * HS_NN_GLOBAL * sizeof *gl);
    hs_nn_raw_t *want = malloc(DISTINCT * sizeof *want), *got = malloc(32 * sizeof *got);
    hs_nn_raw_t *wb = malloc(32 * sizeof *wb);
    hs_error_t err;
    int idx[32];
    for (int i = 0; i < DISTINCT; i++) {
        s_game(&games[i], n, (uint64_t)(n * 1000 + i));
        idx[i] = i;
    }
    s_inputs(games, idx, DISTINCT, n, sp, gl);
    HS_CHECK_INT(hs_nn_backend_run(ref, DISTINCT, n, sp, gl, want, &err), 0);
    for (size_t k = 0; k < 2 * sizeof batches / sizeof *batches; k++) {
        int batch = batches[k % 3];
        hs_nn_backend_t *cpu = cpus[k / 3];
        for (int b = 0; b < batch; b++) {
            /* a different order in every batch: slots must not mix boards */
            idx[b] = (b * 7 + (int)k) % DISTINCT;
            wb[b] = want[idx[b]];
        }
        s_inputs(games, idx, batch, n, sp, gl);
        int rc = hs_nn_backend_run(cpu, batch, n, sp, gl, got, &err);
        if (rc)
            fprintf(stderr, "cpu run: %s\n", err.msg);
        HS_CHECK_INT(rc, 0);
        char label[64];
        snprintf(label, sizeof label, "%dx%d batch %d %s", n, n, batch,
                 k < 3 ? "direct" : "winograd");
        if (!rc)
            printf("%s: worst |cpu - ref| / scale = %.2e\n", label,
                   s_compare(wb, got, batch, n, scores, label));
    }
    free(games); free(sp); free(gl); free(want); free(got); free(wb);
}

int main(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s" NET, hs_test_data_dir());
    hs_error_t err;
    hs_nn_model_t *m = NULL;
    if (!hs_nn_backend_available(HS_NN_BACKEND_CPU, &err)) {
        printf("SKIP: %s\n", err.msg);
        return 77;
    }
    if (hs_nn_model_load(path, &m, &err) != 0) {
        printf("SKIP: the shared net is not here (%s)\n", path);
        return 77;
    }
    hs_nn_backend_t *ref = NULL, *cpu[2] = {NULL, NULL};
    hs_nn_backend_config_t rc = {HS_NN_BACKEND_REF, 32, 0, 0};
    hs_nn_backend_config_t cc = {HS_NN_BACKEND_CPU, 32, 0, 0};
    HS_CHECK_INT(hs_nn_backend_create(m, &rc, &ref, &err), 0);
    for (int w = 0; w < 2; w++) {
        setenv("HS_DNNL_WINOGRAD", w ? "1" : "0", 1);   /* read at create */
        int crc = hs_nn_backend_create(m, &cc, &cpu[w], &err);
        if (crc)
            fprintf(stderr, "cpu create: %s\n", err.msg);
        HS_CHECK_INT(crc, 0);
    }
    unsetenv("HS_DNNL_WINOGRAD");
    if (ref && cpu[0] && cpu[1]) {
        HS_CHECK_INT(hs_nn_backend_kind(cpu[0]), HS_NN_BACKEND_CPU);
        static const int sizes[] = {19, 9, 13};
        for (int i = 0; i < 3; i++)
            s_size(ref, cpu, sizes[i], m->sv3.out_c);
    }
    hs_nn_backend_free(&cpu[0]);
    hs_nn_backend_free(&cpu[1]);
    hs_nn_backend_free(&ref);
    hs_nn_model_free(&m);
    return hs_test_finish();
}
