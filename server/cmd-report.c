/*
 * foliowatch-server report --db F --series S [--revision N] [--format text|json|csv] [--no-cache]:
 * the series table. Also stores the regressions it finds, so that the CI gate
 * (`regressions --fail-on new`) and the pages see what the report showed.
 */
#include <stdio.h>
#include <stdlib.h>
#include "analysis.h"
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"

int cmd_report(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT, "the database; must exist" },
		{ "series", 's', required_argument, 's', "NAME", "required", "the series" },
		{ "revision", 'r', required_argument, 'r', "N", "the newest", "revision of the series (1, 2, ...)" },
		{ "format", 'f', required_argument, 'f', "FMT", "text", "text, json or csv" },
		{ "no-cache", 'n', no_argument, 'n', NULL, "off", "recompute instead of using cached analysis results" },
		{ "determinism", 0, required_argument, 'D', "FILE", "$FOLIOWATCH_DETERMINISM, else none",
		  "determinism table read before the built-in one: lines\n"
		  "ACCEL WORKLOAD/VARIANT/METRIC deterministic|rank (README \"Deciding\")" },
		{ 0 },
	};
	static const char *const formats[] = { "text", "json", "csv", NULL };
	static const struct fw_usage usage = { "foliowatch-server", "report", "--series NAME [--db FILE] [options]",
		"The series table: every commit against its parent and against the base,\n"
		"per workload and metric, with delta, confidence interval, q value and a\n"
		"verdict (improvement, regression, no change, unsure). The regressions it\n"
		"finds are stored, so 'regressions --fail-on new' and the pages see them.\n"
		"Exit: 0 ok, 1 error (no such series or database), 2 usage error.",
		opts, "--db foliowatch.db --series my-series\n"
		"--db foliowatch.db --series my-series --revision 2 --format csv > table.csv" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT, *series = NULL;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	enum fw_report_format fmt = FW_REPORT_TEXT;
	struct fw_analysis_opts o;
	sqlite3 *db = NULL;
	cJSON *res = NULL;
	int opt, revision = 0, ret = 1;

	fw_analysis_opts_init(&o);
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'd':
			dbpath = optarg;
			break;
		case 's':
			series = optarg;
			break;
		case 'r':
			if (fw_opt_int(&usage, "revision", optarg, 1, 1000000000, &revision))
				goto usage;
			break;
		case 'f':
			if (fw_opt_choice(&usage, "format", optarg, formats) || fw_report_format_parse(optarg, &fmt))
				goto usage;
			break;
		case 'n':
			o.use_cache = 0;
			break;
		case 'D':
			o.determinism_file = optarg;
			break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	if (optind != argc) {
		fw_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (!series) {
		fw_usage_error(&usage, "--series NAME is required");
		goto usage;
	}
	db = fw_db_open_existing(dbpath, &err);
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
usage: /* the message is out */
	ret = 2;
cleanup:
	cJSON_Delete(res);
	fw_db_close(db);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
