/*
 * cli/cmd_report.c — `hyeongse report`: the store's games as a static HTML
 * report with pictures, tables, CSV, JSON and annotated SGF
 * (reports/report.h). Reads the store read-only, under the fault guard like
 * `query`, with a progress bar on a terminal.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "fault_guard.h"
#include "reports/report.h"
#include "sgf_file.h"
#include "store/store.h"

const char hs_cmd_report_summary[] = "write an HTML report (graphs, maps, tables, CSV, JSON, annotated SGF)";

static void s_usage(FILE *out)
{
    fprintf(out,
        "usage: hyeongse report --db DIR (--game ID | --player NAME | --job ID | --all)\n"
        "                       --out DIR [--format LIST] [--moves LIST] [--width PX]\n"
        "                       [--board FILE.sgf --move N [--sgf-game K]] [--quiet]\n"
        "\n"
        "Writes OUT/index.html (tables, histograms, the games), OUT/games/ID.html per game\n"
        "(win-rate and score-lead graphs, mistakes, maps), OUT/games/ID.sgf (annotated),\n"
        "OUT/csv/*.csv and OUT/report.json (every table, and a row per game). The pages\n"
        "are static and open offline. Use an empty OUT for each report: an earlier\n"
        "report's files of other games are left there (a warning counts them).\n"
        "\n"
        "  --game ID        one game (32 hex digits, as `query` prints them)\n"
        "  --player NAME    every game NAME played (exact name)\n"
        "  --job ID         every game of a job, at the positions of its --moves\n"
        "                   (`hyeongse status` lists jobs)\n"
        "  --all            every game in the store\n"
        "  --format LIST    html,svg,png,csv,json,sgf or all (default html,csv,json,sgf;\n"
        "                   svg and png also write every picture as a file)\n"
        "  --moves LIST     moves whose maps are drawn, \"end\" for the last\n"
        "                   (default 50,100,150,end)\n"
        "  --width PX       a map's width in pixels (default 300)\n"
        "  --board FILE     the position explorer: game K (--sgf-game K, default 1) of\n"
        "                   the SGF file after --move N moves, looked up in the board\n"
        "                   index in every orientation: the moves played next and the\n"
        "                   games that reached it (with a selection above, its games)\n"
        "  --quiet          no progress bar\n");
}

typedef struct s_opts {
    const char *db, *board_file;
    int board_move, sgf_game;   /* -1: not given; sgf_game 1 = the first */
    bool quiet, help;
    hs_report_select_t sel;
    hs_report_opts_t o;
} s_opts_t;

/* "50,100,end" into o->moves (the caller words the one message). */
static int s_moves(const char *list, hs_report_opts_t *o)
{
    o->num_moves = 0;
    for (const char *s = list;;) {
        size_t n = strcspn(s, ",");
        char word[16];
        if (n == 0 || n >= sizeof word || o->num_moves == HS_REPORT_MAX_MOVES)
            return -1;
        memcpy(word, s, n);
        word[n] = '\0';
        char *end;
        long v = strtol(word, &end, 10);
        if (!strcmp(word, "end"))
            o->moves[o->num_moves++] = HS_REPORT_MOVE_END;
        else if (word[0] >= '0' && word[0] <= '9' && !*end && v <= 65535)
            o->moves[o->num_moves++] = (int)v;
        else
            return -1;
        if (!s[n])
            return 0;
        s += n + 1;
    }
}

static int s_parse(int argc, char **argv, s_opts_t *p)
{
    hs_error_t err = { 0 };
    long job = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { p->help = true; takes = false; }
        else if (!strcmp(a, "--all")) { p->sel.all = true; takes = false; }
        else if (!strcmp(a, "--quiet")) { p->quiet = true; takes = false; }
        else if (!v) { fprintf(stderr, "hyeongse report: %s needs a value\n", a); return -1; }
        else if (!strcmp(a, "--db")) p->db = v;
        else if (!strcmp(a, "--out")) p->o.out_dir = v;
        else if (!strcmp(a, "--game")) p->sel.game_hex = v;
        else if (!strcmp(a, "--player")) p->sel.player = v;
        else if (!strcmp(a, "--board")) p->board_file = v;
        else if (!strcmp(a, "--job")) {
            if (hs__cli_long("report", a, v, 1, LONG_MAX, &job) < 0)
                return -1;
            p->sel.job = (uint64_t)job;
        } else if (!strcmp(a, "--move")) {
            if (hs__cli_int("report", a, v, 0, 65535, &p->board_move) < 0)
                return -1;
        } else if (!strcmp(a, "--sgf-game")) {
            if (hs__cli_int("report", a, v, 1, INT_MAX, &p->sgf_game) < 0)
                return -1;
        } else if (!strcmp(a, "--width")) {
            if (hs__cli_int("report", a, v, 100, 4000, &p->o.board_px) < 0)
                return -1;
        } else if (!strcmp(a, "--format")) {
            if (hs_report_formats_parse(v, &p->o.formats, &err) < 0) {
                fprintf(stderr, "hyeongse report: %s\n", err.msg);
                return -1;
            }
        } else if (!strcmp(a, "--moves")) {
            if (s_moves(v, &p->o) < 0) {
                fprintf(stderr, "hyeongse report: --moves takes up to %d move numbers or "
                        "\"end\", comma-separated, not '%s'\n", HS_REPORT_MAX_MOVES, v);
                return -1;
            }
        } else {
            fprintf(stderr, "hyeongse report: unknown option '%s' (see --help)\n", a);
            return -1;
        }
        i += takes;
    }
    return 0;
}

