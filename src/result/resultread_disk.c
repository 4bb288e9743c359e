/*
 * resultread_disk: fio's disk_util entries (the devices the kernel saw
 * busy, their counters) and iotrial's view of each over the measured time.
 */
#include "result/resultread.h"
#include "result/resultread_int.h"
#include <math.h>
#include <stdlib.h>	/* calloc */

/* fio's disk_util names: the devices the kernel saw busy, for compare's diff. */
void resultread_disk_names(struct resultread *r, const json_t *du)
{
	size_t i, off = 0;
	json_t *d;

	json_array_foreach((json_t *)du, i, d) {
		const char *name = json_string_value(json_object_get(d, "name"));
		int n;

		if (!name)
			continue;
		n = snprintf(r->disks + off, sizeof(r->disks) - off, "%s%s", off ? "," : "", name);
		if (n < 0 || (size_t)n >= sizeof(r->disks) - off)
			break;
		off += (size_t)n;
	}
}

/* A disk_util counter: a number in [0, 2^64), else the file is refused naming it. */
static int du_u64(struct load_ctx *c, const json_t *d, const char *key, size_t i, uint64_t *out)
{
	double x = jnum(d, key, 0);

	if (!(isfinite(x) && x >= 0 && x <= RR_U64_LIMIT))
		return err_set(c->e, -ERANGE, EXIT_USAGE, "%s: disk_util[%zu]: \"%s\" = %.15g is out "
			       "of range (0 to %.15g)", c->name, i, key, x, RR_U64_LIMIT);
	*out = (uint64_t)x;
	return 0;
}

/* disk_util's counters, and iotrial's measured-time view when present (docs/json.md, the device view). */
int resultread_disk_read(struct load_ctx *c, struct resultread *r, const json_t *du)
{
	size_t i, n = json_array_size(du);
	json_t *d;

	if (!n)
		return 0;
	r->du = calloc(n, sizeof(*r->du));
	if (!r->du)
		return -ENOMEM;
	json_array_foreach((json_t *)du, i, d) {
		struct resultread_disk *x = &r->du[r->nr_du];
		const json_t *v = json_object_get(d, "iotrial");

		if (!json_is_object(d))
			continue;
		copy_str(x->name, sizeof(x->name), json_string_value(json_object_get(d, "name")));
		if (du_u64(c, d, "read_ios", i, &x->read_ios) ||
		    du_u64(c, d, "write_ios", i, &x->write_ios) ||
		    du_u64(c, d, "read_ticks", i, &x->read_ticks) ||
		    du_u64(c, d, "write_ticks", i, &x->write_ticks) ||
		    du_u64(c, d, "in_queue", i, &x->in_queue))
			return -ERANGE;
		x->util = jnum(d, "util", 0);
		if (json_is_object(v)) {
			x->has_view = 1;
			x->read_lat_ns = jnum(v, "read_lat_ns_mean", 0);
			x->write_lat_ns = jnum(v, "write_lat_ns_mean", 0);
			x->read_qd = jnum(v, "read_queue_depth", 0);
			x->write_qd = jnum(v, "write_queue_depth", 0);
			x->qd = jnum(v, "queue_depth", 0);
			x->view_util = jnum(v, "util", 0);
		}
		r->nr_du++;
	}
	return 0;
}
