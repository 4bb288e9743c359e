/*
 * check.h: the whole unit-test harness.  A test program defines test functions
 * with TEST(name), lists them in main() with RUN(name), and prints one line per
 * test: "PASS name", "FAIL name" (after the failed checks) or "SKIP name: why".
 * tests/run.sh counts those lines; a program that crashes counts as a failure.
 */
#ifndef IOTRIAL_CHECK_H
#define IOTRIAL_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_case_failed;
static int check_case_skipped;
static int check_any_failed;

#define TEST(name) static void name(void)

#define CHECK(cond) do { \
	if (!(cond)) { \
		printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		check_case_failed = 1; \
	} \
} while (0)

#define CHECK_EQ_U(a, b) do { \
	unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
	if (va_ != vb_) { \
		printf("  %s:%d: %s == %s failed: %llu != %llu\n", __FILE__, __LINE__, #a, #b, va_, vb_); \
		check_case_failed = 1; \
	} \
} while (0)

#define CHECK_NEAR(a, b, tol) do { \
	double va_ = (double)(a), vb_ = (double)(b); \
	if (!(fabs(va_ - vb_) <= (tol))) { \
		printf("  %s:%d: %s ~ %s failed: %.9g vs %.9g (tol %g)\n", __FILE__, __LINE__, #a, #b, va_, vb_, (double)(tol)); \
		check_case_failed = 1; \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *sa_ = (a), *sb_ = (b); \
	if (!sa_ || !sb_ || strcmp(sa_, sb_)) { \
		printf("  %s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, #a, #b, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)"); \
		check_case_failed = 1; \
	} \
} while (0)

/* Inside a TEST: mark it skipped with a reason and return. */
#define SKIP(...) do { \
	printf("SKIP %s: ", __func__); printf(__VA_ARGS__); printf("\n"); \
	check_case_skipped = 1; return; \
} while (0)

#define RUN(name) do { \
	check_case_failed = 0; check_case_skipped = 0; \
	fflush(stdout); \
	name(); \
	if (!check_case_skipped) \
		printf("%s %s\n", check_case_failed ? "FAIL" : "PASS", #name); \
	if (check_case_failed) check_any_failed = 1; \
	fflush(stdout); \
} while (0)

#define CHECK_DONE() (check_any_failed ? 1 : 0)

#endif
