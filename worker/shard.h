/*
 * worker/shard.h — the training samples' files (docs/LABELS.md, "Shards"):
 * `hyeongse label` writes them, the trainer (train/) and bench/ read them.
 *
 * A shard holds samples of one board size. Little-endian throughout.
 *   header, 64 bytes: magic "HSSHARD\n"; u32 version (1); u32 board size N;
 *     u32 planes P (HS_NN_SPATIAL); u32 record bytes R; u64 samples;
 *     u32 input set (hs_nn_input_set_t, 1); u32 CRC-32 (zlib's) of all
 *     records; zeros to 64 bytes.
 *   records, R = 16 + P * ceil(N*N/8) + N*N bytes each:
 *     u32 game     index of the game in the folder's index.json "games"
 *     u16 move     moves played before this position
 *     u8  to_move  1 Black, 2 White
 *     u8  flags    0 (reserved)
 *     i16 policy   the move played next: y*N+x, N*N for a pass, -1 none
 *     i8  value    +1 the side to move won the game, -1 lost, 0 drawn
 *     i8  reserved 0
 *     f32 score    the labelled final margin from the side to move's view, komi in
 *     planes       P planes of N*N bits, each plane ceil(N*N/8) bytes,
 *                  point i = y*N+x at byte i/8, bit i%8 (least significant first)
 *     ownership    N*N int8: the label from the side to move's view (+1 own
 *                  territory, -1 the opponent's, 0 stones, dame, seki)
 * A writer writes to PATH.tmp and renames it to PATH on close, so a shard
 * that exists is complete; a reader checks the header, the file's length and
 * the CRC before it hands out a sample.
 */
#ifndef HS_WORKER_SHARD_H
#define HS_WORKER_SHARD_H

#include <stdint.h>

#include "core/error.h"
#include "worker/nn/features.h"

#define HS_SHARD_MAGIC "HSSHARD\n"
#define HS_SHARD_VERSION 1
#define HS_SHARD_HEADER_BYTES 64
#define HS_SHARD_MAX_AREA (HS_NN_MAX_SIZE * HS_NN_MAX_SIZE)
#define HS_SHARD_PLANE_BYTES ((HS_SHARD_MAX_AREA + 7) / 8)

typedef struct hs_shard_sample {
    uint32_t game;
    uint16_t move;
    uint8_t to_move;                 /* HS_BLACK or HS_WHITE */
    int16_t policy;
    int8_t value;
    float score;
    /* planes[p][i]: 0 or 1 for point i = y*N+x (unpacked) */
    uint8_t planes[HS_NN_SPATIAL][HS_SHARD_MAX_AREA];
    int8_t owner[HS_SHARD_MAX_AREA];
} hs_shard_sample_t;

/* Record bytes for board size n. */
size_t hs_shard_record_bytes(int n);

/* Sets s->planes from spatial features (HS_NN_SPATIAL * n * n floats, 0 or 1;
 * anything non-zero counts as 1). */
void hs_shard_set_planes(hs_shard_sample_t *s, const float *spatial, int n);

typedef struct hs_shard_writer hs_shard_writer_t;

/* Creates PATH.tmp for samples of board size n (2..19). HS_EIO, HS_EINVAL, HS_ENOMEM. */
int hs_shard_writer_open(const char *path, int n, hs_shard_writer_t **out, hs_error_t *err);
/* Appends one sample. HS_EIO (disk full included), HS_EINVAL for a bad field. */
int hs_shard_write(hs_shard_writer_t *w, const hs_shard_sample_t *s, hs_error_t *err);
/* Samples written so far. */
uint64_t hs_shard_writer_count(const hs_shard_writer_t *w);
/* Writes the header (count, CRC), syncs and renames PATH.tmp to PATH; frees
 * *w and sets it NULL (also on error, when PATH.tmp is removed). */
int hs_shard_writer_close(hs_shard_writer_t **w, hs_error_t *err);
/* Frees *w and removes PATH.tmp (an abandoned shard). NULL-safe. */
void hs_shard_writer_abort(hs_shard_writer_t **w);

typedef struct hs_shard_reader hs_shard_reader_t;

/* Opens and checks a shard: magic, version, sizes, length, CRC. HS_EIO,
 * HS_EPARSE (not a shard), HS_EUNSUPPORTED (another version), HS_ECORRUPT
 * (length or CRC wrong), HS_ENOMEM. */
int hs_shard_open(const char *path, hs_shard_reader_t **out, hs_error_t *err);
int hs_shard_size(const hs_shard_reader_t *r);
uint64_t hs_shard_count(const hs_shard_reader_t *r);
/* Sample i (< count) into *s. HS_EINVAL for i out of range, HS_ECORRUPT for a
 * field out of its range. */
int hs_shard_read(const hs_shard_reader_t *r, uint64_t i, hs_shard_sample_t *s, hs_error_t *err);
/* NULL-safe. */
void hs_shard_close(hs_shard_reader_t **r);

#endif
