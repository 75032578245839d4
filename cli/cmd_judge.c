/*
 * cli/cmd_judge.c — `hyeongse judge FILE.sgf`: judge one position of a game
 * record (classes of every point, dead stones, territory and area score, Park's
 * influence) and print it as an ASCII board or one JSON object.
 *
 * Wiring: core (SGF, game, replay) → worker/judge (classes, score; its own eye
 * analysis) → worker/stability (group stability, reader on) → worker/influence
 * (SI weighted by stability, stones the judge calls dead weigh 0; or every
 * stone 1 with --no-stability).
 *
 * With --engine net (--net FILE, --backend B) the dead stones come from a
 * KataGo net's ownership (worker/judge_net.h) instead of the playouts or the
 * static rules; everything after (seki, count, influence) is the same.
 *
 * Shape: s_parse_args (usage errors exit 2, as every command) → s_load_game →
 * s_pick_rules → s_judge_position → s_print_json or s_print_text, sharing one
 * s_judged_t that owns what the run allocates (s_judged_fini frees it).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "core/board.h"
#include "core/buf.h"
#include "core/game.h"
#include "core/rules.h"
#include "core/sgf.h"
#include "worker/influence.h"
#include "worker/judge.h"
#include "worker/judge_net.h"
#include "worker/nn/eval.h"
#include "worker/stability.h"
#include "worker/tactics.h"

const char hs_cmd_judge_summary[] = "judge a position: dead stones, territory, score, influence";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse judge FILE.sgf [--game K] [--move N | --final] [--rules R]\n"
            "                      [--komi K] [--tau T] [--no-stability] [--json]\n"
            "                      [--engine static|net [--net FILE] [--backend B]]\n\n"
            "Judges the position after move N (0 up to the game's last move; default: the\n"
            "final position) of game K (default 1, the first) of FILE.sgf: every point's\n"
            "class, the score under territory and area rules, the result in SGF RE form\n"
            "under the rules used, and Park's influence (SI x100, influence points and\n"
            "areas at threshold T, default 140).\n\n"
            "  --rules R        korean, japanese, chinese, aga, new-zealand, tromp-taylor\n"
            "                   (default: the record's RU; without RU, chinese when KM is\n"
            "                   7.5, else japanese)\n"
            "  --komi K         komi in points, -1000..1000 (default: the record's KM as interpreted)\n"
            "  --no-stability   weigh every stone 1 in SI (Park's pure definition) instead\n"
            "                   of its group's stability (dead stones weigh 0 either way\n"
            "                   in the default mode; with this flag every stone is 1)\n"
            "  --json           print one JSON object\n"
            "  --engine E       static (default: the judge's eye analysis, with playouts at\n"
            "                   a record's last position) or net (dead stones from the\n"
            "                   ownership of the net --net FILE: KataGo's .bin.gz or our\n"
            "                   own .hsn; without --net the default model %s,\n"
            "                   looked for in $HYEONGSE_MODELS if set, else the source\n"
            "                   tree's models/, else the installed share/hyeongse/models)\n"
            "  --backend B      the net's backend: ref, cpu or cuda (default: the fastest\n"
            "                   this build and machine have)\n\n"
            "Class letters (row by row from the top left in JSON \"classes\"):\n"
            "  X O  live black / white stone     x o  dead black / white stone\n"
            "  b w  black / white territory      .    dame     s  seki point\n",
            HS_NN_DEFAULT_MODEL);
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

/* What the command line asked for. move -1: the final position. */
typedef struct s_opts {
    const char *path, *rules_name, *net_path, *backend;
    int game_number, move, tau;   /* game_number: 1 = the first */
    bool json, no_stab, have_komi, use_net, move_given, final_given;
    double komi;
} s_opts_t;

/* Everything a judged position's printing needs, and the run's allocations. */
typedef struct s_judged {
    char *data;
    hs_sgf_collection_t *col;
    hs_game_t game;
    hs_reader_t *reader;
    hs_stability_t *stab;
    hs_judge_t *judge;
    hs_influence_t *inf;
    hs_nn_model_t *model;           /* --engine net */
    hs_nn_evaluator_t *ev;
    hs_nn_game_pos_t *npos;
    hs_nn_output_t *nout;
    hs_board_t b;
    hs_rules_t rules;
    const char *rules_source;
    double komi, s_terr, s_area;
    hs_komi_source_t komi_source;
    char res[16], rec[16];
} s_judged_t;

