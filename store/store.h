/*
 * store/store.h — the LMDB store: games, positions, evaluations, the player and
 * source indexes, and the broker's job journal, in one LMDB environment.
 *
 * Layout (named databases; all integers in keys are big-endian so that LMDB's
 * byte order is numeric order; record values start with a format byte and end
 * with a CRC32C, every byte in docs/STORE.md):
 *
 *   games     game id (16)                       -> game record (metadata, source,
 *                                                   job, setup and moves)
 *   failed    hash of (job, source) (16)         -> {source, reason, job}
 *   sources   source path (bytes)                -> game id (16)
 *   players   name + '\0' + game id (16)         -> (empty)
 *   moves     game id (16) + move number (u16)   -> position key (16) + per engine:
 *                                                   engine id (u32), eval seq (u64)
 *   evalidx   engine id (u32) + position key(16) -> eval sequence number (u64)
 *   evaldata  eval sequence number (u64, grows)  -> eval record (compact maps: the
 *                                                   ones --maps keeps, run-coded)
 *   engines   engine id (u32)                    -> engine spec string
 *   boards    board key (u64) + game id (16)     -> symmetry (u8): the board index
 *             + move number (u16)                   (core/symmetry.h; see below)
 *   jobs      job id (u64, grows)                -> job record
 *   tasks     task id (u64, grows)               -> task record
 *   taskstate state (u8) + task id (u64)         -> (empty)   [index by state]
 *   jobgames  job id (u64) + game id (16)        -> (empty)   [the games of a job]
 *   meta      name                               -> counter / schema version
 *
 * Why: LMDB writes records 20× faster in key order than at random keys
 * (../shared/MEASURED.md), so the big eval records go to `evaldata` under a
 * growing sequence number with MDB_APPEND, and the hash-keyed `evalidx` holds only
 * 8-byte values. The same position (same position key, see core/wire.h) reached in
 * many games is stored and evaluated once per engine configuration.
 *
 * Even small hash-keyed entries are slow to insert a batch at a time (every touched
 * page is rewritten at commit), so `evalidx` is derived data, written in sorted
 * bulk: the writer keeps new index entries in memory and flushes them every
 * hs_store_set_index_flush() entries (default HS_STORE_INDEX_FLUSH) in a
 * transaction of its own right after a batch commit, with a watermark in meta; on
 * open it rebuilds the in-memory part from `evaldata` (so a crash loses nothing),
 * and on close it flushes. The writer also keeps a Bloom filter of the index, so a
 * new position (the usual case) costs no index lookup. Game queries never need
 * the index (moves entries hold the sequence numbers); a reader's
 * hs_store_eval_get sees evals up to the writer's last flush.
 *
 * Writing: ONE writer (one hs_store_t opened read-write, used by one thread).
 * Writes happen inside a batch: hs_store_begin(), any number of puts,
 * hs_store_commit() — one LMDB transaction. A write function called outside a batch
 * runs in its own one-call batch. Every put of a batch is also logged in memory, so
 * when LMDB reports MDB_MAP_FULL the store doubles the map size and replays the
 * whole batch in a fresh transaction: callers never see MDB_MAP_FULL. This holds
 * for every write (puts, deletes, index moves of the journal, the evalidx flush,
 * counter saves, commit itself, even creating the databases at open): they all
 * go through one grow-and-replay path.
 *
 * Disk space: a NOSYNC writer maps the file writable (MDB_WRITEMAP), where a full
 * disk would be a SIGBUS, so it reserves the map's disk space (posix_fallocate)
 * at open and before every growth, and keeps the map near the pages in use: it
 * doubles up to 64 MiB, then a growth adds a quarter, at most 256 MiB (halved
 * down to 1 MiB when the disk cannot hold it), so the file is at most that much
 * bigger than its data. A full disk is then HS_ENOSPC,
 * "disk full: DIR/data.mdb needs N bytes ...", and the batch is lost but every
 * commit before it is kept; a synced writer's ENOSPC is HS_ENOSPC too.
 *
 * Reading: any number of processes may open the same directory read-only
 * (HS_STORE_RDONLY) while the writer writes; LMDB readers never block the writer
 * and see the last committed state. Inside a batch, reads on the writer's handle see
 * the batch's own uncommitted writes.
 *
 * Idempotency: every put is keyed so that putting the same thing twice stores it
 * once (games by id, evals by engine + position key, moves by game + move number,
 * failed games by job and source); the *_put functions report whether the record already
 * existed. A broker that replays results after a crash therefore stores nothing twice.
 *
 * Errors: functions return 0 or a negative HS_E* code (HS_ESTORE for an LMDB
 * failure, with mdb_strerror in *err; HS_ENOTFOUND for a lookup miss; HS_ENOSPC
 * for a full disk; HS_ECORRUPT for damage LMDB reports, and for a record whose
 * checksum or contents are wrong, naming the table and key: never a misread).
 *
 * Threads: an hs_store_t is used by one thread at a time.
 */
