/*
 * sweep_ab: an ab sweep (`iotrial sweep --a OPTS --b OPTS <job>`): the same
 * job swept for two configurations, each side's options set in every job as
 * ab sets them (abrun_side_args, abrun_side_set), two sides that resolve to
 * the same jobs refused (abside_jobs), and the two sweeps' SLO capacities
 * compared as `iotrial compare` compares two sweeps (slo.iops, compare.h).
 * The sides are swept one after the other, A then B, each in its own
 * directory: a sweep steps one side's offered load from its own capacity,
 * so its steps cannot be paired with the other's.  Nothing here prints.
 */
#ifndef IOTRIAL_SWEEP_AB_H
#define IOTRIAL_SWEEP_AB_H

#include <stddef.h>
#include <jansson.h>
#include "lib/err.h"
#include "trial/compare_types.h"	/* struct compare_report */
#include "trial/sweep.h"

struct sweep_ab_sides {
	char **args[2];		/* [0] A, [1] B: the job's arguments, then the side's --set=... */
	size_t nargs[2];
};

/*
 * Each side's arguments: @job (as typed), then the side's options (@spec:
 * "key=value,..." or a job file, as ab's --a/--b) as --set=key=value.  0,
 * or -EINVAL with @e filled (EXIT_USAGE): a bad spec, or two sides that
 * resolve to the same jobs.  Free with sweep_ab_sides_free.
 */
int sweep_ab_sides(const char *a_spec, const char *b_spec, char *const *job, size_t njob,
		   struct sweep_ab_sides *s, struct err *e);

void sweep_ab_sides_free(struct sweep_ab_sides *s);

/*
 * Compare the two sweeps (@r[0] A, @r[1] B) as `iotrial compare` does their
 * sweep.json files: *@out has slo.iops when both have an SLO capacity.  The
 * report points into the two documents read back, returned in @rr: free
 * them with resultread_free() after compare_report_free(*@out), never before.
 * 0, or -errno with @e filled (@rr then freed and NULL).
 */
int sweep_ab_compare(const struct sweep_result *r, const struct compare_opts *o,
		     struct resultread *rr[2], struct compare_report *out, struct err *e);

/* {"a": sweep A (sweep_json, plus "options"), "b": ..., "compare": compare_json}.  NULL: ENOMEM. */
json_t *sweep_ab_json(const struct sweep_result *r, const char *const spec[2],
		      const struct compare_report *rep);

#endif
