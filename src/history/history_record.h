/*
 * history_record (the history's own files only): storing a document as
 * history_record.c does, inside the caller's transaction, for
 * history_import.c, and deriving a stored run's rows again, for
 * history_rebuild.c.  The public calls (history_record, history_record_trial)
 * are in history.h.
 */
#ifndef IOTRIAL_HISTORY_RECORD_H
#define IOTRIAL_HISTORY_RECORD_H

#include "history/history_db.h"

/*
 * Store the result file @path as a run from @o, inside the caller's
 * transaction: *@id the run, *@added 0 when it was stored already.  0,
 * -EINVAL (unreadable or not a result) or -EIO (the database), @e set.
 */
int history_record_file(struct history *h, const char *path, const struct history_origin *o,
			int64_t *id, int *added, struct err *e);

/*
 * Store the ab trial in @dir (its @manifest, the verdicts compare gives with
 * @o) and its runs, inside the caller's transaction: *@id the trial,
 * *@runs_added increased by the runs new to the file.  0 or -errno, @e set.
 */
int history_record_trial_in(struct history *h, const char *dir, const json_t *manifest,
			    const struct compare_opts *o, int64_t *id, size_t *runs_added,
			    struct err *e);

/* The statement history_record_rederive updates a runs row with.  0 or -EIO, @e set. */
int history_record_rederive_prepare(struct history *h, sqlite3_stmt **update, struct err *e);

/*
 * Derive run @id's rows again from its stored document @text (@len bytes,
 * @name in messages): its runs row through @update (from
 * history_record_rederive_prepare), its jobs, figures and metrics.  Inside
 * the caller's transaction.  0 or -errno, @e set.
 */
int history_record_rederive(struct history *h, sqlite3_stmt *update, int64_t id,
			    const char *text, size_t len, const char *name, struct err *e);

#endif
