/*
 * store/query_lists.c — the queries about the whole store (store/query.h):
 * `query failed` (the games that could not be read or analysed), `query
 * players [PREFIX]` (names with their games) and `query stats`, each in the
 * three formats. CSV writes its header also over no row: a CSV reader wants
 * its columns.
 */
#include "store/query.h"
#include "store/query_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    FILE *out;
    hs_query_format_t format;
    int64_t rows, limit;
} s_list_t;

static int s_failed_row(void *ctx, const char *source, const char *reason, uint64_t job_id)
{
    s_list_t *c = ctx;
    FILE *out = c->out;
    if (c->format == HS_QUERY_JSONL) {
        fputs("{\"source\":", out);
        hs_json_string(out, source);
        fputs(",\"reason\":", out);
        hs_json_string(out, reason);
        fprintf(out, ",\"job\":%llu}\n", (unsigned long long)job_id);
    } else if (c->format == HS_QUERY_CSV) {
        hs_csv_string(out, source);
        fputc(',', out);
        hs_csv_string(out, reason);
        fprintf(out, ",%llu\n", (unsigned long long)job_id);
    } else {
        fprintf(out, "%s\n    %s (job %llu)\n", source, reason, (unsigned long long)job_id);
    }
    c->rows++;
    return c->limit && c->rows >= c->limit;
}

int hs_query_failed(hs_store_t *s, FILE *out, hs_query_format_t format, int64_t limit,
                    int64_t *rows, hs_error_t *err)
{
    s_list_t c = { out, format, 0, limit };
    if (format == HS_QUERY_CSV)
        fputs("source,reason,job\n", out);
    int rc = hs_store_failed_each(s, s_failed_row, &c, err);
    if (rows)
        *rows = c.rows;
    return rc == 1 ? 0 : rc;   /* 1: the limit stopped the listing */
}

static int s_player_row(void *ctx, const char *name, int64_t games)
{
    s_list_t *c = ctx;
    if (c->format == HS_QUERY_JSONL) {
        fputs("{\"player\":", c->out);
        hs_json_string(c->out, name);
        fprintf(c->out, ",\"games\":%lld}\n", (long long)games);
    } else if (c->format == HS_QUERY_CSV) {
        hs_csv_string(c->out, name);
        fprintf(c->out, ",%lld\n", (long long)games);
    } else {
        fprintf(c->out, "%8lld  ", (long long)games);
        hs__query_table_text(c->out, name, 0);
        fputc('\n', c->out);
    }
    c->rows++;
    return c->limit && c->rows >= c->limit;
}

int hs_query_players(hs_store_t *s, const char *prefix, FILE *out, hs_query_format_t format,
                     int64_t limit, int64_t *rows, hs_error_t *err)
{
    s_list_t c = { out, format, 0, limit };
    if (format == HS_QUERY_TABLE)
        fprintf(out, "%8s  %s\n", "games", "player");
    else if (format == HS_QUERY_CSV)
        fputs("player,games\n", out);
    int rc = hs_store_players_each(s, prefix, s_player_row, &c, err);
    if (rows)
        *rows = c.rows;
    return rc == 1 ? 0 : rc;   /* 1: the limit stopped the listing */
}

/* ---- stats ---- */

/* The engine specs with stored evals, so that the revisions a store holds
 * ("judge", "judge@2") can be seen and named in `--engine`: a JSON array,
 * one CSV cell "judge;judge@2" (specs hold commas: "mcts:visits=8,net=.."),
 * or ", "-separated text. */
typedef struct {
    FILE *out;
    hs_query_format_t format;
    int n;
} s_stats_engines_t;

static int s_stats_engine(void *ctx, uint32_t engine_id, const char *spec)
{
    (void)engine_id;
    s_stats_engines_t *e = ctx;
    if (e->n++)
        fputs(e->format == HS_QUERY_JSONL ? "," : e->format == HS_QUERY_CSV ? ";" : ", ",
              e->out);
    if (e->format == HS_QUERY_JSONL)
        hs_json_string(e->out, spec);
    else
        fputs(spec, e->out);
    return 0;
}

