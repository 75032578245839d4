/*
 * tests/test_curve_files.c — CURVE keys as files (core/wire_curve_files.c):
 * a pair written and read back with its modes whatever the umask, no
 * overwrite without force, a .key others may open refused (HS_EPERM, with
 * the fix), corrupt key files refused, public keys from .pub, .key and Z85
 * text, and allow-lists: names, "@file.pub" relative to the list, comments,
 * a key that begins with '@', duplicates kept once, several files merged,
 * errors naming file:line and a bad file adding nothing.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/wire_curve.h"
#include "test.h"

static char s_dir[] = "/tmp/hs-test-curve-files-XXXXXX";

static const char *s_path(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", s_dir, name);
    return buf[k];
}

static void s_write(const char *name, const char *text, mode_t mode)
{
    FILE *f = fopen(s_path(name), "w");
    HS_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    chmod(s_path(name), mode);
}

static unsigned s_mode(const char *name)
{
    struct stat st;
    return stat(s_path(name), &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0;
}

/* A pair whose public key begins with '@' (one in 85 does): an allow-list
 * must read such a line as a key, not as "@file". */
static int s_at_pair(hs_curve_pair_t *p)
{
    for (int i = 0; i < 20000; i++)
        if (hs_curve_keypair(p, NULL) == 0 && p->public_key[0] == '@')
            return 0;
    return -1;
}

static void test_write_read(void)
{
    hs_curve_pair_t p, q, r;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_curve_keypair(&p, &err), 0);
    /* Whatever the umask: the .key is the owner's only, the .pub readable. */
    mode_t old = umask(0);
    HS_CHECK_INT(hs_curve_write(s_path("a"), &p, false, &err), 0);
    umask(077);
    HS_CHECK_INT(hs_curve_write(s_path("b"), &p, false, &err), 0);
    umask(old);
    HS_CHECK_INT(s_mode("a.key"), 0600);
    HS_CHECK_INT(s_mode("a.pub"), 0644);
    HS_CHECK_INT(s_mode("b.key"), 0600);
    HS_CHECK_INT(s_mode("b.pub"), 0644);
    HS_CHECK_INT(hs_curve_read_pair(s_path("a"), &q, &err), 0);
    HS_CHECK_STR(q.public_key, p.public_key);
    HS_CHECK_STR(q.secret_key, p.secret_key);
    HS_CHECK_INT(hs_curve_read_pair(s_path("a.key"), &q, &err), 0);
    HS_CHECK_STR(q.secret_key, p.secret_key);

    /* No overwrite without force, and nothing changed by the refusal. */
    HS_CHECK_INT(hs_curve_keypair(&r, &err), 0);
    HS_CHECK_INT(hs_curve_write(s_path("a"), &r, false, &err), HS_EEXIST);
    HS_CHECK(strstr(err.msg, "a.key") != NULL);
    HS_CHECK_INT(hs_curve_read_pair(s_path("a"), &q, &err), 0);
    HS_CHECK_STR(q.public_key, p.public_key);
    /* Only the .pub there: still refused, and no .key left behind. */
    s_write("c.pub", "x\n", 0644);
    HS_CHECK_INT(hs_curve_write(s_path("c"), &r, false, &err), HS_EEXIST);
    HS_CHECK_INT(access(s_path("c.key"), F_OK), -1);
    HS_CHECK_INT(hs_curve_write(s_path("a"), &r, true, &err), 0);
    HS_CHECK_INT(hs_curve_read_pair(s_path("a"), &q, &err), 0);
    HS_CHECK_STR(q.public_key, r.public_key);

    char pub[HS_CURVE_KEY_LEN + 1];
    HS_CHECK_INT(hs_curve_read_public(s_path("a.pub"), pub, &err), 0);
    HS_CHECK_STR(pub, r.public_key);
    HS_CHECK_INT(hs_curve_read_public(s_path("a.key"), pub, &err), 0);
    HS_CHECK_STR(pub, r.public_key);
    HS_CHECK_INT(hs_curve_read_public(p.public_key, pub, &err), 0);
    HS_CHECK_STR(pub, p.public_key);
    HS_CHECK(hs_curve_read_public(s_path("nothing.pub"), pub, &err) < 0);
    HS_CHECK(hs_curve_read_public("tooshort", pub, &err) < 0);
}

