/*
 * tests/fuzz/fuzz_netspecs.c — libFuzzer target for hs_net_specs
 * (worker/net_specs.h): the `--engines` list a user gives with `--net`.
 *
 * Properties checked on every input (NUL-terminated copy of the bytes), with
 * two nets' hashes and with none:
 *  - it returns 0, HS_EINVAL or HS_ELIMIT and never writes past out;
 *  - an accepted list comes back with every net engine's spec naming a net
 *    (name[@R]:net=<hash>), and expanding it again changes nothing (a spec
 *    that names its net passes as is).
 * Seeds in tests/fuzz/corpus/netspecs/.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/poskey.h"
#include "core/wire.h"
#include "worker/net_specs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether every net engine's spec of the comma list names a net by hash. */
static bool s_all_named(const char *list)
{
    for (const char *s = list;;) {
        size_t len = strcspn(s, ",");
        hs_engine_spec_t sp;
        hs_engine_spec_split(s, len, &sp);
        if (sp.name_len && hs_net_engine_name(s, sp.name_len)
            && (!sp.options || sp.options_len != 4 + HS_WIRE_NET_HASH_LEN
                || memcmp(sp.options, "net=", 4)
                || !hs_wire_net_hash_valid(sp.options + 4, HS_WIRE_NET_HASH_LEN)))
            return false;
        if (s[len] != ',')
            return true;
        s += len + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const hashes[] = { "0123456789abcdef0123456789abcdef",
                                          "fedcba9876543210fedcba9876543210" };
    if (size > 4096)
        return 0;
    char *list = malloc(size + 1);
    size_t room = 4 * size + 256;
    char *out = malloc(room), *again = malloc(room);
    if (!list || !out || !again)
        abort();
    memcpy(list, data, size);
    list[size] = '\0';
    for (int n = 0; n <= 2; n += 2) {
        bool used;
        int rc = hs_net_specs(list, hashes, n, out, room, &used, NULL);
        if (rc != 0 && rc != HS_EINVAL && rc != HS_ELIMIT)
            abort();
        if (rc != 0)
            continue;
        if (strlen(out) >= room || !s_all_named(out))
            abort();   /* a net engine left without its net */
        if (hs_net_specs(out, hashes, n, again, room, NULL, NULL) != 0 || strcmp(out, again))
            abort();   /* expanding twice is not expanding once */
    }
    free(list);
    free(out);
    free(again);
    return 0;
}
