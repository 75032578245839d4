/*
 * tests/test_broker_security.c — the broker's door (docs/SECURITY.md), each
 * hole the issue-15 probe found as a check, over tcp://127.0.0.1 with real
 * CURVE keys and raw DEALER sockets (no client or worker library in between):
 *   - a plaintext peer on the CURVE socket and unknown worker and client keys
 *     fail the handshake and change nothing;
 *   - a worker key cannot submit or read, a client key cannot lease;
 *   - client Y cannot read, watch, cancel, submit to or token-reach client X's
 *     job, nor QUERY; an admin can; the worker list and the queue are the
 *     admin's (a client's reply carries the mark that they were withheld);
 *   - a flood from Y (jobs, games past its grant, bytes) gets HS_ELIMIT, while
 *     X, polite, is never refused and its jobs finish;
 *   - a non-loopback bind without keys fails at once, with --insecure it runs;
 *     a tcp port out of 1..65535 and an unknown transport fail at once;
 *   - allow-lists; a job's owner round-trips through the store, and a job
 *     record from before owners reads as anonymous.
 * A negative ("gets nothing") is made certain, never waited out: the handshake
 * failure is read from the socket's monitor, and a TASK that a refused READY
 * would have earned would come before the reply to a later HEARTBEAT.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "core/clock.h"
#include "core/wire.h"
#include "core/wire_curve.h"
#include "peer.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "test.h"
#include "wall_game.h"
#include "worker/worker_internal.h"

#define S_LIMIT_JOBS 3
#define S_LIMIT_GAMES 20
#define S_LIMIT_UPLOAD 40000
#define S_WAIT_MS 30000     /* a hang guard for replies, never an assertion */

typedef struct s_keys {
    hs_curve_pair_t server, worker, x, y, admin, stranger;
    hs_curve_list_t workers, clients, admins;
} s_keys_t;

/* Game i on 9x9 (tests/wall_game.h): the komi, with the rotation, makes every
 * i below 9000 a game of its own. */
static void s_make_game(hs_game_t *g, int i)
{
    hs_test_wall_game(g, 9, 10, i, (i % 1000) * 0.5 - 250.0);
}

/* ------------------------------------------------------------ sockets */

/* A DEALER to ep: a CURVE client with own (NULL = plaintext); with mon, a
 * monitor of its handshakes at inproc://mon (read with s_handshake). */
static void *s_dealer(void *ctx, const char *ep, const hs_curve_pair_t *own, const s_keys_t *k,
                      const char *mon, void **mon_sock)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    if (own) {
        hs_curve_client_t c = { .pair = *own };
        memcpy(c.server_key, k->server.public_key, sizeof c.server_key);
        HS_CHECK_INT(hs_curve_setup_client(s, &c, NULL), 0);
    }
    if (mon) {
        char name[64];
        snprintf(name, sizeof name, "inproc://%s", mon);
        zmq_socket_monitor(s, name, ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
                           ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                           ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL);
        *mon_sock = zmq_socket(ctx, ZMQ_PAIR);
        int t = S_WAIT_MS;
        zmq_setsockopt(*mon_sock, ZMQ_RCVTIMEO, &t, sizeof t);
        zmq_connect(*mon_sock, name);
    }
    zmq_connect(s, ep);
    return s;
}

/* The first handshake event of a monitored socket (ZMQ_EVENT_*), or 0. */
static int s_handshake(void *mon)
{
    zmq_msg_t ev, addr;
    zmq_msg_init(&ev);
    zmq_msg_init(&addr);
    int e = 0;
    if (zmq_msg_recv(&ev, mon, 0) >= 0 && zmq_msg_size(&ev) >= 2) {
        uint16_t v;
        memcpy(&v, zmq_msg_data(&ev), 2);
        e = v;
        zmq_msg_recv(&addr, mon, 0);
    }
    zmq_msg_close(&ev);
    zmq_msg_close(&addr);
    zmq_close(mon);
    return e;
}

/* flags: ZMQ_DONTWAIT for a socket whose handshake failed (it has no pipe, and
 * a DEALER without one would block). */
static void s_send_flags(void *sock, bool worker, const hs_wire_msg_t *m, int flags)
{
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(m, &buf, NULL), 0);
    if (zmq_send(sock, "", 0, ZMQ_SNDMORE | flags) < 0) {
        hs_wire_buf_free(&buf);
        return;
    }
    zmq_send(sock, worker ? HS_WIRE_MAGIC_WORKER : HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN,
             ZMQ_SNDMORE);
    zmq_send(sock, buf.data, buf.len, 0);
    hs_wire_buf_free(&buf);
}

static void s_send(void *sock, bool worker, const hs_wire_msg_t *m)
{
    s_send_flags(sock, worker, m, 0);
}

/* The next message on sock into *r: 1, or 0 (nothing to fini) if none came. */
static int s_recv(void *sock, hs_wire_msg_t *r)
{
    zmq_pollitem_t it = { sock, 0, ZMQ_POLLIN, 0 };
    if (zmq_poll(&it, 1, S_WAIT_MS) != 1)
        return 0;
    return hs_test_recv_msg(sock, r);
}

