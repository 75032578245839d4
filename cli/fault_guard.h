/*
 * cli/fault_guard.h — runs a store reader so that a memory fault inside it
 * becomes an error message instead of a crash.
 *
 * LMDB 0.9 has no page checksums and trusts the pointers and sizes in its pages:
 * a store with damaged pages can make its readers fault (SIGSEGV on a wild
 * offset, SIGBUS past the end of the file). hs_store_open checks the file size
 * against the meta pages and `hyeongse check` walks every table, but a reader
 * cannot afford to validate every page it reads. So the reader commands (query,
 * check) run under this guard: a SIGSEGV or SIGBUS raised on the guarded thread
 * while the guard is armed jumps back here and is reported as HS_ECORRUPT.
 *
 * State: the jump buffer is thread-local (one per guarded thread) — with the
 * signal flags of cmd_broker.c and cmd_worker.c, the only file-scope mutable
 * state of the program. A fault on a thread that is not guarded, or outside
 * the guard, still kills the process as before.
 */
#ifndef HS_CLI_FAULT_GUARD_H
#define HS_CLI_FAULT_GUARD_H

#include <stdbool.h>

#include "core/error.h"

typedef int (*hs_cli_guarded_fn)(void *ctx, hs_error_t *err);

/*
 * Runs fn(ctx, err) with SIGSEGV and SIGBUS caught on this thread (the previous
 * handlers are restored afterwards). Returns what fn returns, or HS_ECORRUPT with
 * "<what>: the store is damaged (SIGSEGV while reading it); run `hyeongse check
 * --db <what>` for details" when it faulted (advise_check false: for `check`
 * itself, which says more). After a fault, whatever fn had
 * allocated or opened is abandoned on purpose (LMDB's state is unknown, so the
 * store must not be closed): the caller reports the error and exits.
 */
int hs_cli_guarded(hs_cli_guarded_fn fn, void *ctx, const char *what, bool advise_check,
                   hs_error_t *err);

#endif
