/*
 * broker/client_monitor.h — what a client's connection attempts saw, for the
 * message of a request that got no answer (broker/client.c, s_timeout).
 *
 * Silence has several causes that call for different fixes: no broker at the
 * address (start it, fix the address), a CURVE broker and a client without
 * keys, a key the broker does not list, the wrong --server-key. Guessing
 * sent users after keys when the broker was simply not running. libzmq's
 * socket monitor says which it was: whether a connection was accepted at all,
 * and how the handshake ended. hs__ names are internal to broker/.
 */
#ifndef HS_BROKER_CLIENT_MONITOR_H
#define HS_BROKER_CLIENT_MONITOR_H

#include <stdbool.h>

/* What the sockets of one client saw, summed over every try. */
typedef struct hs__conn_seen {
    bool watched;           /* a monitor ran (tcp:// and ipc:// only): the rest means
                             * something; without one (inproc://) nothing is known */
    bool connected;         /* something accepted a connection at the address */
    bool handshake_ok;      /* a handshake completed: the keys were taken */
    bool plain_refused;     /* the peer speaks another mechanism (a CURVE broker
                             * and a client without keys) */
    bool key_refused;       /* the peer's ZAP handler refused this client's key */
} hs__conn_seen_t;

/* Starts watching sock, just made in ctx and not yet connected to endpoint:
 * the monitor's socket, or NULL when endpoint is not tcp:// or ipc:// or the
 * monitor cannot start (the request goes on without it). */
void *hs__conn_monitor(void *ctx, void *sock, const char *endpoint);

/* Adds what monitor mon (may be NULL) has reported so far to *seen. */
void hs__conn_read(void *mon, hs__conn_seen_t *seen);

/* Reads what is left into *seen, then stops watching sock and closes *mon (set
 * NULL). Call before sock is closed. NULL-safe. */
void hs__conn_unmonitor(void *sock, void **mon, hs__conn_seen_t *seen);

#endif
