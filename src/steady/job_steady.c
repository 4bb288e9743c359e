/*
 * job_steady: the stop and reporting rules of a job (see job_steady.h).
 * The criterion itself (rounds, windows, what "attained" means) is steady.c's;
 * this file only decides which one applies and with which numbers.
 */
#include "steady/job_steady.h"

#include <errno.h>	/* EINVAL */
#include <string.h>	/* memset */

int job_steady_has_fio(const struct job *j)
{
	return j->ss_dur_us > 0;
}

enum ss_report job_steady_report(const struct job *j)
{
	if (j->steady_report != SS_REPORT_AUTO)
		return j->steady_report;
	return job_steady_has_fio(j) ? SS_REPORT_FIO : SS_REPORT_SNIA;
}

static void job_steady_off(struct steady_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->rule = STEADY_OFF;
	c->ddir = -1;
}

static int job_steady_snia(const struct job *j, struct steady_cfg *c, struct err *e)
{
	uint64_t iv = j->interval_us ? j->interval_us : 1000000;

	if (j->snia_window < 2)
		return job_err(e, j, "snia_window %u is below 2 rounds", j->snia_window);
	if (j->snia_round_us % iv)
		return job_err(e, j, "snia_round %lluus is not a multiple of series_interval %lluus",
				      (unsigned long long)j->snia_round_us, (unsigned long long)iv);
	steady_cfg_snia(c, iv);
	c->window = j->snia_window;
	c->range_pct = j->snia_range_pct;
	c->excursion_pct = j->snia_slope_pct;
	c->metric = j->snia_metric == SNIA_METRIC_BW ? STEADY_BW
		  : j->snia_metric == SNIA_METRIC_LAT ? STEADY_LAT : STEADY_IOPS;
	if (j->snia_round_us) {
		c->round_intervals = (unsigned)(j->snia_round_us / iv);
		c->round_us = j->snia_round_us;
	}
	return 0;
}

static int job_steady_fio(const struct job *j, struct steady_cfg *c, struct err *e)
{
	if (steady_cfg_from_job(c, j))
		return job_err(e, j, "series_interval %lluus does not divide one second, "
				      "which fio's ss= rounds need",
				      (unsigned long long)j->interval_us);
	if (c->rule != STEADY_FIO)
		return job_err(e, j, "steady_report=fio needs fio's rule: steadystate_duration "
				      "(ss_dur) is not set");
	return 0;
}

int job_steady_cfg(const struct job *j, int for_stop, struct steady_cfg *c, struct err *e)
{
	enum ss_report r = job_steady_report(j);
	int ret = 0;

	job_steady_off(c);
	if (for_stop)
		r = job_steady_has_fio(j) ? SS_REPORT_FIO : j->snia_stop ? SS_REPORT_SNIA : SS_REPORT_NONE;
	if (r == SS_REPORT_FIO)
		ret = job_steady_fio(j, c, e);
	else if (r == SS_REPORT_SNIA)
		ret = job_steady_snia(j, c, e);
	if (ret)
		job_steady_off(c);
	return ret;
}
