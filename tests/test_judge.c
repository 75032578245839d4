/*
 * tests/test_judge.c — worker/judge.h on finished positions.
 *
 * Diagrams in tests/data/judge/ (one position per .t file) give the expected
 * class of every point and the scores. Format: "komi K", "captures B W" (stones
 * captured by Black, by White), "handicap H", "board" then N rows (X, O, .),
 * "classes" then N rows of class letters (hs_judge_class_letters: . b w X O x o s),
 * "score_territory V", "score_area V", "result_territory RE", "result_area RE".
 * Spaces inside rows are ignored; '#' starts a comment.
 *
 * Every diagram runs four ways: the defaults (static rules) and
 * hs_judge_config_final (Monte-Carlo decision), each with and without a
 * stability map.
 * Also: result strings, ownership/weight consistency, seeded playouts, the
 * default config's open-board cap (a lone stone owns no territory),
 * and `hyeongse judge --json` on tests/data/judge/dead_stones.sgf (the
 * dead_stones.t position as setup stones) when HS_BIN is set. Accuracy on real
 * finished games is bench/judge_final.sh's job (it needs the whole archive).
 */
#include <dirent.h>
#include <math.h>

#include "core/board.h"
#include "test.h"
#include "worker/engine.h"
#include "worker/judge.h"
#include "worker/stability.h"

static void s_read_rows(FILE *f, char rows[][HS_BOARD_MAX_SIZE + 1], int *n, int *lineno)
{
    char line[512];
    *n = 0;
    while (fgets(line, sizeof line, f)) {
        (*lineno)++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        int k = 0;
        char compact[HS_BOARD_MAX_SIZE + 1];
        for (char *s = line; *s; s++) {
            if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') continue;
            if (k < HS_BOARD_MAX_SIZE) compact[k++] = *s;
        }
        compact[k] = 0;
        if (!k) continue;
        memcpy(rows[(*n)++], compact, (size_t)k + 1);
        if (*n == (int)strlen(rows[0]) || *n == HS_BOARD_MAX_SIZE) return;
    }
}

static void s_check_consistency(const hs_board_t *b, const hs_judge_t *j, const char *path)
{
    int bad = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            int c = j->cls[p];
            int col = b->color[p];
            bool stone = col == HS_BLACK || col == HS_WHITE;
            bool stone_cls = c == HS_JC_BLACK_ALIVE || c == HS_JC_WHITE_ALIVE || c == HS_JC_BLACK_DEAD || c == HS_JC_WHITE_DEAD;
            if (stone != stone_cls) bad++;
            if (c == HS_JC_BLACK_ALIVE && (col != HS_BLACK || j->ownership[p] != 1.0f || j->weight[p] != 1.0f)) bad++;
            if (c == HS_JC_WHITE_DEAD && (col != HS_WHITE || j->weight[p] != 0.0f || j->ownership[p] < 0)) bad++;
            if (c == HS_JC_BLACK_TERRITORY && j->ownership[p] != 1.0f) bad++;
            if (c == HS_JC_WHITE_TERRITORY && j->ownership[p] != -1.0f) bad++;
            if ((c == HS_JC_DAME || c == HS_JC_SEKI) && j->ownership[p] != 0.0f) bad++;
        }
    if (bad) fprintf(stderr, "%s: %d class/ownership inconsistencies\n", path, bad);
    HS_CHECK_INT(bad, 0);
}

