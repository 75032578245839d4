/*
 * store/store_internal.h — what the store's .c files share (not a public API).
 *
 * The write path: every write of a batch (hs__store_put, hs__store_put_new,
 * hs__store_del; the counter saves use them too) goes through s_write() in
 * store.c, the only caller of mdb_put/mdb_del on a batch, which runs the operation
 * in the batch transaction and, on success, appends it to the batch log. When LMDB
 * reports MDB_MAP_FULL (at any write, or at commit), s_grow_and_replay() aborts
 * the transaction, doubles the map and replays the log into a fresh transaction;
 * the log holds exact keys, so sequence numbers allocated in the batch come out
 * the same. No other file may call mdb_put, mdb_del or cursor writes directly.
 * The one write outside a batch is the evalidx flush (store_index.c):
 * its own transaction after a batch commit, redone from the pending table instead
 * of a log when the map is full.
 */
#ifndef HS_STORE_INTERNAL_H
#define HS_STORE_INTERNAL_H

#include <lmdb.h>

#include "store/store.h"

enum {
    HS_DB_GAMES, HS_DB_FAILED, HS_DB_SOURCES, HS_DB_PLAYERS, HS_DB_MOVES, HS_DB_EVALIDX,
    HS_DB_EVALDATA, HS_DB_ENGINES, HS_DB_JOBS, HS_DB_TASKS, HS_DB_TASKSTATE, HS_DB_META,
    HS_DB_BOARDS,   /* a store written before the board index has no such table */
    HS_DB_JOBGAMES, /* last: nor one written before job memberships (store_jobs.c) */
    HS_DB_COUNT
};
/* The tables' names in LMDB, by HS_DB_* (store.c). */
extern const char *const hs__store_db_names[HS_DB_COUNT];

#define HS_STORE_MAX_ENGINES 64
/* A `moves` value is the position key (16 bytes), then one pair per engine:
 * engine id (u32 big-endian) and eval sequence number (u64), this many bytes
 * (store_evals.c writes and reads them). */
#define HS__STORE_MOVES_PAIR 12

/*
 * Evals not yet in `evalidx`. The index is derived data: `evaldata` (append-only,
 * keyed by sequence number) is the truth, and meta "evalidx_upto" says up to which
 * sequence number the index is complete. Index entries are hash-keyed, and LMDB
 * rewrites every page a transaction touches, so inserting 10,000 random keys per
 * batch rewrites most of the index at every commit. Instead the writer keeps new
 * entries in this table and flushes them sorted, HS_STORE_INDEX_FLUSH at a time,
 * in a transaction of its own after a regular commit; lookups check the table
 * first. After a crash the writer rebuilds the table from evaldata beyond the
 * watermark on open.
 * Readers in other processes see the index up to the last flush: game queries do
 * not need it (moves entries point at sequence numbers directly).
 */

typedef struct hs__store_pending {
    uint8_t key[20];        /* engine id (BE) + position key, as in evalidx */
    uint64_t seq;
} hs__store_pending_t;

