/*
 * worker/judge_net.h — the judge that reads the net: life and death from a
 * KataGo network's ownership instead of the playouts, then the judge's own
 * seki, dame, region and must-fill analysis and counting (worker/judge.h).
 * See docs/JUDGE.md "The net judge".
 *
 * How: a group of the judge (strings of one colour that share an eye region,
 * judge.h step 1; a lone string is a group of its own) is dead when the net's
 * mean ownership of its stones, seen from its owner's side, is below
 * cfg->mc_dead; a weak group shut in by strong walls alone also when below
 * cfg->mc_shut_max. Exactly the test the playouts' ownership gets, with
 * thresholds tuned for the net (HS_JUDGE_NET_DEAD, HS_JUDGE_NET_SHUT_MAX, on
 * the training split: docs/JUDGE.md). Seki, dame and the count are the
 * judge's, so counting follows the rules as hs_judge_score does.
 *
 * The net itself runs elsewhere (worker/nn/eval.h, batched by the caller);
 * this module turns one position's output into a judgment, and builds the
 * net's input position (hs_nn_pos_t with its history) from a game record.
 *
 * Threads: pure functions of their arguments.
 */
#ifndef HS_WORKER_JUDGE_NET_H
#define HS_WORKER_JUDGE_NET_H

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "worker/judge.h"
#include "worker/nn/forward.h"

/* Thresholds on the mean own-side net ownership of a group (tuned on one half
 * of ../shared/data's counted games; docs/JUDGE.md). */
#define HS_JUDGE_NET_DEAD 0.2f
#define HS_JUDGE_NET_SHUT_MAX 0.4f
/* The playouts' share in the mixed ownership (hs_judge_net_compute_mixed;
 * 0: the net alone). */
#define HS_JUDGE_NET_MC_WEIGHT 0.0f

/* For a FINISHED position: hs_judge_config_final without playouts, every
 * one-colour region territory, the net's thresholds. */
void hs_judge_net_config_final(hs_judge_config_t *cfg);

/* Mid-game: hs_judge_config_default's open-region cap, no relaxed kill (as
 * the "judge" engine mid-game), the net's thresholds. */
void hs_judge_net_config_midgame(hs_judge_config_t *cfg);

/* Judges b with the ownership of net (the net's output for this very
 * position: net->n must equal b->size). cfg NULL: hs_judge_net_config_final.
 * 0, or HS_EINVAL for a size mismatch or a bad board size. */
int hs_judge_net_compute(const hs_board_t *b, const hs_nn_output_t *net,
                         const hs_judge_config_t *cfg, hs_judge_t *out, hs_error_t *err);

/* The same with the net's ownership mixed with the judge's playouts'
 * (hs_judge_mc_ownership: mc, board-indexed, Black +1): each point's
 * ownership is (1 - mc_weight) * net + mc_weight * mc before the test.
 * mc may be NULL when mc_weight is 0. What for: the playouts read the
 * tactics of a finished position's last fights, the net the whole board. */
int hs_judge_net_compute_mixed(const hs_board_t *b, const hs_nn_output_t *net, const float *mc,
                               float mc_weight, const hs_judge_config_t *cfg, hs_judge_t *out,
                               hs_error_t *err);

/* The net's own score estimate, Black minus White (its score lead, komi in
 * the net's eyes included). */
double hs_judge_net_lead(const hs_nn_output_t *net);


#endif
