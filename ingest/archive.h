/*
 * ingest/archive.h — walks the inputs of an ingest and yields every SGF file in
 * them, one at a time.
 *
 * An input is a loose file, a folder (walked recursively, entries sorted by name so
 * that two runs see the same order), or an archive read with libarchive: .tar,
 * .tar.gz/.tgz, .tar.xz/.txz, .tar.bz2, .zip. Archives are streamed: only the member
 * being handed out is in memory, and a member bigger than a configurable limit is
 * reported as a failure rather than read. A file given explicitly whose name is
 * neither .sgf nor a known archive extension is tried as an archive, then as SGF.
 *
 * What counts as SGF: a name ending in ".sgf" (any case). Other members of archives
 * and other files in folders are skipped and counted, never parsed. An archive
 * inside an archive (a member named like one) is read too, whole into memory
 * (within the member limit), down to 4 levels; deeper ones are failures.
 *
 * Every SGF file is named by a "source" string: the path for a loose file or a file
 * in a folder, "ARCHIVE:MEMBER" for an archive member (e.g.
 * "data/pro19-archive.tar.gz:pro19/fox-pro/1p/123.sgf"), "ARCHIVE:INNER:MEMBER"
 * for a member of an inner archive.
 *
 * Failures never abort the walk: an unreadable file, a corrupt or truncated archive,
 * an oversized member are passed to the failure callback and the walk goes on with
 * the next member (or the next input when the archive itself cannot go on).
 */
#ifndef HS_INGEST_ARCHIVE_H
#define HS_INGEST_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* Default bound on one SGF file or member (bytes). Real records are a few KB. */
#define HS_ARCHIVE_DEFAULT_MAX_MEMBER ((size_t)64 << 20)

typedef struct hs_archive_visitor {
    /*
     * Called once per SGF file/member, in walk order. `data` is a malloc'd buffer
     * of `len` bytes plus one NUL byte after them (so parsers may rely on a
     * terminator); the callee owns it and must free() it. `source` is valid only
     * during the call. Return 0 to go on; any other value stops the walk and is
     * returned by hs_archive_walk().
     */
    int (*member)(void *ctx, const char *source, uint8_t *data, size_t len);
    /*
     * Called for each input, archive or member that could not be read (may be
     * NULL). `code` is a negative HS_E* code (HS_EIO, HS_ELIMIT, HS_EPARSE for a
     * corrupt archive), `message` says why. Both strings valid only during the call.
     */
    void (*failure)(void *ctx, const char *source, int code, const char *message);
    void *ctx;
} hs_archive_visitor_t;

typedef struct hs_archive_stats {
    uint64_t sgf_files;      /* SGF files/members handed to member() */
    uint64_t sgf_bytes;      /* their total size */
    uint64_t skipped;        /* non-SGF files or members (and nested archives) */
    uint64_t failures;       /* calls to failure() */
    uint64_t archives;       /* archives opened */
} hs_archive_stats_t;

/*
 * Walks paths[0..npaths) in the order given and calls v->member for each SGF
 * file found. max_member bounds one file or member (0 = the default). *stats (may
 * be NULL) is zeroed, then accumulated. Returns 0 when the walk ran to the end
 * (individual failures are reported through v->failure, not here), the member
 * callback's non-zero value when it stopped the walk, or HS_EINVAL for bad
 * arguments. Not reentrant across threads for one visitor, but holds no global
 * state: separate walks may run in parallel.
 */
int hs_archive_walk(const char *const *paths, int npaths, size_t max_member,
                    const hs_archive_visitor_t *v, hs_archive_stats_t *stats,
                    hs_error_t *err);

/* Flags of hs_archive_walk_ex. */
#define HS_ARCHIVE_FOLLOW_SYMLINKS 0x1u  /* follow every symbolic link inside folders */

/*
 * hs_archive_walk with flags. Symbolic links: an explicit argument is always
 * followed. Inside a folder, without HS_ARCHIVE_FOLLOW_SYMLINKS, a link to a
 * file inside the folder argument is read, a link to a folder inside it is
 * skipped (its files are walked under their own path), and a link that leads
 * outside it is not followed: reported through failure() with HS_EUNSUPPORTED
 * when it leads to a folder or to an SGF or archive file, else counted as
 * skipped. With the flag every link is followed (a link loop is reported, not
 * walked twice). Link members of archives are never followed: a tar symlink or
 * hardlink member named like SGF is reported with HS_EUNSUPPORTED ("symlink
 * member not followed", "hardlink member: the same file as member M, which is
 * read under that name" -- a tar hardlink's data is that earlier member's).
 */
int hs_archive_walk_ex(const char *const *paths, int npaths, size_t max_member,
                       unsigned flags, const hs_archive_visitor_t *v,
                       hs_archive_stats_t *stats, hs_error_t *err);

/* True when name ends in ".sgf" (any case). */
int hs_archive_is_sgf_name(const char *name);

/* True when name ends in an archive extension this module reads (any case). */
int hs_archive_is_archive_name(const char *name);

#endif
