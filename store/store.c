/*
 * store/store.c — the LMDB environment of store/store.h: open/close, batches with
 * their replay log and automatic map growth, read transactions, statistics.
 * Records live in store_records.c (games, evals) and store_jobs.c (the journal).
 */
#include "store/store_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const s_db_names[HS_DB_COUNT] = {
    "games", "failed", "sources", "players", "moves", "evalidx", "evaldata", "engines",
    "jobs", "tasks", "taskstate", "meta",
};

static int s_pend_flush(hs_store_t *s, hs_error_t *err);
static void s_batch_lost(hs_store_t *s);
static int s_pend_rebuild(hs_store_t *s, hs_error_t *err);

int hs_store_mdb_error(hs_error_t *err, int rc, const char *what)
{
    return hs_error_set(err, HS_ESTORE, "%s: %s", what, mdb_strerror(rc));
}

/* ---- open / close ---- */

static int s_read_meta_u64(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t *v)
{
    MDB_val k = { strlen(name), (void *)name }, d;
    int rc = mdb_get(txn, dbi, &k, &d);
    if (rc)
        return rc;
    if (d.mv_size != 8)
        return MDB_CORRUPTED;
    *v = hs_rd64(d.mv_data);
    return 0;
}

int hs_store_open(hs_store_t **out, const char *dir, unsigned flags, size_t map_size,
                  hs_error_t *err)
{
    *out = NULL;
    bool rdonly = flags & HS_STORE_RDONLY;
    char path[4096];
    snprintf(path, sizeof path, "%s/data.mdb", dir);
    struct stat st;
    if (rdonly && stat(path, &st) != 0)
        return hs_error_set(err, HS_ENOTFOUND, "%s: no store here", dir);
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
        return hs_store_mdb_error(err, rc, "mdb_env_create");
    }
    mdb_env_set_maxdbs(s->env, HS_DB_COUNT + 4);
    /* Generous reader table: queries from many processes while the broker writes. */
    mdb_env_set_maxreaders(s->env, 254);
    if (map_size == 0)
        map_size = HS_STORE_DEFAULT_MAP;
    if (!rdonly)
        mdb_env_set_mapsize(s->env, map_size);
    unsigned eflags = MDB_NOTLS;
    if (rdonly)
        eflags |= MDB_RDONLY;
    if (flags & HS_STORE_NOSYNC)
        eflags |= MDB_NOSYNC;
    rc = mdb_env_open(s->env, dir, eflags, 0664);
    if (rc) {
        mdb_env_close(s->env);
        free(s);
        return rc == ENOENT ? hs_error_set(err, HS_ENOTFOUND, "%s: no store here", dir)
                            : hs_store_mdb_error(err, rc, dir);
    }
    /* An existing store may already be bigger than asked: keep its size. */
    MDB_envinfo info;
    mdb_env_info(s->env, &info);
    s->map_size = info.me_mapsize;
    MDB_txn *txn;
retry:
    rc = mdb_txn_begin(s->env, NULL, rdonly ? MDB_RDONLY : 0, &txn);
    if (rc)
        goto fail_mdb;
    for (int i = 0; i < HS_DB_COUNT; i++) {
        rc = mdb_dbi_open(txn, s_db_names[i], rdonly ? 0 : MDB_CREATE, &s->dbi[i]);
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
    rc = s_read_meta_u64(txn, s->dbi[HS_DB_META], "schema", &schema);
    if (rc == MDB_NOTFOUND && !rdonly) {
        uint8_t v[8];
        hs_be64(v, HS_STORE_SCHEMA);
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
        return hs_error_set(err, HS_EUNSUPPORTED, "%s: store schema %llu is newer than %d",
                            dir, (unsigned long long)schema, HS_STORE_SCHEMA);
    }
    /* Commit even a read-only txn: an aborted one would close the dbi handles. */
    rc = mdb_txn_commit(txn);
    if (rc == MDB_MAP_FULL && !rdonly)
        goto grow;
    if (rc)
        goto fail_mdb;
    if (!rdonly && (rc = s_pend_rebuild(s, err)) != 0) {
        hs_store_t *tmp = s;
        hs_store_close(&tmp);
        return rc;
    }
    *out = s;
    return 0;
grow:
    if ((rc = mdb_env_set_mapsize(s->env, s->map_size * 2)) != 0)
        goto fail_mdb;
    s->map_size *= 2;
    goto retry;
fail_mdb:
    mdb_env_close(s->env);
    free(s);
    return hs_store_mdb_error(err, rc, dir);
}

