/*
 * history_rebuild: every derived table made again from the stored
 * documents, in one transaction (after a change of what is derived, or to
 * repair them), through the derivation that stored them
 * (history_record.h).
 */
#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* free */
#include "history/history_record.h"

int history_rebuild(struct history *h, size_t *runs, struct err *e)
{
	sqlite3_stmt *q, *u;
	char name[48], *text;
	int rc, ret;

	*runs = 0;
	if (history_db_begin(h, "rebuilding", e))
		return -EIO;
	ret = history_db_prepare(h, "SELECT run_id, size, data FROM results ORDER BY run_id", &q, e);
	if (ret)
		goto out;
	ret = history_record_rederive_prepare(h, &u, e);
	if (ret) {
		sqlite3_finalize(q);
		goto out;
	}
	while (!ret && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(q, 0);
		size_t len = (size_t)sqlite3_column_int64(q, 1);

		snprintf(name, sizeof(name), "history:%lld", (long long)id);
		if (history_db_inflate(sqlite3_column_blob(q, 2), (size_t)sqlite3_column_bytes(q, 2),
				       len, &text)) {
			ret = err_set(e, -EILSEQ, EXIT_USAGE, "%s: the stored document is damaged",
				      name);
			break;
		}
		ret = history_record_rederive(h, u, id, text, len, name, e);
		free(text);
		*runs += !ret;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = history_db_fail(h, rc, "rebuilding", e);
	sqlite3_finalize(q);
	sqlite3_finalize(u);
out:
	if (!ret)
		return history_db_commit(h, "rebuilding", e);
	history_db_rollback(h);
	return -EIO;
}
