/*
 * tests/test_broker_jobs.c — a long-lived broker keeps in memory only the jobs
 * that run; the ended ones are indexed (32 bytes each) and read from the store
 * when a client asks (broker/broker_joblist.c):
 *   - a journal of 2,000 jobs of three owners in every state (written straight
 *     into a store) loads with only its running jobs in memory (hs__broker_load,
 *     white-box); a running job whose engine list is damaged fails at the load
 *     and leaves memory once its end is journaled (hs__jobs_release);
 *   - STATUS pages of that journal (every limit, owner and state filter, paged
 *     by `before`) list every matching job once, newest first, with the right
 *     total, "more" and fields, read from the store for the ended ones; one job
 *     of another owner is "no such job"; a job whose record cannot be read is
 *     an error saying so, not a crash;
 *   - a job is found by its token (per owner) whether it runs or ended;
 *   - then a real broker on that store, over TCP: STATUS of an old ended job and
 *     its pages, CANCEL of an ended job (not canceled), a SUBMIT with an ended
 *     job's token (refused: it takes no more games) or to an abandoned one
 *     (closed), WATCH of an ended job (one push, then the watch ends); jobs that
 *     end while it runs are answered from the store too, and after a restart
 *     only the running jobs are in memory again.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker_internal.h"
#include "broker/client.h"
#include "peer.h"
#include "store/store.h"
#include "test.h"

#define S_JOBS 2000
#define S_MAX (S_JOBS + 16)

/* What the test wrote, by id: owner, state after the load, name, token. */
typedef struct s_job {
    uint64_t id;
    const char *owner;
    hs_job_state_t state;
    char name[32], token[32], reason[64];
    int64_t games;
} s_job_t;

static s_job_t s_jobs[S_MAX + 1];
static int s_num;
static const char *const s_owners[3] = { "", "alice", "bob" };

/* Job i's record: owner by i % 3; mostly done, some canceled, failed (some of
 * those abandoned uploads), running; one running with no engines (damaged). */
static void s_make(int i, hs_store_job_t *r, s_job_t *e, uint64_t bad)
{
    memset(r, 0, sizeof *r);
    e->owner = s_owners[i % 3];
    e->state = i % 97 == 0 ? HS_JOB_RUNNING : i % 11 == 0 ? HS_JOB_FAILED
               : i % 7 == 0 ? HS_JOB_CANCELED : HS_JOB_DONE;
    snprintf(e->name, sizeof e->name, "job-%d", i);
    snprintf(e->token, sizeof e->token, "tok-%d", i);
    e->reason[0] = '\0';
    if (e->state == HS_JOB_FAILED)
        snprintf(e->reason, sizeof e->reason, "%s %d", i % 2 ? "upload abandoned: test" : "why",
                 i);
    if (e->state == HS_JOB_CANCELED)
        snprintf(e->reason, sizeof e->reason, "canceled by a client");
    e->games = i;
    snprintf(r->name, sizeof r->name, "%s", e->name);
    snprintf(r->owner, sizeof r->owner, "%s", e->owner);
    snprintf(r->engines, sizeof r->engines, "%s", (uint64_t)i == bad ? "" : "noop");
    snprintf(r->moves_spec, sizeof r->moves_spec, "all;%s", e->token);
    snprintf(r->reason, sizeof r->reason, "%s", e->reason);
    r->state = e->state;
    r->input_complete = e->state != HS_JOB_RUNNING;
    r->games_total = r->games_done = e->games;
    if ((uint64_t)i == bad) {   /* fails at the load */
        e->state = HS_JOB_FAILED;
        snprintf(e->reason, sizeof e->reason, "bad engine list in the journal");
    }
}

static void s_write_journal(const char *db, uint64_t bad)
{
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_NOSYNC, 0, &err), 0);
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int i = 1; i <= S_JOBS; i++) {
        hs_store_job_t r;
        s_make(i, &r, &s_jobs[i], bad);
        HS_CHECK_INT(hs_store_job_create(s, &r, &err), 0);
        HS_CHECK(r.id == (uint64_t)i);
        s_jobs[i].id = r.id;
    }
    s_num = S_JOBS;
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    hs_store_close(&s);
}

static int s_live(const hs__broker_t *b)
{
    int n = 0;
    for (int i = 0; i < b->num_jobs; i++)
        n += b->jobs[i].live != NULL;
    return n;
}

static int s_running(void)
{
    int n = 0;
    for (int i = 1; i <= s_num; i++)
        n += s_jobs[i].state == HS_JOB_RUNNING;
    return n;
}

/* Whether expected job e matches owner (NULL: any) and state (-1: any). */
static bool s_match(const s_job_t *e, const char *owner, int state)
{
    return (!owner || !strcmp(e->owner, owner)) && (state < 0 || (int)e->state == state);
}

