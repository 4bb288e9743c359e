/* Placeholder so the tree links while the real command is written. */
#include <stdio.h>
#include "cmd.h"
#include "err.h"

int cmd_check(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "iotrial: error: 'check' is not built yet\n");
	return EXIT_INTERNAL;
}
