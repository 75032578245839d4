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
 *
 * A rerun resumes: the job token is derived from the inputs (cli/analyze_resume.c),
 * so the same archives, engines and moves spec find the interrupted job in the
 * journal and the broker's token mechanism (`submit --token`) continues it.
 *
 * When the broker thread fails (a store error), it shuts the ZeroMQ context
 * down: every blocking send or poll of the worker and of this thread returns
 * at once, so the store's message reaches main instead of a hang.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "analyze.h"
#include "broker/broker.h"
#include "args.h"
#include "cluster.h"
#include "core/clock.h"
#include "store/store.h"
#include "worker/engine.h"
#include "worker/net_specs.h"
#include "worker/nn/backend.h"
#include "worker/nn/model.h"
#include "worker/worker.h"

/* Most positions per engine call: the worker's batch bound (HS__BATCH_MAX). */
#define S_MAX_BATCH HS_WORKER_BATCH_MAX

const char hs_cmd_analyze_summary[] = "analyze an archive on this machine (embedded broker, workers, store)";

/* The command line, checked. */
typedef struct s_opts {
    const char *db, *engines, *moves;
    int threads, chunk;
    bool threads_given;
    /* --net FILE and the files of specs' net=FILE: the models this process
     * loads, shared by every engine thread (read-only); --backend, --batch:
     * how the net engines run them */
    const char *net_file;
    hs_net_set_t nets;
    bool mcts;                  /* a tree search is among the engines */
    char file_engines[1024];
    hs_nn_backend_kind_t backend;
    int batch, net_threads;
    char bound_engines[1024];
    bool quiet, follow_symlinks;
    unsigned store_maps;   /* HS_STORE_MAPS(...) when --maps is given, else 0 */
    char *const *paths;
    int npaths;
    char canon_engines[1024];
} s_opts_t;

typedef struct s_broker_thread {
    hs_broker_config_t cfg;
    atomic_int exited;
    hs_error_t err;
    int rc;
    double cpu;   /* the broker thread's CPU time, set as it ends */
} s_broker_thread_t;

typedef struct s_worker_thread {
    hs_worker_config_t cfg;
    hs_worker_stats_t stats;
    hs_error_t err;
    int rc;
    atomic_int failed;   /* hs_worker_run returned an error: no task will be done */
} s_worker_thread_t;

/* The broker and worker threads and what they share. */
typedef struct s_cluster {
    void *ctx;
    char endpoint[96];
    atomic_int stop_broker, stop_worker, broker_ready;
    atomic_int gone;   /* the broker exited or the worker failed: the client gives up */
    s_broker_thread_t bt;
    s_worker_thread_t wt;
    pthread_t btid, wtid;
    bool broker_up, worker_up;
} s_cluster_t;

static void *s_run_broker(void *arg)
{
    s_cluster_t *c = arg;
    s_broker_thread_t *b = &c->bt;
    b->rc = hs_broker_run(&b->cfg, &b->err);
    b->cpu = hs_clock_thread_cpu();   /* read after the join (s_print_summary) */
    atomic_store(&b->exited, 1);
    atomic_store(&c->gone, 1);   /* the client gives up instead of retrying */
    /* A failed broker leaves the worker and the client blocked in sends to a
     * socket that is gone (inproc has no peer to queue for): shutting the
     * context down makes those calls return ETERM, so both see the end. */
    if (b->rc < 0)
        zmq_ctx_shutdown(c->ctx);
    return NULL;
}

static void *s_run_worker(void *arg)
{
    s_cluster_t *c = arg;
    s_worker_thread_t *w = &c->wt;
    w->rc = hs_worker_run(&w->cfg, &w->stats, &w->err);
    /* The only worker gone, the job would wait for one for good. */
    if (w->rc < 0) {
        atomic_store(&w->failed, 1);
        atomic_store(&c->gone, 1);
    }
    return NULL;
}

