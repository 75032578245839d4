/*
 * store/store_boards.c — the board index of store/store.h: `boards` maps the
 * canonical whole-board key (core/symmetry.h) + game id + move number to the
 * symmetry that carries the game's board onto the canonical one.
 *
 * A new game is indexed by hs_store_game_put in its own batch (one replay per
 * new game: the board alone, without superko history, which the key does not
 * see), so the index is never behind the games. The entries wait in memory
 * until the commit, which puts them in key order (hash keys in a game's order
 * cost LMDB a cache miss per level of its tree; sorted, neighbours share the
 * path); a read of the index inside the batch puts them first. Stores written before the index
 * existed are back-filled by hs_store_boards_rebuild; meta "boards" says the
 * index covers every game.
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/symmetry.h"

#define S_KEY_LEN 26       /* board key (8) + game id (16) + move number (2) */
#define S_ENTRY 27         /* a pending entry: key + symmetry */
#define S_META "boards"
#define S_REBUILD_CHUNK 256 /* games per rebuild batch (and per progress call) */

static bool s_meta_complete(MDB_txn *txn, MDB_dbi meta)
{
    uint64_t v = 0;
    return hs__store_meta_u64(txn, meta, S_META, &v) == 0 && v != 0;
}

int hs__store_boards_open(hs_store_t *s, MDB_txn *txn)
{
    if ((s->flags & HS_STORE_RDONLY) || s->boards_absent)
        return 0;
    if (s_meta_complete(txn, s->dbi[HS_DB_META]))
        return 0;
    /* A store without games is fully indexed by definition; one with games and
     * no mark was written before the index and waits for `hyeongse index`. */
    MDB_stat st;
    int rc = mdb_stat(txn, s->dbi[HS_DB_GAMES], &st);
    if (rc || st.ms_entries)
        return rc;
    uint8_t v[8];
    hs__be64(v, 1);
    MDB_val k = { strlen(S_META), S_META }, d = { 8, v };
    return mdb_put(txn, s->dbi[HS_DB_META], &k, &d, 0);
}

/* Adds an entry to the batch's pending entries (put at commit). 0 or HS_ENOMEM. */
static int s_pend(hs_store_t *s, const uint8_t k[S_KEY_LEN], uint8_t sym, hs_error_t *err)
{
    if (s->bpend_n == s->bpend_cap) {
        size_t cap = s->bpend_cap ? 2 * s->bpend_cap : 4096;
        uint8_t *p = realloc(s->bpend, cap * S_ENTRY);
        if (!p)
            return hs_error_set(err, HS_ENOMEM, "out of memory (board index)");
        s->bpend = p;
        s->bpend_cap = cap;
    }
    uint8_t *e = s->bpend + s->bpend_n++ * S_ENTRY;
    memcpy(e, k, S_KEY_LEN);
    e[S_KEY_LEN] = sym;
    return 0;
}

static int s_cmp_entry(const void *a, const void *b)
{
    return memcmp(a, b, S_KEY_LEN);   /* LMDB's order for keys of one length */
}

