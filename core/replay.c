/*
 * core/replay.c — the replay cursor of replay.h: one way to walk a game, shared
 * by the worker (evaluating) and the query layer (looking positions up).
 */
#include "core/replay.h"

#include "core/poskey.h"

int hs_replay_start(hs_replay_t *r, const hs_game_t *g, hs_error_t *err)
{
    /* Not a memset of the whole cursor: the board is 12 KB, and hs_board_init
     * writes every entry of it that is ever read (board.h). */
    r->game = g;
    r->played = 0;
    hs_history_init(&r->hist);
    int rc = hs_board_init(&r->board, g->size);
    if (rc < 0)
        return hs_error_set(err, HS_EINVAL, "bad board size %d", g->size);
    for (int i = 0; i < g->num_setup; i++) {
        hs_point_t p = hs_game_board_point(&r->board, g->setup[i].vertex);
        if (hs_board_set_stone(&r->board, p, (hs_color_t)g->setup[i].color) < 0)
            return hs_error_set(err, HS_EINVAL, "bad setup stone %d", i);
    }
    /* A record with setup stones (handicap, problems) says who moves first by
     * its first move, or without moves by its stones (White after a
     * handicap), not by the colour rule of an empty board. */
    if (g->num_setup > 0)
        r->board.to_move = hs_game_first_player(g);
    if (hs_history_push(&r->hist, &r->board, &g->rules) < 0)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    return 0;
}

int hs_replay_to(hs_replay_t *r, int move_number, hs_error_t *err)
{
    const hs_game_t *g = r->game;
    if (move_number < r->played || move_number > g->num_moves)
        return hs_error_set(err, HS_EINVAL, "move %d: the game has %d moves%s", move_number,
                            g->num_moves, move_number < r->played ? " (replay goes forward)" : "");
    while (r->played < move_number) {
        const hs_game_move_t *m = &g->moves[r->played];
        hs_illegal_t why = HS_LEGAL;
        hs_point_t p = hs_game_board_point(&r->board, m->vertex);
        if (hs_rules_play(&r->board, &g->rules, &r->hist, (hs_color_t)m->color, p, &why) < 0) {
            char name[8];
            return hs_error_set(err, HS_EILLEGAL, "move %d (%c %s): illegal (reason %d)",
                                r->played + 1, m->color == HS_BLACK ? 'B' : 'W',
                                hs_board_point_name(&r->board, p, name), (int)why);
        }
        r->played++;
    }
    return 0;
}

void hs_replay_key(const hs_replay_t *r, uint8_t key[16])
{
    hs_position_key(&r->board, r->game, r->played, key);
}

void hs_replay_fini(hs_replay_t *r)
{
    if (r)
        hs_history_fini(&r->hist);
}
