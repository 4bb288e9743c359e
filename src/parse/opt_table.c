/*
 * opt_table: the option table (see opt.h): the core's rows, data only, and
 * the walk that puts the engines' rows among them.  The parse/show
 * callbacks of the options whose values are more than a number or a word
 * are in opt_parse.c (and in opt_compat.c, steady/opt_steady.c, and the
 * modules' own files for their options).  The engines' rows are in the
 * engines' files: the table gathers them from the registry (io/engine.h),
 * between its two parts here, so that nothing here names an engine option.
 *
 * Order matters only for --cmdhelp (rows are listed as they appear) and
 * --showcmd (options print in this order).  The end of the second part
 * lists fio 3.33's options (fio --cmdhelp=all, the engines' options from
 * fio --enghelp=NAME, plus later fio options met in fio's own example job
 * files) that iotrial does not implement, so each is refused by name.
 */
#include "parse/opt.h"
#include "parse/opt_parse.h"
#include "steady/opt_steady.h"
#include "parse/opt_compat.h"
#include "io/ioerr.h"
#include "io/cmdprio.h"
#include "io/numa.h"
#include "io/latency_target.h"

#include <errno.h>	/* EINVAL, ERANGE, ENOMEM */
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf, vsnprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strcmp, strchr, strdup */
#include <strings.h>	/* strcasecmp */
#include "io/engine.h"	/* the engines' rows, engine_name_at */
#include "steady/job_steady.h"	/* job_steady_report: steady_report shows its resolved value */

#define F(field) OPT_FIELD(field)
#define FD(field) .off = offsetof(struct job, field), .width = sizeof(((struct job *)0)->field[0])
#define SEC 1000000ull
#define U(n) { .name = n, .type = OPT_UNSUPPORTED }
#define UA(n, a) { .name = n, .alias = { a }, .type = OPT_UNSUPPORTED }
/* refused, with why and the nearest supported option */
#define UH(n, h) { .name = n, .type = OPT_UNSUPPORTED, .help = h }
/*
 * refused, and not on fio 3.33's command line under the engines iotrial runs
 * (a later fio's; an engine's iotrial lacks; or one fio lists under an engine
 * that iotrial runs without it: io_uring's nowait)
 */
#define PROF "a fio profile's option: fio's profiles are not supported (iotrial's are --preset)"
#define DEPR "deprecated in fio, which ignores it"
#define UF(n) { .name = n, .type = OPT_UNSUPPORTED, .flags = OPT_F_FOREIGN }
#define UFH(n, h) { .name = n, .type = OPT_UNSUPPORTED, .flags = OPT_F_FOREIGN, .help = h }

/* ---- choices --------------------------------------------------------- */

/* fio's fallocate= (0 and 1 are its old spellings of none and posix) */
static const struct opt_choice fallocate_choices[] = {
	{ "native", JOB_FALLOC_NATIVE }, { "posix", JOB_FALLOC_POSIX },
	{ "keep", JOB_FALLOC_KEEP }, { "none", JOB_FALLOC_NONE },
	{ "truncate", JOB_FALLOC_TRUNCATE }, { "0", JOB_FALLOC_NONE }, { "1", JOB_FALLOC_POSIX },
	{ NULL, 0 },
};

static const struct opt_choice sync_choices[] = {
	{ "none", SYNC_NONE }, { "0", SYNC_NONE }, { "sync", SYNC_SYNC }, { "1", SYNC_SYNC },
	{ "dsync", SYNC_DSYNC }, { NULL, 0 },
};
static const struct opt_choice policy_choices[] = {
	{ "shared", 0 }, { "split", 1 }, { NULL, 0 },
};
static const struct opt_choice rate_process_choices[] = {
	{ "linear", RATE_LINEAR }, { "poisson", RATE_POISSON }, { NULL, 0 },
};
static const struct opt_choice fadvise_choices[] = {
	{ "0", FADVISE_NONE }, { "1", FADVISE_AUTO }, { "sequential", FADVISE_SEQUENTIAL },
	{ "random", FADVISE_RANDOM }, { NULL, 0 },
};
static const struct opt_choice snia_metric_choices[] = {
	{ "iops", SNIA_METRIC_IOPS }, { "bw", SNIA_METRIC_BW }, { "lat", SNIA_METRIC_LAT },
	{ NULL, 0 },
};
static const struct opt_choice kb_base_choices[] = {
	{ "1024", 1024 }, { "1000", 1000 }, { NULL, 0 },
};
static const struct opt_choice clock_choices[] = {
	{ "clock_gettime", CLOCK_MODE_GETTIME }, { "cpu", CLOCK_MODE_TSC },
	{ "gettimeofday", CLOCK_MODE_GETTIMEOFDAY }, { NULL, 0 },
};
static const struct opt_choice random_generator_choices[] = {
	{ "tausworthe", 0 }, { "lfsr", 1 }, { "tausworthe64", 2 }, { NULL, 0 },
};
static const struct opt_choice exit_what_choices[] = {
	{ "group", 0 }, { "stonewall", 1 }, { "all", 2 }, { NULL, 0 },
};
/* default-only options: the values meaning what iotrial always does */
static const struct opt_choice dedupe_mode_choices[] = {
	{ "repeat", 0 }, { "working_set", 1 }, { NULL, 0 },
};
static const struct opt_choice submit_choices[] = {
	{ "inline", 0 }, { "offload", 1 }, { NULL, 0 },
};
static const struct opt_choice window_choices[] = {
	{ "avg", 0 }, { "max", 1 }, { "both", 2 }, { "0", 0 }, { "1", 1 }, { "2", 2 },
	{ NULL, 0 },
};

/* ---- the table ------------------------------------------------------- */

