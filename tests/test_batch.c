/*
 * tests/test_batch.c — several TASKs / RESULTs per ZeroMQ message (PROTOCOL.md,
 * "Batched messages"), against a real broker over TCP loopback with fake workers
 * on raw DEALER sockets:
 *   - a worker whose READY says batch 8 gets its 40 TASKs packed, at most 8 per
 *     message and never one body per message throughout;
 *   - its RESULTs go back packed: a message with a truncated body in the middle
 *     stores the good bodies around it and drops (counts) the bad one; a
 *     non-RESULT body inside a batched RESULT message is dropped and counted, the
 *     RESULTs beside it are stored;
 *   - a client message with two bodies and a worker message with 65 bodies (over
 *     the cap) are dropped whole, one count each;
 *   - a worker with an old-style READY (no batch field) gets one TASK per message;
 *   - the broker's own count of dropped messages (its verbose stop line, read
 *     from its captured stderr) is exactly the four bad pieces sent;
 *   - READY's optional batch field: old 7-field READYs still read, range checks.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "broker/client.h"
#include "core/wire.h"
#include "peer.h"
#include "store/store.h"
#include "test.h"
#include "worker/worker_internal.h"

#define S_TASKS 40      /* games (one TASK each) per job */
#define S_BATCH 8       /* what fake worker A advertises */

/* A job of n 3-move 9x9 games, made distinct by komi (base + i / 2). */
static uint64_t s_job(hs_client_t *cl, int n, double base)
{
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "batch", "noop", "all", &err), 0);
    if (!sub)
        return 0;
    for (int i = 0; i < n; i++) {
        hs_game_t g;
        hs_game_init(&g, 9);
        g.komi = base + 0.5 * i;
        g.moves = calloc(3, sizeof *g.moves);
        g.num_moves = 3;
        static const uint16_t v[3] = { 40, 20, 60 };
        for (int k = 0; k < 3; k++) {
            g.moves[k].vertex = v[k];
            g.moves[k].color = k % 2 ? HS_WHITE : HS_BLACK;
        }
        hs_game_compute_id(&g);
        HS_CHECK_INT(hs_submitter_add_game(sub, &g, NULL, &err), 0);
        hs_game_fini(&g);
    }
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    return job;
}

static void *s_dealer(void *ctx, const char *endpoint, const char *id)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 2000;   /* a last DISCONNECT still goes out after zmq_close */
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s, ZMQ_ROUTING_ID, id, strlen(id));
    HS_CHECK_INT(zmq_connect(s, endpoint), 0);
    return s;
}

/* Sends [""][magic][body1..bodyn]. */
static void s_send_bodies(void *sock, const char *magic, const hs_wire_buf_t *const *b, int n)
{
    zmq_send(sock, "", 0, ZMQ_SNDMORE);
    zmq_send(sock, magic, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    for (int k = 0; k < n; k++)
        zmq_send(sock, b[k]->data, b[k]->len, k + 1 < n ? ZMQ_SNDMORE : 0);
}

static void s_send_msg(void *sock, const hs_wire_msg_t *m)
{
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(m, &buf, NULL), 0);
    const hs_wire_buf_t *p = &buf;
    s_send_bodies(sock, hs_wire_magic_for(m->type), &p, 1);
    hs_wire_buf_free(&buf);
}

static void s_ready(void *sock, const char *name, int batch)
{
    static char *eng[] = { "noop" };
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_READY);
    m.ready.name = (char *)name;
    m.ready.engines = eng;
    m.ready.num_engines = 1;
    m.ready.threads = 1;
    m.ready.credit = 4;   /* 4 credits x 64 positions: all 40 four-position tasks at once */
    m.ready.batch = batch;
    s_send_msg(sock, &m);
}

static void s_simple(void *sock, hs_wire_type_t type)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, type);
    s_send_msg(sock, &m);
}

/*
 * Receives TASK messages on sock until want TASK bodies came (HEARTBEATs
 * skipped; gives up after 30 s of silence). Decoded TASKs go to tasks[];
 * *msgs / *max_k: TASK messages and the most bodies in one.
 */
