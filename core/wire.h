/*
 * core/wire.h — the wire codec: every message that travels between clients, the
 * broker and workers, as C structs, MessagePack bodies and ZeroMQ frames.
 *
 * docs/PROTOCOL.md is the message-by-message reference; this header is the C view
 * of it. The codec knows nothing about sockets: it turns an hs_wire_msg_t into a
 * header frame + body bytes and back. The transport (broker/, worker/, cli/) sends
 * them as multipart ZeroMQ messages:
 *
 *     DEALER → ROUTER:  [ "" ] [ magic ] [ body ]
 *     ROUTER sees:      [ identity ] [ "" ] [ magic ] [ body ]
 *
 * A TASK or RESULT message may carry up to HS_WIRE_MAX_BATCH bodies in a row
 * ([ "" ] [ magic ] [ body1 ] ... [ bodyK ]), each decoded on its own; the
 * broker packs TASKs only for a worker whose READY advertised `batch` (see
 * PROTOCOL.md, "Batched messages"). The codec itself handles one body at a time.
 *
 * magic is 4 bytes: HS_WIRE_MAGIC_WORKER ("HSW1") for worker ↔ broker traffic,
 * HS_WIRE_MAGIC_CLIENT ("HSC1") for client ↔ broker traffic (Majordomo-style: the
 * broker tells peers apart by this frame). hs_wire_magic_for() gives the magic of a
 * message type; hs_wire_check_magic() checks a received header frame.
 *
 * The body is one MessagePack array: [ version, type, field1, field2, ... ]. The
 * fields of each type are positional (see PROTOCOL.md); trailing extra fields are
 * ignored so that a minor addition does not break older peers, while a different
 * version is rejected.
 *
 * Decoding validates everything — types, string and array sizes against the
 * HS_WIRE_MAX_* limits, every string as UTF-8, board size, vertices against the
 * board size, colours, move numbers against the game length, ownership ranges —
 * and returns HS_EPROTO with the reason in *err for anything malformed. It never trusts a declared count
 * before the bytes are there (a 5-byte header claiming 4 billion elements is
 * rejected without allocating). The decoder is a hand-written bounds-checked
 * reader, exported below (hs_wire_reader_*) so the store can reuse it for its
 * records.
 *
 * Ownership: a decoded message owns every pointer in it (malloc'd); release it
 * with hs_wire_msg_fini(). A message you build for encoding may point at your own
 * memory: hs_wire_encode() only reads it — then do NOT call hs_wire_msg_fini() on
 * it (or malloc every pointer so that you can).
 *
 * Threads: all functions are reentrant; no global state.
 */
#ifndef HS_CORE_WIRE_H
#define HS_CORE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/poskey.h"

/* Protocol version carried in every body; a peer with another version is refused. */
#define HS_WIRE_VERSION 1

#define HS_WIRE_MAGIC_LEN 4
#define HS_WIRE_MAGIC_WORKER "HSW1"   /* worker <-> broker */
#define HS_WIRE_MAGIC_CLIENT "HSC1"   /* client <-> broker */

/* Limits enforced by the decoder (and by the encoder, which refuses to exceed them). */
#define HS_WIRE_MAX_BODY       (64u << 20)  /* bytes of one body */
#define HS_WIRE_MAX_STR        4096         /* bytes of any string (names, reasons, paths) */
#define HS_WIRE_MAX_NAME       256          /* bytes of a worker, job or engine name */
#define HS_WIRE_MAX_ENGINES    16           /* engines in READY, TASK, SUBMIT */
#define HS_WIRE_MAX_MOVES      4096         /* moves of one game */
#define HS_WIRE_MAX_SETUP      (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)
#define HS_WIRE_MAX_KOMI       1000.0       /* |komi| in points */
#define HS_WIRE_MAX_EVALS      4096         /* move numbers in a TASK / records in a RESULT */
#define HS_WIRE_MAX_GAMES      1024         /* games in one SUBMIT batch */
#define HS_WIRE_MAX_JOBS       4096         /* jobs in one STATUS_REPLY */
#define HS_WIRE_MAX_THREADS    4096
#define HS_WIRE_MAX_TOKEN      40           /* bytes of a SUBMIT job token */
#define HS_WIRE_OWNERSHIP_SCALE 100         /* ownership int8: value × 100, in -100..100 */
#define HS_WIRE_MAX_BATCH      64           /* bodies in one TASK or RESULT message */
#define HS_WIRE_MAX_NETS       16           /* nets in READY */
#define HS_WIRE_NET_HASH_LEN   32           /* lowercase hex digits of a net's content hash
                                             * (worker/nn/model.h, hs_nn_model_t.hash) */
