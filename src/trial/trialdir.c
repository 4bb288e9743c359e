/*
 * trialdir: a trial directory read back (trialdir.h).
 */
#include "trial/trialdir.h"
#include "trial/abrun.h"	/* abrun_side_args: the keys each side sets */
#include "lib/readfile.h"	/* readfile_all */
#include "lib/vec.h"	/* vec_free_strings */

#include <errno.h>
#include <jansson.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* access */

int trialdir_is(const char *dir)
{
	char p[PATH_MAX];

	return snprintf(p, sizeof(p), "%s/manifest.json", dir) < (int)sizeof(p) &&
	       !access(p, F_OK);
}

void trialdir_free(struct trialdir *t)
{
	vec_free_strings(t->a, t->na);
	vec_free_strings(t->b, t->nb);
	vec_free_strings(t->keys, t->nkeys);
	memset(t, 0, sizeof(*t));
}

static int push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv)), *c = strdup(s);

	if (!nv || !c) {
		free(c);
		if (nv)
			*v = nv;
		return -ENOMEM;
	}
	*v = nv;
	nv[(*n)++] = c;
	return 0;
}

/* The keys of both sides' specs; "*" for a side given as a job file (or unreadable now). */
static int side_keys(struct trialdir *t, const char *spec)
{
	char **argv = NULL, **keys = NULL;
	size_t argc = 0, nk = 0, i, k;
	struct err e;
	int ret = 0;

	err_clear(&e);
	if (!spec || abrun_side_args("--a", spec, &argv, &argc, &keys, &nk, &e) || !nk) {
		vec_free_strings(argv, argc);	/* what a failed or empty split left */
		vec_free_strings(keys, nk);
		return push(&t->keys, &t->nkeys, "*");
	}
	for (i = 0; i < nk && !ret; i++) {
		for (k = 0; k < t->nkeys && strcmp(t->keys[k], keys[i]); k++)
			;
		if (k == t->nkeys)
			ret = push(&t->keys, &t->nkeys, keys[i]);
	}
	vec_free_strings(argv, argc);
	vec_free_strings(keys, nk);
	return ret;
}

#define TRIALDIR_MANIFEST_MAX (64u << 20)

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

int trialdir_load(const char *dir, struct trialdir *t, struct err *e)
{
	char p[PATH_MAX];
	json_t *m, *runs, *r;
	size_t i;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	m = load_manifest(dir);
	runs = m ? json_object_get(m, "runs") : NULL;
	if (!m || !json_is_string(json_object_get(m, "tool"))) {
		json_decref(m);
		return err_set(e, -EINVAL, EXIT_USAGE, "%s/manifest.json: not a trial's manifest "
			       "(unreadable, not JSON, or no runs or tool)", dir);
	}
	json_array_foreach(runs, i, r) {
		const char *side = json_string_value(json_object_get(r, "side"));
		const char *file = json_string_value(json_object_get(r, "file"));
		json_t *rc = json_object_get(r, "exit_code");

		/* the runs that completed: a failed one left no result to compare */
		if (!side || !file || strchr(file, '/') || (rc && json_integer_value(rc) != 0))
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", dir, file) >= (int)sizeof(p))
			continue;
		if (!ret && (side[0] == 'A' || side[0] == 'B'))
			ret = side[0] == 'A' ? push(&t->a, &t->na, p) : push(&t->b, &t->nb, p);
	}
	if (!ret)
		ret = side_keys(t, json_string_value(json_object_get(m, "a")));
	if (!ret)
		ret = side_keys(t, json_string_value(json_object_get(m, "b")));
	json_decref(m);
	if (ret)
		return err_set(e, ret, EXIT_INTERNAL, "out of memory");
	if (!t->na || !t->nb)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: the trial has no completed run of side %s",
			       dir, t->na ? "B" : "A");
	return 0;
}

/* Is @path one of @t's runs? */
static int listed(const struct trialdir *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->na; i++)
		if (!strcmp(t->a[i], path))
			return 1;
	for (i = 0; i < t->nb; i++)
		if (!strcmp(t->b[i], path))
			return 1;
	return 0;
}

int trialdir_of_files(char *const *files, size_t n, struct trialdir *t, struct err *e)
{
	char dir[PATH_MAX];
	const char *slash;
	size_t i, len;
	struct err ignore;

	memset(t, 0, sizeof(*t));
	if (!n)
		return 0;
	slash = strrchr(files[0], '/');
	len = slash ? (size_t)(slash - files[0]) : 1;
	if (len >= sizeof(dir))
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)len, slash ? files[0] : ".");
	for (i = 0; i < n; i++) {
		slash = strrchr(files[i], '/');
		if ((slash ? (size_t)(slash - files[i]) : 1) != len ||
		    (slash ? strncmp(files[i], dir, len) : strcmp(dir, ".")))
			return 0;	/* not all in one directory */
	}
	if (!trialdir_is(dir))
		return 0;
	err_clear(&ignore);
	if (trialdir_load(dir, t, &ignore)) {
		trialdir_free(t);
		return ignore.exit_code == EXIT_INTERNAL ? err_set(e, -ENOMEM, EXIT_INTERNAL,
								    "out of memory") : 0;
	}
	for (i = 0; i < n; i++) {
		char p[PATH_MAX];
		const char *base = strrchr(files[i], '/');

		if (snprintf(p, sizeof(p), "%s/%s", dir, base ? base + 1 : files[i]) >= (int)sizeof(p) ||
		    !listed(t, p)) {
			trialdir_free(t);
			return 0;	/* a file of no run of this trial */
		}
	}
	return 1;
}

/* --- the trial's clock and end, applied to results read from its directory --- */

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

