/*
 * test_flow: the flow rule (flow.h) run by a deterministic scheduler: three
 * threads of weights 3, 2, 1 each try to issue in turn; the counts keep the
 * 3:2:1 ratio within the slack, and one thread leaving frees the others.
 */
#include "check.h"
#include "io/flow.h"

TEST(counts_keep_the_weights_ratio)
{
	struct flow f = { .id = 0 };
	uint64_t w[3] = { 3, 2, 1 }, c[3] = { 0, 0, 0 };
	unsigned round, k;
	uint64_t before;

	atomic_init(&f.issued, 0);
	atomic_init(&f.weight, 0);
	for (k = 0; k < 3; k++)
		flow_join(&f, w[k]);
	/* the fastest thread is asked most often: it would run away without the rule */
	for (round = 0; round < 60000; round++)
		for (k = 0; k < 3; k++)
			if ((k == 2 || round % (k + 1) == 0) && flow_may_issue(&f, w[k], c[k], 16)) {
				flow_issued(&f);
				c[k]++;
			}
	CHECK_NEAR((double)c[0] / (double)c[2], 3.0, 0.01);
	CHECK_NEAR((double)c[1] / (double)c[2], 2.0, 0.01);
	CHECK_EQ_U(atomic_load(&f.issued), c[0] + c[1] + c[2]);
	/* the others leave: the weight-1 thread, alone, is no longer held back */
	flow_leave(&f, w[0], c[0]);
	flow_leave(&f, w[1], c[1]);
	CHECK_EQ_U(atomic_load(&f.weight), 1);
	before = c[2];
	for (round = 0; round < 1000; round++)
		if (flow_may_issue(&f, w[2], c[2], 16)) {
			flow_issued(&f);
			c[2]++;
		}
	CHECK_EQ_U(atomic_load(&f.issued), c[2]);
	CHECK_EQ_U(c[2] - before, 1000);
}

int main(void)
{
	RUN(counts_keep_the_weights_ratio);
	return CHECK_DONE();
}
