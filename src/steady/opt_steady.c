/*
 * opt_steady: the option-table callbacks for steady state (fio's ss=, iotrial's
 * steady_report and snia_* percentages) and unified_rw_reporting, kept apart
 * from opt_table.c so that file stays a table.  Each has the opt_def parse/show
 * signature (opt.h).
 */
#include "model/opt_def.h"
#include <errno.h>	/* EINVAL, ERANGE, ENOMEM */
#include <stdio.h>	/* snprintf, vsnprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strcmp, strchr, strdup */
#include <strings.h>	/* strcasecmp */
#include "steady/job_steady.h"	/* job_steady_report: steady_report shows its resolved value */
#include "steady/opt_steady.h"

/* ---- steady state ---------------------------------------------------- */

static const char *const ss_names[] = { "none", "iops", "iops_slope", "bw", "bw_slope" };

int opt_parse_steadystate(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e)
{
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val), len;
	char num[64];
	double limit;
	int m, pct = 0, ret;

	if (!strncmp(val, "lat", 3) && (val[3] == ':' || val[3] == '_' || !val[3]))
		return num_unsupported(e, c, val, "latency criteria");
	for (m = SS_IOPS; m <= SS_BW_SLOPE; m++)
		if (strlen(ss_names[m]) == n && !strncmp(val, ss_names[m], n))
			break;
	if (m > SS_BW_SLOPE)
		return num_error(e, c, -EINVAL, val, "not one of iops, iops_slope, bw, bw_slope");
	if (!colon || !colon[1])
		return num_error(e, c, -EINVAL, val, "needs a limit (%s:N or %s:N%%)",
				 ss_names[m], ss_names[m]);
	len = strlen(colon + 1);
	if (len >= sizeof(num))
		return num_error(e, c, -EINVAL, val, "limit too long");
	memcpy(num, colon + 1, len + 1);
	if (num[len - 1] == '%') {
		pct = 1;
		num[len - 1] = '\0';
	}
	ret = num_parse_double(num, c, &limit, e);
	if (ret)
		return ret;
	j->ss_metric = (enum ss_metric)m;
	j->ss_limit = limit;
	j->ss_pct = pct;
	return 0;
}

int opt_debug_steadystate(const char *val, char *buf, size_t len)
{
	struct num_ctx c = { .kb_base = 1024, .opt = "steadystate", .where = NULL };
	struct job j;
	struct err e;

	memset(&j, 0, sizeof(j));
	if (opt_parse_steadystate(&j, NULL, val, &c, &e))
		return snprintf(buf, len, "%s", e.msg);
	if (j.ss_pct)
		return snprintf(buf, len, "set steady state threshold to %f%%", j.ss_limit);
	if (j.ss_metric == SS_IOPS || j.ss_metric == SS_IOPS_SLOPE)
		return snprintf(buf, len, "set steady state IOPS threshold to %f", j.ss_limit);
	return snprintf(buf, len, "set steady state BW threshold to %llu",
			(unsigned long long)j.ss_limit);
}

int opt_show_steadystate(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	if (j->ss_metric == SS_NONE || (unsigned)j->ss_metric > SS_BW_SLOPE)
		return 1;
	snprintf(buf, len, "%s:%g%s", ss_names[j->ss_metric], j->ss_limit, j->ss_pct ? "%" : "");
	return 0;
}

/*
 * unified_rw_reporting: none (0) reports per direction, mixed (1) only the
 * directions summed (fio's "mixed"), both (2) the two.
 */
int opt_parse_unified_rw(struct job *j, const struct opt_def *o, const char *val,
			    const struct num_ctx *c, struct err *e)
{
	static const char *const names[] = { "none", "mixed", "both" };

	for (int k = 0; k < 3; k++)
		if (!strcasecmp(val, names[k]) || (val[0] == '0' + k && !val[1])) {
			j->unified_rw_reporting = k;
			return 0;
		}
	return num_error(e, c, -EINVAL, val, "not one of none, 0, mixed, 1, both, 2");
}

int opt_show_unified_rw(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	static const char *const names[] = { "none", "mixed", "both" };

	if (j->unified_rw_reporting < 0 || j->unified_rw_reporting > 2)
		return 1;
	snprintf(buf, len, "%s", names[j->unified_rw_reporting]);
	return 0;
}

/* steady_report: shown resolved, so a job with ss= lists "fio". */
static const struct opt_choice steady_report_choices[] = {
	{ "snia", SS_REPORT_SNIA }, { "fio", SS_REPORT_FIO }, { "none", SS_REPORT_NONE },
	{ NULL, 0 },
};

int opt_parse_steady_report(struct job *j, const struct opt_def *o, const char *val,
			       const struct num_ctx *c, struct err *e)
{
	size_t i;

	for (i = 0; steady_report_choices[i].name; i++) {
		if (!strcasecmp(val, steady_report_choices[i].name)) {
			j->steady_report = (enum ss_report)steady_report_choices[i].val;
			return 0;
		}
	}
	return num_error(e, c, -EINVAL, val, "not one of snia, fio, none");
}

int opt_show_steady_report(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	enum ss_report r = job_steady_report(j);
	size_t i;

	for (i = 0; steady_report_choices[i].name; i++) {
		if (steady_report_choices[i].val == (int)r) {
			snprintf(buf, len, "%s", steady_report_choices[i].name);
			return 0;
		}
	}
	return 1;
}

/* snia_range, snia_slope: a percentage in (0, 100], "%" optional. */
int opt_parse_snia_pct(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	char num[64];
	size_t len = strlen(val);
	double v;
	int ret;

	if (len >= sizeof(num))
		return num_error(e, c, -EINVAL, val, "too long");
	memcpy(num, val, len + 1);
	if (len > 1 && num[len - 1] == '%')
		num[len - 1] = '\0';
	/* the message names the value as typed, "%" included */
	ret = num_parse_double(num[0] == '-' ? num + 1 : num, c, &v, NULL);
	if (!ret && num[0] == '-')
		v = -v;
	if (ret)
		return num_error(e, c, ret, val, "not a number (a percentage: 20 or 20%%)");
	if (!(v > 0 && v <= 100))
		return num_error(e, c, -ERANGE, val, "a percentage above 0 and at most 100");
	memcpy((char *)j + o->off, &v, sizeof(v));
	return 0;
}

int opt_show_snia_pct(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	double v;

	memcpy(&v, (const char *)j + o->off, sizeof(v));
	snprintf(buf, len, "%g", v);
	return 0;
}

