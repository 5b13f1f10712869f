/* foliowatch-server: dispatches to one subcommand per file (server/cmd-*.c). */
#include <stdio.h>
#include <string.h>
#include "commands.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "import", cmd_import, "import --db FILE doc.json...   store run documents" },
	{ "serve", cmd_serve, "serve --db FILE [--listen ADDR:PORT] ...   HTTP dashboard and API" },
	{ "token", cmd_token, "token add NAME|list|revoke NAME --db FILE   API tokens" },
	{ "regressions", cmd_regressions, "regressions --db FILE [--series S] [--status S] [--fail-on new]   stored regressions (CI gate)" },
	{ "report", cmd_report, "report --db FILE --series S [--revision N] [--format text|json|csv]   the series table" },
	{ "export", cmd_export, "export --db FILE --out DIR [--series S] [--static DIR]   pages and plots as static files" },
	{ "seal", cmd_seal, "seal [FILE] | seal --out-dir DIR FILE...   fill in fingerprint and run_id of documents" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: foliowatch-server <command> [options]\n\ncommands:\n");
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
		printf("foliowatch-server %s\n", FW_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "foliowatch-server: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
