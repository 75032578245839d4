/*
 * core/game_internal.h — what core/game.c (records) and core/game_result.c
 * (results and komi as written) share; not part of the API of core/game.h.
 */
#ifndef HS_CORE_GAME_INTERNAL_H
#define HS_CORE_GAME_INTERNAL_H

#include <stdbool.h>

#include "core/game.h"

static inline bool hs__game_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline const char *hs__game_skip_space(const char *s)
{
    while (hs__game_is_space(*s))
        s++;
    return s;
}

/* Sets g->komi and g->komi_source from KM as written (km, may be NULL), per
 * the rules at the top of core/game.c; g->handicap and g->rules must be set.
 * ogs: the record is from OGS (PC[OGS: ...]). */
void hs__game_read_komi(hs_game_t *g, const char *km, bool ogs);

#endif
