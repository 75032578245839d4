/*
 * reports/game_sgf.c — the annotated SGF of one game (hs_report_game_sgf,
 * reports/game_report.h).
 *
 * Built as an hs_sgf_node tree and written with core/sgf.h's writer rather
 * than printed by hand: the writer's escaping is the one our parser reads
 * back (a player name with ']' or '\'), and the tree is the same shape the
 * parser would give, so "parse it back to the same moves" holds by
 * construction. Every string, value array, property array and node lives in
 * one small bump arena freed at the end.
 *
 * What goes in: the root's game properties as the stored game has them, the
 * main line, a comment (C) at every analysed position, BM[1] on each player's
 * listed mistakes (editors show it as "bad move"), and at the position
 * end_maps describes the judge's territory as TB/TW (dead stones' points
 * included) and its dead stones as MA.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sgf.h"
#include "reports/game_report.h"
#include "reports/game_report_internal.h"

#ifndef HS_VERSION
#define HS_VERSION "0"
#endif

/* ---- the arena ---- */

typedef struct s_chunk {
    struct s_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} s_chunk_t;

typedef struct s_arena {
    s_chunk_t *head;
    bool failed;
} s_arena_t;

static void *s_alloc(s_arena_t *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 32768 ? n : 32768;
        s_chunk_t *c = malloc(sizeof *c + cap);
        if (!c) {
            a->failed = true;
            return NULL;
        }
        *c = (s_chunk_t){ .next = a->head, .used = 0, .cap = cap };
        a->head = c;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    return p;
}

