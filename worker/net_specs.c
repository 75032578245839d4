/*
 * worker/net_specs.c — `--engines net --net FILE` into "net:net=<hash>", and
 * the nets a command loads (worker/net_specs.h).
 */
#include "worker/net_specs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/poskey.h"
#include "core/wire.h"

bool hs_net_engine_name(const char *name, size_t len)
{
    return (len == 3 && !memcmp(name, "net", 3)) || (len == 9 && !memcmp(name, "judge-net", 9));
}

bool hs_net_engine_optional(const char *name, size_t len)
{
    return len == 4 && !memcmp(name, "mcts", 4);
}

/* The value of option key in opts[0..len) ("k=v,k=v"), or NULL; *n its length. */
static const char *s_opt(const char *opts, size_t len, const char *key, size_t *n)
{
    size_t klen = strlen(key);
    for (const char *p = opts, *end = opts + len; p && p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t m = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (m > klen && p[klen] == '=' && !memcmp(p, key, klen)) {
            *n = m - klen - 1;
            return p + klen + 1;
        }
        p = comma ? comma + 1 : NULL;
    }
    return NULL;
}

/* Appends s[0..len) to out at *at; false when it does not fit (with the NUL). */
static bool s_put(char *out, size_t size, size_t *at, const char *s, size_t len)
{
    if (*at + len >= size)
        return false;
    memcpy(out + *at, s, len);
    *at += len;
    out[*at] = '\0';
    return true;
}

/* One net engine spec s[0..len) whose options (opts, NULL = none) must be only
 * net=<hash>: kept as is, or expanded into one spec per hash when it has none. */
static int s_net_spec(const char *s, size_t len, const hs_engine_spec_t *sp,
                      const char *const *hashes, int n, char *out, size_t size, size_t *at,
                      hs_error_t *err)
{
    if (sp->options) {
        if (sp->options_len < 4 || memcmp(sp->options, "net=", 4)
            || !hs_wire_net_hash_valid(sp->options + 4, sp->options_len - 4))
            return hs_error_set(err, HS_EINVAL, "engine spec '%.*s': a net engine's option is "
                                "net=<%d lowercase hex digits>, the net's hash (or net=FILE, "
                                "a model file)", (int)len, s, HS_WIRE_NET_HASH_LEN);
        return s_put(out, size, at, s, len) ? 0 : HS_ELIMIT;
    }
    if (n <= 0)
        return hs_error_set(err, HS_EINVAL, "engine '%.*s' runs a net: give --net FILE "
                            "(or the spec %.*s:net=<hash>)", (int)len, s, (int)len, s);
    for (int i = 0; i < n; i++) {
        if (!hashes[i] || !hs_wire_net_hash_valid(hashes[i], strlen(hashes[i])))
            return hs_error_set(err, HS_EINVAL, "not a net hash: '%s'",
                                hashes[i] ? hashes[i] : "(null)");
        if ((i && !s_put(out, size, at, ",", 1)) || !s_put(out, size, at, s, len)
            || !s_put(out, size, at, ":net=", 5)
            || !s_put(out, size, at, hashes[i], HS_WIRE_NET_HASH_LEN))
            return HS_ELIMIT;
    }
    return 0;
}

/* A spec of an engine that may run a net (mcts): its net= is a hash when
 * given; without one it is bound to every loaded net, one spec each
 * (",net=<hash>" appended), or kept as it is (rollouts) when none is. */
static int s_optional_spec(const char *s, size_t len, const hs_engine_spec_t *sp,
                           const char *const *hashes, int n, char *out, size_t size,
                           size_t *at, bool *used, hs_error_t *err)
{
    size_t hl = 0;
    const char *h = sp->options ? s_opt(sp->options, sp->options_len, "net", &hl) : NULL;
    if (h && !hs_wire_net_hash_valid(h, hl))
        return hs_error_set(err, HS_EINVAL, "engine spec '%.*s': net=<%d lowercase hex "
                            "digits>, the net's hash (or net=FILE, a model file)", (int)len, s,
                            HS_WIRE_NET_HASH_LEN);
    if (h || n <= 0) {
        *used |= h != NULL;
        return s_put(out, size, at, s, len) ? 0 : HS_ELIMIT;
    }
    for (int i = 0; i < n; i++) {
        if (!hashes[i] || !hs_wire_net_hash_valid(hashes[i], strlen(hashes[i])))
            return hs_error_set(err, HS_EINVAL, "not a net hash: '%s'",
                                hashes[i] ? hashes[i] : "(null)");
        if ((i && !s_put(out, size, at, ",", 1)) || !s_put(out, size, at, s, len)
            || !s_put(out, size, at, sp->options ? ",net=" : ":net=", 5)
            || !s_put(out, size, at, hashes[i], HS_WIRE_NET_HASH_LEN))
            return HS_ELIMIT;
    }
    *used = true;
    return 0;
}