static void s_usage(FILE *out)
{
    char known[256];
    fprintf(out,
            "usage: hyeongse analyze ARCHIVE... [--db DIR] [--threads N] [--engines LIST]\n"
            "                        [--moves all|every:N|last] [--chunk N] [--maps LIST] [--quiet]\n"
            "                        [--net FILE [--backend cpu|cuda|ref] [--batch N]]\n\n"
            "Evaluates every position of every game in the archives (.sgf files, folders,\n"
            ".tar.gz, .zip) on this machine and stores the results in DIR, which\n"
            "`hyeongse query --db DIR` reads. Broken games are recorded as failed with\n"
            "the reason. Runs an in-process broker, worker threads and the store: the\n"
            "same code as `hyeongse broker` + `hyeongse worker`, without a network.\n"
            "A position that DIR already holds for the same engine spec keeps its stored\n"
            "evaluation (openings repeat; a repeat is not stored twice). An engine whose\n"
            "results change in a new build gets a new revision (\"judge@2\"), another\n"
            "spec: its evaluations are added beside the old ones.\n"
            "An interrupted run (Ctrl-C, killed, a store error) is resumed by the next run\n"
            "with the same archives (same paths, sizes and modification times), engines\n"
            "and --moves: its job continues, games and tasks already done are skipped.\n"
            "Exit status: 0 done, 1 an error, 2 usage, 3 done but every game failed\n"
            "(nothing analysed: `hyeongse query --db DIR failed` says why; a job of no\n"
            "games, an empty folder, is 0), 130 / 143 stopped by SIGINT / SIGTERM (a\n"
            "second one ends it at once).\n\n"
            "  --db DIR        store directory (default ./hyeongse.db)\n"
            "  --threads N     engine threads, 1..%d (default: one per CPU)\n"
            "  --engines LIST  comma-separated engines (default %s; known: %s);\n"
            "                  options follow a colon, several joined by commas:\n"
            "                  influence:tau=T (0..10000), influence:reader=1 and\n"
            "                  judge:reader=1 (tactical reading in stability),\n"
            "                  judge:final_mc=1|0 (the last position of EVERY record, or\n"
            "                  of none, judged with playouts as by `judge --final`; by\n"
            "                  default only records that end in two passes, 8-15 ms a\n"
            "                  game), mcts:visits=V (1..100000, default 200),\n"
            "                  mcts:playouts=P (rollouts a leaf, 1..64, without a net),\n"
            "                  noop:delay_us=D (a test engine that waits D us)\n"
            "  --net FILE      a net for the engine `net`: KataGo's .bin.gz or our own .hsn\n"
            "                  (its spec becomes net:net=<the file's content hash>); without\n"
            "                  --engines, the engines are `net`. mcts:visits=V runs the tree\n"
            "                  search on it (without any net, on rollouts); a spec's\n"
            "                  net=FILE loads FILE as --net does: mcts:visits=200,net=FILE.\n"
            "                  --engines net without --net runs the default model\n"
            "                  " HS_NN_DEFAULT_MODEL ", looked for in $HYEONGSE_MODELS if set,\n"
            "                  else the source tree's models/, else the installed\n"
            "                  share/hyeongse/models\n"
            "  --backend B     cpu (oneDNN), cuda (cuDNN) or ref (plain C); default: cuda\n"
            "                  where a GPU is present, else cpu where built, else ref\n"
            "  --batch N       positions per engine call, 1..%d (default: the backend's, cpu\n"
            "                  32, cuda 512 capped at %d, ref 8); with cpu or cuda one\n"
            "                  engine thread runs the net on every core unless --threads\n"
            "  --moves SPEC    all (default), every:N (N in 1..10000), last; a move's loss\n"
            "                  (report's mistakes, accuracy) needs consecutive positions\n"
            "  --chunk N       most positions per task, 1..%d: longer games are split\n"
            "                  (default %d)\n"
            "  --maps LIST     per-point maps kept: ownership,influence,classes, all, none\n"
            "                  (default: what DIR keeps, else ownership,classes)\n"
            "  --quiet         no progress bar\n"
            "  --follow-symlinks  follow symbolic links inside folders that lead outside\n"
            "                  them (default: not followed, reported as \"link\" failures)\n",
            HS_ANALYZE_MAX_THREADS, hs__cli_default_engines(), hs_engine_list(known, sizeof known),
            S_MAX_BATCH, S_MAX_BATCH, HS_WIRE_MAX_EVALS, HS_BROKER_DEFAULT_CHUNK);
}

