/*
 * foliowatch-server report --db F --series S [--revision N] [--format text|json|csv] [--no-cache]
 *     [--determinism FILE]:
 * the series table. Also stores the regressions it finds, so that the CI gate
 * (`regressions --fail-on new`) and the pages see what the report showed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "analysis.h"
#include "commands.h"
#include "fw-db.h"

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "series", required_argument, NULL, 's' },
		{ "revision", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "no-cache", no_argument, NULL, 'n' },
		{ "determinism", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dbpath = FW_DB_DEFAULT, *series = NULL;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	enum fw_report_format fmt = FW_REPORT_TEXT;
	struct fw_analysis_opts o;
	sqlite3 *db = NULL;
	cJSON *res = NULL;
	int opt, revision = 0, ret = 1;
	char *end;

	fw_analysis_opts_init(&o);
	while ((opt = getopt_long(argc, argv, "d:s:r:f:nD:", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dbpath = optarg;
			break;
		case 's':
			series = optarg;
			break;
		case 'r':
			revision = (int)strtol(optarg, &end, 10);
			if (*end || revision <= 0)
				goto usage;
			break;
		case 'f':
			if (fw_report_format_parse(optarg, &fmt))
				goto usage;
			break;
		case 'n':
			o.use_cache = 0;
			break;
		case 'D':
			o.determinism_file = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (!series || optind != argc)
		goto usage;
	db = fw_db_open(dbpath, &err);
	if (!db) {
		fprintf(stderr, "report: %s\n", err.buf);
		goto cleanup;
	}
	if (fw_analysis_series(db, series, revision, &o, &res, &err) ||
	    fw_regressions_update(db, res, &err) < 0) {
		fprintf(stderr, "report: %s\n", err.buf);
		goto cleanup;
	}
	fw_report_write(res, fmt, &out);
	fwrite(out.buf, 1, out.len, stdout);
	ret = 0;
	goto cleanup;
usage:
	fprintf(stderr, "usage: foliowatch-server report --db FILE --series NAME [--revision N] "
		"[--format text|json|csv] [--no-cache] [--determinism FILE]\n");
	ret = 2;
cleanup:
	cJSON_Delete(res);
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
