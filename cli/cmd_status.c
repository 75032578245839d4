/*
 * cli/cmd_status.c — `hyeongse status [JOB] [--broker ADDR] [--json] [--watch[=MS]]`.
 *
 * --watch sends WATCH: the broker pushes a STATUS_REPLY when the counts change
 * (at most every 250 ms) and when the job ends (docs/PROTOCOL.md, WATCH); this
 * prints one at most every MS ms, and the last one, until the job (or, without
 * JOB, every job) has stopped running. The client heartbeats meanwhile.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "core/clock.h"

const char hs_cmd_status_summary[] = "show the jobs of a broker and their progress";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse status [JOB] [--broker ADDR] [--json] [--watch[=MS]]\n\n"
            "Shows every job of the broker (or only JOB): state, games, failures,\n"
            "positions and rate, the reason of a failed job, and the number of live workers.\n\n"
            "  --broker ADDR   broker address (default $HS_BROKER or %s)\n"
            "  --json          one JSON object {\"workers\":N,\"jobs\":[{...}]}\n"
            "  --watch[=MS]    keep watching: the broker pushes progress as it changes;\n"
            "                  print it at most every MS ms (default 1000; one JSON object\n"
            "                  per line with --json) and once more when it ends, until no\n"
            "                  job (or JOB) is running any more\n",
            HS_CLI_DEFAULT_BROKER);
}

typedef struct s_watch {
    bool json;
    double every, last;   /* seconds between prints; time of the last one */
    int printed;
} s_watch_t;

/* One pushed STATUS_REPLY: printed when `every` has passed, and the last one always. */
static int s_watch_print(void *ctx, const hs_wire_status_reply_t *r)
{
    s_watch_t *w = ctx;
    bool running = false;
    for (int i = 0; i < r->num_jobs; i++)
        running |= r->jobs[i].state && !strcmp(r->jobs[i].state, "running");
    double now = hs_clock_now();
    if (running && now - w->last < w->every)
        return 0;
    if (w->printed++ && !w->json)
        fputc('\n', stdout);
    hs__cli_print_status(stdout, r, w->json);
    fflush(stdout);
    w->last = now;
    return 0;
}

int hs_cmd_status(int argc, char **argv)
{
    static const struct option opts[] = {
        { "broker", required_argument, 0, 'b' }, { "json", no_argument, 0, 'j' },
        { "watch", optional_argument, 0, 'w' },  { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    const char *broker = NULL;
    int json = 0, c, watch = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:jh", opts, NULL)) != -1) {
        switch (c) {
        case 'b': broker = optarg; break;
        case 'j': json = 1; break;
        case 'w':
            watch = optarg ? atoi(optarg) : 1000;
            if (watch < 50 || watch > 3600000) {
                fprintf(stderr, "hyeongse status: --watch interval must be 50..3600000 ms\n");
                return 2;
            }
            break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    uint64_t job = 0;
    if (optind < argc) {
        char *end;
        job = strtoull(argv[optind], &end, 10);
        if (*end || job == 0) {
            fprintf(stderr, "hyeongse status: bad job id '%s'\n", argv[optind]);
            return 2;
        }
    }
    hs_error_t err = { 0 };
    hs_client_t *cl = NULL;
    if (hs_client_new(&cl, NULL, hs__cli_broker_addr(broker), 2000, 2, &err) < 0) {
        fprintf(stderr, "hyeongse status: %s\n", err.msg);
        return 1;
    }
    int rc;
    if (watch) {
        s_watch_t w = { .json = json, .every = watch / 1000.0, .last = -1e9 };
        rc = hs_client_watch(cl, job, 1000, s_watch_print, &w, &err);
    } else {
        hs_wire_msg_t r;
        if ((rc = hs_client_status(cl, job, &r, &err)) == 0) {
            hs__cli_print_status(stdout, &r.status_reply, json);
            hs_wire_msg_fini(&r);
        }
    }
    if (rc < 0) {
        fprintf(stderr, "hyeongse status: %s\n", err.msg);
        hs_client_destroy(&cl);
        return 1;
    }
    hs_client_destroy(&cl);
    return 0;
}