/* A client request and its reply (type NONE when none came). */
static void s_req(void *sock, const hs_wire_msg_t *m, hs_wire_msg_t *r)
{
    s_send(sock, false, m);
    if (!s_recv(sock, r))
        hs_wire_msg_init(r, HS_WIRE_NONE);
}

static void s_req_id(void *sock, hs_wire_type_t type, uint64_t job_id, hs_wire_msg_t *r)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, type);
    m.job_id = job_id;
    s_req(sock, &m, r);
}

/* A SUBMIT of games [first, first + n) (moves "last": one position each). */
static void s_submit(void *sock, uint64_t job_id, const char *token, int first, int n, bool last,
                     hs_wire_msg_t *r)
{
    static char *engines[1] = { "noop" };
    hs_wire_game_t *g = calloc((size_t)n + 1, sizeof *g);
    for (int i = 0; i < n; i++)
        s_make_game(&g[i].game, first + i);
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit = (hs_wire_submit_t){ .job_id = job_id, .job_name = "sec", .engines = engines,
                                   .num_engines = 1, .moves_spec = "last", .games = g,
                                   .num_games = n, .last = last, .token = (char *)token };
    s_req(sock, &m, r);
    for (int i = 0; i < n; i++)
        hs_game_fini(&g[i].game);
    free(g);
}

/* Job id's status as admin sock sees it (state "" when it is not listed). */
static hs_wire_job_status_t s_job(void *admin, uint64_t id, char state[16])
{
    hs_wire_msg_t r;
    hs_wire_job_status_t st = { 0 };
    state[0] = '\0';
    s_req_id(admin, HS_WIRE_STATUS, id, &r);
    if (r.type == HS_WIRE_STATUS_REPLY && r.status_reply.num_jobs == 1) {
        st = r.status_reply.jobs[0];
        snprintf(state, 16, "%s", st.state);
    }
    hs_wire_msg_fini(&r);
    st.name = st.state = st.reason = NULL;
    return st;
}

static int s_error_code(const hs_wire_msg_t *r)
{
    return r->type == HS_WIRE_ERROR ? r->error.code : 0;
}

/* ------------------------------------------------------- a raw worker */

typedef struct s_worker {
    const char *ep;
    const s_keys_t *keys;
    atomic_int stop;
    long results;
} s_worker_t;

static void s_ready(void *sock)
{
    static char *engines[1] = { "noop" };
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_READY);
    m.ready = (hs_wire_ready_t){ .name = "sec-worker", .engines = engines, .num_engines = 1,
                                 .threads = 1, .credit = 4 };
    s_send(sock, true, &m);
}

/* The worker protocol by hand (READY, TASK -> RESULT, heartbeats) with the
 * worker key: the broker's side is what is tested, not the worker library. */
