/*
 * store/store_evals.c — evaluations and per-game positions (store/store.h): the
 * eval records (append-only `evaldata`, deduplicated through the pending table,
 * the Bloom filter and `evalidx` of store_index.c), the `moves` entries that tie
 * a game's positions to them, the engines table, and the allocation-free reader
 * the query layer goes through. Split from store/store_records.c (games, sources,
 * players), whose record scratch and prefix scan it shares (store_internal.h).
 */
#include "store/store_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- evaluations ---- */

typedef hs__store_eval_scratch_t s_view_scratch_t;

/* A nil or a string (<= max bytes, no NUL inside) copied into buf; *out = buf or NULL. */
static int s_view_str(hs_wire_reader_t *r, char *buf, uint32_t max, char **out)
{
    *out = NULL;
    if (hs_wire_read_nil(r))
        return 0;
    const char *p;
    uint32_t n;
    int rc = hs_wire_read_str(r, &p, &n, max);
    if (rc)
        return rc;
    if (memchr(p, 0, n))
        return hs_error_set(r->err, HS_EPROTO, "%s: NUL inside a string", r->ctx);
    memcpy(buf, p, n);
    buf[n] = 0;
    *out = buf;
    return 0;
}

static int s_view_float(hs_wire_reader_t *r, float *out)
{
    if (hs_wire_read_nil(r)) {
        *out = NAN;
        return 0;
    }
    double d;
    int rc = hs_wire_read_double(r, &d);
    if (rc)
        return rc;
    if (!isfinite(d) || fabs(d) > 1e6)
        return hs_error_set(r->err, HS_EPROTO, "%s: not a finite number", r->ctx);
    *out = (float)d;
    return 0;
}

/*
 * Decodes the MessagePack body of a format-1 eval record (the RESULT eval layout
 * of core/wire.h, the checks of hs_wire_read_eval except the ownership values,
 * see below) into *e without allocating: ownership points into the body, the rest
 * into *sc; influence only when `inf`. Also reads what a wire decoder validated
 * (hs_eval_t.raw) when the store re-encodes it compactly.
 */
