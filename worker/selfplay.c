/*
 * worker/selfplay.c — the self-play game loop over the tree search and the
 * SGF record of a game (worker/selfplay.h says what a game is and how it
 * ends and is counted).
 */
#include "worker/selfplay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/rng.h"
#include "core/score.h"
#include "worker/judge.h"

void hs_selfplay_config_default(hs_selfplay_config_t *cfg, int size, hs_rules_id_t rules)
{
    *cfg = (hs_selfplay_config_t){
        .size = size,
        .rules = rules,
        .komi = hs_rules_get(rules).default_komi,
        .visits = 100,
        .threads = 1,
        .noise_weight = 0.25,
        .temperature = 0.8,
        .resign_threshold = 0.02,
        .resign_moves = 3,
        .no_resign_share = 0.2,
    };
}

static int s_check(const hs_selfplay_config_t *c, hs_error_t *err)
{
    if (c->size < 2 || c->size > HS_NN_MAX_SIZE)
        return hs_error_set(err, HS_EINVAL, "selfplay: size %d is not 2..%d", c->size, HS_NN_MAX_SIZE);
    if (c->visits < 1 || c->threads < 1 || c->max_moves < 0 || c->temperature < 0 ||
        c->noise_alpha < 0 || c->noise_weight < 0 || c->noise_weight > 1 || c->resign_moves < 1 ||
        c->no_resign_share < 0 || c->no_resign_share > 1 || (unsigned)c->rules >= HS_RULES_COUNT)
        return hs_error_set(err, HS_EINVAL, "selfplay: bad configuration");
    return 0;
}

/* One 64-bit value from two, so that every move of every game draws its own
 * noise and temperature stream (splitmix64's finaliser). */
