/*
 * cli/cmd_status.c — `hyeongse status [JOB] [--broker ADDR] [--json] [--watch[=MS]]`.
 *
 * --watch polls: a STATUS request every interval (Lazy Pirate, like every other
 * request), printed each time, until the job (or, without JOB, every job) has
 * stopped running. The broker does not push updates (docs/PROTOCOL.md, WATCH).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"

const char hs_cmd_status_summary[] = "show the jobs of a broker and their progress";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse status [JOB] [--broker ADDR] [--json] [--watch[=MS]]\n\n"
            "Shows every job of the broker (or only JOB): state, games, failures,\n"
            "positions and rate, the reason of a failed job, and the number of live workers.\n\n"
            "  --broker ADDR   broker address (default $HS_BROKER or %s)\n"
            "  --json          one JSON object {\"workers\":N,\"jobs\":[{...}]}\n"
            "  --watch[=MS]    ask again every MS ms (default 1000), printing each answer\n"
            "                  (one JSON object per line with --json), until no job\n"
            "                  (or JOB) is running any more\n",
            HS_CLI_DEFAULT_BROKER);
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
    for (;;) {
        hs_wire_msg_t r;
        if (hs_client_status(cl, job, &r, &err) < 0) {
            fprintf(stderr, "hyeongse status: %s\n", err.msg);
            hs_client_destroy(&cl);
            return 1;
        }
        hs__cli_print_status(stdout, &r.status_reply, json);
        fflush(stdout);
        bool running = false;
        for (int i = 0; i < r.status_reply.num_jobs; i++)
            running |= r.status_reply.jobs[i].state &&
                       !strcmp(r.status_reply.jobs[i].state, "running");
        hs_wire_msg_fini(&r);
        if (!watch || !running)
            break;
        usleep((useconds_t)watch * 1000);
        if (!json)
            fputc('\n', stdout);
    }
    hs_client_destroy(&cl);
    return 0;
}
