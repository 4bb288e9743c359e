/*
 * env: environment capture and diff (see env.h for what is recorded and why).
 * Everything comes from small text files in /sys and /proc; a file that does
 * not exist on this kernel or machine simply leaves its key out.
 */
#include "env/env.h"
#include "lib/utf8.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>	/* statfs: the filesystem type when mountinfo lacks the mount */
#include <sys/sysmacros.h>	/* major, minor */
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>	/* __get_cpuid, __cpuid: hypervisor bit and vendor leaf */
#endif

#ifndef IOTRIAL_VERSION
#define IOTRIAL_VERSION "unknown"
#endif

#define ENV_MAX_DEPTH 4		/* dm on md on partitions: enough nesting */

/* @out = "@a/@b"; -ENAMETOOLONG when it does not fit (then @out is "").  */
static int path_join(char *out, size_t sz, const char *a, const char *b)
{
	int n = snprintf(out, sz, "%s/%s", a, b);

	if (n < 0 || (size_t)n >= sz) {
		out[0] = 0;
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Copy @src into @dst of @sz bytes, cutting it if needed. */
static void copy_cut(char *dst, size_t sz, const char *src)
{
	size_t n = strlen(src);

	if (n >= sz)
		n = sz - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* Read the first line of @path into @buf without its newline.  0 or -errno. */
static int read_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)sz, f)) {
		fclose(f);
		return -ENODATA;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

static int read_fmt(char *buf, size_t sz, const char *fmt, const char *a, const char *b)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), fmt, a, b);
	return read_line(path, buf, sz);
}

/* Set @key to the text of @dir/@file when it exists and is not empty. */
static void put_str(json_t *o, const char *key, const char *dir, const char *file)
{
	char buf[512];

	if (!read_fmt(buf, sizeof(buf), "%s/%s", dir, file) && buf[0])
		json_object_set_new(o, key, json_string(buf));
}

static void put_int(json_t *o, const char *key, const char *dir, const char *file)
{
	char buf[64], *end;
	long long v;

	if (read_fmt(buf, sizeof(buf), "%s/%s", dir, file))
		return;
	v = strtoll(buf, &end, 10);
	if (end != buf)
		json_object_set_new(o, key, json_integer(v));
}

/* basename of a symlink's target, e.g. .../drivers/virtio_blk -> virtio_blk */
static int link_base(const char *path, char *out, size_t sz)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	const char *slash;

	if (n < 0)
		return -errno;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	copy_cut(out, sz, slash ? slash + 1 : buf);
	return 0;
}

/*
 * The driver behind /sys/block/@name: the stacking drivers by their own
 * directories, else the first "driver" link walking up the device chain
 * (a virtio disk's device has it; an NVMe namespace's controller's parent).
 */
static void put_driver(json_t *o, const char *sys, const char *name)
{
	char path[PATH_MAX], drv[128];
	struct stat st;
	int depth;

	if (!path_join(path, sizeof(path), sys, "loop") && !stat(path, &st)) {
		json_object_set_new(o, "driver", json_string("loop"));
		return;
	}
	if (!path_join(path, sizeof(path), sys, "dm") && !stat(path, &st)) {
		json_object_set_new(o, "driver", json_string("device-mapper"));
		return;
	}
	if (!path_join(path, sizeof(path), sys, "md") && !stat(path, &st)) {
		json_object_set_new(o, "driver", json_string("md"));
		return;
	}
	path_join(path, sizeof(path), sys, "device");
	for (depth = 0; depth < 4; depth++) {
		char link[PATH_MAX];

		if (!path_join(link, sizeof(link), path, "driver") && !link_base(link, drv, sizeof(drv))) {
			json_object_set_new(o, "driver", json_string(drv));
			return;
		}
		if (strlen(path) + 8 >= sizeof(path))
			break;
		strcat(path, "/device");
	}
	/* virtual devices (zram, ram, nbd): the name without its number */
	copy_cut(drv, sizeof(drv), name);
	for (depth = (int)strlen(drv); depth > 0 && drv[depth - 1] >= '0' && drv[depth - 1] <= '9'; depth--)
		drv[depth - 1] = 0;
	json_object_set_new(o, "driver", json_string(drv));
}

