/*
 * report_breakdown: the time breakdown and the per-group device views in
 * JSON, text and HTML (see report_breakdown.h).  Renders what bottleneck_run
 * computed; computes nothing of its own but sums for display.
 */
#include "report/report_breakdown.h"
#include "report/svg.h"
#include "measure/breakdown_out.h"
#include "result/resultread_time.h"	/* a breakdown read back from a job object */
#include "result/resultread.h"	/* the parts across the hypervisor, their keys and labels */
#include "lib/utf8.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void jset(json_t *o, const char *k, json_t *v, int *bad)
{
	if (json_object_set_new(o, k, v))
		*bad = 1;
}

/* The keys of disk_util[].iotrial, plus the window and its request counts. */
static json_t *view_json(const struct disk_view *v)
{
	json_t *o = json_object();
	int bad = 0;

	jset(o, "name", utf8_json(v->name), &bad);
	jset(o, "window_s", json_real((double)v->dur_ns / 1e9), &bad);
	jset(o, "read_ios", json_integer((json_int_t)v->read_ios), &bad);
	jset(o, "write_ios", json_integer((json_int_t)v->write_ios), &bad);
	jset(o, "read_iops", json_real(v->read_iops), &bad);
	jset(o, "write_iops", json_real(v->write_iops), &bad);
	jset(o, "read_lat_ns_mean", json_real(v->read_lat_ns_mean), &bad);
	jset(o, "write_lat_ns_mean", json_real(v->write_lat_ns_mean), &bad);
	jset(o, "read_queue_depth", json_real(v->read_queue_depth), &bad);
	jset(o, "write_queue_depth", json_real(v->write_queue_depth), &bad);
	jset(o, "queue_depth", json_real(v->queue_depth), &bad);
	jset(o, "util", json_real(v->util), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* An NVMe passthrough target's controller counters (struct ctrl_view). */
static json_t *ctrl_json(const struct ctrl_view *c)
{
	json_t *o = json_object();
	int bad = 0;

	jset(o, "name", utf8_json(c->name), &bad);
	jset(o, "source", json_string("nvme_smart_log"), &bad);
	jset(o, "scope", json_string(c->nsid == 0xffffffffu ? "controller" : "namespace"), &bad);
	jset(o, "nsid", json_integer((json_int_t)c->nsid), &bad);
	jset(o, "window_s", json_real((double)c->dur_ns / 1e9), &bad);
	jset(o, "read_cmds", json_integer((json_int_t)c->read_cmds), &bad);
	jset(o, "write_cmds", json_integer((json_int_t)c->write_cmds), &bad);
	jset(o, "data_units_read", json_integer((json_int_t)c->units_read), &bad);
	jset(o, "data_units_written", json_integer((json_int_t)c->units_written), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void report_breakdown_job_json(json_t *iot, const struct job_result *jr, int *bad)
{
	json_t *b;

	if (jr->bd.valid) {
		b = breakdown_json(&jr->bd);
		if (b && jr->bd_tail.valid)
			jset(b, "tail", breakdown_json(&jr->bd_tail), bad);
		jset(iot, "breakdown", b, bad);
	}
	if (jr->nr_dev && jr->dev[0].dur_ns)
		jset(iot, "device", view_json(&jr->dev[0]), bad);
	if (jr->ctrl.valid)
		jset(iot, "controller", ctrl_json(&jr->ctrl), bad);
}

void report_breakdown_text_ctrl(FILE *f, const struct job_result *jr)
{
	const struct ctrl_view *c = &jr->ctrl;

	if (!c->valid)
		return;
	fprintf(f, "  %s controller view over %.2f s (NVMe SMART log, %s): %llu read and %llu write "
		"commands, data units %llu/%llu (of 512000 bytes, rounded up); no block layer: no "
		"latency, depth or util\n", c->name, (double)c->dur_ns / 1e9,
		c->nsid == 0xffffffffu ? "whole controller" : "its namespace",
		(unsigned long long)c->read_cmds, (unsigned long long)c->write_cmds,
		(unsigned long long)c->units_read, (unsigned long long)c->units_written);
}

/* The group and job whose window disk_util[@name].iotrial shows: the first job on it. */
static const struct job_result *view_owner(const struct run_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_jobs; i++)
		for (size_t k = 0; k < r->jobs[i].nr_dev; k++)
			if (r->jobs[i].dev[k].dur_ns && !strcmp(r->jobs[i].dev[k].name, name))
				return &r->jobs[i];
	return NULL;
}

int report_breakdown_run_json(json_t *root, const struct run_result *r)
{
	json_t *du = json_object_get(root, "disk_util"), *e, *groups, *iot;
	size_t k;
	int bad = 0;

	json_array_foreach(du, k, e) {
		json_t *v = json_object_get(e, "iotrial");
		const struct job_result *o = view_owner(r, json_string_value(json_object_get(e, "name")));

		if (!v || !o)
			continue;
		/* which window this is: compare and people must not take it for the whole run's */
		jset(v, "groupid", json_integer(o->groupid), &bad);
		jset(v, "job", utf8_json(o->name), &bad);
		jset(v, "window_s", json_real((double)o->dev[0].dur_ns / 1e9), &bad);
	}
	iot = json_object_get(root, "iotrial");
	if (!iot || !r->nr_groups)
		return bad ? -ENOMEM : 0;
	groups = json_array();
	for (size_t g = 0; g < r->nr_groups; g++) {
		const struct result_group *gr = &r->groups[g];
		json_t *o = json_object(), *devs = json_array();

		jset(o, "groupid", json_integer(gr->groupid), &bad);
		jset(o, "jobs", utf8_json(gr->jobs), &bad);
		if (gr->bd.valid)
			jset(o, "breakdown", breakdown_json(&gr->bd), &bad);
		for (size_t d = 0; d < gr->nr_dev; d++)
			if (gr->dev[d].dur_ns && json_array_append_new(devs, view_json(&gr->dev[d])))
				bad = 1;
		jset(o, "devices", devs, &bad);
		if (json_array_append_new(groups, o))
			bad = 1;
	}
	jset(iot, "groups", groups, &bad);
	return bad ? -ENOMEM : 0;
}

static void view_line(FILE *f, const struct disk_view *v, const char *window)
{
	fprintf(f, "  %s device view over %.2f s (%s): iops=%.0f/%.0f, lat=%.1f/%.1f us, "
		"depth=%.2f/%.2f (queue %.2f), util=%.2f%%\n", v->name, (double)v->dur_ns / 1e9, window,
		v->read_iops, v->write_iops, v->read_lat_ns_mean / 1000, v->write_lat_ns_mean / 1000,
		v->read_queue_depth, v->write_queue_depth, v->queue_depth, v->util);
}

void report_breakdown_text_group(FILE *f, const struct run_result *r, unsigned gid)
{
	char window[320];

	for (size_t g = 0; g < r->nr_groups; g++) {
		const struct result_group *gr = &r->groups[g];

		if (gr->groupid != gid)
			continue;
		snprintf(window, sizeof(window), "group %u: %.280s", gr->groupid, gr->jobs);
		for (size_t d = 0; d < gr->nr_dev; d++)
			if (gr->dev[d].dur_ns)
				view_line(f, &gr->dev[d], window);
		/* a group of several jobs: its own time per I/O (each job's is under the job) */
		if (!strstr(gr->jobs, ", "))
			continue;
		snprintf(window, sizeof(window), "group %u (%.200s) time per I/O (us)", gr->groupid,
			 gr->jobs);
		breakdown_text(f, "  ", window, &gr->bd);
	}
}

void report_breakdown_text_views(FILE *f, const struct run_result *r)
{
	char window[320];

	for (size_t i = 0; i < r->nr_du; i++) {
		const struct job_result *o = view_owner(r, r->du[i].name);

		if (!r->du[i].view.dur_ns)
			continue;
		snprintf(window, sizeof(window), "job %.280s", o ? o->name : "?");
		view_line(f, &r->du[i].view, window);
	}
}

/* Bar colours: one per part, in the palette's order (greyscale-safe). */
static const char *part_colour(int p)
{
	return svg_style_colour((unsigned)p);
}

/*
 * A horizontal stacked bar per labelled breakdown (@n of them, same scale),
 * as inline SVG with a legend: @labels[i] names bar i ("A", "B", a job).
 */
static void report_breakdown_svg(FILE *f, const struct breakdown *const *v,
				 const char *const *labels, size_t n)
{
	/* w leaves room for the longest bar's "12345.6 us" label inside the 640-wide box */
	const double x0 = 90, w = 470, bar = 22, gap = 10, top = 8;
	double max = 0, h = top + (double)n * (bar + gap) + 40;

	/* the scale: the longest bar, which is the parts' sum when they overlap (overlap_ns) */
	for (size_t i = 0; i < n; i++) {
		double sum = 0;

		if (!v[i] || !v[i]->valid)
			continue;
		for (int p = 0; p < BD_NR; p++)
			sum += isnan(v[i]->part[p].ns) ? 0 : v[i]->part[p].ns;
		if (v[i]->cycle_ns > max)
			max = v[i]->cycle_ns;
		if (sum > max)
			max = sum;
	}
	if (!(max > 0))
		return;
	fprintf(f, "<svg class=\"breakdown\" viewBox=\"0 0 640 %.0f\" width=\"640\" height=\"%.0f\" "
		"role=\"img\"><title>Time per I/O: where each I/O's cycle went</title>\n"
		"<desc>A stacked bar per side: device, I/O path, tool (user), tool (system), CPU wait, "
		"idle (no I/O in flight), in microseconds per I/O</desc>\n", h, h);
	for (size_t i = 0; i < n; i++) {
		double x = x0, y = top + (double)i * (bar + gap);

		if (!v[i] || !v[i]->valid)
			continue;
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"12\">", x0 - 6,
			y + bar * 0.7);
		svg_escape(f, labels[i]);
		fprintf(f, "</text>\n");
		for (int p = 0; p < BD_NR; p++) {
			const struct breakdown_item *it = &v[i]->part[p];
			double bw = isnan(it->ns) ? 0 : it->ns / max * w;

			if (bw <= 0)
				continue;
			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\">"
				"<title>", x, y, bw, bar, part_colour(p));
			svg_escape(f, labels[i]);
			fprintf(f, " %s: %.1f us (%.0f%%)</title></rect>\n",
				breakdown_part_label((enum breakdown_part)p), it->ns / 1000, 100 * it->share);
			x += bw;
		}
		fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"11\">%.1f us</text>\n", x + 4,
			y + bar * 0.7, v[i]->cycle_ns / 1000);
	}
	for (int p = 0; p < BD_NR; p++) {
		double lx = 10 + p * 105, ly = top + (double)n * (bar + gap) + 12;

		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">%s</text>\n", lx, ly, part_colour(p),
			lx + 16, ly + 10, breakdown_part_label((enum breakdown_part)p));
	}
	fprintf(f, "</svg>\n");
}