static void test_refused(void)
{
    hs_curve_pair_t p, q, other;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_curve_keypair(&p, &err), 0);
    HS_CHECK_INT(hs_curve_keypair(&other, &err), 0);
    HS_CHECK_INT(hs_curve_write(s_path("open"), &p, false, &err), 0);
    const mode_t modes[] = { 0644, 0640, 0604, 0620 };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        chmod(s_path("open.key"), modes[i]);
        hs_error_clear(&err);
        HS_CHECK_INT(hs_curve_read_pair(s_path("open"), &q, &err), HS_EPERM);
        HS_CHECK(strstr(err.msg, "chmod 600") != NULL);
        HS_CHECK(strstr(err.msg, "open.key") != NULL);
    }
    chmod(s_path("open.key"), 0400);
    HS_CHECK_INT(hs_curve_read_pair(s_path("open"), &q, &err), 0);

    char text[256];
    snprintf(text, sizeof text, "public %s\nsecret %.39s\n", p.public_key, p.secret_key);
    s_write("short.key", text, 0600);
    HS_CHECK_INT(hs_curve_read_pair(s_path("short.key"), &q, &err), HS_EPARSE);
    HS_CHECK(strstr(err.msg, "short.key:2") != NULL);
    s_write("junk.key", "hello\n", 0600);
    HS_CHECK_INT(hs_curve_read_pair(s_path("junk.key"), &q, &err), HS_EPARSE);
    snprintf(text, sizeof text, "public %s\n", p.public_key);
    s_write("half.key", text, 0600);
    HS_CHECK_INT(hs_curve_read_pair(s_path("half.key"), &q, &err), HS_EPARSE);
    /* Halves of two pairs: each a valid key, together no pair. */
    snprintf(text, sizeof text, "public %s\nsecret %s\n", p.public_key, other.secret_key);
    s_write("mixed.key", text, 0600);
    HS_CHECK_INT(hs_curve_read_pair(s_path("mixed.key"), &q, &err), HS_EPARSE);
    HS_CHECK(strstr(err.msg, "does not belong") != NULL);
    s_write("bad.pub", "not a key at all\n", 0644);
    char pub[HS_CURVE_KEY_LEN + 1];
    HS_CHECK_INT(hs_curve_read_public(s_path("bad.pub"), pub, &err), HS_EPARSE);
    HS_CHECK_INT(hs_curve_read_pair(s_path("missing"), &q, &err), HS_EIO);
}

static void test_lists(void)
{
    hs_curve_pair_t a, b, c, h;
    hs_error_t err = { 0 };
    HS_CHECK_INT(hs_curve_keypair(&a, &err), 0);
    HS_CHECK_INT(hs_curve_keypair(&b, &err), 0);
    HS_CHECK_INT(hs_curve_keypair(&c, &err), 0);
    HS_CHECK_INT(s_at_pair(&h), 0);
    mkdir(s_path("keys"), 0755);
    HS_CHECK_INT(hs_curve_write(s_path("keys/w2"), &b, false, &err), 0);
    HS_CHECK_INT(hs_curve_write(s_path("keys/w3"), &c, false, &err), 0);
    char text[1024];
    snprintf(text, sizeof text,
             "# workers of the cluster\n"
             "\n"
             "%s gpu-1\n"
             "  @w2.pub\n"
             "@w3.pub  rack 4 node   # the third\n"
             "   # indented comment\n"
             "%s   # begins with '@'\n"
             "%s duplicate\n",
             a.public_key, h.public_key, a.public_key);
    s_write("keys/workers.list", text, 0644);
    hs_curve_list_t l = { 0 };
    HS_CHECK_INT(hs_curve_list_load(s_path("keys/workers.list"), &l, &err), 0);
    HS_CHECK_INT(l.n, 4);
    const hs_curve_entry_t *e = hs_curve_list_find(&l, a.public_key);
    HS_CHECK(e && !strcmp(e->name, "gpu-1"));
    e = hs_curve_list_find(&l, b.public_key);
    HS_CHECK(e && !strcmp(e->name, "w2"));
    e = hs_curve_list_find(&l, c.public_key);
    HS_CHECK(e && !strcmp(e->name, "rack 4 node"));
    e = hs_curve_list_find(&l, h.public_key);
    HS_CHECK(e && !strcmp(e->name, ""));

    /* A second file merged in; a bad one names its line and adds nothing. */
    hs_curve_pair_t d;
    HS_CHECK_INT(hs_curve_keypair(&d, &err), 0);
    snprintf(text, sizeof text, "%s client-d\n", d.public_key);
    s_write("clients.list", text, 0644);
    HS_CHECK_INT(hs_curve_list_load(s_path("clients.list"), &l, &err), 0);
    HS_CHECK_INT(l.n, 5);
    hs_curve_pair_t x;
    HS_CHECK_INT(hs_curve_keypair(&x, &err), 0);
    snprintf(text, sizeof text, "%s fine\n# ok\nnot-a-key here\n", x.public_key);
    s_write("bad.list", text, 0644);
    HS_CHECK_INT(hs_curve_list_load(s_path("bad.list"), &l, &err), HS_EPARSE);
    HS_CHECK(strstr(err.msg, "bad.list:3") != NULL);
    HS_CHECK_INT(l.n, 5);
    HS_CHECK(hs_curve_list_find(&l, x.public_key) == NULL);
    s_write("ref.list", "@nowhere.pub\n", 0644);
    HS_CHECK(hs_curve_list_load(s_path("ref.list"), &l, &err) < 0);
    HS_CHECK(strstr(err.msg, "ref.list:1") != NULL);
    HS_CHECK(strstr(err.msg, "nowhere.pub") != NULL);
    HS_CHECK(hs_curve_list_load(s_path("no.list"), &l, &err) < 0);
    hs_curve_list_free(&l);
}

int main(void)
{
    if (!hs_curve_available()) {
        printf("SKIP: this libzmq has no CURVE\n");
        return 77;
    }
    if (!mkdtemp(s_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_write_read();
    test_refused();
    test_lists();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    HS_CHECK_INT(system(cmd), 0);
    return hs_test_finish();
}
