/*
 * worker/mcts_eval.c — what both leaf evaluators of worker/mcts_eval.h share:
 * freeing either kind and reading its helper threads' CPU. Each kind fills
 * the evaluator's destroy and helper_cpu hooks, so these two need not know
 * which kind they hold.
 */
#include <string.h>

#include "worker/mcts_eval.h"

void hs_mcts_evaluator_free(hs_mcts_evaluator_t *ev)
{
    if (!ev)
        return;
    if (ev->destroy && ev->ctx)
        ev->destroy(ev->ctx);
    memset(ev, 0, sizeof *ev);
}

double hs_mcts_evaluator_helper_cpu(const hs_mcts_evaluator_t *ev)
{
    if (!ev || !ev->helper_cpu || !ev->ctx)
        return 0.0;
    return ev->helper_cpu(ev->ctx);
}
