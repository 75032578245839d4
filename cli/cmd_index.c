/*
 * cli/cmd_index.c — `hyeongse index --db DIR`: back-fills the board index
 * (store/store.h, hs_store_boards_rebuild) of a store written before the index
 * existed, so that `query --board` can answer from it. New games are indexed as
 * they are stored; this is for the games already there. Idempotent.
 */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "store/store.h"

const char hs_cmd_index_summary[] = "back-fill the board index of a store (for query --board)";

/* Without a terminal a progress line is written every this many games. */
#define S_PROGRESS_EVERY 10000

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse index --db DIR\n\n"
            "Indexes every stored game's boards (each position's stones, normalised\n"
            "over the 8 symmetries) that the board index of DIR does not hold yet, then\n"
            "marks the index complete. Games stored from now on are indexed as they\n"
            "are stored. A second run adds nothing. Run it while no analyze or broker\n"
            "writes to DIR. Progress on stderr; at the end \"indexed G games, E boards\":\n"
            "G the games in the store, E the index entries this run added.\n\n"
            "Exit status: 0 done, 1 error, 2 usage.\n");
}

typedef struct {
    bool tty;
    int64_t last, total;
} s_progress_t;

static int s_progress(void *ctx, int64_t done, int64_t total)
{
    s_progress_t *p = ctx;
    p->total = total;
    if (p->tty)
        fprintf(stderr, "\rindexing: %lld / %lld games", (long long)done, (long long)total);
    else if (done - p->last >= S_PROGRESS_EVERY || done == total) {
        fprintf(stderr, "indexing: %lld / %lld games\n", (long long)done, (long long)total);
        p->last = done;
    }
    return 0;
}

int hs_cmd_index(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *dir = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'd': dir = optarg; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (!dir || optind < argc) {
        fprintf(stderr, "hyeongse index: give --db DIR (and nothing else; see --help)\n");
        return 2;
    }
    hs_error_t err;
    hs_error_clear(&err);
    /* An existing store only: a writer's open would create an empty one. */
    int rc = hs_store_file_check(dir, NULL, &err);
    hs_store_t *s = NULL;
    if (rc == 0)
        rc = hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err);
    s_progress_t p = { .tty = isatty(fileno(stderr)) };
    int64_t added = 0;
    if (rc == 0)
        rc = hs_store_boards_rebuild(s, s_progress, &p, &added, &err);
    hs_store_close(&s);
    if (p.tty && p.total)
        fputc('\n', stderr);
    if (rc) {
        fprintf(stderr, "hyeongse index: %s\n", err.msg[0] ? err.msg : hs_strerror(rc));
        return 1;
    }
    printf("indexed %lld games, %lld boards\n", (long long)p.total, (long long)added);
    return 0;
}
