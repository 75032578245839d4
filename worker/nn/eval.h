/*
 * worker/nn/eval.h — evaluating Go positions with a net: features, the
 * chosen symmetry, batches through a backend (worker/nn/backend.h), then the
 * model version's post-processing. What GTP, the `net` engine and the judge
 * call; none of them talks to a backend directly.
 *
 * Batching: hs_nn_evaluate takes any number of positions and runs them in
 * batches of at most the backend's max_batch; positions of different board
 * sizes go in different batches (in the order given). With HS_NN_SYM_ALL each
 * position takes eight batch slots and its eight post-processed outputs are
 * averaged.
 *
 * Ownership: an evaluator borrows its model (it must outlive the evaluator)
 * and owns its backend and buffers. One thread at a time per evaluator.
 */
#ifndef HS_WORKER_NN_EVAL_H
#define HS_WORKER_NN_EVAL_H

#include "worker/nn/backend.h"

typedef struct hs_nn_evaluator hs_nn_evaluator_t;

/* Creates the backend cfg asks for and the buffers for cfg->max_batch
 * positions. Errors: hs_nn_backend_create's. Free with hs_nn_evaluator_free. */
int hs_nn_evaluator_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg,
                           hs_nn_evaluator_t **out, hs_error_t *err);

/* Frees and sets *e to NULL; NULL-safe. */
void hs_nn_evaluator_free(hs_nn_evaluator_t **e);

/* Evaluates pos[0..count) at symmetry sym (0-7, or HS_NN_SYM_ALL) into
 * out[0..count). HS_EINVAL for a bad sym or position (board over 19x19),
 * else the backend's error; out is then undefined. */
int hs_nn_evaluate(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, int count, int sym,
                   hs_nn_output_t *out, hs_error_t *err);

/* As hs_nn_evaluate, with position p at symmetry syms[p] (0-7), all in the
 * same batches: the tree search gives each leaf its own symmetry and would
 * otherwise cut a batch into up to eight. HS_EINVAL for a symmetry over 7. */
int hs_nn_evaluate_syms(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, int count,
                        const unsigned char *syms, hs_nn_output_t *out, hs_error_t *err);

/* One position at the nsyms symmetries syms[0..nsyms) (distinct, 0-7), in
 * one batch, their outputs averaged into *out: KataGo's
 * rootNumSymmetriesToSample. HS_EINVAL for nsyms outside 1..8 or a symmetry
 * over 7, else as hs_nn_evaluate. */
int hs_nn_evaluate_avg(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, const unsigned char *syms,
                       int nsyms, hs_nn_output_t *out, hs_error_t *err);

/* hs_nn_backend_helper_cpu of its backend. */
double hs_nn_evaluator_helper_cpu(const hs_nn_evaluator_t *e);

/* The evaluator's backend (for its kind and batch size). Borrowed. */
const hs_nn_backend_t *hs_nn_evaluator_backend(const hs_nn_evaluator_t *e);

/* Where (x, y) lands under symmetry sym (0-7; KataGo's order: flip y if bit
 * 0, flip x if bit 1, then transpose if bit 2), as y' * n + x'. */
int hs_nn_sym_index(int x, int y, int n, int sym);

/* planes n x n planes from in to out under symmetry sym. */
void hs_nn_sym_planes(const float *in, float *out, int planes, int n, int sym);

/* A raw output computed on sym-transformed inputs, back to the board's frame. */
void hs_nn_unsym_raw(hs_nn_raw_t *raw, int n, int sym);

/* KataGo's legality for the policy: legal[y*n+x] for the side to move (empty,
 * not the simple-ko point, suicide only where the rules allow it), and
 * legal[n*n] = 1 for pass. Superko bans are not applied. */
void hs_nn_legal_moves(const hs_nn_pos_t *pos, unsigned char *legal);

#endif
