/*
 * sweep_ab: two configurations swept, their SLO capacities compared (sweep_ab.h).
 */
#include "trial/sweep_ab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/vec.h"	/* vec_free_strings */
#include "result/resultread.h"
#include "trial/abrun.h"	/* abrun_side_args, abrun_side_set */
#include "trial/abside.h"	/* abside_jobs */
#include "trial/compare.h"

int sweep_ab_sides(const char *a_spec, const char *b_spec, char *const *job, size_t njob,
		   struct sweep_ab_sides *s, struct err *e)
{
	const char *spec[2] = { a_spec, b_spec };
	char *jobs[2] = { NULL, NULL };
	struct err ignored;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < 2 && !ret; k++) {
		char **side = NULL, **keys = NULL;
		size_t nside = 0, nkeys = 0;

		ret = abrun_side_args(k ? "--b" : "--a", spec[k], &side, &nside, &keys, &nkeys, e);
		vec_free_strings(keys, nkeys);
		if (ret)
			break;
		s->args[k] = calloc(njob + nside + 1, sizeof(char *));
		if (!s->args[k] || abrun_side_set(side, nside)) {
			vec_free_strings(side, nside);
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
			break;
		}
		for (size_t i = 0; i < njob && !ret; i++)
			if (!(s->args[k][s->nargs[k]++] = strdup(job[i])))
				ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		for (size_t i = 0; i < nside; i++)
			s->args[k][s->nargs[k]++] = side[i];	/* moved */
		free(side);
		err_clear(&ignored);
		if (!ret)
			abside_jobs(s->args[k], s->nargs[k], &jobs[k], &ignored);
	}
	if (!ret && jobs[0] && jobs[1] && !strcmp(jobs[0], jobs[1]))
		ret = err_set(e, -EINVAL, EXIT_USAGE, "sweep: --a=%s and --b=%s resolve to the same "
			      "jobs: the sweep would compare a set-up with itself", a_spec, b_spec);
	free(jobs[0]);
	free(jobs[1]);
	if (ret)
		sweep_ab_sides_free(s);
	return ret;
}

void sweep_ab_sides_free(struct sweep_ab_sides *s)
{
	for (int k = 0; k < 2; k++)
		vec_free_strings(s->args[k], s->nargs[k]);
	memset(s, 0, sizeof(*s));
}

int sweep_ab_compare(const struct sweep_result *r, const struct compare_opts *o,
		     struct resultread *rr[2], struct compare_report *out, struct err *e)
{
	int ret = 0;

	rr[0] = rr[1] = NULL;
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < 2 && !ret; k++) {
		char name[4200];
		json_t *j = sweep_json(&r[k]);

		snprintf(name, sizeof(name), "%s/%s", r[k].dir, RESULTREAD_SWEEP_FILE);
		ret = j ? resultread_from_json(j, name, &rr[k], e) :
			  err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		json_decref(j);
	}
	if (!ret)
		ret = compare_run(&rr[0], 1, &rr[1], 1, o, out, e);
	if (ret) {
		resultread_free(rr[0]);
		resultread_free(rr[1]);
		rr[0] = rr[1] = NULL;
	}
	return ret;
}

json_t *sweep_ab_json(const struct sweep_result *r, const char *const spec[2],
		      const struct compare_report *rep)
{
	json_t *o = json_object(), *side[2] = { sweep_json(&r[0]), sweep_json(&r[1]) };
	json_t *c = compare_json(rep);
	int bad = !o || !side[0] || !side[1] || !c;

	for (int k = 0; k < 2 && !bad; k++)
		bad |= json_object_set_new(side[k], "options", json_string(spec[k]));
	if (bad) {
		json_decref(side[0]);
		json_decref(side[1]);
		json_decref(c);
		json_decref(o);
		return NULL;
	}
	/* each _set_new takes its value, on failure too: o frees what it holds */
	bad |= json_object_set_new(o, "a", side[0]);
	bad |= json_object_set_new(o, "b", side[1]);
	bad |= json_object_set_new(o, "compare", c);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
