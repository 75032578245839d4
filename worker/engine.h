/*
 * worker/engine.h — the analysis-engine interface, designed for batches.
 *
 * An engine judges positions. A GPU engine wants hundreds of positions per
 * call, so the one evaluation entry point takes a batch: an array of positions
 * (each a replayed board plus its game context) and an array of results to fill.
 * CPU engines simply loop; batching engines gather the batch into one call.
 *
 *   registry (const table)          instance (one per worker thread)
 *   ┌──────────────┐  create()      ┌───────────────────────────┐
 *   │ "noop"       │ ─────────────► │ hs_engine_t               │
 *   │ "area"       │                │  vt → const vtable        │
 *   │ "influence"  │                │  state (engine-private)   │
 *   │ "judge"      │                └───────────────────────────┘
 *   │ "net"        │                   evaluate(batch) → results
 *   └──────────────┘
 *
 * Revisions. A store keeps one eval per (engine spec, position), and a cluster
 * may mix worker builds, so an engine whose results change for the same position
 * and options gets a new revision: spec "judge@2:..." instead of "judge:...".
 * The spec's text is what the engine id (core/poskey.h) hashes, so evals of two
 * revisions never share an id, a store keeps both, and the broker (which leases a
 * job only to workers offering each of its engine names exactly) never gives a
 * revision-2 job to a revision-1 worker. Revision 1 is written without "@1", as
 * the specs were before revisions existed, so older stores keep their ids.
 *
 * Engines are looked up by name (hs_engine_find). An instance is used by one
 * thread at a time; the worker gives each thread its own instances. Engines only
 * compute: they never talk to the network or the store (layering: worker/ never
 * includes broker/ or store/).
 *
 * Results use board-independent vertices v = y * size + x (as core/game.h).
 * Ownership is scaled to int8: +100 certainly Black's, -100 certainly White's.
 * Influence is int16 (Park's ×100 values, clamped). Scores are Black's lead in
 * points with komi applied (negative: White leads).
 */
#ifndef HS_WORKER_ENGINE_H
#define HS_WORKER_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/poskey.h"   /* hs_engine_spec_split, HS_ENGINE_MAX_REVISION */

#define HS_ENGINE_MAX_VERTICES (HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE)
#define HS_ENGINE_NAME_MAX 32

/* Which optional parts of an hs_engine_result_t an engine filled. */
#define HS_ENGINE_HAS_SCORE     0x1u
#define HS_ENGINE_HAS_WINRATE   0x2u
#define HS_ENGINE_HAS_OWNERSHIP 0x4u
#define HS_ENGINE_HAS_INFLUENCE 0x8u
#define HS_ENGINE_HAS_CLASSES   0x10u
#define HS_ENGINE_HAS_RESULT    0x20u
#define HS_ENGINE_HAS_SPREAD    0x40u   /* score_stdev */
#define HS_ENGINE_HAS_POLICY    0x80u   /* policy[0..num_policy) */
#define HS_ENGINE_HAS_SEARCH    0x100u  /* a tree search's: visits, best, pv, moves */

/* The policy moves a result keeps (the net engine's top moves). */
#define HS_ENGINE_POLICY_TOP 8

/* A tree search's principal variation and the root moves a result keeps. */
#define HS_ENGINE_PV_MAX 10
#define HS_ENGINE_SEARCH_MOVES 8

/* One searched root move (the search's view, Black's like every result). */
typedef struct hs_engine_search_move {
    uint16_t vertex;            /* y * size + x or HS_GAME_PASS */
    int visits;
    float winrate;              /* Black's winning probability over the move's subtree */
    float score;                /* Black's lead over it */
    float prior;                /* the evaluator's prior of the move, 0..1 */
} hs_engine_search_move_t;

/* One position to evaluate: borrowed pointers, valid for the evaluate() call. */
typedef struct hs_engine_pos {
    const hs_game_t *game;      /* the whole record: komi, rules, moves */
    const hs_board_t *board;    /* the position after `move_number` moves */
    int move_number;            /* 0 = after setup, before the first move */
    /* The positions after move_number - 1 and - 2 moves, for engines whose
     * vtable asks for history (the net's ladder-history planes); NULL when
     * not asked for or when the game is not that long. */
    const hs_board_t *prev1, *prev2;
} hs_engine_pos_t;

