/*
 * tests/test_broker.c — the broker, worker and client in one process over TCP
 * loopback, under attack:
 *   - a job of generated games, with unreadable games mixed in, runs while a
 *     second thread sends 10,000 malformed and random messages to the broker's
 *     socket (bad frames, bad magic, garbage bodies, mutated valid bodies, huge
 *     declared counts, batched messages of such bodies, raw TCP garbage): the
 *     job completes, every requested
 *     position is stored exactly once and the broken games are recorded failed
 *     with their reasons;
 *   - the store starts with a tiny map so that it fills during the job: it grows
 *     and the job still completes;
 *   - cancel: a second job is canceled and reports so;
 *   - WATCH: progress is pushed (no STATUS asked), the last push says "done";
 *     unknown jobs and a watcher over the cap get ERRORs.
 * The engine registry and the worker's task → result path on their own are
 * tests/test_engines.c.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "broker/client.h"
#include "core/wire.h"
#include "store/store.h"
#include "peer.h"
#include "test.h"
#include "wall_game.h"
#include "worker/engine.h"
#include "worker/worker.h"

#define S_GAMES 120
#define S_BROKEN 5
#define S_MOVES 30
#define S_FUZZ 10000

/* Game i on 9x9 (tests/wall_game.h); games of i >= 36 repeat a rotation, so
 * they are shorter, to keep ids of their own. */
static void s_make_game(hs_game_t *g, int i)
{
    hs_test_wall_game(g, 9, S_MOVES - (i / 36) * 2, i, 7.0);
}

typedef struct s_ctx {
    char endpoint[64];
    atomic_int stop_fuzz;
    int port;
    long sent;
} s_ctx_t;

static uint64_t s_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A valid body of a random type with fake ids, for mutation. */
static void s_valid_body(hs_wire_buf_t *buf, uint64_t *rng)
{
    hs_wire_msg_t m;
    int kind = (int)(s_rand(rng) % 5);
    char *engines[1] = { "noop" };
    hs_eval_t ev;
    memset(&ev, 0, sizeof ev);
    ev.move_number = 3;
    ev.size = 9;
    ev.score_lead = 1.5f;
    ev.engine_id = hs_engine_config_id("noop");
    switch (kind) {
    case 0:
        hs_wire_msg_init(&m, HS_WIRE_READY);
        m.ready.name = "fuzz";
        m.ready.engines = engines;
        m.ready.num_engines = 1;
        m.ready.threads = 1;
        m.ready.credit = 0;   /* a READY with no credit: the broker clamps it to 1 */
        break;
    case 1:
        hs_wire_msg_init(&m, HS_WIRE_RESULT);
        m.result.task_id = 1000000000ull + s_rand(rng) % 1000;   /* never a real task */
        m.result.job_id = 1;
        m.result.evals = &ev;
        m.result.num_evals = 1;
        break;
    case 2:
        hs_wire_msg_init(&m, HS_WIRE_STATUS);
        /* Never the running job: one flipped bit turns STATUS (8) into CANCEL
         * (10), and a cancelled job would fail the test by luck. */
        m.job_id = s_rand(rng) % 4;
        m.job_id = m.job_id == 0 ? 0 : 1000 + m.job_id;
        break;
    case 3:
        hs_wire_msg_init(&m, HS_WIRE_CANCEL);
        m.job_id = 1000 + s_rand(rng) % 1000;   /* no such job */
        break;
    default:
        hs_wire_msg_init(&m, HS_WIRE_HEARTBEAT);
        break;
    }
    buf->len = 0;
    hs_wire_encode(&m, buf, NULL);
}

