/*
 * tests/test_store_format.c — the store's record format (docs/STORE.md): compact
 * eval records round-trip exactly (every map form, every board size, the
 * broker's raw-bytes path), --maps keeps only what was asked and is remembered,
 * a judge-like 19x19 eval takes a few hundred bytes, not a kilobyte, flipped
 * bytes in any record kind are HS_ECORRUPT naming the table (and the query
 * says so and fails instead of dropping rows), an old-format store is still
 * read, and a newer one is refused by its version.
 */
#include <fcntl.h>
#include <lmdb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/poskey.h"
#include "core/rules.h"
#include "store/query.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "store_fixture.h"
#include "test.h"

#define NN_MAX (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)

typedef struct {
    hs_eval_t e;
    int8_t own[NN_MAX];
    int16_t inf[NN_MAX];
    char cls[NN_MAX + 1];
    char result[32];
} s_full_t;

static uint64_t s_rng = 0x9E3779B97F4A7C15ull;
static uint32_t s_rand(void)
{
    s_rng = s_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s_rng >> 33);
}

/* Kinds of maps: 0 all zero, 1 random, 2 judge-like regions and stones,
 * 3 classes with a letter outside the codes (raw form). */
static void s_full(s_full_t *f, int size, int kind, int mn, uint64_t seed)
{
    hs_eval_t *e = &f->e;
    memset(f, 0, sizeof *f);
    int nn = size * size;
    for (int i = 0; i < nn; i++) {
        int x = i % size;
        char c = '.';
        int o = 0;
        if (kind == 1) {
            c = " .bwXOxos?BWy"[s_rand() % 13];
            o = (int)(s_rand() % 201) - 100;
            f->inf[i] = (int16_t)(s_rand() & 0xFFFF);
        } else if (kind >= 2) {
            c = x < size / 3 ? 'b' : x >= 2 * size / 3 ? 'w' : '.';
            if (s_rand() % 7 == 0)
                c = "XOxo"[s_rand() % 4];
            o = c == 'b' || c == 'X' ? 100 : c == 'w' || c == 'O' ? -100 : 0;
            if ((c == 'x' || c == 'o') && s_rand() % 2)
                o = c == 'x' ? -100 : 100;
            f->inf[i] = (int16_t)(x * 37 - 300);
            if (kind == 3 && i == nn / 2)
                c = 'Q';
        }
        f->cls[i] = c;
        f->own[i] = (int8_t)o;
    }
    e->move_number = mn;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(seed >> (i % 8 * 8)) ^ (uint8_t)(i * 31 + size + kind);
    e->engine_id = hs_engine_config_id("judge");
    e->size = size;
    e->score_lead = kind == 0 ? NAN : (float)mn - 3.5f;
    e->win_rate = kind == 1 ? 0.25f : NAN;
    e->ownership = f->own;
    e->influence = f->inf;
    e->classes = f->cls;
    snprintf(f->result, sizeof f->result, "B+%d.5", mn);
    e->result = kind == 0 ? NULL : f->result;
    e->error = kind == 3 ? "partly judged" : NULL;
    e->timing_us = (uint32_t)(1000 * mn + kind);
}

/* Compares read-back b with written a, maps by the `maps` kept. */
static int s_same(const hs_eval_t *a, const hs_eval_t *b, unsigned maps)
{
    int nn = a->size * a->size;
    bool ok = a->size == b->size && a->engine_id == b->engine_id
        && !memcmp(a->pos_key, b->pos_key, 16) && a->timing_us == b->timing_us
        && (isnan(a->score_lead) ? isnan(b->score_lead) : a->score_lead == b->score_lead)
        && (isnan(a->win_rate) ? isnan(b->win_rate) : a->win_rate == b->win_rate)
        && (a->result ? b->result && !strcmp(a->result, b->result) : !b->result)
        && (a->error ? b->error && !strcmp(a->error, b->error) : !b->error)
        && a->score_stdev == b->score_stdev && a->num_policy == b->num_policy
        && !memcmp(a->policy, b->policy, sizeof a->policy[0] * (size_t)a->num_policy);
    if (maps & HS_STORE_MAP_OWNERSHIP)
        ok = ok && b->ownership && !memcmp(a->ownership, b->ownership, (size_t)nn);
    else
        ok = ok && !b->ownership;
    if (maps & HS_STORE_MAP_INFLUENCE)
        ok = ok && b->influence && !memcmp(a->influence, b->influence, 2 * (size_t)nn);
    else
        ok = ok && !b->influence;
    if (maps & HS_STORE_MAP_CLASSES)
        ok = ok && b->classes && !strcmp(a->classes, b->classes);
    else
        ok = ok && !b->classes;
    return ok;
}

