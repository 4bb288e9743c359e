/*
 * test_hostview_series: the host's series joined with the guest's own
 * (env/hostview_series.h), on series made here: the guest job's start
 * found on the host's clock whatever the offset between the clocks, the
 * measured window (ramp excluded) with the drive's counters spread as the
 * guest's I/Os were, the CPU over the window, the fallback to the whole
 * run, a series cut short by a socket that went away, and the memory bound
 * (thinning) of samples added one by one.
 */
#include "check.h"
#include "env/hostview_series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define T0 10000000000.0	/* the host's clock at the first sample, ns */

/*
 * A host series sampled every @step_ms from T0 to @span_ms, the drive
 * counting the guest's I/Os @ops_at (ms since T0) on top of 7 from before,
 * 10 ms of rd_ns per op, and the vCPU burning half a core.
 */
static void make(struct hostview_series *s, const struct hostview_cfg *c, double step_ms,
		 double span_ms, double (*ops_at)(double))
{
	size_t n = (size_t)(span_ms / step_ms) + 1;

	memset(s, 0, sizeof(*s));
	s->cfg = c;
	s->period_ns = (int64_t)(step_ms * 1e6);
	s->nd = 1;
	s->n = s->max = n;
	s->pt = calloc(n, sizeof(*s->pt));
	s->cnt = calloc(n, sizeof(*s->cnt));
	s->first.d = calloc(1, sizeof(*s->first.d));
	s->first.nd = 1;
	strcpy(s->first.d[0].name, "drive-virtio0");
	for (size_t j = 0; j < n; j++) {
		double ms = (double)j * step_ms, ops = 7 + ops_at(ms);

		s->pt[j].t_ns = (int64_t)(T0 + ms * 1e6);
		s->pt[j].cpu[HOST_ROLE_VCPU] = s->pt[j].cpu_total = ms * 1e6 / 2;
		s->cnt[j].rd_ops = (uint64_t)llround(ops);
		s->cnt[j].rd_ns = (uint64_t)llround(ops * 1e7);
	}
	s->first.t_ns = s->pt[0].t_ns;
	s->first.d[0].rd_ops = s->cnt[0].rd_ops;
	s->last = s->first;
	s->last.d = calloc(1, sizeof(*s->last.d));
	s->last.d[0] = s->first.d[0];
	s->last.d[0].rd_ops = s->cnt[n - 1].rd_ops;
	s->last.t_ns = s->pt[n - 1].t_ns;
}

/* The guest's job starts at 250 ms of the host's clock: 1 op per ms for 3000 ms. */
static double steady(double ms)
{
	return fmin(fmax(ms - 250, 0), 3000);
}

/* ... 2 ops per ms for the first 1000 ms (the ramp), then 0.5 per ms. */
static double uneven_ops(double tau)
{
	return tau <= 0 ? 0 : tau <= 1000 ? 2 * tau : tau <= 3000 ? 2000 + 0.5 * (tau - 1000) : 3000;
}

static double uneven(double ms)
{
	return uneven_ops(ms - 250);
}

/* The guest's own series: intervals of @iv_ms to 3000 ms, the ramp to 1000 ms. */
static void guest(struct hostview_guest *g, double *t, double *cum, double iv_ms,
		  double (*ops)(double))
{
	memset(g, 0, sizeof(*g));
	g->n = (size_t)(3000 / iv_ms);
	for (size_t i = 0; i < g->n; i++) {
		t[i] = (double)(i + 1) * iv_ms;
		cum[i] = ops(t[i]);
	}
	g->t_ms = t;
	g->cum = cum;
	g->ramp_ms = 1000;
	g->ios = ops(3000) - ops(1000);
	g->dev_lat_ns = g->tool_ns = g->io_path_ns = NAN;
}

static double steady_ops(double tau)
{
	return fmin(fmax(tau, 0), 3000);
}

static void series_free(struct hostview_series *s)
{
	free(s->first.d);
	free(s->last.d);
	free(s->pt);
	free(s->cnt);
}

