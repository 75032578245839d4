/*
 * broker/broker_limits.c — limits per client key (docs/SECURITY.md, "Limits"):
 * running jobs, unfinished games and SUBMIT bytes a minute, and the SUBMIT
 * credit that keeps a polite client inside them.
 *
 * The credit of a SUBMIT_REPLY is a grant: the job's next SUBMIT may add that
 * many new games (duplicates are free), and the games past it are refused with
 * HS_ELIMIT. A grant is min(the queue's credit, the owner's room), where the
 * room is limit_games less the owner's unfinished games and less what its other
 * uploading jobs were granted and have not sent yet, so two jobs of one key
 * cannot both spend the same room. A job's first SUBMIT has no grant yet: it
 * may add one game (what hs_submitter sends before it knows its credit), or as
 * many as a grant would be now (after a broker restart, as its room allows). A
 * SUBMIT of job id 0 that rejoins a job by its token is a first SUBMIT again
 * (its client holds no grant), within the key's room. Only unfinished games
 * spend a grant: duplicates and failed games are free. Jobs and games are
 * counted from the jobs themselves (no counter to drift); only the upload
 * windows are kept here.
 */
#include "broker/broker_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_WINDOW_MS 60000

/* A client key's upload: a fixed one-minute window, and what it has sent with
 * games in since the start (the mean bytes of a game, for credit by bytes). */
typedef struct hs__bclient {
    char key[HS_CURVE_KEY_LEN + 1];
    int64_t window_ms;              /* start of the current minute */
    int64_t window_bytes;           /* SUBMIT bytes in it */
    int64_t sent_bytes, sent_games; /* SUBMITs that carried games */
} hs__bclient_t;

/* The entry of key (made when create), or NULL (absent, or no memory). The
 * table holds one entry per key that ever submitted: keys that passed the ZAP
 * handler's allow-lists, or the one anonymous client. */
static hs__bclient_t *s_client(hs__broker_t *b, const char *key, bool create)
{
    for (int i = 0; i < b->num_clients; i++)
        if (!strcmp(b->clients[i].key, key))
            return &b->clients[i];
    if (!create)
        return NULL;
    if (b->num_clients == b->cap_clients) {
        int n = b->cap_clients ? b->cap_clients * 2 : 8;
        hs__bclient_t *nv = realloc(b->clients, sizeof *nv * (size_t)n);
        if (!nv)
            return NULL;
        b->clients = nv;
        b->cap_clients = n;
    }
    hs__bclient_t *c = &b->clients[b->num_clients++];
    memset(c, 0, sizeof *c);
    snprintf(c->key, sizeof c->key, "%s", key);
    c->window_ms = b->now;
    return c;
}

static void s_window(const hs__broker_t *b, hs__bclient_t *c)
{
    if (b->now - c->window_ms >= S_WINDOW_MS) {
        c->window_ms = b->now;
        c->window_bytes = 0;
    }
}

/* How a key is named in a refusal: its first characters (enough to tell keys
 * apart in a log, not the whole key again). */
static const char *s_who(const hs__peer_t *p, char buf[16])
{
    if (!p->key[0])
        return "the anonymous client";
    snprintf(buf, 16, "key %.8s...", p->key);
    return buf;
}

int hs__limit_upload(hs__broker_t *b, const hs__peer_t *p, size_t bytes, int games, char *why,
                     size_t size)
{
    hs__bclient_t *c = s_client(b, p->key, true);
    if (!c) {
        snprintf(why, size, "out of memory");
        return HS_ENOMEM;
    }
    s_window(b, c);
    int64_t before = c->window_bytes;
    c->window_bytes += (int64_t)bytes;
    /* An empty SUBMIT (a client asking for credit) is never refused: it is how a
     * polite client waits for the window to pass. */
    if (games > 0 && before + (int64_t)bytes > b->limit_upload) {
        char w[16];
        snprintf(why, size, "upload limit: %s sent %lld bytes this minute and this SUBMIT "
                 "of %zu would pass its %lld (--limit-upload); nothing of it was stored",
                 s_who(p, w), (long long)before, bytes, (long long)b->limit_upload);
        return HS_ELIMIT;
    }
    if (games > 0) {
        c->sent_bytes += (int64_t)bytes;
        c->sent_games += games;
    }
    return 0;
}

int hs__limit_jobs(hs__broker_t *b, const hs__peer_t *p, char *why, size_t size)
{
    int running = 0;
    for (int i = 0; i < b->num_run; i++)   /* every running job is there */
        running += b->run[i]->rec.state == HS_JOB_RUNNING && !strcmp(b->run[i]->rec.owner, p->key);
    if (running < b->limit_jobs)
        return 0;
    char w[16];
    snprintf(why, size, "job limit: %s has %d running jobs, its limit (--limit-jobs); "
             "wait for one to end, or cancel one", s_who(p, w), running);
    return HS_ELIMIT;
}

/* Games owner's running jobs hold unfinished, plus what its other jobs still
 * uploading were granted (except: the job asking, whose grant is being spent). */
