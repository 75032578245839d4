/*
 * tests/test_gtp_front.c — the GTP front end (worker/gtp.h) without a net:
 * framing and ids, commands registered from outside (what genmove will do),
 * replacing a handler, blank lines in a response, and superko per the rules,
 * also after kata-set-rules changes them in mid-game (the history is rebuilt:
 * s_rules_change).
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
    HS_CHECK(strstr(list, "\nkata-raw-nn\nx-echo\nx-blank\n\n") != NULL);
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
    int quit = 0;
    HS_CHECK_STR(s_send(g, "9 quit", &quit), "=9 \n\n");
    HS_CHECK_INT(quit, 1);
    hs_gtp_free(&g);
    HS_CHECK(g == NULL);
    return hs_test_finish();
}
