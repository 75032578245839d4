/*
 * tests/test_gtp_front.c — the GTP front end (worker/gtp.h) without a net:
 * framing and ids (a whole number only; NUL bytes dropped; a long line's
 * id kept), kata-set-rules / kata-get-rules as KataGo reads and prints
 * rules, loadsgf's error, commands registered from outside (what genmove will do),
 * replacing a handler, blank lines in a response, and superko per the rules,
 * also after kata-set-rules changes them in mid-game (the history is rebuilt:
 * s_rules_change). Then what the search commands stand on: undo (a replay
 * that restores captures and the ko), streamed answers (hs_gtp_stream), the
 * input queue of hs_gtp_run (a handler sees the next line, or the end of
 * input, as pending), the search commands' errors without an evaluator, and
 * final_score / final_status_list from the static judge; genmove's time
 * taken from its start, before the last search's tree is freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "test.h"
#include "worker/gtp.h"
#include "worker/gtp_search.h"

/* Sends one line; returns the framed answer (static buffer, overwritten). */
static const char *s_send(hs_gtp_t *g, const char *line, int *quit)
{
    static char answer[65536];
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int q = hs_gtp_line(g, line, out);
    fclose(out);
    snprintf(answer, sizeof answer, "%s", text);
    free(text);
    if (quit)
        *quit = q;
    return answer;
}

static int s_echo(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *resp)
{
    (void)g;
    for (int i = 0; i < argc; i++)
        hs_gtp_printf(resp, "%s%s", i ? " " : "", argv[i]);
    if (ctx)
        hs_gtp_printf(resp, "\n\n\nafter blank lines\n\n");
    return argc == 0;   /* no words: a failure, to see "?" */
}

static int s_other_name(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *resp)
{
    (void)g, (void)ctx, (void)argc, (void)argv;
    hs_gtp_printf(resp, "other");
    return 0;
}

static void s_framing(hs_gtp_t *g)
{
    HS_CHECK_STR(s_send(g, "protocol_version", NULL), "= 2\n\n");
    HS_CHECK_STR(s_send(g, "17 name", NULL), "=17 hyeongse\n\n");
    HS_CHECK_STR(s_send(g, "", NULL), "");
    HS_CHECK_STR(s_send(g, "   # only a comment", NULL), "");
    HS_CHECK_STR(s_send(g, "3 bogus", NULL), "?3 unknown command\n\n");
    HS_CHECK_STR(s_send(g, "4", NULL), "?4 empty command\n\n");
    HS_CHECK_STR(s_send(g, "5 clear_board\r", NULL), "=5 \n\n");
    /* an id is a whole number, a word of its own */
    HS_CHECK_STR(s_send(g, "1.5 name", NULL), "? unknown command\n\n");
    HS_CHECK_STR(s_send(g, "12abc", NULL), "? unknown command\n\n");
    HS_CHECK_STR(s_send(g, "6\tname", NULL), "=6 hyeongse\n\n");
    HS_CHECK_STR(s_send(g, "kata-raw-nn 0", NULL), "? kata-raw-nn: no net loaded\n\n");
    HS_CHECK_STR(s_send(g, "kata-raw-nn 9", NULL),
                 "? Expected a symmetry argument 'all', 'mean' or index [0-7] for kata-raw-nn\n\n");
}

static void s_registration(hs_gtp_t *g)
{
    hs_error_t err;
    static int blank_ctx;
    HS_CHECK_INT(hs_gtp_register(g, "x-echo", s_echo, NULL, &err), 0);
    HS_CHECK_INT(hs_gtp_register(g, "x-blank", s_echo, &blank_ctx, &err), 0);
    HS_CHECK_STR(s_send(g, "8 x-echo a\tb  c", NULL), "=8 a b c\n\n");
    HS_CHECK_STR(s_send(g, "x-echo", NULL), "? \n\n");
    HS_CHECK_STR(s_send(g, "x-blank z", NULL), "= z\nafter blank lines\n\n");
    HS_CHECK_STR(s_send(g, "known_command x-echo", NULL), "= true\n\n");
    const char *list = s_send(g, "list_commands", NULL);
    HS_CHECK(strstr(list, "\nkata-raw-nn\ngenmove\n") != NULL);
    HS_CHECK(strstr(list, "\nkata-genmove_analyze\nanalyze\ngenmove_analyze\nx-echo\nx-blank\n\n") != NULL);
    /* Replacing keeps the command's place in the list. */
    HS_CHECK_INT(hs_gtp_register(g, "name", s_other_name, NULL, &err), 0);
    HS_CHECK_STR(s_send(g, "name", NULL), "= other\n\n");
    HS_CHECK(strstr(s_send(g, "list_commands", NULL), "= protocol_version\nname\nversion\n") != NULL);
}

