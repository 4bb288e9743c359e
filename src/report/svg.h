/*
 * svg: a small writer of inline SVG charts for the HTML reports
 * (report_html.c).  It is not a general plotting library: it draws the few
 * chart shapes the reports need (lines over time, percentile curves, bars,
 * intervals with error bars, markers) on linear, logarithmic or time axes,
 * with nice ticks, axis labels with units, a <title> and <desc> for screen
 * readers, and a palette whose colours differ in lightness as well as hue
 * and that also differ by dash pattern and marker shape, so that a chart
 * printed in greyscale still tells its series apart.
 *
 * Scales map a data domain to pixels.  An empty domain (NaN bounds: a series
 * with no points) becomes [0, 1] (log: [1, 10]); a one-point domain (lo ==
 * hi) is widened around the point, so a chart is never degenerate and no
 * coordinate is ever NaN or infinite.  Non-finite data points are skipped
 * (they break a line into pieces).
 *
 * Everything is written to a FILE *; write errors are left for the caller to
 * detect with ferror() (outfile_commit() does).  The writer keeps no global
 * state and does not allocate.
 */
#ifndef IOTRIAL_SVG_H
#define IOTRIAL_SVG_H

#include <stddef.h>
#include <stdio.h>

enum svg_scale_kind {
	SVG_LINEAR,
	SVG_LOG,	/* base 10; the domain is rounded out to whole decades */
	SVG_TIME,	/* linear in seconds, ticks on 1/2/5/10/15/30 s, minutes, hours */
};

/* How tick values are written. */
enum svg_fmt {
	SVG_FMT_NUM,	/* 950, 1.5k, 2M */
	SVG_FMT_NS,	/* a duration given in ns: 500 ns, 20 us, 1.5 ms, 2 s */
	SVG_FMT_PCT,	/* 5%, -2.5% */
	SVG_FMT_TIME,	/* seconds: 30 s, 1:30, 1:00:00 (the axis unit says which) */
	SVG_FMT_NINES,	/* the percentile axis: x = -log10(1 - p/100) shown as p50, p99.9 */
};

struct svg_scale {
	enum svg_scale_kind kind;
	double d0, d1;		/* domain, d0 < d1 (log: both > 0) */
	double r0, r1;		/* range in pixels */
	double min_step;	/* ticks at least this far apart (1: whole numbers); 0 none */
};

#define SVG_MAX_TICKS 16

/*
 * Set @s to map [@lo, @hi] to [@r0, @r1].  With @nice the domain is rounded
 * out to the scale's ticks (linear, time) or decades (log).  NaN bounds make
 * the default domain; lo == hi is widened; for log, bounds <= 0 are raised
 * to a thousandth of @hi (or 1).
 */
void svg_scale_init(struct svg_scale *s, enum svg_scale_kind kind, double lo, double hi,
		    double r0, double r1, int nice);

/* The pixel for @v; values outside the domain map outside the range. */
double svg_scale_map(const struct svg_scale *s, double v);

/* Up to @max (<= SVG_MAX_TICKS) tick values inside the domain, increasing; returns how many. */
size_t svg_ticks(const struct svg_scale *s, double *out, size_t max);

/* Write @v as a tick label in @fmt.  @step is the tick spacing (decides the decimals). */
void svg_fmt_value(enum svg_fmt fmt, double v, double step, char *buf, size_t sz);

/* The unit a time axis's labels are in: "s", "min:s" or "h:min". */
const char *svg_time_unit(const struct svg_scale *s);

/* Series styles: 0..SVG_NSTYLE-1 (larger indices wrap). */
#define SVG_NSTYLE 6
const char *svg_style_colour(unsigned idx);

/* A chart: what svg_chart_begin() needs. */
struct svg_chart_spec {
	const char *id;			/* element id (letters, digits, '-'), or NULL */
	const char *title;		/* shown above the plot, and the <title> */
	const char *desc;		/* <desc>: what is drawn, for screen readers; may be NULL */
	const char *xlabel, *ylabel;	/* axis titles with their unit */
	enum svg_scale_kind xkind, ykind;
	enum svg_fmt xfmt, yfmt;
	double xlo, xhi, ylo, yhi;	/* domains (NaN: empty) */
	int xnice, ynice;
	int width, height;		/* whole image in px (0: 640 x 260) */
	int left;			/* left margin (0: 64) for long y labels */
	double xmin_step;		/* x ticks at least this far apart (1: run numbers) */
};

struct svg_chart {
	FILE *f;
	struct svg_scale x, y;
	enum svg_fmt xfmt, yfmt;
	double px0, px1, py0, py1;	/* plot area: x left..right, y top..bottom */
};

/* Open the <svg> element, write title/desc, the grid, ticks and axis labels. */
void svg_chart_begin(struct svg_chart *c, FILE *f, const struct svg_chart_spec *sp);

/* Tick the y axis with these values and labels instead (categories). */
void svg_chart_ylabels(struct svg_chart *c, const double *v, const char *const *labels,
		       size_t n);

/* A shaded vertical band from x0 to x1 with a label at its top; @cls: "ramp", "steady", ... */
void svg_chart_band(struct svg_chart *c, double x0, double x1, const char *cls,
		    const char *label);

/* A dashed vertical line at @x with a label at its foot (a truncation point, zero). */
void svg_chart_vline(struct svg_chart *c, double x, const char *cls, const char *label);

/*
 * A line through the points (NaN or out-of-domain-for-log points break it)
 * in style @style, with @title as its tooltip and accessible name.
 */
void svg_chart_line(struct svg_chart *c, unsigned style, const double *xs, const double *ys,
		    size_t n, const char *title);

/* One marker of style @style (its shape: circle, square, triangle, ...) at (x, y). */
void svg_chart_marker(struct svg_chart *c, unsigned style, double x, double y,
		      const char *title);

/* Bars from y = bottom of the plot to ys[i], spanning x0s[i]..x1s[i]. */
void svg_chart_bars(struct svg_chart *c, unsigned style, const double *x0s, const double *x1s,
		    const double *ys, size_t n, const char *title);

/*
 * A horizontal interval lo..hi at height y with caps and a marker at mid
 * (the forest plot's row).  A NaN lo/hi draws only the marker.
 */
void svg_chart_interval(struct svg_chart *c, unsigned style, double y, double lo, double mid,
			double hi, const char *title);

/*
 * A clipped end at (@x, @y): an arrowhead pointing out of the plot (@right:
 * to the right, else left) and @label (the true value) beside it, inside.
 */
void svg_chart_clip(struct svg_chart *c, double x, double y, int right, const char *label);

/* A legend row under the title: @n entries of styles 0..n-1 (or @styles when not NULL). */
void svg_chart_legend(struct svg_chart *c, const char *const *labels, const unsigned *styles,
		      size_t n);

void svg_chart_end(struct svg_chart *c);

/* Write @s escaped for HTML/SVG text and attribute values. */
void svg_escape(FILE *f, const char *s);

#endif
