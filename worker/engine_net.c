/*
 * worker/engine_net.c — the "net" engine: a KataGo-format network (worker/nn/)
 * behind the batch interface of engine.h, and the two helpers every engine
 * that runs a net shares (hs_engine_find_net, hs_engine_bind_nets).
 *
 * Spec: "net:net=<hash>[,sym=S]". The hash (hs_nn_model_t.hash, of the
 * uncompressed file) is part of the spec's text, so the engine id differs for
 * every net and their evals never mix. The model itself is loaded once per
 * process by the CLI and shared read-only (hs_engine_config_t.nets); each
 * instance (one per worker thread) owns its evaluator: backend and buffers.
 *
 * One evaluate(pos, n) is one hs_nn_evaluate over all n positions: the
 * evaluator splits them into backend batches of cfg->net_batch.
 *
 * Results, from the net's post-processed outputs (White's view, worker/nn):
 *   winrate  Black's win probability, no-result counted half: (1 + L - W) / 2
 *            with W, L White's win and loss probabilities;
 *   score    Black's lead, komi included: -white_lead;
 *   spread   the standard deviation of the self-play score,
 *            sqrt(max(0, selfplay_sq - selfplay^2)) (KataGo's scoreStdev);
 *   ownership  -100 * White's ownership, rounded: Black positive;
 *   policy   the HS_ENGINE_POLICY_TOP most probable legal moves (pass too).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/engine.h"
#include "worker/engine_plugins.h"
#include "worker/net_specs.h"
#include "worker/nn/eval.h"

/* ------------------------------------------------------------ the helpers */

void hs__engine_backend_config(const hs_engine_config_t *cfg, hs_nn_backend_config_t *bc)
{
    *bc = (hs_nn_backend_config_t){
        .kind = (hs_nn_backend_kind_t)cfg->net_backend,
        .max_batch = cfg->net_batch > 0 ? cfg->net_batch
                                        : hs_nn_backend_default_batch(cfg->net_backend),
        .threads = cfg->threads > 0 ? cfg->threads : 0,
        .gpu = cfg->gpu > 0 ? cfg->gpu : 0,
    };
}

bool hs__engine_opt_str(const char *opts, const char *key, char *buf, size_t size)
{
    size_t klen = strlen(key);
    for (const char *p = opts; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
            snprintf(buf, size, "%.*s", (int)(n - klen - 1), p + klen + 1);
            return true;
        }
        p = comma ? comma + 1 : NULL;
    }
    return false;
}

int hs_engine_find_net(const hs_engine_config_t *cfg, const char *options,
                       const struct hs_nn_model **model, hs_error_t *err)
{
    char want[HS_ENGINE_OPTION_MAX + 1];
    *model = NULL;
    if (!hs__engine_opt_str(options, "net", want, sizeof want))
        return hs_error_set(err, HS_EINVAL, "the engine needs net=<hash>: give --net FILE");
    char held[3 * (HS_NN_HASH_LEN + 2)] = "";
    size_t used = 0;
    for (int i = 0; cfg && i < cfg->n_nets; i++) {
        if (!strcmp(cfg->nets[i]->hash, want)) {
            *model = cfg->nets[i];
            return 0;
        }
        if (i < 3 && used < sizeof held)
            used += (size_t)snprintf(held + used, sizeof held - used, "%s%s", i ? ", " : "",
                                     cfg->nets[i]->hash);
    }
    if (!cfg || cfg->n_nets == 0)
        return hs_error_set(err, HS_ENOTFOUND, "this process holds no net %s "
                            "(give --net FILE)", want);
    return hs_error_set(err, HS_ENOTFOUND, "this process holds no net %s (give --net FILE): "
                        "spec names net %s but --net gave net %s", want, want, held);
}

