/* Unit tests for the option table: every option, defaults, errors, validation. */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "opt.h"
#include "engine.h"	/* engine_find, engine_absent_reason: .engines names checked */

#define W "t.fio:3"

/* Resolved value of canonical option @key in @j ("<unset>" when absent). */
static const char *resolved(const struct job *j, const char *key)
{
	static char buf[4096];
	struct job_kv *kv;
	size_t nr, i;

	snprintf(buf, sizeof(buf), "<unset>");
	if (opt_job_resolved(j, &kv, &nr))
		return "<nomem>";
	for (i = 0; i < nr; i++)
		if (!strcmp(kv[i].key, key))
			snprintf(buf, sizeof(buf), "%s", kv[i].val);
	opt_kv_free(kv, nr);
	return buf;
}

/* Set one option on a fresh job; returns the error code. */
static int set1(struct job *j, const char *name, const char *val, struct err *e)
{
	job_init(j);
	err_clear(e);
	return opt_set(j, name, val, W, e);
}

/*
 * One case per supported option (and alias): set it as typed, then the
 * canonical option @key must resolve to @want, which differs from the default.
 */
static const struct { const char *name, *val, *key, *want; } cases[] = {
	{ "name", "job1", "name", "job1" },
	{ "description", "hello world", "description", "hello world" },
	{ "filename", "/dev/null:/tmp/x", "filename", "/dev/null:/tmp/x" },
	{ "directory", "/tmp", "directory", "/tmp" },
	{ "size", "10G", "size", "10737418240" },
	{ "size", "50%", "size", "50%" },
	{ "filesize", "1m-4m", "filesize", "1048576-4194304" },
	{ "filesize", "64k", "filesize", "65536" },
	{ "offset", "4k", "offset", "4096" },
	{ "fileoffset", "10%", "offset", "10%" },
	{ "offset_increment", "1m", "offset_increment", "1048576" },
	{ "io_size", "2g", "io_size", "2147483648" },
	{ "io_limit", "1k", "io_size", "1024" },
	{ "nrfiles", "4", "nrfiles", "4" },
	{ "nr_files", "2", "nrfiles", "2" },
	{ "unlink", "1", "unlink", "1" },
	{ "allow_file_create", "0", "allow_file_create", "0" },
	{ "allow_mounted_write", "1", "allow_mounted_write", "1" },
	{ "allow_signature_write", "1", "allow_signature_write", "1" },
	{ "invalidate", "0", "invalidate", "0" },
	{ "create_on_open", "1", "create_on_open", "1" },
	{ "rw", "randrw", "rw", "randrw" },
	{ "rw", "write:4k", "rw", "write:4096" },
	{ "readwrite", "randread:8", "rw", "randread:8" },
	{ "rw", "trimwrite", "rw", "trimwrite" },
	{ "rwmixread", "70", "rwmixread", "70" },
	{ "rwmixwrite", "30", "rwmixread", "70" },
	{ "bs", "4k,64k", "bs", "4096,65536,65536" },
	{ "blocksize", "8k", "bs", "8192" },
	{ "bsrange", "1k-4k,2k-8k", "bsrange", "1024-4096,2048-8192,2048-8192" },
	{ "blocksize_range", "1k:64k", "bsrange", "1024-65536" },
	{ "bssplit", "4k/10:64k/50:32k/40", "bssplit", "4096/10:65536/50:32768/40" },
	{ "blockalign", "8k", "blockalign", "8192" },
	{ "ba", ",4k", "blockalign", "0,4096,4096" },
	{ "bs_unaligned", NULL, "bs_unaligned", "1" },
	{ "blocksize_unaligned", "1", "bs_unaligned", "1" },
	{ "randrepeat", "0", "randrepeat", "0" },
	{ "randseed", "1234", "randseed", "1234" },
	{ "norandommap", NULL, "norandommap", "1" },
	{ "random_distribution", "zipf:1.2", "random_distribution", "zipf:1.2" },
	{ "random_distribution", "normal:20", "random_distribution", "normal:20" },
	{ "percentage_random", "50,20", "percentage_random", "50,20,20" },
	{ "ioengine", "null", "ioengine", "null" },
	{ "iodepth", "32", "iodepth", "32" },
	{ "iodepth_batch", "8", "iodepth_batch", "8" },
	{ "iodepth_batch_submit", "4", "iodepth_batch", "4" },
	{ "iodepth_batch_complete_min", "4", "iodepth_batch_complete_min", "4" },
	{ "iodepth_batch_complete", "2", "iodepth_batch_complete_min", "2" },
	{ "iodepth_batch_complete_max", "16", "iodepth_batch_complete_max", "16" },
	{ "iodepth_low", "2", "iodepth_low", "2" },
	{ "direct", "1", "direct", "1" },
	{ "buffered", "0", "direct", "1" },
	{ "sync", "dsync", "sync", "dsync" },
	{ "sync", "1", "sync", "sync" },
	{ "fsync", "8", "fsync", "8" },
	{ "fdatasync", "4", "fdatasync", "4" },
	{ "end_fsync", "1", "end_fsync", "1" },
	{ "fsync_on_close", "1", "fsync_on_close", "1" },
	{ "fixedbufs", NULL, "fixedbufs", "1" },
	{ "registerfiles", NULL, "registerfiles", "1" },
	{ "sqthread_poll", NULL, "sqthread_poll", "1" },
	{ "sqthread_poll_cpu", "1", "sqthread_poll_cpu", "1" },
	{ "hipri", NULL, "hipri", "1" },
	{ "nonvectored", "1", "nonvectored", "1" },
	{ "runtime", "10m", "runtime", "600000000" },
	{ "timeout", "90", "runtime", "90000000" },
	{ "time_based", NULL, "time_based", "1" },
	{ "ramp_time", "1500ms", "ramp_time", "1500000" },
	{ "startdelay", "2", "startdelay", "2000000" },
	{ "loops", "3", "loops", "3" },
	{ "numjobs", "4", "numjobs", "4" },
	{ "group_reporting", NULL, "group_reporting", "1" },
	{ "thread", NULL, "thread", "1" },
	{ "cpus_allowed", "0-1,3", "cpus_allowed", "0-1,3" },
	{ "cpus_allowed_policy", "split", "cpus_allowed_policy", "split" },
	{ "stonewall", NULL, "stonewall", "1" },
	{ "wait_for_previous", NULL, "stonewall", "1" },
	{ "new_group", NULL, "new_group", "1" },
	{ "rate", "1m,2m", "rate", "1048576,2097152,2097152" },
	{ "rate_iops", "1k", "rate_iops", "1024" },
	{ "rate_process", "poisson", "rate_process", "poisson" },
	{ "fadvise_hint", "random", "fadvise_hint", "random" },
	{ "fadvise_hint", "0", "fadvise_hint", "0" },
	{ "percentile_list", "50:99.5", "percentile_list", "50:99.5" },
	{ "clat_percentiles", "0", "clat_percentiles", "0" },
	{ "lat_percentiles", "1", "lat_percentiles", "1" },
	{ "slat_percentiles", "1", "slat_percentiles", "1" },
	{ "disable_lat", "1", "disable_lat", "1" },
	{ "disable_clat", "1", "disable_clat", "1" },
	{ "disable_slat", "1", "disable_slat", "1" },
	{ "kb_base", "1000", "kb_base", "1000" },
	{ "clocksource", "clock_gettime", "clocksource", "clock_gettime" },
	{ "series_interval", "500ms", "series_interval", "500000" },
	{ "write_bw_log", "bwlog", "write_bw_log", "bwlog" },
	{ "write_iops_log", "iolog", "write_iops_log", "iolog" },
	{ "write_lat_log", "latlog", "write_lat_log", "latlog" },
	{ "write_hist_log", "histlog", "write_hist_log", "histlog" },
	{ "log_avg_msec", "500", "log_avg_msec", "500" },
	{ "log_avg_msec", "2k", "log_avg_msec", "2048" },	/* fio's integer units */
	{ "log_hist_msec", "1000", "log_hist_msec", "1000" },
	{ "log_window_value", "both", "log_window_value", "both" },
	{ "log_max_value", "1", "log_window_value", "max" },
	{ "log_offset", "1", "log_offset", "1" },
	{ "per_job_logs", "0", "per_job_logs", "0" },
	{ "log_compression", "10k", "log_compression", "10240" },
	{ "log_store_compressed", "1", "log_store_compressed", "1" },
	{ "steadystate", "iops:10%", "steadystate", "iops:10%" },
	{ "ss", "bw_slope:1", "steadystate", "bw_slope:1" },
	{ "steadystate_duration", "1m", "steadystate_duration", "60000000" },
	{ "ss_dur", "30s", "steadystate_duration", "30000000" },
	{ "steadystate_ramp_time", "5", "steadystate_ramp_time", "5000000" },
	{ "ss_ramp", "10s", "steadystate_ramp_time", "10000000" },
	{ "steady_report", "fio", "steady_report", "fio" },
	{ "steady_report", "NONE", "steady_report", "none" },
	{ "snia_window", "10", "snia_window", "10" },
	{ "snia_range", "15", "snia_range", "15" },
	{ "snia_slope", "2.5%", "snia_slope", "2.5" },
	{ "snia_round", "5s", "snia_round", "5000000" },
	{ "snia_metric", "lat", "snia_metric", "lat" },
	{ "snia_stop", "1", "snia_stop", "1" },
	{ "series_max", "64", "series_max", "64" },
	{ "gtod_reduce", "1", "gtod_reduce", "1" },
	{ "gtod_reduce", "1", "disable_clat", "1" },
	{ "disable_bw_measurement", "1", "disable_bw_measurement", "1" },
	{ "disable_bw", "1", "disable_bw_measurement", "1" },
	{ "cpumask", "0x5", "cpus_allowed", "0,2" },
	{ "nice", "-5", "nice", "-5" },
	{ "disk_util", "0", "disk_util", "0" },
	{ "exitall", NULL, "exitall", "1" },
	{ "exitall_on_error", "1", "exitall_on_error", "1" },
	{ "zero_buffers", NULL, "zero_buffers", "1" },
	{ "refill_buffers", "1", "refill_buffers", "1" },
	{ "scramble_buffers", "0", "scramble_buffers", "0" },
	{ "buffer_pattern", "0xdead\"ab\"", "buffer_pattern", "0xdead\"ab\"" },
	{ "buffer_compress_percentage", "50", "buffer_compress_percentage", "50" },
	{ "buffer_compress_chunk", "4k", "buffer_compress_chunk", "4096" },
	{ "dedupe_percentage", "34", "dedupe_percentage", "34" },
	{ "verify", "crc32c", "verify", "crc32c" },
	{ "verify", "crc32c-intel", "verify", "crc32c" },
	{ "verify", "sha256", "verify", "sha256" },
	{ "do_verify", "0", "do_verify", "0" },
	{ "verify_interval", "512", "verify_interval", "512" },
	{ "verify_offset", "512", "verify_offset", "512" },
	{ "experimental_verify", "1", "experimental_verify", "1" },
	{ "verify_state_load", "1", "verify_state_load", "1" },
	{ "write_iolog", "w.log", "write_iolog", "w.log" },
	{ "read_iolog", "r.log", "read_iolog", "r.log" },
	{ "replay_no_stall", "1", "replay_no_stall", "1" },
	{ "allrandrepeat", "0", "allrandrepeat", "0" },
	{ "verify_pattern", "0xdeadbeef", "verify_pattern", "0xdeadbeef" },
	{ "verify_only", NULL, "verify_only", "1" },
	{ "verify_fatal", "1", "verify_fatal", "1" },
	{ "threads", "1", "thread", "1" },	/* fio 3.33 takes it in job files */
	{ "thinktime", "500", "thinktime", "500" },	/* bare: microseconds, as fio */
	{ "thinktime", "2ms", "thinktime", "2000" },
	{ "thinktime_spin", "100", "thinktime_spin", "100" },
	{ "thinktime_blocks", "8", "thinktime_blocks", "8" },
	{ "number_ios", "1k", "number_ios", "1024" },
	{ "exit_what", "stonewall", "exit_what", "stonewall" },
	{ "exit_what", "all", "exit_what", "all" },
	{ "wait_for", "writers", "wait_for", "writers" },
	{ "rw", "read:-8k", "rw", "read:-8192" },	/* backwards */
	{ "rate_min", "1m", "rate_min", "1048576" },
	{ "ratemin", "2k", "rate_min", "2048" },
	{ "rate_iops_min", "10", "rate_iops_min", "10" },
	{ "rate_cycle", "500", "rate_cycle", "500" },
	{ "ratecycle", "200", "rate_cycle", "200" },
	{ "random_distribution", "zoned:50/5:30/15:20/", "random_distribution", "zoned:50/5:30/15:20/80" },
	/* the engines that move no data (their own checks: engine_errors, parse_errors.sh) */
	{ "stat_type", "statx", "stat_type", "statx" },
	{ "openfiles", "1", "openfiles", "1" },
	{ "cpuload", "50", "cpuload", "50" },
	{ "cpuchunks", "10000", "cpuchunks", "10000" },
	{ "cpumode", "qsort", "cpumode", "qsort" },
	{ "exit_on_io_done", "1", "exit_on_io_done", "1" },
	{ "program", "/bin/sleep", "program", "/bin/sleep" },
	{ "arguments", "%r -x %n", "arguments", "%r -x %n" },
	{ "grace_time", "0", "grace_time", "0" },
	{ "grace_time", "500ms", "grace_time", "500000" },
	{ "std_redirect", "0", "std_redirect", "0" },
	{ "donorname", "file.def", "donorname", "file.def" },
	{ "inplace", "1", "inplace", "1" },
	{ "clustername", "ceph", "clustername", "ceph" },
	{ "rbdname", "img", "rbdname", "img" },
	{ "pool", "rbd", "pool", "rbd" },
	{ "clientname", "admin", "clientname", "admin" },
	{ "busy_poll", "1", "busy_poll", "1" },
	{ "fallocate", "none", "fallocate", "none" },
	{ "fallocate", "1", "fallocate", "posix" },	/* fio's old spelling */
	{ "fallocate", "keep", "fallocate", "keep" },
	/* fio compatibility (docs/compat.md) */
	{ "continue_on_error", "write", "continue_on_error", "write" },
	{ "continue_on_error", "1", "continue_on_error", "all" },
	{ "ignore_error", ",ENOSPC:122", "ignore_error", ",ENOSPC:EDQUOT," },
	{ "io_submit_mode", "offload", "io_submit_mode", "offload" },
	{ "serialize_overlap", "1", "serialize_overlap", "1" },
	/* latency_target.h: bare times are microseconds */
	{ "latency_target", "500000", "latency_target", "500000" },
	{ "latency_target", "2ms", "latency_target", "2000" },
	{ "latency_window", "5s", "latency_window", "5000000" },
	{ "latency_percentile", "99.9", "latency_percentile", "99.9" },
	{ "latency_run", "1", "latency_run", "1" },
	{ "error_dump", "1", "error_dump", "1" },
	{ "fill_device", "1", "fill_device", "1" },
	{ "fill_fs", "1", "fill_device", "1" },
	{ "create_serialize", "0", "create_serialize", "0" },
	{ "zonemode", "strided", "zonemode", "strided" },
	{ "zonesize", "256m", "zonesize", "268435456" },
	{ "zonerange", "1m", "zonerange", "1048576" },
	{ "zoneskip", "2g", "zoneskip", "2147483648" },
	{ "verify", "meta", "verify", "meta" },
	{ "verify_backlog", "1024", "verify_backlog", "1024" },
	{ "verify_backlog_batch", "4", "verify_backlog_batch", "4" },
	{ "verify_dump", "1", "verify_dump", "1" },
	{ "verify_async", "4", "verify_async", "4" },
	{ "cmdprio_percentage", "20,30", "cmdprio_percentage", "20,30" },
	{ "cmdprio_class", "2", "cmdprio_class", "2" },
	{ "cmdprio", "3", "cmdprio", "3" },
	{ "cmdprio_bssplit", "64k/100/1/1:1m/0", "cmdprio_bssplit", "65536/100/1/1:1048576/0,65536/100/1/1:1048576/0" },
	{ "prio", "7", "prio", "7" },
	{ "prioclass", "3", "prioclass", "3" },
	{ "log_prio", "1", "log_prio", "1" },
	{ "random_generator", "lfsr", "random_generator", "lfsr" },
	{ "flow", "8", "flow", "8" },
	{ "dedupe_mode", "working_set", "dedupe_mode", "working_set" },
	{ "dedupe_working_set_percentage", "50", "dedupe_working_set_percentage", "50" },
	{ "dedupe_global", "1", "dedupe_global", "1" },
	{ "numa_cpu_nodes", "0-1,3", "numa_cpu_nodes", "0-1,3" },
	{ "numa_mem_policy", "interleave:0-1", "numa_mem_policy", "interleave:0-1" },
	{ "filename_format", "t.$jobnum", "filename_format", "t.$jobnum" },
	{ "flow_id", "2", "flow_id", "2" },
	{ "flow_watermark", "16", "flow_watermark", "16" },
	{ "flow_sleep", "1000", "flow_sleep", "1000" },
};

