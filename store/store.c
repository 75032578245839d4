/*
 * store/store.c — the LMDB environment of store/store.h: open/close, batches with
 * their replay log and automatic map growth, read transactions, statistics.
 * Records live in store_records.c (games, evals) and store_jobs.c (the journal);
 * the eval index's pending table, filter and flush in store_index.c.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const s_db_names[HS_DB_COUNT] = {
    "games", "failed", "sources", "players", "moves", "evalidx", "evaldata", "engines",
    "jobs", "tasks", "taskstate", "meta", "boards",
};

static void s_batch_lost(hs_store_t *s);

int hs__store_mdb_error(hs_error_t *err, int rc, const char *what)
{
    /* A synced writer (pwrite, no WRITEMAP) meets a full disk as ENOSPC here;
     * LMDB's own integrity checks say MDB_CORRUPTED / MDB_PAGE_NOTFOUND. Each gets
     * its own code so that callers and scripts can tell them from other failures. */
    if (rc == ENOSPC || rc == EDQUOT)
        return hs_error_set(err, HS_ENOSPC, "disk full: %s: %s (what was committed is kept)",
                            what, mdb_strerror(rc));
    if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND)
        return hs_error_set(err, HS_ECORRUPT, "%s: %s (the store is damaged: see "
                            "`hyeongse check`)", what, mdb_strerror(rc));
    return hs_error_set(err, HS_ESTORE, "%s: %s", what, mdb_strerror(rc));
}

/* ---- the map's disk space ---- */

/*
 * A writer that maps the file writable (MDB_WRITEMAP, see hs_store_open) writes
 * new pages straight into the map. LMDB only ftruncates the file to the map size,
 * so those pages are holes, and on a full disk the kernel can answer a store into
 * a hole only with SIGBUS: no message, and no chance to stop cleanly. So the
 * whole map is reserved with posix_fallocate before LMDB may write into it (at
 * open and at every growth); then a full disk is an ENOSPC here, before any page
 * of the batch is written, and the last commit stays intact. The price is disk
 * space: the file takes its map size on disk, not its used size, which is why a
 * reserving writer keeps its map close to the pages in use: doubling while it is
 * under 64 MiB, then a quarter more, at most HS_STORE_GROW_MAX at a time (the
 * growths this costs, each a retried batch, are about twenty for the pro
 * archive).
 * Catching the SIGBUS instead would mean jumping out of the middle of an LMDB
 * write with its transaction half-updated.
 */
#define HS_STORE_GROW_MIN ((size_t)16 << 20)
#define HS_STORE_GROW_MAX ((size_t)256 << 20)

/* The room a reserving writer keeps above size bytes: as much again while the
 * store is small (doubling, cheap in disk), then a quarter, 16 to 256 MiB. */
static size_t s_headroom(size_t size)
{
    if (size < 4 * HS_STORE_GROW_MIN)
        return size ? size : 1;
    size_t step = size / 4;
    return step > HS_STORE_GROW_MAX ? HS_STORE_GROW_MAX : step;
}

static bool s_reserving(const hs_store_t *s)
{
    unsigned ef = 0;
    return mdb_env_get_flags(s->env, &ef) == 0 && (ef & MDB_WRITEMAP);
}

static const char *s_env_dir(const hs_store_t *s)
{
    const char *dir = NULL;
    return mdb_env_get_path(s->env, &dir) == 0 && dir ? dir : "?";
}

/* Allocates the file's blocks up to size bytes: 0, or the errno. */
static int s_fallocate(const hs_store_t *s, size_t size)
{
    int fd;
    if (mdb_env_get_fd(s->env, &fd) != 0)
        return EBADF;
    int e = posix_fallocate(fd, 0, (off_t)size);
    if (e && s->map_size)
        (void)!ftruncate(fd, (off_t)s->map_size);  /* drop a partial extension */
    return e;
}

