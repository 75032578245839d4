/*
 * store/query_search.c — a tree search's fields in query output (see
 * store/query_internal.h): root visits, the best move, the principal
 * variation and the most visited root moves with their visits, Black's win
 * rate and lead, and prior. Stored as fixed point (docs/STORE.md): win rates
 * and priors as k / 65535 (JSON and CSV write the five decimals that name k),
 * leads in tenths (one decimal).
 */
#include "store/query_internal.h"

static double s_fix(uint16_t p)
{
    return p / 65535.0;
}

void hs__query_json_search(FILE *out, const hs_eval_t *e)
{
    char name[8];
    if (e->visits == 0 || e->pv_len < 1) {
        fputs(",\"visits\":null,\"best\":null,\"pv\":null,\"moves\":null", out);
        return;
    }
    fprintf(out, ",\"visits\":%u,\"best\":\"%s\",\"pv\":[", e->visits,
            hs__query_move_name(e->size, e->pv[0], name));
    for (int i = 0; i < e->pv_len; i++)
        fprintf(out, "%s\"%s\"", i ? "," : "", hs__query_move_name(e->size, e->pv[i], name));
    fputs("],\"moves\":[", out);
    for (int i = 0; i < e->num_moves; i++) {
        const hs_eval_search_move_t *m = &e->moves[i];
        fprintf(out, "%s{\"move\":\"%s\",\"visits\":%u,\"winrate\":", i ? "," : "",
                hs__query_move_name(e->size, m->vertex, name), m->visits);
        hs__query_fixed(out, m->win_rate);
        fprintf(out, ",\"lead\":%.1f,\"prior\":", m->lead / 10.0);
        hs__query_fixed(out, m->prior);
        fputc('}', out);
    }
    fputc(']', out);
}

void hs__query_csv_search(FILE *out, const hs_eval_t *e)
{
    char name[8];
    if (e->visits == 0 || e->pv_len < 1) {
        fputs(",,,,", out);
        return;
    }
    fprintf(out, ",%u,%s,", e->visits, hs__query_move_name(e->size, e->pv[0], name));
    for (int i = 0; i < e->pv_len; i++)
        fprintf(out, "%s%s", i ? " " : "", hs__query_move_name(e->size, e->pv[i], name));
    fputc(',', out);
    for (int i = 0; i < e->num_moves; i++) {
        const hs_eval_search_move_t *m = &e->moves[i];
        fprintf(out, "%s%s %u ", i ? ";" : "", hs__query_move_name(e->size, m->vertex, name),
                m->visits);
        hs__query_fixed(out, m->win_rate);
        fprintf(out, " %.1f ", m->lead / 10.0);
        hs__query_fixed(out, m->prior);
    }
}

void hs__query_table_search(FILE *out, const hs_eval_t *e)
{
    char name[8];
    if (e->visits == 0 || e->pv_len < 1)
        return;
    fprintf(out, "      visits %u  best %s  pv", e->visits,
            hs__query_move_name(e->size, e->pv[0], name));
    for (int i = 0; i < e->pv_len; i++)
        fprintf(out, " %s", hs__query_move_name(e->size, e->pv[i], name));
    fputc('\n', out);
    for (int i = 0; i < e->num_moves; i++) {
        const hs_eval_search_move_t *m = &e->moves[i];
        fprintf(out, "      %-4s visits %u  winB %5.1f%%  lead %+.1f  prior %.1f%%\n",
                hs__query_move_name(e->size, m->vertex, name), m->visits,
                100.0 * s_fix(m->win_rate), m->lead / 10.0, 100.0 * s_fix(m->prior));
    }
}
