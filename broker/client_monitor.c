/*
 * broker/client_monitor.c — a client socket's connection events (client_monitor.h).
 *
 * zmq_socket_monitor publishes a socket's events on an inproc PAIR endpoint of
 * its context; each event is two frames: 6 bytes (a 16-bit event, a 32-bit
 * value, host order) and the peer's address. They are read without waiting,
 * when a try has already timed out, so the monitor costs nothing on the path of
 * a request that is answered.
 */
#include "broker/client_monitor.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

/* Handshake events came with libzmq 4.3; an older one reports connections only. */
#ifdef ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
#define S_EVENTS (ZMQ_EVENT_CONNECTED | ZMQ_EVENT_HANDSHAKE_SUCCEEDED | \
                  ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
#else
#define S_EVENTS ZMQ_EVENT_CONNECTED
#endif

void *hs__conn_monitor(void *ctx, void *sock, const char *endpoint)
{
    if (strncmp(endpoint, "tcp://", 6) != 0 && strncmp(endpoint, "ipc://", 6) != 0)
        return NULL;
    char name[64];
    /* Monitor endpoints are per context, and a context may hold many clients
     * (analyze's, a test's): the socket's address keeps them apart while it
     * lives, and the time of day a socket that reuses a closed one's address
     * (whose endpoint libzmq may not have let go yet), with no counter
     * shared by the whole process. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    snprintf(name, sizeof name, "inproc://hs-client-monitor-%p-%lld.%09ld", sock,
             (long long)now.tv_sec, (long)now.tv_nsec);
    if (zmq_socket_monitor(sock, name, S_EVENTS) != 0)
        return NULL;
    void *mon = zmq_socket(ctx, ZMQ_PAIR);
    int zero = 0;
    if (mon && (zmq_setsockopt(mon, ZMQ_LINGER, &zero, sizeof zero) != 0 ||
                zmq_connect(mon, name) != 0)) {
        zmq_close(mon);
        mon = NULL;
    }
    if (!mon)
        zmq_socket_monitor(sock, NULL, 0);
    return mon;
}

/* One event into *seen. */
static void s_event(uint16_t event, uint32_t value, hs__conn_seen_t *seen)
{
    if (event == ZMQ_EVENT_CONNECTED)
        seen->connected = true;
#ifdef ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
    if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
        seen->handshake_ok = true;
    if (event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL &&
        value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
        seen->plain_refused = true;
    if (event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
        seen->key_refused = true;
#else
    (void)value;
#endif
}

void hs__conn_read(void *mon, hs__conn_seen_t *seen)
{
    if (!mon)
        return;
    seen->watched = true;
    for (;;) {
        zmq_msg_t head;
        zmq_msg_init(&head);
        if (zmq_msg_recv(&head, mon, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&head);
            return;
        }
        if (zmq_msg_size(&head) >= 6) {
            uint16_t event;
            uint32_t value;
            memcpy(&event, zmq_msg_data(&head), sizeof event);
            memcpy(&value, (const char *)zmq_msg_data(&head) + 2, sizeof value);
            s_event(event, value, seen);
        }
        /* The address frame (and anything else of the event) is dropped. */
        while (zmq_msg_more(&head)) {
            zmq_msg_close(&head);
            zmq_msg_init(&head);
            if (zmq_msg_recv(&head, mon, ZMQ_DONTWAIT) < 0)
                break;
        }
        zmq_msg_close(&head);
    }
}

void hs__conn_unmonitor(void *sock, void **mon, hs__conn_seen_t *seen)
{
    if (!mon || !*mon)
        return;
    hs__conn_read(*mon, seen);
    zmq_socket_monitor(sock, NULL, 0);
    zmq_close(*mon);
    *mon = NULL;
}