#define HS_WIRE_MAX_BACKEND    16           /* bytes of READY's backend name */
#define HS_WIRE_MAX_WORKERS    1024         /* workers listed in one STATUS_REPLY */

typedef enum hs_wire_type {
    HS_WIRE_NONE = 0,
    /* worker -> broker */
    HS_WIRE_READY = 1,         /* hello + capabilities + initial credit */
    HS_WIRE_HEARTBEAT = 2,     /* both directions, worker and client sockets */
    HS_WIRE_RESULT = 3,        /* evaluated positions of one task (returns 1 credit) */
    HS_WIRE_DISCONNECT = 4,    /* both directions: leaving / go away */
    /* broker -> worker */
    HS_WIRE_TASK = 5,          /* a game + the move numbers to evaluate */
    /* client -> broker and replies */
    HS_WIRE_SUBMIT = 6,        /* a batch of games for a (new or open) job */
    HS_WIRE_SUBMIT_REPLY = 7,  /* job id + how many more games the client may send */
    HS_WIRE_STATUS = 8,        /* job id or 0 = all jobs */
    HS_WIRE_STATUS_REPLY = 9,  /* job summaries */
    HS_WIRE_CANCEL = 10,       /* job id */
    HS_WIRE_CANCEL_REPLY = 11, /* job id + whether it was canceled */
    HS_WIRE_WATCH = 12,        /* job id: the broker pushes STATUS_REPLYs when it changes */
    HS_WIRE_QUERY = 13,        /* `hyeongse query` arguments, each ended by 0x1F (PROTOCOL.md) */
    HS_WIRE_QUERY_REPLY = 14,  /* notes, 0x1E, then the query's output (PROTOCOL.md) */
    HS_WIRE_ERROR = 15,        /* either direction: code + reason */
    HS_WIRE_TYPE_COUNT
} hs_wire_type_t;

/* "READY", "TASK", ...; "?" for an unknown value. Static storage. */
const char *hs_wire_type_name(int type);

/*
 * One evaluated position: what a worker computes and the store keeps. Values are
 * from Black's point of view. Arrays have size*size entries in row-major order
 * (vertex = y * size + x, as core/game.h).
 */
/* Top policy moves an eval keeps, and one of them: vertex y * size + x or
 * HS_GAME_PASS, probability as prob / 65535. */
#define HS_EVAL_POLICY_MAX 8
typedef struct hs_eval_move {
    uint16_t vertex;
    uint16_t prob;
} hs_eval_move_t;

/* A tree search's fields of an eval (the "mcts" engine): the principal
 * variation (its first move is the best move) and the most visited root
 * moves. Win rates and priors as x / 65535, leads in tenths of a point
 * (Black's, clamped to +-3276.7): the store keeps them in these forms. */
#define HS_EVAL_PV_MAX 10
#define HS_EVAL_MOVES_MAX 8
typedef struct hs_eval_search_move {
    uint16_t vertex;          /* y * size + x or HS_GAME_PASS */
    uint32_t visits;
    uint16_t win_rate;        /* Black's winning probability x 65535 */
    int16_t lead;             /* Black's lead, tenths of a point */
    uint16_t prior;           /* x 65535 */
} hs_eval_search_move_t;