static void *s_fuzz_thread(void *arg)
{
    s_ctx_t *c = arg;
    void *ctx = zmq_ctx_new();
    uint64_t rng = 0x9E3779B97F4A7C15ull, rng2 = 0x2545F4914F6CDD1Dull;
    hs_wire_buf_t buf = { 0 };
    void *socks[4];
    int zero = 0;
    for (int i = 0; i < 4; i++) {
        socks[i] = zmq_socket(ctx, ZMQ_DEALER);
        zmq_setsockopt(socks[i], ZMQ_LINGER, &zero, sizeof zero);
        zmq_connect(socks[i], c->endpoint);
    }
    uint8_t junk[512];
    for (long n = 0; n < S_FUZZ && !atomic_load(&c->stop_fuzz); n++) {
        void *s = socks[n % 4];
        /* Every 9th message is a batched one, drawn from its own generator so that
         * the other kinds see the same sequence as before batching existed. */
        bool batched = n % 9 == 8;
        uint64_t *r = batched ? &rng2 : &rng;
        int kind = batched ? 8 : (int)(s_rand(&rng) % 8);
        size_t jl = (size_t)(s_rand(r) % sizeof junk);
        for (size_t k = 0; k < jl; k++)
            junk[k] = (uint8_t)s_rand(r);
        const char *magic = (s_rand(r) & 1) ? HS_WIRE_MAGIC_WORKER : HS_WIRE_MAGIC_CLIENT;
        switch (kind) {
        case 0:   /* one random frame */
            zmq_send(s, junk, jl, 0);
            break;
        case 1:   /* right shape, garbage body */
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            zmq_send(s, magic, 4, ZMQ_SNDMORE);
            zmq_send(s, junk, jl, 0);
            break;
        case 2:   /* bad magic */
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            zmq_send(s, "HSX9", 4, ZMQ_SNDMORE);
            zmq_send(s, junk, jl, 0);
            break;
        case 3:   /* too many frames */
            for (int k = 0; k < 6; k++)
                zmq_send(s, junk, jl / 6, ZMQ_SNDMORE);
            zmq_send(s, "", 0, 0);
            break;
        case 4:
        case 5: { /* a valid body with bytes flipped */
            s_valid_body(&buf, &rng);
            int flips = 1 + (int)(s_rand(&rng) % 4);
            for (int k = 0; k < flips && buf.len; k++)
                buf.data[s_rand(&rng) % buf.len] ^= (uint8_t)(1u << (s_rand(&rng) % 8));
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            zmq_send(s, magic, 4, ZMQ_SNDMORE);
            zmq_send(s, buf.data, buf.len, 0);
            break;
        }
        case 6: { /* huge declared counts: array32 of 4 billion, map32, str32 */
            static const uint8_t huge[][6] = {
                { 0xdd, 0xff, 0xff, 0xff, 0xff, 0x01 }, { 0xdf, 0xff, 0xff, 0xff, 0xff, 0x01 },
                { 0xdb, 0xff, 0xff, 0xff, 0xff, 0x41 }, { 0x95, 0x01, 0x06, 0x00, 0xdc, 0xff },
            };
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            zmq_send(s, magic, 4, ZMQ_SNDMORE);
            zmq_send(s, huge[s_rand(&rng) % 4], 6, 0);
            break;
        }
        case 8: { /* a batched message: 2..69 bodies (over the cap of 64 at times),
                   * each valid, mutated, truncated or junk; no body of one counts
                   * but a RESULT (never of a real task here) */
            int nb = 2 + (int)(s_rand(&rng2) % 68);
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            zmq_send(s, magic, 4, ZMQ_SNDMORE);
            for (int k = 0; k < nb; k++) {
                int how = (int)(s_rand(&rng2) % 4);
                s_valid_body(&buf, &rng2);
                size_t len = buf.len;
                if (how == 1 && len)
                    buf.data[s_rand(&rng2) % len] ^= (uint8_t)(1u << (s_rand(&rng2) % 8));
                else if (how == 2)
                    len = len ? s_rand(&rng2) % len : 0;
                zmq_send(s, how == 3 ? (const void *)junk : buf.data, how == 3 ? jl : len,
                         k + 1 < nb ? ZMQ_SNDMORE : 0);
            }
            break;
        }
        default: { /* a valid, truncated body */
            s_valid_body(&buf, &rng);
            zmq_send(s, "", 0, ZMQ_SNDMORE);
            zmq_send(s, magic, 4, ZMQ_SNDMORE);
            zmq_send(s, buf.data, buf.len ? s_rand(&rng) % buf.len : 0, 0);
            break;
        }
        }
        /* Drain whatever the broker answers (errors, status, DISCONNECT). */
        for (int i = 0; i < 4; i++) {
            zmq_msg_t msg;
            zmq_msg_init(&msg);
            while (zmq_msg_recv(&msg, socks[i], ZMQ_DONTWAIT) >= 0)
                ;
            zmq_msg_close(&msg);
        }
        c->sent = n + 1;
        if (n % 500 == 0) {
            /* Raw TCP garbage: not even ZMTP. */
            int fd = socket(AF_INET, SOCK_STREAM, 0);
            struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)c->port) };
            sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
                ssize_t w = write(fd, junk, jl);
                (void)w;
            }
            if (fd >= 0)
                close(fd);
        }
    }
    for (int i = 0; i < 4; i++)
        zmq_close(socks[i]);
    zmq_ctx_term(ctx);
    hs_wire_buf_free(&buf);
    return NULL;
}

