/*
 * broker/broker_jobs.c — jobs: moves specs and client tokens, creation, a game
 * turned into its QUEUED task(s) (one per chunk of positions), cancel, the upload
 * lease, the job counters journaled when dirty, and on restart the load of the
 * running jobs and their unfinished tasks from the journal (hs__broker_load; the
 * ended ones are only indexed, broker_joblist.c). The task
 * state machine these feed, and what chunks and the job counters mean, are drawn
 * and explained at the top of broker/broker_tasks.c.
 */
#include "broker/broker_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------- jobs */

/* " of OWNER" for the log lines of job j on a CURVE broker (a plaintext one
 * has one anonymous owner: nothing to say); into buf, returned. */
static const char *s_of(const hs__broker_t *b, const hs__bjob_t *j, char *buf, size_t size)
{
    char name[80];
    buf[0] = '\0';
    if (b->cfg->curve)
        snprintf(buf, size, " of %s", hs__key_name(b, j->rec.owner, name, sizeof name));
    return buf;
}

#define S_ABANDONED "upload abandoned"

bool hs__job_abandoned(const hs__bjob_t *j)
{
    return !strncmp(j->rec.reason, S_ABANDONED, strlen(S_ABANDONED));
}

/* Upload lease expired: no more input; accepted games finish, then the job
 * ends failed with the reason (hs__job_check_done). */
void hs__job_abandon(hs__broker_t *b, hs__bjob_t *j)
{
    if (j->rec.state != HS_JOB_RUNNING || j->rec.input_complete)
        return;
    j->rec.input_complete = true;
    snprintf(j->rec.reason, sizeof j->rec.reason,
             S_ABANDONED ": no SUBMIT for %d s after %lld games; the client may have died",
             b->upload_ms / 1000, (long long)j->rec.games_total);
    j->dirty = true;
    char of[96];
    HS__EVENT(b, "job %llu%s: %s", (unsigned long long)j->rec.id, s_of(b, j, of, sizeof of),
              j->rec.reason);
    hs__job_check_done(b, j);
}

/* What the broker derives from a job record, once (at creation and at the
 * journal load), not per game or per TASK: the moves spec parsed (a bad one, only
 * possible in a damaged journal, reads as "all"), the engine specs, their ids, and
 * the engine list every TASK of the job lends. Fails on a bad engine list. */
static int s_job_derive(hs__bjob_t *j, hs_error_t *err)
{
    hs_wire_moves_spec_parse(j->rec.moves_spec, &j->step, &j->last_only);
    char *list = j->engine_text;
    snprintf(list, sizeof j->engine_text, "%s", j->rec.engines);
    j->num_engines = 0;
    /* Split as every list reader does: a spec's options have commas too
     * ("mcts:visits=100,net=<hash>", core/poskey.h). */
    for (char *tok = list, *next; *tok; tok = next) {
        size_t len = hs_engine_list_entry(tok);
        next = tok + len + (tok[len] == ',');
        tok[len] = '\0';
        if (!len)
            continue;
        if (j->num_engines >= HS_WIRE_MAX_ENGINES || strlen(tok) >= HS_WIRE_MAX_NAME)
            return hs_error_set(err, HS_EINVAL, "too many or too long engine specs");
        j->engines[j->num_engines] = tok;
        j->engine_ids[j->num_engines] = hs_engine_config_id(tok);
        j->num_engines++;
    }
    if (j->num_engines == 0)
        return hs_error_set(err, HS_EINVAL, "a job needs at least one engine");
    return 0;
}

/* Room for one more pointer in *arr (of *cap). 0 or HS_ENOMEM. */
static int s_jobs_room(hs__bjob_t ***arr, int n, int *cap)
{
    if (n < *cap)
        return 0;
    int c = *cap ? *cap * 2 : 16;
    hs__bjob_t **a = realloc(*arr, sizeof *a * (size_t)c);
    if (!a)
        return HS_ENOMEM;
    *arr = a;
    *cap = c;
    return 0;
}

/* Indexes job j, in memory: into b->run, or (one that failed at the load) into
 * b->ended, to be journaled and freed. 0, or an error (in err) with nothing
 * changed. */
