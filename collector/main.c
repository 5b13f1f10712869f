/* foliowatch-collect: builds, boots and measures kernels (subcommands grow here). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("foliowatch-collect %s\n", FW_VERSION);
		return 0;
	}
	fprintf(stderr, "usage: foliowatch-collect <command> [options]\n");
	return 2;
}
