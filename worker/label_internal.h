/*
 * worker/label_internal.h — what worker/label.c (steps 2 and 3, the check)
 * and worker/label_yose.c (the replay and step 1) share. Not an API.
 */
#ifndef HS_WORKER_LABEL_INTERNAL_H
#define HS_WORKER_LABEL_INTERNAL_H

#include <stdbool.h>

#include "worker/judge.h"
#include "worker/label.h"

/* Whether g's result can be checked at all; false with out->status SKIP and
 * the reason filled in (no RE, "?", Void, forfeit). */
bool hs__label_result_usable(const hs_game_t *g, hs_label_t *out);

/* Sets out to SKIP with a reason (printf-style). */
void hs__label_skip(hs_label_t *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* hs_label_final with the position as the net sees it (pos: b with its
 * history, or NULL: hs_label_final builds a history-less one). */
int hs__label_final_pos(const hs_label_config_t *cfg, const hs_game_t *g, const hs_board_t *b,
                        const hs_nn_pos_t *pos, hs_label_t *out, hs_error_t *err);

/* hs_label_game, and the position its yose ended on into *final (when not
 * NULL and the game was played out), for tests. */
int hs__label_game_board(const hs_label_config_t *cfg, const hs_game_t *g, hs_label_t *out,
                         hs_board_t *final, hs_error_t *err);

/* The judge configuration of step 1's closedness test: the finished-position
 * rules (relaxed kill, no territory cap) without playouts (~60 us). */
void hs__label_closed_config(hs_judge_config_t *cfg);

/* Whether judgment j of b is closed (docs/LABELS.md, "The three steps"):
 * no dead stone outside territory, and every dame point touches living
 * stones of both colours; under area scoring (area true) no dame point at
 * all, since each is worth a point to whoever fills it. */
bool hs__label_closed(const hs_board_t *b, const hs_judge_t *j, bool area);

#endif
