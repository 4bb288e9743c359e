/*
 * mpirank: MPI mode's process coordination (see mpirank.h).  Everything
 * MPI is behind IOTRIAL_MPI; without it each call is a no-op for rank 0 of 1.
 */
#include "mpi/mpirank.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <jansson.h>	/* json_decref of rank 0's own warnings */
#include <limits.h>	/* INT_MAX */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* getenv, strtoul, calloc */
#include <string.h>	/* memset, strerror */
#include <time.h>	/* clock_gettime, nanosleep */
#include <unistd.h>	/* gethostname */

#include "lib/mpienv.h"
#include "result/mpimerge.h"
#include "run/run_warnings.h"

#ifdef IOTRIAL_MPI

#include <mpi.h>

enum { MR_TAG_STOP = 7311 };

struct mr_state {
	MPI_Comm comm;			/* the world, or a side's ranks (mpirank_split) */
	int posted;			/* @rx is posted */
	MPI_Request rx;			/* while a run runs, one receive posted for a stop */
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
	if (MPI_Isend(&st->tx_buf, 1, MPI_INT, (int)to, MR_TAG_STOP, st->comm,
		      &st->tx[st->tx_nr]) == MPI_SUCCESS) {
		st->tx_nr++;
		st->sent[to]++;
	}
}

static void mr_post(struct mr_state *st)
{
	MPI_Irecv(&st->rx_buf, 1, MPI_INT, MPI_ANY_SOURCE, MR_TAG_STOP, st->comm, &st->rx);
	st->posted = 1;
}

/* Withdraw the posted stop receive, if any. */
static void mr_unpost(struct mr_state *st)
{
	if (!st->posted)
		return;
	MPI_Cancel(&st->rx);
	MPI_Wait(&st->rx, MPI_STATUS_IGNORE);
	st->posted = 0;
}

static uint64_t now_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int past(uint64_t deadline_ns)
{
	return deadline_ns && now_mono_ns() >= deadline_ns;
}

static MPI_Comm st_comm(const struct mpirank *m)
{
	return ((const struct mr_state *)m->st)->comm;
}

/*
 * Complete @q by @deadline_ns (0: no limit); between tests sleep @sleep_ns
 * (0: spin, as MPI's blocking calls do).  0, or -ETIMEDOUT (then @q stays
 * pending: the caller ends the job).
 */
static int mr_wait(MPI_Request *q, uint64_t deadline_ns, long sleep_ns)
{
	struct timespec ts = { 0, sleep_ns };
	int flag = 0;
	unsigned n = 0;

	for (;;) {
		MPI_Test(q, &flag, MPI_STATUS_IGNORE);
		if (flag)
			return 0;
		if ((sleep_ns || !(++n & 1023)) && past(deadline_ns))
			return -ETIMEDOUT;
		if (sleep_ns)
			nanosleep(&ts, NULL);
	}
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
	if (!mpienv_read(&er, &en))
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
	st->comm = MPI_COMM_WORLD;
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
	if (m->deadline_ns) {
		MPI_Request q;

		/* a hung peer must not hang this rank past the run's timeout:
		 * spin on the test as the blocking call would (the start skew) */
		MPI_Iallreduce(&local, &any, 1, MPI_INT, MPI_MAX, st_comm(m), &q);
		if (mr_wait(&q, m->deadline_ns, 0)) {
			err_clear(e);
			return err_set(e, -ETIMEDOUT, EXIT_INTERNAL, "rank %u (%.64s): the other ranks "
				       "of the run did not reach the start barrier in time", m->rank,
				       m->host);
		}
	} else {
		MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, st_comm(m));
	}
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
	MPI_Gather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, 0, st_comm(m));
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
	MPI_Bcast(&pick, sizeof(pick), MPI_BYTE, 0, st_comm(m));
	pick.msg[sizeof(pick.msg) - 1] = '\0';
	err_clear(e);
	return err_set(e, pick.code, pick.exit_code, "%s", pick.msg);
}

/*
 * Step 4's first half: wait for every rank, relaying stops, then drain them.
 * -ETIMEDOUT when m->deadline_ns passes first (a peer hung or died: the
 * communicator is then unusable, and the caller ends the job).
 */