/* ------------------------------------------------------------- options */

/* "all", "last" or "every:N" with N in the broker's 1..10000, else an error. */
static int s_check_moves(const char *moves)
{
    int n;
    if (!strcmp(moves, "all") || !strcmp(moves, "last"))
        return 0;
    if (!strncmp(moves, "every:", 6) &&
        hs__cli_int("analyze", "--moves every:N", moves + 6, 1, 10000, &n) == 0)
        return 0;
    fprintf(stderr, "hyeongse analyze: bad --moves '%s' (all, every:N, last)\n", moves);
    return -1;
}

/* getopt over argv into *o. Returns -1 to go on, else the exit status. */
static int s_getopt(int argc, char **argv, s_opts_t *o)
{
    static const struct option opts[] = {
        { "db", required_argument, 0, 'd' },      { "threads", required_argument, 0, 't' },
        { "engines", required_argument, 0, 'e' }, { "moves", required_argument, 0, 'm' },
        { "quiet", no_argument, 0, 'q' },         { "help", no_argument, 0, 'h' },
        { "chunk", required_argument, 0, 'c' },   { "maps", required_argument, 0, 'M' },
        { "follow-symlinks", no_argument, 0, 'L' },
        { "net", required_argument, 0, 'N' },     { "backend", required_argument, 0, 'B' },
        { "batch", required_argument, 0, 'b' },
        { 0, 0, 0, 0 },
    };
    int c;
    hs_error_t merr = { 0 };
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:t:e:m:c:M:N:B:b:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'd': o->db = optarg; break;
        case 't':
            if (hs__cli_int("analyze", "--threads", optarg, 1, HS_ANALYZE_MAX_THREADS,
                            &o->threads) < 0)
                return 2;
            o->threads_given = true;
            break;
        case 'N':
            if (o->net_file) {   /* the second one used to replace the first unseen */
                fprintf(stderr, "hyeongse analyze: --net given twice ('%s', '%s'): one --net a "
                        "run; name more nets in the specs, as in --engines "
                        "net:net=A.bin.gz,net:net=B.bin.gz\n", o->net_file, optarg);
                return 2;
            }
            o->net_file = optarg;
            break;
        case 'B':
            if (hs_nn_backend_parse(optarg, &o->backend, &merr) < 0) {
                fprintf(stderr, "hyeongse analyze: --backend: %s\n", merr.msg);
                return 2;
            }
            break;
        case 'b':
            if (hs__cli_int("analyze", "--batch", optarg, 1, S_MAX_BATCH, &o->batch) < 0)
                return 2;
            break;
        case 'e': o->engines = optarg; break;
        case 'm': o->moves = optarg; break;
        case 'c':
            if (hs__cli_int("analyze", "--chunk", optarg, 1, HS_WIRE_MAX_EVALS, &o->chunk) < 0)
                return 2;
            break;
        case 'M':
            if (hs_store_maps_parse(optarg, &o->store_maps, &merr) < 0) {
                fprintf(stderr, "hyeongse analyze: %s\n", merr.msg);
                return 2;
            }
            o->store_maps = HS_STORE_MAPS(o->store_maps);
            break;
        case 'q': o->quiet = true; break;
        case 'L': o->follow_symlinks = true; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    return -1;
}

/* The exit status of a net that did not load: 1 as in gtp, analysis,
 * selfplay and worker (a file that is missing or is no model), 2 for a usage
 * error (too many nets, an engine list too long). */
static int s_net_status(const hs_error_t *err)
{
    return err->code == HS_ELIMIT || err->code == HS_EINVAL ? 2 : 1;
}

/* --net FILE and the specs' net=FILE loaded (once for the process) into
 * o->nets, the specs bound to them, and the backend checked. -1 to go on,
 * else the exit status after printing why. */
