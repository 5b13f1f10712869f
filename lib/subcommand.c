#include "subcommand.h"
#include <stdio.h>
#include <string.h>

static void usage(FILE *f, const char *prog, const struct fw_subcommand *cmds, size_t n)
{
	fprintf(f, "usage: %s <command> [options]\n\ncommands:\n", prog);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %s\n", cmds[i].help);
}

int fw_subcommand_main(const char *prog, const struct fw_subcommand *cmds, size_t n, int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr, prog, cmds, n);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout, prog, cmds, n);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s\n", prog, FW_VERSION);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	usage(stderr, prog, cmds, n);
	return 2;
}
