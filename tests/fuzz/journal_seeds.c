/*
 * tests/fuzz/journal_seeds.c — writes the seed corpus of fuzz_journal: real
 * job and task records, as the store encodes them, in fuzz_journal's input
 * format (kind byte, 8-byte key, stored value).
 *
 * Why a program and not hand-made bytes: the seeds must be exactly what the
 * journal holds, so it creates jobs and tasks (every state, chunked and
 * whole-game tasks, long and empty strings) in a fresh store and copies the
 * raw records out. Rerun it when the record layout changes:
 *   build-release/tests/fuzz/journal_seeds tests/fuzz/corpus/journal
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store_internal.h"

typedef struct seed_ctx {
    const char *out;
    int kind;   /* 0 job, 1 task */
    int n;
} seed_ctx_t;

static int s_write_seed(void *ctx, const MDB_val *k, const MDB_val *v)
{
    seed_ctx_t *c = ctx;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%d", c->out, c->kind ? "task" : "job", ++c->n);
    FILE *f = fopen(path, "wb");
    unsigned char kind = (unsigned char)(c->kind | 2);   /* reseal: fuzz_journal.c */
    if (!f || fwrite(&kind, 1, 1, f) != 1 || fwrite(k->mv_data, 1, k->mv_size, f) != k->mv_size ||
        fwrite(v->mv_data, 1, v->mv_size, f) != v->mv_size) {
        perror(path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) ? 1 : 0;
}

/* A few jobs and tasks covering the fields' ranges, in one batch. */
static int s_fill(hs_store_t *s, hs_error_t *err)
{
    static const char *const engines[] = { "area", "influence,judge@2:tau=0.5", "noop" };
    static const char *const moves[] = { "all", "every:10", "last" };
    int rc = hs_store_begin(s, err);
    for (int i = 0; i < 3 && rc == 0; i++) {
        hs_store_job_t j = { .state = (hs_job_state_t)(i + 1), .input_complete = i != 1,
                             .games_total = 1000 * i, .games_done = 999 * i,
                             .positions_total = 250000LL * i, .created_unix = 1764633600 };
        if (i)   /* job 1 keeps an empty name */
            snprintf(j.name, sizeof j.name, "pro archive %d — 기보", i);
        snprintf(j.engines, sizeof j.engines, "%s", engines[i]);
        snprintf(j.moves_spec, sizeof j.moves_spec, "%s", moves[i]);
        snprintf(j.reason, sizeof j.reason, "%s", i == 2 ? "canceled by the user" : "");
        rc = hs_store_job_create(s, &j, err);
    }
    for (int i = 0; i < 6 && rc == 0; i++) {
        hs_store_task_t t = { .job_id = 1 + i % 3, .game_id = { 0x0123456789abcdefULL * (i + 1),
                                                                 ~0ULL / (i + 1) },
                              .state = (hs_task_state_t)(i % HS_TASK_STATE_COUNT),
                              .attempts = i, .move_first = i == 5 ? 300 : 0,
                              .move_last = i == 5 ? 300 : 99 + 100 * i,
                              .move_step = i == 1 ? 10 : 1, .chunk = i == 3 ? 1 : 0,
                              .chunks = i == 3 ? 4 : 0 };
        if (i == 3)
            snprintf(t.reason, sizeof t.reason, "illegal move 57 (B[dd]): occupied");
        rc = hs_store_task_create(s, &t, err);
    }
    return rc ? rc : hs_store_commit(s, err);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: journal_seeds OUT_DIR\n");
        return 2;
    }
    char dir[] = "/tmp/hs-journal-seeds-XXXXXX";
    if (!mkdtemp(dir) || (mkdir(argv[1], 0777) && access(argv[1], W_OK))) {
        perror("journal_seeds");
        return 1;
    }
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    seed_ctx_t jobs = { argv[1], 0, 0 }, tasks = { argv[1], 1, 0 };
    int rc = hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err);
    if (rc == 0)
        rc = s_fill(s, &err);
    if (rc == 0)
        rc = hs__store_prefix_each(s, HS_DB_JOBS, NULL, 0, s_write_seed, &jobs, &err);
    if (rc == 0)
        rc = hs__store_prefix_each(s, HS_DB_TASKS, NULL, 0, s_write_seed, &tasks, &err);
    hs_store_close(&s);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "journal_seeds: could not remove %s\n", dir);
    if (rc)
        fprintf(stderr, "journal_seeds: %s\n", err.msg);
    else
        printf("journal_seeds: %d job and %d task records in %s\n", jobs.n, tasks.n, argv[1]);
    return rc ? 1 : 0;
}
