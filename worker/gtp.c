/*
 * worker/gtp.c — the GTP front end's command table, line cleaning, ids and
 * response framing (worker/gtp.h). The commands themselves are in
 * gtp_commands.c and gtp_raw_nn.c.
 */
#include "worker/gtp.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "worker/gtp_internal.h"

/* GTP lines are short; a longer one is answered with an error, not read into
 * ever more memory. */
#define S_MAX_LINE 65536
#define S_MAX_ARGS 64

typedef struct s_command {
    char *name;
    hs_gtp_handler_t fn;
    void *ctx;
} s_command_t;

struct hs_gtp {
    hs_gtp_config_t cfg;
    hs_gtp_game_t game;
    s_command_t *cmds;
    int num_cmds, cap_cmds;
    int quit;
};

int hs_gtp_create(const hs_gtp_config_t *cfg, hs_gtp_t **out, hs_error_t *err)
{
    *out = NULL;
    hs_gtp_t *g = calloc(1, sizeof *g);
    if (!g)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    g->cfg = *cfg;
    if (!g->cfg.name)
        g->cfg.name = "hyeongse";
    if (!g->cfg.version)
        g->cfg.version = "";
    hs_rules_t r = hs_rules_get(cfg->rules);
    int rc = hs_gtp_game_init(&g->game, 19, cfg->rules, r.default_komi, err);
    if (!rc)
        rc = hs__gtp_register_basic(g, err);
    if (!rc)
        rc = hs__gtp_register_nn(g, err);
    if (rc) {
        hs_gtp_free(&g);
        return rc;
    }
    *out = g;
    return 0;
}

void hs_gtp_free(hs_gtp_t **gp)
{
    hs_gtp_t *g = gp ? *gp : NULL;
    if (!g)
        return;
    for (int i = 0; i < g->num_cmds; i++)
        free(g->cmds[i].name);
    free(g->cmds);
    hs_gtp_game_fini(&g->game);
    free(g);
    *gp = NULL;
}

static s_command_t *s_find(const hs_gtp_t *g, const char *name)
{
    for (int i = 0; i < g->num_cmds; i++)
        if (!strcmp(g->cmds[i].name, name))
            return &g->cmds[i];
    return NULL;
}

int hs_gtp_register(hs_gtp_t *g, const char *name, hs_gtp_handler_t fn, void *ctx,
                    hs_error_t *err)
{
    s_command_t *c = s_find(g, name);
    if (c) {
        c->fn = fn;
        c->ctx = ctx;
        return 0;
    }
    if (g->num_cmds == g->cap_cmds) {
        int cap = g->cap_cmds ? 2 * g->cap_cmds : 32;
        s_command_t *t = realloc(g->cmds, (size_t)cap * sizeof *t);
        if (!t)
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        g->cmds = t;
        g->cap_cmds = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    g->cmds[g->num_cmds++] = (s_command_t){ copy, fn, ctx };
    return 0;
}

hs_gtp_game_t *hs_gtp_game(hs_gtp_t *g) { return &g->game; }
const hs_gtp_config_t *hs_gtp_config(const hs_gtp_t *g) { return &g->cfg; }
void hs_gtp_request_quit(hs_gtp_t *g) { g->quit = 1; }
int hs_gtp_known(const hs_gtp_t *g, const char *name) { return s_find(g, name) != NULL; }

void hs_gtp_each_command(const hs_gtp_t *g, void (*fn)(void *ctx, const char *name), void *ctx)
{
    for (int i = 0; i < g->num_cmds; i++)
        fn(ctx, g->cmds[i].name);
}

void hs_gtp_printf(hs_buf_t *resp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || hs_buf_reserve(resp, (size_t)n + 1))
        return;
    va_start(ap, fmt);
    vsnprintf(resp->p + resp->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    resp->len += (size_t)n;
}

/* GTP 2's preprocessing: control characters other than tab go, '#' starts a
 * comment, tabs become spaces. Returns the cleaned copy's length. */
static size_t s_clean(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in && *in != '#' && n + 1 < cap; in++) {
        unsigned char c = (unsigned char)*in;
        if (c == '\t')
            c = ' ';
        if (c < 32 || c == 127)
            continue;
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return n;
}

/* Splits s in place at spaces into words (at most max). */
static int s_split(char *s, char **words, int max)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(s, " ", &save); w && n < max;
         w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    return n;
}

/* The response text with its blank lines and trailing blanks dropped, framed. */
static void s_print(FILE *out, int ok, const char *id, const char *text)
{
    fprintf(out, "%c%s", ok ? '=' : '?', id);
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
        len--;
    fputc(' ', out);   /* even before an empty response: KataGo and GNU Go do */
    for (size_t i = 0; i < len; i++)
        if (!(text[i] == '\n' && (i + 1 == len || text[i + 1] == '\n' || i == 0)))
            fputc(text[i], out);
    fputs("\n\n", out);
}

/* Runs words[0] with the rest as arguments into resp; 0 or nonzero (failure). */
static int s_dispatch(hs_gtp_t *g, char **words, int n, hs_buf_t *resp)
{
    s_command_t *c = s_find(g, words[0]);
    if (!c) {
        hs_gtp_printf(resp, "unknown command");
        return 1;
    }
    return c->fn(g, c->ctx, n - 1, words + 1, resp);
}

int hs_gtp_line(hs_gtp_t *g, const char *line, FILE *out)
{
    char *buf = malloc(S_MAX_LINE);
    if (!buf) {
        s_print(out, 0, "", "out of memory");
        return 0;
    }
    s_clean(line, buf, S_MAX_LINE);
    char *s = buf;
    while (*s == ' ')
        s++;
    char id[24] = "";
    size_t digits = strspn(s, "0123456789");
    if (digits > 0 && digits < sizeof id) {
        memcpy(id, s, digits);
        id[digits] = '\0';
        s += digits;
    }
    char *words[S_MAX_ARGS];
    int n = s_split(s, words, S_MAX_ARGS);
    if (n == 0 && !id[0]) {
        free(buf);
        return 0;   /* GTP: empty lines get no response */
    }
    hs_buf_t resp = { 0 };
    int rc = 1;
    if (n == 0)
        hs_gtp_printf(&resp, "empty command");
    else if (digits >= sizeof id)
        hs_gtp_printf(&resp, "command id too long");
    else if (n == S_MAX_ARGS)
        hs_gtp_printf(&resp, "too many arguments");
    else
        rc = s_dispatch(g, words, n, &resp);
    if (resp.err)
        s_print(out, 0, id, "out of memory for the response");
    else
        s_print(out, rc == 0, id, resp.p ? resp.p : "");
    hs_buf_fini(&resp);
    free(buf);
    return g->quit;
}

int hs_gtp_run(hs_gtp_t *g, FILE *in, FILE *out, hs_error_t *err)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (!g->quit && (len = getline(&line, &cap, in)) >= 0) {
        if (len > S_MAX_LINE) {
            fputs("? line too long\n\n", out);
        } else {
            hs_gtp_line(g, line, out);
        }
        if (fflush(out) != 0 || ferror(out)) {
            rc = hs_error_set(err, HS_EIO, "gtp: cannot write the response");
            break;
        }
    }
    free(line);
    return rc;
}
