/*
 * tests/test_broker_credit.c — the SUBMIT credit when an upload resumes
 * (docs/PROTOCOL.md, "Flow control"; docs/SECURITY.md, "Limits"), on a broker
 * whose queue is full (no worker, --queue-max 4, one task a game):
 *   - raw SUBMITs: once the grant is spent (credit 0), a resent batch, a
 *     rejoin by token that carries a game the job holds, and failed games are
 *     still taken (they add no unfinished game); a rejoin with a new game is a
 *     first SUBMIT (one game, even with the queue full) but never passes the
 *     key's --limit-games; a batch past the grant is still refused; asking
 *     for credit for a job that ended is refused (no credit will ever come);
 *     a second job's batch of games the first stored, sent again, counts
 *     them once;
 *   - hs_submitter: an upload stopped while it waits for credit (as a Ctrl-C
 *     would) is resumed by a second submitter with the same token and games in
 *     another order; it waits for credit as the first did (its wait hook says
 *     so), and once a worker drains the queue it finishes: one job, every game
 *     once. Before, the resumed upload was refused at once with HS_ELIMIT.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "broker/client.h"
#include "core/clock.h"
#include "core/wire.h"
#include "store/store.h"
#include "peer.h"
#include "test.h"
#include "wall_game.h"
#include "worker/worker.h"

#define S_WAIT_MS 30000     /* a hang guard for replies, never an assertion */
#define S_GAMES 10

/* Game i on 9x9: every i below 1000 a game of its own (the komi differs). */
static void s_make_game(hs_game_t *g, int i)
{
    hs_test_wall_game(g, 9, 10, i, i * 0.5);
}

/* ------------------------------------------------------------ raw SUBMITs */

static void *s_dealer(void *ctx, const char *ep)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_connect(s, ep);
    return s;
}

/* Sends m to the broker on sock and reads its reply into *r (HS_WIRE_NONE when
 * none comes within S_WAIT_MS or it does not decode). */
static void s_request(void *sock, const hs_wire_msg_t *m, hs_wire_msg_t *r)
{
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(m, &buf, NULL), 0);
    zmq_send(sock, "", 0, ZMQ_SNDMORE);
    zmq_send(sock, HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(sock, buf.data, buf.len, 0);
    hs_wire_buf_free(&buf);
    zmq_pollitem_t it = { sock, 0, ZMQ_POLLIN, 0 };
    if (zmq_poll(&it, 1, S_WAIT_MS) != 1 || !hs_test_recv_msg(sock, r))
        hs_wire_msg_init(r, HS_WIRE_NONE);
}

/* A SUBMIT of games first.. (n of them; failed ones when failed) and its reply
 * (type NONE when none came). */
static void s_submit(void *sock, uint64_t job_id, const char *token, int first, int n,
                     bool failed, hs_wire_msg_t *r)
{
    static char *engines[1] = { "noop" };
    hs_wire_game_t *g = calloc((size_t)n + 1, sizeof *g);
    char src[16][32];
    for (int i = 0; i < n; i++) {
        if (failed) {
            hs_game_init(&g[i].game, 19);
            snprintf(src[i], sizeof src[i], "broken-%d.sgf", first + i);
            g[i].source = src[i];
            g[i].error = "syntax: unexpected end";
        } else {
            s_make_game(&g[i].game, first + i);
        }
    }
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit = (hs_wire_submit_t){ .job_id = job_id, .job_name = "credit", .engines = engines,
                                   .num_engines = 1, .moves_spec = "last", .games = g,
                                   .num_games = n, .token = (char *)token };
    s_request(sock, &m, r);
    for (int i = 0; i < n; i++)
        hs_game_fini(&g[i].game);
    free(g);
}

