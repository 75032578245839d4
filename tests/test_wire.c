/*
 * tests/test_wire.c — the wire codec (core/wire.h): round trips of every message
 * type, rejection of truncated, garbage, off-board and oversized input with
 * HS_EPROTO, and 10,000 random mutations that must never crash (run under
 * ASan/UBSan). Position keys are tests/test_poskey.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/poskey.h"
#include "core/rules.h"
#include "core/wire.h"
#include "test.h"

/* A small deterministic PRNG so failures reproduce. */
static uint64_t s_rng = 0x9e3779b97f4a7c15ull;
static uint32_t s_rand(void)
{
    s_rng ^= s_rng << 13;
    s_rng ^= s_rng >> 7;
    s_rng ^= s_rng << 17;
    return (uint32_t)(s_rng >> 11);
}

static hs_game_move_t s_moves[] = {
    { 3 * 9 + 3, HS_BLACK }, { 5 * 9 + 5, HS_WHITE }, { HS_GAME_PASS, HS_BLACK },
    { 2 * 9 + 6, HS_WHITE }, { 0, HS_BLACK },
};
static hs_game_setup_t s_setup[] = { { 40, HS_BLACK }, { 41, HS_WHITE } };

static void s_game(hs_wire_game_t *w, bool meta)
{
    memset(w, 0, sizeof *w);
    hs_game_t *g = &w->game;
    g->size = 9;
    g->komi = 7.5;
    g->rules = hs_rules_get(HS_RULES_CHINESE);
    g->handicap = 0;
    g->num_setup = 2;
    g->setup = s_setup;
    g->num_moves = 5;
    g->moves = s_moves;
    g->id[0] = 0x0123456789abcdefull;
    g->id[1] = 0xfedcba9876543210ull;
    if (meta) {
        g->black = "이세돌";
        g->white = "Alpha \"Go\"";
        g->result_raw = "W+R";
        g->date = "2016-03-09";
    }
    w->source = "archive.tar.gz:a/b.sgf";
}

/* Encodes m, decodes it into *out; checks both succeed. */
static int s_roundtrip(const hs_wire_msg_t *m, hs_wire_msg_t *out, hs_wire_buf_t *buf)
{
    hs_error_t err;
    int rc = hs_wire_encode(m, buf, &err);
    HS_CHECK_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "encode %s: %s\n", hs_wire_type_name(m->type), err.msg);
        return rc;
    }
    rc = hs_wire_decode(buf->data, buf->len, out, &err);
    HS_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "decode %s: %s\n", hs_wire_type_name(m->type), err.msg);
    else
        HS_CHECK_INT(out->type, m->type);
    return rc;
}

static void s_check_game(const hs_wire_game_t *a, const hs_wire_game_t *b)
{
    HS_CHECK_INT(b->game.size, a->game.size);
    HS_CHECK(b->game.komi == a->game.komi);
    HS_CHECK_INT(b->game.rules.id, a->game.rules.id);
    HS_CHECK_INT(b->game.num_moves, a->game.num_moves);
    HS_CHECK_INT(b->game.num_setup, a->game.num_setup);
    HS_CHECK(b->game.id[0] == a->game.id[0] && b->game.id[1] == a->game.id[1]);
    for (int i = 0; i < a->game.num_moves && i < b->game.num_moves; i++) {
        HS_CHECK_INT(b->game.moves[i].vertex, a->game.moves[i].vertex);
        HS_CHECK_INT(b->game.moves[i].color, a->game.moves[i].color);
    }
    for (int i = 0; i < a->game.num_setup && i < b->game.num_setup; i++)
        HS_CHECK_INT(b->game.setup[i].vertex, a->game.setup[i].vertex);
    if (a->game.black)
        HS_CHECK_STR(b->game.black, a->game.black);
    if (a->source)
        HS_CHECK_STR(b->source, a->source);
    else
        HS_CHECK(b->source == NULL);
}

static int8_t s_own[81];
static int16_t s_infl[81];
static char s_classes[82];

