/*
 * reports/game_report_internal.h — what game_report.c, game_maps.c and
 * game_sgf.c share: the engine kind of an engine id (looked up once per id and
 * kept in a small cache, since every eval of a game names its engine) and the
 * GTP name of a game vertex.
 */
#ifndef HS_REPORTS_GAME_REPORT_INTERNAL_H
#define HS_REPORTS_GAME_REPORT_INTERNAL_H

#include <stdint.h>

#include "reports/game_report.h"

/* Engine ids remembered per cache; a game evaluated by more engines than this
 * (never seen in practice) looks the others up each time. */
#define HS__ENGINE_KINDS_MAX 32

typedef struct hs__engine_kinds {
    int n;
    uint32_t id[HS__ENGINE_KINDS_MAX];
    uint8_t kind[HS__ENGINE_KINDS_MAX];   /* hs_report_source_t */
    uint8_t rank[HS__ENGINE_KINDS_MAX];   /* see hs__report_spec_kind */
} hs__engine_kinds_t;

/* The kind of an engine spec by its name (before '@' or ':'): "mcts" -> MCTS,
 * "net" and "judge-net" -> net, "judge", "area", "influence" -> judge,
 * anything else NONE (ignored). *rank (may be NULL): 0, or 1 for "area" and
 * "influence", which lose to "judge" within the kind whatever their engine ids:
 * their lead is a bare count with no dead stones taken off (area's lead after
 * one stone is the whole board), so a store analysed with both would
 * otherwise draw its curve from the crude count. */
hs_report_source_t hs__report_spec_kind(const char *spec, int *rank);

/* The kind (and rank, may be NULL) of engine_id in store s, through cache c
 * (zeroed by the caller before first use). An id the store does not know is
 * NONE. 0 or a store error. */
int hs__report_engine_kind(hs_store_t *s, hs__engine_kinds_t *c, uint32_t engine_id,
                           hs_report_source_t *kind, int *rank, hs_error_t *err);

/* "D4" style name of vertex (y * size + x) on a size board, "pass" for
 * HS_GAME_PASS, "" for anything else; buf >= 5 bytes. */
const char *hs__report_vertex_name(int vertex, int size, char *buf);

#endif
