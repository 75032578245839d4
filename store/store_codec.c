/*
 * store/store_codec.c — the on-disk record format (docs/STORE.md): the CRC32C
 * every record ends with, the check every read goes through, and the compact
 * eval record (run/delta-coded maps, only the maps the store keeps).
 *
 * Why a codec of its own rather than the wire's MessagePack: the wire layout
 * spends 2 bytes a point on influence and a byte a point on every map whatever
 * it holds, and most maps are long runs (territory, dame, ±100 ownership).
 * Why checksums: LMDB checks pages for structure, not for flipped bytes inside
 * a value; without one a flipped ownership byte reads back as a wrong number.
 */
#include "store/store_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- CRC32C (Castagnoli, reflected 0x82F63B78): one table, a byte a step ---- */

static const uint32_t s_crc_table[256] = {
    0x00000000, 0xf26b8303, 0xe13b70f7, 0x1350f3f4, 0xc79a971f, 0x35f1141c,
    0x26a1e7e8, 0xd4ca64eb, 0x8ad958cf, 0x78b2dbcc, 0x6be22838, 0x9989ab3b,
    0x4d43cfd0, 0xbf284cd3, 0xac78bf27, 0x5e133c24, 0x105ec76f, 0xe235446c,
    0xf165b798, 0x030e349b, 0xd7c45070, 0x25afd373, 0x36ff2087, 0xc494a384,
    0x9a879fa0, 0x68ec1ca3, 0x7bbcef57, 0x89d76c54, 0x5d1d08bf, 0xaf768bbc,
    0xbc267848, 0x4e4dfb4b, 0x20bd8ede, 0xd2d60ddd, 0xc186fe29, 0x33ed7d2a,
    0xe72719c1, 0x154c9ac2, 0x061c6936, 0xf477ea35, 0xaa64d611, 0x580f5512,
    0x4b5fa6e6, 0xb93425e5, 0x6dfe410e, 0x9f95c20d, 0x8cc531f9, 0x7eaeb2fa,
    0x30e349b1, 0xc288cab2, 0xd1d83946, 0x23b3ba45, 0xf779deae, 0x05125dad,
    0x1642ae59, 0xe4292d5a, 0xba3a117e, 0x4851927d, 0x5b016189, 0xa96ae28a,
    0x7da08661, 0x8fcb0562, 0x9c9bf696, 0x6ef07595, 0x417b1dbc, 0xb3109ebf,
    0xa0406d4b, 0x522bee48, 0x86e18aa3, 0x748a09a0, 0x67dafa54, 0x95b17957,
    0xcba24573, 0x39c9c670, 0x2a993584, 0xd8f2b687, 0x0c38d26c, 0xfe53516f,
    0xed03a29b, 0x1f682198, 0x5125dad3, 0xa34e59d0, 0xb01eaa24, 0x42752927,
    0x96bf4dcc, 0x64d4cecf, 0x77843d3b, 0x85efbe38, 0xdbfc821c, 0x2997011f,
    0x3ac7f2eb, 0xc8ac71e8, 0x1c661503, 0xee0d9600, 0xfd5d65f4, 0x0f36e6f7,
    0x61c69362, 0x93ad1061, 0x80fde395, 0x72966096, 0xa65c047d, 0x5437877e,
    0x4767748a, 0xb50cf789, 0xeb1fcbad, 0x197448ae, 0x0a24bb5a, 0xf84f3859,
    0x2c855cb2, 0xdeeedfb1, 0xcdbe2c45, 0x3fd5af46, 0x7198540d, 0x83f3d70e,
    0x90a324fa, 0x62c8a7f9, 0xb602c312, 0x44694011, 0x5739b3e5, 0xa55230e6,
    0xfb410cc2, 0x092a8fc1, 0x1a7a7c35, 0xe811ff36, 0x3cdb9bdd, 0xceb018de,
    0xdde0eb2a, 0x2f8b6829, 0x82f63b78, 0x709db87b, 0x63cd4b8f, 0x91a6c88c,
    0x456cac67, 0xb7072f64, 0xa457dc90, 0x563c5f93, 0x082f63b7, 0xfa44e0b4,
    0xe9141340, 0x1b7f9043, 0xcfb5f4a8, 0x3dde77ab, 0x2e8e845f, 0xdce5075c,
    0x92a8fc17, 0x60c37f14, 0x73938ce0, 0x81f80fe3, 0x55326b08, 0xa759e80b,
    0xb4091bff, 0x466298fc, 0x1871a4d8, 0xea1a27db, 0xf94ad42f, 0x0b21572c,
    0xdfeb33c7, 0x2d80b0c4, 0x3ed04330, 0xccbbc033, 0xa24bb5a6, 0x502036a5,
    0x4370c551, 0xb11b4652, 0x65d122b9, 0x97baa1ba, 0x84ea524e, 0x7681d14d,
    0x2892ed69, 0xdaf96e6a, 0xc9a99d9e, 0x3bc21e9d, 0xef087a76, 0x1d63f975,
    0x0e330a81, 0xfc588982, 0xb21572c9, 0x407ef1ca, 0x532e023e, 0xa145813d,
    0x758fe5d6, 0x87e466d5, 0x94b49521, 0x66df1622, 0x38cc2a06, 0xcaa7a905,
    0xd9f75af1, 0x2b9cd9f2, 0xff56bd19, 0x0d3d3e1a, 0x1e6dcdee, 0xec064eed,
    0xc38d26c4, 0x31e6a5c7, 0x22b65633, 0xd0ddd530, 0x0417b1db, 0xf67c32d8,
    0xe52cc12c, 0x1747422f, 0x49547e0b, 0xbb3ffd08, 0xa86f0efc, 0x5a048dff,
    0x8ecee914, 0x7ca56a17, 0x6ff599e3, 0x9d9e1ae0, 0xd3d3e1ab, 0x21b862a8,
    0x32e8915c, 0xc083125f, 0x144976b4, 0xe622f5b7, 0xf5720643, 0x07198540,
    0x590ab964, 0xab613a67, 0xb831c993, 0x4a5a4a90, 0x9e902e7b, 0x6cfbad78,
    0x7fab5e8c, 0x8dc0dd8f, 0xe330a81a, 0x115b2b19, 0x020bd8ed, 0xf0605bee,
    0x24aa3f05, 0xd6c1bc06, 0xc5914ff2, 0x37faccf1, 0x69e9f0d5, 0x9b8273d6,
    0x88d28022, 0x7ab90321, 0xae7367ca, 0x5c18e4c9, 0x4f48173d, 0xbd23943e,
    0xf36e6f75, 0x0105ec76, 0x12551f82, 0xe03e9c81, 0x34f4f86a, 0xc69f7b69,
    0xd5cf889d, 0x27a40b9e, 0x79b737ba, 0x8bdcb4b9, 0x988c474d, 0x6ae7c44e,
    0xbe2da0a5, 0x4c4623a6, 0x5f16d052, 0xad7d5351,
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The SSE4.2 instruction: 8 bytes a step (a byte-a-step table was 1.3% of an
 * analyze run's CPU under perf). Same polynomial, same inverted state. */
__attribute__((target("sse4.2")))
static uint32_t s_crc_hw(uint32_t crc, const uint8_t *p, size_t n)
{
    uint64_t c = crc;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c = __builtin_ia32_crc32di(c, w);
    }
    crc = (uint32_t)c;
    for (; n; n--)
        crc = __builtin_ia32_crc32qi(crc, *p++);
    return crc;
}
#define S_CRC_HW 1
#endif

uint32_t hs__store_crc32c(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    crc = ~crc;
#ifdef S_CRC_HW
    if (__builtin_cpu_supports("sse4.2"))
        return ~s_crc_hw(crc, p, n);
#endif
    for (size_t i = 0; i < n; i++)
        crc = s_crc_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static void s_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t s_rdle32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- record envelope ---- */

void hs__store_key_text(const MDB_val *key, char *buf, size_t size)
{
    /* Keys are ids and hashes (hex says them best); long text keys are cut. */
    const uint8_t *p = key ? key->mv_data : NULL;
    size_t n = key ? key->mv_size : 0, o = 0;
    for (size_t i = 0; i < n && o + 3 <= size && i < 24; i++)
        o += (size_t)snprintf(buf + o, size - o, "%02x", p[i]);
    if (size)
        buf[o < size ? o : size - 1] = 0;
}

int hs__store_corrupt(hs_error_t *err, const char *table, const MDB_val *key,
                     const char *why)
{
    char kt[64];
    hs__store_key_text(key, kt, sizeof kt);
    return hs_error_set(err, HS_ECORRUPT, "corrupt record in %s, key %s: %s", table, kt, why);
}

int hs__store_rec_seal(uint8_t *rec, size_t len)
{
    /* The caller left 4 bytes free after len. */
    s_le32(rec + len, hs__store_crc32c(0, rec, len));
    return (int)(len + HS_STORE_REC_CRC);
}

int hs__store_rec_check(const MDB_val *v, const char *table, const MDB_val *key,
                       size_t *body_len, hs_error_t *err)
{
    const uint8_t *p = v->mv_data;
    if (v->mv_size < 1)
        return hs__store_corrupt(err, table, key, "empty value");
    if (p[0] == HS_STORE_REC_V1) {
        *body_len = v->mv_size;   /* the old format: no checksum to verify */
        return 0;
    }
    if (p[0] != HS_STORE_REC_V2) {
        char why[96];
        snprintf(why, sizeof why, "unknown record format %u (this program reads 1 and 2)", p[0]);
        return hs__store_corrupt(err, table, key, why);
    }
    if (v->mv_size < 1 + HS_STORE_REC_CRC)
        return hs__store_corrupt(err, table, key, "too short for its checksum");
    size_t n = v->mv_size - HS_STORE_REC_CRC;
    uint32_t want = s_rdle32(p + n), got = hs__store_crc32c(0, p, n);
    if (want != got) {
        char why[96];
        snprintf(why, sizeof why, "checksum mismatch (stored %08x, computed %08x)", want, got);
        return hs__store_corrupt(err, table, key, why);
    }
    *body_len = n;
    return 0;
}

/* Class letters with a code each (worker/judge.c's, PROTOCOL.md's, '?'). */
static const char s_class_codes[] = " .bwXOxos?BWy";

/* Letter -> code + 1 (0: not a code), and letter -> the ownership it implies
 * (the judge's ownership is this but for some dead stones, so the ownership
 * map is stored as its difference from it, nearly all zeros, when the record
 * keeps classes). Tables: these run for every point of every record. */
static const uint8_t s_code_of[256] = {
    [' '] = 1, ['.'] = 2, ['b'] = 3, ['w'] = 4, ['X'] = 5, ['O'] = 6, ['x'] = 7,
    ['o'] = 8, ['s'] = 9, ['?'] = 10, ['B'] = 11, ['W'] = 12, ['y'] = 13,
};
static const int8_t s_owner_of[256] = {
    ['b'] = 1, ['X'] = 1, ['o'] = 1, ['B'] = 1, ['y'] = 1,
    ['w'] = -1, ['O'] = -1, ['x'] = -1, ['W'] = -1,
};

static int s_class_code(char c) { return s_code_of[(uint8_t)c] - 1; }

static int32_t s_class_owner(char c)
{
    return s_owner_of[(uint8_t)c] * HS_WIRE_OWNERSHIP_SCALE;
}

/* Map kinds: value range of each. */
enum { S_MAP_OWN, S_MAP_INF, S_MAP_CLS, S_MAP_RESID };
static const int32_t s_map_lo[4] = { -HS_WIRE_OWNERSHIP_SCALE, INT16_MIN, 0,
                                     -2 * HS_WIRE_OWNERSHIP_SCALE };
static const int32_t s_map_hi[4] = { HS_WIRE_OWNERSHIP_SCALE, INT16_MAX,
                                     (int32_t)sizeof s_class_codes - 2,
                                     2 * HS_WIRE_OWNERSHIP_SCALE };
#define S_ENC_RAW 0
#define S_ENC_RESID 0x80u   /* ownership: values are differences from the classes' */

/* Writes one map: encoding byte, varint payload length, payload; the shortest of
 * the raw form and the coder's (docs/STORE.md, "Maps"). */
static size_t s_map_put(uint8_t *out, int kind, const int32_t *v, uint32_t nn,
                        const uint8_t *raw, size_t raw_len, uint8_t flag)
{
    uint8_t coded[3 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE + 80], enc = S_ENC_RAW;
    size_t cl = v ? hs__store_map_encode(v, nn, s_map_lo[kind], s_map_hi[kind], coded, &enc)
                  : SIZE_MAX;
    size_t o = 0;
    if (cl < raw_len || !raw) {
        out[o++] = enc | flag;
        o += hs_wire_put_varint(out + o, cl);
        memcpy(out + o, coded, cl);
        return o + cl;
    }
    out[o++] = S_ENC_RAW;
    o += hs_wire_put_varint(out + o, raw_len);
    memcpy(out + o, raw, raw_len);
    return o + raw_len;
}

/* ---- eval records ---- */

/* Offsets of the fixed part (docs/STORE.md). */
#define S_OFF_FLAGS 1
#define S_OFF_SIZE 2
#define S_OFF_KEY 3
#define S_OFF_ENGINE 19
#define S_FIXED 23

#define S_F_OWN 0x01u
#define S_F_INF 0x02u
#define S_F_CLS 0x04u
#define S_F_SCORE 0x08u
#define S_F_WIN 0x10u
#define S_F_RESULT 0x20u
#define S_F_ERROR 0x40u
#define S_F_EXT 0x80u      /* an extension byte follows the engine time */

/* Bits of the extension byte: the net engine's fields, then the tree
 * search's (a reader from before a bit refuses records with it: corrupt, never
 * misread). */
#define S_X_SPREAD 0x01u
#define S_X_POLICY 0x02u
#define S_X_SEARCH 0x04u
#define S_X_KNOWN (S_X_SPREAD | S_X_POLICY | S_X_SEARCH)

static size_t s_put_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    s_le32(p, u);
    return 4;
}

static size_t s_put_str(uint8_t *p, const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    size_t o = hs_wire_put_varint(p, n);
    memcpy(p + o, s, n);
    return o + n;
}

/* A map as its changes against the base's (its bytes), or 0 when there is no
 * base map or too much changed: a move changes a few points, a capture or a
 * settled group some dozens; past an eighth of the board the map is coded
 * whole (docs/STORE.md, "Change-coded maps"). */
static size_t s_put_chained(uint8_t *out, const void *cur, const void *base_map, uint32_t nn,
                            int width, uint64_t dist, bool *chained)
{
    size_t n = base_map && dist <= UINT32_MAX
                   ? hs__store_chain_put(out, cur, base_map, nn, width, dist, nn / 8) : 0;
    *chained |= n > 0;
    return n;
}

/* Classes, then ownership (as differences from the classes' when that is
 * shorter), then influence; each as its changes against base when it has one. */
static size_t s_put_maps(uint8_t *out, const hs_eval_t *e, unsigned flags, uint32_t nn,
                         const hs__store_base_t *base, uint64_t dist, bool *chained)
{
    int32_t v[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    const hs_eval_t *b = base ? base->e : &(hs_eval_t){ 0 };
    size_t o = 0, n;
    if ((flags & S_F_CLS) && (n = s_put_chained(out, e->classes, b->classes, nn, 1, dist, chained)))
        o += n;
    else if (flags & S_F_CLS) {
        bool codable = true;
        for (uint32_t i = 0; i < nn && codable; i++)
            codable = (v[i] = s_class_code(e->classes[i])) >= 0;
        o += s_map_put(out + o, S_MAP_CLS, codable ? v : NULL, nn,
                       (const uint8_t *)e->classes, nn, 0);
    }
    if ((flags & S_F_OWN)
        && (n = s_put_chained(out + o, e->ownership, b->ownership, nn, 1, dist, chained)))
        o += n;
    else if (flags & S_F_OWN) {
        /* With classes, the difference first: a few bytes for the judge, and
         * then the plain map need not be tried (a quarter of the encoding). */
        size_t n2 = SIZE_MAX;
        if (flags & S_F_CLS) {
            for (uint32_t i = 0; i < nn; i++)
                v[i] = e->ownership[i] - s_class_owner(e->classes[i]);
            n2 = s_map_put(out + o, S_MAP_RESID, v, nn, NULL, 0, S_ENC_RESID);
        }
        if (n2 > 16) {
            uint8_t a[HS_STORE_EVAL_MAX / 2];
            for (uint32_t i = 0; i < nn; i++)
                v[i] = e->ownership[i];
            size_t n1 = s_map_put(a, S_MAP_OWN, v, nn, (const uint8_t *)e->ownership, nn, 0);
            if (n1 < n2) {
                memcpy(out + o, a, n1);
                n2 = n1;
            }
        }
        o += n2;
    }
    if ((flags & S_F_INF)
        && (n = s_put_chained(out + o, e->influence, b->influence, nn, 2, dist, chained)))
        o += n;
    else if (flags & S_F_INF) {
        uint8_t raw[2 * HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
        for (uint32_t i = 0; i < nn; i++) {
            v[i] = e->influence[i];
            raw[2 * i] = (uint8_t)(uint16_t)e->influence[i];
            raw[2 * i + 1] = (uint8_t)((uint16_t)e->influence[i] >> 8);
        }
        o += s_map_put(out + o, S_MAP_INF, v, nn, raw, 2 * nn, 0);
    }
    return o;
}

/* The extension: its byte, the spread (float32 LE), the policy (a count byte,
 * then per move uint16 LE vertex and uint16 LE probability x 65535). */
static size_t s_put_ext(uint8_t *out, const hs_eval_t *e, unsigned x)
{
    size_t o = 0;
    out[o++] = (uint8_t)x;
    if (x & S_X_SPREAD)
        o += s_put_f32(out + o, e->score_stdev);
    if (x & S_X_POLICY) {
        out[o++] = (uint8_t)e->num_policy;
        for (int i = 0; i < e->num_policy; i++) {
            const uint16_t w[2] = { e->policy[i].vertex, e->policy[i].prob };
            for (int k = 0; k < 2; k++) {
                out[o++] = (uint8_t)w[k];
                out[o++] = (uint8_t)(w[k] >> 8);
            }
        }
    }
    if (x & S_X_SEARCH)
        o += hs_eval_search_put(e, out + o);
    return o;
}

static int s_get_f32(const uint8_t **pp, const uint8_t *end, float *out);

/* The extension of a record, checked: known bits only, a positive spread, 1..8
 * moves on the board. */
static int s_get_ext(const uint8_t **pp, const uint8_t *end, uint32_t nn, hs_eval_t *e)
{
    if (end - *pp < 1)
        return -1;
    unsigned x = *(*pp)++;
    if (!x || (x & ~S_X_KNOWN))
        return -1;
    if ((x & S_X_SPREAD) &&
        (s_get_f32(pp, end, &e->score_stdev) || !(e->score_stdev > 0)))
        return -1;
    if (x & S_X_POLICY) {
        if (end - *pp < 1)
            return -1;
        int n = *(*pp)++;
        if (n < 1 || n > HS_EVAL_POLICY_MAX || end - *pp < 4 * n)
            return -1;
        const uint8_t *p = *pp;
        for (int i = 0; i < n; i++, p += 4) {
            e->policy[i].vertex = (uint16_t)(p[0] | p[1] << 8);
            e->policy[i].prob = (uint16_t)(p[2] | p[3] << 8);
            if (e->policy[i].vertex != HS_GAME_PASS && e->policy[i].vertex >= nn)
                return -1;
        }
        e->num_policy = n;
        *pp = p;
    }
    if (x & S_X_SEARCH) {
        size_t used = hs_eval_search_get(*pp, end, e->size, e);
        if (!used)
            return -1;
        *pp += used;
    }
    return 0;
}

int hs__store_eval_encode(const hs_eval_t *e, unsigned maps, uint8_t *out, size_t *len,
                         hs_error_t *err)
{
    bool chained;
    return hs__store_eval_encode_on(e, maps, NULL, 0, out, len, &chained, err);
}

int hs__store_eval_encode_on(const hs_eval_t *e, unsigned maps, const hs__store_base_t *base,
                             uint64_t seq, uint8_t *out, size_t *len, bool *chained,
                             hs_error_t *err)
{
    *chained = false;
    if (base && (base->seq >= seq || base->e->engine_id != e->engine_id
                 || base->e->size != e->size))
        return hs_error_set(err, HS_EINVAL, "eval record: a base of another engine or size");
    if (e->size < HS_BOARD_MIN_SIZE || e->size > HS_BOARD_MAX_SIZE || e->engine_id == 0
        || e->move_number < 0 || e->move_number > HS_WIRE_MAX_MOVES)
        return hs_error_set(err, HS_EINVAL, "eval record: size, engine or move out of range");
    uint32_t nn = (uint32_t)(e->size * e->size);
    for (uint32_t i = 0; e->ownership && i < nn; i++)
        if (e->ownership[i] < -HS_WIRE_OWNERSHIP_SCALE || e->ownership[i] > HS_WIRE_OWNERSHIP_SCALE)
            return hs_error_set(err, HS_EINVAL, "eval record: ownership out of -100..100");
    if (e->classes && strlen(e->classes) != nn)
        return hs_error_set(err, HS_EINVAL, "eval record: classes must have size*size characters");
    unsigned f = 0;
    f |= e->ownership && (maps & HS_STORE_MAP_OWNERSHIP) ? S_F_OWN : 0;
    f |= e->influence && (maps & HS_STORE_MAP_INFLUENCE) ? S_F_INF : 0;
    f |= e->classes && (maps & HS_STORE_MAP_CLASSES) ? S_F_CLS : 0;
    f |= !isnan(e->score_lead) ? S_F_SCORE : 0;
    f |= !isnan(e->win_rate) ? S_F_WIN : 0;
    f |= e->result ? S_F_RESULT : 0;
    f |= e->error ? S_F_ERROR : 0;
    unsigned x = (e->score_stdev > 0 ? S_X_SPREAD : 0) | (e->num_policy > 0 ? S_X_POLICY : 0) |
                 (e->visits > 0 ? S_X_SEARCH : 0);
    if (e->visits > 0 && !hs_eval_search_valid(e))
        return hs_error_set(err, HS_EINVAL, "eval record: search fields out of range");
    f |= x ? S_F_EXT : 0;
    if (e->num_policy < 0 || e->num_policy > HS_EVAL_POLICY_MAX || !(e->score_stdev <= 1e6f))
        return hs_error_set(err, HS_EINVAL, "eval record: policy count or spread out of range");
    for (int i = 0; i < e->num_policy; i++)
        if (e->policy[i].vertex != HS_GAME_PASS && e->policy[i].vertex >= nn)
            return hs_error_set(err, HS_EINVAL, "eval record: policy move off the board");
    out[0] = HS_STORE_REC_V2;
    out[S_OFF_FLAGS] = (uint8_t)f;
    out[S_OFF_SIZE] = (uint8_t)e->size;
    memcpy(out + S_OFF_KEY, e->pos_key, 16);
    s_le32(out + S_OFF_ENGINE, e->engine_id);
    size_t o = S_FIXED;
    o += hs_wire_put_varint(out + o, (uint64_t)e->move_number);
    o += hs_wire_put_varint(out + o, e->timing_us);
    if (f & S_F_EXT)
        o += s_put_ext(out + o, e, x);
    if (f & S_F_SCORE)
        o += s_put_f32(out + o, e->score_lead);
    if (f & S_F_WIN)
        o += s_put_f32(out + o, e->win_rate);
    if (f & S_F_RESULT)
        o += s_put_str(out + o, e->result, HS_WIRE_MAX_NAME);
    if (f & S_F_ERROR)
        o += s_put_str(out + o, e->error, HS_WIRE_MAX_STR);
    o += s_put_maps(out + o, e, f, nn, base, base ? seq - base->seq : 0, chained);
    *len = (size_t)hs__store_rec_seal(out, o);
    return 0;
}

/* A length-prefixed string (<= max bytes, no NUL) copied into buf. */
static int s_get_str(const uint8_t **pp, const uint8_t *end, char *buf, uint32_t max,
                     char **out)
{
    uint32_t n;
    if (hs_wire_get_varint(pp, end, &n) || n > max || n > (size_t)(end - *pp) || memchr(*pp, 0, n))
        return -1;
    memcpy(buf, *pp, n);
    buf[n] = 0;
    *pp += n;
    *out = buf;
    return 0;
}

static int s_get_f32(const uint8_t **pp, const uint8_t *end, float *out)
{
    if (end - *pp < 4)
        return -1;
    uint32_t u = s_rdle32(*pp);
    memcpy(out, &u, 4);
    *pp += 4;
    return isfinite(*out) && fabsf(*out) <= 1e6f ? 0 : -1;
}

/* One map into v (values checked against the kind's range); *enc its encoding. */
static int s_map_get(const uint8_t **pp, const uint8_t *end, int kind, uint32_t nn,
                     int32_t *v, uint8_t *enc)
{
    uint32_t n;
    if (end - *pp < 1)
        return -1;
    *enc = *(*pp)++;
    if (hs_wire_get_varint(pp, end, &n) || n > (size_t)(end - *pp))
        return -1;
    const uint8_t *p = *pp, *q = p + n;
    *pp = q;
    if (*enc & S_ENC_RESID) {
        if (kind != S_MAP_OWN)
            return -1;
        kind = S_MAP_RESID;
    }
    if (*enc != S_ENC_RAW)
        return hs__store_map_decode(*enc & 0x7F, p, q, s_map_lo[kind], s_map_hi[kind], v, nn);
    if (kind == S_MAP_RESID || n != (kind == S_MAP_INF ? 2 * nn : nn))
        return -1;
    for (uint32_t i = 0; i < nn; i++) {
        if (kind == S_MAP_INF)
            v[i] = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
        else if (kind == S_MAP_OWN && ((v[i] = (int8_t)p[i]) < s_map_lo[0] || v[i] > s_map_hi[0]))
            return -1;
        else if (kind == S_MAP_CLS && (v[i] = p[i]) == 0)
            return -1;
    }
    return 0;
}

/* A record's way to the base of its change-coded maps (one base a record). */
typedef struct {
    hs__store_resolver_t *r;    /* NULL: no store to read bases from */
    const MDB_val *key;         /* the record's, its sequence number */
    uint64_t dist;              /* the record's sequence number minus its base's */
    const hs_eval_t *base;      /* NULL until the first change-coded map */
    int depth;                  /* the record's chain depth: the base's + 1 */
    int rc;                     /* the resolver's error, when it failed */
    hs_error_t *err;
} s_chain_rd_t;

/* A change-coded map of `kind` into dst: the base's map, its changes applied. */
static int s_map_chained(const uint8_t **pp, const uint8_t *end, s_chain_rd_t *ch,
                         const hs_eval_t *e, int kind, void *dst, uint32_t nn)
{
    uint32_t n;
    uint64_t dist;
    (*pp)++;
    if (hs_wire_get_varint(pp, end, &n) || n > (size_t)(end - *pp))
        return -1;
    const uint8_t *p = *pp, *q = p + n;
    *pp = q;
    if (hs__store_chain_dist(&p, q, &dist) || (ch->base && dist != ch->dist))
        return -1;
    if (!ch->base) {
        uint64_t seq = ch->key && ch->key->mv_size == 8 ? hs__rd64(ch->key->mv_data) : 0;
        if (!ch->r || dist >= seq)
            return -1;
        if ((ch->rc = hs__store_resolve(ch->r, seq - dist, &ch->base, &ch->depth, ch->err)))
            return -1;
        /* Read in order, a base comes from the resolver's memory: the depth, not
         * the recursion, is what bounds a single reader's walk. */
        if (++ch->depth >= HS__STORE_CHAIN_MAX) {
            ch->rc = hs__store_corrupt(ch->err, "evaldata", ch->key, "a chain of change-coded "
                                       "maps longer than " HS__STORE_CHAIN_MAX_TEXT " records");
            return -1;
        }
        ch->dist = dist;
        if (ch->base->engine_id != e->engine_id || ch->base->size != e->size)
            return -1;
    }
    const void *bm = kind == S_MAP_CLS   ? (const void *)ch->base->classes
                     : kind == S_MAP_OWN ? (const void *)ch->base->ownership
                                         : (const void *)ch->base->influence;
    int width = kind == S_MAP_INF ? 2 : 1;
    if (!bm)
        return -1;
    memcpy(dst, bm, (size_t)nn * (size_t)width);
    /* Classes: any letter but NUL, as in a raw map (its letters are its values). */
    return hs__store_chain_apply(p, q, dst, nn, width, kind == S_MAP_CLS ? 1 : s_map_lo[kind],
                                 kind == S_MAP_CLS ? 255 : s_map_hi[kind]);
}

static bool s_is_chained(const uint8_t *p, const uint8_t *end)
{
    return p < end && *p == HS_STORE_MAP_CHAIN;
}

/* The maps of a record whose flags say which are there (order: s_put_maps). */
static int s_get_maps(const uint8_t **pp, const uint8_t *end, unsigned f, uint32_t nn,
                      hs_eval_t *e, hs__store_eval_scratch_t *sc, s_chain_rd_t *ch)
{
    int32_t v[HS_BOARD_MAX_SIZE * HS_BOARD_MAX_SIZE];
    uint8_t enc;
    if ((f & S_F_CLS) && s_is_chained(*pp, end)) {
        if (s_map_chained(pp, end, ch, e, S_MAP_CLS, sc->classes, nn))
            return -1;
        sc->classes[nn] = 0;
        e->classes = sc->classes;
    } else if (f & S_F_CLS) {
        if (s_map_get(pp, end, S_MAP_CLS, nn, v, &enc))
            return -1;
        for (uint32_t i = 0; i < nn; i++)   /* raw: the letters; coded: the codes */
            sc->classes[i] = enc == S_ENC_RAW ? (char)v[i] : s_class_codes[v[i]];
        sc->classes[nn] = 0;
        e->classes = sc->classes;
    }
    if ((f & S_F_OWN) && s_is_chained(*pp, end)) {
        if (s_map_chained(pp, end, ch, e, S_MAP_OWN, sc->ownership, nn))
            return -1;
        e->ownership = sc->ownership;
    } else if (f & S_F_OWN) {
        if (s_map_get(pp, end, S_MAP_OWN, nn, v, &enc))
            return -1;
        if (enc & S_ENC_RESID && !(f & S_F_CLS))
            return -1;
        for (uint32_t i = 0; i < nn; i++) {
            int32_t x = v[i] + (enc & S_ENC_RESID ? s_class_owner(sc->classes[i]) : 0);
            if (x < s_map_lo[S_MAP_OWN] || x > s_map_hi[S_MAP_OWN])
                return -1;
            sc->ownership[i] = (int8_t)x;
        }
        e->ownership = sc->ownership;
    }
    if ((f & S_F_INF) && s_is_chained(*pp, end)) {
        if (s_map_chained(pp, end, ch, e, S_MAP_INF, sc->influence, nn))
            return -1;
        e->influence = sc->influence;
    } else if (f & S_F_INF) {
        if (s_map_get(pp, end, S_MAP_INF, nn, v, &enc))
            return -1;
        for (uint32_t i = 0; i < nn; i++)
            sc->influence[i] = (int16_t)v[i];
        e->influence = sc->influence;
    }
    return 0;
}

int hs__store_eval_decode(const MDB_val *key, const MDB_val *val, hs_eval_t *e,
                         hs__store_eval_scratch_t *sc, hs__store_resolver_t *r,
                         hs_error_t *err)
{
    s_chain_rd_t ch = { .r = r, .key = key, .err = err };
    memset(e, 0, sizeof *e);
    size_t n;
    int rc = hs__store_rec_check(val, "evaldata", key, &n, err);
    if (rc)
        return rc;
    const uint8_t *p = val->mv_data, *end = p + n, *q = p + S_FIXED;
    uint32_t mn, tu;
    unsigned f = n >= S_FIXED ? p[S_OFF_FLAGS] : 0xFF;
    e->size = n >= S_FIXED ? p[S_OFF_SIZE] : 0;
    if (e->size < HS_BOARD_MIN_SIZE || e->size > HS_BOARD_MAX_SIZE)
        goto bad;
    memcpy(e->pos_key, p + S_OFF_KEY, 16);
    e->engine_id = s_rdle32(p + S_OFF_ENGINE);
    e->score_lead = e->win_rate = NAN;
    if (e->engine_id == 0 || hs_wire_get_varint(&q, end, &mn) || mn > HS_WIRE_MAX_MOVES
        || hs_wire_get_varint(&q, end, &tu))
        goto bad;
    e->move_number = (int)mn;
    e->timing_us = tu;
    if ((f & S_F_EXT) && s_get_ext(&q, end, (uint32_t)(e->size * e->size), e))
        goto bad;
    if (((f & S_F_SCORE) && s_get_f32(&q, end, &e->score_lead))
        || ((f & S_F_WIN) && (s_get_f32(&q, end, &e->win_rate) || e->win_rate < 0
                              || e->win_rate > 1))
        || ((f & S_F_RESULT) && s_get_str(&q, end, sc->result, HS_WIRE_MAX_NAME, &e->result))
        || ((f & S_F_ERROR) && s_get_str(&q, end, sc->error, HS_WIRE_MAX_STR, &e->error))
        || s_get_maps(&q, end, f, (uint32_t)(e->size * e->size), e, sc, &ch) || q != end)
        goto bad;
    if (r)
        hs__store_resolver_decoded(r, ch.depth);
    return 0;
bad:
    memset(e, 0, sizeof *e);
    if (ch.rc)
        return ch.rc;   /* the base's own error (missing, corrupt, the store) */
    /* The checksum matched, so this is a writer's bug or a deliberate forgery,
     * not a flipped bit: still an error, never a guess. */
    return hs__store_corrupt(err, "evaldata", key, "malformed eval record");
}

int hs__store_eval_ident(const MDB_val *val, uint8_t pos_key[16], uint32_t *engine_id)
{
    const uint8_t *p = val->mv_data;
    size_t n;
    if (val->mv_size < S_FIXED + HS_STORE_REC_CRC || p[0] != HS_STORE_REC_V2
        || hs__store_rec_check(val, "evaldata", NULL, &n, NULL))
        return -1;
    memcpy(pos_key, p + S_OFF_KEY, 16);
    *engine_id = s_rdle32(p + S_OFF_ENGINE);
    return 0;
}

/* ---- the --maps setting ---- */

int hs_store_maps_parse(const char *list, unsigned *maps, hs_error_t *err)
{
    static const struct { const char *name; unsigned bits; } names[] = {
        { "ownership", HS_STORE_MAP_OWNERSHIP }, { "influence", HS_STORE_MAP_INFLUENCE },
        { "classes", HS_STORE_MAP_CLASSES }, { "all", HS_STORE_MAP_ALL }, { "none", 0 },
    };
    unsigned m = 0;
    const char *p = list;
    if (!p || !*p)
        return hs_error_set(err, HS_EINVAL, "--maps needs a list (ownership,influence,"
                                            "classes, all or none)");
    while (*p) {
        size_t n = strcspn(p, ",");
        size_t i = 0;
        while (i < sizeof names / sizeof names[0]
               && !(strlen(names[i].name) == n && !strncmp(names[i].name, p, n)))
            i++;
        if (i == sizeof names / sizeof names[0])
            return hs_error_set(err, HS_EINVAL, "--maps: unknown map '%.*s' (ownership, "
                                "influence, classes, all, none)", (int)n, p);
        m |= names[i].bits;
        p += n + (p[n] == ',');
    }
    *maps = m;
    return 0;
}

void hs_store_maps_name(unsigned maps, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s%s", maps & HS_STORE_MAP_OWNERSHIP ? "ownership," : "",
             maps & HS_STORE_MAP_INFLUENCE ? "influence," : "",
             maps & HS_STORE_MAP_CLASSES ? "classes," : "", maps ? "" : "none");
    size_t n = strlen(buf);
    if (n && buf[n - 1] == ',')
        buf[n - 1] = 0;
}
