/*
 * zbd_dev: zonemode=zbd's devices and their zone tables (see zbd_dev.h): how
 * a device's zones are read or emulated, and the checks and zone alignment a
 * job's region passes to join one.  Not the rules each I/O follows once the
 * job runs (zbd.c).  The choices follow fio's zbd.c (read for its semantics,
 * not copied).
 */
#include "io/zbd_dev.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdlib.h>	/* calloc, free, realloc */
#include <string.h>	/* memcpy, strcmp, strdup, strerror */
#include <unistd.h>	/* close */

#define ZBD_REPORT_BATCH 4096u

void zbd_dev_set_init(struct zbd_set *s)
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

void zbd_dev_set_free(struct zbd_set *s)
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
	a = zbd_dev_idx(d, *off);
	b = zbd_dev_idx(d, *off + *len - 1);
	for (i = a; i <= b && i < d->nr; i++)
		seq |= d->z[i].seq;
	if (!seq)
		return 0;	/* conventional zones only: any region will do */
	if (!(j->rw & (RW_WRITE | RW_TRIM | RW_TRIMWRITE))) {
		/* a read job: the end rounded down to a zone boundary */
		end = d->z[zbd_dev_idx(d, *off + *len)].start;
		if (*off + *len > end)
			*len = end - *off;
		return 0;
	}
	first = d->z[zbd_dev_idx(d, *off)].start;
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
	end = d->z[zbd_dev_idx(d, *off + *len)].start;
	if (end <= *off)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': size=%llu: io_size must be at "
			       "least one zone (%llu bytes)", j->name, (unsigned long long)*len,
			       (unsigned long long)zs);
	*len = end - *off;
	return 0;
}

int zbd_dev_join(struct zbd_dev *d, const struct job *j, uint64_t *off, uint64_t *len,
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
	zf->zmin = zbd_dev_idx(d, *off);
	zf->zmax = zbd_dev_idx(d, *off + *len);
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

int zbd_dev_zone_size(struct zbd_set *s, const struct job *j, const char *path,
		      uint64_t *zone_size, struct err *e)
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

int zbd_dev_attach(struct zbd_set *s, const struct job *j, struct engine_file *f,
		   struct zbd_file *zf, struct err *e)
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
	r = zbd_dev_join(d, j, &f->offset, &f->size, zf, e);
	pthread_mutex_unlock(&d->mu);
	pthread_mutex_unlock(&s->mu);
	return r;
}
