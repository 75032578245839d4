/*
 * tests/test_broker_text.c — what clients see of texts and jobs, with a broker
 * in a thread over TCP loopback, a real worker thread (no-op engine) and a
 * client:
 *   - a SUBMIT whose job name is not UTF-8 is answered ERROR HS_EPROTO naming the
 *     field, and makes no job (the broker used to store the name and echo it in
 *     every STATUS_REPLY, which a strict client cannot decode);
 *   - a game whose source (a file name) is not UTF-8 is sent escaped (\xNN) by
 *     the client's submitter, evaluated, and found again by that name; the
 *     broker's metadata read of a stored game (hs_store_game_get with g NULL)
 *     gives that source and the job;
 *   - STATUS pages (limit, before) visit every job once, newest first, with the
 *     total and "more"; the state filter agrees with the states listed; an
 *     unknown state is refused;
 *   - the timeout of a client the broker stopped answering, and of one that
 *     nothing answered (no broker there), says which it was.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "broker/client.h"
#include "core/wire.h"
#include "store/store.h"
#include "peer.h"
#include "test.h"
#include "wall_game.h"
#include "worker/worker.h"

/* Polls STATUS of job until it stops running (or 60 s): the last reply in *r. */
static void s_wait_job(hs_client_t *cl, uint64_t job, hs_wire_msg_t *r)
{
    hs_error_t err = { 0 };
    for (int i = 0; i < 1200; i++) {
        HS_CHECK_INT(hs_client_status(cl, job, r, &err), 0);
        if (r->status_reply.num_jobs != 1 || strcmp(r->status_reply.jobs[0].state, "running"))
            return;
        hs_wire_msg_fini(r);
        usleep(50000);
    }
    HS_CHECK(!"the job never ended");
    hs_wire_msg_init(r, HS_WIRE_STATUS_REPLY);
}

typedef struct s_worker {
    hs_worker_config_t cfg;
    atomic_int stop;
    hs_error_t err;
    int rc;
} s_worker_t;

static void *s_worker_main(void *arg)
{
    s_worker_t *w = arg;
    w->rc = hs_worker_run(&w->cfg, NULL, &w->err);
    return NULL;
}

/* A raw client sends a SUBMIT whose job name holds a byte that is not UTF-8:
 * the broker answers ERROR HS_EPROTO naming the field (it used to create the job
 * and echo the name in every STATUS_REPLY). Then a game whose source is a
 * Latin-1 file name goes through the submitter: it is evaluated, and the store
 * knows it by the escaped name. */
static void s_test_utf8(hs_client_t *cl, void *ctx, const char *endpoint, const char *db)
{
    static char *eng[] = { "noop" };
    hs_wire_msg_t m, r;
    hs_wire_buf_t buf = { 0 };
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit.job_name = "utf8-JOB";
    m.submit.engines = eng;
    m.submit.num_engines = 1;
    m.submit.last = true;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
    for (size_t i = 0; i + 3 <= buf.len; i++)
        if (!memcmp(buf.data + i, "JOB", 3))
            buf.data[i + 1] = 0xff;
    void *sock = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0, ms = 30000;   /* a bound against hanging, not a timing check */
    zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(sock, ZMQ_RCVTIMEO, &ms, sizeof ms);
    HS_CHECK_INT(zmq_connect(sock, endpoint), 0);
    zmq_send(sock, "", 0, ZMQ_SNDMORE);
    zmq_send(sock, HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(sock, buf.data, buf.len, 0);
    hs_wire_msg_init(&r, HS_WIRE_NONE);   /* stays empty if nothing comes */
    HS_CHECK_INT(hs_test_recv_msg(sock, &r), 1);
    HS_CHECK_INT(r.type, HS_WIRE_ERROR);
    if (r.type == HS_WIRE_ERROR) {
        HS_CHECK_INT(r.error.code, HS_EPROTO);
        HS_CHECK(strstr(r.error.reason, "submit.job_name") && strstr(r.error.reason, "UTF-8"));
    }
    hs_wire_msg_fini(&r);
    zmq_close(sock);
    hs_wire_buf_free(&buf);
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_status(cl, 0, &r, &err), 0);
    for (int i = 0; i < r.status_reply.num_jobs; i++)
        HS_CHECK(strncmp(r.status_reply.jobs[i].name, "utf8-", 5) != 0);
    hs_wire_msg_fini(&r);

    hs_submitter_t *sub = NULL;
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "latin1-\xe9", "noop", "last", &err), 0);
    hs_game_t g;
    hs_test_wall_game(&g, 9, 20, 10, 7.0);
    uint64_t id[2] = { g.id[0], g.id[1] };
    HS_CHECK_INT(hs_submitter_add_game(sub, &g, "gen/caf\xe9.sgf", &err), 0);
    hs_game_fini(&g);
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    s_wait_job(cl, job, &r);
    if (r.status_reply.num_jobs == 1) {
        const hs_wire_job_status_t *j = &r.status_reply.jobs[0];
        HS_CHECK_STR(j->state, "done");
        HS_CHECK_INT(j->games_done, 1);
        HS_CHECK_INT(j->games_failed, 0);
        HS_CHECK_STR(j->name, "latin1-\\xE9");
    }
    hs_wire_msg_fini(&r);
    hs_store_t *s = NULL;
    uint64_t found[2] = { 0, 0 };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err), 0);
    char *src = NULL;
    uint64_t src_job = 0;
    if (s) {
        HS_CHECK_INT(hs_store_game_by_source(s, "gen/caf\\xE9.sgf", found, &err), 0);
        /* What the broker reads of a stored game: the header and source only. */
        HS_CHECK_INT(hs_store_game_get(s, id, NULL, &src, &src_job, &err), 0);
    }
    hs_store_close(&s);
    HS_CHECK(found[0] == id[0] && found[1] == id[1]);
    HS_CHECK(src && !strcmp(src, "gen/caf\\xE9.sgf"));
    HS_CHECK(src_job == job);
    free(src);
}

