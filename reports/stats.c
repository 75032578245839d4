/*
 * reports/stats.c — the running sums of reports/stats.h: one game at a time
 * into the archive counters, the histograms and the per-player rows.
 *
 * Memory is O(rows), never O(games): a game adds to counters and finds (or
 * creates) its rows by name through open-addressing hash tables kept in
 * st->index. Adding is all-or-nothing: every allocation a game needs (new
 * rows' names, room in the arrays and tables) is made before anything is
 * counted, so HS_ENOMEM leaves the sums as they were.
 *
 * The writers (CSV, JSON) are in stats_write.c.
 */
#include "reports/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The three kinds of row: a player, (player, year), (player, opponent). */
enum { S_PLAYER = 0, S_YEAR, S_OPPONENT, S_KINDS };

/* Open addressing with linear probing: slot = row index + 1, 0 = empty. */
typedef struct {
    int32_t *slot;
    size_t cap;                  /* a power of two, or 0 */
} s_table_t;

typedef struct {
    s_table_t table[S_KINDS];
    int cap[S_KINDS];            /* allocated rows of each array */
} s_index_t;

/* A row this game needs: found, shared with an earlier want, or new. */
typedef struct {
    int kind;
    const char *player, *key;    /* player NULL: a side without a name (no row);
                                  * key NULL for a player row */
    int row;                     /* index once resolved, -1 while new */
    char *dup_player, *dup_key;  /* a new row's names, malloc'd */
} s_want_t;

#define S_WANTS 6                /* 2 sides x 3 kinds */

void hs_report_stats_init(hs_report_stats_t *st)
{
    memset(st, 0, sizeof *st);
}

/* FNV-1a over player, a 0 byte, then key: the split key is the pair. */
static uint64_t s_hash(const char *player, const char *key)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = player; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h *= 1099511628211ULL;
    for (const char *p = key ? key : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return h;
}

static int s_count(const hs_report_stats_t *st, int kind)
{
    return kind == S_PLAYER ? st->num_players
         : kind == S_YEAR ? st->num_by_year : st->num_by_opponent;
}

static const hs_stats_split_t *s_split(const hs_report_stats_t *st, int kind, int i)
{
    return kind == S_YEAR ? &st->by_year[i] : &st->by_opponent[i];
}

static bool s_row_is(const hs_report_stats_t *st, int kind, int i, const char *player,
                     const char *key)
{
    if (kind == S_PLAYER)
        return !strcmp(st->players[i].name, player);
    const hs_stats_split_t *r = s_split(st, kind, i);
    return !strcmp(r->player, player) && !strcmp(r->key, key);
}

static uint64_t s_row_hash(const hs_report_stats_t *st, int kind, int i)
{
    if (kind == S_PLAYER)
        return s_hash(st->players[i].name, NULL);
    const hs_stats_split_t *r = s_split(st, kind, i);
    return s_hash(r->player, r->key);
}

/* The row of (player, key), or -1 with *slot the empty slot where it would go. */
static int s_find(const hs_report_stats_t *st, int kind, const char *player,
                  const char *key, size_t *slot)
{
    const s_table_t *t = &((const s_index_t *)st->index)->table[kind];
    if (!t->cap) {
        *slot = 0;
        return -1;
    }
    size_t mask = t->cap - 1, i = s_hash(player, key) & mask;
    for (; t->slot[i]; i = (i + 1) & mask)
        if (s_row_is(st, kind, t->slot[i] - 1, player, key))
            return t->slot[i] - 1;
    *slot = i;
    return -1;
}

/* Puts every row of kind into t's slots (t zeroed, large enough). */
static void s_fill(const hs_report_stats_t *st, int kind, s_table_t *t)
{
    size_t mask = t->cap - 1;
    for (int r = 0; r < s_count(st, kind); r++) {
        size_t i = s_row_hash(st, kind, r) & mask;
        while (t->slot[i])
            i = (i + 1) & mask;
        t->slot[i] = r + 1;
    }
}

/* Grows kind's table so rows more rows keep it at most half full. */
static int s_table_reserve(hs_report_stats_t *st, int kind, int rows)
{
    s_table_t *t = &((s_index_t *)st->index)->table[kind];
    size_t need = 2 * ((size_t)s_count(st, kind) + (size_t)rows), cap = t->cap ? t->cap : 16;
    if (need <= t->cap)
        return 0;
    while (cap < need)
        cap *= 2;
    s_table_t n = { calloc(cap, sizeof *n.slot), cap };
    if (!n.slot)
        return HS_ENOMEM;
    s_fill(st, kind, &n);
    free(t->slot);
    *t = n;
    return 0;
}

