/*
 * core/json.h — JSON string literals, the one escaper every JSON writer uses
 * (`ingest --json`, `query --json`, `judge --json`, the query layer), its
 * CSV counterpart (`query --format csv`, the report's tables), and the text of
 * the tables a person reads on a terminal (`status`, `query`).
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

/* Writes s (NULL = "") as one CSV text field (RFC 4180): as it is, or quoted
 * with its quotes doubled when it holds a comma, a quote, CR or LF. Bytes pass
 * unchanged (the CSV readers of pandas and spreadsheets take them as they
 * come), but for one: a text that starts with = + - @, a tab or CR gets a
 * leading ' , since a spreadsheet would run it as a formula (a player named
 * =HYPERLINK(...) in a downloaded SGF). Numbers are not written through here.
 * Beside the JSON escaper: the two text formats scripts read. */
void hs_csv_string(FILE *out, const char *s);

/* Writes s (NULL = "") for a person's terminal: every control character (C0,
 * DEL, and C1 as UTF-8, U+0080..U+009F) as '?', the rest as it is. Texts that
 * another party chose (a job name another client submitted, a player name
 * from a downloaded SGF) would otherwise reach the terminal as escape
 * sequences: clear the screen, or start a new line that fakes a row of the
 * table. Returns the characters written (a UTF-8 sequence counts one), for
 * padding a column. */
int hs_term_string(FILE *out, const char *s);

/* The characters hs_term_string writes for s (NULL = ""): a table column's
 * width, counted the same way. */
int hs_term_width(const char *s);

#endif
