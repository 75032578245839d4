/*
 * ingest/ingest.h — the ingest pipeline: SGF files in, validated game records and
 * an archive report out.
 *
 *   reader thread ──bounded queue──► N parser threads ──► in-order commit
 *   (archive.h walk)                 parse every game tree   report, duplicate
 *                                    → hs_game_t → replay    check, on_game()
 *                                    with legality checks
 *                                    → game id
 *
 * Results are committed in the order the files were read, whatever the number of
 * threads, so the report, the failure list, which copy of a duplicate counts as
 * the duplicate, and the order of on_game() calls are the same for every run.
 *
 * Memory is bounded whatever the archive size: at most `window` files are between
 * being read and being committed (each at most max_member bytes plus its parsed
 * games), the failure list keeps at most max_failures records (all are counted),
 * and the one structure that grows with the archive is the set of game ids used to
 * find duplicates: 16 bytes per distinct game (32 with the hash table's slack).
 *
 * Definitions used in the report:
 *   files      SGF files read (loose files and archive members).
 *   bytes      their total size.
 *   games      distinct good games: parsed, read as a Go game, and replayed
 *              without an illegal move; duplicates not included.
 *   positions  positions a full analysis evaluates: moves + 1 per good game (the
 *              start position, after setup stones, and the one after each move;
 *              passes are moves).
 *   failed     failure records: one per game tree that failed, plus one per file,
 *              archive or member that could not be read or parsed at all, and
 *              one per link not followed (reason "link"; ingest/archive.h).
 *   duplicates good games whose id (hs_game_compute_id: size, setup, moves, komi)
 *              was already seen in this run; the first copy counts, later ones
 *              are counted here and not delivered.
 * A file holding several game trees (an SGF collection) yields one game per tree.
 */
#ifndef HS_INGEST_INGEST_H
#define HS_INGEST_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/game.h"

/* Why a game or file failed. Stable names: hs_ingest_reason_name(). */
typedef enum hs_ingest_reason {
    HS_INGEST_FAIL_READ = 0,   /* "read": file, archive or member unreadable */
    HS_INGEST_FAIL_TOO_LARGE,  /* "too-large": over the member size limit */
    HS_INGEST_FAIL_SYNTAX,     /* "syntax": not well-formed SGF */
    HS_INGEST_FAIL_TRUNCATED,  /* "truncated": input ends inside a tree or value */
    HS_INGEST_FAIL_EMPTY,      /* "empty": no game tree in the file */
    HS_INGEST_FAIL_RECORD,     /* "record": well-formed SGF but not a readable Go game */
    HS_INGEST_FAIL_UNSUPPORTED,/* "unsupported": e.g. not Go (GM), board over 25 */
    HS_INGEST_FAIL_ILLEGAL,    /* "illegal-move": replay found an illegal move */
    HS_INGEST_FAIL_LIMIT,      /* "limit": a parser limit (nesting depth, nodes, ...), or
                                * one of the wire (moves, komi: core/wire.h) */
    HS_INGEST_FAIL_LINK,       /* "link": a symbolic or hard link not followed
                                * (ingest/archive.h says which and why) */
    HS_INGEST_FAIL_COUNT
} hs_ingest_reason_t;

/* Stable lowercase name of a reason ("syntax", "illegal-move", ...). */
const char *hs_ingest_reason_name(hs_ingest_reason_t r);

typedef struct hs_ingest_failure {
    char *source;              /* file or "archive:member" */
    int game;                  /* game tree index in the file (0-based), -1 = whole file */
    hs_ingest_reason_t reason;
    int code;                  /* the HS_E* code behind it */
    char *message;             /* details ("move 57 (W Q16): point occupied") */
} hs_ingest_failure_t;

/* A count per key, e.g. komi "6.5" -> 1234. Keys owned by the distribution. */
typedef struct hs_ingest_count {
    char *key;
    uint64_t count;
} hs_ingest_count_t;

typedef struct hs_ingest_dist {
    hs_ingest_count_t *items;  /* most frequent first (ties by key) when the run ends */
    size_t n, cap;
} hs_ingest_dist_t;

/* Result categories of good games. */
enum {
    HS_INGEST_RESULT_COUNTED = 0,  /* B+n / W+n / jigo by count */
    HS_INGEST_RESULT_RESIGN,
    HS_INGEST_RESULT_TIME,
    HS_INGEST_RESULT_OTHER,        /* forfeit, void, unknown, none */
    HS_INGEST_RESULT_COUNT
};

