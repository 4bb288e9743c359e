/*
 * resultread_opts: a job's options as it ran, read back from a result
 * (resultread.h: iotrial's resolved job when the result has it, else fio's
 * global options overlaid with the job's, with fio's defaults).
 */
#include "result/resultread.h"
#include "result/resultread_int.h"
#include <math.h>
#include <stdlib.h>	/* strtol */
#include <string.h>
#include "model/job.h"	/* JOB_IOENGINE_DEFAULT */
#include "model/num.h"	/* sizes read by the same rules as job options */

/* An option's value as text whatever its JSON type; NULL when absent. */
const char *resultread_opts_text(const json_t *opts, const char *key, char *buf, size_t sz)
{
	const json_t *v = json_object_get(opts, key);

	if (!v)
		return NULL;
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, sz, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sz, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, sz, "%d", json_is_true(v));
	else
		snprintf(buf, sz, "%s", "");
	return buf;
}

static long opts_long(const json_t *opts, const char *key, long dflt)
{
	char buf[64], *end;
	const char *s = resultread_opts_text(opts, key, buf, sizeof(buf));
	long v;

	if (!s || !*s)
		return dflt;
	v = strtol(s, &end, 10);
	return end == s ? dflt : v;
}

uint64_t resultread_size(const char *s, unsigned kb_base)
{
	struct num_ctx c = { kb_base == 1000 ? 1000 : 1024, "size", NULL };
	struct err e;
	uint64_t v;

	err_clear(&e);
	if (!s || !*s || num_parse_u64(s, &c, &v, &e))
		return 0;
	return v;
}

/* Options the job ran with: global options overlaid with its own. */
json_t *resultread_opts_merge(const json_t *global, const json_t *job)
{
	json_t *m = json_object();

	if (!m)
		return NULL;
	if (json_is_object(global))
		json_object_update(m, (json_t *)global);
	if (json_is_object(job))
		json_object_update(m, (json_t *)job);
	return m;
}

/*
 * Is a value, as typed, what the job ran with?  Not when it holds a variable
 * ($ncpus, ${VAR}) or an expression: iotrial records the options as typed
 * and evaluates them when parsing, so "iodepth=$ncpus" read back as text is
 * a misread (it became 1).
 */
static int literal(const char *s)
{
	return s && !strchr(s, '$') && !strchr(s, '(');
}

/*
 * Fill @j's options from @given (global options overlaid with the job's, as
 * typed) and @ran (iotrial's resolved job, jobs[].iotrial.job, or NULL for
 * fio's results, whose options fio wrote with its variables already
 * substituted).  Values come from @ran when it has them; whether an option
 * was set at all comes from @given, since @ran lists every option.
 */
void resultread_opts_resolve(const json_t *given, const json_t *ran, struct resultread_job *j)
{
	static const char *const limits[] = { "rate", "rate_iops", "rate_min",
		"rate_iops_min", "thinktime", "latency_target", NULL };
	const json_t *o = ran ? ran : given;
	char buf[64];
	const char *s;
	size_t i;

	s = resultread_opts_text(o, "rw", buf, sizeof(buf));
	if (!s)
		s = resultread_opts_text(given, "readwrite", buf, sizeof(buf));
	copy_str(j->rw, sizeof(j->rw), s ? s : "read");
	j->rwmixread = 50;
	j->rwmix_given = json_object_get(given, "rwmixread") || json_object_get(given, "rwmixwrite");
	if (ran && j->rwmix_given)
		j->rwmixread = (unsigned)opts_long(ran, "rwmixread", 50);
	else if (json_object_get(given, "rwmixread"))
		j->rwmixread = (unsigned)opts_long(given, "rwmixread", 50);
	else if (json_object_get(given, "rwmixwrite"))
		j->rwmixread = 100 - (unsigned)opts_long(given, "rwmixwrite", 50);
	j->iodepth = (unsigned)opts_long(o, "iodepth", 1);
	j->numjobs = (unsigned)opts_long(o, "numjobs", 1);
	if (j->iodepth < 1)
		j->iodepth = 1;
	if (j->numjobs < 1)
		j->numjobs = 1;
	j->direct = (int)opts_long(o, "direct", 0);
	if (!ran && json_object_get(given, "buffered"))
		j->direct = !opts_long(given, "buffered", 1);
	s = resultread_opts_text(o, "ioengine", buf, sizeof(buf));
	copy_str(j->ioengine, sizeof(j->ioengine), s ? s : JOB_IOENGINE_DEFAULT);
	j->ioengine_given = json_object_get(given, "ioengine") != NULL;
	for (i = 0; limits[i]; i++) {
		s = resultread_opts_text(o, limits[i], buf, sizeof(buf));
		if (s && *s && strcmp(s, "0"))	/* the resolved job lists them all, "0" when unset */
			j->rate_limited = 1;
	}
	j->has_filename = json_object_get(given, "filename") != NULL;
	/* a job on one block device: its disk_util entry is named after it */
	s = resultread_opts_text(o, "filename", buf, sizeof(buf));
	if (s && !strncmp(s, "/dev/", 5) && s[5] && !strpbrk(s + 5, "/:"))
		copy_str(j->target_dev, sizeof(j->target_dev), s + 5);
	j->size = resultread_size(resultread_opts_text(o, "size", buf, sizeof(buf)),
				  (unsigned)opts_long(o, "kb_base", 1024));
}

const char *resultread_job_option(const json_t *root, const json_t *job, const char *key,
				  char *buf, size_t sz)
{
	const json_t *ran = json_object_get(json_object_get(job, "iotrial"), "job");
	const char *s = resultread_opts_text(json_object_get(job, "job options"), key, buf, sz);

	if (!s)
		s = resultread_opts_text(json_object_get(root, "global options"), key, buf, sz);
	if ((!s || !literal(s)) && json_is_object(ran) && json_object_get(ran, key))
		s = resultread_opts_text(ran, key, buf, sz);
	return s;
}

const char *resultread_job_bs(const json_t *root, const json_t *job, char *out, size_t sz)
{
	char buf[64];
	const char *v = resultread_job_option(root, job, "bs", buf, sizeof(buf));	/* as it ran */
	uint64_t n;

	if (!v)
		v = resultread_job_option(root, job, "blocksize", buf, sizeof(buf));
	snprintf(out, sz, "%s", v ? v : "4k");
	n = resultread_size(out, 1024);
	if (n)
		snprintf(out, sz, "%llu", (unsigned long long)n);
	return out;
}