/* The reply is a SUBMIT_REPLY for job (any job when 0): its credit, or -1. */
static int s_reply_ok(hs_wire_msg_t *r, uint64_t job, const char *what)
{
    int credit = -1;
    if (r->type == HS_WIRE_ERROR)
        fprintf(stderr, "%s: refused: %s\n", what, r->error.reason);
    HS_CHECK_INT(r->type, HS_WIRE_SUBMIT_REPLY);
    if (r->type == HS_WIRE_SUBMIT_REPLY) {
        if (job)
            HS_CHECK_INT(r->submit_reply.job_id, job);
        credit = r->submit_reply.credit;
    }
    hs_wire_msg_fini(r);
    return credit;
}

static int64_t s_games_total(void *sock, uint64_t job)
{
    hs_wire_msg_t m, r;
    hs_wire_msg_init(&m, HS_WIRE_STATUS);
    m.status.job_id = job;
    s_request(sock, &m, &r);
    int64_t n = -1;
    if (r.type == HS_WIRE_STATUS_REPLY && r.status_reply.num_jobs == 1)
        n = r.status_reply.jobs[0].games_total;
    hs_wire_msg_fini(&r);
    return n;
}

/* A broker on a new store in dir (a mkdtemp template) with a queue of 4, the
 * key's room limit_games (0: the queue's) and heartbeat_ms (0: the default). */
static hs_test_broker_t *s_broker(char *dir, int limit_games, int heartbeat_ms)
{
    hs_test_broker_t *tb = calloc(1, sizeof *tb);
    HS_CHECK(mkdtemp(dir) != NULL);
    tb->cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .db_dir = dir,
                                    .store_flags = HS_STORE_NOSYNC, .queue_max = 4,
                                    .limit_games = limit_games, .heartbeat_ms = heartbeat_ms };
    hs_test_broker_start(tb);
    return tb;
}

static void s_test_raw(void)
{
    char dir[] = "/tmp/hs-test-credit-raw-XXXXXX";
    /* Room for 6 unfinished games, a queue of 4: two rejoins with a new game
     * fit the key's room, a third does not. */
    hs_test_broker_t *tb = s_broker(dir, 6, 0);
    void *ctx = zmq_ctx_new();
    void *c = s_dealer(ctx, tb->endpoint);
    hs_wire_msg_t r;

    s_submit(c, 0, "tok-a", 0, 1, false, &r);
    uint64_t job = r.type == HS_WIRE_SUBMIT_REPLY ? r.submit_reply.job_id : 0;
    HS_CHECK_INT(s_reply_ok(&r, 0, "first SUBMIT"), 3);
    HS_CHECK(job > 0);
    s_submit(c, job, "tok-a", 1, 3, false, &r);
    HS_CHECK_INT(s_reply_ok(&r, job, "within the grant"), 0);   /* the queue is full */
    s_submit(c, job, "tok-a", 0, 0, false, &r);
    HS_CHECK_INT(s_reply_ok(&r, job, "asking"), 0);

    /* Games that add nothing unfinished, with the grant spent. */
    s_submit(c, job, "tok-a", 1, 3, false, &r);
    HS_CHECK_INT(s_reply_ok(&r, job, "a resent batch"), 0);
    s_submit(c, 0, "tok-a", 0, 1, false, &r);
    HS_CHECK_INT(s_reply_ok(&r, job, "a rejoin with a game the job holds"), 0);
    s_submit(c, job, "tok-a", 0, 2, true, &r);
    HS_CHECK_INT(s_reply_ok(&r, job, "failed games"), 0);
    HS_CHECK_INT(s_games_total(c, job), 6);

    /* A rejoin with a new game is a first SUBMIT, within the key's room. */
    s_submit(c, 0, "tok-a", 10, 1, false, &r);
    s_reply_ok(&r, job, "a rejoin with a new game");
    s_submit(c, 0, "tok-a", 11, 1, false, &r);
    s_reply_ok(&r, job, "a second rejoin with a new game");
    HS_CHECK_INT(s_games_total(c, job), 8);
    s_submit(c, 0, "tok-a", 12, 1, false, &r);   /* 6 unfinished: no room */
    HS_CHECK_INT(r.type, HS_WIRE_ERROR);
    HS_CHECK(r.type == HS_WIRE_ERROR && r.error.code == HS_ELIMIT &&
             strstr(r.error.reason, "--limit-games"));
    hs_wire_msg_fini(&r);
    /* And a batch of the job's id past its grant is refused as before. */
    s_submit(c, job, "tok-a", 13, 1, false, &r);
    HS_CHECK(r.type == HS_WIRE_ERROR && r.error.code == HS_ELIMIT);
    hs_wire_msg_fini(&r);
    HS_CHECK_INT(s_games_total(c, job), 8);

    /* A job that ended gives no credit ever: asking is refused, not answered
     * "credit 0" (which would keep a resumed upload waiting for good). */
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_CANCEL);
    m.job_id = job;
    s_request(c, &m, &r);
    HS_CHECK(r.type == HS_WIRE_CANCEL_REPLY && r.cancel_reply.canceled);
    hs_wire_msg_fini(&r);
    s_submit(c, 0, "tok-a", 0, 0, false, &r);
    HS_CHECK(r.type == HS_WIRE_ERROR && r.error.code == HS_EBADSTATE &&
             strstr(r.error.reason, "canceled"));
    hs_wire_msg_fini(&r);

    /* A second job over games the first stored: a batch it sends again (a
     * retry) counts its games once, by the job's own list of games. */
    s_submit(c, 0, "tok-b", 0, 2, false, &r);
    uint64_t job_b = r.type == HS_WIRE_SUBMIT_REPLY ? r.submit_reply.job_id : 0;
    s_reply_ok(&r, 0, "a second job");
    HS_CHECK(job_b > job);
    s_submit(c, job_b, "tok-b", 0, 2, false, &r);
    s_reply_ok(&r, job_b, "the second job's batch again");
    HS_CHECK_INT(s_games_total(c, job_b), 2);

    zmq_close(c);
    zmq_ctx_term(ctx);
    hs_test_broker_stop(tb);
    hs_test_rm_store(dir);
    free(tb);
}

