/*
 * reports/game_report.h — what the report says about one game, read from the
 * store: the evaluation curve over the moves with its source, the biggest
 * swings, each player's mistakes, the maps at chosen moves, and the annotated
 * SGF.
 *
 * Sources: a position's evaluation is taken from MCTS where an `mcts` engine
 * evaluated it, else from the net (`net`, `judge-net`), else from the static
 * judge (`judge`, `area`, `influence`); the source is kept per move so graphs
 * can label it. Every number is from Black's point of view. Within a kind:
 * MCTS by the most visits; `judge` before `area` and `influence` (bare counts);
 * then the lowest engine id.
 *
 * Loss of a move m (played by P): the mover's evaluation before it minus after
 * it, in points (score lead) and in win rate, from the same source on both
 * sides when both positions have it (else not counted): the most preferred
 * kind that evaluated both positions; a gain counts as 0. The
 * preferred move is MCTS's best move of the position before it, where MCTS ran.
 *
 * Reads only (a store opened HS_STORE_RDONLY works); one game in memory at a time.
 */
#ifndef HS_REPORTS_GAME_REPORT_H
#define HS_REPORTS_GAME_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/game.h"
#include "store/store.h"

typedef enum hs_report_source {
    HS_SOURCE_NONE = 0,
    HS_SOURCE_JUDGE,
    HS_SOURCE_NET,
    HS_SOURCE_MCTS,
    HS_SOURCE_COUNT
} hs_report_source_t;

/* "none", "judge", "net", "MCTS". */
const char *hs_report_source_name(hs_report_source_t s);

/* The evaluation of one position (after move_number moves). */
typedef struct hs_report_pos {
    hs_report_source_t source;   /* NONE: no engine evaluated this position */
    float win_rate;              /* 0..1, NAN when the source gives none (the judge) */
    float lead;                  /* points, NAN = none */
    int best;                    /* MCTS's best move as a vertex y*N+x, HS_GAME_PASS,
                                  * or -1 (no MCTS here) */
    float loss_points;           /* loss of the move that led here (see above), NAN */
    float loss_win_rate;         /* the same in win rate 0..1, NAN */
} hs_report_pos_t;

typedef struct hs_report_mistake {
    int move_number;             /* the move (1-based) */
    int color;                   /* HS_BLACK / HS_WHITE */
    int played;                  /* vertex y*N+x or HS_GAME_PASS */
    int preferred;               /* MCTS's best move there, or -1 */
    float loss_points, loss_win_rate;   /* NAN when that measure is missing */
} hs_report_mistake_t;

#define HS_REPORT_MISTAKES 5     /* per player */
#define HS_REPORT_SWINGS 3

/* Which positions of a game a report reads: every `step`-th from position 0
 * (step 0 or 1: all of them), or the last alone. Zeroed: all. `report --job`
 * reads the positions of the job's moves spec ("all", "every:N", "last"). */
typedef struct hs_report_moves {
    int step;
    bool last_only;
} hs_report_moves_t;

/* A job's moves spec (its journal form "SPEC;TOKEN" too) into *m: 0, or
 * HS_EINVAL (not all, every:N or last; *m then says all). */
int hs_report_moves_parse(const char *spec, hs_report_moves_t *m);

/* Whether position move (0..num_moves) is one m names (NULL: every one). */
bool hs_report_moves_has(const hs_report_moves_t *m, int move, int num_moves);

typedef struct hs_report_game {
    hs_game_t game;              /* as stored */
    char *source;                /* its source path, or NULL */
    uint64_t job_id;
    hs_report_pos_t *pos;        /* [0..game.num_moves]: index = move number */
    int analysed;                /* positions with any evaluation */
    hs_report_mistake_t mistakes[2][HS_REPORT_MISTAKES];   /* [0] Black, [1] White,
                                  * largest point loss first (win rate when no lead) */
    int num_mistakes[2];
    int swings[HS_REPORT_SWINGS];    /* move numbers of the largest |change| of the
                                      * curve, largest first */
    int num_swings;
    bool final_agrees;           /* the last evaluation's winner = the recorded one */
    bool final_known;            /* both are known (a recorded winner, a final eval) */
    int final_move;              /* the position of that last evaluation: game.num_moves
                                  * unless the job skipped the last (--moves every:N);
                                  * -1 when no position has one */
    hs_report_moves_t only;      /* the positions read (hs_report_game_load_moves) */
} hs_report_game_t;

