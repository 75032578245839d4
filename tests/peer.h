/*
 * tests/peer.h — what the tests that talk to a broker over ZeroMQ share: a free
 * loopback port, a broker run in a thread of the test, and reading one whole
 * message on a DEALER socket (one body, or a batched message of several). Header-only
 * (static inline): the test CMake glob builds test_*.c files only.
 */
#ifndef HS_TESTS_PEER_H
#define HS_TESTS_PEER_H

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "broker/broker.h"
#include "core/wire.h"
#include "test.h"

/* A TCP port on 127.0.0.1 that was free a moment ago (by binding a probe socket),
 * or 0 when 50 tries found none. Only for a broker that must come back on the
 * same port after a restart: otherwise bind "tcp://127.0.0.1:*" and read
 * hs_test_broker_t.endpoint. The port is taken below the kernel's ephemeral
 * range, where no outgoing connection (of this test or another one running
 * beside it) can be given it between the probe and the bind. */
static inline int hs_test_free_port(void)
{
    int lo = 32768;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (f) {
        if (fscanf(f, "%d", &lo) != 1 || lo <= 12000)
            lo = 32768;
        fclose(f);
    }
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    for (int tries = 0; tries < 50; tries++) {
        int port = 10000 + rand() % (lo - 10000);
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

/* A broker in a thread of the test: fill cfg (stop, ready and on_serving are set
 * here), then hs_test_broker_start; endpoint is then the address it bound (cfg.bind
 * may be "tcp://127.0.0.1:*"). hs_test_broker_stop asks it to stop, joins it and
 * checks it returned 0. */
typedef struct hs_test_broker {
    hs_broker_config_t cfg;
    char endpoint[256];
    atomic_int stop, ready;
    pthread_t tid;
    hs_error_t err;
    int rc;
} hs_test_broker_t;

static inline void *hs_test_broker_main(void *arg)
{
    hs_test_broker_t *b = arg;
    b->rc = hs_broker_run(&b->cfg, &b->err);
    return NULL;
}

static inline void hs_test_broker_serving(void *arg, const char *endpoints)
{
    hs_test_broker_t *b = arg;
    snprintf(b->endpoint, sizeof b->endpoint, "%s", endpoints);
}

/* Starts b and waits until it is bound (ready == 1) or failed. */
static inline void hs_test_broker_start(hs_test_broker_t *b)
{
    atomic_store(&b->stop, 0);
    atomic_store(&b->ready, 0);
    b->cfg.stop = &b->stop;
    b->cfg.ready = &b->ready;
    b->cfg.on_serving = hs_test_broker_serving;
    b->cfg.on_serving_arg = b;
    pthread_create(&b->tid, NULL, hs_test_broker_main, b);
    while (atomic_load(&b->ready) == 0)
        usleep(1000);
    HS_CHECK_INT(atomic_load(&b->ready), 1);
}

static inline void hs_test_broker_stop(hs_test_broker_t *b)
{
    atomic_store(&b->stop, 1);
    pthread_join(b->tid, NULL);
    HS_CHECK_INT(b->rc, 0);
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

/*
 * Reads one multipart message of up to max bodies ("", magic, body1..bodyK;
 * blocks until one arrives) and decodes each body into m[0..K): returns K, or -1
 * when the frames are not laid out so (more than max bodies included) or a body
 * does not decode (nothing to fini then). *magic_out (may be NULL) gets the magic.
 */
static inline int hs_test_recv_bodies(void *sock, hs_wire_msg_t *m, int max, char magic_out[5])
{
    int nf = 0, more = 1, k = 0, bad = 0;
    while (more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, sock, 0) < 0) {
            zmq_msg_close(&part);
            return -1;
        }
        more = zmq_msg_more(&part);
        const void *d = zmq_msg_data(&part);
        size_t len = zmq_msg_size(&part);
        if (nf == 0)
            bad |= len != 0;
        else if (nf == 1) {
            bad |= len != HS_WIRE_MAGIC_LEN;
            if (magic_out && len == HS_WIRE_MAGIC_LEN) {
                memcpy(magic_out, d, HS_WIRE_MAGIC_LEN);
                magic_out[HS_WIRE_MAGIC_LEN] = '\0';
            }
        } else if (k >= max || bad || hs_wire_decode(d, len, &m[k], NULL) != 0)
            bad = 1;
        else
            k++;
        nf++;
        zmq_msg_close(&part);
    }
    if (bad || k == 0) {
        for (int i = 0; i < k; i++)
            hs_wire_msg_fini(&m[i]);
        return -1;
    }
    return k;
}

#endif
