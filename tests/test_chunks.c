/*
 * tests/test_chunks.c — big games split into chunked tasks (broker/broker_tasks.c),
 * with an in-process broker over TCP loopback, a client, and a fake worker (a
 * DEALER in this thread that counts every TASK it is sent and answers with the
 * real task evaluator and the no-op engine, or with an injected error, or not at
 * all). Checks:
 *   - a 200-move game with chunk 64: 4 TASKs of consecutive ranges, each carrying
 *     the moves up to its last position; every position 0..200 evaluated and
 *     stored exactly once; the job counts 1 game done, not 4;
 *   - --moves every:3 (67 positions: 2 chunks, the step kept) and last (1 task);
 *   - a chunk that fails for good: the game counted failed once (recorded once,
 *     with the reason), its unfinished siblings canceled, late answers for them
 *     ignored, the job's other game done;
 *   - a broker restart with a game half done and a chunk leased: the counts come
 *     out exact (a duplicate RESULT from before the restart counts nothing);
 *   - cancel: every chunk of the job leaves the queue;
 *   - a RESULT one eval short is a failure report, not a done task;
 *   - a game with an illegal move: the real evaluator's RESULT says the error is
 *     permanent, so the task is sent exactly once (not max_attempts times) and
 *     the game is failed with the reason;
 *   - SUBMIT credit in games keeps the queue bound (in tasks) with long games;
 *   - leases outlive lease_ms while their holder answers, and not when it is silent.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
#include "worker/worker_internal.h"

#define S_MAX_TASKS 64
#define S_MAX_HELD 16

/* ---- the fake worker ---- */

typedef struct s_fake {
    void *sock;
    hs__eval_ctx_t *x;
    int credit;
    int tasks;                        /* TASK messages received */
    int first[S_MAX_TASKS], last[S_MAX_TASKS], count[S_MAX_TASKS], step[S_MAX_TASKS];
    uint64_t ids[S_MAX_TASKS];
    int seen[512];                    /* move number -> times received */
    int game_moves;                   /* > 0: every TASK's game must hold this many moves */
    bool whole;                       /* ... and every one did (the whole record) */
    int fail_move;                    /* a task holding this move number gets an error */
    int short_move;                   /* ... gets a RESULT one eval short (not an error) */
    int hold_from;                    /* tasks starting at or after this move are held */
    int budget;                       /* tasks still answered (< 0: no limit); the rest held */
    bool may_fail;                    /* the real evaluator may fail a task (bad games) */
    hs_wire_msg_t held[S_MAX_HELD];
    int num_held;
    hs_wire_buf_t last_result;        /* the last good RESULT body sent */
} s_fake_t;

static void s_fake_send(s_fake_t *f, const void *body, size_t len)
{
    zmq_send(f->sock, "", 0, ZMQ_SNDMORE);
    zmq_send(f->sock, HS_WIRE_MAGIC_WORKER, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(f->sock, body, len, 0);
}

static void s_fake_send_msg(s_fake_t *f, const hs_wire_msg_t *m)
{
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(m, &buf, NULL), 0);
    s_fake_send(f, buf.data, buf.len);
    hs_wire_buf_free(&buf);
}

static void s_fake_ready(s_fake_t *f)
{
    static char *engines[] = { "noop" };
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_READY);
    m.ready.name = "fake";
    m.ready.engines = engines;
    m.ready.num_engines = 1;
    m.ready.threads = 1;
    m.ready.credit = f->credit;
    s_fake_send_msg(f, &m);
}

static void s_fake_connect(s_fake_t *f, void *ctx, const char *endpoint, int credit)
{
    int zero = 0;
    f->sock = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(f->sock, ZMQ_LINGER, &zero, sizeof zero);
    HS_CHECK_INT(zmq_connect(f->sock, endpoint), 0);
    f->credit = credit;
    s_fake_ready(f);
}

/* Leaves as a worker does (DISCONNECT), so the broker forgets it at once instead
 * of leasing it tasks until it expires. */
