/*
 * zbd: zonemode=zbd's zone table and rules (see zbd.h).  The choices follow
 * fio's zbd.c (read for its semantics, not copied): which zone a write goes
 * to, when the job waits, when a zone is reset.
 */
#include "io/zbd.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memmove, strcmp, strdup */
#include <time.h>	/* nanosleep */
#include <unistd.h>	/* close */

#define ZBD_REPORT_BATCH 4096u

static inline uint32_t zbd_idx(const struct zbd_dev *d, uint64_t off)
{
	uint64_t i = off / d->zone_size;

	return i < d->nr ? (uint32_t)i : d->nr;
}

static inline uint64_t zbd_cap_end(const struct zbd_zone *z)
{
	return z->start + z->cap;
}

/* Bytes still writable before the zone is full. */
static inline uint64_t zbd_left(const struct zbd_zone *z)
{
	return z->wp >= zbd_cap_end(z) ? 0 : zbd_cap_end(z) - z->wp;
}

static inline int zbd_full(const struct zbd_zone *z, uint64_t need)
{
	return z->seq && need > zbd_left(z);
}

static inline int zbd_in_region(const struct zbd_file *zf, uint64_t off)
{
	return off - zf->off < zf->io_size;
}

static int zbd_verifies(const struct zbd_job *jb)
{
	return jb->j->verify_method != 0;
}

/* zone_reset_threshold counts the valid bytes of writing jobs only, as fio. */
static int zbd_counts_valid(const struct zbd_job *jb)
{
	return jb->j->zone_reset_threshold > 0 && jb->writes;
}

void zbd_set_init(struct zbd_set *s)
{
	pthread_mutex_init(&s->mu, NULL);
	s->head = NULL;
	s->next_id = 1;
}

static void zbd_dev_free(struct zbd_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	pthread_mutex_destroy(&d->mu);
	free(d->path);
	free(d->z);
	free(d->open);
	free(d);
}

void zbd_set_free(struct zbd_set *s)
{
	struct zbd_dev *d, *n;

	for (d = s->head; d; d = n) {
		n = d->next;
		zbd_dev_free(d);
	}
	s->head = NULL;
	pthread_mutex_destroy(&s->mu);
}

static int zbd_dev_alloc(struct zbd_dev *d, uint32_t nr)
{
	d->z = calloc((size_t)nr + 1, sizeof(*d->z));
	/* fio's whole array, so a pick from a shrunk set reads what fio's would */
	d->open = calloc(ZBD_MAX_OPEN, sizeof(*d->open));
	return d->z && d->open ? 0 : -ENOMEM;
}

int zbd_dev_table(struct zbd_dev *d, const struct blkzoned_zone *z, uint32_t nr, uint64_t size,
		  struct err *e)
{
	uint32_t i;

	if (!nr || !z[0].len)
		return err_set(e, -EIO, EXIT_TARGET, "%s: the zone report is empty", d->path);
	if (zbd_dev_alloc(d, nr))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for %u zones", nr);
	d->zone_size = z[0].len;
	d->size = size;
	d->nr = nr;
	for (i = 0; i < nr; i++) {
		struct zbd_zone *p = &d->z[i];

		if (z[i].start != (uint64_t)i * d->zone_size || (i + 1 < nr && z[i].len != d->zone_size))
			return err_set(e, -EINVAL, EXIT_TARGET,
				       "%s: zone %u starts at %llu, not %llu: zones of unequal size "
				       "are not supported (as in fio)", d->path, i,
				       (unsigned long long)z[i].start,
				       (unsigned long long)i * d->zone_size);
		p->start = z[i].start;
		p->cap = z[i].cap;
		p->cond = z[i].cond;
		p->seq = z[i].seq;
		/* a zone without a write pointer, or a full one: written up to its capacity */
		if (!p->seq || p->cond == BLKZONED_COND_FULL)
			p->wp = p->start + p->cap;
		else
			p->wp = z[i].wp;
	}
	d->z[nr].start = z[nr - 1].start + z[nr - 1].len;
	return 0;
}

int zbd_dev_emulate(struct zbd_dev *d, uint64_t size, uint64_t zone_size, uint64_t cap,
		    struct err *e)
{
	uint64_t nr;
	uint32_t i;

	nr = (size + zone_size - 1) / zone_size;
	if (nr > UINT32_MAX - 1)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: zonesize=%llu makes too many zones",
			       d->path, (unsigned long long)zone_size);
	if (zbd_dev_alloc(d, (uint32_t)nr))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for %llu zones",
			       (unsigned long long)nr);
	d->zone_size = zone_size;
	d->size = size;
	d->nr = (uint32_t)nr;
	for (i = 0; i < d->nr; i++) {
		d->z[i].start = d->z[i].wp = (uint64_t)i * zone_size;
		d->z[i].cap = cap;
		d->z[i].cond = BLKZONED_COND_EMPTY;
		d->z[i].seq = 1;
	}
	d->z[d->nr].start = nr * zone_size;
	return 0;
}

