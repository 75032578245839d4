/*
 * core/sgf_internal.h — what the SGF reader's two files share (not a public
 * API): the collection's private part, the text buffer and the arena its trees
 * live in, and the grammar's entry point. core/sgf_collection.c owns the
 * collection (the public entry points, charset conversion, the arena's blocks,
 * destroy); core/sgf.c reads the text into trees. hs__ names are internal.
 */
#ifndef HS_CORE_SGF_INTERNAL_H
#define HS_CORE_SGF_INTERNAL_H

#include <stddef.h>

#include "core/sgf.h"

/* ---- arena ---------------------------------------------------------------- */

typedef struct hs__sgf_block {
    struct hs__sgf_block *next;
    size_t used, cap;
    max_align_t data[];
} hs__sgf_block_t;

/* What hs_sgf_collection_t.internal_ points at. */
typedef struct hs__sgf_internal {
    char *text;                /* the (converted) text; values point into it */
    hs__sgf_block_t *blocks;   /* arena, newest first */
    size_t first_block;        /* size of the first arena block */
} hs__sgf_internal_t;

/* Slow path of hs__sgf_alloc: a new block (doubling, capped at 4 MiB). NULL when
 * out of memory. Freed with the collection (hs_sgf_destroy). */
void *hs__sgf_alloc_block(hs__sgf_internal_t *in, size_t size);

/* Bump allocation, 16-byte aligned; called twice per node, so inline. */
static inline void *hs__sgf_alloc(hs__sgf_internal_t *in, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    hs__sgf_block_t *b = in->blocks;
    if (__builtin_expect(!b || b->cap - b->used < size, 0))
        return hs__sgf_alloc_block(in, size);
    void *p = (char *)b->data + b->used;
    b->used += size;
    return p;
}

/* ---- the grammar: core/sgf.c ---- */

/*
 * Reads the game trees of in->text[0..len) (NUL-terminated, writable: values are
 * unescaped in place) with limits *lim (max_depth >= 1), nodes and values in
 * in's arena. On success *trees (malloc'd, *num_trees entries, possibly 0; broken
 * trees carry their status and message) and 0. On a fatal error (a limit on the
 * whole file, out of memory) *err set, the code returned, *trees untouched.
 */
int hs__sgf_read(hs__sgf_internal_t *in, size_t len, const hs_sgf_limits_t *lim,
                 hs_sgf_tree_t **trees, int *num_trees, hs_error_t *err);

#endif
