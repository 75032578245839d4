/*
 * store/store_index.c — the writer's side of the `evalidx` hash index (see
 * store_internal.h): the pending table of entries not yet in the index, the Bloom
 * filter of what is, the sorted flush in a transaction of its own, and the rebuild
 * of the pending table after a crash. Index entries are derived data (evaldata is
 * the truth), which is what lets all of this stay out of the batch log.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- the pending-index table (see store_internal.h) ---- */

static uint32_t s_pend_slot(const uint8_t key[20], uint32_t mask)
{
    /* Position keys are already hashes: their first bytes spread well. */
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | key[4 + i];
    h ^= (uint64_t)hs__rd32(key) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h ^ h >> 32) & mask;
}

/* Key bits not used by s_pend_slot (position key bytes 8..11). */
static uint64_t s_pend_tag(const uint8_t key[20])
{
    return (uint64_t)hs__rd32(key + 12) << 32;
}

static void s_pend_insert_slot(hs_store_t *s, uint32_t i)
{
    uint32_t mask = s->hash_cap - 1, j = s_pend_slot(s->pend[i].key, mask);
    while (s->pend_hash[j])
        j = (j + 1) & mask;
    s->pend_hash[j] = s_pend_tag(s->pend[i].key) | (i + 1);
}

static void s_pend_rehash(hs_store_t *s)
{
    if (!s->pend_hash)
        return;
    memset(s->pend_hash, 0, sizeof *s->pend_hash * s->hash_cap);
    for (uint32_t i = 0; i < s->num_pend; i++)
        s_pend_insert_slot(s, i);
}

uint64_t hs__store_pend_find(const hs_store_t *s, const uint8_t key[20])
{
    if (!s->num_pend)
        return 0;
    uint32_t mask = s->hash_cap - 1;
    uint64_t tag = s_pend_tag(key);
    for (uint32_t j = s_pend_slot(key, mask); s->pend_hash[j]; j = (j + 1) & mask) {
        uint64_t h = s->pend_hash[j];
        if ((h & ~0xFFFFFFFFull) != tag)
            continue;
        const hs__store_pending_t *p = &s->pend[(uint32_t)h - 1];
        if (!memcmp(p->key, key, 20))
            return p->seq;
    }
    return 0;
}

/*
 * Zeroed memory for the table, on huge pages where the kernel allows (THP in
 * madvise mode): a lookup is one random access into megabytes, and with 4 KiB
 * pages nearly every one also missed the TLB (a two-level walk in a VM), which
 * measured as most of a lookup's cost. calloc maps big blocks fresh from the
 * kernel, so pages cost RAM only once written (a writer that stores a few evals
 * does not pay for the full table). Freed with free().
 */
static void *s_big_zalloc(size_t size)
{
    void *p = calloc(1, size);
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)p + size) & ~(huge - 1);
    if (p && b > a)
        madvise((void *)a, b - a, MADV_HUGEPAGE);   /* a hint: failure costs speed */
#endif
    return p;
}

/*
 * Grows the table. The first growth goes straight to a little above the flush
 * size (HS_STORE_INDEX_FLUSH by default: ~10 MB of entries + 8 MB of slots), so
 * a busy writer never rehashes or copies.
 */
static int s_pend_grow(hs_store_t *s)
{
    uint32_t cap;
    if (s->cap_pend)
        cap = s->cap_pend * 2;
    else if (s->flush_at <= (1u << 20))
        cap = s->flush_at + s->flush_at / 4 + 1024;
    else
        cap = 1u << 16;
    uint32_t hcap = 1024;
    while (hcap < 2 * cap)
        hcap *= 2;
    hs__store_pending_t *p = s_big_zalloc(sizeof *p * cap);
    uint64_t *h = s_big_zalloc(sizeof *h * hcap);
    if (!p || !h) {
        free(p);
        free(h);
        return HS_ENOMEM;
    }
    if (s->num_pend)
        memcpy(p, s->pend, sizeof *p * s->num_pend);
    free(s->pend);
    free(s->pend_hash);
    s->pend = p;
    s->pend_hash = h;
    s->hash_cap = hcap;
    s->cap_pend = cap;
    for (uint32_t i = 0; i < s->num_pend; i++)
        s_pend_insert_slot(s, i);
    return 0;
}

int hs__store_pend_add(hs_store_t *s, const uint8_t key[20], uint64_t seq)
{
    if (s->num_pend == s->cap_pend && s_pend_grow(s))
        return HS_ENOMEM;
    memcpy(s->pend[s->num_pend].key, key, 20);
    s->pend[s->num_pend].seq = seq;
    s_pend_insert_slot(s, s->num_pend++);
    return 0;
}

