/*
 * cli/cmd_submit.c — `hyeongse submit ARCHIVE --broker ADDR`: stream an archive's
 * games into a new job, optionally wait for it with a live progress bar. Also
 * holds the helpers of cli/cluster.h that `analyze` and `status` share.
 * `--engines net --net FILE` sends the spec net:net=<the file's hash>: the net is
 * loaded here only to refuse a broken file before any game is sent.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cluster.h"
#include "keys.h"
#include "worker/engine.h"
#include "worker/net_specs.h"
#include "core/clock.h"
#include "core/json.h"

const char hs_cmd_submit_summary[] = "submit an archive to a broker as an analysis job";

const char *hs__cli_default_engines(void)
{
    return hs_engine_find("influence") && hs_engine_find("judge") ? "influence,judge" : "area";
}

const char *hs__cli_broker_addr(const char *opt)
{
    if (opt)
        return opt;
    const char *env = getenv("HS_BROKER");
    return env && *env ? env : HS_CLI_DEFAULT_BROKER;
}

/* ------------------------------------------------------------ submitting */

/* The signal (SIGINT, SIGTERM) that asked the upload to stop, 0 while none
 * did: all a handler may do is set such a flag. The upload then stops between
 * games or between its waits for credit, and says which job and token resume
 * it, which a process killed by the signal could not say. */
static volatile sig_atomic_t s_signal;

static void s_on_signal(int sig)
{
    s_signal = sig;
}

static bool s_stop_asked(void *ctx)
{
    (void)ctx;
    return s_signal != 0;
}

typedef struct s_feed {
    hs_submitter_t *sub;
    hs_error_t err;
    int rc;
    bool told_wait;             /* the wait for credit was said once */
} s_feed_t;

/* The broker has no credit for us: said once, so that a log (stderr not a
 * terminal, no progress) shows why the upload stands still; the later waits of
 * the same upload are the same story. */
static void s_on_wait(void *ctx, uint64_t job, int64_t sent)
{
    s_feed_t *f = ctx;
    if (f->told_wait)
        return;
    f->told_wait = true;
    fprintf(stderr, "hyeongse submit: job %" PRIu64 ": the broker gives no credit now (its "
            "queue is full, or this key's limits are reached) after %" PRId64 " games sent; "
            "waiting for room, asking every 0.1 s\n", job, sent);
}

static int s_on_game(void *ctx, const char *source, int index, hs_game_t *game)
{
    s_feed_t *f = ctx;
    if (s_signal) {
        f->rc = hs_error_set(&f->err, HS_ECANCELED, "stopped by a signal");
        return 1;
    }
    char src[4200];
    if (index > 0)   /* "#K": game K of a collection, 1 the first, as users count */
        snprintf(src, sizeof src, "%s#%d", source, index + 1);
    else
        snprintf(src, sizeof src, "%s", source);
    f->rc = hs_submitter_add_game(f->sub, game, src, &f->err);
    return f->rc < 0;
}

/* hs__cli_submit_paths with a job token: token NULL = a random one; the token
 * used is copied to token_out (HS_WIRE_MAX_TOKEN + 1 bytes) when not NULL.
 * tell_wait: say on stderr when the upload first waits for credit (`submit`;
 * not `analyze`, whose own broker's queue fills by design). */
