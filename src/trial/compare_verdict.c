/*
 * compare_verdict: a metric's verdict read off its interval (criterion.rs'
 * rule): beyond +-noise as a whole, "better"/"worse"; within it as a whole,
 * "negligible"; anything else "inconclusive", with about how many runs a side
 * would likely settle it.  The point estimate never decides: with few runs,
 * the significant ones overstate the effect (the winner's curse), so the
 * text leads with the interval.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/abstat.h"	/* abstat_t_quantile */
#include "trial/compare.h"

const char *compare_verdict_kind(enum compare_verdict v)
{
	static const char *const kind[] = {
		[COMPARE_ABSENT] = "absent",
		[COMPARE_SINGLE_RUN] = "single_run",
		[COMPARE_BLOCKED] = "blocked",
		[COMPARE_INCONCLUSIVE] = "inconclusive",
		[COMPARE_NEGLIGIBLE] = "negligible",
		[COMPARE_BETTER] = "better",
		[COMPARE_WORSE] = "worse",
		[COMPARE_DIFFERS] = "differs",
	};

	return kind[v];
}

/*
 * What each interval method is, said once: the JSON's "ci_method" and
 * "test", and the words every renderer (text, HTML) shows beside a figure
 * made by it.  The order is enum compare_method's.
 */
static const struct compare_method_desc method_desc[] = {
	[COMPARE_CI_NONE] = { "none", "none", "no interval", "no interval", "no test",
			      "no test" },
	[COMPARE_CI_FIELLER] = { "fieller", "welch_t", "Fieller (Welch df)",
				 "Fieller's interval for the ratio of the means, with Welch's "
				 "degrees of freedom",
				 "Welch t", "Welch's t-test, two-sided" },
	[COMPARE_CI_RUN_ORDER] = { "run_order", "ols_side_run_order", "run-order fit",
				   "least squares of log(value) on side and run order, so a "
				   "linear drift in time is removed",
				   "t (side)", "the t test of the fit's side coefficient "
				   "(n - 3 degrees of freedom), two-sided" },
	[COMPARE_CI_RANK] = { "rank", "mann_whitney", "rank (Hodges-Lehmann)",
			      "Hodges-Lehmann interval of the ratio, widened by the values' "
			      "quantum (the values are tied or constant)",
			      "Mann-Whitney", "Mann-Whitney U, exact with ties" },
	[COMPARE_CI_SWEEP] = { "sweep_slo", "none", "the sweeps' SLO intervals",
			       "one sweep a side: B's SLO-capacity interval over A's, ends "
			       "against ends (B low / A high .. B high / A low); each side's "
			       "interval is on its step grid, from its steps' batches, up to "
			       "the next step above it",
			       "no test", "no test" },
};

const char *compare_method_name(enum compare_method m)
{
	return method_desc[m].name;
}

const struct compare_method_desc *compare_method_desc(enum compare_method m)
{
	return &method_desc[m];
}

const struct compare_method_desc *compare_method_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(method_desc) / sizeof(method_desc[0]); i++)
		if (!strcmp(method_desc[i].name, name))
			return &method_desc[i];
	return NULL;
}

/*
 * Runs a side for the interval's half-width to fall to @target (in %), from
 * the current half-width @h at @n runs a side: the standard error shrinks as
 * 1 / sqrt(n) and the t quantile with the degrees of freedom.  An estimate
 * from the observed noise, not a promise.  -1 beyond COMPARE_RUNS_CAP or
 * when @target is 0.
 */
static long runs_for(double h, size_t n, double df, double level, double target)
{
	double t0, q = 1 - (1 - level) / 2, need;
	long k, lo;

	if (!(target > 0) || !(h > 0) || !(df > 0) || n < 2)
		return -1;
	if (h <= target)
		return (long)n;
	t0 = abstat_t_quantile(q, df);
	/* decided in double: a tiny target makes the ratio overflow a long */
	need = ceil((double)n * (h / target) * (h / target));
	if (!(need <= (double)COMPARE_RUNS_CAP))
		return -1;
	k = (long)need;
	/* the t quantile shrinks too: the fewest runs in (n, k] that still do,
	 * by bisection (the half-width falls monotonically with the runs) */
	lo = (long)n;
	while (k - lo > 1) {
		long mid = lo + (k - lo) / 2;
		double hm = h * sqrt((double)n / (double)mid) *
			    abstat_t_quantile(q, df + 2.0 * (double)(mid - (long)n)) / t0;

		if (hm > target)
			lo = mid;
		else
			k = mid;
	}
	return k;
}

static void fmt_ci(char *buf, size_t sz, double lo, double hi)
{
	snprintf(buf, sz, "%+.1f..%+.1f%%", lo, hi);
}

