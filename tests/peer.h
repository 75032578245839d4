/*
 * tests/peer.h — what the tests that talk to a broker over ZeroMQ share: a free
 * loopback port, and reading one whole message on a DEALER socket. Header-only
 * (static inline): the test CMake glob builds test_*.c files only.
 */
#ifndef HS_TESTS_PEER_H
#define HS_TESTS_PEER_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "core/wire.h"

/* A TCP port on 127.0.0.1 that was free a moment ago (random in 20000-60000, by
 * binding a probe socket), or 0 when 50 tries found none. */
static inline int hs_test_free_port(void)
{
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (int tries = 0; tries < 50; tries++) {
        int port = 20000 + rand() % 40000;
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int ok = bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
        close(fd);
        if (ok)
            return port;
    }
    return 0;
}

/*
 * Reads one multipart message from a DEALER socket connected to a broker
 * (frames: "", magic, body; blocks until one arrives) and decodes the body into
 * *m: 1, or 0 when it is not three frames or does not decode (nothing to fini).
 */
static inline int hs_test_recv_msg(void *sock, hs_wire_msg_t *m)
{
    zmq_msg_t fr[3];
    int nf = 0, more = 1, ok = 0;
    while (more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, sock, 0) < 0) {
            zmq_msg_close(&part);
            break;
        }
        more = zmq_msg_more(&part);
        if (nf < 3)
            fr[nf++] = part;
        else
            zmq_msg_close(&part);
    }
    if (nf == 3)
        ok = hs_wire_decode(zmq_msg_data(&fr[2]), zmq_msg_size(&fr[2]), m, NULL) == 0;
    for (int i = 0; i < nf; i++)
        zmq_msg_close(&fr[i]);
    return ok;
}

#endif
