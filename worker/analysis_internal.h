/*
 * worker/analysis_internal.h — what the analysis protocol's files share:
 * the locked output (analysis_out.c), a parsed query and its turns
 * (analysis_query.c reads them, analysis.c searches them, analysis_reply.c
 * writes their replies).
 */
#ifndef HS_WORKER_ANALYSIS_INTERNAL_H
#define HS_WORKER_ANALYSIS_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/json_read.h"
#include "worker/analysis.h"
#include "worker/gtp_game.h"
#include "worker/mcts.h"

/* The output: one lock around each whole line. */
typedef struct hs__aout {
    FILE *f;
    pthread_mutex_t mu;
} hs__aout_t;

void hs__aout_lock(hs__aout_t *o);
/* Ends the line, flushes, unlocks. */
void hs__aout_unlock(hs__aout_t *o);
/* {"error":msg} (id NULL), or {"error":msg,"field":field,"id":id}; warning
 * when is_warning. A whole line. */
void hs__aout_error(hs__aout_t *o, const char *id, const char *field, const char *msg,
                    bool is_warning);
/* {"error":msg,"id":ID}, ID the JSON value id as it was (a string or a number:
 * the too-long line's, which need not be a string), or {"error":msg} when id
 * is NULL. A whole line. */
void hs__aout_error_value_id(hs__aout_t *o, const hs_json_t *id, const char *msg);
/* A number as KataGo's replies write them: rounded to 9 significant digits
 * (its Global::roundDynamic(x, 8)), then hs_analysis_json_double (0 when
 * not finite, never -0.0). hs__aout_num6: rounded to 6 decimals instead,
 * as KataGo rounds ownership and ownershipStdev. */
void hs__aout_num(FILE *f, double x);
void hs__aout_num6(FILE *f, double x);

/* One query line, shared by its turns (refs counts them). */
typedef struct hs__aquery {
    int refs;
    char *id;
    long seq;                      /* arrival order: priority ties */
    int size;
    hs_rules_id_t rules;
    double komi;
    hs_color_t first_player;       /* to move at turn 0 */
    int n_setup;
    hs_point_t *setup_pt;          /* on a size x size board */
    uint8_t *setup_col;
    int n_moves;
    hs_gtp_move_t *moves;
    hs_mcts_config_t cfg;
    hs_analysis_perspective_t report_as;
    bool ignore_pre_root_history;
    bool own, own_stdev, policy, pv_visits, no_result;
    bool moves_own, moves_own_stdev;   /* includeMovesOwnership(Stdev) */
    int pv_len;                    /* PV moves after the first (analysisPVLen) */
    double report_every;           /* seconds; 0 = no reports during the search */
    double first_report;           /* seconds before the first of them */
    hs_mcts_filter_t *filter;      /* avoidMoves / allowMoves; NULL: none */
} hs__aquery_t;

/* One (query, turn): queued, then searched. */
typedef struct hs__aturn {
    hs__aquery_t *q;
    int turn;
    int64_t priority;
    bool terminated;
    hs_mcts_t *m;                  /* while searched */
    double started, next_report;   /* hs_clock_now() */
} hs__aturn_t;

void hs__aquery_unref(hs__aquery_t *q);

/* What the reader hands the searching thread. */
typedef enum { HS__AITEM_TURNS, HS__AITEM_TERMINATE } hs__aitem_kind_t;

typedef struct hs__aitem {
    hs__aitem_kind_t kind;
    struct hs__aitem *next;
    /* TURNS */
    hs__aturn_t **turns;
    int n_turns;
    /* TERMINATE: terminate_id NULL = every query (terminate_all); turn
     * numbers NULL = every turn */
    char *terminate_id;
    int *turn_numbers;
    int n_turn_numbers;
} hs__aitem_t;

void hs__aitem_free(hs__aitem_t *it);

/* An integer-valued JSON number in lo..hi (|lo|, |hi| < 2^63): one written
 * as an integer, or a whole-valued float ("2.0", as Python's json.dumps
 * writes floats; KataGo reads those too). */
bool hs__ajson_whole(const hs_json_t *v, int64_t lo, int64_t hi, int64_t *out);

/* Reads one input line: answers it on o when it needs no search, else
 * returns the item for the searching thread in *item (NULL when none).
 * seq numbers queries. 0, or HS_ENOMEM (the line was answered with an
 * error when possible). */
int hs__analysis_line(const hs_analysis_config_t *cfg, hs__aout_t *o, const char *line,
                      size_t len, long seq, hs__aitem_t **item);
/* A line too long to be read whole: answered with msg, and with its "id" when
 * head (the first len bytes of the line, all that was kept) shows one at the
 * top level of the object, a string or a number. */
void hs__analysis_too_long(hs__aout_t *o, const char *head, size_t len, const char *msg);

/* analysis_rules.c. A query's "rules" (string or object) into *id, and the
 * object's komi when it has one: 0; HS_ENOTFOUND (not rules KataGo
 * reads), HS_EUNSUPPORTED (KataGo's rules, but not one of our six rule
 * sets), HS_EINVAL (neither a string nor an object). */
int hs__arules(const hs_json_t *v, hs_rules_id_t *id, double *komi, bool *has_komi);
/* "whiteHandicapBonus": 0 when s is what rules id already does,
 * HS_EUNSUPPORTED when it is another of "0", "N", "N-1", HS_EINVAL else. */
int hs__awhb(const char *s, hs_rules_id_t id);
/* "overrideSettings" (an object) into q's config: 0 with the unknown keys
 * comma-separated in unknown (cap bytes); HS_EINVAL with *bad naming the
 * key whose value cannot be used. */
int hs__asettings(const hs_json_t *v, hs__aquery_t *q, char *unknown, size_t cap,
                  const char **bad);

/* analysis_query.c: r (an object with a string id and no action) as a
 * query; *item its turns, or NULL when it was answered with an error. 0 or
 * HS_ENOMEM. */
int hs__analysis_query(const hs_analysis_config_t *cfg, hs__aout_t *o, const hs_json_t *r,
                       const char *id, long seq, hs__aitem_t **item);

/* The position of t's turn into g (init'ed here; hs_gtp_game_fini after). */
int hs__aturn_game(const hs__aturn_t *t, hs_gtp_game_t *g, hs_error_t *err);

/* t's reply from its search's result r (scratch, ~60 KB, the caller's). */
void hs__areply(hs__aout_t *o, const hs__aturn_t *t, bool during, hs_mcts_result_t *r);
/* {"id":..,"isDuringSearch":false,"noResults":true,"turnNumber":..}. */
void hs__areply_none(hs__aout_t *o, const hs__aturn_t *t);

#endif
