/*
 * mpirank: MPI mode's process coordination (see mpirank.h).  Everything
 * MPI is behind IOTRIAL_MPI; without it each call is a no-op for rank 0 of 1.
 */
#include "mpirank.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <jansson.h>	/* json_decref of rank 0's own warnings */
#include <limits.h>	/* INT_MAX */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* getenv, strtoul, calloc */
#include <string.h>	/* memset, strerror */
#include <time.h>	/* clock_gettime, nanosleep */
#include <unistd.h>	/* gethostname */

#include "mpimerge.h"
#include "result_check.h"

/* A launcher's rank/size variables: OpenMPI's mpirun, then PMI (MPICH's hydra). */
static int env_pair(unsigned *rank, unsigned *nranks)
{
	static const char *const vars[][2] = {
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
		{ "PMI_RANK", "PMI_SIZE" },
	};
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *r = getenv(vars[i][0]), *n = getenv(vars[i][1]);
		char *end1, *end2;
		unsigned long rv, nv;

		if (!r || !n)
			continue;
		rv = strtoul(r, &end1, 10);
		nv = strtoul(n, &end2, 10);
		if (*end1 || *end2 || !*r || !*n || nv == 0 || rv >= nv || nv > UINT32_MAX)
			continue;
		*rank = (unsigned)rv;
		*nranks = (unsigned)nv;
		return 1;
	}
	return 0;
}

#ifdef IOTRIAL_MPI

#include <mpi.h>

enum { MR_TAG_STOP = 7311 };

struct mr_state {
	MPI_Request rx;			/* always one receive posted for a stop */
	int rx_buf;
	unsigned long received;		/* stops received so far */
	int peer_stop;			/* a peer ended early */
	int told;			/* this rank's own stop was sent */
	int relayed;			/* rank 0: the stop went to everyone */
	int *sent;			/* stops sent, per destination */
	MPI_Request *tx;
	size_t tx_nr, tx_cap;
	int tx_buf;			/* the stop message (its content is unused) */
};

void mpirank_env(unsigned *rank, unsigned *nranks)
{
	*rank = 0;
	*nranks = 1;
	env_pair(rank, nranks);
}

int mpirank_launched(void)
{
	unsigned r, n;

	return env_pair(&r, &n);
}

static uint64_t now_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void mr_send(struct mpirank *m, unsigned to)
{
	struct mr_state *st = m->st;

	if (st->tx_nr == st->tx_cap) {
		size_t cap = st->tx_cap ? st->tx_cap * 2 : 16;
		MPI_Request *n = realloc(st->tx, cap * sizeof(*n));

		if (!n)
			return;	/* the peer then ends at its own deadline */
		st->tx = n;
		st->tx_cap = cap;
	}
	if (MPI_Isend(&st->tx_buf, 1, MPI_INT, (int)to, MR_TAG_STOP, MPI_COMM_WORLD,
		      &st->tx[st->tx_nr]) == MPI_SUCCESS) {
		st->tx_nr++;
		st->sent[to]++;
	}
}

static void mr_post(struct mr_state *st)
{
	MPI_Irecv(&st->rx_buf, 1, MPI_INT, MPI_ANY_SOURCE, MR_TAG_STOP, MPI_COMM_WORLD, &st->rx);
}

/* run_sync.poll: see mpirank.h, step 3. */
static int mr_poll(void *arg, int stopping)
{
	struct mpirank *m = arg;
	struct mr_state *st = m->st;
	int flag = 1;

	while (flag) {
		flag = 0;
		MPI_Test(&st->rx, &flag, MPI_STATUS_IGNORE);
		if (flag) {
			st->received++;
			st->peer_stop = 1;
			mr_post(st);
		}
	}
	if (stopping && !st->told) {
		st->told = 1;
		if (m->rank)
			mr_send(m, 0);
	}
	if (!m->rank && (st->peer_stop || st->told) && !st->relayed) {
		st->relayed = 1;
		for (unsigned to = 1; to < m->nranks; to++)
			mr_send(m, to);
	}
	return st->peer_stop;
}

static int mr_ready(void *arg, int r, struct err *e)
{
	return mpirank_agree(arg, r, e);
}