/* One policy move: vertex y * size + x or HS_GAME_PASS, and its probability. */
typedef struct hs_engine_move {
    uint16_t vertex;
    float prob;                 /* 0..1 */
} hs_engine_move_t;

/* What an engine says about one position. The caller clears flags,
 * num_vertices, classes[0] and result[0]; an engine sets the flags of what it
 * fills (arrays are large, so they are not zeroed per call). */
typedef struct hs_engine_result {
    unsigned flags;             /* HS_ENGINE_HAS_* */
    float score;                /* Black's lead in points, komi included */
    float winrate;              /* Black's winning probability 0..1 */
    float black_points;         /* points counted for Black (before komi) */
    float white_points;         /* points counted for White (before komi) */
    int num_vertices;           /* size * size when ownership/influence present */
    int8_t ownership[HS_ENGINE_MAX_VERTICES];   /* -100..100, Black positive */
    int16_t influence[HS_ENGINE_MAX_VERTICES];  /* Park SI, Black positive */
    char classes[HS_ENGINE_MAX_VERTICES + 1];   /* per-point class letters, NUL-terminated
                                                 * (worker/judge.h: " .bwXOxos") */
    char result[16];                            /* estimated result, "B+3.5" */
    /* The spread of the final score: its standard deviation in points (net:
     * sqrt(selfplay_sq - selfplay^2), KataGo's scoreStdev), > 0. */
    float score_stdev;
    /* The most probable moves for the side to move, most probable first. */
    int num_policy;
    hs_engine_move_t policy[HS_ENGINE_POLICY_TOP];
    /* A tree search's (HS_ENGINE_HAS_SEARCH, the "mcts" engine): the root's
     * visits, the best move (the most visited), the principal variation
     * starting with it, and the most visited root moves, best first. */
    int visits;
    uint16_t best;
    int pv_len;
    uint16_t pv[HS_ENGINE_PV_MAX];
    int num_moves;
    hs_engine_search_move_t moves[HS_ENGINE_SEARCH_MOVES];
} hs_engine_result_t;

/* Per-instance configuration; zero-initialise and set what you need. */
typedef struct hs_engine_config {
    int threads;                /* threads the engine may use internally (0 = 1; for
                                 * the net engines 0 = their backend's default: every
                                 * core for cpu) */
    int gpu;                    /* GPU ordinal, -1 = CPU only */
    const char *options;        /* engine-specific "key=value,..." string, or NULL */
    /* Shared by the engines of one thread (worker/stability.h), or NULL: engines
     * that judge group stability look positions up there first, so a batch run
     * through "influence" and then "judge" computes it once. Borrowed: it must
     * outlive the instance. */
    struct hs_stability_memo *stability_memo;
    /* The nets this process holds, for the engines that run one ("net",
     * "judge-net"): an engine picks the one whose content hash
     * (hs_nn_model_t.hash) its spec names ("net:net=<hash>"). Borrowed,
     * read-only, shared by every instance; they must outlive them. */
    const struct hs_nn_model *const *nets;
    int n_nets;
    int net_backend;            /* hs_nn_backend_kind_t (worker/nn/backend.h) */
    int net_batch;              /* positions per net batch; 0 = the backend's default */
} hs_engine_config_t;

/* Kinds of option values. */
typedef enum hs_engine_option_kind {
    HS_ENGINE_OPT_INT = 0,      /* a whole number in [min, max] */
    HS_ENGINE_OPT_HASH,         /* exactly HS_ENGINE_HASH_LEN lowercase hex digits
                                 * (a net's content hash: "net:net=<hash>") */
} hs_engine_option_kind_t;

#define HS_ENGINE_HASH_LEN 32

/*
 * One option an engine knows ("judge:final_mc=0"): by default an integer
 * key=value in [min, max] (0..1 for a switch); kind HS_ENGINE_OPT_HASH takes
 * a 32-hex-digit value instead (min/max unused). A spec's options are checked
 * against its engine's table wherever specs come in (hs_engine_check_list,
 * hs_engine_canonical_list, hs_engine_init), since a spec with an option the
 * engine ignores or cannot read would be stored as a configuration of its own.
 */
