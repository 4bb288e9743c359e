/*
 * report_host: the host's lines of a single run (see report_host.h).
 */
#include "report/report_host.h"
#include "report/report_html_page.h"	/* escaping, figures */
#include "result/resultread.h"	/* the breakdown's keys and labels */
#include "lib/hostrole.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *v, const char *dflt)
{
	return json_is_string(v) ? json_string_value(v) : dflt;
}

/* A figure in us, or "-". */
static const char *us(double ns, char *buf, size_t sz)
{
	if (isfinite(ns))
		snprintf(buf, sz, "%.1f", ns / 1000);
	else
		snprintf(buf, sz, "-");
	return buf;
}

/*
 * The lines, label and value, that text and HTML share: @i from 0 until it
 * returns 0.
 */
static int line(const json_t *h, int i, char *label, size_t lsz, char *val, size_t vsz)
{
	const json_t *by = json_object_get(h, "cpu_per_io_ns_by_role");
	const json_t *win = json_object_get(h, "window"), *pit = json_object_get(h, "pitfalls");
	double ops = num(h, "ops"), gios = num(h, "guest_ios");
	char a[32], b[32];
	size_t used = 0;

	switch (i) {
	case 0:
		snprintf(label, lsz, "drive");
		snprintf(val, vsz, "%s (%s)", str(json_object_get(h, "drive"), "?"),
			 str(json_object_get(h, "drive_chosen"), ""));
		return 1;
	case 1:
		snprintf(label, lsz, "window");
		if (win)
			snprintf(val, vsz, "%.2f s: %s", num(h, "window_s"),
				 str(json_object_get(win, "text"), ""));
		else
			snprintf(val, vsz, "%.2f s: the whole run, sampled before and after",
				 num(h, "window_s"));
		return 1;
	case 2:
		snprintf(label, lsz, "ops");
		if (isfinite(gios) && gios > 0)
			snprintf(val, vsz, "%.0f (%.0f reads, %.0f writes) for the guest's %.0f I/Os "
				 "(%+.2f%%)", ops, num(h, "rd_ops"), num(h, "wr_ops"), gios,
				 100 * (ops - gios) / gios);
		else
			snprintf(val, vsz, "%.0f (%.0f reads, %.0f writes)", ops, num(h, "rd_ops"),
				 num(h, "wr_ops"));
		return 1;
	case 3:
		snprintf(label, lsz, "host backend");
		snprintf(val, vsz, "%s us per op (QMP query-blockstats)",
			 us(num(h, "backend_lat_ns"), a, sizeof(a)));
		return 1;
	case 4:
		snprintf(label, lsz, "host CPU");
		used = (size_t)snprintf(val, vsz, "%s us per I/O:", us(num(h, "cpu_per_io_ns"), a,
									  sizeof(a)));
		for (int r = 0; r < HOST_ROLE_NR && used < vsz; r++)
			used += (size_t)snprintf(val + used, vsz - used, "%s %s %s", r ? "," : "",
						 host_role_name((enum host_role)r),
						 us(num(by, host_role_name((enum host_role)r)), b, sizeof(b)));
		return 1;
	case 5:
		snprintf(label, lsz, "virtual device path");
		snprintf(val, vsz, "%s us per request (the guest's device time less the host "
			 "backend's)", us(num(h, "virt_path_ns"), a, sizeof(a)));
		return 1;
	case 6: {
		const json_t *bd = json_object_get(h, "breakdown");

		snprintf(label, lsz, "time per I/O (us)");
		for (int k = 0; k < RESULTREAD_HOST_NBD && used < vsz; k++)
			used += (size_t)snprintf(val + used, vsz - used, "%s%s %s", k ? "  " : "",
						 resultread_host_bd_label[k],
						 us(num(bd, resultread_host_bd_key[k]), a, sizeof(a)));
		return 1;
	}
	case 7:
		snprintf(label, lsz, "series");
		snprintf(val, vsz, "%zu intervals of %.0f ms (iotrial.host.series)",
			 json_array_size(json_object_get(h, "series")), num(h, "series_interval_ms"));
		return 1;
	case 8:
		snprintf(label, lsz, "lost");
		snprintf(val, vsz, "%s", str(json_object_get(win, "lost"), ""));
		return 1;
	default:
		i -= 9;
		if (i < 0 || (size_t)i >= json_array_size(pit))
			return 0;
		snprintf(label, lsz, "pitfall");
		snprintf(val, vsz, "%s: %s",
			 str(json_object_get(json_array_get(pit, (size_t)i), "id"), "?"),
			 str(json_object_get(json_array_get(pit, (size_t)i), "text"), ""));
		return 1;
	}
}

