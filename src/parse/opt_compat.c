/*
 * opt_compat: the callbacks declared in opt_compat.h.  Each accepts exactly
 * the values whose fio meaning iotrial honours and refuses the rest by name
 * (opt_unsupported_value), so nothing is accepted and then ignored.
 */
#include "parse/opt_compat.h"

#include <errno.h>	/* EINVAL, ERANGE, ENOMEM */
#include <limits.h>	/* LONG_MIN */
#include <sched.h>	/* cpu_set_t, CPU_SET */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* strtol, free */
#include <string.h>	/* strcmp, strdup, strchr, memcpy */
#include "io/buffer.h"	/* buffer_pattern_parse */
#include "io/verify.h"	/* verify_method_parse */

int opt_parse_verify(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e)
{
	enum verify_method m;

	(void)o;
	if (!strcmp(val, "0") || !strcmp(val, "none")) {
		j->verify_method = VERIFY_NONE;
		return 0;
	}
	if (verify_method_parse(val, &m))
		return num_unsupported(e, c, val, "supported: md5, crc32c, crc32, crc64, sha1, "
				       "sha256, sha512, xxhash, meta, pattern, 0/none");
	j->verify_method = (int)m;
	return 0;
}

/* A pattern value (buffer_pattern=, verify_pattern=): checked, then kept as typed in *@slot. */
static int opt_set_pattern(char **slot, const char *val, const struct num_ctx *c, struct err *e)
{
	uint8_t tmp[BUFFER_PATTERN_MAX];
	unsigned n;
	const char *why;
	char *s;

	if (buffer_pattern_parse(val, tmp, &n, &why))
		return num_unsupported(e, c, val, why);
	s = strdup(val);
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	free(*slot);
	*slot = s;
	return 0;
}

int opt_parse_verify_pattern(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e)
{
	(void)o;
	return opt_set_pattern(&j->verify_pattern, val, c, e);
}

int opt_show_verify_pattern(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	if (!j->verify_pattern)
		return 1;
	snprintf(buf, len, "%s", j->verify_pattern);
	return 0;
}

int opt_think_validate(struct job *j, struct err *e)
{
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		if (j->rate_min[d] || j->rate_iops_min[d])
			j->rate_min_set = 1;
		/* fio's rule: a minimum above the cap can never be met */
		if ((j->rate[d] && j->rate_min[d] > j->rate[d]) ||
		    (j->rate_iops[d] && j->rate_iops_min[d] > j->rate_iops[d]))
			return job_err(e, j, "the minimum rate for %s is above its rate limit",
				       job_ddir_name(d));
	}

	if (!j->thinktime_us)
		return 0;
	if (j->thinktime_spin_us > j->thinktime_us)
		return job_err(e, j, "thinktime_spin %lluus is above thinktime %lluus",
			       (unsigned long long)j->thinktime_spin_us,
			       (unsigned long long)j->thinktime_us);
	for (d = 0; d < DDIR_NR; d++)
		if (j->rate[d] || j->rate_iops[d])
			return job_err(e, j, "thinktime with rate or rate_iops is not supported");
	return 0;
}

/*
 * verify_interval against the sizes of direction @d: an interval at or above
 * a block size is that block (fio clamps it), below it must divide it.
 */
static int verify_interval_fits(const struct job *j, int d)
{
	uint64_t vi = j->verify_interval;
	unsigned i;

	if (!vi)
		return 1;
	if (j->bs[d] > UINT32_MAX || j->bs_max[d] > UINT32_MAX)
		return 0;
	for (i = 0; i < j->bssplit_nr[d]; i++)
		if (vi < j->bssplit[d][i].bs && j->bssplit[d][i].bs % vi)
			return 0;
	if (j->bs_min[d] && j->bs_min[d] != j->bs_max[d])	/* bsrange: multiples of the smallest */
		return vi >= j->bs_max[d] || j->bs_min[d] % vi == 0;
	return j->bssplit_nr[d] || vi >= j->bs[d] || j->bs[d] % vi == 0;
}

