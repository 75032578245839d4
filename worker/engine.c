/*
 * worker/engine.c — the engine registry and the two built-in engines.
 *
 * "noop"  fills nothing but a zero score: it measures the cluster's own
 *         overhead (bench/broker.sh).
 * "area"  a Tromp-Taylor area count with no dead-stone removal: a cheap real
 *         engine that every build has.
 * Engines written elsewhere in worker/ (influence, judge, net, mcts) are
 * listed in s_registry through the vtables their headers export.
 */
#include "worker/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker/engine_plugins.h"

/* ------------------------------------------------------------------ noop */

/* noop's one option, "delay_us=N": sleep N µs per position, so reliability
 * tests can make a job last long enough to kill things in the middle of it. */
typedef struct s_noop {
    long delay_us;
} s_noop_t;

static int s_noop_create(const hs_engine_config_t *cfg, void **state, hs_error_t *err)
{
    long delay = 0;
    const char *o = cfg->options ? strstr(cfg->options, "delay_us=") : NULL;
    if (o)
        delay = strtol(o + 9, NULL, 10);
    if (delay <= 0) {
        *state = NULL;
        return 0;
    }
    s_noop_t *s = malloc(sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    s->delay_us = delay > 1000000 ? 1000000 : delay;
    *state = s;
    return 0;
}

static void s_noop_destroy(void *state)
{
    free(state);
}

static void s_nothing_destroy(void *state) {}

static int s_noop_evaluate(void *state, const hs_engine_pos_t *pos, int n,
                           hs_engine_result_t *out, hs_error_t *err)
{
    const s_noop_t *s = state;
    if (s) {
        long ns = s->delay_us * 1000L * n;
        struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < n; i++) {
        out[i].flags = HS_ENGINE_HAS_SCORE;
        out[i].score = 0.0f;
        out[i].num_vertices = 0;
    }
    return 0;
}

static const hs_engine_option_t s_noop_options[] = {
    { "delay_us", 0, 1000000, HS_ENGINE_OPT_INT },
    { NULL, 0, 0, HS_ENGINE_OPT_INT },
};

static const hs_engine_vtable_t s_noop_vt = {
    .name = "noop", .revision = 1, .max_batch = 256, .options = s_noop_options,
    .create = s_noop_create, .destroy = s_noop_destroy, .evaluate = s_noop_evaluate,
};

/* ------------------------------------------------------------------ area */

void hs_engine_area_count(const hs_board_t *b, float *black, float *white,
                          int8_t *ownership)
{
    /* Flood fill each empty region once; a region touching only one colour
     * belongs to it. stack/seen are sized for the largest board. */
    static const int8_t s_none = 0;
    uint8_t seen[HS_BOARD_MAX_POINTS];
    hs_point_t stack[HS_BOARD_MAX_POINTS], region[HS_BOARD_MAX_POINTS];
    int n = hs_board_num_points(b);
    int pts[3] = { 0, 0, 0 };
    memset(seen, 0, (size_t)n);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            hs_point_t p = hs_board_point(b, x, y);
            int v = y * b->size + x;
            hs_color_t c = (hs_color_t)b->color[p];
            if (c == HS_BLACK || c == HS_WHITE) {
                pts[c]++;
                if (ownership)
                    ownership[v] = c == HS_BLACK ? 100 : -100;
                continue;
            }
            if (seen[p])
                continue;
            int sp = 0, nr = 0, touch = 0;
            stack[sp++] = p;
            seen[p] = 1;
            while (sp) {
                hs_point_t q = stack[--sp];
                region[nr++] = q;
                const hs_point_t nb[4] = { (hs_point_t)(q - b->stride), (hs_point_t)(q - 1),
                                           (hs_point_t)(q + 1), (hs_point_t)(q + b->stride) };
                for (int k = 0; k < 4; k++) {
                    hs_color_t nc = (hs_color_t)b->color[nb[k]];
                    if (nc == HS_EMPTY && !seen[nb[k]]) {
                        seen[nb[k]] = 1;
                        stack[sp++] = nb[k];
                    } else if (nc == HS_BLACK || nc == HS_WHITE) {
                        touch |= nc;
                    }
                }
            }
            int owner = touch == HS_BLACK ? HS_BLACK : touch == HS_WHITE ? HS_WHITE : 0;
            if (owner)
                pts[owner] += nr;
            if (ownership)
                for (int i = 0; i < nr; i++) {
                    int rv = hs_board_y(b, region[i]) * b->size + hs_board_x(b, region[i]);
                    ownership[rv] = owner == HS_BLACK ? 100 : owner == HS_WHITE ? -100 : s_none;
                }
        }
    *black = (float)pts[HS_BLACK];
    *white = (float)pts[HS_WHITE];
}

