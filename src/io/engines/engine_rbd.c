/*
 * engine_rbd: fio's rbd engine, asynchronous I/O to a Ceph RBD image
 * through librbd, without the kernel's rbd driver.
 *
 * The target is the image rbdname= in pool= of the cluster that librados'
 * configuration names (CEPH_CONF, else /etc/ceph/CLUSTER.conf), reached as
 * client.clientname (default client.admin).  No file is opened: run.c plans
 * the regions (ENGINE_F_OWNFILES) on the image's size, asked through
 * target_size() before the I/O, so size=, offset= and size=N% apply to the
 * image as to a file, and with no size= the whole image is the region, as
 * in fio.  A region past the image's end is kept, as fio keeps it: the I/O
 * there fails with EINVAL.  The job's files keep fio's names (NAME.N.M, or
 * filename=): they are only labels.
 *
 * As in fio, direct=1 turns librbd's cache off (rbd_cache=false before the
 * image is opened); otherwise a flush right after the open puts the cache
 * into writeback mode; invalidate=1 drops the cache at the start.
 *
 * I/O: queue() keeps the io_u; commit() creates a completion per io_u and
 * hands each to rbd_aio_read/write/discard/flush (fsync and fdatasync are
 * both a flush).  librbd queues finished completions on the image and
 * signals an eventfd (rbd_set_image_notification), so getevents() takes
 * them with rbd_poll_io_events() and sleeps in poll(2) on the eventfd until
 * enough are ready; busy_poll=1 spins on rbd_poll_io_events() instead.
 * librbd allocates each completion itself (there is no way to reuse one):
 * the only allocation per I/O, inside the library.  An I/O librbd refuses
 * at submission comes back through getevents() with its error.
 *
 * librbd is loaded when a job uses it (dlopen), not linked: it brings in
 * Ceph's C++ libraries (about 30 of them), whose loading cost every iotrial
 * process 28 ms (136 ms under ASan) and 20 MB of memory, rbd or not.  The
 * functions are called through struct rbd_lib, typed from librbd's own
 * header, so a changed signature is still a compile error.
 *
 * The engine is built only with IOTRIAL_RBD (the Makefile's librbd probe);
 * without it this file holds its name and options only, so that its options
 * are refused by name under other engines, and ioengine=rbd is refused
 * naming the missing library (engine_ops.absent).
 */
#include "io/engine.h"

#define RBD_NAME_MAX 256	/* pool, image, client and cluster names */

/* Its options (the rows below), in the job's engine area: "" = unset. */
struct rbd_opts {
	char clustername[RBD_NAME_MAX];
	char clientname[RBD_NAME_MAX];
	char pool[RBD_NAME_MAX];
	char name[RBD_NAME_MAX];	/* rbdname= */
	int busy_poll;			/* spin on completions instead of sleeping */
};

static const struct rbd_opts rbd_defaults;	/* zeros: nothing named, sleep */

static const struct opt_def rbd_rows[] = {
	{ .name = "clustername", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct rbd_opts, clustername),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "rbd: the Ceph cluster's name (its configuration is /etc/ceph/NAME.conf); "
		  "needs clientname=" },
	{ .name = "rbdname", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct rbd_opts, name),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "rbd: the image to do I/O on (required)" },
	{ .name = "pool", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct rbd_opts, pool),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "rbd: the pool holding the image (required)" },
	{ .name = "clientname", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct rbd_opts, clientname),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "rbd: the Ceph user, without 'client.' (default admin); with clustername= "
		  "a full TYPE.ID, 'client.' added when there is no dot" },
	{ .name = "busy_poll", .type = OPT_BOOL, ENGINE_OPT_FIELD(struct rbd_opts, busy_poll),
	  .help = "rbd: 1 spins on the completion queue instead of sleeping until one is ready" },
	{ .name = NULL },
};

static const struct opt_def *const rbd_opts[] = { rbd_rows, NULL };

#ifdef IOTRIAL_RBD

#include <dlfcn.h>	/* dlopen, dlsym */
#include <errno.h>	/* ENOMEM, EINVAL, ENOENT */
#include <poll.h>	/* ppoll */
#include <rados/librados.h>
#include <rbd/librbd.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strchr, strerror */
#include <sys/eventfd.h>	/* eventfd */
#include <time.h>	/* struct timespec */
#include <unistd.h>	/* read, close */

/* librbd1's soname (stable since Ceph's first releases); it needs librados */
#define RBD_LIB_RBD "librbd.so.1"