void hs_store_close(hs_store_t **sp)
{
    if (!sp || !*sp)
        return;
    hs_store_t *s = *sp;
    hs_store_abort(s);
    /* Flush the pending index so the next open has nothing to rebuild and readers
     * can look the newest evals up (best effort: the data is safe either way). */
    if (s->num_pend && !(s->flags & HS_STORE_RDONLY) && hs_store_begin(s, NULL) == 0) {
        if (s_pend_flush(s, NULL) == 0 && hs_store_commit(s, NULL) == 0)
            s->num_pend = 0;
        else
            hs_store_abort(s);
    }
    mdb_env_close(s->env);
    free(s->pend);
    free(s->pend_hash);
    hs_wire_buf_free(&s->log);
    hs_wire_buf_free(&s->rec);
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
    hs_be32(p + 2, flags);
    hs_be32(p + 6, (uint32_t)klen);
    hs_be32(p + 10, (uint32_t)vlen);
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
    for (;;) {
        if (s->txn)
            mdb_txn_abort(s->txn);
        s->txn = NULL;
        size_t size = s->map_size * 2;
        int rc = mdb_env_set_mapsize(s->env, size);
        if (rc)
            return hs_store_mdb_error(err, rc, "growing the map");
        s->map_size = size;
        rc = mdb_txn_begin(s->env, NULL, 0, &s->txn);
        if (rc) {
            s->txn = NULL;
            return hs_store_mdb_error(err, rc, "mdb_txn_begin");
        }
        size_t off = 0;
        while (off < s->log.len && rc == 0) {
            const uint8_t *p = s->log.data + off;
            uint32_t fl = hs_rd32(p + 2), kl = hs_rd32(p + 6), vl = hs_rd32(p + 10);
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
            return hs_store_mdb_error(err, rc, "replaying a batch");
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
            return hs_store_mdb_error(err, rc, s_db_names[db]);
        if ((rc = s_grow_and_replay(s, err)))
            return rc;
    }
    if (s_log_append(s, op, db, op == 'p' ? flags & MDB_APPEND : 0, key, klen, val,
                     op == 'p' ? vlen : 0))
        return hs_error_set(err, HS_ENOMEM, "out of memory (batch log)");
    return 0;
}

int hs_store_put(hs_store_t *s, int db, const void *key, size_t klen, const void *val,
                 size_t vlen, unsigned flags, hs_error_t *err)
{
    return s_write(s, 'p', db, key, klen, val, vlen, flags, NULL, err);
}

int hs_store_put_new(hs_store_t *s, int db, const void *key, size_t klen, const void *val,
                     size_t vlen, MDB_val *old, hs_error_t *err)
{
    return s_write(s, 'p', db, key, klen, val, vlen, MDB_NOOVERWRITE, old, err);
}

int hs_store_del(hs_store_t *s, int db, const void *key, size_t klen, hs_error_t *err)
{
    return s_write(s, 'd', db, key, klen, NULL, 0, 0, NULL, err);
}

/* ---- the pending-index table (see store_internal.h) ---- */

static uint32_t s_pend_slot(const uint8_t key[20], uint32_t mask)
{
    /* Position keys are already hashes: their first bytes spread well. */
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | key[4 + i];
    h ^= (uint64_t)hs_rd32(key) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h ^ h >> 32) & mask;
}

static void s_pend_rehash(hs_store_t *s)
{
    memset(s->pend_hash, 0, sizeof *s->pend_hash * s->hash_cap);
    for (uint32_t i = 0; i < s->num_pend; i++) {
        uint32_t j = s_pend_slot(s->pend[i].key, s->hash_cap - 1);
        while (s->pend_hash[j])
            j = (j + 1) & (s->hash_cap - 1);
        s->pend_hash[j] = i + 1;
    }
}

uint64_t hs_store_pend_find(const hs_store_t *s, const uint8_t key[20])
{
    if (!s->num_pend)
        return 0;
    for (uint32_t j = s_pend_slot(key, s->hash_cap - 1); s->pend_hash[j];
         j = (j + 1) & (s->hash_cap - 1)) {
        const hs_store_pending_t *p = &s->pend[s->pend_hash[j] - 1];
        if (!memcmp(p->key, key, 20))
            return p->seq;
    }
    return 0;
}