/* Blocks of several sizes (bsrange, bssplit) in direction @d. */
static int verify_sizes_vary(const struct job *j, int d)
{
	return j->bssplit_nr[d] || (j->bs_min[d] && (j->bs_min[d] != j->bs_max[d] || j->bs_min[d] != j->bs[d]));
}

int opt_verify_validate(const struct job *j, struct err *e)
{
	const char *why = NULL;
	int d = DDIR_WRITE, mixed = (j->rw & RW_READ) && (j->rw & RW_WRITE);

	if (!j->verify_method)
		return j->verify_only ? job_err(e, j, "verify_only needs verify=METHOD") : 0;
	if ((j->rw & ~RW_RAND) == RW_READ)
		d = DDIR_READ;	/* a read job checks each block it reads (what an earlier job wrote) */
	else if ((j->rw & ~RW_RAND) != RW_WRITE && !mixed)
		why = "verify needs rw=read, randread, write, randwrite, rw or randrw";
	if (!why && (j->rw & RW_RAND) && j->norandommap && d == DDIR_WRITE &&
	    (verify_sizes_vary(j, d) || (j->blockalign[d] && j->blockalign[d] % j->bs[d])))
		/*
		 * rewrites of one block size at block boundaries replace the
		 * block whole; other rewrites would overlap a logged block partly
		 */
		why = "verify with norandommap needs one block size and blocks aligned to it "
		      "(no bsrange, bssplit or smaller blockalign)";
	if (!why && j->verify_method == VERIFY_PATTERN && !j->verify_pattern)
		why = "verify=pattern needs verify_pattern";
	if (!why && !verify_interval_fits(j, d))
		why = "verify_interval must divide each block size (or be at least as large)";
	if (!why && j->verify_state_load && !j->verify_only && d == DDIR_WRITE)
		why = "verify_state_load is for a job that checks without writing (rw=read, "
		      "randread or verify_only)";
	if (why)
		return job_err(e, j, "%s", why);
	return 0;
}

int opt_parse_gtod_reduce(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	(void)o;
	if (strcmp(val, "0") && strcmp(val, "1"))
		return num_error(e, c, -EINVAL, val, "a boolean is 0 or 1");
	j->gtod_reduce = val[0] == '1';
	if (j->gtod_reduce) {
		/* fio's meaning; iotrial still reads its clock per I/O (docs/usage.md) */
		j->disable_lat = 1;
		j->disable_clat = 1;
		j->disable_slat = 1;
		j->disable_bw = 1;
	}
	return 0;
}

int opt_parse_cpumask(struct job *j, const struct opt_def *o, const char *val,
		      const struct num_ctx *c, struct err *e)
{
	uint64_t mask;
	cpu_set_t set;
	int i, ret;

	(void)o;
	ret = num_parse_u64(val, c, &mask, e);
	if (ret)
		return ret;
	if (!mask)
		return num_error(e, c, -EINVAL, val, "no CPU given");
	CPU_ZERO(&set);
	for (i = 0; i < 64; i++)
		if (mask & (1ull << i))
			CPU_SET(i, &set);
	j->cpus_allowed = set;
	j->cpus_allowed_set = 1;
	return 0;
}

int opt_parse_nice(struct job *j, const struct opt_def *o, const char *val,
		   const struct num_ctx *c, struct err *e)
{
	char *end;
	long v;

	(void)o;
	v = strtol(val, &end, 10);
	if (end == val || *end)
		return num_error(e, c, -EINVAL, val, "not an integer");
	if (v < -20 || v > 19)
		return num_error(e, c, -ERANGE, val, "nice is -20..19");
	j->nice = (int)v;
	return 0;
}

int opt_show_nice(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%d", j->nice);
	return 0;
}

int opt_parse_zonemode(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	(void)o;
	if (!strcmp(val, "none"))
		j->zonemode = JOB_ZONE_NONE;
	else if (!strcmp(val, "strided"))
		j->zonemode = JOB_ZONE_STRIDED;
	else if (!strcmp(val, "zbd"))
		j->zonemode = JOB_ZONE_ZBD;
	else
		return num_error(e, c, -EINVAL, val, "not one of none, strided, zbd");
	return 0;
}

/*
 * A share 0..1 (zone_reset_threshold, zone_reset_frequency).  The refusals
 * carry fio's words ("value out of range", "the list exceeding max length"):
 * fio's t/zbd checks them by grepping for those words.
 */