static void s_run_file(const char *path, bool use_stability, const hs_judge_config_t *cfg)
{
    FILE *f = fopen(path, "r");
    HS_CHECK(f != NULL);
    if (!f) return;
    char line[512], rows[HS_BOARD_MAX_SIZE][HS_BOARD_MAX_SIZE + 1], buf[16];
    int n = 0, lineno = 0, checks = 0;
    double komi = 0, v;
    int cap_b = 0, cap_w = 0, handicap = 0;
    hs_board_t b;
    static hs_judge_t j;
    static hs_stability_t st;
    bool have_board = false, judged = false;
    hs_rules_t terr = hs_rules_get(HS_RULES_JAPANESE), area = hs_rules_get(HS_RULES_CHINESE);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char word[64] = "", arg[64] = "";
        if (sscanf(line, " %63s %63s", word, arg) < 1) continue;
        if (!strcmp(word, "komi")) { komi = atof(arg); continue; }
        if (!strcmp(word, "handicap")) { handicap = atoi(arg); continue; }
        if (!strcmp(word, "captures")) { sscanf(line, " captures %d %d", &cap_b, &cap_w); continue; }
        if (!strcmp(word, "board")) {
            s_read_rows(f, rows, &n, &lineno);
            hs_board_init(&b, n);
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n && rows[y][x]; x++)
                    if (rows[y][x] == 'X' || rows[y][x] == 'O')
                        hs_board_set_stone(&b, hs_board_point(&b, x, y), rows[y][x] == 'X' ? HS_BLACK : HS_WHITE);
            b.captures[HS_BLACK] = cap_b;
            b.captures[HS_WHITE] = cap_w;
            have_board = true;
            judged = false;
            continue;
        }
        HS_CHECK(have_board);
        if (!have_board) break;
        if (!judged) {
            const hs_stability_t *sp = NULL;
            if (use_stability) {
                HS_CHECK_INT(hs_stability_compute(&b, NULL, NULL, &st, NULL), 0);
                sp = &st;
            }
            HS_CHECK_INT(hs_judge_compute(&b, sp, cfg, &j, NULL), 0);
            s_check_consistency(&b, &j, path);
            judged = true;
        }
        if (!strcmp(word, "classes")) {
            char want[HS_BOARD_MAX_SIZE][HS_BOARD_MAX_SIZE + 1];
            int m;
            s_read_rows(f, want, &m, &lineno);
            HS_CHECK_INT(m, n);
            int bad = 0;
            for (int y = 0; y < n && y < m; y++) {
                char got[HS_BOARD_MAX_SIZE + 1];
                for (int x = 0; x < n; x++) got[x] = hs_judge_class_letters[j.cls[hs_board_point(&b, x, y)]];
                got[n] = 0;
                if (strcmp(got, want[y])) {
                    fprintf(stderr, "%s%s%s: row %d: got %s want %s\n", path,
                            use_stability ? " (stability)" : "", cfg ? " (playouts)" : "", y, got, want[y]);
                    bad++;
                }
            }
            HS_CHECK_INT(bad, 0);
            checks++;
        } else if (!strcmp(word, "score_territory")) {
            v = atof(arg);
            double got = hs_judge_score(&j, &b, &terr, komi, handicap);
            if (fabs(got - v) > 1e-9) fprintf(stderr, "%s: territory score %g, want %g\n", path, got, v);
            HS_CHECK(fabs(got - v) < 1e-9);
            checks++;
        } else if (!strcmp(word, "score_area")) {
            v = atof(arg);
            double got = hs_judge_score(&j, &b, &area, komi, handicap);
            if (fabs(got - v) > 1e-9) fprintf(stderr, "%s: area score %g, want %g\n", path, got, v);
            HS_CHECK(fabs(got - v) < 1e-9);
            checks++;
        } else if (!strcmp(word, "result_territory")) {
            HS_CHECK_STR(hs_judge_result_string(hs_judge_score(&j, &b, &terr, komi, handicap), buf), arg);
            checks++;
        } else if (!strcmp(word, "result_area")) {
            HS_CHECK_STR(hs_judge_result_string(hs_judge_score(&j, &b, &area, komi, handicap), buf), arg);
            checks++;
        } else {
            fprintf(stderr, "%s:%d: unreadable line\n", path, lineno);
            HS_CHECK(0);
        }
    }
    fclose(f);
    HS_CHECK(checks >= 2);
}

static void test_diagrams(bool use_stability, const hs_judge_config_t *cfg)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/judge", hs_test_own_data_dir());
    DIR *d = opendir(dir);
    HS_CHECK(d != NULL);
    if (!d) return;
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".t")) continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        s_run_file(path, use_stability, cfg);
        files++;
    }
    closedir(d);
    HS_CHECK(files >= 5);
}

static void test_result_strings(void)
{
    char buf[16];
    HS_CHECK_STR(hs_judge_result_string(3.5, buf), "B+3.5");
    HS_CHECK_STR(hs_judge_result_string(-0.5, buf), "W+0.5");
    HS_CHECK_STR(hs_judge_result_string(0.0, buf), "0");
    HS_CHECK_STR(hs_judge_result_string(2.0, buf), "B+2");
    HS_CHECK_STR(hs_judge_result_string(-12.25, buf), "W+12.25");
}

