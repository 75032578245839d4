/*
 * worker/gtp_commands.c — the GTP front end's commands about the protocol and
 * the game: protocol_version, name, version, known_command, list_commands,
 * quit, boardsize, clear_board, komi, play, loadsgf, kata-set-rules,
 * kata-get-rules, showboard, and KataGo's get_komi and stop. Messages follow KataGo's where it has the
 * command, so controllers written for it read ours.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/game.h"
#include "core/sgf.h"
#include "worker/analysis.h"
#include "worker/gtp_internal.h"

/* A record bigger than this is not a game record (and would only cost memory). */
#define S_MAX_SGF (64u << 20)

int hs__gtp_int(const char *s, long lo, long hi, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int hs__gtp_fail(hs_buf_t *resp, const char *msg)
{
    hs_gtp_printf(resp, "%s", msg);
    return 1;
}

static int s_protocol_version(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g, (void)ctx, (void)argc, (void)argv;
    hs_gtp_printf(r, "2");
    return 0;
}

static int s_name(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_gtp_printf(r, "%s", hs_gtp_config(g)->name);
    return 0;
}

static int s_version(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_gtp_printf(r, "%s", hs_gtp_config(g)->version);
    return 0;
}

static int s_known_command(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    if (argc != 1)
        return hs__gtp_fail(r, "Expected single argument for known_command");
    hs_gtp_printf(r, "%s", hs_gtp_known(g, argv[0]) ? "true" : "false");
    return 0;
}

static void s_list_one(void *ctx, const char *name)
{
    hs_gtp_printf(ctx, "%s\n", name);
}

static int s_list_commands(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_gtp_each_command(g, s_list_one, r);
    return 0;
}

static int s_quit(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv, (void)r;
    hs_gtp_request_quit(g);
    return 0;
}

static int s_boardsize(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    int n;
    if (argc != 1 || hs__gtp_int(argv[0], -1000000, 1000000, &n))
        return hs__gtp_fail(r, "Expected int argument for boardsize");
    hs_error_t err;
    /* hs_gtp_game_clear reads a size <= 0 as "keep the size": not GTP's 0. */
    if (n <= 0 || hs_gtp_game_clear(hs_gtp_game(g), n, &err))
        return hs__gtp_fail(r, "unacceptable size");
    return 0;
}

static int s_clear_board(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_error_t err;
    if (hs_gtp_game_clear(hs_gtp_game(g), 0, &err))
        return hs__gtp_fail(r, err.msg);
    return 0;
}

static int s_komi(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    char *end = NULL;
    double k = argc == 1 ? strtod(argv[0], &end) : NAN;
    if (argc != 1 || end == argv[0] || *end)
        return hs__gtp_fail(r, "Expected single float argument for komi");
    /* KataGo's bounds: the net was trained on komi within them, in halves. */
    if (!isfinite(k) || fabs(k) > 150)
        return hs__gtp_fail(r, "unacceptable komi");
    if (k * 2 != floor(k * 2))
        return hs__gtp_fail(r, "komi must be an integer or half-integer");
    hs_gtp_game(g)->komi = k;
    return 0;
}

/* get_komi: KataGo's extension, the komi as C++'s stream prints a double
 * (what %g prints); arguments are ignored, as KataGo ignores them. */
static int s_get_komi(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    hs_gtp_printf(r, "%g", hs_gtp_game(g)->komi);
    return 0;
}

/* stop: KataGo's "stop any pondering or analysis"; ours stop at the line
 * that carries it, so nothing runs when it is answered. */
static int s_stop(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)g, (void)ctx, (void)argc, (void)argv, (void)r;
    return 0;
}

static int s_color(const char *s, hs_color_t *c)
{
    if (!strcasecmp(s, "b") || !strcasecmp(s, "black"))
        *c = HS_BLACK;
    else if (!strcasecmp(s, "w") || !strcasecmp(s, "white"))
        *c = HS_WHITE;
    else
        return -1;
    return 0;
}

static int s_play(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    hs_gtp_game_t *game = hs_gtp_game(g);
    hs_color_t c;
    hs_point_t p;
    if (argc != 2)
        return hs__gtp_fail(r, "Expected two arguments for play");
    if (s_color(argv[0], &c)) {
        hs_gtp_printf(r, "Could not parse color: '%s'", argv[0]);
        return 1;
    }
    if (hs_board_parse_point(&game->board, argv[1], &p)) {
        hs_gtp_printf(r, "Could not parse vertex: '%s'", argv[1]);
        return 1;
    }
    hs_error_t err;
    int rc = hs_gtp_game_play(game, c, p, NULL, &err);
    if (rc)
        return hs__gtp_fail(r, rc == HS_EILLEGAL ? "illegal move" : err.msg);
    return 0;
}