/* The whole zone report of @d (open as d->fd, @size bytes) into its table. */
static int zbd_dev_report(struct zbd_dev *d, uint64_t size, struct err *e)
{
	struct blkzoned_zone *z = calloc(ZBD_REPORT_BATCH, sizeof(*z)), *all = NULL, *grown;
	uint64_t off = 0;
	uint32_t nr = 0;
	int r = 0;

	if (!z)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for a zone report");
	while (off < size) {
		r = zonesrc_report(&d->src, d->fd, off, z, ZBD_REPORT_BATCH);
		if (r < 0) {
			err_set(e, r, EXIT_TARGET, "%s: %s at byte %llu: %s", d->path,
				zonesrc_report_name(&d->src), (unsigned long long)off, strerror(-r));
			break;
		}
		if (!r)
			break;
		grown = realloc(all, ((size_t)nr + (size_t)r) * sizeof(*all));
		if (!grown) {
			r = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for a zone report");
			break;
		}
		all = grown;
		memcpy(all + nr, z, (size_t)r * sizeof(*z));
		nr += (uint32_t)r;
		off = z[r - 1].start + z[r - 1].len;
		r = 0;
	}
	free(z);
	if (!r)
		r = nr ? zbd_dev_table(d, all, nr, size, e)
		       : err_set(e, -EIO, EXIT_TARGET, "%s: the zone report is empty", d->path);
	free(all);
	return r;
}

/* Emulated zones on a file or an ordinary block device of @size bytes (fio's rules). */
static int zbd_dev_emulated(struct zbd_dev *d, const struct job *j, uint64_t size, struct err *e)
{
	uint64_t cap = j->zonecapacity ? j->zonecapacity : j->zonesize;

	if (!j->zonesize)
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "job '%s': %s is not a zoned block device: zonemode=zbd needs "
			       "zonesize= to emulate zones on it (fio: Specifying the zone size is "
			       "mandatory for regular file/block device with --zonemode=zbd)",
			       j->name, d->path);
	if (j->zonesize < 512)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': zonesize=%llu: zone size must be "
			       "at least 512 bytes for --zonemode=zbd", j->name, (unsigned long long)j->zonesize);
	if (cap > j->zonesize)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': zonecapacity=%llu is larger "
			       "than zonesize=%llu", j->name, (unsigned long long)cap,
			       (unsigned long long)j->zonesize);
	if (size < j->zonesize)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': %s: its size %llu is smaller "
			       "than zonesize=%llu", j->name, d->path, (unsigned long long)size,
			       (unsigned long long)j->zonesize);
	return zbd_dev_emulate(d, size, j->zonesize, cap, e);
}

/* Read the device behind @f (zoned: its zones and limits; else emulated zones). */
static int zbd_dev_read(struct zbd_dev *d, const struct job *j, const struct engine_file *f,
			struct err *e)
{
	int r = zonesrc_probe(&d->src, f->fd, f->path, j->name, e);

	if (r)
		return r;
	d->model = d->src.model;
	if (d->model == BLKZONED_NONE)
		return zbd_dev_emulated(d, j, d->src.size, e);
	/* a descriptor of its own for the report, read-only until a writing job comes */
	d->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0)
		return err_set(e, -errno, EXIT_TARGET, "%s: %m", f->path);
	d->dev_max_open = d->src.max_open;
	d->dev_max_active = d->src.max_active;
	return zbd_dev_report(d, d->src.size, e);
}

/*
 * The open set's limit, decided by the first job on the device and checked
 * for the others, as fio: the job's max_open_zones, else the device's
 * (host-managed only), never above the device's unless ignore_zone_limits.
 */
static int zbd_dev_limit(struct zbd_dev *d, const struct job *j, struct err *e)
{
	uint32_t want = j->max_open_zones;

	if (!d->max_open_set) {
		if (d->model != BLKZONED_HOST_MANAGED || j->ignore_zone_limits || !d->dev_max_open) {
			d->max_open = want;
		} else if (!want) {
			d->max_open = d->dev_max_open;
		} else if (want <= d->dev_max_open) {
			d->max_open = want;
		} else {
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': max_open_zones=%u is larger "
				       "than the device's limit %u (%s; ignore_zone_limits=1 lifts it)",
				       j->name, want, d->dev_max_open, d->path);
		}
		if (d->max_open > ZBD_MAX_OPEN)
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': max_open_zones=%u is larger "
				       "than %u", j->name, d->max_open, ZBD_MAX_OPEN);
		d->max_open_set = 1;
		return 0;
	}
	if (want && want != d->max_open)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': max_open_zones=%u differs from "
			       "%u, which an earlier job on %s set", j->name, want, d->max_open,
			       d->path);
	return 0;
}

