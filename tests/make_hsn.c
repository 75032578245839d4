/*
 * tests/make_hsn.c — writes a small random .hsn net (tests/hsn_write.h) for
 * the shell tests (the default-model lookup) and the fuzz seeds of
 * fuzz_nnmodel; not a test itself. Deterministic for a given seed.
 *
 * Usage: make_hsn OUT.hsn [B C K P G V H [SEED]]   (default 1 8 3 4 4 4 8, seed 1)
 */
#include "hsn_write.h"

int main(int argc, char **argv)
{
    int v[7] = {1, 8, 3, 4, 4, 4, 8};
    if (argc != 2 && argc != 9 && argc != 10) {
        fprintf(stderr, "usage: make_hsn OUT.hsn [B C K P G V H [SEED]]\n");
        return 2;
    }
    for (int i = 0; argc >= 9 && i < 7; i++)
        v[i] = atoi(argv[2 + i]);
    if (v[0] < 1 || v[0] > 7 || v[1] < 1 || v[1] > 256) {
        fprintf(stderr, "make_hsn: 1 <= B <= 7 and 1 <= C <= 256 here\n");
        return 2;
    }
    hs_test_hsn_t h;
    hs_test_hsn_init(&h, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    hs_test_hsn_randomize(&h, argc == 10 ? strtoull(argv[9], NULL, 10) : 1);
    unsigned char *buf;
    size_t len = hs_test_hsn_write(&h, &buf);
    FILE *f = fopen(argv[1], "wb");
    int ok = f && fwrite(buf, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "make_hsn: cannot write %s\n", argv[1]);
    free(buf);
    hs_test_hsn_free(&h);
    return ok ? 0 : 1;
}