TEST(measured_window)
{
	struct hostview_cfg c = { .socket = "q.sock" };
	struct hostview_series s;
	struct hostview_guest g;
	double t[100], cum[100];
	json_t *o, *w, *ser;

	/* host samples every 300 ms, the guest's intervals every 100 ms: the host's
	 * boundaries fall inside the guest's ramp end and the job's end */
	make(&s, &c, 300, 3900, steady);
	guest(&g, t, cum, 100, steady_ops);
	o = hostview_series_join(&s, &g, NULL);
	CHECK(o != NULL);
	w = json_object_get(o, "window");
	CHECK_STR(json_string_value(json_object_get(w, "from")), "measured");
	CHECK_NEAR(json_number_value(json_object_get(w, "align_spread_ms")), 0, 1e-3);
	/* the ramp's 1000 I/Os are not the host's: 2000 ops, not 3000 */
	CHECK(json_integer_value(json_object_get(o, "ops")) == 2000);
	CHECK_NEAR(json_number_value(json_object_get(o, "backend_lat_ns")), 1e7, 1e-3);
	CHECK_NEAR(json_number_value(json_object_get(o, "window_s")), 2.0, 1e-6);
	/* half a core over 2 s, per I/O of the guest's 2000 */
	CHECK_NEAR(json_number_value(json_object_get(o, "cpu_per_io_ns")), 1e9 / 2000, 1e-3);
	ser = json_object_get(o, "series");
	CHECK(json_array_size(ser) == 13);
	/* on the guest job's clock: the first interval ends 50 ms after the job started */
	CHECK_NEAR(json_number_value(json_object_get(json_array_get(ser, 0), "t_ms")), 50, 1e-6);
	CHECK_STR(json_string_value(json_object_get(json_array_get(ser, 1), "phase")), "ramp");
	CHECK_STR(json_string_value(json_object_get(json_array_get(ser, 6), "phase")), "measured");
	CHECK_STR(json_string_value(json_object_get(json_array_get(ser, 12), "phase")), "after");
	json_decref(o);
	series_free(&s);
}

TEST(uneven_rate)
{
	struct hostview_cfg c = { .socket = "q.sock" };
	struct hostview_series s;
	struct hostview_guest g;
	double t[100], cum[100];
	json_t *o;

	/* the rate falls at the ramp's end, inside a host interval: the counters
	 * are spread as the guest's I/Os were, not evenly in time */
	make(&s, &c, 400, 4000, uneven);
	guest(&g, t, cum, 250, uneven_ops);
	o = hostview_series_join(&s, &g, NULL);
	CHECK(o != NULL);
	CHECK(json_integer_value(json_object_get(o, "ops")) == 1000);
	json_decref(o);
	series_free(&s);
}

TEST(no_guest_series)
{
	struct hostview_cfg c = { .socket = "q.sock" };
	struct hostview_series s;
	struct hostview_guest g;
	double t[100], cum[100];
	json_t *o;

	make(&s, &c, 300, 3900, steady);
	guest(&g, t, cum, 100, steady_ops);
	g.n = 0;	/* fio's result: the whole run */
	o = hostview_series_join(&s, &g, NULL);
	CHECK(o && json_integer_value(json_object_get(o, "ops")) == 3000);
	CHECK_STR(json_string_value(json_object_get(json_object_get(o, "window"), "from")), "run");
	json_decref(o);
	series_free(&s);
}

