/*
 * core/json_read.c — the strict JSON reader of core/json_read.h.
 *
 * Recursive descent over the text with an explicit depth bound. Nodes live
 * in one growable array and refer to each other by index while the text is
 * read (the array moves when it grows); the pointers of the public tree are
 * filled in once, at the end. Decoded strings and number texts go into one
 * buffer of len + 1 bytes allocated up front: a string's decoding is never
 * longer than its quoted text, and a number's text plus its NUL never longer
 * than the number and the byte after it, so the buffer cannot overflow and
 * nothing is allocated from a size the text claims.
 */
#include "core/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/charset.h"
#include "core/json.h"

typedef struct s_node {
    hs_json_t v;
    int child, last, next;   /* indices; -1 = none */
} s_node_t;

struct hs_json_doc {
    s_node_t *nodes;
    long n, cap;
    char *buf;               /* decoded strings and number texts */
    size_t used;
};

typedef struct s_parser {
    const char *t;
    size_t len, pos;
    hs_json_limits_t lim;
    hs_json_doc_t *doc;
    hs_error_t *err;
} s_parser_t;

void hs_json_limits_default(hs_json_limits_t *lim)
{
    lim->max_depth = 64;
    lim->max_nodes = 1000000;
    lim->max_bytes = (size_t)16 << 20;
}

static int s_fail(s_parser_t *p, int code, const char *what)
{
    if (p->pos >= p->len)
        return hs_error_set(p->err, code, "JSON at offset %zu (end of text): %s", p->pos, what);
    unsigned char c = (unsigned char)p->t[p->pos];
    if (c >= 0x21 && c < 0x7f)
        return hs_error_set(p->err, code, "JSON at offset %zu ('%c'): %s", p->pos, c, what);
    return hs_error_set(p->err, code, "JSON at offset %zu (byte 0x%02x): %s", p->pos, c, what);
}

static void s_ws(s_parser_t *p)
{
    while (p->pos < p->len) {
        char c = p->t[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        p->pos++;
    }
}

static int s_peek(const s_parser_t *p)
{
    return p->pos < p->len ? (unsigned char)p->t[p->pos] : -1;
}

/* A new node of type t; its index, or a negative HS_E*. */
static int s_new(s_parser_t *p, hs_json_type_t t)
{
    hs_json_doc_t *d = p->doc;
    if (d->n >= p->lim.max_nodes)
        return s_fail(p, HS_ELIMIT, "too many values");
    if (d->n == d->cap) {
        long cap = d->cap ? d->cap * 2 : 32;
        s_node_t *nn = realloc(d->nodes, (size_t)cap * sizeof *nn);
        if (!nn)
            return hs_error_set(p->err, HS_ENOMEM, "out of memory reading JSON");
        d->nodes = nn;
        d->cap = cap;
    }
    s_node_t *x = &d->nodes[d->n];
    memset(x, 0, sizeof *x);
    x->v.type = t;
    x->child = x->last = x->next = -1;
    return (int)d->n++;
}

static void s_append(hs_json_doc_t *d, int parent, int child)
{
    s_node_t *pa = &d->nodes[parent];
    if (pa->last < 0)
        pa->child = child;
    else
        d->nodes[pa->last].next = child;
    pa->last = child;
    pa->v.count++;
}

static int s_literal(s_parser_t *p, const char *word, hs_json_type_t t, bool b)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->t + p->pos, word, n))
        return s_fail(p, HS_EPARSE, "expected a value");
    p->pos += n;
    int i = s_new(p, t);
    if (i >= 0)
        p->doc->nodes[i].v.boolean = b;
    return i;
}

static size_t s_digits(s_parser_t *p)
{
    size_t n = 0;
    while (p->pos < p->len && p->t[p->pos] >= '0' && p->t[p->pos] <= '9') {
        p->pos++;
        n++;
    }
    return n;
}