#ifndef HS_STORE_STORE_H
#define HS_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/game.h"
#include "core/wire.h"
#include "core/wire_curve.h"

/* Version of the store's format, in meta "schema" (docs/STORE.md): 1 = every
 * record MessagePack without a checksum; 2 = records checksummed, evals compact;
 * 3 = eval maps may be context-coded (map form 4); 4 = eval maps may be kept as
 * their changes against an earlier record (map form 5). A writer opening an older
 * store marks it with this version (its old records stay readable: each
 * record's first byte and each map's encoding byte say their format); a program
 * that knows only an older version then refuses the store by name instead of
 * misreading the new records. */
#define HS_STORE_SCHEMA 4

/* Index entries kept in memory before a sorted flush (see above): 8 MiB. */
#define HS_STORE_INDEX_FLUSH (1u << 18)

/* Default initial map size (grows by doubling on demand). */
#define HS_STORE_DEFAULT_MAP (64u << 20)

/* hs_store_open flags */
#define HS_STORE_RDONLY  0x1u  /* read-only reader; may run beside the writer */
#define HS_STORE_NOSYNC  0x2u  /* don't fsync on commit (tests, benchmarks; a crash
                                * may lose the last commits but never corrupts) */

/* Which per-point maps new eval records keep (--maps; docs/STORE.md). A map a
 * user did not ask for is not stored at all. Default: the judge's ownership and
 * classes (what queries print and reports draw); influence is ~2 bytes a point
 * and only Park's diagrams need it. */
#define HS_STORE_MAP_OWNERSHIP 0x1u
#define HS_STORE_MAP_INFLUENCE 0x2u
#define HS_STORE_MAP_CLASSES   0x4u
#define HS_STORE_MAP_ALL       0x7u
#define HS_STORE_MAP_DEFAULT   (HS_STORE_MAP_OWNERSHIP | HS_STORE_MAP_CLASSES)
/* hs_store_open flag: keep these maps (and record them in meta "maps"). Without
 * it a writer keeps what the store's meta says, or HS_STORE_MAP_DEFAULT. */
#define HS_STORE_MAPS(m)  (0x100u | ((unsigned)(m) & 7u) << 9)

/* "ownership,classes" style list (also "all", "none") to HS_STORE_MAP_* bits:
 * 0 or HS_EINVAL. */
int hs_store_maps_parse(const char *list, unsigned *maps, hs_error_t *err);
/* The list for maps ("none" when 0) into buf. */
void hs_store_maps_name(unsigned maps, char *buf, size_t size);

typedef struct hs_store hs_store_t;

/*
 * Opens (creating when needed, unless RDONLY) the store in directory dir (created
 * when missing, unless RDONLY). map_size is the initial map size in bytes (0 =
 * HS_STORE_DEFAULT_MAP, or the current size of an existing store if larger); a
 * reserving writer (see "Disk space") starts at the pages in use plus that
 * growth step instead, at most map_size, so that a big map_size does not take
 * its size on disk for a small store.
 * The file is checked against its meta pages first (hs_store_file_check).
 * *out is set only on success; close it with hs_store_close().
 * Returns 0, HS_ENOTFOUND (RDONLY and no store there), HS_ECORRUPT (an empty,
 * truncated or damaged data.mdb), HS_ENOSPC (a writer finds the disk full),
 * HS_ESTORE, HS_EIO, HS_EUNSUPPORTED (the store has a newer schema), HS_ENOMEM.
 */