typedef struct hs_eval {
    int move_number;          /* position after this many moves (0 = after setup) */
    uint8_t pos_key[16];      /* hs_position_key() of that position */
    uint32_t engine_id;       /* hs_engine_config_id() of the engine spec */
    int size;                 /* board size N (2..25) */
    float score_lead;         /* Black's lead in points; NAN = not computed */
    float win_rate;           /* Black's win probability 0..1; NAN = not computed */
    int8_t *ownership;        /* N*N, -100..100 (+100 = Black's for sure), or NULL */
    int16_t *influence;       /* N*N stone influence SI ×100 (Park), or NULL */
    char *classes;            /* per-point classes, N*N chars (PROTOCOL.md), or NULL */
    char *result;             /* estimated result "B+3.5", or NULL */
    uint32_t timing_us;       /* engine time spent on this position */
    char *error;              /* NULL = ok; else why this position could not be judged */
    /* Optional fields 12 and 13 (a minor revision: absent = none). */
    float score_stdev;        /* the score's spread (std dev, points) > 0; 0 = none */
    int num_policy;           /* 0..HS_EVAL_POLICY_MAX */
    hs_eval_move_t policy[HS_EVAL_POLICY_MAX];   /* most probable first */
    /* Optional field 14: a tree search's (absent = none). */
    uint32_t visits;          /* root visits; 0 = no search fields */
    int pv_len;               /* 1..HS_EVAL_PV_MAX when visits > 0; pv[0] = the best move */
    uint16_t pv[HS_EVAL_PV_MAX];
    int num_moves;            /* 0..HS_EVAL_MOVES_MAX, most visited first */
    hs_eval_search_move_t moves[HS_EVAL_MOVES_MAX];
    /* Set by the decoder: this eval's MessagePack bytes inside the decoded buffer
     * (not owned; valid only while that buffer lives), so a store can keep the
     * record without encoding it again. NULL for an eval built in memory; cleared
     * by hs_eval_copy. */
    const uint8_t *raw;
    uint32_t raw_len;
} hs_eval_t;

/*
 * The search fields of an eval as bytes: the wire's field 14 (a bin) and the
 * store record's extension (docs/STORE.md) hold exactly these. Layout:
 * varint visits (LEB128), a byte pv_len then pv_len x uint16 LE vertex, a
 * byte K then K x (uint16 LE vertex, varint visits, uint16 LE win rate,
 * int16 LE lead, uint16 LE prior). Vertices y * size + x or 0xFFFF = pass.
 */
#define HS_EVAL_SEARCH_BYTES_MAX (5 + 1 + 2 * HS_EVAL_PV_MAX + 1 + HS_EVAL_MOVES_MAX * 13)

/* Whether e's search fields are in range for its size (visits > 0). */
bool hs_eval_search_valid(const hs_eval_t *e);

/* Writes e's search fields (valid ones) to out (HS_EVAL_SEARCH_BYTES_MAX
 * bytes); returns the bytes written. */
size_t hs_eval_search_put(const hs_eval_t *e, uint8_t *out);

/* Reads search fields from p[0..end) into e for a board of size N: returns
 * the bytes used, or 0 when they are malformed (a count or vertex out of
 * range, zero visits, too short). */
size_t hs_eval_search_get(const uint8_t *p, const uint8_t *end, int size, hs_eval_t *e);

/* Frees the arrays and strings of e (not e itself) and zeroes it. NULL-safe. */
void hs_eval_fini(hs_eval_t *e);

/* Deep copy of src into *dst (dst is overwritten). 0 or HS_ENOMEM (dst then zeroed). */
int hs_eval_copy(hs_eval_t *dst, const hs_eval_t *src);

/* A game as it travels in TASK and SUBMIT. */
typedef struct hs_wire_game {
    hs_game_t game;   /* size, komi, rules.id, setup, moves, id; SUBMIT also carries
                       * players, ranks, date, event, round, result_raw, handicap */
    char *source;     /* where it came from ("a.tar.gz:x/y.sgf#1"), or NULL */
    char *error;      /* SUBMIT only: non-NULL = the game could not be read (reason);
                       * game then holds nothing useful except maybe its id */
} hs_wire_game_t;

typedef struct hs_wire_ready {
    char *name;              /* worker name (host:pid) */
    char **engines;          /* engine names it can run */
    int num_engines;
    int threads;             /* engine threads */
    int gpus;                /* GPUs in use (0 = CPU only) */
    int credit;              /* tasks the broker may send before the first RESULT */
    int batch;               /* optional (field 7): most TASK bodies it accepts in one
                              * message, 0..HS_WIRE_MAX_BATCH; 0 or 1 = one body per
                              * message (an older worker sends no such field) */
    char **nets;             /* optional (field 8): content hashes of the nets it holds
                              * (HS_WIRE_NET_HASH_LEN lowercase hex each, at most
                              * HS_WIRE_MAX_NETS), the values a spec's `net` option
                              * takes; the broker leases a spec naming a net only to
                              * a worker that lists it. NULL/0 = none (older worker) */
    int num_nets;
    char *backend;           /* optional (field 9): how it runs its nets ("cpu", "cuda",
                              * "ref": [a-z0-9_-], 1..HS_WIRE_MAX_BACKEND bytes), shown
                              * by the broker, never matched; NULL = not said */
} hs_wire_ready_t;

