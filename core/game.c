/*
 * core/game.c — game records: one SGF game tree read as a Go game (core/game.h).
 *
 * Decisions (documented here once; the header states the contract):
 *
 * - Metadata comes from the root node. A property repeated in the root (Fox
 *   writes AP twice) is read "first non-empty wins".
 * - Board size: SZ, default 19; "19:19" accepted, a rectangle is
 *   HS_EUNSUPPORTED, a size outside 2..25 HS_EUNSUPPORTED.
 * - GM other than 1 is HS_EUNSUPPORTED (not Go).
 * - Rules: RU through hs_rules_from_name; absent or unknown -> japanese, the
 *   text kept in rules_raw.
 * - Komi (KM), in this order:
 *     absent or unreadable   -> the rule set's default (0.5 when HA >= 2),
 *                               HS_KOMI_DEFAULT (komi_raw keeps the text);
 *     a decimal comma is read as a point (KM[7,5] = 7.5);
 *     an integer with |v| >= 100 -> Fox's code, v / 100 (KM[650] = 6.5,
 *                               HS_KOMI_FOX_POINTS);
 *     then, a value that is a quarter (x.25 or x.75, from the division or as
 *     written) is Chinese "zi" komi counted in stones: points = 2 * value
 *     (KM[375] -> 3.75 zi = 7.5 points, KM[325] -> 6.5), HS_KOMI_FOX_ZI;
 *     anything else is used as written, HS_KOMI_PLAIN (KM[0] stays 0 — we cannot
 *     know Fox's real komi).
 * - Setup: AB/AW/AE in the root and in every node before the first move (Fox
 *   puts handicap stones in the second node) are setup, applied in order. AB,
 *   AW or AE in a node at or after the first move is HS_EUNSUPPORTED ("setup
 *   stones after move N"): a mid-game edit is not a game we can judge. PL in
 *   a node before the first move is kept as first_player (it moves no stone:
 *   only GTP's loadsgf of a record without moves reads it); after it, PL is
 *   ignored.
 * - Moves: the main line (first child at each node); a node with both B and W
 *   is HS_EPARSE; several values in B or W is HS_EPARSE; B[] and B[tt] (size
 *   <= 19) are passes; a point outside the board is HS_EPARSE naming the move,
 *   node, line and column. More than HS_GAME_MAX_MOVES moves is HS_ELIMIT.
 * - Handicap: HA when it is >= 2; else, when the setup holds only black stones
 *   and at least two of them, their number; else 0. HA[n] without stones is
 *   kept as recorded: we do not invent stones. (Fox has such records with White
 *   moving first; placing the fixed handicap points was tried and is wrong for
 *   most of them — White often plays on a star point. Such a record, HA >= 2,
 *   no black setup stone and White's first move, is HS_EUNSUPPORTED: every
 *   position of it would lack Black's stones. When a record with HA and Black
 *   moving first turns illegal, the replay error says that the stones are
 *   missing.)
 * - Replay: setup stones via hs_board_set_stones (batched); a setup that leaves
 *   a string without liberties is HS_EILLEGAL ("setup: ..."), since no legal game
 *   reaches it. Then every move through hs_rules_play, with a superko history
 *   only when the rules have superko (simple ko needs none).
 * - Game id: two independent 64-bit hashes (FNV-1a and a multiply-xorshift mix,
 *   different seeds) over a canonical byte string: size, the setup *position*
 *   after all AB/AW/AE (so the order of setup stones does not matter), every
 *   move (colour, vertex), komi rounded to 1/100 point.
 */
#include "core/game.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/charset.h"
#include "core/game_internal.h"
#include "core/sgf.h"

#define HS_GAME_MAX_MOVES 100000

void hs_game_init(hs_game_t *g, int size)
{
    memset(g, 0, sizeof *g);
    g->size = size;
    g->rules = hs_rules_get(HS_RULES_JAPANESE);
    g->komi = 0;
    g->komi_source = HS_KOMI_DEFAULT;
}

