/*
 * tests/test_store.c — the LMDB store (store/store.h) and the query layer
 * (store/query.h): put/get/iterate, batches (commit, abort), idempotent puts,
 * a read-only reader in another process while the writer writes (and holds a
 * batch open, and grows the map), the job journal, stats (players: distinct
 * names), query filters. The
 * eval index and map growth from tiny maps are tests/test_store_growth.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rules.h"
#include "core/clock.h"
#include "store/query.h"
#include "store/store.h"
#include "store_fixture.h"
#include "test.h"

static hs_game_move_t s_moves[40];

/* A 9x9 game with `n` moves whose id is derived from seed. */
static void s_game(hs_game_t *g, uint64_t seed, const char *black, const char *white, int n)
{
    memset(g, 0, sizeof *g);
    g->size = 9;
    g->komi = 7.0;
    g->rules = hs_rules_get(HS_RULES_JAPANESE);
    for (int i = 0; i < n; i++)
        s_moves[i] = (hs_game_move_t){ (uint16_t)((i * 7 + seed) % 81), (uint8_t)(i % 2 ? HS_WHITE : HS_BLACK) };
    g->moves = s_moves;
    g->num_moves = n;
    g->black = (char *)black;
    g->white = (char *)white;
    g->result_raw = "B+R";
    g->id[0] = 0x1000 + seed;
    g->id[1] = seed * 0x9e3779b97f4a7c15ull;
}


typedef struct { int n; uint64_t ids[16]; } s_ids_t;
static int s_collect(void *ctx, const uint64_t id[2])
{
    s_ids_t *c = ctx;
    if (c->n < 16)
        c->ids[c->n] = id[0];
    c->n++;
    return 0;
}