/* Lines without anything to say are left out: no series, no loss. */
static int wanted(const json_t *h, int i)
{
	if (i == 7)
		return json_array_size(json_object_get(h, "series")) > 0;
	if (i == 8)
		return json_string_value(json_object_get(json_object_get(h, "window"), "lost")) != NULL;
	return 1;
}

void report_host_text(FILE *f, const json_t *host)
{
	char label[64], val[1024];

	if (!json_is_object(host))
		return;
	fprintf(f, "\nThe host's side (QEMU, %s; docs/vm.md):\n",
		str(json_object_get(host, "source"), "QMP"));
	for (int i = 0; line(host, i, label, sizeof(label), val, sizeof(val)); i++)
		if (wanted(host, i))
			fprintf(f, "  %-19s: %s\n", label, val);
}

/* Each interval's value over its own span (steps), as the guest's charts draw. */
static void steps(const json_t *series, double *x, size_t i, double *y, double v)
{
	const json_t *it = json_array_get(series, i);
	double t = num(it, "t_ms") / 1000, d = num(it, "dur_us") / 1e6;

	x[2 * i] = t - d;
	x[2 * i + 1] = t;
	y[2 * i] = y[2 * i + 1] = v;
}

/* The guest's IOPS (one job entry: its own intervals), beside the host's ops. */
static size_t guest_steps(const json_t *root, double *x, double *y, size_t max)
{
	const json_t *jobs = json_object_get(root, "jobs"), *iv;
	const json_t *ivs = json_object_get(json_object_get(json_array_get(jobs, 0), "iotrial"),
					    "intervals");
	size_t i, n = 0;

	if (json_array_size(jobs) != 1)
		return 0;
	json_array_foreach((json_t *)ivs, i, iv) {
		double ios = 0, d = num(iv, "dur_us") / 1e6;

		if (n + 2 > max)
			break;
		for (int k = 0; k < 3; k++)
			ios += num(json_object_get(iv, k == 0 ? "read" : k == 1 ? "write" : "trim"), "ios");
		x[n] = num(iv, "t_ms") / 1000 - d;
		x[n + 1] = num(iv, "t_ms") / 1000;
		y[n] = y[n + 1] = d > 0 ? ios / d : NAN;
		n += 2;
	}
	return n;
}

