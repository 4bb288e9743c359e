/*
 * job: one job's resolved options.
 *
 * A struct job holds the values after parsing (sizes in bytes, times in
 * microseconds, enums decoded), plus the options exactly as the user typed
 * them (for JSON "job options" and --showcmd).  It is filled only through the
 * option table in opt.c; nothing else knows option names.  The runner reads it
 * and never writes it.  Per-direction values are indexed by enum ddir.
 *
 * Ownership: a job owns every string and array it points to; job_free()
 * releases them, job_copy() deep-copies (used for [global] inheritance and for
 * numjobs clones).
 */
#ifndef IOTRIAL_JOB_H
#define IOTRIAL_JOB_H

#include <stddef.h>
#include <stdint.h>
#include <sched.h>	/* cpu_set_t */
#include "lib/err.h"
#include "lib/clock.h"	/* enum clock_mode */
#include "lib/ddir.h"
#include "model/ioerr_cfg.h"	/* struct ioerr_cfg */
#include "model/cmdprio_cfg.h"	/* struct cmdprio_cfg */
#include "model/numa_cfg.h"	/* struct numa_cfg */
#include "model/latency_target_cfg.h"	/* struct lat_target_cfg */

/* rw= as bits: which directions a job issues, and whether offsets are random. */
enum {
	RW_READ = 1u << 0,
	RW_WRITE = 1u << 1,
	RW_TRIM = 1u << 2,
	RW_RAND = 1u << 3,
	/* trimwrite/randtrimwrite: trim a block, then write the same block */
	RW_TRIMWRITE = 1u << 4,
};

#define JOB_MAX_ZONES 256

enum { JOB_ZONE_NONE = 0, JOB_ZONE_STRIDED = 1, JOB_ZONE_ZBD = 2 };
/* The options that take fio's zone units (struct job's zunits). */
enum { JOB_ZU_SIZE, JOB_ZU_IO_SIZE, JOB_ZU_OFFSET, JOB_ZU_OFFSET_INCREMENT, JOB_ZU_ZONESKIP,
       JOB_ZU_NR };

enum rand_dist { RAND_DIST_RANDOM, RAND_DIST_ZIPF, RAND_DIST_PARETO, RAND_DIST_NORMAL,
		 RAND_DIST_ZONED };
enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum rate_process { RATE_LINEAR, RATE_POISSON };
enum fadvise_hint { FADVISE_NONE = 0, FADVISE_AUTO = 1, FADVISE_SEQUENTIAL, FADVISE_RANDOM };
enum ss_metric { SS_NONE, SS_IOPS, SS_IOPS_SLOPE, SS_BW, SS_BW_SLOPE };
/* steady_report=: AUTO is fio's rule when the job has one (ss= with ss_dur), else SNIA. */
enum ss_report { SS_REPORT_AUTO, SS_REPORT_SNIA, SS_REPORT_FIO, SS_REPORT_NONE };
enum snia_metric { SNIA_METRIC_IOPS, SNIA_METRIC_BW, SNIA_METRIC_LAT };
/* fallocate=: native and posix both preallocate (fallocate(2), size changed);
 * keep preallocates past the size; none and truncate only set the size */
enum job_fallocate { JOB_FALLOC_NATIVE, JOB_FALLOC_POSIX, JOB_FALLOC_KEEP, JOB_FALLOC_NONE,
		     JOB_FALLOC_TRUNCATE };

/*
 * Bytes of struct job's engine area: the largest engine's options struct
 * (exec's, two 1024-byte paths) fits, and each engine's file checks at
 * build time that its own does (ENGINE_OPTS_AREA, io/engine.h).
 */
#define JOB_ENGINE_AREA_MAX 2112

#define JOB_MAX_BSSPLIT 64
#define JOB_MAX_PERCENTILES 20
#define JOB_NAME_MAX 256

struct bssplit {
	uint64_t bs;
	uint32_t perc;		/* weight in percent; entries sum to 100 */
};

/* One option as typed, in order: "job options" / "global options" in JSON. */
struct job_kv {
	char *key;
	char *val;		/* NULL for a bare flag */
};

/*
 * The engine of a job that names none: fio's default on Linux.  The one
 * spelling of it (job defaults, engine-option checks, result files without
 * an "ioengine" option).
 */
#define JOB_IOENGINE_DEFAULT "psync"

struct job {
	char name[JOB_NAME_MAX];
	char *description;

