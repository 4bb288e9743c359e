/*
 * engine_rows: the engine option rows several engines list (engine_rows.h).
 */
#include "io/engine_rows.h"

const struct opt_def engine_rows_hipri[] = {
	{ .name = "hipri", .type = OPT_FLAG, OPT_FIELD(hipri),
	  .help = "polled completions (io_uring IOPOLL, pvsync2 RWF_HIPRI)" },
	{ .name = NULL },
};
