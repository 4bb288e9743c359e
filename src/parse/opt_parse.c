/*
 * opt_parse: the parse/show callbacks of opt_table.c's options whose values
 * are more than a number or a word (name, sizes, offsets, rw, block size
 * ranges and splits, seeds, distributions, ioengine, cpus_allowed,
 * percentile lists).  Each fills or prints one field of struct job.
 */
#include "parse/opt_parse.h"

#include <errno.h>	/* EINVAL, ERANGE, ENOMEM */
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf, vsnprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strcmp, strchr, strdup */
#include "io/engine.h"	/* engine_find: ioengine= names a compiled-in engine */
#include "io/zone_units.h"	/* zone_units_slot: which options take "Nz" */
#include "lib/suggest.h"	/* did you mean: an engine name */
#include "parse/opt_compat.h"	/* opt_parse_zoned: random_distribution=zoned */

/* Append to @buf at @*pos, never past @len. */
static void opt_cat(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void opt_cat(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

/* ---- target ---------------------------------------------------------- */

int opt_parse_name(struct job *j, const struct opt_def *o, const char *val,
		   const struct num_ctx *c, struct err *e)
{
	if (strlen(val) >= sizeof(j->name))
		return num_error(e, c, -EINVAL, val, "longer than %zu characters", sizeof(j->name) - 1);
	strcpy(j->name, val);
	return 0;
}

int opt_show_name(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s", j->name);
	return 0;
}

/*
 * fio's zone units, "8z": 8 zones (zone_units.h), kept as a count in
 * j->zunits[@k] until the zone size is known.  Returns 1 when @val is not
 * in zones, 0 when it is (the bytes set to 0 meanwhile), or -EINVAL for a
 * count that is not a whole number ("1.5z", as fio refuses it).
 */
static int opt_zunits(struct job *j, unsigned k, const char *val, const struct num_ctx *c,
		      struct err *e)
{
	size_t n = val ? strlen(val) : 0, i;
	unsigned long long v = 0;

	if (!n || val[n - 1] != 'z')
		return 1;
	for (i = 0; i + 1 < n; i++) {
		if (val[i] < '0' || val[i] > '9' || v > UINT32_MAX / 10)
			return num_error(e, c, -EINVAL, val, "zone units are a whole number of "
					 "zones below 2^32 (Nz)");
		v = v * 10 + (unsigned)(val[i] - '0');
	}
	if (!i || v > UINT32_MAX)
		return num_error(e, c, -EINVAL, val, "zone units are a whole number of zones below "
				 "2^32 (Nz)");
	j->zunits[k] = (uint32_t)v;
	return 0;
}

/* @v as bytes, or as the count of zones when slot @k was given in zones. */
static void opt_show_zunits(const struct job *j, unsigned k, uint64_t v, char *buf, size_t len)
{
	if (j->zunits[k])
		snprintf(buf, len, "%uz", j->zunits[k]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* size= and offset=: bytes, N% of the file, or N zones (slot @k). */
static int opt_parse_zpct(struct job *j, unsigned k, const char *val, const struct num_ctx *c,
			  uint64_t *bytes, uint32_t *pct, struct err *e)
{
	int r = opt_zunits(j, k, val, c, e);

	if (r <= 0) {
		*bytes = 0;
		*pct = 0;
		return r;
	}
	j->zunits[k] = 0;
	return num_parse_size_pct(val, c, bytes, pct, e);
}

static void opt_show_zpct(const struct job *j, unsigned k, uint64_t bytes, uint32_t pct, char *buf,
			  size_t len)
{
	if (pct)
		snprintf(buf, len, "%u%%", pct);
	else
		opt_show_zunits(j, k, bytes, buf, len);
}

int opt_parse_size(struct job *j, const struct opt_def *o, const char *val,
		   const struct num_ctx *c, struct err *e)
{
	return opt_parse_zpct(j, JOB_ZU_SIZE, val, c, &j->size, &j->size_pct, e);
}

int opt_show_size(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	opt_show_zpct(j, JOB_ZU_SIZE, j->size, j->size_pct, buf, len);
	return 0;
}

int opt_parse_offset(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e)
{
	return opt_parse_zpct(j, JOB_ZU_OFFSET, val, c, &j->offset, &j->offset_pct, e);
}

int opt_show_offset(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	opt_show_zpct(j, JOB_ZU_OFFSET, j->offset, j->offset_pct, buf, len);
	return 0;
}

int opt_parse_zbytes(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e)
{
	int k = zone_units_slot(o->off), r;
	uint64_t v = 0;

	if (k < 0 || o->width != sizeof(v))
		return err_set(e, -EINVAL, EXIT_INTERNAL, "option '%s' takes no zone units", o->name);
	r = opt_zunits(j, (unsigned)k, val, c, e);
	if (r > 0) {
		j->zunits[k] = 0;
		r = num_parse_u64(val, c, &v, e);
	}
	if (!r)
		memcpy((char *)j + o->off, &v, sizeof(v));
	return r;
}

int opt_show_zbytes(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	int k = zone_units_slot(o->off);
	uint64_t v;

	if (k < 0 || o->width != sizeof(v))
		return 1;
	memcpy(&v, (const char *)j + o->off, sizeof(v));
	opt_show_zunits(j, (unsigned)k, v, buf, len);
	return 0;
}

int opt_parse_filesize(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	return num_parse_range(val, c, &j->filesize_min, &j->filesize_max, e);
}

int opt_show_filesize(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	if (j->filesize_min == j->filesize_max)
		snprintf(buf, len, "%llu", (unsigned long long)j->filesize_min);
	else
		snprintf(buf, len, "%llu-%llu", (unsigned long long)j->filesize_min,
			 (unsigned long long)j->filesize_max);
	return 0;
}

/* ---- workload -------------------------------------------------------- */

static const struct { const char *name; unsigned bits; } rw_names[] = {
	{ "read", RW_READ },
	{ "write", RW_WRITE },
	{ "trim", RW_TRIM },
	{ "randread", RW_READ | RW_RAND },
	{ "randwrite", RW_WRITE | RW_RAND },
	{ "randtrim", RW_TRIM | RW_RAND },
	{ "rw", RW_READ | RW_WRITE },
	{ "readwrite", RW_READ | RW_WRITE },
	{ "randrw", RW_READ | RW_WRITE | RW_RAND },
	{ "trimwrite", RW_TRIM | RW_WRITE | RW_TRIMWRITE },
	{ "randtrimwrite", RW_TRIM | RW_WRITE | RW_TRIMWRITE | RW_RAND },
};

int opt_parse_rw(struct job *j, const struct opt_def *o, const char *val,
		 const struct num_ctx *c, struct err *e)
{
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val), i;
	uint64_t nr = 0;
	int ret, back = 0;

	for (i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++)
		if (strlen(rw_names[i].name) == n && !strncmp(rw_names[i].name, val, n))
			break;
	if (i == sizeof(rw_names) / sizeof(rw_names[0]))
		return num_error(e, c, -EINVAL, val, "not one of read, write, trim, randread, randwrite, "
				 "randtrim, rw, readwrite, randrw, trimwrite, randtrimwrite");
	if (colon) {
		back = colon[1] == '-';
		if (back && (rw_names[i].bits & RW_RAND))
			return num_error(e, c, -EINVAL, val, "a negative modifier needs sequential I/O");
		ret = num_parse_u64(colon + 1 + back, c, &nr, e);
		if (ret)
			return ret;
		if (nr > UINT32_MAX)
			return num_error(e, c, -ERANGE, val, "offset modifier too large");
	}
	j->rw = rw_names[i].bits;
	j->rw_seq_nr = (unsigned)nr;
	j->rw_seq_back = back && nr;
	return 0;
}

int opt_show_rw(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++)
		if (rw_names[i].bits == j->rw)
			break;
	if (i == sizeof(rw_names) / sizeof(rw_names[0]))
		return 1;
	if (j->rw_seq_nr)
		snprintf(buf, len, "%s:%s%u", rw_names[i].name, j->rw_seq_back ? "-" : "",
			 j->rw_seq_nr);
	else
		snprintf(buf, len, "%s", rw_names[i].name);
	return 0;
}

int opt_parse_rwmixwrite(struct job *j, const struct opt_def *o, const char *val,
			 const struct num_ctx *c, struct err *e)
{
	uint64_t v;
	int ret = num_parse_u64(val, c, &v, e);

	if (ret)
		return ret;
	if (v > 100)
		return num_error(e, c, -ERANGE, val, "above the maximum 100");
	j->rwmixread = (uint32_t)(100 - v);
	return 0;
}

int opt_parse_bsrange(struct job *j, const struct opt_def *o, const char *val,
		      const struct num_ctx *c, struct err *e)
{
	uint64_t lo[DDIR_NR], hi[DDIR_NR];
	int d, ret;

	memcpy(lo, j->bs_min, sizeof(lo));
	memcpy(hi, j->bs_max, sizeof(hi));
	ret = num_parse_range_ddir(val, c, lo, hi, e);
	if (ret)
		return ret;
	for (d = 0; d < DDIR_NR; d++)
		if ((lo[d] != j->bs_min[d] || hi[d] != j->bs_max[d]) && !lo[d])
			return num_error(e, c, -EINVAL, val, "a block size of 0");
	memcpy(j->bs_min, lo, sizeof(lo));
	memcpy(j->bs_max, hi, sizeof(hi));
	return 0;
}

int opt_show_bsrange(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t pos = 0;
	int d, plain = 1, same = 1;

	/* unset (0) or equal to bs in every direction: no range to show */
	for (d = 0; d < DDIR_NR; d++) {
		if (!((!j->bs_min[d] && !j->bs_max[d]) ||
		      (j->bs_min[d] == j->bs[d] && j->bs_max[d] == j->bs[d])))
			plain = 0;
		if (j->bs_min[d] != j->bs_min[0] || j->bs_max[d] != j->bs_max[0])
			same = 0;
	}
	if (plain)
		return 1;
	for (d = 0; d < (same ? 1 : DDIR_NR); d++)
		opt_cat(buf, len, &pos, "%s%llu-%llu", d ? "," : "",
			(unsigned long long)j->bs_min[d], (unsigned long long)j->bs_max[d]);
	return 0;
}

int opt_parse_bssplit(struct job *j, const struct opt_def *o, const char *val,
		      const struct num_ctx *c, struct err *e)
{
	return num_parse_bssplit(val, c, j->bssplit, j->bssplit_nr, e);
}

static void show_one_split(const struct job *j, int d, char *buf, size_t len, size_t *pos)
{
	unsigned i;

	for (i = 0; i < j->bssplit_nr[d]; i++)
		opt_cat(buf, len, pos, "%s%llu/%u", i ? ":" : "",
			(unsigned long long)j->bssplit[d][i].bs, j->bssplit[d][i].perc);
}

int opt_show_bssplit(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned i;
	int d, same = 1;

	if (!j->bssplit_nr[0] && !j->bssplit_nr[1] && !j->bssplit_nr[2])
		return 1;
	for (d = 1; d < DDIR_NR; d++) {
		if (j->bssplit_nr[d] != j->bssplit_nr[0])
			same = 0;
		for (i = 0; same && i < j->bssplit_nr[0]; i++)	/* fields: padding may differ */
			if (j->bssplit[d][i].bs != j->bssplit[0][i].bs ||
			    j->bssplit[d][i].perc != j->bssplit[0][i].perc)
				same = 0;
	}
	for (d = 0; d < (same ? 1 : DDIR_NR); d++) {
		if (d)
			opt_cat(buf, len, &pos, ",");
		show_one_split(j, d, buf, len, &pos);
	}
	return 0;
}

int opt_parse_randseed(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	int ret = num_parse_u64(val, c, &j->randseed, e);

	if (!ret)
		j->randseed_set = 1;
	return ret;
}

int opt_show_randseed(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	if (!j->randseed_set)
		return 1;
	snprintf(buf, len, "%llu", (unsigned long long)j->randseed);
	return 0;
}

/*
 * allrandrepeat: fio 3.33 repeats only the offsets with randrepeat=1, and the
 * other streams (directions, sizes) too with allrandrepeat=1.  iotrial's
 * randrepeat repeats them all; given explicitly, allrandrepeat=0 restores
 * fio's split (iogen.c), allrandrepeat=1 repeats everything.
 */
int opt_parse_allrandrepeat(struct job *j, const struct opt_def *o, const char *val,
			    const struct num_ctx *c, struct err *e)
{
	if (val && strcmp(val, "0") && strcmp(val, "1"))
		return num_error(e, c, -EINVAL, val, "a boolean is 0 or 1");
	j->allrandrepeat = !val || val[0] == '1';
	j->allrandrepeat_set = 1;
	return 0;
}

int opt_show_allrandrepeat(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	if (!j->allrandrepeat_set)
		return 1;
	snprintf(buf, len, "%d", j->allrandrepeat);
	return 0;
}

static const char *const rand_dist_names[] = { "random", "zipf", "pareto", "normal" };

int opt_parse_random_distribution(struct job *j, const struct opt_def *o, const char *val,
				  const struct num_ctx *c, struct err *e)
{
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	double p = 0;
	int d, ret;

	if (!strncmp(val, "zoned:", 6))
		return opt_parse_zoned(j, val + 6, c, e);
	if (!strncmp(val, "zoned", 5) || !strncmp(val, "sequence", 8))
		return num_unsupported(e, c, val, "zoned_abs and sequence distributions");
	if (strchr(val, ','))
		return num_unsupported(e, c, val, "per-direction distributions");
	for (d = 0; d < 4; d++)
		if (strlen(rand_dist_names[d]) == n && !strncmp(val, rand_dist_names[d], n))
			break;
	if (d == 4)
		return num_error(e, c, -EINVAL, val, "not one of random, zipf:theta, pareto:h, normal:sigma");
	if (d == RAND_DIST_RANDOM) {
		if (colon)
			return num_error(e, c, -EINVAL, val, "random takes no parameter");
	} else {
		if (!colon)
			return num_error(e, c, -EINVAL, val, "%s needs a parameter (%s:value)",
					 rand_dist_names[d], rand_dist_names[d]);
		if (strchr(colon + 1, ':'))
			return num_unsupported(e, c, val, "a center parameter");
		ret = num_parse_double(colon + 1, c, &p, e);
		if (ret)
			return ret;
		if (d == RAND_DIST_ZIPF && (p <= 0 || p == 1))
			return num_error(e, c, -EINVAL, val, "zipf theta must be above 0 and not 1");
		if (d == RAND_DIST_PARETO && (p <= 0 || p >= 1))
			return num_error(e, c, -EINVAL, val, "pareto h must be between 0 and 1");
		if (d == RAND_DIST_NORMAL && p > 100)
			return num_error(e, c, -EINVAL, val, "normal sigma must be 0..100 (%%)");
	}
	j->random_distribution = (enum rand_dist)d;
	j->rand_param = p;
	return 0;
}

int opt_show_random_distribution(const struct job *j, const struct opt_def *o, char *buf,
				 size_t len)
{
	size_t pos = 0;
	unsigned z;

	if (j->random_distribution == RAND_DIST_ZONED) {
		opt_cat(buf, len, &pos, "zoned");
		for (z = 0; z < j->zone_nr; z++)
			opt_cat(buf, len, &pos, ":%u/%u", j->zone_access[z], j->zone_size[z]);
		return 0;
	}
	if (j->random_distribution == RAND_DIST_RANDOM)
		snprintf(buf, len, "random");
	else
		snprintf(buf, len, "%s:%g", rand_dist_names[j->random_distribution], j->rand_param);
	return 0;
}

/* ---- engine ---------------------------------------------------------- */

/* Engines fio has (3.33 and later) that iotrial does not: refused by name. */
static const char *const fio_engines[] = {
	"cpuio", "sync", "psync", "vsync", "pvsync", "pvsync2", "net", "netsplice",
	"ftruncate", "filecreate", "filestat", "filedelete", "dircreate", "dirstat",
	"dirdelete", "exec", "falloc", "e4defrag", "splice", "gfapi",
	"gfapi_async", "mtd", "sg", "io_uring", "io_uring_cmd", "nbd", "libaio", "rdma",
	"rados", "rbd", "pmemblk", "dev-dax", "libpmem", "http", "libblkio", "xnvme", "nfs",
	"dfs", "libcufile", "libhipfile", "windowsaio", "solarisaio", "guasi", "libiscsi",
	"libhdfs", "ime_psync", "ime_psyncv", "ime_aio", "libzbc", "page_fault", "cpp_null",
	"binject", "syslet-rw", "librpma_apm_client", "librpma_apm_server",
	"librpma_gpspm_client", "librpma_gpspm_server", "skeleton_external", NULL,
};

/* suggest_nearest's list: the engines this build has (engine.h's registry). */
static const char *opt_engine_name_at(size_t i, const void *ctx)
{
	(void)ctx;
	return engine_name_at(i);
}

int opt_engine_check(const char *name, const char *where, struct err *e)
{
	const char *absent, *hint;
	size_t i;

	if (engine_find(name))
		return 0;
	absent = engine_absent_reason(name);
	if (absent)
		return err_set(e, -EINVAL, EXIT_USAGE, "unsupported engine '%s': %s%s%s%s", name,
			       absent, where ? " (" : "", where ? where : "", where ? ")" : "");
	for (i = 0; fio_engines[i]; i++)
		if (!strcmp(fio_engines[i], name))
			break;
	if (fio_engines[i] || !strncmp(name, "external", 8))
		return err_set(e, -EINVAL, EXIT_USAGE, "unsupported engine '%s'%s%s%s", name,
			       where ? " (" : "", where ? where : "", where ? ")" : "");
	hint = suggest_nearest(name, opt_engine_name_at, NULL);
	if (hint)
		return err_set(e, -EINVAL, EXIT_USAGE, "unknown engine '%s' (did you mean '%s'?)%s%s%s",
			       name, hint, where ? " (" : "", where ? where : "", where ? ")" : "");
	return err_set(e, -EINVAL, EXIT_USAGE, "unknown engine '%s'%s%s%s", name,
		       where ? " (" : "", where ? where : "", where ? ")" : "");
}

int opt_parse_ioengine(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	char *s;
	int ret = opt_engine_check(val, c->where, e);

	if (ret)
		return ret;
	s = strdup(val);
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	free(j->ioengine);
	j->ioengine = s;
	return 0;
}

int opt_show_ioengine(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	if (!j->ioengine)
		return 1;
	snprintf(buf, len, "%s", j->ioengine);
	return 0;
}

int opt_parse_buffered(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	uint64_t v;
	int ret = num_parse_u64(val, c, &v, e);

	if (ret)
		return ret;
	if (v > 1)
		return num_error(e, c, -ERANGE, val, "a boolean is 0 or 1");
	j->direct = !v;
	return 0;
}

/* ---- jobs ------------------------------------------------------------ */

int opt_parse_cpus_allowed(struct job *j, const struct opt_def *o, const char *val,
			   const struct num_ctx *c, struct err *e)
{
	char buf[1024], *item, *save = NULL, *dash;
	uint64_t a, b, i;
	cpu_set_t set;
	int ret;

	if (strlen(val) >= sizeof(buf))
		return num_error(e, c, -EINVAL, val, "too long");
	strcpy(buf, val);
	CPU_ZERO(&set);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		ret = num_parse_u64(item, c, &a, e);
		b = a;
		if (!ret && dash)
			ret = num_parse_u64(dash + 1, c, &b, e);
		if (ret)
			return ret;
		if (a > b)
			return num_error(e, c, -EINVAL, val, "CPU range is reversed");
		if (b >= CPU_SETSIZE)
			return num_error(e, c, -ERANGE, val, "CPU numbers go up to %d", CPU_SETSIZE - 1);
		for (i = a; i <= b; i++)
			CPU_SET((int)i, &set);
	}
	if (!CPU_COUNT(&set))
		return num_error(e, c, -EINVAL, val, "no CPU given");
	j->cpus_allowed = set;
	j->cpus_allowed_set = 1;
	return 0;
}

int opt_show_cpus_allowed(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t pos = 0;
	int i, start, first = 1;

	if (!j->cpus_allowed_set)
		return 1;
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, &j->cpus_allowed))
			continue;
		start = i;
		while (i + 1 < CPU_SETSIZE && CPU_ISSET(i + 1, &j->cpus_allowed))
			i++;
		if (start == i)
			opt_cat(buf, len, &pos, "%s%d", first ? "" : ",", i);
		else
			opt_cat(buf, len, &pos, "%s%d-%d", first ? "" : ",", start, i);
		first = 0;
	}
	return 0;
}

