/* Tests for engine_traits: each engine's kind, by name, with or without the registry. */
#include "check.h"
#include "io/engine_traits.h"

TEST(traits_of_iotrial_engines)
{
	CHECK(engine_traits("psync") & ENGINE_F_SYNC);
	CHECK(!(engine_traits("io_uring") & ENGINE_F_SYNC));
	CHECK(!(engine_traits("libaio") & ENGINE_F_SYNC));
	CHECK_EQ_U(engine_traits("io_uring"), 0);	/* async, files, a device */
	CHECK_EQ_U(engine_traits("null"), ENGINE_F_NOFILES | ENGINE_F_NODEVICE);
	/* the engines that make their targets themselves get names, no files */
	CHECK(engine_traits("filecreate") & ENGINE_F_OWNFILES);
	CHECK(engine_traits("dirdelete") & ENGINE_F_OWNFILES);
	CHECK(!(engine_traits("filestat") & ENGINE_F_OWNFILES));	/* laid out first */
	CHECK(engine_traits("cpuio") & ENGINE_F_NOFILES);
	CHECK(engine_traits("exec") & ENGINE_F_NOFILES);
	CHECK(engine_traits("page_fault") & ENGINE_F_NOFILES);
	CHECK(engine_traits("cpuio") & ENGINE_F_NODEVICE);
	CHECK(!(engine_traits("e4defrag") & ENGINE_F_NODEVICE));
	/* rbd's traits whether or not this build has librbd */
	CHECK_EQ_U(engine_traits("rbd"), ENGINE_F_OWNFILES);
	/* NVMe passthrough: async, its files, a device, but no block layer */
	CHECK_EQ_U(engine_traits("io_uring_cmd"), ENGINE_F_PASSTHRU);
	CHECK(!(engine_traits("io_uring") & ENGINE_F_PASSTHRU));
}

TEST(traits_of_fio_only_and_unknown)
{
	CHECK_EQ_U(engine_traits("vsync"), ENGINE_F_SYNC);
	CHECK_EQ_U(engine_traits("pvsync"), ENGINE_F_SYNC);
	CHECK_EQ_U(engine_traits("splice"), ENGINE_F_SYNC);
	CHECK_EQ_U(engine_traits("windowsaio"), 0);
	CHECK_EQ_U(engine_traits("PSYNC"), 0);
	CHECK_EQ_U(engine_traits(""), 0);
	CHECK_EQ_U(engine_traits(NULL), 0);
}

int main(void)
{
	RUN(traits_of_iotrial_engines);
	RUN(traits_of_fio_only_and_unknown);
	return CHECK_DONE();
}
