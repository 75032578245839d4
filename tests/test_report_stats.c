/*
 * tests/test_report_stats.c — the report's tables (reports/stats.h) over
 * hand-built games whose every sum was worked out by hand: players, losses,
 * accuracy, by year and by opponent, prediction buckets, histograms, final
 * agreement, failed games; one table's CSV byte for byte; the JSON read back
 * with core/json_read.h; errors; and 10,000 games of 200 players checked
 * against totals kept beside them. Also the final judgment's kinds (of the
 * end, of an earlier move, komi unknown) in the summary and the games table,
 * and a job's moves spec as the report reads it.
 *
 * The games are filled by hand (no store, no game_report.c): what stats.c
 * reads is exactly the hs_report_game_t it is given.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/json_read.h"
#include "reports/stats.h"
#include "test.h"

#define CHO "Cho, \"the\" Hunhyun"   /* a comma and quotes: CSV must quote it */
#define LEE "Lee Sedol"

static char *s_dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* A game of n moves, Black first, every position unevaluated (NAN). */
static void s_game(hs_report_game_t *g, const char *black, const char *white,
                   const char *date, hs_winner_t winner, int n)
{
    memset(g, 0, sizeof *g);
    hs_game_init(&g->game, 19);
    g->game.black = s_dup(black);
    g->game.white = s_dup(white);
    g->game.date = s_dup(date);
    g->game.result.winner = winner;
    g->game.num_moves = n;
    g->final_move = n;           /* judged at its end unless a test says otherwise */
    g->game.moves = calloc((size_t)n + 1, sizeof *g->game.moves);
    g->pos = calloc((size_t)n + 1, sizeof *g->pos);
    for (int m = 0; m <= n; m++) {
        if (m < n)
            g->game.moves[m] = (hs_game_move_t){ (uint16_t)m, m % 2 ? HS_WHITE : HS_BLACK };
        g->pos[m] = (hs_report_pos_t){ HS_SOURCE_NONE, NAN, NAN, -1, NAN, NAN };
    }
}

static void s_eval(hs_report_game_t *g, int m, float win_rate, float lead)
{
    g->pos[m].source = HS_SOURCE_JUDGE;
    g->pos[m].win_rate = win_rate;
    g->pos[m].lead = lead;
    g->analysed++;
}

static void s_game_free(hs_report_game_t *g)
{
    hs_game_fini(&g->game);
    free(g->pos);
}

static void s_add(hs_report_stats_t *st, hs_report_game_t *g)
{
    hs_error_t err;
    HS_CHECK_INT(hs_report_stats_add(st, g, &err), 0);
    s_game_free(g);
}

/* G1 2019, Lee (B) beats Cho: losses B 0.5, W 2.0, B 3.0, W unmeasured. */
static void s_game1(hs_report_stats_t *st)
{
    hs_report_game_t g;
    s_game(&g, LEE, CHO, "2019-05-04", HS_WINNER_BLACK, 4);
    s_eval(&g, 0, 0.5f, 0.5f);    /* even win rate: the lead says Black (right) */
    s_eval(&g, 1, 0.6f, NAN);     /* right */
    s_eval(&g, 2, 0.4f, NAN);     /* wrong */
    s_eval(&g, 3, NAN, 2.0f);     /* right; the last lead: bin 10 */
    g.pos[1].loss_points = 0.5f;
    g.pos[2].loss_points = 2.0f;
    g.pos[3].loss_points = 3.0f;
    /* MCTS from move 2 on: move 3's loss is MCTS's, moves 1 and 2 the judge's
     * alone (the poorer source of the two positions around a move). */
    g.pos[2].source = g.pos[3].source = HS_SOURCE_MCTS;
    g.final_known = g.final_agrees = true;
    s_add(st, &g);
}