int hs_engine_bind_nets(const char *list, const struct hs_nn_model *const *nets, int n_nets,
                        int n_bind, const char *net_file, char *out, size_t size,
                        hs_error_t *err)
{
    const char *hashes[HS_NET_MAX];
    if (n_nets > HS_NET_MAX)
        return hs_error_set(err, HS_ELIMIT, "at most %d nets", HS_NET_MAX);
    for (int i = 0; i < n_nets; i++)
        hashes[i] = nets[i]->hash;
    if (n_bind < 0 || n_bind > n_nets)
        return hs_error_set(err, HS_EINVAL, "bad count of nets to bind");
    int rc = hs_net_specs(list, hashes, n_bind, out, size, NULL, err);
    /* hs_net_specs lets a spec name any net (a cluster's other workers may
     * hold it); whoever computes the evals itself must hold it. */
    for (const char *p = out; !rc && (p = strstr(p, "net=")); p += 4) {
        if (p == out || (p[-1] != ':' && p[-1] != ','))
            continue;   /* an option is "net=" after ':' or ',' ("mcts:visits=9,net=") */
        bool held = false;
        for (int i = 0; i < n_nets; i++)
            held |= !strncmp(p + 4, nets[i]->hash, HS_NN_HASH_LEN);
        /* With no net loaded no worker of this process could take the job's
         * tasks, and the job would wait for one for good. */
        if (!held && n_nets == 0)
            rc = hs_error_set(err, HS_EINVAL, "spec names net %.*s but no net is loaded: "
                              "give --net FILE, the model of that hash", HS_NN_HASH_LEN, p + 4);
        else if (!held)
            rc = hs_error_set(err, HS_EINVAL, "spec names net %.*s but --net %s is net %s",
                              HS_NN_HASH_LEN, p + 4, net_file ? net_file : "FILE",
                              nets[0]->hash);
    }
    return rc;
}

/* ------------------------------------------------------------- the engine */

typedef struct s_net {
    const hs_nn_model_t *model;
    hs_nn_evaluator_t *ev;
    int sym;
    int cap;                    /* positions the buffers below hold */
    hs_nn_pos_t *pos;
    hs_nn_output_t *out;
} s_net_t;

static void s_destroy(void *state)
{
    s_net_t *s = state;
    if (!s)
        return;
    hs_nn_evaluator_free(&s->ev);
    free(s->pos);
    free(s->out);
    free(s);
}

static int s_create(const hs_engine_config_t *cfg, void **state, hs_error_t *err)
{
    const hs_nn_model_t *m = NULL;
    int rc = hs_engine_find_net(cfg, cfg->options, &m, err);
    if (rc < 0)
        return rc;
    s_net_t *s = calloc(1, sizeof *s);
    if (!s)
        return hs_error_set(err, HS_ENOMEM, "out of memory");
    char v[16];
    s->model = m;
    s->sym = hs__engine_opt_str(cfg->options, "sym", v, sizeof v) ? atoi(v) : 0;
    hs_nn_backend_config_t bc;
    hs__engine_backend_config(cfg, &bc);
    if ((rc = hs_nn_evaluator_create(m, &bc, &s->ev, err)) < 0) {
        free(s);
        return rc;
    }
    *state = s;
    return 0;
}

void hs__engine_nn_pos(const hs_engine_pos_t *ep, hs_nn_pos_t *p)
{
    const hs_game_t *g = ep->game;
    int played = ep->move_number;
    memset(p, 0, sizeof *p);
    p->board = ep->board;
    p->to_move = ep->board->to_move;
    p->rules = g->rules.id;
    p->komi = g->komi;
    p->handicap = g->handicap;
    for (int k = 0; k < g->num_setup; k++)
        *(g->setup[k].color == HS_BLACK ? &p->stones_black : &p->stones_white) += 1;
    for (int k = 0; k < played; k++)
        if (g->moves[k].vertex != HS_GAME_PASS)
            *(g->moves[k].color == HS_BLACK ? &p->stones_black : &p->stones_white) += 1;
    for (int k = played > HS_NN_HISTORY ? played - HS_NN_HISTORY : 0; k < played; k++) {
        const hs_game_move_t *mv = &g->moves[k];
        p->hist_color[p->n_hist] = (hs_color_t)mv->color;
        p->hist_move[p->n_hist++] = mv->vertex == HS_GAME_PASS
                                        ? HS_PASS : hs_game_board_point(ep->board, mv->vertex);
    }
    p->prev1 = played >= 1 ? ep->prev1 : NULL;
    p->prev2 = played >= 2 ? ep->prev2 : NULL;
}