static int s_area_evaluate(void *state, const hs_engine_pos_t *pos, int n,
                           hs_engine_result_t *out, hs_error_t *err)
{
    for (int i = 0; i < n; i++) {
        hs_engine_result_t *r = &out[i];
        const hs_board_t *b = pos[i].board;
        hs_engine_area_count(b, &r->black_points, &r->white_points, r->ownership);
        r->score = r->black_points - r->white_points - (float)pos[i].game->komi;
        r->num_vertices = b->size * b->size;
        r->flags = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_OWNERSHIP;
    }
    return 0;
}

static int s_nothing_create(const hs_engine_config_t *cfg, void **state, hs_error_t *err)
{
    *state = NULL;
    return 0;
}

static const hs_engine_vtable_t s_area_vt = {
    .name = "area", .revision = 1, .max_batch = 64,
    .create = s_nothing_create, .destroy = s_nothing_destroy, .evaluate = s_area_evaluate,
};

/* -------------------------------------------------------------- registry */

static const hs_engine_vtable_t *const s_registry[] = {
    &s_noop_vt,
    &s_area_vt,
    HS_ENGINE_PLUGIN_LIST
};

int hs_engine_count(void)
{
    return (int)(sizeof s_registry / sizeof s_registry[0]);
}

const hs_engine_vtable_t *hs_engine_at(int i)
{
    return i >= 0 && i < hs_engine_count() ? s_registry[i] : NULL;
}

const hs_engine_vtable_t *hs_engine_find(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < hs_engine_count(); i++)
        if (!strcmp(s_registry[i]->name, name))
            return s_registry[i];
    return NULL;
}

const char *hs_engine_list(char *buf, int size)
{
    int len = 0;
    buf[0] = '\0';
    for (int i = 0; i < hs_engine_count() && len < size; i++)
        len += snprintf(buf + len, (size_t)(size - len), "%s%s", i ? "," : "",
                        s_registry[i]->name);
    return buf;
}

/* One spec of a list, "name[@R][:options]", split. */
typedef struct s_spec {
    char name[HS_ENGINE_NAME_MAX];
    const hs_engine_vtable_t *vt;
    int revision;               /* asked for, or this build's when the spec gives none */
    const char *options;        /* after ':', or NULL; copts when canonical is set */
    size_t options_len;
    bool canonical;             /* options rewritten into copts (s_options_canonical) */
    char copts[HS_ENGINE_OPTIONS_TEXT_MAX];
} s_spec_t;

static int s_revision_of(const hs_engine_vtable_t *vt)
{
    return vt->revision > 1 ? vt->revision : 1;
}

