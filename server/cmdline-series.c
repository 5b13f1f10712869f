/* The command line report and undecided share (cmdline-series.h). */
#include <stdio.h>
#include "cmdline-series.h"
#include "fw-db.h"
#include "strbuf.h"

void fw_series_args_init(struct fw_series_args *a)
{
	a->dbpath = FW_DB_DEFAULT;
	a->series = NULL;
	a->revision = 0;
	fw_analysis_opts_init(&a->o);
}

int fw_series_args_opt(struct fw_series_args *a, const struct fw_usage *u, int opt, const char *arg)
{
	switch (opt) {
	case 'd': a->dbpath = arg; return 1;
	case 's': a->series = arg; return 1;
	case 'D': a->o.determinism_file = arg; return 1;
	case 'r': return fw_opt_int(u, "revision", arg, 1, 1000000000, &a->revision) ? -1 : 1;
	default: return 0;
	}
}

int fw_series_args_open(const struct fw_series_args *a, const struct fw_usage *u, int argc, char **argv,
			sqlite3 **db)
{
	struct strbuf err = STRBUF_INIT;

	*db = NULL;
	if (optind != argc)
		return fw_usage_error(u, "unexpected argument '%s'", argv[optind]);
	if (!a->series)
		return fw_usage_error(u, "--series NAME is required");
	*db = fw_db_open_existing(a->dbpath, &err);
	if (!*db)
		fprintf(stderr, "%s: %s\n", u->cmd, err.buf);
	strbuf_release(&err);
	return *db ? -1 : 1;
}
