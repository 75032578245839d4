/*
 * core/json_read.h — a small, strict, bounded JSON reader: one text (a line
 * of the analysis protocol) into a read-only tree, typed getters, and a
 * writer that puts a value back out.
 *
 * Why our own: core/json.h only writes, and the analysis protocol
 * (worker/analysis.h) reads JSON lines from whatever a script sends, so the
 * reader must never crash, never allocate from a claimed size, and say
 * where a line went wrong. Strict RFC 8259: no comments, no trailing commas,
 * no NaN/Infinity, no leading zeros, no raw control characters in strings,
 * strings must be valid UTF-8 (and \u escapes must pair their surrogates);
 * only whitespace may follow the value. "\u0000" is refused (strings are
 * handed out NUL-terminated, and no protocol field needs a NUL).
 *
 * Limits: nesting depth, node count and text size (hs_json_limits_t; the
 * defaults suit a protocol line). Memory is bounded by the text: decoded
 * strings never outgrow it, and nodes grow only as the text is read.
 *
 * Numbers keep their text: a number is an "integer" when written without a
 * fraction or exponent and fits in int64 (as nlohmann::json, KataGo's reader,
 * decides is_number_integer), and the writer re-emits the text unchanged.
 * Duplicate object keys are kept; hs_json_get finds the last one (as
 * nlohmann::json keeps the last).
 *
 * Ownership: the document owns every node and string; pointers into it live
 * until hs_json_free. Threads: a document is read-only after parse and may
 * be read from several threads.
 */
#ifndef HS_CORE_JSON_READ_H
#define HS_CORE_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"

typedef enum hs_json_type {
    HS_JSON_NULL = 0,
    HS_JSON_BOOL,
    HS_JSON_NUMBER,
    HS_JSON_STRING,
    HS_JSON_ARRAY,
    HS_JSON_OBJECT,
} hs_json_type_t;

typedef struct hs_json hs_json_t;

/* One value. Fields may be read directly; the getters below check types. */
struct hs_json {
    hs_json_type_t type;
    bool boolean;           /* HS_JSON_BOOL */
    bool is_int;            /* HS_JSON_NUMBER written as an integer that fits int64 */
    int64_t integer;        /* when is_int */
    double number;          /* every number (the nearest double) */
    const char *str;        /* HS_JSON_STRING: decoded, NUL-terminated UTF-8;
                               HS_JSON_NUMBER: the number's text as written */
    size_t len;             /* bytes of str */
    const char *key;        /* the member name when this is an object member, else NULL */
    int count;              /* HS_JSON_ARRAY / OBJECT: elements or members */
    const hs_json_t *child; /* first element or member, then ->next */
    const hs_json_t *next;
};

typedef struct hs_json_doc hs_json_doc_t;

typedef struct hs_json_limits {
    int max_depth;          /* nested arrays/objects (default 64) */
    long max_nodes;         /* values in the document (default 1,000,000) */
    size_t max_bytes;       /* length of the text (default 16 MiB) */
} hs_json_limits_t;

/* The defaults above. */
void hs_json_limits_default(hs_json_limits_t *lim);

/* Parses text[0..len) (it need not be NUL-terminated and may hold NULs,
 * which are an error) into *out. lim NULL = the defaults. Returns 0; or
 * HS_EPARSE ("offset N: expected ..."), HS_ELIMIT (too deep, too many nodes,
 * too long) or HS_ENOMEM with *out NULL and the message in *err. */
int hs_json_parse(const char *text, size_t len, const hs_json_limits_t *lim,
                  hs_json_doc_t **out, hs_error_t *err);

/* The top value of a parsed document. */
const hs_json_t *hs_json_root(const hs_json_doc_t *doc);

/* Frees the document (and every pointer into it); sets *doc NULL. NULL-safe. */
void hs_json_free(hs_json_doc_t **doc);

/* The type's name ("null", "boolean", "number", "string", "array", "object"). */
const char *hs_json_type_name(hs_json_type_t t);

/* The member named key of an object (the last when repeated); NULL when v
 * is not an object or has no such member. NULL-safe on v. */
const hs_json_t *hs_json_get(const hs_json_t *v, const char *key);

/* Element i of an array (0-based); NULL when v is not an array or i is out
 * of range. Walks the list: O(i). */
const hs_json_t *hs_json_at(const hs_json_t *v, int i);

/* Typed reads: true and *out set when v (NULL-safe) is of that kind, else
 * false and *out unchanged. hs_json_int wants an integer-written number in
 * lo..hi; hs_json_double any finite number in lo..hi. */
bool hs_json_bool(const hs_json_t *v, bool *out);
bool hs_json_int(const hs_json_t *v, int64_t lo, int64_t hi, int64_t *out);
bool hs_json_double(const hs_json_t *v, double lo, double hi, double *out);
bool hs_json_str(const hs_json_t *v, const char **out);

/* Writes v as compact JSON (no spaces; object members in document order,
 * numbers as written, strings escaped by core/json.h). */
void hs_json_write(FILE *out, const hs_json_t *v);

#endif
