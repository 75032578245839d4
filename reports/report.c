/*
 * reports/report.c — `hyeongse report` (reports/report.h): the selection's game
 * ids, then one game at a time (load, count in the tables, its page and SGF,
 * its rows of the games table), then the tables as CSV and JSON, then
 * index.html; last, what an earlier report left in OUT is counted. A job's
 * report reads only the positions of the job's moves spec (s_job_scope).
 */
#include "reports/report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/poskey.h"
#include "reports/game_report.h"
#include "reports/html_internal.h"
#include "reports/stats.h"
#include "store/query.h"

static const struct { const char *name; unsigned bit; } s_formats[] = {
    { "html", HS_REPORT_HTML }, { "svg", HS_REPORT_SVG }, { "png", HS_REPORT_PNG },
    { "csv", HS_REPORT_CSV },   { "json", HS_REPORT_JSON }, { "sgf", HS_REPORT_SGF },
};

int hs_report_formats_parse(const char *list, unsigned *formats, hs_error_t *err)
{
    unsigned f = 0;
    for (const char *s = list ? list : "";;) {
        size_t n = strcspn(s, ",");
        bool ok = n == 3 && !memcmp(s, "all", 3);
        if (ok)
            f = HS_REPORT_HTML | HS_REPORT_SVG | HS_REPORT_PNG | HS_REPORT_CSV | HS_REPORT_JSON |
                HS_REPORT_SGF;
        for (size_t i = 0; !ok && i < sizeof s_formats / sizeof *s_formats; i++)
            if (strlen(s_formats[i].name) == n && !memcmp(s, s_formats[i].name, n)) {
                f |= s_formats[i].bit;
                ok = true;
            }
        if (!ok)
            return hs_error_set(err, HS_EINVAL, "unknown report format '%.*s' (html, svg, "
                                "png, csv, json, sgf or all)", (int)n, s);
        if (!s[n])
            break;
        s += n + 1;
    }
    *formats = f;
    return 0;
}

/* The selection's ids, grown as the store hands them over. */
typedef struct s_ids {
    uint64_t (*id)[2];
    int64_t n, cap;
    uint64_t job;            /* keep only this job's games (0 = all) */
    hs_store_t *store;
} s_ids_t;

static int s_add_id(void *ctx, const uint64_t id[2])
{
    s_ids_t *ids = ctx;
    if (ids->n == ids->cap) {
        int64_t cap = ids->cap ? ids->cap * 2 : 1024;
        void *p = realloc(ids->id, (size_t)cap * sizeof *ids->id);
        if (!p)
            return HS_ENOMEM;
        ids->id = p;
        ids->cap = cap;
    }
    ids->id[ids->n][0] = id[0];
    ids->id[ids->n][1] = id[1];
    ids->n++;
    return 0;
}

/* Only the games job ids->job analysed: its own list, which also holds the games
 * an earlier job stored first (store.h, hs_store_job_has_game). */
static int s_filter_job(s_ids_t *ids, hs_error_t *err)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < ids->n; i++) {
        bool has = false;
        int rc = hs_store_job_has_game(ids->store, ids->job, ids->id[i], &has, err);
        if (rc < 0)
            return rc;
        if (has) {
            ids->id[kept][0] = ids->id[i][0];
            ids->id[kept][1] = ids->id[i][1];
            kept++;
        }
    }
    ids->n = kept;
    return 0;
}

/* A game id from its 32 hex digits (as query prints it): core's key parser,
 * then the two big-endian halves. */
static int s_parse_hex(const char *hex, uint64_t id[2])
{
    uint8_t k[16];
    if (!hex || hs_key_parse(hex, k) < 0)
        return HS_EINVAL;
    id[0] = id[1] = 0;
    for (int i = 0; i < 8; i++) {
        id[0] = id[0] << 8 | k[i];
        id[1] = id[1] << 8 | k[8 + i];
    }
    return 0;
}

/* No game of the player: the names that begin with it, as query gives them. */
static int s_no_player(hs_store_t *s, const char *player, hs_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = f ? hs_query_player_hint(s, player, f, err) : 0;
    if (f)
        fclose(f);
    if (rc == 0) {
        while (len > 0 && text[len - 1] == '\n')
            text[--len] = '\0';
        rc = hs_error_set(err, HS_ENOTFOUND, "%s", text ? text : "no game of that player");
    }
    free(text);
    return rc;
}

