/*
 * core/sgf_collection.c — the SGF reader's entry points and the collection's
 * life (core/sgf.h): limits, the charset conversion into the private text buffer
 * (or one copy of the input), the arena the trees live in, and destroy. The
 * grammar that fills the trees from the text is core/sgf.c (hs__sgf_read); what
 * the two share is core/sgf_internal.h. The design is described at the top of
 * core/sgf.c.
 */
#include "core/sgf_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/charset.h"

/* ---- arena ---------------------------------------------------------------- */

/* Slow path of hs__sgf_alloc: a new block (doubling, capped at 4 MiB). */
__attribute__((noinline)) void *hs__sgf_alloc_block(hs__sgf_internal_t *in, size_t size)
{
    hs__sgf_block_t *b = in->blocks;
    /* First block sized from the input (~24 bytes of nodes per input byte
     * for move records), so a small file costs one small malloc. */
    size_t cap = b ? b->cap * 2 : in->first_block;
    if (cap > 4 * 1024 * 1024)
        cap = 4 * 1024 * 1024;
    if (cap < size)
        cap = size;
    hs__sgf_block_t *nb = malloc(sizeof *nb + cap);
    if (!nb)
        return NULL;
    nb->next = b;
    nb->used = size;
    nb->cap = cap;
    in->blocks = nb;
    return nb->data;
}

/* ---- public API ----------------------------------------------------------- */

void hs_sgf_limits_default(hs_sgf_limits_t *l)
{
    l->max_file_size = 64u << 20;
    l->max_depth = 10000;
    l->max_nodes = 4000000;
    l->max_props_per_node = 10000;
    l->max_values_per_node = 100000;
    l->max_value_len = 4u << 20;
}

void hs_sgf_destroy(hs_sgf_collection_t **cp)
{
    if (!cp || !*cp)
        return;
    hs_sgf_collection_t *c = *cp;
    hs__sgf_internal_t *in = c->internal_;
    if (in) {
        hs__sgf_block_t *b = in->blocks;
        while (b) {
            hs__sgf_block_t *next = b->next;
            free(b);
            b = next;
        }
        free(in->text);
        free(in);
    }
    free(c->trees);
    free(c);
    *cp = NULL;
}

hs_sgf_collection_t *hs_sgf_parse(const char *data, size_t len, const hs_sgf_limits_t *limits,
                                  hs_error_t *err)
{
    return hs_sgf_parse_ex(data, len, limits, 0, err);
}

hs_sgf_collection_t *hs_sgf_parse_ex(const char *data, size_t len, const hs_sgf_limits_t *limits,
                                     unsigned flags, hs_error_t *err)
{
    hs_sgf_limits_t lim;
    if (limits)
        lim = *limits;
    else
        hs_sgf_limits_default(&lim);
    if (lim.max_depth < 1)
        lim.max_depth = 1;
    hs_error_clear(err);
    if (!data && len) {
        hs_error_set(err, HS_EINVAL, "no data");
        return NULL;
    }
    if (len > lim.max_file_size) {
        hs_error_set(err, HS_ELIMIT, "the file has %zu bytes, more than the limit of %zu", len,
                     lim.max_file_size);
        return NULL;
    }
    hs_sgf_collection_t *c = calloc(1, sizeof *c);
    hs__sgf_internal_t *in = calloc(1, sizeof *in);
    if (!c || !in)
        goto nomem;
    c->internal_ = in;
    c->charset = "UTF-8";
    size_t tlen = len;
    if (!(flags & HS_SGF_NO_CHARSET)) {
        char *conv = NULL;
        size_t clen = 0;
        int rc = hs_charset_sgf_to_utf8(data, len, lim.max_file_size, &conv, &clen,
                                        &c->charset, &c->num_replaced, err);
        if (rc)
            goto fail;
        if (conv) {
            in->text = conv;
            tlen = clen;
        }
    }
    if (!in->text) {
        in->text = malloc(len + 1);
        if (!in->text)
            goto nomem;
        if (len)
            memcpy(in->text, data, len);
        in->text[len] = '\0';
    }
    in->first_block = tlen < 170 ? 4096 : tlen > 170000 ? 4u << 20 : tlen * 24;
    if (hs__sgf_read(in, tlen, &lim, &c->trees, &c->num_trees, err))
        goto fail;
    if (c->num_trees == 0) {
        hs_error_set(err, HS_EPARSE, "no SGF game tree found (no \"(;\" in the input)");
        goto fail;
    }
    for (int k = 0; k < c->num_trees; k++) {
        if (!c->trees[k].status)
            continue;
        if (!c->num_failed)
            hs_error_set(err, c->trees[k].status, "%s", c->trees[k].message);
        c->num_failed++;
    }
    if (c->num_failed && !(flags & HS_SGF_RECOVER))
        goto fail;
    return c;
nomem:
    hs_error_set(err, HS_ENOMEM, "out of memory parsing SGF");
fail:
    if (c) {
        if (!c->internal_)
            free(in);
        hs_sgf_destroy(&c);
    } else {
        free(in);
    }
    return NULL;
}
