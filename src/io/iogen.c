/*
 * iogen: set-up and the general path of the I/O generator (see iogen.h).
 *
 * Everything that can be decided once is decided in iogen_init(): block
 * size tables as cumulative thresholds on a 64-bit random number, regions,
 * random positions per direction, whether the random map applies, so that
 * iogen_next_slow() does no division in the common cases.
 */
#include "io/iogen.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */

/* p/100 as a threshold on a uniform 64-bit number (p < 100). */
static uint64_t pct_thresh(uint64_t p)
{
	return (uint64_t)(((unsigned __int128)p << 64) / 100);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* zoned: thresholds from the access shares, bounds from the size shares. */
static void iogen_init_zones(struct iogen *g, const struct job *j)
{
	unsigned z, acc = 0, pos = 0;

	g->skew = IOGEN_SKEW_ZONED;
	g->zone_nr = j->zone_nr;
	for (z = 0; z < j->zone_nr; z++) {
		acc += j->zone_access[z];
		g->zone_thresh[z] = acc >= 100 ? UINT64_MAX : pct_thresh(acc);
		g->zone_lo[z] = pos;
		pos += j->zone_size[z];
		g->zone_hi[z] = pos;
	}
}

/* Directions from rw=; fills dirs, mixed, trimwrite, random. */
static int init_dirs(struct iogen *g, const struct job *j, struct err *e)
{
	unsigned rw = j->rw;

	g->random = (rw & RW_RAND) != 0;
	if (rw & RW_TRIMWRITE) {
		g->trimwrite = 1;
		g->dirs = (1u << DDIR_TRIM) | (1u << DDIR_WRITE);
		return 0;
	}
	if (rw & RW_READ)
		g->dirs |= 1u << DDIR_READ;
	if (rw & RW_WRITE)
		g->dirs |= 1u << DDIR_WRITE;
	if (rw & RW_TRIM)
		g->dirs |= 1u << DDIR_TRIM;
	if (g->dirs == ((1u << DDIR_READ) | (1u << DDIR_WRITE))) {
		g->mixed = 1;
		g->read_always = j->rwmixread >= 100;
		g->read_never = j->rwmixread == 0;
		g->read_thresh = g->read_always ? 0 : pct_thresh(j->rwmixread);
		return 0;
	}
	if (g->dirs == (1u << DDIR_READ) || g->dirs == (1u << DDIR_WRITE) ||
	    g->dirs == (1u << DDIR_TRIM)) {
		g->ddir_single = __builtin_ctz(g->dirs);
		return 0;
	}
	return err_set(e, -EINVAL, EXIT_USAGE, "%s: job '%s': rw: unsupported combination of directions (0x%x)",
		       j->origin, j->name, rw);
}

/* Block sizes of direction @d: fixed, bsrange or bssplit. */
static int init_bs(struct iogen *g, const struct job *j, int d, struct err *e)
{
	uint64_t lo = j->bs_min[d] ? j->bs_min[d] : j->bs[d];
	uint64_t hi = j->bs_max[d] ? j->bs_max[d] : j->bs[d];
	unsigned i, n = j->bssplit_nr[d];
	uint64_t wsum = 0, cum = 0;

	if (n) {
		lo = UINT64_MAX;
		hi = 0;
		for (i = 0; i < n; i++) {
			wsum += j->bssplit[d][i].perc;
			if (j->bssplit[d][i].bs < lo)
				lo = j->bssplit[d][i].bs;
			if (j->bssplit[d][i].bs > hi)
				hi = j->bssplit[d][i].bs;
		}
		if (!wsum || n > JOB_MAX_BSSPLIT)
			return err_set(e, -EINVAL, EXIT_USAGE, "%s: job '%s': bssplit for %s: weights sum to %llu",
				       j->origin, j->name, ddir_name(d), (unsigned long long)wsum);
		for (i = 0; i < n; i++) {
			cum += j->bssplit[d][i].perc;
			g->split_bs[d][i] = j->bssplit[d][i].bs;
			g->split_thresh[d][i] = cum >= wsum ? UINT64_MAX :
				(uint64_t)(((unsigned __int128)cum << 64) / wsum);
		}
		g->split_nr[d] = n;
	}
	if (!lo || lo > hi || hi > UINT32_MAX)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: job '%s': block size for %s: %llu-%llu is not a valid range",
			       j->origin, j->name, ddir_name(d), (unsigned long long)lo, (unsigned long long)hi);
	g->bs_min[d] = lo;
	g->bs_max[d] = hi;
	g->bs_fixed[d] = (!n && lo == hi) ? lo : 0;
	if (!n && lo != hi)
		g->range_nr[d] = g->unaligned ? hi - lo + 1 : hi / lo;
	g->ba[d] = j->blockalign[d] ? j->blockalign[d] : lo;
	return 0;
}

