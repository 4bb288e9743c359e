/*
 * resultread_sweep: a sweep's document (iotrial sweep's JSON, DIR/sweep.json;
 * docs/sweep.md) summarised for compare and the history: no jobs, the SLO
 * capacity with its interval, the knee, and where and when it ran.
 */
#include "result/resultread.h"
#include "result/resultread_int.h"
#include <math.h>

/*
 * A sweep's document: the SLO capacity and its interval, the knee.  A sweep
 * whose SLO no step kept has no slo.iops (absent, as a metric a run lacks).
 */
int resultread_sweep_read(struct load_ctx *c, struct resultread *r, const json_t *root)
{
	const json_t *slo = json_object_get(root, "slo");
	const json_t *ci = json_object_get(slo, "ci");
	struct resultread_sweep *s = &r->sweep;
	int k;

	if (!json_is_number(json_object_get(root, "capacity_iops")))
		return bad(c, "%s", "not a sweep result: no \"capacity_iops\"", (size_t)-1);
	s->is = 1;
	s->slo_iops = s->slo_lo = s->slo_hi = s->slo_next = s->knee_iops = NAN;
	s->knee_iops = jnum(root, "knee_iops", NAN);
	s->batches = (unsigned)jnum(root, "batches", 0);
	if (json_is_object(slo)) {
		s->slo_pct = jnum(slo, "percentile", NAN);
		s->slo_target_ns = jnum(slo, "target_ns", NAN);
		s->slo_iops = jnum(slo, "iops", NAN);
		s->slo_next = jnum(slo, "next_step_iops", NAN);
		if (json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) &&
		    json_is_number(json_array_get(ci, 1))) {
			s->slo_lo = json_number_value(json_array_get(ci, 0));
			s->slo_hi = json_number_value(json_array_get(ci, 1));
		}
		s->has_slo = isfinite(s->slo_iops) && s->slo_iops > 0 && isfinite(s->slo_pct) &&
			     isfinite(s->slo_target_ns);
		if (!s->has_slo)
			s->slo_iops = NAN;
	}
	copy_str(r->version, sizeof(r->version), "iotrial sweep");
	/* where and when it ran, from its first run (sweep.h): what the history keys it by */
	if (json_is_object(json_object_get(root, "environment")))
		r->env = json_incref(json_object_get(root, "environment"));
	resultread_host_read(r, NULL);	/* no host's view: its figures NAN, not 0 */
	r->nranks = 1;
	r->cpu_per_io_ns = NAN;
	for (k = 0; k < RESULTREAD_NDIR; k++) {
		r->dir[k].lat_mean_ns = r->dir[k].lat_p99_ns = r->dir[k].interval_cv = NAN;
		r->tail[k].lat_mean_ns = r->tail[k].lat_p99_ns = NAN;
	}
	r->options = json_object();
	if (!r->options)
		return err_set(c->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	/* its first run's start: compare orders by it, the history stores it */
	r->timestamp_ms = resultread_timestamp_of(root);
	return 0;
}