static void s_eval(hs_eval_t *e, int mn)
{
    memset(e, 0, sizeof *e);
    e->move_number = mn;
    for (int i = 0; i < 16; i++)
        e->pos_key[i] = (uint8_t)(i * 7 + mn);
    e->engine_id = hs_engine_config_id("judge");
    e->size = 9;
    e->score_lead = -3.5f;
    e->win_rate = 0.25f;
    for (int i = 0; i < 81; i++) {
        s_own[i] = (int8_t)(i % 201 - 100);
        s_infl[i] = (int16_t)(i * 401 - 16000);
        s_classes[i] = "BWbw.xX"[i % 7];
    }
    s_classes[81] = 0;
    e->ownership = s_own;
    e->influence = s_infl;
    e->classes = s_classes;
    e->result = "B+3.5";
    e->timing_us = 1234;
}

static char *s_eng[] = { "judge", "influence" };

/* Builds a valid message of every type into msgs[] (pointing at static data). */
static int s_build_all(hs_wire_msg_t *msgs, hs_wire_game_t *games, hs_eval_t *evals,
                       int *mns, hs_wire_job_status_t *jobs)
{
    int n = 0;
    hs_wire_msg_t *m;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_READY);
    m->ready.name = "host:123"; m->ready.engines = s_eng; m->ready.num_engines = 2;
    m->ready.threads = 8; m->ready.gpus = 1; m->ready.credit = 16;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_HEARTBEAT);
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_DISCONNECT);
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_TASK);
    s_game(&games[0], false);
    games[0].source = NULL;
    m->task.task_id = 77; m->task.job_id = 3; m->task.game = games[0];
    mns[0] = 0; mns[1] = 2; mns[2] = 5;
    m->task.move_numbers = mns; m->task.num_move_numbers = 3;
    m->task.engines = s_eng; m->task.num_engines = 2;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_RESULT);
    s_eval(&evals[0], 0);
    s_eval(&evals[1], 5);
    evals[1].influence = NULL;
    evals[1].win_rate = NAN;
    evals[1].error = "engine crashed";
    m->result.task_id = 77; m->result.job_id = 3;
    m->result.game_id[0] = 1; m->result.game_id[1] = 2;
    m->result.evals = evals; m->result.num_evals = 2;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_SUBMIT);
    s_game(&games[1], true);
    memset(&games[2], 0, sizeof games[2]);
    games[2].source = "broken.sgf";
    games[2].error = "syntax error at line 3";
    m->submit.job_name = "pro19"; m->submit.engines = s_eng; m->submit.num_engines = 1;
    m->submit.moves_spec = "every:2"; m->submit.games = &games[1]; m->submit.num_games = 2;
    m->submit.last = true;
    m->submit.token = "0123456789abcdef0123456789abcdef";
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_SUBMIT_REPLY);
    m->submit_reply.job_id = 9; m->submit_reply.credit = 64; m->submit_reply.accepted = 2;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_STATUS); m->job_id = 9;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_STATUS_REPLY);
    jobs[0] = (hs_wire_job_status_t){ 9, "pro19", "running", 100, 50, 2, 20000, 9000, 1234.5, true,
                                      NULL };
    jobs[1] = (hs_wire_job_status_t){ 10, "x", "failed", 1, 1, 0, 10, 10, 0, true,
                                      "upload abandoned" };
    m->status_reply.jobs = jobs; m->status_reply.num_jobs = 2; m->status_reply.workers = 3;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_CANCEL); m->job_id = 9;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_CANCEL_REPLY);
    m->cancel_reply.job_id = 9; m->cancel_reply.canceled = true;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_WATCH); m->job_id = 0;
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_QUERY); m->text = "game 0123 --move 5";
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_QUERY_REPLY); m->text = "{\"a\":1}\n";
    m = &msgs[n++]; hs_wire_msg_init(m, HS_WIRE_ERROR);
    m->error.code = HS_EPROTO; m->error.reason = "bad message";
    return n;
}

/* Writes each valid message to $HS_WIRE_CORPUS/NAME (fuzz seed corpus). */
static void s_write_corpus(const hs_wire_msg_t *msgs, int n)
{
    const char *dir = getenv("HS_WIRE_CORPUS");
    if (!dir)
        return;
    hs_wire_buf_t buf = { 0 };
    for (int i = 0; i < n; i++) {
        if (hs_wire_encode(&msgs[i], &buf, NULL))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, hs_wire_type_name(msgs[i].type));
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(buf.data, 1, buf.len, f);
            fclose(f);
        }
    }
    hs_wire_buf_free(&buf);
}