static int s_number(s_parser_t *p)
{
    size_t start = p->pos;
    bool is_int = true;
    if (s_peek(p) == '-')
        p->pos++;
    if (s_peek(p) == '0') {
        p->pos++;
        if (s_peek(p) >= '0' && s_peek(p) <= '9')
            return s_fail(p, HS_EPARSE, "leading zero in a number");
    } else if (!s_digits(p)) {
        return s_fail(p, HS_EPARSE, "expected a digit");
    }
    if (s_peek(p) == '.') {
        is_int = false;
        p->pos++;
        if (!s_digits(p))
            return s_fail(p, HS_EPARSE, "expected a digit after '.'");
    }
    if (s_peek(p) == 'e' || s_peek(p) == 'E') {
        is_int = false;
        p->pos++;
        if (s_peek(p) == '+' || s_peek(p) == '-')
            p->pos++;
        if (!s_digits(p))
            return s_fail(p, HS_EPARSE, "expected a digit in the exponent");
    }
    int i = s_new(p, HS_JSON_NUMBER);
    if (i < 0)
        return i;
    hs_json_doc_t *d = p->doc;
    size_t n = p->pos - start;
    char *s = d->buf + d->used;
    memcpy(s, p->t + start, n);
    s[n] = '\0';
    d->used += n + 1;
    hs_json_t *v = &d->nodes[i].v;
    v->str = s;
    v->len = n;
    v->number = strtod(s, NULL);   /* overflow gives ±HUGE_VAL: not finite, refused by getters */
    if (is_int) {
        errno = 0;
        long long x = strtoll(s, NULL, 10);
        if (errno != ERANGE) {
            v->is_int = true;
            v->integer = x;
        }
    }
    return i;
}

static int s_hex4(s_parser_t *p, unsigned *out)
{
    if (p->len - p->pos < 4)
        return s_fail(p, HS_EPARSE, "expected four hex digits after \\u");
    unsigned x = 0;
    for (int k = 0; k < 4; k++) {
        char c = p->t[p->pos];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16)
            return s_fail(p, HS_EPARSE, "expected a hex digit");
        x = x * 16 + d;
        p->pos++;
    }
    *out = x;
    return 0;
}

static size_t s_put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* \uXXXX (the backslash and 'u' already read), a surrogate pair as one. The
 * 6 escape bytes (12 for a pair) always cover the <= 4 bytes written. */
static int s_unicode(s_parser_t *p, char *o, size_t *n)
{
    unsigned cp, lo;
    int rc = s_hex4(p, &cp);
    if (rc)
        return rc;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return s_fail(p, HS_EPARSE, "lone low surrogate in \\u escape");
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (p->len - p->pos < 2 || p->t[p->pos] != '\\' || p->t[p->pos + 1] != 'u')
            return s_fail(p, HS_EPARSE, "high surrogate without its low half");
        p->pos += 2;
        if ((rc = s_hex4(p, &lo)))
            return rc;
        if (lo < 0xdc00 || lo > 0xdfff)
            return s_fail(p, HS_EPARSE, "high surrogate without its low half");
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    if (cp == 0)
        return s_fail(p, HS_EPARSE, "\\u0000 is not accepted in strings");
    *n = s_put_utf8(o, cp);
    return 0;
}

static int s_escape(s_parser_t *p, char *o, size_t *n)
{
    char c = p->t[p->pos++];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *f = c ? strchr(from, c) : NULL;
    if (f) {
        *o = to[f - from];
        *n = 1;
        return 0;
    }
    if (c == 'u')
        return s_unicode(p, o, n);
    p->pos--;
    return s_fail(p, HS_EPARSE, "unknown escape in a string");
}

/* The string at the quote; decoded into the buffer. Its text, or NULL with
 * *rc set. */
static const char *s_string_text(s_parser_t *p, size_t *out_len, int *rc)
{
    hs_json_doc_t *d = p->doc;
    char *o = d->buf + d->used, *start = o;
    p->pos++;   /* the opening quote */
    for (;;) {
        if (p->pos >= p->len) {
            *rc = s_fail(p, HS_EPARSE, "unterminated string");
            return NULL;
        }
        unsigned char c = (unsigned char)p->t[p->pos];
        if (c == '"')
            break;
        if (c < 0x20) {
            *rc = s_fail(p, HS_EPARSE, "control character in a string");
            return NULL;
        }
        if (c == '\\') {
            size_t n = 0;
            p->pos++;
            if (p->pos >= p->len) {
                *rc = s_fail(p, HS_EPARSE, "unterminated string");
                return NULL;
            }
            if ((*rc = s_escape(p, o, &n)))
                return NULL;
            o += n;
            continue;
        }
        size_t ok = hs_utf8_valid_prefix(p->t + p->pos, c < 0x80 ? 1 : (p->len - p->pos < 4 ? p->len - p->pos : 4));
        size_t want = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        if (ok < want) {
            *rc = s_fail(p, HS_EPARSE, "invalid UTF-8 in a string");
            return NULL;
        }
        memcpy(o, p->t + p->pos, want);
        o += want;
        p->pos += want;
    }
    p->pos++;   /* the closing quote */
    *o = '\0';
    *out_len = (size_t)(o - start);
    d->used += *out_len + 1;
    return start;
}

