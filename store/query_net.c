/*
 * store/query_net.c — the net engine's fields in query output (see
 * store/query_internal.h): the spread of the score and the top policy moves,
 * named as GTP names points. The spread is a stored float, written whole;
 * probabilities are stored as 16-bit fixed point (docs/STORE.md), written
 * with the five decimals that name the stored value.
 */
#include "store/query_internal.h"

#include <math.h>
#include <string.h>

const char *hs__query_move_name(int size, uint16_t vertex, char *buf)
{
    static const char s_cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    if (vertex == HS_GAME_PASS) {
        memcpy(buf, "pass", 5);
        return buf;
    }
    int x = vertex % size, y = vertex / size;
    if (size < 1 || size > 25 || y >= size) {
        memcpy(buf, "??", 3);
        return buf;
    }
    /* size - y is 1..25; the cast lets the compiler see it fits buf. */
    snprintf(buf, 5, "%c%u", s_cols[x], (unsigned)(unsigned char)(size - y));
    return buf;
}

static double s_prob(uint16_t p)
{
    return p / 65535.0;
}

/* The stored spread, or NAN for none (0: engines other than the net's). */
static float s_stdev(const hs_eval_t *e)
{
    return e->score_stdev > 0 ? e->score_stdev : NAN;
}

void hs__query_json_net(FILE *out, const hs_eval_t *e)
{
    char name[8];
    fputs(",\"score_stdev\":", out);
    hs__query_float(out, s_stdev(e), "null");
    fputs(",\"policy\":", out);
    if (e->num_policy > 0) {
        fputc('[', out);
        for (int i = 0; i < e->num_policy; i++) {
            fprintf(out, "%s{\"move\":\"%s\",\"prob\":", i ? "," : "",
                    hs__query_move_name(e->size, e->policy[i].vertex, name));
            hs__query_fixed(out, e->policy[i].prob);
            fputc('}', out);
        }
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    hs__query_json_search(out, e);
}

void hs__query_csv_net(FILE *out, const hs_eval_t *e)
{
    char name[8];
    fputc(',', out);
    hs__query_float(out, s_stdev(e), "");
    fputc(',', out);
    for (int i = 0; i < e->num_policy; i++) {
        fprintf(out, "%s%s ", i ? ";" : "",
                hs__query_move_name(e->size, e->policy[i].vertex, name));
        hs__query_fixed(out, e->policy[i].prob);
    }
    hs__query_csv_search(out, e);
}

void hs__query_table_net(FILE *out, const hs_eval_t *e)
{
    char name[8];
    hs__query_table_search(out, e);
    if (e->score_stdev <= 0 && e->num_policy <= 0)
        return;
    fputs("      ", out);
    if (e->score_stdev > 0)
        fprintf(out, "spread %.2f", e->score_stdev);
    if (e->num_policy > 0)
        fputs(e->score_stdev > 0 ? "  policy" : "policy", out);
    for (int i = 0; i < e->num_policy; i++)
        fprintf(out, "%s %s %.1f%%", i ? "," : "",
                hs__query_move_name(e->size, e->policy[i].vertex, name),
                100.0 * s_prob(e->policy[i].prob));
    fputc('\n', out);
}
