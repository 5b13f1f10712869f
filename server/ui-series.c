/*
 * GET /series/{name}[?revision=N]: the cover-letter table. Every commit with
 * build/boot status, then per metric: median, delta % against the previous
 * commit (colored by the metric's direction) and the verdict column, plus a
 * small trend plot. Verdicts are the analysis code's ("not analysed" until then).
 * The renderer is shared with `export` (server/ui.h).
 */
#include <stdlib.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "routes.h"
#include "html.h"
#include "ui.h"
#include "plot.h"

/* Kept for callers outside the pages: server URLs of a metric page or plot. */
void ui_metric_link(struct strbuf *sb, const struct fw_series *s, const struct fw_metric *m, const char *kind)
{
	struct fw_ui ui = { 0 };

	if (!strcmp(kind, "page"))
		ui_href_metric(sb, &ui, s, m);
	else
		ui_href_plot(sb, &ui, s, m, kind);
}

static const char *status_class(const char *st)
{
	return !strcmp(st, "ok") ? "good" : !strcmp(st, "none") ? "muted" : "bad";
}

static void commit_link(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_commit *c)
{
	strbuf_addstr(sb, "<a class=\"mono\" href=\"");
	ui_href_commit(sb, ui, s->name, c->sha);
	strbuf_addstr(sb, "\">");
	html_txt_short(sb, c->sha, 12);
	strbuf_addstr(sb, "</a>");
}

