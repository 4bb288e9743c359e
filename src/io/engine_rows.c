/*
 * engine_rows: the engine option rows several engines list (engine_rows.h).
 */
#include "io/engine_rows.h"

const struct opt_def engine_rows_hipri[] = {
	{ .name = "hipri", .type = OPT_FLAG, OPT_FIELD(hipri),
	  .help = "polled completions (io_uring IOPOLL, pvsync2 RWF_HIPRI)" },
	{ .name = NULL },
};

const struct opt_def engine_rows_force_async[] = {
	{ .name = "force_async", .type = OPT_INT, OPT_FIELD(force_async),
	  .help = "every Nth submission is punted to the kernel's async workers (IOSQE_ASYNC; "
		  "0 = none)" },
	{ .name = NULL },
};
