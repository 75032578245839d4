/*
 * worker/shard.c — the training samples' files (format in shard.h and
 * docs/LABELS.md). The writer streams records to PATH.tmp with a zero
 * header, then writes the real header (count, CRC) and renames, so a shard
 * under its final name is always complete. The reader maps nothing: it reads
 * the whole file once (shards are tens of MB), checks it, and serves records
 * from memory, so a damaged file is refused before any sample is handed out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/board.h"
#include "worker/shard.h"

#define S_FIXED 16   /* the record's fixed fields before the planes */

struct hs_shard_writer {
    FILE *f;
    char *path, *tmp;
    int n;
    uint64_t count;
    uLong crc;
    unsigned char *rec;
};

struct hs_shard_reader {
    int n;
    uint64_t count;
    size_t rec_bytes;
    unsigned char *data;   /* the whole file */
};

static size_t s_plane_bytes(int n)
{
    return ((size_t)n * (size_t)n + 7) / 8;
}

size_t hs_shard_record_bytes(int n)
{
    return S_FIXED + HS_NN_SPATIAL * s_plane_bytes(n) + (size_t)n * (size_t)n;
}

void hs_shard_set_planes(hs_shard_sample_t *s, const float *spatial, int n)
{
    int a = n * n;
    for (int p = 0; p < HS_NN_SPATIAL; p++)
        for (int i = 0; i < a; i++)
            s->planes[p][i] = spatial[(size_t)p * (size_t)a + (size_t)i] != 0.0f;
}

static void s_put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void s_put32(unsigned char *p, uint32_t v) { s_put16(p, (uint16_t)v); s_put16(p + 2, (uint16_t)(v >> 16)); }
static void s_put64(unsigned char *p, uint64_t v) { s_put32(p, (uint32_t)v); s_put32(p + 4, (uint32_t)(v >> 32)); }
static uint16_t s_get16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t s_get32(const unsigned char *p) { return s_get16(p) | ((uint32_t)s_get16(p + 2) << 16); }
static uint64_t s_get64(const unsigned char *p) { return s_get32(p) | ((uint64_t)s_get32(p + 4) << 32); }

static void s_header(unsigned char *h, int n, uint64_t count, uint32_t crc)
{
    memset(h, 0, HS_SHARD_HEADER_BYTES);
    memcpy(h, HS_SHARD_MAGIC, 8);
    s_put32(h + 8, HS_SHARD_VERSION);
    s_put32(h + 12, (uint32_t)n);
    s_put32(h + 16, HS_NN_SPATIAL);
    s_put32(h + 20, (uint32_t)hs_shard_record_bytes(n));
    s_put64(h + 24, count);
    s_put32(h + 32, HS_NN_INPUT_HS_V1);
    s_put32(h + 36, crc);
}

static void s_writer_free(hs_shard_writer_t *w)
{
    if (w->f)
        fclose(w->f);
    free(w->path); free(w->tmp); free(w->rec); free(w);
}

int hs_shard_writer_open(const char *path, int n, hs_shard_writer_t **out, hs_error_t *err)
{
    *out = NULL;
    if (n < 2 || n > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "shard: board size %d (2..%d)", n, HS_NN_MAX_SIZE);
    hs_shard_writer_t *w = calloc(1, sizeof *w);
    size_t len = strlen(path);
    if (w) {
        w->path = strdup(path);
        w->tmp = malloc(len + 5);
        w->rec = malloc(hs_shard_record_bytes(n));
    }
    if (!w || !w->path || !w->tmp || !w->rec) {
        if (w) s_writer_free(w);
        return hs_error_set(err, HS_ENOMEM, "shard: out of memory");
    }
    memcpy(w->tmp, path, len);
    memcpy(w->tmp + len, ".tmp", 5);
    w->n = n;
    w->crc = crc32(0L, Z_NULL, 0);
    unsigned char h[HS_SHARD_HEADER_BYTES];
    s_header(h, n, 0, 0);
    w->f = fopen(w->tmp, "wb");
    if (!w->f || fwrite(h, sizeof h, 1, w->f) != 1) {
        int e = errno;
        if (w->f) remove(w->tmp);
        s_writer_free(w);
        return hs_error_set(err, HS_EIO, "shard: cannot write %s.tmp: %s", path, strerror(e));
    }
    *out = w;
    return 0;
}

