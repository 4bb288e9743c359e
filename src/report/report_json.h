/*
 * report_json: a run_result as fio 3.33's JSON document (--output-format=json
 * and json+), so that scripts written for fio read iotrial's output unchanged.
 *
 * Every key fio writes is here, with fio's names, nesting, order and types
 * (integers as JSON integers, rates and means as reals).  iotrial's additions
 * live in "iotrial" objects (top level and per job) that fio readers ignore.
 * Where fio's numbers are wrong or lossy we keep its keys but write the exact
 * value (see report_calc.h: latency and depth percentages).
 */
#ifndef IOTRIAL_REPORT_JSON_H
#define IOTRIAL_REPORT_JSON_H

#include <stdio.h>
#include <jansson.h>
#include "lib/err.h"
#include "result/result.h"

/*
 * Build the document for @r; @plus adds json+ latency "bins".  Returns a new
 * reference (the caller json_decref()s it), or NULL with @e filled (EXIT_INTERNAL,
 * out of memory).  For callers that embed or post-process the document.
 */
json_t *report_json_build(const struct run_result *r, int plus, struct err *e);

/*
 * Write the document for @r to @f, indented like fio, ending with a newline.
 * Never prints anywhere else.  Returns 0, or -errno with @e filled
 * (EXIT_OUTPUT when @f fails, EXIT_INTERNAL when out of memory).
 */
int report_json_write(FILE *f, const struct run_result *r, int plus, struct err *e);

#endif
