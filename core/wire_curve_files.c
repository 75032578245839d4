/*
 * core/wire_curve_files.c — CURVE keys as files (core/wire_curve.h): writing a
 * pair (PREFIX.pub, PREFIX.key), reading a pair or a public key back, and
 * loading allow-lists. The in-memory keys and the socket options are in
 * core/wire_curve.c.
 *
 * A .key file holds a secret: it is made 0600 with fchmod (so no umask can
 * widen it), written under a temporary name and renamed, so that a reader
 * never sees half a key and a crash never leaves a key file readable by
 * others. Reading one that group or others may open is refused, as ssh does.
 */
#include "core/wire_curve.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

/* A key file is two short lines; an allow-list a few thousand. Larger is not
 * ours (a path given by mistake, /dev/zero): refused rather than read. */
#define S_KEY_FILE_MAX 4096
#define S_LIST_FILE_MAX (16 << 20)

/* ------------------------------------------------------------ small helpers */

static bool s_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* Reads all of fd (at most max bytes) into a NUL-terminated *out. */
static int s_read_fd(int fd, const char *path, size_t max, char **out, hs_error_t *err)
{
    size_t cap = 1024, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return hs_error_set(err, HS_ENOMEM, "out of memory reading %s", path);
    for (;;) {
        if (len + 1 >= cap) {
            char *nb = cap > max ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return cap > max ? hs_error_set(err, HS_EPARSE, "%s: larger than %zu bytes: "
                                                "not a key file", path, max)
                                 : hs_error_set(err, HS_ENOMEM, "out of memory reading %s", path);
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + len, cap - len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return hs_error_set(err, HS_EIO, "%s: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    buf[len] = '\0';
    *out = buf;
    return 0;
}

/* Opens path read-only into *fd, with a message naming it. */
static int s_open_read(const char *path, int *fd, hs_error_t *err)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return hs_error_set(err, HS_EIO, "cannot open %s: %s", path, strerror(errno));
    return 0;
}

static int s_read_file(const char *path, size_t max, char **out, hs_error_t *err)
{
    int fd, rc = s_open_read(path, &fd, err);
    if (rc < 0)
        return rc;
    rc = s_read_fd(fd, path, max, out, err);
    close(fd);
    return rc;
}

/* The next line of *p (NUL-terminated in place, '\r' and trailing blanks cut,
 * leading blanks skipped), or NULL at the end. */
static char *s_next_line(char **p)
{
    if (!*p || !**p)
        return NULL;
    char *line = *p, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = line + strlen(line);
    }
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    return line + strspn(line, " \t");
}

/* Copies a 40-character word at s into out when it is a valid key. */
static bool s_take_key(const char *s, size_t len, char out[HS_CURVE_KEY_LEN + 1])
{
    char k[HS_CURVE_KEY_LEN + 1];
    if (len != HS_CURVE_KEY_LEN)
        return false;
    memcpy(k, s, HS_CURVE_KEY_LEN);
    k[HS_CURVE_KEY_LEN] = '\0';
    if (!hs_curve_key_valid(k))
        return false;
    memcpy(out, k, sizeof k);
    return true;
}

/* ------------------------------------------------------------ writing */

/* Writes text to a fresh temporary file beside path with mode, then renames it
 * over path. The temp file is mkstemp's (0600 whatever the umask), and fchmod
 * sets the final mode before a byte is written. */
static int s_write_atomic(const char *path, const char *text, mode_t mode, hs_error_t *err)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 8);
    if (!tmp)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = hs_error_set(err, HS_EIO, "cannot create a file beside %s: %s", path,
                              strerror(errno));
        free(tmp);
        return rc;
    }
    size_t len = strlen(text);
    bool ok = fchmod(fd, mode) == 0 && write(fd, text, len) == (ssize_t)len && fsync(fd) == 0;
    int e = errno;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    int rc = ok ? 0 : hs_error_set(err, HS_EIO, "cannot write %s: %s", path, strerror(e));
    if (!ok)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* Claims path for us (O_EXCL): HS_EEXIST when something is there. */
