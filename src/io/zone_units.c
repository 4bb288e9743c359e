/*
 * zone_units: fio's "Nz" values turned into bytes (see zone_units.h).
 */
#include "io/zone_units.h"

#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <sys/stat.h>	/* stat, S_ISBLK */
#include "io/file.h"	/* file_names: the targets, untouched */
#include "io/zbd_dev.h"	/* zbd_dev_zone_size: the device read as zonemode=zbd reads it */

/* The one list of the options that take zone units: their fields and names. */
static const struct {
	size_t off;
	const char *name;
} zone_units_opts[JOB_ZU_NR] = {
	[JOB_ZU_SIZE] = { offsetof(struct job, size), "size" },
	[JOB_ZU_IO_SIZE] = { offsetof(struct job, io_size), "io_size" },
	[JOB_ZU_OFFSET] = { offsetof(struct job, offset), "offset" },
	[JOB_ZU_OFFSET_INCREMENT] = { offsetof(struct job, offset_increment), "offset_increment" },
	[JOB_ZU_ZONESKIP] = { offsetof(struct job, zoneskip), "zoneskip" },
};

int zone_units_slot(size_t off)
{
	unsigned k;

	for (k = 0; k < JOB_ZU_NR; k++)
		if (zone_units_opts[k].off == off)
			return (int)k;
	return -1;
}

const char *zone_units_name(unsigned k)
{
	return k < JOB_ZU_NR ? zone_units_opts[k].name : "?";
}

int zone_units_first(const struct job *j)
{
	unsigned k;

	for (k = 0; k < JOB_ZU_NR; k++)
		if (j->zunits[k])
			return (int)k;
	return -1;
}

int zone_units_apply(struct job *j, uint64_t zone_size, struct err *e)
{
	unsigned k;

	for (k = 0; k < JOB_ZU_NR; k++) {
		uint64_t *v = (uint64_t *)(void *)((char *)j + zone_units_opts[k].off);

		if (!j->zunits[k])
			continue;
		if (zone_size > UINT64_MAX / j->zunits[k])
			return job_err(e, j, "%s=%uz: %u zones of %llu bytes are more than 2^64 bytes",
				       zone_units_opts[k].name, j->zunits[k], j->zunits[k],
				       (unsigned long long)zone_size);
		*v = (uint64_t)j->zunits[k] * zone_size;
	}
	if (j->zunits[JOB_ZU_SIZE])
		j->size_pct = 0;
	if (j->zunits[JOB_ZU_OFFSET])
		j->offset_pct = 0;
	return 0;
}

int zone_units_device(struct zbd_set *s, const struct job *j, unsigned jobnum, uint64_t *zone_size,
		      struct err *e)
{
	int k = zone_units_first(j);
	const char *opt = zone_units_name(k < 0 ? 0 : (unsigned)k);
	unsigned nz = k < 0 ? 0 : j->zunits[k], nr = 0, i;
	char **names = NULL;
	uint64_t zs = 0, one = 0;
	int r;

	r = file_names(j, jobnum, &names, &nr, e);
	if (r)
		return r;
	for (i = 0; i < nr && !r; i++) {
		struct stat st;

		/* only a device can say its zone size (a file's zones are zonesize=) */
		if (stat(names[i], &st) || !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))) {
			r = job_err(e, j, "%s=%uz: %s is not a zoned block device: zone units need "
				    "zonesize=", opt, nz, names[i]);
			break;
		}
		r = zbd_dev_zone_size(s, j, names[i], &one, e);
		if (!r && zs && one != zs)
			r = job_err(e, j, "%s=%uz: %s has zones of %llu bytes, another target of "
				    "%llu: give bytes", opt, nz, names[i], (unsigned long long)one,
				    (unsigned long long)zs);
		zs = one;
	}
	if (!r && !zs)
		r = job_err(e, j, "%s=%uz: the job has no target to take the zone size from", opt, nz);
	file_names_free(names, nr);
	if (!r)
		*zone_size = zs;
	return r;
}
