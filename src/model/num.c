/*
 * num: fio's number syntax (see num.h for the rules and fio's quirks).
 *
 * A plain value ("4k", "0x1000", "10ms") is parsed exactly in 64-bit integer
 * arithmetic with overflow checks.  Only a value that starts with "(" or uses
 * a $keyword goes through the expression evaluator, which works in long
 * double (exact for integers below 2^64 on x86-64) and truncates at the end.
 * Keeping the two paths apart means "8k-4k" is refused as garbage instead of
 * being read as 4096.
 */
#include "model/num.h"

#include <ctype.h>	/* isdigit, isxdigit, tolower, isalnum */
#include <errno.h>	/* EINVAL, ERANGE */
#include <math.h>	/* fmodl, powl, isfinite */
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* vsnprintf */
#include <stdlib.h>	/* strtold, strtod */
#include <string.h>	/* strlen, strchr, strncasecmp */
#include <strings.h>	/* strncasecmp */
#include <unistd.h>	/* sysconf */

#define NUM_FIELD_MAX 1024	/* longest single value we copy to split it */
#define NUM_EXPR_DEPTH 64	/* nesting limit: keeps "((((...." off the stack */

int num_error(struct err *e, const struct num_ctx *c, int code, const char *val,
	      const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (c && c->opt)
		return err_set(e, code, EXIT_USAGE, "invalid value '%.100s' for option '%s': %s%s%s%s",
			       val, c->opt, why, c->where ? " (" : "", c->where ? c->where : "",
			       c->where ? ")" : "");
	return err_set(e, code, EXIT_USAGE, "invalid value '%.100s': %s%s%s%s", val, why,
		       c && c->where ? " (" : "", c && c->where ? c->where : "",
		       c && c->where ? ")" : "");
}

int num_unsupported(struct err *e, const struct num_ctx *c, const char *val, const char *why)
{
	return err_set(e, -EINVAL, EXIT_USAGE, "unsupported value '%.100s' for option '%s': %s%s%s%s",
		       val, c->opt, why, c->where ? " (" : "", c->where ? c->where : "",
		       c->where ? ")" : "");
}

void num_sys_get(struct num_sys *sys)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);
	long pages = sysconf(_SC_PHYS_PAGES);

	sys->ncpus = ncpus > 0 ? (uint64_t)ncpus : 1;
	sys->pagesize = page > 0 ? (uint64_t)page : 4096;
	sys->mb_memory = pages > 0 ? (uint64_t)pages * sys->pagesize / (1024 * 1024) : 0;
}

/* Multiply with overflow detection: 0 or -ERANGE. */
static int num_mul(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b && a > UINT64_MAX / b)
		return -ERANGE;
	*out = a * b;
	return 0;
}

/*
 * A size unit at *pp (k, kb, ki, kib, ... or b), advancing past it.  Returns
 * the multiplier, 1 when there is no unit.
 */
static uint64_t num_size_unit(const char **pp, unsigned kb_base)
{
	static const char powers[] = "kmgtp";
	const char *p = *pp, *hit;
	uint64_t base = kb_base, mult = 1;
	int n, i;

	if (!*p)
		return 1;
	hit = strchr(powers, tolower((unsigned char)*p));
	if (!hit) {
		if (tolower((unsigned char)*p) == 'b')
			*pp = p + 1;
		return 1;
	}
	n = (int)(hit - powers) + 1;
	p++;
	if (tolower((unsigned char)p[0]) == 'i' && tolower((unsigned char)p[1]) == 'b') {
		base = kb_base == 1000 ? 1024 : 1000;	/* fio 3.33: "KiB" is the other base */
		p += 2;
	} else if (tolower((unsigned char)p[0]) == 'i' || tolower((unsigned char)p[0]) == 'b') {
		p++;
	}
	for (i = 0; i < n; i++)
		mult *= base;	/* at most 1024^5: no overflow */
	*pp = p;
	return mult;
}

