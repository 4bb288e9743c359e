/*
 * abstat: statistics for A/B comparisons (see abstat.h for the methods and
 * why they were chosen).  Plain double arithmetic; nothing here is on a hot
 * path, so clarity wins over speed.
 */
#include "lib/abstat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>	/* malloc, qsort */

void abstat_describe(const double *x, size_t n, struct abstat_desc *out)
{
	double sum = 0, m2 = 0;
	size_t i;

	out->n = n;
	out->mean = NAN;
	out->sd = NAN;
	out->cv = NAN;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / (double)n;
	if (n < 2)
		return;
	/* Two passes: exact enough for run-level values without Welford. */
	for (i = 0; i < n; i++)
		m2 += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = sqrt(m2 / (double)(n - 1));
	if (out->mean != 0)
		out->cv = out->sd / fabs(out->mean);
}

/*
 * The continued fraction for I_x(a, b) (the classic expansion whose even and
 * odd terms are given below), evaluated with the modified Lentz method.  It
 * converges quickly for x < (a + 1) / (a + b + 2); the caller uses the
 * symmetry I_x(a, b) = 1 - I_(1-x)(b, a) otherwise.
 */
static double betai_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = 1, c = 1, d = 0;
	int m;

	for (m = 0; m <= 1000; m++) {
		int step;

		for (step = 0; step < 2; step++) {
			double num, delta;

			if (step == 0) {
				/* d_(2m+1) */
				num = -(a + m) * (a + b + m) * x /
				      ((a + 2 * m) * (a + 2 * m + 1));
			} else {
				/* d_(2m+2), i.e. d_2k with k = m + 1 */
				double k = m + 1;

				num = k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k));
			}
			d = 1 + num * d;
			if (fabs(d) < tiny)
				d = tiny;
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			d = 1 / d;
			delta = c * d;
			f *= delta;
			if (fabs(delta - 1) < eps)
				return f;
		}
	}
	return f;	/* not converged: a, b far beyond what t-tests use */
}

double abstat_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front / (a * betai_cf(a, b, x));
	return 1 - front / (b * betai_cf(b, a, 1 - x));
}

/* P(|T| >= |t|) for Student t with df degrees of freedom. */
static double t_two_tail(double t, double df)
{
	if (isinf(t))
		return 0;
	return abstat_betai(df / 2, 0.5, df / (df + t * t));
}

double abstat_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	tail = t_two_tail(t, df) / 2;
	return t > 0 ? 1 - tail : tail;
}

double abstat_t_quantile(double p, double df)
{
	double q, lo = 0, hi = 1;
	int i;

	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	q = p < 0.5 ? p : 1 - p;	/* the upper-tail area to hit */
	while (t_two_tail(hi, df) / 2 > q && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (t_two_tail(mid, df) / 2 > q)
			lo = mid;
		else
			hi = mid;
	}
	return p < 0.5 ? -(lo + hi) / 2 : (lo + hi) / 2;
}

/* Squared standard errors of the two means, and both means. */
static void two_sides(const double *a, size_t na, const double *b, size_t nb,
		      double *ma, double *qa, double *mb, double *qb)
{
	struct abstat_desc da, db;

	abstat_describe(a, na, &da);
	abstat_describe(b, nb, &db);
	*ma = da.mean;
	*mb = db.mean;
	*qa = da.sd * da.sd / (double)na;
	*qb = db.sd * db.sd / (double)nb;
}

static double welch_df(double qa, size_t na, double qb, size_t nb)
{
	double den = qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1);

	if (den == 0)
		return (double)(na + nb - 2);
	return (qa + qb) * (qa + qb) / den;
}

int abstat_welch(const double *a, size_t na, const double *b, size_t nb,
		 struct abstat_welch *out)
{
	double ma, qa, mb, qb;

	if (na < 2 || nb < 2)
		return -EINVAL;
	two_sides(a, na, b, nb, &ma, &qa, &mb, &qb);
	out->diff = mb - ma;
	out->se = sqrt(qa + qb);
	out->df = welch_df(qa, na, qb, nb);
	if (out->se == 0) {
		/* Both sides constant: either identical or certainly different. */
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		return 0;
	}
	out->t = out->diff / out->se;
	out->p = t_two_tail(out->t, out->df);
	return 0;
}

/*
 * Fieller: the ratio r = mB / mA lies in the set where
 *   (mB - r mA)^2 <= tq^2 (qB + r^2 qA),
 * a quadratic  (mA^2 - tq^2 qA) r^2 - 2 mA mB r + (mB^2 - tq^2 qB) <= 0.
 * Its leading coefficient is positive exactly when mA differs from 0
 * significantly; the discriminant is then tq^2 (qB lead + qA mB^2) >= 0.
 */
int abstat_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		    double level, double *lo, double *hi)
{
	double ma, qa, mb, qb, tq, lead, disc;

	if (na < 2 || nb < 2 || !(level > 0) || !(level < 1))
		return -EINVAL;
	two_sides(a, na, b, nb, &ma, &qa, &mb, &qb);
	tq = abstat_t_quantile(1 - (1 - level) / 2, welch_df(qa, na, qb, nb));
	lead = ma * ma - tq * tq * qa;
	if (!(lead > 0))
		return -ERANGE;
	disc = tq * tq * (qb * lead + qa * mb * mb);
	*lo = (ma * mb - sqrt(disc)) / lead - 1;
	*hi = (ma * mb + sqrt(disc)) / lead - 1;
	return 0;
}

void abstat_rng_seed(struct abstat_rng *r, uint64_t seed)
{
	r->s = seed;
}