/* A line of a reply against the job the test wrote. */
static void s_check_line(const hs_wire_job_status_t *j)
{
    HS_CHECK(j->id >= 1 && j->id <= (uint64_t)s_num);
    if (j->id < 1 || j->id > (uint64_t)s_num)
        return;
    const s_job_t *e = &s_jobs[j->id];
    HS_CHECK_STR(j->name, e->name);
    HS_CHECK_STR(j->state, hs_job_state_name(e->state));
    HS_CHECK_INT(j->games_total, e->games);
    if (e->reason[0])
        HS_CHECK(j->reason && !strcmp(j->reason, e->reason));
    else if (e->state != HS_JOB_RUNNING)
        HS_CHECK(j->reason == NULL);
}

/* Every page of (owner, state, limit): each matching job once, newest first;
 * the same total on every page, "more" on all but the last. page(): one page. */
typedef int (*s_page_fn)(void *ctx, const hs_wire_status_t *q, hs_wire_msg_t *m);

static void s_check_pages(s_page_fn page, void *ctx, const char *owner, int state, int limit)
{
    int64_t want = 0;
    for (int i = 1; i <= s_num; i++)
        want += s_match(&s_jobs[i], owner, state);
    hs_wire_status_t q = { .limit = limit,
                           .state = state < 0 ? NULL : (char *)hs_job_state_name(state) };
    int next = s_num, seen = 0;   /* next: the id the listing should show next */
    for (int pages = 0; pages <= S_MAX; pages++) {
        hs_wire_msg_t m;
        HS_CHECK_INT(page(ctx, &q, &m), 0);
        if (m.type != HS_WIRE_STATUS_REPLY)
            break;
        hs_wire_status_reply_t *r = &m.status_reply;
        HS_CHECK_INT(r->total, want);
        for (int k = 0; k < r->num_jobs; k++, seen++) {
            while (next > 0 && !s_match(&s_jobs[next], owner, state))
                next--;
            HS_CHECK_INT(r->jobs[k].id, next);
            s_check_line(&r->jobs[k]);
            next--;
        }
        bool more = r->more;
        int n = r->num_jobs;
        if (n)
            q.before = r->jobs[n - 1].id;
        hs_wire_msg_fini(&m);
        HS_CHECK_INT(more, seen < want);
        if (!more || n == 0)
            break;
    }
    HS_CHECK_INT(seen, want);
}

/* ------------------------------------------------ white-box: the load */

typedef struct {
    hs__broker_t *b;
    const char *owner;
} s_direct_t;

/* A page straight from hs__status_page; its block is copied into a reply the
 * way a client gets it (hs_wire_msg_fini frees that). */
static int s_direct_page(void *ctx, const hs_wire_status_t *q, hs_wire_msg_t *out)
{
    s_direct_t *d = ctx;
    hs_wire_msg_t m;
    hs_error_t err = { 0 };
    int rc = hs__status_page(d->b, q, d->owner, &m, &err);
    if (rc < 0)
        return rc;
    hs_wire_buf_t buf = { 0 };
    rc = hs_wire_encode(&m, &buf, &err);
    free(m.status_reply.jobs);
    if (rc == 0)
        rc = hs_wire_decode(buf.data, buf.len, out, &err);
    hs_wire_buf_free(&buf);
    return rc;
}