static void decide_from_ci(struct compare_metric *m, const struct compare_opts *o)
{
	double lo = m->ci_lo, hi = m->ci_hi, nz = o->noise_pct, c, target;
	size_t n = m->a.n < m->b.n ? m->a.n : m->b.n;
	char ci[48];
	int up;

	fmt_ci(ci, sizeof(ci), lo, hi);
	if (lo > nz || hi < -nz) {
		up = lo > nz;	/* B's value is higher */
		if (m->kind == COMPARE_DESCRIPTION)	/* no better side: only which way */
			m->verdict = COMPARE_DIFFERS;
		else
			m->verdict = up != m->lower_better ? COMPARE_BETTER : COMPARE_WORSE;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "B is %.1f..%.1f%% %s",
			 up ? lo : -hi, up ? hi : -lo, m->kind == COMPARE_DESCRIPTION ?
			 (up ? "higher" : "lower") : m->lower_better ? (up ? "worse" : "better") :
			 (up ? "faster" : "slower"));
		snprintf(m->note, sizeof(m->note), "the whole %g%% CI %s lies beyond %+.1f%%",
			 100 * m->ci_level, ci, up ? nz : -nz);
		return;
	}
	if (lo >= -nz && hi <= nz) {
		m->verdict = COMPARE_NEGLIGIBLE;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "negligible");
		snprintf(m->note, sizeof(m->note), "the whole %g%% CI %s lies within +-%.1f%%",
			 100 * m->ci_level, ci, nz);
		return;
	}
	m->verdict = COMPARE_INCONCLUSIVE;
	snprintf(m->verdict_text, sizeof(m->verdict_text), "inconclusive");
	/*
	 * Where the interval would close in on: the estimate.  Fieller's interval
	 * with few runs is lopsided (-83.8% inside -170..+166%), its centre far
	 * from the estimate and maybe on a noise bound: the centre would promise
	 * no settling where the estimate is 80 points clear of the threshold.
	 */
	c = isfinite(m->diff_pct) ? m->diff_pct : (lo + hi) / 2;
	target = fabs(fabs(c) - nz);
	m->runs_needed = runs_for((hi - lo) / 2, n, m->df, m->ci_level, target);
	if (m->runs_needed > 0)
		snprintf(m->note, sizeof(m->note), "the %g%% CI %s straddles %+.1f%%; about %ld "
			 "runs a side would likely settle it", 100 * m->ci_level, ci,
			 c >= 0 ? nz : -nz, m->runs_needed);
	else if (!(m->df > 0))
		snprintf(m->note, sizeof(m->note), "the %g%% CI %s straddles %+.1f%%; with no "
			 "degrees of freedom left, the runs that would settle it cannot be "
			 "estimated", 100 * m->ci_level, ci, c >= 0 ? nz : -nz);
	else	/* beyond COMPARE_RUNS_CAP: for its noise, the estimate is on the bound */
		snprintf(m->note, sizeof(m->note), "the %g%% CI %s straddles %+.1f%%; the "
			 "difference (%+.1f%%) lies so near it for its noise that more than %d runs "
			 "a side would be needed: more runs may never settle it", 100 * m->ci_level,
			 ci, c >= 0 ? nz : -nz, c, COMPARE_RUNS_CAP);
}

/* Which side's CV is above the limit: a flag on the note, never a verdict. */
static void high_variance_note(struct compare_metric *m, double limit)
{
	int ha = !isnan(m->a.cv) && 100 * m->a.cv > limit;
	int hb = !isnan(m->b.cv) && 100 * m->b.cv > limit;
	size_t len = strlen(m->note);

	if (ha && hb)
		snprintf(m->note + len, sizeof(m->note) - len, "; high variance: CV %.1f%% on A "
			 "and %.1f%% on B (limit %.0f%%)", 100 * m->a.cv, 100 * m->b.cv, limit);
	else if (ha || hb)
		snprintf(m->note + len, sizeof(m->note) - len, "; high variance: CV %.1f%% on %s "
			 "(limit %.0f%%)", 100 * (ha ? m->a.cv : m->b.cv), ha ? "A" : "B", limit);
}

void compare_verdict_decide(struct compare_metric *m, const struct compare_opts *o,
			    const char *block)
{
	m->runs_needed = 0;
	m->regression = 0;
	m->note[0] = 0;
	if (!m->a.n || !m->b.n) {
		m->verdict = COMPARE_ABSENT;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "absent in %s",
			 m->a.n ? "B" : "A");
		return;
	}
	if (block) {
		m->verdict = COMPARE_BLOCKED;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "no verdict");
		snprintf(m->note, sizeof(m->note), "%s", block);
		return;
	}
	if (m->a.n < 2 || m->b.n < 2) {
		m->verdict = COMPARE_SINGLE_RUN;
		snprintf(m->verdict_text, sizeof(m->verdict_text),
			 "single run: no significance can be claimed");
		return;
	}
	if (m->confounded) {
		m->verdict = COMPARE_INCONCLUSIVE;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "inconclusive");
		snprintf(m->note, sizeof(m->note), "side and run order are confounded (the runs "
			 "were made in blocks): a drift in time cannot be told from B; "
			 "interleave the runs (iotrial ab)");
		m->runs_needed = -1;
	} else if (isnan(m->ci_lo) || isnan(m->ci_hi)) {
		m->verdict = COMPARE_INCONCLUSIVE;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "inconclusive");
		snprintf(m->note, sizeof(m->note), "no %g%% interval: %s", 100 * m->ci_level,
			 m->method_note[0] ? m->method_note : "A's mean is not distinguishable from 0");
		m->runs_needed = -1;
	} else {
		decide_from_ci(m, o);
	}
	if (m->high_variance)
		high_variance_note(m, o->cv_limit_pct);
	/* the gate counts scores only: referees explain them, descriptions have no side */
	if (o->fail_regression_pct >= 0 && m->verdict == COMPARE_WORSE && m->kind == COMPARE_SCORE)
		m->regression = m->lower_better ? m->ci_lo > o->fail_regression_pct :
						  m->ci_hi < -o->fail_regression_pct;
}