typedef struct s_thread_rc {
    hs_broker_config_t bcfg;
    hs_worker_config_t wcfg;
    hs_error_t err;
    int rc;
} s_thread_rc_t;

static void *s_broker_thread(void *arg)
{
    s_thread_rc_t *t = arg;
    t->rc = hs_broker_run(&t->bcfg, &t->err);
    return NULL;
}

static void *s_worker_thread(void *arg)
{
    s_thread_rc_t *t = arg;
    t->rc = hs_worker_run(&t->wcfg, NULL, &t->err);
    return NULL;
}

/* A job of an engine revision no connected worker computes waits, untouched,
 * while the worker serves a job of its own revision (the broker matches engine
 * names exactly, and the worker offers "noop", not "noop@2"). */
static int64_t s_test_revision_jobs(hs_client_t *cl)
{
    hs_error_t err = { 0 };
    uint64_t jobs[2];
    const char *specs[2] = { "noop@2", "noop" };
    for (int k = 0; k < 2; k++) {
        hs_submitter_t *sub = NULL;
        HS_CHECK_INT(hs_submitter_new(&sub, cl, "revision", specs[k], "all", &err), 0);
        hs_game_t g;
        s_make_game(&g, 11);
        g.komi = 1.5 + k;   /* game ids of their own */
        hs_game_compute_id(&g);
        HS_CHECK_INT(hs_submitter_add_game(sub, &g, "gen/revision.sgf", &err), 0);
        hs_game_fini(&g);
        HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
        jobs[k] = hs_submitter_job(sub);
        hs_submitter_destroy(&sub);
    }
    hs_wire_job_status_t st[2];
    char state[2][32] = { "", "" };
    for (int i = 0; i < 300 && strcmp(state[1], "done"); i++) {
        for (int k = 0; k < 2; k++) {
            hs_wire_msg_t r;
            HS_CHECK_INT(hs_client_status(cl, jobs[k], &r, &err), 0);
            if (r.status_reply.num_jobs == 1) {
                st[k] = r.status_reply.jobs[0];
                snprintf(state[k], sizeof state[k], "%s", st[k].state);
            }
            hs_wire_msg_fini(&r);
        }
        usleep(50000);
    }
    HS_CHECK_STR(state[1], "done");
    HS_CHECK_STR(state[0], "running");
    HS_CHECK(st[0].positions_total > 0);
    HS_CHECK_INT(st[0].positions_done, 0);
    bool canceled = false;
    HS_CHECK_INT(hs_client_cancel(cl, jobs[0], &canceled, &err), 0);
    HS_CHECK(canceled);
    return st[1].positions_done;    /* what the store holds of the two jobs */
}

/* A SUBMIT whose engine specs can never be canonical is refused with the reason
 * (no worker would ever offer "noop@1": the job would wait forever), and creates
 * no job; an unknown engine name is taken (workers of another build may offer it).
 * An empty spec never gets here: the wire decoder drops that SUBMIT as malformed. */
