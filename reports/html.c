/*
 * reports/html.c — the shared pieces of the report's pages (html_internal.h):
 * escaping, the page head with its inline style and sorting script, numbers,
 * pictures inline and as files, and the files under OUT.
 */
#include "reports/html_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/game_report_internal.h"


void hs__html_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* Kept short and plain: the page must read without it, and nothing is fetched. */
static const char s_style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
    "margin:0 auto;max-width:1100px;padding:1em 1.5em;background:#fcfbf8}"
    "h1{font-size:1.5em;margin:.3em 0}h2{font-size:1.2em;margin:1.4em 0 .4em;"
    "border-bottom:1px solid #ddd}a{color:#2457a6}"
    "table{border-collapse:collapse;margin:.4em 0 1em;font-variant-numeric:tabular-nums}"
    "th,td{padding:.2em .7em;border-bottom:1px solid #e4e1da;text-align:right}"
    "th{background:#f0ece3;cursor:pointer;user-select:none}"
    "td:first-child,th:first-child{text-align:left}"
    "tr:nth-child(even) td{background:#f7f5f0}"
    "figure{display:inline-block;margin:.4em .8em .8em 0;vertical-align:top}"
    "figcaption{font-size:.85em;color:#555;text-align:center}"
    "figure svg{max-width:100%;height:auto}.note{color:#777;font-size:.9em}"
    ".meta td{text-align:left;border:0}.meta th{background:none;text-align:left;border:0}";

/* Click a header to sort its column; again to reverse. The column is the
 * header's own index in its row (cellIndex): an index counted over every
 * sortable table of the page points past the later tables' cells. Cells that
 * read as numbers ("12", "-3.5", "+10", "50%") sort as numbers and before
 * text (a "–" for a missing value), so the order is total; names and dates sort
 * as text (parseFloat would read "2019-05-04" as 2019). */
static const char s_script[] =
    "(function(){function key(s){s=s.trim();"
    "return /^[-+]?[0-9.]+%?$/.test(s)?parseFloat(s):NaN;}"
    "function cmp(p,q){var m=key(p),n=key(q),a=isNaN(m),b=isNaN(n);"
    "return a||b?(a===b?p.localeCompare(q):a?1:-1):m-n;}"
    "document.querySelectorAll('table.sortable th').forEach(function(th){"
    "th.addEventListener('click',function(){var i=th.cellIndex,t=th.closest('table'),"
    "b=t.tBodies[0],r=Array.from(b.rows),d=th.dataset.dir==='a'?-1:1;"
    "th.dataset.dir=d>0?'a':'d';r.sort(function(x,y){"
    "var p=x.cells[i]?x.cells[i].textContent:'',q=y.cells[i]?y.cells[i].textContent:'';"
    "return d*cmp(p,q);});"
    "r.forEach(function(e){b.appendChild(e);});});});})();";

void hs__html_head(FILE *out, const char *title, const char *root)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
          "<meta name=\"generator\" content=\"hyeongse " HS_VERSION "\"><title>", out);
    hs__html_text(out, title);
    fprintf(out, "</title><style>%s</style></head>\n<body>\n", s_style);
    fprintf(out, "<nav><a href=\"%sindex.html\">hyeongse report</a></nav>\n", root);
}

void hs__html_foot(FILE *out)
{
    fprintf(out, "<script>%s</script>\n</body></html>\n", s_script);
}

const char *hs__html_vertex(int size, int v, char *buf)
{
    const char *name = hs__report_vertex_name(v, size, buf);
    return *name ? name : "&ndash;";
}

void hs__html_num(FILE *out, double v, int decimals)
{
    if (isnan(v))
        fputs("&ndash;", out);
    else
        fprintf(out, "%.*f", decimals, v);
}

/* mkdir -p of the folder part of path (path itself is a file). */
static int s_mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0777);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

FILE *hs__report_open(hs__report_ctx_t *c, const char *rel)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", c->o->out_dir, rel) >= (int)sizeof path) {
        hs_error_set(c->err, HS_EINVAL, "path too long: %s/%s", c->o->out_dir, rel);
        return NULL;
    }
    FILE *f = NULL;
    if (s_mkdirs(path) == 0)
        f = fopen(path, "w");
    if (!f) {
        hs_error_set(c->err, HS_EIO, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    if (c->sum)
        c->sum->files++;
    return f;
}

int hs__report_close(hs__report_ctx_t *c, FILE *f, const char *rel)
{
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return hs_error_set(c->err, HS_EIO, "writing %s/%s failed (disk full?)",
                            c->o->out_dir, rel);
    return 0;
}

/* OUT/DIR/NAME.EXT with the bytes. */
static int s_write_file(hs__report_ctx_t *c, const char *dir, const char *name,
                        const char *ext, const char *bytes, size_t len)
{
    char rel[1024];
    snprintf(rel, sizeof rel, "%s/%s.%s", dir, name, ext);
    FILE *f = hs__report_open(c, rel);
    if (!f)
        return c->err ? c->err->code : HS_EIO;
    fwrite(bytes, 1, len, f);
    return hs__report_close(c, f, rel);
}

int hs__report_picture(hs__report_ctx_t *c, FILE *page, const char *cls, const char *id,
                       const char *name, const char *caption, hs__draw_fn draw,
                       const void *what)
{
    char *svg = NULL, *png = NULL;
    size_t svg_len = 0, png_len = 0;
    int rc = 0;
    if (page || (c->formats & HS_REPORT_SVG))
        rc = draw(what, HS_PIC_SVG, &svg, &svg_len, c->err);
    if (rc == 0 && (c->formats & HS_REPORT_PNG))
        rc = draw(what, HS_PIC_PNG, &png, &png_len, c->err);
    if (rc == 0 && c->sum && (svg || png))
        c->sum->pictures++;   /* a picture, whatever the forms it is written in */
    if (rc == 0 && page) {
        fprintf(page, "<figure class=\"%s\"", cls);
        if (id)
            fprintf(page, " id=\"%s\"", id);
        fputs(">", page);
        fwrite(svg, 1, svg_len, page);
        if (caption) {
            fputs("<figcaption>", page);
            hs__html_text(page, caption);
            fputs("</figcaption>", page);
        }
        fputs("</figure>\n", page);
    }
    if (rc == 0 && (c->formats & HS_REPORT_SVG))
        rc = s_write_file(c, "svg", name, "svg", svg, svg_len);
    if (rc == 0 && (c->formats & HS_REPORT_PNG))
        rc = s_write_file(c, "png", name, "png", png, png_len);
    free(svg);
    free(png);
    return rc;
}
