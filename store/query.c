/*
 * store/query.c — the query layer of store/query.h: game selection, per-move rows,
 * swing filter, table / JSON lines / CSV output, queries by position. The
 * whole-store listings (stats, failed, players) are store/query_lists.c; how
 * numbers and the record's fields are written, store/query_fmt.c. The fields
 * of each row type are docs/QUERY.md's "Rows": keep the two in step.
 */
#include "store/query.h"
#include "store/query_internal.h"

#include "core/board.h"
#include "core/clock.h"
#include "core/replay.h"
#include "core/rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hs_query_format_parse(const char *name, hs_query_format_t *out)
{
    if (!strcmp(name, "table")) *out = HS_QUERY_TABLE;
    else if (!strcmp(name, "jsonl") || !strcmp(name, "json")) *out = HS_QUERY_JSONL;
    else if (!strcmp(name, "csv")) *out = HS_QUERY_CSV;
    else return HS_EINVAL;
    return 0;
}

void hs_query_init(hs_query_t *q)
{
    memset(q, 0, sizeof *q);
    q->move = -1;
}

/* State of one query run, shared by the per-game and per-eval callbacks. */
typedef struct {
    hs_store_t *s;
    const hs_query_t *q;
    FILE *out;
    hs_error_t *err;
    int64_t rows;
    uint64_t id[2];
    char idhex[33];
    hs_game_t game;
    char *source;
    /* previous score per engine for the swing (engines are few) */
    uint32_t prev_engine[16];
    float prev_score[16];
    int num_prev;
    char spec_cache_id_valid;
    uint32_t spec_id;
    char spec[256];
    bool timed_out;
    int64_t corrupt;        /* games cut short by a corrupt record (HS_ECORRUPT) */
    hs_error_t first_corrupt;
} s_run_t;

static const char *s_engine_name(s_run_t *r, uint32_t id)
{
    if (!r->spec_cache_id_valid || r->spec_id != id) {
        if (hs_store_engine_spec(r->s, id, r->spec, sizeof r->spec, NULL) != 0)
            snprintf(r->spec, sizeof r->spec, "%08x", id);
        r->spec_id = id;
        r->spec_cache_id_valid = 1;
    }
    return r->spec;
}

/* A score or swing in a table: right-aligned under its header whatever its sign
 * and size (a -228.00 lead would otherwise push the rest of its row aside). */
#define S_TABLE_NUM_WIDTH 8

static void s_table_num(FILE *out, float v)
{
    if (isnan(v))
        fprintf(out, "%*s", S_TABLE_NUM_WIDTH, "-");
    else   /* what rounds to zero is 0.00: "-0.00" would read as a lead for White */
        fprintf(out, "%*.2f", S_TABLE_NUM_WIDTH, fabsf(v) < 0.005f ? 0.0f : v);
}

/* An eval's lead and win rate in JSON, the same for game and position rows:
 * ",\"score_lead\":L,\"win_rate\":W" (null where the engine gives none). */
static void s_json_eval_start(FILE *out, const hs_eval_t *e)
{
    fputs(",\"score_lead\":", out);
    hs__query_float(out, e->score_lead, "null");
    fputs(",\"win_rate\":", out);
    hs__query_float(out, e->win_rate, "null");
}

/* The end of an eval's JSON line, the same for game and position rows: its
 * error, timing, the net's and the search's fields (null where none) and,
 * with ownership, the ownership map (null where the eval keeps none), then
 * "}\n". */
static void s_json_eval_end(FILE *out, const hs_eval_t *e, bool ownership)
{
    fputs(",\"error\":", out);
    hs__query_json_text(out, e->error);
    fprintf(out, ",\"timing_us\":%u", e->timing_us);
    hs__query_json_net(out, e);
    if (ownership && e->ownership) {
        fputs(",\"ownership\":[", out);
        for (int i = 0; i < e->size * e->size; i++)
            fprintf(out, i ? ",%d" : "%d", e->ownership[i]);
        fputc(']', out);
    } else if (ownership) {
        fputs(",\"ownership\":null", out);
    }
    fputs("}\n", out);
}

/* One eval row of a game as a JSON line (docs/QUERY.md, "Eval rows"). */
static void s_json_row(FILE *out, const s_run_t *r, const hs_eval_t *e, const char *eng,
                       float swing)
{
    fprintf(out, "{\"game\":\"%s\",\"move\":%d,\"engine\":", r->idhex, e->move_number);
    hs_json_string(out, eng);
    s_json_eval_start(out, e);
    fputs(",\"swing\":", out);
    hs__query_float(out, swing, "null");
    fputs(",\"result\":", out);
    hs__query_json_text(out, e->result);
    fputs(",\"black\":", out);
    hs__query_json_text(out, r->game.black);
    fputs(",\"white\":", out);
    hs__query_json_text(out, r->game.white);
    fputs(",\"source\":", out);
    hs__query_json_text(out, r->source);
    hs__query_json_game(out, &r->game);
    s_json_eval_end(out, e, r->q->ownership);
}