static int s_job_add(hs__broker_t *b, hs__bjob_t *j, hs_error_t *err)
{
    bool running = j->rec.state == HS_JOB_RUNNING;
    if (running && s_jobs_room(&b->run, b->num_run, &b->cap_run) < 0)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int rc = hs__job_index(b, &j->rec, j, err);
    if (rc < 0)
        return rc;
    if (running) {
        b->run[b->num_run++] = j;
    } else {
        j->ended_next = b->ended;
        b->ended = j;
    }
    return 0;
}

/* Specs arrive canonical (docs/PROTOCOL.md, "Engine specs and revisions"): the
 * broker hands a job to the workers whose offer names its specs exactly, and it
 * cannot canonicalize them itself (it does not know the engines). A spec that can
 * never be canonical by its syntax (hs_engine_spec_split, the workers' own rules)
 * — no name, a ',' (the journal's separator) but between options, a bad revision, "@1" (written bare)
 * or one with a leading zero — or a spec listed twice would leave the job waiting
 * forever, or break its RESULT check, so the SUBMIT is refused with the reason. An
 * unknown engine name is not refused: workers of another build may offer it. */
static int s_check_specs(char *const *specs, int n, hs_error_t *err)
{
    if (n <= 0)
        return hs_error_set(err, HS_EINVAL, "a job needs at least one engine");
    for (int i = 0; i < n; i++) {
        const char *spec = specs[i] ? specs[i] : "";
        hs_engine_spec_t sp;
        int bad = hs_engine_spec_split(spec, strlen(spec), &sp);
        if (sp.name_len == 0)
            return hs_error_set(err, HS_EINVAL, "engine spec '%s' has no engine name", spec);
        /* ',' separates the journal's specs: inside one only between options,
         * where the list splitter (core/poskey.h) keeps the spec whole. */
        if (hs_engine_list_entry(spec) != strlen(spec))
            return hs_error_set(err, HS_EINVAL, "engine spec '%s' holds a ',' outside its "
                                "options", spec);
        if (!bad && sp.revision == 1 && spec[sp.name_len + 1] == '1')
            return hs_error_set(err, HS_EINVAL, "engine spec '%s': revision 1 is written "
                                "without '@1' (canonical specs, docs/PROTOCOL.md)", spec);
        if (bad || !sp.revision_canonical)
            return hs_error_set(err, HS_EINVAL, "engine spec '%s': a revision is a number "
                                "from 2 to %d, without leading zeros (canonical specs, "
                                "docs/PROTOCOL.md)", spec, HS_ENGINE_MAX_REVISION);
        /* The options' syntax (core/poskey.h): "judge:" or "judge:tau" would be
         * stored as an engine of its own. Their meaning is the workers' check. */
        hs_error_t why = { 0 };
        if (sp.options && hs_engine_options_syntax(sp.options, sp.options_len, &why))
            return hs_error_set(err, HS_EINVAL, "engine spec '%s': %s", spec, why.msg);
        for (int k = 0; k < i; k++)
            if (specs[k] && !strcmp(specs[k], spec))
                return hs_error_set(err, HS_EINVAL, "engine spec '%s' listed twice", spec);
    }
    return 0;
}