static int s_nospace(const hs_store_t *s, size_t want, int e, hs_error_t *err)
{
    if (e != ENOSPC && e != EDQUOT)
        return hs_error_set(err, HS_EIO, "%s/data.mdb: cannot reserve %zu bytes: %s",
                            s_env_dir(s), want, strerror(e));
    return hs_error_set(err, HS_ENOSPC,
                        "disk full: %s/data.mdb needs %zu bytes for its map (it has %zu); "
                        "free space or move the store: what was committed is kept",
                        s_env_dir(s), want, s->map_size);
}

/*
 * Grows the map (no transaction open in this process): doubles it, or for a
 * reserving writer adds s_headroom, whose reservation tries smaller steps (down
 * to 1 MiB) before it reports the disk full. 0, HS_ENOSPC, HS_EIO, HS_ESTORE.
 */
int hs__store_map_grow(hs_store_t *s, hs_error_t *err)
{
    bool reserve = s_reserving(s);
    size_t step = reserve ? s_headroom(s->map_size) : s->map_size;
    int e = 0;
    while (reserve && (e = s_fallocate(s, s->map_size + step)) != 0) {
        if ((e != ENOSPC && e != EDQUOT) || step <= ((size_t)1 << 20))
            return s_nospace(s, s->map_size + step, e, err);
        step /= 2;
    }
    int rc = mdb_env_set_mapsize(s->env, s->map_size + step);
    if (rc)
        return hs__store_mdb_error(err, rc, "growing the map");
    s->map_size += step;
    return 0;
}

/* At open: reserves the pages in use and s_headroom above them (at most the map
 * LMDB was given: a big initial map would take its size on disk even for a small
 * store), or less, down to 1 MiB of room above the pages in use, when the disk
 * cannot hold that. */
static int s_reserve_open(hs_store_t *s, hs_error_t *err)
{
    if (!s_reserving(s))
        return 0;
    MDB_envinfo info;
    MDB_stat st;
    mdb_env_info(s->env, &info);
    mdb_env_stat(s->env, &st);
    size_t used = (info.me_last_pgno + 1) * (size_t)st.ms_psize;
    size_t want = used + s_headroom(used);
    if (want > info.me_mapsize)
        want = info.me_mapsize;   /* LMDB made it at least the pages in use */
    size_t floor = used + ((size_t)1 << 20) < want ? used + ((size_t)1 << 20) : want;
    int e;
    while ((e = s_fallocate(s, want)) != 0) {
        size_t next = want / 2 > floor ? want / 2 : floor;
        if ((e != ENOSPC && e != EDQUOT) || next == want)
            return s_nospace(s, want, e, err);
        want = next;
    }
    if (want != info.me_mapsize) {
        int rc = mdb_env_set_mapsize(s->env, want);
        if (rc)
            return hs__store_mdb_error(err, rc, "sizing the map");
    }
    s->map_size = want;
    return 0;
}

/* ---- open / close ---- */

int hs__store_meta_u64(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t *v)
{
    MDB_val k = { strlen(name), (void *)name }, d;
    int rc = mdb_get(txn, dbi, &k, &d);
    if (rc)
        return rc;
    if (d.mv_size != 8)
        return MDB_CORRUPTED;
    *v = hs__rd64(d.mv_data);
    return 0;
}

/*
 * LMDB checks its pages with assertions and abort()s when one fails, which on
 * a store means a damaged page. Said as such, and raised as the fault a
 * damaged page gives through a wild pointer: a reader under the CLI's fault
 * guard (cli/fault_guard.h) then reports HS_ECORRUPT like any other damage,
 * and a process without a guard still ends, as LMDB meant it to.
 */
static void s_lmdb_assert(MDB_env *env, const char *msg)
{
    (void)env;
    fprintf(stderr, "hyeongse: the store is damaged: LMDB: %s\n", msg);
    raise(SIGBUS);
}

