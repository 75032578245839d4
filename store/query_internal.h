/*
 * store/query_internal.h — what the files of the query layer share: numbers
 * and the game record's fields as JSON and CSV write them (store/query_fmt.c),
 * and the net's and the search's fields of an eval in each output format
 * (store/query_net.c, store/query_search.c). hs__ names: internal to store/.
 *
 * The rule every JSON writer here keeps (docs/QUERY.md, "Rows"): a field a
 * row type has is always written, null when there is no value; CSV writes an
 * empty cell for it.
 */
#ifndef HS_STORE_QUERY_INTERNAL_H
#define HS_STORE_QUERY_INTERNAL_H

#include <stdio.h>

#include "core/game.h"
#include "core/wire.h"

/* A stored float (an eval's field) as hs_query_number writes it, at least two
 * decimals; none (JSON "null", CSV "") when it is NaN or infinite. */
void hs__query_float(FILE *out, float v, const char *none);

/* A win rate or prior stored as k / 65535 (docs/STORE.md): five decimals,
 * which name k exactly (four did not: 0.0892 reads back as 5846, not 5845). */
void hs__query_fixed(FILE *out, uint16_t k);

/* Text from a game record in a table row, padded to width: a control byte
 * (a newline in a player's name) would break the row, so it shows as '?'.
 * CSV and JSON quote such text instead. */
void hs__query_table_text(FILE *out, const char *s, int width);

/* A string of the record (a name, a source, RE): JSON null when absent. */
void hs__query_json_text(FILE *out, const char *s);

/* The game record's komi, RE as written and komi_fits
 * (hs_result_fits_komi): JSON ",\"komi\":K,\"re\":\"..\",\"komi_fits\":B",
 * CSV ",K,RE,B" (true/false). g NULL (the record is gone): null / empty. */
void hs__query_json_game(FILE *out, const hs_game_t *g);
void hs__query_csv_game(FILE *out, const hs_game_t *g);

/* A policy move's name: GTP letters and rows as core/board.h names points
 * ("D4", "pass"); buf holds at least 5 bytes. */
const char *hs__query_move_name(int size, uint16_t vertex, char *buf);

/* JSON: ",\"score_stdev\":S" and ",\"policy\":[{\"move\":\"D4\",\"prob\":P},...]",
 * each null when the eval has none (every engine but the net's), then the
 * search's fields. */
void hs__query_json_net(FILE *out, const hs_eval_t *e);

/* CSV: the net's two columns ",S,D4 P;Q16 P;..." (empty when absent), then
 * the search's four. */
void hs__query_csv_net(FILE *out, const hs_eval_t *e);

/* Table: one indented line under the row, "spread S  policy D4 P, ...", only
 * when the eval has them. */
void hs__query_table_net(FILE *out, const hs_eval_t *e);

/* A tree search's fields (store/query_search.c). JSON: ",\"visits\":V,
 * \"best\":\"D4\",\"pv\":[...],\"moves\":[{\"move\",\"visits\",\"winrate\",\"lead\",
 * \"prior\"},...]" (Black's win rate and lead), all four null when the eval
 * has no search. CSV: the four last columns ",V,D4,D4 Q16 ...,D4 V W L P;..."
 * (empty when absent). Table: indented lines under the row, only where the
 * eval has them. The net's functions above call them, so every place that
 * prints the net's fields prints these. */
void hs__query_json_search(FILE *out, const hs_eval_t *e);
void hs__query_csv_search(FILE *out, const hs_eval_t *e);
void hs__query_table_search(FILE *out, const hs_eval_t *e);

#endif