int hs__job_new(hs__broker_t *b, const hs_wire_submit_t *s, const char *owner, hs__bjob_t **out,
                hs_error_t *err)
{
    int step, rc;
    bool last_only;
    if (hs_wire_moves_spec_parse(s->moves_spec, &step, &last_only) < 0)
        return hs_error_set(err, HS_EINVAL, "bad moves spec '%s' (all, every:N, last)",
                            s->moves_spec);
    if ((rc = s_check_specs(s->engines, s->num_engines, err)) < 0)
        return rc;
    hs__bjob_t *j = calloc(1, sizeof *j);
    if (!j)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    snprintf(j->rec.name, sizeof j->rec.name, "%s", s->job_name ? s->job_name : "");
    snprintf(j->rec.owner, sizeof j->rec.owner, "%s", owner ? owner : "");
    const char *spec = s->moves_spec && *s->moves_spec ? s->moves_spec : "all";
    if (strchr(spec, ';') || strlen(spec) > 16 ||
        (s->token && (strchr(s->token, ';') || strlen(s->token) > HS_WIRE_MAX_TOKEN))) {
        free(j);
        return hs_error_set(err, HS_EINVAL, "bad moves spec or job token");
    }
    if (s->token && *s->token)
        snprintf(j->rec.moves_spec, sizeof j->rec.moves_spec, "%s;%s", spec, s->token);
    else
        snprintf(j->rec.moves_spec, sizeof j->rec.moves_spec, "%s", spec);
    size_t len = 0;
    for (int i = 0; i < s->num_engines; i++)
        len += (size_t)snprintf(j->rec.engines + len, sizeof j->rec.engines - len, "%s%s",
                                i ? "," : "", s->engines[i]);
    if (len >= sizeof j->rec.engines || (rc = s_job_derive(j, err)) < 0) {
        free(j);
        return hs_error_set(err, HS_EINVAL, "bad engine list");
    }
    j->rec.state = HS_JOB_RUNNING;
    j->rec.created_unix = j->rec.updated_unix = (int64_t)time(NULL);
    if ((rc = hs__batch(b)) < 0 ||
        (rc = hs__fatal(b, hs_store_job_create(b->store, &j->rec, &b->err))) < 0 ||
        (rc = s_job_add(b, j, err)) < 0) {
        free(j);
        return hs_error_set(err, rc, "cannot create the job");
    }
    j->rate_ms = b->now;
    j->last_lease = b->now;
    j->last_input = b->now;
    char by[96] = "", name[80];
    if (b->cfg->curve)
        snprintf(by, sizeof by, " by %s", hs__key_name(b, j->rec.owner, name, sizeof name));
    HS__EVENT(b, "job %llu created%s (engines %s, moves %s)", (unsigned long long)j->rec.id, by,
              j->rec.engines, spec);   /* not the journal's form: it holds the token */
    *out = j;
    return 0;
}

/* Positions per task for job j: the configured chunk, capped so that a RESULT
 * (positions x engines evals) stays within the wire limit. */
static int s_chunk_size(const hs__broker_t *b, const hs__bjob_t *j)
{
    int c = b->cfg->chunk > 0 ? b->cfg->chunk : HS_BROKER_DEFAULT_CHUNK;
    int cap = HS_WIRE_MAX_EVALS / (j->num_engines > 0 ? j->num_engines : 1);
    return c < cap ? c : cap;
}

/* Creates the QUEUED task(s) of a game already in the store: one per chunk of
 * consecutive positions, with consecutive ids, each running the engines of mask
 * (hs_store_task_t.engines: 0 = all of j's). */
static int s_task_create(hs__broker_t *b, hs__bjob_t *j, const uint64_t gid[2], int num_moves,
                         uint32_t mask)
{
    int step = j->step;
    bool last_only = j->last_only;
    hs_store_task_t whole = { .job_id = j->rec.id, .game_id = { gid[0], gid[1] },
                              .state = HS_TASK_QUEUED, .move_first = last_only ? num_moves : 0,
                              .move_last = num_moves, .move_step = step, .engines = mask };
    /* Chunks are cut for all of j's engines, whatever the mask: a game's chunks
     * are the same in every job of a moves spec, and a RESULT stays in bounds. */
    int n = hs_store_task_positions(&whole), per = s_chunk_size(b, j);
    int chunks = n > per ? (n + per - 1) / per : 1;
    hs__bgame_t *game = NULL;
    if (chunks > 1 && !(game = calloc(1, sizeof *game)))
        return HS_ENOMEM;
    int rc = hs__batch(b);
    uint64_t first_id = 0;
    for (int k = 0; k < chunks && rc == 0; k++) {
        hs__btask_t *t = calloc(1, sizeof *t);
        if (!t) {
            rc = HS_ENOMEM;
            break;
        }
        t->rec = whole;
        t->rec.move_first = whole.move_first + k * per * step;
        if (k < chunks - 1)
            t->rec.move_last = whole.move_first + ((k + 1) * per - 1) * step;
        t->rec.chunk = k;
        t->rec.chunks = chunks;
        t->jstate = HS_TASK_QUEUED;
        if ((rc = hs__fatal(b, hs_store_task_create(b->store, &t->rec, &b->err))) < 0 ||
            (rc = hs__task_add(b, t)) < 0) {
            free(t);
            break;
        }
        /* Siblings are found by id: ids are allocated last + 1 in the batch, and
         * nothing else creates tasks in between. */
        if (k == 0)
            first_id = t->rec.id;
        if (t->rec.id != first_id + (uint64_t)k) {
            rc = hs_error_set(&b->err, HS_ESTORE, "task ids of a game are not consecutive");
            hs__fatal(b, rc);
        }
        t->job = j;
        if (game) {
            t->game = game;
            game->left++;
        }
        hs__task_enqueue(j, t);
        b->pending++;
    }
    if (game && game->left == 0)
        free(game);
    if (rc < 0)
        return rc;   /* a store error: the broker stops, the batch is dropped */
    j->rec.games_total++;
    j->rec.positions_total += n;
    j->dirty = true;
    b->games_added++;
    b->tasks_added += chunks;
    return 0;
}