static void *s_worker_main(void *arg)
{
    s_worker_t *w = arg;
    void *ctx = zmq_ctx_new();
    void *s = s_dealer(ctx, w->ep, &w->keys->worker, w->keys, NULL, NULL);
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    x->batch_max = 16;
    hs_wire_buf_t out = { 0 };
    s_ready(s);
    int64_t last_hb = hs_clock_ms();
    while (!atomic_load(&w->stop)) {
        zmq_pollitem_t it = { s, 0, ZMQ_POLLIN, 0 };
        zmq_poll(&it, 1, 100);
        hs_wire_msg_t m[HS_WIRE_MAX_BATCH];
        int n = (it.revents & ZMQ_POLLIN) ? hs_test_recv_bodies(s, m, HS_WIRE_MAX_BATCH, NULL) : 0;
        for (int i = 0; i < n; i++) {
            uint64_t positions = 0;
            int failed = 0;
            if (m[i].type == HS_WIRE_TASK &&
                hs__worker_eval_task(x, &m[i].task, &out, &positions, &failed) == 0) {
                zmq_send(s, "", 0, ZMQ_SNDMORE);
                zmq_send(s, HS_WIRE_MAGIC_WORKER, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
                zmq_send(s, out.data, out.len, 0);
                w->results++;
            } else if (m[i].type == HS_WIRE_DISCONNECT) {
                s_ready(s);
            }
            hs_wire_msg_fini(&m[i]);
        }
        if (hs_clock_ms() - last_hb >= 300) {
            hs_wire_msg_t hb;
            hs_wire_msg_init(&hb, HS_WIRE_HEARTBEAT);
            s_send(s, true, &hb);
            last_hb = hs_clock_ms();
        }
    }
    hs_wire_msg_t d;
    hs_wire_msg_init(&d, HS_WIRE_DISCONNECT);
    s_send(s, true, &d);
    hs__eval_ctx_fini(x);
    free(x);
    hs_wire_buf_free(&out);
    zmq_close(s);
    zmq_ctx_term(ctx);
    return NULL;
}

/* ------------------------------------------------------- a polite client */

/* Sends games [first, first + n) as one job, never more than the credit it was
 * granted, asking again (empty SUBMIT) while it has none, as hs_submitter does.
 * Every reply must be a SUBMIT_REPLY. The job's id. */
static uint64_t s_polite(void *sock, const char *token, int first, int n)
{
    hs_wire_msg_t r;
    s_submit(sock, 0, token, first, 1, false, &r);   /* the first: one game, credit unknown */
    HS_CHECK_INT(r.type, HS_WIRE_SUBMIT_REPLY);
    if (r.type == HS_WIRE_ERROR)
        fprintf(stderr, "polite client refused: %s\n", r.error.reason);
    uint64_t job = r.type == HS_WIRE_SUBMIT_REPLY ? r.submit_reply.job_id : 0;
    int credit = r.type == HS_WIRE_SUBMIT_REPLY ? r.submit_reply.credit : 0, sent = 1;
    hs_wire_msg_fini(&r);
    int errors = 0;
    while (job && sent < n && errors == 0) {
        int k = n - sent < credit ? n - sent : credit;
        if (k == 0)
            usleep(20000);
        s_submit(sock, job, token, first + sent, k, false, &r);
        errors += r.type != HS_WIRE_SUBMIT_REPLY;
        if (r.type == HS_WIRE_ERROR)
            fprintf(stderr, "polite client refused: %s\n", r.error.reason);
        credit = r.type == HS_WIRE_SUBMIT_REPLY ? r.submit_reply.credit : 0;
        sent += k;
        hs_wire_msg_fini(&r);
    }
    s_submit(sock, job, token, 0, 0, true, &r);
    errors += r.type != HS_WIRE_SUBMIT_REPLY;
    hs_wire_msg_fini(&r);
    HS_CHECK_INT(errors, 0);
    return job;
}

/* Waits (bounded by the hang guard) until admin sees job id in state want. */
static void s_wait_state(void *admin, uint64_t id, const char *want)
{
    char state[16] = "";
    int64_t end = hs_clock_ms() + 4 * S_WAIT_MS;
    while (strcmp(state, want) && hs_clock_ms() < end) {
        s_job(admin, id, state);
        usleep(20000);
    }
    HS_CHECK_STR(state, want);
}

/* ------------------------------------------------------------ tests */

static void s_keys_make(s_keys_t *k)
{
    memset(k, 0, sizeof *k);
    hs_curve_pair_t *p[] = { &k->server, &k->worker, &k->x, &k->y, &k->admin, &k->stranger };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        HS_CHECK_INT(hs_curve_keypair(p[i], NULL), 0);
    HS_CHECK_INT(hs_curve_list_add(&k->workers, k->worker.public_key, "w1", NULL), 0);
    HS_CHECK_INT(hs_curve_list_add(&k->clients, k->x.public_key, "x", NULL), 0);
    HS_CHECK_INT(hs_curve_list_add(&k->clients, k->y.public_key, "y", NULL), 0);
    HS_CHECK_INT(hs_curve_list_add(&k->admins, k->admin.public_key, "admin", NULL), 0);
}

static void s_test_lists(void)
{
    hs_curve_pair_t p[5];
    hs_curve_list_t l = { 0 };
    for (int i = 0; i < 5; i++) {
        HS_CHECK_INT(hs_curve_keypair(&p[i], NULL), 0);
        HS_CHECK(hs_curve_key_valid(p[i].public_key) && hs_curve_key_valid(p[i].secret_key));
        HS_CHECK_INT(hs_curve_list_add(&l, p[i].public_key, i == 2 ? "two" : NULL, NULL), 0);
    }
    HS_CHECK_INT(hs_curve_list_add(&l, p[2].public_key, "again", NULL), 0);   /* kept once */
    HS_CHECK_INT(l.n, 5);
    for (int i = 1; i < l.n; i++)
        HS_CHECK(strcmp(l.v[i - 1].key, l.v[i].key) < 0);
    for (int i = 0; i < 5; i++)
        HS_CHECK(hs_curve_list_find(&l, p[i].public_key) != NULL);
    HS_CHECK_STR(hs_curve_list_find(&l, p[2].public_key)->name, "two");
    char other[HS_CURVE_KEY_LEN + 1];
    snprintf(other, sizeof other, "%s", p[0].public_key);
    other[0] = other[0] == 'a' ? 'b' : 'a';
    HS_CHECK(hs_curve_list_find(&l, other) == NULL || !strcmp(other, p[1].public_key));
    HS_CHECK(!hs_curve_key_valid("short"));
    HS_CHECK(!hs_curve_key_valid("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"));   /* not Z85 */
    HS_CHECK_INT(hs_curve_list_add(&l, "not a key", NULL, NULL), HS_EPARSE);
    hs_curve_list_free(&l);
}

/* A job's owner is journaled; a record of the 13 fields written before owners
 * existed (format byte 1, no checksum) reads as anonymous. */
static void s_test_store_owner(const s_keys_t *k)
{
    char dir[] = "/tmp/hs-test-secstore-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    hs_store_t *s = NULL;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, NULL), 0);
    HS_CHECK_INT(hs_store_begin(s, NULL), 0);
    hs_store_job_t j = { .state = HS_JOB_RUNNING };
    snprintf(j.engines, sizeof j.engines, "noop");
    snprintf(j.owner, sizeof j.owner, "%s", k->x.public_key);
    HS_CHECK_INT(hs_store_job_create(s, &j, NULL), 0);
    HS_CHECK_INT(hs_store_commit(s, NULL), 0);
    hs_store_job_t back;
    HS_CHECK_INT(hs_store_job_get(s, j.id, &back, NULL), 0);
    HS_CHECK_STR(back.owner, k->x.public_key);
    hs_store_close(&s);
    hs_test_rm_store(dir);

    static const uint8_t old[] = {
        1, 0x9d, 0xa3, 'o', 'l', 'd', 0x00, 0xa4, 'n', 'o', 'o', 'p', 0xa3, 'a', 'l', 'l',
        0xc3, 0x02, 0x01, 0x01, 0x07, 0x00, 0x10, 0x11, 0xa0,
    };
    uint8_t key[8] = { 0, 0, 0, 0, 0, 0, 0, 9 };
    MDB_val kv = { sizeof key, key }, vv = { sizeof old, (void *)old };
    hs_store_job_t o;
    memset(&o, 0x55, sizeof o);
    HS_CHECK_INT(hs__store_decode_job(&kv, &vv, &o, NULL), 0);
    HS_CHECK_INT(o.id, 9);
    HS_CHECK_STR(o.name, "old");
    HS_CHECK_STR(o.engines, "noop");
    HS_CHECK_INT(o.games_total, 2);
    HS_CHECK_INT(o.positions_done, 0);
    HS_CHECK_INT(o.updated_unix, 0x11);
    HS_CHECK_STR(o.owner, "");
}

typedef struct s_run {
    hs_test_broker_t tb;
    char dir[64];
} s_run_t;

/* hs_broker_run with bind and no keys: its return code, or 1 when it served
 * (then it is stopped). */
static int s_bind_try(const char *bind, int insecure, hs_error_t *err)
{
    s_run_t *r = calloc(1, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "/tmp/hs-test-secbind-XXXXXX");
    HS_CHECK(mkdtemp(r->dir) != NULL);
    r->tb.cfg = (hs_broker_config_t){ .bind = bind, .db_dir = r->dir, .insecure = insecure,
                                      .store_flags = HS_STORE_NOSYNC };
    atomic_store(&r->tb.stop, 0);
    atomic_store(&r->tb.ready, 0);
    r->tb.cfg.stop = &r->tb.stop;
    r->tb.cfg.ready = &r->tb.ready;
    pthread_create(&r->tb.tid, NULL, hs_test_broker_main, &r->tb);
    while (atomic_load(&r->tb.ready) == 0)
        usleep(1000);
    bool served = atomic_load(&r->tb.ready) == 1;
    atomic_store(&r->tb.stop, 1);
    pthread_join(r->tb.tid, NULL);
    int rc = served ? 1 : r->tb.rc;
    *err = r->tb.err;
    hs_test_rm_store(r->dir);
    free(r);
    return rc;
}

static void s_test_bind_rules(void)
{
    hs_error_t err;
    const char *open[] = { "tcp://0.0.0.0:*", "tcp://*:*", "tcp://127.0.0.1:*,tcp://0.0.0.0:*" };
    for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) {
        HS_CHECK_INT(s_bind_try(open[i], 0, &err), HS_EINVAL);
        HS_CHECK(strstr(err.msg, "--key") && strstr(err.msg, "--insecure"));
    }
    HS_CHECK_INT(s_bind_try("tcp://0.0.0.0:*", 1, &err), 1);     /* warned, served */
    HS_CHECK_INT(s_bind_try("tcp://127.0.0.1:*", 0, &err), 1);
    HS_CHECK_INT(s_bind_try("tcp://127.0.0.1:0", 0, &err), 1);   /* 0: any port, as * */
    /* libzmq keeps a port's low 16 bits (99999 binds 34463, -1 binds 65535):
     * refused, as is a transport nobody knows (not "reachable from the
     * network": a typo), whatever --insecure says. */
    const char *bad[] = { "tcp://127.0.0.1:99999", "tcp://127.0.0.1:70000",
                          "tcp://127.0.0.1:-1", "tcp://127.0.0.1:*,tcp://127.0.0.1:65536" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        HS_CHECK_INT(s_bind_try(bad[i], 1, &err), HS_EINVAL);
        HS_CHECK(strstr(err.msg, "is out of range (1..65535"));
    }
    HS_CHECK_INT(s_bind_try("foo://bar", 0, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "unknown transport 'foo'") && !strstr(err.msg, "network"));
    char ipc[64];
    snprintf(ipc, sizeof ipc, "ipc:///tmp/hs-test-secbind-%d.ipc", (int)getpid());
    HS_CHECK_INT(s_bind_try(ipc, 0, &err), 1);
    unlink(ipc + 6);
}

