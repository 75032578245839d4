/*
 * store/store_records.c — games, failed games and the source and player indexes
 * (store/store.h), and the record scratch and prefix scan that store_evals.c
 * (evaluations, per-game positions) shares (store/store_internal.h).
 *
 * Game records are a format byte, the job id, the MessagePack layout of
 * core/wire.h (a game as in TASK/SUBMIT: one codec and one validator for both
 * the wire and the disk) and, in format 2, a CRC32C (docs/STORE.md).
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#define S_NAME_KEY_MAX 400   /* player names are cut here (LMDB keys <= 511 bytes) */
#define S_SOURCE_KEY_MAX 480

/* Source index key: the path itself, or for a very long one its head + a hash. */
static size_t s_source_key(const char *source, uint8_t *key)
{
    size_t n = strlen(source);
    if (n <= S_SOURCE_KEY_MAX) {
        memcpy(key, source, n);
        return n;
    }
    memcpy(key, source, S_SOURCE_KEY_MAX - 17);
    key[S_SOURCE_KEY_MAX - 17] = 0x01;
    hs_hash128(source, n, key + S_SOURCE_KEY_MAX - 16);
    return S_SOURCE_KEY_MAX;
}

static size_t s_player_key(const char *name, const uint64_t id[2], uint8_t *key)
{
    size_t n = strlen(name);
    if (n > S_NAME_KEY_MAX)
        n = S_NAME_KEY_MAX;
    memcpy(key, name, n);
    key[n] = 0;
    hs__id_key(key + n + 1, id);
    return n + 17;
}

/* Starts s->rec with n header bytes. 0 or HS_ENOMEM. */
int hs__store_rec_start(hs_store_t *s, const uint8_t *hdr, size_t n, hs_error_t *err)
{
    if (s->rec.cap < 4096) {
        uint8_t *p = realloc(s->rec.data, 4096);
        if (!p)
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        s->rec.data = p;
        s->rec.cap = 4096;
    }
    memcpy(s->rec.data, hdr, n);
    s->rec.len = n;
    return 0;
}

/* Appends n bytes to s->rec. 0 or HS_ENOMEM. */
int hs__store_rec_append(hs_store_t *s, const void *p, size_t n, hs_error_t *err)
{
    if (hs_wire_buf_append(&s->rec, p, n) < 0)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    return 0;
}

/* Appends the checksum of s->rec to it (format 2). 0 or HS_ENOMEM. */
int hs__store_rec_finish(hs_store_t *s, hs_error_t *err)
{
    uint8_t crc[HS_STORE_REC_CRC] = { 0 };
    int rc = hs__store_rec_append(s, crc, sizeof crc, err);
    if (rc == 0)
        hs__store_rec_seal(s->rec.data, s->rec.len - HS_STORE_REC_CRC);
    return rc;
}

int hs__store_lookup(hs_store_t *s, int db, const void *key, size_t klen,
                    hs__store_found_fn fn, void *ctx, hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    int rc = hs__store_rtxn(s, &txn, &own, err);
    if (rc)
        return rc;
    MDB_val k = { klen, (void *)key }, d;
    rc = mdb_get(txn, s->dbi[db], &k, &d);
    if (rc == 0)
        rc = fn(ctx, &k, &d, err);
    else if (rc == MDB_NOTFOUND)
        rc = HS_ENOTFOUND;
    else
        rc = hs__store_mdb_error(err, rc, hs__store_db_names[db]);
    hs__store_rdone(txn, own);
    return rc;
}

/* ---- games ---- */

static int s_game_refresh(hs_store_t *s, const uint8_t key[16], const hs_game_t *g,
                          const char *source, const MDB_val *old, bool *refreshed,
                          hs_error_t *err);

/* The player index entries of names (black, white) of game id: put, or
 * deleted (del) where the other list (other, may be NULL) does not hold the
 * same name on the same side. */