/*
 * A time unit at *pp, advancing past it; returns microseconds, 0 if none.
 * Only fio's documented units.  Not "sec" or "min": fio 3.33 reads "2sec"
 * and "2min" as 2 microseconds, so accepting them (as seconds or minutes)
 * would run a different job; they fall through to "unknown unit".
 */
static uint64_t num_time_unit(const char **pp)
{
	static const struct { const char *name; uint64_t us; } units[] = {
		{ "usec", 1 }, { "msec", 1000 }, { "us", 1 }, { "ms", 1000 },
		{ "s", 1000000 }, { "m", 60000000ull },
		{ "h", 3600000000ull }, { "d", 86400000000ull },
	};
	size_t i, len;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		len = strlen(units[i].name);
		if (!strncasecmp(*pp, units[i].name, len)) {
			*pp += len;
			return units[i].us;
		}
	}
	return 0;
}

/* Unsigned decimal or 0x hex digits at *pp: 0, -EINVAL (no digits), -ERANGE. */
static int num_digits(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	unsigned base = 10, dig;
	uint64_t x = 0;
	int any = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		if (isdigit((unsigned char)*p))
			dig = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			dig = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (x > (UINT64_MAX - dig) / base)
			return -ERANGE;
		x = x * base + dig;
		any = 1;
	}
	if (!any)
		return -EINVAL;
	*pp = p;
	*v = x;
	return 0;
}

/* The plain form: digits and one optional unit, nothing else. */
static int num_plain(const char *s, const struct num_ctx *c, int is_time, uint64_t bare_us,
		     uint64_t *out, struct err *e)
{
	const char *p = s, *u;
	uint64_t v, mult;
	int ret, hex;

	if (*p == '-')
		return num_error(e, c, -EINVAL, s, "negative values are not allowed");
	ret = num_digits(&p, &v);
	if (ret == -ERANGE)
		return num_error(e, c, -ERANGE, s, "number too large");
	if (ret)
		return num_error(e, c, -EINVAL, s, "not a number");
	if (*p == '.' && isdigit((unsigned char)p[1]))
		return num_error(e, c, -EINVAL, s, "fractional values are not allowed");
	/* fio 3.33 reads a hex number's unit as nothing and a hex time as microseconds */
	hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	if (hex && is_time)
		return num_error(e, c, -EINVAL, s, "a time cannot be hex (fio reads it as microseconds)");
	if (hex && *p)
		return num_error(e, c, -EINVAL, s, "a hex number cannot take a unit (fio ignores it)");
	u = p;
	if (is_time) {
		mult = num_time_unit(&p);
		if (!mult)
			mult = bare_us;
	} else {
		mult = num_size_unit(&p, c->kb_base);
	}
	if (*p) {
		if (p == u)
			return num_error(e, c, -EINVAL, s, "unexpected '%.20s' after the number", p);
		return num_error(e, c, -EINVAL, s, "unknown unit '%.20s'", u);
	}
	if (num_mul(v, mult, out))
		return num_error(e, c, -ERANGE, s, "value too large");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Expressions: recursive descent over + - * / % ^ ( ) and $keywords.   */

struct num_expr {
	const char *p;
	int is_time;
	unsigned kb_base;
	struct num_sys sys;
	int saw_unit;		/* a unit was written somewhere */
	int depth;
	const char *why;	/* reason of the first failure */
};

static int num_expr_sum(struct num_expr *x, long double *v);

static void num_expr_space(struct num_expr *x)
{
	while (*x->p == ' ' || *x->p == '\t')
		x->p++;
}

static int num_expr_fail(struct num_expr *x, const char *why)
{
	if (!x->why)
		x->why = why;
	return -EINVAL;
}

/* A unit after a number or ")": multiplies *v. */
static void num_expr_unit(struct num_expr *x, long double *v)
{
	const char *before = x->p;
	uint64_t mult;

	if (x->is_time)
		mult = num_time_unit(&x->p);
	else
		mult = num_size_unit(&x->p, x->kb_base);
	if (x->p != before) {
		x->saw_unit = 1;
		*v *= (long double)mult;
	}
}

static int num_expr_keyword(struct num_expr *x, long double *v)
{
	static const char *const names[] = { "ncpus", "pagesize", "mb_memory" };
	const uint64_t vals[] = { x->sys.ncpus, x->sys.pagesize, x->sys.mb_memory };
	size_t i, len;

	x->p++;	/* '$' */
	for (i = 0; i < 3; i++) {
		len = strlen(names[i]);
		if (!strncmp(x->p, names[i], len) && !isalnum((unsigned char)x->p[len]) &&
		    x->p[len] != '_') {
			x->p += len;
			*v = (long double)vals[i];
			return 0;
		}
	}
	return num_expr_fail(x, "unknown $variable (known: $ncpus, $pagesize, $mb_memory)");
}

static int num_expr_number(struct num_expr *x, long double *v)
{
	char buf[64];
	size_t n = 0;
	uint64_t u;
	const char *p = x->p;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (num_digits(&x->p, &u))
			return num_expr_fail(x, "bad hex number");
		*v = (long double)u;
		return 0;
	}
	while ((isdigit((unsigned char)*p) || *p == '.') && n < sizeof(buf) - 1)
		buf[n++] = *p++;
	buf[n] = '\0';
	if (!n || !strcmp(buf, ".") || strchr(buf, '.') != strrchr(buf, '.'))
		return num_expr_fail(x, "malformed expression");
	*v = strtold(buf, NULL);
	x->p = p;
	return 0;
}

