/*
 * trialdir: result files that sit in an `iotrial ab` trial directory.  The
 * manifest beside them (trial.h) knows when the trial started each run, in
 * the trial's one clock -- across hosts the results' own timestamps come
 * from each host's clock, which may disagree -- and whether the trial
 * reached its stop rule or ended early (a signal, a failed run, a lost
 * host; or no recorded end: its controller was killed).  compare reads a
 * trial's runs with both: the run order from the manifest, and a warning
 * when the trial is incomplete.
 */
#ifndef IOTRIAL_TRIALDIR_H
#define IOTRIAL_TRIALDIR_H

#include <stddef.h>
#include "err.h"
#include "resultread.h"

/*
 * For each result of @v whose directory holds a manifest.json naming it:
 * its timestamp_ms becomes the trial's start of that run.  When such a
 * trial ended early, *@note (@sz bytes) says so and why; else "".  When the
 * trial was across hosts and recorded what it is about, *@trial_of (@tsz)
 * gets it ("disk"); else "".  0 or -ENOMEM.
 */
int trialdir_apply(struct resultread *const *v, size_t n, char *note, size_t sz,
		   char *trial_of, size_t tsz);

/*
 * @dir is a trial directory (it holds manifest.json): *@a and *@b (each
 * malloc'd, free with vec_free_strings) become the paths of its completed
 * runs of A and of B, in run order.  1 when it is a trial, 0 when not,
 * -errno with @e filled when its manifest cannot be read.
 */
int trialdir_sides(const char *dir, char ***a, size_t *na, char ***b, size_t *nb,
		   struct err *e);

/*
 * The option keys the trial in @dir set on its sides (what compare expects
 * to differ; "*" when a side was a job file), into *@keys (free with
 * vec_free_strings).  0 (none when @dir holds no trial), or -ENOMEM.
 */
int trialdir_keys(const char *dir, char ***keys, size_t *n);

#endif
