/*
 * store/query_args.c — the arguments of `hyeongse query` (store/query.h): one
 * parser and one runner for the CLI (`query --db`) and the broker (a QUERY from
 * `query --broker`), so both print the same bytes; and the QUERY text coding.
 */
#include "store/query.h"

#include "core/poskey.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the arguments of `query` */

static int s_need(int argc, char *const *argv, int i, hs_error_t *err)
{
    if (i + 1 >= argc)
        return hs_error_set(err, HS_EINVAL, "%s needs a value", argv[i]);
    return 0;
}

/* Whether option s is followed by a value. */
static bool s_takes_value(const char *s)
{
    static const char *const with_value[] = {
        "--db", "--broker", "game", "--game", "--position", "--board", "--path", "--player",
        "--move", "--swing", "--engine", "--limit", "--format", "--timeout",
    };
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        if (!strcmp(s, with_value[k]))
            return true;
    return false;
}

/* The options whose value is a number (--timeout, --move, --swing, --limit)
 * into *a: 1 when s is none of them, else 0 or HS_EINVAL. */
static int s_number(hs_query_args_t *a, const char *s, const char *v, hs_error_t *err)
{
    char *end;
    if (!strcmp(s, "--timeout")) {
        long t = strtol(v, &end, 10);
        if (*end || t < 100 || t > 3600000)
            return hs_error_set(err, HS_EINVAL, "--timeout needs a whole number of ms "
                                "100..3600000, not '%s'", v);
        a->timeout_ms = (int)t;
    } else if (!strcmp(s, "--move")) {
        long m = strtol(v, &end, 10);
        if (!*v || *end || m < 0 || m > 65535)
            return hs_error_set(err, HS_EINVAL, "--move needs a whole number 0..65535, not '%s'",
                                v);
        a->q.move = (int)m;
    } else if (!strcmp(s, "--swing")) {
        a->q.swing = strtod(v, &end);
        if (*end || !(a->q.swing > 0) || !isfinite(a->q.swing))
            return hs_error_set(err, HS_EINVAL, "--swing needs a positive number, not '%s'", v);
    } else if (!strcmp(s, "--limit")) {
        /* A bad count must not turn into 0 (no limit) or a huge limit. */
        errno = 0;
        long long n = strtoll(v, &end, 10);
        if (!*v || *end || errno || n < 1)
            return hs_error_set(err, HS_EINVAL, "--limit needs a whole number of rows "
                                "from 1 to %lld, not '%s'", LLONG_MAX, v);
        a->q.limit = n;
    } else {
        return 1;
    }
    return 0;
}

/* Argument s, with its value v (NULL for a flag), the i-th of the line, into
 * *a (a game's id or index into *game_arg): 0 or HS_EINVAL. */
static int s_arg(hs_query_args_t *a, const char *s, const char *v, int i,
                 const char **game_arg, hs_error_t *err)
{
    int rc = s_number(a, s, v, err);
    if (rc <= 0)
        return rc;
    if (!strcmp(s, "--help") || !strcmp(s, "-h"))
        a->help = true;
    else if (!strcmp(s, "--db"))
        a->db = v;
    else if (!strcmp(s, "--broker"))
        a->broker = v;
    else if (!strcmp(s, "stats"))
        a->stats = true;
    else if (!strcmp(s, "failed"))
        a->failed = true;
    else if (!strcmp(s, "game") || !strcmp(s, "--game"))
        *game_arg = v;   /* a game id, or with --position an index */
    else if (!strcmp(s, "--position"))
        a->position = v;
    else if (!strcmp(s, "--board"))
        a->board = v;
    else if (!strcmp(s, "--no-games"))
        a->games = false;
    else if (!strcmp(s, "--path"))
        a->q.source = v;
    else if (!strcmp(s, "--player"))
        a->q.player = v;
    else if (!strcmp(s, "--engine")) {
        a->engine = a->engine_typed = v;
        a->engine_arg = i;
    } else if (!strcmp(s, "--ownership"))
        a->q.ownership = true;
    else if (!strcmp(s, "--format")) {
        if (hs_query_format_parse(v, &a->q.format))
            return hs_error_set(err, HS_EINVAL, "unknown format '%s'", v);
    } else if (!strcmp(s, "--json"))
        a->json = true;
    else
        return hs_error_set(err, HS_EINVAL, "unknown argument '%s' (see --help)", s);
    return 0;
}

