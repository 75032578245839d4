/*
 * tests/fuzz/fuzz_gtp.c — libFuzzer target for the GTP front end
 * (worker/gtp.h): what a controller sends us on stdin, line by line, to one
 * front end without a net, searching with rollouts on a tiny budget (4
 * visits a genmove, 8 an analysis, 8 playouts for final_score's and
 * final_status_list's judge, one thread) so that genmove, undo, the clock
 * commands, final_score and the analysis commands run on every input that
 * names them. (With the judge's 256 playouts for finished positions, CI's
 * 60-second smoke got through only ~200-300 inputs.)
 *
 * Properties checked on every line's answer: nothing for a line that is
 * empty after GTP's cleaning, else one framed response: '=' or '?', the id
 * digits, and exactly one empty line, at its end (an empty line inside would
 * end the response early for the controller). After `quit` nothing more is
 * sent. Lines naming loadsgf are skipped: they read files (a fuzzer's
 * "/dev/stdin" would block), and the SGF reader has its own target.
 * Seeds in tests/fuzz/corpus/gtp/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/gtp.h"
#include "worker/mcts_eval.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check_answer(const char *a, size_t len)
{
    if (len == 0)
        return;
    if (len < 3 || (a[0] != '=' && a[0] != '?'))
        abort();
    if (a[len - 1] != '\n' || a[len - 2] != '\n')
        abort();
    const char *blank = strstr(a, "\n\n");
    if (!blank || (size_t)(blank - a) != len - 2)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    hs_mcts_rollout_config_t rc;
    hs_mcts_rollout_config_default(&rc);
    rc.threads = 1;
    hs_mcts_evaluator_t ev;
    if (hs_mcts_rollout_evaluator_create(&rc, &ev, NULL))
        abort();
    hs_gtp_config_t cfg = { .rules = HS_RULES_JAPANESE, .search_eval = &ev,
                            .analysis_visits = 8, .resign_threshold = 0.05,
                            .final_playouts = 8 };
    hs_mcts_config_default(&cfg.search);
    cfg.search.max_visits = 4;
    hs_gtp_t *g = NULL;
    if (hs_gtp_create(&cfg, &g, NULL))
        abort();
    int quit = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && !quit;
         line = strtok_r(NULL, "\n", &save)) {
        if (strstr(line, "loadsgf"))
            continue;
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        if (!f)
            abort();
        quit = hs_gtp_line(g, line, f);
        fclose(f);
        s_check_answer(out, len);
        free(out);
    }
    hs_gtp_free(&g);
    hs_mcts_evaluator_free(&ev);
    free(text);
    return 0;
}
