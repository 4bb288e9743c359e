/*
 * test_cmdprio: the per-I/O priority draw (cmdprio.h): the share of high
 * priority I/Os by cmdprio_percentage, per direction; cmdprio_bssplit by
 * block size, short and long forms; the job's own priority for the rest;
 * per-priority statistics and their merge.
 */
#include "check.h"
#include "io/cmdprio.h"
#include "model/num.h"	/* struct num_ctx */
#include <errno.h>
#include "job_fixture.h"

static void cfg_init(struct cmdprio_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->cls[0] = c->cls[1] = c->lvl[0] = c->lvl[1] = CMDPRIO_NONE;
	c->prio = c->prioclass = CMDPRIO_NONE;
}

TEST(percentage_per_direction)
{
	struct cmdprio_cfg c;
	struct rand_state rs;
	unsigned i, hi[2] = { 0, 0 };

	cfg_init(&c);
	c.pct[0] = 30;
	c.pct[1] = 0;
	c.cls[0] = 1;
	c.lvl[0] = 4;
	rand_seed(&rs, 1);
	for (i = 0; i < 100000; i++) {
		hi[0] += cmdprio_pick(&c, &rs, 0, 4096) == ((1u << 13) | 4);
		hi[1] += cmdprio_pick(&c, &rs, 1, 4096) != 0;
	}
	CHECK_NEAR(hi[0] / 1000.0, 30.0, 0.6);	/* 30% within 4 sigma */
	CHECK_EQ_U(hi[1], 0);
	CHECK(cmdprio_on(&c));
}

TEST(bssplit_and_job_priority)
{
	struct cmdprio_cfg c;
	struct rand_state rs;
	unsigned i, n64 = 0, n1m = 0;

	cfg_init(&c);
	c.prioclass = 3;		/* the rest: idle class */
	c.split_nr[0] = 2;
	c.split[0][0] = (struct cmdprio_split){ 65536, 100, (1 << 13) | 1, CMDPRIO_NONE };
	c.split[0][1] = (struct cmdprio_split){ 1 << 20, 50, CMDPRIO_NONE, CMDPRIO_NONE };
	rand_seed(&rs, 2);
	for (i = 0; i < 10000; i++) {
		n64 += cmdprio_pick(&c, &rs, 0, 65536) == ((1 << 13) | 1);
		n1m += cmdprio_pick(&c, &rs, 0, 1 << 20) == (1 << 13);	/* class 1 level 0 */
		CHECK_EQ_U(cmdprio_pick(&c, &rs, 0, 8192), 3 << 13);	/* no entry: the job's */
	}
	CHECK_EQ_U(n64, 10000);
	CHECK_NEAR(n1m / 100.0, 50.0, 2.0);
	CHECK_EQ_U(cmdprio_job_ioprio(&c), 3 << 13);
	c.prioclass = CMDPRIO_NONE;
	c.prio = 7;			/* a level alone is best effort's */
	CHECK_EQ_U(cmdprio_job_ioprio(&c), (2 << 13) | 7);
}

/*
 * The five-field form: the hint is kept (and shown) but, as fio 3.33 does,
 * the ioprio drawn is class << 13 | level with no hint bits; 6 fields and a
 * hint past the kernel's 10 bits are refused.
 */
TEST(bssplit_hint_parsed_not_sent)
{
	struct job j;
	struct num_ctx nc = { .kb_base = 1024, .opt = "cmdprio_bssplit", .where = "test" };
	struct rand_state rs;
	struct err e;
	char buf[256];
	unsigned i, n1 = 0, n2 = 0;
	uint16_t p;

	fixture_job(&j, RW_READ, 4096, 1 << 20);
	cfg_init(&j.cmdprio);
	CHECK(cmdprio_parse_bssplit(&j, NULL, "1M/10/2/0/1:1M/30/2/0/2:1M/60/3/1/0", &nc, &e) == 0);
	CHECK_EQ_U(j.cmdprio.split_nr[0], 3);
	CHECK_EQ_U(j.cmdprio.split[0][1].hint, 2);
	CHECK_EQ_U(j.cmdprio.split[0][0].ioprio, 2 << 13);
	rand_seed(&rs, 5);
	for (i = 0; i < 10000; i++) {
		p = cmdprio_pick(&j.cmdprio, &rs, 0, 1 << 20);
		CHECK((p & 0x1ff8) == 0);	/* no hint bits (3..12) */
		n1 += p == 2 << 13;
		n2 += p == ((3 << 13) | 1);
	}
	CHECK_NEAR(n1 / 100.0, 40.0, 2.0);	/* hints 1 and 2: one priority */
	CHECK_NEAR(n2 / 100.0, 60.0, 2.0);
	CHECK(cmdprio_show_bssplit(&j, NULL, buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1048576/10/2/0/1:1048576/30/2/0/2:1048576/60/3/1/0,"
			  "1048576/10/2/0/1:1048576/30/2/0/2:1048576/60/3/1/0") == 0);
	err_clear(&e);
	CHECK(cmdprio_parse_bssplit(&j, NULL, "1M/10/2/0/1/1", &nc, &e) == -EINVAL);
	err_clear(&e);	/* an err keeps its first failure */
	CHECK(cmdprio_parse_bssplit(&j, NULL, "1M/10/2/0/1024", &nc, &e) == -ERANGE);
	CHECK(strstr(e.msg, "hint 0..1023") != NULL);
	CHECK(cmdprio_parse_bssplit(&j, NULL, "1M/10/2/0/x", &nc, &e) < 0);
}

TEST(stats_by_priority_merge)
{
	static struct cmdprio_acc a;
	static struct cmdprio_result r1, r2;
	unsigned i;

	memset(&a, 0, sizeof(a));
	for (i = 0; i < 10; i++)
		cmdprio_acc_add(&a, 0, i % 2 ? 0x2000 : 0, 1000 * (i + 1));
	cmdprio_acc_result(&a, &r1);
	CHECK_EQ_U(r1.nr[0], 2);
	CHECK_EQ_U(r1.s[0][0].clat.n + r1.s[0][1].clat.n, 10);
	memset(&r2, 0, sizeof(r2));
	cmdprio_result_merge(&r2, &r1);
	cmdprio_result_merge(&r2, &r1);
	CHECK_EQ_U(r2.nr[0], 2);
	CHECK_EQ_U(r2.s[0][0].clat.n, 10);
	CHECK_EQ_U(hist_total(&r2.s[0][1].hist), 10);
	for (i = 0; i < 20; i++)	/* more priorities than kept: the extra are dropped */
		cmdprio_acc_add(&a, 1, (uint16_t)i, 5);
	CHECK_EQ_U(a.nr[1], CMDPRIO_STATS_MAX);
}

int main(void)
{
	RUN(percentage_per_direction);
	RUN(bssplit_and_job_priority);
	RUN(bssplit_hint_parsed_not_sent);
	RUN(stats_by_priority_merge);
	return CHECK_DONE();
}