/*
 * Options whose only accepted values are the default (fio's other values are
 * refused as unsupported, see unknown_and_unsupported): set, they resolve to @want.
 */
static const struct { const char *name, *val, *want; } default_only[] = {	/* and a few more */
	{ "unified_rw_reporting", "none", "none" },
	{ "unified_rw_reporting", "0", "none" },
	{ "unified_rw_reporting", "1", "mixed" },
	{ "unified_rw_reporting", "both", "both" },
	{ "continue_on_error", "none", "none" },
	{ "continue_on_error", "0", "none" },
	{ "io_submit_mode", "inline", "inline" },
	{ "verify_state_save", "0", "0" },
	{ "verify", "0", "0" },
	{ "verify", "none", "0" },
	{ "zonemode", "none", "none" },
};

TEST(every_option_sets_its_value)
{
	struct job j, def;
	struct err e;
	size_t i;
	char before[4096];

	job_init(&def);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = set1(&j, cases[i].name, cases[i].val, &e);

		if (ret) {
			printf("  %s=%s: %s\n", cases[i].name, cases[i].val ? cases[i].val : "(bare)", e.msg);
			CHECK(ret == 0);
			job_free(&j);
			continue;
		}
		CHECK_STR(resolved(&j, cases[i].key), cases[i].want);
		snprintf(before, sizeof(before), "%s", resolved(&def, cases[i].key));
		if (!strcmp(before, cases[i].want))
			printf("  %s: the case does not change the default\n", cases[i].name);
		CHECK(strcmp(before, cases[i].want) != 0);
		/* the pair is recorded as typed */
		CHECK_EQ_U(j.opts_nr, 1);
		/* under its canonical name, as fio's "job options" */
		CHECK_STR(j.opts[0].key, opt_find(cases[i].name)->name);
		CHECK(cases[i].val ? j.opts[0].val && !strcmp(j.opts[0].val, cases[i].val)
				   : j.opts[0].val == NULL);
		job_free(&j);
	}
	for (i = 0; i < sizeof(default_only) / sizeof(default_only[0]); i++) {
		CHECK(set1(&j, default_only[i].name, default_only[i].val, &e) == 0);
		CHECK_STR(resolved(&j, default_only[i].name), default_only[i].want);
		CHECK_EQ_U(j.opts_nr, 1);
		job_free(&j);
	}
	job_free(&def);
}

