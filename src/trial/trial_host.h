/*
 * trial_host: the host's view of a run driven from the host into a QEMU
 * guest (ab --host-qmp, and the plain run's --runner --host-qmp): QEMU
 * sampled through the run (env/hostview_series.h) and joined into the
 * run's result as "iotrial.host" over the guest's measured window
 * (docs/vm.md).  The runner never sees --host-qmp: it belongs to the host.
 */
#ifndef IOTRIAL_TRIAL_HOST_H
#define IOTRIAL_TRIAL_HOST_H

#include <jansson.h>
#include <stddef.h>

#include "env/hostview_series.h"
#include "lib/err.h"

/*
 * The period to sample the host at for a run of @args (@n of them, fio
 * options as the runner gets them): the shortest series_interval of its
 * jobs as iotrial parses them, in seconds; 1 (the default interval) when
 * they cannot be parsed here (a job file that is only in the guest).
 */
double trial_host_period(char *const *args, size_t n);

/*
 * Join the samples @s with the guest's result @doc (iotrial's JSON; @name
 * names it in messages): "iotrial.host" set in @doc.  0, or -errno with @e
 * filled (@doc is then unchanged).
 */
int trial_host_join_doc(json_t *doc, const char *name, const struct hostview_series *s,
			struct err *e);

/*
 * The same on the result file @path, written back whole (outfile).  0, or
 * -errno with @e filled (the result is then left as it was).
 */
int trial_host_attach(const char *path, const struct hostview_series *s, struct err *e);

#endif
