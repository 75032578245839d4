/*
 * core/sgf.h — the SGF reader and writer (FF[1]..FF[4]).
 *
 * What it does
 * ------------
 * Turns the bytes of an .sgf file into a collection of game trees of nodes with
 * raw properties, and writes such a tree back. It knows nothing about Go beyond
 * the few helpers at the end (points, compressed point lists, SZ); the meaning
 * of a game tree as a Go game is core/game.h's business.
 *
 *     collection ── trees[0] ── root ─ first_child ─ ... (main line: first child)
 *                                 │          └ next_sibling (a variation)
 *                   trees[1] ── root ...
 *
 * Every property is kept, in file order, with all its values (AB[aa][bb] has two
 * values); a property repeated in one node (Fox writes AP twice) is kept twice.
 * Identifiers are normalised to their upper-case letters (FF[3] "FileFormat" ->
 * "FF"). Values are stored *unescaped*: "\]" -> "]", "\\" -> "\", any "\x" -> "x",
 * and a soft line break (backslash + newline: \n, \r\n, \n\r or \r) is removed;
 * other line breaks are kept as they are. Values are NUL-terminated (the length is
 * exact even if the file held NUL bytes). Composed values ("aa:cc", "19:19") are
 * kept whole; the helpers below split them.
 *
 * Text encoding: by default the whole file is converted to UTF-8 *before* parsing
 * (core/charset.h): a UTF-16 or UTF-8 BOM, else the first CA[] in the file, else
 * UTF-8 with invalid bytes replaced by U+FFFD. Converting first is the only safe
 * way: in Shift_JIS, Big5 and GBK the bytes ']' and '\' occur inside double-byte
 * characters, and UTF-16 has no ASCII structure at all. So every value, in every
 * tree, is UTF-8; byte offsets in positions refer to that UTF-8 text (equal to the
 * file's offsets when no conversion or repair was needed). HS_SGF_NO_CHARSET
 * skips all of this and parses the bytes as they are.
 *
 * Error handling and recovery
 * ---------------------------
 * - Text before the first tree (and between trees) is ignored: a tree starts at a
 *   '(' followed (after white space) by ';'.
 * - A file (or tree) whose leading '(' is missing (";GM[1]...") is read as a tree
 *   but marked failed: "missing '(' before the first node".
 * - A tree whose root lacks its ';' ("(GM[1]...", as the Nihon Ki-in writes)
 *   has the root implied; a property elsewhere outside a node is an error.
 * - A truncated tree (the file ends before its closing ')', possibly inside a
 *   value) is a failed tree with a reason starting "truncated". Complete trees
 *   before it are fine. So is a tree cut short by the next game: a line that
 *   starts with "(;GM[" or "(;FF[" inside an open tree ends it as "truncated"
 *   and starts a new tree there.
 * - After any other error inside a tree (bad character, a limit), the reader skips
 *   to the end of that tree (counting parentheses, skipping values) and goes on
 *   with the next one.
 * hs_sgf_parse() fails as a whole on the first failed tree; with HS_SGF_RECOVER
 * (hs_sgf_parse_ex) failed trees are recorded in trees[k].status/message and the
 * others parse normally — what ingest uses, so one broken game never loses the
 * other games of the same file. Every message names the position as
 * "game K, line L, column C (byte O): reason" (K, L, C from 1, O from 0); callers
 * prefix the file name.
 *
 * Limits (hs_sgf_limits_t) bound the file size, nesting depth, node count, the
 * properties and values per node and the length of a value. The reader is not
 * recursive (an explicit stack of at most max_depth entries), so 100,000 nested
 * variations give HS_ELIMIT, never a stack overflow. A limit hit is HS_ELIMIT with
 * a message; the node and size limits fail the whole parse (they protect memory),
 * the depth / per-node / value limits fail only the tree. The node limit is
 * checked before any node is allocated, on a count of the ';' outside property
 * values (every node starts at one; those of junk text or of broken trees count
 * too), so a file over it fails at the cost of one scan: memory is bounded by
 * the limits (about 130 bytes a node: max_nodes x 130 = 520 MB at the default,
 * plus the text), never by how much of a huge file precedes the limit.
 *
 * Memory: a collection owns everything reachable from it (nodes, properties,
 * values, messages) in a few large blocks: one copy of the (converted) text, in
 * which values are unescaped in place, plus an arena for nodes and property
 * arrays. Nothing is allocated per byte or per value.
 *
 * Threads: a collection is immutable after parsing; any number of threads may
 * read it. Different collections are independent. No global state.
 */