typedef struct hs_wire_task {
    uint64_t task_id, job_id;
    hs_wire_game_t game;     /* moves up to at least the last move number */
    int *move_numbers;       /* positions to evaluate, each in 0..game.num_moves, increasing */
    int num_move_numbers;
    char **engines;          /* engine specs ("judge", "mcts:visits=200") */
    int num_engines;
} hs_wire_task_t;

typedef struct hs_wire_result {
    uint64_t task_id, job_id;
    uint64_t game_id[2];
    hs_eval_t *evals;        /* one per (move number, engine) */
    int num_evals;
    char *error;             /* whole task failed (then num_evals may be 0), or NULL */
    bool permanent;          /* optional (field 7, sent only when true, with an error):
                              * the task can never succeed (the game cannot be
                              * replayed: an illegal move, a bad coordinate; an engine
                              * spec or board size the engine refuses), so the broker
                              * fails it at once instead of retrying. An older worker
                              * sends no such field: false = transient (the worker
                              * died, ran out of memory, timed out: worth a retry) */
} hs_wire_result_t;

typedef struct hs_wire_submit {
    uint64_t job_id;         /* 0 = create a new job with the fields below */
    char *job_name;
    char **engines;
    int num_engines;
    char *moves_spec;        /* "all", "every:N", "last" */
    hs_wire_game_t *games;   /* this batch (may be empty) */
    int num_games;
    bool last;               /* no more batches follow: the job's input is complete */
    char *token;             /* optional (field 8, NULL = none): a client-chosen job
                              * token; a SUBMIT with job_id 0 whose token names an
                              * existing job goes to that job (a retried first
                              * SUBMIT whose reply was lost creates no second job) */
} hs_wire_submit_t;

typedef struct hs_wire_submit_reply {
    uint64_t job_id;
    int credit;              /* games the client may send before the next reply */
    int accepted;            /* games of the batch accepted (duplicates included) */
} hs_wire_submit_reply_t;

typedef struct hs_wire_job_status {
    uint64_t id;
    char *name;
    char *state;             /* "running", "done", "canceled", "failed" */
    int64_t games_total, games_done, games_failed;
    int64_t positions_total, positions_done;
    double rate;             /* positions per second, recent */
    bool input_complete;     /* the client has sent its last batch */
    char *reason;            /* optional (field 10): why it failed / was canceled, or NULL */
} hs_wire_job_status_t;

/* STATUS: which jobs to list, newest first. job_id is the message's first field
 * and the union's first member, so code that sets or reads m.job_id of a STATUS
 * still works; the other fields are optional (a minor addition, sent only when
 * set: an older broker ignores them and answers with its newest 4,096 jobs). */
typedef struct hs_wire_status {
    uint64_t job_id;         /* 0 = every job (the fields below apply), else that job */
    uint64_t before;         /* optional (field 3): only jobs with id < before; 0 = from
                              * the newest. A page's last id is the next page's before,
                              * so paging does not shift when new jobs arrive */
    int limit;               /* optional (field 4): most jobs in the reply,
                              * 0..HS_WIRE_MAX_JOBS; 0 = HS_WIRE_MAX_JOBS */
    char *state;             /* optional (field 5): only jobs in this state ("running",
                              * "done", "failed", "canceled"), or NULL = any */
} hs_wire_status_t;