struct hs_store {
    MDB_env *env;
    MDB_dbi dbi[HS_DB_COUNT];
    unsigned flags;
    size_t map_size;
    size_t release_size;       /* a reserving writer's used bytes at close (store.c) */
    int writer_fd;              /* the folder, flock'ed by a writer (exclusively) or by
                                 * a reader without lock.mdb (shared); else -1 */
    MDB_txn *txn;               /* the open batch, or NULL */
    MDB_txn *rtxn;              /* hs_store_read_hold's read txn (reset when not held), or NULL */
    bool rtxn_held;             /* rtxn is live: hs__store_rtxn hands it out */
    uint64_t next_task_id;      /* next tasks key in this batch (0 = unknown) */
    hs_wire_buf_t log;          /* batch log: see s_store_put */
    uint64_t next_eval_seq;     /* next evaldata key in this batch (0 = unknown) */
    hs__store_pending_t *pend;   /* evals not in evalidx yet (writer only) */
    uint32_t num_pend, cap_pend, pend_at_begin;
    uint64_t *pend_hash;        /* open addressing: tag << 32 | (index + 1), 0 = empty;
                                 * the tag (32 other key bits) settles most misses
                                 * without touching pend[]: one cache miss per lookup */
    uint32_t hash_cap;          /* power of two, >= 2 * cap_pend */
    uint32_t flush_at;          /* flush the pending index at this size */
    /* Blocked Bloom filter of the keys in evalidx (writer only; see
     * hs__store_idx_maybe): one cache line per lookup instead of a B-tree descent
     * for the (usual) new position. */
    uint64_t *bloom;            /* bloom_blocks × 8 words, or NULL (not built) */
    uint32_t bloom_blocks;      /* power of two */
    uint64_t bloom_n, bloom_cap;/* keys added; keys it is sized for (16 bits each) */
    bool bloom_off;             /* building it failed: always look up */
    uint32_t engines_seen[8];   /* engine ids known to be in `engines` (committed) */
    int num_engines_seen;
    hs_wire_buf_t rec;          /* scratch for encoding records */
    /* The record each engine wrote last (store_chain.c): the next position of its
     * game keeps its maps as changes against it. Forgotten when a batch is lost. */
    struct hs__store_chain_last *chain;
    int chain_n;
    unsigned maps;              /* HS_STORE_MAP_* kept in new eval records (meta "maps") */
    bool boards_absent;         /* a reader of a store without the `boards` table */
    bool jobgames_absent;       /* a reader of a store without the `jobgames` table */
    /* Board index entries of the open batch (key 26 + symmetry 1 bytes each), put
     * in key order at commit: LMDB inserts sorted keys with far fewer cache
     * misses than the hash order a game gives (store_boards.c). */
    uint8_t *bpend;
    size_t bpend_n, bpend_cap;
    /* counters not yet saved (writer) or kept in memory (reader) */
    int64_t d_lookups, d_hits, d_puts, d_dups;
    int64_t d_refreshed;        /* games whose record a corrected source replaced */
};

/* Big-endian helpers for keys. */
static inline void hs__be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}
static inline uint64_t hs__rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}
static inline void hs__be32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}
static inline uint32_t hs__rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void hs__id_key(uint8_t *p, const uint64_t id[2])
{
    hs__be64(p, id[0]);
    hs__be64(p + 8, id[1]);
}

/* The key of a failed game's record: hash of (job id, source) (hs_store_game_failed;
 * a store written before issue 15 keyed it by the source alone, which
 * `hyeongse check` still accepts). */
void hs__store_failed_key(uint64_t job_id, const char *source, uint8_t key[16]);

/* An LMDB failure as HS_ESTORE with context (HS_ENOSPC for ENOSPC, HS_ECORRUPT for
 * MDB_CORRUPTED and MDB_PAGE_NOTFOUND). */
int hs__store_mdb_error(hs_error_t *err, int rc, const char *what);
/* Grows the map, reserving its disk space first for a WRITEMAP writer (store_space.c;
 * no transaction may be open). 0, HS_ENOSPC, HS_EIO, HS_ESTORE. */
int hs__store_map_grow(hs_store_t *s, hs_error_t *err);
/* The store's folder, as LMDB has it ("?" when it cannot say); for messages. */
const char *hs__store_dir(const hs_store_t *s);
/* At open, for a writer that maps the file writable: reserves the pages in use
 * and room above them on disk (less, down to 1 MiB, when the disk cannot hold
 * that), and sizes the map to it. 0, HS_ENOSPC, HS_EIO, HS_ESTORE. */
int hs__store_reserve_open(hs_store_t *s, hs_error_t *err);
/* Before mdb_env_close: a descriptor of the file (or -1: nothing to give back)
 * for hs__store_release_reserve, which after the close truncates the file to
 * its pages in use and closes the descriptor. Best effort. */
int hs__store_release_fd(hs_store_t *s);
void hs__store_release_reserve(const hs_store_t *s, int fd);
/* The one-writer lock of folder dir (store_space.c), taken before LMDB opens the
 * file: *fd holds it until hs__store_writer_unlock. HS_EAGAIN when another
 * process writes the store (its message says so), HS_EIO. */