static int s_eval_view_mp(const uint8_t *p, size_t len, bool inf, hs_eval_t *e,
                          s_view_scratch_t *sc, hs_error_t *err)
{
    hs_wire_reader_t r;
    hs_wire_reader_init(&r, p, len, err);
    memset(e, 0, sizeof *e);
    uint32_t nf, n;
    uint64_t u;
    int64_t i64;
    const uint8_t *b;
    int rc;
#define S_TRY(what, x) do { r.ctx = what; if ((rc = (x)) != 0) goto bad; } while (0)
    S_TRY("eval", hs_wire_read_array(&r, &nf));
    if (nf < 12) {
        rc = hs_error_set(err, HS_EPROTO, "eval: too few fields");
        goto bad;
    }
    S_TRY("eval.move_number", hs_wire_read_int(&r, &i64));
    if (i64 < 0 || i64 > HS_WIRE_MAX_MOVES) {
        rc = hs_error_set(err, HS_EPROTO, "eval.move_number: out of range");
        goto bad;
    }
    e->move_number = (int)i64;
    S_TRY("eval.pos_key", hs_wire_read_bin(&r, &b, &n, 16));
    if (n != 16) {
        rc = hs_error_set(err, HS_EPROTO, "eval.pos_key: expected 16 bytes");
        goto bad;
    }
    memcpy(e->pos_key, b, 16);
    S_TRY("eval.engine_id", hs_wire_read_uint(&r, &u));
    if (u == 0 || u > UINT32_MAX) {
        rc = hs_error_set(err, HS_EPROTO, "eval.engine_id: out of range");
        goto bad;
    }
    e->engine_id = (uint32_t)u;
    S_TRY("eval.size", hs_wire_read_int(&r, &i64));
    if (i64 < HS_BOARD_MIN_SIZE || i64 > HS_BOARD_MAX_SIZE) {
        rc = hs_error_set(err, HS_EPROTO, "eval.size: out of range");
        goto bad;
    }
    e->size = (int)i64;
    uint32_t nn = (uint32_t)(e->size * e->size);
    S_TRY("eval.score_lead", s_view_float(&r, &e->score_lead));
    S_TRY("eval.win_rate", s_view_float(&r, &e->win_rate));
    if (!isnan(e->win_rate) && (e->win_rate < 0.0f || e->win_rate > 1.0f)) {
        rc = hs_error_set(err, HS_EPROTO, "eval.win_rate: out of 0..1");
        goto bad;
    }
    r.ctx = "eval.ownership";
    if (!hs_wire_read_nil(&r)) {
        S_TRY("eval.ownership", hs_wire_read_bin(&r, &b, &n, nn));
        if (n != nn) {
            rc = hs_error_set(err, HS_EPROTO, "eval.ownership: expected size*size bytes");
            goto bad;
        }
        /* Values are not re-checked: hs_wire_encode_eval refused out-of-range
         * ones when the record was written, and not touching the 361 bytes is
         * most of what makes a game query fast (they are read when printed). */
        e->ownership = (int8_t *)(uintptr_t)b;   /* read-only: LMDB's memory */
    }
    r.ctx = "eval.influence";
    if (!hs_wire_read_nil(&r)) {
        S_TRY("eval.influence", hs_wire_read_bin(&r, &b, &n, 2 * nn));
        if (n != 2 * nn) {
            rc = hs_error_set(err, HS_EPROTO, "eval.influence: expected 2*size*size bytes");
            goto bad;
        }
        for (uint32_t i = 0; inf && i < nn; i++)
            sc->influence[i] = (int16_t)(uint16_t)(b[2 * i] | b[2 * i + 1] << 8);
        e->influence = inf ? sc->influence : NULL;
    }
    S_TRY("eval.classes", s_view_str(&r, sc->classes, nn, &e->classes));
    if (e->classes && strlen(e->classes) != nn) {
        rc = hs_error_set(err, HS_EPROTO, "eval.classes: expected size*size characters");
        goto bad;
    }
    S_TRY("eval.result", s_view_str(&r, sc->result, HS_WIRE_MAX_NAME, &e->result));
    S_TRY("eval.timing_us", hs_wire_read_uint(&r, &u));
    if (u > UINT32_MAX) {
        rc = hs_error_set(err, HS_EPROTO, "eval.timing_us: out of range");
        goto bad;
    }
    e->timing_us = (uint32_t)u;
    S_TRY("eval.error", s_view_str(&r, sc->error, HS_WIRE_MAX_STR, &e->error));
    /* Fields a newer writer added are ignored, as the wire decoder does. */
#undef S_TRY
    return 0;
bad:
    memset(e, 0, sizeof *e);
    return rc;
}

/*
 * Decodes eval record value v (key k, for messages) of either format into *e
 * without allocating (format 2: store_codec.c; format 1: above). *e is valid
 * while v and *sc are. The query path reads every eval of a game this way
 * (store/store.h promises the hs_eval_t only for the callback's duration anyway).
 * 0 or HS_ECORRUPT naming the table and key.
 */
static int s_eval_view(const MDB_val *k, const MDB_val *v, hs_eval_t *e, s_view_scratch_t *sc,
                       hs__store_resolver_t *r, hs_error_t *err)
{
    const uint8_t *p = v->mv_data;
    if (v->mv_size < 2 || p[0] != HS_STORE_REC_V1)
        return hs__store_eval_decode(k, v, e, sc, r, err);
    hs_error_t why = { 0 };
    if (r)
        hs__store_resolver_decoded(r, 0);   /* format 1 knows no chains */
    if (s_eval_view_mp(p + 1, v->mv_size - 1, true, e, sc, &why) == 0)
        return 0;
    return hs__store_corrupt(err, "evaldata", k, why.msg);
}

