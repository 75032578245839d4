/*
 * core/game.h — a game record: what one SGF game tree means as a Go game.
 *
 * The SGF reader (core/sgf.h) gives a tree of nodes with raw properties; this
 * module turns one game tree into an hs_game_t: metadata (players, ranks, date,
 * event, round, komi, handicap, rules, board size, result parsed into a structure),
 * setup stones and the main-line moves (first child at every node), and replays it
 * with full legality checks. Everything downstream (ingest, tasks on the wire,
 * engines, the store) sees games only in this form.
 *
 * Moves and setup stones use board-independent vertices: v = y * size + x (x the
 * column from the left, y the row from the top, as SGF's "aa" = top-left), or
 * HS_GAME_PASS. hs_game_board_point() converts to a board index.
 *
 * Ownership: an hs_game_t owns all its strings and arrays. Create it with
 * hs_game_from_sgf() (or fill one with hs_game_init + hs_game_add_*) and release
 * it with hs_game_fini(). Not thread-safe for writing; read-only use from many
 * threads is fine.
 */
#ifndef HS_CORE_GAME_H
#define HS_CORE_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/rules.h"

struct hs_sgf_node;

#define HS_GAME_PASS ((uint16_t)0xFFFF)

typedef struct hs_game_move {
    uint16_t vertex;   /* y * size + x, or HS_GAME_PASS */
    uint8_t color;     /* HS_BLACK or HS_WHITE */
} hs_game_move_t;

typedef enum hs_winner {
    HS_WINNER_UNKNOWN = 0,  /* no RE, RE[?], or unreadable */
    HS_WINNER_BLACK,
    HS_WINNER_WHITE,
    HS_WINNER_DRAW,         /* jigo: RE[0], RE[Draw] */
    HS_WINNER_VOID,         /* RE[Void]: no result */
} hs_winner_t;

typedef enum hs_result_kind {
    HS_RESULT_NONE = 0,     /* no margin known (RE[B+], unknown, void) */
    HS_RESULT_POINTS,       /* counted: margin holds the points */
    HS_RESULT_RESIGN,
    HS_RESULT_TIME,
    HS_RESULT_FORFEIT,
} hs_result_kind_t;

typedef struct hs_result {
    hs_winner_t winner;
    hs_result_kind_t kind;
    double margin;          /* points, when kind == HS_RESULT_POINTS (may be 0: Fox "W+0.0") */
} hs_result_t;

/* How the komi in the record was read (Fox writes integer codes). */
typedef enum hs_komi_source {
    HS_KOMI_DEFAULT = 0,    /* no KM: the rule set's default for the handicap (0.5 with
                             * HA >= 2); 0 for OGS records (PC[OGS...]), which omit
                             * KM when it is 0 */
    HS_KOMI_PLAIN,          /* KM[6.5] as written */
    HS_KOMI_FOX_POINTS,     /* KM[650] read as 6.5 */
    HS_KOMI_FOX_ZI,         /* KM[375] read as 3.75 zi = 7.5 points */
    HS_KOMI_OVERRIDE,       /* set by the user (--komi) */
} hs_komi_source_t;

typedef struct hs_game_setup {
    uint16_t vertex;
    uint8_t color;          /* HS_BLACK, HS_WHITE, or HS_EMPTY for AE */
} hs_game_setup_t;

typedef struct hs_game {
    int size;                       /* board size (SZ, default 19) */
    double komi;                    /* in points, after interpretation */
    hs_komi_source_t komi_source;
    char *komi_raw;                 /* KM as written, or NULL */
    int handicap;                   /* HA, or the number of setup black stones */
    hs_rules_t rules;               /* from RU (default: japanese) */
    char *rules_raw;                /* RU as written, or NULL */
    char *black, *white;            /* PB, PW (UTF-8) or NULL */
    char *black_rank, *white_rank;  /* BR, WR */
    char *date, *event, *round;     /* DT, EV, RO */
    char *result_raw;               /* RE as written */
    hs_result_t result;
    int num_setup;                  /* setup stones applied before move 1 */
    hs_game_setup_t *setup;
    int num_moves;                  /* main-line moves, passes included */
    hs_game_move_t *moves;
    /* PL before the first move (HS_BLACK, HS_WHITE), HS_EMPTY without one.
     * Read from SGF only: the store and the wire do not keep it, so nothing
     * that keys positions reads it (hs_game_first_player); GTP's loadsgf of
     * a record without moves does. */
    uint8_t first_player;
    uint64_t id[2];                 /* 128-bit game id, see hs_game_compute_id() */
} hs_game_t;