int hs_store_open(hs_store_t **out, const char *dir, unsigned flags, size_t map_size,
                  hs_error_t *err);

/* Aborts an open batch (its writes are lost), closes, sets *s = NULL. NULL-safe. */
void hs_store_close(hs_store_t **s);

/* Index entries the writer keeps in memory before writing them to `evalidx` in
 * one sorted pass (at the next commit once reached). Tests and benchmarks lower
 * it; n = 0 restores HS_STORE_INDEX_FLUSH. */
void hs_store_set_index_flush(hs_store_t *s, unsigned n);

/* Current map size in bytes (grows on demand). */
size_t hs_store_map_size(const hs_store_t *s);

/* HS_STORE_MAP_* bits new eval records keep (the open flag, meta "maps" or the
 * default; see HS_STORE_MAPS). */
unsigned hs_store_maps_kept(const hs_store_t *s);

/* ---- batches (writer only) ---- */

/* Starts a batch. HS_EBADSTATE when one is open or the store is read-only. */
int hs_store_begin(hs_store_t *s, hs_error_t *err);
/* Commits the open batch (growing the map and replaying when it is full). On
 * failure the batch is aborted and its writes are lost. */
int hs_store_commit(hs_store_t *s, hs_error_t *err);
/* Drops the open batch's writes. No-op without a batch. */
void hs_store_abort(hs_store_t *s);
/*
 * Read snapshot held across many read calls (the broker's dispatch reads a game
 * per TASK): until hs_store_read_release, a read call made while no batch is open
 * uses this one read transaction instead of beginning and ending its own, so it
 * sees the store as it was at the hold. A batch opened meanwhile is still read
 * through (it is newer). The transaction is reset, not freed, at the release and
 * renewed at the next hold. Hold it briefly: LMDB cannot reuse pages a held
 * snapshot still sees. 0, or HS_ESTORE (reads then begin their own, as before).
 * Release is a no-op without a hold.
 */
int hs_store_read_hold(hs_store_t *s, hs_error_t *err);
void hs_store_read_release(hs_store_t *s);
/* True while a batch is open. */
bool hs_store_in_batch(const hs_store_t *s);

/* ---- games ---- */

/*
 * Stores game g (its id must be set: hs_game_compute_id) read from `source` (may be
 * NULL) for job job_id (0 = none), with its player index entries, the source
 * index entry and (a new game only) its board index entries. When a game with
 * the same id exists, *existed (may be NULL) is set true and the source index
 * entry is added; when that game was stored from this same source and its
 * record differs (players, result, date... corrected in the file), the new
 * record replaces it under the job that stored it first, and the player index
 * follows (counted in hs_store_stats_t.games_refreshed). The same game from
 * another source keeps the record it was first stored with.
 */
int hs_store_game_put(hs_store_t *s, const hs_game_t *g, const char *source,
                      uint64_t job_id, bool *existed, hs_error_t *err);

/*
 * Records that the game at `source` could not be read, with the reason. Idempotent
 * per (job_id, source) (*existed as above): the same source in two jobs is two
 * records, so no job's record hides another's. (A store written before this kept
 * one record per source; those records stay readable.)
 */
int hs_store_game_failed(hs_store_t *s, const char *source, const char *reason,
                         uint64_t job_id, bool *existed, hs_error_t *err);

/*
 * Reads game `id` into *g (initialised here; the caller releases it with
 * hs_game_fini() or hs_wire_game_fini() on a wrapper). *source (may be NULL)
 * receives a malloc'd copy of its first source path or NULL; *job_id (may be NULL)
 * its job. g may be NULL: then only the job id (the record's header) and the
 * source are read, and the game itself (moves, setup, metadata) is skipped, not
 * decoded (the broker needs one of those fields of an existing or failed game).
 * 0 or HS_ENOTFOUND.
 */
int hs_store_game_get(hs_store_t *s, const uint64_t id[2], hs_game_t *g, char **source,
                      uint64_t *job_id, hs_error_t *err);

/* Game id stored for a source path: 0 or HS_ENOTFOUND. */
int hs_store_game_by_source(hs_store_t *s, const char *source, uint64_t id[2],
                            hs_error_t *err);

/* Callback for game iteration: return 0 to go on, anything else stops and is
 * returned by the iterating function. */
