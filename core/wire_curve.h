/*
 * core/wire_curve.h — CurveZMQ keys for the cluster's TCP sockets: key pairs
 * made and stored as files, allow-lists of public keys, and the socket options
 * that turn CURVE on for the broker (server) and for workers and clients.
 *
 * Files (docs/SECURITY.md):
 *   PREFIX.pub   one line: the public key in Z85 (40 characters); mode 0644
 *   PREFIX.key   two lines: "public Z85", "secret Z85"; mode 0600, refused when
 *                group or others may read it (like ssh)
 *   allow-list   one key a line: "Z85 [name]"; '#' starts a comment; blank
 *                lines are skipped. A line may also name a .pub file instead of
 *                a key ("@path/to/w1.pub [name]", path relative to the list).
 *
 * Keys are kept as Z85 text (40 chars + NUL) everywhere: that is what files,
 * logs, the journal (a job's owner) and ZAP's User-Id carry.
 * Errors: HS_EIO (file), HS_EPARSE (not a key), HS_EPERM (a secret key file
 * others may read), HS_EUNSUPPORTED (libzmq built without CURVE), HS_ENOMEM.
 * No global state; thread-safe.
 */
#ifndef HS_CORE_WIRE_CURVE_H
#define HS_CORE_WIRE_CURVE_H

#include <stdbool.h>

#include "core/error.h"

#define HS_CURVE_KEY_LEN 40            /* Z85 characters of a 32-byte key */

typedef struct hs_curve_pair {
    char public_key[HS_CURVE_KEY_LEN + 1];
    char secret_key[HS_CURVE_KEY_LEN + 1];
} hs_curve_pair_t;

/* What a worker or a client needs to reach a CURVE broker: its own pair and
 * the broker's public key. */
typedef struct hs_curve_client {
    hs_curve_pair_t pair;
    char server_key[HS_CURVE_KEY_LEN + 1];
} hs_curve_client_t;

typedef struct hs_curve_entry {
    char key[HS_CURVE_KEY_LEN + 1];
    char name[64];                     /* "" when the line names none */
} hs_curve_entry_t;

/* An allow-list; sorted by key (hs_curve_list_find is a binary search). */
typedef struct hs_curve_list {
    hs_curve_entry_t *v;               /* malloc'd; free with hs_curve_list_free */
    int n;
} hs_curve_list_t;

/* Whether this libzmq speaks CURVE. */
bool hs_curve_available(void);

/* A fresh random key pair. 0, or HS_EUNSUPPORTED. */
int hs_curve_keypair(hs_curve_pair_t *out, hs_error_t *err);

/* Writes PREFIX.pub and PREFIX.key (0600, created exclusively unless force).
 * HS_EEXIST when a file is there and !force; HS_EIO. */
int hs_curve_write(const char *prefix, const hs_curve_pair_t *pair, bool force, hs_error_t *err);

/* Reads a key pair from PREFIX.key, or from PATH when it ends in ".key".
 * HS_EPERM when the file is readable by group or others. */
int hs_curve_read_pair(const char *path, hs_curve_pair_t *out, hs_error_t *err);

/* Reads a public key: a .pub file, or a .key file (its public line), or the
 * 40-character Z85 text itself. */
int hs_curve_read_public(const char *path_or_key, char out[HS_CURVE_KEY_LEN + 1], hs_error_t *err);

/* Whether s is 40 valid Z85 characters that decode to a key. */
bool hs_curve_key_valid(const char *s);

/* Loads an allow-list file into *out (appending to what it holds, so several
 * files can be merged; duplicates are kept once). HS_EPARSE names the line. */
int hs_curve_list_load(const char *path, hs_curve_list_t *out, hs_error_t *err);
/* Adds one key (and name, may be NULL) to *l. */
int hs_curve_list_add(hs_curve_list_t *l, const char *key, const char *name, hs_error_t *err);
/* The entry holding key, or NULL. */
const hs_curve_entry_t *hs_curve_list_find(const hs_curve_list_t *l, const char *key);
void hs_curve_list_free(hs_curve_list_t *l);

/* Socket options: a CURVE server with secret key pair->secret_key (sets
 * ZMQ_ZAP_DOMAIN "hyeongse" so that the broker's ZAP handler is asked), before
 * bind. HS_EIO with zmq's reason. */
int hs_curve_setup_server(void *sock, const hs_curve_pair_t *pair, hs_error_t *err);
/* A CURVE client of the server c->server_key, before connect. */
int hs_curve_setup_client(void *sock, const hs_curve_client_t *c, hs_error_t *err);

#endif