static void test_roundtrips(void)
{
    hs_wire_msg_t msgs[20];
    hs_wire_game_t games[3];
    hs_eval_t evals[2];
    int mns[3];
    hs_wire_job_status_t jobs[2];
    int n = s_build_all(msgs, games, evals, mns, jobs);
    HS_CHECK_INT(n, HS_WIRE_TYPE_COUNT - 1);   /* every type is covered */
    s_write_corpus(msgs, n);
    hs_wire_buf_t buf = { 0 };
    for (int i = 0; i < n; i++) {
        hs_wire_msg_t *a = &msgs[i], b;
        if (s_roundtrip(a, &b, &buf))
            continue;
        switch (a->type) {
        case HS_WIRE_READY:
            HS_CHECK_STR(b.ready.name, "host:123");
            HS_CHECK_INT(b.ready.num_engines, 2);
            HS_CHECK_STR(b.ready.engines[1], "influence");
            HS_CHECK_INT(b.ready.threads, 8);
            HS_CHECK_INT(b.ready.gpus, 1);
            HS_CHECK_INT(b.ready.credit, 16);
            break;
        case HS_WIRE_TASK:
            HS_CHECK_INT(b.task.task_id, 77);
            HS_CHECK_INT(b.task.job_id, 3);
            s_check_game(&a->task.game, &b.task.game);
            HS_CHECK_INT(b.task.game.game.rules.id, HS_RULES_CHINESE);
            HS_CHECK_INT(b.task.game.game.rules.scoring, HS_SCORING_AREA);
            HS_CHECK_INT(b.task.num_move_numbers, 3);
            HS_CHECK_INT(b.task.move_numbers[2], 5);
            HS_CHECK_STR(b.task.engines[0], "judge");
            HS_CHECK(b.task.game.source == NULL);
            break;
        case HS_WIRE_RESULT: {
            HS_CHECK_INT(b.result.num_evals, 2);
            HS_CHECK(b.result.game_id[0] == 1 && b.result.game_id[1] == 2);
            const hs_eval_t *x = &b.result.evals[0], *y = &b.result.evals[1];
            HS_CHECK(!memcmp(x->pos_key, evals[0].pos_key, 16));
            HS_CHECK_INT(x->engine_id, evals[0].engine_id);
            HS_CHECK(x->score_lead == -3.5f && x->win_rate == 0.25f);
            HS_CHECK(x->ownership && !memcmp(x->ownership, s_own, 81));
            HS_CHECK(x->influence && !memcmp(x->influence, s_infl, sizeof s_infl));
            HS_CHECK_STR(x->classes, s_classes);
            HS_CHECK_STR(x->result, "B+3.5");
            HS_CHECK_INT(x->timing_us, 1234);
            HS_CHECK(x->error == NULL);
            HS_CHECK_INT(y->move_number, 5);
            HS_CHECK(y->influence == NULL && isnan(y->win_rate));
            HS_CHECK_STR(y->error, "engine crashed");
            break;
        }
        case HS_WIRE_SUBMIT:
            HS_CHECK_STR(b.submit.job_name, "pro19");
            HS_CHECK_STR(b.submit.moves_spec, "every:2");
            HS_CHECK_INT(b.submit.num_games, 2);
            s_check_game(&a->submit.games[0], &b.submit.games[0]);
            HS_CHECK_STR(b.submit.games[0].game.white, "Alpha \"Go\"");
            HS_CHECK_STR(b.submit.games[0].game.result_raw, "W+R");
            HS_CHECK_STR(b.submit.games[1].error, "syntax error at line 3");
            HS_CHECK_STR(b.submit.games[1].source, "broken.sgf");
            HS_CHECK(b.submit.last);
            HS_CHECK_STR(b.submit.token, "0123456789abcdef0123456789abcdef");
            break;
        case HS_WIRE_SUBMIT_REPLY:
            HS_CHECK_INT(b.submit_reply.job_id, 9);
            HS_CHECK_INT(b.submit_reply.credit, 64);
            HS_CHECK_INT(b.submit_reply.accepted, 2);
            break;
        case HS_WIRE_STATUS: case HS_WIRE_CANCEL:
            HS_CHECK_INT(b.job_id, 9);
            break;
        case HS_WIRE_STATUS_REPLY:
            HS_CHECK_INT(b.status_reply.num_jobs, 2);
            HS_CHECK_INT(b.status_reply.workers, 3);
            HS_CHECK_STR(b.status_reply.jobs[0].state, "running");
            HS_CHECK_INT(b.status_reply.jobs[0].positions_done, 9000);
            HS_CHECK(b.status_reply.jobs[0].rate == 1234.5);
            HS_CHECK(b.status_reply.jobs[0].reason == NULL);
            HS_CHECK_STR(b.status_reply.jobs[1].reason, "upload abandoned");
            break;
        case HS_WIRE_CANCEL_REPLY:
            HS_CHECK(b.cancel_reply.canceled);
            break;
        case HS_WIRE_QUERY: case HS_WIRE_QUERY_REPLY:
            HS_CHECK_STR(b.text, a->text);
            break;
        case HS_WIRE_ERROR:
            HS_CHECK_INT(b.error.code, HS_EPROTO);
            HS_CHECK_STR(b.error.reason, "bad message");
            break;
        default:
            break;
        }
        hs_wire_msg_fini(&b);
    }
    hs_wire_buf_free(&buf);
}