static void s_fake_close(s_fake_t *f)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_DISCONNECT);
    s_fake_send_msg(f, &m);
    int linger = 1000;
    zmq_setsockopt(f->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_close(f->sock);
    f->sock = NULL;
}

/* Answers one TASK: an injected error, or the real evaluation of its positions. */
static void s_fake_answer(s_fake_t *f, const hs_wire_task_t *t)
{
    bool fail = false;
    for (int i = 0; i < t->num_move_numbers; i++)
        fail |= t->move_numbers[i] == f->fail_move;
    if (fail) {
        hs_wire_msg_t m;
        hs_wire_msg_init(&m, HS_WIRE_RESULT);
        m.result.task_id = t->task_id;
        m.result.job_id = t->job_id;
        m.result.error = "injected failure";
        s_fake_send_msg(f, &m);
        return;
    }
    uint64_t positions = 0;
    int failed = -1;
    HS_CHECK_INT(hs__worker_eval_task(f->x, t, &f->last_result, &positions, &failed), 0);
    if (!f->may_fail)
        HS_CHECK_INT(failed, 0);
    bool cut = false;
    for (int i = 0; i < t->num_move_numbers; i++)
        cut |= t->move_numbers[i] == f->short_move;
    if (cut) {   /* the same RESULT without its last eval: a good-looking answer with a hole */
        hs_wire_msg_t m;
        hs_wire_buf_t buf = { 0 };
        HS_CHECK_INT(hs_wire_decode(f->last_result.data, f->last_result.len, &m, NULL), 0);
        if (m.result.num_evals > 0)
            hs_eval_fini(&m.result.evals[--m.result.num_evals]);
        HS_CHECK_INT(hs_wire_encode(&m, &buf, NULL), 0);
        s_fake_send(f, buf.data, buf.len);
        hs_wire_msg_fini(&m);
        hs_wire_buf_free(&buf);
        return;
    }
    s_fake_send(f, f->last_result.data, f->last_result.len);
}

static void s_fake_on_task(s_fake_t *f, hs_wire_msg_t *m)
{
    const hs_wire_task_t *t = &m->task;
    int n = t->num_move_numbers, k = f->tasks++;
    if (k < S_MAX_TASKS && n > 0) {
        f->ids[k] = t->task_id;
        f->first[k] = t->move_numbers[0];
        f->last[k] = t->move_numbers[n - 1];
        f->count[k] = n;
        f->step[k] = n > 1 ? t->move_numbers[1] - t->move_numbers[0] : 0;
    }
    for (int i = 0; i < n; i++)
        if (t->move_numbers[i] >= 0 && t->move_numbers[i] < 512)
            f->seen[t->move_numbers[i]]++;
    if (f->game_moves > 0 && t->game.game.num_moves != f->game_moves)
        f->whole = false;
    bool hold = (n > 0 && t->move_numbers[0] >= f->hold_from) || f->budget == 0;
    if (hold && f->num_held < S_MAX_HELD) {
        f->held[f->num_held++] = *m;   /* takes the message */
        return;
    }
    if (f->budget > 0)
        f->budget--;
    s_fake_answer(f, t);
    hs_wire_msg_fini(m);
}

/* Handles what the broker sends for about ms milliseconds (a heartbeat first;
 * the broker answers it, so the first message does not end the wait). */
static void s_fake_pump(s_fake_t *f, int ms)
{
    hs_wire_msg_t hb;
    hs_wire_msg_init(&hb, HS_WIRE_HEARTBEAT);
    s_fake_send_msg(f, &hb);
    zmq_pollitem_t item = { f->sock, 0, ZMQ_POLLIN, 0 };
    int64_t end = hs_clock_ms() + ms;
    for (int64_t left = ms; left >= 0; left = end - hs_clock_ms()) {
        if (zmq_poll(&item, 1, (long)left) <= 0)
            break;
        hs_wire_msg_t m;
        if (hs_test_recv_msg(f->sock, &m)) {
            if (m.type == HS_WIRE_TASK)
                s_fake_on_task(f, &m);
            else {
                if (m.type == HS_WIRE_DISCONNECT)
                    s_fake_ready(f);
                hs_wire_msg_fini(&m);
            }
        }
    }
}

