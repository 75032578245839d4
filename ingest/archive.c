/*
 * ingest/archive.c — the input walker behind ingest: loose files, folders
 * (recursive, sorted), and libarchive-streamed archives. See archive.h.
 *
 * Memory: one member buffer at a time, grown as the member is read and never past
 * max_member, so a hostile or corrupt archive cannot make us allocate more than
 * that (archive headers may lie about sizes, so we do not trust them beyond a
 * first capacity hint).
 */
#include "ingest/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct s_walk {
    const hs_archive_visitor_t *v;
    hs_archive_stats_t *st;
    size_t max_member;
    unsigned flags;          /* HS_ARCHIVE_* */
    int stop;                /* non-zero once member() asked to stop */
    const char *root;        /* realpath of the folder argument being walked, or NULL */
    struct { dev_t dev; ino_t ino; } dirs[66];  /* folders on the current path (loops) */
    int ndirs;
} s_walk_t;

static int s_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int hs_archive_is_sgf_name(const char *name)
{
    return s_ends_with(name, ".sgf");
}

int hs_archive_is_archive_name(const char *name)
{
    static const char *const exts[] = {
        ".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".zip",
    };
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (s_ends_with(name, exts[i]))
            return 1;
    return 0;
}

static void s_fail(s_walk_t *w, const char *source, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void s_fail(s_walk_t *w, const char *source, int code, const char *fmt, ...)
{
    char msg[HS_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    w->st->failures++;
    if (w->v->failure)
        w->v->failure(w->v->ctx, source, code, msg);
}

/* Next buffer capacity: doubling, but never past max + 2 (max bytes, one extra
 * byte that proves the input too big, and the NUL). */
static size_t s_grow(size_t cap, size_t max)
{
    size_t ncap = cap * 2;
    return ncap > max + 2 ? max + 2 : ncap;
}

/* Hands one buffer (owned, NUL-terminated) to the visitor. */
static void s_yield(s_walk_t *w, const char *source, uint8_t *data, size_t len)
{
    w->st->sgf_files++;
    w->st->sgf_bytes += len;
    int rc = w->v->member(w->v->ctx, source, data, len);
    if (rc)
        w->stop = rc;
}

/* Reads a whole loose file (bounded). */
static void s_read_loose(s_walk_t *w, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        s_fail(w, path, HS_EIO, "cannot open: %s", strerror(errno));
        return;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && (uint64_t)sb.st_size > w->max_member) {
        fclose(f);
        s_fail(w, path, HS_ELIMIT, "file of %lld bytes is larger than the limit of %zu bytes",
               (long long)sb.st_size, w->max_member);
        return;
    }
    size_t cap = sb.st_size > 0 ? (size_t)sb.st_size + 1 : 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        s_fail(w, path, HS_ENOMEM, "out of memory reading %zu bytes", cap);
        return;
    }
    for (;;) {
        if (len + 1 >= cap) {
            /* Room for max_member + 1 bytes at most: one more than allowed tells. */
            if (len > w->max_member) {
                free(buf);
                fclose(f);
                s_fail(w, path, HS_ELIMIT, "file is larger than the limit of %zu bytes",
                       w->max_member);
                return;
            }
            size_t ncap = s_grow(cap, w->max_member);
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                s_fail(w, path, HS_ENOMEM, "out of memory");
                return;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || len > w->max_member) {
        free(buf);
        if (bad)
            s_fail(w, path, HS_EIO, "read error");
        else
            s_fail(w, path, HS_ELIMIT, "file is larger than the limit of %zu bytes",
                   w->max_member);
        return;
    }
    buf[len] = 0;
    s_yield(w, path, buf, len);
}

/*
 * Reads the current member's data into a fresh buffer. Returns 0 with *out and *len set,
 * HS_ELIMIT when it is too big (the rest of the member is skipped by libarchive at
 * the next header), or HS_EIO/HS_EPARSE when the archive failed (*fatal set when
 * libarchive cannot go on).
 */
static int s_read_member(s_walk_t *w, struct archive *a, struct archive_entry *e,
                         uint8_t **out, size_t *outlen, int *fatal, char *why, size_t whylen)
{
    size_t cap = 4096, len = 0;
    if (archive_entry_size_is_set(e)) {
        int64_t sz = archive_entry_size(e);
        if (sz > 0 && (uint64_t)sz > w->max_member) {
            snprintf(why, whylen, "member of %lld bytes is larger than the limit of %zu bytes",
                     (long long)sz, w->max_member);
            return HS_ELIMIT;
        }
        if (sz > 0)
            cap = (size_t)sz + 1;
    }
    uint8_t *buf = malloc(cap);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        return HS_ENOMEM;
    }
    for (;;) {
        if (len + 1 >= cap) {
            if (len > w->max_member) {
                free(buf);
                snprintf(why, whylen, "member is larger than the limit of %zu bytes",
                         w->max_member);
                return HS_ELIMIT;
            }
            size_t ncap = s_grow(cap, w->max_member);
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                snprintf(why, whylen, "out of memory");
                return HS_ENOMEM;
            }
            buf = nb;
            cap = ncap;
        }
        la_ssize_t got = archive_read_data(a, buf + len, cap - 1 - len);
        if (got < 0) {
            snprintf(why, whylen, "%s", archive_error_string(a) ? archive_error_string(a)
                                                                : "archive read error");
            free(buf);
            *fatal = got == ARCHIVE_FATAL;
            return HS_EIO;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    if (len > w->max_member) {
        free(buf);
        snprintf(why, whylen, "member is larger than the limit of %zu bytes", w->max_member);
        return HS_ELIMIT;
    }
    buf[len] = 0;
    *out = buf;
    *outlen = len;
    return 0;
}

/*
 * A link member named like SGF. A symlink's target may lie outside the archive
 * (or nowhere), so it is never followed. A hard link in a tar is the same file
 * as an earlier member, whose data the stream has already passed and handed
 * out under that member's name: reading it again could only give duplicates.
 * Either way the user is told, as a "link" failure, rather than meeting a
 * member that silently vanished (or read as an empty file).
 */
static void s_link_member(s_walk_t *w, const char *source, struct archive_entry *e)
{
    const char *hard = archive_entry_hardlink(e);
    if (hard) {
        s_fail(w, source, HS_EUNSUPPORTED, "hardlink member: the same file as member '%s', "
               "which is read under that name", hard);
        return;
    }
    const char *to = archive_entry_symlink(e);
    s_fail(w, source, HS_EUNSUPPORTED, "symlink member not followed (-> '%s')", to ? to : "?");
}

/* Archives inside archives are read (a yearly tar of monthly zips), down to this
 * depth; each inner archive is read into memory, within --max-member. */
#define S_MAX_NESTING 4

static struct archive *s_archive_new(void)
{
    struct archive *a = archive_read_new();
    if (!a)
        return NULL;
    archive_read_support_filter_all(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_7zip(a);
    archive_read_support_format_cpio(a);
    return a;
}

static int s_walk_members(s_walk_t *w, struct archive *a, const char *path, int probe,
                          int depth);

/* An archive member that is itself an archive: read whole, then walked as one
 * (its games' sources are "outer:inner:name"). */
static void s_inner_archive(s_walk_t *w, struct archive *a, struct archive_entry *e,
                            const char *source, int depth, int *fatal)
{
    if (depth + 1 >= S_MAX_NESTING) {
        s_fail(w, source, HS_EUNSUPPORTED, "an archive inside archives %d deep: not read",
               S_MAX_NESTING);
        return;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    char why[HS_ERROR_MSG_MAX];
    int rc = s_read_member(w, a, e, &data, &len, fatal, why, sizeof why);
    if (rc) {
        s_fail(w, source, rc, "%s", why);
        return;
    }
    struct archive *in = s_archive_new();
    if (!in)
        s_fail(w, source, HS_ENOMEM, "out of memory");
    else if (archive_read_open_memory(in, data, len) != ARCHIVE_OK)
        s_fail(w, source, HS_EIO, "cannot open archive: %s",
               archive_error_string(in) ? archive_error_string(in) : "unknown error");
    else
        s_walk_members(w, in, source, 0, depth + 1);
    if (in)
        archive_read_free(in);
    free(data);
}

/*
 * Streams an archive. Returns 0 when the archive was recognised (even if it failed
 * part way: that is reported), HS_EUNSUPPORTED when libarchive did not recognise it
 * at all and `probe` is set (the caller then treats the file another way).
 */
static int s_read_archive(s_walk_t *w, const char *path, int probe)
{
    struct archive *a = s_archive_new();
    if (!a) {
        s_fail(w, path, HS_ENOMEM, "out of memory");
        return 0;
    }
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
        s_fail(w, path, HS_EIO, "cannot open archive: %s",
               archive_error_string(a) ? archive_error_string(a) : "unknown error");
        archive_read_free(a);
        return 0;
    }
    int rc = s_walk_members(w, a, path, probe, 0);
    archive_read_free(a);
    return rc;
}

/* The members of an opened archive a, named path: see s_read_archive. */
static int s_walk_members(s_walk_t *w, struct archive *a, const char *path, int probe,
                          int depth)
{
    w->st->archives++;
    size_t plen = strlen(path);
    char *source = NULL;
    size_t source_cap = 0;
    uint64_t members = 0;
    struct archive_entry *e;
    for (;;) {
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r == ARCHIVE_FATAL || r == ARCHIVE_RETRY) {
            const char *es = archive_error_string(a);
            if (probe && members == 0) {
                free(source);
                w->st->archives--;
                return HS_EUNSUPPORTED;
            }
            s_fail(w, path, HS_EPARSE, "corrupt or truncated archive after %llu members: %s",
                   (unsigned long long)members, es ? es : "unknown error");
            break;
        }
        int fatal = 0;
        /* ARCHIVE_WARN: usable header with a complaint (e.g. odd charset); go on. */
        members++;
        const char *name = archive_entry_pathname_utf8(e);
        if (!name)
            name = archive_entry_pathname(e);
        if (!name)
            name = "(unnamed)";
        bool link = archive_entry_hardlink(e) || archive_entry_filetype(e) == AE_IFLNK;
        if (!link && archive_entry_filetype(e) != AE_IFREG)
            continue;
        size_t need = plen + 1 + strlen(name) + 1;
        if (need > source_cap) {
            char *ns = realloc(source, need);
            if (!ns) {
                s_fail(w, path, HS_ENOMEM, "out of memory");
                break;
            }
            source = ns;
            source_cap = need;
        }
        snprintf(source, source_cap, "%s:%s", path, name);
        if (!link && hs_archive_is_archive_name(name)) {
            s_inner_archive(w, a, e, source, depth, &fatal);
            if (fatal || w->stop)
                break;
            continue;
        }
        if (!hs_archive_is_sgf_name(name)) {
            w->st->skipped++;
            continue;
        }
        if (link) {
            s_link_member(w, source, e);
            continue;
        }
        uint8_t *data = NULL;
        size_t len = 0;
        char why[HS_ERROR_MSG_MAX];
        int rc = s_read_member(w, a, e, &data, &len, &fatal, why, sizeof why);
        if (rc) {
            s_fail(w, source, rc, "%s", why);
            if (fatal)
                break;
            continue;
        }
        s_yield(w, source, data, len);
        if (w->stop)
            break;
    }
    free(source);
    return 0;
}

static int s_cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void s_walk_path(s_walk_t *w, const char *path, int explicit_arg, int depth);

/* Lists a folder, sorts the names (byte order) and walks them. */
static void s_walk_dir(s_walk_t *w, const char *path, int depth)
{
    if (depth > 64) {
        s_fail(w, path, HS_ELIMIT, "folders nested more than 64 deep");
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        s_fail(w, path, HS_EIO, "cannot open folder: %s", strerror(errno));
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool short_of_memory = false;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            char **nn = realloc(names, ncap * sizeof *nn);
            if (!nn) {
                short_of_memory = true;
                break;
            }
            names = nn;
            cap = ncap;
        }
        if (!(names[n] = strdup(de->d_name))) {
            short_of_memory = true;
            break;
        }
        n++;
    }
    closedir(d);
    /* The entries listed so far are still walked; the user learns that the
     * rest were not, rather than a shorter archive without a word. */
    if (short_of_memory)
        s_fail(w, path, HS_ENOMEM, "out of memory listing the folder: only its first %zu "
               "entries are read", n);
    if (n)
        qsort(names, n, sizeof *names, s_cmp_names);
    size_t plen = strlen(path);
    int slash = plen && path[plen - 1] == '/';
    for (size_t i = 0; i < n; i++) {
        if (!w->stop) {
            size_t need = plen + 1 + strlen(names[i]) + 1;
            char *child = malloc(need);
            if (child) {
                snprintf(child, need, "%s%s%s", path, slash ? "" : "/", names[i]);
                s_walk_path(w, child, 0, depth + 1);
                free(child);
            } else {
                s_fail(w, names[i], HS_ENOMEM, "out of memory: not read");
            }
        }
        free(names[i]);
    }
    free(names);
}

