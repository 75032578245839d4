/*
 * core/clock.h — seconds from the POSIX clocks, as doubles (and monotonic ms).
 *
 * Progress bars, rates and the "time inside the engines" figures all need the
 * same three readings; on a shared machine the CPU-time clocks are the honest
 * ones (wall time counts other processes' load as ours). Header-only.
 */
#ifndef HS_CORE_CLOCK_H
#define HS_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline double hs_clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Monotonic wall time. */
static inline double hs_clock_now(void) { return hs_clock_seconds(CLOCK_MONOTONIC); }
/* CPU time of the calling thread. */
static inline double hs_clock_thread_cpu(void) { return hs_clock_seconds(CLOCK_THREAD_CPUTIME_ID); }
/* CPU time of the whole process, all threads. */
static inline double hs_clock_process_cpu(void) { return hs_clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

/* Monotonic wall time in whole milliseconds: the unit of heartbeats, leases and
 * timeouts in the broker, the worker and the client. */
static inline int64_t hs_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
