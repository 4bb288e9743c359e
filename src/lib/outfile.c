/*
 * outfile: write-whole-or-nothing output (see outfile.h).
 */
#include "lib/outfile.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <limits.h>	/* PATH_MAX */
#include <stdlib.h>	/* mkstemp, realpath */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>	/* fsync, unlink */

/* "Umask:" of /proc/self/status: reading it does not change it (umask() does). */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	unsigned m = 022;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)m;
}

static void outfile_reset(struct outfile *o)
{
	free(o->target);
	free(o->tmp);
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

static int open_buffer(struct outfile *o, const char *path, struct err *e)
{
	if (path) {
		o->target = strdup(path);
		if (!o->target)
			return err_set(e, -ENOMEM, EXIT_OUTPUT, "cannot write results to %s: %s",
				       path, strerror(ENOMEM));
	}
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		int rc = -errno;

		outfile_reset(o);
		return err_set(e, rc, EXIT_OUTPUT, "cannot write results to %s: %s",
			       path ? path : "stdout", strerror(-rc));
	}
	return 0;
}

/* "<dir>/.<base>.iotrial-XXXXXX" next to @target. */
static char *temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dlen = slash ? (size_t)(slash - target) + 1 : 0;
	size_t n = strlen(target) + 32;
	char *t = malloc(n);

	if (t)
		snprintf(t, n, "%.*s.%s.iotrial-XXXXXX", (int)dlen, target,
			 slash ? slash + 1 : target);
	return t;
}

int outfile_open(struct outfile *o, const char *path, struct err *e)
{
	char real[PATH_MAX];
	struct stat st;
	mode_t mode;
	int fd, rc, exists;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-"))
		return open_buffer(o, NULL, e);
	if (!*path)
		return err_set(e, -EINVAL, EXIT_OUTPUT, "cannot write results: empty file name");
	exists = !stat(path, &st);
	if (exists && S_ISDIR(st.st_mode))
		return err_set(e, -EISDIR, EXIT_OUTPUT, "cannot write results to %s: %s",
			       path, strerror(EISDIR));
	if (exists && !S_ISREG(st.st_mode))
		return open_buffer(o, path, e);	/* /dev/null, a FIFO: write in place */
	/* through a symlink, replace the file it names, not the link */
	o->target = strdup(exists && realpath(path, real) ? real : path);
	o->tmp = o->target ? temp_name(o->target) : NULL;
	if (!o->tmp) {
		outfile_reset(o);
		return err_set(e, -ENOMEM, EXIT_OUTPUT, "cannot write results to %s: %s",
			       path, strerror(ENOMEM));
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		rc = -errno;
		outfile_reset(o);
		return err_set(e, rc, EXIT_OUTPUT, "cannot write results to %s: %s",
			       path, strerror(-rc));
	}
	/* mkstemp makes 0600: give the file the mode it would have had */
	mode = exists ? (st.st_mode & 07777) : (0666 & ~current_umask());
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		outfile_abort(o);
		return err_set(e, rc, EXIT_OUTPUT, "cannot write results to %s: %s",
			       path, strerror(-rc));
	}
	return 0;
}

int outfile_check(const char *path, struct err *e)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash;
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!*path)
		return err_set(e, -EINVAL, EXIT_OUTPUT, "cannot write results: empty file name");
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return err_set(e, -EISDIR, EXIT_OUTPUT, "cannot write results to %s: %s",
				       path, strerror(EISDIR));
		if (access(path, W_OK))
			return err_set(e, -errno, EXIT_OUTPUT, "cannot write results to %s: %s",
				       path, strerror(errno));
		if (!S_ISREG(st.st_mode))
			return 0;	/* written in place */
		if (realpath(path, real))
			path = real;	/* the temporary file goes next to the real file */
	}
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (access(dir, W_OK | X_OK))
		return err_set(e, -errno, EXIT_OUTPUT, "cannot write results to %s: directory %s: %s",
			       path, dir, strerror(errno));
	return 0;
}

/* fsync the directory holding @path so the rename itself is durable. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);	/* best effort: some filesystems refuse it */
		close(fd);
	}
}

static int commit_rename(struct outfile *o, struct err *e)
{
	int rc = 0;

	if (fflush(o->f) == EOF || ferror(o->f))
		rc = -(errno ? errno : EIO);
	else if (fsync(fileno(o->f)))
		rc = -errno;
	if (fclose(o->f) && !rc)
		rc = -(errno ? errno : EIO);
	o->f = NULL;
	if (!rc && rename(o->tmp, o->target))
		rc = -errno;
	if (rc) {
		err_set(e, rc, EXIT_OUTPUT, "cannot write results to %s: %s", o->target,
			strerror(-rc));
		outfile_abort(o);
		return rc;
	}
	sync_dir(o->target);
	outfile_reset(o);
	return 0;
}

/* Write the buffer to stdout or to the non-regular target, all at once. */
static int commit_buffer(struct outfile *o, struct err *e)
{
	const char *name = o->target ? o->target : "stdout";
	FILE *out = stdout;
	int rc = 0;

	errno = 0;
	if (fclose(o->f))
		rc = -(errno ? errno : ENOMEM);
	o->f = NULL;
	if (!rc && o->target && !(out = fopen(o->target, "we")))
		rc = -errno;
	if (!rc && o->len && fwrite(o->buf, 1, o->len, out) != o->len)
		rc = -(errno ? errno : EIO);
	if (!rc && (fflush(out) == EOF || ferror(out)))
		rc = -(errno ? errno : EIO);
	if (out && out != stdout && fclose(out) && !rc)
		rc = -(errno ? errno : EIO);
	if (rc)
		err_set(e, rc, EXIT_OUTPUT, "cannot write results to %s: %s", name, strerror(-rc));
	outfile_reset(o);	/* after err_set: @name may point into @o */
	return rc;
}

int outfile_commit(struct outfile *o, struct err *e)
{
	if (!o->f)
		return err_set(e, -EBADF, EXIT_INTERNAL, "output committed twice or never opened");
	return o->tmp ? commit_rename(o, e) : commit_buffer(o, e);
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	outfile_reset(o);
}