/* The engines of j that a game an earlier job stored still needs, into *need
 * (bit k: j's k-th engine): those some position asked for has no eval of yet.
 * The others are not run again: a store keeps the first eval of a position and
 * engine spec, so a second one would change nothing. When none is needed the
 * game is done at once, with no task: 1. Else 0 (*need not 0), or a store
 * error (the broker stops). */
static int s_game_needs(hs__broker_t *b, hs__bjob_t *j, const uint64_t gid[2], int num_moves,
                        uint32_t *need)
{
    hs_store_task_t whole = { .game_id = { gid[0], gid[1] },
                              .move_first = j->last_only ? num_moves : 0,
                              .move_last = num_moves, .move_step = j->step };
    uint32_t covered = 0;
    int rc = hs__fatal(b, hs_store_task_covered_engines(b->store, &whole, j->engine_ids,
                                                        j->num_engines, &covered, &b->err));
    *need = hs__job_engines_all(j) & ~covered;
    if (rc < 0 || *need)
        return rc;
    int n = hs_store_task_positions(&whole);
    j->rec.games_total++;
    j->rec.games_done++;
    j->rec.positions_total += n;
    j->rec.positions_done += n;
    j->dirty = true;
    b->games_added++;
    return 1;
}

int hs__job_add_game(hs__broker_t *b, hs__bjob_t *j, const hs_wire_game_t *g, bool *accepted)
{
    bool existed = false;
    uint32_t need = hs__job_engines_all(j);   /* the engines its tasks run */
    int rc = hs__batch(b);
    *accepted = false;
    if (rc < 0)
        return rc;
    if (g->error) {
        char src[64];
        const char *source = g->source;
        if (!source) {
            snprintf(src, sizeof src, "(job %llu, unnamed game)", (unsigned long long)j->rec.id);
            source = src;
        }
        rc = hs__fatal(b, hs_store_game_failed(b->store, source, g->error, j->rec.id, &existed,
                                             &b->err));
        if (rc < 0)
            return rc;
        if (!existed) {
            j->rec.games_total++;
            j->rec.games_failed++;
            j->dirty = true;
        }
        *accepted = true;
        return 0;
    }
    /* The id is the broker's own, from the game's content, whatever the client
     * said: a client's id could name another job's game, whose record (kept,
     * never overwritten) would then be evaluated against this game's moves and
     * fail, or this game take the other's place. */
    hs_game_t copy = g->game;
    hs_game_compute_id(&copy);
    rc = hs__fatal(b, hs_store_game_put(b->store, &copy, g->source, j->rec.id, &existed, &b->err));
    /* The record names the job that stored the game first; a report of this job
     * finds it through the job's own list, which also tells a batch the client
     * sent again (a retry after a broker restart) from a game new to the job. */
    bool listed = false;
    if (rc == 0)
        rc = hs__fatal(b, hs_store_job_game_add(b->store, j->rec.id, copy.id, &listed, &b->err));
    if (rc < 0)
        return rc;
    if (listed) {
        *accepted = true;
        return 0;
    }
    if (existed) {
        /* A game seen in an earlier job: only a game first stored by another job
         * gets a new task (a job begun before job lists existed has its own
         * games not listed: the record's job tells those). */
        uint64_t old_job = 0;
        hs_error_t e2 = { 0 };
        /* The job id is in the record's header: the game is not decoded. */
        hs_store_game_get(b->store, copy.id, NULL, NULL, &old_job, &e2);
        if (old_job == j->rec.id) {
            *accepted = true;
            return 0;
        }
        if ((rc = s_game_needs(b, j, copy.id, copy.num_moves, &need)) != 0) {
            *accepted = rc > 0;
            return rc > 0 ? 0 : rc;
        }
    }
    /* 0 in the record is every engine: what a game new to the store needs. */
    rc = s_task_create(b, j, copy.id, copy.num_moves,
                       need == hs__job_engines_all(j) ? 0 : need);
    *accepted = rc == 0;
    return rc;
}

