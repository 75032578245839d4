/*
 * core/charset.c — SGF text to UTF-8 (see core/charset.h).
 *
 * The common case is a file that is already valid UTF-8 (or plain ASCII): it is
 * validated with an 8-bytes-at-a-time ASCII fast path and nothing is copied.
 * Everything else produces one new buffer: UTF-8 with invalid bytes replaced by
 * U+FFFD, or iconv output where each byte iconv rejects becomes U+FFFD.
 *
 * Names: SGF writers spell encodings many ways (MS_KANJI, SJIS, gb2312, EUC-CN,
 * Latin1, ...). We map them to the iconv name of a SUPERSET where one exists
 * (GB18030 for GB2312/GBK, CP932 for Shift_JIS, CP949 for EUC-KR) because real
 * files declared as the narrow encoding often contain the vendor extensions;
 * for valid narrow-encoded bytes the result is the same.
 */
#include "core/charset.h"

#include "core/buf.h"
#include "core/charset_freq.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char s_repl[3] = { (char)0xEF, (char)0xBF, (char)0xBD };

/* Length of the valid UTF-8 sequence at s (n bytes available), 0 when invalid. */
static size_t s_utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        if (n < 2 || (s[1] & 0xC0) != 0x80)
            return 0;
        return 2;
    }
    if (c < 0xF0) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if (c == 0xE0 && s[1] < 0xA0)
            return 0; /* overlong */
        if (c == 0xED && s[1] >= 0xA0)
            return 0; /* surrogate */
        return 3;
    }
    if (c < 0xF5) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && s[1] < 0x90)
            return 0;
        if (c == 0xF4 && s[1] >= 0x90)
            return 0;
        return 4;
    }
    return 0;
}

size_t hs_utf8_valid_prefix(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        if (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (!(w & 0x8080808080808080ull)) {
                i += 8;
                continue;
            }
        }
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = s_utf8_seq(s + i, len - i);
        if (!k)
            return i;
        i += k;
    }
    return len;
}

/*
 * Length of a character that lost a byte to '?' the way Fox's records do
 * ("\xe9\xa3\x8e\xe6?\xbd" for two Chinese characters: a byte of the second
 * was written as '?'), or 0. Such a character is a lead byte of a 3- or 4-byte
 * sequence, then its continuation positions each holding a continuation byte
 * or '?', at least one of each: the real continuation byte is what tells it
 * from a Latin-1 letter followed by a question mark ("\xe9?" stays two
 * characters). The lost byte cannot be recovered, so the whole character
 * becomes one U+FFFD instead of two or three replacement characters around a
 * stray '?'.
 */
static size_t s_fox_char(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (!k || n < k)
        return 0;
    int lost = 0, kept = 0;
    for (size_t i = 1; i < k; i++) {
        if (s[i] == '?')
            lost++;
        else if ((s[i] & 0xC0) == 0x80)
            kept++;
        else
            return 0;
    }
    return lost && kept ? k : 0;
}

/* UTF-8 copy of data with invalid bytes replaced (a Fox character that lost a
 * byte to '?' as a whole: s_fox_char); data[0..valid) is already known to be
 * valid UTF-8 (0 when unknown). Returns how many bytes were neither part of a
 * UTF-8 character nor of a Fox one. */
static size_t s_repair_utf8_from(hs_buf_t *b, const char *data, size_t len, size_t valid,
                                 size_t *replaced)
{
    size_t i = valid, stray = 0;
    hs_buf_reserve(b, len + 16);
    hs_buf_put(b, data, valid);
    while (i < len && !b->err) {
        size_t ok = hs_utf8_valid_prefix(data + i, len - i);
        hs_buf_put(b, data + i, ok);
        i += ok;
        if (i < len) {
            size_t fox = s_fox_char((const unsigned char *)data + i, len - i);
            hs_buf_put(b, s_repl, 3);
            (*replaced)++;
            stray += !fox;
            i += fox ? fox : 1;
        }
    }
    return stray;
}

