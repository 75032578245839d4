/*
 * tests/test_nn_cuda.c — the cuDNN backend (worker/nn/cuda/) against the
 * reference: post-processed outputs of b6c96 through the cuda and the ref
 * evaluators, at batch 1 and 7 (one lane) and 64 (8 positions x the 8
 * symmetries: split over both lanes), on 19x19 and on 9x9 (its own plans);
 * then KataGo's golden outputs (golden-raw-nn.txt, as test_nn_golden.c
 * reads them) through the cuda evaluator.
 *
 * FP16 tolerance: 2e-2 absolute for probabilities, win/loss and ownership;
 * values in points (scores, their spread and errors) 2e-2 relative to
 * max(5, |reference|), so at least a tenth of a point: a lead is 20 times a
 * raw output, whose FP16 rounding near zero shows as a few hundredths of a
 * point (the first H200 run found 0.024 on a lead of -1.11). The worst
 * difference of each kind is printed.
 *
 * Skips (77, "no GPU: ...") where the build has no cuDNN backend or no GPU
 * is present; skips where the net is missing. The net is HS_NN_MODEL where
 * set (bench/net_gpu.sh sets it on a machine without ../shared), else
 * ../shared's b6c96; the golden part needs ../shared/data and is left out,
 * saying so, without it.
 */
#include <math.h>

#include "core/game.h"
#include "core/replay.h"
#include "core/sgf.h"
#include "test.h"
#include "worker/nn/eval.h"

#define NET "/../nets/katago-g170-b6c96/"
#define TOL 2e-2

typedef struct worst {
    double prob, points;
    long compared, bad;
} worst_t;

static void s_one(worst_t *w, const char *what, int idx, double ref, double got, int points)
{
    double diff = fabs(ref - got);
    double tol = points ? TOL * fmax(5.0, fabs(ref)) : TOL;
    double *slot = points ? &w->points : &w->prob;
    *slot = diff > *slot ? diff : *slot;
    w->compared++;
    if (!(diff <= tol)) {
        if (w->bad++ < 10)
            fprintf(stderr, "%s[%d]: ref %.5f, cuda %.5f\n", what, idx, ref, got);
    }
}

static void s_compare(worst_t *w, const hs_nn_output_t *r, const hs_nn_output_t *c)
{
    int a = r->n * r->n;
    HS_CHECK_INT(c->n, r->n);
    for (int i = 0; i <= a; i++)
        s_one(w, "policy", i, r->policy[i], c->policy[i], 0);
    for (int i = 0; i < a; i++)
        s_one(w, "ownership", i, r->ownership[i], c->ownership[i], 0);
    s_one(w, "white_win", 0, r->white_win, c->white_win, 0);
    s_one(w, "white_loss", 0, r->white_loss, c->white_loss, 0);
    s_one(w, "no_result", 0, r->no_result, c->no_result, 0);
    s_one(w, "white_lead", 0, r->white_lead, c->white_lead, 1);
    s_one(w, "selfplay", 0, r->white_score_selfplay, c->white_score_selfplay, 1);
    s_one(w, "selfplay_sq", 0, r->white_score_selfplay_sq, c->white_score_selfplay_sq, 1);
    s_one(w, "var_time_left", 0, r->var_time_left, c->var_time_left, 1);
    s_one(w, "st_winloss_error", 0, r->st_winloss_error, c->st_winloss_error, 0);
    s_one(w, "st_score_error", 0, r->st_score_error, c->st_score_error, 1);
}

/* A middle-game-like position: moves legal stones by a fixed LCG, both
 * colours, no passes. */
static void s_board(hs_board_t *b, int n, int moves, unsigned seed)
{
    hs_board_init(b, n);
    unsigned s = seed;
    for (int k = 0, tries = 0; k < moves && tries < 100000; tries++) {
        s = s * 1103515245u + 12345u;
        int x = (int)((s >> 8) % (unsigned)n), y = (int)((s >> 20) % (unsigned)n);
        hs_point_t p = hs_board_point(b, x, y);
        if (hs_board_legal(b, b->to_move, p, 0) == HS_LEGAL) {
            hs_board_play_legal(b, b->to_move, p);
            k++;
        }
    }
}

static void s_pos(hs_nn_pos_t *pos, const hs_board_t *b, int i)
{
    memset(pos, 0, sizeof *pos);
    pos->board = b;
    pos->to_move = b->to_move;
    pos->rules = i % 2 ? HS_RULES_CHINESE : HS_RULES_JAPANESE;
    pos->komi = 6.5 + (i % 3);
    pos->stones_black = pos->stones_white = b->move_number / 2;
}

/* count positions on n x n at sym through both evaluators (max_batch
 * slots), compared. */