typedef struct { s_full_t *want; int n, bad; unsigned maps; } s_cmp_t;
static int s_cmp_cb(void *ctx, const hs_eval_t *e)
{
    s_cmp_t *c = ctx;
    if (e->move_number >= c->n || !s_same(&c->want[e->move_number].e, e, c->maps))
        c->bad++;
    return 0;
}

static void test_roundtrip(void)
{
    static const int sizes[] = { 2, 9, 13, 19, 25 };
    enum { N = 5 * 4 + 1 };
    static s_full_t want[N];
    const char *dir = s_newdir("fmt-rt");
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC | HS_STORE_MAPS(HS_STORE_MAP_ALL), 0,
                               &err), 0);
    if (!s)
        return;
    HS_CHECK_INT(hs_store_maps_kept(s), HS_STORE_MAP_ALL);
    uint64_t gid[2] = { 0xABCDEF, 42 };
    for (int i = 0; i < N - 1; i++) {
        s_full(&want[i], sizes[i / 4], i % 4, i, 0x7700 + (uint64_t)i);
        HS_CHECK_INT(hs_store_result_put(s, gid, &want[i].e, "judge", NULL, &err), 0);
    }
    /* The broker's path: an eval a wire decoder validated, maps left in the raw
     * MessagePack bytes (HS_WIRE_DECODE_EVAL_VIEW). */
    s_full(&want[N - 1], 19, 2, N - 1, 0x9900);
    hs_wire_msg_t m, d;
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    m.result.task_id = 1;
    m.result.evals = &want[N - 1].e;
    m.result.num_evals = 1;
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode_ex(buf.data, buf.len, HS_WIRE_DECODE_EVAL_VIEW, &d, &err), 0);
    HS_CHECK(d.result.num_evals == 1 && d.result.evals[0].raw && !d.result.evals[0].ownership);
    if (d.result.num_evals == 1)
        HS_CHECK_INT(hs_store_result_put(s, gid, &d.result.evals[0], "judge", NULL, &err), 0);
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&buf);
    for (int pass = 0; pass < 2; pass++) {   /* in the batch's txn, then committed */
        int bad = 0;
        for (int i = 0; i < N; i++) {
            hs_eval_t got;
            int rc = hs_store_eval_get(s, want[i].e.engine_id, want[i].e.pos_key, &got, &err);
            HS_CHECK_INT(rc, 0);
            bad += rc == 0 && !s_same(&want[i].e, &got, HS_STORE_MAP_ALL);
            hs_eval_fini(&got);
        }
        HS_CHECK_INT(bad, 0);
        s_cmp_t c = { want, N, 0, HS_STORE_MAP_ALL };
        HS_CHECK_INT(hs_store_game_evals(s, gid, 0, -1, 0, s_cmp_cb, &c, &err), 0);
        HS_CHECK_INT(c.bad, 0);
    }
    hs_store_close(&s);
    s_rm_dir(dir);
}