static int s_players_index(hs_store_t *s, const char *const names[2], const uint64_t id[2],
                           const char *const *other, bool del, hs_error_t *err)
{
    for (int i = 0; i < 2; i++) {
        if (!names[i] || !names[i][0] ||
            (other && other[i] && !strcmp(other[i], names[i])))
            continue;
        uint8_t pk[S_NAME_KEY_MAX + 17];
        size_t pl = s_player_key(names[i], id, pk);
        int rc = del ? hs__store_del(s, HS_DB_PLAYERS, pk, pl, err)
                     : hs__store_put(s, HS_DB_PLAYERS, pk, pl, "", 0, 0, err);
        if (rc && !(del && rc == HS_ENOTFOUND))
            return rc;
    }
    return 0;
}

int hs_store_game_put(hs_store_t *s, const hs_game_t *g, const char *source,
                      uint64_t job_id, bool *existed, hs_error_t *err)
{
    if (existed)
        *existed = false;
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t key[16];
    hs__id_key(key, g->id);
    /* One B-tree descent: the record is put unless the game is there already
     * (a new game is the usual case; encoding a duplicate for nothing is cheaper
     * than a lookup before every put). */
    hs_wire_game_t w = { .game = *g, .source = (char *)source, .error = NULL };
    uint8_t hdr[1 + 8] = { HS_STORE_REC_V2 };
    hs__be64(hdr + 1, job_id);
    if ((rc = hs__store_rec_start(s, hdr, sizeof hdr, err)))
        goto out;
    if ((rc = hs_wire_encode_game(&w, &s->rec, err)) || (rc = hs__store_rec_finish(s, err)))
        goto out;
    MDB_val old = { 0, NULL };
    rc = hs__store_put_new(s, HS_DB_GAMES, key, 16, s->rec.data, s->rec.len, &old, err);
    if (rc && rc != HS_EEXIST)
        goto out;
    if (rc == 0) {
        const char *names[2] = { g->black, g->white };
        if ((rc = s_players_index(s, names, g->id, NULL, false, err)))
            goto out;
        /* A new game's boards go into the index in the same batch: one replay
         * per game, and the index is never behind the games. */
        if ((rc = hs__store_boards_index(s, g, NULL, err)))
            goto out;
    } else {
        bool refreshed = false;
        if ((rc = s_game_refresh(s, key, g, source, &old, &refreshed, err)))
            goto out;
        if (existed)
            *existed = true;
        s->d_refreshed += refreshed;
    }
    if (source && source[0]) {
        uint8_t sk[S_SOURCE_KEY_MAX];
        size_t sl = s_source_key(source, sk);
        rc = hs__store_put(s, HS_DB_SOURCES, sk, sl, key, 16, 0, err);
    }
out:
    return hs__store_wend(s, ab, rc, err);
}

void hs__store_failed_key(uint64_t job_id, const char *source, uint8_t key[16])
{
    /* Keyed by (job, source): idempotent for a job's resent batch, while one
     * job's record can never stand in for another's (the broker's clients name
     * sources as they like: one could otherwise take a source of another job and
     * keep that job's real failure from being recorded and counted). */
    uint8_t in[24];
    hs__be64(in, job_id);
    hs_hash128(source, strlen(source), in + 8);
    hs_hash128(in, sizeof in, key);
}