static int apply_region(struct iogen *g, const struct job *j, unsigned i, uint64_t start,
			uint64_t len, uint64_t fsize, uint64_t bs_all_min, struct err *e);

/* The region of file @i from the job's options; fails when not even the smallest block fits. */
static int init_region(struct iogen *g, const struct job *j, unsigned thread_index,
		       unsigned i, uint64_t fsize, uint64_t bs_all_min, struct err *e)
{
	uint64_t start, len;

	if (j->offset_pct)
		start = (fsize / 100 * j->offset_pct + fsize % 100 * j->offset_pct / 100 +
			 bs_all_min - 1) / bs_all_min * bs_all_min;
	else
		start = j->offset;
	start += j->offset_increment * thread_index;
	if (start >= fsize)
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "%s: job '%s': offset=%llu (thread %u) is at or past the end of file %u (%llu bytes)",
			       j->origin, j->name, (unsigned long long)start, thread_index, i,
			       (unsigned long long)fsize);
	if (j->size)
		len = j->size / g->nr_files;
	else if (j->size_pct)
		len = fsize / 100 * j->size_pct + fsize % 100 * j->size_pct / 100;
	else
		len = fsize - start;
	if (len > fsize - start)
		len = fsize - start;
	return apply_region(g, j, i, start, len, fsize, bs_all_min, e);
}

/* Use [@start, @start + @len) of file @i, rounded down to whole blocks. */
static int apply_region(struct iogen *g, const struct job *j, unsigned i, uint64_t start,
			uint64_t len, uint64_t fsize, uint64_t bs_all_min, struct err *e)
{
	struct iogen_file *f = &g->files[i];
	uint64_t need = 0;
	int d;

	if (!g->unaligned)
		len -= len % bs_all_min;
	for (d = 0; d < DDIR_NR; d++)
		if ((g->dirs & (1u << d)) && g->bs_min[d] > need)
			need = g->bs_min[d];
	if (len < need || !len)
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "%s: job '%s': bs=%llu is larger than the I/O region of file %u "
			       "(%llu bytes usable from offset %llu of %llu; size=%llu)",
			       j->origin, j->name, (unsigned long long)need, i, (unsigned long long)len,
			       (unsigned long long)start, (unsigned long long)fsize,
			       (unsigned long long)j->size);
	f->start = start;
	f->end = start + len;
	for (d = 0; d < DDIR_NR; d++) {
		f->pos[d] = start;
		if (g->dirs & (1u << d))
			f->nblocks[d] = (len - g->bs_min[d]) / g->ba[d] + 1;
	}
	g->io_limit += len;
	return 0;
}

/* Skewed distributions: per file and direction, hot ranks scattered by a bijection. */
static int init_skew(struct iogen *g, const struct job *j, struct iogen_file *f,
		     struct rand_state *layout, struct err *e)
{
	static const int kinds[] = { [RAND_DIST_ZIPF] = RAND_SKEW_ZIPF,
		[RAND_DIST_PARETO] = RAND_SKEW_PARETO, [RAND_DIST_NORMAL] = RAND_SKEW_NORMAL };
	static const char *const names[] = { [RAND_DIST_ZIPF] = "zipf",
		[RAND_DIST_PARETO] = "pareto", [RAND_DIST_NORMAL] = "normal" };
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		uint64_t n = f->nblocks[d], mul;

