/*
 * plausibility: the plausibility checks on a result (methodology.md section 5).
 *
 * Each check that fires adds a warning: a stable id, a severity and one line
 * of text that carries its numbers, so that a reader can verify the claim.
 * The checks read a resultread summary, so they work the same on iotrial's
 * results and on fio's.  What is checked (ids in brackets):
 *   [littles_law]  sum over directions of IOPS x mean latency (I/Os in flight
 *                  on average) against numjobs x iodepth: a shortfall below
 *                  75% means something other than the device limited the load
 *                  (load generator, CPU, rate limit, think time, an engine
 *                  that cannot queue); an excess above 110% means the figures
 *                  are inconsistent.  Synchronous engines (psync, fio's
 *                  default) and libaio without direct=1 keep one I/O per job.
 *   [mix]          read share of I/Os against rwmixread (50% when not set)
 *                  for mixed jobs, beyond 5 percentage points.
 *   [page_cache]   buffered I/O (direct=0), mean read latency under 5 us, or
 *                  (when the environment is known) a working set below RAM.
 *   [short_run]    under 10 s of measured time.
 *   [few_samples]  under 10 interval samples per job.
 *   [interval_cv]  IOPS coefficient of variation across intervals above 10%.
 *   [steady_state] a steady-state criterion that was not attained.
 *   [bottleneck]   who limited each job, from disk_util (bottleneck.h): results
 *                  without iotrial's own per-job verdict (fio's).
 *   [steady_lost]  steady state reached, then a later round left the
 *                  window's band (steady.h: held / lost_ms).
 *   [clock]        TSC timing on a CPU without constant_tsc / nonstop_tsc.
 *   [job_error], [partial]  the run itself failed or was cut short.
 * compare adds its own ([single_run], [few_runs], [job_differs], ...).
 */
#ifndef IOTRIAL_PLAUSIBILITY_H
#define IOTRIAL_PLAUSIBILITY_H

#include <stddef.h>
#include <jansson.h>	/* json_t */
#include "result/resultread.h"

enum plausibility_sev { PLAUSIBILITY_INFO, PLAUSIBILITY_WARN };

struct plausibility_item {
	char id[24];
	enum plausibility_sev sev;
	char msg[512];
	char brief[96];		/* the same, short, with its number ("2.0 s run (< 10 s)"): "" none */
};

struct plausibility_list {
	struct plausibility_item *v;
	size_t n, cap;
};

/* Thresholds, kept in one place so the help text and the tests agree. */
#define PLAUSIBILITY_LITTLE_LOW 0.75
#define PLAUSIBILITY_LITTLE_HIGH 1.10
#define PLAUSIBILITY_MIX_POINTS 5.0
#define PLAUSIBILITY_CACHE_LAT_NS 5000.0
#define PLAUSIBILITY_SHORT_MS 10000
#define PLAUSIBILITY_FEW_SAMPLES 10
#define PLAUSIBILITY_CV_LIMIT 0.10

void plausibility_list_init(struct plausibility_list *l);
void plausibility_list_free(struct plausibility_list *l);

/* Append a warning (printf-style message).  Returns 0 or -ENOMEM. */
int plausibility_add(struct plausibility_list *l, const char *id, enum plausibility_sev sev,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Run every per-result check on @r, appending to @out.  Returns 0 or -ENOMEM. */
int plausibility_check(const struct resultread *r, struct plausibility_list *out);

/*
 * Give the item plausibility_add just added its short form (printf-style), for
 * renderers that put it beside the figures it qualifies.  @added is
 * plausibility_add's result, returned as it is (nothing is set when it failed):
 * return plausibility_brief(plausibility_add(l, ...), l, "...", ...).
 */
int plausibility_brief(int added, struct plausibility_list *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *plausibility_sev_name(enum plausibility_sev s);

/* [{"id", "severity", "message", "brief" (when set)}, ...]; NULL on allocation failure. */
json_t *plausibility_list_json(const struct plausibility_list *l);

#endif