static void test_maps_setting(void)
{
    unsigned m = 99;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_maps_parse("ownership,classes", &m, &err), 0);
    HS_CHECK_INT(m, HS_STORE_MAP_OWNERSHIP | HS_STORE_MAP_CLASSES);
    HS_CHECK_INT(hs_store_maps_parse("all", &m, &err), 0);
    HS_CHECK_INT(m, HS_STORE_MAP_ALL);
    HS_CHECK_INT(hs_store_maps_parse("none", &m, &err), 0);
    HS_CHECK_INT(m, 0);
    HS_CHECK_INT(hs_store_maps_parse("ownership,bogus", &m, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "bogus") != NULL);
    HS_CHECK_INT(hs_store_maps_parse("", &m, &err), HS_EINVAL);
    char name[64];
    hs_store_maps_name(HS_STORE_MAP_DEFAULT, name, sizeof name);
    HS_CHECK_STR(name, "ownership,classes");

    const char *dir = s_newdir("fmt-maps");
    static s_full_t f;
    uint64_t gid[2] = { 5, 6 };
    hs_store_t *s = NULL;
    unsigned kept[3] = { HS_STORE_MAP_DEFAULT, HS_STORE_MAP_INFLUENCE, HS_STORE_MAP_INFLUENCE };
    unsigned flags[3] = { 0, HS_STORE_MAPS(HS_STORE_MAP_INFLUENCE), 0 };
    for (int round = 0; round < 3; round++) {
        HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC | flags[round], 0, &err), 0);
        if (!s)
            return;
        HS_CHECK_INT(hs_store_maps_kept(s), kept[round]);
        s_full(&f, 19, 2, round, 0x4400 + (uint64_t)round);
        HS_CHECK_INT(hs_store_result_put(s, gid, &f.e, "judge", NULL, &err), 0);
        hs_eval_t got;
        HS_CHECK_INT(hs_store_eval_get(s, f.e.engine_id, f.e.pos_key, &got, &err), 0);
        HS_CHECK(s_same(&f.e, &got, kept[round]));
        hs_eval_fini(&got);
        hs_store_close(&s);
    }
    /* A reader sees what the writer recorded. */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (s)
        HS_CHECK_INT(hs_store_maps_kept(s), HS_STORE_MAP_INFLUENCE);
    hs_store_close(&s);
    s_rm_dir(dir);
}

/* Bytes per entry of one named database, from LMDB's own page counts. */
static double s_db_bytes_per_entry(const char *dir, const char *name)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    MDB_stat st = { 0 };
    double r = -1;
    if (mdb_env_create(&env))
        return -1;
    mdb_env_set_maxdbs(env, 32);
    if (mdb_env_open(env, dir, MDB_RDONLY, 0664) == 0
        && mdb_txn_begin(env, NULL, MDB_RDONLY, &txn) == 0) {
        if (mdb_dbi_open(txn, name, 0, &dbi) == 0 && mdb_stat(txn, dbi, &st) == 0
            && st.ms_entries)
            r = (double)(st.ms_branch_pages + st.ms_leaf_pages + st.ms_overflow_pages)
                * st.ms_psize / (double)st.ms_entries;
        mdb_txn_abort(txn);
    }
    mdb_env_close(env);
    return r;
}

static void test_size(void)
{
    const char *dir = s_newdir("fmt-size");
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    static s_full_t f;
    uint64_t gid[2] = { 77, 1 };
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int i = 0; i < 2000; i++) {
        s_full(&f, 19, 2, i % 400, 0x100000 + (uint64_t)i);
        gid[1] = (uint64_t)(i / 400);
        HS_CHECK_INT(hs_store_result_put(s, gid, &f.e, "judge", NULL, &err), 0);
    }
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    hs_store_close(&s);
    /* A judge-like 19x19 eval with ownership and classes (the default maps):
     * the wire's MessagePack took ~800 bytes (361 + 361 + the rest). */
    double per = s_db_bytes_per_entry(dir, "evaldata");
    printf("judge-like 19x19 eval record: %.0f bytes in evaldata\n", per);
    HS_CHECK(per > 0 && per < 300);
    s_rm_dir(dir);
}

/* A net-like eval (engine "net"): winrate, lead, spread, 8 policy moves (the
 * last a pass), and an ownership map of every value (noise: the worst case
 * for the coders) or a smooth one (a real net's, roughly). */
static void s_net(s_full_t *f, int size, bool noise, int mn, uint64_t seed)
{
    hs_eval_t *e = &f->e;
    memset(f, 0, sizeof *f);
    int nn = size * size;
    for (int i = 0; i < nn; i++) {
        int o = noise ? (int)(s_rand() % 201) - 100
                      : (i % size) * 180 / size - 90 + (int)(s_rand() % 7) - 3;
        f->own[i] = (int8_t)o;
    }
    e->move_number = mn;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(seed >> (i % 8 * 8)) ^ (uint8_t)(i * 17 + size);
    e->engine_id = hs_engine_config_id("net:net=0123456789abcdef0123456789abcdef");
    e->size = size;
    e->score_lead = -2.75f;
    e->win_rate = 0.3125f;
    e->score_stdev = 11.5f + (float)mn;
    e->num_policy = HS_EVAL_POLICY_MAX;
    for (int k = 0; k < HS_EVAL_POLICY_MAX; k++) {
        e->policy[k].vertex = k == HS_EVAL_POLICY_MAX - 1 ? HS_GAME_PASS : (uint16_t)(k * 7 % nn);
        e->policy[k].prob = (uint16_t)(60000 - 7000 * k);
    }
    e->ownership = f->own;
    e->timing_us = 1234;
}

