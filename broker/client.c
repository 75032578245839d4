/*
 * broker/client.c — Lazy Pirate requests and the batch submitter (client.h).
 */
#include "broker/client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/client_monitor.h"
#include "core/charset.h"
#include "core/clock.h"

#define S_BATCH_MAX 256

struct hs_client {
    void *ctx;
    bool own_ctx;
    void *sock;
    char endpoint[512];
    int timeout_ms, retries;
    atomic_int *abort_flag;
    hs_client_retry_fn retry_fn;
    void *retry_ctx;
    hs_wire_buf_t buf;
    bool curve;                 /* keys set: every socket is a CURVE client */
    hs_curve_client_t keys;
    bool heard;                 /* the broker answered once: silence now is not a key */
    void *mon;                  /* the socket's monitor (client_monitor.h), or NULL */
    hs__conn_seen_t seen;       /* what every socket's monitor saw: why it was silent */
};

void hs_client_set_abort(hs_client_t *c, atomic_int *flag)
{
    c->abort_flag = flag;
}

void hs_client_set_retry_hook(hs_client_t *c, hs_client_retry_fn fn, void *ctx)
{
    c->retry_fn = fn;
    c->retry_ctx = ctx;
}

static const char *s_silence_hint(hs_client_t *c);

/* Before try number `attempt` (2 = the first retry): the hook, if any. */
static void s_retrying(hs_client_t *c, int attempt)
{
    if (c->retry_fn)
        c->retry_fn(c->retry_ctx, c->endpoint, attempt, c->retries + 1, c->timeout_ms,
                    s_silence_hint(c));
}

struct hs_submitter {
    hs_client_t *c;
    uint64_t job_id;
    int credit;                 /* games the broker lets us send (-1: not asked yet) */
    char name[HS_WIRE_MAX_NAME];
    char engines_buf[1024];
    char *engines[HS_WIRE_MAX_ENGINES];
    int num_engines;
    char moves[64];
    hs_wire_game_t *batch;
    int n;
    int64_t sent;
    char token[HS_WIRE_MAX_TOKEN + 1];   /* job token sent with every SUBMIT */
    bool ask_first;             /* token set by the caller: learn the credit (an empty
                                 * SUBMIT) before the first game */
    hs_submitter_wait_fn wait_fn;
    void *wait_ctx;
    hs_submitter_stop_fn stop_fn;   /* asked between the waits for credit */
    void *stop_ctx;
    hs_wire_buf_t check;        /* scratch: each game is encoded once to check it */
};

/* Closes the current socket (its monitor's last events kept in c->seen). */
static void s_close(hs_client_t *c)
{
    hs__conn_unmonitor(c->sock, &c->mon, &c->seen);
    zmq_close(c->sock);
    c->sock = NULL;
}

static int s_open(hs_client_t *c, hs_error_t *err)
{
    c->sock = zmq_socket(c->ctx, ZMQ_DEALER);
    if (!c->sock)
        return hs_error_set(err, HS_EIO, "cannot create a socket: %s", zmq_strerror(errno));
    int zero = 0;
    zmq_setsockopt(c->sock, ZMQ_LINGER, &zero, sizeof zero);
    /* A broker that refused the handshake leaves the socket without a peer,
     * where a send would block for good: it fails after a try's time instead,
     * and the try ends in silence like any other. */
    zmq_setsockopt(c->sock, ZMQ_SNDTIMEO, &c->timeout_ms, sizeof c->timeout_ms);
    /* Here, not once in hs_client_new: each Lazy Pirate retry opens a fresh
     * socket, and a plaintext one would never be answered by a CURVE broker. */
    if (c->curve && hs_curve_setup_client(c->sock, &c->keys, err) < 0) {
        s_close(c);
        return err ? err->code : HS_EIO;
    }
    c->mon = hs__conn_monitor(c->ctx, c->sock, c->endpoint);
    if (zmq_connect(c->sock, c->endpoint) != 0) {
        int rc = hs_error_set(err, HS_EIO, "cannot connect to %s: %s", c->endpoint,
                              zmq_strerror(errno));
        s_close(c);
        return rc;
    }
    return 0;
}