int hs_store_game_failed(hs_store_t *s, const char *source, const char *reason,
                         uint64_t job_id, bool *existed, hs_error_t *err)
{
    if (existed)
        *existed = false;
    if (!source)
        source = "";
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t key[16];
    hs__store_failed_key(job_id, source, key);
    /* Value: format, job id, then source and reason as NUL-terminated strings,
     * then the checksum. */
    size_t sl = strlen(source), rl = reason ? strlen(reason) : 0;
    if (sl > HS_WIRE_MAX_STR) sl = HS_WIRE_MAX_STR;
    if (rl > HS_WIRE_MAX_STR) rl = HS_WIRE_MAX_STR;
    size_t n = 9 + sl + 1 + rl + 1;
    uint8_t *v = malloc(n + HS_STORE_REC_CRC);
    if (!v)
        return hs__store_wend(s, ab, hs_error_set(err, HS_ENOMEM, "out of memory"), err);
    v[0] = HS_STORE_REC_V2;
    hs__be64(v + 1, job_id);
    memcpy(v + 9, source, sl);
    v[9 + sl] = 0;
    if (rl)
        memcpy(v + 10 + sl, reason, rl);
    v[10 + sl + rl] = 0;
    n = (size_t)hs__store_rec_seal(v, n);
    rc = hs__store_put(s, HS_DB_FAILED, key, 16, v, n, MDB_NOOVERWRITE, err);
    free(v);
    if (rc == HS_EEXIST) {
        if (existed)
            *existed = true;
        rc = 0;
    }
    return hs__store_wend(s, ab, rc, err);
}

/* What hs_store_game_get asks of a game record: the whole game, or (meta_only)
 * the header's job and, when want_source, the source alone. */
typedef struct {
    hs_wire_game_t w;
    uint64_t job_id;
    bool meta_only, want_source;
} s_game_out_t;

static int s_game_decode(void *ctx, const MDB_val *k, const MDB_val *d, hs_error_t *err)
{
    s_game_out_t *o = ctx;
    size_t n;
    int rc = hs__store_rec_check(d, "games", k, &n, err);
    if (rc)
        return rc;
    const uint8_t *p = d->mv_data;
    if (n < 9)
        return hs__store_corrupt(err, "games", k, "too short");
    o->job_id = hs__rd64(p + 1);
    hs_wire_reader_t r;
    hs_error_t why = { 0 };
    hs_wire_reader_init(&r, p + 9, n - 9, &why);
    if (o->meta_only) {   /* the broker's lookups: no moves decoded */
        if (!o->want_source || hs_wire_read_game_source(&r, &o->w.source) == 0)
            return 0;
        return hs__store_corrupt(err, "games", k, why.msg);
    }
    if (hs_wire_read_game(&r, &o->w, true) == 0)
        return 0;
    hs_wire_game_fini(&o->w);
    return hs__store_corrupt(err, "games", k, why.msg);
}

/*
 * A game stored before, met again: old is its stored record, s->rec the new
 * one. When both came from the same source and they differ, the file was
 * corrected (its players, result, date...) and analysed again: the new record
 * replaces the old one, under the job that stored it first, and the players
 * index follows. From another source the first record stays: the same game
 * in two collections keeps the names it was first stored with.
 */
static int s_game_refresh(hs_store_t *s, const uint8_t key[16], const hs_game_t *g,
                          const char *source, const MDB_val *old, bool *refreshed,
                          hs_error_t *err)
{
    /* Both records: format, job id (8), the wire game, the checksum (4). */
    size_t n = s->rec.len;
    if (!source || !source[0] || !old->mv_data ||
        (old->mv_size == n && n > 13 && !memcmp((const uint8_t *)old->mv_data + 9,
                                                 s->rec.data + 9, n - 13)))
        return 0;
    MDB_val k = { 16, (void *)key };
    s_game_out_t o = { .meta_only = false };
    int rc = s_game_decode(&o, &k, old, err);   /* copies: old dies at the next write */
    if (rc)
        return rc;
    if (o.w.source && !strcmp(o.w.source, source)) {
        const char *was[2] = { o.w.game.black, o.w.game.white };
        const char *now[2] = { g->black, g->white };
        uint8_t hdr[1 + 8] = { HS_STORE_REC_V2 };
        hs_wire_game_t w = { .game = *g, .source = (char *)source, .error = NULL };
        hs__be64(hdr + 1, o.job_id);
        if ((rc = hs__store_rec_start(s, hdr, sizeof hdr, err)) == 0 &&
            (rc = hs_wire_encode_game(&w, &s->rec, err)) == 0 &&
            (rc = hs__store_rec_finish(s, err)) == 0 &&
            (rc = hs__store_put(s, HS_DB_GAMES, key, 16, s->rec.data, s->rec.len, 0, err)) == 0 &&
            (rc = s_players_index(s, was, g->id, now, true, err)) == 0)
            rc = s_players_index(s, now, g->id, was, false, err);
        *refreshed = rc == 0;
    }
    hs_wire_game_fini(&o.w);
    return rc;
}

