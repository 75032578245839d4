/*
 * tests/test_board_index.c — the board symmetries and canonical key
 * (core/symmetry.h), the board index (store/store.h, "the board index") and the
 * query by board (store/query.h, "by board"):
 *   - symmetry laws: inverse and compose agree with hs_sym_apply on every point;
 *   - the 8 images of a position have one key, and the symmetry returned for
 *     each carries it onto the same canonical stones; stabilizers of the empty
 *     board (all 8), a 4-4 stone (identity and the diagonal) and a lopsided one;
 *   - the incremental hashes give the same key as the board walk;
 *   - a new store's index is complete; a game put is found at every move (also
 *     across captures, where the writer redoes its hashes); a
 *     rotated copy is found beside it, and its next move comes back in the
 *     asked orientation, merged, with the recorded result and the best engine's
 *     eval (mcts before judge); an illegal move ends a game's entries;
 *   - a store whose index was dropped (as a store from before the index):
 *     incomplete, the query refuses, the rebuild restores every entry, a second
 *     rebuild adds nothing, and `check` finds no problem.
 * Run as `test_board_index drop DIR` it only drops DIR's index (tests/
 * test_query_board.sh makes an old-style store that way).
 */
#include <lmdb.h>
#include <math.h>

#include "core/board.h"
#include "core/game.h"
#include "core/poskey.h"
#include "core/symmetry.h"
#include "store/query.h"
#include "store/store.h"
#include "test.h"

static void test_laws(void)
{
    for (int a = 0; a < HS_SYM_COUNT; a++) {
        int inv = hs_sym_inverse(a);
        HS_CHECK_INT(hs_sym_compose(a, inv), 0);
        HS_CHECK_INT(hs_sym_compose(inv, a), 0);
        HS_CHECK_INT(inv, a == 5 ? 6 : a == 6 ? 5 : a);
        HS_CHECK_INT(hs_sym_compose(0, a), a);
        HS_CHECK_INT(hs_sym_compose(a, 0), a);
        for (int b = 0; b < HS_SYM_COUNT; b++) {
            int c = hs_sym_compose(a, b), bad = 0;
            for (int n = 7; n <= 19; n += 12)
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++) {
                        int ax, ay, bx, by, cx, cy;
                        hs_sym_apply(n, a, x, y, &ax, &ay);
                        hs_sym_apply(n, b, ax, ay, &bx, &by);
                        hs_sym_apply(n, c, x, y, &cx, &cy);
                        bad += bx != cx || by != cy;
                    }
            HS_CHECK_INT(bad, 0);
        }
    }
    int x, y;
    hs_sym_apply(19, 4, 3, 15, &x, &y);   /* bit 2: swap */
    HS_CHECK(x == 15 && y == 3);
    hs_sym_apply(19, 3, 3, 15, &x, &y);   /* bits 0 and 1: both mirrors */
    HS_CHECK(x == 15 && y == 3);
    hs_sym_apply(19, 5, 3, 15, &x, &y);   /* mirror x, then swap */
    HS_CHECK(x == 15 && y == 15);
}

/* *dst = src's stones under symmetry s. */
static void s_transform(hs_board_t *dst, const hs_board_t *src, int s)
{
    int n = src->size;
    hs_board_init(dst, n);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int c = src->color[hs_board_point(src, x, y)];
            if (c == HS_BLACK || c == HS_WHITE) {
                int tx, ty;
                hs_sym_apply(n, s, x, y, &tx, &ty);
                hs_board_set_stone(dst, hs_board_point(dst, tx, ty), (hs_color_t)c);
            }
        }
}

static bool s_same_stones(const hs_board_t *a, const hs_board_t *b)
{
    for (int y = 0; y < a->size; y++)
        for (int x = 0; x < a->size; x++)
            if (a->color[hs_board_point(a, x, y)] != b->color[hs_board_point(b, x, y)])
                return false;
    return true;
}

static void s_stones(hs_board_t *b, int n, const char *black, const char *white)
{
    hs_board_init(b, n);
    for (const char *p = black; p[0] && p[1]; p += 2)
        hs_board_set_stone(b, hs_board_point(b, p[0] - 'a', p[1] - 'a'), HS_BLACK);
    for (const char *p = white; p[0] && p[1]; p += 2)
        hs_board_set_stone(b, hs_board_point(b, p[0] - 'a', p[1] - 'a'), HS_WHITE);
}

