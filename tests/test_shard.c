/*
 * tests/test_shard.c — the training samples' files (worker/shard.h): a
 * round trip of every field on 9x9 and 19x19, the rename-on-close promise,
 * and that damage (truncation, a flipped byte, another version, not a shard
 * at all) is refused with its own error before any sample is read.
 */
#include "test.h"
#include "core/board.h"
#include "worker/shard.h"

static void s_sample(hs_shard_sample_t *s, int n, unsigned seed)
{
    memset(s, 0, sizeof *s);
    s->game = seed * 7u + 1;
    s->move = (uint16_t)(seed * 3u);
    s->to_move = seed % 2 ? HS_WHITE : HS_BLACK;
    s->policy = (int16_t)(seed % 3 == 0 ? -1 : (int)(seed % (unsigned)(n * n + 1)));
    s->value = (int8_t)((int)(seed % 3) - 1);
    s->score = -3.5f + (float)seed;
    for (int p = 0; p < HS_NN_SPATIAL; p++)
        for (int i = 0; i < n * n; i++)
            s->planes[p][i] = (uint8_t)(((unsigned)(p * 31 + i * 17) + seed) % 5 == 0);
    for (int i = 0; i < n * n; i++)
        s->owner[i] = (int8_t)((int)((unsigned)i + seed) % 3 - 1);
}

static int s_equal(const hs_shard_sample_t *a, const hs_shard_sample_t *b, int n)
{
    int ok = a->game == b->game && a->move == b->move && a->to_move == b->to_move
             && a->policy == b->policy && a->value == b->value && a->score == b->score;
    for (int p = 0; p < HS_NN_SPATIAL; p++)
        ok = ok && !memcmp(a->planes[p], b->planes[p], (size_t)(n * n));
    return ok && !memcmp(a->owner, b->owner, (size_t)(n * n));
}

static void s_write(const char *path, int n, int count)
{
    hs_shard_writer_t *w = NULL;
    hs_error_t err = {0};
    remove(path);
    HS_CHECK_INT(hs_shard_writer_open(path, n, &w, &err), 0);
    hs_shard_sample_t *s = malloc(sizeof *s);
    for (int k = 0; k < count; k++) {
        s_sample(s, n, (unsigned)k);
        HS_CHECK_INT(hs_shard_write(w, s, &err), 0);
    }
    HS_CHECK(access(path, F_OK) != 0);      /* not under its name until closed */
    HS_CHECK_INT(hs_shard_writer_count(w), count);
    HS_CHECK_INT(hs_shard_writer_close(&w, &err), 0);
    HS_CHECK(w == NULL);
    free(s);
}

static void s_round_trip(const char *dir, int n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rt-%d.hss", dir, n);
    s_write(path, n, 5);
    hs_shard_reader_t *r = NULL;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_shard_open(path, &r, &err), 0);
    if (!r) return;
    HS_CHECK_INT(hs_shard_size(r), n);
    HS_CHECK_INT(hs_shard_count(r), 5);
    hs_shard_sample_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    for (unsigned k = 0; k < 5; k++) {
        s_sample(a, n, k);
        HS_CHECK_INT(hs_shard_read(r, k, b, &err), 0);
        HS_CHECK(s_equal(a, b, n));
    }
    HS_CHECK_INT(hs_shard_read(r, 5, b, &err), HS_EINVAL);
    free(a); free(b);
    hs_shard_close(&r);
}

static void s_rewrite(const char *path, long off, int byte, long truncate_to)
{
    FILE *f = fopen(path, "r+b");
    HS_CHECK(f != NULL);
    if (!f) return;
    if (off >= 0) {
        fseek(f, off, SEEK_SET);
        fputc(byte, f);
    }
    fclose(f);
    if (truncate_to >= 0)
        HS_CHECK_INT(truncate(path, truncate_to), 0);
}

static int s_open_code(const char *path)
{
    hs_shard_reader_t *r = NULL;
    hs_error_t err = {0};
    int rc = hs_shard_open(path, &r, &err);
    HS_CHECK(rc == 0 || (r == NULL && err.msg[0]));
    hs_shard_close(&r);
    return rc;
}

static void s_damage(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.hss", dir);
    size_t rec = hs_shard_record_bytes(9);
    long full = HS_SHARD_HEADER_BYTES + 3 * (long)rec;
    s_write(path, 9, 3);
    HS_CHECK_INT(s_open_code(path), 0);
    s_rewrite(path, -1, 0, full - 1);                       /* truncated */
    HS_CHECK_INT(s_open_code(path), HS_ECORRUPT);
    s_write(path, 9, 3);
    s_rewrite(path, HS_SHARD_HEADER_BYTES + (long)rec + 40, 0xA5, -1);  /* a flipped byte */
    HS_CHECK_INT(s_open_code(path), HS_ECORRUPT);
    s_write(path, 9, 3);
    s_rewrite(path, 8, 2, -1);                              /* version 2 */
    HS_CHECK_INT(s_open_code(path), HS_EUNSUPPORTED);
    s_write(path, 9, 3);
    s_rewrite(path, 0, 'X', -1);                            /* not a shard */
    HS_CHECK_INT(s_open_code(path), HS_EPARSE);
    snprintf(path, sizeof path, "%s/missing.hss", dir);
    HS_CHECK_INT(s_open_code(path), HS_EIO);
}

static void s_bad_samples(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/abort.hss", dir);
    hs_shard_writer_t *w = NULL;
    hs_error_t err = {0};
    HS_CHECK_INT(hs_shard_writer_open(path, 20, &w, &err), HS_EINVAL);
    HS_CHECK_INT(hs_shard_writer_open(path, 9, &w, &err), 0);
    hs_shard_sample_t *s = malloc(sizeof *s);
    s_sample(s, 9, 1);
    s->owner[3] = 2;
    HS_CHECK_INT(hs_shard_write(w, s, &err), HS_EINVAL);
    s_sample(s, 9, 1);
    s->policy = 82;
    HS_CHECK_INT(hs_shard_write(w, s, &err), HS_EINVAL);
    hs_shard_writer_abort(&w);
    char tmp[520];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    HS_CHECK(access(tmp, F_OK) != 0 && access(path, F_OK) != 0);
    free(s);
}

int main(void)
{
    char dir[] = "/tmp/hs-shard-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    s_round_trip(dir, 9);
    s_round_trip(dir, 19);
    s_damage(dir);
    s_bad_samples(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) hs_test_failed++;
    return hs_test_finish();
}