static void s_repair_utf8(hs_buf_t *b, const char *data, size_t len, size_t *replaced)
{
    s_repair_utf8_from(b, data, len, 0, replaced);
}

typedef struct s_alias {
    const char *name;
    const char *iconv;
} s_alias_t;

/* Upper-case SGF spellings -> iconv names (supersets where that is safer). */
static const s_alias_t s_aliases[] = {
    { "UTF-8", "UTF-8" },          { "UTF8", "UTF-8" },
    { "US-ASCII", "UTF-8" },       { "ASCII", "UTF-8" },
    { "GB2312", "GB18030" },       { "GBK", "GB18030" },
    { "GB18030", "GB18030" },      { "EUC-CN", "GB18030" },
    { "EUCCN", "GB18030" },        { "CP936", "GB18030" },
    { "GB_2312-80", "GB18030" },   { "BIG5", "BIG5" },
    { "BIG-5", "BIG5" },           { "CP950", "BIG5" },
    { "SHIFT_JIS", "CP932" },      { "SHIFT-JIS", "CP932" },
    { "SJIS", "CP932" },           { "MS_KANJI", "CP932" },
    { "CP932", "CP932" },          { "WINDOWS-31J", "CP932" },
    { "EUC-JP", "EUC-JP" },        { "ISO-2022-JP", "ISO-2022-JP-2" },
    { "EUC-KR", "CP949" },         { "EUCKR", "CP949" },
    { "KS_C_5601-1987", "CP949" }, { "KSC5601", "CP949" },
    { "CP949", "CP949" },          { "UHC", "CP949" },
    { "WINDOWS-1251", "CP1251" },  { "CP1251", "CP1251" },
    { "WINDOWS-1252", "CP1252" },  { "CP1252", "CP1252" },
    { "LATIN1", "ISO-8859-1" },    { "LATIN-1", "ISO-8859-1" },
    { "ISO8859-1", "ISO-8859-1" }, { "ISO_8859-1", "ISO-8859-1" },
    { "LATIN9", "ISO-8859-15" },   { "MACINTOSH", "MACINTOSH" },
    { "MACROMAN", "MACINTOSH" },   { "MAC", "MACINTOSH" },
    { "KOI8-R", "KOI8-R" },        { "UTF-16", "UTF-16" },
    { "UTF-16LE", "UTF-16LE" },    { "UTF-16BE", "UTF-16BE" },
};

const char *hs_charset_canonical(const char *name, size_t len, char *buf)
{
    size_t n = 0;
    /* trim and upper-case */
    while (len && isspace((unsigned char)*name)) {
        name++;
        len--;
    }
    while (len && isspace((unsigned char)name[len - 1]))
        len--;
    for (size_t i = 0; i < len && n < 63; i++)
        buf[n++] = (char)toupper((unsigned char)name[i]);
    buf[n] = '\0';
    for (size_t i = 0; i < sizeof s_aliases / sizeof s_aliases[0]; i++)
        if (!strcmp(buf, s_aliases[i].name))
            return s_aliases[i].iconv;
    return buf;
}

