/*
 * tests/test_rules.c — core/rules.h and core/score.h tested from data: every
 * tests/data/rules/ *.t file holds cases in the small text format below (also
 * described in tests/data/rules/README), plus a few direct API checks (rule
 * table, name parsing, handicap placement limits).
 *
 * Format: one directive per line; '#' starts a comment; blank lines are ignored.
 *
 *   case NAME...         starts a case (a fresh board; rules japanese)
 *   rules NAME           rule set (hs_rules_from_name); also sets komi to its default
 *   komi K               komi for `score`
 *   size N               an empty N x N board
 *   board                the next lines, up to `end`, are rows from the top:
 *                        X black, O white, . empty (spaces ignored); N rows of N
 *   to-move B|W          side to move (before the first `play`)
 *   handicap N           puts N fixed handicap stones (hs_rules_place_handicap);
 *                        N is also the handicap for area compensation
 *   play C V [legal | illegal REASON] [captures K]
 *                        C is B or W, V a GTP vertex or "pass". Plays through
 *                        hs_rules_play with the case's history (which starts with
 *                        the position before the first play). Default: legal.
 *                        REASON: occupied, offboard, ko, suicide, superko.
 *                        captures K: stones removed from the board by the move
 *                        (the opponent's captured stones, or the mover's own on
 *                        a suicide); the board must be unchanged after an illegal move
 *   expect-board         the next rows, up to `end`, must equal the position
 *   score METHOD [dead V V ...] RESULT
 *                        METHOD: area, territory, tromp-taylor or rules (by the
 *                        case's rules); RESULT: B+M, W+M or 0 (margin incl. komi
 *                        and handicap compensation)
 *   owner                the next rows, up to `end`: expected ownership
 *                        (X black, O white, . neutral) with nothing dead
 */
#include <ctype.h>
#include <dirent.h>
#include <math.h>

#include "core/board.h"
#include "core/rules.h"
#include "core/score.h"
#include "test.h"

typedef struct {
    const char *file;
    int line;
    char name[128];
    hs_board_t b;
    hs_rules_t r;
    hs_history_t h;
    double komi;
    int handicap;
    bool started;  /* history holds the starting position */
    int failures;
} s_case_t;

static void s_fail(s_case_t *c, const char *fmt, const char *a, const char *b)
{
    c->failures++;
    hs_test_failed++;
    fprintf(stderr, "%s:%d: [%s] ", c->file, c->line, c->name);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

static void s_pass(void) { hs_test_passed++; }

/* Reads rows up to "end" into rows[] as strings of X/O/. without spaces. */
static int s_read_rows(FILE *f, s_case_t *c, char rows[HS_BOARD_MAX_SIZE][HS_BOARD_MAX_SIZE + 1])
{
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        c->line++;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (!strncmp(s, "end", 3))
            return n;
        if (n >= HS_BOARD_MAX_SIZE)
            return -1;
        int k = 0;
        for (; *s && *s != '\n' && *s != '#'; s++)
            if (*s == 'X' || *s == 'O' || *s == '.') {
                if (k >= HS_BOARD_MAX_SIZE)
                    return -1;
                rows[n][k++] = *s;
            }
        rows[n][k] = '\0';
        if (k > 0)
            n++;
    }
    return -1;
}

static void s_start_history(s_case_t *c)
{
    if (!c->started) {
        hs_history_push(&c->h, &c->b, &c->r);
        c->started = true;
    }
}

static hs_illegal_t s_reason(const char *w)
{
    static const char *names[] = { "legal", "offboard", "occupied", "ko", "suicide", "superko" };
    for (int i = 0; i < 6; i++)
        if (!strcmp(w, names[i]))
            return (hs_illegal_t)i;
    return (hs_illegal_t)-1;
}

static const char *s_reason_name(hs_illegal_t r)
{
    static const char *names[] = { "legal", "offboard", "occupied", "ko", "suicide", "superko" };
    return (unsigned)r < 6 ? names[r] : "?";
}

