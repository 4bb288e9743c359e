/* Unit tests for num: fio's number syntax, its quirks and our strictness. */
#include <errno.h>
#include <stdint.h>
#include "check.h"
#include "model/num.h"

static const struct num_ctx c1024 = { .kb_base = 1024, .opt = "size", .where = "t.fio:3" };
static const struct num_ctx c1000 = { .kb_base = 1000, .opt = "size", .where = "t.fio:3" };

static uint64_t u(const char *s, const struct num_ctx *c)
{
	struct err e = { 0 };
	uint64_t v = 0xdeadbeef;

	if (num_parse_u64(s, c, &v, &e))
		return 0xdeadbeef;
	return v;
}

static int fails(const char *s, const struct num_ctx *c, int code)
{
	struct err e = { 0 };
	uint64_t v;
	int ret = num_parse_u64(s, c, &v, &e);

	return ret == code && e.code == code && e.exit_code == EXIT_USAGE && e.msg[0];
}

static uint64_t t(const char *s, uint64_t bare)
{
	struct err e = { 0 };
	uint64_t v = 0xdeadbeef;

	if (num_parse_time(s, &c1024, bare, &v, &e))
		return 0xdeadbeef;
	return v;
}

TEST(size_suffixes_kb1024)
{
	CHECK_EQ_U(u("0", &c1024), 0);
	CHECK_EQ_U(u("4096", &c1024), 4096);
	CHECK_EQ_U(u("4k", &c1024), 4096);
	CHECK_EQ_U(u("4K", &c1024), 4096);
	CHECK_EQ_U(u("4kb", &c1024), 4096);
	CHECK_EQ_U(u("4KB", &c1024), 4096);
	CHECK_EQ_U(u("4kB", &c1024), 4096);
	CHECK_EQ_U(u("4ki", &c1024), 4096);
	CHECK_EQ_U(u("4Ki", &c1024), 4096);
	CHECK_EQ_U(u("1m", &c1024), 1048576);
	CHECK_EQ_U(u("1M", &c1024), 1048576);
	CHECK_EQ_U(u("1g", &c1024), 1073741824ull);
	CHECK_EQ_U(u("1t", &c1024), 1099511627776ull);
	CHECK_EQ_U(u("1ti", &c1024), 1099511627776ull);
	CHECK_EQ_U(u("1p", &c1024), 1125899906842624ull);
	CHECK_EQ_U(u("512b", &c1024), 512);
	CHECK_EQ_U(u("512B", &c1024), 512);
	CHECK_EQ_U(u("0x1000", &c1024), 4096);
	CHECK_EQ_U(u("0XfF", &c1024), 255);
}

/*
 * fio 3.33 ignores a unit after hex digits ("0x10k" is 16 there): refused,
 * never read as 16384.  "0x" without hex digits is plain garbage.
 */
TEST(hex_takes_no_unit)
{
	struct err e = { 0 };
	uint64_t v;

	CHECK(fails("0x10k", &c1024, -EINVAL));
	CHECK(fails("0X10K", &c1024, -EINVAL));
	CHECK(fails("0x10m", &c1024, -EINVAL));
	CHECK_EQ_U(u("0x10b", &c1024), 0x10b);	/* b is a hex digit here */
	CHECK(num_parse_u64("0x10k", &c1024, &v, &e) == -EINVAL);
	CHECK(strstr(e.msg, "a hex number cannot take a unit") != NULL);
	err_clear(&e);
	CHECK(num_parse_u64("0xg", &c1024, &v, &e) == -EINVAL);
	CHECK(strstr(e.msg, "unexpected 'xg'") != NULL);
}

/* fio 3.33 (checked with --debug=parse): "KiB" is the other base, "Ki" is not. */
TEST(size_iec_quirk)
{
	CHECK_EQ_U(u("4KiB", &c1024), 4000);
	CHECK_EQ_U(u("4kib", &c1024), 4000);
	CHECK_EQ_U(u("4KIB", &c1024), 4000);
	CHECK_EQ_U(u("1MiB", &c1024), 1000000);
	CHECK_EQ_U(u("1GiB", &c1024), 1000000000ull);
	CHECK_EQ_U(u("1TiB", &c1024), 1000000000000ull);
	CHECK_EQ_U(u("1PiB", &c1024), 1000000000000000ull);
}