/* Strangers: a plaintext peer and unknown keys fail the handshake, and the job
 * they would have read or changed is as it was. */
static void s_test_strangers(void *ctx, const char *ep, const s_keys_t *k, void *admin,
                             uint64_t job)
{
    char before[16], after[16];
    hs_wire_job_status_t st0 = s_job(admin, job, before);
    void *mon;
    void *plain = s_dealer(ctx, ep, NULL, k, "mon-plain", &mon);
    int ev = s_handshake(mon);   /* a mechanism mismatch: libzmq gives no detail */
    HS_CHECK(ev == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL || ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL);
    void *stranger = s_dealer(ctx, ep, &k->stranger, k, "mon-client", &mon);
    HS_CHECK_INT(s_handshake(mon), ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    hs_curve_pair_t unknown_worker;
    HS_CHECK_INT(hs_curve_keypair(&unknown_worker, NULL), 0);
    void *uw = s_dealer(ctx, ep, &unknown_worker, k, "mon-worker", &mon);
    HS_CHECK_INT(s_handshake(mon), ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    /* Whatever they send goes nowhere. */
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_CANCEL);
    m.job_id = job;
    s_send_flags(plain, false, &m, ZMQ_DONTWAIT);
    s_send_flags(stranger, false, &m, ZMQ_DONTWAIT);
    s_send_flags(uw, true, &m, ZMQ_DONTWAIT);
    hs_wire_job_status_t st1 = s_job(admin, job, after);
    HS_CHECK_STR(after, before);
    HS_CHECK_INT(st1.games_total, st0.games_total);
    HS_CHECK_INT(st1.positions_done, st0.positions_done);
    zmq_close(plain);
    zmq_close(stranger);
    zmq_close(uw);
}

/* A client key's READY earns no TASK (the queue holds job's tasks and no worker
 * is connected), and a worker key's client requests get HS_EPERM. */
static void s_test_roles(void *ctx, const char *ep, const s_keys_t *k)
{
    void *xw = s_dealer(ctx, ep, &k->x, k, NULL, NULL);
    s_ready(xw);
    hs_wire_msg_t r;
    for (int i = 0; i < 2; i++) {   /* a TASK would come before the 2nd reply */
        s_req_id(xw, HS_WIRE_HEARTBEAT, 0, &r);
        HS_CHECK_INT(r.type, HS_WIRE_HEARTBEAT);
        hs_wire_msg_fini(&r);
    }
    zmq_close(xw);
    void *wc = s_dealer(ctx, ep, &k->worker, k, NULL, NULL);
    s_req_id(wc, HS_WIRE_STATUS, 0, &r);
    HS_CHECK_INT(s_error_code(&r), HS_EPERM);
    hs_wire_msg_fini(&r);
    s_submit(wc, 0, "w-token", 900, 1, true, &r);
    HS_CHECK_INT(s_error_code(&r), HS_EPERM);
    hs_wire_msg_fini(&r);
    zmq_close(wc);
}

/* Y against X's job jx: nothing of it can be read, watched, canceled or added
 * to, not even through X's token; QUERY is the admin's. Returns Y's job. */
static uint64_t s_test_owners(void *x, void *y, void *admin, uint64_t jx, const char *x_token)
{
    hs_wire_msg_t r;
    char state[16];
    int64_t games = s_job(admin, jx, state).games_total;
    s_req_id(y, HS_WIRE_STATUS, jx, &r);
    HS_CHECK_INT(s_error_code(&r), HS_ENOTFOUND);
    hs_wire_msg_fini(&r);
    s_req_id(y, HS_WIRE_STATUS, 0, &r);
    HS_CHECK_INT(r.type, HS_WIRE_STATUS_REPLY);
    HS_CHECK_INT(r.status_reply.num_jobs, 0);
    HS_CHECK_INT(r.status_reply.total, 0);
    hs_wire_msg_fini(&r);
    s_req_id(y, HS_WIRE_CANCEL, jx, &r);
    HS_CHECK(r.type == HS_WIRE_CANCEL_REPLY && !r.cancel_reply.canceled);
    hs_wire_msg_fini(&r);
    s_req_id(y, HS_WIRE_WATCH, jx, &r);
    HS_CHECK_INT(s_error_code(&r), HS_ENOTFOUND);
    hs_wire_msg_fini(&r);
    s_submit(y, jx, NULL, 500, 1, false, &r);
    HS_CHECK_INT(s_error_code(&r), HS_ENOTFOUND);
    hs_wire_msg_fini(&r);
    s_submit(y, 0, x_token, 501, 1, false, &r);   /* X's token: a job of Y's own */
    HS_CHECK_INT(r.type, HS_WIRE_SUBMIT_REPLY);
    uint64_t jy = r.submit_reply.job_id;
    HS_CHECK(jy != 0 && jy != jx);
    hs_wire_msg_fini(&r);
    hs_wire_job_status_t st = s_job(admin, jx, state);
    HS_CHECK_STR(state, "running");
    HS_CHECK_INT(st.games_total, games);

    hs_wire_msg_t q;
    hs_wire_msg_init(&q, HS_WIRE_QUERY);
    q.text = "stats\x1f";   /* the arguments, each ended by 0x1F */
    s_req(x, &q, &r);
    HS_CHECK_INT(s_error_code(&r), HS_EPERM);
    hs_wire_msg_fini(&r);
    s_req(admin, &q, &r);
    HS_CHECK_INT(r.type, HS_WIRE_QUERY_REPLY);
    hs_wire_msg_fini(&r);

    s_req_id(x, HS_WIRE_STATUS, 0, &r);   /* X sees its job only */
    HS_CHECK(r.type == HS_WIRE_STATUS_REPLY && r.status_reply.num_jobs == 1 &&
             r.status_reply.jobs[0].id == jx);
    hs_wire_msg_fini(&r);
    s_req_id(admin, HS_WIRE_STATUS, 0, &r);
    HS_CHECK(r.type == HS_WIRE_STATUS_REPLY && r.status_reply.total == 2);
    hs_wire_msg_fini(&r);
    return jy;
}

/* The worker list is the admin's (it names hosts). */
static void s_test_worker_list(void *x, void *admin)
{
    hs_wire_msg_t r;
    int listed = 0;
    int64_t end = hs_clock_ms() + S_WAIT_MS;
    while (listed == 0 && hs_clock_ms() < end) {
        s_req_id(admin, HS_WIRE_STATUS, 0, &r);
        listed = r.type == HS_WIRE_STATUS_REPLY ? r.status_reply.num_worker_list : 0;
        hs_wire_msg_fini(&r);
        usleep(10000);
    }
    HS_CHECK_INT(listed, 1);
    s_req_id(admin, HS_WIRE_STATUS, 0, &r);
    HS_CHECK(r.type == HS_WIRE_STATUS_REPLY && r.status_reply.has_cluster &&
             r.status_reply.cluster.uptime_ms >= 1);
    hs_wire_msg_fini(&r);
    /* A client gets neither the list nor the queue, and a mark that says so
     * (uptime 0), which an older broker (no field) never sends. */
    s_req_id(x, HS_WIRE_STATUS, 0, &r);
    HS_CHECK(r.type == HS_WIRE_STATUS_REPLY && r.status_reply.num_worker_list == 0);
    if (r.type == HS_WIRE_STATUS_REPLY) {
        const hs_wire_cluster_info_t *c = &r.status_reply.cluster;
        HS_CHECK(r.status_reply.has_cluster);
        HS_CHECK(c->uptime_ms == 0 && c->queued_tasks == 0 && c->leased_tasks == 0 &&
                 c->positions_pending == 0 && c->jobs_running == 0);
    }
    hs_wire_msg_fini(&r);
}

/* Y floods (more jobs, games past its grant, a SUBMIT past its upload a
 * minute): each is refused with HS_ELIMIT and nothing past the limit is
 * stored; meanwhile X, polite, sends more games than Y's whole limit without
 * one refusal, and its job finishes. */
static void s_test_flood(void *x, void *y, void *admin, uint64_t jy1)
{
    hs_wire_msg_t r;
    char state[16];
    uint64_t jy[S_LIMIT_JOBS] = { jy1 };
    for (int i = 1; i < S_LIMIT_JOBS; i++) {
        s_submit(y, 0, NULL, 600 + i, 1, false, &r);
        HS_CHECK_INT(r.type, HS_WIRE_SUBMIT_REPLY);
        jy[i] = r.type == HS_WIRE_SUBMIT_REPLY ? r.submit_reply.job_id : 0;
        hs_wire_msg_fini(&r);
    }
    s_submit(y, 0, NULL, 650, 1, false, &r);
    HS_CHECK_INT(s_error_code(&r), HS_ELIMIT);
    HS_CHECK(r.type == HS_WIRE_ERROR && strstr(r.error.reason, "--limit-jobs"));
    hs_wire_msg_fini(&r);

    s_submit(y, jy[1], NULL, 700, 100, false, &r);   /* far past any grant */
    HS_CHECK_INT(s_error_code(&r), HS_ELIMIT);
    HS_CHECK(r.type == HS_WIRE_ERROR && strstr(r.error.reason, "--limit-games"));
    hs_wire_msg_fini(&r);
    int64_t held = s_job(admin, jy[1], state).games_total;
    HS_CHECK(held >= 1 && held <= S_LIMIT_GAMES + 1);

    /* 1000 games is more bytes than the minute's limit: refused whole. */
    int64_t before = s_job(admin, jy[2], state).games_total;
    s_submit(y, jy[2], NULL, 2000, 1000, false, &r);
    HS_CHECK_INT(s_error_code(&r), HS_ELIMIT);
    HS_CHECK(r.type == HS_WIRE_ERROR && strstr(r.error.reason, "--limit-upload"));
    hs_wire_msg_fini(&r);
    HS_CHECK_INT(s_job(admin, jy[2], state).games_total, before);

    uint64_t jx = s_polite(x, "x-second", 5000, 3 * S_LIMIT_GAMES);
    s_wait_state(admin, jx, "done");
    hs_wire_job_status_t st = s_job(admin, jx, state);
    HS_CHECK_INT(st.games_total, 3 * S_LIMIT_GAMES);
    HS_CHECK_INT(st.positions_done, 3 * S_LIMIT_GAMES);

    /* An admin may cancel anyone's job; Y's WATCH of its jobs shows its own. */
    s_req_id(admin, HS_WIRE_CANCEL, jy[0], &r);
    HS_CHECK(r.type == HS_WIRE_CANCEL_REPLY && r.cancel_reply.canceled);
    hs_wire_msg_fini(&r);
    s_req_id(y, HS_WIRE_WATCH, 0, &r);
    HS_CHECK(r.type == HS_WIRE_STATUS_REPLY && r.status_reply.num_jobs == S_LIMIT_JOBS);
    for (int i = 0; r.type == HS_WIRE_STATUS_REPLY && i < r.status_reply.num_jobs; i++)
        HS_CHECK(r.status_reply.jobs[i].id != jx);
    hs_wire_msg_fini(&r);
}

/* An inproc:// peer of a CURVE broker is in its process: no handshake, every
 * right (an embedding program); a tcp stranger of the same broker is still
 * refused. */
static void s_test_inproc(const s_keys_t *k)
{
    void *ctx = zmq_ctx_new();
    hs_test_broker_t *tb = calloc(1, sizeof *tb);
    char dir[] = "/tmp/hs-test-secinproc-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    tb->cfg = (hs_broker_config_t){ .bind = "inproc://hs-sec-inproc,tcp://127.0.0.1:*",
                                    .zmq_ctx = ctx, .db_dir = dir,
                                    .store_flags = HS_STORE_NOSYNC, .curve = &k->server,
                                    .worker_keys = &k->workers, .client_keys = &k->clients,
                                    .admin_keys = &k->admins };
    hs_test_broker_start(tb);
    void *in = s_dealer(ctx, "inproc://hs-sec-inproc", NULL, k, NULL, NULL);
    hs_wire_msg_t r;
    s_req_id(in, HS_WIRE_STATUS, 0, &r);
    HS_CHECK_INT(r.type, HS_WIRE_STATUS_REPLY);
    hs_wire_msg_fini(&r);
    const char *tcp = strchr(tb->endpoint, ',');
    void *mon;
    void *stranger = s_dealer(ctx, tcp ? tcp + 1 : "", &k->stranger, k, "mon-inproc", &mon);
    HS_CHECK_INT(s_handshake(mon), ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    zmq_close(stranger);
    zmq_close(in);
    hs_test_broker_stop(tb);
    zmq_ctx_term(ctx);
    hs_test_rm_store(dir);
    free(tb);
}

static void s_test_secure_broker(const s_keys_t *k)
{
    hs_test_broker_t *tb = calloc(1, sizeof *tb);
    char dir[] = "/tmp/hs-test-secbroker-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    tb->cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .db_dir = dir,
                                    .store_flags = HS_STORE_NOSYNC, .curve = &k->server,
                                    .worker_keys = &k->workers, .client_keys = &k->clients,
                                    .admin_keys = &k->admins, .limit_jobs = S_LIMIT_JOBS,
                                    .limit_games = S_LIMIT_GAMES,
                                    .limit_upload = S_LIMIT_UPLOAD };
    hs_test_broker_start(tb);
    const char *ep = tb->endpoint;
    void *ctx = zmq_ctx_new();
    void *x = s_dealer(ctx, ep, &k->x, k, NULL, NULL);
    void *y = s_dealer(ctx, ep, &k->y, k, NULL, NULL);
    void *admin = s_dealer(ctx, ep, &k->admin, k, NULL, NULL);

    uint64_t jx = s_polite(x, "x-first", 0, 5);   /* no worker yet: it waits, queued */
    char state[16];
    HS_CHECK_INT(s_job(admin, jx, state).games_total, 5);
    s_test_strangers(ctx, ep, k, admin, jx);
    s_test_roles(ctx, ep, k);
    HS_CHECK_INT(s_job(admin, jx, state).positions_done, 0);
    uint64_t jy = s_test_owners(x, y, admin, jx, "x-first");

    s_worker_t w = { .ep = ep, .keys = k };
    pthread_t wt;
    pthread_create(&wt, NULL, s_worker_main, &w);
    s_test_worker_list(x, admin);
    s_test_flood(x, y, admin, jy);
    s_wait_state(admin, jx, "done");
    atomic_store(&w.stop, 1);
    pthread_join(wt, NULL);
    HS_CHECK(w.results > 0);

    zmq_close(x);
    zmq_close(y);
    zmq_close(admin);
    zmq_ctx_term(ctx);
    hs_test_broker_stop(tb);

    /* The owner outlives the broker: the journal has it. */
    hs_store_t *s = NULL;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, NULL), 0);
    hs_store_job_t j;
    HS_CHECK_INT(hs_store_job_get(s, jx, &j, NULL), 0);
    HS_CHECK_STR(j.owner, k->x.public_key);
    HS_CHECK_INT(hs_store_job_get(s, jy, &j, NULL), 0);
    HS_CHECK_STR(j.owner, k->y.public_key);
    hs_store_close(&s);
    hs_test_rm_store(dir);
    free(tb);
}

