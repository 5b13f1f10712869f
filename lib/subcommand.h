#ifndef FW_SUBCOMMAND_H
#define FW_SUBCOMMAND_H
#include <stddef.h>

/* One table of subcommands per program; main() hands argv to the one named. */
struct fw_subcommand {
	const char *name;
	int (*fn)(int argc, char **argv); /* its --help prints its full usage (lib/cmdopt.h) */
	const char *summary;              /* one line for the list of commands */
};

/*
 * Dispatch, and the help around it: `PROG help` / --help / -h print the list of
 * commands, `PROG help CMD` is `PROG CMD --help`; returns the exit code.
 */
int fw_subcommand_main(const char *prog, const struct fw_subcommand *cmds, size_t n, int argc, char **argv);

#endif