#ifndef HS_CORE_SGF_H
#define HS_CORE_SGF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* Bounds for one parse; hs_sgf_limits_default() fills the defaults shown. */
typedef struct hs_sgf_limits {
    size_t max_file_size;      /* bytes of input (and of converted text): 64 MiB */
    int max_depth;             /* nesting of '(' within one tree: 10,000 */
    size_t max_nodes;          /* nodes in the whole collection: 4,000,000 */
    int max_props_per_node;    /* properties in one node: 10,000 */
    int max_values_per_node;   /* values of all properties of one node: 100,000 */
    size_t max_value_len;      /* bytes of one value (after unescaping): 4 MiB */
} hs_sgf_limits_t;

/* Flags for hs_sgf_parse_ex(). */
#define HS_SGF_RECOVER    0x1u  /* record broken trees per tree instead of failing */
#define HS_SGF_NO_CHARSET 0x2u  /* parse the bytes as they are (no BOM/CA/UTF-8 work) */

/* One value of a property: unescaped text, NUL-terminated, len bytes. */
typedef struct hs_sgf_value {
    const char *text;
    size_t len;
} hs_sgf_value_t;

/* Longest identifier kept (upper-case letters); longer ones are a parse error. */
#define HS_SGF_ID_MAX 15

typedef struct hs_sgf_prop {
    char id[HS_SGF_ID_MAX + 1];     /* "B", "AB", "FF" (upper-case letters only) */
    int num_values;                 /* >= 1 */
    const hs_sgf_value_t *values;   /* num_values entries, in file order */
    uint32_t line, column;          /* where the identifier starts (from 1) */
} hs_sgf_prop_t;

/* A node. All fields are read-only for users; the collection owns the node. */
struct hs_sgf_node {
    struct hs_sgf_node *parent;         /* NULL for a tree's root */
    struct hs_sgf_node *first_child;    /* main line continues here; NULL at a leaf */
    struct hs_sgf_node *next_sibling;   /* next variation of the same parent */
    struct hs_sgf_node *last_child;     /* (internal: O(1) append) */
    int num_children;
    int num_props;
    const hs_sgf_prop_t *props;         /* num_props entries, in file order */
    size_t offset;                      /* byte offset of the ';' */
    uint32_t line, column;              /* position of the ';' (from 1) */
};
typedef struct hs_sgf_node hs_sgf_node_t;

/* One game tree of a collection. */
typedef struct hs_sgf_tree {
    hs_sgf_node_t *root;    /* first node; may be NULL or partial when status != 0 */
    int status;             /* 0, or HS_EPARSE / HS_ELIMIT for a broken tree */
    const char *message;    /* "" when status == 0, else the full positioned reason */
    size_t offset;          /* byte offset of the tree's '(' (or first ';') */
    size_t end;             /* byte offset just after the tree (its ')' or EOF) */
    uint32_t line, column;  /* position of offset */
    size_t num_nodes;       /* nodes read in this tree */
} hs_sgf_tree_t;

typedef struct hs_sgf_collection {
    int num_trees;          /* game trees found, broken ones included */
    int num_failed;         /* trees with status != 0 */
    hs_sgf_tree_t *trees;   /* num_trees entries, in file order */
    const char *charset;    /* the text was read as this ("UTF-8", "GB2312", ...) */
    size_t num_replaced;    /* invalid byte sequences replaced by U+FFFD */
    void *internal_;        /* arena; do not touch */
} hs_sgf_collection_t;

/* Fills *l with the defaults listed in hs_sgf_limits_t. */
void hs_sgf_limits_default(hs_sgf_limits_t *l);

/*
 * Parses data[0..len) (need not be NUL-terminated) strictly: every tree must be
 * well formed. Same as hs_sgf_parse_ex(data, len, limits, 0, err).
 * [in] limits: NULL for the defaults.
 * Returns a new collection (caller owns it and must destroy it with
 * hs_sgf_destroy), or NULL with *err set: HS_EPARSE (syntax, truncated, no game
 * tree in the input), HS_ELIMIT (a limit), HS_ENOMEM. The message names the game,
 * line, column and byte offset.
 */
hs_sgf_collection_t *hs_sgf_parse(const char *data, size_t len,
                                  const hs_sgf_limits_t *limits, hs_error_t *err);