int hs__store_writer_lock(const char *dir, int *fd, hs_error_t *err);
/* A reader that cannot write lock.mdb reads without it (store.c, s_env_open)
 * while it holds the folder shared, as here: 0, HS_EAGAIN when a writer holds
 * it (err not set), or HS_EIO. Released by hs__store_writer_unlock. */
int hs__store_reader_lock(const char *dir, int *fd, hs_error_t *err);
void hs__store_writer_unlock(int fd);

/* A put in the open batch (with logging and map growth). flags: MDB_NOOVERWRITE,
 * MDB_APPEND. Returns 0, HS_EEXIST (NOOVERWRITE and the key exists), HS_ESTORE. */
int hs__store_put(hs_store_t *s, int db, const void *key, size_t klen, const void *val,
                 size_t vlen, unsigned flags, hs_error_t *err);
/* Like hs__store_put with MDB_NOOVERWRITE, but on HS_EEXIST *old holds the stored
 * value (valid until the next write). */
int hs__store_put_new(hs_store_t *s, int db, const void *key, size_t klen, const void *val,
                     size_t vlen, MDB_val *old, hs_error_t *err);
/* A delete in the open batch (logged). Missing keys are fine. */
int hs__store_del(hs_store_t *s, int db, const void *key, size_t klen, hs_error_t *err);

/* Read transaction for a read API call: the batch txn when in a batch (*own =
 * false), else a fresh read-only txn (*own = true; end it with hs__store_rdone). */
int hs__store_rtxn(hs_store_t *s, MDB_txn **txn, bool *own, hs_error_t *err);
void hs__store_rdone(MDB_txn *txn, bool own);
/* hs__store_rtxn and a cursor on db in it; on a cursor error the txn is ended
 * and the error says `what`. Close the cursor before hs__store_rdone. */
int hs__store_rcursor(hs_store_t *s, int db, const char *what, MDB_txn **txn, bool *own,
                      MDB_cursor **c, hs_error_t *err);

/* Write wrappers for API calls that may run outside a batch. */
int hs__store_wbegin(hs_store_t *s, bool *auto_batch, hs_error_t *err);
int hs__store_wend(hs_store_t *s, bool auto_batch, int rc, hs_error_t *err);

/* Pending-index table (store_index.c). find: seq of key or 0. add: 0 or HS_ENOMEM. */
uint64_t hs__store_pend_find(const hs_store_t *s, const uint8_t key[20]);
int hs__store_pend_add(hs_store_t *s, const uint8_t key[20], uint64_t seq);
/* Drops the entries from the n-th on (an aborted batch's). */
void hs__store_pend_truncate(hs_store_t *s, uint32_t n);
/* Writes the table into evalidx in transactions of its own (no batch open), parts
 * of at least HS__STORE_FLUSH_PART_MIN consecutive keys, about
 * HS__STORE_FLUSH_PARTS of them, and empties it; on failure the table is kept.
 * 0, HS_ENOMEM, HS_ENOSPC, HS_ESTORE, HS_EBADSTATE. */
#define HS__STORE_FLUSH_PARTS 16
#define HS__STORE_FLUSH_PART_MIN 8192u
int hs__store_pend_flush(hs_store_t *s, hs_error_t *err);
/* Writer open: evaldata records beyond the index watermark back into the table. */
int hs__store_pend_rebuild(hs_store_t *s, hs_error_t *err);
/* At open, in the open's transaction (store_evals.c): a writer marks an older
 * store HS_STORE_SCHEMA and settles s->maps (the HS_STORE_MAPS flag, else meta
 * "maps", else the default) and records it. 0 or an LMDB code. */
int hs__store_format_open(hs_store_t *s, MDB_txn *txn, uint64_t schema);
/* Reads an 8-byte big-endian counter from meta: 0 or an LMDB code. */
int hs__store_meta_u64(MDB_txn *txn, MDB_dbi dbi, const char *name, uint64_t *v);

/*
 * Whether `evalidx` may hold key (engine id BE + position key): false means it
 * certainly does not, so the writer skips the B-tree lookup. A blocked Bloom
 * filter of every key in evalidx, ~16 bits per key (~0.5% false positives, which
 * only cost the lookup), built on first use by one scan of evalidx in txn, fed by
 * each index flush, and rebuilt twice as big by the next call when full. Writer
 * handles only (a read-only handle would miss other processes' flushes): returns
 * true for a read-only handle, or when the filter cannot be built.
 */