TEST(size_suffixes_kb1000)
{
	CHECK_EQ_U(u("4k", &c1000), 4000);
	CHECK_EQ_U(u("4KB", &c1000), 4000);
	CHECK_EQ_U(u("4ki", &c1000), 4000);
	CHECK_EQ_U(u("1m", &c1000), 1000000);
	CHECK_EQ_U(u("4kib", &c1000), 4096);
	CHECK_EQ_U(u("1MiB", &c1000), 1048576);
	CHECK_EQ_U(u("1t", &c1000), 1000000000000ull);
}

TEST(size_limits)
{
	CHECK_EQ_U(u("18446744073709551615", &c1024), UINT64_MAX);
	CHECK(fails("18446744073709551616", &c1024, -ERANGE));
	CHECK(fails("99999999999999999999", &c1024, -ERANGE));
	CHECK_EQ_U(u("16383p", &c1024), 16383ull << 50);
	CHECK(fails("16384p", &c1024, -ERANGE));
	CHECK(fails("16777216t", &c1024, -ERANGE));
	CHECK(fails("0xffffffffffffffffff", &c1024, -ERANGE));
}

TEST(size_garbage)
{
	struct err e = { 0 };
	uint64_t v;

	CHECK(fails("", &c1024, -EINVAL));
	CHECK(fails("abc", &c1024, -EINVAL));
	CHECK(fails("-1", &c1024, -EINVAL));
	CHECK(fails("+1", &c1024, -EINVAL));
	CHECK(fails("4kx", &c1024, -EINVAL));
	CHECK(fails("1x", &c1024, -EINVAL));
	CHECK(fails("1e", &c1024, -EINVAL));
	CHECK(fails("1.5k", &c1024, -EINVAL));
	CHECK(fails("4 k", &c1024, -EINVAL));
	CHECK(fails(" 4k", &c1024, -EINVAL));
	CHECK(fails("4k ", &c1024, -EINVAL));
	CHECK(fails("8k-4k", &c1024, -EINVAL));
	CHECK(fails("4bb", &c1024, -EINVAL));
	CHECK(fails("4s", &c1024, -EINVAL));
	/* the message names the value, the option and where */
	CHECK(num_parse_u64("4kx", &c1024, &v, &e) == -EINVAL);
	CHECK(strstr(e.msg, "'4kx'") && strstr(e.msg, "'size'") && strstr(e.msg, "(t.fio:3)"));
}

