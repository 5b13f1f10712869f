/*
 * The series page's first words (issue 56): what moved. On a phone the
 * verdict matrix shows its first column and scrolls the rest, so what moved
 * is said before it: the verdicts against each commit's parent counted, then
 * each decided row on a short line, regressions first, at most
 * UI_MOVED_LINES of them (the matrix and the commit pages have the rest).
 */
#include <string.h>
#include "html.h"
#include "ui.h"

#define UI_MOVED_LINES 12

static void moved_line(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
		       const struct fw_an_row *r, const struct ui_envs *ev)
{
	strbuf_addf(sb, "<li><span class=\"v-%s\">%+.2f%%</span> <a href=\"", ui_verdict_class(r->verdict),
		    r->delta_pct);
	ui_href_commit(sb, ui, s->name, r->sha);
	strbuf_addf(sb, "\">[%d] ", r->position);
	html_txt_short(sb, r->subject, 48);
	strbuf_addstr(sb, "</a>: ");
	ui_row_link(sb, ui, s, r, ev);
	strbuf_addstr(sb, "</li>\n");
}

void ui_series_moved(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_an *an,
		     const struct ui_envs *ev)
{
	int count[4] = { 0 }, shown = 0;

	for (size_t i = 0; an && i < an->nrows; i++)
		if (an->rows[i].against == FW_AGAINST_PARENT)
			count[an->rows[i].v]++;
	if (!an)
		return;
	strbuf_addf(sb, "<section id=\"moved\"><p class=\"verdict-count\">What moved, each commit against its parent: "
		    "<a href=\"#matrix\"><span class=\"v-%s\">%d regression%s</span></a>, "
		    "<span class=\"v-%s\">%d improvement%s</span>, %d unsure, %d no change</p>\n",
		    count[FW_REGRESSION] ? "reg" : "none", count[FW_REGRESSION], count[FW_REGRESSION] == 1 ? "" : "s",
		    count[FW_IMPROVEMENT] ? "imp" : "none", count[FW_IMPROVEMENT],
		    count[FW_IMPROVEMENT] == 1 ? "" : "s", count[FW_UNSURE], count[FW_NO_CHANGE]);
	/* regressions, then improvements, each in the analysis' order (commit, metric) */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < an->nrows; i++) {
			const struct fw_an_row *r = &an->rows[i];

			if (r->against != FW_AGAINST_PARENT || r->v != (pass ? FW_IMPROVEMENT : FW_REGRESSION))
				continue;
			if (!shown)
				strbuf_addstr(sb, "<ul class=\"moved\">\n");
			if (shown++ < UI_MOVED_LINES)
				moved_line(sb, ui, s, r, ev);
		}
	if (shown > UI_MOVED_LINES)
		strbuf_addf(sb, "<li class=\"muted\">and %d more: the matrix below</li>\n", shown - UI_MOVED_LINES);
	if (shown)
		strbuf_addstr(sb, "</ul>\n");
	strbuf_addstr(sb, "</section>\n");
}
