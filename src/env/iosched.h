/*
 * iosched: a job's ioscheduler=NAME, fio's option: the I/O scheduler of the
 * devices under the job's files is switched for the run and put back after.
 *
 * The device of a target is the one fio's disk statistics name (diskutil.h):
 * a block device itself; for a file, the device of its filesystem; a
 * partition's whole disk (a partition has no queue of its own).  Its
 * /sys/block/DEV/queue/scheduler lists the choices ("[none] mq-deadline
 * kyber"): a name not among them, or a device that offers no choice (none
 * only, or no such file: dm, tmpfs), is refused with the list, before any
 * I/O.  Each device is switched once and its old scheduler kept; every job
 * that names one for a device must name the same (iotrial switches at the
 * run's start, not when each stonewall group starts as fio does).
 * iosched_restore() puts them all back whatever ended the run (the run
 * calls it on success, failure and SIGINT alike); only a killed process
 * leaves a device switched, and iosched_restore says which it could not
 * restore.
 */
#ifndef IOTRIAL_IOSCHED_H
#define IOTRIAL_IOSCHED_H

#include <stddef.h>
#include "lib/err.h"

struct json_t;

#define IOSCHED_NAME_MAX 64

struct iosched_dev {
	char name[64];			/* kernel name: loop3, sda */
	char *file;			/* its queue/scheduler (malloc'd) */
	char before[IOSCHED_NAME_MAX];	/* what it had */
	char now[IOSCHED_NAME_MAX];	/* what the run set */
	const char *job;		/* the first job that named it (for messages) */
};

struct iosched {
	const char *sysfs;		/* NULL: "/sys"; tests point it at a fake tree */
	struct iosched_dev *dev;
	size_t nr, cap;
};

/*
 * Switch the device under @path to scheduler @name for job @job.  0, or
 * -errno with @e filled (EXIT_USAGE: no device, no choice, an unknown name
 * (the message lists those available), another job's different choice;
 * EXIT_TARGET: the kernel refused the write).  A device already switched to
 * @name is left as it is.
 */
int iosched_switch(struct iosched *s, const char *path, const char *name, const char *job,
		   struct err *e);

/*
 * Put back every device's old scheduler, the last switched first.  0, or the
 * first -errno with @e filled (@e may be NULL), naming the device left
 * switched; every device is tried.  Devices restored are forgotten, so a
 * second call does nothing.
 */
int iosched_restore(struct iosched *s, struct err *e);

/* The switches as [{"device", "scheduler", "before"}], or NULL when none (or no memory). */
struct json_t *iosched_json(const struct iosched *s);

/* Release @s (without restoring: call iosched_restore first). */
void iosched_free(struct iosched *s);

#endif