/* ---- reporting ------------------------------------------------------- */

int opt_parse_percentile_list(struct job *j, const struct opt_def *o, const char *val,
			      const struct num_ctx *c, struct err *e)
{
	double list[JOB_MAX_PERCENTILES], v;
	char buf[1024], *item, *save = NULL;
	unsigned nr = 0;
	int ret;

	if (strlen(val) >= sizeof(buf))
		return num_error(e, c, -EINVAL, val, "too long");
	strcpy(buf, val);
	for (item = strtok_r(buf, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
		if (nr == JOB_MAX_PERCENTILES)
			return num_error(e, c, -EINVAL, val, "more than %d percentiles",
					 JOB_MAX_PERCENTILES);
		ret = num_parse_double(item, c, &v, e);
		if (ret)
			return ret;
		if (v <= 0 || v > 100)
			return num_error(e, c, -EINVAL, item, "a percentile must be above 0 and at most 100");
		list[nr++] = v;
	}
	if (!nr)
		return num_error(e, c, -EINVAL, val, "no percentile given");
	memcpy(j->percentile_list, list, nr * sizeof(list[0]));
	j->percentile_nr = nr;
	return 0;
}

int opt_show_percentile_list(const struct job *j, const struct opt_def *o, char *buf,
			     size_t len)
{
	size_t pos = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < j->percentile_nr; i++)
		opt_cat(buf, len, &pos, "%s%g", i ? ":" : "", j->percentile_list[i]);
	return 0;
}