/* Grows kind's row array to hold rows more rows. */
static int s_array_reserve(hs_report_stats_t *st, int kind, int rows)
{
    s_index_t *ix = st->index;
    int need = s_count(st, kind) + rows;
    if (need <= ix->cap[kind])
        return 0;
    int cap = ix->cap[kind] ? ix->cap[kind] * 2 : 16;
    while (cap < need)
        cap *= 2;
    if (kind == S_PLAYER) {
        hs_stats_player_t *p = realloc(st->players, (size_t)cap * sizeof *p);
        if (!p)
            return HS_ENOMEM;
        st->players = p;
    } else {
        hs_stats_split_t **a = kind == S_YEAR ? &st->by_year : &st->by_opponent;
        hs_stats_split_t *p = realloc(*a, (size_t)cap * sizeof *p);
        if (!p)
            return HS_ENOMEM;
        *a = p;
    }
    ix->cap[kind] = cap;
    return 0;
}

/* Looks every want up; a want equal to an earlier new one shares it (a game
 * between two players of the same name). new_rows[kind] counts the new rows. */
static void s_resolve(const hs_report_stats_t *st, s_want_t *w, int n, int new_rows[S_KINDS])
{
    for (int i = 0; i < n; i++) {
        size_t slot;
        w[i].dup_player = w[i].dup_key = NULL;
        if (!w[i].player)
            continue;
        w[i].row = st->index ? s_find(st, w[i].kind, w[i].player, w[i].key, &slot) : -1;
        if (w[i].row >= 0)
            continue;
        bool shared = false;
        for (int j = 0; j < i && !shared; j++)
            shared = w[j].player && w[j].row < 0 && w[j].kind == w[i].kind
                  && !strcmp(w[j].player, w[i].player)
                  && !strcmp(w[j].key ? w[j].key : "", w[i].key ? w[i].key : "");
        if (!shared)
            new_rows[w[i].kind]++;
    }
}

static void s_free_dups(s_want_t *w, int n)
{
    for (int i = 0; i < n; i++) {
        free(w[i].dup_player);
        free(w[i].dup_key);
        w[i].dup_player = w[i].dup_key = NULL;
    }
}

/* Everything new rows need, before any change that could not be undone. */
static int s_prepare(hs_report_stats_t *st, s_want_t *w, int n, const int new_rows[S_KINDS])
{
    if (!st->index && !(st->index = calloc(1, sizeof(s_index_t))))
        return HS_ENOMEM;
    for (int k = 0; k < S_KINDS; k++)
        if (new_rows[k] && (s_array_reserve(st, k, new_rows[k])
                            || s_table_reserve(st, k, new_rows[k])))
            return HS_ENOMEM;
    for (int i = 0; i < n; i++) {
        if (!w[i].player || w[i].row >= 0)
            continue;
        w[i].dup_player = strdup(w[i].player);
        w[i].dup_key = w[i].key ? strdup(w[i].key) : NULL;
        if (!w[i].dup_player || (w[i].key && !w[i].dup_key)) {
            s_free_dups(w, n);
            return HS_ENOMEM;
        }
    }
    return 0;
}

/* Appends want i as a new row (room reserved: cannot fail) unless an earlier
 * want of this game created it; the row takes the malloc'd names. */
static void s_commit(hs_report_stats_t *st, s_want_t *w, int i)
{
    if (!w[i].player)
        return;
    size_t slot;
    int row = s_find(st, w[i].kind, w[i].player, w[i].key, &slot);
    if (row < 0) {
        row = s_count(st, w[i].kind);
        if (w[i].kind == S_PLAYER) {
            st->players[st->num_players++] = (hs_stats_player_t){ .name = w[i].dup_player };
        } else {
            hs_stats_split_t r = { .player = w[i].dup_player, .key = w[i].dup_key };
            if (w[i].kind == S_YEAR)
                st->by_year[st->num_by_year++] = r;
            else
                st->by_opponent[st->num_by_opponent++] = r;
        }
        ((s_index_t *)st->index)->table[w[i].kind].slot[slot] = row + 1;
        w[i].dup_player = w[i].dup_key = NULL;
    }
    w[i].row = row;
}