/* Reads the eval record under seqv into *out (allocated: hs_eval_fini). */
static int s_eval_read(hs_store_t *s, MDB_txn *txn, const MDB_val *seqv, hs_eval_t *out,
                       hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (seqv->mv_size != 8)
        return hs__store_corrupt(err, "evalidx", seqv, "value is not a sequence number");
    MDB_val k = *seqv, d;
    int rc = mdb_get(txn, s->dbi[HS_DB_EVALDATA], &k, &d);
    if (rc)
        return hs__store_mdb_error(err, rc, "evaldata");
    s_view_scratch_t *sc = malloc(sizeof *sc);
    hs__store_resolver_t *r = hs__store_resolver_new(s, txn);
    hs_eval_t view;
    if (!sc || !r)
        rc = hs_error_set(err, HS_ENOMEM, "out of memory");
    else if ((rc = s_eval_view(&k, &d, &view, sc, r, err)) == 0 && hs_eval_copy(out, &view))
        rc = hs_error_set(err, HS_ENOMEM, "out of memory");
    hs__store_resolver_free(r);
    free(sc);
    return rc;
}

/* The sequence number of engine+position ikey's eval record (engine id, then the
 * position key), or 0 where there is none: the pending table, then (unless the
 * Bloom filter rules it out, the usual case for a new position) the index, in
 * the transaction txn. 0 or the store's error. */
static int s_eval_seq(hs_store_t *s, MDB_txn *txn, const uint8_t ikey[20], uint64_t *seq,
                      hs_error_t *err)
{
    *seq = hs__store_pend_find(s, ikey);
    if (*seq || !hs__store_idx_maybe(s, txn, ikey))
        return 0;
    MDB_val k = { 20, (void *)ikey }, d;
    int rc = mdb_get(txn, s->dbi[HS_DB_EVALIDX], &k, &d);
    if (rc == MDB_NOTFOUND)
        return 0;
    if (rc)
        return hs__store_mdb_error(err, rc, "evalidx");
    if (d.mv_size != 8)
        return hs__store_corrupt(err, "evalidx", &d, "value is not a sequence number");
    *seq = hs__rd64(d.mv_data);
    return 0;
}

static void s_eval_ikey(uint8_t ikey[20], uint32_t engine_id, const uint8_t pos_key[16])
{
    hs__be32(ikey, engine_id);
    memcpy(ikey + 4, pos_key, 16);
}

int hs_store_eval_get(hs_store_t *s, uint32_t engine_id, const uint8_t pos_key[16],
                      hs_eval_t *out, hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    int rc = hs__store_rtxn(s, &txn, &own, err);
    if (rc)
        return rc;
    uint8_t ikey[20], seqb[8];
    uint64_t seq;
    s_eval_ikey(ikey, engine_id, pos_key);
    rc = s_eval_seq(s, txn, ikey, &seq, err);
    s->d_lookups++;
    if (rc == 0 && !seq) {
        rc = HS_ENOTFOUND;
    } else if (rc == 0) {
        s->d_hits++;
        hs__be64(seqb, seq);
        MDB_val d = { 8, seqb };
        if (out)
            rc = s_eval_read(s, txn, &d, out, err);
    }
    hs__store_rdone(txn, own);
    return rc;
}

/* Writes eval e of game game_id as a compact record under sequence number seq
 * (MDB_APPEND). An eval a wire
 * decoder validated without keeping its maps (e->raw, the broker's RESULTs) is
 * read from its MessagePack bytes first. */
