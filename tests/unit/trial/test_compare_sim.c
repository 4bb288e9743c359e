/*
 * A seeded simulation of compare's verdicts: synthetic fio result files (JSON
 * text through resultread_parse, then compare_one: the code path `iotrial
 * compare` takes) with a known truth, many trials, and the rates that matter:
 *   - false positives ("faster"/"slower" when A = B), interleaved, in blocks
 *     under a drift, and without timestamps;
 *   - coverage of the interval (does it contain the true difference?), also
 *     when one side is much noisier than the other;
 *   - coverage of the bootstrap-t interval;
 *   - power under a drift with interleaved runs;
 *   - false positives of ab's --until-ci stopping rule (abrun_decide).
 * Each run's read IOPS is 1000 x ratio (B only) x (1 + drift)^i x (1 + cv Z),
 * Z standard normal, i the run's place in the order; so every method's target
 * is ratio - 1.  Bounds are several binomial standard errors wide, so the test
 * fails on a real loss of calibration, not on chance (the seed is fixed
 * anyway).  IOTRIAL_SIM_TRIALS=N runs N trials per scenario and prints the
 * table (what docs/statistics.md quotes); the default keeps the test to a few
 * seconds.
 */
#include <stdlib.h>
#include "trial/abrun.h"
#include "trial/compare.h"
#include "check.h"

enum order { ORD_RANDOM, ORD_ALTERNATE, ORD_BLOCKS, ORD_NONE };

struct scen {
	const char *name;
	size_t n;		/* runs a side */
	double ratio;		/* B / A, true */
	double cv;		/* run-to-run noise */
	double drift;		/* per run, over the whole sequence */
	enum order order;
	double cv_b;		/* B's noise when not 0 (else cv) */
};

struct tally {
	unsigned trials, better, worse, negligible, inconclusive, covered, with_ci;
	unsigned boot_covered, boot_n;
};

static unsigned trials_default(unsigned dflt)
{
	const char *s = getenv("IOTRIAL_SIM_TRIALS");

	return s && atoi(s) > 0 ? (unsigned)atoi(s) : dflt;
}

static struct resultread *make_run(double iops, long long ts_ms)
{
	char buf[640], ts[64] = "";
	struct resultread *r = NULL;
	unsigned long ios = (unsigned long)(iops * 60);
	struct err e;

	if (ts_ms >= 0)
		snprintf(ts, sizeof(ts), "\"timestamp_ms\": %lld, ", ts_ms);
	snprintf(buf, sizeof(buf),
		 "{\"fio version\": \"fio-3.33\", %s\"jobs\": [{\"jobname\": \"s\","
		 " \"job options\": {\"rw\": \"randread\", \"ioengine\": \"libaio\"},"
		 " \"read\": {\"iops\": %.6f, \"total_ios\": %lu, \"runtime\": 60000,"
		 "  \"lat_ns\": {\"mean\": 1000, \"N\": %lu}},"
		 " \"write\": {\"iops\": 0, \"total_ios\": 0}}]}", ts, iops, ios, ios);
	err_clear(&e);
	if (resultread_parse(buf, strlen(buf), "sim.json", &r, &e))
		printf("  %s\n", e.msg);
	return r;
}

/* The side of run @i of 2n under @order ('A' or 'B'). */
static char side_of(enum order order, uint64_t seed, size_t i, size_t n)
{
	switch (order) {
	case ORD_BLOCKS:
		return i < n ? 'A' : 'B';
	case ORD_ALTERNATE:
		return abrun_side(ABRUN_ALTERNATE, seed, i);
	default:
		return abrun_side(ABRUN_RANDOM, seed, i);
	}
}

struct sides {
	struct resultread *a[64], *b[64];
	size_t na, nb;
};

static void sides_free(struct sides *s)
{
	size_t i;

	for (i = 0; i < s->na; i++)
		resultread_free(s->a[i]);
	for (i = 0; i < s->nb; i++)
		resultread_free(s->b[i]);
	s->na = s->nb = 0;
}

/* Run number @i of the sequence. */
static void add_run(struct sides *s, const struct scen *sc, struct abstat_rng *rng,
		    uint64_t seed, size_t i)
{
	char side = side_of(sc->order, seed, i, sc->n);
	double v = 1000 * (side == 'B' ? sc->ratio : 1) * pow(1 + sc->drift, (double)i) *
		   (1 + (side == 'B' && sc->cv_b > 0 ? sc->cv_b : sc->cv) * abstat_rng_normal(rng));
	struct resultread *r = make_run(v > 1 ? v : 1,
					sc->order == ORD_NONE ? -1 : 1700000000000LL + 60000LL * (long long)i);

	if (side == 'A')
		s->a[s->na++] = r;
	else
		s->b[s->nb++] = r;
}