/* The value of option argv[*i], or NULL with a message when it is the last word. */
static const char *s_value(int argc, char **argv, int *i)
{
    if (*i + 1 < argc)
        return argv[++*i];
    fprintf(stderr, "hyeongse judge: %s needs a value\n", argv[*i]);
    return NULL;
}

/* One option at argv[*i] (moving *i past its value): 0, or -1 after a message. */
static int s_parse_option(int argc, char **argv, int *i, s_opts_t *o)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "--json")) o->json = true;
    else if (!strcmp(a, "--no-stability")) o->no_stab = true;
    else if (!strcmp(a, "--final")) o->final_given = true;
    else if (!strcmp(a, "--rules")) return (o->rules_name = s_value(argc, argv, i)) ? 0 : -1;
    else if (!strcmp(a, "--net")) return (o->net_path = s_value(argc, argv, i)) ? 0 : -1;
    else if (!strcmp(a, "--backend")) return (o->backend = s_value(argc, argv, i)) ? 0 : -1;
    else if (!strcmp(a, "--engine")) {
        if (!(v = s_value(argc, argv, i))) return -1;
        if (!strcmp(v, "net")) o->use_net = true;
        else if (!strcmp(v, "static")) o->use_net = false;
        else { fprintf(stderr, "hyeongse judge: --engine is static or net, not '%s'\n", v); return -1; }
    }
    else if (!strcmp(a, "--game"))
        return (v = s_value(argc, argv, i)) ? hs__cli_int("judge", a, v, 1, INT_MAX, &o->game_number)
                                            : -1;
    else if (!strcmp(a, "--move")) {
        o->move_given = true;
        return (v = s_value(argc, argv, i)) ? hs__cli_int("judge", a, v, 0, INT_MAX, &o->move)
                                            : -1;
    }
    else if (!strcmp(a, "--tau"))
        return (v = s_value(argc, argv, i)) ? hs__cli_int("judge", a, v, 0, INT16_MAX, &o->tau)
                                            : -1;
    else if (!strcmp(a, "--komi")) {
        o->have_komi = true;
        return (v = s_value(argc, argv, i)) ? hs__cli_komi("judge", v, &o->komi) : -1;
    } else {
        fprintf(stderr, "hyeongse judge: unknown option %s\n", a);
        s_usage(stderr);
        return -1;
    }
    return 0;
}

/* 0 to go on, 1 after --help (exit 0), 2 on a usage error (exit 2). */
static int s_parse_args(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){ .game_number = 1, .move = -1, .tau = HS_INFLUENCE_TAU_DEFAULT };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            s_usage(stdout);
            return 1;
        }
        if (a[0] == '-' && a[1]) {
            if (s_parse_option(argc, argv, &i, o))
                return 2;
        } else if (!o->path) {
            o->path = a;
        } else {
            fprintf(stderr, "hyeongse judge: one file at a time\n");
            return 2;
        }
    }
    if (!o->path) {
        s_usage(stderr);
        return 2;
    }
    if (!o->use_net && (o->net_path || o->backend)) {
        fprintf(stderr, "hyeongse judge: --net and --backend are for --engine net\n");
        return 2;
    }
    if (o->move_given && o->final_given) {
        fprintf(stderr, "hyeongse judge: --move N or --final, not both\n");
        return 2;
    }
    return 0;
}

/* Reads and parses o->path and builds game o->game_number: 0, 1 (unreadable or
 * broken input) or 2 (no such game: a usage error), after a message. */