static void s_do_play(s_case_t *c, char *args)
{
    char *tok[8];
    int n = 0;
    for (char *t = strtok(args, " \t\n"); t && n < 8; t = strtok(NULL, " \t\n"))
        tok[n++] = t;
    if (n < 2) {
        s_fail(c, "bad play line%s%s", "", "");
        return;
    }
    hs_color_t color = (tok[0][0] == 'B' || tok[0][0] == 'b') ? HS_BLACK : HS_WHITE;
    hs_point_t p;
    if (hs_board_parse_point(&c->b, tok[1], &p) != 0) {
        s_fail(c, "bad vertex %s%s", tok[1], "");
        return;
    }
    hs_illegal_t want = HS_LEGAL;
    int want_caps = -1;
    for (int i = 2; i < n; i++) {
        if (!strcmp(tok[i], "illegal") && i + 1 < n)
            want = s_reason(tok[++i]);
        else if (!strcmp(tok[i], "captures") && i + 1 < n)
            want_caps = atoi(tok[++i]);
    }
    s_start_history(c);
    hs_board_t before = c->b;
    int stones_before = c->b.size * c->b.size - c->b.num_empty;
    hs_illegal_t why = HS_LEGAL;
    int rc = hs_rules_play(&c->b, &c->r, &c->h, color, p, &why);
    if (why != want || (rc == 0) != (want == HS_LEGAL)) {
        s_fail(c, "play %s: expected %s", tok[1], s_reason_name(want));
        fprintf(stderr, "    got %s (rc %d)\n", s_reason_name(why), rc);
        return;
    }
    if (rc != 0 && memcmp(&before, &c->b, sizeof before)) {
        s_fail(c, "illegal %s changed the board%s", tok[1], "");
        return;
    }
    if (want_caps >= 0 && rc == 0) {
        int stones_after = c->b.size * c->b.size - c->b.num_empty;
        int removed = stones_before + (p != HS_PASS) - stones_after;
        if (removed != want_caps) {
            char a[16], b[16];
            snprintf(a, sizeof a, "%d", removed);
            snprintf(b, sizeof b, "%d", want_caps);
            s_fail(c, "removed %s stones, expected %s", a, b);
            return;
        }
    }
    hs_error_t err;
    if (hs_board_check(&c->b, &err) != 0) {
        s_fail(c, "board check: %s%s", err.msg, "");
        return;
    }
    s_pass();
}

static void s_compare_rows(s_case_t *c, char rows[][HS_BOARD_MAX_SIZE + 1], int n,
                           const uint8_t *colors, const char *what)
{
    if (n != c->b.size) {
        s_fail(c, "%s: wrong row count%s", what, "");
        return;
    }
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            uint8_t v = colors[hs_board_point(&c->b, x, y)];
            char ch = v == HS_BLACK ? 'X' : v == HS_WHITE ? 'O' : '.';
            if ((int)strlen(rows[y]) != n || rows[y][x] != ch) {
                char diagram[2048];
                hs_board_to_ascii(&c->b, diagram, sizeof diagram);
                s_fail(c, "%s differs; board now:\n%s", what, diagram);
                return;
            }
        }
    s_pass();
}

static void s_do_score(s_case_t *c, char *args)
{
    char *tok[64];
    int n = 0;
    for (char *t = strtok(args, " \t\n"); t && n < 64; t = strtok(NULL, " \t\n"))
        tok[n++] = t;
    if (n < 2) {
        s_fail(c, "bad score line%s%s", "", "");
        return;
    }
    uint8_t dead[HS_BOARD_MAX_POINTS] = { 0 };
    int i = 1;
    if (!strcmp(tok[i], "dead")) {
        for (i++; i < n - 1; i++) {
            hs_point_t p;
            if (hs_board_parse_point(&c->b, tok[i], &p) != 0 || p == HS_PASS) {
                s_fail(c, "bad dead vertex %s%s", tok[i], "");
                return;
            }
            dead[p] = 1;
        }
    }
    const char *res = tok[n - 1];
    double want = 0;
    if (res[0] == 'B' && res[1] == '+')
        want = atof(res + 2);
    else if (res[0] == 'W' && res[1] == '+')
        want = -atof(res + 2);
    else if (strcmp(res, "0")) {
        s_fail(c, "bad result %s%s", res, "");
        return;
    }
    hs_score_t s;
    double got;
    if (!strcmp(tok[0], "area")) {
        hs_score_area(&c->b, dead, c->komi, c->handicap, &c->r, &s);
        got = s.margin;
    } else if (!strcmp(tok[0], "territory")) {
        hs_score_territory(&c->b, dead, c->komi, &s);
        got = s.margin;
    } else if (!strcmp(tok[0], "rules")) {
        hs_score_by_rules(&c->b, dead, c->komi, c->handicap, &c->r, &s);
        got = s.margin;
    } else if (!strcmp(tok[0], "tromp-taylor")) {
        got = hs_score_tromp_taylor(&c->b, c->komi);
        /* The fast count must agree with the general one. */
        hs_rules_t tt = hs_rules_get(HS_RULES_TROMP_TAYLOR);
        hs_score_area(&c->b, NULL, c->komi, 0, &tt, &s);
        if (fabs(s.margin - got) > 1e-9) {
            s_fail(c, "tromp-taylor fast count differs from area count%s%s", "", "");
            return;
        }
    } else {
        s_fail(c, "unknown score method %s%s", tok[0], "");
        return;
    }
    if (fabs(got - want) > 1e-9) {
        char a[32], b[32];
        snprintf(a, sizeof a, "%+.1f", got);
        snprintf(b, sizeof b, "%+.1f", want);
        s_fail(c, "score margin %s, expected %s", a, b);
        return;
    }
    s_pass();
}