/* Transports libzmq may know besides tcp, ipc and inproc: passed on, for it to
 * judge (it refuses those it was built without, or that a socket type cannot
 * use). */
static const char *const s_other_transports[] = { "tipc", "vmci", "ws", "wss", "pgm", "epgm",
                                                  "norm", "udp" };

int hs_client_endpoint_check(const char *ep, size_t len, bool bind, hs_error_t *err)
{
    if (!ep)
        return hs_error_set(err, HS_EINVAL, "no endpoint");
    while (len && (*ep == ' ' || *ep == '\t')) {   /* "a, b": as the broker splits */
        ep++;
        len--;
    }
    int show = len > 200 ? 200 : (int)len;
    const char *sep = NULL;
    for (size_t i = 0; i + 3 <= len && !sep; i++)
        if (!memcmp(ep + i, "://", 3))
            sep = ep + i;
    size_t tlen = sep ? (size_t)(sep - ep) : 0;
    if (!sep || tlen == 0)
        return hs_error_set(err, HS_EINVAL, "%.*s: not an endpoint (tcp://HOST:PORT, "
                            "ipc://PATH or inproc://NAME)", show, ep);
    if (tlen == 6 && !memcmp(ep, "inproc", 6))
        return 0;
    if (tlen == 3 && !memcmp(ep, "ipc", 3))
        return 0;
    if (tlen != 3 || memcmp(ep, "tcp", 3)) {
        for (size_t i = 0; i < sizeof s_other_transports / sizeof s_other_transports[0]; i++)
            if (strlen(s_other_transports[i]) == tlen && !memcmp(ep, s_other_transports[i], tlen))
                return 0;
        return hs_error_set(err, HS_EINVAL, "%.*s: unknown transport '%.*s' (tcp://HOST:PORT, "
                            "ipc://PATH or inproc://NAME)", show, ep, (int)tlen, ep);
    }
    /* tcp: the port is after the last ':' ("[::1]:5555" too). */
    const char *host = sep + 3, *end = ep + len, *colon = NULL;
    for (const char *q = host; q < end; q++)
        if (*q == ':')
            colon = q;
    const char *any = bind ? ", or * or 0 for any port" : "";
    if (!colon || memchr(colon, ']', (size_t)(end - colon)))
        return hs_error_set(err, HS_EINVAL, "%.*s: no port (tcp://HOST:PORT, PORT 1..65535%s)",
                            show, ep, any);
    const char *port = colon + 1;
    size_t plen = (size_t)(end - port);
    if (bind && plen == 1 && *port == '*')
        return 0;
    bool negative = plen && *port == '-';
    size_t first = negative;
    bool number = first < plen;
    for (size_t i = first; i < plen; i++)
        number &= port[i] >= '0' && port[i] <= '9';
    if (!number)
        return hs_error_set(err, HS_EINVAL, "%.*s: '%.*s' is not a port (1..65535%s)", show,
                            ep, (int)(plen > 40 ? 40 : plen), port, any);
    long v = 0;   /* stops past 65535: a long number cannot overflow */
    for (size_t i = first; i < plen && v <= 65535; i++)
        v = v * 10 + (port[i] - '0');
    if (negative || v > 65535 || (v == 0 && !bind))
        return hs_error_set(err, HS_EINVAL, "%.*s: port %.*s is out of range (1..65535%s)",
                            show, ep, (int)(plen > 40 ? 40 : plen), port, any);
    return 0;
}

int hs_client_endpoints_check(const char *list, bool bind, hs_error_t *err)
{
    for (const char *ep = list; ep && *ep;) {
        size_t len = strcspn(ep, ",");
        int rc = len ? hs_client_endpoint_check(ep, len, bind, err) : 0;
        if (rc < 0)
            return rc;
        ep += len + (ep[len] == ',');
    }
    return 0;
}