static void test_keys(void)
{
    hs_board_t b, t, c0, ct;
    s_stones(&b, 19, "dddpqcpq" "ecfc", "qdcp" "jj");   /* no symmetry */
    int sym0;
    unsigned stab;
    uint64_t k0 = hs_board_canonical_key(&b, &sym0, &stab);
    HS_CHECK_INT(stab, 1);
    s_transform(&c0, &b, sym0);
    for (int s = 0; s < HS_SYM_COUNT; s++) {
        s_transform(&t, &b, s);
        int st;
        unsigned tst;
        HS_CHECK(hs_board_canonical_key(&t, &st, &tst) == k0);
        HS_CHECK_INT(tst, 1);
        HS_CHECK_INT(hs_sym_compose(s, st), sym0);
        s_transform(&ct, &t, st);
        HS_CHECK(s_same_stones(&ct, &c0));
    }
    /* The same stones of other colours, one stone moved, another size: other keys. */
    hs_board_t o;
    s_stones(&o, 19, "qdcp" "jj", "dddpqcpq" "ecfc");
    HS_CHECK(hs_board_canonical_key(&o, NULL, NULL) != k0);
    s_stones(&o, 19, "dddpqcpq" "ecfd", "qdcp" "jj");
    HS_CHECK(hs_board_canonical_key(&o, NULL, NULL) != k0);
    /* The incremental hashes: stones toggled one by one, in and out again. */
    hs_sym_hashes_t z;
    hs_board_t none;
    hs_board_init(&none, 19);
    hs_sym_hashes_init(&z, &none);
    const char *bl = "dddpqcpqecfc", *wh = "qdcpjj";
    for (const char *p = bl; *p; p += 2)
        hs_sym_hashes_toggle(&z, HS_BLACK, p[0] - 'a', p[1] - 'a');
    for (const char *p = wh; *p; p += 2)
        hs_sym_hashes_toggle(&z, HS_WHITE, p[0] - 'a', p[1] - 'a');
    int zs;
    HS_CHECK(hs_sym_hashes_key(&z, &zs) == k0);
    HS_CHECK_INT(zs, sym0);
    hs_sym_hashes_toggle(&z, HS_WHITE, 9, 9);   /* jj out */
    hs_sym_hashes_toggle(&z, HS_WHITE, 9, 10);  /* jk in */
    s_stones(&o, 19, "dddpqcpq" "ecfc", "qdcp" "jk");
    HS_CHECK(hs_sym_hashes_key(&z, NULL) == hs_board_canonical_key(&o, NULL, NULL));
    hs_board_t e9, e19;
    hs_board_init(&e9, 9);
    hs_board_init(&e19, 19);
    int es;
    HS_CHECK(hs_board_canonical_key(&e9, NULL, NULL) != hs_board_canonical_key(&e19, &es, &stab));
    HS_CHECK_INT(stab, 0xFF);   /* the empty board: every symmetry */
    HS_CHECK_INT(es, 0);
    s_stones(&o, 19, "jj", "");
    hs_board_canonical_key(&o, NULL, &stab);
    HS_CHECK_INT(stab, 0xFF);   /* tengen alone */
    s_stones(&o, 19, "dd", "");
    hs_board_canonical_key(&o, NULL, &stab);
    HS_CHECK_INT(stab, 0x11);   /* a 4-4 point: identity and the diagonal swap */
}

/* ---- the store ---- */

static char s_dir[256];

/* A game of size n from "ee cc gc ..." (B first, alternating), each vertex
 * under symmetry sym; result text re. */
static void s_game(hs_game_t *g, int n, const char *moves, int sym, const char *re)
{
    hs_game_init(g, n);
    g->moves = calloc(strlen(moves) / 2 + 1, sizeof *g->moves);
    for (const char *p = moves; p[0] && p[1]; p += 2) {
        while (*p == ' ')
            p++;
        int x, y;
        hs_sym_apply(n, sym, p[0] - 'a', p[1] - 'a', &x, &y);
        g->moves[g->num_moves].vertex = (uint16_t)(y * n + x);
        g->moves[g->num_moves].color = g->num_moves % 2 ? HS_WHITE : HS_BLACK;
        g->num_moves++;
    }
    g->komi = 7;
    g->result_raw = strdup(re);
    hs_result_parse(re, &g->result);
    hs_game_compute_id(g);
}