	/* target */
	char *filename;		/* ':'-separated list as given (with "\:" escapes) */
	char *directory;
	char *filename_format;		/* generated names (filename_format.h); NULL: fio's default */
	uint64_t size;		/* bytes per job; 0 = whole file/device */
	uint32_t size_pct;	/* size=N% (0 = not given as percentage) */
	uint64_t filesize_min, filesize_max;
	uint64_t offset;
	uint32_t offset_pct;
	uint64_t offset_increment;
	uint64_t io_size;	/* 0 = size */
	/*
	 * fio's zone units ("size=4z"): N zones of the fields above (and
	 * zoneskip), 0 where the value is in bytes.  The bytes follow once the
	 * zone size is known (io/zone_units.h); the count is what is shown.
	 */
	uint32_t zunits[JOB_ZU_NR];
	uint32_t nrfiles;
	int unlink;
	int allow_file_create;
	int allow_mounted_write;
	int allow_signature_write;	/* iotrial: write over a fs/partition table */
	int invalidate;
	enum fadvise_hint fadvise_hint;	/* access-pattern advice to the page cache */
	int create_on_open;
	int create_serialize;	/* 0: laid out when its stonewall group starts (run.c) */
	int fill_device;	/* write until the file system is full (file.c, worker_fill.c) */
	int fallocate;		/* enum job_fallocate: layout of new or extended files (file.c) */
	uint32_t openfiles;	/* files in use at once, 0 = nrfiles (fio's default; iogen.c) */

	/* workload */
	unsigned rw;			/* RW_* bits */
	unsigned rw_seq_nr;		/* rw=randread:8 style modifier (0/1 = none) */
	int rw_seq_back;		/* rw=read:-8k: the modifier steps back (sequential only) */
	uint32_t rwmixread;		/* percent of I/Os that are reads in mixed jobs */
	uint64_t bs[DDIR_NR];
	uint64_t bs_min[DDIR_NR], bs_max[DDIR_NR];	/* bsrange; equal to bs when unset */
	struct bssplit bssplit[DDIR_NR][JOB_MAX_BSSPLIT];
	unsigned bssplit_nr[DDIR_NR];
	uint64_t blockalign[DDIR_NR];	/* 0 = min block size */
	int bs_unaligned;
	int randrepeat;
	int allrandrepeat;		/* 0 or 1, when allrandrepeat_set */
	int allrandrepeat_set;		/* unset: every stream follows randrepeat */
	uint64_t randseed;
	int randseed_set;
	int norandommap;
	int random_generator;		/* 0 tausworthe(64): ours; 1 lfsr: full period, no map */
	enum rand_dist random_distribution;
	double rand_param;		/* zipf theta, pareto h, normal sigma (%) */
	/* random_distribution=zoned:A/S:...: A% of accesses go to the next S% of the region */
	uint8_t zone_access[JOB_MAX_ZONES], zone_size[JOB_MAX_ZONES];
	unsigned zone_nr;
	uint32_t percentage_random[DDIR_NR];
	/* zonemode: JOB_ZONE_NONE, _STRIDED (zone.h) or _ZBD (zbd.h) */
	int zonemode;
	uint64_t zonesize, zonerange, zoneskip;
	/* zonemode=zbd (zbd.h) */
	uint64_t zonecapacity;		/* emulated zones' writable bytes (0: zonesize) */
	uint32_t max_open_zones, job_max_open_zones;	/* 0: the device's / no limit */
	int ignore_zone_limits;
	int read_beyond_wp;
	double zone_reset_threshold, zone_reset_frequency;	/* 0..1 */

	/* engine */
	char *ioengine;
	uint32_t iodepth;
	uint32_t iodepth_batch_submit;	/* 0 = iodepth */
	uint32_t iodepth_batch_complete_min;
	uint32_t iodepth_batch_complete_max;	/* 0 = one commit's batch (worker_reap) */
	uint32_t iodepth_low;
	int direct;			/* buffered=0 sets direct=1 */
	enum sync_mode sync;
	uint32_t fsync_blocks;		/* fsync=N */
	uint32_t fdatasync_blocks;	/* fdatasync=N */
	int end_fsync;
	int fsync_on_close;
	/* ioscheduler=: the devices' I/O scheduler for the run (env/iosched.h); "" = leave */
	char ioscheduler[64];
	/*
	 * The options of the job's engine (io/engine.h): that engine's own
	 * struct, which only its file knows, at its defaults until set.  It
	 * always holds the options of the engine ioengine names (the parser
	 * puts the new engine's defaults here when the engine changes); no
	 * pointers, so job_copy()'s memcpy copies it.  job_init()'s zeros are
	 * the default engine's (psync: none).
	 */
	_Alignas(8) unsigned char engine_area[JOB_ENGINE_AREA_MAX];
	/*
	 * Engine options read outside their engines' files, so kept here
	 * (their rows are the engines', io/engine.h): hipri, which two
	 * engines take (io_uring IOPOLL, pvsync2 RWF_HIPRI), force_async,
	 * which io_uring and io_uring_cmd take (their rows are in separate
	 * files, so the value has one place both know), and cpuio's
	 * exit_on_io_done, which the run acts on (run.c).
	 */
	int hipri;
	uint32_t force_async;		/* every Nth SQE gets IOSQE_ASYNC; 0 = none */
	int exit_on_io_done;