/* The same row as CSV, in the header's columns (s_header). */
static void s_csv_row(FILE *out, const s_run_t *r, const hs_eval_t *e, const char *eng,
                      float swing)
{
    fprintf(out, "%s,%d,", r->idhex, e->move_number);
    hs_csv_string(out, eng);
    fputc(',', out);
    hs__query_float(out, e->score_lead, "");
    fputc(',', out);
    hs__query_float(out, e->win_rate, "");
    fputc(',', out);
    hs__query_float(out, swing, "");
    fputc(',', out);
    hs_csv_string(out, e->result);
    fputc(',', out);
    hs_csv_string(out, r->game.black);
    fputc(',', out);
    hs_csv_string(out, r->game.white);
    fputc(',', out);
    hs_csv_string(out, r->source);
    hs__query_csv_game(out, &r->game);
    fputc(',', out);
    hs_csv_string(out, e->error);
    hs__query_csv_net(out, e);
    fputc('\n', out);
}

/* The same row in the table (rounded for the eye; the net's and search's
 * fields on indented lines under it). */
static void s_table_row(FILE *out, const s_run_t *r, const hs_eval_t *e, const char *eng,
                        float swing)
{
    /* The whole id (report --game and query take it back) and the whole
     * spec (influence@1 and influence@2 are two engines); a spec longer
     * than its column shifts its own row only. */
    fprintf(out, "%-32s %5d %-14s ", r->idhex, e->move_number, eng);
    s_table_num(out, e->score_lead);
    fputs("  ", out);
    if (isnan(e->win_rate)) fputs("    -", out); else fprintf(out, "%5.3f", e->win_rate);
    fputs("  ", out);
    s_table_num(out, swing);
    fputs("  ", out);
    hs__query_table_text(out, e->result ? e->result : "-", 8);
    fputc(' ', out);
    hs__query_table_text(out, r->game.black ? r->game.black : "?", 0);
    fputs(" vs ", out);
    hs__query_table_text(out, r->game.white ? r->game.white : "?", 0);
    if (e->error) {
        fputs("  error: ", out);
        hs__query_table_text(out, e->error, 0);
    }
    fputc('\n', out);
    hs__query_table_net(out, e);
}

static int s_eval_row(void *ctx, const hs_eval_t *e)
{
    s_run_t *r = ctx;
    const hs_query_t *q = r->q;
    /* swing against the previous evaluated move of this engine in this game */
    float swing = NAN;
    int slot = -1;
    for (int i = 0; i < r->num_prev; i++)
        if (r->prev_engine[i] == e->engine_id)
            slot = i;
    if (slot < 0 && r->num_prev < 16) {
        slot = r->num_prev++;
        r->prev_engine[slot] = e->engine_id;
        r->prev_score[slot] = NAN;
    }
    if (slot >= 0) {
        if (!isnan(e->score_lead) && !isnan(r->prev_score[slot]))
            swing = e->score_lead - r->prev_score[slot];
        if (!isnan(e->score_lead))
            r->prev_score[slot] = e->score_lead;
    }
    if (q->move >= 0 && e->move_number != q->move)
        return 0;
    if (q->swing > 0 && !(fabsf(swing) > q->swing))
        return 0;
    if (q->limit && r->rows >= q->limit)
        return 1;   /* stop */
    const char *eng = s_engine_name(r, e->engine_id);
    if (q->format == HS_QUERY_JSONL)
        s_json_row(r->out, r, e, eng, swing);
    else if (q->format == HS_QUERY_CSV)
        s_csv_row(r->out, r, e, eng, swing);
    else
        s_table_row(r->out, r, e, eng, swing);
    r->rows++;
    return 0;
}

static void s_game_release(s_run_t *r)
{
    hs_wire_game_t w = { .game = r->game, .source = r->source };
    hs_wire_game_fini(&w);
    memset(&r->game, 0, sizeof r->game);
    r->source = NULL;
}

