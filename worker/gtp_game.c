/*
 * worker/gtp_game.c — the GTP session's game (worker/gtp_game.h): the start
 * position, the move list, and the state derived from them (board, the two
 * boards before, superko history, stone counts), rebuilt from the move list
 * whenever the rules change or a record is loaded.
 */
#include "worker/gtp_game.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "worker/analysis.h"

/* Stones of colour c on b (setup stones of a record, for the territory komi). */
static int s_count(const hs_board_t *b, hs_color_t c)
{
    int k = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            k += b->color[hs_board_point(b, x, y)] == c;
    return k;
}

void hs_gtp_game_count_setup(hs_gtp_game_t *g)
{
    g->setup_black = s_count(&g->start, HS_BLACK);
    g->setup_white = s_count(&g->start, HS_WHITE);
}

/* KataGo's handicap of a history (numHandicapStonesOnBoardHelper): the
 * black stones its first board holds when it holds no white one, plus
 * Black's stones played since before White's first; one is a move, not a
 * handicap. g->handicap is the larger of it and handicap_start. */
static void s_count_handicap(hs_gtp_game_t *g)
{
    const hs_gtp_opening_t *o = &g->opening;
    int stones = o->white > 0 ? 0 : o->black + o->blacks;
    if (stones < 2)
        stones = 0;
    g->handicap = stones > g->handicap_start ? stones : g->handicap_start;
}

/* A new history from board b, as KataGo's clears its own where a move is
 * played out of turn (and so where Black plays twice: a handicap sent as
 * moves). */
static void s_opening_from(hs_gtp_game_t *g, const hs_board_t *b)
{
    g->opening = (hs_gtp_opening_t){ .black = s_count(b, HS_BLACK),
                                     .white = s_count(b, HS_WHITE) };
    s_count_handicap(g);
}

/* The handicap after color's move p from `before`, which succeeded: counted
 * anew at each of Black's moves until White plays a stone, as KataGo does. */
static void s_opening_move(hs_gtp_game_t *g, const hs_board_t *before, hs_color_t color,
                           hs_point_t p)
{
    if (color != before->to_move)
        s_opening_from(g, before);
    hs_gtp_opening_t *o = &g->opening;
    if (color == HS_WHITE && p != HS_PASS)
        o->white_moved = true;
    if (color == HS_BLACK && !o->white_moved && p != HS_PASS) {
        o->blacks++;
        s_count_handicap(g);
    }
}

static int s_reserve(hs_gtp_game_t *g, hs_error_t *err)
{
    if (g->num_moves < g->cap_moves)
        return 0;
    int cap = g->cap_moves ? 2 * g->cap_moves : 256;
    hs_gtp_move_t *m = realloc(g->moves, (size_t)cap * sizeof *m);
    if (!m)
        return hs_error_set(err, HS_ENOMEM, "out of memory for the move list");
    g->moves = m;
    g->cap_moves = cap;
    return 0;
}

/* How much of the rules s_apply lets pass. */
enum {
    S_STRICT = 0,       /* play: every rule */
    S_SUPERKO_OK = 1,   /* loadsgf: a move only superko forbids is played */
    /* KataGo's makeBoardMoveTolerant (analysis `moves`, and a rebuild of
     * moves the game once took, whose rules may have changed since): a
     * simple-ko recapture and a suicide of more than one stone as well,
     * whatever the rules; a single stone's suicide still not */
    S_KATAGO = 2,
};

/* Whether a move refused for `why` is played anyway at this tolerance. */
static bool s_tolerated(const hs_board_t *b, hs_color_t color, hs_point_t p, hs_illegal_t why,
                        int tolerance)
{
    if (why == HS_ILLEGAL_SUPERKO)
        return tolerance >= S_SUPERKO_OK;
    if (why == HS_ILLEGAL_KO)
        return tolerance >= S_KATAGO;
    /* a suicide next to a stone of its own takes that string with it */
    return why == HS_ILLEGAL_SUICIDE && tolerance >= S_KATAGO && hs_board_nbr_count(b, p, color) > 0;
}

/* Plays one move on the derived state, as much of the rules checked as
 * tolerance says (S_*). */