static int s_load_nets(s_opts_t *o, const char **engines)
{
    hs_error_t err = { 0 };
    if (o->net_file && hs_net_set_load(&o->nets, o->net_file, &err) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        return s_net_status(&err);
    }
    if (!*engines)
        *engines = o->nets.n ? "net" : hs__cli_default_engines();
    if (hs_net_specs_files(&o->nets, *engines, o->file_engines, sizeof o->file_engines,
                           &err) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        return s_net_status(&err);
    }
    bool def = false;
    if (hs_net_set_load_default(&o->nets, o->file_engines, &def, &err) < 0) {
        fprintf(stderr, "hyeongse analyze: --engines %s without --net: %s\n", *engines, err.msg);
        return err.code == HS_ENOTFOUND ? 2 : 1;
    }
    if (def && !o->quiet)
        fprintf(stderr, "hyeongse analyze: the net engines run the default model %s (%s)\n",
                o->nets.models[0]->name, o->nets.hashes[0]);
    *engines = o->file_engines;
    if (!o->nets.n) {
        if (o->batch)
            fprintf(stderr, "hyeongse analyze: note: --batch without --net sets the "
                            "positions per engine call of every engine\n");
        return -1;
    }
    if (!hs_nn_backend_available(o->backend, &err)) {
        fprintf(stderr, "hyeongse analyze: --backend %s: %s\n",
                hs_nn_backend_kind_name(o->backend), err.msg);
        return 1;
    }
    if (!o->batch) {
        int b = hs_nn_backend_default_batch(o->backend);
        o->batch = b < S_MAX_BATCH ? b : S_MAX_BATCH;
    }
    return -1;
}

/* Whether a canonical engine list holds a spec of engine name. */
static bool s_lists_engine(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        size_t len = hs_engine_list_entry(s);
        if (len >= n && !strncmp(s, name, n) && (len == n || s[n] == ':' || s[n] == '@'))
            return true;
        s += len + (s[len] == ',');
    }
    return false;
}

/*
 * Threads with a net. The cpu backend (oneDNN) runs every core inside each
 * call, and cuda feeds one GPU: N engine threads each with its own backend on
 * all cores would only fight. So with those backends and no --threads, ONE
 * engine thread runs the net (features, its replay and the other engines of
 * the job on that thread too) and its backend gets every core; with --threads
 * N each thread's backend gets cores / N. The ref backend is one plain loop
 * per call: one engine thread per core, as for the other engines.
 */
static void s_net_threads(s_opts_t *o)
{
    /* Only engines that run a net take the option net= (a bound spec always
     * has it): "net:net=", "mcts:visits=9,net=". */
    if (!o->nets.n || o->backend == HS_NN_BACKEND_REF ||
        (!strstr(o->engines, ":net=") && !strstr(o->engines, ",net=")))
        return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (!o->threads_given)
        o->threads = 1;
    o->net_threads = o->threads > 1 && cores > o->threads ? (int)(cores / o->threads)
                   : o->threads > 1 ? 1 : 0;
}

/* The whole command line: -1 to go on, else the exit status. */
static int s_parse_args(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){ .db = "hyeongse.db", .moves = "all", .backend = hs_nn_backend_default() };
    int status = s_getopt(argc, argv, o);
    if (status >= 0)
        return status;
    if (optind >= argc) {
        s_usage(stderr);
        return 2;
    }
    o->paths = argv + optind;
    o->npaths = argc - optind;
    if (hs__cli_check_paths("analyze", o->paths, o->npaths) || s_check_moves(o->moves) < 0)
        return 2;
    if (o->threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->threads = n < 1 ? 1 : n > HS_ANALYZE_MAX_THREADS ? HS_ANALYZE_MAX_THREADS : (int)n;
    }
    /* Canonical specs, and only this build's revisions: the embedded worker
     * computes them (worker/engine.h, "Revisions"); a net engine's spec names
     * the net loaded by --net. */
    hs_error_t err = { 0 };
    if ((status = s_load_nets(o, &o->engines)) >= 0)
        return status;
    if (hs_engine_bind_nets(o->engines, (const struct hs_nn_model *const *)o->nets.models,
                            o->nets.n, o->nets.n_bind, o->net_file, o->bound_engines,
                            sizeof o->bound_engines, &err) < 0 ||
        hs_engine_canonical_list(o->bound_engines, HS_WIRE_MAX_ENGINES, HS_ENGINE_THIS_BUILD,
                                 o->canon_engines, sizeof o->canon_engines, &err) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", err.msg);
        return 2;
    }
    o->engines = o->canon_engines;
    o->mcts = s_lists_engine(o->engines, "mcts");
    s_net_threads(o);
    return -1;
}