/* iconv conversion with U+FFFD for bad bytes. Returns 0, HS_ENOTFOUND, HS_ENOMEM, HS_ELIMIT. */
static int s_iconv(const char *cs, const char *data, size_t len, hs_buf_t *b, size_t *replaced)
{
    iconv_t cd = iconv_open("UTF-8", cs);
    if (cd == (iconv_t)-1)
        return HS_ENOTFOUND;
    char *in = (char *)data;
    size_t inleft = len;
    if (hs_buf_reserve(b, len + len / 2 + 16) == 0) {
        while (inleft > 0) {
            if (hs_buf_reserve(b, inleft < 64 ? 64 : inleft))
                break;
            char *outp = b->p + b->len;
            size_t outleft = b->cap - b->len - 1;
            size_t r = iconv(cd, &in, &inleft, &outp, &outleft);
            b->len = (size_t)(outp - b->p);
            if (r != (size_t)-1)
                break;
            if (errno == E2BIG)
                continue;
            /* EILSEQ or EINVAL (incomplete at the end): replace one byte, go on. */
            hs_buf_put(b, s_repl, 3);
            (*replaced)++;
            in++;
            inleft--;
            iconv(cd, NULL, NULL, NULL, NULL);
        }
        /* Flush a stateful encoding's shift state. */
        if (!b->err && hs_buf_reserve(b, 16) == 0) {
            char *outp = b->p + b->len;
            size_t outleft = b->cap - b->len - 1;
            iconv(cd, NULL, NULL, &outp, &outleft);
            b->len = (size_t)(outp - b->p);
        }
    }
    iconv_close(cd);
    return b->err;
}

/* ---- 4. No CA[] and not UTF-8: which East-Asian encoding ---- */

/* A file whose non-ASCII bytes are mostly UTF-8 characters (or Fox's that
 * lost a byte to '?') is UTF-8 with damage; below this share (in 1/1000) it
 * was written in another encoding without saying so (MultiGo's GB2312, the
 * Nihon Ki-in's Shift_JIS): 0.35 and 0.11 in two such files (a GB2312 pair
 * is sometimes a valid UTF-8 one), 0.82 at the least in the 8,348 damaged
 * Fox files of the pro and amateur archives. */
#define S_UTF8_SHARE_MIN 600

/* The share (in 1/1000) of the non-ASCII bytes of u that are part of a UTF-8
 * or Fox character, when `stray` of them are not (s_repair_utf8_from's
 * count): one pass that counts the non-ASCII bytes, run only for a file that
 * has stray bytes at all. */
static int s_utf8_share(const unsigned char *u, size_t len, size_t stray)
{
    size_t high = 0;
    for (size_t i = 0; i < len; i++)
        high += u[i] >> 7;
    return high > stray ? (int)(1000 * (high - stray) / high) : 0;
}

/* How well data reads as GB2312/GBK (what MultiGo and other Chinese programs
 * write): + for a double byte in GB2312's rows (its symbols, kana and the
 * hanzi everyone uses), - for one only GBK's extension holds (rare hanzi, the
 * reading Japanese Shift_JIS kanji get), for GB18030's four-byte forms and
 * for bytes that fit nothing. With rare_rows, also - for GB2312's rows of
 * kana, Greek, Cyrillic, pinyin and box drawing (A4-A9): rare in Chinese
 * text, and where Big5 keeps its commonest hanzi (中 A4A4, 人 A448); only
 * for the choice between the Chinese and Korean readings (s_pick_cjk), the
 * one against CP932 is kept as it was. */
static long s_score_gb(const unsigned char *u, size_t len, bool rare_rows)
{
    long score = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned b = u[i], t = i + 1 < len ? u[i + 1] : 0;
        if (b < 0x80)
            continue;
        if (b >= 0x81 && b <= 0xFE && t >= 0x40 && t <= 0xFE && t != 0x7F) {
            bool rare = rare_rows && b >= 0xA4 && b <= 0xA9;
            score += b >= 0xA1 && b <= 0xF7 && t >= 0xA1 && !rare ? 1 : -1;
            i++;
        } else {
            score -= 3;
        }
    }
    return score;
}

/* How well data reads as Shift_JIS (CP932, as Windows writes it): + for kana
 * (twice: Japanese text is full of them), for the kanji of JIS level 1 and
 * for full-width symbols; - for single-byte half-width katakana (what Chinese
 * double bytes become), for rare double bytes and for bytes that fit
 * nothing. */