void hs_game_fini(hs_game_t *g)
{
    if (!g)
        return;
    free(g->komi_raw);
    free(g->rules_raw);
    free(g->black);
    free(g->white);
    free(g->black_rank);
    free(g->white_rank);
    free(g->date);
    free(g->event);
    free(g->round);
    free(g->result_raw);
    free(g->setup);
    free(g->moves);
    hs_game_init(g, 19);
}

/* ---- reading a game tree -------------------------------------------------- */

/*
 * A copy of a metadata value, valid UTF-8 whatever the tree was parsed with:
 * the SGF reader converts and repairs the text (core/charset.h, Fox's broken
 * names included) unless HS_SGF_NO_CHARSET, and a record's strings go on to
 * the store, JSON and the wire, where raw bytes would break strict readers.
 */
/* *s without the white space around it; NULL when nothing else is left. */
static void s_trim(char **s)
{
    if (!*s)
        return;
    const char *b = hs__game_skip_space(*s);
    size_t n = strlen(b);
    while (n > 0 && hs__game_is_space(b[n - 1]))
        n--;
    if (n == 0) {
        free(*s);
        *s = NULL;
        return;
    }
    memmove(*s, b, n);
    (*s)[n] = '\0';
}

static char *s_dup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    if (hs_utf8_valid_prefix(s, n) != n) {
        char *fixed = NULL;
        size_t flen;
        return hs_charset_convert("UTF-8", s, n, &fixed, &flen, NULL, NULL) == 0 ? fixed : NULL;
    }
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

typedef struct s_vec {
    void *p;
    int n, cap;
} s_vec_t;

static void *s_push(s_vec_t *v, size_t elem)
{
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 64;
        void *np = realloc(v->p, (size_t)cap * elem);
        if (!np)
            return NULL;
        v->p = np;
        v->cap = cap;
    }
    return (char *)v->p + (size_t)v->n++ * elem;
}

/* One pass over a node's properties: its first B, first W and first setup
 * property (AB/AW/AE), each NULL when absent. Replaces three lookups with
 * strcmp per node of the main line. */
static void s_scan_node(const hs_sgf_node_t *n, const hs_sgf_prop_t **b, const hs_sgf_prop_t **w,
                        const hs_sgf_prop_t **setup)
{
    *b = *w = *setup = NULL;
    for (int i = 0; i < n->num_props; i++) {
        const char *id = n->props[i].id;
        if (id[1] == '\0') {
            if (id[0] == 'B' && !*b)
                *b = &n->props[i];
            else if (id[0] == 'W' && !*w)
                *w = &n->props[i];
        } else if (id[0] == 'A' && (id[1] == 'B' || id[1] == 'W' || id[1] == 'E') && !id[2]
                   && !*setup) {
            *setup = &n->props[i];
        }
    }
}

/* The root properties hs_game_from_sgf reads, found in one pass over the root
 * (thirteen hs_sgf_node_value_nonempty lookups cost more than the rest of
 * reading a typical game's header). */
enum { S_GM, S_SZ, S_RU, S_HA, S_PB, S_PW, S_BR, S_WR, S_DT, S_EV, S_RO, S_RE, S_KM, S_PC,
       S_NKEYS };

static int s_root_key(const char *id)
{
    if (!id[0] || !id[1] || id[2])
        return -1;
    switch (id[0] << 8 | id[1]) {
    case 'G' << 8 | 'M': return S_GM;
    case 'S' << 8 | 'Z': return S_SZ;
    case 'R' << 8 | 'U': return S_RU;
    case 'H' << 8 | 'A': return S_HA;
    case 'P' << 8 | 'B': return S_PB;
    case 'P' << 8 | 'W': return S_PW;
    case 'B' << 8 | 'R': return S_BR;
    case 'W' << 8 | 'R': return S_WR;
    case 'D' << 8 | 'T': return S_DT;
    case 'E' << 8 | 'V': return S_EV;
    case 'R' << 8 | 'O': return S_RO;
    case 'R' << 8 | 'E': return S_RE;
    case 'K' << 8 | 'M': return S_KM;
    case 'P' << 8 | 'C': return S_PC;
    default: return -1;
    }
}