/* splitmix64 (Steele, Lea, Flood 2014): tiny, full period, good enough here. */
uint64_t abstat_rng_next(struct abstat_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double abstat_rng_uniform(struct abstat_rng *r)
{
	return (double)(abstat_rng_next(r) >> 11) * 0x1.0p-53;
}

double abstat_rng_normal(struct abstat_rng *r)
{
	double u1 = 1 - abstat_rng_uniform(r);	/* (0, 1]: log is finite */
	double u2 = abstat_rng_uniform(r);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static int cmp_double(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;

	return (x > y) - (x < y);
}

struct mwu_item {
	double v;
	int from_a;
};

static int cmp_item(const void *pa, const void *pb)
{
	return cmp_double(&((const struct mwu_item *)pa)->v,
			  &((const struct mwu_item *)pb)->v);
}

/*
 * Exact two-sided p for U_A without ties: the counts of arrangements giving
 * each U are the coefficients of the Gaussian binomial [n choose nA]_q =
 * prod_(i=1..nA) (1 - q^(nB+i)) / (1 - q^i), built one factor at a time.
 * Every partial product is itself a polynomial with integer coefficients
 * below C(40, 20) < 2^53, so doubles hold them exactly.
 */
static int mwu_exact_p(size_t na, size_t nb, double u, double *p)
{
	size_t cap = na * nb + na + 1, deg = 0, i, k;
	double *c = calloc(cap, sizeof(*c));
	double total = 0, le = 0, ge = 0;

	if (!c)
		return -ENOMEM;
	c[0] = 1;
	for (i = 1; i <= na; i++) {
		size_t sh = nb + i;

		for (k = deg + sh; k >= sh; k--)	/* times (1 - q^sh) */
			c[k] -= c[k - sh];
		for (k = i; k <= deg + sh; k++)		/* divided by (1 - q^i) */
			c[k] += c[k - i];
		deg += nb;
	}
	for (k = 0; k <= deg; k++) {
		total += c[k];
		if ((double)k <= u + 1e-9)
			le += c[k];
		if ((double)k >= u - 1e-9)
			ge += c[k];
	}
	free(c);
	*p = fmin(1, 2 * fmin(le, ge) / total);
	return 0;
}

/*
 * Exact two-sided p with ties: every way to pick nA of the n (doubled,
 * hence integer) mid-ranks, counting those whose rank sum is at least as far
 * from its mean as the observed one.  C(20, 10) = 184756 subsets at most.
 */
static double mwu_exact_ties(const unsigned *rank2, size_t n, size_t na, unsigned long obs2)
{
	unsigned long total = 0, extreme = 0, mu2 = (unsigned long)na * (n + 1);
	uint32_t set = (1u << na) - 1, limit = 1u << n;

	while (set < limit) {
		unsigned long sum = 0, dev;
		uint32_t c, r;
		size_t k;

		for (k = 0; k < n; k++)
			if (set & (1u << k))
				sum += rank2[k];
		dev = sum > mu2 ? sum - mu2 : mu2 - sum;
		extreme += dev >= obs2;
		total++;
		c = set & -set;		/* Gosper's hack: next set with the same popcount */
		r = set + c;
		set = (((r ^ set) >> 2) / c) | r;
	}
	return (double)extreme / (double)total;
}

int abstat_mwu(const double *a, size_t na, const double *b, size_t nb,
	       struct abstat_mwu *out)
{
	size_t n = na + nb, i, j;
	struct mwu_item *it;
	unsigned *rank2;
	double ra = 0, ties = 0, mu, var;

	if (na == 0 || nb == 0)
		return -EINVAL;
	it = malloc(sizeof(*it) * n);
	rank2 = malloc(sizeof(*rank2) * n);
	if (!it || !rank2) {
		free(it);
		free(rank2);
		return -ENOMEM;
	}
	for (i = 0; i < na; i++)
		it[i] = (struct mwu_item){ a[i], 1 };
	for (i = 0; i < nb; i++)
		it[na + i] = (struct mwu_item){ b[i], 0 };
	qsort(it, n, sizeof(*it), cmp_item);
	for (i = 0; i < n; i = j) {
		double t, mid;

		for (j = i + 1; j < n && it[j].v == it[i].v; j++)
			;
		t = (double)(j - i);
		mid = ((double)i + (double)j - 1) / 2 + 1;	/* mid-rank, 1-based */
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++) {
			rank2[k] = (unsigned)(i + j + 1);	/* 2 x mid-rank */
			if (it[k].from_a)
				ra += mid;
		}
	}
	free(it);
	out->u_a = ra - (double)na * (double)(na + 1) / 2;
	out->u_b = (double)na * (double)nb - out->u_a;
	out->ties = ties > 0;
	out->exact = 0;
	out->z = 0;
	if (out->ties && n <= ABSTAT_MWU_EXACT_TIES_MAX) {
		double d = 2 * ra - (double)na * (double)(n + 1);

		out->exact = 1;
		out->p = mwu_exact_ties(rank2, n, na, (unsigned long)llround(fabs(d)));
		free(rank2);
		return 0;
	}
	free(rank2);
	if (!out->ties && n <= ABSTAT_MWU_EXACT_MAX) {
		out->exact = 1;
		return mwu_exact_p(na, nb, out->u_a, &out->p);
	}
	mu = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (!(var > 0)) {
		out->p = 1;	/* every value tied: no evidence either way */
		return 0;
	}
	out->z = fmax(0, fabs(out->u_a - mu) - 0.5) / sqrt(var);
	out->p = erfc(out->z / sqrt(2.0));
	return 0;
}