static void s_expect_proto(const void *data, size_t len, const char *what)
{
    hs_wire_msg_t m;
    hs_error_t err;
    hs_error_clear(&err);
    int rc = hs_wire_decode(data, len, &m, &err);
    HS_CHECK_INT(rc, HS_EPROTO);
    if (rc != HS_EPROTO) {
        fprintf(stderr, "  (%s was accepted)\n", what);
        hs_wire_msg_fini(&m);
    } else {
        HS_CHECK(err.msg[0] != '\0');
    }
}

static void test_rejections(void)
{
    hs_wire_msg_t msgs[20];
    hs_wire_game_t games[3];
    hs_eval_t evals[2];
    int mns[3];
    hs_wire_job_status_t jobs[2];
    int n = s_build_all(msgs, games, evals, mns, jobs);
    hs_wire_buf_t buf = { 0 };
    hs_error_t err;
    /* Every strict prefix of every message is rejected. */
    for (int i = 0; i < n; i++) {
        HS_CHECK_INT(hs_wire_encode(&msgs[i], &buf, &err), 0);
        int bad = 0;
        for (size_t len = 0; len < buf.len; len++) {
            hs_wire_msg_t m;
            if (hs_wire_decode(buf.data, len, &m, NULL) != HS_EPROTO) {
                bad++;
                hs_wire_msg_fini(&m);
            }
        }
        HS_CHECK_INT(bad, 0);
        /* and one trailing byte too many */
        uint8_t *copy = malloc(buf.len + 1);
        memcpy(copy, buf.data, buf.len);
        copy[buf.len] = 0xC0;
        s_expect_proto(copy, buf.len + 1, "trailing byte");
        free(copy);
    }
    /* Wrong version. */
    const uint8_t v2[] = { 0x92, 0x02, 0x02 };
    s_expect_proto(v2, sizeof v2, "version 2");
    const uint8_t unknown_type[] = { 0x92, 0x01, 0x63 };
    s_expect_proto(unknown_type, sizeof unknown_type, "type 99");
    const uint8_t not_array[] = { 0xA3, 'a', 'b', 'c' };
    s_expect_proto(not_array, sizeof not_array, "a string body");
    /* A huge declared count must be rejected without allocating it. */
    const uint8_t huge[] = { 0x97, 0x01, 0x03, 0x01, 0x01, 0xC4, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,
                             0, 0, 0, 0, 0, 0, 0, 0, 0xDD, 0xFF, 0xFF, 0xFF, 0xFF };
    s_expect_proto(huge, sizeof huge, "4 billion evals");
    const uint8_t huge_str[] = { 0x93, 0x01, 0x0D, 0xDB, 0x7F, 0xFF, 0xFF, 0xFF, 'x' };
    s_expect_proto(huge_str, sizeof huge_str, "2 GB string");
    uint8_t deep[200];
    memset(deep, 0x91, sizeof deep);
    s_expect_proto(deep, sizeof deep, "deep nesting");
    s_expect_proto(NULL, 0, "empty");

    /* Bad coordinates: a move off a 9x9 board, a setup colour 3, a move number past
     * the game, decreasing move numbers. The encoder only checks counts, so these
     * reach the decoder. */
    hs_wire_msg_t t = msgs[3];
    hs_game_move_t moves[5];
    memcpy(moves, s_moves, sizeof moves);
    moves[2].vertex = 81;
    t.task.game.game.moves = moves;
    HS_CHECK_INT(hs_wire_encode(&t, &buf, &err), 0);
    s_expect_proto(buf.data, buf.len, "vertex 81 on 9x9");
    moves[2].vertex = 80;
    moves[3].color = 0;
    HS_CHECK_INT(hs_wire_encode(&t, &buf, &err), 0);
    s_expect_proto(buf.data, buf.len, "move colour 0");
    moves[3].color = HS_WHITE;
    hs_game_setup_t setup[2] = { { 10, 3 }, { 11, HS_WHITE } };
    t.task.game.game.setup = setup;
    HS_CHECK_INT(hs_wire_encode(&t, &buf, &err), 0);
    s_expect_proto(buf.data, buf.len, "setup colour 3");
    t.task.game.game.setup = s_setup;
    t.task.game.game.size = 26;
    HS_CHECK_INT(hs_wire_encode(&t, &buf, &err), HS_EINVAL);   /* encoder refuses */
    t.task.game.game.size = 9;
    /* Move numbers past the game / not increasing: the encoder refuses both. */
    int bad_mns[2] = { 3, 6 };
    t.task.move_numbers = bad_mns;
    t.task.num_move_numbers = 2;
    HS_CHECK_INT(hs_wire_encode(&t, &buf, &err), HS_EINVAL);
    /* The decoder too: patch the encoded "5" (last move number) into a 6. */
    t.task.move_numbers = mns;
    t.task.num_move_numbers = 3;
    HS_CHECK_INT(hs_wire_encode(&t, &buf, &err), 0);
    /* layout tail: ... [0,2,5] [ "judge", "influence" ] -> find 0x93 00 02 05 */
    int patched = 0;
    for (size_t i = 0; i + 3 < buf.len; i++)
        if (buf.data[i] == 0x93 && buf.data[i + 1] == 0 && buf.data[i + 2] == 2
            && buf.data[i + 3] == 5) {
            buf.data[i + 3] = 6;
            patched = 1;
            break;
        }
    HS_CHECK(patched);
    s_expect_proto(buf.data, buf.len, "move number 6 of a 5-move game");
    /* Ownership out of range and wrong-length arrays in a RESULT. */
    hs_wire_msg_t r = msgs[4];
    hs_eval_t ev[2] = { evals[0], evals[1] };
    r.result.evals = ev;
    int8_t own[81];
    memcpy(own, s_own, sizeof own);
    own[5] = 101;
    ev[0].ownership = own;
    HS_CHECK_INT(hs_wire_encode(&r, &buf, &err), HS_EINVAL);
    ev[0].ownership = s_own;
    ev[0].classes = "short";
    HS_CHECK_INT(hs_wire_encode(&r, &buf, &err), HS_EINVAL);
    hs_wire_buf_free(&buf);

    bool w;
    HS_CHECK_INT(hs_wire_check_magic("HSW1", 4, &w, NULL), 0);
    HS_CHECK(w);
    HS_CHECK_INT(hs_wire_check_magic("HSC1", 4, &w, NULL), 0);
    HS_CHECK(!w);
    HS_CHECK_INT(hs_wire_check_magic("HSW2", 4, &w, NULL), HS_EPROTO);
    HS_CHECK_INT(hs_wire_check_magic("HSW1x", 5, &w, NULL), HS_EPROTO);
    HS_CHECK_STR(hs_wire_magic_for(HS_WIRE_TASK), HS_WIRE_MAGIC_WORKER);
    HS_CHECK_STR(hs_wire_magic_for(HS_WIRE_SUBMIT), HS_WIRE_MAGIC_CLIENT);
}