/* ------------------------------------------------------------ hs_submitter */

typedef struct s_upload {
    const char *ep;
    void *zmq_ctx;
    bool reverse;               /* games in the other order (the resumed one) */
    atomic_int abort;           /* the upload is stopped at its next request */
    atomic_int waits;           /* wait hook calls */
    uint64_t hook_job;
    uint64_t job;
    int rc;
    hs_error_t err;
} s_upload_t;

static void s_on_wait(void *ctx, uint64_t job, int64_t sent)
{
    s_upload_t *u = ctx;
    (void)sent;
    u->hook_job = job;
    atomic_fetch_add(&u->waits, 1);
}

static void *s_upload_main(void *arg)
{
    s_upload_t *u = arg;
    hs_client_t *cl = NULL;
    hs_submitter_t *sub = NULL;
    u->rc = hs_client_new(&cl, u->zmq_ctx, u->ep, 3000, 10, &u->err);
    if (u->rc == 0) {
        hs_client_set_abort(cl, &u->abort);
        u->rc = hs_submitter_new(&sub, cl, "resume", "noop", "last", &u->err);
    }
    if (u->rc == 0)
        u->rc = hs_submitter_set_token(sub, "resume-me", &u->err);
    if (u->rc == 0)
        hs_submitter_set_wait_hook(sub, s_on_wait, u);
    for (int i = 0; u->rc == 0 && i < S_GAMES; i++) {
        hs_game_t g;
        s_make_game(&g, u->reverse ? S_GAMES - 1 - i : i);
        char src[32];
        snprintf(src, sizeof src, "gen/%02d.sgf", u->reverse ? S_GAMES - 1 - i : i);
        u->rc = hs_submitter_add_game(sub, &g, src, &u->err);
        hs_game_fini(&g);
    }
    if (u->rc == 0)
        u->rc = hs_submitter_finish(sub, &u->err);
    if (sub)
        u->job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    hs_client_destroy(&cl);
    return NULL;
}

/* Until pred(u) or the hang guard. */
static void s_until(const s_upload_t *u, bool (*pred)(const s_upload_t *))
{
    int64_t end = hs_clock_ms() + S_WAIT_MS;
    while (!pred(u) && hs_clock_ms() < end)
        usleep(10000);
}