/* The net's fields (spread, policy) through both write paths (an eval in
 * memory, and the broker's: decoded from the wire with its maps left in the
 * MessagePack bytes), read back exactly; a net eval's record within 500
 * bytes even with the worst ownership map. */
static void test_net_fields(void)
{
    const char *dir = s_newdir("fmt-net");
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    static s_full_t want[3];
    uint64_t gid[2] = { 0x4E4554, 7 };
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    s_net(&want[0], 19, true, 0, 0x5100);
    s_net(&want[1], 9, false, 1, 0x5200);
    HS_CHECK_INT(hs_store_result_put(s, gid, &want[0].e, "net", NULL, &err), 0);
    HS_CHECK_INT(hs_store_result_put(s, gid, &want[1].e, "net", NULL, &err), 0);
    s_net(&want[2], 19, false, 2, 0x5300);
    hs_wire_msg_t m, d;
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    m.result.task_id = 1;
    m.result.evals = &want[2].e;
    m.result.num_evals = 1;
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode_ex(buf.data, buf.len, HS_WIRE_DECODE_EVAL_VIEW, &d, &err), 0);
    if (d.result.num_evals == 1)
        HS_CHECK_INT(hs_store_result_put(s, gid, &d.result.evals[0], "net", NULL, &err), 0);
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&buf);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    for (int i = 0; i < 3; i++) {
        hs_eval_t got;
        HS_CHECK_INT(hs_store_eval_get(s, want[i].e.engine_id, want[i].e.pos_key, &got, &err), 0);
        HS_CHECK(s_same(&want[i].e, &got, HS_STORE_MAP_OWNERSHIP));
        HS_CHECK(got.score_stdev == want[i].e.score_stdev && got.num_policy == 8);
        hs_eval_fini(&got);
    }
    hs_store_close(&s);
    s_rm_dir(dir);
    uint8_t rec[HS_STORE_EVAL_MAX];
    size_t len[2] = { 0, 0 };
    s_net(&want[0], 19, true, 0, 0x5400);
    HS_CHECK_INT(hs__store_eval_encode(&want[0].e, HS_STORE_MAP_DEFAULT, rec, &len[0], &err), 0);
    s_net(&want[0], 19, false, 0, 0x5400);
    HS_CHECK_INT(hs__store_eval_encode(&want[0].e, HS_STORE_MAP_DEFAULT, rec, &len[1], &err), 0);
    printf("net 19x19 eval record: %zu bytes (noise ownership), %zu (smooth)\n", len[0], len[1]);
    HS_CHECK(len[0] > 0 && len[0] <= 500 && len[1] <= len[0]);
    /* A policy move off the board is refused, not stored. */
    want[0].e.policy[0].vertex = 361;
    HS_CHECK_INT(hs__store_eval_encode(&want[0].e, HS_STORE_MAP_DEFAULT, rec, &len[0], &err),
                 HS_EINVAL);
}

/* Flips one byte in every copy of marker in dir/data.mdb: the count of copies. */
static int s_flip(const char *dir, const char *marker)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data.mdb", dir);
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return 0;
    struct stat st;
    fstat(fd, &st);
    uint8_t *p = malloc((size_t)st.st_size);
    int n = 0;
    size_t ml = strlen(marker);
    if (p && pread(fd, p, (size_t)st.st_size, 0) == st.st_size)
        for (size_t i = 0; i + ml <= (size_t)st.st_size; i++)
            if (!memcmp(p + i, marker, ml)) {
                uint8_t b = (uint8_t)(p[i + ml - 1] ^ 0x01);
                n += pwrite(fd, &b, 1, (off_t)(i + ml - 1)) == 1;
            }
    free(p);
    close(fd);
    return n;
}

static int s_count_failed(void *ctx, const char *source, const char *reason, uint64_t job)
{
    (void)source;
    (void)reason;
    (void)job;
    (*(int *)ctx)++;
    return 0;
}

