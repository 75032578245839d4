/*
 * bench/game_sgf.h — a parsed game written back as plain SGF, for the peers
 * the benchmarks hand games to (GNU Go reads a file, not our structs).
 * Setup stones, then the main line; size, komi, handicap and rules in the
 * root. Comments, variations and other properties are not kept: the peers
 * need the position, nothing else.
 */
#ifndef HS_BENCH_GAME_SGF_H
#define HS_BENCH_GAME_SGF_H

#include <stdio.h>

#include "core/game.h"

/* Writes g to f as one SGF game tree and a newline. Returns 0, or -1 when a
 * write to f failed (errno says why). */
int hs_bench_write_game_sgf(FILE *f, const hs_game_t *g);

/* The same as a NUL-terminated string the caller frees; NULL when out of
 * memory. */
char *hs_bench_game_sgf(const hs_game_t *g);

#endif
