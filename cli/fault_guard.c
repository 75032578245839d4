/*
 * cli/fault_guard.c — SIGSEGV/SIGBUS in a store reader as an error (see
 * cli/fault_guard.h for why, and for its one piece of thread-local state).
 */
#include "fault_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

/* The armed guard of this thread, or NULL. */
static _Thread_local sigjmp_buf *s_armed;

static void s_on_fault(int sig)
{
    sigjmp_buf *env = s_armed;
    if (env) {
        s_armed = NULL;
        siglongjmp(*env, sig);
    }
    /* Not a guarded read: die of the signal as without the guard. */
    signal(sig, SIG_DFL);
    raise(sig);
}

int hs_cli_guarded(hs_cli_guarded_fn fn, void *ctx, const char *what, bool advise_check,
                   hs_error_t *err)
{
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = s_on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    sigjmp_buf env;
    volatile int rc;
    int sig = sigsetjmp(env, 1);
    if (sig == 0) {
        s_armed = &env;
        rc = fn(ctx, err);
    } else {
        rc = hs_error_set(err, HS_ECORRUPT, "%s: the store is damaged (%s while reading "
                          "it)%s%s%s", what, sig == SIGBUS ? "SIGBUS" : "SIGSEGV",
                          advise_check ? "; run `hyeongse check --db " : "",
                          advise_check ? what : "", advise_check ? "` for details" : "");
    }
    s_armed = NULL;
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    return rc;
}