typedef int (*hs_store_game_cb)(void *ctx, const uint64_t id[2]);

/* Calls cb for every game whose black or white player is exactly `name`. */
int hs_store_games_by_player(hs_store_t *s, const char *name, hs_store_game_cb cb,
                             void *ctx, hs_error_t *err);
/*
 * Calls cb for every stored player whose name begins with the bytes of prefix
 * ("" for all), with the number of games the name plays in (a game where it
 * holds both colours counts twice), in byte order of the names. A name is
 * given as stored: cut at 400 bytes. cb's return as hs_store_game_cb's.
 */
typedef int (*hs_store_player_cb)(void *ctx, const char *name, int64_t games);
int hs_store_players_each(hs_store_t *s, const char *prefix, hs_store_player_cb cb,
                          void *ctx, hs_error_t *err);
/* Calls cb for every game, in id order. */
int hs_store_games_each(hs_store_t *s, hs_store_game_cb cb, void *ctx, hs_error_t *err);

/* Callback for failed games: source, reason, job. */
typedef int (*hs_store_failed_cb)(void *ctx, const char *source, const char *reason,
                                  uint64_t job_id);
int hs_store_failed_each(hs_store_t *s, hs_store_failed_cb cb, void *ctx, hs_error_t *err);
/* The failed games of job job_id, or with job_id 0 of the whole store, each
 * source counted once: a second job over the same archive records its own
 * failure of each broken game (one record per job and source), which is still
 * one broken game. 0, HS_ENOMEM or HS_ESTORE. */
int hs_store_failed_count(hs_store_t *s, uint64_t job_id, int64_t *n, hs_error_t *err);

/* ---- evaluations ---- */

/*
 * Looks up the evaluation of position key `pos_key` by engine `engine_id`. With
 * out == NULL it only tests existence; otherwise *out is filled (caller releases
 * with hs_eval_fini). 0 (hit) or HS_ENOTFOUND (miss). Every call counts toward
 * the hit rate in hs_store_stats (counters live in the writer's handle and are
 * saved at each commit; a read-only handle keeps its own in memory).
 */
int hs_store_eval_get(hs_store_t *s, uint32_t engine_id, const uint8_t pos_key[16],
                      hs_eval_t *out, hs_error_t *err);

/*
 * Stores the result of evaluating position e->move_number of game game_id: unless
 * the same engine already has a record for e->pos_key, the eval record; and the
 * moves entry (game, move number) pointing at that record. *dup (may be NULL) is
 * set true when the eval record existed already (nothing new stored; the moves
 * entry is still added when missing, so a shared opening shows in every game).
 * Putting the same result twice stores it once. Records with e->error set are
 * stored like the others (the reason is kept). engine_spec (may be NULL) is
 * remembered in `engines` the first time an engine id is seen. When e->raw is
 * set (an eval a wire decoder validated, see core/wire.h) those bytes are stored
 * as the record and the eval's own maps are not read (they may be NULL).
 */
int hs_store_result_put(hs_store_t *s, const uint64_t game_id[2], const hs_eval_t *e,
                        const char *engine_spec, bool *dup, hs_error_t *err);

/*
 * Whether every one of the n engines (engine_ids) has an eval record of position
 * pos_key, committed or still in the writer's pending index: *covered true when
 * they all do (false for n == 0). A broker asks before it sends a position to a
 * worker: a covered position needs no engine at all (hs_store_result_link).
 * Unlike hs_store_eval_get it counts no lookup. 0 or the store's error.
 */
int hs_store_evals_cover(hs_store_t *s, const uint8_t pos_key[16], const uint32_t *engine_ids,
                         int n, bool *covered, hs_error_t *err);

/*
 * hs_store_result_put without an evaluation: the moves entry (game game_id,
 * move_number) points at engine_id's existing record of pos_key, as a repeated
 * result would (it counts as a put and a repeat in hs_store_stats). 0, or
 * HS_ENOTFOUND (no message set) when that engine has no record of the position
 * (nothing written: evaluate it instead), or the store's error.
 */
int hs_store_result_link(hs_store_t *s, const uint64_t game_id[2], int move_number,
                         const uint8_t pos_key[16], uint32_t engine_id, hs_error_t *err);