/* Random mutations of valid messages: decode must never crash; whatever it accepts
 * must re-encode (so the decoder never lets through what the encoder refuses). */
/* The token and the job reason are later additions: a SUBMIT / job without them
 * encodes as before (8 / 10 fields) and decodes with NULL; an empty token is
 * refused both ways. */
static void test_optional_fields(void)
{
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit.engines = s_eng;
    m.submit.num_engines = 1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x98);   /* fixarray of 8: no token field */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.submit.token == NULL);
    hs_wire_msg_fini(&d);
    m.submit.token = "";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    m.submit.token = "abc";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x99);
    /* Hand-edit the token to an empty string: the decoder refuses it. */
    HS_CHECK_INT(buf.data[buf.len - 4], 0xa3);
    buf.data[buf.len - 4] = 0xa0;
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len - 3, &d, &err), HS_EPROTO);
    hs_wire_buf_free(&buf);
}

/* The net's eval fields 12-13 (spread, top policy moves): absent, an eval is
 * 12 fields as before; present, 14, read back exactly; a move off the board
 * or a bad count is refused by the encoder and the decoder. */
static void test_net_eval_fields(void)
{
    hs_eval_t e;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    s_eval(&e, 3);
    HS_CHECK_INT(hs_wire_encode_eval(&e, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x9c);   /* fixarray of 12 */
    e.score_stdev = 12.25f;
    e.num_policy = 3;
    e.policy[0] = (hs_eval_move_t){ 40, 50000 };
    e.policy[1] = (hs_eval_move_t){ HS_GAME_PASS, 9000 };
    e.policy[2] = (hs_eval_move_t){ 80, 1 };
    hs_wire_msg_t m, d;
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    m.result.task_id = 9;
    m.result.evals = &e;
    m.result.num_evals = 1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    if (d.result.num_evals == 1) {
        const hs_eval_t *g = &d.result.evals[0];
        HS_CHECK(g->score_stdev == 12.25f && g->num_policy == 3);
        HS_CHECK(!memcmp(g->policy, e.policy, 3 * sizeof e.policy[0]));
        HS_CHECK(g->ownership && !memcmp(g->ownership, e.ownership, 81));
    }
    hs_wire_msg_fini(&d);
    buf.len = 0;
    HS_CHECK_INT(hs_wire_encode_eval(&e, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x9e);   /* fixarray of 14 */
    /* Only the spread: the policy field is nil. */
    e.num_policy = 0;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.result.num_evals == 1 && d.result.evals[0].score_stdev == 12.25f &&
             d.result.evals[0].num_policy == 0);
    hs_wire_msg_fini(&d);
    e.num_policy = 1;
    e.policy[0].vertex = 81;   /* off a 9x9 board */
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    e.num_policy = 9;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    /* A decoder sees a move off the board: patch a valid one (vertex 80 -> 81). */
    e.num_policy = 1;
    e.policy[0] = (hs_eval_move_t){ 80, 7 };
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    size_t at = 0;
    for (size_t i = 0; i + 4 <= buf.len && !at; i++)
        if (!memcmp(buf.data + i, "\x50\x00\x07\x00", 4))
            at = i;
    HS_CHECK(at > 0);
    buf.data[at] = 81;
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    HS_CHECK(strstr(err.msg, "policy") != NULL);
    hs_wire_buf_free(&buf);
}

/* Replaces the first occurrence of the ASCII text `was` in buf by bytes `now`
 * of the same length: a valid message made invalid in one string only. */
static void s_patch(hs_wire_buf_t *buf, const char *was, const char *now)
{
    size_t n = strlen(was);
    for (size_t i = 0; i + n <= buf->len; i++)
        if (!memcmp(buf->data + i, was, n)) {
            memcpy(buf->data + i, now, n);
            return;
        }
    HS_CHECK(!"pattern not found in the message");
}

/* Every string from the wire is UTF-8: the encoder refuses to send anything else
 * and the decoder refuses to take it (a job name, a game's source, a RESULT's
 * error, a QUERY), with "UTF-8" in the reason; hs_wire_utf8_escape makes any
 * bytes sendable. */
static void test_utf8(void)
{
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    hs_wire_game_t g;
    s_game(&g, true);
    g.source = "dir/QQQ.sgf";
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit.engines = s_eng;
    m.submit.num_engines = 1;
    m.submit.job_name = "name\xff";
    m.submit.games = &g;
    m.submit.num_games = 1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    HS_CHECK(strstr(err.msg, "UTF-8") != NULL);
    m.submit.job_name = "JJJJ";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    hs_wire_msg_fini(&d);
    s_patch(&buf, "JJJJ", "J\xc3\x28J");   /* a lead byte without its continuation */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    HS_CHECK(strstr(err.msg, "submit.job_name") && strstr(err.msg, "UTF-8"));
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    s_patch(&buf, "QQQ", "Q\xedQ");   /* a non-UTF-8 file name */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    HS_CHECK(strstr(err.msg, "game.source") && strstr(err.msg, "UTF-8"));
    s_patch(&buf, "Q\xedQ", "Q\xc3\xa9");   /* the same bytes made valid decode again */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    hs_wire_msg_fini(&d);

    /* A RESULT's error and a QUERY's text are checked the same way. */
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    m.result.error = "EEEE";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    s_patch(&buf, "EEEE", "E\xf8" "EE");
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    hs_wire_msg_init(&m, HS_WIRE_QUERY);
    m.text = "TTTT";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    s_patch(&buf, "TTTT", "\xe2\x82T\x1f");   /* a cut 3-byte character */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);

    bool changed = true;
    char *e = hs_wire_utf8_escape("caf\xc3\xa9", 5, &changed);
    HS_CHECK_STR(e, "caf\xc3\xa9");
    HS_CHECK(!changed);
    free(e);
    e = hs_wire_utf8_escape("a\xff" "b\xc3", 4, &changed);
    HS_CHECK_STR(e, "a\\xFFb\\xC3");
    HS_CHECK(changed);
    HS_CHECK(hs_wire_utf8_valid(e, strlen(e)));
    free(e);
    HS_CHECK(!hs_wire_utf8_valid("\xed\xa0\x80", 3));   /* a surrogate */
    hs_wire_buf_free(&buf);
}