typedef struct { int n; uint64_t id[8][2]; int move[8], sym[8]; } s_found_t;

static int s_found(void *ctx, const uint64_t id[2], int move, int sym)
{
    s_found_t *f = ctx;
    if (f->n < 8) {
        f->id[f->n][0] = id[0];
        f->id[f->n][1] = id[1];
        f->move[f->n] = move;
        f->sym[f->n] = sym;
    }
    f->n++;
    return 0;
}

/* Stones of game g after m moves (the index's replay: the board alone). */
static void s_board_at(const hs_game_t *g, int m, hs_board_t *b)
{
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_game_replay(g, m, b, &err), 0);
}

static void s_put_eval(hs_store_t *s, const hs_game_t *g, int m, const char *engine,
                       float lead, float wr)
{
    hs_eval_t e;
    memset(&e, 0, sizeof e);
    e.move_number = m;
    e.size = g->size;
    for (int i = 0; i < 16; i++)
        e.pos_key[i] = (uint8_t)(g->id[0] >> (i % 8 * 8)) ^ (uint8_t)(m * 7 + i);
    e.engine_id = hs_engine_config_id(engine);
    e.score_lead = lead;
    e.win_rate = wr;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_result_put(s, g->id, &e, engine, NULL, &err), 0);
}

/* Positions of g that the index does not hold under their canonical key. */
static int s_missing(hs_store_t *s, const hs_game_t *g)
{
    int missing = 0;
    hs_error_t err = { 0 };
    for (int m = 0; m <= g->num_moves; m++) {
        hs_board_t b;
        s_board_at(g, m, &b);
        int sym;
        s_found_t f = { 0 };
        HS_CHECK_INT(hs_store_boards_find(s, hs_board_canonical_key(&b, &sym, NULL), s_found,
                                          &f, &err), 0);
        bool seen = false;
        for (int i = 0; i < f.n && i < 8; i++)
            seen |= f.id[i][0] == g->id[0] && f.id[i][1] == g->id[1] && f.move[i] == m &&
                    f.sym[i] == sym;
        missing += !seen;
    }
    return missing;
}

static const char *const s_moves = "eecc gcgg cgce dd";   /* 7 moves, lopsided */