void hs__store_pend_truncate(hs_store_t *s, uint32_t n)
{
    if (n < s->num_pend) {
        s->num_pend = n;
        s_pend_rehash(s);
    }
}

/* ---- the evalidx filter (see hs__store_idx_maybe) ---- */

static void s_bloom_add(hs_store_t *s, const uint8_t key[20])
{
    uint64_t eng = (uint64_t)hs__rd32(key) * 0x9e3779b97f4a7c15ull;
    uint64_t h1 = hs__rd64(key + 4) ^ eng, h2 = hs__rd64(key + 12) ^ (eng >> 17);
    uint64_t *blk = s->bloom + 8 * (size_t)(h1 & (s->bloom_blocks - 1));
    for (int i = 0; i < 7; i++, h2 >>= 9)
        blk[(h2 >> 6) & 7] |= 1ull << (h2 & 63);
    s->bloom_n++;
}

static bool s_bloom_has(const hs_store_t *s, const uint8_t key[20])
{
    uint64_t eng = (uint64_t)hs__rd32(key) * 0x9e3779b97f4a7c15ull;
    uint64_t h1 = hs__rd64(key + 4) ^ eng, h2 = hs__rd64(key + 12) ^ (eng >> 17);
    const uint64_t *blk = s->bloom + 8 * (size_t)(h1 & (s->bloom_blocks - 1));
    for (int i = 0; i < 7; i++, h2 >>= 9)
        if (!(blk[(h2 >> 6) & 7] & 1ull << (h2 & 63)))
            return false;
    return true;
}

/* (Re)builds the filter from evalidx in txn, sized for twice what it holds plus
 * one flush. false when it cannot (memory, LMDB). */
static bool s_bloom_build(hs_store_t *s, MDB_txn *txn)
{
    MDB_stat st;
    if (mdb_stat(txn, s->dbi[HS_DB_EVALIDX], &st) != 0)
        return false;
    uint64_t want = 2 * (uint64_t)st.ms_entries + s->flush_at + 4096;
    uint32_t blocks = 64;
    while ((uint64_t)blocks * 32 < want && blocks < (1u << 26))
        blocks *= 2;
    free(s->bloom);
    s->bloom = s_big_zalloc((size_t)blocks * 64);
    if (!s->bloom)
        return false;
    s->bloom_blocks = blocks;
    s->bloom_cap = (uint64_t)blocks * 32;   /* 512 bits / 16 per key */
    s->bloom_n = 0;
    MDB_cursor *c;
    if (mdb_cursor_open(txn, s->dbi[HS_DB_EVALIDX], &c) != 0)
        goto fail;
    MDB_val k, v;
    int rc;
    for (rc = mdb_cursor_get(c, &k, &v, MDB_FIRST); rc == 0;
         rc = mdb_cursor_get(c, &k, &v, MDB_NEXT))
        if (k.mv_size == 20)
            s_bloom_add(s, k.mv_data);
    mdb_cursor_close(c);
    if (rc == MDB_NOTFOUND)
        return true;
fail:
    free(s->bloom);
    s->bloom = NULL;
    return false;
}

bool hs__store_idx_maybe(hs_store_t *s, MDB_txn *txn, const uint8_t key[20])
{
    if ((s->flags & HS_STORE_RDONLY) || s->bloom_off)
        return true;
    if (!s->bloom || s->bloom_n > s->bloom_cap) {
        if (!s_bloom_build(s, txn) || s->bloom_n > s->bloom_cap) {
            free(s->bloom);   /* too big to filter (> 2^31 keys) or no memory */
            s->bloom = NULL;
            s->bloom_off = true;
            return true;
        }
    }
    return s_bloom_has(s, key);
}

/*
 * Order for the flush: by the first 8 key bytes (engine id + 4 position-key bytes),
 * an LSD radix sort on that prefix (the engine bytes, equal for most entries, are
 * skipped), then equal prefixes by the whole key: exact key order. Returns a
 * malloc'd sorted copy of pend[] or NULL.
 */