/* What a game's final judgment can say of its recorded result. */
typedef enum hs_report_final {
    HS_REPORT_FINAL_NONE = 0,    /* not known: no recorded or no evaluated winner */
    HS_REPORT_FINAL_END,         /* of the game's last position: agrees / differs */
    HS_REPORT_FINAL_PARTIAL,     /* of an earlier one (final_move < num_moves): an
                                  * interrupted job, --moves every:N */
    HS_REPORT_FINAL_KOMI,        /* the recorded result cannot come from the recorded
                                  * komi (hs_result_fits_komi: W+5.5 under Fox's
                                  * KM[0]), so the evaluations' komi is not the game's */
} hs_report_final_t;

/* g's final judgment's kind: NONE unless final_known; then KOMI before
 * PARTIAL before END. Only END is a comparison with the result to count. */
hs_report_final_t hs_report_final(const hs_report_game_t *g);

/* The winner position p's evaluation predicts: by its win rate (0.5 says
 * nothing), else by the sign of its lead (0: HS_WINNER_DRAW); HS_WINNER_UNKNOWN
 * when it has neither. */
hs_winner_t hs_report_pos_winner(const hs_report_pos_t *p);

/* Whether move m's loss (m in 1..game.num_moves) was measured by the static
 * judge's count alone: the poorer source of the two positions around it is
 * the judge kind. Such a loss is rarely more than zero (placing a stone adds
 * a point to its player's count), so an accuracy made of them says little. */
bool hs_report_loss_by_judge(const hs_report_game_t *g, int m);

/*
 * Loads game id with its evaluations (every engine, in one pass over its moves
 * entries); game.result is read from RE when the store's record leaves it
 * unknown. *out is owned by the caller (hs_report_game_fini). 0, HS_ENOTFOUND,
 * HS_ENOMEM or a store error.
 */
int hs_report_game_load(hs_store_t *s, const uint64_t id[2], hs_report_game_t *out,
                        hs_error_t *err);

/* The same, reading only the positions *only names (NULL: all; kept in
 * out->only): the curve, losses, final judgment and maps see no other. */
int hs_report_game_load_moves(hs_store_t *s, const uint64_t id[2],
                              const hs_report_moves_t *only, hs_report_game_t *out,
                              hs_error_t *err);

void hs_report_game_fini(hs_report_game_t *g);

/* The maps of one position for the pictures: stones after move_number moves,
 * the last move, and the stored maps (NULL where no eval holds them). */
typedef struct hs_report_maps {
    int size, move_number;
    uint8_t stones[25 * 25];     /* y*N+x: HS_EMPTY / HS_BLACK / HS_WHITE */
    int last_x, last_y;          /* -1 -1: none or a pass */
    int8_t *ownership;           /* the judge's (static) ownership, or NULL */
    char *classes;               /* the judge's classes, or NULL */
    int16_t *influence;          /* Park's SI from any engine that stored it, or NULL */
    int8_t *net_ownership;       /* from MCTS or the net (which: net_source), or NULL */
    hs_report_source_t net_source;
} hs_report_maps_t;

/*
 * Fills *out for g's position after move_number moves (0..num_moves; -1 = the
 * end); no map when g->only leaves the position out. Owned by the caller
 * (hs_report_maps_fini). 0, HS_EINVAL (move out of
 * range), HS_EILLEGAL (the game cannot be replayed that far), HS_ENOMEM or a
 * store error.
 */
int hs_report_maps_load(hs_store_t *s, const hs_report_game_t *g, int move_number,
                        hs_report_maps_t *out, hs_error_t *err);

void hs_report_maps_fini(hs_report_maps_t *m);

/*
 * The annotated SGF of g: the game's root properties and main line, and at
 * every analysed move a comment (C) with the win rate, the score lead, the
 * source and MCTS's best move; at the last analysed position the judge's
 * territory as TB/TW and dead stones as MA (from maps when given, may be
 * NULL). Written with core/sgf.h's writer, so our parser reads it back to the
 * same moves. *out malloc'd, NUL-terminated. 0, HS_ENOMEM.
 */
int hs_report_game_sgf(const hs_report_game_t *g, const hs_report_maps_t *end_maps,
                       char **out, size_t *len, hs_error_t *err);

#endif
