/*
 * cli/cmd_status.c — `hyeongse status [JOB] [--broker ADDR] [--json] [--watch[=MS]]
 * [--all] [--state STATE] [--limit N]`, and `status --cluster [--json]`.
 *
 * Without JOB it shows one page of jobs, newest first (STATUS's before/limit/
 * state fields, docs/PROTOCOL.md), and says how many more match; --all asks
 * page after page (each page's last id is the next one's `before`, so jobs
 * created meanwhile do not shift the pages) and prints them as one list.
 *
 * --watch sends WATCH: the broker pushes a STATUS_REPLY when the counts change
 * (at most every 250 ms) and when the job ends (docs/PROTOCOL.md, WATCH); this
 * prints one at most every MS ms, and the last one, until the job (or, without
 * JOB, every job) has stopped running. The client heartbeats meanwhile.
 *
 * --cluster asks the same STATUS (one job's page, not shown) for the workers'
 * counts and the queue it answers with (cli/status_cluster.c prints them).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cluster.h"
#include "status_cluster.h"
#include "core/clock.h"
#include "keys.h"

const char hs_cmd_status_summary[] = "show the jobs of a broker and their progress";

/* Jobs on the default page: a screenful, not the 4,096 a reply can hold. */
#define S_PAGE 100

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse status [JOB] [--broker ADDR] [--json] [--watch[=MS]]\n"
            "                       [--all] [--state STATE] [--limit N]\n"
            "                       [--key FILE --server-key K]\n"
            "       hyeongse status --cluster [--json] [--broker ADDR] [--key FILE --server-key K]\n\n"
            "Shows the jobs of the broker, newest first (or only JOB): state, games,\n"
            "failures, positions and rate, a reason (why a job failed, was canceled or\n"
            "waits; that a job \"done\" analysed nothing: all its games failed), and the\n"
            "live workers: their count, and to an admin key their tasks, the nets they\n"
            "hold (first 8 hex digits of each hash) and their backend. Without --all, one\n"
            "page: the newest %d jobs (--limit), and how many more there are.\n\n"
            "  --broker ADDR   broker address (default $HS_BROKER or %s)\n"
            "  --cluster       the cluster instead of the jobs: one line a worker (engines,\n"
            "                  nets, backend, tasks and positions leased, positions/s\n"
            "                  smoothed, positions done, errors it reported, leases\n"
            "                  requeued), and the broker's uptime, jobs running, tasks\n"
            "                  queued and leased and positions pending. With --json one\n"
            "                  object (keys: docs/PROTOCOL.md, \"status --cluster\")\n"
            "  --all           every job, page after page\n"
            "  --state STATE   only jobs in STATE: running, done, failed or canceled\n"
            "  --limit N       jobs per page, 1..%d (default %d)\n"
            "  --json          one JSON object {\"workers\":N,\"jobs\":[{...}],\"total\":N,\n"
            "                  \"more\":BOOL,\"worker_list\":[{\"name\":S,\"tasks\":N,\"nets\":\n"
            "                  [HASH...],\"backend\":S}]} (total: jobs that match; more: not\n"
            "                  all shown; worker_list: when a worker is live, full hashes)\n"
            "  --watch[=MS]    keep watching: the broker pushes progress as it changes;\n"
            "                  print it at most every MS ms (default 1000; one JSON object\n"
            "                  per line with --json) and once more when it ends, until no\n"
            "                  job (or JOB) is running any more\n"
            HS_CLI_KEY_HELP
            "  --config FILE     options from a file (\"option value\" lines)\n",
            S_PAGE, HS_CLI_DEFAULT_BROKER, HS_WIRE_MAX_JOBS, S_PAGE);
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

/* Appends the jobs of page p to *all (taking their strings; p keeps none). */
static int s_take_page(hs_wire_status_reply_t *all, hs_wire_status_reply_t *p)
{
    hs_wire_job_status_t *v = realloc(all->jobs, sizeof *v * (size_t)(all->num_jobs +
                                                                       p->num_jobs + 1));
    if (!v)
        return HS_ENOMEM;
    all->jobs = v;
    memcpy(v + all->num_jobs, p->jobs, sizeof *v * (size_t)p->num_jobs);
    all->num_jobs += p->num_jobs;
    p->num_jobs = 0;
    all->workers = p->workers;
    return 0;
}

/*
 * One page (all = false) or every page of STATUS q into *out (a STATUS_REPLY;
 * the caller finis it). An older broker ignores the paging fields and has no
 * total (-1): its one reply is all there is.
 */
