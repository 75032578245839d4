/*
 * broker/broker_send.c — how the broker answers: the replies of a round held
 * in an outbox until the round's commit (broker.c), and sending on the ROUTER.
 *
 * Sending uses ZMQ_ROUTER_MANDATORY (set in broker.c): a message to a peer that
 * is gone fails with EHOSTUNREACH instead of vanishing, and a full pipe fails
 * with EAGAIN, so the caller learns that a TASK was not sent. A reply the
 * encoder refuses goes out as an ERROR saying why, so that no peer waits for
 * an answer that never comes.
 */
#include "broker/broker_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/* --------------------------------------------------------------- sending */

/* Only the first frame can fail: once ZeroMQ has taken it, it takes the rest of
 * the message. */
int hs__send_frames(hs__broker_t *b, const uint8_t *id, size_t id_len, bool to_worker,
                    const void *const *body, const size_t *len, int n)
{
    if (zmq_send(b->sock, id, id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return errno == EAGAIN ? HS_EAGAIN : HS_ENOTFOUND;
    zmq_send(b->sock, "", 0, ZMQ_SNDMORE);
    /* Shared types (HEARTBEAT, ERROR, DISCONNECT) go out with the peer's own magic. */
    zmq_send(b->sock, to_worker ? HS_WIRE_MAGIC_WORKER : HS_WIRE_MAGIC_CLIENT,
             HS_WIRE_MAGIC_LEN, ZMQ_SNDMORE);
    for (int k = 0; k < n; k++)
        zmq_send(b->sock, body[k], len[k], k + 1 < n ? ZMQ_SNDMORE : 0);
    return 0;
}

/* Sends [id][""][magic][body]. 0, HS_EAGAIN (pipe full) or HS_ENOTFOUND (peer gone). */
static int s_send_raw(hs__broker_t *b, const uint8_t *id, size_t id_len, bool to_worker,
                      const void *body, size_t len)
{
    return hs__send_frames(b, id, id_len, to_worker, &body, &len, 1);
}

/* Encodes m into *buf; when the encoder refuses it (a text from an old journal
 * or store that is not UTF-8, a limit), an ERROR saying why goes in its place,
 * so the peer is told something rather than left waiting for a reply. */
static int s_encode_reply(const hs_wire_msg_t *m, hs_wire_buf_t *buf)
{
    hs_error_t err = { 0 };
    int rc = hs_wire_encode(m, buf, &err);
    if (rc != HS_EINVAL || m->type == HS_WIRE_ERROR)
        return rc;
    char why[HS_ERROR_MSG_MAX + 64];
    snprintf(why, sizeof why, "the broker cannot encode its %s reply: %s",
             hs_wire_type_name(m->type), err.msg);
    hs_wire_msg_t e;
    hs_wire_msg_init(&e, HS_WIRE_ERROR);
    e.error.code = HS_EINVAL;
    e.error.reason = hs_wire_utf8_escape(why, strnlen(why, HS_WIRE_MAX_STR), NULL);
    rc = e.error.reason ? hs_wire_encode(&e, buf, NULL) : HS_ENOMEM;
    free(e.error.reason);
    return rc;
}

int hs__send_msg(hs__broker_t *b, const uint8_t *id, size_t id_len, bool to_worker,
                 const hs_wire_msg_t *m)
{
    hs_wire_buf_t buf = { 0 };
    int rc = s_encode_reply(m, &buf);
    if (rc == 0)
        rc = s_send_raw(b, id, id_len, to_worker, buf.data, buf.len);
    hs_wire_buf_free(&buf);
    return rc;
}

/* --------------------------------------------------------------- outbox */

void hs__outbox_add(hs__outbox_t *o, const uint8_t *id, size_t id_len, bool to_worker,
                    const hs_wire_msg_t *m)
{
    if (o->n == o->cap) {
        int n = o->cap ? o->cap * 2 : 16;
        hs__reply_t *nv = realloc(o->v, sizeof *nv * (size_t)n);
        if (!nv)
            return;
        o->v = nv;
        o->cap = n;
    }
    hs__reply_t *r = &o->v[o->n];
    memset(r, 0, sizeof *r);
    memcpy(r->id, id, id_len);
    r->id_len = id_len;
    r->to_worker = to_worker;
    if (s_encode_reply(m, &r->body) == 0)
        o->n++;
    else
        hs_wire_buf_free(&r->body);
}

void hs__outbox_flush(hs__broker_t *b, hs__outbox_t *o)
{
    for (int i = 0; i < o->n; i++) {
        hs__reply_t *r = &o->v[i];
        s_send_raw(b, r->id, r->id_len, r->to_worker, r->body.data, r->body.len);
        hs_wire_buf_free(&r->body);
    }
    o->n = 0;
}

void hs__outbox_error(hs__outbox_t *o, const uint8_t *id, size_t id_len, int code,
                      const char *reason)
{
    hs_wire_msg_t m;
    hs_wire_msg_init(&m, HS_WIRE_ERROR);
    m.error.code = code;
    /* A message cut to its buffer may end inside a UTF-8 character: escaped,
     * the ERROR still encodes. */
    m.error.reason = hs_wire_utf8_escape(reason, strnlen(reason, HS_WIRE_MAX_STR), NULL);
    if (m.error.reason)
        hs__outbox_add(o, id, id_len, false, &m);
    free(m.error.reason);
}

void hs__outbox_free(hs__outbox_t *o)
{
    for (int i = 0; i < o->n; i++)
        hs_wire_buf_free(&o->v[i].body);
    free(o->v);
    memset(o, 0, sizeof *o);
}