static void test_corrupt(void)
{
    const char *dir = s_newdir("fmt-corrupt");
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    hs_game_t g[2];
    hs_game_move_t mv[1] = { { 3, HS_BLACK } };
    static s_full_t f[2];
    for (int i = 0; i < 2; i++) {
        memset(&g[i], 0, sizeof g[i]);
        g[i].size = 9;
        g[i].komi = 6.5;
        g[i].rules = hs_rules_get(HS_RULES_JAPANESE);
        g[i].moves = mv;
        g[i].num_moves = 1;
        g[i].black = "B";
        g[i].white = "W";
        g[i].event = i ? "plain event" : "MARK-GAME-EVENT";
        g[i].id[0] = 0x500 + (uint64_t)i;
        g[i].id[1] = 9;
        HS_CHECK_INT(hs_store_game_put(s, &g[i], "x.sgf", 0, NULL, &err), 0);
        s_full(&f[i], 9, 2, 1, 0x600 + (uint64_t)i);
        f[i].e.result = i ? "B+1.5" : "MARK-EVAL-RESULT";
        HS_CHECK_INT(hs_store_result_put(s, g[i].id, &f[i].e, "judge", NULL, &err), 0);
    }
    hs_store_job_t job = { 0 };
    snprintf(job.name, sizeof job.name, "MARK-JOB-NAME");
    HS_CHECK_INT(hs_store_job_create(s, &job, &err), 0);
    HS_CHECK_INT(hs_store_game_failed(s, "bad.sgf", "MARK-FAILED-REASON", 1, NULL, &err), 0);
    hs_store_close(&s);

    /* An honest query first: two games, a row each. */
    hs_query_t q = { .move = -1, .format = HS_QUERY_CSV };
    int64_t rows = 0;
    FILE *out = tmpfile();
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), 0);
    HS_CHECK_INT(rows, 2);
    hs_store_close(&s);

    HS_CHECK(s_flip(dir, "MARK-EVAL-RESULT") >= 1);
    HS_CHECK(s_flip(dir, "MARK-GAME-EVENT") >= 1);
    HS_CHECK(s_flip(dir, "MARK-JOB-NAME") >= 1);
    HS_CHECK(s_flip(dir, "MARK-FAILED-REASON") >= 1);
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (!s)
        return;
    hs_store_job_t j;
    HS_CHECK_INT(hs_store_job_get(s, job.id, &j, &err), HS_ECORRUPT);
    HS_CHECK(strstr(err.msg, "jobs") && strstr(err.msg, "checksum"));
    hs_game_t back;
    HS_CHECK_INT(hs_store_game_get(s, g[0].id, &back, NULL, NULL, &err), HS_ECORRUPT);
    HS_CHECK(strstr(err.msg, "games") != NULL);
    HS_CHECK_INT(hs_store_game_get(s, g[1].id, &back, NULL, NULL, &err), 0);
    hs_game_fini(&back);
    s_cmp_t c = { f, 0, 0, 0 };
    HS_CHECK_INT(hs_store_game_evals(s, g[0].id, 0, -1, 0, s_cmp_cb, &c, &err), HS_ECORRUPT);
    HS_CHECK(strstr(err.msg, "evaldata") && strstr(err.msg, "checksum"));
    int nfailed = 0;
    HS_CHECK_INT(hs_store_failed_each(s, s_count_failed, &nfailed, &err), HS_ECORRUPT);
    HS_CHECK_INT(nfailed, 0);
    HS_CHECK(strstr(err.msg, "failed") != NULL);
    /* The query lists what it can, says how much it could not, and fails. */
    rows = 0;
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), HS_ECORRUPT);
    HS_CHECK(strstr(err.msg, "1 game(s)") != NULL);
    HS_CHECK_INT(rows, 1);   /* game 1's row; game 0's game record is corrupt */
    hs_store_close(&s);
    fclose(out);
    s_rm_dir(dir);
}

/* ---- a store written in format 1 (before the compact records) ---- */

static int s_put_raw(MDB_txn *txn, const char *db, const void *k, size_t kl, const void *v,
                     size_t vl)
{
    MDB_dbi dbi;
    int rc = mdb_dbi_open(txn, db, 0, &dbi);
    MDB_val key = { kl, (void *)k }, val = { vl, (void *)v };
    return rc ? rc : mdb_put(txn, dbi, &key, &val, 0);
}