static int s_one_game(void *ctx, const uint64_t id[2])
{
    s_run_t *r = ctx;
    if (r->q->deadline_ms > 0 && hs_clock_ms() > r->q->deadline_ms) {
        r->timed_out = true;
        return 1;   /* stop */
    }
    r->id[0] = id[0];
    r->id[1] = id[1];
    uint8_t k[16];
    for (int i = 0; i < 8; i++) {
        k[i] = (uint8_t)(id[0] >> (56 - 8 * i));
        k[8 + i] = (uint8_t)(id[1] >> (56 - 8 * i));
    }
    hs_key_hex(k, r->idhex);
    hs_error_t gerr = { 0 };
    int rc = hs_store_game_get(r->s, id, &r->game, &r->source, NULL, &gerr);
    if (rc == 0) {
        r->num_prev = 0;
        /* The swing needs the move before, so read from the start even for one move. */
        int to = r->q->move >= 0 ? r->q->move : -1;
        rc = hs_store_game_evals(r->s, id, 0, to, r->q->engine_id, s_eval_row, r, &gerr);
        s_game_release(r);
    }
    if (rc != HS_ECORRUPT) {
        if (rc < 0 && r->err)
            *r->err = gerr;
        return rc;
    }
    /* A corrupt record loses this game's remaining rows, never silently: the
     * other games are still listed, and the run ends in HS_ECORRUPT. */
    if (r->corrupt++ == 0)
        r->first_corrupt = gerr;
    return 0;
}

static void s_header(const hs_query_t *q, FILE *out)
{
    if (q->format == HS_QUERY_CSV)
        fputs("game,move,engine,score_lead,win_rate,swing,result,black,white,source,komi,re,"
              "komi_fits,error,score_stdev,policy,visits,best,pv,moves\n", out);
    else if (q->format == HS_QUERY_TABLE)
        fprintf(out, "%-32s %5s %-14s %*s  %5s  %*s  %-8s %s\n", "game", "move", "engine",
                S_TABLE_NUM_WIDTH, "score", "winB", S_TABLE_NUM_WIDTH, "swing", "result",
                "players");
}

/* The game a source path names: as stored (the path analyze was given), else
 * the same path written without "./" parts and doubled slashes, as a shell's
 * completion types it ("./games/a.sgf" for the stored "games/a.sgf"). */
static int s_game_by_source(hs_store_t *s, const char *source, uint64_t id[2], hs_error_t *err)
{
    int rc = hs_store_game_by_source(s, source, id, err);
    size_t n = strlen(source);
    char *tidy = rc == HS_ENOTFOUND ? malloc(n + 1) : NULL;
    if (!tidy)
        return rc;
    size_t len = 0;
    for (const char *p = source; *p;) {
        if ((p == source || p[-1] == '/') && p[0] == '.' && p[1] == '/') {
            p += 2;            /* a "./" part */
        } else if (*p == '/' && len > 0 && tidy[len - 1] == '/') {
            p++;               /* a doubled slash */
        } else {
            tidy[len++] = *p++;
        }
    }
    tidy[len] = '\0';
    if (strcmp(tidy, source) != 0) {
        hs_error_t e2 = { 0 };
        if (hs_store_game_by_source(s, tidy, id, &e2) == 0)
            rc = 0;
    }
    free(tidy);
    if (rc == HS_ENOTFOUND)
        hs_error_set(err, HS_ENOTFOUND, "no game from %s (a source is stored as analyze was "
                     "given it, relative to where it ran: `query --json` shows each game's)",
                     source);
    return rc;
}

int hs_query_run(hs_store_t *s, const hs_query_t *q, FILE *out, int64_t *rows,
                 hs_error_t *err)
{
    s_run_t r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.q = q;
    r.out = out;
    r.err = err;
    int rc;
    uint8_t k[16];
    if (q->game && hs_key_parse(q->game, k))   /* before the header: no table for an error */
        return hs_error_set(err, HS_EINVAL, "a game id is 32 hex digits, not '%s'", q->game);
    s_header(q, out);
    if (q->game || q->source) {
        uint64_t id[2];
        if (q->game) {
            id[0] = id[1] = 0;
            for (int i = 0; i < 8; i++) {
                id[0] = id[0] << 8 | k[i];
                id[1] = id[1] << 8 | k[8 + i];
            }
        } else if ((rc = s_game_by_source(s, q->source, id, err)) != 0) {
            return rc;
        }
        rc = s_one_game(&r, id);
    } else if (q->player) {
        rc = hs_store_games_by_player(s, q->player, s_one_game, &r, err);
    } else {
        rc = hs_store_games_each(s, s_one_game, &r, err);
    }
    if (rc == 1)   /* the row limit or the deadline stopped the iteration */
        rc = r.timed_out ? HS_ETIMEOUT : 0;
    if (rows)
        *rows = r.rows;
    if (rc == 0 && r.corrupt)
        rc = hs_error_set(err, HS_ECORRUPT, "%lld game(s) not fully listed because of corrupt "
                          "records; the first: %s", (long long)r.corrupt, r.first_corrupt.msg);
    return rc;
}

