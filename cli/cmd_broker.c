/*
 * cli/cmd_broker.c — `hyeongse broker --bind ADDR --db DIR`: run the broker until
 * SIGTERM, SIGINT or SIGHUP. Signal handling lives here; the library only reads a
 * stop flag.
 *
 * SIGHUP stops the broker as SIGTERM does, cleanly (exit 0, --ready-file
 * removed, a last line saying so): operators send it after editing an
 * allow-list, and its default action killed the broker without a word (exit
 * 129). It is not a reload: the lists are read at start, and ignoring HUP would
 * let an operator believe a key removed from a list was refused when it is
 * still admitted. Stopped, the broker is seen to be down, and its log says why
 * (under systemd's Restart=on-failure a clean exit is not restarted: restart
 * it with `systemctl restart`, which is the reload).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "broker/broker.h"
#include "broker/client.h"
#include "keys.h"
#include "core/log.h"
#include "core/wire.h"
#include "core/wire_curve.h"
#include "store/store.h"

const char hs_cmd_broker_summary[] = "run the broker: job queue, leases, results into the store";

/* The global state a signal handler needs: the library's stop flag, and the
 * first signal's number for the last line. */
static atomic_int s_stop, s_signal;

/* What the command does once the broker serves (the library logs where):
 * write --ready-file when asked. written: the file was written, so it is
 * removed at exit and a stale file never names a dead broker. */
typedef struct s_serving {
    const char *ready_path;
    int written;
} s_serving_t;

/* The ready file is written whole under a temporary name, then renamed: a script
 * polling for it never reads half an address. */
static void s_on_serving(void *arg, const char *endpoints)
{
    s_serving_t *rf = arg;
    if (!rf->ready_path)
        return;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", rf->ready_path) >= (int)sizeof tmp) {
        fprintf(stderr, "hyeongse broker: --ready-file path too long\n");
        return;
    }
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%s\n", endpoints) < 0 || fclose(f) != 0 ||
        rename(tmp, rf->ready_path) != 0) {
        fprintf(stderr, "hyeongse broker: cannot write --ready-file %s: %s\n", rf->ready_path,
                strerror(errno));
        return;
    }
    rf->written = 1;
}

/* Lock-free atomics only: async-signal-safe. */
static void s_on_signal(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&s_signal, &none, sig);
    atomic_store(&s_stop, 1);
}

/* The last line of a broker stopped by a signal (the library's "stopping" line
 * comes before it, with the loop's counts). */
static void s_say_stopped(void)
{
    int sig = atomic_load(&s_signal);
    if (sig == SIGHUP)
        hs_log_event("broker", "stopped by SIGHUP: the broker has no reload; start it again "
                     "to read its allow-lists again (docs/SECURITY.md)");
    else if (sig)
        hs_log_event("broker", "stopped by %s", sig == SIGINT ? "SIGINT" : "SIGTERM");
}

/* The security options as read: the broker's pair and the merged lists that
 * hs_broker_config_t borrows. */
typedef struct s_security {
    hs_curve_pair_t pair;
    bool have_pair;
    hs_curve_list_t workers, clients, admins;
    bool lists;                /* a list option was given */
} s_security_t;

static void s_security_free(s_security_t *s)
{
    hs_curve_list_free(&s->workers);
    hs_curve_list_free(&s->clients);
    hs_curve_list_free(&s->admins);
    memset(&s->pair, 0, sizeof s->pair);
}

/* A list option: the file merged into *l. */
static int s_list_opt(const char *opt, const char *path, hs_curve_list_t *l, s_security_t *s)
{
    hs_error_t err = { 0 };
    s->lists = true;
    if (hs_curve_list_load(path, l, &err) < 0) {
        fprintf(stderr, "hyeongse broker: %s: %s\n", opt, err.msg);
        return -1;
    }
    return 1;
}

/* The security and limit options: 1 taken, 0 not one of them, -1 bad (said). */
static int s_security_opt(int c, const char *arg, s_security_t *s, hs_broker_config_t *cfg)
{
    hs_error_t err = { 0 };
    long mb;
    switch (c) {
    case 'K':
        if (hs__cli_read_pair(arg, &s->pair, &err) < 0) {
            fprintf(stderr, "hyeongse broker: --key: %s\n", err.msg);
            return -1;
        }
        s->have_pair = true;
        return 1;
    case 'W': return s_list_opt("--workers", arg, &s->workers, s);
    case 'C': return s_list_opt("--clients", arg, &s->clients, s);
    case 'A': return s_list_opt("--admins", arg, &s->admins, s);
    case 'I': cfg->insecure = 1; return 1;
    case 'J': return hs__cli_int("broker", "--limit-jobs", arg, 1, INT_MAX, &cfg->limit_jobs) < 0 ? -1 : 1;
    case 'G': return hs__cli_int("broker", "--limit-games", arg, 1, INT_MAX, &cfg->limit_games) < 0 ? -1 : 1;
    case 'U':
        if (hs__cli_long("broker", "--limit-upload", arg, 1, INT64_MAX >> 20, &mb) < 0)
            return -1;
        cfg->limit_upload = (int64_t)mb << 20;
        return 1;
    default: return 0;
    }
}

