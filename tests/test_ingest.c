/*
 * tests/test_ingest.c — the ingest pipeline on small inputs built here: a folder
 * of .sgf files (good, broken in different ways, a duplicate, a collection, a
 * nested folder, a non-SGF file), the same files as .tar.gz and .zip written with
 * libarchive, a truncated archive, a missing path, the member size limit, the
 * game callback (order, stop), and the CLI's JSON output (escaping).
 */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ingest/archive.h"
#include "ingest/ingest.h"
#include "test.h"

typedef struct {
    const char *name;
    const char *text;
} s_file_t;

/* Expected: 3 good games, 1 duplicate, 4 failures (see the comments). */
static const s_file_t s_files[] = {
    /* good, 9x9, 3 moves */
    { "a.sgf", "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Chinese]RE[B+R];B[ee];W[cc];B[gc])" },
    /* collection: tree 0 good (2 moves), tree 1 plays on an occupied point */
    { "b.sgf", "(;GM[1]SZ[9]KM[7]RE[W+T];B[cc];W[gg])\n(;GM[1]SZ[9];B[ee];W[ee])" },
    /* truncated inside a value */
    { "c.sgf", "(;GM[1]SZ[19];B[pd];W[dp" },
    /* leading '(' missing */
    { "d.sgf", ";GM[1]SZ[19];B[pd];W[dd])" },
    /* the game of a.sgf again, other names: a duplicate */
    { "e.sgf", "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Chinese]PB[x]PW[y]RE[B+R];B[ee];W[cc];B[gc])" },
    /* no game tree at all */
    { "empty.sgf", "this is not SGF" },
    { "notes.txt", "not an SGF file: skipped" },
    /* nested folder, 19x19, UTF-8 names, counted result */
    { "sub/f.sgf", "(;GM[1]SZ[19]KM[7.5]PB[\xec\x9d\xb4\xec\x84\xb8\xeb\x8f\x8c]PW[\"q\"]"
                   "RE[W+3.5];B[pd];W[dp];B[pp];W[dd];B[])" },
};
#define S_NFILES ((int)(sizeof s_files / sizeof s_files[0]))

static char s_tmp[256];

static void s_write(const char *dir, const char *name, const char *text, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *slash = strrchr(path, '/');
    if (slash > path + strlen(dir)) {
        *slash = 0;
        mkdir(path, 0755);
        *slash = '/';
    }
    FILE *f = fopen(path, "wb");
    HS_CHECK(f != NULL);
    if (!f)
        return;
    fwrite(text, 1, len, f);
    fclose(f);
}

/* Writes the test files into an archive: format "tar.gz" or "zip". */
static void s_write_archive(const char *path, const char *format)
{
    struct archive *a = archive_write_new();
    if (!strcmp(format, "zip")) {
        archive_write_set_format_zip(a);
    } else {
        archive_write_set_format_pax_restricted(a);
        archive_write_add_filter_gzip(a);
    }
    HS_CHECK_INT(archive_write_open_filename(a, path), ARCHIVE_OK);
    for (int i = 0; i < S_NFILES; i++) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, s_files[i].name);
        archive_entry_set_size(e, (la_int64_t)strlen(s_files[i].text));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_write_header(a, e);
        archive_write_data(a, s_files[i].text, strlen(s_files[i].text));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

/* A .tar.gz at path holding the files inner[0..n) (each under its base name). */
static void s_write_outer(const char *path, const char *const *inner, int n)
{
    struct archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_add_filter_gzip(a);
    HS_CHECK_INT(archive_write_open_filename(a, path), ARCHIVE_OK);
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(inner[i], "rb");
        HS_CHECK(f != NULL);
        if (!f)
            continue;
        static char data[1 << 16];
        size_t len = fread(data, 1, sizeof data, f);
        fclose(f);
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, strrchr(inner[i], '/') + 1);
        archive_entry_set_size(e, (la_int64_t)len);
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_write_header(a, e);
        archive_write_data(a, data, len);
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