/* vals[k] as hs_sgf_node_value_nonempty(root, key k) gives it: the first
 * non-empty value of the property, "" when it only appears empty, NULL when
 * absent. */
static void s_scan_root(const hs_sgf_node_t *root, const char *vals[S_NKEYS])
{
    for (int k = 0; k < S_NKEYS; k++)
        vals[k] = NULL;
    for (int i = 0; i < root->num_props; i++) {
        const hs_sgf_prop_t *p = &root->props[i];
        const int k = s_root_key(p->id);
        if (k < 0 || (vals[k] && *vals[k]))
            continue;
        vals[k] = p->values[0].len ? p->values[0].text : "";
    }
}

/* GM and SZ of the root: a game of Go on a board this build supports. */
static int s_read_kind(const hs_sgf_node_t *root, const char *const rv[S_NKEYS], int *size,
                       hs_error_t *err)
{
    const char *v = rv[S_GM];
    if (v && *v && strtol(v, NULL, 10) != 1)
        return hs_error_set(err, HS_EUNSUPPORTED, "line %u: GM[%.20s] is not a game of Go",
                            root->line, v);
    *size = 19;
    v = rv[S_SZ];
    if (!v || !*v)
        return 0;
    hs_error_t e2;
    int rc = hs_sgf_parse_size(v, size, &e2);
    if (rc)
        return hs_error_set(err, rc, "line %u: %s", root->line, e2.msg);
    if (*size < HS_BOARD_MIN_SIZE || *size > HS_BOARD_MAX_SIZE)
        return hs_error_set(err, HS_EUNSUPPORTED, "line %u: board size %d is not supported "
                            "(%d..%d)", root->line, *size, HS_BOARD_MIN_SIZE, HS_BOARD_MAX_SIZE);
    return 0;
}

/* The root's rules, handicap and metadata strings (players, result, komi text). */
static int s_read_header(const char *const rv[S_NKEYS], hs_game_t *g, hs_error_t *err)
{
    const char *v = rv[S_RU];
    if (v && *v) {
        g->rules_raw = s_dup(v);
        hs_rules_t r;
        if (hs_rules_from_name(v, &r) == 0)
            g->rules = r;
    }
    v = rv[S_HA];
    if (v && *v) {
        long ha = strtol(v, NULL, 10);
        g->handicap = ha >= 2 && ha <= 361 ? (int)ha : 0;
    }
    struct { int key; char **dst; } meta[] = {
        { S_PB, &g->black }, { S_PW, &g->white }, { S_BR, &g->black_rank },
        { S_WR, &g->white_rank }, { S_DT, &g->date }, { S_EV, &g->event },
        { S_RO, &g->round }, { S_RE, &g->result_raw }, { S_KM, &g->komi_raw },
    };
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++) {
        v = rv[meta[i].key];
        if (v && !(*meta[i].dst = s_dup(v)))
            return hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    /* A name typed with a space before or after it ("Student Ann ") was
     * another player to the store's index and to report --player. */
    s_trim(&g->black);
    s_trim(&g->white);
    s_trim(&g->black_rank);
    s_trim(&g->white_rank);
    hs_result_parse(g->result_raw, &g->result);
    return 0;
}

/* What the walk down the main line builds. */
typedef struct s_line {
    int size;
    s_vec_t setup, moves;   /* hs_game_setup_t, hs_game_move_t */
    uint16_t *pts;          /* scratch: size * size points of one setup property */
    bool moved;             /* a move was read (setup after it is refused) */
    uint8_t pl;             /* PL before the first move, HS_EMPTY without */
} s_line_t;

/* PL's colour as KataGo reads it (b, black, w, white; any case), or HS_EMPTY. */
static uint8_t s_pl_color(const char *v)
{
    if (!v)
        return HS_EMPTY;
    if (!strcasecmp(v, "b") || !strcasecmp(v, "black"))
        return HS_BLACK;
    if (!strcasecmp(v, "w") || !strcasecmp(v, "white"))
        return HS_WHITE;
    return HS_EMPTY;
}

