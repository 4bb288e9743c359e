/*
 * svg: scales, ticks and the chart shapes of the HTML reports (see svg.h).
 * Coordinates are written with one decimal: a tenth of a pixel is below
 * what a screen or printer shows and keeps long polylines small.
 */
#include <math.h>	/* floor, log10, pow, isfinite */
#include <string.h>	/* strlen, strchr */
#include "report/svg.h"

/* ---- scales ------------------------------------------------------------ */

/* 1, 2 or 5 times a power of ten, at least @x. */
static double nice_step(double x)
{
	double p, f;

	if (!(x > 0) || !isfinite(x))
		return 1;
	p = pow(10, floor(log10(x)));
	f = x / p;
	if (f <= 1.0000001)
		return p;
	if (f <= 2.0000001)
		return 2 * p;
	if (f <= 5.0000001)
		return 5 * p;
	return 10 * p;
}

/* Steps a time axis ticks on, in seconds, above one second. */
static const double time_steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
	3600, 7200, 10800, 21600, 43200, 86400 };

static double time_step(double range, double target)
{
	size_t i;

	if (range / target < 1)
		return nice_step(range / target);
	for (i = 0; i < sizeof(time_steps) / sizeof(time_steps[0]); i++)
		if (range / time_steps[i] <= target)
			return time_steps[i];
	return nice_step(range / target / 86400) * 86400;
}

static double scale_step(const struct svg_scale *s, double target)
{
	double range = s->d1 - s->d0;

	return s->kind == SVG_TIME ? time_step(range, target) : nice_step(range / target);
}

void svg_scale_init(struct svg_scale *s, enum svg_scale_kind kind, double lo, double hi,
		    double r0, double r1, int nice)
{
	double step;

	s->kind = kind;
	s->min_step = 0;
	s->r0 = r0;
	s->r1 = r1;
	if (!isfinite(lo) || !isfinite(hi) || lo > hi) {
		lo = kind == SVG_LOG ? 1 : 0;
		hi = kind == SVG_LOG ? 10 : 1;
	}
	if (kind == SVG_LOG) {
		if (!(hi > 0))
			hi = 10;
		if (!(lo > 0))
			lo = hi / 1000;
		if (nice || lo == hi) {
			lo = pow(10, floor(log10(lo) + 1e-9));
			hi = pow(10, ceil(log10(hi) - 1e-9));
			if (hi <= lo)
				hi = lo * 10;
		}
	} else if (lo == hi) {
		double w = fabs(lo) > 0 ? fabs(lo) * 0.5 : 1;

		/* a one-point series: keep zero as the floor for positive values */
		lo = lo > 0 && lo - w < 0 ? 0 : lo - w;
		hi = hi + w;
	}
	s->d0 = lo;
	s->d1 = hi;
	if (nice && kind != SVG_LOG) {
		step = scale_step(s, 5);
		s->d0 = floor(lo / step + 1e-9) * step;
		s->d1 = ceil(hi / step - 1e-9) * step;
		if (s->d1 <= s->d0)
			s->d1 = s->d0 + step;
	}
}

double svg_scale_map(const struct svg_scale *s, double v)
{
	double t;

	if (s->kind == SVG_LOG)
		t = (log10(v) - log10(s->d0)) / (log10(s->d1) - log10(s->d0));
	else
		t = (v - s->d0) / (s->d1 - s->d0);
	return s->r0 + t * (s->r1 - s->r0);
}

static size_t log_ticks(const struct svg_scale *s, double *out, size_t max)
{
	int e0 = (int)floor(log10(s->d0) + 1e-9), e1 = (int)ceil(log10(s->d1) - 1e-9);
	int stride = 1, e, m;
	static const int mult[] = { 1, 2, 5 };
	size_t n = 0;

	while ((e1 - e0) / stride + 1 > (int)max)
		stride++;
	for (e = e0; e <= e1; e += stride)
		for (m = 0; m < (e1 - e0 <= 2 ? 3 : 1); m++) {
			double v = mult[m] * pow(10, e);

			if (v >= s->d0 * (1 - 1e-9) && v <= s->d1 * (1 + 1e-9) && n < max)
				out[n++] = v;
		}
	return n;
}