/* Before the engines' rows. */
static const struct opt_def opt_defs_head[] = {
	/* job */
	{ .name = "name", .type = OPT_FUNC, .parse = opt_parse_name, .show = opt_show_name,
	  .help = "name of the job (on the command line, starts a new job)" },
	{ .name = "description", .type = OPT_STR, F(description),
	  .help = "free text describing the job" },

	/* target */
	{ .name = "filename", .type = OPT_STR, F(filename),
	  .help = "file(s) or device(s) to use, ':'-separated (\"\\:\" for a colon)" },
	{ .name = "filename_format", .type = OPT_STR, F(filename_format),
	  .help = "name of generated files: $jobname, $jobnum, $filenum, $clientuid (default "
		  "$jobname.$jobnum.$filenum)" },
	{ .name = "directory", .type = OPT_STR, F(directory),
	  .help = "directory for the job's files" },
	{ .name = "size", .type = OPT_FUNC, .parse = opt_parse_size, .show = opt_show_size,
	  .help = "bytes of I/O region per job, or N% of the file/device, or Nz: N zones "
		  "(zonemode=zbd or strided; default: all of it)" },
	{ .name = "filesize", .type = OPT_FUNC, .parse = opt_parse_filesize, .show = opt_show_filesize,
	  .help = "size of each file, or a range lo-hi to pick sizes from" },
	{ .name = "offset", .alias = { "fileoffset" }, .type = OPT_FUNC, .parse = opt_parse_offset,
	  .show = opt_show_offset, .help = "start I/O at this byte offset, or at N% of the file, "
		  "or at N zones (Nz)" },
	{ .name = "offset_increment", .type = OPT_FUNC, F(offset_increment),
	  .parse = opt_parse_zbytes, .show = opt_show_zbytes,
	  .help = "each numjobs clone starts this many bytes (units k/m/g/t/p) or zones (Nz) after "
		  "the previous one" },
	{ .name = "io_size", .alias = { "io_limit" }, .type = OPT_FUNC, F(io_size),
	  .parse = opt_parse_zbytes, .show = opt_show_zbytes,
	  .help = "bytes of I/O to do (units k/m/g/t/p), or Nz: N zones (default: size)" },
	{ .name = "nrfiles", .alias = { "nr_files" }, .type = OPT_INT, F(nrfiles), .min = 1,
	  .help = "number of files to spread the job over" },
	{ .name = "openfiles", .type = OPT_INT, F(openfiles),
	  .help = "files in use at once (default nrfiles): round-robin over the first N, a "
	  "file done makes room for the next; the file-operation engines close each file "
	  "right after its operation" },
	{ .name = "unlink", .type = OPT_BOOL, F(unlink),
	  .help = "delete the job's files when it ends" },
	{ .name = "allow_file_create", .type = OPT_BOOL, F(allow_file_create),
	  .help = "create files that do not exist" },
	{ .name = "allow_mounted_write", .type = OPT_BOOL, F(allow_mounted_write),
	  .help = "allow writes to a mounted block device" },
	{ .name = "allow_signature_write", .type = OPT_BOOL, .flags = OPT_F_IOTRIAL,
	  F(allow_signature_write),
	  .help = "iotrial: allow writes over a filesystem, partition table or RAID signature" },
	{ .name = "invalidate", .type = OPT_BOOL, F(invalidate),
	  .help = "drop the file's page cache before starting" },
	{ .name = "create_on_open", .type = OPT_BOOL, F(create_on_open),
	  .help = "create files when they are opened for I/O, not before" },
	{ .name = "fallocate", .type = OPT_CHOICE, F(fallocate),
	  .choices = fallocate_choices,
	  .help = "space of new or extended files: native/posix (preallocate), keep "
		  "(preallocate past the size), none/truncate (only set the size)" },

	/* workload */
	{ .name = "rw", .alias = { "readwrite" }, .type = OPT_FUNC, .parse = opt_parse_rw,
	  .show = opt_show_rw,
	  .help = "I/O pattern: read write trim randread randwrite randtrim rw|readwrite randrw "
		  "trimwrite randtrimwrite, with optional :N offset modifier" },
	{ .name = "rwmixread", .type = OPT_INT, F(rwmixread), .max = 100,
	  .help = "percent of a mixed workload's I/Os that are reads" },
	{ .name = "rwmixwrite", .type = OPT_FUNC, .flags = OPT_F_NOSHOW, .parse = opt_parse_rwmixwrite,
	  .help = "percent of a mixed workload's I/Os that are writes (sets rwmixread)" },
	{ .name = "bs", .alias = { "blocksize" }, .type = OPT_INT_DDIR, FD(bs), .min = 1,
	  .help = "block size, per direction read,write,trim" },
	{ .name = "bsrange", .alias = { "blocksize_range" }, .type = OPT_FUNC,
	  .parse = opt_parse_bsrange, .show = opt_show_bsrange,
	  .help = "block size range lo-hi, per direction read,write,trim" },
	{ .name = "bssplit", .type = OPT_FUNC, .parse = opt_parse_bssplit, .show = opt_show_bssplit,
	  .help = "weighted block sizes bs/percent:bs/percent..., per direction" },
	{ .name = "blockalign", .alias = { "ba" }, .type = OPT_INT_DDIR, FD(blockalign),
	  .help = "align random offsets to this, per direction (0 = minimum block size)" },
	{ .name = "bs_unaligned", .alias = { "blocksize_unaligned" }, .type = OPT_FLAG,
	  F(bs_unaligned), .help = "block sizes from bsrange need not be multiples of the minimum" },
	{ .name = "randrepeat", .type = OPT_BOOL, F(randrepeat),
	  .help = "same random sequence on every run" },
	{ .name = "allrandrepeat", .type = OPT_FUNC, .parse = opt_parse_allrandrepeat,
	  .show = opt_show_allrandrepeat, .flags = OPT_F_OPTVAL,
	  .help = "1: every random stream repeats; 0: only offsets follow randrepeat (fio's split)" },
	{ .name = "randseed", .type = OPT_FUNC, .parse = opt_parse_randseed, .show = opt_show_randseed,
	  .help = "seed of the random generators" },
	{ .name = "norandommap", .type = OPT_FLAG, F(norandommap),
	  .help = "pick random offsets without tracking which blocks were done" },
	{ .name = "random_generator", .type = OPT_CHOICE, F(random_generator),
	  .choices = random_generator_choices,
	  .help = "tausworthe, tausworthe64 (both: iotrial's xoshiro256**) or lfsr (every block "
		  "exactly once per pass, without the random map)" },
	{ .name = "random_distribution", .type = OPT_FUNC, .parse = opt_parse_random_distribution,
	  .show = opt_show_random_distribution,
	  .help = "random offset distribution: random, zipf:theta, pareto:h, normal:sigma" },
	{ .name = "percentage_random", .type = OPT_INT_DDIR, FD(percentage_random), .max = 100,
	  .help = "percent of a random job's I/Os that are random, per direction" },

	/* engine */
	{ .name = "ioengine", .type = OPT_FUNC, .flags = OPT_F_ENGINE, .parse = opt_parse_ioengine,
	  .show = opt_show_ioengine,
	  .value_at = engine_name_at, .help = "I/O engine (fio's others are refused by name)" },
	{ .name = "iodepth", .type = OPT_INT, F(iodepth), .min = 1, .max = 65536,
	  .help = "I/Os kept in flight" },
	{ .name = "iodepth_batch", .alias = { "iodepth_batch_submit" }, .type = OPT_INT,
	  F(iodepth_batch_submit), .help = "I/Os submitted at once (0 = iodepth)" },
	{ .name = "iodepth_batch_complete_min", .alias = { "iodepth_batch_complete" },
	  .type = OPT_INT, F(iodepth_batch_complete_min),
	  .help = "completions to wait for at least per reap" },
	{ .name = "iodepth_batch_complete_max", .type = OPT_INT, F(iodepth_batch_complete_max),
	  .help = "completions reaped at most per reap (0 = iodepth_batch_submit's batch)" },
	{ .name = "iodepth_low", .type = OPT_INT, F(iodepth_low),
	  .help = "refill the queue once fewer than this are in flight" },
	{ .name = "direct", .type = OPT_BOOL, F(direct), .help = "use O_DIRECT" },
	{ .name = "buffered", .type = OPT_FUNC, .flags = OPT_F_NOSHOW, .parse = opt_parse_buffered,
	  .help = "use the page cache (buffered=0 is direct=1)" },
	{ .name = "sync", .type = OPT_CHOICE, F(sync), .choices = sync_choices,
	  .help = "synchronous writes: none, sync (O_SYNC), dsync (O_DSYNC)" },
	{ .name = "fsync", .type = OPT_INT, F(fsync_blocks),
	  .help = "fsync after every N writes (0 = never)" },
	{ .name = "fdatasync", .type = OPT_INT, F(fdatasync_blocks),
	  .help = "fdatasync after every N writes (0 = never)" },
	{ .name = "end_fsync", .type = OPT_BOOL, F(end_fsync),
	  .help = "fsync when the job's writes are done" },
	{ .name = "fsync_on_close", .type = OPT_BOOL, F(fsync_on_close),
	  .help = "fsync each file when it is closed" },
};

