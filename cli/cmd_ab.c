/* Placeholder so the tree links while the real command is written. */
#include <stdio.h>
#include "cmd.h"
#include "err.h"

int cmd_ab(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "iotrial: error: 'ab' is not built yet\n");
	return EXIT_INTERNAL;
}
