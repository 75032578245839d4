/*
 * broker/broker_zap.c — the broker's door (docs/SECURITY.md): which binds may
 * speak plaintext, the ZAP handler (RFC 27, ZAP 1.0) that admits CURVE keys
 * from the allow-lists, and the rights a message's peer has.
 *
 * The ZAP handler is a REP socket bound to inproc://zeromq.zap.01 in the
 * broker's context and polled in the broker's own zmq_poll, so no thread is
 * added. libzmq asks it about every CURVE handshake on the ROUTER; it answers
 * 200 with a User-Id "RRR:KEY" (R = 'w', 'c', 'a' or '-': the worker, client
 * and admin roles, then the Z85 key), which libzmq attaches to every frame the
 * peer sends; hs__peer_of reads the rights back from it.
 */
#include "broker/broker_internal.h"
#include "broker/client.h"

#include <stdio.h>
#include <string.h>

#define S_ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define S_ZAP_FRAMES 8          /* version, id, domain, address, identity, mechanism, creds */
#define S_ZAP_PER_ROUND 256     /* requests answered per loop round */
#define S_LOG_WINDOW_MS 60000   /* a refusal log's window (HS__RATELOG_LINES in each) */
#define S_USER_ID_LEN (4 + HS_CURVE_KEY_LEN)

/* ---------------------------------------------------------------- binds */

/* Whether host (n bytes, maybe in [brackets]) can only be reached from this
 * machine: 127.0.0.0/8, ::1 or localhost. "*", 0.0.0.0, an interface name
 * and every other address can be reached from the network. */
static bool s_loopback(const char *host, size_t n)
{
    char h[256];
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
        host++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof h)
        return false;
    memcpy(h, host, n);
    h[n] = '\0';
    if (!strcmp(h, "localhost") || !strcmp(h, "::1") || !strcmp(h, "0:0:0:0:0:0:0:1"))
        return true;
    int a, b2, c, d;
    char tail;
    return sscanf(h, "%d.%d.%d.%d%c", &a, &b2, &c, &d, &tail) == 4 && a == 127 &&
           b2 >= 0 && b2 <= 255 && c >= 0 && c <= 255 && d >= 0 && d <= 255;
}

/* Whether endpoint ep (len bytes) stays on this machine: inproc://, ipc://
 * (a file the system's permissions guard) or tcp to a loopback host. */
static bool s_local_endpoint(const char *ep, size_t len)
{
    while (len && (*ep == ' ' || *ep == '\t')) {
        ep++;
        len--;
    }
    if (len >= 9 && !strncmp(ep, "inproc://", 9))
        return true;
    if (len >= 6 && !strncmp(ep, "ipc://", 6))
        return true;
    if (len < 6 || strncmp(ep, "tcp://", 6) != 0)
        return false;   /* another network transport: treated as tcp to anywhere */
    const char *host = ep + 6, *end = ep + len, *colon = NULL;
    for (const char *q = host; q < end; q++)
        if (*q == ':')
            colon = q;
    return colon && s_loopback(host, (size_t)(colon - host));
}

int hs__bind_check(const hs_broker_config_t *cfg, hs_error_t *err)
{
    /* First what libzmq would take wrong without a word (a port out of range
     * binds another port), or judge by the rules below (an unknown transport is
     * not "reachable from the network": it is a typo). */
    hs_error_t e = { 0 };
    if (hs_client_endpoints_check(cfg->bind, true, &e) < 0)
        return hs_error_set(err, e.code, "broker: --bind %s", e.msg);
    if (cfg->curve) {
        if (!hs_curve_available())
            return hs_error_set(err, HS_EUNSUPPORTED, "broker: --key needs a libzmq with "
                                "CURVE (built with libsodium)");
        if (!(cfg->worker_keys && cfg->worker_keys->n) && !(cfg->client_keys && cfg->client_keys->n) &&
            !(cfg->admin_keys && cfg->admin_keys->n))
            fprintf(stderr, "hyeongse broker: warning: CURVE is on but no allow-list holds a "
                            "key (--workers, --clients, --admins): every peer will be refused\n");
        return 0;
    }
    for (const char *ep = cfg->bind; *ep;) {
        size_t len = strcspn(ep, ",");
        if (len && !s_local_endpoint(ep, len)) {
            if (!cfg->insecure)
                return hs_error_set(err, HS_EINVAL, "broker: %.*s can be reached from the "
                                    "network, and plaintext there lets anyone take tasks, "
                                    "submit, cancel and forge results: it needs --key (CURVE) "
                                    "or --insecure", (int)(len > 200 ? 200 : len), ep);
            fprintf(stderr, "hyeongse broker: warning: %.*s is plaintext with no keys "
                            "(--insecure): anyone who reaches it has every right\n",
                    (int)(len > 200 ? 200 : len), ep);
        }
        ep += len + (ep[len] == ',');
    }
    return 0;
}

