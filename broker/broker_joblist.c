/*
 * broker/broker_joblist.c — the index of every job of the journal (b->jobs: id,
 * owner, state, token hash; broker_internal.h, hs__jobref_t), and what reads
 * jobs through it: finding a job by id or by its client token, and the pages of
 * jobs a STATUS answers with.
 *
 * A job is in memory (hs__bjob_t) only while it runs: once the commit that
 * journals its end is done, hs__jobs_release frees it, and a reply that shows
 * it reads its record from the store's `jobs` table (hs_store_job_get). The
 * index stays, because the questions asked of many jobs at once — how many of
 * this owner's jobs are done (a page's total), which job holds this token (every
 * new upload asks) — would otherwise read every record of the table per request.
 */
#include "broker/broker_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/charset.h"

/* ------------------------------------------------------------- the index */

hs__jobref_t *hs__job_ref(const hs__broker_t *b, uint64_t id)
{
    int lo = 0, hi = b->num_jobs;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (b->jobs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->num_jobs && b->jobs[lo].id == id ? &b->jobs[lo] : NULL;
}

hs__bjob_t *hs__job_find(hs__broker_t *b, uint64_t id)
{
    const hs__jobref_t *r = hs__job_ref(b, id);
    return r ? r->live : NULL;
}

/* Where key is, or would go, in b->owner_order; *found says which. */
static int s_owner_slot(const hs__broker_t *b, const char *key, bool *found)
{
    int lo = 0, hi = b->num_owners;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(b->owners[b->owner_order[mid]].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < b->num_owners && !strcmp(b->owners[b->owner_order[lo]].key, key);
    return lo;
}

int hs__owner_find(const hs__broker_t *b, const char *key)
{
    bool found;
    int slot = s_owner_slot(b, key, &found);
    return found ? (int)b->owner_order[slot] : -1;
}

/* The index of owner key, interned if new: >= 0, or HS_ENOMEM. Owners are the
 * keys of the allow lists ("" alone on a plaintext broker): few. */
static int s_owner_intern(hs__broker_t *b, const char *key)
{
    bool found;
    int slot = s_owner_slot(b, key, &found);
    if (found)
        return (int)b->owner_order[slot];
    if (b->num_owners == b->cap_owners) {
        int cap = b->cap_owners ? b->cap_owners * 2 : 4;
        hs__owner_t *no = realloc(b->owners, sizeof *no * (size_t)cap);
        if (!no)
            return HS_ENOMEM;
        b->owners = no;
        uint32_t *nord = realloc(b->owner_order, sizeof *nord * (size_t)cap);
        if (!nord)
            return HS_ENOMEM;
        b->owner_order = nord;
        b->cap_owners = cap;
    }
    int idx = b->num_owners++;
    snprintf(b->owners[idx].key, sizeof b->owners[idx].key, "%s", key);
    b->owners[idx].jobs = 0;
    memmove(b->owner_order + slot + 1, b->owner_order + slot,
            sizeof *b->owner_order * (size_t)(idx - slot));
    b->owner_order[slot] = (uint32_t)idx;
    return idx;
}

/* FNV-1a of owner, a NUL and token; never 0 (the mark of "no token"). A match
 * is checked against the token itself (hs__job_by_token). */
static uint64_t s_token_hash(const char *owner, const char *token)
{
    if (!*token)
        return 0;
    uint64_t h = 1469598103934665603ull;
    for (const char *p = owner;; p++) {
        h = (h ^ (uint8_t)*p) * 1099511628211ull;
        if (!*p)
            break;
    }
    for (const char *p = token; *p; p++)
        h = (h ^ (uint8_t)*p) * 1099511628211ull;
    return h ? h : 1;
}

const char *hs__job_token(const hs_store_job_t *rec)
{
    const char *semi = strchr(rec->moves_spec, ';');
    return semi ? semi + 1 : "";
}

int hs__job_index(hs__broker_t *b, const hs_store_job_t *rec, hs__bjob_t *live,
                  hs_error_t *err)
{
    /* Ids grow (the journal allocates last + 1), which the binary search needs. */
    if (b->num_jobs > 0 && rec->id <= b->jobs[b->num_jobs - 1].id)
        return hs_error_set(err, HS_ESTORE, "job %llu after job %llu: ids out of order",
                            (unsigned long long)rec->id,
                            (unsigned long long)b->jobs[b->num_jobs - 1].id);
    if (b->num_jobs == b->cap_jobs) {
        int cap = b->cap_jobs ? b->cap_jobs * 2 : 64;
        hs__jobref_t *nj = realloc(b->jobs, sizeof *nj * (size_t)cap);
        if (!nj)
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        b->jobs = nj;
        b->cap_jobs = cap;
    }
    int owner = s_owner_intern(b, rec->owner);
    if (owner < 0)
        return hs_error_set(err, owner, "out of memory");
    b->owners[owner].jobs++;
    b->jobs[b->num_jobs++] = (hs__jobref_t){ .id = rec->id, .live = live,
                                             .token = s_token_hash(rec->owner, hs__job_token(rec)),
                                             .owner = (uint32_t)owner,
                                             .state = (uint8_t)rec->state };
    return 0;
}

void hs__jobs_release(hs__broker_t *b)
{
    for (hs__bjob_t **pj = &b->ended; *pj;) {
        hs__bjob_t *j = *pj;
        hs__jobref_t *r = hs__job_ref(b, j->rec.id);
        if (j->dirty || !r) {   /* not journaled yet (never after a good commit) */
            pj = &j->ended_next;
            continue;
        }
        r->state = (uint8_t)j->rec.state;
        r->live = NULL;
        *pj = j->ended_next;
        hs__job_waiting_clear(j);
        free(j);
    }
}

/* ------------------------------------------------- jobs read from the store */

/* A text of size bytes (NUL-terminated) that is not UTF-8 is escaped (\xNN),
 * cut at a character boundary. */
static void s_text_repair(char *text, size_t size)
{
    size_t len = strnlen(text, size - 1);
    if (hs_wire_utf8_valid(text, len))
        return;
    char *esc = hs_wire_utf8_escape(text, len, NULL);
    if (!esc) {
        text[hs_utf8_valid_prefix(text, len)] = '\0';
        return;
    }
    snprintf(text, size, "%s", esc);
    free(esc);
    text[hs_utf8_valid_prefix(text, strlen(text))] = '\0';
}

void hs__job_text_repair(hs_store_job_t *rec)
{
    s_text_repair(rec->name, sizeof rec->name);
    s_text_repair(rec->reason, sizeof rec->reason);
}

/* The record of ended job id from the store into *rec, its texts repaired as
 * the load repairs a running job's. 0, or the store's error with err saying
 * which job (a client reads it). */
static int s_job_read(hs__broker_t *b, uint64_t id, hs_store_job_t *rec, hs_error_t *err)
{
    hs_error_t e = { 0 };
    int rc = hs_store_job_get(b->store, id, rec, &e);
    if (rc < 0)
        return hs_error_set(err, rc, "job %llu: its record cannot be read from the broker's "
                            "store: %s", (unsigned long long)id, e.msg);
    hs__job_text_repair(rec);
    return 0;
}

/* Job r as hs__job_lookup gives it. */
static int s_job_of(hs__broker_t *b, const hs__jobref_t *r, hs__bjob_t *tmp, hs__bjob_t **out,
                    hs_error_t *err)
{
    *out = r ? r->live : NULL;
    if (!r || r->live)
        return 0;
    memset(tmp, 0, sizeof *tmp);
    int rc = s_job_read(b, r->id, &tmp->rec, err);
    if (rc == 0)
        *out = tmp;
    return rc;
}

int hs__job_lookup(hs__broker_t *b, uint64_t id, const char *owner, hs__bjob_t *tmp,
                   hs__bjob_t **out, hs_error_t *err)
{
    const hs__jobref_t *r = hs__job_ref(b, id);
    if (r && owner && (int)r->owner != hs__owner_find(b, owner))
        r = NULL;
    return s_job_of(b, r, tmp, out, err);
}

int hs__job_by_token(hs__broker_t *b, const char *token, const char *owner, hs__bjob_t *tmp,
                     hs__bjob_t **out, hs_error_t *err)
{
    *out = NULL;
    int who = token && *token ? hs__owner_find(b, owner) : -1;
    if (who < 0)
        return 0;
    uint64_t h = s_token_hash(owner, token);
    for (int i = 0; i < b->num_jobs; i++) {
        const hs__jobref_t *r = &b->jobs[i];
        if (r->token != h || r->owner != (uint32_t)who)
            continue;
        int rc = s_job_of(b, r, tmp, out, err);
        if (rc < 0)
            return rc;
        if (!strcmp(hs__job_token(&(*out)->rec), token))
            return 0;
        *out = NULL;   /* another token of the same hash */
    }
    return 0;
}

/* ---------------------------------------------- STATUS: a page of jobs */

/* The texts of an ended job's line, copied from its record (read one at a
 * time): they live in the reply's block, after its lines. */
typedef struct s_texts {
    char name[sizeof ((hs_store_job_t *)0)->name];
    char reason[sizeof ((hs_store_job_t *)0)->reason];
} s_texts_t;

/* A line of a STATUS_REPLY from a job record; rate, and reason (NULL: none), as
 * the caller knows them. The strings point into rec. */
static void s_status_fill(hs_wire_job_status_t *s, const hs_store_job_t *rec, double rate,
                          const char *reason)
{
    s->id = rec->id;
    s->name = (char *)rec->name;
    s->state = (char *)hs_job_state_name(rec->state);
    s->games_total = rec->games_total;
    s->games_done = rec->games_done;
    s->games_failed = rec->games_failed;
    s->positions_total = rec->positions_total;
    s->positions_done = rec->positions_done;
    s->rate = rate;
    s->input_complete = rec->input_complete;
    s->reason = (char *)reason;
}

/* Job r's line: a job in memory lends its texts (a reply is encoded before the
 * loop goes on); an ended one computes nothing (rate 0) and waits for nothing,
 * and its texts are copied into t. admin: the reply goes to an admin, who may
 * read worker names in a waiting job's reason. */
static int s_status_line(hs__broker_t *b, const hs__jobref_t *r, bool admin,
                         hs_wire_job_status_t *s, s_texts_t *t, hs_error_t *err)
{
    if (r->live) {
        const hs__bjob_t *j = r->live;
        s_status_fill(s, &j->rec, j->rate,
                      j->rec.reason[0] ? j->rec.reason : hs__job_waiting(j, admin));
        return 0;
    }
    hs_store_job_t rec;
    int rc = s_job_read(b, r->id, &rec, err);
    if (rc < 0)
        return rc;
    memcpy(t->name, rec.name, sizeof t->name);
    memcpy(t->reason, rec.reason, sizeof t->reason);
    s_status_fill(s, &rec, 0, NULL);
    s->name = t->name;
    s->reason = t->reason[0] ? t->reason : NULL;
    return 0;
}

int hs__status_msg(hs__broker_t *b, uint64_t job_id, const char *owner, hs_wire_msg_t *m,
                   hs_error_t *err)
{
    hs_wire_status_t q = { .job_id = job_id };
    return hs__status_page(b, &q, owner, m, err);
}

/* The job state named s ("done"), or -1. */
static int s_job_state(const char *s)
{
    for (int st = HS_JOB_RUNNING; st <= HS_JOB_FAILED; st++)
        if (!strcmp(s, hs_job_state_name((hs_job_state_t)st)))
            return st;
    return -1;
}

/* The lines of the n jobs sel[] (ended of them not in memory) into m, as one
 * block: the lines, then the ended jobs' texts. */
static int s_status_lines(hs__broker_t *b, const hs__jobref_t *const *sel, int n, int ended,
                          bool admin, hs_wire_msg_t *m, hs_error_t *err)
{
    size_t head = sizeof(hs_wire_job_status_t) * (size_t)(n + 1);
    char *block = calloc(1, head + sizeof(s_texts_t) * (size_t)ended);
    if (!block)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    hs_wire_job_status_t *v = (hs_wire_job_status_t *)(void *)block;
    s_texts_t *t = (s_texts_t *)(void *)(block + head);
    int rc = 0;
    for (int k = 0, e = 0; k < n && rc == 0; k++)
        rc = s_status_line(b, sel[k], admin, &v[k], sel[k]->live ? NULL : &t[e++], err);
    if (rc < 0) {
        free(block);
        return rc;
    }
    m->status_reply.jobs = v;
    m->status_reply.num_jobs = n;
    return 0;
}

int hs__status_page(hs__broker_t *b, const hs_wire_status_t *q, const char *owner,
                    hs_wire_msg_t *m, hs_error_t *err)
{
    hs_wire_msg_init(m, HS_WIRE_STATUS_REPLY);
    int state = q->state ? s_job_state(q->state) : -1;
    if (q->state && state < 0)
        return hs_error_set(err, HS_EINVAL, "unknown job state (running, done, failed, canceled)");
    int limit = q->limit > 0 && q->limit < HS_WIRE_MAX_JOBS ? q->limit : HS_WIRE_MAX_JOBS;
    /* The index range to look through: every job, or the one asked for. */
    int lo = 0, hi = b->num_jobs;
    if (q->job_id) {
        const hs__jobref_t *r = hs__job_ref(b, q->job_id);
        lo = r ? (int)(r - b->jobs) : 0;
        hi = r ? lo + 1 : 0;
    }
    /* Another owner's job is not there at all: its id answers "no such job"
     * like an unknown one, so a client cannot probe which jobs exist. */
    int who = owner ? hs__owner_find(b, owner) : -1;
    if (owner && who < 0)
        hi = lo;   /* no job has this owner */
    int cap = hi - lo < limit ? hi - lo : limit;
    const hs__jobref_t **sel = malloc(sizeof *sel * (size_t)(cap + 1));
    if (!sel)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int n = 0, ended = 0;
    int64_t total = 0;
    bool more = false;
    /* Newest first: the index is in id order. One pass counts every match (the
     * total), picks the page below `before`, and sees whether any follow it;
     * then only the page's ended jobs are read from the store. */
    for (int i = hi - 1; i >= lo; i--) {
        const hs__jobref_t *r = &b->jobs[i];
        int st = r->live ? (int)r->live->rec.state : r->state;
        if ((state >= 0 && st != state) || (owner && r->owner != (uint32_t)who))
            continue;
        total++;
        if (q->before && r->id >= q->before)
            continue;
        if (n < limit) {
            sel[n++] = r;
            ended += !r->live;
        } else {
            more = true;
        }
    }
    int rc = q->job_id != 0 && total == 0 ? hs_error_set(err, HS_ENOTFOUND, "no such job")
             : s_status_lines(b, sel, n, ended, owner == NULL, m, err);
    free(sel);
    if (rc < 0)
        return rc;
    m->status_reply.workers = b->num_workers;
    m->status_reply.total = total;
    m->status_reply.more = more;
    return 0;
}