static void s_test_load(const char *db, uint64_t bad)
{
    hs_broker_config_t cfg = { 0 };
    hs__broker_t b = { 0 };
    hs_error_t err = { 0 };
    b.cfg = &cfg;
    b.now = 1;
    b.lease_ms = b.upload_ms = 600000;
    HS_CHECK_INT(hs_store_open(&b.store, db, HS_STORE_NOSYNC, 0, &err), 0);
    HS_CHECK_INT(hs__broker_load(&b, &err), 0);
    int running = s_running();
    HS_CHECK(running >= 15);
    /* Every job indexed; in memory the running ones, and the damaged one until
     * its end is journaled. */
    HS_CHECK_INT(b.num_jobs, s_num);
    HS_CHECK_INT(b.num_run, running);
    HS_CHECK_INT(s_live(&b), running + 1);
    hs__bjob_t *j = hs__job_find(&b, bad);
    HS_CHECK(j && j->rec.state == HS_JOB_FAILED && j->dirty);
    HS_CHECK_INT(hs__jobs_flush(&b), 0);
    HS_CHECK_INT(hs_store_commit(b.store, &err), 0);
    hs__jobs_release(&b);
    HS_CHECK_INT(s_live(&b), running);
    HS_CHECK(hs__job_find(&b, bad) == NULL);
    HS_CHECK(b.ended == NULL);

    s_direct_t d = { &b, NULL };
    const char *owners[] = { NULL, "", "alice", "bob" };
    for (int o = 0; o < 4; o++)
        for (int st = -1; st <= HS_JOB_FAILED; st++) {
            d.owner = owners[o];
            s_check_pages(s_direct_page, &d, owners[o], st, 97);
        }
    d.owner = NULL;
    s_check_pages(s_direct_page, &d, NULL, -1, 0);   /* one page of 2,000 */
    s_check_pages(s_direct_page, &d, NULL, HS_JOB_CANCELED, 1);

    /* One job: its owner's or an admin's; another owner's is not there. */
    hs_wire_msg_t m;
    HS_CHECK_INT(hs__status_msg(&b, 4, "alice", &m, &err), 0);   /* 4 % 3 == 1: alice */
    HS_CHECK(m.status_reply.num_jobs == 1 && m.status_reply.jobs[0].id == 4);
    free(m.status_reply.jobs);
    HS_CHECK_INT(hs__status_msg(&b, 4, "bob", &m, &err), HS_ENOTFOUND);
    HS_CHECK_INT(hs__status_msg(&b, 4, "carol", &m, &err), HS_ENOTFOUND);
    HS_CHECK_INT(hs__status_msg(&b, S_JOBS + 1, NULL, &m, &err), HS_ENOTFOUND);
    d.owner = "carol";   /* no job at all */
    s_check_pages(s_direct_page, &d, "carol", -1, 10);

    /* A token finds its job, running or ended, only for its owner. */
    hs__bjob_t tmp, *found = NULL;
    HS_CHECK_INT(hs__job_by_token(&b, "tok-5", "bob", &tmp, &found, &err), 0);
    HS_CHECK(found == &tmp && found->rec.id == 5);
    HS_CHECK_INT(hs__job_by_token(&b, "tok-5", "alice", &tmp, &found, &err), 0);
    HS_CHECK(found == NULL);
    HS_CHECK_INT(hs__job_by_token(&b, "tok-97", s_jobs[97].owner, &tmp, &found, &err), 0);
    HS_CHECK(found && found != &tmp && found->rec.id == 97);
    HS_CHECK_INT(hs__job_by_token(&b, "tok-", "", &tmp, &found, &err), 0);
    HS_CHECK(found == NULL);
    HS_CHECK_INT(hs__job_lookup(&b, 5, "alice", &tmp, &found, &err), 0);
    HS_CHECK(found == NULL);   /* bob's: not read */

    /* A job the index knows whose record cannot be read: an error that says
     * so (the client reads it), not a crash. */
    hs_store_job_t ghost = { .id = S_JOBS + 5, .state = HS_JOB_DONE };
    HS_CHECK_INT(hs__job_index(&b, &ghost, NULL, &err), 0);
    hs_error_t why = { 0 };
    HS_CHECK(hs__status_msg(&b, S_JOBS + 5, NULL, &m, &why) < 0);
    HS_CHECK(strstr(why.msg, "cannot be read from the broker's store") != NULL);
    hs_wire_status_t q = { .limit = 3 };
    HS_CHECK(hs__status_page(&b, &q, NULL, &m, &why) < 0);
    hs_store_job_t late = { .id = S_JOBS };   /* ids must grow */
    HS_CHECK_INT(hs__job_index(&b, &late, NULL, &err), HS_ESTORE);

    hs__broker_free_state(&b);
    hs__limits_free(&b);
    hs__clients_free(&b);
    hs_store_close(&b.store);
}

/* -------------------------------------------- a real broker on that store */

static int s_client_page(void *ctx, const hs_wire_status_t *q, hs_wire_msg_t *m)
{
    hs_error_t err = { 0 };
    return hs_client_status_page(ctx, q, m, &err);
}

static int s_watch_fn(void *ctx, const hs_wire_status_reply_t *r)
{
    int *pushes = ctx;
    (*pushes)++;
    HS_CHECK(r->num_jobs == 1 && !strcmp(r->jobs[0].state, "done"));
    return 0;
}

/* A raw SUBMIT: error code (0 when a SUBMIT_REPLY came) and its reason. */
static int s_submit(hs_client_t *cl, uint64_t job, const char *token, int games, bool last,
                    char *why, size_t size)
{
    static char *eng[] = { "noop" };
    hs_wire_game_t g[1] = { { .source = "x.sgf", .error = "unreadable" } };
    hs_wire_msg_t m, r;
    hs_error_t err = { 0 };
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit.job_id = job;
    m.submit.job_name = "e2e";
    m.submit.engines = eng;
    m.submit.num_engines = 1;
    m.submit.token = (char *)token;
    m.submit.games = games ? g : NULL;
    m.submit.num_games = games;
    m.submit.last = last;
    int rc = hs_client_request(cl, &m, &r, &err);
    snprintf(why, size, "%s", err.msg);
    if (rc == 0 && r.type == HS_WIRE_SUBMIT_REPLY && job == 0)
        snprintf(why, size, "%llu", (unsigned long long)r.submit_reply.job_id);
    if (rc == 0)
        hs_wire_msg_fini(&r);
    return rc;
}