/* RESULT.permanent (field 7) and STATUS / STATUS_REPLY paging (fields 3..5 and
 * 4..5) are minor additions: absent, a message is byte for byte what older peers
 * send, and an older peer's message decodes with the defaults. */
static void test_permanent_and_paging(void)
{
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    hs_wire_msg_init(&m, HS_WIRE_RESULT);
    m.result.error = "move 5 (B cc): illegal";
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x97);   /* 7 fields: transient, as older workers */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(!d.result.permanent);
    hs_wire_msg_fini(&d);
    m.result.permanent = true;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x98);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.result.permanent);
    HS_CHECK_STR(d.result.error, "move 5 (B cc): illegal");
    hs_wire_msg_fini(&d);
    m.result.error = NULL;   /* permanent means nothing without an error */
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x97);

    hs_wire_msg_init(&m, HS_WIRE_STATUS);
    m.job_id = 7;   /* the old way of filling a STATUS */
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x93);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.status.job_id == 7 && d.status.before == 0 && d.status.limit == 0 &&
             d.status.state == NULL);
    hs_wire_msg_fini(&d);
    m.status = (hs_wire_status_t){ .job_id = 0, .before = 12345, .limit = 50, .state = "done" };
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x96);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.status.before == 12345 && d.status.limit == 50);
    HS_CHECK_STR(d.status.state, "done");
    hs_wire_msg_fini(&d);
    m.status.limit = HS_WIRE_MAX_JOBS + 1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    m.status.limit = 1;
    m.status.state = "";   /* the decoder refuses an empty state: so does the encoder */
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);

    hs_wire_job_status_t job = { .id = 3, .name = "j", .state = "done" };
    hs_wire_msg_init(&m, HS_WIRE_STATUS_REPLY);
    m.status_reply.jobs = &job;
    m.status_reply.num_jobs = 1;
    m.status_reply.total = 9000;
    m.status_reply.more = true;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.status_reply.total == 9000 && d.status_reply.more);
    hs_wire_msg_fini(&d);
    /* An older broker's 4-field reply: total unknown (-1), no more. */
    HS_CHECK_INT(buf.data[0], 0x96);
    buf.data[0] = 0x94;
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len - 4, &d, &err), 0);  /* int16 + true */
    HS_CHECK(d.status_reply.total == -1 && !d.status_reply.more && d.status_reply.num_jobs == 1);
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&buf);
}