		if (!(g->dirs & (1u << d)))
			continue;
		if (rand_skew_init(&f->skew[d], (enum rand_skew_kind)kinds[j->random_distribution], n,
				   j->rand_param))
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "%s: job '%s': random_distribution=%s:%g: parameter out of range "
				       "(zipf > 0, 0 < pareto < 1, 0 <= normal <= 100)",
				       j->origin, j->name, names[j->random_distribution], j->rand_param);
		if (g->skew == RAND_SKEW_NORMAL)
			continue;	/* a bell around the middle: keep its locality */
		/* an odd multiplier near n x golden ratio, coprime with n: hot blocks spread out */
		mul = (uint64_t)((double)n * 0.6180339887) | 1;
		while (n > 1 && gcd_u64(mul, n) != 1)
			mul += 2;
		f->scatter_mul[d] = n > 1 ? mul % n : 0;
		f->scatter_add[d] = rand_below(layout, n);
	}
	return 0;
}

static void init_random_map_choice(struct iogen *g, const struct job *j)
{
	uint64_t u = 0;
	int d;

	if (!g->random || j->norandommap || g->skew != IOGEN_SKEW_NONE || g->seq_nr > 1 ||
	    g->unaligned || g->zoned || g->fullperiod)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		if (!(g->dirs & (1u << d)))
			continue;
		if (g->pct_rand_thresh[d] != UINT64_MAX || g->ba[d] != g->bs_min[d])
			return;
		if (u && g->bs_min[d] != u)
			return;
		u = g->bs_min[d];
	}
	g->use_map = 1;
	g->unit = u;
	g->unit_pow2 = (u & (u - 1)) == 0;
	g->unit_shift = (unsigned)__builtin_ctzll(u);
}

static void init_fast(struct iogen *g)
{
	int d = -1, k;

	for (k = 0; k < DDIR_NR; k++)
		if (g->dirs == (1u << k))
			d = k;
	if (g->nr_files != 1 || d < 0 || g->trimwrite || !g->bs_fixed[d] || g->seq_hole || g->zoned ||
	    g->fullperiod)
		return;
	g->ddir0 = (uint8_t)d;
	g->bs0 = (uint32_t)g->bs_fixed[d];
	g->ba0 = g->ba[d];
	if (g->use_map) {
		/* one block per I/O (bs = unit = ba): never shortened, never past the end */
		if (g->unit == g->bs_fixed[d] && g->ba[d] == g->unit)
			g->fast = IOGEN_FAST_MAP;
	} else if (!g->random) {
		g->fast = IOGEN_FAST_SEQ;
	} else if (g->skew == IOGEN_SKEW_NONE && g->seq_nr <= 1 && g->pct_rand_thresh[d] == UINT64_MAX) {
		g->fast = IOGEN_FAST_RAND;
	}
}

static int init_options(struct iogen *g, const struct job *j, unsigned nr_files, struct err *e)
{
	int d, r;

	g->nr_files = nr_files;
	g->unaligned = j->bs_unaligned;
	g->skew = IOGEN_SKEW_NONE;
	if (j->random_distribution == RAND_DIST_ZIPF)
		g->skew = RAND_SKEW_ZIPF;
	else if (j->random_distribution == RAND_DIST_PARETO)
		g->skew = RAND_SKEW_PARETO;
	else if (j->random_distribution == RAND_DIST_NORMAL)
		g->skew = RAND_SKEW_NORMAL;
	else if (j->random_distribution == RAND_DIST_ZONED)
		iogen_init_zones(g, j);
	if (!nr_files || nr_files > 65536)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: job '%s': %u files (1 to 65536 supported)",
			       j->origin, j->name, nr_files);
	r = init_dirs(g, j, e);
	if (r)
		return r;
	for (d = 0; d < DDIR_NR; d++) {
		if (!(g->dirs & (1u << d)))
			continue;
		r = init_bs(g, j, d, e);
		if (r)
			return r;
		g->pct_rand_thresh[d] = j->percentage_random[d] >= 100 ? UINT64_MAX :
					pct_thresh(j->percentage_random[d]);
	}
	if (g->trimwrite) {
		/* the write repeats the trim's block: same sizes */
		g->bs_min[DDIR_WRITE] = g->bs_min[DDIR_TRIM];
		g->ba[DDIR_WRITE] = g->ba[DDIR_TRIM];
	}
	if (g->random)
		g->seq_nr = j->rw_seq_nr > 1 ? j->rw_seq_nr : 0;
	else
		g->seq_hole = j->rw_seq_nr > 1 || j->rw_seq_back ? j->rw_seq_nr : 0;
	g->seq_back = j->rw_seq_back && !g->random;
	return 0;
}