static long s_score_sjis(const unsigned char *u, size_t len)
{
    long score = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned b = u[i], t = i + 1 < len ? u[i + 1] : 0;
        if (b < 0x80)
            continue;
        bool lead = (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC);
        if (!lead || t < 0x40 || t > 0xFC || t == 0x7F) {
            score -= b >= 0xA1 && b <= 0xDF ? 1 : 3;
            continue;
        }
        unsigned c = b << 8 | t;
        i++;
        if ((c >= 0x829F && c <= 0x82F1) || (c >= 0x8340 && c <= 0x8396))
            score += 2;
        else if ((c >= 0x8140 && c <= 0x81FC) || (c >= 0x889F && c <= 0x9872))
            score += 1;
        else if (!(c >= 0x989F && c <= 0xEAA4))
            score -= 1;
    }
    return score;
}

/* How well data reads as EUC-KR/CP949 (what Korean programs write): + for a
 * Hangul syllable of KS X 1001 (the 2,350 in use); 0 for its punctuation,
 * full-width forms and jamo (rows A1-A4); - for its other symbol rows (where
 * Big5's commonest hanzi fall), for hanja (few in modern Korean, and where
 * half of GB2312's hanzi land), for CP949's extra syllables (rare) and for
 * bytes that fit nothing (also its user-defined rows C9 and FE). */
static long s_score_kr(const unsigned char *u, size_t len)
{
    long score = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned b = u[i], t = i + 1 < len ? u[i + 1] : 0;
        if (b < 0x80)
            continue;
        bool ext_trail = (t >= 0x41 && t <= 0x5A) || (t >= 0x61 && t <= 0x7A) || t >= 0x81;
        if (b >= 0xA1 && b <= 0xFE && t >= 0xA1 && t <= 0xFE) {
            score += b >= 0xB0 && b <= 0xC8 ? 1 : b <= 0xA4 ? 0 : b == 0xC9 || b == 0xFE ? -3 : -1;
            i++;
        } else if (b >= 0x81 && b <= 0xC6 && ext_trail && t != 0xFF) {
            score -= 1;
            i++;
        } else {
            score -= 3;
        }
    }
    return score;
}

/* How well data reads as Big5 (Taiwan, Hong Kong): + for its frequent hanzi
 * (level 1, A440-C67E); 0 for its symbols and its less frequent hanzi (level
 * 2: a player's name often holds one); - for its reserved and user-defined
 * codes (glibc reads them as private-use characters) and for bytes that fit
 * nothing. */
static long s_score_big5(const unsigned char *u, size_t len)
{
    long score = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned b = u[i], t = i + 1 < len ? u[i + 1] : 0;
        if (b < 0x80)
            continue;
        if (b < 0xA1 || b > 0xF9 || !((t >= 0x40 && t <= 0x7E) || (t >= 0xA1 && t <= 0xFE))) {
            score -= 3;
            continue;
        }
        unsigned c = b << 8 | t;
        i++;
        if (c >= 0xA440 && c <= 0xC67E)
            score += 1;
        else if (!(c <= 0xA3BF || (c >= 0xC940 && c <= 0xF9D5)))
            score -= 1;
    }
    return score;
}

static long s_score_gb_cjk(const unsigned char *u, size_t len)
{
    return s_score_gb(u, len, true);
}

/* The readings whose double bytes share the A1-FE ranges; GB18030 first
 * (it keeps ties). */
typedef struct s_reading {
    const char *iconv, *used;
    hs_freq_lang_t lang;
    long (*plausible)(const unsigned char *u, size_t len);
} s_reading_t;

static const s_reading_t s_cjk[] = {
    { "GB18030", "GB18030 (no CA[]: guessed)", HS_FREQ_HANS, s_score_gb_cjk },
    { "CP949", "CP949 (no CA[]: guessed)", HS_FREQ_KO, s_score_kr },
    { "BIG5", "BIG5 (no CA[]: guessed)", HS_FREQ_HANT, s_score_big5 },
};

