/*
 * engine_traits: the table of engine traits (see engine_traits.h), one row
 * per engine that has any.  An engine missing here is asynchronous, needs
 * its files laid out and opened, and reaches a device through the block
 * layer (io_uring, libaio, posixaio): a new engine of another kind adds its
 * row here.
 */
#include "io/engine_traits.h"

#include <string.h>	/* strcmp */

#define SYNC ENGINE_F_SYNC
#define NOFILES ENGINE_F_NOFILES
#define OWNFILES ENGINE_F_OWNFILES
#define NODEVICE ENGINE_F_NODEVICE
#define PASSTHRU ENGINE_F_PASSTHRU

static const struct {
	const char *name;
	unsigned traits;
} engine_traits_table[] = {
	{ "null", NOFILES | NODEVICE },
	{ "sync", SYNC },
	{ "psync", SYNC },
	{ "pvsync2", SYNC },
	{ "mmap", SYNC },
	{ "filecreate", SYNC | NODEVICE | OWNFILES },
	{ "filestat", SYNC | NODEVICE },
	{ "filedelete", SYNC | NODEVICE },
	{ "dircreate", SYNC | NODEVICE | OWNFILES },
	{ "dirstat", SYNC | NODEVICE | OWNFILES },
	{ "dirdelete", SYNC | NODEVICE | OWNFILES },
	{ "ftruncate", SYNC | NODEVICE },
	{ "falloc", SYNC },
	{ "cpuio", SYNC | NOFILES | NODEVICE },
	{ "exec", SYNC | NOFILES | NODEVICE },
	{ "page_fault", SYNC | NOFILES | NODEVICE },
	{ "e4defrag", SYNC },
	{ "rbd", OWNFILES },
	{ "io_uring_cmd", PASSTHRU },
	/* fio's engines that iotrial reads results of but does not run */
	{ "vsync", SYNC },
	{ "pvsync", SYNC },
	{ "splice", SYNC },
};

unsigned engine_traits(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(engine_traits_table) / sizeof(engine_traits_table[0]); i++)
		if (!strcmp(engine_traits_table[i].name, name))
			return engine_traits_table[i].traits;
	return 0;
}
