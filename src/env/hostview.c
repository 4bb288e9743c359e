/*
 * hostview: the host's view of a guest's run (see hostview.h).  Not on any
 * hot path: two samples per run.
 */
#include "env/hostview.h"
#include "lib/vec.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int hostview_cfg_parse(const char *arg, char *buf, size_t sz, struct hostview_cfg *c,
		       struct err *e)
{
	char *comma;

	memset(c, 0, sizeof(*c));
	c->proc = "/proc";
	c->timeout_ms = 5000;
	if (!arg || !*arg || strlen(arg) >= sz)
		return err_set(e, -EINVAL, EXIT_USAGE, "--host-qmp=%.200s: expected SOCKET[,drive=ID]",
			       arg ? arg : "");
	memcpy(buf, arg, strlen(arg) + 1);
	c->socket = buf;
	comma = strchr(buf, ',');
	if (comma) {
		*comma = '\0';
		if (strncmp(comma + 1, "drive=", 6) || !comma[7] || strchr(comma + 7, ','))
			return err_set(e, -EINVAL, EXIT_USAGE, "--host-qmp=%.200s: after the socket only "
				       "\",drive=ID\" (the drive's QMP name, e.g. drive-virtio0)", arg);
		c->drive = comma + 7;
	}
	if (!*c->socket)
		return err_set(e, -EINVAL, EXIT_USAGE, "--host-qmp=%.200s: no socket path", arg);
	return 0;
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * utime + stime of a stat line, and its name.  The name is in parentheses
 * and may hold blanks and ')': the fields start after the last ')'.
 */
static int stat_line(const char *buf, char *comm, size_t csz, uint64_t *ticks)
{
	const char *l = strchr(buf, '('), *r = strrchr(buf, ')');
	unsigned long long ut, st;
	size_t n;

	if (!l || !r || r < l)
		return -EPROTO;
	n = (size_t)(r - l - 1) < csz - 1 ? (size_t)(r - l - 1) : csz - 1;
	memcpy(comm, l + 1, n);
	comm[n] = '\0';
	/* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (sscanf(r + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -EPROTO;
	*ticks = ut + st;
	return 0;
}

static int by_tid(const void *x, const void *y)
{
	int a = ((const struct hostview_thread *)x)->tid, b = ((const struct hostview_thread *)y)->tid;

	return (a > b) - (a < b);
}

static int listed(const int *v, size_t n, int tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == tid)
			return 1;
	return 0;
}

/* QMP's word first (names can be cut or missing), then the name. */
static enum host_role role_of(const struct hostview_sample *s, pid_t pid, int tid, const char *comm)
{
	if (listed(s->vcpu_tids, s->n_vcpu, tid))
		return HOST_ROLE_VCPU;
	if (listed(s->io_tids, s->n_io, tid))
		return HOST_ROLE_IOTHREAD;
	if (tid == (int)pid)
		return HOST_ROLE_MAIN;
	return host_role_of(comm);
}

static int read_small(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sz - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

int hostview_threads(const char *proc, pid_t pid, struct hostview_sample *s, struct err *e)
{
	char path[256], buf[1024], comm[64];
	long hz = sysconf(_SC_CLK_TCK);
	double ns_per_tick = 1e9 / (double)(hz > 0 ? hz : 100);
	size_t cap = 0;
	struct dirent *de;
	uint64_t ticks;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%d/stat", proc, (int)pid);
	if (read_small(path, buf, sizeof(buf)) || stat_line(buf, comm, sizeof(comm), &ticks))
		return err_set(e, -ESRCH, EXIT_USAGE, "QEMU's process %d: cannot read %s", (int)pid, path);
	s->proc_cpu_ns = (uint64_t)((double)ticks * ns_per_tick);
	snprintf(path, sizeof(path), "%s/%d/task", proc, (int)pid);
	d = opendir(path);
	if (!d)
		return err_set(e, -errno, EXIT_USAGE, "QEMU's threads: cannot list %s: %s", path,
			       strerror(errno));
	while ((de = readdir(d))) {
		struct hostview_thread *t;
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		cpu_set_t set;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' || *end || tid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%d/task/%ld/stat", proc, (int)pid, tid);
		if (read_small(path, buf, sizeof(buf)) || stat_line(buf, comm, sizeof(comm), &ticks))
			continue;	/* it ended meanwhile */
		if (s->nth >= HOSTVIEW_THREADS_MAX) {
			closedir(d);
			return err_set(e, -E2BIG, EXIT_USAGE, "QEMU's process %d has more than %d threads",
				       (int)pid, HOSTVIEW_THREADS_MAX);
		}
		if (vec_grow((void **)&s->th, &cap, s->nth + 1, sizeof(*s->th), 64)) {
			closedir(d);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
		t = &s->th[s->nth++];
		memset(t, 0, sizeof(*t));
		t->tid = (int)tid;
		t->role = role_of(s, pid, (int)tid, comm);
		t->cpu_ns = (uint64_t)((double)ticks * ns_per_tick);
		/* a fake tree's tids are not this machine's threads */
		CPU_ZERO(&set);
		if (!strcmp(proc, "/proc") && !sched_getaffinity((pid_t)tid, sizeof(set), &set)) {
			long ncpu = sysconf(_SC_NPROCESSORS_CONF);

			for (int c = 0; c < 1024 && c < CPU_SETSIZE; c++)
				if (CPU_ISSET(c, &set))
					t->cpus[c / 64] |= 1ull << (c % 64);
			t->pinned = CPU_COUNT(&set) < (ncpu > 0 ? ncpu : 1);
		}
	}
	closedir(d);
	qsort(s->th, s->nth, sizeof(*s->th), by_tid);	/* readdir's order is the file system's */
	return 0;
}

int hostview_sample_light(const struct hostview_cfg *c, const struct hostview_sample *roles,
			  struct hostview_sample *s, struct err *e)
{
	struct qmp q;
	json_t *r = NULL;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = qmp_open(&q, c->socket, c->timeout_ms, e)))
		return rc;
	s->pid = q.pid;
	s->d = calloc(QMP_DRIVES_MAX, sizeof(*s->d));
	if (!s->d) {
		rc = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		goto out;
	}
	if ((rc = qmp_call(&q, "query-blockstats", &r, e)) ||
	    (rc = qmp_parse_blockstats(r, s->d, QMP_DRIVES_MAX, &s->nd, e)))
		goto out;
	s->t_ns = mono_ns();	/* the counters' time: the series' boundaries (hostview_series.h) */
	json_decref(r);
	r = NULL;
	if (roles) {	/* in the run: one command, the roles as before */
		memcpy(s->io_tids, roles->io_tids, sizeof(s->io_tids));
		memcpy(s->vcpu_tids, roles->vcpu_tids, sizeof(s->vcpu_tids));
		s->n_io = roles->n_io;
		s->n_vcpu = roles->n_vcpu;
		goto threads;
	}
	/* the cache mode and image sizes are for check's warnings: a QEMU that
	 * refuses query-block still gives the counters */
	if (!qmp_call(&q, "query-block", &r, NULL))
		qmp_parse_block(r, s->d, s->nd, NULL);
	json_decref(r);
	r = NULL;
	if (!qmp_call(&q, "query-iothreads", &r, NULL) &&
	    qmp_parse_thread_ids(r, s->io_tids, 64, &s->n_io, NULL))
		s->n_io = 0;
	json_decref(r);
	r = NULL;
	if (!qmp_call(&q, "query-cpus-fast", &r, NULL) &&
	    qmp_parse_thread_ids(r, s->vcpu_tids, 256, &s->n_vcpu, NULL))
		s->n_vcpu = 0;
threads:
	if (s->pid > 0 && (rc = hostview_threads(c->proc, s->pid, s, e)))
		goto out;
out:
	json_decref(r);
	qmp_close(&q);
	if (rc)
		hostview_sample_free(s);
	return rc;
}

int hostview_sample(const struct hostview_cfg *c, struct hostview_sample *s, struct err *e)
{
	return hostview_sample_light(c, NULL, s, e);
}

void hostview_sample_free(struct hostview_sample *s)
{
	free(s->d);
	free(s->th);
	memset(s, 0, sizeof(*s));
}

static const struct qmp_drive *find_drive(const struct hostview_sample *s, const char *name)
{
	for (size_t i = 0; i < s->nd; i++)
		if (!strcmp(s->d[i].name, name))
			return &s->d[i];
	return NULL;
}

static uint64_t ops_of(const struct qmp_drive *d)
{
	return d->rd_ops + d->wr_ops;
}

/* A figure, or null when unknown. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void hostview_role_cpu(const struct hostview_sample *a, const struct hostview_sample *b,
		       double cpu[HOST_ROLE_NR], double *total)
{
	double threads = 0;

	memset(cpu, 0, sizeof(double) * HOST_ROLE_NR);
	for (size_t i = 0; i < b->nth; i++) {
		const struct hostview_thread *t = &b->th[i];
		uint64_t before = 0;

		for (size_t k = 0; k < a->nth; k++)
			if (a->th[k].tid == t->tid) {
				before = a->th[k].cpu_ns;
				break;
			}
		if (t->cpu_ns >= before) {
			cpu[t->role] += (double)(t->cpu_ns - before);
			threads += (double)(t->cpu_ns - before);
		}
	}
	*total = b->proc_cpu_ns >= a->proc_cpu_ns ? (double)(b->proc_cpu_ns - a->proc_cpu_ns) : threads;
	if (*total > threads)	/* threads that ended inside the window */
		cpu[HOST_ROLE_OTHER] += *total - threads;
	else
		*total = threads;
}

/* Do the affinities of a thread of role @x and one of role @y overlap (both ran)? */
static int roles_share_cpus(const struct hostview_sample *a, const struct hostview_sample *b,
			    enum host_role x, enum host_role y)
{
	(void)a;
	for (size_t i = 0; i < b->nth; i++)
		for (size_t k = 0; k < b->nth; k++) {
			if (b->th[i].role != x || b->th[k].role != y)
				continue;
			for (int w = 0; w < 16; w++)
				if (b->th[i].cpus[w] & b->th[k].cpus[w])
					return 1;
		}
	return 0;
}

static void pitfall(json_t *arr, const char *id, const char *text)
{
	json_array_append_new(arr, json_pack("{s:s, s:s}", "id", id, "text", text));
}

static void pitfalls(json_t *arr, const struct qmp_drive *d, const double cpu[HOST_ROLE_NR],
		     double ops, const struct hostview_sample *a, const struct hostview_sample *b)
{
	char buf[300];

	if (d->has_block && !d->cache_direct) {
		snprintf(buf, sizeof(buf), "host page cache: drive %s has cache.direct=false%s: the "
			 "backend's latency is the host's page cache, not its disk (use cache=none)",
			 d->name, d->cache_writeback ? " (cache=writeback)" : "");
		pitfall(arr, "host_page_cache", buf);
	}
	/* with an iothread the main loop still runs timers, the monitor and (under
	 * TCG) device emulation: only an iothread doing next to nothing says none
	 * served the drive (TCG, virtio-blk with one: 37 us of 55) */
	if (ops > 0 && cpu[HOST_ROLE_MAIN] > 0 && cpu[HOST_ROLE_IOTHREAD] < 0.1 * cpu[HOST_ROLE_MAIN]) {
		snprintf(buf, sizeof(buf), "no iothread: QEMU's main loop carried the drive's I/O "
			 "(%.1f us of CPU per op, the iothreads %.1f us): give the disk an iothread "
			 "(iothread=1 in Proxmox) so it does not queue behind the monitor and timers",
			 cpu[HOST_ROLE_MAIN] / ops / 1000, cpu[HOST_ROLE_IOTHREAD] / ops / 1000);
		pitfall(arr, "host_no_iothread", buf);
	}
	if (cpu[HOST_ROLE_IOTHREAD] > 0 && cpu[HOST_ROLE_VCPU] > 0 &&
	    roles_share_cpus(a, b, HOST_ROLE_IOTHREAD, HOST_ROLE_VCPU)) {
		pitfall(arr, "host_shared_cores",
			"vCPUs and iothreads on the same host cores: their affinities overlap, so an "
			"iothread waits for a vCPU's time slice and the other way round (pin them apart: "
			"Proxmox's affinity, taskset on the IO thread)");
	}
	if (d->actual_size >= 0 && d->virtual_size > 0 && d->rd_ops > 0 &&
	    (double)d->actual_size < 0.5 * (double)d->virtual_size) {
		snprintf(buf, sizeof(buf), "a sparse image: drive %s holds %.0f%% of its %.0f MiB; reads "
			 "of blocks never written return zeros without touching the disk (write the "
			 "region first)", d->name, 100.0 * (double)d->actual_size / (double)d->virtual_size,
			 (double)d->virtual_size / 1048576);
		pitfall(arr, "host_sparse_image", buf);
	}
}

const struct qmp_drive *hostview_pick_drive(const struct hostview_cfg *c,
					   const struct hostview_sample *a,
					   const struct hostview_sample *b, char *why, size_t wsz,
					   struct err *e)
{
	const struct qmp_drive *d1 = NULL;
	uint64_t best = 0;
	int moved = 0;