static int s_status_pages(hs_client_t *cl, hs_wire_status_t q, bool all, hs_wire_msg_t *out,
                          hs_error_t *err)
{
    int rc = hs_client_status_page(cl, &q, out, err);
    hs_wire_status_reply_t *acc = &out->status_reply;
    while (rc == 0 && all && acc->more && acc->total >= 0 && acc->num_jobs > 0) {
        hs_wire_msg_t page;
        q.before = acc->jobs[acc->num_jobs - 1].id;
        if ((rc = hs_client_status_page(cl, &q, &page, err)) < 0)
            break;
        acc->more = page.status_reply.more && page.status_reply.num_jobs > 0;
        if ((rc = s_take_page(acc, &page.status_reply)) < 0)
            rc = hs_error_set(err, rc, "out of memory");
        hs_wire_msg_fini(&page);
    }
    if (rc < 0)
        hs_wire_msg_fini(out);
    return rc;
}

/* The "N more" line under a table page. */
static void s_print_more(const hs_wire_status_reply_t *r, bool all)
{
    int64_t rest = r->total - r->num_jobs;
    if (r->total >= 0 && r->more && rest > 0 && !all)
        printf("(%" PRId64 " older job%s not shown: --all lists every job, --limit N more "
               "per page)\n", rest, rest == 1 ? "" : "s");
}

int hs_cmd_status(int argc, char **argv)
{
    static const struct option opts[] = {
        { "broker", required_argument, 0, 'b' }, { "json", no_argument, 0, 'j' },
        { "watch", optional_argument, 0, 'w' },  { "help", no_argument, 0, 'h' },
        { "all", no_argument, 0, 'a' },          { "state", required_argument, 0, 's' },
        { "limit", required_argument, 0, 'l' },  { "cluster", no_argument, 0, 'c' },
        HS_CLI_KEY_OPTIONS,
        { 0, 0, 0, 0 },
    };
    const char *broker = NULL;
    int json = 0, c, watch = 0, all = 0, paging = 0, cluster = 0;
    hs_wire_status_t q = { .limit = S_PAGE };
    hs_cli_keys_t keys = { 0 };
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:jh", opts, NULL)) != -1) {
        switch (c) {
        case 'b': broker = optarg; break;
        case HS_CLI_OPT_KEY: keys.key = optarg; break;
        case HS_CLI_OPT_SERVER_KEY: keys.server_key = optarg; break;
        case 'j': json = 1; break;
        case 'w':
            watch = 1000;
            if (optarg && hs__cli_int("status", "--watch", optarg, 50, 3600000, &watch) < 0)
                return 2;
            break;
        case 'a': all = 1; paging = 1; break;
        case 'c': cluster = 1; break;
        case 's':
            if (strcmp(optarg, "running") && strcmp(optarg, "done") && strcmp(optarg, "failed")
                && strcmp(optarg, "canceled")) {
                fprintf(stderr, "hyeongse status: --state must be running, done, failed or "
                                "canceled\n");
                return 2;
            }
            q.state = optarg;
            paging = 1;
            break;
        case 'l':
            if (hs__cli_int("status", "--limit", optarg, 1, HS_WIRE_MAX_JOBS, &q.limit) < 0)
                return 2;
            paging = 1;
            break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    uint64_t job = 0;
    if (optind < argc) {
        if (hs__cli_job_id("status", argv[optind], &job) < 0)
            return 2;
    }
    if (paging && (job || watch)) {
        fprintf(stderr, "hyeongse status: --all, --state and --limit list jobs: not with JOB "
                        "or --watch\n");
        return 2;
    }
    if (cluster && (paging || job || watch)) {
        fprintf(stderr, "hyeongse status: --cluster shows the workers and the queue: not with "
                        "JOB, --watch, --all, --state or --limit\n");
        return 2;
    }
    if (hs__cli_keys_check("status", &keys))
        return 2;
    if (cluster)
        q.limit = 1;   /* the reply's jobs are not shown: the smallest page */
    if (all && q.limit == S_PAGE)
        q.limit = HS_WIRE_MAX_JOBS;   /* fewer round trips */
    q.job_id = job;
    hs_error_t err = { 0 };
    hs_client_t *cl = NULL;
    if (hs__cli_client_new("status", &keys, NULL, hs__cli_broker_addr(broker), 2000, 2, &cl,
                           &err) < 0) {
        fprintf(stderr, "hyeongse status: %s\n", err.msg);
        return 1;
    }
    int rc, exit_status = 0;
    if (watch) {
        s_watch_t w = { .json = json, .every = watch / 1000.0, .last = -1e9 };
        rc = hs_client_watch(cl, job, 1000, s_watch_print, &w, &err);
    } else {
        hs_wire_msg_t r;
        if ((rc = s_status_pages(cl, q, all, &r, &err)) == 0 && cluster) {
            exit_status = hs__cli_print_cluster(stdout, &r.status_reply, json);
            hs_wire_msg_fini(&r);
        } else if (rc == 0) {
            hs__cli_print_status(stdout, &r.status_reply, json);
            if (!json)
                s_print_more(&r.status_reply, all);
            hs_wire_msg_fini(&r);
        }
    }
    if (rc < 0) {
        fprintf(stderr, "hyeongse status: %s\n", err.msg);
        hs_client_destroy(&cl);
        return 1;
    }
    hs_client_destroy(&cl);
    return exit_status;
}