/* A ko taken back after two passes repeats the whole board: legal under
 * simple ko (japanese), illegal under positional superko (chinese). */
static const char *s_ko_then_retake(hs_gtp_t *g, const char *rules_midway)
{
    static const char *setup[] = { "boardsize 5", "play B A2", "play W C1", "play B B1",
                                   "play W C3", "play B B3", "play W D2", "play W B2",
                                   "play B C2", "play W pass", "play B pass" };
    for (size_t i = 0; i < sizeof setup / sizeof *setup; i++)
        HS_CHECK_STR(s_send(g, setup[i], NULL), "= \n\n");
    if (rules_midway)
        HS_CHECK_STR(s_send(g, rules_midway, NULL), "= \n\n");
    return s_send(g, "play W B2", NULL);
}

static void s_superko(hs_gtp_t *g)
{
    HS_CHECK_STR(s_send(g, "kata-set-rules japanese", NULL), "= \n\n");
    HS_CHECK_STR(s_ko_then_retake(g, NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules chinese", NULL), "= \n\n");
    HS_CHECK_STR(s_ko_then_retake(g, NULL), "? illegal move\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules japanese", NULL), "= \n\n");
    HS_CHECK_STR(s_ko_then_retake(g, "kata-set-rules chinese"), "? illegal move\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules tromp-taylor", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "play W B2", NULL), "? illegal move\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules korean", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "play W B2", NULL), "= \n\n");
}

/* White's single-stone suicide leaves the stones as they were after Black's
 * move, now with Black to move: legal under situational superko
 * (new-zealand), illegal under positional (tromp-taylor). The history pushed
 * under new-zealand keys positions with the side to move; switching to
 * tromp-taylor must rebuild it, or the repetition goes unseen. */
static void s_rules_change(hs_gtp_t *g)
{
    static const char *moves[] = { "boardsize 5", "kata-set-rules new-zealand",
                                   "play B A2", "play W E5", "play B B1" };
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < sizeof moves / sizeof *moves; i++)
            HS_CHECK_STR(s_send(g, moves[i], NULL), "= \n\n");
        if (k == 1)
            HS_CHECK_STR(s_send(g, "kata-set-rules tromp-taylor", NULL), "= \n\n");
        HS_CHECK_STR(s_send(g, "play W A1", NULL), k ? "? illegal move\n\n" : "= \n\n");
    }
    HS_CHECK_STR(s_send(g, "kata-set-rules japanese", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "play W A1", NULL), "? illegal move\n\n");   /* no suicide */
}

static void s_undo(hs_gtp_t *g)
{
    HS_CHECK_STR(s_send(g, "boardsize 5", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "undo", NULL), "? cannot undo\n\n");
    static const char *setup[] = { "play B A2", "play W C1", "play B B1", "play W C3",
                                   "play B B3", "play W D2", "play W B2" };
    for (size_t i = 0; i < sizeof setup / sizeof *setup; i++)
        HS_CHECK_STR(s_send(g, setup[i], NULL), "= \n\n");
    char before[4096];
    snprintf(before, sizeof before, "%s", s_send(g, "showboard", NULL));
    HS_CHECK_STR(s_send(g, "play B C2", NULL), "= \n\n");     /* captures B2: a ko */
    HS_CHECK_STR(s_send(g, "play W B2", NULL), "? illegal move\n\n");
    HS_CHECK_STR(s_send(g, "undo", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "showboard", NULL), before);       /* B2 back, no capture */
    HS_CHECK_STR(s_send(g, "play B C2", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "play W pass", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "undo", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "play W B2", NULL), "? illegal move\n\n");   /* the ko is back */
    for (size_t i = 0; i <= sizeof setup / sizeof *setup; i++)
        HS_CHECK_STR(s_send(g, "undo", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "undo", NULL), "? cannot undo\n\n");
    HS_CHECK(strstr(s_send(g, "showboard", NULL), "= Moves: 0  Next player: Black") != NULL);
}