/* Adding an option to the table without a case above fails here. */
TEST(every_supported_option_has_a_case)
{
	size_t nr, i, k, a;
	const struct opt_def *t = opt_table(&nr);
	int found;

	for (i = 0; i < nr; i++) {
		if (t[i].type == OPT_UNSUPPORTED)
			continue;
		for (a = 0; a < 3; a++) {
			const char *n = a ? t[i].alias[a - 1] : t[i].name;

			if (!n)
				continue;
			found = 0;
			for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
				if (!strcmp(cases[k].name, n))
					found = 1;
			for (k = 0; k < sizeof(default_only) / sizeof(default_only[0]); k++)
				if (!strcmp(default_only[k].name, n))
					found = 1;
			if (!found)
				printf("  no case for option '%s'\n", n);
			CHECK(found);
		}
	}
}

/* Each row's storage matches its type, and no name is claimed twice. */
TEST(table_integrity)
{
	size_t nr, i, k, a, b;
	const struct opt_def *t = opt_table(&nr);

	CHECK(nr > 300);
	for (i = 0; i < nr; i++) {
		const struct opt_def *o = &t[i];

		switch (o->type) {
		case OPT_BOOL: case OPT_FLAG: case OPT_CHOICE:
			CHECK_EQ_U(o->width, sizeof(int));
			break;
		case OPT_INT: case OPT_INT_DDIR:
			CHECK(o->width == 4 || o->width == 8);
			break;
		case OPT_TIME:
			CHECK(o->width == 4 || o->width == 8);
			CHECK(o->unit_us == 1 || o->unit_us == 1000);
			CHECK(o->bare_us >= o->unit_us);
			break;
		case OPT_STR:
			CHECK_EQ_U(o->width, sizeof(char *));
			break;
		case OPT_FUNC:
			CHECK(o->parse != NULL);
			CHECK(o->show != NULL || (o->flags & OPT_F_NOSHOW));
			break;
		case OPT_UNSUPPORTED:
			break;
		}
		if (o->type == OPT_CHOICE)
			CHECK(o->choices && o->choices[0].name);
		if (o->type != OPT_UNSUPPORTED && o->type != OPT_FUNC)
			CHECK(o->off + o->width <= sizeof(struct job));
		if (o->type != OPT_UNSUPPORTED)
			CHECK(o->help && o->help[0]);
		for (k = i + 1; k < nr; k++)
			for (a = 0; a < 3; a++)
				for (b = 0; b < 3; b++) {
					const char *x = a ? t[i].alias[a - 1] : t[i].name;
					const char *y = b ? t[k].alias[b - 1] : t[k].name;

					if (x && y && !strcmp(x, y)) {
						printf("  '%s' appears twice\n", x);
						CHECK(0);
					}
				}
	}
}