static void test_handicap_bonus(void)
{
    hs_rules_t chinese = hs_rules_get(HS_RULES_CHINESE), aga = hs_rules_get(HS_RULES_AGA);
    hs_rules_t japanese = hs_rules_get(HS_RULES_JAPANESE);
    HS_CHECK_INT(hs_judge_handicap_bonus(&chinese, 4), 4 - chinese.handicap_bonus_offset);
    HS_CHECK_INT(hs_judge_handicap_bonus(&aga, 4), 4 - aga.handicap_bonus_offset);
    HS_CHECK_INT(hs_judge_handicap_bonus(&japanese, 4), 0);
    HS_CHECK_INT(hs_judge_handicap_bonus(&chinese, 0), 0);
    /* One free stone (a lone AB, OGS style) is compensated under area rules. */
    HS_CHECK_INT(hs_judge_handicap_bonus(&chinese, 1), 1 - chinese.handicap_bonus_offset);
    HS_CHECK_INT(hs_judge_handicap_bonus(&japanese, 1), 0);
}

/* Monte-Carlo ownership is seeded: the same position judges the same twice,
 * and a different seed still finds the obvious dead stones of dead_stones.t. */
static void test_mc_deterministic(void)
{
    hs_board_t b;
    static hs_judge_t j1, j2;
    hs_board_init(&b, 9);
    for (int y = 0; y < 9; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 3, y), HS_BLACK);
        hs_board_set_stone(&b, hs_board_point(&b, 4, y), HS_WHITE);
    }
    hs_point_t dead_w = hs_board_point(&b, 1, 1), dead_b = hs_board_point(&b, 7, 2);
    hs_board_set_stone(&b, dead_w, HS_WHITE);
    hs_board_set_stone(&b, dead_b, HS_BLACK);
    hs_judge_config_t cfg;
    hs_judge_config_final(&cfg);
    HS_CHECK(cfg.playouts > 0);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j1, NULL), 0);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j2, NULL), 0);
    HS_CHECK(memcmp(j1.cls, j2.cls, sizeof j1.cls) == 0);
    cfg.seed ^= 0x1234567ULL;
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j2, NULL), 0);
    HS_CHECK_INT(j2.cls[dead_w], HS_JC_WHITE_DEAD);
    HS_CHECK_INT(j2.cls[dead_b], HS_JC_BLACK_DEAD);
}

static void test_empty_board(void)
{
    hs_board_t b;
    static hs_judge_t j;
    hs_board_init(&b, 9);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, NULL, &j, NULL), 0);
    HS_CHECK_INT(j.count[HS_JC_DAME], 81);
    HS_CHECK(fabs(hs_judge_score_area(&j, 7.5, 0) + 7.5) < 1e-9);
    /* A lone stone in the opening is not dead: nobody encloses it. */
    hs_board_set_stone(&b, hs_board_point(&b, 4, 4), HS_WHITE);
    hs_board_set_stone(&b, hs_board_point(&b, 2, 2), HS_BLACK);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, NULL, &j, NULL), 0);
    HS_CHECK_INT(j.count[HS_JC_BLACK_DEAD] + j.count[HS_JC_WHITE_DEAD], 0);
}

/* Open board (judge.h step 5): one stone on an empty board owns nothing under
 * the default (per-move) config, where it used to be B+360 on 19x19 / B+80 on
 * 9x9; the final config keeps counting every one-colour region as territory. */
static void test_open_board(void)
{
    static const int sizes[] = {9, 19};
    for (int i = 0; i < 2; i++) {
        int n = sizes[i];
        hs_board_t b;
        static hs_judge_t j;
        hs_board_init(&b, n);
        hs_point_t star = hs_board_point(&b, n - 4, 3);
        hs_board_set_stone(&b, star, HS_BLACK);
        hs_judge_config_t cfg;
        hs_judge_config_default(&cfg);
        HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
        HS_CHECK_INT(j.cls[star], HS_JC_BLACK_ALIVE);
        HS_CHECK_INT(j.count[HS_JC_BLACK_TERRITORY], 0);
        HS_CHECK_INT(j.count[HS_JC_DAME], n * n - 1);
        HS_CHECK_INT(j.ownership[hs_board_point(&b, 0, 0)] != 0.0f, 0);
        HS_CHECK(fabs(hs_judge_score_territory(&j, &b, 6.5) + 6.5) < 1e-9);
        HS_CHECK(fabs(hs_judge_score_area(&j, 6.5, 0) - (1 - 6.5)) < 1e-9);
        hs_judge_config_final(&cfg);
        cfg.playouts = 0;   /* the cap alone: final keeps today's step 5 */
        HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
        HS_CHECK_INT(j.count[HS_JC_BLACK_TERRITORY], n * n - 1);
    }
    /* A small corner shut off by a diagonal wall stays territory under the
     * default config: 9x9, Black at A4 B3 C2 D1 encloses 6 points. */
    hs_board_t b;
    static hs_judge_t j;
    hs_board_init(&b, 9);
    for (int k = 0; k < 4; k++)
        hs_board_set_stone(&b, hs_board_point(&b, k, 5 + k), HS_BLACK);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, NULL, &j, NULL), 0);
    HS_CHECK_INT(j.count[HS_JC_BLACK_TERRITORY], 6);
    HS_CHECK_INT(j.cls[hs_board_point(&b, 0, 8)], HS_JC_BLACK_TERRITORY);
    HS_CHECK_INT(j.cls[hs_board_point(&b, 8, 0)], HS_JC_DAME);
}