static bool s_waiting(const s_upload_t *u) { return atomic_load(&u->waits) > 0; }

typedef struct s_worker_run {
    hs_worker_config_t cfg;
    hs_error_t err;
    int rc;
} s_worker_run_t;

static void *s_worker_main(void *arg)
{
    s_worker_run_t *w = arg;
    w->rc = hs_worker_run(&w->cfg, NULL, &w->err);
    return NULL;
}

static void s_test_submitter(void)
{
    char dir[] = "/tmp/hs-test-credit-sub-XXXXXX";
    /* --limit-games defaults to the queue: a rejoin finds no room either. */
    hs_test_broker_t *tb = s_broker(dir, 0, 200);
    void *ctx = zmq_ctx_new();

    /* The first upload fills the queue and waits; then it is stopped. */
    s_upload_t *a = calloc(1, sizeof *a);
    a->ep = tb->endpoint;
    a->zmq_ctx = ctx;
    pthread_t at;
    pthread_create(&at, NULL, s_upload_main, a);
    s_until(a, s_waiting);
    HS_CHECK(s_waiting(a));
    atomic_store(&a->abort, 1);
    pthread_join(at, NULL);
    HS_CHECK_INT(a->rc, HS_ECANCELED);
    HS_CHECK(a->hook_job > 0);

    /* The second resumes it: its first game is one the job does not hold. */
    s_upload_t *b = calloc(1, sizeof *b);
    b->ep = tb->endpoint;
    b->zmq_ctx = ctx;
    b->reverse = true;
    pthread_t bt;
    pthread_create(&bt, NULL, s_upload_main, b);
    s_until(b, s_waiting);
    HS_CHECK(s_waiting(b));
    HS_CHECK_INT(b->hook_job, a->hook_job);

    atomic_int stop_w = 0;
    s_worker_run_t *w = calloc(1, sizeof *w);
    w->cfg = (hs_worker_config_t){ .endpoint = tb->endpoint, .zmq_ctx = ctx, .threads = 1,
                                   .heartbeat_ms = 200, .engines = "noop", .stop = &stop_w };
    pthread_t wt;
    pthread_create(&wt, NULL, s_worker_main, w);
    pthread_join(bt, NULL);
    if (b->rc < 0)
        fprintf(stderr, "the resumed upload failed: %s\n", b->err.msg);
    HS_CHECK_INT(b->rc, 0);
    HS_CHECK_INT(b->job, a->hook_job);

    /* One job, each game once; it finishes. */
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, tb->endpoint, 3000, 10, &err), 0);
    char state[16] = "";
    int64_t total = -1, done = -1, jobs = -1;
    int64_t end = hs_clock_ms() + S_WAIT_MS;
    while (strcmp(state, "done") && hs_clock_ms() < end) {
        hs_wire_msg_t r;
        if (hs_client_status(cl, 0, &r, &err) != 0)
            break;
        jobs = r.status_reply.num_jobs;
        if (jobs == 1) {
            snprintf(state, sizeof state, "%s", r.status_reply.jobs[0].state);
            total = r.status_reply.jobs[0].games_total;
            done = r.status_reply.jobs[0].games_done;
        }
        hs_wire_msg_fini(&r);
        usleep(20000);
    }
    HS_CHECK_INT(jobs, 1);
    HS_CHECK_STR(state, "done");
    HS_CHECK_INT(total, S_GAMES);
    HS_CHECK_INT(done, S_GAMES);
    hs_client_destroy(&cl);

    atomic_store(&stop_w, 1);
    pthread_join(wt, NULL);
    HS_CHECK_INT(w->rc, 0);
    zmq_ctx_term(ctx);
    hs_test_broker_stop(tb);
    hs_test_rm_store(dir);
    free(w);
    free(a);
    free(b);
    free(tb);
}

int main(void)
{
    s_test_raw();
    s_test_submitter();
    return hs_test_finish();
}