TEST(fields)
{
	struct job j;
	struct err e;

	CHECK(!set1(&j, "rw", "randrw", &e));
	CHECK_EQ_U(j.rw, RW_READ | RW_WRITE | RW_RAND);
	CHECK(!opt_set(&j, "rw", "randread:8", W, &e));
	CHECK_EQ_U(j.rw, RW_READ | RW_RAND);
	CHECK_EQ_U(j.rw_seq_nr, 8);
	CHECK(!opt_set(&j, "rw", "randtrimwrite", W, &e));
	CHECK_EQ_U(j.rw, RW_TRIM | RW_WRITE | RW_TRIMWRITE | RW_RAND);
	CHECK_EQ_U(j.rw_seq_nr, 0);
	CHECK(!opt_set(&j, "bs", "4k,64k", W, &e));
	CHECK_EQ_U(j.bs[DDIR_READ], 4096);
	CHECK_EQ_U(j.bs[DDIR_WRITE], 65536);
	CHECK_EQ_U(j.bs[DDIR_TRIM], 65536);
	CHECK(!opt_set(&j, "runtime", "600", W, &e));
	CHECK_EQ_U(j.runtime_us, 600000000ull);
	CHECK(!opt_set(&j, "log_avg_msec", "500", W, &e));
	CHECK_EQ_U(j.log_avg_msec, 500);
	CHECK(!opt_set(&j, "random_distribution", "pareto:0.3", W, &e));
	CHECK_EQ_U(j.random_distribution, RAND_DIST_PARETO);
	CHECK_NEAR(j.rand_param, 0.3, 1e-12);
	CHECK(!opt_set(&j, "ss", "iops_slope:0.5%", W, &e));
	CHECK_EQ_U(j.ss_metric, SS_IOPS_SLOPE);
	CHECK_NEAR(j.ss_limit, 0.5, 1e-12);
	CHECK_EQ_U(j.ss_pct, 1);
	CHECK(!opt_set(&j, "ss", "bw:2000", W, &e));
	CHECK_EQ_U(j.ss_metric, SS_BW);
	CHECK_EQ_U(j.ss_pct, 0);
	CHECK(!opt_set(&j, "cpus_allowed", "0-1,3", W, &e));
	CHECK(j.cpus_allowed_set);
	CHECK_EQ_U(CPU_COUNT(&j.cpus_allowed), 3);
	CHECK(CPU_ISSET(3, &j.cpus_allowed) && !CPU_ISSET(2, &j.cpus_allowed));
	CHECK(!opt_set(&j, "sync", "dsync", W, &e));
	CHECK_EQ_U(j.sync, SYNC_DSYNC);
	CHECK(!opt_set(&j, "clocksource", "cpu", W, &e));
	CHECK_EQ_U(j.clocksource, CLOCK_MODE_TSC);
	CHECK(!opt_set(&j, "clocksource", "gettimeofday", W, &e));
	CHECK_EQ_U(j.clocksource, CLOCK_MODE_GETTIMEOFDAY);
	CHECK(!opt_set(&j, "clocksource", "clock_gettime", W, &e));
	CHECK_EQ_U(j.clocksource, CLOCK_MODE_GETTIME);
	CHECK(!opt_set(&j, "rate_iops", "1k,,2k", W, &e));
	CHECK_EQ_U(j.rate_iops[DDIR_READ], 1024);
	CHECK_EQ_U(j.rate_iops[DDIR_WRITE], 0);
	CHECK_EQ_U(j.rate_iops[DDIR_TRIM], 2048);
	CHECK(!opt_set(&j, "size", "50%", W, &e));
	CHECK_EQ_U(j.size_pct, 50);
	CHECK(!opt_set(&j, "size", "1g", W, &e));
	CHECK_EQ_U(j.size_pct, 0);
	CHECK_EQ_U(j.size, 1ull << 30);
	CHECK(!opt_set(&j, "percentile_list", "1:50:99.99", W, &e));
	CHECK_EQ_U(j.percentile_nr, 3);
	CHECK_NEAR(j.percentile_list[2], 99.99, 1e-12);
	CHECK(!opt_set(&j, "direct", "1", W, &e));
	CHECK(!opt_set(&j, "buffered", "1", W, &e));
	CHECK_EQ_U(j.direct, 0);
	CHECK(!opt_set(&j, "time_based", "0", W, &e));
	CHECK_EQ_U(j.time_based, 0);
	CHECK(!opt_set(&j, "write_bw_log", NULL, W, &e));
	CHECK_STR(j.write_bw_log, "");
	CHECK(!opt_set(&j, "series_interval", "250ms", W, &e));
	CHECK_EQ_U(j.interval_us, 250000);
	CHECK(!opt_set(&j, "steady_report", "fio", W, &e));
	CHECK_EQ_U(j.steady_report, SS_REPORT_FIO);
	CHECK(!opt_set(&j, "snia_window", "8", W, &e));
	CHECK_EQ_U(j.snia_window, 8);
	CHECK(!opt_set(&j, "snia_range", "12.5%", W, &e));
	CHECK_NEAR(j.snia_range_pct, 12.5, 0);
	CHECK(!opt_set(&j, "snia_slope", "100", W, &e));
	CHECK_NEAR(j.snia_slope_pct, 100, 0);
	CHECK(!opt_set(&j, "snia_round", "1500ms", W, &e));
	CHECK_EQ_U(j.snia_round_us, 1500000);
	CHECK(!opt_set(&j, "snia_metric", "bw", W, &e));
	CHECK_EQ_U(j.snia_metric, SNIA_METRIC_BW);
	CHECK(!opt_set(&j, "snia_stop", "1", W, &e));
	CHECK_EQ_U(j.snia_stop, 1);
	CHECK(!opt_set(&j, "unified_rw_reporting", "0", W, &e));
	CHECK_EQ_U(j.unified_rw_reporting, 0);
	job_free(&j);
}

/* iotrial's own options say so (--cmdhelp, docs); fio's do not. */
TEST(iotrial_flag)
{
	static const char *const ours[] = { "allow_signature_write", "series_interval",
		"steady_report", "snia_window", "snia_range", "snia_slope", "snia_round",
		"snia_metric", "snia_stop", "series_max" };
	size_t i;

	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		CHECK(opt_find(ours[i]) && (opt_find(ours[i])->flags & OPT_F_IOTRIAL));
		CHECK(!strncmp(opt_find(ours[i])->help, "iotrial: ", 9));
	}
	CHECK(!(opt_find("steadystate")->flags & OPT_F_IOTRIAL));
	CHECK(!(opt_find("unified_rw_reporting")->flags & OPT_F_IOTRIAL));
}

TEST(kb_base_applies_to_later_values)
{
	struct job j;
	struct err e;

	CHECK(!set1(&j, "bs", "4k", &e));
	CHECK(!opt_set(&j, "kb_base", "1000", W, &e));
	CHECK_EQ_U(j.bs[0], 4096);
	CHECK(!opt_set(&j, "bs", "4k", W, &e));
	CHECK_EQ_U(j.bs[0], 4000);
	CHECK(!opt_set(&j, "size", "1MiB", W, &e));
	CHECK_EQ_U(j.size, 1048576);
	CHECK(!opt_set(&j, "rate_iops", "1k", W, &e));
	CHECK_EQ_U(j.rate_iops[0], 1000);
	job_free(&j);
}

TEST(defaults)
{
	struct job j;
	unsigned d;

	job_init(&j);
	for (d = 0; d < DDIR_NR; d++) {
		CHECK_EQ_U(j.bs[d], 4096);
		CHECK_EQ_U(j.percentage_random[d], 100);
		CHECK_EQ_U(j.rate[d], 0);
	}
	CHECK_EQ_U(j.rw, RW_READ);
	CHECK_EQ_U(j.iodepth, 1);
	CHECK_STR(j.ioengine, "psync");
	CHECK_EQ_U(j.rwmixread, 50);
	CHECK_EQ_U(j.loops, 1);
	CHECK_EQ_U(j.numjobs, 1);
	CHECK_EQ_U(j.randrepeat, 1);
	CHECK_EQ_U(j.clat_percentiles, 1);
	CHECK_EQ_U(j.lat_percentiles, 0);
	CHECK_EQ_U(j.percentile_nr, 17);
	CHECK_NEAR(j.percentile_list[0], 1, 0);
	CHECK_NEAR(j.percentile_list[13], 99.5, 0);
	CHECK_NEAR(j.percentile_list[16], 99.99, 0);
	CHECK_EQ_U(j.kb_base, 1024);
	CHECK_EQ_U(j.per_job_logs, 1);
	CHECK_EQ_U(j.allow_file_create, 1);
	CHECK_EQ_U(j.invalidate, 1);
	CHECK_EQ_U(j.nrfiles, 1);
	CHECK_EQ_U(j.interval_us, 1000000);
	CHECK(j.sqthread_poll_cpu == -1);
	CHECK_EQ_U(j.ss_metric, SS_NONE);
	CHECK_NEAR(j.ss_limit, 0.01, 0);
	CHECK_EQ_U(j.ss_pct, 1);
	CHECK_EQ_U(j.iodepth_batch_submit, 1);
	CHECK_EQ_U(j.iodepth_batch_complete_min, 1);
	CHECK_EQ_U(j.direct, 0);
	CHECK_EQ_U(j.sync, SYNC_NONE);
	CHECK_EQ_U(j.clocksource, CLOCK_MODE_AUTO);
	CHECK(j.filename == NULL && j.opts_nr == 0 && j.size == 0);
	/* resolved view of the defaults */
	CHECK_STR(resolved(&j, "bs"), "4096");
	CHECK_STR(resolved(&j, "rw"), "read");
	CHECK_STR(resolved(&j, "percentile_list"),
		  "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99");
	CHECK_STR(resolved(&j, "filename"), "<unset>");
	CHECK_STR(resolved(&j, "buffered"), "<unset>");
	CHECK_STR(resolved(&j, "rwmixwrite"), "<unset>");
	CHECK_STR(resolved(&j, "steadystate"), "<unset>");
	CHECK_STR(resolved(&j, "clocksource"), "<unset>");
	/* steady state: SNIA PTS's numbers, reported by SNIA, no stop rule */
	CHECK_EQ_U(j.steady_report, SS_REPORT_AUTO);
	CHECK_EQ_U(j.snia_window, 5);
	CHECK_NEAR(j.snia_range_pct, 20, 0);
	CHECK_NEAR(j.snia_slope_pct, 10, 0);
	CHECK_EQ_U(j.snia_round_us, 0);
	CHECK_EQ_U(j.snia_metric, SNIA_METRIC_IOPS);
	CHECK_EQ_U(j.snia_stop, 0);
	CHECK_STR(resolved(&j, "steady_report"), "snia");
	CHECK_STR(resolved(&j, "snia_window"), "5");
	CHECK_STR(resolved(&j, "snia_range"), "20");
	CHECK_STR(resolved(&j, "snia_slope"), "10");
	CHECK_STR(resolved(&j, "snia_round"), "0");
	CHECK_STR(resolved(&j, "snia_metric"), "iops");
	CHECK_STR(resolved(&j, "snia_stop"), "0");
	CHECK_STR(resolved(&j, "unified_rw_reporting"), "none");
	job_free(&j);
}