/* Empty game of the given size with default rules (japanese) and komi 0. */
void hs_game_init(hs_game_t *g, int size);

/* Frees everything g owns and leaves it as hs_game_init(g, 19). NULL-safe. */
void hs_game_fini(hs_game_t *g);

/*
 * Reads game `root` (a game tree's root node from core/sgf.h) into *g, which the
 * function initialises. Setup stones in the root and in move-less nodes before
 * the first move (Fox puts handicap stones in the second node) are setup; moves
 * come from the main line. Returns 0, or HS_EPARSE / HS_ELIMIT / HS_EUNSUPPORTED
 * with a message naming the node, line and column in *err; on error *g is
 * left initialised and empty (no need to fini, but fini is harmless).
 */
int hs_game_from_sgf(const struct hs_sgf_node *root, hs_game_t *g, hs_error_t *err);

/*
 * Replays setup and the first `upto` moves (all when upto < 0 or > num_moves)
 * on *b (initialised here) with the game's rules: suicide per rule set, simple ko
 * and superko. Returns 0, or HS_EILLEGAL with "move N (B D4): reason" in *err and
 * *b holding the position before the illegal move.
 */
int hs_game_replay(const hs_game_t *g, int upto, hs_board_t *b, hs_error_t *err);

/*
 * Who moves first after the setup: the first move's colour; in a record
 * without moves, White where the setup stones are all Black's (a handicap:
 * KataGo's reading of such a record), else Black. PL is not read (see
 * first_player above). hs_game_replay and core/replay.h start with it.
 */
hs_color_t hs_game_first_player(const hs_game_t *g);

/* Board index of a game vertex on board b (HS_PASS for HS_GAME_PASS). */
static inline hs_point_t hs_game_board_point(const hs_board_t *b, uint16_t vertex)
{
    if (vertex == HS_GAME_PASS)
        return HS_PASS;
    return hs_board_point(b, vertex % b->size, vertex / b->size);
}

/*
 * Sets g->id from board size, setup stones, moves and komi only — never from file
 * names, formatting or metadata — so the same game from two sources has one id.
 */
void hs_game_compute_id(hs_game_t *g);

/* Formats g->id as 32 lowercase hex digits into buf (at least 33 bytes); returns buf. */
const char *hs_game_id_hex(const hs_game_t *g, char *buf);

/*
 * Parses an SGF RE value ("B+3.5", "W+R", "B+Resign", "W+T", "B+F", "0", "Draw",
 * "Void", "?") into *r. Unknown forms give HS_WINNER_UNKNOWN; never fails.
 */
void hs_result_parse(const char *text, hs_result_t *r);

/* Writes r in SGF RE form ("B+3.5", "W+R", "0", "Void", "?") into buf (>= 16 bytes). */
const char *hs_result_format(const hs_result_t *r, char *buf);

/*
 * Whether a recorded result can come from a game played with komi (points):
 * a count under any of our rule sets gives a margin whose fraction is the
 * komi's, whole points with a whole komi and a half with a half, so W+5.5
 * under KM[0] says that the komi played is not the one recorded (Fox writes
 * KM[0] for games whose komi it does not record). True for every result that
 * says nothing of the komi: resignation, time, unknown, a margin of 0 (Fox's
 * codes), a margin or komi in quarters (Chinese stones).
 */
bool hs_result_fits_komi(const hs_result_t *r, double komi);

#endif
