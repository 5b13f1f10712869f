/*
 * The verdict matrix at the top of the series page (Perfherder's compare
 * view, the cover letters' Before/After tables): one row per commit, one
 * column per workload/variant/metric grouped by environment, each cell the
 * delta with its verdict as a class and as text (a glyph plus a word for
 * screen readers), linking to the metric page. Drawn against the parent and
 * against the base; no JavaScript.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "html.h"
#include "ui.h"
#include "xalloc.h"

/* Verdict -> CSS class suffix, glyph and word; "none" when there is no verdict. */
static const struct { const char *verdict, *cls, *glyph; } verdicts[] = {
	{ "regression", "reg", "\xe2\x9c\x97" },   /* ✗ */
	{ "improvement", "imp", "\xe2\x9c\x93" },  /* ✓ */
	{ "no change", "same", "=" },
	{ "unsure", "unsure", "?" },
};

const char *ui_verdict_class(const char *verdict)
{
	for (size_t i = 0; verdict && i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (!strcmp(verdict, verdicts[i].verdict))
			return verdicts[i].cls;
	return "none";
}

void ui_matrix_legend(struct strbuf *sb)
{
	strbuf_addstr(sb, "<p class=\"legend\">");
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		strbuf_addf(sb, "<span class=\"v-%s\"><span aria-hidden=\"true\">%s</span> %s</span> ",
			    verdicts[i].cls, verdicts[i].glyph, verdicts[i].verdict);
	strbuf_addstr(sb, "<span class=\"v-none\">- no verdict</span></p>\n");
}

/* A metric name that may wrap after each '_' (lru_lock_/per_fault), never inside a word. */
static void txt_breaking(struct strbuf *sb, const char *name)
{
	struct strbuf part = STRBUF_INIT;

	for (const char *p = name; *p; p++) {
		strbuf_addch(&part, *p);
		if (*p == '_' && p[1]) {
			html_txt(sb, part.buf);
			strbuf_addstr(sb, "<wbr>");
			strbuf_reset(&part);
		}
	}
	html_txt(sb, part.buf);
	strbuf_release(&part);
}

/* Metric order of the columns: environments in order of first appearance, then metrics. */
static int *column_order(const struct fw_series *s)
{
	int *order = xcalloc((size_t)(s->nmetrics ? s->nmetrics : 1), sizeof(int));
	char *done = xcalloc((size_t)(s->nmetrics ? s->nmetrics : 1), 1);
	int n = 0;

	for (int i = 0; i < s->nmetrics; i++) {
		if (done[i])
			continue;
		for (int j = i; j < s->nmetrics; j++)
			if (!done[j] && !strcmp(s->metrics[j].env, s->metrics[i].env)) {
				done[j] = 1;
				order[n++] = j;
			}
	}
	free(done);
	return order;
}

static void header(struct strbuf *sb, const struct fw_series *s, const int *order, const struct ui_envs *ev)
{
	strbuf_addstr(sb, "<thead><tr class=\"envs\"><th class=\"corner\" rowspan=\"2\" scope=\"col\">commit</th>");
	for (int k = 0; k < s->nmetrics;) {
		const char *env = s->metrics[order[k]].env;
		int span = 0;

		while (k + span < s->nmetrics && !strcmp(s->metrics[order[k + span]].env, env))
			span++;
		strbuf_addf(sb, "<th class=\"envgroup\" colspan=\"%d\" scope=\"colgroup\">", span);
		html_txt(sb, ui_env_name(ev, env));
		strbuf_addstr(sb, "</th>");
		k += span;
	}
	strbuf_addstr(sb, "</tr>\n<tr class=\"metrics\">");
	for (int k = 0; k < s->nmetrics; k++) {
		const struct fw_metric *m = &s->metrics[order[k]];

		strbuf_addf(sb, "<th scope=\"col\"%s>", k && strcmp(m->env, s->metrics[order[k - 1]].env)
			    ? " class=\"envstart\"" : "");
		html_name(sb, m->workload);
		strbuf_addstr(sb, "/<wbr>");
		html_name(sb, m->variant);
		strbuf_addstr(sb, "/<wbr>");
		txt_breaking(sb, m->metric);
		strbuf_addstr(sb, " <span class=\"muted\">");
		html_txt(sb, m->unit);
		strbuf_addstr(sb, "</span></th>");
	}
	strbuf_addstr(sb, "</tr></thead>\n");
}

static void cell(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, int c,
		 const struct fw_metric *m, const struct fw_an_row *row, int envstart)
{
	const char *v = row ? row->verdict : NULL;
	double delta = row ? row->delta_pct : NAN;  /* the analysis' or none: one truth */
	size_t i, nv = sizeof(verdicts) / sizeof(verdicts[0]);

	for (i = 0; v && i < nv; i++)
		if (!strcmp(v, verdicts[i].verdict))
			break;
	if (!v)
		i = nv;
	strbuf_addf(sb, "<td class=\"num v-%s%s\">", i < nv ? verdicts[i].cls : "none",
		    envstart ? " envstart" : "");
	if (isnan(m->cells[c].median)) {
		strbuf_addstr(sb, m->cells[c].errors ? "<span class=\"bad\">error</span></td>" : "</td>");
		return;
	}
	strbuf_addstr(sb, "<a href=\"");
	ui_href_metric(sb, ui, s, m);
	strbuf_addstr(sb, "\">");
	if (!strcmp(s->commits[c].sha, s->base))
		strbuf_addstr(sb, "base");
	else if (isnan(delta))
		strbuf_addstr(sb, "-");
	else  /* four digits and two decimals would push the glyph out of the 112 px cell */
		strbuf_addf(sb, fabs(delta) >= 999.995 ? "%+.0f%%" : "%+.2f%%", delta);
	if (i < nv)
		strbuf_addf(sb, " <span aria-hidden=\"true\">%s</span><span class=\"sr\"> %s</span>",
			    verdicts[i].glyph, verdicts[i].verdict);
	strbuf_addstr(sb, "</a></td>");
}

void ui_unmeasured_row(struct strbuf *sb, const struct fw_series *s, int c, int head, int ncols)
{
	int lo = c > 0 && c < s->ncommits ? s->commits[c - 1].position + 1 : 0;
	int hi = c > 0 && c < s->ncommits ? s->commits[c].position - 1 : -1;

	if (hi < lo)
		return;
	/* the text spans the first head columns as the row's header (the matrix's sticky column) */
	strbuf_addf(sb, "<tr class=\"unmeasured\"><th scope=\"row\" colspan=\"%d\">", head);
	if (hi == lo)
		strbuf_addf(sb, "position %d: 1 commit not measured", lo);
	else
		strbuf_addf(sb, "positions %d&ndash;%d: %d commits not measured", lo, hi, hi - lo + 1);
	strbuf_addf(sb, "</th><td colspan=\"%d\"></td></tr>\n", ncols - head);
}

void ui_matrix(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
	       const struct fw_an_index *ix, const struct ui_envs *ev, int vs_base)
{
	int *order = column_order(s);

	/*
	 * A bound on the table's width in px (style.css: first column at most 440
	 * + padding, data columns 112 + padding and borders), rounded up to the
	 * 100 px steps style.css has rules for: where it fits, the header sticks
	 * to the page.
	 */
	int fit = (460 + 132 * s->nmetrics + 99) / 100 * 100;

	strbuf_addstr(sb, "<div class=\"mfit\"><div class=\"scroll");
	if (fit <= 1400)
		strbuf_addf(sb, " fit-%d", fit);
	strbuf_addf(sb, "\"><table class=\"grid matrix\" id=\"matrix-%s\">\n", vs_base ? "base" : "parent");
	header(sb, s, order, ev);
	strbuf_addstr(sb, "<tbody>\n");
	for (int c = 0; c < s->ncommits; c++) {
		const struct fw_commit *cm = &s->commits[c];

		ui_unmeasured_row(sb, s, c, 1, 1 + s->nmetrics);
		strbuf_addf(sb, "<tr><th scope=\"row\"><span class=\"pos\">%d</span> <a class=\"mono\" href=\"",
			    cm->position);
		ui_href_commit(sb, ui, s->name, cm->sha);
		strbuf_addstr(sb, "\">");
		html_txt_short(sb, cm->sha, 12); /* at a character boundary (a sha is outside text) */
		strbuf_addstr(sb, "</a> <span class=\"subject\">");
		html_txt(sb, cm->subject);
		strbuf_addstr(sb, "</span></th>");
		for (int k = 0; k < s->nmetrics; k++) {
			const struct fw_metric *m = &s->metrics[order[k]];
			const struct fw_an_row *row = an_index_row_against(ix, cm->sha, m, "parent");

			/* The first commit's parent is the base: its parent row is the base row. */
			if (vs_base && !(cm->parent && !strcmp(cm->parent, s->base)))
				row = an_index_row_against(ix, cm->sha, m, "base");
			cell(sb, ui, s, c, m, row,
			     k && strcmp(m->env, s->metrics[order[k - 1]].env));
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></div></div>\n");
	free(order);
}