static int s_streamer(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *resp)
{
    (void)ctx, (void)argv;
    FILE *out = hs_gtp_stream(g);
    fputs("line one\n", out);
    hs_gtp_stream(g);   /* the header only once */
    fputs("line two\n", out);
    hs_gtp_printf(resp, "\nleft over\n\n");
    return argc;        /* a failure after the header still ends as a response */
}

/* Waits for the next line (bounded, so a broken queue fails instead of hanging). */
static int s_waiter(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *resp)
{
    (void)ctx, (void)argc, (void)argv;
    for (int i = 0; i < 60000 && !hs_gtp_input_pending(g); i++)
        hs_gtp_wait_input(g, 0.01);
    hs_gtp_printf(resp, "%s", hs_gtp_input_pending(g) ? "stopped" : "never");
    return 0;
}

/* hs_gtp_run over len bytes of input (NULs included); what it wrote
 * (static, overwritten). */
static const char *s_run_bytes(hs_gtp_t *g, const char *input, size_t len)
{
    static char answer[4096];
    FILE *in = fmemopen((void *)input, len, "r");
    char *text = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&text, &n);
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_run(g, in, out, &err), 0);
    fclose(out);
    fclose(in);
    snprintf(answer, sizeof answer, "%s", text);
    free(text);
    return answer;
}

/* Runs hs_gtp_run over input; returns what it wrote (static, overwritten). */
static const char *s_run(hs_gtp_t *g, const char *input)
{
    return s_run_bytes(g, input, strlen(input));
}

/* What only whole lines of input show: a NUL byte inside a line goes as the
 * other control characters do; a line over the limit is refused with its
 * id, and the next line is read as usual. */
static void s_input_lines(hs_gtp_t *g)
{
    static const char nul[] = "4 protocol_\0version\n5 protocol_\001version\n";
    HS_CHECK_STR(s_run_bytes(g, nul, sizeof nul - 1), "=4 2\n\n=5 2\n\n");
    size_t big = 70000;
    char *text = malloc(3 * big);
    if (!text)
        return;
    size_t n = (size_t)sprintf(text, "  9 name ");
    memset(text + n, 'a', big);
    n += big;
    n += (size_t)sprintf(text + n, "\n");
    memset(text + n, 'b', big);
    n += big;
    n += (size_t)sprintf(text + n, "\n10 protocol_version\n");
    HS_CHECK_STR(s_run_bytes(g, text, n), "?9 line too long\n\n? line too long\n\n=10 2\n\n");
    free(text);
}

/* kata-set-rules reads what the analysis protocol reads as "rules" (KataGo's
 * spellings, the JSON object, "ing" and "goe" as tromp-taylor), and
 * kata-get-rules prints KataGo's JSON object, which reads back. */
