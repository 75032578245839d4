/*
 * tests/test_broker_integrity.c — what a RESULT or a SUBMIT can change, whoever
 * sends it (docs/SECURITY.md, "Result integrity"). A broker in a thread over TCP
 * loopback; raw DEALER sockets play two workers (answering TASKs with the real
 * task evaluator and the noop engine, or with forgeries), a peer that never says
 * READY, and clients. Checks, each against the store and the job's counts:
 *   - a RESULT for a leased task from a registered worker that does not hold the
 *     lease, and from a peer that never said READY: refused, nothing stored or
 *     counted; the holder's RESULT is then stored (none of the forged values);
 *   - the same RESULT bytes sent again after the task is done change nothing;
 *   - a RESULT from the holder whose eval carries another position's key is
 *     refused and the task sent again; what is stored carries the right keys;
 *     honest RESULTs for a game with setup stones (move 0), a moves spec with a
 *     step and a chunked game all pass the check;
 *   - a SUBMIT of another game under a victim game's id (sent first): neither
 *     fails the victim's game nor replaces its record; both jobs end done;
 *   - a failed game under a victim job's source (sent first): the victim's own
 *     failure of that source is still recorded and counted in its job.
 * Sync without timing: a peer's RESULT is known to be handled once the broker
 * answers that peer's next message (a client HEARTBEAT on the same socket), since
 * the broker reads one peer's messages in order and answers after its commit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "broker/client.h"
#include "core/replay.h"
#include "core/wire.h"
#include "peer.h"
#include "store/store.h"
#include "test.h"
#include "wall_game.h"
#include "worker/worker_internal.h"

#define S_MAX_TASKS 32
#define S_FORGED 999.0f

typedef struct s_peer {
    void *sock;
    bool worker;                        /* says READY (and again after DISCONNECT) */
    hs_wire_msg_t tasks[S_MAX_TASKS];   /* TASKs received and not yet answered */
    int num_tasks;
    int tasks_seen;                     /* every TASK received */
    uint64_t last_task;                 /* id of the last one */
} s_peer_t;

typedef struct s_status {
    char state[16];
    int64_t games_total, games_done, games_failed, positions_done;
} s_status_t;

/* ---- peers ---- */