/* Callback for evals of one game: one call per (move number, engine) in move order. */
typedef int (*hs_store_eval_cb)(void *ctx, const hs_eval_t *e);

/*
 * Calls cb with the evals of game id in move order (move numbers from..to
 * inclusive; to < 0 = to the end), for engine engine_id or every engine when 0.
 * The hs_eval_t passed to cb is valid only during the call.
 */
int hs_store_game_evals(hs_store_t *s, const uint64_t id[2], int from, int to,
                        uint32_t engine_id, hs_store_eval_cb cb, void *ctx,
                        hs_error_t *err);

/* Engine spec for an engine id (copied into buf, size bytes): 0 or HS_ENOTFOUND. */
int hs_store_engine_spec(hs_store_t *s, uint32_t engine_id, char *buf, size_t size,
                         hs_error_t *err);

/* Callback for engines: id and spec string (valid during the call). */
typedef int (*hs_store_engine_cb)(void *ctx, uint32_t engine_id, const char *spec);

/* Calls cb for every engine configuration that has stored evals, in id order. */
int hs_store_engines_each(hs_store_t *s, hs_store_engine_cb cb, void *ctx, hs_error_t *err);

/* Callback for hs_store_position_games: a game and the move number at which it
 * reached the position. */
typedef int (*hs_store_position_cb)(void *ctx, const uint64_t game_id[2], int move_number);

/*
 * Calls cb for every stored (game, move number) whose position key is pos_key (any
 * engine), in game id / move order. There is no index from position to games (it
 * would be a second hash-keyed index on the write path), so this scans the `moves`
 * database: linear in the stored positions (~50 bytes each, read in key order;
 * tens of milliseconds per million). Sees everything committed, flushed index or
 * not.
 */
int hs_store_position_games(hs_store_t *s, const uint8_t pos_key[16],
                            hs_store_position_cb cb, void *ctx, hs_error_t *err);

/* ---- the board index (store/store_boards.c) ----
 *
 * `boards`: canonical board key (u64, core/symmetry.h) + game id (16) + move
 * number (u16) -> one byte, the symmetry that maps that game's board onto the
 * canonical orientation. One entry per position of every stored game (move 0 =
 * after the setup, up to the last move), written by hs_store_game_put in the same
 * batch as the game, so it is never behind the games. A store written before the
 * index existed has none: meta "boards" records that the index is complete, and
 * hs_store_boards_rebuild back-fills it. A game that cannot be replayed (an
 * illegal move) is indexed up to the position before that move. */

/* Whether the board index covers every stored game (meta "boards" is set). */
bool hs_store_boards_complete(hs_store_t *s);

/* Progress callback of the rebuild: games done of total (called every few
 * hundred games and at the end); return non-zero to stop (that value is returned;
 * what was indexed so far is committed and the index stays incomplete). */
typedef int (*hs_store_progress_cb)(void *ctx, int64_t done, int64_t total);

/*
 * Writer only: indexes every stored game that has no entries yet (in batches of
 * its own; an open batch is HS_EBADSTATE), then marks the index complete.
 * Idempotent: a second run adds nothing. *added (may be NULL) gets the entries
 * written. 0, HS_EBADSTATE, or a store error.
 */
int hs_store_boards_rebuild(hs_store_t *s, hs_store_progress_cb cb, void *ctx,
                            int64_t *added, hs_error_t *err);

/* Callback for hs_store_boards_find: a game, the move number after which it had
 * the board, and the symmetry from that game's orientation to the canonical one. */
typedef int (*hs_store_board_cb)(void *ctx, const uint64_t game_id[2], int move_number,
                                 int sym);

/* Calls cb for every indexed (game, move number) whose board key is key, in game
 * id / move order: one LMDB range read, no scan. 0 or a store error. */
int hs_store_boards_find(hs_store_t *s, uint64_t key, hs_store_board_cb cb, void *ctx,
                         hs_error_t *err);

/* Bytes the `boards` table takes (its pages × page size), for the index's share
 * of the store in bench/ and `query stats`. */
int hs_store_boards_bytes(hs_store_t *s, uint64_t *bytes, hs_error_t *err);

/* ---- the job journal (broker) ---- */

