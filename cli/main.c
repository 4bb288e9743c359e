/*
 * main: the command line.  Turns argv into a request, calls the library,
 * prints, and maps the outcome to an exit code.  Nothing else prints or exits.
 */
#include <stdio.h>
#include <string.h>
#include "cmd.h"

int main(int argc, char **argv)
{
	/* Subcommands first; anything else is a fio-compatible command line. */
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "ab"))
		return cmd_ab(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		puts("iotrial-" IOTRIAL_VERSION);
		return 0;
	}
	return cmd_run(NULL);
}
