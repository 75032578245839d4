/*
 * cli/cmd_worker.c — `hyeongse worker --connect ADDR --threads N`: evaluate tasks
 * from a broker until SIGTERM, SIGINT or SIGHUP, then finish the tasks under way,
 * give the others back and leave (a second signal: leave at once). SIGHUP is a
 * stop like SIGTERM, not a reload: its default action killed the worker with
 * its leases (exit 129, no last line), and a worker reads nothing it could
 * read again.
 * `--net FILE` loads a net once for every engine thread; READY lists its hash,
 * so the broker sends this worker the jobs that name it.
 * Says on stderr, even without --verbose, when the broker first answers, when it
 * does not answer (a wrong address otherwise waits in silence) and why it
 * stopped: a worker host's log then shows that it worked, and for whom.
 */
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "keys.h"
#include "core/log.h"
#include "core/wire.h"
#include "worker/engine.h"
#include "worker/net_specs.h"
#include "worker/nn/backend.h"
#include "worker/worker.h"

const char hs_cmd_worker_summary[] = "run a worker: evaluate positions for a broker";

/* The one piece of global state a signal handler needs. */
static atomic_int s_stop;

/* The first signal's number: non-zero stops the worker, and says which it
 * was; a second one adds HS_WORKER_STOP_NOW (leave without waiting). Lock-free
 * atomics only: async-signal-safe. */
static void s_on_signal(int sig)
{
    int none = 0;
    if (!atomic_compare_exchange_strong(&s_stop, &none, sig))
        atomic_fetch_or(&s_stop, HS_WORKER_STOP_NOW);
}

/* What the lines about the worker's life need (the I/O thread prints the
 * connected line; main prints the rest). */
typedef struct s_life {
    const hs_worker_config_t *cfg;
    const char *engines;
    char nets[HS_NET_MAX * 10 + 32];   /* ", nets 0123abcd,... on cpu", or "" */
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
        hs_log_event("worker", "%s connected to %s: %d threads, engines %s%s", name,
                     l->cfg->endpoint, l->cfg->threads, l->engines, l->nets);
    else
        hs_log_event("worker", "%s connected to %s again (connection %d)", name,
                     l->cfg->endpoint, connections);
}

/* Runs on the thread of hs_worker_run: the broker has not answered for
 * seconds (answered 0), or answers after such a call (answered 1). */
static void s_on_silence(void *arg, const char *name, int seconds, int answered)
{
    const s_life_t *l = arg;
    if (answered)
        hs_log_event("worker", "%s: %s answers now, after %d s without an answer", name,
                     l->cfg->endpoint, seconds);
    else
        hs_log_event("worker", "%s: no answer from %s for %d s: is the broker running, and "
                     "is the address right?%s still trying", name, l->cfg->endpoint, seconds,
                     l->cfg->curve ? " (and are the keys right?)" : "");
}

/* The last line: what was done, and why it stopped. */
static void s_say_stopped(const s_life_t *l, const hs_worker_stats_t *st, int rc,
                          const hs_error_t *err)
{
    const hs_worker_config_t *cfg = l->cfg;
    char why[HS_ERROR_MSG_MAX + 32];
    int stop = atomic_load(&s_stop), sig = stop & ~HS_WORKER_STOP_NOW;
    if (rc < 0)
        snprintf(why, sizeof why, "an error: %s", err->msg);
    else
        snprintf(why, sizeof why, "%s%s", sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP"
                 : sig ? "SIGTERM" : "returned",
                 stop & HS_WORKER_STOP_NOW ? " twice (left at once)" : "");
    if (l->connections == 0) {
        /* A CURVE broker drops an unknown key's handshake without a word. */
        hs_log_event("worker", "stopped by %s without the broker at %s ever answering%s", why,
                     cfg->endpoint,
                     cfg->curve ? " (is this worker's key in the broker's --workers list, and "
                                  "is --server-key the broker's public key?)" : "");
        return;
    }
    hs_log_event("worker", "%s stopped by %s: %llu tasks done, %llu positions, %llu failed "
                 "tasks, %llu reconnects, %llu tasks given back", l->name, why,
                 (unsigned long long)st->tasks, (unsigned long long)st->positions,
                 (unsigned long long)st->task_errors, (unsigned long long)st->reconnects,
                 (unsigned long long)st->given_back);
}