static int s_recv_tasks(void *sock, hs_wire_msg_t *tasks, int want, int *msgs, int *max_k)
{
    int got = 0;
    *msgs = *max_k = 0;
    while (got < want) {
        zmq_pollitem_t it = { sock, 0, ZMQ_POLLIN, 0 };
        if (zmq_poll(&it, 1, 30000) <= 0)
            break;
        hs_wire_msg_t m[HS_WIRE_MAX_BATCH];
        char magic[5] = "";
        int k = hs_test_recv_bodies(sock, m, HS_WIRE_MAX_BATCH, magic);
        HS_CHECK(k >= 1);
        if (k < 1)
            break;
        HS_CHECK_STR(magic, HS_WIRE_MAGIC_WORKER);
        if (k == 1 && m[0].type == HS_WIRE_HEARTBEAT) {
            hs_wire_msg_fini(&m[0]);
            continue;
        }
        (*msgs)++;
        if (k > *max_k)
            *max_k = k;
        for (int i = 0; i < k; i++) {
            HS_CHECK_INT(m[i].type, HS_WIRE_TASK);
            if (m[i].type == HS_WIRE_TASK && got < want)
                tasks[got++] = m[i];
            else
                hs_wire_msg_fini(&m[i]);
        }
    }
    return got;
}

/* positions_done of job, or -1. */
static int64_t s_done(hs_client_t *cl, uint64_t job, char *state, size_t state_size)
{
    hs_wire_msg_t r;
    hs_error_t err = { 0 };
    if (hs_client_status(cl, job, &r, &err) != 0)
        return -1;
    int64_t d = -1;
    if (r.status_reply.num_jobs == 1) {
        d = r.status_reply.jobs[0].positions_done;
        snprintf(state, state_size, "%s", r.status_reply.jobs[0].state);
    }
    hs_wire_msg_fini(&r);
    return d;
}

/* Waits (at most ~30 s) for job to reach `want` positions done; worker sock
 * keeps heartbeating meanwhile so that the broker does not expire it. */
static int64_t s_wait_done(hs_client_t *cl, uint64_t job, int64_t want, void *sock, char *state)
{
    int64_t d = -1;
    for (int i = 0; i < 300; i++) {
        d = s_done(cl, job, state, 32);
        if (d >= want)
            break;
        s_simple(sock, HS_WIRE_HEARTBEAT);
        usleep(100000);
    }
    return d;
}

/* READY's optional batch field: absent = 0 (an old READY, 7 fields), round trip,
 * range checked by encoder and decoder. */
static void s_test_ready_field(void)
{
    static char *eng[] = { "noop" };
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_wire_msg_init(&m, HS_WIRE_READY);
    m.ready.name = "w";
    m.ready.engines = eng;
    m.ready.num_engines = 1;
    m.ready.credit = 3;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
    HS_CHECK(buf.len > 0 && buf.data[0] == 0x97);   /* fixarray of 7: as before */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), 0);
    HS_CHECK_INT(d.ready.batch, 0);
    HS_CHECK_INT(d.ready.credit, 3);
    hs_wire_msg_fini(&d);
    m.ready.batch = HS_WIRE_MAX_BATCH;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
    HS_CHECK(buf.len > 0 && buf.data[0] == 0x98);   /* fixarray of 8 */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), 0);
    HS_CHECK_INT(d.ready.batch, HS_WIRE_MAX_BATCH);
    hs_wire_msg_fini(&d);
    /* The last byte is the batch (a positive fixint): 65 is refused both ways. */
    HS_CHECK_INT(buf.data[buf.len - 1], HS_WIRE_MAX_BATCH);
    buf.data[buf.len - 1] = HS_WIRE_MAX_BATCH + 1;
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), HS_EPROTO);
    m.ready.batch = HS_WIRE_MAX_BATCH + 1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), HS_EINVAL);
    m.ready.batch = -1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), HS_EINVAL);
    hs_wire_buf_free(&buf);
}