/* Answers (late) every held task. */
static void s_fake_release(s_fake_t *f)
{
    for (int i = 0; i < f->num_held; i++) {
        s_fake_answer(f, &f->held[i].task);
        hs_wire_msg_fini(&f->held[i]);
    }
    f->num_held = 0;
}

/* Answers the oldest held task, if any. */
static void s_fake_release_one(s_fake_t *f)
{
    if (f->num_held == 0)
        return;
    s_fake_answer(f, &f->held[0].task);
    hs_wire_msg_fini(&f->held[0]);
    memmove(f->held, f->held + 1, (size_t)--f->num_held * sizeof f->held[0]);
}

static void s_fake_reset(s_fake_t *f)
{
    s_fake_release(f);
    f->tasks = 0;
    memset(f->seen, 0, sizeof f->seen);
    f->whole = true;
    f->game_moves = 0;
    f->fail_move = -1;
    f->short_move = -1;
    f->hold_from = 1 << 20;
    f->budget = -1;
    f->may_fail = false;
}

/* A fake worker with its own evaluator, connected with this credit. */
static void s_fake_open(s_fake_t *f, void *ctx, const char *endpoint, int credit)
{
    f->x = calloc(1, sizeof *f->x);
    f->x->batch_max = 16;
    s_fake_reset(f);
    s_fake_connect(f, ctx, endpoint, credit);
}

/* Answers what it holds, leaves, and frees what s_fake_open took. */
static void s_fake_free(s_fake_t *f)
{
    s_fake_reset(f);
    s_fake_close(f);
    hs__eval_ctx_fini(f->x);
    free(f->x);
    hs_wire_buf_free(&f->last_result);
}

/* ---- the client side ---- */

typedef struct s_status {
    char state[16];
    int64_t games_total, games_done, games_failed, positions_total, positions_done;
} s_status_t;

static void s_status(hs_client_t *cl, uint64_t job, s_status_t *out)
{
    hs_wire_msg_t r;
    hs_error_t err = { 0 };
    memset(out, 0, sizeof *out);
    HS_CHECK_INT(hs_client_status(cl, job, &r, &err), 0);
    if (r.type == HS_WIRE_STATUS_REPLY && r.status_reply.num_jobs == 1) {
        const hs_wire_job_status_t *j = &r.status_reply.jobs[0];
        snprintf(out->state, sizeof out->state, "%s", j->state);
        out->games_total = j->games_total;
        out->games_done = j->games_done;
        out->games_failed = j->games_failed;
        out->positions_total = j->positions_total;
        out->positions_done = j->positions_done;
    }
    hs_wire_msg_fini(&r);
}

/* Waits (up to 10 s) until the broker counts n live workers: a new fake worker's
 * READY and an old one's DISCONNECT travel on other sockets than the client's
 * SUBMIT, so without this a job could be leased to the worker that just left. */
static void s_wait_workers(hs_client_t *cl, s_fake_t *f, int n)
{
    for (int i = 0; i < 500; i++) {
        hs_wire_msg_t r;
        hs_error_t err = { 0 };
        int workers = -1;
        if (hs_client_status(cl, 0, &r, &err) == 0 && r.type == HS_WIRE_STATUS_REPLY)
            workers = r.status_reply.workers;
        hs_wire_msg_fini(&r);
        if (workers == n)
            return;
        s_fake_pump(f, 20);
    }
    HS_CHECK(!"the broker never counted the expected workers");
}

/* Serves the fake worker until the job stops running (or 60 s). */
static void s_wait_job(hs_client_t *cl, s_fake_t *f, uint64_t job, s_status_t *st)
{
    for (int i = 0; i < 1500; i++) {
        s_fake_pump(f, 40);
        s_status(cl, job, st);
        if (strcmp(st->state, "running"))
            return;
    }
}