bool hs__store_idx_maybe(hs_store_t *s, MDB_txn *txn, const uint8_t key[20]);

/* The board index (store_boards.c). open: in the open's transaction, a writer
 * marks the index of a store without games complete (meta "boards"); 0 or an
 * LMDB code. index: the entries of new game g (in the open batch). */
int hs__store_boards_open(hs_store_t *s, MDB_txn *txn);
int hs__store_boards_index(hs_store_t *s, const hs_game_t *g, int64_t *added,
                          hs_error_t *err);
/* Puts the batch's pending board entries (s->bpend) in key order, in the
 * batch: at commit, and before a read of the index inside the batch. 0 or a
 * store error. */
int hs__store_boards_flush(hs_store_t *s, hs_error_t *err);

/* The journal's record decoders (store_jobs.c), shared so that
 * tests/fuzz/fuzz_journal.c can feed them hostile records: key k (the 8-byte
 * id) and value v as stored. 0, or HS_ECORRUPT for a record they cannot read. */
int hs__store_decode_job(const MDB_val *k, const MDB_val *v, hs_store_job_t *j,
                         hs_error_t *err);
int hs__store_decode_task(const MDB_val *k, const MDB_val *v, hs_store_task_t *t,
                          hs_error_t *err);

/* Record value prefix: one format byte (docs/STORE.md). V1: MessagePack, no
 * checksum (stores written before the compact format; still read). V2: the body,
 * then a CRC32C of everything before it, 4 bytes little-endian. */
#define HS_STORE_REC_HDR 1
#define HS_STORE_REC_V1 1
#define HS_STORE_REC_V2 2
#define HS_STORE_REC_CRC 4

/* ---- the record format (store_codec.c) ---- */

/* CRC32C (Castagnoli) of n bytes continuing crc (0 to start). */
uint32_t hs__store_crc32c(uint32_t crc, const void *data, size_t n);
/* Appends the CRC32C of rec[0..len) at rec + len (4 bytes must be free there);
 * returns the sealed length. */
int hs__store_rec_seal(uint8_t *rec, size_t len);
/* Checks a stored value of `table` under key: a known format byte and, for V2,
 * its checksum. *body_len: the bytes before the checksum (all of a V1 value).
 * 0 or HS_ECORRUPT ("corrupt record in TABLE, key HEX: why"). */
int hs__store_rec_check(const MDB_val *v, const char *table, const MDB_val *key,
                       size_t *body_len, hs_error_t *err);
/* HS_ECORRUPT naming table and key (hex, cut) with why. */
int hs__store_corrupt(hs_error_t *err, const char *table, const MDB_val *key, const char *why);
void hs__store_key_text(const MDB_val *key, char *buf, size_t size);

/* Biggest compact eval record: fixed part, strings at their limits, raw maps. */
#define HS_STORE_EVAL_MAX 8192

/* Decoded maps and strings of an eval record that cannot point into LMDB's
 * memory; on the reader's stack, so that reading a game allocates nothing. */