static int s_check_sample(const hs_shard_sample_t *s, int n, hs_error_t *err)
{
    int a = n * n;
    if (s->to_move != HS_BLACK && s->to_move != HS_WHITE)
        return hs_error_set(err, HS_EINVAL, "shard: colour to move %d", s->to_move);
    if (s->policy < -1 || s->policy > a)
        return hs_error_set(err, HS_EINVAL, "shard: policy %d out of range", s->policy);
    if (s->value < -1 || s->value > 1)
        return hs_error_set(err, HS_EINVAL, "shard: value %d out of range", s->value);
    for (int i = 0; i < a; i++)
        if (s->owner[i] < -1 || s->owner[i] > 1)
            return hs_error_set(err, HS_EINVAL, "shard: ownership %d at %d", s->owner[i], i);
    return 0;
}

static void s_pack(const hs_shard_sample_t *s, int n, unsigned char *r)
{
    size_t a = (size_t)n * (size_t)n, pb = s_plane_bytes(n);
    uint32_t score_bits;
    memcpy(&score_bits, &s->score, 4);
    s_put32(r, s->game);
    s_put16(r + 4, s->move);
    r[6] = s->to_move;
    r[7] = 0;
    s_put16(r + 8, (uint16_t)s->policy);
    r[10] = (unsigned char)s->value;
    r[11] = 0;
    s_put32(r + 12, score_bits);
    unsigned char *pl = r + S_FIXED;
    memset(pl, 0, HS_NN_SPATIAL * pb);
    for (int p = 0; p < HS_NN_SPATIAL; p++)
        for (size_t i = 0; i < a; i++)
            if (s->planes[p][i])
                pl[(size_t)p * pb + i / 8] |= (unsigned char)(1u << (i % 8));
    memcpy(pl + HS_NN_SPATIAL * pb, s->owner, a);
}

int hs_shard_write(hs_shard_writer_t *w, const hs_shard_sample_t *s, hs_error_t *err)
{
    int rc = s_check_sample(s, w->n, err);
    if (rc)
        return rc;
    size_t rb = hs_shard_record_bytes(w->n);
    s_pack(s, w->n, w->rec);
    if (fwrite(w->rec, rb, 1, w->f) != 1)
        return hs_error_set(err, HS_EIO, "shard: cannot write %s.tmp: %s", w->path, strerror(errno));
    w->crc = crc32(w->crc, w->rec, (uInt)rb);
    w->count++;
    return 0;
}

uint64_t hs_shard_writer_count(const hs_shard_writer_t *w)
{
    return w->count;
}

int hs_shard_writer_close(hs_shard_writer_t **wp, hs_error_t *err)
{
    hs_shard_writer_t *w = *wp;
    *wp = NULL;
    if (!w)
        return 0;
    unsigned char h[HS_SHARD_HEADER_BYTES];
    s_header(h, w->n, w->count, (uint32_t)w->crc);
    int ok = fflush(w->f) == 0 && fseek(w->f, 0, SEEK_SET) == 0 && fwrite(h, sizeof h, 1, w->f) == 1
             && fflush(w->f) == 0 && fsync(fileno(w->f)) == 0;
    int e = errno;
    ok = fclose(w->f) == 0 && ok;
    w->f = NULL;
    if (ok && rename(w->tmp, w->path) != 0) {
        e = errno;
        ok = 0;
    }
    int rc = 0;
    if (!ok) {
        remove(w->tmp);
        rc = hs_error_set(err, HS_EIO, "shard: cannot finish %s: %s", w->path, strerror(e));
    }
    s_writer_free(w);
    return rc;
}

void hs_shard_writer_abort(hs_shard_writer_t **wp)
{
    hs_shard_writer_t *w = *wp;
    *wp = NULL;
    if (!w)
        return;
    fclose(w->f);
    w->f = NULL;
    remove(w->tmp);
    s_writer_free(w);
}

static int s_read_all(const char *path, unsigned char **data, size_t *len, hs_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hs_error_set(err, HS_EIO, "shard: cannot open %s: %s", path, strerror(errno));
    long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    unsigned char *buf = end >= 0 ? malloc(end ? (size_t)end : 1) : NULL;
    int ok = end >= 0 && buf && fseek(f, 0, SEEK_SET) == 0
             && fread(buf, 1, (size_t)end, f) == (size_t)end;
    fclose(f);
    if (!ok) {
        free(buf);
        return hs_error_set(err, end < 0 ? HS_EIO : buf ? HS_EIO : HS_ENOMEM,
                            "shard: cannot read %s", path);
    }
    *data = buf;
    *len = (size_t)end;
    return 0;
}

