/*
 * tests/test_bench_ownership.c — bench/bench_ownership on a labels folder
 * written here with the shard writer, small enough to check by hand.
 *
 * 9x9, the same board in every sample: a black wall on column C (x = 2), a
 * white wall on column G (x = 6). The judge calls A-B Black's territory (18
 * points), H-J White's (18), D-F dame (the region touches both walls).
 * Park's territory is the same (18 points <= a quarter of the board), and D-F
 * has no influence area (column D's and F's influence points form one-wide
 * lumps: no 2x2 core; column E's influence is 0 by symmetry).
 * The labels (the side to move's view) say: A-B Black's, H-J White's, and
 * also D Black's and F White's, E neutral. So 36 of the 54 labelled points
 * agree with both methods (D and F are predicted 0: misses): 66.7%.
 *   game 0 (val):   move 50, Black to move  -> column "50"
 *                   move 55                 -> no column
 *   game 1 (val):   move 51, White to move, the final position (policy -1)
 *                   -> column "final" (the labels flip with the side to move)
 *   game 2 (train): move 100 in the train shard -> never read
 * --max-games 1 keeps game 0 only. With ../shared's b6c96 the net runs too:
 * a wrong flip of its (White's view) ownership would put it near 0%.
 */
#include <sys/stat.h>

#include "core/json_read.h"
#include "test.h"
#include "worker/shard.h"

#define N 9

static void s_board(hs_shard_sample_t *s, int move, hs_color_t to_move, int game, int policy)
{
    memset(s, 0, sizeof *s);
    s->game = (uint32_t)game;
    s->move = (uint16_t)move;
    s->to_move = (uint8_t)to_move;
    s->policy = (int16_t)policy;
    s->value = 1;
    int black = to_move == HS_BLACK ? 0 : 8, white = 8 - black;
    for (int y = 0; y < N; y++) {
        for (int k = 0; k < 8 && k <= move; k++) {   /* no move in the last 7: passes */
            s->planes[black + k][y * N + 2] = 1;
            s->planes[white + k][y * N + 6] = 1;
        }
        int sign = to_move == HS_BLACK ? 1 : -1;
        for (int x = 0; x < N; x++) {
            int lab = x <= 3 && x != 2 ? 1 : x >= 5 && x != 6 ? -1 : 0;
            s->owner[y * N + x] = (int8_t)(sign * lab);
        }
    }
    s->planes[to_move == HS_BLACK ? 16 : 17][0] = 1;
}

static int s_write(const char *dir)
{
    char path[4096];
    hs_shard_sample_t *s = malloc(sizeof *s);
    hs_shard_writer_t *w = NULL;
    int rc = 0;
    snprintf(path, sizeof path, "%s/val-9x9-0000.hss", dir);
    rc |= hs_shard_writer_open(path, N, &w, NULL);
    s_board(s, 50, HS_BLACK, 0, 40);
    rc |= hs_shard_write(w, s, NULL);
    s_board(s, 55, HS_WHITE, 0, 40);
    rc |= hs_shard_write(w, s, NULL);
    s_board(s, 51, HS_WHITE, 1, -1);
    rc |= hs_shard_write(w, s, NULL);
    rc |= hs_shard_writer_close(&w, NULL);
    snprintf(path, sizeof path, "%s/train-9x9-0000.hss", dir);
    rc |= hs_shard_writer_open(path, N, &w, NULL);
    s_board(s, 100, HS_BLACK, 2, 40);
    rc |= hs_shard_write(w, s, NULL);
    rc |= hs_shard_writer_close(&w, NULL);
    free(s);
    snprintf(path, sizeof path, "%s/index.json", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\"format\":\"hyeongse-labels\",\"version\":1,\"input_set\":1,\"planes\":22,"
               "\"every\":5,\"visits\":0,\"net\":null,\"shards\":["
               "{\"file\":\"train-9x9-0000.hss\",\"split\":\"train\",\"size\":9,\"samples\":1},"
               "{\"file\":\"val-9x9-0000.hss\",\"split\":\"val\",\"size\":9,\"samples\":3}],"
               "\"games\":[");
    const char *split[3] = {"val", "val", "train"};
    for (int g = 0; g < 3; g++)
        fprintf(f, "%s{\"id\":%d,\"source\":\"t.sgf\",\"index\":%d,\"size\":9,\"split\":\"%s\","
                   "\"moves\":60,\"rules\":\"japanese\",\"komi\":6.5,\"result\":\"B+2.5\","
                   "\"status\":\"ok\",\"reason\":\"\",\"labelled\":\"B+2.5\",\"yose_moves\":3,"
                   "\"samples\":2}", g ? "," : "", g, g, split[g]);
    fprintf(f, "],\"summary\":{\"games\":3}}\n");
    return fclose(f) || rc ? -1 : 0;
}