static int s_claim(const char *path, hs_error_t *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    if (errno == EEXIST)
        return hs_error_set(err, HS_EEXIST, "%s exists; keygen --force replaces it", path);
    return hs_error_set(err, HS_EIO, "cannot create %s: %s", path, strerror(errno));
}

int hs_curve_write(const char *prefix, const hs_curve_pair_t *pair, bool force, hs_error_t *err)
{
    if (!prefix || !*prefix || !pair || !hs_curve_key_valid(pair->public_key) ||
        !hs_curve_key_valid(pair->secret_key))
        return hs_error_set(err, HS_EINVAL, "hs_curve_write: a prefix and a valid pair needed");
    size_t n = strlen(prefix) + 5;
    char *pub = malloc(n), *key = malloc(n);
    int rc = pub && key ? 0 : hs_error_set(err, HS_ENOMEM, "out of memory");
    bool claimed_key = false, claimed_pub = false;
    if (rc == 0) {
        snprintf(pub, n, "%s.pub", prefix);
        snprintf(key, n, "%s.key", prefix);
    }
    /* Without force both names are claimed first, so an existing pair is never
     * half replaced and two keygens racing cannot both win. */
    if (rc == 0 && !force && (rc = s_claim(key, err)) == 0) {
        claimed_key = true;
        if ((rc = s_claim(pub, err)) == 0)
            claimed_pub = true;
    }
    char text[2 * HS_CURVE_KEY_LEN + 32];
    if (rc == 0) {
        snprintf(text, sizeof text, "public %s\nsecret %s\n", pair->public_key, pair->secret_key);
        rc = s_write_atomic(key, text, 0600, err);
    }
    if (rc == 0) {
        snprintf(text, sizeof text, "%s\n", pair->public_key);
        rc = s_write_atomic(pub, text, 0644, err);
    }
    if (rc < 0 && claimed_key)
        unlink(key);
    if (rc < 0 && claimed_pub)
        unlink(pub);
    memset(text, 0, sizeof text);
    free(pub);
    free(key);
    return rc;
}

/* ------------------------------------------------------------ reading */

/* Parses a .key file's text: "public KEY" and "secret KEY" lines ('#' lines
 * and blank lines skipped), the secret checked against the public key. */
static int s_parse_pair(char *text, const char *path, hs_curve_pair_t *out, hs_error_t *err)
{
    hs_curve_pair_t p = { { 0 }, { 0 } };
    bool got_pub = false, got_sec = false;
    int lineno = 0;
    for (char *cur = text, *line; (line = s_next_line(&cur)) != NULL;) {
        lineno++;
        if (!*line || *line == '#')
            continue;
        size_t w = strcspn(line, " \t");
        char *val = line + w + strspn(line + w, " \t");
        bool is_pub = w == 6 && !strncmp(line, "public", 6);
        bool is_sec = w == 6 && !strncmp(line, "secret", 6);
        char *dst = is_pub ? p.public_key : is_sec ? p.secret_key : NULL;
        if (!dst || !s_take_key(val, strlen(val), dst))
            return hs_error_set(err, HS_EPARSE, "%s:%d: not a key file line (\"public KEY\" "
                                "or \"secret KEY\", KEY 40 Z85 characters)", path, lineno);
        got_pub |= is_pub;
        got_sec |= is_sec;
    }
    if (!got_pub || !got_sec)
        return hs_error_set(err, HS_EPARSE, "%s: not a key file (no %s key line)", path,
                            got_pub ? "secret" : "public");
    /* A pair whose halves do not match would connect and be refused with no
     * reason given: say it here. */
    char derived[HS_CURVE_KEY_LEN + 1];
    if (zmq_curve_public(derived, p.secret_key) == 0 && strcmp(derived, p.public_key) != 0)
        return hs_error_set(err, HS_EPARSE, "%s: its public key does not belong to its "
                            "secret key", path);
    *out = p;
    memset(&p, 0, sizeof p);
    return 0;
}

