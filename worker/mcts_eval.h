/*
 * worker/mcts_eval.h — the two leaf evaluators of the tree search
 * (worker/mcts.h): the net, and rollouts for where no net is loaded.
 *
 * Net (mcts_eval_net.c): each leaf goes through hs_nn_evaluate at one of
 * the eight symmetries, chosen from the leaf's board key and the seed (so a
 * search is deterministic and different leaves see different symmetries, as
 * KataGo's random symmetry does). The outputs turn into hs_mcts_eval_t from
 * the side to move's view: value = win - loss, score = lead, spread =
 * sqrt(selfplay_sq - selfplay^2), policy as the net gives it (legal moves
 * only). The evaluator borrows an hs_nn_evaluator (it must outlive it; one
 * thread at a time, like the evaluator).
 *
 * Rollouts (mcts_eval_rollout.c): per leaf, `playouts` playouts to the end
 * with a cheap policy, in this order of preference:
 *   1. capture a string that is in atari (biggest first),
 *   2. save one's own string in atari by extending, when the reader's fast
 *      check (worker/tactics.h) says the extension is not simply laddered,
 *   3. answer the last move with a 3x3 shape a player would play there (a
 *      hane, a cut, an edge block: MoGo's shapes, worker/mcts_pat3.c), one
 *      of the last move's 8 neighbours that fits, at random (`patterns`),
 *   4. otherwise a random legal move,
 * never a self-atari of a string of more than `self_atari_max` stones (2)
 * and never a fill of one's own eye. The final Tromp-Taylor area (stones plus
 * surrounded empty points, after the playout has captured the dead) against
 * komi gives the value (+1 win, -1 loss, 0 jigo, averaged), the score (the
 * mean margin) and the ownership (the mean owner of each point). The prior is
 * uniform over legal moves other than own eyes, with boosts for captures and
 * atari escapes and a smaller one for the third and fourth lines, so that a
 * rollout search spends its first visits where a player would look; one's
 * own eyes and suicides get prior 0 (legal, searched last), pass a tenth of
 * a plain move's weight. The playouts also report their AMAF statistics
 * (hs_mcts_eval_t.amaf_*), for the search's RAVE. A batch
 * of leaves is spread over `threads` worker threads (each leaf seeded from
 * the seed and its board key, so results do not depend on the threads).
 */
#ifndef HS_WORKER_MCTS_EVAL_H
#define HS_WORKER_MCTS_EVAL_H

#include <stdint.h>

#include "core/error.h"
#include "worker/mcts.h"
#include "worker/nn/eval.h"

/* A net evaluator over nn (borrowed; max_batch = its backend's max_batch).
 * seed picks the symmetries. HS_ENOMEM. Free with hs_mcts_evaluator_free. */
int hs_mcts_net_evaluator_create(hs_nn_evaluator_t *nn, uint64_t seed, hs_mcts_evaluator_t *out,
                                 hs_error_t *err);

/* Evaluates every leaf at symmetry sym (0..7) from now on, or at the drawn
 * ones again (-1). KataGo's nnRandomize = false is sym 0: with one thread,
 * both programs then search on the same evaluations, which is how their
 * trees are compared (bench/mcts_parity.sh). HS_EINVAL: ev is not a net
 * evaluator, or sym is out of range. */
int hs_mcts_net_evaluator_fix_symmetry(hs_mcts_evaluator_t *ev, int sym, hs_error_t *err);

typedef struct hs_mcts_rollout_config {
    int playouts;          /* per leaf (default 1) */
    int threads;           /* worker threads for a batch (0 = every core) */
    int max_batch;         /* leaves per call (default 16 * threads) */
    int self_atari_max;    /* largest string a playout may put in self-atari (2) */
    int patterns;          /* 1: answer the last move with MoGo's 3x3 shapes (default) */
    uint64_t seed;
} hs_mcts_rollout_config_t;

void hs_mcts_rollout_config_default(hs_mcts_rollout_config_t *cfg);

/* A rollout evaluator (starts its threads). HS_EINVAL for a bad config,
 * HS_ENOMEM, HS_EIO when a thread cannot start. */
int hs_mcts_rollout_evaluator_create(const hs_mcts_rollout_config_t *cfg,
                                     hs_mcts_evaluator_t *out, hs_error_t *err);

/* Frees either kind (joins the rollout threads) and zeroes *ev; safe on a
 * zeroed evaluator. */
void hs_mcts_evaluator_free(hs_mcts_evaluator_t *ev);

/* CPU seconds of the evaluator's own threads since create (the rollout pool,
 * or the net backend's OpenMP team), for the engine CPU figures. */
double hs_mcts_evaluator_helper_cpu(const hs_mcts_evaluator_t *ev);

#endif
