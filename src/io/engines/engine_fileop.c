/*
 * engine_fileop: fio's file-operation engines.  Each file (or directory) of
 * the job is one operation, timed as the latency of the first I/O that
 * reaches it:
 *   filecreate  open(O_CREAT) and close: the file is created empty
 *   filestat    stat, lstat or statx (stat_type=) of a laid-out file
 *   filedelete  unlink of a laid-out file
 *   dircreate   mkdir (0700)
 *   dirstat     stat (stat_type=) of a directory made at init
 *   dirdelete   rmdir of a directory made at init
 * As fio does, the job still "does" its I/O over size/filesize: each block
 * counts in ios and bytes of the job's direction (read by default), but
 * only the operations carry latency samples (io_u.untimed for the rest), so
 * with bs = filesize (fio's examples) every I/O is one operation.  filestat
 * and filedelete get their files laid out by file.c like any job;
 * filecreate and the dir engines make their targets themselves
 * (ENGINE_F_OWNFILES), and a directory that already exists is an error for
 * dircreate (nothing was created).  Files are closed right after their
 * operation, so openfiles= changes nothing.  Completes inline.
 */
#include <errno.h>	/* EINVAL, ENOMEM */
#include <fcntl.h>	/* open, AT_FDCWD, AT_SYMLINK_NOFOLLOW */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strcmp, strerror */
#include <sys/stat.h>	/* stat, lstat, statx, mkdir */
#include <unistd.h>	/* close, unlink, rmdir */
#include "io/engine.h"

enum fileop_stat_type { FOP_STAT_STAT, FOP_STAT_LSTAT, FOP_STAT_STATX };

/* The options of filestat and dirstat (the rows at the end), in the job's engine area. */
struct fileop_opts {
	int stat_type;		/* enum fileop_stat_type */
};

static const struct fileop_opts fileop_defaults = { .stat_type = FOP_STAT_STAT };

enum fileop_kind { FOP_CREATE, FOP_STAT, FOP_DELETE, FOP_MKDIR, FOP_DIRSTAT, FOP_RMDIR };

struct fileop_state {
	enum fileop_kind kind;
	int stat_type;
	uint8_t *done;		/* per file: its operation was done */
};

static int fileop_init_kind(struct engine_ctx *ctx, enum fileop_kind kind, struct err *e)
{
	struct fileop_state *s = calloc(1, sizeof(*s));
	unsigned i;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "%s: out of memory", ctx->job->ioengine);
	s->done = calloc(ctx->nr_files ? ctx->nr_files : 1, 1);
	if (!s->done) {
		free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "%s: out of memory", ctx->job->ioengine);
	}
	s->kind = kind;
	if (kind == FOP_STAT || kind == FOP_DIRSTAT)
		s->stat_type = ((const struct fileop_opts *)engine_job_opts(ctx->job))->stat_type;
	ctx->priv = s;
	/* dirstat and dirdelete time the operation on directories that exist */
	for (i = 0; (kind == FOP_DIRSTAT || kind == FOP_RMDIR) && i < ctx->nr_files; i++) {
		const char *p = ctx->files[i].path;

		if (mkdir(p, 0700) && errno != EEXIST)
			return err_set(e, -errno, EXIT_TARGET, "%s: cannot create directory: %s", p,
				       strerror(errno));
	}
	return 0;
}

static int fileop_stat(const char *path, int type)
{
	struct stat st;
	struct statx stx;

	switch (type) {
	case FOP_STAT_LSTAT:
		return lstat(path, &st) ? -errno : 0;
	case FOP_STAT_STATX:
		return statx(AT_FDCWD, path, 0, STATX_ALL, &stx) ? -errno : 0;
	default:
		return stat(path, &st) ? -errno : 0;
	}
}