int hs_store_pend_add(hs_store_t *s, const uint8_t key[20], uint64_t seq)
{
    if (s->num_pend == s->cap_pend) {
        uint32_t cap = s->cap_pend ? s->cap_pend * 2 : 4096;
        hs_store_pending_t *p = realloc(s->pend, sizeof *p * cap);
        if (!p)
            return HS_ENOMEM;
        s->pend = p;
        uint32_t *h = malloc(sizeof *h * (size_t)cap * 4);
        if (!h)
            return HS_ENOMEM;
        free(s->pend_hash);
        s->pend_hash = h;
        s->hash_cap = cap * 4;
        s->cap_pend = cap;
        s_pend_rehash(s);
    }
    memcpy(s->pend[s->num_pend].key, key, 20);
    s->pend[s->num_pend].seq = seq;
    uint32_t j = s_pend_slot(key, s->hash_cap - 1);
    while (s->pend_hash[j])
        j = (j + 1) & (s->hash_cap - 1);
    s->pend_hash[j] = ++s->num_pend;
    return 0;
}

static void s_pend_truncate(hs_store_t *s, uint32_t n)
{
    if (n < s->num_pend) {
        s->num_pend = n;
        s_pend_rehash(s);
    }
}

static int s_cmp_pend(const void *a, const void *b)
{
    return memcmp(((const hs_store_pending_t *)a)->key, ((const hs_store_pending_t *)b)->key, 20);
}

/* Writes every pending entry into evalidx in key order, inside the open batch, and
 * moves the watermark. The table is emptied only after the commit succeeds. */
static int s_pend_flush(hs_store_t *s, hs_error_t *err)
{
    hs_store_pending_t *v = malloc(sizeof *v * (s->num_pend ? s->num_pend : 1));
    if (!v)
        return hs_error_set(err, HS_ENOMEM, "out of memory (index flush)");
    memcpy(v, s->pend, sizeof *v * s->num_pend);
    qsort(v, s->num_pend, sizeof *v, s_cmp_pend);
    uint64_t upto = 0;
    int rc = 0;
    for (uint32_t i = 0; i < s->num_pend && rc == 0; i++) {
        uint8_t seq[8];
        hs_be64(seq, v[i].seq);
        if (v[i].seq > upto)
            upto = v[i].seq;
        rc = hs_store_put(s, HS_DB_EVALIDX, v[i].key, 20, seq, 8, 0, err);
    }
    free(v);
    if (rc == 0) {
        uint8_t b[8];
        hs_be64(b, upto);
        rc = hs_store_put(s, HS_DB_META, "evalidx_upto", 12, b, 8, 0, err);
    }
    return rc;
}

/* Writer open: evals appended after the index watermark (a crash before the last
 * flush) go back into the pending table. */
static int s_pend_rebuild(hs_store_t *s, hs_error_t *err)
{
    MDB_txn *txn;
    int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn);
    if (rc)
        return hs_store_mdb_error(err, rc, "read transaction");
    uint64_t upto = 0;
    s_read_meta_u64(txn, s->dbi[HS_DB_META], "evalidx_upto", &upto);
    MDB_cursor *c;
    if ((rc = mdb_cursor_open(txn, s->dbi[HS_DB_EVALDATA], &c)) != 0) {
        mdb_txn_abort(txn);
        return hs_store_mdb_error(err, rc, "cursor");
    }
    uint8_t start[8];
    hs_be64(start, upto + 1);
    MDB_val k = { 8, start }, v;
    int ret = 0;
    for (rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE); rc == 0 && ret == 0;
         rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
        /* eval record: schema byte, [move_number, pos_key bin16, engine_id, ...] */
        hs_wire_reader_t r;
        const uint8_t *p = v.mv_data, *key;
        uint32_t n, kl;
        uint64_t mn, eng;
        if (k.mv_size != 8 || v.mv_size < 2)
            continue;
        hs_wire_reader_init(&r, p + 1, v.mv_size - 1, NULL);
        if (hs_wire_read_array(&r, &n) || hs_wire_read_uint(&r, &mn)
            || hs_wire_read_bin(&r, &key, &kl, 16) || kl != 16 || hs_wire_read_uint(&r, &eng))
            continue;
        uint8_t ik[20];
        hs_be32(ik, (uint32_t)eng);
        memcpy(ik + 4, key, 16);
        if (!hs_store_pend_find(s, ik))
            ret = hs_store_pend_add(s, ik, hs_rd64(k.mv_data));
    }
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
    if (ret)
        return hs_error_set(err, HS_ENOMEM, "out of memory (index rebuild)");
    return rc && rc != MDB_NOTFOUND ? hs_store_mdb_error(err, rc, "evaldata") : 0;
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
        return hs_store_mdb_error(err, rc, "mdb_txn_begin");
    }
    s->log.len = 0;
    s->next_eval_seq = 0;
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
        int rc = s_read_meta_u64(s->txn, s->dbi[HS_DB_META], names[i], &v);
        if (rc && rc != MDB_NOTFOUND)
            return hs_store_mdb_error(err, rc, "meta");
        uint8_t b[8];
        hs_be64(b, v + (uint64_t)*deltas[i]);
        if ((rc = hs_store_put(s, HS_DB_META, names[i], strlen(names[i]), b, 8, 0, err)))
            return rc;
    }
    return 0;
}