int iogen_init(struct iogen *g, const struct job *j, unsigned thread_index,
	       const uint64_t *file_sizes, unsigned nr_files, struct err *e)
{
	return iogen_init_regions(g, j, thread_index, file_sizes, NULL, nr_files, e);
}

int iogen_init_regions(struct iogen *g, const struct job *j, unsigned thread_index,
		       const uint64_t *file_sizes, const uint64_t *starts, unsigned nr_files,
		       struct err *e)
{
	struct rand_state layout;
	uint64_t seed, bs_all_min = UINT64_MAX;
	unsigned i;
	int d, r;

	memset(g, 0, sizeof(*g));
	r = init_options(g, j, nr_files, e);
	if (r)
		return r;
	for (d = 0; d < DDIR_NR; d++)
		if ((g->dirs & (1u << d)) && g->bs_min[d] < bs_all_min)
			bs_all_min = g->bs_min[d];
	seed = rand_mix(rand_base_seed(j->randrepeat, j->randseed_set, j->randseed), thread_index);
	if (j->allrandrepeat_set && j->allrandrepeat && !j->randseed_set)	/* everything repeats */
		seed = rand_mix(rand_base_seed(1, 0, 0), thread_index);
	g->rand_seeds[0] = rand_mix(seed, RAND_STREAM_OFFSET);
	/* allrandrepeat=0 given: only the offsets repeat (fio's split), the rest is fresh */
	if (j->allrandrepeat_set && !j->allrandrepeat && !j->randseed_set)
		seed = rand_mix(rand_base_seed(0, 0, 0), thread_index);
	g->rand_seeds[1] = rand_mix(seed, RAND_STREAM_DDIR);
	g->rand_seeds[2] = rand_mix(seed, RAND_STREAM_BS);
	g->rand_seeds[3] = rand_mix(seed, RAND_STREAM_LAYOUT);
	rand_seed(&g->rs_off, g->rand_seeds[0]);
	rand_seed(&g->rs_ddir, g->rand_seeds[1]);
	rand_seed(&g->rs_bs, g->rand_seeds[2]);
	rand_seed(&layout, g->rand_seeds[3]);
	g->seed_off = g->rs_off;
	g->seed_ddir = g->rs_ddir;
	g->seed_bs = g->rs_bs;
	g->files = calloc(nr_files, sizeof(*g->files));
	if (!g->files)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", j->name);
	if (j->zonemode == JOB_ZONE_STRIDED) {
		g->zoned = 1;
		g->zcfg.size = j->zonesize;
		g->zcfg.range = j->zonerange ? j->zonerange : j->zonesize;
		g->zcfg.skip = j->zoneskip;
		g->zone_min_bs = bs_all_min;
		g->zone_map = !j->norandommap || j->random_generator == 1;
	}
	/* lfsr: a full-period sequence instead of the random map (uniform offsets only) */
	g->fullperiod = j->random_generator == 1 && g->skew == IOGEN_SKEW_NONE;
	init_random_map_choice(g, j);
	for (i = 0; i < nr_files; i++) {
		struct iogen_file *f = &g->files[i];

		if (starts)
			r = apply_region(g, j, i, starts[i], file_sizes[i], starts[i] + file_sizes[i],
					 bs_all_min, e);
		else
			r = init_region(g, j, thread_index, i, file_sizes[i], bs_all_min, e);
		if (!r && g->use_map && rand_map_init(&f->map, (f->end - f->start) / g->unit))
			r = err_set(e, -ENOMEM, EXIT_INTERNAL,
				    "job '%s': no memory for the random map of file %u (%llu blocks); try norandommap",
				    j->name, i, (unsigned long long)((f->end - f->start) / g->unit));
		if (!r && g->skew >= 0)
			r = init_skew(g, j, f, &layout, e);
		f->zone.start = f->start;
		for (d = 0; g->fullperiod && d < DDIR_NR; d++)
			if (f->nblocks[d])
				rand_fullperiod_init(&f->fp[d], f->nblocks[d],
						     rand_mix(seed, ((uint64_t)i << 8) | (unsigned)d));
		if (r) {
			iogen_free(g);
			return r;
		}
	}
	if (j->io_size)
		g->io_limit = j->io_size;
	if (g->io_limit > INT64_MAX)
		g->io_limit = INT64_MAX;
	g->loop_left = (int64_t)g->io_limit;
	g->loops_left = j->time_based ? UINT64_MAX : (j->loops ? j->loops - 1 : 0);
	g->randrepeat = j->randrepeat || j->randseed_set;
	init_fast(g);
	return 0;
}