TEST(times)
{
	CHECK_EQ_U(t("10", 1000000), 10000000);
	CHECK_EQ_U(t("0", 1000000), 0);
	CHECK_EQ_U(t("10s", 1000000), 10000000);
	CHECK_EQ_U(t("10S", 1000000), 10000000);
	CHECK_EQ_U(t("1500ms", 1000000), 1500000);
	CHECK_EQ_U(t("5msec", 1000000), 5000);
	CHECK_EQ_U(t("5mS", 1000000), 5000);
	CHECK_EQ_U(t("10us", 1000000), 10);
	CHECK_EQ_U(t("10usec", 1000000), 10);
	CHECK_EQ_U(t("1m", 1000000), 60000000);
	CHECK_EQ_U(t("1M", 1000000), 60000000);
	CHECK_EQ_U(t("2H", 1000000), 7200000000ull);
	CHECK_EQ_U(t("1d", 1000000), 86400000000ull);
	/* fio 3.33 reads these as 2 microseconds, hex times as microseconds: refused */
	CHECK_EQ_U(t("2sec", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("2min", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("2MIN", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("0x10", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("0x10s", 1000000), 0xdeadbeef);
	/* a millisecond option: bare number is ms */
	CHECK_EQ_U(t("100", 1000), 100000);
	CHECK_EQ_U(t("2s", 1000), 2000000);
	CHECK_EQ_U(t("1k", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("1.5", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("-1", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("5ns", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("1mi", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("", 1000000), 0xdeadbeef);
	/* 2^64 us overflows */
	CHECK_EQ_U(t("213503983d", 1000000), 0xdeadbeef);
	CHECK_EQ_U(t("213503982d", 1000000), 213503982ull * 86400000000ull);
}

TEST(arithmetic)
{
	struct num_sys sys;

	num_sys_get(&sys);
	CHECK_EQ_U(u("(1+3)k", &c1024), 4096);
	CHECK_EQ_U(u("(2*8)", &c1024), 16);
	CHECK_EQ_U(u("(10/4)", &c1024), 2);
	CHECK_EQ_U(u("(10%4)", &c1024), 2);
	CHECK_EQ_U(u("(2^10)", &c1024), 1024);
	CHECK_EQ_U(u("(2^3^2)", &c1024), 512);
	CHECK_EQ_U(u("(3-1)*1k", &c1024), 2048);
	CHECK_EQ_U(u("(1.5*1k)", &c1024), 1536);
	CHECK_EQ_U(u("( 2 * ( 3 + 4 ) )", &c1024), 14);
	CHECK_EQ_U(u("(-2+5)", &c1024), 3);
	CHECK_EQ_U(u("(0x10*2)", &c1024), 32);
	CHECK_EQ_U(u("(2*$mb_memory)M", &c1024), 2 * sys.mb_memory * 1048576);
	CHECK_EQ_U(u("8*$mb_memory", &c1024), 8 * sys.mb_memory);
	CHECK_EQ_U(u("$ncpus", &c1024), sys.ncpus);
	CHECK_EQ_U(u("($ncpus*2)", &c1024), 2 * sys.ncpus);
	CHECK_EQ_U(u("$pagesize", &c1024), sys.pagesize);
	CHECK_EQ_U(u("(1+1)k", &c1000), 2000);
	CHECK(sys.ncpus >= 1 && sys.pagesize >= 512);
	CHECK(fails("(1-2)", &c1024, -EINVAL));
	CHECK(fails("(1/0)", &c1024, -EINVAL));
	CHECK(fails("(1%0)", &c1024, -EINVAL));
	CHECK(fails("(1+", &c1024, -EINVAL));
	CHECK(fails("(1+2", &c1024, -EINVAL));
	CHECK(fails("(1+2))", &c1024, -EINVAL));
	CHECK(fails("()", &c1024, -EINVAL));
	CHECK(fails("(1..2)", &c1024, -EINVAL));
	CHECK(fails("$nope", &c1024, -EINVAL));
	CHECK(fails("$ncpusx", &c1024, -EINVAL));
	CHECK(fails("(2^64)", &c1024, -ERANGE));
	CHECK(fails("(2^100000)", &c1024, -ERANGE));
	/* deep nesting is refused, not a stack overflow */
	{
		char deep[400];
		int i;

		for (i = 0; i < 150; i++)
			deep[i] = '(';
		deep[150] = '1';
		for (i = 151; i < 301; i++)
			deep[i] = ')';
		deep[301] = '\0';
		CHECK(fails(deep, &c1024, -EINVAL));
	}
	/* times: without a unit the expression is in the option's unit; with one, bare numbers are us */
	CHECK_EQ_U(t("(60*5)", 1000000), 300000000ull);
	CHECK_EQ_U(t("(1.5*2)", 1000000), 3000000);
	CHECK_EQ_U(t("(1m+30)", 1000000), 60000030ull);
	CHECK_EQ_U(t("(1+2)m", 1000000), 180000000ull);
	CHECK_EQ_U(t("(2*500)", 1000), 1000000);
}

TEST(doubles)
{
	struct err e = { 0 };
	double v = 0;

	CHECK(!num_parse_double("99.5", &c1024, &v, &e) && v == 99.5);
	CHECK(!num_parse_double("1", &c1024, &v, &e) && v == 1);
	CHECK(!num_parse_double(".5", &c1024, &v, &e) && v == 0.5);
	CHECK(!num_parse_double("1e2", &c1024, &v, &e) && v == 100);
	CHECK(num_parse_double("nan", &c1024, &v, &e) == -EINVAL);
	CHECK(num_parse_double("inf", &c1024, &v, &e) == -EINVAL);
	CHECK(num_parse_double("-1", &c1024, &v, &e) == -EINVAL);
	CHECK(num_parse_double("0x10", &c1024, &v, &e) == -EINVAL);
	CHECK(num_parse_double("1.5x", &c1024, &v, &e) == -EINVAL);
	CHECK(num_parse_double("", &c1024, &v, &e) == -EINVAL);
	CHECK(num_parse_double("1e999", &c1024, &v, &e) == -ERANGE);
}

TEST(ranges)
{
	struct err e = { 0 };
	uint64_t lo = 0, hi = 0;

	CHECK(!num_parse_range("1k-64k", &c1024, &lo, &hi, &e));
	CHECK_EQ_U(lo, 1024);
	CHECK_EQ_U(hi, 65536);
	CHECK(!num_parse_range("1k:4k", &c1024, &lo, &hi, &e));
	CHECK_EQ_U(lo, 1024);
	CHECK_EQ_U(hi, 4096);
	CHECK(!num_parse_range("8k", &c1024, &lo, &hi, &e));
	CHECK_EQ_U(lo, 8192);
	CHECK_EQ_U(hi, 8192);
	CHECK(!num_parse_range("(4-2)k-(2*4)k", &c1024, &lo, &hi, &e));
	CHECK_EQ_U(lo, 2048);
	CHECK_EQ_U(hi, 8192);
	CHECK(num_parse_range("64k-1k", &c1024, &lo, &hi, &e) == -EINVAL);
	CHECK(strstr(e.msg, "reversed") != NULL);
	err_clear(&e);
	CHECK(num_parse_range("-1k-4k", &c1024, &lo, &hi, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_range("1k-", &c1024, &lo, &hi, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_range("1k-4k-8k", &c1024, &lo, &hi, &e) == -EINVAL);
	err_clear(&e);
	/* fio's t0024: a bssplit-shaped value reads as its first two sizes */
	CHECK(!num_parse_range("512/25:1k:25:2k:25:4k/25", &c1024, &lo, &hi, &e));
	CHECK_EQ_U(lo, 512);
	CHECK_EQ_U(hi, 1024);
	CHECK(!num_parse_range("512/25-1k/3", &c1024, &lo, &hi, &e));
	CHECK_EQ_U(hi, 1024);
	CHECK(!num_parse_range("(8k/2)-(16k/2)", &c1024, &lo, &hi, &e));	/* a division, not a weight */
	CHECK_EQ_U(hi, 8192);
	CHECK(num_parse_range("512x-1k", &c1024, &lo, &hi, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_range("1k:2k:4k", &c1024, &lo, &hi, &e) == -EINVAL);	/* no '/': strict */
}

TEST(ddir_split_rule)
{
	char buf[64], *f[DDIR_NR];

	strcpy(buf, "8k");
	CHECK(!num_ddir_split(buf, f));
	CHECK_STR(f[0], "8k");
	CHECK_STR(f[1], "8k");
	CHECK_STR(f[2], "8k");
	strcpy(buf, "8k,32k");
	CHECK(!num_ddir_split(buf, f));
	CHECK_STR(f[0], "8k");
	CHECK_STR(f[1], "32k");
	CHECK_STR(f[2], "32k");
	strcpy(buf, "8k,32k,");
	CHECK(!num_ddir_split(buf, f));
	CHECK_STR(f[1], "32k");
	CHECK(f[2] == NULL);
	strcpy(buf, ",8k");
	CHECK(!num_ddir_split(buf, f));
	CHECK(f[0] == NULL);
	CHECK_STR(f[1], "8k");
	CHECK_STR(f[2], "8k");
	strcpy(buf, ",8k,");
	CHECK(!num_ddir_split(buf, f));
	CHECK(f[0] == NULL && f[2] == NULL);
	CHECK_STR(f[1], "8k");
	strcpy(buf, "1,2,3");
	CHECK(!num_ddir_split(buf, f));
	CHECK_STR(f[2], "3");
	strcpy(buf, "1,2,3,4");
	CHECK(num_ddir_split(buf, f) == -EINVAL);
}

TEST(ddir_values)
{
	struct err e = { 0 };
	uint64_t v[DDIR_NR] = { 1, 2, 3 }, lo[DDIR_NR] = { 0 }, hi[DDIR_NR] = { 0 };

	CHECK(!num_parse_u64_ddir("4k,64k", &c1024, v, &e));
	CHECK_EQ_U(v[0], 4096);
	CHECK_EQ_U(v[1], 65536);
	CHECK_EQ_U(v[2], 65536);
	v[0] = 1; v[1] = 2; v[2] = 3;
	CHECK(!num_parse_u64_ddir(",8k,", &c1024, v, &e));
	CHECK_EQ_U(v[0], 1);
	CHECK_EQ_U(v[1], 8192);
	CHECK_EQ_U(v[2], 3);
	/* a bad field changes nothing */
	CHECK(num_parse_u64_ddir("16k,zz", &c1024, v, &e) == -EINVAL);
	CHECK_EQ_U(v[0], 1);
	err_clear(&e);
	CHECK(num_parse_u64_ddir(",,", &c1024, v, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_u64_ddir("1,2,3,4", &c1024, v, &e) == -EINVAL);
	err_clear(&e);
	CHECK(!num_parse_range_ddir("1k-4k,2k-8k", &c1024, lo, hi, &e));
	CHECK_EQ_U(lo[0], 1024);
	CHECK_EQ_U(hi[0], 4096);
	CHECK_EQ_U(lo[1], 2048);
	CHECK_EQ_U(hi[2], 8192);
}

TEST(bssplit)
{
	struct err e = { 0 };
	struct bssplit s[DDIR_NR][JOB_MAX_BSSPLIT];
	unsigned nr[DDIR_NR] = { 0, 0, 0 };

	CHECK(!num_parse_bssplit("4k/10:64k/50:32k/40", &c1024, s, nr, &e));
	CHECK_EQ_U(nr[0], 3);
	CHECK_EQ_U(nr[2], 3);
	CHECK_EQ_U(s[0][0].bs, 4096);
	CHECK_EQ_U(s[0][0].perc, 10);
	CHECK_EQ_U(s[1][1].bs, 65536);
	CHECK_EQ_U(s[1][1].perc, 50);
	CHECK_EQ_U(s[2][2].perc, 40);
	/* blanks share the remainder */
	CHECK(!num_parse_bssplit("4k/50:1k/:32k/", &c1024, s, nr, &e));
	CHECK_EQ_U(s[0][1].perc, 25);
	CHECK_EQ_U(s[0][2].perc, 25);
	CHECK(!num_parse_bssplit("1k:2k:4k", &c1024, s, nr, &e));
	CHECK_EQ_U(s[0][0].perc, 34);
	CHECK_EQ_U(s[0][1].perc, 33);
	CHECK_EQ_U(s[0][2].perc, 33);
	CHECK(!num_parse_bssplit("4k", &c1024, s, nr, &e));
	CHECK_EQ_U(nr[1], 1);
	CHECK_EQ_U(s[1][0].perc, 100);
	/* per direction */
	CHECK(!num_parse_bssplit("2k/50:4k/50,4k/90:8k/10", &c1024, s, nr, &e));
	CHECK_EQ_U(nr[0], 2);
	CHECK_EQ_U(s[0][0].bs, 2048);
	CHECK_EQ_U(s[1][0].perc, 90);
	CHECK_EQ_U(s[2][1].bs, 8192);
	nr[2] = 7;
	CHECK(!num_parse_bssplit("4k/100,8k/100,", &c1024, s, nr, &e));
	CHECK_EQ_U(nr[2], 7);
	/* errors */
	CHECK(num_parse_bssplit("4k/50:8k/60", &c1024, s, nr, &e) == -EINVAL);
	CHECK(strstr(e.msg, "110") != NULL);
	err_clear(&e);
	CHECK(num_parse_bssplit("4k/50:8k/40", &c1024, s, nr, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_bssplit("0/100", &c1024, s, nr, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_bssplit("4k/101", &c1024, s, nr, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_bssplit("4q/100", &c1024, s, nr, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_bssplit("4k/60:8k/60:16k/", &c1024, s, nr, &e) == -EINVAL);
	err_clear(&e);
	{
		char many[1000] = "";
		int i;

		for (i = 0; i < 65; i++)
			strcat(many, i ? ":4k/" : "4k/");
		CHECK(num_parse_bssplit(many, &c1024, s, nr, &e) == -EINVAL);
	}
}

TEST(size_percent)
{
	struct err e = { 0 };
	uint64_t b = 7;
	uint32_t p = 7;

	CHECK(!num_parse_size_pct("50%", &c1024, &b, &p, &e));
	CHECK_EQ_U(p, 50);
	CHECK_EQ_U(b, 0);
	CHECK(!num_parse_size_pct("10G", &c1024, &b, &p, &e));
	CHECK_EQ_U(p, 0);
	CHECK_EQ_U(b, 10ull << 30);
	/* 0% is fio's "unset": offset from the start, size of the whole file */
	CHECK(!num_parse_size_pct("0%", &c1024, &b, &p, &e));
	CHECK_EQ_U(p, 0);
	CHECK_EQ_U(b, 0);
	CHECK(num_parse_size_pct("101%", &c1024, &b, &p, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_size_pct("%", &c1024, &b, &p, &e) == -EINVAL);
	err_clear(&e);
	CHECK(num_parse_size_pct("5x%", &c1024, &b, &p, &e) == -EINVAL);
}

int main(void)
{
	RUN(size_suffixes_kb1024);
	RUN(hex_takes_no_unit);
	RUN(size_iec_quirk);
	RUN(size_suffixes_kb1000);
	RUN(size_limits);
	RUN(size_garbage);
	RUN(times);
	RUN(arithmetic);
	RUN(doubles);
	RUN(ranges);
	RUN(ddir_split_rule);
	RUN(ddir_values);
	RUN(bssplit);
	RUN(size_percent);
	return CHECK_DONE();
}