static int mr_settle(struct mpirank *m)
{
	struct mr_state *st = m->st;
	MPI_Request bar;
	int flag = 0, expect = 0;

	MPI_Ibarrier(st->comm, &bar);
	while (!flag) {
		struct timespec ts = { 0, 1000000 };

		mr_poll(m, 0);
		MPI_Test(&bar, &flag, MPI_STATUS_IGNORE);
		if (!flag && past(m->deadline_ns))
			return -ETIMEDOUT;
		if (!flag)
			nanosleep(&ts, NULL);
	}
	/* every stop sent is counted by its receiver: none is left in flight */
	MPI_Reduce_scatter_block(st->sent, &expect, 1, MPI_INT, MPI_SUM, st->comm);
	while (st->received < (unsigned long)expect) {
		MPI_Wait(&st->rx, MPI_STATUS_IGNORE);
		st->received++;
		mr_post(st);
	}
	mr_unpost(st);
	MPI_Waitall((int)st->tx_nr, st->tx, MPI_STATUSES_IGNORE);
	st->tx_nr = 0;
	return 0;
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
		r = run_warnings(res, e);
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
	if (mr_settle(m))
		return err_set(e, -ETIMEDOUT, EXIT_INTERNAL, "rank %u (%.64s): the other ranks of the "
			       "run did not finish in time", m->rank, m->host);
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
	MPI_Gather(&len32, 1, MPI_INT, lens, 1, MPI_INT, 0, st_comm(m));
	if (!m->rank && lens && displs) {
		for (i = 0; i < m->nranks; i++) {
			displs[i] = (int)total;
			total += (uint64_t)lens[i];
		}
		all = total <= INT_MAX ? malloc(total ? total : 1) : NULL;
	}
	MPI_Gatherv(mine, len32, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, st_comm(m));
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
		MPI_Bcast(&code, 1, MPI_INT, 0, st_comm(m));
	return code;
}

void mpirank_finalize(struct mpirank *m)
{
	struct mr_state *st = m->st;

	if (!m->active)
		return;
	mr_unpost(st);	/* mr_settle did not run: the posted receive goes */
	MPI_Finalize();
	free(st->sent);
	free(st->tx);
	free(st);
	m->st = NULL;
	m->active = 0;
}

/* --- ab across hosts: sides, host names, the controller's messages --- */

enum { MR_TAG_MSG = 7312 };

int mpirank_split(struct mpirank *m, int color, struct mpirank *sub, struct err *e)
{
	struct mr_state *st;
	MPI_Comm c;
	int rank, size;

	memset(sub, 0, sizeof(*sub));
	sub->nranks = 1;
	snprintf(sub->host, sizeof(sub->host), "%s", m->host);
	if (!m->active)
		return err_set(e, -EINVAL, EXIT_USAGE, "not started by an MPI launcher");
	/* collective over the world: every rank calls it, the controller-only
	 * rank with a negative color (it joins no side) */
	if (MPI_Comm_split(st_comm(m), color < 0 ? MPI_UNDEFINED : color, (int)m->rank, &c) !=
	    MPI_SUCCESS)
		return err_set(e, -EIO, EXIT_INTERNAL, "MPI_Comm_split failed");
	if (c == MPI_COMM_NULL)
		return 0;
	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	st = calloc(1, sizeof(*st));
	if (st)
		st->sent = calloc((size_t)size, sizeof(*st->sent));
	if (!st || !st->sent) {
		free(st);
		MPI_Comm_free(&c);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for %d ranks", size);
	}
	st->comm = c;
	sub->st = st;
	sub->active = 1;
	sub->rank = (unsigned)rank;
	sub->nranks = (unsigned)size;
	sub->sync.ready = mr_ready;
	sub->sync.poll = mr_poll;
	sub->sync.arg = sub;
	return 0;
}

void mpirank_rearm(struct mpirank *m, uint64_t deadline_ns)
{
	struct mr_state *st = m->st;

	if (!m->active)
		return;
	mr_unpost(st);
	if (st->tx_nr)	/* stops of a run that ended without settling */
		MPI_Waitall((int)st->tx_nr, st->tx, MPI_STATUSES_IGNORE);
	memset(st->sent, 0, m->nranks * sizeof(*st->sent));
	st->tx_nr = 0;
	st->received = 0;
	st->peer_stop = st->told = st->relayed = 0;
	m->agreed = m->started = 0;
	m->start_ns = m->end_ns = 0;
	m->deadline_ns = deadline_ns;
	mr_post(st);
}

void mpirank_split_free(struct mpirank *sub)
{
	struct mr_state *st = sub->st;

	if (!sub->active || !st)
		return;
	mr_unpost(st);
	MPI_Comm_free(&st->comm);
	free(st->sent);
	free(st->tx);
	free(st);
	memset(sub, 0, sizeof(*sub));
}

