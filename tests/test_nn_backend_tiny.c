/*
 * tests/test_nn_backend_tiny.c — the cpu backend against ref on the tiny
 * hand-made models of the fuzz corpus (worker/nn/make_tiny_model.py): v8
 * (ordinary + gpool blocks), v11 (Mish), v15 (nested bottleneck blocks, the
 * pass MLP), v16. Their few channels also exercise blocked formats' padding.
 * Random valid inputs (plane 0 ones), batch 3, boards 19, 7 and 2, direct
 * and Winograd; every raw output within 1e-4 of its kind's scale. Needs no
 * ../shared; skips (77) where the build has no oneDNN.
 */
#include <math.h>

#include "core/rng.h"
#include "test.h"
#include "worker/nn/backend.h"

#define TOL 1e-4
#define BATCH 3

static void s_inputs(int n, float *sp, float *gl, uint64_t seed)
{
    hs_rng_t rng;
    hs_rng_seed(&rng, seed);
    size_t a = (size_t)n * (size_t)n;
    for (int b = 0; b < BATCH; b++) {
        for (size_t k = 0; k < HS_NN_SPATIAL * a; k++)
            sp[(size_t)b * HS_NN_SPATIAL * a + k] = k < a ? 1.0f : (float)(hs_rng_next(&rng) % 4 == 0);
        for (int k = 0; k < HS_NN_GLOBAL; k++)
            gl[b * HS_NN_GLOBAL + k] = (float)(hs_rng_next(&rng) % 2);
    }
}

/* worst |got - want| / scale over one output kind of the batch */
static double s_worst(const float *want, const float *got, size_t stride_f, int count)
{
    double scale = 1, worst = 0;
    for (int b = 0; b < BATCH; b++)
        for (int i = 0; i < count; i++)
            scale = fmax(scale, fabs(want[(size_t)b * stride_f + (size_t)i]));
    for (int b = 0; b < BATCH; b++)
        for (int i = 0; i < count; i++) {
            double d = fabs((double)want[(size_t)b * stride_f + (size_t)i]
                            - got[(size_t)b * stride_f + (size_t)i]) / scale;
            worst = d > worst || d != d ? d : worst;
        }
    return worst;
}

static void s_model(const char *path)
{
    hs_error_t err;
    hs_nn_model_t *m = NULL;
    HS_CHECK_INT(hs_nn_model_load(path, &m, &err), 0);
    if (!m)
        return;
    hs_nn_backend_t *ref = NULL, *cpu = NULL;
    hs_nn_backend_config_t rc = {HS_NN_BACKEND_REF, BATCH, 0, 0}, cc = {HS_NN_BACKEND_CPU, BATCH, 0, 0};
    HS_CHECK_INT(hs_nn_backend_create(m, &rc, &ref, &err), 0);
    float *sp = malloc(BATCH * (size_t)HS_NN_SPATIAL * HS_NN_MAX_AREA * sizeof *sp);
    float *gl = malloc(BATCH * HS_NN_GLOBAL * sizeof *gl);
    hs_nn_raw_t *want = malloc(BATCH * sizeof *want), *got = malloc(BATCH * sizeof *got);
    for (int w = 0; w < 2; w++) {
        setenv("HS_DNNL_WINOGRAD", w ? "1" : "0", 1);
        int crc = hs_nn_backend_create(m, &cc, &cpu, &err);
        if (crc)
            fprintf(stderr, "%s: cpu create: %s\n", path, err.msg);
        HS_CHECK_INT(crc, 0);
        static const int sizes[] = {19, 7, 2};
        for (int s = 0; cpu && s < 3; s++) {
            int n = sizes[s], a = n * n;
            s_inputs(n, sp, gl, (uint64_t)(n + 100 * w));
            HS_CHECK_INT(hs_nn_backend_run(ref, BATCH, n, sp, gl, want, &err), 0);
            int r = hs_nn_backend_run(cpu, BATCH, n, sp, gl, got, &err);
            if (r)
                fprintf(stderr, "%s: cpu run: %s\n", path, err.msg);
            HS_CHECK_INT(r, 0);
            size_t st = sizeof(hs_nn_raw_t) / sizeof(float);
            double worst = fmax(fmax(s_worst(want->policy, got->policy, st, a + 1),
                                     s_worst(want->value, got->value, st, 3)),
                                fmax(s_worst(want->score, got->score, st, m->sv3.out_c),
                                     s_worst(want->ownership, got->ownership, st, a)));
            printf("%s %dx%d %s: worst |cpu - ref| / scale = %.2e\n", strrchr(path, '/') + 1,
                   n, n, w ? "winograd" : "direct", worst);
            HS_CHECK(worst <= TOL);
        }
        hs_nn_backend_free(&cpu);
    }
    unsetenv("HS_DNNL_WINOGRAD");
    free(sp); free(gl); free(want); free(got);
    hs_nn_backend_free(&ref);
    hs_nn_model_free(&m);
}

int main(void)
{
    hs_error_t err;
    if (!hs_nn_backend_available(HS_NN_BACKEND_CPU, &err)) {
        printf("SKIP: %s\n", err.msg);
        return 77;
    }
    const char *own = getenv("HS_TEST_DATA");
    static const char *const versions[] = {"v8", "v11", "v15", "v16"};
    for (int i = 0; i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/../fuzz/corpus/nnmodel/tiny-%s.bin.gz",
                 own ? own : "tests/data", versions[i]);
        s_model(path);
    }
    return hs_test_finish();
}
