/*
 * tests/test_net_route.c — which worker gets a job that names a net
 * (docs/PROTOCOL.md, "Engine specs and revisions", Nets):
 *   - READY's optional nets and backend fields: an old READY (7 fields) still
 *     reads with none; each field round-trips; the encoder and the decoder
 *     refuse a hash that is not 32 lowercase hex digits, too many nets and a
 *     backend name outside [a-z0-9_-];
 *   - a real broker over TCP loopback with fake workers on raw DEALER sockets:
 *     a job "noop:net=<A>" is never leased to a worker that offers noop but
 *     holds only net B, nor to one whose READY has no nets (an older worker);
 *     a worker holding B and A gets every task of it; a job without a net still
 *     goes to the worker without A;
 *   - STATUS lists the live workers with their nets, backend and leases
 *     (STATUS_REPLY's optional worker list: round trip, absent when empty).
 * With HS_WIRE_CORPUS set it also writes the READY_NETS and STATUS_REPLY_WORKERS
 * seeds of fuzz_wire.
 */
#include <stdio.h>
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

#define S_NET_A "0123456789abcdef0123456789abcdef"
#define S_NET_B "fedcba9876543210fedcba9876543210"
#define S_GAMES 4

static char *s_eng[] = { "noop" };

static void s_ready_msg(hs_wire_msg_t *m, char **nets, int num_nets, char *backend)
{
    hs_wire_msg_init(m, HS_WIRE_READY);
    m->ready.name = "w";
    m->ready.engines = s_eng;
    m->ready.num_engines = 1;
    m->ready.threads = 1;
    m->ready.credit = 8;
    m->ready.nets = nets;
    m->ready.num_nets = num_nets;
    m->ready.backend = backend;
}

/* Encodes m, checks the field count (the first byte, a fixarray) and decodes it. */
static int s_roundtrip(const hs_wire_msg_t *m, int fields, hs_wire_buf_t *buf, hs_wire_msg_t *d)
{
    HS_CHECK_INT(hs_wire_encode(m, buf, NULL), 0);
    HS_CHECK_INT(buf->len > 0 ? buf->data[0] : 0, 0x90 + fields);
    return hs_wire_decode(buf->data, buf->len, d, NULL);
}

/* Writes buf as the fuzz_wire seed $HS_WIRE_CORPUS/name, when that is set. */
static void s_write_seed(const hs_wire_buf_t *buf, const char *name)
{
    const char *dir = getenv("HS_WIRE_CORPUS");
    char path[512];
    if (!dir || snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return;
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(buf->data, 1, buf->len, f);
        fclose(f);
    }
}

static void s_test_wire(void)
{
    char *nets[HS_WIRE_MAX_NETS + 1];
    for (int i = 0; i <= HS_WIRE_MAX_NETS; i++)
        nets[i] = i % 2 ? S_NET_B : S_NET_A;
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };

    /* No nets, no backend: the 7 fields older brokers read; none decoded. */
    s_ready_msg(&m, NULL, 0, NULL);
    HS_CHECK_INT(s_roundtrip(&m, 7, &buf, &d), 0);
    HS_CHECK(d.ready.nets == NULL && d.ready.num_nets == 0 && d.ready.backend == NULL);
    hs_wire_msg_fini(&d);

    /* Nets and backend: batch 0 is carried so that they keep their places. */
    s_ready_msg(&m, nets, 2, "cpu");
    HS_CHECK_INT(s_roundtrip(&m, 10, &buf, &d), 0);
    HS_CHECK_INT(d.ready.batch, 0);
    HS_CHECK_INT(d.ready.num_nets, 2);
    if (d.ready.num_nets == 2) {
        HS_CHECK_STR(d.ready.nets[0], S_NET_A);
        HS_CHECK_STR(d.ready.nets[1], S_NET_B);
    }
    HS_CHECK_STR(d.ready.backend ? d.ready.backend : "(null)", "cpu");
    HS_CHECK_INT(d.ready.credit, 8);
    hs_wire_msg_fini(&d);
    s_write_seed(&buf, "READY_NETS");

    /* A hash turned upper-case in the bytes: the decoder refuses it. */
    for (size_t i = 0; i + 1 < buf.len; i++)
        if (buf.data[i] == 'a') {
            buf.data[i] = 'A';
            break;
        }
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), HS_EPROTO);

    /* Nets alone (9 fields), a backend alone (10 fields, an empty nets array). */
    s_ready_msg(&m, nets, HS_WIRE_MAX_NETS, NULL);
    m.ready.batch = 8;
    HS_CHECK_INT(s_roundtrip(&m, 9, &buf, &d), 0);
    HS_CHECK_INT(d.ready.num_nets, HS_WIRE_MAX_NETS);
    HS_CHECK_INT(d.ready.batch, 8);
    HS_CHECK(d.ready.backend == NULL);
    hs_wire_msg_fini(&d);
    s_ready_msg(&m, NULL, 0, "cuda");
    HS_CHECK_INT(s_roundtrip(&m, 10, &buf, &d), 0);
    HS_CHECK_INT(d.ready.num_nets, 0);
    HS_CHECK_STR(d.ready.backend ? d.ready.backend : "(null)", "cuda");
    /* The decoder refuses a backend name it would not show. */
    HS_CHECK_INT(buf.data[buf.len - 5], 0xa4);   /* fixstr of 4: "cuda" ends the body */
    buf.data[buf.len - 1] = ' ';
    hs_wire_msg_fini(&d);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), HS_EPROTO);

    /* What the encoder refuses. */
    s_ready_msg(&m, nets, HS_WIRE_MAX_NETS + 1, NULL);
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), HS_EINVAL);
    char *bad[] = { "0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcde",
                    "0123456789abcdef0123456789abcdefa", "0123456789abcdeg0123456789abcdef" };
    for (int i = 0; i < 4; i++) {
        s_ready_msg(&m, &bad[i], 1, NULL);
        HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), HS_EINVAL);
    }
    char *bad_backend[] = { "", "CPU", "c u", "a-backend-name-of-17", "cpu\n" };
    for (int i = 0; i < 5; i++) {
        s_ready_msg(&m, NULL, 0, bad_backend[i]);
        HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), HS_EINVAL);
    }
    HS_CHECK(hs_wire_net_hash_valid(S_NET_A, strlen(S_NET_A)));
    HS_CHECK(!hs_wire_net_hash_valid(S_NET_A, 31));
    hs_wire_buf_free(&buf);
}

