/*
 * compare_time: the time breakdown side by side (see compare_time.h).
 */
#include "trial/compare_time.h"
#include "analysis/bottleneck.h"		/* bottleneck_result_breakdown, bottleneck_device_figures */
#include "measure/breakdown_out.h"	/* the JSON and the text line of a breakdown */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int compare_time_value(const struct resultread *r, int part, double *out)
{
	struct breakdown b;

	*out = NAN;
	if (bottleneck_result_breakdown(r, 0, &b))
		return -ENOENT;
	*out = part < 0 ? b.cycle_ns : part < BD_NR ? b.part[part].ns : NAN;
	return isnan(*out) ? -ENOENT : 0;
}

static void side(struct resultread *const *v, size_t n, struct breakdown *out, char *win, size_t wsz)
{
	struct breakdown *bv = calloc(n ? n : 1, sizeof(*bv));
	double *w = calloc(n ? n : 1, sizeof(*w)), lat, qd;

	memset(out, 0, sizeof(*out));
	win[0] = '\0';
	if (n)
		bottleneck_device_figures(v[0], &lat, &qd, win, wsz);
	if (!bv || !w) {
		free(bv);
		free(w);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		/* each run counts once: a mean over runs, as the other metrics */
		w[i] = bottleneck_result_breakdown(v[i], 0, &bv[i]) ? 0 : 1;
	}
	breakdown_mean(bv, w, n, out);
	free(bv);
	free(w);
}

/* Side @s's parts across the hypervisor: each a mean over the runs that have it. */
static void host_side(struct resultread *const *v, size_t n, struct compare_time *out, int s)
{
	for (int k = 0; k < RESULTREAD_HOST_NBD; k++) {
		double sum = 0;
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (v[i]->host.has && isfinite(v[i]->host.bd[k])) {
				sum += v[i]->host.bd[k];
				m++;
			}
		out->host[s][k] = m ? sum / (double)m : NAN;
	}
	for (size_t i = 0; i < n; i++)
		out->host_runs[s] += v[i]->host.has != 0;
}

void compare_time_build(struct resultread *const *a, size_t na, struct resultread *const *b,
			size_t nb, struct compare_time *out)
{
	double best = 0;

	memset(out, 0, sizeof(*out));
	out->most = BD_NR;
	host_side(a, na, out, 0);
	host_side(b, nb, out, 1);
	side(a, na, &out->a, out->window_a, sizeof(out->window_a));
	side(b, nb, &out->b, out->window_b, sizeof(out->window_b));
	out->valid = out->a.valid && out->b.valid;
	if (!out->valid)
		return;
	for (int p = 0; p < BD_NR; p++) {
		double d = out->b.part[p].ns - out->a.part[p].ns;

		if (!isnan(d) && (out->most == BD_NR || fabs(d) > fabs(best))) {
			best = d;
			out->most = (enum breakdown_part)p;
		}
	}
	if (out->most == BD_NR) {
		snprintf(out->sentence, sizeof(out->sentence), "no part of the time per I/O is known on both sides");
		return;
	}
	snprintf(out->sentence, sizeof(out->sentence),
		 "B's cycle per I/O is %.1f us %s (A %.1f, B %.1f us); the difference is most in %s%s: "
		 "%.1f us %s per I/O (A %.1f, B %.1f us)",
		 fabs(out->b.cycle_ns - out->a.cycle_ns) / 1000,
		 out->b.cycle_ns <= out->a.cycle_ns ? "shorter" : "longer", out->a.cycle_ns / 1000,
		 out->b.cycle_ns / 1000,
		 out->most == BD_IDLE ? "" : "the ",
		 out->most == BD_IDLE ? "idle time (no I/O in flight)" : breakdown_part_label(out->most),
		 fabs(best) / 1000,
		 best < 0 ? "less" : "more", out->a.part[out->most].ns / 1000,
		 out->b.part[out->most].ns / 1000);
}

json_t *compare_time_json(const struct compare_time *t)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (t->valid) {
		json_object_set_new(o, "a", breakdown_json(&t->a));
		json_object_set_new(o, "b", breakdown_json(&t->b));
		json_object_set_new(o, "most", t->most < BD_NR ?
				    json_string(breakdown_part_name(t->most)) : json_null());
		json_object_set_new(o, "sentence", json_string(t->sentence));
	}
	if (t->host_runs[0] || t->host_runs[1]) {	/* across the hypervisor (docs/vm.md) */
		json_t *h = json_object();

		for (int s = 0; h && s < 2; s++) {
			json_t *side = json_object();

			for (int k = 0; side && k < RESULTREAD_HOST_NBD; k++)
				json_object_set_new(side, resultread_host_bd_key[k], isfinite(t->host[s][k]) ?
						    json_real(t->host[s][k]) : json_null());
			json_object_set_new(side, "runs", json_integer((json_int_t)t->host_runs[s]));
			json_object_set_new(h, s ? "b" : "a", side);
		}
		json_object_set_new(o, "host", h);
	}
	json_object_set_new(o, "device_window_a", t->window_a[0] ? json_string(t->window_a) : json_null());
	json_object_set_new(o, "device_window_b", t->window_b[0] ? json_string(t->window_b) : json_null());
	return o;
}

void compare_time_write_text(const struct compare_time *t, FILE *f)
{
	if (t->window_a[0] || t->window_b[0])
		fprintf(f, "\ndevice.* rows: A %s; B %s\n", t->window_a[0] ? t->window_a : "none",
			t->window_b[0] ? t->window_b : "none");
	if (t->valid) {
		fprintf(f, "\ntime per I/O (us, mean over runs; docs/breakdown.md):\n");
		breakdown_text(f, "  ", "A", &t->a);
		breakdown_text(f, "  ", "B", &t->b);
		fprintf(f, "  %s\n", t->sentence);
	}
	if (!t->host_runs[0] && !t->host_runs[1])
		return;
	fprintf(f, "\ntime per I/O across the hypervisor (us, mean over runs with the host's view; "
		"docs/vm.md):\n");
	for (int s = 0; s < 2; s++) {
		fprintf(f, "  %c", s ? 'B' : 'A');
		for (int k = 0; k < RESULTREAD_HOST_NBD; k++)
			if (isfinite(t->host[s][k]))
				fprintf(f, "  %s %.1f", resultread_host_bd_label[k], t->host[s][k] / 1000);
			else
				fprintf(f, "  %s -", resultread_host_bd_label[k]);
		fprintf(f, "  (%zu run%s)\n", t->host_runs[s], t->host_runs[s] == 1 ? "" : "s");
	}
}
