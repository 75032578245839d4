/*
 * tests/png_stats.c — prints "WIDTH HEIGHT COLOURS INK" for a PNG file: its
 * size, the number of distinct colours (capped at 100000) and the share of
 * pixels that differ from the top-left pixel (the background), so a shell test
 * can tell a drawn picture or a browser's screenshot from a blank one. Reads
 * with cairo (no PNG decoder of ours). Exit 1 when the file is not a PNG.
 */
#include <cairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int s_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: png_stats FILE.png\n");
        return 2;
    }
    cairo_surface_t *s = cairo_image_surface_create_from_png(argv[1]);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "png_stats: %s: %s\n", argv[1],
                cairo_status_to_string(cairo_surface_status(s)));
        cairo_surface_destroy(s);
        return 1;
    }
    cairo_surface_flush(s);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    uint32_t *px = malloc((size_t)w * (size_t)h * sizeof *px + 1);
    if (!px) {
        cairo_surface_destroy(s);
        return 1;
    }
    size_t n = 0, ink = 0;
    uint32_t bg = w && h ? *(const uint32_t *)data : 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t v = *(const uint32_t *)(data + (size_t)y * (size_t)stride + (size_t)x * 4);
            px[n++] = v;
            ink += v != bg;
        }
    qsort(px, n, sizeof *px, s_cmp);
    size_t colours = n > 0;
    for (size_t i = 1; i < n && colours < 100000; i++)
        colours += px[i] != px[i - 1];
    printf("%d %d %zu %.4f\n", w, h, colours, n ? (double)ink / (double)n : 0.0);
    free(px);
    cairo_surface_destroy(s);
    return 0;
}