static int s_load_game(const s_opts_t *o, s_judged_t *j)
{
    size_t len = 0;
    hs_error_t err = {0};
    hs_error_t rerr;
    /* 256 MiB: past the SGF reader's file limit, which then says so. */
    if (hs_buf_read_file(o->path, (size_t)256 << 20, &j->data, &len, &rerr)) {
        fprintf(stderr, "hyeongse judge: %s\n", rerr.msg);
        return 1;
    }
    j->col = hs_sgf_parse_ex(j->data, len, NULL, HS_SGF_RECOVER, &err);
    if (!j->col) {
        fprintf(stderr, "hyeongse judge: %s: %s\n", o->path, err.msg);
        return 1;
    }
    if (o->game_number > j->col->num_trees) {
        fprintf(stderr, "hyeongse judge: %s holds %d game(s); no game %d\n", o->path,
                j->col->num_trees, o->game_number);
        return 2;
    }
    const hs_sgf_tree_t *t = &j->col->trees[o->game_number - 1];
    if (t->status) {
        fprintf(stderr, "hyeongse judge: %s: %s\n", o->path, t->message);   /* says "game K" */
        return 1;
    }
    if (hs_game_from_sgf(t->root, &j->game, &err)) {
        fprintf(stderr, "hyeongse judge: %s: game %d: %s\n", o->path, o->game_number, err.msg);
        return 1;
    }
    return 0;
}

/* The rules and komi to count with: the record's, or inferred, or overridden.
 * 0, or 2 after a message for unknown rules. */
static int s_pick_rules(const s_opts_t *o, s_judged_t *j)
{
    const hs_game_t *g = &j->game;
    j->rules = g->rules;
    j->rules_source = g->rules_raw ? "RU" : "default";
    if (!g->rules_raw && g->komi_source == HS_KOMI_PLAIN && g->komi == 7.5) {
        /* No RU but komi 7.5: the Chinese convention (AlphaGo games, Tom). */
        j->rules = hs_rules_get(HS_RULES_CHINESE);
        j->rules_source = "inferred from komi 7.5";
    }
    if (o->rules_name) {
        j->rules_source = "override";
        if (hs_rules_from_name(o->rules_name, &j->rules)) {
            fprintf(stderr, "hyeongse judge: unknown rules '%s'\n", o->rules_name);
            return 2;
        }
    }
    j->komi = o->have_komi ? o->komi : g->komi;
    j->komi_source = o->have_komi ? HS_KOMI_OVERRIDE : g->komi_source;
    return 0;
}

static int s_influence_and_score(const s_opts_t *o, s_judged_t *j);

/* --engine net: the net's output for the replayed position, then the net
 * judge (final thresholds at the record's last position, the mid-game
 * config before it). 0, or 1 after a message (2 for a bad --backend, or no
 * --net and no default model). */
static int s_judge_net(const s_opts_t *o, s_judged_t *j)
{
    hs_error_t err = {0};
    hs_nn_backend_config_t bc = { .kind = hs_nn_backend_default(), .max_batch = 1 };
    if (o->backend && hs_nn_backend_parse(o->backend, &bc.kind, &err)) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        return 2;
    }
    j->npos = malloc(sizeof *j->npos);
    j->nout = malloc(sizeof *j->nout);
    if (!j->npos || !j->nout) { fprintf(stderr, "hyeongse judge: out of memory\n"); return 1; }
    /* --engine net without --net: the default model */
    char def[4096];
    const char *net = o->net_path;
    int rc = net ? 0 : hs_nn_default_model_path(def, sizeof def, &err);
    if (rc < 0) {   /* no model to run: the command needs --net, as a usage error */
        fprintf(stderr, "hyeongse judge: --engine net: %s\n", err.msg);
        return rc == HS_ENOTFOUND ? 2 : 1;
    }
    if (!net)
        net = def;
    if (hs_nn_model_load(net, &j->model, &err) ||
        hs_nn_evaluator_create(j->model, &bc, &j->ev, &err) ||
        hs_nn_game_pos_at(&j->game, j->b.move_number, j->rules.id, j->komi, j->game.handicap,
                            j->npos, &err) ||
        hs_nn_evaluate(j->ev, &j->npos->nn, 1, 0, j->nout, &err)) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        return 1;
    }
    hs_judge_config_t cfg;
    if (j->b.move_number >= j->game.num_moves) hs_judge_net_config_final(&cfg);
    else hs_judge_net_config_midgame(&cfg);
    if (hs_judge_net_compute(&j->b, j->nout, &cfg, j->judge, &err)) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* Replays to the asked move and judges it: classes, score, influence. 0, 1 after
 * a message, or 2 for a move past the game's end (a usage error). */
