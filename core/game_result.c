/*
 * core/game_result.c — what a record says of its end and its komi, as
 * written: RE read into an hs_result_t and written back, KM read into points
 * (Fox's integer codes and Chinese "zi" included: the rules are at the top of
 * core/game.c), and whether the two can belong to one game.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/game_internal.h"

/* True when s (after trailing blanks are ignored) equals word, case-insensitively. */
static bool s_is_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    if (strncasecmp(s, word, n))
        return false;
    return *hs__game_skip_space(s + n) == '\0';
}

void hs_result_parse(const char *text, hs_result_t *r)
{
    r->winner = HS_WINNER_UNKNOWN;
    r->kind = HS_RESULT_NONE;
    r->margin = 0;
    if (!text)
        return;
    const char *s = hs__game_skip_space(text);
    if (s_is_word(s, "0") || s_is_word(s, "Draw") || s_is_word(s, "Jigo") || s_is_word(s, "D")) {
        r->winner = HS_WINNER_DRAW;
        r->kind = HS_RESULT_POINTS;
        return;
    }
    if (s_is_word(s, "Void")) {
        r->winner = HS_WINNER_VOID;
        return;
    }
    char c = *s;
    if ((c != 'B' && c != 'W' && c != 'b' && c != 'w') || s[1] != '+')
        return; /* "?", "", free text: unknown */
    r->winner = (c == 'B' || c == 'b') ? HS_WINNER_BLACK : HS_WINNER_WHITE;
    s = hs__game_skip_space(s + 2);
    if (!*s)
        return;
    if (s_is_word(s, "R") || s_is_word(s, "Resign") || s_is_word(s, "Res")) {
        r->kind = HS_RESULT_RESIGN;
        return;
    }
    if (s_is_word(s, "T") || s_is_word(s, "Time")) {
        r->kind = HS_RESULT_TIME;
        return;
    }
    if (s_is_word(s, "F") || s_is_word(s, "Forfeit")) {
        r->kind = HS_RESULT_FORFEIT;
        return;
    }
    if ((*s >= '0' && *s <= '9') || *s == '.') {
        char *end;
        double m = strtod(s, &end);
        if (end != s && isfinite(m) && m >= 0 && m < 10000) {
            r->kind = HS_RESULT_POINTS;
            r->margin = m;
        }
    }
}

const char *hs_result_format(const hs_result_t *r, char *buf)
{
    switch (r->winner) {
    case HS_WINNER_DRAW:
        strcpy(buf, "0");
        return buf;
    case HS_WINNER_VOID:
        strcpy(buf, "Void");
        return buf;
    case HS_WINNER_BLACK:
    case HS_WINNER_WHITE:
        break;
    default:
        strcpy(buf, "?");
        return buf;
    }
    char w = r->winner == HS_WINNER_BLACK ? 'B' : 'W';
    switch (r->kind) {
    case HS_RESULT_POINTS:
        snprintf(buf, 16, "%c+%.6g", w, r->margin < 10000 ? r->margin : 9999.0);
        break;
    case HS_RESULT_RESIGN:
        snprintf(buf, 16, "%c+R", w);
        break;
    case HS_RESULT_TIME:
        snprintf(buf, 16, "%c+T", w);
        break;
    case HS_RESULT_FORFEIT:
        snprintf(buf, 16, "%c+F", w);
        break;
    default:
        snprintf(buf, 16, "%c+", w);
        break;
    }
    return buf;
}

/* The komi per the rules at the top of core/game.c. OGS (PC[OGS: ...]) writes
 * no KM when the komi is 0: all 12 counted OGS
 * records without KM in ../shared/data have integer results, which no default
 * komi of x.5 could give, and every one is exact with 0 (docs/JUDGE.md). */
void hs__game_read_komi(hs_game_t *g, const char *km, bool ogs)
{
    g->komi_source = HS_KOMI_DEFAULT;
    g->komi = ogs ? 0.0 : g->handicap >= 2 ? 0.5 : g->rules.default_komi;
    if (!km)
        return;
    /* A decimal comma (KM[7,5], as typed where it is the custom) is a point:
     * read as an integer it became the default komi, 6.5 for 7.5. */
    char text[64];
    const char *s = hs__game_skip_space(km), *comma = strchr(s, ',');
    if (comma && !strchr(comma + 1, ',') && strlen(s) < sizeof text && comma > s &&
        isdigit((unsigned char)comma[-1]) && isdigit((unsigned char)comma[1])) {
        memcpy(text, s, strlen(s) + 1);
        text[comma - s] = '.';
        s = text;
    }
    char *end;
    double v = strtod(s, &end);
    if (end == s || *hs__game_skip_space(end) || !isfinite(v) || fabs(v) > 100000)
        return;
    g->komi_source = HS_KOMI_PLAIN;
    if (v == floor(v) && fabs(v) >= 100) {
        v /= 100.0;
        g->komi_source = HS_KOMI_FOX_POINTS;
    }
    double frac = fabs(v - trunc(v));
    if (fabs(frac - 0.25) < 1e-9 || fabs(frac - 0.75) < 1e-9) {
        v *= 2;
        g->komi_source = HS_KOMI_FOX_ZI;
    }
    g->komi = v;
}

/* The fraction of |x| when it is a whole or a half point: 0 or 0.5; else -1. */
static double s_half_fraction(double x)
{
    double f = fabs(x) - floor(fabs(x));
    return f < 1e-6 || f > 1 - 1e-6 ? 0 : fabs(f - 0.5) < 1e-6 ? 0.5 : -1;
}

bool hs_result_fits_komi(const hs_result_t *r, double komi)
{
    if (r->kind != HS_RESULT_POINTS || r->winner == HS_WINNER_DRAW || !(r->margin > 0))
        return true;
    double fm = s_half_fraction(r->margin), fk = s_half_fraction(komi);
    return fm < 0 || fk < 0 || fm == fk;
}