typedef struct {
    char sources[16][512];
    int index[16];
    int n;
    int stop_after;
} s_seen_t;

static int s_on_game(void *ctx, const char *source, int index, hs_game_t *g)
{
    s_seen_t *s = ctx;
    if (s->n < 16) {
        snprintf(s->sources[s->n], sizeof s->sources[0], "%s", source);
        s->index[s->n] = index;
    }
    s->n++;
    /* Take ownership of one game to check the documented "move" works. */
    if (s->n == 1) {
        hs_game_t mine = *g;
        hs_game_init(g, 19);
        HS_CHECK(mine.num_moves >= 2);
        hs_game_fini(&mine);
    }
    return s->stop_after && s->n >= s->stop_after;
}

static const hs_ingest_failure_t *s_find_failure(const hs_ingest_report_t *r, const char *suffix)
{
    for (size_t i = 0; i < r->num_failures; i++) {
        size_t n = strlen(r->failures[i].source), m = strlen(suffix);
        if (n >= m && !strcmp(r->failures[i].source + n - m, suffix))
            return &r->failures[i];
    }
    return NULL;
}

/* Checks a report of the eight test files (folder or archive). */
static void s_check_report(const hs_ingest_report_t *r, const char *label)
{
    printf("-- %s: files %llu games %llu failed %llu dup %llu\n", label,
           (unsigned long long)r->files, (unsigned long long)r->games,
           (unsigned long long)r->failed, (unsigned long long)r->duplicates);
    HS_CHECK_INT(r->files, 7);
    HS_CHECK_INT(r->skipped, 1);
    HS_CHECK_INT(r->games, 3);
    HS_CHECK_INT(r->duplicates, 1);
    HS_CHECK_INT(r->failed, 4);
    HS_CHECK_INT(r->trees, 7);     /* a, b×2, c, d, e, f; none in empty.sgf */
    HS_CHECK_INT(r->moves, 3 + 2 + 5);
    HS_CHECK_INT(r->positions, (3 + 1) + (2 + 1) + (5 + 1));
    HS_CHECK_INT(r->sizes[9], 2);
    HS_CHECK_INT(r->sizes[19], 1);
    HS_CHECK_INT(r->results[HS_INGEST_RESULT_COUNTED], 1);
    HS_CHECK_INT(r->results[HS_INGEST_RESULT_RESIGN], 1);
    HS_CHECK_INT(r->results[HS_INGEST_RESULT_TIME], 1);
    HS_CHECK_INT(r->by_reason[HS_INGEST_FAIL_ILLEGAL], 1);
    HS_CHECK_INT(r->by_reason[HS_INGEST_FAIL_TRUNCATED], 1);
    HS_CHECK_INT(r->by_reason[HS_INGEST_FAIL_EMPTY] + r->by_reason[HS_INGEST_FAIL_SYNTAX], 2);
    HS_CHECK_INT(r->num_failures, 4);
    const hs_ingest_failure_t *f = s_find_failure(r, "b.sgf");
    HS_CHECK(f && f->game == 1 && f->reason == HS_INGEST_FAIL_ILLEGAL);
    f = s_find_failure(r, "c.sgf");
    HS_CHECK(f && f->reason == HS_INGEST_FAIL_TRUNCATED);
    f = s_find_failure(r, "d.sgf");
    HS_CHECK(f && f->reason == HS_INGEST_FAIL_SYNTAX);
    HS_CHECK(s_find_failure(r, "empty.sgf") != NULL);
    /* Failures are listed in read order: b, c, d, empty. */
    if (r->num_failures == 4) {
        HS_CHECK(strstr(r->failures[0].source, "b.sgf") != NULL);
        HS_CHECK(strstr(r->failures[3].source, "empty.sgf") != NULL);
    }
    HS_CHECK_INT(r->num_dups, 1);
    if (r->num_dups == 1)
        HS_CHECK(strstr(r->dups[0].source, "e.sgf") != NULL);
    /* komi: 6.5 (a), 7 (b), 7.5 (f) */
    HS_CHECK_INT(r->komi.n, 3);
}

