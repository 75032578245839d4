/*
 * worker/nn/forward.h — running a model: the raw network outputs of one
 * position (what every backend computes), the model version's
 * post-processing into probabilities and points (shared by every backend),
 * and the plain-C FP32 reference backend (forward_ref.c): straightforward
 * loops, correctness first; the fast backends are checked against it.
 *
 * Symmetries: 0-7 as KataGo numbers them (bit 0 flips y, bit 1 flips x,
 * bit 2 transposes; flips first), HS_NN_SYM_ALL averages the eight
 * post-processed outputs.
 *
 * Threads: a model is read-only; calls share nothing else.
 */
#ifndef HS_WORKER_NN_FORWARD_H
#define HS_WORKER_NN_FORWARD_H

#include "worker/nn/features.h"
#include "worker/nn/model.h"

#define HS_NN_SYM_ALL 8
#define HS_NN_MAX_AREA (HS_NN_MAX_SIZE * HS_NN_MAX_SIZE)

/* The network's outputs before post-processing, from the side to move's view,
 * on an n x n grid (row-major, y * n + x); policy[n*n] is pass. */
typedef struct hs_nn_raw {
    int n;
    float policy[HS_NN_MAX_AREA + 1];   /* logits, first policy channel */
    float value[3];                     /* win, loss, no-result logits */
    float score[6];                     /* 4 (version 8) or 6 score-value outputs */
    float ownership[HS_NN_MAX_AREA];    /* before tanh */
} hs_nn_raw_t;

/* Post-processed, from White's view (KataGo's kata-raw-nn fields). */
typedef struct hs_nn_output {
    int n;
    float policy[HS_NN_MAX_AREA + 1];   /* probabilities; -1 on illegal moves */
    float white_win, white_loss, no_result;
    float white_lead, white_score_selfplay, white_score_selfplay_sq;
    float var_time_left, st_winloss_error, st_score_error;   /* -1 before version 9 */
    float ownership[HS_NN_MAX_AREA];    /* White's, in [-1, 1] */
    /* 1 for a net trained on the patent's labels (our own input set), which
     * mark every stone 0: on a stone its ownership says dead (the opponent's
     * sign) or standing (near 0), not "owned" (+1) as KataGo's does */
    int stones_zero;
} hs_nn_output_t;

/* The reference forward pass of one position at symmetry sym (0-7): inputs as
 * hs_nn_features lays them out for an n x n board. HS_EINVAL for a bad n or
 * sym or inputs the model does not take, HS_ENOMEM. */
int hs_nn_forward_ref(const hs_nn_model_t *m, int n, const float *spatial,
                      const float *global, int sym, hs_nn_raw_t *raw, hs_error_t *err);

/* KataGo's global pooling of ch n x n planes (NCHW) into 3 * ch values: per
 * channel the mean, the mean scaled by board width ((n - 14) / 10), and the
 * max (trunk and policy) or, value_head, the mean scaled by
 * ((n - 14)^2 / 100 - 0.1). Shared by the reference pass and the cpu
 * backend's own steps. */
void hs_nn_pool(const float *in, int ch, int n, int value_head, float *out);

/* The version's post-processing (softmax over the legal moves, value softmax,
 * score multipliers and softplus, tanh ownership, to White's view). legal has
 * n*n + 1 entries (pass last). */
void hs_nn_postprocess(const hs_nn_model_t *m, const hs_nn_raw_t *raw,
                       const hs_nn_pos_t *pos, const unsigned char *legal,
                       hs_nn_output_t *out);

/* Features, legality, the reference forward pass at sym (0-7 or
 * HS_NN_SYM_ALL) and post-processing: one position, end to end. */
int hs_nn_eval_ref(const hs_nn_model_t *m, const hs_nn_pos_t *pos, int sym,
                   hs_nn_output_t *out, hs_error_t *err);

#endif