static void count(struct tally *t, const struct compare_metric *m, double truth)
{
	t->trials++;
	t->better += m->verdict == COMPARE_BETTER;
	t->worse += m->verdict == COMPARE_WORSE;
	t->negligible += m->verdict == COMPARE_NEGLIGIBLE;
	t->inconclusive += m->verdict == COMPARE_INCONCLUSIVE;
	if (!isnan(m->ci_lo)) {
		t->with_ci++;
		t->covered += m->ci_lo <= truth && truth <= m->ci_hi;
	}
	if (!isnan(m->boot_lo)) {
		t->boot_n++;
		t->boot_covered += m->boot_lo <= truth && truth <= m->boot_hi;
	}
}

static void simulate(const struct scen *sc, unsigned trials, uint64_t seed, struct tally *t)
{
	struct compare_opts o;
	struct abstat_rng rng;
	unsigned k;

	compare_opts_init(&o);
	o.boot_iters = 1000;	/* enough for a 95% interval's tails; half the time */
	memset(t, 0, sizeof(*t));
	abstat_rng_seed(&rng, seed);
	for (k = 0; k < trials; k++) {
		struct compare_metric m;
		struct sides s = { .na = 0 };
		size_t i;

		for (i = 0; i < 2 * sc->n; i++)
			add_run(&s, sc, &rng, seed + k, i);
		if (!compare_one(s.a, s.na, s.b, s.nb, "read.iops", &o, &m)) {
			count(t, &m, 100 * (sc->ratio - 1));
			compare_metric_free(&m);
		}
		sides_free(&s);
	}
}

static double rate(unsigned x, unsigned n)
{
	return n ? (double)x / (double)n : NAN;
}

static void print_row(const struct scen *sc, const struct tally *t)
{
	printf("  %-34s n=%-2zu %6.1f%% %6.1f%% %6.1f%% %6.1f%%  cover %5.1f%%  boot %s%5.1f%%\n",
	       sc->name, sc->n, 100 * rate(t->better, t->trials), 100 * rate(t->worse, t->trials),
	       100 * rate(t->negligible, t->trials), 100 * rate(t->inconclusive, t->trials),
	       100 * rate(t->covered, t->with_ci), t->boot_n ? "" : "n/a",
	       t->boot_n ? 100 * rate(t->boot_covered, t->boot_n) : 0.0);
}

TEST(false_positives_and_coverage)
{
	static const struct scen sc[] = {
		{ "A=B cv5% random order", 5, 1.00, 0.05, 0, ORD_RANDOM, 0 },
		{ "A=B cv5% no timestamps (Fieller)", 5, 1.00, 0.05, 0, ORD_NONE, 0 },
		{ "A=B cv5% blocks, drift -10%", 5, 1.00, 0.05, -0.10 / 9, ORD_BLOCKS, 0 },
		{ "A=B cv5% alternate, drift -10%", 5, 1.00, 0.05, -0.10 / 9, ORD_ALTERNATE, 0 },
		{ "+5% cv5% random order", 5, 1.05, 0.05, 0, ORD_RANDOM, 0 },
		{ "+5% cv5% no timestamps (Fieller)", 5, 1.05, 0.05, 0, ORD_NONE, 0 },
		{ "+5% cv5% random, n=8 (bootstrap)", 8, 1.05, 0.05, 0, ORD_RANDOM, 0 },
		{ "+5% cv A 2% B 10% random order", 5, 1.05, 0.02, 0, ORD_RANDOM, 0.10 },
	};
	unsigned trials = trials_default(400), i;
	struct tally t[8];
	int verbose = getenv("IOTRIAL_SIM_TRIALS") != NULL;

	for (i = 0; i < 8; i++) {
		simulate(&sc[i], trials, 1000 + i, &t[i]);
		if (verbose)
			print_row(&sc[i], &t[i]);
	}
	/* false positives: nominal at most alpha/2 per direction = 5% in all */
	for (i = 0; i < 4; i++)
		CHECK(rate(t[i].better + t[i].worse, t[i].trials) <= 0.085);
	/* coverage of the 95% interval: 95% nominal */
	for (i = 0; i < 8; i++)
		if (i != 2)	/* blocks: confounded, the interval is not the verdict's */
			CHECK(rate(t[i].covered, t[i].with_ci) >= 0.92);
	CHECK(t[6].boot_n == trials);
	CHECK(rate(t[6].boot_covered, t[6].boot_n) >= 0.90);
	/* blocks are confounded: inconclusive, whatever the drift did */
	CHECK(t[2].inconclusive == t[2].trials);
}

