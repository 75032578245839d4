/*
 * bench/bench_judge_final.c — how often the judge's score of a FINAL position
 * equals the result recorded in RE, over the shared archives. Run through
 * bench/judge_final.sh, which also runs GNU Go on a sample of the same games.
 *
 * usage: bench_judge_final [--sample-dir DIR] [--sample N] [--stability [--reader]]
 *                          [--playouts N] [--mc-dead T] [--mc-shut-max T] [--failures N] [--dump FILE]
 *                          [--dump-errors FILE] [--boards FILE [--boards-min E]]
 *                          ARCHIVE...
 *
 * --dump FILE writes one tab-separated line per judged game (--dump-errors
 * FILE: only the games not scored exactly): part, source, rules, komi,
 * handicap, recorded margin, judged score, score under the other scoring,
 * captures by Black and White, dead black and white stones, dame, moves,
 * must-fill points of Black and White, seki eyes of Black and White.
 * --boards FILE prints every game not scored exactly (with --boards-min E:
 * only those off by E points or more; E < 0: every game) as a board of the judge's class letters
 * (must-fill points: 1 Black's, 2 White's) under a header with the source,
 * error, captures and must-fill counts: the
 * material for finding what the judge gets wrong.
 *
 * Default: hs_judge_config_final (eye analysis plus 256 tactical playouts,
 * majority ownership decides; no stability map), the
 * configuration that scores best on these archives (see docs/JUDGE.md).
 * --playouts 0 gives the static rules alone.
 *
 * Which games count (the filter, exactly):
 *   - RE is a counted result "B+n"/"W+n" with n > 0 (RE[B+0.0]-style Fox values
 *     are not counted results; resignations, time, "?" and jigo are skipped);
 *   - not a Fox record (source path holds "fox-"): Fox KM is written as integer
 *     codes, KM[0] for games whose real komi was not 0, results sometimes in zi,
 *     and no RU (see shared/data/SOURCES.md: "Do not trust KM[0]");
 *   - not from sgf-edge/ (parser edge cases, not games);
 *   - the game replays without an illegal move.
 * Every such game is judged under the record's rules (RU, default japanese) and
 * komi (KM, default per rules); the score is compared with the signed RE margin.
 *
 * With --sample-dir, the first N (default 150) eligible games of parts kgs,
 * kgs-counted and 9x9, in order of game id (a deterministic, source-independent
 * shuffle), are written there as plain SGF (DIR/NNN.sgf) with DIR/list.tsv:
 *   file  part  rules(area|territory)  recorded_margin  judge_score
 * for the GNU Go side of judge_final.sh.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/board.h"
#include "core/game.h"
#include "game_sgf.h"
#include "ingest/ingest.h"
#include "worker/judge.h"
#include "worker/stability.h"
#include "worker/tactics.h"

#define MAX_PARTS 16

typedef struct part_stats {
    char name[32];
    int games, exact, within1;
    int alt_exact;      /* exact under the other scoring method (diagnostic) */
} part_stats_t;

typedef struct sample_game {
    uint64_t id0;
    char part[32];
    bool area;
    double recorded, judged;
    char *sgf;
} sample_game_t;

typedef struct ctx {
    bool use_stab, use_reader;
    hs_judge_config_t jcfg;
    hs_reader_t *reader;
    int games_seen, skipped_result, skipped_fox, skipped_edge, skipped_replay;
    int judged, exact, within1;
    int hist[23];            /* error buckets: <= -10, -10 < e <= -9.5 ... (see s_bucket) */
    double seconds;
    part_stats_t parts[MAX_PARTS];
    int num_parts;
    sample_game_t *sample;
    int num_sample, cap_sample;
    int failures_to_print, failures_printed;
    FILE *dump;              /* --dump FILE: one line per judged game */
    bool dump_errors;        /* --dump-errors FILE: the same, only games not exact */
    FILE *boards;            /* --boards FILE: the judged board of every game not exact */
    double boards_min;       /* --boards-min E: only those with |error| >= E */
    hs_stability_t stab;
    hs_judge_t judge;
} ctx_t;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "amateur19/kgs-counted/..." -> "kgs-counted"; "9x9/..." -> "9x9". */
static void s_part(const char *source, char *out, size_t n)
{
    const char *s = strstr(source, ".tar.gz:");
    s = s ? s + 8 : source;
    if (!strncmp(s, "9x9/", 4)) { snprintf(out, n, "9x9"); return; }
    const char *slash = strchr(s, '/');
    if (slash) {
        const char *start = slash + 1, *end = strchr(start, '/');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        if (len >= n) len = n - 1;
        memcpy(out, start, len);
        out[len] = 0;
        return;
    }
    snprintf(out, n, "other");
}

