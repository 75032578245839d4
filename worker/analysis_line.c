/*
 * worker/analysis_line.c — one input line of the analysis protocol: the
 * JSON, the id, the special actions (query_version, query_models,
 * clear_cache, terminate, terminate_all), else a query
 * (analysis_query.c). Also the replay of a turn's position, which the query
 * reader and the search share.
 *
 * Actions are echoed as KataGo does: the request's own fields, plus what the
 * action adds. Messages for lines that are not a request follow KataGo's
 * wording (command/analysis.cpp), so scripts matching them keep working.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "worker/analysis_internal.h"

bool hs__ajson_whole(const hs_json_t *v, int64_t lo, int64_t hi, int64_t *out)
{
    double x;
    if (hs_json_int(v, lo, hi, out))
        return true;
    if (!hs_json_double(v, (double)lo, (double)hi, &x) || x != floor(x) || fabs(x) >= 0x1p63)
        return false;
    int64_t i = (int64_t)x;
    if (i < lo || i > hi)   /* (double)hi may have rounded up */
        return false;
    *out = i;
    return true;
}

/* The request's members (then the caller adds its own and closes). */
static void s_echo_open(hs__aout_t *o, const hs_json_t *r)
{
    hs__aout_lock(o);
    fputc('{', o->f);
    for (const hs_json_t *m = r->child; m; m = m->next) {
        if (m != r->child)
            fputc(',', o->f);
        hs_json_string(o->f, m->key);
        fputc(':', o->f);
        hs_json_write(o->f, m);
    }
}

static void s_echo_close(hs__aout_t *o)
{
    fputc('}', o->f);
    hs__aout_unlock(o);
}

static void s_version(const hs_analysis_config_t *cfg, hs__aout_t *o, const hs_json_t *r)
{
    s_echo_open(o, r);
    fputs(",\"version\":", o->f);
    hs_json_string(o->f, cfg->version ? cfg->version : HS_VERSION);
    fputs(",\"git_hash\":", o->f);
    hs_json_string(o->f, cfg->git_hash ? cfg->git_hash : "<omitted>");
    s_echo_close(o);
}

static void s_models(const hs_analysis_config_t *cfg, hs__aout_t *o, const hs_json_t *r)
{
    s_echo_open(o, r);
    fputs(",\"models\":[", o->f);
    if (cfg->model_file) {
        fputs("{\"name\":", o->f);
        hs_json_string(o->f, cfg->model_file);
        fputs(",\"internalName\":", o->f);
        hs_json_string(o->f, cfg->model_name ? cfg->model_name : "");
        fprintf(o->f, ",\"maxBatchSize\":%d,\"usesHumanSLProfile\":false,\"version\":%d,"
                      "\"usingFP16\":\"false\"}",
                cfg->eval ? cfg->eval->max_batch : 1, cfg->model_version);
    }
    fputc(']', o->f);
    s_echo_close(o);
}

/* terminate / terminate_all: acknowledged now, applied by the search thread. */
static int s_terminate(hs__aout_t *o, const hs_json_t *r, const char *id, bool all,
                       hs__aitem_t **item)
{
    const char *tid = NULL;
    if (!all && !hs_json_str(hs_json_get(r, "terminateId"), &tid)) {
        hs__aout_error(o, id, "terminateId",
                       "Requests for a terminate action must have a string \"terminateId\" field",
                       false);
        return 0;
    }
    const hs_json_t *tn = hs_json_get(r, "turnNumbers");
    static const char tn_msg[] = "If provided, must be an array of integers indicating turns to terminate";
    if (tn && tn->type != HS_JSON_ARRAY) {
        hs__aout_error(o, id, "turnNumbers", tn_msg, false);
        return 0;
    }
    hs__aitem_t *it = calloc(1, sizeof *it);
    if (!it)
        goto nomem;
    it->kind = HS__AITEM_TERMINATE;
    if (tid && !(it->terminate_id = strdup(tid)))
        goto nomem;
    if (tn) {
        if (!(it->turn_numbers = malloc((size_t)(tn->count + 1) * sizeof(int))))
            goto nomem;
        for (const hs_json_t *e = tn->child; e; e = e->next) {
            int64_t x;
            if (!hs__ajson_whole(e, INT32_MIN, INT32_MAX, &x)) {
                hs__aitem_free(it);
                hs__aout_error(o, id, "turnNumbers", tn_msg, false);
                return 0;
            }
            it->turn_numbers[it->n_turn_numbers++] = (int)x;
        }
    }
    s_echo_open(o, r);
    s_echo_close(o);
    *item = it;
    return 0;
nomem:
    hs__aitem_free(it);
    hs__aout_error(o, id, NULL, "out of memory", false);
    return HS_ENOMEM;
}