	/* time */
	uint64_t runtime_us;		/* 0 = until io_size is done */
	int time_based;
	uint64_t ramp_time_us;
	uint64_t startdelay_us;
	uint32_t loops;

	/* jobs */
	uint32_t numjobs;
	int group_reporting;
	int sig_figs;			/* significant_figures: digits of the text's rates and sizes */
	int thread;
	cpu_set_t cpus_allowed;
	int cpus_allowed_set;
	int cpus_allowed_split;		/* cpus_allowed_policy=split */
	int stonewall;
	int new_group;

	/* rate: per direction, 0 = unlimited */
	uint64_t rate[DDIR_NR];		/* bytes/s */
	uint64_t rate_iops[DDIR_NR];
	enum rate_process rate_process;
	int submit_offload;		/* io_submit_mode=offload (worker.c) */
	int serialize_overlap;		/* hold an I/O back while one it overlaps is in flight */
	/* flow control between jobs (flow.h) */
	uint32_t flow;			/* weight, 0 = none */
	uint32_t flow_id;
	uint64_t flow_watermark;	/* slack in I/Os (fio's default 1024) */
	uint64_t flow_sleep_us;

	/* reporting */
	double percentile_list[JOB_MAX_PERCENTILES];
	unsigned percentile_nr;
	int clat_percentiles;
	int lat_percentiles;
	int slat_percentiles;
	int disable_lat, disable_clat, disable_slat;
	/* fio compatibility (docs/compat.md): see docs/usage.md "fio options with notes" */
	int gtod_reduce;		/* sets the disable_* above; iotrial still times I/Os */
	int disable_bw;			/* accepted; bw/iops samples are still kept */
	int disk_util;			/* 0: this job's targets get no disk_util entry */
	int nice;			/* -20..19, applied to the job's thread */
	int exitall;			/* when this job ends, stop every other */
	int exitall_on_error;		/* when this job fails, stop every other */
	struct ioerr_cfg ioerr;		/* continue_on_error, ignore_error (ioerr.h) */
	struct numa_cfg numa;		/* numa_cpu_nodes, numa_mem_policy (numa.h) */
	struct cmdprio_cfg cmdprio;	/* cmdprio*, prio, prioclass, log_prio (cmdprio.h) */
	/* write-buffer contents (buffer.h) */
	int zero_buffers, refill_buffers, scramble_buffers;
	uint32_t buffer_compress_percentage;	/* 0 = unset */
	uint32_t buffer_compress_chunk;		/* bytes; 0 = the block size */
	uint32_t dedupe_percentage;
	int dedupe_mode_ws;			/* dedupe_mode=working_set */
	uint32_t dedupe_ws_pct;			/* dedupe_working_set_percentage (default 5) */
	int dedupe_global;			/* working sets shared across the run's threads */
	char *buffer_pattern;			/* as given; parsed by buffer.c */
	/* data verification (verify.h) */
	int verify_method;			/* enum verify_method; 0 = none */
	int do_verify;				/* default 1 */
	uint32_t verify_interval;		/* 0 = bs */
	char *verify_pattern;			/* as given; buffer_pattern's syntax */
	int verify_fatal;
	int verify_only;			/* no writes: check an earlier run's data */
	uint64_t verify_backlog;		/* check every N written blocks (0 = at the end) */
	uint64_t verify_backlog_batch;		/* blocks checked each time (0 = verify_backlog) */
	int verify_dump;			/* a bad interval: .received/.expected files */
	uint32_t verify_async;			/* fio's offload threads: accepted, checks stay inline */
	uint32_t verify_offset;			/* the header moved this far into each interval */
	int experimental_verify;		/* fio regenerates offsets: the same blocks checked */
	int verify_state_save;			/* default 1: a writing job leaves its state file */
	int verify_state_load;			/* check only what the saved run wrote */
	/* thinktime: a pause after every thinktime_blocks I/Os (once they completed) */
	uint64_t thinktime_us, thinktime_spin_us;
	uint32_t thinktime_blocks;		/* default 1 */
	uint64_t number_ios;			/* 0 = no cap */
	int exit_what;				/* exitall stops: 0 group, 1 stonewall, 2 all */
	char *wait_for;				/* start when the job of this name is done */
	char *write_iolog;			/* iolog.h: record the I/Os issued here */
	char *read_iolog;			/* replay this log instead of generating I/O */
	int replay_no_stall;			/* replay as fast as possible, not at the logged times */
	uint32_t read_iolog_max_len;		/* its largest I/O (set when validated): buffers fit it */
	uint64_t rate_min[DDIR_NR];		/* bytes/s a direction must keep up (0 = none) */
	uint64_t rate_iops_min[DDIR_NR];
	uint32_t rate_cycle_ms;			/* window of the check (default 1000) */
	int rate_min_set;			/* any of the above: set by validation */
	struct lat_target_cfg lat_target;	/* latency_target, _window, _percentile, _run */
	int error_dump;				/* print each error continue_on_error lets pass */
	int unified_rw_reporting;
	int kb_base;			/* 1024 (default) or 1000 */
	enum clock_mode clocksource;	/* AUTO: iotrial picks (and records which) */