/* Checks one "key=value" (syntax already checked) against the engine's table. */
static int s_option_check(const s_spec_t *sp, const char *e, size_t n, int len, const char *s,
                          hs_error_t *err)
{
    const char *eq = memchr(e, '=', n);
    size_t klen = (size_t)(eq - e);
    for (const hs_engine_option_t *o = sp->vt->options; o && o->key; o++) {
        if (strlen(o->key) != klen || memcmp(o->key, e, klen))
            continue;
        char v[HS_ENGINE_OPTION_MAX + 1], *end;
        memcpy(v, eq + 1, n - klen - 1);
        v[n - klen - 1] = '\0';
        if (o->kind == HS_ENGINE_OPT_HASH) {
            /* Lowercase only: one net, one spec text, one engine id. */
            bool ok = strlen(v) == HS_ENGINE_HASH_LEN;
            for (int i = 0; ok && v[i]; i++)
                ok = (v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f');
            if (!ok)
                return hs_error_set(err, HS_EINVAL, "engine '%.*s': option %s needs %d "
                                    "lowercase hex digits (a net's hash), not '%s'", len, s,
                                    o->key, HS_ENGINE_HASH_LEN, v);
            return 0;
        }
        errno = 0;
        long x = strtol(v, &end, 10);
        if (*end || errno || x < o->min || x > o->max)
            return hs_error_set(err, HS_EINVAL, "engine '%.*s': option %s needs a whole number "
                                "from %ld to %ld, not '%s'", len, s, o->key, o->min, o->max, v);
        return 0;
    }
    char known[160] = "none";
    int used = 0;
    for (const hs_engine_option_t *o = sp->vt->options; o && o->key && used < 150; o++)
        used += snprintf(known + used, sizeof known - (size_t)used, "%s%s", used ? ", " : "",
                         o->key);
    return hs_error_set(err, HS_EINVAL, "engine '%.*s': %s has no option '%.*s' (options: %s)",
                        len, s, sp->name, (int)klen, e, known);
}

/* The options of a split spec: their syntax (core/poskey.h, as the broker checks
 * it) and, for this build's revision, each one against the engine's table. A
 * spec of another revision is meant for workers of another build, whose
 * options this build cannot know. */
static int s_options_check(const s_spec_t *sp, int len, const char *s, hs_error_t *err)
{
    hs_error_t e2 = { 0 };
    if (hs_engine_options_syntax(sp->options, sp->options_len, &e2))
        return hs_error_set(err, HS_EINVAL, "engine '%.*s': %s", len, s, e2.msg);
    if (sp->revision != s_revision_of(sp->vt))
        return 0;
    const char *p = sp->options, *end = sp->options + sp->options_len;
    for (;;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        int rc = s_option_check(sp, p, comma ? (size_t)(comma - p) : (size_t)(end - p), len, s,
                                err);
        if (rc || !comma)
            return rc;
        p = comma + 1;
    }
}

/* The default of an integer option, when the engine gives one. */
static bool s_default_of(const hs_engine_vtable_t *vt, const char *key, long *value)
{
    for (const hs_engine_option_default_t *d = vt->defaults; d && d->key; d++)
        if (!strcmp(d->key, key)) {
            *value = d->value;
            return true;
        }
    return false;
}

/* The value of key in sp's options, or NULL; *n its length. */
static const char *s_option_value(const s_spec_t *sp, const char *key, size_t *n)
{
    size_t klen = strlen(key);
    const char *p = sp->options, *end = p + sp->options_len;
    while (p && p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t len = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (len > klen && p[klen] == '=' && !memcmp(p, key, klen)) {
            *n = len - klen - 1;
            return p + klen + 1;
        }
        p = comma ? comma + 1 : NULL;
    }
    return NULL;
}

/* The options (checked) of an engine with defaults, rewritten into sp->copts:
 * in the table's order, numbers as %ld, a value equal to its default left
 * out ("mcts:visits=200" is "mcts"), so that one configuration has one spec
 * text and one engine id however it was written. */
static int s_options_canonical(s_spec_t *sp, hs_error_t *err)
{
    size_t used = 0;
    for (const hs_engine_option_t *o = sp->vt->options; o && o->key; o++) {
        size_t n = 0;
        const char *v = s_option_value(sp, o->key, &n);
        if (!v)
            continue;
        char val[HS_ENGINE_OPTION_MAX + 1];
        snprintf(val, sizeof val, "%.*s", (int)n, v);
        if (o->kind == HS_ENGINE_OPT_INT) {
            long x = strtol(val, NULL, 10), def;
            if (s_default_of(sp->vt, o->key, &def) && x == def)
                continue;
            snprintf(val, sizeof val, "%ld", x);
        }
        int w = snprintf(sp->copts + used, sizeof sp->copts - used, "%s%s=%s", used ? "," : "",
                         o->key, val);
        if (w < 0 || (size_t)w >= sizeof sp->copts - used)
            return hs_error_set(err, HS_EINVAL, "engine %s: options too long", sp->name);
        used += (size_t)w;
    }
    sp->canonical = true;
    sp->options = used ? sp->copts : NULL;
    sp->options_len = used;
    return 0;
}

/* Splits the spec s[0..len) (a list entry, or a whole "name[@R]" string): the
 * syntax by hs_engine_spec_split (core/poskey.h, the broker checks with it too),
 * then the name looked up among the registered engines. */
static int s_spec_parse(const char *s, size_t len, const char *list, s_spec_t *sp,
                        hs_error_t *err)
{
    hs_engine_spec_t split;
    int bad = hs_engine_spec_split(s, len, &split);
    if (split.name_len == 0 || split.name_len >= HS_ENGINE_NAME_MAX)
        return hs_error_set(err, HS_EINVAL, "bad engine name in '%s'", list);
    memcpy(sp->name, s, split.name_len);
    sp->name[split.name_len] = '\0';
    if (!(sp->vt = hs_engine_find(sp->name))) {
        char known[256];
        return hs_error_set(err, HS_ENOTFOUND, "unknown engine '%s' (known: %s)", sp->name,
                            hs_engine_list(known, sizeof known));
    }
    if (bad)
        return hs_error_set(err, HS_EINVAL, "bad revision in engine '%.*s' (name@R, R in 1..%d)",
                            (int)len, s, HS_ENGINE_MAX_REVISION);
    sp->revision = split.revision ? split.revision : s_revision_of(sp->vt);
    sp->options = split.options;
    sp->options_len = split.options_len;
    sp->canonical = false;
    int rc = sp->options ? s_options_check(sp, (int)len, s, err) : 0;
    if (rc == 0 && sp->options && sp->revision == s_revision_of(sp->vt) &&
        sp->vt->defaults)
        rc = s_options_canonical(sp, err);
    return rc;
}

/* Walks a list: checks every spec and, when out is set, writes the canonical list. */
static int s_list_walk(const char *list, int max, unsigned flags, char *out, size_t size,
                       hs_error_t *err)
{
    if (!list || !*list)
        return hs_error_set(err, HS_EINVAL, "empty engine list");
    s_spec_t seen[16];
    int count = 0;
    size_t used = 0;
    if (out && size)
        out[0] = '\0';
    const char *s = list;
    for (;;) {
        size_t len = hs_engine_list_entry(s);
        const char *e = s[len] == ',' ? s + len : NULL;
        if (count >= max || count >= 16)
            return hs_error_set(err, HS_EINVAL, "too many engines in '%s' (at most %d)",
                                list, max < 16 ? max : 16);
        s_spec_t sp;
        int rc = s_spec_parse(s, len, list, &sp, err);
        if (rc < 0)
            return rc;
        if ((flags & HS_ENGINE_THIS_BUILD) && sp.revision != s_revision_of(sp.vt))
            return hs_error_set(err, HS_EINVAL,
                                "engine '%.*s': this build computes %s revision %d, not %d",
                                (int)len, s, sp.name, s_revision_of(sp.vt), sp.revision);
        /* Twice = the same canonical spec ("judge" and "judge@1" are one). */
        for (int i = 0; i < count; i++)
            if (seen[i].vt == sp.vt && seen[i].revision == sp.revision &&
                !seen[i].options == !sp.options && seen[i].options_len == sp.options_len &&
                (!sp.options_len || !memcmp(seen[i].options, sp.options, sp.options_len)))
                return hs_error_set(err, HS_EINVAL, "engine '%.*s' listed twice", (int)len, s);
        seen[count] = sp;
        if (sp.canonical && sp.options)   /* it pointed into the local copy */
            seen[count].options = seen[count].copts;
        count++;
        if (out) {
            char rev[16] = "";
            if (sp.revision > 1)
                snprintf(rev, sizeof rev, "@%d", sp.revision);
            int n = snprintf(out + used, size - used, "%s%s%s%s%.*s", count > 1 ? "," : "",
                             sp.name, rev, sp.options ? ":" : "", (int)sp.options_len,
                             sp.options ? sp.options : "");
            if (n < 0 || (size_t)n >= size - used)
                return hs_error_set(err, HS_EINVAL, "engine list '%s' too long", list);
            used += (size_t)n;
        }
        if (!e)
            break;
        s = e + 1;
    }
    return 0;
}

int hs_engine_check_list(const char *list, int max, hs_error_t *err)
{
    return s_list_walk(list, max, 0, NULL, 0, err);
}

int hs_engine_canonical_list(const char *list, int max, unsigned flags, char *out,
                             size_t size, hs_error_t *err)
{
    if (!out || size == 0)
        return hs_error_set(err, HS_EINVAL, "no room for the engine list");
    return s_list_walk(list, max, flags, out, size, err);
}

int hs_engine_init(hs_engine_t *eng, const char *name, const hs_engine_config_t *cfg,
                   hs_error_t *err)
{
    static const hs_engine_config_t s_default = { .threads = 1, .gpu = -1 };
    eng->vt = NULL;
    eng->state = NULL;
    if (!name)
        return hs_error_set(err, HS_ENOTFOUND, "unknown engine ''");
    s_spec_t sp;
    int rc = s_spec_parse(name, strlen(name), name, &sp, err);
    if (rc < 0)
        return rc;
    if (sp.options)
        return hs_error_set(err, HS_EINVAL, "engine '%s': options go in the config", name);
    if (sp.revision != s_revision_of(sp.vt))
        return hs_error_set(err, HS_EINVAL, "engine '%s': this build computes %s revision %d",
                            name, sp.name, s_revision_of(sp.vt));
    if (cfg && cfg->options) {
        sp.options = cfg->options;
        sp.options_len = strlen(cfg->options);
        rc = s_options_check(&sp, (int)strlen(name), name, err);
        if (rc < 0)
            return rc;
    }
    rc = sp.vt->create(cfg ? cfg : &s_default, &eng->state, err);
    if (rc < 0)
        return rc;
    eng->vt = sp.vt;
    return 0;
}

void hs_engine_fini(hs_engine_t *eng)
{
    if (eng && eng->vt) {
        eng->vt->destroy(eng->state);
        eng->vt = NULL;
        eng->state = NULL;
    }
}

int hs_engine_evaluate(hs_engine_t *eng, const hs_engine_pos_t *pos, int n,
                       hs_engine_result_t *out, hs_error_t *err)
{
    if (n <= 0)
        return 0;
    return eng->vt->evaluate(eng->state, pos, n, out, err);
}

double hs_engine_helper_cpu(const hs_engine_t *eng)
{
    return eng->vt && eng->vt->helper_cpu ? eng->vt->helper_cpu(eng->state) : 0.0;
}

void hs_engine_eval_counts(const hs_engine_t *eng, long *calls, long *leaves)
{
    *calls = *leaves = 0;
    if (eng->vt && eng->vt->eval_counts)
        eng->vt->eval_counts(eng->state, calls, leaves);
}
