/*
 * file: naming, laying out, opening and sizing a job's files (see file.h).
 *
 * One file goes through file_prepare(): stat, safety check, region, layout,
 * open, size, invalidate, trim check.  Block and character devices are never
 * created or extended: a region past their end is clamped to it, as fio does.
 */
#include "io/file.h"

#include <errno.h>	/* ENOENT */
#include <signal.h>	/* sigpending: a stop request during layout */
#include <fcntl.h>	/* open, fallocate, posix_fadvise */
#include <linux/falloc.h>	/* FALLOC_FL_PUNCH_HOLE */
#include <linux/fs.h>	/* BLKGETSIZE64, BLKDISCARD, BLKFLSBUF */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc */
#include <string.h>	/* strdup */
#include <sys/ioctl.h>	/* ioctl */
#include <sys/stat.h>	/* fstat */
#include <sys/statvfs.h>	/* statvfs: fill_device sizes a file by the free space */
#include <limits.h>	/* PATH_MAX */
#include <sys/sysmacros.h>	/* major, minor */
#include <unistd.h>	/* close, pwrite */
#include "io/engine_traits.h"	/* ENGINE_F_PASSTHRU: a namespace's char device */
#include "io/nvme.h"	/* nvme_ns_identify: that device's size */
#include "io/safety.h"
#include "lib/vec.h"	/* vec_grow, vec_free_strings */
#include "lib/filename_format.h"

#define FILE_LAYOUT_CHUNK (1u << 20)	/* one large sequential write at a time */
#define FILE_MAX (UINT16_MAX + 1u)	/* io_u.file is 16 bits */

enum file_kind { FILE_NEW, FILE_REG, FILE_BLK, FILE_CHR };

static int file_reads(const struct job *j)
{
	return (j->rw & RW_READ) != 0;
}

static int file_trims(const struct job *j)
{
	return (j->rw & (RW_TRIM | RW_TRIMWRITE)) != 0;
}

/*
 * Split a ':'-separated list in which "\:" stands for a literal ':'.  Empty
 * entries are dropped.  Returns 0 or -ENOMEM; *out holds *n strings.
 */
static int file_split(const char *s, char ***out, unsigned *n)
{
	size_t len = strlen(s);
	char **v = NULL, *cur;
	unsigned cnt = 0;
	size_t k = 0, cap = 0;

	cur = malloc(len + 1);
	if (!cur)
		return -ENOMEM;
	for (;; s++) {
		if (*s == '\\' && s[1] == ':') {
			cur[k++] = ':';
			s++;
			continue;
		}
		if (*s && *s != ':') {
			cur[k++] = *s;
			continue;
		}
		if (k) {
			cur[k] = '\0';
			if (vec_grow((void **)&v, &cap, (size_t)cnt + 1, sizeof(*v), 4) ||
			    !(v[cnt] = strdup(cur))) {
				file_names_free(v, cnt);
				free(cur);
				return -ENOMEM;
			}
			cnt++;
			k = 0;
		}
		if (!*s)
			break;
	}
	free(cur);
	*out = v;
	*n = cnt;
	return 0;
}

/* @dir/@name, or @name alone when there is no directory or it is absolute. */
static char *file_join(const char *dir, const char *name)
{
	size_t n;
	char *p;

	if (!dir || name[0] == '/')
		return strdup(name);
	n = strlen(dir) + strlen(name) + 2;
	p = malloc(n);
	if (p)
		snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return p;
}

void file_names_free(char **names, unsigned nr)
{
	vec_free_strings(names, nr);
}