typedef struct hs_engine_option {
    const char *key;
    long min, max;
    hs_engine_option_kind_t kind;   /* 0 = HS_ENGINE_OPT_INT */
} hs_engine_option_t;

/* An integer option's default (hs_engine_vtable_t.defaults). */
typedef struct hs_engine_option_default {
    const char *key;
    long value;
} hs_engine_option_default_t;

/* Longest options text of one spec ("visits=200,net=<hash>"). */
#define HS_ENGINE_OPTIONS_TEXT_MAX 192

/*
 * The operations of one engine kind. Engines fill a const table of these
 * (Pachi engine.h style); the registry lists the tables.
 */
typedef struct hs_engine_vtable {
    const char *name;           /* registry name, e.g. "influence" */
    int revision;               /* 0 or 1: first revision; bump when results change */
    int max_batch;              /* preferred largest batch (>= 1) */
    int history;                /* previous boards it reads (hs_engine_pos_t.prev1/2): 0..2 */
    const hs_engine_option_t *options;  /* the options it knows, NULL-key terminated */
    /* NULL, or the defaults of its integer options (NULL-key terminated): then
     * hs_engine_canonical_list writes its specs in canonical form, options
     * in the table's order and a value equal to its default left out
     * ("mcts:visits=200" is "mcts"), so one configuration has one engine id.
     * Engines without defaults keep their options as written (their ids
     * predate this). */
    const hs_engine_option_default_t *defaults;
    /* Creates private state into *state. 0 or HS_ENOMEM / HS_EINVAL with *err. */
    int (*create)(const hs_engine_config_t *cfg, void **state, hs_error_t *err);
    /* Frees state (NULL-safe). */
    void (*destroy)(void *state);
    /*
     * Evaluates pos[0..n) into out[0..n). Returns 0, or a negative HS_E* when
     * the whole batch failed (results then undefined). Per-position trouble an
     * engine can recover from is not an error.
     */
    int (*evaluate)(void *state, const hs_engine_pos_t *pos, int n,
                    hs_engine_result_t *out, hs_error_t *err);
    /* CPU seconds threads of the engine's own (a net backend's OpenMP team)
     * spent since create, beyond the calling thread; NULL = none. The worker
     * adds the increase over an evaluate() to its engine CPU. */
    double (*helper_cpu)(void *state);
    /* Leaf evaluator calls and the leaves they carried since create (a tree
     * search's batching: the mean batch is leaves / calls); NULL = none. */
    void (*eval_counts)(void *state, long *calls, long *leaves);
} hs_engine_vtable_t;

/* An engine instance: a vtable plus private state. Used by one thread at a time. */
typedef struct hs_engine {
    const hs_engine_vtable_t *vt;
    void *state;
} hs_engine_t;

/* The registered engine with this name, or NULL. Static storage. */
const hs_engine_vtable_t *hs_engine_find(const char *name);

/* Number of registered engines and the i-th one (for `--help` and READY capabilities). */
int hs_engine_count(void);
const hs_engine_vtable_t *hs_engine_at(int i);

/*
 * Writes the registered engine names, comma-separated, into buf (size bytes,
 * always NUL-terminated), without revisions (hs_engine_canonical_list adds
 * them). Returns buf.
 */
const char *hs_engine_list(char *buf, int size);

/*
 * Checks a comma-separated engine list ("influence,judge", "noop:delay_us=10",
 * "judge@2"): every name must be registered, a revision "@R" a number
 * 1..HS_ENGINE_MAX_REVISION, no duplicates, at most `max` names. The part after
 * ':' must have the syntax of hs_engine_options_syntax (core/poskey.h) and, for
 * this build's revision of the engine, name only options of its table
 * (hs_engine_option_t) with integer values in range; the options of another
 * revision (for workers of another build) are checked for syntax only.
 * Returns 0, or HS_ENOTFOUND / HS_EINVAL with the offending name in *err.
 */