/*
 * A breakdown's table: a row per part (us per I/O, share, what it was
 * measured from, how exact), with the steady tail's figures beside the
 * whole job's when @tail is valid.
 */
static void html_table(FILE *f, const struct breakdown *b, const struct breakdown *tail)
{
	int t = tail && tail->valid;

	fprintf(f, "<table class=\"breakdown\"><tr><th>part</th><th>us per I/O</th><th>share</th>%s"
		"<th>measured from</th><th>how exact</th></tr>\n",
		t ? "<th>steady tail: us per I/O</th><th>share</th>" : "");
	for (int p = 0; p < BD_NR; p++) {
		const struct breakdown_item *it = &b->part[p];

		fprintf(f, "<tr><td>%s</td>", breakdown_part_label((enum breakdown_part)p));
		for (int k = 0; k <= t; k++) {
			const struct breakdown_item *x = k ? &tail->part[p] : it;

			if (isnan(x->ns))
				fprintf(f, "<td>?</td><td></td>");
			else
				fprintf(f, "<td>%.1f</td><td>%.0f%%</td>", x->ns / 1000, 100 * x->share);
		}
		fprintf(f, "<td>");
		svg_escape(f, it->from);
		fprintf(f, "</td><td>");
		svg_escape(f, it->exact);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "<tr><td>cycle</td><td>%.1f</td><td>100%%</td>", b->cycle_ns / 1000);
	if (t)
		fprintf(f, "<td>%.1f</td><td>100%%</td>", tail->cycle_ns / 1000);
	fprintf(f, "<td>I/Os in flight / IOPS</td><td>exact</td></tr></table>\n");
	if (t)	/* the tail's own "exact" texts differ only where it borrows the whole run's */
		fprintf(f, "<p class=\"meta\">Steady tail: its device part from the device's "
			"per-interval counters over the tail; its tool and CPU-wait parts at the whole "
			"run's rate per I/O (the tail has no CPU figures of its own).</p>\n");
}