static void s_run(const char **paths, int n, int threads, s_seen_t *seen,
                  hs_ingest_report_t *r, int expect_rc)
{
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.threads = threads;
    o.window = 3;  /* small, so the ring wraps and the reader waits */
    if (seen) {
        o.on_game = s_on_game;
        o.ctx = seen;
    }
    hs_error_t err;
    int rc = hs_ingest_run(paths, n, &o, r, &err);
    HS_CHECK_INT(rc, expect_rc);
}

static void s_test_folder_and_archives(void)
{
    char dir[300], tgz[300], zip[300], bad[300];
    snprintf(dir, sizeof dir, "%s/in", s_tmp);
    mkdir(dir, 0755);
    for (int i = 0; i < S_NFILES; i++)
        s_write(dir, s_files[i].name, s_files[i].text, strlen(s_files[i].text));
    snprintf(tgz, sizeof tgz, "%s/games.tar.gz", s_tmp);
    snprintf(zip, sizeof zip, "%s/games.zip", s_tmp);
    s_write_archive(tgz, "tar.gz");
    s_write_archive(zip, "zip");

    for (int threads = 1; threads <= 4; threads += 3) {
        hs_ingest_report_t r;
        s_seen_t seen = { .n = 0 };
        const char *p[] = { dir };
        s_run(p, 1, threads, &seen, &r, 0);
        s_check_report(&r, threads == 1 ? "folder, 1 thread" : "folder, 4 threads");
        /* on_game in read order: a.sgf, b.sgf (tree 0), sub/f.sgf. */
        HS_CHECK_INT(seen.n, 3);
        HS_CHECK(strstr(seen.sources[0], "/a.sgf") != NULL);
        HS_CHECK(strstr(seen.sources[1], "/b.sgf") != NULL && seen.index[1] == 0);
        HS_CHECK(strstr(seen.sources[2], "/sub/f.sgf") != NULL);
        hs_ingest_report_fini(&r);
    }
    {
        hs_ingest_report_t r;
        const char *p[] = { tgz };
        s_run(p, 1, 2, NULL, &r, 0);
        s_check_report(&r, "tar.gz");
        HS_CHECK_INT(r.archives, 1);
        char want[400];
        snprintf(want, sizeof want, "%s:b.sgf", tgz);
        HS_CHECK(r.num_failures > 0 && !strcmp(r.failures[0].source, want));
        hs_ingest_report_fini(&r);
    }
    {
        hs_ingest_report_t r;
        const char *p[] = { zip };
        s_run(p, 1, 3, NULL, &r, 0);
        s_check_report(&r, "zip");
        hs_ingest_report_fini(&r);
    }
    {
        /* Archives inside an archive are read: the zip's games, then the tar's
         * copies of them as duplicates; sources name both levels. */
        char outer[300];
        snprintf(outer, sizeof outer, "%s/outer.tar.gz", s_tmp);
        const char *inner[] = { zip, tgz };
        s_write_outer(outer, inner, 2);
        hs_ingest_report_t r;
        const char *p[] = { outer };
        s_run(p, 1, 2, NULL, &r, 0);
        HS_CHECK_INT(r.archives, 3);
        HS_CHECK_INT(r.games, 3);
        HS_CHECK_INT(r.duplicates, 1 + 4);
        char want[400];
        snprintf(want, sizeof want, "%s:games.zip:b.sgf", outer);
        HS_CHECK(r.num_failures > 0 && !strcmp(r.failures[0].source, want));
        hs_ingest_report_fini(&r);
    }
    {
        /* All three together: everything after the first copy is a duplicate. */
        hs_ingest_report_t r;
        const char *p[] = { dir, tgz, zip };
        s_run(p, 3, 4, NULL, &r, 0);
        HS_CHECK_INT(r.files, 21);
        HS_CHECK_INT(r.games, 3);
        HS_CHECK_INT(r.duplicates, 1 + 4 + 4);
        HS_CHECK_INT(r.failed, 12);
        hs_ingest_report_fini(&r);
    }
    {
        /* A truncated archive and a missing path: reported, the rest goes on. */
        FILE *f = fopen(tgz, "rb");
        char buf[1 << 16];
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        snprintf(bad, sizeof bad, "%s/broken.tar.gz", s_tmp);
        FILE *g = fopen(bad, "wb");
        if (g) {
            fwrite(buf, 1, n / 2, g);
            fclose(g);
        }
        char missing[300];
        snprintf(missing, sizeof missing, "%s/no-such-file.sgf", s_tmp);
        hs_ingest_report_t r;
        const char *p[] = { bad, missing, zip };
        s_run(p, 3, 2, NULL, &r, 0);
        HS_CHECK(r.failed_files >= 2);
        HS_CHECK(s_find_failure(&r, "no-such-file.sgf") != NULL);
        HS_CHECK(s_find_failure(&r, "broken.tar.gz") != NULL);
        HS_CHECK_INT(r.games, 3);  /* the zip still gives its three games */
        printf("-- broken archive + missing file: failed %llu (files %llu)\n",
               (unsigned long long)r.failed, (unsigned long long)r.failed_files);
        for (size_t i = 0; i < r.num_failures; i++)
            printf("   %s game %d [%s] %s\n", r.failures[i].source, r.failures[i].game,
                   hs_ingest_reason_name(r.failures[i].reason), r.failures[i].message);
        hs_ingest_report_fini(&r);
    }
    {
        /* Member size limit at a.sgf's size: a.sgf passes, the longer f.sgf does not. */
        HS_CHECK(strlen(s_files[S_NFILES - 1].text) > strlen(s_files[0].text));
        hs_ingest_options_t o;
        hs_ingest_options_init(&o);
        o.threads = 2;
        o.max_member = strlen(s_files[0].text);
        hs_ingest_report_t r;
        const char *p[] = { tgz };
        HS_CHECK_INT(hs_ingest_run(p, 1, &o, &r, NULL), 0);
        HS_CHECK(r.by_reason[HS_INGEST_FAIL_TOO_LARGE] >= 1);
        const hs_ingest_failure_t *f = s_find_failure(&r, "sub/f.sgf");
        HS_CHECK(f && f->reason == HS_INGEST_FAIL_TOO_LARGE && f->game == -1);
        HS_CHECK(s_find_failure(&r, "a.sgf") == NULL);
        HS_CHECK(r.games >= 1);
        hs_ingest_report_fini(&r);
    }
    {
        /* The consumer stops the run after the first game. */
        hs_ingest_report_t r;
        s_seen_t seen = { .n = 0, .stop_after = 1 };
        const char *p[] = { dir, zip };
        s_run(p, 2, 3, &seen, &r, HS_ECANCELED);
        HS_CHECK_INT(seen.n, 1);
        hs_ingest_report_fini(&r);
    }
}