static void s_test_broker(const char *db)
{
    void *ctx = zmq_ctx_new();
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .heartbeat_ms = 200,
                                  .verbose = getenv("HS_TEST_VERBOSE") != NULL };
    hs_test_broker_start(&b);
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, b.endpoint, 5000, 3, &err), 0);
    /* An old ended job, and pages (a plaintext client is the anonymous admin). */
    hs_wire_msg_t m;
    HS_CHECK_INT(hs_client_status(cl, 22, &m, &err), 0);   /* failed, abandoned */
    HS_CHECK(m.status_reply.num_jobs == 1);
    if (m.status_reply.num_jobs == 1)
        s_check_line(&m.status_reply.jobs[0]);
    hs_wire_msg_fini(&m);
    s_check_pages(s_client_page, cl, NULL, -1, 500);
    s_check_pages(s_client_page, cl, NULL, HS_JOB_FAILED, 50);
    /* CANCEL of an ended job: not canceled, as before. */
    bool canceled = true;
    HS_CHECK_INT(hs_client_cancel(cl, 3, &canceled, &err), 0);
    HS_CHECK(!canceled);
    /* A SUBMIT with the token of an ended job of its owner (""): that job, which
     * takes no more games; to an abandoned one with a game: closed. */
    char why[512];
    HS_CHECK_INT(s_submit(cl, 0, "tok-3", 0, false, why, sizeof why), HS_EBADSTATE);
    HS_CHECK(strstr(why, "job 3 is done: it takes no more games") != NULL);
    HS_CHECK_INT(s_submit(cl, 33, NULL, 1, false, why, sizeof why), HS_EBADSTATE);
    HS_CHECK(strstr(why, "job 33 is closed: upload abandoned: test 33") != NULL);
    HS_CHECK_INT(s_submit(cl, 1, NULL, 0, true, why, sizeof why), 0);   /* a late "last" */
    /* WATCH of an ended job: one push, and the watch is over. */
    int pushes = 0;
    HS_CHECK_INT(hs_client_watch(cl, 3, 200, s_watch_fn, &pushes, &err), 0);
    HS_CHECK_INT(pushes, 1);
    /* Jobs that end while the broker runs leave its memory: answered from the
     * store, in the pages too. */
    for (int k = 0; k < 5; k++) {
        char tok[16];
        snprintf(tok, sizeof tok, "new-%d", k);
        HS_CHECK_INT(s_submit(cl, 0, tok, 0, true, why, sizeof why), 0);
        s_job_t *e = &s_jobs[++s_num];
        e->id = strtoull(why, NULL, 10);
        HS_CHECK_INT(e->id, s_num);
        *e = (s_job_t){ .id = e->id, .owner = "", .state = HS_JOB_DONE, .name = "e2e" };
        snprintf(e->token, sizeof e->token, "%s", tok);
    }
    usleep(300000);   /* a few rounds: committed and released */
    HS_CHECK_INT(hs_client_status(cl, (uint64_t)s_num, &m, &err), 0);
    if (m.status_reply.num_jobs == 1)
        s_check_line(&m.status_reply.jobs[0]);
    hs_wire_msg_fini(&m);
    HS_CHECK_INT(s_submit(cl, 0, "new-2", 0, false, why, sizeof why), HS_EBADSTATE);
    s_check_pages(s_client_page, cl, NULL, HS_JOB_DONE, 300);
    hs_client_destroy(&cl);
    hs_test_broker_stop(&b);
    zmq_ctx_term(ctx);
}

/* After the real broker ran: still only the running jobs come into memory. */
static void s_test_reload(const char *db)
{
    hs_broker_config_t cfg = { 0 };
    hs__broker_t b = { 0 };
    hs_error_t err = { 0 };
    b.cfg = &cfg;
    HS_CHECK_INT(hs_store_open(&b.store, db, HS_STORE_NOSYNC, 0, &err), 0);
    HS_CHECK_INT(hs__broker_load(&b, &err), 0);
    HS_CHECK_INT(b.num_jobs, s_num);
    HS_CHECK_INT(s_live(&b), s_running());
    HS_CHECK_INT(b.num_run, s_running());
    hs__broker_free_state(&b);
    hs_store_close(&b.store);
}

int main(void)
{
    char dir[] = "/tmp/hs-test-broker-jobs-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128];
    snprintf(db, sizeof db, "%s/db", dir);
    uint64_t bad = 194;   /* 194 % 97 == 0: a running job, damaged */
    s_write_journal(db, bad);
    s_test_load(db, bad);
    s_test_broker(db);
    s_test_reload(db);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