void report_breakdown_html_job(FILE *f, const json_t *job)
{
	const json_t *o = json_object_get(json_object_get(job, "iotrial"), "breakdown");
	struct breakdown b, t;
	const struct breakdown *v[2] = { &b, &t };
	const char *labels[2] = { "whole job", "steady tail" };

	resultread_time_breakdown(o, &b);
	if (!b.valid)
		return;
	resultread_time_breakdown(json_object_get(o, "tail"), &t);
	fprintf(f, "<h4>Time per I/O</h4>\n");
	report_breakdown_svg(f, v, labels, t.valid ? 2 : 1);
	html_table(f, &b, &t);
}

/* A group's device views: one row per device, over the group's window. */
static void html_views(FILE *f, const json_t *devs)
{
	const json_t *v;
	size_t i;

	if (!json_array_size(devs))
		return;
	fprintf(f, "<table class=\"kv\"><tr><th>device</th><th>window (s)</th><th>IOPS r/w</th>"
		"<th>latency r/w (us)</th><th>depth r/w (queue)</th><th>util</th></tr>\n");
	json_array_foreach((json_t *)devs, i, v) {
		fprintf(f, "<tr><td>");
		svg_escape(f, json_string_value(json_object_get(v, "name")));
		fprintf(f, "</td><td>%.2f</td><td>%.0f / %.0f</td><td>%.1f / %.1f</td>"
			"<td>%.2f / %.2f (%.2f)</td><td>%.1f%%</td></tr>\n",
			json_number_value(json_object_get(v, "window_s")),
			json_number_value(json_object_get(v, "read_iops")),
			json_number_value(json_object_get(v, "write_iops")),
			json_number_value(json_object_get(v, "read_lat_ns_mean")) / 1000,
			json_number_value(json_object_get(v, "write_lat_ns_mean")) / 1000,
			json_number_value(json_object_get(v, "read_queue_depth")),
			json_number_value(json_object_get(v, "write_queue_depth")),
			json_number_value(json_object_get(v, "queue_depth")),
			json_number_value(json_object_get(v, "util")));
	}
	fprintf(f, "</table>\n");
}