static void s_rules_commands(hs_gtp_t *g)
{
    static const struct { const char *set, *name; } cases[] = {
        { "kata-set-rules chinese-ogs", "chinese" }, { "kata-set-rules chinese_kgs", "chinese" },
        { "kata-set-rules bga", "aga" }, { "kata-set-rules french", "aga" },
        { "kata-set-rules tromp taylor", "tromp-taylor" }, { "kata-set-rules ing", "tromp-taylor" },
        { "kata-set-rules GOE", "tromp-taylor" }, { "kata-set-rules tt", "tromp-taylor" },
        { "kata-set-rules NZ", "new-zealand" },
        { "kata-set-rules {\"ko\":\"SIMPLE\",\"scoring\":\"TERRITORY\",\"suicide\":false}",
          "japanese" },
        { "kata-set-rules { \"ko\": \"SITUATIONAL\", \"suicide\": false, "
          "\"whiteHandicapBonus\": \"N-1\" }", "aga" },
    };
    char want[96];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        HS_CHECK_STR(s_send(g, "kata-set-rules korean", NULL), "= \n\n");
        HS_CHECK_STR(s_send(g, cases[i].set, NULL), "= \n\n");
        snprintf(want, sizeof want, "Rules: %s ", cases[i].name);
        HS_CHECK(strstr(s_send(g, "showboard", NULL), want) != NULL);
    }
    HS_CHECK_STR(s_send(g, "kata-set-rules japanese", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "kata-get-rules", NULL),
                 "= {\"friendlyPassOk\":true,\"hasButton\":false,\"ko\":\"SIMPLE\","
                 "\"scoring\":\"TERRITORY\",\"suicide\":false,\"tax\":\"SEKI\","
                 "\"whiteHandicapBonus\":\"0\"}\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules tromp-taylor", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "kata-get-rules", NULL),
                 "= {\"friendlyPassOk\":false,\"hasButton\":false,\"ko\":\"POSITIONAL\","
                 "\"scoring\":\"AREA\",\"suicide\":true,\"tax\":\"NONE\","
                 "\"whiteHandicapBonus\":\"0\"}\n\n");
    /* every rule set's JSON reads back to it (korean's to japanese: the same rules) */
    static const char *const names[] = { "japanese", "chinese", "aga", "new-zealand",
                                         "tromp-taylor" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char line[256];
        snprintf(line, sizeof line, "kata-set-rules %s", names[i]);
        HS_CHECK_STR(s_send(g, line, NULL), "= \n\n");
        snprintf(line, sizeof line, "kata-set-rules %s", s_send(g, "kata-get-rules", NULL) + 2);
        line[strlen(line) - 2] = '\0';   /* the framing's blank line */
        HS_CHECK_STR(s_send(g, "kata-set-rules korean", NULL), "= \n\n");
        HS_CHECK_STR(s_send(g, line, NULL), "= \n\n");
        snprintf(line, sizeof line, "Rules: %s ", names[i]);
        HS_CHECK(strstr(s_send(g, "showboard", NULL), line) != NULL);
    }
    HS_CHECK_STR(s_send(g, "kata-set-rules bogus", NULL), "? Unknown rules 'bogus'\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules stone-scoring", NULL),
                 "? Rules not supported by hyeongse: 'stone-scoring'\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules {\"hasButton\":true}", NULL),
                 "? Rules not supported by hyeongse: '{\"hasButton\":true}'\n\n");
    HS_CHECK_STR(s_send(g, "kata-set-rules {\"komi\":7}", NULL),
                 "? Unknown rules '{\"komi\":7}': set komi with the komi command\n\n");
    HS_CHECK(strstr(s_send(g, "showboard", NULL), "Rules: tromp-taylor ") != NULL);
    HS_CHECK_STR(s_send(g, "kata-set-rules japanese", NULL), "= \n\n");
}

/* loadsgf's errors name the file, then, after ": ", what is wrong. */
static void s_loadsgf_errors(hs_gtp_t *g)
{
    char path[] = "/tmp/hs_test_gtp_XXXXXX";
    int fd = mkstemp(path);
    HS_CHECK(fd >= 0);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    fputs("(;GM[1]SZ[9]\n;B[ee]", f);   /* never closed */
    fclose(f);
    char line[128], want[128];
    snprintf(line, sizeof line, "loadsgf %s", path);
    snprintf(want, sizeof want, "? cannot load file: %s: ", path);
    const char *a = s_send(g, line, NULL);
    HS_CHECK(strncmp(a, want, strlen(want)) == 0 && a[strlen(want)] != ' ');
    remove(path);
}

static void s_stream_and_queue(hs_gtp_t *g)
{
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_register(g, "x-stream", s_streamer, NULL, &err), 0);
    HS_CHECK_INT(hs_gtp_register(g, "x-wait", s_waiter, NULL, &err), 0);
    HS_CHECK_STR(s_send(g, "4 x-stream", NULL), "=4\nline one\nline two\nleft over\n\n");
    HS_CHECK_STR(s_send(g, "x-stream 1", NULL), "=\nline one\nline two\nleft over\n\n");
    HS_CHECK_STR(s_send(g, "protocol_version", NULL), "= 2\n\n");   /* framing back to normal */
    HS_CHECK_INT(hs_gtp_input_pending(g), 1);   /* outside hs_gtp_run */
    /* The next line stops the waiter and is then handled; so does the end. */
    HS_CHECK_STR(s_run(g, "7 x-wait\n8 protocol_version\n"), "=7 stopped\n\n=8 2\n\n");
    HS_CHECK_STR(s_run(g, "x-wait\n"), "= stopped\n\n");
    HS_CHECK_STR(s_run(g, "x-wait\n\n"), "= stopped\n\n");   /* an empty line too */
    HS_CHECK_STR(s_run(g, "x-stream\nquit\nprotocol_version\n"),
                 "=\nline one\nline two\nleft over\n\n= \n\n");
}