static void s_test_noncanonical_specs(hs_client_t *cl)
{
    static const struct { const char *specs[2]; int n; const char *why; } bad[] = {
        { { "noop@1" }, 1, "without '@1'" },
        { { "noop@1:delay_us=5" }, 1, "without '@1'" },
        { { "noop@01" }, 1, "leading zeros" },
        { { "noop@x" }, 1, "a number" },
        { { "noop@" }, 1, "a number" },
        { { "@2" }, 1, "no engine name" },
        { { "noop,area" }, 1, "holds a ','" },
        { { "noop", "noop" }, 2, "listed twice" },
        { { NULL }, 0, "at least one engine" },
    };
    hs_error_t err = { 0 };
    hs_wire_msg_t r;
    HS_CHECK_INT(hs_client_status(cl, 0, &r, &err), 0);
    int jobs_before = r.status_reply.num_jobs;
    hs_wire_msg_fini(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hs_wire_msg_t req, rep;
        hs_wire_msg_init(&req, HS_WIRE_SUBMIT);
        req.submit.job_name = (char *)"noncanonical";
        req.submit.engines = (char **)bad[i].specs;
        req.submit.num_engines = bad[i].n;
        req.submit.moves_spec = (char *)"all";
        memset(&err, 0, sizeof err);
        HS_CHECK_INT(hs_client_request(cl, &req, &rep, &err), HS_EINVAL);
        if (!strstr(err.msg, bad[i].why))
            fprintf(stderr, "spec %zu: reason '%s' lacks '%s'\n", i, err.msg, bad[i].why);
        HS_CHECK(strstr(err.msg, bad[i].why) != NULL);
        hs_wire_msg_fini(&rep);
    }
    HS_CHECK_INT(hs_client_status(cl, 0, &r, &err), 0);
    HS_CHECK_INT(r.status_reply.num_jobs, jobs_before);
    hs_wire_msg_fini(&r);
}

/* Sends one client message on a raw DEALER. */
static void s_dealer_send(void *sock, hs_wire_type_t type, uint64_t job_id)
{
    hs_wire_msg_t m;
    hs_wire_buf_t buf = { 0 };
    hs_wire_msg_init(&m, type);
    m.job_id = job_id;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
    zmq_send(sock, "", 0, ZMQ_SNDMORE);
    zmq_send(sock, HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(sock, buf.data, buf.len, 0);
    hs_wire_buf_free(&buf);
}

/* Receives one client message within ms: 1 (decoded into *m) or 0. */
static int s_dealer_recv(void *sock, int ms, hs_wire_msg_t *m)
{
    zmq_pollitem_t it = { sock, 0, ZMQ_POLLIN, 0 };
    if (zmq_poll(&it, 1, ms) <= 0)
        return 0;
    return hs_test_recv_msg(sock, m);
}

/* Submits n slow games (another komi than the other jobs) as a new job. */
static uint64_t s_slow_job(hs_client_t *cl, int n, double komi, const char *engine,
                           int64_t *positions)
{
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "slow", engine, "all", &err), 0);
    for (int i = 0; i < n; i++) {
        hs_game_t g;
        s_make_game(&g, 50 + i);
        g.komi = komi;
        hs_game_compute_id(&g);
        *positions += g.num_moves + 1;
        HS_CHECK_INT(hs_submitter_add_game(sub, &g, "gen/slow.sgf", &err), 0);
        hs_game_fini(&g);
    }
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    return job;
}

typedef struct s_watch_seen {
    int replies;
    int64_t last_done;
    bool monotonic;
    char state[32];
} s_watch_seen_t;

static int s_watch_cb(void *ctx, const hs_wire_status_reply_t *r)
{
    s_watch_seen_t *w = ctx;
    if (r->num_jobs != 1)
        return 1;
    w->replies++;
    w->monotonic &= r->jobs[0].positions_done >= w->last_done;
    w->last_done = r->jobs[0].positions_done;
    snprintf(w->state, sizeof w->state, "%s", r->jobs[0].state);
    return 0;
}

/*
 * WATCH: the broker pushes STATUS_REPLYs without being asked (no STATUS is sent),
 * the last one with the job done; an unknown job is an ERROR; more than 256
 * watchers get ERROR HS_EFULL; hs_client_watch follows a job to its end.
 */