/* What the arguments say together: the company --board and --position keep,
 * and what --game means with them. 0 or HS_EINVAL. */
static int s_check(hs_query_args_t *a, const char *game_arg, hs_error_t *err)
{
    if (a->board) {
        /* The index answers about boards, not engines or formats: refuse what
         * it would silently ignore. */
        if (a->position || a->stats || a->failed || a->players || a->q.source || a->q.player ||
            a->q.swing > 0 || a->engine || a->q.ownership || a->q.limit || !a->games ||
            a->q.format != HS_QUERY_TABLE)
            return hs_error_set(err, HS_EINVAL, "--board goes with --move, --game K and "
                                                "--json only");
    }
    if (!a->position && !a->board) {
        /* One selection at a time: a second one would be silently ignored. */
        if (a->stats + a->failed + a->players > 1)
            return hs_error_set(err, HS_EINVAL, "stats, failed and players are three "
                                                "queries: ask for one at a time");
        int chosen = (game_arg != NULL) + (a->q.source != NULL) + (a->q.player != NULL);
        const char *whole = a->stats ? "stats" : a->failed ? "failed" : "players";
        if ((a->stats || a->failed || a->players) &&
            (chosen || a->q.swing > 0 || a->q.move >= 0 || a->engine || a->q.ownership ||
             (a->stats && a->q.limit)))
            return hs_error_set(err, HS_EINVAL, "%s is about the whole store: it goes "
                                "with %s only", whole,
                                a->stats ? "--json and --format" : "--json, --format and --limit");
        if (chosen > 1)
            return hs_error_set(err, HS_EINVAL, "choose one of game ID, --path FILE and "
                                                "--player NAME");
        uint8_t key[16];
        if (game_arg && hs_key_parse(game_arg, key))
            return hs_error_set(err, HS_EINVAL, "a game id is 32 hex digits, not '%s'",
                                game_arg);
        a->q.game = game_arg;
        return 0;
    }
    const char *opt = a->board ? "--board" : "--position";
    if (a->q.move < 0)
        return hs_error_set(err, HS_EINVAL, "%s needs --move N", opt);
    if (a->stats || a->failed || a->players || a->q.source || a->q.player || a->q.swing > 0)
        return hs_error_set(err, HS_EINVAL, "--position goes with --move, --game K, --engine, "
                                            "--no-games, --ownership and --format only");
    if (game_arg) {
        char *end;
        long k = strtol(game_arg, &end, 10);
        if (!*game_arg || *end || k < 1 || k > 1000000)
            return hs_error_set(err, HS_EINVAL, "with %s, --game K is the game's "
                                                "number in the file (1 = the first)", opt);
        a->game_index = (int)k - 1;
    }
    return 0;
}

int hs_query_args_parse(int argc, char *const *argv, hs_query_args_t *a, hs_error_t *err)
{
    memset(a, 0, sizeof *a);
    hs_query_init(&a->q);
    a->games = true;
    a->engine_arg = -1;
    const char *game_arg = NULL;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "players")) {   /* its PREFIX is optional */
            a->players = true;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                a->players_prefix = argv[++i];
            continue;
        }
        bool value = s_takes_value(s);
        if (value && s_need(argc, argv, i, err) < 0)
            return err ? err->code : HS_EINVAL;
        const char *v = value ? argv[++i] : NULL;
        int rc = s_arg(a, s, v, i, &game_arg, err);
        if (rc < 0)
            return rc;
    }
    int rc = s_check(a, game_arg, err);
    if (rc < 0)
        return rc;
    if (a->json)
        a->q.format = HS_QUERY_JSONL;
    /* A map is N*N values: no CSV cell or table column holds it, and leaving
     * it out would drop what was asked for without a word. */
    if (a->q.ownership && a->q.format != HS_QUERY_JSONL)
        return hs_error_set(err, HS_EINVAL, "--ownership is JSON only: add --json (or "
                                            "--format jsonl)");
    if (a->engine)
        a->q.engine_id = hs_engine_config_id(a->engine);
    return 0;
}

