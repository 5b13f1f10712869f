/* foliowatch-server: dispatches to one subcommand per file (server/cmd-*.c). */
#include "commands.h"
#include "subcommand.h"

static const struct fw_subcommand commands[] = {
	{ "import", cmd_import, "import --db FILE doc.json...   store run documents" },
	{ "serve", cmd_serve, "serve --db FILE [--listen ADDR:PORT] ...   HTTP dashboard and API" },
	{ "token", cmd_token, "token add NAME|list|revoke NAME --db FILE   API tokens" },
	{ "regressions", cmd_regressions, "regressions --db FILE [--series S] [--status S] [--fail-on new]   stored regressions (CI gate)" },
	{ "report", cmd_report, "report --db FILE --series S [--revision N] [--format text|json|csv]   the series table" },
	{ "undecided", cmd_undecided, "undecided --db FILE --series S [--max-looks K] [--max-boots N]   rows still unsure, boots to add (JSON)" },
	{ "export", cmd_export, "export --db FILE --out DIR [--series S] [--static DIR]   pages and plots as static files" },
	{ "seal", cmd_seal, "seal [FILE] | seal --out-dir DIR FILE...   fill in fingerprint and run_id of documents" },
};

int main(int argc, char **argv)
{
	return fw_subcommand_main("foliowatch-server", commands, sizeof(commands) / sizeof(commands[0]), argc, argv);
}
