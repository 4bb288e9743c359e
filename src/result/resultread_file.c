/*
 * resultread_file: result files from disk (resultread.h): one file read
 * whole and parsed (resultread_load), its JSON as it is
 * (resultread_load_json), and the sets compare and ab give: file and
 * directory arguments expanded to their .json files, loaded in order.
 * resultread.c does the parsing; this file the reading.
 */
#include "result/resultread.h"
#include "lib/readfile.h"	/* readfile_all */
#include "lib/vec.h"	/* vec_grow, vec_free_strings */

#include <dirent.h>	/* scandir */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int resultread_load(const char *path, struct resultread **out, struct err *e)
{
	char *buf;
	size_t len;
	int ret;

	*out = NULL;
	ret = readfile_all(path, RESULTREAD_SIZE_MAX, &buf, &len);
	if (ret == -EFBIG)
		return err_set(e, -EFBIG, EXIT_USAGE, "%s: larger than %u MiB: not a result file "
			       "(the limit)", path, RESULTREAD_SIZE_MAX >> 20);
	if (ret == -ENOMEM)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (ret == -EIO)
		return err_set(e, -EIO, EXIT_USAGE, "%s: read error", path);
	if (ret)
		return err_set(e, ret, EXIT_USAGE, "%s: cannot open: %s", path, strerror(-ret));
	ret = resultread_parse(buf, len, path, out, e);
	free(buf);
	return ret;
}

int resultread_load_json(const char *path, json_t **root, struct err *e)
{
	char *buf, *start;
	size_t len;
	json_error_t je;
	int ret;

	*root = NULL;
	ret = readfile_all(path, RESULTREAD_SIZE_MAX, &buf, &len);
	if (ret == -EFBIG)
		return err_set(e, -EFBIG, EXIT_USAGE, "%s: larger than %u MiB: not a result file "
			       "(the limit)", path, RESULTREAD_SIZE_MAX >> 20);
	if (ret == -ENOMEM)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (ret)
		return err_set(e, ret, EXIT_USAGE, "%s: cannot read: %s", path, strerror(-ret));
	for (start = buf; *start && *start != '{';) {
		start = strchr(start, '\n');
		start = start ? start + 1 : buf + len;
	}
	if (!*start) {
		free(buf);
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a result file: no JSON object in it",
			       path);
	}
	*root = json_loadb(start, len - (size_t)(start - buf), 0, &je);
	free(buf);
	if (!*root)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: line %d: not valid JSON: %s", path,
			       je.line, je.text);
	return 0;
}

static int is_json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	/* an `iotrial ab` directory also holds its manifest: not a result */
	return d->d_name[0] != '.' && n > 5 && !strcasecmp(d->d_name + n - 5, ".json") &&
	       strcmp(d->d_name, "manifest.json");
}

static int push_path(char ***v, size_t *n, size_t *cap, const char *dir, const char *name)
{
	char *p;

	if (vec_grow((void **)v, cap, *n + 1, sizeof(**v), 16))
		return -ENOMEM;
	if (dir) {
		if (asprintf(&p, "%s/%s", dir, name) < 0)
			return -ENOMEM;
	} else if (!(p = strdup(name))) {
		return -ENOMEM;
	}
	(*v)[(*n)++] = p;
	return 0;
}

static int expand_dir(const char *dir, char ***v, size_t *n, size_t *cap, struct err *e)
{
	struct dirent **list;
	int i, cnt = scandir(dir, &list, is_json_name, alphasort), ret = 0, sweep;

	if (cnt < 0)
		return err_set(e, -errno, EXIT_USAGE, "%s: cannot read directory: %s",
			       dir, strerror(errno));
	if (cnt == 0)
		ret = err_set(e, -ENOENT, EXIT_USAGE, "%s: directory has no *.json result files", dir);
	/* a sweep's directory: its report stands for it, the runs are its steps' batches */
	for (i = 0; i < cnt && strcmp(list[i]->d_name, RESULTREAD_SWEEP_FILE); i++)
		;
	sweep = i < cnt;
	for (i = 0; i < cnt; i++) {
		if (sweep && strcmp(list[i]->d_name, RESULTREAD_SWEEP_FILE)) {
			free(list[i]);
			continue;
		}
		if (!ret && push_path(v, n, cap, dir, list[i]->d_name))
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		free(list[i]);
	}
	free(list);
	return ret;
}

int resultread_expand(char *const *args, size_t n, char ***paths, size_t *np,
		      struct err *e)
{
	char **v = NULL;
	size_t cnt = 0, cap = 0, i;
	struct stat st;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		if (stat(args[i], &st))
			ret = err_set(e, -errno, EXIT_USAGE, "%s: %s", args[i], strerror(errno));
		else if (S_ISDIR(st.st_mode))
			ret = expand_dir(args[i], &v, &cnt, &cap, e);
		else if (push_path(&v, &cnt, &cap, NULL, args[i]))
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	if (ret) {
		vec_free_strings(v, cnt);
		return ret;
	}
	*paths = v;
	*np = cnt;
	return 0;
}

int resultread_load_set(char *const *args, size_t n, struct resultread ***out,
			size_t *nout, struct err *e)
{
	struct resultread **v;
	char **paths = NULL;
	size_t np = 0, i;
	int ret = resultread_expand(args, n, &paths, &np, e);

	if (ret)
		return ret;
	v = calloc(np ? np : 1, sizeof(*v));
	if (!v) {
		vec_free_strings(paths, np);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	for (i = 0; i < np && !ret; i++)
		ret = resultread_load(paths[i], &v[i], e);
	vec_free_strings(paths, np);
	if (ret) {
		resultread_set_free(v, np);
		return ret;
	}
	*out = v;
	*nout = np;
	return 0;
}

void resultread_set_free(struct resultread **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		resultread_free(v[i]);
	free(v);
}