/* What a frequent character of the reading's language adds, on top of its
 * double byte's plausibility (1 at most): the frequent characters are what
 * tell the readings apart, the byte ranges mostly cannot. */
#define S_FREQ_WEIGHT 3
/* How far a Korean or Big5 reading must score above GB18030's to replace it
 * (less than one frequent character): GB18030 is what such files were read
 * as before, and by far the most common; a short name that fits both stays
 * Chinese. */
#define S_GB_MARGIN 2

/*
 * Decodes data as each reading of s_cjk whose bytes are plausible (score >
 * 0; GB18030 when gb_ok, the test s_guess always made) and keeps the best:
 * plausibility + S_FREQ_WEIGHT per frequent character of its language
 * (core/charset_freq.h) in the decoded text. A Korean name read as GB2312 is
 * arbitrary hanzi, a Chinese one read as EUC-KR arbitrary syllables and
 * hanja: the frequent ones are what the right reading has. The winner's
 * conversion is the output; false (b untouched) when no reading qualifies.
 */
static bool s_pick_cjk(const char *data, size_t len, bool gb_ok, hs_buf_t *b,
                       const char **used, size_t *replaced)
{
    hs_buf_t best = { 0 };
    size_t best_rep = 0;
    long best_score = 0;
    int best_k = -1;
    for (int k = 0; k < (int)(sizeof s_cjk / sizeof s_cjk[0]); k++) {
        long s = s_cjk[k].plausible((const unsigned char *)data, len);
        if (k == 0 ? !gb_ok : s <= 0)
            continue;
        hs_buf_t t = { .max = b->max };
        size_t rep = 0;
        int rc = s_iconv(s_cjk[k].iconv, data, len, &t, &rep);
        if (rc == HS_ENOTFOUND) {   /* not with glibc */
            free(t.p);
            continue;
        }
        s += S_FREQ_WEIGHT * (long)hs_freq_count(s_cjk[k].lang, t.p, t.len);
        /* Out of memory or past the size bound: that error is the answer (a
         * cut-off text would score low and let another reading win). */
        if (rc || best_k < 0 || s > best_score + (best_k == 0 ? S_GB_MARGIN : 0)) {
            free(best.p);
            best = t;
            best_rep = rep;
            best_score = s;
            best_k = k;
        } else {
            free(t.p);
        }
        if (rc)
            break;
    }
    if (best_k < 0)
        return false;
    *b = best;   /* out of memory or past the size bound: its error, for s_finish */
    *replaced = best_rep;
    *used = s_cjk[best_k].used;
    return true;
}

/*
 * Decodes data by the encoding it reads best in into *b (*used: its name) and
 * returns true (b's error set when memory or the size bound ran out); false
 * (b untouched) when it reads well in none. First Japanese (CP932) against
 * Chinese (GB2312/GBK), on the bytes (s_score_sjis, s_score_gb), as it always
 * was: CP932 when it scores higher and above 0. Otherwise GB18030 (when it
 * scores above 0), CP949 (EUC-KR's superset) and Big5, whose double bytes
 * overlap, are told apart by their characters' frequencies (s_pick_cjk).
 */
static bool s_guess(const char *data, size_t len, hs_buf_t *b, const char **used,
                    size_t *replaced)
{
    const unsigned char *u = (const unsigned char *)data;
    long gb = s_score_gb(u, len, false), sj = s_score_sjis(u, len);
    if (!(sj > gb && sj > 0))
        return s_pick_cjk(data, len, gb > 0, b, used, replaced);
    hs_buf_t t = { .max = b->max };
    size_t rep = 0;
    if (s_iconv("CP932", data, len, &t, &rep) == HS_ENOTFOUND) {   /* not with glibc */
        free(t.p);
        return false;
    }
    *b = t;   /* out of memory or past the size bound: its error, for s_finish */
    *replaced = rep;
    *used = "CP932 (no CA[]: guessed)";
    return true;
}