static int s_string(s_parser_t *p)
{
    int rc = 0;
    size_t n = 0;
    const char *s = s_string_text(p, &n, &rc);
    if (!s)
        return rc;
    int i = s_new(p, HS_JSON_STRING);
    if (i >= 0) {
        p->doc->nodes[i].v.str = s;
        p->doc->nodes[i].v.len = n;
    }
    return i;
}

static int s_value(s_parser_t *p, int depth);

static int s_array(s_parser_t *p, int depth)
{
    int a = s_new(p, HS_JSON_ARRAY);
    if (a < 0)
        return a;
    p->pos++;
    s_ws(p);
    if (s_peek(p) == ']') {
        p->pos++;
        return a;
    }
    for (;;) {
        int v = s_value(p, depth + 1);
        if (v < 0)
            return v;
        s_append(p->doc, a, v);
        s_ws(p);
        int c = s_peek(p);
        p->pos++;
        if (c == ']')
            return a;
        if (c != ',') {
            p->pos--;
            return s_fail(p, HS_EPARSE, "expected ',' or ']' in an array");
        }
    }
}

/* One "key": value member of an object at index o. */
static int s_member(s_parser_t *p, int o, int depth)
{
    s_ws(p);
    if (s_peek(p) != '"')
        return s_fail(p, HS_EPARSE, "expected a string key in an object");
    int rc = 0;
    size_t n = 0;
    const char *key = s_string_text(p, &n, &rc);
    if (!key)
        return rc;
    s_ws(p);
    if (s_peek(p) != ':')
        return s_fail(p, HS_EPARSE, "expected ':' after a key");
    p->pos++;
    int v = s_value(p, depth + 1);
    if (v < 0)
        return v;
    p->doc->nodes[v].v.key = key;
    s_append(p->doc, o, v);
    return 0;
}

static int s_object(s_parser_t *p, int depth)
{
    int o = s_new(p, HS_JSON_OBJECT);
    if (o < 0)
        return o;
    p->pos++;
    s_ws(p);
    if (s_peek(p) == '}') {
        p->pos++;
        return o;
    }
    for (;;) {
        int rc = s_member(p, o, depth);
        if (rc < 0)
            return rc;
        s_ws(p);
        int c = s_peek(p);
        p->pos++;
        if (c == '}')
            return o;
        if (c != ',') {
            p->pos--;
            return s_fail(p, HS_EPARSE, "expected ',' or '}' in an object");
        }
    }
}

static int s_value(s_parser_t *p, int depth)
{
    if (depth > p->lim.max_depth)
        return s_fail(p, HS_ELIMIT, "nested too deeply");
    s_ws(p);
    switch (s_peek(p)) {
    case '{': return s_object(p, depth);
    case '[': return s_array(p, depth);
    case '"': return s_string(p);
    case 't': return s_literal(p, "true", HS_JSON_BOOL, true);
    case 'f': return s_literal(p, "false", HS_JSON_BOOL, false);
    case 'n': return s_literal(p, "null", HS_JSON_NULL, false);
    case -1: return s_fail(p, HS_EPARSE, "expected a value");
    default:
        if (s_peek(p) == '-' || (s_peek(p) >= '0' && s_peek(p) <= '9'))
            return s_number(p);
        return s_fail(p, HS_EPARSE, "expected a value");
    }
}

/* Index links to pointers, now that the node array no longer moves. */
static void s_link(hs_json_doc_t *d)
{
    for (long i = 0; i < d->n; i++) {
        s_node_t *x = &d->nodes[i];
        x->v.child = x->child >= 0 ? &d->nodes[x->child].v : NULL;
        x->v.next = x->next >= 0 ? &d->nodes[x->next].v : NULL;
    }
}

