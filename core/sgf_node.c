/*
 * core/sgf_node.c — read-only access to a parsed SGF collection (core/sgf.h):
 * roots, children, property and value lookup. Split from core/sgf.c, the
 * reader itself.
 */
#include "core/sgf.h"

#include <string.h>

const hs_sgf_node_t *hs_sgf_root(const hs_sgf_collection_t *c, int k)
{
    if (!c || k < 0 || k >= c->num_trees)
        return NULL;
    return c->trees[k].root;
}

const hs_sgf_node_t *hs_sgf_node_child(const hs_sgf_node_t *n, int k)
{
    if (!n || k < 0)
        return NULL;
    const hs_sgf_node_t *ch = n->first_child;
    while (ch && k-- > 0)
        ch = ch->next_sibling;
    return ch;
}

const hs_sgf_prop_t *hs_sgf_node_prop(const hs_sgf_node_t *n, const char *id)
{
    if (!n)
        return NULL;
    for (int i = 0; i < n->num_props; i++)
        if (n->props[i].id[0] == id[0] && !strcmp(n->props[i].id, id))
            return &n->props[i];
    return NULL;
}

const char *hs_sgf_node_value(const hs_sgf_node_t *n, const char *id)
{
    const hs_sgf_prop_t *p = hs_sgf_node_prop(n, id);
    return p ? p->values[0].text : NULL;
}

const char *hs_sgf_node_value_nonempty(const hs_sgf_node_t *n, const char *id)
{
    if (!n)
        return NULL;
    const char *found = NULL;
    for (int i = 0; i < n->num_props; i++) {
        if (strcmp(n->props[i].id, id))
            continue;
        if (n->props[i].values[0].len)
            return n->props[i].values[0].text;
        found = "";
    }
    return found;
}
