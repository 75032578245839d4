/*
 * worker/tactics.h — the tactical reader: can a string be captured, can it be
 * saved, and the move that does it. Also a generic minimax / alpha-beta over a
 * small game interface, so the lecture-note claims (alpha-beta never changes the
 * root value; ordering cuts nodes) are testable on their own.
 *
 * Reading as a game
 * -----------------
 * A query names a target string (any stone of it) and who moves first. The
 * attacker (the other colour) wins when the target is removed from the board;
 * the defender wins when the target reaches HS_READER_SAFE_LIBS (4) liberties or
 * more — a string with >= 4 liberties is treated as safe, which caps the search
 * (nets and semeai longer than that are out of the reader's reach, by design).
 * Positions at the depth horizon are "unknown". The search is minimax with
 * alpha-beta over the three values {captured, unknown, saved}, iterative
 * deepening (depth 1, 2, ... max_depth) under a node budget, so the answer is
 * any-time: a proven result at some depth ends the search, a spent budget gives
 * HS_TACTIC_UNKNOWN.
 *
 * Candidate moves (the usual reading set, not every legal move):
 *   attacker: liberties of the target; when it has 2 liberties, also the empty
 *             neighbours of those liberties (nets, loose ladders); when it has
 *             3, the net points: empty points next to two or more of its
 *             liberties (a geta on a 3-liberty string); liberties of
 *             the attacker's own strings next to the target with <= 2
 *             liberties (strengthening the cutting stones).
 *   defender: liberties of the target; capturing moves on adjacent attacker
 *             strings in atari; when the target has 2 liberties, the empty
 *             neighbours of those liberties (running towards open space or a
 *             friend); when the target has <= 3 liberties, liberties of
 *             adjacent attacker strings with <= 2 liberties (short semeai); and
 *             a pass (tenuki: the right answer to a snapback throw-in).
 * Ordering: transposition-table move, captures, atari escapes / liberty-gaining
 * moves (by liberties after the move), then killer moves per ply.
 * Ladders (target in atari, defender to move) first go through a fast ladder
 * reader that tries both ataris at each step; it is exact for ladders because a
 * string in atari can only survive by extending or capturing.
 *
 * Loose ladders (cfg.use_loose): when that does not prove a capture, a second
 * pass (at most half the budget, from what is left) also reads a target at
 * exactly 4 liberties with the attacker to move and little escape room, the
 * attacker limited to liberty moves back to 3; only a capture it proves
 * replaces the first answer. docs/TACTICS.md has the exact rule.
 *
 * The transposition table (keyed by hs_board_key mixed with the target) belongs
 * to the reader, so readers are independent: one per thread, no globals. Ko is
 * read under simple ko only (the board's rule); TT entries ignore the path, so
 * results in positions with long ko cycles are approximate.
 */
#ifndef HS_WORKER_TACTICS_H
#define HS_WORKER_TACTICS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"

/* Strings with this many liberties or more are safe for the reader. */
#define HS_READER_SAFE_LIBS 4

typedef enum hs_tactic_result {
    HS_TACTIC_UNKNOWN = 0,   /* node budget spent before a proof */
    HS_TACTIC_CAPTURED = 1,  /* the attacker captures the target */
    HS_TACTIC_SAVED = 2,     /* the target lives (reaches safe liberties) */
} hs_tactic_result_t;

typedef struct hs_reader_config {
    long node_budget;   /* nodes per query, over all iterations (default 20000) */
    int max_depth;      /* plies of the deepest iteration (default 24) */
    int tt_bits;        /* log2 of transposition-table entries (default 16) */
    bool use_ladder;    /* fast ladder path (default true) */
    bool use_ordering;  /* move ordering + killers (default true) */
    bool use_tt;        /* transposition table (default true) */
    bool use_loose;     /* read on at 4 liberties with the attacker to move,
                         * liberty moves only (loose ladders; default true) */
} hs_reader_config_t;

/* Fills *cfg with the defaults above. */
void hs_reader_config_default(hs_reader_config_t *cfg);

typedef struct hs_reader hs_reader_t;

/*
 * Creates a reader (cfg NULL = defaults; tt_bits is clamped to 10..24).
 * Caller owns the return value and must destroy it with hs_reader_destroy().
 * Returns NULL when out of memory.
 */
hs_reader_t *hs_reader_new(const hs_reader_config_t *cfg);

