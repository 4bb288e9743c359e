/*
 * Unit tests for the option table: every option sets its value, defaults,
 * the table's integrity (test_opt_errors.c: what it refuses; test_opt_show.c:
 * how options are written back).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "io/engine.h"	/* engine_opt_owner: an engine's option is set under that engine */
#include "parse/opt.h"
#include "opt_fixture.h"	/* W, fixture_resolved, fixture_set1 */

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
	{ "force_async", "4", "force_async", "4" },
	{ "ioscheduler", "mq-deadline", "ioscheduler", "mq-deadline" },
	{ "md_per_io_size", "4k", "md_per_io_size", "4096" },
	{ "pi_act", "0", "pi_act", "0" },
	{ "pi_chk", "APPTAG,GUARD", "pi_chk", "GUARD,APPTAG" },
	{ "apptag", "0x10", "apptag", "16" },
	{ "apptag_mask", "0xff", "apptag_mask", "255" },
	{ "write_mode", "zone_append", "write_mode", "zone_append" },
	{ "runtime", "10m", "runtime", "600000000" },
	{ "timeout", "90", "runtime", "90000000" },
	{ "time_based", NULL, "time_based", "1" },
	{ "ramp_time", "1500ms", "ramp_time", "1500000" },
	{ "startdelay", "2", "startdelay", "2000000" },
	{ "loops", "3", "loops", "3" },
	{ "numjobs", "4", "numjobs", "4" },
	{ "group_reporting", NULL, "group_reporting", "1" },
	{ "significant_figures", "10", "significant_figures", "10" },
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
	/* fio's zone units: kept as the count (zone_units.h resolves the bytes) */
	{ "size", "4z", "size", "4z" },
	{ "io_size", "12z", "io_size", "12z" },
	{ "offset", "2z", "offset", "2z" },
	{ "offset_increment", "1z", "offset_increment", "1z" },
	{ "zoneskip", "3z", "zoneskip", "3z" },
	{ "io_size", "8m", "io_size", "8388608" },
	{ "offset_increment", "1m", "offset_increment", "1048576" },
	{ "zonecapacity", "768k", "zonecapacity", "786432" },
	{ "read_beyond_wp", "1", "read_beyond_wp", "1" },
	{ "max_open_zones", "8", "max_open_zones", "8" },
	{ "job_max_open_zones", "2", "job_max_open_zones", "2" },
	{ "ignore_zone_limits", "1", "ignore_zone_limits", "1" },
	{ "zone_reset_threshold", "0.25", "zone_reset_threshold", "0.25" },
	{ "zone_reset_frequency", ".5", "zone_reset_frequency", "0.5" },
	{ "zonemode", "zbd", "zonemode", "zbd" },
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
	{ "cmd_type", "nvme", "nvme" },	/* io_uring_cmd's one value */
};

TEST(every_option_sets_its_value)
{
	struct job j, def;
	struct err e;
	size_t i;
	char before[4096];

	job_init(&def);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct opt_def *o = opt_find(cases[i].name);
		/* an option whose value is in the engine area is its engine's: set under it */
		const struct engine_ops *own = o && engine_opt_in_area(o) ? engine_opt_owner(o, 0) : NULL;
		size_t at = own ? 1 : 0;
		int ret;

		if (own && own->absent) {
			printf("  %s: engine %s is not in this build\n", cases[i].name, own->name);
			continue;
		}
		ret = own ? fixture_set1(&j, "ioengine", own->name, &e) : 0;
		ret = ret ? ret : own ? opt_set(&j, cases[i].name, cases[i].val, W, &e)
				      : fixture_set1(&j, cases[i].name, cases[i].val, &e);
		if (ret) {
			printf("  %s=%s: %s\n", cases[i].name, cases[i].val ? cases[i].val : "(bare)", e.msg);
			CHECK(ret == 0);
			job_free(&j);
			continue;
		}
		CHECK_STR(fixture_resolved(&j, cases[i].key), cases[i].want);
		snprintf(before, sizeof(before), "%s", fixture_resolved(&def, cases[i].key));
		if (!strcmp(before, cases[i].want))
			printf("  %s: the case does not change the default\n", cases[i].name);
		CHECK(strcmp(before, cases[i].want) != 0);
		/* the pair is recorded as typed */
		CHECK_EQ_U(j.opts_nr, at + 1);
		/* under its canonical name, as fio's "job options" */
		CHECK_STR(j.opts[at].key, o->name);
		CHECK(cases[i].val ? j.opts[at].val && !strcmp(j.opts[at].val, cases[i].val)
				   : j.opts[at].val == NULL);
		job_free(&j);
	}
	for (i = 0; i < sizeof(default_only) / sizeof(default_only[0]); i++) {
		CHECK(fixture_set1(&j, default_only[i].name, default_only[i].val, &e) == 0);
		CHECK_STR(fixture_resolved(&j, default_only[i].name), default_only[i].want);
		CHECK_EQ_U(j.opts_nr, 1);
		job_free(&j);
	}
	job_free(&def);
}

