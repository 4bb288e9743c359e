/* Tests for the engine registry: every engine is found by its fio name and listed once. */
#include "check.h"
#include "io/engine.h"

TEST(engine_find_all)
{
	static const char *const names[] = { "null", "io_uring", "libaio", "sync", "psync", "pvsync2",
					      "posixaio", "mmap", "filecreate", "filestat", "filedelete",
					      "dircreate", "dirstat", "dirdelete", "ftruncate", "falloc",
					      "cpuio", "exec", "page_fault", "e4defrag" };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct engine_ops *o = engine_find(names[i]);

		CHECK(o != NULL);
		if (o) {
			CHECK_STR(o->name, names[i]);
			CHECK(o->init && o->queue && o->exit);
			/* commit and getevents come together, and only a synchronous
			 * engine (every I/O completes in queue) may leave both out */
			CHECK(!o->commit == !o->getevents);
			CHECK(o->commit || (engine_traits(o->name) & ENGINE_F_SYNC));
		}
	}
	CHECK(engine_find("windowsaio") == NULL);
	CHECK(engine_find("IO_URING") == NULL);
	CHECK(engine_find(NULL) == NULL);
}

TEST(engine_list_unique)
{
	const struct engine_ops *const *l = engine_list();
	unsigned i, k, n = 0;

	for (i = 0; l[i]; i++)
		for (k = 0; k < i; k++)
			CHECK(strcmp(l[i]->name, l[k]->name) != 0);
	n = i;
	/* rbd is there when the build found librbd, and only then */
	CHECK_EQ_U(n, 20 + (engine_absent_reason("rbd") == NULL));
}

TEST(engine_ops)
{
	/* the engines with their own checks */
	CHECK(engine_find("cpuio")->validate && engine_find("exec")->validate &&
	      engine_find("ftruncate")->validate && engine_find("e4defrag")->validate);
	/* rbd: names only, sized from the image, verify reads through it */
	if (engine_find("rbd"))
		CHECK(engine_find("rbd")->validate && engine_find("rbd")->target_size &&
		      engine_find("rbd")->read_sync);
	else
		CHECK(engine_absent_reason("rbd") != NULL);
}

int main(void)
{
	RUN(engine_find_all);
	RUN(engine_list_unique);
	RUN(engine_ops);
	return CHECK_DONE();
}
