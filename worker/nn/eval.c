/*
 * worker/nn/eval.c — positions in, post-processed outputs out (eval.h):
 * features once per position (of the model's input set), one batch slot per (position, symmetry), the
 * backend, then each slot back to the board's frame, post-processed and
 * averaged into its position. Also the symmetry maps and the policy's
 * legality, which every backend's caller shares.
 */
#include <stdlib.h>
#include <string.h>

#include "worker/nn/eval.h"

struct hs_nn_evaluator {
    const hs_nn_model_t *model;
    hs_nn_backend_t *backend;
    int max_batch;
    float *spatial, *global;    /* [max_batch] inputs of the batch being filled */
    hs_nn_raw_t *raw;           /* [max_batch] */
    int *slot_pos, *slot_sym;   /* which position and symmetry each slot holds */
    float *features;            /* one position's untransformed planes */
    hs_nn_output_t *one;        /* scratch for one slot's output */
};

int hs_nn_sym_index(int x, int y, int n, int sym)
{
    if (sym & 2) x = n - 1 - x;
    if (sym & 1) y = n - 1 - y;
    if (sym & 4) { int t = x; x = y; y = t; }
    return y * n + x;
}

void hs_nn_sym_planes(const float *in, float *out, int planes, int n, int sym)
{
    size_t a = (size_t)n * (size_t)n;
    if (sym == 0) {
        memcpy(out, in, (size_t)planes * a * sizeof *in);
        return;
    }
    for (int p = 0; p < planes; p++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                out[(size_t)p * a + (size_t)hs_nn_sym_index(x, y, n, sym)] =
                    in[(size_t)p * a + (size_t)(y * n + x)];
}

void hs_nn_unsym_raw(hs_nn_raw_t *raw, int n, int sym)
{
    if (sym == 0)
        return;
    float pol[HS_NN_MAX_AREA], own[HS_NN_MAX_AREA];
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int s = hs_nn_sym_index(x, y, n, sym);
            pol[y * n + x] = raw->policy[s];
            own[y * n + x] = raw->ownership[s];
        }
    memcpy(raw->policy, pol, (size_t)(n * n) * sizeof *pol);
    memcpy(raw->ownership, own, (size_t)(n * n) * sizeof *own);
}

void hs_nn_legal_moves(const hs_nn_pos_t *pos, unsigned char *legal)
{
    const hs_board_t *b = pos->board;
    int n = b->size;
    int suicide = pos->rules == HS_RULES_NEW_ZEALAND || pos->rules == HS_RULES_TROMP_TAYLOR;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            legal[y * n + x] = hs_board_legal(b, pos->to_move, hs_board_point(b, x, y),
                                              suicide ? HS_PLAY_SUICIDE_OK : 0) == HS_LEGAL;
    legal[n * n] = 1;
}

static void s_accumulate(hs_nn_output_t *acc, const hs_nn_output_t *o)
{
    int a = o->n * o->n;
    for (int i = 0; i <= a; i++)
        acc->policy[i] += o->policy[i];
    for (int i = 0; i < a; i++)
        acc->ownership[i] += o->ownership[i];
    acc->white_win += o->white_win; acc->white_loss += o->white_loss;
    acc->no_result += o->no_result; acc->white_lead += o->white_lead;
    acc->white_score_selfplay += o->white_score_selfplay;
    acc->white_score_selfplay_sq += o->white_score_selfplay_sq;
    acc->var_time_left += o->var_time_left; acc->st_winloss_error += o->st_winloss_error;
    acc->st_score_error += o->st_score_error;
}

static void s_scale(hs_nn_output_t *acc, float k)
{
    int a = acc->n * acc->n;
    for (int i = 0; i <= a; i++)
        acc->policy[i] *= k;   /* illegal moves stay -1: eight -1s times 1/8 */
    for (int i = 0; i < a; i++)
        acc->ownership[i] *= k;
    acc->white_win *= k; acc->white_loss *= k; acc->no_result *= k; acc->white_lead *= k;
    acc->white_score_selfplay *= k; acc->white_score_selfplay_sq *= k;
    acc->var_time_left *= k; acc->st_winloss_error *= k; acc->st_score_error *= k;
}