/* Error buckets of width 1 centred on integers -10..10, plus the two tails. */
static int s_bucket(double e)
{
    if (e < -10.5) return 0;
    if (e >= 10.5) return 22;
    return (int)floor(e + 10.5) + 1;
}

/* One misjudged game for --boards: header, then the board with the judge's
 * class letters (X O live, x o dead, b w territory, . dame, s seki), with the
 * must-fill counts and the captures: what a person needs to see why. */
static void s_print_board(FILE *f, const char *source, const char *rules, double komi, int handicap,
                          double recorded, double judged, const hs_board_t *b, const hs_judge_t *j)
{
    fprintf(f, "== %s  %s komi %g ha %d  recorded %+g judged %+g error %+g  caps B%d W%d  "
               "must_fill B%d W%d  seki_eye B%d W%d\n", source, rules, komi, handicap, recorded, judged,
            judged - recorded, b->captures[HS_BLACK], b->captures[HS_WHITE], j->must_fill[HS_BLACK],
            j->must_fill[HS_WHITE], j->seki_eye[HS_BLACK], j->seki_eye[HS_WHITE]);
    for (int y = 0; y < b->size; y++) {
        fprintf(f, "  %2d ", b->size - y);
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            /* must-fill points: 1 Black's, 2 White's */
            int mf = j->must_fill_at[p];
            fprintf(f, " %c", mf ? (char)('0' + mf) : hs_judge_class_letters[j->cls[p]]);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "      ");
    for (int x = 0; x < b->size; x++) fprintf(f, " %c", "ABCDEFGHJKLMNOPQRSTUVWXYZ"[x]);
    fprintf(f, "\n");
}