int file_names(const struct job *j, unsigned jobnum, char ***names, unsigned *nr, struct err *e)
{
	char **dirs = NULL, **given = NULL, **v, gen[JOB_NAME_MAX + 48];
	unsigned nd = 0, ng = 0, n, i;
	const char *dir;
	int ret;

	if (j->directory && (ret = file_split(j->directory, &dirs, &nd)))
		return err_set(e, ret, EXIT_INTERNAL, "out of memory");
	if (j->filename && (ret = file_split(j->filename, &given, &ng))) {
		file_names_free(dirs, nd);
		return err_set(e, ret, EXIT_INTERNAL, "out of memory");
	}
	if (j->filename && !ng) {
		file_names_free(dirs, nd);
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: job %s: filename=%s names no file",
			       j->origin, j->name, j->filename);
	}
	n = j->filename ? ng : (j->nrfiles ? j->nrfiles : 1);
	if (n > FILE_MAX) {
		file_names_free(dirs, nd);
		file_names_free(given, ng);
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: job %s: %u files, at most %u are supported",
			       j->origin, j->name, n, FILE_MAX);
	}
	/* Generated names spread the clones over the directories; given names use the first. */
	dir = nd ? dirs[j->filename ? 0 : jobnum % nd] : NULL;
	v = calloc(n, sizeof(*v));
	ret = v ? 0 : -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		if (given && !strcmp(given[i], "-")) {
			ret = err_set(e, -EINVAL, EXIT_USAGE,
				      "%s: job %s: filename=- (stdin/stdout) is not supported",
				      j->origin, j->name);
			break;
		}
		if (!given && j->filename_format &&
		    filename_format_expand(j->filename_format, j->name, jobnum, i, gen, sizeof(gen))) {
			ret = err_set(e, -ENAMETOOLONG, EXIT_USAGE, "%s: job %s: filename_format=%s: "
				      "the name is too long", j->origin, j->name, j->filename_format);
			break;
		}
		if (!given && j->filename_format) {
			if (j->nranks > 1) {	/* per-rank targets (docs/mpi.md) */
				size_t l = strlen(gen);

				snprintf(gen + l, sizeof(gen) - l, ".rank%u", j->rank);
			}
		} else if (!given && j->nranks > 1)	/* per-rank targets (docs/mpi.md) */
			snprintf(gen, sizeof(gen), "%s.%u.%u.rank%u", j->name, jobnum, i, j->rank);
		else if (!given)
			snprintf(gen, sizeof(gen), "%s.%u.%u", j->name, jobnum, i);
		v[i] = file_join(dir, given ? given[i] : gen);
		if (!v[i])
			ret = -ENOMEM;
	}
	file_names_free(dirs, nd);
	file_names_free(given, ng);
	if (ret) {
		file_names_free(v, n);
		return err_set(e, ret, EXIT_INTERNAL, "out of memory");
	}
	*names = v;
	*nr = n;
	return 0;
}

/* The smallest block size the job uses (for aligning offset=N%). */
static uint64_t file_min_bs(const struct job *j)
{
	uint64_t m = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		uint64_t b = j->bs_min[d] ? j->bs_min[d] : j->bs[d];

		if (b && (!m || b < m))
			m = b;
	}
	return m ? m : 1;
}

/* A size in [lo, hi], fixed for a given job, clone and file (filesize=lo-hi). */
uint64_t file_pick_size(const struct job *j, unsigned jobnum, unsigned idx)
{
	uint64_t lo = j->filesize_min, hi = j->filesize_max, x;

	if (lo >= hi)
		return hi;
	/* splitmix64 of (seed, clone, file): deterministic, well spread */
	x = j->randseed ^ ((uint64_t)jobnum << 32) ^ idx;
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return lo + x % (hi - lo + 1);
}

/* Where a file's I/O goes, before the file is looked at. */
struct file_plan {
	const struct job *j;
	unsigned jobnum, idx, nfiles;
	const char *path;
	enum file_kind kind;
	uint64_t real;		/* current size (0 when new) */
	uint64_t off, len;	/* the region */
};

/*
 * fill_device: the bytes @path's file system has free (statvfs of the file,
 * or of its directory when it does not exist yet), or 0 when unknown.
 */
static uint64_t file_fs_free(const char *path)
{
	struct statvfs sv;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (statvfs(path, &sv)) {
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path ? slash - path : 1), path);
		if (statvfs(dir, &sv))
			return 0;
	}
	/* free blocks, the reserved ones included: root may write them, and
	 * ENOSPC ends the job wherever the real limit is (fio writes them too) */
	return (uint64_t)sv.f_bfree * sv.f_frsize;
}