static int s_action(const hs_analysis_config_t *cfg, hs__aout_t *o, const hs_json_t *r,
                    const char *id, const char *action, hs__aitem_t **item)
{
    if (!strcmp(action, "query_version"))
        s_version(cfg, o, r);
    else if (!strcmp(action, "query_models"))
        s_models(cfg, o, r);
    else if (!strcmp(action, "clear_cache")) {
        /* No evaluation cache to clear: the evaluators keep none. */
        s_echo_open(o, r);
        s_echo_close(o);
    } else if (!strcmp(action, "terminate") || !strcmp(action, "terminate_all"))
        return s_terminate(o, r, id, !strcmp(action, "terminate_all"), item);
    else
        hs__aout_error(o, NULL, NULL, "'action' field must be 'query_version' or 'query_models' "
                                      "or 'clear_cache' or 'terminate' or 'terminate_all'", false);
    return 0;
}

/* A short, printable copy of a bad line for its error message. */
static void s_bad_line(hs__aout_t *o, const char *line, size_t len, const char *why)
{
    char msg[HS_ERROR_MSG_MAX + 300];
    int n = len > 200 ? 200 : (int)len;
    snprintf(msg, sizeof msg, "%s - could not parse input line as json request: %.*s%s", why, n,
             line, len > 200 ? "..." : "");
    /* A NUL in the line would cut the copy short; that is fine for a message. */
    hs__aout_error(o, NULL, NULL, msg, false);
}

/* KataGo's words for valid JSON that is not a request object. */
static void s_not_object(hs__aout_t *o, const hs_json_t *r)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (f) {
        fputs("Request line was valid json but was not an object, ignoring: ", f);
        hs_json_write(f, r);
        fclose(f);
    }
    hs__aout_error(o, NULL, NULL, text ? text : "Request line was valid json but was not an object",
                   false);
    free(text);
}

