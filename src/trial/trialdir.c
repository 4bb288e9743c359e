/*
 * trialdir: the manifest of an ab trial beside its results (trialdir.h).
 */
#include "trialdir.h"
#include "abrun.h"	/* abrun_side_args: the keys a side sets */
#include "readfile.h"	/* readfile_all */
#include "vec.h"	/* vec_grow, vec_free_strings */

#include <errno.h>
#include <jansson.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* access */

#define TRIALDIR_MANIFEST_MAX (64u << 20)

/* @path's directory ("." when it has none) into @out. */
static void dir_of(const char *path, char *out, size_t sz)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(out, sz, ".");
	else if (slash == path)
		snprintf(out, sz, "/");
	else
		snprintf(out, sz, "%.*s", (int)(slash - path), path);
}

/* @dir/manifest.json parsed, or NULL when there is none or it is not one. */
static json_t *load_manifest(const char *dir)
{
	char path[PATH_MAX + 32], *buf;
	size_t len;
	json_t *m;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (readfile_all(path, TRIALDIR_MANIFEST_MAX, &buf, &len))
		return NULL;
	m = json_loadb(buf, len, 0, NULL);
	free(buf);
	if (m && !json_is_array(json_object_get(m, "runs"))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

/* Did the trial reach its stop rule (abrun_reason_name's names)? */
static int complete(const json_t *m)
{
	static const char *const done[] = { "runs", "ci", "max-runs", "max-time", NULL };
	const char *s = json_string_value(json_object_get(m, "stopped_by"));
	size_t i;

	for (i = 0; s && done[i]; i++)
		if (!strcmp(s, done[i]))
			return 1;
	return 0;
}

/* Why @m's trial ended early, into @note. */
static void why_early(const json_t *m, const char *dir, char *note, size_t sz)
{
	const char *s = json_string_value(json_object_get(m, "stopped_by"));
	json_t *runs = json_object_get(m, "runs"), *r, *last = NULL;
	size_t i, ok = 0;
	char what[400] = "";

	json_array_foreach(runs, i, r) {
		if (json_integer_value(json_object_get(r, "exit_code")))
			last = r;
		else
			ok++;
	}
	if (last) {
		const char *side = json_string_value(json_object_get(last, "side"));
		const char *fault = json_string_value(json_object_get(last, "fault"));
		json_t *hosts = json_object_get(last, "hosts"), *it;
		char hb[200] = "", *h = NULL;
		size_t k, off = 0;

		json_array_foreach(hosts, k, it)
			if (json_is_string(it) && off < sizeof(hb))
				off += (size_t)snprintf(hb + off, sizeof(hb) - off, "%s%s", k ? ", " : "",
							json_string_value(it));
		h = hb[0] ? hb : NULL;

		snprintf(what, sizeof(what), ": run %lld (%s%s%s) ended with exit code %lld%s%s",
			 (long long)json_integer_value(json_object_get(last, "index")),
			 side ? side : "?", h ? " on " : "",
			 h ? h : "", (long long)json_integer_value(json_object_get(last, "exit_code")),
			 fault ? ", " : "", fault ? fault : "");
	}
	if (!s)
		snprintf(note, sz, "%s is an ab trial that recorded no end (still running, or its "
			 "controller was killed): these are the %zu runs it completed", dir, ok);
	else
		snprintf(note, sz, "%s is an ab trial that ended early (stopped by %s%s): these are "
			 "the %zu runs it completed, not the %lld pairs it planned", dir, s, what, ok,
			 (long long)json_integer_value(json_object_get(json_object_get(m, "stop"),
								       "runs")));
}

int trialdir_apply(struct resultread *const *v, size_t n, char *note, size_t sz,
		   char *trial_of, size_t tsz)
{
	char dir[PATH_MAX], cur[PATH_MAX] = "";
	json_t *m = NULL, *r;
	size_t i, k;

	note[0] = 0;
	trial_of[0] = 0;
	for (i = 0; i < n; i++) {
		const char *base = strrchr(v[i]->path, '/');

		base = base ? base + 1 : v[i]->path;
		dir_of(v[i]->path, dir, sizeof(dir));
		if (strcmp(dir, cur)) {
			json_decref(m);
			m = load_manifest(dir);
			snprintf(cur, sizeof(cur), "%s", dir);
			if (m && !complete(m) && !note[0])
				why_early(m, dir, note, sz);
			if (m && !trial_of[0] &&
			    json_string_value(json_object_get(json_object_get(m, "mpi"), "trial_of")))
				snprintf(trial_of, tsz, "%s", json_string_value(json_object_get(
					 json_object_get(m, "mpi"), "trial_of")));
		}
		json_array_foreach(json_object_get(m, "runs"), k, r) {
			const char *f = json_string_value(json_object_get(r, "file"));

			if (f && !strcmp(f, base) && json_is_integer(json_object_get(r, "start_ms"))) {
				v[i]->timestamp_ms = json_integer_value(json_object_get(r, "start_ms"));
				v[i]->order_by_trial = 1;
				break;
			}
		}
	}
	json_decref(m);
	return 0;
}

static int push(char ***v, size_t *n, size_t *cap, const char *dir, const char *file)
{
	char *p;

	if (vec_grow((void **)v, cap, *n + 1, sizeof(**v), 16) || asprintf(&p, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = p;
	return 0;
}

int trialdir_sides(const char *dir, char ***a, size_t *na, char ***b, size_t *nb,
		   struct err *e)
{
	char path[PATH_MAX + 32];
	size_t i, cap[2] = { 0, 0 };
	json_t *m, *r;

	*a = *b = NULL;
	*na = *nb = 0;
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (access(path, F_OK))
		return 0;
	m = load_manifest(dir);
	if (!m)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not an ab trial's manifest (no runs)",
			       path);
	json_array_foreach(json_object_get(m, "runs"), i, r) {
		const char *f = json_string_value(json_object_get(r, "file"));
		const char *s = json_string_value(json_object_get(r, "side"));
		char p[PATH_MAX + 64];

		snprintf(p, sizeof(p), "%s/%s", dir, f ? f : "");
		/* a failed or lost run left no result (or a partial one): not a run */
		if (!f || !s || json_integer_value(json_object_get(r, "exit_code")) || access(p, R_OK))
			continue;
		if (push(*s == 'B' ? b : a, *s == 'B' ? nb : na, &cap[*s == 'B'], dir, f)) {
			json_decref(m);
			vec_free_strings(*a, *na);
			vec_free_strings(*b, *nb);
			*a = *b = NULL;
			*na = *nb = 0;
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
	}
	json_decref(m);
	return 1;
}

int trialdir_keys(const char *dir, char ***keys, size_t *n)
{
	static const char *const sides[] = { "a", "b" };
	json_t *m = load_manifest(dir);
	size_t cap = 0, i, j;
	int s;

	*keys = NULL;
	*n = 0;
	for (s = 0; m && s < 2; s++) {
		const char *spec = json_string_value(json_object_get(m, sides[s]));
		char **argv = NULL, **kv = NULL, *one = (char *)"*";
		size_t argc = 0, nk = 0;
		struct err e;

		err_clear(&e);
		/* a job file that moved since: any option may differ */
		if (!spec || abrun_side_args(s ? "--b" : "--a", spec, &argv, &argc, &kv, &nk, &e))
			nk = 0;
		for (i = 0; i < (nk ? nk : 1); i++) {
			const char *key = nk ? kv[i] : one;

			for (j = 0; j < *n && strcmp((*keys)[j], key); j++)
				;
			if (j < *n)
				continue;
			if (vec_grow((void **)keys, &cap, *n + 1, sizeof(**keys), 8) ||
			    !((*keys)[*n] = strdup(key))) {
				vec_free_strings(argv, argc);
				vec_free_strings(kv, nk);
				json_decref(m);
				return -ENOMEM;
			}
			(*n)++;
		}
		vec_free_strings(argv, argc);
		vec_free_strings(kv, nk);
	}
	json_decref(m);
	return 0;
}