int hs_curve_read_pair(const char *path, hs_curve_pair_t *out, hs_error_t *err)
{
    if (!path || !*path)
        return hs_error_set(err, HS_EINVAL, "no key file named");
    size_t n = strlen(path) + 5;
    char *name = malloc(n);
    if (!name)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    snprintf(name, n, s_ends_with(path, ".key") ? "%s" : "%s.key", path);
    int fd, rc = s_open_read(name, &fd, err);
    struct stat st;
    if (rc == 0 && fstat(fd, &st) != 0)
        rc = hs_error_set(err, HS_EIO, "%s: %s", name, strerror(errno));
    /* fstat on the open file: no window between the check and the read. */
    if (rc == 0 && (st.st_mode & 0077))
        rc = hs_error_set(err, HS_EPERM, "%s: a secret key file must be private, but its mode "
                          "is %04o (group or others may open it); run: chmod 600 %s", name,
                          (unsigned)(st.st_mode & 07777), name);
    char *text = NULL;
    if (rc == 0)
        rc = s_read_fd(fd, name, S_KEY_FILE_MAX, &text, err);
    if (fd >= 0)
        close(fd);
    if (rc == 0)
        rc = s_parse_pair(text, name, out, err);
    if (text)
        memset(text, 0, strlen(text));
    free(text);
    free(name);
    return rc;
}

/* A .pub file's text: one key line ('#' lines and blank lines skipped). */
static int s_parse_pub(char *text, const char *path, char out[HS_CURVE_KEY_LEN + 1],
                       hs_error_t *err)
{
    int lineno = 0;
    for (char *cur = text, *line; (line = s_next_line(&cur)) != NULL;) {
        lineno++;
        if (s_take_key(line, strlen(line), out))
            return 0;
        if (*line && *line != '#')
            return hs_error_set(err, HS_EPARSE, "%s:%d: not a public key (40 Z85 characters)",
                                path, lineno);
    }
    return hs_error_set(err, HS_EPARSE, "%s: holds no public key", path);
}

int hs_curve_read_public(const char *path_or_key, char out[HS_CURVE_KEY_LEN + 1],
                         hs_error_t *err)
{
    if (!path_or_key || !*path_or_key)
        return hs_error_set(err, HS_EINVAL, "no public key named");
    struct stat st;
    bool exists = stat(path_or_key, &st) == 0;
    if (!exists && s_take_key(path_or_key, strlen(path_or_key), out))
        return 0;
    if (s_ends_with(path_or_key, ".key")) {
        /* Only the public line is used: the file's mode is the owner's concern. */
        char *text = NULL;
        hs_curve_pair_t p;
        int rc = s_read_file(path_or_key, S_KEY_FILE_MAX, &text, err);
        if (rc == 0 && (rc = s_parse_pair(text, path_or_key, &p, err)) == 0)
            memcpy(out, p.public_key, sizeof p.public_key);
        if (text)
            memset(text, 0, strlen(text));
        memset(&p, 0, sizeof p);
        free(text);
        return rc;
    }
    if (!exists)
        return hs_error_set(err, HS_EIO, "%s: no such file, and not a key (40 Z85 "
                            "characters)", path_or_key);
    char *text = NULL;
    int rc = s_read_file(path_or_key, S_KEY_FILE_MAX, &text, err);
    if (rc == 0)
        rc = s_parse_pub(text, path_or_key, out, err);
    free(text);
    return rc;
}

/* ------------------------------------------------------------ allow-lists */