/* Runs the bench with args; its --json output parsed into *doc. */
static int s_run(const char *args, hs_json_doc_t **doc)
{
    const char *bin = getenv("HS_BIN");
    char cmd[8192], buf[65536];
    snprintf(cmd, sizeof cmd, "\"$(dirname '%s')/../bench/bench_ownership\" --json %s",
             bin ? bin : "build-release/cli/hyeongse", args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t len = fread(buf, 1, sizeof buf - 1, p);
    int st = pclose(p);
    buf[len] = 0;
    if (st != 0) {
        fprintf(stderr, "%s: exit %d\n", cmd, st);
        return -1;
    }
    return hs_json_parse(buf, len, NULL, doc, NULL);
}

static double s_num(const hs_json_t *arr, int i)
{
    double v = -1;
    hs_json_double(hs_json_at(arr, i), -1e18, 1e18, &v);
    return v;
}

/* The method named name: agreement per column (-1 for null). */
static const hs_json_t *s_method(const hs_json_t *root, const char *name)
{
    for (const hs_json_t *m = hs_json_get(root, "methods")->child; m; m = m->next) {
        const char *s = NULL;
        if (hs_json_str(hs_json_get(m, "name"), &s) && !strcmp(s, name))
            return m;
    }
    return NULL;
}

static void test_figures(const char *dir)
{
    char args[8192];
    hs_json_doc_t *doc = NULL;
    snprintf(args, sizeof args, "--labels '%s'", dir);
    HS_CHECK_INT(s_run(args, &doc), 0);
    if (!doc) return;
    const hs_json_t *root = hs_json_root(doc), *samples = hs_json_get(root, "samples");
    const double want_samples[5] = {1, 0, 0, 0, 1};
    for (int k = 0; k < 5; k++)
        HS_CHECK(s_num(samples, k) == want_samples[k]);
    const char *names[2] = {"judge", "influence"};
    for (int i = 0; i < 2; i++) {
        const hs_json_t *m = s_method(root, names[i]);
        HS_CHECK(m != NULL);
        if (!m) continue;
        const hs_json_t *pts = hs_json_get(m, "points"), *ag = hs_json_get(m, "agreed");
        HS_CHECK(s_num(pts, 0) == 54 && s_num(pts, 4) == 54 && s_num(pts, 2) == 0);
        HS_CHECK(s_num(ag, 0) == 36 && s_num(ag, 4) == 36);
        HS_CHECK(hs_json_at(hs_json_get(m, "agreement"), 1)->type == HS_JSON_NULL);
    }
    hs_json_free(&doc);
    /* --max-games 1: game 0 only; --no-influence leaves the judge alone */
    snprintf(args, sizeof args, "--labels '%s' --max-games 1 --no-influence", dir);
    HS_CHECK_INT(s_run(args, &doc), 0);
    if (!doc) return;
    root = hs_json_root(doc);
    HS_CHECK(s_num(hs_json_get(root, "samples"), 4) == 0);
    HS_CHECK_INT(hs_json_get(root, "methods")->count, 1);
    HS_CHECK(s_method(root, "influence") == NULL);
    hs_json_free(&doc);
}

static void test_net(const char *dir)
{
    const char *data = getenv("HS_DATA_DIR");
    char net[4096], args[8192];
    snprintf(net, sizeof net, "%s/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz",
             data ? data : "../shared/data");
    struct stat st;
    if (stat(net, &st)) {
        printf("skip the net: no %s\n", net);
        return;
    }
    snprintf(args, sizeof args, "--labels '%s' --backend ref --no-judge --no-influence --net 'b6c96=%s'",
             dir, net);
    hs_json_doc_t *doc = NULL;
    HS_CHECK_INT(s_run(args, &doc), 0);
    if (!doc) return;
    const hs_json_t *m = s_method(hs_json_root(doc), "b6c96");
    HS_CHECK(m != NULL);
    if (m) {
        double a0 = s_num(hs_json_get(m, "agreement"), 0), a4 = s_num(hs_json_get(m, "agreement"), 4);
        printf("b6c96: %.3f at move 50 (Black to move), %.3f final (White to move)\n", a0, a4);
        HS_CHECK(a0 >= 36.0 / 54 && a4 >= 36.0 / 54);
    }
    hs_json_free(&doc);
}

int main(void)
{
    /* HS_BENCH_OWN_KEEP=DIR: the folder is written there and kept (a labels
     * folder for trying bench/own_model.sh before real labels exist) */
    const char *keep = getenv("HS_BENCH_OWN_KEEP");
    char dir[4096] = "/tmp/hs-bench-own-XXXXXX";
    if (keep)
        snprintf(dir, sizeof dir, "%s", keep);
    if (keep ? mkdir(dir, 0777) && access(dir, W_OK) : !mkdtemp(dir))
        return 1;
    HS_CHECK_INT(s_write(dir), 0);
    test_figures(dir);
    test_net(dir);
    /* a folder without index.json is an error, said */
    char args[8192];
    hs_json_doc_t *doc = NULL;
    snprintf(args, sizeof args, "--labels '%s/none' 2>/dev/null", dir);
    HS_CHECK(s_run(args, &doc) != 0);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!keep)
        HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
