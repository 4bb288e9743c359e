/*
 * compare: A/B comparison of result sets (see compare.h for the statistics,
 * the verdict rules and the warnings).
 */
#include "trial/compare.h"
#include "lib/vec.h"	/* vec_grow */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/bottleneck.h"	/* device figures and the bottleneck_differs warning */
#include "trial/compare_stats.h"
#include "trial/compare_warn.h"
#include "trial/compare_time.h"
#include "lib/utf8.h"

enum mkind { MK_IOPS, MK_TOTAL, MK_BW, MK_LAT, MK_P99, MK_CPU, MK_DEV_LAT, MK_DEV_QD, MK_TIME,
	     MK_HOST_CPU, MK_HOST_LAT, MK_SLO };

/*
 * One row per metric: what it is (@label, said on charts and tables), in
 * which @unit its values are (the JSON's "unit": every renderer formats and
 * labels a value from these, never from the metric's name), and whether it
 * is a score, a referee or a description (@what, enum compare_kind: what a
 * verdict may say of it and whether the gate counts it).
 */
struct mdef {
	const char *name;
	enum mkind kind;
	int dir;
	enum compare_kind what;
	int lower_better;
	const char *unit;
	const char *label;
};

#define S COMPARE_SCORE
#define R COMPARE_REFEREE
#define D COMPARE_DESCRIPTION

static const struct mdef mdefs[] = {
	{ "read.iops", MK_IOPS, 0, S, 0, COMPARE_UNIT_IOPS, "read IOPS" },
	{ "write.iops", MK_IOPS, 1, S, 0, COMPARE_UNIT_IOPS, "write IOPS" },
	{ "trim.iops", MK_IOPS, 2, S, 0, COMPARE_UNIT_IOPS, "trim IOPS" },
	{ "total.iops", MK_TOTAL, -1, S, 0, COMPARE_UNIT_IOPS, "IOPS, all directions" },
	{ "read.bw_bytes", MK_BW, 0, S, 0, COMPARE_UNIT_BW, "read bandwidth" },
	{ "write.bw_bytes", MK_BW, 1, S, 0, COMPARE_UNIT_BW, "write bandwidth" },
	{ "trim.bw_bytes", MK_BW, 2, S, 0, COMPARE_UNIT_BW, "trim bandwidth" },
	{ "read.lat_mean_ns", MK_LAT, 0, S, 1, COMPARE_UNIT_NS, "read mean latency" },
	{ "write.lat_mean_ns", MK_LAT, 1, S, 1, COMPARE_UNIT_NS, "write mean latency" },
	{ "trim.lat_mean_ns", MK_LAT, 2, S, 1, COMPARE_UNIT_NS, "trim mean latency" },
	{ "read.lat_p99_ns", MK_P99, 0, S, 1, COMPARE_UNIT_NS, "read p99 latency" },
	{ "write.lat_p99_ns", MK_P99, 1, S, 1, COMPARE_UNIT_NS, "write p99 latency" },
	{ "trim.lat_p99_ns", MK_P99, 2, S, 1, COMPARE_UNIT_NS, "trim p99 latency" },
	{ "cpu_per_io_ns", MK_CPU, -1, S, 1, COMPARE_UNIT_NS, "CPU time per I/O" },
	/* the device's own view beside the tool's (docs/json.md, the device view; bottleneck.h) */
	{ "device.lat_mean_ns", MK_DEV_LAT, -1, R, 1, COMPARE_UNIT_NS, "device mean latency" },
	{ "device.queue_depth", MK_DEV_QD, -1, D, 0, COMPARE_UNIT_DEPTH, "device queue depth" },
	/* where each I/O's time went (compare_time.h; dir: the part, -1 the cycle) */
	{ "time.cycle_ns", MK_TIME, -1, R, 1, COMPARE_UNIT_NS, "time per I/O: the whole cycle" },
	{ "time.device_ns", MK_TIME, BD_DEVICE, R, 1, COMPARE_UNIT_NS, "time per I/O: in the device" },
	{ "time.io_path_ns", MK_TIME, BD_IO_PATH, R, 1, COMPARE_UNIT_NS, "time per I/O: in the I/O path" },
	{ "time.tool_user_ns", MK_TIME, BD_TOOL_USER, R, 1, COMPARE_UNIT_NS, "time per I/O: tool, user" },
	{ "time.tool_sys_ns", MK_TIME, BD_TOOL_SYS, R, 1, COMPARE_UNIT_NS, "time per I/O: tool, system" },
	{ "time.cpu_wait_ns", MK_TIME, BD_CPU_WAIT, R, 1, COMPARE_UNIT_NS, "time per I/O: waiting for a CPU" },
	{ "time.idle_ns", MK_TIME, BD_IDLE, R, 1, COMPARE_UNIT_NS, "time per I/O: no I/O in flight" },
	/* the host's view of a run in a QEMU guest (iotrial.host, docs/vm.md): QEMU's CPU
	 * per I/O of the guest (dir: -1 every thread, a score as cpu_per_io_ns; else the
	 * role, lib/hostrole.h), the backend's latency per op (dir 0) and the virtual
	 * device path (dir 1): referees that say where the score's difference comes from */
	{ "host.cpu_per_io_ns", MK_HOST_CPU, -1, S, 1, COMPARE_UNIT_NS, "host CPU per I/O: all of QEMU" },
	{ "host.cpu_per_io_ns.vcpu", MK_HOST_CPU, HOST_ROLE_VCPU, R, 1, COMPARE_UNIT_NS, "host CPU per I/O: vCPU threads" },
	{ "host.cpu_per_io_ns.iothread", MK_HOST_CPU, HOST_ROLE_IOTHREAD, R, 1, COMPARE_UNIT_NS, "host CPU per I/O: iothreads" },
	{ "host.cpu_per_io_ns.main_loop", MK_HOST_CPU, HOST_ROLE_MAIN, R, 1, COMPARE_UNIT_NS, "host CPU per I/O: main loop" },
	{ "host.cpu_per_io_ns.worker", MK_HOST_CPU, HOST_ROLE_WORKER, R, 1, COMPARE_UNIT_NS, "host CPU per I/O: worker pool" },
	{ "host.cpu_per_io_ns.other", MK_HOST_CPU, HOST_ROLE_OTHER, R, 1, COMPARE_UNIT_NS, "host CPU per I/O: other threads" },
	{ "host.backend_lat_ns", MK_HOST_LAT, 0, R, 1, COMPARE_UNIT_NS, "host backend latency per op" },
	{ "host.virt_path_ns", MK_HOST_LAT, 1, R, 1, COMPARE_UNIT_NS, "virtual device path per request" },
	/* a sweep's (docs/sweep.md): the most offered load kept within its SLO */
	{ "slo.iops", MK_SLO, -1, S, 0, COMPARE_UNIT_IOPS, "IOPS within the SLO (sweep)" },
};