static int num_expr_primary(struct num_expr *x, long double *v)
{
	int ret;

	num_expr_space(x);
	if (*x->p == '(') {
		if (++x->depth > NUM_EXPR_DEPTH)
			return num_expr_fail(x, "expression nested too deeply");
		x->p++;
		ret = num_expr_sum(x, v);
		if (ret)
			return ret;
		num_expr_space(x);
		if (*x->p != ')')
			return num_expr_fail(x, "missing ')'");
		x->p++;
		x->depth--;
	} else if (*x->p == '$') {
		ret = num_expr_keyword(x, v);
		if (ret)
			return ret;
	} else if (isdigit((unsigned char)*x->p) || *x->p == '.') {
		ret = num_expr_number(x, v);
		if (ret)
			return ret;
	} else {
		return num_expr_fail(x, "malformed expression");
	}
	num_expr_unit(x, v);
	return 0;
}

/* unary: [+-] unary | primary [^ unary]  (^ binds tighter, right to left) */
static int num_expr_unary(struct num_expr *x, long double *v)
{
	long double r;
	int ret;

	num_expr_space(x);
	if (*x->p == '-' || *x->p == '+') {
		int neg = *x->p == '-';

		if (++x->depth > NUM_EXPR_DEPTH)
			return num_expr_fail(x, "expression nested too deeply");
		x->p++;
		ret = num_expr_unary(x, v);
		x->depth--;
		if (!ret && neg)
			*v = -*v;
		return ret;
	}
	ret = num_expr_primary(x, v);
	if (ret)
		return ret;
	num_expr_space(x);
	if (*x->p == '^') {
		if (++x->depth > NUM_EXPR_DEPTH)
			return num_expr_fail(x, "expression nested too deeply");
		x->p++;
		ret = num_expr_unary(x, &r);
		x->depth--;
		if (ret)
			return ret;
		*v = powl(*v, r);
	}
	return 0;
}

static int num_expr_prod(struct num_expr *x, long double *v)
{
	long double r;
	char op;
	int ret = num_expr_unary(x, v);

	while (!ret) {
		num_expr_space(x);
		op = *x->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		x->p++;
		ret = num_expr_unary(x, &r);
		if (ret)
			break;
		if (op != '*' && r == 0)
			return num_expr_fail(x, "division by zero");
		if (op == '*')
			*v *= r;
		else if (op == '/')
			*v /= r;
		else
			*v = fmodl(*v, r);
	}
	return ret;
}

static int num_expr_sum(struct num_expr *x, long double *v)
{
	long double r;
	char op;
	int ret = num_expr_prod(x, v);

	while (!ret) {
		num_expr_space(x);
		op = *x->p;
		if (op != '+' && op != '-')
			break;
		x->p++;
		ret = num_expr_prod(x, &r);
		if (!ret)
			*v = op == '+' ? *v + r : *v - r;
	}
	return ret;
}