static void s_send(s_peer_t *p, bool as_worker, const hs_wire_msg_t *m)
{
    hs_wire_buf_t buf = { 0 };
    HS_CHECK_INT(hs_wire_encode(m, &buf, NULL), 0);
    zmq_send(p->sock, "", 0, ZMQ_SNDMORE);
    zmq_send(p->sock, as_worker ? HS_WIRE_MAGIC_WORKER : HS_WIRE_MAGIC_CLIENT,
             HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(p->sock, buf.data, buf.len, 0);
    hs_wire_buf_free(&buf);
}

static void s_send_raw(s_peer_t *p, const hs_wire_buf_t *body)
{
    zmq_send(p->sock, "", 0, ZMQ_SNDMORE);
    zmq_send(p->sock, HS_WIRE_MAGIC_WORKER, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(p->sock, body->data, body->len, 0);
}

static void s_ready(s_peer_t *p)
{
    static char *engines[] = { "noop" };
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_READY);
    m.ready.name = "integrity";
    m.ready.engines = engines;
    m.ready.num_engines = 1;
    m.ready.threads = 1;
    m.ready.credit = 1;
    s_send(p, true, &m);
}

static void s_connect(s_peer_t *p, void *ctx, const char *endpoint, bool worker)
{
    int zero = 0;
    memset(p, 0, sizeof *p);
    p->sock = zmq_socket(ctx, ZMQ_DEALER);
    zmq_setsockopt(p->sock, ZMQ_LINGER, &zero, sizeof zero);
    HS_CHECK_INT(zmq_connect(p->sock, endpoint), 0);
    p->worker = worker;
    if (worker)
        s_ready(p);
}

static void s_close(s_peer_t *p)
{
    for (int i = 0; i < p->num_tasks; i++)
        hs_wire_msg_fini(&p->tasks[i]);
    p->num_tasks = 0;
    zmq_close(p->sock);
}

/* Reads what the broker sends for up to ms: TASKs are kept, a DISCONNECT makes a
 * worker say READY again. Returns true when a client HEARTBEAT (the barrier's
 * answer) arrived. A worker first sends its own heartbeat (it must stay alive). */
static bool s_poll(s_peer_t *p, int ms)
{
    bool barrier = false;
    if (p->worker) {
        hs_wire_msg_t hb;
        hs_wire_msg_init(&hb, HS_WIRE_HEARTBEAT);
        s_send(p, true, &hb);
    }
    zmq_pollitem_t item = { p->sock, 0, ZMQ_POLLIN, 0 };
    while (!barrier && zmq_poll(&item, 1, ms) > 0) {
        hs_wire_msg_t m[HS_WIRE_MAX_BATCH];
        char magic[5] = { 0 };
        int n = hs_test_recv_bodies(p->sock, m, HS_WIRE_MAX_BATCH, magic);
        for (int i = 0; i < n; i++) {
            if (m[i].type == HS_WIRE_TASK && p->num_tasks < S_MAX_TASKS) {
                p->tasks_seen++;
                p->last_task = m[i].task.task_id;
                p->tasks[p->num_tasks++] = m[i];   /* takes it */
                continue;
            }
            if (m[i].type == HS_WIRE_DISCONNECT && p->worker)
                s_ready(p);
            if (m[i].type == HS_WIRE_HEARTBEAT && !memcmp(magic, HS_WIRE_MAGIC_CLIENT, 4))
                barrier = true;
            hs_wire_msg_fini(&m[i]);
        }
        ms = 1;
    }
    return barrier;
}

/* Returns once the broker has handled everything p sent before (see the top). */
static void s_barrier(s_peer_t *p)
{
    hs_wire_msg_t hb;
    hs_wire_msg_init(&hb, HS_WIRE_HEARTBEAT);
    s_send(p, false, &hb);
    for (int i = 0; i < 1000; i++)
        if (s_poll(p, 20))
            return;
    HS_CHECK(!"the broker never answered the barrier");
}

/* Polls the workers until one of them holds a TASK: its index, or -1. */
static int s_wait_task(s_peer_t *w, int n)
{
    for (int i = 0; i < 1000; i++)
        for (int k = 0; k < n; k++) {
            s_poll(&w[k], 10);
            if (w[k].num_tasks > 0)
                return k;
        }
    HS_CHECK(!"no TASK came");
    return -1;
}

/* The honest RESULT of p's oldest TASK into out (the task stays held). */
static void s_eval(hs__eval_ctx_t *x, const s_peer_t *p, hs_wire_buf_t *out)
{
    uint64_t positions = 0;
    int failed = -1;
    HS_CHECK_INT(hs__worker_eval_task(x, &p->tasks[0].task, out, &positions, &failed), 0);
    HS_CHECK_INT(failed, 0);
}

static void s_drop_task(s_peer_t *p)
{
    hs_wire_msg_fini(&p->tasks[0]);
    memmove(&p->tasks[0], &p->tasks[1], sizeof p->tasks[0] * (size_t)--p->num_tasks);
}

/* RESULT body in changed as fn says, into out. */
static void s_forge(const hs_wire_buf_t *in, void (*fn)(hs_wire_result_t *), hs_wire_buf_t *out)
{
    hs_wire_msg_t m;
    HS_CHECK_INT(hs_wire_decode(in->data, in->len, &m, NULL), 0);
    fn(&m.result);
    HS_CHECK_INT(hs_wire_encode(&m, out, NULL), 0);
    hs_wire_msg_fini(&m);
}

static void s_forge_values(hs_wire_result_t *r)
{
    for (int i = 0; i < r->num_evals; i++)
        r->evals[i].score_lead = S_FORGED;
}

/* Move 10 claims the key of move 0 (the position after the setup, which every
 * game of the size and rules reaches): the poisoning the check must refuse. */
static void s_forge_key(hs_wire_result_t *r)
{
    HS_CHECK(r->num_evals > 10);
    memcpy(r->evals[10].pos_key, r->evals[0].pos_key, 16);
    r->evals[10].score_lead = S_FORGED;
}

/* Answers every held TASK of the workers honestly, until every job of jobs[]
 * has stopped running (or about 30 s). */
static void s_serve(hs__eval_ctx_t *x, s_peer_t *w, int n, hs_client_t *cl,
                    const uint64_t *jobs, int njobs);

/* ---- the client side and the store ---- */

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
        out->positions_done = j->positions_done;
    }
    hs_wire_msg_fini(&r);
}