/* ---------------------------------------------------------------- ZAP */

int hs__zap_open(hs__broker_t *b, void *ctx, void *sock, hs_error_t *err)
{
    const hs_broker_config_t *cfg = b->cfg;
    if (!cfg->curve)
        return 0;
    b->inproc_bound = strstr(cfg->bind, "inproc://") != NULL;
    b->zap = zmq_socket(ctx, ZMQ_REP);
    if (!b->zap)
        return hs_error_set(err, HS_EIO, "broker: cannot create the ZAP socket: %s",
                            zmq_strerror(zmq_errno()));
    int zero = 0;
    zmq_setsockopt(b->zap, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_bind(b->zap, S_ZAP_ENDPOINT) != 0)
        return hs_error_set(err, HS_EIO, "broker: cannot bind the ZAP handler %s (another "
                            "CURVE broker in this ZeroMQ context?): %s", S_ZAP_ENDPOINT,
                            zmq_strerror(zmq_errno()));
    return hs_curve_setup_server(sock, cfg->curve, err);
}

void hs__zap_close(hs__broker_t *b)
{
    if (b->zap)
        zmq_close(b->zap);
    b->zap = NULL;
}

static bool s_frame_is(zmq_msg_t *m, const char *s)
{
    size_t n = strlen(s);
    return zmq_msg_size(m) == n && !memcmp(zmq_msg_data(m), s, n);
}

bool hs__ratelog_allow(hs__broker_t *b, hs__ratelog_t *r, const char *what)
{
    if (r->logged == 0 || b->now - r->window_ms >= S_LOG_WINDOW_MS) {
        if (r->quiet)
            hs_log_event("broker", "%llu more %s in the last minute, not logged one by one",
                         (unsigned long long)r->quiet, what);
        r->window_ms = b->now;
        r->logged = 0;
        r->quiet = 0;
    }
    if (r->logged >= HS__RATELOG_LINES) {
        r->quiet++;
        return false;
    }
    r->logged++;
    return true;
}

/* A refused key, logged on stderr whatever --verbose says (an operator must see
 * a worker whose key is missing), rate-limited: a flood of unknown keys is
 * counted, not printed. */
static void s_log_refusal(hs__broker_t *b, const char *key, zmq_msg_t *address)
{
    b->zap_denied++;
    if (!hs__ratelog_allow(b, &b->zap_log, "handshakes refused"))
        return;
    int alen = (int)(zmq_msg_size(address) > 64 ? 64 : zmq_msg_size(address));
    hs_log_event("broker", "refused %s%s from %.*s: %s", key ? "CURVE key " : "",
            key ? key : "a peer", alen, (const char *)zmq_msg_data(address),
            key ? "in no allow-list (--workers, --clients, --admins)" : "not a CURVE handshake");
}

/* The reply to one request: status, text and User-Id ("" unless 200). */
static void s_zap_decide(hs__broker_t *b, zmq_msg_t *fr, int nf, const char **status,
                         const char **text, char user[S_USER_ID_LEN + 1])
{
    const hs_broker_config_t *cfg = b->cfg;
    user[0] = '\0';
    *status = "400";
    *text = "unknown key";
    if (nf < 6 || !s_frame_is(&fr[0], "1.0")) {
        *status = "500";
        *text = "bad ZAP request";
        return;
    }
    if (!s_frame_is(&fr[5], "CURVE") || nf < 7 || zmq_msg_size(&fr[6]) != 32) {
        /* The broker's socket is a CURVE server: anything else reaching its
         * handler is another socket of the context, and is refused too. */
        *text = "CURVE only";
        s_log_refusal(b, NULL, &fr[3]);
        return;
    }
    char key[HS_CURVE_KEY_LEN + 1];
    if (!zmq_z85_encode(key, zmq_msg_data(&fr[6]), 32)) {
        *status = "500";
        *text = "bad key";
        return;
    }
    bool w = hs_curve_list_find(cfg->worker_keys, key) != NULL;
    bool c = hs_curve_list_find(cfg->client_keys, key) != NULL;
    bool a = hs_curve_list_find(cfg->admin_keys, key) != NULL;
    if (!w && !c && !a) {
        s_log_refusal(b, key, &fr[3]);
        return;
    }
    *status = "200";
    *text = "OK";
    snprintf(user, S_USER_ID_LEN + 1, "%c%c%c:%s", w ? 'w' : '-', c ? 'c' : '-', a ? 'a' : '-',
             key);
}

/* Reads one request (its frames are there together) and answers it: 0, or -1
 * when none was waiting. */