int hs_client_new(hs_client_t **out, void *zmq_ctx, const char *endpoint, int timeout_ms,
                  int retries, hs_error_t *err)
{
    return hs_client_new_curve(out, zmq_ctx, endpoint, timeout_ms, retries, NULL, err);
}

int hs_client_new_curve(hs_client_t **out, void *zmq_ctx, const char *endpoint,
                        int timeout_ms, int retries, const hs_curve_client_t *keys,
                        hs_error_t *err)
{
    int rc = hs_client_endpoint_check(endpoint, endpoint ? strlen(endpoint) : 0, false, err);
    if (rc < 0)
        return rc;
    if (keys && (!hs_curve_key_valid(keys->pair.public_key) ||
                 !hs_curve_key_valid(keys->pair.secret_key) ||
                 !hs_curve_key_valid(keys->server_key)))
        return hs_error_set(err, HS_EINVAL, "client: a CURVE key is not 40 Z85 characters");
    if (keys && !hs_curve_available())
        return hs_error_set(err, HS_EUNSUPPORTED, "client: this libzmq has no CURVE "
                            "(built without libsodium)");
    hs_client_t *c = calloc(1, sizeof *c);
    if (!c)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    if (keys) {
        c->curve = true;
        c->keys = *keys;
    }
    snprintf(c->endpoint, sizeof c->endpoint, "%s", endpoint);
    c->timeout_ms = timeout_ms > 0 ? timeout_ms : 3000;
    c->retries = retries >= 0 ? retries : 10;
    c->own_ctx = zmq_ctx == NULL;
    c->ctx = c->own_ctx ? zmq_ctx_new() : zmq_ctx;
    rc = c->ctx ? s_open(c, err) : hs_error_set(err, HS_EIO, "no ZeroMQ context");
    if (rc < 0) {
        hs_client_destroy(&c);
        return rc;
    }
    *out = c;
    return 0;
}

void hs_client_destroy(hs_client_t **cp)
{
    if (!cp || !*cp)
        return;
    hs_client_t *c = *cp;
    if (c->sock)
        s_close(c);
    if (c->own_ctx && c->ctx)
        zmq_ctx_term(c->ctx);
    hs_wire_buf_free(&c->buf);
    memset(&c->keys, 0, sizeof c->keys);   /* a secret key does not outlive its use */
    free(c);
    *cp = NULL;
}

/*
 * Receives one message within timeout_ms: 1 got one (*rc: the decoder's status;
 * with keep_heartbeats a HEARTBEAT counts), 0 timed out. Frames that are not a
 * client message are skipped.
 */
static int s_recv_ex(hs_client_t *c, int timeout_ms, bool keep_heartbeats, hs_wire_msg_t *reply,
                     hs_error_t *err, int *rc)
{
    zmq_pollitem_t item = { c->sock, 0, ZMQ_POLLIN, 0 };
    for (;;) {
        int n = zmq_poll(&item, 1, timeout_ms);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        zmq_msg_t fr[3];
        int nf = 0, more = 1;
        while (more) {
            zmq_msg_t part;
            zmq_msg_init(&part);
            if (zmq_msg_recv(&part, c->sock, 0) < 0) {
                zmq_msg_close(&part);
                break;
            }
            more = zmq_msg_more(&part);
            if (nf < 3)
                fr[nf++] = part;
            else
                zmq_msg_close(&part);
        }
        bool is_worker = true;
        int got = 0;
        if (nf == 3 && zmq_msg_size(&fr[0]) == 0 &&
            hs_wire_check_magic(zmq_msg_data(&fr[1]), zmq_msg_size(&fr[1]), &is_worker, NULL) == 0 &&
            !is_worker) {
            *rc = hs_wire_decode(zmq_msg_data(&fr[2]), zmq_msg_size(&fr[2]), reply, err);
            got = 1;
            if (*rc == 0 && reply->type == HS_WIRE_HEARTBEAT && !keep_heartbeats) {
                hs_wire_msg_fini(reply);
                got = 0;   /* not an answer: keep waiting */
            }
        }
        for (int i = 0; i < nf; i++)
            zmq_msg_close(&fr[i]);
        if (got) {
            c->heard = true;
            return 1;
        }
    }
}