static void s_parity(const hs_nn_model_t *m, int n, int count, int sym, int max_batch)
{
    hs_board_t *boards = calloc((size_t)count, sizeof *boards);
    hs_nn_pos_t *pos = calloc((size_t)count, sizeof *pos);
    hs_nn_output_t *ref = calloc((size_t)count, sizeof *ref), *got = calloc((size_t)count, sizeof *got);
    for (int i = 0; i < count; i++) {
        s_board(&boards[i], n, n * n / 4 + 7 * i, 17u + (unsigned)i);
        s_pos(&pos[i], &boards[i], i);
    }
    hs_nn_backend_config_t cfg = { HS_NN_BACKEND_REF, max_batch, 0, 0 };
    hs_nn_evaluator_t *er = NULL, *ec = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_nn_evaluator_create(m, &cfg, &er, &err), 0);
    cfg.kind = HS_NN_BACKEND_CUDA;
    int rc = hs_nn_evaluator_create(m, &cfg, &ec, &err);
    if (rc)
        fprintf(stderr, "cuda evaluator: %s\n", err.msg);
    HS_CHECK_INT(rc, 0);
    if (er && ec) {
        HS_CHECK_INT(hs_nn_evaluate(er, pos, count, sym, ref, &err), 0);
        rc = hs_nn_evaluate(ec, pos, count, sym, got, &err);
        if (rc)
            fprintf(stderr, "cuda evaluate: %s\n", err.msg);
        HS_CHECK_INT(rc, 0);
        worst_t w = { 0, 0, 0, 0 };
        for (int i = 0; !rc && i < count; i++)
            s_compare(&w, &ref[i], &got[i]);
        printf("parity %dx%d, %d positions, sym %d (batch %d): %ld of %ld within tolerance; "
               "worst %.5f (probabilities, ownership), %.5f (points)\n", n, n, count, sym,
               sym == HS_NN_SYM_ALL ? 8 * count : count, w.compared - w.bad, w.compared, w.prob,
               w.points);
        HS_CHECK_INT(w.bad, 0);
        HS_CHECK(w.compared > 0);
    }
    hs_nn_evaluator_free(&er);
    hs_nn_evaluator_free(&ec);
    free(boards); free(pos); free(ref); free(got);
}

/* ---- golden: KataGo's outputs, the session test_nn_golden.c replays ---- */

static char *s_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t len = buf ? fread(buf, 1, (size_t)n, f) : 0;
    if (buf)
        buf[len] = '\0';
    fclose(f);
    return buf;
}

/* The position before `move` of FILE, with the history the net reads (as
 * test_nn_golden.c builds it; the rules carry over between RU-less files). */
static int s_golden_pos(const char *data, const char *file, int move, hs_rules_id_t *rules,
                        hs_game_t *g, hs_nn_game_pos_t *gp, hs_error_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/pro19-sample/%s", data, file);
    char *text = s_slurp(path);
    if (!text)
        return hs_error_set(err, HS_EIO, "%s: cannot read", path);
    hs_sgf_collection_t *c = hs_sgf_parse(text, strlen(text), NULL, err);
    free(text);
    if (!c)
        return err->code;
    hs_game_init(g, 19);
    int rc = hs_game_from_sgf(hs_sgf_root(c, 0), g, err);
    hs_sgf_destroy(&c);
    if (!rc && g->rules_raw)
        *rules = g->rules.id;   /* else the session's rules stay */
    /* the position before `move`: move - 1 moves played */
    return rc ? rc : hs_nn_game_pos_at(g, move - 1, *rules, 6.5, g->handicap, gp, err);
}

