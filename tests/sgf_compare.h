/*
 * tests/sgf_compare.h — shared by the SGF tests: structural equality of two SGF
 * trees (same identifiers, values and children, in order), iterative so that
 * 100,000-deep trees compare without deep recursion, and a file slurper.
 */
#ifndef HS_TESTS_SGF_COMPARE_H
#define HS_TESTS_SGF_COMPARE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sgf.h"

/* CA is rewritten as one value, UTF-8, by the writer (CA is single-valued, and
 * the collection's text is UTF-8 whatever the file said), so neither its value
 * nor its number of values is compared. */
static inline int hs_test_node_equal(const hs_sgf_node_t *a, const hs_sgf_node_t *b)
{
    if (a->num_props != b->num_props || a->num_children != b->num_children)
        return 0;
    for (int i = 0; i < a->num_props; i++) {
        const hs_sgf_prop_t *pa = &a->props[i], *pb = &b->props[i];
        if (strcmp(pa->id, pb->id))
            return 0;
        if (!strcmp(pa->id, "CA"))
            continue;
        if (pa->num_values != pb->num_values)
            return 0;
        for (int k = 0; k < pa->num_values; k++)
            if (pa->values[k].len != pb->values[k].len ||
                memcmp(pa->values[k].text, pb->values[k].text, pa->values[k].len))
                return 0;
    }
    return 1;
}

/* 1 when the trees rooted at a and b are equal. */
static inline int hs_test_tree_equal(const hs_sgf_node_t *a, const hs_sgf_node_t *b)
{
    size_t cap = 1024, sp = 0;
    const hs_sgf_node_t **st = malloc(cap * 2 * sizeof *st);
    int ok = 1;
    st[sp * 2] = a;
    st[sp * 2 + 1] = b;
    sp++;
    while (sp && ok) {
        sp--;
        const hs_sgf_node_t *x = st[sp * 2], *y = st[sp * 2 + 1];
        if (!hs_test_node_equal(x, y)) {
            ok = 0;
            break;
        }
        const hs_sgf_node_t *cx = x->first_child, *cy = y->first_child;
        for (; cx && cy; cx = cx->next_sibling, cy = cy->next_sibling) {
            if (sp == cap) {
                cap *= 2;
                st = realloc(st, cap * 2 * sizeof *st);
            }
            st[sp * 2] = cx;
            st[sp * 2 + 1] = cy;
            sp++;
        }
        if (cx || cy)
            ok = 0;
    }
    free(st);
    return ok;
}

/* Reads a whole file into a malloc'd buffer (NUL-terminated); NULL on error. */
static inline char *hs_test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

#endif