/* relaxed_kill (judge.h): dead_stones.t's position, where each wall's eye space
 * holds one opponent stone, so neither wall is strong. With the rule (the
 * default, finished positions) the smaller enclosure dies and then the other;
 * without it (the judge engine mid-game) both stones are unsettled, not dead. */
static void test_relaxed_kill(void)
{
    hs_board_t b;
    static hs_judge_t j;
    hs_board_init(&b, 9);
    for (int y = 0; y < 9; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 3, y), HS_BLACK);
        hs_board_set_stone(&b, hs_board_point(&b, 4, y), HS_WHITE);
    }
    hs_point_t w = hs_board_point(&b, 1, 1), k = hs_board_point(&b, 7, 2);
    hs_board_set_stone(&b, w, HS_WHITE);
    hs_board_set_stone(&b, k, HS_BLACK);
    hs_judge_config_t cfg;
    hs_judge_config_default(&cfg);
    HS_CHECK(cfg.relaxed_kill);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.cls[w], HS_JC_WHITE_DEAD);
    HS_CHECK_INT(j.cls[k], HS_JC_BLACK_DEAD);
    cfg.relaxed_kill = false;
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.cls[w], HS_JC_WHITE_ALIVE);
    HS_CHECK_INT(j.cls[k], HS_JC_BLACK_ALIVE);
    HS_CHECK_INT(j.count[HS_JC_BLACK_DEAD] + j.count[HS_JC_WHITE_DEAD], 0);
}

/* The CLI's JSON on a setup-stone record of dead_stones.t. */
static void test_cli_json(void)
{
    const char *bin = getenv("HS_BIN");
    if (!bin) { printf("HS_BIN unset: CLI check skipped\n"); return; }
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' judge --json '%s/judge/dead_stones.sgf'", bin, hs_test_own_data_dir());
    FILE *p = popen(cmd, "r");
    HS_CHECK(p != NULL);
    if (!p) return;
    static char out[1 << 16];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    HS_CHECK_INT(pclose(p), 0);
    HS_CHECK(strstr(out, "\"result\":\"W+15.5\"") != NULL);
    HS_CHECK(strstr(out, "\"rules\":\"japanese\"") != NULL);
    HS_CHECK(strstr(out, "\"komi\":6.5") != NULL);
    HS_CHECK(strstr(out, "\"score_territory\":-15.5") != NULL);
    HS_CHECK(strstr(out, "\"classes\":\"bbbXOwwwwbobXOwwwwbbbXOwwxw") != NULL);
    HS_CHECK(strstr(out, "\"influence\":{") != NULL);
    HS_CHECK(strstr(out, "\"si\":[") != NULL);
    HS_CHECK(strstr(out, "\"ia_black\":") != NULL);
    /* Exactly one line: one JSON object. */
    char *nl = strchr(out, '\n');
    HS_CHECK(nl && nl[1] == 0);
}

/* must_fill.t's position after Black has filled the dame E9: White's D9 is
 * in atari on its own territory point C9 and must connect there (judge.h step
 * 6), so C9 still does not count under territory rules. Static rules: the
 * playouts would race for C9 (whoever plays it first wins the stone). */