typedef struct hs_ingest_report {
    uint64_t files, bytes, skipped, archives;
    uint64_t games, positions, moves;
    uint64_t failed, failed_games, failed_files;
    uint64_t duplicates;
    uint64_t trees;                            /* game trees seen (good + failed + dup) */
    uint64_t by_reason[HS_INGEST_FAIL_COUNT];
    uint64_t sizes[HS_BOARD_MAX_SIZE + 1];     /* good games per board size */
    uint64_t results[HS_INGEST_RESULT_COUNT];  /* good games per result category */
    uint64_t winners[5];                       /* per hs_winner_t */
    uint64_t handicap_games;                   /* handicap >= 2 or setup stones */
    uint64_t komi_contradicted;                /* a counted result that the komi cannot
                                                * give (hs_result_fits_komi): W+5.5
                                                * under Fox's KM[0] */
    hs_ingest_dist_t rules;                    /* rule-set name -> games */
    hs_ingest_dist_t komi;                     /* komi in points ("%g") -> games */
    hs_ingest_failure_t *failures;             /* first max_failures, in commit order */
    size_t num_failures, cap_failures;
    hs_ingest_failure_t *dups;                 /* first max_failures duplicates (reason unused) */
    size_t num_dups, cap_dups;
    double seconds;                            /* wall time of hs_ingest_run */
    int threads;                               /* parser threads used */
} hs_ingest_report_t;

/*
 * Called for each good, non-duplicate game in commit (= read) order, from one
 * thread at a time (never concurrently). `game` belongs to the pipeline and is
 * freed after the call; to keep it, copy the struct and hs_game_init(game, 19) the
 * original (a move). `source` and `index` say where it came from. Return 0 to go
 * on; non-zero stops the ingest, which then returns HS_ECANCELED.
 */
typedef int (*hs_ingest_game_fn)(void *ctx, const char *source, int index, hs_game_t *game);

typedef struct hs_ingest_options {
    int threads;               /* parser threads; <= 0: one per online CPU */
    size_t max_member;         /* bytes per SGF file; 0: HS_ARCHIVE_DEFAULT_MAX_MEMBER */
    int window;                /* files in flight between read and commit; <= 0: 64 per thread */
    size_t max_failures;       /* failure records kept; 0: 100000 */
    FILE *progress;            /* progress lines written here (~2 per second), or NULL */
    bool follow_symlinks;      /* follow every link inside folders (archive.h) */
    hs_ingest_game_fn on_game; /* NULL: just count (dry run) */
    void *ctx;
} hs_ingest_options_t;

/* Defaults as documented above. */
void hs_ingest_options_init(hs_ingest_options_t *o);

/*
 * Ingests paths[0..npaths) (see archive.h for what a path may be) and fills *rep
 * (initialised here; release with hs_ingest_report_fini even on error). Bad
 * input is reported in *rep, not as an error. Returns 0, HS_ECANCELED when on_game
 * asked to stop, HS_ENOMEM, or HS_EINVAL (bad arguments / no thread could start).
 */
int hs_ingest_run(const char *const *paths, int npaths, const hs_ingest_options_t *o,
                  hs_ingest_report_t *rep, hs_error_t *err);

/* Frees everything the report owns and zeroes it. NULL-safe. */
void hs_ingest_report_fini(hs_ingest_report_t *rep);

/*
 * One file's worth of work, exposed for benchmarks and tests: every game tree of
 * data[0..len) parsed, read, replayed and given its id. Good games land in
 * games[0..num_games) (tree index in index[]); failures in failures[] (source
 * NULL). data must have a NUL byte at data[len]. Free with hs_ingest_file_fini.
 */
typedef struct hs_ingest_file {
    hs_game_t *games;
    int *index;
    int num_games;
    int num_trees;
    hs_ingest_failure_t *failures;
    int num_failures;
} hs_ingest_file_t;

/* Returns 0 or HS_ENOMEM (bad SGF is a failure record, not an error). */
int hs_ingest_parse_buffer(const uint8_t *data, size_t len, hs_ingest_file_t *out);
void hs_ingest_file_fini(hs_ingest_file_t *f);

#endif