static void commits_table(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s)
{
	strbuf_addstr(sb, "<h2>Commits</h2>\n<table class=\"grid\" id=\"commits\"><thead><tr><th>#</th>"
		      "<th>commit</th><th>subject</th><th>build</th><th>boot</th><th>taint</th><th>runs</th>"
		      "</tr></thead><tbody>\n");
	for (int c = 0; c < s->ncommits; c++) {
		const struct fw_commit *cm = &s->commits[c];

		ui_unmeasured_row(sb, s, c, 3, 7);
		strbuf_addf(sb, "<tr><td>%d</td><td>", cm->position);
		commit_link(sb, ui, s, cm);
		strbuf_addstr(sb, "</td><td>");
		html_txt(sb, cm->subject);
		strbuf_addf(sb, "</td><td class=\"%s\">", status_class(cm->build_status));
		html_txt(sb, cm->build_status);
		strbuf_addf(sb, "</td><td class=\"%s\">", status_class(cm->boot_status));
		html_txt(sb, cm->boot_status);
		strbuf_addf(sb, "</td><td class=\"%s\">%d</td><td>%d</td></tr>\n",
			    cm->taint ? "bad" : "good", cm->taint, cm->nruns);
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* The series page at positions from..to (to < 0: none), keeping ?vs= and ?revision=. */
static void window_href(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			const struct fw_metric *m, int from, int to)
{
	(void)m;
	ui_href_series_vs(sb, ui, s->name, ui->vs_base);
	strbuf_addstr(sb, ui->vs_base || ui->revision > 0 ? "&amp;" : "?");
	strbuf_addf(sb, "from=%d", from);
	if (to >= 0)
		strbuf_addf(sb, "&amp;to=%d", to);
}

/*
 * An unsure rank row whose interval looks tight says why it is still unsure
 * (issue 29): with this few units the rank test's smallest possible p is
 * above the alpha of its look, so only more boots can decide it.
 */
static void why_unsure(struct strbuf *sb, const struct fw_an_row *row)
{
	const char *unit = row->unit_of_comparison[0] ? row->unit_of_comparison : "boots";
	int boots = !strcmp(unit, "boots");

	if (row->decided || strcmp(row->mode, "rank") || !(row->min_p > row->alpha_used))
		return;
	strbuf_addf(sb, "; with %.0f and %.0f %s the rank test's smallest possible p (%.2g) is above "
		    "its alpha (%.2g): more boots decide it, not a narrower interval",
		    fw_an_whole(boots ? row->a.boots : row->a.samples), fw_an_whole(boots ? row->b.boots : row->b.samples),
		    unit, row->min_p, row->alpha_used);
}

void ui_decided(struct strbuf *sb, const struct fw_an_row *row)
{
	if (!row)
		return;
	strbuf_addstr(sb, " <span class=\"muted\">");
	if (row->decided) {
		strbuf_addf(sb, "at %.0f boots", fw_an_whole(row->decided_at_boots));
	} else {
		if (!isnan(row->mde_pct))
			strbuf_addf(sb, "MDE %.1f%%, ", row->mde_pct);
		if (row->boots_needed != FW_AN_NA)
			strbuf_addf(sb, "needs %d boots", row->boots_needed);
		else
			strbuf_addstr(sb, "no number of boots decides it");
	}
	if (!isnan(row->floor_pct))
		strbuf_addf(sb, "; floor %.2f%% from %.0f boots", row->floor_pct, fw_an_whole(row->floor_boots));
	why_unsure(sb, row);
	strbuf_addstr(sb, "</span>");
}

/* One metric: a table of commits (median, delta, verdict) next to its small plot. */
static void metric_section(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
			   const struct fw_metric *m, const struct fw_an_index *ix, int analysed,
			   const struct ui_envs *ev)
{
	strbuf_addstr(sb, "<section class=\"metric\">\n<h3><a href=\"");
	ui_href_metric(sb, ui, s, m);
	strbuf_addstr(sb, "\">");
	html_txt(sb, m->id);
	strbuf_addstr(sb, "</a> <span class=\"muted\">(");
	html_txt(sb, m->unit);
	strbuf_addstr(sb, !strcmp(m->direction, "higher_is_better") ? ", higher is better" : ", lower is better");
	strbuf_addstr(sb, ")</span> <span class=\"envname\">");
	html_txt(sb, ui_env_name(ev, m->env));
	strbuf_addstr(sb, "</span></h3>\n<div class=\"pair\"><table class=\"grid cover\"><thead><tr><th>#</th>"
		      "<th>commit</th><th>median</th><th>delta</th><th>n</th><th>verdict</th></tr></thead><tbody>\n");
	for (int c = 0; c < s->ncommits; c++) {
		const struct fw_cell *cell = &m->cells[c];
		const struct fw_an_row *row = an_index_row(ix, s->commits[c].sha, m);
		const char *v = row ? row->verdict : NULL;

		strbuf_addf(sb, "<tr><td>%d</td><td>", s->commits[c].position);
		commit_link(sb, ui, s, &s->commits[c]);
		strbuf_addstr(sb, "</td><td class=\"num\">");
		if (isnan(cell->median))
			strbuf_addstr(sb, cell->errors ? "<span class=\"bad\">error</span>" : "-");
		else
			html_num(sb, cell->median);
		/* colours mean one thing: the verdict's (a decided change red or green, unsure yellow) */
		strbuf_addf(sb, "</td><td class=\"num v-%s\">", ui_verdict_class(v));
		if (!isnan(cell->delta_pct))
			strbuf_addf(sb, "%+.2f%%", cell->delta_pct);
		strbuf_addf(sb, "</td><td class=\"num\">%d</td>", cell->n);
		if (v) {
			strbuf_addf(sb, "<td class=\"verdict v-%s\">", ui_verdict_class(v));
			html_txt(sb, v);
			/* A floor row's verdict does not come from p. */
			if (!isnan(row->p) && !row->has_floor)
				strbuf_addf(sb, " <span class=\"muted\">p=%.2g</span>", row->p);
			ui_decided(sb, row);
			strbuf_addstr(sb, "</td></tr>\n");
		} else {
			strbuf_addf(sb, "<td class=\"muted\">%s</td></tr>\n",
				    isnan(cell->delta_pct) ? "" : analysed ? "-" : "not analysed");
		}
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	/* A metric that only has errors has nothing to plot: say so instead of a broken image. */
	if (!fw_metric_nsamples(s, m)) {
		strbuf_addstr(sb, "<p class=\"muted noplot\">no samples to plot</p></div>\n</section>\n");
		return;
	}
	if (!fw_plot_ndrawable(s, m)) {
		strbuf_addstr(sb, "<p class=\"muted noplot\">cannot plot: every sample is beyond +-1e307</p>"
			      "</div>\n</section>\n");
		return;
	}
	strbuf_addstr(sb, "<div class=\"plotbox\"><a href=\"");
	ui_href_metric(sb, ui, s, m);
	strbuf_addf(sb, "\"><img class=\"plot small\" width=\"420\" height=\"220\" data-font=\"%d\" alt=\"trend of ",
		    FW_PLOT_FONT_SMALL);
	html_attr(sb, m->id);
	strbuf_addstr(sb, "\" src=\"");
	ui_href_plot(sb, ui, s, m, "small");
	strbuf_addstr(sb, "\"></a></div></div>\n</section>\n");
}

/* Links to the other revisions of the series (server only: an export shows one). */
static void revisions(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s)
{
	int *revs = NULL, n = ui->exported || !ui->db ? 0 : fw_series_revisions(ui->db, s->name, &revs);

	for (int i = 0; i < n; i++) {
		strbuf_addstr(sb, i ? " " : "<p id=\"revisions\">revisions: ");
		if (revs[i] == s->revision) {
			strbuf_addf(sb, "<strong>v%d</strong>", revs[i]);
			continue;
		}
		strbuf_addstr(sb, "<a href=\"/series/");
		html_url_arg(sb, s->name);
		strbuf_addf(sb, "?revision=%d\">v%d</a>", revs[i], revs[i]);
	}
	if (n > 0)
		strbuf_addstr(sb, "</p>\n");
	free(revs);
}

/*
 * The whole series at a glance, against the parent or (?vs=base) against the
 * base: one matrix a page keeps the page small (the series page is the
 * busiest answer); a link switches, no JavaScript.
 */
static void matrices(struct strbuf *sb, const struct fw_ui *ui, const struct fw_series *s,
		     const struct fw_an_index *ix, const struct ui_envs *ev)
{
	strbuf_addf(sb, "<h2 id=\"matrix\">Each commit against %s</h2>\n<p class=\"matrix-nav\">",
		    ui->vs_base ? "the base" : "its parent");
	if (ui->vs_base) {
		strbuf_addstr(sb, "<a id=\"to-parent\" href=\"");
		ui_href_series_vs(sb, ui, s->name, 0);
		strbuf_addstr(sb, "\">against the parent</a> &middot; <strong>against the base</strong></p>\n");
	} else {
		strbuf_addstr(sb, "<strong>against the parent</strong> &middot; <a id=\"to-base\" href=\"");
		ui_href_series_vs(sb, ui, s->name, 1);
		strbuf_addstr(sb, "\">against the base</a></p>\n");
	}
	ui_matrix_legend(sb);
	ui_matrix(sb, ui, s, ix, ev, ui->vs_base);
}

/* A page showing an older analysis (schema: analysed_up_to) says how far it goes. */
static void ui_stale_note(struct strbuf *sb, const struct fw_an *an)
{
	const struct fw_an_commit *up = an ? an->analysed_up_to : NULL;

	if (!an || !an->stale)
		return;
	strbuf_addf(sb, "<p class=\"note stale\" id=\"stale\">Analysed up to position %d (",
		    up && up->position != FW_AN_NA ? up->position : 0);
	html_txt_short(sb, up ? up->sha : "", 12);
	strbuf_addstr(sb, "): newer boots are being analysed; deltas and verdicts of later commits "
		      "appear when that is done (reload).</p>\n");
}

void ui_series_render(const struct fw_ui *ui, const struct fw_series *s, const struct fw_an *an,
		      struct strbuf *sb)
{
	struct strbuf title = STRBUF_INIT;
	struct fw_an_index *ix = an_index_new(an);
	struct ui_envs ev;

	ui_envs_load(&ev, ui->db);
	strbuf_addf(&title, "%s v%d", s->name, s->revision);
	ui_page_begin(sb, ui, title.buf);
	strbuf_addstr(sb, "<h1>");
	html_txt(sb, s->name);
	strbuf_addf(sb, " <span class=\"muted\">v%d</span></h1>\n<p class=\"base\">base <span class=\"mono\">", s->revision);
	html_txt(sb, s->base);
	strbuf_addstr(sb, "</span> &middot; <a href=\"");
	ui_href_data(sb, ui, s->name, "report.txt");
	strbuf_addstr(sb, "\">report.txt</a> &middot; <a href=\"");
	ui_href_data(sb, ui, s->name, "csv");
	strbuf_addstr(sb, "\">CSV</a> &middot; <a href=\"");
	ui_href_data(sb, ui, s->name, "json");
	strbuf_addstr(sb, "\">JSON</a> &middot; <a href=\"");
	ui_href_compare(sb, ui, s->name, NULL, NULL);
	strbuf_addstr(sb, "\">compare two commits</a> &middot; <a href=\"");
	ui_href_regressions(sb, ui);
	strbuf_addstr(sb, "\">regressions</a></p>\n");
	ui_series_moved(sb, ui, s, an, &ev);
	revisions(sb, ui, s);
	ui_window_nav(sb, ui, s, NULL, window_href);
	ui_stale_note(sb, an);
	if (s->watched)
		strbuf_addstr(sb, "<p class=\"note\" id=\"watched\">A watched history: each commit is decided once, "
			      "from the commits up to it; its verdicts do not move as the history grows.</p>\n");
	if (an)
		strbuf_addf(sb, "<p class=\"note\">Each commit against %s: median, delta %%, "
			    "verdict from a Mann-Whitney U test with a minimum effect (BH-adjusted over the series), or, "
			    "for a metric whose boots of one kernel agree in that environment, against a noise floor; "
			    "green is a decided improvement, red a decided regression, yellow unsure.</p>\n",
			    ui->vs_base ? "the base (the matrix; the tables below: against the parent)" : "its parent");
	else
		strbuf_addstr(sb, "<p class=\"note\">Statistics: not analysed: medians only, no deltas "
			      "or verdicts.</p>\n");
	if (s->nmetrics)
		matrices(sb, ui, s, ix, &ev);
	commits_table(sb, ui, s);
	if (an)
		ui_change_points(sb, ui, s, an, NULL);
	strbuf_addstr(sb, "<h2>Metrics</h2>\n");
	if (!s->nmetrics)
		strbuf_addstr(sb, "<p class=\"muted\">No results.</p>\n");
	for (int i = 0; i < s->nmetrics; i++)
		metric_section(sb, ui, s, &s->metrics[i], ix, an != NULL, &ev);
	ui_page_end(sb, ui);
	an_index_free(ix);
	ui_envs_free(&ev);
	strbuf_release(&title);
}

enum MHD_Result ui_series(struct fw_req *r)
{
	struct strbuf sb = STRBUF_INIT, vs = STRBUF_INIT;
	struct fw_series s;
	struct fw_ui ui = { 0 };
	enum MHD_Result ret;
	struct fw_an *an;

	if (req_series_window(r, r->args[0], "name", FW_SERIES_PAGE_COMMITS, &s, &ret))
		return ret;
	if (!req_query(r, "vs", &vs) && strcmp(vs.buf, "base") && strcmp(vs.buf, "parent")) {
		fw_series_free(&s);
		strbuf_release(&vs);
		return reply_error(r, 400, "bad_parameter", "vs", "vs must be parent or base");
	}
	ui.vs_base = !strcmp(vs.buf, "base");
	strbuf_release(&vs);
	ui.db = req_db(r);
	ui.revision = req_revision(r);
	an = req_analysis_for(r, &s, NULL);
	an_apply(&s, an);
	ui_series_render(&ui, &s, an, &sb);
	fw_series_free(&s);
	fw_an_free(an);
	return reply_buf(r, 200, "text/html; charset=utf-8", &sb, NULL);
}