int hs_store_open(hs_store_t **out, const char *dir, unsigned flags, size_t map_size,
                  hs_error_t *err)
{
    *out = NULL;
    bool rdonly = flags & HS_STORE_RDONLY;
    /* Before LMDB maps the file: a short file faults its readers with SIGBUS,
     * and a writer's WRITEMAP would extend it with zeros and hide the damage. */
    int frc = hs_store_file_check(dir, NULL, err);
    if (frc && (frc != HS_ENOTFOUND || rdonly))
        return frc;
    hs_error_clear(err);
    if (!rdonly && mkdir(dir, 0777) != 0 && errno != EEXIST)
        return hs_error_set(err, HS_EIO, "%s: cannot create: %s", dir, strerror(errno));
    hs_store_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    s->flags = flags;
    s->flush_at = HS_STORE_INDEX_FLUSH;
    int rc = mdb_env_create(&s->env);
    if (rc) {
        free(s);
        return hs__store_mdb_error(err, rc, "mdb_env_create");
    }
    mdb_env_set_maxdbs(s->env, HS_DB_COUNT + 4);
    mdb_env_set_assert(s->env, s_lmdb_assert);
    /* Generous reader table: queries from many processes while the broker writes. */
    mdb_env_set_maxreaders(s->env, 254);
    if (map_size == 0)
        map_size = HS_STORE_DEFAULT_MAP;
    if (!rdonly)
        mdb_env_set_mapsize(s->env, map_size);
    unsigned eflags = MDB_NOTLS;
    if (rdonly)
        eflags |= MDB_RDONLY;
    /* An unsynced writer (analyze, and the broker unless --sync) maps the file
     * writable: commits then write no page copies with pwrite, about a fifth less
     * store CPU per record and a third less broker CPU per task (bench/store.sh,
     * bench/broker.sh). LMDB still copies on write, so a kill -9 mid-commit leaves
     * the last committed state, as before. Synced commits don't: there msync ran
     * at half the rate with more CPU. No nested transactions are used. Readers
     * (MDB_RDONLY) ignore the flag. LMDB warns against writers with and without it
     * on one environment at the same time (durability of the synced one): a store
     * has one writer, its broker or analyze, so that does not arise. */
    if (flags & HS_STORE_NOSYNC)
        eflags |= MDB_NOSYNC | (rdonly ? 0 : MDB_WRITEMAP);
    rc = mdb_env_open(s->env, dir, eflags, 0664);
    if (rc) {
        mdb_env_close(s->env);
        free(s);
        return rc == ENOENT ? hs_error_set(err, HS_ENOTFOUND, "%s: no store here", dir)
                            : hs__store_mdb_error(err, rc, dir);
    }
    /* An existing store may already be bigger than asked: keep its size. */
    MDB_envinfo info;
    mdb_env_info(s->env, &info);
    s->map_size = info.me_mapsize;
    if ((rc = s_reserve_open(s, err)) != 0) {
        mdb_env_close(s->env);
        free(s);
        return rc;
    }
    MDB_txn *txn;
retry:
    rc = mdb_txn_begin(s->env, NULL, rdonly ? MDB_RDONLY : 0, &txn);
    if (rc)
        goto fail_mdb;
    for (int i = 0; i < HS_DB_COUNT; i++) {
        rc = mdb_dbi_open(txn, s_db_names[i], rdonly ? 0 : MDB_CREATE, &s->dbi[i]);
        if (rc == MDB_NOTFOUND && i == HS_DB_BOARDS) {
            /* A store from before the board index: readable, index incomplete. */
            s->boards_absent = true;
            rc = 0;
            continue;
        }
        if (rc) {
            mdb_txn_abort(txn);
            if (rc == MDB_NOTFOUND) {
                mdb_env_close(s->env);
                free(s);
                return hs_error_set(err, HS_ENOTFOUND, "%s: not a hyeongse store (no '%s')",
                                    dir, s_db_names[i]);
            }
            goto fail_mdb;
        }
    }
    uint64_t schema = 0;
    rc = hs__store_meta_u64(txn, s->dbi[HS_DB_META], "schema", &schema);
    if (rc == MDB_NOTFOUND && !rdonly) {
        uint8_t v[8];
        hs__be64(v, HS_STORE_SCHEMA);
        MDB_val k = { 6, "schema" }, d = { 8, v };
        rc = mdb_put(txn, s->dbi[HS_DB_META], &k, &d, 0);
        schema = HS_STORE_SCHEMA;
    }
    if (rc == MDB_MAP_FULL) {
        /* Even creating the databases can overflow a tiny map: grow, start over. */
        mdb_txn_abort(txn);
        goto grow;
    }
    if (rc && rc != MDB_NOTFOUND) {
        mdb_txn_abort(txn);
        goto fail_mdb;
    }
    if (schema > HS_STORE_SCHEMA) {
        mdb_txn_abort(txn);
        mdb_env_close(s->env);
        free(s);
        return hs_error_set(err, HS_EUNSUPPORTED, "%s: store format version %llu is newer "
                            "than this program's %d: use a newer hyeongse",
                            dir, (unsigned long long)schema, HS_STORE_SCHEMA);
    }
    /* Format version and kept maps (store_evals.c). */
    if ((rc = hs__store_format_open(s, txn, schema)) == MDB_MAP_FULL) {
        mdb_txn_abort(txn);
        goto grow;
    }
    if (rc == 0 && (rc = hs__store_boards_open(s, txn)) == MDB_MAP_FULL) {
        mdb_txn_abort(txn);
        goto grow;
    }
    if (rc) {
        mdb_txn_abort(txn);
        goto fail_mdb;
    }
    /* Commit even a read-only txn: an aborted one would close the dbi handles. */
    rc = mdb_txn_commit(txn);
    if (rc == MDB_MAP_FULL && !rdonly)
        goto grow;
    if (rc)
        goto fail_mdb;
    if (!rdonly && (rc = hs__store_pend_rebuild(s, err)) != 0) {
        hs_store_t *tmp = s;
        hs_store_close(&tmp);
        return rc;
    }
    *out = s;
    return 0;
grow:
    if ((rc = hs__store_map_grow(s, err)) != 0) {
        mdb_env_close(s->env);
        free(s);
        return rc;
    }
    goto retry;
fail_mdb:
    mdb_env_close(s->env);
    free(s);
    return hs__store_mdb_error(err, rc, dir);
}

