/*
 * The "Change points" section of the series and metric pages: where the
 * analysis finds a metric's level moved along the history (E-divisive means
 * over the commit medians, analysis/changepoint.c). A pointer for the eye,
 * never a regression by itself: only a decided comparison opens one.
 */
#include <math.h>
#include <stdlib.h>
#include "analysis.h"
#include "html.h"
#include "ui.h"

/* The series page lists at most this many, newest first (a long history can have hundreds). */
#define UI_CHANGE_POINTS_MAX 50

static void row(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_metric *m,
		const struct fw_change_point *cp, int with_metric)
{
	strbuf_addf(sb, "<tr><td class=\"card-title\">%d</td>", cp->position);
	if (with_metric) {
		strbuf_addstr(sb, "<td data-label=\"metric\"><a href=\"");
		ui_href_metric(sb, ui, s, m);
		strbuf_addstr(sb, "\">");
		html_wvm(sb, m->workload, m->variant, m->metric);
		strbuf_addstr(sb, "</a></td>");
	}
	strbuf_addstr(sb, "<td data-label=\"from commit\"><a class=\"mono\" href=\"");
	ui_href_commit(sb, ui, s->name, cp->sha);
	strbuf_addstr(sb, "\">");
	html_txt_short(sb, cp->sha, 12);
	strbuf_addstr(sb, "</a></td><td class=\"num\" data-label=\"before\">");
	html_num(sb, cp->before);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"after\">");
	html_num(sb, cp->after);
	strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"change\">");
	if (!isnan(cp->delta_pct))
		strbuf_addf(sb, "%+.2f%%", cp->delta_pct);
	strbuf_addstr(sb, "</td></tr>\n");
}

/* The change points of metric i that fall on a loaded commit (a window shows its own). */
static int of_metric(const struct fw_series *s, const struct fw_an *an, int i, struct fw_change_point **out)
{
	int n = fw_analysis_change_points(an, s->metrics[i].id, s->metrics[i].env, out), k = 0;

	for (int j = 0; j < n; j++)
		if (fw_series_find_commit(s, (*out)[j].sha) >= 0)
			(*out)[k++] = (*out)[j];
	return k;
}

/* One listed change point and whose it is. */
struct listed {
	const struct fw_change_point *cp;
	const struct fw_metric *m;
};

static int newest_first(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;

	return (y->cp->position > x->cp->position) - (y->cp->position < x->cp->position);
}

void ui_change_points(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_an *an,
		      const struct fw_metric *only)
{
	struct fw_change_point **each = calloc((size_t)s->nmetrics + 1, sizeof(*each));
	struct listed *all = NULL;
	int n = 0, shown;

	if (!each)
		abort();
	for (int i = 0; i < s->nmetrics; i++) {
		int k;

		if (only && &s->metrics[i] != only)
			continue;
		k = of_metric(s, an, i, &each[i]);
		all = realloc(all, sizeof(*all) * (size_t)(n + k + 1));
		if (!all)
			abort();
		for (int j = 0; j < k; j++)
			all[n++] = (struct listed){ &each[i][j], &s->metrics[i] };
	}
	strbuf_addstr(sb, "<h2>Change points</h2>\n");
	if (!n) {
		if (s->ncommits < FW_CP_MIN_COMMITS)
			strbuf_addf(sb, "<p class=\"muted\" id=\"change-points\">None: a patch series is compared commit "
				    "by commit; change points are for histories (%d commits or more).</p>\n",
				    FW_CP_MIN_COMMITS);
		else
			strbuf_addstr(sb, "<p class=\"muted\" id=\"change-points\">None along these commits.</p>\n");
	} else {
		qsort(all, (size_t)n, sizeof(*all), newest_first);
		shown = n < UI_CHANGE_POINTS_MAX ? n : UI_CHANGE_POINTS_MAX;
		strbuf_addstr(sb, "<p class=\"note\">Where the commits' medians change level (E-divisive means, Welch "
			      "t-test at p &lt; 0.001; dashed lines on the big plots). A change point opens no "
			      "regression: only a decided comparison does.");
		if (shown < n)
			strbuf_addf(sb, " The newest %d of %d.", shown, n);
		strbuf_addf(sb, "</p>\n<table class=\"grid cards\" id=\"change-points\"><thead><tr><th>#</th>%s"
			    "<th>from commit</th><th>before</th><th>after</th><th>change</th></tr></thead><tbody>\n",
			    only ? "" : "<th>metric</th>");
		for (int j = 0; j < shown; j++)
			row(sb, ui, s, all[j].m, all[j].cp, !only);
		strbuf_addstr(sb, "</tbody></table>\n");
	}
	for (int i = 0; i < s->nmetrics; i++)
		free(each[i]);
	free(each);
	free(all);
}