/* Receives one reply within the client's timeout (HEARTBEATs skipped). */
static int s_recv(hs_client_t *c, hs_wire_msg_t *reply, hs_error_t *err, int *rc)
{
    return s_recv_ex(c, c->timeout_ms, false, reply, err, rc);
}

/* Why the broker was silent, from what the monitors saw (client_monitor.h). A
 * CURVE broker drops a handshake it refuses (an unknown key, a plaintext peer)
 * without a word; keys are named only where they were in play: a broker that
 * is not running is not a key problem. */
static const char *s_silence_hint(hs_client_t *c)
{
    const hs__conn_seen_t *s = &c->seen;
    hs__conn_read(c->mon, &c->seen);
    if (c->heard)   /* it answered before: keys and address are right */
        return "it answered before: has it stopped? its log says why";
    if (!s->watched)   /* inproc://: nothing is known but the keys given */
        return c->curve ? "is it running, and is the address right? and is this client's key "
                          "in its --clients or --admins list, and --server-key its public key?"
                        : "is it running, and is the address right?";
    if (!s->connected)
        return "nothing accepted a connection at that address: is the broker running there, "
               "and is the address right?";
    if (s->key_refused)
        return "the broker refused this client's key: is it in the broker's --clients or "
               "--admins list?";
    if (s->plain_refused && !c->curve)
        return "it speaks CURVE and this client has no keys: a broker that runs with --key "
               "answers only clients with --key and --server-key";
    if (s->plain_refused)
        return "it speaks plaintext (it runs without --key): leave out --key and --server-key";
    if (c->curve && !s->handshake_ok)
        return "it took the connection but the CURVE handshake never ended: is --server-key "
               "the broker's public key?";
    return "it took the connection but did not answer: is it a hyeongse broker, and not stuck?";
}

/* HS_ETIMEOUT after every try, saying why as well as the monitors tell. */
static int s_timeout(hs_client_t *c, hs_error_t *err)
{
    return hs_error_set(err, HS_ETIMEOUT, "no answer from the broker at %s after %d tries: %s",
                        c->endpoint, c->retries + 1, s_silence_hint(c));
}

int hs_client_request(hs_client_t *c, const hs_wire_msg_t *req, hs_wire_msg_t *reply,
                      hs_error_t *err)
{
    c->buf.len = 0;
    int rc = hs_wire_encode(req, &c->buf, err);
    if (rc < 0)
        return rc;
    for (int attempt = 0; attempt <= c->retries; attempt++) {
        if (c->abort_flag && atomic_load(c->abort_flag))
            return hs_error_set(err, HS_ECANCELED, "the broker is gone");
        if (!c->sock && (rc = s_open(c, err)) < 0)
            return rc;
        zmq_send(c->sock, "", 0, ZMQ_SNDMORE);
        zmq_send(c->sock, HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
        zmq_send(c->sock, c->buf.data, c->buf.len, 0);
        rc = 0;
        if (s_recv(c, reply, err, &rc)) {
            if (rc < 0)
                return rc;
            if (reply->type == HS_WIRE_ERROR) {
                int code = reply->error.code < 0 ? reply->error.code : HS_EPROTO;
                hs_error_set(err, code, "broker: %s", reply->error.reason ? reply->error.reason : "error");
                hs_wire_msg_fini(reply);
                return code;
            }
            return 0;
        }
        /* No answer: a fresh socket drops late replies; try again. */
        s_close(c);
        if (attempt < c->retries)
            s_retrying(c, attempt + 2);
    }
    return s_timeout(c, err);
}

/* Encodes and sends m on the current socket (opened when closed). */
static int s_send_one(hs_client_t *c, const hs_wire_msg_t *m, hs_error_t *err)
{
    c->buf.len = 0;
    int rc = hs_wire_encode(m, &c->buf, err);
    if (rc < 0)
        return rc;
    if (!c->sock && (rc = s_open(c, err)) < 0)
        return rc;
    zmq_send(c->sock, "", 0, ZMQ_SNDMORE);
    zmq_send(c->sock, HS_WIRE_MAGIC_CLIENT, HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    zmq_send(c->sock, c->buf.data, c->buf.len, 0);
    return 0;
}

static int s_send_type(hs_client_t *c, hs_wire_type_t type, uint64_t job_id, hs_error_t *err)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, type);
    m.job_id = job_id;
    return s_send_one(c, &m, err);
}

