/*
 * trialdir: an ab trial directory read back through its manifest.json:
 * which result files are A's and which B's, in run order (the runs that
 * completed), and the option keys the sides set, the change under trial
 * that compare should expect to differ (not warn about as [job_differs]).
 * So `iotrial compare DIR` of a trial directory compares its two sides,
 * and `compare` of a trial's own files knows what the trial changed; and
 * the trial's clock and end applied to results read from it.
 */
#ifndef IOTRIAL_TRIALDIR_H
#define IOTRIAL_TRIALDIR_H

#include <stddef.h>
#include "lib/err.h"
#include "result/resultread.h"

struct trialdir {
	char **a, **b;		/* result file paths, run order */
	size_t na, nb;
	char **keys;		/* option keys --a/--b set; "*" when a side was a job file */
	size_t nkeys;
};

/* Does @dir hold a trial (a manifest.json)? */
int trialdir_is(const char *dir);

/*
 * Read @dir's manifest: 0, or -errno with @e filled (EXIT_USAGE: not a
 * trial's manifest, no completed run on a side).  Free with trialdir_free
 * either way.
 */
int trialdir_load(const char *dir, struct trialdir *t, struct err *e);

/*
 * When every one of @files (paths) is a run listed in the manifest of the
 * directory they are in (all the same one), load that trial into @t and
 * return 1; else 0 (and @t empty).  -errno only when out of memory.
 */
int trialdir_of_files(char *const *files, size_t n, struct trialdir *t, struct err *e);

/*
 * For each result of @v whose directory holds a manifest.json naming it:
 * its timestamp_ms becomes the trial's start of that run (the trial's one
 * clock: across hosts the results' own timestamps come from each host's
 * clock).  When such a trial ended early, *@note (@sz bytes) says so and
 * why; else "".  When the trial was across hosts and recorded what it is
 * about, *@trial_of (@tsz) gets it ("disk"); else "".  0 or -ENOMEM.
 */
int trialdir_apply(struct resultread *const *v, size_t n, char *note, size_t sz,
		   char *trial_of, size_t tsz);

void trialdir_free(struct trialdir *t);

#endif