typedef struct hs__store_eval_scratch {
    int8_t ownership[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    int16_t influence[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    char classes[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE + 1];
    char result[HS_WIRE_MAX_NAME + 1];
    char error[HS_WIRE_MAX_STR + 1];
} hs__store_eval_scratch_t;

/* ---- maps kept as changes (store_chain.c; docs/STORE.md, "Change-coded maps") ---- */

#define HS__STORE_CHAIN_MAX 16        /* records in a chain, its first included */
#define HS__STORE_CHAIN_MAX_TEXT "16"
#define HS__STORE_CHAIN_ENGINES 8     /* engines the writer remembers at once */

/* The record a new eval record may keep its maps against: the eval at sequence
 * number seq (engine id, size and the maps it keeps, NULL when not kept), the
 * depth-th record after its chain's first. */
typedef struct {
    uint64_t seq;
    int depth;
    const hs_eval_t *e;
} hs__store_base_t;
typedef struct hs__store_chain_last hs__store_chain_last_t;
/* Reads the bases of change-coded maps in a read transaction, remembering the
 * last records it decoded (a game read in order finds each base there). */
typedef struct hs__store_resolver hs__store_resolver_t;

/* Writes map `cur` (nn values of width 1: int8 or letters, or 2: int16) as its
 * changes against `base` (encoding byte, varint length, payload: varint dist,
 * then per change varint gap and value) into out (10 + 5 nn bytes): its length,
 * or 0 when more than max_changes points differ. */
size_t hs__store_chain_put(uint8_t *out, const void *cur, const void *base, uint32_t nn,
                           int width, uint64_t dist, uint32_t max_changes);
/* Reads the dist that opens an encoding-5 payload (advancing *pp): 0 or -1. */
int hs__store_chain_dist(const uint8_t **pp, const uint8_t *end, uint64_t *dist);
/* Applies the changes p..end to map (holding the base's values; width as above,
 * new values in lo..hi, a byte read unsigned when lo >= 0): 0, or -1 when
 * malformed or out of range. */
int hs__store_chain_apply(const uint8_t *p, const uint8_t *end, void *map, uint32_t nn,
                          int width, int32_t lo, int32_t hi);
/* Writer: the base for e (of game game_id) when the engine's last record is this
 * game's move before, of e's size, in a chain with room: 1 and *base (valid
 * until the next note), else 0. */
int hs__store_chain_base(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                         hs__store_base_t *base);
/* Writer: remembers the record just written under seq (its maps in `maps`, the
 * HS_STORE_MAP_* bits), depth as for hs__store_base_t (out of memory: nothing
 * is remembered, and the next record keeps its maps whole). */
void hs__store_chain_note(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                         unsigned maps, uint64_t seq, int depth);
/* Writer: the engine's last position was not written (a repeat): no base for
 * the next. Reset: forgets every record (a lost batch). */
void hs__store_chain_forget(hs_store_t *s, uint32_t engine_id);
void hs__store_chain_reset(hs_store_t *s);
/* Reader: a resolver for reads in txn (NULL: out of memory); free it with
 * hs__store_resolver_free before txn ends. */
hs__store_resolver_t *hs__store_resolver_new(hs_store_t *s, MDB_txn *txn);
void hs__store_resolver_free(hs__store_resolver_t *r);
/* Reader: *base = the eval record seq, its maps whole (valid until the next call
 * on r), *depth its chain depth. 0, HS_ECORRUPT (missing, malformed, a chain
 * too long) or HS_ESTORE. */
int hs__store_resolve(hs__store_resolver_t *r, uint64_t seq, const hs_eval_t **base,
                      int *depth, hs_error_t *err);
/* Reader: remembers e, the record seq that r's decode gave last, as a base for
 * the next. */
void hs__store_resolver_keep(hs__store_resolver_t *r, uint64_t seq, const hs_eval_t *e);
/* The decoder tells r the chain depth of the record it decoded. */
void hs__store_resolver_decoded(hs__store_resolver_t *r, int depth);

/* Encodes e as a V2 eval record (only the maps in `maps`) into out
 * (HS_STORE_EVAL_MAX bytes): 0 or HS_EINVAL (values out of range). */
int hs__store_eval_encode(const hs_eval_t *e, unsigned maps, uint8_t *out, size_t *len,
                         hs_error_t *err);
/* The same as record seq, its maps kept as changes against base where that is
 * short (base NULL: none). *chained: whether any map was (the record's depth
 * is then base->depth + 1, else 0). */
int hs__store_eval_encode_on(const hs_eval_t *e, unsigned maps, const hs__store_base_t *base,
                             uint64_t seq, uint8_t *out, size_t *len, bool *chained,
                             hs_error_t *err);
/* Decodes a V2 eval record into *e (arrays and strings in *sc), the bases of
 * change-coded maps through r (NULL: such a record is refused). 0, HS_ECORRUPT,
 * or the resolver's error. */
int hs__store_eval_decode(const MDB_val *key, const MDB_val *val, hs_eval_t *e,
                         hs__store_eval_scratch_t *sc, hs__store_resolver_t *r,
                         hs_error_t *err);
/* Position key and engine id of a V2 eval record without a full decode (the
 * index rebuild): 0, or -1 when it is not a V2 record. */
int hs__store_eval_ident(const MDB_val *val, uint8_t pos_key[16], uint32_t *engine_id);

/* Map coder (store_maps.c). Forms of a map's values (the encoding byte of a map
 * in an eval record; 0 is the raw form, which store_codec.c writes itself). */
#define HS_STORE_MAP_DRUNS  1   /* runs of zigzag deltas, varints */
#define HS_STORE_MAP_PRUNS  2   /* palette (<= 16 values), runs of indices */
#define HS_STORE_MAP_PACKED 3   /* palette, indices bit-packed */
#define HS_STORE_MAP_CTX    4   /* range-coded, guessed from neighbours (store_maps_ctx.c) */
#define HS_STORE_MAP_CHAIN  5   /* changes against an earlier record (store_chain.c) */
/* The shortest form of v[0..n) (values in lo..hi) into out (3 n + 80 bytes): its
 * length; *enc the form. */
size_t hs__store_map_encode(const int32_t *v, uint32_t n, int32_t lo, int32_t hi,
                           uint8_t *out, uint8_t *enc);
/* Decodes the payload p..end of form enc into v[0..n), values in lo..hi: 0 or -1. */
int hs__store_map_decode(uint8_t enc, const uint8_t *p, const uint8_t *end, int32_t lo,
                        int32_t hi, int32_t *v, uint32_t n);
/* The board's side when n is a board's points (2..HS_BOARD_MAX_SIZE squared), else 0. */
uint32_t hs__store_map_side(uint32_t n);
/* HS_STORE_MAP_CTX: v[0..n) in lo..hi into out, at most cap bytes: the length, or
 * SIZE_MAX when it would be longer than cap (or n is not a board's points). */
size_t hs__store_map_ctx_encode(const int32_t *v, uint32_t n, int32_t lo, int32_t hi,
                                uint8_t *out, size_t cap);
/* Decodes an HS_STORE_MAP_CTX payload: 0, or -1 when malformed or out of range. */
int hs__store_map_ctx_decode(const uint8_t *p, const uint8_t *end, int32_t lo, int32_t hi,
                             int32_t *v, uint32_t n);

/* The read-transaction lookup written once: key in db, in a read transaction
 * (hs__store_rtxn); on a hit fn(ctx, &key, &value, err) and its result; on a miss
 * HS_ENOTFOUND with no message (the caller words it); else HS_ESTORE. */
typedef int (*hs__store_found_fn)(void *ctx, const MDB_val *k, const MDB_val *v,
                                 hs_error_t *err);
int hs__store_lookup(hs_store_t *s, int db, const void *key, size_t klen,
                    hs__store_found_fn fn, void *ctx, hs_error_t *err);

/* Record scratch s->rec (store_records.c; store_evals.c encodes evals in it too).
 * start: s->rec becomes the n header bytes; append: n more bytes. 0 or HS_ENOMEM. */
int hs__store_rec_start(hs_store_t *s, const uint8_t *hdr, size_t n, hs_error_t *err);
int hs__store_rec_append(hs_store_t *s, const void *p, size_t n, hs_error_t *err);
/* Appends the CRC32C of s->rec (format 2 records). 0 or HS_ENOMEM. */
int hs__store_rec_finish(hs_store_t *s, hs_error_t *err);

/* The distinct player names of the players index, read in txn (a reader's or the
 * batch's; `query stats`: store.c). 0 or HS_ESTORE. */
int hs__store_players_count(hs_store_t *s, MDB_txn *txn, int64_t *count, hs_error_t *err);

/* Calls fn for each key of db that starts with prefix (plen 0: every key), in key
 * order, in a read transaction (hs__store_rtxn), until fn returns non-zero, which
 * is then returned (store_records.c; the iterators of both record files use it).
 * 0, that value, or HS_ESTORE. */
typedef int (*hs__store_key_fn)(void *ctx, const MDB_val *k, const MDB_val *v);
int hs__store_prefix_each(hs_store_t *s, int db, const void *prefix, size_t plen,
                         hs__store_key_fn fn, void *ctx, hs_error_t *err);

#endif
