#ifndef FW_SERVER_CMDLINE_SERIES_H
#define FW_SERVER_CMDLINE_SERIES_H
#include <sqlite3.h>
#include "analysis.h"
#include "cmdopt.h"

/*
 * The command line of a command that analyses one series (report,
 * undecided): the options they share, and what follows fw_getopt. Their
 * option tables give --db as 'd', --series 's', --revision 'r' and
 * --determinism 'D'.
 */
struct fw_series_args {
	const char *dbpath;  /* FW_DB_DEFAULT unless --db */
	const char *series;  /* required */
	int revision;        /* 0: the newest */
	struct fw_analysis_opts o;
};
void fw_series_args_init(struct fw_series_args *a);

/* One of fw_getopt's answers: 1 taken into a, 0 not one of the shared four, -1 a usage error (said). */
int fw_series_args_opt(struct fw_series_args *a, const struct fw_usage *u, int opt, const char *arg);

/*
 * After fw_getopt: nothing left over, --series given, and the database,
 * which must exist, opened into *db. -1 to go on; else the exit code, its
 * message out on stderr: 2 a usage error, 1 the database ("CMD: ...").
 */
int fw_series_args_open(const struct fw_series_args *a, const struct fw_usage *u, int argc, char **argv,
			sqlite3 **db);

#endif