static void s_usage(FILE *out)
{
    char known[256];
    fprintf(out,
            "usage: hyeongse worker --connect ADDR [--threads N] [--engines LIST]\n"
            "                       [--credit N] [--batch N] [--heartbeat-ms N] [--name NAME]\n"
            "                       [--net FILE]... [--backend cpu|cuda|ref] [--verbose]\n"
            "                       [--key FILE --server-key K] [--config FILE]\n\n"
            "Connects to a broker (the address given to `hyeongse broker --bind`) and\n"
            "evaluates the positions of the tasks it hands out. Reconnects after 1 s,\n"
            "doubling up to 32 s, when the broker goes silent. Says so without\n"
            "--verbose after 10 s without an answer, again 20 s and 40 s later, then\n"
            "once a minute, and once when the broker answers again.\n"
            "SIGTERM, SIGHUP or SIGINT (Ctrl-C): starts no new task; the tasks being\n"
            "evaluated finish and their results are sent; the tasks queued and not\n"
            "started, and those still arriving, are given back unevaluated; then it\n"
            "disconnects (the broker requeues what it gave back) and exits 0, saying how\n"
            "many tasks it gave back. A second such signal: disconnects at once, giving\n"
            "back the tasks being evaluated too, and exits once the engine calls under\n"
            "way return. SIGHUP is no reload: start the worker again to change it.\n\n"
            "  --connect ADDR     broker address, e.g. tcp://broker-host:5555\n"
            "  --threads N        engine threads (default: one per CPU)\n"
            "  --engines LIST     engines offered (default all: %s)\n"
            "  --credit N         tasks held at once (default 4 x threads + 8)\n"
            "  --batch N          positions per engine call, and per net batch (default:\n"
            "                     the engine's; for nets, the backend's)\n"
            "  --net FILE         a net for the net engines (KataGo's .bin.gz or our own\n"
            "                     .hsn), loaded once; up to %d; the broker sends jobs that\n"
            "                     name a net only to workers that hold it. --engines net\n"
            "                     without --net loads the default model " HS_NN_DEFAULT_MODEL "\n"
            "                     ($HYEONGSE_MODELS if set, else the source tree's models/,\n"
            "                     else the installed share/hyeongse/models)\n"
            "  --backend B        how nets run: cpu, cuda or ref (default %s)\n"
            "  --heartbeat-ms N   heartbeat interval (default 1000)\n"
            "  --name NAME        name shown by the broker (default host:pid)\n"
            "  --verbose          log connection events (without it: one line when the\n"
            "                     broker first answers, one when the worker stops)\n"
            "  --key FILE         this worker's key pair (PREFIX.key or PREFIX; made by\n"
            "                     `hyeongse keygen`): talk CURVE to the broker, which must\n"
            "                     list the .pub in its --workers file\n"
            "  --server-key K     the broker's public key: its .pub or .key file, or the\n"
            "                     40-character key itself (needed with --key)\n"
            "  --config FILE      options from a file (\"option value\" lines)\n",
            hs_engine_list(known, sizeof known), HS_NET_MAX,
            hs_nn_backend_kind_name(hs_nn_backend_default()));
}

