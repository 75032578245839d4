/*
 * core/json.h — JSON string literals, the one escaper every JSON writer uses
 * (`ingest --json`, `query --json`, `judge --json`, the query layer).
 *
 * File names, player names and messages may hold bytes that are not UTF-8 (a
 * tar member named in Latin-1, a store written before names were repaired);
 * JSON must be UTF-8, so one bad byte would make a whole output unparsable.
 * Hence: every invalid UTF-8 byte is written as \ufffd (U+FFFD), valid UTF-8 is
 * passed through, and quotes, backslashes and control characters are escaped.
 * Stateless; thread-safe.
 */
#ifndef HS_CORE_JSON_H
#define HS_CORE_JSON_H

#include <stdio.h>

/* Writes s (NULL = "") to out as a JSON string literal, quotes included. */
void hs_json_string(FILE *out, const char *s);

#endif