int hs_store_game_get(hs_store_t *s, const uint64_t id[2], hs_game_t *g, char **source,
                      uint64_t *job_id, hs_error_t *err)
{
    if (g)
        memset(g, 0, sizeof *g);
    if (source)
        *source = NULL;
    uint8_t key[16];
    hs__id_key(key, id);
    s_game_out_t o = { .meta_only = g == NULL, .want_source = source != NULL };
    int rc = hs__store_lookup(s, HS_DB_GAMES, key, 16, s_game_decode, &o, err);
    if (rc == HS_ENOTFOUND)
        return hs_error_set(err, HS_ENOTFOUND, "no such game");
    if (rc)
        return rc;
    if (job_id)
        *job_id = o.job_id;
    if (g)
        *g = o.w.game;
    if (source)
        *source = o.w.source;
    else
        free(o.w.source);
    free(o.w.error);
    return 0;
}

static int s_source_id(void *ctx, const MDB_val *k, const MDB_val *d, hs_error_t *err)
{
    uint64_t *id = ctx;
    if (d->mv_size != 16)
        return hs__store_corrupt(err, "sources", k, "value is not a game id");
    id[0] = hs__rd64(d->mv_data);
    id[1] = hs__rd64((const uint8_t *)d->mv_data + 8);
    return 0;
}

int hs_store_game_by_source(hs_store_t *s, const char *source, uint64_t id[2],
                            hs_error_t *err)
{
    uint8_t sk[S_SOURCE_KEY_MAX];
    int rc = hs__store_lookup(s, HS_DB_SOURCES, sk, s_source_key(source, sk), s_source_id, id,
                             err);
    if (rc == HS_ENOTFOUND)
        return hs_error_set(err, HS_ENOTFOUND, "no game from %s", source);
    return rc;
}

/* ---- cursors and prefix scans (also the other store files') ---- */

int hs__store_rcursor(hs_store_t *s, int db, const char *what, MDB_txn **txn, bool *own,
                      MDB_cursor **c, hs_error_t *err)
{
    int rc = hs__store_rtxn(s, txn, own, err);
    if (rc)
        return rc;
    if ((rc = mdb_cursor_open(*txn, s->dbi[db], c)) != 0) {
        hs__store_rdone(*txn, *own);
        return hs__store_mdb_error(err, rc, what);
    }
    return 0;
}

int hs__store_prefix_each(hs_store_t *s, int db, const void *prefix, size_t plen,
                         hs__store_key_fn fn, void *ctx, hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    MDB_cursor *c;
    int rc = hs__store_rcursor(s, db, "cursor", &txn, &own, &c, err);
    if (rc)
        return rc;
    MDB_val k = { plen, (void *)prefix }, v;
    int ret = 0;
    rc = plen ? mdb_cursor_get(c, &k, &v, MDB_SET_RANGE) : mdb_cursor_get(c, &k, &v, MDB_FIRST);
    while (rc == 0) {
        /* (no memcmp with a NULL prefix of length 0: its arguments must not be NULL) */
        if (plen && (k.mv_size < plen || memcmp(k.mv_data, prefix, plen) != 0))
            break;
        if ((ret = fn(ctx, &k, &v)) != 0)
            break;
        rc = mdb_cursor_get(c, &k, &v, MDB_NEXT);
    }
    mdb_cursor_close(c);
    hs__store_rdone(txn, own);
    if (ret)
        return ret;
    return rc && rc != MDB_NOTFOUND ? hs__store_mdb_error(err, rc, "cursor") : 0;
}

