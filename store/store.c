/*
 * store/store.c — the LMDB environment of store/store.h: open/close, batches with
 * their replay log and automatic map growth, read transactions, statistics.
 * Records live in store_records.c (games, evals) and store_jobs.c (the journal);
 * the eval index's pending table, filter and flush in store_index.c; the map's
 * disk space in store_space.c.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const hs__store_db_names[HS_DB_COUNT] = {
    "games", "failed", "sources", "players", "moves", "evalidx", "evaldata", "engines",
    "jobs", "tasks", "taskstate", "meta", "boards", "jobgames",
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

/* s's LMDB environment on dir, opened as s->flags say (map_size 0: the
 * default) and with extra LMDB flags: 0, an LMDB error code of the open
 * itself (positive, err not set: the caller decides), or an error with the
 * environment closed again. */
static int s_env_open_flags(hs_store_t *s, const char *dir, size_t map_size, unsigned extra,
                            hs_error_t *err)
{
    bool rdonly = s->flags & HS_STORE_RDONLY;
    int rc = mdb_env_create(&s->env);
    if (rc)
        return hs__store_mdb_error(err, rc, "mdb_env_create");
    mdb_env_set_maxdbs(s->env, HS_DB_COUNT + 4);
    mdb_env_set_assert(s->env, s_lmdb_assert);
    /* Generous reader table: queries from many processes while the broker writes. */
    mdb_env_set_maxreaders(s->env, 254);
    if (map_size == 0)
        map_size = HS_STORE_DEFAULT_MAP;
    if (!rdonly)
        mdb_env_set_mapsize(s->env, map_size);
    unsigned eflags = MDB_NOTLS | extra;
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
    if (s->flags & HS_STORE_NOSYNC)
        eflags |= MDB_NOSYNC | (rdonly ? 0 : MDB_WRITEMAP);
    rc = mdb_env_open(s->env, dir, eflags, 0664);
    if (rc && rdonly && (rc == EACCES || rc == EROFS) && !(extra & MDB_NOLOCK)) {
        mdb_env_close(s->env);
        s->env = NULL;
        return rc;
    }
    if (rc)
        rc = rc == ENOENT ? hs_error_set(err, HS_ENOTFOUND, "%s: no store here", dir)
                          : hs__store_mdb_error(err, rc, dir);
    if (rc == 0) {
        /* An existing store may already be bigger than asked: keep its size. */
        MDB_envinfo info;
        mdb_env_info(s->env, &info);
        s->map_size = info.me_mapsize;
        rc = hs__store_reserve_open(s, err);
    }
    if (rc) {
        mdb_env_close(s->env);
        s->env = NULL;
    }
    return rc;
}

/*
 * A reader of a store it may not write into (a colleague's copy on a
 * read-only share, a read-only mount): LMDB's reader table lives in
 * lock.mdb, which such a reader cannot open for writing. It then reads
 * without the table (MDB_NOLOCK), which is safe only while nobody writes; so
 * it holds a shared flock of the folder, which every writer of ours takes
 * exclusively (hs__store_writer_lock): a writer at work makes it refuse, and
 * a writer that comes later is refused until it has finished (and says why).
 */
static int s_env_open(hs_store_t *s, const char *dir, size_t map_size, hs_error_t *err)
{
    int rc = s_env_open_flags(s, dir, map_size, 0, err);
    if (rc <= 0)
        return rc;
    int why = rc;
    if ((rc = hs__store_reader_lock(dir, &s->writer_fd, err)) != 0) {
        if (rc == HS_EAGAIN)
            hs_error_set(err, HS_EPERM, "%s: cannot read this store while another process "
                         "writes it without write access to the folder (LMDB's lock.mdb: "
                         "%s): wait for the writer to finish, or read a copy", dir,
                         strerror(why));
        return rc == HS_EAGAIN ? HS_EPERM : rc;
    }
    return s_env_open_flags(s, dir, map_size, MDB_NOLOCK, err);
}

#define S_GROW 1   /* s_open_try: the map filled up; grow it and try again */