static int num_is_expr(const char *s)
{
	return s[0] == '(' || strchr(s, '$') != NULL;
}

static int num_expr_eval(const char *s, const struct num_ctx *c, int is_time, uint64_t bare_us,
			 uint64_t *out, struct err *e)
{
	struct num_expr x = { .p = s, .is_time = is_time, .kb_base = c->kb_base };
	long double v = 0;

	num_sys_get(&x.sys);
	if (num_expr_sum(&x, &v) || (num_expr_space(&x), *x.p)) {
		if (!x.why)
			return num_error(e, c, -EINVAL, s, "unexpected '%.20s' in expression", x.p);
		return num_error(e, c, -EINVAL, s, "%s", x.why);
	}
	if (is_time && !x.saw_unit)
		v *= (long double)bare_us;
	if (isnan(v))
		return num_error(e, c, -EINVAL, s, "expression has no value");
	if (v <= -1)
		return num_error(e, c, -EINVAL, s, "negative values are not allowed");
	if (!isfinite(v) || v >= 18446744073709551616.0L)
		return num_error(e, c, -ERANGE, s, "value too large");
	*out = v < 0 ? 0 : (uint64_t)v;
	return 0;
}

/* ------------------------------------------------------------------ */

static int num_value(const char *s, const struct num_ctx *c, int is_time, uint64_t bare_us,
		     uint64_t *out, struct err *e)
{
	if (!s || !*s)
		return num_error(e, c, -EINVAL, s ? s : "", "empty value");
	if (num_is_expr(s))
		return num_expr_eval(s, c, is_time, bare_us, out, e);
	return num_plain(s, c, is_time, bare_us, out, e);
}

int num_parse_u64(const char *s, const struct num_ctx *c, uint64_t *out, struct err *e)
{
	return num_value(s, c, 0, 1, out, e);
}

int num_parse_time(const char *s, const struct num_ctx *c, uint64_t bare_us,
		   uint64_t *out_us, struct err *e)
{
	return num_value(s, c, 1, bare_us, out_us, e);
}

int num_parse_double(const char *s, const struct num_ctx *c, double *out, struct err *e)
{
	char *end;
	double v;

	if (!s || !*s)
		return num_error(e, c, -EINVAL, s ? s : "", "empty value");
	/* strtod also takes "inf", "nan" and hex floats: only plain decimals here */
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1]))) {
		if (s[0] == '-')
			return num_error(e, c, -EINVAL, s, "negative values are not allowed");
		return num_error(e, c, -EINVAL, s, "not a number");
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return num_error(e, c, -EINVAL, s, "not a decimal number");
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return num_error(e, c, -EINVAL, s, "unexpected '%.20s' after the number", end);
	if (errno == ERANGE || !isfinite(v))
		return num_error(e, c, -ERANGE, s, "number out of range");
	*out = v;
	return 0;
}

/* Copy @s (at most NUM_FIELD_MAX bytes) into @buf for splitting. */
static int num_copy(char *buf, const char *s, const struct num_ctx *c, struct err *e)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= NUM_FIELD_MAX)
		return num_error(e, c, -EINVAL, s, "value too long");
	memcpy(buf, s ? s : "", n + 1);
	return 0;
}

/* The first character of @s in @set outside parentheses, or NULL. */
static const char *num_find_outside(const char *s, const char *set)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		else if (!depth && strchr(set, *s))
			return s;
	}
	return NULL;
}

/* Whether @s holds a '/' outside parentheses (a bssplit weight, not a division). */
static int num_slash_outside(const char *s)
{
	return num_find_outside(s, "/") != NULL;
}

/* End @s at its first '/', ':' or '-' outside parentheses: one bssplit entry's size. */
static void num_cut_entry(char *s)
{
	char *p = (char *)num_find_outside(s, "/:-");

	if (p)
		*p = '\0';
}

