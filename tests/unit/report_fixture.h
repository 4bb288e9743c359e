/*
 * report_fixture: a synthetic run_result with hand-chosen numbers, shared by
 * the report writer tests.  Two jobs in two groups:
 *   alpha (group 0): randrw; read 1000 I/Os of 4 KiB over 2000 ms, clat 900 x
 *     100 us, 90 x 1 ms, 10 x 20 ms; write 500 I/Os of 8 KiB over 1000 ms,
 *     clat 250 x 50 ns, 250 x 5 us; 10 syncs of 2 ms; clat and lat
 *     percentiles on, default percentile list.
 *   beta (group 1): read 300 I/Os of 4 KiB over 1000 ms, clat 300 x 150 us,
 *     percentile_list 99:50 (unsorted on purpose), error 5, partial.
 * The run was interrupted by SIGINT; two disks.  Everything is filled by hand
 * (memset + fields), so only hist.h and stat.h's declared helpers are used.
 */
#ifndef REPORT_FIXTURE_H
#define REPORT_FIXTURE_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "result/result.h"

struct fixture {
	struct job job[2];
	struct job_kv kv_a[4], kv_b[2], gkv[1];
	struct job_result jr[2];
	struct disk_util du[2];
	struct run_result r;
};

static void fixture_moments(struct moments *m, uint64_t n, uint64_t min, uint64_t max,
			    double mean, double stddev)
{
	m->n = n;
	m->min = min;
	m->max = max;
	m->mean = mean;
	m->m2 = n > 1 ? stddev * stddev * (double)(n - 1) : 0.0;
}

static void fixture_hist(struct hist *h, uint64_t v, uint64_t count)
{
	h->b[hist_index(v)] += count;
}

static void fixture_samples(struct sample_stat *s, uint64_t n, double min, double max,
			    double mean, double stddev)
{
	s->n = n;
	s->min = min;
	s->max = max;
	s->mean = mean;
	s->m2 = stddev * stddev * (double)(n - 1);
}

static void fixture_alpha(struct fixture *fx)
{
	struct job *j = &fx->job[0];
	struct job_result *r = &fx->jr[0];
	struct dir_result *rd = &r->dir[DDIR_READ], *wr = &r->dir[DDIR_WRITE];

	strcpy(j->name, "alpha");
	j->iodepth = 16;
	j->lat_target.percentile = 100;	/* fio's default (job_init's) */
	j->clat_percentiles = 1;
	j->lat_percentiles = 1;
	fx->kv_a[0] = (struct job_kv){ "name", "alpha" };
	fx->kv_a[1] = (struct job_kv){ "rw", "randrw" };
	fx->kv_a[2] = (struct job_kv){ "bs", "4k" };
	fx->kv_a[3] = (struct job_kv){ "time_based", NULL };
	j->opts = fx->kv_a;
	j->opts_nr = 4;

	r->job = j;
	strcpy(r->name, "alpha");
	r->nr_threads = 1;
	r->elapsed_s = 3;
	r->job_runtime_ms = 2000;
	r->usr_cpu = 4.0;
	r->sys_cpu = 60.25;
	r->ctx = 14143;
	r->minf = 14;

	rd->io_bytes = 1000 * 4096;
	rd->total_ios = 1000;
	rd->runtime_ms = 2000;
	fixture_moments(&rd->clat, 1000, 90000, 21000000, 490000.5, 1800000.25);
	fixture_moments(&rd->lat, 1000, 95000, 21000500, 495000.5, 1800001.0);
	fixture_hist(&rd->clat_hist, 100000, 900);
	fixture_hist(&rd->clat_hist, 1000000, 90);
	fixture_hist(&rd->clat_hist, 20000000, 10);
	fixture_hist(&rd->lat_hist, 101000, 900);
	fixture_hist(&rd->lat_hist, 1001000, 90);
	fixture_hist(&rd->lat_hist, 20001000, 10);
	fixture_samples(&rd->bw_kib, 4, 1900.4, 2100.6, 2000.0, 100.0);
	fixture_samples(&rd->iops, 4, 475.2, 525.0, 500.0, 25.0);
	rd->bw_agg_pct = 100.0;

	wr->io_bytes = 500 * 8192;
	wr->total_ios = 500;
	wr->short_ios = 2;
	wr->runtime_ms = 1000;
	fixture_moments(&wr->slat, 500, 700, 9000, 1500.0, 300.0);
	fixture_moments(&wr->clat, 500, 50, 5000, 2525.0, 2477.5);
	fixture_moments(&wr->lat, 500, 800, 14000, 4025.0, 2500.0);
	fixture_hist(&wr->slat_hist, 1500, 500);
	fixture_hist(&wr->clat_hist, 50, 250);
	fixture_hist(&wr->clat_hist, 5000, 250);
	fixture_hist(&wr->lat_hist, 800, 250);
	fixture_hist(&wr->lat_hist, 7000, 250);
	wr->bw_agg_pct = 100.0;

	r->sync_ios = 10;
	fixture_moments(&r->sync_lat, 10, 1900000, 2100000, 2000000.0, 50000.0);
	fixture_hist(&r->sync_hist, 2000000, 10);

	r->depth_level[0] = 10;
	r->depth_level[4] = 1490;
	r->depth_submit[1] = 1500;
	r->depth_complete[1] = 1400;
	r->depth_complete[2] = 100;
	r->total_submit = 1500;
	r->total_complete = 1500;
}