/* One live worker as STATUS_REPLY lists it: what its READY said of its nets. */
typedef struct hs_wire_worker_info {
    char *name;              /* READY's name */
    char **nets;             /* READY's nets (full hashes), NULL/0 = none */
    int num_nets;
    char *backend;           /* READY's backend, or NULL */
    int tasks;               /* tasks leased to it now */
    /* Optional (entry fields 5-11, a minor addition for `status --cluster`): an
     * older broker sends none (has_stats false, the fields below 0/NULL), an older
     * client skips them. Counts run since the worker's READY. */
    bool has_stats;
    char **engines;          /* READY's engine names, NULL/0 = none said */
    int num_engines;
    double rate;             /* positions/s, smoothed (finite, >= 0) */
    int64_t positions_done;  /* positions of its results the broker stored */
    int64_t tasks_done;      /* tasks those results finished */
    int64_t leased_positions;  /* positions of the tasks leased to it now */
    int64_t errors;          /* failure reports it sent (a RESULT with an error) */
    int64_t requeued;        /* its leases that went back to the queue: expired, an
                              * error reported, a result that did not cover the task */
} hs_wire_worker_info_t;

/* The broker's queue and uptime (STATUS_REPLY's optional field 7). */
typedef struct hs_wire_cluster_info {
    int64_t queued_tasks;    /* tasks waiting for a worker, every job */
    int64_t leased_tasks;    /* tasks leased to workers now */
    int64_t positions_pending;  /* positions of running jobs not yet done */
    int64_t jobs_running;
    int64_t uptime_ms;       /* since the broker started */
} hs_wire_cluster_info_t;

typedef struct hs_wire_status_reply {
    hs_wire_job_status_t *jobs;
    int num_jobs;
    int workers;             /* live workers */
    int64_t total;           /* optional (field 4): jobs matching the STATUS (all pages);
                              * -1 when the broker did not say (an older broker) */
    bool more;               /* optional (field 5): older matching jobs follow this page */
    hs_wire_worker_info_t *worker_list;  /* optional (field 6, sent when not empty): the
                              * live workers, at most HS_WIRE_MAX_WORKERS of them (an
                              * answer to STATUS; a WATCH push and an older broker
                              * send none) */
    int num_worker_list;
    bool has_cluster;        /* optional (field 7; then field 6 is sent even when
                              * empty): cluster below was sent. An answer to STATUS
                              * from a broker that lists its workers; false from an
                              * older broker and in a WATCH push */
    hs_wire_cluster_info_t cluster;
} hs_wire_status_reply_t;

typedef struct hs_wire_cancel_reply {
    uint64_t job_id;
    bool canceled;
} hs_wire_cancel_reply_t;

typedef struct hs_wire_error_msg {
    int code;                /* an HS_E* code */
    char *reason;
} hs_wire_error_msg_t;

typedef struct hs_wire_msg {
    hs_wire_type_t type;
    union {
        hs_wire_ready_t ready;
        hs_wire_task_t task;
        hs_wire_result_t result;
        hs_wire_submit_t submit;
        hs_wire_submit_reply_t submit_reply;
        uint64_t job_id;                     /* CANCEL, WATCH, STATUS (0 = all) */
        hs_wire_status_t status;             /* STATUS (job_id aliases status.job_id) */
        hs_wire_status_reply_t status_reply;
        hs_wire_cancel_reply_t cancel_reply;
        char *text;                          /* QUERY, QUERY_REPLY */
        hs_wire_error_msg_t error;
        /* HEARTBEAT and DISCONNECT have no fields */
    };
} hs_wire_msg_t;

/* A growable byte buffer. Owned by the caller: free(buf.data) (or hs_wire_buf_free). */
typedef struct hs_wire_buf {
    uint8_t *data;
    size_t len, cap;
} hs_wire_buf_t;

void hs_wire_buf_free(hs_wire_buf_t *b);
/* Room for n more bytes in b (its capacity at least doubled, 256 bytes at
 * first): 0, or HS_ENOMEM with b unchanged. */
int hs_wire_buf_grow(hs_wire_buf_t *b, size_t n);

/* Appends n bytes at p to b, growing it: 0, or HS_ENOMEM with b unchanged.
 * No limit of its own: callers that bound a message or a record check
 * before. Inline: the MessagePack encoder calls it for every few bytes. */
static inline int hs_wire_buf_append(hs_wire_buf_t *b, const void *p, size_t n)
{
    if (n > b->cap - b->len && hs_wire_buf_grow(b, n) < 0)
        return HS_ENOMEM;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

/* LEB128 varints (7 bits a byte, least significant first), as the store's
 * records and the search's bytes use them (docs/STORE.md). put writes v at p
 * (at most 10 bytes) and returns the bytes written; get reads one of at most
 * 5 bytes (every varint there fits 32 bits) from *pp below end, advances *pp
 * and returns 0, or -1 for a truncated or too long one (*pp then unchanged). */
static inline size_t hs_wire_put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

static inline int hs_wire_get_varint(const uint8_t **pp, const uint8_t *end, uint32_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            if (v > UINT32_MAX)
                return -1;
            *out = (uint32_t)v;
            *pp = p;
            return 0;
        }
    }
    return -1;
}