int hs_store_commit(hs_store_t *s, hs_error_t *err)
{
    if (!s->txn)
        return hs_error_set(err, HS_EBADSTATE, "no batch is open");
    int rc = s_save_counters(s, err);
    bool flushed = false;
    if (rc == 0 && s->num_pend >= s->flush_at) {
        rc = s_pend_flush(s, err);
        flushed = rc == 0;
    }
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
            return hs_store_mdb_error(err, mrc, "commit");
        }
        /* The failed commit freed the txn: grow and replay the batch, like a
         * write that hit MAP_FULL, and commit again. */
        if ((rc = s_grow_and_replay(s, err)))
            return rc;
    }
    if (flushed)
        s_pend_truncate(s, 0);
    s->d_lookups = s->d_hits = s->d_puts = s->d_dups = 0;
    s->log.len = 0;
    /* Give back a big log after a huge batch so an idle writer holds little memory. */
    if (s->log.cap > (64u << 20)) {
        hs_wire_buf_free(&s->log);
    }
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
    s_pend_truncate(s, s->pend_at_begin);
    s->num_engines_seen = 0;
    /* The puts of an aborted batch did not happen; its lookups did (they are
     * saved with the next commit). */
    s->d_puts = s->d_dups = 0;
}

void hs_store_abort(hs_store_t *s)
{
    if (s && s->txn)
        s_batch_lost(s);
}

int hs_store_wbegin(hs_store_t *s, bool *auto_batch, hs_error_t *err)
{
    *auto_batch = false;
    if (s->flags & HS_STORE_RDONLY)
        return hs_error_set(err, HS_EBADSTATE, "the store is open read-only");
    if (s->txn)
        return 0;
    *auto_batch = true;
    return hs_store_begin(s, err);
}

int hs_store_wend(hs_store_t *s, bool auto_batch, int rc, hs_error_t *err)
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

int hs_store_rtxn(hs_store_t *s, MDB_txn **txn, bool *own, hs_error_t *err)
{
    if (s->txn) {
        *txn = s->txn;
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
        return hs_store_mdb_error(err, rc, "read transaction");
    return 0;
}

void hs_store_rdone(MDB_txn *txn, bool own)
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
    int rc = hs_store_rtxn(s, &txn, &own, err);
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
            hs_store_rdone(txn, own);
            return hs_store_mdb_error(err, rc, "mdb_stat");
        }
        *counts[i].dst = (int64_t)st.ms_entries;
    }
    const char *names[4] = { "eval_lookups", "eval_hits", "result_puts", "result_dups" };
    int64_t *dst[4] = { &out->eval_lookups, &out->eval_hits, &out->result_puts,
                        &out->result_dups };
    int64_t mem[4] = { s->d_lookups, s->d_hits, s->d_puts, s->d_dups };
    for (int i = 0; i < 4; i++) {
        uint64_t v = 0;
        s_read_meta_u64(txn, s->dbi[HS_DB_META], names[i], &v);
        *dst[i] = (int64_t)v + mem[i];
    }
    MDB_envinfo info;
    MDB_stat est;
    mdb_env_info(s->env, &info);
    mdb_env_stat(s->env, &est);
    out->map_size = info.me_mapsize;
    out->map_used = (size_t)(info.me_last_pgno + 1) * est.ms_psize;
    hs_store_rdone(txn, own);
    return 0;
}
