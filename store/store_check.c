/*
 * store/store_check.c — integrity of a store (store/store.h, "integrity"): the
 * file against its meta pages before LMDB maps it, and the full walk behind
 * `hyeongse check`. LMDB 0.9 keeps no page checksums, so what can be verified is
 * structure: sizes, key order and shape, counts, records that decode, and the
 * indexes agreeing with the records they point at.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the file and its meta pages ---- */

/* LMDB 0.9's on-disk meta page (mdb.c, MDB_page + MDB_meta, 64-bit build): a
 * 16-byte page header whose flags say P_META, then magic, version, address,
 * map size, two MDB_db records (the page size is kept in the first one's pad),
 * the last page number and the transaction id. Read by offset, not through a
 * struct, so that nothing depends on this compiler's padding. */
#define S_PAGEHDR 16
#define S_P_META 0x08
#define S_MAGIC 0xBEEFC0DEu
#define S_OFF_FLAGS 10
#define S_OFF_MAGIC (S_PAGEHDR + 0)
#define S_OFF_VERSION (S_PAGEHDR + 4)
#define S_OFF_MAPSIZE (S_PAGEHDR + 16)
#define S_OFF_PSIZE (S_PAGEHDR + 24)
#define S_OFF_LASTPG (S_PAGEHDR + 120)
#define S_OFF_TXNID (S_PAGEHDR + 128)
#define S_META_BYTES (S_PAGEHDR + 136)

static uint64_t s_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);   /* LMDB writes host order; this build is the host */
    return v;
}

static uint32_t s_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Whether the meta page in buf is one LMDB would accept. */
static bool s_meta_ok(const uint8_t *buf)
{
    uint16_t flags;
    memcpy(&flags, buf + S_OFF_FLAGS, 2);
    return (flags & S_P_META) && s_le32(buf + S_OFF_MAGIC) == S_MAGIC &&
           s_le32(buf + S_OFF_VERSION) == 1;
}

static int s_read_meta(int fd, off_t off, uint8_t *buf)
{
    ssize_t n = pread(fd, buf, S_META_BYTES, off);
    return n == S_META_BYTES ? 0 : -1;
}

/* Fills *info from the newest of the two meta pages (page size from page 0). */
static int s_file_meta(int fd, const char *path, hs_store_file_info_t *info, hs_error_t *err)
{
    uint8_t m0[S_META_BYTES], m1[S_META_BYTES];
    if (info->file_size < S_META_BYTES || s_read_meta(fd, 0, m0) != 0)
        return hs_error_set(err, HS_ECORRUPT, "%s: %llu bytes is too short for an LMDB store",
                            path, (unsigned long long)info->file_size);
    if (!s_meta_ok(m0))
        return hs_error_set(err, HS_ECORRUPT, "%s: not an LMDB store (meta page 0 is damaged)",
                            path);
    uint32_t psize = s_le32(m0 + S_OFF_PSIZE);
    if (psize < 512 || psize > 65536 || (psize & (psize - 1)))
        return hs_error_set(err, HS_ECORRUPT, "%s: meta page 0 gives page size %u", path, psize);
    if (info->file_size < (uint64_t)psize + S_META_BYTES || s_read_meta(fd, psize, m1) != 0)
        return hs_error_set(err, HS_ECORRUPT, "%s: %llu bytes is too short for its two meta pages",
                            path, (unsigned long long)info->file_size);
    bool ok1 = s_meta_ok(m1);
    const uint8_t *m = ok1 && s_le64(m1 + S_OFF_TXNID) > s_le64(m0 + S_OFF_TXNID) ? m1 : m0;
    info->page_size = psize;
    info->last_pgno = s_le64(m + S_OFF_LASTPG);
    info->txnid = s_le64(m + S_OFF_TXNID);
    info->map_size = s_le64(m + S_OFF_MAPSIZE);
    if (info->last_pgno < 1 || info->last_pgno > (UINT64_MAX / psize) - 1)
        return hs_error_set(err, HS_ECORRUPT, "%s: meta page says last page %llu", path,
                            (unsigned long long)info->last_pgno);
    info->need_bytes = (info->last_pgno + 1) * psize;
    return 0;
}