static void test_must_fill_in_atari(void)
{
    hs_board_t b;
    static hs_judge_t j;
    hs_board_init(&b, 9);
    for (int y = 1; y < 9; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 2, y), HS_WHITE);
        hs_board_set_stone(&b, hs_board_point(&b, 3, y), HS_BLACK);
    }
    hs_board_set_stone(&b, hs_board_point(&b, 3, 0), HS_WHITE);   /* D9 */
    hs_board_set_stone(&b, hs_board_point(&b, 4, 0), HS_BLACK);   /* E9 */
    hs_board_set_stone(&b, hs_board_point(&b, 5, 0), HS_BLACK);   /* F9 */
    hs_board_set_stone(&b, hs_board_point(&b, 4, 1), HS_BLACK);   /* E8 */
    hs_board_set_stone(&b, hs_board_point(&b, 5, 1), HS_BLACK);   /* F8 */
    hs_judge_config_t cfg;
    hs_judge_config_default(&cfg);
    HS_CHECK_INT(cfg.playouts, 0);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.cls[hs_board_point(&b, 3, 0)], HS_JC_WHITE_ALIVE);
    HS_CHECK_INT(j.cls[hs_board_point(&b, 2, 0)], HS_JC_WHITE_TERRITORY);
    HS_CHECK_INT(j.must_fill[HS_WHITE], 1);
    HS_CHECK_INT(j.must_fill[HS_BLACK], 0);
    /* black 41 territory; white 19 - 1; komi 0 */
    HS_CHECK(fabs(hs_judge_score_territory(&j, &b, 0) - 23) < 1e-9);
    /* Connected (C9 filled by White): nothing left to fill, same score. */
    hs_board_set_stone(&b, hs_board_point(&b, 2, 0), HS_WHITE);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.must_fill[HS_WHITE], 0);
    HS_CHECK(fabs(hs_judge_score_territory(&j, &b, 0) - 23) < 1e-9);
}

/* The two Monte-Carlo thresholds of hs_judge_config_final on straight_three.t's
 * position: the black straight three (B9 C9 D9, no outside liberty, in a
 * strong white wall) keeps its stones in about 64% of the seeded playouts
 * (mean own-colour ownership ~0.28: it lives when Black happens to play C9
 * first). Final config: dead, by the shut-in rule (0.28 < mc_shut_max 0.4).
 * With mc_shut_max below 0.28 the shut-in rule stands aside (the playouts
 * keep it alive: 0.28 >= mc_dead 0.1), and with mc_dead above 0.28 the
 * ownership threshold alone kills it. The two-eyed group always lives. */
static void test_mc_thresholds(void)
{
    static const char *rows[9] = {
        "X...XO...", "XXXXXO...", "OOOOOO...", ".........", ".....OOOO",
        ".....OXXX", ".....OX.X", ".....OXXX", ".....OX.X",
    };
    hs_board_t b;
    static hs_judge_t j;
    hs_board_init(&b, 9);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            if (rows[y][x] != '.')
                hs_board_set_stone(&b, hs_board_point(&b, x, y), rows[y][x] == 'X' ? HS_BLACK : HS_WHITE);
    const hs_point_t a9 = hs_board_point(&b, 0, 0), g4 = hs_board_point(&b, 6, 5);
    hs_judge_config_t cfg;
    hs_judge_config_final(&cfg);
    HS_CHECK(fabs(cfg.mc_dead - 0.1) < 1e-6);
    HS_CHECK(fabs(cfg.mc_shut_max - 0.4) < 1e-6);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.cls[a9], HS_JC_BLACK_DEAD);
    HS_CHECK_INT(j.cls[g4], HS_JC_BLACK_ALIVE);
    cfg.mc_shut_max = 0.15f;
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.cls[a9], HS_JC_BLACK_ALIVE);
    HS_CHECK_INT(j.cls[hs_board_point(&b, 2, 0)], HS_JC_BLACK_TERRITORY);
    cfg.mc_dead = 0.4f;
    HS_CHECK_INT(hs_judge_compute(&b, NULL, &cfg, &j, NULL), 0);
    HS_CHECK_INT(j.cls[a9], HS_JC_BLACK_DEAD);
    HS_CHECK_INT(j.cls[g4], HS_JC_BLACK_ALIVE);
}