static int s_on_game(void *vctx, const char *source, int index, hs_game_t *g)
{
    ctx_t *c = vctx;
    c->games_seen++;
    if (g->result.kind != HS_RESULT_POINTS || g->result.margin <= 0 ||
        (g->result.winner != HS_WINNER_BLACK && g->result.winner != HS_WINNER_WHITE)) {
        c->skipped_result++;
        return 0;
    }
    if (strstr(source, "fox-")) { c->skipped_fox++; return 0; }
    if (strstr(source, "sgf-edge")) { c->skipped_edge++; return 0; }
    double t0 = s_now();
    hs_board_t b;
    if (hs_game_replay(g, -1, &b, NULL)) { c->skipped_replay++; return 0; }
    /* Records without RU: komi 7.5 is the Chinese convention (AlphaGo games, Tom),
     * anything else is read as Japanese (game.h's default). */
    hs_rules_t rules = g->rules;
    if (!g->rules_raw && fabs(g->komi - 7.5) < 1e-9)
        rules = hs_rules_get(HS_RULES_CHINESE);
    int handicap = g->handicap;  /* HA, or black-only setup stones (core/game.h) */
    const hs_stability_t *sp = NULL;
    if (c->use_stab) {
        hs_stability_compute(&b, NULL, c->use_reader ? c->reader : NULL, &c->stab, NULL);
        sp = &c->stab;
    }
    hs_judge_compute(&b, sp, &c->jcfg, &c->judge, NULL);
    double score = hs_judge_score(&c->judge, &b, &rules, g->komi, handicap);
    hs_rules_t other = hs_rules_get(rules.scoring == HS_SCORING_AREA ? HS_RULES_JAPANESE : HS_RULES_CHINESE);
    double alt = hs_judge_score(&c->judge, &b, &other, g->komi, handicap);
    c->seconds += s_now() - t0;
    double recorded = g->result.winner == HS_WINNER_BLACK ? g->result.margin : -g->result.margin;
    double e = score - recorded;
    char part[32];
    s_part(source, part, sizeof part);
    part_stats_t *ps = NULL;
    for (int i = 0; i < c->num_parts; i++)
        if (!strcmp(c->parts[i].name, part)) ps = &c->parts[i];
    if (!ps && c->num_parts < MAX_PARTS) {
        ps = &c->parts[c->num_parts++];
        snprintf(ps->name, sizeof ps->name, "%s", part);
    }
    bool exact = fabs(e) < 1e-6, w1 = fabs(e) <= 1.0 + 1e-6;
    if (c->dump && !(c->dump_errors && exact))
        fprintf(c->dump, "%s\t%s\t%s\t%g\t%d\t%g\t%g\t%g\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n",
                part, source, rules.name, g->komi, g->handicap, recorded, score, alt, b.captures[HS_BLACK],
                b.captures[HS_WHITE], c->judge.count[HS_JC_BLACK_DEAD], c->judge.count[HS_JC_WHITE_DEAD],
                c->judge.count[HS_JC_DAME], g->num_moves, c->judge.must_fill[HS_BLACK],
                c->judge.must_fill[HS_WHITE], c->judge.seki_eye[HS_BLACK], c->judge.seki_eye[HS_WHITE]);
    if (c->boards && (c->boards_min < 0 || (!exact && fabs(e) >= c->boards_min - 1e-6)))
        s_print_board(c->boards, source, rules.name, g->komi, g->handicap, recorded, score, &b, &c->judge);
    c->judged++;
    c->exact += exact;
    c->within1 += w1;
    c->hist[s_bucket(e)]++;
    if (ps) { ps->games++; ps->exact += exact; ps->within1 += w1; ps->alt_exact += fabs(alt - recorded) < 1e-6; }
    if (!exact && c->failures_printed < c->failures_to_print) {
        char rs[16];
        printf("  miss: %s #%d  %s komi %g  recorded %s  judged %s\n", source, index, rules.name,
               g->komi, g->result_raw ? g->result_raw : "?", hs_judge_result_string(score, rs));
        c->failures_printed++;
    }
    if (c->cap_sample >= 0 && (!strcmp(part, "kgs") || !strcmp(part, "kgs-counted") || !strcmp(part, "9x9"))) {
        if (c->num_sample == c->cap_sample) {
            int nc = c->cap_sample ? c->cap_sample * 2 : 256;
            sample_game_t *ns = realloc(c->sample, sizeof *ns * (size_t)nc);
            if (!ns) return 0;
            c->sample = ns;
            c->cap_sample = nc;
        }
        sample_game_t *sg = &c->sample[c->num_sample++];
        sg->id0 = g->id[0];
        snprintf(sg->part, sizeof sg->part, "%s", part);
        sg->area = rules.scoring == HS_SCORING_AREA;
        sg->recorded = recorded;
        sg->judged = score;
        sg->sgf = hs_bench_game_sgf(g);
    }
    return 0;
}

