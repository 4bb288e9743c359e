/*
 * abside: a side of `iotrial ab` as the jobs it resolves to (abside.h).
 */
#include "trial/abside.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/cmdline.h"
#include "parse/opt.h"	/* opt_job_cmdline */

/* argv for cmdline_parse: a program name, then @a and @b. */
static char **join(char *const *a, size_t na, char *const *b, size_t nb, int *argc)
{
	char **v = calloc(na + nb + 2, sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	v[n++] = "iotrial";
	for (i = 0; i < na; i++)
		v[n++] = a[i];
	for (i = 0; i < nb; i++)
		v[n++] = b[i];
	*argc = (int)n;
	return v;
}

static int parse(char **argv, int argc, struct cmdline *cl, struct err *e)
{
	int ret = cmdline_parse(argc, argv, cl, e);

	if (!ret && (cl->help || cl->version || cl->cmdhelp || cl->inflate_log))
		ret = err_set(e, -EINVAL, EXIT_USAGE, "not a job");
	return ret;
}

/* Job @i of @cl as its resolved command line; NULL on ENOMEM. */
static char *job_line(const struct cmdline *cl, size_t i)
{
	char *line;

	return opt_job_cmdline(&cl->jobs[i], &line) ? NULL : line;
}

int abside_jobs(char *const *args, size_t nargs, char **text, struct err *e)
{
	struct cmdline cl;
	char **argv, *out = NULL, *line;
	size_t i, len = 0;
	int argc, ret;

	*text = NULL;
	argv = join(args, nargs, NULL, 0, &argc);
	if (!argv)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	ret = parse(argv, argc, &cl, e);
	for (i = 0; !ret && i < cl.jobs_nr; i++) {
		size_t l;
		char *n;

		line = job_line(&cl, i);
		n = line ? realloc(out, len + strlen(line) + 2) : NULL;
		if (!n) {
			free(line);
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
			break;
		}
		out = n;
		l = strlen(line);
		memcpy(out + len, line, l);
		out[len + l] = '\n';
		out[len + l + 1] = 0;
		len += l + 1;
		free(line);
	}
	cmdline_free(&cl);
	free(argv);
	if (ret) {
		free(out);
		return ret;
	}
	*text = out ? out : strdup("");
	return *text ? 0 : err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
}

/*
 * Does adding --set=@opt (a "--key=value" argument) change a job of
 * @base's command line?  1 with the job in @miss, 0 no, -errno.
 */
static int set_changes(const struct cmdline *base, char **argv, int argc, const char *opt,
		       struct abside_miss *miss, struct err *e)
{
	struct cmdline cl;
	char *set, *la, *lb;
	size_t i;
	int ret, changed = 0;

	if (asprintf(&set, "--set=%s", opt + 2) < 0)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	argv[argc] = set;
	ret = parse(argv, argc + 1, &cl, e);
	argv[argc] = NULL;
	free(set);
	for (i = 0; !ret && !changed && i < cl.jobs_nr && i < base->jobs_nr; i++) {
		la = job_line(base, i);
		lb = job_line(&cl, i);
		if (!la || !lb)
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		else if (strcmp(la, lb)) {
			changed = 1;
			snprintf(miss->job, sizeof(miss->job), "%s", base->jobs[i].name);
			snprintf(miss->where, sizeof(miss->where), "%s", base->jobs[i].origin);
		}
		free(la);
		free(lb);
	}
	cmdline_free(&cl);
	return ret ? ret : changed;
}

int abside_unreached(char *const *common, size_t ncommon, char *const *side, size_t nside,
		     struct abside_miss *miss, struct err *e)
{
	struct cmdline base;
	char **argv;
	size_t i;
	int argc, ret;

	/* one slot more than join fills: set_changes appends --set there */
	argv = join(common, ncommon, side, nside, &argc);
	if (argv) {
		char **v = realloc(argv, ((size_t)argc + 2) * sizeof(*v));

		if (!v)
			free(argv);
		argv = v;
	}
	if (!argv)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	argv[argc] = argv[argc + 1] = NULL;
	ret = parse(argv, argc, &base, e);
	for (i = 0; !ret && i < nside; i++) {
		if (strncmp(side[i], "--", 2))
			continue;	/* a job file of the side's own */
		ret = set_changes(&base, argv, argc, side[i], miss, e);
		if (ret == 1)
			miss->which = i;
	}
	cmdline_free(&base);
	free(argv);
	return ret;
}