/* must_fill_at marks where the counted must-fill points are. */
static void test_must_fill_at(void)
{
    hs_board_t b;
    static hs_judge_t j;
    hs_board_init(&b, 9);
    for (int y = 1; y < 9; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 2, y), HS_WHITE);
        hs_board_set_stone(&b, hs_board_point(&b, 3, y), HS_BLACK);
    }
    hs_board_set_stone(&b, hs_board_point(&b, 3, 0), HS_WHITE);   /* D9, in atari on C9 */
    hs_board_set_stone(&b, hs_board_point(&b, 4, 0), HS_BLACK);
    HS_CHECK_INT(hs_judge_compute(&b, NULL, NULL, &j, NULL), 0);
    HS_CHECK_INT(j.must_fill[HS_WHITE], 1);
    int marked = 0;
    for (int p = 0; p < hs_board_num_points(&b); p++)
        if (j.must_fill_at[p]) {
            marked++;
            HS_CHECK_INT(p, hs_board_point(&b, 2, 0));
            HS_CHECK_INT(j.must_fill_at[p], HS_WHITE);
        }
    HS_CHECK_INT(marked, 1);
}

/* The "judge" engine at a record's last position: the static rules with the
 * relaxed kill for a record that does not end in two passes, the Monte-Carlo
 * test of `judge --final` for one that does, and "final_mc=1" / "final_mc=0"
 * force either; each gives exactly what hs_judge_compute gives with that
 * configuration, and on this position the two differ (the MC test kills the
 * lone White stone and counts Black's side). */
static void test_engine_final_option(void)
{
    hs_board_t b;
    hs_board_init(&b, 9);
    /* Black's wall on column f, White's on g: Black's side is a wide open area
     * that the static rules cap (judge.h) and a finished position counts. */
    for (int y = 0; y < 9; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 5, y), HS_BLACK);
        hs_board_set_stone(&b, hs_board_point(&b, 6, y), HS_WHITE);
    }
    hs_board_set_stone(&b, hs_board_point(&b, 2, 2), HS_WHITE);
    hs_game_t g;
    hs_game_init(&g, 9);
    hs_game_move_t moves[2] = { { .vertex = 40, .color = HS_BLACK },
                                { .vertex = HS_GAME_PASS, .color = HS_WHITE } };
    g.moves = moves;
    g.num_moves = 2;
    static hs_engine_result_t res;
    static hs_judge_t want;
    char classes[2][82];
    /* spec, whether the record ends in two passes, whether the MC test is expected */
    const struct { const char *spec; bool passes; bool mc; } cases[] = {
        { "judge", false, false }, { "judge", true, true },
        { "judge:final_mc=1", false, true }, { "judge:final_mc=0", true, false },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        moves[0].vertex = cases[k].passes ? HS_GAME_PASS : 40;
        hs_engine_pos_t pos = { .game = &g, .board = &b, .move_number = 2 };
        hs_engine_t eng;
        hs_error_t err = { 0 };
        const char *colon = strchr(cases[k].spec, ':');
        hs_engine_config_t ecfg = { .threads = 1, .gpu = -1, .options = colon ? colon + 1 : NULL };
        HS_CHECK_INT(hs_engine_init(&eng, "judge", &ecfg, &err), 0);
        res.flags = 0;
        HS_CHECK_INT(hs_engine_evaluate(&eng, &pos, 1, &res, &err), 0);
        hs_engine_fini(&eng);
        hs_judge_config_t jc;
        if (cases[k].mc) {
            hs_judge_config_final(&jc);
        } else {
            hs_judge_config_default(&jc);
            jc.relaxed_kill = true;
        }
        HS_CHECK_INT(hs_judge_compute(&b, NULL, &jc, &want, NULL), 0);
        int differ = 0;
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++)
                differ += res.classes[y * 9 + x] !=
                          hs_judge_class_letters[want.cls[hs_board_point(&b, x, y)]];
        HS_CHECK_INT(differ, 0);
        HS_CHECK(fabsf(res.score - (float)hs_judge_score(&want, &b, &g.rules, g.komi, 0)) < 1e-4f);
        memcpy(classes[cases[k].mc], res.classes, 82);
    }
    HS_CHECK(strcmp(classes[0], classes[1]) != 0);
    printf("judge engine, last position: static %s\n                      playouts %s\n",
           classes[0], classes[1]);
}

int main(void)
{
    test_mc_thresholds();
    test_must_fill_at();
    test_must_fill_in_atari();
    test_cli_json();
    test_result_strings();
    test_handicap_bonus();
    test_empty_board();
    test_open_board();
    test_relaxed_kill();
    test_mc_deterministic();
    test_engine_final_option();
    hs_judge_config_t final_cfg;
    hs_judge_config_final(&final_cfg);
    test_diagrams(false, NULL);
    test_diagrams(true, NULL);
    test_diagrams(false, &final_cfg);
    test_diagrams(true, &final_cfg);
    return hs_test_finish();
}