/* G2 1997, Cho (B) loses to Lee, 400 moves to fill the buckets. */
static void s_game2(hs_report_stats_t *st)
{
    hs_report_game_t g;
    s_game(&g, CHO, LEE, "12.07.1997", HS_WINNER_WHITE, 400);
    for (int m = 0; m < 200; m++)
        s_eval(&g, m, m < 100 ? 0.3f : 0.7f, NAN);   /* right, then wrong */
    s_eval(&g, 399, 0.2f, NAN);                      /* bucket 7, right */
    s_eval(&g, 400, 0.5f, -60.0f);                   /* the lead says White; bin 0 */
    g.pos[1].loss_points = 0.0f;     /* Cho */
    g.pos[2].loss_points = 1.0f;     /* Lee: exactly 1 point is accurate */
    g.pos[3].loss_points = 12.0f;    /* Cho: past the last loss bin */
    g.pos[10].loss_points = 0.3f;    /* Lee */
    g.final_known = true;
    g.final_agrees = false;
    s_add(st, &g);
}

/* G3: no date, no result; White (Lee) moves first, so colours come from the
 * moves, not from the move number's parity. */
static void s_game3(hs_report_stats_t *st)
{
    hs_report_game_t g;
    s_game(&g, "Amateur", LEE, "some day", HS_WINNER_UNKNOWN, 2);
    g.game.moves[0].color = HS_WHITE;
    g.game.moves[1].color = HS_BLACK;
    s_eval(&g, 1, 0.6f, NAN);        /* no recorded winner: not a prediction */
    s_eval(&g, 2, 0.6f, 7.3f);       /* the last lead: bin 11 */
    g.pos[1].loss_points = 4.0f;     /* Lee */
    g.pos[2].loss_points = 0.0f;     /* Amateur */
    g.pos[0].loss_points = 5.0f;     /* no move led to position 0: not a loss */
    g.final_agrees = true;           /* without final_known it is not counted */
    s_add(st, &g);
}

/* G4: not analysed, Black without a name. */
static void s_game4(hs_report_stats_t *st)
{
    hs_report_game_t g;
    s_game(&g, NULL, LEE, "2019", HS_WINNER_WHITE, 3);
    s_add(st, &g);
}

static void s_build(hs_report_stats_t *st)
{
    hs_report_stats_init(st);
    s_game1(st);
    s_game2(st);
    s_game3(st);
    s_game4(st);
    hs_report_stats_add_failed(st, 2);
    hs_report_stats_finish(st);
}

static void s_check_split(const hs_stats_split_t *r, const char *player, const char *key,
                          int64_t games, int64_t moves, int64_t accurate, double loss)
{
    HS_CHECK_STR(r->player, player);
    HS_CHECK_STR(r->key, key);
    HS_CHECK_INT(r->games, games);
    HS_CHECK_INT(r->moves, moves);
    HS_CHECK_INT(r->accurate, accurate);
    HS_CHECK(fabs(r->loss_sum - loss) < 1e-6);
}