static void put_identity(json_t *o, const char *sys)
{
	char dev[PATH_MAX];

	path_join(dev, sizeof(dev), sys, "device");
	put_str(o, "model", dev, "model");
	put_str(o, "vendor", dev, "vendor");
	put_str(o, "serial", dev, "serial");
	if (!json_object_get(o, "serial"))
		put_str(o, "serial", sys, "serial");	/* virtio_blk keeps it here */
	put_str(o, "firmware", dev, "firmware_rev");
	if (!json_object_get(o, "firmware"))
		put_str(o, "firmware", dev, "rev");
	put_str(o, "wwid", sys, "wwid");
}

static void put_queue(json_t *o, const char *sys)
{
	char q[PATH_MAX], buf[256], *l, *r;
	long long sectors;

	path_join(q, sizeof(q), sys, "queue");
	put_int(o, "logical_block_size", q, "logical_block_size");
	put_int(o, "physical_block_size", q, "physical_block_size");
	put_int(o, "rotational", q, "rotational");
	put_int(o, "nr_requests", q, "nr_requests");
	put_str(o, "write_cache", q, "write_cache");
	put_int(o, "max_sectors_kb", q, "max_sectors_kb");
	if (!read_fmt(buf, sizeof(buf), "%s/%s", q, "scheduler")) {
		/* "none [mq-deadline] kyber": the bracketed one is active */
		l = strchr(buf, '[');
		r = l ? strchr(l, ']') : NULL;
		if (l && r) {
			*r = 0;
			json_object_set_new(o, "scheduler", json_string(l + 1));
		} else {
			json_object_set_new(o, "scheduler", json_string(buf));
		}
	}
	if (!read_fmt(buf, sizeof(buf), "%s/%s", q, "discard_max_bytes"))
		json_object_set_new(o, "discard", json_boolean(strtoll(buf, NULL, 10) > 0));
	if (!read_fmt(buf, sizeof(buf), "%s/%s", sys, "size")) {
		sectors = strtoll(buf, NULL, 10);
		json_object_set_new(o, "size", json_integer(sectors * 512));
	}
}

static json_t *device_obj(const char *name, int depth);

static void put_members(json_t *o, const char *sys, int depth)
{
	char path[PATH_MAX];
	struct dirent **list;
	json_t *arr;
	int i, n;

	if (path_join(path, sizeof(path), sys, "slaves"))
		return;
	n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return;
	arr = json_array();
	for (i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.' && arr && depth < ENV_MAX_DEPTH) {
			json_t *m = device_obj(list[i]->d_name, depth + 1);

			if (m)
				json_array_append_new(arr, m);
		}
		free(list[i]);
	}
	free(list);
	if (arr && json_array_size(arr))
		json_object_set_new(o, "members", arr);
	else
		json_decref(arr);
}

/*
 * Describe the block device @name (a /sys/class/block entry).  A partition
 * is described as its disk, with "partition" naming it.
 */
static json_t *device_obj(const char *name, int depth)
{
	char sys[PATH_MAX], real[PATH_MAX], part[PATH_MAX], *slash;
	struct stat st;
	json_t *o;

	snprintf(sys, sizeof(sys), "/sys/class/block/%s", name);
	if (!realpath(sys, real))
		return NULL;
	o = json_object();
	if (!o)
		return NULL;
	if (!path_join(part, sizeof(part), real, "partition") && !stat(part, &st) && (slash = strrchr(real, '/'))) {
		json_object_set_new(o, "partition", json_string(name));
		*slash = 0;		/* the disk is the parent directory */
	}
	slash = strrchr(real, '/');
	json_object_set_new(o, "name", json_string(slash ? slash + 1 : real));
	put_driver(o, real, slash ? slash + 1 : real);
	put_identity(o, real);
	put_queue(o, real);
	put_str(o, "loop_backing_file", real, "loop/backing_file");
	put_int(o, "loop_dio", real, "loop/dio");
	put_str(o, "dm_name", real, "dm/name");
	put_str(o, "md_level", real, "md/level");
	put_members(o, real, depth);
	return o;
}

