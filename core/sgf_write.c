/*
 * core/sgf_write.c — the SGF writer (declared in core/sgf.h).
 *
 * Writes a tree so that core/sgf.c reads back exactly the same tree: a chain of
 * single children is one sequence ";A;B;C", a node with several children opens
 * one "( ... )" per child. The walk is iterative (an explicit stack of "next
 * variation still to write" per open branching node), so a 100,000-deep OGS-style
 * tree cannot overflow the C stack. Values are escaped: ']' and '\' get a
 * backslash; nothing else changes (line breaks are written as they are, and the
 * reader keeps them).
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/sgf.h"

typedef hs_buf_t s_out_t;

static void s_put(s_out_t *o, const char *s, size_t n)
{
    hs_buf_put(o, s, n);
}

static void s_putc(s_out_t *o, char c)
{
    hs_buf_putc(o, c);
}

static void s_value(s_out_t *o, const char *v, size_t n)
{
    s_putc(o, '[');
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] == ']' || v[i] == '\\') {
            s_put(o, v + start, i - start);
            s_putc(o, '\\');
            start = i;
        }
    }
    s_put(o, v + start, n - start);
    s_putc(o, ']');
}

static void s_node(s_out_t *o, const hs_sgf_node_t *n)
{
    s_putc(o, ';');
    for (int i = 0; i < n->num_props; i++) {
        const hs_sgf_prop_t *p = &n->props[i];
        s_put(o, p->id, strlen(p->id));
        if (!strcmp(p->id, "CA")) {
            /* The collection's text is UTF-8 whatever the file said. */
            s_value(o, "UTF-8", 5);
            continue;
        }
        for (int k = 0; k < p->num_values; k++)
            s_value(o, p->values[k].text, p->values[k].len);
    }
}

static void s_tree(s_out_t *o, const hs_sgf_node_t *root)
{
    const hs_sgf_node_t **stack = NULL;
    size_t sp = 0, cap = 0;
    const hs_sgf_node_t *node = root;
    s_putc(o, '(');
    while (node && !o->err) {
        s_node(o, node);
        if (node->num_children == 1) {
            node = node->first_child;
            continue;
        }
        if (node->num_children > 1) {
            if (sp == cap) {
                size_t nc = cap ? cap * 2 : 64;
                const hs_sgf_node_t **ns = realloc(stack, nc * sizeof *ns);
                if (!ns) {
                    o->err = HS_ENOMEM;
                    break;
                }
                stack = ns;
                cap = nc;
            }
            stack[sp++] = node->first_child->next_sibling;
            /* No line break before '(': the reader treats "\n(;GM[" as a new game. */
            s_putc(o, '(');
            node = node->first_child;
            continue;
        }
        /* A leaf: close its sequence, then move to the next pending variation. */
        s_putc(o, ')');
        node = NULL;
        while (sp > 0) {
            const hs_sgf_node_t *next = stack[sp - 1];
            if (next) {
                stack[sp - 1] = next->next_sibling;
                s_putc(o, '(');
                node = next;
                break;
            }
            sp--;
            s_putc(o, ')');
        }
    }
    s_putc(o, '\n');
    free(stack);
}

static int s_finish(s_out_t *o, char **out, size_t *out_len, hs_error_t *err)
{
    if (hs_buf_take(o, out, out_len))
        return hs_error_set(err, HS_ENOMEM, "out of memory writing SGF");
    return 0;
}

int hs_sgf_write(const hs_sgf_collection_t *c, char **out, size_t *out_len, hs_error_t *err)
{
    s_out_t o = { 0 };
    for (int k = 0; k < c->num_trees; k++)
        if (c->trees[k].status == 0 && c->trees[k].root)
            s_tree(&o, c->trees[k].root);
    return s_finish(&o, out, out_len, err);
}

int hs_sgf_write_tree(const hs_sgf_node_t *root, char **out, size_t *out_len, hs_error_t *err)
{
    s_out_t o = { 0 };
    if (root)
        s_tree(&o, root);
    return s_finish(&o, out, out_len, err);
}
