/* foliowatch-server: dispatches to one subcommand per file (server/cmd-*.c). */
#include "commands.h"
#include "subcommand.h"

static const struct fw_subcommand commands[] = {
	{ "import", cmd_import, "store run documents in the database (creating it)" },
	{ "serve", cmd_serve, "HTTP dashboard and API" },
	{ "token", cmd_token, "API tokens for the runners that POST documents: add, list, revoke" },
	{ "webhook", cmd_webhook, "where serve POSTs regression events (signed JSON): add, list, remove" },
	{ "regressions", cmd_regressions, "list stored regressions, change their status; a CI gate" },
	{ "report", cmd_report, "the series table: each commit against its parent and the base" },
	{ "undecided", cmd_undecided, "rows still unsure and the boots that would decide them (JSON)" },
	{ "export", cmd_export, "the dashboard's pages and plots as static files" },
	{ "seal", cmd_seal, "fill in fingerprint, config hash and run_id of run documents" },
};

int main(int argc, char **argv)
{
	return fw_subcommand_main("foliowatch-server", commands, sizeof(commands) / sizeof(commands[0]), argc, argv);
}