/* steady_report's default follows the job: fio's rule when it has ss_dur. */
TEST(steady_report_default)
{
	struct job j;
	struct err e;

	CHECK(!set1(&j, "ss", "iops:5%", &e));
	CHECK_STR(resolved(&j, "steady_report"), "snia");	/* fio ignores ss= without ss_dur */
	CHECK(!opt_set(&j, "ss_dur", "10", W, &e));
	CHECK_STR(resolved(&j, "steady_report"), "fio");
	CHECK(!opt_set(&j, "steady_report", "snia", W, &e));
	CHECK_STR(resolved(&j, "steady_report"), "snia");
	CHECK(!opt_set(&j, "steady_report", "none", W, &e));
	CHECK_STR(resolved(&j, "steady_report"), "none");
	job_free(&j);
}

TEST(copy_is_deep)
{
	struct job a, b;
	struct err e;

	CHECK(!set1(&a, "filename", "/tmp/f", &e));
	CHECK(!opt_set(&a, "write_lat_log", "lat", W, &e));
	CHECK(!job_copy(&b, &a));
	CHECK(b.filename != a.filename);
	CHECK_STR(b.filename, "/tmp/f");
	CHECK_STR(b.write_lat_log, "lat");
	CHECK_EQ_U(b.opts_nr, 2);
	CHECK(b.opts != a.opts);
	CHECK_STR(b.opts[1].val, "lat");
	job_free(&a);
	CHECK_STR(b.filename, "/tmp/f");
	job_kv_clear(&b);
	CHECK(b.opts == NULL && b.opts_nr == 0);
	job_free(&b);
	CHECK_STR(ddir_name(DDIR_READ), "read");
	CHECK_STR(ddir_name(DDIR_WRITE), "write");
	CHECK_STR(ddir_name(DDIR_TRIM), "trim");
}

/* @name=@val must fail with exactly @msg. */
static int fails_with(const char *name, const char *val, const char *msg)
{
	struct job j;
	struct err e;
	int ret = set1(&j, name, val, &e), ok;

	ok = ret == -EINVAL && e.exit_code == EXIT_USAGE && !strcmp(e.msg, msg);
	if (!ok)
		printf("  %s=%s: got %d \"%s\"\n", name, val ? val : "(bare)", ret, e.msg);
	/* nothing recorded */
	ok = ok && j.opts_nr == 0;
	job_free(&j);
	return ok;
}

/* @name=@val must fail with a message containing @part. */
static int fails_like(const char *name, const char *val, const char *part)
{
	struct job j;
	struct err e;
	int ret = set1(&j, name, val, &e), ok;

	ok = ret < 0 && e.exit_code == EXIT_USAGE && strstr(e.msg, part) && strstr(e.msg, "(" W ")");
	if (!ok)
		printf("  %s=%s: got %d \"%s\"\n", name, val ? val : "(bare)", ret, e.msg);
	job_free(&j);
	return ok;
}

TEST(unknown_and_unsupported)
{
	CHECK(fails_with("xyz", "1", "unknown option 'xyz' (" W ")"));
	CHECK(fails_with("iodpeth", "1", "unknown option 'iodpeth' (did you mean 'iodepth'?) (" W ")"));
	CHECK(fails_with("verify", "crc7", "unsupported value 'crc7' for option 'verify': supported: md5, "
			 "crc32c, crc32, crc64, sha1, sha256, sha512, xxhash, meta, pattern, 0/none (" W ")"));
	CHECK(fails_with("verify_write_sequence", "0", "unsupported option 'verify_write_sequence': "
			 "not supported (verify= checks every block after the writes) (" W ")"));
	CHECK(fails_with("ioscheduler", "deadline", "unsupported option 'ioscheduler': set "
			 "/sys/block/DEV/queue/scheduler before the run (the JSON records it) (" W ")"));
	CHECK(fails_with("pingpong", "1", "unsupported option 'pingpong' (" W ")"));
	CHECK(fails_with("zonemode", "zbd", "unsupported value 'zbd' for option 'zonemode': zoned block "
			 "devices are not supported (none or strided) (" W ")"));
	CHECK(fails_with("gtod_reduce", NULL, "option 'gtod_reduce' requires an argument (" W ")"));
	CHECK(fails_like("nice", "20", "-20..19"));
	CHECK(fails_like("thinktime_blocks", "0", "below the minimum 1"));
	CHECK(fails_like("io_submit_mode", "sideways", "not one of"));
	CHECK(fails_like("continue_on_error", "sometimes", "not one of none, read, write"));
	CHECK(fails_like("latency_percentile", "100.5", "a percentile is 0..100"));
	CHECK(fails_like("latency_percentile", "99:50", "one percentile only"));
	CHECK(fails_like("latency_target", "5x", "latency_target"));
	CHECK(fails_like("ignore_error", "EIO,ENOPE", "not an errno name"));
	CHECK(fails_like("nice", "x", "not an integer"));
	CHECK(fails_like("cpumask", "0", "no CPU"));
	CHECK(fails_with("direct", NULL, "option 'direct' requires an argument (" W ")"));
	CHECK(fails_with("size", "", "option 'size' requires an argument (" W ")"));
	CHECK(fails_with("ioengine", "rados", "unsupported engine 'rados' (" W ")"));
	CHECK(fails_with("ioengine", "libaio2", "unknown engine 'libaio2' (did you mean 'libaio'?) (" W ")"));
	CHECK(fails_with("ioengine", "uring", "unknown engine 'uring' (did you mean 'io_uring'?) (" W ")"));
	CHECK(fails_with("ioengine", "psnyc", "unknown engine 'psnyc' (did you mean 'psync'?) (" W ")"));
	CHECK(fails_with("ioengine", "foo", "unknown engine 'foo' (" W ")"));
	CHECK(fails_with("ioengine", "external:/x.so", "unsupported engine 'external:/x.so' (" W ")"));
	CHECK(fails_with("random_distribution", "zoned_abs:60/10g:40/90g",
			 "unsupported value 'zoned_abs:60/10g:40/90g' for option 'random_distribution': "
			 "zoned_abs and sequence distributions (" W ")"));
	CHECK(fails_like("random_distribution", "zoned:60/10:30/", "not 100% each"));
	CHECK(fails_like("random_distribution", "zoned:60/10:40", "access%/size%"));
	CHECK(fails_like("random_distribution", "zoned:60/:40/", "only one zone"));
	CHECK(fails_like("rw", "randread:-8k", "a negative modifier needs sequential I/O"));
	CHECK(fails_like("steadystate", "lat:5%", "unsupported value"));
	CHECK(fails_like("random_distribution", "zipf:1.2:0.25", "unsupported value"));
	CHECK(fails_like("random_distribution", "zipf:1.2,pareto:0.5", "unsupported value"));
	/* every fio option that is not supported is refused, not unknown */
	CHECK(opt_find("replay_redirect") && opt_find("replay_redirect")->type == OPT_UNSUPPORTED);
	CHECK(opt_find("iomem") && opt_find("iomem")->type == OPT_UNSUPPORTED);
	CHECK(opt_find("readwrite") == opt_find("rw"));
	CHECK(opt_find("nope") == NULL);
}