TEST(power_under_drift)
{
	/* +10% at CV 3%, alternate order, a drift of -10% over the trial: the
	 * run-order fit removes the drift; a two-sample test counted it as noise */
	static const struct scen sc[] = {
		{ "+10% cv3% alternate, drift -10%", 5, 1.10, 0.03, -0.10 / 9, ORD_ALTERNATE, 0 },
		{ "+10% cv3% random, drift -10%", 5, 1.10, 0.03, -0.10 / 9, ORD_RANDOM, 0 },
		{ "+5% cv5% random order, n=10", 10, 1.05, 0.05, 0, ORD_RANDOM, 0 },
		{ "+18% cv10% random order, n=10", 10, 1.18, 0.10, 0, ORD_RANDOM, 0 },
		{ "+5% cv5% random order, n=5", 5, 1.05, 0.05, 0, ORD_RANDOM, 0 },
		{ "+18% cv10% random order, n=5", 5, 1.18, 0.10, 0, ORD_RANDOM, 0 },
		{ "+2% cv1% random order, n=5", 5, 1.02, 0.01, 0, ORD_RANDOM, 0 },
		{ "+5% cv2% random order, n=5", 5, 1.05, 0.02, 0, ORD_RANDOM, 0 },
	};
	unsigned trials = trials_default(150), i;
	int verbose = getenv("IOTRIAL_SIM_TRIALS") != NULL;
	struct tally t[8];

	for (i = 0; i < (verbose ? 8u : 2u); i++) {
		simulate(&sc[i], trials, 2000 + i, &t[i]);
		if (verbose)
			print_row(&sc[i], &t[i]);
	}
	CHECK(rate(t[0].better, t[0].trials) >= 0.70);
	CHECK(rate(t[1].better, t[1].trials) >= 0.70);
	CHECK(t[0].worse == 0 && t[1].worse == 0);
}

/*
 * ab --until-ci under A = B, CV 5%: pairs in random order until the
 * half-width is under 5% (at least --runs=3, which the rule lifts to
 * ABRUN_MIN_CI_PAIRS), at most 30.  The false-positive rate of the final
 * verdict must stay near the nominal 5%.
 */
TEST(until_ci_false_positives)
{
	const struct scen sc = { "until-ci", 30, 1.00, 0.05, 0, ORD_RANDOM, 0 };
	struct abrun_stop stop = { .runs = 3, .max_runs = 30, .until_ci_pct = 5 };
	unsigned trials = trials_default(250), k, fp = 0, pairs = 0, sig = 0;
	struct compare_opts o;
	struct abstat_rng rng;

	compare_opts_init(&o);
	o.boot_iters = 100;	/* the bootstrap plays no part in the stopping rule */
	abstat_rng_seed(&rng, 3000);
	for (k = 0; k < trials; k++) {
		struct sides s = { .na = 0 };
		struct compare_metric m;
		enum abrun_reason why = ABRUN_CONTINUE;
		size_t i;

		for (i = 0; why == ABRUN_CONTINUE; i += 2) {
			double half = NAN;

			add_run(&s, &sc, &rng, 3000 + k, i);
			add_run(&s, &sc, &rng, 3000 + k, i + 1);
			if (!compare_one(s.a, s.na, s.b, s.nb, "read.iops", &o, &m)) {
				if (isfinite(m.ci_lo))
					half = (m.ci_hi - m.ci_lo) / 2;
				compare_metric_free(&m);
			}
			why = abrun_decide(&stop, (unsigned)(i / 2 + 1), 0, half);
		}
		pairs += (unsigned)s.na;
		if (!compare_one(s.a, s.na, s.b, s.nb, "read.iops", &o, &m)) {
			fp += m.verdict == COMPARE_BETTER || m.verdict == COMPARE_WORSE;
			sig += m.ci_lo > 0 || m.ci_hi < 0;	/* "significant": the CI excludes 0 */
			compare_metric_free(&m);
		}
		sides_free(&s);
	}
	if (getenv("IOTRIAL_SIM_TRIALS"))
		printf("  until-ci=5 A=B cv5%%: false positives %.1f%% (CI excluding 0: %.1f%%), "
		       "%.1f pairs on average\n", 100 * rate(fp, trials), 100 * rate(sig, trials),
		       (double)pairs / trials);
	CHECK(rate(fp, trials) <= 0.085);
	CHECK(rate(sig, trials) <= 0.09);
}

int main(void)
{
	RUN(false_positives_and_coverage);
	RUN(power_under_drift);
	RUN(until_ci_false_positives);
	return CHECK_DONE();
}
