/*
 * tests/test_gtp_front.c — the GTP front end (worker/gtp.h) without a net:
 * framing and ids, commands registered from outside (what genmove will do),
 * replacing a handler, blank lines in a response, and superko per the rules,
 * also after kata-set-rules changes them in mid-game (the history is rebuilt:
 * s_rules_change). Then what the search commands stand on: undo (a replay
 * that restores captures and the ko), streamed answers (hs_gtp_stream), the
 * input queue of hs_gtp_run (a handler sees the next line, or the end of
 * input, as pending), the search commands' errors without an evaluator, and
 * final_score / final_status_list from the static judge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "worker/gtp.h"

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

/* Runs hs_gtp_run over input; returns what it wrote (static, overwritten). */
static const char *s_run(hs_gtp_t *g, const char *input)
{
    static char answer[4096];
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    hs_error_t err;
    HS_CHECK_INT(hs_gtp_run(g, in, out, &err), 0);
    fclose(out);
    fclose(in);
    snprintf(answer, sizeof answer, "%s", text);
    free(text);
    return answer;
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
    s_superko(g);
    s_rules_change(g);
    s_undo(g);
    s_stream_and_queue(g);
    s_search_commands(g);
    int quit = 0;
    HS_CHECK_STR(s_send(g, "9 quit", &quit), "=9 \n\n");
    HS_CHECK_INT(quit, 1);
    hs_gtp_free(&g);
    HS_CHECK(g == NULL);
    return hs_test_finish();
}