static void s_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* Writes game g and eval e (move 1 of g, eval seq 1) the way format 1 did:
 * a format byte 1, then the wire's MessagePack; meta schema 1, no "maps". */
static int s_write_v1(const char *dir, const hs_game_t *g, const hs_eval_t *e)
{
    MDB_env *env;
    MDB_txn *txn;
    if (mdb_env_create(&env))
        return -1;
    mdb_env_set_maxdbs(env, 32);
    int rc = mdb_env_open(env, dir, 0, 0664);
    if (rc == 0)
        rc = mdb_txn_begin(env, NULL, 0, &txn);
    if (rc) {
        mdb_env_close(env);
        return rc;
    }
    hs_wire_buf_t b = { 0 };
    uint8_t hdr[9] = { 1 }, key[18], seq[8], mval[28], v[8];
    hs_wire_game_t w = { .game = *g, .source = (char *)"old.sgf" };
    rc = hs_wire_encode_game(&w, &b, NULL);
    uint8_t *rec = malloc(b.len + 9);
    memcpy(rec, hdr, 9);
    memcpy(rec + 9, b.data, b.len);
    s_be(key, g->id[0], 8);
    s_be(key + 8, g->id[1], 8);
    if (rc == 0)
        rc = s_put_raw(txn, "games", key, 16, rec, b.len + 9);
    free(rec);
    b.len = 0;
    if (rc == 0)
        rc = hs_wire_encode_eval(e, &b, NULL);
    rec = malloc(b.len + 1);
    rec[0] = 1;
    memcpy(rec + 1, b.data, b.len);
    s_be(seq, 1, 8);
    if (rc == 0)
        rc = s_put_raw(txn, "evaldata", seq, 8, rec, b.len + 1);
    free(rec);
    s_be(key + 16, (uint64_t)e->move_number, 2);
    memcpy(mval, e->pos_key, 16);
    s_be(mval + 16, e->engine_id, 4);
    s_be(mval + 20, 1, 8);
    if (rc == 0)
        rc = s_put_raw(txn, "moves", key, 18, mval, 28);
    uint8_t ek[4];
    s_be(ek, e->engine_id, 4);
    if (rc == 0)
        rc = s_put_raw(txn, "engines", ek, 4, "judge", 5);
    s_be(v, 1, 8);
    if (rc == 0)
        rc = s_put_raw(txn, "meta", "schema", 6, v, 8);
    MDB_dbi meta;
    MDB_val mk = { 4, "maps" };
    if (rc == 0 && mdb_dbi_open(txn, "meta", 0, &meta) == 0)
        mdb_del(txn, meta, &mk, NULL);
    hs_wire_buf_free(&b);
    rc = rc ? (mdb_txn_abort(txn), rc) : mdb_txn_commit(txn);
    mdb_env_close(env);
    return rc;
}

static int s_schema(const char *dir, uint64_t *schema, uint64_t set)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    mdb_env_create(&env);
    mdb_env_set_maxdbs(env, 32);
    int rc = mdb_env_open(env, dir, 0, 0664);
    if (rc == 0 && (rc = mdb_txn_begin(env, NULL, 0, &txn)) == 0) {
        MDB_val k = { 6, "schema" }, d;
        uint8_t v[8];
        rc = mdb_dbi_open(txn, "meta", 0, &dbi);
        if (rc == 0 && set) {
            s_be(v, set, 8);
            d = (MDB_val){ 8, v };
            rc = mdb_put(txn, dbi, &k, &d, 0);
        }
        if (rc == 0 && (rc = mdb_get(txn, dbi, &k, &d)) == 0 && d.mv_size == 8) {
            *schema = 0;
            for (int i = 0; i < 8; i++)
                *schema = *schema << 8 | ((uint8_t *)d.mv_data)[i];
        }
        rc = rc ? (mdb_txn_abort(txn), rc) : mdb_txn_commit(txn);
    }
    mdb_env_close(env);
    return rc;
}

