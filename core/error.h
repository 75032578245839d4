/*
 * core/error.h — the one table of error codes, and a small error record.
 *
 * Every fallible function in hyeongse returns an int: 0 on success or a negative
 * HS_E* code below. Functions that can say more about *why* also take an optional
 * `hs_error_t *err` (may be NULL) into which they write a human-readable message;
 * the code in the record always equals the value returned. Nothing here allocates.
 *
 * HS_ENOTFOUND is a lookup miss, not a failure (like LMDB's MDB_NOTFOUND): callers
 * test for it explicitly.
 */
#ifndef HS_CORE_ERROR_H
#define HS_CORE_ERROR_H

#include <stddef.h>

/* X(name, value, description). Values are stable: they may be stored and sent.
 * -12 is retired (it named a GPU error before any GPU code existed); the net
 * engine will give GPU failures a new value when it arrives. */
#define HS_ERROR_MAP(X)                                                         \
    X(HS_OK,          0,  "success")                                            \
    X(HS_ENOMEM,     -1,  "out of memory")                                      \
    X(HS_EINVAL,     -2,  "invalid argument")                                   \
    X(HS_ENOTFOUND,  -3,  "not found")                                          \
    X(HS_EIO,        -4,  "input/output error")                                 \
    X(HS_EPARSE,     -5,  "malformed input")                                    \
    X(HS_ELIMIT,     -6,  "a size limit was exceeded")                          \
    X(HS_EILLEGAL,   -7,  "illegal move")                                       \
    X(HS_EUNSUPPORTED, -8, "unsupported")                                       \
    X(HS_EBADSTATE,  -9,  "object is in a failed state")                        \
    X(HS_EPROTO,    -10,  "protocol error")                                     \
    X(HS_ESTORE,    -11,  "store error")                                        \
    X(HS_ETIMEOUT,  -13,  "timed out")                                          \
    X(HS_ECANCELED, -14,  "canceled")                                           \
    X(HS_EEXIST,    -15,  "already exists")                                     \
    X(HS_EFULL,     -16,  "full")                                               \
    X(HS_EAGAIN,    -17,  "try again")                                         \
    X(HS_ECORRUPT,  -18,  "corrupt data")                                       \
    X(HS_ENOSPC,    -19,  "no space left on device")                             \
    X(HS_EPERM,     -20,  "permission denied")

enum hs_error_code {
#define HS_ERROR_ENUM(name, value, desc) name = value,
    HS_ERROR_MAP(HS_ERROR_ENUM)
#undef HS_ERROR_ENUM
};

/* Size of the message buffer in an error record. Longer messages are truncated. */
#define HS_ERROR_MSG_MAX 512

typedef struct hs_error {
    int code;                     /* 0 or a negative HS_E* code */
    char msg[HS_ERROR_MSG_MAX];   /* NUL-terminated; "" when code == 0 */
} hs_error_t;

/* Description of a code ("out of memory"); never NULL, static storage. */
const char *hs_strerror(int code);

/* Name of a code ("HS_ENOMEM"); "HS_E?" for an unknown code. Static storage. */
const char *hs_err_name(int code);

/* Clears *err (code 0, empty message). err may be NULL. */
void hs_error_clear(hs_error_t *err);

/*
 * Records code and a printf-style message in *err (err may be NULL) and returns
 * code, so callers can write `return hs_error_set(err, HS_EPARSE, "...", ...)`.
 */
int hs_error_set(hs_error_t *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Prefixes the message already in *err with a printf-style context
 * ("file.sgf: " + old message). Returns err->code (or HS_EINVAL when err is NULL).
 */
int hs_error_prefix(hs_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
