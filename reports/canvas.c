/*
 * reports/canvas.c — canvas.h's front: checks the arguments and hands each
 * call to the back end chosen at open (SVG text or a cairo surface).
 */
#include "reports/canvas_internal.h"

#include <stdlib.h>
#include <string.h>


int hs_canvas_open(hs_canvas_t **out, hs_pic_format_t fmt, int w, int h, hs_error_t *err)
{
    *out = NULL;
    if (w < 1 || h < 1 || w > HS_CANVAS_MAX_PX || h > HS_CANVAS_MAX_PX)
        return hs_error_set(err, HS_EINVAL, "canvas: size %dx%d outside 1..%d px", w, h,
                            HS_CANVAS_MAX_PX);
    switch (fmt) {
    case HS_PIC_SVG: return hs__canvas_svg_open(out, w, h, err);
    case HS_PIC_PNG: return hs__canvas_cairo_open(out, w, h, err);
    }
    return hs_error_set(err, HS_EINVAL, "canvas: unknown picture format %d", (int)fmt);
}

int hs_canvas_gradient(hs_canvas_t *c, hs_rgba_t inner, hs_rgba_t outer, double fx, double fy)
{
    return c->ops->gradient(c, inner, outer, fx, fy);
}

void hs_canvas_rect(hs_canvas_t *c, double x, double y, double w, double h, const hs_paint_t *p)
{
    c->ops->rect(c, x, y, w, h, p);
}

void hs_canvas_line(hs_canvas_t *c, double x1, double y1, double x2, double y2,
                    hs_rgba_t color, double width, const char *cls)
{
    c->ops->line(c, x1, y1, x2, y2, color, width, cls);
}

void hs_canvas_segments(hs_canvas_t *c, const double *xy, int n, hs_rgba_t color,
                        double width, const char *cls)
{
    if (n >= 1)
        c->ops->segments(c, xy, n, color, width, cls);
}

void hs_canvas_circle(hs_canvas_t *c, double cx, double cy, double r, const hs_paint_t *p)
{
    c->ops->circle(c, cx, cy, r, p);
}

void hs_canvas_poly(hs_canvas_t *c, const double *xy, int n, bool closed, const hs_paint_t *p)
{
    if (n >= 2)
        c->ops->poly(c, xy, n, closed, p);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static int s_utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] >> 5) == 6 ? 2 : (s[0] >> 4) == 14 ? 3 : (s[0] >> 3) == 30 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] >> 6) != 2)
            return 0;
    if ((n == 2 && s[0] < 0xc2) || (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||
        (n == 3 && s[0] == 0xed && s[1] >= 0xa0) || (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
        (n == 4 && (s[0] > 0xf4 || (s[0] == 0xf4 && s[1] >= 0x90))))
        return 0;   /* overlong, a surrogate, or past U+10FFFF */
    return n;
}

/* Whether text needs cleaning: invalid UTF-8 makes cairo fail the whole
 * picture and the SVG unreadable XML, and XML forbids control characters. */
static bool s_needs_cleaning(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int n = s_utf8_len(p);
        if (!n || *p < 0x20)
            return true;
        p += n;
    }
    return false;
}

void hs_canvas_text(hs_canvas_t *c, double x, double y, const hs_font_t *f, const char *text)
{
    if (!text || !*text)
        return;
    if (!s_needs_cleaning(text)) {
        c->ops->text(c, x, y, f, text);
        return;
    }
    /* Names come from SGF files: a bad byte becomes '?', a control a space,
     * rather than losing the picture. */
    size_t len = strlen(text);
    char *t = malloc(len + 1);
    if (!t) {
        c->err = HS_ENOMEM;   /* reported by hs_canvas_finish, as every failure */
        return;
    }
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int n = s_utf8_len(p);
        if (!n)
            t[k++] = '?', p++;
        else if (*p < 0x20)
            t[k++] = ' ', p++;
        else
            memcpy(t + k, p, (size_t)n), k += (size_t)n, p += n;
    }
    t[k] = 0;
    c->ops->text(c, x, y, f, t);
    free(t);
}

void hs_canvas_group(hs_canvas_t *c, const char *cls)
{
    c->ops->group(c, cls);
}

void hs_canvas_group_end(hs_canvas_t *c)
{
    c->ops->group_end(c);
}

int hs_canvas_finish(hs_canvas_t *c, char **out, size_t *len, hs_error_t *err)
{
    *out = NULL;
    *len = 0;
    if (c->err) {
        int code = c->err;
        c->ops->free(c);
        return hs_error_set(err, code, "canvas: %s", hs_strerror(code));
    }
    return c->ops->finish(c, out, len, err);
}

void hs_canvas_free(hs_canvas_t *c)
{
    if (c)
        c->ops->free(c);
}