/* The selection's ids; with --job, the job's record into *job. */
static int s_select(hs_store_t *s, const hs_report_select_t *sel, s_ids_t *ids,
                    hs_store_job_t *job, hs_error_t *err)
{
    int chosen = (sel->game_hex != NULL) + (sel->player != NULL) + (sel->job != 0) + sel->all;
    if (chosen != 1)
        return hs_error_set(err, HS_EINVAL, "choose exactly one of --game ID, "
                            "--player NAME, --job ID and --all");
    ids->store = s;
    if (sel->game_hex) {
        uint64_t id[2];
        if (s_parse_hex(sel->game_hex, id) < 0)
            return hs_error_set(err, HS_EINVAL, "a game id is 32 hex digits, not '%s'",
                                sel->game_hex);
        int rc = hs_store_game_get(s, id, NULL, NULL, NULL, err);
        if (rc == HS_ENOTFOUND)
            return hs_error_set(err, rc, "no game %s in the store", sel->game_hex);
        return rc < 0 ? rc : s_add_id(ids, id);
    }
    if (sel->job) {
        int rc = hs_store_job_get(s, sel->job, job, err);
        if (rc == HS_ENOTFOUND)
            return hs_error_set(err, rc, "no job %llu in the store",
                                (unsigned long long)sel->job);
        if (rc < 0)
            return rc;
    }
    int rc = sel->player ? hs_store_games_by_player(s, sel->player, s_add_id, ids, err)
                         : hs_store_games_each(s, s_add_id, ids, err);
    if (rc == HS_ENOMEM)
        return hs_error_set(err, rc, "out of memory listing the games");
    if (rc == 0 && sel->player && ids->n == 0)
        return s_no_player(s, sel->player, err);
    if (rc == 0 && sel->job) {
        ids->job = sel->job;
        rc = s_filter_job(ids, err);
    }
    return rc;
}

/* Where each game's rows go as the games are read: index.html's games table
 * (a temporary file until the index is written), csv/games.csv (written as it
 * goes) and report.json's "games" (JSON Lines in a temporary file). NULL: not
 * written in this run. */
typedef struct s_lists {
    FILE *rows, *csv, *json;
} s_lists_t;

/* tables: this run writes the tables (a board alone has none). */
static int s_lists_open(hs__report_ctx_t *c, bool tables, s_lists_t *l)
{
    if (!(l->rows = tmpfile()))
        return hs_error_set(c->err, HS_EIO, "no temporary file for the games list");
    if (tables && (c->formats & HS_REPORT_JSON) && !(l->json = tmpfile()))
        return hs_error_set(c->err, HS_EIO, "no temporary file for report.json's games");
    if (tables && (c->formats & HS_REPORT_CSV)) {
        if (!(l->csv = hs__report_open(c, "csv/games.csv")))
            return HS_EIO;
        hs_report_games_csv_head(l->csv);
    }
    return 0;
}

/* Closes what is still open (a failed run; the csv is closed by s_tables). */
static void s_lists_close(s_lists_t *l)
{
    FILE *f[] = { l->rows, l->csv, l->json };
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        if (f[i])
            fclose(f[i]);
    *l = (s_lists_t){ 0 };
}

static int s_tables(hs__report_ctx_t *c, const hs_report_stats_t *st, s_lists_t *l)
{
    int rc = 0;
    if (l->csv) {
        rc = hs__report_close(c, l->csv, "csv/games.csv");
        l->csv = NULL;
    }
    for (int i = 0; rc == 0 && (c->formats & HS_REPORT_CSV) && i < hs_report_stats_num_tables;
         i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "csv/%s.csv", hs_report_stats_tables[i]);
        FILE *f = hs__report_open(c, rel);
        if (!f)
            return HS_EIO;
        rc = hs_report_stats_csv(st, hs_report_stats_tables[i], f, c->err);
        int rc2 = hs__report_close(c, f, rel);
        rc = rc ? rc : rc2;
    }
    if (rc == 0 && (c->formats & HS_REPORT_JSON)) {
        FILE *f = hs__report_open(c, "report.json");
        if (!f)
            return HS_EIO;
        rc = hs_report_stats_json_games(st, l->json, f, c->err);
        int rc2 = hs__report_close(c, f, "report.json");
        rc = rc ? rc : rc2;
    }
    return rc;
}