/* A DEALER with key own that calls itself `rid` on the wire (ZMQ_ROUTING_ID). */
static void *s_dealer_as(void *ctx, const char *ep, const hs_curve_pair_t *own, const s_keys_t *k,
                         const char *rid)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_ROUTING_ID, rid, strlen(rid));
    hs_curve_client_t c = { .pair = *own };
    memcpy(c.server_key, k->server.public_key, sizeof c.server_key);
    HS_CHECK_INT(hs_curve_setup_client(s, &c, NULL), 0);
    zmq_connect(s, ep);
    return s;
}

/*
 * A lease belongs to the worker's key, not only to its routing id. Worker 1
 * leases a task and drops its connection without a word (its lease is still
 * held until it expires); a second listed worker connects under the same
 * routing id, which ROUTER allows once the first pipe is gone, and returns a
 * correct RESULT for that task. It must be treated as a stranger: told to say
 * READY (DISCONNECT), and the job must not move.
 */
static void s_test_takeover(const s_keys_t *k)
{
    hs_curve_pair_t w2;
    HS_CHECK_INT(hs_curve_keypair(&w2, NULL), 0);
    hs_curve_list_t workers = { 0 };
    HS_CHECK_INT(hs_curve_list_add(&workers, k->worker.public_key, "w1", NULL), 0);
    HS_CHECK_INT(hs_curve_list_add(&workers, w2.public_key, "w2", NULL), 0);
    hs_test_broker_t *tb = calloc(1, sizeof *tb);
    char dir[] = "/tmp/hs-test-takeover-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    tb->cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .db_dir = dir,
                                    .store_flags = HS_STORE_NOSYNC, .curve = &k->server,
                                    .worker_keys = &workers, .client_keys = &k->clients,
                                    .admin_keys = &k->admins, .heartbeat_ms = 200,
                                    .liveness = 1000 };
    hs_test_broker_start(tb);
    void *ctx = zmq_ctx_new();
    void *admin = s_dealer(ctx, tb->endpoint, &k->admin, k, NULL, NULL);
    uint64_t job = s_polite(admin, "takeover", 0, 1);

    void *w1 = s_dealer_as(ctx, tb->endpoint, &k->worker, k, "worker-A");
    s_ready(w1);
    hs_wire_msg_t task = { 0 };
    while (s_recv(w1, &task) && task.type != HS_WIRE_TASK)
        hs_wire_msg_fini(&task);
    HS_CHECK_INT(task.type, HS_WIRE_TASK);
    zmq_close(w1);   /* gone without DISCONNECT: the broker still holds its lease */

    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    x->batch_max = 16;
    hs_wire_buf_t out = { 0 };
    uint64_t positions = 0;
    int failed = 0;
    HS_CHECK_INT(hs__worker_eval_task(x, &task.task, &out, &positions, &failed), 0);
    /* The new connection may be refused while the old pipe lingers: try
     * again until the broker answers it at all (bounded by the hang guard). */
    hs_wire_msg_t r = { 0 };
    int got = 0;
    for (int tries = 0; tries < 100 && !got; tries++) {
        void *w2s = s_dealer_as(ctx, tb->endpoint, &w2, k, "worker-A");
        hs_wire_msg_t hb;
        hs_wire_msg_init(&hb, HS_WIRE_HEARTBEAT);
        s_send(w2s, true, &hb);
        zmq_pollitem_t it = { w2s, 0, ZMQ_POLLIN, 0 };
        if (zmq_poll(&it, 1, 300) == 1) {
            got = hs_test_recv_msg(w2s, &r);
            zmq_send(w2s, "", 0, ZMQ_SNDMORE);
            zmq_send(w2s, HS_WIRE_MAGIC_WORKER, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
            zmq_send(w2s, out.data, out.len, 0);
            hs_wire_msg_t after;
            if (got && s_recv(w2s, &after))   /* answered after the RESULT: it was read */
                hs_wire_msg_fini(&after);
        }
        zmq_close(w2s);
    }
    HS_CHECK(got);
    HS_CHECK_INT(r.type, HS_WIRE_DISCONNECT);   /* a stranger, not worker 1 */
    hs_wire_msg_fini(&r);
    char state[16];
    HS_CHECK_INT(s_job(admin, job, state).positions_done, 0);
    HS_CHECK_STR(state, "running");

    hs_wire_msg_fini(&task);
    hs__eval_ctx_fini(x);
    free(x);
    hs_wire_buf_free(&out);
    zmq_close(admin);
    zmq_ctx_term(ctx);
    hs_test_broker_stop(tb);
    hs_curve_list_free(&workers);
    hs_test_rm_store(dir);
    free(tb);
}

int main(void)
{
    if (!hs_curve_available()) {
        printf("SKIP: this libzmq has no CURVE\n");
        return 77;
    }
    s_keys_t k;
    s_keys_make(&k);
    s_test_lists();
    s_test_store_owner(&k);
    s_test_bind_rules();
    s_test_secure_broker(&k);
    s_test_inproc(&k);
    s_test_takeover(&k);
    hs_curve_list_free(&k.workers);
    hs_curve_list_free(&k.clients);
    hs_curve_list_free(&k.admins);
    return hs_test_finish();
}
