/*
 * worker/analysis_query.c — one analysis query (a JSON object with an id
 * and no action) into its turns, field by field in KataGo's order and with
 * KataGo's messages and "field" names (command/analysis.cpp), so that a
 * script that handles KataGo's errors handles ours. The first bad field
 * ends the query with one error; warnings (unknown fields, unknown
 * settings, options we do not have) let it go on.
 *
 * The moves are replayed here once, so that an illegal move is an error
 * before any turn is searched; each turn's position is replayed again when
 * its search starts (hs__aturn_game), which keeps the queue small.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "worker/analysis_internal.h"

typedef struct s_ctx {
    const hs_analysis_config_t *cfg;
    hs__aout_t *o;
    const hs_json_t *r;
    const char *id;
    hs__aquery_t *q;
    int *turns;                /* analyzeTurns, or the last turn */
    int n_turns;
    int64_t *prios;            /* priorities, or NULL */
    int64_t priority;
} s_ctx_t;

/* Reports an error for field and returns false. */
static bool s_err(s_ctx_t *c, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool s_err(s_ctx_t *c, const char *field, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hs__aout_error(c->o, c->id, field, msg, false);
    return false;
}

static void s_warn(s_ctx_t *c, const char *field, const char *msg)
{
    hs__aout_error(c->o, c->id, field, msg, true);
}

static bool s_nomem(s_ctx_t *c)
{
    return s_err(c, "id", "out of memory");
}

/* A location: a GTP vertex, "pass", or KataGo's "(x,y)" (y from the top). */
/* A vertex as KataGo's Location::tryOfString reads one: blanks around it
 * trimmed; "pass" or "pss" in any case; "(x,y)" (0-based, y from the top);
 * or a column letter (no I) and a row number, which may have leading zeros
 * ("E05"). */
static bool s_loc(const hs_board_t *b, const char *s, hs_point_t *p)
{
    char t[32];
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    if (n < 2 || n >= sizeof t)
        return false;
    memcpy(t, s, n);
    t[n] = '\0';
    if (!strcasecmp(t, "pss")) {
        *p = HS_PASS;
        return true;
    }
    int x, y, used = -1;
    if (sscanf(t, "(%d,%d)%n", &x, &y, &used) == 2 && used == (int)n) {
        if (x < 0 || y < 0 || x >= b->size || y >= b->size)
            return false;
        *p = hs_board_point(b, x, y);
        return true;
    }
    size_t z = 1;   /* leading zeros of the row, dropped ("E05" = "E5") */
    while (z + 1 < n && t[z] == '0' && t[z + 1] >= '0' && t[z + 1] <= '9')
        z++;
    memmove(t + 1, t + z, n - z + 1);
    return hs_board_parse_point(b, t, p) == 0;
}

static bool s_player(const char *s, hs_color_t *c)
{
    if (!strcmp(s, "B") || !strcmp(s, "b") || !strcasecmp(s, "black"))
        *c = HS_BLACK;
    else if (!strcmp(s, "W") || !strcmp(s, "w") || !strcasecmp(s, "white"))
        *c = HS_WHITE;
    else
        return false;
    return true;
}

/* [["B","D4"], ...] into moves (allocated here). */
static bool s_moves(s_ctx_t *c, const char *field, bool allow_pass, hs_gtp_move_t **out, int *n)
{
    static const char shape[] = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
    const hs_json_t *a = hs_json_get(c->r, field);
    if (!a || a->type != HS_JSON_ARRAY)
        return s_err(c, field, "%s", shape);
    hs_board_t b;
    hs_board_init(&b, c->q->size);
    *out = malloc((size_t)(a->count ? a->count : 1) * sizeof **out);
    if (!*out)
        return s_nomem(c);
    *n = 0;
    for (const hs_json_t *e = a->child; e; e = e->next) {
        const char *s0, *s1;
        if (e->type != HS_JSON_ARRAY || e->count != 2 || !hs_json_str(e->child, &s0)
            || !hs_json_str(e->child->next, &s1))
            return s_err(c, field, "%s", shape);
        hs_gtp_move_t *m = &(*out)[*n];
        if (!s_player(s0, &m->color))
            return s_err(c, field, "Could not parse player: %s", s0);
        if (!s_loc(&b, s1, &m->point) || (!allow_pass && m->point == HS_PASS))
            return s_err(c, field, "Could not parse board location: %s", s1);
        (*n)++;
    }
    return true;
}

static bool s_int(s_ctx_t *c, const char *field, int64_t lo, int64_t hi, const char *msg,
                  int64_t *out)
{
    if (!hs_json_int(hs_json_get(c->r, field), lo, hi, out))
        return s_err(c, field, "%s", msg);
    return true;
}

static bool s_double(s_ctx_t *c, const char *field, double lo, double hi, const char *msg,
                     double *out)
{
    if (!hs_json_double(hs_json_get(c->r, field), lo, hi, out))
        return s_err(c, field, "%s", msg);
    return true;
}

static bool s_bool(s_ctx_t *c, const char *field, bool *out)
{
    const hs_json_t *v = hs_json_get(c->r, field);
    if (v && !hs_json_bool(v, out))
        return s_err(c, field, "Must be a boolean");
    return true;
}

static bool s_size(s_ctx_t *c)
{
    char msg[64];
    snprintf(msg, sizeof msg, "Must provide an integer from 2 to %d", HS_NN_MAX_SIZE);
    int64_t x, y;
    if (!s_int(c, "boardXSize", 2, HS_NN_MAX_SIZE, msg, &x)
        || !s_int(c, "boardYSize", 2, HS_NN_MAX_SIZE, msg, &y))
        return false;
    if (x != y)
        return s_err(c, "boardYSize",
                     "Non-square boards are not supported: boardXSize %d != boardYSize %d",
                     (int)x, (int)y);
    c->q->size = (int)x;
    return true;
}

/* analyzeTurns (default: the last turn) and priorities. */
static bool s_turns(s_ctx_t *c)
{
    const hs_json_t *a = hs_json_get(c->r, "analyzeTurns");
    int last = c->q->n_moves;
    c->turns = malloc((size_t)(a && a->count > 0 ? a->count : 1) * sizeof *c->turns);
    if (!c->turns)
        return s_nomem(c);
    if (!a) {
        c->turns[0] = last;
        c->n_turns = 1;
    } else {
        if (a->type != HS_JSON_ARRAY)
            return s_err(c, "analyzeTurns", "Must specify an array of integers indicating turns to analyze");
        for (const hs_json_t *e = a->child; e; e = e->next) {
            int64_t t;
            if (!hs__ajson_whole(e, INT32_MIN, INT32_MAX, &t))
                return s_err(c, "analyzeTurns", "Must specify an array of integers indicating turns to analyze");
            if (t < 0 || t > last)
                return s_err(c, "analyzeTurns", "Invalid turn number: %d", (int)t);
            c->turns[c->n_turns++] = (int)t;
        }
    }
    const hs_json_t *p = hs_json_get(c->r, "priorities");
    if (!p)
        return true;
    const int64_t lim = 0x3FFFffffFFFFffffLL;
    if (p->type != HS_JSON_ARRAY)
        return s_err(c, "priorities", "Must specify an array of integers indicating priorities");
    if (!a)
        return s_err(c, "priorities", "Can only specify when also specifying analyzeTurns");
    if (p->count != a->count)
        return s_err(c, "priorities", "Must be of matching length to analyzeTurns");
    c->prios = malloc((size_t)(p->count ? p->count : 1) * sizeof *c->prios);
    if (!c->prios)
        return s_nomem(c);
    int i = 0;
    for (const hs_json_t *e = p->child; e; e = e->next, i++)
        if (!hs__ajson_whole(e, -lim, lim, &c->prios[i]))
            return s_err(c, "priorities", "Invalid priority");
    return true;
}

/* A string's text, or any other value written as JSON, cut to cap bytes. */
static void s_text(const hs_json_t *v, char *out, size_t cap)
{
    const char *s;
    if (hs_json_str(v, &s)) {
        snprintf(out, cap, "%s", s);
        return;
    }
    out[0] = '\0';
    FILE *f = fmemopen(out, cap, "w");
    if (!f)
        return;
    setvbuf(f, NULL, _IONBF, 0);
    hs_json_write(f, v);
    fclose(f);
    out[cap - 1] = '\0';
}

static bool s_rules(s_ctx_t *c)
{
    static const char need[] = "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.";
    const hs_json_t *v = hs_json_get(c->r, "rules");
    double komi = 0;
    bool has_komi = false;
    int rc = v ? hs__arules(v, &c->q->rules, &komi, &has_komi) : HS_EINVAL;
    if (rc == HS_EINVAL)
        return s_err(c, "rules", "%s", need);
    if (rc) {
        char text[256];
        s_text(v, text, sizeof text);
        return s_err(c, "rules", rc == HS_EUNSUPPORTED ? "Rules not supported by hyeongse: %s"
                                                        : "Could not parse rules: %s", text);
    }
    c->q->komi = has_komi ? komi : hs_rules_get(c->q->rules).default_komi;
    const char *msg = "Must be a integer or half-integer from -400.0 to 400.0";
    if (hs_json_get(c->r, "komi") && !s_double(c, "komi", -400, 400, msg, &c->q->komi))
        return false;
    if (c->q->komi * 2 != (double)(long)(c->q->komi * 2))
        return s_err(c, "komi", "%s", msg);
    const hs_json_t *w = hs_json_get(c->r, "whiteHandicapBonus");
    const char *s;
    if (w && !hs_json_str(w, &s))
        return s_err(c, "whiteHandicapBonus", "Must be a string");
    if (w && (rc = hs__awhb(s, c->q->rules)))
        return s_err(c, "whiteHandicapBonus", rc == HS_EINVAL
                     ? "Must be \"0\", \"N\" or \"N-1\""
                     : "A handicap bonus other than the rules' own is not supported by hyeongse");
    return true;
}

static bool s_settings(s_ctx_t *c)
{
    const hs_json_t *v = hs_json_get(c->r, "overrideSettings");
    if (!v)
        return true;
    if (v->type != HS_JSON_OBJECT)
        return s_err(c, "overrideSettings", "Must be an object");
    char unknown[400], msg[480];
    const char *bad = "";
    if (hs__asettings(v, c->q, unknown, sizeof unknown, &bad))
        return s_err(c, "overrideSettings", "Could not set settings: bad value for %s", bad);
    if (unknown[0]) {
        snprintf(msg, sizeof msg, "Unknown config params: %s", unknown);
        s_warn(c, "overrideSettings", msg);
    }
    return true;
}

/* maxVisits .. priority, in KataGo's order. */
static bool s_options(s_ctx_t *c)
{
    hs__aquery_t *q = c->q;
    int64_t x;
    if (hs_json_get(c->r, "maxVisits")) {
        if (!s_int(c, "maxVisits", 1, (int64_t)1 << 30, "Must be an integer from 1 to 2^30", &x))
            return false;
        q->cfg.max_visits = (int)x;
    }
    if (hs_json_get(c->r, "analysisPVLen")) {
        if (!s_int(c, "analysisPVLen", 1, 1000, "Must be an integer from 1 to 1000", &x))
            return false;
        q->pv_len = (int)x;
    }
    if (hs_json_get(c->r, "rootFpuReductionMax") &&
        !s_double(c, "rootFpuReductionMax", 0, 2, "Must be a number from 0.0 to 2.0",
                  &q->cfg.root_fpu_reduction))
        return false;
    if (hs_json_get(c->r, "rootPolicyTemperature") &&
        !s_double(c, "rootPolicyTemperature", 0.01, 100, "Must be a number from 0.01 to 100.0",
                  &q->cfg.root_policy_temperature))
        return false;
    if (!s_bool(c, "includeMovesOwnership", &q->moves_own)
        || !s_bool(c, "includeMovesOwnershipStdev", &q->moves_own_stdev)
        || !s_bool(c, "includeOwnership", &q->own) || !s_bool(c, "includeOwnershipStdev", &q->own_stdev)
        || !s_bool(c, "includePolicy", &q->policy) || !s_bool(c, "includePVVisits", &q->pv_visits)
        || !s_bool(c, "includeNoResultValue", &q->no_result))
        return false;
    const char *secs = "Must be number of seconds from 0.001 to 1000000.0";
    if (hs_json_get(c->r, "reportDuringSearchEvery")) {
        if (!s_double(c, "reportDuringSearchEvery", 0.001, 1e6, secs, &q->report_every))
            return false;
        q->first_report = q->report_every;
    }
    if (hs_json_get(c->r, "firstReportDuringSearchAfter")) {
        if (!s_double(c, "firstReportDuringSearchAfter", 0.001, 1e6, secs, &q->first_report))
            return false;
        if (q->report_every == 0)
            q->report_every = 1e6;
    }
    if (hs_json_get(c->r, "priority")) {
        if (c->prios)
            return s_err(c, "priority", "Cannot specify both priority and priorities");
        if (!s_int(c, "priority", -0x3FFFffffFFFFffffLL, 0x3FFFffffFFFFffffLL,
                   "Must be a number between -2^62 and 2^62", &c->priority))
            return false;
    }
    return true;
}

/* avoidMoves / allowMoves (KataGo's avoidMoveUntilByLoc), with KataGo's
 * checks, messages and fields (those of an entry's parts name the part). */
static const char s_avoid_shape[] =
    "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";

/* An entry's moves marked in listed (by vertex, pass = size * size). */
static bool s_avoid_moves(s_ctx_t *c, const hs_json_t *a, bool *listed)
{
    static const char shape[] = "Must be an array of GTP board vertices";
    if (a->type != HS_JSON_ARRAY)
        return s_err(c, "moves", "%s", shape);
    hs_board_t b;
    hs_board_init(&b, c->q->size);
    for (const hs_json_t *e = a->child; e; e = e->next) {
        const char *s;
        hs_point_t p;
        if (!hs_json_str(e, &s))
            return s_err(c, "moves", "%s", shape);
        if (!s_loc(&b, s, &p))
            return s_err(c, "moves", "Could not parse board location: %s", s);
        int v = p == HS_PASS ? b.size * b.size : hs_board_y(&b, p) * b.size + hs_board_x(&b, p);
        listed[v] = true;
    }
    return true;
}

/* One entry into f; got: the colours an allowMoves entry was given for. */
static bool s_avoid_entry(s_ctx_t *c, const char *field, const hs_json_t *e, bool allow,
                          bool got[2], hs_mcts_filter_t *f)
{
    const hs_json_t *pl = hs_json_get(e, "player"), *mv = hs_json_get(e, "moves");
    const hs_json_t *ud = hs_json_get(e, "untilDepth");
    if (!pl || !mv || !ud)
        return s_err(c, field, "%s", s_avoid_shape);
    const char *s;
    hs_color_t col;
    if (!hs_json_str(pl, &s) || !s_player(s, &col))
        return s_err(c, "player", "Must be \"b\" or \"w\"");
    bool listed[HS_MCTS_MAX_MOVES] = { false };
    int64_t depth;
    if (!s_avoid_moves(c, mv, listed))
        return false;
    if (!hs_json_int(ud, 1, 1000000000, &depth))
        return s_err(c, "untilDepth", "Must be a positive integer");
    int32_t *until = f->until[col == HS_WHITE];
    if (allow && got[col == HS_WHITE])
        return s_err(c, field, "Cannot specify allowMoves more than once for the same player");
    got[col == HS_WHITE] = true;
    for (int k = 0; k < HS_MCTS_MAX_MOVES; k++)
        if (allow || listed[k])
            until[k] = allow && listed[k] ? 0 : (int32_t)depth;
    return true;
}

static bool s_avoid(s_ctx_t *c)
{
    const hs_json_t *allow = hs_json_get(c->r, "allowMoves");
    const hs_json_t *avoid = hs_json_get(c->r, "avoidMoves");
    if (!allow && !avoid)
        return true;
    if (allow && avoid)
        return s_err(c, "allowMoves", "Cannot specify both allowMoves and avoidMoves");
    const char *field = allow ? "allowMoves" : "avoidMoves";
    const hs_json_t *list = allow ? allow : avoid;
    if (list->type != HS_JSON_ARRAY)
        return s_err(c, field, "%s", s_avoid_shape);
    if (allow && list->count > 2)
        return s_err(c, field, "Currently allowMoves only allows at most one entry per player");
    if (!(c->q->filter = calloc(1, sizeof *c->q->filter)))
        return s_nomem(c);
    bool got[2] = { false, false };
    for (const hs_json_t *e = list->child; e; e = e->next)
        if (!s_avoid_entry(c, field, e, allow != NULL, got, c->q->filter))
            return false;
    return true;
}

/* Fields KataGo has that we read. */
static const char *const s_known[] = {
    "id", "action", "terminateId", "turnNumbers", "boardXSize", "boardYSize", "initialStones",
    "moves", "initialPlayer", "analyzeTurns", "priorities", "rules", "komi",
    "whiteHandicapBonus", "overrideSettings", "maxVisits", "analysisPVLen",
    "rootFpuReductionMax", "rootPolicyTemperature", "includeMovesOwnership",
    "includeMovesOwnershipStdev", "includeOwnership", "includeOwnershipStdev", "includePolicy",
    "includePVVisits", "includeNoResultValue", "reportDuringSearchEvery",
    "firstReportDuringSearchAfter", "priority", "allowMoves", "avoidMoves", NULL
};

static bool s_unknown_fields(s_ctx_t *c)
{
    if (!c->cfg->warn_unused_fields)
        return true;
    for (const hs_json_t *m = c->r->child; m; m = m->next) {
        int k = 0;
        while (s_known[k] && strcmp(s_known[k], m->key))
            k++;
        if (!s_known[k])
            s_warn(c, m->key, "Unexpected or unused field, do you have a typo? "
                              "(set warnUnusedFields=false in the config to disable this warning)");
    }
    return true;
}

/* Setup stones, first player, and every move replayed once. */
static bool s_position(s_ctx_t *c)
{
    hs__aquery_t *q = c->q;
    hs_gtp_move_t *setup = NULL;
    if (hs_json_get(c->r, "initialStones")) {
        if (!s_moves(c, "initialStones", false, &setup, &q->n_setup)) {
            free(setup);
            return false;
        }
        q->setup_pt = malloc((size_t)(q->n_setup + 1) * sizeof *q->setup_pt);
        q->setup_col = malloc((size_t)(q->n_setup + 1));
        for (int i = 0; q->setup_pt && q->setup_col && i < q->n_setup; i++) {
            q->setup_pt[i] = setup[i].point;
            q->setup_col[i] = (uint8_t)setup[i].color;
        }
        free(setup);
        if (!q->setup_pt || !q->setup_col)
            return s_nomem(c);
    }
    if (!hs_json_get(c->r, "moves"))
        return s_err(c, "moves", "Must specify an array of [player,location] pairs");
    if (!s_moves(c, "moves", true, &q->moves, &q->n_moves))
        return false;
    const hs_json_t *ip = hs_json_get(c->r, "initialPlayer");
    const char *s;
    q->first_player = HS_EMPTY;
    if (ip && (!hs_json_str(ip, &s) || !s_player(s, &q->first_player)))
        return s_err(c, "initialPlayer", "Must be \"b\" or \"w\"");
    return true;
}

/* The turn items, after the moves are checked by replaying them. */
static bool s_build(s_ctx_t *c, hs__aitem_t **item)
{
    hs__aquery_t *q = c->q;
    hs__aturn_t last = { .q = q, .turn = q->n_moves };
    hs_gtp_game_t g;
    hs_error_t err;
    int rc = hs__aturn_game(&last, &g, &err);
    hs_gtp_game_fini(&g);
    if (rc == HS_EILLEGAL)
        return s_err(c, "moves", "%s", err.msg);
    if (rc)
        return s_nomem(c);
    hs__aitem_t *it = calloc(1, sizeof *it);
    if (!it || !(it->turns = calloc((size_t)(c->n_turns + 1), sizeof *it->turns))) {
        free(it);
        return s_nomem(c);
    }
    it->kind = HS__AITEM_TURNS;
    /* In turn order, as KataGo queues them (a turn asked twice once). */
    for (int t = 0; t <= q->n_moves; t++) {
        int k = 0;
        while (k < c->n_turns && c->turns[k] != t)
            k++;
        if (k == c->n_turns)
            continue;
        hs__aturn_t *x = calloc(1, sizeof *x);
        if (!x) {
            hs__aitem_free(it);
            return s_nomem(c);
        }
        *x = (hs__aturn_t){ .q = q, .turn = t, .priority = c->prios ? c->prios[k] : c->priority };
        q->refs++;
        it->turns[it->n_turns++] = x;
    }
    *item = it;
    return true;
}

/* The whole query; false when it was answered with an error. */
static bool s_query(s_ctx_t *c, hs__aitem_t **item)
{
    hs__aquery_t *q = c->q;
    q->cfg = c->cfg->search;
    q->report_as = c->cfg->report_as;
    q->ignore_pre_root_history = c->cfg->ignore_pre_root_history;
    q->pv_len = HS_MCTS_PV_MAX - 1;
    if (!s_size(c) || !s_position(c) || !s_turns(c) || !s_rules(c) || !s_settings(c)
        || !s_options(c) || !s_avoid(c) || !s_unknown_fields(c))
        return false;
    return s_build(c, item);
}

int hs__analysis_query(const hs_analysis_config_t *cfg, hs__aout_t *o, const hs_json_t *r,
                       const char *id, long seq, hs__aitem_t **item)
{
    *item = NULL;
    hs__aquery_t *q = calloc(1, sizeof *q);
    char *idc = strdup(id);
    if (!q || !idc) {
        free(q);
        free(idc);
        hs__aout_error(o, id, "id", "out of memory", false);
        return HS_ENOMEM;
    }
    q->id = idc;
    q->seq = seq;
    q->refs = 1;   /* ours until the turns hold it */
    s_ctx_t c = { .cfg = cfg, .o = o, .r = r, .id = id, .q = q };
    s_query(&c, item);
    free(c.turns);
    free(c.prios);
    hs__aquery_unref(q);
    return 0;
}

void hs__aquery_unref(hs__aquery_t *q)
{
    if (!q || --q->refs > 0)
        return;
    free(q->id);
    free(q->setup_pt);
    free(q->setup_col);
    free(q->moves);
    free(q->filter);
    free(q);
}

void hs__aitem_free(hs__aitem_t *it)
{
    if (!it)
        return;
    for (int i = 0; i < it->n_turns; i++) {
        hs__aquery_unref(it->turns[i]->q);
        free(it->turns[i]);
    }
    free(it->turns);
    free(it->terminate_id);
    free(it->turn_numbers);
    free(it);
}