static void test_store(void)
{
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, s_dir, HS_STORE_NOSYNC, 0, &err), 0);
    HS_CHECK(hs_store_boards_complete(s));   /* a new store */
    hs_game_t a, r, bad, cap;
    s_game(&a, 9, s_moves, 0, "B+R");
    s_game(&r, 9, s_moves, 6, "W+3.5");   /* rotated: the same game, another id */
    /* An illegal move (onto a stone) ends that game's entries: moves 0 and 1. */
    s_game(&bad, 9, "eeeecc", 0, "?");
    /* B takes W's corner stone at move 3, then fills the point. */
    s_game(&cap, 9, "baaaabeeaa", 0, "B+R");
    HS_CHECK(memcmp(a.id, r.id, sizeof a.id) != 0);
    bool existed = true;
    HS_CHECK_INT(hs_store_game_put(s, &a, "a.sgf", 0, &existed, &err), 0);
    HS_CHECK(!existed);
    HS_CHECK_INT(hs_store_game_put(s, &r, "r.sgf", 0, NULL, &err), 0);
    HS_CHECK_INT(hs_store_game_put(s, &bad, "bad.sgf", 0, NULL, &err), 0);
    HS_CHECK_INT(hs_store_game_put(s, &cap, "cap.sgf", 0, NULL, &err), 0);
    HS_CHECK_INT(hs_store_game_put(s, &a, "a-again.sgf", 0, &existed, &err), 0);
    HS_CHECK(existed);
    /* Evals after move 4 of each: judge for both, mcts for the rotated one. */
    s_put_eval(s, &a, 4, "judge", 2.0f, NAN);
    s_put_eval(s, &r, 4, "judge", 4.0f, NAN);
    s_put_eval(s, &r, 4, "mcts:visits=10", -1.5f, 0.25f);
    /* Every position of a and cap is found, at its own move, with its symmetry
     * (cap's captures make the writer redo its hashes from the board). */
    HS_CHECK_INT(s_missing(s, &a), 0);
    HS_CHECK_INT(s_missing(s, &cap), 0);
    /* The rotated game's board after 3 moves: both games, its own move next. */
    hs_board_t asked;
    s_board_at(&r, 3, &asked);
    hs_board_answer_t ans;
    HS_CHECK_INT(hs_query_board(s, &asked, &ans, &err), 0);
    HS_CHECK_INT(ans.num_hits, 2);
    HS_CHECK_INT(ans.num_next, 1);
    int nx, ny;
    hs_sym_apply(9, 6, 'g' - 'a', 'g' - 'a', &nx, &ny);   /* "gg" as r played it */
    if (ans.num_next == 1) {
        HS_CHECK_INT(ans.next[0].x, nx);
        HS_CHECK_INT(ans.next[0].y, ny);
        HS_CHECK_INT(ans.next[0].color, HS_WHITE);
        HS_CHECK_INT(ans.next[0].count, 2);
        HS_CHECK_INT(ans.next[0].decided, 2);
        HS_CHECK_INT(ans.next[0].wins, 1);    /* White won r, lost a */
        HS_CHECK_STR(ans.next[0].eval_engine, "mcts");   /* mcts before judge */
        HS_CHECK(fabsf(ans.next[0].eval_lead + 1.5f) < 1e-4f);
        HS_CHECK(fabsf(ans.next[0].eval_win_rate - 0.25f) < 1e-4f);
    }
    /* Each hit's symmetry carries its game's board onto the asked one. */
    for (int i = 0; i < ans.num_hits; i++) {
        const hs_game_t *g = ans.hits[i].game_id[0] == a.id[0] ? &a : &r;
        hs_board_t gb, t;
        s_board_at(g, ans.hits[i].move_number, &gb);
        s_transform(&t, &gb, ans.hits[i].sym);
        HS_CHECK(s_same_stones(&t, &asked));
    }
    hs_board_answer_fini(&ans);
    /* Move 0, the empty board: tengen three times (a, r, bad), and cap's B2
     * shown as the image of it under the board's 8 symmetries that comes first
     * in row-major order: (1, 0). */
    hs_board_init(&asked, 9);
    HS_CHECK_INT(hs_query_board(s, &asked, &ans, &err), 0);
    HS_CHECK_INT(ans.num_hits, 4);
    HS_CHECK_INT(ans.num_next, 2);
    if (ans.num_next == 2) {
        HS_CHECK(ans.next[0].x == 4 && ans.next[0].y == 4 && ans.next[0].count == 3);
        HS_CHECK(ans.next[1].x == 1 && ans.next[1].y == 0 && ans.next[1].count == 1);
    }
    hs_board_answer_fini(&ans);
    /* Inside a batch the index holds the batch's own new game (its entries wait
     * for the commit, and a read puts them first); an aborted batch leaves none. */
    hs_game_t lone;
    s_game(&lone, 9, "aiia", 0, "?");
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    HS_CHECK_INT(hs_store_game_put(s, &lone, "lone.sgf", 0, NULL, &err), 0);
    HS_CHECK_INT(s_missing(s, &lone), 0);
    hs_store_abort(s);
    hs_board_t lb;
    s_board_at(&lone, 2, &lb);
    s_found_t lf = { 0 };
    HS_CHECK_INT(hs_store_boards_find(s, hs_board_canonical_key(&lb, NULL, NULL), s_found, &lf,
                                      &err), 0);
    HS_CHECK_INT(lf.n, 0);
    hs_game_fini(&lone);
    /* bad: after "ee" once, then the illegal "ee": two entries in all. */
    hs_store_check_report_t rep;
    HS_CHECK_INT(hs_store_check(s, &rep, NULL, NULL, &err), 0);
    HS_CHECK_INT(rep.problems, 0);
    HS_CHECK_INT(rep.boards, 8 + 8 + 2 + 6);
    hs_store_close(&s);
    hs_game_fini(&cap);
    hs_game_fini(&a);
    hs_game_fini(&r);
    hs_game_fini(&bad);
}

/* Drops dir's board index and its "complete" mark: a store as written before
 * the index. 0 or an LMDB code. */