/*
 * A reserving writer's file holds its whole map on disk (see "Disk space"
 * above). At a clean close the room above the last page is given back, so a
 * finished store takes the size of its data: the next writer reserves again
 * at open, and readers never read past the last page. s_release_fd dups the
 * descriptor (the env's own is gone after mdb_env_close) and notes the size;
 * s_release_reserve truncates to it once LMDB has unmapped the file. Best
 * effort: a failure only leaves the room reserved.
 */
static int s_release_fd(hs_store_t *s)
{
    MDB_envinfo info;
    MDB_stat st;
    int fd;
    if (!s_reserving(s) || mdb_env_info(s->env, &info) || mdb_env_stat(s->env, &st) ||
        mdb_env_get_fd(s->env, &fd))
        return -1;
    s->release_size = (info.me_last_pgno + 1) * (size_t)st.ms_psize;
    return dup(fd);
}

static void s_release_reserve(const hs_store_t *s, int fd)
{
    if (fd < 0)
        return;
    struct stat sb;
    if (s->release_size && fstat(fd, &sb) == 0 && (size_t)sb.st_size > s->release_size)
        (void)!ftruncate(fd, (off_t)s->release_size);
    close(fd);
}

void hs_store_close(hs_store_t **sp)
{
    if (!sp || !*sp)
        return;
    hs_store_t *s = *sp;
    hs_store_abort(s);
    if (s->rtxn)
        mdb_txn_abort(s->rtxn);
    s->rtxn = NULL;
    s->rtxn_held = false;
    /* Flush the pending index so the next open has nothing to rebuild and readers
     * can look the newest evals up (best effort: the data is safe either way). */
    if (s->num_pend && !(s->flags & HS_STORE_RDONLY))
        hs__store_pend_flush(s, NULL);
    int keep_fd = s_release_fd(s);
    mdb_env_close(s->env);
    s_release_reserve(s, keep_fd);
    free(s->pend);
    free(s->pend_hash);
    free(s->bloom);
    free(s->bpend);
    hs_wire_buf_free(&s->log);
    hs_wire_buf_free(&s->rec);
    free(s->chain);
    free(s);
    *sp = NULL;
}

