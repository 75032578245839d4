/*
 * cli/cmd_analyze.c — `hyeongse analyze ARCHIVE`: the whole cluster in one
 * process. A broker thread (with the store), a worker with N engine threads and
 * this thread as the client, all talking over inproc:// through the same code
 * (broker/broker.c, worker/worker.c, broker/client.c) as a real cluster.
 *
 *   this thread: ingest → submitter ──inproc──► broker thread ──► store (--db)
 *                                                   ▲   │
 *                                      RESULT ──────┘   ▼ TASK
 *                                               worker thread → N engine threads
 */
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "cluster.h"
#include "store/store.h"
#include "worker/engine.h"
#include "worker/worker.h"
#include "core/clock.h"

const char hs_cmd_analyze_summary[] = "analyze an archive on this machine (embedded broker, workers, store)";

typedef struct s_broker_thread {
    hs_broker_config_t cfg;
    atomic_int exited;
    hs_error_t err;
    int rc;
} s_broker_thread_t;

typedef struct s_worker_thread {
    hs_worker_config_t cfg;
    hs_worker_stats_t stats;
    hs_error_t err;
    int rc;
} s_worker_thread_t;

static void *s_run_broker(void *arg)
{
    s_broker_thread_t *b = arg;
    b->rc = hs_broker_run(&b->cfg, &b->err);
    atomic_store(&b->exited, 1);   /* the client gives up instead of retrying */
    return NULL;
}

static void *s_run_worker(void *arg)
{
    s_worker_thread_t *w = arg;
    w->rc = hs_worker_run(&w->cfg, &w->stats, &w->err);
    return NULL;
}

static void s_usage(FILE *out)
{
    char known[256];
    fprintf(out,
            "usage: hyeongse analyze ARCHIVE... [--db DIR] [--threads N] [--engines LIST]\n"
            "                        [--moves all|every:N|last] [--chunk N] [--maps LIST] [--quiet]\n\n"
            "Evaluates every position of every game in the archives (.sgf files, folders,\n"
            ".tar.gz, .zip) on this machine and stores the results in DIR, which\n"
            "`hyeongse query --db DIR` reads. Broken games are recorded as failed with\n"
            "the reason. Runs an in-process broker, worker threads and the store: the\n"
            "same code as `hyeongse broker` + `hyeongse worker`, without a network.\n"
            "A position that DIR already holds for the same engine spec keeps its stored\n"
            "evaluation (openings repeat; a repeat is not stored twice). An engine whose\n"
            "results change in a new build gets a new revision (\"judge@2\"), another\n"
            "spec: its evaluations are added beside the old ones.\n\n"
            "  --db DIR        store directory (default ./hyeongse.db)\n"
            "  --threads N     engine threads (default: one per CPU)\n"
            "  --engines LIST  comma-separated engines (default %s; known: %s);\n"
            "                  options follow a colon: influence:tau=T, judge:reader=1\n"
            "                  (tactical reading in stability), judge:final_mc=1|0 (the\n"
            "                  last position of EVERY record, or of none, judged with\n"
            "                  playouts as by `judge --final`; by default only records\n"
            "                  that end in two passes, 8-15 ms a game)\n"
            "  --moves SPEC    all (default), every:N, last\n"
            "  --chunk N       most positions per task: longer games are split (default %d)\n"
            "  --maps LIST     per-point maps kept: ownership,influence,classes, all, none\n"
            "                  (default: what DIR keeps, else ownership,classes)\n"
            "  --quiet         no progress bar\n",
            hs__cli_default_engines(), hs_engine_list(known, sizeof known),
            HS_BROKER_DEFAULT_CHUNK);
}