	/* time series and logs (docs/time-series.md) */
	uint64_t interval_us;		/* iotrial: per-interval sample period */
	uint64_t series_max;		/* iotrial: intervals kept in the result (0 = all) */
	char *write_bw_log;
	char *write_iops_log;
	char *write_lat_log;
	char *write_hist_log;
	uint32_t log_avg_msec;
	uint32_t log_hist_msec;
	int log_max_value;		/* log_window_value: 0 avg, 1 max, 2 both */
	int log_offset;
	int per_job_logs;
	uint64_t log_compression;	/* bytes per compressed chunk (0: none) */
	int log_store_compressed;	/* logs as fio's .fz files (fiolog_fz.h) */

	/* steady state (docs/time-series.md) */
	enum ss_metric ss_metric;
	double ss_limit;
	int ss_pct;			/* limit is a percentage of the mean */
	uint64_t ss_dur_us;
	uint64_t ss_ramp_us;
	/* iotrial: which rule finds the reported steady window, and SNIA PTS's */
	enum ss_report steady_report;
	uint32_t snia_window;		/* rounds, >= 2 */
	double snia_range_pct;		/* max - min <= this % of the mean */
	double snia_slope_pct;		/* |slope| x (W - 1) <= this % of the mean */
	uint64_t snia_round_us;		/* 0 = one series_interval per round */
	enum snia_metric snia_metric;
	int snia_stop;			/* stop the job once SNIA steady state holds */

	/* options as typed, for JSON "job options" and --showcmd */
	struct job_kv *opts;
	size_t opts_nr;

	/* where the job came from, for error messages: "file:line" or "command line" */
	char origin[256];

	/* MPI mode (mpirank.h): not an option.  With nranks > 1, generated file
	 * names end in ".rank<rank>" so ranks do not share targets by accident. */
	unsigned rank, nranks;
};

/* Set every field to fio's default. */
void job_init(struct job *j);

/* Release what @j owns; @j may then be re-initialised. */
void job_free(struct job *j);

/* Deep copy @src into @dst (which must not own anything). Returns 0 or -ENOMEM. */
int job_copy(struct job *dst, const struct job *src);

/* Append key=val to @j's typed-options list (val may be NULL). Returns 0 or -ENOMEM. */
int job_kv_add(struct job *j, const char *key, const char *val);

/* Drop @j's typed-options list (a job made from a [global] template starts
 * with none of its own). */
void job_kv_clear(struct job *j);

/* True if the job issues any write or trim. */
static inline int job_writes(const struct job *j)
{
	return (j->rw & (RW_WRITE | RW_TRIM | RW_TRIMWRITE)) != 0;
}

/*
 * Fill @e with "job 'x' (file:line): <why>" (EXIT_USAGE) and return -EINVAL:
 * the one shape of every validation message about a job.
 */
int job_err(struct err *e, const struct job *j, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The name code written against job.h knows for ddir_name() (ddir.h). */
#define job_ddir_name(d) ddir_name(d)

#endif