size_t hs_store_map_size(const hs_store_t *s) { return s->map_size; }

void hs_store_set_index_flush(hs_store_t *s, unsigned n)
{
    s->flush_at = n ? n : HS_STORE_INDEX_FLUSH;
}

/* ---- the batch log ---- */

/* Log entry: op (1), db (1), flags (4), klen (4), vlen (4), key, value. */
#define S_LOG_HDR 14

static int s_log_append(hs_store_t *s, uint8_t op, int db, unsigned flags, const void *key,
                        size_t klen, const void *val, size_t vlen)
{
    hs_wire_buf_t *b = &s->log;
    size_t need = b->len + S_LOG_HDR + klen + vlen;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 1u << 16;
        while (cap < need)
            cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d)
            return HS_ENOMEM;
        b->data = d;
        b->cap = cap;
    }
    uint8_t *p = b->data + b->len;
    p[0] = op;
    p[1] = (uint8_t)db;
    hs__be32(p + 2, flags);
    hs__be32(p + 6, (uint32_t)klen);
    hs__be32(p + 10, (uint32_t)vlen);
    memcpy(p + S_LOG_HDR, key, klen);
    if (vlen)
        memcpy(p + S_LOG_HDR + klen, val, vlen);
    b->len = need;
    return 0;
}

/*
 * Map growth, shared by every write path (the ONE place MDB_MAP_FULL is handled):
 * aborts the batch's txn (LMDB leaves a txn that hit MAP_FULL unusable; s->txn may
 * already be NULL when mdb_txn_commit failed and freed it), doubles the map, begins
 * a fresh txn and replays the batch log into it, doubling again while the replay
 * itself overflows. On success the batch is exactly as it was before the failed
 * operation, which the caller then retries.
 */
static int s_grow_and_replay_once(hs_store_t *s, hs_error_t *err)
{
    /* LMDB remaps at a new size only with no transaction open in the process:
     * a held read snapshot ends here (reads begin their own until the next hold). */
    hs_store_read_release(s);
    for (;;) {
        if (s->txn)
            mdb_txn_abort(s->txn);
        s->txn = NULL;
        int rc = hs__store_map_grow(s, err);
        if (rc)
            return rc;
        rc = mdb_txn_begin(s->env, NULL, 0, &s->txn);
        if (rc) {
            s->txn = NULL;
            return hs__store_mdb_error(err, rc, "mdb_txn_begin");
        }
        size_t off = 0;
        while (off < s->log.len && rc == 0) {
            const uint8_t *p = s->log.data + off;
            uint32_t fl = hs__rd32(p + 2), kl = hs__rd32(p + 6), vl = hs__rd32(p + 10);
            MDB_val k = { kl, (void *)(p + S_LOG_HDR) }, d = { vl, (void *)(p + S_LOG_HDR + kl) };
            if (p[0] == 'p')
                rc = mdb_put(s->txn, s->dbi[p[1]], &k, &d, fl);
            else {
                rc = mdb_del(s->txn, s->dbi[p[1]], &k, NULL);
                if (rc == MDB_NOTFOUND)
                    rc = 0;
            }
            off += S_LOG_HDR + kl + vl;
        }
        if (rc == 0)
            return 0;
        if (rc != MDB_MAP_FULL)
            return hs__store_mdb_error(err, rc, "replaying a batch");
    }
}

static int s_grow_and_replay(hs_store_t *s, hs_error_t *err)
{
    int ret = s_grow_and_replay_once(s, err);
    if (ret)
        s_batch_lost(s);   /* the batch is gone: no half-open state is left behind */
    return ret;
}