static int s_apply(hs_gtp_game_t *g, hs_color_t color, hs_point_t p, int tolerance,
                   hs_illegal_t *reason, hs_error_t *err)
{
    hs_board_t before;
    hs_board_copy(&before, &g->board);
    hs_illegal_t why = HS_LEGAL;
    int rc = hs_rules_play(&g->board, &g->rules, &g->hist, color, p, &why);
    if (rc == HS_EILLEGAL && s_tolerated(&g->board, color, p, why, tolerance)) {
        /* The board checks simple ko and suicide itself: the ko point is
         * lifted for the retake (the move sets its own), and suicide is let
         * through by the flag. */
        unsigned flags = hs_rules_play_flags(&g->rules);
        if (why == HS_ILLEGAL_KO)
            g->board.ko = HS_NO_POINT;
        if (why == HS_ILLEGAL_SUICIDE)
            flags |= HS_PLAY_SUICIDE_OK;
        rc = hs_board_play(&g->board, color, p, flags, &why);
        if (rc)
            hs_board_copy(&g->board, &before);
        else
            rc = hs_history_push(&g->hist, &g->board, &g->rules);
    }
    if (reason)
        *reason = why;
    if (rc == HS_EILLEGAL)
        return hs_error_set(err, HS_EILLEGAL, "illegal move");
    if (rc)
        return hs_error_set(err, rc, "out of memory for the superko history");
    hs_board_copy(&g->prev[1], &g->prev[0]);
    hs_board_copy(&g->prev[0], &before);
    if (p != HS_PASS)
        *(color == HS_BLACK ? &g->stones_black : &g->stones_white) += 1;
    s_opening_move(g, &before, color, p);
    return 0;
}

/* Derived state from start and the move list, under the current rules. */
static int s_rebuild(hs_gtp_game_t *g, hs_error_t *err)
{
    hs_board_copy(&g->board, &g->start);
    hs_history_fini(&g->hist);
    hs_history_init(&g->hist);
    g->stones_black = g->setup_black;
    g->stones_white = g->setup_white;
    s_opening_from(g, &g->start);
    if (hs_history_push(&g->hist, &g->board, &g->rules))
        return hs_error_set(err, HS_ENOMEM, "out of memory for the superko history");
    for (int i = 0; i < g->num_moves; i++) {
        hs_illegal_t why;
        int rc = s_apply(g, g->moves[i].color, g->moves[i].point, S_KATAGO, &why, err);
        if (rc) {
            char name[8];
            return hs_error_prefix(err, "move %d (%c %s)", i + 1,
                                   g->moves[i].color == HS_BLACK ? 'B' : 'W',
                                   hs_board_point_name(&g->board, g->moves[i].point, name));
        }
    }
    return 0;
}

static int s_size_ok(int size, hs_error_t *err)
{
    if (size < 2 || size > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "unacceptable size %d (2..%d)", size, HS_NN_MAX_SIZE);
    return 0;
}

int hs_gtp_game_init(hs_gtp_game_t *g, int size, hs_rules_id_t rules, double komi,
                     hs_error_t *err)
{
    memset(g, 0, sizeof *g);
    hs_history_init(&g->hist);
    g->rules = hs_rules_get(rules);
    g->komi = komi;
    int rc = s_size_ok(size, err);
    if (rc)
        return rc;
    hs_board_init(&g->start, size);
    return s_rebuild(g, err);
}

void hs_gtp_game_fini(hs_gtp_game_t *g)
{
    if (!g)
        return;
    free(g->moves);
    g->moves = NULL;
    g->num_moves = g->cap_moves = 0;
    hs_history_fini(&g->hist);
}

int hs_gtp_game_clear(hs_gtp_game_t *g, int size, hs_error_t *err)
{
    if (size <= 0)
        size = g->start.size;
    int rc = s_size_ok(size, err);
    if (rc)
        return rc;
    hs_board_init(&g->start, size);
    g->setup_black = g->setup_white = 0;
    g->handicap = g->handicap_start = 0;
    g->num_moves = 0;
    return s_rebuild(g, err);
}

int hs_gtp_game_set_rules(hs_gtp_game_t *g, hs_rules_id_t rules, hs_error_t *err)
{
    g->rules = hs_rules_get(rules);
    return s_rebuild(g, err);
}

/* A move appended to the game, as much of the rules checked as tolerance says. */
static int s_play(hs_gtp_game_t *g, hs_color_t color, hs_point_t p, int tolerance,
                  hs_illegal_t *reason, hs_error_t *err)
{
    int rc = s_reserve(g, err);
    if (rc)
        return rc;
    rc = s_apply(g, color, p, tolerance, reason, err);
    if (!rc)
        g->moves[g->num_moves++] = (hs_gtp_move_t){ color, p };
    return rc;
}

int hs_gtp_game_play(hs_gtp_game_t *g, hs_color_t color, hs_point_t p, hs_illegal_t *reason,
                     hs_error_t *err)
{
    return s_play(g, color, p, S_STRICT, reason, err);
}