/* Round the region [*off, *off + *len) to whole zones, as fio. */
static int zbd_align(const struct zbd_dev *d, const struct job *j, uint64_t *off, uint64_t *len,
		     struct err *e)
{
	uint64_t end, first, zs = d->zone_size;
	uint32_t a, b, i;
	int seq = 0;

	if (*off >= d->size || !*len)
		return 0;
	a = zbd_idx(d, *off);
	b = zbd_idx(d, *off + *len - 1);
	for (i = a; i <= b && i < d->nr; i++)
		seq |= d->z[i].seq;
	if (!seq)
		return 0;	/* conventional zones only: any region will do */
	if (!(j->rw & (RW_WRITE | RW_TRIM | RW_TRIMWRITE))) {
		/* a read job: the end rounded down to a zone boundary */
		end = d->z[zbd_idx(d, *off + *len)].start;
		if (*off + *len > end)
			*len = end - *off;
		return 0;
	}
	first = d->z[zbd_idx(d, *off)].start;
	if (*off != first) {
		first += zs;
		if (first >= *off + *len)
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': offset=%llu size=%llu: "
				       "io_size must be at least one zone (%llu bytes) once the "
				       "region is rounded to whole zones",
				       j->name, (unsigned long long)*off, (unsigned long long)*len,
				       (unsigned long long)zs);
		*len -= first - *off;
		*off = first;
	}
	end = d->z[zbd_idx(d, *off + *len)].start;
	if (end <= *off)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': size=%llu: io_size must be at "
			       "least one zone (%llu bytes)", j->name, (unsigned long long)*len,
			       (unsigned long long)zs);
	*len = end - *off;
	return 0;
}

int zbd_attach_dev(struct zbd_dev *d, const struct job *j, uint64_t *off, uint64_t *len,
		   struct zbd_file *zf, struct err *e)
{
	int writes = (j->rw & (RW_WRITE | RW_TRIM | RW_TRIMWRITE)) != 0;
	uint32_t i;
	int r;

	if (j->zonesize && d->model != BLKZONED_NONE && j->zonesize != d->zone_size)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': job parameter zonesize=%llu does "
			       "not match disk zone size %llu of %s", j->name,
			       (unsigned long long)j->zonesize, (unsigned long long)d->zone_size,
			       d->path);
	if (j->zoneskip % d->zone_size)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': zoneskip %llu is not a multiple of "
			       "the device zone size %llu", j->name, (unsigned long long)j->zoneskip,
			       (unsigned long long)d->zone_size);
	/* (a namespace's char device has no page cache: nothing is buffered there) */
	if (writes && !j->direct && d->model == BLKZONED_HOST_MANAGED && d->src.kind != ZONESRC_NVME)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': %s: Using direct I/O is mandatory "
			       "for writing to ZBD drives (direct=0; the device is host-managed)",
			       j->name, d->path);
	/* a trim is a zone's reset (zbd_adjust_trim): whole zones, as fio checks */
	if ((j->rw & (RW_TRIM | RW_TRIMWRITE)) &&
	    (j->bs_min[DDIR_TRIM] != j->bs_max[DDIR_TRIM] || j->bssplit_nr[DDIR_TRIM]))
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': bsrange and bssplit are not "
			       "allowed for trims with zonemode=zbd (as in fio)", j->name);
	if ((j->rw & (RW_TRIM | RW_TRIMWRITE)) &&
	    j->bs[DDIR_TRIM] != d->zone_size)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': %s: trim block size %llu is not the "
			       "zone size %llu (a trim resets its zone, as in fio)", j->name, d->path,
			       (unsigned long long)j->bs[DDIR_TRIM], (unsigned long long)d->zone_size);
	if (j->bs_max[DDIR_WRITE] > d->zone_size && writes)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': block size %llu: buflen exceeds "
			       "zone size %llu", j->name, (unsigned long long)j->bs_max[DDIR_WRITE],
			       (unsigned long long)d->zone_size);
	r = zbd_dev_limit(d, j, e);
	if (r)
		return r;
	r = zbd_align(d, j, off, len, e);
	if (r)
		return r;
	zf->d = d;
	zf->off = *off;
	zf->io_size = *len;
	zf->zmin = zbd_idx(d, *off);
	zf->zmax = zbd_idx(d, *off + *len);
	if (!writes)
		return 0;
	if (j->job_max_open_zones && !d->max_open)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': job_max_open_zones needs a limit "
			       "on the device's open zones (max_open_zones=)", j->name);
	if (j->zone_reset_threshold > 0) {
		if (d->wmin != d->wmax && (d->wmin != zf->zmin || d->wmax != zf->zmax))
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': zone_reset_threshold with "
				       "different write ranges on %s: jobs writing one device "
				       "with it must write the same zones (as in fio)",
				       j->name, d->path);
		if (d->wmin == d->wmax) {
			d->wmin = zf->zmin;
			d->wmax = zf->zmax;
			d->valid = 0;
			for (i = zf->zmin; i < zf->zmax; i++)
				if (d->z[i].seq)
					d->valid += d->z[i].wp - d->z[i].start;
		}
	}
	/* zones the device has open already count against the limit */
	for (i = zf->zmin; i < zf->zmax && d->max_open; i++) {
		struct zbd_zone *z = &d->z[i];

		if (z->cond != BLKZONED_COND_IMP_OPEN && z->cond != BLKZONED_COND_EXP_OPEN &&
		    (z->cond != BLKZONED_COND_CLOSED || !d->dev_max_active))
			continue;
		if (z->open)
			continue;
		if (d->nr_open >= d->max_open)
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': %s has more zones open than "
				       "max_open_zones=%u", j->name, d->path, d->max_open);
		d->open[d->nr_open++] = i;
		z->open = 1;
	}
	return 0;
}