static void test_games_and_evals(void)
{
    const char *dir = s_newdir("basic");
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    hs_game_t g1, g2;
    s_game(&g1, 1, "Lee Sedol", "AlphaGo", 20);
    bool existed = true;
    HS_CHECK_INT(hs_store_game_put(s, &g1, "a.tar.gz:x/1.sgf", 1, &existed, &err), 0);
    HS_CHECK(!existed);
    HS_CHECK_INT(hs_store_game_put(s, &g1, "b/1-copy.sgf", 1, &existed, &err), 0);
    HS_CHECK(existed);   /* same id: stored once, second source indexed */
    s_game(&g2, 2, "AlphaGo", "Ke Jie", 30);
    HS_CHECK_INT(hs_store_game_put(s, &g2, "c.sgf", 1, NULL, &err), 0);
    HS_CHECK_INT(hs_store_game_failed(s, "bad.sgf", "syntax error at line 1", 1, &existed, &err), 0);
    HS_CHECK(!existed);
    HS_CHECK_INT(hs_store_game_failed(s, "bad.sgf", "syntax error at line 1", 1, &existed, &err), 0);
    HS_CHECK(existed);

    hs_game_t back;
    char *src = NULL;
    uint64_t job = 0;
    HS_CHECK_INT(hs_store_game_get(s, g2.id, &back, &src, &job, &err), 0);
    HS_CHECK_INT(back.num_moves, 30);
    HS_CHECK_INT(back.size, 9);
    HS_CHECK_STR(back.white, "Ke Jie");
    HS_CHECK_STR(src, "c.sgf");
    HS_CHECK_INT(job, 1);
    HS_CHECK_INT(back.moves[29].vertex, s_moves[29].vertex);
    hs_wire_game_t wb = { .game = back, .source = src };
    hs_wire_game_fini(&wb);
    uint64_t missing[2] = { 5, 5 };
    HS_CHECK_INT(hs_store_game_get(s, missing, &back, NULL, NULL, &err), HS_ENOTFOUND);

    uint64_t id[2];
    HS_CHECK_INT(hs_store_game_by_source(s, "b/1-copy.sgf", id, &err), 0);
    HS_CHECK(id[0] == g1.id[0] && id[1] == g1.id[1]);
    HS_CHECK_INT(hs_store_game_by_source(s, "nope.sgf", id, &err), HS_ENOTFOUND);
    s_ids_t c = { 0 };
    HS_CHECK_INT(hs_store_games_by_player(s, "AlphaGo", s_collect, &c, &err), 0);
    HS_CHECK_INT(c.n, 2);
    c.n = 0;
    HS_CHECK_INT(hs_store_games_by_player(s, "Alpha", s_collect, &c, &err), 0);
    HS_CHECK_INT(c.n, 0);   /* a prefix of a name is not the name */
    c.n = 0;
    HS_CHECK_INT(hs_store_games_each(s, s_collect, &c, &err), 0);
    HS_CHECK_INT(c.n, 2);

    /* Evaluations: one batch for game 1, moves in reverse order of arrival. */
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int mn = 20; mn >= 0; mn--) {
        hs_eval_t e;
        s_eval(&e, mn, 1000 + mn, (float)(mn == 10 ? 12.0 : 1.0), "judge");
        bool dup = true;
        HS_CHECK_INT(hs_store_result_put(s, g1.id, &e, "judge", &dup, &err), 0);
        HS_CHECK(!dup);
    }
    /* inside the batch the writer sees its own writes */
    hs_eval_t probe;
    s_eval(&probe, 3, 1003, 0, "judge");
    HS_CHECK_INT(hs_store_eval_get(s, probe.engine_id, probe.pos_key, NULL, &err), 0);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);

    /* Game 2 reaches game 1's positions at moves 0..4 (an opening): deduped. */
    int dups = 0;
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int mn = 0; mn <= 30; mn++) {
        hs_eval_t e;
        s_eval(&e, mn, mn <= 4 ? 1000 + mn : 2000 + mn, 0.5f, "judge");
        bool dup = false;
        HS_CHECK_INT(hs_store_result_put(s, g2.id, &e, "judge", &dup, &err), 0);
        dups += dup;
    }
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    HS_CHECK_INT(dups, 5);
    /* Putting the same results again stores nothing new. */
    dups = 0;
    for (int mn = 0; mn <= 30; mn++) {
        hs_eval_t e;
        s_eval(&e, mn, mn <= 4 ? 1000 + mn : 2000 + mn, 0.5f, "judge");
        bool dup = false;
        HS_CHECK_INT(hs_store_result_put(s, g2.id, &e, "judge", &dup, &err), 0);
        dups += dup;
    }
    HS_CHECK_INT(dups, 31);

    hs_eval_t got;
    HS_CHECK_INT(hs_store_eval_get(s, probe.engine_id, probe.pos_key, &got, &err), 0);
    HS_CHECK(got.ownership && got.ownership[0] == -97 && got.ownership[80] == -17);
    HS_CHECK_STR(got.result, "B+1.0");
    hs_eval_fini(&got);
    probe.pos_key[0] ^= 0xFF;
    HS_CHECK_INT(hs_store_eval_get(s, probe.engine_id, probe.pos_key, NULL, &err), HS_ENOTFOUND);

    s_evs_t ev = { 0 };
    HS_CHECK_INT(hs_store_game_evals(s, g1.id, 0, -1, 0, s_collect_evals, &ev, &err), 0);
    HS_CHECK_INT(ev.n, 21);
    int ordered = 1;
    for (int i = 0; i < 21 && i < ev.n; i++)
        ordered &= ev.mn[i] == i;
    HS_CHECK(ordered);
    ev.n = 0;
    HS_CHECK_INT(hs_store_game_evals(s, g1.id, 5, 7, hs_engine_config_id("judge"),
                                     s_collect_evals, &ev, &err), 0);
    HS_CHECK_INT(ev.n, 3);
    HS_CHECK_INT(ev.mn[0], 5);
    ev.n = 0;
    HS_CHECK_INT(hs_store_game_evals(s, g1.id, 0, -1, hs_engine_config_id("other"),
                                     s_collect_evals, &ev, &err), 0);
    HS_CHECK_INT(ev.n, 0);
    char spec[64];
    HS_CHECK_INT(hs_store_engine_spec(s, hs_engine_config_id("judge"), spec, sizeof spec, &err), 0);
    HS_CHECK_STR(spec, "judge");

    /* Abort drops a batch. */
    hs_game_t g3;
    s_game(&g3, 3, "X", "Y", 5);
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    HS_CHECK_INT(hs_store_game_put(s, &g3, "x.sgf", 1, NULL, &err), 0);
    hs_store_abort(s);
    HS_CHECK_INT(hs_store_game_get(s, g3.id, &back, NULL, NULL, &err), HS_ENOTFOUND);

    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
    HS_CHECK_INT(st.games, 2);
    HS_CHECK_INT(st.failed_games, 1);
    HS_CHECK_INT(st.positions, 21 + 31);
    HS_CHECK_INT(st.evals, 21 + 26);
    HS_CHECK_INT(st.result_puts, 21 + 31 + 31);
    HS_CHECK_INT(st.result_dups, 5 + 31);
    HS_CHECK_INT(st.eval_lookups, 3);
    HS_CHECK_INT(st.eval_hits, 2);
    /* Lee Sedol-AlphaGo and AlphaGo-Ke Jie: 3 names (the index's 4 entries said 4) */
    HS_CHECK_INT(st.players, 3);

    /* Query layer: rows, move filter, swing filter, player, formats, stats JSON. */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    hs_query_t q;
    hs_query_init(&q);
    q.source = "a.tar.gz:x/1.sgf";
    q.format = HS_QUERY_JSONL;
    int64_t rows = 0;
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), 0);
    HS_CHECK_INT(rows, 21);
    q.swing = 5.0;   /* move 10 jumps +11, move 11 falls back -11 */
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), 0);
    HS_CHECK_INT(rows, 2);
    fflush(out);
    HS_CHECK(strstr(buf, "\"move\":10,\"engine\":\"judge\",\"score_lead\":12.00") != NULL);
    HS_CHECK(strstr(buf, "\"swing\":11.00") != NULL);
    HS_CHECK(strstr(buf, "\"swing\":-11.00") != NULL);
    hs_query_init(&q);
    q.player = "AlphaGo";
    q.move = 10;
    q.format = HS_QUERY_CSV;
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), 0);
    HS_CHECK_INT(rows, 2);
    hs_query_init(&q);
    q.game = "0123";
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), HS_EINVAL);
    q.game = NULL;
    q.source = "missing.sgf";
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), HS_ENOTFOUND);
    /* A deadline already past stops an all-games query before its first game;
     * a far one changes nothing. */
    hs_query_init(&q);
    q.deadline_ms = 1;
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), HS_ETIMEOUT);
    HS_CHECK_INT(rows, 0);
    q.deadline_ms = hs_clock_ms() + 60000;
    HS_CHECK_INT(hs_query_run(s, &q, out, &rows, &err), 0);
    HS_CHECK(rows > 21);
    fclose(out);
    free(buf);
    buf = NULL;
    out = open_memstream(&buf, &len);
    HS_CHECK_INT(hs_query_stats(s, out, true, &err), 0);
    fclose(out);
    HS_CHECK(strstr(buf, "\"games\":2,\"failed_games\":1,\"positions\":52,\"evals\":47") != NULL);
    HS_CHECK(strchr(buf, '\n') == buf + len - 1);   /* one line, one object */
    free(buf);

    hs_store_close(&s);
    HS_CHECK(s == NULL);
    /* Reopen read-only: everything is still there; writes are refused. */
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_RDONLY, 0, &err), 0);
    if (s) {
        HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
        HS_CHECK_INT(st.evals, 47);
        HS_CHECK_INT(hs_store_begin(s, &err), HS_EBADSTATE);
        HS_CHECK_INT(hs_store_game_put(s, &g3, "x.sgf", 1, NULL, &err), HS_EBADSTATE);
        hs_store_close(&s);
    }
    /* The command line: `hyeongse query --db DIR stats --json` prints one object. */
    const char *bin = getenv("HS_BIN");
    if (bin) {
        char cmd[1024], line[2048] = "";
        snprintf(cmd, sizeof cmd, "'%s' query --db '%s' stats --json", bin, dir);
        FILE *p = popen(cmd, "r");
        HS_CHECK(p != NULL);
        if (p) {
            HS_CHECK(fgets(line, sizeof line, p) != NULL);
            HS_CHECK(strstr(line, "{\"games\":2,\"failed_games\":1,\"positions\":52,\"evals\":47,") == line);
            HS_CHECK(fgetc(p) == EOF);
            HS_CHECK_INT(pclose(p), 0);
        }
        snprintf(cmd, sizeof cmd, "'%s' query --db '%s' --player 'Ke Jie' --swing 0.1 --format csv", bin, dir);
        p = popen(cmd, "r");
        int lines = 0;
        while (p && fgets(line, sizeof line, p))
            lines++;
        HS_CHECK(p && pclose(p) == 0);
        /* header + move 5 of game 2: moves 0-4 are game 1's records (score 1.0), then 0.5 */
        HS_CHECK_INT(lines, 1 + 1);
    }
    s_rm_dir(dir);
    HS_CHECK_INT(hs_store_open(&s, "/tmp/hs-test-store-does-not-exist", HS_STORE_RDONLY, 0, &err),
                 HS_ENOTFOUND);
}