/*
 * Work out the region from the job and the file's current size.  Sets
 * p->off, p->len (len 0 never comes back).  Returns 0 or -errno with @e.
 */
static int file_region(struct file_plan *p, struct err *e)
{
	const struct job *j = p->j;
	int exists = p->kind != FILE_NEW;
	uint64_t len = 0, base;

	if (j->filesize_max) {
		len = file_pick_size(j, p->jobnum, p->idx);
	} else if (j->size_pct) {
		if (!p->real)
			return err_set(e, -EINVAL, EXIT_TARGET,
				       "%s: size=%u%% needs an existing, non-empty file or device",
				       p->path, j->size_pct);
		len = p->real * j->size_pct / 100;
	} else if (j->size) {
		len = j->size / p->nfiles;
		if (!len)
			len = p->real;
	}
	/* fill_device: as far as the free space goes (the writes end at ENOSPC) */
	if (!len && j->fill_device && (p->kind == FILE_NEW || p->kind == FILE_REG)) {
		uint64_t bs = file_min_bs(j), room = p->real + file_fs_free(p->path);

		if (room > j->offset)
			len = (room - j->offset) / bs * bs;
		if (!len)
			return err_set(e, -ENOSPC, EXIT_TARGET, "%s: fill_device: no free space for one "
				       "block of %llu bytes", p->path, (unsigned long long)bs);
	}
	base = exists ? p->real : len;
	p->off = j->offset_pct ? base * j->offset_pct / 100 / file_min_bs(j) * file_min_bs(j) : j->offset;
	p->off += j->offset_increment * p->jobnum;
	if (!len) {
		/* a namespace's char device has the size identify gave (passthrough) */
		if (p->kind == FILE_CHR && !p->real)
			return err_set(e, -EINVAL, EXIT_TARGET,
				       "%s: a character device has no size; set size=", p->path);
		if (!exists)
			return err_set(e, -ENOENT, EXIT_TARGET,
				       "%s: does not exist and its size is unknown; set size= or filesize= to create it",
				       p->path);
		if (p->off >= p->real)
			return err_set(e, -EINVAL, EXIT_TARGET,
				       "%s: nothing to do: offset %llu is at or past the end (%llu bytes); set size=",
				       p->path, (unsigned long long)p->off, (unsigned long long)p->real);
		len = p->real - p->off;
	}
	if ((p->kind == FILE_BLK || p->kind == FILE_CHR) && p->real && p->off + len > p->real) {
		if (p->off >= p->real)
			return err_set(e, -EINVAL, EXIT_TARGET,
				       "%s: offset %llu is past the end of the device (%llu bytes)",
				       p->path, (unsigned long long)p->off, (unsigned long long)p->real);
		len = p->real - p->off;	/* a device cannot grow: clamp like fio */
	}
	p->len = len;
	return 0;
}

/*
 * A SIGINT or SIGTERM is waiting.  The runner blocks both and acts on them
 * itself; laying out a large file takes seconds to minutes, so layout looks
 * for them between chunks and stops (-EINTR) rather than make the user wait.
 */
static int file_stop_pending(void)
{
	sigset_t p;

	if (sigpending(&p))
		return 0;
	return sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGTERM) == 1;
}