/* The top moves of a policy (probabilities, -1 = illegal), most probable first. */
static int s_top_moves(const hs_nn_output_t *o, hs_engine_move_t *top)
{
    int nn = o->n * o->n, k = 0;
    for (int v = 0; v <= nn; v++) {
        float pr = o->policy[v];
        if (!(pr >= 0.0f))
            continue;
        int at = k < HS_ENGINE_POLICY_TOP ? k++ : HS_ENGINE_POLICY_TOP;
        if (at == HS_ENGINE_POLICY_TOP && pr <= top[at - 1].prob)
            continue;
        if (at == HS_ENGINE_POLICY_TOP)
            at--;
        for (; at > 0 && top[at - 1].prob < pr; at--)
            top[at] = top[at - 1];
        top[at].vertex = v == nn ? HS_GAME_PASS : (uint16_t)v;
        top[at].prob = pr > 1.0f ? 1.0f : pr;
    }
    return k;
}

static void s_result(const hs_nn_output_t *o, hs_engine_result_t *r)
{
    int nn = o->n * o->n;
    float wr = 0.5f * (1.0f + o->white_loss - o->white_win);
    r->winrate = wr < 0.0f ? 0.0f : wr > 1.0f ? 1.0f : wr;
    r->score = -o->white_lead;
    double var = (double)o->white_score_selfplay_sq -
                 (double)o->white_score_selfplay * o->white_score_selfplay;
    r->score_stdev = (float)sqrt(var > 0 ? var : 0);
    for (int v = 0; v < nn; v++) {
        long own = lroundf(-100.0f * o->ownership[v]);
        r->ownership[v] = (int8_t)(own < -100 ? -100 : own > 100 ? 100 : own);
    }
    r->num_vertices = nn;
    r->num_policy = s_top_moves(o, r->policy);
    r->flags = HS_ENGINE_HAS_SCORE | HS_ENGINE_HAS_WINRATE | HS_ENGINE_HAS_OWNERSHIP |
               HS_ENGINE_HAS_POLICY | (r->score_stdev > 0 ? HS_ENGINE_HAS_SPREAD : 0);
}

static int s_evaluate(void *state, const hs_engine_pos_t *pos, int n,
                      hs_engine_result_t *out, hs_error_t *err)
{
    s_net_t *s = state;
    if (n > s->cap) {
        hs_nn_pos_t *p = realloc(s->pos, sizeof *p * (size_t)n);
        if (p)
            s->pos = p;
        hs_nn_output_t *o = p ? realloc(s->out, sizeof *o * (size_t)n) : NULL;
        if (!o)
            return hs_error_set(err, HS_ENOMEM, "net: out of memory for %d positions", n);
        s->out = o;
        s->cap = n;
    }
    for (int i = 0; i < n; i++)
        hs__engine_nn_pos(&pos[i], &s->pos[i]);
    int rc = hs_nn_evaluate(s->ev, s->pos, n, s->sym, s->out, err);
    if (rc < 0)
        return rc;
    for (int i = 0; i < n; i++)
        s_result(&s->out[i], &out[i]);
    return 0;
}

/* The options that change results: the net (its content hash) and the
 * symmetry (0-7, or 8 = the average of all eight). */
static const hs_engine_option_t s_net_options[] = {
    { "net", 0, 0, HS_ENGINE_OPT_HASH },
    { "sym", 0, HS_NN_SYM_ALL, HS_ENGINE_OPT_INT },
    { NULL, 0, 0, HS_ENGINE_OPT_INT },
};

static double s_helper_cpu(void *state)
{
    return hs_nn_evaluator_helper_cpu(((const s_net_t *)state)->ev);
}

const hs_engine_vtable_t hs__engine_net_vt = {
    .name = "net", .revision = 1, .max_batch = 4096, .history = 2, .options = s_net_options,
    .create = s_create, .destroy = s_destroy, .evaluate = s_evaluate,
    .helper_cpu = s_helper_cpu,
};