/* True when the resolved path lies inside the folder argument being walked. */
static bool s_inside_root(const s_walk_t *w, const char *path)
{
    if (!w->root)
        return false;
    char *real = realpath(path, NULL);
    size_t n = strlen(w->root);
    bool in = real && !strncmp(real, w->root, n) && (real[n] == '/' || real[n] == '\0' ||
                                                     (n == 1 && w->root[0] == '/'));
    free(real);
    return in;
}

/*
 * A symbolic link met inside a folder (explicit arguments are always
 * followed). Without HS_ARCHIVE_FOLLOW_SYMLINKS, a link to a file inside the
 * folder is read (it names a file of the archive), a link to a folder inside it
 * is skipped (its files are walked under their own path) and a link that leads
 * outside the folder is not followed: a link in a downloaded archive must not
 * make ingest read the rest of the disk. Those that would have given SGF input
 * (a folder, an SGF or archive file) are reported. Returns true when the walk
 * should go on with *sb, the target's stat.
 */
static bool s_follow_link(s_walk_t *w, const char *path, struct stat *sb)
{
    struct stat tb;
    if (stat(path, &tb) != 0) {
        s_fail(w, path, HS_EIO, "dangling link: %s", strerror(errno));
        return false;
    }
    *sb = tb;
    if (w->flags & HS_ARCHIVE_FOLLOW_SYMLINKS)
        return true;
    bool dir = S_ISDIR(tb.st_mode);
    if (s_inside_root(w, path)) {
        if (!dir)
            return true;
        w->st->skipped++;
        return false;
    }
    if (dir || (S_ISREG(tb.st_mode) && (hs_archive_is_sgf_name(path) ||
                                        hs_archive_is_archive_name(path))))
        s_fail(w, path, HS_EUNSUPPORTED, "symbolic link to a %s outside the folder, not "
               "followed (--follow-symlinks reads it)", dir ? "folder" : "file");
    else
        w->st->skipped++;
    return false;
}