/* Fill [from, to) of @fd with data that does not repeat from block to block. */
static int file_fill(int fd, uint64_t from, uint64_t to, uint64_t seed)
{
	uint64_t *buf = malloc(FILE_LAYOUT_CHUNK), x = seed | 1;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (from < to) {
		size_t n = to - from < FILE_LAYOUT_CHUNK ? (size_t)(to - from) : FILE_LAYOUT_CHUNK;
		size_t i, done = 0;

		if (file_stop_pending()) {
			ret = -EINTR;
			break;
		}
		for (i = 0; i < FILE_LAYOUT_CHUNK / sizeof(*buf); i++) {
			x ^= x << 13;	/* xorshift64: cheap, not compressible */
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		while (done < n) {
			ssize_t w = pwrite(fd, (char *)buf + done, n - done, (off_t)(from + done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				ret = w < 0 ? -errno : -EIO;
				goto out;
			}
			done += (size_t)w;
		}
		from += n;
	}
out:
	free(buf);
	return ret;
}

/*
 * Extend @fd from @real to @need bytes as fallocate= says: preallocated
 * (native, posix), preallocated past the size then sized (keep), or only
 * sized, leaving a hole (none, truncate).  0 or -1 with errno set.
 */
static int file_extend(int fd, int mode, uint64_t real, uint64_t need)
{
	switch (mode) {
	case JOB_FALLOC_NONE:
	case JOB_FALLOC_TRUNCATE:
		return ftruncate(fd, (off_t)need);
	case JOB_FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)real, (off_t)(need - real)))
			return -1;
		return ftruncate(fd, (off_t)need);
	default:
		return fallocate(fd, 0, (off_t)real, (off_t)(need - real));
	}
}

/*
 * Create or extend a regular file to p->off + p->len bytes.  fill_device: a
 * writing job's file is only created (its writes extend it until the file
 * system is full); a reading job's is filled until ENOSPC, and its region
 * ends where the data does (fio: "the mount point will be filled first").
 */
static int file_layout(struct file_plan *p, int readonly, struct err *e)
{
	const struct job *j = p->j;
	uint64_t need = p->off + p->len;
	int fd, ret = 0;

	if (readonly)
		return err_set(e, -EPERM, EXIT_UNSAFE,
			       "%s: --readonly is set but the file would have to be %s to %llu bytes",
			       p->path, p->kind == FILE_NEW ? "created" : "extended",
			       (unsigned long long)need);
	if (p->kind == FILE_NEW && !j->allow_file_create)
		return err_set(e, -ENOENT, EXIT_TARGET,
			       "%s: does not exist and allow_file_create=0 forbids creating it", p->path);
	fd = open(p->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, -errno, EXIT_TARGET, "%s: cannot create: %s", p->path, strerror(errno));
	if (j->fill_device && !file_reads(j))
		goto out;
	if (!j->fill_device && file_extend(fd, j->fallocate, p->real, need)) {
		ret = -errno;
		if (ret == -EOPNOTSUPP || ret == -ENOSYS)
			ret = ftruncate(fd, (off_t)need) ? -errno : 0;
		if (ret) {
			err_set(e, ret, EXIT_TARGET, "%s: cannot extend to %llu bytes: %s", p->path,
				(unsigned long long)need, strerror(-ret));
			if (p->kind == FILE_NEW)
				unlink(p->path);	/* created just now: leave nothing */
			goto out;
		}
	}
	if (file_reads(j)) {
		ret = file_fill(fd, p->real, need, ((uint64_t)p->jobnum << 32) ^ p->idx ^ 0x6c617967ull);
		if (j->fill_device && (ret == -ENOSPC || ret == -EDQUOT)) {
			struct stat st;
			uint64_t bs = file_min_bs(j);

			ret = fstat(fd, &st) ? -errno : 0;
			if (!ret && (uint64_t)st.st_size >= p->off + bs)
				p->len = ((uint64_t)st.st_size - p->off) / bs * bs;
			else if (!ret)
				ret = -ENOSPC;
		}
		if (ret) {
			/*
			 * A half-filled file would pass for laid out next time (its
			 * size is right) and be read as unwritten extents: put it
			 * back as it was (best effort: the error below matters more).
			 */
			int undo = p->kind == FILE_NEW ? unlink(p->path) : ftruncate(fd, (off_t)p->real);

			(void)undo;
		}
		if (ret == -EINTR) {
			err_set(e, ret, EXIT_INTERRUPTED, "%s: interrupted by a signal while laying "
				"out the file: no job ran", p->path);
			goto out;
		}
		if (ret) {
			err_set(e, ret, EXIT_TARGET, "%s: cannot lay out %llu bytes: %s", p->path,
				(unsigned long long)(need - p->real), strerror(-ret));
			goto out;
		}
	}
	if (fsync(fd)) {
		ret = -errno;
		err_set(e, ret, EXIT_TARGET, "%s: fsync after layout failed: %s", p->path, strerror(errno));
	}
out:
	close(fd);
	return ret;
}