/* The store creates its own directory, not its parents: make them. */
static void s_make_parents(const char *db)
{
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", db);
    for (char *p = parent + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(parent, 0777);
            *p = '/';
        }
}

/* ------------------------------------------------------------- threads */

/* Starts the broker (and waits until it serves), then the worker. 0 or -1
 * after printing why. */
static int s_cluster_start(s_cluster_t *c, const s_opts_t *o)
{
    bool verbose = getenv("HS_VERBOSE") != NULL;
    c->ctx = zmq_ctx_new();
    if (c->ctx)
        hs_worker_ctx_sockets(c->ctx, o->threads);
    snprintf(c->endpoint, sizeof c->endpoint, "inproc://hs-analyze-%ld", (long)getpid());
    c->bt.cfg = (hs_broker_config_t){
        .bind = c->endpoint, .zmq_ctx = c->ctx, .db_dir = o->db,
        .store_flags = HS_STORE_NOSYNC | o->store_maps,
        .map_size = (size_t)1 << 30,   /* virtual; grows by doubling past this */
        .stop = &c->stop_broker, .ready = &c->broker_ready, .verbose = verbose,
        .chunk = o->chunk,
    };
    c->wt.cfg = (hs_worker_config_t){
        .endpoint = c->endpoint, .zmq_ctx = c->ctx, .threads = o->threads,
        .stop = &c->stop_worker, .name = "analyze", .verbose = verbose,
        /* A tree search takes the most positions per call: its lanes of
         * consecutive moves fill the net's batches with leaves (engine_mcts.c). */
        .batch = o->mcts ? S_MAX_BATCH : o->batch,
        .nets = (const struct hs_nn_model *const *)o->nets.models, .n_nets = o->nets.n,
        .net_backend = (int)o->backend, .net_batch = o->batch, .net_threads = o->net_threads,
        /* Credit: with a net, room for two full batches above the default, so
         * the engine thread's group (worker.c) can fill a batch from several
         * tasks. A credit stands for up to 64 positions (small tasks go many to
         * a credit), so that is 2 x batch / 64 credits. Not more: the worker
         * holds all it is sent, and a tree search works through 1,000
         * positions in minutes (with one credit a task, 100 games' tasks were
         * all held at once and waited past their leases). */
        .credit = o->nets.n || o->mcts
                      ? 4 * o->threads + 8 +
                            2 * ((o->mcts ? S_MAX_BATCH : o->batch) + HS_BROKER_CREDIT_POSITIONS - 1) /
                                HS_BROKER_CREDIT_POSITIONS
                      : 0,
    };
    if (pthread_create(&c->btid, NULL, s_run_broker, c) != 0) {
        fprintf(stderr, "hyeongse analyze: cannot start the broker thread\n");
        return -1;
    }
    c->broker_up = true;
    while (atomic_load(&c->broker_ready) == 0)
        usleep(1000);
    if (atomic_load(&c->broker_ready) < 0) {
        fprintf(stderr, "hyeongse analyze: %s\n", c->bt.err.msg);
        return -1;
    }
    if (pthread_create(&c->wtid, NULL, s_run_worker, c) != 0) {
        fprintf(stderr, "hyeongse analyze: cannot start the worker thread\n");
        return -1;
    }
    c->worker_up = true;
    return 0;
}

/* Stops the worker (it finishes what it holds), then the broker; safe twice. */
static void s_cluster_stop(s_cluster_t *c)
{
    if (c->worker_up) {
        atomic_fetch_or(&c->stop_worker, 1);   /* keeps HS_WORKER_STOP_NOW */
        pthread_join(c->wtid, NULL);
        c->worker_up = false;
    }
    if (c->broker_up) {
        atomic_store(&c->stop_broker, 1);
        pthread_join(c->btid, NULL);
        c->broker_up = false;
    }
}

/* After a client error: the broker's own message first when it failed (the
 * client's is only "the broker is gone"). */