/*
 * The device at @f's path in @s, read and added when it is new.  With s->mu
 * held.  0 with *@out set, or -errno with @e filled.
 */
static int zbd_dev_get(struct zbd_set *s, const struct job *j, const struct engine_file *f,
		       struct zbd_dev **out, struct err *e)
{
	struct zbd_dev *d;
	int r;

	for (d = s->head; d; d = d->next)
		if (!strcmp(d->path, f->path))
			break;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d || !(d->path = strdup(f->path))) {
			free(d);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
		d->fd = -1;
		pthread_mutex_init(&d->mu, NULL);
		r = zbd_dev_read(d, j, f, e);
		if (r) {
			zbd_dev_free(d);
			return r;
		}
		d->next = s->head;
		s->head = d;
	}
	*out = d;
	return 0;
}

int zbd_zone_size(struct zbd_set *s, const struct job *j, const char *path, uint64_t *zone_size,
		  struct err *e)
{
	struct engine_file f = { .fd = open(path, O_RDONLY | O_CLOEXEC), .path = (char *)path };
	struct zbd_dev *d = NULL;
	int r;

	if (f.fd < 0)
		return err_set(e, -errno, EXIT_TARGET, "%s: %m", path);
	pthread_mutex_lock(&s->mu);
	r = zbd_dev_get(s, j, &f, &d, e);
	pthread_mutex_unlock(&s->mu);
	close(f.fd);
	if (!r)
		*zone_size = d->zone_size;
	return r;
}

int zbd_attach(struct zbd_set *s, const struct job *j, struct engine_file *f, struct zbd_file *zf,
	       struct err *e)
{
	struct zbd_dev *d;
	int r;

	pthread_mutex_lock(&s->mu);
	r = zbd_dev_get(s, j, f, &d, e);
	if (r) {
		pthread_mutex_unlock(&s->mu);
		return r;
	}
	/* resets need the device open for writing: only for a job that writes */
	if (!d->fd_rw && d->fd >= 0 && job_writes(j)) {
		int fd = open(f->path, O_RDWR | O_CLOEXEC);

		if (fd < 0) {
			r = err_set(e, -errno, EXIT_TARGET, "%s: %m", f->path);
			pthread_mutex_unlock(&s->mu);
			return r;
		}
		close(d->fd);
		d->fd = fd;
		d->fd_rw = 1;
	}
	pthread_mutex_lock(&d->mu);
	r = zbd_attach_dev(d, j, &f->offset, &f->size, zf, e);
	pthread_mutex_unlock(&d->mu);
	pthread_mutex_unlock(&s->mu);
	return r;
}

void zbd_job_init(struct zbd_job *jb, struct zbd_set *s, const struct job *j,
		  const uint64_t *min_bs, struct zbd_file *files, unsigned nr_files)
{
	uint64_t region = 0;
	unsigned k;

	memset(jb, 0, sizeof(*jb));
	pthread_mutex_lock(&s->mu);
	jb->id = s->next_id++;
	pthread_mutex_unlock(&s->mu);
	jb->j = j;
	memcpy(jb->min_bs, min_bs, sizeof(jb->min_bs));
	jb->random = (j->rw & RW_RAND) != 0;
	jb->writes = (j->rw & RW_WRITE) != 0;
	jb->mixed = (j->rw & RW_READ) && (j->rw & RW_WRITE);
	jb->files = files;
	jb->nr_files = nr_files;
	for (k = 0; k < nr_files; k++)
		region += files[k].io_size;
	jb->seq_wrap = j->time_based || (j->io_size && j->io_size > region);
}