/* Submits games (index, moves) as one job; returns its id. */
static uint64_t s_submit(hs_client_t *cl, const char *name, const char *moves, int num,
                         const int *index, const int *num_moves)
{
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_submitter_new(&sub, cl, name, "noop", moves, &err), 0);
    for (int i = 0; i < num; i++) {
        hs_game_t g;
        char src[64];
        hs_test_wall_game(&g, 19, num_moves[i], index[i] * 7, 6.5);
        snprintf(src, sizeof src, "gen/%s-%d.sgf", name, index[i]);
        HS_CHECK_INT(hs_submitter_add_game(sub, &g, src, &err), 0);
        hs_game_fini(&g);
    }
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    HS_CHECK(job > 0);
    return job;
}

/* ---- the store afterwards ---- */

typedef struct s_evals {
    int count[512];
    int total;
} s_evals_t;

static int s_eval_cb(void *ctx, const hs_eval_t *e)
{
    s_evals_t *c = ctx;
    c->total++;
    if (e->move_number >= 0 && e->move_number < 512)
        c->count[e->move_number]++;
    return 0;
}

/* Evals stored for game (index, moves), by move number. */
static void s_stored(const char *db, int index, int moves, s_evals_t *out)
{
    hs_store_t *st = NULL;
    hs_error_t err = { 0 };
    hs_game_t g;
    memset(out, 0, sizeof *out);
    hs_test_wall_game(&g, 19, moves, index * 7, 6.5);
    HS_CHECK_INT(hs_store_open(&st, db, HS_STORE_RDONLY, 0, &err), 0);
    if (st)
        HS_CHECK_INT(hs_store_game_evals(st, g.id, 0, -1, 0, s_eval_cb, out, &err), 0);
    hs_store_close(&st);
    hs_game_fini(&g);
}

static int64_t s_task_count(const char *db, hs_task_state_t state)
{
    hs_store_t *st = NULL;
    hs_error_t err = { 0 };
    int64_t n = -1;
    HS_CHECK_INT(hs_store_open(&st, db, HS_STORE_RDONLY, 0, &err), 0);
    if (st)
        HS_CHECK_INT(hs_store_task_count(st, state, &n, &err), 0);
    hs_store_close(&st);
    return n;
}

typedef struct s_failed {
    int count;
    char reason[256];
    const char *prefix;   /* sources counted (NULL: the "fail" job's) */
} s_failed_t;

static int s_failed_cb(void *ctx, const char *source, const char *reason, uint64_t job)
{
    s_failed_t *f = ctx;
    (void)job;
    if (strstr(source, f->prefix ? f->prefix : "gen/fail-")) {
        f->count++;
        snprintf(f->reason, sizeof f->reason, "%s", reason);
    }
    return 0;
}

/* ---- the cases ---- */