static int64_t s_owner_load(const hs__broker_t *b, const char *owner, const hs__bjob_t *except)
{
    int64_t load = 0;
    for (int i = 0; i < b->num_run; i++) {
        const hs__bjob_t *j = b->run[i];
        if (j->rec.state != HS_JOB_RUNNING || strcmp(j->rec.owner, owner))
            continue;
        load += j->rec.games_total - j->rec.games_done - j->rec.games_failed;
        if (j != except && j->granted_known && !j->rec.input_complete)
            load += j->granted;
    }
    return load;
}

static int64_t s_room(const hs__broker_t *b, const hs__bjob_t *j)
{
    int64_t room = b->limit_games - s_owner_load(b, j->rec.owner, j);
    return room < 0 ? 0 : room;
}

int hs__limit_allowance(hs__broker_t *b, const hs__bjob_t *j, int global, bool first)
{
    if (j->granted_known && !first)
        return j->granted;
    int64_t room = s_room(b, j), a;
    if (j->rec.games_total == 0) {
        /* A new job: one game (what hs_submitter sends before it knows its
         * credit), or as many as a credit would be now. */
        a = global < room ? global : room;
        if (a < 1)
            a = 1;
    } else if (first) {
        /* Job id 0 whose token found j: a client resuming the job (a new
         * process, or the retry of a first SUBMIT whose reply was lost). It
         * holds no grant of ours, whatever j's last one was (0 while the queue
         * was full), so it is a first SUBMIT: one game even when the queue is
         * full, as many as a credit would be now, but never past the key's
         * room, or rejoining again and again would add a game each time. */
        a = global > 1 ? global : 1;
        if (room < a)
            a = room;
    } else {
        /* A job loaded after a restart, whose client may still hold a credit
         * the broker gave before it: that one batch is bounded by the key's room
         * only, so it is not refused. */
        a = room < 1 ? 1 : room;
    }
    return a > HS_WIRE_MAX_GAMES ? HS_WIRE_MAX_GAMES : (int)a;
}

/* Whether game g cannot add an unfinished game to j: a failed game (recorded
 * finished), or a game j holds already (a duplicate, skipped; the job's list
 * of games, store.h). A game only another job holds may need tasks of j's
 * engines, so it counts as new. */
static bool s_free_game(hs__broker_t *b, const hs__bjob_t *j, const hs_wire_game_t *g)
{
    if (g->error)
        return true;
    hs_game_t copy = g->game;   /* the broker's id, as hs__job_add_game computes it */
    hs_game_compute_id(&copy);
    bool has = false;
    hs_error_t e = { 0 };
    return hs_store_job_has_game(b->store, j->rec.id, copy.id, &has, &e) == 0 && has;
}

static int64_t s_unfinished(const hs__bjob_t *j)
{
    return j->rec.games_total - j->rec.games_done - j->rec.games_failed;
}

int hs__limit_add_games(hs__broker_t *b, hs__bjob_t *j, const hs_wire_submit_t *s,
                        int allowance, bool *cut)
{
    int accepted = 0, added = 0;
    *cut = false;
    for (int i = 0; i < s->num_games; i++) {
        /* The grant bounds unfinished games (what --limit-games and the queue
         * count): a duplicate or a failed game costs none, so a resent batch is
         * free even once the grant is spent (its reply lost, the queue full). */
        if (added >= allowance && !s_free_game(b, j, &s->games[i])) {
            *cut = true;
            break;
        }
        int64_t before = s_unfinished(j);
        bool ok = false;
        if (hs__job_add_game(b, j, &s->games[i], &ok) < 0)
            break;
        accepted += ok;
        added += s_unfinished(j) > before;
    }
    return accepted;
}

void hs__limit_why(hs__broker_t *b, const hs__bjob_t *j, const hs__peer_t *p, int allowance,
                   char *why, size_t size)
{
    char w[16];
    snprintf(why, size, "game limit: job %llu was granted %d more games (the SUBMIT credit, "
             "bounded by the broker's --queue-max and %s's --limit-games of %d unfinished "
             "games) and this SUBMIT carried more; the games past them were not stored",
             (unsigned long long)j->rec.id, allowance, s_who(p, w), b->limit_games);
}

int hs__limit_credit(hs__broker_t *b, hs__bjob_t *j, const hs__peer_t *p, int global)
{
    int64_t room = s_room(b, j), c = global < room ? global : room;
    hs__bclient_t *cl = s_client(b, p->key, false);
    if (cl && cl->sent_games > 0) {
        /* Credit by bytes: half the minute's room over the key's mean game size, so
         * a batch of games up to twice the mean still fits (the room halves
         * batch by batch and is never passed by a polite client). */
        s_window(b, cl);
        int64_t mean = cl->sent_bytes / cl->sent_games, left = b->limit_upload - cl->window_bytes;
        int64_t by_bytes = left <= 0 ? 0 : left / (2 * (mean > 0 ? mean : 1));
        if (by_bytes < c)
            c = by_bytes;
    }
    if (c < 0)
        c = 0;
    j->granted = (int)c;
    j->granted_known = true;
    return (int)c;
}

void hs__limits_free(hs__broker_t *b)
{
    free(b->clients);
    b->clients = NULL;
    b->num_clients = b->cap_clients = 0;
}