int mpirank_init(struct mpirank *m, struct err *e)
{
	struct mr_state *st;
	unsigned er = 0, en = 1;
	int rank, size, r;

	memset(m, 0, sizeof(*m));
	m->nranks = 1;
	if (gethostname(m->host, sizeof(m->host) - 1))
		snprintf(m->host, sizeof(m->host), "unknown");
	if (!env_pair(&er, &en))
		return 0;	/* not launched: one rank, no MPI at all */
	st = calloc(1, sizeof(*st));
	if (st)
		st->sent = calloc(en, sizeof(*st->sent));
	if (!st || !st->sent) {
		free(st);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for %u ranks", en);
	}
	r = MPI_Init(NULL, NULL);
	if (r != MPI_SUCCESS) {
		free(st->sent);
		free(st);
		return err_set(e, -EIO, EXIT_INTERNAL, "MPI_Init failed (error %d)", r);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	m->active = 1;
	m->rank = (unsigned)rank;
	m->nranks = (unsigned)size;
	m->st = st;
	m->sync.ready = mr_ready;
	m->sync.poll = mr_poll;
	m->sync.arg = m;
	mr_post(st);
	/* ${RANK}/${NRANKS} were expanded from the environment before this */
	if ((unsigned)rank != er || (unsigned)size != en)
		return err_set(e, -EINVAL, EXIT_INTERNAL,
			       "the launcher's environment says rank %u of %u, MPI says %d of %d", er, en,
			       rank, size);
	return 0;
}

/* What a failing rank tells rank 0 in mpirank_agree. */
struct mr_fail {
	int32_t code, exit_code;
	char msg[ERR_MSG_MAX];
};

int mpirank_agree(struct mpirank *m, int r, struct err *e)
{
	struct mr_fail mine, *all = NULL, pick;
	int local = r != 0, any = 0;
	unsigned i;

	if (!m->active)
		return r;
	m->agreed = 1;
	MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!any) {
		m->start_ns = now_realtime_ns();
		m->started = 1;
		return 0;
	}
	memset(&mine, 0, sizeof(mine));
	memset(&pick, 0, sizeof(pick));
	if (r) {
		mine.code = r;
		mine.exit_code = e->exit_code ? e->exit_code : EXIT_INTERNAL;
		snprintf(mine.msg, sizeof(mine.msg), "rank %u (%.64s): %.400s", m->rank, m->host,
			 e->msg[0] ? e->msg : strerror(-r));
	}
	if (!m->rank)
		all = calloc(m->nranks, sizeof(*all));
	MPI_Gather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, 0, MPI_COMM_WORLD);
	if (!m->rank) {
		for (i = 0; all && i < m->nranks; i++)
			if (all[i].code) {
				pick = all[i];
				break;
			}
		if (!pick.code) {	/* out of memory above: still fail, less precisely */
			pick.code = -ENOMEM;
			pick.exit_code = EXIT_INTERNAL;
			snprintf(pick.msg, sizeof(pick.msg), "a rank failed before I/O");
		}
		free(all);
	}
	MPI_Bcast(&pick, sizeof(pick), MPI_BYTE, 0, MPI_COMM_WORLD);
	pick.msg[sizeof(pick.msg) - 1] = '\0';
	err_clear(e);
	return err_set(e, pick.code, pick.exit_code, "%s", pick.msg);
}

/* Step 4's first half: wait for every rank, relaying stops, then drain them. */
static void mr_settle(struct mpirank *m)
{
	struct mr_state *st = m->st;
	MPI_Request bar;
	int flag = 0, expect = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &bar);
	while (!flag) {
		struct timespec ts = { 0, 1000000 };

		mr_poll(m, 0);
		MPI_Test(&bar, &flag, MPI_STATUS_IGNORE);
		if (!flag)
			nanosleep(&ts, NULL);
	}
	/* every stop sent is counted by its receiver: none is left in flight */
	MPI_Reduce_scatter_block(st->sent, &expect, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	while (st->received < (unsigned long)expect) {
		MPI_Wait(&st->rx, MPI_STATUS_IGNORE);
		st->received++;
		mr_post(st);
	}
	MPI_Cancel(&st->rx);
	MPI_Wait(&st->rx, MPI_STATUS_IGNORE);
	MPI_Waitall((int)st->tx_nr, st->tx, MPI_STATUSES_IGNORE);
	st->tx_nr = 0;
}

