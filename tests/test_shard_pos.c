/*
 * tests/test_shard_pos.c — worker/shard_pos.h: a position rebuilt from a
 * sample's planes gives the net exactly the KataGo features of the original
 * position (hs_nn_game_pos_at + hs_nn_features), at every move of a game with
 * captures, a ko taken and retaken and passes, and of a real record where
 * ../shared/data is present; and our own input set's planes of the rebuilt
 * position are the sample's. The samples' planes come from hs_nn_features_hs
 * as `hyeongse label` writes them; a writer here, from features.h's words
 * alone, checks those planes first.
 */
#include <dirent.h>

#include "core/buf.h"
#include "core/game.h"
#include "core/sgf.h"
#include "test.h"
#include "worker/shard_pos.h"

/* Board k moves ago as features.h's HS_V1 planes define it: prev1 and prev2
 * exact, older ones the newer board less the stone of the move between. */
static void s_hist_board(const hs_nn_game_pos_t *gp, int k, hs_board_t *b)
{
    const hs_nn_pos_t *p = &gp->nn;
    const hs_board_t *exact[3] = {p->board, p->prev1, p->prev2};
    int start = k < 3 ? k : 2;
    hs_board_copy(b, exact[start]);
    for (int j = start; j < k; j++) {      /* take off the move from j+1 to j moves ago */
        hs_point_t m = p->hist_move[p->n_hist - 1 - j];
        if (m != HS_PASS)
            hs_board_set_stone(b, m, HS_EMPTY);
    }
}

/* Planes 0-15 as features.h describes them, into s. */
static void s_own_planes(const hs_nn_game_pos_t *gp, int move, hs_shard_sample_t *s)
{
    memset(s->planes, 0, sizeof s->planes);
    int n = gp->board.size;
    hs_board_t b;
    for (int k = 0; k < HS_NN_HISTORY && k <= move; k++) {
        s_hist_board(gp, k, &b);
        for (int i = 0; i < n * n; i++) {
            int c = b.color[hs_board_point(&b, i % n, i / n)];
            if (c == (int)gp->nn.to_move) s->planes[k][i] = 1;
            else if (c != HS_EMPTY) s->planes[8 + k][i] = 1;
        }
    }
}

/* The history planes (9 + k) and pass globals (k) that may differ: KataGo's
 * moves k >= 2 back whose stone is no longer on the board (captured). */
static long s_lost(const hs_nn_game_pos_t *a)
{
    long lost = 0;
    const hs_nn_pos_t *p = &a->nn;
    for (int k = 2; k < HS_NN_KATAGO_HISTORY && k < p->n_hist; k++) {
        int i = p->n_hist - 1 - k;
        hs_point_t m = p->hist_move[i];
        if (m != HS_PASS && a->board.color[m] != p->hist_color[i])
            lost |= (1L << (9 + k)) | (1L << (HS_NN_SPATIAL + k));
    }
    return lost;
}

typedef struct feats { float sp[HS_NN_SPATIAL * HS_SHARD_MAX_AREA], g[HS_NN_GLOBAL]; } feats_t;

/* The sample `hyeongse label` writes for the position (planes, to_move, move);
 * 0, or 1 when the planes differ from s_own_planes'. */
static int s_sample(const hs_nn_game_pos_t *gp, int move, hs_shard_sample_t *s, feats_t *f)
{
    int n = gp->board.size, bad = 0;
    s_own_planes(gp, move, s);
    uint8_t own[16][HS_SHARD_MAX_AREA];
    memcpy(own, s->planes, sizeof own);
    memset(s, 0, sizeof *s);
    s->move = (uint16_t)move;
    s->to_move = (uint8_t)gp->nn.to_move;
    s->policy = -1;
    if (hs_nn_features_hs(&gp->nn, f->sp, f->g, NULL))
        return 1;
    hs_shard_set_planes(s, f->sp, n);
    for (int k = 0; k < 16; k++)
        bad |= memcmp(own[k], s->planes[k], (size_t)(n * n)) != 0;
    return bad;
}

