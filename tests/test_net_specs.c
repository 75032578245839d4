/*
 * tests/test_net_specs.c — `--engines net --net FILE` (worker/net_specs.h):
 *   - hs_net_specs turns a net engine's bare spec into one spec per net,
 *     "name[@R]:net=<hash>", keeps a spec that names its net, copies the
 *     other engines as they are, and refuses a net engine without a net, a
 *     net= value that is not a hash and other options on a net engine;
 *   - hs_net_set_load reads the hand-made nets of the nnmodel fuzz corpus:
 *     the .bin and the .bin.gz of one net have one hash (of the uncompressed
 *     bytes) and are kept once; a missing or truncated file is refused with
 *     its path in the message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/wire.h"
#include "test.h"
#include "worker/net_specs.h"

#define S_H1 "0123456789abcdef0123456789abcdef"
#define S_H2 "fedcba9876543210fedcba9876543210"

/* hs_net_specs(list, hashes[0..n)) must give want (NULL: fail with code). */
static void s_expect(const char *list, int n, const char *want, int code, bool want_used)
{
    static const char *const hashes[] = { S_H1, S_H2 };
    char out[512];
    bool used = !want_used;
    hs_error_t err = { 0 };
    int rc = hs_net_specs(list, hashes, n, out, sizeof out, &used, &err);
    HS_CHECK_INT(rc, want ? 0 : code);
    if (want && rc == 0) {
        HS_CHECK_STR(out, want);
        HS_CHECK_INT(used, want_used);
    }
    if (!want && rc != 0)
        HS_CHECK(err.msg[0] != '\0');
}

static void s_test_specs(void)
{
    s_expect("net", 1, "net:net=" S_H1, 0, true);
    s_expect("net", 2, "net:net=" S_H1 ",net:net=" S_H2, 0, true);
    s_expect("judge,net@2,influence", 1, "judge,net@2:net=" S_H1 ",influence", 0, true);
    s_expect("judge-net", 1, "judge-net:net=" S_H1, 0, true);
    /* A spec that names its net passes as is, loaded here or not. */
    s_expect("net:net=" S_H2, 1, "net:net=" S_H2, 0, true);
    s_expect("net:net=" S_H2, 0, "net:net=" S_H2, 0, true);
    /* No net engine: copied unchanged (the canonical check comes next). */
    s_expect("judge,influence:tau=120", 1, "judge,influence:tau=120", 0, false);
    s_expect("network,judge-nets,,x", 0, "network,judge-nets,,x", 0, false);
    /* Refused. */
    s_expect("net", 0, NULL, HS_EINVAL, true);
    s_expect("judge,judge-net", 0, NULL, HS_EINVAL, true);
    s_expect("net:net=0123", 1, NULL, HS_EINVAL, true);
    s_expect("net:net=0123456789ABCDEF0123456789abcdef", 1, NULL, HS_EINVAL, true);
    s_expect("net:visits=3", 1, NULL, HS_EINVAL, true);
    s_expect("net:", 1, NULL, HS_EINVAL, true);
    s_expect("net@2x", 1, NULL, HS_EINVAL, true);   /* else "net@2x:net=<h>" grows again */
    s_expect("judge-net@", 1, NULL, HS_EINVAL, true);
    /* Too long for out. */
    char small[20];
    static const char *const one[] = { S_H1 };
    HS_CHECK_INT(hs_net_specs("net", one, 1, small, sizeof small, NULL, NULL), HS_ELIMIT);
    HS_CHECK_INT(hs_net_specs("judge,judge,judge,judge", one, 1, small, sizeof small, NULL, NULL),
                 HS_ELIMIT);
    HS_CHECK_INT(hs_net_specs("judge", one, 1, small, sizeof small, NULL, NULL), 0);
    HS_CHECK_STR(small, "judge");
    HS_CHECK(hs_net_engine_name("net", 3) && hs_net_engine_name("judge-net", 9));
    HS_CHECK(!hs_net_engine_name("judge", 5) && !hs_net_engine_name("ne", 2));
}

static void s_test_load(void)
{
    const char *own = hs_test_own_data_dir();
    char v8[1024], v8gz[1040], v11[1024], cut[] = "/tmp/hs-test-netspecs-XXXXXX";
    snprintf(v8, sizeof v8, "%s/../fuzz/corpus/nnmodel/tiny-v8.bin", own);
    snprintf(v8gz, sizeof v8gz, "%s.gz", v8);
    snprintf(v11, sizeof v11, "%s/../fuzz/corpus/nnmodel/tiny-v11.bin.gz", own);
    hs_net_set_t s = { 0 };
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_net_set_load(&s, v8gz, &err), 0);
    HS_CHECK_INT(hs_net_set_load(&s, v8, &err), 0);   /* the same bytes, unpacked */
    HS_CHECK_INT(s.n, 1);
    HS_CHECK_INT(hs_net_set_load(&s, v11, &err), 0);
    HS_CHECK_INT(s.n, 2);
    for (int i = 0; i < s.n; i++) {
        HS_CHECK(s.hashes[i] == s.models[i]->hash);
        HS_CHECK(hs_wire_net_hash_valid(s.hashes[i], strlen(s.hashes[i])));
    }
    if (s.n == 2)
        HS_CHECK(strcmp(s.hashes[0], s.hashes[1]) != 0);
    printf("tiny-v8 %s, tiny-v11 %s\n", s.n > 0 ? s.hashes[0] : "?", s.n > 1 ? s.hashes[1] : "?");

    /* Missing, and cut short: refused, the path named, the set unchanged. */
    HS_CHECK_INT(hs_net_set_load(&s, "/nonexistent/net.bin.gz", &err) < 0, 1);
    HS_CHECK(strstr(err.msg, "/nonexistent/net.bin.gz") != NULL);
    int fd = mkstemp(cut);
    FILE *in = fopen(v8, "rb");
    HS_CHECK(fd >= 0 && in != NULL);
    if (fd >= 0 && in) {
        char buf[1000];
        size_t n = fread(buf, 1, sizeof buf, in);
        HS_CHECK_INT(write(fd, buf, n) == (ssize_t)n, 1);
        close(fd);
        HS_CHECK_INT(hs_net_set_load(&s, cut, &err) < 0, 1);
        HS_CHECK(strstr(err.msg, cut) != NULL);
        unlink(cut);
    }
    if (in)
        fclose(in);
    HS_CHECK_INT(s.n, 2);
    hs_net_set_free(&s);
    HS_CHECK_INT(s.n, 0);
}

int main(void)
{
    s_test_specs();
    s_test_load();
    return hs_test_finish();
}
