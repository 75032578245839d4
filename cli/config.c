/*
 * cli/config.c — --config FILE read into the command line (cli/config.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How an option documented in --help takes its value. */
typedef enum { S_UNKNOWN, S_FLAG, S_VALUE, S_OPTIONAL } s_kind_t;

/* ------------------------------------------------------------ the argv built */

static int s_push(hs_cli_argv_t *a, char *s, bool owned)
{
    char **v = realloc(a->argv, (size_t)(a->argc + 2) * sizeof *v);
    if (!v)
        return -1;
    a->argv = v;
    if (owned) {
        char **o = realloc(a->owned, (size_t)(a->n_owned + 1) * sizeof *o);
        if (!o)
            return -1;
        a->owned = o;
        a->owned[a->n_owned++] = s;
    }
    a->argv[a->argc++] = s;
    a->argv[a->argc] = NULL;
    return 0;
}

/* Pushes a copy of s (len bytes). */
static int s_push_copy(hs_cli_argv_t *a, const char *s, size_t len)
{
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    memcpy(c, s, len);
    c[len] = '\0';
    if (s_push(a, c, true) < 0) {
        free(c);
        return -1;
    }
    return 0;
}

void hs__cli_config_free(hs_cli_argv_t *a)
{
    for (int i = 0; i < a->n_owned; i++)
        free(a->owned[i]);
    free(a->owned);
    free(a->argv);
    memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------ the options known */

/* The command's --help text, as it prints it to stdout (captured through a
 * temporary file), or NULL. */
static char *s_help_text(const char *cmd, hs_cli_run_fn run)
{
    FILE *tmp = tmpfile();
    fflush(stdout);
    int saved = tmp ? dup(STDOUT_FILENO) : -1;
    if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        if (tmp)
            fclose(tmp);
        return NULL;
    }
    char *args[] = { (char *)cmd, "--help", NULL };
    run(2, args);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    optind = 1;   /* the command parses its real arguments from the start */
    long size = fseek(tmp, 0, SEEK_END) == 0 ? ftell(tmp) : -1;
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text) {
        rewind(tmp);
        size_t got = fread(text, 1, (size_t)size, tmp);
        text[got] = '\0';
    }
    fclose(tmp);
    return text;
}

static bool s_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-';
}

/* Whether the mention of an option at p documents one of this command's: it
 * is in the usage lines (the first paragraph) or starts a line of the option
 * list. Elsewhere help names other commands' options ("`judge --final`"). */