/* Adding an option to the table without a case above fails here. */
TEST(every_supported_option_has_a_case)
{
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	size_t k, a;
	int found;

	while ((o = opt_next(&it)) != NULL) {
		if (o->type == OPT_UNSUPPORTED)
			continue;
		for (a = 0; a < 3; a++) {
			const char *n = a ? o->alias[a - 1] : o->name;

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
	struct opt_iter it = { 0 }, it2;
	const struct opt_def *o, *p;
	size_t nr = 0, a, b;

	while ((o = opt_next(&it)) != NULL) {
		nr++;

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
		for (it2 = it; (p = opt_next(&it2)) != NULL;)
			for (a = 0; a < 3; a++)
				for (b = 0; b < 3; b++) {
					const char *x = a ? o->alias[a - 1] : o->name;
					const char *y = b ? p->alias[b - 1] : p->name;

					if (x && y && !strcmp(x, y)) {
						printf("  '%s' appears twice\n", x);
						CHECK(0);
					}
				}
	}
	CHECK(nr > 300);
}

TEST(fields)
{
	struct job j;
	struct err e;

	CHECK(!fixture_set1(&j, "rw", "randrw", &e));
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

	CHECK(!fixture_set1(&j, "bs", "4k", &e));
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
	CHECK_STR(fixture_resolved(&j, "bs"), "4096");
	CHECK_STR(fixture_resolved(&j, "rw"), "read");
	CHECK_STR(fixture_resolved(&j, "percentile_list"),
		  "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99");
	CHECK_STR(fixture_resolved(&j, "filename"), "<unset>");
	CHECK_STR(fixture_resolved(&j, "buffered"), "<unset>");
	CHECK_STR(fixture_resolved(&j, "rwmixwrite"), "<unset>");
	CHECK_STR(fixture_resolved(&j, "steadystate"), "<unset>");
	CHECK_STR(fixture_resolved(&j, "clocksource"), "<unset>");
	/* steady state: SNIA PTS's numbers, reported by SNIA, no stop rule */
	CHECK_EQ_U(j.steady_report, SS_REPORT_AUTO);
	CHECK_EQ_U(j.snia_window, 5);
	CHECK_NEAR(j.snia_range_pct, 20, 0);
	CHECK_NEAR(j.snia_slope_pct, 10, 0);
	CHECK_EQ_U(j.snia_round_us, 0);
	CHECK_EQ_U(j.snia_metric, SNIA_METRIC_IOPS);
	CHECK_EQ_U(j.snia_stop, 0);
	CHECK_STR(fixture_resolved(&j, "steady_report"), "snia");
	CHECK_STR(fixture_resolved(&j, "snia_window"), "5");
	CHECK_STR(fixture_resolved(&j, "snia_range"), "20");
	CHECK_STR(fixture_resolved(&j, "snia_slope"), "10");
	CHECK_STR(fixture_resolved(&j, "snia_round"), "0");
	CHECK_STR(fixture_resolved(&j, "snia_metric"), "iops");
	CHECK_STR(fixture_resolved(&j, "snia_stop"), "0");
	CHECK_STR(fixture_resolved(&j, "unified_rw_reporting"), "none");
	job_free(&j);
}

/* steady_report's default follows the job: fio's rule when it has ss_dur. */
TEST(steady_report_default)
{
	struct job j;
	struct err e;

	CHECK(!fixture_set1(&j, "ss", "iops:5%", &e));
	CHECK_STR(fixture_resolved(&j, "steady_report"), "snia");	/* fio ignores ss= without ss_dur */
	CHECK(!opt_set(&j, "ss_dur", "10", W, &e));
	CHECK_STR(fixture_resolved(&j, "steady_report"), "fio");
	CHECK(!opt_set(&j, "steady_report", "snia", W, &e));
	CHECK_STR(fixture_resolved(&j, "steady_report"), "snia");
	CHECK(!opt_set(&j, "steady_report", "none", W, &e));
	CHECK_STR(fixture_resolved(&j, "steady_report"), "none");
	job_free(&j);
}

TEST(copy_is_deep)
{
	struct job a, b;
	struct err e;

	CHECK(!fixture_set1(&a, "filename", "/tmp/f", &e));
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

/*
 * An engine's options hold a value only under that engine: before
 * ioengine= they are kept as typed and applied when it comes; under another
 * engine they show their defaults, and a job's own value is refused.
 */
TEST(engine_options_follow_the_engine)
{
	struct job j, k;
	struct err e;

	/* given before ioengine=, applied when it picks the engine */
	CHECK(fixture_set1(&j, "cpuload", "50", &e) == 0);
	CHECK_STR(fixture_resolved(&j, "cpuload"), "0");	/* psync's job: the default */
	CHECK(opt_set(&j, "cpumode", "qsort", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "cpuio", W, &e) == 0);
	CHECK_STR(fixture_resolved(&j, "cpuload"), "50");
	CHECK_STR(fixture_resolved(&j, "cpumode"), "qsort");
	CHECK_STR(fixture_resolved(&j, "cpuchunks"), "50000");	/* cpuio's default */
	/* a bad value is refused at once, whatever the engine */
	CHECK(opt_set(&j, "cpuload", "101", W, &e) == -ERANGE);
	CHECK(opt_set(&j, "program", "", W, &e) == -EINVAL);
	CHECK_STR(fixture_resolved(&j, "cpuload"), "50");
	/* away from cpuio the values go; validation names the one the job set */
	CHECK(opt_set(&j, "ioengine", "psync", W, &e) == 0);
	CHECK_STR(fixture_resolved(&j, "cpuload"), "0");
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "option 'cpuload' belongs to ioengine cpuio, not psync") != NULL);
	job_free(&j);

	/* a copy (a [global]'s job) keeps them under the same engine */
	CHECK(fixture_set1(&j, "ioengine", "exec", &e) == 0);
	CHECK(opt_set(&j, "program", "/bin/true", W, &e) == 0);
	CHECK(opt_set(&j, "grace_time", "2s", W, &e) == 0);
	CHECK(job_copy(&k, &j) == 0);
	job_kv_clear(&k);
	CHECK(opt_set(&k, "ioengine", "exec", W, &e) == 0);
	CHECK_STR(fixture_resolved(&k, "program"), "/bin/true");
	CHECK_STR(fixture_resolved(&k, "grace_time"), "2000000");
	/* and drop them under another: the area holds that engine's defaults */
	CHECK(opt_set(&k, "ioengine", "io_uring", W, &e) == 0);
	CHECK_STR(fixture_resolved(&k, "program"), "<unset>");
	CHECK_STR(fixture_resolved(&k, "grace_time"), "1000000");
	CHECK_STR(fixture_resolved(&k, "sqthread_poll_cpu"), "<unset>");	/* -1 */
	CHECK(opt_set(&k, "sqthread_poll_cpu", "1", W, &e) == 0);
	CHECK_STR(fixture_resolved(&k, "sqthread_poll_cpu"), "1");
	job_free(&k);
	job_free(&j);

	/* engines sharing an options struct keep the values across */
	CHECK(fixture_set1(&j, "ioengine", "filestat", &e) == 0);
	CHECK(opt_set(&j, "stat_type", "lstat", W, &e) == 0);
	CHECK(job_copy(&k, &j) == 0);
	job_kv_clear(&k);
	CHECK(opt_set(&k, "ioengine", "dirstat", W, &e) == 0);
	CHECK_STR(fixture_resolved(&k, "stat_type"), "lstat");
	CHECK(opt_set(&k, "ioengine", "filecreate", W, &e) == 0);
	CHECK_STR(fixture_resolved(&k, "stat_type"), "stat");
	job_free(&k);
	job_free(&j);

	/* the values kept in struct job (hipri: io_uring's and pvsync2's) stay as they were */
	CHECK(fixture_set1(&j, "hipri", NULL, &e) == 0);
	CHECK_STR(fixture_resolved(&j, "hipri"), "1");
	job_free(&j);
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
	RUN(engine_options_follow_the_engine);
	return CHECK_DONE();
}