int hs__job_cancel(hs__broker_t *b, hs__bjob_t *j, const hs__peer_t *p)
{
    if (j->rec.state != HS_JOB_RUNNING)
        return 0;
    /* Every queued or leased task of the job goes to CANCELED. */
    for (size_t i = 0; i < b->num_buckets; i++)
        for (hs__btask_t *t = b->buckets[i], *nx; t; t = nx) {
            nx = t->hnext;
            if (t->job != j)
                continue;
            hs__task_detach(b, t);
            t->rec.state = HS_TASK_CANCELED;
            int rc = hs__task_put(b, t);
            hs__task_remove(b, t);
            if (rc < 0)
                return rc;
        }
    /* The owner reads the reason: an admin's cancel is not its own doing. A
     * plaintext broker cannot tell clients apart (one anonymous admin). */
    bool owner = !strcmp(j->rec.owner, p->key);
    j->rec.state = HS_JOB_CANCELED;
    snprintf(j->rec.reason, sizeof j->rec.reason, "canceled by %s", !b->cfg->curve ? "a client"
             : owner ? "its owner" : p->admin ? "an admin" : "a client");
    j->dirty = true;
    char of[96], name[80];
    HS__EVENT(b, "job %llu%s canceled by %s%s", (unsigned long long)j->rec.id,
              s_of(b, j, of, sizeof of), b->cfg->curve ? hs__key_name(b, p->key, name, sizeof name)
                                                       : "a client",
              b->cfg->curve && !owner && p->admin ? " (an admin key)" : "");
    return 0;
}

void hs__job_check_done(hs__broker_t *b, hs__bjob_t *j)
{
    if (j->rec.state == HS_JOB_RUNNING && j->rec.input_complete && j->queued == 0 &&
        j->leased == 0) {
        j->rec.state = hs__job_abandoned(j) ? HS_JOB_FAILED : HS_JOB_DONE;
        j->dirty = true;
        char of[96];
        HS__EVENT(b, "job %llu%s %s: %lld games, %lld failed, %lld positions",
                  (unsigned long long)j->rec.id, s_of(b, j, of, sizeof of),
                  hs_job_state_name(j->rec.state), (long long)j->rec.games_total,
                  (long long)j->rec.games_failed, (long long)j->rec.positions_done);
    }
}

/* Journals j if it changed. 0 or the store's error (made fatal). */
static int s_job_flush(hs__broker_t *b, hs__bjob_t *j)
{
    if (!j->dirty)
        return 0;
    int rc = hs__batch(b);
    j->rec.updated_unix = (int64_t)time(NULL);
    if (rc < 0 || (rc = hs__fatal(b, hs_store_job_put(b->store, &j->rec, &b->err))) < 0)
        return rc;
    j->dirty = false;
    return 0;
}

int hs__jobs_flush(hs__broker_t *b)
{
    /* Every job in memory is in one of the two: the others are journaled. */
    int rc = 0;
    for (int i = 0; i < b->num_run && rc == 0; i++)
        rc = s_job_flush(b, b->run[i]);
    for (hs__bjob_t *j = b->ended; j && rc == 0; j = j->ended_next)
        rc = s_job_flush(b, j);
    return rc;
}

/* ------------------------------------------------------------ restart */

typedef struct {
    hs_store_task_t *v;
    size_t n, cap;
} s_tasklist_t;

static int s_collect(void *ctx, const hs_store_task_t *t)
{
    s_tasklist_t *l = ctx;
    if (l->n == l->cap) {
        size_t n = l->cap ? l->cap * 2 : 256;
        hs_store_task_t *nv = realloc(l->v, sizeof *nv * n);
        if (!nv)
            return HS_ENOMEM;
        l->v = nv;
        l->cap = n;
    }
    l->v[l->n++] = *t;
    return 0;
}

static int s_cmp_task_id(const void *a, const void *b)
{
    uint64_t x = ((const hs_store_task_t *)a)->id, y = ((const hs_store_task_t *)b)->id;
    return x < y ? -1 : x > y;
}

