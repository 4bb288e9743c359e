/*
 * test_zone_units: fio's "Nz" values (zone_units.h): which options take
 * them, the bytes they become for a zone size, the overflow refused, and a
 * target that is not a zoned block device refused by name when only the
 * device could say the zone size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* close, unlink */
#include "check.h"
#include "io/zbd_dev.h"
#include "io/zone_units.h"
#include "job_fixture.h"

#define M (1024ull * 1024)

TEST(zone_units_slots_are_fios_five)
{
	CHECK(zone_units_slot(offsetof(struct job, size)) == JOB_ZU_SIZE);
	CHECK(zone_units_slot(offsetof(struct job, io_size)) == JOB_ZU_IO_SIZE);
	CHECK(zone_units_slot(offsetof(struct job, offset)) == JOB_ZU_OFFSET);
	CHECK(zone_units_slot(offsetof(struct job, offset_increment)) == JOB_ZU_OFFSET_INCREMENT);
	CHECK(zone_units_slot(offsetof(struct job, zoneskip)) == JOB_ZU_ZONESKIP);
	CHECK(zone_units_slot(offsetof(struct job, zonesize)) == -1);
	CHECK(zone_units_slot(offsetof(struct job, filesize_min)) == -1);
	CHECK_STR(zone_units_name(JOB_ZU_OFFSET_INCREMENT), "offset_increment");
}

TEST(zone_units_apply_sets_bytes_and_keeps_counts)
{
	struct job j;
	struct err e;

	fixture_job(&j, RW_WRITE, 4096, 0);
	CHECK(zone_units_first(&j) == -1);
	j.zunits[JOB_ZU_SIZE] = 4;
	j.zunits[JOB_ZU_OFFSET] = 2;
	j.zunits[JOB_ZU_OFFSET_INCREMENT] = 1;
	j.io_size = 3 * M;	/* in bytes: left alone */
	j.offset_pct = 10;	/* a later "offset=2z" replaces the percentage */
	CHECK(zone_units_first(&j) == JOB_ZU_SIZE);
	err_clear(&e);
	CHECK(zone_units_apply(&j, 2 * M, &e) == 0);
	CHECK_EQ_U(j.size, 8 * M);
	CHECK_EQ_U(j.offset, 4 * M);
	CHECK_EQ_U(j.offset_increment, 2 * M);
	CHECK_EQ_U(j.io_size, 3 * M);
	CHECK_EQ_U(j.offset_pct, 0);
	CHECK_EQ_U(j.zunits[JOB_ZU_SIZE], 4);
	/* again with another zone size: the counts are what is kept */
	CHECK(zone_units_apply(&j, M, &e) == 0);
	CHECK_EQ_U(j.size, 4 * M);
}

TEST(zone_units_overflow_refused)
{
	struct job j;
	struct err e;

	fixture_job(&j, RW_WRITE, 4096, 0);
	j.zunits[JOB_ZU_IO_SIZE] = 0xffffffffu;
	err_clear(&e);
	CHECK(zone_units_apply(&j, 1ull << 40, &e) == -EINVAL);
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK(strstr(e.msg, "io_size=4294967295z") != NULL);
}

TEST(zone_units_need_a_zoned_device)
{
	char path[] = "/tmp/iotrial_zu_XXXXXX";
	int fd = mkstemp(path);
	struct zbd_set set;
	struct job j;
	struct err e;
	uint64_t zs = 7;

	CHECK(fd >= 0);
	zbd_dev_set_init(&set);
	fixture_job(&j, RW_WRITE, 4096, 0);
	j.zonemode = JOB_ZONE_ZBD;
	j.zunits[JOB_ZU_SIZE] = 2;
	j.filename = path;
	err_clear(&e);
	CHECK(zone_units_device(&set, &j, 0, &zs, &e) == -EINVAL);
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK(strstr(e.msg, "size=2z") && strstr(e.msg, path) &&
	      strstr(e.msg, "is not a zoned block device: zone units need zonesize="));
	CHECK_EQ_U(zs, 7);
	CHECK(set.head == NULL);	/* no device was read */
	zbd_dev_set_free(&set);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

int main(void)
{
	RUN(zone_units_slots_are_fios_five);
	RUN(zone_units_apply_sets_bytes_and_keeps_counts);
	RUN(zone_units_overflow_refused);
	RUN(zone_units_need_a_zoned_device);
	return check_any_failed;
}
