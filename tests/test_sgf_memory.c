/*
 * tests/test_sgf_memory.c — the SGF reader's memory is bounded by its limits,
 * not by the file (issue 11): a 45 MB file of 5.6 million one-move variations,
 * over the default node limit of 4 million, fails with HS_ELIMIT having
 * allocated little beyond its one copy of the text (before: ~550 MB of nodes,
 * allocated up to the limit). Measured as the growth of the peak resident size
 * (getrusage ru_maxrss) of a child process across the parse; the margin between
 * the bound checked (the text copy + 40 MB) and the old figure is an order of
 * magnitude, so the check does not depend on allocator details.
 * Also: the count that enforces the limit early skips ';' inside values (and
 * escaped ']'), so a file under the limit still parses.
 */
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/sgf.h"
#include "test.h"

static long s_maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* "(;GM[1]SZ[19]" + n x "(;B[aa])" + ")": n + 1 nodes in n + 1 bytes / 9. */
static char *s_variations(size_t n, size_t *len)
{
    static const char head[] = "(;GM[1]SZ[19]", var[] = "(;B[aa])";
    size_t h = sizeof head - 1, v = sizeof var - 1;
    *len = h + n * v + 1;
    char *s = malloc(*len + 1);
    if (!s)
        return NULL;
    memcpy(s, head, h);
    for (size_t i = 0; i < n; i++)
        memcpy(s + h + i * v, var, v);
    s[*len - 1] = ')';
    s[*len] = '\0';
    return s;
}

/* In a child: parse the file; exit 0 when HS_ELIMIT came with < bound KB of growth. */
static int s_child(size_t n)
{
    size_t len;
    char *text = s_variations(n, &len);
    if (!text)
        return 3;
    long before = s_maxrss_kb();
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(text, len, NULL, HS_SGF_RECOVER, &err);
    long grown = s_maxrss_kb() - before;
    long bound = (long)(len / 1024) + 40 * 1024;
    fprintf(stderr, "%zu variations (%zu bytes): %s, peak RSS grew by %ld KB (bound %ld KB)\n",
            n, len, c ? "parsed" : err.msg, grown, bound);
    int ok = !c && err.code == HS_ELIMIT && strstr(err.msg, "more than 4000000 nodes");
    hs_sgf_destroy(&c);
    free(text);
    return ok ? (grown < bound ? 0 : 1) : 2;
}

static void test_variations_over_the_node_limit(void)
{
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        _exit(s_child(5600000));
    int st = 0;
    HS_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
    HS_CHECK(WIFEXITED(st));
    HS_CHECK_INT(WEXITSTATUS(st), 0);   /* 1: too much memory, 2: not HS_ELIMIT */
}

static void test_census_skips_values(void)
{
    hs_sgf_limits_t lim;
    hs_sgf_limits_default(&lim);
    lim.max_nodes = 3;
    hs_error_t err;
    /* 3 nodes; 10 more ';' inside values, one behind an escaped ']'. */
    const char *ok = "(;C[;;;;;]GN[a\\];;;;;]\n;B[aa];W[bb])";
    hs_sgf_collection_t *c = hs_sgf_parse(ok, strlen(ok), &lim, &err);
    HS_CHECK(c != NULL);
    if (c)
        HS_CHECK_INT(c->trees[0].num_nodes, 3);
    hs_sgf_destroy(&c);
    /* 4 nodes: the 4th ';' is over the limit, on line 2, column 13. */
    const char *over = "(;C[;;;;;]\n;B[aa];W[bb];B[cc])";
    c = hs_sgf_parse(over, strlen(over), &lim, &err);
    HS_CHECK(c == NULL);
    HS_CHECK_INT(err.code, HS_ELIMIT);
    HS_CHECK(strstr(err.msg, "line 2, column 13") && strstr(err.msg, "more than 3 nodes"));
    if (!strstr(err.msg, "line 2, column 13"))
        fprintf(stderr, "message: %s\n", err.msg);
}

int main(void)
{
    test_census_skips_values();
    test_variations_over_the_node_limit();
    return hs_test_finish();
}
