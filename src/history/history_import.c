/*
 * history_import: result files, directories of them and ab trial
 * directories put into the history, a few hundred per transaction, each
 * stored as history_record.c stores one (history_record.h).  A stored
 * document is known by its digest, so an import that stopped (a bad file, a
 * kill) completes when run again.
 */
#include <errno.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>	/* access */
#include "history/history_record.h"
#include "lib/vec.h"		/* vec_grow, vec_free_strings */

/* Files per transaction, so that a long import lets runs store theirs between. */
#define IMPORT_BATCH 256

struct import_item {
	char *path;
	int trial;		/* a trial directory */
};

static int is_trial_dir(const char *path)
{
	char m[PATH_MAX];
	struct stat sb;

	if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
		return 0;
	snprintf(m, sizeof(m), "%s/manifest.json", path);
	return !access(m, F_OK);
}

/* @paths expanded: trial directories as they are, the rest through resultread_expand. */
static int import_items(char *const *paths, size_t n, struct import_item **items, size_t *ni,
			struct err *e)
{
	size_t i, k, cap = 0;
	char **files;
	size_t nf;

	*items = NULL;
	*ni = 0;
	for (i = 0; i < n; i++) {
		if (is_trial_dir(paths[i])) {
			files = malloc(sizeof(*files));
			if (!files || !(files[0] = strdup(paths[i]))) {
				free(files);
				return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
			}
			nf = 1;
		} else if (resultread_expand(&paths[i], 1, &files, &nf, e)) {
			return -EINVAL;
		}
		for (k = 0; k < nf; k++) {
			if (vec_grow((void **)items, &cap, *ni + 1, sizeof(**items), 64)) {
				vec_free_strings(files + k, nf - k);
				free(files);
				return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
			}
			(*items)[*ni].path = files[k];
			(*items)[(*ni)++].trial = is_trial_dir(paths[i]);
		}
		free(files);
	}
	return 0;
}

static void import_items_free(struct import_item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(items[i].path);
	free(items);
}

static int import_one(struct history *h, const struct import_item *it,
		      struct history_import_stats *st, struct err *e)
{
	struct history_origin o = { "import", NULL, -1 };
	char path[PATH_MAX];
	struct compare_opts co;
	static const char *const any[] = { "*" };	/* a trial's sides differ by design */
	json_t *m;
	int64_t id;
	int ret, added;

	if (it->trial) {
		snprintf(path, sizeof(path), "%s/manifest.json", it->path);
		m = json_load_file(path, 0, NULL);
		if (!m)
			return err_set(e, -EINVAL, EXIT_USAGE, "%s: unreadable", path);
		compare_opts_init(&co);
		co.expected = any;
		co.nr_expected = 1;
		ret = history_record_trial_in(h, it->path, m, &co, &id, &st->added, e);
		json_decref(m);
		st->trials += !ret;
		return ret;
	}
	ret = history_record_file(h, it->path, &o, &id, &added, e);
	if (!ret) {
		st->files++;
		st->added += (size_t)added;
		st->known += (size_t)!added;
	}
	return ret;
}

int history_import(struct history *h, char *const *paths, size_t n,
		   struct history_import_stats *st, struct err *e)
{
	struct import_item *items;
	size_t ni, i, committed = 0;
	int ret = 0, open_tx = 0;

	memset(st, 0, sizeof(*st));
	if (import_items(paths, n, &items, &ni, e))
		return -EINVAL;
	for (i = 0; i < ni && !ret; i++) {
		if (!open_tx && !(ret = history_db_begin(h, "importing", e)))
			open_tx = 1;
		if (!ret)
			ret = import_one(h, &items[i], st, e);
		if (!ret && (i % IMPORT_BATCH == IMPORT_BATCH - 1 || i + 1 == ni)) {
			ret = history_db_commit(h, "importing", e);
			open_tx = 0;
			committed = i + 1;
		}
	}
	if (ret && open_tx)
		history_db_rollback(h);
	if (ret && committed)
		/* those stay: importing again after the fix stores the rest (a stored
		 * run is recognised by its digest) */
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg),
			 " (the first %zu file(s) were stored; import again after the fix)",
			 committed);
	import_items_free(items, ni);
	return ret ? -EIO : 0;
}
