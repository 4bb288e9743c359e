/*
 * abmpi: an A/B trial across hosts (see abmpi.h).  The controller's spawn
 * callback and the side ranks' serve loop, and the JSON messages between
 * them:
 *   controller -> each rank of the side:  {"op": "run", "side": "A",
 *       "args": [fio's arguments, without --output], "timeout_ms": T}
 *   each rank -> controller:  {"op": "done", "rank", "rc", "start_ms",
 *       "end_ms" (its own clock), "log" (its output), "result" (the side's
 *       first rank: the result document; the others null)}
 *   controller -> every rank:  {"op": "quit"}
 */
#include "mpi/abmpi.h"
#include "lib/outfile.h"	/* the result appears whole on the controller */
#include "lib/readfile.h"	/* readfile_all */

#include <errno.h>
#include <fcntl.h>	/* open */
#include <signal.h>	/* SIGTERM */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>	/* dup, dup2, close, unlink, rmdir */

#define ABMPI_LOG_MAX (64 * 1024)		/* a rank's log sent back: its tail */
#define ABMPI_RESULT_MAX (256u * 1024 * 1024)	/* a result document (resultread's limit) */

static int64_t epoch_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static uint64_t mono_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static int bad_ranks(const char *opt, const char *list, unsigned nranks, struct err *e)
{
	return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected MPI ranks as numbers and "
		       "ranges (0, 1-3, 0,2-4), each below %u (the ranks mpirun started), none "
		       "twice", opt, list ? list : "", nranks);
}

static int parse_num(const char **p, unsigned long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	*v = strtoul(*p, &end, 10);
	*p = end;
	return *v > 1000000 ? -EINVAL : 0;
}

int abmpi_parse_ranks(const char *opt, const char *list, unsigned nranks, unsigned **out,
		      size_t *n, struct err *e)
{
	unsigned char *seen;
	const char *p = list;
	unsigned long lo, hi, r;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (!list || !*list || !nranks)
		return bad_ranks(opt, list, nranks, e);
	seen = calloc(nranks, 1);
	if (!seen)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (;;) {
		if (parse_num(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &hi) || hi < lo)
				goto bad;
		}
		if (hi >= nranks)
			goto bad;
		for (r = lo; r <= hi; r++) {
			if (seen[r])
				goto bad;
			seen[r] = 1;
			k++;
		}
		if (!*p)
			break;
		if (*p++ != ',')
			goto bad;
	}
	*out = malloc(k * sizeof(**out));
	if (!*out) {
		free(seen);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	for (r = 0; r < nranks; r++)
		if (seen[r])
			(*out)[(*n)++] = (unsigned)r;
	free(seen);
	return 0;
bad:
	free(seen);
	return bad_ranks(opt, list, nranks, e);
}

int abmpi_check_sides(unsigned *const ranks[2], const size_t nranks[2], unsigned world,
		      struct err *e)
{
	size_t i, j;
	unsigned r;

	if (world < 2)
		return err_set(e, -EINVAL, EXIT_USAGE, "ab: --a-ranks and --b-ranks need two MPI "
			       "ranks or more (mpirun -n 2 or more; this job has %u)", world);
	for (i = 0; i < nranks[0]; i++)
		for (j = 0; j < nranks[1]; j++)
			if (ranks[0][i] == ranks[1][j])
				return err_set(e, -EINVAL, EXIT_USAGE, "ab: rank %u is in both "
					       "--a-ranks and --b-ranks: a side's hosts run alone",
					       ranks[0][i]);
	for (r = 1; r < world; r++) {
		int in = 0;

		for (i = 0; i < 2 && !in; i++)
			for (j = 0; j < nranks[i] && !in; j++)
				in = ranks[i][j] == r;
		if (!in)
			return err_set(e, -EINVAL, EXIT_USAGE, "ab: rank %u is in neither --a-ranks "
				       "nor --b-ranks: every rank but 0 (the controller) runs one "
				       "side", r);
	}
	return 0;
}

int abmpi_init(struct abmpi *x, struct mpirank *world, unsigned *ranks[2], size_t nranks[2],
	       struct err *e)
{
	const char *tmpdir = getenv("TMPDIR");
	size_t s, i;
	int ret;