void iogen_free(struct iogen *g)
{
	unsigned i;

	if (g->files)
		for (i = 0; i < g->nr_files; i++)
			rand_map_free(&g->files[i].map);
	free(g->files);
	g->files = NULL;
}

/*
 * Did the last loop end exactly at the end of a pass over every file?  Then
 * fio starts the next loop as a fresh run: same seeds, so loops=N repeats the
 * same pattern N times.  A loop that ends mid-pass (io_size < size), or a
 * norandommap job, simply continues (checked against fio 3.33).
 */
static int iogen_pass_complete(const struct iogen *g)
{
	unsigned i;
	int d;

	if (g->random && !g->use_map)
		return 0;
	for (i = 0; i < g->nr_files; i++) {
		const struct iogen_file *f = &g->files[i];

		if (g->use_map) {
			if (f->map.used)
				return 0;
			continue;
		}
		for (d = 0; d < DDIR_NR; d++)
			if ((g->dirs & (1u << d)) && f->pos[d] + g->bs_min[d] <= f->end)
				return 0;
	}
	return 1;
}

/* The next of `loops`: positions and maps carry on (they wrap by themselves). */
void iogen_set_openfiles(struct iogen *g, unsigned n)
{
	g->open_max = n && n < g->nr_files ? n : 0;
	for (unsigned i = 0; i < g->nr_files; i++) {
		g->files[i].win = g->open_max ? i < n : 1;
		g->files[i].win_done = 0;
	}
}

/* openfiles: the next open file round-robin; every file done: the window starts over. */
static unsigned iogen_window_file(struct iogen *g)
{
	unsigned k, fi;

	for (k = 0; k < g->nr_files; k++) {
		fi = g->cur_file;
		if (++g->cur_file == g->nr_files)
			g->cur_file = 0;
		if (g->files[fi].win == 1)
			return fi;
	}
	iogen_set_openfiles(g, g->open_max);
	g->cur_file = 1 % g->nr_files;
	return 0;
}

/* openfiles: @len more bytes on file @fi; a file done closes and admits the next. */
static void iogen_window_account(struct iogen *g, unsigned fi, uint64_t len)
{
	struct iogen_file *f = &g->files[fi];

	f->win_done += len;
	if (f->win_done < f->end - f->start)
		return;
	f->win = 2;
	for (unsigned k = 0; k < g->nr_files; k++)
		if (!g->files[k].win) {
			g->files[k].win = 1;
			return;
		}
}

static void iogen_new_loop(struct iogen *g)
{
	/* randrepeat=0 draws on across loops, as fio does */
	if (g->loops_left != UINT64_MAX && g->randrepeat &&
	    (iogen_pass_complete(g) || (g->loop_restart && !g->use_map))) {
		g->rs_off = g->seed_off;
		g->rs_ddir = g->seed_ddir;
		g->rs_bs = g->seed_bs;
		g->cur_file = 0;
		g->seq_left = 0;
		for (unsigned i = 0; g->zoned && i < g->nr_files; i++) {
			g->files[i].zone.start = g->files[i].start;
			g->files[i].zone.done = 0;
		}
	}
	g->loop_left = (int64_t)g->io_limit;
	if (g->open_max)	/* fio opens the files again, from the first */
		iogen_set_openfiles(g, g->open_max);
}

static int pick_ddir(struct iogen *g)
{
	if (g->trimwrite)
		return DDIR_TRIM;
	if (g->mixed) {
		if (g->read_always)
			return DDIR_READ;
		if (g->read_never)
			return DDIR_WRITE;
		return rand_u64(&g->rs_ddir) < g->read_thresh ? DDIR_READ : DDIR_WRITE;
	}
	return g->ddir_single;
}