static void test_mutations(void)
{
    hs_wire_msg_t msgs[20];
    hs_wire_game_t games[3];
    hs_eval_t evals[2];
    int mns[3];
    hs_wire_job_status_t jobs[2];
    int n = s_build_all(msgs, games, evals, mns, jobs);
    hs_wire_buf_t buf = { 0 }, re = { 0 };
    int accepted = 0, rejected = 0, reencode_fail = 0;
    for (int iter = 0; iter < 10000; iter++) {
        HS_CHECK_INT(hs_wire_encode(&msgs[iter % n], &buf, NULL), 0);
        size_t len = buf.len;
        uint8_t *d = malloc(len + 16);
        memcpy(d, buf.data, len);
        int muts = 1 + (int)(s_rand() % 4);
        for (int k = 0; k < muts; k++) {
            size_t pos = len ? s_rand() % len : 0;
            switch (s_rand() % 5) {
            case 0: d[pos] ^= (uint8_t)(1u << (s_rand() % 8)); break;
            case 1: d[pos] = (uint8_t)s_rand(); break;
            case 2: if (len > 1) len = 1 + s_rand() % (len - 1); break;
            case 3: if (len < buf.len + 15) { memmove(d + pos + 1, d + pos, len - pos);
                        d[pos] = (uint8_t)s_rand(); len++; } break;
            default: { static const uint8_t tb[] = { 0xDD, 0xDC, 0xC4, 0xDB, 0xC0, 0xFF, 0x7F };
                       d[pos] = tb[s_rand() % sizeof tb]; } break;
            }
        }
        hs_wire_msg_t m;
        int rc = hs_wire_decode(d, len, &m, NULL);
        if (rc == 0) {
            accepted++;
            if (hs_wire_encode(&m, &re, NULL) != 0)
                reencode_fail++;
            hs_wire_msg_fini(&m);
        } else {
            HS_CHECK(rc == HS_EPROTO);
            rejected++;
        }
        free(d);
    }
    printf("mutations: %d accepted, %d rejected\n", accepted, rejected);
    HS_CHECK(rejected > 5000);
    HS_CHECK_INT(reencode_fail, 0);
    hs_wire_buf_free(&buf);
    hs_wire_buf_free(&re);
}

