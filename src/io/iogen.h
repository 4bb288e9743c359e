/*
 * iogen: the per-thread I/O generator: which file, offset, length and
 * direction the next I/O has.
 *
 * Semantics follow fio (HOWTO: rw, bs, bsrange, bssplit, blockalign,
 * offset, size, io_size, loops, nrfiles, random_distribution,
 * percentage_random, norandommap, randrepeat, randseed):
 * - Each file has a region [offset, offset + size/nrfiles), clipped to the
 *   file and rounded down to the smallest block size.
 * - Sequential I/O advances by the length issued (plus the rw=read:<bytes>
 *   hole) and wraps to the region start when the next block would not fit.
 * - Random I/O picks an aligned offset (blockalign, default the smallest
 *   block size) uniformly, or by zipf/pareto/normal, or through the random
 *   map so that each block is done exactly once per pass.  The map is used
 *   when the job is uniform random, norandommap is off and every direction
 *   has one alignment equal to its smallest block (otherwise fio drops it
 *   too).  A random I/O that runs into blocks already done is shortened, as
 *   fio does.
 * - A loop issues I/Os while fewer than io_size (default: the regions' total)
 *   bytes were issued in it, `loops` times.  Positions and maps carry on
 *   from loop to loop; a loop that starts exactly at the end of a pass
 *   restarts the random streams too, so loops=N repeats one pattern (as fio).
 *   time_based jobs never end here: they wrap.  trimwrite pairs count once.
 * - Files are used round-robin, one I/O each.  Mixed jobs choose the
 *   direction of every I/O independently, read with rwmixread % chance.
 * - Each random choice has its own stream (offset, direction, size) seeded
 *   from randseed, or a constant (randrepeat=1), and the thread index, so that
 *   runs repeat exactly and numjobs clones differ.
 * iogen_next() is inline: single-file, single-direction, fixed-size
 * sequential or uniform random jobs (with or without the random map) take a
 * few instructions; the rest calls iogen_next_slow().
 */
#ifndef IOTRIAL_IOGEN_H
#define IOTRIAL_IOGEN_H

#include <stdint.h>
#include "io/engine.h"
#include "lib/err.h"
#include "model/job.h"
#include "lib/rand.h"
#include "io/zone.h"

enum { IOGEN_SLOW = 0, IOGEN_FAST_SEQ = 1, IOGEN_FAST_RAND = 2, IOGEN_FAST_MAP = 3 };
enum { IOGEN_SKEW_NONE = -1, IOGEN_SKEW_ZONED = -2 };	/* besides enum rand_skew_kind */

struct iogen_file {
	uint64_t start, end;		/* the region, end exclusive */
	uint64_t pos[DDIR_NR];		/* next sequential offset */
	uint64_t nblocks[DDIR_NR];	/* random positions: start + k * ba, k < nblocks */
	struct rand_map map;		/* when iogen.use_map */
	struct rand_skew skew[DDIR_NR];	/* when iogen.skew != IOGEN_SKEW_NONE */
	uint64_t scatter_mul[DDIR_NR];	/* zipf/pareto: rank -> block bijection */
	uint64_t scatter_add[DDIR_NR];
	struct zone_pos zone;		/* zonemode=strided: the current zone */
	struct rand_fullperiod fp[DDIR_NR];	/* random_generator=lfsr */
	uint64_t win_done;		/* openfiles window: bytes done in it this pass */
	int win;			/* openfiles window: 0 waiting, 1 open, 2 done */
	struct rand_fullperiod zfp;	/* zone_map: the current zone pass's order */
	uint64_t zfp_left;		/* its blocks not yet issued (0: start a pass) */
};

struct iogen {
	/* hot fields first */
	int fast;			/* IOGEN_FAST_* */
	uint8_t ddir0;			/* the direction when fast */
	uint32_t bs0;			/* the block size when fast */
	uint64_t ba0;
	int64_t loop_left;		/* bytes still to issue in this loop */
	struct iogen_file *files;
	unsigned nr_files, cur_file;
	struct rand_state rs_off, rs_ddir, rs_bs;

