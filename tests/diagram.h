/*
 * tests/diagram.h — the one parser of the `.t` diagram files used by the tests
 * (the *.t files of tests/data/tactics and tests/data/stability; the format is in
 * tests/data/tactics/README.md). Header-only (static inline) because the test
 * build makes one executable per tests/test_*.c and compiles no other source.
 *
 * A file is a sequence of cases:
 *
 *   # comment                   anything after '#' on any line is ignored
 *   % name of the case          starts a case
 *   . . O . .                   diagram rows: X black, O white, . empty,
 *   . O X . .                   top row first; blanks between cells ignored
 *   attack C3 captured D3       any other non-blank line is a query
 *
 * The parser owns the syntax (cases, rows, comments, errors with file:line);
 * the test owns the queries: hs_diagram_run_file() calls `query` for every
 * query line with the case parsed so far. A query callback that keeps state
 * per case compares hs_diagram_t.index with the last index it saw (it grows
 * by one at every '%' line in a run).
 */
#ifndef HS_TESTS_DIAGRAM_H
#define HS_TESTS_DIAGRAM_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "test.h"

#define HS_DIAGRAM_MAX_ROWS 19
#define HS_DIAGRAM_MAX_FILES 32

typedef struct hs_diagram {
    char name[128];
    char rows[HS_DIAGRAM_MAX_ROWS][HS_DIAGRAM_MAX_ROWS];
    int nrows, ncols;
    int index;          /* case number within the run, from 1 */
} hs_diagram_t;

/*
 * Called for each query line (comment already cut off, not tokenized; the
 * callback may modify `line`). Returns false for a malformed query, which the
 * parser reports as "file:line: malformed query" and counts as a failed check.
 */
typedef bool (*hs_diagram_query_fn)(const char *path, const hs_diagram_t *d, char *line, void *ctx);

/*
 * Sets up b (hs_board_init) from the diagram; false when the diagram is not a
 * square of 2..19 rows or the board cannot be initialised.
 */
static inline bool hs_diagram_board(const hs_diagram_t *d, hs_board_t *b)
{
    if (d->nrows < 2 || d->nrows != d->ncols || hs_board_init(b, d->nrows) != 0)
        return false;
    for (int y = 0; y < d->nrows; y++)
        for (int x = 0; x < d->ncols; x++) {
            char ch = d->rows[y][x];
            if (ch == 'X' || ch == 'O')
                hs_board_set_stone(b, hs_board_point(b, x, y), ch == 'X' ? HS_BLACK : HS_WHITE);
        }
    return true;
}

/*
 * Parses one file, calling `query` for every query line. Syntax errors (text
 * before the first case, ragged or oversized rows, a file that cannot be
 * opened) are failed checks with a file:line message. `*index` carries the case
 * numbering across files (start it at 0). Returns the number of cases read.
 */
static inline int hs_diagram_run_file(const char *path, int *index, hs_diagram_query_fn query, void *ctx)
{
    FILE *f = fopen(path, "r");
    HS_CHECK(f != NULL);
    if (!f)
        return 0;
    printf("%s\n", path);
    /* Static: a case is ~500 bytes and the tests may run with small stacks;
     * the tests are single-threaded. */
    static hs_diagram_t d;
    memset(&d, 0, sizeof d);
    bool have = false;
    int cases = 0, lineno = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        if (line[0] == '%') {
            memset(&d, 0, sizeof d);
            char *nm = line + 1;
            while (*nm == ' ')
                nm++;
            nm[strcspn(nm, "\r\n")] = '\0';
            snprintf(d.name, sizeof d.name, "%.127s", nm);
            d.index = ++*index;
            have = true;
            cases++;
            continue;
        }
        /* A diagram row holds only '.', 'X', 'O' and blanks. */
        int cells = 0, other = 0;
        char row[HS_DIAGRAM_MAX_ROWS];
        for (const char *p = line; *p; p++) {
            if (*p == '.' || *p == 'X' || *p == 'O') {
                if (cells < HS_DIAGRAM_MAX_ROWS)
                    row[cells] = *p;
                cells++;
            } else if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
                other++;
            }
        }
        if (cells == 0 && other == 0)
            continue;
        if (!have) {
            fprintf(stderr, "%s:%d: text before the first %% line\n", path, lineno);
            HS_CHECK(0);
            continue;
        }
        if (other == 0) {
            if (d.nrows >= HS_DIAGRAM_MAX_ROWS || cells > HS_DIAGRAM_MAX_ROWS ||
                (d.nrows && cells != d.ncols)) {
                fprintf(stderr, "%s:%d: bad diagram row\n", path, lineno);
                HS_CHECK(0);
                continue;
            }
            memcpy(d.rows[d.nrows++], row, (size_t)cells);
            d.ncols = cells;
            continue;
        }
        if (!query(path, &d, line, ctx)) {
            fprintf(stderr, "%s:%d: malformed query\n", path, lineno);
            HS_CHECK(0);
        }
    }
    fclose(f);
    return cases;
}

static int hs_diagram__cmp(const void *a, const void *b) { return strcmp(a, b); }

/*
 * Runs every `*.t` file of folder `dir` in name order (at most
 * HS_DIAGRAM_MAX_FILES). A missing folder is a failed check. Returns the
 * number of files run.
 */
static inline int hs_diagram_run_dir(const char *dir, hs_diagram_query_fn query, void *ctx)
{
    DIR *dp = opendir(dir);
    HS_CHECK(dp != NULL);
    if (!dp)
        return 0;
    static char names[HS_DIAGRAM_MAX_FILES][256];
    int files = 0;
    struct dirent *de;
    while ((de = readdir(dp)) && files < HS_DIAGRAM_MAX_FILES) {
        size_t len = strlen(de->d_name);
        if (len > 2 && len < sizeof names[0] && !strcmp(de->d_name + len - 2, ".t"))
            snprintf(names[files++], sizeof names[0], "%s", de->d_name);
    }
    closedir(dp);
    qsort(names, (size_t)files, sizeof names[0], hs_diagram__cmp);
    int index = 0;
    for (int i = 0; i < files; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%.1000s/%.255s", dir, names[i]);
        hs_diagram_run_file(path, &index, query, ctx);
    }
    return files;
}

#endif