typedef enum hs_job_state {
    HS_JOB_RUNNING = 0,
    HS_JOB_DONE = 1,
    HS_JOB_CANCELED = 2,
    HS_JOB_FAILED = 3,
} hs_job_state_t;

/* "running", "done", "canceled", "failed". */
const char *hs_job_state_name(hs_job_state_t st);

typedef struct hs_store_job {
    uint64_t id;                 /* assigned by hs_store_job_create */
    char name[HS_WIRE_MAX_NAME];
    hs_job_state_t state;
    char engines[1024];          /* comma-separated engine specs */
    char moves_spec[64];         /* "all", "every:N", "last" */
    bool input_complete;         /* the client sent its last batch */
    int64_t games_total, games_done, games_failed;
    int64_t positions_total, positions_done;
    int64_t created_unix, updated_unix;
    char reason[256];            /* why it failed / was canceled, or "" */
    char owner[HS_CURVE_KEY_LEN + 1];  /* the submitting client's CURVE public key
                                 * (Z85), "" = anonymous (a plaintext broker, or a
                                 * record written before owners existed) */
} hs_store_job_t;

/* Creates a job from *job (its id is ignored) and sets job->id (1, 2, 3, ...). */
int hs_store_job_create(hs_store_t *s, hs_store_job_t *job, hs_error_t *err);
/* Replaces the stored record of job->id (HS_ENOTFOUND when it doesn't exist). */
int hs_store_job_put(hs_store_t *s, const hs_store_job_t *job, hs_error_t *err);
/* Reads job id into *out: 0 or HS_ENOTFOUND. */
int hs_store_job_get(hs_store_t *s, uint64_t id, hs_store_job_t *out, hs_error_t *err);
/* All jobs in id order into a malloc'd array *jobs (caller frees; NULL when none). */
int hs_store_job_list(hs_store_t *s, hs_store_job_t **jobs, int *count, hs_error_t *err);
/* Callback for hs_store_job_each: one job's record, valid during the call only;
 * return non-zero to stop (that value is returned). */
typedef int (*hs_store_job_cb)(void *ctx, const hs_store_job_t *job);
/* Calls cb for every job in id order, one record in memory at a time: the
 * journal of a long-lived broker holds every job it ever ran (a record is about
 * 1.7 KB), which hs_store_job_list would hold all at once. Sees the open batch's
 * writes. Don't write to the store from cb. 0, cb's value, HS_ECORRUPT (a record
 * that does not decode: the walk stops there) or HS_ESTORE. */
int hs_store_job_each(hs_store_t *s, hs_store_job_cb cb, void *ctx, hs_error_t *err);

/*
 * The games of a job. A game record names the job that stored it first, but a
 * later job analyses it too (with other engines, or counted done at once because
 * an earlier job already evaluated it), so a report of the later job needs its
 * own list: the broker adds every game a job accepts. Adding one twice is no
 * error: *existed (may be NULL) says whether the job listed it already (a batch
 * a client sent again). 0 or HS_ESTORE.
 */
int hs_store_job_game_add(hs_store_t *s, uint64_t job_id, const uint64_t game_id[2],
                          bool *existed, hs_error_t *err);
/* Whether job job_id analysed game game_id: listed by hs_store_job_game_add, or
 * (a store written before such lists) the game's record names the job.
 * *has; 0, HS_ENOTFOUND (no such game) or HS_ESTORE. */
int hs_store_job_has_game(hs_store_t *s, uint64_t job_id, const uint64_t game_id[2],
                          bool *has, hs_error_t *err);

typedef enum hs_task_state {
    HS_TASK_QUEUED = 0,
    HS_TASK_LEASED = 1,
    HS_TASK_DONE = 2,
    HS_TASK_FAILED = 3,
    HS_TASK_CANCELED = 4,
    HS_TASK_STATE_COUNT
} hs_task_state_t;

/* "queued", "leased", "done", "failed", "canceled". */
const char *hs_task_state_name(hs_task_state_t st);

/*
 * A task: positions move_first, move_first + move_step, ... <= move_last of one
 * game (plus move_last itself when include_last), for the engines of its job.
 */
