#ifndef FW_SERVER_COMMANDS_H
#define FW_SERVER_COMMANDS_H
/* foliowatch-server subcommands, one file each (server/cmd-*.c); main.c holds the table. */
int cmd_import(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_token(int argc, char **argv);
int cmd_webhook(int argc, char **argv);
int cmd_report(int argc, char **argv); int cmd_regressions(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_undecided(int argc, char **argv);
#endif
