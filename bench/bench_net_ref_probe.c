/*
 * bench/bench_net_ref_probe.c — the raw value logits (3) and score outputs (4)
 * of our C reference pass (worker/nn/forward.h, symmetry 0) on one fixed
 * input: 19x19, plane 0 (on board) all ones, every other plane and every
 * global zero. bench/net_torch.py --selftest prints the same line from its
 * own PyTorch implementation; bench/net.sh checks the two agree within 1e-4,
 * which shows the PyTorch peer computes the same net as ours before its
 * speed is compared.
 *
 * usage: bench_net_ref_probe MODEL
 * prints: value V0 V1 V2 score S0 S1 S2 S3
 */
#include <stdio.h>
#include <stdlib.h>

#include "worker/nn/forward.h"

#define N 19

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL\n", argv[0]);
        return 2;
    }
    hs_error_t err = {0};
    hs_nn_model_t *m = NULL;
    if (hs_nn_model_load(argv[1], &m, &err)) {
        fprintf(stderr, "bench_net_ref_probe: %s\n", err.msg);
        return 1;
    }
    /* calloc: every plane but the on-board one, and every global, is zero */
    float *spatial = calloc((size_t)HS_NN_SPATIAL * N * N, sizeof *spatial);
    float global[HS_NN_GLOBAL] = {0};
    hs_nn_raw_t *raw = malloc(sizeof *raw);
    int rc = spatial && raw ? 0 : HS_ENOMEM;
    if (!rc) {
        for (int k = 0; k < N * N; k++)
            spatial[k] = 1.0f;
        rc = hs_nn_forward_ref(m, N, spatial, global, 0, raw, &err);
    }
    if (!rc)
        printf("value %.6f %.6f %.6f score %.6f %.6f %.6f %.6f\n", raw->value[0],
               raw->value[1], raw->value[2], raw->score[0], raw->score[1], raw->score[2],
               raw->score[3]);
    else
        fprintf(stderr, "bench_net_ref_probe: %s\n", err.msg[0] ? err.msg : "out of memory");
    free(spatial);
    free(raw);
    hs_nn_model_free(&m);
    return rc ? 1 : 0;
}