static int s_submit_paths(hs_client_t *c, const char *const *paths, int npaths,
                          const char *engines, const char *moves, const char *name,
                          int ingest_threads, bool follow, const char *token, char *token_out,
                          bool tell_wait, uint64_t *job, hs_ingest_report_t *rep, bool progress,
                          hs_error_t *err)
{
    s_feed_t f = { 0 };
    memset(rep, 0, sizeof *rep);
    int rc = hs_submitter_new(&f.sub, c, name, engines, moves, err);
    if (rc < 0)
        return rc;
    if (token && (rc = hs_submitter_set_token(f.sub, token, err)) < 0) {
        hs_submitter_destroy(&f.sub);
        return rc;
    }
    if (token_out)
        snprintf(token_out, HS_WIRE_MAX_TOKEN + 1, "%s", hs_submitter_token(f.sub));
    if (tell_wait) {   /* `submit`, whose signals s_run catches */
        hs_submitter_set_wait_hook(f.sub, s_on_wait, &f);
        hs_submitter_set_stop_hook(f.sub, s_stop_asked, NULL);
    }
    hs_ingest_options_t o;
    hs_ingest_options_init(&o);
    o.threads = ingest_threads;
    o.follow_symlinks = follow;
    o.on_game = s_on_game;
    o.ctx = &f;
    o.progress = progress ? stderr : NULL;
    rc = hs_ingest_run(paths, npaths, &o, rep, err);
    if (rc == HS_ECANCELED && f.rc < 0) {
        rc = f.rc;
        if (err)
            *err = f.err;
    }
    /* Games that could not be read are recorded in the job as failed, with why. */
    for (size_t i = 0; rc == 0 && i < rep->num_failures; i++) {
        const hs_ingest_failure_t *x = &rep->failures[i];
        char src[4200], why[4200];
        if (x->game >= 0)
            snprintf(src, sizeof src, "%s#%d", x->source ? x->source : "?", x->game + 1);
        else
            snprintf(src, sizeof src, "%s", x->source ? x->source : "?");
        snprintf(why, sizeof why, "%s: %s", hs_ingest_reason_name(x->reason),
                 x->message ? x->message : "");
        rc = hs_submitter_add_failure(f.sub, src, why, err);
    }
    if (rc == 0)
        rc = hs_submitter_finish(f.sub, err);
    *job = hs_submitter_job(f.sub);
    hs_submitter_destroy(&f.sub);
    return rc;
}

int hs__cli_submit_paths(hs_client_t *c, const char *const *paths, int npaths,
                         const char *engines, const char *moves, const char *name,
                         int ingest_threads, bool follow_symlinks, const char *token,
                         uint64_t *job, hs_ingest_report_t *rep, bool progress, hs_error_t *err)
{
    return s_submit_paths(c, paths, npaths, engines, moves, name, ingest_threads,
                          follow_symlinks, token, NULL, false, job, rep, progress, err);
}

/* ------------------------------------------------------------- waiting */

static void s_bar(FILE *out, const hs_wire_job_status_t *j, double elapsed, bool tty)
{
    double frac = j->positions_total > 0 ? (double)j->positions_done / (double)j->positions_total : 0;
    if (frac > 1)
        frac = 1;
    char bar[31];
    int fill = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    double rate = elapsed > 0 ? (double)j->positions_done / elapsed : 0;
    char eta[32] = "?";
    if (rate > 0 && j->input_complete) {
        double left = (double)(j->positions_total - j->positions_done) / rate;
        snprintf(eta, sizeof eta, "%.0fs", left < 0 ? 0 : left);
    }
    fprintf(out, "%s[%s] %3.0f%% games %" PRId64 "/%" PRId64 "  %.0f pos/s  ETA %s  failed %" PRId64 "%s",
            tty ? "\r" : "", bar, frac * 100, j->games_done + j->games_failed, j->games_total,
            rate, eta, j->games_failed, tty ? "  " : "\n");
    fflush(out);
}

typedef struct s_wait {
    uint64_t job;
    FILE *bar;
    bool tty;
    double t0, last_line;
    int64_t first_done;
    hs_cli_job_summary_t *sum;
    bool missing;
} s_wait_t;

/* One pushed STATUS_REPLY: the summary, and the bar (every push on a terminal,
 * else a line every 5 s and at the end). */
static int s_wait_update(void *ctx, const hs_wire_status_reply_t *r)
{
    s_wait_t *w = ctx;
    if (r->num_jobs < 1) {
        w->missing = true;
        return 1;
    }
    const hs_wire_job_status_t *j = &r->jobs[0];
    hs_cli_job_summary_t *sum = w->sum;
    snprintf(sum->state, sizeof sum->state, "%s", j->state ? j->state : "?");
    sum->games_total = j->games_total;
    sum->games_done = j->games_done;
    sum->games_failed = j->games_failed;
    sum->positions_total = j->positions_total;
    sum->positions_done = j->positions_done;
    sum->workers = r->workers;
    if (w->first_done < 0)
        w->first_done = j->positions_done;
    double now = hs_clock_now();
    bool running = !strcmp(sum->state, "running");
    if (w->bar && (w->tty || now - w->last_line >= 5 || !running)) {
        hs_wire_job_status_t shown = *j;
        shown.positions_done -= w->first_done;
        shown.positions_total -= w->first_done;
        s_bar(w->bar, &shown, now - w->t0, w->tty);
        w->last_line = now;
    }
    if (!running && w->tty)
        fputc('\n', w->bar);
    return 0;
}

