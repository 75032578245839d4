/*
 * worker/engine_plugins.h — the engines that live in their own modules, as
 * vtables the registry in worker/engine.c lists. Adapters from each module's
 * own API to hs_engine_vtable_t are in worker/engine_adapters.c.
 */
#ifndef HS_WORKER_ENGINE_PLUGINS_H
#define HS_WORKER_ENGINE_PLUGINS_H

#include <stdbool.h>
#include <stddef.h>

#include "worker/engine.h"

extern const hs_engine_vtable_t hs__engine_influence_vt;
extern const hs_engine_vtable_t hs__engine_judge_vt;
extern const hs_engine_vtable_t hs__engine_net_vt;         /* worker/engine_net.c */
extern const hs_engine_vtable_t hs__engine_judge_net_vt;   /* worker/engine_judge_net.c */
extern const hs_engine_vtable_t hs__engine_mcts_vt;        /* worker/engine_mcts.c */

struct hs_nn_pos;
struct hs_judge;
struct hs_nn_backend_config;

/* The backend an engine's net runs on, from its config: the kind, the batch
 * (the backend's default when cfg does not say), the threads and the GPU
 * (worker/engine_net.c). */
void hs__engine_backend_config(const hs_engine_config_t *cfg, struct hs_nn_backend_config *bc);

/* A judgment's ownership (x100, rounded) and class letters ('?' for a class
 * without one), row-major, into r's maps: what both judges return
 * (worker/engine_adapters.c). */
void hs__engine_judge_maps(const struct hs_judge *j, const hs_board_t *b,
                           hs_engine_result_t *r);

/* The net's view of an engine position (side to move, rules, komi, stones
 * put down, the last moves, the boards before them): every engine that hands
 * positions to worker/nn/ or to the tree search builds it this way
 * (worker/engine_net.c). */
void hs__engine_nn_pos(const hs_engine_pos_t *ep, struct hs_nn_pos *p);

/* The value of `key` in a "k=v,k=v" options string into buf; false when
 * absent (worker/engine_net.c). */
bool hs__engine_opt_str(const char *opts, const char *key, char *buf, size_t size);

#define HS_ENGINE_PLUGIN_LIST &hs__engine_influence_vt, &hs__engine_judge_vt, \
                              &hs__engine_net_vt, &hs__engine_judge_net_vt, \
                              &hs__engine_mcts_vt,

#endif
