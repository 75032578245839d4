/*
 * bench/bench_rollout.c — the rollout evaluator's playouts per CPU-second of
 * one thread (worker/mcts_eval.h), on the empty 9x9 board and on 19x19,
 * beside the light random playouts of core/playout.h in the same run (the
 * policy's price: captures, escapes with ladder reads, no big self-ataris).
 *
 * usage: bench_rollout [SECONDS_PER_SIZE] [SEED]     (default 1 s, seed 1)
 *
 * The evaluator runs with threads = 1, so all its work is on this thread and
 * CLOCK_THREAD_CPUTIME_ID measures it; each call is one leaf of 64 playouts.
 * Goal (issue 13's brief): more than 20,000 playouts/s per core on 9x9.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/board.h"
#include "core/clock.h"
#include "core/playout.h"
#include "worker/mcts_eval.h"

#define S_PLAYOUTS 64

static void s_run(int size, double seconds, uint64_t seed)
{
    hs_mcts_rollout_config_t cfg;
    hs_mcts_rollout_config_default(&cfg);
    cfg.threads = 1;
    cfg.playouts = S_PLAYOUTS;
    cfg.seed = seed;
    hs_mcts_evaluator_t ev;
    hs_error_t err = {0};
    if (hs_mcts_rollout_evaluator_create(&cfg, &ev, &err)) {
        fprintf(stderr, "bench_rollout: %s\n", err.msg);
        exit(1);
    }
    hs_board_t b;
    hs_board_init(&b, size);
    hs_mcts_eval_t *out = malloc(sizeof *out);
    if (!out)
        exit(1);
    /* A different leaf each call (the seed follows the board key): one stone
     * moves over the board. */
    long leaves = 0;
    double value = 0, c0 = hs_clock_thread_cpu(), c = c0;
    while (c - c0 < seconds) {
        hs_board_t leaf;
        hs_board_copy(&leaf, &b);
        hs_point_t p = leaf.empty[leaves % leaf.num_empty];
        hs_board_play(&leaf, HS_BLACK, p, 0, NULL);
        hs_nn_pos_t pos = { .board = &leaf, .to_move = HS_WHITE, .rules = HS_RULES_CHINESE,
                            .komi = 7.0 };
        if (ev.eval(ev.ctx, &pos, 1, out, &err)) {
            fprintf(stderr, "bench_rollout: %s\n", err.msg);
            exit(1);
        }
        value += out->value;
        leaves++;
        c = hs_clock_thread_cpu();
    }
    double rate = (double)(leaves * S_PLAYOUTS) / (c - c0);
    /* The light playouts on the same board, for the same time. */
    hs_rng_t rng;
    hs_rng_seed(&rng, seed);
    long light = 0;
    double l0 = hs_clock_thread_cpu(), l = l0;
    while (l - l0 < seconds) {
        for (int i = 0; i < 64; i++) {
            hs_board_t w;
            hs_board_copy(&w, &b);
            hs_playout_run(&w, &rng, 7.0, 0);
        }
        light += 64;
        l = hs_clock_thread_cpu();
    }
    double light_rate = (double)light / (l - l0);
    printf("%dx%d: rollout evaluator %.0f playouts per CPU-second (%ld leaves x %d, mean value "
           "for White %+.3f); light random playouts %.0f/s; ratio %.2f\n",
           size, size, rate, leaves, S_PLAYOUTS, value / (double)leaves, light_rate,
           rate / light_rate);
    free(out);
    hs_mcts_evaluator_free(&ev);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (seconds <= 0)
        seconds = 1.0;
    s_run(9, seconds, seed);
    s_run(19, seconds, seed);
    printf("goal: > 20,000 playouts/s per core on 9x9\n");
    return 0;
}