static int s_zap_one(hs__broker_t *b)
{
    zmq_msg_t fr[S_ZAP_FRAMES];
    int nf = 0, more = 1;
    while (more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, b->zap, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&part);
            if (nf == 0)
                return -1;
            break;
        }
        more = zmq_msg_more(&part);
        if (nf < S_ZAP_FRAMES)
            fr[nf++] = part;
        else
            zmq_msg_close(&part);
    }
    const char *status, *text;
    char user[S_USER_ID_LEN + 1];
    s_zap_decide(b, fr, nf, &status, &text, user);
    /* REP: the reply must go out before the next request can be read. */
    zmq_send(b->zap, "1.0", 3, ZMQ_SNDMORE);
    if (nf >= 2)
        zmq_send(b->zap, zmq_msg_data(&fr[1]), zmq_msg_size(&fr[1]), ZMQ_SNDMORE);
    else
        zmq_send(b->zap, "", 0, ZMQ_SNDMORE);
    zmq_send(b->zap, status, strlen(status), ZMQ_SNDMORE);
    zmq_send(b->zap, text, strlen(text), ZMQ_SNDMORE);
    zmq_send(b->zap, user, strlen(user), ZMQ_SNDMORE);
    zmq_send(b->zap, "", 0, 0);
    for (int i = 0; i < nf; i++)
        zmq_msg_close(&fr[i]);
    return 0;
}

void hs__zap_serve(hs__broker_t *b)
{
    if (!b->zap)
        return;
    for (int n = 0; n < S_ZAP_PER_ROUND && s_zap_one(b) == 0; n++)
        ;
}

/* ---------------------------------------------------------------- peers */

void hs__peer_of(const hs__broker_t *b, zmq_msg_t *frame, hs__peer_t *p)
{
    memset(p, 0, sizeof *p);
    if (!b->cfg->curve) {
        /* Plaintext: one anonymous peer with every right (docs/SECURITY.md). */
        p->worker = p->client = p->admin = true;
        return;
    }
    const char *uid = zmq_msg_gets(frame, "User-Id");
    if (!uid || !*uid) {
        /* No handshake, so no User-Id: only an inproc:// peer of this process
         * gets here. Without an inproc bind it has no right at all. */
        p->worker = p->client = p->admin = b->inproc_bound;
        return;
    }
    if (strlen(uid) != S_USER_ID_LEN || uid[3] != ':')
        return;
    p->worker = uid[0] == 'w';
    p->client = uid[1] == 'c';
    p->admin = uid[2] == 'a';
    memcpy(p->key, uid + 4, HS_CURVE_KEY_LEN);
    p->key[HS_CURVE_KEY_LEN] = '\0';
}

const char *hs__key_name(const hs__broker_t *b, const char *key, char *buf, size_t size)
{
    const hs_broker_config_t *cfg = b->cfg;
    const hs_curve_list_t *lists[3] = { cfg->admin_keys, cfg->client_keys, cfg->worker_keys };
    if (!key || !*key) {
        snprintf(buf, size, "anonymous");
        return buf;
    }
    for (int i = 0; i < 3; i++) {
        const hs_curve_entry_t *e = cfg->curve ? hs_curve_list_find(lists[i], key) : NULL;
        if (e && e->name[0]) {
            snprintf(buf, size, "%s", e->name);
            return buf;
        }
    }
    /* As a limit's refusal names a key (broker_limits.c): enough to find its
     * line in a list. */
    snprintf(buf, size, "key %.8s...", key);
    return buf;
}

/* What role key p has, for the log line of a message its role does not allow. */
static const char *s_role(const hs__peer_t *p)
{
    return p->admin ? "an admin key" : p->client ? "a client key"
         : p->worker ? "a worker key" : "a key of no list";
}

bool hs__peer_allowed(hs__broker_t *b, zmq_msg_t *frame, bool is_worker, hs__peer_t *p)
{
    hs__peer_of(b, frame, p);
    if (is_worker ? p->worker : p->client || p->admin)
        return true;
    b->refused++;
    /* Whatever --verbose says: a worker started with a client's key is
     * dropped unanswered, and only says "no answer"; this line says why. */
    if (hs__ratelog_allow(b, &b->role_log, "messages refused for their key's role")) {
        char name[80];
        hs_log_event("broker", "refused a %s message from %s: %s, not in %s%s",
                     is_worker ? "worker" : "client", hs__key_name(b, p->key, name, sizeof name),
                     s_role(p), is_worker ? "--workers" : "--clients or --admins",
                     is_worker ? " (a worker with this key gets no task)" : "");
    }
    return false;
}

bool hs__job_visible(const hs__bjob_t *j, const hs__peer_t *p)
{
    return p->admin || !strcmp(j->rec.owner, p->key);
}
