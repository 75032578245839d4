/*
 * core/board.h — the Go board: stones, strings, liberties, captures, simple ko,
 * Zobrist hashing. Everything above (rules, SGF replay, playouts, the tactical
 * reader, influence, judgment) works on this one representation.
 *
 * Representation
 * --------------
 * A padded 1-D array with off-board sentinels. For a board of size N (2..25) the
 * point (x, y) — x the column from the left, y the row from the top, both 0-based,
 * the SGF convention where "aa" is the top-left corner — has index
 *
 *     p = (x + 1) + (y + 1) * (N + 1)            stride = N + 1
 *
 * so one sentinel column (index 0 of each row) serves as both the left and the
 * right border, and a sentinel row lies above and below:
 *
 *     N = 3, stride 4:     #  #  #  #          indices  0  1  2  3
 *                          #  .  .  .                   4  5  6  7
 *                          #  .  .  .                   8  9 10 11
 *                          #  .  .  .                  12 13 14 15
 *                          #  #  #  #  #               16 17 18 19 20
 *
 * The four neighbours of p are p-stride, p-1, p+1, p+stride; every one of them is
 * a valid index for every on-board p. Index 0 is always off board, so it doubles as
 * HS_PASS. Arrays are sized for N = 25; only the first hs_board_num_points(b)
 * entries are used.
 *
 * Strings (chains) are kept incrementally: every stone points to its string's head
 * (a representative stone), the stones of a string form a circular list through
 * `next`, and the head stores the exact liberty count and stone count. Liberties
 * are exact (never pseudo-liberties), which the tactical reader relies on.
 * hs_board_check() recomputes all of this from scratch; tests run it after every
 * move.
 *
 * The struct is plain data: copying it with `=` or memcpy gives an independent
 * board (the reader and playouts copy boards freely). Fields may be read directly;
 * change them only through these functions.
 *
 * Rules that need history (positional/situational superko) are not the board's
 * business: core/rules.h checks them with the hashes the board provides.
 *
 * Threads: a board is not shared between threads while one of them writes it.
 */
#ifndef HS_CORE_BOARD_H
#define HS_CORE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

#define HS_BOARD_MIN_SIZE 2
#define HS_BOARD_MAX_SIZE 25
/* Entries of the point arrays: (N + 2) * (N + 1) + 1 for N = 25. */
#define HS_BOARD_MAX_POINTS ((HS_BOARD_MAX_SIZE + 2) * (HS_BOARD_MAX_SIZE + 1) + 1)

typedef uint16_t hs_point_t;

/* Index 0 is off board on every size, so it encodes "pass". */
#define HS_PASS ((hs_point_t)0)
/* "No point": used for an absent ko point or an unset move. */
#define HS_NO_POINT ((hs_point_t)0xFFFF)

typedef enum hs_color {
    HS_EMPTY = 0,
    HS_BLACK = 1,
    HS_WHITE = 2,
    HS_OFFBOARD = 3,
} hs_color_t;

static inline hs_color_t hs_color_other(hs_color_t c) { return (hs_color_t)(3 - c); }

/* Why a move is illegal (hs_board_play's *reason); HS_LEGAL when it is not. */
typedef enum hs_illegal {
    HS_LEGAL = 0,
    HS_ILLEGAL_OFFBOARD,  /* not a point of this board */
    HS_ILLEGAL_OCCUPIED,  /* a stone is already there */
    HS_ILLEGAL_KO,        /* retakes a simple ko immediately */
    HS_ILLEGAL_SUICIDE,   /* leaves its own string without liberties (when forbidden) */
    HS_ILLEGAL_SUPERKO,   /* repeats a position (reported by core/rules.h) */
} hs_illegal_t;

/* Flags for hs_board_play(). */
#define HS_PLAY_SUICIDE_OK 0x1u   /* multi-stone and single-stone suicide allowed */