/* ------------------------------------------------------------ routing */

/* A job of n 3-move 9x9 games (distinct by komi) for engine spec `spec`. */
static uint64_t s_job(hs_client_t *cl, const char *spec, int n, double base)
{
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "net-route", spec, "all", &err), 0);
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

static void s_send(void *sock, const hs_wire_msg_t *m)
{
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(m, &buf, NULL), 0);
    zmq_send(sock, "", 0, ZMQ_SNDMORE);
    zmq_send(sock, hs_wire_magic_for(m->type), HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(sock, buf.data, buf.len, 0);
    hs_wire_buf_free(&buf);
}

static void s_simple(void *sock, hs_wire_type_t type)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, type);
    s_send(sock, &m);
}

/* A fake worker offering noop with these nets (num_nets < 0: an older READY,
 * without the field). */
static void *s_worker(void *ctx, const char *endpoint, const char *id, char **nets, int num_nets)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 2000;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s, ZMQ_ROUTING_ID, id, strlen(id));
    HS_CHECK_INT(zmq_connect(s, endpoint), 0);
    hs_wire_msg_t m;
    s_ready_msg(&m, nets, num_nets > 0 ? num_nets : 0, num_nets >= 0 ? "ref" : NULL);
    s_send(s, &m);
    return s;
}

/*
 * Reads what the broker sends to sock until `stop_after` TASKs of job `want`
 * came (0: until the first HEARTBEAT), answering HEARTBEATs; gives up after
 * 30 s of silence. tasks[j] counts the TASKs of job j (j < 8).
 */
static void s_listen(void *sock, uint64_t want, int stop_after, int tasks[8])
{
    for (;;) {
        zmq_pollitem_t it = { sock, 0, ZMQ_POLLIN, 0 };
        if (zmq_poll(&it, 1, 30000) <= 0) {
            HS_CHECK(!"the broker went silent");
            return;
        }
        hs_wire_msg_t m[HS_WIRE_MAX_BATCH];
        int k = hs_test_recv_bodies(sock, m, HS_WIRE_MAX_BATCH, NULL);
        HS_CHECK(k >= 1);
        bool heartbeat = false;
        for (int i = 0; i < k; i++) {
            if (m[i].type == HS_WIRE_TASK && m[i].task.job_id < 8)
                tasks[m[i].task.job_id]++;
            heartbeat |= m[i].type == HS_WIRE_HEARTBEAT;
            hs_wire_msg_fini(&m[i]);
        }
        if (heartbeat)
            s_simple(sock, HS_WIRE_HEARTBEAT);
        if (k < 1 || (stop_after == 0 && heartbeat)
            || (stop_after > 0 && tasks[want] >= stop_after))
            return;
    }
}

/* STATUS lists the one live worker with its nets, its backend and its leases
 * (the fake workers say backend "ref"): at least min_tasks (the plain job's
 * task, requeued when an earlier worker left, may be leased to it too). */
static void s_check_status(hs_client_t *cl, int num_nets, const char **nets, int min_tasks)
{
    hs_wire_msg_t r;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_status(cl, 0, &r, &err), 0);
    const hs_wire_status_reply_t *s = &r.status_reply;
    HS_CHECK_INT(s->num_worker_list, 1);
    if (s->num_worker_list == 1) {
        const hs_wire_worker_info_t *w = &s->worker_list[0];
        HS_CHECK_STR(w->name, "w");
        HS_CHECK_INT(w->num_nets, num_nets);
        for (int i = 0; i < w->num_nets && i < num_nets; i++)
            HS_CHECK_STR(w->nets[i], nets[i]);
        HS_CHECK_STR(w->backend ? w->backend : "(null)", "ref");
        HS_CHECK(w->tasks >= min_tasks && w->tasks <= min_tasks + 1);
    }
    hs_wire_msg_fini(&r);
}