int hs_engine_check_list(const char *list, int max, hs_error_t *err);

/* Flags of hs_engine_canonical_list. */
#define HS_ENGINE_THIS_BUILD 0x1u   /* every revision must be this build's own */

/*
 * Checks a comma-separated engine list as hs_engine_check_list does and writes it
 * to out (size bytes) in canonical form: each spec as "name[@R][:options]", where
 * R is the revision the spec asked for or, without "@", this build's revision of
 * the engine, and "@1" is left out. So `--engines judge` names the revision this
 * build computes, and "judge@1:x" becomes "judge:x".
 * With HS_ENGINE_THIS_BUILD (analyze, a worker: whoever must compute the evals)
 * a revision other than this build's is an error; without it (submit, query) any
 * revision 1..HS_ENGINE_MAX_REVISION is accepted, for other workers to serve or to
 * read older evals. Returns 0, or HS_ENOTFOUND / HS_EINVAL (bad or foreign
 * revision, too long for out) with the offending spec in *err.
 */
int hs_engine_canonical_list(const char *list, int max, unsigned flags, char *out,
                             size_t size, hs_error_t *err);

/*
 * Creates an instance of the named engine into *eng. name may carry a revision,
 * "judge@2": it must be this build's (HS_EINVAL otherwise, saying both). Returns
 * 0, HS_ENOTFOUND for an unknown name, or the engine's create() error. Destroy
 * with hs_engine_fini.
 */
int hs_engine_init(hs_engine_t *eng, const char *name, const hs_engine_config_t *cfg,
                   hs_error_t *err);

/* The instance's eval_counts, 0 and 0 when its engine has none. */
void hs_engine_eval_counts(const hs_engine_t *eng, long *calls, long *leaves);

/* The instance's helper_cpu, 0 when its engine has none. */
double hs_engine_helper_cpu(const hs_engine_t *eng);

/* Releases an instance (idempotent; leaves eng->vt NULL). */
void hs_engine_fini(hs_engine_t *eng);

/* Evaluates a batch with an instance: see hs_engine_vtable_t.evaluate. */
int hs_engine_evaluate(hs_engine_t *eng, const hs_engine_pos_t *pos, int n,
                       hs_engine_result_t *out, hs_error_t *err);

/*
 * The net a spec's options name: the value of the option `net` (32 hex digits)
 * looked up among cfg->nets by hs_nn_model_t.hash. For every engine that runs
 * a net ("net", "judge-net"). Returns 0 with *model set (borrowed from cfg),
 * HS_EINVAL when options name no net ("engine needs net=<hash>: give --net
 * FILE"), HS_ENOTFOUND "this process holds no net <hash> (give --net FILE)"
 * (the message names the nets it holds, so a wrong FILE reads as "spec names
 * net X but --net gave net Y").
 */
int hs_engine_find_net(const hs_engine_config_t *cfg, const char *options,
                       const struct hs_nn_model **model, hs_error_t *err);

/*
 * Binds a comma-separated engine list to the nets a process loaded (--net
 * FILE), for a process that computes the evals itself (analyze): the list is
 * expanded by hs_net_specs (worker/net_specs.h: a net engine's spec without
 * net= becomes one spec per net among the first n_bind of nets, those --net
 * gave: hs_net_set_t.n_bind), then every spec's net must be one of
 * the loaded ones (HS_EINVAL "spec names net X but --net FILE is net Y"; with
 * no nets loaded, "... but no net is loaded"), and a bare net engine with no
 * nets loaded is HS_EINVAL too. Writes the list to out (size bytes); other
 * specs are copied as they are. Canonicalise afterwards.
 */
int hs_engine_bind_nets(const char *list, const struct hs_nn_model *const *nets, int n_nets,
                        int n_bind, const char *net_file, char *out, size_t size,
                        hs_error_t *err);

/*
 * Area count of a position (Tromp-Taylor style, no dead-stone removal): stones
 * plus empty regions that touch only one colour. Used by the "area" engine and
 * as a cheap reference elsewhere. Writes Black's and White's points.
 */
void hs_engine_area_count(const hs_board_t *b, float *black, float *white,
                          int8_t *ownership);

#endif
