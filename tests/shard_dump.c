/*
 * tests/shard_dump.c — a shard's samples as text, through the shard reader
 * (worker/shard.h), for tests/test_label_cli.sh (hyeongse has no shard dump
 * of its own: the trainer reads shards, people read index.json).
 *
 *   shard_dump FILE.hss
 *   shard N SAMPLES
 *   GAME MOVE TO_MOVE POLICY VALUE SCORE OWNER P0 P8 P16 P17 EMPTY
 * one line a sample: OWNER is the N*N ownership from the side to move's
 * view as '+', '-' and '.', P0/P8/P16/P17 the count of set points of those
 * planes (the side to move's stones, the opponent's, Black to move, White
 * to move), EMPTY 1 when the policy's point is empty in planes 0 and 8 (or
 * the policy is a pass or none). Exit 1 when the reader refuses the file.
 */
#include <stdio.h>
#include <stdlib.h>

#include "worker/shard.h"

static int s_count(const uint8_t *plane, int area)
{
    int c = 0;
    for (int i = 0; i < area; i++)
        c += plane[i] != 0;
    return c;
}

static void s_print(const hs_shard_sample_t *s, int n)
{
    int area = n * n;
    char owner[HS_SHARD_MAX_AREA + 1];
    for (int i = 0; i < area; i++)
        owner[i] = s->owner[i] > 0 ? '+' : s->owner[i] < 0 ? '-' : '.';
    owner[area] = '\0';
    int empty = s->policy < 0 || s->policy >= area ||
                (!s->planes[0][s->policy] && !s->planes[8][s->policy]);
    printf("%u %u %u %d %d %g %s %d %d %d %d %d\n", (unsigned)s->game, (unsigned)s->move,
           (unsigned)s->to_move, (int)s->policy, (int)s->value, (double)s->score, owner,
           s_count(s->planes[0], area), s_count(s->planes[8], area), s_count(s->planes[16], area),
           s_count(s->planes[17], area), empty);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: shard_dump FILE.hss\n");
        return 2;
    }
    hs_shard_reader_t *r = NULL;
    hs_error_t err;
    hs_error_clear(&err);
    if (hs_shard_open(argv[1], &r, &err)) {
        fprintf(stderr, "shard_dump: %s\n", err.msg);
        return 1;
    }
    hs_shard_sample_t *s = malloc(sizeof *s);
    int n = hs_shard_size(r), rc = s ? 0 : 1;
    printf("shard %d %llu\n", n, (unsigned long long)hs_shard_count(r));
    for (uint64_t i = 0; !rc && i < hs_shard_count(r); i++) {
        if (hs_shard_read(r, i, s, &err)) {
            fprintf(stderr, "shard_dump: sample %llu: %s\n", (unsigned long long)i, err.msg);
            rc = 1;
        } else {
            s_print(s, n);
        }
    }
    free(s);
    hs_shard_close(&r);
    return rc;
}
