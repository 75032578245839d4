/*
 * bench/bench_broker.c — broker throughput with the no-op engine over TCP
 * loopback, beside a raw ZeroMQ ROUTER/DEALER echo measured in the same run.
 *
 *   bench_broker HYEONGSE_BIN [GAMES] [MOVES] [WORKER_COUNTS]
 *
 * WORKER_COUNTS is a comma list (default "1,2,4,8").
 *
 * For K = 1, 2, 4, 8 worker processes (`hyeongse worker --engines noop
 * --threads 1 --credit 32`, started with fork+exec):
 *   broker  a fresh store; GAMES generated 19x19 games of MOVES moves are
 *           submitted first, then the workers start; the clock runs from the
 *           moment all K have registered (STATUS_REPLY's worker count) until the
 *           job is done, counting only the positions done in that span:
 *           tasks/s (one task = one game) and positions/s (MOVES + 1 per
 *           game), every result stored in LMDB.
 *           The workers advertise batching in READY, so the broker packs up to
 *           64 TASKs per message and the workers up to 64 RESULTs per message
 *           (docs/PROTOCOL.md, "Batched messages"): a task is no longer a
 *           message each way. Run with HS_BENCH_VERBOSE=1 to see the broker's
 *           counts at stop (messages and bodies read, TASKs and messages sent).
 *   echo    K DEALER processes each keep 100 messages of a TASK's size in flight
 *           to one ROUTER that echoes them: round trips/s. ratio = the broker's
 *           tasks/s over this raw rate (one task per echoed message, as issue 4
 *           states the goal, although the broker now carries many tasks per
 *           message). Run with MOVES = 1 for the per-task cost; with
 *           MOVES = 250 a task also carries 251 results into LMDB.
 * Prints one line per K and the ratios.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

extern char **environ;

#include "broker/broker.h"
#include "broker/client.h"
#include "store/store.h"
#include "core/clock.h"

/* Game i: Black on columns 0-8, White on 10-18, rotated by i; komi varies in
 * half points so every game is distinct (up to 171 x 3,999 = 683,829 games within
 * the wire's komi range). No captures, every move legal. */
static void s_make_game(hs_game_t *g, int i, int moves)
{
    hs_game_init(g, 19);
    g->komi = -999.5 + 0.5 * (double)(i / 171);
    g->moves = calloc((size_t)moves, sizeof *g->moves);
    g->num_moves = moves;
    for (int k = 0; k < moves; k++) {
        int idx = (k / 2 + i) % 171, x = idx % 9, y = idx / 9;
        g->moves[k].color = k % 2 ? HS_WHITE : HS_BLACK;
        g->moves[k].vertex = (uint16_t)(y * 19 + (k % 2 ? 18 - x : x));
    }
    hs_game_compute_id(g);
}

/* The broker binds tcp://127.0.0.1:* (a port the kernel picks, so the bench
 * races nothing for it); on_serving hands back the address, ready says when. */
typedef struct {
    hs_broker_config_t cfg;
    hs_error_t err;
    int rc;
    atomic_int ready;
    char endpoint[256];
} s_broker_t;

static void s_broker_serving(void *arg, const char *endpoints)
{
    s_broker_t *b = arg;
    snprintf(b->endpoint, sizeof b->endpoint, "%s", endpoints);
}

static void *s_broker_thread(void *arg)
{
    s_broker_t *b = arg;
    b->rc = hs_broker_run(&b->cfg, &b->err);
    return NULL;
}