int hs__cli_wait(hs_client_t *c, uint64_t job, FILE *bar, hs_cli_job_summary_t *sum,
                 hs_error_t *err)
{
    /* WATCH: the broker pushes the job's progress (at most every 250 ms, and at
     * once when it ends); the client only heartbeats. */
    s_wait_t w = { .job = job, .bar = bar, .tty = bar && isatty(fileno(bar)),
                   .t0 = hs_clock_now(), .first_done = -1, .sum = sum };
    memset(sum, 0, sizeof *sum);
    int rc = hs_client_watch(c, job, 1000, s_wait_update, &w, err);
    if (rc == 0 && w.missing)
        rc = hs_error_set(err, HS_ENOTFOUND, "job %" PRIu64 " not found", job);
    return rc;
}

/* --------------------------------------------------------------- status */

/* The live workers (STATUS_REPLY's list): JSON, or a line each with the nets
 * (the first 8 hex digits of each hash, enough to tell them apart) and the
 * backend; nothing when the broker sent no list (an older one, a WATCH push). */
static void s_print_workers(FILE *out, const hs_wire_status_reply_t *r, bool json)
{
    if (json && r->num_worker_list > 0)
        fputs(",\"worker_list\":[", out);
    for (int i = 0; i < r->num_worker_list; i++) {
        const hs_wire_worker_info_t *w = &r->worker_list[i];
        if (json) {
            fprintf(out, "%s{\"name\":", i ? "," : "");
            hs_json_string(out, w->name);
            fprintf(out, ",\"tasks\":%d,\"nets\":[", w->tasks);
            for (int k = 0; k < w->num_nets; k++)
                fprintf(out, "%s\"%s\"", k ? "," : "", w->nets[k]);   /* hex: no escaping */
            fprintf(out, "],\"backend\":");
            if (w->backend)
                hs_json_string(out, w->backend);
            else
                fputs("null", out);
            fputc('}', out);
            continue;
        }
        fprintf(out, "  %-24s %6d tasks", w->name ? w->name : "?", w->tasks);
        for (int k = 0; k < w->num_nets; k++)
            fprintf(out, "%s%.8s", k ? "," : "  nets ", w->nets[k]);
        if (w->backend)
            fprintf(out, " on %s", w->backend);
        fputc('\n', out);
    }
    if (json && r->num_worker_list > 0)
        fputc(']', out);
}

bool hs__cli_nothing_analysed(const char *state, int64_t games_total, int64_t games_failed)
{
    return state && !strcmp(state, "done") && games_total > 0 && games_failed >= games_total;
}

void hs__cli_nothing_reason(char *buf, size_t size, int64_t games_total, uint64_t job,
                            const char *query)
{
    if (games_total == 1)
        snprintf(buf, size, "nothing analysed: its one game failed (`%s` says why, in the rows "
                 "of job %" PRIu64 ")", query, job);
    else
        snprintf(buf, size, "nothing analysed: all %" PRId64 " games failed (`%s` says why, in "
                 "the rows of job %" PRIu64 ")", games_total, query, job);
}

/* The reason shown for job j: the broker's, or, for a job that ended "done"
 * with every game failed, that nothing was analysed. Its state stays "done" (a
 * job is done once every game has ended, well or not), but "done 1 0 1" read
 * as if it had worked. Into buf (size bytes); NULL when there is none. */
static const char *s_reason(const hs_wire_job_status_t *j, char *buf, size_t size)
{
    if (j->reason)
        return j->reason;
    if (!hs__cli_nothing_analysed(j->state, j->games_total, j->games_failed))
        return NULL;
    hs__cli_nothing_reason(buf, size, j->games_total, j->id, "hyeongse query failed");
    return buf;
}

