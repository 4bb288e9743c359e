/* Unit tests of svg.c: scales, ticks, labels, degenerate series, escaping. */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "report/svg.h"

/* Ticks are inside the domain, increasing and evenly spaced (linear/time). */
static int ticks_sane(const struct svg_scale *s, const double *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(t[i]) || t[i] < s->d0 - 1e-9 * fabs(s->d1) ||
		    t[i] > s->d1 + 1e-9 * fabs(s->d1))
			return 0;
		if (i && t[i] <= t[i - 1])
			return 0;
		if (s->kind != SVG_LOG && i > 1 &&
		    fabs((t[i] - t[i - 1]) - (t[1] - t[0])) > 1e-9 * (t[1] - t[0]))
			return 0;
	}
	return 1;
}

TEST(linear_nice)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	size_t n;

	svg_scale_init(&s, SVG_LINEAR, 0, 173000, 0, 500, 1);
	CHECK_NEAR(s.d0, 0, 0);
	CHECK_NEAR(s.d1, 200000, 0);	/* rounded out to the 50k step */
	n = svg_ticks(&s, t, 8);
	CHECK_EQ_U(n, 5);
	CHECK(ticks_sane(&s, t, n));
	CHECK_NEAR(t[1], 50000, 0);
	CHECK_NEAR(svg_scale_map(&s, 100000), 250, 1e-9);

	svg_scale_init(&s, SVG_LINEAR, -3.2, 7.9, 100, 0, 1);
	CHECK_NEAR(s.d0, -5, 1e-12);	/* 11.1 / 5 -> step 5 */
	CHECK_NEAR(s.d1, 10, 1e-12);
	CHECK_NEAR(svg_scale_map(&s, -5), 100, 1e-9);	/* inverted range: y axis */
	CHECK_NEAR(svg_scale_map(&s, 10), 0, 1e-9);
	n = svg_ticks(&s, t, 10);
	CHECK(ticks_sane(&s, t, n));
	CHECK(n >= 4);
	/* 0.1 + 0.2 style steps come out clean */
	svg_scale_init(&s, SVG_LINEAR, 0, 0.7, 0, 1, 1);
	n = svg_ticks(&s, t, 10);
	CHECK(ticks_sane(&s, t, n));
	CHECK_NEAR(t[n - 1], s.d1, 1e-12);
}

TEST(linear_tick_limit)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	size_t n;

	svg_scale_init(&s, SVG_LINEAR, 0, 100, 0, 1, 1);
	n = svg_ticks(&s, t, 3);
	CHECK(n <= 3 && n >= 2);
	CHECK(ticks_sane(&s, t, n));
	CHECK_EQ_U(svg_ticks(&s, t, 0), 0);
	/* run numbers: whole ticks only, even on a short axis */
	svg_scale_init(&s, SVG_LINEAR, 0.5, 2.5, 0, 1, 0);
	s.min_step = 1;
	n = svg_ticks(&s, t, 8);
	CHECK_EQ_U(n, 2);
	CHECK_NEAR(t[0], 1, 0);
	CHECK_NEAR(t[1], 2, 0);
}

TEST(log_decades)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	size_t n;

	svg_scale_init(&s, SVG_LOG, 830, 2.4e6, 0, 300, 1);
	CHECK_NEAR(s.d0, 100, 1e-9);
	CHECK_NEAR(s.d1, 1e7, 1e-6);
	n = svg_ticks(&s, t, 10);
	CHECK_EQ_U(n, 6);	/* 1e2 .. 1e7 */
	CHECK(ticks_sane(&s, t, n));
	CHECK_NEAR(t[0], 100, 1e-9);
	CHECK_NEAR(svg_scale_map(&s, 1e4), 120, 1e-6);	/* 2 of 5 decades */
	/* a narrow range gets 1-2-5 ticks */
	svg_scale_init(&s, SVG_LOG, 15, 80, 0, 1, 1);
	n = svg_ticks(&s, t, 10);
	CHECK_EQ_U(n, 4);	/* 10 20 50 100 */
	CHECK_NEAR(t[2], 50, 1e-9);
	/* many decades are thinned, not truncated at the top */
	svg_scale_init(&s, SVG_LOG, 1, 1e15, 0, 1, 1);
	n = svg_ticks(&s, t, 6);
	CHECK(n <= 6);
	CHECK(ticks_sane(&s, t, n));
	/* zero or negative bounds never reach log10 */
	svg_scale_init(&s, SVG_LOG, 0, 5000, 0, 1, 1);
	CHECK(s.d0 > 0);
	CHECK(isfinite(svg_scale_map(&s, 1000)));
}

