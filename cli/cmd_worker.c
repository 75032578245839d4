/*
 * cli/cmd_worker.c — `hyeongse worker --connect ADDR --threads N`: evaluate tasks
 * from a broker until SIGTERM/SIGINT, then finish the tasks in hand and leave.
 * Says on stderr, even without --verbose, when the broker first answers and why
 * it stopped: a worker host's log then shows that it worked, and for whom.
 */
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "core/wire.h"
#include "worker/engine.h"
#include "worker/worker.h"

const char hs_cmd_worker_summary[] = "run a worker: evaluate positions for a broker";

/* The one piece of global state a signal handler needs. */
static atomic_int s_stop;

/* The signal's number: non-zero stops the worker, and says which it was. */
static void s_on_signal(int sig)
{
    atomic_store(&s_stop, sig);
}

/* What the lines about the worker's life need (the I/O thread prints the
 * connected line; main prints the rest). */
typedef struct s_life {
    const hs_worker_config_t *cfg;
    const char *engines;
    char name[HS_WIRE_MAX_NAME];   /* as READY gave it, once connected */
    int connections;
} s_life_t;

/* Runs on the thread of hs_worker_run, which is main's here. */
static void s_on_connected(void *arg, const char *name, int connections)
{
    s_life_t *l = arg;
    snprintf(l->name, sizeof l->name, "%s", name);
    l->connections = connections;
    if (connections == 1)
        fprintf(stderr, "hyeongse worker: %s connected to %s: %d threads, engines %s\n", name,
                l->cfg->endpoint, l->cfg->threads, l->engines);
    else
        fprintf(stderr, "hyeongse worker: %s connected to %s again (connection %d)\n", name,
                l->cfg->endpoint, connections);
}

/* The last line: what was done, and why it stopped. */
static void s_say_stopped(const s_life_t *l, const hs_worker_stats_t *st, int rc,
                          const hs_error_t *err)
{
    const hs_worker_config_t *cfg = l->cfg;
    char why[HS_ERROR_MSG_MAX + 16];
    if (rc < 0)
        snprintf(why, sizeof why, "an error: %s", err->msg);
    else
        snprintf(why, sizeof why, "%s", atomic_load(&s_stop) == SIGINT ? "SIGINT"
                                        : atomic_load(&s_stop) ? "SIGTERM" : "returned");
    if (l->connections == 0) {
        fprintf(stderr, "hyeongse worker: stopped by %s without the broker at %s ever "
                        "answering\n", why, cfg->endpoint);
        return;
    }
    fprintf(stderr, "hyeongse worker: %s stopped by %s: %llu tasks done, %llu positions, "
                    "%llu failed tasks, %llu reconnects\n", l->name, why,
            (unsigned long long)st->tasks, (unsigned long long)st->positions,
            (unsigned long long)st->task_errors, (unsigned long long)st->reconnects);
}

static void s_usage(FILE *out)
{
    char known[256];
    fprintf(out,
            "usage: hyeongse worker --connect ADDR [--threads N] [--engines LIST]\n"
            "                       [--credit N] [--batch N] [--heartbeat-ms N] [--name NAME]\n"
            "                       [--verbose]\n\n"
            "Connects to a broker (the address given to `hyeongse broker --bind`) and\n"
            "evaluates the positions of the tasks it hands out. Reconnects after 1 s,\n"
            "doubling up to 32 s, when the broker goes silent. SIGTERM: finishes the\n"
            "tasks in hand, sends their results and leaves.\n\n"
            "  --connect ADDR     broker address, e.g. tcp://broker-host:5555\n"
            "  --threads N        engine threads (default: one per CPU)\n"
            "  --engines LIST     engines offered (default all: %s)\n"
            "  --credit N         tasks held at once (default 4 x threads + 8)\n"
            "  --batch N          positions per engine call (default: the engine's)\n"
            "  --heartbeat-ms N   heartbeat interval (default 1000)\n"
            "  --name NAME        name shown by the broker (default host:pid)\n"
            "  --verbose          log connection events (without it: one line when the\n"
            "                     broker first answers, one when the worker stops)\n",
            hs_engine_list(known, sizeof known));
}

int hs_cmd_worker(int argc, char **argv)
{
    static const struct option opts[] = {
        { "connect", required_argument, 0, 'c' }, { "broker", required_argument, 0, 'c' },
        { "threads", required_argument, 0, 't' }, { "engines", required_argument, 0, 'e' },
        { "credit", required_argument, 0, 'C' },  { "batch", required_argument, 0, 'B' },
        { "heartbeat-ms", required_argument, 0, 'H' }, { "name", required_argument, 0, 'n' },
        { "verbose", no_argument, 0, 'v' },       { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    hs_worker_config_t cfg = { .stop = &s_stop };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "c:t:e:C:B:H:n:vh", opts, NULL)) != -1) {
        switch (c) {
        case 'c': cfg.endpoint = optarg; break;
        case 't':
            if (hs__cli_int("worker", "--threads", optarg, 1, 1024, &cfg.threads) < 0)
                return 2;
            break;
        case 'e': cfg.engines = optarg; break;
        case 'C':
            if (hs__cli_int("worker", "--credit", optarg, 1, 65536, &cfg.credit) < 0)
                return 2;
            break;
        case 'B':
            if (hs__cli_int("worker", "--batch", optarg, 1, 4096, &cfg.batch) < 0)
                return 2;
            break;
        case 'H':
            if (hs__cli_int("worker", "--heartbeat-ms", optarg, 10, 3600000, &cfg.heartbeat_ms) < 0)
                return 2;
            break;
        case 'n': cfg.name = optarg; break;
        case 'v': cfg.verbose = 1; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (!cfg.endpoint) {
        s_usage(stderr);
        return 2;
    }
    if (cfg.threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg.threads = n > 0 ? (int)n : 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = s_on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    char known[1024];
    s_life_t life = { .cfg = &cfg,
                      .engines = cfg.engines ? cfg.engines : hs_engine_list(known, sizeof known) };
    cfg.on_connected = s_on_connected;
    cfg.on_connected_arg = &life;
    hs_error_t err = { 0 };
    hs_worker_stats_t st = { 0 };
    int rc = hs_worker_run(&cfg, &st, &err);
    s_say_stopped(&life, &st, rc, &err);
    return rc < 0 ? 1 : 0;
}
