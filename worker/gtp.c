/*
 * worker/gtp.c — the GTP front end's command table, line cleaning, ids,
 * response framing (worker/gtp.h) and the input queue hs_gtp_run reads into
 * on its reader thread. The commands themselves are in gtp_commands.c,
 * gtp_raw_nn.c, gtp_play.c and gtp_analyze.c.
 */
#include "worker/gtp.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker/gtp_internal.h"

/* GTP lines are short; a longer one is answered with an error, not read into
 * ever more memory. */
#define S_MAX_LINE 65536
#define S_MAX_ARGS 64
/* Of a line over S_MAX_LINE, the start kept for its id (ids are shorter:
 * hs_gtp_line takes up to 23 digits). */
#define S_ID_PREFIX 64

typedef struct s_command {
    char *name;
    hs_gtp_handler_t fn;
    void *ctx;
} s_command_t;

/* One line read ahead; for a line over S_MAX_LINE, too_long and text its
 * first S_ID_PREFIX bytes (for the id of the error). */
typedef struct s_line {
    struct s_line *next;
    char *text;
    int too_long;
} s_line_t;

/* The reader thread's queue. eof: the reader has stopped (end of input, a
 * read error, or no memory for a line) and queues nothing more. */
typedef struct s_reader {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    s_line_t *head, *tail;
    int eof;
    FILE *in;
    pthread_t thread;
} s_reader_t;