/* The /sys/class/block name for device number @dev, e.g. "vda1". */
static int dev_name(dev_t dev, char *out, size_t sz)
{
	char path[64], real[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(path, real))
		return -errno;
	slash = strrchr(real, '/');
	copy_cut(out, sz, slash ? slash + 1 : real);
	return 0;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

struct mount_info {
	char point[PATH_MAX];
	char fstype[64];
	char source[PATH_MAX];
	char options[512];	/* per mount: rw,relatime,... */
	char super[512];	/* per filesystem: errors=,discard,... */
	unsigned maj, min;
};

/* Parse one mountinfo line.  0 or -EINVAL. */
static int parse_mount(char *line, struct mount_info *m)
{
	char *f[32], *save = NULL, *tok;
	int n = 0, dash = -1;

	for (tok = strtok_r(line, " \n", &save); tok && n < 32; tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, "-") && dash < 0)
			dash = n;
		f[n++] = tok;
	}
	if (dash < 6 || n < dash + 3 || sscanf(f[2], "%u:%u", &m->maj, &m->min) != 2)
		return -EINVAL;
	unescape(f[4]);
	unescape(f[dash + 2]);
	snprintf(m->point, sizeof(m->point), "%s", f[4]);
	snprintf(m->fstype, sizeof(m->fstype), "%s", f[dash + 1]);
	snprintf(m->source, sizeof(m->source), "%s", f[dash + 2]);
	copy_cut(m->options, sizeof(m->options), f[5]);
	copy_cut(m->super, sizeof(m->super), n > dash + 3 ? f[dash + 3] : "");
	return 0;
}

/* Is mount point @mp a path prefix of @path (component-wise)? */
static size_t prefix_len(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	if (strncmp(mp, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

/* The mount that holds @path: the longest matching mount point, last wins. */
static int find_mount(const char *mountinfo, const char *path, struct mount_info *best)
{
	FILE *f = fopen(mountinfo, "r");
	char line[4096];
	size_t best_len = 0;
	struct mount_info m;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		size_t len;

		if (parse_mount(line, &m))
			continue;
		len = prefix_len(m.point, path);
		if (len && len >= best_len) {
			best_len = len;
			*best = m;
		}
	}
	fclose(f);
	return best_len ? 0 : -ENOENT;
}

static json_t *fs_obj(const struct mount_info *m)
{
	/* a mount point or source is a path: any bytes (utf8.h) */
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:s}", "type", utf8_json(m->fstype),
			 "mount_point", utf8_json(m->point), "source", utf8_json(m->source),
			 "options", utf8_json(m->options), "super_options", utf8_json(m->super),
			 "from", "mountinfo");
}

/* statfs(2) f_type values (linux/magic.h) of the filesystems benchmarks meet. */
static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
	{ 0xEF53, "ext4" },	/* ext2/3/4 share it; ext4 is what mounts them today */
	{ 0x58465342, "xfs" }, { 0x9123683E, "btrfs" }, { 0x01021994, "tmpfs" },
	{ 0x2FC12FC1, "zfs" }, { 0xF2F52010, "f2fs" }, { 0x794C7630, "overlay" },
	{ 0x6969, "nfs" }, { 0xFF534D42, "cifs" }, { 0xFE534D42, "smb2" },
	{ 0x65735546, "fuse" }, { 0x4d44, "vfat" }, { 0x5346544e, "ntfs" },
	{ 0x3153464a, "jfs" }, { 0x52654973, "reiserfs" }, { 0x00c36400, "ceph" },
	{ 0x858458f6, "ramfs" }, { 0x9fa0, "proc" }, { 0x62656572, "sysfs" },
	{ 0x1373, "devfs" }, { 0x01021997, "v9fs" }, { 0x73717368, "squashfs" },
	{ 0xca451a4e, "bcachefs" }, { 0x2011BAB0, "exfat" },
};

