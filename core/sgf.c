/*
 * core/sgf.c — the SGF reader's grammar: text to game trees (see core/sgf.h for
 * the contract). core/sgf_collection.c holds the entry points around it (charset
 * conversion, the private text buffer, the arena, destroy; core/sgf_internal.h).
 *
 * Design
 * ------
 * The input is copied once (or taken over from the charset conversion) into a
 * private text buffer. Values are unescaped IN PLACE in that buffer and
 * NUL-terminated over their closing ']' (unescaping only shrinks, so the writes
 * never overtake the reads); a value is then just (pointer, length) into it. The
 * common value has no backslash: one memchr for ']' and one for '\' find it.
 *
 * Nodes and property arrays come from a bump arena of large blocks. While a node
 * is being read its properties and values collect in two scratch vectors owned
 * by the parser; when the node ends they are copied into one arena chunk. So the
 * allocations are O(blocks), not O(values).
 *
 * The tree is built without recursion: `stack[d]` holds the node after which the
 * variation opened at depth d continues (the node "before the '('"), so ')'
 * restores the current node in O(1). The stack never exceeds max_depth entries.
 *
 * Line/column: the parser counts '\n' in the structural text and, with memchr,
 * inside values; columns are in bytes from 1.
 */
#include "core/sgf_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *s_strdup(hs__sgf_internal_t *in, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = hs__sgf_alloc(in, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- parser state --------------------------------------------------------- */

typedef struct s_pprop {
    char id[HS_SGF_ID_MAX + 1];
    int first, count;    /* into the scratch values */
    uint32_t line, column;
} s_pprop_t;

typedef struct s_parser {
    char *t;                 /* text (writable) */
    size_t len, pos;
    uint32_t line;
    size_t line_start;       /* offset of the first byte of the current line */
    hs_sgf_limits_t lim;
    hs__sgf_internal_t *in;
    hs_sgf_node_t **stack;
    int stack_cap;
    s_pprop_t *pp;
    int npp, pp_cap;
    hs_sgf_value_t *pv;
    int npv, pv_cap;
    hs_sgf_tree_t *trees;
    int ntrees, trees_cap;
    size_t total_nodes;
    /* the tree being read */
    int tree_index;
    int tstatus;
    char tmsg[HS_ERROR_MSG_MAX];
    int fatal;               /* 0 or a code that ends the whole parse */
    char fmsg[HS_ERROR_MSG_MAX];
} s_parser_t;

static uint32_t s_col(const s_parser_t *p, size_t pos)
{
    return (uint32_t)(pos - p->line_start + 1);
}

