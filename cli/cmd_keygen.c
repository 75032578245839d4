/*
 * cli/cmd_keygen.c — `hyeongse keygen --out PREFIX [--force]`: a CURVE key
 * pair for the broker, a worker or a client (docs/SECURITY.md), written as
 * PREFIX.pub (0644) and PREFIX.key (0600).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/wire_curve.h"

const char hs_cmd_keygen_summary[] = "make a CURVE key pair: PREFIX.pub and PREFIX.key";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse keygen --out PREFIX [--force]\n\n"
            "Writes a new CURVE key pair: PREFIX.pub (the public key, mode 0644) and\n"
            "PREFIX.key (public and secret key, mode 0600, readable by its owner only).\n"
            "Give the .key to the program that owns it (`--key PREFIX.key`) and the .pub\n"
            "to the broker's allow-list (`--workers`, `--clients`, `--admins`) or, for\n"
            "the broker's own pair, to its workers and clients (`--server-key`).\n\n"
            "  --out PREFIX   where to write (PREFIX.pub and PREFIX.key)\n"
            "  --force        replace files that are there (default: refuse)\n"
            "  --config FILE  options from a file (\"option value\" lines)\n");
}

int hs_cmd_keygen(int argc, char **argv)
{
    static const struct option opts[] = {
        { "out", required_argument, 0, 'o' }, { "force", no_argument, 0, 'f' },
        { "help", no_argument, 0, 'h' },      { 0, 0, 0, 0 },
    };
    const char *prefix = NULL;
    bool force = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:fh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': prefix = optarg; break;
        case 'f': force = true; break;
        case 'h': s_usage(stdout); return 0;
        default: s_usage(stderr); return 2;
        }
    }
    if (!prefix || !*prefix || optind < argc) {
        s_usage(stderr);
        return 2;
    }
    hs_error_t err = { 0 };
    hs_curve_pair_t pair;
    if (hs_curve_keypair(&pair, &err) < 0 || hs_curve_write(prefix, &pair, force, &err) < 0) {
        fprintf(stderr, "hyeongse keygen: %s\n", err.msg);
        return 1;
    }
    printf("wrote %s.key (secret, mode 0600) and %s.pub (public, mode 0644)\n", prefix, prefix);
    printf("public key: %s\n", pair.public_key);
    memset(&pair, 0, sizeof pair);
    return 0;
}