#undef S
#undef R
#undef D

#define NR_MDEFS (sizeof(mdefs) / sizeof(mdefs[0]))

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->noise_pct = 2;
	o->cv_limit_pct = 10;
	o->alpha = 0.05;
	o->fail_regression_pct = -1;
	o->boot_iters = 2000;
	o->boot_seed = 1;
}

const char compare_options_help[] =
	"  --output-format=text|json  text table (default) or one JSON object on stdout\n"
	"  --noise=PCT                a difference whose whole interval lies within +-PCT% is\n"
	"                             \"negligible\"; beyond it, \"faster\"/\"slower\"; else\n"
	"                             \"inconclusive\" (default 2)\n"
	"  --cv-limit=PCT             flag a side whose CV exceeds PCT% (default 10; a note,\n"
	"                             never a verdict)\n"
	"  --alpha=P                  the interval's level is 1 - P (default 0.05: 95%)\n"
	"  --fail-on-regression=PCT   exit 6 when a metric is worse and its whole interval\n"
	"                             lies beyond PCT% in the bad direction\n"
	"  --bootstrap-seed=N         seed of the bootstrap-t interval (default 1)\n"
	"  --trial-of=LIST            the environment entries the trial is about (disk,\n"
	"                             kernel, cpu, memory, hypervisor, ...): any other that\n"
	"                             differs is a warning in the verdicts, and the\n"
	"                             differences come first (default for ab across hosts:\n"
	"                             disk)\n";

/*
 * Is @s a plain decimal number ("2", "0.05", ".5", "1e-3"), optionally with
 * a trailing '%'?  strtod alone also takes hex ("0x10", "0x0.1p0"), "inf",
 * "nan" and leading blanks or signs, which would be silent misreads here.
 */