int num_parse_range(const char *s, const struct num_ctx *c, uint64_t *lo, uint64_t *hi,
		    struct err *e)
{
	char buf[NUM_FIELD_MAX], *sep = NULL, *p;
	int depth = 0, ret;
	uint64_t a, b;

	ret = num_copy(buf, s, c, e);
	if (ret)
		return ret;
	/* the first '-' or ':' outside parentheses, not the leading character */
	for (p = buf; *p && !sep; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (!depth && p > buf && (*p == '-' || *p == ':'))
			sep = p;
	}
	if (!sep) {
		ret = num_parse_u64(buf, c, &a, e);
		if (!ret)
			*lo = *hi = a;
		return ret;
	}
	*sep = '\0';
	/*
	 * A bssplit-shaped value ("512/25:1k:25:2k:25:4k/25", fio's t0024) in a
	 * range option: fio 3.33 reads each end as far as its number goes, so
	 * that is 512-1k.  Only that shape: other trailing text stays an error.
	 */
	if (num_slash_outside(buf) || num_slash_outside(sep + 1)) {
		num_cut_entry(buf);
		num_cut_entry(sep + 1);
	}
	ret = num_parse_u64(buf, c, &a, e);
	if (!ret)
		ret = num_parse_u64(sep + 1, c, &b, e);
	if (ret)
		return ret;
	if (a > b)
		return num_error(e, c, -EINVAL, s, "range is reversed (low end above high end)");
	*lo = a;
	*hi = b;
	return 0;
}

int num_ddir_split(char *buf, char *field[DDIR_NR])
{
	char *f[DDIR_NR], *p = buf;
	int n = 0, d;

	f[n++] = p;
	while ((p = strchr(p, ','))) {
		if (n == DDIR_NR)
			return -EINVAL;
		*p++ = '\0';
		f[n++] = p;
	}
	for (d = 0; d < DDIR_NR; d++) {
		char *v = d < n ? f[d] : f[n - 1];

		field[d] = *v ? v : NULL;
	}
	return 0;
}

/* Split @s into @buf/@field, with messages for the two ways it can fail. */
static int num_split(const char *s, char *buf, char *field[DDIR_NR], const struct num_ctx *c,
		     struct err *e)
{
	int ret = num_copy(buf, s, c, e);

	if (ret)
		return ret;
	if (num_ddir_split(buf, field))
		return num_error(e, c, -EINVAL, s, "more than three comma-separated values (read,write,trim)");
	if (!field[0] && !field[1] && !field[2])
		return num_error(e, c, -EINVAL, s, "empty value");
	return 0;
}

int num_parse_u64_ddir(const char *s, const struct num_ctx *c, uint64_t out[DDIR_NR],
		       struct err *e)
{
	char buf[NUM_FIELD_MAX], *field[DDIR_NR];
	uint64_t v[DDIR_NR];
	int d, ret = num_split(s, buf, field, c, e);

	for (d = 0; d < DDIR_NR && !ret; d++)
		if (field[d])
			ret = num_parse_u64(field[d], c, &v[d], e);
	for (d = 0; d < DDIR_NR && !ret; d++)
		if (field[d])
			out[d] = v[d];
	return ret;
}

int num_parse_range_ddir(const char *s, const struct num_ctx *c, uint64_t lo[DDIR_NR],
			 uint64_t hi[DDIR_NR], struct err *e)
{
	char buf[NUM_FIELD_MAX], *field[DDIR_NR];
	uint64_t l[DDIR_NR], h[DDIR_NR];
	int d, ret = num_split(s, buf, field, c, e);

	for (d = 0; d < DDIR_NR && !ret; d++)
		if (field[d])
			ret = num_parse_range(field[d], c, &l[d], &h[d], e);
	for (d = 0; d < DDIR_NR && !ret; d++) {
		if (field[d]) {
			lo[d] = l[d];
			hi[d] = h[d];
		}
	}
	return ret;
}