/* Complete this job's I/O in flight, with the device unlocked (completions take it). */
static void zbd_quiesce(struct zbd_job *jb, struct zbd_dev *d)
{
	if (!jb->quiesce)
		return;
	pthread_mutex_unlock(&d->mu);
	jb->quiesce(jb->quiesce_arg);
	pthread_mutex_lock(&d->mu);
}

/* Wait until no other job has writes in flight in zone @z. */
static void zbd_zone_wait(struct zbd_job *jb, struct zbd_dev *d, struct zbd_zone *z)
{
	struct timespec ts = { 0, 20000 };

	zbd_quiesce(jb, d);
	while (z->wr_inflight && z->writer != jb->id) {
		pthread_mutex_unlock(&d->mu);
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&d->mu);
	}
}

/* Take zone @zi out of the open set (fio counts it off the caller's job). */
static void zbd_open_put(struct zbd_job *jb, struct zbd_dev *d, uint32_t zi)
{
	uint32_t k;

	if (!d->z[zi].open)
		return;
	for (k = 0; k < d->nr_open && d->open[k] != zi; k++)
		;
	if (k == d->nr_open)
		return;
	memmove(d->open + k, d->open + k + 1, (ZBD_MAX_OPEN - (k + 1)) * sizeof(d->open[0]));
	d->nr_open--;
	if (jb->nr_open)
		jb->nr_open--;
	d->z[zi].open = 0;
}

/* Put zone @zi in the open set if the limits allow; 1 when it is (or was) there. */
static int zbd_open_get(struct zbd_job *jb, struct zbd_dev *d, uint32_t zi)
{
	struct zbd_zone *z = &d->z[zi];
	uint32_t jmax = jb->j->job_max_open_zones;

	if (z->cond == BLKZONED_COND_OFFLINE)
		return 0;
	/* with verify a full zone is never reset: that would lose what is to be checked */
	if (zbd_verifies(jb) && !zbd_left(z))
		return 0;
	if (!d->max_open)
		return 1;
	if (z->open)
		return zbd_left(z) != 0;	/* in-flight writes fill it: a full zone */
	if (jmax && jb->nr_open >= jmax)
		return 0;
	if (d->nr_open >= d->max_open)
		return 0;
	d->open[d->nr_open++] = zi;
	jb->nr_open++;
	z->open = 1;
	return 1;
}

static int zbd_open_get_bs(struct zbd_job *jb, struct zbd_dev *d, uint32_t zi)
{
	if (zbd_verifies(jb) && zbd_full(&d->z[zi], jb->min_bs[DDIR_WRITE]))
		return 0;
	return zbd_open_get(jb, d, zi);
}

/* Where the offset falls in the region, scaled to the open set: fio's quasi-random pick. */
static uint32_t zbd_pick_idx(const struct zbd_file *zf, uint64_t off)
{
	return (uint32_t)((unsigned __int128)(off - zf->off) * zf->d->nr_open / zf->io_size);
}

/* An open zone inside the region, starting from the pick; 0 when none. */
static int zbd_pick_open(const struct zbd_file *zf, uint64_t off, uint32_t *zi)
{
	const struct zbd_dev *d = zf->d;
	uint32_t k = zbd_pick_idx(zf, off), i;

	for (i = 0; i < d->nr_open; i++, k++) {
		if (k >= d->nr_open)
			k = 0;
		if (zf->zmin <= d->open[k] && d->open[k] < zf->zmax) {
			*zi = d->open[k];
			return 1;
		}
	}
	return 0;
}

/*
 * The zone a write at @off goes to (fio's zbd_convert_to_write_zone): @zb
 * if it may be written, else an open zone, else the next zone that can be
 * opened.  Returns the zone's index, or -1 when none can be written.
 */
static int64_t zbd_write_zone(struct zbd_job *jb, const struct zbd_file *zf, uint64_t off,
			      uint32_t zb)
{
	struct zbd_dev *d = zf->d;
	uint64_t min_bs = jb->min_bs[DDIR_WRITE], i;
	uint32_t zi, nz, jmax = jb->j->job_max_open_zones;
	int retried = 0, wait;

	if (zbd_open_get_bs(jb, d, zb))
		return zb;
	zi = d->max_open || jmax ? d->open[zbd_pick_idx(zf, off)] : zbd_idx(d, off);
	if (zi < zf->zmin)
		zi = zf->zmin;
	else if (zi >= zf->zmax)
		zi = zf->zmax - 1;
	for (;;) {
		struct zbd_zone *z = &d->z[zi];

		if (z->seq) {
			if (z->cond != BLKZONED_COND_OFFLINE && !d->max_open && !jmax)
				goto examine;
			if (!d->nr_open)
				goto other;
		}
		if (!zbd_pick_open(zf, off, &nz))
			return -1;
		if (nz == zi)
			break;
		zi = nz;
	}
examine:
	if (zbd_left(&d->z[zi]) >= min_bs)
		return zi;
other:
	wait = d->nr_open == zf->zmax - zf->zmin || (d->max_open && d->nr_open == d->max_open) ||
	       (jmax && jb->nr_open == jmax);
	if (wait)
		zbd_quiesce(jb, d);
retry:
	for (i = zf->io_size / d->zone_size; i > 0; i--) {
		zi++;
		if (zi >= d->nr || !zbd_in_region(zf, d->z[zi].start))
			zi = zf->zmin;	/* wrap around */
		if (!d->z[zi].seq || d->z[zi].open)
			continue;
		if (zbd_open_get_bs(jb, d, zi))
			return zi;
	}
	/* does the write fit in one of the open zones? */
	for (i = 0; i < d->nr_open; i++) {
		zi = d->open[i];
		if (zi >= zf->zmin && zi < zf->zmax && zbd_left(&d->z[zi]) >= min_bs)
			return zi;
	}
	/* completions may have closed zones: once more after they are in */
	if (!retried) {
		retried = 1;
		zbd_quiesce(jb, d);
		goto retry;
	}
	return -1;
}

