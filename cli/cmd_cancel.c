/*
 * cli/cmd_cancel.c — `hyeongse cancel JOB [--broker ADDR]`.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "keys.h"

const char hs_cmd_cancel_summary[] = "cancel a job on a broker";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse cancel JOB [--broker ADDR] [--key FILE --server-key K]\n\n"
            "Cancels a running job: its queued tasks are dropped, results already\n"
            "stored stay. Exit status 1 when the job was not running.\n\n"
            "  --broker ADDR   broker address (default $HS_BROKER or %s)\n"
            HS_CLI_KEY_HELP
            "  --config FILE     options from a file (\"option value\" lines)\n",
            HS_CLI_DEFAULT_BROKER);
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
    char *end;
    uint64_t job = strtoull(argv[optind], &end, 10);
    if (*end || job == 0) {
        fprintf(stderr, "hyeongse cancel: bad job id '%s'\n", argv[optind]);
        return 2;
    }
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
    hs_client_destroy(&cl);
    printf("job %" PRIu64 ": %s\n", job, canceled ? "canceled" : "not running (nothing to cancel)");
    return canceled ? 0 : 1;
}