/* Reads the first game of the file at path into *game. */
static int s_read_game(const char *path, hs_game_t *game, hs_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = hs_buf_read_file(path, S_MAX_SGF, &text, &len, err);
    if (rc)
        return rc;
    hs_sgf_collection_t *c = hs_sgf_parse(text, len, NULL, err);
    free(text);
    if (!c)
        return hs_error_prefix(err, "%s: ", path);
    rc = hs_game_from_sgf(hs_sgf_root(c, 0), game, err);
    hs_sgf_destroy(&c);
    return rc ? hs_error_prefix(err, "%s: ", path) : 0;
}

static int s_loadsgf(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    int move = 1 << 30;   /* none given: after the last move */
    if (argc != 1 && argc != 2)
        return hs__gtp_fail(r, "Expected one or two arguments for loadsgf");
    if (argc == 2 && hs__gtp_int(argv[1], 1, 10000000, &move))
        return hs__gtp_fail(r, "Invalid value for moveNumber for loadsgf");
    hs_game_t game;
    hs_game_init(&game, 19);
    hs_error_t err;
    int rc = s_read_game(argv[0], &game, &err);
    if (!rc)
        rc = hs_gtp_game_load(hs_gtp_game(g), &game, move, &err);
    hs_game_fini(&game);
    if (rc) {
        hs_gtp_printf(r, "cannot load file: %s", err.msg);
        return 1;
    }
    return 0;
}

/* kata-set-rules RULES: what `hyeongse analysis` reads as a query's "rules"
 * (worker/analysis.h: KataGo's names, our own, or the JSON object), the
 * words joined again as KataGo joins them ("tromp taylor", an object with
 * blanks in it). Komi belongs to the komi command: an object that gives it
 * is refused, as KataGo's kata-set-rules refuses it. */
static int s_set_rules(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx;
    hs_buf_t text = { 0 };
    for (int i = 0; i < argc; i++) {
        if (i)
            hs_buf_putc(&text, ' ');
        hs_buf_put(&text, argv[i], strlen(argv[i]));
    }
    hs_buf_putc(&text, '\0');
    if (text.err) {
        hs_buf_fini(&text);
        return hs__gtp_fail(r, "out of memory");
    }
    const char *rest = text.p;
    hs_rules_id_t id;
    double komi;
    bool has_komi;
    int rc = hs_analysis_parse_rules(rest, text.len - 1, &id, &komi, &has_komi);
    if (rc == HS_ENOMEM)
        hs_gtp_printf(r, "out of memory");
    else if (rc == HS_EUNSUPPORTED)
        hs_gtp_printf(r, "Rules not supported by hyeongse: '%s'", rest);
    else if (rc || has_komi)
        hs_gtp_printf(r, "Unknown rules '%s'%s", rest,
                      !rc ? ": set komi with the komi command" : "");
    hs_buf_fini(&text);
    if (rc || has_komi)
        return 1;
    hs_error_t err;
    if (hs_gtp_game_set_rules(hs_gtp_game(g), id, &err))
        return hs__gtp_fail(r, err.msg);
    return 0;
}

/* kata-get-rules: KataGo's JSON form of the rules (without komi), which
 * kata-set-rules and the analysis protocol read back. */
static int s_get_rules(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    char json[256];
    hs_gtp_printf(r, "%s", hs_analysis_rules_json(hs_gtp_game(g)->rules.id, json, sizeof json));
    return 0;
}

static int s_showboard(hs_gtp_t *g, void *ctx, int argc, char **argv, hs_buf_t *r)
{
    (void)ctx, (void)argc, (void)argv;
    const hs_gtp_game_t *game = hs_gtp_game(g);
    const hs_board_t *b = &game->board;
    hs_gtp_printf(r, "Moves: %d  Next player: %s  Rules: %s  Komi: %g\n", game->num_moves,
                  b->to_move == HS_BLACK ? "Black" : "White", game->rules.name, game->komi);
    char diagram[2048];
    hs_board_to_ascii(b, diagram, sizeof diagram);
    hs_gtp_printf(r, "%s", diagram);
    hs_gtp_printf(r, "Captured by Black: %d\nCaptured by White: %d", b->captures[HS_BLACK],
                  b->captures[HS_WHITE]);
    return 0;
}

int hs__gtp_register_basic(hs_gtp_t *g, hs_error_t *err)
{
    static const struct { const char *name; hs_gtp_handler_t fn; } table[] = {
        { "protocol_version", s_protocol_version }, { "name", s_name },
        { "version", s_version }, { "known_command", s_known_command },
        { "list_commands", s_list_commands }, { "quit", s_quit },
        { "boardsize", s_boardsize }, { "clear_board", s_clear_board }, { "komi", s_komi },
        { "play", s_play }, { "loadsgf", s_loadsgf }, { "kata-set-rules", s_set_rules },
        { "kata-get-rules", s_get_rules }, { "showboard", s_showboard },
        { "get_komi", s_get_komi }, { "stop", s_stop },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int rc = hs_gtp_register(g, table[i].name, table[i].fn, NULL, err);
        if (rc)
            return rc;
    }
    return 0;
}