typedef struct hs_store_task {
    uint64_t id;                 /* assigned by hs_store_task_create */
    uint64_t job_id;
    uint64_t game_id[2];
    hs_task_state_t state;
    int attempts;                /* leases so far */
    int move_first, move_last, move_step;
    char reason[256];            /* last failure, or "" */
    /* A big game is split into `chunks` tasks of consecutive move ranges with
     * consecutive ids (created in one batch): this task is chunk number `chunk`
     * (0-based), so its siblings are ids id - chunk .. id - chunk + chunks - 1.
     * chunks 0 or 1: the task covers its game alone (records written before
     * chunking existed read back as 0, 0). */
    int chunk, chunks;
    /* The job's engines this task runs: bit k = the job's k-th engine (in the
     * order of hs_store_job_t.engines). 0 = every engine of the job: a game new
     * to the store, and records written before the mask existed. A game an
     * earlier job stored gets only the engines it still lacks (the broker, from
     * hs_store_task_covered_engines). */
    uint32_t engines;
} hs_store_task_t;

/* Number of positions task t covers (per engine). */
int hs_store_task_positions(const hs_store_task_t *t);

/*
 * Which of the n engine ids every position task t covers (moves
 * t->move_first + i * t->move_step of game t->game_id,
 * hs_store_task_positions of them) has a stored eval of: bit k of *covered
 * is set when each has one of engine_ids[k] (n <= 32). One ordered read of
 * the game's `moves` entries, no eval record decoded; it sees the open
 * batch's writes. The broker's engine mask of a stored game's tasks, so it
 * need not evaluate again what an earlier job stored. 0, or an error with
 * *covered 0.
 */
int hs_store_task_covered_engines(hs_store_t *s, const hs_store_task_t *t,
                                  const uint32_t *engine_ids, int n, uint32_t *covered,
                                  hs_error_t *err);

/* Creates a task from *t (id ignored), sets t->id, indexes it by state. */
int hs_store_task_create(hs_store_t *s, hs_store_task_t *t, hs_error_t *err);
/* Replaces task t->id (state index updated). HS_ENOTFOUND when it doesn't exist. */
int hs_store_task_put(hs_store_t *s, const hs_store_task_t *t, hs_error_t *err);
int hs_store_task_get(hs_store_t *s, uint64_t id, hs_store_task_t *out, hs_error_t *err);
/*
 * Like hs_store_task_put for a writer that knows which state the journal holds for
 * task t->id (old_state, including writes earlier in the open batch): writes the
 * record and moves the state index entry without reading the old record first
 * (the broker's hot path). A wrong old_state leaves a stale index entry, so pass
 * only what this writer itself journaled. Creates the record when it is missing.
 */
int hs_store_task_move(hs_store_t *s, const hs_store_task_t *t, hs_task_state_t old_state,
                       hs_error_t *err);

/* Callback for task iteration; return non-zero to stop (that value is returned). */
typedef int (*hs_store_task_cb)(void *ctx, const hs_store_task_t *t);

/*
 * Calls cb for every task in `state`, in id order. Don't write to the store from
 * cb (collect ids, then write).
 */
int hs_store_task_each(hs_store_t *s, hs_task_state_t state, hs_store_task_cb cb,
                       void *ctx, hs_error_t *err);
/* Number of tasks in `state`. */
int hs_store_task_count(hs_store_t *s, hs_task_state_t state, int64_t *count,
                        hs_error_t *err);

/* ---- statistics ---- */

typedef struct hs_store_stats {
    int64_t games;           /* games stored */
    int64_t failed_games;    /* games that could not be read, each source once
                              * (hs_store_failed_count; the records are one
                              * per job and source: failed_records) */
    int64_t failed_records;
    int64_t positions;       /* (game, move number) positions with results */
    int64_t evals;           /* eval records (one per engine and distinct position) */
    int64_t players;         /* distinct player names (a name cut at the index's
                              * 400 bytes is counted cut, as `query players` lists it) */
    int64_t jobs, tasks;
    int64_t eval_lookups;    /* hs_store_eval_get calls of the writing process, saved
                              * at its commits: a broker's, for `query --broker`
                              * (analysis itself looks nothing up this way) */
    int64_t eval_hits;       /* ... that found a record */
    int64_t result_puts;     /* hs_store_result_put calls */
    int64_t result_dups;     /* ... whose eval existed already (dedupe hits) */
    int64_t games_refreshed; /* games stored again from the same source with other
                              * metadata (a corrected file): the new record
                              * replaced the old (hs_store_game_put) */
    size_t map_size;         /* as the meta pages record it: the largest map a writer
                              * gave the store (a reserving writer may map less) */
    size_t map_used;
} hs_store_stats_t;