static int s_cmp_sample(const void *a, const void *b)
{
    uint64_t x = ((const sample_game_t *)a)->id0, y = ((const sample_game_t *)b)->id0;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    ctx_t *c = calloc(1, sizeof *c);
    if (!c) return 1;
    const char *sample_dir = NULL;
    int sample_n = 150;
    const char *paths[64];
    int npaths = 0;
    c->use_stab = false;
    hs_judge_config_final(&c->jcfg);
    c->cap_sample = -1;
    c->failures_to_print = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sample-dir") && i + 1 < argc) { sample_dir = argv[++i]; c->cap_sample = 0; }
        else if (!strcmp(argv[i], "--sample") && i + 1 < argc) sample_n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-stability")) c->use_stab = false;
        else if (!strcmp(argv[i], "--stability")) c->use_stab = true;
        else if (!strcmp(argv[i], "--reader")) c->use_reader = true;
        else if (!strcmp(argv[i], "--playouts") && i + 1 < argc) c->jcfg.playouts = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--mc-dead") && i + 1 < argc) c->jcfg.mc_dead = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--mc-shut-max") && i + 1 < argc) c->jcfg.mc_shut_max = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc) c->dump = fopen(argv[++i], "w");
        else if (!strcmp(argv[i], "--dump-errors") && i + 1 < argc) {
            c->dump = fopen(argv[++i], "w");
            c->dump_errors = true;
        }
        else if (!strcmp(argv[i], "--boards") && i + 1 < argc) c->boards = fopen(argv[++i], "w");
        else if (!strcmp(argv[i], "--boards-min") && i + 1 < argc) c->boards_min = atof(argv[++i]);
        else if (!strcmp(argv[i], "--failures") && i + 1 < argc) c->failures_to_print = atoi(argv[++i]);
        else if (npaths < 64) paths[npaths++] = argv[i];
    }
    if (!npaths) {
        fprintf(stderr, "usage: bench_judge_final [--sample-dir DIR] [--sample N] [--stability [--reader]] "
                        "[--playouts N] [--mc-dead T] [--mc-shut-max T] [--failures N] [--dump FILE] [--dump-errors FILE] [--boards FILE [--boards-min E]] ARCHIVE...\n");
        return 2;
    }
    if (c->use_reader) c->reader = hs_reader_new(NULL);
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.on_game = s_on_game;
    o.ctx = c;
    hs_ingest_report_t rep;
    hs_error_t err = {0};
    int rc = hs_ingest_run(paths, npaths, &o, &rep, &err);
    hs_ingest_report_fini(&rep);
    if (rc) { fprintf(stderr, "ingest: %s\n", err.msg); return 1; }

    printf("judge_final: %d games read; skipped: %d without a counted result, %d Fox (untrusted KM/RU), "
           "%d sgf-edge, %d not replayable\n", c->games_seen, c->skipped_result, c->skipped_fox,
           c->skipped_edge, c->skipped_replay);
    char mode[48];
    snprintf(mode, sizeof mode, c->jcfg.playouts ? ", %d playouts" : ", no playouts", c->jcfg.playouts);
    printf("judge (%s%s): %d games judged, exact %.1f%%, within 1 point %.1f%%, %.3f ms per game "
           "(replay + %sjudgment)\n", c->use_stab ? (c->use_reader ? "stability + reader" : "stability, no reader")
           : "eye analysis", mode, c->judged, 100.0 * c->exact / (c->judged ? c->judged : 1),
           100.0 * c->within1 / (c->judged ? c->judged : 1), 1000.0 * c->seconds / (c->judged ? c->judged : 1),
           c->use_stab ? "stability + " : "");
    for (int i = 0; i < c->num_parts; i++) {
        part_stats_t *p = &c->parts[i];
        printf("  %-14s %5d games  exact %5.1f%%  within 1 %5.1f%%   (exact under the other scoring: %.1f%%)\n",
               p->name, p->games, 100.0 * p->exact / p->games, 100.0 * p->within1 / p->games,
               100.0 * p->alt_exact / p->games);
    }
    printf("error distribution (judged - recorded, points, Black minus White):\n ");
    for (int i = 0; i < 23; i++) {
        if (!c->hist[i]) continue;
        if (i == 0) printf(" <-10:%d", c->hist[i]);
        else if (i == 22) printf(" >10:%d", c->hist[i]);
        else printf(" %+d:%d", i - 11, c->hist[i]);
    }
    printf("\n");
    if (sample_dir && c->num_sample) {
        qsort(c->sample, (size_t)c->num_sample, sizeof *c->sample, s_cmp_sample);
        int n = c->num_sample < sample_n ? c->num_sample : sample_n;
        char path[4096];
        snprintf(path, sizeof path, "%s/list.tsv", sample_dir);
        FILE *list = fopen(path, "w");
        if (!list) { fprintf(stderr, "cannot write %s\n", path); return 1; }
        for (int i = 0; i < n; i++) {
            sample_game_t *s = &c->sample[i];
            snprintf(path, sizeof path, "%s/%03d.sgf", sample_dir, i);
            FILE *f = fopen(path, "w");
            if (!f || !s->sgf) { fprintf(stderr, "cannot write %s\n", path); return 1; }
            fputs(s->sgf, f);
            fclose(f);
            fprintf(list, "%03d.sgf\t%s\t%s\t%g\t%g\n", i, s->part, s->area ? "area" : "territory",
                    s->recorded, s->judged);
        }
        fclose(list);
        printf("sample: %d of %d eligible kgs/kgs-counted/9x9 games (lowest game ids) written to %s\n",
               n, c->num_sample, sample_dir);
    }
    for (int i = 0; i < c->num_sample; i++) free(c->sample[i].sgf);
    free(c->sample);
    hs_reader_destroy(&c->reader);
    if (c->dump) fclose(c->dump);
    if (c->boards) fclose(c->boards);
    free(c);
    return 0;
}