/* A bar on stderr, redrawn at most every 1% (and at the end). */
static void s_progress(void *ctx, int64_t done, int64_t total)
{
    int64_t *last = ctx;
    int64_t pct = total ? done * 100 / total : 100;
    if (pct == *last && done != total)
        return;
    *last = pct;
    int bar = (int)(pct * 30 / 100);
    fprintf(stderr, "\rreport [%.*s%*s] %3lld%%  %lld/%lld games", bar,
            "==============================", 30 - bar, "", (long long)pct, (long long)done,
            (long long)total);
    if (done == total)
        fputc('\n', stderr);
}

typedef struct s_run {
    s_opts_t *p;
    hs_report_summary_t sum;
} s_run_t;

static int s_run(void *ctx, hs_error_t *err)
{
    s_run_t *r = ctx;
    hs_store_t *s = NULL;
    int rc = hs_store_open(&s, r->p->db, HS_STORE_RDONLY, 0, err);
    if (rc == HS_ENOTFOUND)
        return hs_error_set(err, rc, "no store in %s", r->p->db);
    if (rc == 0)
        rc = hs_report_run(s, &r->p->sel, &r->p->o, &r->sum, err);
    hs_store_close(&s);
    return rc;
}

/* The summary line: what was written. A position explorer alone writes no
 * game pages: it says how many games reached the board (the page lists them)
 * rather than "0 games". Then the warning about an earlier report's files. */
static void s_summary(const s_opts_t *p, const hs_report_summary_t *sum)
{
    const char *open = (p->o.formats == 0 || (p->o.formats & HS_REPORT_HTML))
                           ? " (open index.html)" : "";
    bool explorer_only = p->o.board && !p->sel.game_hex && !p->sel.player && !p->sel.job &&
                         !p->sel.all;
    if (explorer_only)
        fprintf(stderr, "report: position explorer: %lld game%s reached this board; "
                "0 game pages, %lld pictures, %lld files in %s%s\n",
                (long long)sum->board_games, sum->board_games == 1 ? "" : "s",
                (long long)sum->pictures, (long long)sum->files, p->o.out_dir, open);
    else
        fprintf(stderr, "report: %lld games, %lld failed, %lld pictures, %lld files in %s%s\n",
                (long long)sum->games, (long long)sum->failed, (long long)sum->pictures,
                (long long)sum->files, p->o.out_dir, open);
    if (p->o.board && !explorer_only)
        fprintf(stderr, "report: position explorer: %lld game%s reached this board\n",
                (long long)sum->board_games, sum->board_games == 1 ? "" : "s");
    /* Nothing is deleted (the folder may hold files that are not ours): say
     * so, or the earlier report's pages pass for this one's. */
    if (sum->stale_games > 0)
        fprintf(stderr, "hyeongse report: warning: %s holds an earlier report: %lld game%s "
                "of it (%lld files under games/, svg/, png/) %s not part of this one and "
                "not in its index.html; use an empty folder for each report\n",
                p->o.out_dir, (long long)sum->stale_games, sum->stale_games == 1 ? "" : "s",
                (long long)sum->stale_files, sum->stale_games == 1 ? "is" : "are");
}

int hs_cmd_report(int argc, char **argv)
{
    s_opts_t p = { .board_move = -1, .sgf_game = -1 };
    if (s_parse(argc, argv, &p) < 0)
        return 2;
    if (p.help) {
        s_usage(stdout);
        return 0;
    }
    if (!p.db || !p.o.out_dir) {
        fprintf(stderr, "hyeongse report: --db DIR and --out DIR are needed (see --help)\n");
        return 2;
    }
    hs_error_t err = { 0 };
    hs_board_t board;
    char board_name[600];
    if (!p.board_file && (p.board_move >= 0 || p.sgf_game >= 0)) {
        fprintf(stderr, "hyeongse report: --move and --sgf-game go with --board FILE\n");
        return 2;
    }
    if (p.board_file) {
        if (p.sgf_game < 0)
            p.sgf_game = 1;
        if (p.board_move < 0) {
            fprintf(stderr, "hyeongse report: --board needs --move N\n");
            return 2;
        }
        if (hs__cli_sgf_board(p.board_file, p.sgf_game - 1, p.board_move, &board, &err) < 0) {
            fprintf(stderr, "hyeongse report: %s\n", err.msg);
            return 2;
        }
        snprintf(board_name, sizeof board_name, "%s after move %d", p.board_file, p.board_move);
        p.o.board = &board;
        p.o.board_name = board_name;
    }
    int64_t last = -1;
    if (!p.quiet && isatty(STDERR_FILENO)) {
        p.o.progress = s_progress;
        p.o.progress_ctx = &last;
    }
    s_run_t r = { .p = &p };
    int rc = hs_cli_guarded(s_run, &r, p.db, true, &err);
    if (rc < 0) {
        fprintf(stderr, "hyeongse report: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
        return rc == HS_EINVAL ? 2 : 1;
    }
    s_summary(&p, &r.sum);
    return 0;
}
