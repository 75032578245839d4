/*
 * bench/game_sgf.c — see game_sgf.h. Shared by the benchmarks that hand our
 * games to GNU Go (bench_judge_final, bench_judge_net, bench_value).
 */
#include "game_sgf.h"

#include <stdlib.h>

static void s_point(FILE *f, const hs_game_t *g, int vertex)
{
    fprintf(f, "[%c%c]", 'a' + vertex % g->size, 'a' + vertex / g->size);
}

int hs_bench_write_game_sgf(FILE *f, const hs_game_t *g)
{
    fprintf(f, "(;GM[1]FF[4]SZ[%d]KM[%g]HA[%d]RU[%s]", g->size, g->komi, g->handicap, g->rules.name);
    for (int pass = 0; pass < 2; pass++) {
        int want = pass ? HS_WHITE : HS_BLACK, first = 1;
        for (int i = 0; i < g->num_setup; i++) {
            if (g->setup[i].color != want)
                continue;
            if (first)
                fputs(pass ? "AW" : "AB", f);
            first = 0;
            s_point(f, g, g->setup[i].vertex);
        }
    }
    for (int i = 0; i < g->num_moves; i++) {
        const hs_game_move_t *m = &g->moves[i];
        fprintf(f, ";%c", m->color == HS_BLACK ? 'B' : 'W');
        if (m->vertex == HS_GAME_PASS)
            fputs("[]", f);
        else
            s_point(f, g, m->vertex);
    }
    fputs(")\n", f);
    return ferror(f) ? -1 : 0;
}

char *hs_bench_game_sgf(const hs_game_t *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    int rc = hs_bench_write_game_sgf(f, g);
    if (fclose(f) || rc) {
        free(text);
        return NULL;
    }
    return text;
}