/* A RESULT decoded with HS_WIRE_DECODE_EVAL_VIEW: same checks, no maps copied, and
 * each eval's raw bytes are exactly what hs_wire_encode_eval makes of it (the store
 * keeps those bytes as the record). A bad ownership value is refused in view mode too. */
static void test_eval_view(void)
{
    hs_wire_msg_t msgs[20], d, v;
    hs_wire_game_t games[3];
    hs_eval_t evals[2];
    int mns[3];
    hs_wire_job_status_t jobs[2];
    int n = s_build_all(msgs, games, evals, mns, jobs), k = -1;
    for (int i = 0; i < n; i++)
        if (msgs[i].type == HS_WIRE_RESULT)
            k = i;
    HS_CHECK(k >= 0);
    hs_wire_buf_t buf = { 0 }, one = { 0 };
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_wire_encode(&msgs[k], &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK_INT(hs_wire_decode_ex(buf.data, buf.len, HS_WIRE_DECODE_EVAL_VIEW, &v, &err), 0);
    HS_CHECK_INT(v.result.num_evals, 2);
    for (int i = 0; i < 2 && v.result.num_evals == 2; i++) {
        const hs_eval_t *full = &d.result.evals[i], *view = &v.result.evals[i];
        HS_CHECK(full->raw && view->raw && full->raw_len == view->raw_len);
        HS_CHECK(view->raw >= buf.data && view->raw + view->raw_len <= buf.data + buf.len);
        HS_CHECK(view->ownership == NULL && view->influence == NULL && view->classes == NULL);
        HS_CHECK_INT(view->move_number, full->move_number);
        HS_CHECK(!memcmp(view->pos_key, full->pos_key, 16));
        HS_CHECK_INT(view->engine_id, full->engine_id);
        HS_CHECK((view->error == NULL) == (full->error == NULL));
        one.len = 0;
        HS_CHECK_INT(hs_wire_encode_eval(&evals[i], &one, &err), 0);
        HS_CHECK(one.len == view->raw_len && !memcmp(one.data, view->raw, one.len));
        hs_eval_t copy;
        HS_CHECK_INT(hs_eval_copy(&copy, full), 0);
        HS_CHECK(copy.raw == NULL && copy.raw_len == 0);
        hs_eval_fini(&copy);
    }
    hs_wire_msg_fini(&d);
    hs_wire_msg_fini(&v);
    /* Ownership 101 at point 0 (the encoder refuses it, so edit the bytes): refused
     * by both modes. */
    uint8_t *own = memmem(buf.data, buf.len, evals[0].ownership, 81);
    HS_CHECK(own != NULL);
    if (own)
        own[0] = 101;
    HS_CHECK_INT(hs_wire_decode_ex(buf.data, buf.len, HS_WIRE_DECODE_EVAL_VIEW, &v, &err),
                 HS_EPROTO);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    hs_wire_buf_free(&buf);
    hs_wire_buf_free(&one);
}

int main(void)
{
    test_roundtrips();
    test_eval_view();
    test_optional_fields();
    test_net_eval_fields();
    test_utf8();
    test_permanent_and_paging();
    test_rejections();
    test_mutations();
    return hs_test_finish();
}
