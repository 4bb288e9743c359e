/*
 * engine_e4defrag: fio's e4defrag engine.  Each write swaps the blocks of
 * its range with the same range of a donor file (EXT4_IOC_MOVE_EXT, what
 * e4defrag(8) does), so the file's data stays the same while its extents
 * move: it measures the defragmentation path of ext4 against the job's
 * other I/O.  The donor is donorname= in the job's directory (the first of
 * directory=, else the current one), created at init and removed at exit.
 * inplace=0 preallocates the whole donor once; inplace=1 allocates the
 * range before each move and empties the donor after it.  A move of fewer
 * blocks than asked is a short write; of none, -EINVAL.  Only writes: the
 * job is refused at validation otherwise.  ext4 only: another file system
 * answers the first move with EOPNOTSUPP/ENOTTY, reported as the job's
 * error.  Completes inline.
 */
#include <errno.h>	/* ENOMEM, EINVAL */
#include <fcntl.h>	/* open, fallocate */
#include <linux/types.h>	/* __u32, __u64 */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strchr, strerror */
#include <sys/ioctl.h>	/* ioctl, _IOWR */
#include <sys/stat.h>	/* fstat */
#include <unistd.h>	/* close, unlink, ftruncate, fsync */
#include "io/engine.h"

#define E4D_PATH_MAX 1024

/* Its options (the rows at the end), in the job's engine area. */
struct e4d_opts {
	char donorname[E4D_PATH_MAX];
	int inplace;		/* 1: allocate the donor's blocks per I/O */
};

static const struct e4d_opts e4d_defaults;	/* zeros: no donor, preallocated once */

/* The kernel's ext4 ioctl (fs/ext4/ext4.h; not in the exported headers). */
struct e4d_move_extent {
	__u32 reserved;		/* must be zero */
	__u32 donor_fd;
	__u64 orig_start;	/* in blocks */
	__u64 donor_start;	/* in blocks */
	__u64 len;		/* in blocks */
	__u64 moved_len;	/* out: blocks moved */
};
#define E4D_IOC_MOVE_EXT _IOWR('f', 15, struct e4d_move_extent)

struct e4d_state {
	int donor_fd;
	char donor[E4D_PATH_MAX + 512];
	uint64_t bsz;		/* the file system's block size */
	int inplace;
};

static void e4d_exit(struct engine_ctx *ctx)
{
	struct e4d_state *s = ctx->priv;

	if (!s)
		return;
	if (s->donor_fd >= 0) {
		close(s->donor_fd);
		unlink(s->donor);
	}
	free(s);
	ctx->priv = NULL;
}

static int e4d_init(struct engine_ctx *ctx, struct err *e)
{
	const struct job *j = ctx->job;
	const struct e4d_opts *eo = engine_job_opts(j);
	struct e4d_state *s = calloc(1, sizeof(*s));
	uint64_t end = 0;
	struct stat st;
	unsigned i;
	int n;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "e4defrag: out of memory");
	s->donor_fd = -1;
	s->inplace = eo->inplace;
	ctx->priv = s;
	if (j->directory && eo->donorname[0] != '/') {
		const char *colon = strchr(j->directory, ':');
		int dlen = colon ? (int)(colon - j->directory) : (int)strlen(j->directory);

		n = snprintf(s->donor, sizeof(s->donor), "%.*s/%s", dlen, j->directory,
			     eo->donorname);
	} else {
		n = snprintf(s->donor, sizeof(s->donor), "%s", eo->donorname);
	}
	if (n < 0 || (size_t)n >= sizeof(s->donor)) {
		e4d_exit(ctx);
		return job_err(e, j, "e4defrag: donor path too long");
	}
	s->donor_fd = open(s->donor, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (s->donor_fd < 0) {
		int err = errno;

		e4d_exit(ctx);
		return err_set(e, -err, EXIT_TARGET, "e4defrag: %s: cannot create the donor: %s",
			       s->donor, strerror(err));
	}
	if (fstat(s->donor_fd, &st)) {
		int err = errno;

		e4d_exit(ctx);
		return err_set(e, -err, EXIT_TARGET, "e4defrag: %s: %s", s->donor, strerror(err));
	}
	s->bsz = st.st_blksize ? (uint64_t)st.st_blksize : 4096;
	for (i = 0; i < ctx->nr_files; i++)
		if (ctx->files[i].offset + ctx->files[i].size > end)
			end = ctx->files[i].offset + ctx->files[i].size;
	if (!s->inplace && end && fallocate(s->donor_fd, 0, 0, (off_t)end)) {
		int err = errno;

		e4d_exit(ctx);
		return err_set(e, -err, EXIT_TARGET, "e4defrag: %s: cannot preallocate %llu bytes: %s",
			       s->donor, (unsigned long long)end, strerror(err));
	}
	snprintf(ctx->info, sizeof(ctx->info), "e4defrag: donor %.120s, %s", s->donor,
		 s->inplace ? "allocated per move" : "preallocated");
	return 0;
}

static int e4d_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct e4d_state *s = ctx->priv;
	int fd = ctx->files[io->file].fd;
	struct e4d_move_extent me;
	uint64_t moved;

	switch (io->ddir) {
	case DDIR_WRITE:
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		io->res = fsync(fd) ? -errno : 0;
		return ENGINE_Q_COMPLETED;
	default:
		io->res = -EINVAL;
		return ENGINE_Q_COMPLETED;
	}
	if (s->inplace && fallocate(s->donor_fd, 0, (off_t)io->offset, (off_t)io->len)) {
		io->res = -errno;
		return ENGINE_Q_COMPLETED;
	}
	memset(&me, 0, sizeof(me));
	me.donor_fd = (__u32)s->donor_fd;
	me.orig_start = io->offset / s->bsz;
	me.donor_start = me.orig_start;
	me.len = (io->offset + io->len + s->bsz - 1) / s->bsz - me.orig_start;
	if (ioctl(fd, E4D_IOC_MOVE_EXT, &me)) {
		io->res = -errno;
	} else {
		moved = me.moved_len * s->bsz;
		if (moved > io->len)
			moved = io->len;
		io->res = moved ? (int64_t)moved : -EINVAL;
	}
	if (s->inplace && ftruncate(s->donor_fd, 0) && io->res >= 0)
		io->res = -errno;
	return ENGINE_Q_COMPLETED;
}

static int e4d_validate(const struct job *j, struct err *e)
{
	if (!((const struct e4d_opts *)engine_job_opts(j))->donorname[0])
		return job_err(e, j, "ioengine e4defrag needs donorname=");
	if (j->rw & (RW_READ | RW_TRIM | RW_TRIMWRITE))
		return job_err(e, j, "ioengine e4defrag does only writes (rw=write or randwrite)");
	return 0;
}

static const struct opt_def e4d_rows[] = {
	{ .name = "donorname", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct e4d_opts, donorname),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "e4defrag: the donor file (in directory=) whose blocks are swapped in" },
	{ .name = "inplace", .type = OPT_INT, ENGINE_OPT_FIELD(struct e4d_opts, inplace), .max = 1,
	  .help = "e4defrag: 0 preallocates the donor once, 1 allocates and frees it per I/O" },
	{ .name = NULL },
};

static const struct opt_def *const e4d_opts[] = { e4d_rows, NULL };

const struct engine_ops engine_e4defrag_ops = {
	.name = "e4defrag",
	.opts = e4d_opts,
	ENGINE_OPTS_AREA(struct e4d_opts, &e4d_defaults),
	.init = e4d_init,
	.queue = e4d_queue,
	.exit = e4d_exit,
	.validate = e4d_validate,
};