static int s_check_header(const char *path, const unsigned char *d, size_t len,
                          hs_shard_reader_t *r, hs_error_t *err)
{
    if (len < HS_SHARD_HEADER_BYTES || memcmp(d, HS_SHARD_MAGIC, 8) != 0)
        return hs_error_set(err, HS_EPARSE, "shard: %s is not a shard (no HSSHARD header)", path);
    uint32_t version = s_get32(d + 8), n = s_get32(d + 12), planes = s_get32(d + 16);
    if (version != HS_SHARD_VERSION)
        return hs_error_set(err, HS_EUNSUPPORTED, "shard: %s has format version %u (this "
                            "program reads %d)", path, version, HS_SHARD_VERSION);
    if (n < 2 || n > HS_NN_MAX_SIZE || planes != HS_NN_SPATIAL
        || s_get32(d + 20) != hs_shard_record_bytes((int)n) || s_get32(d + 32) != HS_NN_INPUT_HS_V1)
        return hs_error_set(err, HS_ECORRUPT, "shard: %s: bad header (size %u, planes %u)",
                            path, n, planes);
    r->n = (int)n;
    r->count = s_get64(d + 24);
    r->rec_bytes = hs_shard_record_bytes(r->n);
    size_t body = len - HS_SHARD_HEADER_BYTES;
    if (r->count != body / r->rec_bytes || body % r->rec_bytes != 0)
        return hs_error_set(err, HS_ECORRUPT, "shard: %s: %llu samples promised, %zu bytes "
                            "of records present (truncated?)", path,
                            (unsigned long long)r->count, body);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < body; off += 1u << 30) {
        size_t chunk = body - off < (1u << 30) ? body - off : (1u << 30);
        crc = crc32(crc, d + HS_SHARD_HEADER_BYTES + off, (uInt)chunk);
    }
    if ((uint32_t)crc != s_get32(d + 36))
        return hs_error_set(err, HS_ECORRUPT, "shard: %s: checksum mismatch", path);
    return 0;
}

int hs_shard_open(const char *path, hs_shard_reader_t **out, hs_error_t *err)
{
    *out = NULL;
    hs_shard_reader_t *r = calloc(1, sizeof *r);
    if (!r)
        return hs_error_set(err, HS_ENOMEM, "shard: out of memory");
    size_t len = 0;
    int rc = s_read_all(path, &r->data, &len, err);
    if (!rc)
        rc = s_check_header(path, r->data, len, r, err);
    if (rc) {
        hs_shard_close(&r);
        return rc;
    }
    *out = r;
    return 0;
}

int hs_shard_size(const hs_shard_reader_t *r)
{
    return r->n;
}

uint64_t hs_shard_count(const hs_shard_reader_t *r)
{
    return r->count;
}

int hs_shard_read(const hs_shard_reader_t *r, uint64_t i, hs_shard_sample_t *s, hs_error_t *err)
{
    if (i >= r->count)
        return hs_error_set(err, HS_EINVAL, "shard: sample %llu of %llu",
                            (unsigned long long)i, (unsigned long long)r->count);
    const unsigned char *d = r->data + HS_SHARD_HEADER_BYTES + i * r->rec_bytes;
    size_t a = (size_t)r->n * (size_t)r->n, pb = s_plane_bytes(r->n);
    uint32_t score_bits = s_get32(d + 12);
    s->game = s_get32(d);
    s->move = s_get16(d + 4);
    s->to_move = d[6];
    s->policy = (int16_t)s_get16(d + 8);
    s->value = (int8_t)d[10];
    memcpy(&s->score, &score_bits, 4);
    const unsigned char *pl = d + S_FIXED;
    for (int p = 0; p < HS_NN_SPATIAL; p++)
        for (size_t k = 0; k < a; k++)
            s->planes[p][k] = (pl[(size_t)p * pb + k / 8] >> (k % 8)) & 1u;
    memcpy(s->owner, pl + HS_NN_SPATIAL * pb, a);
    int rc = s_check_sample(s, r->n, NULL);
    return rc ? hs_error_set(err, HS_ECORRUPT, "shard: sample %llu has a field out of range",
                             (unsigned long long)i) : 0;
}

void hs_shard_close(hs_shard_reader_t **rp)
{
    hs_shard_reader_t *r = *rp;
    *rp = NULL;
    if (!r)
        return;
    free(r->data);
    free(r);
}
