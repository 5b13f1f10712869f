/*
 * The commit page's first section (issue 56): what this commit changed. A
 * line counting its verdicts against the parent, then the rows decided
 * better or worse (against the parent, then the base): metric, environment,
 * parent and this commit's medians, delta, interval, boots and the kernel
 * functions behind it; the unsure ones and the ones that did not move as a
 * line each. The page's raw boots come after, folded.
 */
#include <math.h>
#include <string.h>
#include "html.h"
#include "ui.h"

static const struct fw_metric *row_metric(const struct fw_series *s, const struct fw_an_row *r)
{
	for (int i = 0; i < s->nmetrics; i++) {
		const struct fw_metric *m = &s->metrics[i];

		if (!strcmp(m->env, r->env) && !strcmp(m->workload, r->workload) && !strcmp(m->variant, r->variant) &&
		    !strcmp(m->metric, r->metric))
			return m;
	}
	return NULL;
}

void ui_row_link(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_an_row *r, const struct ui_envs *ev)
{
	const struct fw_metric *m = row_metric(s, r);

	if (m) {
		strbuf_addstr(sb, "<a href=\"");
		ui_href_metric(sb, ui, s, m);
		strbuf_addstr(sb, "\">");
	}
	html_wvm(sb, r->workload, r->variant, r->metric);
	strbuf_addstr(sb, m ? "</a>" : "");
	strbuf_addstr(sb, " <span class=\"muted\">");
	html_txt(sb, ui_env_name(ev, r->env));
	strbuf_addstr(sb, "</span>");
}

static int flagged(const struct fw_an_row *r)
{
	return r->v == FW_REGRESSION || r->v == FW_IMPROVEMENT;
}

/* The kernel functions behind a decided row: at most three, self time where measured. */
static void row_why(struct strbuf *sb, const struct fw_an_row *r)
{
	for (size_t i = 0; i < r->nattribution && i < 3; i++) {
		const struct fw_an_function *f = &r->attribution[i];
		double pct = fw_attribution_uses_self(f) ? f->delta_pct.self_us : f->delta_pct.time_us;

		strbuf_addstr(sb, i ? ", " : "");
		strbuf_addstr(sb, "<span class=\"mono\">");
		html_txt(sb, f->function[0] ? f->function : "?");
		strbuf_addstr(sb, "</span> ");
		if (isnan(pct))
			strbuf_addstr(sb, "new");
		else
			strbuf_addf(sb, "%+.0f%%", pct);
	}
	if (!r->nattribution)
		strbuf_addstr(sb, "<span class=\"muted\">not profiled</span>");
}

static void decided_row(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_an_row *r, const struct ui_envs *ev)
{
	/* data-label: the column's name, shown before the value when a phone stacks the row (style.css) */
	strbuf_addstr(sb, "<tr><td class=\"card-title\">");
	ui_row_link(sb, ui, s, r, ev);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"before\">");
	html_num(sb, r->a.median);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"after\">");
	html_num(sb, r->b.median);
	strbuf_addstr(sb, " ");
	html_txt(sb, r->unit);
	strbuf_addf(sb, "</td><td class=\"num\" data-label=\"delta\"><b>%+.2f%%</b>", r->delta_pct);
	if (!isnan(r->ci_lo_pct) && !isnan(r->ci_hi_pct))
		strbuf_addf(sb, " <span class=\"muted\">[%+.2f, %+.2f]</span>", r->ci_lo_pct, r->ci_hi_pct);
	strbuf_addf(sb, "</td><td data-label=\"verdict\"><span class=\"v-%s\">", ui_verdict_class(r->verdict));
	html_txt(sb, r->verdict);
	strbuf_addstr(sb, "</span>");
	ui_decided(sb, r);
	strbuf_addstr(sb, "</td><td data-label=\"why\">");
	row_why(sb, r);
	strbuf_addstr(sb, "</td></tr>\n");
}

/* "filemap/4k/iops, ..." of the rows with verdict v against `against`, or nothing. */
static int name_rows(struct strbuf *sb, const struct fw_commit *c, const struct fw_an *an, enum fw_against against,
		     enum fw_verdict v)
{
	int n = 0;

	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];

		if (strcmp(r->sha, c->sha) || r->against != against || r->v != v)
			continue;
		strbuf_addstr(sb, n++ ? ", " : "");
		html_wvm(sb, r->workload, r->variant, r->metric);
	}
	return n;
}