static void s_test_parse_buffer(void)
{
    const char *text = s_files[1].text;
    hs_ingest_file_t f;
    HS_CHECK_INT(hs_ingest_parse_buffer((const uint8_t *)text, strlen(text), &f), 0);
    HS_CHECK_INT(f.num_trees, 2);
    HS_CHECK_INT(f.num_games, 1);
    HS_CHECK_INT(f.num_failures, 1);
    if (f.num_failures == 1) {
        HS_CHECK_INT(f.failures[0].game, 1);
        HS_CHECK_INT(f.failures[0].code, HS_EILLEGAL);
        printf("-- illegal move message: %s\n", f.failures[0].message);
    }
    if (f.num_games == 1)
        HS_CHECK(f.games[0].id[0] != 0 || f.games[0].id[1] != 0);
    hs_ingest_file_fini(&f);
    HS_CHECK(hs_archive_is_archive_name("x.TAR.GZ") && hs_archive_is_archive_name("y.zip"));
    HS_CHECK(hs_archive_is_sgf_name("G.SGF") && !hs_archive_is_sgf_name("g.sgf.txt"));
}

/* Games the wire cannot carry fail here with the reason analyze and submit would
 * give, so that the dry run's good games are those a job stores: 4,097 moves
 * (passes), a komi of 5000.5. */
