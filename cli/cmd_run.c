/* Placeholder so the tree links while the real command is written. */
#include <stdio.h>
#include "cmd.h"
#include "err.h"

int cmd_run(struct cmdline *cl)
{
	(void)cl;
	fprintf(stderr, "iotrial: error: 'run' is not built yet\n");
	return EXIT_INTERNAL;
}
