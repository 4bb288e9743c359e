/*
 * job_steady: a job's steady-state options turned into steady.h's rules.
 *
 * A job can carry two rules.  fio's ss= (with ss_dur, see steady.h) is a
 * stop rule; SNIA PTS's criterion (snia_window, snia_range, snia_slope,
 * snia_round, snia_metric) is iotrial's.  Two questions are asked of them:
 *
 *  - Stop rule: when does the job stop early?  fio's ss= when the job has it,
 *    else SNIA when snia_stop=1, else never.  (A job with both is refused by
 *    opt_job_validate: two stop rules would leave one silently unused.)
 *  - Reporting rule: which window does the report call steady?  steady_report
 *    says: snia, fio or none; by default fio's when the job has ss=, so a fio
 *    job reports the window that stopped it, else SNIA's.
 *
 * "Has ss=" means ss_dur > 0: fio ignores ss= without a duration, and
 * opt_job_validate gives ss_dur alone fio's default criterion.
 */
#ifndef IOTRIAL_JOB_STEADY_H
#define IOTRIAL_JOB_STEADY_H

#include "lib/err.h"
#include "model/job.h"
#include "steady/steady.h"

/* True when @j carries fio's ss= stop rule (ss_dur > 0). */
int job_steady_has_fio(const struct job *j);

/* The reporting rule steady_report resolves to: SNIA, FIO or NONE, never AUTO. */
enum ss_report job_steady_report(const struct job *j);

/*
 * Fill @c with @j's stop rule (@for_stop = 1) or reporting rule (0); rule
 * STEADY_OFF when there is none.  @j must have passed opt_job_validate().
 * SNIA: steady_cfg_snia() with the job's window, limits, metric and rounds of
 * snia_round (which must be a multiple of series_interval).  fio:
 * steady_cfg_from_job().  Returns 0, or -EINVAL with @e filled (EXIT_USAGE,
 * naming the job): snia_window below 2, snia_round not a multiple of the
 * interval, fio's rule with an interval that does not divide a second,
 * steady_report=fio on a job without ss=.
 */
int job_steady_cfg(const struct job *j, int for_stop, struct steady_cfg *c, struct err *e);

#endif
