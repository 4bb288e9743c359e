/*
 * Tests for the engine registry: every engine is found by its fio name and
 * listed once; the engines' option rows and their options structs hold
 * together (test_engine_toy.c adds an engine from outside the library).
 */
#include <stddef.h>	/* offsetof */
#include "check.h"
#include "io/engine.h"
#include "io/engine_rows.h"	/* the ring's rows: a shared struct prefix */
#include "parse/opt.h"	/* opt_find, opt_next: the table gathers the engines' rows */

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
	unsigned i, k, n = 0;

	for (i = 0; engine_at(i); i++)
		for (k = 0; k < i; k++)
			CHECK(strcmp(engine_at(i)->name, engine_at(k)->name) != 0);
	n = i;
	/* rbd is there when the build found librbd, and only then */
	CHECK_EQ_U(n, 21 + (engine_absent_reason("rbd") == NULL));
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

/* Every row an engine lists is the table's row of that name, found once. */
TEST(engine_rows_in_table)
{
	size_t eng = 0, row = 0, n = 0;
	struct opt_iter it = { 0 };
	const struct opt_def *o, *p;

	while ((o = engine_opt_next(&eng, &row)) != NULL) {
		n++;
		CHECK(opt_find(o->name) == o);
		CHECK(engine_opt_owner(o, 0) != NULL);
	}
	CHECK(n >= 25);		/* io_uring's, cmdprio's, cpuio's, exec's, rbd's, ... */
	/* listed by three engines, named in the registry's order */
	o = opt_find("cmdprio_percentage");
	CHECK_STR(engine_opt_owner(o, 0)->name, "io_uring");
	CHECK_STR(engine_opt_owner(o, 1)->name, "libaio");
	CHECK_STR(engine_opt_owner(o, 2)->name, "null");
	CHECK(engine_opt_owner(o, 3) == NULL);
	CHECK(engine_takes(engine_find("null"), o) && !engine_takes(engine_find("psync"), o));
	/* a core option is no engine's */
	CHECK(engine_opt_owner(opt_find("bs"), 0) == NULL);
	CHECK(!engine_opt_in_area(opt_find("bs")));
	/* the engines' rows sit together in the table, each once */
	for (n = 0; (p = opt_next(&it)) != NULL;)
		n += engine_opt_owner(p, 0) != NULL;
	eng = row = 0;
	while (engine_opt_next(&eng, &row))
		n--;
	CHECK_EQ_U(n, 0);
}

/*
 * A row with its value in the engine area: its engines share one options
 * struct, or (the ring's rows of io_uring and io_uring_cmd) start theirs
 * with the same struct engine_ring_opts, the field lies inside it, and it
 * holds no pointer (job_copy's memcpy copies the area).  The default engine has no options there, so
 * job_init()'s zeroed area is its own.
 */
/* One of the ring's rows (engine_rows.h), whose engines share a struct prefix. */
static int ring_row(const struct opt_def *o)
{
	const struct opt_def *const runs[] = { engine_rows_ring_setup, engine_rows_ring_io };

	for (size_t r = 0; r < 2; r++)
		for (size_t i = 0; runs[r][i].name; i++)
			if (&runs[r][i] == o)
				return 1;
	return 0;
}

TEST(engine_area_rows)
{
	size_t eng = 0, row = 0, k, base = offsetof(struct job, engine_area), in_area = 0;
	const struct engine_ops *own, *other;
	const struct opt_def *o;

	while ((o = engine_opt_next(&eng, &row)) != NULL) {
		if (!engine_opt_in_area(o))
			continue;
		in_area++;
		own = engine_opt_owner(o, 0);
		CHECK(o->type != OPT_STR);
		CHECK(own->opts_default != NULL && own->opts_size <= JOB_ENGINE_AREA_MAX);
		CHECK(o->off - base + o->width <= own->opts_size);
		for (k = 1; (other = engine_opt_owner(o, k)) != NULL; k++)
			CHECK((other->opts_default == own->opts_default &&
			       other->opts_size == own->opts_size) ||
			      (ring_row(o) && o->off - base + o->width <= sizeof(struct engine_ring_opts) &&
			       sizeof(struct engine_ring_opts) <= other->opts_size));
	}
	CHECK(in_area >= 15);
	CHECK_EQ_U(engine_find(JOB_IOENGINE_DEFAULT)->opts_size, 0);
	CHECK(engine_find(JOB_IOENGINE_DEFAULT)->opts_default == NULL);
}

int main(void)
{
	RUN(engine_find_all);
	RUN(engine_list_unique);
	RUN(engine_ops);
	RUN(engine_rows_in_table);
	RUN(engine_area_rows);
	return CHECK_DONE();
}
