/*
 * store/query_fmt.c — how JSON and CSV write what the query layer reads
 * (store/query_internal.h): numbers as the store holds them, and the game
 * record's komi, RE and whether the two agree.
 *
 * Why the numbers are not "%.2f": the store keeps float32 evals and the
 * report computes with them whole, so an export rounded to two decimals told
 * a researcher 1.00 for a loss the report counted as 1.004 (over one point).
 * An export must give back what is stored; the table may round for the eye.
 */
#include "store/query.h"
#include "store/query_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Significant digits that always read a float32 / a double back exactly. */
#define S_FLOAT_DIGITS 9
#define S_DOUBLE_DIGITS 17

/* Whether "%.{p-1}e" of v reads back as v; the text goes to e. */
static bool s_reads_back(double v, bool single, int p, char *e, size_t size)
{
    snprintf(e, size, "%.*e", p - 1, v);
    return single ? strtof(e, NULL) == (float)v : strtod(e, NULL) == v;
}

/* Fewest significant digits p with which v reads back, its text in e (48
 * bytes). A binary search (4 tries, not up to 9: exports run it millions of
 * times): if p digits read back, so do more, since each is nearer to v. */
static int s_digits(double v, bool single, char *e, size_t size)
{
    int lo = 1, hi = single ? S_FLOAT_DIGITS : S_DOUBLE_DIGITS;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s_reads_back(v, single, mid, e, size))
            hi = mid;
        else
            lo = mid + 1;
    }
    s_reads_back(v, single, lo, e, size);   /* e holds the text of lo digits */
    return lo;
}

const char *hs_query_number(double v, bool single, int min_decimals, char *buf)
{
    if (!isfinite(v))
        return NULL;
    if (v == 0)
        v = 0;   /* -0 is 0: a "-0.00" lead reads as a lead for White */
    /* Most leads are whole or half points (the judge, influence, area): when
     * min_decimals decimals read back, no fewer digits are needed and that
     * text is the answer, without the search below. */
    int n = snprintf(buf, HS_QUERY_NUMBER_MAX, "%.*f", min_decimals, v);
    if (n > 0 && n < HS_QUERY_NUMBER_MAX &&
        (single ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v))
        return buf;
    char e[48];
    int p = s_digits(v, single, e, sizeof e);
    /* The same digits written without an exponent: the last significant one
     * sits 10^(exponent - p + 1), so that many decimals (never fewer than
     * asked). Rounding at that place is the same rounding "%e" did. */
    int decimals = p - 1 - atoi(strchr(e, 'e') + 1);
    if (decimals < min_decimals)
        decimals = min_decimals;
    n = snprintf(buf, HS_QUERY_NUMBER_MAX, "%.*f", decimals, v);
    if (n < 0 || n >= HS_QUERY_NUMBER_MAX)   /* a double far out of any eval's range */
        snprintf(buf, HS_QUERY_NUMBER_MAX, "%s", e);
    return buf;
}

void hs__query_float(FILE *out, float v, const char *none)
{
    char buf[HS_QUERY_NUMBER_MAX];
    const char *t = hs_query_number(v, true, 2, buf);
    fputs(t ? t : none, out);
}

void hs__query_fixed(FILE *out, uint16_t k)
{
    fprintf(out, "%.5f", k / 65535.0);
}

void hs__query_table_text(FILE *out, const char *s, int width)
{
    for (int n = hs_term_string(out, s); n < width; n++)
        fputc(' ', out);
}

void hs__query_json_text(FILE *out, const char *s)
{
    if (s)
        hs_json_string(out, s);
    else
        fputs("null", out);
}

/* Whether g's RE can come from g's komi (false: W+5.5 under Fox's KM[0]). */
static bool s_komi_fits(const hs_game_t *g)
{
    hs_result_t r;
    hs_result_parse(g->result_raw, &r);
    return hs_result_fits_komi(&r, g->komi);
}

void hs__query_json_game(FILE *out, const hs_game_t *g)
{
    char buf[HS_QUERY_NUMBER_MAX];
    const char *komi = g ? hs_query_number(g->komi, false, 1, buf) : NULL;
    fprintf(out, ",\"komi\":%s,\"re\":", komi ? komi : "null");
    hs__query_json_text(out, g ? g->result_raw : NULL);
    fprintf(out, ",\"komi_fits\":%s", !g ? "null" : s_komi_fits(g) ? "true" : "false");
}

void hs__query_csv_game(FILE *out, const hs_game_t *g)
{
    char buf[HS_QUERY_NUMBER_MAX];
    const char *komi = g ? hs_query_number(g->komi, false, 1, buf) : NULL;
    fprintf(out, ",%s,", komi ? komi : "");
    hs_csv_string(out, g ? g->result_raw : NULL);
    fprintf(out, ",%s", !g ? "" : s_komi_fits(g) ? "true" : "false");
}
