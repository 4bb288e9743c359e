/*
 * abrun: run order, stopping rule, side options and bookkeeping for
 * `iotrial ab` (see abrun.h).  No process handling here.
 */
#include "trial/abrun.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/abstat.h"	/* abstat_rng: the seeded pair order */
#include "lib/vec.h"	/* vec_free_strings */

#ifndef IOTRIAL_VERSION
#define IOTRIAL_VERSION "unknown"
#endif

static int push(char ***v, size_t *n, char *s)
{
	char **nv;

	if (!s)
		return -ENOMEM;
	nv = realloc(*v, (*n + 2) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

/* Length of the identifier at @s (a fio option name), 0 if none. */
static size_t ident_len(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* Does a new option start at @s: a name followed by '=', ',', a blank or the end? */
static int starts_option(const char *s)
{
	size_t n = ident_len(s);

	return n && (s[n] == '=' || s[n] == ',' || s[n] == 0 || isspace((unsigned char)s[n]));
}

/* One option token ("rate_iops=1000" or "time_based") into argv and keys. */
static int add_token(const char *side, const char *tok, size_t len, char ***argv,
		     size_t *argc, char ***keys, size_t *nkeys, struct err *e)
{
	char *t = strndup(tok, len), *opt;
	const char *body;
	size_t klen;

	if (!t)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	body = t + (strncmp(t, "--", 2) ? 0 : 2);
	klen = ident_len(body);
	if (!klen || (body[klen] && body[klen] != '=')) {
		err_set(e, -EINVAL, EXIT_USAGE, "%s: \"%s\" is neither a key=value fio option "
			"nor an existing job file", side, t);
		free(t);
		return -EINVAL;
	}
	if (asprintf(&opt, "--%s", body) < 0)
		opt = NULL;
	if (push(argv, argc, opt) || push(keys, nkeys, strndup(body, klen))) {
		free(t);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	free(t);
	return 0;
}

/* Split one whitespace-free word at the commas that start a new option. */
static int split_word(const char *side, const char *w, size_t len, char ***argv,
		      size_t *argc, char ***keys, size_t *nkeys, struct err *e)
{
	size_t start = 0, i;
	int ret;

	for (i = 0; i <= len; i++) {
		if (i < len && !(w[i] == ',' && i + 1 < len && starts_option(w + i + 1)))
			continue;
		if (i > start) {
			ret = add_token(side, w + start, i - start, argv, argc, keys, nkeys, e);
			if (ret)
				return ret;
		}
		start = i + 1;
	}
	return 0;
}

int abrun_side_args(const char *side, const char *spec, char ***argv, size_t *argc,
		    char ***keys, size_t *nkeys, struct err *e)
{
	struct stat st;
	const char *p = spec;
	int ret = 0;

	*argv = NULL;
	*keys = NULL;
	*argc = *nkeys = 0;
	if (!spec || !*spec)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s needs fio options or a job file", side);
	if (!strchr(spec, '=') && !stat(spec, &st) && S_ISREG(st.st_mode)) {
		if (push(argv, argc, strdup(spec)))
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		return 0;
	}
	while (*p && !ret) {
		size_t len;

		while (isspace((unsigned char)*p))
			p++;
		len = strcspn(p, " \t\n");
		if (len)
			ret = split_word(side, p, len, argv, argc, keys, nkeys, e);
		p += len;
	}
	if (!ret && !*argc)
		ret = err_set(e, -EINVAL, EXIT_USAGE, "%s needs fio options or a job file", side);
	if (ret) {
		vec_free_strings(*argv, *argc);
		vec_free_strings(*keys, *nkeys);
		*argv = *keys = NULL;
		*argc = *nkeys = 0;
	}
	return ret;
}

int abrun_side_set(char **argv, size_t argc)
{
	size_t i;

	for (i = 0; i < argc; i++) {
		char *s;

		if (strncmp(argv[i], "--", 2))
			continue;
		if (asprintf(&s, "--set=%s", argv[i] + 2) < 0)
			return -ENOMEM;
		free(argv[i]);
		argv[i] = s;
	}
	return 0;
}

char abrun_side(enum abrun_order order, uint64_t seed, size_t i)
{
	struct abstat_rng r;
	char first = 'A';

	if (order == ABRUN_RANDOM) {
		/* one draw per pair, from the seed and the pair's number only */
		abstat_rng_seed(&r, seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(i / 2 + 1)));
		first = (abstat_rng_next(&r) >> 63) ? 'B' : 'A';
	}
	if (i % 2 == 0)
		return first;
	return first == 'A' ? 'B' : 'A';
}

enum abrun_reason abrun_decide(const struct abrun_stop *s, unsigned pairs_done,
			       double elapsed_s, double ci_half_pct)
{
	double per_pair = pairs_done ? elapsed_s / pairs_done : 0;
	int adaptive = s->until_ci_pct >= 0;

	if (!adaptive && pairs_done >= s->runs)
		return ABRUN_DONE_RUNS;
	if (adaptive && pairs_done >= s->runs && pairs_done >= ABRUN_MIN_CI_PAIRS &&
	    !isnan(ci_half_pct) &&
	    ci_half_pct < s->until_ci_pct)
		return ABRUN_DONE_CI;
	if (adaptive && pairs_done >= s->max_runs)
		return ABRUN_DONE_MAX_RUNS;
	if (s->max_time_s > 0 && elapsed_s + per_pair > s->max_time_s)
		return ABRUN_DONE_MAX_TIME;
	return ABRUN_CONTINUE;
}

const char *abrun_reason_name(enum abrun_reason r)
{
	static const char *const names[] = {
		[ABRUN_CONTINUE] = "",
		[ABRUN_DONE_RUNS] = "runs",
		[ABRUN_DONE_CI] = "ci",
		[ABRUN_DONE_MAX_RUNS] = "max-runs",
		[ABRUN_DONE_MAX_TIME] = "max-time",
	};

	return names[r];
}

void abrun_run_name(char *buf, size_t sz, unsigned index, char side)
{
	snprintf(buf, sz, "run-%03u-%c.json", index, side);
}

void abrun_default_dir(char *buf, size_t sz, time_t now)
{
	struct tm tm;

	localtime_r(&now, &tm);
	if (!strftime(buf, sz, "iotrial-ab-%Y%m%d-%H%M%S", &tm) && sz)
		buf[0] = 0;
}

int abrun_parse_duration(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !(v >= 0) || isinf(v))
		return -EINVAL;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		*out = v;
	else if (!strcmp(end, "ms"))
		*out = v / 1000;
	else if (!strcmp(end, "m"))
		*out = v * 60;
	else if (!strcmp(end, "h"))
		*out = v * 3600;
	else
		return -EINVAL;
	return 0;
}

json_t *abrun_manifest_new(enum abrun_order order, uint64_t seed, const char *a_spec,
			   const char *b_spec, char *const *common, size_t ncommon,
			   const char *metric, const struct abrun_stop *s)
{
	json_t *args = json_array(), *stop;
	size_t i;

	for (i = 0; args && i < ncommon; i++)
		json_array_append_new(args, json_string(common[i]));
	stop = json_pack("{s:I, s:o, s:o, s:o, s:s}", "runs", (json_int_t)s->runs,
			 "max_runs", s->until_ci_pct >= 0 ? json_integer(s->max_runs) : json_null(),
			 "until_ci_pct", s->until_ci_pct >= 0 ? json_real(s->until_ci_pct) : json_null(),
			 "max_time_s", s->max_time_s > 0 ? json_real(s->max_time_s) : json_null(),
			 "metric", metric);
	return json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:o, s:o, s:[], s:n}",
			 "tool", "iotrial ab", "version", IOTRIAL_VERSION,
			 "order", order == ABRUN_RANDOM ? "random" : "alternate",
			 "seed", (json_int_t)seed, "a", a_spec, "b", b_spec,
			 "common_args", args, "stop", stop, "runs", "stopped_by");
}

int abrun_manifest_add(json_t *m, unsigned index, char side, const char *file,
		       int64_t start_ms, int64_t duration_ms, int exit_code)
{
	char iso[32], s[2] = { side, 0 };
	time_t t = (time_t)(start_ms / 1000);
	struct tm tm;
	json_t *run;

	gmtime_r(&t, &tm);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	run = json_pack("{s:I, s:s, s:s, s:s, s:I, s:I, s:i}", "index", (json_int_t)index,
			"side", s, "file", file, "start", iso, "start_ms", (json_int_t)start_ms,
			"duration_ms", (json_int_t)duration_ms, "exit_code", exit_code);
	if (!run || json_array_append_new(json_object_get(m, "runs"), run))
		return -ENOMEM;
	return 0;
}
