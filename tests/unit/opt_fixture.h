/*
 * opt_fixture: what the option-table tests share (test_opt.c,
 * test_opt_errors.c, test_opt_show.c): a job-file location for messages,
 * the resolved value of one option, one option set on a fresh job.
 */
#ifndef IOTRIAL_OPT_FIXTURE_H
#define IOTRIAL_OPT_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include "parse/opt.h"

#define W "t.fio:3"

/* Resolved value of canonical option @key in @j ("<unset>" when absent). */
static inline const char *fixture_resolved(const struct job *j, const char *key)
{
	static char buf[4096];
	struct job_kv *kv;
	size_t nr, i;

	snprintf(buf, sizeof(buf), "<unset>");
	if (opt_job_resolved(j, &kv, &nr))
		return "<nomem>";
	for (i = 0; i < nr; i++)
		if (!strcmp(kv[i].key, key))
			snprintf(buf, sizeof(buf), "%s", kv[i].val);
	opt_kv_free(kv, nr);
	return buf;
}

/* Set one option on a fresh job; returns the error code. */
static inline int fixture_set1(struct job *j, const char *name, const char *val,
			       struct err *e)
{
	job_init(j);
	err_clear(e);
	return opt_set(j, name, val, W, e);
}

#endif