/* Records the tree's first error (later ones are consequences). */
static int s_tree_error(s_parser_t *p, int code, size_t pos, uint32_t line, uint32_t col,
                        const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int s_tree_error(s_parser_t *p, int code, size_t pos, uint32_t line, uint32_t col,
                        const char *fmt, ...)
{
    if (p->tstatus)
        return p->tstatus;
    char reason[HS_ERROR_MSG_MAX - 100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(p->tmsg, sizeof p->tmsg, "game %d, line %u, column %u (byte %zu): %s",
             p->tree_index + 1, line, col, pos, reason);
    p->tstatus = code;
    return code;
}

static int s_error_here(s_parser_t *p, int code, const char *reason)
{
    return s_tree_error(p, code, p->pos, p->line, s_col(p, p->pos), "%s", reason);
}

static int s_fatal(s_parser_t *p, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int s_fatal(s_parser_t *p, int code, const char *fmt, ...)
{
    if (!p->fatal) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->fmsg, sizeof p->fmsg, fmt, ap);
        va_end(ap);
        p->fatal = code;
    }
    return code;
}

/* Bytes that end the fast scan of a value. */
static const uint8_t s_special[256] = { [']'] = 1, ['\\'] = 1, ['\n'] = 1 };

/* White space: ' ', \n, \r, \t, \v, \f (a table: tested once per structural byte). */
static const uint8_t s_ws[256] = { [' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1, ['\v'] = 1,
                                   ['\f'] = 1 };

static inline bool s_is_ws(unsigned char c)
{
    return s_ws[c];
}

static inline bool s_is_alpha(unsigned char c)
{
    return (unsigned char)((c | 0x20) - 'a') < 26;
}

/* Skips white space, counting lines. */
static inline void s_skip_ws(s_parser_t *p)
{
    while (p->pos < p->len) {
        unsigned char c = (unsigned char)p->t[p->pos];
        if (!s_is_ws(c))
            return;
        if (c == '\n') {
            p->line++;
            p->line_start = p->pos + 1;
        }
        p->pos++;
    }
}

/* Counts the '\n' in t[from..to) and moves line/line_start accordingly. */
static inline void s_count_lines(s_parser_t *p, size_t from, size_t to)
{
    const char *s = p->t + from, *e = p->t + to;
    while (s < e) {
        const char *nl = memchr(s, '\n', (size_t)(e - s));
        if (!nl)
            break;
        p->line++;
        p->line_start = (size_t)(nl - p->t) + 1;
        s = nl + 1;
    }
}

/* Offset of the next non-white-space byte at or after pos (len if none). */
static size_t s_peek_nonws(const s_parser_t *p, size_t pos)
{
    while (pos < p->len && s_is_ws((unsigned char)p->t[pos]))
        pos++;
    return pos;
}

/* ---- values and properties ------------------------------------------------ */

/*
 * Reads one value; p->pos is at '['. On success appends it to the scratch values.
 */
static int s_read_value(s_parser_t *p)
{
    size_t vstart = p->pos + 1;
    uint32_t vline = p->line, vcol = s_col(p, p->pos);
    char *t = p->t;
    size_t vlen, next;
    /* Fast path: scan to the first ']', '\\' or newline; most values (moves)
     * are a few bytes with none of the latter two, so this beats memchr calls. */
    size_t r0 = vstart;
    while (r0 < p->len && !s_special[(unsigned char)t[r0]])
        r0++;
    if (r0 < p->len && t[r0] == ']') {
        vlen = r0 - vstart;
        t[r0] = '\0';
        next = r0 + 1;
    } else {
        /* Escapes, newlines (or no ']' at all): unescape in place, byte by
         * byte, from the first special byte on. */
        size_t r = r0, w = r0;
        for (;;) {
            if (r >= p->len) {
                p->pos = p->len;
                return s_tree_error(p, HS_EPARSE, vstart - 1, vline, vcol,
                                    "truncated: the file ends inside a property value");
            }
            char c = t[r];
            if (c == ']')
                break;
            if (c == '\\') {
                r++;
                if (r >= p->len)
                    continue; /* reported as truncated above */
                char e = t[r];
                if (e == '\n' || e == '\r') {
                    /* Soft line break: drop it, with its \r\n or \n\r partner. */
                    r++;
                    if (r < p->len && (t[r] == '\n' || t[r] == '\r') && t[r] != e)
                        r++;
                    s_count_lines(p, r - 2, r);
                    continue;
                }
                t[w++] = e;
                r++;
                continue;
            }
            if (c == '\n') {
                p->line++;
                p->line_start = r + 1;
            }
            t[w++] = c;
            r++;
        }
        vlen = w - vstart;
        t[w] = '\0';
        next = r + 1;
    }
    if (vlen > p->lim.max_value_len) {
        p->pos = next;
        return s_tree_error(p, HS_ELIMIT, vstart - 1, vline, vcol,
                            "a property value of %zu bytes exceeds the limit of %zu", vlen,
                            p->lim.max_value_len);
    }
    if (p->npv >= p->lim.max_values_per_node) {
        p->pos = next;
        return s_tree_error(p, HS_ELIMIT, vstart - 1, vline, vcol,
                            "more than %d property values in one node",
                            p->lim.max_values_per_node);
    }
    if (p->npv == p->pv_cap) {
        int cap = p->pv_cap ? p->pv_cap * 2 : 64;
        hs_sgf_value_t *nv = realloc(p->pv, (size_t)cap * sizeof *nv);
        if (!nv)
            return s_fatal(p, HS_ENOMEM, "out of memory reading SGF values");
        p->pv = nv;
        p->pv_cap = cap;
    }
    p->pv[p->npv].text = t + vstart;
    p->pv[p->npv].len = vlen;
    p->npv++;
    p->pos = next;
    return 0;
}

/* Reads "ID[v][v]..."; p->pos is at the identifier's first letter. */
static int s_read_property(s_parser_t *p)
{
    size_t start = p->pos;
    uint32_t line = p->line, col = s_col(p, start);
    char id[HS_SGF_ID_MAX + 1] = { 0 };
    int n = 0;
    bool too_long = false;
    while (p->pos < p->len && s_is_alpha((unsigned char)p->t[p->pos])) {
        char c = p->t[p->pos++];
        if (c >= 'A' && c <= 'Z') {
            if (n < HS_SGF_ID_MAX)
                id[n++] = c;
            else
                too_long = true;
        }
    }
    id[n] = '\0';
    size_t idlen = p->pos - start;
    if (too_long)
        return s_tree_error(p, HS_EPARSE, start, line, col,
                            "property identifier '%.*s' is too long", (int)(idlen > 40 ? 40 : idlen),
                            p->t + start);
    if (n == 0)
        return s_tree_error(p, HS_EPARSE, start, line, col,
                            "property identifier '%.*s' has no upper-case letter",
                            (int)(idlen > 40 ? 40 : idlen), p->t + start);
    s_skip_ws(p);
    if (p->pos >= p->len)
        return s_tree_error(p, HS_EPARSE, start, line, col,
                            "truncated: the file ends after property identifier %s", id);
    if (p->t[p->pos] != '[')
        return s_tree_error(p, HS_EPARSE, start, line, col, "property %s has no value", id);
    if (p->npp >= p->lim.max_props_per_node)
        return s_tree_error(p, HS_ELIMIT, start, line, col,
                            "more than %d properties in one node", p->lim.max_props_per_node);
    int first = p->npv;
    for (;;) {
        int rc = s_read_value(p);
        if (rc)
            return rc;
        if (p->pos < p->len && p->t[p->pos] == '[')
            continue;  /* AB[aa][bb]: the next value follows at once */
        size_t q = s_peek_nonws(p, p->pos);
        if (q >= p->len || p->t[q] != '[')
            break;
        s_skip_ws(p);
    }
    if (p->npp == p->pp_cap) {
        int cap = p->pp_cap ? p->pp_cap * 2 : 32;
        s_pprop_t *np = realloc(p->pp, (size_t)cap * sizeof *np);
        if (!np)
            return s_fatal(p, HS_ENOMEM, "out of memory reading SGF properties");
        p->pp = np;
        p->pp_cap = cap;
    }
    s_pprop_t *pp = &p->pp[p->npp++];
    memcpy(pp->id, id, sizeof pp->id);  /* fixed size: no library call */
    pp->first = first;
    pp->count = p->npv - first;
    pp->line = line;
    pp->column = col;
    return 0;
}

/* Moves the scratch properties of the node just read into the arena. */
static int s_flush_node(s_parser_t *p, hs_sgf_node_t *node)
{
    if (p->npp == 0)
        return 0;
    size_t bytes = (size_t)p->npp * sizeof(hs_sgf_prop_t) + (size_t)p->npv * sizeof(hs_sgf_value_t);
    char *mem = hs__sgf_alloc(p->in, bytes);
    if (!mem)
        return s_fatal(p, HS_ENOMEM, "out of memory storing SGF nodes");
    hs_sgf_prop_t *props = (hs_sgf_prop_t *)mem;
    hs_sgf_value_t *vals = (hs_sgf_value_t *)(mem + (size_t)p->npp * sizeof(hs_sgf_prop_t));
    memcpy(vals, p->pv, (size_t)p->npv * sizeof *vals);
    for (int i = 0; i < p->npp; i++) {
        memcpy(props[i].id, p->pp[i].id, sizeof props[i].id);
        props[i].num_values = p->pp[i].count;
        props[i].values = vals + p->pp[i].first;
        props[i].line = p->pp[i].line;
        props[i].column = p->pp[i].column;
    }
    node->props = props;
    node->num_props = p->npp;
    p->npp = 0;
    p->npv = 0;
    return 0;
}

/* ---- trees ---------------------------------------------------------------- */

/*
 * Fast path for the node most files are made of: ";B[pd]" or ";W[pd]" with a
 * two-byte value and nothing else in the node (the next byte is ';', '(' or
 * ')', or a line break then one of those). p->pos is just after the ';'. When
 * the node has that shape, its one property is stored straight into the arena
 * (no scratch vectors, no flush) and p->pos moves past the ']'; otherwise
 * nothing changes and the general reader takes the node. The result is the
 * same as the general path's: same id, value, position and NUL termination.
 */
static inline void s_read_move_node(s_parser_t *p, hs_sgf_node_t *node)
{
    const size_t q = p->pos;
    if (q + 6 >= p->len)
        return;
    const char *t = p->t;
    if ((t[q] != 'B' && t[q] != 'W') || t[q + 1] != '[' || t[q + 4] != ']'
        || s_special[(unsigned char)t[q + 2]] || s_special[(unsigned char)t[q + 3]])
        return;
    unsigned char nx = (unsigned char)t[q + 5];
    if (nx == '\n' || nx == '\r')
        nx = (unsigned char)t[q + 6];
    if (nx != ';' && nx != ')' && nx != '(')
        return;
    if (p->lim.max_props_per_node < 1 || p->lim.max_values_per_node < 1
        || p->lim.max_value_len < 2)
        return;
    char *mem = hs__sgf_alloc(p->in, sizeof(hs_sgf_prop_t) + sizeof(hs_sgf_value_t));
    if (!mem)
        return;  /* the general path reports the lack of memory */
    hs_sgf_prop_t *prop = (hs_sgf_prop_t *)mem;
    hs_sgf_value_t *val = (hs_sgf_value_t *)(mem + sizeof(hs_sgf_prop_t));
    memset(prop->id, 0, sizeof prop->id);
    prop->id[0] = t[q];
    prop->num_values = 1;
    prop->values = val;
    prop->line = p->line;
    prop->column = s_col(p, q);
    p->t[q + 4] = '\0';
    val->text = p->t + q + 2;
    val->len = 2;
    node->props = prop;
    node->num_props = 1;
    p->pos = q + 5;
}


/*
 * True when the '(' at pos opens what looks like a new game rather than a
 * variation: "( ; GM[" or "( ; FF[" at the start of a line. Used to end a tree whose ')' is missing
 * when the next game of the file begins.
 */
static bool s_starts_new_game(const s_parser_t *p, size_t pos)
{
    /* Only a '(' that begins a line: a real variation may start with GM (our
     * own writer never puts a line break before a variation's '('). */
    size_t b = pos;
    while (b > 0 && (p->t[b - 1] == ' ' || p->t[b - 1] == '\t' || p->t[b - 1] == '\r'))
        b--;
    if (b > 0 && p->t[b - 1] != '\n')
        return false;
    size_t q = s_peek_nonws(p, pos + 1);
    if (q >= p->len || p->t[q] != ';')
        return false;
    q = s_peek_nonws(p, q + 1);
    if (q + 3 > p->len)
        return false;
    const char *s = p->t + q;
    return ((s[0] == 'G' && s[1] == 'M') || (s[0] == 'F' && s[1] == 'F')) && s[2] == '[';
}

/*
 * After an error: skips to the end of the current tree (depth open '('s),
 * skipping values with their escapes and counting lines.
 */
static void s_skip_tree(s_parser_t *p, int depth)
{
    while (p->pos < p->len && depth > 0) {
        char c = p->t[p->pos];
        if (c == '[') {
            size_t r = p->pos + 1;
            while (r < p->len) {
                char ch = p->t[r];
                if (ch == ']')
                    break;
                if (ch == '\\' && r + 1 < p->len)
                    r++;
                if (p->t[r] == '\n') {
                    p->line++;
                    p->line_start = r + 1;
                }
                r++;
            }
            p->pos = r < p->len ? r + 1 : p->len;
            continue;
        }
        if (c == '(') {
            if (depth > 0 && s_starts_new_game(p, p->pos))
                return; /* the next game starts here */
            depth++;
        } else if (c == ')') {
            depth--;
        } else if (c == '\n') {
            p->line++;
            p->line_start = p->pos + 1;
        }
        p->pos++;
    }
}

static hs_sgf_node_t *s_new_node(s_parser_t *p, hs_sgf_node_t *parent)
{
    if (p->total_nodes >= p->lim.max_nodes) {
        s_fatal(p, HS_ELIMIT, "game %d, line %u, column %u (byte %zu): more than %zu nodes in the file",
                p->tree_index + 1, p->line, s_col(p, p->pos), p->pos, p->lim.max_nodes);
        return NULL;
    }
    hs_sgf_node_t *n = hs__sgf_alloc(p->in, sizeof *n);
    if (!n) {
        s_fatal(p, HS_ENOMEM, "out of memory storing SGF nodes");
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->offset = p->pos;
    n->line = p->line;
    n->column = s_col(p, p->pos);
    if (parent) {
        if (parent->last_child)
            parent->last_child->next_sibling = n;
        else
            parent->first_child = n;
        parent->last_child = n;
        parent->num_children++;
    }
    p->total_nodes++;
    return n;
}

/* At a '(' inside a tree: pushes cur, the node the variation hangs from.
 * False when the tree ends here (a new game starts, the nesting limit, no
 * memory): the error is recorded and the rest of the tree skipped. */
static bool s_open_variation(s_parser_t *p, int *depth, hs_sgf_node_t *cur)
{
    if (s_starts_new_game(p, p->pos)) {
        s_error_here(p, HS_EPARSE,
                     "truncated: a new game tree starts before this one's closing ')'");
        return false;
    }
    if (*depth >= p->lim.max_depth) {
        char why[96];
        snprintf(why, sizeof why, "variations nested deeper than the limit of %d",
                 p->lim.max_depth);
        s_error_here(p, HS_ELIMIT, why);
        s_skip_tree(p, *depth);
        return false;
    }
    if (*depth >= p->stack_cap) {
        int cap = p->stack_cap * 2;
        if (cap > p->lim.max_depth + 1)
            cap = p->lim.max_depth + 1;
        hs_sgf_node_t **ns = realloc(p->stack, (size_t)cap * sizeof *ns);
        if (!ns) {
            s_fatal(p, HS_ENOMEM, "out of memory reading nested variations");
            return false;
        }
        p->stack = ns;
        p->stack_cap = cap;
    }
    p->stack[(*depth)++] = cur;
    p->pos++;
    return true;
}

/* A byte that has no place in a game tree: recorded, the rest skipped. */
static void s_unexpected(s_parser_t *p, unsigned char c, int depth)
{
    char why[96];
    if (c >= 0x20 && c < 0x7f)
        snprintf(why, sizeof why, "unexpected character '%c' in the game tree", c);
    else
        snprintf(why, sizeof why, "unexpected byte 0x%02x in the game tree", c);
    s_error_here(p, HS_EPARSE, why);
    s_skip_tree(p, depth);
}

/* The tree's end, node count and status from the parser. Only fatal codes. */
static int s_tree_done(s_parser_t *p, hs_sgf_tree_t *tree, size_t nodes_before)
{
    tree->end = p->pos;
    tree->num_nodes = p->total_nodes - nodes_before;
    tree->status = p->tstatus;
    tree->message = "";
    if (p->tstatus) {
        tree->message = s_strdup(p->in, p->tmsg);
        if (!tree->message)
            return s_fatal(p, HS_ENOMEM, "out of memory");
    }
    return p->fatal;
}

/*
 * Reads one game tree starting at p->pos ('(' or, when implicit, the ';' of a
 * tree whose '(' is missing). Fills *tree. Returns only fatal codes. Each
 * break of the loop ends the tree: its end, an error that skipped the rest,
 * or a fatal one.
 */
static int s_read_tree(s_parser_t *p, hs_sgf_tree_t *tree, bool implicit)
{
    memset(tree, 0, sizeof *tree);
    tree->offset = p->pos;
    tree->line = p->line;
    tree->column = s_col(p, p->pos);
    p->tstatus = 0;
    p->tmsg[0] = '\0';
    p->npp = p->npv = 0;
    size_t nodes_before = p->total_nodes;
    if (implicit)
        s_error_here(p, HS_EPARSE, "missing '(' before the first node");
    else
        p->pos++; /* '(' */
    int depth = 1;
    p->stack[0] = NULL;
    hs_sgf_node_t *cur = NULL, *node = NULL;
    while (!p->fatal) {
        s_skip_ws(p);
        if (p->pos >= p->len) {
            s_error_here(p, HS_EPARSE, "truncated: the file ends before the game tree's closing ')'");
            break;
        }
        unsigned char c = (unsigned char)p->t[p->pos];
        if (c == ';') {
            if (node && s_flush_node(p, node))
                break;
            if (!cur && tree->root) {
                s_error_here(p, HS_EPARSE, "a variation opens before the game's first node");
                s_skip_tree(p, depth);
                break;
            }
            node = s_new_node(p, cur);
            if (!node)
                break;
            if (!tree->root)
                tree->root = node;
            cur = node;
            p->pos++;
            s_read_move_node(p, node);
            continue;
        }
        if (s_is_alpha(c)) {
            if (!node && !tree->root && depth == 1) {
                /* "(GM[1]..." : the Nihon Ki-in's records leave out the
                 * root's ';' (Sabaki reads them): the root is implied. */
                if (!(node = s_new_node(p, NULL)))
                    break;
                tree->root = cur = node;
                continue;
            }
            if (!node) {
                s_error_here(p, HS_EPARSE, "property outside a node (missing ';')");
                s_skip_tree(p, depth);
                break;
            }
            if (s_read_property(p)) {
                if (!p->fatal)
                    s_skip_tree(p, depth);
                break;
            }
            continue;
        }
        if (node && s_flush_node(p, node))
            break;
        node = NULL;
        if (c == '(') {
            if (!s_open_variation(p, &depth, cur))
                break;
            continue;
        }
        if (c == ')') {
            p->pos++;
            if (--depth == 0)
                break;
            cur = p->stack[depth];
            continue;
        }
        s_unexpected(p, c, depth);
        break;
    }
    if (node && !p->fatal)
        s_flush_node(p, node);
    return s_tree_done(p, tree, nodes_before);
}

/* True when a ';' at depth 0 looks like a node: "; ID [" (a tree missing its '('). */
static bool s_looks_like_node(const s_parser_t *p, size_t pos)
{
    size_t q = s_peek_nonws(p, pos + 1);
    size_t s = q;
    while (q < p->len && s_is_alpha((unsigned char)p->t[q]))
        q++;
    if (q == s || q - s > 32)
        return false;
    q = s_peek_nonws(p, q);
    return q < p->len && p->t[q] == '[';
}

static int s_parse_all(s_parser_t *p)
{
    while (p->pos < p->len && !p->fatal) {
        /* Between trees: skip junk up to '(' + ';' (or a bare node). */
        const char *s = p->t + p->pos;
        size_t rest = p->len - p->pos;
        const char *open = memchr(s, '(', rest);
        const char *semi = memchr(s, ';', open ? (size_t)(open - s) : rest);
        size_t at = semi ? (size_t)(semi - p->t) : open ? (size_t)(open - p->t) : p->len;
        s_count_lines(p, p->pos, at);
        p->pos = at;
        if (at >= p->len)
            break;
        bool implicit = false;
        if (p->t[at] == ';') {
            if (!s_looks_like_node(p, at)) {
                p->pos++;
                continue;
            }
            implicit = true;
        } else {
            /* "(;" starts a tree; so does "( ID[" (a root node missing its ';',
             * which the tree reader then reports precisely). */
            size_t q = s_peek_nonws(p, at + 1);
            if (q >= p->len || (p->t[q] != ';' && !s_looks_like_node(p, q - 1))) {
                p->pos++;
                continue;
            }
        }
        if (p->ntrees == p->trees_cap) {
            int cap = p->trees_cap ? p->trees_cap * 2 : 4;
            hs_sgf_tree_t *nt = realloc(p->trees, (size_t)cap * sizeof *nt);
            if (!nt)
                return s_fatal(p, HS_ENOMEM, "out of memory");
            p->trees = nt;
            p->trees_cap = cap;
        }
        p->tree_index = p->ntrees;
        int rc = s_read_tree(p, &p->trees[p->ntrees], implicit);
        p->ntrees++;
        if (rc)
            return rc;
    }
    return p->fatal;
}

/* ---- the node census ------------------------------------------------------ */

/* Offset of the first byte at or after pos that is ';' or '[', or len. */
static size_t s_next_mark(const char *t, size_t pos, size_t len)
{
    static const uint8_t mark[256] = { [';'] = 1, ['['] = 1 };
    while (pos < len && !mark[(unsigned char)t[pos]])
        pos++;
    return pos;
}

/*
 * Counts the ';' outside property values (a value runs from '[' to the first
 * ']' not escaped by '\'), stopping at the (max + 1)-th: every node the
 * grammar can make starts at one of them, so when there are more than max the
 * parse would fail on the node limit, after allocating max nodes (~130 bytes
 * each with a move). Failing here instead costs one scan and no allocation,
 * so a file of variations cannot take memory in proportion to its size before
 * the limit says no. Files of at most max bytes cannot hold more (at the
 * default limit: every file under 4 MB, so the common case costs nothing), and
 * a raw count of ';' (memchr) spares the scan for most of the others.
 */
static int s_census(const char *t, size_t len, size_t max, hs_error_t *err)
{
    if (len <= max)
        return 0;
    size_t raw = 0;
    for (const char *q = t, *e = t + len; raw <= max && (q = memchr(q, ';', (size_t)(e - q)));
         q++)
        raw++;
    if (raw <= max)
        return 0;
    size_t n = 0, pos = 0;
    for (;;) {
        pos = s_next_mark(t, pos, len);
        if (pos >= len)
            return 0;
        if (t[pos] == '[') {
            for (pos++; pos < len && t[pos] != ']'; pos++)
                if (t[pos] == '\\')
                    pos++;
            pos++;
            continue;
        }
        if (++n > max)
            break;
        pos++;
    }
    uint32_t line = 1;
    size_t line_start = 0;
    for (const char *q = t, *e = t + pos; (q = memchr(q, '\n', (size_t)(e - q))); q++) {
        line++;
        line_start = (size_t)(q - t) + 1;
    }
    return hs_error_set(err, HS_ELIMIT, "line %u, column %zu (byte %zu): more than %zu nodes "
                        "in the file", line, pos - line_start + 1, pos, max);
}

/* ---- entry: core/sgf_internal.h ------------------------------------------ */

int hs__sgf_read(hs__sgf_internal_t *in, size_t len, const hs_sgf_limits_t *lim,
                 hs_sgf_tree_t **trees, int *num_trees, hs_error_t *err)
{
    s_parser_t p;
    memset(&p, 0, sizeof p);
    p.t = in->text;
    p.len = len;
    p.line = 1;
    p.lim = *lim;
    p.in = in;
    p.stack_cap = 64 < lim->max_depth + 1 ? 64 : lim->max_depth + 1;
    p.stack = malloc((size_t)p.stack_cap * sizeof *p.stack);
    int rc = s_census(in->text, len, lim->max_nodes, err);
    if (rc == 0 && !p.stack)
        rc = hs_error_set(err, HS_ENOMEM, "out of memory parsing SGF");
    else if (rc == 0 && s_parse_all(&p))
        rc = hs_error_set(err, p.fatal, "%s", p.fmsg);
    free(p.stack);
    free(p.pp);
    free(p.pv);
    if (rc) {
        free(p.trees);
        return rc;
    }
    *trees = p.trees;
    *num_trees = p.ntrees;
    return 0;
}