size_t svg_ticks(const struct svg_scale *s, double *out, size_t max)
{
	double step, v;
	long k, k0, k1;
	size_t n = 0;

	if (max > SVG_MAX_TICKS)
		max = SVG_MAX_TICKS;
	if (!max)
		return 0;
	if (s->kind == SVG_LOG)
		return log_ticks(s, out, max);
	step = fmax(scale_step(s, 5), s->min_step);
	while ((s->d1 - s->d0) / step + 1 > (double)max)
		step *= 2;
	k0 = (long)ceil(s->d0 / step - 1e-9);
	k1 = (long)floor(s->d1 / step + 1e-9);
	for (k = k0; k <= k1 && n < max; k++) {
		v = (double)k * step;
		out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

/* ---- labels ------------------------------------------------------------ */

/* Decimals needed to tell ticks @step apart in a unit of @unit. */
static int decimals(double step, double unit)
{
	double x;
	int d;

	if (!(step > 0))
		return -1;	/* log axis: significant digits instead */
	x = step / unit;
	for (d = 0; d < 3; d++, x *= 10)
		if (fabs(x - round(x)) <= 1e-6 * (x > 1 ? x : 1))
			break;
	return d;
}

/* "%.*f" with @dec decimals (or 3 significant digits when dec < 0), trailing zeros cut. */
static void put_num(char *buf, size_t sz, double v, int dec, const char *suffix)
{
	char num[48], *dot;
	size_t len;

	if (dec < 0)
		snprintf(num, sizeof(num), "%.3g", v);
	else
		snprintf(num, sizeof(num), "%.*f", dec, v);
	dot = strchr(num, '.');
	if (dot && !strchr(num, 'e')) {
		len = strlen(num);
		while (len > 0 && num[len - 1] == '0')
			num[--len] = 0;
		if (num[len - 1] == '.')
			num[--len] = 0;
	}
	if (!strcmp(num, "-0"))
		snprintf(num, sizeof(num), "0");
	snprintf(buf, sz, "%s%s", num, suffix);
}

static void fmt_si(double v, double step, char *buf, size_t sz)
{
	static const struct { double unit; const char *sfx; } u[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" }, { 1, "" } };
	size_t i;

	for (i = 0; i < 4 && fabs(v) < u[i].unit; i++)
		;
	put_num(buf, sz, v / u[i].unit, decimals(step, u[i].unit), u[i].sfx);
}

static void fmt_ns(double v, double step, char *buf, size_t sz)
{
	static const struct { double unit; const char *sfx; } u[] = {
		{ 1e9, " s" }, { 1e6, " ms" }, { 1e3, " us" }, { 1, " ns" } };
	size_t i;

	for (i = 0; i < 3 && fabs(v) < u[i].unit; i++)
		;
	put_num(buf, sz, v / u[i].unit, decimals(step, u[i].unit), u[i].sfx);
}

static void fmt_time(double v, double step, char *buf, size_t sz)
{
	long s = lround(v), neg = s < 0;

	if (neg)
		s = -s;
	if (step < 60)
		put_num(buf, sz, v, decimals(step, 1), "");
	else if (step < 3600)
		snprintf(buf, sz, "%s%ld:%02ld", neg ? "-" : "", s / 60, s % 60);
	else
		snprintf(buf, sz, "%s%ld:%02ld", neg ? "-" : "", s / 3600, s / 60 % 60);
}

void svg_fmt_value(enum svg_fmt fmt, double v, double step, char *buf, size_t sz)
{
	double p;

	if (!isfinite(v)) {
		snprintf(buf, sz, "-");
		return;
	}
	switch (fmt) {
	case SVG_FMT_NS:
		fmt_ns(v, step, buf, sz);
		break;
	case SVG_FMT_PCT:
		put_num(buf, sz, v, decimals(step, 1), "%");
		break;
	case SVG_FMT_TIME:
		fmt_time(v, step, buf, sz);
		break;
	case SVG_FMT_NINES:
		p = 100 * (1 - pow(10, -v));
		snprintf(buf, sz, "p%.*f", v < 2.5 ? 0 : (int)ceil(v - 2 - 1e-9), p);
		break;
	default:
		fmt_si(v, step, buf, sz);
	}
}

/* The spacing of @s's ticks (0 on a log axis). */
static double tick_step(const struct svg_scale *s)
{
	double t[SVG_MAX_TICKS];
	size_t n = svg_ticks(s, t, 8);

	if (s->kind == SVG_LOG)
		return 0;
	return n > 1 ? t[1] - t[0] : (s->d1 - s->d0);
}

const char *svg_time_unit(const struct svg_scale *s)
{
	double step = tick_step(s);

	return step < 60 ? "s" : step < 3600 ? "min:s" : "h:min";
}

/* ---- styles ------------------------------------------------------------ */

/*
 * Colours are Okabe-Ito-like hues picked so their greyscale lightness
 * differs (dark blue 62, orange 162, green 106, red 93, sky 150, grey 85 on
 * 0..255); the dash pattern and marker shape differ too, for greyscale print.
 */
static const char *const colours[SVG_NSTYLE] = {
	"#1f3f8f", "#e69f00", "#009e73", "#cc3311", "#56b4e9", "#555555" };
static const char *const dashes[SVG_NSTYLE] = { "", "7 3", "2 2", "8 3 2 3", "4 2 4 6", "1 3" };

const char *svg_style_colour(unsigned idx)
{
	return colours[idx % SVG_NSTYLE];
}

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void title_el(FILE *f, const char *title)
{
	if (!title)
		return;
	fputs("<title>", f);
	svg_escape(f, title);
	fputs("</title>", f);
}

/* ---- charts ------------------------------------------------------------ */

#define TOP 46		/* title and legend rows above the plot */
#define BOTTOM 42	/* tick labels and x axis title below it */

static void axis_ticks_x(struct svg_chart *c, const char *xlabel)
{
	double t[SVG_MAX_TICKS], step = tick_step(&c->x), x;
	size_t n = svg_ticks(&c->x, t, c->px1 - c->px0 < 400 ? 6 : 10), i;
	char lab[48];

	for (i = 0; i < n; i++) {
		x = svg_scale_map(&c->x, t[i]);
		svg_fmt_value(c->xfmt, t[i], step, lab, sizeof(lab));
		fprintf(c->f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>", x, c->py0, x, c->py1);
		fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			x, c->py1 + 14, lab);
	}
	fprintf(c->f, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(c->px0 + c->px1) / 2, c->py1 + 32);
	svg_escape(c->f, xlabel);
	if (c->xfmt == SVG_FMT_TIME)
		fprintf(c->f, " (%s)", svg_time_unit(&c->x));
	fputs("</text>", c->f);
}

static void axis_ticks_y(struct svg_chart *c)
{
	double t[SVG_MAX_TICKS], step = tick_step(&c->y), y;
	size_t n = svg_ticks(&c->y, t, 6), i;
	char lab[48];

	for (i = 0; i < n; i++) {
		y = svg_scale_map(&c->y, t[i]);
		svg_fmt_value(c->yfmt, t[i], step, lab, sizeof(lab));
		fprintf(c->f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>", c->px0, y, c->px1, y);
		fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
			c->px0 - 5, y + 4, lab);
	}
}

void svg_chart_begin(struct svg_chart *c, FILE *f, const struct svg_chart_spec *sp)
{
	int w = sp->width ? sp->width : 640, h = sp->height ? sp->height : 260;
	int left = sp->left ? sp->left : 64;

	c->f = f;
	c->px0 = left;
	c->px1 = w - 18;
	c->py0 = TOP;
	c->py1 = h - BOTTOM;
	c->xfmt = sp->xfmt;
	c->yfmt = sp->yfmt;
	svg_scale_init(&c->x, sp->xkind, sp->xlo, sp->xhi, c->px0, c->px1, sp->xnice);
	c->x.min_step = sp->xmin_step;
	svg_scale_init(&c->y, sp->ykind, sp->ylo, sp->yhi, c->py1, c->py0, sp->ynice);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"11\"", w, h, w, h);
	if (sp->id) {
		fprintf(f, " id=\"%s\" aria-labelledby=\"%s-t\"", sp->id, sp->id);
	}
	fputs(">", f);
	fprintf(f, "<title%s%s%s>", sp->id ? " id=\"" : "", sp->id ? sp->id : "",
		sp->id ? "-t\"" : "");
	svg_escape(f, sp->title);
	fputs("</title>", f);
	if (sp->desc) {
		fputs("<desc>", f);
		svg_escape(f, sp->desc);
		fputs("</desc>", f);
	}
	if (sp->id)
		fprintf(f, "<defs><clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>", sp->id, c->px0,
			c->py0 - 1, c->px1 - c->px0, c->py1 - c->py0 + 2);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>", f);
	fputs("<text class=\"chart-title\" x=\"8\" y=\"16\" font-size=\"13\" "
	      "font-weight=\"bold\">", f);
	svg_escape(f, sp->title);
	fputs("</text>", f);
	axis_ticks_x(c, sp->xlabel);
	if (sp->ylabel) {
		axis_ticks_y(c);
		fprintf(f, "<text class=\"axis-label\" transform=\"translate(12,%.1f) rotate(-90)\" "
			"text-anchor=\"middle\">", (c->py0 + c->py1) / 2);
		svg_escape(f, sp->ylabel);
		fputs("</text>", f);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>", c->px0, c->py0, c->px1 - c->px0, c->py1 - c->py0);
	/* everything drawn from here on is clipped to the plot area */
	if (sp->id)
		fprintf(f, "<g clip-path=\"url(#%s-clip)\">", sp->id);
	else
		fputs("<g>", f);
}

void svg_chart_ylabels(struct svg_chart *c, const double *v, const char *const *labels,
		       size_t n)
{
	size_t i;
	double y;

	fputs("</g>", c->f);	/* labels sit outside the clipped plot area */
	for (i = 0; i < n; i++) {
		y = svg_scale_map(&c->y, v[i]);
		fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", c->px0, y, c->px1, y,
			c->px0 - 6, y + 4);
		svg_escape(c->f, labels[i]);
		fputs("</text>", c->f);
	}
	fputs("<g>", c->f);
}

static const char *band_fill(const char *cls)
{
	if (cls && !strcmp(cls, "steady"))
		return "#009e73";
	if (cls && !strcmp(cls, "mser"))
		return "#cc3311";
	if (cls && !strcmp(cls, "noise"))
		return "#e69f00";
	return "#777777";
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void svg_chart_band(struct svg_chart *c, double x0, double x1, const char *cls,
		    const char *label)
{
	double a, b;

	if (!isfinite(x0) || !isfinite(x1))
		return;
	a = clampd(svg_scale_map(&c->x, x0), c->px0, c->px1);
	b = clampd(svg_scale_map(&c->x, x1), c->px0, c->px1);
	if (b < a) {
		double t = a;

		a = b;
		b = t;
	}
	fprintf(c->f, "<rect class=\"band %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.13\">", cls ? cls : "", a, c->py0,
		b - a, c->py1 - c->py0, band_fill(cls));
	title_el(c->f, label);
	fputs("</rect>", c->f);
	if (label)  {
		fprintf(c->f, "<text class=\"band-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"fill=\"#333\">", a + 3, c->py0 + 11);
		svg_escape(c->f, label);
		fputs("</text>", c->f);
	}
}

void svg_chart_vline(struct svg_chart *c, double x, const char *cls, const char *label)
{
	double px;

	if (!isfinite(x))
		return;
	px = svg_scale_map(&c->x, x);
	if (px < c->px0 - 0.5 || px > c->px1 + 0.5)
		return;
	fprintf(c->f, "<line class=\"vline %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\">", cls ? cls : "",
		px, c->py0, px, c->py1, band_fill(cls));
	title_el(c->f, label);
	fputs("</line>", c->f);
	if (label) {	/* near the right edge the label goes on the line's left */
		int left = px > c->px1 - 6.0 * (double)strlen(label) - 6;

		fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#333\"%s>",
			left ? px - 3 : px + 3, c->py1 - 4, left ? " text-anchor=\"end\"" : "");
		svg_escape(c->f, label);
		fputs("</text>", c->f);
	}
}

static int point_ok(const struct svg_chart *c, double x, double y)
{
	if (!isfinite(x) || !isfinite(y))
		return 0;
	if (c->x.kind == SVG_LOG && !(x > 0))
		return 0;
	return c->y.kind != SVG_LOG || y > 0;
}

static void stroke_attrs(FILE *f, unsigned style, double width)
{
	fprintf(f, " fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"", colours[style % SVG_NSTYLE],
		width);
	if (dashes[style % SVG_NSTYLE][0])
		fprintf(f, " stroke-dasharray=\"%s\"", dashes[style % SVG_NSTYLE]);
}

void svg_chart_line(struct svg_chart *c, unsigned style, const double *xs, const double *ys,
		    size_t n, const char *title)
{
	size_t i;
	int open = 0;

	fputs("<g class=\"series\">", c->f);
	title_el(c->f, title);
	for (i = 0; i < n; i++) {
		if (!point_ok(c, xs[i], ys[i])) {
			if (open)
				fputs("\"/>", c->f);
			open = 0;
			continue;
		}
		if (!open) {
			fputs("<polyline", c->f);
			stroke_attrs(c->f, style, 1.6);
			fputs(" stroke-linejoin=\"round\" points=\"", c->f);
			open = 1;
		}
		fprintf(c->f, "%.1f,%.1f ", svg_scale_map(&c->x, xs[i]), svg_scale_map(&c->y, ys[i]));
	}
	if (open)
		fputs("\"/>", c->f);
	fputs("</g>", c->f);
}

static void marker_shape(FILE *f, unsigned style, double x, double y, double r)
{
	const char *col = colours[style % SVG_NSTYLE];

	switch (style % SVG_NSTYLE) {
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			"stroke=\"#000\" stroke-width=\"0.6\"", x - r, y - r, 2 * r, 2 * r, col);
		break;
	case 2:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"#000\" "
			"stroke-width=\"0.6\"", x, y - r * 1.2, x + r * 1.1, y + r, x - r * 1.1,
			y + r, col);
		break;
	case 3:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" "
			"stroke=\"#000\" stroke-width=\"0.6\"", x, y - r * 1.3, x + r * 1.3, y, x,
			y + r * 1.3, x - r * 1.3, y, col);
		break;
	default:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"#000\" "
			"stroke-width=\"0.6\"", x, y, r, col);
	}
}