/*
 * The filesystem of @real when /proc/self/mountinfo does not show its mount
 * (a chroot, some containers): the type from statfs(2), the mount point as the
 * highest ancestor directory on the same st_dev that this process can see.
 * Says so in "from", since the mount point may be the chroot's root.
 */
static json_t *fs_statfs_obj(const char *real, dev_t dev)
{
	char point[PATH_MAX], up[PATH_MAX], type[32], *slash;
	struct statfs sf;
	struct stat st;
	size_t i;

	if (statfs(real, &sf))
		return NULL;
	snprintf(type, sizeof(type), "0x%lx", (unsigned long)sf.f_type);
	for (i = 0; i < sizeof(fs_magics) / sizeof(fs_magics[0]); i++)
		if (fs_magics[i].magic == (unsigned long)sf.f_type)
			snprintf(type, sizeof(type), "%s", fs_magics[i].name);
	snprintf(point, sizeof(point), "%s", real);
	if (stat(point, &st) || !S_ISDIR(st.st_mode)) {	/* a file: start at its directory */
		slash = strrchr(point, '/');
		if (slash)
			slash[slash == point] = 0;
	}
	while (strcmp(point, "/")) {
		snprintf(up, sizeof(up), "%s", point);
		slash = strrchr(up, '/');
		if (!slash)
			break;
		slash[slash == up] = 0;
		if (stat(up, &st) || st.st_dev != dev)
			break;
		memcpy(point, up, strlen(up) + 1);
	}
	return json_pack("{s:s, s:o, s:s}", "type", type, "mount_point", utf8_json(point),
			 "from", "statfs");
}

/* A path that does not exist yet (fio creates it): describe its directory. */
static void existing_parent(const char *path, char *out, size_t sz)
{
	char *slash;

	snprintf(out, sz, "%s", path);
	while ((slash = strrchr(out, '/'))) {
		struct stat st;

		if (slash == out) {
			out[1] = 0;
			return;
		}
		*slash = 0;
		if (!stat(out, &st))
			return;
	}
	snprintf(out, sz, ".");
}

/* The block device behind a file: its filesystem's st_dev, else the mount source. */
static json_t *backing_device(dev_t dev, const struct mount_info *m, int have_mount)
{
	char name[256];
	struct stat st;
	json_t *d = NULL;
	const char *from = "st_dev";

	if (!dev_name(dev, name, sizeof(name))) {
		d = device_obj(name, 0);
	} else if (have_mount && !strncmp(m->source, "/dev/", 5) && !stat(m->source, &st) &&
		   S_ISBLK(st.st_mode) && !dev_name(st.st_rdev, name, sizeof(name))) {
		/* btrfs subvolumes, overlay: anonymous st_dev; the mount source may be a disk */
		d = device_obj(name, 0);
		from = "mount_source";
	}
	if (d)
		json_object_set_new(d, "from", json_string(from));
	return d;
}

int env_target(const char *path, json_t **out)
{
	return env_target_from(path, "/proc/self/mountinfo", out);
}