static void fixture_beta(struct fixture *fx)
{
	struct job *j = &fx->job[1];
	struct job_result *r = &fx->jr[1];
	struct dir_result *rd = &r->dir[DDIR_READ];

	strcpy(j->name, "beta");
	j->iodepth = 1;
	j->lat_target.percentile = 100;
	j->clat_percentiles = 1;
	j->percentile_list[0] = 99;
	j->percentile_list[1] = 50;
	j->percentile_nr = 2;
	fx->kv_b[0] = (struct job_kv){ "name", "beta" };
	fx->kv_b[1] = (struct job_kv){ "rw", "read" };
	j->opts = fx->kv_b;
	j->opts_nr = 2;

	r->job = j;
	strcpy(r->name, "beta");
	r->groupid = 1;
	r->nr_threads = 2;
	r->error = 5;
	strcpy(r->first_error, "read at offset 4096 of /dev/vdz: Input/output error");
	r->partial = 1;
	r->elapsed_s = 1;
	r->job_runtime_ms = 1000;
	rd->io_bytes = 300 * 4096;
	rd->total_ios = 300;
	rd->runtime_ms = 1000;
	fixture_moments(&rd->clat, 300, 140000, 160000, 150000.0, 5000.0);
	fixture_moments(&rd->lat, 300, 141000, 161000, 151000.0, 5000.0);
	fixture_hist(&rd->clat_hist, 150000, 300);
	fixture_hist(&rd->lat_hist, 151000, 300);
	r->depth_level[0] = 300;
	r->depth_submit[1] = 300;
	r->depth_complete[1] = 300;
}

/* Fill @fx (which the caller may keep on the heap: it is ~200 KB). */
static void fixture_init(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	fixture_alpha(fx);
	fixture_beta(fx);

	strcpy(fx->du[0].name, "vda");
	fx->du[0].read_ios = 87110;
	fx->du[0].write_ios = 24220;
	fx->du[0].read_merges = 6;
	fx->du[0].write_merges = 7;
	fx->du[0].read_ticks = 10607;
	fx->du[0].write_ticks = 10319;
	fx->du[0].in_queue = 20926;
	fx->du[0].io_ticks = 2313;
	fx->du[0].util = 77.1;
	strcpy(fx->du[1].name, "loop3");

	fx->gkv[0] = (struct job_kv){ "ioengine", "io_uring" };
	fx->r.timestamp = 1796060977;
	fx->r.timestamp_ms = 1796060977583ull;
	fx->r.jobs = fx->jr;
	fx->r.nr_jobs = 2;
	fx->r.du = fx->du;
	fx->r.nr_du = 2;
	fx->r.global_opts = fx->gkv;
	fx->r.nr_global_opts = 1;
	fx->r.partial = 1;
	fx->r.signal = SIGINT;
	fx->r.clock_source = "tsc";
	fx->r.clock_ghz = 2.5;
}

static struct fixture *fixture_new(void)
{
	struct fixture *fx = malloc(sizeof(*fx));

	if (fx)
		fixture_init(fx);
	return fx;
}

#endif
