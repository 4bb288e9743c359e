/*
 * report_html_page: the shared page frame, formats and percentile curves of
 * the HTML reports (report_html_page.h).
 */
#include <errno.h>	/* ENOENT */
#include <math.h>	/* log10, pow, NAN */
#include <stdarg.h>
#include <stdlib.h>	/* qsort, strtod */
#include <string.h>
#include "report/report_html_page.h"

/*
 * The one stylesheet.  System fonts only (nothing to fetch); tables and
 * charts avoid page breaks inside them when printed; the palette of the
 * charts is in svg.c.
 */
static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"margin:24px auto;max-width:1340px;padding:0 16px;color:#222;line-height:1.4}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:2px solid #1f3f8f;"
	"padding-bottom:2px;margin-top:28px}h3{font-size:15px;margin:18px 0 6px}"
	".meta{color:#555;font-size:13px}"
	"table{border-collapse:collapse;font-size:12.5px;margin:6px 0 12px;break-inside:avoid}"
	"th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}"
	"th{background:#f0f2f6}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	/* charts fill the page: as many columns of at least 560 px as fit (two on a
	 * 1280 px window), each chart as wide as its column, scaled from its viewBox */
	".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,560px),1fr));"
	"gap:10px;align-items:start}"
	"figure{margin:0;break-inside:avoid;border:1px solid #e2e2e2;padding:4px;min-width:0}"
	"svg.chart{display:block;width:100%;height:auto}"
	"figcaption{font-size:11.5px;color:#555;max-width:640px;padding:2px 4px}"
	".verdict{font-size:17px;font-weight:bold;padding:10px 14px;border-left:6px solid #1f3f8f;"
	"background:#f3f6fb;margin:12px 0}"
	".verdict.bad{border-color:#cc3311;background:#fbf1ef}"
	".verdict.good{border-color:#009e73;background:#eef8f4}"
	".warn{border-left:4px solid #e69f00;background:#fff8e8;padding:6px 10px;margin:8px 0;"
	"font-size:13px}.warn li{margin:2px 0}.missing{color:#666;font-style:italic;font-size:13px}"
	".kv td:first-child{color:#444;white-space:nowrap}"
	"code{font-size:12px}"
	"@media print{body{margin:0;max-width:none}h2{break-after:avoid}"
	"figure{border:none}}";

void report_html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	      "<title>", f);
	report_html_esc(f, title);
	fprintf(f, "</title><style>%s</style></head>\n<body>\n", css);
}

void report_html_page_end(FILE *f)
{
	fprintf(f, "<p class=\"meta\">Made by iotrial %s. Self-contained: no scripts, no "
		"external references.</p>\n</body></html>\n", IOTRIAL_VERSION);
}

void report_html_esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

void report_html_escf(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	svg_escape(f, buf);
}

void report_html_warning_li(FILE *f, const json_t *w)
{
	const char *side = json_string_value(json_object_get(w, "side"));

	fputs("<li><b>", f);
	report_html_esc(f, json_string_value(json_object_get(w, "severity")));
	if (side)
		report_html_escf(f, " (side %c)", side[0] & ~0x20);
	fputs(" [", f);
	report_html_esc(f, json_string_value(json_object_get(w, "id")));
	fputs("]</b> ", f);
	report_html_esc(f, json_string_value(json_object_get(w, "message")));
	fputs("</li>", f);
}

double report_html_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	const char *s;
	char *end;
	double d;

	if (json_is_number(v))
		return json_number_value(v);
	s = json_string_value(v);
	if (!s || !*s)
		return NAN;
	d = strtod(s, &end);
	return *end ? NAN : d;
}

const json_t *report_html_lat(const json_t *dir, const char **which)
{
	const json_t *lat = json_object_get(dir, "lat_ns"), *clat = json_object_get(dir, "clat_ns");

	if (json_object_get(lat, "percentile") || json_object_get(lat, "bins")) {
		*which = "total latency";
		return lat;
	}
	if (clat) {
		*which = "completion latency";
		return clat;
	}
	*which = "total latency";
	return lat;
}

struct bin {
	double v;
	double n;
};

static int cmp_bin(const void *pa, const void *pb)
{
	const struct bin *a = pa, *b = pb;

	return a->v < b->v ? -1 : a->v > b->v;
}