static uint64_t s_mix(uint64_t a, uint64_t b)
{
    uint64_t z = a + 0x9E3779B97F4A7C15ull * (b + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The search's configuration for move number `move` of the game. */
static void s_move_config(const hs_selfplay_config_t *c, uint64_t seed, int move, hs_mcts_config_t *mc)
{
    int area = c->size * c->size;
    int tmoves = c->temperature_moves > 0 ? c->temperature_moves : area / 12;
    hs_mcts_config_default(mc);
    mc->max_visits = c->visits;
    mc->threads = c->threads;
    mc->noise_alpha = c->noise_alpha > 0 ? c->noise_alpha : 0.03 * 361.0 / area;
    mc->noise_weight = c->noise_weight;
    mc->temperature = move < tmoves ? c->temperature * (1.0 - (double)move / tmoves) : 0.0;
    mc->seed = s_mix(seed, (uint64_t)move);
}

/* Black's final margin: Tromp-Taylor under tromp-taylor rules, else the
 * judge's count by the rules' scoring (dead stones from its playouts). */
static double s_final_score(const hs_board_t *b, hs_rules_id_t rules, double komi)
{
    if (rules == HS_RULES_TROMP_TAYLOR)
        return hs_score_tromp_taylor(b, komi);
    hs_judge_t *j = malloc(sizeof *j);
    hs_judge_config_t jc;
    hs_judge_config_final(&jc);
    if (!j || hs_judge_compute(b, NULL, &jc, j, NULL)) {
        /* The judge cannot fail on a board of a legal size; should it, the
         * plain count is still an honest result. */
        free(j);
        return hs_score_tromp_taylor(b, komi);
    }
    hs_rules_t r = hs_rules_get(rules);
    double s = hs_judge_score(j, b, &r, komi, 0);
    free(j);
    return s;
}

typedef struct s_game {
    const hs_selfplay_config_t *cfg;
    hs_mcts_evaluator_t *ev;
    uint64_t seed;
    hs_mcts_t *m;
    hs_gtp_game_t g;
    hs_mcts_result_t *res;
    int low[3];                 /* the mover's win rate under the threshold, moves in a row */
} s_game_t;

/* The move to play as a board point: the search's choice, but never a pass
 * that is not also the most visited move. */
static hs_point_t s_choose(s_game_t *s)
{
    int size = s->cfg->size, pass = HS_MCTS_PASS(size);
    int v = hs_mcts_choose_move(s->m);
    hs_mcts_get_result(s->m, s->res);
    if (v == pass && s->res->best_move >= 0 && s->res->best_move != pass)
        v = s->res->best_move;
    if (v < 0 || v >= pass)
        return HS_PASS;
    return hs_board_point(&s->g.board, v % size, v / size);
}

/* Whether the mover resigns now (its win rate low for resign_moves moves). */
static bool s_resigns(s_game_t *s, hs_color_t mover, bool allowed)
{
    float wr = mover == HS_BLACK ? s->res->winrate : 1.0f - s->res->winrate;
    s->low[mover] = wr < s->cfg->resign_threshold ? s->low[mover] + 1 : 0;
    return allowed && s->low[mover] >= s->cfg->resign_moves;
}

/* One move: search, choose, resign or play. 1 when the game is over. */
static int s_step(s_game_t *s, hs_selfplay_game_t *out, hs_error_t *err)
{
    hs_mcts_config_t mc;
    s_move_config(s->cfg, s->seed, s->g.num_moves, &mc);
    hs_nn_pos_t pos;
    hs_gtp_game_pos(&s->g, &pos);
    int rc = hs_mcts_set_config(s->m, &mc, err);
    if (!rc) rc = hs_mcts_set_root(s->m, &pos, &s->g.hist, err);
    double t0 = hs_clock_now();
    if (!rc) rc = hs_mcts_search(s->m, s->ev, err);
    out->seconds += hs_clock_now() - t0;
    if (rc)
        return rc;
    hs_point_t p = s_choose(s);
    out->visits += s->res->visits;
    hs_color_t mover = s->g.board.to_move;
    if (s_resigns(s, mover, out->resign_allowed)) {
        out->resigned = mover;
        return 1;
    }
    hs_illegal_t why;
    rc = hs_gtp_game_play(&s->g, mover, p, &why, err);
    if (rc)
        return hs_error_prefix(err, "selfplay: the search chose an illegal move %d", (int)p);
    if (s->g.board.passes >= 2)
        return 1;
    if (s->g.num_moves >= (s->cfg->max_moves ? s->cfg->max_moves : 2 * s->cfg->size * s->cfg->size)) {
        out->capped = true;
        return 1;
    }
    return 0;
}

/* The moves of the game so far into out (a copy: the game keeps its own). */
static int s_copy_moves(const hs_gtp_game_t *g, hs_selfplay_game_t *out, hs_error_t *err)
{
    if (!g->num_moves)
        return 0;
    out->moves = malloc(sizeof *out->moves * (size_t)g->num_moves);
    if (!out->moves)
        return hs_error_set(err, HS_ENOMEM, "selfplay: out of memory for %d moves", g->num_moves);
    memcpy(out->moves, g->moves, sizeof *out->moves * (size_t)g->num_moves);
    out->num_moves = g->num_moves;
    return 0;
}

int hs_selfplay_play(const hs_selfplay_config_t *cfg, hs_mcts_evaluator_t *ev, uint64_t seed,
                     hs_selfplay_game_t *out, hs_error_t *err)
{
    *out = (hs_selfplay_game_t){ .size = cfg->size, .rules = cfg->rules, .komi = cfg->komi,
                                 .seed = seed, .resigned = HS_EMPTY };
    int rc = s_check(cfg, err);
    if (rc)
        return rc;
    hs_rng_t rng;
    hs_rng_seed(&rng, s_mix(seed, 0xFFFFFFFFull));
    out->resign_allowed = hs_rng_double(&rng) >= cfg->no_resign_share;
    s_game_t s = { .cfg = cfg, .ev = ev, .seed = seed };
    hs_mcts_config_t mc;
    s_move_config(cfg, seed, 0, &mc);
    s.res = malloc(sizeof *s.res);
    if (!s.res)
        return hs_error_set(err, HS_ENOMEM, "selfplay: out of memory");
    rc = hs_gtp_game_init(&s.g, cfg->size, cfg->rules, cfg->komi, err);
    if (!rc) rc = hs_mcts_create(&mc, &s.m, err);
    while (!rc)
        rc = s_step(&s, out, err);
    if (rc == 1) {
        rc = 0;
        if (out->resigned == HS_EMPTY)
            out->score = s_final_score(&s.g.board, cfg->rules, cfg->komi);
    }
    int crc = s_copy_moves(&s.g, out, rc ? NULL : err);
    hs_mcts_free(&s.m);
    hs_gtp_game_fini(&s.g);
    free(s.res);
    return rc ? rc : crc;
}

void hs_selfplay_game_fini(hs_selfplay_game_t *g)
{
    if (!g)
        return;
    free(g->moves);
    memset(g, 0, sizeof *g);
}

const char *hs_selfplay_result(const hs_selfplay_game_t *g, char *buf)
{
    if (g->resigned != HS_EMPTY) {
        snprintf(buf, 16, "%s", g->resigned == HS_BLACK ? "W+R" : "B+R");
        return buf;
    }
    return hs_judge_result_string(g->score, buf);
}

/* Text as an SGF value: ']' and '\' escaped. */
static void s_put_text(hs_buf_t *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ']' || *s == '\\')
            hs_buf_putc(b, '\\');
        hs_buf_putc(b, *s);
    }
}