/* Walks a folder unless it is already on the current path (a link loop). */
static void s_enter_dir(s_walk_t *w, const char *path, const struct stat *sb, int depth)
{
    for (int i = 0; i < w->ndirs; i++)
        if (w->dirs[i].dev == sb->st_dev && w->dirs[i].ino == sb->st_ino) {
            s_fail(w, path, HS_EUNSUPPORTED, "symbolic link loop: the folder is already "
                   "being walked");
            return;
        }
    if (w->ndirs >= (int)(sizeof w->dirs / sizeof w->dirs[0])) {
        s_fail(w, path, HS_ELIMIT, "folders nested more than 64 deep");
        return;
    }
    w->dirs[w->ndirs].dev = sb->st_dev;
    w->dirs[w->ndirs].ino = sb->st_ino;
    w->ndirs++;
    s_walk_dir(w, path, depth);
    w->ndirs--;
}

static void s_walk_path(s_walk_t *w, const char *path, int explicit_arg, int depth)
{
    struct stat sb;
    /* Explicit arguments are followed; links inside folders: s_follow_link. */
    if ((explicit_arg ? stat(path, &sb) : lstat(path, &sb)) != 0) {
        s_fail(w, path, HS_EIO, "cannot stat: %s", strerror(errno));
        return;
    }
    if (S_ISLNK(sb.st_mode) && !s_follow_link(w, path, &sb))
        return;
    if (S_ISDIR(sb.st_mode)) {
        s_enter_dir(w, path, &sb, depth);
        return;
    }
    if (!S_ISREG(sb.st_mode)) {
        if (explicit_arg)
            s_fail(w, path, HS_EIO, "not a regular file or folder");
        else
            w->st->skipped++;
        return;
    }
    if (hs_archive_is_sgf_name(path)) {
        s_read_loose(w, path);
    } else if (hs_archive_is_archive_name(path)) {
        s_read_archive(w, path, 0);
    } else if (explicit_arg) {
        /* Named by the user: an archive with an odd name, or else SGF. */
        if (s_read_archive(w, path, 1) == HS_EUNSUPPORTED)
            s_read_loose(w, path);
    } else {
        w->st->skipped++;
    }
}

int hs_archive_walk(const char *const *paths, int npaths, size_t max_member,
                    const hs_archive_visitor_t *v, hs_archive_stats_t *stats,
                    hs_error_t *err)
{
    return hs_archive_walk_ex(paths, npaths, max_member, 0, v, stats, err);
}

int hs_archive_walk_ex(const char *const *paths, int npaths, size_t max_member,
                       unsigned flags, const hs_archive_visitor_t *v,
                       hs_archive_stats_t *stats, hs_error_t *err)
{
    hs_archive_stats_t local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    if (!v || !v->member || npaths < 0 || (npaths > 0 && !paths))
        return hs_error_set(err, HS_EINVAL, "hs_archive_walk: bad arguments");
    s_walk_t w = { .v = v, .st = stats, .flags = flags,
                   .max_member = max_member ? max_member : HS_ARCHIVE_DEFAULT_MAX_MEMBER };
    for (int i = 0; i < npaths && !w.stop; i++) {
        /* "Inside the folder" is inside the folder the user named. */
        char *root = realpath(paths[i], NULL);
        w.root = root;
        s_walk_path(&w, paths[i], 1, 0);
        w.root = NULL;
        free(root);
    }
    return w.stop;
}
