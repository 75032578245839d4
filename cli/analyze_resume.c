/*
 * cli/analyze_resume.c — the job token of an `analyze` run, derived from its
 * inputs, and the look-up of an interrupted job with that token in the store's
 * journal (see cli/analyze.h for why and what counts as the same inputs).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze.h"

/* FNV-1a, 64-bit: the token only has to tell input sets apart, not resist an
 * adversary (a clash would join the other inputs' job, whose games the broker
 * still checks one by one). */
static uint64_t s_fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Hashes one field and a separator, so "ab"+"c" and "a"+"bc" differ. */
static void s_mix(uint64_t h[2], const void *data, size_t len)
{
    static const char sep = '\0';
    h[0] = s_fnv(s_fnv(h[0], data, len), &sep, 1);
    h[1] = s_fnv(s_fnv(h[1], data, len), &sep, 1);
}

/* Hashes an input path: resolved, with its size and modification time. */
static void s_mix_path(uint64_t h[2], const char *path)
{
    char real[PATH_MAX];
    const char *p = realpath(path, real) ? real : path;
    s_mix(h, p, strlen(p));
    struct stat st;
    int64_t v[3] = { -1, -1, -1 };
    if (stat(path, &st) == 0) {
        v[0] = (int64_t)st.st_size;
        v[1] = (int64_t)st.st_mtim.tv_sec;
        v[2] = (int64_t)st.st_mtim.tv_nsec;
    }
    s_mix(h, v, sizeof v);
}

/* "analyze-" and 24 hex digits: 96 bits of the inputs, 32 characters, room
 * for a ".N" generation within HS_WIRE_MAX_TOKEN. */
static void s_base_token(const char *const *paths, int npaths, const char *engines,
                         const char *moves, char *out, size_t size)
{
    uint64_t h[2] = { 0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL };
    for (int i = 0; i < npaths; i++)
        s_mix_path(h, paths[i]);
    s_mix(h, engines, strlen(engines));
    s_mix(h, moves, strlen(moves));
    snprintf(out, size, "analyze-%016" PRIx64 "%08" PRIx64, h[0], h[1] >> 32);
}

/* The token journaled with a job: after the ';' of its moves spec, or "". */
static const char *s_job_token(const hs_store_job_t *j)
{
    const char *semi = strchr(j->moves_spec, ';');
    return semi ? semi + 1 : "";
}

/* Whether token is base itself or base + ".N". */
static bool s_same_inputs(const char *token, const char *base)
{
    size_t n = strlen(base);
    return !strncmp(token, base, n) && (token[n] == '\0' || token[n] == '.');
}

/* Picks, among the journal's jobs, a running one of these inputs (the newest),
 * else a token of them that no job has. */
static void s_pick(const hs_store_job_t *jobs, int count, const char *base,
                   hs_analyze_resume_t *out)
{
    int same = 0;
    for (int i = 0; i < count; i++) {
        const hs_store_job_t *j = &jobs[i];
        if (!s_same_inputs(s_job_token(j), base))
            continue;
        same++;
        /* A running job with a reason was closed (its upload lease ran out):
         * the broker refuses more games for it. */
        if (j->state == HS_JOB_RUNNING && !j->reason[0]) {
            out->found = true;
            out->job = *j;
            snprintf(out->token, sizeof out->token, "%s", s_job_token(j));
        }
    }
    if (out->found || same == 0)
        return;
    /* Every job of these inputs has ended: the next generation, unused. */
    for (int g = same;; g++) {
        snprintf(out->token, sizeof out->token, "%s.%d", base, g);
        bool used = false;
        for (int i = 0; i < count && !used; i++)
            used = !strcmp(s_job_token(&jobs[i]), out->token);
        if (!used)
            return;
    }
}

void hs__analyze_resume_find(const char *db, const char *const *paths, int npaths,
                             const char *engines, const char *moves, hs_analyze_resume_t *out)
{
    char base[HS_WIRE_MAX_TOKEN + 1];
    memset(out, 0, sizeof *out);
    s_base_token(paths, npaths, engines, moves, base, sizeof base);
    snprintf(out->token, sizeof out->token, "%s", base);
    struct stat st;
    if (stat(db, &st) != 0)
        return;   /* a new store: nothing to resume */
    hs_store_t *s = NULL;
    hs_store_job_t *jobs = NULL;
    int count = 0;
    if (hs_store_open(&s, db, HS_STORE_RDONLY, 0, NULL) == 0 &&
        hs_store_job_list(s, &jobs, &count, NULL) == 0)
        s_pick(jobs, count, base, out);
    free(jobs);
    hs_store_close(&s);
}

void hs__analyze_resume_print(FILE *out, const hs_analyze_resume_t *r)
{
    const hs_store_job_t *j = &r->job;
    fprintf(out, "analyze: resuming job %" PRIu64 " (same archives, engines and moves): %" PRId64
                 " of %" PRId64 " positions and %" PRId64 " of %" PRId64 " games already done%s\n",
            j->id, j->positions_done, j->positions_total, j->games_done + j->games_failed,
            j->games_total,
            j->input_complete ? "" : "; its upload was cut: games it holds are skipped");
}