static int s_eval_append(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                         uint64_t seq, hs_error_t *err)
{
    s_view_scratch_t sc;
    uint8_t rec[HS_STORE_EVAL_MAX];
    hs_eval_t view;
    if (e->raw && !e->ownership && !e->influence && !e->classes) {
        /* Influence is converted only when kept (not by default). */
        int rc = s_eval_view_mp(e->raw, e->raw_len, s->maps & HS_STORE_MAP_INFLUENCE, &view,
                                &sc, err);
        if (rc)
            return rc;
        /* The net's and the search's fields are inline in e, decoded already. */
        view.score_stdev = e->score_stdev;
        view.num_policy = e->num_policy;
        memcpy(view.policy, e->policy, sizeof view.policy);
        view.visits = e->visits;
        view.pv_len = e->pv_len;
        memcpy(view.pv, e->pv, sizeof view.pv);
        view.num_moves = e->num_moves;
        memcpy(view.moves, e->moves, sizeof view.moves);
        e = &view;
    }
    /* The maps as changes since the game's move before, when this engine wrote
     * that record last (store_chain.c). */
    hs__store_base_t base;
    bool has_base = hs__store_chain_base(s, game_id, e, &base), chained;
    uint8_t seqb[8];
    size_t len;
    hs__be64(seqb, seq);
    int rc = hs__store_eval_encode_on(e, s->maps, has_base ? &base : NULL, seq, rec, &len,
                                      &chained, err);
    if (rc || (rc = hs__store_put(s, HS_DB_EVALDATA, seqb, 8, rec, len, MDB_APPEND, err)))
        return rc;
    hs__store_chain_note(s, game_id, e, s->maps, seq, chained ? base.depth + 1 : 0);
    return 0;
}

int hs__store_format_open(hs_store_t *s, MDB_txn *txn, uint64_t schema)
{
    MDB_dbi meta = s->dbi[HS_DB_META];
    uint64_t m = HS_STORE_MAP_DEFAULT;
    int rc = hs__store_meta_u64(txn, meta, "maps", &m);
    if (rc && rc != MDB_NOTFOUND)
        return rc;
    s->maps = s->flags & 0x100u ? (s->flags >> 9) & HS_STORE_MAP_ALL : (unsigned)m & 7u;
    if (s->flags & HS_STORE_RDONLY)
        return 0;
    uint8_t v[8];
    hs__be64(v, s->maps);
    MDB_val k = { 4, "maps" }, d = { 8, v };
    if ((rc = mdb_put(txn, meta, &k, &d, 0)) != 0 || schema >= HS_STORE_SCHEMA)
        return rc;
    /* An older store: its records keep their format byte and stay readable; the
     * new version keeps programs that know only the old one from misreading. */
    hs__be64(v, HS_STORE_SCHEMA);
    k = (MDB_val){ 6, "schema" };
    return mdb_put(txn, meta, &k, &d, 0);
}

unsigned hs_store_maps_kept(const hs_store_t *s) { return s->maps; }

/* Records the spec of an engine id the first time it is seen (a tiny db: one
 * lookup per put is cheaper than a cache that an aborted batch would falsify). */
static int s_remember_engine(hs_store_t *s, uint32_t engine_id, const char *spec,
                             hs_error_t *err)
{
    /* Ids found in the db are remembered (hs_store_abort forgets them all, since
     * the one found may be this batch's own insert). */
    for (int i = 0; i < s->num_engines_seen; i++)
        if (s->engines_seen[i] == engine_id)
            return 0;
    uint8_t key[4];
    hs__be32(key, engine_id);
    MDB_val k = { 4, key }, d;
    int rc = mdb_get(s->txn, s->dbi[HS_DB_ENGINES], &k, &d);
    if (rc == MDB_NOTFOUND)
        return hs__store_put(s, HS_DB_ENGINES, key, 4, spec ? spec : "",
                            spec ? strlen(spec) : 0, 0, err);
    if (rc == 0 && s->num_engines_seen < 8)
        s->engines_seen[s->num_engines_seen++] = engine_id;
    return rc ? hs__store_mdb_error(err, rc, "engines") : 0;
}

/* Moves value: position key (16), then (engine id u32, eval seq u64) per engine. */
#define S_MOVE_MAX (16 + HS__STORE_MOVES_PAIR * HS_STORE_MAX_ENGINES)