static int s_judge_position(const s_opts_t *o, s_judged_t *j)
{
    const hs_game_t *g = &j->game;
    hs_error_t err = {0};
    if (o->move > g->num_moves) {
        fprintf(stderr, "hyeongse judge: %s: game %d has %d moves; no move %d\n", o->path,
                o->game_number, g->num_moves, o->move);
        return 2;
    }
    if (hs_game_replay(g, o->move, &j->b, &err)) {
        /* The final position asked for: judge what could be replayed, the
         * position before the illegal move. A move asked for by number that
         * lies past it cannot be judged, and another would pass for it. */
        if (o->move_given) {
            fprintf(stderr, "hyeongse judge: %s: %s: no position after move %d (--move %d "
                    "judges the last one)\n", o->path, err.msg, o->move, j->b.move_number);
            return 1;
        }
        fprintf(stderr, "hyeongse judge: %s: %s (judging the position before it)\n", o->path, err.msg);
    }
    j->stab = malloc(sizeof *j->stab);
    j->judge = malloc(sizeof *j->judge);
    j->inf = malloc(sizeof *j->inf);
    if (!j->stab || !j->judge || !j->inf) { fprintf(stderr, "hyeongse judge: out of memory\n"); return 1; }
    if (!o->no_stab) {
        j->reader = hs_reader_new(NULL);
        if (!j->reader) { fprintf(stderr, "hyeongse judge: out of memory\n"); return 1; }
        hs_stability_compute(&j->b, NULL, j->reader, j->stab, NULL);
    }
    /* The judge uses its own eye analysis: the stability map made it worse on
     * the archives' final positions (docs/JUDGE.md); stability weighs SI only.
     * A finished game's last position gets the Monte-Carlo dead-stone test;
     * earlier positions the static rules without the relaxed kill (judge.h). */
    hs_judge_config_t jcfg;
    if (j->b.move_number >= g->num_moves) {
        hs_judge_config_final(&jcfg);
    } else {
        /* Mid-game, as the "judge" engine of analyze: a fight is unsettled. */
        hs_judge_config_default(&jcfg);
        jcfg.relaxed_kill = false;
    }
    int rc = o->use_net ? s_judge_net(o, j)
                        : hs_judge_compute(&j->b, NULL, &jcfg, j->judge, &err);
    if (rc > 0)
        return rc;
    if (rc) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        return 1;
    }
    return s_influence_and_score(o, j);
}

/* Park's influence of the judged position, and its territory and area scores. */
static int s_influence_and_score(const s_opts_t *o, s_judged_t *j)
{
    const hs_game_t *g = &j->game;
    hs_error_t err = {0};
    /* Influence weights: the group stability, 0 for stones judged dead. */
    float w[HS_BOARD_MAX_POINTS];
    for (int p = 0; p < HS_BOARD_MAX_POINTS; p++)
        w[p] = j->judge->weight[p] == 0.0f ? 0.0f : (o->no_stab ? 1.0f : j->stab->point[p]);
    if (hs_influence_compute(&j->b, o->no_stab ? NULL : w, o->tau, j->inf, &err)) {
        fprintf(stderr, "hyeongse judge: %s\n", err.msg);
        return 1;
    }
    hs_rules_t area_rules = hs_rules_get(HS_RULES_CHINESE);
    const bool area = j->rules.scoring == HS_SCORING_AREA;
    j->s_terr = hs_judge_score_territory(j->judge, &j->b, j->komi);
    j->s_area = hs_judge_score_area(j->judge, j->komi, hs_judge_handicap_bonus(
        area ? &j->rules : &area_rules, g->handicap));
    hs_judge_result_string(area ? j->s_area : j->s_terr, j->res);
    hs_result_format(&g->result, j->rec);
    return 0;
}

static void s_print_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        if ((unsigned char)*s >= 0x20) putchar(*s);
    }
    putchar('"');
}