static bool s_own_mention(const char *help, const char *p)
{
    const char *usage_end = strstr(help, "\n\n");
    if (!usage_end || p < usage_end)
        return true;
    while (p > help && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    return p == help || p[-1] == '\n';
}

/* How help documents "--name": a value when some mention is followed by
 * " WORD" in capitals (--bind ADDR) or "=" (--limit=N), an optional one by
 * "[=" (--watch[=MS]), else a flag. */
static s_kind_t s_option_kind(const char *help, const char *name)
{
    size_t n = strlen(name);
    s_kind_t kind = S_UNKNOWN;
    for (const char *p = help; (p = strstr(p, "--")) != NULL; p += 2) {
        if ((p > help && s_name_char(p[-1])) || strncmp(p + 2, name, n) != 0 ||
            s_name_char(p[2 + n]) || !s_own_mention(help, p))
            continue;
        const char *after = p + 2 + n;
        if (after[0] == '[' && after[1] == '=')
            return S_OPTIONAL;
        if (after[0] == '=' || (after[0] == ' ' && isupper((unsigned char)after[1])))
            return S_VALUE;
        kind = S_FLAG;
    }
    return kind;
}

/* ------------------------------------------------------------ the file */

typedef struct s_file {
    const char *cmd, *path, *help;
    int line;
} s_file_t;

static int s_fail(const s_file_t *f, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "hyeongse %s: %s:%d: ", f->cmd, f->path, f->line);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

/* One line: "name value", "name = value", a comment or nothing. 0 or 2. */
static int s_line(const s_file_t *f, char *line, hs_cli_argv_t *out)
{
    size_t len = strlen(line);
    while (len && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    line += strspn(line, " \t");
    if (!*line || *line == '#')
        return 0;
    size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
    char *value = line + n + strspn(line + n, " \t");
    if (*value == '=')
        value += 1 + strspn(value + 1, " \t");
    else if (n == 0 || (value == line + n && *value))
        return s_fail(f, "'%s': not \"option value\"%s", line, "");
    line[n] = '\0';
    if (!strcmp(line, "config"))
        return s_fail(f, "a config file cannot name another (--%s)%s", line, "");
    s_kind_t kind = s_option_kind(f->help, line);
    if (kind == S_UNKNOWN)
        return s_fail(f, "unknown option '%s' (see hyeongse %s --help)", line, f->cmd);
    bool t = !strcmp(value, "true"), fa = !strcmp(value, "false");
    if (!*value)
        return s_fail(f, "'%s' needs a value%s", line, kind == S_FLAG ? " (true or false)" : "");
    if (kind == S_FLAG && !t && !fa)
        return s_fail(f, "'%s' is a flag: true or false, not '%s'", line, value);
    char opt[256];
    if (kind != S_VALUE && fa)
        return 0;
    if (kind == S_OPTIONAL && !t)
        snprintf(opt, sizeof opt, "--%s=%s", line, value);
    else
        snprintf(opt, sizeof opt, "--%s", line);
    if (kind == S_OPTIONAL && !t && strlen(line) + strlen(value) + 3 >= sizeof opt)
        return s_fail(f, "'%s': value too long%s", line, "");
    if (s_push_copy(out, opt, strlen(opt)) < 0 ||
        (kind == S_VALUE && s_push_copy(out, value, strlen(value)) < 0))
        return s_fail(f, "out of memory%s%s", "", "");
    return 0;
}

static int s_file(const char *cmd, const char *path, const char *help, hs_cli_argv_t *out)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "hyeongse %s: --config %s: %s\n", cmd, path, strerror(errno));
        return 2;
    }
    s_file_t f = { .cmd = cmd, .path = path, .help = help };
    char *line = NULL;
    size_t cap = 0;
    int status = 0;
    while (!status && getline(&line, &cap, fp) >= 0) {
        f.line++;
        status = s_line(&f, line, out);
    }
    if (!status && ferror(fp)) {
        fprintf(stderr, "hyeongse %s: --config %s: %s\n", cmd, path, strerror(errno));
        status = 2;
    }
    free(line);
    fclose(fp);
    return status;
}

/* ------------------------------------------------------------ the command line */

/* The FILE of argv[i] when it is --config (i advanced past it), else NULL.
 * *missing: --config without a file. */
static const char *s_config_arg(int argc, char **argv, int *i, bool *missing)
{
    if (!strncmp(argv[*i], "--config=", 9))
        return argv[*i] + 9;
    if (strcmp(argv[*i], "--config") != 0)
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

int hs__cli_config_expand(const char *cmd, hs_cli_run_fn run, int argc, char **argv,
                          hs_cli_argv_t *out)
{
    memset(out, 0, sizeof *out);
    bool any = false, missing = false;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        any |= s_config_arg(argc, argv, &i, &missing) != NULL;
    if (missing) {
        fprintf(stderr, "hyeongse %s: --config needs a file\n", cmd);
        return 2;
    }
    char *help = any ? s_help_text(cmd, run) : NULL;
    if (any && !help) {
        fprintf(stderr, "hyeongse %s: --config: cannot read the command's options\n", cmd);
        return 2;
    }
    int status = s_push(out, argv[0], false) < 0 ? 2 : 0;
    for (int i = 1; !status && i < argc && strcmp(argv[i], "--"); i++) {
        const char *path = s_config_arg(argc, argv, &i, &missing);
        if (path)
            status = s_file(cmd, path, help, out);
    }
    bool rest = false;   /* after "--": arguments, never options */
    for (int i = 1; !status && i < argc; i++) {
        rest |= !strcmp(argv[i], "--");
        if (!rest && s_config_arg(argc, argv, &i, &missing))
            continue;
        if (s_push(out, argv[i], false) < 0)
            status = 2;
    }
    free(help);
    if (status)
        hs__cli_config_free(out);
    return status;
}