/* Wires what was read into cfg; lists without --key are a mistake worth a
 * word (they would admit nobody and protect nothing). */
static int s_security_check(s_security_t *s, hs_broker_config_t *cfg)
{
    if (s->lists && !s->have_pair) {
        fprintf(stderr, "hyeongse broker: --workers, --clients and --admins need --key (the "
                        "broker's key pair)\n");
        return -1;
    }
    if (s->have_pair && cfg->insecure) {
        fprintf(stderr, "hyeongse broker: --insecure is for a broker without --key\n");
        return -1;
    }
    if (!s->have_pair)
        return 0;
    cfg->curve = &s->pair;
    cfg->worker_keys = &s->workers;
    cfg->client_keys = &s->clients;
    cfg->admin_keys = &s->admins;
    return 0;
}

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse broker --bind ADDR --db DIR [--heartbeat-ms N] [--lease-ms N]\n"
            "                       [--max-attempts N] [--queue-max N] [--chunk N]\n"
            "                       [--map-size BYTES] [--maps LIST] [--sync] [--ready-file PATH]\n"
            "                       [--verbose] [--key FILE] [--workers FILE]... [--clients FILE]...\n"
            "                       [--admins FILE]... [--insecure] [--limit-jobs N]\n"
            "                       [--limit-games N] [--limit-upload MB] [--config FILE]\n\n"
            "Serves workers (`hyeongse worker --connect ADDR`) and clients (`submit`,\n"
            "`status`, `cancel` with --broker ADDR) on one address, and keeps jobs,\n"
            "tasks and results in the LMDB store DIR. Restarting it on the same DIR\n"
            "resumes every unfinished job.\n\n"
            "  --bind ADDR        e.g. tcp://0.0.0.0:5555 (several: comma-separated);\n"
            "                     tcp://HOST:* takes a free port (see --ready-file)\n"
            "  --db DIR           store directory (created when missing)\n"
            "  --heartbeat-ms N   heartbeat interval (default 1000); a worker silent for 3\n"
            "                     intervals (of at least 1 s) is taken for lost\n"
            "  --lease-ms N       a task goes back to the queue after N ms (default 600000)\n"
            "  --max-attempts N   leases before a task is marked failed (default 5)\n"
            "  --queue-max N      pending tasks before clients must wait (default 20000)\n"
            "  --chunk N          most positions per task: longer games are split into\n"
            "                     tasks of consecutive moves (default %d)\n"
            "  --map-size BYTES   initial LMDB map size (default 1 GiB; doubles when full)\n"
            "  --maps LIST        per-point maps kept: ownership,influence,classes, all,\n"
            "                     none (default: what DIR keeps, else ownership,classes)\n"
            "  --sync             fsync every commit (survives power loss, not only kill -9)\n"
            "  --ready-file PATH  once serving, write the bound address(es) to PATH, one\n"
            "                     line (a * port resolved); removed again on a clean stop\n"
            "  --verbose          also log each task's events (refused results, failed\n"
            "                     tasks) and more; without it the log says what an\n"
            "                     operator asks: serving, workers ready and lost, jobs\n"
            "                     created, done and canceled (and by which key), keys\n"
            "                     and limits refused, the stop\n\n"
            "SIGTERM, SIGINT or SIGHUP: stops cleanly (exit 0). There is no reload: the\n"
            "allow-lists are read at start, so start the broker again after editing one.\n\n"
            "Security (docs/SECURITY.md):\n"
            "  --key FILE         the broker's key pair (PREFIX.key or PREFIX; `hyeongse\n"
            "                     keygen`): every tcp/ipc address speaks CURVE and admits\n"
            "                     only the keys of the lists below\n"
            "  --workers FILE     allow-list of worker keys: one \"Z85KEY [name]\" or\n"
            "                     \"@file.pub [name]\" a line (repeatable, merged)\n"
            "  --clients FILE     allow-list of client keys: submit, and see and cancel\n"
            "                     their own jobs (repeatable)\n"
            "  --admins FILE      allow-list of admin keys: clients with rights on every\n"
            "                     job (repeatable)\n"
            "  --insecure         allow plaintext on an address that is not loopback\n"
            "                     (without --key such a bind is refused; a warning)\n"
            "  --limit-jobs N     running jobs per client key (default 64)\n"
            "  --limit-games N    games queued and unfinished per client key (default:\n"
            "                     --queue-max)\n"
            "  --limit-upload MB  SUBMIT MiB a minute per client key (default 512)\n"
            "  --config FILE      options from a file (\"option value\" lines)\n",
            HS_BROKER_DEFAULT_CHUNK);
}