/* The year of a DT value: the first 4 digits of its first run of 4 or more
 * digits when in 1000..2999 ("2019-05-04", "04.05.2019", "20190504"), else
 * "unknown" (a malformed or missing date must not invent a year). */
static void s_year(const char *date, char out[8])
{
    strcpy(out, "unknown");
    for (const char *p = date ? date : ""; *p;) {
        size_t run = strspn(p, "0123456789");
        if (run >= 4) {
            if (p[0] == '1' || p[0] == '2')
                memcpy(out, p, 4), out[4] = '\0';
            return;
        }
        p += run ? run : 1;
    }
}

static const char *s_name(const char *name)
{
    return name && *name ? name : NULL;
}

/* The sums of one side's measured moves (color: HS_BLACK or HS_WHITE). */
typedef struct {
    int64_t moves, accurate, judge_moves;
    double loss_sum;
} s_side_t;

static s_side_t s_side(const hs_report_game_t *g, int color)
{
    s_side_t s = { 0, 0, 0, 0.0 };
    for (int m = 1; g->pos && m <= g->game.num_moves; m++) {
        float loss = g->pos[m].loss_points;
        if (g->game.moves[m - 1].color != color || !isfinite(loss))
            continue;
        s.moves++;
        s.loss_sum += loss;
        s.accurate += loss <= 1.0f;
        s.judge_moves += hs_report_loss_by_judge(g, m);
    }
    return s;
}

/* Bin of v in [lo, lo + bins * width), the outer bins holding what lies beyond. */
static int s_bin(double v, double lo, double width, int bins)
{
    double b = floor((v - lo) / width);
    return b < 0 ? 0 : b >= bins ? bins - 1 : (int)b;
}

/* Prediction by move number, the loss histogram, the final lead. A game
 * whose recorded result its komi cannot give (hs_result_fits_komi: Fox's
 * KM[0] under W+5.5) predicts nothing and has no final lead: its evaluations
 * read another komi than the one played, so a right or wrong winner says
 * nothing of them and its lead is off by the komi. Its losses stay: the
 * komi moves every position's lead about alike. */
static void s_count_positions(hs_report_stats_t *st, const hs_report_game_t *g)
{
    hs_winner_t recorded = g->game.result.winner;
    bool komi_fits = hs_result_fits_komi(&g->game.result, g->game.komi);
    bool decided = (recorded == HS_WINNER_BLACK || recorded == HS_WINNER_WHITE) && komi_fits;
    float last_lead = NAN;
    for (int m = 0; g->pos && m <= g->game.num_moves; m++) {
        const hs_report_pos_t *p = &g->pos[m];
        hs_winner_t w = hs_report_pos_winner(p);
        if (decided && (w == HS_WINNER_BLACK || w == HS_WINNER_WHITE)) {
            int b = m / HS_STATS_MOVE_BUCKET;
            b = b < HS_STATS_BUCKETS ? b : HS_STATS_BUCKETS - 1;
            st->predict_total[b]++;
            st->predict_right[b] += w == recorded;
        }
        if (m > 0 && isfinite(p->loss_points))
            st->loss_hist[s_bin(p->loss_points, 0.0, 10.0 / HS_STATS_LOSS_BINS,
                                HS_STATS_LOSS_BINS)]++;
        if (isfinite(p->lead))
            last_lead = p->lead;
    }
    if (isfinite(last_lead) && komi_fits)
        st->lead_hist[s_bin(last_lead, -50.0, 100.0 / HS_STATS_LEAD_BINS,
                            HS_STATS_LEAD_BINS)]++;
}

/* The running sums of one table row (a player's, or a player-and-key's). */
typedef struct {
    int64_t *games, *moves, *accurate, *judge_moves;
    double *loss_sum;
} s_sums_t;

static void s_add_sums(s_sums_t r, const s_side_t *s, bool new_game)
{
    *r.games += new_game;
    *r.moves += s->moves;
    *r.accurate += s->accurate;
    *r.judge_moves += s->judge_moves;
    *r.loss_sum += s->loss_sum;
}

/* Adds side i's sums to its three rows (w[3i..3i+2]); a row the other side
 * already counted (same name on both sides) counts the game once. */