static int plain_decimal(const char *s)
{
	int digits = 0;

	while (*s >= '0' && *s <= '9')
		s++, digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == '%')
		s++;
	return !*s;
}

static int parse_pct(const char *name, const char *value, double max, double *out,
		     struct err *e)
{
	char *end;
	double v;

	if (!value || !*value)
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s needs a value", name);
	if (!plain_decimal(value))
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected a number from 0 to %g",
			       name, value, max);
	v = strtod(value, &end);
	if (*end == '%')
		end++;
	if (end == value || *end || !(v >= 0) || v > max)
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected a number from 0 to %g",
			       name, value, max);
	*out = v;
	return 1;
}

int compare_parse_option(const char *name, const char *value, struct compare_opts *o,
			 int *json_output, struct err *e)
{
	if (!strcmp(name, "noise"))
		return parse_pct(name, value, 1000, &o->noise_pct, e);
	if (!strcmp(name, "cv-limit"))
		return parse_pct(name, value, 1000, &o->cv_limit_pct, e);
	if (!strcmp(name, "fail-on-regression"))
		return parse_pct(name, value, 1000, &o->fail_regression_pct, e);
	if (!strcmp(name, "alpha")) {
		int ret = parse_pct(name, value, 0.5, &o->alpha, e);

		if (ret == 1 && o->alpha <= 0)
			return err_set(e, -EINVAL, EXIT_USAGE, "--alpha=%s: must be above 0", value);
		return ret;
	}
	if (!strcmp(name, "bootstrap-seed")) {
		unsigned long long v;
		char *end;

		/* decimal digits only: strtoull takes "-1" as 2^64-1 and "0x10" as 16 */
		errno = 0;
		v = value && *value >= '0' && *value <= '9' ? strtoull(value, &end, 10) : 0;
		if (!value || !(*value >= '0' && *value <= '9') || *end || errno == ERANGE)
			return err_set(e, -EINVAL, EXIT_USAGE, "--bootstrap-seed=%s: expected a "
				       "decimal integer from 0 to 18446744073709551615",
				       value ? value : "");
		o->boot_seed = v;
		return 1;
	}
	if (!strcmp(name, "trial-of")) {
		if (compare_trial_of_valid(value, e))
			return -EINVAL;
		o->trial_of = value;
		return 1;
	}
	if (!strcmp(name, "output-format")) {
		if (value && !strcmp(value, "json"))
			*json_output = 1;
		else if (value && (!strcmp(value, "text") || !strcmp(value, "normal")))
			*json_output = 0;
		else
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "--output-format=%s: expected text or json", value ? value : "");
		return 1;
	}
	return 0;
}

static const struct mdef *mdef_find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_MDEFS; i++)
		if (!strcmp(mdefs[i].name, name))
			return &mdefs[i];
	return NULL;
}

const char *compare_metric_at(size_t i, int *lower_better)
{
	if (i >= NR_MDEFS)
		return NULL;
	if (lower_better)
		*lower_better = mdefs[i].lower_better;
	return mdefs[i].name;
}

enum compare_kind compare_metric_kind(const char *name)
{
	const struct mdef *d = mdef_find(name);

	return d ? d->what : COMPARE_SCORE;
}

const char *compare_kind_name(enum compare_kind k)
{
	return k == COMPARE_DESCRIPTION ? "description" : k == COMPARE_REFEREE ? "referee" :
	       "score";
}

const char *compare_metric_unit(const char *name)
{
	const struct mdef *d = mdef_find(name);

	return d ? d->unit : NULL;
}

const char *compare_metric_label(const char *name)
{
	const struct mdef *d = mdef_find(name);

	return d ? d->label : NULL;
}

int compare_metric_known(const char *name)
{
	return mdef_find(name) != NULL;
}