int main(void)
{
    s_test_ready_field();

    char dir[] = "/tmp/hs-test-batch-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128], logpath[128];
    snprintf(db, sizeof db, "%s/db", dir);
    snprintf(logpath, sizeof logpath, "%s/broker.log", dir);

    /* The broker's verbose log (its count of dropped messages) goes to a file. */
    fflush(stderr);
    int saved_err = dup(2), logfd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    HS_CHECK(saved_err >= 0 && logfd >= 0);
    dup2(logfd, 2);
    close(logfd);

    void *ctx = zmq_ctx_new();
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .heartbeat_ms = 2000,
                                  .verbose = true };
    hs_test_broker_start(&b);
    const char *endpoint = b.endpoint;

    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, endpoint, 10000, 3, &err), 0);
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    x->batch_max = 64;
    hs_wire_buf_t res[S_TASKS] = { { 0 } };
    hs_wire_msg_t tasks[S_TASKS];
    int positions[S_TASKS];
    char state[32] = "";

    /* ---- worker A advertises batch 8: its TASKs come packed ---- */
    uint64_t job1 = s_job(cl, S_TASKS, 0.5);
    void *a = s_dealer(ctx, endpoint, "worker-A");
    s_ready(a, "A", S_BATCH);
    int msgs = 0, max_k = 0;
    int got = s_recv_tasks(a, tasks, S_TASKS, &msgs, &max_k);
    HS_CHECK_INT(got, S_TASKS);
    HS_CHECK(max_k > 1 && max_k <= S_BATCH);
    HS_CHECK(msgs >= S_TASKS / S_BATCH && msgs < S_TASKS);
    printf("worker A (batch %d): %d TASKs in %d messages, at most %d per message\n", S_BATCH,
           got, msgs, max_k);
    for (int i = 0; i < got; i++) {
        uint64_t pos = 0;
        int failed = 0;
        HS_CHECK_INT(hs__worker_eval_task(x, &tasks[i].task, &res[i], &pos, &failed), 0);
        HS_CHECK_INT(failed, 0);
        positions[i] = (int)pos;
        hs_wire_msg_fini(&tasks[i]);
    }
    if (got == S_TASKS) {
        /* [R0][R1 cut in half][R2][R3]: R0, R2, R3 stored, the cut body dropped. */
        hs_wire_buf_t cut = res[1];
        cut.len /= 2;
        const hs_wire_buf_t *m1[4] = { &res[0], &cut, &res[2], &res[3] };
        s_send_bodies(a, HS_WIRE_MAGIC_WORKER, m1, 4);
        int64_t want = positions[0] + positions[2] + positions[3];
        HS_CHECK_INT(s_wait_done(cl, job1, want, a, state), want);
        /* Still exactly those: the cut task was not counted. */
        HS_CHECK_INT(s_done(cl, job1, state, sizeof state), want);
        HS_CHECK_STR(state, "running");

        /* [R1][HEARTBEAT][R4..R10]: the HEARTBEAT body is not a RESULT: dropped. */
        hs_wire_buf_t hb = { 0 };
        hs_wire_msg_t h;
        hs_wire_msg_init(&h, HS_WIRE_HEARTBEAT);
        HS_CHECK_INT(hs_wire_encode(&h, &hb, NULL), 0);
        const hs_wire_buf_t *m2[9] = { &res[1], &hb };
        for (int i = 4; i <= 10; i++)
            m2[i - 2] = &res[i];
        s_send_bodies(a, HS_WIRE_MAGIC_WORKER, m2, 9);
        /* The rest, S_BATCH per message. */
        for (int i = 11; i < S_TASKS; i += S_BATCH) {
            const hs_wire_buf_t *mk[S_BATCH];
            int n = 0;
            for (int k = i; k < S_TASKS && n < S_BATCH; k++)
                mk[n++] = &res[k];
            s_send_bodies(a, HS_WIRE_MAGIC_WORKER, mk, n);
        }
        int64_t all = 0;
        for (int i = 0; i < S_TASKS; i++)
            all += positions[i];
        HS_CHECK_INT(s_wait_done(cl, job1, all, a, state), all);
        for (int i = 0; i < 50 && strcmp(state, "done"); i++) {
            usleep(20000);
            s_done(cl, job1, state, sizeof state);
        }
        HS_CHECK_STR(state, "done");

        hs_wire_buf_free(&hb);

        /* On one more connection, in order (a connection's messages are read in
         * the order sent, so the reply to the last proves the others were read):
         * 65 RESULT bodies (late duplicates of R0), over the cap: dropped whole;
         * two STATUS bodies (a client never batches): dropped whole; one STATUS:
         * answered. */
        void *c2 = s_dealer(ctx, endpoint, "client-2");
        const hs_wire_buf_t *mo[HS_WIRE_MAX_BATCH + 1];
        for (int k = 0; k <= HS_WIRE_MAX_BATCH; k++)
            mo[k] = &res[0];
        s_send_bodies(c2, HS_WIRE_MAGIC_WORKER, mo, HS_WIRE_MAX_BATCH + 1);
        hs_wire_buf_t st = { 0 };
        hs_wire_msg_t s;
        hs_wire_msg_init(&s, HS_WIRE_STATUS);
        s.job_id = job1;
        HS_CHECK_INT(hs_wire_encode(&s, &st, NULL), 0);
        const hs_wire_buf_t *ms[2] = { &st, &st };
        s_send_bodies(c2, HS_WIRE_MAGIC_CLIENT, ms, 2);
        s_send_bodies(c2, HS_WIRE_MAGIC_CLIENT, ms, 1);
        hs_wire_msg_t rep[2];
        char magic[5] = "";
        int k = hs_test_recv_bodies(c2, rep, 2, magic);
        HS_CHECK_INT(k, 1);
        if (k == 1) {
            HS_CHECK_INT(rep[0].type, HS_WIRE_STATUS_REPLY);
            HS_CHECK_STR(magic, HS_WIRE_MAGIC_CLIENT);
            hs_wire_msg_fini(&rep[0]);
        }
        zmq_close(c2);
        hs_wire_buf_free(&st);
    }
    s_simple(a, HS_WIRE_DISCONNECT);
    /* A must be gone before job 2, or it would share job 2's TASKs with B. */
    int workers = -1;
    for (int i = 0; i < 300 && workers != 0; i++) {
        hs_wire_msg_t r;
        if (hs_client_status(cl, 0, &r, &err) == 0) {
            workers = r.status_reply.workers;
            hs_wire_msg_fini(&r);
        }
        if (workers != 0)
            usleep(10000);
    }
    HS_CHECK_INT(workers, 0);
    zmq_close(a);

    /* ---- worker B: an old-style READY (no batch field): one TASK per message ---- */
    uint64_t job2 = s_job(cl, S_TASKS, 200.5);
    void *wb = s_dealer(ctx, endpoint, "worker-B");
    s_ready(wb, "B", 0);
    got = s_recv_tasks(wb, tasks, S_TASKS, &msgs, &max_k);
    HS_CHECK_INT(got, S_TASKS);
    HS_CHECK_INT(max_k, 1);
    HS_CHECK_INT(msgs, S_TASKS);
    int64_t all2 = 0;
    for (int i = 0; i < got; i++) {
        uint64_t pos = 0;
        int failed = 0;
        HS_CHECK_INT(hs__worker_eval_task(x, &tasks[i].task, &res[i], &pos, &failed), 0);
        all2 += (int64_t)pos;
        hs_wire_msg_fini(&tasks[i]);
        const hs_wire_buf_t *p = &res[i];
        s_send_bodies(wb, HS_WIRE_MAGIC_WORKER, &p, 1);
    }
    HS_CHECK_INT(s_wait_done(cl, job2, all2, wb, state), all2);
    s_simple(wb, HS_WIRE_DISCONNECT);
    zmq_close(wb);

    hs_client_destroy(&cl);
    atomic_store(&b.stop, 1);
    pthread_join(b.tid, NULL);
    zmq_ctx_term(ctx);
    fflush(stderr);
    dup2(saved_err, 2);
    close(saved_err);
    HS_CHECK_INT(b.rc, 0);

    /* The broker's stop line: the four bad pieces, and how TASKs went out. */
    FILE *f = fopen(logpath, "r");
    char line[1024];
    unsigned long long rounds = 0, in_msgs = 0, bodies = 0, commits = 0, out_tasks = 0,
                       out_msgs = 0, dropped = 999;
    int found = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "stopping: ");
        if (p && sscanf(p, "stopping: %llu rounds, %llu messages (%llu bodies), %llu commits, "
                           "%llu TASKs in %llu messages, %llu malformed dropped",
                        &rounds, &in_msgs, &bodies, &commits, &out_tasks, &out_msgs,
                        &dropped) == 7)
            found = 1;
        else if (!strstr(line, "hyeongse broker: "))
            fputs(line, stderr);   /* anything else (a failed check) shows as usual */
    }
    if (f)
        fclose(f);
    HS_CHECK(found);
    HS_CHECK_INT(dropped, 4);
    HS_CHECK_INT(out_tasks, 2 * S_TASKS);
    HS_CHECK(out_msgs < 2 * S_TASKS && out_msgs >= S_TASKS + S_TASKS / S_BATCH);
    HS_CHECK(bodies > in_msgs);
    printf("broker: %llu messages in (%llu bodies), %llu TASKs in %llu messages, "
           "%llu dropped\n", in_msgs, bodies, out_tasks, out_msgs, dropped);

    for (int i = 0; i < S_TASKS; i++)
        hs_wire_buf_free(&res[i]);
    hs__eval_ctx_fini(x);
    free(x);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