/* Reset zone @z's write pointer (the device's, then the table's). */
static int zbd_reset(struct zbd_job *jb, struct zbd_dev *d, struct zbd_zone *z)
{
	uint64_t data = z->wp - z->start;
	int r;

	if (!data)
		return 0;
	if (d->fd >= 0 && d->model != BLKZONED_NONE) {
		r = zonesrc_reset(&d->src, d->fd, z->start, (z + 1)->start - z->start);
		if (r)
			return r;
	}
	if (zbd_counts_valid(jb))
		d->valid -= data < d->valid ? data : d->valid;
	z->wp = z->start;
	if (z->cond != BLKZONED_COND_NOT_WP)
		z->cond = BLKZONED_COND_EMPTY;
	jb->resets++;
	return 0;
}

/* zone_reset_frequency: whether this write is the one that resets its zone. */
static int zbd_reset_tick(struct zbd_job *jb, struct zbd_dev *d)
{
	double f = jb->j->zone_reset_frequency;

	if (d->write_cnt)
		d->write_cnt--;
	if (d->write_cnt)
		return 0;
	d->write_cnt = f > 0 ? (1.0 / f < (double)UINT32_MAX ? (uint32_t)(1.0 / f) : UINT32_MAX)
			     : UINT32_MAX;
	return 1;
}

/* The job's first I/O: with verify its zones start empty; the reset counter starts. */
static int zbd_start(struct zbd_job *jb)
{
	unsigned k;

	jb->started = 1;
	if (!jb->writes)
		return 0;
	for (k = 0; k < jb->nr_files; k++) {
		struct zbd_file *zf = &jb->files[k];
		struct zbd_dev *d = zf->d;
		double f = jb->j->zone_reset_frequency;
		uint32_t i;
		int r = 0;

		if (!d)
			continue;
		pthread_mutex_lock(&d->mu);
		for (i = zf->zmin; zbd_verifies(jb) && i < zf->zmax && !r; i++) {
			if (!d->z[i].seq || d->z[i].wp == d->z[i].start)
				continue;
			zbd_zone_wait(jb, d, &d->z[i]);
			r = zbd_reset(jb, d, &d->z[i]);
			if (!r)
				zbd_open_put(jb, d, i);
		}
		d->write_cnt = f > 0 ? (1.0 / f < (double)UINT32_MAX ? (uint32_t)(1.0 / f) : UINT32_MAX)
				     : UINT32_MAX;
		pthread_mutex_unlock(&d->mu);
		if (r)
			return r;
	}
	return 0;
}

/* The nearest zone to @zb with @min bytes written (after it; random I/O: before it too). */
static int64_t zbd_find_data(const struct zbd_job *jb, const struct zbd_file *zf, uint64_t min,
			     uint32_t zb)
{
	const struct zbd_dev *d = zf->d;
	int64_t z1 = (int64_t)zb + 1, z2 = (int64_t)zb - 1;

	for (; z1 < zf->zmax || z2 >= zf->zmin; z1++, z2--) {
		if (z1 < zf->zmax && d->z[z1].cond != BLKZONED_COND_OFFLINE) {
			if (d->z[z1].start + min <= d->z[z1].wp)
				return z1;
		} else if (!jb->random) {
			break;
		}
		if (jb->random && z2 >= zf->zmin && d->z[z2].cond != BLKZONED_COND_OFFLINE &&
		    d->z[z2].start + min <= d->z[z2].wp)
			return z2;
	}
	return -1;
}