/* One direction's "4k/10:64k/50:32k/" into @out; returns the entry count or -errno. */
static int num_bssplit_one(const char *s, const struct num_ctx *c, struct bssplit *out,
			   struct err *e)
{
	unsigned nr = 0, missing = 0, sum = 0, i, share, extra;
	int blank[JOB_MAX_BSSPLIT];
	char one[NUM_FIELD_MAX], *entry, *save = NULL, *slash;
	uint64_t bs, w;
	int ret;

	strcpy(one, s);	/* callers pass pieces of a NUM_FIELD_MAX buffer */
	for (entry = strtok_r(one, ":", &save); entry; entry = strtok_r(NULL, ":", &save)) {
		if (nr == JOB_MAX_BSSPLIT)
			return num_error(e, c, -EINVAL, s, "more than %d block sizes", JOB_MAX_BSSPLIT);
		slash = strchr(entry, '/');
		if (slash)
			*slash++ = '\0';
		ret = num_parse_u64(entry, c, &bs, e);
		if (ret)
			return ret;
		if (!bs)
			return num_error(e, c, -EINVAL, entry, "a block size of 0");
		out[nr].bs = bs;
		blank[nr] = !slash || !*slash;
		if (blank[nr]) {
			missing++;
			out[nr].perc = 0;
		} else {
			ret = num_parse_u64(slash, c, &w, e);
			if (ret)
				return ret;
			if (w > 100)
				return num_error(e, c, -EINVAL, slash, "a weight above 100%%");
			out[nr].perc = (uint32_t)w;
			sum += (unsigned)w;
		}
		nr++;
	}
	if (!nr)
		return num_error(e, c, -EINVAL, s, "no block size given");
	if (sum > 100)
		return num_error(e, c, -EINVAL, s, "weights add up to %u%%, above 100%%", sum);
	if (!missing && sum != 100)
		return num_error(e, c, -EINVAL, s, "weights add up to %u%%, not 100%%", sum);
	if (missing) {
		share = (100 - sum) / missing;
		extra = (100 - sum) % missing;
		for (i = 0; i < nr; i++) {
			if (!blank[i])
				continue;
			out[i].perc = share + (extra ? 1 : 0);
			if (extra)
				extra--;
		}
	}
	return (int)nr;
}

int num_parse_bssplit(const char *s, const struct num_ctx *c,
		      struct bssplit out[DDIR_NR][JOB_MAX_BSSPLIT], unsigned nr[DDIR_NR],
		      struct err *e)
{
	char buf[NUM_FIELD_MAX], *field[DDIR_NR];
	struct bssplit tmp[DDIR_NR][JOB_MAX_BSSPLIT];
	int n[DDIR_NR] = { 0 };
	int d, ret = num_split(s, buf, field, c, e);

	for (d = 0; d < DDIR_NR && !ret; d++) {
		if (!field[d])
			continue;
		n[d] = num_bssplit_one(field[d], c, tmp[d], e);
		if (n[d] < 0)
			ret = n[d];
	}
	if (ret)
		return ret;
	for (d = 0; d < DDIR_NR; d++) {
		if (!field[d])
			continue;
		memcpy(out[d], tmp[d], sizeof(tmp[d]));
		nr[d] = (unsigned)n[d];
	}
	return 0;
}

int num_parse_size_pct(const char *s, const struct num_ctx *c, uint64_t *bytes,
		       uint32_t *pct, struct err *e)
{
	char buf[NUM_FIELD_MAX];
	size_t n = s ? strlen(s) : 0;
	uint64_t v;
	int ret;

	if (n > 1 && s[n - 1] == '%' && n < sizeof(buf)) {
		memcpy(buf, s, n - 1);
		buf[n - 1] = '\0';
		ret = num_plain(buf, c, 0, 1, &v, e);
		if (ret)
			return ret;
		/* 0% is fio's "from the start" / "all of it", the same as unset */
		if (v > 100)
			return num_error(e, c, -EINVAL, s, "a percentage must be 0..100");
		*pct = (uint32_t)v;
		*bytes = 0;
		return 0;
	}
	ret = num_parse_u64(s, c, &v, e);
	if (ret)
		return ret;
	*bytes = v;
	*pct = 0;
	return 0;
}