TEST(bad_values)
{
	CHECK(fails_like("direct", "2", "a boolean is 0 or 1"));
	CHECK(fails_like("direct", "yes", "a boolean is 0 or 1"));
	CHECK(fails_like("time_based", "2", "a boolean is 0 or 1"));
	CHECK(fails_like("bs", "0", "below the minimum 1"));
	CHECK(fails_like("bs", "4k,0", "below the minimum 1"));
	CHECK(fails_like("bs", "-4k", "negative"));
	CHECK(fails_like("bs", "4q", "unexpected 'q' after the number"));
	CHECK(fails_like("bs", "1,2,3,4", "more than three"));
	CHECK(fails_like("iodepth", "0", "below the minimum 1"));
	CHECK(fails_like("iodepth", "65537", "above the maximum 65536"));
	CHECK(fails_like("numjobs", "0", "below the minimum 1"));
	CHECK(fails_like("numjobs", "4294967296", "above the maximum 4294967295"));
	CHECK(fails_like("nrfiles", "0", "below the minimum"));
	CHECK(fails_like("loops", "0", "below the minimum"));
	CHECK(fails_like("rwmixread", "101", "above the maximum 100"));
	CHECK(fails_like("rwmixwrite", "101", "above the maximum 100"));
	CHECK(fails_like("percentage_random", "101", "above the maximum 100"));
	CHECK(fails_like("size", "99999999999999999999", "too large"));
	CHECK(fails_like("size", "abc", "not a number"));
	CHECK(fails_like("size", "101%", "0..100"));
	CHECK(fails_like("runtime", "1k", "unexpected 'k'"));
	CHECK(fails_like("runtime", "-5", "negative"));
	/* an integer of ms as in fio, which reads "2s" as 2: time units are refused */
	CHECK(fails_like("log_avg_msec", "2s", "unexpected 's'"));
	CHECK(fails_like("log_hist_msec", "1500us", "unexpected 'us'"));
	CHECK(fails_like("log_hist_msec", "2ms", "unknown unit 'ms'"));
	CHECK(fails_like("series_interval", "100us", "below the minimum 1000"));
	CHECK(fails_like("sync", "always", "not one of none, 0, sync, 1, dsync"));
	CHECK(fails_like("kb_base", "1023", "not one of 1024, 1000"));
	CHECK(fails_like("rw", "randwrite:", "empty value"));
	CHECK(fails_like("rw", "scramble", "not one of read"));
	CHECK(fails_like("bsrange", "64k-1k", "reversed"));
	CHECK(fails_like("bsrange", "0-4k", "a block size of 0"));
	CHECK(fails_like("filesize", "4m-1m", "reversed"));
	CHECK(fails_like("bssplit", "4k/50:8k/60", "above 100%"));
	CHECK(fails_like("random_distribution", "zipf:1", "not 1"));
	CHECK(fails_like("random_distribution", "zipf", "needs a parameter"));
	CHECK(fails_like("random_distribution", "pareto:1.5", "between 0 and 1"));
	CHECK(fails_like("random_distribution", "normal:101", "0..100"));
	CHECK(fails_like("random_distribution", "gauss:1", "not one of random"));
	CHECK(fails_like("random_distribution", "random:1", "no parameter"));
	CHECK(fails_like("steadystate", "iops", "needs a limit"));
	CHECK(fails_like("steadystate", "speed:1", "not one of iops"));
	CHECK(fails_like("steadystate", "iops:x%", "not a number"));
	CHECK(fails_like("percentile_list", "0:50", "above 0"));
	CHECK(fails_like("percentile_list", "50:100.5", "at most 100"));
	CHECK(fails_like("percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21",
			 "more than 20"));
	CHECK(fails_like("cpus_allowed", "3-1", "reversed"));
	CHECK(fails_like("cpus_allowed", "99999", "CPU numbers go up to"));
	CHECK(fails_like("cpus_allowed", "a", "not a number"));
	CHECK(fails_like("sqthread_poll_cpu", "-1", "negative"));
	CHECK(fails_like("unified_rw_reporting", "3", "not one of none, 0, mixed, 1, both, 2"));
	CHECK(fails_like("steady_report", "auto", "not one of snia, fio, none"));
	CHECK(fails_like("snia_window", "1", "below the minimum 2"));
	CHECK(fails_like("snia_range", "0", "above 0 and at most 100"));
	CHECK(fails_like("snia_range", "100.5%", "above 0 and at most 100"));
	CHECK(fails_like("snia_slope", "-5", "above 0 and at most 100"));
	CHECK(fails_like("snia_slope", "-5", "'-5'"));
	CHECK(fails_like("snia_slope", "%", "not a number"));
	CHECK(fails_like("snia_slope", "5%%%", "not a number"));
	CHECK(fails_like("snia_round", "1.5", "fractional"));
	CHECK(fails_like("snia_round", "2min", "unknown unit"));
	CHECK(fails_like("snia_metric", "p99", "not one of iops, bw, lat"));
	CHECK(fails_like("snia_stop", "yes", "a boolean is 0 or 1"));
	CHECK(fails_like("name", "", "requires an argument"));
	{
		char longname[400];

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		CHECK(fails_like("name", longname, "longer than 255"));
	}
}

TEST(failure_leaves_job_unchanged)
{
	struct job j;
	struct err e;

	CHECK(!set1(&j, "bs", "8k", &e));
	CHECK(opt_set(&j, "bs", "16k,zz", W, &e) == -EINVAL);
	CHECK_EQ_U(j.bs[0], 8192);
	CHECK_EQ_U(j.bs[1], 8192);
	CHECK_EQ_U(j.opts_nr, 1);
	err_clear(&e);
	CHECK(opt_set(&j, "bssplit", "4k/50,8k/20", W, &e) == -EINVAL);
	CHECK_EQ_U(j.bssplit_nr[0], 0);
	err_clear(&e);
	CHECK(opt_set(&j, "percentile_list", "50:0", W, &e) == -EINVAL);
	CHECK_EQ_U(j.percentile_nr, 17);
	err_clear(&e);
	CHECK(opt_set(&j, "cpus_allowed", "0,99999", W, &e) == -ERANGE);
	CHECK(!j.cpus_allowed_set);
	job_free(&j);
}

/* A default job with the null engine passes validation and gets its fix-ups. */
static void valid_job(struct job *j)
{
	struct err e = { 0 };

	job_init(j);
	snprintf(j->name, sizeof(j->name), "v");
	snprintf(j->origin, sizeof(j->origin), "v.fio:7");
	CHECK(!opt_set(j, "ioengine", "null", W, &e));
}

static int invalid(struct job *j, const char *part)
{
	struct err e = { 0 };
	int ret = opt_job_validate(j, &e), ok;

	ok = ret < 0 && e.exit_code == EXIT_USAGE && strstr(e.msg, part) &&
	     strstr(e.msg, "job 'v'") && strstr(e.msg, "v.fio:7");
	if (!ok)
		printf("  validate: got %d \"%s\"\n", ret, e.msg);
	job_free(j);
	return ok;
}