/* A game's rows of the games table, in each list this run writes. */
static void s_game_rows(const hs_report_game_t *g, const s_lists_t *l)
{
    if (l->csv)
        hs_report_games_csv_row(g, l->csv);
    if (l->json)
        hs_report_games_json_row(g, l->json);
}

/* Every game of ids: loaded, counted, written; the lists get its rows. */
static int s_games(hs__report_ctx_t *c, const s_ids_t *ids, hs_report_stats_t *st,
                   const s_lists_t *l)
{
    for (int64_t i = 0; i < ids->n; i++) {
        hs_report_game_t g;
        int rc = hs_report_game_load_moves(c->store, ids->id[i], c->only, &g, c->err);
        if (rc < 0)
            return rc;
        rc = hs_report_stats_add(st, &g, c->err);
        if (rc == 0)
            rc = hs__report_game(c, &g, l->rows);
        if (rc == 0)
            s_game_rows(&g, l);
        hs_report_game_fini(&g);
        if (rc < 0)
            return rc;
        if (c->sum)
            c->sum->games++;
        if (c->o->progress)
            c->o->progress(c->o->progress_ctx, i + 1, ids->n);
    }
    return 0;
}

static void s_title(const hs_report_select_t *sel, char *buf, size_t size)
{
    if (sel->game_hex)
        snprintf(buf, size, "Game %s", sel->game_hex);
    else if (sel->player)
        snprintf(buf, size, "Games of %s", sel->player);
    else if (sel->job)
        snprintf(buf, size, "Job %llu", (unsigned long long)sel->job);
    else
        snprintf(buf, size, "Every game in the store");
}

static int s_out_dir(const char *dir, hs_error_t *err)
{
    struct stat st;
    if (!dir || !*dir)
        return hs_error_set(err, HS_EINVAL, "--out DIR is needed");
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return hs_error_set(err, HS_EINVAL, "--out %s is a file, not a folder", dir);
    /* Its parents too, as mkdir -p: "--out reports/2026/job3" on a fresh folder. */
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return hs_error_set(err, HS_EINVAL, "--out %.64s...: too long a path", dir);
    for (char *p = path + 1;; p++) {
        bool last = *p == '\0';
        if (*p != '/' && !last)
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return hs_error_set(err, HS_EIO, "cannot create %s: %s", path, strerror(errno));
        if (last)
            break;
        *p = '/';
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return hs_error_set(err, HS_EINVAL, "--out %s is a file, not a folder", dir);
    return 0;
}

static int s_cmp_id(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Whether a file name under games/, svg/ or png/ is one of a game's ("ID.html",
 * "ID.sgf", "ID-winrate.svg") and that game is not in ids (sorted); its id in id. */
static bool s_stale_name(const s_ids_t *ids, const char *name, uint64_t id[2])
{
    char hex[33];
    if (strlen(name) < 33 || (name[32] != '.' && name[32] != '-'))
        return false;
    memcpy(hex, name, 32);
    hex[32] = '\0';
    if (s_parse_hex(hex, id) < 0)
        return false;
    return ids->n == 0 || !bsearch(id, ids->id, (size_t)ids->n, sizeof *ids->id, s_cmp_id);
}

/* Counts OUT/dir's files of games outside ids; their ids go to stale. */
static int s_stale_dir(hs__report_ctx_t *c, const char *dir, const s_ids_t *ids,
                       s_ids_t *stale)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->o->out_dir, dir);
    DIR *d = opendir(path);
    if (!d)
        return 0;   /* no such folder: nothing of an earlier report there */
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        uint64_t id[2];
        if (!s_stale_name(ids, e->d_name, id))
            continue;
        c->sum->stale_files++;
        rc = s_add_id(stale, id);
    }
    closedir(d);
    return rc;
}

/* What an earlier report left in OUT: the files of games this run did not
 * report, which its index.html no longer lists. Only counted, never deleted:
 * OUT may hold files that are not ours, and a name alone does not prove a file
 * is. ids are sorted (s_cmp_id): hs_report_run sorts them for the explorer. */
static int s_stale(hs__report_ctx_t *c, const s_ids_t *ids)
{
    static const char *const dirs[] = { "games", "svg", "png" };
    s_ids_t stale = { 0 };
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof dirs / sizeof *dirs; i++)
        rc = s_stale_dir(c, dirs[i], ids, &stale);
    if (stale.n)
        qsort(stale.id, (size_t)stale.n, sizeof *stale.id, s_cmp_id);
    for (int64_t i = 0; i < stale.n; i++)
        c->sum->stale_games += i == 0 || s_cmp_id(stale.id[i - 1], stale.id[i]) != 0;
    free(stale.id);
    return rc ? hs_error_set(c->err, HS_ENOMEM, "out of memory counting an earlier "
                             "report's files") : 0;
}

