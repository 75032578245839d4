/*
 * bench/bench_maps.c — the eval record codec on real records: what the
 * broker thread spends per position to encode an eval (its maps through the
 * context coder, store/store_maps_ctx.c) and a reader to decode it.
 *
 *   bench_maps DB [--records N] [--rounds R]
 *
 * Reads up to N eval records (default 20,000) of the store DB (made by
 * `hyeongse analyze`, e.g. of ../shared/data/pro19-sample), keeps them in
 * memory, then encodes each R times (default 5) as the store writes it
 * (hs__store_eval_encode with the store's map selection) and decodes the
 * result R times. Prints ns a record for both and bytes a record (`perf
 * record` of this program shows the coder's share of it). CPU time of this thread
 * (CLOCK_THREAD_CPUTIME_ID): a busy machine slows it less than wall time, but
 * compare runs of the same hour, or instructions under `perf stat`.
 *
 * Then, for the records whose game has the same engine's record at the move
 * before (the walk keeps a game's records in move order): how many points of
 * their maps changed since that move, and what the store's change coder
 * (map encoding 5, store/store_chain.c, here with no cap on the changes)
 * takes for them (bytes, and CPU against the maps' share of a whole encode):
 * what change-coded maps save on each record that is not a chain's first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "store/store_internal.h"

typedef struct {
    hs_eval_t *e;
    int *game;   /* which game each record came from (in walk order) */
    int n, cap, want, games;
} s_set_t;

static double s_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int s_keep(void *ctx, const hs_eval_t *e)
{
    s_set_t *set = ctx;
    if (set->n >= set->want)
        return 1;
    if (set->n == set->cap) {
        int cap = set->cap ? 2 * set->cap : 1024;
        hs_eval_t *p = realloc(set->e, (size_t)cap * sizeof *p);
        int *g = p ? realloc(set->game, (size_t)cap * sizeof *g) : NULL;
        if (p)
            set->e = p;
        if (!g)
            return -1;
        set->game = g;
        set->cap = cap;
    }
    set->game[set->n] = set->games;
    return hs_eval_copy(&set->e[set->n++], e) ? -1 : 0;
}

typedef struct {
    hs_store_t *s;
    s_set_t *set;
} s_walk_t;

static int s_game(void *ctx, const uint64_t id[2])
{
    s_walk_t *w = ctx;
    hs_error_t err = { 0 };
    w->set->games++;
    int rc = hs_store_game_evals(w->s, id, 0, -1, 0, s_keep, w->set, &err);
    return rc == 1 || w->set->n >= w->set->want ? 1 : rc;
}

/* Map cur as the store keeps it against prev (store_chain.c, map encoding 5,
 * however many points changed): its bytes; *changes gets the points that
 * differ. */
static size_t s_delta_put(uint8_t *out, const void *cur, const void *prev, int n, int width,
                          int *changes)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += width == 1 ? ((const int8_t *)cur)[i] != ((const int8_t *)prev)[i]
                        : ((const int16_t *)cur)[i] != ((const int16_t *)prev)[i];
    *changes = c;
    return hs__store_chain_put(out, cur, prev, (uint32_t)n, width, 2, (uint32_t)n);
}

/* Every kept map of e as the store keeps it against p's: bytes, encoding
 * byte and length included. */
static size_t s_delta_record(const hs_eval_t *e, const hs_eval_t *p, unsigned maps,
                             uint8_t *out, long *changes)
{
    const struct { const void *cur, *prev; unsigned bit; int width; } m[3] = {
        { e->ownership, p->ownership, HS_STORE_MAP_OWNERSHIP, 1 },
        { e->classes, p->classes, HS_STORE_MAP_CLASSES, 1 },
        { e->influence, p->influence, HS_STORE_MAP_INFLUENCE, 2 },
    };
    size_t o = 0;
    for (int k = 0; k < 3; k++) {
        int c = 0;
        if (!m[k].cur || !m[k].prev || !(maps & m[k].bit))
            continue;
        o += s_delta_put(out + o, m[k].cur, m[k].prev, e->size * e->size, m[k].width, &c);
        *changes += c;
    }
    return o;
}

/* For each record, the one of the same engine at the move before in the same
 * game (-1: none, e.g. the first of a game or of a gap in the walk). */
static int *s_predecessors(const s_set_t *set)
{
    int *pred = malloc((size_t)(set->n ? set->n : 1) * sizeof *pred);
    for (int i = 0; pred && i < set->n; i++) {
        pred[i] = -1;
        for (int j = i - 1; j >= 0 && set->game[j] == set->game[i]; j--)
            if (set->e[j].engine_id == set->e[i].engine_id) {
                if (set->e[j].move_number == set->e[i].move_number - 1 &&
                    set->e[j].size == set->e[i].size)
                    pred[i] = j;
                break;
            }
    }
    return pred;
}

/* Prints what the stored maps take against a code of each map as its changes
 * since the move before. */
