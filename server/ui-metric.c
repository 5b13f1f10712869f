/*
 * GET /series/{name}/metric/{workload}/{variant}/{metric}[?env=PREFIX&revision=N]:
 * the big trend plot (every sample, per-boot medians, median line, the
 * analysis interval as a band, regressions marked) and the numbers behind it.
 * The renderer is shared with `export` (server/ui.h).
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "routes.h"
#include "html.h"
#include "analysis.h"
#include "plot.h"
#include "ui.h"

/* The stored regressions of this metric, with their lifecycle status. */
static void regressions(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_metric *m, const struct fw_regs *regs)
{
	int n = 0;

	strbuf_addstr(sb, "<h2>Regressions</h2>\n");
	for (size_t i = 0; regs && i < regs->n; i++) {
		const struct fw_reg *it = &regs->r[i];
		const char *sha = it->sha;
		/* A combined regression (all hosts of a sharded series) shows on each host's page. */
		int all = !strcmp(it->env, FW_ENV_COMBINED);

		if (!*sha || (!all && strcmp(it->env, m->env)) || strcmp(it->workload, m->workload) ||
		    strcmp(it->variant, m->variant) || strcmp(it->metric, m->metric))
			continue;
		if (!n++)
			strbuf_addstr(sb, "<table class=\"grid\" id=\"regressions\"><thead><tr><th>id</th>"
				      "<th>commit</th><th>subject</th><th>delta</th><th>status</th></tr></thead><tbody>\n");
		strbuf_addf(sb, "<tr><td>%lld</td><td><a class=\"mono\" href=\"", it->id);
		ui_href_commit(sb, ui, s->name, sha);
		strbuf_addstr(sb, "\">");
		html_txt_short(sb, sha, 12);
		strbuf_addstr(sb, "</a></td><td>");
		html_txt(sb, it->subject);
		strbuf_addstr(sb, "</td><td class=\"num worse\">");
		if (!isnan(it->delta_pct))
			strbuf_addf(sb, "%+.2f%%", it->delta_pct);
		if (all)
			strbuf_addstr(sb, " <span class=\"muted\">all hosts</span>");
		strbuf_addstr(sb, "</td><td>");
		html_txt(sb, it->status);
		ui_regression_history(sb, it);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, n ? "</tbody></table>\n" : "<p class=\"muted\">None stored for this metric.</p>\n");
}

/* Links to the same metric in every environment of the series (the current one not a link). */
static void env_selector(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			 const struct fw_metric *m, const struct ui_envs *ev)
{
	strbuf_addstr(sb, "<nav aria-label=\"environments\"><ul class=\"selector\" id=\"envs\">");
	for (int i = 0; i < s->nmetrics; i++) {
		const struct fw_metric *o = &s->metrics[i];

		if (strcmp(o->workload, m->workload) || strcmp(o->variant, m->variant) || strcmp(o->metric, m->metric))
			continue;
		if (o == m) {
			strbuf_addstr(sb, "<li><strong aria-current=\"page\">");
			html_txt(sb, ui_env_name(ev, o->env));
			strbuf_addstr(sb, "</strong></li>");
			continue;
		}
		strbuf_addstr(sb, "<li><a href=\"");
		ui_href_metric(sb, ui, s, o);
		strbuf_addstr(sb, "\">");
		html_txt(sb, ui_env_name(ev, o->env));
		strbuf_addstr(sb, "</a></li>");
	}
	strbuf_addstr(sb, "</ul></nav>\n");
}

/*
 * Which commits the table lists (index of the first): all, or on a long
 * history the newest ui->table_newest (issue 31: 436 KB of table at 600
 * commits), saying so and linking all of them.
 */
/* This metric's page at positions from..to (to < 0: to the newest). */
static void window_href(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_metric *m, int from, int to)
{
	ui_href_metric(sb, ui, s, m);
	strbuf_addf(sb, "%sfrom=%d", s->nenvs > 1 || ui->revision > 0 ? "&amp;" : "?", from);
	if (to >= 0)
		strbuf_addf(sb, "&amp;to=%d", to);
}