int mpirank_hosts(struct mpirank *m, char *hosts, size_t each, struct err *e)
{
	char *mine = calloc(1, each);

	if (!mine)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	snprintf(mine, each, "%s", m->host);
	if (!m->active) {
		memcpy(hosts, mine, each);
		free(mine);
		return 0;
	}
	MPI_Allgather(mine, (int)each, MPI_CHAR, hosts, (int)each, MPI_CHAR, st_comm(m));
	free(mine);
	return 0;
}

int mpirank_msg_send(struct mpirank *m, unsigned to, const void *buf, size_t len,
		     uint64_t deadline_ns, struct err *e)
{
	MPI_Request q;

	if (!m->active || to >= m->nranks || len > INT_MAX)
		return err_set(e, -EINVAL, EXIT_INTERNAL, "no rank %u to send to", to);
	MPI_Isend(buf, (int)len, MPI_BYTE, (int)to, MR_TAG_MSG, st_comm(m), &q);
	/* small messages go at once; a large one when the receiver polls */
	if (mr_wait(&q, deadline_ns, 1000000))
		return err_set(e, -ETIMEDOUT, EXIT_INTERNAL, "rank %u did not take a message in time",
			       to);
	return 0;
}

int mpirank_msg_recv(struct mpirank *m, int from, uint64_t deadline_ns, int (*idle)(void *),
		     void *arg, char **buf, size_t *len, unsigned *src, struct err *e)
{
	MPI_Status stt;
	int flag = 0, n, r;

	*buf = NULL;
	*len = 0;
	if (!m->active)
		return err_set(e, -EINVAL, EXIT_INTERNAL, "not started by an MPI launcher");
	for (;;) {
		MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, MR_TAG_MSG, st_comm(m), &flag, &stt);
		if (flag)
			break;
		if (past(deadline_ns))
			return -ETIMEDOUT;
		if (idle && (r = idle(arg)) != 0)
			return -EINTR;
		if (!idle)
			nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	}
	MPI_Get_count(&stt, MPI_BYTE, &n);
	*buf = malloc((size_t)n + 1);
	if (!*buf)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for a %d-byte message", n);
	MPI_Recv(*buf, n, MPI_BYTE, stt.MPI_SOURCE, MR_TAG_MSG, st_comm(m), MPI_STATUS_IGNORE);
	(*buf)[n] = '\0';
	*len = (size_t)n;
	*src = (unsigned)stt.MPI_SOURCE;
	return 0;
}

void mpirank_abort(struct mpirank *m, int code)
{
	if (m->active)
		MPI_Abort(MPI_COMM_WORLD, code);
}

#else	/* without MPI: one rank, nothing to coordinate */

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

int mpirank_split(struct mpirank *m, int color, struct mpirank *sub, struct err *e)
{
	(void)m;
	(void)color;
	memset(sub, 0, sizeof(*sub));
	sub->nranks = 1;
	return err_set(e, -EINVAL, EXIT_USAGE, "this iotrial was built without MPI");
}

void mpirank_rearm(struct mpirank *m, uint64_t deadline_ns)
{
	(void)m;
	(void)deadline_ns;
}

void mpirank_split_free(struct mpirank *sub)
{
	(void)sub;
}

int mpirank_hosts(struct mpirank *m, char *hosts, size_t each, struct err *e)
{
	(void)e;
	snprintf(hosts, each, "%s", m->host);
	return 0;
}

int mpirank_msg_send(struct mpirank *m, unsigned to, const void *buf, size_t len,
		     uint64_t deadline_ns, struct err *e)
{
	(void)m;
	(void)buf;
	(void)len;
	(void)deadline_ns;
	return err_set(e, -EINVAL, EXIT_INTERNAL, "no rank %u to send to (no MPI)", to);
}

int mpirank_msg_recv(struct mpirank *m, int from, uint64_t deadline_ns, int (*idle)(void *),
		     void *arg, char **buf, size_t *len, unsigned *src, struct err *e)
{
	(void)m;
	(void)from;
	(void)deadline_ns;
	(void)idle;
	(void)arg;
	(void)src;
	*buf = NULL;
	*len = 0;
	return err_set(e, -EINVAL, EXIT_INTERNAL, "no ranks to receive from (no MPI)");
}

void mpirank_abort(struct mpirank *m, int code)
{
	(void)m;
	(void)code;
}

#endif
