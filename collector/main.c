/* foliowatch-collect: builds, boots and measures kernels (subcommands grow here). */
#include <stdio.h>
#include <string.h>
#include "kernel-build.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "kernel", cmd_kernel },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("foliowatch-collect %s\n", FW_VERSION);
		return 0;
	}
	for (i = 0; argc >= 2 && i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "usage: foliowatch-collect <command> [options]\n");
	return 2;
}