/* A `moves` key: the game id, then the move number (0..65535) big-endian, so a
 * game's positions are consecutive keys in move order. */
static void s_moves_key(uint8_t key[18], const uint64_t id[2], int move)
{
    hs__id_key(key, id);
    key[16] = (uint8_t)(move >> 8);
    key[17] = (uint8_t)move;
}

/* The game's position entry (game, move) points at record seq of engine_id: a
 * new entry, or this engine added to the entry of the engines before it (once:
 * putting it again changes nothing). */
static int s_moves_link(hs_store_t *s, const uint64_t game_id[2], int move,
                        const uint8_t pos_key[16], uint32_t engine_id, uint64_t seq,
                        hs_error_t *err)
{
    uint8_t mkey[18], mval[S_MOVE_MAX];
    s_moves_key(mkey, game_id, move);
    MDB_val md;
    memcpy(mval, pos_key, 16);
    hs__be32(mval + 16, engine_id);
    hs__be64(mval + 20, seq);
    int rc = hs__store_put_new(s, HS_DB_MOVES, mkey, 18, mval, 16 + HS__STORE_MOVES_PAIR,
                               &md, err);
    if (rc != HS_EEXIST)
        return rc;
    if (md.mv_size < 16 || md.mv_size > S_MOVE_MAX || (md.mv_size - 16) % HS__STORE_MOVES_PAIR)
        return hs_error_set(err, HS_ESTORE, "moves: bad entry");
    memcpy(mval, md.mv_data, md.mv_size);
    size_t mlen = md.mv_size;
    for (size_t off = 16; off < mlen; off += HS__STORE_MOVES_PAIR)
        if (hs__rd32(mval + off) == engine_id)
            return 0;   /* already recorded: idempotent */
    if (mlen + HS__STORE_MOVES_PAIR > S_MOVE_MAX)
        return hs_error_set(err, HS_ELIMIT, "more than %d engines on one position",
                            HS_STORE_MAX_ENGINES);
    hs__be32(mval + mlen, engine_id);
    hs__be64(mval + mlen + 4, seq);
    mlen += HS__STORE_MOVES_PAIR;
    return hs__store_put(s, HS_DB_MOVES, mkey, 18, mval, mlen, 0, err);
}

/* The next eval sequence number, read from the last record on first use. */
static int s_next_seq(hs_store_t *s, uint64_t *seq, hs_error_t *err)
{
    if (s->next_eval_seq == 0) {
        MDB_cursor *c;
        MDB_val lk, lv;
        int rc = mdb_cursor_open(s->txn, s->dbi[HS_DB_EVALDATA], &c);
        if (rc != 0)
            return hs__store_mdb_error(err, rc, "cursor");
        s->next_eval_seq = 1;
        if (mdb_cursor_get(c, &lk, &lv, MDB_LAST) == 0 && lk.mv_size == 8)
            s->next_eval_seq = hs__rd64(lk.mv_data) + 1;
        mdb_cursor_close(c);
    }
    *seq = s->next_eval_seq;
    return 0;
}

/* A new eval record for ikey's engine and position, under the next number. */
static int s_eval_new(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                      const uint8_t ikey[20], const char *engine_spec, uint64_t *seq,
                      hs_error_t *err)
{
    int rc = s_next_seq(s, seq, err);
    if (rc || (rc = s_eval_append(s, game_id, e, *seq, err)))
        return rc;
    s->next_eval_seq++;
    if (hs__store_pend_add(s, ikey, *seq))
        return hs_error_set(err, HS_ENOMEM, "out of memory (pending index)");
    return s_remember_engine(s, e->engine_id, engine_spec, err);
}

