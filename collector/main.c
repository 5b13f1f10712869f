/* foliowatch-collect: builds, boots and measures kernels; one file per subcommand. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "kernel-build.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "boot", cmd_boot, "boot --kernel bzImage [--workloads L] [--accel A] [--db F | --out F]  one measured boot" },
	{ "kernel", cmd_kernel, "kernel [--tree DIR] [--cache DIR] [--jobs N]  build (or reuse) a kernel, print its bzImage" },
	{ "post", cmd_post, "post --url URL --token-file F [--spool DIR] doc.json...  send run documents" },
	{ "probe", cmd_probe, "probe                          which accelerators (kvm, tcg, icount) boot a kernel here" },
	{ "run", cmd_run, "run --series S (--range A..B | --mbox F) [--boots N] [--interleave] [--db F | --post URL]  measure a series" },
	{ "series", cmd_series, "series --tree DIR (--range A..B | --base REV --mbox F --worktree DIR)  list a series" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: foliowatch-collect <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %s\n", commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("foliowatch-collect %s\n", FW_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "foliowatch-collect: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