int hs_nn_evaluator_create(const hs_nn_model_t *m, const hs_nn_backend_config_t *cfg,
                           hs_nn_evaluator_t **out, hs_error_t *err)
{
    *out = NULL;
    hs_nn_evaluator_t *e = calloc(1, sizeof *e);
    if (!e)
        return hs_error_set(err, HS_ENOMEM, "net: out of memory");
    int rc = hs_nn_backend_create(m, cfg, &e->backend, err);
    if (rc) {
        free(e);
        return rc;
    }
    size_t mb = (size_t)cfg->max_batch, plane = (size_t)HS_NN_SPATIAL * HS_NN_MAX_AREA;
    e->model = m;
    e->max_batch = cfg->max_batch;
    e->spatial = malloc(mb * plane * sizeof *e->spatial);
    e->global = malloc(mb * HS_NN_GLOBAL * sizeof *e->global);
    e->raw = malloc(mb * sizeof *e->raw);
    e->slot_pos = malloc(mb * sizeof *e->slot_pos);
    e->slot_sym = malloc(mb * sizeof *e->slot_sym);
    e->features = malloc(plane * sizeof *e->features);
    e->one = malloc(sizeof *e->one);
    if (!e->spatial || !e->global || !e->raw || !e->slot_pos || !e->slot_sym
        || !e->features || !e->one) {
        hs_nn_evaluator_free(&e);
        return hs_error_set(err, HS_ENOMEM, "net: out of memory for a batch of %d", cfg->max_batch);
    }
    *out = e;
    return 0;
}

void hs_nn_evaluator_free(hs_nn_evaluator_t **e)
{
    if (!e || !*e)
        return;
    hs_nn_backend_free(&(*e)->backend);
    free((*e)->spatial); free((*e)->global); free((*e)->raw);
    free((*e)->slot_pos); free((*e)->slot_sym); free((*e)->features); free((*e)->one);
    free(*e);
    *e = NULL;
}

double hs_nn_evaluator_helper_cpu(const hs_nn_evaluator_t *e)
{
    return hs_nn_backend_helper_cpu(e->backend);
}

const hs_nn_backend_t *hs_nn_evaluator_backend(const hs_nn_evaluator_t *e)
{
    return e->backend;
}

/* Runs the filled slots and folds each into its position's output. legal
 * holds (HS_NN_MAX_AREA + 1) bytes per position. */
static int s_flush(hs_nn_evaluator_t *e, int slots, int n, const hs_nn_pos_t *pos,
                   const unsigned char *legal, hs_nn_output_t *out, hs_error_t *err)
{
    if (!slots)
        return 0;
    int rc = hs_nn_backend_run(e->backend, slots, n, e->spatial, e->global, e->raw, err);
    for (int s = 0; !rc && s < slots; s++) {
        int p = e->slot_pos[s];
        hs_nn_unsym_raw(&e->raw[s], n, e->slot_sym[s]);
        hs_nn_output_t *dst = out[p].n == 0 ? &out[p] : e->one;
        hs_nn_postprocess(e->model, &e->raw[s], &pos[p],
                          legal + (size_t)p * (HS_NN_MAX_AREA + 1), dst);
        if (dst == e->one)
            s_accumulate(&out[p], e->one);
    }
    return rc;
}

/* hs_nn_evaluate and hs_nn_evaluate_syms: every position at sym, or
 * position p at syms[p] when syms is not NULL. */