/* A reader in another process sees committed data only and is never blocked by the
 * writer, even while the writer holds a batch open. */
static void test_reader_process(void)
{
    const char *dir = s_newdir("proc");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dirbuf, 0, 1u << 20, &err), 0);   /* small: step 4 grows it */
    if (!s)
        return;
    uint64_t gid[2] = { 7, 7 };
    s_write_evals(s, gid, 0, 100, 100, &err);
    int to_child[2], to_parent[2];
    if (pipe(to_child) || pipe(to_parent)) {
        perror("pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* child: a separate reader */
        close(to_child[1]);
        close(to_parent[0]);
        hs_store_t *r = NULL;
        int bad = 0;
        if (hs_store_open(&r, dirbuf, HS_STORE_RDONLY, 0, NULL))
            _exit(2);
        char c;
        int64_t last = 0;
        /* For every token from the parent, report the eval count seen now. */
        while (read(to_child[0], &c, 1) == 1) {
            hs_store_stats_t st;
            if (hs_store_stats(r, &st, NULL))
                bad = 1;
            if (st.evals < last)
                bad = 1;
            last = st.evals;
            int64_t v = st.evals;
            if (write(to_parent[1], &v, sizeof v) != sizeof v)
                bad = 1;
        }
        hs_store_close(&r);
        _exit(bad ? 3 : 0);
    }
    close(to_child[0]);
    close(to_parent[1]);
    int64_t seen;
    char tok = 'x';
    /* 1: committed state */
    HS_CHECK(write(to_child[1], &tok, 1) == 1);
    HS_CHECK(read(to_parent[0], &seen, sizeof seen) == sizeof seen);
    HS_CHECK_INT(seen, 100);
    /* 2: writer holds an open batch with 50 more: reader still answers, sees 100 */
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int j = 0; j < 50; j++) {
        hs_eval_t e;
        s_eval(&e, 200 + j, 0x7000000ull + (uint64_t)j, 1.0f, "judge");
        HS_CHECK_INT(hs_store_result_put(s, gid, &e, "judge", NULL, &err), 0);
    }
    HS_CHECK(write(to_child[1], &tok, 1) == 1);
    HS_CHECK(read(to_parent[0], &seen, sizeof seen) == sizeof seen);
    HS_CHECK_INT(seen, 100);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    /* 3: after commit the reader sees 150 */
    HS_CHECK(write(to_child[1], &tok, 1) == 1);
    HS_CHECK(read(to_parent[0], &seen, sizeof seen) == sizeof seen);
    HS_CHECK_INT(seen, 150);
    /* 4: the writer grows the map past the reader's: the reader adapts */
    size_t before = hs_store_map_size(s);
    s_write_evals(s, gid, 1000, 40000, 10000, &err);
    HS_CHECK(hs_store_map_size(s) > before);
    HS_CHECK(write(to_child[1], &tok, 1) == 1);
    HS_CHECK(read(to_parent[0], &seen, sizeof seen) == sizeof seen);
    HS_CHECK_INT(seen, 40150);
    close(to_child[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    HS_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(to_parent[0]);
    hs_store_close(&s);
    s_rm_dir(dirbuf);
}

typedef struct { int n; uint64_t ids[64]; } s_tasks_t;
static int s_collect_task(void *ctx, const hs_store_task_t *t)
{
    s_tasks_t *c = ctx;
    if (c->n < 64)
        c->ids[c->n] = t->id;
    c->n++;
    return 0;
}

static void test_journal(void)
{
    const char *dir = s_newdir("jobs");
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    hs_store_job_t j;
    memset(&j, 0, sizeof j);
    snprintf(j.name, sizeof j.name, "pro19");
    snprintf(j.engines, sizeof j.engines, "judge,influence");
    snprintf(j.moves_spec, sizeof j.moves_spec, "all");
    HS_CHECK_INT(hs_store_job_create(s, &j, &err), 0);
    HS_CHECK_INT(j.id, 1);
    hs_store_job_t j2 = j;
    snprintf(j2.name, sizeof j2.name, "second");
    HS_CHECK_INT(hs_store_job_create(s, &j2, &err), 0);
    HS_CHECK_INT(j2.id, 2);
    j.games_total = 10;
    j.positions_done = 99;
    j.state = HS_JOB_DONE;
    j.input_complete = true;
    HS_CHECK_INT(hs_store_job_put(s, &j, &err), 0);
    hs_store_job_t g;
    HS_CHECK_INT(hs_store_job_get(s, 1, &g, &err), 0);
    HS_CHECK_STR(g.name, "pro19");
    HS_CHECK_STR(g.engines, "judge,influence");
    HS_CHECK_INT(g.games_total, 10);
    HS_CHECK_INT(g.positions_done, 99);
    HS_CHECK_INT(g.state, HS_JOB_DONE);
    HS_CHECK(g.input_complete);
    HS_CHECK_INT(hs_store_job_get(s, 3, &g, &err), HS_ENOTFOUND);
    hs_store_job_t bogus = j;
    bogus.id = 77;
    HS_CHECK_INT(hs_store_job_put(s, &bogus, &err), HS_ENOTFOUND);
    hs_store_job_t *list = NULL;
    int n = 0;
    HS_CHECK_INT(hs_store_job_list(s, &list, &n, &err), 0);
    HS_CHECK_INT(n, 2);
    if (n == 2)
        HS_CHECK_STR(list[1].name, "second");
    free(list);

    /* 10 tasks in one batch; lease 3, finish 2, fail 1. */
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    for (int i = 0; i < 10; i++) {
        hs_store_task_t t = { .job_id = 1, .game_id = { 5, (uint64_t)i }, .state = HS_TASK_QUEUED,
                              .move_first = 0, .move_last = 100, .move_step = 10 };
        HS_CHECK_INT(hs_store_task_create(s, &t, &err), 0);
        HS_CHECK_INT(t.id, i + 1);
        HS_CHECK_INT(hs_store_task_positions(&t), 11);
    }
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    for (uint64_t id = 1; id <= 3; id++) {
        hs_store_task_t t;
        HS_CHECK_INT(hs_store_task_get(s, id, &t, &err), 0);
        t.state = HS_TASK_LEASED;
        t.attempts++;
        HS_CHECK_INT(hs_store_task_put(s, &t, &err), 0);
    }
    hs_store_task_t t;
    HS_CHECK_INT(hs_store_task_get(s, 1, &t, &err), 0);
    t.state = HS_TASK_DONE;
    HS_CHECK_INT(hs_store_task_put(s, &t, &err), 0);
    HS_CHECK_INT(hs_store_task_get(s, 2, &t, &err), 0);
    t.state = HS_TASK_FAILED;
    snprintf(t.reason, sizeof t.reason, "engine crashed 3 times");
    HS_CHECK_INT(hs_store_task_put(s, &t, &err), 0);
    HS_CHECK_INT(hs_store_task_get(s, 2, &t, &err), 0);
    HS_CHECK_STR(t.reason, "engine crashed 3 times");
    HS_CHECK_INT(t.attempts, 1);
    HS_CHECK(t.game_id[0] == 5 && t.game_id[1] == 1);
    int64_t cnt[HS_TASK_STATE_COUNT];
    for (int st = 0; st < HS_TASK_STATE_COUNT; st++)
        HS_CHECK_INT(hs_store_task_count(s, (hs_task_state_t)st, &cnt[st], &err), 0);
    HS_CHECK_INT(cnt[HS_TASK_QUEUED], 7);
    HS_CHECK_INT(cnt[HS_TASK_LEASED], 1);
    HS_CHECK_INT(cnt[HS_TASK_DONE], 1);
    HS_CHECK_INT(cnt[HS_TASK_FAILED], 1);
    s_tasks_t c = { 0 };
    HS_CHECK_INT(hs_store_task_each(s, HS_TASK_QUEUED, s_collect_task, &c, &err), 0);
    HS_CHECK_INT(c.n, 7);
    HS_CHECK_INT(c.ids[0], 4);
    HS_CHECK_INT(c.ids[6], 10);
    /* The games of a job: a game stored by job 1 and analysed again by job 2
     * belongs to both (outside a batch too, and added twice is no error). */
    hs_game_t gm;
    s_game(&gm, 7, "A", "B", 4);
    HS_CHECK_INT(hs_store_game_put(s, &gm, "g.sgf", 1, NULL, &err), 0);
    bool has = false;
    HS_CHECK_INT(hs_store_job_game_add(s, 1, gm.id, &has, &err), 0);
    HS_CHECK_INT(has, 0);
    HS_CHECK_INT(hs_store_job_game_add(s, 2, gm.id, NULL, &err), 0);
    HS_CHECK_INT(hs_store_job_game_add(s, 2, gm.id, &has, &err), 0);
    HS_CHECK_INT(has, 1);
    for (uint64_t jid = 1; jid <= 3; jid++) {
        HS_CHECK_INT(hs_store_job_has_game(s, jid, gm.id, &has, &err), 0);
        HS_CHECK_INT(has, jid <= 2);
    }
    HS_CHECK_STR(hs_task_state_name(HS_TASK_LEASED), "leased");
    HS_CHECK_STR(hs_job_state_name(HS_JOB_CANCELED), "canceled");
    hs_store_close(&s);
    /* The journal survives a reopen (what a broker restart sees). */
    HS_CHECK_INT(hs_store_open(&s, dir, 0, 0, &err), 0);
    if (s) {
        HS_CHECK_INT(hs_store_task_count(s, HS_TASK_LEASED, &cnt[0], &err), 0);
        HS_CHECK_INT(cnt[0], 1);
        hs_store_job_t nj = j;
        HS_CHECK_INT(hs_store_job_create(s, &nj, &err), 0);
        HS_CHECK_INT(nj.id, 3);
        hs_store_close(&s);
    }
    s_rm_dir(dir);
}

/* One writer at a time (store/store_space.c): a second writer of the same
 * folder is refused with HS_EAGAIN and a message that says why, before LMDB
 * touches the file; once the first closes, the next one opens. (Readers take
 * no lock: test_reader_process reads beside a writer.) */
static void test_one_writer(void)
{
    const char *dir = s_newdir("lock");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    hs_store_t *w = NULL, *w2 = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&w, dirbuf, HS_STORE_NOSYNC, 0, &err), 0);
    HS_CHECK_INT(hs_store_open(&w2, dirbuf, HS_STORE_NOSYNC, 0, &err), HS_EAGAIN);
    HS_CHECK(w2 == NULL && strstr(err.msg, "another process is writing this store") != NULL);
    HS_CHECK_INT(hs_store_open(&w2, dirbuf, 0, 0, &err), HS_EAGAIN);   /* synced too */
    hs_store_close(&w);
    HS_CHECK_INT(hs_store_open(&w2, dirbuf, HS_STORE_NOSYNC, 0, &err), 0);
    hs_store_close(&w2);
    s_rm_dir(dirbuf);
}