static void test_sums(void)
{
    hs_report_stats_t st;
    s_build(&st);
    HS_CHECK_INT(st.games, 4);
    HS_CHECK_INT(st.analysed, 3);
    HS_CHECK_INT(st.failed, 2);
    HS_CHECK_INT(st.final_known, 2);
    HS_CHECK_INT(st.final_agree, 1);

    HS_CHECK_INT(st.num_players, 3);
    HS_CHECK_STR(st.players[0].name, "Amateur");
    HS_CHECK_STR(st.players[1].name, CHO);
    HS_CHECK_STR(st.players[2].name, LEE);
    const hs_stats_player_t *lee = &st.players[2], *cho = &st.players[1];
    HS_CHECK_INT(lee->games, 4);
    HS_CHECK_INT(lee->moves, 5);           /* 0.5 3.0 | 1.0 0.3 | 4.0 */
    HS_CHECK_INT(lee->accurate, 3);
    HS_CHECK(fabs(lee->loss_sum / lee->moves - 1.76) < 1e-6);
    HS_CHECK_INT(cho->games, 2);
    HS_CHECK_INT(cho->moves, 3);           /* 2.0 | 0.0 12.0 */
    HS_CHECK_INT(cho->accurate, 1);
    HS_CHECK(fabs(cho->loss_sum - 14.0) < 1e-9);
    HS_CHECK_INT(st.players[0].moves, 1);

    HS_CHECK_INT(st.num_by_year, 6);
    s_check_split(&st.by_year[0], "Amateur", "unknown", 1, 1, 1, 0.0);
    s_check_split(&st.by_year[1], CHO, "1997", 1, 2, 1, 12.0);
    s_check_split(&st.by_year[2], CHO, "2019", 1, 1, 0, 2.0);
    s_check_split(&st.by_year[3], LEE, "1997", 1, 2, 2, 1.3);
    s_check_split(&st.by_year[4], LEE, "2019", 2, 2, 1, 3.5);
    s_check_split(&st.by_year[5], LEE, "unknown", 1, 1, 0, 4.0);

    HS_CHECK_INT(st.num_by_opponent, 5);
    s_check_split(&st.by_opponent[0], "Amateur", LEE, 1, 1, 1, 0.0);
    s_check_split(&st.by_opponent[1], CHO, LEE, 2, 3, 1, 14.0);
    s_check_split(&st.by_opponent[2], LEE, "Amateur", 1, 1, 0, 4.0);
    s_check_split(&st.by_opponent[3], LEE, CHO, 2, 4, 3, 4.8);
    s_check_split(&st.by_opponent[4], LEE, "unknown", 1, 0, 0, 0.0);

    int64_t total[HS_STATS_BUCKETS] = { 54, 50, 50, 50, 0, 0, 0, 2 };
    int64_t right[HS_STATS_BUCKETS] = { 53, 50, 0, 0, 0, 0, 0, 2 };
    for (int b = 0; b < HS_STATS_BUCKETS; b++) {
        HS_CHECK_INT(st.predict_total[b], total[b]);
        HS_CHECK_INT(st.predict_right[b], right[b]);
    }
    int64_t loss[HS_STATS_LOSS_BINS] = { [0] = 3, [1] = 1, [2] = 1, [4] = 1, [6] = 1,
                                         [8] = 1, [19] = 1 };
    for (int b = 0; b < HS_STATS_LOSS_BINS; b++)
        HS_CHECK_INT(st.loss_hist[b], loss[b]);
    int64_t lead[HS_STATS_LEAD_BINS] = { [0] = 1, [10] = 1, [11] = 1 };
    for (int b = 0; b < HS_STATS_LEAD_BINS; b++)
        HS_CHECK_INT(st.lead_hist[b], lead[b]);
    hs_report_stats_fini(&st);
}

/* Writes table name (NULL: the JSON) into a malloc'd string. */
static char *s_write(const hs_report_stats_t *st, const char *name, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hs_error_t err;
    *rc = name ? hs_report_stats_csv(st, name, f, &err) : hs_report_stats_json(st, f, &err);
    fclose(f);
    return text;
}

static void test_csv(void)
{
    hs_report_stats_t st;
    s_build(&st);
    int rc;
    char *csv = s_write(&st, "by_opponent", &rc);
    HS_CHECK_INT(rc, 0);
    HS_CHECK_STR(csv,
        "player,opponent,games,moves,accurate,mean_loss,accuracy,judge_moves\r\n"
        "Amateur,Lee Sedol,1,1,1,0.000,1.000,1\r\n"
        "\"Cho, \"\"the\"\" Hunhyun\",Lee Sedol,2,3,1,4.667,0.333,3\r\n"
        "Lee Sedol,Amateur,1,1,0,4.000,0.000,0\r\n"
        "Lee Sedol,\"Cho, \"\"the\"\" Hunhyun\",2,4,3,1.200,0.750,3\r\n"
        "Lee Sedol,unknown,1,0,0,,,0\r\n");
    free(csv);
    csv = s_write(&st, "summary", &rc);
    HS_CHECK_STR(csv, "games,analysed,failed,final_known,final_agree,final_agree_rate,"
                      "players,final_partial,final_komi_unknown,positions,engines\r\n"
                      "4,3,2,2,1,0.500,3,0,0,all,any\r\n");
    free(csv);
    for (int i = 0; i < hs_report_stats_num_tables; i++) {
        csv = s_write(&st, hs_report_stats_tables[i], &rc);
        HS_CHECK_INT(rc, 0);
        free(csv);
    }
    csv = s_write(&st, "no_such_table", &rc);
    HS_CHECK_INT(rc, HS_EINVAL);
    HS_CHECK_STR(csv, "");                  /* nothing written */
    free(csv);
    hs_report_stats_fini(&st);
}

