/*
 * report_html_sweep: the HTML page of a sweep (iotrial sweep --html=FILE,
 * docs/sweep.md): latency from each I/O's due time against the achieved
 * throughput, one line per configuration and percentile (p50 and the SLO's,
 * p99 without one), the SLO as a horizontal line and each configuration's
 * knee marked; an ab sweep draws both sides on one chart, with the
 * comparison's verdict on the SLO capacity above it.  Inline SVG, no scripts.
 */
#ifndef IOTRIAL_REPORT_HTML_SWEEP_H
#define IOTRIAL_REPORT_HTML_SWEEP_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/*
 * The page for @n sweeps (sweep_json's documents; @names label their lines:
 * "A", "B"), and @cmp (compare_json of the two, or NULL).  0, or -ENOMEM;
 * write errors are left in @f.
 */
int report_html_sweep(FILE *f, const json_t *const *sweeps, const char *const *names, size_t n,
		      const json_t *cmp);

#endif