static uint64_t pick_len(struct iogen *g, int d)
{
	unsigned i, n = g->split_nr[d];
	uint64_t r;

	if (g->bs_fixed[d])
		return g->bs_fixed[d];
	if (n) {
		r = rand_u64(&g->rs_bs);
		for (i = 0; i + 1 < n; i++)
			if (r < g->split_thresh[d][i])
				break;
		return g->split_bs[d][i];
	}
	r = rand_below(&g->rs_bs, g->range_nr[d]);
	return g->unaligned ? g->bs_min[d] + r : (r + 1) * g->bs_min[d];
}

/*
 * Shorten @len to what is left of the region after @off: the largest bssplit
 * size that fits, or the room rounded down to the smallest size (a valid
 * bsrange size).  The smallest size always fits: offsets are chosen so.
 */
static uint64_t fit_len(const struct iogen *g, const struct iogen_file *f, int d, uint64_t off, uint64_t len)
{
	uint64_t room = f->end - off, best = 0;
	unsigned i;

	if (len <= room)
		return len;
	for (i = 0; i < g->split_nr[d]; i++)
		if (g->split_bs[d][i] <= room && g->split_bs[d][i] > best)
			best = g->split_bs[d][i];
	if (best)
		return best;
	return g->unaligned ? room : room - room % g->bs_min[d];
}

/*
 * zoned: the zone by its share of accesses, then a block uniformly inside the
 * zone's share of the region (fio's random_distribution=zoned; no random map).
 */
static uint64_t zoned_block(struct iogen *g, uint64_t nblocks)
{
	uint64_t r = rand_u64(&g->rs_off), lo, hi;
	unsigned z = 0;

	while (z + 1 < g->zone_nr && r >= g->zone_thresh[z])
		z++;
	lo = (uint64_t)((unsigned __int128)nblocks * g->zone_lo[z] / 100);
	hi = (uint64_t)((unsigned __int128)nblocks * g->zone_hi[z] / 100);
	if (hi <= lo)
		return lo < nblocks ? lo : nblocks - 1;
	return lo + rand_below(&g->rs_off, hi - lo);
}

/* A random offset; with the random map, marks the blocks and may shorten *len. */
static uint64_t rand_offset(struct iogen *g, struct iogen_file *f, int d, uint64_t *len)
{
	uint64_t k, nb, done;

	if (g->use_map) {
		struct rand_map *m = &f->map;

		k = rand_below(&g->rs_off, m->nr);
		if (rand_map_isset(m, k))
			k = rand_map_next_free(m, k);
		nb = g->unit_pow2 ? (*len + g->unit - 1) >> g->unit_shift : (*len + g->unit - 1) / g->unit;
		done = rand_map_set_run(m, k, nb);
		if (done * g->unit < *len)
			*len = done * g->unit;
		if (rand_map_full(m))
			rand_map_reset(m);	/* the pass is complete */
		return f->start + k * g->unit;
	}
	if (g->fullperiod) {
		k = rand_fullperiod_next(&f->fp[d]);
	} else if (g->skew == IOGEN_SKEW_NONE) {
		k = rand_below(&g->rs_off, f->nblocks[d]);
	} else if (g->skew == IOGEN_SKEW_ZONED) {
		k = zoned_block(g, f->nblocks[d]);
	} else {
		k = rand_skew_next(&f->skew[d], &g->rs_off);
		if (f->scatter_mul[d])
			k = (uint64_t)(((unsigned __int128)k * f->scatter_mul[d] + f->scatter_add[d]) %
				       f->nblocks[d]);
	}
	return f->start + k * g->ba[d];
}

/* Sequential or random this time? (percentage_random, rw=randread:N) */
static int want_random(struct iogen *g, int d)
{
	if (!g->random)
		return 0;
	if (g->seq_nr) {
		if (g->seq_left) {
			g->seq_left--;
			return 0;
		}
		g->seq_left = g->seq_nr - 1;
	}
	if (g->pct_rand_thresh[d] == UINT64_MAX)
		return 1;
	return rand_u64(&g->rs_off) < g->pct_rand_thresh[d];
}

/*
 * zonemode=strided: the offset inside the current zone (sequential, wrapping
 * to the zone's start, or uniform), the length fitted to the zone; then the
 * zone moves on once zonesize bytes were done in it (zone.h).
 */