static void s_test_wire_limits(void)
{
    size_t cap = 64 + 4 * 4097;
    char *text = malloc(cap);
    HS_CHECK(text != NULL);
    if (!text)
        return;
    size_t n = (size_t)snprintf(text, cap, "(;GM[1]SZ[9]");
    for (int i = 0; i < 4097; i++)
        n += (size_t)snprintf(text + n, cap - n, ";%c[]", i % 2 ? 'W' : 'B');
    n += (size_t)snprintf(text + n, cap - n, ")(;GM[1]SZ[9]KM[5000.5];B[ee])(;GM[1]SZ[9];B[ee])");
    hs_ingest_file_t f;
    HS_CHECK_INT(hs_ingest_parse_buffer((const uint8_t *)text, n, &f), 0);
    HS_CHECK_INT(f.num_games, 1);
    HS_CHECK_INT(f.num_failures, 2);
    for (int i = 0; i < f.num_failures && i < 2; i++) {
        HS_CHECK_INT(f.failures[i].code, HS_ELIMIT);
        HS_CHECK(strstr(f.failures[i].message, i == 0 ? "too many moves: 4097"
                                                      : "komi out of range") != NULL);
    }
    hs_ingest_file_fini(&f);
    free(text);
}

/* The CLI: --json output holds the keys and escapes names; no --dry-run exits 2. */
static void s_test_cli(void)
{
    const char *bin = getenv("HS_BIN");
    if (!bin || access(bin, X_OK) != 0) {
        printf("-- HS_BIN not set: CLI checks skipped\n");
        return;
    }
    char dir[300];
    snprintf(dir, sizeof dir, "%s/cli", s_tmp);
    mkdir(dir, 0755);
    const char *bad = "(;SZ[9];B[ee];W[ee])";
    s_write(dir, "q\"uo\\te.sgf", bad, strlen(bad));
    s_write(dir, "ok.sgf", s_files[0].text, strlen(s_files[0].text));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' ingest '%s' --dry-run --json --threads 2", bin, dir);
    FILE *p = popen(cmd, "r");
    HS_CHECK(p != NULL);
    if (!p)
        return;
    static char out[1 << 16];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    HS_CHECK_INT(pclose(p), 0);
    const char *keys[] = { "\"files\": 2", "\"games\": 1", "\"positions\": 4", "\"bytes\":",
                           "\"failed\": 1", "\"duplicates\": 0", "\"failures\": [",
                           "\"reason\": \"illegal-move\"", "q\\\"uo\\\\te.sgf" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(out, keys[i])) {
            HS_CHECK(!"missing in JSON output");
            fprintf(stderr, "  missing %s in:\n%s\n", keys[i], out);
        }
    snprintf(cmd, sizeof cmd, "'%s' ingest '%s' >/dev/null 2>&1", bin, dir);
    int st = system(cmd);
    HS_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
}

int main(void)
{
    snprintf(s_tmp, sizeof s_tmp, "/tmp/hs-test-ingest-XXXXXX");
    if (!mkdtemp(s_tmp)) {
        perror("mkdtemp");
        return 1;
    }
    s_test_parse_buffer();
    s_test_wire_limits();
    s_test_folder_and_archives();
    s_test_cli();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", s_tmp);
    return hs_test_finish();
}
