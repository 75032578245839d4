/*
 * tests/fuzz/fuzz_sgf.c — libFuzzer target for the SGF path that reads hostile
 * input: parse (charset conversion + recovery) -> game record -> replay -> write,
 * and the write output must parse back to the same trees.
 *
 * Seeds: tests/fuzz/corpus/sgf/ (small hand-written files); add the shared
 * sgf-edge files as a second corpus directory when running, e.g.
 *   ./fuzz_sgf -max_total_time=60 corpus-copy/ ../shared/data/sgf-edge/
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/game.h"
#include "core/sgf.h"
#include "../sgf_compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_sgf_limits_t lim;
    hs_sgf_limits_default(&lim);
    lim.max_depth = 2000;
    lim.max_nodes = 200000;
    hs_error_t err;
    hs_sgf_collection_t *c = hs_sgf_parse_ex((const char *)data, size, &lim, HS_SGF_RECOVER, &err);
    if (!c)
        return 0;
    for (int k = 0; k < c->num_trees; k++) {
        if (c->trees[k].status)
            continue;
        hs_game_t g;
        if (hs_game_from_sgf(hs_sgf_root(c, k), &g, &err) == 0) {
            hs_board_t b;
            hs_game_replay(&g, -1, &b, &err);
            hs_game_fini(&g);
        }
    }
    char *out = NULL;
    size_t olen = 0;
    if (hs_sgf_write(c, &out, &olen, &err) == 0 && c->num_failed < c->num_trees) {
        hs_sgf_collection_t *c2 = hs_sgf_parse_ex(out, olen, &lim, HS_SGF_RECOVER, &err);
        if (!c2 || c2->num_trees != c->num_trees - c->num_failed)
            abort();
        for (int k = 0, k2 = 0; k < c->num_trees; k++) {
            if (c->trees[k].status)
                continue;
            if (!hs_test_tree_equal(hs_sgf_root(c, k), hs_sgf_root(c2, k2++)))
                abort();
        }
        hs_sgf_destroy(&c2);
    }
    free(out);
    hs_sgf_destroy(&c);
    return 0;
}
