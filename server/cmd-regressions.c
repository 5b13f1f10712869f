/*
 * foliowatch-server regressions --db F [--series S] [--status S] [--fail-on new] [--json]
 * foliowatch-server regressions --db F --set ID --status S --by WHO
 * Lists stored regressions after analysing the series (newest revision of
 * each, or of S) so the list is current; as a CI gate, --fail-on new exits 1
 * when any regression is new. --set changes one regression's status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "store.h"
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "routes.h"
#include "run-doc.h"
#include "utf8.h"

/* The list in the API's form: links, not internal ids (server/regression-json.c). */
static void print_json(const struct fw_regs *list)
{
	cJSON *out = cJSON_CreateArray();
	char *text;

	for (size_t i = 0; i < list->n; i++)
		cJSON_AddItemToArray(out, fw_regression_json(&list->r[i]));
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

static const struct fw_option regr_opts[] = {
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
static const struct fw_usage regr_usage = { "foliowatch-server", "regressions",
	"[--db FILE] [--series NAME] [--status STATUS] [--fail-on new] [--json]\n"
	"[--db FILE] --set ID --status STATUS --by WHO [--note TEXT]",
	"Lists the stored regressions, all of them unless filtered, one per line: id,\n"
	"status, series and revision, commit, workload/variant metric, delta, who set\n"
	"the status. The series are analysed first (their newest revision), so the\n"
	"list is current. As a CI gate, --fail-on new exits 1 when any is new.\n"
	"Exit: 0 ok, 1 new regressions with --fail-on new (or an error), 2 usage error\n"
	"or no such series (a mistyped name never passes the gate).",
	regr_opts, "--db foliowatch.db\n--db foliowatch.db --series my-series --fail-on new\n"
	"--db foliowatch.db --status new --json\n--db foliowatch.db --set 12 --status acknowledged --by alice" };

/* The command line, checked. */
struct regr_args {
	const char *dbpath, *series, *status, *fail_on, *by, *note;
	struct fw_analysis_opts o;
	long long set_id;
	int json;
};

/* --set ID: a regression id, a number above 0; -1 after a usage error naming --set. */
static int parse_set_id(const char *arg, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0) {
		fw_usage_error(&regr_usage, "--set must be a regression id (a number above 0), not '%s'", arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* Options one by one: -1 to go on, else the exit code (0 --help, 2 usage error). */
static int regr_parse_opts(int argc, char **argv, struct regr_args *a)
{
	static const char *const statuses[] = { "new", "acknowledged", "fixed", "invalid", NULL };
	static const char *const fail_ons[] = { "new", NULL };
	struct fw_getopt g = FW_GETOPT_INIT(&regr_usage);
	int opt;

	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		switch (opt) {
		case 'd': a->dbpath = optarg; break;
		case 's': a->series = optarg; break;
		case 't':
			if (fw_opt_choice(&regr_usage, "status", optarg, statuses))
				return 2;
			a->status = optarg;
			break;
		case 'f':
			if (fw_opt_choice(&regr_usage, "fail-on", optarg, fail_ons))
				return 2;
			a->fail_on = optarg;
			break;
		case 'b': a->by = optarg; break;
		case 'n': a->note = optarg; break;
		case 'j': a->json = 1; break;
		case 'D': a->o.determinism_file = optarg; break;
		case 'i':
			if (parse_set_id(optarg, &a->set_id))
				return 2;
			break;
		default:
			return g.exit;
		}
	}
	return -1;
}

/* Options and how they combine: -1 to go on, else the exit code. */
static int regr_parse_args(int argc, char **argv, struct regr_args *a)
{
	int rc;

	memset(a, 0, sizeof(*a));
	a->dbpath = FW_DB_DEFAULT;
	fw_analysis_opts_init(&a->o);
	rc = regr_parse_opts(argc, argv, a);
	if (rc >= 0)
		return rc;
	if (optind != argc)
		return fw_usage_error(&regr_usage, "unexpected argument '%s'", argv[optind]);
	if (a->set_id && !a->status)
		return fw_usage_error(&regr_usage, "--set needs --status (new, acknowledged, fixed or invalid)");
	if (a->set_id && (!a->by || !*a->by))
		return fw_usage_error(&regr_usage, "--set needs --by WHO (who changes the status)");
	if (!a->set_id && (a->by || a->note))
		return fw_usage_error(&regr_usage, "--by and --note go with --set ID");
	return -1;
}

/* The listing: tab-separated lines on stdout, or the JSON array; "none" on stderr. */
static void print_list(const struct fw_regs *list, const struct regr_args *a)
{
	if (a->json) {
		print_json(list);
		return;
	}
	/* an empty list is an answer too: say so, on stderr (stdout stays one line per regression) */
	if (!list->n)
		fprintf(stderr, "regressions: none%s%s%s%s\n", a->status ? " with status " : "",
			a->status ? a->status : "", a->series ? " in series " : "", a->series ? a->series : "");
	for (size_t i = 0; i < list->n; i++) {
		const struct fw_reg *r = &list->r[i];

		printf("%lld\t%s\t%s v%d\t%.*s\t%s/%s %s\t%+.1f%%\t(by %s at %s)\n", r->id, r->status, r->series,
		       r->revision, UTF8_CUT(r->sha, 12), r->workload, r->variant, r->metric, r->delta_pct,
		       r->status_by, r->status_at);
	}
}

/* Analyse, list, and answer the --fail-on gate: 0 ok, 1 new regressions (with --fail-on) or an error. */
static int list_and_gate(sqlite3 *db, struct regr_args *a)
{
	struct strbuf err = STRBUF_INIT;
	struct fw_regs *list = NULL;
	int failing = 0, ret = 1, known;

	/* a mistyped series has no regressions either: the gate must not pass on it */
	if (a->series && (known = fw_store_series_exists(db, a->series)) != 1) {
		if (known < 0)
			fprintf(stderr, "regressions: %s\n", fw_db_errmsg(db));
		else  /* as ci/gate.sh and the API's 404: a usage error, not a failing gate */
			fprintf(stderr, "regressions: no such series '%s'\n", a->series);
		ret = known < 0 ? 1 : 2;
		goto cleanup;
	}
	if (fw_regressions_refresh(db, a->series, &a->o, &err) ||
	    fw_regressions_of(db, a->series, a->status, &list, &err)) {
		fprintf(stderr, "regressions: %s\n", err.buf);
		goto cleanup;
	}
	print_list(list, a);
	for (size_t i = 0; i < list->n; i++)
		failing |= !strcmp(list->r[i].status, "new");
	/* The gate looks at new regressions even when the listing is filtered to another status. */
	if (a->fail_on && a->status && strcmp(a->status, "new")) {
		struct fw_regs *news = NULL;
		if (fw_regressions_of(db, a->series, "new", &news, &err)) {
			fprintf(stderr, "regressions: %s\n", err.buf);
			goto cleanup;
		}
		failing = news->n > 0;
		fw_regs_free(news);
	}
	ret = a->fail_on && failing ? 1 : 0;
	if (ret)
		fprintf(stderr, "regressions: new regressions found\n");
cleanup:
	fw_regs_free(list);
	strbuf_release(&err);
	return ret;
}

int cmd_regressions(int argc, char **argv)
{
	struct regr_args a;
	struct strbuf err = STRBUF_INIT;
	sqlite3 *db;
	int ret = regr_parse_args(argc, argv, &a);

	if (ret >= 0)
		return ret;
	db = fw_db_open_existing(a.dbpath, &err);
	if (!db) {
		fprintf(stderr, "regressions: %s\n", err.buf);
		ret = 1;
	} else if (a.set_id) {
		ret = set_one(db, a.set_id, a.status, a.by, a.note);
	} else {
		ret = list_and_gate(db, &a);
	}
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