static void s_test_watch(void *ctx, const char *endpoint, hs_client_t *cl, int64_t *positions)
{
    int zero = 0;
    void *d = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(d, ZMQ_LINGER, &zero, sizeof zero);
    zmq_connect(d, endpoint);
    hs_wire_msg_t m;
    s_dealer_send(d, HS_WIRE_WATCH, 987654);
    HS_CHECK(s_dealer_recv(d, 5000, &m));
    HS_CHECK(m.type == HS_WIRE_ERROR && m.error.code == HS_ENOTFOUND);
    hs_wire_msg_fini(&m);

    int64_t p1 = 0, p2 = 0;
    /* ~116 positions x 80 ms on 2 threads: the job runs for about 5 s. */
    uint64_t job = s_slow_job(cl, 4, 3.5, "noop:delay_us=80000", &p1);
    s_dealer_send(d, HS_WIRE_WATCH, job);
    /* 256 more watchers of the same job: the last one is one too many. */
    enum { N_EXTRA = 256 };
    void *extra[N_EXTRA];
    int full = 0, answered = 0;
    for (int i = 0; i < N_EXTRA; i++) {
        extra[i] = zmq_socket(ctx, ZMQ_DEALER);
        zmq_setsockopt(extra[i], ZMQ_LINGER, &zero, sizeof zero);
        zmq_connect(extra[i], endpoint);
        s_dealer_send(extra[i], HS_WIRE_WATCH, job);
    }
    for (int i = 0; i < N_EXTRA; i++) {
        if (s_dealer_recv(extra[i], 5000, &m)) {
            answered++;
            full += m.type == HS_WIRE_ERROR && m.error.code == HS_EFULL &&
                    m.error.reason && strstr(m.error.reason, "watchers");
            hs_wire_msg_fini(&m);
        }
        zmq_close(extra[i]);
    }
    HS_CHECK_INT(answered, N_EXTRA);
    HS_CHECK_INT(full, 1);
    printf("watch cap: %d watchers answered, %d refused (full)\n", answered, full);

    /* The first watcher only heartbeats; the broker pushes. */
    int replies = 0, errors = 0;
    int64_t last_done = -1;
    bool monotonic = true;
    char state[32] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < 600 && strcmp(state, "done"); i++) {
        if (i % 5 == 4)
            s_dealer_send(d, HS_WIRE_HEARTBEAT, 0);
        if (!s_dealer_recv(d, 100, &m))
            continue;
        if (m.type == HS_WIRE_STATUS_REPLY && m.status_reply.num_jobs == 1) {
            const hs_wire_job_status_t *j = &m.status_reply.jobs[0];
            replies++;
            monotonic &= j->positions_done >= last_done;
            last_done = j->positions_done;
            snprintf(state, sizeof state, "%s", j->state);
        } else if (m.type != HS_WIRE_HEARTBEAT) {
            errors++;
        }
        hs_wire_msg_fini(&m);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    HS_CHECK_STR(state, "done");
    HS_CHECK(replies >= 2);
    HS_CHECK(monotonic);
    HS_CHECK_INT(errors, 0);
    HS_CHECK_INT(last_done, p1);
    /* Throttled: at most one push per 250 ms, plus the first and the last. */
    HS_CHECK(replies <= 2 + (int)(secs / 0.25) + 1);
    printf("watch: %d pushes in %.2f s, none asked for\n", replies, secs);
    /* After "done" the watch is over: nothing more is pushed. */
    HS_CHECK(!s_dealer_recv(d, 600, &m));
    zmq_close(d);

    /* The client API follows a job to its end the same way. */
    uint64_t job2 = s_slow_job(cl, 2, 4.5, "noop:delay_us=20000", &p2);
    s_watch_seen_t w = { .monotonic = true };
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_watch(cl, job2, 200, s_watch_cb, &w, &err), 0);
    HS_CHECK_STR(w.state, "done");
    HS_CHECK(w.replies >= 2 && w.monotonic);
    HS_CHECK_INT(w.last_done, p2);
    *positions = p1 + p2;
    HS_CHECK_INT(hs_client_watch(cl, 987654, 200, s_watch_cb, &w, &err), HS_ENOTFOUND);
}