int hs_client_watch(hs_client_t *c, uint64_t job_id, int heartbeat_ms, hs_client_watch_fn fn,
                    void *ctx, hs_error_t *err)
{
    int hb = heartbeat_ms > 0 ? heartbeat_ms : 1000;
    int rc = s_send_type(c, HS_WIRE_WATCH, job_id, err);
    if (rc < 0)
        return rc;
    int64_t now = hs_clock_ms(), heard = now, status_at = now, sent = now;
    int tries = 0;
    for (;;) {
        if (c->abort_flag && atomic_load(c->abort_flag))
            return hs_error_set(err, HS_ECANCELED, "the broker is gone");
        int64_t wait = hb - (now - sent);
        hs_wire_msg_t r;
        int drc = 0;
        int got = s_recv_ex(c, wait > 0 ? (int)wait : 0, true, &r, err, &drc);
        now = hs_clock_ms();
        if (got && drc == 0) {
            heard = now;
            tries = 0;
            if (r.type == HS_WIRE_ERROR) {
                int code = r.error.code < 0 ? r.error.code : HS_EPROTO;
                hs_error_set(err, code, "broker: %s", r.error.reason ? r.error.reason : "error");
                hs_wire_msg_fini(&r);
                return code;
            }
            if (r.type == HS_WIRE_STATUS_REPLY) {
                status_at = now;
                bool running = false;
                for (int i = 0; i < r.status_reply.num_jobs; i++)
                    running |= r.status_reply.jobs[i].state &&
                               !strcmp(r.status_reply.jobs[i].state, "running");
                int stop = fn ? fn(ctx, &r.status_reply) : 0;
                hs_wire_msg_fini(&r);
                if (stop || !running) {
                    if (running)   /* tell the broker to stop pushing */
                        s_send_type(c, HS_WIRE_DISCONNECT, 0, NULL);
                    return 0;
                }
            } else {
                hs_wire_msg_fini(&r);
            }
        } else if (got) {
            hs_error_clear(err);   /* an undecodable message: dropped */
        }
        if (now - heard >= 3 * (int64_t)hb) {
            /* The broker is silent: a fresh socket, and WATCH again. */
            if (++tries > c->retries)
                return s_timeout(c, err);
            s_retrying(c, tries + 1);
            s_close(c);
            if ((rc = s_send_type(c, HS_WIRE_WATCH, job_id, err)) < 0)
                return rc;
            heard = status_at = sent = now;
        } else if (now - status_at >= 5 * (int64_t)hb) {
            if ((rc = s_send_type(c, HS_WIRE_WATCH, job_id, err)) < 0)
                return rc;
            status_at = sent = now;
        } else if (now - sent >= hb) {
            if ((rc = s_send_type(c, HS_WIRE_HEARTBEAT, 0, err)) < 0)
                return rc;
            sent = now;
        }
    }
}