/* Our own input set's planes of the rebuilt position == the sample's. */
static int s_same_hs(const hs_nn_game_pos_t *b, const hs_shard_sample_t *s, feats_t *f)
{
    hs_shard_sample_t *t = malloc(sizeof *t);
    int n = b->board.size, same = t && hs_nn_features_hs(&b->nn, f->sp, f->g, NULL) == 0;
    if (same) {
        hs_shard_set_planes(t, f->sp, n);
        for (int k = 0; k < HS_NN_SPATIAL; k++)
            same &= memcmp(t->planes[k], s->planes[k], (size_t)(n * n)) == 0;
    }
    free(t);
    return same;
}

/* Compares the KataGo features of g's position after `move` with those of
 * the rebuilt one; returns what differs beyond s_lost (bit per plane, then
 * per global value), or negative: -1 an error, -2 the sample's planes are not
 * s_own_planes', -3 the rebuilt position's own planes are not the sample's. */
static long s_compare(const hs_game_t *g, int move, hs_nn_game_pos_t *a, hs_nn_game_pos_t *b,
                      hs_shard_sample_t *s, feats_t *fa, feats_t *fb)
{
    hs_error_t err = {0};
    if (hs_nn_game_pos_at(g, move, g->rules.id, g->komi, 0, a, &err)) return -1;
    if (s_sample(a, move, s, fa)) return -2;        /* features_hs is not features.h's words */
    if (hs_shard_sample_pos(s, g->size, g->rules.id, g->komi, 0, b, &err)) return -1;
    if (!s_same_hs(b, s, fa)) return -3;            /* our own planes not rebuilt */
    if (hs_nn_features(&a->nn, fa->sp, fa->g, &err) || hs_nn_features(&b->nn, fb->sp, fb->g, &err))
        return -1;
    int area = g->size * g->size;
    long diff = 0;
    for (int pl = 0; pl < HS_NN_SPATIAL; pl++)
        if (memcmp(fa->sp + pl * area, fb->sp + pl * area, sizeof(float) * (size_t)area))
            diff |= 1L << pl;
    for (int k = 0; k < HS_NN_GLOBAL; k++)
        if (fa->g[k] != fb->g[k])
            diff |= 1L << (HS_NN_SPATIAL + k);
    return diff & ~s_lost(a);
}

/* Every position of the record in sgf; returns how many matched. */
static int s_game(const char *sgf, size_t len, int *positions)
{
    hs_error_t err = {0};
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, len, NULL, &err);
    hs_game_t g;
    hs_game_init(&g, 19);
    int ok = 0;
    *positions = 0;
    if (c && hs_game_from_sgf(hs_sgf_root(c, 0), &g, &err) == 0 && g.size <= HS_NN_MAX_SIZE) {
        hs_nn_game_pos_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
        hs_shard_sample_t *s = malloc(sizeof *s);
        feats_t *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
        for (int m = 0; a && b && s && fa && fb && m <= g.num_moves; m++) {
            long d = s_compare(&g, m, a, b, s, fa, fb);
            if (d)
                fprintf(stderr, "move %d: %s: %#lx\n", m, d < 0 ? "failed" : "planes differ", d);
            ok += d == 0;
            (*positions)++;
        }
        free(a); free(b); free(s); free(fa); free(fb);
    }
    hs_game_fini(&g);
    hs_sgf_destroy(&c);
    return ok;
}

/* A ko taken (move 9) and retaken (14), two passes at the end. W C3 (move 8)
 * is captured at once, so the positions that still see it in KataGo's five
 * moves of history from three or more moves back (10-12) lose its history
 * plane: the older planes do not keep captured stones (features.h). */
