/*
 * store/query_board.c — `query --board` (store/query.h, "by board"): the games
 * that reached a board in any orientation, from the board index (one range read,
 * no scan), and the moves played next, carried back into the asked orientation,
 * merged under the asked board's own symmetries, with the players' results and
 * the stored evaluation after each.
 */
#include "store/query.h"
#include "store/query_internal.h"

#include "core/symmetry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Engine preference for eval_*: a search beats the net beats the judge. */
#define S_RANKS 4
#define S_MAX_ENGINES 64

/* Per next move, per engine rank: sums of the games' evals after it. */
typedef struct {
    double wr, lead;
    int n_wr, n_lead;
    char name[64];
} s_acc_t;

typedef struct {
    hs_store_t *s;
    hs_board_answer_t *a;
    int cap_hits, cap_next;
    int inv;                 /* canonical -> asked orientation */
    unsigned stab;           /* the asked board's stabilizer */
    s_acc_t (*acc)[S_RANKS]; /* parallel to a->next */
    uint32_t eng_id[S_MAX_ENGINES];
    int eng_rank[S_MAX_ENGINES];
    char eng_name[S_MAX_ENGINES][64];
    int num_eng;
    int best_rank;           /* of the game being read: the eval kept so far */
    float best_wr, best_lead;
    char best_name[64];
    hs_error_t *err;
} s_ctx_t;

static int s_hit(void *ctx, const uint64_t id[2], int move, int sym)
{
    s_ctx_t *c = ctx;
    hs_board_answer_t *a = c->a;
    if (a->num_hits == c->cap_hits) {
        int cap = c->cap_hits ? 2 * c->cap_hits : 16;
        hs_board_hit_t *h = realloc(a->hits, sizeof *h * (size_t)cap);
        if (!h)
            return hs_error_set(c->err, HS_ENOMEM, "out of memory");
        a->hits = h;
        c->cap_hits = cap;
    }
    hs_board_hit_t *h = &a->hits[a->num_hits++];
    h->game_id[0] = id[0];
    h->game_id[1] = id[1];
    h->move_number = move;
    h->sym = hs_sym_compose(sym, c->inv);   /* game -> canonical -> asked */
    return 0;
}

/* The rank (0 = not used) and short name of an engine, looked up once. */
static int s_engine_rank(s_ctx_t *c, uint32_t id, const char **name)
{
    for (int i = 0; i < c->num_eng; i++)
        if (c->eng_id[i] == id) {
            *name = c->eng_name[i];
            return c->eng_rank[i];
        }
    char spec[512] = "";
    hs_store_engine_spec(c->s, id, spec, sizeof spec, NULL);
    spec[strcspn(spec, ":@")] = '\0';   /* "mcts:visits=100,net=..." -> "mcts" */
    int rank = !strcmp(spec, "mcts") ? 3 : !strcmp(spec, "net") ? 2
             : !strcmp(spec, "judge") || !strcmp(spec, "judge-net") ? 1 : 0;
    if (c->num_eng == S_MAX_ENGINES) {
        *name = "";
        return 0;
    }
    int i = c->num_eng++;
    c->eng_id[i] = id;
    c->eng_rank[i] = rank;
    size_t n = strlen(spec) < sizeof c->eng_name[i] ? strlen(spec) : sizeof c->eng_name[i] - 1;
    memcpy(c->eng_name[i], spec, n);   /* a name past 63 bytes is cut */
    c->eng_name[i][n] = '\0';
    *name = c->eng_name[i];
    return rank;
}

/* Keeps the best-ranked eval of the position after the next move. */
static int s_eval(void *ctx, const hs_eval_t *e)
{
    s_ctx_t *c = ctx;
    const char *name;
    int rank = s_engine_rank(c, e->engine_id, &name);
    if (rank > c->best_rank && !e->error) {
        c->best_rank = rank;
        c->best_wr = e->win_rate;
        c->best_lead = e->score_lead;
        snprintf(c->best_name, sizeof c->best_name, "%s", name);
    }
    return 0;
}

/* The image of (x, y) under the stabilizer with the smallest y * size + x. */
static void s_representative(int size, unsigned stab, int *x, int *y)
{
    int bx = *x, by = *y;
    for (int s = 1; s < HS_SYM_COUNT; s++) {
        if (!(stab & (1u << s)))
            continue;
        int sx, sy;
        hs_sym_apply(size, s, *x, *y, &sx, &sy);
        if (sy * size + sx < by * size + bx) {
            bx = sx;
            by = sy;
        }
    }
    *x = bx;
    *y = by;
}

