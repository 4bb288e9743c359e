/*
 * cmdline: fio's command line turned into jobs plus process settings.
 *
 * fio's rules: options before the first --name are global defaults for every
 * job, including those of job files; --name=X starts a job and the options
 * after it belong to it; --name=global starts a global section (options after
 * it are defaults for the jobs after it).  Positional arguments are job files
 * whose jobs start from the command-line globals (a file's [global] then
 * overrides them).  Command-line jobs come first, then each file's, in order.
 * A job option takes --opt=val or --opt val; a flag (time_based, ...) only
 * --flag or --flag=0|1.  --set KEY=VALUE (iotrial's own) sets an option in
 * every job after all of that, so it wins over the job files.  Jobs are validated; --readonly refuses a job that
 * writes or trims.  numjobs is not expanded: the runner clones.
 *
 * Process options with a value take --opt=val or --opt val.  Times
 * (--status-interval, --eta-newline) read a bare number as seconds and must
 * be at least 1ms, as in fio.
 */
#ifndef IOTRIAL_CMDLINE_H
#define IOTRIAL_CMDLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */
#include "lib/err.h"
#include "model/job.h"
#include "measure/idleprof.h"	/* enum idleprof_mode */

/* --output-format bits (a comma list may set several). */
enum {
	CMDLINE_FMT_NORMAL = 1u << 0,
	CMDLINE_FMT_TERSE = 1u << 1,	/* also --minimal */
	CMDLINE_FMT_JSON = 1u << 2,
	CMDLINE_FMT_JSONPLUS = 1u << 3,
	CMDLINE_FMT_SUMMARY = 1u << 4,	/* the one-screen table alone (report_summary.h) */
};

enum cmdline_eta { CMDLINE_ETA_AUTO, CMDLINE_ETA_ALWAYS, CMDLINE_ETA_NEVER };

/*
 * The terse versions fio 3.33 writes: 2..5 (3 is the default).  Here, where
 * --terse-version is read; report/report_terse.c writes each of them.
 */
#define CMDLINE_TERSE_MIN 2
#define CMDLINE_TERSE_MAX 5

struct cmdline {
	struct job *jobs;		/* validated jobs, in order (numjobs not expanded) */
	size_t jobs_nr;
	size_t jobs_cap;		/* allocated (doubling: see vec.h) */
	struct job_kv *globals;		/* JSON "global options" as typed: the command line
					 * before the first --name and --name=global sections,
					 * then the job files' [global] sections */
	size_t globals_nr, globals_cap;
	char **files;			/* job files, as given */
	size_t files_nr;
	char **sections;		/* --section=NAME (repeatable, or a comma list) */
	size_t sections_nr;
	char **sets;			/* --set=KEY=VALUE (repeatable): set in every job
					 * after the command line and job files, so it wins */
	size_t sets_nr;

	char *output;			/* --output=FILE; NULL = stdout */
	unsigned formats;		/* CMDLINE_FMT_*; NORMAL when not given */
	int terse_version;		/* --terse-version=2..5 (default 3) */
	int parse_only;			/* --parse-only: validate and stop (no job: no error) */
	int debug_parse;		/* --debug=parse: trace the options (opt_debug_parse) */
	int debug_random;		/* --debug=random: each job's random seeds */
	int showcmd;			/* --showcmd: print each job as a command line */
	int readonly;			/* --readonly */
	char *aux_path;			/* --aux-path=DIR: verify state and dump files go there */
	int bandwidth_log;		/* --bandwidth-log (-b): agg-*_bw.log (agglog.h) */
	char *inflate_log;		/* --inflate-log=FILE: print it (parsing stopped there) */
	int allow_output_device;	/* --allow-output-device: --output, --status-output
					 * and logs may name a block device */
	uint64_t status_interval_us;	/* --status-interval (bare: seconds, >= 1ms); 0 = off */
	char *status_output;		/* --status-output=FILE: the status lines, one JSON
					 * object each, go there (needs --status-interval) */
	enum cmdline_eta eta;		/* --eta=auto|always|never */
	uint64_t eta_interval_us;	/* --eta-interval: the ETA rates' period; 0 = 1 s */
	int eta_newline;		/* --eta-newline given */
	uint64_t eta_newline_us;	/* its period (bare: seconds, >= 1ms) */
	int version;			/* --version (parsing stopped there) */
	int help;			/* --help (parsing stopped there) */
	int cmdhelp;			/* --cmdhelp[=opt] (parsing stopped there) */
	char *cmdhelp_opt;		/* the option asked about, NULL = all */

	/* --preset=NAME (preset.h): the preset's jobs are the job list, the other
	 * options typed with it override its own; it cannot be mixed with --name
	 * jobs or job files */
	char *preset;			/* the name given */
	char *preset_text;		/* the job file that was parsed: the preset with
					 * the command-line options appended to each job */
	enum idleprof_mode idle_prof;	/* --idle-prof (calibrate: parsing stopped there) */
	int history;			/* --history[=FILE]: store the run (docs/history.md) */
	char *history_file;		/* its FILE, NULL = $IOTRIAL_HISTORY or the default */
};

/*
 * Parse @argv (argv[0] is the program) into @cl, which the call zeroes first.
 * When --version, --help or --cmdhelp is met, parsing stops there and returns
 * 0 with the flag set and no jobs.  Otherwise at least one job is required.
 * Returns 0 or -errno with @e filled (EXIT_USAGE for bad input, EXIT_UNSAFE
 * for a --readonly refusal).  Call cmdline_free() in both cases.
 */
int cmdline_parse(int argc, char **argv, struct cmdline *cl, struct err *e);

/*
 * The process options --help lists (those iotrial refuses are left out), one
 * "  --name=VALUE   help" line each, from the same list the parser uses.
 */
void cmdline_help(FILE *f);

/* Release everything @cl owns and zero it. */
void cmdline_free(struct cmdline *cl);

#endif