void hs__cli_print_status(FILE *out, const hs_wire_status_reply_t *r, bool json)
{
    char why[256];
    if (json) {
        fprintf(out, "{\"workers\":%d,\"jobs\":[", r->workers);
        for (int i = 0; i < r->num_jobs; i++) {
            const hs_wire_job_status_t *j = &r->jobs[i];
            fprintf(out, "%s{\"id\":%" PRIu64 ",\"name\":", i ? "," : "", j->id);
            hs_json_string(out, j->name);
            fprintf(out, ",\"state\":");
            hs_json_string(out, j->state);
            fprintf(out, ",\"games_total\":%" PRId64 ",\"games_done\":%" PRId64
                         ",\"games_failed\":%" PRId64 ",\"positions_total\":%" PRId64
                         ",\"positions_done\":%" PRId64 ",\"rate\":%.1f,\"input_complete\":%s",
                    j->games_total, j->games_done, j->games_failed, j->positions_total,
                    j->positions_done, isfinite(j->rate) ? j->rate : 0.0,
                    j->input_complete ? "true" : "false");
            const char *reason = s_reason(j, why, sizeof why);
            if (reason) {
                fprintf(out, ",\"reason\":");
                hs_json_string(out, reason);
            }
            fputc('}', out);
        }
        fputc(']', out);
        if (r->total >= 0)   /* an older broker does not say */
            fprintf(out, ",\"total\":%" PRId64 ",\"more\":%s", r->total,
                    r->more ? "true" : "false");
        s_print_workers(out, r, true);
        fprintf(out, "}\n");
        return;
    }
    fprintf(out, "workers: %d\n", r->workers);
    s_print_workers(out, r, false);
    fprintf(out, "%6s  %-9s %9s %9s %7s %11s %11s %9s  %s\n", "job", "state", "games", "done",
            "failed", "positions", "pos done", "pos/s", "name");
    for (int i = 0; i < r->num_jobs; i++) {
        const hs_wire_job_status_t *j = &r->jobs[i];
        fprintf(out, "%6" PRIu64 "  %-9s %9" PRId64 " %9" PRId64 " %7" PRId64 " %11" PRId64
                     " %11" PRId64 " %9.0f  ",
                j->id, j->state ? j->state : "?", j->games_total, j->games_done, j->games_failed,
                j->positions_total, j->positions_done, isfinite(j->rate) ? j->rate : 0.0);
        /* A name and a reason are a client's text (another client's, on an
         * admin's terminal): no control character reaches the screen. */
        hs_term_string(out, j->name);
        /* An upload still open; a job that ended takes no more games. */
        bool receiving = !j->input_complete && j->state && !strcmp(j->state, "running");
        fputs(receiving ? " (receiving)\n" : "\n", out);
        const char *reason = s_reason(j, why, sizeof why);
        if (reason) {
            fprintf(out, "%6s  reason: ", "");
            hs_term_string(out, reason);
            fputc('\n', out);
        }
    }
}