int hs_json_parse(const char *text, size_t len, const hs_json_limits_t *lim,
                  hs_json_doc_t **out, hs_error_t *err)
{
    *out = NULL;
    s_parser_t p = { .t = text, .len = len, .err = err };
    if (lim)
        p.lim = *lim;
    else
        hs_json_limits_default(&p.lim);
    if (len > p.lim.max_bytes)
        return hs_error_set(err, HS_ELIMIT, "JSON text of %zu bytes is over the limit of %zu",
                            len, p.lim.max_bytes);
    hs_json_doc_t *d = calloc(1, sizeof *d);
    if (d)
        d->buf = malloc(len + 1);
    if (!d || !d->buf) {
        free(d);
        return hs_error_set(err, HS_ENOMEM, "out of memory reading JSON");
    }
    p.doc = d;
    int rc = s_value(&p, 1);
    if (rc >= 0) {
        s_ws(&p);
        rc = p.pos < p.len ? s_fail(&p, HS_EPARSE, "unexpected text after the value") : 0;
    }
    if (rc < 0) {
        hs_json_free(&d);
        return rc;
    }
    s_link(d);
    *out = d;
    return 0;
}

const hs_json_t *hs_json_root(const hs_json_doc_t *doc)
{
    return doc && doc->n ? &doc->nodes[0].v : NULL;
}

void hs_json_free(hs_json_doc_t **doc)
{
    if (!doc || !*doc)
        return;
    free((*doc)->nodes);
    free((*doc)->buf);
    free(*doc);
    *doc = NULL;
}

const char *hs_json_type_name(hs_json_type_t t)
{
    static const char *const names[] = { "null", "boolean", "number", "string", "array", "object" };
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

const hs_json_t *hs_json_get(const hs_json_t *v, const char *key)
{
    if (!v || v->type != HS_JSON_OBJECT)
        return NULL;
    const hs_json_t *found = NULL;
    for (const hs_json_t *m = v->child; m; m = m->next)
        if (!strcmp(m->key, key))
            found = m;
    return found;
}

const hs_json_t *hs_json_at(const hs_json_t *v, int i)
{
    if (!v || v->type != HS_JSON_ARRAY || i < 0 || i >= v->count)
        return NULL;
    const hs_json_t *e = v->child;
    while (i-- > 0)
        e = e->next;
    return e;
}

bool hs_json_bool(const hs_json_t *v, bool *out)
{
    if (!v || v->type != HS_JSON_BOOL)
        return false;
    *out = v->boolean;
    return true;
}

bool hs_json_int(const hs_json_t *v, int64_t lo, int64_t hi, int64_t *out)
{
    if (!v || v->type != HS_JSON_NUMBER || !v->is_int || v->integer < lo || v->integer > hi)
        return false;
    *out = v->integer;
    return true;
}

bool hs_json_double(const hs_json_t *v, double lo, double hi, double *out)
{
    if (!v || v->type != HS_JSON_NUMBER || !isfinite(v->number) || v->number < lo
        || v->number > hi)
        return false;
    *out = v->number;
    return true;
}

bool hs_json_str(const hs_json_t *v, const char **out)
{
    if (!v || v->type != HS_JSON_STRING)
        return false;
    *out = v->str;
    return true;
}

void hs_json_write(FILE *out, const hs_json_t *v)
{
    switch (v->type) {
    case HS_JSON_NULL: fputs("null", out); return;
    case HS_JSON_BOOL: fputs(v->boolean ? "true" : "false", out); return;
    case HS_JSON_NUMBER: fputs(v->str, out); return;
    case HS_JSON_STRING: hs_json_string(out, v->str); return;
    case HS_JSON_ARRAY:
    case HS_JSON_OBJECT:
        fputc(v->type == HS_JSON_ARRAY ? '[' : '{', out);
        for (const hs_json_t *e = v->child; e; e = e->next) {
            if (e != v->child)
                fputc(',', out);
            if (v->type == HS_JSON_OBJECT) {
                hs_json_string(out, e->key);
                fputc(':', out);
            }
            hs_json_write(out, e);
        }
        fputc(v->type == HS_JSON_ARRAY ? ']' : '}', out);
        return;
    }
}