/* Zeroes *m and sets its type. */
void hs_wire_msg_init(hs_wire_msg_t *m, hs_wire_type_t type);

/* Frees everything a decoded message owns and zeroes it (type NONE). NULL-safe. */
void hs_wire_msg_fini(hs_wire_msg_t *m);

/*
 * Encodes m as a MessagePack body into *out (out->len bytes; *out is overwritten,
 * any old data is NOT freed — start from a zeroed buffer or one you reuse: when
 * out->data is non-NULL it is reused and grown). The caller frees out->data.
 * Returns 0, HS_EINVAL (a field breaks a limit or a rule the decoder would
 * reject: message in *err), or HS_ENOMEM.
 */
int hs_wire_encode(const hs_wire_msg_t *m, hs_wire_buf_t *out, hs_error_t *err);

/*
 * Decodes a body of len bytes into *m (initialised here). Returns 0, or HS_EPROTO
 * with the reason in *err (m is then empty: no need to fini, harmless to), or
 * HS_ENOMEM. Never reads outside data[0..len).
 */
int hs_wire_decode(const void *data, size_t len, hs_wire_msg_t *m, hs_error_t *err);

/*
 * hs_wire_decode with options. HS_WIRE_DECODE_EVAL_VIEW: the evals of a RESULT
 * are validated exactly as usual, but their ownership, influence and classes are
 * not copied out (left NULL): a reader that only passes them on (the broker, which
 * stores eval->raw) saves an allocation and a copy of each map. The other fields
 * and raw/raw_len are set as usual; raw points into data, so keep data alive
 * while the evals are used.
 */
#define HS_WIRE_DECODE_EVAL_VIEW 1u
int hs_wire_decode_ex(const void *data, size_t len, unsigned flags, hs_wire_msg_t *m,
                      hs_error_t *err);

/* The magic ("HSW1"/"HSC1") that frames a message of this type. */
const char *hs_wire_magic_for(hs_wire_type_t type);

/*
 * Checks a received header frame: 0 when it is exactly HS_WIRE_MAGIC_WORKER or
 * HS_WIRE_MAGIC_CLIENT (*is_worker says which), else HS_EPROTO.
 */
int hs_wire_check_magic(const void *frame, size_t len, bool *is_worker, hs_error_t *err);

/*
 * Text the wire can carry, from any bytes: a malloc'd NUL-terminated copy of
 * s[0..len) where every byte that is not part of valid UTF-8 is written as the
 * four characters \xNN (NN its value in upper-case hex), and the rest is kept.
 * For text that is not ours to repair (a file name in a non-UTF-8 locale, an old
 * journal's job name): \xNN keeps two names apart that U+FFFD would make equal.
 * NULL when out of memory. *changed (may be NULL): whether any byte was escaped.
 */
char *hs_wire_utf8_escape(const char *s, size_t len, bool *changed);

/* Whether s[0..len) is a net's content hash as READY and the `net` option of an
 * engine spec carry it: exactly HS_WIRE_NET_HASH_LEN lowercase hex digits. */
bool hs_wire_net_hash_valid(const char *s, size_t len);

/* Whether s[0..len) is a backend name as READY carries it: [a-z0-9_-],
 * 1..HS_WIRE_MAX_BACKEND bytes (a name to show: nothing that could garble a
 * status line; not a fixed list, so a later backend needs no new broker). */
bool hs_wire_backend_valid(const char *s, size_t len);

/* Whether s[0..len) is valid UTF-8 (what the decoder accepts in a string). */
bool hs_wire_utf8_valid(const char *s, size_t len);

/* A SUBMIT's moves spec (its journal form "SPEC;TOKEN" too: what follows ';'
 * is the job token, not read here) into *step and *last_only: "all" (or
 * empty) 1 and false, "every:N" (1 <= N <= 10000) N, "last" true. 0, or
 * HS_EINVAL for anything else (then 1 and false: every position). The one
 * reading that the broker's chunks and a job's report share. */
