/*
 * worker/gtp_raw_nn.c — `kata-raw-nn SYMMETRY|all|mean`: the net's
 * post-processed outputs for the position now, printed in KataGo's layout
 * (the same keys, order and number formats as KataGo's GTP command) so that
 * the two programs' answers can be compared line by line.
 *
 * `all` prints the eight symmetries one after the other, as KataGo does (its
 * blank line between them is dropped: an empty line ends a GTP response);
 * `mean` (ours, not KataGo's) prints one block, "symmetry mean", with the
 * evaluator's average of the eight.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "worker/gtp_internal.h"

static void s_grid(hs_buf_t *r, const float *v, int n, int policy)
{
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            float f = v[y * n + x];
            if (policy && f < 0)
                hs_gtp_printf(r, "    NAN ");
            else
                hs_gtp_printf(r, policy ? "%8.6f " : "%9.7f ", f);
        }
        hs_gtp_printf(r, "\n");
    }
}

static void s_block(hs_buf_t *r, const char *sym, const hs_nn_output_t *o)
{
    hs_gtp_printf(r, "symmetry %s\n", sym);
    hs_gtp_printf(r, "whiteWin %.6f\nwhiteLoss %.6f\nnoResult %.6f\n", o->white_win,
                  o->white_loss, o->no_result);
    hs_gtp_printf(r, "whiteLead %.3f\nwhiteScoreSelfplay %.3f\nwhiteScoreSelfplaySq %.3f\n",
                  o->white_lead, o->white_score_selfplay, o->white_score_selfplay_sq);
    hs_gtp_printf(r, "varTimeLeft %.3f\nshorttermWinlossError %.3f\nshorttermScoreError %.3f\n",
                  o->var_time_left, o->st_winloss_error, o->st_score_error);
    hs_gtp_printf(r, "policy\n");
    s_grid(r, o->policy, o->n, 1);
    float pass = o->policy[o->n * o->n];
    if (pass < 0)
        hs_gtp_printf(r, "policyPass     NAN \n");
    else
        hs_gtp_printf(r, "policyPass %8.6f \n", pass);
    hs_gtp_printf(r, "whiteOwnership\n");
    s_grid(r, o->ownership, o->n, 0);
}

/* "0".."7", "all" (-1) or "mean" (HS_NN_SYM_ALL) into *sym. */
static int s_symmetry(const char *s, int *sym)
{
    if (!strcasecmp(s, "all"))
        *sym = -1;
    else if (!strcasecmp(s, "mean"))
        *sym = HS_NN_SYM_ALL;
    else if (s[0] >= '0' && s[0] <= '7' && !s[1])
        *sym = s[0] - '0';
    else
        return -1;
    return 0;
}

static int s_raw_nn(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    int sym;
    if (argc != 1 || s_symmetry(argv[0], &sym)) {
        hs_gtp_printf(r, "Expected a symmetry argument 'all', 'mean' or index [0-7] for "
                      "kata-raw-nn");
        return 1;
    }
    hs_nn_evaluator_t *e = hs_gtp_config(g)->eval;
    if (!e) {
        hs_gtp_printf(r, "kata-raw-nn: no net loaded");
        return 1;
    }
    hs_nn_output_t *o = malloc(sizeof *o);
    if (!o) {
        hs_gtp_printf(r, "out of memory");
        return 1;
    }
    hs_nn_pos_t pos;
    hs_gtp_game_pos(hs_gtp_game(g), &pos);
    int first = sym < 0 ? 0 : sym, last = sym < 0 ? 7 : sym;
    int rc = 0;
    hs_error_t err;
    for (int s = first; !rc && s <= last; s++) {
        rc = hs_nn_evaluate(e, &pos, 1, s, o, &err);
        if (!rc) {
            char name[12];
            snprintf(name, sizeof name, "%d", s);
            s_block(r, s == HS_NN_SYM_ALL ? "mean" : name, o);
        }
    }
    free(o);
    if (rc) {
        r->len = 0;
        hs_gtp_printf(r, "kata-raw-nn: %s", err.msg);
        return 1;
    }
    return 0;
}

int hs__gtp_register_nn(hs_gtp_t *g, hs_error_t *err)
{
    return hs_gtp_register(g, "kata-raw-nn", s_raw_nn, NULL, err);
}