static int value_of(const struct resultread *r, const struct mdef *d, double *out)
{
	/* MK_TIME's dir is a breakdown part, not a direction */
	const struct resultread_dir *x = d->dir >= 0 && d->kind < MK_TIME ? &r->dir[d->dir] : NULL;
	double v;

	switch (d->kind) {
	case MK_IOPS:
		v = x->ios ? x->iops : NAN;
		break;
	case MK_TOTAL:
		v = r->total_iops > 0 ? r->total_iops : NAN;
		break;
	case MK_BW:
		v = x->ios ? x->bw_bytes : NAN;
		break;
	case MK_LAT:
		v = x->ios ? x->lat_mean_ns : NAN;
		break;
	case MK_P99:
		v = x->ios ? x->lat_p99_ns : NAN;
		break;
	case MK_DEV_LAT:
	case MK_DEV_QD: {
		double lat, qd;

		v = bottleneck_device_figures(r, &lat, &qd, NULL, 0) ? NAN : d->kind == MK_DEV_LAT ? lat : qd;
		break;
	}
	case MK_TIME:
		compare_time_value(r, d->dir, &v);
		break;
	case MK_HOST_CPU:
		v = d->dir < 0 ? r->host.cpu_per_io_ns : r->host.role_cpu_per_io_ns[d->dir];
		break;
	case MK_HOST_LAT:
		v = d->dir == 0 ? r->host.backend_lat_ns : r->host.virt_path_ns;
		break;
	case MK_SLO:
		v = r->sweep.is && r->sweep.has_slo ? r->sweep.slo_iops : NAN;
		break;
	default:
		v = r->cpu_per_io_ns;
		break;
	}
	*out = v;
	return isnan(v) ? -ENOENT : 0;
}

int compare_metric_value(const struct resultread *r, const char *name, double *out)
{
	const struct mdef *d = mdef_find(name);

	*out = NAN;
	return d ? value_of(r, d, out) : -ENOENT;
}

static int cmp_item_ts(const void *pa, const void *pb)
{
	int64_t x = ((const struct seq_item *)pa)->r->timestamp_ms;
	int64_t y = ((const struct seq_item *)pb)->r->timestamp_ms;

	return (x > y) - (x < y);
}

static void seq_fill(struct seq *s, struct resultread *const *a, size_t na,
		     struct resultread *const *b, size_t nb)
{
	size_t i;

	for (i = 0; i < na; i++)
		s->v[i] = (struct seq_item){ a[i], 'A' };
	for (i = 0; i < nb; i++)
		s->v[na + i] = (struct seq_item){ b[i], 'B' };
}

static int seq_build(struct resultread *const *a, size_t na, struct resultread *const *b,
		     size_t nb, struct seq *s)
{
	size_t i;

	s->n = na + nb;
	s->v = malloc(sizeof(*s->v) * (s->n ? s->n : 1));
	if (!s->v)
		return -ENOMEM;
	seq_fill(s, a, na, b, nb);
	s->known = 1;
	for (i = 0; i < s->n; i++)
		if (s->v[i].r->timestamp_ms < 0)
			s->known = 0;
	if (s->known) {
		qsort(s->v, s->n, sizeof(*s->v), cmp_item_ts);
		for (i = 1; i < s->n; i++)
			if (s->v[i].r->timestamp_ms == s->v[i - 1].r->timestamp_ms)
				s->known = 0;
		if (!s->known)
			seq_fill(s, a, na, b, nb);
	}
	return 0;
}

/*
 * One sweep a side: the SLO capacity's interval is each sweep's own (from its
 * steps' batches, on its step grid), so the ratio's is taken ends against
 * ends, B's low over A's high to B's high over A's low: if each side's
 * interval holds its capacity, this one holds the ratio.  Wider than a joint
 * interval would be, never narrower.  A side's high end is the step above
 * its interval when there is one: the capacity lies somewhere below that
 * step, not at a grid point (two steps within and the next beyond say only
 * that much).
 */
static double slo_top(const struct resultread_sweep *w)
{
	return isfinite(w->slo_next) && w->slo_next > w->slo_hi ? w->slo_next : w->slo_hi;
}

int compare_metric_interval(const struct resultread *r, const char *name, double *lo, double *hi)
{
	const struct mdef *d = mdef_find(name);

	*lo = *hi = NAN;
	if (!d || d->kind != MK_SLO || !r->sweep.is || !r->sweep.has_slo ||
	    !(r->sweep.slo_lo >= 0) || !isfinite(slo_top(&r->sweep)))
		return -ENOENT;
	*lo = r->sweep.slo_lo;
	*hi = slo_top(&r->sweep);
	return 0;
}