static void s_arena_free(s_arena_t *a)
{
    while (a->head) {
        s_chunk_t *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

static const char *s_dup(s_arena_t *a, const char *s, size_t n)
{
    char *p = s_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* ---- the properties of one node ---- */

#define S_MAX_PROPS 24

typedef struct s_props {
    hs_sgf_prop_t p[S_MAX_PROPS];
    int n;
} s_props_t;

/* Adds property id with n values (copied into the arena). */
static void s_prop(s_arena_t *a, s_props_t *ps, const char *id, const char *const *vals,
                   const size_t *lens, int n)
{
    if (n <= 0 || ps->n >= S_MAX_PROPS)
        return;
    hs_sgf_value_t *v = s_alloc(a, (size_t)n * sizeof *v);
    if (!v)
        return;
    for (int i = 0; i < n; i++)
        v[i] = (hs_sgf_value_t){ s_dup(a, vals[i], lens[i]), lens[i] };
    hs_sgf_prop_t *p = &ps->p[ps->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->id, sizeof p->id, "%s", id);
    p->num_values = n;
    p->values = v;
}

/* A one-value text property; nothing when text is NULL. */
static void s_text(s_arena_t *a, s_props_t *ps, const char *id, const char *text)
{
    if (!text)
        return;
    size_t len = strlen(text);
    s_prop(a, ps, id, &text, &len, 1);
}

/* SGF point "dd" of a vertex, "" for a pass. */
static size_t s_point(uint16_t vertex, int size, char out[3])
{
    if (vertex == HS_GAME_PASS || vertex >= size * size) {
        out[0] = 0;
        return 0;
    }
    out[0] = (char)('a' + vertex % size);
    out[1] = (char)('a' + vertex / size);
    out[2] = 0;
    return 2;
}

/* A point-list property (AB, TB, MA, ...) of the n vertices (n may be 0). */
static void s_points(s_arena_t *a, s_props_t *ps, const char *id, const uint16_t *verts,
                     int n, int size)
{
    if (n <= 0)
        return;
    const char **vals = malloc((size_t)n * sizeof *vals);
    size_t *lens = malloc((size_t)n * sizeof *lens);
    char *pts = malloc((size_t)n * 3);
    if (!vals || !lens || !pts) {
        a->failed = true;
    } else {
        for (int i = 0; i < n; i++) {
            lens[i] = s_point(verts[i], size, pts + 3 * i);
            vals[i] = pts + 3 * i;
        }
        s_prop(a, ps, id, vals, lens, n);
    }
    free(vals);
    free(lens);
    free(pts);
}

/* ---- the annotation ---- */

const char *hs__report_vertex_name(int vertex, int size, char *buf)
{
    static const char cols[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    if (vertex == HS_GAME_PASS)
        snprintf(buf, 5, "pass");
    else if (vertex < 0 || size < 1 || size > 25 || vertex >= size * size)
        buf[0] = 0;
    else {
        int row = size - vertex / size, n = 0;   /* 1..25 */
        buf[n++] = cols[vertex % size];
        if (row >= 10)
            buf[n++] = (char)('0' + row / 10);
        buf[n++] = (char)('0' + row % 10);
        buf[n] = 0;
    }
    return buf;
}

/* "B+3.4", "W+0.5", "even" into buf. */
static const char *s_lead(float lead, char *buf, size_t size)
{
    if (fabsf(lead) < 0.05f)
        snprintf(buf, size, "even");
    else
        snprintf(buf, size, "%c+%.1f", lead > 0 ? 'B' : 'W', fabsf(lead));
    return buf;
}

/* The comment of position m: "Black win rate 62.3% (MCTS), lead B+3.4, best D4",
 * the judge's "Lead B+3.4 (judge)", and a line with the loss of the move that
 * led here when it lost something. Empty when m is not analysed. */
static void s_comment(const hs_report_game_t *g, int m, char *buf, size_t size)
{
    const hs_report_pos_t *p = &g->pos[m];
    buf[0] = 0;
    if (p->source == HS_SOURCE_NONE)
        return;
    const char *src = hs_report_source_name(p->source);
    char lead[32], best[8];
    size_t n;
    if (isfinite(p->win_rate)) {
        n = (size_t)snprintf(buf, size, "Black win rate %.1f%% (%s)", 100.0 * p->win_rate, src);
        if (isfinite(p->lead) && n < size)
            n += (size_t)snprintf(buf + n, size - n, ", lead %s",
                                  s_lead(p->lead, lead, sizeof lead));
    } else {
        n = (size_t)snprintf(buf, size, "Lead %s (%s)", s_lead(p->lead, lead, sizeof lead), src);
    }
    if (p->best >= 0 && n < size)
        n += (size_t)snprintf(buf + n, size - n, ", best %s",
                              hs__report_vertex_name(p->best, g->game.size, best));
    bool lp = isfinite(p->loss_points) && p->loss_points > 0;
    bool lw = isfinite(p->loss_win_rate) && p->loss_win_rate > 0;
    if ((lp || lw) && n < size)
        n += (size_t)snprintf(buf + n, size - n, "\nLoss:");
    if (lp && n < size)
        n += (size_t)snprintf(buf + n, size - n, " %.1f points%s", p->loss_points,
                              lw ? "," : "");
    if (lw && n < size)
        snprintf(buf + n, size - n, " %.1f%% win rate", 100.0 * p->loss_win_rate);
}

static bool s_is_mistake(const hs_report_game_t *g, int m)
{
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < g->num_mistakes[c]; i++)
            if (g->mistakes[c][i].move_number == m)
                return true;
    return false;
}

/* ---- the nodes ---- */

static void s_setup(s_arena_t *a, s_props_t *ps, const hs_game_t *g)
{
    static const struct { const char *id; uint8_t color; } kinds[] = {
        { "AB", HS_BLACK }, { "AW", HS_WHITE }, { "AE", HS_EMPTY },
    };
    uint16_t *v = malloc((size_t)(g->num_setup > 0 ? g->num_setup : 1) * sizeof *v);
    if (!v) {
        a->failed = true;
        return;
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int n = 0;
        for (int i = 0; i < g->num_setup; i++)
            if (g->setup[i].color == kinds[k].color)
                v[n++] = g->setup[i].vertex;
        s_points(a, ps, kinds[k].id, v, n, g->size);
    }
    free(v);
}

static void s_root(s_arena_t *a, s_props_t *ps, const hs_report_game_t *rg)
{
    const hs_game_t *g = &rg->game;
    char num[64];
    s_text(a, ps, "GM", "1");
    s_text(a, ps, "FF", "4");
    s_text(a, ps, "CA", "UTF-8");
    s_text(a, ps, "AP", "hyeongse:" HS_VERSION);
    snprintf(num, sizeof num, "%d", g->size);
    s_text(a, ps, "SZ", num);
    snprintf(num, sizeof num, "%g", g->komi);
    s_text(a, ps, "KM", num);
    s_text(a, ps, "RU", g->rules_raw ? g->rules_raw : g->rules.name);
    if (g->handicap >= 2) {
        snprintf(num, sizeof num, "%d", g->handicap);
        s_text(a, ps, "HA", num);
    }
    s_text(a, ps, "PB", g->black);
    s_text(a, ps, "BR", g->black_rank);
    s_text(a, ps, "PW", g->white);
    s_text(a, ps, "WR", g->white_rank);
    s_text(a, ps, "DT", g->date);
    s_text(a, ps, "EV", g->event);
    s_text(a, ps, "RO", g->round);
    s_text(a, ps, "RE", g->result_raw);
    s_text(a, ps, "GC", "Annotated by hyeongse: Black's win rate and score lead at every "
                        "analysed move, from MCTS, else the net, else the judge (named in "
                        "brackets); BM marks each player's biggest mistakes.");
    s_setup(a, ps, g);
}

/* What class letter c at a point holding `stone` means for the markup: the
 * territory it counts for (HS_BLACK, HS_WHITE or HS_EMPTY) and whether a dead
 * stone stands there. Two alphabets are in use: the judge's " .bwXOxos"
 * (worker/judge.h: b/w territory, X/O alive, x/o dead), which is what the
 * engines store, and PROTOCOL.md's (B/W territory, b/w alive, x/y dead);
 * 'b' and 'w' are told apart by the stone on the point. A dead stone's point
 * is the other side's territory, as editors mark a scored game. */
static int s_class_owner(char c, uint8_t stone, bool *dead)
{
    *dead = false;
    switch (c) {
    case 'B': return HS_BLACK;
    case 'W': return HS_WHITE;
    case 'b': return stone == HS_EMPTY ? HS_BLACK : HS_EMPTY;
    case 'w': return stone == HS_EMPTY ? HS_WHITE : HS_EMPTY;
    case 'x': *dead = true; return HS_WHITE;
    case 'o': case 'y': *dead = true; return HS_BLACK;
    default: return HS_EMPTY;
    }
}

/* TB/TW/MA from the judge's classes. */
static void s_territory(s_arena_t *a, s_props_t *ps, const hs_report_maps_t *m)
{
    int nn = m->size * m->size;
    uint16_t *v = malloc(3 * (size_t)nn * sizeof *v);
    if (!v) {
        a->failed = true;
        return;
    }
    uint16_t *tb = v, *tw = v + nn, *ma = v + 2 * nn;
    int ntb = 0, ntw = 0, nma = 0;
    for (int i = 0; i < nn; i++) {
        bool dead;
        int owner = s_class_owner(m->classes[i], m->stones[i], &dead);
        if (owner == HS_BLACK)
            tb[ntb++] = (uint16_t)i;
        else if (owner == HS_WHITE)
            tw[ntw++] = (uint16_t)i;
        if (dead)
            ma[nma++] = (uint16_t)i;
    }
    s_points(a, ps, "TB", tb, ntb, m->size);
    s_points(a, ps, "TW", tw, ntw, m->size);
    s_points(a, ps, "MA", ma, nma, m->size);
    free(v);
}

/* The properties of node m (0 = the root). */
static void s_node_props(s_arena_t *a, s_props_t *ps, const hs_report_game_t *g, int m,
                         const hs_report_maps_t *end_maps)
{
    char buf[512];
    ps->n = 0;
    if (m == 0) {
        s_root(a, ps, g);
    } else {
        const hs_game_move_t *mv = &g->game.moves[m - 1];
        char pt[3];
        const char *val = pt;
        size_t len = s_point(mv->vertex, g->game.size, pt);
        s_prop(a, ps, mv->color == HS_WHITE ? "W" : "B", &val, &len, 1);
        if (s_is_mistake(g, m))
            s_text(a, ps, "BM", "1");
    }
    s_comment(g, m, buf, sizeof buf);
    if (buf[0])
        s_text(a, ps, "C", buf);
    if (end_maps && end_maps->classes && end_maps->move_number == m
        && end_maps->size == g->game.size)
        s_territory(a, ps, end_maps);
}

int hs_report_game_sgf(const hs_report_game_t *g, const hs_report_maps_t *end_maps,
                       char **out, size_t *len, hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    s_arena_t a = { 0 };
    int num = g->game.num_moves + 1;
    hs_sgf_node_t *nodes = s_alloc(&a, (size_t)num * sizeof *nodes);
    s_props_t ps;
    for (int m = 0; nodes && m < num && !a.failed; m++) {
        hs_sgf_node_t *n = &nodes[m];
        memset(n, 0, sizeof *n);
        s_node_props(&a, &ps, g, m, end_maps);
        hs_sgf_prop_t *props = s_alloc(&a, (size_t)(ps.n ? ps.n : 1) * sizeof *props);
        if (!props)
            break;
        memcpy(props, ps.p, (size_t)ps.n * sizeof *props);
        n->props = props;
        n->num_props = ps.n;
        if (m > 0) {
            n->parent = &nodes[m - 1];
            nodes[m - 1].first_child = nodes[m - 1].last_child = n;
            nodes[m - 1].num_children = 1;
        }
    }
    int rc = 0;
    if (!nodes || a.failed)
        rc = hs_error_set(err, HS_ENOMEM, "out of memory (annotated SGF)");
    else
        rc = hs_sgf_write_tree(&nodes[0], out, len, err);
    s_arena_free(&a);
    return rc;
}
