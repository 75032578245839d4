/*
 * tests/fuzz/fuzz_journal.c — fuzz target for the broker journal's record
 * decoders (store/store_jobs.c: hs__store_decode_job, hs__store_decode_task).
 * The journal is read back from disk on every broker restart, so a damaged
 * record must come out as an error, never as a crash or as a task whose
 * numbers break the broker later.
 *
 * Input: byte 0 picks the record kind (low bit: 0 job, 1 task) and whether to
 * reseal (bit 1); bytes 1..8 are the key (the 8-byte id; fewer bytes make a
 * short key, which must be refused); the rest is the stored value (format
 * byte + MessagePack, docs/STORE.md). A format-2 value ends in a CRC32C that a
 * mutation almost never keeps right, so with bit 1 the target writes the
 * right CRC first: the decoder behind the check is fuzzed too, not only the
 * check.
 *
 * Properties checked on every input:
 *  - the decoder returns 0 or HS_ECORRUPT, and never reads out of bounds;
 *  - what it accepts has NUL-terminated strings, the id of the key, a known
 *    state, a chunk inside its chunks, and move numbers within the wire's
 *    limits, so hs_store_task_positions cannot overflow.
 * Seeds in tests/fuzz/corpus/journal/: real records of a store, written by
 * tests/fuzz/journal_seeds.c (see there).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check_str(const char *s, size_t size)
{
    if (strnlen(s, size) >= size)
        abort();   /* not terminated */
}

static void s_job(const MDB_val *k, const MDB_val *v)
{
    hs_store_job_t j;
    hs_error_t err;
    int rc = hs__store_decode_job(k, v, &j, &err);
    if (rc != 0 && rc != HS_ECORRUPT)
        abort();
    if (rc != 0)
        return;
    if (j.id != hs__rd64(k->mv_data) || j.state < HS_JOB_RUNNING || j.state > HS_JOB_FAILED)
        abort();   /* accepted an unknown job state */
    s_check_str(j.name, sizeof j.name);
    s_check_str(j.engines, sizeof j.engines);
    s_check_str(j.moves_spec, sizeof j.moves_spec);
    s_check_str(j.reason, sizeof j.reason);
}

static void s_task(const MDB_val *k, const MDB_val *v)
{
    hs_store_task_t t;
    hs_error_t err;
    int rc = hs__store_decode_task(k, v, &t, &err);
    if (rc != 0 && rc != HS_ECORRUPT)
        abort();
    if (rc != 0)
        return;
    if (t.id != hs__rd64(k->mv_data) || (unsigned)t.state >= HS_TASK_STATE_COUNT)
        abort();
    if (t.chunk < 0 || t.chunks < 0 || (t.chunks > 0 && t.chunk >= t.chunks))
        abort();
    if (t.move_first < 0 || t.move_last > HS_WIRE_MAX_MOVES || t.attempts < 0)
        abort();   /* numbers the broker would compute with */
    int n = hs_store_task_positions(&t);
    if (n < 0 || n > HS_WIRE_MAX_MOVES + 1)
        abort();
    s_check_str(t.reason, sizeof t.reason);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t klen = size - 1 < 8 ? size - 1 : 8;
    /* Exact-size copies, so that ASan catches a read past the key or value. */
    uint8_t *key = malloc(klen ? klen : 1), *val = malloc(size - 1 - klen ? size - 1 - klen : 1);
    if (!key || !val)
        abort();
    memcpy(key, data + 1, klen);
    memcpy(val, data + 1 + klen, size - 1 - klen);
    size_t vlen = size - 1 - klen;
    if ((data[0] & 2) && vlen > HS_STORE_REC_CRC && val[0] == HS_STORE_REC_V2)
        hs__store_rec_seal(val, vlen - HS_STORE_REC_CRC);
    MDB_val k = { .mv_size = klen, .mv_data = key };
    MDB_val v = { .mv_size = size - 1 - klen, .mv_data = val };
    if (data[0] & 1)
        s_task(&k, &v);
    else
        s_job(&k, &v);
    free(key);
    free(val);
    return 0;
}