static hs__store_pending_t *s_pend_order(const hs_store_t *s)
{
    uint32_t n = s->num_pend;
    uint64_t *k = malloc(sizeof *k * 2 * (n ? n : 1));
    uint32_t *ix = malloc(sizeof *ix * 2 * (n ? n : 1));
    if (!k || !ix) {
        free(k);
        free(ix);
        return NULL;
    }
    uint64_t *k2 = k + n;
    uint32_t *ix2 = ix + n;
    uint64_t all_or = 0, all_and = ~0ull;
    for (uint32_t i = 0; i < n; i++) {
        k[i] = hs__rd64(s->pend[i].key);
        ix[i] = i;
        all_or |= k[i];
        all_and &= k[i];
    }
    for (int shift = 0; shift < 64; shift += 8) {
        if ((((all_or ^ all_and) >> shift) & 0xFF) == 0)
            continue;   /* every key has the same byte here */
        uint32_t count[257] = { 0 };
        for (uint32_t i = 0; i < n; i++)
            count[((k[i] >> shift) & 0xFF) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t d = count[(k[i] >> shift) & 0xFF]++;
            k2[d] = k[i];
            ix2[d] = ix[i];
        }
        memcpy(k, k2, sizeof *k * n);
        memcpy(ix, ix2, sizeof *ix * n);
    }
    /* Runs with equal prefixes (a few per flush) are put in full key order: the
     * flush appends, and MDB_APPEND needs strictly growing keys. */
    for (uint32_t i = 1; i < n; i++) {
        if (k[i] != k[i - 1])
            continue;
        for (uint32_t j = i; j > 0 && k[j] == k[j - 1]
             && memcmp(s->pend[ix[j - 1]].key, s->pend[ix[j]].key, 20) > 0; j--) {
            uint32_t t = ix[j];
            ix[j] = ix[j - 1];
            ix[j - 1] = t;
        }
    }
    free(k);
    /* Gather the entries in that order in one tight loop: independent loads that
     * the CPU overlaps, instead of one cache miss per put in the flush loop. */
    hs__store_pending_t *out = malloc(sizeof *out * (n ? n : 1));
    if (out)
        for (uint32_t i = 0; i < n; i++)
            out[i] = s->pend[ix[i]];
    free(ix);
    return out;
}

/* One part of the flush's writes in txn (no log): pending entries [from, to) in
 * key order, and after the last part the watermark. 0 or an LMDB code
 * (MDB_MAP_FULL included). */
static int s_pend_write(hs_store_t *s, MDB_txn *txn, const hs__store_pending_t *ord,
                        uint32_t from, uint32_t to, bool last_part)
{
    MDB_cursor *c;
    int rc = mdb_cursor_open(txn, s->dbi[HS_DB_EVALIDX], &c);
    if (rc)
        return rc;
    MDB_val lk, lv;
    uint8_t last[20];
    bool have_last = mdb_cursor_get(c, &lk, &lv, MDB_LAST) == 0 && lk.mv_size == 20;
    if (have_last)
        memcpy(last, lk.mv_data, 20);
    bool appending = !have_last;
    uint64_t upto = 0;
    for (uint32_t i = from; i < to && rc == 0; i++) {
        const hs__store_pending_t *v = &ord[i];
        uint8_t seq[8];
        hs__be64(seq, v->seq);
        /* Sorted input: once past the index's last key, every later key is too. */
        if (!appending && memcmp(v->key, last, 20) > 0)
            appending = true;
        MDB_val k = { 20, (void *)v->key }, d = { 8, seq };
        rc = mdb_cursor_put(c, &k, &d, appending ? MDB_APPEND : 0);
        /* Before the commit: if it fails, the filter only holds a key too many. */
        if (rc == 0 && s->bloom)
            s_bloom_add(s, v->key);
    }
    mdb_cursor_close(c);
    if (rc == 0 && last_part) {
        for (uint32_t i = 0; i < s->num_pend; i++)
            if (ord[i].seq > upto)
                upto = ord[i].seq;
        uint8_t b[8];
        hs__be64(b, upto);
        MDB_val k = { 12, "evalidx_upto" }, d = { 8, b };
        rc = mdb_put(txn, s->dbi[HS_DB_META], &k, &d, 0);
    }
    return rc;
}

/* Commits part [from, to) of the flush in a transaction of its own, growing the
 * map on MDB_MAP_FULL. 0, or a negative hs_err with err set. */
static int s_pend_part(hs_store_t *s, const hs__store_pending_t *ord, uint32_t from,
                       uint32_t to, hs_error_t *err)
{
    for (;;) {
        MDB_txn *txn;
        int rc = mdb_txn_begin(s->env, NULL, 0, &txn);
        if (rc)
            return hs__store_mdb_error(err, rc, "index flush");
        rc = s_pend_write(s, txn, ord, from, to, to == s->num_pend);
        if (rc == 0)
            rc = mdb_txn_commit(txn);   /* frees txn, committed or not */
        else
            mdb_txn_abort(txn);
        if (rc == 0)
            return 0;
        if (rc != MDB_MAP_FULL)
            return hs__store_mdb_error(err, rc, "index flush");
        if ((rc = hs__store_map_grow(s, err)) != 0)
            return rc;
    }
}