/* Frees *r_p and sets it to NULL; r_p and *r_p may be NULL (idempotent). */
void hs_reader_destroy(hs_reader_t **r_p);

/* The configuration the reader runs with. */
const hs_reader_config_t *hs_reader_config(const hs_reader_t *r);

/* Sets the node budget per query; returns the previous one (budget >= 1). */
long hs_reader_set_node_budget(hs_reader_t *r, long budget);

/* Turns the loose-ladder pass on or off for later queries; returns the old
 * setting. Callers with small budgets (stability reads with ~1,000 nodes, and a
 * loose ladder takes tens of thousands) turn it off: it could only spend them. */
bool hs_reader_set_loose(hs_reader_t *r, bool on);

/* Clears the transposition table (results are the same, only slower). */
void hs_reader_clear(hs_reader_t *r);

typedef struct hs_tactic {
    hs_tactic_result_t result;
    /* The first move of the winning side's line: for attack, the capturing move
     * when CAPTURED; for defence, the saving move when SAVED (HS_PASS when the
     * string is safe without a move). HS_NO_POINT otherwise. */
    hs_point_t move;
    long nodes;         /* nodes searched by this query */
    int depth;          /* deepest iteration completed */
} hs_tactic_t;

/*
 * Reads whether the attacker (the colour opposite the target) captures the
 * string through stone `target` when the attacker moves first. b is not
 * changed (the reader works on copies). out->result: CAPTURED (out->move is an
 * attacking move that works), SAVED (no attack works), or UNKNOWN.
 * Returns 0, or HS_EINVAL when target is not a stone of b.
 */
int hs_reader_attack(hs_reader_t *r, const hs_board_t *b, hs_point_t target,
                     hs_tactic_t *out, hs_error_t *err);

/*
 * Reads whether the owner of `target` saves it when the owner moves first.
 * out->result: SAVED (out->move saves; HS_PASS when no move is needed),
 * CAPTURED (dead even with the first move), or UNKNOWN.
 * Returns 0, or HS_EINVAL when target is not a stone of b.
 */
int hs_reader_defend(hs_reader_t *r, const hs_board_t *b, hs_point_t target,
                     hs_tactic_t *out, hs_error_t *err);

/*
 * The fast ladder reader alone: with `target` in atari and its owner to move
 * next (or with 2 liberties and the attacker to move, attacker_first true),
 * does the ladder work? Returns true when the target is captured by ladder, and
 * then *move (may be NULL) is the attacker's first move (HS_PASS when the
 * defender moves first). Uses no reader state; at most `max_nodes` nodes and
 * 120 plies; allocates ~1 MB of boards for the call (false when that fails).
 * A ladder that ends in a ko the attacker may not take is not a capture.
 */
bool hs_ladder_captures(const hs_board_t *b, hs_point_t target, bool attacker_first,
                        hs_point_t *move, long max_nodes);

/* ---- Generic game-tree search (the lecture notes' minimax / alpha-beta) ---- */

#define HS_SEARCH_MAX_MOVES 64
#define HS_SEARCH_INF 1000000

/*
 * A two-player, zero-sum game given as callbacks over an opaque state that the
 * callbacks change in place. Values are from MAX's point of view.
 */
typedef struct hs_search_game {
    void *state;
    /* Writes the moves of the side to move (at most HS_SEARCH_MAX_MOVES) and
     * returns their number; 0 means a terminal position. */
    int (*gen)(void *state, int *moves);
    void (*play)(void *state, int move);
    void (*undo)(void *state, int move);
    /* Static value for MAX: exact at terminals, a heuristic at the horizon. */
    int (*eval)(void *state);
    /* True when MAX is to move. */
    bool (*max_to_move)(void *state);
} hs_search_game_t;

/* Plain minimax to `depth` plies; adds every node visited to *nodes. */
int hs_minimax(const hs_search_game_t *g, int depth, long *nodes);

/*
 * Alpha-beta to `depth` plies within (alpha, beta). With `order`, children are
 * searched in order of their static value (best for the mover first). The
 * value equals hs_minimax's whenever it lies strictly inside the window (always
 * for the full window -HS_SEARCH_INF, HS_SEARCH_INF). Adds nodes to *nodes.
 */
int hs_alphabeta(const hs_search_game_t *g, int depth, int alpha, int beta, bool order,
                 long *nodes);

#endif