int hs_store_file_check(const char *dir, hs_store_file_info_t *info, hs_error_t *err)
{
    hs_store_file_info_t tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    char path[4096];
    if (snprintf(path, sizeof path, "%s/data.mdb", dir) >= (int)sizeof path)
        return hs_error_set(err, HS_EINVAL, "%s: path too long", dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? hs_error_set(err, HS_ENOTFOUND, "%s: no store here", dir)
                               : hs_error_set(err, HS_EIO, "%s: %s", path, strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = hs_error_set(err, HS_EIO, "%s: %s", path, strerror(errno));
    else if (st.st_size == 0)
        /* LMDB would answer "Bad file descriptor", and a writer would quietly start
         * a new store in it: a zero-length file is left by something else. */
        rc = hs_error_set(err, HS_ECORRUPT,
                          "%s is empty (0 bytes): not a store; to start a new store, "
                          "remove the folder %s", path, dir);
    if (rc == 0) {
        info->file_size = (uint64_t)st.st_size;
        rc = s_file_meta(fd, path, info, err);
    }
    close(fd);
    if (rc == 0 && info->file_size < info->need_bytes)
        rc = hs_error_set(err, HS_ECORRUPT,
                          "%s: store file is truncated: %llu bytes, its meta pages say at "
                          "least %llu", path, (unsigned long long)info->file_size,
                          (unsigned long long)info->need_bytes);
    return rc;
}

/* ---- the walk behind `hyeongse check` ---- */

typedef struct s_check s_check_t;
/* Per-entry test of one table's walk. */
typedef void (*s_entry_fn)(s_check_t *ck, const MDB_val *k, const MDB_val *v);

struct s_check {
    hs_store_t *s;
    MDB_txn *txn;
    hs_store_check_report_t *rep;
    hs_store_problem_cb cb;
    void *ctx;
    uint64_t idx_upto;       /* meta evalidx_upto: the index is complete up to it */
    uint8_t *seen;           /* bitmap of eval sequence numbers referenced, or NULL */
    uint64_t seen_max;
    int64_t game_evals;      /* evals hs_store_game_evals decoded */
    int64_t move_pairs;      /* (engine, seq) pairs of the moves entries */
    int64_t game_errors;     /* games whose evals could not all be read */
    hs__store_resolver_t *res;   /* bases of change-coded maps, for s_evaldata */
    hs_store_check_progress_fn progress;   /* or NULL */
    void *pctx;
    hs__store_eval_scratch_t *sc;
};

static void s_problem(s_check_t *ck, const char *table, const char *fmt, ...)
{
    char what[HS_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    ck->rep->problems++;
    if (ck->cb)
        ck->cb(ck->ctx, table, what);
}

static bool s_exists(s_check_t *ck, int db, const void *key, size_t klen)
{
    MDB_val k = { klen, (void *)key }, d;
    return mdb_get(ck->txn, ck->s->dbi[db], &k, &d) == 0;
}

static void s_hex(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", p[i]);
}

/* Walks table db in key order: counts entries, checks the order LMDB's comparator
 * promises and the count its page headers hold, and runs fn on each entry. */
static int64_t s_walk(s_check_t *ck, int db, const char *name, s_entry_fn fn)
{
    MDB_cursor *c;
    int64_t n = 0;
    ck->rep->walking = name;
    MDB_stat st;
    int64_t total = mdb_stat(ck->txn, ck->s->dbi[db], &st) == 0 ? (int64_t)st.ms_entries : 0;
    hs_store_check_progress_fn progress = ck->progress;
    int rc = mdb_cursor_open(ck->txn, ck->s->dbi[db], &c);
    if (rc) {
        s_problem(ck, name, "cannot open a cursor: %s", mdb_strerror(rc));
        return 0;
    }
    MDB_val k, v, prev = { 0, NULL };
    for (rc = mdb_cursor_get(c, &k, &v, MDB_FIRST); rc == 0;
         rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
        if (n > 0 && mdb_cmp(ck->txn, ck->s->dbi[db], &prev, &k) >= 0)
            s_problem(ck, name, "entry %lld is out of key order", (long long)n);
        prev = k;   /* points into the map: valid for the whole read txn */
        n++;
        if (fn)
            fn(ck, &k, &v);
        if (progress && (n & 0xFFFF) == 0)
            progress(ck->pctx, name, n, total);
    }
    if (progress)
        progress(ck->pctx, name, n, total);
    mdb_cursor_close(c);
    if (rc != MDB_NOTFOUND)
        s_problem(ck, name, "walk stopped after %lld entries: %s", (long long)n,
                  mdb_strerror(rc));
    if (mdb_stat(ck->txn, ck->s->dbi[db], &st) == 0 && (int64_t)st.ms_entries != n)
        s_problem(ck, name, "%lld entries walked, LMDB counts %llu", (long long)n,
                  (unsigned long long)st.ms_entries);
    return n;
}

static void s_mark(s_check_t *ck, uint64_t seq)
{
    if (ck->seen && seq >= 1 && seq <= ck->seen_max)
        ck->seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
}

static int s_count_eval(void *ctx, const hs_eval_t *e)
{
    (void)e;
    ((s_check_t *)ctx)->game_evals++;
    return 0;
}

static void s_game(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    char hex[33];
    if (k->mv_size != 16) {
        s_problem(ck, "games", "key of %zu bytes (16 expected)", k->mv_size);
        return;
    }
    s_hex(k->mv_data, 16, hex);
    uint64_t id[2] = { hs__rd64(k->mv_data), hs__rd64((const uint8_t *)k->mv_data + 8) };
    hs_game_t g;
    hs_error_t e = { 0 };
    if (hs_store_game_get(ck->s, id, &g, NULL, NULL, &e) != 0) {
        s_problem(ck, "games", "game %s: %s", hex, e.msg);
        return;
    }
    if (g.id[0] != id[0] || g.id[1] != id[1])
        s_problem(ck, "games", "game %s: its record holds another id", hex);
    hs_wire_game_t w = { .game = g };
    hs_wire_game_fini(&w);
    /* Every eval of the game through the query path's own decoder. */
    if (hs_store_game_evals(ck->s, id, 0, -1, 0, s_count_eval, ck, &e) != 0) {
        s_problem(ck, "moves", "game %s: %s", hex, e.msg);
        ck->game_errors++;
    }
    (void)v;
}

/* A failed game's record: format byte (and, from format 2, its checksum: the
 * same hs__store_rec_check the readers use), job, source, reason. */
static void s_failed(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    const char *p = v->mv_data;
    size_t n;
    uint8_t h[16];
    hs_error_t e = { 0 };
    if (hs__store_rec_check(v, "failed", k, &n, &e) != 0) {
        s_problem(ck, "failed", "%s", e.msg);
        return;
    }
    if (k->mv_size != 16 || n < 11 || p[n - 1] != 0 || strnlen(p + 9, n - 9) + 10 >= n) {
        s_problem(ck, "failed", "malformed entry");
        return;
    }
    uint8_t old[16];
    hs__store_failed_key(hs__rd64((const uint8_t *)p + 1), p + 9, h);
    hs_hash128(p + 9, strlen(p + 9), old);   /* the key before issue 15 */
    if (memcmp(h, k->mv_data, 16) != 0 && memcmp(old, k->mv_data, 16) != 0)
        s_problem(ck, "failed", "entry for '%.200s' is under another key", p + 9);
}

static void s_source(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    if (v->mv_size != 16)
        s_problem(ck, "sources", "'%.*s': value of %zu bytes", (int)(k->mv_size > 200 ? 200 : k->mv_size),
                  (const char *)k->mv_data, v->mv_size);
    else if (!s_exists(ck, HS_DB_GAMES, v->mv_data, 16))
        s_problem(ck, "sources", "'%.*s' names a game that is not stored",
                  (int)(k->mv_size > 200 ? 200 : k->mv_size), (const char *)k->mv_data);
}

static void s_player(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    const uint8_t *p = k->mv_data;
    (void)v;
    if (k->mv_size < 17 || p[k->mv_size - 17] != 0)
        s_problem(ck, "players", "malformed key of %zu bytes", k->mv_size);
    else if (!s_exists(ck, HS_DB_GAMES, p + k->mv_size - 16, 16))
        s_problem(ck, "players", "'%.200s' names a game that is not stored", (const char *)p);
}

/* moves: game (16) + move (2) -> position key (16) + (engine u32, seq u64)... */
static void s_move(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    const uint8_t *kp = k->mv_data, *vp = v->mv_data;
    if (k->mv_size != 18 || v->mv_size < 28 || (v->mv_size - 16) % 12) {
        s_problem(ck, "moves", "malformed entry (key %zu, value %zu bytes)", k->mv_size,
                  v->mv_size);
        return;
    }
    char hex[33];
    s_hex(kp, 16, hex);
    if (!s_exists(ck, HS_DB_GAMES, kp, 16))
        s_problem(ck, "moves", "game %s move %d: the game is not stored", hex, kp[16] << 8 | kp[17]);
    for (size_t off = 16; off < v->mv_size; off += 12) {
        ck->move_pairs++;
        uint64_t seq = hs__rd64(vp + off + 4);
        if (!s_exists(ck, HS_DB_EVALDATA, vp + off + 4, 8)) {
            s_problem(ck, "moves", "game %s move %d: eval record %llu is missing", hex,
                      kp[16] << 8 | kp[17], (unsigned long long)seq);
            continue;
        }
        s_mark(ck, seq);
        uint8_t ik[20];
        memcpy(ik, vp + off, 4);
        memcpy(ik + 4, vp, 16);
        MDB_val ikv = { 20, ik }, d;
        if (seq <= ck->idx_upto &&
            (mdb_get(ck->txn, ck->s->dbi[HS_DB_EVALIDX], &ikv, &d) != 0 || d.mv_size != 8 ||
             hs__rd64(d.mv_data) != seq))
            s_problem(ck, "evalidx", "game %s move %d: no index entry for eval %llu", hex,
                      kp[16] << 8 | kp[17], (unsigned long long)seq);
    }
}

/* evalidx: engine (4) + position key (16) -> seq; the record must say the same. */
static void s_index(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    if (k->mv_size != 20 || v->mv_size != 8) {
        s_problem(ck, "evalidx", "malformed entry (key %zu, value %zu bytes)", k->mv_size,
                  v->mv_size);
        return;
    }
    const uint8_t *kp = k->mv_data;
    uint64_t seq = hs__rd64(v->mv_data);
    hs_error_t er = { 0 };
    /* The record's own key and engine, checksum verified; s_evaldata decodes it
     * whole in key order, where each change-coded record's base is at hand (a
     * decode here, in hash order, would walk every chain back). */
    MDB_val sk = { 8, (void *)v->mv_data }, d;
    uint8_t pos_key[16];
    uint32_t engine_id = 0;
    size_t n;
    int rc = mdb_get(ck->txn, ck->s->dbi[HS_DB_EVALDATA], &sk, &d);
    if (rc) {
        s_problem(ck, "evalidx", "eval %llu: %s", (unsigned long long)seq,
                  rc == MDB_NOTFOUND ? "the record is missing" : mdb_strerror(rc));
        return;
    }
    if ((rc = hs__store_rec_check(&d, "evaldata", &sk, &n, &er)) == 0
        && ((const uint8_t *)d.mv_data)[0] == HS_STORE_REC_V1) {
        hs_eval_t e;   /* format 1: a decode is the only way to its key */
        if ((rc = hs_store_eval_get(ck->s, hs__rd32(kp), kp + 4, &e, &er)) == 0) {
            memcpy(pos_key, e.pos_key, 16);
            engine_id = e.engine_id;
            hs_eval_fini(&e);
        }
    } else if (rc == 0 && hs__store_eval_ident(&d, pos_key, &engine_id)) {
        rc = hs__store_corrupt(&er, "evaldata", &sk, "malformed eval record");
    }
    if (rc) {
        s_problem(ck, "evalidx", "eval %llu: %s", (unsigned long long)seq, er.msg);
        return;
    }
    if (engine_id != hs__rd32(kp) || memcmp(pos_key, kp + 4, 16) != 0)
        s_problem(ck, "evalidx", "eval %llu: the record is of another engine or position",
                  (unsigned long long)seq);
    s_mark(ck, seq);
}

static void s_evaldata(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    if (k->mv_size != 8) {
        s_problem(ck, "evaldata", "key of %zu bytes (8 expected)", k->mv_size);
        return;
    }
    uint64_t seq = hs__rd64(k->mv_data);
    hs_error_t err = { 0 };
    hs_eval_t e;
    if (v->mv_size < 2 || ((const uint8_t *)v->mv_data)[0] != HS_STORE_REC_V2)
        s_problem(ck, "evaldata", "eval %llu: bad header", (unsigned long long)seq);
    else if (ck->res && hs__store_eval_decode(k, v, &e, ck->sc, ck->res, &err))
        s_problem(ck, "evaldata", "eval %llu: %s", (unsigned long long)seq, err.msg);
    else if (ck->res)   /* in key order, each record's base was decoded just before */
        hs__store_resolver_keep(ck->res, seq, &e);
    /* Every record is reached from a moves entry, or at least from the index. */
    if (ck->seen && (seq < 1 || seq > ck->seen_max || !(ck->seen[seq / 8] & (1u << (seq % 8)))))
        s_problem(ck, "evaldata", "eval %llu: no moves entry or index entry points at it",
                  (unsigned long long)seq);
}

static void s_engine(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    (void)v;
    if (k->mv_size != 4)
        s_problem(ck, "engines", "key of %zu bytes (4 expected)", k->mv_size);
}

static void s_job(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    (void)v;
    hs_store_job_t j;
    hs_error_t e = { 0 };
    if (k->mv_size != 8)
        s_problem(ck, "jobs", "key of %zu bytes (8 expected)", k->mv_size);
    else if (hs_store_job_get(ck->s, hs__rd64(k->mv_data), &j, &e) != 0)
        s_problem(ck, "jobs", "job %llu: %s", (unsigned long long)hs__rd64(k->mv_data), e.msg);
}

static void s_task(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    (void)v;
    hs_store_task_t t;
    hs_error_t e = { 0 };
    if (k->mv_size != 8) {
        s_problem(ck, "tasks", "key of %zu bytes (8 expected)", k->mv_size);
        return;
    }
    unsigned long long id = hs__rd64(k->mv_data);
    if (hs_store_task_get(ck->s, id, &t, &e) != 0) {
        s_problem(ck, "tasks", "task %llu: %s", id, e.msg);
        return;
    }
    uint8_t sk[9], jk[8];
    sk[0] = (uint8_t)t.state;
    memcpy(sk + 1, k->mv_data, 8);
    hs__be64(jk, t.job_id);
    if (!s_exists(ck, HS_DB_TASKSTATE, sk, 9))
        s_problem(ck, "taskstate", "task %llu (%s) is not indexed by its state", id,
                  hs_task_state_name(t.state));
    if (!s_exists(ck, HS_DB_JOBS, jk, 8))
        s_problem(ck, "tasks", "task %llu: job %llu is not stored", id,
                  (unsigned long long)t.job_id);
}

static void s_taskstate(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    (void)v;
    if (k->mv_size != 9 || !s_exists(ck, HS_DB_TASKS, (const uint8_t *)k->mv_data + 1, 8))
        s_problem(ck, "taskstate", "entry for a task that is not stored");
}

/* jobgames: job (8) + game (16) -> (empty); both exist. */
static void s_jobgame(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    const uint8_t *kp = k->mv_data;
    if (k->mv_size != 24 || v->mv_size != 0) {
        s_problem(ck, "jobgames", "malformed entry (key %zu, value %zu bytes)", k->mv_size,
                  v->mv_size);
        return;
    }
    char hex[33];
    s_hex(kp + 8, 16, hex);
    if (!s_exists(ck, HS_DB_JOBS, kp, 8))
        s_problem(ck, "jobgames", "game %s: job %llu is not stored", hex,
                  (unsigned long long)hs__rd64(kp));
    if (!s_exists(ck, HS_DB_GAMES, kp + 8, 16))
        s_problem(ck, "jobgames", "job %llu: game %s is not stored",
                  (unsigned long long)hs__rd64(kp), hex);
}

/* boards: board key (8) + game (16) + move (2) -> symmetry (1); the game exists.
 * (Whether the key is right would take a replay per entry: `index` rebuilds.) */
static void s_board(s_check_t *ck, const MDB_val *k, const MDB_val *v)
{
    const uint8_t *kp = k->mv_data;
    if (k->mv_size != 26 || v->mv_size != 1 || *(const uint8_t *)v->mv_data >= 8) {
        s_problem(ck, "boards", "malformed entry (key %zu, value %zu bytes)", k->mv_size,
                  v->mv_size);
        return;
    }
    if (!s_exists(ck, HS_DB_GAMES, kp + 8, 16)) {
        char hex[33];
        s_hex(kp + 8, 16, hex);
        s_problem(ck, "boards", "game %s move %d: the game is not stored", hex,
                  kp[24] << 8 | kp[25]);
    }
}

/* Sizes the bitmap of referenced eval records from evaldata's last key; none
 * (and no orphan check) when that key is implausible for the entry count. */
static void s_seen_alloc(s_check_t *ck)
{
    MDB_cursor *c;
    MDB_val k, v;
    MDB_stat st;
    if (mdb_cursor_open(ck->txn, ck->s->dbi[HS_DB_EVALDATA], &c) != 0)
        return;
    int rc = mdb_cursor_get(c, &k, &v, MDB_LAST);
    mdb_cursor_close(c);
    if (rc || k.mv_size != 8 || mdb_stat(ck->txn, ck->s->dbi[HS_DB_EVALDATA], &st) != 0)
        return;
    uint64_t max = hs__rd64(k.mv_data);
    if (max > 4 * (uint64_t)st.ms_entries + (1u << 20)) {
        s_problem(ck, "evaldata", "last sequence number %llu for %llu records",
                  (unsigned long long)max, (unsigned long long)st.ms_entries);
        return;
    }
    ck->seen = calloc(max / 8 + 1, 1);
    ck->seen_max = ck->seen ? max : 0;
}

int hs_store_check(hs_store_t *s, hs_store_check_report_t *rep, hs_store_problem_cb cb,
                   void *ctx, hs_error_t *err)
{
    return hs_store_check_progress(s, rep, cb, ctx, NULL, NULL, err);
}

int hs_store_check_progress(hs_store_t *s, hs_store_check_report_t *rep,
                            hs_store_problem_cb cb, void *ctx,
                            hs_store_check_progress_fn progress, void *pctx, hs_error_t *err)
{
    memset(rep, 0, sizeof *rep);
    s_check_t ck = { .s = s, .rep = rep, .cb = cb, .ctx = ctx, .progress = progress,
                     .pctx = pctx };
    /* Inside a batch, the batch's own board entries are walked too. */
    int rc = hs__store_boards_flush(s, err);
    if (rc)
        return rc;
    /* One snapshot for the walks and for the record readers they call. */
    rc = hs_store_read_hold(s, err);
    bool own;
    if (rc == 0)
        rc = hs__store_rtxn(s, &ck.txn, &own, err);
    if (rc) {
        hs_store_read_release(s);
        return rc;
    }
    hs__store_meta_u64(ck.txn, s->dbi[HS_DB_META], "evalidx_upto", &ck.idx_upto);
    s_seen_alloc(&ck);
    /* Without memory for them, records are still checked through their games. */
    ck.res = hs__store_resolver_new(s, ck.txn);
    ck.sc = malloc(sizeof *ck.sc);
    if (!ck.sc) {
        hs__store_resolver_free(ck.res);
        ck.res = NULL;
    }
    rep->games = s_walk(&ck, HS_DB_GAMES, "games", s_game);
    rep->failed = s_walk(&ck, HS_DB_FAILED, "failed", s_failed);
    rep->sources = s_walk(&ck, HS_DB_SOURCES, "sources", s_source);
    rep->players = s_walk(&ck, HS_DB_PLAYERS, "players", s_player);
    rep->positions = s_walk(&ck, HS_DB_MOVES, "moves", s_move);
    rep->index_entries = s_walk(&ck, HS_DB_EVALIDX, "evalidx", s_index);
    rep->evals = s_walk(&ck, HS_DB_EVALDATA, "evaldata", s_evaldata);
    rep->engines = s_walk(&ck, HS_DB_ENGINES, "engines", s_engine);
    rep->jobs = s_walk(&ck, HS_DB_JOBS, "jobs", s_job);
    rep->tasks = s_walk(&ck, HS_DB_TASKS, "tasks", s_task);
    int64_t states = s_walk(&ck, HS_DB_TASKSTATE, "taskstate", s_taskstate);
    s_walk(&ck, HS_DB_META, "meta", NULL);
    if (!s->boards_absent)
        rep->boards = s_walk(&ck, HS_DB_BOARDS, "boards", s_board);
    if (!s->jobgames_absent)
        s_walk(&ck, HS_DB_JOBGAMES, "jobgames", s_jobgame);
    rep->walking = NULL;
    if (states != rep->tasks)
        s_problem(&ck, "taskstate", "%lld entries for %lld tasks", (long long)states,
                  (long long)rep->tasks);
    if (ck.game_evals != ck.move_pairs && !ck.game_errors)
        s_problem(&ck, "moves", "the games' evals decode to %lld records, their moves entries "
                  "name %lld", (long long)ck.game_evals, (long long)ck.move_pairs);
    free(ck.seen);
    hs__store_resolver_free(ck.res);
    free(ck.sc);
    hs__store_rdone(ck.txn, own);
    hs_store_read_release(s);
    return 0;
}