static int file_open_flags(const struct job *j)
{
	int fl = O_CLOEXEC | (job_writes(j) ? O_RDWR : O_RDONLY);

	if (j->direct)
		fl |= O_DIRECT;
	if (j->sync == SYNC_SYNC)
		fl |= O_SYNC;
	else if (j->sync == SYNC_DSYNC)
		fl |= O_DSYNC;
	return fl;
}

/* True when @j's engine sends its own commands to a char device (io_uring_cmd). */
static int file_passthru(const struct job *j)
{
	return (engine_traits(j->ioengine) & ENGINE_F_PASSTHRU) != 0;
}

static int file_open(const struct file_plan *p, struct err *e)
{
	/*
	 * Passthrough commands skip the page cache whatever the open flags
	 * say, and a char device refuses O_DIRECT (EINVAL): direct=1 is then
	 * what the commands do anyway.
	 */
	int fd = open(p->path, file_open_flags(p->j) & ~(file_passthru(p->j) ? O_DIRECT : 0));
	int saved = errno;

	if (fd >= 0)
		return fd;
	if (saved == EINVAL && p->j->direct)
		return err_set(e, -EINVAL, EXIT_TARGET,
			       "%s: direct=1 but the filesystem does not support O_DIRECT", p->path);
	if (saved == ENOENT)
		return err_set(e, -ENOENT, EXIT_TARGET, "%s: no such file or directory", p->path);
	return err_set(e, -saved, EXIT_TARGET, "%s: cannot open %s: %s", p->path,
		       job_writes(p->j) ? "for writing" : "for reading", strerror(saved));
}

/*
 * direct=1: the target's direct I/O alignment, in bytes (0 unknown).  The
 * kernel says it through statx (STATX_DIOALIGN, Linux 6.1: the offset
 * alignment, which is the one that also binds lengths); a block device's
 * logical block size otherwise.  A file system that cannot tell is not
 * checked: the I/O's own error then names the rule (worker_setup.c).
 */
static unsigned file_dio_align(int fd, int is_blk)
{
	unsigned align = 0;
#ifdef STATX_DIOALIGN
	struct statx sx;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) && (sx.stx_mask & STATX_DIOALIGN))
		align = sx.stx_dio_offset_align;
#endif
	if (!align && is_blk) {
		int lbs = 0;

		if (!ioctl(fd, BLKSSZGET, &lbs) && lbs > 0)
			align = (unsigned)lbs;
	}
	return align;
}

/*
 * Refuse, before any I/O, a direct=1 job whose block sizes or region start
 * are not multiples of @align: every such I/O would fail with EINVAL, which
 * says nothing about alignment.  bsrange sizes are multiples of the smallest
 * (fio's rule), so the smallest and largest stand for the range.
 */
static int file_check_dio(const struct file_plan *p, unsigned align, struct err *e)
{
	const struct job *j = p->j;
	const int used[DDIR_NR] = { file_reads(j), job_writes(j), file_trims(j) };

	if (!align)
		return 0;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		uint64_t bad = 0;

		if (!used[d])
			continue;
		if (j->bs_min[d] % align)
			bad = j->bs_min[d];
		else if (j->bs_max[d] % align)
			bad = j->bs_max[d];
		for (unsigned i = 0; !bad && i < j->bssplit_nr[d]; i++)
			if (j->bssplit[d][i].bs % align)
				bad = j->bssplit[d][i].bs;
		if (bad)
			return err_set(e, -EINVAL, EXIT_USAGE, "%s: job %s: direct=1 needs every I/O "
				       "aligned to %u bytes (this target's direct I/O alignment), but "
				       "the %s block size %llu is not a multiple of %u; use a bs that "
				       "is, or direct=0", p->path, j->name, align, ddir_name(d),
				       (unsigned long long)bad, align);
	}
	if (p->off % align)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: job %s: direct=1 needs every I/O aligned "
			       "to %u bytes (this target's direct I/O alignment), but the region "
			       "starts at offset %llu", p->path, j->name, align,
			       (unsigned long long)p->off);
	return 0;
}