int env_target_from(const char *path, const char *mountinfo, json_t **out)
{
	char real[PATH_MAX], name[256];
	struct mount_info m;
	struct stat st;
	json_t *o = json_object(), *dev = NULL, *fs;
	const char *type;
	int have_mount;

	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "path", utf8_json(path));
	if (stat(path, &st)) {
		char parent[PATH_MAX];

		existing_parent(path, parent, sizeof(parent));
		type = "missing";
		if (stat(parent, &st) || !realpath(parent, real))
			real[0] = 0;
	} else {
		type = S_ISBLK(st.st_mode) ? "block" : S_ISCHR(st.st_mode) ? "char" :
		       S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other";
		if (!realpath(path, real))
			snprintf(real, sizeof(real), "%s", path);
		if (S_ISREG(st.st_mode))
			json_object_set_new(o, "size", json_integer((json_int_t)st.st_size));
	}
	json_object_set_new(o, "type", json_string(type));
	if (real[0] && strcmp(real, path))
		json_object_set_new(o, "resolved", utf8_json(real));
	if (!real[0]) {
		*out = o;
		return 0;
	}
	if (!strcmp(type, "block")) {
		if (!dev_name(st.st_rdev, name, sizeof(name)))
			dev = device_obj(name, 0);
	} else if (strcmp(type, "char")) {
		have_mount = !find_mount(mountinfo, real, &m);
		if (have_mount)
			json_object_set_new(o, "fs", fs_obj(&m));
		else if ((fs = fs_statfs_obj(real, st.st_dev)))
			json_object_set_new(o, "fs", fs);
		dev = backing_device(st.st_dev, &m, have_mount);
	}
	if (dev)
		json_object_set_new(o, "device", dev);
	*out = o;
	return 0;
}

static json_t *kernel_obj(void)
{
	struct utsname u;

	if (uname(&u))
		return json_object();
	return json_pack("{s:s, s:s, s:s, s:s}", "sysname", u.sysname, "release", u.release,
			 "version", u.version, "machine", u.machine);
}