TEST(time_steps)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	char buf[32];
	size_t n;

	svg_scale_init(&s, SVG_TIME, 0, 600, 0, 600, 1);	/* a 10 min run */
	n = svg_ticks(&s, t, 8);
	CHECK(ticks_sane(&s, t, n));
	CHECK_NEAR(t[1] - t[0], 120, 1e-9);
	CHECK_STR(svg_time_unit(&s), "min:s");
	svg_fmt_value(SVG_FMT_TIME, 240, 120, buf, sizeof(buf));
	CHECK_STR(buf, "4:00");

	svg_scale_init(&s, SVG_TIME, 0, 33, 0, 600, 1);	/* 33 s: 10 s steps, in seconds */
	n = svg_ticks(&s, t, 8);
	CHECK_NEAR(t[1] - t[0], 10, 1e-9);
	CHECK_NEAR(s.d1, 40, 1e-9);
	CHECK_STR(svg_time_unit(&s), "s");

	svg_scale_init(&s, SVG_TIME, 0, 3 * 3600 + 5, 0, 600, 1);
	n = svg_ticks(&s, t, 8);
	CHECK(ticks_sane(&s, t, n));
	CHECK_STR(svg_time_unit(&s), "h:min");
	svg_fmt_value(SVG_FMT_TIME, 5400, 3600, buf, sizeof(buf));
	CHECK_STR(buf, "1:30");

	svg_scale_init(&s, SVG_TIME, 0, 0.8, 0, 600, 1);	/* sub-second */
	n = svg_ticks(&s, t, 8);
	CHECK(n >= 3);
	CHECK(ticks_sane(&s, t, n));
}

TEST(empty_and_one_point)
{
	struct svg_scale s;
	double t[SVG_MAX_TICKS];
	size_t n;

	svg_scale_init(&s, SVG_LINEAR, NAN, NAN, 0, 100, 1);	/* no points */
	CHECK(s.d1 > s.d0);
	CHECK(isfinite(svg_scale_map(&s, 0.5)));
	n = svg_ticks(&s, t, 8);
	CHECK(n >= 2 && ticks_sane(&s, t, n));

	svg_scale_init(&s, SVG_LOG, NAN, NAN, 0, 100, 1);
	CHECK(s.d0 > 0 && s.d1 > s.d0);

	svg_scale_init(&s, SVG_TIME, NAN, NAN, 0, 100, 1);
	CHECK(s.d1 > s.d0);

	svg_scale_init(&s, SVG_LINEAR, 42000, 42000, 0, 100, 1);	/* one point */
	CHECK(s.d0 <= 42000 && s.d1 > 42000);
	CHECK(s.d0 >= 0);	/* a positive value keeps a zero floor at most */
	n = svg_ticks(&s, t, 8);
	CHECK(n >= 2 && ticks_sane(&s, t, n));

	svg_scale_init(&s, SVG_LINEAR, 0, 0, 0, 100, 1);	/* one zero point */
	CHECK(s.d1 > s.d0);

	svg_scale_init(&s, SVG_LOG, 5000, 5000, 0, 100, 1);
	CHECK(s.d0 < 5000 && s.d1 > 5000);
	CHECK_NEAR(s.d0, 1000, 1e-9);

	svg_scale_init(&s, SVG_TIME, 7, 7, 0, 100, 1);
	CHECK(s.d0 <= 7 && s.d1 > 7);

	svg_scale_init(&s, SVG_LINEAR, 5, 1, 0, 100, 1);	/* reversed bounds: default */
	CHECK(s.d1 > s.d0);
}