/* After the engines' rows. */
static const struct opt_def opt_defs_tail[] = {
	/* time */
	{ .name = "runtime", .alias = { "timeout" }, .type = OPT_TIME, F(runtime_us),
	  .unit_us = 1, .bare_us = SEC, .help = "stop the job after this long (0 = when the I/O is done)" },
	{ .name = "time_based", .type = OPT_FLAG, F(time_based),
	  .help = "run for runtime even when the I/O is done, repeating it" },
	{ .name = "ramp_time", .type = OPT_TIME, F(ramp_time_us), .unit_us = 1, .bare_us = SEC,
	  .help = "run this long before measuring" },
	{ .name = "startdelay", .type = OPT_TIME, F(startdelay_us), .unit_us = 1, .bare_us = SEC,
	  .help = "wait this long before starting the job" },
	{ .name = "loops", .type = OPT_INT, F(loops), .min = 1,
	  .help = "repeat the job's I/O this many times" },

	/* jobs */
	{ .name = "numjobs", .type = OPT_INT, F(numjobs), .min = 1,
	  .help = "clones of this job running in parallel" },
	{ .name = "group_reporting", .type = OPT_FLAG, F(group_reporting),
	  .help = "report each group as a whole, not each job" },
	{ .name = "significant_figures", .type = OPT_INT, F(sig_figs), .min = 1, .max = 10,
	  .help = "significant digits of the normal output's IOPS, bandwidths, sizes and "
	  "block sizes (1-10, default 4; fio's t/zbd reads exact byte counts with 10)" },
	{ .name = "thread", .alias = { "threads" }, .type = OPT_FLAG, F(thread),
	  .help = "run jobs as threads (iotrial always does; accepted for fio files)" },
	{ .name = "cpus_allowed", .type = OPT_FUNC, .parse = opt_parse_cpus_allowed,
	  .show = opt_show_cpus_allowed, .help = "CPUs the job may run on, e.g. 0-3,6" },
	{ .name = "numa_cpu_nodes", .type = OPT_FUNC, .parse = numa_parse_cpu_nodes,
	  .show = numa_show_cpu_nodes, .help = "run the job on the CPUs of these NUMA nodes (0-1,3)" },
	{ .name = "numa_mem_policy", .type = OPT_FUNC, .parse = numa_parse_mem_policy,
	  .show = numa_show_mem_policy,
	  .help = "memory policy: default, local, prefer:N, bind:NODES, interleave:NODES" },
	{ .name = "cpus_allowed_policy", .type = OPT_CHOICE, F(cpus_allowed_split),
	  .choices = policy_choices,
	  .help = "shared: every clone may use every CPU; split: one CPU per clone" },
	{ .name = "stonewall", .alias = { "wait_for_previous" }, .type = OPT_FLAG, F(stonewall),
	  .help = "wait for the jobs before this one to finish" },
	{ .name = "new_group", .type = OPT_FLAG, F(new_group),
	  .help = "start a new reporting group" },

	/* rate */
	{ .name = "rate", .type = OPT_INT_DDIR, FD(rate),
	  .help = "bandwidth cap in bytes/s, per direction (0 = none)" },
	{ .name = "rate_iops", .type = OPT_INT_DDIR, FD(rate_iops),
	  .help = "IOPS cap, per direction (0 = none)" },
	{ .name = "rate_min", .alias = { "ratemin" }, .type = OPT_INT_DDIR, FD(rate_min),
	  .help = "end the job (EIO) if a direction does fewer bytes/s over a rate_cycle" },
	{ .name = "rate_iops_min", .type = OPT_INT_DDIR, FD(rate_iops_min),
	  .help = "end the job (EIO) if a direction does fewer IOPS over a rate_cycle" },
	{ .name = "rate_cycle", .alias = { "ratecycle" }, .type = OPT_INT, F(rate_cycle_ms),
	  .min = 1, .help = "window of rate_min and rate_iops_min, in ms (default 1000)" },
	{ .name = "fadvise_hint", .type = OPT_CHOICE, F(fadvise_hint),
	  .choices = fadvise_choices,
	  .help = "page-cache advice: 1 (random or sequential, from rw), 0 (none), sequential, random" },
	{ .name = "flow", .type = OPT_INT, F(flow),
	  .help = "weight in the flow of flow_id: jobs' I/O counts keep their weights' ratio (0 = none)" },
	{ .name = "flow_id", .type = OPT_INT, F(flow_id),
	  .help = "the flow a job with flow= belongs to" },
	{ .name = "flow_watermark", .type = OPT_INT, F(flow_watermark),
	  .help = "I/Os a job may run ahead of its flow share before it waits" },
	{ .name = "flow_sleep", .type = OPT_TIME, F(flow_sleep_us), .unit_us = 1, .bare_us = 1,
	  .help = "wait this long before asking the flow again (0 = 100us)" },
	{ .name = "rate_process", .type = OPT_CHOICE, F(rate_process),
	  .choices = rate_process_choices, .help = "how rated I/O is spaced: linear or poisson" },

	/* reporting */
	{ .name = "percentile_list", .type = OPT_FUNC, .parse = opt_parse_percentile_list,
	  .show = opt_show_percentile_list, .help = "latency percentiles to report, ':'-separated (at most 20)" },
	{ .name = "clat_percentiles", .type = OPT_BOOL, F(clat_percentiles),
	  .help = "report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL, F(lat_percentiles),
	  .help = "report total latency percentiles" },
	{ .name = "slat_percentiles", .type = OPT_BOOL, F(slat_percentiles),
	  .help = "report submission latency percentiles" },
	{ .name = "disable_lat", .type = OPT_BOOL, F(disable_lat),
	  .help = "do not measure total latency" },
	{ .name = "disable_clat", .type = OPT_BOOL, F(disable_clat),
	  .help = "do not measure completion latency" },
	{ .name = "disable_slat", .type = OPT_BOOL, F(disable_slat),
	  .help = "do not measure submission latency" },
	{ .name = "unified_rw_reporting", .type = OPT_FUNC, F(unified_rw_reporting),
	  .parse = opt_parse_unified_rw, .show = opt_show_unified_rw,
	  .help = "none (or 0): per-direction results, the only value iotrial supports" },
	{ .name = "kb_base", .type = OPT_CHOICE, F(kb_base), .choices = kb_base_choices,
	  .help = "1024: k is 1024 (fio's default); 1000: k is 1000 (see num.h for KiB)" },
	{ .name = "clocksource", .type = OPT_CHOICE, F(clocksource), .choices = clock_choices,
	  .help = "timing source: clock_gettime, cpu or gettimeofday (default: iotrial picks)" },

	/* time series and logs */
	{ .name = "series_interval", .type = OPT_TIME, .flags = OPT_F_IOTRIAL, F(interval_us),
	  .unit_us = 1, .bare_us = SEC, .min = 1000,
	  .help = "iotrial: period of the per-interval time series (at least 1ms)" },
	{ .name = "series_max", .type = OPT_INT, .flags = OPT_F_IOTRIAL, F(series_max),
	  .help = "iotrial: intervals kept in the result; longer series are merged in exact "
		  "pairs until they fit (0 = keep all; default 512)" },
	{ .name = "write_bw_log", .type = OPT_STR, .flags = OPT_F_OPTVAL, F(write_bw_log),
	  .help = "write a bandwidth log with this prefix (bare: the job name)" },
	{ .name = "write_iops_log", .type = OPT_STR, .flags = OPT_F_OPTVAL, F(write_iops_log),
	  .help = "write an IOPS log with this prefix (bare: the job name)" },
	{ .name = "write_lat_log", .type = OPT_STR, .flags = OPT_F_OPTVAL, F(write_lat_log),
	  .help = "write slat/clat/lat logs with this prefix (bare: the job name)" },
	{ .name = "write_hist_log", .type = OPT_STR, .flags = OPT_F_OPTVAL, F(write_hist_log),
	  .help = "write a latency histogram log with this prefix (bare: the job name)" },
	/* plain integers of milliseconds, as in fio: there "2s" is 2 and "2m" is 2097152 */
	{ .name = "log_avg_msec", .type = OPT_INT, F(log_avg_msec),
	  .help = "average log entries over this many ms (0 = one per I/O)" },
	{ .name = "log_hist_msec", .type = OPT_INT, F(log_hist_msec),
	  .help = "histogram log period in ms (0 = off)" },
	{ .name = "log_window_value", .alias = { "log_max_value" }, .type = OPT_CHOICE,
	  F(log_max_value), .choices = window_choices,
	  .help = "value logged per window: avg, max or both" },
	{ .name = "log_offset", .type = OPT_BOOL, F(log_offset),
	  .help = "add each I/O's offset to log lines" },
	{ .name = "per_job_logs", .type = OPT_BOOL, F(per_job_logs),
	  .help = "one log file per job clone (0: clones with one name share it)" },
	{ .name = "log_compression", .type = OPT_INT, F(log_compression), .min = 1024,
	  .max = 512ull << 20,
	  .help = "with log_store_compressed, compress the logs this many bytes at a time "
		  "(alone: accepted, the text logs are the same)" },
	{ .name = "log_store_compressed", .type = OPT_BOOL, F(log_store_compressed),
	  .help = "write the logs as fio's zlib-compressed .fz files (read them with --inflate-log)" },

	/* steady state */
	{ .name = "steadystate", .alias = { "ss" }, .type = OPT_FUNC, .parse = opt_parse_steadystate,
	  .show = opt_show_steadystate, .debug = opt_debug_steadystate,
	  .help = "stop at steady state: iops|iops_slope|bw|bw_slope:limit[%] (default iops_slope:0.01%)" },
	{ .name = "steadystate_duration", .alias = { "ss_dur" }, .type = OPT_TIME, F(ss_dur_us),
	  .unit_us = 1, .bare_us = SEC, .help = "window over which steady state is judged (0 = off)" },
	{ .name = "steadystate_ramp_time", .alias = { "ss_ramp" }, .type = OPT_TIME,
	  F(ss_ramp_us), .unit_us = 1, .bare_us = SEC,
	  .help = "time before steady-state data collection starts" },
	{ .name = "steady_report", .type = OPT_FUNC, .flags = OPT_F_IOTRIAL,
	  .parse = opt_parse_steady_report, .show = opt_show_steady_report,
	  .help = "iotrial: rule that finds the reported steady window: snia, fio or none "
		  "(default: fio when the job has ss_dur, else snia)" },
	{ .name = "snia_window", .type = OPT_INT, .flags = OPT_F_IOTRIAL, F(snia_window), .min = 2,
	  .help = "iotrial: SNIA PTS steady state: rounds in the window" },
	{ .name = "snia_range", .type = OPT_FUNC, .flags = OPT_F_IOTRIAL, F(snia_range_pct),
	  .parse = opt_parse_snia_pct, .show = opt_show_snia_pct,
	  .help = "iotrial: SNIA: max - min within the window, at most this % of its mean "
		  "(20 or 20%)" },
	{ .name = "snia_slope", .type = OPT_FUNC, .flags = OPT_F_IOTRIAL, F(snia_slope_pct),
	  .parse = opt_parse_snia_pct, .show = opt_show_snia_pct,
	  .help = "iotrial: SNIA: least-squares slope excursion across the window, at most "
		  "this % of its mean (10 or 10%)" },
	{ .name = "snia_round", .type = OPT_TIME, .flags = OPT_F_IOTRIAL, F(snia_round_us),
	  .unit_us = 1, .bare_us = SEC,
	  .help = "iotrial: SNIA round length, a multiple of series_interval (0 = one interval)" },
	{ .name = "snia_metric", .type = OPT_CHOICE, .flags = OPT_F_IOTRIAL, F(snia_metric),
	  .choices = snia_metric_choices,
	  .help = "iotrial: SNIA tracked metric, summed over directions: iops, bw or lat (mean)" },
	{ .name = "snia_stop", .type = OPT_BOOL, .flags = OPT_F_IOTRIAL, F(snia_stop),
	  .help = "iotrial: stop the job once the SNIA criterion holds (as fio's ss= does)" },

	/* fio options taken for compatibility (opt_compat.h; docs/usage.md) */
	{ .name = "verify", .type = OPT_FUNC, .parse = opt_parse_verify, .show = opt_show_verify,
	  .help = "verify written data: md5 crc32c crc32 crc64 sha1 sha256 sha512 xxhash meta pattern, or 0" },
	{ .name = "do_verify", .type = OPT_BOOL, F(do_verify),
	  .help = "read back and check after the writes (with verify=)" },
	{ .name = "verify_interval", .type = OPT_INT, F(verify_interval),
	  .help = "bytes per verify header (0 = the block size)" },
	{ .name = "verify_pattern", .type = OPT_FUNC, .parse = opt_parse_verify_pattern,
	  .show = opt_show_verify_pattern,
	  .help = "data pattern of verified blocks: 0x hex bytes and \"text\"" },
	{ .name = "verify_only", .type = OPT_FLAG, F(verify_only),
	  .help = "skip the writes; only check the data an earlier run of the job wrote" },
	{ .name = "verify_backlog", .type = OPT_INT, F(verify_backlog), .max = 1u << 24,
	  .help = "check written blocks while writing: every N writes (0 = after the writes)" },
	{ .name = "verify_backlog_batch", .type = OPT_INT, F(verify_backlog_batch), .max = 1u << 24,
	  .help = "blocks checked at each verify_backlog point, the oldest pending (0 = verify_backlog)" },
	{ .name = "verify_dump", .type = OPT_BOOL, F(verify_dump),
	  .help = "on a verify failure, write the block read and the block expected to "
		  "FILE.OFFSET.received/.expected in the current directory" },
	{ .name = "verify_async", .type = OPT_INT, F(verify_async), .max = 1024,
	  .help = "fio's verify offload threads; iotrial checks the same blocks in the job's "
		  "own thread (the same results, the checking CPU counted in the job's)" },
	{ .name = "verify_fatal", .type = OPT_BOOL, F(verify_fatal),
	  .help = "a verify failure also stops the other jobs of the group" },
	{ .name = "verify_offset", .type = OPT_INT, F(verify_offset), .max = 1u << 30,
	  .help = "write each verify header this many bytes into its interval (swapped with "
		  "the data there, swapped back to check)" },
	{ .name = "experimental_verify", .type = OPT_BOOL, F(experimental_verify),
	  .help = "fio regenerates the offsets to verify instead of logging the writes; "
		  "iotrial checks the same blocks from its log" },
	{ .name = "verify_state_save", .type = OPT_BOOL, F(verify_state_save),
	  .help = "a writing verify job leaves local-JOB-N-verify.state (in --aux-path): "
		  "which blocks it wrote (default 1)" },
	{ .name = "verify_state_load", .type = OPT_BOOL, F(verify_state_load),
	  .help = "check only the blocks the state file of an earlier verify_state_save run names" },
	{ .name = "gtod_reduce", .type = OPT_FUNC, F(gtod_reduce), .parse = opt_parse_gtod_reduce,
	  .show = opt_show_gtod_reduce,
	  .help = "1 sets disable_lat, disable_clat, disable_slat, disable_bw (iotrial still "
		  "reads its clock per I/O; the latencies are still reported)" },
	{ .name = "disable_bw_measurement", .alias = { "disable_bw" }, .type = OPT_BOOL,
	  F(disable_bw), .help = "accepted; iotrial keeps its bw/iops samples (twice a second, "
				 "off the per-I/O path)" },
	{ .name = "cpumask", .type = OPT_FUNC, .flags = OPT_F_NOSHOW, .parse = opt_parse_cpumask,
	  .help = "CPUs the job may run on as a bit mask (sets cpus_allowed)" },
	{ .name = "prio", .type = OPT_FUNC, .parse = cmdprio_parse_prio, .show = cmdprio_show_prio,
	  .help = "I/O priority level of the job's thread, 0..7 (ioprio_set)" },
	{ .name = "prioclass", .type = OPT_FUNC, .parse = cmdprio_parse_prio, .show = cmdprio_show_prio,
	  .help = "I/O priority class of the job's thread, 0..3 (ioprio_set)" },
	{ .name = "log_prio", .type = OPT_BOOL, F(cmdprio.log_prio),
	  .help = "log lines carry each I/O's priority value (0: 1 for an RT-class I/O, else 0)" },
	{ .name = "nice", .type = OPT_FUNC, .parse = opt_parse_nice, .show = opt_show_nice,
	  .help = "nice value of the job's thread, -20..19" },
	{ .name = "disk_util", .type = OPT_BOOL, F(disk_util),
	  .help = "report disk utilisation of the job's devices" },
	{ .name = "exitall", .type = OPT_FLAG, F(exitall),
	  .help = "when this job ends, stop the jobs exit_what names" },
	{ .name = "exitall_on_error", .type = OPT_FLAG, F(exitall_on_error),
	  .help = "when this job fails, stop the jobs exit_what names" },
	{ .name = "exit_what", .type = OPT_CHOICE, F(exit_what), .choices = exit_what_choices,
	  .help = "what exitall stops: group (its reporting group), stonewall (every running "
		  "job), all (every job, later ones too)" },
	{ .name = "wait_for", .type = OPT_STR, F(wait_for),
	  .help = "start when every thread of the job of this name (defined earlier) is done" },
	{ .name = "write_iolog", .type = OPT_STR, F(write_iolog),
	  .help = "record every I/O the job issues in this file (fio's iolog version 3)" },
	{ .name = "read_iolog", .type = OPT_STR, F(read_iolog),
	  .help = "replay the I/Os of this fio iolog (version 2 or 3) instead of generating "
		  "them; the directions are the log's" },
	{ .name = "replay_no_stall", .type = OPT_BOOL, F(replay_no_stall),
	  .help = "read_iolog: issue as fast as possible, not at the logged times" },
	{ .name = "number_ios", .type = OPT_INT, F(number_ios),
	  .help = "end the job after this many I/Os (0 = no limit)" },
	{ .name = "zonemode", .type = OPT_FUNC, .parse = opt_parse_zonemode, .show = opt_show_zonemode,
	  .help = "none; strided: zonesize bytes in each zonerange-byte zone, then skip zoneskip; "
		  "zbd: zoned block devices, written at each zone's write pointer" },
	{ .name = "zonesize", .type = OPT_INT, F(zonesize),
	  .help = "zonemode=strided: bytes done in a zone before the next one; zbd: the zone "
		  "size (the device's; mandatory to emulate zones on a file)" },
	{ .name = "zonerange", .type = OPT_INT, F(zonerange),
	  .help = "zonemode=strided: size of a zone (0 = zonesize)" },
	{ .name = "zoneskip", .type = OPT_FUNC, F(zoneskip), .parse = opt_parse_zbytes,
	  .show = opt_show_zbytes, .help = "zonemode=strided: bytes (units k/m/g/t/p) or zones "
					    "(Nz) skipped after each zone" },
	{ .name = "zonecapacity", .type = OPT_INT, F(zonecapacity),
	  .help = "zonemode=zbd on emulated zones: bytes of each zone that can be written "
		  "(0 = zonesize; a zoned device reports its own)" },
	{ .name = "read_beyond_wp", .type = OPT_BOOL, F(read_beyond_wp),
	  .help = "zonemode=zbd: reads may go past a zone's write pointer" },
	{ .name = "max_open_zones", .type = OPT_INT,
	  F(max_open_zones), .max = 4096,
	  .help = "zonemode=zbd: zones written at once on the device, by all its jobs (0 = the "
		  "device's limit)" },
	{ .name = "job_max_open_zones", .type = OPT_INT, F(job_max_open_zones), .max = 4096,
	  .help = "zonemode=zbd: zones this job writes at once (0 = no limit of its own)" },
	{ .name = "ignore_zone_limits", .type = OPT_BOOL, F(ignore_zone_limits),
	  .help = "zonemode=zbd: max_open_zones may exceed the device's limit" },
	{ .name = "zone_reset_threshold", .type = OPT_FUNC, F(zone_reset_threshold),
	  .parse = opt_parse_ratio, .show = opt_show_ratio,
	  .help = "zonemode=zbd: share of the region's bytes with data above which "
		  "zone_reset_frequency resets zones (0..1)" },
	{ .name = "zone_reset_frequency", .type = OPT_FUNC, F(zone_reset_frequency),
	  .parse = opt_parse_ratio, .show = opt_show_ratio,
	  .help = "zonemode=zbd: past the threshold, every 1/this-th write resets its zone first "
		  "(0..1)" },

	{ .name = "continue_on_error", .type = OPT_FUNC, .parse = ioerr_parse_coe,
	  .show = ioerr_show_coe,
	  .help = "go on after non-fatal errors of these I/Os: none read write io verify all "
		  "(counted in total_err)" },
	{ .name = "ignore_error", .type = OPT_FUNC, .parse = ioerr_parse_ignore,
	  .show = ioerr_show_ignore,
	  .help = "errors that are non-fatal, per class READ,WRITE,VERIFY, ':'-separated "
		  "(default EIO:EILSEQ)" },
	{ .name = "fill_device", .alias = { "fill_fs" }, .type = OPT_BOOL, F(fill_device),
	  .help = "write until the file system is full (ENOSPC ends the job, no error); a file's "
		  "size defaults to the free space" },
	{ .name = "create_serialize", .type = OPT_BOOL, F(create_serialize),
	  .help = "lay out every job's files before any job starts (0: when the job's stonewall "
		  "group starts, after the groups before it)" },
	{ .name = "error_dump", .type = OPT_BOOL, F(error_dump),
	  .help = "print every error continue_on_error lets pass, not only the fatal one" },
	{ .name = "serialize_overlap", .type = OPT_BOOL, F(serialize_overlap),
	  .help = "hold an I/O back while one of the job's in-flight I/Os overlaps it" },
	{ .name = "io_submit_mode", .type = OPT_CHOICE, F(submit_offload), .choices = submit_choices,
	  .help = "inline: submit when the engine has room; offload: rated I/O goes on its "
		  "schedule, not after a completion (io_uring, libaio, null)" },

	/* latency_target.h (fio: bare times are microseconds) */
	{ .name = "latency_target", .type = OPT_TIME, F(lat_target.target_us), .unit_us = 1,
	  .bare_us = 1, .help = "find the deepest queue (1..iodepth) whose I/Os meet this latency" },
	{ .name = "latency_window", .type = OPT_TIME, F(lat_target.window_us), .unit_us = 1,
	  .bare_us = 1, .help = "latency_target: time each depth is tried for" },
	{ .name = "latency_percentile", .type = OPT_FUNC, .parse = lat_target_parse_percentile,
	  .show = lat_target_show_percentile,
	  .help = "latency_target: % of a window's I/Os that must meet it (default 100)" },
	{ .name = "latency_run", .type = OPT_BOOL, F(lat_target.run),
	  .help = "latency_target: keep adjusting the depth for the whole run (0: stop once found)" },

	/* thinktime (fio: bare numbers are microseconds) */
	{ .name = "thinktime", .type = OPT_TIME, F(thinktime_us), .unit_us = 1, .bare_us = 1,
	  .help = "pause this long after every thinktime_blocks I/Os, once they completed" },
	{ .name = "thinktime_spin", .type = OPT_TIME, F(thinktime_spin_us), .unit_us = 1,
	  .bare_us = 1, .help = "spend this much of thinktime busy on the CPU, not asleep" },
	{ .name = "thinktime_blocks", .type = OPT_INT, F(thinktime_blocks), .min = 1,
	  .help = "I/Os between two thinktimes (caps the depth in flight)" },

	/* write-buffer contents (buffer.h) */
	{ .name = "zero_buffers", .type = OPT_FLAG, F(zero_buffers),
	  .help = "write buffers hold zeros" },
	{ .name = "refill_buffers", .type = OPT_FLAG, F(refill_buffers),
	  .help = "fresh random contents for every write" },
	{ .name = "scramble_buffers", .type = OPT_BOOL, F(scramble_buffers),
	  .help = "vary each write's buffer slightly, against naive dedupe (default 1)" },
	{ .name = "buffer_pattern", .type = OPT_FUNC, .parse = opt_parse_buffer_pattern,
	  .show = opt_show_buffer_pattern,
	  .help = "fill write buffers with this pattern: 0x hex bytes and \"text\", combined" },
	{ .name = "buffer_compress_percentage", .type = OPT_INT, F(buffer_compress_percentage),
	  .max = 100, .help = "make write buffers compressible by about this percentage" },
	{ .name = "buffer_compress_chunk", .type = OPT_INT, F(buffer_compress_chunk),
	  .help = "size of the random/fixed regions for buffer_compress_percentage (0 = block)" },
	{ .name = "dedupe_percentage", .type = OPT_INT, F(dedupe_percentage), .max = 100,
	  .help = "percentage of writes that repeat an earlier write (dedupable)" },
	{ .name = "dedupe_mode", .type = OPT_CHOICE, F(dedupe_mode_ws), .choices = dedupe_mode_choices,
	  .help = "repeat: the previous unique write; working_set: a random one of the first "
		  "dedupe_working_set_percentage% of size written" },
	{ .name = "dedupe_working_set_percentage", .type = OPT_INT, F(dedupe_ws_pct), .max = 100,
	  .help = "dedupe_mode=working_set: the set's share of size (default 5)" },
	{ .name = "dedupe_global", .type = OPT_BOOL, F(dedupe_global),
	  .help = "dedupe_mode=working_set: the working sets are shared by the run's threads, "
		  "spread evenly among them" },

	{ .name = "ioscheduler", .type = OPT_FUNC, .parse = opt_parse_strbuf,
	  .show = opt_show_strbuf, F(ioscheduler),
	  .help = "switch the I/O scheduler of the devices under the job's files for the run "
		  "(/sys/block/DEV/queue/scheduler; put back after)" },

	/* fio options iotrial does not implement: refused by name */
	/* the act and tiobench profiles' options, on fio's command line whatever --profile says */
	UH("block", PROF), UH("device-names", PROF), UH("dir", PROF),
	UH("large-block-op-kbytes", PROF), UH("load", PROF), UH("numruns", PROF),
	UH("prep", PROF), UH("read-req-num-512-blocks", PROF), UH("test-duration", PROF),
	UH("threads-per-queue", PROF),
	/* fio 3.33 ignores them with a warning; iotrial does not ignore options */
	UH("percentage_sequential", DEPR), UH("rwmixcycle", DEPR), UH("verifysort", DEPR),
	UH("verifysort_nr", DEPR),
	U("bs_is_seq_rand"), U("softrandommap"), U("verify_async_cpus"),
	{ .name = "iomem_align", .alias = { "mem_align" }, .type = OPT_UNSUPPORTED,
	  .help = "iotrial aligns I/O buffers to the page (and to the target's direct I/O alignment)" },
	U("atomic"),
	UF("bindname"), U("block_error_percentiles"), UF("brick"), U("bwavgtime"),
	U("cgroup"), U("cgroup_nodelete"), U("cgroup_weight"), UF("chunk_size"),
	UF("conf"), UF("cont"),
	U("create_fsync"), U("create_only"), UF("cuda_io"),
	UF("dataplacement"), U("exec_postrun"),
	U("exec_prerun"), 
	UF("fdp"), UF("fdp_pli"), UF("fdp_pli_select"), U("file_append"), U("file_service_type"),
U("gid"), UF("gpu_dev_id"), UF("gpu_dev_ids"),
	U("gtod_cpu"), UF("hipri_percentage"), UF("hostname"),
	UF("http_host"), UF("http_mode"), UF("http_pass"), UF("http_s3_key"), UF("http_s3_keyid"),
	UF("http_s3_region"), UF("http_s3_sse_customer_algorithm"),
	UF("http_s3_sse_customer_key"), UF("http_s3_storage_class"), UF("http_swift_auth_token"),
	UF("http_user"), UF("http_verbose"), UF("https"), U("hugepage-size"), 
	 UF("interface"), U("iopsavgtime"), UF("job_start_clock_id"),
	UF("libblkio_driver"), UF("libblkio_force_enable_completion_eventfd"),
	UF("libblkio_path"), UF("libblkio_pre_connect_props"), UF("libblkio_pre_start_props"),
	UF("libblkio_vectored"), UF("libblkio_wait_mode"), UF("libblkio_write_zeroes_on_trim"),
	UF("listen"), U("lockfile"), U("lockmem"), U("log_alternate_epoch"),
	U("log_alternate_epoch_clock_id"), U("log_compression_cpus"),
	U("log_entries"), U("log_hist_coarseness"), UF("log_issue_time"), U("log_unix_epoch"), U("max_latency"),
	{ .name = "mem", .alias = { "iomem" }, .type = OPT_UNSUPPORTED, .help = "iotrial allocates aligned malloc buffers" }, U("merge_blktrace_file"),
	U("merge_blktrace_iters"), U("merge_blktrace_scalars"), UF("mss"), UF("nfs_url"),
	UF("nodelay"), UF("nowait"), UF("num_range"), 
	UF("object_class"), U("offset_align"),
	U("opendir"), U("overwrite"), UF("pingpong"),
	UF("plids"), UF("port"), U("pre_read"), 
	U("profile"), UF("protocol"), 
	UF("random_sequence_stride"), U("rate_ignore_thinktime"),
	U("read_iolog_chunked"), UF("readfua"), U("replay_align"), U("replay_redirect"), U("replay_scale"),
	U("replay_skip"), U("replay_time_scale"), UF("rocm_io"), U("rw_sequencer"),
	UF("sg_write_mode"),
	UF("single-instance"), UF("skip_bad"), UF("spr_num_regions"),
	UF("spr_op"), UF("sprandom"), U("stats"),
	UF("steadystate_check_interval"), UF("stream_id"), UF("svcl"), U("sync_file_range"),
	UF("thinkcycles"), U("thinktime_blocks_type"),
	U("thinktime_iotime"), UF("thp"), UF("touch_objects"),
	U("trim_backlog"), U("trim_backlog_batch"), U("trim_percentage"),
	U("trim_verify_zero"), UF("ttl"), U("uid"), UF("uncached"), U("unique_filename"),
	U("unit_base"), U("unlink_each_loop"), UF("uri"), UF("userspace_reap"), UF("verb"),
UFH("verify_write_sequence", "not supported (verify= checks every block after the writes)"), UF("volume"), UF("window_size"),
	U("write_barrier"), U("write_hint"), UF("writefua"),
	UF("xnvme_admin"), UF("xnvme_async"), UF("xnvme_dev_nsid"), UF("xnvme_dev_subnqn"),
	UF("xnvme_iovec"), UF("xnvme_mem"), UF("xnvme_sync"),
};

#define HEAD_NR (sizeof(opt_defs_head) / sizeof(opt_defs_head[0]))
#define TAIL_NR (sizeof(opt_defs_tail) / sizeof(opt_defs_tail[0]))

const struct opt_def *opt_next(struct opt_iter *it)
{
	const struct opt_def *o;

	switch (it->part) {
	case 0:
		if (it->a < HEAD_NR)
			return &opt_defs_head[it->a++];
		it->part = 1;
		it->a = it->b = 0;
		/* fall through */
	case 1:
		o = engine_opt_next(&it->a, &it->b);
		if (o)
			return o;
		it->part = 2;
		it->a = 0;
		/* fall through */
	case 2:
		if (it->a < TAIL_NR)
			return &opt_defs_tail[it->a++];
		it->part = 3;
		break;
	}
	return NULL;
}