int hs_cmd_broker(int argc, char **argv)
{
    static const struct option opts[] = {
        { "bind", required_argument, 0, 'b' },      { "db", required_argument, 0, 'd' },
        { "heartbeat-ms", required_argument, 0, 'H' }, { "lease-ms", required_argument, 0, 'l' },
        { "max-attempts", required_argument, 0, 'a' }, { "queue-max", required_argument, 0, 'q' },
        { "sync", no_argument, 0, 's' },            { "map-size", required_argument, 0, 'M' },
        { "chunk", required_argument, 0, 'c' },     { "verbose", no_argument, 0, 'v' },
        { "ready-file", required_argument, 0, 'r' }, { "maps", required_argument, 0, 'm' },
        { "help", no_argument, 0, 'h' },            { "key", required_argument, 0, 'K' },
        { "workers", required_argument, 0, 'W' },   { "clients", required_argument, 0, 'C' },
        { "admins", required_argument, 0, 'A' },    { "insecure", no_argument, 0, 'I' },
        { "limit-jobs", required_argument, 0, 'J' }, { "limit-games", required_argument, 0, 'G' },
        { "limit-upload", required_argument, 0, 'U' }, { 0, 0, 0, 0 },
    };
    hs_broker_config_t cfg = { .store_flags = HS_STORE_NOSYNC, .stop = &s_stop,
                               .map_size = (size_t)1 << 30 };
    s_serving_t serving = { 0 };
    int c;
    optind = 1;
    unsigned maps;
    hs_error_t merr = { 0 };
    s_security_t sec = { 0 };
    while ((c = getopt_long(argc, argv, "b:d:H:l:a:q:c:sM:vr:m:h", opts, NULL)) != -1) {
        int src = s_security_opt(c, optarg, &sec, &cfg);
        if (src != 0) {
            if (src < 0) {
                s_security_free(&sec);
                return 2;
            }
            continue;
        }
        switch (c) {
        case 'b': cfg.bind = optarg; break;
        case 'd': cfg.db_dir = optarg; break;
        case 'H':
            if (hs__cli_int("broker", "--heartbeat-ms", optarg, 10, 3600000, &cfg.heartbeat_ms) < 0)
                return 2;
            break;
        case 'l':
            if (hs__cli_int("broker", "--lease-ms", optarg, 100, INT_MAX, &cfg.lease_ms) < 0)
                return 2;
            break;
        case 'a':
            if (hs__cli_int("broker", "--max-attempts", optarg, 1, 1000, &cfg.max_attempts) < 0)
                return 2;
            break;
        case 'q':
            if (hs__cli_int("broker", "--queue-max", optarg, 1, INT_MAX, &cfg.queue_max) < 0)
                return 2;
            break;
        case 'c':
            if (hs__cli_int("broker", "--chunk", optarg, 1, HS_WIRE_MAX_EVALS, &cfg.chunk) < 0)
                return 2;
            break;
        case 's': cfg.store_flags &= ~HS_STORE_NOSYNC; break;
        case 'M': {
            long bytes;
            if (hs__cli_long("broker", "--map-size", optarg, 1L << 20, LONG_MAX, &bytes) < 0)
                return 2;
            cfg.map_size = (size_t)bytes;
            break;
        }
        case 'v': cfg.verbose = 1; break;
        case 'r': serving.ready_path = optarg; break;
        case 'm':
            if (hs_store_maps_parse(optarg, &maps, &merr) < 0) {
                fprintf(stderr, "hyeongse broker: %s\n", merr.msg);
                return 2;
            }
            cfg.store_flags |= HS_STORE_MAPS(maps);
            break;
        case 'h': s_security_free(&sec); s_usage(stdout); return 0;
        default: s_security_free(&sec); s_usage(stderr); return 2;
        }
    }
    if (!cfg.bind || !cfg.db_dir || s_security_check(&sec, &cfg) < 0) {
        if (!cfg.bind || !cfg.db_dir)
            s_usage(stderr);
        s_security_free(&sec);
        return 2;
    }
    /* A port out of range or an unknown transport is a mistake on the command
     * line (exit 2), not a broker that failed; hs_broker_run checks it too. */
    if (hs_client_endpoints_check(cfg.bind, true, &merr) < 0) {
        fprintf(stderr, "hyeongse broker: --bind %s\n", merr.msg);
        s_security_free(&sec);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = s_on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    hs_error_t err = { 0 };
    cfg.log_events = 1;
    cfg.on_serving = s_on_serving;
    cfg.on_serving_arg = &serving;
    int rc = hs_broker_run(&cfg, &err);
    s_security_free(&sec);
    if (serving.written)
        remove(serving.ready_path);
    if (rc < 0) {
        fprintf(stderr, "hyeongse broker: %s\n", err.msg);
        return 1;
    }
    s_say_stopped();
    return 0;
}
