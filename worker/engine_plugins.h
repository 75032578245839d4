/*
 * worker/engine_plugins.h — the engines that live in their own modules, as
 * vtables the registry in worker/engine.c lists. Adapters from each module's
 * own API to hs_engine_vtable_t are in worker/engine_adapters.c.
 */
#ifndef HS_WORKER_ENGINE_PLUGINS_H
#define HS_WORKER_ENGINE_PLUGINS_H

#include "worker/engine.h"

extern const hs_engine_vtable_t hs__engine_influence_vt;
extern const hs_engine_vtable_t hs__engine_judge_vt;
extern const hs_engine_vtable_t hs__engine_net_vt;         /* worker/engine_net.c */
extern const hs_engine_vtable_t hs__engine_judge_net_vt;   /* worker/engine_judge_net.c */

#define HS_ENGINE_PLUGIN_LIST &hs__engine_influence_vt, &hs__engine_judge_vt, \
                              &hs__engine_net_vt, &hs__engine_judge_net_vt,

#endif