static void s_new_case(s_case_t *c, const char *name)
{
    hs_history_fini(&c->h);
    snprintf(c->name, sizeof c->name, "%s", name);
    hs_board_init(&c->b, 9);
    c->r = hs_rules_get(HS_RULES_JAPANESE);
    c->komi = c->r.default_komi;
    c->handicap = 0;
    c->started = false;
}

static int s_run_file(const char *path, int *cases)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        hs_test_failed++;
        return 1;
    }
    s_case_t *c = calloc(1, sizeof *c);
    c->file = path;
    hs_history_init(&c->h);
    s_new_case(c, "(none)");
    char line[1024];
    char rows[HS_BOARD_MAX_SIZE][HS_BOARD_MAX_SIZE + 1];
    while (fgets(line, sizeof line, f)) {
        c->line++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        size_t len = strlen(s);
        while (len && isspace((unsigned char)s[len - 1]))
            s[--len] = '\0';
        if (!*s)
            continue;
        char *arg = s;
        while (*arg && !isspace((unsigned char)*arg))
            arg++;
        if (*arg)
            *arg++ = '\0';
        while (isspace((unsigned char)*arg))
            arg++;
        if (!strcmp(s, "case")) {
            s_new_case(c, arg);
            (*cases)++;
        } else if (!strcmp(s, "rules")) {
            if (hs_rules_from_name(arg, &c->r) != 0)
                s_fail(c, "unknown rules %s%s", arg, "");
            c->komi = c->r.default_komi;
        } else if (!strcmp(s, "komi")) {
            c->komi = atof(arg);
        } else if (!strcmp(s, "size")) {
            if (hs_board_init(&c->b, atoi(arg)) != 0)
                s_fail(c, "bad size %s%s", arg, "");
        } else if (!strcmp(s, "board")) {
            int n = s_read_rows(f, c, rows);
            if (n < 2 || hs_board_init(&c->b, n) != 0) {
                s_fail(c, "bad board%s%s", "", "");
                continue;
            }
            for (int y = 0; y < n; y++) {
                if ((int)strlen(rows[y]) != n)
                    s_fail(c, "board row %s has the wrong length%s", rows[y], "");
                for (int x = 0; x < n && rows[y][x]; x++)
                    if (rows[y][x] != '.')
                        hs_board_set_stone(&c->b, hs_board_point(&c->b, x, y),
                                           rows[y][x] == 'X' ? HS_BLACK : HS_WHITE);
            }
        } else if (!strcmp(s, "to-move")) {
            c->b.to_move = (arg[0] == 'W' || arg[0] == 'w') ? HS_WHITE : HS_BLACK;
        } else if (!strcmp(s, "handicap")) {
            c->handicap = atoi(arg);
            if (hs_rules_place_handicap(&c->b, c->handicap) != 0)
                s_fail(c, "handicap %s refused%s", arg, "");
        } else if (!strcmp(s, "play")) {
            s_do_play(c, arg);
        } else if (!strcmp(s, "expect-board")) {
            int n = s_read_rows(f, c, rows);
            s_compare_rows(c, rows, n, c->b.color, "position");
        } else if (!strcmp(s, "owner")) {
            int n = s_read_rows(f, c, rows);
            uint8_t owner[HS_BOARD_MAX_POINTS];
            hs_score_ownership(&c->b, NULL, owner);
            s_compare_rows(c, rows, n, owner, "ownership");
        } else if (!strcmp(s, "score")) {
            s_do_score(c, arg);
        } else {
            s_fail(c, "unknown directive %s%s", s, "");
        }
    }
    fclose(f);
    hs_history_fini(&c->h);
    int failures = c->failures;
    free(c);
    return failures;
}

