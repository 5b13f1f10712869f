/*
 * foliowatch-server regressions --db F [--series S] [--status S] [--fail-on new] [--json]
 * foliowatch-server regressions --db F --set ID --status S --by WHO
 * Lists stored regressions after analysing the series (newest revision of
 * each, or of S) so the list is current; as a CI gate, --fail-on new exits 1
 * when any regression is new. --set changes one regression's status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "routes.h"
#include "utf8.h"

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(it) ? it->valuestring : "";
}

static double num_of(const cJSON *o, const char *k)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(it) ? it->valuedouble : -1;
}

/* The list in the API's form: links, not internal ids (server/regression-json.c). */
static void print_json(const cJSON *list)
{
	cJSON *out = cJSON_CreateArray();
	const cJSON *r;
	char *text;

	cJSON_ArrayForEach(r, list)
		cJSON_AddItemToArray(out, fw_regression_json(r));
	text = cJSON_Print(out);
	printf("%s\n", text ? text : "[]");
	cJSON_free(text);
	cJSON_Delete(out);
}

/* --set: 0 changed, 1 not (said on stderr). */
static int set_one(sqlite3 *db, long long id, const char *status, const char *by, const char *note)
{
	struct strbuf err = STRBUF_INIT;
	int rc = fw_regression_set_status(db, id, status, by, note, &err);

	if (rc)
		fprintf(stderr, "regressions: %s\n", rc > 0 ? "no such regression" : err.buf);
	else
		printf("regression %lld: %s by %s\n", id, status, by);
	strbuf_release(&err);
	return rc ? 1 : 0;
}

int cmd_regressions(int argc, char **argv)
{
	static const struct fw_option opts[] = {
		{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT, "the database; must exist" },
		{ "series", 's', required_argument, 's', "NAME", "every series", "only this series" },
		{ "status", 't', required_argument, 't', "STATUS", "every status",
		  "new, acknowledged, fixed or invalid: list only these;\nwith --set: the new status" },
		{ "fail-on", 'f', required_argument, 'f', "new", "off",
		  "exit 1 if any regression is new (whatever --status lists)" },
		{ "json", 'j', no_argument, 'j', NULL, "off", "print the list as JSON" },
		{ "determinism", 0, required_argument, 'D', "FILE", "$FOLIOWATCH_DETERMINISM, else none",
		  "determinism table for the analysis (README \"Deciding\")" },
		{ .help = "Changing a status:" },
		{ "set", 'i', required_argument, 'i', "ID", "off", "change regression ID (the first column) to --status" },
		{ "by", 'b', required_argument, 'b', "WHO", "none", "who changes it, kept with it (required with --set)" },
		{ "note", 'n', required_argument, 'n', "TEXT", "none", "why, kept in the regression's history" },
		{ 0 },
	};
	static const char *const statuses[] = { "new", "acknowledged", "fixed", "invalid", NULL };
	static const char *const fail_ons[] = { "new", NULL };
	static const struct fw_usage usage = { "foliowatch-server", "regressions",
		"[--db FILE] [--series NAME] [--status STATUS] [--fail-on new] [--json]\n"
		"[--db FILE] --set ID --status STATUS --by WHO [--note TEXT]",
		"Lists the stored regressions, all of them unless filtered, one per line: id,\n"
		"status, series and revision, commit, workload/variant metric, delta, who set\n"
		"the status. The series are analysed first (their newest revision), so the\n"
		"list is current. As a CI gate, --fail-on new exits 1 when any is new.\n"
		"Exit: 0 ok, 1 new regressions with --fail-on new (or an error), 2 usage error.",
		opts, "--db foliowatch.db\n--db foliowatch.db --series my-series --fail-on new\n"
		"--db foliowatch.db --status new --json\n--db foliowatch.db --set 12 --status acknowledged --by alice" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	const char *dbpath = FW_DB_DEFAULT, *series = NULL, *status = NULL, *fail_on = NULL, *by = NULL;
	const char *note = NULL;
	struct strbuf err = STRBUF_INIT;
	struct fw_analysis_opts o;
	sqlite3 *db = NULL;
	cJSON *list = NULL, *r;
	long long set_id = 0;
	int opt, json = 0, failing = 0, ret = 1;
	char *end;

	fw_analysis_opts_init(&o);
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'd': dbpath = optarg; break;
		case 's': series = optarg; break;
		case 't':
			if (fw_opt_choice(&usage, "status", optarg, statuses))
				goto usage;
			status = optarg;
			break;
		case 'f':
			if (fw_opt_choice(&usage, "fail-on", optarg, fail_ons))
				goto usage;
			fail_on = optarg;
			break;
		case 'b': by = optarg; break;
		case 'n': note = optarg; break;
		case 'j': json = 1; break;
		case 'D': o.determinism_file = optarg; break;
		case 'i':
			set_id = strtoll(optarg, &end, 10);
			if (end == optarg || *end || set_id <= 0) {
				fw_usage_error(&usage, "--set must be a regression id (a number above 0), not '%s'", optarg);
				goto usage;
			}
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
	if (set_id && !status) {
		fw_usage_error(&usage, "--set needs --status (new, acknowledged, fixed or invalid)");
		goto usage;
	}
	if (set_id && (!by || !*by)) {
		fw_usage_error(&usage, "--set needs --by WHO (who changes the status)");
		goto usage;
	}
	if (!set_id && (by || note)) {
		fw_usage_error(&usage, "--by and --note go with --set ID");
		goto usage;
	}
	db = fw_db_open_existing(dbpath, &err);
	if (!db) {
		fprintf(stderr, "regressions: %s\n", err.buf);
		goto cleanup;
	}
	if (set_id) {
		ret = set_one(db, set_id, status, by, note);
		goto cleanup;
	}
	if (fw_regressions_refresh(db, series, &o, &err) || fw_regressions_list(db, series, status, &list, &err)) {
		fprintf(stderr, "regressions: %s\n", err.buf);
		goto cleanup;
	}
	if (json)
		print_json(list);
	/* an empty list is an answer too: say so, on stderr (stdout stays one line per regression) */
	if (!json && !cJSON_GetArraySize(list))
		fprintf(stderr, "regressions: none%s%s%s%s\n", status ? " with status " : "", status ? status : "",
			series ? " in series " : "", series ? series : "");
	cJSON_ArrayForEach(r, list) {
		if (!json)
			printf("%.0f\t%s\t%s v%.0f\t%.*s\t%s/%s %s\t%+.1f%%\t(by %s at %s)\n", num_of(r, "id"),
			       str_of(r, "status"), str_of(r, "series"), num_of(r, "revision"), UTF8_CUT(str_of(r, "sha"), 12),
			       str_of(r, "workload"), str_of(r, "variant"), str_of(r, "metric"),
			       num_of(r, "delta_pct"), str_of(r, "status_by"),
			       str_of(r, "status_at"));
		failing |= !strcmp(str_of(r, "status"), "new");
	}
	/* The gate looks at new regressions even when the listing is filtered to another status. */
	if (fail_on && status && strcmp(status, "new")) {
		cJSON *news = NULL;
		if (fw_regressions_list(db, series, "new", &news, &err)) {
			fprintf(stderr, "regressions: %s\n", err.buf);
			goto cleanup;
		}
		failing = cJSON_GetArraySize(news) > 0;
		cJSON_Delete(news);
	}
	ret = fail_on && failing ? 1 : 0;
	if (ret)
		fprintf(stderr, "regressions: new regressions found\n");
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	cJSON_Delete(list);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