void svg_chart_marker(struct svg_chart *c, unsigned style, double x, double y,
		      const char *title)
{
	const char *close[] = { "</circle>", "</rect>", "</path>", "</path>", "</circle>",
		"</circle>" };

	if (!point_ok(c, x, y))
		return;
	marker_shape(c->f, style, svg_scale_map(&c->x, x), svg_scale_map(&c->y, y), 4);
	fputs(">", c->f);
	title_el(c->f, title);
	fputs(close[style % SVG_NSTYLE], c->f);
}

void svg_chart_bars(struct svg_chart *c, unsigned style, const double *x0s, const double *x1s,
		    const double *ys, size_t n, const char *title)
{
	size_t i;
	double a, b, y;

	fprintf(c->f, "<g class=\"bars\" fill=\"%s\" fill-opacity=\"0.75\" stroke=\"#000\" "
		"stroke-width=\"0.3\">", colours[style % SVG_NSTYLE]);
	title_el(c->f, title);
	for (i = 0; i < n; i++) {
		if (!point_ok(c, x0s[i], ys[i]) || !point_ok(c, x1s[i], ys[i]))
			continue;
		a = svg_scale_map(&c->x, x0s[i]);
		b = svg_scale_map(&c->x, x1s[i]);
		y = clampd(svg_scale_map(&c->y, ys[i]), c->py0, c->py1);
		fprintf(c->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", a, y,
			b - a > 0.4 ? b - a : 0.4, c->py1 - y);
	}
	fputs("</g>", c->f);
}