/* CPU seconds (user + system) used so far by process pid (0 = this process). */
static double s_cpu_of(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, pid ? "/proc/%d/stat" : "/proc/self/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');   /* the command name may hold spaces */
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return 0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* posix_spawn, not fork: a fork would make every page of this process (the
 * broker's task table, the store's buffers) copy-on-write, and the broker would
 * then pay a page fault per first write to each page during the timed run. */
static pid_t s_spawn(char *const argv[])
{
    pid_t p = -1;
    if (posix_spawn(&p, argv[0], NULL, NULL, argv, environ) != 0)
        return -1;
    return p;
}

static double s_bench_broker(const char *bin, int k, int games, int moves, double *pos_rate,
                             double *cpu_broker, double *cpu_workers)
{
    char dir[] = "/tmp/hs-bench-broker-XXXXXX", cmd[128];
    if (!mkdtemp(dir))
        return 0;
    atomic_int stop = 0;
    void *ctx = zmq_ctx_new();
    s_broker_t b = { .cfg = { .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = dir,
                              .store_flags = HS_STORE_NOSYNC, .map_size = (size_t)1 << 30,
                              .stop = &stop, .queue_max = games * ((moves + HS_BROKER_DEFAULT_CHUNK) / HS_BROKER_DEFAULT_CHUNK) + 1,
                              .verbose = getenv("HS_BENCH_VERBOSE") != NULL } };
    b.cfg.ready = &b.ready;
    b.cfg.on_serving = s_broker_serving;
    b.cfg.on_serving_arg = &b;
    pthread_t tid;
    pthread_create(&tid, NULL, s_broker_thread, &b);
    hs_client_t *c = NULL;
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    double rate = 0;
    while (atomic_load(&b.ready) == 0)
        usleep(1000);
    const char *ep = b.endpoint;
    if (atomic_load(&b.ready) < 0) {
        fprintf(stderr, "bench_broker: %s\n", b.err.msg);
        goto out;
    }
    if (hs_client_new(&c, ctx, ep, 30000, 3, &err) < 0 ||
        hs_submitter_new(&sub, c, "bench", "noop", "all", &err) < 0) {
        fprintf(stderr, "bench_broker: %s\n", err.msg);
        goto out;
    }
    for (int i = 0; i < games; i++) {
        hs_game_t g;
        s_make_game(&g, i, moves);
        hs_submitter_add_game(sub, &g, NULL, &err);
        hs_game_fini(&g);
    }
    hs_submitter_finish(sub, &err);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);

    pid_t pids[16];
    for (int i = 0; i < k; i++) {
        char *argv[] = { (char *)bin, "worker", "--connect", (char *)ep, "--threads", "1",
                         "--engines", "noop", "--credit", "32", NULL };
        pids[i] = s_spawn(argv);
    }
    /* The clock starts once all K workers have registered (process start-up is
     * not the broker's cost); positions done before that are not counted. The
     * status poll is every 2 ms so its granularity stays small against a run. */
    double t0 = 0, cb0 = 0, cw0 = 0;
    int64_t done0 = 0, done = 0;
    for (;;) {
        hs_wire_msg_t r;
        if (hs_client_status(c, job, &r, &err) < 0)
            break;
        int ok = r.status_reply.num_jobs == 1;
        int running = ok && !strcmp(r.status_reply.jobs[0].state, "running");
        done = ok ? r.status_reply.jobs[0].positions_done : 0;
        if (t0 == 0 && (r.status_reply.workers >= k || !running)) {
            t0 = hs_clock_now();
            done0 = done;
            cb0 = s_cpu_of(0);
            for (int i = 0; i < k; i++)
                cw0 += s_cpu_of(pids[i]);
        }
        if (!running && (!ok || strcmp(r.status_reply.jobs[0].state, "done") ||
                         done != (int64_t)games * (moves + 1)))
            fprintf(stderr, "bench_broker: the job did not complete as expected\n");
        hs_wire_msg_fini(&r);
        if (!running)
            break;
        usleep(2000);
    }
    double dt = hs_clock_now() - t0;
    double cw1 = 0;
    for (int i = 0; i < k; i++)
        cw1 += s_cpu_of(pids[i]);
    /* CPU per task: steadier than rates on a loaded machine. */
    int64_t ntasks = (done - done0) / (moves + 1);
    if (ntasks > 0) {
        *cpu_broker = (s_cpu_of(0) - cb0) / (double)ntasks;
        *cpu_workers = (cw1 - cw0) / (double)ntasks;
    }
    if (dt <= 0 || done <= done0) {
        fprintf(stderr, "bench_broker: the job finished before all workers registered; "
                        "use more games\n");
        dt = 1e-9;
    }
    *pos_rate = (double)(done - done0) / dt;
    rate = *pos_rate / (moves + 1);
    if (done0 > done / 5)
        fprintf(stderr, "bench_broker: %lld of %lld positions were done before all %d "
                        "workers registered\n", (long long)done0, (long long)done, k);
    for (int i = 0; i < k; i++)
        kill(pids[i], SIGTERM);
    for (int i = 0; i < k; i++)
        waitpid(pids[i], NULL, 0);
out:
    hs_client_destroy(&c);
    atomic_store(&stop, 1);
    pthread_join(tid, NULL);
    zmq_ctx_term(ctx);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_broker: could not remove %s\n", dir);
    return rate;
}

/* ------------------------------------------------------------- raw echo */

static void s_echo_client(const char *ep, int count, size_t size)
{
    void *ctx = zmq_ctx_new();
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    zmq_connect(s, ep);
    char *buf = calloc(1, size);
    int sent = 0, got = 0;
    while (got < count) {
        while (sent < count && sent - got < 100) {
            zmq_send(s, buf, size, 0);
            sent++;
        }
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) >= 0)
            got++;
        zmq_msg_close(&m);
    }
    free(buf);
    zmq_close(s);
    zmq_ctx_term(ctx);
}

