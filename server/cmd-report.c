/*
 * foliowatch-server report --db F --series S [--revision N] [--format text|json|csv] [--no-cache]:
 * the series table. Also stores the regressions it finds, so that the CI gate
 * (`regressions --fail-on new`) and the pages see what the report showed.
 */
#include <stdio.h>
#include <stdlib.h>
#include "analysis.h"
#include "cmdline-series.h"
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
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	enum fw_report_format fmt = FW_REPORT_TEXT;
	struct fw_series_args a;
	sqlite3 *db = NULL;
	cJSON *res = NULL;
	int opt, taken, ret = 1;

	fw_series_args_init(&a);
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		taken = fw_series_args_opt(&a, &usage, opt, optarg);
		if (taken < 0)
			goto usage;
		if (taken)
			continue;
		switch (opt) {
		case 'f':
			if (fw_opt_choice(&usage, "format", optarg, formats) || fw_report_format_parse(optarg, &fmt))
				goto usage;
			break;
		case 'n':
			a.o.use_cache = 0;
			break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	ret = fw_series_args_open(&a, &usage, argc, argv, &db);
	if (ret >= 0)
		goto cleanup;
	ret = 1;
	if (fw_analysis_series(db, a.series, a.revision, &a.o, &res, &err) ||
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
