/*
 * bench/bench_playouts.c — single-thread light random playouts per second on
 * 9x9 and 19x19 (core/playout.h), each for a fixed wall time, printed with the
 * goal from issue 2 and the ratio to it.
 *
 * usage: bench_playouts [SECONDS_PER_SIZE] [SEED]     (default 3 s, seed 1)
 *
 * There is no installable peer doing the same work; the context figure
 * (libego: 6-7k playouts/s on 19x19 on 2011 hardware) is printed as a line of
 * context, not measured. Rates are given per wall second and per CPU second
 * of the benchmark thread (CLOCK_THREAD_CPUTIME_ID): on a shared, loaded
 * machine the second is the meaningful one. A checksum of the results (mean Black margin, mean
 * game length) shows the playouts did real work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/board.h"
#include "core/playout.h"
#include "core/rng.h"

static double s_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double s_now(void) { return s_clock(CLOCK_MONOTONIC); }
static double s_cpu(void) { return s_clock(CLOCK_THREAD_CPUTIME_ID); }

static void s_run(int size, double seconds, uint64_t seed, double goal)
{
    hs_board_t empty, b;
    hs_board_init(&empty, size);
    hs_rng_t rng;
    hs_rng_seed(&rng, seed);
    double komi = 7.5, sum_margin = 0;
    long n = 0, moves = 0, black_wins = 0;
    double t0 = s_now(), t = t0, c0 = s_cpu();
    /* Slices of ~0.2 s: the best slice's CPU-time rate estimates the speed of an
     * unshared core on a machine other jobs are loading. */
    double best = 0, slice_t = t0, slice_c = c0;
    long slice_n = 0;
    while (t - t0 < seconds) {
        /* Check the clock every 64 playouts; a playout is microseconds. */
        for (int i = 0; i < 64; i++) {
            hs_board_copy(&b, &empty);
            double m = hs_playout_run(&b, &rng, komi, 0);
            sum_margin += m;
            black_wins += m > 0;
            moves += b.move_number;
            n++;
        }
        slice_n += 64;
        t = s_now();
        if (t - slice_t >= 0.2) {
            double c = s_cpu();
            if (c > slice_c && (double)slice_n / (c - slice_c) > best)
                best = (double)slice_n / (c - slice_c);
            slice_t = t;
            slice_c = c;
            slice_n = 0;
        }
    }
    double cpu = s_cpu() - c0;
    double rate = (double)n / (t - t0), cpu_rate = (double)n / cpu;
    printf("%dx%d: %ld playouts in %.2f s = %.0f playouts/s (%.1f M moves/s, %.1f moves/playout, "
           "mean margin %+.2f, black wins %.1f%%)\n",
           size, size, n, t - t0, rate, (double)moves / (t - t0) * 1e-6, (double)moves / (double)n,
           sum_margin / (double)n, 100.0 * (double)black_wins / (double)n);
    printf("%dx%d: per CPU-second of this thread: %.0f playouts/s (%.2f s CPU; differs from the wall "
           "rate when the machine is shared)\n", size, size, cpu_rate, cpu);
    printf("%dx%d: best 0.2 s slice: %.0f playouts/s per CPU-second\n", size, size, best);
    printf("%dx%d: goal %.0f playouts/s, ratio to goal %.2f (wall), %.2f (CPU time), %.2f (best slice)\n",
           size, size, goal, rate / goal, cpu_rate / goal, best / goal);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3.0;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (seconds <= 0)
        seconds = 3.0;
    s_run(9, seconds, seed, 100000.0);
    s_run(19, seconds, seed, 20000.0);
    printf("context: libego did 6-7k light playouts/s on 19x19 on 2011 hardware (not measured here)\n");
    return 0;
}