/* Every librados/librbd function the engine calls: one list. */
#define RBD_LIB_FUNCS(X) \
	X(rados_create) X(rados_create2) X(rados_conf_read_file) X(rados_conf_set) \
	X(rados_connect) X(rados_ioctx_create) X(rados_ioctx_destroy) X(rados_shutdown) \
	X(rbd_open) X(rbd_close) X(rbd_stat) X(rbd_flush) X(rbd_invalidate_cache) \
	X(rbd_set_image_notification) X(rbd_version) X(rbd_aio_create_completion) \
	X(rbd_aio_read) X(rbd_aio_write) X(rbd_aio_discard) X(rbd_aio_flush) \
	X(rbd_aio_release) X(rbd_poll_io_events) X(rbd_aio_get_arg) \
	X(rbd_aio_get_return_value) X(rbd_read)

struct rbd_lib {
#define RBD_LIB_PTR(f) __typeof__(f) *f;
	RBD_LIB_FUNCS(RBD_LIB_PTR)
#undef RBD_LIB_PTR
};

/* One open image: the library, the cluster handle, the pool's context, the image. */
struct rbd_conn {
	struct rbd_lib lib;
	rados_t cluster;
	rados_ioctx_t ioctx;
	rbd_image_t image;
};

struct rbd_state {
	struct rbd_conn c;
	int efd;			/* librbd signals finished completions here */
	int busy_poll;
	struct io_u **pending;		/* queued, not yet handed to librbd */
	unsigned nr_pending;
	struct io_u **failed;		/* refused by librbd at submission, res set */
	unsigned nr_failed;
	rbd_completion_t *comps;	/* rbd_poll_io_events' output */
	unsigned inflight;		/* handed to librbd, not reaped */
};

/*
 * Load librbd (and so librados, which it needs) and find each function in
 * @l: dlsym on librbd's handle searches its dependencies too.  dlopen counts
 * its loads, so each connection loading it again costs a lookup; it is
 * never unloaded (Ceph's libraries keep threads and static state that
 * unloading would pull from under them).
 */
static int rbd_lib_load(const struct job *j, struct rbd_lib *l, struct err *e)
{
	void *h = dlopen(RBD_LIB_RBD, RTLD_NOW | RTLD_LOCAL);
	const char *missing = NULL;

	if (!h)
		return err_set(e, -ENOENT, EXIT_TARGET, "job '%s': rbd: cannot load %s (Debian: "
			       "librbd1): %s", j->name, RBD_LIB_RBD, dlerror());
#define RBD_LIB_SYM(f) \
	*(void **)&l->f = dlsym(h, #f); \
	if (!l->f && !missing) \
		missing = #f;
	RBD_LIB_FUNCS(RBD_LIB_SYM)
#undef RBD_LIB_SYM
	if (missing)
		return err_set(e, -ENOENT, EXIT_TARGET, "job '%s': rbd: the installed librbd/librados "
			       "has no %s", j->name, missing);
	return 0;
}

static void rbd_disconnect(struct rbd_conn *c)
{
	if (c->image)
		c->lib.rbd_close(c->image);	/* flushes the cache */
	if (c->ioctx)
		c->lib.rados_ioctx_destroy(c->ioctx);
	if (c->cluster)
		c->lib.rados_shutdown(c->cluster);
	c->image = NULL;
	c->ioctx = NULL;
	c->cluster = NULL;
}

/*
 * Connect as fio does: with clustername=, rados_create2 with the full
 * client name ("client." added when clientname= has no dot); without it,
 * rados_create, which adds "client." itself (NULL: admin).  Then the
 * default configuration search (CEPH_CONF first), the pool, the image.
 */
static int rbd_connect(const struct job *j, struct rbd_conn *c, struct err *e)
{
	const struct rbd_opts *je = engine_job_opts(j);
	char who[RBD_NAME_MAX + 8];
	int r;

	c->cluster = NULL;
	c->ioctx = NULL;
	c->image = NULL;
	r = rbd_lib_load(j, &c->lib, e);
	if (r)
		return r;
	if (je->clustername[0]) {
		snprintf(who, sizeof(who), "%s%s", strchr(je->clientname, '.') ? "" : "client.",
			 je->clientname);
		r = c->lib.rados_create2(&c->cluster, je->clustername, who, 0);
	} else {
		snprintf(who, sizeof(who), "client.%s",
			 je->clientname[0] ? je->clientname : "admin");
		r = c->lib.rados_create(&c->cluster, je->clientname[0] ? je->clientname : NULL);
	}
	if (r < 0) {
		c->cluster = NULL;
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: cannot set up a Ceph client %s: %s",
			       j->name, who, strerror(-r));
	}
	r = c->lib.rados_conf_read_file(c->cluster, NULL);
	if (r < 0) {
		rbd_disconnect(c);
		return err_set(e, r, EXIT_TARGET,
			       "job '%s': rbd: cannot read the Ceph configuration ($CEPH_CONF, else "
			       "/etc/ceph/%s.conf): %s", j->name,
			       je->clustername[0] ? je->clustername : "ceph", strerror(-r));
	}
	/* fio's rule: direct=1 reads and writes past librbd's cache */
	if (j->direct && (r = c->lib.rados_conf_set(c->cluster, "rbd_cache", "false")) < 0) {
		rbd_disconnect(c);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: cannot turn rbd_cache off: %s",
			       j->name, strerror(-r));
	}
	r = c->lib.rados_connect(c->cluster);
	if (r < 0) {
		rbd_disconnect(c);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: cannot connect to the cluster as %s: %s",
			       j->name, who, strerror(-r));
	}
	r = c->lib.rados_ioctx_create(c->cluster, je->pool, &c->ioctx);
	if (r < 0) {
		c->ioctx = NULL;
		rbd_disconnect(c);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: pool '%s': %s", j->name, je->pool,
			       r == -ENOENT ? "no such pool" : strerror(-r));
	}
	r = c->lib.rbd_open(c->ioctx, je->name, &c->image, NULL);
	if (r < 0) {
		c->image = NULL;
		rbd_disconnect(c);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: image '%s' in pool '%s': %s", j->name,
			       je->name, je->pool, r == -ENOENT ? "no such image" : strerror(-r));
	}
	return 0;
}

