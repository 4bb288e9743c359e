/*
 * trial_host: the host's view joined with a run's result (see trial_host.h).
 */
#include "trial/trial_host.h"
#include "analysis/bottleneck.h"	/* the guest's device figures and breakdown */
#include "lib/outfile.h"
#include "result/resultread.h"

#include <errno.h>
#include <math.h>

/* The guest's I/O count, device time per request and breakdown parts from its result. */
static void guest_figures(const json_t *doc, const char *path, struct hostview_guest *g)
{
	struct resultread *r = NULL;
	struct breakdown b;
	double qd;

	g->ios = g->dev_lat_ns = g->tool_ns = g->io_path_ns = NAN;
	if (resultread_from_json(doc, path, &r, NULL))
		return;
	g->ios = 0;
	for (int d = 0; d < RESULTREAD_NDIR; d++)
		g->ios += (double)r->dir[d].ios;
	if (bottleneck_device_figures(r, &g->dev_lat_ns, &qd, NULL, 0))
		g->dev_lat_ns = NAN;
	if (!bottleneck_result_breakdown(r, 0, &b) && b.valid) {
		g->tool_ns = 0;
		for (int p = BD_TOOL_USER; p <= BD_CPU_WAIT; p++)
			g->tool_ns += isnan(b.part[p].ns) ? 0 : b.part[p].ns;
		g->io_path_ns = b.part[BD_IO_PATH].ns;
	}
	resultread_free(r);
}

int trial_host_attach(const char *path, const struct hostview_cfg *c,
		      const struct hostview_sample *a, const struct hostview_sample *b,
		      struct err *e)
{
	struct hostview_guest g;
	struct outfile of;
	json_t *doc, *host, *iot;

	if (resultread_load_json(path, &doc, e))
		return -EINVAL;
	guest_figures(doc, path, &g);
	host = hostview_join(c, a, b, &g, e);
	if (!host) {
		json_decref(doc);
		return -ENOENT;
	}
	iot = json_object_get(doc, "iotrial");
	if (!json_is_object(iot)) {	/* an "iotrial" object would make fio's result ours */
		json_decref(host);
		json_decref(doc);
		return err_set(e, -EINVAL, EXIT_USAGE, "--host-qmp: %s is not iotrial's result (fio's?): "
			       "the host's view is kept only in iotrial's", path);
	}
	json_object_set_new(iot, "host", host);
	if (outfile_open(&of, path, e)) {
		json_decref(doc);
		return -EIO;
	}
	if (json_dumpf(doc, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) || fputc('\n', of.f) == EOF) {
		outfile_abort(&of);
		json_decref(doc);
		return err_set(e, -EIO, EXIT_OUTPUT, "ab: cannot write %s", path);
	}
	json_decref(doc);
	return outfile_commit(&of, e) ? -EIO : 0;
}