static int s_drop_index(const char *dir)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi, meta;
    int rc = mdb_env_create(&env);
    if (rc)
        return rc;
    mdb_env_set_maxdbs(env, 32);
    mdb_env_set_mapsize(env, (size_t)1 << 30);
    if ((rc = mdb_env_open(env, dir, 0, 0664)) == 0 &&
        (rc = mdb_txn_begin(env, NULL, 0, &txn)) == 0) {
        MDB_val k = { 6, "boards" };
        if ((rc = mdb_dbi_open(txn, "boards", 0, &dbi)) == 0)
            rc = mdb_drop(txn, dbi, 1);
        if (rc == 0 && (rc = mdb_dbi_open(txn, "meta", 0, &meta)) == 0) {
            rc = mdb_del(txn, meta, &k, NULL);
            rc = rc == MDB_NOTFOUND ? 0 : rc;
        }
        rc = rc ? (mdb_txn_abort(txn), rc) : mdb_txn_commit(txn);
    }
    mdb_env_close(env);
    return rc;
}

/* hs_store_check_progress's calls: how many, and the boards table's last. */
typedef struct { int calls; int64_t boards_done, boards_total; } s_walked_t;

static void s_walked(void *ctx, const char *table, int64_t done, int64_t total)
{
    s_walked_t *w = ctx;
    w->calls++;
    if (!strcmp(table, "boards")) {
        w->boards_done = done;
        w->boards_total = total;
    }
}

static void test_rebuild(void)
{
    HS_CHECK_INT(s_drop_index(s_dir), 0);
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    /* A reader of the old store: no index, the query says what to run. */
    HS_CHECK_INT(hs_store_open(&s, s_dir, HS_STORE_RDONLY, 0, &err), 0);
    HS_CHECK(!hs_store_boards_complete(s));
    hs_board_t b;
    hs_board_init(&b, 9);
    hs_board_answer_t ans;
    HS_CHECK_INT(hs_query_board(s, &b, &ans, &err), HS_EUNSUPPORTED);
    HS_CHECK(strstr(err.msg, "hyeongse index") != NULL);
    s_found_t f = { 0 };
    HS_CHECK_INT(hs_store_boards_find(s, hs_board_canonical_key(&b, NULL, NULL), s_found, &f,
                                      &err), 0);
    HS_CHECK_INT(f.n, 0);
    uint64_t bytes = 1;
    HS_CHECK_INT(hs_store_boards_bytes(s, &bytes, &err), 0);
    HS_CHECK_INT(bytes, 0);
    hs_store_close(&s);
    /* A writer: still incomplete (it has games) until the rebuild. */
    HS_CHECK_INT(hs_store_open(&s, s_dir, HS_STORE_NOSYNC, 0, &err), 0);
    HS_CHECK(!hs_store_boards_complete(s));
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    HS_CHECK_INT(hs_store_boards_rebuild(s, NULL, NULL, NULL, &err), HS_EBADSTATE);
    hs_store_abort(s);
    int64_t added = -1;
    HS_CHECK_INT(hs_store_boards_rebuild(s, NULL, NULL, &added, &err), 0);
    HS_CHECK_INT(added, 8 + 8 + 2 + 6);
    HS_CHECK(hs_store_boards_complete(s));
    HS_CHECK_INT(hs_store_boards_rebuild(s, NULL, NULL, &added, &err), 0);
    HS_CHECK_INT(added, 0);   /* idempotent */
    HS_CHECK_INT(hs_query_board(s, &b, &ans, &err), 0);
    HS_CHECK_INT(ans.num_hits, 4);
    hs_board_answer_fini(&ans);
    HS_CHECK_INT(hs_store_boards_bytes(s, &bytes, &err), 0);
    HS_CHECK(bytes > 0);
    hs_store_check_report_t rep;
    s_walked_t w = { 0 };
    HS_CHECK_INT(hs_store_check_progress(s, &rep, NULL, NULL, s_walked, &w, &err), 0);
    HS_CHECK_INT(rep.problems, 0);
    HS_CHECK_INT(rep.boards, 24);
    /* The progress of check: each table's last call has all of its entries. */
    HS_CHECK_INT(w.boards_done, 24);
    HS_CHECK_INT(w.boards_total, 24);
    HS_CHECK(w.calls >= 12);   /* a call at the end of each table at least */
    hs_store_close(&s);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "drop")) {
        int rc = s_drop_index(argv[2]);
        if (rc)
            fprintf(stderr, "drop %s: %s\n", argv[2], mdb_strerror(rc));
        return rc ? 1 : 0;
    }
    test_laws();
    test_keys();
    snprintf(s_dir, sizeof s_dir, "/tmp/hs-test-boards-XXXXXX");
    if (!mkdtemp(s_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_store();
    test_rebuild();
    hs_test_rm_store(s_dir);
    return hs_test_finish();
}