static void s_serve(hs__eval_ctx_t *x, s_peer_t *w, int n, hs_client_t *cl,
                    const uint64_t *jobs, int njobs)
{
    for (int round = 0; round < 1500; round++) {
        for (int k = 0; k < n; k++) {
            s_poll(&w[k], 10);
            while (w[k].num_tasks > 0) {
                hs_wire_buf_t buf = { 0 };
                s_eval(x, &w[k], &buf);
                s_send_raw(&w[k], &buf);
                hs_wire_buf_free(&buf);
                s_drop_task(&w[k]);
            }
        }
        int running = 0;
        for (int j = 0; j < njobs; j++) {
            s_status_t st;
            s_status(cl, jobs[j], &st);
            running += !strcmp(st.state, "running");
        }
        if (!running)
            return;
    }
    HS_CHECK(!"the jobs never finished");
}

/* Game `index` of `moves` moves, with two Black setup stones on the empty
 * column when setup is set (then the position after the setup is move 0). */
static void s_build(hs_game_t *g, int index, int moves, bool setup)
{
    hs_test_wall_game(g, 19, moves, index * 7, 6.5);
    if (!setup)
        return;
    g->setup = calloc(2, sizeof *g->setup);
    g->num_setup = 2;
    g->setup[0] = (hs_game_setup_t){ .vertex = 3 * 19 + 9, .color = HS_BLACK };
    g->setup[1] = (hs_game_setup_t){ .vertex = 15 * 19 + 9, .color = HS_BLACK };
    hs_game_compute_id(g);
}

/* Submits game (index, moves, setup) from source as a job of its own; with spoof,
 * the SUBMIT names that id instead of the game's own. Returns the job. */
static uint64_t s_submit(hs_client_t *cl, const char *name, const char *moves_spec, int index,
                         int moves, bool setup, const char *source, const uint64_t *spoof)
{
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    hs_game_t g;
    s_build(&g, index, moves, setup);
    if (spoof) {
        g.id[0] = spoof[0];
        g.id[1] = spoof[1];
    }
    HS_CHECK_INT(hs_submitter_new(&sub, cl, name, "noop", moves_spec, &err), 0);
    HS_CHECK_INT(hs_submitter_add_game(sub, &g, source, &err), 0);
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t job = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    hs_game_fini(&g);
    HS_CHECK(job > 0);
    return job;
}

/* What the store holds of a game's evals: rows, forged values, and rows whose
 * key is not the position's (replayed here as the worker does). */
typedef struct s_rows {
    const hs_game_t *game;
    int rows, forged, wrong_key;
} s_rows_t;

static int s_row(void *ctx, const hs_eval_t *e)
{
    s_rows_t *r = ctx;
    r->rows++;
    r->forged += e->score_lead == S_FORGED;
    hs_replay_t rp;
    uint8_t key[16] = { 0 };
    if (hs_replay_start(&rp, r->game, NULL) == 0 && hs_replay_to(&rp, e->move_number, NULL) == 0)
        hs_replay_key(&rp, key);
    hs_replay_fini(&rp);
    r->wrong_key += memcmp(key, e->pos_key, 16) != 0;
    return 0;
}

static s_rows_t s_rows(const char *db, const hs_game_t *g)
{
    s_rows_t r = { .game = g };
    hs_store_t *st = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&st, db, HS_STORE_RDONLY, 0, &err), 0);
    if (st)
        HS_CHECK_INT(hs_store_game_evals(st, g->id, 0, -1, 0, s_row, &r, &err), 0);
    hs_store_close(&st);
    return r;
}

