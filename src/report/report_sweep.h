/*
 * report_sweep: a sweep's report from its document (`iotrial report
 * sweep.json`, docs/sweep.md), as text or as the HTML page, for one sweep
 * (sweep_json's document, as --output-format=json or DIR/sweep.json has it)
 * or an ab sweep ({"a": sweep, "b": sweep, "compare": ...}).  The text is
 * what `iotrial sweep` printed: the document is read back into the sweep's
 * own result (sweep_from_json) and written by the same code; an ab sweep's
 * comparison is computed again from its two sweeps, as the sweep did.
 * Writes to the FILE it is given, nothing else.
 */
#ifndef IOTRIAL_REPORT_SWEEP_H
#define IOTRIAL_REPORT_SWEEP_H

#include <stdio.h>
#include <jansson.h>
#include "lib/err.h"
#include "trial/compare_types.h"	/* struct compare_report */
#include "trial/sweep.h"

/* Is @doc a sweep's document, or an ab sweep's?  (0: neither) */
int report_sweep_is(const json_t *doc);

/*
 * The report of @doc (@name names it in messages) into @f: text, or with
 * @html the page.  0; -EINVAL with @e filled (EXIT_USAGE) when @doc is not
 * a sweep's or an ab sweep's document, or a part of it is missing or wrong
 * (named); -ENOMEM; -EIO when writing failed.
 */
int report_sweep_write(FILE *f, const json_t *doc, const char *name, int html, struct err *e);

/*
 * An ab sweep's text: each side's table (@spec: its options, @r its sweep),
 * then the comparison @rep.  0, or -EIO.
 */
int report_sweep_ab_text(FILE *f, const struct sweep_result *r, const char *const spec[2],
			 const struct compare_report *rep);

#endif