struct hs_gtp {
    hs_gtp_config_t cfg;
    hs_gtp_game_t game;
    s_command_t *cmds;
    int num_cmds, cap_cmds;
    int quit;
    hs__gtp_search_t *search;   /* the search commands' shared state */
    s_reader_t *reader;         /* inside hs_gtp_run only */
    FILE *out;                  /* the current command's, for hs_gtp_stream */
    const char *id;             /* likewise */
    int streamed;               /* its header is out */
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
    if (!rc)
        rc = hs__gtp_register_search(g, &g->search, err);
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
    hs__gtp_search_free(&g->search);
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

/* The digits of the id at the start of s (a cleaned line, blanks skipped),
 * 0 when there is none: a whole number that is a word of its own ("1.5" or
 * "12abc" is a command word, as KataGo reads it). */
static size_t s_id_digits(const char *s)
{
    size_t digits = strspn(s, "0123456789");
    return digits > 0 && (s[digits] == ' ' || s[digits] == '\0') ? digits : 0;
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

/* text without its blank lines and trailing blanks. */
static void s_print_body(FILE *out, const char *text)
{
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
        len--;
    for (size_t i = 0; i < len; i++)
        if (!(text[i] == '\n' && (i + 1 == len || text[i + 1] == '\n' || i == 0)))
            fputc(text[i], out);
}

/* The response text with its blank lines and trailing blanks dropped, framed. */
static void s_print(FILE *out, int ok, const char *id, const char *text)
{
    fprintf(out, "%c%s", ok ? '=' : '?', id);
    fputc(' ', out);   /* even before an empty response: KataGo and GNU Go do */
    s_print_body(out, text);
    fputs("\n\n", out);
}

/* The end of a streamed response: the handler's leftover text, an empty line. */
static void s_print_stream_end(FILE *out, const char *text)
{
    const char *t = text;
    while (*t == '\n')
        t++;
    if (*t) {
        s_print_body(out, t);
        fputc('\n', out);
    }
    fputc('\n', out);
}

FILE *hs_gtp_stream(hs_gtp_t *g)
{
    if (!g->streamed) {
        /* flushed now: a controller waits for the answer line before it
         * reads the reports (KataGo's comes at once) */
        fprintf(g->out, "=%s\n", g->id);
        fflush(g->out);
        g->streamed = 1;
    }
    return g->out;
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
    size_t digits = s_id_digits(s);
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
    else {
        g->out = out;
        g->id = id;
        g->streamed = 0;
        rc = s_dispatch(g, words, n, &resp);
    }
    if (g->streamed)
        s_print_stream_end(out, resp.err ? "out of memory for the response" : resp.p ? resp.p : "");
    else if (resp.err)
        s_print(out, 0, id, "out of memory for the response");
    else
        s_print(out, rc == 0, id, resp.p ? resp.p : "");
    g->streamed = 0;
    g->out = NULL;
    hs_buf_fini(&resp);
    free(buf);
    return g->quit;
}

static void s_free_ptr(void *p) { free(*(char **)p); }

/* Queues l (NULL-safe: no memory ends the input). 0, or -1 to stop reading. */
static int s_push(s_reader_t *r, s_line_t *l)
{
    if (!l)
        return -1;
    pthread_mutex_lock(&r->mu);
    if (r->tail)
        r->tail->next = l;
    else
        r->head = l;
    r->tail = l;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return 0;
}

/* A queue entry for what getline read (len bytes); NULL when out of memory.
 * NUL bytes go here, where the line's length is still known, as s_clean
 * drops the other control characters (a C string would end at the first). */
static s_line_t *s_line_new(const char *line, ssize_t len)
{
    s_line_t *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->too_long = len > S_MAX_LINE;
    size_t keep = l->too_long ? S_ID_PREFIX : (size_t)len, n = 0;
    if (!(l->text = malloc(keep + 1))) {
        free(l);
        return NULL;
    }
    for (size_t i = 0; i < keep; i++)
        if (line[i])
            l->text[n++] = line[i];
    l->text[n] = '\0';
    return l;
}

/* The answer to a line over S_MAX_LINE, with its id when it starts with
 * one (prefix: its first bytes). */
static void s_too_long(FILE *out, const char *prefix)
{
    char clean[S_ID_PREFIX + 1], id[24] = "";
    s_clean(prefix, clean, sizeof clean);
    const char *s = clean + strspn(clean, " ");
    size_t digits = s_id_digits(s);
    /* the prefix may end inside the first word: an id only if a word follows */
    if (digits > 0 && digits < sizeof id && s[digits] == ' ') {
        memcpy(id, s, digits);
        id[digits] = '\0';
    }
    s_print(out, 0, id, "line too long");
}

/* The reader thread: lines into the queue until the end of input. Cancelled
 * (at the read inside getline) when the session ends first. */
static void *s_reader_main(void *arg)
{
    s_reader_t *r = arg;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    pthread_cleanup_push(s_free_ptr, &line);
    while ((len = getline(&line, &cap, r->in)) >= 0) {
        int old;
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
        int stop = s_push(r, s_line_new(line, len));
        pthread_setcancelstate(old, NULL);
        if (stop)
            break;
    }
    pthread_cleanup_pop(1);
    pthread_mutex_lock(&r->mu);
    r->eof = 1;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* The next line, waiting for it; NULL at the end of input. */
static s_line_t *s_next(s_reader_t *r)
{
    pthread_mutex_lock(&r->mu);
    while (!r->head && !r->eof)
        pthread_cond_wait(&r->cv, &r->mu);
    s_line_t *l = r->head;
    if (l) {
        r->head = l->next;
        if (!r->head)
            r->tail = NULL;
    }
    pthread_mutex_unlock(&r->mu);
    return l;
}

int hs_gtp_input_pending(hs_gtp_t *g)
{
    s_reader_t *r = g->reader;
    if (!r)
        return 1;
    pthread_mutex_lock(&r->mu);
    int pending = r->head != NULL || r->eof;
    pthread_mutex_unlock(&r->mu);
    return pending;
}

void hs_gtp_wait_input(hs_gtp_t *g, double seconds)
{
    s_reader_t *r = g->reader;
    if (!r)
        return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long ns = until.tv_nsec + (long)((seconds - floor(seconds)) * 1e9);
    until.tv_sec += (time_t)floor(seconds) + ns / 1000000000L;
    until.tv_nsec = ns % 1000000000L;
    pthread_mutex_lock(&r->mu);
    while (!r->head && !r->eof && pthread_cond_timedwait(&r->cv, &r->mu, &until) == 0)
        ;
    pthread_mutex_unlock(&r->mu);
}

/* Stops the reader (it may be blocked reading: then it is cancelled) and
 * frees what it queued. */
static void s_reader_stop(s_reader_t *r)
{
    pthread_mutex_lock(&r->mu);
    int eof = r->eof;
    pthread_mutex_unlock(&r->mu);
    if (!eof)
        pthread_cancel(r->thread);
    pthread_join(r->thread, NULL);
    for (s_line_t *l = r->head, *next; l; l = next) {
        next = l->next;
        free(l->text);
        free(l);
    }
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
}

int hs_gtp_run(hs_gtp_t *g, FILE *in, FILE *out, hs_error_t *err)
{
    s_reader_t r = { .in = in };
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    if (pthread_create(&r.thread, NULL, s_reader_main, &r)) {
        pthread_cond_destroy(&r.cv);
        pthread_mutex_destroy(&r.mu);
        return hs_error_set(err, HS_EIO, "gtp: cannot start the input thread");
    }
    g->reader = &r;
    int rc = 0;
    s_line_t *l;
    while (!g->quit && (l = s_next(&r))) {
        if (l->too_long)
            s_too_long(out, l->text);
        else
            hs_gtp_line(g, l->text, out);
        free(l->text);
        free(l);
        if (fflush(out) != 0 || ferror(out)) {
            rc = hs_error_set(err, HS_EIO, "gtp: cannot write the response");
            break;
        }
    }
    g->reader = NULL;
    s_reader_stop(&r);
    return rc;
}