/* The image's size, for run.c's region planning (engine_ops.target_size). */
static int rbd_target_size(const struct job *j, uint64_t *size, struct err *e)
{
	const struct rbd_opts *ro = engine_job_opts(j);
	struct rbd_conn c;
	rbd_image_info_t info;
	int r = rbd_connect(j, &c, e);

	if (r)
		return r;
	r = c.lib.rbd_stat(c.image, &info, sizeof(info));
	rbd_disconnect(&c);
	if (r < 0)
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: cannot stat image '%s': %s", j->name,
			       ro->name, strerror(-r));
	if (!info.size)
		return err_set(e, -EINVAL, EXIT_TARGET, "job '%s': rbd: image '%s' has size 0",
			       j->name, ro->name);
	*size = info.size;
	return 0;
}

static void rbd_state_free(struct rbd_state *s)
{
	rbd_disconnect(&s->c);
	if (s->efd >= 0)
		close(s->efd);
	free(s->pending);
	free(s->failed);
	free(s->comps);
	free(s);
}

static int rbd_init(struct engine_ctx *ctx, struct err *e)
{
	const struct job *j = ctx->job;
	const struct rbd_opts *ro = engine_job_opts(j);
	struct rbd_state *s = calloc(1, sizeof(*s));
	rbd_image_info_t info;
	int r, maj, min, extra;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "rbd: out of memory");
	s->efd = -1;
	s->busy_poll = ro->busy_poll;
	s->pending = calloc(ctx->depth, sizeof(*s->pending));
	s->failed = calloc(ctx->depth, sizeof(*s->failed));
	s->comps = calloc(ctx->depth, sizeof(*s->comps));
	if (!s->pending || !s->failed || !s->comps) {
		rbd_state_free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "rbd: out of memory");
	}
	r = rbd_connect(j, &s->c, e);
	if (r) {
		rbd_state_free(s);
		return r;
	}
	/* as fio: a flush puts a writethrough-until-flush cache into writeback */
	if (!j->direct && (r = s->c.lib.rbd_flush(s->c.image)) < 0) {
		rbd_state_free(s);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: the first flush failed: %s", j->name,
			       strerror(-r));
	}
	if (j->invalidate && (r = s->c.lib.rbd_invalidate_cache(s->c.image)) < 0) {
		rbd_state_free(s);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: cannot invalidate the cache: %s",
			       j->name, strerror(-r));
	}
	s->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->efd < 0) {
		r = -errno;
		rbd_state_free(s);
		return err_set(e, r, EXIT_INTERNAL, "rbd: eventfd: %s", strerror(-r));
	}
	r = s->c.lib.rbd_set_image_notification(s->c.image, s->efd, EVENT_TYPE_EVENTFD);
	if (r < 0) {
		rbd_state_free(s);
		return err_set(e, r, EXIT_TARGET, "job '%s': rbd: cannot set the completion notification: %s",
			       j->name, strerror(-r));
	}
	if (s->c.lib.rbd_stat(s->c.image, &info, sizeof(info)) < 0)
		info.size = 0;
	s->c.lib.rbd_version(&maj, &min, &extra);
	snprintf(ctx->info, sizeof(ctx->info), "rbd: %.40s/%.40s (%llu MiB), librbd %d.%d.%d, cache %s%s",
		 ro->pool, ro->name, (unsigned long long)(info.size >> 20), maj, min,
		 extra, j->direct ? "off" : "on", s->busy_poll ? ", busy_poll" : "");
	ctx->priv = s;
	return 0;
}