/* The TSC-related words of a /proc/cpuinfo "flags" value, space-separated. */
static void tsc_flags(char *v, char *out, size_t sz)
{
	static const char *const wanted[] = { "constant_tsc", "nonstop_tsc", "tsc_reliable",
		"hypervisor", NULL };
	char *save = NULL, *tok;
	size_t off = 0;
	int i;

	out[0] = 0;
	for (tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		for (i = 0; wanted[i]; i++)
			if (!strcmp(tok, wanted[i]) && off < sz)
				off += (size_t)snprintf(out + off, sz - off, "%s%s",
							off ? " " : "", tok);
}

/* CPU model, online count, and the flags that say whether the TSC is trustworthy. */
static json_t *cpu_obj(void)
{
	json_t *o = json_object();
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192], flags[128];
	int have_model = 0, have_flags = 0;

	json_object_set_new(o, "count", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	while (f && fgets(line, sizeof(line), f) && !(have_model && have_flags)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		v = colon + 1 + (colon[1] == ' ');
		v[strcspn(v, "\n")] = 0;
		if (!have_model && !strncmp(line, "model name", 10)) {
			json_object_set_new(o, "model", json_string(v));
			have_model = 1;
		} else if (!have_flags && !strncmp(line, "flags", 5)) {
			tsc_flags(v, flags, sizeof(flags));
			json_object_set_new(o, "flags", json_string(flags));
			have_flags = 1;
		}
	}
	if (f)
		fclose(f);
	return o;
}

static long long mem_total(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : kb * 1024;
}

static json_t *hypervisor_obj(void)
{
	json_t *o = json_object();
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char vendor[13];

	if (__get_cpuid(1, &a, &b, &c, &d)) {
		json_object_set_new(o, "cpuid", json_boolean(c & (1u << 31)));
		if (c & (1u << 31)) {
			__cpuid(0x40000000, a, b, c, d);
			memcpy(vendor, &b, 4);
			memcpy(vendor + 4, &c, 4);
			memcpy(vendor + 8, &d, 4);
			vendor[12] = 0;
			for (a = 12; a > 0 && (vendor[a - 1] == ' ' || !vendor[a - 1]); a--)
				vendor[a - 1] = 0;	/* "bhyve bhyve " */
			json_object_set_new(o, "vendor", json_string(vendor));
		}
	}
#endif
	put_str(o, "sys_type", "/sys/hypervisor", "type");
	put_str(o, "dmi_vendor", "/sys/class/dmi/id", "sys_vendor");
	put_str(o, "dmi_product", "/sys/class/dmi/id", "product_name");
	return o;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

int env_capture(const char *const *targets, size_t n, json_t **out, struct err *e)
{
	json_t *o = json_object(), *arr = json_array();
	long long mem = mem_total();
	char host[256] = "";
	size_t i;

	if (!o || !arr) {
		json_decref(o);
		json_decref(arr);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	json_object_set_new(o, "iotrial_version", json_string(IOTRIAL_VERSION));
	/* the host: the results history (docs/history.md) and compare tell machines apart */
	if (!gethostname(host, sizeof(host) - 1) && host[0])
		json_object_set_new(o, "host", utf8_json(host));
	json_object_set_new(o, "kernel", kernel_obj());
	json_object_set_new(o, "cpu", cpu_obj());
	if (mem > 0)
		json_object_set_new(o, "memory_bytes", json_integer(mem));
	put_str(o, "clock_source", "/sys/devices/system/clocksource/clocksource0",
		"current_clocksource");
	json_object_set_new(o, "hypervisor", hypervisor_obj());
	json_object_set_new(o, "iommu_groups", json_integer(count_entries("/sys/kernel/iommu_groups")));
	for (i = 0; i < n; i++) {
		json_t *t;

		if (env_target(targets[i], &t)) {
			json_decref(arr);
			json_decref(o);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
		json_array_append_new(arr, t);
	}
	json_object_set_new(o, "targets", arr);
	*out = o;
	return 0;
}

static int flatten_into(json_t *flat, const json_t *v, const char *prefix)
{
	char key[512];
	const char *k;
	json_t *child;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, child) {
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			if (flatten_into(flat, child, key))
				return -ENOMEM;
		}
		return 0;
	}
	if (json_is_array(v)) {
		json_array_foreach((json_t *)v, i, child) {
			snprintf(key, sizeof(key), "%s%s%zu", prefix, *prefix ? "." : "", i);
			if (flatten_into(flat, child, key))
				return -ENOMEM;
		}
		return 0;
	}
	return json_object_set(flat, prefix, (json_t *)v) ? -ENOMEM : 0;
}

json_t *env_flatten(const json_t *v)
{
	json_t *flat = json_object();

	if (flat && flatten_into(flat, v, "")) {
		json_decref(flat);
		return NULL;
	}
	return flat;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every key of @fa and @fb, sorted, without repeats; NULL on allocation failure. */
static const char **union_keys(json_t *fa, json_t *fb, size_t *n)
{
	size_t cap = json_object_size(fa) + json_object_size(fb) + 1, m = 0, i, w = 0;
	const char **keys = malloc(cap * sizeof(*keys));
	const char *k;
	json_t *v;

	if (!keys)
		return NULL;
	json_object_foreach(fa, k, v)
		keys[m++] = k;
	json_object_foreach(fb, k, v)
		keys[m++] = k;
	qsort(keys, m, sizeof(*keys), cmp_str);
	for (i = 0; i < m; i++)
		if (!w || strcmp(keys[w - 1], keys[i]))
			keys[w++] = keys[i];
	*n = w;
	return keys;
}

int env_diff(const json_t *a, const json_t *b, json_t **out, struct err *e)
{
	json_t *fa = NULL, *fb = NULL, *arr = json_array();
	const char **keys = NULL;
	size_t n = 0, i;
	int ret = 0;

	if (arr && a && b) {
		fa = env_flatten(a);
		fb = env_flatten(b);
		keys = fa && fb ? union_keys(fa, fb, &n) : NULL;
		if (!keys)
			ret = -ENOMEM;
	}
	for (i = 0; arr && !ret && i < n; i++) {
		json_t *va = json_object_get(fa, keys[i]), *vb = json_object_get(fb, keys[i]);

		if (va && vb && json_equal(va, vb))
			continue;
		if (json_array_append_new(arr, json_pack("{s:s, s:O, s:O}", "key", keys[i],
				"a", va ? va : json_null(), "b", vb ? vb : json_null())))
			ret = -ENOMEM;
	}
	free(keys);
	json_decref(fa);
	json_decref(fb);
	if (!arr || ret) {
		json_decref(arr);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	*out = arr;
	return 0;
}