int hs__store_boards_flush(hs_store_t *s, hs_error_t *err)
{
    if (!s->bpend_n)
        return 0;
    size_t n = s->bpend_n;
    uint8_t *e = s->bpend;
    qsort(e, n, S_ENTRY, s_cmp_entry);
    s->bpend_n = 0;   /* a failed put below loses the batch, entries and all */
    for (size_t i = 0; i < n; i++) {
        int rc = hs__store_put(s, HS_DB_BOARDS, e + i * S_ENTRY, S_KEY_LEN,
                               e + i * S_ENTRY + S_KEY_LEN, 1, 0, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* The entry of the board whose hashes are z (game g after `move` moves): pending
 * for the commit (a new game), or with new_only (the rebuild) put now, an
 * existing entry being HS_EEXIST (its test for an indexed game). */
static int s_put_board(hs_store_t *s, const hs_sym_hashes_t *z, const hs_game_t *g, int move,
                       bool new_only, hs_error_t *err)
{
    int sym = 0;
    uint64_t key = hs_sym_hashes_key(z, &sym);
    uint8_t k[S_KEY_LEN], v = (uint8_t)sym;
    hs__be64(k, key);
    hs__id_key(k + 8, g->id);
    k[24] = (uint8_t)(move >> 8);
    k[25] = (uint8_t)move;
    if (!new_only)
        return s_pend(s, k, v, err);
    return hs__store_put(s, HS_DB_BOARDS, k, sizeof k, &v, 1, MDB_NOOVERWRITE, err);
}

/* The board after g's setup into *b: 0, or -1 when the setup cannot be placed
 * (then nothing of the game is indexed). */
static int s_setup(hs_board_t *b, const hs_game_t *g)
{
    if (hs_board_init(b, g->size) < 0)
        return -1;
    for (int i = 0; i < g->num_setup; i++)
        if (hs_board_set_stone(b, hs_game_board_point(b, g->setup[i].vertex),
                               (hs_color_t)g->setup[i].color) < 0)
            return -1;
    return 0;
}

/* Plays mv on b and brings z along: one stone toggled for a move that
 * captured nothing (most moves), the hashes redone from the board otherwise.
 * 0, or -1 for a move the board refuses. */
static int s_play(hs_board_t *b, hs_sym_hashes_t *z, const hs_game_move_t *mv, unsigned flags)
{
    hs_point_t p = hs_game_board_point(b, mv->vertex);
    int taken = b->captures[HS_BLACK] + b->captures[HS_WHITE];
    if (hs_board_play(b, (hs_color_t)mv->color, p, flags, NULL) < 0)
        return -1;
    if (p == HS_PASS)
        return 0;
    if (taken == b->captures[HS_BLACK] + b->captures[HS_WHITE] && b->color[p] == mv->color)
        hs_sym_hashes_toggle(z, (hs_color_t)mv->color, hs_board_x(b, p), hs_board_y(b, p));
    else
        hs_sym_hashes_init(z, b);
    return 0;
}

/*
 * Indexes every position of g from the setup on, stopping before a move the
 * board refuses (suicide per the rules, simple ko, an occupied point). With
 * added != NULL (the rebuild) an existing move-0 entry means the game is
 * indexed already: nothing is written. 0 or a store error.
 */
int hs__store_boards_index(hs_store_t *s, const hs_game_t *g, int64_t *added,
                          hs_error_t *err)
{
    if (s->boards_absent)
        return 0;
    hs_board_t b;
    if (s_setup(&b, g) < 0)
        return 0;
    unsigned flags = hs_rules_play_flags(&g->rules);
    int last = g->num_moves < 65535 ? g->num_moves : 65535;
    hs_sym_hashes_t z;
    hs_sym_hashes_init(&z, &b);
    for (int m = 0; m <= last; m++) {
        if (m > 0 && s_play(&b, &z, &g->moves[m - 1], flags) < 0)
            break;
        int rc = s_put_board(s, &z, g, m, added != NULL, err);
        if (rc == HS_EEXIST && m == 0)
            return 0;
        if (rc && rc != HS_EEXIST)
            return rc;
        if (added && rc == 0)
            (*added)++;
    }
    return 0;
}

bool hs_store_boards_complete(hs_store_t *s)
{
    if (s->boards_absent)
        return false;
    MDB_txn *txn;
    bool own;
    if (hs__store_rtxn(s, &txn, &own, NULL) != 0)
        return false;
    bool done = s_meta_complete(txn, s->dbi[HS_DB_META]);
    hs__store_rdone(txn, own);
    return done;
}

/* Up to n game ids after *last (all from the first when *started is false) into
 * ids; *got the count. 0 or a store error. */
static int s_next_ids(hs_store_t *s, uint8_t (*ids)[16], int n, bool *started, int *got,
                      hs_error_t *err)
{
    MDB_txn *txn;
    bool own;
    MDB_cursor *c;
    int rc = hs__store_rcursor(s, HS_DB_GAMES, "games", &txn, &own, &c, err);
    if (rc)
        return rc;
    MDB_val k = { 16, ids[0] }, v;
    *got = 0;
    if (!*started)
        rc = mdb_cursor_get(c, &k, &v, MDB_FIRST);
    else if ((rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE)) == 0 &&
             k.mv_size == 16 && memcmp(k.mv_data, ids[0], 16) == 0)
        rc = mdb_cursor_get(c, &k, &v, MDB_NEXT);   /* ids[0] is the last one done */
    for (; rc == 0 && *got < n; rc = mdb_cursor_get(c, &k, &v, MDB_NEXT))
        if (k.mv_size == 16)
            memcpy(ids[(*got)++], k.mv_data, 16);
    mdb_cursor_close(c);
    hs__store_rdone(txn, own);
    *started = true;
    return rc && rc != MDB_NOTFOUND ? hs__store_mdb_error(err, rc, "games") : 0;
}

/* One rebuild batch: the games ids[0..n). */
static int s_rebuild_chunk(hs_store_t *s, uint8_t (*ids)[16], int n, int64_t *added,
                           hs_error_t *err)
{
    int rc = hs_store_begin(s, err);
    for (int i = 0; i < n && rc == 0; i++) {
        uint64_t id[2] = { hs__rd64(ids[i]), hs__rd64(ids[i] + 8) };
        hs_game_t g;
        if ((rc = hs_store_game_get(s, id, &g, NULL, NULL, err)) != 0)
            break;
        rc = hs__store_boards_index(s, &g, added, err);
        hs_wire_game_t w = { .game = g };
        hs_wire_game_fini(&w);
    }
    if (rc) {
        hs_store_abort(s);
        return rc;
    }
    return hs_store_commit(s, err);
}

static int s_mark_complete(hs_store_t *s, hs_error_t *err)
{
    uint8_t v[8];
    hs__be64(v, 1);
    int rc = hs_store_begin(s, err);
    if (rc == 0)
        rc = hs__store_put(s, HS_DB_META, S_META, strlen(S_META), v, 8, 0, err);
    if (rc) {
        hs_store_abort(s);
        return rc;
    }
    return hs_store_commit(s, err);
}

int hs_store_boards_rebuild(hs_store_t *s, hs_store_progress_cb cb, void *ctx,
                            int64_t *added, hs_error_t *err)
{
    int64_t dummy = 0;
    if (!added)
        added = &dummy;
    *added = 0;
    if (s->flags & HS_STORE_RDONLY)
        return hs_error_set(err, HS_EBADSTATE, "the store is open read-only");
    if (s->txn)
        return hs_error_set(err, HS_EBADSTATE, "a batch is open");
    hs_store_stats_t st;
    int rc = hs_store_stats(s, &st, err);
    if (rc)
        return rc;
    uint8_t ids[S_REBUILD_CHUNK][16];
    bool started = false;
    int64_t done = 0;
    for (;;) {
        int n = 0;
        if ((rc = s_next_ids(s, ids, S_REBUILD_CHUNK, &started, &n, err)) != 0)
            return rc;
        if (n == 0)
            break;
        if ((rc = s_rebuild_chunk(s, ids, n, added, err)) != 0)
            return rc;
        done += n;
        memcpy(ids[0], ids[n - 1], 16);   /* resume after the last one */
        if (cb && (rc = cb(ctx, done, st.games > done ? st.games : done)) != 0)
            return rc;
    }
    if (cb && done == 0 && (rc = cb(ctx, 0, 0)) != 0)
        return rc;
    return s_mark_complete(s, err);
}

/* ---- reading ---- */

typedef struct {
    hs_store_board_cb cb;
    void *ctx;
    hs_error_t *err;
} s_find_t;

static int s_find_fn(void *ctx, const MDB_val *k, const MDB_val *v)
{
    s_find_t *f = ctx;
    const uint8_t *p = k->mv_data;
    if (k->mv_size != S_KEY_LEN || v->mv_size != 1 || *(const uint8_t *)v->mv_data >= 8)
        return hs__store_corrupt(f->err, "boards", k, "malformed entry");
    uint64_t id[2] = { hs__rd64(p + 8), hs__rd64(p + 16) };
    return f->cb(f->ctx, id, p[24] << 8 | p[25], *(const uint8_t *)v->mv_data);
}

int hs_store_boards_find(hs_store_t *s, uint64_t key, hs_store_board_cb cb, void *ctx,
                         hs_error_t *err)
{
    if (s->boards_absent)
        return 0;
    int rc = hs__store_boards_flush(s, err);   /* a batch sees its own games */
    if (rc)
        return rc;
    uint8_t prefix[8];
    hs__be64(prefix, key);
    s_find_t f = { cb, ctx, err };
    return hs__store_prefix_each(s, HS_DB_BOARDS, prefix, sizeof prefix, s_find_fn, &f, err);
}

int hs_store_boards_bytes(hs_store_t *s, uint64_t *bytes, hs_error_t *err)
{
    *bytes = 0;
    if (s->boards_absent)
        return 0;
    int rc = hs__store_boards_flush(s, err);
    if (rc)
        return rc;
    MDB_txn *txn;
    bool own;
    rc = hs__store_rtxn(s, &txn, &own, err);
    if (rc)
        return rc;
    MDB_stat st;
    rc = mdb_stat(txn, s->dbi[HS_DB_BOARDS], &st);
    hs__store_rdone(txn, own);
    if (rc)
        return hs__store_mdb_error(err, rc, "boards");
    *bytes = (uint64_t)(st.ms_branch_pages + st.ms_leaf_pages + st.ms_overflow_pages) *
             st.ms_psize;
    return 0;
}