int hs_client_status(hs_client_t *c, uint64_t job_id, hs_wire_msg_t *reply, hs_error_t *err)
{
    hs_wire_status_t q = { .job_id = job_id };
    return hs_client_status_page(c, &q, reply, err);
}

int hs_client_status_page(hs_client_t *c, const hs_wire_status_t *q, hs_wire_msg_t *reply,
                          hs_error_t *err)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_STATUS);
    m.status = *q;
    int rc = hs_client_request(c, &m, reply, err);
    if (rc == 0 && reply->type != HS_WIRE_STATUS_REPLY) {
        hs_wire_msg_fini(reply);
        return hs_error_set(err, HS_EPROTO, "unexpected reply to STATUS");
    }
    return rc;
}

int hs_client_cancel(hs_client_t *c, uint64_t job_id, bool *canceled, hs_error_t *err)
{
    hs_wire_msg_t m, r;
    hs_wire_msg_init(&m, HS_WIRE_CANCEL);
    m.job_id = job_id;
    int rc = hs_client_request(c, &m, &r, err);
    if (rc < 0)
        return rc;
    if (r.type != HS_WIRE_CANCEL_REPLY)
        rc = hs_error_set(err, HS_EPROTO, "unexpected reply to CANCEL");
    else
        *canceled = r.cancel_reply.canceled;
    hs_wire_msg_fini(&r);
    return rc;
}

/* ------------------------------------------------------------ submitter */

/* 32 random hex digits: /dev/urandom, else time, pid and an address mixed. */
static void s_make_token(char out[HS_WIRE_MAX_TOKEN + 1], const void *salt)
{
    uint8_t b[16] = { 0 };
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    if (got != sizeof b) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
                     ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)salt;
        for (int i = 0; i < 16; i++) {
            x ^= x >> 33;
            x *= 0xff51afd7ed558ccdull;
            x ^= x >> 29;
            b[i] = (uint8_t)x;
        }
    }
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

