/*
 * broker/client.h — the client side of the broker protocol: requests with
 * retries (Lazy Pirate), and a submitter that streams games to a job in batches
 * as the broker's credit allows.
 *
 * Lazy Pirate: a request waits timeout_ms for its reply; on silence the client
 * closes its socket (dropping anything late), opens a fresh one and sends again,
 * up to `retries` times. So a client survives a broker restart (kill -9 and start
 * again): its next try reaches the new broker. Resending a SUBMIT batch is safe:
 * the broker skips games that the job already holds, and every SUBMIT carries the
 * submitter's job token, so a retried first SUBMIT (its reply lost) reaches the
 * job it created instead of creating a second one.
 *
 * Used by `hyeongse submit`, `status`, `cancel`, `query` and `analyze` (over
 * inproc://). `status --watch` and `submit --wait` use hs_client_watch: the
 * broker pushes progress, the client heartbeats.
 * Threads: one hs_client_t per thread.
 */
#ifndef HS_BROKER_CLIENT_H
#define HS_BROKER_CLIENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/game.h"
#include "core/wire.h"
#include "core/wire_curve.h"

typedef struct hs_client hs_client_t;

/*
 * Checks the len bytes of endpoint ep (a broker's --bind, when bind; a
 * --broker or --connect address otherwise) where libzmq would take a wrong
 * one without a word: a tcp:// port must be a number of 1..65535 (libzmq
 * keeps the low 16 bits: 99999 would be port 34463, -1 port 65535); a bind
 * may also say * or 0 (any port). The transport must be one libzmq knows
 * (tcp, ipc, inproc; tipc, vmci, ws, wss, pgm, epgm, norm, udp are passed on
 * for libzmq to judge). 0, or HS_EINVAL with the reason (which names ep).
 */
int hs_client_endpoint_check(const char *ep, size_t len, bool bind, hs_error_t *err);
/* hs_client_endpoint_check of each endpoint of a comma-separated list (a
 * broker's --bind "tcp://0.0.0.0:5555,ipc:///run/hs"): 0, or the first refusal. */
int hs_client_endpoints_check(const char *list, bool bind, hs_error_t *err);

/*
 * Connects to the broker at endpoint. zmq_ctx: the context to use (required for
 * inproc://, NULL = a private one). timeout_ms per try (<= 0: 3000), retries
 * tries after the first (< 0: 10). Returns 0 or HS_ENOMEM / HS_EIO, or HS_EINVAL
 * for an endpoint hs_client_endpoint_check refuses; *out set on success only. Caller owns *out and must destroy it with hs_client_destroy.
 */
int hs_client_new(hs_client_t **out, void *zmq_ctx, const char *endpoint, int timeout_ms,
                  int retries, hs_error_t *err);

/*
 * hs_client_new for a CURVE broker: every socket the client opens (each Lazy
 * Pirate retry opens one) is a CURVE client with keys (copied; NULL = plaintext,
 * the same as hs_client_new). A broker that refuses the key never answers:
 * requests end in HS_ETIMEOUT, whose message says so (broker/client_monitor.h).
 */
int hs_client_new_curve(hs_client_t **out, void *zmq_ctx, const char *endpoint,
                        int timeout_ms, int retries, const hs_curve_client_t *keys,
                        hs_error_t *err);

/*
 * Makes requests give up (HS_ECANCELED) at the next try once *flag is non-zero:
 * an embedding program sets it when its in-process broker died. NULL = never.
 */
void hs_client_set_abort(hs_client_t *c, atomic_int *flag);

/*
 * A request (or a watch) that got no answer in timeout_ms is about to be tried
 * again: attempt is the try starting (2 for the first retry), tries the most there
 * will be, each waiting timeout_ms; why: what the client saw of the silence so
 * far, a sentence (a question) for the user, as HS_ETIMEOUT's message ends
 * ("nothing accepted a connection at that address: is the broker running
 * there, ...?", "the broker refused this client's key: ...", from libzmq's
 * connection and handshake events on tcp:// and ipc://). Called on the
 * requesting thread; for a program to tell its user why nothing happens (the
 * library prints nothing).
 */
typedef void (*hs_client_retry_fn)(void *ctx, const char *endpoint, int attempt, int tries,
                                   int timeout_ms, const char *why);

/* Calls fn(ctx, ...) before every retry from now on; fn NULL = none (the default). */
void hs_client_set_retry_hook(hs_client_t *c, hs_client_retry_fn fn, void *ctx);

/* Closes the client and sets *c = NULL. NULL-safe. */
void hs_client_destroy(hs_client_t **c);

/*
 * Sends req and waits for the reply into *reply (caller finis it). A reply of type
 * ERROR is returned as its code with its reason in *err (and *reply is empty).
 * Returns 0, HS_ETIMEOUT after all tries, HS_EPROTO for an undecodable reply.
 */
int hs_client_request(hs_client_t *c, const hs_wire_msg_t *req, hs_wire_msg_t *reply,
                      hs_error_t *err);

/* STATUS for job_id (0 = all): *reply is a STATUS_REPLY (caller finis it). */
int hs_client_status(hs_client_t *c, uint64_t job_id, hs_wire_msg_t *reply, hs_error_t *err);