	x->world = world;
	x->my_side = -1;
	for (s = 0; s < 2; s++) {
		x->ranks[s] = ranks[s];
		x->nranks[s] = nranks[s];
		ranks[s] = NULL;
		for (i = 0; i < x->nranks[s]; i++)
			if (x->ranks[s][i] == world->rank)
				x->my_side = (int)s;
	}
	ret = mpirank_split(world, x->my_side, &x->side, e);
	if (ret)
		return ret;
	x->hosts = calloc(world->nranks, ABMPI_HOSTLEN);
	if (!x->hosts)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	ret = mpirank_hosts(world, x->hosts, ABMPI_HOSTLEN, e);
	if (ret)
		return ret;
	snprintf(x->tmp, sizeof(x->tmp), "%s/iotrial-ab-rank%u.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp", world->rank);
	if (x->my_side >= 0 && !mkdtemp(x->tmp)) {
		ret = -errno;
		err_set(e, ret, EXIT_OUTPUT, "rank %u (%s): cannot make a scratch directory %s: %s",
			world->rank, world->host, x->tmp, strerror(errno));
		x->tmp[0] = 0;
		return ret;
	}
	if (x->my_side < 0)
		x->tmp[0] = 0;
	return 0;
}

static const char *host_of(const struct abmpi *x, unsigned rank)
{
	return x->hosts ? x->hosts + (size_t)rank * ABMPI_HOSTLEN : "?";
}

void abmpi_where(const struct abmpi *x, int s, char *buf, size_t sz)
{
	size_t i, off;

	off = (size_t)snprintf(buf, sz, "rank%s ", x->nranks[s] > 1 ? "s" : "");
	for (i = 0; i < x->nranks[s] && off < sz; i++)
		off += (size_t)snprintf(buf + off, sz - off, "%s%u", i ? ", " : "", x->ranks[s][i]);
	for (i = 0; i < x->nranks[s] && off < sz; i++)
		off += (size_t)snprintf(buf + off, sz - off, "%s%s", i ? ", " : " (",
					host_of(x, x->ranks[s][i]));
	if (off < sz)
		snprintf(buf + off, sz - off, ")");
}

static json_t *side_json(const struct abmpi *x, int s)
{
	json_t *r = json_array(), *h = json_array();
	size_t i;

	for (i = 0; r && h && i < x->nranks[s]; i++) {
		json_array_append_new(r, json_integer(x->ranks[s][i]));
		json_array_append_new(h, json_string(host_of(x, x->ranks[s][i])));
	}
	return json_pack("{s:o, s:o}", "ranks", r, "hosts", h);
}

json_t *abmpi_manifest(const struct abmpi *x)
{
	json_t *mpi = json_pack("{s:{s:i, s:s}, s:o, s:o, s:o}", "controller", "rank", 0,
				"host", host_of(x, 0), "a", side_json(x, 0), "b", side_json(x, 1),
				"run_timeout_s", x->timeout_s > 0 ? json_real(x->timeout_s) :
				json_string("auto"));

	return mpi ? json_pack("{s:o}", "mpi", mpi) : NULL;
}

double abmpi_timeout(const struct abmpi *x)
{
	double t = 3 * x->longest_s + 60;

	if (x->timeout_s > 0)
		return x->timeout_s;
	return t > 600 ? t : 600;
}

/* What one rank said about one run. */
struct reply {
	int got;
	int rc;
	int64_t start_ms, end_ms;	/* its own clock */
	char *log, *result;		/* malloc'd; result only from the side's first rank */
};

static void reply_free(struct reply *r)
{
	free(r->log);
	free(r->result);
	memset(r, 0, sizeof(*r));
}

/* Up to @max bytes of the end of @path, or NULL. */
static char *read_tail(const char *path, size_t max)
{
	char *buf;
	size_t len;

	if (readfile_all(path, 1u << 30, &buf, &len))
		return NULL;
	if (len > max) {
		memmove(buf, buf + len - max, max);
		buf[max] = 0;
	}
	return buf;
}

/*
 * Run @cmd here, on this rank's side: argv from its arguments with
 * --output in the scratch directory, stderr into a log there while it runs.
 * Fills @r.  Returns the run's exit code.
 */