/* ---- by position ---- */

int hs_query_position_key(const hs_game_t *g, int move_number, uint8_t key[16],
                          hs_error_t *err)
{
    if (move_number < 0 || move_number > g->num_moves)
        return hs_error_set(err, HS_EINVAL, "move %d: the game has %d moves", move_number,
                            g->num_moves);
    /* The worker's own replay (core/replay.h): any other, "equivalent" replay
     * could leave another ko point or side to move, and the key would miss. */
    hs_replay_t r;
    int rc = hs_replay_start(&r, g, err);
    if (rc == 0 && (rc = hs_replay_to(&r, move_number, err)) == 0)
        hs_replay_key(&r, key);
    hs_replay_fini(&r);
    return rc;
}

#define S_POS_MAX_ENGINES 64

typedef struct {
    hs_store_t *s;
    const hs_query_t *q;
    FILE *out;
    char keyhex[33];
    uint32_t eng_id[S_POS_MAX_ENGINES];
    char eng_spec[S_POS_MAX_ENGINES][HS_WIRE_MAX_NAME + 1];
    int num_eng;
    struct s_reach { uint64_t id[2]; int move; } *reach;
    int64_t num_reach, cap_reach;
    int64_t evals;
    const char *spec;     /* engine of the row being printed */
} s_pos_run_t;

static int s_pos_engine(void *ctx, uint32_t id, const char *spec)
{
    s_pos_run_t *r = ctx;
    if ((r->q->engine_id && id != r->q->engine_id) || r->num_eng >= S_POS_MAX_ENGINES)
        return 0;
    r->eng_id[r->num_eng] = id;
    snprintf(r->eng_spec[r->num_eng], sizeof r->eng_spec[0], "%s", spec);
    r->num_eng++;
    return 0;
}

static int s_pos_reach(void *ctx, const uint64_t id[2], int move_number)
{
    s_pos_run_t *r = ctx;
    if (r->num_reach == r->cap_reach) {
        int64_t cap = r->cap_reach ? r->cap_reach * 2 : 16;
        struct s_reach *p = realloc(r->reach, sizeof *p * (size_t)cap);
        if (!p)
            return HS_ENOMEM;
        r->reach = p;
        r->cap_reach = cap;
    }
    r->reach[r->num_reach].id[0] = id[0];
    r->reach[r->num_reach].id[1] = id[1];
    r->reach[r->num_reach].move = move_number;
    r->num_reach++;
    return 0;
}

static int s_pos_eval_row(void *ctx, const hs_eval_t *e)
{
    s_pos_run_t *r = ctx;
    FILE *out = r->out;
    switch (r->q->format) {
    case HS_QUERY_JSONL:
        /* "kind" first: one stream holds eval and game lines (docs/QUERY.md). */
        fprintf(out, "{\"kind\":\"eval\",\"position\":\"%s\",\"engine\":", r->keyhex);
        hs_json_string(out, r->spec);
        s_json_eval_start(out, e);
        fputs(",\"result\":", out);
        hs__query_json_text(out, e->result);
        s_json_eval_end(out, e, r->q->ownership);
        break;
    case HS_QUERY_CSV:
        fprintf(out, "eval,%s,", r->keyhex);
        hs_csv_string(out, r->spec);
        fputc(',', out);
        hs__query_float(out, e->score_lead, "");
        fputc(',', out);
        hs__query_float(out, e->win_rate, "");
        fputc(',', out);
        hs_csv_string(out, e->result);
        fputc(',', out);
        hs_csv_string(out, e->error);
        fputs(",,,,,,,,", out);   /* the game columns, game..komi_fits */
        hs__query_csv_net(out, e);
        fputc('\n', out);
        break;
    default:
        fprintf(out, "%-16.16s ", r->spec);
        s_table_num(out, e->score_lead);
        fputs("  ", out);
        if (isnan(e->win_rate)) fputs("    -", out); else fprintf(out, "%5.3f", e->win_rate);
        fprintf(out, "  %-8s%s%s\n", e->result ? e->result : "-", e->error ? "  error: " : "",
                e->error ? e->error : "");
        hs__query_table_net(out, e);
        break;
    }
    r->evals++;
    return 0;
}

