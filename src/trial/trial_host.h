/*
 * trial_host: the host's view of each run of a trial driven from the host
 * (ab --host-qmp): QEMU sampled around the run (env/hostview.h) and joined
 * into the run's result as "iotrial.host" (docs/vm.md).  The runner never
 * sees --host-qmp: it belongs to the host.
 */
#ifndef IOTRIAL_TRIAL_HOST_H
#define IOTRIAL_TRIAL_HOST_H

#include "env/hostview.h"
#include "lib/err.h"

/*
 * Join samples @a and @b around the run whose result is @path with that
 * result, and write it back with "iotrial.host" added (whole, through
 * outfile).  0, or -errno with @e filled (the result is then left as it was).
 */
int trial_host_attach(const char *path, const struct hostview_cfg *c,
		      const struct hostview_sample *a, const struct hostview_sample *b,
		      struct err *e);

#endif
