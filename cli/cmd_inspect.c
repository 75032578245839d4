/*
 * cli/cmd_inspect.c — `hyeongse inspect FILE.sgf [--game K] [--move N]`: shows
 * one game of an SGF file: metadata (with how the komi was read), the game id,
 * and the board after move N (default: the final position) with captures.
 * Broken trees and illegal moves are reported with the file name and reason;
 * the board then shows the position before the illegal move.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "core/buf.h"
#include "core/game.h"
#include "core/sgf.h"

const char hs_cmd_inspect_summary[] = "show one game of an SGF file: metadata, id, board at move N";

static void s_usage(FILE *out)
{
    fprintf(out,
            "usage: hyeongse inspect FILE.sgf [--game K] [--move N]\n\n"
            "Reads FILE.sgf and shows game K (1-based, default 1): players, ranks,\n"
            "date, event, komi (and how it was read), rules, handicap, result, the\n"
            "number of moves, the game id, and the board after move N (default: the\n"
            "last move) with the captures.\n\n"
            "Exit status: 0 ok, 1 the game is broken or illegal, 2 usage or I/O error.\n");
}

/* How the komi was read; raw: the record's KM text, or NULL. */
static const char *s_komi_source(hs_komi_source_t s, const char *raw)
{
    switch (s) {
    case HS_KOMI_PLAIN: return "as written";
    case HS_KOMI_FOX_POINTS: return "Fox integer code /100";
    case HS_KOMI_FOX_ZI: return "zi (stones) x2, Chinese counting";
    case HS_KOMI_OVERRIDE: return "override";
    default: return raw ? "unreadable KM: rule-set default" : "no KM: rule-set default";
    }
}


#define S_STR(x) ((x) ? (x) : "-")

/* The command line into *path, *game and *move: -1 to go on, else the exit
 * status (0 after --help, 2 for a bad line). */
static int s_args(int argc, char **argv, const char **path, long *game, long *move)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            s_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--game") && i + 1 < argc) {
            if (hs__cli_long("inspect", "--game", argv[++i], 1, LONG_MAX, game))
                return 2;
        } else if (!strcmp(argv[i], "--move") && i + 1 < argc) {
            if (hs__cli_long("inspect", "--move", argv[++i], 0, LONG_MAX, move))
                return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "hyeongse inspect: unknown option %s\n", argv[i]);
            s_usage(stderr);
            return 2;
        } else if (!*path) {
            *path = argv[i];
        } else {
            fprintf(stderr, "hyeongse inspect: one file at a time\n");
            return 2;
        }
    }
    if (!*path) {
        s_usage(stderr);
        return 2;
    }
    return -1;
}

/* Game k + 1 of collection c (read from path) into g: 0, or the exit status
 * after saying why. */
static int s_game(const char *path, hs_sgf_collection_t *c, long game, hs_game_t *g)
{
    hs_error_t err;
    if (game > c->num_trees) {
        fprintf(stderr, "%s: there are %d game(s), not %ld\n", path, c->num_trees, game);
        return 2;
    }
    int k = (int)game - 1;
    if (c->trees[k].status) {
        fprintf(stderr, "%s: %s\n", path, c->trees[k].message);
        return 1;
    }
    if (hs_game_from_sgf(hs_sgf_root(c, k), g, &err)) {
        fprintf(stderr, "%s: game %d: %s\n", path, k + 1, err.msg);
        return 1;
    }
    return 0;
}

/* The game's header, one field a line. */
static void s_print_header(const char *path, const hs_sgf_collection_t *c, int k,
                           const hs_game_t *g)
{
    char res[16], id[33];
    printf("file:      %s (game %d of %d, text read as %s", path, k + 1, c->num_trees, c->charset);
    if (c->num_replaced)
        printf(", %zu invalid byte(s) replaced", c->num_replaced);
    printf(")\n");
    printf("black:     %s (%s)\n", S_STR(g->black), S_STR(g->black_rank));
    printf("white:     %s (%s)\n", S_STR(g->white), S_STR(g->white_rank));
    printf("date:      %s\n", S_STR(g->date));
    printf("event:     %s%s%s\n", S_STR(g->event), g->round ? ", round " : "",
           g->round ? g->round : "");
    printf("board:     %dx%d\n", g->size, g->size);
    printf("rules:     %s%s%s%s\n", g->rules.name, g->rules_raw ? " (RU[" : "",
           g->rules_raw ? g->rules_raw : "", g->rules_raw ? "])" : "");
    printf("komi:      %g (%s%s%s%s)\n", g->komi, s_komi_source(g->komi_source, g->komi_raw),
           g->komi_raw ? ", KM[" : "", g->komi_raw ? g->komi_raw : "", g->komi_raw ? "]" : "");
    printf("handicap:  %d (%d setup stone(s))\n", g->handicap, g->num_setup);
    printf("result:    %s (RE[%s])%s\n", hs_result_format(&g->result, res), S_STR(g->result_raw),
           hs_result_fits_komi(&g->result, g->komi)
               ? "" : ": the recorded komi cannot give it (komi unknown; Fox writes KM[0] so)");
    printf("moves:     %d\n", g->num_moves);
    printf("game id:   %s\n", hs_game_id_hex(g, id));
}

/* The board after move `move` of game k + 1 (the final one for -1 or past the
 * end), or before the first illegal move: the exit status (1 for an illegal
 * move, 2 out of memory). */
static int s_print_board(const char *path, int k, const hs_game_t *g, long move)
{
    hs_error_t err;
    int upto = move < 0 || move > g->num_moves ? g->num_moves : (int)move;
    if (move > g->num_moves)
        fprintf(stderr, "%s: the game has %d moves; showing the final position\n", path,
                g->num_moves);
    hs_board_t *b = malloc(sizeof *b);
    if (!b) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 2;
    }
    int status = 0;
    if (hs_game_replay(g, upto, b, &err)) {
        fprintf(stderr, "%s: game %d: %s\n", path, k + 1, err.msg);
        status = 1;
        printf("\nposition before the illegal move (after move %d):\n", b->move_number);
    } else {
        printf("\nposition after move %d:\n", upto);
    }
    char board[4096];
    hs_board_to_ascii(b, board, sizeof board);
    fputs(board, stdout);
    printf("captures:  black took %d, white took %d\n", b->captures[HS_BLACK],
           b->captures[HS_WHITE]);
    free(b);
    return status;
}

int hs_cmd_inspect(int argc, char **argv)
{
    const char *path = NULL;
    long game = 1, move = -1;
    int status = s_args(argc, argv, &path, &game, &move);
    if (status >= 0)
        return status;
    size_t len = 0;
    char *data = NULL;
    hs_error_t err;
    /* 256 MiB: past the SGF reader's file limit, which then says so. */
    if (hs_buf_read_file(path, (size_t)256 << 20, &data, &len, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    hs_sgf_collection_t *c = hs_sgf_parse_ex(data, len, NULL, HS_SGF_RECOVER, &err);
    free(data);
    if (!c) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        return 1;
    }
    hs_game_t g;
    hs_game_init(&g, 19);
    if ((status = s_game(path, c, game, &g)) == 0) {
        s_print_header(path, c, (int)game - 1, &g);
        status = s_print_board(path, (int)game - 1, &g, move);
    }
    hs_game_fini(&g);
    hs_sgf_destroy(&c);
    return status;
}