/* The entry of move (x, y) by color in a->next, added when new; -1 = no memory. */
static int s_next_slot(s_ctx_t *c, int x, int y, int color)
{
    hs_board_answer_t *a = c->a;
    for (int i = 0; i < a->num_next; i++)
        if (a->next[i].x == x && a->next[i].y == y && a->next[i].color == color)
            return i;
    if (a->num_next == c->cap_next) {
        int cap = c->cap_next ? 2 * c->cap_next : 8;
        hs_board_next_t *n = realloc(a->next, sizeof *n * (size_t)cap);
        if (!n)
            return -1;
        a->next = n;
        s_acc_t (*acc)[S_RANKS] = realloc(c->acc, sizeof *acc * (size_t)cap);
        if (!acc)
            return -1;
        c->acc = acc;
        c->cap_next = cap;
    }
    int i = a->num_next++;
    a->next[i] = (hs_board_next_t){ .x = x, .y = y, .color = color };
    memset(c->acc[i], 0, sizeof c->acc[i]);
    return i;
}

/* The move played after hit h, its result and the eval after it, added in. */
static int s_follow(s_ctx_t *c, const hs_board_hit_t *h)
{
    hs_game_t g;
    int rc = hs_store_game_get(c->s, h->game_id, &g, NULL, NULL, c->err);
    if (rc == HS_ENOTFOUND) {   /* an entry without its game: `check` reports it */
        hs_error_clear(c->err);
        return 0;
    }
    if (rc)
        return rc;
    if (h->move_number < g.num_moves) {
        const hs_game_move_t *m = &g.moves[h->move_number];
        int x = -1, y = -1;
        if (m->vertex != HS_GAME_PASS) {
            hs_sym_apply(g.size, h->sym, m->vertex % g.size, m->vertex / g.size, &x, &y);
            s_representative(g.size, c->stab, &x, &y);
        }
        int i = s_next_slot(c, x, y, m->color);
        if (i < 0)
            rc = hs_error_set(c->err, HS_ENOMEM, "out of memory");
        else {
            hs_board_next_t *n = &c->a->next[i];
            /* The stored record keeps RE as written (core/wire.h), not parsed. */
            hs_result_t res = g.result;
            if (g.result_raw)
                hs_result_parse(g.result_raw, &res);
            hs_winner_t w = res.winner;
            n->count++;
            n->decided += w == HS_WINNER_BLACK || w == HS_WINNER_WHITE;
            n->wins += (w == HS_WINNER_BLACK && m->color == HS_BLACK) ||
                       (w == HS_WINNER_WHITE && m->color == HS_WHITE);
            c->best_rank = 0;
            int after = h->move_number + 1;
            rc = hs_store_game_evals(c->s, h->game_id, after, after, 0, s_eval, c, c->err);
            s_acc_t *acc = &c->acc[i][c->best_rank];
            if (rc == 0 && c->best_rank > 0) {
                if (!isnan(c->best_wr)) {
                    acc->wr += c->best_wr;
                    acc->n_wr++;
                }
                if (!isnan(c->best_lead)) {
                    acc->lead += c->best_lead;
                    acc->n_lead++;
                }
                if (!acc->name[0])
                    snprintf(acc->name, sizeof acc->name, "%s", c->best_name);
            }
        }
    }
    hs_wire_game_t wg = { .game = g };
    hs_wire_game_fini(&wg);
    return rc;
}

/* eval_* from the best rank that has any eval after the move. */
static void s_finish_evals(s_ctx_t *c)
{
    for (int i = 0; i < c->a->num_next; i++) {
        hs_board_next_t *n = &c->a->next[i];
        n->eval_win_rate = n->eval_lead = NAN;
        for (int r = S_RANKS - 1; r > 0; r--) {
            const s_acc_t *acc = &c->acc[i][r];
            if (!acc->n_wr && !acc->n_lead)
                continue;
            if (acc->n_wr)
                n->eval_win_rate = (float)(acc->wr / acc->n_wr);
            if (acc->n_lead)
                n->eval_lead = (float)(acc->lead / acc->n_lead);
            snprintf(n->eval_engine, sizeof n->eval_engine, "%s", acc->name);
            break;
        }
    }
}

static int s_next_cmp(const void *pa, const void *pb)
{
    const hs_board_next_t *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    /* y * size + x order without the size: rows first, then columns. */
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return a->color - b->color;
}