/* Rows of commit c against `against`, by verdict (indexed by enum fw_verdict). */
static void count_rows(const struct fw_commit *c, const struct fw_an *an, enum fw_against against, int count[4])
{
	memset(count, 0, 4 * sizeof(int));
	for (size_t i = 0; i < an->nrows; i++)
		if (!strcmp(an->rows[i].sha, c->sha) && an->rows[i].against == against)
			count[an->rows[i].v]++;
}

/*
 * The summary on top: the verdicts counted, then each decided row on a short
 * line (delta, metric, environment), so a phone's first screen holds them.
 */
static void summary(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_commit *c,
		    const struct fw_an *an, const struct ui_envs *ev, enum fw_against against)
{
	int count[4], n = 0;

	count_rows(c, an, against, count);
	strbuf_addf(sb, "<p class=\"verdict-count\">%s: <span class=\"v-%s\">%d regression%s</span>, "
		    "<span class=\"v-%s\">%d improvement%s</span>, %d unsure, %d no change</p>\n",
		    against == FW_AGAINST_PARENT ? "Against its parent" : "Against the base",
		    count[FW_REGRESSION] ? "reg" : "none", count[FW_REGRESSION], count[FW_REGRESSION] == 1 ? "" : "s",
		    count[FW_IMPROVEMENT] ? "imp" : "none", count[FW_IMPROVEMENT],
		    count[FW_IMPROVEMENT] == 1 ? "" : "s", count[FW_UNSURE], count[FW_NO_CHANGE]);
	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];

		if (strcmp(r->sha, c->sha) || r->against != against || !flagged(r))
			continue;
		strbuf_addstr(sb, n++ ? "" : "<ul class=\"moved\">\n");
		strbuf_addf(sb, "<li><span class=\"v-%s\">%+.2f%%</span> ", ui_verdict_class(r->verdict), r->delta_pct);
		ui_row_link(sb, ui, s, r, ev);
		strbuf_addstr(sb, "</li>\n");
	}
	strbuf_addstr(sb, n ? "</ul>\n" : "");
}

/* The decided rows in full (delta, interval, boots, profile), then the unsure ones named. */
static void details(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_commit *c,
		    const struct fw_an *an, const struct ui_envs *ev, enum fw_against against)
{
	int n = 0;
	struct strbuf t = STRBUF_INIT;

	for (size_t i = 0; i < an->nrows; i++) {
		const struct fw_an_row *r = &an->rows[i];

		if (strcmp(r->sha, c->sha) || r->against != against || !flagged(r))
			continue;
		if (!n++)
			strbuf_addf(sb, "<h3>%s</h3>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" "
				    "aria-label=\"decided\"><table class=\"grid cards verdicts\"><thead><tr><th>result</th>"
				    "<th>before</th><th>after</th><th>delta [interval]</th><th>verdict</th>"
				    "<th>why (kernel profile)</th></tr></thead><tbody>\n",
				    against == FW_AGAINST_PARENT ? "Decided against its parent" : "Decided against the base");
		decided_row(sb, ui, s, r, ev);
	}
	if (n)
		strbuf_addstr(sb, "</tbody></table></div>\n");
	if (name_rows(&t, c, an, against, FW_UNSURE))
		strbuf_addf(sb, "<p class=\"muted\">Unsure against the %s (more boots would decide): %s</p>\n",
			    against == FW_AGAINST_PARENT ? "parent" : "base", t.buf);
	strbuf_release(&t);
}

void ui_commit_verdicts(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_commit *c, const struct fw_an *an, const struct ui_envs *ev)
{
	int parent = 0, base = 0;

	strbuf_addstr(sb, "<section id=\"verdicts\"><h2>What this commit changed</h2>\n");
	for (size_t i = 0; an && i < an->nrows; i++) {
		parent |= !strcmp(an->rows[i].sha, c->sha) && an->rows[i].against == FW_AGAINST_PARENT;
		base |= !strcmp(an->rows[i].sha, c->sha) && an->rows[i].against == FW_AGAINST_BASE;
	}
	if (!an)
		strbuf_addstr(sb, "<p class=\"muted\">not analysed</p>\n");
	else if (!parent)
		strbuf_addstr(sb, "<p class=\"muted\">Nothing to compare with: the base of the series, or its parent "
			      "was not measured.</p>\n");
	if (parent)
		summary(sb, ui, s, c, an, ev, FW_AGAINST_PARENT);
	if (base)
		summary(sb, ui, s, c, an, ev, FW_AGAINST_BASE);
	if (parent)
		details(sb, ui, s, c, an, ev, FW_AGAINST_PARENT);
	if (base)
		details(sb, ui, s, c, an, ev, FW_AGAINST_BASE);
	strbuf_addstr(sb, "</section>\n");
}
