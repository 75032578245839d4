/*
 * tests/test_engines.c — the engine registry and the worker's task → result
 * path without a broker: engine names and lists, the area count, the judge's
 * last-position rule, engine revisions and canonical specs, and the worker's
 * incremental replay (hs__worker_eval_task) against hs_game_replay.
 */
#include <stdlib.h>
#include <string.h>

#include "core/wire.h"
#include "test.h"
#include "wall_game.h"
#include "worker/engine.h"
#include "worker/worker_internal.h"

static void s_test_engines(void)
{
    HS_CHECK(hs_engine_find("noop") != NULL);
    HS_CHECK(hs_engine_find("area") != NULL);
    HS_CHECK(hs_engine_find("nonesuch") == NULL);
    HS_CHECK_INT(hs_engine_check_list("noop,area", 16, NULL), 0);
    HS_CHECK_INT(hs_engine_check_list("noop,noop", 16, NULL), HS_EINVAL);
    HS_CHECK_INT(hs_engine_check_list("nonesuch", 16, NULL), HS_ENOTFOUND);
    HS_CHECK_INT(hs_engine_check_list("", 16, NULL), HS_EINVAL);

    /* area count of a small position: Black wall on column 1, White on 3 (5x5). */
    hs_board_t b;
    hs_board_init(&b, 5);
    for (int y = 0; y < 5; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 1, y), HS_BLACK);
        hs_board_set_stone(&b, hs_board_point(&b, 3, y), HS_WHITE);
    }
    float bp, wp;
    int8_t own[25];
    hs_engine_area_count(&b, &bp, &wp, own);
    HS_CHECK(bp == 10.0f);   /* 5 stones + column 0 */
    HS_CHECK(wp == 10.0f);   /* 5 stones + column 4 */
    HS_CHECK_INT(own[0], 100);
    HS_CHECK_INT(own[2], 0);     /* column 2 touches both: dame */
    HS_CHECK_INT(own[4], -100);

    /* The "judge" engine counts only a record's last position as finished
     * (judge.h, relaxed_kill): walls on columns d and e of 9x9 with one enemy
     * stone in each side's area (tests/data/judge/dead_stones.t). As the last
     * position both stones are dead; one move earlier in the same record (the
     * stones already there) both are unsettled, so alive. */
    static hs_engine_result_t res;
    hs_engine_t eng;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_engine_init(&eng, "judge", NULL, &err), 0);
    hs_board_init(&b, 9);
    for (int y = 0; y < 9; y++) {
        hs_board_set_stone(&b, hs_board_point(&b, 3, y), HS_BLACK);
        hs_board_set_stone(&b, hs_board_point(&b, 4, y), HS_WHITE);
    }
    hs_board_set_stone(&b, hs_board_point(&b, 1, 1), HS_WHITE);
    hs_board_set_stone(&b, hs_board_point(&b, 7, 2), HS_BLACK);
    hs_game_t g;
    hs_game_init(&g, 9);
    hs_game_move_t pass = { .vertex = HS_GAME_PASS, .color = HS_BLACK };
    g.moves = &pass;
    g.num_moves = 1;
    hs_engine_pos_t pos = { .game = &g, .board = &b, .move_number = 1 };
    HS_CHECK_INT(hs_engine_evaluate(&eng, &pos, 1, &res, &err), 0);
    HS_CHECK(res.classes[1 * 9 + 1] == 'o' && res.classes[2 * 9 + 7] == 'x');
    pos.move_number = 0;
    HS_CHECK_INT(hs_engine_evaluate(&eng, &pos, 1, &res, &err), 0);
    HS_CHECK(res.classes[1 * 9 + 1] == 'O' && res.classes[2 * 9 + 7] == 'X');
    hs_engine_fini(&eng);
}

/* Engine revisions (engine.h): canonical specs, and what a build may compute. */
static void s_test_revisions(void)
{
    char out[256];
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_engine_canonical_list("judge,noop:delay_us=1", 16, HS_ENGINE_THIS_BUILD,
                                          out, sizeof out, &err), 0);
    HS_CHECK_STR(out, "judge,noop:delay_us=1");     /* revision 1 is written bare */
    HS_CHECK_INT(hs_engine_canonical_list("judge@1:final_mc=0,area@1", 16, 0, out,
                                          sizeof out, &err), 0);
    HS_CHECK_STR(out, "judge:final_mc=0,area");
    HS_CHECK_INT(hs_engine_canonical_list("noop@2:delay_us=5", 16, 0, out, sizeof out, &err), 0);
    HS_CHECK_STR(out, "noop@2:delay_us=5");         /* for other workers to serve */
    HS_CHECK(hs_engine_config_id("noop@2") != hs_engine_config_id("noop"));
    HS_CHECK_INT(hs_engine_canonical_list("noop@2", 16, HS_ENGINE_THIS_BUILD, out, sizeof out,
                                          &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "revision 1, not 2") != NULL);
    const char *bad[] = { "noop@", "noop@0", "noop@x", "noop@2x", "noop@10000", "@2" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        HS_CHECK_INT(hs_engine_canonical_list(bad[i], 16, 0, out, sizeof out, NULL), HS_EINVAL);
    HS_CHECK_INT(hs_engine_canonical_list("nonesuch@2", 16, 0, out, sizeof out, NULL),
                 HS_ENOTFOUND);
    HS_CHECK_INT(hs_engine_canonical_list("noop,area", 16, 0, out, 8, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "too long") != NULL);
    HS_CHECK_INT(hs_engine_check_list("noop,noop@1", 16, &err), HS_EINVAL);   /* one spec */
    HS_CHECK(strstr(err.msg, "listed twice") != NULL);
    HS_CHECK_INT(hs_engine_check_list("noop@2,area", 16, NULL), 0);

    hs_engine_t eng;
    HS_CHECK_INT(hs_engine_init(&eng, "area@1", NULL, &err), 0);
    hs_engine_fini(&eng);
    HS_CHECK_INT(hs_engine_init(&eng, "area@2", NULL, &err), HS_EINVAL);
    HS_CHECK(eng.vt == NULL && strstr(err.msg, "revision 1") != NULL);
}

