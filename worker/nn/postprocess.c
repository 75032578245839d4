/*
 * worker/nn/postprocess.c — from raw network outputs to what users read
 * (forward.h): the policy softmax over legal moves, win/loss/no-result, the
 * score figures with the version's multipliers, ownership; White's view.
 * Shared by every backend; the evaluator (eval.c) calls it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worker/nn/forward.h"

static double s_softplus(double x)
{
    return x > 40 ? x : log1p(exp(x));
}

static void s_policy(const hs_nn_raw_t *raw, const unsigned char *legal, hs_nn_output_t *out)
{
    int a = raw->n * raw->n;
    float mx = -1e30f;
    for (int i = 0; i <= a; i++)
        if (legal[i] && raw->policy[i] > mx)
            mx = raw->policy[i];
    double sum = 0;
    for (int i = 0; i <= a; i++) {
        out->policy[i] = legal[i] ? expf(raw->policy[i] - mx) : 0.0f;
        sum += out->policy[i];
    }
    for (int i = 0; i <= a; i++)
        out->policy[i] = legal[i] ? (float)(out->policy[i] / sum) : -1.0f;
}

void hs_nn_postprocess(const hs_nn_model_t *m, const hs_nn_raw_t *raw,
                       const hs_nn_pos_t *pos, const unsigned char *legal,
                       hs_nn_output_t *out)
{
    memset(out, 0, sizeof *out);
    out->n = raw->n;
    s_policy(raw, legal, out);

    /* no-result only exists where a long cycle can end the game: simple ko or
     * territory scoring (KataGo drops it under superko with area scoring) */
    int superko_area = pos->rules == HS_RULES_AGA || pos->rules == HS_RULES_NEW_ZEALAND
                       || pos->rules == HS_RULES_TROMP_TAYLOR;
    double w = raw->value[0], l = raw->value[1], nr = raw->value[2];
    if (superko_area)
        nr -= 100000.0;
    double mx = fmax(fmax(w, l), nr);
    double pw = exp(w - mx), pl = exp(l - mx), pn = superko_area ? 0.0 : exp(nr - mx);
    double sum = pw + pl + pn;
    pw /= sum; pl /= sum; pn /= sum;

    double mean = raw->score[0] * m->score_mean_mul;
    double stdev = s_softplus(raw->score[1]) * m->score_stdev_mul;
    double mean_sq = mean * mean + stdev * stdev;
    double lead = raw->score[2] * m->lead_mul;
    double vtl = s_softplus(raw->score[3]) * m->variance_time_mul;
    /* scores are conditional on a result; no-result counts as 0 */
    mean *= 1.0 - pn; mean_sq *= 1.0 - pn; lead *= 1.0 - pn;

    int white = pos->to_move == HS_WHITE;
    out->white_win = (float)(white ? pw : pl);
    out->white_loss = (float)(white ? pl : pw);
    out->no_result = (float)pn;
    out->white_score_selfplay = (float)(white ? mean : -mean);
    out->white_score_selfplay_sq = (float)mean_sq;
    out->white_lead = (float)(white ? lead : -lead);
    out->var_time_left = out->st_winloss_error = out->st_score_error = -1.0f;
    if (m->version >= 9) {
        double e1 = raw->score[4], e2 = raw->score[5], s1, s2;
        if (m->version >= 14) {
            s1 = s_softplus(0.5 * e1); s1 = sqrt(s1 * s1 * m->st_value_error_mul);
            s2 = s_softplus(0.5 * e2); s2 = sqrt(s2 * s2 * m->st_score_error_mul);
        } else if (m->version >= 10) {
            s1 = sqrt(s_softplus(e1) * m->st_value_error_mul);
            s2 = sqrt(s_softplus(e2) * m->st_score_error_mul);
        } else {
            s1 = s_softplus(e1);
            s2 = s_softplus(e2) * 10.0;
        }
        out->var_time_left = (float)vtl;
        out->st_winloss_error = (float)s1;
        out->st_score_error = (float)s2;
    }
    out->stones_zero = m->input_set == HS_NN_INPUT_HS_V1;
    for (int i = 0; i < raw->n * raw->n; i++) {
        float t = tanhf(raw->ownership[i]);
        out->ownership[i] = white ? t : -t;
    }
}