/* A text a spreadsheet would run as a formula (a player's name from a
 * downloaded SGF) is written with a leading ' ; other texts as they are. */
static void test_csv_formula(void)
{
    static const struct { const char *in, *out; } t[] = {
        { "=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\"" },
        { "+1", "'+1" }, { "-Ann-", "'-Ann-" }, { "@cmd", "'@cmd" }, { "\tx", "'\tx" },
        { "Lee Sedol", "Lee Sedol" }, { "a=b", "a=b" }, { "", "" }, { "B+R", "B+R" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        hs_csv_string(f, t[i].in);
        fclose(f);
        HS_CHECK_STR(text, t[i].out);
        free(text);
    }
}

static double s_num(const hs_json_t *v)
{
    double d = NAN;
    hs_json_double(v, -1e9, 1e9, &d);
    return d;
}

static void test_json(void)
{
    hs_report_stats_t st;
    s_build(&st);
    int rc;
    char *text = s_write(&st, NULL, &rc);
    HS_CHECK_INT(rc, 0);
    hs_json_doc_t *doc = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_json_parse(text, strlen(text), NULL, &doc, &err), 0);
    const hs_json_t *r = hs_json_root(doc);
    HS_CHECK_INT(r ? r->count : -1, hs_report_stats_num_tables);
    int64_t i = -1;
    HS_CHECK(hs_json_int(hs_json_get(hs_json_get(r, "summary"), "failed"), 0, 99, &i));
    HS_CHECK_INT(i, 2);
    const hs_json_t *lee = hs_json_at(hs_json_get(r, "players"), 2);
    const char *s = NULL;
    HS_CHECK(hs_json_str(hs_json_get(lee, "player"), &s));
    HS_CHECK_STR(s, LEE);
    HS_CHECK(s_num(hs_json_get(lee, "mean_loss")) == 1.76);
    HS_CHECK(s_num(hs_json_get(lee, "accuracy")) == 0.6);
    const hs_json_t *cho = hs_json_at(hs_json_get(r, "by_opponent"), 1);
    HS_CHECK(hs_json_str(hs_json_get(cho, "player"), &s));
    HS_CHECK_STR(s, CHO);
    /* A mean over no moves, an empty bucket's share, the open last bucket: null. */
    const hs_json_t *none = hs_json_get(hs_json_at(hs_json_get(r, "by_opponent"), 4), "mean_loss");
    HS_CHECK(none && none->type == HS_JSON_NULL);
    const hs_json_t *b4 = hs_json_at(hs_json_get(r, "prediction"), 4);
    HS_CHECK(hs_json_get(b4, "rate") && hs_json_get(b4, "rate")->type == HS_JSON_NULL);
    const hs_json_t *b7 = hs_json_at(hs_json_get(r, "prediction"), 7);
    HS_CHECK(hs_json_get(b7, "last_move") && hs_json_get(b7, "last_move")->type == HS_JSON_NULL);
    HS_CHECK(hs_json_int(hs_json_get(b7, "first_move"), 0, 999, &i));
    HS_CHECK_INT(i, 350);
    HS_CHECK(s_num(hs_json_get(hs_json_at(hs_json_get(r, "prediction"), 0), "rate"))
             == 0.981);             /* 53 / 54 */
    HS_CHECK(hs_json_int(hs_json_get(hs_json_at(hs_json_get(r, "loss_histogram"), 19),
                                     "count"), 0, 99, &i));
    HS_CHECK_INT(i, 1);
    HS_CHECK(s_num(hs_json_get(hs_json_at(hs_json_get(r, "lead_histogram"), 11), "from"))
             == 5.0);
    hs_json_free(&doc);
    free(text);
    hs_report_stats_fini(&st);
}

