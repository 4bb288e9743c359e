/*
 * Tests for ab across hosts without MPI: the rank lists of --a-ranks and
 * --b-ranks (numbers, ranges, their errors), the sides checked together,
 * the place names in messages, and --trial-of's names.  The protocol itself
 * runs under mpirun in tests/e2e/mpi_ab.sh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/abmpi.h"
#include "trial/compare.h"
#include "check.h"

static int ranks_are(const char *list, unsigned world, const unsigned *want, size_t nwant)
{
	unsigned *v;
	size_t n, i;
	struct err e;
	int ok;

	err_clear(&e);
	if (abmpi_parse_ranks("a-ranks", list, world, &v, &n, &e)) {
		printf("  %s: %s\n", list, e.msg);
		return 0;
	}
	ok = n == nwant;
	for (i = 0; ok && i < n; i++)
		ok = v[i] == want[i];
	free(v);
	return ok;
}

static int refused(const char *list, unsigned world)
{
	unsigned *v = NULL;
	size_t n = 7;
	struct err e;
	int r;

	err_clear(&e);
	r = abmpi_parse_ranks("b-ranks", list, world, &v, &n, &e);
	free(v);
	/* one line naming the option and the value */
	return r == -EINVAL && e.exit_code == EXIT_USAGE && strstr(e.msg, "--b-ranks=") &&
	       !strchr(e.msg, '\n') && n == 0 && !v;
}

TEST(rank_lists)
{
	static const unsigned r0[] = { 0 }, r13[] = { 1, 2, 3 }, mix[] = { 0, 2, 4, 5 };

	CHECK(ranks_are("0", 2, r0, 1));
	CHECK(ranks_are("1-3", 4, r13, 3));
	CHECK(ranks_are("4-5,0,2", 6, mix, 4));	/* ascending whatever the order given */
	CHECK(ranks_are("3,1,2", 4, r13, 3));
	CHECK(refused("", 2));
	CHECK(refused("2", 2));		/* beyond the ranks mpirun started */
	CHECK(refused("1,1", 2));	/* twice */
	CHECK(refused("0-2,1", 4));
	CHECK(refused("3-1", 4));	/* backwards */
	CHECK(refused("1-", 4));
	CHECK(refused("-1", 4));
	CHECK(refused("a", 4));
	CHECK(refused("1,", 4));
	CHECK(refused("1 2", 4));
	CHECK(refused("99999999999", 4));
}

TEST(sides_together)
{
	unsigned a0[] = { 0 }, b1[] = { 1 }, b12[] = { 1, 2 }, a1[] = { 1 }, b2[] = { 2 };
	unsigned *r[2];
	size_t n[2] = { 1, 1 };
	struct err e;

	err_clear(&e);
	r[0] = a0;
	r[1] = b1;
	CHECK(abmpi_check_sides(r, n, 2, &e) == 0);
	r[1] = b12;
	n[1] = 2;
	CHECK(abmpi_check_sides(r, n, 3, &e) == 0);
	/* rank 0 controls alone: A on 1, B on 2 */
	r[0] = a1;
	r[1] = b2;
	n[1] = 1;
	CHECK(abmpi_check_sides(r, n, 3, &e) == 0);
	/* a rank in both sides */
	r[0] = b1;
	r[1] = b12;
	n[1] = 2;
	CHECK(abmpi_check_sides(r, n, 3, &e) == -EINVAL && strstr(e.msg, "rank 1 is in both"));
	/* a rank in neither */
	err_clear(&e);
	r[0] = a0;
	r[1] = b1;
	n[1] = 1;
	CHECK(abmpi_check_sides(r, n, 3, &e) == -EINVAL && strstr(e.msg, "rank 2 is in neither"));
	/* one rank cannot hold two sides */
	err_clear(&e);
	CHECK(abmpi_check_sides(r, n, 1, &e) == -EINVAL && e.exit_code == EXIT_USAGE);
}

TEST(where_names_ranks_and_hosts)
{
	unsigned a[] = { 0 }, b[] = { 1, 2 };
	char hosts[3 * ABMPI_HOSTLEN] = "", buf[128];
	struct abmpi x;

	memset(&x, 0, sizeof(x));
	strcpy(hosts, "vmA");
	strcpy(hosts + ABMPI_HOSTLEN, "vmB");
	strcpy(hosts + 2 * ABMPI_HOSTLEN, "vmC");
	x.hosts = hosts;
	x.ranks[0] = a;
	x.nranks[0] = 1;
	x.ranks[1] = b;
	x.nranks[1] = 2;
	abmpi_where(&x, 0, buf, sizeof(buf));
	CHECK_STR(buf, "rank 0 (vmA)");
	abmpi_where(&x, 1, buf, sizeof(buf));
	CHECK_STR(buf, "ranks 1, 2 (vmB, vmC)");
	/* the run timeout: given, or auto from the longest run so far */
	CHECK_NEAR(abmpi_timeout(&x), 600, 1e-9);
	x.longest_s = 300;
	CHECK_NEAR(abmpi_timeout(&x), 960, 1e-9);
	x.timeout_s = 5;
	CHECK_NEAR(abmpi_timeout(&x), 5, 1e-9);
}

TEST(trial_of_names)
{
	struct err e;

	err_clear(&e);
	CHECK(compare_trial_of_valid("disk", &e) == 0);
	CHECK(compare_trial_of_valid("disk,kernel,cpu,memory", &e) == 0);
	CHECK(compare_trial_of_valid("hypervisor", &e) == 0);
	CHECK(compare_trial_of_valid("disks", &e) == -EINVAL && strstr(e.msg, "--trial-of=disks"));
	CHECK(compare_trial_of_valid("", &e) == -EINVAL);
	CHECK(compare_trial_of_valid("disk,", &e) == -EINVAL);
	CHECK(compare_trial_of_valid(NULL, &e) == -EINVAL);
}

int main(void)
{
	RUN(rank_lists);
	RUN(sides_together);
	RUN(where_names_ranks_and_hosts);
	RUN(trial_of_names);
	return CHECK_DONE();
}