static int run_here(struct abmpi *x, const json_t *cmd, struct reply *r, int *sig)
{
	json_t *args = json_object_get(cmd, "args"), *a;
	double tmo = json_number_value(json_object_get(cmd, "timeout_ms"));
	char out[PATH_MAX + 32], logp[PATH_MAX + 32], *o = NULL, **argv;
	size_t i, n = json_array_size(args);
	int fd, saved, argc = 0;

	snprintf(out, sizeof(out), "%s/result.json", x->tmp);
	snprintf(logp, sizeof(logp), "%s/run.log", x->tmp);
	argv = calloc(n + 3, sizeof(*argv));
	if (!argv || asprintf(&o, "--output=%s", out) < 0) {
		free(argv);
		r->rc = EXIT_INTERNAL;
		r->log = strdup("iotrial: error: out of memory\n");
		return r->rc;
	}
	argv[argc++] = (char *)"iotrial";
	json_array_foreach(args, i, a)
		if (json_is_string(a))
			argv[argc++] = (char *)json_string_value(a);
	argv[argc++] = o;
	mpirank_rearm(&x->side, tmo > 0 ? mono_ns() + (uint64_t)(tmo * 1e6) : 0);
	r->start_ms = epoch_ms();
	/* what the run prints is its log, sent to the controller */
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	*sig = 0;
	r->rc = x->run(x->run_arg, argc, argv, &x->side, sig);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	r->end_ms = epoch_ms();
	r->got = 1;
	r->log = read_tail(logp, ABMPI_LOG_MAX);
	if (x->side.rank == 0) {
		size_t len;

		if (readfile_all(out, ABMPI_RESULT_MAX, &r->result, &len))
			r->result = NULL;
	}
	unlink(out);
	unlink(logp);
	free(o);
	free(argv);
	return r->rc;
}

static json_t *reply_json(const struct abmpi *x, const struct reply *r)
{
	return json_pack("{s:s, s:i, s:i, s:I, s:I, s:s?, s:s?}", "op", "done",
			 "rank", (int)x->world->rank, "rc", r->rc, "start_ms", (json_int_t)r->start_ms,
			 "end_ms", (json_int_t)r->end_ms, "log", r->log, "result", r->result);
}

static int reply_take(json_t *j, struct reply *r)
{
	const char *log = json_string_value(json_object_get(j, "log"));
	const char *res = json_string_value(json_object_get(j, "result"));

	r->got = 1;
	r->rc = (int)json_integer_value(json_object_get(j, "rc"));
	r->start_ms = json_integer_value(json_object_get(j, "start_ms"));
	r->end_ms = json_integer_value(json_object_get(j, "end_ms"));
	r->log = log ? strdup(log) : NULL;
	r->result = res ? strdup(res) : NULL;
	return (log && !r->log) || (res && !r->result) ? -ENOMEM : 0;
}

/* mpirank_msg_recv's idle on the controller: 20 ms, and SIGINT/SIGTERM end the wait. */
static int idle_trial(void *arg)
{
	return trial_signalled(arg, 0.02);
}

/* The ranks' output into @log: one rank as it is, several each under a header. */
static void write_log(const struct abmpi *x, int s, const struct reply *rep, const char *fault,
		      const char *log)
{
	FILE *f = fopen(log, "w");
	size_t k;

	if (!f)
		return;
	for (k = 0; k < x->nranks[s]; k++) {
		const char *l = rep[k].log;

		if (!l || !*l)
			continue;
		if (x->nranks[s] > 1)
			fprintf(f, "--- rank %u (%s) ---\n", x->ranks[s][k], host_of(x, x->ranks[s][k]));
		fprintf(f, "%s%s", l, l[strlen(l) - 1] == '\n' ? "" : "\n");
	}
	if (fault)
		fprintf(f, "%s\n", fault);
	fclose(f);
}

static int write_result(const char *path, const char *text)
{
	struct outfile of;
	struct err e;

	err_clear(&e);
	if (outfile_open(&of, path, &e))
		return -EIO;
	if (fputs(text, of.f) == EOF) {
		outfile_abort(&of);
		return -EIO;
	}
	return outfile_commit(&of, &e) ? -EIO : 0;
}

/*
 * The run's entry in the manifest: its ranks and hosts, the side's first
 * rank's start and end in its own clock, and that clock's offset from the
 * controller's (estimated from the four times, as NTP does: the offset is
 * known to within half the round trip not spent running).
 */