static void s_count_side(hs_report_stats_t *st, const s_want_t *w, int i, const s_side_t *s)
{
    for (int k = 0; k < S_KINDS; k++) {
        const s_want_t *me = &w[3 * i + k];
        bool again = i == 1 && w[k].player && w[k].row == me->row;
        if (k == S_PLAYER) {
            hs_stats_player_t *r = &st->players[me->row];
            s_add_sums((s_sums_t){ &r->games, &r->moves, &r->accurate, &r->judge_moves,
                                   &r->loss_sum }, s, !again);
        } else {
            hs_stats_split_t *r = k == S_YEAR ? &st->by_year[me->row] : &st->by_opponent[me->row];
            s_add_sums((s_sums_t){ &r->games, &r->moves, &r->accurate, &r->judge_moves,
                                   &r->loss_sum }, s, !again);
        }
    }
}

int hs_report_stats_add(hs_report_stats_t *st, const hs_report_game_t *g, hs_error_t *err)
{
    const char *name[2] = { s_name(g->game.black), s_name(g->game.white) };
    char year[8];
    s_year(g->game.date, year);
    /* w[3i + kind] for side i; a side without a name has no rows. */
    s_want_t w[S_WANTS];
    int n = 0, new_rows[S_KINDS] = { 0 };
    for (int i = 0; i < 2; i++) {
        const char *opp = name[1 - i] ? name[1 - i] : "unknown";
        const char *keys[S_KINDS] = { NULL, year, opp };
        for (int k = 0; k < S_KINDS; k++)
            w[n++] = (s_want_t){ .kind = k, .player = name[i], .key = keys[k], .row = -1 };
    }
    s_resolve(st, w, n, new_rows);
    if (s_prepare(st, w, n, new_rows))
        return hs_error_set(err, HS_ENOMEM, "report stats: out of memory adding a game");
    for (int i = 0; i < n; i++)
        s_commit(st, w, i);
    s_free_dups(w, n);   /* the names of rows an earlier want had created */

    st->games++;
    st->analysed += g->analysed > 0;
    hs_report_final_t fin = hs_report_final(g);
    st->final_known += fin == HS_REPORT_FINAL_END;
    st->final_agree += fin == HS_REPORT_FINAL_END && g->final_agrees;
    st->final_partial += fin == HS_REPORT_FINAL_PARTIAL;
    st->final_komi_unknown += fin == HS_REPORT_FINAL_KOMI;
    s_count_positions(st, g);
    for (int i = 0; i < 2; i++) {
        if (!name[i])
            continue;
        s_side_t s = s_side(g, i == 0 ? HS_BLACK : HS_WHITE);
        s_count_side(st, w, i, &s);
    }
    return 0;
}

void hs_report_stats_add_failed(hs_report_stats_t *st, int64_t n)
{
    st->failed += n;
}

static int s_cmp_player(const void *a, const void *b)
{
    return strcmp(((const hs_stats_player_t *)a)->name, ((const hs_stats_player_t *)b)->name);
}

static int s_cmp_split(const void *a, const void *b)
{
    const hs_stats_split_t *x = a, *y = b;
    int c = strcmp(x->player, y->player);
    return c ? c : strcmp(x->key, y->key);
}

void hs_report_stats_finish(hs_report_stats_t *st)
{
    if (st->num_players)
        qsort(st->players, (size_t)st->num_players, sizeof *st->players, s_cmp_player);
    if (st->num_by_year)
        qsort(st->by_year, (size_t)st->num_by_year, sizeof *st->by_year, s_cmp_split);
    if (st->num_by_opponent)
        qsort(st->by_opponent, (size_t)st->num_by_opponent, sizeof *st->by_opponent,
              s_cmp_split);
    /* Sorting moved the rows: re-point the tables (same size, no allocation),
     * so games may still be added after finish. */
    s_index_t *ix = st->index;
    for (int k = 0; ix && k < S_KINDS; k++) {
        s_table_t *t = &ix->table[k];
        if (!t->cap)
            continue;
        memset(t->slot, 0, t->cap * sizeof *t->slot);
        s_fill(st, k, t);
    }
}

static void s_free_splits(hs_stats_split_t *r, int n)
{
    for (int i = 0; i < n; i++) {
        free(r[i].player);
        free(r[i].key);
    }
    free(r);
}

void hs_report_stats_fini(hs_report_stats_t *st)
{
    for (int i = 0; i < st->num_players; i++)
        free(st->players[i].name);
    free(st->players);
    s_free_splits(st->by_year, st->num_by_year);
    s_free_splits(st->by_opponent, st->num_by_opponent);
    s_index_t *ix = st->index;
    for (int k = 0; ix && k < S_KINDS; k++)
        free(ix->table[k].slot);
    free(ix);
    hs_report_stats_init(st);
}