int hs_submitter_new(hs_submitter_t **out, hs_client_t *c, const char *job_name,
                     const char *engines, const char *moves_spec, hs_error_t *err)
{
    hs_submitter_t *s = calloc(1, sizeof *s);
    if (!s || !(s->batch = calloc(S_BATCH_MAX, sizeof *s->batch))) {
        free(s);
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    s->c = c;
    s->credit = -1;
    /* The default name is an archive's file name: any bytes. Escaped, then cut
     * at a character boundary to the wire's limit. */
    char *name = hs_wire_utf8_escape(job_name ? job_name : "", job_name ? strlen(job_name) : 0,
                                     NULL);
    snprintf(s->name, sizeof s->name, "%s", name ? name : "");
    free(name);
    s->name[hs_utf8_valid_prefix(s->name, strlen(s->name))] = '\0';
    snprintf(s->engines_buf, sizeof s->engines_buf, "%s", engines);
    snprintf(s->moves, sizeof s->moves, "%s", moves_spec ? moves_spec : "all");
    s_make_token(s->token, s);
    /* Split as every list reader does: a spec's options have commas too. */
    for (char *tok = s->engines_buf; *tok && s->num_engines < HS_WIRE_MAX_ENGINES;) {
        size_t len = hs_engine_list_entry(tok);
        bool more = tok[len] == ',';
        tok[len] = '\0';
        if (len)
            s->engines[s->num_engines++] = tok;
        tok += len + more;
    }
    *out = s;
    return 0;
}

static void s_batch_clear(hs_submitter_t *s)
{
    for (int i = 0; i < s->n; i++)
        hs_wire_game_fini(&s->batch[i]);   /* frees source and error too */
    s->n = 0;
}

void hs_submitter_destroy(hs_submitter_t **sp)
{
    if (!sp || !*sp)
        return;
    s_batch_clear(*sp);
    free((*sp)->batch);
    hs_wire_buf_free(&(*sp)->check);
    free(*sp);
    *sp = NULL;
}

/* Sends the batch (maybe empty) and reads the new credit. */
static int s_flush(hs_submitter_t *s, bool last, hs_error_t *err)
{
    hs_wire_msg_t m, r;
    hs_wire_msg_init(&m, HS_WIRE_SUBMIT);
    m.submit.job_id = s->job_id;
    m.submit.job_name = s->name;
    m.submit.engines = s->engines;
    m.submit.num_engines = s->num_engines;
    m.submit.moves_spec = s->moves;
    m.submit.games = s->batch;
    m.submit.num_games = s->n;
    m.submit.last = last;
    m.submit.token = s->token;   /* a retried first SUBMIT finds its job again */
    int rc = hs_client_request(s->c, &m, &r, err);
    if (rc < 0)
        return rc;
    if (r.type != HS_WIRE_SUBMIT_REPLY) {
        hs_wire_msg_fini(&r);
        return hs_error_set(err, HS_EPROTO, "unexpected reply to SUBMIT");
    }
    s->job_id = r.submit_reply.job_id;
    s->credit = r.submit_reply.credit;
    s->sent += s->n;
    hs_wire_msg_fini(&r);
    s_batch_clear(s);
    return 0;
}

/* Sends the batch (maybe empty), then, while the credit is 0 (the broker's
 * queue is full), asks again with an empty batch until it has room. */
static int s_flush_wait(hs_submitter_t *s, hs_error_t *err)
{
    int rc = s_flush(s, false, err);
    if (rc == 0 && s->credit == 0 && s->wait_fn)
        s->wait_fn(s->wait_ctx, s->job_id, s->sent);
    while (rc == 0 && s->credit == 0) {
        if (s->stop_fn && s->stop_fn(s->stop_ctx))
            return hs_error_set(err, HS_ECANCELED, "stopped while waiting for the broker's "
                                "credit");
        usleep(100000);
        rc = s_flush(s, false, err);
    }
    return rc;
}

/* Before a game joins the batch. A submitter resuming a job by its token does
 * not know the job's credit, and the job may have none (the queue filled while
 * its upload ran): it asks first, and waits as any upload does, instead of
 * sending a game no credit covers. */
static int s_before_game(hs_submitter_t *s, hs_error_t *err)
{
    if (!s->ask_first || s->credit >= 0)
        return 0;
    return s_flush_wait(s, err);
}

/* Flushes when the batch is full or credit allows; waits while credit is 0. */
static int s_maybe_flush(hs_submitter_t *s, hs_error_t *err)
{
    int limit = s->credit < 0 ? 1 : s->credit;
    if (limit > S_BATCH_MAX)
        limit = S_BATCH_MAX;
    if (s->n < limit && s->n < S_BATCH_MAX)
        return 0;
    return s_flush_wait(s, err);
}

/* Cuts s to fewer than HS_WIRE_MAX_STR bytes, at a UTF-8 character boundary: a
 * record's names and comments may be any length, the wire's strings may not. */
static void s_clip(char *s)
{
    if (!s || strlen(s) < HS_WIRE_MAX_STR)
        return;
    size_t n = HS_WIRE_MAX_STR - 1;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    s[n] = '\0';
}

/* Makes *p text the wire carries: a file name from a non-UTF-8 locale (an
 * archive member "caf\xe9.sgf") has its invalid bytes escaped as \xNN, which
 * keeps names apart (U+FFFD would merge them) and is what the store then knows
 * the game by. Names and other SGF texts are UTF-8 already (core/charset.c);
 * this is the guard for what is not. 0 or HS_ENOMEM. */
static int s_text(char **p)
{
    if (!*p || hs_wire_utf8_valid(*p, strlen(*p)))
        return 0;
    char *esc = hs_wire_utf8_escape(*p, strlen(*p), NULL);
    if (!esc)
        return HS_ENOMEM;
    free(*p);
    *p = esc;
    return 0;
}

int hs_submitter_add_game(hs_submitter_t *s, hs_game_t *g, const char *source, hs_error_t *err)
{
    int rc = s_before_game(s, err);
    if (rc < 0) {
        hs_game_fini(g);   /* taken all the same, as the header promises */
        hs_game_init(g, 19);
        return rc;
    }
    hs_wire_game_t *w = &s->batch[s->n];
    memset(w, 0, sizeof *w);
    w->game = *g;
    hs_game_init(g, 19);
    if (w->game.id[0] == 0 && w->game.id[1] == 0)
        hs_game_compute_id(&w->game);
    w->source = source ? strdup(source) : NULL;
    if (source && !w->source) {
        hs_wire_game_fini(w);
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    hs_game_t *m = &w->game;
    char **texts[] = { &m->black, &m->white, &m->black_rank, &m->white_rank, &m->date,
                       &m->event, &m->round, &m->result_raw, &m->komi_raw, &m->rules_raw,
                       &w->source };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (s_text(texts[i]) < 0) {
            hs_wire_game_fini(w);
            return hs_error_set(err, HS_ENOMEM, "out of memory");
        }
        s_clip(*texts[i]);
    }
    /* A game the wire cannot carry (more moves than HS_WIRE_MAX_MOVES, a name too
     * long, ...) would make the whole SUBMIT fail to encode: record it as failed
     * with the encoder's reason instead, and the upload goes on. */
    hs_error_t why = { 0 };
    s->check.len = 0;
    if (hs_wire_encode_game(w, &s->check, &why) < 0) {
        char *src = w->source;
        w->source = NULL;
        hs_wire_game_fini(w);
        char reason[HS_WIRE_MAX_STR];
        snprintf(reason, sizeof reason, "cannot be sent to the broker: %s", why.msg);
        rc = hs_submitter_add_failure(s, src ? src : source, reason, err);
        free(src);
        return rc;
    }
    s->n++;
    return s_maybe_flush(s, err);
}

int hs_submitter_add_failure(hs_submitter_t *s, const char *source, const char *reason,
                             hs_error_t *err)
{
    int rc = s_before_game(s, err);
    if (rc < 0)
        return rc;
    hs_wire_game_t *w = &s->batch[s->n];
    memset(w, 0, sizeof *w);
    hs_game_init(&w->game, 19);
    w->source = strdup(source ? source : "(unknown)");
    w->error = strdup(reason && *reason ? reason : "unreadable");
    if (!w->source || !w->error || s_text(&w->source) < 0 || s_text(&w->error) < 0) {
        hs_wire_game_fini(w);
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    }
    s_clip(w->source);
    s_clip(w->error);
    s->n++;
    return s_maybe_flush(s, err);
}

int hs_submitter_finish(hs_submitter_t *s, hs_error_t *err)
{
    return s_flush(s, true, err);
}

uint64_t hs_submitter_job(const hs_submitter_t *s) { return s->job_id; }
const char *hs_submitter_token(const hs_submitter_t *s) { return s->token; }

int hs_submitter_set_token(hs_submitter_t *s, const char *token, hs_error_t *err)
{
    if (!token || !*token || strlen(token) > HS_WIRE_MAX_TOKEN || strchr(token, ';'))
        return hs_error_set(err, HS_EINVAL, "a job token has 1..%d characters, no ';'",
                            HS_WIRE_MAX_TOKEN);
    snprintf(s->token, sizeof s->token, "%s", token);
    s->ask_first = true;
    return 0;
}

void hs_submitter_set_wait_hook(hs_submitter_t *s, hs_submitter_wait_fn fn, void *ctx)
{
    s->wait_fn = fn;
    s->wait_ctx = ctx;
}

void hs_submitter_set_stop_hook(hs_submitter_t *s, hs_submitter_stop_fn fn, void *ctx)
{
    s->stop_fn = fn;
    s->stop_ctx = ctx;
}
int64_t hs_submitter_sent(const hs_submitter_t *s) { return s->sent; }

