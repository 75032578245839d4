/*
 * bench/bench_sgf_parse.c — single-thread throughput of our SGF path: every
 * member of an archive or folder preloaded into memory, then parsed, read as a
 * game, replayed with legality checks and given its id (hs_ingest_parse_buffer,
 * the exact per-file work ingest does), round after round until MIN_SECONDS.
 * Also times parsing alone (hs_sgf_parse_ex) for reference.
 *
 * usage: bench_sgf_parse PATH [MIN_SECONDS]     (PATH: archive, folder or .sgf)
 * Prints "hyeongse MODE: files N bytes B games G failed F rounds R seconds S
 * MB/s X games/s Y cpu_seconds C cpu_MB/s Z" (Z: per CPU-second of this
 * thread, steadier than the wall rate X on a shared machine).
 * bench/sgf_parse.sh runs it beside @sabaki/sgf on the same files and prints
 * the ratios.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sgf.h"
#include "ingest/archive.h"
#include "ingest/ingest.h"
#include "core/clock.h"

typedef struct {
    uint8_t **data;
    size_t *len;
    size_t n, cap, bytes;
} s_set_t;

static int s_keep(void *ctx, const char *source, uint8_t *data, size_t len)
{
    (void)source;
    s_set_t *s = ctx;
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 1024;
        uint8_t **nd = realloc(s->data, ncap * sizeof *nd);
        size_t *nl = realloc(s->len, ncap * sizeof *nl);
        if (nd)
            s->data = nd;
        if (nl)
            s->len = nl;
        if (!nd || !nl) {
            free(data);
            return 1;
        }
        s->cap = ncap;
    }
    s->data[s->n] = data;
    s->len[s->n++] = len;
    s->bytes += len;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_sgf_parse PATH [MIN_SECONDS]\n");
        return 2;
    }
    double min_seconds = argc > 2 ? atof(argv[2]) : 2.0;
    s_set_t set = { 0 };
    hs_archive_visitor_t v = { .member = s_keep };
    v.ctx = &set;
    const char *paths[] = { argv[1] };
    if (hs_archive_walk(paths, 1, 0, &v, NULL, NULL) != 0 || set.n == 0) {
        fprintf(stderr, "bench_sgf_parse: no SGF files read from %s\n", argv[1]);
        return 1;
    }

    /* Full path: parse + game + replay + id. */
    long rounds = 0;
    unsigned long long games = 0, failed = 0;
    double t0 = hs_clock_now(), c0 = hs_clock_thread_cpu(), secs;
    do {
        for (size_t i = 0; i < set.n; i++) {
            hs_ingest_file_t f;
            if (hs_ingest_parse_buffer(set.data[i], set.len[i], &f) != 0) {
                fprintf(stderr, "bench_sgf_parse: out of memory\n");
                return 1;
            }
            games += (unsigned long long)f.num_games;
            failed += (unsigned long long)f.num_failures;
            hs_ingest_file_fini(&f);
        }
        rounds++;
        secs = hs_clock_now() - t0;
    } while (secs < min_seconds);
    double cpu = hs_clock_thread_cpu() - c0;
    printf("hyeongse parse+replay: files %zu bytes %zu games %llu failed %llu rounds %ld "
           "seconds %.3f MB/s %.2f games/s %.1f cpu_seconds %.3f cpu_MB/s %.2f\n",
           set.n, set.bytes, games / (unsigned long long)rounds,
           failed / (unsigned long long)rounds, rounds, secs,
           (double)set.bytes * (double)rounds / 1e6 / secs, (double)games / secs, cpu,
           (double)set.bytes * (double)rounds / 1e6 / cpu);

    /* Parsing alone, for reference. */
    rounds = 0;
    unsigned long long trees = 0;
    t0 = hs_clock_now();
    c0 = hs_clock_thread_cpu();
    do {
        for (size_t i = 0; i < set.n; i++) {
            hs_sgf_collection_t *c = hs_sgf_parse_ex((const char *)set.data[i], set.len[i], NULL,
                                                     HS_SGF_RECOVER, NULL);
            if (c)
                trees += (unsigned long long)(c->num_trees - c->num_failed);
            hs_sgf_destroy(&c);
        }
        rounds++;
        secs = hs_clock_now() - t0;
    } while (secs < min_seconds);
    cpu = hs_clock_thread_cpu() - c0;
    printf("hyeongse parse: files %zu bytes %zu games %llu failed 0 rounds %ld seconds %.3f "
           "MB/s %.2f games/s %.1f cpu_seconds %.3f cpu_MB/s %.2f\n",
           set.n, set.bytes, trees / (unsigned long long)rounds, rounds, secs,
           (double)set.bytes * (double)rounds / 1e6 / secs, (double)trees / secs, cpu,
           (double)set.bytes * (double)rounds / 1e6 / cpu);
    for (size_t i = 0; i < set.n; i++)
        free(set.data[i]);
    free(set.data);
    free(set.len);
    return 0;
}