/* The "influence" object of the JSON output (SI null on stones). */
static void s_print_json_influence(const s_opts_t *o, const s_judged_t *j)
{
    const hs_influence_t *inf = j->inf;
    const int n = j->b.size;
    printf("\"influence\":{\"tau\":%d,\"si\":[", o->tau);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            hs_point_t p = hs_board_point(&j->b, x, y);
            if (x || y) putchar(',');
            if (j->b.color[p] == HS_EMPTY) printf("%d", inf->si[p]);
            else printf("null");
        }
    printf("],\"ip_black\":%d,\"ip_white\":%d,\"ia_black\":%d,\"ia_white\":%d,"
           "\"lumps_black\":%d,\"lumps_white\":%d,\"cores_black\":%d,\"cores_white\":%d,"
           "\"territory_black\":%d,\"territory_white\":%d,\"score_black\":%d,\"score_white\":%d}",
           inf->ip_count[HS_BLACK], inf->ip_count[HS_WHITE], inf->ia_count[HS_BLACK],
           inf->ia_count[HS_WHITE], inf->lump_count[HS_BLACK], inf->lump_count[HS_WHITE],
           inf->core_count[HS_BLACK], inf->core_count[HS_WHITE],
           inf->territory_count[HS_BLACK], inf->territory_count[HS_WHITE],
           inf->score[HS_BLACK], inf->score[HS_WHITE]);
}

static void s_print_json(const s_opts_t *o, const s_judged_t *j)
{
    const hs_judge_t *jd = j->judge;
    const int n = j->b.size;
    printf("{\"file\":");
    s_print_json_string(o->path);
    printf(",\"game\":%d,\"size\":%d,\"move\":%d,\"rules\":\"%s\",\"rules_source\":\"%s\",\"scoring\":\"%s\","
           "\"komi\":%g,\"komi_source\":\"%s\",\"handicap\":%d,\"result\":\"%s\","
           "\"recorded_result\":\"%s\",\"score_territory\":%g,\"score_area\":%g,"
           "\"captures_black\":%d,\"captures_white\":%d,\"stability\":%s,\"engine\":\"%s\",",
           o->game_number, n, j->b.move_number, j->rules.name, j->rules_source,
           j->rules.scoring == HS_SCORING_AREA ? "area" : "territory", j->komi,
           s_komi_source_name(j->komi_source), j->game.handicap, j->res, j->rec, j->s_terr,
           j->s_area, j->b.captures[HS_BLACK], j->b.captures[HS_WHITE], o->no_stab ? "false" : "true",
           o->use_net ? "net" : "static");
    if (o->use_net)
        printf("\"net\":\"%s\",\"net_lead\":%.2f,", j->model->hash, hs_judge_net_lead(j->nout));
    printf("\"classes\":\"");
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) putchar(hs_judge_class_letters[jd->cls[hs_board_point(&j->b, x, y)]]);
    printf("\",\"counts\":{\"black_territory\":%d,\"white_territory\":%d,\"black_alive\":%d,"
           "\"white_alive\":%d,\"black_dead\":%d,\"white_dead\":%d,\"dame\":%d,\"seki\":%d},",
           jd->count[HS_JC_BLACK_TERRITORY], jd->count[HS_JC_WHITE_TERRITORY],
           jd->count[HS_JC_BLACK_ALIVE], jd->count[HS_JC_WHITE_ALIVE],
           jd->count[HS_JC_BLACK_DEAD], jd->count[HS_JC_WHITE_DEAD],
           jd->count[HS_JC_DAME], jd->count[HS_JC_SEKI]);
    printf("\"ownership\":[");
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            printf("%s%g", x || y ? "," : "", jd->ownership[hs_board_point(&j->b, x, y)]);
    printf("],");
    s_print_json_influence(o, j);
    printf("}\n");
}