/* ---- the cases ---- */

/* Forged and replayed RESULTs: w[0] and w[1] are workers, p never said READY. */
static void s_test_forged(hs__eval_ctx_t *x, s_peer_t *w, s_peer_t *p, hs_client_t *cl,
                          const char *db)
{
    hs_game_t g;
    s_build(&g, 1, 20, false);
    uint64_t job = s_submit(cl, "victim", "all", 1, 20, false, "victim/1.sgf", NULL);
    int h = s_wait_task(w, 2), o = 1 - h;
    hs_wire_buf_t honest = { 0 }, forged = { 0 };
    s_eval(x, &w[h], &honest);
    s_forge(&honest, s_forge_values, &forged);

    /* From the worker that does not hold the lease, then from the stranger. */
    s_status_t st;
    s_peer_t *from[2] = { &w[o], p };
    for (int k = 0; k < 2; k++) {
        s_send_raw(from[k], &forged);
        s_barrier(from[k]);
        s_status(cl, job, &st);
        HS_CHECK_STR(st.state, "running");
        HS_CHECK_INT(st.positions_done, 0);
        HS_CHECK_INT(st.games_done, 0);
        HS_CHECK_INT(s_rows(db, &g).rows, 0);
    }

    /* The holder's answer counts. */
    s_send_raw(&w[h], &honest);
    s_drop_task(&w[h]);
    s_serve(x, w, 2, cl, &job, 1);
    s_status(cl, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.positions_done, 21);
    s_rows_t r = s_rows(db, &g);
    HS_CHECK_INT(r.rows, 21);
    HS_CHECK_INT(r.forged, 0);
    HS_CHECK_INT(r.wrong_key, 0);

    /* Replays after done, from everyone: nothing changes. */
    s_peer_t *all[3] = { &w[h], &w[o], p };
    for (int k = 0; k < 3; k++) {
        s_send_raw(all[k], &honest);
        s_send_raw(all[k], &forged);
        s_barrier(all[k]);
    }
    s_status(cl, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_total, 1);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.positions_done, 21);
    r = s_rows(db, &g);
    HS_CHECK_INT(r.rows, 21);
    HS_CHECK_INT(r.forged, 0);
    hs_wire_buf_free(&honest);
    hs_wire_buf_free(&forged);
    hs_game_fini(&g);
}

/* A RESULT from the lease holder with a wrong position key: refused, the task
 * sent again; the honest answer is then stored with the right keys. */
static void s_test_keys(hs__eval_ctx_t *x, s_peer_t *w, hs_client_t *cl, const char *db)
{
    hs_game_t g;
    s_build(&g, 2, 30, false);
    uint64_t job = s_submit(cl, "keys", "all", 2, 30, false, "keys/2.sgf", NULL);
    int h = s_wait_task(w, 2);
    uint64_t task = w[h].tasks[0].task.task_id;
    int seen = w[0].tasks_seen + w[1].tasks_seen;
    hs_wire_buf_t honest = { 0 }, forged = { 0 };
    s_eval(x, &w[h], &honest);
    s_forge(&honest, s_forge_key, &forged);
    s_send_raw(&w[h], &forged);
    s_drop_task(&w[h]);
    s_barrier(&w[h]);
    s_status_t st;
    s_status(cl, job, &st);
    HS_CHECK_INT(st.positions_done, 0);
    HS_CHECK_INT(s_rows(db, &g).rows, 0);
    /* Requeued (not failed: attempts are left), so it comes again. */
    int again = s_wait_task(w, 2);
    HS_CHECK(w[again].last_task == task);
    HS_CHECK_INT(w[0].tasks_seen + w[1].tasks_seen, seen + 1);
    s_serve(x, w, 2, cl, &job, 1);
    s_status(cl, job, &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 0);
    HS_CHECK_INT(st.positions_done, 31);
    s_rows_t r = s_rows(db, &g);
    HS_CHECK_INT(r.rows, 31);
    HS_CHECK_INT(r.forged, 0);
    HS_CHECK_INT(r.wrong_key, 0);
    hs_wire_buf_free(&honest);
    hs_wire_buf_free(&forged);
    hs_game_fini(&g);

    /* Honest answers pass the check: setup stones (move 0 after them) with a
     * step, and a game of two chunks (64 positions, then 65-100). */
    hs_game_t a, b;
    s_build(&a, 3, 40, true);
    s_build(&b, 4, 100, false);
    uint64_t jobs[2] = { s_submit(cl, "setup", "every:3", 3, 40, true, "keys/3.sgf", NULL),
                         s_submit(cl, "chunks", "all", 4, 100, false, "keys/4.sgf", NULL) };
    s_serve(x, w, 2, cl, jobs, 2);
    s_status(cl, jobs[0], &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.positions_done, 14);   /* 0, 3, ..., 39 */
    HS_CHECK_INT(st.games_failed, 0);
    s_status(cl, jobs[1], &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.positions_done, 101);
    HS_CHECK_INT(st.games_failed, 0);
    r = s_rows(db, &a);
    HS_CHECK_INT(r.rows, 14);
    HS_CHECK_INT(r.wrong_key, 0);
    r = s_rows(db, &b);
    HS_CHECK_INT(r.rows, 101);
    HS_CHECK_INT(r.wrong_key, 0);
    hs_game_fini(&a);
    hs_game_fini(&b);
}