static void s_test_split(hs_client_t *cl, s_fake_t *f, const char *db)
{
    s_status_t st;
    /* 200 moves, all: 201 positions in 4 chunks 0-63, 64-127, 128-191, 192-200,
     * each TASK with the whole record (the judge needs to know its last move). */
    s_fake_reset(f);
    f->game_moves = 200;
    uint64_t job = s_submit(cl, "all", "all", 1, (int[]){ 1 }, (int[]){ 200 });
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(f->tasks, 4);
    for (int k = 0; k < 4 && k < f->tasks; k++) {
        HS_CHECK_INT(f->first[k], 64 * k);
        HS_CHECK_INT(f->last[k], k < 3 ? 64 * k + 63 : 200);
        HS_CHECK_INT(f->step[k], 1);
    }
    HS_CHECK(f->whole);
    for (int m = 0; m <= 200; m++)
        HS_CHECK_INT(f->seen[m], 1);
    HS_CHECK_INT(st.games_total, 1);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 0);
    HS_CHECK_INT(st.positions_total, 201);
    HS_CHECK_INT(st.positions_done, 201);
    s_evals_t ev;
    s_stored(db, 1, 200, &ev);
    HS_CHECK_INT(ev.total, 201);
    for (int m = 0; m <= 200; m++)
        HS_CHECK_INT(ev.count[m], 1);

    /* every:3: 0, 3, ..., 198 = 67 positions: 64 + 3, the step kept. The
     * empty board (position 0) has the job before's eval already: the first
     * TASK leaves it out (broker_reuse.c), and the job still counts it done. */
    s_fake_reset(f);
    job = s_submit(cl, "every", "every:3", 1, (int[]){ 2 }, (int[]){ 200 });
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(f->tasks, 2);
    HS_CHECK_INT(f->first[0], 3);
    HS_CHECK_INT(f->last[0], 189);
    HS_CHECK_INT(f->count[0], 63);
    HS_CHECK_INT(f->first[1], 192);
    HS_CHECK_INT(f->last[1], 198);
    HS_CHECK_INT(f->step[1], 3);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.positions_total, 67);
    HS_CHECK_INT(st.positions_done, 67);

    /* last: one position, one task. */
    s_fake_reset(f);
    job = s_submit(cl, "last", "last", 1, (int[]){ 3 }, (int[]){ 200 });
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(f->tasks, 1);
    HS_CHECK_INT(f->first[0], 200);
    HS_CHECK_INT(f->count[0], 1);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.positions_done, 1);
}

static void s_test_fail(hs_client_t *cl, s_fake_t *f, const char *db)
{
    /* Game 4 (200 moves): chunk 64-127 always fails (max_attempts 2); chunks from
     * 128 on are held, so they are still leased when the game fails. Game 5 (30
     * moves) is fine. */
    s_status_t st;
    s_fake_reset(f);
    f->fail_move = 100;
    f->hold_from = 128;
    int64_t canceled0 = s_task_count(db, HS_TASK_CANCELED);
    uint64_t job = s_submit(cl, "fail", "all", 2, (int[]){ 4, 5 }, (int[]){ 200, 30 });
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_total, 2);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 1);
    HS_CHECK_INT(st.positions_total, 201 + 31);
    HS_CHECK_INT(st.positions_done, 64 + 31);
    HS_CHECK_INT(f->seen[100], 2);   /* leased twice, then failed for good */
    HS_CHECK_INT(f->num_held, 2);
    /* Late answers for the canceled chunks count nothing and store nothing. */
    s_fake_release(f);
    s_fake_pump(f, 300);
    s_status(cl, job, &st);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 1);
    HS_CHECK_INT(st.positions_done, 64 + 31);
    s_evals_t ev;
    s_stored(db, 4, 200, &ev);
    HS_CHECK_INT(ev.total, 64);
    HS_CHECK_INT(ev.count[63], 1);
    HS_CHECK_INT(ev.count[128], 0);
    HS_CHECK_INT(s_task_count(db, HS_TASK_CANCELED) - canceled0, 2);
    HS_CHECK_INT(s_task_count(db, HS_TASK_FAILED), 1);
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    s_failed_t fl = { 0 };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err), 0);
    if (s)
        HS_CHECK_INT(hs_store_failed_each(s, s_failed_cb, &fl, &err), 0);
    hs_store_close(&s);
    HS_CHECK_INT(fl.count, 1);
    HS_CHECK(strstr(fl.reason, "injected failure") != NULL);
}

/* A RESULT that looks good but misses a position is a failure report: game 6's
 * second chunk (64-100) is always answered one eval short, so after 2 attempts
 * it fails with that reason; its first chunk and game 7 are stored in full. */