/* -------------------------------------------------------------- command */

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse submit ARCHIVE... [--broker ADDR] [--engines LIST]\n"
            "                       [--moves all|every:N|last] [--name NAME] [--token TOKEN]\n"
            "                       [--net FILE]... [--wait] [--key FILE --server-key K]\n\n"
            "Reads the archives (.sgf, folders, .tar.gz, .zip), sends every game to the\n"
            "broker as one job and prints the job id and token. Broken games are sent too and\n"
            "recorded as failed with the reason. While the broker gives no credit (its queue\n"
            "is full) the upload waits, and says so once on stderr.\n\n"
            "  --broker ADDR   broker address (default $HS_BROKER or %s)\n"
            "  --engines LIST  comma-separated engines (default %s)\n"
            "  --net FILE      the net of the net engines (KataGo's .bin.gz or our own .hsn):\n"
            "                  --engines net becomes net:net=<its hash> (one spec per --net,\n"
            "                  up to %d); a spec already net:net=<hash> needs no --net; a\n"
            "                  spec's net=FILE (mcts:visits=200,net=FILE) is loaded the same\n"
            "                  way. Without --net, --engines net names the default model\n"
            "                  " HS_NN_DEFAULT_MODEL " ($HYEONGSE_MODELS if set, else the\n"
            "                  source tree's models/, else the installed share/hyeongse/models)\n"
            "  --moves SPEC    positions to evaluate: all (default), every:N, last\n"
            "  --name NAME     job name (default: the first archive's name, \"(+N)\" when\n"
            "                  more follow)\n"
            "  --threads N     ingest threads (default: one per CPU)\n"
            "  --token TOKEN   the job token (1..40 characters, no ';'; default: 32 random\n"
            "                  hex digits, printed with the job id). Submitting the same\n"
            "                  archive again with the same token resumes or joins that job,\n"
            "                  also after a broker restart: the games it holds are skipped\n"
            "                  as duplicates. Only while the job still takes input: within\n"
            "                  the broker's upload lease (10 minutes without a SUBMIT).\n"
            "                  Ctrl-C or SIGTERM stops an upload and prints its job and\n"
            "                  token (exit 130 / 143)\n"
            "  --wait          wait for the job with a progress bar; exit 1 unless it is\n"
            "                  done, 3 when it is done but every game failed (nothing\n"
            "                  analysed: `hyeongse query --db DIR failed` on the broker's\n"
            "                  store DIR says why)\n"
            HS_CLI_KEY_HELP
            "  --config FILE     options from a file (\"option value\" lines)\n"
            "  --follow-symlinks  follow symbolic links inside folders that lead outside\n"
            "                  them (default: not followed, reported as \"link\" failures)\n",
            HS_CLI_DEFAULT_BROKER, hs__cli_default_engines(), HS_NET_MAX);
}

/* --net: loads each net (a broken or missing file is refused here, before a game
 * is read) and writes engines with its net engines' specs naming them into out.
 * 0, or the exit status. */
static int s_net_engines(const char *engines, const char *const *paths, int n, char *out,
                         size_t size)
{
    hs_net_set_t nets = { 0 };
    hs_error_t err = { 0 };
    bool used = false;
    int status = 0;
    char files[1024];   /* a spec's net=FILE loaded too: its hash goes in the spec */
    for (int i = 0; i < n && !status; i++)
        if (hs_net_set_load(&nets, paths[i], &err) < 0)
            status = 1;
    if (!status && hs_net_specs_files(&nets, engines, files, sizeof files, &err) < 0)
        status = 1;
    /* --engines net without --net: the default model names the spec */
    int rc = status ? 0 : hs_net_set_load_default(&nets, files, NULL, &err);
    if (rc < 0)   /* none there: the command needs --net, as a usage error */
        status = rc == HS_ENOTFOUND ? 2 : 1;
    if (!status && hs_net_specs(files, nets.hashes, nets.n_bind, out, size, &used, &err) < 0)
        status = 2;
    if (!status && n > 0 && !used) {
        snprintf(err.msg, sizeof err.msg, "--net: no engine of '%s' runs a net (net, "
                 "judge-net, mcts)", engines);
        status = 2;
    }
    if (status)
        fprintf(stderr, "hyeongse submit: %s\n", err.msg);
    hs_net_set_free(&nets);
    return status;
}

/* The command line. */
typedef struct s_sub_opts {
    const char *broker, *engines, *moves, *name, *token;
    const char *net_paths[HS_NET_MAX];
    int threads, wait, follow, n_net_paths;
    hs_cli_keys_t keys;
    char default_name[HS_WIRE_MAX_NAME];
    char net_engines[1024], canon_engines[1024];
} s_sub_opts_t;

