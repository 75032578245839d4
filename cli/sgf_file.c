/*
 * cli/sgf_file.c — one game of a local SGF file (cli/sgf_file.h).
 */
#include "sgf_file.h"

#include <stdlib.h>

#include "core/buf.h"
#include "core/sgf.h"

int hs__cli_sgf_game(const char *path, int index, hs_game_t *g, hs_error_t *err)
{
    char *data = NULL;
    size_t len = 0;
    /* Past the SGF reader's file limit the parse would refuse it anyway. */
    int rc = hs_buf_read_file(path, (size_t)64 << 20, &data, &len, err);
    if (rc)
        return rc;
    hs_sgf_collection_t *c = hs_sgf_parse_ex(data, len, NULL, HS_SGF_RECOVER, err);
    free(data);
    if (!c)
        return err && err->code ? err->code : HS_EPARSE;
    hs_error_clear(err);
    if (index >= c->num_trees) {
        rc = hs_error_set(err, HS_EINVAL, "%s has %d game(s); no game %d", path, c->num_trees,
                          index + 1);
        hs_sgf_destroy(&c);
        return rc;
    }
    const hs_sgf_tree_t *t = &c->trees[index];
    if (t->status || !t->root) {
        /* The reader's message names the game itself ("game K, line ..."). */
        rc = t->message && *t->message
                 ? hs_error_set(err, HS_EPARSE, "%s: %s", path, t->message)
                 : hs_error_set(err, HS_EPARSE, "%s: game %d: empty game tree", path, index + 1);
        hs_sgf_destroy(&c);
        return rc;
    }
    rc = hs_game_from_sgf(t->root, g, err);
    hs_sgf_destroy(&c);
    return rc;
}

int hs__cli_sgf_board(const char *path, int index, int move, hs_board_t *b, hs_error_t *err)
{
    hs_game_t g;
    int rc = hs__cli_sgf_game(path, index, &g, err);
    if (rc)
        return rc;
    if (move > g.num_moves)
        rc = hs_error_set(err, HS_EINVAL, "--move %d: game %d of %s has %d moves", move,
                          index + 1, path, g.num_moves);
    else
        rc = hs_game_replay(&g, move, b, err);
    hs_game_fini(&g);
    return rc;
}