/* One golden block (from "= symmetry 0" to the next "###") against o. */
static void s_golden_block(worst_t *w, char *block, const hs_nn_output_t *o)
{
    const struct { const char *key; float v; int points; } vals[] = {
        {"whiteWin", o->white_win, 0}, {"whiteLoss", o->white_loss, 0},
        {"noResult", o->no_result, 0}, {"whiteLead", o->white_lead, 1},
        {"whiteScoreSelfplay", o->white_score_selfplay, 1},
        {"whiteScoreSelfplaySq", o->white_score_selfplay_sq, 1},
        {"varTimeLeft", o->var_time_left, 1}, {"shorttermWinlossError", o->st_winloss_error, 0},
        {"shorttermScoreError", o->st_score_error, 1}};
    char *save = NULL;
    int section = 0, idx = 0, a = o->n * o->n;
    for (char *line = strtok_r(block, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char key[64];
        if (sscanf(line, "%63s", key) != 1)
            continue;
        if (!strcmp(key, "policy") || !strcmp(key, "whiteOwnership")) {
            section = key[0] == 'p' ? 1 : 2;
            idx = 0;
            continue;
        }
        if (!strcmp(key, "policyPass")) {
            s_one(w, "pass", 0, atof(line + 11), o->policy[a], 0);
            section = 0;
            continue;
        }
        int is_val = 0;
        for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
            if (!strcmp(key, vals[i].key)) {
                s_one(w, key, 0, atof(line + strlen(key) + 1), vals[i].v, vals[i].points);
                is_val = 1;
            }
        if (is_val || !section)
            continue;
        char *ts = NULL;
        for (char *tok = strtok_r(line, " ", &ts); tok; tok = strtok_r(NULL, " ", &ts), idx++) {
            if (idx >= a)
                continue;
            float ours = section == 1 ? o->policy[idx] : o->ownership[idx];
            if (!strcmp(tok, "NAN"))   /* illegal in KataGo's print: -1 in ours */
                s_one(w, "illegal", idx, -1.0, ours, 0);
            else
                s_one(w, section == 1 ? "policy" : "ownership", idx, atof(tok), ours, 0);
        }
    }
}

static void s_golden(const hs_nn_model_t *m, const char *data)
{
    char path[4096];
    snprintf(path, sizeof path, "%s" NET "golden-raw-nn.txt", data);
    char *golden = s_slurp(path);
    if (!golden) {
        printf("golden: %s is not here; golden comparison skipped\n", path);
        return;
    }
    hs_nn_backend_config_t cfg = { HS_NN_BACKEND_CUDA, 8, 0, 0 };
    hs_nn_evaluator_t *e = NULL;
    hs_error_t err;
    HS_CHECK_INT(hs_nn_evaluator_create(m, &cfg, &e, &err), 0);
    hs_nn_output_t *out = malloc(sizeof *out);
    worst_t w = { 0, 0, 0, 0 };
    int positions = 0;
    hs_rules_id_t rules = HS_RULES_JAPANESE;
    for (char *h = strstr(golden, "\n###"); e && h; ) {
        char *next = strstr(h + 1, "\n###");
        if (next)
            *next = '\0';
        char file[512];
        int move = 0;
        HS_CHECK(sscanf(h + 1, "### %511s %d", file, &move) == 2);
        hs_game_t g;
        hs_nn_game_pos_t *gp = malloc(sizeof *gp);
        int rc = s_golden_pos(data, file, move, &rules, &g, gp, &err);
        const hs_nn_pos_t *pos = &gp->nn;
        if (!rc)
            rc = hs_nn_evaluate(e, pos, 1, 0, out, &err);
        if (rc)
            fprintf(stderr, "%s %d: %s\n", file, move, err.msg);
        HS_CHECK_INT(rc, 0);
        if (!rc) {
            s_golden_block(&w, strchr(h + 1, '\n'), out);
            positions++;
        }
        free(gp);
        hs_game_fini(&g);
        h = next;
        if (next)
            *next = '\n';
    }
    printf("golden (cuda): %d positions, %ld of %ld numbers within tolerance; worst %.5f "
           "(probabilities, ownership), %.5f (points)\n", positions, w.compared - w.bad,
           w.compared, w.prob, w.points);
    HS_CHECK_INT(positions, 24);
    HS_CHECK_INT(w.bad, 0);
    free(out);
    free(golden);
    hs_nn_evaluator_free(&e);
}

/* ../shared/data where present (HS_DATA_DIR with its SOURCES.md), else NULL */
static const char *s_data_dir(void)
{
    const char *d = getenv("HS_DATA_DIR");
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/SOURCES.md", d ? d : "");
    FILE *f = d ? fopen(probe, "r") : NULL;
    if (f)
        fclose(f);
    return f ? d : NULL;
}

int main(void)
{
    hs_error_t err;
    if (!hs_nn_backend_available(HS_NN_BACKEND_CUDA, &err)) {
        printf("SKIP: no GPU: %s\n", err.msg);
        return 77;
    }
    const char *data = s_data_dir(), *model = getenv("HS_NN_MODEL");
    char path[4096];
    snprintf(path, sizeof path, "%s" NET "g170-b6c96-s175395328-d26788732.bin.gz",
             data ? data : "../shared/data");
    hs_nn_model_t *m = NULL;
    if (hs_nn_model_load(model && *model ? model : path, &m, &err) != 0) {
        printf("SKIP: the net is not here (%s; set HS_NN_MODEL or provide ../shared)\n", err.msg);
        return 77;
    }
    s_parity(m, 19, 1, 0, 1);                /* one board, lane 0 */
    s_parity(m, 19, 7, 3, 7);                /* under the split: lane 0 alone */
    s_parity(m, 19, 8, HS_NN_SYM_ALL, 64);   /* 64 slots over both lanes */
    s_parity(m, 9, 7, 5, 64);                /* another board size: other plans */
    s_parity(m, 13, 40, 0, 32);              /* 32 + 8: two batch sizes, one backend */
    if (data)
        s_golden(m, data);
    else
        printf("golden: ../shared/data is not here (HS_DATA_DIR); golden comparison left out\n");
    hs_nn_model_free(&m);
    return hs_test_finish();
}