/* The position and its classes side by side, rows numbered from the top. */
static void s_print_boards(const s_judged_t *j)
{
    static const char cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    const int n = j->b.size;
    printf("    ");
    for (int x = 0; x < n; x++) printf(" %c", cols[x]);
    printf("        ");
    for (int x = 0; x < n; x++) printf(" %c", cols[x]);
    printf("\n");
    for (int y = 0; y < n; y++) {
        printf("%3d ", n - y);
        for (int x = 0; x < n; x++) {
            int c = j->b.color[hs_board_point(&j->b, x, y)];
            printf(" %c", c == HS_BLACK ? 'X' : c == HS_WHITE ? 'O' : '.');
        }
        printf("    %3d ", n - y);
        for (int x = 0; x < n; x++) printf(" %c", hs_judge_class_letters[j->judge->cls[hs_board_point(&j->b, x, y)]]);
        printf("\n");
    }
}

static void s_print_text(const s_opts_t *o, const s_judged_t *j)
{
    const hs_judge_t *jd = j->judge;
    const hs_influence_t *inf = j->inf;
    const int n = j->b.size;
    printf("%s, game %d, after move %d (%dx%d)\n", o->path, o->game_number, j->b.move_number, n, n);
    printf("rules %s (%s, %s scoring), komi %g (%s, KM %s), handicap %d\n\n", j->rules.name,
           j->rules_source, j->rules.scoring == HS_SCORING_AREA ? "area" : "territory", j->komi,
           s_komi_source_name(j->komi_source), j->game.komi_raw ? j->game.komi_raw : "absent",
           j->game.handicap);
    s_print_boards(j);
    printf("\nclasses: X O live, x o dead, b w territory, . dame, s seki\n");
    printf("black: territory %d, dead white %d, captures %d, live stones %d\n",
           jd->count[HS_JC_BLACK_TERRITORY], jd->count[HS_JC_WHITE_DEAD],
           j->b.captures[HS_BLACK], jd->count[HS_JC_BLACK_ALIVE]);
    printf("white: territory %d, dead black %d, captures %d, live stones %d\n",
           jd->count[HS_JC_WHITE_TERRITORY], jd->count[HS_JC_BLACK_DEAD],
           j->b.captures[HS_WHITE], jd->count[HS_JC_WHITE_ALIVE]);
    printf("dame %d, seki points %d; territory points the owner must fill (not counted): "
           "black %d, white %d\n", jd->count[HS_JC_DAME], jd->count[HS_JC_SEKI],
           jd->must_fill[HS_BLACK], jd->must_fill[HS_WHITE]);
    char t1[16], t2[16];
    printf("score (Black - White, komi included): territory %s, area %s\n",
           hs_judge_result_string(j->s_terr, t1), hs_judge_result_string(j->s_area, t2));
    printf("result under %s rules: %s   (recorded: %s)\n", j->rules.name, j->res, j->rec);
    if (o->use_net) {
        char t3[16];
        printf("dead stones from the net %s; its own score lead: %s\n", j->model->hash,
               hs_judge_result_string(round(10.0 * hs_judge_net_lead(j->nout)) / 10.0, t3));
    }
    printf("influence (tau %d, %s): IP black %d white %d, IA black %d white %d, "
           "Park score black %d white %d\n", o->tau, o->no_stab ? "every stone weighs 1" : "stability-weighted",
           inf->ip_count[HS_BLACK], inf->ip_count[HS_WHITE], inf->ia_count[HS_BLACK],
           inf->ia_count[HS_WHITE], inf->score[HS_BLACK], inf->score[HS_WHITE]);
}

static void s_judged_fini(s_judged_t *j)
{
    hs_reader_destroy(&j->reader);
    free(j->stab);
    free(j->judge);
    free(j->inf);
    hs_nn_evaluator_free(&j->ev);
    hs_nn_model_free(&j->model);
    free(j->npos);
    free(j->nout);
    hs_game_fini(&j->game);
    hs_sgf_destroy(&j->col);
    free(j->data);
}

int hs_cmd_judge(int argc, char **argv)
{
    s_opts_t o;
    int status = s_parse_args(argc, argv, &o);
    if (status)
        return status == 1 ? 0 : status;
    s_judged_t j = {0};
    hs_game_init(&j.game, 19);
    status = s_load_game(&o, &j);
    if (!status) status = s_pick_rules(&o, &j);
    if (!status) status = s_judge_position(&o, &j);
    if (!status) {
        if (o.json) s_print_json(&o, &j);
        else s_print_text(&o, &j);
    }
    s_judged_fini(&j);
    return status;
}