	if (c->drive) {
		d1 = find_drive(b, c->drive);
		if (!d1 || !find_drive(a, c->drive)) {
			err_set(e, -ENOENT, EXIT_USAGE, "--host-qmp: QEMU has no drive '%.100s'%s%.100s",
				c->drive, b->nd ? " (first: " : "", b->nd ? b->d[0].name : "");
			if (b->nd && e)
				strncat(e->msg, ")", sizeof(e->msg) - strlen(e->msg) - 1);
			return NULL;
		}
		snprintf(why, wsz, "named (--host-qmp=...,drive=)");
		return d1;
	}
	for (size_t i = 0; i < b->nd; i++) {
		const struct qmp_drive *p = find_drive(a, b->d[i].name);
		uint64_t m = p && ops_of(&b->d[i]) >= ops_of(p) ? ops_of(&b->d[i]) - ops_of(p) : 0;

		moved += m > 0;
		if (m > best) {
			best = m;
			d1 = &b->d[i];
		}
	}
	if (!d1) {
		err_set(e, -ENOENT, EXIT_USAGE, "--host-qmp: no drive of QEMU's %zu did any read "
			"or write during the run", b->nd);
		return NULL;
	}
	snprintf(why, wsz, "the drive whose reads and writes moved%s",
		 moved > 1 ? " most (others moved too: name one with ,drive=ID)" : "");
	return d1;
}

json_t *hostview_window_json(const struct hostview_cfg *c, const struct hostview_window *w,
			     const struct hostview_sample *a, const struct hostview_sample *b,
			     const struct hostview_guest *g, const char *why, struct err *e)
{
	const struct qmp_drive *dd = &w->d;
	double ops, per, lat, virt;
	json_t *o, *jc, *jp, *jb, *pit;

	ops = (double)(dd->rd_ops + dd->wr_ops);
	lat = ops > 0 ? (double)(dd->rd_ns + dd->wr_ns) / ops : NAN;
	/* per I/O of the guest when it said how many, else per op of the drive */
	per = g && g->ios > 0 ? g->ios : ops;
	virt = g && !isnan(g->dev_lat_ns) && !isnan(lat) ? g->dev_lat_ns - lat : NAN;
	o = json_object();
	jc = json_object();
	jp = json_object();
	jb = json_object();
	pit = json_array();
	if (!o || !jc || !jp || !jb || !pit) {
		json_decref(o), json_decref(jc), json_decref(jp), json_decref(jb), json_decref(pit);
		err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		return NULL;
	}
	for (int r = 0; r < HOST_ROLE_NR; r++) {
		json_object_set_new(jc, host_role_name((enum host_role)r), json_real(w->cpu[r]));
		json_object_set_new(jp, host_role_name((enum host_role)r),
				    jnum(per > 0 ? w->cpu[r] / per : NAN));
	}
	json_object_set_new(o, "source", json_sprintf("QMP %s, QEMU pid %d", c->socket, (int)b->pid));
	json_object_set_new(o, "window_s", json_real(w->t_s));
	json_object_set_new(o, "drive", json_string(dd->name));
	json_object_set_new(o, "drive_chosen", json_string(why));
	json_object_set_new(o, "ops", json_integer((json_int_t)ops));
	json_object_set_new(o, "rd_ops", json_integer((json_int_t)dd->rd_ops));
	json_object_set_new(o, "wr_ops", json_integer((json_int_t)dd->wr_ops));
	json_object_set_new(o, "flush_ops", json_integer((json_int_t)dd->flush_ops));
	json_object_set_new(o, "rd_bytes", json_integer((json_int_t)dd->rd_bytes));
	json_object_set_new(o, "wr_bytes", json_integer((json_int_t)dd->wr_bytes));
	json_object_set_new(o, "guest_ios", jnum(g ? g->ios : NAN));
	json_object_set_new(o, "backend_lat_ns", jnum(lat));
	json_object_set_new(o, "backend_from", json_string(
		"QMP query-blockstats: (rd + wr)_total_time_ns / (rd + wr)_operations of the drive "
		"over the window; flushes apart"));
	json_object_set_new(o, "cpu_ns", jc);
	json_object_set_new(o, "cpu_total_ns", json_real(w->cpu_total));
	json_object_set_new(o, "cpu_per_io_ns", jnum(per > 0 ? w->cpu_total / per : NAN));
	json_object_set_new(o, "cpu_per_io_ns_by_role", jp);
	json_object_set_new(o, "cpu_from", json_string(
		"/proc/PID/task/*/stat: utime + stime of QEMU's threads by name (vCPU 'CPU n/..', "
		"iothread 'IO ..', main loop, 'worker'; threads that ended: other), per I/O of the guest"));
	json_object_set_new(o, "virt_path_ns", jnum(virt));
	json_object_set_new(o, "virt_path_from", json_string(
		"the guest's device time per request less the host backend's latency per op: the "
		"guest driver, the virtqueue or NVMe queue emulation, interrupt injection"));
	/* the time breakdown across the boundary, per I/O */
	json_object_set_new(jb, "guest_tool_ns", jnum(g ? g->tool_ns : NAN));
	json_object_set_new(jb, "guest_io_path_ns", jnum(g ? g->io_path_ns : NAN));
	json_object_set_new(jb, "virt_path_ns", jnum(virt));
	json_object_set_new(jb, "host_backend_ns", jnum(lat));
	json_object_set_new(o, "breakdown", jb);
	if (dd->has_block) {
		json_object_set_new(o, "cache", json_pack("{s:b, s:b}", "direct", dd->cache_direct,
							  "writeback", dd->cache_writeback));
		if (dd->virtual_size >= 0)
			json_object_set_new(o, "image", json_pack("{s:I, s:I}", "virtual_size",
								  (json_int_t)dd->virtual_size, "actual_size",
								  (json_int_t)dd->actual_size));
	}
	pitfalls(pit, dd, w->cpu, ops, a, b);
	json_object_set_new(o, "pitfalls", pit);
	return o;
}

json_t *hostview_join(const struct hostview_cfg *c, const struct hostview_sample *a,
		      const struct hostview_sample *b, const struct hostview_guest *g,
		      struct err *e)
{
	const struct qmp_drive *d1, *d0;
	struct hostview_window w;
	char why[200];

	d1 = hostview_pick_drive(c, a, b, why, sizeof(why), e);
	if (!d1)
		return NULL;
	d0 = find_drive(a, d1->name);
	memset(&w, 0, sizeof(w));
	w.d = *d1;
#define D(f) w.d.f = d1->f >= d0->f ? d1->f - d0->f : 0
	D(rd_ops); D(wr_ops); D(flush_ops); D(rd_bytes); D(wr_bytes); D(rd_ns); D(wr_ns); D(flush_ns);
#undef D
	hostview_role_cpu(a, b, w.cpu, &w.cpu_total);
	w.t_s = (double)(b->t_ns - a->t_ns) / 1e9;
	return hostview_window_json(c, &w, a, b, g, why, e);
}
