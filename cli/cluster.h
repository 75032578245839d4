/*
 * cli/cluster.h — what `submit`, `analyze` and `status` share: streaming an
 * archive into a job through the broker client, waiting for a job with a
 * progress bar, and printing job status. Implemented in cli/cmd_submit.c.
 */
#ifndef HS_CLI_CLUSTER_H
#define HS_CLI_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "broker/client.h"
#include "core/error.h"
#include "ingest/ingest.h"

/* Default broker address when neither --broker nor HS_BROKER is given. */
#define HS_CLI_DEFAULT_BROKER "tcp://127.0.0.1:5555"

/* Engines used when --engines is not given: "influence,judge" when both are
 * built in, else "area". Static storage. */
const char *hs__cli_default_engines(void);

/*
 * Reads paths with the ingest pipeline and streams every good game, then every
 * failure (with its reason), into a job through c: a new one, or with token
 * (NULL: a random one) the job the broker holds with that token, which the
 * games join (those it already holds are skipped). *job gets the job id, *rep
 * the ingest report (caller finis it). progress: print ingest progress.
 * follow_symlinks: --follow-symlinks (hs_ingest_options_t.follow_symlinks).
 */
int hs__cli_submit_paths(hs_client_t *c, const char *const *paths, int npaths,
                         const char *engines, const char *moves, const char *name,
                         int ingest_threads, bool follow_symlinks, const char *token,
                         uint64_t *job,
                         hs_ingest_report_t *rep, bool progress, hs_error_t *err);

/* Final figures of a job, as hs__cli_wait saw them last. */
typedef struct hs_cli_job_summary {
    char state[32];
    int64_t games_total, games_done, games_failed, positions_total, positions_done;
    int workers;
} hs_cli_job_summary_t;

/* The exit status of `analyze` and `submit --wait` for a job that ended "done"
 * with every game failed (a script must tell it from a job that worked). */
#define HS_CLI_EXIT_NOTHING 3

/* The job ended "done" with at least one game, and every game failed: nothing
 * was analysed. A job of no games (an empty folder) is not such a job. */
bool hs__cli_nothing_analysed(const char *state, int64_t games_total, int64_t games_failed);

/* Into buf (size bytes): "nothing analysed: all N games failed (`QUERY` says
 * why, in the rows of job J)", the one wording of `status`, `submit --wait`
 * and `analyze`; query is the command to run (`hyeongse query ... failed`). */
void hs__cli_nothing_reason(char *buf, size_t size, int64_t games_total, uint64_t job,
                            const char *query);

/*
 * WATCHes job (the broker pushes its counts, at most every 250 ms) until it is
 * no longer running, drawing a
 * progress bar (games, positions/s, ETA, failures) on `bar` (NULL: none).
 * Returns 0 (see sum->state for how it ended) or the client's error.
 */
int hs__cli_wait(hs_client_t *c, uint64_t job, FILE *bar, hs_cli_job_summary_t *sum,
                 hs_error_t *err);

/* Prints a STATUS_REPLY as a table or as JSON (one object: {"workers":N,"jobs":[...]},
 * with "total":N,"more":BOOL when the broker said how many jobs match). */
void hs__cli_print_status(FILE *out, const hs_wire_status_reply_t *r, bool json);

/* The broker address: opt if set, else $HS_BROKER, else the default. */
const char *hs__cli_broker_addr(const char *opt);

#endif