/* Dates to years; a game between two players of one name counts once. */
static void test_years_and_self(void)
{
    const char *dates[] = { "20190504", "1996-10-02,03", "0999-01-01", "", NULL, "x 19 1995" };
    const char *years[] = { "2019", "1996", "unknown", "unknown", "unknown", "1995" };
    hs_report_stats_t st;
    hs_report_stats_init(&st);
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        hs_report_game_t g;
        s_game(&g, name, "Bot", dates[i], HS_WINNER_BLACK, 0);
        s_add(&st, &g);
        const char *year = NULL;
        for (int r = 0; r < st.num_by_year; r++)
            if (!strcmp(st.by_year[r].player, name))
                year = st.by_year[r].key;
        HS_CHECK_STR(year, years[i]);
    }
    hs_report_game_t g;
    s_game(&g, "Bot", "Bot", "2001", HS_WINNER_BLACK, 2);
    g.pos[1].loss_points = 1.5f;
    g.pos[2].loss_points = 0.5f;
    s_add(&st, &g);
    hs_report_stats_finish(&st);
    const hs_stats_player_t *bot = &st.players[0];
    HS_CHECK_STR(bot->name, "Bot");
    HS_CHECK_INT(bot->games, 7);
    HS_CHECK_INT(bot->moves, 2);
    HS_CHECK_INT(bot->accurate, 1);
    HS_CHECK_INT(st.num_by_opponent, 13);   /* (Pi, Bot), (Bot, Pi), (Bot, Bot) */
    s_check_split(&st.by_opponent[0], "Bot", "Bot", 1, 2, 1, 2.0);
    hs_report_stats_fini(&st);
}

/* Adding after finish (which re-sorts the rows) finds the old rows. */
static void test_add_after_finish(void)
{
    hs_report_stats_t st;
    s_build(&st);
    s_game1(&st);
    hs_report_stats_finish(&st);
    HS_CHECK_INT(st.num_players, 3);
    HS_CHECK_INT(st.num_by_opponent, 5);
    HS_CHECK_INT(st.players[2].games, 5);
    HS_CHECK_INT(st.by_year[4].games, 3);
    hs_report_stats_fini(&st);
}

static void test_errors(void)
{
    hs_report_stats_t st;
    s_build(&st);
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        hs_error_t err;
        HS_CHECK_INT(hs_report_stats_csv(&st, "players", full, &err), HS_EIO);
        clearerr(full);
        HS_CHECK_INT(hs_report_stats_json(&st, full, &err), HS_EIO);
        fclose(full);
    }
    hs_error_t err;
    HS_CHECK_INT(hs_report_stats_csv(&st, NULL, stdout, &err), HS_EINVAL);
    hs_report_stats_fini(&st);
    hs_report_stats_fini(&st);              /* fini leaves it empty: twice is harmless */
}

