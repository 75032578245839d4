/*
 * store/query_internal.h — what store/query.c and store/query_net.c share:
 * the net engine's fields of an eval (score spread, top policy moves) in each
 * output format. hs__ names: internal to store/.
 */
#ifndef HS_STORE_QUERY_INTERNAL_H
#define HS_STORE_QUERY_INTERNAL_H

#include <stdio.h>

#include "core/wire.h"

/* A policy move's name: GTP letters and rows as core/board.h names points
 * ("D4", "pass"); buf holds at least 5 bytes. */
const char *hs__query_move_name(int size, uint16_t vertex, char *buf);

/* JSON: ",\"score_stdev\":S" and ",\"policy\":[{\"move\":\"D4\",\"prob\":P},...]",
 * each only when the eval has it (other engines' lines stay as they were). */
void hs__query_json_net(FILE *out, const hs_eval_t *e);

/* CSV: the two last columns, ",S,D4 P;Q16 P;..." (empty when absent). */
void hs__query_csv_net(FILE *out, const hs_eval_t *e);

/* Table: one indented line under the row, "spread S  policy D4 P, ...", only
 * when the eval has them. */
void hs__query_table_net(FILE *out, const hs_eval_t *e);

/* A tree search's fields (store/query_search.c), each only where the eval
 * has them. JSON: ",\"visits\":V,\"best\":\"D4\",\"pv\":[...],\"moves\":[{\"move\",
 * \"visits\",\"winrate\",\"lead\",\"prior\"},...]" (Black's win rate and lead).
 * CSV: the four last columns ",V,D4,D4 Q16 ...,D4 V W L P;..." (empty when
 * absent). Table: indented lines under the row. The net's functions above
 * call them, so every place that prints the net's fields prints these. */
void hs__query_json_search(FILE *out, const hs_eval_t *e);
void hs__query_csv_search(FILE *out, const hs_eval_t *e);
void hs__query_table_search(FILE *out, const hs_eval_t *e);

#endif