TEST(lost_mid_run)
{
	struct hostview_cfg c = { .socket = "q.sock" };
	struct hostview_series s;
	struct hostview_guest g;
	double t[100], cum[100];
	json_t *o, *w;

	/* the socket went away 2100 ms in: the window stops at the last sample */
	make(&s, &c, 300, 2100, steady);
	s.lost = 1;
	s.lost_ns = (int64_t)(T0 + 2.2e9);
	strcpy(s.lost_msg, "cannot connect");
	guest(&g, t, cum, 100, steady_ops);
	o = hostview_series_join(&s, &g, NULL);
	CHECK(o != NULL);
	w = json_object_get(o, "window");
	CHECK(json_is_true(json_object_get(w, "partial")));
	CHECK(strstr(json_string_value(json_object_get(w, "lost")), "cannot connect") != NULL);
	CHECK(json_integer_value(json_object_get(o, "ops")) == 850);	/* 1250 .. 2100 ms */
	CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(o, "pitfalls"), 0),
						    "id")), "host_partial");
	json_decref(o);
	/* one sample only: nothing to join */
	s.n = 1;
	CHECK(hostview_series_join(&s, &g, NULL) == NULL);
	series_free(&s);
}

/* A sample at @ms of one drive at @ops and one vCPU thread at @cpu_ns. */
static void sample_at(struct hostview_sample *h, double ms, uint64_t ops, uint64_t cpu_ns)
{
	memset(h, 0, sizeof(*h));
	h->t_ns = (int64_t)(T0 + ms * 1e6);
	h->pid = 4000;
	h->d = calloc(1, sizeof(*h->d));
	h->th = calloc(1, sizeof(*h->th));
	h->nd = h->nth = 1;
	strcpy(h->d[0].name, "drive-virtio0");
	h->d[0].rd_ops = ops;
	h->d[0].rd_ns = ops * 1000;
	h->th[0] = (struct hostview_thread){ .tid = 4001, .role = HOST_ROLE_VCPU, .cpu_ns = cpu_ns };
	h->proc_cpu_ns = cpu_ns;
}

TEST(thinned_long_run)
{
	struct hostview_cfg c = { .socket = "q.sock" };
	struct hostview_series s;
	struct hostview_sample h;
	struct hostview_guest g;
	json_t *o, *ser;
	size_t i;

	/* 30 s of a drive doing 5 ops and a vCPU 1 ms of CPU every 10 ms, sampled
	 * when due (every 10 ms, then as the period doubles), and at the end */
	sample_at(&h, 0, 100, 0);
	CHECK(!hostview_series_init(&s, &c, 0.01, &h, NULL));
	CHECK(s.max == HOSTVIEW_SERIES_POINTS && h.d == NULL);
	for (i = 1; i <= 3000; i++) {
		if (i < 3000 && (double)s.pt[s.n - 1].t_ns + (double)s.period_ns > T0 + 1e7 * (double)i)
			continue;
		sample_at(&h, 10.0 * (double)i, 100 + 5 * i, 1000000 * i);
		hostview_series_add(&s, &h);
		CHECK(s.n <= s.max);
	}
	/* pairs merged twice: 40 ms intervals, the first and the last boundary kept */
	CHECK(s.period_ns == 40000000);
	CHECK(s.pt[0].t_ns == (int64_t)T0 && s.pt[s.n - 1].t_ns == (int64_t)(T0 + 30e9));
	CHECK_NEAR(s.pt[s.n - 1].cpu[HOST_ROLE_VCPU], 3e9, 1);
	memset(&g, 0, sizeof(g));
	g.ios = 15000;
	g.dev_lat_ns = g.tool_ns = g.io_path_ns = NAN;
	o = hostview_series_join(&s, &g, NULL);
	CHECK(o && json_integer_value(json_object_get(o, "ops")) == 15000);
	CHECK_NEAR(json_number_value(json_object_get(o, "cpu_per_io_ns")), 3e9 / 15000, 1e-3);
	ser = json_object_get(o, "series");
	CHECK(json_array_size(ser) == s.n - 1);
	CHECK_NEAR(json_number_value(json_object_get(o, "series_interval_ms")), 40, 1e-9);
	json_decref(o);
	hostview_series_free(&s);
}

int main(void)
{
	RUN(measured_window);
	RUN(uneven_rate);
	RUN(no_guest_series);
	RUN(lost_mid_run);
	RUN(thinned_long_run);
	return CHECK_DONE();
}
