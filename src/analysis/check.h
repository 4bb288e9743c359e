/*
 * check: plausibility checks on a result (methodology.md section 5).
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
#ifndef IOTRIAL_SRC_CHECK_H	/* not IOTRIAL_CHECK_H: the test harness uses that */
#define IOTRIAL_SRC_CHECK_H

#include <stddef.h>
#include <jansson.h>	/* json_t */
#include "result/resultread.h"

enum check_sev { CHECK_SEV_INFO, CHECK_SEV_WARN };

struct check_item {
	char id[24];
	enum check_sev sev;
	char msg[512];
	char brief[96];		/* the same, short, with its number ("2.0 s run (< 10 s)"): "" none */
};

struct check_list {
	struct check_item *v;
	size_t n, cap;
};

/* Thresholds, kept in one place so the help text and the tests agree. */
#define CHECK_LITTLE_LOW 0.75
#define CHECK_LITTLE_HIGH 1.10
#define CHECK_MIX_POINTS 5.0
#define CHECK_CACHE_LAT_NS 5000.0
#define CHECK_SHORT_MS 10000
#define CHECK_FEW_SAMPLES 10
#define CHECK_CV_LIMIT 0.10

void check_list_init(struct check_list *l);
void check_list_free(struct check_list *l);

/* Append a warning (printf-style message).  Returns 0 or -ENOMEM. */
int check_add(struct check_list *l, const char *id, enum check_sev sev,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Run every per-result check on @r, appending to @out.  Returns 0 or -ENOMEM. */
int check_result(const struct resultread *r, struct check_list *out);

/*
 * Give the item check_add just added its short form (printf-style), for
 * renderers that put it beside the figures it qualifies.  @added is
 * check_add's result, returned as it is (nothing is set when it failed):
 * return check_brief(check_add(l, ...), l, "...", ...).
 */
int check_brief(int added, struct check_list *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *check_sev_name(enum check_sev s);

/* [{"id", "severity", "message", "brief" (when set)}, ...]; NULL on allocation failure. */
json_t *check_list_json(const struct check_list *l);

#endif