/* Rank 0: unpack every rank and merge them into @res. */
static int mr_merge(struct mpirank *m, struct run_result *res, const struct job *jobs, size_t nr_jobs,
		    const char *buf, const int *lens, const int *displs, uint64_t t0, struct err *e)
{
	struct result_ranks *set = calloc(1, sizeof(*set));
	unsigned i;
	int r;

	if (set)
		set->ranks = calloc(m->nranks, sizeof(*set->ranks));
	if (!set || !set->ranks) {
		free(set);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory merging %u ranks", m->nranks);
	}
	for (i = 0; i < m->nranks; i++) {
		r = mpimerge_unpack(buf + displs[i], (size_t)lens[i], jobs, nr_jobs, &set->ranks[i], e);
		if (r) {
			set->nr = i;
			result_ranks_free(set);
			return r;
		}
		set->nr = i + 1;
	}
	r = mpimerge_merge(res, set, e);
	set->merge_s = (double)(now_realtime_ns() - t0) / 1e9;
	if (!r) {	/* the plausibility checks judge the merged run, not rank 0's */
		if (res->warnings)
			json_decref(res->warnings);
		res->warnings = NULL;
		r = result_check(res, e);
	}
	return r;
}

int mpirank_gather(struct mpirank *m, struct run_result *res, const struct job *jobs,
		   size_t nr_jobs, struct err *e)
{
	struct result_rank_info info;
	void *mine = NULL;
	size_t len = 0;
	int len32, *lens = NULL, *displs = NULL, r = 0;
	char *all = NULL;
	uint64_t t0, total = 0;
	unsigned i;

	if (!m->active)
		return 0;
	m->end_ns = now_realtime_ns();
	mr_settle(m);
	t0 = now_realtime_ns();
	memset(&info, 0, sizeof(info));
	info.rank = m->rank;
	snprintf(info.host, sizeof(info.host), "%s", m->host);
	info.start_ns = m->start_ns;
	info.end_ns = m->end_ns;
	if (mpimerge_pack(res, jobs, nr_jobs, &info, &mine, &len) || len > INT_MAX) {
		free(mine);
		mine = NULL;
		len = 0;	/* rank 0 then reports this rank's result as unreadable */
	}
	len32 = (int)len;
	if (!m->rank) {
		lens = calloc(m->nranks, sizeof(*lens));
		displs = calloc(m->nranks, sizeof(*displs));
	}
	MPI_Gather(&len32, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!m->rank && lens && displs) {
		for (i = 0; i < m->nranks; i++) {
			displs[i] = (int)total;
			total += (uint64_t)lens[i];
		}
		all = total <= INT_MAX ? malloc(total ? total : 1) : NULL;
	}
	MPI_Gatherv(mine, len32, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
	free(mine);
	if (!m->rank) {
		if (!all)
			r = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory gathering %u ranks' results",
				    m->nranks);
		else
			r = mr_merge(m, res, jobs, nr_jobs, all, lens, displs, t0, e);
	}
	free(all);
	free(lens);
	free(displs);
	return r;
}

int mpirank_exit_code(struct mpirank *m, int code)
{
	if (m->active)
		MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return code;
}

void mpirank_finalize(struct mpirank *m)
{
	struct mr_state *st = m->st;

	if (!m->active)
		return;
	if (!m->started) {	/* mr_settle did not run: the posted receive goes */
		MPI_Cancel(&st->rx);
		MPI_Wait(&st->rx, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	free(st->sent);
	free(st->tx);
	free(st);
	m->st = NULL;
	m->active = 0;
}

#else	/* without MPI: one rank, nothing to coordinate */

void mpirank_env(unsigned *rank, unsigned *nranks)
{
	*rank = 0;
	*nranks = 1;
	(void)env_pair;
}

int mpirank_launched(void)
{
	return 0;
}

int mpirank_init(struct mpirank *m, struct err *e)
{
	(void)e;
	memset(m, 0, sizeof(*m));
	m->nranks = 1;
	if (gethostname(m->host, sizeof(m->host) - 1))
		snprintf(m->host, sizeof(m->host), "unknown");
	return 0;
}

int mpirank_agree(struct mpirank *m, int r, struct err *e)
{
	(void)m;
	(void)e;
	return r;
}

int mpirank_gather(struct mpirank *m, struct run_result *res, const struct job *jobs,
		   size_t nr_jobs, struct err *e)
{
	(void)m;
	(void)res;
	(void)jobs;
	(void)nr_jobs;
	(void)e;
	return 0;
}

int mpirank_exit_code(struct mpirank *m, int code)
{
	(void)m;
	return code;
}

void mpirank_finalize(struct mpirank *m)
{
	(void)m;
}

#endif
