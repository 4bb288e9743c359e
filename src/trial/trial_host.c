/*
 * trial_host: the host's view joined with a run's result (see trial_host.h).
 */
#include "trial/trial_host.h"
#include "analysis/bottleneck.h"	/* the guest's device figures and breakdown */
#include "lib/outfile.h"
#include "parse/cmdline.h"	/* the run's series_interval */
#include "result/resultread.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double trial_host_period(char *const *args, size_t n)
{
	char **v = calloc(n + 2, sizeof(*v));
	uint64_t us = 0;
	struct cmdline cl;
	struct err e;

	if (!v)
		return 1;
	v[0] = "iotrial";
	memcpy(v + 1, args, n * sizeof(*v));
	err_clear(&e);
	if (!cmdline_parse((int)n + 1, v, &cl, &e))
		for (size_t i = 0; i < cl.jobs_nr; i++)
			if (cl.jobs[i].interval_us && (!us || cl.jobs[i].interval_us < us))
				us = cl.jobs[i].interval_us;
	cmdline_free(&cl);
	free(v);
	return us ? (double)us / 1e6 : 1;
}

/* The guest's own series, all jobs summed: what hostview_guest points into. */
struct guest_series {
	double *t, *cum;
	size_t n;
	double ramp_ms;
};

static double iv_ios(const json_t *iv)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	double n = 0;

	for (int d = 0; d < 3; d++)
		n += (double)json_number_value(json_object_get(json_object_get(iv, dirs[d]), "ios"));
	return n;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * Every job's intervals (iotrial.intervals: t_ms since the job started I/O,
 * ramp ones first) summed on the union of their ends; the jobs are taken
 * to start together (one group).  0, or -ENOENT when none has a series.
 */
static int guest_series(const json_t *doc, struct guest_series *gs)
{
	const json_t *jobs = json_object_get(doc, "jobs"), *job, *iv;
	size_t i, k, total = 0;

	memset(gs, 0, sizeof(*gs));
	json_array_foreach((json_t *)jobs, i, job)
		total += json_array_size(json_object_get(json_object_get(job, "iotrial"), "intervals"));
	if (!total)
		return -ENOENT;
	gs->t = calloc(total, sizeof(*gs->t));
	gs->cum = calloc(total, sizeof(*gs->cum));
	if (!gs->t || !gs->cum)
		return -ENOMEM;
	json_array_foreach((json_t *)jobs, i, job)
		json_array_foreach(json_object_get(json_object_get(job, "iotrial"), "intervals"), k, iv) {
			double t = (double)json_number_value(json_object_get(iv, "t_ms"));

			gs->t[gs->n++] = t;
			if (json_is_true(json_object_get(iv, "ramp")) && t > gs->ramp_ms)
				gs->ramp_ms = t;
		}
	qsort(gs->t, gs->n, sizeof(*gs->t), by_value);
	for (i = k = 0; i < gs->n; i++)
		if (!k || gs->t[i] > gs->t[k - 1])
			gs->t[k++] = gs->t[i];
	gs->n = k;
	/* each job's I/Os done by each end: linear inside its own intervals */
	json_array_foreach((json_t *)jobs, i, job) {
		const json_t *ivs = json_object_get(json_object_get(job, "iotrial"), "intervals");
		double t0 = 0, c0 = 0, c1;
		size_t j = 0, m = json_array_size(ivs);

		for (k = 0; k < gs->n; k++) {
			while (j < m && json_number_value(json_object_get(json_array_get(ivs, j),
						"t_ms")) < gs->t[k]) {
				t0 = (double)json_number_value(json_object_get(json_array_get(ivs, j), "t_ms"));
				c0 += iv_ios(json_array_get(ivs, j));
				j++;
			}
			if (j == m) {
				gs->cum[k] += c0;
				continue;
			}
			iv = json_array_get(ivs, j);
			c1 = c0 + iv_ios(iv);
			{
				double t1 = (double)json_number_value(json_object_get(iv, "t_ms"));

				gs->cum[k] += t1 > t0 ? c0 + (c1 - c0) * (gs->t[k] - t0) / (t1 - t0) : c1;
			}
		}
	}
	return 0;
}

/* The guest's I/O count, device time per request and breakdown parts from its result. */
static void guest_figures(const json_t *doc, const char *path, struct hostview_guest *g)
{
	struct resultread *r = NULL;
	struct breakdown b;
	double qd;

	g->ios = g->dev_lat_ns = g->tool_ns = g->io_path_ns = NAN;
	if (resultread_from_json(doc, path, &r, NULL))
		return;
	g->ios = 0;
	for (int d = 0; d < RESULTREAD_NDIR; d++)
		g->ios += (double)r->dir[d].ios;
	if (bottleneck_device_figures(r, &g->dev_lat_ns, &qd, NULL, 0))
		g->dev_lat_ns = NAN;
	if (!bottleneck_result_breakdown(r, 0, &b) && b.valid) {
		g->tool_ns = 0;
		for (int p = BD_TOOL_USER; p <= BD_CPU_WAIT; p++)
			g->tool_ns += isnan(b.part[p].ns) ? 0 : b.part[p].ns;
		g->io_path_ns = b.part[BD_IO_PATH].ns;
	}
	resultread_free(r);
}

int trial_host_join_doc(json_t *doc, const char *name, const struct hostview_series *s,
			struct err *e)
{
	struct hostview_guest g;
	struct guest_series gs;
	json_t *host, *iot = json_object_get(doc, "iotrial");

	if (!json_is_object(iot))	/* an "iotrial" object would make fio's result ours */
		return err_set(e, -EINVAL, EXIT_USAGE, "--host-qmp: %s is not iotrial's result (fio's?): "
			       "the host's view is kept only in iotrial's", name);
	memset(&g, 0, sizeof(g));
	guest_figures(doc, name, &g);
	if (!guest_series(doc, &gs)) {
		g.t_ms = gs.t;
		g.cum = gs.cum;
		g.n = gs.n;
		g.ramp_ms = gs.ramp_ms;
	}
	host = hostview_series_join(s, &g, e);
	free(gs.t);
	free(gs.cum);
	if (!host)
		return -ENOENT;
	json_object_set_new(iot, "host", host);
	return 0;
}

int trial_host_attach(const char *path, const struct hostview_series *s, struct err *e)
{
	struct outfile of;
	json_t *doc;
	int rc;

	if (resultread_load_json(path, &doc, e))
		return -EINVAL;
	if ((rc = trial_host_join_doc(doc, path, s, e))) {
		json_decref(doc);
		return rc;
	}
	if (outfile_open(&of, path, e)) {
		json_decref(doc);
		return -EIO;
	}
	if (json_dumpf(doc, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) || fputc('\n', of.f) == EOF) {
		outfile_abort(&of);
		json_decref(doc);
		return err_set(e, -EIO, EXIT_OUTPUT, "--host-qmp: cannot write %s", path);
	}
	json_decref(doc);
	return outfile_commit(&of, e) ? -EIO : 0;
}