/* One STATUS page: q, into the job ids (newest first), *n, *total, *more. */
static void s_page(hs_client_t *cl, const hs_wire_status_t *q, uint64_t *ids, int *n,
                   int64_t *total, bool *more, char states[][16])
{
    hs_wire_msg_t r;
    hs_error_t err = { 0 };
    *n = 0;
    HS_CHECK_INT(hs_client_status_page(cl, q, &r, &err), 0);
    for (int i = 0; i < r.status_reply.num_jobs && i < 64; i++) {
        ids[i] = r.status_reply.jobs[i].id;
        if (states)
            snprintf(states[i], 16, "%s", r.status_reply.jobs[i].state);
        (*n)++;
    }
    *total = r.status_reply.total;
    *more = r.status_reply.more;
    hs_wire_msg_fini(&r);
}

/* Twelve more (empty) jobs, then pages of 5: every job once, newest first, the
 * same total on every page and "more" on all but the last; the state filter
 * counts what the listing shows. */
static void s_test_status_pages(hs_client_t *cl)
{
    static char *eng[] = { "noop" };
    hs_error_t err = { 0 };
    for (int i = 0; i < 12; i++) {
        hs_wire_msg_t m, r;
        char name[32];
        snprintf(name, sizeof name, "page-%d", i);
        hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
        m.submit.job_name = name;
        m.submit.engines = eng;
        m.submit.num_engines = 1;
        m.submit.last = true;   /* no games: done at once */
        HS_CHECK_INT(hs_client_request(cl, &m, &r, &err), 0);
        hs_wire_msg_fini(&r);
    }
    hs_wire_msg_t all;
    HS_CHECK_INT(hs_client_status(cl, 0, &all, &err), 0);   /* an older client's STATUS */
    int njobs = all.status_reply.num_jobs;
    HS_CHECK(njobs >= 13 && njobs < 64);
    HS_CHECK_INT(all.status_reply.total, njobs);
    HS_CHECK(!all.status_reply.more);
    int64_t by_state[4] = { 0 };
    for (int i = 0; i < njobs; i++)
        for (int k = 0; k < 4; k++)
            by_state[k] += !strcmp(all.status_reply.jobs[i].state,
                                   hs_job_state_name((hs_job_state_t)k));
    hs_wire_status_t q = { .limit = 5 };
    uint64_t ids[64];
    int seen = 0, n = 0, pages = 0;
    int64_t total = 0;
    bool more = true;
    while (more && pages++ < 20) {
        s_page(cl, &q, ids, &n, &total, &more, NULL);
        HS_CHECK_INT(total, njobs);
        HS_CHECK(n <= 5 && n > 0);
        for (int i = 0; i < n && seen < njobs; i++, seen++)
            HS_CHECK(ids[i] == all.status_reply.jobs[seen].id);
        HS_CHECK_INT(more, seen < njobs);
        if (n)
            q.before = ids[n - 1];
    }
    HS_CHECK_INT(seen, njobs);
    hs_wire_msg_fini(&all);
    char states[64][16];
    for (int k = 0; k < 4; k++) {
        hs_wire_status_t fq = { .state = (char *)hs_job_state_name((hs_job_state_t)k) };
        s_page(cl, &fq, ids, &n, &total, &more, states);
        HS_CHECK_INT(total, by_state[k]);
        HS_CHECK_INT(n, by_state[k]);
        for (int i = 0; i < n; i++)
            HS_CHECK_STR(states[i], fq.state);
    }
    HS_CHECK(by_state[HS_JOB_DONE] >= 12);
    hs_wire_status_t bad = { .state = "sleeping" };
    hs_wire_msg_t r;
    HS_CHECK_INT(hs_client_status_page(cl, &bad, &r, &err), HS_EINVAL);
}