static int zbd_adjust_read(struct zbd_job *jb, const struct zbd_file *zf, struct io_u *io)
{
	struct zbd_dev *d = zf->d;
	uint64_t min_bs = jb->min_bs[DDIR_READ], range, len;
	uint32_t zb = zbd_idx(d, io->offset), orig = zb;
	const struct zbd_zone *z = &d->z[zb];
	int64_t found;

	if (!z->seq)
		return ZBD_OK;
	if (jb->j->read_beyond_wp && z->cond != BLKZONED_COND_OFFLINE)
		return ZBD_OK;
	range = z->cond != BLKZONED_COND_OFFLINE ? z->wp - z->start : 0;
	if (range < min_bs || (!jb->random && io->offset + min_bs > z->wp)) {
		found = zbd_find_data(jb, zf, min_bs, zb);
		if (found < 0)
			return ZBD_EOF;
		zb = (uint32_t)found;
		z = &d->z[zb];
		range = z->wp - z->start;
		if (!jb->random)
			io->offset = z->start;
	}
	if (range <= io->len)
		io->offset = z->start;
	else if (jb->random)
		io->offset = z->start + ((io->offset - d->z[orig].start) % (range - io->len)) /
					min_bs * min_bs;
	if (!z->seq)
		return ZBD_OK;
	len = z->wp - io->offset < io->len ? z->wp - io->offset : io->len;
	len = len / min_bs * min_bs;
	if (len < io->len)
		io->len = (uint32_t)len;
	return ZBD_OK;
}

static int zbd_adjust_write(struct zbd_job *jb, const struct zbd_file *zf, struct io_u *io)
{
	struct zbd_dev *d = zf->d;
	uint64_t min_bs = jb->min_bs[DDIR_WRITE], len, end;
	uint32_t zb = zbd_idx(d, io->offset);
	struct zbd_zone *z = &d->z[zb];
	int64_t zi;
	int r, ticked = 0, drained = 0;

	if (!z->seq)
		return ZBD_OK;	/* a conventional zone takes writes anywhere */
	/* sequential writes skip from a zone's capacity to its end, as fio */
	if (!jb->random && z->cap < d->zone_size && io->offset >= zbd_cap_end(z)) {
		io->offset = (z + 1)->start;
		/* past the region's end: fio's pass is over unless io_size asks for more */
		if (!zbd_in_region(zf, io->offset)) {
			if (!jb->seq_wrap)
				return ZBD_EOF;
			io->offset = zf->off;
		}
		zb = zbd_idx(d, io->offset);
	}
	/*
	 * Every wait below releases the device's mutex, and another job may
	 * then take the zone, write it or reset it: after each one the choice
	 * starts again.  The reset itself and the write's place at the write
	 * pointer are decided in one hold of the mutex, with no write of any job
	 * in flight in the zone (fio holds the zone's lock until its writes
	 * complete).  Before, a job drained its own writes, released the mutex
	 * and reset: another job could take the zone in between and have its
	 * write reach the device after the reset, or before this job's own
	 * first write (fio's t/zbd case 46: EIO in 4 of 8 runs, 8 jobs at QD64).
	 */
	for (;;) {
		zi = zbd_write_zone(jb, zf, io->offset, zb);
		if (zi < 0)
			return ZBD_EOF;
		z = &d->z[zi];
		if (z->wr_inflight && z->writer != jb->id) {
			zbd_zone_wait(jb, d, z);
			continue;
		}
		if (!ticked) {	/* once per write: the tick counts writes */
			ticked = 1;
			if (jb->j->zone_reset_frequency > 0 &&
			    d->valid >= zf->io_size * jb->j->zone_reset_threshold && zbd_reset_tick(jb, d))
				z->reset_due = 1;
		}
		/* with verify a zone is not reset under the data still to check */
		if ((z->reset_due && !zbd_verifies(jb)) || zbd_full(z, min_bs)) {
			if (z->wr_inflight) {	/* this job's: complete them first */
				if (drained)	/* the quiesce could not (an error ends the job) */
					return ZBD_EOF;
				drained = 1;
				zbd_quiesce(jb, d);
				continue;
			}
			z->reset_due = 0;
			r = zbd_reset(jb, d, z);
			if (r)
				return r;
			if (z->cap < min_bs)
				return -EINVAL;
		}
		break;
	}
	io->offset = z->wp;
	if (!zbd_in_region(zf, io->offset))
		return ZBD_EOF;
	len = zbd_cap_end(z) - io->offset < io->len ? zbd_cap_end(z) - io->offset : io->len;
	len = len / min_bs * min_bs;
	if (len < min_bs)
		return ZBD_EOF;
	io->len = (uint32_t)len;
	/* the wp moves when the write is issued, so the next write follows it */
	end = io->offset + io->len;
	if (zbd_counts_valid(jb))
		d->valid += end - z->wp;
	z->wp = end;
	if (z->cond == BLKZONED_COND_EMPTY)
		z->cond = BLKZONED_COND_IMP_OPEN;
	z->wr_inflight++;
	z->writer = jb->id;
	jb->wrote = 1;
	return ZBD_OK;
}