int hs__analysis_line(const hs_analysis_config_t *cfg, hs__aout_t *o, const char *line,
                      size_t len, long seq, hs__aitem_t **item)
{
    *item = NULL;
    /* A UTF-8 byte order mark opening the line (an editor's or a Windows
     * tool's) is skipped, as KataGo's JSON reader skips it at each line. */
    if (len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) {
        line += 3;
        len -= 3;
    }
    size_t k = 0;
    while (k < len && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r'))
        k++;
    if (k == len)
        return 0;   /* blank lines are skipped, as KataGo skips them */
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    int rc = hs_json_parse(line, len, NULL, &d, &err);
    if (rc == HS_ENOMEM) {
        hs__aout_error(o, NULL, NULL, "out of memory reading a request", false);
        return rc;
    }
    if (rc) {
        s_bad_line(o, line, len, err.msg);
        return 0;
    }
    const hs_json_t *r = hs_json_root(d);
    const char *id = NULL, *action = NULL;
    if (r->type != HS_JSON_OBJECT)
        s_not_object(o, r);
    else if (!hs_json_str(hs_json_get(r, "id"), &id))
        hs__aout_error(o, NULL, NULL, "Request must have a string \"id\" field", false);
    else if (hs_json_str(hs_json_get(r, "action"), &action))
        rc = s_action(cfg, o, r, id, action, item);
    else
        rc = hs__analysis_query(cfg, o, r, id, seq, item);
    hs_json_free(&d);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The id of a line too long to parse                                  */

/* The scanner below walks the kept head of a line without parsing it (it is
 * cut, so no parser would take it): only far enough to find the object's own
 * "id" member, skipping the values before it. S_CUT: the head ended first. */
#define S_CUT ((size_t)-1)

static size_t s_skip_ws(const char *p, size_t i, size_t len)
{
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i;
}

/* Past the string that opens at p[i] ('"'): escapes are stepped over, not
 * checked (the id found is parsed properly afterwards). */
static size_t s_skip_string(const char *p, size_t i, size_t len)
{
    for (i++; i < len; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return S_CUT;
}

/* Past the value at p[i]: a string, an array or object (strings inside may
 * hold brackets), or a bare word (number, true, false, null), which ends at
 * the ',' or '}' after it. */
static size_t s_skip_value(const char *p, size_t i, size_t len)
{
    int depth = 0;
    while (i < len) {
        char c = p[i];
        if (c == '"') {
            i = s_skip_string(p, i, len);
            if (i == S_CUT || depth == 0)
                return i;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;   /* a bare word's end: the object's own '}' */
            if (--depth == 0)
                return i + 1;
        } else if (c == ',' && depth == 0) {
            return i;       /* a bare word's end */
        }
        i++;
    }
    return S_CUT;
}

/* The value of the top-level "id" member of the object p[0..len) opens:
 * *at and *n, true; false when the head ends first or is not an object. The
 * first "id" is taken (a parser takes the last: a repeated id is the
 * client's confusion either way). */
static bool s_find_id(const char *p, size_t len, size_t *at, size_t *n)
{
    size_t i = len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3) ? 3 : 0;
    i = s_skip_ws(p, i, len);
    if (i >= len || p[i] != '{')
        return false;
    for (i++;;) {
        i = s_skip_ws(p, i, len);
        if (i >= len || p[i] != '"')
            return false;   /* the end of the object ('}'), or not an object */
        size_t key = i;
        if ((i = s_skip_string(p, i, len)) == S_CUT)
            return false;
        bool is_id = i - key == 4 && !memcmp(p + key, "\"id\"", 4);
        i = s_skip_ws(p, i, len);
        if (i >= len || p[i] != ':')
            return false;
        i = s_skip_ws(p, i + 1, len);
        size_t end = s_skip_value(p, i, len);
        if (end == S_CUT)
            return false;
        if (is_id) {
            *at = i;
            *n = end - i;
            return true;
        }
        i = s_skip_ws(p, end, len);
        if (i >= len || p[i] != ',')
            return false;
        i++;
    }
}

void hs__analysis_too_long(hs__aout_t *o, const char *head, size_t len, const char *msg)
{
    size_t at, n;
    hs_json_doc_t *d = NULL;
    hs_error_t err;
    const hs_json_t *id = NULL;
    /* The value parsed on its own: a bare word that is not a number, or a
     * string that is not valid (bad escapes, bytes that are not UTF-8), is
     * no id, and the error goes out without one, as before. */
    if (s_find_id(head, len, &at, &n) && hs_json_parse(head + at, n, NULL, &d, &err) == 0) {
        id = hs_json_root(d);
        if (id->type != HS_JSON_STRING && id->type != HS_JSON_NUMBER)
            id = NULL;
    }
    hs__aout_error_value_id(o, id, msg);
    hs_json_free(&d);
}

int hs__aturn_game(const hs__aturn_t *t, hs_gtp_game_t *g, hs_error_t *err)
{
    const hs__aquery_t *q = t->q;
    int rc = hs_gtp_game_init(g, q->size, q->rules, q->komi, err);
    if (rc)
        return rc;
    if (q->n_setup && hs_board_set_stones(&g->start, q->setup_pt, q->setup_col, q->n_setup))
        return hs_error_set(err, HS_EINVAL, "bad initial stones");
    hs_gtp_game_count_setup(g);
    /* KataGo's reading of setup stones: Black's alone (2 or more) are a
     * handicap, and White then moves first (the handicap itself is the
     * game's to count: worker/gtp_game.c, s_count_handicap). */
    bool handicap = g->setup_white == 0 && g->setup_black >= 2;
    hs_color_t first = q->first_player;
    if (first == HS_EMPTY)
        first = q->n_moves ? q->moves[0].color : handicap ? HS_WHITE : HS_BLACK;
    g->start.to_move = first;
    if ((rc = hs_gtp_game_set_rules(g, q->rules, err)))
        return rc;
    for (int i = 0; i < t->turn; i++) {
        hs_illegal_t why;
        rc = hs_gtp_game_replay(g, q->moves[i].color, q->moves[i].point, &why, err);
        if (rc == HS_EILLEGAL) {
            char name[8];
            return hs_error_set(err, rc, "Illegal move %d: %s", i,
                                hs_board_point_name(&g->board, q->moves[i].point, name));
        }
        if (rc)
            return rc;
    }
    return 0;
}