typedef struct hs_board {
    int size;                  /* N, 2..25 */
    int stride;                /* N + 1 */
    hs_color_t to_move;        /* side to move next */
    hs_point_t ko;             /* point to_move may not play (simple ko), or HS_NO_POINT */
    hs_point_t last_move;      /* last move played (HS_PASS for a pass), HS_NO_POINT at start */
    int passes;                /* consecutive passes just played */
    int move_number;           /* moves (and passes) played since hs_board_init */
    int captures[3];           /* stones captured BY each colour, indexed by hs_color_t */
    uint64_t stones_hash;      /* Zobrist hash of the stones only */
    int num_empty;             /* on-board empty points, listed in empty[0..num_empty) */
    hs_point_t empty[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    uint16_t empty_pos[HS_BOARD_MAX_POINTS];  /* index of an empty point within empty[] */
    uint8_t color[HS_BOARD_MAX_POINTS];       /* hs_color_t per point, sentinels HS_OFFBOARD */
    hs_point_t head[HS_BOARD_MAX_POINTS];     /* string head of a stone */
    hs_point_t next[HS_BOARD_MAX_POINTS];     /* next stone of the same string (circular) */
    uint16_t libs[HS_BOARD_MAX_POINTS];       /* at a head: exact liberty count of its string */
    uint16_t stones[HS_BOARD_MAX_POINTS];     /* at a head: stones in its string */
    /* Neighbour counts of every point (sentinels included): 4 bits per colour,
     * the count of neighbours of colour c in bits 4c..4c+3 (HS_EMPTY, HS_BLACK,
     * HS_WHITE, HS_OFFBOARD; indices outside the array count as off board).
     * Read with hs_board_nbr_count(); it makes the playout and legality tests
     * one load instead of four. */
    uint16_t nbr[HS_BOARD_MAX_POINTS];
} hs_board_t;

/*
 * Sets up an empty board of the given size with Black to move. Only the used
 * entries of the point arrays are written (the others are never read, as after
 * hs_board_copy), so a board is cheap to set up for each game.
 * Returns 0, or HS_EINVAL when size is outside 2..25 (the board is then untouched).
 */
int hs_board_init(hs_board_t *b, int size);

/* Number of used entries of the point arrays: (N + 2) * (N + 1) + 1. */
static inline int hs_board_num_points(const hs_board_t *b)
{
    return (b->size + 2) * (b->size + 1) + 1;
}

/*
 * Copies src into dst: afterwards dst is an independent board equal to src in
 * every entry that is ever read (like `*dst = *src`), but only the used part of
 * each point array is copied, so a 9x9 copy moves ~2 KB instead of ~11 KB. The
 * unused tails of dst's arrays keep old contents, so compare boards with
 * hs_board_key / colours, not memcmp, after hs_board_copy.
 */
void hs_board_copy(hs_board_t *dst, const hs_board_t *src);

/* Index of (x, y); both must be in 0..N-1 (asserted). */
static inline hs_point_t hs_board_point(const hs_board_t *b, int x, int y)
{
    return (hs_point_t)((x + 1) + (y + 1) * b->stride);
}
static inline int hs_board_x(const hs_board_t *b, hs_point_t p) { return p % b->stride - 1; }
static inline int hs_board_y(const hs_board_t *b, hs_point_t p) { return p / b->stride - 1; }

/* True when p is a point of the board (not a sentinel, not HS_PASS). */
static inline bool hs_board_on_board(const hs_board_t *b, hs_point_t p)
{
    return p < hs_board_num_points(b) && b->color[p] != HS_OFFBOARD;
}

/* Number of the four neighbours of p that have colour c (0..4). */
static inline int hs_board_nbr_count(const hs_board_t *b, hs_point_t p, hs_color_t c)
{
    return (b->nbr[p] >> (4 * c)) & 15;
}

/* Exact liberty count / stone count of the string through stone p. */
static inline int hs_board_libs(const hs_board_t *b, hs_point_t p) { return b->libs[b->head[p]]; }
static inline int hs_board_string_size(const hs_board_t *b, hs_point_t p) { return b->stones[b->head[p]]; }

/*
 * Zobrist key of the whole position: stones, side to move and ko point. Two
 * boards with equal keys are (with overwhelming probability) the same position.
 */
uint64_t hs_board_key(const hs_board_t *b);

/*
 * Checks whether `color` may play at p under simple ko, with suicide allowed iff
 * flags has HS_PLAY_SUICIDE_OK. Does not change the board. p == HS_PASS is legal.
 * Returns HS_LEGAL or the reason.
 */
hs_illegal_t hs_board_legal(const hs_board_t *b, hs_color_t color, hs_point_t p, unsigned flags);

/*
 * Plays `color` at p (or passes when p == HS_PASS): captures, merges strings,
 * updates liberties, hash, ko point, capture counts, side to move (the opponent of
 * `color`), pass count and move number. Playing out of turn is allowed (SGF
 * records do it). Returns 0, or HS_EILLEGAL with *reason set (reason may be NULL)
 * and the board unchanged.
 */
int hs_board_play(hs_board_t *b, hs_color_t color, hs_point_t p, unsigned flags,
                  hs_illegal_t *reason);

/*
 * Plays a move the caller already knows to be legal for `color` (p an empty
 * point, not the simple-ko point when color is to move, and not suicide unless
 * the caller's rules allow it; e.g. hs_board_legal() accepted it, or it came from
 * hs_playout_pick()). Same effects as hs_board_play() without the checks: the
 * fast path for playouts and reading. p must not be HS_PASS. An illegal move
 * corrupts the board (asserted in debug builds).
 */
void hs_board_play_legal(hs_board_t *b, hs_color_t color, hs_point_t p);

/*
 * Puts a setup stone (SGF AB/AW) or clears a point (AE, color HS_EMPTY) without
 * captures or ko: strings and liberties are rebuilt. A setup that leaves a string
 * without liberties is kept as given (SGF allows it). Returns 0 or HS_EINVAL for
 * an off-board point.
 */
int hs_board_set_stone(hs_board_t *b, hs_point_t p, hs_color_t color);

/*
 * Applies n setup stones at once: colors[i] (HS_BLACK, HS_WHITE or HS_EMPTY) at
 * points[i], in order (a later entry for the same point wins), then rebuilds the
 * strings once. The board ends exactly as after n hs_board_set_stone() calls,
 * at the cost of one rebuild instead of n. Returns 0, or HS_EINVAL when a point
 * is off the board or a colour is not one of those three (the board is then
 * unchanged).
 */
int hs_board_set_stones(hs_board_t *b, const hs_point_t *points, const uint8_t *colors, int n);

/*
 * Recomputes strings, liberties, stone counts, the empty list and the hash from
 * the colours alone and compares them with the incremental state. Returns 0, or
 * HS_EBADSTATE with a description of the first mismatch in *err (may be NULL).
 */
int hs_board_check(const hs_board_t *b, hs_error_t *err);

/*
 * True when p is an empty point whose four neighbours are all `color` (or off
 * board) and whose diagonals hold at most one opponent stone (none when p is on
 * the edge): the usual "true eye" test that random playouts never fill.
 */
bool hs_board_is_eye(const hs_board_t *b, hs_point_t p, hs_color_t color);

/*
 * Writes the liberties of the string through stone p into libs[] (at most max
 * entries) and returns how many were written.
 */
int hs_board_string_liberties(const hs_board_t *b, hs_point_t p, hs_point_t *libs, int max);

/*
 * Writes an ASCII diagram (X black, O white, . empty, column letters A-T without
 * I, row numbers from N at the top) into buf (size bytes, always NUL-terminated).
 * Returns the length it needed, like snprintf.
 */
int hs_board_to_ascii(const hs_board_t *b, char *buf, int size);

/*
 * Formats p as a GTP vertex ("D4", "pass") into buf (at least 5 bytes); returns buf.
 * Columns are A-T without I; boards larger than 19 continue with U, V, W, X, Y, Z
 * (25 letters, enough for 25x25; GTP itself stops at 25 too). Diagrams use the same
 * letters. A point that is not on the board formats as "??".
 * Parses a GTP vertex (case-insensitive) into *p: 0, or HS_EPARSE.
 */
const char *hs_board_point_name(const hs_board_t *b, hs_point_t p, char *buf);
int hs_board_parse_point(const hs_board_t *b, const char *text, hs_point_t *p);

#endif
