/*
 * store/store_space.c — the disk space of a store's map, and its one-writer
 * lock (at the end of this file). A writer that maps the file writable
 * reserves its pages before LMDB may write into them (at open and at every
 * growth of the map), so that a full disk is a clear error and never a
 * SIGBUS, and gives the room above its last page back at a clean close.
 * store.c calls in here when it opens, grows and closes the store.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A writer that maps the file writable (MDB_WRITEMAP, see hs_store_open) writes
 * new pages straight into the map. LMDB only ftruncates the file to the map size,
 * so those pages are holes, and on a full disk the kernel can answer a store into
 * a hole only with SIGBUS: no message, and no chance to stop cleanly. So the
 * whole map is reserved with posix_fallocate before LMDB may write into it (at
 * open and at every growth); then a full disk is an ENOSPC here, before any page
 * of the batch is written, and the last commit stays intact. The price is disk
 * space: the file takes its map size on disk, not its used size, which is why a
 * reserving writer keeps its map close to the pages in use: doubling while it is
 * under 64 MiB, then a quarter more, at most HS_STORE_GROW_MAX at a time (the
 * growths this costs, each a retried batch, are about twenty for the pro
 * archive).
 * Catching the SIGBUS instead would mean jumping out of the middle of an LMDB
 * write with its transaction half-updated.
 */
#define HS_STORE_GROW_MIN ((size_t)16 << 20)
#define HS_STORE_GROW_MAX ((size_t)256 << 20)

/* The room a reserving writer keeps above size bytes: as much again while the
 * store is small (doubling, cheap in disk), then a quarter, 16 to 256 MiB. */
static size_t s_headroom(size_t size)
{
    if (size < 4 * HS_STORE_GROW_MIN)
        return size ? size : 1;
    size_t step = size / 4;
    return step > HS_STORE_GROW_MAX ? HS_STORE_GROW_MAX : step;
}

static bool s_reserving(const hs_store_t *s)
{
    unsigned ef = 0;
    return mdb_env_get_flags(s->env, &ef) == 0 && (ef & MDB_WRITEMAP);
}

const char *hs__store_dir(const hs_store_t *s)
{
    const char *dir = NULL;
    return mdb_env_get_path(s->env, &dir) == 0 && dir ? dir : "?";
}

/* Allocates the file's blocks up to size bytes: 0, or the errno. */
static int s_fallocate(const hs_store_t *s, size_t size)
{
    int fd;
    if (mdb_env_get_fd(s->env, &fd) != 0)
        return EBADF;
    int e = posix_fallocate(fd, 0, (off_t)size);
    if (e && s->map_size)
        (void)!ftruncate(fd, (off_t)s->map_size);  /* drop a partial extension */
    return e;
}

static int s_nospace(const hs_store_t *s, size_t want, int e, hs_error_t *err)
{
    if (e != ENOSPC && e != EDQUOT)
        return hs_error_set(err, HS_EIO, "%s/data.mdb: cannot reserve %zu bytes: %s",
                            hs__store_dir(s), want, strerror(e));
    return hs_error_set(err, HS_ENOSPC,
                        "disk full: %s/data.mdb needs %zu bytes for its map (it has %zu); "
                        "free space or move the store: what was committed is kept",
                        hs__store_dir(s), want, s->map_size);
}

/*
 * Grows the map (no transaction open in this process): doubles it, or for a
 * reserving writer adds s_headroom, whose reservation tries smaller steps (down
 * to 1 MiB) before it reports the disk full. 0, HS_ENOSPC, HS_EIO, HS_ESTORE.
 */
int hs__store_map_grow(hs_store_t *s, hs_error_t *err)
{
    bool reserve = s_reserving(s);
    size_t step = reserve ? s_headroom(s->map_size) : s->map_size;
    int e = 0;
    while (reserve && (e = s_fallocate(s, s->map_size + step)) != 0) {
        if ((e != ENOSPC && e != EDQUOT) || step <= ((size_t)1 << 20))
            return s_nospace(s, s->map_size + step, e, err);
        step /= 2;
    }
    int rc = mdb_env_set_mapsize(s->env, s->map_size + step);
    if (rc)
        return hs__store_mdb_error(err, rc, "growing the map");
    s->map_size += step;
    return 0;
}

/* At open: reserves the pages in use and s_headroom above them (at most the map
 * LMDB was given: a big initial map would take its size on disk even for a small
 * store), or less, down to 1 MiB of room above the pages in use, when the disk
 * cannot hold that. */