/*
 * The first CA[...] value in the raw bytes, or NULL. Only the first 16 KiB are
 * searched: CA belongs in a root node, which comes first; scanning whole files
 * cost ~5 % of the parse time on the Fox archive (no CA at all). A candidate
 * counts only outside property values (a comment or a name may well contain
 * "CA["); the value state is tracked incrementally up to each candidate, so the
 * scan stays linear.
 */
#define S_CA_WINDOW 16384
static const char *s_find_ca(const char *data, size_t len, size_t *vlen)
{
    const char *s = data, *end = data + (len < S_CA_WINDOW ? len : S_CA_WINDOW);
    const char *data_end = data + len;
    const char *lex = data;   /* value state known up to here */
    bool in_value = false;
    /* memchr for the 'A' (rare in SGF text), then look back for the 'C':
     * glibc's memmem with a two-byte needle cost ~8 instructions a byte. */
    if (s < end)
        s++;
    while (s < end) {
        const char *a = memchr(s, 'A', (size_t)(end - s));
        if (!a)
            return NULL;
        s = a + 1;
        if (a[-1] != 'C')
            continue;
        const char *hit = a - 1;
        if (hit > data && isalpha((unsigned char)hit[-1]))
            continue;
        for (; lex < hit; lex++) {
            if (!in_value)
                in_value = *lex == '[';
            else if (*lex == '\\')
                lex++;   /* the escaped byte cannot close the value */
            else if (*lex == ']')
                in_value = false;
        }
        if (in_value || lex > hit)
            continue;
        const char *q = s;
        while (q < data_end && isspace((unsigned char)*q))
            q++;
        if (q >= data_end || *q != '[')
            continue;
        q++;
        const char *close = memchr(q, ']', (size_t)(data_end - q < 64 ? data_end - q : 64));
        if (!close || close - q > 63)
            continue;
        *vlen = (size_t)(close - q);
        return q;
    }
    return NULL;
}

/*
 * iconv's own UTF-8 decoder (reached through CA names such as "UTF8" or a
 * mangled "UTF\r8") lets some invalid sequences through, e.g. lead bytes
 * 0xF5..0xF7; everything downstream expects valid UTF-8 (and a re-read of our
 * own output would repair them, so the tree would not round-trip). Repairs the
 * converted text in place of b when it is not valid.
 */
static void s_ensure_utf8(hs_buf_t *b, size_t *replaced)
{
    if (b->err || !b->p)
        return;
    size_t ok = hs_utf8_valid_prefix(b->p, b->len);
    if (ok == b->len)
        return;
    hs_buf_t fixed = { .max = b->max };
    s_repair_utf8_from(&fixed, b->p, b->len, ok, replaced);
    free(b->p);
    *b = fixed;
}

static int s_finish(hs_buf_t *b, char **out, size_t *out_len, hs_error_t *err)
{
    size_t max = b->max;
    int rc = hs_buf_take(b, out, out_len);
    if (rc == HS_ELIMIT)
        return hs_error_set(err, HS_ELIMIT, "the text converted to UTF-8 exceeds %zu bytes", max);
    if (rc)
        return hs_error_set(err, HS_ENOMEM, "out of memory converting text to UTF-8");
    return 0;
}

int hs_charset_convert(const char *charset, const char *data, size_t len, char **out,
                       size_t *out_len, size_t *replaced, hs_error_t *err)
{
    size_t dummy = 0;
    if (!replaced)
        replaced = &dummy;
    *replaced = 0;
    char buf[64];
    const char *cs = hs_charset_canonical(charset, strlen(charset), buf);
    hs_buf_t b = { 0 };
    if (!strcmp(cs, "UTF-8")) {
        s_repair_utf8(&b, data, len, replaced);
    } else {
        int rc = s_iconv(cs, data, len, &b, replaced);
        if (rc == HS_ENOTFOUND) {
            free(b.p);
            *out = NULL;
            *out_len = 0;
            return hs_error_set(err, HS_ENOTFOUND, "unknown character set '%s'", charset);
        }
    }
    return s_finish(&b, out, out_len, err);
}

