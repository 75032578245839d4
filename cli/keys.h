/*
 * cli/keys.h — the --key/--server-key options of every command that connects
 * to a broker (worker, submit, status, cancel, query --broker), read into
 * CURVE keys one way for all of them (docs/SECURITY.md, "Keys and options").
 */
#ifndef HS_CLI_KEYS_H
#define HS_CLI_KEYS_H

#include <stdbool.h>

#include "broker/client.h"
#include "core/wire_curve.h"

/* getopt_long values of the two options (outside any short option's range)
 * and their table entries, for a command's `struct option` array. */
#define HS_CLI_OPT_KEY 0x4b01
#define HS_CLI_OPT_SERVER_KEY 0x4b02
#define HS_CLI_KEY_OPTIONS                                                        \
    { "key", required_argument, 0, HS_CLI_OPT_KEY },                              \
    { "server-key", required_argument, 0, HS_CLI_OPT_SERVER_KEY }

/* The help lines of the two options, for a command's usage text. */
#define HS_CLI_KEY_HELP                                                           \
    "  --key FILE        this program's key pair (PREFIX.key or PREFIX; made by\n"  \
    "                    `hyeongse keygen`): talk CURVE to the broker\n"            \
    "  --server-key K    the broker's public key: its .pub or .key file, or the\n"  \
    "                    40-character key itself (needed with --key)\n"

/* What the command line said (paths as given; NULL = not given). */
typedef struct hs_cli_keys {
    const char *key;
    const char *server_key;
} hs_cli_keys_t;

/*
 * A usage check, before anything is read or opened: --key without --server-key
 * (or the other way round) is a mistake on the command line, which every
 * command that connects answers with exit status 2. Returns 0 when both or
 * neither are given, else says why on stderr ("hyeongse CMD: --key needs
 * --server-key too ...") and returns 2, the status to exit with.
 */
int hs__cli_keys_check(const char *cmd, const hs_cli_keys_t *opts);

/*
 * Reads opts into *out for endpoint. Returns 1 (keys in *out), 0 (no keys:
 * plaintext; a tcp:// endpoint that is not loopback gets a one-line warning
 * "hyeongse CMD: warning: ..." on stderr, as the connection can then be read
 * on the network: the broker decides whether it answers), or a negative code
 * with the reason in *err: HS_EINVAL (an endpoint hs_client_endpoint_check
 * refuses, such as a tcp port out of range; --key without --server-key or the
 * other way round; --key naming a .pub file), or hs_curve_read_pair's and hs_curve_read_public's errors (a
 * file that cannot be read, is not a key, or is not private: HS_EPERM).
 */
int hs__cli_keys_load(const char *cmd, const hs_cli_keys_t *opts, const char *endpoint,
                      hs_curve_client_t *out, hs_error_t *err);

/* hs_curve_read_pair for --key PATH, which also says so when PATH is the public
 * half ("a.pub": the secret key file a.key is needed) instead of "cannot open
 * a.pub.key". 0 or hs_curve_read_pair's errors (HS_EINVAL for a .pub file). */
int hs__cli_read_pair(const char *path, hs_curve_pair_t *out, hs_error_t *err);

/* hs_client_new_curve with the keys of opts (hs__cli_keys_load), and a note on
 * stderr ("hyeongse CMD: no answer from the broker at ADDR in N s; trying K more
 * time(s) (WHY)", WHY what the client saw: hs_client_retry_fn) when a request
 * first has to be tried again, so that a wrong address or a stopped broker does
 * not look like a hang. cmd must outlive the client (a
 * string literal). 0 or a negative code with *err. */
int hs__cli_client_new(const char *cmd, const hs_cli_keys_t *opts, void *zmq_ctx,
                       const char *endpoint, int timeout_ms, int retries, hs_client_t **out,
                       hs_error_t *err);

/* Whether endpoint is tcp:// to this machine (127.x, localhost, ::1). */
bool hs__cli_endpoint_loopback(const char *endpoint);

#endif