static void test_old_format(void)
{
    const char *dir = s_newdir("fmt-old");
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    hs_store_close(&s);
    hs_game_t g;
    hs_game_move_t mv[2] = { { 3, HS_BLACK }, { 4, HS_WHITE } };
    memset(&g, 0, sizeof g);
    g.size = 9;
    g.komi = 6.5;
    g.rules = hs_rules_get(HS_RULES_CHINESE);
    g.moves = mv;
    g.num_moves = 2;
    g.black = "Old Black";
    g.white = "Old White";
    g.id[0] = 0x0123;
    g.id[1] = 0x4567;
    static s_full_t fa[3];
    s_full_t *f = &fa[1], *f2 = &fa[2];
    s_full(f, 9, 1, 1, 0xA1);   /* random maps: all three, and a win rate */
    HS_CHECK_INT(s_write_v1(dir, &g, &f->e), 0);

    /* A reader: the old records read as written (all maps: format 1 kept them). */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (!s)
        return;
    hs_game_t back;
    char *src = NULL;
    HS_CHECK_INT(hs_store_game_get(s, g.id, &back, &src, NULL, &err), 0);
    HS_CHECK_STR(back.black, "Old Black");
    HS_CHECK_STR(src, "old.sgf");
    HS_CHECK_INT(back.num_moves, 2);
    hs_game_fini(&back);
    free(src);
    s_cmp_t c = { fa, 2, 0, HS_STORE_MAP_ALL };
    HS_CHECK_INT(hs_store_game_evals(s, g.id, 0, -1, 0, s_cmp_cb, &c, &err), 0);
    HS_CHECK_INT(c.bad, 0);
    hs_store_close(&s);

    /* A writer: marks the store format 2, rebuilds the index from the old record,
     * and adds a new-format record beside it. */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    hs_eval_t got;
    HS_CHECK_INT(hs_store_eval_get(s, f->e.engine_id, f->e.pos_key, &got, &err), 0);
    HS_CHECK(s_same(&f->e, &got, HS_STORE_MAP_ALL));
    hs_eval_fini(&got);
    s_full(f2, 9, 2, 2, 0xB2);
    HS_CHECK_INT(hs_store_result_put(s, g.id, &f2->e, "judge", NULL, &err), 0);
    HS_CHECK_INT(hs_store_eval_get(s, f2->e.engine_id, f2->e.pos_key, &got, &err), 0);
    HS_CHECK(s_same(&f2->e, &got, HS_STORE_MAP_DEFAULT));
    hs_eval_fini(&got);
    hs_store_close(&s);
    uint64_t schema = 0;
    HS_CHECK_INT(s_schema(dir, &schema, 0), 0);
    HS_CHECK_INT(schema, HS_STORE_SCHEMA);

    /* A version-2 store (before context-coded maps) opened by a writer is
     * marked with this version, and its records still read. */
    HS_CHECK_INT(s_schema(dir, &schema, 2), 0);
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (s) {
        HS_CHECK_INT(hs_store_eval_get(s, f2->e.engine_id, f2->e.pos_key, &got, &err), 0);
        HS_CHECK(s_same(&f2->e, &got, HS_STORE_MAP_DEFAULT));
        hs_eval_fini(&got);
        hs_store_close(&s);
    }
    HS_CHECK_INT(s_schema(dir, &schema, 0), 0);
    HS_CHECK_INT(schema, HS_STORE_SCHEMA);

    /* A store of a newer format is refused by its version, never misread. */
    HS_CHECK_INT(s_schema(dir, &schema, 7), 0);
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), HS_EUNSUPPORTED);
    HS_CHECK(strstr(err.msg, "version 7") != NULL);
    hs_store_close(&s);
    s_rm_dir(dir);
}

static void test_crc(void)
{
    /* The check value of CRC-32C (Castagnoli), and a long unaligned run against
     * the byte-at-a-time definition. */
    HS_CHECK_INT(hs__store_crc32c(0, "123456789", 9), 0xE3069283u);
    uint8_t buf[1001];
    for (int i = 0; i < 1001; i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    uint32_t c = 0xFFFFFFFFu;
    for (int i = 1; i < 1001; i++) {
        c ^= buf[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    HS_CHECK_INT(hs__store_crc32c(0, buf + 1, 1000), ~c);
    HS_CHECK_INT(hs__store_crc32c(hs__store_crc32c(0, buf + 1, 333), buf + 334, 667), ~c);
}

int main(void)
{
    test_crc();
    test_roundtrip();
    test_maps_setting();
    test_size();
    test_net_fields();
    test_corrupt();
    test_old_format();
    return hs_test_finish();
}
