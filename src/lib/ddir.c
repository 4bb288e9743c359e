/* ddir: direction names (see ddir.h). */
#include "lib/ddir.h"

const char *ddir_name(enum ddir d)
{
	static const char *const names[DDIR_NR] = { "read", "write", "trim" };

	return (unsigned)d < DDIR_NR ? names[d] : "unknown";
}