static int s_stats_engines(hs_store_t *s, FILE *out, hs_query_format_t format, hs_error_t *err)
{
    if (format != HS_QUERY_CSV) {
        s_stats_engines_t e = { out, format, 0 };
        fputs(format == HS_QUERY_JSONL ? "\"engines\":[" : "", out);
        int rc = hs_store_engines_each(s, s_stats_engine, &e, err);
        fputs(format == HS_QUERY_JSONL ? "]}\n" : (e.n ? "\n" : "-\n"), out);
        return rc;
    }
    /* CSV: the cell is quoted when a spec holds a comma, so list it first. */
    char *text = NULL;
    size_t len = 0;
    FILE *cell = open_memstream(&text, &len);
    if (!cell)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    s_stats_engines_t e = { cell, format, 0 };
    int rc = hs_store_engines_each(s, s_stats_engine, &e, err);
    fclose(cell);
    hs_csv_string(out, text);
    fputc('\n', out);
    free(text);
    return rc;
}

static const char s_stats_json[] =
    "{\"games\":%lld,\"failed_games\":%lld,\"positions\":%lld,\"evals\":%lld,"
    "\"players\":%lld,\"jobs\":%lld,\"tasks\":%lld,\"eval_lookups\":%lld,"
    "\"eval_hits\":%lld,\"eval_hit_rate\":%.4f,\"result_puts\":%lld,"
    "\"result_dups\":%lld,\"dedupe_rate\":%.4f,\"games_refreshed\":%lld,"
    "\"map_size\":%zu,\"map_used\":%zu,"
    "\"boards_bytes\":%llu,\"boards_complete\":%s,";
static const char s_stats_csv[] =
    "games,failed_games,positions,evals,players,jobs,tasks,eval_lookups,eval_hits,"
    "eval_hit_rate,result_puts,result_dups,dedupe_rate,games_refreshed,map_size,map_used,"
    "boards_bytes,boards_complete,engines\n"
    "%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.4f,%lld,%lld,%.4f,%lld,%zu,%zu,%llu,%s,";
static const char s_stats_table[] =
    "games          %lld\nfailed_games   %lld\npositions      %lld\nevals          %lld\n"
    "players        %lld\njobs           %lld\ntasks          %lld\n"
    "eval_lookups   %lld\neval_hits      %lld\neval_hit_rate  %.4f\n"
    "result_puts    %lld\nresult_dups    %lld\ndedupe_rate    %.4f\n"
    "games_refreshed %lld\n"
    "map_size       %zu\nmap_used       %zu\nboards_bytes   %llu\n"
    "boards_complete %s\nengines        ";

int hs_query_stats_as(hs_store_t *s, FILE *out, hs_query_format_t format, hs_error_t *err)
{
    hs_store_stats_t st;
    int rc = hs_store_stats(s, &st, err);
    if (rc)
        return rc;
    /* The board index's share of the store, and whether `index` must run. */
    uint64_t boards = 0;
    if ((rc = hs_store_boards_bytes(s, &boards, err)) != 0)
        return rc;
    double hit = st.eval_lookups ? (double)st.eval_hits / (double)st.eval_lookups : 0.0;
    double dedupe = st.result_puts ? (double)st.result_dups / (double)st.result_puts : 0.0;
    const char *fmt = format == HS_QUERY_JSONL ? s_stats_json
                    : format == HS_QUERY_CSV ? s_stats_csv : s_stats_table;
    fprintf(out, fmt, (long long)st.games, (long long)st.failed_games,
            (long long)st.positions, (long long)st.evals, (long long)st.players,
            (long long)st.jobs, (long long)st.tasks, (long long)st.eval_lookups,
            (long long)st.eval_hits, hit, (long long)st.result_puts,
            (long long)st.result_dups, dedupe, (long long)st.games_refreshed, st.map_size,
            st.map_used,
            (unsigned long long)boards, hs_store_boards_complete(s) ? "true" : "false");
    return s_stats_engines(s, out, format, err);
}

int hs_query_stats(hs_store_t *s, FILE *out, bool json, hs_error_t *err)
{
    return hs_query_stats_as(s, out, json ? HS_QUERY_JSONL : HS_QUERY_TABLE, err);
}