TEST(validate)
{
	struct job j;
	struct err e = { 0 };

	valid_job(&j);
	CHECK(!opt_set(&j, "bs", "8k,16k", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	CHECK_EQ_U(j.bs_min[0], 8192);
	CHECK_EQ_U(j.bs_max[0], 8192);
	CHECK_EQ_U(j.bs_min[2], 16384);
	CHECK_STR(resolved(&j, "bsrange"), "<unset>");
	job_free(&j);

	job_init(&j);
	snprintf(j.name, sizeof(j.name), "v");
	snprintf(j.origin, sizeof(j.origin), "v.fio:7");
	free(j.ioengine);
	j.ioengine = strdup("rados");	/* a fio engine iotrial does not have */
	CHECK(invalid(&j, "unsupported engine 'rados' (job 'v', v.fio:7)"));

	valid_job(&j);
	CHECK(!opt_set(&j, "iodepth", "4", W, &e));
	CHECK(!opt_set(&j, "iodepth_batch", "16", W, &e));
	CHECK(!opt_set(&j, "iodepth_low", "8", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	CHECK_EQ_U(j.iodepth_batch_submit, 4);
	CHECK_EQ_U(j.iodepth_low, 4);
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "iodepth", "16", W, &e));
	CHECK(!opt_set(&j, "iodepth_batch_complete_min", "8", W, &e));
	CHECK(!opt_set(&j, "iodepth_batch_complete_max", "4", W, &e));
	CHECK(invalid(&j, "iodepth_batch_complete_min 8 is above iodepth_batch_complete_max 4"));

	valid_job(&j);
	CHECK(!opt_set(&j, "rate", "1m", W, &e));
	CHECK(!opt_set(&j, "rate_iops", ",100", W, &e));
	CHECK(invalid(&j, "rate and rate_iops are both set for write"));

	valid_job(&j);
	CHECK(!opt_set(&j, "size", "1m", W, &e));
	CHECK(!opt_set(&j, "offset", "1m", W, &e));
	CHECK(!opt_job_validate(&j, &e));	/* I/O goes to [1m, 2m), as in fio */
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "size", "1m", W, &e));
	CHECK(!opt_set(&j, "offset", "512k", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "size", "60%", W, &e));
	CHECK(!opt_set(&j, "offset", "50%", W, &e));
	CHECK(invalid(&j, "above 100%"));

	valid_job(&j);
	j.bs_min[1] = 8192;
	j.bs_max[1] = 4096;
	CHECK(invalid(&j, "bsrange for write is 8192-4096"));

	valid_job(&j);
	j.bs[2] = 0;
	CHECK(invalid(&j, "bs for trim is 0"));

	valid_job(&j);
	j.percentile_list[3] = 0;
	CHECK(invalid(&j, "percentile 0 is outside (0,100]"));

	valid_job(&j);
	j.iodepth = 0;
	CHECK(invalid(&j, "iodepth 0 is outside 1..65536"));

	valid_job(&j);
	j.numjobs = 0;
	CHECK(invalid(&j, "numjobs is 0"));

	/* ss_dur alone turns on fio's default criterion; bare logs take the job name */
	valid_job(&j);
	CHECK(!opt_set(&j, "ss_dur", "30s", W, &e));
	CHECK(!opt_set(&j, "write_iops_log", NULL, W, &e));
	CHECK(!opt_job_validate(&j, &e));
	CHECK_EQ_U(j.ss_metric, SS_IOPS_SLOPE);
	CHECK_NEAR(j.ss_limit, 0.01, 0);
	CHECK(j.ss_pct);
	CHECK_STR(j.write_iops_log, "v");
	CHECK_STR(resolved(&j, "steadystate"), "iops_slope:0.01%");
	job_free(&j);

	/* steady state: the rules must build before any I/O */
	valid_job(&j);
	CHECK(!opt_set(&j, "snia_round", "1500ms", W, &e));
	CHECK(invalid(&j, "snia_round 1500000us is not a multiple of series_interval 1000000us"));

	valid_job(&j);
	CHECK(!opt_set(&j, "series_interval", "250ms", W, &e));
	CHECK(!opt_set(&j, "snia_round", "1500ms", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "steady_report", "fio", W, &e));
	CHECK(invalid(&j, "steady_report=fio needs fio's rule: steadystate_duration (ss_dur) is not set"));

	valid_job(&j);
	CHECK(!opt_set(&j, "ss", "iops:5%", W, &e));
	CHECK(!opt_set(&j, "steady_report", "fio", W, &e));
	CHECK(invalid(&j, "steady_report=fio needs fio's rule"));

	valid_job(&j);
	CHECK(!opt_set(&j, "ss_dur", "5", W, &e));
	CHECK(!opt_set(&j, "snia_stop", "1", W, &e));
	CHECK(invalid(&j, "snia_stop=1 and fio's ss= (steadystate_duration) are both stop rules"));

	valid_job(&j);
	CHECK(!opt_set(&j, "ss_dur", "5", W, &e));
	CHECK(!opt_set(&j, "series_interval", "300ms", W, &e));
	CHECK(invalid(&j, "series_interval 300000us does not divide one second"));

	/* both rules at once: fio's stops the job, SNIA's finds the reported window */
	valid_job(&j);
	CHECK(!opt_set(&j, "ss", "iops:5%", W, &e));
	CHECK(!opt_set(&j, "ss_dur", "5", W, &e));
	CHECK(!opt_set(&j, "steady_report", "snia", W, &e));
	CHECK(!opt_set(&j, "series_interval", "500ms", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	job_free(&j);
}

/* An engine's own options are refused under another engine, by name. */
TEST(engine_options_owned)
{
	static const struct { const char *opt, *val, *eng; int ok; } c[] = {
		{ "fixedbufs", NULL, "psync", 0 },
		{ "sqthread_poll", "1", "libaio", 0 },
		{ "registerfiles", NULL, "sync", 0 },
		{ "sqthread_poll_cpu", "0", "psync", 0 },
		{ "nonvectored", "1", "null", 0 },
		{ "hipri", NULL, "psync", 0 },
		{ "fixedbufs", "0", "psync", 1 },	/* the default is no use of it */
		{ "fixedbufs", NULL, "io_uring", 1 },
		{ "hipri", NULL, "io_uring", 1 },
		{ "hipri", NULL, "pvsync2", 1 },
	};
	struct job j;
	struct err e;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char want[200];

		CHECK(set1(&j, c[i].opt, c[i].val, &e) == 0);
		CHECK(opt_set(&j, "name", "x", W, &e) == 0);
		CHECK(opt_set(&j, "ioengine", c[i].eng, W, &e) == 0);
		snprintf(j.origin, sizeof(j.origin), "%s", W);
		err_clear(&e);
		ret = opt_job_validate(&j, &e);
		if (c[i].ok) {
			CHECK(ret == 0);
		} else {
			snprintf(want, sizeof(want), "option '%s' belongs to ioengine", c[i].opt);
			CHECK(ret == -EINVAL && strstr(e.msg, want) && strstr(e.msg, c[i].eng) &&
			      strstr(e.msg, "job 'x'"));
			if (!(ret == -EINVAL && strstr(e.msg, want)))
				printf("  %s under %s: %d \"%s\"\n", c[i].opt, c[i].eng, ret, e.msg);
		}
		job_free(&j);
	}
}

/*
 * Every engine an option row says it belongs to (.engines, a blank-separated
 * list) is in the registry: a misspelt or removed engine would leave the
 * option refused under every engine, silently.
 */
TEST(engine_names_registered)
{
	size_t n, i, owned = 0;
	const struct opt_def *t = opt_table(&n);

	for (i = 0; i < n; i++) {
		char buf[256], *w, *save = NULL;

		if (!t[i].engines)
			continue;
		owned++;
		CHECK(strlen(t[i].engines) < sizeof(buf));
		snprintf(buf, sizeof(buf), "%s", t[i].engines);
		for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			/* or an engine this build left out (rbd without librbd) */
			int known = engine_find(w) || engine_absent_reason(w);

			CHECK(known);
			if (!known)
				printf("  option '%s': engine '%s' is not registered\n", t[i].name, w);
		}
	}
	CHECK(owned >= 15);	/* io_uring's, cmdprio's, cpuio's, exec's, ... */
}

/*
 * An engine option inherited (a [global] with ioengine=e4defrag and
 * donorname) is dropped when the job switches engine, as fio 3.33 does; the
 * same option set by the job itself under libaio is refused.
 */
TEST(engine_options_inherited_dropped)
{
	struct job g, j;
	struct err e;
	char *line = NULL;

	job_init(&g);
	CHECK(opt_set(&g, "ioengine", "e4defrag", W, &e) == 0);
	CHECK(opt_set(&g, "donorname", "d.def", W, &e) == 0);
	CHECK(opt_engine_owned_check(&g, &e) == 0);
	CHECK(job_copy(&j, &g) == 0);
	job_kv_clear(&j);		/* the job's own options start empty, as jobfile.c does */
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "libaio", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == 0);
	CHECK(j.eng.donorname[0] == '\0');
	CHECK(opt_job_cmdline(&j, &line) == 0);
	CHECK(strstr(line, "donorname") == NULL);
	free(line);
	job_free(&j);
	/* set by the job itself: refused, naming it */
	CHECK(job_copy(&j, &g) == 0);
	job_kv_clear(&j);
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	CHECK(opt_set(&j, "donorname", "d.def", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "libaio", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "option 'donorname' belongs to ioengine e4defrag, not libaio") != NULL);
	job_free(&j);
	/* a global of another engine: refused under the name 'global' */
	job_free(&g);
	job_init(&g);
	CHECK(opt_set(&g, "donorname", "d.def", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_engine_owned_check(&g, &e) == -EINVAL);
	CHECK(strstr(e.msg, "job 'global'") != NULL && strstr(e.msg, "not psync") != NULL);
	job_free(&g);
}

/*
 * rbd's options: refused under another engine by name; under rbd, pool= and
 * rbdname= are required and clustername= needs clientname=.  The engine
 * itself is either built in (librbd found) or refused naming the library.
 */