int hs_query_board(hs_store_t *s, const hs_board_t *b, hs_board_answer_t *out,
                   hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->size = b->size;
    if (!hs_store_boards_complete(s))
        return hs_error_set(err, HS_EUNSUPPORTED, "the store's board index is incomplete "
                            "(written before the index): run hyeongse index --db DIR");
    s_ctx_t *c = calloc(1, sizeof *c);
    if (!c)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    c->s = s;
    c->a = out;
    c->err = err;
    int sym;
    uint64_t key = hs_board_canonical_key(b, &sym, &c->stab);
    c->inv = hs_sym_inverse(sym);
    /* One snapshot for the index and the games it names. */
    int rc = hs_store_read_hold(s, err);
    if (rc == 0)
        rc = hs_store_boards_find(s, key, s_hit, c, err);
    for (int i = 0; i < out->num_hits && rc == 0; i++)
        rc = s_follow(c, &out->hits[i]);
    hs_store_read_release(s);
    if (rc == 0) {
        s_finish_evals(c);
        if (out->num_next > 1)
            qsort(out->next, (size_t)out->num_next, sizeof *out->next, s_next_cmp);
    }
    free(c->acc);
    free(c);
    if (rc)
        hs_board_answer_fini(out);
    return rc;
}

void hs_board_answer_fini(hs_board_answer_t *a)
{
    if (!a)
        return;
    free(a->hits);
    free(a->next);
    memset(a, 0, sizeof *a);
}

/* ---- printing ---- */

static void s_name(int size, const hs_board_next_t *n, char *buf)
{
    uint16_t v = n->x < 0 ? HS_GAME_PASS : (uint16_t)(n->y * size + n->x);
    hs__query_move_name(size, v, buf);
}

static void s_hex(const uint64_t id[2], char *buf)
{
    snprintf(buf, 33, "%016llx%016llx", (unsigned long long)id[0], (unsigned long long)id[1]);
}

static void s_json_num(FILE *out, const char *name, float v, const char *fmt)
{
    fprintf(out, ",\"%s\":", name);
    if (isnan(v))
        fputs("null", out);
    else
        fprintf(out, fmt, (double)v);
}

static void s_print_json(const hs_board_answer_t *a, FILE *out)
{
    char buf[40];
    fprintf(out, "{\"size\":%d,\"games\":[", a->size);
    for (int i = 0; i < a->num_hits; i++) {
        s_hex(a->hits[i].game_id, buf);
        fprintf(out, "%s{\"game\":\"%s\",\"move\":%d}", i ? "," : "", buf,
                a->hits[i].move_number);
    }
    fputs("],\"next\":[", out);
    for (int i = 0; i < a->num_next; i++) {
        const hs_board_next_t *n = &a->next[i];
        s_name(a->size, n, buf);
        fprintf(out, "%s{\"move\":\"%s\",\"color\":\"%c\",\"count\":%d,\"decided\":%d,"
                "\"wins\":%d", i ? "," : "", buf, n->color == HS_BLACK ? 'B' : 'W',
                n->count, n->decided, n->wins);
        s_json_num(out, "win_rate", n->eval_win_rate, "%.4f");
        s_json_num(out, "lead", n->eval_lead, "%.2f");
        fputs(",\"engine\":", out);
        hs_json_string(out, n->eval_engine);
        fputc('}', out);
    }
    fputs("]}\n", out);
}

static void s_print_table(const hs_board_answer_t *a, FILE *out)
{
    char buf[40];
    fprintf(out, "%-32s  %5s\n", "game", "move");
    for (int i = 0; i < a->num_hits; i++) {
        s_hex(a->hits[i].game_id, buf);
        fprintf(out, "%-32s  %5d\n", buf, a->hits[i].move_number);
    }
    fprintf(out, "\n%-5s %5s %6s %7s %8s %8s  %s\n", "next", "color", "count", "won",
            "win_rate", "lead", "engine");
    for (int i = 0; i < a->num_next; i++) {
        const hs_board_next_t *n = &a->next[i];
        char won[24], wr[16] = "-", lead[16] = "-";
        s_name(a->size, n, buf);
        if (n->decided)
            snprintf(won, sizeof won, "%.0f%%", 100.0 * n->wins / n->decided);
        else
            snprintf(won, sizeof won, "-");
        if (!isnan(n->eval_win_rate))
            snprintf(wr, sizeof wr, "%.1f%%", 100.0 * n->eval_win_rate);
        if (!isnan(n->eval_lead))
            snprintf(lead, sizeof lead, "%+.1f", (double)n->eval_lead);
        fprintf(out, "%-5s %5c %6d %7s %8s %8s  %s\n", buf, n->color == HS_BLACK ? 'B' : 'W',
                n->count, won, wr, lead, n->eval_engine[0] ? n->eval_engine : "-");
    }
}

int hs_board_answer_print(hs_store_t *s, const hs_board_answer_t *a, bool json, FILE *out,
                          hs_error_t *err)
{
    (void)s;
    if (json)
        s_print_json(a, out);
    else
        s_print_table(a, out);
    if (ferror(out))
        return hs_error_set(err, HS_EIO, "writing the answer failed");
    return 0;
}