/* What --job reads: the job's games (s_select) and, of each, only the
 * positions of its moves spec (a job of --moves every:10 measures no loss,
 * whatever a later job stored); at those positions every stored evaluation,
 * whichever job stored it (the store keeps one per position and engine, the
 * first). A spec this build does not read keeps every position. */
typedef struct s_job_scope {
    hs_store_job_t job;
    char moves[24];              /* its spec without the journal's ";TOKEN" */
    hs_report_moves_t only;
} s_job_scope_t;

static void s_job_scope(hs__report_ctx_t *c, s_job_scope_t *j, hs_report_stats_t *st)
{
    snprintf(j->moves, sizeof j->moves, "%.*s", (int)strcspn(j->job.moves_spec, ";"),
             j->job.moves_spec);
    if (!j->moves[0])
        snprintf(j->moves, sizeof j->moves, "all");
    bool read = hs_report_moves_parse(j->job.moves_spec, &j->only) == 0;
    c->job = &j->job;
    c->job_moves = j->moves;
    c->only = &j->only;
    if (read)
        snprintf(st->positions, sizeof st->positions, "%s", j->moves);
}

int hs_report_run(hs_store_t *s, const hs_report_select_t *sel, const hs_report_opts_t *o,
                  hs_report_summary_t *sum, hs_error_t *err)
{
    hs_report_summary_t local = { 0 };
    hs__report_ctx_t c = { .store = s, .o = o, .formats = o->formats ? o->formats
                                                                     : HS_REPORT_DEFAULT,
                           .board_px = o->board_px > 0 ? o->board_px : 300,
                           .sum = sum ? sum : &local, .err = err };
    memset(c.sum, 0, sizeof *c.sum);
    c.sum->board_games = -1;
    /* The selection first: one that finds nothing leaves no empty folder. */
    int rc = 0;
    s_ids_t ids = { 0 };
    s_job_scope_t scope = { 0 };
    if (!(o->board && !sel->game_hex && !sel->player && !sel->job && !sel->all))
        rc = s_select(s, sel, &ids, &scope.job, err);
    if (rc == 0)
        rc = s_out_dir(o->out_dir, err);
    hs_report_stats_t st;
    hs_report_stats_init(&st);
    if (rc == 0 && sel->job)
        s_job_scope(&c, &scope, &st);
    bool tables = ids.n || !o->board;   /* a board alone has no tables */
    s_lists_t lists = { 0 };
    if (rc == 0)
        rc = s_lists_open(&c, tables, &lists);
    if (rc == 0)
        rc = s_games(&c, &ids, &st, &lists);
    if (rc == 0 && (sel->all || sel->job)) {
        int64_t failed = 0;   /* each broken source once, also over several jobs */
        rc = hs_store_failed_count(s, sel->job, &failed, err);
        hs_report_stats_add_failed(&st, failed);
    }
    if (rc == 0) {
        hs_report_stats_finish(&st);
        c.sum->failed = st.failed;
        if (tables)
            rc = s_tables(&c, &st, &lists);
    }
    /* Sorted once, for the explorer's list of the selection's games and for
     * s_stale's search (the games are written by now). */
    bool selected = sel->game_hex || sel->player || sel->job || sel->all;
    if (ids.n)
        qsort(ids.id, (size_t)ids.n, sizeof *ids.id, s_cmp_id);
    c.sel = (const uint64_t (*)[2])ids.id;
    c.num_sel = selected ? ids.n : -1;
    if (rc == 0 && (c.formats & HS_REPORT_HTML)) {
        char title[300];
        s_title(sel, title, sizeof title);
        rc = hs__report_index(&c, o->board && ids.n == 0 ? "Position explorer" : title,
                              tables ? &st : NULL, lists.rows);
    } else if (rc == 0) {   /* what index.html would hold, in the other formats */
        if (o->board)
            rc = hs__report_board(&c, NULL);
        if (rc == 0 && tables)
            rc = hs__report_histograms(&c, NULL, &st);
    }
    if (rc == 0)
        rc = s_stale(&c, &ids);
    s_lists_close(&lists);
    hs_report_stats_fini(&st);
    free(ids.id);
    return rc;
}
