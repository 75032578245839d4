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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "store/store_internal.h"

typedef struct {
    hs_eval_t *e;
    int n, cap, want;
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
        if (!p)
            return -1;
        set->e = p;
        set->cap = cap;
    }
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
    int rc = hs_store_game_evals(w->s, id, 0, -1, 0, s_keep, w->set, &err);
    return rc == 1 || w->set->n >= w->set->want ? 1 : rc;
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
            if (hs__store_eval_decode(&key, &val, &e, &sc, &err)) {
                fprintf(stderr, "bench_maps: decode: %s\n", err.msg);
                return 1;
            }
        }
    double dec = s_cpu() - t0;
    double per = (double)set.n * rounds;
    printf("record encode: %.0f ns a record; decode: %.0f ns a record; %.1f bytes a record\n",
           1e9 * enc / per, 1e9 * dec / per, bytes / set.n);
    return 0;
}