	/* configuration */
	unsigned dirs;			/* bit (1 << ddir) per direction issued */
	int ddir_single;		/* the direction when only one */
	int mixed;			/* reads and writes, by rwmixread */
	int read_always, read_never;
	uint64_t read_thresh;		/* rand_u64 < read_thresh: read */
	int trimwrite;
	int random;
	int use_map;
	/*
	 * Restart the random streams at every loop even without the random map
	 * (set by the worker): fio 3.33 with randrepeat=1 replays each loop's
	 * directions and offsets under libaio and io_uring, but not under its
	 * synchronous engines or null (measured; docs/usage.md).
	 */
	int loop_restart;
	int randrepeat;			/* the job's randrepeat (or an explicit randseed) */
	int skew;			/* enum rand_skew_kind or IOGEN_SKEW_NONE/_ZONED */
	/* zoned: cumulative access thresholds (of 2^64) and zone bounds (per mille x 10) */
	uint64_t zone_thresh[JOB_MAX_ZONES];
	uint32_t zone_lo[JOB_MAX_ZONES], zone_hi[JOB_MAX_ZONES];	/* percent of the region */
	unsigned zone_nr;
	int unaligned;			/* bs_unaligned */
	uint64_t pct_rand_thresh[DDIR_NR];	/* UINT64_MAX: always random */
	unsigned seq_nr;		/* rw=randread:N: a new random offset every N */
	unsigned seq_left;
	uint64_t seq_hole;		/* rw=read:<bytes>: skipped after each I/O */
	int seq_back;			/* rw=read:-<bytes>: stepped back instead */
	uint64_t bs_min[DDIR_NR], bs_max[DDIR_NR], ba[DDIR_NR];
	uint64_t bs_fixed[DDIR_NR];	/* 0 unless one size */
	uint64_t range_nr[DDIR_NR];	/* bsrange: number of sizes to choose from */
	unsigned split_nr[DDIR_NR];
	uint64_t split_bs[DDIR_NR][JOB_MAX_BSSPLIT];
	uint64_t split_thresh[DDIR_NR][JOB_MAX_BSSPLIT];	/* cumulative, scaled to 2^64 */
	uint64_t unit;			/* map block size */
	unsigned unit_shift;		/* log2(unit), or 0 with unit_pow2 = 0 */
	int unit_pow2;
	uint64_t io_limit;		/* bytes per loop */
	uint64_t loops_left;		/* loops still to start; UINT64_MAX: time_based */
	struct rand_state seed_off, seed_ddir, seed_bs;	/* the streams at the start */
	int zoned;			/* zonemode=strided (zone.h) */
	int fullperiod;			/* random_generator=lfsr: every block once per pass */
	struct zone_cfg zcfg;
	uint64_t zone_min_bs;
	int pend;			/* trimwrite: a write of the block just trimmed */
	struct io_u pend_io;
	int zone_map;			/* strided random I/O: each block of a zone once per pass */
	unsigned open_max;		/* openfiles below nrfiles: files in use at once (0: all) */
	/* the seeds of the offset, direction, block size and layout streams
	 * (--debug=random shows them; fio numbers its seeds the same way) */
	uint64_t rand_seeds[4];
};

/*
 * Set up @g for thread @thread_index (0 for the first numjobs clone) of @j on
 * @nr_files files of @file_sizes bytes.  0, -EINVAL (+ @e naming the job,
 * option and values) for an impossible region or option, or -ENOMEM.
 */
int iogen_init(struct iogen *g, const struct job *j, unsigned thread_index,
	       const uint64_t *file_sizes, unsigned nr_files, struct err *e);

/*
 * openfiles=@n below the file count: at most @n files are in use at once, as
 * fio keeps at most n open: I/O goes round-robin over the first n, and a file
 * whose region was done makes room for the next one (the window starts over
 * when every file was done).  Call after iogen_init*; 0 or >= nr_files: off.
 */
void iogen_set_openfiles(struct iogen *g, unsigned n);

/*
 * The same, for regions already worked out by file_setup(): file i's I/O
 * region is [@starts[i], @starts[i] + @lens[i]) (offset, offset_increment and
 * size were applied there); only the rounding to whole blocks happens here.
 */
int iogen_init_regions(struct iogen *g, const struct job *j, unsigned thread_index,
		       const uint64_t *lens, const uint64_t *starts, unsigned nr_files,
		       struct err *e);

void iogen_free(struct iogen *g);

int iogen_next_slow(struct iogen *g, struct io_u *io);

/*
 * The random map's pick for one block-sized I/O: a uniform block, or the next
 * free one when it is done already; marked done; a full map starts the next
 * pass.  The same as the general path (rand_offset) for this case, with the
 * common step (the block's word does not fill up) inline.
 */
static inline uint64_t iogen_map_pick(struct rand_map *m, struct rand_state *rs)
{
	uint64_t k = rand_below(rs, m->nr), *w, bit;

	if (rand_map_isset(m, k))
		k = rand_map_next_free(m, k);
	w = &m->lvl[0][k >> 6];
	bit = 1ull << (k & 63);
	if (__builtin_expect((*w | bit) != ~0ull, 1)) {
		*w |= bit;
		m->used++;
	} else {
		rand_map_set_run(m, k, 1);	/* the word fills: the levels above learn it */
	}
	if (__builtin_expect(rand_map_full(m), 0))
		rand_map_reset(m);
	return k;
}

/* Fill io->file, offset, len, ddir.  0, or 1 when the job has issued all it should. */
static inline int iogen_next(struct iogen *g, struct io_u *io)
{
	if (__builtin_expect(g->fast != IOGEN_SLOW && g->loop_left > 0, 1)) {
		struct iogen_file *f = g->files;
		uint64_t off;

		if (g->fast == IOGEN_FAST_SEQ) {
			off = f->pos[g->ddir0];
			if (off + g->bs0 > f->end)
				off = f->start;
			f->pos[g->ddir0] = off + g->bs0;
		} else if (g->fast == IOGEN_FAST_RAND) {
			off = f->start + rand_below(&g->rs_off, f->nblocks[g->ddir0]) * g->ba0;
		} else {
			off = f->start + iogen_map_pick(&f->map, &g->rs_off) * g->ba0;
		}
		io->file = 0;
		io->offset = off;
		io->len = g->bs0;
		io->ddir = g->ddir0;
		g->loop_left -= g->bs0;
		return 0;
	}
	return iogen_next_slow(g, io);
}

#endif