static int s_delta_report(const s_set_t *set, unsigned maps, int rounds)
{
    int *pred = s_predecessors(set);
    uint8_t *buf = malloc(HS_STORE_EVAL_MAX * 4);
    if (!pred || !buf)
        return -1;
    hs_error_t err = { 0 };
    long with = 0, changes = 0;
    double map_bytes = 0, delta_bytes = 0;
    for (int i = 0; i < set->n; i++) {
        size_t all, bare;
        if (pred[i] < 0 || hs__store_eval_encode(&set->e[i], maps, buf, &all, &err) ||
            hs__store_eval_encode(&set->e[i], 0, buf, &bare, &err))
            continue;
        with++;
        map_bytes += (double)(all - bare);
        delta_bytes += (double)s_delta_record(&set->e[i], &set->e[pred[i]], maps, buf, &changes);
    }
    /* The CPU of the maps in an encode: all of it less an encode without maps. */
    double t0 = s_cpu(), t_all, t_bare, t_delta;
    volatile size_t sink = 0;   /* keeps the timed work from being optimised away */
    long ch = 0;
    size_t len;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < set->n; i++)
            if (pred[i] >= 0)
                sink += (size_t)hs__store_eval_encode(&set->e[i], maps, buf, &len, &err) + len;
    t_all = s_cpu() - t0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < set->n; i++)
            if (pred[i] >= 0)
                sink += (size_t)hs__store_eval_encode(&set->e[i], 0, buf, &len, &err) + len;
    t_bare = s_cpu() - t0 - t_all;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < set->n; i++)
            if (pred[i] >= 0)
                sink += s_delta_record(&set->e[i], &set->e[pred[i]], maps, buf, &ch);
    t_delta = s_cpu() - t0 - t_all - t_bare;
    (void)sink;
    double per = 1e9 / ((double)with * rounds);
    if (with > 0)
        printf("against the move before (%ld of %d records have one, same game and engine): "
               "%.1f changed points a record; the stored maps %.1f bytes and %.0f ns of the "
               "encode a record (%.0f ns without them); their changes %.1f bytes, %.0f ns\n",
               with, set->n, (double)changes / (double)with, map_bytes / (double)with,
               per * (t_all - t_bare), per * t_bare, delta_bytes / (double)with,
               per * t_delta);
    free(pred);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_maps DB [--records N] [--rounds R]\n");
        return 2;
    }
    s_set_t set = { .want = 20000 };
    int rounds = 5;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--records"))
            set.want = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rounds"))
            rounds = atoi(argv[i + 1]);
    }
    if (set.want < 1 || rounds < 1) {
        fprintf(stderr, "bench_maps: --records and --rounds take a positive number\n");
        return 2;
    }
    hs_error_t err = { 0 };
    hs_store_t *s = NULL;
    if (hs_store_open(&s, argv[1], HS_STORE_RDONLY, 0, &err)) {
        fprintf(stderr, "bench_maps: %s\n", err.msg);
        return 1;
    }
    s_walk_t w = { s, &set };
    int rc = hs_store_read_hold(s, &err);
    if (!rc)
        rc = hs_store_games_each(s, s_game, &w, &err);
    hs_store_read_release(s);
    if (rc < 0) {
        fprintf(stderr, "bench_maps: reading %s: %s\n", argv[1], err.msg);
        return 1;
    }
    unsigned maps = s->maps;
    hs_store_close(&s);
    printf("%d records of %s, %d rounds\n", set.n, argv[1], rounds);

    size_t *len = calloc((size_t)set.n, sizeof *len);
    uint8_t (*rec)[HS_STORE_EVAL_MAX] = malloc((size_t)set.n * sizeof *rec);
    if (!len || !rec)
        return 1;
    double t0 = s_cpu(), bytes = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < set.n; i++)
            if (hs__store_eval_encode(&set.e[i], maps, rec[i], &len[i], &err)) {
                fprintf(stderr, "bench_maps: encode: %s\n", err.msg);
                return 1;
            }
    double enc = s_cpu() - t0;
    for (int i = 0; i < set.n; i++)
        bytes += (double)len[i];
    t0 = s_cpu();
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < set.n; i++) {
            hs__store_eval_scratch_t sc;
            hs_eval_t e;
            uint8_t k = 0;
            MDB_val key = { 1, &k }, val = { len[i], rec[i] };
            if (hs__store_eval_decode(&key, &val, &e, &sc, NULL, &err)) {
                fprintf(stderr, "bench_maps: decode: %s\n", err.msg);
                return 1;
            }
        }
    double dec = s_cpu() - t0;
    double per = (double)set.n * rounds;
    printf("record encode: %.0f ns a record; decode: %.0f ns a record; %.1f bytes a record\n",
           1e9 * enc / per, 1e9 * dec / per, bytes / set.n);
    return s_delta_report(&set, maps, rounds) ? 1 : 0;
}