static void slo_interval(const struct seq *s, struct compare_metric *m)
{
	const struct resultread_sweep *a = NULL, *b = NULL;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].r->sweep.has_slo)
			*(s->v[i].side == 'A' ? &a : &b) = &s->v[i].r->sweep;
	if (!a || !b)
		return;
	m->method = COMPARE_CI_SWEEP;
	m->p = m->p_welch = m->p_mwu = NAN;
	m->boot_lo = m->boot_hi = NAN;
	m->df = NAN;
	m->high_variance = 0;
	m->confounded = 0;
	m->a.n = a->batches;
	m->b.n = b->batches;
	m->a.sd = m->b.sd = m->a.cv = m->b.cv = NAN;
	m->diff_pct = 100 * (b->slo_iops / a->slo_iops - 1);
	m->ci_lo = m->ci_hi = NAN;
	if (slo_top(a) > 0 && a->slo_lo > 0 && isfinite(b->slo_lo) && isfinite(b->slo_hi)) {
		m->ci_lo = 100 * (b->slo_lo / slo_top(a) - 1);
		m->ci_hi = 100 * (slo_top(b) / a->slo_lo - 1);
	}
	snprintf(m->method_note, sizeof(m->method_note), "each side one sweep: B's SLO capacity "
		 "%.0f..%.0f IOPS against A's %.0f..%.0f (interval to the next step)", b->slo_lo,
		 slo_top(b), a->slo_lo, slo_top(a));
}

/* Why two sweeps' SLO capacities may not be compared (their SLOs differ), or NULL. */
static const char *slo_block(const struct seq *s, char *buf, size_t sz)
{
	const struct resultread_sweep *first = NULL;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct resultread_sweep *w = &s->v[i].r->sweep;

		if (!w->has_slo)
			continue;
		if (first && (w->slo_pct != first->slo_pct || w->slo_target_ns != first->slo_target_ns)) {
			snprintf(buf, sz, "the sweeps' SLOs differ (p%g <= %.0f ns against p%g <= %.0f "
				 "ns): their capacities answer different questions", first->slo_pct,
				 first->slo_target_ns, w->slo_pct, w->slo_target_ns);
			return buf;
		}
		first = first ? first : w;
	}
	return NULL;
}

static int compare_def(const struct seq *s, const struct mdef *d,
		       const struct compare_opts *o, const char *block,
		       struct compare_metric *m)
{
	double *va = malloc(sizeof(*va) * (s->n + 1)), *vb = malloc(sizeof(*vb) * (s->n + 1));
	size_t ka = 0, kb = 0, i;

	memset(m, 0, sizeof(*m));
	m->runs = calloc(s->n + 1, sizeof(*m->runs));
	if (!va || !vb || !m->runs) {
		free(va);
		free(vb);
		free(m->runs);
		m->runs = NULL;
		return -ENOMEM;
	}
	m->name = d->name;
	m->kind = d->what;
	m->lower_better = d->what == COMPARE_DESCRIPTION ? 0 : d->lower_better;
	m->order_known = s->known;
	for (i = 0; i < s->n; i++) {
		double v;

		if (value_of(s->v[i].r, d, &v))
			continue;
		m->runs[m->nruns++] = (struct compare_run){ s->v[i].r->path, s->v[i].side,
			s->known ? (unsigned)i + 1 : 0, s->v[i].r->timestamp_ms, v, 0 };
		if (s->v[i].side == 'A')
			va[ka++] = v;
		else
			vb[kb++] = v;
	}
	/* fio's latency histogram: 64 buckets per power of 2 */
	compare_stats_fill(va, ka, vb, kb, d->kind == MK_P99 ? 1.0 / 64 : 0.001, o, m);
	compare_stats_outliers(m, 'A');
	compare_stats_outliers(m, 'B');
	if (d->kind == MK_SLO && ka == 1 && kb == 1)
		slo_interval(s, m);
	compare_verdict_decide(m, o, block);
	free(va);
	free(vb);
	return 0;
}

void compare_metric_free(struct compare_metric *m)
{
	free(m->runs);
	m->runs = NULL;
	m->nruns = 0;
}

int compare_one(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const char *name, const struct compare_opts *o,
		struct compare_metric *out)
{
	const struct mdef *d = mdef_find(name);
	struct seq s;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -ENOENT;
	if (seq_build(a, na, b, nb, &s))
		return -ENOMEM;
	ret = compare_def(&s, d, o, NULL, out);
	/* the per-run values are for reports (compare_run); callers of compare_one
	 * (ab's progress, suites) take the figures, and owe nothing back */
	compare_metric_free(out);
	free(s.v);
	return ret;
}