/*
 * One write in the open batch: op 'p' (mdb_put with flags) or 'd' (mdb_del of the
 * key, a missing key being fine). Every write of the store goes through here, so
 * every one of them survives MDB_MAP_FULL the same way: grow, replay, retry. On
 * success the operation is appended to the batch log (a NOOVERWRITE put that
 * succeeded replays as a plain put; a delete that found nothing is not logged).
 * For a put with MDB_NOOVERWRITE of an existing key, returns HS_EEXIST and, when
 * old is not NULL, the stored value in *old (valid until the next write).
 */
static int s_write(hs_store_t *s, uint8_t op, int db, const void *key, size_t klen,
                   const void *val, size_t vlen, unsigned flags, MDB_val *old, hs_error_t *err)
{
    if (!s->txn)
        return hs_error_set(err, HS_EBADSTATE, "%s: write outside a batch", s_db_names[db]);
    for (;;) {
        MDB_val k = { klen, (void *)key }, d = { vlen, (void *)val };
        int rc = op == 'p' ? mdb_put(s->txn, s->dbi[db], &k, &d, flags)
                           : mdb_del(s->txn, s->dbi[db], &k, NULL);
        if (rc == 0)
            break;
        if (op == 'd' && rc == MDB_NOTFOUND)
            return 0;
        if (rc == MDB_KEYEXIST) {
            if (old)
                *old = d;   /* LMDB returns the existing value here */
            return HS_EEXIST;
        }
        if (rc != MDB_MAP_FULL)
            return hs__store_mdb_error(err, rc, s_db_names[db]);
        if ((rc = s_grow_and_replay(s, err)))
            return rc;
    }
    if (s_log_append(s, op, db, op == 'p' ? flags & MDB_APPEND : 0, key, klen, val,
                     op == 'p' ? vlen : 0))
        return hs_error_set(err, HS_ENOMEM, "out of memory (batch log)");
    return 0;
}

int hs__store_put(hs_store_t *s, int db, const void *key, size_t klen, const void *val,
                 size_t vlen, unsigned flags, hs_error_t *err)
{
    return s_write(s, 'p', db, key, klen, val, vlen, flags, NULL, err);
}

int hs__store_put_new(hs_store_t *s, int db, const void *key, size_t klen, const void *val,
                     size_t vlen, MDB_val *old, hs_error_t *err)
{
    return s_write(s, 'p', db, key, klen, val, vlen, MDB_NOOVERWRITE, old, err);
}

int hs__store_del(hs_store_t *s, int db, const void *key, size_t klen, hs_error_t *err)
{
    return s_write(s, 'd', db, key, klen, NULL, 0, 0, NULL, err);
}

/* ---- batches ---- */

bool hs_store_in_batch(const hs_store_t *s) { return s->txn != NULL; }

int hs_store_begin(hs_store_t *s, hs_error_t *err)
{
    if (s->flags & HS_STORE_RDONLY)
        return hs_error_set(err, HS_EBADSTATE, "the store is open read-only");
    if (s->txn)
        return hs_error_set(err, HS_EBADSTATE, "a batch is already open");
    int rc = mdb_txn_begin(s->env, NULL, 0, &s->txn);
    if (rc) {
        s->txn = NULL;
        return hs__store_mdb_error(err, rc, "mdb_txn_begin");
    }
    s->log.len = 0;
    s->bpend_n = 0;
    s->next_eval_seq = 0;
    s->next_task_id = 0;
    s->pend_at_begin = s->num_pend;
    return 0;
}

