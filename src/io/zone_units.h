/*
 * zone_units: fio's zone units, "size=4z", a number of zones for size,
 * io_size, offset, offset_increment and zoneskip (fio 3.33 takes them on
 * these five and refuses the suffix elsewhere).  The parser keeps the count
 * (struct job's zunits); the bytes follow from the zone size, which is known
 * when the job is validated if zonesize= is set (zonemode=strided, zbd's
 * emulated zones, a zoned device whose size is given), or else once the
 * job's zoned block device is looked at (zonemode=zbd alone).  fio reads
 * zone units under zonemode=none as 0, the whole file, without a word:
 * iotrial refuses them (opt_validate.c).
 */
#ifndef IOTRIAL_ZONE_UNITS_H
#define IOTRIAL_ZONE_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"

/* The JOB_ZU_ slot of the struct job field at offset @off, or -1 when it takes no zone units. */
int zone_units_slot(size_t off);

/* The option's name for slot @k ("size", ...). */
const char *zone_units_name(unsigned k);

/* The first slot of @j given in zones, or -1 when none is. */
int zone_units_first(const struct job *j);

/*
 * Set the bytes of every option of @j given in zones from @zone_size.
 * 0, or -EINVAL (EXIT_USAGE) with @e naming the job, the option and its
 * value when the bytes overflow.
 */
int zone_units_apply(struct job *j, uint64_t zone_size, struct err *e);

/*
 * The zone size of clone @jobnum's targets under zonemode=zbd without
 * zonesize=: each target's device is read as zonemode=zbd reads it (zbd_dev.h)
 * and joins @s.  0 with *@zone_size set, or -errno with @e filled:
 * EXIT_USAGE naming the option given in zones when a target is not a
 * device or two disagree, else zbd's own errors.
 */
struct zbd_set;
int zone_units_device(struct zbd_set *s, const struct job *j, unsigned jobnum, uint64_t *zone_size,
		      struct err *e);

#endif