/* 10,000 games among 200 players, each total kept beside the stats. */
static void test_stress(void)
{
    enum { PLAYERS = 200, GAMES = 10000, MOVES = 10 };
    static bool met[PLAYERS][PLAYERS];
    int64_t games[PLAYERS] = { 0 };
    memset(met, 0, sizeof met);
    hs_report_stats_t st;
    hs_report_stats_init(&st);
    hs_report_game_t g;
    s_game(&g, NULL, NULL, NULL, HS_WINNER_BLACK, MOVES);
    for (int m = 1; m <= MOVES; m++)
        g.pos[m].loss_points = (float)(m % 4) * 0.5f;   /* 1.5 at m = 3, 7: inaccurate */
    char black[32], white[32], date[24];
    g.game.black = black;
    g.game.white = white;
    g.game.date = date;
    int pairs = 0;
    for (int k = 0; k < GAMES; k++) {
        int b = k % PLAYERS, w = (7 * k + 1) % PLAYERS;    /* never b */
        snprintf(black, sizeof black, "player %03d", b);
        snprintf(white, sizeof white, "player %03d", w);
        snprintf(date, sizeof date, "%d-01-01", 2000 + k % 10);
        hs_error_t err;
        HS_CHECK_INT(hs_report_stats_add(&st, &g, &err), 0);
        games[b]++, games[w]++;
        pairs += !met[b][w] + !met[w][b];
        met[b][w] = met[w][b] = true;
    }
    g.game.black = g.game.white = g.game.date = NULL;
    s_game_free(&g);
    hs_report_stats_finish(&st);
    HS_CHECK_INT(st.games, GAMES);
    HS_CHECK_INT(st.num_players, PLAYERS);
    HS_CHECK_INT(st.num_by_opponent, pairs);
    int64_t moves = 0, accurate = 0, ok = 0, split_games = 0;
    double loss = 0;
    for (int i = 0; i < st.num_players; i++) {
        const hs_stats_player_t *p = &st.players[i];
        int n = -1;
        sscanf(p->name, "player %d", &n);
        ok += n == i && p->games == games[i];
        moves += p->moves, accurate += p->accurate, loss += p->loss_sum;
    }
    HS_CHECK_INT(ok, PLAYERS);              /* sorted, and each one's own count */
    HS_CHECK_INT(moves, (int64_t)GAMES * MOVES);
    HS_CHECK_INT(accurate, (int64_t)GAMES * 8);
    HS_CHECK(loss == GAMES * 7.5);          /* 0.5+1+1.5+0 +0.5+1+1.5+0 +0.5+1 */
    for (int i = 0; i < st.num_by_year; i++)
        split_games += st.by_year[i].games;
    HS_CHECK_INT(split_games, 2 * GAMES);
    int64_t hist = 0;
    for (int b = 0; b < HS_STATS_LOSS_BINS; b++)
        hist += st.loss_hist[b];
    HS_CHECK_INT(hist, (int64_t)GAMES * MOVES);
    HS_CHECK_INT(st.loss_hist[3], GAMES * 2);   /* the two 1.5 losses: [1.5, 2) */
    hs_report_stats_fini(&st);
}

/* A known final judgment of game g: at move `at`, agreeing or not, under a
 * recorded result and komi. */
static void s_judged(hs_report_game_t *g, int at, bool agrees, hs_result_kind_t kind,
                     double margin, double komi)
{
    g->final_known = true;
    g->final_agrees = agrees;
    g->final_move = at;
    g->game.result.kind = kind;
    g->game.result.margin = margin;
    g->game.komi = komi;
}

/* A game's CSV row of the games table, into a malloc'd string. */
static char *s_games_row(const hs_report_game_t *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hs_report_games_csv_row(g, f);
    fclose(f);
    return text;
}

/* Only games judged at their last position, with a komi their result can
 * come from, count in the final agreement; the others are counted apart
 * (final_partial, final_komi_unknown), and the games table says which move a
 * judgment is of and "komi unknown" where the komi cannot give the result. */
static void test_final_kinds(void)
{
    static const hs_report_final_t want[] = {
        HS_REPORT_FINAL_END, HS_REPORT_FINAL_PARTIAL, HS_REPORT_FINAL_KOMI,
        HS_REPORT_FINAL_END, HS_REPORT_FINAL_NONE, HS_REPORT_FINAL_END,
    };
    static const char *const rows[] = {
        ",A,B,,,10,0,agrees,,,,10,6.500\r\n",
        ",A,B,,,10,0,differs,,,,7,6.500\r\n",
        ",A,B,,,10,0,komi unknown,,,,5,0.000\r\n",   /* before the end too: komi first */
        ",A,B,,,10,0,agrees,,,,10,0.000\r\n",
        ",A,B,,,10,0,,,,,,0.000\r\n",               /* no evaluation: no final_move */
        ",A,B,,,10,0,differs,,,,10,0.000\r\n",
    };
    hs_report_stats_t st;
    hs_report_stats_init(&st);
    for (int i = 0; i < 6; i++) {
        hs_report_game_t g;
        s_game(&g, "A", "B", NULL, i == 0 ? HS_WINNER_BLACK : HS_WINNER_WHITE, 10);
        switch (i) {
        case 0: s_judged(&g, 10, true, HS_RESULT_POINTS, 0.5, 6.5); break;
        case 1: s_judged(&g, 7, false, HS_RESULT_POINTS, 0.5, 6.5); break;
        case 2: s_judged(&g, 5, false, HS_RESULT_POINTS, 5.5, 0); break;   /* Fox KM[0] */
        case 3: s_judged(&g, 10, true, HS_RESULT_RESIGN, 0, 0); break;   /* says nothing */
        case 4: g.final_move = -1; break;
        case 5: s_judged(&g, 10, false, HS_RESULT_POINTS, 0, 0); break;  /* Fox W+0 */
        }
        HS_CHECK_INT(hs_report_final(&g), want[i]);
        char *row = s_games_row(&g);
        HS_CHECK_STR(row + 32, rows[i]);   /* past the id */
        free(row);
        s_add(&st, &g);
    }
    HS_CHECK_INT(st.final_known, 3);
    HS_CHECK_INT(st.final_agree, 2);
    HS_CHECK_INT(st.final_partial, 1);
    HS_CHECK_INT(st.final_komi_unknown, 1);
    snprintf(st.positions, sizeof st.positions, "every:10");
    int rc;
    char *csv = s_write(&st, "summary", &rc);
    HS_CHECK_STR(csv, "games,analysed,failed,final_known,final_agree,final_agree_rate,"
                      "players,final_partial,final_komi_unknown,positions,engines\r\n"
                      "6,0,0,3,2,0.667,2,1,1,every:10,any\r\n");
    free(csv);
    hs_report_stats_fini(&st);
}