static void charts(FILE *f, const json_t *root, const json_t *h)
{
	const json_t *series = json_object_get(h, "series"), *win = json_object_get(h, "window");
	size_t n = json_array_size(series), gmax = 4096, gn;
	double *x = calloc(2 * n + 1, sizeof(double)), *y = calloc(2 * n + 1, sizeof(double));
	double *gx = calloc(gmax, sizeof(double)), *gy = calloc(gmax, sizeof(double));
	double ramp = num(win, "ramp_ms") / 1000, ymax = 0;
	int aligned = !strcmp(str(json_object_get(win, "from"), ""), "measured");
	struct svg_chart c;

	if (!x || !y || !gx || !gy)
		goto out;
	gn = aligned ? guest_steps(root, gx, gy, gmax) : 0;
	for (size_t i = 0; i < n; i++) {
		const json_t *it = json_array_get(series, i);
		double d = num(it, "dur_us") / 1e6;

		steps(series, x, i, y, d > 0 ? num(it, "ops") / d : NAN);
		ymax = fmax(ymax, y[2 * i]);
	}
	for (size_t i = 0; i < gn; i++)
		ymax = fmax(ymax, isfinite(gy[i]) ? gy[i] : 0);
	fputs("<div class=\"charts\">\n", f);
	{
		struct svg_chart_spec sp = { .id = "host-ops", .title = "Host: the drive's ops over time",
			.desc = "QMP's operations per second of the drive per host interval, and the "
				"guest's own IOPS, on the guest job's clock",
			.xlabel = aligned ? "time since the job started I/O" : "time since the first sample",
			.ylabel = "ops/s", .xkind = SVG_TIME, .xfmt = SVG_FMT_TIME, .ykind = SVG_LINEAR,
			.yfmt = SVG_FMT_NUM, .xlo = x[0], .xhi = n ? x[2 * n - 1] : NAN, .ylo = 0,
			.yhi = ymax > 0 ? ymax : NAN, .ynice = 1 };
		const char *lab[2] = { "host (QMP)", "guest IOPS" };

		report_html_fig_begin(f);
		svg_chart_begin(&c, f, &sp);
		if (aligned && ramp > 0)
			svg_chart_band(&c, 0, ramp, "ramp", "ramp");
		svg_chart_line(&c, 0, x, y, 2 * n, lab[0]);
		if (gn)
			svg_chart_line(&c, 1, gx, gy, gn, lab[1]);
		svg_chart_legend(&c, lab, NULL, gn ? 2 : 1);
		svg_chart_end(&c);
		report_html_fig_end(f, aligned ? "The host's intervals placed on the guest's clock by "
				    "the window's alignment (iotrial.host.window)." :
				    "Not aligned with the guest's clock (iotrial.host.window).");
	}
	{
		struct svg_chart_spec sp = { .id = "host-cpu", .title = "Host: QEMU's CPU by role over time",
			.desc = "QEMU's CPU time per host interval, by thread role, as a share of one core",
			.xlabel = aligned ? "time since the job started I/O" : "time since the first sample",
			.ylabel = "CPU (% of one core)", .xkind = SVG_TIME, .xfmt = SVG_FMT_TIME,
			.ykind = SVG_LINEAR, .yfmt = SVG_FMT_NUM, .xlo = x[0],
			.xhi = n ? x[2 * n - 1] : NAN, .ylo = 0, .yhi = NAN, .ynice = 1 };
		const char *lab[HOST_ROLE_NR];
		unsigned sty[HOST_ROLE_NR];
		size_t nl = 0;
		double hi = 0;

		for (size_t i = 0; i < n; i++) {
			const json_t *it = json_array_get(series, i), *cpu = json_object_get(it, "cpu_ns");
			double t = 0;

			for (int r = 0; r < HOST_ROLE_NR; r++)
				t = fmax(t, num(cpu, host_role_name((enum host_role)r)));
			hi = fmax(hi, 100 * t / (num(it, "dur_us") * 1000));
		}
		sp.yhi = hi > 0 ? hi : NAN;
		report_html_fig_begin(f);
		svg_chart_begin(&c, f, &sp);
		if (aligned && ramp > 0)
			svg_chart_band(&c, 0, ramp, "ramp", "ramp");
		for (int r = 0; r < HOST_ROLE_NR; r++) {
			double any = 0;

			for (size_t i = 0; i < n; i++) {
				const json_t *it = json_array_get(series, i);
				double v = num(json_object_get(it, "cpu_ns"), host_role_name((enum host_role)r));

				any += v > 0 ? v : 0;
				steps(series, x, i, y, 100 * v / (num(it, "dur_us") * 1000));
			}
			if (!(any > 0))
				continue;
			svg_chart_line(&c, (unsigned)r, x, y, 2 * n, host_role_name((enum host_role)r));
			lab[nl] = host_role_name((enum host_role)r);
			sty[nl++] = (unsigned)r;
		}
		svg_chart_legend(&c, lab, sty, nl);
		svg_chart_end(&c);
		report_html_fig_end(f, "/proc/PID/task/*/stat of QEMU's threads, grouped by role "
				    "(docs/vm.md).");
	}
	fputs("</div>\n", f);
out:
	free(x);
	free(y);
	free(gx);
	free(gy);
}

void report_host_html(FILE *f, const json_t *root)
{
	const json_t *h = json_object_get(json_object_get(root, "iotrial"), "host");
	const json_t *jobs = json_object_get(root, "jobs"), *job;
	char label[64], val[1024];
	int has_series = 0;
	size_t i;

	if (!json_is_object(h))
		return;
	fputs("<h3>The host's side (QEMU)</h3>\n<table class=\"kv\">\n", f);
	for (int k = 0; line(h, k, label, sizeof(label), val, sizeof(val)); k++) {
		if (!wanted(h, k))
			continue;
		fputs("<tr><td>", f);
		report_html_esc(f, label);
		fputs("</td><td>", f);
		report_html_esc(f, val);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<p class=\"meta\">From QEMU's QMP socket and its threads' CPU time on the "
	      "host (docs/vm.md), over the window shown.</p>\n", f);
	json_array_foreach((json_t *)jobs, i, job)
		has_series |= json_array_size(json_object_get(json_object_get(job, "iotrial"),
							      "intervals")) > 0;
	if (has_series && json_array_size(json_object_get(h, "series")))
		charts(f, root, h);
}
