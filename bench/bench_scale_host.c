/*
 * bench/bench_scale_host.c — N simulated no-op workers in one process, for
 * bench/scale.sh: N threads, each its own hs_worker_run (its own DEALER
 * socket, READY and name, `--engines noop --threads 1`), so 64 workers cost a
 * few processes, not 64 (on a 2-core machine, 64 processes would measure the
 * scheduler rather than the broker).
 *
 *   bench_scale_host ADDR N NAME_PREFIX [CLIENT_KEY_FILE SERVER_PUB_FILE]
 *   bench_scale_host --poll ADDR [CLIENT_KEY_FILE SERVER_PUB_FILE]
 *
 * With the two key files (`hyeongse keygen` output: the worker's or
 * client's PREFIX.key, the broker's PREFIX.pub) every worker is a CURVE client. Prints "connected NAME" on stdout when the broker first
 * answers a worker (hs_worker_config_t.on_connected), so a bench can start its
 * clock when all are in. Runs until SIGTERM or SIGINT, then each worker
 * finishes and leaves; exits 0, or 1 when a worker failed.
 *
 * --poll: a client that sends STATUS every 100 ms and prints, per reply, "live
 * workers, broker uptime (ms), positions done, tasks done (the workers'
 * sums), jobs running" (`status --cluster`'s fields) until no job runs. One
 * process for the whole run: on a loaded 2-core machine a `hyeongse status`
 * process a poll took a second to start. It speaks the wire itself (a DEALER,
 * CURVE set by raw socket options), so it needs nothing of the client library.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#include <zmq.h>

#include "core/wire.h"
#include "core/wire_curve.h"
#include "worker/worker.h"

#define S_MAX 256

typedef struct {
    hs_worker_config_t cfg;
    char name[64];
    int rc;
    hs_error_t err;
} s_sim_t;

/* One line per first connection; stdout is line-buffered below, and a line of
 * this size is written whole. */
static void s_connected(void *arg, const char *name, int connections)
{
    (void)arg;
    if (connections == 1)
        printf("connected %s\n", name);
}

static void *s_run(void *arg)
{
    s_sim_t *s = arg;
    hs_worker_stats_t st;
    s->rc = hs_worker_run(&s->cfg, &st, &s->err);
    return NULL;
}

/* The client keys of a run: own pair from a .key file, the broker's from its
 * .pub (core/wire_curve.h reads both, with the same checks as the CLI). */
static int s_read_keys(const char *key_file, const char *server_pub, hs_curve_client_t *c)
{
    hs_error_t err = { 0 };
    if (hs_curve_read_pair(key_file, &c->pair, &err) < 0 ||
        hs_curve_read_public(server_pub, c->server_key, &err) < 0) {
        fprintf(stderr, "bench_scale_host: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* One STATUS over s, its reply into *m. 0 or -1 (no answer in 10 s). */
static int s_status(void *s, hs_wire_msg_t *m)
{
    hs_wire_msg_t q;
    hs_wire_msg_init(&q, HS_WIRE_STATUS);
    q.status.limit = 1;
    hs_wire_buf_t buf = { 0 };
    if (hs_wire_encode(&q, &buf, NULL) < 0)
        return -1;
    zmq_send(s, "", 0, ZMQ_SNDMORE);
    zmq_send(s, HS_WIRE_MAGIC_CLIENT, 4, ZMQ_SNDMORE);
    zmq_send(s, buf.data, buf.len, 0);
    hs_wire_buf_free(&buf);
    for (;;) {
        zmq_msg_t f[3];
        int n = 0, more = 1;
        zmq_pollitem_t it = { s, 0, ZMQ_POLLIN, 0 };
        if (zmq_poll(&it, 1, 10000) <= 0)
            return -1;
        while (more && n < 3) {
            zmq_msg_init(&f[n]);
            zmq_msg_recv(&f[n], s, 0);
            more = zmq_msg_more(&f[n++]);
        }
        int rc = n == 3 ? hs_wire_decode(zmq_msg_data(&f[2]), zmq_msg_size(&f[2]), m, NULL) : -1;
        for (int i = 0; i < n; i++)
            zmq_msg_close(&f[i]);
        if (rc == 0 && m->type == HS_WIRE_STATUS_REPLY)
            return 0;
        if (rc == 0)
            hs_wire_msg_fini(m);   /* a HEARTBEAT or the like: wait on */
    }
}

static int s_poll(int argc, char **argv)
{
    void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_DEALER);
    if (argc == 5) {
        hs_curve_client_t c;
        if (s_read_keys(argv[3], argv[4], &c) < 0 || hs_curve_setup_client(s, &c, NULL) < 0)
            return 2;
    }
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_connect(s, argv[2]);
    int rc = 1;
    for (;;) {
        hs_wire_msg_t m;
        if (s_status(s, &m) < 0)
            break;
        const hs_wire_status_reply_t *r = &m.status_reply;
        long long pos = 0, tasks = 0;
        for (int i = 0; i < r->num_worker_list; i++) {
            pos += r->worker_list[i].positions_done;
            tasks += r->worker_list[i].tasks_done;
        }
        printf("%d %lld %lld %lld %lld\n", r->num_worker_list, (long long)r->cluster.uptime_ms,
               pos, tasks, (long long)r->cluster.jobs_running);
        bool end = !r->has_cluster || r->cluster.jobs_running == 0;
        hs_wire_msg_fini(&m);
        if (end) {
            rc = 0;
            break;
        }
        usleep(100000);
    }
    zmq_close(s);
    zmq_ctx_term(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--poll") && (argc == 3 || argc == 5))
        return s_poll(argc, argv);
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: bench_scale_host ADDR N NAME_PREFIX [KEY_FILE SERVER_PUB]\n");
        return 2;
    }
    int n = atoi(argv[2]);
    if (n < 1 || n > S_MAX) {
        fprintf(stderr, "bench_scale_host: N must be 1..%d\n", S_MAX);
        return 2;
    }
    hs_curve_client_t keys;
    if (argc == 6 && s_read_keys(argv[4], argv[5], &keys) < 0)
        return 2;
    /* The workers stop on SIGTERM: the signal is waited for here, with every
     * thread blocking it, so no handler or global flag is needed. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    atomic_int stop = 0;
    s_sim_t *sims = calloc((size_t)n, sizeof *sims);
    pthread_t *tids = calloc((size_t)n, sizeof *tids);
    if (!sims || !tids)
        return 1;
    for (int i = 0; i < n; i++) {
        s_sim_t *s = &sims[i];
        snprintf(s->name, sizeof s->name, "%s-%d", argv[3], i);
        s->cfg = (hs_worker_config_t){ .endpoint = argv[1], .threads = 1, .credit = 32,
                                       .name = s->name, .engines = "noop", .stop = &stop,
                                       .curve = argc == 6 ? &keys : NULL,
                                       .on_connected = s_connected };
        pthread_create(&tids[i], NULL, s_run, s);
    }
    int sig = 0;
    sigwait(&set, &sig);
    atomic_store(&stop, 1);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(tids[i], NULL);
        if (sims[i].rc < 0) {
            fprintf(stderr, "bench_scale_host: %s: %s\n", sims[i].name, sims[i].err.msg);
            bad = 1;
        }
    }
    free(sims);
    free(tids);
    return bad;
}
