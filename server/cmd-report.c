/*
 * foliowatch-server report --db F --series S [--revision N] [--format text|json|csv|email] [--all|--verbose]
 * [--no-cache]: what moved (the default text), every row (--all), the long table, or a mail reply to the series (--to, --cc, --from, --mbox,
 * --base-url, --send, --sendmail: report-email.c, mail-send.c). Also stores the regressions it finds, so that the CI gate
 * (`regressions --fail-on new`) and the pages see what the report showed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis-json.h"
#include "cmdline-series.h"
#include "cmdopt.h"
#include "commands.h"
#include "fw-db.h"
#include "store.h"
#include "mail-send.h"
#include "report-culprit.h"
#include "report-email.h"
#include "routes.h"
#include "run-doc.h"

/* A mail to stdout (as an mbox with mbox), and to sendmail when it is given. 0 or 1 (said). */
static int put_mail(const struct strbuf *msg, int mbox, const char *sendmail)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (mbox)
		fw_mbox_wrap(msg->buf, &out);
	else
		strbuf_addstr(&out, msg->buf);
	fwrite(out.buf, 1, out.len, stdout);
	if (sendmail && fw_mail_send(sendmail, msg->buf, msg->len, &err)) {
		fprintf(stderr, "report: --send: %s\n", err.buf);
		ret = 1;
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

/* The reply to the series' thread. 0 or 1. */
static int write_email(sqlite3 *db, const struct fw_an *res, const struct fw_email_opts *mo, int mbox, const char *sendmail)
{
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
	cJSON *facts = NULL;
	int ret = 1;

	if (fw_mail_facts(db, res->series, res->revision == FW_AN_NA ? 1 : res->revision, &facts, &err) ||
	    fw_report_email(res, facts, mo, &msg, &err))
		fprintf(stderr, "report: %s\n", err.buf);
	else
		ret = put_mail(&msg, mbox, sendmail);
	cJSON_Delete(facts);
	strbuf_release(&msg);
	strbuf_release(&err);
	return ret;
}

/* text: what moved, or every row (the cover letter's table), or the long one; csv, json; markdown. */
static int write_table(sqlite3 *db, const struct fw_an *res, enum fw_report_format fmt, enum fw_report_view view,
		       int markdown)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	cJSON *facts = NULL;
	int ret = 0;

	if (!markdown && (fmt != FW_REPORT_TEXT || view == FW_VIEW_VERBOSE))
		fw_report_write(res, fmt, &out);
	else if (fw_mail_facts(db, res->series, res->revision == FW_AN_NA ? 1 : res->revision, &facts, &err))
		ret = 1;
	else if (markdown)
		fw_report_markdown(res, facts, &out);
	else if (view == FW_VIEW_ALL)
		fw_report_cover(res, facts, &out);
	else
		fw_report_moved(res, facts, &out);
	if (ret)
		fprintf(stderr, "report: %s\n", err.buf);
	else
		fwrite(out.buf, 1, out.len, stdout);
	cJSON_Delete(facts);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

static const struct fw_option report_options[] = {
	{ "db", 'd', required_argument, 'd', "FILE", FW_DB_DEFAULT, "the database; must exist" },
	{ "series", 's', required_argument, 's', "NAME", "required", "the series" },
	{ "revision", 'r', required_argument, 'r', "N", "the newest", "revision of the series (1, 2, ...)" },
	{ "format", 'f', required_argument, 'f', "FMT", "text",
	  "text, json, csv, markdown (what moved for a merge-request comment,\nevery row folded) or email (a reply to the series' thread)" },
	{ "all", 'a', no_argument, 'a', NULL, "off",
	  "text: every row, the cover letter's full table (the default is\nwhat moved: only the rows decided better or worse)" },
	{ "verbose", 'v', no_argument, 'v', NULL, "off",
	  "text: the long table (n, CI, q, MDE, counters, profiles, how each\nmetric is compared) instead of what moved" },
	{ "no-cache", 'n', no_argument, 'n', NULL, "off", "recompute instead of using cached analysis results" },
	{ "determinism", 0, required_argument, 'D', "FILE", "$FOLIOWATCH_DETERMINISM, else none",
	  "determinism table read before the built-in one: lines\n"
	  "ACCEL WORKLOAD/VARIANT/METRIC deterministic|rank (README \"Deciding\")" },
	{ .help = "With --format email:" },
	{ "to", 0, required_argument, 'T', "ADDRS", "the series' author", "To: addresses, comma-separated" },
	{ "cc", 0, required_argument, 'C', "ADDRS", "none", "Cc: addresses, comma-separated" },
	{ "from", 0, required_argument, 'F', "ADDR", "foliowatch <foliowatch@localhost>", "From: address" },
	{ "base-url", 0, required_argument, 'U', "URL", "none", "the dashboard (http[s]://...): a link to the series" },
	{ "mbox", 0, no_argument, 'M', NULL, "off", "write it as an mbox (From_ line, >From escaped)" },
	{ "send", 0, no_argument, 'S', NULL, "off", "also hand it to sendmail -t -oi (nothing is sent without it)" },
	{ "sendmail", 0, required_argument, 'P', "PROG", "sendmail", "the program --send runs (argv, no shell)" },
	{ "regression", 0, required_argument, 'R', "ID", "none",
	  "instead of the reply: a new thread about this stored regression and\n"
	  "the commit that caused it (LKP-style: tables, how it was found, how to\n"
	  "reproduce, Reported-by/Closes tags); To: --to, or --to-author" },
	{ "to-author", 0, no_argument, 'A', NULL, "off", "with --regression: To the commit's author only" },
	{ 0 },
};

/* --regression ID: the mail about one regression of the series (report-culprit.h). 0 or 1. */
static int write_culprit(sqlite3 *db, const struct fw_an *res, const char *id_text, const struct fw_email_opts *mo,
			 int to_author, int mbox, const char *sendmail)
{
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
	cJSON *facts = NULL, *bisect = NULL;
	struct fw_regs *one = NULL;
	const struct fw_reg *g;
	char *end = NULL;
	long long id = strtoll(id_text, &end, 10);
	int ret = 1;

	if (!*id_text || *end || id <= 0) {
		strbuf_addf(&err, "--regression: '%s' is not a regression id (a positive number)", id_text);
		goto cleanup;
	}
	if (fw_regression_of(db, id, &one, &err)) {
		if (!err.len)
			strbuf_addf(&err, "--regression: no regression %lld", id);
		goto cleanup;
	}
	g = &one->r[0];
	if (strcmp(g->series, res->series) || g->revision != res->revision) {
		strbuf_addf(&err, "--regression: regression %lld is of series %s revision %d, not %s revision %d", id,
			    g->series, g->revision, res->series, res->revision);
		goto cleanup;
	}
	if (g->bisect_id > 0)
		bisect = fw_bisect_json(db, g->bisect_id);
	if (fw_mail_facts(db, res->series, res->revision == FW_AN_NA ? 1 : res->revision, &facts, &err) ||
	    fw_report_culprit_email(res, facts, g, bisect, mo, to_author, &msg, &err))
		goto cleanup;
	ret = put_mail(&msg, mbox, sendmail);
cleanup:
	if (err.len)
		fprintf(stderr, "report: %s\n", err.buf);
	cJSON_Delete(facts);
	fw_regs_free(one);
	cJSON_Delete(bisect);
	strbuf_release(&msg);
	strbuf_release(&err);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", "csv", "markdown", "email", NULL };
	static const struct fw_usage usage = { "foliowatch-server", "report", "--series NAME [--db FILE] [options]",
		"What moved, under 72 columns for a cover letter: how it was measured, then\n"
		"every patch against its parent and the series against its base, each with\n"
		"only the rows decided better or worse (Before, After, change, spread), a\n"
		"line for the unsure ones and what they need, one for what did not move;\n"
		"--all: the table of every row (verdicts better, worse, same, unsure) and\n"
		"the collector command; --verbose: the long table with the interval, q value, MDE,\n"
		"counters and profiles of every row, against the parent and the base. The regressions it\n"
		"finds are stored, so 'regressions --fail-on new' and the pages see them.\n"
		"--format email writes an RFC 5322 reply to the series' thread (In-Reply-To\n"
		"the cover letter's Message-ID kept by 'run --mbox'): the per-patch table,\n"
		"the counters that moved and how to reproduce; --send mails it.\n"
		"Exit: 0 ok, 1 error (no such series or database, bad address, sendmail\n"
		"failed), 2 usage error.",
		report_options, "--db foliowatch.db --series my-series\n"
		"--db foliowatch.db --series my-series --format email --cc linux-mm@kvack.org --send\n"
		"--db foliowatch.db --series my-series --revision 2 --format csv > table.csv" };
	struct fw_getopt g = FW_GETOPT_INIT(&usage);
	struct strbuf err = STRBUF_INIT;
	enum fw_report_format fmt = FW_REPORT_TEXT;
	struct fw_email_opts mo = { 0 };
	const char *sendmail = "sendmail", *regression = NULL;
	struct fw_series_args a;
	sqlite3 *db = NULL;
	struct fw_an *res = NULL;
	enum fw_report_view view = FW_VIEW_MOVED;
	int opt, taken, ret = 1, email = 0, markdown = 0, mbox = 0, send = 0, mail_opt = 0, to_author = 0;

	fw_series_args_init(&a);
	while ((opt = fw_getopt(&g, argc, argv)) != -1) {
		taken = fw_series_args_opt(&a, &usage, opt, optarg);
		if (taken < 0)
			goto usage;
		if (taken)
			continue;
		switch (opt) {
		case 'f':
			if (fw_opt_choice(&usage, "format", optarg, formats))
				goto usage;
			email = !strcmp(optarg, "email");
			markdown = !strcmp(optarg, "markdown");
			if (!email && !markdown && fw_report_format_parse(optarg, &fmt))
				goto usage;
			break;
		case 'T': mo.to = optarg; mail_opt = opt; break;
		case 'C': mo.cc = optarg; mail_opt = opt; break;
		case 'F': mo.from = optarg; mail_opt = opt; break;
		case 'U': mo.base_url = optarg; mail_opt = opt; break;
		case 'M': mbox = 1; mail_opt = opt; break;
		case 'S': send = 1; mail_opt = opt; break;
		case 'P': sendmail = optarg; mail_opt = opt; break;
		case 'R': regression = optarg; mail_opt = opt; break;
		case 'A': to_author = 1; mail_opt = opt; break;
		case 'n':
			a.o.use_cache = 0;
			break;
		case 'v':
			view = FW_VIEW_VERBOSE;
			break;
		case 'a':
			if (view != FW_VIEW_VERBOSE)
				view = FW_VIEW_ALL;
			break;
		default:
			ret = g.exit;
			goto cleanup;
		}
	}
	if (mail_opt && !email) {
		fw_usage_error(&usage, "--to, --cc, --from, --base-url, --mbox, --send, --sendmail, --regression and "
			       "--to-author go with --format email");
		goto usage;
	}
	if (to_author && !regression) {
		fw_usage_error(&usage, "--to-author goes with --regression ID (the mail about one regression)");
		goto usage;
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
	if (email && regression) {
		ret = write_culprit(db, res, regression, &mo, to_author, mbox, send ? sendmail : NULL);
		goto cleanup;
	}
	if (email) {
		ret = write_email(db, res, &mo, mbox, send ? sendmail : NULL);
		goto cleanup;
	}
	ret = write_table(db, res, fmt, view, markdown);
	goto cleanup;
usage: /* the message is out */
	ret = 2;
cleanup:
	fw_an_free(res);
	fw_db_close(db);
	strbuf_release(&err);
	return ret;
}