/* A STATUS of every job: the request's status. */
static int s_status_any(hs_client_t *c, hs_error_t *err)
{
    hs_wire_msg_t req, reply;
    hs_wire_msg_init(&req, HS_WIRE_STATUS);
    int rc = hs_client_request(c, &req, &reply, err);
    if (rc == 0)
        hs_wire_msg_fini(&reply);
    return rc;
}

/* The retry hook's last "why" (hs_client_retry_fn). */
static void s_note_why(void *ctx, const char *endpoint, int attempt, int tries, int timeout_ms,
                       const char *why)
{
    (void)endpoint, (void)attempt, (void)tries, (void)timeout_ms;
    snprintf(ctx, 512, "%s", why);
}

/* A broker that stops: a client it answered before is told that it may have
 * stopped, not that its keys may be wrong. One never answered, with keys or
 * without, is told first that nothing took the connection there (is the
 * broker running, is the address right?): no word of keys, which were not
 * in play (it used to blame keys after every try, broker or none); and so is
 * the retry hook, before the second try. */
static void s_test_silence(hs_client_t *heard, void *ctx, const char *endpoint)
{
    hs_error_t err = { 0 };
    HS_CHECK_INT(s_status_any(heard, &err), HS_ETIMEOUT);
    HS_CHECK(strstr(err.msg, "it answered before: has it stopped?") != NULL);
    HS_CHECK(strstr(err.msg, "--key") == NULL);
    hs_curve_client_t keys;
    HS_CHECK_INT(hs_curve_keypair(&keys.pair, &err), 0);
    memcpy(keys.server_key, keys.pair.public_key, sizeof keys.server_key);
    for (int with_keys = 0; with_keys < 2; with_keys++) {
        hs_client_t *never = NULL;
        char why[512] = "";
        HS_CHECK_INT(hs_client_new_curve(&never, ctx, endpoint, 300, 1,
                                         with_keys ? &keys : NULL, &err), 0);
        hs_client_set_retry_hook(never, s_note_why, why);
        HS_CHECK_INT(s_status_any(never, &err), HS_ETIMEOUT);
        HS_CHECK(strstr(err.msg, "after 2 tries: nothing accepted a connection at that "
                                 "address: is the broker running there") != NULL);
        HS_CHECK(strstr(err.msg, "--key") == NULL);
        HS_CHECK(strstr(why, "is the broker running there, and is the address right?") != NULL);
        hs_client_destroy(&never);
    }
}

int main(void)
{
    char dir[] = "/tmp/hs-test-broker-text-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128];
    snprintf(db, sizeof db, "%s/db", dir);
    void *ctx = zmq_ctx_new();
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .heartbeat_ms = 200,
                                  .verbose = getenv("HS_TEST_VERBOSE") != NULL };
    hs_test_broker_start(&b);
    static s_worker_t w;
    w.cfg = (hs_worker_config_t){ .endpoint = b.endpoint, .zmq_ctx = ctx, .threads = 1,
                                  .heartbeat_ms = 200, .engines = "noop", .stop = &w.stop };
    pthread_t wt;
    pthread_create(&wt, NULL, s_worker_main, &w);
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, b.endpoint, 3000, 10, &err), 0);

    s_test_utf8(cl, ctx, b.endpoint, db);
    s_test_status_pages(cl);

    hs_client_destroy(&cl);
    hs_client_t *c2 = NULL;   /* answered once before the broker stops */
    HS_CHECK_INT(hs_client_new(&c2, ctx, b.endpoint, 300, 0, &err), 0);
    HS_CHECK_INT(s_status_any(c2, &err), 0);
    atomic_store(&w.stop, 1);
    pthread_join(wt, NULL);
    HS_CHECK_INT(w.rc, 0);
    hs_test_broker_stop(&b);
    s_test_silence(c2, ctx, b.endpoint);
    hs_client_destroy(&c2);
    zmq_ctx_term(ctx);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