int hs_charset_sgf_to_utf8(const char *data, size_t len, size_t max_out, char **out,
                           size_t *out_len, const char **used, size_t *replaced,
                           hs_error_t *err)
{
    size_t dummy = 0;
    const char *dummy_used;
    if (!replaced)
        replaced = &dummy;
    if (!used)
        used = &dummy_used;
    *replaced = 0;
    *out = NULL;
    *out_len = 0;
    *used = "UTF-8";
    const unsigned char *u = (const unsigned char *)data;
    hs_buf_t b = { .max = max_out };
    /* 1. Byte-order marks and BOM-less UTF-16. */
    if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
        s_repair_utf8(&b, data + 3, len - 3, replaced);
        return s_finish(&b, out, out_len, err);
    }
    const char *utf16 = NULL;
    size_t skip = 0;
    if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE) {
        utf16 = "UTF-16LE";
        skip = 2;
    } else if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF) {
        utf16 = "UTF-16BE";
        skip = 2;
    } else if (len >= 4 && u[0] && !u[1] && u[2] && !u[3]) {
        utf16 = "UTF-16LE";
    } else if (len >= 4 && !u[0] && u[1] && !u[2] && u[3]) {
        utf16 = "UTF-16BE";
    }
    if (utf16) {
        *used = utf16;
        int rc = s_iconv(utf16, data + skip, len - skip, &b, replaced);
        if (rc == HS_ENOTFOUND) /* cannot happen with glibc; stay safe */
            s_repair_utf8(&b, data, len, replaced);
        s_ensure_utf8(&b, replaced);
        return s_finish(&b, out, out_len, err);
    }
    /* 2. The first CA[]. */
    size_t vlen = 0;
    const char *ca = s_find_ca(data, len, &vlen);
    if (ca) {
        char buf[64];
        const char *cs = hs_charset_canonical(ca, vlen, buf);
        if (strcmp(cs, "UTF-8")) {
            static const char *const s_static[] = {
                "GB18030", "BIG5", "CP932", "EUC-JP", "ISO-2022-JP-2", "CP949", "CP1251",
                "CP1252", "ISO-8859-1", "ISO-8859-15", "MACINTOSH", "KOI8-R", "UTF-16",
                "UTF-16LE", "UTF-16BE",
            };
            int rc = s_iconv(cs, data, len, &b, replaced);
            if (rc != HS_ENOTFOUND) {
                /* *used must be static: keep known names, else say "declared". */
                *used = "(CA-declared)";
                for (size_t i = 0; i < sizeof s_static / sizeof s_static[0]; i++)
                    if (!strcmp(cs, s_static[i]))
                        *used = s_static[i];
                s_ensure_utf8(&b, replaced);
                return s_finish(&b, out, out_len, err);
            }
            /* Unknown to iconv: fall back to UTF-8 with repair. */
            free(b.p);
            b = (hs_buf_t){ .max = max_out };
        }
    }
    /* 3. UTF-8, unless the text is not UTF-8 at all: then 4. a guess. */
    size_t ok = hs_utf8_valid_prefix(data, len);
    if (ok == len)
        return 0;
    size_t stray = s_repair_utf8_from(&b, data, len, ok, replaced);
    if (stray > 0 && s_utf8_share(u, len, stray) < S_UTF8_SHARE_MIN) {
        hs_buf_t g = { .max = max_out };
        size_t g_replaced = 0;
        if (s_guess(data, len, &g, used, &g_replaced)) {
            free(b.p);
            b = g;
            *replaced = g_replaced;
            s_ensure_utf8(&b, replaced);
        }
    }
    return s_finish(&b, out, out_len, err);
}