int hs_net_specs(const char *engines, const char *const *hashes, int n, char *out, size_t size,
                 bool *used, hs_error_t *err)
{
    size_t at = 0;
    if (used)
        *used = false;
    if (!out || size == 0)
        return hs_error_set(err, HS_ELIMIT, "no room for the engine list");
    out[0] = '\0';
    bool any = false;
    for (const char *s = engines ? engines : "";;) {
        size_t len = hs_engine_list_entry(s);
        /* "key=value" alone ('=' before any ':' or '@') is an option that
         * follows a spec without options ("net,i=net", "net@1,k=v:"):
         * expanding that spec gives it options, and the option would join it
         * on the next reading, as hs_engine_list_entry reads (found by
         * fuzz_netspecs). */
        size_t key = strcspn(s, "=:@");
        if (key > 0 && key < len && s[key] == '=')
            return hs_error_set(err, HS_EINVAL, "engine option '%.*s' follows no engine "
                                "options (write name:key=value,...)", (int)len, s);
        hs_engine_spec_t sp;
        int bad = hs_engine_spec_split(s, len, &sp);
        if (s != engines && !s_put(out, size, &at, ",", 1))
            return hs_error_set(err, HS_ELIMIT, "engine list too long");
        int rc = 0;
        if (sp.name_len && hs_net_engine_name(s, sp.name_len)) {
            if (used)
                *used = true;
            /* A bad revision leaves the options unsplit: "net:net=<h>" could
             * not be told from a bare "net" (found by fuzz_netspecs). */
            rc = bad ? hs_error_set(err, HS_EINVAL, "engine spec '%.*s': a revision is a "
                                    "number after '@', then ':' or the end", (int)len, s)
                     : s_net_spec(s, len, &sp, hashes, n, out, size, &at, err);
        } else if (sp.name_len && hs_net_engine_optional(s, sp.name_len)) {
            rc = bad ? hs_error_set(err, HS_EINVAL, "engine spec '%.*s': a revision is a "
                                    "number after '@', then ':' or the end", (int)len, s)
                     : s_optional_spec(s, len, &sp, hashes, n, out, size, &at, &any, err);
            if (used)
                *used |= any;
        } else if (!s_put(out, size, &at, s, len)) {
            rc = HS_ELIMIT;
        }
        if (rc == HS_ELIMIT)
            return hs_error_set(err, HS_ELIMIT, "engine list too long");
        if (rc < 0)
            return rc;
        if (s[len] != ',')
            return 0;
        s += len + 1;
    }
}

/* Makes net i one of those bare specs bind to: moved to index n_bind. */
static void s_bind(hs_net_set_t *s, int i)
{
    if (i < s->n_bind)
        return;
    hs_nn_model_t *m = s->models[i];
    memmove(&s->models[s->n_bind + 1], &s->models[s->n_bind],
            (size_t)(i - s->n_bind) * sizeof s->models[0]);
    s->models[s->n_bind++] = m;
    for (int k = 0; k < s->n; k++)
        s->hashes[k] = s->models[k]->hash;
}

