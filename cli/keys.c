/*
 * cli/keys.c — --key/--server-key read into CURVE keys (cli/keys.h).
 */
#include "keys.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool hs__cli_endpoint_loopback(const char *ep)
{
    if (!ep || strncmp(ep, "tcp://", 6) != 0)
        return false;
    const char *h = ep + 6;
    /* "tcp://IFACE;HOST:PORT" names a source first: the host is after ';'. */
    const char *semi = strchr(h, ';');
    if (semi)
        h = semi + 1;
    return !strncmp(h, "127.", 4) || !strncmp(h, "localhost:", 10) ||
           !strncmp(h, "[::1]:", 6) || !strncmp(h, "::1:", 4);
}

int hs__cli_read_pair(const char *path, hs_curve_pair_t *out, hs_error_t *err)
{
    int rc = hs_curve_read_pair(path, out, err);
    size_t n = path ? strlen(path) : 0;
    if (rc < 0 && n > 4 && !strcmp(path + n - 4, ".pub")) {
        /* hs_curve_read_pair took "a.pub" for a prefix and looked for
         * "a.pub.key": when there is none, the user gave the public half of a
         * key pair, and "cannot open a.pub.key" would not tell them. */
        char name[4096];
        snprintf(name, sizeof name, "%s.key", path);
        if (access(name, F_OK) != 0)
            rc = hs_error_set(err, HS_EINVAL, "%s is the public key file of a key pair; --key "
                              "needs its secret key file: %.*s.key (or the prefix %.*s)",
                              path, (int)(n - 4), path, (int)(n - 4), path);
    }
    return rc;
}

/* The message of a --key given without --server-key or the other way round. */
static int s_half(const hs_cli_keys_t *opts, hs_error_t *err)
{
    return hs_error_set(err, HS_EINVAL, "%s needs %s too (see docs/SECURITY.md)",
                        opts->key ? "--key" : "--server-key",
                        opts->key ? "--server-key (the broker's public key)"
                                  : "--key (this program's key pair)");
}

int hs__cli_keys_check(const char *cmd, const hs_cli_keys_t *opts)
{
    if (!opts->key == !opts->server_key)
        return 0;
    hs_error_t err = { 0 };
    s_half(opts, &err);
    fprintf(stderr, "hyeongse %s: %s\n", cmd, err.msg);
    return 2;
}

int hs__cli_keys_load(const char *cmd, const hs_cli_keys_t *opts, const char *endpoint,
                      hs_curve_client_t *out, hs_error_t *err)
{
    memset(out, 0, sizeof *out);
    /* Every command that connects comes here first: a wrong address is said
     * before anything is read or opened (libzmq would connect to port 34463
     * for 99999). */
    int rc = endpoint ? hs_client_endpoint_check(endpoint, strlen(endpoint), false, err) : 0;
    if (rc < 0)
        return rc;
    if (!opts->key && !opts->server_key) {
        if (endpoint && !strncmp(endpoint, "tcp://", 6) && !hs__cli_endpoint_loopback(endpoint))
            fprintf(stderr, "hyeongse %s: warning: no --key: the connection to %s is "
                    "plaintext (a broker with CURVE keys will not answer)\n", cmd, endpoint);
        return 0;
    }
    if (!opts->key || !opts->server_key)
        return s_half(opts, err);
    rc = hs__cli_read_pair(opts->key, &out->pair, err);
    if (rc == 0)
        rc = hs_curve_read_public(opts->server_key, out->server_key, err);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    return 1;
}

/* The first retry of a request says why the command seems to hang: a broker
 * that is down, or one that does not know this client's key. Later retries of
 * the same request stay quiet; its last gives up with the reason. */
static void s_retry_note(void *ctx, const char *endpoint, int attempt, int tries, int timeout_ms,
                         const char *why)
{
    if (attempt == 2)
        fprintf(stderr, "hyeongse %s: no answer from the broker at %s in %.1f s; trying %d more "
                "time(s) (%s)\n", (const char *)ctx, endpoint, timeout_ms / 1000.0, tries - 1,
                why);
}

int hs__cli_client_new(const char *cmd, const hs_cli_keys_t *opts, void *zmq_ctx,
                       const char *endpoint, int timeout_ms, int retries, hs_client_t **out,
                       hs_error_t *err)
{
    hs_curve_client_t keys;
    int rc = hs__cli_keys_load(cmd, opts, endpoint, &keys, err);
    if (rc >= 0)
        rc = hs_client_new_curve(out, zmq_ctx, endpoint, timeout_ms, retries,
                                 rc == 1 ? &keys : NULL, err);
    if (rc >= 0)   /* cmd: a string literal, which outlives the client */
        hs_client_set_retry_hook(*out, s_retry_note, (void *)cmd);
    memset(&keys, 0, sizeof keys);
    return rc < 0 ? rc : 0;
}
