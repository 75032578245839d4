/*
 * core/charset_freq.h — the most frequent characters of Korean, simplified
 * Chinese and traditional Chinese text, for the encoding guess of
 * core/charset.c (a file without CA[] that is not UTF-8).
 *
 * Why: EUC-KR (CP949), GB2312 (GB18030) and Big5 share their double-byte
 * ranges (A1-FE lead and trail bytes), so the bytes alone cannot tell which
 * was written; what can is that, read the right way, most characters of a
 * text or a player's name are common ones of its language, and read the wrong
 * way they are arbitrary (mostly rare) characters.
 *
 * Each table is a string of 3-byte UTF-8 characters (all lie in U+3400..U+FFFF)
 * sorted by code point, which for UTF-8 is byte order, so a lookup is a binary
 * search with memcmp. Constant data; no global state; thread-safe.
 */
#ifndef HS_CORE_CHARSET_FREQ_H
#define HS_CORE_CHARSET_FREQ_H

#include <stddef.h>

typedef enum hs_freq_lang {
    HS_FREQ_KO,     /* Hangul syllables (EUC-KR / CP949 text) */
    HS_FREQ_HANS,   /* simplified Chinese (GB2312 / GB18030 text) */
    HS_FREQ_HANT,   /* traditional Chinese (Big5 text) */
} hs_freq_lang_t;

/* lang's table: 3 * *n bytes, *n characters, sorted by code point. */
const char *hs_freq_table(hs_freq_lang_t lang, size_t *n);

/* How many characters of the UTF-8 text s[0..len) are among lang's frequent
 * ones (invalid or truncated sequences count for nothing). */
size_t hs_freq_count(hs_freq_lang_t lang, const char *s, size_t len);

#endif