/* The worker's incremental replay gives the same positions (and so the same
 * position keys) as hs_game_replay, setup stones included, across batch flushes. */
static void s_test_eval(void)
{
    hs_game_t g;
    hs_test_wall_game(&g, 9, 30, 5, 7.0);
    g.setup = calloc(2, sizeof *g.setup);
    g.setup[0] = (hs_game_setup_t){ .vertex = 4 * 9 + 4, .color = HS_BLACK };   /* e5 */
    g.setup[1] = (hs_game_setup_t){ .vertex = 8 * 9 + 4, .color = HS_BLACK };   /* e1 */
    g.num_setup = 2;
    g.handicap = 2;
    for (int k = 0; k < g.num_moves; k++)          /* White starts after handicap */
        g.moves[k].color = g.moves[k].color == HS_BLACK ? HS_WHITE : HS_BLACK;
    hs_game_compute_id(&g);

    hs_wire_task_t t;
    memset(&t, 0, sizeof t);
    t.task_id = 7;
    t.job_id = 3;
    t.game.game = g;
    int nums[16], n = 0;
    for (int m = 0; m <= g.num_moves; m += 3)
        nums[n++] = m;
    t.move_numbers = nums;
    t.num_move_numbers = n;
    char *engines[2] = { "area", "noop" };
    t.engines = engines;
    t.num_engines = 2;

    hs__eval_ctx_t *x = calloc(1, sizeof *x);
    x->batch_max = 4;   /* several flushes per task */
    hs_wire_buf_t buf = { 0 };
    uint64_t positions = 0;
    int failed = -1;
    HS_CHECK_INT(hs__worker_eval_task(x, &t, &buf, &positions, &failed), 0);
    HS_CHECK_INT(failed, 0);
    HS_CHECK_INT(positions, n);
    hs_wire_msg_t m;
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &m, NULL), 0);
    HS_CHECK_INT(m.type, HS_WIRE_RESULT);
    HS_CHECK_INT(m.result.task_id, 7);
    HS_CHECK_INT(m.result.num_evals, 2 * n);
    HS_CHECK(m.result.error == NULL);
    int area_seen = 0;
    for (int i = 0; i < m.result.num_evals; i++) {
        const hs_eval_t *e = &m.result.evals[i];
        hs_board_t b;
        uint8_t key[16];
        HS_CHECK_INT(hs_game_replay(&g, e->move_number, &b, NULL), 0);
        hs_position_key(&b, &g, e->move_number, key);
        HS_CHECK(memcmp(key, e->pos_key, 16) == 0);
        if (e->engine_id == hs_engine_config_id("area")) {
            float bp, wp;
            hs_engine_area_count(&b, &bp, &wp, NULL);
            HS_CHECK(e->score_lead == bp - wp - (float)g.komi);
            HS_CHECK(e->ownership != NULL);
            area_seen++;
        } else {
            HS_CHECK_INT(e->engine_id, hs_engine_config_id("noop"));
        }
    }
    HS_CHECK_INT(area_seen, n);
    hs_wire_msg_fini(&m);

    /* An illegal move in the record: the task fails with the reason. */
    g.moves[4].vertex = g.moves[2].vertex;   /* onto an occupied point */
    t.game.game = g;
    HS_CHECK_INT(hs__worker_eval_task(x, &t, &buf, &positions, &failed), 0);
    HS_CHECK_INT(failed, 1);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &m, NULL), 0);
    HS_CHECK(m.result.error != NULL && strstr(m.result.error, "move 5") != NULL);
    HS_CHECK_INT(m.result.num_evals, 0);
    hs_wire_msg_fini(&m);

    hs__engine_cache_fini(&x->cache);
    free(x);
    hs_wire_buf_free(&buf);
    hs_game_fini(&g);
}

int main(void)
{
    s_test_engines();
    s_test_revisions();
    s_test_eval();
    return hs_test_finish();
}