static json_t *run_note(const struct abmpi *x, int s, const struct reply *lead, int64_t t0,
			int64_t t3, int local)
{
	json_t *n = side_json(x, s);
	double off = local ? 0 : ((double)(lead->start_ms - t0) + (double)(lead->end_ms - t3)) / 2;
	double bound = local ? 0 : ((double)(t3 - t0) - (double)(lead->end_ms - lead->start_ms)) / 2;

	if (n && lead->got) {
		json_object_set_new(n, "host_start_ms", json_integer(lead->start_ms));
		json_object_set_new(n, "host_end_ms", json_integer(lead->end_ms));
		json_object_set_new(n, "clock_offset_ms", json_real(off));
		json_object_set_new(n, "clock_offset_bound_ms", json_real(bound > 0 ? bound : 0));
	}
	return n;
}

/* Send @cmd to side @s's ranks but this one; a rank that does not take it is lost. */
static int send_side(struct abmpi *x, int s, const char *text, uint64_t deadline, char *fault,
		     size_t fsz)
{
	size_t k;
	struct err e;

	for (k = 0; k < x->nranks[s]; k++) {
		unsigned r = x->ranks[s][k];

		err_clear(&e);
		if (r != x->world->rank &&
		    mpirank_msg_send(x->world, r, text, strlen(text), deadline, &e)) {
			snprintf(fault, fsz, "ab: rank %u (%s) did not take the command to run: %s",
				 r, host_of(x, r), e.msg);
			return -EIO;
		}
	}
	return 0;
}

static int is_done(const json_t *j)
{
	const char *op = json_string_value(json_object_get(j, "op"));

	return op && !strcmp(op, "done");
}

/* Collect the other ranks' replies; -EINTR (signal), -ETIMEDOUT (@fault says who), 0. */
static int collect(struct abmpi *x, struct trial *t, int s, struct reply *rep, uint64_t deadline,
		   double tmo, char *fault, size_t fsz)
{
	size_t k, pending = 0, off;
	char *buf;
	size_t len;
	unsigned src;
	struct err e;
	int r;

	for (k = 0; k < x->nranks[s]; k++)
		pending += !rep[k].got;
	while (pending) {
		json_t *j;

		err_clear(&e);
		r = mpirank_msg_recv(x->world, -1, deadline, idle_trial, t, &buf, &len, &src, &e);
		if (r == -EINTR)
			return r;
		if (r == -ETIMEDOUT) {
			off = (size_t)snprintf(fault, fsz, "ab: no answer within %.0f s (--run-timeout) "
					       "from", tmo);
			for (k = 0; k < x->nranks[s] && off < fsz; k++)
				if (!rep[k].got)
					off += (size_t)snprintf(fault + off, fsz - off, " rank %u (%s)",
								x->ranks[s][k],
								host_of(x, x->ranks[s][k]));
			if (off < fsz)
				snprintf(fault + off, fsz - off, ": the host hung or was lost, or the "
					 "run overran; the trial ends with the runs completed");
			return r;
		}
		if (r) {
			snprintf(fault, fsz, "ab: %s", e.msg);
			return -EIO;
		}
		j = json_loadb(buf, len, 0, NULL);
		free(buf);
		for (k = 0; j && k < x->nranks[s]; k++)
			if (x->ranks[s][k] == src && !rep[k].got &&
			    is_done(j)) {
				if (reply_take(j, &rep[k])) {
					json_decref(j);
					snprintf(fault, fsz, "ab: out of memory");
					return -ENOMEM;
				}
				pending--;
			}
		json_decref(j);	/* anything else is a stale word: ignored */
	}
	return 0;
}