static int s_pos_game_row(s_pos_run_t *r, const struct s_reach *g, hs_error_t *err)
{
    hs_game_t game;
    char *source = NULL;
    int rc = hs_store_game_get(r->s, g->id, &game, &source, NULL, err);
    if (rc && rc != HS_ENOTFOUND)
        return rc;
    bool have = rc == 0;
    uint8_t k[16];
    char hex[33];
    for (int i = 0; i < 8; i++) {
        k[i] = (uint8_t)(g->id[0] >> (56 - 8 * i));
        k[8 + i] = (uint8_t)(g->id[1] >> (56 - 8 * i));
    }
    hs_key_hex(k, hex);
    const hs_game_t *gp = have ? &game : NULL;
    const char *black = have ? game.black : NULL, *white = have ? game.white : NULL;
    FILE *out = r->out;
    switch (r->q->format) {
    case HS_QUERY_JSONL:
        fprintf(out, "{\"kind\":\"game\",\"position\":\"%s\",\"game\":\"%s\",\"move\":%d,"
                "\"black\":", r->keyhex, hex, g->move);
        hs__query_json_text(out, black);
        fputs(",\"white\":", out);
        hs__query_json_text(out, white);
        fputs(",\"source\":", out);
        hs__query_json_text(out, source);
        hs__query_json_game(out, gp);
        fputs("}\n", out);
        break;
    case HS_QUERY_CSV:
        /* Empty eval columns, the game's, then empty net and search columns. */
        fprintf(out, "game,%s,,,,,,%s,%d,", r->keyhex, hex, g->move);
        hs_csv_string(out, source);
        fputc(',', out);
        hs_csv_string(out, black);
        fputc(',', out);
        hs_csv_string(out, white);
        hs__query_csv_game(out, gp);
        fputs(",,,,,,\n", out);
        break;
    default:
        fprintf(out, "  %s move %4d  %s vs %s  %s\n", hex, g->move, black ? black : "?",
                white ? white : "?", source ? source : "");
        break;
    }
    if (have) {
        hs_wire_game_t w = { .game = game, .source = source };
        hs_wire_game_fini(&w);
    } else {
        free(source);
    }
    return 0;
}

int hs_query_position(hs_store_t *s, const uint8_t pos_key[16], const hs_query_t *q,
                      bool games, FILE *out, int64_t *evals, int64_t *reached,
                      hs_error_t *err)
{
    s_pos_run_t *r = calloc(1, sizeof *r);
    if (!r)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    r->s = s;
    r->q = q;
    r->out = out;
    hs_key_hex(pos_key, r->keyhex);
    int rc = hs_store_engines_each(s, s_pos_engine, r, err);
    if (rc == 0 && games)
        rc = hs_store_position_games(s, pos_key, s_pos_reach, r, err);
    if (rc == HS_ENOMEM)
        hs_error_set(err, HS_ENOMEM, "out of memory");
    if (rc == 0) {
        if (q->format == HS_QUERY_CSV)
            fputs("kind,position,engine,score_lead,win_rate,result,error,game,move,source,"
                  "black,white,komi,re,komi_fits,score_stdev,policy,visits,best,pv,moves\n",
                  out);
        else if (q->format == HS_QUERY_TABLE)
            fprintf(out, "position %s\n%-16s %*s  %5s  %s\n", r->keyhex, "engine",
                    S_TABLE_NUM_WIDTH, "score", "winB", "result");
    }
    for (int i = 0; i < r->num_eng && rc == 0; i++) {
        r->spec = r->eng_spec[i];
        hs_eval_t e;
        memset(&e, 0, sizeof e);
        rc = hs_store_eval_get(s, r->eng_id[i], pos_key, &e, err);
        if (rc == 0) {
            rc = s_pos_eval_row(r, &e);
            hs_eval_fini(&e);
        } else if (rc == HS_ENOTFOUND) {
            /* A reader sees the hash index up to the writer's last flush; a game
             * that reached the position points at the record directly. */
            rc = 0;
            if (r->num_reach)
                rc = hs_store_game_evals(s, r->reach[0].id, r->reach[0].move,
                                         r->reach[0].move, r->eng_id[i], s_pos_eval_row, r,
                                         err);
        }
    }
    if (rc == 0 && games && q->format == HS_QUERY_TABLE)
        fprintf(out, "reached in %lld stored game position%s%s\n", (long long)r->num_reach,
                r->num_reach == 1 ? "" : "s", r->num_reach ? ":" : "");
    for (int64_t i = 0; i < r->num_reach && rc == 0; i++)
        rc = s_pos_game_row(r, &r->reach[i], err);
    if (evals)
        *evals = r->evals;
    if (reached)
        *reached = r->num_reach;
    free(r->reach);
    free(r);
    return rc;
}
