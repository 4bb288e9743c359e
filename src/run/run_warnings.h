/*
 * run_warnings: the plausibility checks on a run's own result (see
 * plausibility.h for what is checked), stored as a JSON array in
 * run_result.warnings so that the text and JSON writers both show them.
 */
#ifndef IOTRIAL_RUN_WARNINGS_H
#define IOTRIAL_RUN_WARNINGS_H

#include "lib/err.h"
#include "result/result.h"

/*
 * Judge who limited each job (bottleneck_run, into @r's jobs), then fill
 * r->warnings.  0, or -errno with @e filled.
 */
int run_warnings(struct run_result *r, struct err *e);

#endif