static int rbd_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct rbd_state *s = ctx->priv;

	if (s->nr_pending + s->inflight + s->nr_failed >= ctx->depth)
		return ENGINE_Q_BUSY;
	s->pending[s->nr_pending++] = io;
	return ENGINE_Q_QUEUED;
}

/* librbd calls it from its own thread; the completion is taken by polling. */
static void rbd_complete_cb(rbd_completion_t c, void *arg)
{
	(void)c;
	(void)arg;
}

/* Hand one io_u to librbd: 0 or -errno (then nothing is in flight for it). */
static int rbd_submit(struct rbd_state *s, struct io_u *io)
{
	rbd_completion_t c;
	int r = s->c.lib.rbd_aio_create_completion(io, rbd_complete_cb, &c);

	if (r < 0)
		return r;
	switch (io->ddir) {
	case DDIR_READ:
		r = s->c.lib.rbd_aio_read(s->c.image, io->offset, io->len, io->buf, c);
		break;
	case DDIR_WRITE:
		r = s->c.lib.rbd_aio_write(s->c.image, io->offset, io->len, io->buf, c);
		break;
	case DDIR_TRIM:
		r = s->c.lib.rbd_aio_discard(s->c.image, io->offset, io->len, c);
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		r = s->c.lib.rbd_aio_flush(s->c.image, c);
		break;
	default:
		r = -EINVAL;
		break;
	}
	if (r < 0)
		s->c.lib.rbd_aio_release(c);
	return r;
}

static int rbd_commit(struct engine_ctx *ctx)
{
	struct rbd_state *s = ctx->priv;
	unsigned i, n = s->nr_pending;

	for (i = 0; i < n; i++) {
		struct io_u *io = s->pending[i];
		int r = rbd_submit(s, io);

		if (r < 0) {
			io->res = r;
			s->failed[s->nr_failed++] = io;
		} else {
			s->inflight++;
		}
	}
	s->nr_pending = 0;
	return (int)n;
}

/* Take up to @max finished I/Os into @out without waiting: the count. */
static unsigned rbd_take(struct rbd_state *s, unsigned max, struct io_u **out)
{
	unsigned got = 0;
	int n, k;

	while (s->nr_failed && got < max)
		out[got++] = s->failed[--s->nr_failed];
	if (got >= max || !s->inflight)
		return got;
	n = s->c.lib.rbd_poll_io_events(s->c.image, s->comps, (int)(max - got));
	for (k = 0; k < n; k++) {
		struct io_u *io = s->c.lib.rbd_aio_get_arg(s->comps[k]);
		ssize_t ret = s->c.lib.rbd_aio_get_return_value(s->comps[k]);

		s->c.lib.rbd_aio_release(s->comps[k]);
		/* librbd completes a request whole or fails it: no short I/O */
		if (ret < 0)
			io->res = ret;
		else
			io->res = io->ddir == DDIR_SYNC || io->ddir == DDIR_DATASYNC ? 0 : (int64_t)io->len;
		out[got++] = io;
	}
	if (n > 0)
		s->inflight -= (unsigned)n;
	return got;
}

/*
 * Wait until librbd signals a completion, at most @ts (NULL: no limit).
 * Reading the eventfd clears it: a completion signalled after the read
 * sets it again, so none is missed between the wait and the next take.
 * 0 when signalled, 1 on timeout, -errno.
 */