/* The AB/AW/AE properties of node n (number node_no; first: the first of them),
 * appended to l->setup. */
static int s_read_setup(s_line_t *l, const hs_sgf_node_t *n, int node_no,
                        const hs_sgf_prop_t *first, hs_error_t *err)
{
    if (l->moved)
        return hs_error_set(err, HS_EUNSUPPORTED, "node %d (line %u, column %u): setup stones "
                            "(%s) after move %d", node_no, first->line, first->column, first->id,
                            l->moves.n);
    for (int i = 0; i < n->num_props; i++) {
        const hs_sgf_prop_t *p = &n->props[i];
        if (p->id[0] != 'A' || p->id[2])
            continue;
        uint8_t color = p->id[1] == 'B' ? HS_BLACK : p->id[1] == 'W' ? HS_WHITE
                        : p->id[1] == 'E' ? HS_EMPTY : 255;
        if (color == 255)
            continue;
        int count;
        hs_error_t e2;
        int rc = hs_sgf_expand_points(p, l->size, l->pts, l->size * l->size, &count, &e2);
        if (rc)
            return hs_error_set(err, rc, "node %d (line %u, column %u): %s", node_no, p->line,
                                p->column, e2.msg);
        for (int k = 0; k < count; k++) {
            hs_game_setup_t *s = s_push(&l->setup, sizeof *s);
            if (!s)
                return hs_error_set(err, HS_ENOMEM, "out of memory");
            s->vertex = l->pts[k];
            s->color = color;
        }
    }
    return 0;
}

/* The move mp (B or W) of node n, appended to l->moves. */
static int s_read_move(s_line_t *l, const hs_sgf_node_t *n, const hs_sgf_prop_t *mp,
                       int node_no, hs_error_t *err)
{
    if (mp->num_values != 1)
        return hs_error_set(err, HS_EPARSE, "move %d (node %d, line %u, column %u): %s has %d "
                            "values", l->moves.n + 1, node_no, mp->line, mp->column, mp->id,
                            mp->num_values);
    int x, y, rc = 0, size = l->size;
    bool pass = false;
    hs_error_t e2;
    const char *mt = mp->values[0].text;
    /* Fast path for the usual "pd" (lower-case, on the board, not "tt"
     * which is a pass on 19x19); everything else goes through the reader. */
    x = mt[0] - 'a';
    y = x >= 0 && mp->values[0].len == 2 ? mt[1] - 'a' : -1;
    if ((unsigned)x >= (unsigned)size || (unsigned)y >= (unsigned)size)
        rc = hs_sgf_parse_point(mt, mp->values[0].len, size, &x, &y, &pass, &e2);
    if (rc)
        return hs_error_set(err, rc, "move %d (node %d, line %u, column %u): %s[%.20s]: %s",
                            l->moves.n + 1, node_no, mp->line, mp->column, mp->id, mt, e2.msg);
    if (l->moves.n >= HS_GAME_MAX_MOVES)
        return hs_error_set(err, HS_ELIMIT, "node %d (line %u): more than %d moves", node_no,
                            n->line, HS_GAME_MAX_MOVES);
    /* Room is certain: at most one move per main-line node, and the count
     * was capped at HS_GAME_MAX_MOVES, which the test above enforces. */
    hs_game_move_t *m = &((hs_game_move_t *)l->moves.p)[l->moves.n++];
    m->vertex = pass ? HS_GAME_PASS : (uint16_t)(y * size + x);
    m->color = mp->id[0] == 'B' ? HS_BLACK : HS_WHITE;
    l->moved = true;
    return 0;
}