/* Can a block device discard?  Its queue (the whole disk's, for a partition) says. */
static int file_blk_can_discard(dev_t rdev)
{
	char path[128], buf[64];
	unsigned long long max = 1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/discard_max_bytes",
		 major(rdev), minor(rdev));
	f = fopen(path, "re");
	if (!f) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/discard_max_bytes",
			 major(rdev), minor(rdev));
		f = fopen(path, "re");
	}
	if (!f)
		return 1;	/* cannot tell: let the first trim say */
	if (fgets(buf, sizeof(buf), f))
		max = strtoull(buf, NULL, 10);
	fclose(f);
	return max > 0;
}

static int file_check_trim(const struct file_plan *p, const struct engine_file *f, dev_t rdev,
			   struct err *e)
{
	int64_t r;

	if (p->kind == FILE_CHR && file_passthru(p->j))
		return 0;	/* the engine's own command (Dataset Management) */
	if (p->kind == FILE_CHR)
		return err_set(e, -EOPNOTSUPP, EXIT_TARGET,
			       "%s: trim is not supported on a character device", p->path);
	if (p->kind == FILE_BLK) {
		if (!file_blk_can_discard(rdev))
			return err_set(e, -EOPNOTSUPP, EXIT_TARGET,
				       "%s: trim is not supported by the device (discard_max_bytes is 0)",
				       p->path);
		return 0;
	}
	/* A trim job punches holes anyway: punching its first block is a fair probe. */
	r = file_trim(f, p->off, p->len < 4096 ? p->len : 4096);
	if (r < 0)
		return err_set(e, (int)r, EXIT_TARGET,
			       "%s: trim is not supported: the filesystem cannot punch holes (%s)",
			       p->path, strerror((int)-r));
	return 0;
}

static void file_invalidate(const struct engine_file *f)
{
	/* Best effort, as in fio: a cache that cannot be dropped is no reason to stop. */
	if (f->is_blk && !ioctl(f->fd, BLKFLSBUF, 0))
		return;
	posix_fadvise(f->fd, (off_t)f->offset, (off_t)f->size, POSIX_FADV_DONTNEED);
}

/*
 * fadvise_hint (fio's default 1): tell the page cache the access pattern, so
 * buffered random reads are not inflated by readahead bringing in neighbours
 * the job will then hit in memory.  Best effort, like invalidate.
 */
static void file_advise(const struct job *j, const struct engine_file *f)
{
	int advice;

	switch (j->fadvise_hint) {
	case FADVISE_NONE:
		return;
	case FADVISE_SEQUENTIAL:
		advice = POSIX_FADV_SEQUENTIAL;
		break;
	case FADVISE_RANDOM:
		advice = POSIX_FADV_RANDOM;
		break;
	default:
		advice = (j->rw & RW_RAND) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
		break;
	}
	posix_fadvise(f->fd, (off_t)f->offset, (off_t)f->size, advice);
}

/*
 * An engine that sends NVMe commands (ENGINE_F_PASSTHRU) needs a
 * namespace's generic char device: refuse anything else by name before it
 * is created or laid out.  Writes also pass the safety checks of the
 * namespace's block device (/dev/nvmeXnY for /dev/ngXnY), which sees the
 * same blocks: a mounted file system there is refused as it would be there.
 */
