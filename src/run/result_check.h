/*
 * result_check: plausibility checks on a run's own result (see check.h for
 * what is checked), stored as a JSON array in run_result.warnings so that the
 * text and JSON writers both show them.
 */
#ifndef IOTRIAL_RESULT_CHECK_H
#define IOTRIAL_RESULT_CHECK_H

#include "lib/err.h"
#include "result/result.h"

/* Fill r->warnings.  0, or -errno with @e filled. */
int result_check(struct run_result *r, struct err *e);

#endif