static void s_test_short(hs_client_t *cl, s_fake_t *f, const char *db)
{
    s_status_t st;
    s_fake_reset(f);
    f->short_move = 70;
    uint64_t job = s_submit(cl, "short", "all", 2, (int[]){ 6, 7 }, (int[]){ 100, 20 });
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 1);
    HS_CHECK_INT(st.positions_done, 64 + 21);
    HS_CHECK_INT(f->seen[70], 2);   /* leased twice, then failed for good */
    s_evals_t ev;
    s_stored(db, 6, 100, &ev);
    HS_CHECK_INT(ev.total, 64);
    HS_CHECK_INT(ev.count[70], 0);
    s_stored(db, 7, 20, &ev);
    HS_CHECK_INT(ev.total, 21);
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    s_failed_t fl = { .prefix = "gen/short-" };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err), 0);
    if (s)
        HS_CHECK_INT(hs_store_failed_each(s, s_failed_cb, &fl, &err), 0);
    hs_store_close(&s);
    HS_CHECK_INT(fl.count, 1);
    HS_CHECK(strstr(fl.reason, "incomplete result") != NULL);
}

/* Game 8 has an illegal move (move 5 on the stone of move 1), game 9 is fine:
 * the worker's evaluator fails game 8 for good, so its one task is sent once,
 * not max_attempts (2) times, and the game is recorded failed with the reason. */
static void s_test_illegal(hs_client_t *cl, s_fake_t *f, const char *db)
{
    s_status_t st;
    s_fake_reset(f);
    f->may_fail = true;
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "illegal", "noop", "all", &err), 0);
    for (int i = 8; i <= 9; i++) {
        hs_game_t g;
        char src[64];
        hs_test_wall_game(&g, 19, 30, i * 7, 6.5);
        if (i == 8) {
            g.moves[5].vertex = g.moves[1].vertex;   /* Black on White's stone */
            hs_game_compute_id(&g);
        }
        snprintf(src, sizeof src, "gen/illegal-%d.sgf", i);
        HS_CHECK_INT(hs_submitter_add_game(sub, &g, src, &err), 0);
        hs_game_fini(&g);
    }
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_total, 2);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 1);
    HS_CHECK_INT(f->tasks, 2);       /* one per game: the bad one was not resent */
    HS_CHECK_INT(f->seen[5], 2);     /* position 5 once in each game */
    hs_store_t *s = NULL;
    s_failed_t fl = { .prefix = "gen/illegal-8" };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err), 0);
    if (s)
        HS_CHECK_INT(hs_store_failed_each(s, s_failed_cb, &fl, &err), 0);
    hs_store_close(&s);
    HS_CHECK_INT(fl.count, 1);
    HS_CHECK(strstr(fl.reason, "illegal") != NULL);
    HS_CHECK(strstr(fl.reason, "permanent") != NULL);
}