/*
 * Parses with flags (HS_SGF_RECOVER, HS_SGF_NO_CHARSET). With HS_SGF_RECOVER a
 * collection is returned even when some trees are broken (see trees[k].status,
 * num_failed); NULL then only for: no game tree found (HS_EPARSE), input or node
 * count over the limits (HS_ELIMIT), HS_ENOMEM. Caller owns the result
 * (hs_sgf_destroy). When a collection with failed trees is returned, *err holds
 * the first failed tree's error (code and message) as information; otherwise
 * *err is cleared.
 */
hs_sgf_collection_t *hs_sgf_parse_ex(const char *data, size_t len,
                                     const hs_sgf_limits_t *limits, unsigned flags,
                                     hs_error_t *err);

/* Frees *c and everything it owns and sets *c = NULL. NULL and *c == NULL are fine. */
void hs_sgf_destroy(hs_sgf_collection_t **c);

/* ---- Reading a collection (core/sgf_node.c) ----------------------------- */

/* Root node of tree k (0-based), or NULL when k is out of range. Borrowed. */
const hs_sgf_node_t *hs_sgf_root(const hs_sgf_collection_t *c, int k);

/* Child k (0 = main line) of n, or NULL. O(k). Borrowed. */
const hs_sgf_node_t *hs_sgf_node_child(const hs_sgf_node_t *n, int k);

/* First property of n with identifier id (exact, upper case), or NULL. Borrowed. */
const hs_sgf_prop_t *hs_sgf_node_prop(const hs_sgf_node_t *n, const char *id);

/*
 * First value of the first property id of n, or NULL when absent. With
 * "first wins unless empty" semantics for repeated properties use
 * hs_sgf_node_value_nonempty. Borrowed; valid while the collection lives.
 */
const char *hs_sgf_node_value(const hs_sgf_node_t *n, const char *id);

/* First non-empty first-value among the properties id of n (else "" if one
 * exists but all are empty, else NULL). */
const char *hs_sgf_node_value_nonempty(const hs_sgf_node_t *n, const char *id);

/* True when n has a property id. */
static inline bool hs_sgf_node_has(const hs_sgf_node_t *n, const char *id)
{
    return hs_sgf_node_prop(n, id) != NULL;
}

/* ---- Go helpers (core/sgf_go.c) ------------------------------------------ */

/*
 * Reads an SGF point ("dd") on a board of `size` (1..52: a..z = 0..25, A..Z =
 * 26..51). An empty value, or "tt" when size <= 19, is a pass: *pass = true and
 * *x = *y = -1. Returns 0, or HS_EPARSE ("not a point" / "outside the 19x19
 * board") with *err set.
 */
int hs_sgf_parse_point(const char *text, size_t len, int size, int *x, int *y,
                       bool *pass, hs_error_t *err);

/*
 * Expands the values of a point-list property (AB, AW, AE, TB, ...), including
 * compressed rectangles "aa:cc", into vertices y * size + x, in value order.
 * Empty values are skipped (FF[4] "empty list"). At most max are written;
 * *count gets the number written. Returns 0, HS_EPARSE (bad point, inverted
 * rectangle corners are accepted and normalised), or HS_ELIMIT when more than
 * max vertices would result.
 */
int hs_sgf_expand_points(const hs_sgf_prop_t *p, int size, uint16_t *out, int max,
                         int *count, hs_error_t *err);

/*
 * Reads an SZ value: "19" or "19:19". Returns 0 with *size, HS_EUNSUPPORTED for a
 * rectangular board ("13:19"), HS_EPARSE for anything else (with *err set).
 * Does not check the range (the caller knows its own bounds).
 */
int hs_sgf_parse_size(const char *text, int *size, hs_error_t *err);

/* ---- Writer (core/sgf_write.c) ------------------------------------------- */

/*
 * Writes every tree of c whose status is 0 as SGF text: "(;ID[v][v]...;...)",
 * one tree per line group, variations as nested "( )". Values are escaped
 * ("]" and "\" get a backslash); since the collection holds UTF-8 text, any CA
 * property is written as CA[UTF-8]. Parsing the output gives the same trees
 * (same identifiers, values, structure). Not recursive.
 * [out] out: a malloc'd, NUL-terminated buffer; caller owns it and frees it with
 * free(). [out] out_len: its length (without the NUL).
 * Returns 0, or HS_ENOMEM.
 */
int hs_sgf_write(const hs_sgf_collection_t *c, char **out, size_t *out_len,
                 hs_error_t *err);

/* Writes one tree (from its root) in the same way. Same ownership and errors. */
int hs_sgf_write_tree(const hs_sgf_node_t *root, char **out, size_t *out_len,
                      hs_error_t *err);

#endif