/* A game whose recorded result its komi cannot give predicts nothing by
 * move number and has no final lead: its positions were evaluated with
 * another komi than the one played. The same game with a komi that fits
 * counts. */
static void test_prediction_komi(void)
{
    hs_report_stats_t st;
    hs_report_stats_init(&st);
    for (int i = 0; i < 2; i++) {
        hs_report_game_t g;
        s_game(&g, "A", "B", NULL, HS_WINNER_WHITE, 10);
        s_eval(&g, 3, 0.2f, -4);
        s_judged(&g, 10, true, HS_RESULT_POINTS, 5.5, i ? 0 : 6.5);   /* 1: Fox KM[0] */
        s_add(&st, &g);
        HS_CHECK_INT(st.predict_total[0], 1);
        HS_CHECK_INT(st.predict_right[0], 1);
    }
    int leads = 0;
    for (int b = 0; b < HS_STATS_LEAD_BINS; b++)
        leads += (int)st.lead_hist[b];
    HS_CHECK_INT(leads, 1);   /* nor a final lead */
    hs_report_stats_fini(&st);
}

/* A job's moves spec, as the report reads it, and the positions it names. */
static void test_moves_spec(void)
{
    hs_report_moves_t m;
    HS_CHECK_INT(hs_report_moves_parse("every:10;a-token", &m), 0);
    HS_CHECK(m.step == 10 && !m.last_only);
    HS_CHECK(hs_report_moves_has(&m, 0, 271) && hs_report_moves_has(&m, 270, 271));
    HS_CHECK(!hs_report_moves_has(&m, 271, 271) && !hs_report_moves_has(&m, 63, 271));
    HS_CHECK_INT(hs_report_moves_parse("last", &m), 0);
    HS_CHECK(hs_report_moves_has(&m, 271, 271) && !hs_report_moves_has(&m, 270, 271));
    HS_CHECK_INT(hs_report_moves_parse("all", &m), 0);
    HS_CHECK(hs_report_moves_has(&m, 63, 271));
    HS_CHECK_INT(hs_report_moves_parse("", &m), 0);
    HS_CHECK(hs_report_moves_has(&m, 1, 2));
    HS_CHECK(hs_report_moves_has(NULL, 1, 2));
    const char *bad[] = { "every:0", "every:x", "every:10x", "first", "every:10001" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        HS_CHECK_INT(hs_report_moves_parse(bad[i], &m), HS_EINVAL);
        HS_CHECK(hs_report_moves_has(&m, 63, 271));   /* then every position */
    }
}

int main(void)
{
    test_sums();
    test_csv();
    test_csv_formula();
    test_json();
    test_years_and_self();
    test_add_after_finish();
    test_errors();
    test_stress();
    test_final_kinds();
    test_prediction_komi();
    test_moves_spec();
    return hs_test_finish();
}
