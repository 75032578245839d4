/*
 * tests/fuzz/replay_main.c — replays fuzz corpora without libFuzzer, like
 * LLVM's StandaloneFuzzTargetMain: linked with one fuzz_NAME.c, it feeds every
 * regular file under each folder (or each file) named on the command line to
 * LLVMFuzzerTestOneInput, one call per file, in name order.
 *
 * Why: the corpora hold every input that once broke a target (regress-*), so
 * a plain CTest (fuzz_replay_NAME) replays them on every build — gcc, Release,
 * ASan, TSan — not only where clang's libFuzzer exists. A target's own checks
 * call abort(), which fails the test.
 *
 *   replay_NAME [--if-present] PATH...
 * --if-present: the PATHs after it may be absent (the shared data folder);
 * otherwise a missing path is an error, so a renamed corpus cannot pass empty.
 * Exit status: 0 when every file was fed, 1 on a missing path, an unreadable
 * file or no input at all (an emptied corpus must not pass unnoticed).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads the whole file; NULL (message printed) on failure. */
static uint8_t *s_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *b = realloc(buf, cap *= 2);
        if (!b)
            free(buf);
        buf = b;
    }
    bool bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: cannot read\n", path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Feeds one file. An exact-size copy, so ASan sees reads past the input's end. */
static int s_feed(const char *path, long *count)
{
    size_t len = 0;
    uint8_t *buf = s_slurp(path, &len);
    if (!buf)
        return 1;
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    (*count)++;
    return 0;
}

static int s_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Feeds every regular file of a folder and its subfolders (the shared sgf-edge
 * data is sorted into one folder per source). */
static int s_feed_dir(const char *dir, long *count)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, s_cmp);
    if (n < 0) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        const char *name = ents[i]->d_name;
        bool dots = !strcmp(name, ".") || !strcmp(name, "..");
        if (!dots && snprintf(path, sizeof path, "%s/%s", dir, name) < (int)sizeof path &&
            stat(path, &st) == 0) {
            if (S_ISREG(st.st_mode))
                rc |= s_feed(path, count);
            else if (S_ISDIR(st.st_mode))
                rc |= s_feed_dir(path, count);
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

int main(int argc, char **argv)
{
    bool optional = false;
    long count = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (!strcmp(argv[i], "--if-present")) {
            optional = true;
        } else if (stat(argv[i], &st) != 0) {
            if (!optional) {
                fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
                rc = 1;
            }
        } else {
            rc |= S_ISDIR(st.st_mode) ? s_feed_dir(argv[i], &count) : s_feed(argv[i], &count);
        }
    }
    printf("replay: %ld inputs\n", count);
    return rc || count == 0;
}
