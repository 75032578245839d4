/*
 * tests/test_wire_cluster.c — STATUS_REPLY's fields for `status --cluster`
 * (core/wire.h: a worker entry's stats, fields 5-11, and the reply's cluster
 * field 7): round trips, an older broker's reply (no such fields) decoding with
 * has_stats/has_cluster false, a later peer's extra trailing fields skipped,
 * and the encoder refusing what the decoder would (negative counts, NaN rate).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/wire.h"
#include "test.h"

static char *s_engines_a[] = { "noop", "area" };
static char *s_nets_a[] = { "0123456789abcdef0123456789abcdef" };

static void s_reply(hs_wire_msg_t *m, hs_wire_worker_info_t *w, int n, bool cluster)
{
    hs_wire_msg_init(m, HS_WIRE_STATUS_REPLY);
    m->status_reply.workers = n;
    m->status_reply.total = 0;
    m->status_reply.worker_list = w;
    m->status_reply.num_worker_list = n;
    m->status_reply.has_cluster = cluster;
    m->status_reply.cluster = (hs_wire_cluster_info_t){ .queued_tasks = 120, .leased_tasks = 16,
        .positions_pending = 45000, .jobs_running = 2, .uptime_ms = 3723000 };
}

static hs_wire_worker_info_t s_worker(bool stats)
{
    return (hs_wire_worker_info_t){ .name = "gpu-1:42", .nets = s_nets_a, .num_nets = 1,
        .backend = "cuda", .tasks = 3, .has_stats = stats, .engines = s_engines_a,
        .num_engines = 2, .rate = 1234.5, .positions_done = 5000000000LL, .tasks_done = 77,
        .leased_positions = 192, .errors = 1, .requeued = 2 };
}

static void test_roundtrip(void)
{
    hs_wire_worker_info_t w[2] = { s_worker(true), s_worker(true) };
    w[1].name = "cpu-2:7";
    w[1].engines = NULL;
    w[1].num_engines = 0;
    w[1].nets = NULL;
    w[1].num_nets = 0;
    w[1].backend = NULL;
    w[1].rate = 0;
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    s_reply(&m, w, 2, true);
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x98);   /* 8 fields: the cluster is field 7 */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    const hs_wire_status_reply_t *r = &d.status_reply;
    HS_CHECK(r->has_cluster);
    HS_CHECK(r->cluster.queued_tasks == 120 && r->cluster.leased_tasks == 16 &&
             r->cluster.positions_pending == 45000 && r->cluster.jobs_running == 2 &&
             r->cluster.uptime_ms == 3723000);
    HS_CHECK_INT(r->num_worker_list, 2);
    const hs_wire_worker_info_t *a = &r->worker_list[0], *b = &r->worker_list[1];
    HS_CHECK(a->has_stats && b->has_stats);
    HS_CHECK_STR(a->name, "gpu-1:42");
    HS_CHECK_INT(a->num_engines, 2);
    HS_CHECK_STR(a->engines[0], "noop");
    HS_CHECK_STR(a->engines[1], "area");
    HS_CHECK(a->rate == 1234.5);
    HS_CHECK(a->positions_done == 5000000000LL && a->tasks_done == 77);
    HS_CHECK(a->leased_positions == 192 && a->errors == 1 && a->requeued == 2);
    HS_CHECK_STR(a->backend, "cuda");
    HS_CHECK_INT(b->num_engines, 0);
    HS_CHECK(b->backend == NULL && b->rate == 0);
    hs_wire_msg_fini(&d);

    /* No workers, but the cluster: field 6 goes as an empty list. */
    s_reply(&m, NULL, 0, true);
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(d.status_reply.has_cluster && d.status_reply.num_worker_list == 0);
    HS_CHECK(d.status_reply.cluster.positions_pending == 45000);
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&buf);
}

/* What an older broker sends is what a new one sends without the new fields:
 * 7 fields, 4 per worker entry. It decodes with has_stats/has_cluster false. */
static void test_older_broker(void)
{
    hs_wire_worker_info_t w = s_worker(false);
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    s_reply(&m, &w, 1, false);
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x97);
    const uint8_t *e = memchr(buf.data, 0x94, buf.len);   /* the one entry's header */
    HS_CHECK(e != NULL);
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), 0);
    HS_CHECK(!d.status_reply.has_cluster);
    HS_CHECK_INT(d.status_reply.num_worker_list, 1);
    HS_CHECK(!d.status_reply.worker_list[0].has_stats);
    HS_CHECK(d.status_reply.worker_list[0].engines == NULL);
    HS_CHECK(d.status_reply.worker_list[0].positions_done == 0);
    HS_CHECK_INT(d.status_reply.worker_list[0].tasks, 3);
    hs_wire_msg_fini(&d);
    hs_wire_buf_free(&buf);
}

/* An older client reads an entry's first 4 fields and skips the rest by the
 * entry's count, then skips the reply's fields past its 7th: the counts the
 * encoder writes must frame exactly what follows. Read here as such a client:
 * [8 fields] 1 type [jobs] workers total more [[entry...]] [cluster]. */
