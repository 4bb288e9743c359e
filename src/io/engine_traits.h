/*
 * engine_traits: what kind of engine a name is, the one answer to "is it
 * synchronous, does it need files, does it reach a device" for the worker,
 * the run, the checks and the verdicts.  A table keyed by name, depending
 * on nothing (not on the engine registry), so that code that only judges
 * results (analysis/, trial/) can ask it about engines this build does not
 * have, or that only fio has and iotrial reads results of.
 */
#ifndef IOTRIAL_ENGINE_TRAITS_H
#define IOTRIAL_ENGINE_TRAITS_H

enum {
	ENGINE_F_SYNC = 1u << 0,	/* completes in queue(): no slat, depth 1 */
	ENGINE_F_NOFILES = 1u << 1,	/* needs no open file (null) */
	/*
	 * The engine makes, looks at or removes its targets itself (filecreate,
	 * dircreate, dirstat, dirdelete): run.c resolves the names and regions
	 * (file_plan_only) but creates and opens nothing; every fd is -1.
	 */
	ENGINE_F_OWNFILES = 1u << 2,
	/*
	 * Its I/O reaches no storage device (null, cpuio, exec, page_fault, the
	 * file-operation engines, ftruncate: memory, CPU or metadata only):
	 * device-level checks and verdicts do not apply.  fio's FIO_DISKLESSIO.
	 */
	ENGINE_F_NODEVICE = 1u << 3,
	/*
	 * Its commands go to the device's own char node (io_uring_cmd: NVMe
	 * commands on /dev/ngXnY) and pass no block layer: the block device's
	 * counters (/proc/diskstats) never see them, the target's size is the
	 * namespace's (identify), and trims are the engine's own commands.
	 */
	ENGINE_F_PASSTHRU = 1u << 4,
};

/*
 * The traits (ENGINE_F_*) of the engine named @name: iotrial's engines,
 * built in this build or not, and fio's that iotrial reads results of
 * (vsync, pvsync, splice); 0 for any other name and for NULL.  Looked up
 * once per job, never per I/O.
 */
unsigned engine_traits(const char *name);

#endif