/* "@path" of an allow-list line: path relative to the list's folder. */
static int s_list_ref(const char *list, int lineno, const char *ref, size_t len,
                      char key[HS_CURVE_KEY_LEN + 1], hs_error_t *err)
{
    const char *slash = strrchr(list, '/');
    int dir = ref[0] == '/' || !slash ? 0 : (int)(slash - list + 1);
    size_t n = (size_t)dir + len + 1;
    char *path = malloc(n);
    if (!path)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    snprintf(path, n, "%.*s%.*s", dir, list, (int)len, ref);
    char *text = NULL;
    int rc = s_read_file(path, S_KEY_FILE_MAX, &text, err);
    if (rc == 0)
        rc = s_parse_pub(text, path, key, err);
    if (rc < 0)
        hs_error_prefix(err, "%s:%d: ", list, lineno);
    free(text);
    free(path);
    return rc;
}

/* The name of a line whose key came from "@dir/w1.pub" and that gives none: "w1". */
static void s_ref_name(const char *ref, size_t len, char *out, size_t size)
{
    const char *base = ref;
    for (size_t i = 0; i < len; i++)
        if (ref[i] == '/')
            base = ref + i + 1;
    size_t n = len - (size_t)(base - ref);
    if (n > 4 && !strncmp(base + n - 4, ".pub", 4))
        n -= 4;
    snprintf(out, size, "%.*s", (int)n, base);
}

/* One allow-list line into *l (blank and comment lines add nothing). A line
 * starts with a key or "@file". Z85 has '#', but never as a key's first
 * character (that digit is at most 82 of 85), so '#' first is a comment;
 * after the key and name, " #" starts one. A key may begin with '@' (one in
 * 85 does): "@" names a file when what follows is not a key, or ends ".pub". */
static int s_list_line(const char *list, int lineno, char *line, hs_curve_list_t *l,
                       hs_error_t *err)
{
    size_t w = strcspn(line, " \t");
    char key[HS_CURVE_KEY_LEN + 1], name[sizeof l->v[0].name] = "";
    if (!*line)
        return 0;
    bool is_key = s_take_key(line, w, key);
    if (*line == '@' && w > 1 && (!is_key || (w > 4 && !strncmp(line + w - 4, ".pub", 4)))) {
        int rc = s_list_ref(list, lineno, line + 1, w - 1, key, err);
        if (rc < 0)
            return rc;
        s_ref_name(line + 1, w - 1, name, sizeof name);
    } else if (*line == '#') {
        return 0;
    } else if (!is_key) {
        return hs_error_set(err, HS_EPARSE, "%s:%d: not a key (40 Z85 characters) nor "
                            "\"@file.pub\"", list, lineno);
    }
    char *rest = line + w + strspn(line + w, " \t");
    char *hash = strstr(rest, " #");
    if (*rest == '#')
        *rest = '\0';
    else if (hash)
        *hash = '\0';
    size_t n = strlen(rest);
    while (n && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
        rest[--n] = '\0';
    if (n >= sizeof name)
        return hs_error_set(err, HS_EPARSE, "%s:%d: a name has at most %zu bytes", list,
                            lineno, sizeof name - 1);
    if (n)
        memcpy(name, rest, n + 1);
    int rc = hs_curve_list_add(l, key, name, err);
    return rc < 0 ? hs_error_prefix(err, "%s:%d: ", list, lineno) : 0;
}

int hs_curve_list_load(const char *path, hs_curve_list_t *out, hs_error_t *err)
{
    if (!path || !out)
        return hs_error_set(err, HS_EINVAL, "hs_curve_list_load: a path and a list needed");
    char *text = NULL;
    int rc = s_read_file(path, S_LIST_FILE_MAX, &text, err);
    if (rc < 0)
        return rc;
    /* Into a list of its own first: a file with an error adds nothing. */
    hs_curve_list_t mine = { NULL, 0 };
    int lineno = 0;
    for (char *cur = text, *line; rc == 0 && (line = s_next_line(&cur)) != NULL;)
        rc = s_list_line(path, ++lineno, line, &mine, err);
    for (int i = 0; rc == 0 && i < mine.n; i++)
        rc = hs_curve_list_add(out, mine.v[i].key, mine.v[i].name, err);
    hs_curve_list_free(&mine);
    free(text);
    return rc;
}