static void s_report_failure(const s_cluster_t *c, const hs_error_t *err)
{
    /* The broker thread's message is read only once its exit is seen (the
     * atomic load orders its writes before): TSan caught a read before it. */
    if (atomic_load(&c->bt.exited) && c->bt.rc < 0) {
        /* A disk-full message says already what is kept. */
        bool says = strstr(c->bt.err.msg, "committed is kept") != NULL;
        fprintf(stderr, "hyeongse analyze: broker stopped: %s%s\n", c->bt.err.msg,
                says ? "" : " (results committed before it are kept)");
    } else if (atomic_load(&c->wt.failed)) {
        fprintf(stderr, "hyeongse analyze: %s (results committed before it are kept; "
                        "a rerun resumes the job)\n", c->wt.err.msg);
    } else {
        fprintf(stderr, "hyeongse analyze: %s\n", err->msg);
    }
}

/* ------------------------------------------------------------- signals */

/* SIGINT or SIGTERM: which, so that the run says it was interrupted and how to
 * resume, and the client's abort flag (set before the handler is installed) to
 * stop waiting. Process-wide by nature: a signal handler takes no argument. */
static volatile sig_atomic_t s_signal;
static atomic_int *volatile s_sig_abort;

static void s_on_signal(int sig)
{
    if (s_signal) {   /* a second one: leave at once, as without a handler */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    s_signal = sig;
    if (s_sig_abort)
        atomic_store(s_sig_abort, 1);
}

/* The broker's and the worker's threads (started between the two calls)
 * inherit the mask with the two signals blocked, so that only the main
 * thread takes them, and no poll of theirs wakes with EINTR. */
static void s_signals_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void s_signals_catch(atomic_int *abort_flag, const sigset_t *old)
{
    s_sig_abort = abort_flag;
    struct sigaction sa = { .sa_handler = s_on_signal, .sa_flags = SA_RESTART };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* ------------------------------------------------------------- the run */

/* What one run did, for the summary. */
typedef struct s_run {
    uint64_t job;
    hs_cli_job_summary_t sum;
    hs_ingest_report_t rep;
    hs_analyze_resume_t resume;
    double t0, cpu0;
    int64_t refreshed0;   /* the store's games_refreshed before the run */
} s_run_t;

/* Streams the archives into the job (a resumed one when the journal holds it),
 * then waits for it. 0, or -1 after printing why. */
static int s_submit_and_wait(s_cluster_t *c, const s_opts_t *o, s_run_t *r)
{
    hs_error_t err = { 0 };
    hs_client_t *cl = NULL;
    /* inproc never loses a request, but the broker may be busy opening a big
     * store or committing: be patient (61 tries of 2 s). */
    int rc = hs_client_new(&cl, c->ctx, c->endpoint, 2000, 60, &err);
    if (rc == 0) {
        hs_client_set_abort(cl, &c->gone);
        if (!o->quiet)
            fprintf(stderr, "analyze: reading %s with engines %s, %d threads, store %s\n",
                    o->paths[0], o->engines, o->threads, o->db);
        for (int i = 0; !o->quiet && i < o->nets.n; i++)
            fprintf(stderr, "analyze: net %s, backend %s, batch %d\n", o->nets.hashes[i],
                    hs_nn_backend_kind_name(o->backend), o->batch);
        rc = hs__cli_submit_paths(cl, (const char *const *)o->paths, o->npaths, o->engines,
                                  o->moves, "analyze", 0, o->follow_symlinks, r->resume.token,
                                  &r->job, &r->rep, false, &err);
    }
    if (rc == 0)
        rc = hs__cli_wait(cl, r->job, o->quiet ? NULL : stderr, &r->sum, &err);
    hs_client_destroy(&cl);
    if (rc < 0 && !s_signal)
        s_report_failure(c, &err);
    return rc < 0 ? -1 : 0;
}

/* The final summary on stdout (the broker and worker threads have ended). */
static void s_print_summary(const s_cluster_t *c, const s_opts_t *o, const s_run_t *r)
{
    double wall = hs_clock_now() - r->t0;
    double cpu = hs_clock_process_cpu() - r->cpu0;   /* after the joins: every thread's work */
    const hs_worker_stats_t *ws = &c->wt.stats;
    const hs_cli_job_summary_t *s = &r->sum;
    double engine_share = wall > 0 ? ws->engine_seconds / o->threads / wall : 0;
    double engine_cpu_share = cpu > 0 ? ws->engine_cpu_seconds / cpu : 0;
    printf("analyze: job %" PRIu64 " %s in %.2f s%s\n", r->job, s->state, wall,
           r->resume.found ? " (resumed)" : "");
    printf("  games      %" PRId64 " analyzed, %" PRId64 " failed (of %" PRId64 "), %" PRIu64
           " duplicates skipped\n", s->games_done, s->games_failed, s->games_total,
           r->rep.duplicates);
    printf("  positions  %" PRId64 " in the job, engines: %s\n", s->positions_done, o->engines);
    double rate = wall > 0 ? (double)ws->positions / wall : 0.0;
    /* a tree search runs at a few positions a second: keep a decimal there */
    printf("  this run   %" PRIu64 " positions evaluated (%.*f positions/s)", ws->positions,
           rate < 100 ? 1 : 0, rate);
    if (r->resume.found)
        printf(", %" PRId64 " were done before the rerun", r->resume.job.positions_done);
    /* The job's other positions this run had their evals in the store already
     * (an opening another game reached: broker_reuse.c). */
    int64_t before = r->resume.found ? r->resume.job.positions_done : 0;
    int64_t reused = s->positions_done - before - (int64_t)ws->positions;
    if (reused > 0)
        printf(", %" PRId64 " found evaluated in the store", reused);
    printf("\n");
    printf("  cpu        %.1f%% inside engines, %.1f%% outside (%.2f s engine CPU of "
           "%.2f s process CPU)\n", 100.0 * engine_cpu_share, 100.0 * (1.0 - engine_cpu_share),
           ws->engine_cpu_seconds, cpu);
    /* Where the rest went: the figure to start from when the share is high. */
    double eng_out = ws->thread_cpu_seconds - ws->engine_cpu_seconds;
    double rest = cpu - ws->thread_cpu_seconds - c->bt.cpu;
    printf("  outside    %.2f s broker thread (store, tasks, checks), %.2f s engine threads "
           "outside engine calls, %.2f s other threads (archive, messages)\n",
           c->bt.cpu, eng_out > 0 ? eng_out : 0, rest > 0 ? rest : 0);
    printf("  wall       %.1f%% of %d threads x wall time inside engines (counts waits for "
           "a CPU as outside)\n", 100.0 * engine_share, o->threads);
    if (ws->eval_calls > 0)   /* a tree search's leaf batches (engine_mcts.c) */
        printf("  search     %" PRIu64 " leaf evaluator calls, %" PRIu64 " leaves, mean batch "
               "%.1f\n", ws->eval_calls, ws->eval_leaves,
               (double)ws->eval_leaves / (double)ws->eval_calls);
}

/* The store's games_refreshed (0 where there is no store yet). */
static int64_t s_refreshed(const char *db)
{
    hs_error_t err = { 0 };
    hs_store_t *st = NULL;
    hs_store_stats_t ss = { 0 };
    if (hs_store_open(&st, db, HS_STORE_RDONLY, 0, &err) == 0)
        hs_store_stats(st, &ss, &err);
    hs_store_close(&st);
    return ss.games_refreshed;
}

/* The store's own figures after the run. */
static void s_print_store(const s_opts_t *o, const s_run_t *r)
{
    hs_error_t err = { 0 };
    hs_store_t *st = NULL;
    hs_store_stats_t ss = { 0 };
    bool have = hs_store_open(&st, o->db, HS_STORE_RDONLY, 0, &err) == 0 &&
                hs_store_stats(st, &ss, &err) == 0;
    hs_store_close(&st);
    if (!have) {
        printf("  store      %s: statistics unavailable (%s)\n", o->db, err.msg);
        return;
    }
    printf("  store      %s: %" PRId64 " games, %" PRId64 " failed, %" PRId64 " positions, %" PRId64
           " evals", o->db, ss.games, ss.failed_games, ss.positions, ss.evals);
    if (ss.result_puts > 0)
        printf(", %.1f%% of results were repeated positions",
               100.0 * (double)ss.result_dups / (double)ss.result_puts);
    printf("\n");
    if (ss.games_refreshed > r->refreshed0)   /* a teacher corrected a name or a result */
        printf("  records    %" PRId64 " game(s) stored before from the same file now read "
               "differently (players, result...): their records were replaced\n",
               ss.games_refreshed - r->refreshed0);
    if (r->rep.failed > 0)
        printf("  failed games are listed by `hyeongse query --db %s failed`\n", o->db);
}

/* A job that ended "done" with every game failed: said on stderr, so that a
 * script, which sees only the exit status, and a user who reads only the
 * summary's counts both learn that nothing was analysed. */
static bool s_nothing_analysed(const s_opts_t *o, const s_run_t *r)
{
    if (!hs__cli_nothing_analysed(r->sum.state, r->sum.games_total, r->sum.games_failed))
        return false;
    char query[PATH_MAX + 64], why[PATH_MAX + 256];   /* a longer path is cut: a message */
    snprintf(query, sizeof query, "hyeongse query --db %s failed", o->db);
    hs__cli_nothing_reason(why, sizeof why, r->sum.games_total, r->job, query);
    fprintf(stderr, "hyeongse analyze: %s\n", why);
    return true;
}

int hs_cmd_analyze(int argc, char **argv)
{
    s_opts_t o;
    int status = s_parse_args(argc, argv, &o);
    if (status >= 0) {
        hs_net_set_free(&o.nets);
        return status;
    }
    s_make_parents(o.db);
    s_run_t r = { .t0 = hs_clock_now(), .cpu0 = hs_clock_process_cpu(),
                  .refreshed0 = s_refreshed(o.db) };
    hs__analyze_resume_find(o.db, (const char *const *)o.paths, o.npaths, o.engines, o.moves,
                            &r.resume);
    if (r.resume.found)
        hs__analyze_resume_print(stderr, &r.resume);
    s_cluster_t c = { 0 };
    sigset_t old;
    s_signals_block(&old);
    int started = s_cluster_start(&c, &o);
    s_signals_catch(&c.gone, &old);
    bool finished = started == 0 && s_submit_and_wait(&c, &o, &r) == 0 && !s_signal;
    if (s_signal)   /* the task under way is done again by the rerun */
        atomic_fetch_or(&c.stop_worker, HS_WORKER_STOP_NOW);
    s_cluster_stop(&c);
    status = finished && !strcmp(r.sum.state, "done") ? 0 : 1;
    if (s_signal) {
        fprintf(stderr, "hyeongse analyze: stopped by %s; what was stored is kept: run the "
                "same command again to resume the job\n", s_signal == SIGINT ? "SIGINT"
                                                                               : "SIGTERM");
        status = 128 + s_signal;
    }
    if (finished && c.bt.rc < 0) {   /* the last commit, after the job ended */
        fprintf(stderr, "hyeongse analyze: broker: %s\n", c.bt.err.msg);
        status = 1;
    }
    if (finished) {
        s_print_summary(&c, &o, &r);
        s_print_store(&o, &r);
    }
    if (status == 0 && s_nothing_analysed(&o, &r))
        status = HS_CLI_EXIT_NOTHING;
    if (finished && r.rep.trees == 0 && !r.resume.found)
        /* Not an error (an empty folder is a job of no games), but most likely
         * the wrong path: say what was found instead. */
        fprintf(stderr, "hyeongse analyze: no game records in %s%s (%" PRIu64 " file(s) read, %"
                PRIu64 " other file(s) skipped): games are read from .sgf files and from .tar, "
                ".tar.gz, .tar.xz, .tar.bz2 and .zip archives of them\n", o.paths[0],
                o.npaths > 1 ? " and the other inputs" : "",
                r.rep.files, r.rep.skipped);
    hs_ingest_report_fini(&r.rep);
    zmq_ctx_term(c.ctx);
    hs_net_set_free(&o.nets);   /* after the worker's threads have ended */
    return status;
}