static void test_older_client(void)
{
    hs_wire_worker_info_t w[2] = { s_worker(true), s_worker(true) };
    hs_wire_msg_t m;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    s_reply(&m, w, 2, true);
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    hs_wire_reader_t r;
    hs_wire_reader_init(&r, buf.data, buf.len, &err);
    uint32_t nf = 0, n = 0, ef = 0;
    int64_t v;
    HS_CHECK_INT(hs_wire_read_array(&r, &nf), 0);
    HS_CHECK_INT(nf, 8);
    for (int k = 0; k < 6; k++)   /* version .. more */
        HS_CHECK_INT(hs_wire_skip(&r), 0);
    HS_CHECK_INT(hs_wire_read_array(&r, &n), 0);
    HS_CHECK_INT(n, 2);
    for (uint32_t i = 0; i < n; i++) {
        HS_CHECK_INT(hs_wire_read_array(&r, &ef), 0);
        HS_CHECK_INT(ef, 11);
        for (uint32_t k = 0; k < 3; k++)   /* name, nets, backend */
            HS_CHECK_INT(hs_wire_skip(&r), 0);
        HS_CHECK_INT(hs_wire_read_int(&r, &v), 0);
        HS_CHECK_INT(v, 3);                /* tasks */
        for (uint32_t k = 4; k < ef; k++)
            HS_CHECK_INT(hs_wire_skip(&r), 0);
    }
    HS_CHECK_INT(hs_wire_read_array(&r, &n), 0);   /* field 7: the cluster */
    HS_CHECK_INT(n, 5);
    for (uint32_t k = 0; k < n; k++)
        HS_CHECK_INT(hs_wire_skip(&r), 0);
    HS_CHECK(r.p == r.end);
    hs_wire_buf_free(&buf);
}

/* A copy of buf's body with one more byte, a nil, at the end (caller frees). */
static uint8_t *s_with_nil(const hs_wire_buf_t *buf)
{
    uint8_t *p = malloc(buf->len + 1);
    if (p) {
        memcpy(p, buf->data, buf->len);
        p[buf->len] = 0xc0;
    }
    return p;
}

/* A later minor revision appends to an entry and to the reply: skipped, and
 * what this revision knows still decodes (the rule older clients follow for the
 * fields added here). */
static void test_later_fields(void)
{
    hs_wire_worker_info_t w = s_worker(true);
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    s_reply(&m, &w, 1, false);   /* the entry is the body's last value */
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    uint8_t *p = s_with_nil(&buf);
    uint8_t *e = p ? memchr(p, 0x9b, buf.len) : NULL;   /* the entry: 11 fields */
    HS_CHECK(e != NULL);
    if (e) {
        *e = 0x9c;   /* 12 fields, the 12th the nil at the end */
        HS_CHECK_INT(hs_wire_decode(p, buf.len + 1, &d, &err), 0);
        HS_CHECK(d.status_reply.worker_list && d.status_reply.worker_list[0].has_stats);
        HS_CHECK(d.status_reply.worker_list && d.status_reply.worker_list[0].requeued == 2);
        hs_wire_msg_fini(&d);
    }
    free(p);

    s_reply(&m, &w, 1, true);   /* and a 9th field of the reply */
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    HS_CHECK_INT(buf.data[0], 0x98);
    p = s_with_nil(&buf);
    HS_CHECK(p != NULL);
    if (p) {
        p[0] = 0x99;
        HS_CHECK_INT(hs_wire_decode(p, buf.len + 1, &d, &err), 0);
        HS_CHECK(d.status_reply.has_cluster && d.status_reply.cluster.jobs_running == 2);
        hs_wire_msg_fini(&d);
    }
    free(p);
    hs_wire_buf_free(&buf);
}

static void test_refused(void)
{
    hs_wire_worker_info_t w = s_worker(true);
    hs_wire_msg_t m, d;
    hs_wire_buf_t buf = { 0 };
    hs_error_t err = { 0 };
    s_reply(&m, &w, 1, true);
    w.rate = NAN;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    w.rate = -1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    w.rate = 1;
    w.errors = -1;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    w.errors = 0;
    m.status_reply.cluster.uptime_ms = -5;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), HS_EINVAL);
    m.status_reply.cluster.uptime_ms = 5;
    HS_CHECK_INT(hs_wire_encode(&m, &buf, &err), 0);
    /* The decoder refuses a negative count: the uptime, the body's last byte. */
    HS_CHECK_INT(buf.data[buf.len - 1], 5);
    buf.data[buf.len - 1] = 0xff;   /* positive fixint 5 -> negative fixint -1 */
    HS_CHECK_INT(hs_wire_decode(buf.data, buf.len, &d, &err), HS_EPROTO);
    HS_CHECK(strstr(err.msg, "uptime") != NULL);
    hs_wire_buf_free(&buf);
}

int main(void)
{
    test_roundtrip();
    test_older_broker();
    test_older_client();
    test_later_fields();
    test_refused();
    return hs_test_finish();
}