/* Without an evaluator the search commands say so; their argument errors
 * come first. The judge's commands need none. */
static void s_search_commands(hs_gtp_t *g)
{
    HS_CHECK_STR(s_send(g, "boardsize 9", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "genmove b", NULL), "? no search evaluator\n\n");
    HS_CHECK_STR(s_send(g, "genmove x", NULL), "? Could not parse color: 'x'\n\n");
    HS_CHECK_STR(s_send(g, "genmove", NULL), "? Expected one argument for genmove\n\n");
    HS_CHECK_STR(s_send(g, "kata-analyze 10", NULL), "? no search evaluator\n\n");
    HS_CHECK_STR(s_send(g, "kata-analyze b 10 ownership maybe", NULL),
                 "? Could not parse analyze arguments or arguments out of range: "
                 "'b 10 ownership maybe'\n\n");
    HS_CHECK_STR(s_send(g, "lz-analyze 10 ownership true", NULL),   /* a kata- key */
                 "? Could not parse analyze arguments or arguments out of range: "
                 "'10 ownership true'\n\n");
    HS_CHECK_STR(s_send(g, "time_settings 300 30 5", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "time_settings 300 3O 5", NULL),
                 "? Expected main time, byo-yomi time and byo-yomi stones (non-negative "
                 "numbers) for time_settings\n\n");
    HS_CHECK_STR(s_send(g, "time_left b 12.5 3", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "kgs-time_settings absolute 60", NULL), "= \n\n");
    HS_CHECK(s_send(g, "time_left w 10 2", NULL)[0] == '?');   /* no overtime periods */
    HS_CHECK_STR(s_send(g, "kgs-time_settings byoyomi 60 10 3", NULL), "= \n\n");
    HS_CHECK(s_send(g, "kgs-time_settings byoyomi 60 10", NULL)[0] == '?');
    HS_CHECK_STR(s_send(g, "final_score", NULL), "= W+6.5\n\n");   /* empty, japanese */
    HS_CHECK_STR(s_send(g, "final_status_list alive", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "final_status_list living", NULL),
                 "? Argument to final_status_list must be 'alive' or 'seki' or 'dead'\n\n");
    /* Black walls off the left four columns with a dead white stone inside;
     * White lives on the right. */
    HS_CHECK_STR(s_send(g, "komi 0.5", NULL), "= \n\n");
    for (int y = 1; y <= 9; y++) {
        char line[32];
        snprintf(line, sizeof line, "play B E%d", y);
        HS_CHECK_STR(s_send(g, line, NULL), "= \n\n");
        snprintf(line, sizeof line, "play W F%d", y);
        HS_CHECK_STR(s_send(g, line, NULL), "= \n\n");
    }
    HS_CHECK_STR(s_send(g, "play W B5", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "final_status_list dead", NULL), "= B5\n\n");
    HS_CHECK_STR(s_send(g, "final_status_list seki", NULL), "= \n\n");
    /* Black: 36 points of territory (B5 empties once removed) + 1 prisoner;
     * White: 27 of territory; komi 0.5 -> B+9.5. */
    HS_CHECK_STR(s_send(g, "final_score", NULL), "= B+9.5\n\n");
    HS_CHECK(strstr(s_send(g, "final_status_list alive", NULL), "= E9 F9 E8 F8") != NULL);
}

/* A cheap evaluator for a tree of many nodes: the first two empty points
 * with an empty neighbour (legal whatever the ko) and pass, value 0. */
