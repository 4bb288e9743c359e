/*
 * mpimerge: one result from many ranks (MPI mode, docs/mpi.md).
 *
 * Each rank packs its own run_result into a flat byte string (mpimerge_pack),
 * rank 0 gathers them, unpacks every rank (its own included, so all ranks take
 * the same path) and merges them exactly (mpimerge_merge):
 *   - counts and bytes summed, the 1856-bucket histograms summed bucket by
 *     bucket, moments merged with Chan's formula (result_job_merge);
 *   - interval series merged interval by interval (series_merge): every rank
 *     starts I/O right after one barrier, so interval k of every rank covers
 *     the same stretch of time after the common start, to within the start
 *     skew recorded in the result;
 *   - bw/iops sample figures recomputed from the merged series (per interval,
 *     the ranks' sum), since pooling per-rank samples would report one rank's
 *     bandwidth as the cluster's;
 *   - the steady-state rule evaluated on the merged series.
 * The per-rank results are kept for fio's "client_stats" and iotrial.ranks.
 *
 * Format: the ranks run the same binary on the same architecture (one MPI
 * job), so a job_result travels as its own bytes (pointers cleared), followed
 * by its series arrays; the whole string is then zero-run encoded, since a
 * job_result is mostly empty histogram buckets (150 KB raw, ~1-3 KB encoded).
 * A header carries a magic, a version and the struct sizes, so a mismatch is
 * an error, never a silent misread.  No MPI here: this file builds and is
 * unit-tested in the plain build too.
 */
#ifndef IOTRIAL_MPIMERGE_H
#define IOTRIAL_MPIMERGE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>	/* json_t */
#include "lib/err.h"
#include "model/job.h"
#include "result/result.h"

/*
 * Pack this rank's result @res (whose job pointers point into @jobs, @nr_jobs
 * long) and @info into a new buffer *@buf of *@len bytes (free() it).
 * Returns 0 or -ENOMEM.
 */
int mpimerge_pack(const struct run_result *res, const struct job *jobs, size_t nr_jobs,
		  const struct result_rank_info *info, void **buf, size_t *len);

/*
 * Unpack one rank's bytes into @out (zeroed first; free with
 * result_rank_clear), resolving its jobs into @jobs (rank 0's list).
 * Returns 0, or -EINVAL with @e filled when the bytes are not a packed
 * result of this build or name a job rank 0 does not have.
 */
int mpimerge_unpack(const void *buf, size_t len, const struct job *jobs, size_t nr_jobs,
		    struct result_rank *out, struct err *e);

/*
 * Replace @res's jobs by the merge of every rank in @set (rank 0's own part
 * included: @res is only the frame: timestamps, disk_util, environment),
 * mark it partial if any rank was, evaluate steady state on the merged
 * series, and attach @set to @res (res->ranks; result_free frees it).
 * Entries are matched by job and clone order: the k-th entry of job J on one
 * rank merges with the k-th entry of J on the others.  Returns 0 or -errno
 * with @e filled; on failure @set is still attached (freed with @res).
 */
int mpimerge_merge(struct run_result *res, struct result_ranks *set, struct err *e);

#endif