/* Loads path into s (once per hash): *index is the net's index in s. */
static int s_load(hs_net_set_t *s, const char *path, int *index, hs_error_t *err)
{
    hs_nn_model_t *m = NULL;
    hs_error_t why = { 0 };
    int rc = hs_nn_model_load(path, &m, &why);
    if (rc < 0)   /* the loader's messages name the file; say it once */
        return strstr(why.msg, path) ? hs_error_set(err, rc, "--net %s", why.msg)
                                     : hs_error_set(err, rc, "--net %s: %s", path, why.msg);
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->models[i]->hash, m->hash)) {
            hs_nn_model_free(&m);   /* the same net twice: one is enough */
            *index = i;
            return 0;
        }
    if (s->n >= HS_NET_MAX) {
        hs_nn_model_free(&m);
        return hs_error_set(err, HS_ELIMIT, "net %s: at most %d nets", path, HS_NET_MAX);
    }
    s->models[s->n] = m;
    s->hashes[s->n] = m->hash;
    *index = s->n++;
    return 0;
}

int hs_net_set_load(hs_net_set_t *s, const char *path, hs_error_t *err)
{
    int i, rc = s_load(s, path, &i, err);
    if (rc == 0)
        s_bind(s, i);
    return rc;
}

int hs_net_specs_files(hs_net_set_t *set, const char *engines, char *out, size_t size,
                       hs_error_t *err)
{
    size_t at = 0;
    if (!out || size == 0)
        return hs_error_set(err, HS_ELIMIT, "no room for the engine list");
    out[0] = '\0';
    for (const char *s = engines ? engines : "";;) {
        size_t len = hs_engine_list_entry(s), vl = 0;
        const char *colon = memchr(s, ':', len);
        const char *v = colon ? s_opt(colon + 1, len - (size_t)(colon + 1 - s), "net", &vl)
                              : NULL;
        char path[4096];
        bool ok, file = v && !hs_wire_net_hash_valid(v, vl) && vl < sizeof path;
        if (file) {
            memcpy(path, v, vl);
            path[vl] = '\0';
        }
        /* A value that is neither a hash nor a file passes, for hs_net_specs
         * to refuse as not a hash ("net:net=0123" is a typo, not a path); one
         * with a '/' or a '.' is a path, and what is wrong with it is said. */
        if (file && access(path, F_OK) != 0 && strpbrk(path, "/."))
            return hs_error_set(err, HS_EIO, "net=%s: cannot open the model: %s", path,
                                strerror(errno));
        if (file && access(path, F_OK) == 0) {
            int i, rc = s_load(set, path, &i, err);
            if (rc < 0)
                return rc;
            const char *hash = set->hashes[i];
            ok = s_put(out, size, &at, s, (size_t)(v - s)) &&
                 s_put(out, size, &at, hash, strlen(hash)) &&
                 s_put(out, size, &at, v + vl, len - (size_t)(v + vl - s));
        } else {
            ok = s_put(out, size, &at, s, len);
        }
        if (!ok || (s[len] == ',' && !s_put(out, size, &at, ",", 1)))
            return hs_error_set(err, HS_ELIMIT, "engine list too long");
        if (s[len] != ',')
            return 0;
        s += len + 1;
    }
}

/* Whether engines has a net engine's spec with no options: one that only a
 * loaded net can bind (hs_net_specs refuses it when none is). */
static bool s_needs_net(const char *engines)
{
    for (const char *s = engines ? engines : "";;) {
        size_t len = hs_engine_list_entry(s);
        hs_engine_spec_t sp;
        if (!hs_engine_spec_split(s, len, &sp) && sp.name_len
            && hs_net_engine_name(s, sp.name_len) && !sp.options)
            return true;
        if (s[len] != ',')
            return false;
        s += len + 1;
    }
}

int hs_net_set_load_default(hs_net_set_t *set, const char *engines, bool *loaded,
                            hs_error_t *err)
{
    if (loaded)
        *loaded = false;
    if (set->n_bind > 0 || !s_needs_net(engines))
        return 0;
    char path[4096];
    int rc = hs_nn_default_model_path(path, sizeof path, err);
    if (rc < 0)
        return rc;
    if ((rc = hs_net_set_load(set, path, err)) < 0) {
        hs_error_prefix(err, "the default model: ");
        return rc;
    }
    if (loaded)
        *loaded = true;
    return 0;
}

void hs_net_set_free(hs_net_set_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        hs_nn_model_free(&s->models[i]);
    memset(s, 0, sizeof *s);
}