static void test_ko_game(void)
{
    static const char sgf[] = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[bc];W[db];B[cb];W[ec];"
        "B[cd];W[dd];B[gg];W[cc];B[dc];W[gc];B[gf];W[ha];B[fg];W[cc];B[];W[])";
    int n = 0;
    HS_CHECK_INT(s_game(sgf, sizeof sgf - 1, &n), 17);
    HS_CHECK_INT(n, 17);
    /* the ko point itself: after B D3 takes, White may not retake at C3 */
    hs_game_t g;
    hs_game_init(&g, 19);
    hs_sgf_collection_t *c = hs_sgf_parse(sgf, sizeof sgf - 1, NULL, NULL);
    HS_CHECK(c && hs_game_from_sgf(hs_sgf_root(c, 0), &g, NULL) == 0);
    hs_nn_game_pos_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    hs_shard_sample_t *s = malloc(sizeof *s);
    feats_t *f = malloc(sizeof *f);
    HS_CHECK_INT(hs_nn_game_pos_at(&g, 9, g.rules.id, g.komi, 0, a, NULL), 0);
    HS_CHECK_INT(s_sample(a, 9, s, f), 0);
    HS_CHECK_INT(hs_shard_sample_pos(s, 9, g.rules.id, g.komi, 0, b, NULL), 0);
    HS_CHECK_INT(b->board.ko, hs_board_point(&b->board, 2, 2));
    HS_CHECK_INT(b->nn.n_hist, 7);
    HS_CHECK_INT(b->nn.hist_move[6], hs_board_point(&b->board, 3, 2));
    HS_CHECK_INT(b->nn.hist_color[6], HS_BLACK);
    HS_CHECK_INT(b->nn.stones_black - b->nn.stones_white, 1);
    /* after move 11, W C3 (move 8, captured at once) is unknown, not a pass */
    HS_CHECK_INT(hs_nn_game_pos_at(&g, 11, g.rules.id, g.komi, 0, a, NULL), 0);
    HS_CHECK_INT(s_sample(a, 11, s, f), 0);
    HS_CHECK_INT(hs_shard_sample_pos(s, 9, g.rules.id, g.komi, 0, b, NULL), 0);
    HS_CHECK_INT(b->nn.hist_move[b->nn.n_hist - 4], HS_NO_POINT);
    HS_CHECK_INT(b->nn.hist_move[b->nn.n_hist - 3], hs_board_point(&b->board, 3, 2));
    HS_CHECK(s_lost(a) != 0);
    /* a point that holds both colours is refused */
    s->planes[8][0] = s->planes[0][0] = 1;
    HS_CHECK_INT(hs_shard_sample_pos(s, 9, g.rules.id, g.komi, 0, b, NULL), HS_EINVAL);
    free(a); free(b); free(s); free(f);
    hs_game_fini(&g);
    hs_sgf_destroy(&c);
}

/* A real record (the first of ../shared/data/pro19-sample), every move. */
static int test_real_game(void)
{
    const char *data = getenv("HS_DATA_DIR");
    char dir[4096], path[8192];
    snprintf(dir, sizeof dir, "%s/pro19-sample", data ? data : "../shared/data");
    DIR *d = opendir(dir);
    if (!d) {
        printf("skip: no %s\n", dir);
        return 0;
    }
    struct dirent *e;
    char best[256] = "";
    while ((e = readdir(d)))             /* the first by name: the same file every run */
        if (strstr(e->d_name, ".sgf") && (!best[0] || strcmp(e->d_name, best) < 0))
            snprintf(best, sizeof best, "%s", e->d_name);
    closedir(d);
    snprintf(path, sizeof path, "%s/%s", dir, best);
    char *text = NULL;
    size_t len = 0;
    if (!best[0] || hs_buf_read_file(path, 0, &text, &len, NULL))
        return 0;
    int n = 0;
    int ok = s_game(text, len, &n);
    printf("%s: %d of %d positions rebuilt exactly\n", best, ok, n);
    HS_CHECK(n > 100);
    HS_CHECK_INT(ok, n);
    free(text);
    return 1;
}

int main(void)
{
    test_ko_game();
    test_real_game();
    return hs_test_finish();
}