static void s_test_restart(hs_client_t *cl, s_fake_t *f, hs_test_broker_t *b, void *ctx,
                           const char *db)
{
    /* Credit 1: chunks go one at a time. Two chunks of game 6 are answered, the
     * third is held (leased), then the broker restarts. */
    s_status_t st = { 0 };
    s_fake_reset(f);
    f->budget = 2;
    s_fake_close(f);
    s_fake_connect(f, ctx, b->cfg.bind, 1);
    s_wait_workers(cl, f, 1);
    uint64_t job = s_submit(cl, "restart", "all", 3, (int[]){ 6, 7, 8 },
                            (int[]){ 200, 200, 200 });
    for (int i = 0; i < 1500 && (f->tasks < 3 || st.positions_done < 128); i++) {
        s_fake_pump(f, 20);
        s_status(cl, job, &st);   /* answered after the commit: 128 is durable */
    }
    HS_CHECK_INT(f->tasks, 3);
    HS_CHECK_INT(st.positions_done, 128);
    HS_CHECK_INT(st.games_done, 0);
    HS_CHECK_INT(f->num_held, 1);
    hs_wire_buf_t dup = f->last_result;   /* the RESULT of chunk 64-127 */
    f->last_result = (hs_wire_buf_t){ 0 };
    hs_test_broker_stop(b);

    hs_test_broker_start(b);
    s_fake_close(f);
    s_fake_connect(f, ctx, b->cfg.bind, 4);
    f->budget = -1;
    s_fake_send(f, dup.data, dup.len);   /* a duplicate: its task is DONE */
    hs_wire_buf_free(&dup);
    s_fake_release(f);                   /* the held chunk, QUEUED again: dropped
                                          * (its lease ended), leased anew */
    s_wait_job(cl, f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_total, 3);
    HS_CHECK_INT(st.games_done, 3);
    HS_CHECK_INT(st.games_failed, 0);
    HS_CHECK_INT(st.positions_total, 603);
    HS_CHECK_INT(st.positions_done, 603);
    for (int g = 6; g <= 8; g++) {
        s_evals_t ev;
        s_stored(db, g, 200, &ev);
        HS_CHECK_INT(ev.total, 201);
    }

    /* Cancel a job of 2 big games (8 chunks) with one chunk leased. */
    s_fake_reset(f);
    f->budget = 0;   /* hold everything */
    job = s_submit(cl, "cancel", "all", 2, (int[]){ 9, 10 }, (int[]){ 200, 200 });
    for (int i = 0; i < 500 && f->tasks == 0; i++)
        s_fake_pump(f, 20);
    HS_CHECK(f->tasks > 0);
    bool canceled = false;
    hs_error_t err = { 0 };
    int64_t c0 = s_task_count(db, HS_TASK_CANCELED);
    HS_CHECK_INT(hs_client_cancel(cl, job, &canceled, &err), 0);
    HS_CHECK(canceled);
    s_status(cl, job, &st);
    HS_CHECK_STR(st.state, "canceled");
    HS_CHECK_INT(s_task_count(db, HS_TASK_CANCELED) - c0, 8);
    HS_CHECK_INT(s_task_count(db, HS_TASK_QUEUED), 0);
    HS_CHECK_INT(s_task_count(db, HS_TASK_LEASED), 0);
    s_fake_release(f);   /* late answers to a canceled job: ignored */
    s_fake_pump(f, 200);
    s_status(cl, job, &st);
    HS_CHECK_INT(st.games_done, 0);
    HS_CHECK_INT(st.positions_done, 0);
}

/* SUBMIT credit counts games, the queue bound tasks: with a queue of 8 tasks and
 * games of 5 chunks (64 moves, chunk 16) and no worker, an empty queue offers 8,
 * the first game (a client sends one first) shows 5 tasks a game, and then the
 * room left (3 tasks) is no game (before: 3 more games, 20 tasks against 8). */
static void s_test_credit(void *ctx, const char *db)
{
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .queue_max = 8, .chunk = 16,
                                  .verbose = getenv("HS_TEST_VERBOSE") != NULL };
    hs_test_broker_start(&b);
    const char *endpoint = b.endpoint;
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, endpoint, 3000, 10, &err), 0);
    char *engines[1] = { "noop" };
    uint64_t job = 0;
    int credits[3];
    for (int k = 0; k < 3; k++) {   /* empty batch, one game, empty batch */
        hs_game_t g;
        hs_test_wall_game(&g, 19, 64, k * 7, 6.5);
        hs_wire_game_t wg = { .game = g, .source = (char *)"gen/credit.sgf" };
        hs_wire_msg_t req, rep;
        hs_wire_msg_init(&req, HS_WIRE_SUBMIT);
        req.submit.job_id = job;
        req.submit.job_name = (char *)"credit";
        req.submit.engines = engines;
        req.submit.num_engines = 1;
        req.submit.moves_spec = (char *)"all";
        req.submit.games = k == 1 ? &wg : NULL;
        req.submit.num_games = k == 1;
        HS_CHECK_INT(hs_client_request(cl, &req, &rep, &err), 0);
        HS_CHECK_INT(rep.type, HS_WIRE_SUBMIT_REPLY);
        job = rep.submit_reply.job_id;
        credits[k] = rep.submit_reply.credit;
        hs_wire_msg_fini(&rep);
        hs_game_fini(&g);
    }
    HS_CHECK_INT(credits[0], 8);
    HS_CHECK_INT(credits[1], 0);
    HS_CHECK_INT(credits[2], 0);
    hs_client_destroy(&cl);
    hs_test_broker_stop(&b);
}