static int table_note(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s, const struct fw_metric *m)
{
	int n = ui->table_newest;

	if (n <= 0 || s->ncommits <= n) {
		strbuf_addstr(sb, "<p class=\"note\" id=\"table-note\">The table has every value.</p>\n");
		return 0;
	}
	strbuf_addf(sb, "<p class=\"note\" id=\"table-note\">The table has the newest %d of %d commits "
		    "(positions %d&ndash;%d); <a href=\"", n, s->ncommits, s->commits[s->ncommits - n].position,
		    s->commits[s->ncommits - 1].position);
	ui_href_metric(sb, ui, s, m);
	strbuf_addf(sb, "%sfrom=0\">all of them</a>.</p>\n", s->nenvs > 1 || ui->revision > 0 ? "&amp;" : "?");
	return s->ncommits - n;
}

void ui_metric_render(const struct fw_ui *ui, const struct fw_series *s, int mi, const struct fw_an *an,
		      const struct fw_regs *regs, struct strbuf *sb)
{
	const struct fw_metric *m = &s->metrics[mi];
	struct fw_an_index *ix = an_index_new(an);
	struct ui_envs ev;
	int first;

	ui_envs_load(&ev, ui->db);
	ui_page_begin(sb, ui, m->id);
	strbuf_addstr(sb, "<p><a href=\"");
	ui_href_series(sb, ui, s->name);
	strbuf_addstr(sb, "\">");
	html_txt(sb, s->name);
	strbuf_addf(sb, "</a> v%d &middot; <a href=\"", s->revision);
	ui_href_compare(sb, ui, s->name, NULL, NULL);
	strbuf_addstr(sb, "\">compare two commits</a></p>\n<h1>");
	html_txt(sb, m->id);
	strbuf_addstr(sb, "</h1>\n<p class=\"muted\">unit ");
	html_txt(sb, m->unit);
	strbuf_addstr(sb, !strcmp(m->direction, "higher_is_better") ? ", higher is better" : ", lower is better");
	strbuf_addstr(sb, "; environment ");
	ui_env_html(sb, &ev, m->env);
	strbuf_addstr(sb, "</p>\n");
	env_selector(sb, ui, s, m, &ev);
	ui_window_nav(sb, ui, s, m, window_href);
	if (fw_metric_nsamples(s, m) && !fw_plot_ndrawable(s, m)) {
		strbuf_addstr(sb, "<p class=\"muted noplot\">cannot plot: every sample is beyond +-1e307, "
			      "which gnuplot cannot draw; the table below has every value</p>\n");
	} else if (fw_metric_nsamples(s, m)) {
		/* a scroll box: on a phone the plot keeps its size (its text 11 px), not shrunk to 4 px */
		strbuf_addf(sb, "<div class=\"plotbox\" tabindex=\"0\" role=\"region\" aria-label=\"plot\">"
			    "<img class=\"plot big\" width=\"900\" height=\"480\" data-font=\"%d\" alt=\"trend of ",
			    FW_PLOT_FONT_BIG);
		html_attr(sb, m->id);
		strbuf_addstr(sb, "\" src=\"");
		ui_href_plot(sb, ui, s, m, "big");
		strbuf_addstr(sb, "\"></div>\n<p class=\"note\">");
		if (s->ncommits > FW_PLOT_DENSE_COMMITS)
			strbuf_addf(sb, "%d commits: samples and per-boot medians are drawn for at most %d "
				    "(a window: from= and to= positions in the address); ", s->ncommits, FW_PLOT_DENSE_COMMITS);
		else
			strbuf_addstr(sb, "Points: every sample; circles: per-boot medians; ");
		strbuf_addstr(sb, "line: commit medians; band: the analysis interval of each commit's level "
			      "against its parent; " FW_PLOT_REG_SHAPE ": regressions of this host, "
			      FW_PLOT_ALL_SHAPE ": regressions of all hosts, one per stored regression "
			      "(in an older revision, the analysis verdicts); dashed lines: change points "
			      "(below); y axis: the unit.</p>\n");
	} else {
		strbuf_addstr(sb, "<p class=\"muted noplot\">no samples to plot</p>\n");
	}
	first = table_note(sb, ui, s, m);
	strbuf_addstr(sb, "<table class=\"grid cards\" id=\"points\"><thead><tr><th>#</th><th>commit</th>"
		      "<th>subject</th><th>median</th><th>delta</th><th>interval</th><th>verdict</th>"
		      "<th>samples</th></tr></thead><tbody>\n");
	for (int c = first; c < s->ncommits; c++) {
		const struct fw_cell *cell = &m->cells[c];
		const struct fw_an_row *row = an_index_row(ix, s->commits[c].sha, m);
		const char *v = row ? row->verdict : NULL;
		/* data-label: a phone stacks the row as a card (style.css), the position its title */
		strbuf_addf(sb, "<tr><td class=\"card-title\">%d</td><td data-label=\"commit\"><a class=\"mono\" href=\"",
			    s->commits[c].position);
		ui_href_commit(sb, ui, s->name, s->commits[c].sha);
		strbuf_addstr(sb, "\">");
		html_txt_short(sb, s->commits[c].sha, 12);
		strbuf_addstr(sb, "</a></td><td data-label=\"subject\">");
		html_txt(sb, s->commits[c].subject);
		strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"median\">");
		html_num(sb, cell->median);
		/* colours mean one thing: the verdict's (a decided change red or green, unsure yellow) */
		strbuf_addf(sb, "</td><td class=\"num v-%s\" data-label=\"delta\">", ui_verdict_class(v));
		if (!isnan(cell->delta_pct))
			strbuf_addf(sb, "%+.2f%%", cell->delta_pct);
		strbuf_addstr(sb, "</td><td class=\"num\" data-label=\"interval\">");
		if (row && !isnan(row->ci_lo_pct) && !isnan(row->ci_hi_pct))
			strbuf_addf(sb, "[%+.2f%%, %+.2f%%]", row->ci_lo_pct, row->ci_hi_pct);
		strbuf_addf(sb, "</td><td class=\"verdict v-%s\" data-label=\"verdict\">", ui_verdict_class(v));
		html_txt(sb, v ? v : "");
		ui_decided(sb, row);
		ui_attribution(sb, ui, s->name, row);
		strbuf_addstr(sb, "</td><td class=\"samples\" data-label=\"samples\">");
		for (int k = 0; k < cell->n; k++) {
			if (k)
				strbuf_addch(sb, ' ');
			html_num(sb, cell->vals[k].v);
		}
		if (cell->errors)
			strbuf_addf(sb, " <span class=\"bad\">%d error(s)</span>", cell->errors);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	regressions(sb, ui, s, m, regs);
	ui_change_points(sb, ui, s, an, m);
	ui_page_end(sb, ui);
	an_index_free(ix);
	ui_envs_free(&ev);
}