/*
 * A trim of a zone with a write pointer is that zone's reset, as fio 3.33
 * turns it into one: at the zone's start (the block size is the zone size,
 * zbd_attach_dev), counted when the zone held data, and done here, so the
 * I/O completes without the engine (zbd_trim_done).  A random trim of an
 * empty zone goes to the nearest zone with data (none: the job is done); a
 * sequential one resets nothing.  A conventional zone is trimmed as any
 * target is.
 */
static int zbd_adjust_trim(struct zbd_job *jb, const struct zbd_file *zf, struct io_u *io)
{
	struct zbd_dev *d = zf->d;
	uint32_t zb = zbd_idx(d, io->offset);
	struct zbd_zone *z = &d->z[zb];
	int64_t found;
	int r;

	if (!z->seq)
		return ZBD_OK;
	if (jb->random && z->wp == z->start) {
		found = zbd_find_data(jb, zf, 1, zb);
		if (found < 0)
			return ZBD_EOF;
		zb = (uint32_t)found;
		z = &d->z[zb];
		io->offset = z->start;
	}
	if (io->offset != z->start)
		return -EINVAL;	/* fio: "Trim offset not at zone start" */
	if (z->wr_inflight)
		zbd_zone_wait(jb, d, z);
	r = zbd_reset(jb, d, z);
	if (!r)
		zbd_open_put(jb, d, zb);
	return r;
}

int zbd_trim_done(const struct zbd_job *jb, const struct io_u *io)
{
	const struct zbd_file *zf;

	if (io->ddir != DDIR_TRIM || io->file >= jb->nr_files || !jb->files[io->file].d)
		return 0;
	zf = &jb->files[io->file];
	return zf->d->z[zbd_idx(zf->d, io->offset)].seq;
}

int zbd_adjust(struct zbd_job *jb, struct io_u *io)
{
	struct zbd_file *zf;
	int r;

	if (io->file >= jb->nr_files || !jb->files[io->file].d || io->ddir >= DDIR_NR)
		return ZBD_OK;
	if (!jb->started && (r = zbd_start(jb)))
		return r;
	zf = &jb->files[io->file];
	if (!zbd_in_region(zf, io->offset))
		return ZBD_EOF;
	/* a mixed job writes first: an empty zone has nothing to read yet (fio) */
	if (io->ddir == DDIR_READ && jb->mixed && !jb->wrote && !jb->j->read_beyond_wp &&
	    jb->j->rwmixread < 100)
		io->ddir = DDIR_WRITE;
	pthread_mutex_lock(&zf->d->mu);
	if (io->ddir == DDIR_READ)
		r = zbd_adjust_read(jb, zf, io);
	else if (io->ddir == DDIR_WRITE)
		r = zbd_adjust_write(jb, zf, io);
	else
		r = zbd_adjust_trim(jb, zf, io);
	pthread_mutex_unlock(&zf->d->mu);
	return r;
}

void zbd_new_pass(struct zbd_job *jb)
{
	jb->started = 0;	/* zbd_start runs again at the pass's first I/O */
}

void zbd_done(struct zbd_job *jb, const struct io_u *io)
{
	struct zbd_file *zf;
	struct zbd_dev *d;
	struct zbd_zone *z;
	uint32_t zi;

	if (io->ddir != DDIR_WRITE || io->file >= jb->nr_files || !jb->files[io->file].d)
		return;
	zf = &jb->files[io->file];
	d = zf->d;
	zi = zbd_idx(d, io->offset);
	z = &d->z[zi];
	if (!z->seq)
		return;
	pthread_mutex_lock(&d->mu);
	/* a write that filled its zone closes it: it leaves the open set */
	if (io->offset + io->len >= zbd_cap_end(z))
		zbd_open_put(jb, d, zi);
	if (z->wr_inflight && --z->wr_inflight == 0)
		z->writer = 0;
	pthread_mutex_unlock(&d->mu);
}

uint64_t zbd_wp(const struct zbd_file *zf, uint64_t off)
{
	return zf->d->z[zbd_idx(zf->d, off)].wp;
}

int zbd_zone_data(const struct zbd_file *zf, uint32_t k, uint64_t *start, uint64_t *end)
{
	struct zbd_dev *d = zf->d;
	const struct zbd_zone *z;
	int r;

	if (!d || k >= zf->zmax - zf->zmin)
		return -1;
	pthread_mutex_lock(&d->mu);
	z = &d->z[zf->zmin + k];
	*start = z->start;
	*end = z->cond == BLKZONED_COND_OFFLINE ? z->start : z->wp;
	r = z->seq;
	pthread_mutex_unlock(&d->mu);
	return r;
}

int zbd_conventional(const struct zbd_file *zf, uint64_t off)
{
	return zf->d && !zf->d->z[zbd_idx(zf->d, off)].seq;
}