void report_breakdown_html_groups(FILE *f, const json_t *root)
{
	const json_t *groups = json_object_get(json_object_get(root, "iotrial"), "groups"), *g;
	size_t i;

	if (!json_array_size(groups))
		return;
	fprintf(f, "<h3>Stonewall groups: device views and time per I/O</h3>\n"
		"<p class=\"meta\">Each group's device view covers that group's own window (its "
		"longest job's measured time), never another group's; a group of several jobs also "
		"gets its time per I/O (its jobs, weighted by I/Os; each job's is under the job).</p>\n");
	json_array_foreach((json_t *)groups, i, g) {
		const char *jobs = json_string_value(json_object_get(g, "jobs"));
		struct breakdown b;
		const struct breakdown *v[1] = { &b };
		char label[32];
		const char *labels[1] = { label };

		fprintf(f, "<section class=\"group\"><h4>Group %lld: ",
			(long long)json_integer_value(json_object_get(g, "groupid")));
		svg_escape(f, jobs ? jobs : "?");
		fprintf(f, "</h4>\n");
		html_views(f, json_object_get(g, "devices"));
		resultread_time_breakdown(json_object_get(g, "breakdown"), &b);
		/* one job: the group's breakdown is the job's, already shown under it */
		if (b.valid && jobs && strstr(jobs, ", ")) {
			snprintf(label, sizeof(label), "group %lld",
				 (long long)json_integer_value(json_object_get(g, "groupid")));
			fprintf(f, "<h4>Time per I/O, group %lld</h4>\n",
				(long long)json_integer_value(json_object_get(g, "groupid")));
			report_breakdown_svg(f, v, labels, 1);
			html_table(f, &b, NULL);
		}
		fprintf(f, "</section>\n");
	}
}

