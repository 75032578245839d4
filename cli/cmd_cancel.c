/*
 * cli/cmd_cancel.c — `hyeongse cancel JOB [--broker ADDR]`.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "cluster.h"
#include "keys.h"

const char hs_cmd_cancel_summary[] = "cancel a job on a broker";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse cancel JOB [--broker ADDR] [--key FILE --server-key K]\n\n"
            "Cancels a running job: its queued tasks are dropped, results already\n"
            "stored stay. Exit status 1 when the job was not running or there is no\n"
            "such job.\n\n"
            "  --broker ADDR   broker address (default $HS_BROKER or %s)\n"
            HS_CLI_KEY_HELP
            "  --config FILE     options from a file (\"option value\" lines)\n",
            HS_CLI_DEFAULT_BROKER);
}

/* CANCEL_REPLY says only that job was not canceled: for an unknown job (or
 * another key's, which a broker answers alike) as for one that has ended. The
 * job's STATUS tells them apart, as `status JOB` says it: "no such job". Exit
 * status 1 either way (as `status` for an unknown job). */
static int s_not_canceled(hs_client_t *cl, uint64_t job)
{
    hs_error_t err = { 0 };
    hs_wire_msg_t r;
    int rc = hs_client_status(cl, job, &r, &err);
    if (rc == HS_ENOTFOUND) {
        fprintf(stderr, "hyeongse cancel: job %" PRIu64 ": no such job\n", job);
        return 1;
    }
    const char *state = NULL;
    if (rc == 0 && r.status_reply.num_jobs == 1)
        state = r.status_reply.jobs[0].state;
    if (state)
        printf("job %" PRIu64 ": not running (%s: nothing to cancel)\n", job, state);
    else
        printf("job %" PRIu64 ": not running (nothing to cancel)\n", job);
    if (rc == 0)
        hs_wire_msg_fini(&r);
    return 1;
}

int hs_cmd_cancel(int argc, char **argv)
{
    static const struct option opts[] = {
        { "broker", required_argument, 0, 'b' }, { "help", no_argument, 0, 'h' },
        HS_CLI_KEY_OPTIONS,                      { 0, 0, 0, 0 },
    };
    const char *broker = NULL;
    hs_cli_keys_t keys = { 0 };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': broker = optarg; break;
        case HS_CLI_OPT_KEY: keys.key = optarg; break;
        case HS_CLI_OPT_SERVER_KEY: keys.server_key = optarg; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        s_usage(stderr);
        return 2;
    }
    if (hs__cli_keys_check("cancel", &keys))
        return 2;
    uint64_t job = 0;
    if (hs__cli_job_id("cancel", argv[optind], &job) < 0)
        return 2;
    hs_error_t err = { 0 };
    hs_client_t *cl = NULL;
    bool canceled = false;
    if (hs__cli_client_new("cancel", &keys, NULL, hs__cli_broker_addr(broker), 2000, 2, &cl,
                           &err) < 0 ||
        hs_client_cancel(cl, job, &canceled, &err) < 0) {
        fprintf(stderr, "hyeongse cancel: %s\n", err.msg);
        hs_client_destroy(&cl);
        return 1;
    }
    if (canceled) {
        hs_client_destroy(&cl);
        printf("job %" PRIu64 ": canceled\n", job);
        return 0;
    }
    int status = s_not_canceled(cl, job);
    hs_client_destroy(&cl);
    return status;
}