/* Does any run on either side have metric @d? */
/*
 * Whether a run has metric @d.  A part of the time per I/O that is 0 in every
 * run of both sides (the device of the null engine, idle time at full depth)
 * is left out too: a row of zeros with an "inconclusive" verdict says nothing
 * the time block's "0.0 (0%)" does not.
 */
static int metric_present(const struct seq_item *v, size_t n, const struct mdef *d)
{
	double x;
	size_t i;

	for (i = 0; i < n; i++)
		if (!value_of(v[i].r, d, &x) && (d->kind != MK_TIME || x != 0))
			return 1;
	return 0;
}

static json_t *side_json(struct resultread *const *v, size_t n)
{
	json_t *files = json_array();
	size_t i;

	for (i = 0; files && i < n; i++)
		json_array_append_new(files, utf8_json(v[i]->path));	/* any bytes */
	return json_pack("{s:I, s:o, s:s, s:O, s:O}", "n", (json_int_t)n, "files", files,
			 "version", v[0]->version, "job", v[0]->options,
			 "environment", v[0]->env ? v[0]->env : json_null());
}

/* Why metric @d may not get a verdict (a side has it in only some runs), or NULL. */
static const char *partial_block(const struct seq *s, const struct mdef *d, char *buf,
				 size_t sz, json_t *warnings)
{
	size_t have[2] = { 0, 0 }, all[2] = { 0, 0 }, i;
	double v;
	int k;

	for (i = 0; i < s->n; i++) {
		k = s->v[i].side == 'B';
		all[k]++;
		have[k] += !value_of(s->v[i].r, d, &v);
	}
	for (k = 0; k < 2; k++)
		if (have[k] && have[k] < all[k]) {
			snprintf(buf, sz, "%s is in only %zu of %c's %zu runs", d->name, have[k],
				 "AB"[k], all[k]);
			compare_warn(warnings, "partial_direction", "warning", k ? "b" : "a",
			     "%s: runs of one side differ in what they measured; no verdict", buf);
			return buf;
		}
	return NULL;
}

/*
 * Is @b a fixed multiple of @a run for run (the same runs, the ratio of
 * their values constant within COMPARE_SAME_TOL)?  Then the two say the same
 * thing relative to A: read.iops of a job that only reads is total.iops,
 * read.bw_bytes at one block size is total.iops times it.
 */
static int same_figures(const struct compare_metric *a, const struct compare_metric *b)
{
	double r0 = NAN;
	size_t i;

	if (a->nruns != b->nruns || a->nruns < 1)
		return 0;
	for (i = 0; i < a->nruns; i++) {
		double r;

		if (a->runs[i].file != b->runs[i].file || a->runs[i].side != b->runs[i].side ||
		    !isfinite(a->runs[i].value) || !isfinite(b->runs[i].value) ||
		    a->runs[i].value == 0)
			return 0;
		r = b->runs[i].value / a->runs[i].value;
		if (i == 0)
			r0 = r;
		else if (!(fabs(r / r0 - 1) <= COMPARE_SAME_TOL))
			return 0;
	}
	return a->lower_better == b->lower_better && a->verdict == b->verdict;
}

/*
 * Point each metric that repeats another's figures at it (same_as).  The one
 * kept is total.iops when it is among them (the headline's metric, ab's
 * default --metric and the history's trend), else the first in table order.
 */
static void mark_same(struct compare_report *out)
{
	size_t i, k, t;

	for (t = 0; t < out->nm && strcmp(out->m[t].name, "total.iops"); t++)
		;
	for (i = 0; t < out->nm && i < out->nm; i++)
		if (i != t && same_figures(&out->m[t], &out->m[i]))
			out->m[i].same_as = out->m[t].name;
	for (i = 1; i < out->nm; i++)
		for (k = 0; k < i && !out->m[i].same_as && i != t; k++)
			if (!out->m[k].same_as && same_figures(&out->m[k], &out->m[i]))
				out->m[i].same_as = out->m[k].name;
}