/* Adds the in-memory counter deltas to the saved counters (inside the batch). */
static int s_save_counters(hs_store_t *s, hs_error_t *err)
{
    static const char *const names[4] = { "eval_lookups", "eval_hits", "result_puts",
                                          "result_dups" };
    int64_t *deltas[4] = { &s->d_lookups, &s->d_hits, &s->d_puts, &s->d_dups };
    for (int i = 0; i < 4; i++) {
        if (!*deltas[i])
            continue;
        uint64_t v = 0;
        int rc = hs__store_meta_u64(s->txn, s->dbi[HS_DB_META], names[i], &v);
        if (rc && rc != MDB_NOTFOUND)
            return hs__store_mdb_error(err, rc, "meta");
        uint8_t b[8];
        hs__be64(b, v + (uint64_t)*deltas[i]);
        if ((rc = hs__store_put(s, HS_DB_META, names[i], strlen(names[i]), b, 8, 0, err)))
            return rc;
    }
    return 0;
}

int hs_store_commit(hs_store_t *s, hs_error_t *err)
{
    if (!s->txn)
        return hs_error_set(err, HS_EBADSTATE, "no batch is open");
    int rc = hs__store_boards_flush(s, err);
    if (rc == 0)
        rc = s_save_counters(s, err);
    if (rc) {
        hs_store_abort(s);
        return rc;
    }
    for (;;) {
        int mrc = mdb_txn_commit(s->txn);
        s->txn = NULL;  /* committed or freed either way */
        if (mrc == 0)
            break;
        if (mrc != MDB_MAP_FULL) {
            s_batch_lost(s);
            return hs__store_mdb_error(err, mrc, "commit");
        }
        /* The failed commit freed the txn: grow and replay the batch, like a
         * write that hit MAP_FULL, and commit again. */
        if ((rc = s_grow_and_replay(s, err)))
            return rc;
    }
    s->d_lookups = s->d_hits = s->d_puts = s->d_dups = 0;
    s->log.len = 0;
    /* Give back a big log after a huge batch so an idle writer holds little memory. */
    if (s->log.cap > (64u << 20)) {
        hs_wire_buf_free(&s->log);
    }
    if (s->bpend_cap > (16u << 20)) {
        free(s->bpend);
        s->bpend = NULL;
        s->bpend_cap = 0;
    }
    /* The batch is committed whatever happens next. A failed index flush loses
     * nothing (the entries stay pending, and are retried at the next commit and at
     * close), so it is not reported as a failed commit. */
    if (s->num_pend >= s->flush_at)
        hs__store_pend_flush(s, NULL);
    return 0;
}

/* Forgets the open batch (its txn, if any, is aborted): the log, the index
 * entries it added, what it taught about engines, its put counters. */
static void s_batch_lost(hs_store_t *s)
{
    if (s->txn)
        mdb_txn_abort(s->txn);
    s->txn = NULL;
    s->log.len = 0;
    s->next_task_id = 0;
    s->bpend_n = 0;
    hs__store_pend_truncate(s, s->pend_at_begin);
    s->num_engines_seen = 0;
    hs__store_chain_reset(s);   /* its records, the bases it knew, are gone */
    /* The puts of an aborted batch did not happen; its lookups did (they are
     * saved with the next commit). */
    s->d_puts = s->d_dups = 0;
}

void hs_store_abort(hs_store_t *s)
{
    if (s && s->txn)
        s_batch_lost(s);
}

int hs__store_wbegin(hs_store_t *s, bool *auto_batch, hs_error_t *err)
{
    *auto_batch = false;
    if (s->flags & HS_STORE_RDONLY)
        return hs_error_set(err, HS_EBADSTATE, "the store is open read-only");
    if (s->txn)
        return 0;
    *auto_batch = true;
    return hs_store_begin(s, err);
}

int hs__store_wend(hs_store_t *s, bool auto_batch, int rc, hs_error_t *err)
{
    if (!auto_batch)
        return rc;
    if (rc && rc != HS_EEXIST) {
        hs_store_abort(s);
        return rc;
    }
    int crc = hs_store_commit(s, err);
    return crc ? crc : rc;
}