/*
 * Writes every pending entry into evalidx, in key order, and moves the watermark,
 * in transactions of their own right after a batch commit (no batch may be open):
 * parts of consecutive keys, the watermark with the last; empties the table once
 * that commits. This is the store's biggest write
 * (HS_STORE_INDEX_FLUSH entries at once), so:
 *   - one cursor instead of hs__store_put: LMDB's cursor put looks for a key on the
 *     cursor's current leaf first, so sorted inserts skip the root-to-leaf descent;
 *   - keys above the index's last key (all of them on the first flush) go in with
 *     MDB_APPEND, which fills pages instead of splitting them in half;
 *   - no batch log: the entries are derived data still in the pending table, so on
 *     MDB_MAP_FULL the part's transaction is dropped, the map grown and the part
 *     redone from the table (the log would copy ~11 MB per flush only for that).
 * A crash between the batch's commit and the last part loses nothing: the
 * watermark has not moved, so the next writer rebuilds the table from evaldata
 * (and puts again, unchanged, what earlier parts wrote).
 */
int hs__store_pend_flush(hs_store_t *s, hs_error_t *err)
{
    if (s->txn)
        return hs_error_set(err, HS_EBADSTATE, "index flush inside a batch");
    hs__store_pending_t *ord = s_pend_order(s);
    if (!ord)
        return hs_error_set(err, HS_ENOMEM, "out of memory (index flush)");
    /* Parts of consecutive keys: each rewrites only its own stretch of the tree,
     * and the next part reuses the pages that one freed. In one transaction the
     * old copy of every touched page would stay in the file as free pages: about
     * the whole index again after the last flush (docs/STORE.md, "Sizes"). */
    uint32_t part = s->num_pend / HS__STORE_FLUSH_PARTS + 1;
    if (part < HS__STORE_FLUSH_PART_MIN)
        part = HS__STORE_FLUSH_PART_MIN;
    int rc = 0;
    for (uint32_t from = 0; from < s->num_pend && rc == 0; from += part) {
        uint32_t to = s->num_pend - from > part ? from + part : s->num_pend;
        rc = s_pend_part(s, ord, from, to, err);
    }
    free(ord);
    if (rc)
        return rc;
    hs__store_pend_truncate(s, 0);
    return 0;
}

/* Index key (engine id BE + position key) of an eval record of either format:
 * 0, or -1 when unreadable (skipped: the reader reports it when asked). */
static int s_rebuild_ident(const MDB_val *v, uint8_t ik[20])
{
    uint32_t eng;
    if (hs__store_eval_ident(v, ik + 4, &eng) == 0) {
        hs__be32(ik, eng);
        return 0;
    }
    /* format 1: format byte, [move_number, pos_key bin16, engine_id, ...] */
    hs_wire_reader_t r;
    const uint8_t *p = v->mv_data, *key;
    uint32_t n, kl;
    uint64_t mn, e64;
    if (v->mv_size < 2 || p[0] != HS_STORE_REC_V1)
        return -1;
    hs_wire_reader_init(&r, p + 1, v->mv_size - 1, NULL);
    if (hs_wire_read_array(&r, &n) || hs_wire_read_uint(&r, &mn)
        || hs_wire_read_bin(&r, &key, &kl, 16) || kl != 16 || hs_wire_read_uint(&r, &e64))
        return -1;
    hs__be32(ik, (uint32_t)e64);
    memcpy(ik + 4, key, 16);
    return 0;
}

/* Writer open: evals appended after the index watermark (a crash before the last
 * flush) go back into the pending table. */
int hs__store_pend_rebuild(hs_store_t *s, hs_error_t *err)
{
    MDB_txn *txn;
    int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn);
    if (rc)
        return hs__store_mdb_error(err, rc, "read transaction");
    uint64_t upto = 0;
    hs__store_meta_u64(txn, s->dbi[HS_DB_META], "evalidx_upto", &upto);
    MDB_cursor *c;
    if ((rc = mdb_cursor_open(txn, s->dbi[HS_DB_EVALDATA], &c)) != 0) {
        mdb_txn_abort(txn);
        return hs__store_mdb_error(err, rc, "cursor");
    }
    uint8_t start[8];
    hs__be64(start, upto + 1);
    MDB_val k = { 8, start }, v;
    int ret = 0;
    for (rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE); rc == 0 && ret == 0;
         rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
        uint8_t ik[20];
        if (k.mv_size != 8 || s_rebuild_ident(&v, ik))
            continue;
        if (!hs__store_pend_find(s, ik))
            ret = hs__store_pend_add(s, ik, hs__rd64(k.mv_data));
    }
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
    if (ret)
        return hs_error_set(err, HS_ENOMEM, "out of memory (index rebuild)");
    return rc && rc != MDB_NOTFOUND ? hs__store_mdb_error(err, rc, "evaldata") : 0;
}