TEST(rbd_options)
{
	struct job j;
	struct err e = { 0 };
	int built = engine_find("rbd") != NULL;

	CHECK(built != (engine_absent_reason("rbd") != NULL));
	CHECK(engine_absent_reason("libaio") == NULL && engine_absent_reason("rados") == NULL);
	job_init(&j);
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	CHECK(opt_set(&j, "pool", "rbd", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "libaio", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "option 'pool' belongs to ioengine rbd, not libaio") != NULL);
	job_free(&j);
	job_init(&j);
	err_clear(&e);
	CHECK(opt_set(&j, "busy_poll", "2", W, &e) == -EINVAL);
	CHECK(strstr(e.msg, "invalid value '2' for option 'busy_poll'") != NULL);
	err_clear(&e);
	CHECK(opt_set(&j, "rbdname", "", W, &e) == -EINVAL);
	job_free(&j);
	job_init(&j);
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	err_clear(&e);
	if (!built) {
		CHECK(opt_set(&j, "ioengine", "rbd", W, &e) == -EINVAL);
		CHECK(strstr(e.msg, "unsupported engine 'rbd': this build has no librbd") != NULL);
		job_free(&j);
		return;
	}
	CHECK(opt_set(&j, "ioengine", "rbd", W, &e) == 0);
	CHECK(opt_set(&j, "pool", "rbd", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "ioengine rbd needs rbdname=") != NULL);
	CHECK(opt_set(&j, "rbdname", "img", W, &e) == 0);
	CHECK(opt_set(&j, "clustername", "ceph", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "clustername= needs clientname=") != NULL);
	CHECK(opt_set(&j, "clientname", "admin", W, &e) == 0);
	CHECK(opt_set(&j, "busy_poll", "1", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == 0);
	CHECK(j.eng.rbd_busy_poll == 1 && !strcmp(j.eng.rbd_pool, "rbd") &&
	      !strcmp(j.eng.rbd_name, "img") && !strcmp(j.eng.rbd_clientname, "admin"));
	job_free(&j);
}

/* "%%" reads as "%" in values (fio 3.33); strings keep their text. */
TEST(double_percent)
{
	struct job j;
	struct err e;

	CHECK(set1(&j, "size", "100%%", &e) == 0);
	CHECK_STR(resolved(&j, "size"), "100%");
	CHECK_STR(j.opts[0].val, "100%%");	/* echoed as typed, as fio does */
	job_free(&j);
	CHECK(set1(&j, "steadystate", "iops:20%%", &e) == 0);
	CHECK_STR(resolved(&j, "steadystate"), "iops:20%");
	job_free(&j);
	CHECK(set1(&j, "description", "a%%b", &e) == 0);
	CHECK_STR(resolved(&j, "description"), "a%%b");
	job_free(&j);
	CHECK(set1(&j, "offset", "0%", &e) == 0);
	CHECK_STR(resolved(&j, "offset"), "0");
	job_free(&j);
}

TEST(resolved_list)
{
	struct job j;
	struct err e = { 0 };
	struct job_kv *kv;
	size_t nr, i, tnr, listed = 0;
	const struct opt_def *t = opt_table(&tnr);

	job_init(&j);
	CHECK(!opt_job_resolved(&j, &kv, &nr));
	for (i = 0; i < tnr; i++)
		if (t[i].type != OPT_UNSUPPORTED && !(t[i].flags & OPT_F_NOSHOW))
			listed++;
	/* unset at default: description, filename, directory, randseed, sqthread_poll_cpu,
	 * cpus_allowed, bsrange, bssplit, clocksource, steadystate, 4 logs, buffer_pattern,
	 * verify_pattern, wait_for, program, arguments, donorname, ignore_error,
	 * cmdprio_bssplit, prio, prioclass, filename_format, numa_cpu_nodes,
	 * numa_mem_policy, rbd's clustername, rbdname, pool, clientname, write_iolog,
	 * read_iolog, allrandrepeat */
	CHECK_EQ_U(nr, listed - 34);
	CHECK_STR(kv[0].key, "name");
	for (i = 0; i < nr; i++)
		CHECK(strcmp(kv[i].key, "buffered") && strcmp(kv[i].key, "rwmixwrite"));
	opt_kv_free(kv, nr);
	CHECK(!opt_set(&j, "runtime", "1h", W, &e));
	CHECK_STR(resolved(&j, "runtime"), "3600000000");
	job_free(&j);
}

TEST(cmdline_of_job)
{
	struct job j;
	struct err e = { 0 };
	char *line;

	job_init(&j);
	CHECK(!opt_set(&j, "name", "randrw", W, &e));
	CHECK(!opt_set(&j, "rw", "randrw", W, &e));
	CHECK(!opt_set(&j, "bs", "4k", W, &e));
	CHECK(!opt_set(&j, "iodepth", "32", W, &e));
	CHECK(!opt_set(&j, "size", "10G", W, &e));
	CHECK(!opt_set(&j, "numjobs", "4", W, &e));
	CHECK(!opt_set(&j, "runtime", "600", W, &e));
	CHECK(!opt_set(&j, "time_based", NULL, W, &e));
	CHECK(!opt_set(&j, "description", "it's a test", W, &e));
	CHECK(!opt_job_cmdline(&j, &line));
	CHECK_STR(line, "--name=randrw --description='it'\\''s a test' --size=10737418240 "
			"--rw=randrw --iodepth=32 --runtime=600000000us --time_based --numjobs=4");
	free(line);
	job_free(&j);
}

TEST(cmdhelp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		SKIP("open_memstream failed");
	CHECK(!opt_cmdhelp(f, "bs"));
	CHECK(!opt_cmdhelp(f, "ss"));
	CHECK(!opt_cmdhelp(f, "sync"));
	CHECK(!opt_cmdhelp(f, "ioscheduler"));
	CHECK(!opt_cmdhelp(f, "fixedbufs"));
	CHECK(opt_cmdhelp(f, "nope") == -ENOENT);
	fclose(f);
	CHECK(strstr(buf, "bs: block size") != NULL);
	CHECK(strstr(buf, "alias:   blocksize") != NULL);
	CHECK(strstr(buf, "default: 4096") != NULL);
	CHECK(strstr(buf, "steadystate: ") != NULL);
	CHECK(strstr(buf, "values:  none 0 sync 1 dsync") != NULL);
	CHECK(strstr(buf, "ioscheduler: a fio option that iotrial does not support (refused): set /sys") != NULL);
	CHECK(strstr(buf, "engines: io_uring (refused under any other)") != NULL);
	free(buf);
	/* ioengine lists every engine of the registry, from the registry */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(!opt_cmdhelp(f, "ioengine"));
	fclose(f);
	CHECK(strstr(buf, "type:    one of the values below") != NULL);
	{
		const struct engine_ops *const *l = engine_list();
		char want[64];

		CHECK(l[0] != NULL);
		for (size_t i = 0; l[i]; i++) {
			snprintf(want, sizeof(want), " %s", l[i]->name);
			CHECK(strstr(strstr(buf, "values: ") ? strstr(buf, "values: ") : "", want));
			CHECK_STR(engine_name_at(i), l[i]->name);
		}
	}
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(!opt_cmdhelp(f, NULL));
	fclose(f);
	CHECK(strstr(buf, "\niodepth ") != NULL);
	CHECK(strstr(buf, "\nioscheduler ") == NULL);
	CHECK(strstr(buf, "further fio options are recognised") != NULL);
	free(buf);
}

int main(void)
{
	RUN(every_option_sets_its_value);
	RUN(every_supported_option_has_a_case);
	RUN(table_integrity);
	RUN(fields);
	RUN(iotrial_flag);
	RUN(kb_base_applies_to_later_values);
	RUN(defaults);
	RUN(steady_report_default);
	RUN(copy_is_deep);
	RUN(unknown_and_unsupported);
	RUN(bad_values);
	RUN(failure_leaves_job_unchanged);
	RUN(validate);
	RUN(engine_options_owned);
	RUN(engine_names_registered);
	RUN(engine_options_inherited_dropped);
	RUN(rbd_options);
	RUN(double_percent);
	RUN(resolved_list);
	RUN(cmdline_of_job);
	RUN(cmdhelp);
	return CHECK_DONE();
}
