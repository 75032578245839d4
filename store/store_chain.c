/*
 * store/store_chain.c — maps kept as their changes since an earlier record
 * (map encoding 5, docs/STORE.md "Change-coded maps"): the change coder, the
 * writer's memory of the record each engine wrote last, and the reader's way
 * back along a chain to the record that keeps its maps whole.
 *
 * Why: a position's maps differ from the same engine's at the move before in
 * a handful of points (4.4 on the pro archive, docs/PERF.md), while the
 * context coder spends ~3 µs and ~40 bytes on each map whole. Coding the
 * changes takes a tenth of both. The price is paid by a reader of one
 * position alone: up to HS__STORE_CHAIN_MAX records decoded. A game read in
 * order finds each record's base in the reader's memory of the last ones.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the change coder ---- */

size_t hs__store_chain_put(uint8_t *out, const void *cur, const void *base, uint32_t nn,
                           int width, uint64_t dist, uint32_t max_changes)
{
    const uint8_t *c = cur, *b = base;   /* bytes, for the memcmp */
    uint8_t pay[10 + 5 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    size_t o = hs_wire_put_varint(pay, dist);
    uint32_t changes = 0, last = 0;   /* last: the point after the last change */
    for (uint32_t i = 0; i < nn; i++) {
        /* Most of a map is as it was: skip it eight points at a time. */
        if ((i & 7) == 0 && i + 8 <= nn && !memcmp(c + i * width, b + i * width, 8u * width)) {
            i += 7;
            continue;
        }
        int32_t x = width == 1 ? ((const int8_t *)cur)[i] : ((const int16_t *)cur)[i];
        int32_t y = width == 1 ? ((const int8_t *)base)[i] : ((const int16_t *)base)[i];
        if (x == y)
            continue;
        if (++changes > max_changes)
            return 0;
        o += hs_wire_put_varint(pay + o, i - last);
        if (width == 1)
            pay[o++] = (uint8_t)x;
        else
            o += hs_wire_put_varint(pay + o, (uint32_t)x << 1 ^ (uint32_t)(x >> 31));
        last = i + 1;
    }
    size_t n = 0;
    out[n++] = HS_STORE_MAP_CHAIN;
    n += hs_wire_put_varint(out + n, o);
    memcpy(out + n, pay, o);
    return n + o;
}

int hs__store_chain_dist(const uint8_t **pp, const uint8_t *end, uint64_t *dist)
{
    uint32_t d;
    if (hs_wire_get_varint(pp, end, &d) || d == 0)
        return -1;
    *dist = d;
    return 0;
}

int hs__store_chain_apply(const uint8_t *p, const uint8_t *end, void *map, uint32_t nn,
                          int width, int32_t lo, int32_t hi)
{
    uint32_t at = 0;
    while (p < end) {
        uint32_t gap, z;
        int32_t x;
        if (hs_wire_get_varint(&p, end, &gap) || gap >= nn - at)
            return -1;
        at += gap;
        if (width == 1) {
            if (p >= end)
                return -1;
            x = lo < 0 ? (int8_t)*p++ : *p++;
        } else {
            if (hs_wire_get_varint(&p, end, &z))
                return -1;
            x = (int32_t)(z >> 1) ^ -(int32_t)(z & 1);
        }
        if (x < lo || x > hi)
            return -1;
        if (width == 1)
            ((uint8_t *)map)[at] = (uint8_t)x;
        else
            ((int16_t *)map)[at] = (int16_t)x;
        at++;
    }
    return 0;
}

/* ---- a record held with its maps (the writer's last, the reader's recent) ---- */

typedef struct {
    uint64_t seq;                /* 0: empty */
    int depth;                   /* records before it in its chain */
    hs_eval_t e;                 /* engine id, size, and the maps below or NULL */
    int8_t ownership[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    int16_t influence[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    char classes[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE + 1];
} s_held_t;

/* Holds record seq: e's engine, size and the maps of it in `maps`. */
static void s_hold(s_held_t *h, uint64_t seq, int depth, const hs_eval_t *e, unsigned maps)
{
    size_t nn = (size_t)e->size * (size_t)e->size;
    h->seq = seq;
    h->depth = depth;
    h->e = (hs_eval_t){ .engine_id = e->engine_id, .size = e->size };
    if (e->ownership && (maps & HS_STORE_MAP_OWNERSHIP))
        h->e.ownership = memcpy(h->ownership, e->ownership, nn);
    if (e->influence && (maps & HS_STORE_MAP_INFLUENCE))
        h->e.influence = memcpy(h->influence, e->influence, 2 * nn);
    if (e->classes && (maps & HS_STORE_MAP_CLASSES))
        h->e.classes = memcpy(h->classes, e->classes, nn + 1);
}

/* ---- the writer: the record each engine wrote last ---- */

struct hs__store_chain_last {
    s_held_t h;
    uint64_t game_id[2];
    int move_number;
};

static hs__store_chain_last_t *s_slot(hs_store_t *s, uint32_t engine_id)
{
    for (int i = 0; i < s->chain_n; i++)
        if (s->chain[i].h.seq && s->chain[i].h.e.engine_id == engine_id)
            return &s->chain[i];
    return NULL;
}

int hs__store_chain_base(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                         hs__store_base_t *base)
{
    hs__store_chain_last_t *l = s_slot(s, e->engine_id);
    if (!l || l->game_id[0] != game_id[0] || l->game_id[1] != game_id[1]
        || l->move_number + 1 != e->move_number || l->h.e.size != e->size
        || l->h.depth + 1 >= HS__STORE_CHAIN_MAX)
        return 0;
    base->seq = l->h.seq;
    base->depth = l->h.depth;
    base->e = &l->h.e;
    return 1;
}

void hs__store_chain_note(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                          unsigned maps, uint64_t seq, int depth)
{
    /* Without memory for it the writer only keeps every map whole. */
    if (!s->chain && !(s->chain = calloc(HS__STORE_CHAIN_ENGINES, sizeof *s->chain)))
        return;
    hs__store_chain_last_t *l = s_slot(s, e->engine_id);
    if (!l && s->chain_n < HS__STORE_CHAIN_ENGINES)
        l = &s->chain[s->chain_n++];
    if (!l)   /* more engines than slots: the oldest gives way */
        for (int i = 0; i < s->chain_n; i++)
            if (!l || s->chain[i].h.seq < l->h.seq)
                l = &s->chain[i];
    s_hold(&l->h, seq, depth, e, maps);
    l->game_id[0] = game_id[0];
    l->game_id[1] = game_id[1];
    l->move_number = e->move_number;
}

void hs__store_chain_forget(hs_store_t *s, uint32_t engine_id)
{
    hs__store_chain_last_t *l = s_slot(s, engine_id);
    if (l)
        l->h.seq = 0;
}

void hs__store_chain_reset(hs_store_t *s)
{
    s->chain_n = 0;
}

/* ---- the reader: along a chain to its first record ---- */

/* Records decoded lately, with their maps (the next record of a game names
 * the one before as its base). */
#define S_RECENT 4

struct hs__store_resolver {
    hs_store_t *s;
    MDB_txn *txn;
    int depth;                   /* bases being decoded now */
    hs__store_eval_scratch_t *level[HS__STORE_CHAIN_MAX];
    hs_eval_t level_e[HS__STORE_CHAIN_MAX];
    s_held_t recent[S_RECENT];
    unsigned next;               /* the recent slot to fill next */
    int decoded_depth;           /* the chain depth of the record decoded last */
};

void hs__store_resolver_decoded(hs__store_resolver_t *r, int depth)
{
    r->decoded_depth = depth;
}

hs__store_resolver_t *hs__store_resolver_new(hs_store_t *s, MDB_txn *txn)
{
    hs__store_resolver_t *r = calloc(1, sizeof *r);
    if (r) {
        r->s = s;
        r->txn = txn;
    }
    return r;
}

void hs__store_resolver_free(hs__store_resolver_t *r)
{
    if (!r)
        return;
    for (int i = 0; i < HS__STORE_CHAIN_MAX; i++)
        free(r->level[i]);
    free(r);
}

void hs__store_resolver_keep(hs__store_resolver_t *r, uint64_t seq, const hs_eval_t *e)
{
    if (!r || (!e->ownership && !e->influence && !e->classes))
        return;
    s_held_t *k = &r->recent[r->next++ % S_RECENT];
    for (int i = 0; i < S_RECENT; i++)   /* one slot an engine: the game's order */
        if (r->recent[i].seq && r->recent[i].e.engine_id == e->engine_id) {
            k = &r->recent[i];
            break;
        }
    s_hold(k, seq, r->decoded_depth, e, HS_STORE_MAP_ALL);
}

int hs__store_resolve(hs__store_resolver_t *r, uint64_t seq, const hs_eval_t **base,
                      int *depth, hs_error_t *err)
{
    uint8_t kb[8];
    hs__be64(kb, seq);
    MDB_val k = { 8, kb }, d;
    for (int i = 0; i < S_RECENT; i++)
        if (r->recent[i].seq == seq) {
            *base = &r->recent[i].e;
            *depth = r->recent[i].depth;
            return 0;
        }
    if (r->depth >= HS__STORE_CHAIN_MAX - 1)
        return hs__store_corrupt(err, "evaldata", &k, "a chain of change-coded maps longer "
                                 "than " HS__STORE_CHAIN_MAX_TEXT " records");
    int lv = r->depth;
    if (!r->level[lv] && !(r->level[lv] = malloc(sizeof *r->level[lv])))
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int rc = mdb_get(r->txn, r->s->dbi[HS_DB_EVALDATA], &k, &d);
    if (rc == MDB_NOTFOUND)
        return hs__store_corrupt(err, "evaldata", &k, "the base record of change-coded "
                                 "maps is missing");
    if (rc)
        return hs__store_mdb_error(err, rc, "evaldata");
    r->depth++;
    rc = hs__store_eval_decode(&k, &d, &r->level_e[lv], r->level[lv], r, err);
    r->depth--;
    if (rc)
        return rc;
    *depth = r->decoded_depth;
    hs__store_resolver_keep(r, seq, &r->level_e[lv]);
    *base = &r->level_e[lv];
    return 0;
}