static void iogen_zoned(struct iogen *g, struct iogen_file *f, int d, uint64_t *off, uint64_t *len)
{
	uint64_t lo, hi, o, room;

	zone_bounds(&g->zcfg, &f->zone, f->end, &lo, &hi);
	if (want_random(g, d) && hi - lo >= g->bs_min[d] && g->zone_map) {
		/*
		 * fio keeps its random map (or walks its LFSR) per zone: every
		 * block of the zone once, then the next pass (zonesize above
		 * zonerange) or zone starts over
		 */
		uint64_t n = (hi - lo - g->bs_min[d]) / g->ba[d] + 1;

		if (!f->zfp_left) {
			rand_fullperiod_init(&f->zfp, n, rand_u64(&g->rs_off));
			f->zfp_left = n;
		}
		o = lo + rand_fullperiod_next(&f->zfp) * g->ba[d];
		f->zfp_left--;
	} else if (want_random(g, d) && hi - lo >= g->bs_min[d]) {
		o = lo + rand_below(&g->rs_off, (hi - lo - g->bs_min[d]) / g->ba[d] + 1) * g->ba[d];
	} else {
		o = f->pos[d];
		if (o < lo || o + g->bs_min[d] > hi)
			o = lo;
	}
	room = hi > o ? hi - o : 0;
	if (*len > room && room >= g->bs_min[d])
		*len = room - room % g->bs_min[d];
	*off = o;
	/* a sequential position left outside the new zone restarts at its start (above) */
	if (zone_advance(&g->zcfg, &f->zone, f->start, f->end, *len, g->zone_min_bs))
		f->zfp_left = 0;	/* a new zone: a new pass */
}

int iogen_next_slow(struct iogen *g, struct io_u *io)
{
	struct iogen_file *f;
	uint64_t off, len;
	unsigned fi;
	int d;

	if (g->pend) {
		g->pend = 0;
		io->file = g->pend_io.file;
		io->offset = g->pend_io.offset;
		io->len = g->pend_io.len;
		io->ddir = DDIR_WRITE;
		return 0;
	}
	if (g->loop_left <= 0) {
		if (!g->loops_left)
			return 1;
		if (g->loops_left != UINT64_MAX)
			g->loops_left--;
		iogen_new_loop(g);
		if (g->fast != IOGEN_SLOW)
			return iogen_next(g, io);
	}
	if (__builtin_expect(g->open_max != 0, 0)) {
		fi = iogen_window_file(g);
	} else {
		fi = g->cur_file;
		if (++g->cur_file == g->nr_files)
			g->cur_file = 0;
	}
	f = &g->files[fi];
	d = pick_ddir(g);
	len = pick_len(g, d);
	if (__builtin_expect(g->zoned, 0)) {
		iogen_zoned(g, f, d, &off, &len);
	} else if (want_random(g, d)) {
		off = rand_offset(g, f, d, &len);
	} else {
		off = f->pos[d];
		if (off + g->bs_min[d] > f->end) {
			/*
			 * fio wraps to the region's start only from its very end
			 * (or when it must: time_based, io_size past the region);
			 * a pass whose holes (rw=read:N) leave a block that does
			 * not fit ends the loop there, as fio's file is done.
			 */
			f->pos[d] = f->start;
			if (off < f->end && g->nr_files == 1 && g->loops_left != UINT64_MAX &&
			    g->io_limit <= f->end - f->start) {
				g->loop_left = 0;
				return iogen_next(g, io);
			}
			off = f->start;	/* wrap: the next pass over the region */
		}
	}
	len = fit_len(g, f, d, off, len);
	if (__builtin_expect(g->seq_back, 0)) {
		/* fio's backwards I/O: step back; below the start, wrap to the end, stepped back */
		uint64_t next = off + len;

		f->pos[d] = next >= f->start + g->seq_hole ? next - g->seq_hole :
			    f->end >= f->start + g->seq_hole ? f->end - g->seq_hole : f->start;
	} else {
		f->pos[d] = off + len + g->seq_hole;
	}
	io->file = (uint16_t)fi;
	io->offset = off;
	io->len = (uint32_t)len;
	io->ddir = (uint8_t)d;
	g->loop_left -= (int64_t)len;
	if (__builtin_expect(g->open_max != 0, 0))
		iogen_window_account(g, fi, len);
	if (g->trimwrite) {
		g->pend = 1;
		g->pend_io = *io;
	}
	return 0;
}