int hs_store_result_put(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                        const char *engine_spec, bool *dup, hs_error_t *err)
{
    if (dup)
        *dup = false;
    if (e->move_number < 0 || e->move_number > 0xFFFF || e->engine_id == 0)
        return hs_error_set(err, HS_EINVAL, "result: bad move number or engine id");
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    s->d_puts++;
    /* 1. Is this (engine, position) evaluated already? */
    uint8_t ikey[20];
    uint64_t seq;
    s_eval_ikey(ikey, e->engine_id, e->pos_key);
    if ((rc = s_eval_seq(s, s->txn, ikey, &seq, err)))
        goto out;
    if (seq) {
        s->d_dups++;
        if (dup)
            *dup = true;
        hs__store_chain_forget(s, e->engine_id);   /* not ours to chain on */
    } else if ((rc = s_eval_new(s, game_id, e, ikey, engine_spec, &seq, err))) {
        /* 2. Appended under the next sequence number (key order = speed). */
        goto out;
    }
    /* 3. The game's position entry points at the record (added once per engine). */
    rc = s_moves_link(s, game_id, e->move_number, e->pos_key, e->engine_id, seq, err);
out:
    return hs__store_wend(s, ab, rc, err);
}

int hs_store_evals_cover(hs_store_t *s, const uint8_t pos_key[16], const uint32_t *engine_ids,
                         int n, bool *covered, hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    *covered = false;
    int rc = hs__store_rtxn(s, &txn, &own, err);
    if (rc)
        return rc;
    uint64_t seq = 1;
    for (int k = 0; k < n && seq && rc == 0; k++) {
        uint8_t ikey[20];
        s_eval_ikey(ikey, engine_ids[k], pos_key);
        rc = s_eval_seq(s, txn, ikey, &seq, err);
    }
    *covered = rc == 0 && seq != 0 && n > 0;
    hs__store_rdone(txn, own);
    return rc;
}

int hs_store_result_link(hs_store_t *s, const uint64_t game_id[2], int move_number,
                         const uint8_t pos_key[16], uint32_t engine_id, hs_error_t *err)
{
    if (move_number < 0 || move_number > 0xFFFF || engine_id == 0)
        return hs_error_set(err, HS_EINVAL, "result: bad move number or engine id");
    bool ab;
    int rc = hs__store_wbegin(s, &ab, err);
    if (rc)
        return rc;
    uint8_t ikey[20];
    uint64_t seq;
    s_eval_ikey(ikey, engine_id, pos_key);
    if ((rc = s_eval_seq(s, s->txn, ikey, &seq, err)) == 0 && !seq)
        rc = HS_ENOTFOUND;   /* no message: the caller evaluates the position instead */
    if (rc == 0) {
        s->d_puts++;
        s->d_dups++;
        rc = s_moves_link(s, game_id, move_number, pos_key, engine_id, seq, err);
    }
    return hs__store_wend(s, ab, rc, err);
}

typedef struct { char *buf; size_t size; } s_spec_out_t;

static int s_spec_copy(void *ctx, const MDB_val *k, const MDB_val *v, hs_error_t *err)
{
    (void)k;
    (void)err;
    s_spec_out_t *o = ctx;
    if (o->size) {
        size_t n = v->mv_size < o->size - 1 ? v->mv_size : o->size - 1;
        memcpy(o->buf, v->mv_data, n);
        o->buf[n] = 0;
    }
    return 0;
}

int hs_store_engine_spec(hs_store_t *s, uint32_t engine_id, char *buf, size_t size,
                         hs_error_t *err)
{
    uint8_t key[4];
    hs__be32(key, engine_id);
    s_spec_out_t o = { buf, size };
    int rc = hs__store_lookup(s, HS_DB_ENGINES, key, 4, s_spec_copy, &o, err);
    if (rc == HS_ENOTFOUND)
        return hs_error_set(err, HS_ENOTFOUND, "unknown engine id %08x", engine_id);
    return rc;
}

