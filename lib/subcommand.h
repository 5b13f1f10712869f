#ifndef FW_SUBCOMMAND_H
#define FW_SUBCOMMAND_H
#include <stddef.h>

/* One table of subcommands per program; main() hands argv to the one named. */
struct fw_subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

/* --help/--version/usage handling and dispatch; returns the exit code. */
int fw_subcommand_main(const char *prog, const struct fw_subcommand *cmds, size_t n, int argc, char **argv);

#endif