int abmpi_spawn(void *arg, struct trial *t, int s, char *const *args, size_t nargs,
		const char *log)
{
	struct abmpi *x = arg;
	static const char outopt[] = "--output=";
	size_t nr = x->nranks[s], k, lead = 0;
	struct reply *rep = calloc(nr ? nr : 1, sizeof(*rep));
	double tmo = abmpi_timeout(x);
	uint64_t deadline = mono_ns() + (uint64_t)(tmo * 1e9);
	json_t *cmd, *jargs = json_array();
	char *text = NULL, fault[1024] = "";
	int64_t t0, t3;
	int rc = 0, r = 0, sig = 0, local = x->my_side == s;

	abmpi_where(x, s, t->where, sizeof(t->where));
	if (!rep || !jargs || !nargs || strncmp(args[nargs - 1], outopt, sizeof(outopt) - 1)) {
		free(rep);
		json_decref(jargs);
		return EXIT_INTERNAL;	/* trial.h: the arguments end with --output=FILE */
	}
	for (k = 0; k + 1 < nargs; k++)
		json_array_append_new(jargs, json_string(args[k]));
	cmd = json_pack("{s:s, s:s, s:o, s:f}", "op", "run", "side", s ? "B" : "A", "args", jargs,
			"timeout_ms", tmo * 1000);
	text = cmd ? json_dumps(cmd, JSON_COMPACT) : NULL;
	t0 = epoch_ms();
	if (!text)
		r = -ENOMEM;
	if (!r)
		r = send_side(x, s, text, deadline, fault, sizeof(fault));
	if (!r && local) {	/* the controller is of this side: its part runs here */
		for (k = 0; k < nr && x->ranks[s][k] != x->world->rank; k++)
			;
		run_here(x, cmd, &rep[k], &sig);
		if (sig)
			t->sig = sig;	/* the run took the signal the trial waits for */
	}
	if (!r)
		r = collect(x, t, s, rep, deadline, tmo, fault, sizeof(fault));
	t3 = epoch_ms();
	if (r == -ETIMEDOUT || r == -EIO)
		x->lost = 1;	/* the job cannot end cleanly with a rank missing */
	if ((double)(t3 - t0) / 1000 > x->longest_s)
		x->longest_s = (double)(t3 - t0) / 1000;
	write_log(x, s, rep, fault[0] ? fault : NULL, log);
	if (rep[lead].result && write_result(args[nargs - 1] + sizeof(outopt) - 1,
					     rep[lead].result)) {
		FILE *f = fopen(log, "a");

		if (f) {
			fprintf(f, "ab: cannot write %s\n", args[nargs - 1] + sizeof(outopt) - 1);
			fclose(f);
		}
		rc = EXIT_OUTPUT;
	}
	t->run_note = run_note(x, s, &rep[lead], t0, t3, local);
	if (t->run_note && fault[0])
		json_object_set_new(t->run_note, "fault", json_string(fault));
	if (r == -EINTR)
		rc = 128 + (t->sig ? t->sig : SIGTERM);
	else if (r)
		rc = EXIT_INTERNAL;
	for (k = 0; k < nr && !rc; k++)	/* the side's first rank's code first */
		rc = rep[k].rc;
	if (!rc && !rep[lead].result)
		rc = EXIT_INTERNAL;	/* a run that says it ended well but sent nothing */
	for (k = 0; k < nr; k++)
		reply_free(&rep[k]);
	free(rep);
	free(text);
	json_decref(cmd);
	return rc;
}

int abmpi_serve(struct abmpi *x, struct err *e)
{
	for (;;) {
		struct reply r;
		char *buf, *text;
		size_t len;
		unsigned src;
		const char *op;
		json_t *j, *rj;
		int ret, sig;

		ret = mpirank_msg_recv(x->world, 0, 0, NULL, NULL, &buf, &len, &src, e);
		if (ret)
			return ret;
		j = json_loadb(buf, len, 0, NULL);
		free(buf);
		op = json_string_value(json_object_get(j, "op"));
		if (!op || !strcmp(op, "quit")) {
			json_decref(j);
			return 0;
		}
		memset(&r, 0, sizeof(r));
		run_here(x, j, &r, &sig);
		json_decref(j);
		rj = reply_json(x, &r);
		text = rj ? json_dumps(rj, JSON_COMPACT) : NULL;
		json_decref(rj);
		reply_free(&r);
		if (!text)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		ret = mpirank_msg_send(x->world, 0, text, strlen(text), 0, e);
		free(text);
		if (ret)
			return ret;
	}
}

void abmpi_quit(struct abmpi *x)
{
	static const char quit[] = "{\"op\":\"quit\"}";
	struct err e;
	unsigned r;

	for (r = 0; r < x->world->nranks; r++)
		if (r != x->world->rank)
			mpirank_msg_send(x->world, r, quit, sizeof(quit) - 1,
					 mono_ns() + 10 * 1000000000ull, &e);
}

void abmpi_scratch_remove(struct abmpi *x)
{
	if (x->tmp[0])
		rmdir(x->tmp);	/* empty between runs: run_here removes what it made */
	x->tmp[0] = 0;
}

void abmpi_free(struct abmpi *x)
{
	int s;

	mpirank_split_free(&x->side);
	abmpi_scratch_remove(x);
	for (s = 0; s < 2; s++)
		free(x->ranks[s]);
	free(x->hosts);
	memset(x, 0, sizeof(*x));
}