static int file_passthru_target(const struct file_plan *p, int readonly, struct err *e)
{
	char blk[64];

	if (p->kind == FILE_NEW)
		return err_set(e, -ENOENT, EXIT_TARGET, "%s: no such device (ioengine=%s needs an "
			       "NVMe namespace's generic char device, /dev/ngXnY)", p->path,
			       p->j->ioengine);
	if (p->kind != FILE_CHR)
		return err_set(e, -ENODEV, EXIT_TARGET, "%s: ioengine=%s needs an NVMe namespace's "
			       "generic char device (/dev/ngXnY), not %s", p->path, p->j->ioengine,
			       p->kind == FILE_BLK ? "a block device" : "a regular file");
	if (nvme_ns_blockdev(p->path, blk, sizeof(blk)))
		return 0;
	return safety_check(blk, job_writes(p->j), p->j, readonly, e);
}

/* The namespace behind char device @fd: its size (LBAs x data bytes each) is @p's. */
static int file_passthru_size(struct file_plan *p, int fd, struct err *e)
{
	struct nvme_ns ns;
	int r = nvme_ns_identify(fd, &ns);

	if (r == -ENOTTY)
		return err_set(e, r, EXIT_TARGET, "%s: ioengine=%s: not an NVMe namespace (it does "
			       "not answer NVME_IOCTL_ID); use its /dev/ngXnY", p->path, p->j->ioengine);
	if (r)
		return err_set(e, r, EXIT_TARGET, "%s: identifying the NVMe namespace failed: %s",
			       p->path, strerror(-r));
	p->real = ns.nlba << ns.lba_shift;
	return 0;
}

/* Everything for one file: on success @f is open and sized. */
static int file_prepare(struct file_plan *p, int readonly, struct engine_file *f, struct err *e)
{
	const struct job *j = p->j;
	struct stat st;
	dev_t rdev = 0;
	int ret;

	if (stat(p->path, &st)) {
		if (errno != ENOENT)
			return err_set(e, -errno, EXIT_TARGET, "%s: %s", p->path, strerror(errno));
		p->kind = FILE_NEW;
	} else if (S_ISREG(st.st_mode)) {
		p->kind = FILE_REG;
		p->real = (uint64_t)st.st_size;
	} else if (S_ISBLK(st.st_mode)) {
		p->kind = FILE_BLK;
		rdev = st.st_rdev;
	} else if (S_ISCHR(st.st_mode)) {
		p->kind = FILE_CHR;
	} else {
		return err_set(e, -EINVAL, EXIT_TARGET,
			       "%s: not a regular file or a device", p->path);
	}
	if (file_passthru(j) && (ret = file_passthru_target(p, readonly, e)))
		return ret;
	ret = safety_check(p->path, job_writes(j), j, readonly, e);
	if (ret)
		return ret;
	if (p->kind == FILE_NEW || p->kind == FILE_REG) {
		ret = file_region(p, e);
		if (ret)
			return ret;
		if (p->off + p->len > p->real) {
			ret = file_layout(p, readonly, e);
			if (ret)
				return ret;
			/* fio's "Laying out IO file" line counts it (a fill_device
			 * writer's file is only created: its writes lay it out) */
			if (!j->fill_device || file_reads(j))
				f->laid_out = p->off + p->len;
		}
	}
	f->fd = file_open(p, e);
	if (f->fd < 0)
		return f->fd;
	if (p->kind == FILE_BLK) {
		if (ioctl(f->fd, BLKGETSIZE64, &p->real)) {
			ret = err_set(e, -errno, EXIT_TARGET, "%s: cannot get the device size: %s",
				      p->path, strerror(errno));
			goto fail;
		}
	}
	if (p->kind == FILE_CHR && file_passthru(j) && (ret = file_passthru_size(p, f->fd, e)))
		goto fail;
	if ((p->kind == FILE_BLK || p->kind == FILE_CHR) && (ret = file_region(p, e)))
		goto fail;
	f->offset = p->off;
	f->size = p->len;
	f->is_blk = p->kind == FILE_BLK;
	if (j->direct && !file_passthru(j)) {	/* passthrough: the engine checks LBAs */
		f->dio_align = file_dio_align(f->fd, f->is_blk);
		if ((ret = file_check_dio(p, f->dio_align, e)))
			goto fail;
	}
	if (file_trims(j) && (ret = file_check_trim(p, f, rdev, e)))
		goto fail;
	if (j->invalidate)
		file_invalidate(f);
	file_advise(j, f);
	return 0;
fail:
	close(f->fd);
	f->fd = -1;
	return ret;
}

