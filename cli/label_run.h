/*
 * cli/label_run.h — the engine room of `hyeongse label` (cli/cmd_label.c):
 * the games read from the archives, labelled on N threads (worker/label.h),
 * turned into samples and written, in game order, into shards
 * (worker/shard.h); then index.json (cli/label_index.c).
 *
 * Determinism: every game is labelled with a seed of its own (from --seed
 * and the game's id), by an evaluator whose results depend on the position
 * and the seed only, and its samples are written when every game before it
 * has been written; so the shards are the same bytes for any --threads.
 */
#ifndef HS_CLI_LABEL_RUN_H
#define HS_CLI_LABEL_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/game.h"
#include "worker/label.h"
#include "worker/nn/model.h"
#include "worker/shard.h"

/* What the command line asked for (defaults in cli/cmd_label.c). */
typedef struct hs__label_opts {
    const char **paths;
    int npaths;
    const char *out, *net, *backend;
    int visits, every, threads, val_percent, max_games, size, shard_samples;
    uint64_t seed;
} hs__label_opts_t;

/* One game of the run, as index.json lists it. */
typedef struct hs__label_game {
    hs_game_t game;
    char *source;                 /* as ingest names it */
    int index;                    /* game tree in its file */
    bool val;                     /* split by the game id */
    hs_label_status_t status;
    char reason[160];             /* MISS and SKIP: why */
    bool labelled;                /* black_margin holds a count */
    double black_margin;
    int yose_moves;
    int samples;
    /* from the labelling thread to the writer */
    hs_shard_sample_t *buf;
    int nbuf;
    bool done;
} hs__label_game_t;

/* One shard written, for index.json. */
typedef struct hs__label_shard {
    char file[64];
    bool val;
    int size;
    uint64_t samples;
} hs__label_shard_t;

/* The run: the games, the shards, the totals. */
typedef struct hs__label_run {
    const hs__label_opts_t *o;
    const hs_nn_model_t *model;   /* NULL: rollouts */
    hs__label_game_t *games;
    int n, cap;
    int other_sizes;              /* games left out by --size */
    hs__label_shard_t *shards;
    int nshards, capshards;
    uint64_t samples_train, samples_val;
    int ok, miss, skip;
    double t0, seconds;
} hs__label_run_t;

/* Reads the archives' games into run (at most o->max_games of the asked
 * size). 0, or a negative code with err. */
int hs__label_read(hs__label_run_t *run, hs_error_t *err);

/* Labels every game on o->threads threads and writes the shards; progress
 * on progress (NULL: none). 0, or a negative code with err (the shards of an
 * interrupted run are removed or never renamed into place). */
int hs__label_all(hs__label_run_t *run, FILE *progress, hs_error_t *err);

/* The kind of a reason for the summary: its text before the first ':'
 * (at most cap - 1 bytes). */
void hs__label_reason_kind(const char *reason, char *kind, size_t cap);

/* Writes DIR/index.json through DIR/index.json.tmp and a rename. */
int hs__label_write_index(const hs__label_run_t *run, hs_error_t *err);

/* Prints the final summary. */
void hs__label_print_summary(const hs__label_run_t *run, FILE *out);

/* Frees what run owns. */
void hs__label_run_fini(hs__label_run_t *run);

#endif