int hs_store_game_evals(hs_store_t *s, const uint64_t id[2], int from, int to,
                        uint32_t engine_id, hs_store_eval_cb cb, void *ctx,
                        hs_error_t *err)
{
    if (from < 0)
        from = 0;
    if (to < 0 || to > 0xFFFF)
        to = 0xFFFF;
    MDB_txn *txn;
    bool own;
    /* ~5 KB of string and influence scratch: on the stack (callbacks get the eval
     * for the call only); the resolver remembers each engine's last record, the
     * base of the next one's change-coded maps. */
    s_view_scratch_t scratch, *sc = &scratch;
    MDB_cursor *c, *dc;
    int rc = hs__store_rcursor(s, HS_DB_MOVES, "cursor", &txn, &own, &c, err);
    if (rc)
        return rc;
    hs__store_resolver_t *res = hs__store_resolver_new(s, txn);
    if (!res || (rc = mdb_cursor_open(txn, s->dbi[HS_DB_EVALDATA], &dc)) != 0) {
        hs__store_resolver_free(res);
        mdb_cursor_close(c);
        hs__store_rdone(txn, own);
        return res ? hs__store_mdb_error(err, rc, "cursor")
                   : hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    uint64_t dc_seq = 0;   /* key under dc, 0 = not positioned */
    uint8_t start[18];
    s_moves_key(start, id, from);
    MDB_val k = { 18, start }, v;
    int ret = 0;
    /* The moves entries point at the records directly: one ordered cursor over
     * this game's positions, records read by sequence number, no hash lookups. */
    rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE);
    while (rc == 0 && ret == 0) {
        const uint8_t *kp = k.mv_data, *vp = v.mv_data;
        if (k.mv_size != 18 || memcmp(kp, start, 16) != 0)
            break;
        int mn = kp[16] << 8 | kp[17];
        if (mn > to)
            break;
        for (size_t off = 16; off + HS__STORE_MOVES_PAIR <= v.mv_size && ret == 0; off += HS__STORE_MOVES_PAIR) {
            if (engine_id && hs__rd32(vp + off) != engine_id)
                continue;
            /* A game's records were mostly appended one after the other: step the
             * data cursor when the next one follows, else seek (LMDB tries the
             * cursor's current page before descending from the root). */
            uint64_t seq = hs__rd64(vp + off + 4);
            MDB_val sv = { 8, (void *)(vp + off + 4) }, d;
            rc = MDB_NOTFOUND;
            if (dc_seq && seq == dc_seq + 1
                && mdb_cursor_get(dc, &sv, &d, MDB_NEXT) == 0 && sv.mv_size == 8
                && hs__rd64(sv.mv_data) == seq)
                rc = 0;
            if (rc) {
                sv = (MDB_val){ 8, (void *)(vp + off + 4) };
                rc = mdb_cursor_get(dc, &sv, &d, MDB_SET_KEY);
            }
            if (rc) {
                ret = hs__store_mdb_error(err, rc, "evaldata");
                rc = 0;
                break;
            }
            dc_seq = seq;
            hs_eval_t e;
            if ((ret = s_eval_view(&sv, &d, &e, sc, res, err)) != 0)
                break;
            hs__store_resolver_keep(res, seq, &e);
            e.move_number = mn;  /* the record is shared by every game reaching it */
            ret = cb(ctx, &e);
        }
        if (ret == 0)
            rc = mdb_cursor_get(c, &k, &v, MDB_NEXT);
    }
    mdb_cursor_close(dc);
    mdb_cursor_close(c);
    hs__store_resolver_free(res);
    hs__store_rdone(txn, own);
    if (ret)
        return ret;
    return rc && rc != MDB_NOTFOUND ? hs__store_mdb_error(err, rc, "moves") : 0;
}

/* Which of the engines in want (bit k: engine_ids[k]) the `moves` value v holds
 * a pair of. */
static uint32_t s_move_engines(const MDB_val *v, const uint32_t *engine_ids, int n,
                               uint32_t want)
{
    const uint8_t *vp = v->mv_data;
    uint32_t have = 0;
    for (size_t off = 16; off + HS__STORE_MOVES_PAIR <= v->mv_size;
         off += HS__STORE_MOVES_PAIR) {
        uint32_t id = hs__rd32(vp + off);
        for (int k = 0; k < n; k++)
            if ((want >> k & 1u) && engine_ids[k] == id)
                have |= 1u << k;
    }
    return have;
}