/* The operation on @path: 0 or -errno. */
static int fileop_do(const struct fileop_state *s, const char *path)
{
	int fd;

	switch (s->kind) {
	case FOP_CREATE:
		fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		close(fd);
		return 0;
	case FOP_STAT:
	case FOP_DIRSTAT:
		return fileop_stat(path, s->stat_type);
	case FOP_DELETE:
		return unlink(path) ? -errno : 0;
	case FOP_MKDIR:
		return mkdir(path, 0700) ? -errno : 0;
	case FOP_RMDIR:
		return rmdir(path) ? -errno : 0;
	}
	return -EINVAL;
}

static int fileop_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct fileop_state *s = ctx->priv;
	int r;

	if (io->ddir >= DDIR_NR) {
		io->res = 0;	/* nothing written: nothing to sync */
		return ENGINE_Q_COMPLETED;
	}
	if (s->done[io->file]) {
		io->untimed = 1;
		io->res = io->len;
		return ENGINE_Q_COMPLETED;
	}
	s->done[io->file] = 1;
	r = fileop_do(s, ctx->files[io->file].path);
	io->res = r ? r : (int64_t)io->len;
	return ENGINE_Q_COMPLETED;
}

static void fileop_exit(struct engine_ctx *ctx)
{
	struct fileop_state *s = ctx->priv;

	if (!s)
		return;
	free(s->done);
	free(s);
	ctx->priv = NULL;
}

static int fc_init(struct engine_ctx *c, struct err *e) { return fileop_init_kind(c, FOP_CREATE, e); }
static int fs_init(struct engine_ctx *c, struct err *e) { return fileop_init_kind(c, FOP_STAT, e); }
static int fd_init(struct engine_ctx *c, struct err *e) { return fileop_init_kind(c, FOP_DELETE, e); }
static int dc_init(struct engine_ctx *c, struct err *e) { return fileop_init_kind(c, FOP_MKDIR, e); }
static int ds_init(struct engine_ctx *c, struct err *e) { return fileop_init_kind(c, FOP_DIRSTAT, e); }
static int dd_init(struct engine_ctx *c, struct err *e) { return fileop_init_kind(c, FOP_RMDIR, e); }

static const struct opt_choice fileop_stat_types[] = {
	{ "stat", FOP_STAT_STAT }, { "lstat", FOP_STAT_LSTAT }, { "statx", FOP_STAT_STATX },
	{ NULL, 0 },
};

static const struct opt_def fileop_stat_rows[] = {
	{ .name = "stat_type", .type = OPT_CHOICE, ENGINE_OPT_FIELD(struct fileop_opts, stat_type),
	  .choices = fileop_stat_types,
	  .help = "filestat/dirstat: the call that is timed: stat, lstat or statx" },
	{ .name = NULL },
};

/* stat_type=: filestat's and dirstat's, one options struct for both */
static const struct opt_def *const fileop_stat_opts[] = { fileop_stat_rows, NULL };

#define FILEOP_OPS(sym, nm, in)							\
	const struct engine_ops sym = {						\
		.name = nm, .init = in,						\
		.queue = fileop_queue, .exit = fileop_exit,			\
	}
#define FILEOP_STAT_OPS(sym, nm, in)						\
	const struct engine_ops sym = {						\
		.name = nm, .init = in,						\
		.opts = fileop_stat_opts,					\
		ENGINE_OPTS_AREA(struct fileop_opts, &fileop_defaults),		\
		.queue = fileop_queue, .exit = fileop_exit,			\
	}

FILEOP_OPS(engine_filecreate_ops, "filecreate", fc_init);
FILEOP_STAT_OPS(engine_filestat_ops, "filestat", fs_init);
FILEOP_OPS(engine_filedelete_ops, "filedelete", fd_init);
FILEOP_OPS(engine_dircreate_ops, "dircreate", dc_init);
FILEOP_STAT_OPS(engine_dirstat_ops, "dirstat", ds_init);
FILEOP_OPS(engine_dirdelete_ops, "dirdelete", dd_init);
