/* The mail about one regression and the commit that caused it (report-culprit.h). */
#include "report-culprit.h"
#include "analysis-json.h"
#include "html.h"
#include "run-doc.h"
#include "utf8.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 78

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The first row of the commit against its parent (the tables start there), or NULL. */
static const struct fw_an_row *first_row(const struct fw_an *s, const char *sha)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].sha, sha) && s->rows[i].against == FW_AGAINST_PARENT)
			return &s->rows[i];
	return NULL;
}

/* The commit's parent as the analysis' commits declare it ("" when unknown). */
static const char *parent_of(const struct fw_an *s, const char *sha)
{
	for (size_t i = 0; i < s->ncommits; i++)
		if (!strcmp(s->commits[i].sha, sha))
			return s->commits[i].parent_sha ? s->commits[i].parent_sha : "";
	return "";
}

/* The commit's author as the series' facts keep it ("" when unknown). */
static const char *author_of(const cJSON *facts, const char *sha)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, get(facts, "patches"))
		if (!strcmp(fw_json_str(p, "sha", ""), sha))
			return fw_json_str(p, "author", "");
	return "";
}

static void link_base(struct strbuf *b, const char *base_url)
{
	size_t n = strlen(base_url);

	while (n && base_url[n - 1] == '/')
		n--;
	strbuf_add(b, base_url, n);
}

/* "[series] sha12 subject: workload/variant/metric +x.x% regression" */
/* "+12.3% " (a delta the regression has), or nothing */
static void delta_words(struct strbuf *b, const struct fw_reg *g)
{
	double d = g->delta_pct;

	if (isfinite(d))
		strbuf_addf(b, "%+.1f%% ", d);
}

static void culprit_subject(struct strbuf *sub, const struct fw_reg *g)
{
	strbuf_addf(sub, "[%s] %.12s %s: %s/%s/%s ", g->series, g->sha, g->subject, g->workload, g->variant, g->metric);
	delta_words(sub, g);
	strbuf_addstr(sub, "regression");
}

/* How the regression came here: found between two heads and bisected, or found at this commit. */
static void how_found(struct strbuf *b, const struct fw_reg *g, const cJSON *bisect)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(&t, "foliowatch found a ");
	delta_words(&t, g);
	strbuf_addf(&t, "regression of %s/%s/%s in series %s", g->workload, g->variant, g->metric, g->series);
	if (bisect)
		strbuf_addf(&t, " between %.12s and %.12s, and bisected it to the commit below in %d step%s (%.0f boots, "
			    "%.0f s).", fw_json_str(bisect, "good_sha", ""), fw_json_str(bisect, "bad_sha", ""),
			    cJSON_GetArraySize(get(bisect, "steps")), cJSON_GetArraySize(get(bisect, "steps")) == 1 ? "" : "s",
			    fw_json_num(bisect, "boots", 0), fw_json_num(bisect, "seconds", 0));
	else
		strbuf_addstr(&t, ", at the commit below against its parent.");
	fw_report_wrap_to(b, t.buf, 0, 0, WIDTH);
	strbuf_release(&t);
}

/* The commit, its author, and what it was compared with: its parent, or the last measured commit before it. */
static void commit_facts(struct strbuf *b, const struct fw_reg *g, const char *author, const char *ref, const char *parent)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(b, "\ncommit: %s\n", g->sha);
	fw_report_wrap_to(b, g->subject, 8, 0, WIDTH);
	if (*author) {
		strbuf_addf(&t, "author: %s", author);
		fw_report_wrap_to(b, t.buf, 0, 8, WIDTH);
	}
	if (!*parent || !strcmp(ref, parent)) {
		strbuf_addf(b, "parent: %s\n", ref);
	} else {
		strbuf_addf(b, "compared with: %s\n", ref);
		strbuf_addf(&t, "(the last measured commit before it; its parent %.12s was not measured)", parent);
		fw_report_wrap_to(b, t.buf, 8, 0, WIDTH);
	}
	strbuf_release(&t);
}

static void links(struct strbuf *b, const struct fw_reg *g, const struct fw_email_opts *o, const char *from)
{
	long long id = g->id;

	if (o->base_url) {
		strbuf_addstr(b, "\nDetails:\n  ");
		link_base(b, o->base_url);
		strbuf_addstr(b, "/series/");
		html_url_arg(b, g->series);
		strbuf_addf(b, "/commit/%s\n  ", g->sha);
		link_base(b, o->base_url);
		strbuf_addf(b, "/api/v1/regressions/%lld\n", id);
	}
	strbuf_addstr(b, "\nIf you fix the issue in a separate patch/commit (i.e. not just a new\n"
			 "version of the same patch/commit), kindly add these tags:\n");
	strbuf_addf(b, "| Reported-by: %s\n", from);
	if (o->base_url) {
		strbuf_addstr(b, "| Closes: ");
		link_base(b, o->base_url);
		strbuf_addf(b, "/api/v1/regressions/%lld\n", id);
	}
}

int fw_report_culprit_email(const struct fw_an *s, const cJSON *facts, const struct fw_reg *g, const cJSON *bisect,
			    const struct fw_email_opts *o, int to_author, struct strbuf *out, struct strbuf *err)
{
	const char *sha = g->sha, *author = author_of(facts, sha);
	const char *from = o->from ? o->from : "foliowatch <foliowatch@localhost>";
	const struct fw_an_row *first = first_row(s, sha);
	struct strbuf sub = STRBUF_INIT;
	int ret = -1;

	if (!first) {
		strbuf_addf(err, "regression %.0f: the analysis has no comparison of %.12s with its parent",
			    (double)g->id, sha);
		goto cleanup;
	}
	if (!to_author && !o->to) {
		strbuf_addstr(err, "give --to (the list) or --to-author (the commit's author)");
		goto cleanup;
	}
	culprit_subject(&sub, g);
	if (fw_email_headers(out, to_author ? author : o->to, to_author ? "the commit's author" : "--to", sub.buf, NULL,
			     o, err))
		goto cleanup;
	strbuf_addstr(out, "\nHello,\n\n");
	how_found(out, g, bisect);
	commit_facts(out, g, author, first->ref_sha, parent_of(s, sha));
	strbuf_addch(out, '\n');
	fw_report_tables(out, s, (size_t)(first - s->rows), 0, 1);
	strbuf_addstr(out, "\nbetter/worse: a decided change; same: decided, within the floor or the\n"
			   "minimum effect; unsure: more boots needed. %stddev: the spread of the\n"
			   "boots compared, in % of Before. Counters under a row moved with it.\n");
	strbuf_addstr(out, "\nHow to reproduce (the commit against the one it was compared with):\n");
	{
		/* 12-digit shas: the command fits the mail's width, and git resolves them in any clone */
		const char *ref = first->ref_sha, *parent = parent_of(s, sha);
		char p12[13], c12[13];
		snprintf(p12, sizeof(p12), "%.12s", ref);
		snprintf(c12, sizeof(c12), "%.12s", sha);
		/* compared with an older commit: measure just the two, not the commits between */
		fw_report_command_range(out, "repro", p12, c12, *parent && strcmp(ref, parent) ? c12 : NULL,
					g->workload, cJSON_GetArrayItem(get(facts, "envs"), 0), WIDTH);
	}
	fw_email_environments(out, facts);
	links(out, g, o, from);
	strbuf_addstr(out, "\n-- \nfoliowatch\n");
	ret = 0;
cleanup:
	strbuf_release(&sub);
	return ret;
}