int hs_store_task_covered_engines(hs_store_t *s, const hs_store_task_t *t,
                                  const uint32_t *engine_ids, int n, uint32_t *covered,
                                  hs_error_t *err)
{
    *covered = 0;
    int want = hs_store_task_positions(t);
    if (want <= 0 || n <= 0 || n > 32 || t->move_first < 0 || t->move_last > 0xFFFF)
        return 0;
    MDB_txn *txn;
    bool own;
    MDB_cursor *c;
    int rc = hs__store_rcursor(s, HS_DB_MOVES, "cursor", &txn, &own, &c, err);
    if (rc)
        return rc;
    uint8_t start[18];
    s_moves_key(start, t->game_id, t->move_first);
    MDB_val k = { 18, start }, v;
    uint32_t left = n == 32 ? UINT32_MAX : (1u << n) - 1;   /* covered so far */
    int have = 0;
    /* One ordered walk over the game's entries from the first move asked for,
     * keeping the engines every position so far
     * has; a missing position, or no engine left, ends it. */
    rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE);
    while (rc == 0 && left) {
        const uint8_t *kp = k.mv_data;
        if (k.mv_size != 18 || memcmp(kp, start, 16) != 0)
            break;
        int mn = kp[16] << 8 | kp[17], d = mn - t->move_first;
        if (mn > t->move_last)
            break;
        if (d % t->move_step == 0) {
            if (d / t->move_step != have)
                break;   /* a position before this one has no entry */
            left &= s_move_engines(&v, engine_ids, n, left);
            have++;
        }
        rc = mdb_cursor_get(c, &k, &v, MDB_NEXT);
    }
    mdb_cursor_close(c);
    hs__store_rdone(txn, own);
    if (rc && rc != MDB_NOTFOUND)
        return hs__store_mdb_error(err, rc, "moves");
    *covered = have == want ? left : 0;
    return 0;
}

/* ---- engines and positions ---- */

typedef struct { hs_store_engine_cb cb; void *ctx; } s_engine_iter_t;

static int s_engine_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_engine_iter_t *it = ctx;
    if (k->mv_size != 4)
        return 0;
    char spec[HS_WIRE_MAX_NAME + 1];
    size_t n = v->mv_size < HS_WIRE_MAX_NAME ? v->mv_size : HS_WIRE_MAX_NAME;
    memcpy(spec, v->mv_data, n);
    spec[n] = 0;
    return it->cb(it->ctx, hs__rd32(k->mv_data), spec);
}

int hs_store_engines_each(hs_store_t *s, hs_store_engine_cb cb, void *ctx, hs_error_t *err)
{
    s_engine_iter_t it = { cb, ctx };
    return hs__store_prefix_each(s, HS_DB_ENGINES, "", 0, s_engine_fn, &it, err);
}

typedef struct { hs_store_position_cb cb; void *ctx; const uint8_t *key; } s_pos_iter_t;

static int s_pos_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_pos_iter_t *it = ctx;
    if (k->mv_size != 18 || v->mv_size < 16 || memcmp(v->mv_data, it->key, 16) != 0)
        return 0;
    const uint8_t *p = k->mv_data;
    uint64_t id[2] = { hs__rd64(p), hs__rd64(p + 8) };
    return it->cb(it->ctx, id, p[16] << 8 | p[17]);
}

int hs_store_position_games(hs_store_t *s, const uint8_t pos_key[16],
                            hs_store_position_cb cb, void *ctx, hs_error_t *err)
{
    s_pos_iter_t it = { cb, ctx, pos_key };
    return hs__store_prefix_each(s, HS_DB_MOVES, "", 0, s_pos_fn, &it, err);
}
