/*
 * bench/bench_net_ref_probe.c — a few raw outputs of our C reference pass
 * (worker/nn/forward.h, symmetry 0) on two fixed 19x19 inputs: "empty" (plane
 * 0, on board, all ones; every other plane and every global zero) and
 * "pattern" (the same plus own stones where (y*19+x) % 7 == 0, opponent
 * stones where it is 3 mod 11 and not own, komi 7.5/20 in global 5).
 * bench/net_torch.py --selftest prints the same lines from its own PyTorch
 * implementation; bench/net.sh and tests/test_nn_torch_peer.sh check the two
 * agree within 1e-4, which shows the PyTorch peer computes the same net as
 * ours before its speed is compared (and, the other way round, that our
 * reader and reference pass agree with an independent implementation).
 *
 * usage: bench_net_ref_probe MODEL
 * prints per input: NAME value V0 V1 V2 score S0 S1 S2 S3 pass P
 *                   policy P0 P180 own O0 O180
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
    for (int pattern = 0; !rc && pattern < 2; pattern++) {
        for (int k = 0; k < N * N; k++) {
            spatial[k] = 1.0f;
            spatial[N * N + k] = pattern && k % 7 == 0 ? 1.0f : 0.0f;
            spatial[2 * N * N + k] = pattern && k % 7 != 0 && k % 11 == 3 ? 1.0f : 0.0f;
        }
        global[5] = pattern ? 7.5f / 20.0f : 0.0f;
        rc = hs_nn_forward_ref(m, N, spatial, global, 0, raw, &err);
        if (!rc)
            printf("%s value %.6f %.6f %.6f score %.6f %.6f %.6f %.6f pass %.6f "
                   "policy %.6f %.6f own %.6f %.6f\n", pattern ? "pattern" : "empty",
                   raw->value[0], raw->value[1], raw->value[2], raw->score[0], raw->score[1],
                   raw->score[2], raw->score[3], raw->policy[N * N], raw->policy[0],
                   raw->policy[180], raw->ownership[0], raw->ownership[180]);
    }
    if (rc)
        fprintf(stderr, "bench_net_ref_probe: %s\n", err.msg[0] ? err.msg : "out of memory");
    free(spatial);
    free(raw);
    hs_nn_model_free(&m);
    return rc ? 1 : 0;
}