static void test_table_and_names(void)
{
    hs_rules_t r;
    HS_CHECK_INT(hs_rules_from_name("Japanese", &r), 0);
    HS_CHECK_INT(r.id, HS_RULES_JAPANESE);
    HS_CHECK_INT(r.scoring, HS_SCORING_TERRITORY);
    HS_CHECK_INT(hs_rules_from_name("  Chinese ", &r), 0);
    HS_CHECK_INT(r.id, HS_RULES_CHINESE);
    HS_CHECK_INT(r.ko, HS_KO_POSITIONAL);
    HS_CHECK_INT(hs_rules_from_name("AGA", &r), 0);
    HS_CHECK_INT(r.ko, HS_KO_SITUATIONAL);
    HS_CHECK_INT(r.handicap_bonus_offset, 1);
    HS_CHECK_INT(hs_rules_from_name("NZ", &r), 0);
    HS_CHECK_INT(r.id, HS_RULES_NEW_ZEALAND);
    HS_CHECK(r.suicide_legal);
    HS_CHECK_INT(hs_rules_from_name("GOE", &r), 0);
    HS_CHECK_INT(r.id, HS_RULES_NEW_ZEALAND);
    HS_CHECK_INT(hs_rules_from_name("Tromp Taylor", &r), 0);
    HS_CHECK_INT(r.id, HS_RULES_TROMP_TAYLOR);
    HS_CHECK_INT(hs_rules_from_name("tt", &r), 0);
    HS_CHECK_INT(hs_rules_from_name("Korean", &r), 0);
    HS_CHECK(r.default_komi == 6.5);
    HS_CHECK_INT(hs_rules_from_name("klingon", &r), HS_ENOTFOUND);
    HS_CHECK_INT(hs_rules_from_name("", &r), HS_ENOTFOUND);
    HS_CHECK_INT(hs_rules_from_name(NULL, &r), HS_ENOTFOUND);
    HS_CHECK_INT(hs_rules_from_name("a-very-long-name-that-is-no-rule-set-at-all", &r), HS_ENOTFOUND);
    for (int i = 0; i < HS_RULES_COUNT; i++) {
        hs_rules_t a = hs_rules_get((hs_rules_id_t)i), b;
        HS_CHECK_INT(hs_rules_from_name(a.name, &b), 0);
        HS_CHECK_INT(b.id, i);
        HS_CHECK_INT(hs_rules_play_flags(&a), a.suicide_legal ? HS_PLAY_SUICIDE_OK : 0);
    }
    /* Handicap limits. */
    hs_board_t b;
    hs_board_init(&b, 19);
    HS_CHECK_INT(hs_rules_place_handicap(&b, 1), HS_EINVAL);
    HS_CHECK_INT(hs_rules_place_handicap(&b, 10), HS_EINVAL);
    HS_CHECK_INT(b.num_empty, 361);
    HS_CHECK_INT(hs_rules_place_handicap(&b, 9), 0);
    HS_CHECK_INT(b.num_empty, 352);
    HS_CHECK_INT(b.to_move, HS_WHITE);
    hs_board_init(&b, 8);
    HS_CHECK_INT(hs_rules_place_handicap(&b, 5), HS_EINVAL);
    HS_CHECK_INT(hs_rules_place_handicap(&b, 4), 0);
    hs_board_init(&b, 6);
    HS_CHECK_INT(hs_rules_place_handicap(&b, 2), HS_EINVAL);
    for (int n = 2; n <= 9; n++) {
        hs_board_init(&b, 13);
        HS_CHECK_INT(hs_rules_place_handicap(&b, n), 0);
        HS_CHECK_INT(169 - b.num_empty, n);
    }
}

int main(void)
{
    test_table_and_names();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/rules", hs_test_own_data_dir());
    DIR *d = opendir(dir);
    HS_CHECK(d != NULL);
    if (!d)
        return hs_test_finish();
    int files = 0, cases = 0;
    struct dirent *e;
    static char names[64][256];
    while ((e = readdir(d)) && files < 64) {
        size_t len = strlen(e->d_name);
        if (len > 2 && len < sizeof names[0] && !strcmp(e->d_name + len - 2, ".t"))
            memcpy(names[files++], e->d_name, len + 1);
    }
    closedir(d);
    for (int i = 0; i < files; i++) {
        char path[sizeof dir + sizeof names[0] + 2];
        size_t dl = strlen(dir), nl = strlen(names[i]);
        memcpy(path, dir, dl);
        path[dl] = '/';
        memcpy(path + dl + 1, names[i], nl + 1);
        s_run_file(path, &cases);
    }
    printf("%d rules files, %d cases\n", files, cases);
    HS_CHECK(files >= 5);
    HS_CHECK(cases >= 20);
    return hs_test_finish();
}