int hs__store_reserve_open(hs_store_t *s, hs_error_t *err)
{
    if (!s_reserving(s))
        return 0;
    MDB_envinfo info;
    MDB_stat st;
    mdb_env_info(s->env, &info);
    mdb_env_stat(s->env, &st);
    size_t used = (info.me_last_pgno + 1) * (size_t)st.ms_psize;
    size_t want = used + s_headroom(used);
    if (want > info.me_mapsize)
        want = info.me_mapsize;   /* LMDB made it at least the pages in use */
    size_t floor = used + ((size_t)1 << 20) < want ? used + ((size_t)1 << 20) : want;
    int e;
    while ((e = s_fallocate(s, want)) != 0) {
        size_t next = want / 2 > floor ? want / 2 : floor;
        if ((e != ENOSPC && e != EDQUOT) || next == want)
            return s_nospace(s, want, e, err);
        want = next;
    }
    if (want != info.me_mapsize) {
        int rc = mdb_env_set_mapsize(s->env, want);
        if (rc)
            return hs__store_mdb_error(err, rc, "sizing the map");
    }
    s->map_size = want;
    return 0;
}

/*
 * A reserving writer's file holds its whole map on disk (see the top of
 * this file). At a clean close the room above the last page is given back, so a
 * finished store takes the size of its data: the next writer reserves again
 * at open, and readers never read past the last page. hs__store_release_fd dups the
 * descriptor (the env's own is gone after mdb_env_close) and notes the size;
 * hs__store_release_reserve truncates to it once LMDB has unmapped the file. Best
 * effort: a failure only leaves the room reserved.
 */
int hs__store_release_fd(hs_store_t *s)
{
    MDB_envinfo info;
    MDB_stat st;
    int fd;
    if (!s_reserving(s) || mdb_env_info(s->env, &info) || mdb_env_stat(s->env, &st) ||
        mdb_env_get_fd(s->env, &fd))
        return -1;
    s->release_size = (info.me_last_pgno + 1) * (size_t)st.ms_psize;
    return dup(fd);
}

void hs__store_release_reserve(const hs_store_t *s, int fd)
{
    if (fd < 0)
        return;
    struct stat sb;
    if (s->release_size && fstat(fd, &sb) == 0 && (size_t)sb.st_size > s->release_size)
        (void)!ftruncate(fd, (off_t)s->release_size);
    close(fd);
}

/*
 * One writer at a time. The store's code assumes it is the only writer: its
 * pending index and batch log live in its own memory, and a reserving writer
 * sizes and truncates the file. A second process that opened the same store
 * for writing used to take the first one down with SIGBUS (LMDB's open with
 * MDB_WRITEMAP truncates the file to its own map size, and a clean close gives
 * the room above the last page back, under the other's map). So a writer locks
 * the folder (flock: released by the kernel when the process dies, so a killed
 * writer leaves no stale lock) before LMDB opens anything; readers, which
 * change nothing, take no lock and may read while it writes.
 */
/* The folder dir flock'ed (how: LOCK_EX or LOCK_SH) into *fd: 0, HS_EAGAIN
 * when a process holds a lock that excludes it (err not set), or HS_EIO. */
static int s_folder_lock(const char *dir, int how, int *fd, hs_error_t *err)
{
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd < 0)
        return hs_error_set(err, HS_EIO, "%s: cannot open: %s", dir, strerror(errno));
    if (flock(*fd, how | LOCK_NB) == 0)
        return 0;
    int e = errno;
    close(*fd);
    *fd = -1;
    if (e == EWOULDBLOCK)
        return HS_EAGAIN;
    return hs_error_set(err, HS_EIO, "%s: cannot lock: %s", dir, strerror(e));
}

int hs__store_writer_lock(const char *dir, int *fd, hs_error_t *err)
{
    int rc = s_folder_lock(dir, LOCK_EX, fd, err);
    if (rc == HS_EAGAIN)
        return hs_error_set(err, HS_EAGAIN, "%s: another process is writing this store (an "
                            "analyze, a broker or an index), or reading it without write "
                            "access to the folder: one writer at a time; query, report and "
                            "check may read it meanwhile", dir);
    return rc;
}

int hs__store_reader_lock(const char *dir, int *fd, hs_error_t *err)
{
    return s_folder_lock(dir, LOCK_SH, fd, err);
}

void hs__store_writer_unlock(int fd)
{
    if (fd >= 0)
        close(fd);   /* the flock goes with its descriptor */
}
