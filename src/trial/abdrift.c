/*
 * abdrift: least squares of log(value) on side and run order (see abdrift.h).
 * Two regressors and an intercept: the normal equations are solved on
 * centred sums, in closed form.
 */
#include "trial/abdrift.h"

#include <errno.h>
#include <math.h>
#include "lib/abstat.h"	/* abstat_t_quantile, abstat_t_cdf */

/*
 * The side effect's standard error allowing each side its own variance (as
 * Welch does for two means): b_side = sum c_i y_i, so its variance is
 * sum c_i^2 sigma_side(i)^2, each side's sigma^2 from its residuals (the
 * three parameters' degrees of freedom shared between the sides), with
 * Satterthwaite's degrees of freedom.  The fit keeps the larger standard
 * error and the smaller df of the two: with equal variances they agree, and
 * a side 5 times noisier than the other no longer makes the interval too
 * narrow (92.6% coverage of a nominal 95% at 5 runs a side without this).
 */
static void unequal_variances(const struct abdrift_run *runs, size_t n, double ms, double mt,
			      double my, double stt, double sst, double det,
			      struct abdrift_fit *out)
{
	double rss[2] = { 0, 0 }, cc[2] = { 0, 0 }, cnt[2] = { 0, 0 }, v[2], var = 0, den = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		double s = (runs[i].is_b != 0) - ms, t = (double)i - mt;
		double e = log(runs[i].value) - my - out->effect * s - out->drift * t;
		double c = (stt * s - sst * t) / det;

		k = runs[i].is_b != 0;
		rss[k] += e * e;
		cc[k] += c * c;
		cnt[k] += 1;
	}
	for (k = 0; k < 2; k++) {
		double dfk = cnt[k] - 1.5;

		v[k] = rss[k] / dfk * cc[k];
		var += v[k];
		den += v[k] * v[k] / dfk;
	}
	if (!(var > 0) || !(den > 0))
		return;
	if (sqrt(var) > out->se)
		out->se = sqrt(var);
	if (var * var / den < out->df)
		out->df = var * var / den;
}

int abdrift_fit(const struct abdrift_run *runs, size_t n, struct abdrift_fit *out)
{
	double ms = 0, mt = 0, my = 0, sss = 0, stt = 0, sst = 0, ssy = 0, sty = 0, syy = 0;
	double det, rss, s2;
	size_t i, nb = 0;

	out->n = n;
	out->switches = 0;
	out->corr = 0;
	out->blocky = out->confounded = 0;
	/* the design first, so that a caller learns about blocks even on -EINVAL */
	for (i = 0; i < n; i++) {
		nb += runs[i].is_b != 0;
		if (i && !runs[i].is_b != !runs[i - 1].is_b)
			out->switches++;
	}
	for (i = 0; i < n; i++) {
		if (!(runs[i].value > 0) || isinf(runs[i].value))
			return -EINVAL;
		ms += runs[i].is_b != 0;
		mt += (double)i;
		my += log(runs[i].value);
	}
	if (n < 5 || nb < 2 || n - nb < 2)
		return -EINVAL;
	ms /= (double)n;
	mt /= (double)n;
	my /= (double)n;
	for (i = 0; i < n; i++) {
		double s = (runs[i].is_b != 0) - ms, t = (double)i - mt;
		double y = log(runs[i].value) - my;

		sss += s * s;
		stt += t * t;
		sst += s * t;
		ssy += s * y;
		sty += t * y;
		syy += y * y;
	}
	out->corr = sst / sqrt(sss * stt);
	out->blocky = out->switches <= 1 || fabs(out->corr) >= ABDRIFT_BLOCKY;
	out->confounded = out->switches <= 1 || fabs(out->corr) >= ABDRIFT_CONFOUNDED;
	det = sss * stt - sst * sst;
	if (!(det > 1e-12 * sss * stt))
		return -ERANGE;
	out->effect = (stt * ssy - sst * sty) / det;
	out->drift = (sss * sty - sst * ssy) / det;
	rss = syy - out->effect * ssy - out->drift * sty;
	out->df = (double)(n - 3);
	s2 = rss > 0 ? rss / out->df : 0;
	out->se = sqrt(s2 * stt / det);
	out->drift_se = sqrt(s2 * sss / det);
	unequal_variances(runs, n, ms, mt, my, stt, sst, det, out);
	return 0;
}

void abdrift_ci(const struct abdrift_fit *f, double level, double *lo, double *hi, double *p)
{
	double tq = abstat_t_quantile(1 - (1 - level) / 2, f->df);

	*lo = expm1(f->effect - tq * f->se);
	*hi = expm1(f->effect + tq * f->se);
	if (f->se > 0)
		*p = 2 * abstat_t_cdf(-fabs(f->effect / f->se), f->df);
	else
		*p = NAN;	/* a perfect fit: the caller falls back to a rank test */
}