/* The clients are forked before this process creates its ZeroMQ context (a
 * context must not cross a fork); the ROUTER then binds a port the kernel picks
 * and tells each client the address through a pipe, in one fixed-size write
 * apiece (atomic: at most PIPE_BUF bytes). */
static double s_bench_echo(int k, int count, size_t size)
{
    char ep[256] = "";
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    pid_t pids[16];
    for (int i = 0; i < k; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            close(fds[1]);
            if (read(fds[0], ep, sizeof ep) != (ssize_t)sizeof ep || !ep[0])
                _exit(1);
            ep[sizeof ep - 1] = '\0';
            s_echo_client(ep, count, size);
            _exit(0);
        }
    }
    close(fds[0]);
    void *ctx = zmq_ctx_new();
    void *r = zmq_socket(ctx, ZMQ_ROUTER);
    int one = 1;
    zmq_setsockopt(r, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    size_t eplen = sizeof ep;
    if (zmq_bind(r, "tcp://127.0.0.1:*") != 0 ||
        zmq_getsockopt(r, ZMQ_LAST_ENDPOINT, ep, &eplen) != 0) {
        fprintf(stderr, "bench_broker: echo: cannot bind: %s\n", zmq_strerror(errno));
        ep[0] = '\0';
    }
    for (int i = 0; i < k; i++)
        if (write(fds[1], ep, sizeof ep) != (ssize_t)sizeof ep)
            fprintf(stderr, "bench_broker: echo: cannot reach client %d\n", i);
    close(fds[1]);
    if (!ep[0]) {
        for (int i = 0; i < k; i++)
            waitpid(pids[i], NULL, 0);
        zmq_close(r);
        zmq_ctx_term(ctx);
        return 0;
    }
    long total = (long)k * count, echoed = 0;
    double t0 = 0;
    while (echoed < total) {
        zmq_msg_t id, body;
        zmq_msg_init(&id);
        zmq_msg_init(&body);
        zmq_msg_recv(&id, r, 0);
        zmq_msg_recv(&body, r, 0);
        if (echoed == 0)
            t0 = hs_clock_now();
        zmq_msg_send(&id, r, ZMQ_SNDMORE);
        zmq_msg_send(&body, r, 0);
        zmq_msg_close(&id);
        zmq_msg_close(&body);
        echoed++;
    }
    double dt = hs_clock_now() - t0;
    for (int i = 0; i < k; i++)
        waitpid(pids[i], NULL, 0);
    zmq_close(r);
    zmq_ctx_term(ctx);
    return (double)total / dt;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_broker HYEONGSE_BIN [GAMES] [MOVES] [WORKER_COUNTS]\n");
        return 2;
    }
    int games = argc > 2 ? atoi(argv[2]) : 2000;
    int moves = argc > 3 ? atoi(argv[3]) : 250;
    if (games < 1 || games > 171 * 3999 || moves < 1 || moves > HS_WIRE_MAX_MOVES) {
        fprintf(stderr, "bench_broker: GAMES must be 1..683829 and MOVES 1..%d\n",
                HS_WIRE_MAX_MOVES);
        return 2;
    }
    srand((unsigned)getpid());
    /* Size of a TASK carrying such a game, for the echo peer. */
    size_t task_size = 60 + (size_t)moves * 4 + (size_t)(moves + 1) * 3;
    printf("broker: %d games x %d moves (%d positions) per run, noop engine, TCP loopback\n",
           games, moves, games * (moves + 1));
    printf("%8s %12s %14s %16s %10s %14s %14s\n", "workers", "tasks/s", "positions/s",
           "echo msgs/s", "ratio", "broker us/task", "worker us/task");
    int ks[16], nk = 0;
    char list[128];
    snprintf(list, sizeof list, "%s", argc > 4 ? argv[4] : "1,2,4,8");
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok && nk < 16;
         tok = strtok_r(NULL, ",", &save))
        if (atoi(tok) >= 1 && atoi(tok) <= 16)
            ks[nk++] = atoi(tok);
    for (int i = 0; i < nk; i++) {
        double pos = 0, cb = 0, cw = 0;
        double tasks = s_bench_broker(argv[1], ks[i], games, moves, &pos, &cb, &cw);
        double echo = s_bench_echo(ks[i], 20000, task_size);
        printf("%8d %12.0f %14.0f %16.0f %10.3f %14.1f %14.1f\n", ks[i], tasks, pos, echo,
               tasks / echo, cb * 1e6, cw * 1e6);
        fflush(stdout);
    }
    printf("ratio = broker tasks/s / raw echo round trips/s (messages of a task's size)\n"
           "us/task = CPU time (user + system) per task while timed: the broker process\n"
           "(broker thread, ZeroMQ I/O thread, status polls) and all worker processes\n");
    return 0;
}
