#ifndef FW_COLLECT_COMMANDS_H
#define FW_COLLECT_COMMANDS_H
/* foliowatch-collect subcommands, one file each (collector/cmd-*.c); main.c holds the table. */
int cmd_series(int argc, char **argv);
int cmd_post(int argc, char **argv);
#endif