typedef struct { hs_store_game_cb cb; void *ctx; size_t plen; } s_game_iter_t;

static int s_player_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_game_iter_t *it = ctx;
    if (k->mv_size != it->plen + 16)
        return 0;   /* a longer name sharing the prefix */
    const uint8_t *p = (const uint8_t *)k->mv_data + it->plen;
    uint64_t id[2] = { hs__rd64(p), hs__rd64(p + 8) };
    return it->cb(it->ctx, id);
}

int hs_store_games_by_player(hs_store_t *s, const char *name, hs_store_game_cb cb,
                             void *ctx, hs_error_t *err)
{
    uint8_t pk[S_NAME_KEY_MAX + 1];
    size_t n = strlen(name);
    if (n > S_NAME_KEY_MAX)
        n = S_NAME_KEY_MAX;
    memcpy(pk, name, n);
    pk[n] = 0;
    s_game_iter_t it = { cb, ctx, n + 1 };
    return hs__store_prefix_each(s, HS_DB_PLAYERS, pk, n + 1, s_player_fn, &it, err);
}

/* Consecutive index entries of one name (name '\0' id: all of a name's
 * entries sort together, before any longer name it begins) counted, and the
 * count handed on when the name changes. */
typedef struct {
    hs_store_player_cb cb;
    void *ctx;
    char name[S_NAME_KEY_MAX + 1];
    int64_t games;
} s_players_t;

static int s_players_flush(s_players_t *p)
{
    int rc = p->games ? p->cb(p->ctx, p->name, p->games) : 0;
    p->games = 0;
    return rc;
}

static int s_players_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    (void)v;
    s_players_t *p = ctx;
    if (k->mv_size <= 17 || k->mv_size - 17 > S_NAME_KEY_MAX)
        return 0;   /* not name '\0' id */
    size_t n = k->mv_size - 17;
    const char *name = k->mv_data;
    if (name[n] != '\0')
        return 0;
    if (p->games && (strlen(p->name) != n || memcmp(p->name, name, n))) {
        int rc = s_players_flush(p);
        if (rc)
            return rc;
    }
    memcpy(p->name, name, n);
    p->name[n] = '\0';
    p->games++;
    return 0;
}

int hs_store_players_each(hs_store_t *s, const char *prefix, hs_store_player_cb cb,
                          void *ctx, hs_error_t *err)
{
    s_players_t *p = calloc(1, sizeof *p);
    if (!p)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    p->cb = cb;
    p->ctx = ctx;
    size_t n = strlen(prefix);
    int rc = hs__store_prefix_each(s, HS_DB_PLAYERS, prefix, n < S_NAME_KEY_MAX ? n : S_NAME_KEY_MAX,
                                   s_players_fn, p, err);
    if (rc == 0)
        rc = s_players_flush(p);
    free(p);
    return rc;
}

/* A name's entries sort together (name '\0' id), so after counting one the
 * cursor seeks past them all to name '\x01' (names hold no NUL, and a longer
 * name that begins with it sorts after): one seek a name, not a step an entry.
 * Keys that are not name '\0' id are stepped over uncounted, as
 * hs_store_players_each skips them. */
