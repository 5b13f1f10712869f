/*
 * The commit page's bisects (issue 30): the bisects whose culprit, good or
 * bad end this commit is, with their answer, steps and cost; each links to
 * its record in the API.
 */
#include <stdio.h>
#include <string.h>
#include "bisect-db.h"
#include "html.h"
#include "ui.h"

struct bisect_rows {
	struct strbuf *sb;
	const char *sha;
	int n;
};

static void short_sha(struct strbuf *sb, const char *sha)
{
	char s12[13];

	snprintf(s12, sizeof(s12), "%.12s", sha ? sha : "");
	strbuf_addstr(sb, "<code>");
	html_txt(sb, s12); /* a record's text like any other: escaped */
	strbuf_addstr(sb, "</code>");
}

static int bisect_row(const struct fw_bisect_record *r, void *ctx)
{
	struct bisect_rows *br = ctx;
	struct strbuf *sb = br->sb;
	const char *role = r->culprit_sha && !strcmp(r->culprit_sha, br->sha) ? "culprit"
			   : !strcmp(r->good_sha, br->sha)			? "good end"
			   : !strcmp(r->bad_sha, br->sha)			? "bad end"
										: NULL;

	if (!role)
		return 0;
	if (!br->n++)
		strbuf_addstr(sb, "<h2>Bisects</h2>\n<table class=\"grid cards\" id=\"bisects\"><thead><tr><th>bisect</th>"
				  "<th>this commit</th><th>metric</th><th>range</th><th>answer</th><th>cost</th></tr></thead>"
				  "<tbody>\n");
	strbuf_addf(sb, "<tr><td data-label=\"bisect\"><a href=\"/api/v1/bisects/%lld\">%lld</a></td>", r->id, r->id);
	strbuf_addf(sb, "<td data-label=\"this commit\">%s</td><td data-label=\"metric\">", role);
	html_wvm(sb, r->workload, r->variant, r->metric);
	strbuf_addstr(sb, "</td><td data-label=\"range\">");
	short_sha(sb, r->good_sha);
	strbuf_addstr(sb, "..");
	short_sha(sb, r->bad_sha);
	strbuf_addstr(sb, "</td><td data-label=\"answer\">");
	if (r->culprit_sha) {
		strbuf_addstr(sb, "culprit ");
		short_sha(sb, r->culprit_sha);
	} else if (r->range_lo_sha) {
		strbuf_addstr(sb, "between ");
		short_sha(sb, r->range_lo_sha);
		strbuf_addstr(sb, "..");
		short_sha(sb, r->range_hi_sha);
	} else {
		html_txt(sb, r->state);
		if (r->why) {
			strbuf_addstr(sb, ": ");
			html_txt(sb, r->why);
		}
	}
	strbuf_addf(sb, "</td><td data-label=\"cost\">%lld boot%s, %.0f s</td></tr>\n", r->boots, r->boots == 1 ? "" : "s",
		    r->seconds);
	return 0;
}

void ui_commit_bisects(struct strbuf *sb, sqlite3 *db, const char *series, const char *sha)
{
	struct strbuf err = STRBUF_INIT;
	struct bisect_rows br = { sb, sha, 0 };

	/* a database without bisects (or an error reading them) shows none: the page is about the commit */
	fw_bisect_db_read(db, series, 0, bisect_row, &br, &err);
	if (br.n)
		strbuf_addstr(sb, "</tbody></table>\n");
	strbuf_release(&err);
}