int hs_store_read_hold(hs_store_t *s, hs_error_t *err)
{
    if (s->rtxn_held)
        return 0;
    int rc;
    if (s->rtxn) {
        rc = mdb_txn_renew(s->rtxn);
        if (rc) {
            mdb_txn_abort(s->rtxn);
            s->rtxn = NULL;
        }
    }
    if (!s->rtxn) {
        bool own;
        if ((rc = hs__store_rtxn(s, &s->rtxn, &own, err)) != 0) {
            s->rtxn = NULL;
            return rc;
        }
        if (!own) {   /* a batch is open: reads go through it anyway */
            s->rtxn = NULL;
            return 0;
        }
    }
    s->rtxn_held = true;
    return 0;
}

void hs_store_read_release(hs_store_t *s)
{
    if (s->rtxn_held)
        mdb_txn_reset(s->rtxn);   /* keeps its reader slot for the next renew */
    s->rtxn_held = false;
}

int hs__store_rtxn(hs_store_t *s, MDB_txn **txn, bool *own, hs_error_t *err)
{
    if (s->txn) {
        *txn = s->txn;
        *own = false;
        return 0;
    }
    if (s->rtxn_held) {
        *txn = s->rtxn;
        *own = false;
        return 0;
    }
    *own = true;
    int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, txn);
    if (rc == MDB_MAP_RESIZED) {
        /* The writer grew the map: adopt the new size and retry. */
        mdb_env_set_mapsize(s->env, 0);
        MDB_envinfo info;
        mdb_env_info(s->env, &info);
        s->map_size = info.me_mapsize;
        rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, txn);
    }
    if (rc)
        return hs__store_mdb_error(err, rc, "read transaction");
    return 0;
}

void hs__store_rdone(MDB_txn *txn, bool own)
{
    if (own)
        mdb_txn_abort(txn);
}

/* ---- statistics ---- */

int hs_store_stats(hs_store_t *s, hs_store_stats_t *out, hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    MDB_txn *txn;
    bool own;
    int rc = hs__store_rtxn(s, &txn, &own, err);
    if (rc)
        return rc;
    const struct { int db; int64_t *dst; } counts[] = {
        { HS_DB_GAMES, &out->games }, { HS_DB_FAILED, &out->failed_games },
        { HS_DB_MOVES, &out->positions }, { HS_DB_EVALDATA, &out->evals },
        { HS_DB_PLAYERS, &out->players }, { HS_DB_JOBS, &out->jobs },
        { HS_DB_TASKS, &out->tasks },
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        MDB_stat st;
        if ((rc = mdb_stat(txn, s->dbi[counts[i].db], &st)) != 0) {
            hs__store_rdone(txn, own);
            return hs__store_mdb_error(err, rc, "mdb_stat");
        }
        *counts[i].dst = (int64_t)st.ms_entries;
    }
    const char *names[4] = { "eval_lookups", "eval_hits", "result_puts", "result_dups" };
    int64_t *dst[4] = { &out->eval_lookups, &out->eval_hits, &out->result_puts,
                        &out->result_dups };
    int64_t mem[4] = { s->d_lookups, s->d_hits, s->d_puts, s->d_dups };
    for (int i = 0; i < 4; i++) {
        uint64_t v = 0;
        hs__store_meta_u64(txn, s->dbi[HS_DB_META], names[i], &v);
        *dst[i] = (int64_t)v + mem[i];
    }
    MDB_envinfo info;
    MDB_stat est;
    mdb_env_info(s->env, &info);
    mdb_env_stat(s->env, &est);
    /* The map size the meta pages record (the largest any writer gave it), so that
     * a reader and the writer, whose own map may be smaller (a reserving writer
     * maps only what it reserved), report the same figure. */
    hs_store_file_info_t fi;
    out->map_size = info.me_mapsize;
    if (hs_store_file_check(s_env_dir(s), &fi, NULL) == 0 && fi.map_size > out->map_size)
        out->map_size = (size_t)fi.map_size;
    out->map_used = (size_t)(info.me_last_pgno + 1) * est.ms_psize;
    hs__store_rdone(txn, own);
    return 0;
}