/* An attacker submits another game (10 moves) under the id of the victim's
 * (30 moves) before the victim does. */
static void s_test_spoof(hs__eval_ctx_t *x, s_peer_t *w, hs_client_t *cl, const char *db)
{
    hs_game_t v, a;
    s_build(&v, 5, 30, false);
    s_build(&a, 6, 10, false);
    uint64_t jobs[2];
    jobs[0] = s_submit(cl, "attacker", "all", 6, 10, false, "attacker/6.sgf", v.id);
    jobs[1] = s_submit(cl, "victim", "all", 5, 30, false, "victim/5.sgf", NULL);
    s_serve(x, w, 2, cl, jobs, 2);
    for (int k = 0; k < 2; k++) {
        s_status_t st;
        s_status(cl, jobs[k], &st);
        HS_CHECK_STR(st.state, "done");
        HS_CHECK_INT(st.games_done, 1);
        HS_CHECK_INT(st.games_failed, 0);
        HS_CHECK_INT(st.positions_done, k == 0 ? 11 : 31);
    }
    /* Each game's record is its own, under its own id. */
    hs_store_t *s = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err), 0);
    const hs_game_t *want[2] = { &v, &a };
    for (int k = 0; k < 2 && s; k++) {
        hs_game_t got;
        HS_CHECK_INT(hs_store_game_get(s, want[k]->id, &got, NULL, NULL, &err), 0);
        HS_CHECK_INT(got.num_moves, want[k]->num_moves);
        HS_CHECK(got.num_moves == want[k]->num_moves &&
                 !memcmp(got.moves, want[k]->moves, sizeof *got.moves * (size_t)got.num_moves));
        hs_game_fini(&got);
    }
    hs_store_close(&s);
    HS_CHECK_INT(s_rows(db, &v).rows, 31);
    HS_CHECK_INT(s_rows(db, &a).rows, 11);
    hs_game_fini(&v);
    hs_game_fini(&a);
}

typedef struct s_failed {
    uint64_t job;
    int victim_bad, victim_good;    /* the victim job's records of each source */
    char reason[128];
} s_failed_t;

static int s_failed_cb(void *ctx, const char *source, const char *reason, uint64_t job)
{
    s_failed_t *f = ctx;
    if (job != f->job)
        return 0;
    if (!strcmp(source, "victim/bad.sgf")) {
        f->victim_bad++;
        snprintf(f->reason, sizeof f->reason, "%s", reason);
    }
    f->victim_good += !strcmp(source, "victim/good.sgf");
    return 0;
}

/* An attacker records failures under the victim's sources first; the victim's
 * own failure is still recorded and counted, its good game done. */