/* No row for --player NAME: the names that begin with it, as a hint (a name
 * must be given whole: "Lee" is not "Lee Sedol"). */
typedef struct { FILE *note; int n; } s_names_t;

static int s_name_seen(void *ctx, const char *name, int64_t games)
{
    s_names_t *c = ctx;
    if (c->n++ == 5)
        return 1;
    fprintf(c->note, "%s%s (%lld game%s)", c->n > 1 ? ", " : "", name, (long long)games,
            games == 1 ? "" : "s");
    return 0;
}

int hs_query_player_hint(hs_store_t *s, const char *player, FILE *note, hs_error_t *err)
{
    fprintf(note, "no stored game of a player named exactly '%s'", player);
    s_names_t c = { note, 0 };
    if (*player) {
        fputs("; names that begin with it: ", note);
        int rc = hs_store_players_each(s, player, s_name_seen, &c, err);
        if (rc < 0)
            return rc;
        fputs(c.n == 0 ? "none" : c.n > 5 ? ", ..." : "", note);
    }
    fprintf(note, " (`hyeongse query players PREFIX` lists names)\n");
    return 0;
}

/* --engine SPEC against the specs the store holds (hs_query_args_engine):
 * the exact one, else for a spec without options ("net", "net@1") the specs
 * "SPEC:..." of that name and revision (a net's spec names the net's hash,
 * which nobody types); every stored spec is listed for the message. */
typedef struct {
    const char *name;
    size_t len;              /* 0: SPEC has options, no name look-up */
    uint32_t exact, id;
    bool found_exact;
    int n, total;            /* specs "SPEC:...", and every stored spec */
    FILE *same, *all;        /* their lists, ", "-separated */
} s_byname_t;

static int s_byname_seen(void *ctx, uint32_t engine_id, const char *spec)
{
    s_byname_t *b = ctx;
    b->found_exact |= engine_id == b->exact;
    fprintf(b->all, "%s%s", b->total++ ? ", " : "", spec);
    if (!b->len || strncmp(spec, b->name, b->len) || spec[b->len] != ':')
        return 0;
    b->id = engine_id;
    fprintf(b->same, "%s%s", b->n++ ? ", " : "", spec);
    return 0;
}

/* What the engines seen say: the id to read, a note, or the error. */
static int s_engine_verdict(const hs_query_args_t *a, const s_byname_t *b, const char *same,
                            const char *all, FILE *note, uint32_t *engine_id, hs_error_t *err)
{
    const char *typed = a->engine_typed ? a->engine_typed : a->engine;
    if (b->found_exact) {
        *engine_id = b->exact;
        return 0;
    }
    if (b->n == 1) {
        *engine_id = b->id;
        if (note)   /* every format: the rows are not of the spec typed */
            fprintf(note, "--engine %s: reading %s, the store's one engine of that name "
                    "and revision\n", typed, same);
        return 0;
    }
    if (b->n > 1)
        return hs_error_set(err, HS_EINVAL, "--engine %s: the store has %d engines of that "
                            "name, give one whole: %s", typed, b->n, same);
    /* Not found, like an unknown game id: a typo or a revision never stored
     * must not read as "no rows". A revision is an engine of its own. */
    return hs_error_set(err, HS_ENOTFOUND, "--engine '%s': the store holds no evals of that "
                        "engine; its engines: %s (a revision, name@R, is an engine of its "
                        "own: `query stats` lists them)", typed, b->total ? all : "none");
}

int hs_query_args_engine(hs_store_t *s, const hs_query_args_t *a, FILE *note,
                         uint32_t *engine_id, hs_error_t *err)
{
    *engine_id = 0;
    if (!a->engine)
        return 0;
    char *same = NULL, *all = NULL;
    size_t same_len = 0, all_len = 0;
    s_byname_t b = { .name = a->engine, .len = strchr(a->engine, ':') ? 0 : strlen(a->engine),
                     .exact = hs_engine_config_id(a->engine) };
    b.same = open_memstream(&same, &same_len);
    b.all = open_memstream(&all, &all_len);
    int rc = b.same && b.all ? hs_store_engines_each(s, s_byname_seen, &b, err)
                             : hs_error_set(err, HS_ENOMEM, "out of memory");
    if (b.same)
        fclose(b.same);
    if (b.all)
        fclose(b.all);
    if (rc == 0)
        rc = s_engine_verdict(a, &b, same, all, note, engine_id, err);
    free(same);
    free(all);
    return rc;
}