void svg_chart_interval(struct svg_chart *c, unsigned style, double y, double lo, double mid,
			double hi, const char *title)
{
	double py = svg_scale_map(&c->y, y), a, b;

	fputs("<g class=\"interval\">", c->f);
	title_el(c->f, title);
	if (isfinite(lo) && isfinite(hi)) {
		a = clampd(svg_scale_map(&c->x, lo), c->px0 - 2, c->px1 + 2);
		b = clampd(svg_scale_map(&c->x, hi), c->px0 - 2, c->px1 + 2);
		fprintf(c->f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fV%.1f\" "
			"stroke=\"#000\" stroke-width=\"1.4\" fill=\"none\"/>", a, py - 5, py + 5,
			a, py, b, b, py - 5, py + 5);
	}
	if (isfinite(mid)) {
		marker_shape(c->f, style, clampd(svg_scale_map(&c->x, mid), c->px0, c->px1), py, 4.5);
		fputs("/>", c->f);
	}
	fputs("</g>", c->f);
}

void svg_chart_clip(struct svg_chart *c, double x, double y, int right, const char *label)
{
	double px = clampd(svg_scale_map(&c->x, x), c->px0, c->px1), py = svg_scale_map(&c->y, y);
	double tip = right ? px + 7 : px - 7;

	fprintf(c->f, "<g class=\"clipped\"><path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"#000\"/>",
		px, py - 5, tip, py, px, py + 5);
	if (label) {
		fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#000\"%s>",
			right ? px - 2 : px + 2, py - 7, right ? " text-anchor=\"end\"" : "");
		svg_escape(c->f, label);
		fputs("</text>", c->f);
	}
	fputs("</g>", c->f);
}

void svg_chart_legend(struct svg_chart *c, const char *const *labels, const unsigned *styles,
		      size_t n)
{
	double x = c->px0;
	size_t i;
	unsigned st;

	fputs("</g><g class=\"legend\">", c->f);
	for (i = 0; i < n; i++) {
		st = styles ? styles[i] : (unsigned)i;
		fprintf(c->f, "<line x1=\"%.1f\" y1=\"32\" x2=\"%.1f\" y2=\"32\"", x, x + 22);
		stroke_attrs(c->f, st, 2.2);
		fputs("/>", c->f);
		marker_shape(c->f, st, x + 11, 32, 3);
		fputs("/>", c->f);
		fprintf(c->f, "<text x=\"%.1f\" y=\"36\">", x + 26);
		svg_escape(c->f, labels[i]);
		fputs("</text>", c->f);
		x += 34 + 6.2 * (double)strlen(labels[i]);
	}
	fputs("</g><g>", c->f);
}

void svg_chart_end(struct svg_chart *c)
{
	fputs("</g></svg>\n", c->f);
}