TEST(labels)
{
	char b[32];

	svg_fmt_value(SVG_FMT_NUM, 150000, 50000, b, sizeof(b));
	CHECK_STR(b, "150k");
	svg_fmt_value(SVG_FMT_NUM, 2500, 500, b, sizeof(b));
	CHECK_STR(b, "2.5k");
	svg_fmt_value(SVG_FMT_NUM, 0, 500, b, sizeof(b));
	CHECK_STR(b, "0");
	svg_fmt_value(SVG_FMT_NUM, 12, 2, b, sizeof(b));
	CHECK_STR(b, "12");
	svg_fmt_value(SVG_FMT_NUM, 2e6, 1e6, b, sizeof(b));
	CHECK_STR(b, "2M");
	svg_fmt_value(SVG_FMT_NS, 1500000, 500000, b, sizeof(b));
	CHECK_STR(b, "1.5 ms");
	svg_fmt_value(SVG_FMT_NS, 100000, 0, b, sizeof(b));	/* log axis */
	CHECK_STR(b, "100 us");
	svg_fmt_value(SVG_FMT_NS, 500, 0, b, sizeof(b));
	CHECK_STR(b, "500 ns");
	svg_fmt_value(SVG_FMT_PCT, -2.5, 2.5, b, sizeof(b));
	CHECK_STR(b, "-2.5%");
	svg_fmt_value(SVG_FMT_PCT, -0.0, 5, b, sizeof(b));
	CHECK_STR(b, "0%");
	svg_fmt_value(SVG_FMT_NINES, 2, 1, b, sizeof(b));
	CHECK_STR(b, "p99");
	svg_fmt_value(SVG_FMT_NINES, 3, 1, b, sizeof(b));
	CHECK_STR(b, "p99.9");
	svg_fmt_value(SVG_FMT_NINES, -log10(0.5), 1, b, sizeof(b));
	CHECK_STR(b, "p50");
	svg_fmt_value(SVG_FMT_NUM, NAN, 1, b, sizeof(b));
	CHECK_STR(b, "-");
}

/* A chart of an empty and a one-point series: well-formed, no nan/inf. */
TEST(chart_degenerate)
{
	struct svg_chart c;
	struct svg_chart_spec sp = { .id = "c1", .title = "IOPS <over> time", .xlabel = "time",
		.ylabel = "IOPS", .xkind = SVG_TIME, .ykind = SVG_LINEAR, .xfmt = SVG_FMT_TIME,
		.yfmt = SVG_FMT_NUM, .xlo = NAN, .xhi = NAN, .ylo = 0, .yhi = NAN, .xnice = 1,
		.ynice = 1 };
	double x = 3, y = 1000, nan = NAN;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	if (!f)
		return;
	svg_chart_begin(&c, f, &sp);
	svg_chart_line(&c, 0, &x, &nan, 0, "empty");
	svg_chart_line(&c, 1, &x, &y, 1, "one");
	svg_chart_band(&c, NAN, 5, "ramp", "ramp");
	svg_chart_end(&c);
	sp.xlo = sp.xhi = 3;
	sp.ylo = sp.yhi = 1000;
	svg_chart_begin(&c, f, &sp);
	svg_chart_line(&c, 1, &x, &y, 1, "one");
	svg_chart_marker(&c, 1, x, y, "one");
	svg_chart_end(&c);
	fclose(f);
	CHECK(strstr(buf, "nan") == NULL && strstr(buf, "inf") == NULL);
	CHECK(strstr(buf, "IOPS &lt;over&gt; time") != NULL);
	CHECK(strstr(buf, "<title id=\"c1-t\">") != NULL);
	CHECK(strstr(buf, "points=\"") != NULL);
	free(buf);
}

int main(void)
{
	RUN(linear_nice);
	RUN(linear_tick_limit);
	RUN(log_decades);
	RUN(time_steps);
	RUN(empty_and_one_point);
	RUN(labels);
	RUN(chart_degenerate);
	return check_any_failed;
}