/* The curve from json+ bins: exact up to the histogram's bucket width. */
static int curve_bins(const json_t *bins, struct report_html_curve *c)
{
	size_t nb = json_object_size(bins), i = 0, k = 0;
	struct bin *b = calloc(nb ? nb : 1, sizeof(*b));
	const char *key;
	json_t *val;
	double total = 0, cum = 0, xmax, x, want;

	if (!b)
		return -ENOMEM;
	json_object_foreach((json_t *)bins, key, val) {
		b[i].v = strtod(key, NULL);
		b[i].n = json_number_value(val);
		total += b[i].n;
		i++;
	}
	qsort(b, nb, sizeof(*b), cmp_bin);
	c->n = 0;
	if (total < 1) {
		free(b);
		return -ENOENT;
	}
	/* beyond 1 - 1/N a percentile is the maximum: stop where the samples do */
	xmax = fmin(4, log10(total));
	if (xmax < 0.30103)
		xmax = 0.30103;
	for (i = 0; i < REPORT_HTML_CURVE_PTS; i++) {
		x = 0.30103 + (xmax - 0.30103) * (double)i / (REPORT_HTML_CURVE_PTS - 1);
		want = (1 - pow(10, -x)) * total;
		while (k < nb && cum + b[k].n < want - 1e-9)
			cum += b[k++].n;
		c->x[c->n] = x;
		c->y[c->n++] = b[k < nb ? k : nb - 1].v;
	}
	c->from_bins = 1;
	free(b);
	return 0;
}

int report_html_curve(const json_t *lat, struct report_html_curve *c)
{
	const json_t *bins = json_object_get(lat, "bins"), *pct = json_object_get(lat, "percentile");
	const char *key;
	json_t *val;
	double p;

	c->n = 0;
	c->from_bins = 0;
	if (json_object_size(bins) && !curve_bins(bins, c))
		return 0;
	json_object_foreach((json_t *)pct, key, val) {
		p = strtod(key, NULL);
		if (p < 50 || p >= 100 || !json_is_number(val) || c->n >= REPORT_HTML_CURVE_PTS)
			continue;
		c->x[c->n] = -log10(1 - p / 100);
		c->y[c->n++] = json_number_value(val);
	}
	return c->n ? 0 : -ENOENT;
}

void report_html_fig_begin(FILE *f)
{
	fputs("<figure>", f);
}

void report_html_fig_end(FILE *f, const char *caption)
{
	if (caption) {
		fputs("<figcaption>", f);
		report_html_esc(f, caption);
		fputs("</figcaption>", f);
	}
	fputs("</figure>\n", f);
}

void report_html_curve_chart(FILE *f, const char *id, const char *title,
			     const struct report_html_curve *c, const char *const *labels,
			     const unsigned *styles, size_t n, const char *const *legend,
			     const unsigned *lstyles, size_t nl, const char *note)
{
	struct svg_chart_spec sp = { .id = id, .title = title, .xlabel = "percentile",
		.ylabel = "latency", .xkind = SVG_LINEAR, .ykind = SVG_LOG, .xfmt = SVG_FMT_NINES,
		.yfmt = SVG_FMT_NS, .xlo = 0.30103, .xhi = 4, .ylo = NAN, .yhi = NAN, .ynice = 1,
		.desc = "Latency at each percentile from p50 to p99.99; the x axis stretches "
			"the tail (each step is one more nine), the latency axis is logarithmic." };
	struct svg_chart ch;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < c[i].n; k++) {
			if (!(c[i].y[k] > 0))
				continue;
			sp.ylo = isnan(sp.ylo) || c[i].y[k] < sp.ylo ? c[i].y[k] : sp.ylo;
			sp.yhi = isnan(sp.yhi) || c[i].y[k] > sp.yhi ? c[i].y[k] : sp.yhi;
		}
	report_html_fig_begin(f);
	svg_chart_begin(&ch, f, &sp);
	for (i = 0; i < n; i++) {
		svg_chart_line(&ch, styles[i], c[i].x, c[i].y, c[i].n, labels[i]);
		for (k = 0; c[i].n < 12 && k < c[i].n; k++)
			svg_chart_marker(&ch, styles[i], c[i].x[k], c[i].y[k], labels[i]);
	}
	svg_chart_legend(&ch, legend, lstyles, nl);
	svg_chart_end(&ch);
	report_html_fig_end(f, note);
}
