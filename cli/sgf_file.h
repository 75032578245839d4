/*
 * cli/sgf_file.h — one game of a local SGF file, for the commands that take a
 * position from a file the user names (`query --position`, `query --board`,
 * `report --board`).
 */
#ifndef HS_CLI_SGF_FILE_H
#define HS_CLI_SGF_FILE_H

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"

/*
 * Reads game `index` (0 = the first) of the SGF file at path into *g (the
 * caller releases it with hs_game_fini). The reader recovers what it can, as
 * ingest does. Returns 0, HS_EIO (the file), HS_EPARSE (not SGF; the game tree
 * is broken), HS_EINVAL (the file has fewer games), HS_ELIMIT, HS_ENOMEM, with
 * a message naming the file and the game as users count it (index + 1, "game
 * 1" the first, as the SGF reader's messages, the options and `inspect` do).
 */
int hs__cli_sgf_game(const char *path, int index, hs_game_t *g, hs_error_t *err);

/*
 * The board of game `index` of path after `move` moves (0 = after the setup;
 * -1 = the end) into *b. 0, the errors above, HS_EINVAL (move past the game's
 * end) or HS_EILLEGAL (the game cannot be replayed that far: the message names
 * the move).
 */
int hs__cli_sgf_board(const char *path, int index, int move, hs_board_t *b, hs_error_t *err);

#endif