int hs_query_args_run(hs_store_t *s, const hs_query_args_t *a, FILE *out, FILE *note,
                      int64_t *nrows, hs_error_t *err)
{
    int64_t rows = 0, dummy;
    int rc;
    if (!nrows)
        nrows = &dummy;
    *nrows = 0;
    if (a->position || a->board)
        return hs_error_set(err, HS_EUNSUPPORTED, "%s reads a local SGF file: "
                                                  "query the store with --db DIR",
                            a->position ? "--position" : "--board");
    if (a->stats)
        return hs_query_stats_as(s, out, a->q.format, err);
    if (a->failed) {
        rc = hs_query_failed(s, out, a->q.format, a->q.limit, &rows, err);
        *nrows = rows;
        int64_t games = rows;
        if (rc == 0 && note && a->q.format == HS_QUERY_TABLE && !a->q.limit)
            rc = hs_store_failed_count(s, 0, &games, err);
        if (rc == 0 && note && a->q.format == HS_QUERY_TABLE && games == rows)
            fprintf(note, "%lld failed game%s\n", (long long)rows, rows == 1 ? "" : "s");
        else if (rc == 0 && note && a->q.format == HS_QUERY_TABLE)
            fprintf(note, "%lld rows: %lld failed games, each listed for every job that "
                    "met it\n", (long long)rows, (long long)games);
        return rc;
    }
    if (a->players) {
        rc = hs_query_players(s, a->players_prefix ? a->players_prefix : "", out, a->q.format,
                              a->q.limit, &rows, err);
        *nrows = rows;
        if (rc == 0 && note && a->q.format == HS_QUERY_TABLE)
            fprintf(note, "%lld player%s\n", (long long)rows, rows == 1 ? "" : "s");
        return rc;
    }
    hs_query_t q = a->q;
    if ((rc = hs_query_args_engine(s, a, note, &q.engine_id, err)) < 0)
        return rc;
    rc = hs_query_run(s, &q, out, &rows, err);
    *nrows = rows;
    if (rc == 0 && note && a->q.format == HS_QUERY_TABLE)
        fprintf(note, "%lld rows\n", (long long)rows);
    if (rc == 0 && note && rows == 0 && a->q.player)
        rc = hs_query_player_hint(s, a->q.player, note, err);
    return rc;
}

int hs_query_args_join(int argc, char *const *argv, char **text, hs_error_t *err)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++) {
        if (strchr(argv[i], HS_QUERY_ARG_SEP))
            return hs_error_set(err, HS_EINVAL, "an argument holds the byte 0x1F");
        len += strlen(argv[i]) + 1;
    }
    char *t = malloc(len), *p = t;
    if (!t)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]);
        memcpy(p, argv[i], n);
        p += n;
        *p++ = HS_QUERY_ARG_SEP;
    }
    *p = '\0';
    *text = t;
    return 0;
}

int hs_query_args_split(const char *text, int *argc, char ***argv, hs_error_t *err)
{
    size_t len = strlen(text);
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == HS_QUERY_ARG_SEP;
    if ((len > 0 && text[len - 1] != HS_QUERY_ARG_SEP) || n > 256)
        return hs_error_set(err, HS_EINVAL, "malformed query text (arguments end with 0x1F; "
                                            "at most 256)");
    char **v = malloc(sizeof *v * ((size_t)n + 1) + len + 1);
    if (!v)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    char *p = (char *)(v + n + 1);
    memcpy(p, text, len + 1);
    for (int i = 0; i < n; i++) {
        v[i] = p;
        p = strchr(p, HS_QUERY_ARG_SEP);
        *p++ = '\0';
    }
    v[n] = NULL;
    *argc = n;
    *argv = v;
    return 0;
}