/* -1 to go on, else the exit status (usage, --help). */
static int s_getopt(int argc, char **argv, s_sub_opts_t *o)
{
    static const struct option opts[] = {
        { "broker", required_argument, 0, 'b' }, { "engines", required_argument, 0, 'e' },
        { "moves", required_argument, 0, 'm' },  { "name", required_argument, 0, 'n' },
        { "threads", required_argument, 0, 't' }, { "wait", no_argument, 0, 'w' },
        { "token", required_argument, 0, 'T' },  { "help", no_argument, 0, 'h' },
        { "follow-symlinks", no_argument, 0, 'L' }, { "net", required_argument, 0, 'N' },
        HS_CLI_KEY_OPTIONS,                      { 0, 0, 0, 0 },
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:e:m:n:t:wh", opts, NULL)) != -1) {
        switch (c) {
        case 'b': o->broker = optarg; break;
        case 'e': o->engines = optarg; break;
        case 'm': o->moves = optarg; break;
        case 'n': o->name = optarg; break;
        case 't':
            if (hs__cli_int("submit", "--threads", optarg, 1, 1024, &o->threads) < 0)
                return 2;
            break;
        case 'w': o->wait = 1; break;
        case 'T': o->token = optarg; break;
        case 'L': o->follow = 1; break;
        case HS_CLI_OPT_KEY: o->keys.key = optarg; break;
        case HS_CLI_OPT_SERVER_KEY: o->keys.server_key = optarg; break;
        case 'N':
            if (o->n_net_paths == HS_NET_MAX) {
                fprintf(stderr, "hyeongse submit: --net: at most %d nets\n", HS_NET_MAX);
                return 2;
            }
            o->net_paths[o->n_net_paths++] = optarg;
            break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        s_usage(stderr);
        return 2;
    }
    return -1;
}

/* Without --name, `status` shows what was submitted: the first archive's
 * file or folder name, and how many more followed it. */
static void s_default_name(s_sub_opts_t *o, const char *first, int more)
{
    size_t len = strlen(first);
    while (len > 1 && first[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && first[start - 1] != '/')
        start--;
    if (more > 0)
        snprintf(o->default_name, sizeof o->default_name, "%.*s (+%d)", (int)(len - start),
                 first + start, more);
    else
        snprintf(o->default_name, sizeof o->default_name, "%.*s", (int)(len - start),
                 first + start);
    o->name = o->default_name;
}

/* The engines as the job will name them: nets by their hash, canonical
 * specs ("judge@2" from revision 2 on: the job's engine ids then name the
 * revision that computes them, worker/engine.h "Revisions"); the token
 * checked. 0, or the exit status. */
static int s_check_job(s_sub_opts_t *o)
{
    hs_error_t err = { 0 };
    int status = s_net_engines(o->engines, o->net_paths, o->n_net_paths, o->net_engines,
                               sizeof o->net_engines);
    if (status)
        return status;
    if (hs_engine_canonical_list(o->net_engines, HS_WIRE_MAX_ENGINES, 0, o->canon_engines,
                                 sizeof o->canon_engines, &err) < 0) {
        fprintf(stderr, "hyeongse submit: %s\n", err.msg);
        return 2;
    }
    o->engines = o->canon_engines;
    const char *t = o->token;
    if (t && (!*t || strlen(t) > HS_WIRE_MAX_TOKEN || strchr(t, ';'))) {
        fprintf(stderr, "hyeongse submit: --token needs 1..%d characters, no ';'\n",
                HS_WIRE_MAX_TOKEN);
        return 2;
    }
    return 0;
}

/* --wait: the job followed to its end. The exit status: 0 done, 1 not done,
 * HS_CLI_EXIT_NOTHING done with every game failed. */
static int s_wait_job(hs_client_t *cl, uint64_t job)
{
    hs_error_t err = { 0 };
    hs_cli_job_summary_t sum;
    if (hs__cli_wait(cl, job, stderr, &sum, &err) < 0) {
        fprintf(stderr, "hyeongse submit: %s\n", err.msg);
        return 1;
    }
    /* "done" with every game failed: said, as status says it (s_reason). */
    bool none = hs__cli_nothing_analysed(sum.state, sum.games_total, sum.games_failed);
    printf("job %" PRIu64 " %s: %" PRId64 " games done, %" PRId64 " failed, %" PRId64
           " positions%s\n", job, sum.state, sum.games_done, sum.games_failed,
           sum.positions_done, none ? " (nothing analysed: why: `hyeongse query failed`)" : "");
    if (none) {
        /* The failures are in the broker's store: the client cannot name it. */
        char why[256];
        hs__cli_nothing_reason(why, sizeof why, sum.games_total, job,
                               "hyeongse query --db DIR failed");
        fprintf(stderr, "hyeongse submit: %s; DIR is the broker's store\n", why);
        return HS_CLI_EXIT_NOTHING;
    }
    return strcmp(sum.state, "done") ? 1 : 0;
}

/* The upload stopped by signal sig: which job keeps what was sent, and how to
 * resume it (the broker keeps an upload open 10 minutes without a SUBMIT). */
static void s_stopped_say(int sig, uint64_t job, const char *token)
{
    const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    if (job == 0)
        fprintf(stderr, "hyeongse submit: stopped by %s before the broker made a job: nothing "
                "was sent\n", name);
    else
        fprintf(stderr, "hyeongse submit: stopped by %s: job %" PRIu64 " (token %s) keeps "
                "the games sent so far; the same command with --token %s resumes the upload "
                "(the broker keeps it open 10 minutes)\n", name, job, token, token);
}

/* Sends the archives as one job; with --wait, follows it. The exit status. */
static int s_run(const s_sub_opts_t *o, const char *const *paths, int npaths)
{
    hs_error_t err = { 0 };
    hs_client_t *cl = NULL;
    const char *broker = hs__cli_broker_addr(o->broker);
    if (hs__cli_client_new("submit", &o->keys, NULL, broker, 3000, 10, &cl, &err) < 0) {
        fprintf(stderr, "hyeongse submit: %s\n", err.msg);
        return 1;
    }
    uint64_t job = 0;
    hs_ingest_report_t rep;
    char used[HS_WIRE_MAX_TOKEN + 1] = "";
    struct sigaction sa = { .sa_handler = s_on_signal }, old_int, old_term;
    sigemptyset(&sa.sa_mask);   /* no SA_RESTART: a wait ends at the signal */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int rc = s_submit_paths(cl, paths, npaths, o->engines, o->moves, o->name, o->threads,
                            o->follow, o->token, used, true, &job, &rep, false, &err);
    sigaction(SIGINT, &old_int, NULL);   /* --wait: a signal ends the wait, not the job */
    sigaction(SIGTERM, &old_term, NULL);
    if (s_signal && rc < 0) {
        s_stopped_say((int)s_signal, job, used);
        hs_ingest_report_fini(&rep);
        hs_client_destroy(&cl);
        return 128 + (int)s_signal;
    }
    if (rc < 0) {
        fprintf(stderr, "hyeongse submit: %s\n", err.msg);
        if (job)
            fprintf(stderr, "hyeongse submit: job %" PRIu64 " (token %s): resume it with "
                            "--token %s\n", job, used, used);
        hs_ingest_report_fini(&rep);
        hs_client_destroy(&cl);
        return 1;
    }
    printf("job %" PRIu64 " (token %s): %" PRIu64 " games, %" PRIu64 " failed, %" PRIu64
           " duplicates skipped\n", job, used, rep.games, rep.failed, rep.duplicates);
    fflush(stdout);
    if (rep.trees == 0)   /* as analyze says it: a job of no games, most likely a wrong path */
        fprintf(stderr, "hyeongse submit: no game records in %s%s (%" PRIu64 " file(s) read, %"
                PRIu64 " other file(s) skipped): games are read from .sgf files and from .tar, "
                ".tar.gz, .tar.xz, .tar.bz2 and .zip archives of them\n", paths[0],
                npaths > 1 ? " and the other inputs" : "", rep.files, rep.skipped);
    hs_ingest_report_fini(&rep);
    int status = o->wait ? s_wait_job(cl, job) : 0;
    hs_client_destroy(&cl);
    return status;
}

int hs_cmd_submit(int argc, char **argv)
{
    s_sub_opts_t o = { .moves = "all" };
    int status = s_getopt(argc, argv, &o);
    if (status >= 0)
        return status;
    if ((status = hs__cli_keys_check("submit", &o.keys)) != 0)
        return status;
    if (hs__cli_check_paths("submit", argv + optind, argc - optind))
        return 2;
    if (!o.engines)
        o.engines = hs__cli_default_engines();
    if (!o.name)
        s_default_name(&o, argv[optind], argc - optind - 1);
    else if (strlen(o.name) >= HS_WIRE_MAX_NAME)   /* the wire's bound (docs/PROTOCOL.md) */
        fprintf(stderr, "hyeongse submit: the job name is cut to its first %d bytes (at a "
                "character's end)\n", HS_WIRE_MAX_NAME - 1);
    if ((status = s_check_job(&o)) != 0)
        return status;
    return s_run(&o, (const char *const *)argv + optind, argc - optind);
}
