/*
 * foliowatch-server undecided --series S [--db F] [--revision N] [--max-looks K]
 *     [--max-boots N] [--determinism FILE]:
 * the sequential design's question as JSON (fw_analysis_undecided): which
 * rows are still unsure, and how many boots each commit and workload should
 * have after the next look. For collectors that are not foliowatch-collect,
 * and for tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include "analysis-json.h"
#include "cmdline-series.h"
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"

int cmd_undecided(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT, "the database; must exist" },
		{ "series", 's', required_argument, 's', "NAME", "required", "the series" },
		{ "revision", 'r', required_argument, 'r', "N", "the newest", "revision of the series (1, 2, ...)" },
		{ "max-looks", 0, required_argument, 'k', "K", "4",
		  "looks (rounds of analysis) the design plans, the first included:\n"
		  "alpha is spent over them; the boots must record the same K" },
		{ "max-boots", 0, required_argument, 'b', "N", "24", "budget: boots per commit, environment and workload" },
		{ "determinism", 0, required_argument, 'D', "FILE", "$FOLIOWATCH_DETERMINISM, else none",
		  "determinism table for the analysis (README \"Deciding\")" },
		{ 0 },
	};
	static const struct fw_usage usage = { "foliowatch-server", "undecided", "--series NAME [--db FILE] [options]",
		"The sequential design's question, asked between rounds of boots: the rows\n"
		"(each commit against its parent, per environment and metric) that are still\n"
		"unsure while a change of the metric's minimum effect is possible, with the\n"
		"boots a side they need, and per commit, environment and workload the boots\n"
		"to have after the next look (JSON; analysis.h, fw_analysis_undecided).\n"
		"Exit: 0 ok, 1 error (no such series or database), 2 usage error.",
		opts, "--db foliowatch.db --series my-series\n"
		"--db foliowatch.db --series my-series --max-looks 3 --max-boots 12" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct fw_seq_opts seq = { .max_looks = 4, .max_boots = 24 };
	struct strbuf err = STRBUF_INIT;
	struct fw_series_args a;
	sqlite3 *db = NULL;
	cJSON *res = NULL;
	char *text;
	int opt, taken, ret = 1;

	fw_series_args_init(&a);
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		taken = fw_series_args_opt(&a, &usage, opt, optarg);
		if (taken < 0)
			goto usage;
		if (taken)
			continue;
		switch (opt) {
		case 'k':
			if (fw_opt_int(&usage, "max-looks", optarg, 1, 1000, &seq.max_looks))
				goto usage;
			break;
		case 'b':
			if (fw_opt_int(&usage, "max-boots", optarg, 1, 100000, &seq.max_boots))
				goto usage;
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
	if (fw_analysis_undecided(db, a.series, a.revision, &a.o, &seq, &res, &err)) {
		fprintf(stderr, "undecided: %s\n", err.buf);
		goto cleanup;
	}
	text = cJSON_Print(res);
	printf("%s\n", text ? text : "{}");
	cJSON_free(text);
	ret = 0;
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	cJSON_Delete(res);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
