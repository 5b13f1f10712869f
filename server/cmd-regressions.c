/*
 * foliowatch-server regressions --db F [--series S] [--status S] [--fail-on new] [--json] [--determinism FILE]
 * foliowatch-server regressions --db F --set ID --status S --by WHO
 * Lists stored regressions after analysing the series (newest revision of
 * each, or of S) so the list is current; as a CI gate, --fail-on new exits 1
 * when any regression is new. --set changes one regression's status.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "commands.h"
#include "fw-db.h"

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

int cmd_regressions(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "series", required_argument, NULL, 's' },
		{ "status", required_argument, NULL, 't' },
		{ "fail-on", required_argument, NULL, 'f' },
		{ "set", required_argument, NULL, 'i' },
		{ "by", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "determinism", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dbpath = FW_DB_DEFAULT, *series = NULL, *status = NULL, *fail_on = NULL, *by = NULL;
	struct strbuf err = STRBUF_INIT;
	struct fw_analysis_opts o;
	sqlite3 *db = NULL;
	cJSON *list = NULL, *r;
	long long set_id = 0;
	int opt, json = 0, failing = 0, ret = 1;
	char *end;

	fw_analysis_opts_init(&o);
	while ((opt = getopt_long(argc, argv, "d:s:t:f:i:b:jD:", opts, NULL)) != -1) {
		switch (opt) {
		case 'd': dbpath = optarg; break;
		case 's': series = optarg; break;
		case 't': status = optarg; break;
		case 'f': fail_on = optarg; break;
		case 'b': by = optarg; break;
		case 'j': json = 1; break;
		case 'D': o.determinism_file = optarg; break;
		case 'i':
			set_id = strtoll(optarg, &end, 10);
			if (*end || set_id <= 0)
				goto usage;
			break;
		default: goto usage;
		}
	}
	if (optind != argc || (fail_on && strcmp(fail_on, "new")) || (set_id && (!status || !by)))
		goto usage;
	db = fw_db_open(dbpath, &err);
	if (!db) {
		fprintf(stderr, "regressions: %s\n", err.buf);
		goto cleanup;
	}
	if (set_id) {
		int rc = fw_regression_set_status(db, set_id, status, by, &err);
		if (rc)
			fprintf(stderr, "regressions: %s\n", rc > 0 ? "no such regression" : err.buf);
		else
			printf("regression %lld: %s by %s\n", set_id, status, by);
		ret = rc ? 1 : 0;
		goto cleanup;
	}
	if (fw_regressions_refresh(db, series, &o, &err) || fw_regressions_list(db, series, status, &list, &err)) {
		fprintf(stderr, "regressions: %s\n", err.buf);
		goto cleanup;
	}
	if (json) {
		char *text = cJSON_Print(list);
		printf("%s\n", text ? text : "[]");
		cJSON_free(text);
	}
	cJSON_ArrayForEach(r, list) {
		if (!json)
			printf("%.0f\t%s\t%s v%.0f\t%.12s\t%s/%s %s\t%+.1f%%\t(by %s at %s)\n", num_of(r, "id"),
			       str_of(r, "status"), str_of(r, "series"), num_of(r, "revision"), str_of(r, "sha"),
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
usage:
	fprintf(stderr, "usage: foliowatch-server regressions --db FILE [--series NAME] [--status S] "
		"[--fail-on new] [--json] [--determinism FILE]\n"
		"       foliowatch-server regressions --db FILE --set ID --status S --by WHO\n");
	ret = 2;
cleanup:
	cJSON_Delete(list);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
