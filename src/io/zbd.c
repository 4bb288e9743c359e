/*
 * zbd: zonemode=zbd's per-I/O zone rules (see zbd.h): which zone a write
 * goes to, when the job waits, when a zone is reset, what a read may reach.
 * Not the zone table's set-up nor the checks a job passes to join a device
 * (zbd_dev.c).  The choices follow fio's zbd.c (read for its semantics, not
 * copied).
 */
#include "io/zbd.h"

#include <errno.h>
#include <string.h>	/* memcpy, memmove, memset */
#include <time.h>	/* nanosleep */

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
	zi = d->max_open || jmax ? d->open[zbd_pick_idx(zf, off)] : zbd_dev_idx(d, off);
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
	uint32_t zb = zbd_dev_idx(d, io->offset), orig = zb;
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
	uint32_t zb = zbd_dev_idx(d, io->offset);
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
		zb = zbd_dev_idx(d, io->offset);
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
 * zbd_dev_join), counted when the zone held data, and done here, so the
 * I/O completes without the engine (zbd_trim_done).  A random trim of an
 * empty zone goes to the nearest zone with data (none: the job is done); a
 * sequential one resets nothing.  A conventional zone is trimmed as any
 * target is.
 */
static int zbd_adjust_trim(struct zbd_job *jb, const struct zbd_file *zf, struct io_u *io)
{
	struct zbd_dev *d = zf->d;
	uint32_t zb = zbd_dev_idx(d, io->offset);
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
	return zf->d->z[zbd_dev_idx(zf->d, io->offset)].seq;
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
	zi = zbd_dev_idx(d, io->offset);
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
	return zf->d->z[zbd_dev_idx(zf->d, off)].wp;
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
	return zf->d && !zf->d->z[zbd_dev_idx(zf->d, off)].seq;
}