static int s_evaluate(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, int count, int sym,
                      const unsigned char *syms, hs_nn_output_t *out, hs_error_t *err)
{
    unsigned char *legal = malloc((size_t)(count > 0 ? count : 1) * (HS_NN_MAX_AREA + 1));
    if (!legal)
        return hs_error_set(err, HS_ENOMEM, "net: out of memory");
    int s0 = sym == HS_NN_SYM_ALL ? 0 : sym, s1 = sym == HS_NN_SYM_ALL ? 7 : sym;
    int rc = 0, slots = 0, n = 0;
    float gl[HS_NN_GLOBAL];
    for (int p = 0; !rc && p < count; p++) {
        int pn = pos[p].board->size;
        if (slots && (pn != n || slots + (s1 - s0 + 1) > e->max_batch)) {
            rc = s_flush(e, slots, n, pos, legal, out, err);
            slots = 0;
        }
        n = pn;
        out[p].n = 0;    /* "nothing accumulated yet" for s_flush */
        if (!rc)
            rc = hs_nn_features_for(e->model->input_set, &pos[p], e->features, gl, err);
        if (rc)
            break;
        hs_nn_legal_moves(&pos[p], legal + (size_t)p * (HS_NN_MAX_AREA + 1));
        size_t a = (size_t)n * (size_t)n;
        if (syms)
            s0 = s1 = syms[p];
        for (int s = s0; s <= s1; s++) {
            if (slots == e->max_batch) {    /* max_batch < 8 with every symmetry */
                rc = s_flush(e, slots, n, pos, legal, out, err);
                slots = 0;
                if (rc)
                    break;
            }
            hs_nn_sym_planes(e->features, e->spatial + (size_t)slots * HS_NN_SPATIAL * a,
                             HS_NN_SPATIAL, n, s);
            memcpy(e->global + (size_t)slots * HS_NN_GLOBAL, gl, sizeof gl);
            e->slot_pos[slots] = p;
            e->slot_sym[slots] = s;
            slots++;
        }
    }
    if (!rc)
        rc = s_flush(e, slots, n, pos, legal, out, err);
    if (!rc && sym == HS_NN_SYM_ALL)
        for (int p = 0; p < count; p++)
            s_scale(&out[p], 1.0f / 8.0f);
    free(legal);
    return rc;
}

int hs_nn_evaluate(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, int count, int sym,
                   hs_nn_output_t *out, hs_error_t *err)
{
    if (sym < 0 || sym > HS_NN_SYM_ALL)
        return hs_error_set(err, HS_EINVAL, "net: symmetry %d (0-7, or 8 for all)", sym);
    return s_evaluate(e, pos, count, sym, NULL, out, err);
}

int hs_nn_evaluate_syms(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, int count,
                        const unsigned char *syms, hs_nn_output_t *out, hs_error_t *err)
{
    for (int p = 0; p < count; p++)
        if (syms[p] > 7)
            return hs_error_set(err, HS_EINVAL, "net: symmetry %d (0-7)", syms[p]);
    return s_evaluate(e, pos, count, 0, syms, out, err);
}

int hs_nn_evaluate_avg(hs_nn_evaluator_t *e, const hs_nn_pos_t *pos, const unsigned char *syms,
                       int nsyms, hs_nn_output_t *out, hs_error_t *err)
{
    if (nsyms < 1 || nsyms > 8)
        return hs_error_set(err, HS_EINVAL, "net: %d symmetries to average (1-8)", nsyms);
    hs_nn_pos_t copies[8];
    hs_nn_output_t *o = malloc((size_t)nsyms * sizeof *o);
    if (!o)
        return hs_error_set(err, HS_ENOMEM, "net: out of memory");
    for (int i = 0; i < nsyms; i++)
        copies[i] = *pos;
    int rc = hs_nn_evaluate_syms(e, copies, nsyms, syms, o, err);
    if (!rc) {
        *out = o[0];
        for (int i = 1; i < nsyms; i++)
            s_accumulate(out, &o[i]);
        s_scale(out, 1.0f / (float)nsyms);
    }
    free(o);
    return rc;
}

int hs_nn_eval_ref(const hs_nn_model_t *m, const hs_nn_pos_t *pos, int sym,
                   hs_nn_output_t *out, hs_error_t *err)
{
    hs_nn_backend_config_t cfg = { .kind = HS_NN_BACKEND_REF, .max_batch = 8 };
    hs_nn_evaluator_t *e;
    int rc = hs_nn_evaluator_create(m, &cfg, &e, err);
    if (!rc)
        rc = hs_nn_evaluate(e, pos, 1, sym, out, err);
    hs_nn_evaluator_free(&e);
    return rc;
}
