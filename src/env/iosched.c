/*
 * iosched: switching a device's I/O scheduler for the run (iosched.h).
 */
#include "env/iosched.h"

#include <errno.h>	/* EINVAL, ENODEV, ENOMEM */
#include <fcntl.h>	/* open */
#include <jansson.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strcmp, strdup, strerror */
#include <unistd.h>	/* read, write, close */
#include "env/diskutil.h"	/* the device under a path, as the disk statistics find it */
#include "lib/vec.h"

/* Read @file ("[none] mq-deadline kyber") into @buf, newline cut.  0 or -errno. */
static int iosched_read(const char *file, char *buf, size_t len)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The bracketed (active) name of @list into @out; 0, or -EINVAL when none is. */
static int iosched_active(const char *list, char *out, size_t len)
{
	const char *l = strchr(list, '['), *r = l ? strchr(l, ']') : NULL;

	if (!l || !r || (size_t)(r - l - 1) >= len)
		return -EINVAL;
	snprintf(out, len, "%.*s", (int)(r - l - 1), l + 1);
	return 0;
}

/* Is @name one of @list's words (brackets aside)?  Counts the words in *@nr. */
static int iosched_offers(const char *list, const char *name, size_t *nr)
{
	size_t n = strlen(name);
	const char *p = list;
	int hit = 0;

	*nr = 0;
	while (*p) {
		size_t w;

		p += strspn(p, " [");
		w = strcspn(p, " ]");
		if (!w)
			break;
		(*nr)++;
		if (w == n && !strncmp(p, name, n))
			hit = 1;
		p += w;
		p += strspn(p, "]");
	}
	return hit;
}

/* Write @name to @file and read back that it is active.  0 or -errno. */
static int iosched_write(const char *file, const char *name)
{
	char buf[512], now[IOSCHED_NAME_MAX];
	int fd = open(file, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, name, strlen(name)) < 0)
		r = -errno;
	close(fd);
	if (!r)
		r = iosched_read(file, buf, sizeof(buf));
	if (!r && (iosched_active(buf, now, sizeof(now)) || strcmp(now, name)))
		r = -EIO;
	return r;
}

/* The first device under @path that has a queue/scheduler: its name and file. */
static int iosched_find(const struct iosched *s, const char *path, char *name, size_t nlen,
			char *file, size_t flen)
{
	struct diskutil d;
	int r = -ENODEV;

	memset(&d, 0, sizeof(d));
	d.sysfs = s->sysfs;
	if (diskutil_start(&d, &path, 1, NULL)) {
		diskutil_free(&d);
		return -ENOMEM;
	}
	/* diskutil lists the device, then a partition's disk, then members */
	for (size_t i = 0; i < d.nr && r; i++) {
		snprintf(file, flen, "%s/queue/scheduler", d.dev[i].dir);
		if (!access(file, F_OK)) {
			snprintf(name, nlen, "%s", d.dev[i].name);
			r = 0;
		}
	}
	if (r && d.nr)
		snprintf(name, nlen, "%s", d.dev[0].name);
	else if (r)
		name[0] = '\0';
	diskutil_free(&d);
	return r;
}

int iosched_switch(struct iosched *s, const char *path, const char *name, const char *job,
		   struct err *e)
{
	char dev[64], file[4096], list[512], before[IOSCHED_NAME_MAX];
	struct iosched_dev *d;
	size_t i, nr;
	int r;

	r = iosched_find(s, path, dev, sizeof(dev), file, sizeof(file));
	if (r == -ENOMEM)
		return err_set(e, r, EXIT_INTERNAL, "out of memory");
	if (r)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': ioscheduler=%s: %s %s%s%s has no I/O "
			       "scheduler to switch", job, name, path, dev[0] ? "(device " : "(on no block "
			       "device", dev, dev[0] ? ")" : ")");
	for (i = 0; i < s->nr; i++) {
		if (strcmp(s->dev[i].name, dev))
			continue;
		if (!strcmp(s->dev[i].now, name))
			return 0;
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': ioscheduler=%s for %s, but job '%s' "
			       "sets it to %s for the run (one scheduler per device)", job, name, dev,
			       s->dev[i].job, s->dev[i].now);
	}
	r = iosched_read(file, list, sizeof(list));
	if (r)
		return err_set(e, r, EXIT_TARGET, "job '%s': ioscheduler: cannot read %s: %s", job,
			       file, strerror(-r));
	if (!iosched_offers(list, name, &nr) || nr < 2 || iosched_active(list, before, sizeof(before)))
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': ioscheduler=%s: %s %s (%s offers: %s)",
			       job, name, nr < 2 ? "no scheduler to choose on" : "unknown to", dev, dev,
			       list);
	if (vec_grow((void **)&s->dev, &s->cap, s->nr + 1, sizeof(*s->dev), 4))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	d = &s->dev[s->nr];
	memset(d, 0, sizeof(*d));
	d->file = strdup(file);
	if (!d->file)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	snprintf(d->name, sizeof(d->name), "%s", dev);
	snprintf(d->before, sizeof(d->before), "%s", before);
	snprintf(d->now, sizeof(d->now), "%s", name);
	d->job = job;
	s->nr++;	/* kept before the write: a half-done switch is put back too */
	r = iosched_write(file, name);
	if (r)
		return err_set(e, r, EXIT_TARGET, "job '%s': ioscheduler=%s: %s refused it: %s", job,
			       name, file, strerror(-r));
	return 0;
}

int iosched_restore(struct iosched *s, struct err *e)
{
	int ret = 0;

	while (s->nr) {
		struct iosched_dev *d = &s->dev[s->nr - 1];
		int r = iosched_write(d->file, d->before);

		if (r && !ret) {
			ret = r;
			if (e)
				err_set(e, r, EXIT_TARGET, "ioscheduler: could not put %s back to %s "
					"(it stays %s): %s", d->name, d->before, d->now, strerror(-r));
		}
		free(d->file);
		s->nr--;
	}
	return ret;
}

json_t *iosched_json(const struct iosched *s)
{
	json_t *arr;

	if (!s->nr || !(arr = json_array()))
		return NULL;
	for (size_t i = 0; i < s->nr; i++) {
		json_t *o = json_pack("{s:s, s:s, s:s}", "device", s->dev[i].name, "scheduler",
				      s->dev[i].now, "before", s->dev[i].before);

		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

void iosched_free(struct iosched *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->dev[i].file);
	free(s->dev);
	s->dev = NULL;
	s->nr = s->cap = 0;
}