/* Setup stones and moves down the main line (first children) from root. */
static int s_read_main_line(s_line_t *l, const hs_sgf_node_t *root, hs_error_t *err)
{
    l->pts = malloc((size_t)l->size * l->size * sizeof *l->pts);
    /* The main line's length bounds the number of moves: size the move array
     * once instead of growing it move by move. */
    int nodes = 0;
    for (const hs_sgf_node_t *n = root; n && nodes <= HS_GAME_MAX_MOVES; n = n->first_child)
        nodes++;
    l->moves.cap = nodes < HS_GAME_MAX_MOVES ? nodes : HS_GAME_MAX_MOVES;
    l->moves.p = malloc((size_t)l->moves.cap * sizeof(hs_game_move_t) + 1);
    if (!l->pts || !l->moves.p)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int node_no = 0;
    for (const hs_sgf_node_t *n = root; n; n = n->first_child, node_no++) {
        const hs_sgf_prop_t *b, *w, *sp;
        s_scan_node(n, &b, &w, &sp);
        int rc = sp ? s_read_setup(l, n, node_no, sp, err) : 0;
        if (rc)
            return rc;
        uint8_t pl = l->moved ? HS_EMPTY : s_pl_color(hs_sgf_node_value(n, "PL"));
        if (pl != HS_EMPTY)
            l->pl = pl;
        if (b && w)
            return hs_error_set(err, HS_EPARSE, "node %d (line %u, column %u): both B and W "
                                "in one node", node_no, n->line, n->column);
        if ((b || w) && (rc = s_read_move(l, n, b ? b : w, node_no, err)))
            return rc;
    }
    return 0;
}

/* Without HA, black-only setup stones are the handicap — a lone one too: OGS
 * writes "handicap 1" that way, and area counting compensates it. */
static void s_setup_handicap(hs_game_t *g)
{
    if (g->handicap != 0 || g->num_setup < 1)
        return;
    int blacks = 0;
    for (int i = 0; i < g->num_setup; i++) {
        if (g->setup[i].color != HS_BLACK)
            return;
        blacks++;
    }
    g->handicap = blacks;
}

/* HA[n] with no black setup stone and White moving first: Black's stones were
 * placed, but the record does not say where (Fox writes such records; the fixed
 * points are wrong for most of them, above). Every position would lack them, so
 * every figure of the game would be wrong: refused, not analysed. (Black moving
 * first may have placed them as moves, which the replay then has.) */
static int s_check_handicap_stones(const hs_game_t *g, hs_error_t *err)
{
    if (g->handicap < 2 || g->num_moves == 0 || g->moves[0].color != HS_WHITE)
        return 0;
    for (int i = 0; i < g->num_setup; i++)
        if (g->setup[i].color == HS_BLACK)
            return 0;
    return hs_error_set(err, HS_EUNSUPPORTED, "HA[%d] but the record has no handicap stones "
                        "and White moves first: where Black's stones stand is not recorded",
                        g->handicap);
}

int hs_game_from_sgf(const struct hs_sgf_node *root, hs_game_t *g, hs_error_t *err)
{
    hs_game_init(g, 19);
    if (!root)
        return hs_error_set(err, HS_EINVAL, "no game tree");
    const char *rv[S_NKEYS];
    s_scan_root(root, rv);
    s_line_t l = { 0 };
    int rc = s_read_kind(root, rv, &l.size, err);
    if (rc == 0) {
        g->size = l.size;
        rc = s_read_header(rv, g, err);
    }
    if (rc == 0)
        rc = s_read_main_line(&l, root, err);
    free(l.pts);
    if (rc) {
        free(l.setup.p);
        free(l.moves.p);
        hs_game_fini(g);
        return rc;
    }
    g->setup = l.setup.p;
    g->num_setup = l.setup.n;
    g->moves = l.moves.p;
    g->num_moves = l.moves.n;
    g->first_player = l.pl;
    s_setup_handicap(g);
    if ((rc = s_check_handicap_stones(g, err)) != 0) {
        hs_game_fini(g);
        return rc;
    }
    hs__game_read_komi(g, g->komi_raw, rv[S_PC] && !strncmp(rv[S_PC], "OGS", 3));
    hs_game_compute_id(g);
    return 0;
}

/* ---- replay --------------------------------------------------------------- */

