/*
 * core/json.c — the JSON string escaper of core/json.h. The UTF-8 rules are
 * core/charset.c's (hs_utf8_valid_prefix), so "valid" means the same thing in
 * the SGF reader's repair and in every JSON output.
 */
#include "core/json.h"

#include <stdbool.h>
#include <string.h>

#include "core/charset.h"

/* Writes n bytes of valid UTF-8, escaping what JSON does not allow raw. */
static void s_put_valid(FILE *out, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            /* DEL is legal JSON but invisible; escape it as the controls. */
            if (c < 0x20 || c == 0x7f)
                fprintf(out, "\\u%04x", c);
            else
                fputc((int)c, out);
        }
    }
}

void hs_json_string(FILE *out, const char *s)
{
    const char *p = s ? s : "";
    size_t n = strlen(p);
    fputc('"', out);
    while (n) {
        size_t ok = hs_utf8_valid_prefix(p, n);
        s_put_valid(out, (const unsigned char *)p, ok);
        p += ok;
        n -= ok;
        if (n) {
            fputs("\\ufffd", out);  /* one invalid byte, as charset.c repairs it */
            p++;
            n--;
        }
    }
    fputc('"', out);
}

void hs_csv_string(FILE *out, const char *s)
{
    if (!s)
        s = "";
    bool formula = *s && strchr("=+-@\t\r", *s);
    if (!strpbrk(s, ",\"\r\n")) {
        if (formula)
            fputc('\'', out);
        fputs(s, out);
        return;
    }
    fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int hs_term_string(FILE *out, const char *s)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        bool c1 = p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
        if (*p < 0x20 || *p == 0x7F || c1) {
            fputc('?', out);
            n++;
            p += c1;   /* both bytes of the C1 character */
            continue;
        }
        fputc(*p, out);
        n += (*p & 0xC0) != 0x80;
    }
    return n;
}

int hs_term_width(const char *s)
{
    /* A control character is one '?', and C1's lead byte 0xC2 counts it as
     * any other character's lead byte does: characters are lead bytes. */
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}
