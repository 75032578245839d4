/*
 * cli/analyze.h — what `hyeongse analyze` (cli/cmd_analyze.c) needs to resume
 * an interrupted run (cli/analyze_resume.c).
 *
 * A run's job token is derived from its canonical inputs: every archive path
 * resolved (realpath) with its size and modification time, the canonical
 * engine specs and the moves spec. The broker journals the token with the job
 * ("SPEC;TOKEN" in moves_spec), and a SUBMIT that carries the token of a job it
 * holds joins that job (broker/broker.c, s_on_submit): its games already stored
 * are skipped, and its tasks already done are not redone. So a rerun of the same
 * inputs after a kill or a store error continues the job instead of starting a
 * second one. A folder counts by its own size and time, not its contents': a
 * file changed inside a folder is not seen (its game id is, by the broker, when
 * it is new).
 *
 * Only a RUNNING job is resumed. Once a job with a token has ended (done,
 * failed, canceled), a rerun gets the next token of the same inputs
 * ("TOKEN.1", "TOKEN.2", ...): a new job, as before this existed.
 */
#ifndef HS_CLI_ANALYZE_H
#define HS_CLI_ANALYZE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/wire.h"
#include "store/store.h"

/* Most engine threads `analyze --threads` takes. */
#define HS_ANALYZE_MAX_THREADS 1024

typedef struct hs_analyze_resume {
    char token[HS_WIRE_MAX_TOKEN + 1];   /* the job token to submit with */
    bool found;                          /* a running job of these inputs is journaled */
    hs_store_job_t job;                  /* if found: its record as the journal holds it */
} hs_analyze_resume_t;

/*
 * Derives the token of these inputs and looks for its running job in the store
 * at db (read-only, closed again before returning). A store that does not
 * exist or cannot be read gives found = false and the first token: the broker
 * then reports what is wrong with it, with its own message.
 */
void hs__analyze_resume_find(const char *db, const char *const *paths, int npaths,
                             const char *engines, const char *moves, hs_analyze_resume_t *out);

/* One line: "analyze: resuming job N: ... already done". */
void hs__analyze_resume_print(FILE *out, const hs_analyze_resume_t *r);

#endif