enum MHD_Result ui_metric(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT, wvm = STRBUF_INIT, env = STRBUF_INIT;
	struct fw_series s;
	struct fw_ui ui = { 0 };
	struct fw_an *an = NULL;
	struct fw_regs *regs = NULL;
	enum MHD_Result ret;
	int mi, loaded = 0;

	strbuf_addf(&wvm, "%s/%s/%s", r->args[1], r->args[2], r->args[3]);
	{
		struct fw_series_only only = { wvm.buf, -1, { 0, 0 } };  /* this metric's samples only */
		/* a long history: its newest positions unless from=/to= ask */
		if (req_series_part(r, r->args[0], "name", FW_METRIC_PAGE_COMMITS, &only, &s, &ret))
			goto cleanup;
	}
	loaded = 1;
	req_query(r, "env", &env);
	mi = req_metric(r, &s, wvm.buf, env.buf, &ret);
	if (mi < 0)
		goto cleanup;
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	{
		struct strbuf q = STRBUF_INIT;
		/* from=/to= choose the commits; without them the table has the newest */
		if (req_query(r, "from", &q) == -1 && req_query(r, "to", &q) == -1)
			ui.table_newest = FW_METRIC_TABLE_COMMITS;
		strbuf_release(&q);
	}
	an = req_analysis_for(r, &s, s.metrics[mi].id);
	an_apply(&s, an);
	regs = fw_ui_regressions(ui.db, s.name, s.revision);
	ui_metric_render(&ui, &s, mi, an, regs, &sb);
	ret = reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
cleanup:
	if (loaded)
		fw_series_free(&s);
	fw_an_free(an);
	fw_regs_free(regs);
	strbuf_release(&wvm);
	strbuf_release(&env);
	return ret;
}