int opt_parse_ratio(struct job *j, const struct opt_def *o, const char *val,
		    const struct num_ctx *c, struct err *e)
{
	double v;
	int r;

	if (!val)
		return num_error(e, c, -EINVAL, "", "a number between 0 and 1 is needed");
	if (strchr(val, ':'))
		return num_error(e, c, -EINVAL, val, "one value only (the list exceeding max length 1)");
	if (val[0] == '-')
		return num_error(e, c, -ERANGE, val, "value out of range: not between 0 and 1");
	r = num_parse_double(val, c, &v, e);
	if (r)
		return r;
	if (!(v >= 0 && v <= 1))
		return num_error(e, c, -ERANGE, val, "value out of range: not between 0 and 1");
	memcpy((char *)j + o->off, &v, sizeof(v));
	return 0;
}

int opt_show_ratio(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	double v;

	memcpy(&v, (const char *)j + o->off, sizeof(v));
	snprintf(buf, len, "%g", v);
	return 0;
}

int opt_parse_buffer_pattern(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e)
{
	(void)o;
	return opt_set_pattern(&j->buffer_pattern, val, c, e);
}

int opt_show_buffer_pattern(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	if (!j->buffer_pattern)
		return 1;
	snprintf(buf, len, "%s", j->buffer_pattern);
	return 0;
}

int opt_parse_zoned(struct job *j, const char *spec, const struct num_ctx *c, struct err *e)
{
	uint8_t acc[JOB_MAX_ZONES], size[JOB_MAX_ZONES];
	unsigned n = 0, asum = 0, ssum = 0, blank = JOB_MAX_ZONES;
	const char *p = spec;
	char *end;
	unsigned long a, s;

	if (strchr(spec, ','))
		return num_unsupported(e, c, spec, "per-direction zones");
	while (*p) {
		if (n == JOB_MAX_ZONES)
			return num_error(e, c, -EINVAL, spec, "more than %d zones", JOB_MAX_ZONES);
		a = strtoul(p, &end, 10);
		if (end == p || *end != '/' || a > 100)
			return num_error(e, c, -EINVAL, spec, "zones are access%%/size%%:...");
		p = end + 1;
		if (*p == ':' || !*p) {		/* "20/": the rest of the region */
			if (blank != JOB_MAX_ZONES)
				return num_error(e, c, -EINVAL, spec, "only one zone may leave its size blank");
			blank = n;
			s = 0;
		} else {
			s = strtoul(p, &end, 10);
			if (end == p || (*end && *end != ':') || s > 100)
				return num_error(e, c, -EINVAL, spec, "zones are access%%/size%%:...");
			p = end;
		}
		if (*p == ':')
			p++;
		acc[n] = (uint8_t)a;
		size[n] = (uint8_t)s;
		asum += (unsigned)a;
		ssum += (unsigned)s;
		n++;
	}
	if (!n)
		return num_error(e, c, -EINVAL, spec, "no zone given");
	if (blank != JOB_MAX_ZONES) {
		if (ssum > 100)
			return num_error(e, c, -EINVAL, spec, "zone sizes add up to more than 100%%");
		size[blank] = (uint8_t)(100 - ssum);
		ssum = 100;
	}
	if (asum != 100 || ssum != 100)
		return num_error(e, c, -EINVAL, spec, "zone accesses add up to %u%% and sizes to %u%%, "
				 "not 100%% each", asum, ssum);
	memcpy(j->zone_access, acc, n);
	memcpy(j->zone_size, size, n);
	j->zone_nr = n;
	j->random_distribution = RAND_DIST_ZONED;
	j->rand_param = 0;
	return 0;
}

int opt_show_verify(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", j->verify_method ? verify_method_name(j->verify_method) : "0");
	return 0;
}

int opt_show_gtod_reduce(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%d", j->gtod_reduce);
	return 0;
}

int opt_show_zonemode(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", j->zonemode == JOB_ZONE_ZBD ? "zbd" :
		 j->zonemode == JOB_ZONE_STRIDED ? "strided" : "none");
	return 0;
}