int hs_wire_moves_spec_parse(const char *spec, int *step, bool *last_only);

/* Frees the fields of a game decoded by this codec or by the store (free() on every
 * pointer of hs_game_t, like hs_game_fini but without resetting). NULL-safe. */
void hs_wire_game_fini(hs_wire_game_t *g);

/* Engine config ids and position keys (hs_engine_config_id, hs_position_key,
 * hs_key_hex, hs_key_parse) are declared in core/poskey.h, included above. */

/*
 * Standalone pieces in exactly the layout they have inside messages; the store
 * keeps its game and eval records this way. The encoders APPEND one MessagePack
 * object to *out (out->len grows; the caller frees out->data) and return 0,
 * HS_EINVAL (a limit is broken) or HS_ENOMEM. The readers read one object from r
 * with the same validation as hs_wire_decode (HS_EPROTO on bad input); on error
 * the partly filled struct still owns what it holds: fini it.
 */
int hs_wire_encode_game(const hs_wire_game_t *g, hs_wire_buf_t *out, hs_error_t *err);
int hs_wire_encode_eval(const hs_eval_t *e, hs_wire_buf_t *out, hs_error_t *err);

/* ------------------------------------------------------------------------ */
/* The bounds-checked MessagePack reader the decoder uses (also used by store/). */

typedef struct hs_wire_reader {
    const uint8_t *p, *end;
    hs_error_t *err;
    const char *ctx;          /* field being read, for messages */
    unsigned flags;           /* HS_WIRE_DECODE_*, HS_WIRE_READ_UTF8 (0 after
                               * hs_wire_reader_init) */
} hs_wire_reader_t;

/* Reader flag: every string read must be valid UTF-8 (HS_EPROTO otherwise).
 * hs_wire_decode sets it for every message: a peer never gets bytes it cannot
 * decode as text (a strict client would fail on a whole STATUS_REPLY). The
 * store's record readers leave it off, so records written before the check
 * existed (a source path of raw bytes) still read. */
#define HS_WIRE_READ_UTF8 0x100u

void hs_wire_reader_init(hs_wire_reader_t *r, const void *data, size_t len, hs_error_t *err);
/* Each returns 0 or HS_EPROTO ("<ctx>: expected X"). */
int hs_wire_read_array(hs_wire_reader_t *r, uint32_t *count);   /* array header */
int hs_wire_read_map(hs_wire_reader_t *r, uint32_t *count);     /* map header */
int hs_wire_read_uint(hs_wire_reader_t *r, uint64_t *v);        /* non-negative integer */
int hs_wire_read_int(hs_wire_reader_t *r, int64_t *v);          /* any integer fitting int64 */
int hs_wire_read_double(hs_wire_reader_t *r, double *v);        /* float32/64 or integer */
int hs_wire_read_bool(hs_wire_reader_t *r, bool *v);
bool hs_wire_read_nil(hs_wire_reader_t *r);                     /* consumes a nil if next */
/* str/bin: *ptr points into the input (not NUL-terminated); len checked <= max. */
int hs_wire_read_str(hs_wire_reader_t *r, const char **ptr, uint32_t *len, uint32_t max);
int hs_wire_read_bin(hs_wire_reader_t *r, const uint8_t **ptr, uint32_t *len, uint32_t max);
/* Reads a string (or nil -> *out = NULL) into a malloc'd NUL-terminated copy. */
int hs_wire_read_strdup(hs_wire_reader_t *r, char **out, uint32_t max);
/* Skips one object of any type (nesting depth limited to 32). */
int hs_wire_skip(hs_wire_reader_t *r);
/* One game / one eval (see hs_wire_encode_game); allow_error: accept failed games. */
int hs_wire_read_game(hs_wire_reader_t *r, hs_wire_game_t *g, bool allow_error);
/* Only the source of one game (field 8, *source malloc'd or NULL): the fields
 * before it are skipped, not decoded or checked (no moves copied), for a reader
 * that needs a stored game's name and nothing else. r is left after the source. */
int hs_wire_read_game_source(hs_wire_reader_t *r, char **source);
int hs_wire_read_eval(hs_wire_reader_t *r, hs_eval_t *e);

#endif