static int rbd_wait(struct rbd_state *s, const struct timespec *ts)
{
	struct pollfd p = { .fd = s->efd, .events = POLLIN };
	uint64_t v;
	int r = ppoll(&p, 1, ts, NULL);

	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return 1;
	if (read(s->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	return 0;
}

/*
 * Reap @min..@max I/Os; @ts NULL: wait as long as it takes, else one wait
 * of at most *@ts, after which what is ready is returned, even fewer.
 */
static int rbd_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out,
		    const struct timespec *ts)
{
	struct rbd_state *s = ctx->priv;
	unsigned got = 0;
	int r;

	if (min > max)
		min = max;
	if (min > s->inflight + s->nr_failed)
		min = s->inflight + s->nr_failed;
	for (;;) {
		got += rbd_take(s, max - got, out + got);
		if (got >= min)
			break;
		if (s->busy_poll) {
			if (ts)
				break;	/* timed: one look, then the caller's schedule */
			continue;
		}
		r = rbd_wait(s, ts);
		if (r < 0)
			return got ? (int)got : r;
		if (ts) {
			got += rbd_take(s, max - got, out + got);
			break;
		}
	}
	if (s->busy_poll && got) {
		/* spinning never reads the eventfd: keep its counter from growing */
		uint64_t v;
		ssize_t n = read(s->efd, &v, sizeof(v));

		(void)n;
	}
	return (int)got;
}

static int rbd_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	return rbd_reap(ctx, min, max, out, NULL);
}

static int rbd_getevents_timed(struct engine_ctx *ctx, unsigned min, unsigned max,
			       struct io_u **out, uint64_t timeout_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000ull),
			       .tv_nsec = (long)(timeout_ns % 1000000000ull) };

	return rbd_reap(ctx, min, max, out, &ts);
}

/* verify's read-backs, outside the measurement (engine_ops.read_sync). */
static int64_t rbd_read_sync(struct engine_ctx *ctx, unsigned file, void *buf, uint64_t len,
			     uint64_t off)
{
	struct rbd_state *s = ctx->priv;

	(void)file;	/* every file of the job is the one image */
	return (int64_t)s->c.lib.rbd_read(s->c.image, off, (size_t)len, buf);
}

/* Wait for what is still in flight (its buffers go after exit), then close. */
static void rbd_exit(struct engine_ctx *ctx)
{
	struct rbd_state *s = ctx->priv;

	if (!s)
		return;
	s->nr_failed = 0;
	while (s->inflight) {
		int n = s->c.lib.rbd_poll_io_events(s->c.image, s->comps, (int)ctx->depth), k;

		for (k = 0; k < n; k++)
			s->c.lib.rbd_aio_release(s->comps[k]);
		if (n > 0)
			s->inflight -= (unsigned)n;
		else if (rbd_wait(s, NULL) < 0)
			break;
	}
	rbd_state_free(s);
	ctx->priv = NULL;
}

/* fio's requirements, checked when the job is parsed (--parse-only sees them). */
static int rbd_validate(const struct job *j, struct err *e)
{
	const struct rbd_opts *ro = engine_job_opts(j);
	const char *f = j->filename;

	if (!ro->pool[0])
		return job_err(e, j, "ioengine rbd needs pool= (the pool holding the image)");
	if (!ro->name[0])
		return job_err(e, j, "ioengine rbd needs rbdname= (the image)");
	if (ro->clustername[0] && !ro->clientname[0])
		return job_err(e, j, "ioengine rbd: clustername= needs clientname= "
			       "(librados takes a cluster name only with a client name)");
	if (j->nrfiles > 1)
		return job_err(e, j, "ioengine rbd does I/O on one image: nrfiles=%u", j->nrfiles);
	for (; f && *f; f++) {
		if (*f == '\\' && f[1]) {
			f++;
			continue;
		}
		if (*f == ':')
			return job_err(e, j, "ioengine rbd does I/O on one image: filename= lists several "
				       "(%s)", j->filename);
	}
	return 0;
}

const struct engine_ops engine_rbd_ops = {
	.name = "rbd",
	.opts = rbd_opts,
	ENGINE_OPTS_AREA(struct rbd_opts, &rbd_defaults),
	.init = rbd_init,
	.queue = rbd_queue,
	.commit = rbd_commit,
	.getevents = rbd_getevents,
	.exit = rbd_exit,
	.validate = rbd_validate,
	.getevents_timed = rbd_getevents_timed,
	.target_size = rbd_target_size,
	.read_sync = rbd_read_sync,
};

#else

const struct engine_ops engine_rbd_ops = {
	.name = "rbd",
	.opts = rbd_opts,
	ENGINE_OPTS_AREA(struct rbd_opts, &rbd_defaults),
	.absent = "this build has no librbd; install librbd-dev and librados-dev, then rebuild",
};

#endif
