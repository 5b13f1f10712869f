/* foliowatch-collect: builds, boots and measures kernels. One line per subcommand. */
#include <stdio.h>
#include <string.h>
#include "commands.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "probe", cmd_probe, "report which accelerators (kvm, tcg, icount) boot a kernel here" },
	{ "boot", cmd_boot, "boot one kernel, run the workloads, write/store its run document" },
};

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("foliowatch-collect %s\n", FW_VERSION);
		return 0;
	}
	for (size_t i = 0; argc >= 2 && i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "usage: foliowatch-collect <command> [options]\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(stderr, "  %-8s %s\n", commands[i].name, commands[i].help);
	return 2;
}