int hs_gtp_game_replay(hs_gtp_game_t *g, hs_color_t color, hs_point_t p, hs_illegal_t *reason,
                       hs_error_t *err)
{
    return s_play(g, color, p, S_KATAGO, reason, err);
}

int hs_gtp_game_undo(hs_gtp_game_t *g, hs_error_t *err)
{
    if (g->num_moves == 0)
        return hs_error_set(err, HS_EINVAL, "cannot undo");
    g->num_moves--;
    int rc = s_rebuild(g, err);
    if (rc)
        g->num_moves++;   /* out of memory: keep the move (rebuilt on the next change) */
    return rc;
}

/* Loads r into the empty game t (rules and komi already t's). */
static int s_load_into(hs_gtp_game_t *t, const hs_game_t *r, int before, hs_error_t *err)
{
    hs_replay_t rp;
    int rc = hs_replay_start(&rp, r, err);   /* the start board and who moves first */
    if (!rc)
        hs_board_copy(&t->start, &rp.board);
    hs_replay_fini(&rp);
    if (rc)
        return rc;
    /* PL, which the replay leaves out (core/replay.h), decides where no move
     * does, as in KataGo's loadsgf */
    if (r->num_moves == 0 && r->first_player != HS_EMPTY)
        t->start.to_move = (hs_color_t)r->first_player;
    hs_gtp_game_count_setup(t);
    t->handicap_start = r->handicap;
    rc = s_rebuild(t, err);
    int played = before - 1 < r->num_moves ? before - 1 : r->num_moves;
    for (int i = 0; !rc && i < played; i++) {
        const hs_game_move_t *m = &r->moves[i];
        hs_point_t p = hs_game_board_point(&t->board, m->vertex);
        rc = s_reserve(t, err);
        if (!rc)
            rc = s_apply(t, (hs_color_t)m->color, p, S_SUPERKO_OK, NULL, err);
        if (rc == HS_EILLEGAL) {
            char name[8];
            return hs_error_set(err, rc, "move %d (%c %s) is illegal", i + 1,
                                m->color == HS_BLACK ? 'B' : 'W',
                                hs_board_point_name(&t->board, p, name));
        }
        if (!rc)
            t->moves[t->num_moves++] = (hs_gtp_move_t){ (hs_color_t)m->color, p };
    }
    return rc;
}

int hs_gtp_game_load(hs_gtp_game_t *g, const hs_game_t *r, int before, hs_error_t *err)
{
    if (r->size < 2 || r->size > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "board size %d: the net plays 2..%d", r->size,
                            HS_NN_MAX_SIZE);
    /* RU read as kata-set-rules and the analysis protocol read rules, so
     * that a name means one rule set in all of them (KataGo's loadsgf reads
     * RU with its parseRules too) */
    hs_rules_id_t id = g->rules.id, ru;
    double ru_komi;
    bool ru_has_komi;
    if (r->rules_raw && hs_analysis_parse_rules(r->rules_raw, strlen(r->rules_raw), &ru, &ru_komi,
                                                &ru_has_komi) == 0)
        id = ru;
    double komi = r->komi_source != HS_KOMI_DEFAULT ? r->komi : g->komi;
    /* Built aside and swapped in, so a failed load leaves the session as it was. */
    hs_gtp_game_t *t = malloc(sizeof *t);
    if (!t)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    int rc = hs_gtp_game_init(t, r->size, id, komi, err);
    if (!rc)
        rc = s_load_into(t, r, before, err);
    if (rc) {
        hs_gtp_game_fini(t);
    } else {
        hs_gtp_game_fini(g);
        memcpy(g, t, sizeof *g);
    }
    free(t);
    return rc;
}

void hs_gtp_game_pos(const hs_gtp_game_t *g, hs_nn_pos_t *pos)
{
    memset(pos, 0, sizeof *pos);
    pos->board = &g->board;
    pos->to_move = g->board.to_move;
    pos->rules = g->rules.id;
    pos->komi = g->komi;
    pos->handicap = g->handicap;
    pos->stones_black = g->stones_black;
    pos->stones_white = g->stones_white;
    int first = g->num_moves > HS_NN_HISTORY ? g->num_moves - HS_NN_HISTORY : 0;
    for (int i = first; i < g->num_moves; i++) {
        pos->hist_color[pos->n_hist] = g->moves[i].color;
        pos->hist_move[pos->n_hist] = g->moves[i].point;
        pos->n_hist++;
    }
    pos->prev1 = g->num_moves >= 1 ? &g->prev[0] : NULL;
    pos->prev2 = g->num_moves >= 2 ? &g->prev[1] : NULL;
}