/* The job's file names and a closed engine_file for each (fd -1). */
static int files_new(const struct job *j, unsigned jobnum, char ***names, unsigned *n,
		     struct engine_file **v, struct err *e)
{
	unsigned i;
	int ret = file_names(j, jobnum, names, n, e);

	if (ret)
		return ret;
	*v = calloc(*n, sizeof(**v));
	if (!*v) {
		file_names_free(*names, *n);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	for (i = 0; i < *n; i++)
		(*v)[i].fd = -1;
	return 0;
}

/* Files 0..@i-1 of @v are set up, @ret says how @i went: hand them over or undo. */
static int files_done(struct engine_file *v, unsigned i, unsigned n, char **names, int ret,
		      struct engine_file **files, unsigned *nr)
{
	file_names_free(names, n);
	if (ret) {
		file_teardown(NULL, v, i);
		return ret;
	}
	*files = v;
	*nr = n;
	return 0;
}

int file_setup(const struct job *j, unsigned jobnum, int readonly,
	       struct engine_file **files, unsigned *nr, struct err *e)
{
	struct engine_file *v;
	char **names;
	unsigned n, i;
	int ret = files_new(j, jobnum, &names, &n, &v, e);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		struct file_plan p = {
			.j = j, .jobnum = jobnum, .idx = i, .nfiles = n, .path = names[i],
		};

		/* filename_format=a/b/$jobnum: fio creates a/b first */
		if (j->filename_format && !j->filename && !readonly && strchr(j->filename_format, '/') &&
		    (ret = filename_format_mkdirs(names[i]))) {
			err_set(e, ret, EXIT_TARGET, "%s: job %s: cannot create the directories of %s: %s",
				j->origin, j->name, names[i], strerror(-ret));
			break;
		}
		ret = file_prepare(&p, readonly, &v[i], e);
		if (ret)
			break;
		v[i].path = names[i];
		names[i] = NULL;	/* now owned by the engine_file */
	}
	return files_done(v, i, n, names, ret, files, nr);
}

int file_plan_only(const struct job *j, unsigned jobnum, uint64_t real,
		   struct engine_file **files, unsigned *nr, struct err *e)
{
	struct engine_file *v;
	char **names;
	unsigned n, i;
	int ret = files_new(j, jobnum, &names, &n, &v, e);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		struct file_plan p = {
			.j = j, .jobnum = jobnum, .idx = i, .nfiles = n, .path = names[i],
			.kind = real ? FILE_REG : FILE_NEW, .real = real,
		};

		ret = file_region(&p, e);
		if (ret)
			break;
		v[i].offset = p.off;
		v[i].size = p.len;
		v[i].path = names[i];
		names[i] = NULL;	/* now owned by the engine_file */
	}
	return files_done(v, i, n, names, ret, files, nr);
}

void file_teardown(const struct job *j, struct engine_file *files, unsigned nr)
{
	unsigned i;

	if (!files)
		return;
	for (i = 0; i < nr; i++) {
		struct engine_file *f = &files[i];
		struct stat st;
		int reg = 0;

		if (f->fd >= 0) {
			if (j && j->fsync_on_close && job_writes(j))
				fsync(f->fd);
			reg = !fstat(f->fd, &st) && S_ISREG(st.st_mode);
			close(f->fd);
		}
		if (j && j->unlink && reg && f->path)
			unlink(f->path);
		free(f->path);
	}
	free(files);
}

int64_t file_trim(const struct engine_file *f, uint64_t offset, uint64_t len)
{
	if (f->is_blk) {
		uint64_t range[2] = { offset, len };

		if (ioctl(f->fd, BLKDISCARD, range))
			return -errno;
		return (int64_t)len;
	}
	if (fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)len))
		return errno == ENOSYS ? -EOPNOTSUPP : -errno;
	return (int64_t)len;
}