int hs_cmd_analyze(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, 0, 'd' },      { "threads", required_argument, 0, 't' },
        { "engines", required_argument, 0, 'e' }, { "moves", required_argument, 0, 'm' },
        { "quiet", no_argument, 0, 'q' },         { "help", no_argument, 0, 'h' },
        { "chunk", required_argument, 0, 'c' },   { "maps", required_argument, 0, 'M' },
        { 0, 0, 0, 0 },
    };
    const char *db = "hyeongse.db", *engines = NULL, *moves = "all";
    int threads = 0, quiet = 0, chunk = 0, c;
    unsigned store_maps = 0;   /* HS_STORE_MAPS(...) when --maps is given */
    hs_error_t merr = { 0 };
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:t:e:m:c:M:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 't': threads = atoi(optarg); break;
        case 'e': engines = optarg; break;
        case 'm': moves = optarg; break;
        case 'c':
            chunk = atoi(optarg);
            if (chunk < 1 || chunk > HS_WIRE_MAX_EVALS) {
                fprintf(stderr, "hyeongse analyze: --chunk takes 1..%d positions\n",
                        HS_WIRE_MAX_EVALS);
                return 2;
            }
            break;
        case 'M':
            if (hs_store_maps_parse(optarg, &store_maps, &merr) < 0) {
                fprintf(stderr, "hyeongse analyze: %s\n", merr.msg);
                return 2;
            }
            store_maps = HS_STORE_MAPS(store_maps);
            break;
        case 'q': quiet = 1; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        s_usage(stderr);
        return 2;
    }
    if (hs__cli_check_paths("analyze", argv + optind, argc - optind))
        return 2;
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (!engines)
        engines = hs__cli_default_engines();
    hs_error_t err = { 0 };
    /* Canonical specs, and only this build's revisions: the embedded worker
     * computes them (worker/engine.h, "Revisions"). */
    char canon_engines[1024];
    if (hs_engine_canonical_list(engines, HS_WIRE_MAX_ENGINES, HS_ENGINE_THIS_BUILD, canon_engines,
                                 sizeof canon_engines, &err) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        return 2;
    }
    engines = canon_engines;
    if (strcmp(moves, "all") && strcmp(moves, "last") && strncmp(moves, "every:", 6)) {
        fprintf(stderr, "hyeongse analyze: bad --moves '%s' (all, every:N, last)\n", moves);
        return 2;
    }

    /* The store creates its own directory, not its parents: make them. */
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", db);
    for (char *p = parent + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(parent, 0777);
            *p = '/';
        }

    double t0 = hs_clock_now(), cpu0 = hs_clock_process_cpu();
    void *ctx = zmq_ctx_new();
    atomic_int stop_broker = 0, stop_worker = 0, broker_ready = 0;
    char endpoint[96];
    snprintf(endpoint, sizeof endpoint, "inproc://hs-analyze-%ld", (long)getpid());
    s_broker_thread_t bt = { .cfg = {
        .bind = endpoint, .zmq_ctx = ctx, .db_dir = db, .store_flags = HS_STORE_NOSYNC | store_maps,
        .map_size = (size_t)1 << 30,   /* virtual; grows by doubling past this */
        .stop = &stop_broker, .ready = &broker_ready, .verbose = getenv("HS_VERBOSE") != NULL,
        .chunk = chunk,
    } };
    s_worker_thread_t wt = { .cfg = {
        .endpoint = endpoint, .zmq_ctx = ctx, .threads = threads, .stop = &stop_worker,
        .name = "analyze", .verbose = getenv("HS_VERBOSE") != NULL,
    } };
    pthread_t btid, wtid;
    bool broker_up = false, worker_up = false;
    int status = 1;
    hs_client_t *cl = NULL;
    hs_ingest_report_t rep;
    memset(&rep, 0, sizeof rep);
    if (pthread_create(&btid, NULL, s_run_broker, &bt) != 0) {
        fprintf(stderr, "hyeongse analyze: cannot start the broker thread\n");
        goto done;
    }
    broker_up = true;
    while (atomic_load(&broker_ready) == 0)
        usleep(1000);
    if (atomic_load(&broker_ready) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", bt.err.msg);
        goto done;
    }
    if (pthread_create(&wtid, NULL, s_run_worker, &wt) != 0) {
        fprintf(stderr, "hyeongse analyze: cannot start the worker thread\n");
        goto done;
    }
    worker_up = true;
    /* inproc never loses a request, but the broker may be busy opening a big
     * store or committing: be patient (24 tries of 5 s). */
    if (hs_client_new(&cl, ctx, endpoint, 2000, 60, &err) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        goto done;
    }
    hs_client_set_abort(cl, &bt.exited);
    uint64_t job = 0;
    if (!quiet)
        fprintf(stderr, "analyze: reading %s with engines %s, %d threads, store %s\n",
                argv[optind], engines, threads, db);
    int rc = hs__cli_submit_paths(cl, (const char *const *)argv + optind, argc - optind, engines,
                                  moves, "analyze", 0, &job, &rep, false, &err);
    if (rc < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        if (bt.rc < 0)
            fprintf(stderr, "hyeongse analyze: broker: %s\n", bt.err.msg);
        goto done;
    }
    hs_cli_job_summary_t sum;
    if ((rc = hs__cli_wait(cl, job, quiet ? NULL : stderr, &sum, &err)) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        if (bt.rc < 0)
            fprintf(stderr, "hyeongse analyze: broker: %s (results stored so far are kept)\n",
                    bt.err.msg);
        goto done;
    }
    double wall = hs_clock_now() - t0;
    status = strcmp(sum.state, "done") ? 1 : 0;
    hs_client_destroy(&cl);
    atomic_store(&stop_worker, 1);
    pthread_join(wtid, NULL);
    worker_up = false;
    atomic_store(&stop_broker, 1);
    pthread_join(btid, NULL);
    broker_up = false;
    if (bt.rc < 0) {
        fprintf(stderr, "hyeongse analyze: broker: %s\n", bt.err.msg);
        status = 1;
    }

    hs_store_t *st = NULL;
    hs_store_stats_t ss = { 0 };
    bool have_stats = hs_store_open(&st, db, HS_STORE_RDONLY, 0, &err) == 0 &&
                      hs_store_stats(st, &ss, &err) == 0;
    hs_store_close(&st);
    double cpu = hs_clock_process_cpu() - cpu0;   /* after the joins: every thread's work */
    double engine_share = wall > 0 ? wt.stats.engine_seconds / threads / wall : 0;
    double engine_cpu_share = cpu > 0 ? wt.stats.engine_cpu_seconds / cpu : 0;
    printf("analyze: job %" PRIu64 " %s in %.2f s\n", job, sum.state, wall);
    printf("  games      %" PRId64 " analyzed, %" PRId64 " failed (of %" PRId64 "), %" PRIu64
           " duplicates skipped\n", sum.games_done, sum.games_failed, sum.games_total,
           rep.duplicates);
    printf("  positions  %" PRId64 " (%.0f positions/s), engines: %s\n", sum.positions_done,
           wall > 0 ? (double)sum.positions_done / wall : 0.0, engines);
    printf("  cpu        %.1f%% inside engines, %.1f%% outside (%.2f s engine CPU of "
           "%.2f s process CPU)\n", 100.0 * engine_cpu_share, 100.0 * (1.0 - engine_cpu_share),
           wt.stats.engine_cpu_seconds, cpu);
    printf("  wall       %.1f%% of %d threads x wall time inside engines (counts waits for "
           "a CPU as outside)\n", 100.0 * engine_share, threads);
    if (have_stats) {
        printf("  store      %s: %" PRId64 " games, %" PRId64 " failed, %" PRId64
               " positions, %" PRId64 " evals",
               db, ss.games, ss.failed_games, ss.positions, ss.evals);
        if (ss.result_puts > 0)
            printf(", %.1f%% of results were repeated positions",
                   100.0 * (double)ss.result_dups / (double)ss.result_puts);
        printf("\n");
    } else {
        printf("  store      %s: statistics unavailable (%s)\n", db, err.msg);
    }
    if (rep.failed > 0)
        printf("  failed games are listed by `hyeongse query --db %s failed`\n", db);

done:
    hs_client_destroy(&cl);
    if (worker_up) {
        atomic_store(&stop_worker, 1);
        pthread_join(wtid, NULL);
    }
    if (broker_up) {
        atomic_store(&stop_broker, 1);
        pthread_join(btid, NULL);
    }
    hs_ingest_report_fini(&rep);
    zmq_ctx_term(ctx);
    return status;
}