int main(void)
{
    char dir[] = "/tmp/hs-test-broker-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128];
    snprintf(db, sizeof db, "%s/db", dir);

    void *ctx = zmq_ctx_new();
    s_ctx_t fc = { 0 };
    atomic_int stop_b = 0, stop_w = 0;
    s_thread_rc_t bt = { 0 }, wt = { 0 };
    pthread_t btid, wtid, ftid;
    fc.port = hs_test_free_port();
    HS_CHECK(fc.port != 0);
    snprintf(fc.endpoint, sizeof fc.endpoint, "tcp://127.0.0.1:%d", fc.port);

    const size_t initial_map = 256 * 1024;   /* fills during the job */
    bt.bcfg = (hs_broker_config_t){ .bind = fc.endpoint, .zmq_ctx = ctx, .db_dir = db,
                                    .store_flags = HS_STORE_NOSYNC, .map_size = initial_map,
                                    .heartbeat_ms = 200, .upload_ms = 2000,
                                    .stop = &stop_b };
    wt.wcfg = (hs_worker_config_t){ .endpoint = fc.endpoint, .zmq_ctx = ctx, .threads = 2,
                                    .heartbeat_ms = 200, .stop = &stop_w };
    pthread_create(&btid, NULL, s_broker_thread, &bt);
    pthread_create(&wtid, NULL, s_worker_thread, &wt);
    pthread_create(&ftid, NULL, s_fuzz_thread, &fc);

    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, fc.endpoint, 3000, 10, &err), 0);
    hs_submitter_t *sub = NULL;
    /* "area" stores an ownership map per position: enough to fill a 256 KiB map. */
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "test", "area,noop:delay_us=300", "all", &err), 0);
    int64_t expected_positions = 0;
    for (int i = 0; i < S_GAMES; i++) {
        hs_game_t g;
        s_make_game(&g, i);
        expected_positions += g.num_moves + 1;
        char src[64];
        snprintf(src, sizeof src, "gen/%03d.sgf", i);
        HS_CHECK_INT(hs_submitter_add_game(sub, &g, src, &err), 0);
        hs_game_fini(&g);
        if (i % 24 == 0) {
            char bsrc[64];
            snprintf(bsrc, sizeof bsrc, "gen/broken-%d.sgf", i);
            HS_CHECK_INT(hs_submitter_add_failure(sub, bsrc, "syntax: unexpected end", &err), 0);
        }
    }
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    HS_CHECK(job > 0);

    /* Wait for the job (bounded: 120 s), while the fuzzer keeps going. */
    hs_wire_job_status_t last = { 0 };
    char state[32] = "";
    for (int i = 0; i < 1200; i++) {
        hs_wire_msg_t r;
        if (hs_client_status(cl, job, &r, &err) != 0)
            break;
        if (r.status_reply.num_jobs == 1) {
            last = r.status_reply.jobs[0];
            snprintf(state, sizeof state, "%s", last.state);
        }
        hs_wire_msg_fini(&r);
        if (strcmp(state, "running") != 0)
            break;
        usleep(100000);
    }
    HS_CHECK_STR(state, "done");
    HS_CHECK_INT(last.games_total, S_GAMES + S_BROKEN);
    HS_CHECK_INT(last.games_done, S_GAMES);
    HS_CHECK_INT(last.games_failed, S_BROKEN);
    HS_CHECK_INT(last.positions_total, expected_positions);
    HS_CHECK_INT(last.positions_done, expected_positions);
    /* Let the fuzzer finish all 10,000 while the broker still serves. */
    pthread_join(ftid, NULL);
    HS_CHECK_INT(fc.sent, S_FUZZ);

    /* The broker still answers after the storm; cancel of a new job works. */
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "to-cancel", "noop:delay_us=100000", "all", &err), 0);
    hs_game_t g;
    s_make_game(&g, 7);
    g.komi = 6.5;   /* another game id than job 1's */
    hs_game_compute_id(&g);
    HS_CHECK_INT(hs_submitter_add_game(sub, &g, "gen/cancel.sgf", &err), 0);
    hs_game_fini(&g);
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job2 = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    bool canceled = false;
    HS_CHECK_INT(hs_client_cancel(cl, job2, &canceled, &err), 0);
    HS_CHECK(canceled);
    hs_wire_msg_t r;
    HS_CHECK_INT(hs_client_status(cl, job2, &r, &err), 0);
    HS_CHECK(r.status_reply.num_jobs == 1 && !strcmp(r.status_reply.jobs[0].state, "canceled"));
    hs_wire_msg_fini(&r);
    HS_CHECK_INT(hs_client_cancel(cl, 999, &canceled, &err), 0);
    HS_CHECK(!canceled);
    int64_t revision_positions = s_test_revision_jobs(cl);
    s_test_noncanonical_specs(cl);

    /* A first SUBMIT retried (its reply lost) with the same token: one job. */
    int64_t token_positions = 0;
    {
        static char *eng[] = { "noop" };
        hs_wire_game_t wg = { 0 };
        s_make_game(&wg.game, 9);
        wg.game.komi = 0.5;
        hs_game_compute_id(&wg.game);
        wg.source = "gen/token.sgf";
        token_positions = wg.game.num_moves + 1;
        hs_wire_msg_t req, rep;
        hs_wire_msg_init(&req, HS_WIRE_SUBMIT);
        req.submit.job_name = "token";
        req.submit.engines = eng;
        req.submit.num_engines = 1;
        req.submit.games = &wg;
        req.submit.num_games = 1;
        req.submit.token = "test-token-0001";
        uint64_t ids[2] = { 0, 0 };
        for (int k = 0; k < 2; k++) {
            HS_CHECK_INT(hs_client_request(cl, &req, &rep, &err), 0);
            HS_CHECK(rep.type == HS_WIRE_SUBMIT_REPLY);
            ids[k] = rep.submit_reply.job_id;
            HS_CHECK_INT(rep.submit_reply.accepted, 1);
            hs_wire_msg_fini(&rep);
        }
        HS_CHECK(ids[0] > job2 && ids[0] == ids[1]);
        /* The client then goes silent without "last": the upload lease (2 s)
         * closes the job; its game is evaluated and the job ends failed. */
        char st[32] = "";
        for (int i = 0; i < 300 && strcmp(st, "failed"); i++) {
            HS_CHECK_INT(hs_client_status(cl, ids[0], &r, &err), 0);
            if (r.status_reply.num_jobs == 1) {
                hs_wire_job_status_t *js = &r.status_reply.jobs[0];
                snprintf(st, sizeof st, "%s", js->state);
                if (!strcmp(st, "failed")) {
                    HS_CHECK_INT(js->games_total, 1);
                    HS_CHECK_INT(js->games_done, 1);
                    HS_CHECK(js->input_complete);
                    HS_CHECK(js->reason && !strncmp(js->reason, "upload abandoned", 16));
                }
            }
            hs_wire_msg_fini(&r);
            usleep(50000);
        }
        HS_CHECK_STR(st, "failed");
        /* A late batch to the closed job is refused with the reason. */
        req.submit.job_id = ids[0];
        HS_CHECK_INT(hs_client_request(cl, &req, &rep, &err), HS_EBADSTATE);
        HS_CHECK(strstr(err.msg, "upload abandoned") != NULL);
        hs_game_fini(&wg.game);
    }
    int64_t watch_positions = 0;
    s_test_watch(ctx, fc.endpoint, cl, &watch_positions);
    hs_client_destroy(&cl);

    atomic_store(&stop_w, 1);
    pthread_join(wtid, NULL);
    atomic_store(&stop_b, 1);
    pthread_join(btid, NULL);
    HS_CHECK_INT(wt.rc, 0);
    HS_CHECK_INT(bt.rc, 0);
    zmq_ctx_term(ctx);

    /* Count what the store holds: every position exactly once. */
    hs_store_t *st = NULL;
    hs_store_stats_t ss = { 0 };
    HS_CHECK_INT(hs_store_open(&st, db, HS_STORE_RDONLY, 0, &err), 0);
    if (st) {
        HS_CHECK_INT(hs_store_stats(st, &ss, &err), 0);
        HS_CHECK_INT(ss.games, S_GAMES + 2 + 2 + 4 + 2);   /* + revision, watched jobs' */
        HS_CHECK_INT(ss.failed_games, S_BROKEN);
        HS_CHECK_INT(ss.positions, expected_positions + token_positions + watch_positions +
                                   revision_positions);
        HS_CHECK(ss.evals > 0 && ss.evals <= 2 * expected_positions);
        HS_CHECK(hs_store_map_size(st) > initial_map);   /* it grew */
        printf("store: %lld positions, %lld evals, map %zu -> %zu bytes\n",
               (long long)ss.positions, (long long)ss.evals, initial_map, hs_store_map_size(st));
        hs_store_close(&st);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