/* The time per I/O across the hypervisor, a row per side (compare_time's "host"). */
static void html_host(FILE *f, const json_t *h)
{
	if (!json_is_object(h))
		return;
	fprintf(f, "<h2>Time per I/O across the hypervisor</h2>\n<table>\n<tr><th>side</th>");
	for (int k = 0; k < RESULTREAD_HOST_NBD; k++)
		fprintf(f, "<th>%s (us)</th>", resultread_host_bd_label[k]);
	fprintf(f, "<th>runs</th></tr>\n");
	for (int s = 0; s < 2; s++) {
		const json_t *side = json_object_get(h, s ? "b" : "a");
		const json_t *n = json_object_get(side, "runs");

		fprintf(f, "<tr><td>%c</td>", s ? 'B' : 'A');
		for (int k = 0; k < RESULTREAD_HOST_NBD; k++) {
			const json_t *v = json_object_get(side, resultread_host_bd_key[k]);

			if (json_is_number(v))
				fprintf(f, "<td class=\"num\">%.1f</td>", json_number_value(v) / 1000);
			else
				fprintf(f, "<td class=\"num\">-</td>");
		}
		fprintf(f, "<td class=\"num\">%lld</td></tr>\n", json_is_integer(n) ?
			(long long)json_integer_value(n) : 0LL);
	}
	fprintf(f, "</table>\n<p class=\"meta\">Mean over each side's runs with the host's view "
		"(iotrial.host.breakdown): the guest's tool and I/O path from inside, the virtual "
		"device path (the guest's device time per request less the host backend's latency "
		"per op) and the host backend's latency per op from QEMU (docs/vm.md).</p>\n");
}

void report_breakdown_html_compare(FILE *f, const json_t *tb)
{
	struct breakdown a, b;
	const struct breakdown *v[2] = { &a, &b };
	const char *labels[2] = { "A", "B" };
	const char *wa = json_string_value(json_object_get(tb, "device_window_a"));
	const char *wb = json_string_value(json_object_get(tb, "device_window_b"));

	if (!json_is_object(tb))
		return;
	resultread_time_breakdown(json_object_get(tb, "a"), &a);
	resultread_time_breakdown(json_object_get(tb, "b"), &b);
	if (a.valid && b.valid) {
		fprintf(f, "<h2>Time per I/O, A and B</h2>\n");
		report_breakdown_svg(f, v, labels, 2);
		fprintf(f, "<p>");
		svg_escape(f, json_string_value(json_object_get(tb, "sentence")));
		fprintf(f, ".</p>\n");
	}
	html_host(f, json_object_get(tb, "host"));
	if (wa || wb) {
		fprintf(f, "<p class=\"meta\">device rows: A ");
		svg_escape(f, wa ? wa : "none");
		fprintf(f, "; B ");
		svg_escape(f, wb ? wb : "none");
		fprintf(f, ".</p>\n");
	}
}
