/*
 * core/log.h — the event lines of the long-running programs (broker, worker).
 *
 * A broker or worker runs for days, and its stderr is what its operator reads
 * after a night's run: each event line says when it happened. Under systemd
 * (ansible/ deploys them so) the journal stamps every line itself, so the time
 * is left out there. Lines that a command prints before it starts serving
 * (argument errors) are not events and keep their plain form.
 */
#ifndef HS_CORE_LOG_H
#define HS_CORE_LOG_H

#include <stddef.h>

/* Writes one line to stderr: "hyeongse WHO: MESSAGE\n", preceded by the UTC
 * time ("2026-12-06T15:40:01.123Z ") unless stderr is systemd's journal (the
 * JOURNAL_STREAM variable names stderr's device and inode). The line is
 * formatted first and written by one call, so that lines of different threads
 * do not interleave; a message longer than 4 KB is cut. FMT has no newline. */
void hs_log_event(const char *who, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The stamp hs_log_event would put before a line now: "" under the journal,
 * else the UTC time and a space, into buf (at least 32 bytes). Returns buf. */
const char *hs_log_stamp(char *buf, size_t size);

#endif