/* The nets part of the "connected" line: ", nets 0123abcd,89abcdef on cpu". */
static void s_describe_nets(const hs_net_set_t *nets, hs_nn_backend_kind_t kind, char *out,
                            size_t size)
{
    out[0] = '\0';
    if (nets->n == 0)
        return;
    size_t at = (size_t)snprintf(out, size, ", nets ");
    for (int i = 0; i < nets->n && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%s%.8s", i ? "," : "", nets->hashes[i]);
    if (at < size)
        snprintf(out + at, size - at, " on %s", hs_nn_backend_kind_name(kind));
}

/* --net, --backend and net=FILE in --engines: loads the nets (before
 * connecting, so a missing or broken file stops the worker at once) and checks
 * the backend is there. 0, or the exit status. */
static int s_nets_setup(hs_net_set_t *nets, const char *const *paths, int n_paths,
                        const char *backend, hs_worker_config_t *cfg, char *engines_buf,
                        size_t engines_size)
{
    hs_error_t err = { 0 };
    hs_nn_backend_kind_t kind = hs_nn_backend_default();
    if (backend && hs_nn_backend_parse(backend, &kind, &err) < 0) {
        fprintf(stderr, "hyeongse worker: --backend: %s\n", err.msg);
        return 2;
    }
    if (backend && !hs_nn_backend_available(kind, &err)) {
        fprintf(stderr, "hyeongse worker: --backend %s: %s\n", backend, err.msg);
        return 1;
    }
    for (int i = 0; i < n_paths; i++)
        if (hs_net_set_load(nets, paths[i], &err) < 0) {
            fprintf(stderr, "hyeongse worker: %s\n", err.msg);
            return 1;
        }
    /* --engines mcts:net=FILE: FILE loaded as --net FILE is, its hash in the
     * spec (the offer keeps only names; the net's hash goes in READY). */
    if (cfg->engines && hs_net_specs_files(nets, cfg->engines, engines_buf, engines_size,
                                           &err) < 0) {
        fprintf(stderr, "hyeongse worker: %s\n", err.msg);
        return 1;
    }
    if (cfg->engines)
        cfg->engines = engines_buf;
    /* --engines net without --net: the default model */
    int rc = cfg->engines ? hs_net_set_load_default(nets, cfg->engines, NULL, &err) : 0;
    if (rc < 0) {   /* none there: the command needs --net, as a usage error */
        fprintf(stderr, "hyeongse worker: --engines %s without --net: %s\n", cfg->engines,
                err.msg);
        return rc == HS_ENOTFOUND ? 2 : 1;
    }
    cfg->nets = (const struct hs_nn_model *const *)nets->models;
    cfg->n_nets = nets->n;
    cfg->net_backend = (int)kind;
    return 0;
}

/*
 * With nets, as analyze does (cli/cmd_analyze.c): a cpu or cuda backend
 * runs every core (or the GPU) inside each call, so without --threads ONE
 * engine thread runs, and with --threads N each backend gets cores / N.
 * Batches: --batch or the backend's default positions per engine call.
 */
static void s_net_threads(hs_worker_config_t *cfg, bool threads_given)
{
    if (!cfg->batch) {
        int b = hs_nn_backend_default_batch((hs_nn_backend_kind_t)cfg->net_backend);
        cfg->batch = b < 256 ? b : 256;
    }
    cfg->net_batch = cfg->batch;
    if (cfg->net_backend == HS_NN_BACKEND_REF)
        return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (!threads_given)
        cfg->threads = 1;
    cfg->net_threads = cfg->threads > 1 ? (cores > cfg->threads ? (int)(cores / cfg->threads) : 1)
                                        : 0;
}

int hs_cmd_worker(int argc, char **argv)
{
    static const struct option opts[] = {
        { "connect", required_argument, 0, 'c' }, { "broker", required_argument, 0, 'c' },
        { "threads", required_argument, 0, 't' }, { "engines", required_argument, 0, 'e' },
        { "credit", required_argument, 0, 'C' },  { "batch", required_argument, 0, 'B' },
        { "heartbeat-ms", required_argument, 0, 'H' }, { "name", required_argument, 0, 'n' },
        { "net", required_argument, 0, 'N' },     { "backend", required_argument, 0, 'k' },
        { "verbose", no_argument, 0, 'v' },       { "help", no_argument, 0, 'h' },
        HS_CLI_KEY_OPTIONS,                       { 0, 0, 0, 0 },
    };
    hs_worker_config_t cfg = { .stop = &s_stop };
    const char *net_paths[HS_NET_MAX], *backend = NULL;
    int n_net_paths = 0;
    hs_cli_keys_t keys = { 0 };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "c:t:e:C:B:H:n:N:k:vh", opts, NULL)) != -1) {
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
            if (hs__cli_int("worker", "--batch", optarg, 1, HS_WORKER_BATCH_MAX, &cfg.batch) < 0)
                return 2;
            break;
        case 'H':
            if (hs__cli_int("worker", "--heartbeat-ms", optarg, 10, 3600000, &cfg.heartbeat_ms) < 0)
                return 2;
            break;
        case 'n': cfg.name = optarg; break;
        case 'N':
            if (n_net_paths == HS_NET_MAX) {
                fprintf(stderr, "hyeongse worker: --net: at most %d nets\n", HS_NET_MAX);
                return 2;
            }
            net_paths[n_net_paths++] = optarg;
            break;
        case 'k': backend = optarg; break;
        case 'v': cfg.verbose = 1; break;
        case HS_CLI_OPT_KEY: keys.key = optarg; break;
        case HS_CLI_OPT_SERVER_KEY: keys.server_key = optarg; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (!cfg.endpoint) {
        s_usage(stderr);
        return 2;
    }
    if (hs__cli_keys_check("worker", &keys))
        return 2;
    hs_curve_client_t curve;
    hs_error_t kerr = { 0 };
    int krc = hs__cli_keys_load("worker", &keys, cfg.endpoint, &curve, &kerr);
    if (krc < 0) {
        fprintf(stderr, "hyeongse worker: %s\n", kerr.msg);
        return krc == HS_EINVAL ? 2 : 1;
    }
    cfg.curve = krc == 1 ? &curve : NULL;
    bool threads_given = cfg.threads > 0;
    if (cfg.threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg.threads = n > 0 ? (int)n : 1;
    }
    hs_net_set_t nets = { 0 };
    char engines_buf[1024];
    int status = s_nets_setup(&nets, net_paths, n_net_paths, backend, &cfg, engines_buf,
                              sizeof engines_buf);
    if (status) {
        hs_net_set_free(&nets);
        return status;
    }
    if (nets.n)
        s_net_threads(&cfg, threads_given);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = s_on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    char known[1024];
    s_life_t life = { .cfg = &cfg,
                      .engines = cfg.engines ? cfg.engines : hs_engine_list(known, sizeof known) };
    s_describe_nets(&nets, (hs_nn_backend_kind_t)cfg.net_backend, life.nets, sizeof life.nets);
    cfg.on_connected = s_on_connected;
    cfg.on_connected_arg = &life;
    cfg.on_silence = s_on_silence;
    cfg.on_silence_arg = &life;
    hs_error_t err = { 0 };
    hs_worker_stats_t st = { 0 };
    int rc = hs_worker_run(&cfg, &st, &err);
    s_say_stopped(&life, &st, rc, &err);
    hs_net_set_free(&nets);
    memset(&curve, 0, sizeof curve);
    return rc < 0 ? 1 : 0;
}