static void s_test_failed(hs__eval_ctx_t *x, s_peer_t *w, hs_client_t *cl, const char *db)
{
    hs_submitter_t *sub = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "attacker", "noop", "all", &err), 0);
    HS_CHECK_INT(hs_submitter_add_failure(sub, "victim/bad.sgf", "forged", &err), 0);
    HS_CHECK_INT(hs_submitter_add_failure(sub, "victim/good.sgf", "forged", &err), 0);
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    uint64_t jobs[2] = { hs_submitter_job(sub), 0 };
    hs_submitter_destroy(&sub);

    hs_game_t g;
    s_build(&g, 7, 12, false);
    HS_CHECK_INT(hs_submitter_new(&sub, cl, "victim", "noop", "all", &err), 0);
    HS_CHECK_INT(hs_submitter_add_failure(sub, "victim/bad.sgf", "a real syntax error", &err), 0);
    HS_CHECK_INT(hs_submitter_add_game(sub, &g, "victim/good.sgf", &err), 0);
    HS_CHECK_INT(hs_submitter_finish(sub, &err), 0);
    jobs[1] = hs_submitter_job(sub);
    hs_submitter_destroy(&sub);
    hs_game_fini(&g);
    s_serve(x, w, 2, cl, jobs, 2);
    s_status_t st;
    s_status(cl, jobs[1], &st);
    HS_CHECK_STR(st.state, "done");
    HS_CHECK_INT(st.games_total, 2);
    HS_CHECK_INT(st.games_done, 1);
    HS_CHECK_INT(st.games_failed, 1);
    hs_store_t *s = NULL;
    s_failed_t f = { .job = jobs[1] };
    HS_CHECK_INT(hs_store_open(&s, db, HS_STORE_RDONLY, 0, &err), 0);
    if (s)
        HS_CHECK_INT(hs_store_failed_each(s, s_failed_cb, &f, &err), 0);
    hs_store_close(&s);
    HS_CHECK_INT(f.victim_bad, 1);
    HS_CHECK_STR(f.reason, "a real syntax error");
    HS_CHECK_INT(f.victim_good, 0);
}

int main(void)
{
    char dir[] = "/tmp/hs-test-integrity-XXXXXX";
    HS_CHECK(mkdtemp(dir) != NULL);
    char db[128];
    snprintf(db, sizeof db, "%s/db", dir);
    void *ctx = zmq_ctx_new();
    static hs_test_broker_t b;
    b.cfg = (hs_broker_config_t){ .bind = "tcp://127.0.0.1:*", .zmq_ctx = ctx, .db_dir = db,
                                  .store_flags = HS_STORE_NOSYNC, .heartbeat_ms = 3000,
                                  .max_attempts = 3, .chunk = 64,
                                  .verbose = getenv("HS_TEST_VERBOSE") != NULL };
    hs_test_broker_start(&b);
    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    x->batch_max = 16;
    static s_peer_t w[2], p;
    s_connect(&w[0], ctx, b.endpoint, true);
    s_connect(&w[1], ctx, b.endpoint, true);
    s_connect(&p, ctx, b.endpoint, false);
    hs_client_t *cl = NULL;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_client_new(&cl, ctx, b.endpoint, 5000, 10, &err), 0);
    /* Both workers registered before any job (their READYs are handled first).
     * Heartbeats of 3 s: a worker expires only after 9 s of silence, which no
     * step here comes near, even under a sanitizer; an expiry would requeue a
     * lease and add a TASK the key case counts. */
    s_barrier(&w[0]);
    s_barrier(&w[1]);

    s_test_forged(x, w, &p, cl, db);
    s_test_keys(x, w, cl, db);
    s_test_spoof(x, w, cl, db);
    s_test_failed(x, w, cl, db);

    hs_client_destroy(&cl);
    s_close(&w[0]);
    s_close(&w[1]);
    s_close(&p);
    hs_test_broker_stop(&b);
    hs__eval_ctx_fini(x);
    free(x);
    zmq_ctx_term(ctx);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