int hs_store_stats(hs_store_t *s, hs_store_stats_t *out, hs_error_t *err);

/* ---- integrity (store/store_check.c) ----
 *
 * LMDB 0.9 trusts its file: a data.mdb shorter than its meta pages say makes
 * the first read past the end a SIGBUS, and damaged B-tree pages can send its
 * readers anywhere. hs_store_open therefore checks the file against its meta
 * pages before LMDB maps it (with WRITEMAP, LMDB would first extend a short file
 * with zeros and hide the damage), and `hyeongse check` walks everything. */

/* What DIR/data.mdb's newest meta page says, read with pread (nothing mapped). */
typedef struct hs_store_file_info {
    uint64_t file_size;      /* bytes on disk (st_size) */
    uint32_t page_size;      /* LMDB page size recorded in meta page 0 */
    uint64_t last_pgno;      /* last page in use, newest meta page */
    uint64_t txnid;          /* its transaction id */
    uint64_t map_size;       /* map size it records */
    uint64_t need_bytes;     /* (last_pgno + 1) * page_size: the least file size */
} hs_store_file_info_t;

/*
 * Reads the two meta pages of DIR/data.mdb and checks the file against the newest
 * valid one. 0 (*info filled; info may be NULL), HS_ENOTFOUND (no data.mdb),
 * HS_ECORRUPT ("DIR/data.mdb is empty": a zero-length file is not a store; too
 * short for its meta pages; no valid meta page; "store file is truncated: N
 * bytes, its meta pages say at least M"), HS_EIO.
 */
int hs_store_file_check(const char *dir, hs_store_file_info_t *info, hs_error_t *err);

/* What hs_store_check found: entries walked per table, and problems. */
/* Progress of hs_store_check: entries of table walked so far, of total. */
typedef void (*hs_store_check_progress_fn)(void *ctx, const char *table, int64_t done,
                                           int64_t total);

typedef struct hs_store_check_report {
    int64_t games, failed, sources, players, positions, evals, index_entries;
    int64_t engines, jobs, tasks;
    int64_t boards;          /* board index entries (store_boards.c) */
    int64_t problems;        /* every one was passed to the callback */
    /* The table being walked, NULL once the walks are over: when damage makes
     * LMDB itself fault (below), the table it faulted in, and the counts above
     * are those of the tables walked before it. */
    const char *volatile walking;
} hs_store_check_report_t;

/* One problem: the table ("games", "evaldata", ...) and what is wrong. */
typedef void (*hs_store_problem_cb)(void *ctx, const char *table, const char *what);

/*
 * Verifies an open store in one read snapshot: every table walked with its
 * entry count against LMDB's, keys in order and of the right shape, every game,
 * eval, job and task record decoded with the store's own readers, every index
 * (sources, players, moves, evalidx, taskstate, boards, jobgames) pointing at records that
 * exist and agree, and every eval record referenced. Problems go to cb (may be NULL)
 * and are counted in rep->problems; the return value is 0 even when problems were
 * found, or HS_ESTORE / HS_ENOMEM when the check itself could not run. LMDB's
 * own MDB_CORRUPTED / MDB_PAGE_NOTFOUND during a walk count as a problem of that
 * table. Damage that makes LMDB itself fault is not caught here: the CLI runs
 * readers under a fault guard (cli/fault_guard.h).
 */
int hs_store_check(hs_store_t *s, hs_store_check_report_t *rep, hs_store_problem_cb cb,
                   void *ctx, hs_error_t *err);
/* The same, telling progress (may be NULL, with its pctx) every 65,536 entries
 * and at each table's end: a check of a big store is not silent for its run. */
int hs_store_check_progress(hs_store_t *s, hs_store_check_report_t *rep,
                            hs_store_problem_cb cb, void *ctx,
                            hs_store_check_progress_fn progress, void *pctx, hs_error_t *err);

#endif