static int s_narrow_eval(void *ctx, const hs_nn_pos_t *pos, int n, hs_mcts_eval_t *out,
                         hs_error_t *err)
{
    (void)ctx, (void)err;
    for (int i = 0; i < n; i++) {
        const hs_board_t *b = pos[i].board;
        int size = b->size, area = size * size, k = 0;
        for (int v = 0; v < area; v++) {
            hs_point_t p = hs_board_point(b, v % size, v / size);
            int ok = k < 2 && b->color[p] == HS_EMPTY && hs_board_nbr_count(b, p, HS_EMPTY) > 0;
            out[i].policy[v] = ok ? 1.0f : -1.0f;
            k += ok;
        }
        out[i].policy[area] = 1.0f;
        out[i].value = out[i].score = out[i].score_mean = out[i].score_stdev = 0;
        memset(out[i].ownership, 0, (size_t)area * sizeof out[i].ownership[0]);
    }
    return 0;
}

/* genmove's time starts before its root is set: freeing the big tree of the
 * search before (none of it is kept after an unexpected reply) is charged
 * to the clock, and the search gets only what is left of the move's share.
 * The second genmove searches one visit, so nearly all of its time is the
 * freeing. The search state is the test's own, registered over the front
 * end's, to read its clock and its tree. */
static void s_genmove_time(void)
{
    hs_mcts_evaluator_t ev = { .eval = s_narrow_eval, .max_batch = 8, .name = "narrow" };
    hs_gtp_config_t cfg = { .rules = HS_RULES_JAPANESE, .search_eval = &ev };
    hs_mcts_config_default(&cfg.search);
    cfg.search.max_visits = 150000;
    hs_gtp_t *g = NULL;
    hs__gtp_search_t *s = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_create(&cfg, &g, &err), 0);
    HS_CHECK_INT(g ? hs__gtp_register_search(g, &s, &err) : -1, 0);
    if (!s) {
        hs_gtp_free(&g);
        return;
    }
    HS_CHECK_STR(s_send(g, "boardsize 9", NULL), "= \n\n");
    HS_CHECK_STR(s_send(g, "time_settings 1000 0 0", NULL), "= \n\n");   /* absolute */
    HS_CHECK_STR(s_send(g, "genmove b", NULL), "= B9\n\n");
    long nodes = hs_mcts_tree_nodes(s->mcts);
    HS_CHECK(nodes > 100000);
    HS_CHECK_STR(s_send(g, "play w E5", NULL), "= \n\n");   /* not in the tree */
    s->cfg.max_visits = 1;
    double share = hs__gtp_clock_budget(s, hs_gtp_game(g), HS_BLACK);
    double left = s->clock.left[HS_BLACK], t0 = hs_clock_now();
    HS_CHECK_STR(s_send(g, "genmove b", NULL), "= A9\n\n");
    double wall = hs_clock_now() - t0, charged = left - s->clock.left[HS_BLACK];
    double max_time = hs_mcts_get_config(s->mcts)->max_time;
    printf("freed %ld nodes: genmove took %.4f s, charged %.4f s, search given %.4f of %.4f s\n",
           nodes, wall, charged, max_time, share);
    HS_CHECK(hs_mcts_tree_nodes(s->mcts) < 10);
    HS_CHECK(charged > 0.5 * wall && charged <= wall);
    HS_CHECK(max_time < share && max_time >= share - wall);
    hs_gtp_free(&g);
    hs__gtp_search_free(&s);
}

int main(void)
{
    hs_gtp_config_t cfg = { .rules = HS_RULES_JAPANESE };
    hs_gtp_t *g = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_create(&cfg, &g, &err), 0);
    if (!g)
        return hs_test_finish();
    s_framing(g);
    s_registration(g);
    s_input_lines(g);
    s_rules_commands(g);
    s_loadsgf_errors(g);
    s_superko(g);
    s_rules_change(g);
    s_undo(g);
    s_stream_and_queue(g);
    s_search_commands(g);
    s_genmove_time();
    int quit = 0;
    HS_CHECK_STR(s_send(g, "9 quit", &quit), "=9 \n\n");
    HS_CHECK_INT(quit, 1);
    hs_gtp_free(&g);
    HS_CHECK(g == NULL);
    return hs_test_finish();
}