typedef struct {
    hs__broker_t *b;
    hs_error_t *err;
} s_load_t;

/* One job of the journal at the load: indexed, and in memory if it runs. */
static int s_load_job(void *ctx, const hs_store_job_t *rec)
{
    s_load_t *l = ctx;
    hs__broker_t *b = l->b;
    if (rec->state != HS_JOB_RUNNING)
        return hs__job_index(b, rec, NULL, l->err);   /* read from the store when asked */
    hs__bjob_t *j = calloc(1, sizeof *j);
    if (!j)
        return hs_error_set(l->err, HS_ENOMEM, "out of memory");
    j->rec = *rec;
    hs__job_text_repair(&j->rec);
    j->rate_ms = b->now;
    j->last_lease = b->now;
    j->last_input = b->now;   /* the upload lease starts again */
    j->rate_done = j->rec.positions_done;
    hs_error_t why = { 0 };
    if (s_job_derive(j, &why) < 0) {
        j->rec.state = HS_JOB_FAILED;
        snprintf(j->rec.reason, sizeof j->rec.reason, "bad engine list in the journal");
        j->dirty = true;
    }
    int rc = s_job_add(b, j, l->err);
    if (rc < 0)
        free(j);
    return rc;
}

int hs__broker_load(hs__broker_t *b, hs_error_t *err)
{
    /* One record at a time: the journal holds every job the broker ever ran. */
    s_load_t ld = { b, err };
    int rc = hs_store_job_each(b->store, s_load_job, &ld, err);
    if (rc < 0)
        return rc;
    /* Queued and leased tasks come back as queued, in id order. */
    s_tasklist_t l = { 0 };
    if ((rc = hs_store_task_each(b->store, HS_TASK_QUEUED, s_collect, &l, err)) < 0 ||
        (rc = hs_store_task_each(b->store, HS_TASK_LEASED, s_collect, &l, err)) < 0) {
        free(l.v);
        return rc;
    }
    /* Id order: the queue keeps its order, and the chunks of a game come together. */
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, s_cmp_task_id);
    int requeued = 0;
    hs__btask_t *prev = NULL;
    for (size_t i = 0; i < l.n; i++) {
        hs__bjob_t *j = hs__job_find(b, l.v[i].job_id);
        if (!j || j->rec.state != HS_JOB_RUNNING)
            continue;
        hs__btask_t *t = calloc(1, sizeof *t);
        if (!t) {
            rc = hs_error_set(err, HS_ENOMEM, "out of memory");
            break;
        }
        t->rec = l.v[i];
        t->jstate = t->rec.state;
        t->job = j;
        if ((rc = hs__task_add(b, t)) < 0) {
            free(t);
            break;
        }
        /* Unfinished chunks of one game (same job, same first id) share one
         * counter again: the game is done when the last of them is. */
        if (t->rec.chunks > 1) {
            if (prev && prev->game && prev->job == j &&
                prev->rec.id - (uint64_t)prev->rec.chunk == t->rec.id - (uint64_t)t->rec.chunk) {
                t->game = prev->game;
            } else if (!(t->game = calloc(1, sizeof *t->game))) {
                rc = hs_error_set(err, HS_ENOMEM, "out of memory");
                break;
            }
            t->game->left++;
        }
        prev = t;
        if (t->rec.state == HS_TASK_LEASED) {
            t->rec.state = HS_TASK_QUEUED;
            if ((rc = hs__task_put(b, t)) < 0)
                break;
            requeued++;
        }
        hs__task_enqueue(j, t);
        b->pending++;
    }
    free(l.v);
    for (int i = 0; i < b->num_run; i++)
        hs__job_check_done(b, b->run[i]);
    /* Leases are not journaled (hs__task_lease), so only a journal an older
     * broker wrote names tasks that were leased when it stopped. */
    if (b->num_jobs && requeued)
        HS__EVENT(b, "journal: %d jobs, %lld tasks pending (%d were leased); %d running, "
                  "in memory", b->num_jobs, (long long)b->pending, requeued, b->num_run);
    else if (b->num_jobs)
        HS__EVENT(b, "journal: %d jobs, %lld tasks pending (those leased when the broker "
                  "stopped among them); %d running, in memory", b->num_jobs,
                  (long long)b->pending, b->num_run);
    return rc;
}