static const char *s_illegal_name(hs_illegal_t r)
{
    switch (r) {
    case HS_ILLEGAL_OFFBOARD: return "not a point of the board";
    case HS_ILLEGAL_OCCUPIED: return "the point is occupied";
    case HS_ILLEGAL_KO: return "retakes a ko immediately";
    case HS_ILLEGAL_SUICIDE: return "suicide";
    case HS_ILLEGAL_SUPERKO: return "repeats a previous position (superko)";
    default: return "illegal";
    }
}

/* Board index of a vertex v < size * size without a division per move:
 * p = (x + 1) + (y + 1) * (size + 1) = v + y + stride + 1, and y = v / size is
 * (v * (65536 / size + 1)) >> 16, exact for every v < size * size and size
 * 2..25 (checked exhaustively; asserted in debug builds). */
static inline hs_point_t s_vertex_point(const hs_board_t *b, uint16_t v, uint32_t recip)
{
    if (v >= (uint16_t)(b->size * b->size))
        return hs_game_board_point(b, v);
    const uint32_t y = ((uint32_t)v * recip) >> 16;
    const hs_point_t p = (hs_point_t)(v + y + (uint32_t)b->stride + 1);
    assert(p == hs_game_board_point(b, v));
    return p;
}

/* Applies the setup stones in batches: one string rebuild per batch, not one
 * per stone (the board only depends on the final colours). */
static int s_apply_setup(const hs_game_t *g, hs_board_t *b, hs_error_t *err)
{
    enum { BATCH = 256 };
    hs_point_t pts[BATCH];
    uint8_t cols[BATCH];
    for (int i0 = 0; i0 < g->num_setup; i0 += BATCH) {
        const int n = g->num_setup - i0 < BATCH ? g->num_setup - i0 : BATCH;
        for (int k = 0; k < n; k++) {
            const hs_game_setup_t *st = &g->setup[i0 + k];
            pts[k] = hs_game_board_point(b, st->vertex);
            cols[k] = st->color;
            if (!hs_board_on_board(b, pts[k]) || st->vertex == HS_GAME_PASS)
                return hs_error_set(err, HS_EILLEGAL, "setup stone %d: not a point of the board",
                                    i0 + k + 1);
        }
        if (hs_board_set_stones(b, pts, cols, n))
            return hs_error_set(err, HS_EILLEGAL, "setup stone %d: not a point of the board",
                                i0 + 1);
    }
    return 0;
}

hs_color_t hs_game_first_player(const hs_game_t *g)
{
    if (g->num_moves > 0)
        return (hs_color_t)g->moves[0].color;
    /* AE counts against it, as KataGo's placements of an empty point do */
    for (int i = 0; i < g->num_setup; i++)
        if (g->setup[i].color != HS_BLACK)
            return HS_BLACK;
    return g->num_setup > 0 ? HS_WHITE : HS_BLACK;
}