static int s_count_names(void *ctx, const char *name, int64_t games)
{
    (void)name;
    (void)games;
    ++*(int64_t *)ctx;
    return 0;
}

/* stats' players: distinct names, not index entries (two a game). A name that
 * begins another ("A" of "A B") is a name of its own; stats agrees with the
 * names `query players` lists, committed or in the open batch. */
static void test_players_count(void)
{
    const char *dir = s_newdir("players");
    hs_store_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_store_open(&s, dir, HS_STORE_NOSYNC, 0, &err), 0);
    if (!s)
        return;
    hs_store_stats_t st;
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
    HS_CHECK_INT(st.players, 0);
    hs_game_t g;
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    s_game(&g, 1, "A", "B", 4);
    HS_CHECK_INT(hs_store_game_put(s, &g, "1.sgf", 1, NULL, &err), 0);
    s_game(&g, 2, "A", "C", 4);
    HS_CHECK_INT(hs_store_game_put(s, &g, "2.sgf", 1, NULL, &err), 0);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
    HS_CHECK_INT(st.players, 3);
    HS_CHECK_INT(hs_store_begin(s, &err), 0);
    s_game(&g, 3, "A B", "A", 4);
    HS_CHECK_INT(hs_store_game_put(s, &g, "3.sgf", 1, NULL, &err), 0);
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);   /* the batch's own view */
    HS_CHECK_INT(st.players, 4);
    HS_CHECK_INT(hs_store_commit(s, &err), 0);
    int64_t listed = 0;
    HS_CHECK_INT(hs_store_players_each(s, "", s_count_names, &listed, &err), 0);
    HS_CHECK_INT(hs_store_stats(s, &st, &err), 0);
    HS_CHECK_INT(st.players, 4);
    HS_CHECK_INT(listed, st.players);
    hs_store_close(&s);
    s_rm_dir(dir);
}

int main(void)
{
    test_games_and_evals();
    test_players_count();
    test_reader_process();
    test_journal();
    test_one_writer();
    return hs_test_finish();
}