/* The tables, in txn (created for a writer): 0 or an error. */
static int s_open_tables(hs_store_t *s, MDB_txn *txn, const char *dir, hs_error_t *err)
{
    bool rdonly = s->flags & HS_STORE_RDONLY;
    for (int i = 0; i < HS_DB_COUNT; i++) {
        int rc = mdb_dbi_open(txn, hs__store_db_names[i], rdonly ? 0 : MDB_CREATE, &s->dbi[i]);
        if (rc == MDB_NOTFOUND && i == HS_DB_BOARDS) {
            /* A store from before the board index: readable, index incomplete. */
            s->boards_absent = true;
            continue;
        }
        if (rc == MDB_NOTFOUND && i == HS_DB_JOBGAMES) {
            /* A store from before job memberships: a job's games are those
             * whose record names it (hs_store_job_has_game). */
            s->jobgames_absent = true;
            continue;
        }
        if (rc == MDB_NOTFOUND)
            return hs_error_set(err, HS_ENOTFOUND, "%s: not a hyeongse store (no '%s')",
                                dir, hs__store_db_names[i]);
        if (rc)
            return hs__store_mdb_error(err, rc, dir);
    }
    return 0;
}

/* The format version (written into a new store), the maps kept and the board
 * index's state, in txn: 0, S_GROW or an error. */
static int s_open_format(hs_store_t *s, MDB_txn *txn, const char *dir, hs_error_t *err)
{
    uint64_t schema = 0;
    int rc = hs__store_meta_u64(txn, s->dbi[HS_DB_META], "schema", &schema);
    if (rc == MDB_NOTFOUND && !(s->flags & HS_STORE_RDONLY)) {
        uint8_t v[8];
        hs__be64(v, HS_STORE_SCHEMA);
        MDB_val k = { 6, "schema" }, d = { 8, v };
        rc = mdb_put(txn, s->dbi[HS_DB_META], &k, &d, 0);
        schema = HS_STORE_SCHEMA;
    }
    if (rc == MDB_MAP_FULL)   /* even creating the tables can overflow a tiny map */
        return S_GROW;
    if (rc && rc != MDB_NOTFOUND)
        return hs__store_mdb_error(err, rc, dir);
    if (schema > HS_STORE_SCHEMA)
        return hs_error_set(err, HS_EUNSUPPORTED, "%s: store format version %llu is newer "
                            "than this program's %d: use a newer hyeongse",
                            dir, (unsigned long long)schema, HS_STORE_SCHEMA);
    /* Format version and kept maps (store_evals.c), then the board index. */
    rc = hs__store_format_open(s, txn, schema);
    if (rc == 0)
        rc = hs__store_boards_open(s, txn);
    if (rc == MDB_MAP_FULL)
        return S_GROW;
    return rc ? hs__store_mdb_error(err, rc, dir) : 0;
}

/* One try at opening the tables and checking the format, in one transaction:
 * 0, S_GROW or an error. */
static int s_open_try(hs_store_t *s, const char *dir, hs_error_t *err)
{
    bool rdonly = s->flags & HS_STORE_RDONLY;
    MDB_txn *txn;
    int rc = mdb_txn_begin(s->env, NULL, rdonly ? MDB_RDONLY : 0, &txn);
    if (rc)
        return hs__store_mdb_error(err, rc, dir);
    rc = s_open_tables(s, txn, dir, err);
    if (rc == 0)
        rc = s_open_format(s, txn, dir, err);
    if (rc) {
        mdb_txn_abort(txn);
        return rc;
    }
    /* Commit even a read-only txn: an aborted one would close the dbi handles. */
    rc = mdb_txn_commit(txn);
    if (rc == MDB_MAP_FULL && !rdonly)
        return S_GROW;
    return rc ? hs__store_mdb_error(err, rc, dir) : 0;
}

