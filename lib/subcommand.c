#include "subcommand.h"
#include "version.h"
#include <stdio.h>
#include <string.h>

static void usage(FILE *f, const char *prog, const struct fw_subcommand *cmds, size_t n)
{
	fprintf(f, "usage: %s COMMAND [options]\n"
		"       %s help COMMAND      (or %s COMMAND --help) its options, defaults and examples\n"
		"       %s --version\n\nCommands:\n", prog, prog, prog, prog);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-13s %s\n", cmds[i].name, cmds[i].summary);
}

static const struct fw_subcommand *find(const struct fw_subcommand *cmds, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

static int unknown(const char *prog, const char *name)
{
	fprintf(stderr, "%s: unknown command '%s'\ntry '%s help'\n", prog, name, prog);
	return 2;
}

int fw_subcommand_main(const char *prog, const struct fw_subcommand *cmds, size_t n, int argc, char **argv)
{
	const struct fw_subcommand *c;

	if (argc < 2) {
		usage(stderr, prog, cmds, n);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc == 2 || strcmp(argv[1], "help")) {
			usage(stdout, prog, cmds, n);
			return fflush(stdout) ? 1 : 0;
		}
		if (argc > 3) {
			fprintf(stderr, "%s: help takes one command name\ntry '%s help'\n", prog, prog);
			return 2;
		}
		/* the command prints its own usage: the one text for both ways of asking */
		if (!(c = find(cmds, n, argv[2])))
			return unknown(prog, argv[2]);
		char help_opt[] = "--help", *help_argv[] = { argv[2], help_opt, NULL };
		return c->fn(2, help_argv);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s\n", prog, fw_version);
		return 0;
	}
	if (!(c = find(cmds, n, argv[1])))
		return unknown(prog, argv[1]);
	return c->fn(argc - 1, argv + 1);
}
