/*
 * core/charset.h — SGF text to UTF-8.
 *
 * SGF files come in many encodings; everything inside hyeongse is UTF-8. The
 * conversion is done on the WHOLE file before the SGF reader sees it (see
 * core/sgf.h for why: ']' and '\' bytes occur inside Shift_JIS/Big5/GBK
 * characters, UTF-16 has no ASCII structure, ISO-2022-JP shifts states).
 *
 * Which encoding, in order:
 *   1. a byte-order mark: UTF-8 (EF BB BF, removed), UTF-16LE (FF FE), UTF-16BE
 *      (FE FF); also BOM-less UTF-16 recognised by NUL bytes in the first
 *      characters ("(\0;\0" or "\0(\0;");
 *   2. the first CA[...] value in the first 16 KiB (CA belongs in a root node);
 *      names are matched case-insensitively with aliases (MS_KANJI, SJIS,
 *      Shift-JIS -> SHIFT_JIS; GB2312 is read as GB18030, a superset that iconv
 *      decodes the same way for valid GB2312; "Latin1", "ISO-8859-1" -> ...);
 *   3. otherwise UTF-8, unless most of the non-ASCII bytes are not UTF-8
 *      characters (nor Fox's damaged ones, below): then
 *   4. a guess from the bytes: CP932 (Shift_JIS) against GB18030 on which
 *      byte pairs occur; when not Japanese, GB18030, CP949 (EUC-KR's
 *      superset) and BIG5, whose double bytes share the same ranges, on how
 *      many of the decoded characters are frequent ones of Chinese or Korean
 *      (core/charset_freq.h; GB18030 keeps ties and near-ties). Named
 *      "GB18030 (no CA[]: guessed)", "CP932 (no CA[]: guessed)", "CP949 (no
 *      CA[]: guessed)" or "BIG5 (no CA[]: guessed)" in *used; when none reads
 *      well, UTF-8 with repair as in 3. Two Korean names alone are usually
 *      enough (they are mostly frequent syllables); a record of a few rare
 *      characters (a nickname) can still be read in the wrong encoding, and
 *      a very short one may pass for UTF-8 in 3.: that is what CA[] is for.
 * UTF-8 (declared or assumed) is validated and every invalid byte replaced by
 * U+FFFD, except Fox's broken characters: Fox writes UTF-8 without CA[] and
 * some characters of its player names lost one byte to '?' ("\xe6?\xbd"); a
 * 3- or 4-byte sequence whose continuation positions hold continuation bytes
 * and '?' (at least one of each) becomes ONE U+FFFD (the lost byte cannot be
 * recovered; a Latin-1 letter before a '?' has no continuation byte after it
 * and is left alone); other encodings go through iconv(3), where each unconvertible byte
 * becomes U+FFFD and conversion goes on. An unknown CA name falls back to UTF-8
 * with repair (recorded as "UTF-8" in *used). No input bytes can make it fail
 * other than by running out of memory.
 *
 * Thread-safe (each call opens its own iconv descriptor); no global state.
 */
#ifndef HS_CORE_CHARSET_H
#define HS_CORE_CHARSET_H

#include <stddef.h>

#include "core/error.h"

/*
 * Converts an SGF file's bytes to UTF-8.
 * [out] out, out_len: when the input is already valid UTF-8 without a BOM, *out is
 *   set to NULL (nothing to do: use the input as it is). Otherwise *out is a
 *   malloc'd NUL-terminated UTF-8 buffer of *out_len bytes; caller owns it and
 *   frees it with free().
 * [out] used: (may be NULL) a static string naming the encoding read ("UTF-8",
 *   "UTF-16LE", "GB18030", "CP932", "CP949 (no CA[]: guessed)", ...).
 * [out] replaced: (may be NULL) number of invalid sequences replaced by U+FFFD.
 * Returns 0, HS_ENOMEM, or HS_ELIMIT when the converted text would exceed
 * max_out bytes (0 = no bound).
 */
int hs_charset_sgf_to_utf8(const char *data, size_t len, size_t max_out, char **out,
                           size_t *out_len, const char **used, size_t *replaced,
                           hs_error_t *err);

/*
 * Converts len bytes in the named encoding to UTF-8 (same name rules and U+FFFD
 * replacement as above; "UTF-8" validates/repairs). *out is always a malloc'd
 * NUL-terminated buffer (caller frees). Returns 0, HS_ENOMEM, or HS_ENOTFOUND for
 * an encoding iconv does not know (nothing allocated then).
 */
int hs_charset_convert(const char *charset, const char *data, size_t len, char **out,
                       size_t *out_len, size_t *replaced, hs_error_t *err);

/* Length of the longest prefix of data[0..len) that is valid UTF-8 (len if all). */
size_t hs_utf8_valid_prefix(const char *data, size_t len);

/*
 * Canonical iconv name for an SGF CA value (case-insensitive, aliases resolved),
 * e.g. "ms_kanji" -> "SHIFT_JIS", "gb2312" -> "GB18030", "utf8" -> "UTF-8".
 * Unknown names are returned as written, upper-cased, into buf (size >= 64).
 * Returns a static string or buf.
 */
const char *hs_charset_canonical(const char *name, size_t len, char *buf);

#endif