int hs_game_replay(const hs_game_t *g, int upto, hs_board_t *b, hs_error_t *err)
{
    int rc = hs_board_init(b, g->size);
    if (rc)
        return hs_error_set(err, rc, "board size %d is not supported", g->size);
    if (g->num_setup) {
        rc = s_apply_setup(g, b, err);
        if (rc)
            return rc;
        int np = hs_board_num_points(b);
        for (int p = 0; p < np; p++) {
            if ((b->color[p] == HS_BLACK || b->color[p] == HS_WHITE) && hs_board_libs(b, (hs_point_t)p) == 0) {
                char name[8];
                return hs_error_set(err, HS_EILLEGAL,
                                    "setup: the %s string at %s has no liberty",
                                    b->color[p] == HS_BLACK ? "black" : "white",
                                    hs_board_point_name(b, (hs_point_t)p, name));
            }
        }
        b->to_move = hs_game_first_player(g);
    }
    if (upto < 0 || upto > g->num_moves)
        upto = g->num_moves;
    /* Simple ko needs no history: the board holds the ko point. */
    const bool superko = g->rules.ko != HS_KO_SIMPLE;
    const uint32_t recip = 65536u / (uint32_t)g->size + 1u;
    const unsigned flags = hs_rules_play_flags(&g->rules);
    hs_history_t h;
    hs_history_init(&h);
    if (superko)
        rc = hs_history_push(&h, b, &g->rules);
    for (int i = 0; i < upto && rc == 0; i++) {
        const hs_game_move_t *m = &g->moves[i];
        hs_point_t p = m->vertex == HS_GAME_PASS ? HS_PASS : s_vertex_point(b, m->vertex, recip);
        hs_illegal_t why = HS_LEGAL;
        /* Simple ko is all the board's business: no need to go through rules. */
        rc = superko ? hs_rules_play(b, &g->rules, &h, (hs_color_t)m->color, p, &why)
                     : hs_board_play(b, (hs_color_t)m->color, p, flags, &why);
        if (rc == HS_EILLEGAL) {
            char name[8];
            bool no_stones = g->handicap >= 2;
            for (int k = 0; k < g->num_setup && no_stones; k++)
                if (g->setup[k].color == HS_BLACK)
                    no_stones = false;
            hs_error_set(err, HS_EILLEGAL, "move %d (%c %s): %s%s", i + 1,
                         m->color == HS_BLACK ? 'B' : 'W', hs_board_point_name(b, p, name),
                         s_illegal_name(why),
                         no_stones ? " (HA is set but the record has no handicap stones)" : "");
        } else if (rc) {
            hs_error_set(err, rc, "move %d: %s", i + 1, hs_strerror(rc));
        }
    }
    if (rc == HS_ENOMEM)
        hs_error_set(err, rc, "out of memory replaying the game");
    hs_history_fini(&h);
    return rc;
}

/* ---- game id -------------------------------------------------------------- */

typedef struct s_hash2 {
    uint64_t a, b;
} s_hash2_t;

static void s_hash_byte(s_hash2_t *h, uint8_t byte)
{
    h->a = (h->a ^ byte) * 0x100000001b3ull;                 /* FNV-1a 64 */
    h->b = (h->b ^ byte) * 0x9E3779B97F4A7C15ull;            /* golden-ratio multiply */
    h->b ^= h->b >> 29;
}

static void s_hash_u32(s_hash2_t *h, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        s_hash_byte(h, (uint8_t)(v >> (8 * i)));
}

static uint64_t s_fmix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

void hs_game_compute_id(hs_game_t *g)
{
    s_hash2_t h = { 0xcbf29ce484222325ull, 0x6a09e667f3bcc909ull };
    s_hash_byte(&h, 'G');
    s_hash_u32(&h, (uint32_t)g->size);
    /* The setup position, not the order of AB/AW/AE. */
    uint8_t pos[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    int n = g->size * g->size;
    if (n < 0 || n > (int)sizeof pos)
        n = 0;
    if (g->num_setup > 0) {
        memset(pos, 0, sizeof pos);
        for (int i = 0; i < g->num_setup; i++)
            if (g->setup[i].vertex < n)
                pos[g->setup[i].vertex] = g->setup[i].color;
        for (int i = 0; i < n; i++)
            if (pos[i]) {
                s_hash_u32(&h, (uint32_t)i);
                s_hash_byte(&h, pos[i]);
            }
    }
    s_hash_byte(&h, 'M');
    s_hash_u32(&h, (uint32_t)g->num_moves);
    for (int i = 0; i < g->num_moves; i++) {
        s_hash_byte(&h, g->moves[i].color);
        s_hash_byte(&h, (uint8_t)(g->moves[i].vertex & 0xFF));
        s_hash_byte(&h, (uint8_t)(g->moves[i].vertex >> 8));
    }
    s_hash_byte(&h, 'K');
    s_hash_u32(&h, (uint32_t)(int32_t)lround(g->komi * 100.0));
    g->id[0] = s_fmix(h.a);
    g->id[1] = s_fmix(h.b ^ 0x5851f42d4c957f2dull);
}

const char *hs_game_id_hex(const hs_game_t *g, char *buf)
{
    snprintf(buf, 33, "%016llx%016llx", (unsigned long long)g->id[0], (unsigned long long)g->id[1]);
    return buf;
}