static void s_put_prop(hs_buf_t *b, const char *id, const char *value)
{
    hs_buf_put(b, id, strlen(id));
    hs_buf_putc(b, '[');
    s_put_text(b, value);
    hs_buf_putc(b, ']');
}

int hs_selfplay_sgf(const hs_selfplay_game_t *g, const char *player, const char *date,
                    const char *name, char **out, size_t *len, hs_error_t *err)
{
    hs_buf_t b = {0};
    char tmp[64], re[16];
    hs_buf_put(&b, "(;FF[4]GM[1]CA[UTF-8]AP[hyeongse:selfplay]", 42);
    snprintf(tmp, sizeof tmp, "%d", g->size);
    s_put_prop(&b, "SZ", tmp);
    snprintf(tmp, sizeof tmp, "%g", g->komi);
    s_put_prop(&b, "KM", tmp);
    s_put_prop(&b, "RU", hs_rules_get(g->rules).name);
    s_put_prop(&b, "PB", player);
    s_put_prop(&b, "PW", player);
    s_put_prop(&b, "DT", date);
    s_put_prop(&b, "RE", hs_selfplay_result(g, re));
    s_put_prop(&b, "GN", name);
    hs_buf_putc(&b, '\n');
    for (int i = 0; i < g->num_moves; i++) {
        const hs_gtp_move_t *m = &g->moves[i];
        int n = 0;
        if (m->point == HS_PASS)
            n = snprintf(tmp, sizeof tmp, ";%c[]", m->color == HS_BLACK ? 'B' : 'W');
        else {
            int stride = g->size + 1;   /* core/board.h's padded layout: (x+1) + (y+1) * (N+1) */
            n = snprintf(tmp, sizeof tmp, ";%c[%c%c]", m->color == HS_BLACK ? 'B' : 'W',
                         'a' + m->point % stride - 1, 'a' + m->point / stride - 1);
        }
        hs_buf_put(&b, tmp, (size_t)n);
        if (i % 12 == 11)
            hs_buf_putc(&b, '\n');
    }
    hs_buf_put(&b, ")\n", 2);
    int rc = hs_buf_take(&b, out, len);
    if (rc)
        return hs_error_set(err, rc, "selfplay: out of memory writing the record");
    return 0;
}