int hs_store_open(hs_store_t **out, const char *dir, unsigned flags, size_t map_size,
                  hs_error_t *err)
{
    *out = NULL;
    bool rdonly = flags & HS_STORE_RDONLY;
    /* Before LMDB maps the file: a short file faults its readers with SIGBUS,
     * and a writer's WRITEMAP would extend it with zeros and hide the damage. */
    int rc = hs_store_file_check(dir, NULL, err);
    if (rc && (rc != HS_ENOTFOUND || rdonly))
        return rc;
    hs_error_clear(err);
    if (!rdonly && mkdir(dir, 0777) != 0 && errno != EEXIST)
        return hs_error_set(err, HS_EIO, "%s: cannot create: %s", dir, strerror(errno));
    hs_store_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    s->flags = flags;
    s->flush_at = HS_STORE_INDEX_FLUSH;
    s->writer_fd = -1;
    if ((!rdonly && (rc = hs__store_writer_lock(dir, &s->writer_fd, err)) != 0) ||
        (rc = s_env_open(s, dir, map_size, err)) != 0) {
        hs__store_writer_unlock(s->writer_fd);
        free(s);
        return rc;
    }
    while ((rc = s_open_try(s, dir, err)) == S_GROW)
        if ((rc = hs__store_map_grow(s, err)) != 0)
            break;
    if (rc) {
        mdb_env_close(s->env);
        hs__store_writer_unlock(s->writer_fd);
        free(s);
        return rc;
    }
    if (!rdonly && (rc = hs__store_pend_rebuild(s, err)) != 0) {
        hs_store_t *tmp = s;
        hs_store_close(&tmp);
        return rc;
    }
    *out = s;
    return 0;
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
    int keep_fd = hs__store_release_fd(s);
    mdb_env_close(s->env);
    hs__store_release_reserve(s, keep_fd);
    hs__store_writer_unlock(s->writer_fd);   /* last: after the file's last change */
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
    if (hs_wire_buf_grow(b, S_LOG_HDR + klen + vlen) < 0)
        return HS_ENOMEM;
    uint8_t *p = b->data + b->len;
    p[0] = op;
    p[1] = (uint8_t)db;
    hs__be32(p + 2, flags);
    hs__be32(p + 6, (uint32_t)klen);
    hs__be32(p + 10, (uint32_t)vlen);
    memcpy(p + S_LOG_HDR, key, klen);
    if (vlen)
        memcpy(p + S_LOG_HDR + klen, val, vlen);
    b->len += S_LOG_HDR + klen + vlen;
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
        return hs_error_set(err, HS_EBADSTATE, "%s: write outside a batch", hs__store_db_names[db]);
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
            return hs__store_mdb_error(err, rc, hs__store_db_names[db]);
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
    static const char *const names[5] = { "eval_lookups", "eval_hits", "result_puts",
                                          "result_dups", "games_refreshed" };
    int64_t *deltas[5] = { &s->d_lookups, &s->d_hits, &s->d_puts, &s->d_dups,
                           &s->d_refreshed };
    for (int i = 0; i < 5; i++) {
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
    s->d_lookups = s->d_hits = s->d_puts = s->d_dups = s->d_refreshed = 0;
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
    s->d_puts = s->d_dups = s->d_refreshed = 0;
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
        { HS_DB_GAMES, &out->games }, { HS_DB_FAILED, &out->failed_records },
        { HS_DB_MOVES, &out->positions }, { HS_DB_EVALDATA, &out->evals },
        { HS_DB_JOBS, &out->jobs }, { HS_DB_TASKS, &out->tasks },
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        MDB_stat st;
        if ((rc = mdb_stat(txn, s->dbi[counts[i].db], &st)) != 0) {
            hs__store_rdone(txn, own);
            return hs__store_mdb_error(err, rc, "mdb_stat");
        }
        *counts[i].dst = (int64_t)st.ms_entries;
    }
    /* Names, not index entries (two a game): a seek a name. */
    if ((rc = hs__store_players_count(s, txn, &out->players, err)) != 0) {
        hs__store_rdone(txn, own);
        return rc;
    }
    const char *names[5] = { "eval_lookups", "eval_hits", "result_puts", "result_dups",
                             "games_refreshed" };
    int64_t *dst[5] = { &out->eval_lookups, &out->eval_hits, &out->result_puts,
                        &out->result_dups, &out->games_refreshed };
    int64_t mem[5] = { s->d_lookups, s->d_hits, s->d_puts, s->d_dups, s->d_refreshed };
    for (int i = 0; i < 5; i++) {
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
    if (hs_store_file_check(hs__store_dir(s), &fi, NULL) == 0 && fi.map_size > out->map_size)
        out->map_size = (size_t)fi.map_size;
    out->map_used = (size_t)(info.me_last_pgno + 1) * est.ms_psize;
    hs__store_rdone(txn, own);
    /* Failures are few (a few per thousand games): counting their sources once
     * is a short scan. */
    return out->failed_records ? hs_store_failed_count(s, 0, &out->failed_games, err) : 0;
}
