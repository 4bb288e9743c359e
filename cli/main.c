/*
 * main: the command line.  Turns argv into a request, calls the library,
 * prints, and maps the outcome to an exit code.  Nothing else prints or exits.
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	puts("iotrial " IOTRIAL_VERSION);
	return 0;
}