/* STATUS_REPLY's optional worker list: absent when empty (6 fields, as older
 * clients read), round trip, a bad hash refused both ways. */
static void s_test_status_wire(void)
{
    char *nets[] = { S_NET_A };
    hs_wire_worker_info_t w[2] = { { .name = "a", .nets = nets, .num_nets = 1, .backend = "cpu",
                                     .tasks = 3 },
                                   { .name = "b" } };
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_wire_msg_init(&m, HS_WIRE_STATUS_REPLY);
    m.status_reply.workers = 2;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
    HS_CHECK_INT(buf.data[0], 0x96);
    m.status_reply.worker_list = w;
    m.status_reply.num_worker_list = 2;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
    HS_CHECK_INT(buf.data[0], 0x97);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), 0);
    HS_CHECK_INT(d.status_reply.num_worker_list, 2);
    if (d.status_reply.num_worker_list == 2) {
        const hs_wire_worker_info_t *x = d.status_reply.worker_list;
        HS_CHECK_STR(x[0].name, "a");
        HS_CHECK_INT(x[0].num_nets, 1);
        HS_CHECK_STR(x[0].num_nets ? x[0].nets[0] : "", S_NET_A);
        HS_CHECK_STR(x[0].backend ? x[0].backend : "(null)", "cpu");
        HS_CHECK_INT(x[0].tasks, 3);
        HS_CHECK_STR(x[1].name, "b");
        HS_CHECK(x[1].num_nets == 0 && x[1].backend == NULL && x[1].tasks == 0);
    }
    hs_wire_msg_fini(&d);
    s_write_seed(&buf, "STATUS_REPLY_WORKERS");
    for (size_t i = 0; i + 1 < buf.len; i++)   /* the hash's first 'a' made 'A' */
        if (buf.data[i] == 'a' && buf.data[i + 1] == 'b') {
            buf.data[i] = 'A';
            break;
        }
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, NULL), HS_EPROTO);
    nets[0] = "not a hash";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), HS_EINVAL);
    hs_wire_buf_free(&buf);
}

static void s_test_routing(void)
{
    char dir[] = "/tmp/hs-test-netroute-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128];
    snprintf(db, sizeof db, "%s/db", dir);
    void *ctx = zmq_ctx_new();
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .heartbeat_ms = 300 };
    hs_test_broker_start(&b);
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, b.endpoint, 10000, 3, &err), 0);

    uint64_t job_a = s_job(cl, "noop:net=" S_NET_A, S_GAMES, 0.5);
    HS_CHECK(job_a > 0 && job_a < 8);

    /* Holds B only: its READY is answered by heartbeats, never by job A's tasks
     * (they were queued before it came: a broker that ignored nets would lease
     * them at once). A job without a net still comes to it. */
    char *only_b[] = { S_NET_B };
    int seen[8] = { 0 };
    void *w1 = s_worker(ctx, b.endpoint, "worker-B", only_b, 1);
    s_listen(w1, 0, 0, seen);
    uint64_t job_plain = s_job(cl, "noop", 1, 100.5);
    HS_CHECK(job_plain > 0 && job_plain < 8);
    s_listen(w1, job_plain, 1, seen);
    HS_CHECK_INT(seen[job_a], 0);
    HS_CHECK_INT(seen[job_plain], 1);
    printf("worker holding B: %d tasks of the net-A job, %d of the plain job\n", seen[job_a],
           seen[job_plain]);
    s_simple(w1, HS_WIRE_DISCONNECT);
    zmq_close(w1);

    /* An older READY, without nets: nothing of job A either (it may be given
     * the plain job's task back, requeued by the DISCONNECT above). */
    memset(seen, 0, sizeof seen);
    void *w3 = s_worker(ctx, b.endpoint, "worker-old", NULL, -1);
    s_listen(w3, 0, 0, seen);
    HS_CHECK_INT(seen[job_a], 0);
    s_simple(w3, HS_WIRE_DISCONNECT);
    zmq_close(w3);

    /* Holds B and A: every task of job A. */
    memset(seen, 0, sizeof seen);
    char *both[] = { S_NET_B, S_NET_A };
    void *w2 = s_worker(ctx, b.endpoint, "worker-AB", both, 2);
    s_listen(w2, job_a, S_GAMES, seen);
    HS_CHECK_INT(seen[job_a], S_GAMES);
    printf("worker holding B and A: %d tasks of the net-A job\n", seen[job_a]);
    s_check_status(cl, 2, (const char *[]){ S_NET_B, S_NET_A }, S_GAMES);
    s_simple(w2, HS_WIRE_DISCONNECT);
    zmq_close(w2);

    hs_client_destroy(&cl);
    hs_test_broker_stop(&b);
    zmq_ctx_term(ctx);
    hs_test_rm_store(db);
    rmdir(dir);
}

int main(void)
{
    s_test_wire();
    s_test_status_wire();
    s_test_routing();
    return hs_test_finish();
}