int hs__store_players_count(hs_store_t *s, MDB_txn *txn, int64_t *count, hs_error_t *err)
{
    *count = 0;
    MDB_cursor *c;
    int rc = mdb_cursor_open(txn, s->dbi[HS_DB_PLAYERS], &c);
    if (rc)
        return hs__store_mdb_error(err, rc, "players");
    uint8_t past[S_NAME_KEY_MAX + 1];
    MDB_val k, v;
    rc = mdb_cursor_get(c, &k, &v, MDB_FIRST);
    while (rc == 0) {
        size_t n = k.mv_size > 17 ? k.mv_size - 17 : 0;
        if (n == 0 || n > S_NAME_KEY_MAX || ((const uint8_t *)k.mv_data)[n] != 0) {
            rc = mdb_cursor_get(c, &k, &v, MDB_NEXT);
            continue;
        }
        (*count)++;
        memcpy(past, k.mv_data, n);
        past[n] = 0x01;
        k = (MDB_val){ n + 1, past };
        rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE);
    }
    mdb_cursor_close(c);
    return rc == MDB_NOTFOUND ? 0 : hs__store_mdb_error(err, rc, "players");
}

static int s_games_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_game_iter_t *it = ctx;
    if (k->mv_size != 16)
        return 0;
    uint64_t id[2] = { hs__rd64(k->mv_data), hs__rd64((const uint8_t *)k->mv_data + 8) };
    return it->cb(it->ctx, id);
}

int hs_store_games_each(hs_store_t *s, hs_store_game_cb cb, void *ctx, hs_error_t *err)
{
    s_game_iter_t it = { cb, ctx, 0 };
    return hs__store_prefix_each(s, HS_DB_GAMES, "", 0, s_games_fn, &it, err);
}

typedef struct { hs_store_failed_cb cb; void *ctx; hs_error_t *err; } s_failed_iter_t;

static int s_failed_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_failed_iter_t *it = ctx;
    const char *p = v->mv_data;
    size_t n;
    int rc = hs__store_rec_check(v, "failed", k, &n, it->err);
    if (rc)
        return rc;
    if (n < 11 || p[n - 1] != 0)
        return hs__store_corrupt(it->err, "failed", k, "malformed record");
    const char *src = p + 9;
    size_t sl = strnlen(src, n - 9);
    if (9 + sl + 1 >= n)
        return hs__store_corrupt(it->err, "failed", k, "malformed record");
    return it->cb(it->ctx, src, src + sl + 1, hs__rd64((const uint8_t *)p + 1));
}

int hs_store_failed_each(hs_store_t *s, hs_store_failed_cb cb, void *ctx, hs_error_t *err)
{
    s_failed_iter_t it = { cb, ctx, err };
    return hs__store_prefix_each(s, HS_DB_FAILED, "", 0, s_failed_fn, &it, err);
}

/* The failed sources by their 64-bit hashes (a collision among the failures of
 * one store is too unlikely to matter for a count), sorted to count them once. */
typedef struct s_sources {
    hs_buf_t hashes;   /* uint64_t each */
    uint64_t job;      /* 0: every job's */
} s_sources_t;

static int s_source_hash(void *ctx, const char *source, const char *reason, uint64_t job)
{
    (void)reason;
    s_sources_t *c = ctx;
    if (c->job && job != c->job)
        return 0;
    uint8_t d[16];
    hs_hash128(source, strlen(source), d);
    uint64_t h = hs__rd64(d);
    hs_buf_put(&c->hashes, &h, sizeof h);
    return c->hashes.err;
}

static int s_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int hs_store_failed_count(hs_store_t *s, uint64_t job_id, int64_t *n, hs_error_t *err)
{
    s_sources_t c = { .job = job_id };
    *n = 0;
    int rc = hs_store_failed_each(s, s_source_hash, &c, err);
    if (rc == HS_ENOMEM)
        rc = hs_error_set(err, rc, "out of memory counting the failed games");
    uint64_t *h = (uint64_t *)(void *)c.hashes.p;
    size_t count = c.hashes.len / sizeof *h;
    if (rc == 0 && count) {
        qsort(h, count, sizeof *h, s_u64_cmp);
        *n = 1;
        for (size_t i = 1; i < count; i++)
            *n += h[i] != h[i - 1];
    }
    hs_buf_fini(&c.hashes);
    return rc;
}
