/*
 * cli/cmd_judge.c — `hyeongse judge FILE.sgf`: judge one position of a game
 * record (classes of every point, dead stones, territory and area score, Park's
 * influence) and print it as an ASCII board or one JSON object.
 *
 * Wiring: core (SGF, game, replay) → worker/judge (classes, score; its own eye
 * analysis) → worker/stability (group stability, reader on) → worker/influence
 * (SI weighted by stability, stones the judge calls dead weigh 0; or every
 * stone 1 with --no-stability).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/game.h"
#include "core/rules.h"
#include "core/sgf.h"
#include "worker/influence.h"
#include "worker/judge.h"
#include "worker/stability.h"
#include "worker/tactics.h"

const char hs_cmd_judge_summary[] = "judge a position: dead stones, territory, score, influence";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse judge FILE.sgf [--game K] [--move N | --final] [--rules R]\n"
            "                      [--komi K] [--tau T] [--no-stability] [--json]\n\n"
            "Judges the position after move N (default: the final position) of game K\n"
            "(default 0) of FILE.sgf: every point's class, the score under territory and\n"
            "area rules, the result in SGF RE form under the rules used, and Park's\n"
            "influence (SI x100, influence points and areas at threshold T, default 140).\n\n"
            "  --rules R        korean, japanese, chinese, aga, new-zealand, tromp-taylor\n"
            "                   (default: the record's RU; without RU, chinese when KM is\n"
            "                   7.5, else japanese)\n"
            "  --komi K         komi in points (default: the record's KM as interpreted)\n"
            "  --no-stability   weigh every stone 1 in SI (Park's pure definition) instead\n"
            "                   of its group's stability (dead stones weigh 0 either way\n"
            "                   in the default mode; with this flag every stone is 1)\n"
            "  --json           print one JSON object\n\n"
            "Class letters (row by row from the top left in JSON \"classes\"):\n"
            "  X O  live black / white stone     x o  dead black / white stone\n"
            "  b w  black / white territory      .    dame     s  seki point\n");
}

static const char *s_komi_source_name(hs_komi_source_t s)
{
    switch (s) {
    case HS_KOMI_DEFAULT: return "default";
    case HS_KOMI_PLAIN: return "plain";
    case HS_KOMI_FOX_POINTS: return "fox-points";
    case HS_KOMI_FOX_ZI: return "fox-zi";
    case HS_KOMI_OVERRIDE: return "override";
    }
    return "?";
}

static int s_read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "hyeongse judge: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "hyeongse judge: out of memory\n");
        return -1;
    }
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

int hs_cmd_judge(int argc, char **argv)
{
    const char *path = NULL, *rules_name = NULL;
    int game_index = 0, move = -1, tau = HS_INFLUENCE_TAU_DEFAULT;
    bool json = false, no_stab = false, have_komi = false;
    double komi_override = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { s_usage(stdout); return 0; }
        else if (!strcmp(a, "--json")) json = true;
        else if (!strcmp(a, "--no-stability")) no_stab = true;
        else if (!strcmp(a, "--final")) move = -1;
        else if (!strcmp(a, "--game") && more) game_index = atoi(argv[++i]);
        else if (!strcmp(a, "--move") && more) move = atoi(argv[++i]);
        else if (!strcmp(a, "--rules") && more) rules_name = argv[++i];
        else if (!strcmp(a, "--komi") && more) { komi_override = atof(argv[++i]); have_komi = true; }
        else if (!strcmp(a, "--tau") && more) tau = atoi(argv[++i]);
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "hyeongse judge: unknown option %s\n", a); s_usage(stderr); return 2; }
        else if (!path) path = a;
        else { fprintf(stderr, "hyeongse judge: one file at a time\n"); return 2; }
    }
    if (!path) { s_usage(stderr); return 2; }
    if (tau < 0) { fprintf(stderr, "hyeongse judge: --tau must be >= 0\n"); return 2; }

    int status = 1;
    char *data = NULL;
    size_t len = 0;
    hs_sgf_collection_t *col = NULL;
    hs_game_t game;
    hs_game_init(&game, 19);
    hs_reader_t *reader = NULL;
    hs_stability_t *stab = NULL;
    hs_judge_t *judge = NULL;
    hs_influence_t *inf = NULL;
    hs_error_t err = {0};
    if (s_read_file(path, &data, &len)) goto done;
    col = hs_sgf_parse_ex(data, len, NULL, HS_SGF_RECOVER, &err);
    if (!col) { fprintf(stderr, "hyeongse judge: %s: %s\n", path, err.msg); goto done; }
    if (game_index < 0 || game_index >= col->num_trees) {
        fprintf(stderr, "hyeongse judge: %s holds %d game(s); no game %d\n", path, col->num_trees, game_index);
        goto done;
    }
    if (col->trees[game_index].status) {
        fprintf(stderr, "hyeongse judge: %s: game %d: %s\n", path, game_index, col->trees[game_index].message);
        goto done;
    }
    if (hs_game_from_sgf(col->trees[game_index].root, &game, &err)) {
        fprintf(stderr, "hyeongse judge: %s: game %d: %s\n", path, game_index, err.msg);
        goto done;
    }
    hs_rules_t rules = game.rules;
    const char *rules_source = game.rules_raw ? "RU" : "default";
    if (!game.rules_raw && game.komi_source == HS_KOMI_PLAIN && game.komi == 7.5) {
        /* No RU but komi 7.5: the Chinese convention (AlphaGo games, Tom). */
        rules = hs_rules_get(HS_RULES_CHINESE);
        rules_source = "inferred from komi 7.5";
    }
    if (rules_name) rules_source = "override";
    if (rules_name && hs_rules_from_name(rules_name, &rules)) {
        fprintf(stderr, "hyeongse judge: unknown rules '%s'\n", rules_name);
        status = 2;
        goto done;
    }
    double komi = have_komi ? komi_override : game.komi;
    hs_komi_source_t komi_source = have_komi ? HS_KOMI_OVERRIDE : game.komi_source;
    if (move > game.num_moves) move = game.num_moves;
    hs_board_t b;
    if (hs_game_replay(&game, move, &b, &err)) {
        /* Judge what could be replayed: the position before the illegal move. */
        fprintf(stderr, "hyeongse judge: %s: %s (judging the position before it)\n", path, err.msg);
    }
    int moves_played = b.move_number;

    stab = malloc(sizeof *stab);
    judge = malloc(sizeof *judge);
    inf = malloc(sizeof *inf);
    if (!stab || !judge || !inf) { fprintf(stderr, "hyeongse judge: out of memory\n"); goto done; }
    if (!no_stab) {
        reader = hs_reader_new(NULL);
        if (!reader) { fprintf(stderr, "hyeongse judge: out of memory\n"); goto done; }
        hs_stability_compute(&b, NULL, reader, stab, NULL);
    }
    /* The judge uses its own eye analysis: the stability map made it worse on
     * the archives' final positions (docs/JUDGE.md); stability weighs SI only.
     * A finished game's last position gets the Monte-Carlo dead-stone test;
     * earlier positions the static rules without the relaxed kill (judge.h). */
    hs_judge_config_t jcfg;
    if (moves_played >= game.num_moves) {
        hs_judge_config_final(&jcfg);
    } else {
        /* Mid-game, as the "judge" engine of analyze: a fight is unsettled. */
        hs_judge_config_default(&jcfg);
        jcfg.relaxed_kill = false;
    }
    if (hs_judge_compute(&b, NULL, &jcfg, judge, &err)) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        goto done;
    }
    /* Influence weights: the group stability, 0 for stones judged dead. */
    float w[HS_BOARD_MAX_POINTS];
    for (int p = 0; p < HS_BOARD_MAX_POINTS; p++)
        w[p] = judge->weight[p] == 0.0f ? 0.0f : (no_stab ? 1.0f : stab->point[p]);
    if (hs_influence_compute(&b, no_stab ? NULL : w, tau, inf, &err)) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        goto done;
    }
    hs_rules_t terr_rules = hs_rules_get(HS_RULES_JAPANESE), area_rules = hs_rules_get(HS_RULES_CHINESE);
    double s_terr = hs_judge_score_territory(judge, &b, komi);
    double s_area = hs_judge_score_area(judge, komi, hs_judge_handicap_bonus(
        rules.scoring == HS_SCORING_AREA ? &rules : &area_rules, game.handicap));
    (void)terr_rules;
    double score = rules.scoring == HS_SCORING_AREA ? s_area : s_terr;
    char res[16], rec[16];
    hs_judge_result_string(score, res);
    hs_result_format(&game.result, rec);
    const int n = b.size;

    if (json) {
        printf("{\"file\":\"");
        for (const char *s = path; *s; s++) {
            if (*s == '"' || *s == '\\') putchar('\\');
            if ((unsigned char)*s >= 0x20) putchar(*s);
        }
        printf("\",\"game\":%d,\"size\":%d,\"move\":%d,\"rules\":\"%s\",\"rules_source\":\"%s\",\"scoring\":\"%s\","
               "\"komi\":%g,\"komi_source\":\"%s\",\"handicap\":%d,\"result\":\"%s\","
               "\"recorded_result\":\"%s\",\"score_territory\":%g,\"score_area\":%g,"
               "\"captures_black\":%d,\"captures_white\":%d,\"stability\":%s,\"classes\":\"",
               game_index, n, moves_played, rules.name, rules_source,
               rules.scoring == HS_SCORING_AREA ? "area" : "territory", komi,
               s_komi_source_name(komi_source), game.handicap, res, rec, s_terr, s_area,
               b.captures[HS_BLACK], b.captures[HS_WHITE], no_stab ? "false" : "true");
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) putchar(hs_judge_class_letters[judge->cls[hs_board_point(&b, x, y)]]);
        printf("\",\"counts\":{\"black_territory\":%d,\"white_territory\":%d,\"black_alive\":%d,"
               "\"white_alive\":%d,\"black_dead\":%d,\"white_dead\":%d,\"dame\":%d,\"seki\":%d},",
               judge->count[HS_JC_BLACK_TERRITORY], judge->count[HS_JC_WHITE_TERRITORY],
               judge->count[HS_JC_BLACK_ALIVE], judge->count[HS_JC_WHITE_ALIVE],
               judge->count[HS_JC_BLACK_DEAD], judge->count[HS_JC_WHITE_DEAD],
               judge->count[HS_JC_DAME], judge->count[HS_JC_SEKI]);
        printf("\"ownership\":[");
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                printf("%s%g", x || y ? "," : "", judge->ownership[hs_board_point(&b, x, y)]);
        printf("],\"influence\":{\"tau\":%d,\"si\":[", tau);
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                hs_point_t p = hs_board_point(&b, x, y);
                if (x || y) putchar(',');
                if (b.color[p] == HS_EMPTY) printf("%d", inf->si[p]);
                else printf("null");
            }
        printf("],\"ip_black\":%d,\"ip_white\":%d,\"ia_black\":%d,\"ia_white\":%d,"
               "\"lumps_black\":%d,\"lumps_white\":%d,\"cores_black\":%d,\"cores_white\":%d,"
               "\"territory_black\":%d,\"territory_white\":%d,\"score_black\":%d,\"score_white\":%d}}\n",
               inf->ip_count[HS_BLACK], inf->ip_count[HS_WHITE], inf->ia_count[HS_BLACK],
               inf->ia_count[HS_WHITE], inf->lump_count[HS_BLACK], inf->lump_count[HS_WHITE],
               inf->core_count[HS_BLACK], inf->core_count[HS_WHITE],
               inf->territory_count[HS_BLACK], inf->territory_count[HS_WHITE],
               inf->score[HS_BLACK], inf->score[HS_WHITE]);
    } else {
        printf("%s, game %d, after move %d (%dx%d)\n", path, game_index, moves_played, n, n);
        printf("rules %s (%s, %s scoring), komi %g (%s, KM %s), handicap %d\n\n", rules.name, rules_source,
               rules.scoring == HS_SCORING_AREA ? "area" : "territory", komi,
               s_komi_source_name(komi_source), game.komi_raw ? game.komi_raw : "absent", game.handicap);
        static const char cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
        printf("    ");
        for (int x = 0; x < n; x++) printf(" %c", cols[x]);
        printf("        ");
        for (int x = 0; x < n; x++) printf(" %c", cols[x]);
        printf("\n");
        for (int y = 0; y < n; y++) {
            printf("%3d ", n - y);
            for (int x = 0; x < n; x++) {
                int c = b.color[hs_board_point(&b, x, y)];
                printf(" %c", c == HS_BLACK ? 'X' : c == HS_WHITE ? 'O' : '.');
            }
            printf("    %3d ", n - y);
            for (int x = 0; x < n; x++) printf(" %c", hs_judge_class_letters[judge->cls[hs_board_point(&b, x, y)]]);
            printf("\n");
        }
        printf("\nclasses: X O live, x o dead, b w territory, . dame, s seki\n");
        printf("black: territory %d, dead white %d, captures %d, live stones %d\n",
               judge->count[HS_JC_BLACK_TERRITORY], judge->count[HS_JC_WHITE_DEAD],
               b.captures[HS_BLACK], judge->count[HS_JC_BLACK_ALIVE]);
        printf("white: territory %d, dead black %d, captures %d, live stones %d\n",
               judge->count[HS_JC_WHITE_TERRITORY], judge->count[HS_JC_BLACK_DEAD],
               b.captures[HS_WHITE], judge->count[HS_JC_WHITE_ALIVE]);
        printf("dame %d, seki points %d; territory points the owner must fill (not counted): "
               "black %d, white %d\n", judge->count[HS_JC_DAME], judge->count[HS_JC_SEKI],
               judge->must_fill[HS_BLACK], judge->must_fill[HS_WHITE]);
        char t1[16], t2[16];
        printf("score (Black - White, komi included): territory %s, area %s\n",
               hs_judge_result_string(s_terr, t1), hs_judge_result_string(s_area, t2));
        printf("result under %s rules: %s   (recorded: %s)\n", rules.name, res, rec);
        printf("influence (tau %d, %s): IP black %d white %d, IA black %d white %d, "
               "Park score black %d white %d\n", tau, no_stab ? "every stone weighs 1" : "stability-weighted",
               inf->ip_count[HS_BLACK], inf->ip_count[HS_WHITE], inf->ia_count[HS_BLACK],
               inf->ia_count[HS_WHITE], inf->score[HS_BLACK], inf->score[HS_WHITE]);
    }
    status = 0;
done:
    hs_reader_destroy(&reader);
    free(stab);
    free(judge);
    free(inf);
    hs_game_fini(&game);
    hs_sgf_destroy(&col);
    free(data);
    return status;
}