/* STATUS with paging and a state filter (hs_wire_status_t, core/wire.h): one
 * page of jobs, newest first; reply->status_reply.total and .more say how many
 * match and whether older ones follow (total -1: an older broker, which ignores
 * the page fields and sends its newest 4,096 jobs). q is only read. */
int hs_client_status_page(hs_client_t *c, const hs_wire_status_t *q, hs_wire_msg_t *reply,
                          hs_error_t *err);

/* CANCEL job_id: *canceled says whether a running job was canceled. */
int hs_client_cancel(hs_client_t *c, uint64_t job_id, bool *canceled, hs_error_t *err);

/*
 * Called with every STATUS_REPLY a watch receives; non-zero stops the watch
 * (hs_client_watch then returns 0).
 */
typedef int (*hs_client_watch_fn)(void *ctx, const hs_wire_status_reply_t *r);

/*
 * WATCH job_id (0 = every job): the broker pushes a STATUS_REPLY at once, then
 * whenever the counts change (at most every 250 ms) and when the job ends. fn
 * sees every reply; the watch returns 0 after the reply in which the job (for 0:
 * every job) is no longer running, or when fn returns non-zero. Meanwhile the
 * client sends HEARTBEAT every heartbeat_ms (<= 0: 1000) when it sent nothing
 * else; when it hears nothing for 3 intervals it opens a fresh socket and sends
 * WATCH again (giving up after `retries` such tries: HS_ETIMEOUT), and with no
 * STATUS_REPLY for 5 intervals it sends WATCH again on the same socket (a
 * watcher the broker dropped gets its subscription back; the answer is
 * immediate). An ERROR reply (no such job; too many watchers: HS_EFULL) is
 * returned as its code with the reason in *err. The abort flag is honoured.
 */
int hs_client_watch(hs_client_t *c, uint64_t job_id, int heartbeat_ms, hs_client_watch_fn fn,
                    void *ctx, hs_error_t *err);

/* ---- streaming a job ---- */

typedef struct hs_submitter hs_submitter_t;

/*
 * A submitter for a new job with these engines (comma list) and moves spec.
 * The job is created at the first flush. Caller owns *out (hs_submitter_destroy).
 */
int hs_submitter_new(hs_submitter_t **out, hs_client_t *c, const char *job_name,
                     const char *engines, const char *moves_spec, hs_error_t *err);
void hs_submitter_destroy(hs_submitter_t **s);

/*
 * Adds a good game: the submitter takes *g's contents (g is left as
 * hs_game_init(g, 19)). source may be NULL. Sends a batch when it is full and the
 * broker grants credit, waiting for credit when it has none (backpressure).
 */
int hs_submitter_add_game(hs_submitter_t *s, hs_game_t *g, const char *source,
                          hs_error_t *err);

/* Adds a game that could not be read: the broker records it failed with reason. */
int hs_submitter_add_failure(hs_submitter_t *s, const char *source, const char *reason,
                             hs_error_t *err);

/* Sends what is left with the "last" flag: the job's input is complete. */
int hs_submitter_finish(hs_submitter_t *s, hs_error_t *err);

/* The job token (32 random hex digits unless set): sent with every SUBMIT. */
const char *hs_submitter_token(const hs_submitter_t *s);

/*
 * Uses token instead of a random one, before the first game is added: a client
 * that died mid-upload resumes its job by submitting the same archive with the same
 * token (within the broker's upload lease): the games the job holds are skipped.
 * Such a submitter asks for its credit (an empty SUBMIT) before it sends a game,
 * since the job it may rejoin can have no credit to give (its queue full).
 * 0 or HS_EINVAL (empty, longer than HS_WIRE_MAX_TOKEN, or holding ';').
 */
int hs_submitter_set_token(hs_submitter_t *s, const char *token, hs_error_t *err);

/*
 * The broker gave no credit (its queue is full, or the key's limits are
 * reached): the submitter starts waiting, asking again every 100 ms with an
 * empty SUBMIT. job: the job's id; sent: games sent so far. Called on the
 * submitting thread each time a wait starts; for a program to say why it is
 * idle (the library prints nothing).
 */
typedef void (*hs_submitter_wait_fn)(void *ctx, uint64_t job, int64_t sent);

/* Calls fn(ctx, ...) whenever a wait for credit starts; fn NULL = none (the default). */
void hs_submitter_set_wait_hook(hs_submitter_t *s, hs_submitter_wait_fn fn, void *ctx);

/* Whether the program wants the upload to stop (a signal it caught): asked
 * before each 100 ms wait for credit, where an upload can stand for long; true
 * ends the wait, and the add or finish call that waited, with HS_ECANCELED.
 * The job keeps what was sent; its token resumes it. */
typedef bool (*hs_submitter_stop_fn)(void *ctx);

/* Asks fn(ctx) while waiting for credit; fn NULL = never stop (the default). */
void hs_submitter_set_stop_hook(hs_submitter_t *s, hs_submitter_stop_fn fn, void *ctx);

/* The job id (0 before the first flush), and games sent so far. */
uint64_t hs_submitter_job(const hs_submitter_t *s);
int64_t hs_submitter_sent(const hs_submitter_t *s);

#endif