/* A worker that holds more than it finishes within lease_ms keeps its leases
 * while it answers (issue 13's bulk run: `analyze` of 100 games with a tree
 * search held every task at once, and 17 games failed after their leases timed
 * out five times). Broker: lease 1 s, chunk 8, 2 attempts. A fake worker with
 * credit 8 is sent the 13 chunks of a 96-move game at once and answers one
 * every 150 ms, 2 s in all: every position is sent once and the game is
 * done. Then it holds a 20-move game's 3 chunks and answers nothing: past the
 * lease they are sent again (a silent holder's lease still times out), and the
 * game is done once it answers. */
static void s_test_lease(void *ctx, const char *db)
{
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .chunk = 8, .lease_ms = 1000,
                                  .max_attempts = 2, .heartbeat_ms = 1000,
                                  .verbose = getenv("HS_TEST_VERBOSE") != NULL };
    hs_test_broker_start(&b);
    static s_fake_t f;
    s_fake_open(&f, ctx, b.endpoint, 8);
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, b.endpoint, 3000, 10, &err), 0);
    s_wait_workers(cl, &f, 1);

    s_status_t st = { 0 };
    f.hold_from = 0;   /* every task is held, then answered one at a time */
    uint64_t job = s_submit(cl, "lease", "all", 1, (int[]){ 8 }, (int[]){ 96 });
    for (int round = 0; round < 100; round++) {
        s_fake_pump(&f, 150);
        s_fake_release_one(&f);
        s_status(cl, job, &st);
        if (strcmp(st.state, "running"))
            break;
    }
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.positions_done, 97);
    HS_CHECK_INT(f.tasks, 13);
    for (int m = 0; m <= 96; m++)
        HS_CHECK_INT(f.seen[m], 1);

    memset(f.seen, 0, sizeof f.seen);
    /* (its position 0, the empty board, is the job before's: never sent) */
    job = s_submit(cl, "lease-silent", "all", 1, (int[]){ 9 }, (int[]){ 20 });
    for (int i = 0; i < 200 && f.seen[1] < 2; i++)
        s_fake_pump(&f, 50);
    HS_CHECK_INT(f.seen[0], 0);
    HS_CHECK_INT(f.seen[1], 2);
    s_fake_release(&f);
    s_wait_job(cl, &f, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_done, 1);

    hs_client_destroy(&cl);
    s_fake_free(&f);
    hs_test_broker_stop(&b);
}

int main(void)
{
    char dir[] = "/tmp/hs-test-chunks-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128], endpoint[64];
    snprintf(db, sizeof db, "%s/db", dir);
    int port = hs_test_free_port();
    HS_CHECK(port != 0);
    snprintf(endpoint, sizeof endpoint, "tcp://127.0.0.1:%d", port);
    void *ctx = zmq_ctx_new();
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = endpoint, .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .heartbeat_ms = 1000,
                                  .max_attempts = 2, .chunk = 64,
                                  .verbose = getenv("HS_TEST_VERBOSE") != NULL };
    hs_test_broker_start(&b);
    static s_fake_t f;
    s_fake_open(&f, ctx, endpoint, 4);
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, endpoint, 3000, 10, &err), 0);

    s_test_split(cl, &f, db);
    s_test_fail(cl, &f, db);
    s_test_short(cl, &f, db);
    s_test_illegal(cl, &f, db);
    s_test_restart(cl, &f, &b, ctx, db);
    char db2[160];
    snprintf(db2, sizeof db2, "%s/db-credit", dir);
    s_test_credit(ctx, db2);
    snprintf(db2, sizeof db2, "%s/db-lease", dir);
    s_test_lease(ctx, db2);

    hs_client_destroy(&cl);
    s_fake_free(&f);
    hs_test_broker_stop(&b);
    zmq_ctx_term(ctx);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
