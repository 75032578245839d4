/*
 * core/wire_curve.c — CurveZMQ keys in memory (core/wire_curve.h): key pairs,
 * the Z85 check, allow-lists as sorted arrays, and the socket options that make
 * a socket a CURVE server or client. Reading and writing key FILES is
 * core/wire_curve_files.c.
 */
#include "core/wire_curve.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

bool hs_curve_available(void)
{
    return zmq_has("curve") != 0;
}

int hs_curve_keypair(hs_curve_pair_t *out, hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (!hs_curve_available() || zmq_curve_keypair(out->public_key, out->secret_key) != 0)
        return hs_error_set(err, HS_EUNSUPPORTED, "this libzmq cannot make CURVE keys "
                            "(built without libsodium/CURVE)");
    return 0;
}

bool hs_curve_key_valid(const char *s)
{
    if (!s || strnlen(s, HS_CURVE_KEY_LEN + 1) != HS_CURVE_KEY_LEN)
        return false;
    /* zmq_z85_decode checks the alphabet; it writes 32 bytes for 40 characters. */
    uint8_t raw[32];
    return zmq_z85_decode(raw, s) != NULL;
}

/* Index of key in l, or -(insertion point) - 1 when absent: one binary search
 * for find and for a sorted insert. */
static int s_search(const hs_curve_list_t *l, const char *key)
{
    int lo = 0, hi = l->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(l->v[mid].key, key);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -lo - 1;
}

int hs_curve_list_add(hs_curve_list_t *l, const char *key, const char *name, hs_error_t *err)
{
    if (!hs_curve_key_valid(key))
        return hs_error_set(err, HS_EPARSE, "not a CURVE public key (40 Z85 characters): '%.48s'",
                            key ? key : "");
    int at = s_search(l, key);
    if (at >= 0) {
        /* A key listed twice is kept once; the first name that says something wins. */
        if (!l->v[at].name[0] && name)
            snprintf(l->v[at].name, sizeof l->v[at].name, "%s", name);
        return 0;
    }
    at = -at - 1;
    /* Lists are read once at startup (tens to thousands of keys): one realloc a
     * key keeps the struct free of a capacity field. */
    hs_curve_entry_t *nv = realloc(l->v, sizeof *nv * ((size_t)l->n + 1));
    if (!nv)
        return hs_error_set(err, HS_ENOMEM, "out of memory for an allow-list");
    l->v = nv;
    memmove(&l->v[at + 1], &l->v[at], sizeof *nv * (size_t)(l->n - at));
    hs_curve_entry_t *e = &l->v[at];
    memset(e, 0, sizeof *e);
    memcpy(e->key, key, HS_CURVE_KEY_LEN);
    snprintf(e->name, sizeof e->name, "%s", name ? name : "");
    l->n++;
    return 0;
}

const hs_curve_entry_t *hs_curve_list_find(const hs_curve_list_t *l, const char *key)
{
    if (!l || !key || l->n == 0)
        return NULL;
    int at = s_search(l, key);
    return at >= 0 ? &l->v[at] : NULL;
}

void hs_curve_list_free(hs_curve_list_t *l)
{
    if (!l)
        return;
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* A Z85 key option: libzmq takes 41 bytes (40 characters and the NUL) as Z85. */
static int s_setkey(void *sock, int opt, const char *key, const char *what, hs_error_t *err)
{
    if (!hs_curve_key_valid(key))
        return hs_error_set(err, HS_EPARSE, "CURVE: the %s is not a Z85 key", what);
    if (zmq_setsockopt(sock, opt, key, HS_CURVE_KEY_LEN + 1) != 0)
        return hs_error_set(err, HS_EIO, "CURVE: cannot set the %s: %s", what,
                            zmq_strerror(errno));
    return 0;
}

int hs_curve_setup_server(void *sock, const hs_curve_pair_t *pair, hs_error_t *err)
{
    if (!hs_curve_available())
        return hs_error_set(err, HS_EUNSUPPORTED, "this libzmq has no CURVE");
    int one = 1, rc;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one) != 0)
        return hs_error_set(err, HS_EIO, "CURVE: cannot make a server socket: %s",
                            zmq_strerror(errno));
    if ((rc = s_setkey(sock, ZMQ_CURVE_SECRETKEY, pair->secret_key, "server's secret key",
                       err)) < 0)
        return rc;
    /* A domain makes libzmq ask the ZAP handler of the socket's context about
     * every peer's key (RFC 27); the broker binds that handler first. */
    if (zmq_setsockopt(sock, ZMQ_ZAP_DOMAIN, "hyeongse", strlen("hyeongse")) != 0)
        return hs_error_set(err, HS_EIO, "CURVE: cannot set the ZAP domain: %s",
                            zmq_strerror(errno));
    return 0;
}

int hs_curve_setup_client(void *sock, const hs_curve_client_t *c, hs_error_t *err)
{
    if (!hs_curve_available())
        return hs_error_set(err, HS_EUNSUPPORTED, "this libzmq has no CURVE");
    int rc;
    if ((rc = s_setkey(sock, ZMQ_CURVE_SERVERKEY, c->server_key, "broker's public key",
                       err)) < 0 ||
        (rc = s_setkey(sock, ZMQ_CURVE_PUBLICKEY, c->pair.public_key, "own public key",
                       err)) < 0 ||
        (rc = s_setkey(sock, ZMQ_CURVE_SECRETKEY, c->pair.secret_key, "own secret key",
                       err)) < 0)
        return rc;
    return 0;
}
