/*
 * idleprof: the idleness profile's threads and arithmetic (idleprof.h).
 */
#include "measure/idleprof.h"

#include <errno.h>	/* ENOMEM */
#include <math.h>	/* sqrt */
#include <sched.h>	/* sched_getaffinity, SCHED_IDLE */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset, strerror */

double idleprof_unit_ns(const uint64_t *run_ns, size_t runs, unsigned scale)
{
	uint64_t best = 0;

	for (size_t i = 0; i < runs; i++)
		if (run_ns[i] && (!best || run_ns[i] < best))
			best = run_ns[i];
	return scale ? (double)best / scale : 0.0;
}

void idleprof_unit_stats(const double *v, size_t n, double *mean, double *stddev)
{
	double sum = 0.0, var = 0.0;

	*mean = *stddev = 0.0;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		var += (v[i] - *mean) * (v[i] - *mean);
	*stddev = sqrt(var / (double)(n - 1));
}

double idleprof_share(uint64_t units, double unit_ns, uint64_t wall_ns)
{
	double p;

	if (!units || unit_ns <= 0.0 || !wall_ns)
		return 0.0;
	p = (double)units * unit_ns / (double)wall_ns * 100.0;
	return p > 100.0 ? 100.0 : p;
}

/*
 * One unit of work: a pass over the thread's buffer, the byte written
 * depending on the pass so no pass is like the last.  Not inlined, so that
 * calibration and profiling run the same code.
 */
static __attribute__((noinline)) void idleprof_unit(unsigned char *buf, uint64_t pass)
{
	for (unsigned k = 0; k < IDLEPROF_UNIT_BYTES; k++)
		buf[k] = (unsigned char)(k + pass);
}

static void idleprof_calibrate(struct idleprof_thread *t)
{
	uint64_t runs[IDLEPROF_CAL_RUNS], t0;

	for (unsigned r = 0; r < IDLEPROF_CAL_RUNS; r++) {
		t0 = clock_now_ns(t->ip->clk);
		for (unsigned u = 0; u < IDLEPROF_CAL_SCALE; u++)
			idleprof_unit(t->buf, u);
		runs[r] = clock_now_ns(t->ip->clk) - t0;
	}
	t->unit_ns = idleprof_unit_ns(runs, IDLEPROF_CAL_RUNS, IDLEPROF_CAL_SCALE);
}

static void *idleprof_main(void *arg)
{
	struct idleprof_thread *t = arg;
	struct idleprof *ip = t->ip;
	struct sched_param sp = { 0 };
	cpu_set_t set;
	uint64_t n = 0;
	int r, go;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	r = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!r) {
		/* timed at normal priority: SCHED_IDLE would time the others' load */
		idleprof_calibrate(t);
		r = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	}
	pthread_mutex_lock(&ip->lock);
	t->err = -r;
	ip->ready++;
	pthread_cond_broadcast(&ip->cond);
	while (!ip->go)
		pthread_cond_wait(&ip->cond, &ip->lock);
	go = ip->go;
	pthread_mutex_unlock(&ip->lock);
	if (go < 0 || r)
		return NULL;
	t->t0_ns = clock_now_ns(ip->clk);
	while (!atomic_load_explicit(&ip->stop, memory_order_relaxed))
		idleprof_unit(t->buf, n++);
	t->t1_ns = clock_now_ns(ip->clk);
	t->units = n;
	return NULL;
}

/* Let waiting threads go (@go 1) or leave (-1). */
static void idleprof_release(struct idleprof *ip, int go)
{
	pthread_mutex_lock(&ip->lock);
	if (!ip->go)
		ip->go = go;
	pthread_cond_broadcast(&ip->cond);
	pthread_mutex_unlock(&ip->lock);
}

int idleprof_start(struct idleprof *ip, enum idleprof_mode mode, const struct clock *clk,
		   struct err *e)
{
	cpu_set_t set;
	size_t i = 0;
	int cpu, r;

	memset(ip, 0, sizeof(*ip));
	ip->mode = mode;
	ip->clk = clk;
	pthread_mutex_init(&ip->lock, NULL);
	pthread_cond_init(&ip->cond, NULL);
	if (sched_getaffinity(0, sizeof(set), &set))
		return err_set(e, -errno, EXIT_INTERNAL, "idle-prof: cannot read the CPUs this "
			       "process may use: %s", strerror(errno));
	ip->th = calloc((size_t)CPU_COUNT(&set), sizeof(*ip->th));
	if (!ip->th)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (cpu = 0; cpu < CPU_SETSIZE && i < (size_t)CPU_COUNT(&set); cpu++) {
		struct idleprof_thread *t = &ip->th[i];

		if (!CPU_ISSET(cpu, &set))
			continue;
		t->ip = ip;
		t->cpu = cpu;
		r = pthread_create(&t->tid, NULL, idleprof_main, t);
		if (r)
			return err_set(e, -r, EXIT_INTERNAL, "idle-prof: cannot start a thread: %s",
				       strerror(r));
		t->created = 1;
		ip->nr = ++i;
	}
	pthread_mutex_lock(&ip->lock);
	while (ip->ready < ip->nr)
		pthread_cond_wait(&ip->cond, &ip->lock);
	pthread_mutex_unlock(&ip->lock);
	for (i = 0; i < ip->nr; i++)
		if (ip->th[i].err)
			return err_set(e, ip->th[i].err, EXIT_INTERNAL, "idle-prof: CPU %d: cannot "
				       "pin a thread to it or make it idle-priority (SCHED_IDLE): %s",
				       ip->th[i].cpu, strerror(-ip->th[i].err));
	return 0;
}

void idleprof_begin(struct idleprof *ip)
{
	idleprof_release(ip, 1);
}

static void idleprof_join(struct idleprof *ip)
{
	atomic_store(&ip->stop, 1);
	idleprof_release(ip, -1);
	for (size_t i = 0; i < ip->nr; i++)
		if (ip->th[i].created) {
			pthread_join(ip->th[i].tid, NULL);
			ip->th[i].created = 0;
		}
}

int idleprof_end(struct idleprof *ip, struct idleprof_result *out)
{
	double *unit;
	size_t i;

	idleprof_join(ip);
	memset(out, 0, sizeof(*out));
	out->mode = ip->mode;
	unit = calloc(ip->nr ? ip->nr : 1, sizeof(*unit));
	if (!unit)
		return -ENOMEM;
	for (i = 0; i < ip->nr; i++)
		unit[i] = ip->th[i].unit_ns / 1000.0;
	idleprof_unit_stats(unit, ip->nr, &out->unit_mean_us, &out->unit_stddev_us);
	free(unit);
	if (ip->mode == IDLEPROF_CALIBRATE || !ip->nr)
		return 0;
	out->cpus = calloc(ip->nr, sizeof(*out->cpus));
	if (!out->cpus)
		return -ENOMEM;
	out->nr_cpus = ip->nr;
	for (i = 0; i < ip->nr; i++) {
		const struct idleprof_thread *t = &ip->th[i];

		out->cpus[i].cpu = t->cpu;
		out->cpus[i].pct = idleprof_share(t->units, t->unit_ns, t->t1_ns - t->t0_ns);
		out->system_pct += out->cpus[i].pct / (double)ip->nr;
	}
	return 0;
}

void idleprof_free(struct idleprof *ip)
{
	if (!ip->th)
		return;
	idleprof_join(ip);
	free(ip->th);
	ip->th = NULL;
	pthread_cond_destroy(&ip->cond);
	pthread_mutex_destroy(&ip->lock);
}
