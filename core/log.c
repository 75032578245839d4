/*
 * core/log.c — timestamped event lines (core/log.h).
 */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

/* systemd sets JOURNAL_STREAM=DEVICE:INODE for a service whose stderr is the
 * journal; a child whose stderr was redirected elsewhere inherits the variable
 * but not the stream, hence the comparison. */
static int s_stderr_is_journal(void)
{
    const char *js = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    struct stat st;
    if (!js || sscanf(js, "%llu:%llu", &dev, &ino) != 2 || fstat(2, &st) != 0)
        return 0;
    return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

const char *hs_log_stamp(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    buf[0] = '\0';
    if (s_stderr_is_journal() || clock_gettime(CLOCK_REALTIME, &ts) != 0 ||
        !gmtime_r(&ts.tv_sec, &tm))
        return buf;
    size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
    if (n == 0 || snprintf(buf + n, size - n, ".%03ldZ ", ts.tv_nsec / 1000000) >= (int)(size - n))
        buf[0] = '\0';
    return buf;
}

void hs_log_event(const char *who, const char *fmt, ...)
{
    char line[4096], stamp[40];
    int n = snprintf(line, sizeof line, "%shyeongse %s: ", hs_log_stamp(stamp, sizeof stamp), who);
    if (n < 0 || n >= (int)sizeof line - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (m < 0)
        return;
    size_t len = (size_t)n + ((size_t)m < sizeof line - (size_t)n - 1 ? (size_t)m : sizeof line - (size_t)n - 2);
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
}