static int compare_metrics(struct compare_report *out, const struct seq *s,
			   const struct compare_opts *o, const char *block_all)
{
	char buf[160];
	size_t i;

	for (i = 0; i < NR_MDEFS; i++) {
		const char *block = block_all;

		if (!metric_present(s->v, s->n, &mdefs[i]))
			continue;
		if (!block)
			block = partial_block(s, &mdefs[i], buf, sizeof(buf), out->warnings);
		if (!block && mdefs[i].kind == MK_SLO)
			block = slo_block(s, buf, sizeof(buf));
		if (compare_def(s, &mdefs[i], o, block, &out->m[out->nm]))
			return -ENOMEM;
		out->regressed |= out->m[out->nm++].regression;
	}
	mark_same(out);
	compare_warn_outliers(out, s);
	return 0;
}

int compare_run(struct resultread *const *a0, size_t na0, struct resultread *const *b0,
		size_t nb0, const struct compare_opts *o, struct compare_report *out,
		struct err *e)
{
	struct resultread **a = NULL, **b = NULL;
	const char *block = NULL;
	struct seq s = { 0 };
	size_t na = 0, nb = 0, i;
	int ret, mixed;

	memset(out, 0, sizeof(*out));
	if (!na0 || !nb0)
		return err_set(e, -EINVAL, EXIT_USAGE, "nothing to compare: side %s has no results",
			       na0 ? "B" : "A");
	out->warnings = json_array();
	if (!out->warnings || compare_warn_drop_zero_io(a0, na0, "a", &a, &na, out->warnings) ||
	    compare_warn_drop_zero_io(b0, nb0, "b", &b, &nb, out->warnings)) {
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	if (!na || !nb) {
		ret = err_set(e, -EINVAL, EXIT_USAGE, "nothing to compare: no run of side %s did "
			      "any I/O (%zu failed runs)", na ? "B" : "A", na ? nb0 : na0);
		goto fail;
	}
	out->na = na;
	out->nb = nb;
	out->failed_a = na0 - na;
	out->failed_b = nb0 - nb;
	out->noise_pct = o->noise_pct;
	out->fail_regression_pct = o->fail_regression_pct;
	out->ci_level = 1 - o->alpha;
	out->m = calloc(NR_MDEFS, sizeof(*out->m));
	out->side_a = side_json(a, na);
	out->side_b = side_json(b, nb);
	if (!out->m || !out->side_a || !out->side_b || seq_build(a, na, b, nb, &s)) {
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	out->order_known = s.known;
	out->order_by_trial = s.known;
	for (i = 0; i < na; i++)
		out->order_by_trial &= a[i]->order_by_trial;
	for (i = 0; i < nb; i++)
		out->order_by_trial &= b[i]->order_by_trial;
	ret = compare_warn_build_diff(out, a, b, e);
	if (ret)
		goto fail;
	compare_warn_runs(a, na, b, nb, out->warnings);
	compare_warn_bottleneck(a, b, out->warnings);
	compare_time_build(a, na, b, nb, &out->time);	/* where each I/O's time went, A and B */
	compare_warn_diff(out->env_diff, o, out->warnings);
	compare_warn_order(&s, o, out->warnings);
	mixed = compare_warn_side_mixed(a, na, "a", out->warnings);
	mixed |= compare_warn_side_mixed(b, nb, "b", out->warnings);
	if (mixed)
		block = "a side mixes different jobs or directions (warning side_mixed)";
	else if (compare_warn_jobs_differ(a[0], b[0], out->env_diff, out->warnings))
		block = "the sides ran different job sets under the same options (warning "
			"jobs_differ)";
	compare_warn_env(out, o);
	if (o->incomplete)
		compare_warn(out->warnings, "trial_incomplete", "warning", NULL, "%s", o->incomplete);
	ret = compare_metrics(out, &s, o, block);
	if (!ret)
		compare_warn_env_verdicts(out, o);
	if (!ret)
		ret = compare_warn_side_checks(a, na, "a", out->warnings);
	if (!ret)
		ret = compare_warn_side_checks(b, nb, "b", out->warnings);
	if (ret) {
		ret = err_set(e, ret, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	free(s.v);
	free(a);
	free(b);
	return 0;
fail:
	free(s.v);
	free(a);
	free(b);
	compare_report_free(out);
	return ret;
}

void compare_report_free(struct compare_report *r)
{
	size_t i;

	for (i = 0; r->m && i < r->nm; i++)
		compare_metric_free(&r->m[i]);
	free(r->m);
	json_decref(r->side_a);
	json_decref(r->side_b);
	json_decref(r->env_diff);
	json_decref(r->warnings);
	memset(r, 0, sizeof(*r));
}
