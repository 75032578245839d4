/*
 * bench/bench_repeats.c — how often an archive's positions repeat, and where:
 * what a cache of evaluations in a worker could save (a store keeps the first
 * eval of a position key and drops the others, but each was computed).
 *   bench_repeats ARCHIVE...
 * Replays every good game in ingest order (one thread: the order of a job) and
 * counts a position as repeated when its key (core/poskey.h: board, side to
 * move, ko, komi, rules, the last 8 moves) was seen before; prints the share,
 * the repeats by move number, and by distance (positions of the stream since
 * the key was last seen: the size an LRU cache would need).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "ingest/ingest.h"

#define S_BITS 23   /* open addressing: 8 M slots, room for 4 M distinct keys */

typedef struct {
    uint8_t key[16];
    uint64_t last;   /* stream position of its last sighting; 0 = empty slot */
} s_slot_t;

typedef struct {
    s_slot_t *slot;
    uint64_t seq, distinct, repeats, by_move[6], by_dist[5];
    int full;
} s_count_t;

static int s_move_bin(int m)
{
    return m < 10 ? 0 : m < 20 ? 1 : m < 30 ? 2 : m < 50 ? 3 : m < 100 ? 4 : 5;
}

static int s_dist_bin(uint64_t d)
{
    return d < 1000 ? 0 : d < 10000 ? 1 : d < 100000 ? 2 : d < 1000000 ? 3 : 4;
}

static void s_see(s_count_t *c, const uint8_t key[16], int move)
{
    uint64_t h;
    memcpy(&h, key, 8);
    size_t mask = ((size_t)1 << S_BITS) - 1, i = (size_t)h & mask;
    while (c->slot[i].last && memcmp(c->slot[i].key, key, 16))
        i = (i + 1) & mask;
    c->seq++;
    if (c->slot[i].last) {
        c->repeats++;
        c->by_move[s_move_bin(move)]++;
        c->by_dist[s_dist_bin(c->seq - c->slot[i].last)]++;
    } else if (c->distinct + 1 >= ((size_t)1 << (S_BITS - 1))) {
        c->full = 1;   /* past half full the probes grow long: stop counting new keys */
        return;
    } else {
        memcpy(c->slot[i].key, key, 16);
        c->distinct++;
    }
    c->slot[i].last = c->seq;
}

static int s_game(void *ctx, const char *source, int index, hs_game_t *g)
{
    (void)source;
    (void)index;
    s_count_t *c = ctx;
    hs_replay_t r;
    hs_error_t err = { 0 };
    if (hs_replay_start(&r, g, &err) == 0)
        for (int m = 0; m <= g->num_moves && hs_replay_to(&r, m, &err) == 0; m++) {
            uint8_t key[16];
            hs_replay_key(&r, key);
            s_see(c, key, m);
        }
    hs_replay_fini(&r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_repeats ARCHIVE...\n");
        return 2;
    }
    s_count_t c = { .slot = calloc((size_t)1 << S_BITS, sizeof(s_slot_t)) };
    if (!c.slot) {
        fprintf(stderr, "bench_repeats: out of memory\n");
        return 1;
    }
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.threads = 1;
    o.on_game = s_game;
    o.ctx = &c;
    hs_ingest_report_t rep;
    hs_error_t err = { 0 };
    int rc = hs_ingest_run((const char *const *)argv + 1, argc - 1, &o, &rep, &err);
    hs_ingest_report_fini(&rep);
    free(c.slot);
    if (rc) {
        fprintf(stderr, "bench_repeats: %s\n", err.msg);
        return 1;
    }
    printf("positions %" PRIu64 ", repeated %" PRIu64 " (%.2f%%)%s\n", c.seq, c.repeats,
           c.seq ? 100.0 * (double)c.repeats / (double)c.seq : 0.0,
           c.full ? " (table full: later new keys not counted)" : "");
    static const char *const moves[] = { "< 10", "10-19", "20-29", "30-49", "50-99", ">= 100" };
    for (int b = 0; b < 6; b++)
        printf("  at move %-7s %10" PRIu64 " (%.1f%% of the repeats)\n", moves[b], c.by_move[b],
               c.repeats ? 100.0 * (double)c.by_move[b] / (double)c.repeats : 0.0);
    static const char *const dists[] = { "< 1K", "1K-10K", "10K-100K", "100K-1M", ">= 1M" };
    for (int b = 0; b < 5; b++)
        printf("  last seen %-9s positions before: %10" PRIu64 "\n", dists[b], c.by_dist[b]);
    return 0;
}
